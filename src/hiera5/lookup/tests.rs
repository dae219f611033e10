use super::*;
use crate::error::{Error, ErrorKind};
use crate::hiera5::config::HieraConfig;
use crate::value::Map;
use std::sync::Arc;

#[test]
fn strict_defaults_to_the_puppet_versions() {
    let o = |strict, puppet| {
        Options {
            strict,
            puppet,
            ..Options::default()
        }
        .strict()
    };
    assert_eq!(o(None, 7), Strict::Warning);
    assert_eq!(o(None, 8), Strict::Error);
    assert_eq!(o(Some(Strict::Off), 8), Strict::Off);
    assert_eq!(o(Some(Strict::Error), 7), Strict::Error);
    let e = Hiera::open(Options {
        puppet: 6,
        ..Options::default()
    })
    .err()
    .unwrap();
    assert_eq!(
        (e.kind, e.message.as_str()),
        (ErrorKind::InvalidArgument, "puppet must be 7 or 8, not 6")
    );
}

#[test]
fn a_default_values_hash_entry_excuses_an_undefined_variable_in_puppet_8_only() {
    let dir = std::env::temp_dir().join(format!("libhiera-dvh-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(dir.join("hiera.yaml"), "version: 5\n").unwrap();
    std::fs::write(dir.join("data/common.yaml"), "k: \"<%{x}>\"\n").unwrap();
    let run = |strict, puppet| {
        let options = Options {
            hiera_config: dir.join("hiera.yaml"),
            environmentpath: dir.clone(),
            strict,
            puppet,
            ..Options::default()
        };
        let session = Session::new(Arc::new(Hiera::open(options).unwrap()), Map::default());
        let mut defaults = Map::default();
        defaults.insert("x".into(), "d".into());
        let req = LookupRequest {
            keys: vec!["k".into()],
            default_values_hash: defaults,
            ..Default::default()
        };
        let (r, warnings) = session.lookup_with_warnings(&req);
        (
            r.map(|v| v.and_then(|v| v.as_str().map(str::to_string)))
                .map_err(|e| e.message),
            warnings,
        )
    };
    // Puppet 7 asks the scope first: an error, or a warning and then the default.
    assert_eq!(
        run(Some(Strict::Error), 7),
        (Err("Undefined variable 'x'; ".into()), vec![])
    );
    assert_eq!(
        run(None, 7),
        (
            Ok(Some("<d>".into())),
            vec!["Undefined variable 'x'; ".into()]
        )
    );
    // Puppet 8 catches the undefined variable when there is a default.
    assert_eq!(run(None, 8), (Ok(Some("<d>".into())), vec![]));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn undefined_variable_warnings_are_puppets_warn_once() {
    let dir = std::env::temp_dir().join(format!("libhiera-warn-once-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(dir.join("hiera.yaml"), "version: 5\nhierarchy:\n  - name: n\n    path: \"n/%{nope}.yaml\"\n  - name: c\n    path: common.yaml\n").unwrap();
    std::fs::write(dir.join("data/common.yaml"), "k: \"<%{::x}>\"\n").unwrap();
    let warned = |puppet: u8, strict: Strict| {
        let options = Options {
            hiera_config: dir.join("hiera.yaml"),
            environmentpath: dir.clone(),
            strict: Some(strict),
            puppet,
            ..Options::default()
        };
        let session = Session::new(Arc::new(Hiera::open(options).unwrap()), Map::default());
        session.lookup_warned(&LookupRequest::key("k")).1
    };
    // Each kind of warning keyed by the variable's name, as Puppet's scope keys it.
    let w = warned(7, Strict::Warning);
    assert_eq!(
        w.iter()
            .map(|w| (w.kind, w.key.as_str()))
            .collect::<Vec<_>>(),
        [
            (Some("undefined_variables"), "Variable: nope"),
            (Some("undefined_variables"), "Variable: ::x")
        ]
    );
    let w = warned(8, Strict::Error);
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(
        (w[0].kind, w[0].key.as_str()),
        (Some("undefined_variables"), "Variable: nope")
    );
    assert!(
        w[0].message
            .starts_with("Interpolation failed with 'nope', but compilation continuing"),
        "{w:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn undefined_variables_are_worded_as_puppet_words_them() {
    let w = |root: &str| undefined_variable_words(root).map(|(n, r)| format!("{n}|{r}"));
    assert_eq!(w("x").as_deref(), Some("x|"));
    assert_eq!(w("::x").as_deref(), Some("::x|"));
    assert_eq!(
        w("a::x").as_deref(),
        Some("a::x|class a could not be found")
    );
    assert_eq!(
        w("::a::b::x").as_deref(),
        Some("a::b::x|class a::b could not be found")
    );
    assert_eq!(w("settings::x").as_deref(), Some("::settings::x|"));
    assert_eq!(
        w("::caller_module_name").as_deref(),
        Some("::caller_module_name|")
    );
    assert_eq!(w("01").as_deref(), Some("01|"));
    for always in ["module_name", "caller_module_name", "0", "7", "12"] {
        assert_eq!(w(always), None, "{always}");
    }
}

#[test]
fn config_lines_are_found_as_puppet_finds_them() {
    let dir = std::env::temp_dir().join(format!("libhiera-find-line-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("hiera.yaml");
    let text = "version: 5\n# path: \"%{x}\"\npath: \"a#%{x}\"\npath: \"%{'x'}/%{y.z}\"\nglob: \"%{::x}\"\n";
    std::fs::write(&path, text).unwrap();
    // A comment, then text after any `#` (quoted or not), are cut off.
    assert_eq!(find_line_matching(&path, "x"), Some(4));
    assert_eq!(find_line_matching(&path, "::x"), Some(5));
    // A dotted expression's root does not match `%{y.z}`.
    assert_eq!(find_line_matching(&path, "y"), None);
    // The name is a regexp, as Puppet interpolates it into one.
    assert_eq!(find_line_matching(&path, "."), Some(4));
    let e = config_undefined_variable(
        Error::new(ErrorKind::Interpolation, "Undefined variable '::x'; "),
        &HieraConfig {
            path: Some(path.clone()),
            ..HieraConfig::implicit_default(&dir)
        },
    );
    assert_eq!(
        e.message,
        format!(
            "Undefined variable '::x' (file: {}, line: 5)",
            path.display()
        )
    );
    assert_eq!(e.kind, ErrorKind::Config);
    std::fs::remove_dir_all(&dir).unwrap();
}
