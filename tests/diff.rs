//! `hiera-lookup --diff BASE`: two versions of a repository, one node or a
//! fleet; a changed value, a new lookup_options merge, a key moved between
//! levels with the same answer (no change), a new error, an added and a
//! removed key; the three formats and the exit codes.

use serde_json::Value as J;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

const BASE_HIERA: &str = r#"version: 5
defaults: {datadir: data, data_hash: yaml_data}
hierarchy:
  - name: role
    path: "role/%{facts.role}.yaml"
  - name: common
    path: common.yaml
"#;

/// The base and head checkouts of one repository, in a fresh directory.
fn repos(name: &str) -> (PathBuf, PathBuf) {
    let top = std::env::temp_dir().join(format!("hiera-diff-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&top);
    let (base, head) = (top.join("base"), top.join("head"));
    write(&base, "hiera.yaml", BASE_HIERA);
    write(
        &base,
        "data/common.yaml",
        "ntp::servers: ['0.pool.ntp.org']\nusers: {alice: {uid: 1}}\nmotd: hello\nmoved: same\n",
    );
    write(&base, "data/role/web.yaml", "users: {bob: {uid: 2}}\n");
    // head: ntp::servers changed, users merged by a new lookup_options,
    // `moved` moved to a new level with the same answer, `motd` removed,
    // `new_key` added, `broken` an error.
    write(
        &head,
        "hiera.yaml",
        &BASE_HIERA.replace(
            "  - name: common\n",
            "  - name: moved here\n    path: extra.yaml\n  - name: common\n",
        ),
    );
    write(
        &head,
        "data/common.yaml",
        "lookup_options:\n  users: {merge: hash}\nntp::servers: ['1.pool.ntp.org']\nusers: {alice: {uid: 1}}\nnew_key: 42\nbroken: \"%{nosuch('x')}\"\n",
    );
    write(&head, "data/extra.yaml", "moved: same\n");
    write(&head, "data/role/web.yaml", "users: {bob: {uid: 2}}\n");
    (base, head)
}

fn fleet_dir() -> PathBuf {
    root().join("tests/fleet/nodes")
}

/// `hiera-lookup` run in `head` (relative options), comparing with `base`.
fn diff(head: &Path, base: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hiera-lookup"))
        .current_dir(head)
        .args(["--hiera_config", "hiera.yaml", "--diff"])
        .arg(base)
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn groups(o: &Output) -> Vec<J> {
    let v: J = serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)));
    v["groups"].as_array().unwrap().clone()
}

fn group<'a>(gs: &'a [J], key: &str) -> Vec<&'a J> {
    gs.iter().filter(|g| g["key"] == key).collect()
}

#[test]
fn fleet_diff_of_every_key_finds_each_kind_of_change_and_groups_nodes() {
    let (base, head) = repos("fleet");
    let out = diff(
        &head,
        &base,
        &[
            "--fleet",
            fleet_dir().to_str().unwrap(),
            "--all",
            "--format",
            "json",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: J = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["nodes"], 4);
    assert_eq!(v["changed_nodes"], 4);
    assert_eq!(v["errors"], serde_json::json!([]));
    let gs = groups(&out);
    // A changed value: one group of all four nodes.
    let ntp = group(&gs, "ntp::servers");
    assert_eq!(ntp.len(), 1);
    assert_eq!(ntp[0]["change"], "changed");
    assert_eq!(ntp[0]["count"], 4);
    assert_eq!(
        ntp[0]["before"],
        serde_json::json!({"status": "found", "value": ["0.pool.ntp.org"]})
    );
    assert_eq!(
        ntp[0]["after"],
        serde_json::json!({"status": "found", "value": ["1.pool.ntp.org"]})
    );
    assert_eq!(
        ntp[0]["nodes"].as_array().unwrap().len(),
        4,
        "json lists every node"
    );
    // The new merge changes only the web nodes' answer (role data merged in, in order).
    let users = group(&gs, "users");
    assert_eq!(users.len(), 1);
    assert_eq!(users[0]["count"], 2);
    assert_eq!(
        users[0]["nodes"],
        serde_json::json!(["web01.example.com", "web02"])
    );
    assert_eq!(
        serde_json::to_string(&users[0]["after"]["value"]).unwrap(),
        r#"{"alice":{"uid":1},"bob":{"uid":2}}"#
    );
    // Moved to another level, same answer: no change.
    assert!(group(&gs, "moved").is_empty());
    // Added, removed, now an error.
    assert_eq!(group(&gs, "new_key")[0]["change"], "added");
    assert_eq!(group(&gs, "new_key")[0]["after"]["value"], 42);
    assert_eq!(group(&gs, "motd")[0]["change"], "removed");
    assert_eq!(
        group(&gs, "motd")[0]["after"],
        serde_json::json!({"status": "not_found"})
    );
    let broken = group(&gs, "broken");
    assert_eq!(broken[0]["change"], "error");
    assert_eq!(broken[0]["count"], 4);
    assert!(broken[0]["after"]["message"]
        .as_str()
        .unwrap()
        .contains("nosuch"));
    assert_eq!(gs.len(), 5, "{gs:#?}");
    let _ = std::fs::remove_dir_all(base.parent().unwrap());
}

#[test]
fn single_node_diff_of_keys_in_text_and_markdown() {
    let (base, head) = repos("single");
    let facts = fleet_dir().join("db01.json");
    let args = [
        "--facts",
        facts.to_str().unwrap(),
        "--node",
        "db01.example.com",
        "ntp::servers",
        "users",
        "moved",
    ];
    let out = diff(&head, &base, &args);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.starts_with("1 node: 1 with changes, 1 group of changes"),
        "{text}"
    );
    assert!(
        text.contains("ntp::servers changed on 1 node: db01.example.com"),
        "{text}"
    );
    assert!(
        text.contains("  - [\"0.pool.ntp.org\"]\n  + [\"1.pool.ntp.org\"]"),
        "{text}"
    );
    assert!(
        !text.contains("users"),
        "db01 has no web role data: users unchanged\n{text}"
    );
    let mut md_args = args.to_vec();
    md_args.extend(["--format", "markdown"]);
    let out = diff(&head, &base, &md_args);
    assert_eq!(out.status.code(), Some(1));
    let md = stdout(&out);
    assert!(md.starts_with("### Hiera changes\n"), "{md}");
    assert!(
        md.contains("| Key | Change | Nodes | Before | After | Examples |"),
        "{md}"
    );
    assert!(
        md.contains("| `ntp::servers` | changed | 1 | `[\"0.pool.ntp.org\"]` | `[\"1.pool.ntp.org\"]` | db01.example.com |"),
        "{md}"
    );
    let _ = std::fs::remove_dir_all(base.parent().unwrap());
}

