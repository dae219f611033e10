//! `hiera-lookup --all --sources` (`Session::lookup_all_sources`): the
//! values are exactly `--all`'s, and each key's sources are the data files
//! its answer came from (the example repo's data, read here).

mod support;

use std::path::Path;
use std::process::Command;

fn run(args: &[&str]) -> hiera::Value {
    let ex = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let out = Command::new(env!("CARGO_BIN_EXE_hiera-lookup"))
        .current_dir(&ex)
        .args(support::EXAMPLE_REPO_ARGS)
        .args(["--node", "web01.example.com"])
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{args:?}");
    let text = String::from_utf8(out.stdout)
        .unwrap()
        .replace(&format!("{}/", ex.display()), "");
    hiera::render::from_json(&text).unwrap()
}

fn sources_of(all: &hiera::Value, key: &str) -> Vec<String> {
    let s = all
        .as_hash()
        .unwrap()
        .get(&hiera::Value::from("sources"))
        .unwrap();
    s.as_hash()
        .unwrap()
        .get(&hiera::Value::from(key))
        .unwrap_or_else(|| panic!("no sources for {key}"))
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn all_sources_gives_the_files_each_answer_came_from() {
    let all = run(&["--all", "--sources"]);
    let values = all
        .as_hash()
        .unwrap()
        .get(&hiera::Value::from("values"))
        .unwrap();
    // The values are --all's, key for key and in order.
    assert_eq!(
        hiera::render::to_json(values),
        hiera::render::to_json(&run(&["--all"]))
    );
    let keys: Vec<String> = values
        .as_hash()
        .unwrap()
        .keys()
        .map(|k| k.as_str().unwrap().to_string())
        .collect();
    let sources = all
        .as_hash()
        .unwrap()
        .get(&hiera::Value::from("sources"))
        .unwrap();
    assert_eq!(sources.as_hash().unwrap().len(), keys.len());
    // A unique merge over three levels of the environment layer.
    assert_eq!(
        sources_of(&all, "profile::base::packages"),
        [
            "environments/production/data/role/web.yaml",
            "environments/production/data/os/Debian.yaml",
            "environments/production/data/common.yaml"
        ]
    );
    // The node file and the module's own data, in search order.
    assert_eq!(
        sources_of(&all, "ntp::servers"),
        [
            "data/nodes/web01.example.com.yaml",
            "environments/production/modules/ntp/data/common.yaml"
        ]
    );
    // First found: one file, though others are searched.
    assert_eq!(
        sources_of(&all, "ntp::service_name"),
        ["environments/production/modules/ntp/data/Debian.yaml"]
    );
    // Every source holds the key at top level, or is where an interpolation
    // of the key's data found its value.
    let ex = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    for key in &keys {
        let files = sources_of(&all, key);
        assert!(!files.is_empty(), "{key}");
        let text = std::fs::read_to_string(ex.join(&files[0])).unwrap();
        assert!(
            text.lines().any(|l| l.starts_with(&format!("{key}:"))),
            "{key}: {} does not hold it",
            files[0]
        );
    }
}

#[test]
fn sources_needs_all() {
    let ex = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let out = Command::new(env!("CARGO_BIN_EXE_hiera-lookup"))
        .current_dir(&ex)
        .args(["--sources", "motd"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--sources is only applicable with --all")
    );
}
