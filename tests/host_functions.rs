//! `Options::host_functions`: libhiera's own hierarchy functions run by the
//! host instead (as for a Puppet without a HOCON library, whose
//! `hocon_data` fails with its own error). The host gets the calls a custom
//! function of that name and kind would get; a level whose file is missing
//! never reaches it; without a host the level fails as an unknown
//! function's does; a built-in with no path stays a configuration error.

mod support;

use hiera::hiera5::config::FunctionKind;
use hiera::host::{Host, HostCall, HostRef, Warning};
use hiera::{Hiera, LookupRequest, Map, Options, Session, Value};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A scratch repository with the given files.
fn repo(name: &str, files: &[(&str, &str)]) -> PathBuf {
    support::scratch("host-fns", name, files)
}

/// A host that notes each call (kind, function, location's file name, key)
/// and answers `data_hash` with `{"k": "from host <file>"}` and `lookup_key`
/// with `"host <key>"` (not found for `lookup_options`, which Puppet asks a
/// `lookup_key` function for too; those calls are not noted).
#[derive(Default)]
struct Noting(Mutex<Vec<String>>);

impl Host for Noting {
    fn call(&self, call: &HostCall<'_>) -> hiera::Result<Option<Value>> {
        if call.key == Some("lookup_options") {
            return Ok(None);
        }
        let file = call
            .location
            .map(|l| {
                Path::new(l)
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .unwrap_or_default();
        self.0.lock().unwrap().push(format!(
            "{:?} {} {file} {}",
            call.kind,
            call.function,
            call.key.unwrap_or("-")
        ));
        Ok(Some(match call.kind {
            FunctionKind::DataHash => {
                let mut m = Map::default();
                m.insert(Value::from("k"), Value::from(format!("from host {file}")));
                Value::hash(m)
            }
            _ => Value::from(format!("host {}", call.key.unwrap_or("-"))),
        }))
    }
    fn warn(&self, _warning: &Warning) {}
}

fn open(dir: &Path, host: Option<HostRef>, host_functions: &[&str]) -> Arc<Hiera> {
    Arc::new(
        Hiera::open(Options {
            hiera_config: dir.join("hiera.yaml"),
            environmentpath: dir.join("environments"),
            working_directory: Some(dir.to_path_buf()),
            host,
            host_functions: host_functions.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        })
        .unwrap(),
    )
}

fn lookup(h: &Arc<Hiera>, key: &str) -> hiera::Result<Option<Value>> {
    Session::new(Arc::clone(h), Map::default()).lookup(&LookupRequest::key(key))
}

const HOCON_REPO: &[(&str, &str)] = &[
    (
        "hiera.yaml",
        "version: 5\nhierarchy:\n  - name: missing\n    data_hash: hocon_data\n    path: missing.conf\n  - name: hocon\n    data_hash: hocon_data\n    path: common.conf\n  - name: yaml\n    path: common.yaml\n",
    ),
    ("data/common.conf", "k: from hocon\nonly_hocon: h\n"),
    ("data/common.yaml", "k: from yaml\nonly_yaml: y\n"),
];

#[test]
fn a_hocon_level_runs_in_the_host_when_named() {
    let dir = repo("hocon", HOCON_REPO);
    // libhiera's own hocon_data: the file's value.
    let native = open(&dir, Some(HostRef(Arc::new(Noting::default()))), &[]);
    assert_eq!(
        lookup(&native, "k").unwrap(),
        Some(Value::from("from hocon"))
    );
    assert_eq!(
        lookup(&native, "only_hocon").unwrap(),
        Some(Value::from("h"))
    );

    // The host's: called once per existing location and session, never for
    // the missing file; its hash answers, and the YAML level below still
    // answers what the hash lacks.
    let host = Arc::new(Noting::default());
    let h = open(&dir, Some(HostRef(host.clone())), &["hocon_data"]);
    assert_eq!(
        lookup(&h, "k").unwrap(),
        Some(Value::from("from host common.conf"))
    );
    assert_eq!(lookup(&h, "only_hocon").unwrap(), None);
    assert_eq!(lookup(&h, "only_yaml").unwrap(), Some(Value::from("y")));
    let calls = host.0.lock().unwrap().clone();
    assert_eq!(calls.len(), 3, "{calls:?}");
    assert!(
        calls
            .iter()
            .all(|c| c.starts_with("DataHash hocon_data common.conf ")),
        "{calls:?}"
    );
    // A session takes the hash once for all its lookups.
    let host = Arc::new(Noting::default());
    let h = open(&dir, Some(HostRef(host.clone())), &["hocon_data"]);
    let s = Session::new(Arc::clone(&h), Map::default());
    for key in ["k", "only_yaml", "k", "nowhere"] {
        s.lookup(&LookupRequest::key(key)).unwrap();
    }
    assert_eq!(host.0.lock().unwrap().len(), 1);
}

#[test]
fn a_named_function_without_a_host_is_an_unknown_function() {
    let dir = repo("nohost", HOCON_REPO);
    let h = open(&dir, None, &["hocon_data"]);
    let e = lookup(&h, "k").unwrap_err();
    assert!(
        e.message
            .contains("Unable to find 'data_hash' function named 'hocon_data'"),
        "{}",
        e.message
    );
    // A name libhiera does not run itself (misspelt, a custom function's,
    // a Hiera 3 backend's) is refused when the configuration is opened.
    for name in ["hocon", "hocon-data", "my_custom_data", "yaml"] {
        let e = Hiera::open(Options {
            hiera_config: dir.join("hiera.yaml"),
            host_functions: vec![name.to_string()],
            ..Default::default()
        })
        .err()
        .unwrap_or_else(|| panic!("{name} accepted"));
        assert_eq!(e.kind, hiera::ErrorKind::InvalidArgument);
        assert!(
            e.message.starts_with(&format!(
                "host_functions: '{name}' is not a function libhiera runs itself (one of yaml_data, json_data, hocon_data, eyaml_lookup_key,"
            )),
            "{}",
            e.message
        );
    }
    for name in hiera::hiera5::lookup::OWN_FUNCTIONS {
        open(&dir, None, &[name]);
    }
}

#[test]
fn an_eyaml_level_runs_in_the_host_when_named() {
    let dir = repo(
        "eyaml",
        &[
            (
                "hiera.yaml",
                "version: 5\nhierarchy:\n  - name: secrets\n    lookup_key: eyaml_lookup_key\n    path: secrets.eyaml\n    options: {pkcs7_private_key: nowhere.pem, pkcs7_public_key: nowhere.pem}\n",
            ),
            ("data/secrets.eyaml", "a: ENC[PKCS7,AAAA]\n"),
        ],
    );
    let host = Arc::new(Noting::default());
    let h = open(&dir, Some(HostRef(host.clone())), &["eyaml_lookup_key"]);
    assert_eq!(lookup(&h, "a").unwrap(), Some(Value::from("host a")));
    assert_eq!(
        host.0.lock().unwrap().clone(),
        vec!["LookupKey eyaml_lookup_key secrets.eyaml a".to_string()]
    );
    // libhiera's own eyaml reads the (missing) keys and fails.
    let h = open(&dir, Some(HostRef(Arc::new(Noting::default()))), &[]);
    assert!(lookup(&h, "a").is_err());
}

#[test]
fn a_builtin_without_a_path_stays_a_configuration_error() {
    let dir = repo(
        "uri",
        &[(
            "hiera.yaml",
            "version: 5\nhierarchy:\n  - name: u\n    data_hash: yaml_data\n    uri: http://example.com/x\n",
        )],
    );
    let host = Arc::new(Noting::default());
    let h = open(&dir, Some(HostRef(host.clone())), &["yaml_data"]);
    let e = lookup(&h, "k").unwrap_err();
    assert!(
        e.message.contains("must be declared in hiera.yaml"),
        "{}",
        e.message
    );
    assert!(host.0.lock().unwrap().is_empty());
}

#[test]
fn a_builtin_with_options_runs_in_the_host_when_named_and_a_missing_file_is_skipped() {
    // Puppet's yaml_data takes no option but `path`: with `options` an
    // existing file's level fails, a missing file's is skipped before the
    // call (recorded: libhiera/config/options_with_builtin_functions_missing_files).
    // A host that runs yaml_data gets the call, options and all.
    let dir = repo(
        "options",
        &[
            (
                "hiera.yaml",
                "version: 5\nhierarchy:\n  - name: missing\n    path: missing.yaml\n    options: {a: 1}\n  - name: opts\n    path: common.yaml\n    options: {a: 1}\n",
            ),
            ("data/common.yaml", "k: from yaml\n"),
        ],
    );
    let own = open(&dir, Some(HostRef(Arc::new(Noting::default()))), &[]);
    let e = lookup(&own, "k").unwrap_err();
    assert!(
        e.message.contains("'yaml_data' one of 'path'"),
        "{}",
        e.message
    );
    let host = Arc::new(Noting::default());
    let h = open(&dir, Some(HostRef(host.clone())), &["yaml_data"]);
    assert_eq!(
        lookup(&h, "k").unwrap(),
        Some(Value::from("from host common.yaml"))
    );
    assert_eq!(
        host.0.lock().unwrap().clone(),
        vec!["DataHash yaml_data common.yaml -".to_string()]
    );
}