#[test]
fn markdown_keeps_a_few_examples_and_the_exact_count() {
    let (base, head) = repos("md");
    let out = diff(
        &head,
        &base,
        &[
            "--fleet",
            fleet_dir().to_str().unwrap(),
            "--format",
            "markdown",
            "ntp::servers",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let md = stdout(&out);
    assert!(
        md.contains("| changed | 4 |")
            && md.contains("app01.example.com, db01.example.com, web01.example.com, ... (1 more)"),
        "{md}"
    );
    let _ = std::fs::remove_dir_all(base.parent().unwrap());
}

#[test]
fn exit_codes_no_change_and_errors() {
    let (base, head) = repos("exit");
    // The same checkout on both sides: no change, status 0.
    let out = diff(
        &head,
        &head,
        &["--fleet", fleet_dir().to_str().unwrap(), "--all"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stdout(&out).starts_with("4 nodes: 0 with changes, 0 groups of changes"),
        "{}",
        stdout(&out)
    );
    // Keys whose answers did not change: status 0.
    let out = diff(
        &head,
        &base,
        &[
            "--fleet",
            fleet_dir().to_str().unwrap(),
            "moved",
            "no::such",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    // A BASE that does not exist: status 2, named.
    let missing = base.with_file_name("missing");
    let out = diff(&head, &missing, &["--all"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing"));
    // A bad facts file in the fleet: reported, the others still compared, status 2.
    let fleet = base.with_file_name("fleet");
    std::fs::create_dir_all(&fleet).unwrap();
    std::fs::copy(fleet_dir().join("db01.json"), fleet.join("db01.json")).unwrap();
    std::fs::write(fleet.join("bad.json"), "{\"a\": ").unwrap();
    let out = diff(
        &head,
        &base,
        &[
            "--fleet",
            fleet.to_str().unwrap(),
            "--format",
            "json",
            "ntp::servers",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let v: J = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["errors"][0]["node"], "bad");
    assert!(v["errors"][0]["error"]
        .as_str()
        .unwrap()
        .contains("bad.json"));
    assert_eq!(
        v["groups"][0]["nodes"],
        serde_json::json!(["db01.example.com"])
    );
    // A key's own error (a failing interpolation) is a change: status 1.
    let out = diff(&head, &base, &["broken", "moved"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("broken error on 1 node"),
        "{}",
        stdout(&out)
    );
    // A bad hiera.yaml in BASE: status 2, the node not compared, the file named.
    write(&base, "hiera.yaml", "version: 5\nhierarchy: [\n");
    let out = diff(&head, &base, &["--all"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).contains("1 not compared"), "{}", stdout(&out));
    assert!(stdout(&out).contains("base/hiera.yaml"), "{}", stdout(&out));
    // The same with keys given, on either side: status 2, the node not
    // compared (not every key an `error` or `fixed` change, status 1).
    for (h, b) in [(&head, &base), (&base, &head)] {
        let out = diff(h, b, &["ntp::servers", "moved"]);
        assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
        assert!(stdout(&out).contains("1 not compared"), "{}", stdout(&out));
        assert!(stdout(&out).contains("base/hiera.yaml"), "{}", stdout(&out));
        assert!(!stdout(&out).contains("ntp::servers"), "{}", stdout(&out));
    }
    // Flags that do not go with --diff.
    let out = diff(&head, &base, &["--merge", "deep", "users"]);
    assert_eq!(out.status.code(), Some(2));
    let out = diff(&head, &base, &["--format", "xml", "users"]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(base.parent().unwrap());
}
