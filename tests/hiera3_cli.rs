//! `hiera-lookup --hiera3` on every recorded hiera3 case: run from the case
//! directory (a relative `:datadir:` is relative to the working directory,
//! as for the gem), with the recorded scope in a file, the resolution type
//! and order_override as flags; values, exit codes (0 found or default, 1
//! not found, 2 error) and error messages must be what the gem gave.

mod support;

use hiera::render::{from_json, to_json};
use std::path::Path;
use std::process::Command;
use support::{load_case, Outcome};

#[test]
fn hiera3_cli_answers_every_recorded_query() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let mut dirs = Vec::new();
    support::find_cases(&root, &mut dirs);
    dirs.sort();
    let scratch = std::env::temp_dir().join(format!("libhiera-h3cli-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let fd = regex::Regex::new(r"\bfd:\d+").unwrap();
    let (mut ran, mut skipped, mut failures) = (0, 0, Vec::new());
    for (n, dir) in dirs.iter().enumerate() {
        let case = load_case(dir).unwrap();
        if case.engine != "hiera3" {
            continue;
        }
        let scope_file = scratch.join(format!("scope{n}.json"));
        std::fs::write(
            &scope_file,
            to_json(&hiera::Value::hash(case.scope.clone())),
        )
        .unwrap();
        for (i, q) in case.queries.iter().enumerate() {
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_hiera-lookup"));
            cmd.current_dir(dir).args([
                "--hiera3",
                "--hiera_config",
                "hiera.yaml",
                "--render-as",
                "json",
            ]);
            cmd.arg("--scope").arg(&scope_file);
            if let Some(rt) = &q.resolution_type {
                let flag = match rt.as_str() {
                    Some(s) => s.to_string(),
                    None => to_json(rt),
                };
                cmd.args(["--resolution-type", &flag]);
            }
            match &q.order_override {
                None => {}
                Some(hiera::Value::String(s)) => {
                    cmd.args(["--order-override", s]);
                }
                Some(hiera::Value::Array(a))
                    if !a.is_empty() && a.iter().all(|x| x.as_str().is_some()) =>
                {
                    for x in a.iter() {
                        cmd.args(["--order-override", x.as_str().unwrap()]);
                    }
                }
                Some(_) => {
                    // false, [], nested lists: not expressible as flags.
                    skipped += 1;
                    continue;
                }
            }
            if let Some(d) = &q.default {
                cmd.args(["--default", &to_json(d)]);
            }
            cmd.arg("--").arg(&q.key);
            let out = cmd.output().unwrap();
            ran += 1;
            let label = format!(
                "{} #{i} {}",
                dir.strip_prefix(&root).unwrap().display(),
                q.key
            );
            let stdout = String::from_utf8_lossy(&out.stdout).to_string();
            let stderr = String::from_utf8_lossy(&out.stderr).to_string();
            match (&q.expected, out.status.code()) {
                (Outcome::Value(want), Some(0)) => {
                    let got = from_json(stdout.trim_end()).map(|v| to_json(&v));
                    if got.as_deref() != Ok(to_json(want).as_str()) {
                        failures.push(format!("{label}: expected {}, got {stdout}", to_json(want)));
                    }
                }
                (Outcome::NotFound, Some(1)) if stdout.is_empty() => {}
                (Outcome::Error(want), Some(2)) => {
                    let got = stderr
                        .trim_end()
                        .strip_prefix("Error: ")
                        .unwrap_or(&stderr)
                        .to_string();
                    if fd.replace_all(want, "fd:N") != fd.replace_all(&got, "fd:N") {
                        failures.push(format!("{label}: expected error {want:?}, got {got:?}"));
                    }
                }
                (want, code) => failures.push(format!(
                    "{label}: expected {want:?}, got exit {code:?} {stdout} {stderr}"
                )),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    for f in &failures {
        eprintln!("FAIL {f}");
    }
    eprintln!(
        "hiera3 CLI: {ran} queries, {} failed, {skipped} not expressible as flags",
        failures.len()
    );
    assert!(ran > 100, "too few hiera3 queries found: {ran}");
    assert!(
        failures.is_empty(),
        "{} hiera3 CLI failures",
        failures.len()
    );
}
