//! The Ruby gem's data_hash functions (`libhiera::yaml_data`,
//! `libhiera::json_data`, `libhiera::data_hash`) are read by the engine as
//! Puppet's `yaml_data` and `json_data`, so that a hiera.yaml using them can
//! be handed to libhiera whole (the gem's Puppet hand-off). The functions'
//! own behaviour inside Puppet is tested by the gem (ruby/test).

mod support;

use hiera::{render::to_json, Hiera, Map, Options, Session};
use std::sync::Arc;

fn fixture(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    support::scratch("gem-functions", name, files)
}

fn lookup(dir: &std::path::Path, key: &str) -> Result<Option<String>, String> {
    let h = Hiera::open(Options {
        hiera_config: dir.join("hiera.yaml"),
        environmentpath: dir.join("environments"),
        ..Default::default()
    })
    .unwrap();
    let session = Session::new(Arc::new(h), Map::default());
    session
        .lookup_key(key)
        .map(|v| v.map(|v| to_json(&v)))
        .map_err(|e| e.message)
}

#[test]
fn the_gem_functions_read_yaml_and_json() {
    let dir = fixture(
        "read",
        &[
            (
                "hiera.yaml",
                "version: 5\nhierarchy:\n\
                 \x20 - {name: a, data_hash: libhiera::yaml_data, path: a.yaml}\n\
                 \x20 - {name: b, data_hash: libhiera::json_data, path: b.json}\n\
                 \x20 - {name: c, data_hash: libhiera::data_hash, path: c.json}\n\
                 \x20 - {name: d, data_hash: libhiera::data_hash, path: d.data, options: {format: json}}\n\
                 \x20 - {name: e, data_hash: libhiera::data_hash, path: e.yaml}\n",
            ),
            ("data/a.yaml", "a: yes\n"),
            ("data/b.json", r#"{"b": 1.5e3}"#),
            ("data/c.json", r#"{"c": [1]}"#),
            ("data/d.data", r#"{"d": "json by option"}"#),
            ("data/e.yaml", "e: 0777\n"),
        ],
    );
    assert_eq!(lookup(&dir, "a"), Ok(Some("true".into())));
    assert_eq!(lookup(&dir, "b"), Ok(Some("1500.0".into())));
    assert_eq!(lookup(&dir, "c"), Ok(Some("[1]".into())));
    assert_eq!(lookup(&dir, "d"), Ok(Some(r#""json by option""#.into())));
    assert_eq!(lookup(&dir, "e"), Ok(Some("511".into())));
    assert_eq!(lookup(&dir, "z"), Ok(None));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A hierarchy of one level: `function` with `options`, reading `a.yaml`.
fn one_level(name: &str, function: &str) -> std::path::PathBuf {
    let config = format!("version: 5\nhierarchy:\n  - {{name: a, data_hash: {function}, path: a.yaml, options: {{x: 1}}}}\n");
    fixture(name, &[("hiera.yaml", &config), ("data/a.yaml", "a: 1\n")])
}

#[test]
fn options_they_do_not_take_are_refused_as_puppet_refuses_them() {
    let dir = one_level("options", "libhiera::yaml_data");
    let e = lookup(&dir, "a").unwrap_err();
    assert!(
        e.contains(
            "'libhiera::yaml_data' one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths'"
        ),
        "{e}"
    );
    // libhiera::data_hash takes `format` only: anything else is left to Puppet.
    let dir2 = one_level("options2", "libhiera::data_hash");
    let e = lookup(&dir2, "a").unwrap_err();
    assert!(
        e.contains("Unable to find 'data_hash' function named 'libhiera::data_hash'"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&dir2).unwrap();
}
