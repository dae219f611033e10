//! Deep data and deep lookups on the stack a host thread may have.
//!
//! libhiera runs on threads it did not make: a Ruby or JVM worker has 1 MiB
//! of stack or less, and a host may give 512 KiB. Every lookup here runs on
//! a thread with [`STACK`] bytes of stack and must end with a value or a
//! clean error: a stack overflow would abort this test process.

use hiera::{ErrorKind, Hiera, LookupRequest, Map, Options, Session, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

mod support;

/// The stack of the threads the lookups run on.
const STACK: usize = 512 * 1024;

/// Nesting just under the YAML loader's limit.
const DEEP: usize = hiera::yaml::MAX_DEPTH - 10;

fn repo(name: &str, files: &[(&str, String)]) -> PathBuf {
    support::limit_memory();
    let dir = std::env::temp_dir().join(format!(
        "libhiera-small-stacks-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(
        dir.join("hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: node\n    path: node.yaml\n  - name: common\n    path: common.yaml\n",
    )
    .unwrap();
    for (p, text) in files {
        std::fs::write(dir.join("data").join(p), text).unwrap();
    }
    dir
}

fn session_with(dir: &Path, scope: Map) -> Session {
    let options = Options {
        hiera_config: dir.join("hiera.yaml"),
        environmentpath: dir.join("environments"),
        ..Default::default()
    };
    Session::new(Arc::new(Hiera::open(options).unwrap()), scope)
}

/// Runs `f` on a thread with [`STACK`] bytes of stack.
fn on_small_stack<T: Send + 'static>(name: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .name(name.into())
        .stack_size(STACK)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

/// A block-style YAML hash nested `depth` levels under `key`, the keys
/// `a0`, `a1`, ... and `leaf` at the bottom.
fn block_hash(key: &str, depth: usize, leaf: &str) -> String {
    let mut s = format!("{key}:\n");
    for i in 0..depth {
        s.push_str(&" ".repeat(2 * (i + 1)));
        s.push_str(&format!("a{i}:\n"));
    }
    s.push_str(&" ".repeat(2 * (depth + 1)));
    s.push_str(leaf);
    s.push('\n');
    s
}

/// A flow-style YAML array nested `depth` levels.
fn flow_array(depth: usize, leaf: &str) -> String {
    format!("{}{leaf}{}", "[".repeat(depth), "]".repeat(depth))
}

/// The depth of nested hashes (first entry) or arrays (first element).
fn depth_of(mut v: &Value) -> usize {
    let mut d = 0;
    loop {
        v = match v {
            Value::Hash(h) if !h.is_empty() => h.iter().next().unwrap().1,
            Value::Array(a) if !a.is_empty() => &a[0],
            _ => return d,
        };
        d += 1;
    }
}

fn request(key: &str, merge: Option<&str>) -> LookupRequest {
    let mut r = LookupRequest::key(key);
    r.merge = merge.map(|m| hiera::render::from_json(m).unwrap());
    r
}

#[test]
fn deep_hashes_are_merged_rendered_and_explained() {
    let dir = repo(
        "hashes",
        &[
            ("node.yaml", block_hash("k", DEEP, "leaf: node")),
            ("common.yaml", block_hash("k", DEEP, "other: common")),
        ],
    );
    on_small_stack("deep hashes", move || {
        let s = session_with(&dir, Map::default());
        for merge in [
            None,
            Some(r#""hash""#),
            Some(r#""deep""#),
            Some(
                r#"{"strategy": "deep", "knockout_prefix": "--", "sort_merged_arrays": true, "merge_hash_arrays": true}"#,
            ),
        ] {
            let v = s.lookup(&request("k", merge)).unwrap().unwrap();
            assert_eq!(depth_of(&v), DEEP + 1, "{merge:?}");
            let json = hiera::render::to_json(&v);
            assert!(json.ends_with(&"}".repeat(DEEP + 1)), "{merge:?}");
            if merge == Some(r#""deep""#) {
                assert!(
                    json.contains(r#""leaf":"node""#) && json.contains(r#""other":"common""#),
                    "deep merge of the bottom level"
                );
            }
            let _ = hiera::yaml::to_yaml(&v);
            let _ = hiera::ruby::inspect(&v);
            let mut s2 = String::new();
            hiera::ruby::to_s(&v, &mut s2);
            let (r, text) = s.explain(&request("k", merge));
            assert!(r.unwrap().is_some());
            assert!(text.contains("Searching for \"k\""));
        }
        let dotted: Vec<String> = (0..DEEP).map(|i| format!("a{i}")).collect();
        let v = s
            .lookup(&request(&format!("k.{}.leaf", dotted.join(".")), None))
            .unwrap();
        assert_eq!(v, Some(Value::from("node")));
    });
}

#[test]
fn deep_arrays_are_united_and_compared() {
    // Block sequences as deep as the loader allows; flow collections (hash
    // keys) as deep as libyaml allows (255).
    let deep = |leaf: &str| format!("\n  {}{leaf}", "- ".repeat(DEEP));
    let key = flow_array(250, "x");
    let dir = repo(
        "arrays",
        &[
            ("node.yaml", format!("k: {}\nh: {{{key}: 1}}\n", deep("x"))),
            (
                "common.yaml",
                format!("k: {}\nh: {{{key}: 2}}\n", deep("y")),
            ),
        ],
    );
    on_small_stack("deep arrays", move || {
        let s = session_with(&dir, Map::default());
        for merge in [
            r#""unique""#,
            r#""deep""#,
            r#"{"strategy": "deep", "sort_merged_arrays": true}"#,
        ] {
            match s.lookup(&request("k", Some(merge))) {
                Ok(Some(v)) => assert!(v.as_array().is_some(), "{merge}"),
                Ok(None) => panic!("{merge}: not found"),
                Err(e) => assert_ne!(e.kind, ErrorKind::Lookup, "{merge}: {}", e.message),
            }
        }
        // A hash with Array keys is not RichData: Puppet's type error, its
        // inferred type written out to the bottom.
        let e = s.lookup(&request("h", Some(r#""deep""#))).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Type, "{}", e.message);
        assert!(
            e.message.ends_with("1, 1], Integer[1, 1], 1, 1]"),
            "{:.200}",
            e.message
        );
    });
}

#[test]
fn deep_block_sequences_and_convert_to() {
    let mut seq = String::from("k:\n");
    for i in 0..DEEP {
        seq.push_str(&" ".repeat(2 * (i + 1)));
        seq.push_str("-\n");
    }
    seq.push_str(&" ".repeat(2 * (DEEP + 1)));
    seq.push_str("x\n");
    let dir = repo(
        "seq",
        &[
            ("node.yaml", format!("lookup_options:\n  s:\n    convert_to: String\n  t:\n    convert_to: Sensitive\n{}{}", block_hash("s", DEEP, "x"), block_hash("t", DEEP, "x"))),
            ("common.yaml", seq),
        ],
    );
    on_small_stack("deep sequences", move || {
        let s = session_with(&dir, Map::default());
        let v = s.lookup(&request("k", None)).unwrap().unwrap();
        assert_eq!(depth_of(&v), DEEP);
        let v = s.lookup(&request("s", None)).unwrap().unwrap();
        assert!(
            v.as_str().unwrap().starts_with("{'a0' => {'a1' => "),
            "{:.40}",
            v.as_str().unwrap()
        );
        let v = s.lookup(&request("t", None)).unwrap().unwrap();
        assert!(matches!(v, Value::Sensitive(_)));
    });
}

#[test]
fn deep_data_with_interpolation_at_the_bottom() {
    let dir = repo(
        "interp",
        &[
            (
                "node.yaml",
                block_hash("k", DEEP, "leaf: \"%{lookup('v')} and %{facts.os.family}\""),
            ),
            ("common.yaml", "v: found\n".into()),
        ],
    );
    on_small_stack("deep interpolation", move || {
        let mut facts = Map::default();
        facts.insert(
            Value::from("os"),
            Value::hash(
                [(Value::from("family"), Value::from("Debian"))]
                    .into_iter()
                    .collect(),
            ),
        );
        let mut scope = Map::default();
        scope.insert(Value::from("facts"), Value::hash(facts));
        let s = session_with(&dir, scope);
        let v = s.lookup(&request("k", None)).unwrap().unwrap();
        assert_eq!(depth_of(&v), DEEP + 1);
        assert!(hiera::render::to_json(&v).contains(r#"{"leaf":"found and Debian"}"#));
    });
}

#[test]
fn deep_scope_and_request_values() {
    // The wire decoder's nesting limit is the deepest a scope, default or
    // override can be.
    let deep = flow_array(500, "1")
        .replace('[', "{\"a\": ")
        .replace(']', "}")
        .replacen("{\"a\": ", "", 0);
    let deep_default = hiera::render::from_json(&deep).unwrap();
    let path: Vec<&str> = vec!["a"; 499];
    let dir = repo(
        "scope",
        &[(
            "common.yaml",
            format!("k: \"%{{facts.{}}}\"\n", path.join(".")),
        )],
    );
    on_small_stack("deep scope", move || {
        let mut scope = Map::default();
        scope.insert(Value::from("facts"), deep_default.clone());
        let s = session_with(&dir, scope);
        let v = s.lookup(&request("k", None)).unwrap().unwrap();
        assert_eq!(v, Value::from("{\"a\"=>1}"));
        let mut r = request("nothing", None);
        r.default = Some(deep_default.clone());
        let v = s.lookup(&r).unwrap().unwrap();
        assert_eq!(depth_of(&v), 500);
        let mut r = request("k", None);
        r.override_values
            .insert(Value::from("k"), deep_default.clone());
        assert_eq!(depth_of(&s.lookup(&r).unwrap().unwrap()), 500);
    });
}

#[test]
fn values_nested_through_aliases_beyond_one_file_limit() {
    // Each anchor nests the one before 200 levels deeper: 6,000 levels,
    // far beyond the 1,500 one collection may nest in a file; a hash with an
    // Array key at the bottom makes the lookup fail Puppet's type check,
    // whose message infers the type of the whole value.
    let mut data = String::new();
    for i in 0..30 {
        let leaf = if i == 0 {
            "{[1]: 2}".to_string()
        } else {
            format!("*a{}", i - 1)
        };
        data.push_str(&format!("a{i}: &a{i} {}\n", flow_array(200, &leaf)));
    }
    data.push_str("k: [*a29, *a29]\n");
    let dir = repo(
        "aliases",
        &[("node.yaml", data), ("common.yaml", "k: [[1]]\n".into())],
    );
    on_small_stack("aliases", move || {
        let s = session_with(&dir, Map::default());
        for merge in [None, Some(r#""unique""#), Some(r#""deep""#)] {
            let e = s.lookup(&request("k", merge)).unwrap_err();
            assert_eq!(e.kind, ErrorKind::Type, "{merge:?}: {:.200}", e.message);
        }
        let v = s.lookup(&request("a28", None));
        assert!(v.is_err());
    });
}
