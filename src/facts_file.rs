//! Reading one node's facts from a file, as users have them (for `--fleet`).
//!
//! Accepted shapes, detected from the content (not the file name):
//! - Puppet Server's cached facts, `yaml/facts/<certname>.yaml`: a document
//!   tagged `--- !ruby/object:Puppet::Node::Facts` with `name`, `values`,
//!   `timestamp`, `expiration`. Only the root tag is accepted (it is dropped
//!   before parsing); every other Ruby tag is refused by the safe YAML loader
//!   as Puppet's safe load refuses it, so no Ruby object is ever evaluated.
//! - The same wrapper as JSON (`puppet facts find --render-as json`).
//! - A plain fact hash in JSON (`puppet facts show`, `facter -j`) or YAML.
//!
//! The certname is, first found: `trusted.certname`, `clientcert`, the
//! wrapper's `name`, then the file name without its `.yaml`/`.yml`/`.json`
//! extension. Pure functions; any thread may call them.

use crate::error::{Error, ErrorKind};
use crate::value::Value;
use crate::yaml::{self, YamlOptions};
use std::path::{Path, PathBuf};

/// The root tag of Puppet's cached facts documents.
const FACTS_TAG: &str = "!ruby/object:Puppet::Node::Facts";

/// One node's facts read from a file. Owned by the caller.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeFacts {
    /// The node's certname (see the module documentation for where it comes from).
    pub certname: String,
    /// The fact hash (always a [`Value::Hash`]).
    pub facts: Value,
}

/// Reads and parses the facts file at `path`.
///
/// Errors name the file: unreadable (`Io`), unparsable (`Parse`), or not a
/// hash of facts (`Type`).
pub fn read_facts_file(path: &Path) -> Result<NodeFacts, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| Error {
        kind: ErrorKind::Io,
        message: format!("Unable to read facts file {}: {}", path.display(), e),
        file: Some(path.to_path_buf()),
        line: None,
    })?;
    parse_facts(&text, path)
}

/// Parses facts from `text`; `path` names the file in errors and is the
/// certname of last resort.
pub fn parse_facts(text: &str, path: &Path) -> Result<NodeFacts, Error> {
    let root = if looks_like_json(text) {
        crate::json::load(text).map_err(|e| e.into_error(path))?
    } else {
        let text = strip_facts_tag(text);
        let opts = YamlOptions::default();
        match yaml::load(&text, &opts) {
            Ok(Some(v)) => v,
            Ok(None) => Value::Nil,
            Err(e) => return Err(e.to_error(path)),
        }
    };
    let not_hash = || Error {
        kind: ErrorKind::Type,
        message: format!(
            "Facts file {} does not hold a hash of facts",
            path.display()
        ),
        file: Some(path.to_path_buf()),
        line: None,
    };
    let top = root.as_hash().ok_or_else(not_hash)?;
    // The Puppet::Node::Facts wrapper: `name` + `values` and nothing but
    // its own attributes.
    let wrapper = top
        .get(&Value::from("values"))
        .and_then(|v| v.as_hash())
        .is_some()
        && top.keys().all(|k| {
            matches!(
                k.as_str(),
                Some("name" | "values" | "timestamp" | "expiration")
            )
        });
    let (facts, name) = if wrapper {
        let name = top
            .get(&Value::from("name"))
            .and_then(|v| v.as_str())
            .map(str::to_string);
        (
            top.get(&Value::from("values")).cloned().unwrap_or_default(),
            name,
        )
    } else {
        (root.clone(), None)
    };
    let certname = certname_of(&facts)
        .or(name)
        .unwrap_or_else(|| file_stem(path));
    Ok(NodeFacts { certname, facts })
}

/// `trusted.certname`, else `clientcert`, when a non-empty string.
fn certname_of(facts: &Value) -> Option<String> {
    let h = facts.as_hash()?;
    let trusted = h
        .get(&Value::from("trusted"))
        .and_then(|t| t.as_hash())
        .and_then(|t| t.get(&Value::from("certname")))
        .and_then(|v| v.as_str());
    let clientcert = h.get(&Value::from("clientcert")).and_then(|v| v.as_str());
    trusted
        .filter(|s| !s.is_empty())
        .or(clientcert.filter(|s| !s.is_empty()))
        .map(str::to_string)
}

/// The file name without a `.yaml`, `.yml` or `.json` extension.
fn file_stem(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for ext in [".yaml", ".yml", ".json"] {
        if let Some(s) = name.strip_suffix(ext) {
            return s.to_string();
        }
    }
    name
}

/// Whether the first non-blank character opens a JSON object.
fn looks_like_json(text: &str) -> bool {
    text.trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('{')
}

/// Drops the `!ruby/object:Puppet::Node::Facts` tag of the document start
/// line (`--- !ruby/object:Puppet::Node::Facts`); nothing else is touched.
fn strip_facts_tag(text: &str) -> std::borrow::Cow<'_, str> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_end();
        if t.is_empty() || t.starts_with('#') || t.starts_with('%') {
            offset += line.len();
            continue;
        }
        if let Some(rest) = t.strip_prefix("---") {
            let rest = rest.trim_start();
            if rest == FACTS_TAG {
                let mut s = String::with_capacity(text.len());
                s.push_str(&text[..offset]);
                s.push_str("---");
                s.push_str(&text[offset + line.trim_end_matches(['\r', '\n']).len()..]);
                return s.into();
            }
        }
        break;
    }
    text.into()
}

