//! Every key of one node (`Session::lookup_all`, `hiera-lookup --all`)
//! against Puppet's recorded answers.
//!
//! `tests/conformance/all_keys/*` cases query every key of their data
//! files, as `scripts/walk-data-keys` lists them (independently of
//! libhiera): there the enumeration must give exactly those keys, and each
//! answer must be the recorded one (found: the value, in key order; not
//! found: absent; error: reported for that key). The example repo's
//! recorded keys must be answered the same by `--all`.

mod support;

use hiera::hiera5::all_keys::lookup_name;
use hiera::render::to_json;
use hiera::{Hiera, Options, Session};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use support::{load_case, Case, Outcome};

fn session(case: &Case) -> Session {
    let opts = Options {
        hiera_config: case.dir.join("hiera.yaml"),
        environmentpath: case.dir.join("environments"),
        environment: case.environment.clone(),
        basemodulepath: case.settings.basemodulepath.clone(),
        strict: case.settings.strict,
        working_directory: Some(case.dir.clone()),
        ..Default::default()
    };
    Session::new(Arc::new(Hiera::open(opts).unwrap()), case.scope.clone())
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// Checks `all` (key -> value, key -> error) against every recorded query
/// of `case`; with `every`, also that the keys are exactly the queries.
fn check(case: &Case, session: &Session, every: bool) {
    let all = session.lookup_all().unwrap();
    let name = case.dir.display();
    let mut asked = Vec::new();
    for q in &case.queries {
        // A recorded dotted key digs; --all has only top-level keys.
        let Some(key) = all_name(&q.key) else {
            continue;
        };
        asked.push(key.clone());
        let value = all.values.iter().find(|(k, _)| *k == key).map(|(_, v)| v);
        let error = all.errors.iter().find(|(k, _)| *k == key).map(|(_, e)| e);
        match (&q.expected, value, error) {
            (Outcome::Value(want), Some(got), None) => {
                assert_eq!(to_json(got), to_json(want), "{name}: {key}")
            }
            (Outcome::NotFound, None, None) => {}
            (Outcome::Error(_), None, Some(_)) => {}
            (want, got, e) => panic!("{name}: {key}: recorded {want:?}, --all {got:?} / {e:?}"),
        }
    }
    if every {
        let mut got: Vec<String> = session.all_keys().unwrap();
        got.sort();
        asked.sort();
        assert_eq!(got, asked, "{name}: the keys are not the data files' keys");
        // Sorted by key, byte order.
        let keys: Vec<&String> = all.values.iter().map(|(k, _)| k).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "{name}: not sorted");
    }
}

/// The `--all` name of a recorded query key: a plain key as it is, a
/// quoted dotted key unquoted; `None` for a key that digs.
fn all_name(query: &str) -> Option<String> {
    if let Some(inner) = query.strip_prefix('"').and_then(|q| q.strip_suffix('"')) {
        return Some(inner.to_string());
    }
    (!query.contains('.')).then(|| query.to_string())
}

#[test]
fn every_key_cases_equal_puppet_key_by_key() {
    let dir = root().join("tests/conformance/all_keys");
    let mut cases = Vec::new();
    support::find_cases(&dir, &mut cases);
    assert!(!cases.is_empty());
    for dir in cases {
        let case = load_case(&dir).unwrap();
        check(&case, &session(&case), true);
    }
}

#[test]
fn example_repo_answers_equal_puppet() {
    let case = load_case(&root().join("examples")).unwrap();
    check(&case, &session(&case), false);
}

#[test]
fn lookup_name_quotes_dotted_keys() {
    assert_eq!(lookup_name("a::b").as_deref(), Some("a::b"));
    assert_eq!(lookup_name("a.b").as_deref(), Some("\"a.b\""));
    assert_eq!(lookup_name("a.\"b").as_deref(), Some("'a.\"b'"));
    assert_eq!(lookup_name("a.\"'b"), None);
}

#[test]
fn cli_all_prints_the_answers_and_reports_errors_per_key() {
    let dir = root().join("tests/conformance/all_keys/every_key");
    let case = load_case(&dir).unwrap();
    let scope = std::env::temp_dir().join(format!("all_keys_scope_{}.json", std::process::id()));
    std::fs::write(&scope, to_json(&hiera::Value::hash(case.scope.clone()))).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hiera-lookup"))
        .current_dir(&dir)
        .args([
            "--hiera_config",
            "hiera.yaml",
            "--environmentpath",
            "environments",
        ])
        .arg("--scope")
        .arg(&scope)
        .arg("--all")
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&scope);
    assert_eq!(
        out.status.code(),
        Some(2),
        "a key's error makes the status 2"
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let got: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let obj = got.as_object().unwrap();
    let mut found = 0;
    for q in &case.queries {
        let key = all_name(&q.key).unwrap();
        match &q.expected {
            Outcome::Value(v) => {
                found += 1;
                let want: serde_json::Value = serde_json::from_str(&to_json(v)).unwrap();
                assert_eq!(obj.get(&key), Some(&want), "{key}");
            }
            Outcome::NotFound => assert!(!obj.contains_key(&key), "{key}"),
            Outcome::Error(_) => {
                assert!(!obj.contains_key(&key), "{key}");
                assert!(stderr.contains(&format!("Error: {key}: ")), "{stderr}");
            }
        }
    }
    assert_eq!(obj.len(), found);
}
