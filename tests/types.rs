//! `hiera-lookup --type TYPE` answers as `puppet lookup --type TYPE` does:
//! the value when it matches, else Puppet's message (the first line of it),
//! for found values and defaults. The table tests/types/recorded.txt is
//! recorded from Puppet 7.23 by scripts/record-types.

mod support;

use hiera::render::{from_json, to_json};
use std::path::Path;
use std::process::Command;

#[test]
fn type_assertions_match_puppet() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ex = root.join("examples");
    let recorded = std::fs::read_to_string(root.join("tests/types/recorded.txt")).unwrap();
    let lines: Vec<&str> = recorded.lines().collect();
    assert!(lines.len() >= 4 * 30, "the table has {} lines", lines.len());
    let mut failures = Vec::new();
    for case in lines.chunks(4) {
        let fields: Vec<&str> = case[0].split('\t').collect();
        let (key, ty, extra) = (fields[1], fields[2], fields[3..].join(" "));
        let status = case[1].strip_prefix("status ").unwrap();
        let value = case[2].strip_prefix("value ").unwrap();
        let error = case[3].strip_prefix("error ").unwrap();
        let mut args = support::EXAMPLE_REPO_ARGS.to_vec();
        args.extend([
            // Puppet's `--node` without a certname fact leaves trusted.certname
            // empty (as the explanations show: `data/nodes/.yaml`).
            "--render-as",
            "json",
            "--type",
            ty,
        ]);
        args.extend(extra.split_whitespace());
        args.push(key);
        let out = Command::new(env!("CARGO_BIN_EXE_hiera-lookup"))
            .current_dir(&ex)
            .args(&args)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        let got_status = out.status.code();
        // Puppet's exit status, whatever the outcome: 0 a value, 1 not
        // found, a mismatch or a TYPE that does not parse.
        let want_status: i32 = status.parse().unwrap();
        let ok = got_status == Some(want_status)
            && if status == "0" {
                // The value, compared as JSON (key order included).
                got_status == Some(0)
                    && to_json(&from_json(stdout.trim()).unwrap())
                        == to_json(&from_json(value).unwrap())
            } else if error.is_empty() || error.starts_with("Function lookup() did not find") {
                // Not found: nothing printed.
                stdout.is_empty()
            } else if error.starts_with("Syntax error") {
                stdout.is_empty() && stderr.starts_with("Error: Syntax error")
            } else {
                // A mismatch: nothing printed, Puppet's message.
                stdout.is_empty()
                    && stderr
                        .strip_prefix("Error: ")
                        .and_then(|e| e.lines().next())
                        == Some(error)
            };
        if !ok {
            failures.push(format!(
                "{key} --type {ty} {extra}: puppet status {status} value {value} error {error:?}\n  \
                 hiera-lookup status {got_status:?} stdout {stdout:?} stderr {stderr:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
