//! Puppet 4 `function` data providers through a host (see
//! `src/hiera5/data_provider.rs` and `src/host.rs`): the `v4_data_hash` call the
//! engine makes (its fields, once per session), what the engine does with
//! the hash (search, lookup_options, merges, interpolation), Puppet's
//! warnings, and the errors without a host or with a bad answer. The
//! answers Puppet itself gives are the recorded cases under
//! `tests/conformance/libhiera/data_provider/`, which the hand-off test runs
//! with Puppet's own functions.

use hiera::host::{Host, HostCall, HostRef, Warning};
use hiera::{Hiera, LookupRequest, Map, Options, Session, Value};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A scratch tree, removed when dropped.
struct Tree(PathBuf);

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn tree(tag: &str) -> Tree {
    let root = std::env::temp_dir().join(format!(
        "libhiera-data-provider-{tag}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&root);
    let metadata = |provider: &str| {
        format!(
            r#"{{"name": "me-m", "version": "1.0.0", "author": "me", "license": "MIT", "source": "s", "dependencies": [], "data_provider": "{provider}"}}"#
        )
    };
    let files: &[(&str, String)] = &[
        (
            "hiera.yaml",
            "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n".into(),
        ),
        ("data/common.yaml", "shared: [global]\n".into()),
        (
            "environments/production/environment.conf",
            "environment_data_provider = function\n".into(),
        ),
        (
            "environments/production/modules/mymod/metadata.json",
            metadata("function"),
        ),
        (
            "environments/production/modules/plain/hiera.yaml",
            "version: 5\n".into(),
        ),
        (
            "environments/production/modules/plain/data/common.yaml",
            "plain::x: 1\nnot_plains: 2\nlookup_options: {}\n".into(),
        ),
    ];
    for (path, text) in files {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    Tree(root)
}

/// A host that answers the data functions from `answers` (by function
/// name), and records the calls and the warnings.
#[derive(Default)]
struct Recorder {
    answers: Map,
    runs: bool,
    calls: Mutex<Vec<String>>,
    warnings: Mutex<Vec<Warning>>,
}

impl Host for Recorder {
    fn call(&self, call: &HostCall<'_>) -> hiera::Result<Option<Value>> {
        self.calls.lock().unwrap().push(call.to_json());
        Ok(self.answers.get(&Value::from(call.function)).cloned())
    }

    fn runs_functions(&self) -> bool {
        self.runs
    }

    fn warn(&self, warning: &Warning) {
        self.warnings.lock().unwrap().push(warning.clone());
    }
}

fn yaml(text: &str) -> Value {
    hiera::yaml::load(text, &Default::default())
        .unwrap()
        .unwrap()
}

fn open(root: &Path, host: Arc<Recorder>) -> Arc<Hiera> {
    Arc::new(
        Hiera::open(Options {
            hiera_config: root.join("hiera.yaml"),
            environmentpath: root.join("environments"),
            host: Some(HostRef(host)),
            ..Default::default()
        })
        .unwrap(),
    )
}

fn scope() -> Map {
    let mut m = Map::default();
    m.insert(Value::from("role"), Value::from("web"));
    m
}

fn recorder(runs: bool, answers: &str) -> Arc<Recorder> {
    Arc::new(Recorder {
        answers: yaml(answers).as_hash().unwrap().clone(),
        runs,
        ..Default::default()
    })
}

const ANSWERS: &str = r#"
environment::data:
  env_key: "role %{role}"
  shared: [env]
  lookup_options:
    shared: {merge: unique}
mymod::data:
  mymod::a: "%{lookup('env_key')}"
  mymod::list: [m]
"#;

#[test]
fn the_functions_are_called_once_per_session_and_their_data_searched_here() {
    let t = tree("calls");
    let host = recorder(true, ANSWERS);
    let hiera = open(&t.0, Arc::clone(&host));
    let s = Session::new(Arc::clone(&hiera), scope());
    let get = |s: &Session, k: &str| s.lookup_key(k).unwrap().map(|v| hiera::render::to_json(&v));
    assert_eq!(get(&s, "env_key").as_deref(), Some(r#""role web""#));
    assert_eq!(get(&s, "shared").as_deref(), Some(r#"["global","env"]"#));
    assert_eq!(get(&s, "mymod::a").as_deref(), Some(r#""role web""#));
    assert_eq!(get(&s, "mymod::list").as_deref(), Some(r#"["m"]"#));
    assert_eq!(get(&s, "mymod::missing"), None);
    let req = LookupRequest {
        keys: vec!["shared".into()],
        merge: Some(Value::from("first")),
        ..Default::default()
    };
    assert_eq!(s.lookup(&req).unwrap(), Some(yaml("[global]")));
    // One call per function and session, as Puppet calls it once per compile.
    let calls = host.calls.lock().unwrap().clone();
    assert_eq!(
        calls,
        [
            r#"{"kind":"v4_data_hash","function":"environment::data","layer":"environment","entry":"Legacy function 'environment::data'","index":0,"default_hierarchy":false}"#,
            r#"{"kind":"v4_data_hash","function":"mymod::data","layer":"module","module":"mymod","entry":"Legacy function 'mymod::data'","index":0,"default_hierarchy":false}"#,
        ]
    );
    // A new session calls again.
    let s2 = Session::new(Arc::clone(&hiera), scope());
    assert_eq!(get(&s2, "env_key").as_deref(), Some(r#""role web""#));
    assert_eq!(host.calls.lock().unwrap().len(), 3);
    // Puppet's deprecation warnings, once per key.
    let warnings = host.warnings.lock().unwrap().clone();
    let env_conf = t.0.join("environments/production/environment.conf");
    let first = warnings
        .iter()
        .find(|w| w.key == "environment.conf#data_provider")
        .unwrap();
    assert_eq!(first.kind, Some("deprecations"));
    assert_eq!(first.file.as_deref(), Some(env_conf.as_path()));
    assert_eq!(first.message, "Defining environment_data_provider='function' in environment.conf is deprecated. A 'hiera.yaml' file should be used instead");
    assert!(warnings.iter().any(|w| w.key == "legacy_provider_function"
        && w.message == "Using of legacy data provider function 'environment::data'. Please convert to a 'data_hash' function"));
    assert!(warnings
        .iter()
        .any(|w| w.key == "metadata.json#data_provider-mymod"));
}

#[test]
fn a_modules_keys_outside_its_namespace_are_warned_about_as_puppet_does() {
    let t = tree("module-keys");
    let host = recorder(true, ANSWERS);
    let s = Session::new(open(&t.0, Arc::clone(&host)), scope());
    assert_eq!(s.lookup_key("plain::x").unwrap(), Some(Value::Int(1)));
    assert_eq!(s.lookup_key("plain::x").unwrap(), Some(Value::Int(1)));
    let data =
        t.0.join("environments/production/modules/plain/data/common.yaml");
    let expected = format!("Module 'plain': Value returned from data_hash function 'yaml_data', when using location '{}', must use keys qualified with the name of the module", data.display());
    let warned: Vec<String> = host
        .warnings
        .lock()
        .unwrap()
        .iter()
        .filter(|w| w.message.starts_with("Module 'plain'"))
        .map(|w| w.message.clone())
        .collect();
    // One key outside the namespace (lookup_options is allowed), one read.
    assert_eq!(warned, [expected]);
}

#[test]
fn without_a_host_that_runs_functions_the_error_names_the_function() {
    let t = tree("no-host");
    let s = Session::new(open(&t.0, recorder(false, "{}")), scope());
    for key in ["env_key", "shared", "mymod::a"] {
        let e = s.lookup_key(key).unwrap_err();
        assert_eq!(
            e.message,
            "Unable to find 'v4_data_hash' function named 'environment::data'"
        );
    }
    // No host at all: the same.
    let plain = Hiera::open(Options {
        hiera_config: t.0.join("hiera.yaml"),
        environmentpath: t.0.join("environments"),
        ..Default::default()
    })
    .unwrap();
    let e = Session::new(Arc::new(plain), scope())
        .lookup_key("env_key")
        .unwrap_err();
    assert_eq!(
        e.message,
        "Unable to find 'v4_data_hash' function named 'environment::data'"
    );
}

#[test]
fn bad_answers_fail_as_puppet_fails_them() {
    let t = tree("bad");
    let s = Session::new(
        open(&t.0, recorder(true, "environment::data: [a, b]\n")),
        scope(),
    );
    let e = s.lookup_key("anything").unwrap_err();
    assert_eq!(e.message, "Value returned from deprecated API function 'environment::data' has wrong type, expects a Hash value, got Tuple");
}