/// The facts files of a fleet directory: its regular files ending in
/// `.yaml`, `.yml` or `.json` (not descending into subdirectories), sorted
/// by name so runs are reproducible.
pub fn list_facts_files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let io = |e: std::io::Error| Error {
        kind: ErrorKind::Io,
        message: format!("Unable to read fleet directory {}: {}", dir.display(), e),
        file: Some(dir.to_path_buf()),
        line: None,
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let path = entry.path();
        let ok_ext = matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml" | "json")
        );
        if ok_ext && path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(name: &str) -> PathBuf {
        PathBuf::from(format!("/fleet/{name}"))
    }

    fn fact<'a>(n: &'a NodeFacts, k: &str) -> Option<&'a Value> {
        n.facts.as_hash().unwrap().get(&Value::from(k))
    }

    #[test]
    fn puppet_server_cached_facts() {
        // Written by Puppet 7's own Puppet::Util::Yaml.dump of a Puppet::Node::Facts.
        let text = include_str!("../tests/fleet/puppet-cached-web01.yaml");
        let n = parse_facts(text, &p("web01.example.com.yaml")).unwrap();
        assert_eq!(n.certname, "web01.example.com");
        assert_eq!(fact(&n, "processorcount"), Some(&Value::from(4i64)));
        assert_eq!(
            fact(&n, "timestamp"),
            None,
            "wrapper attributes are not facts"
        );
        assert!(fact(&n, "os").unwrap().as_hash().is_some());
    }

    #[test]
    fn wrapper_name_used_when_no_certname_fact() {
        let text = "--- !ruby/object:Puppet::Node::Facts\nname: db1\nvalues:\n  a: 1\n";
        let n = parse_facts(text, &p("other.yaml")).unwrap();
        assert_eq!(n.certname, "db1");
        assert_eq!(fact(&n, "a"), Some(&Value::from(1i64)));
    }

    #[test]
    fn other_ruby_objects_are_refused() {
        let text = "--- !ruby/object:Puppet::Node::Facts\nname: x\nvalues:\n  a: !ruby/object:Gem::Requirement\n    x: 1\n";
        let e = parse_facts(text, &p("x.yaml")).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Parse);
        assert!(e.message.contains("/fleet/x.yaml"), "{}", e.message);
        let text = "--- !ruby/object:Gem::Requirement\nname: x\nvalues: {}\n";
        assert!(parse_facts(text, &p("x.yaml")).is_err());
    }

    #[test]
    fn plain_json_and_yaml_hashes() {
        let n = parse_facts(
            r#"{"trusted": {"certname": "a.example"}, "clientcert": "b"}"#,
            &p("f.json"),
        )
        .unwrap();
        assert_eq!(n.certname, "a.example");
        let n = parse_facts(
            "clientcert: b.example\nos: {family: RedHat}\n",
            &p("f.yaml"),
        )
        .unwrap();
        assert_eq!(n.certname, "b.example");
        let n = parse_facts("{\"os\": {}}", &p("node7.json")).unwrap();
        assert_eq!(n.certname, "node7");
        let n = parse_facts(
            r#"{"name":"w","values":{"x":true},"timestamp":"t","expiration":"e"}"#,
            &p("q.json"),
        )
        .unwrap();
        assert_eq!(n.certname, "w");
        assert_eq!(fact(&n, "x"), Some(&Value::from(true)));
    }

    #[test]
    fn a_fact_named_values_is_not_a_wrapper() {
        let n = parse_facts("values: {a: 1}\nkernel: Linux\n", &p("n.yaml")).unwrap();
        assert_eq!(fact(&n, "kernel"), Some(&Value::from("Linux")));
    }

    #[test]
    fn not_a_hash_is_a_clear_error() {
        for text in ["", "- a\n- b\n", "[1]", "--- 3\n"] {
            let e = parse_facts(text, &p("bad.yaml")).unwrap_err();
            assert_eq!(e.kind, ErrorKind::Type, "{text:?}");
            assert!(e.message.contains("/fleet/bad.yaml"));
        }
        let e = parse_facts("a: [\n", &p("bad.yaml")).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Parse);
    }

    #[test]
    fn lists_only_facts_files_sorted() {
        let dir = std::env::temp_dir().join(format!("libhiera-facts-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub.yaml")).unwrap();
        for f in ["b.json", "a.yaml", "c.yml", "notes.txt"] {
            std::fs::write(dir.join(f), "{}").unwrap();
        }
        let got = list_facts_files(&dir).unwrap();
        let names: Vec<_> = got
            .iter()
            .map(|p| p.file_name().unwrap().to_str().unwrap().to_string())
            .collect();
        assert_eq!(names, ["a.yaml", "b.json", "c.yml"]);
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(list_facts_files(&dir).is_err());
    }
}
