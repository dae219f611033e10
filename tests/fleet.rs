//! `hiera-lookup --fleet DIR`: one JSON line per node of a directory of
//! facts files (Puppet Server's cached YAML, `puppet facts` JSON, plain
//! JSON and YAML), each node's answers equal to a single-node run.

use serde_json::Value as J;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn nodes_dir() -> PathBuf {
    root().join("tests/fleet/nodes")
}

/// `hiera-lookup` run in the example control repo.
fn lookup(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hiera-lookup"))
        .current_dir(root().join("examples"))
        .args([
            "--hiera_config",
            "hiera.yaml",
            "--environmentpath",
            "environments",
        ])
        .args(args)
        .output()
        .unwrap()
}

fn lines(out: &Output) -> Vec<J> {
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hiera-fleet-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The facts file as `--facts` reads it: Puppet Server's cached YAML
/// without its Ruby tag (the wrapper's `name`/`values` are read as such).
fn single_facts_file(file: &Path, tmp: &Path) -> PathBuf {
    let text = std::fs::read_to_string(file).unwrap();
    if !text.starts_with("--- !ruby/object:Puppet::Node::Facts") {
        return file.to_path_buf();
    }
    let copy = tmp.join(file.file_name().unwrap());
    std::fs::write(
        &copy,
        text.replacen("--- !ruby/object:Puppet::Node::Facts", "---", 1),
    )
    .unwrap();
    copy
}

fn by_node(lines: Vec<J>) -> std::collections::BTreeMap<String, J> {
    lines
        .into_iter()
        .map(|l| (l["node"].as_str().unwrap().to_string(), l))
        .collect()
}

#[test]
fn every_node_of_every_format_answers_as_a_single_node_run() {
    let dir = nodes_dir();
    let out = lookup(&["--fleet", dir.to_str().unwrap(), "--all"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "no progress bar when stderr is not a terminal"
    );
    let nodes = by_node(lines(&out));
    let names: Vec<&str> = nodes.keys().map(String::as_str).collect();
    // Certnames from the wrapper's name, clientcert, the cached YAML, the file name.
    assert_eq!(
        names,
        [
            "app01.example.com",
            "db01.example.com",
            "web01.example.com",
            "web02"
        ]
    );
    let tmp = temp_dir("single");
    for (node, line) in &nodes {
        let file = PathBuf::from(line["file"].as_str().unwrap());
        assert_eq!(line["errors"], serde_json::json!({}), "{node}");
        let facts = single_facts_file(&file, &tmp);
        let single = lookup(&["--facts", facts.to_str().unwrap(), "--node", node, "--all"]);
        assert_eq!(
            single.status.code(),
            Some(0),
            "{node}: {}",
            String::from_utf8_lossy(&single.stderr)
        );
        let want: J = serde_json::from_slice(&single.stdout).unwrap();
        // Compared as text: key order is part of the answer.
        assert_eq!(
            serde_json::to_string(&line["values"]).unwrap(),
            serde_json::to_string(&want).unwrap(),
            "{node}"
        );
    }
    std::fs::remove_dir_all(&tmp).unwrap();
    // The nodes' facts matter: web nodes get the web role's users, others do not.
    let users = |n: &str| nodes[n]["values"]["profile::base::users"].clone();
    assert!(users("web01.example.com").get("deploy").is_some());
    assert!(users("web02").get("deploy").is_some());
    assert!(users("db01.example.com").get("deploy").is_none());
    assert_eq!(
        nodes["web02"]["values"]["profile::web::vhost"],
        "www.example.org"
    );
    assert_eq!(
        nodes["db01.example.com"]["values"]["ntp::service_name"],
        "ntp"
    );
    assert_eq!(
        nodes["web01.example.com"]["values"]["ntp::service_name"],
        "ntpsec"
    );
}

#[test]
fn keys_given_are_answered_per_node_as_single_runs_answer_them() {
    let dir = nodes_dir();
    let keys = [
        "profile::web::vhost",
        "ntp::servers",
        "no::such::key",
        "profile::web::settings.workers",
    ];
    let mut args = vec!["--fleet", dir.to_str().unwrap()];
    args.extend(keys);
    let out = lookup(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let nodes = by_node(lines(&out));
    assert_eq!(nodes.len(), 4);
    let tmp = temp_dir("keys");
    for (node, line) in &nodes {
        let file = PathBuf::from(line["file"].as_str().unwrap());
        let facts = single_facts_file(&file, &tmp);
        let values = line["values"].as_object().unwrap();
        assert!(
            !values.contains_key("no::such::key"),
            "not found is left out"
        );
        assert_eq!(values.len(), 3, "{node}: {values:?}");
        for key in keys {
            let single = lookup(&[
                "--facts",
                facts.to_str().unwrap(),
                "--node",
                node,
                "--render-as",
                "json",
                key,
            ]);
            match single.status.code() {
                Some(0) => {
                    let want: J = serde_json::from_slice(&single.stdout).unwrap();
                    assert_eq!(values[key], want, "{node} {key}");
                }
                Some(1) => assert!(!values.contains_key(key), "{node} {key}"),
                other => panic!("{node} {key}: {other:?}"),
            }
        }
    }
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn a_bad_facts_file_is_an_error_line_naming_it_and_the_run_goes_on() {
    let dir = temp_dir("bad");
    for f in std::fs::read_dir(nodes_dir()).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
    }
    std::fs::write(dir.join("broken.yaml"), "os: [\n").unwrap();
    std::fs::write(
        dir.join("evil.yaml"),
        "--- !ruby/object:Gem::Requirement\nx: 1\n",
    )
    .unwrap();
    // Puppet's own wrapper with a Ruby object of another class inside.
    std::fs::write(
        dir.join("inner.yaml"),
        "--- !ruby/object:Puppet::Node::Facts\nname: inner\nvalues:\n  os: !ruby/object:Gem::Version\n    version: '1'\n",
    )
    .unwrap();
    std::fs::write(dir.join("empty.yaml"), "").unwrap();
    std::fs::write(dir.join("blank.json"), "  \n").unwrap();
    std::fs::write(dir.join("cut.json"), "{\"os\": {\"family\": ").unwrap();
    std::fs::write(dir.join("list.json"), "[1, 2]").unwrap();
    std::fs::write(dir.join("binary.yaml"), b"os: \xff\xfe\n").unwrap();
    let out = lookup(&["--fleet", dir.to_str().unwrap(), "--all"]);
    assert_eq!(out.status.code(), Some(2));
    let nodes = by_node(lines(&out));
    assert_eq!(nodes.len(), 12, "{nodes:#?}");
    for (bad, file) in [
        ("broken", "broken.yaml"),
        ("evil", "evil.yaml"),
        ("inner", "inner.yaml"),
        ("empty", "empty.yaml"),
        ("blank", "blank.json"),
        ("cut", "cut.json"),
        ("list", "list.json"),
        ("binary", "binary.yaml"),
    ] {
        let l = &nodes[bad];
        let msg = l["error"].as_str().unwrap_or_else(|| panic!("{bad}: {l}"));
        assert!(msg.contains(file), "{bad}: {msg}");
        assert_eq!(
            l["file"].as_str().unwrap(),
            dir.join(file).to_str().unwrap()
        );
        assert!(l.get("values").is_none());
    }
    // The good nodes are all answered.
    for good in ["app01.example.com", "web01.example.com", "web02"] {
        assert!(
            nodes[good]["values"]
                .as_object()
                .is_some_and(|v| !v.is_empty()),
            "{good}"
        );
    }
    assert!(nodes["db01.example.com"]["values"]["profile::base::packages"].is_array());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fleet_refuses_a_single_node_scope_and_a_missing_directory() {
    let dir = nodes_dir();
    let out = lookup(&["--fleet", dir.to_str().unwrap(), "--node", "x", "--all"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--fleet"));
    let out = lookup(&["--fleet", "/nonexistent/fleet", "--all"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/fleet"));
    let out = lookup(&["--fleet", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "no keys and no --all");
}
