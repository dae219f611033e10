//! Every recorded Hiera 5 case through the `hiera-lookup` binary, as a user
//! runs it: one process per query (each query a fresh compile, as the
//! recorder runs them), the case's scope as a `--scope` file, its
//! settings as `--strict` and `--basemodulepath`, and `--puppet 8` for the
//! answers OpenVox 8 gave (tests/conformance-p8). Values must be Puppet's
//! exactly (wire JSON, key order included), not found must be not found,
//! and an error must be an error.
//!
//! `CASE=substring cargo test --test conformance_cli` runs a subset.

mod support;

use hiera::render::{from_json, to_json};
use hiera::{Strict, Value};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use support::{load_case, Outcome};

#[test]
fn puppet7_cases_through_the_cli() {
    run_tree("tests/conformance", 7);
}

#[test]
fn puppet8_cases_through_the_cli() {
    run_tree("tests/conformance-p8", 8);
}

fn run_tree(tree: &str, puppet: u8) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(tree);
    let filter = std::env::var("CASE").unwrap_or_default();
    let mut cases = Vec::new();
    support::find_cases(&root, &mut cases);
    cases.sort();
    assert!(!cases.is_empty(), "no cases under {}", root.display());
    let scratch = std::env::temp_dir().join(format!(
        "libhiera-conformance-cli-{}-{puppet}",
        std::process::id()
    ));
    std::fs::create_dir_all(&scratch).unwrap();
    let (mut queries, mut failures, mut need_host) = (0, Vec::new(), 0);
    for dir in &cases {
        let name = dir.strip_prefix(&root).unwrap_or(dir).display().to_string();
        if !name.contains(&filter) {
            continue;
        }
        let case = load_case(dir).unwrap_or_else(|e| panic!("{name}: {e}"));
        if case.engine != "hiera5" {
            continue;
        }
        let scope_file = scratch.join("scope.json");
        std::fs::write(&scope_file, to_json(&Value::hash(case.scope.clone()))).unwrap();
        let mut case_need_host = 0;
        for (i, q) in case.queries.iter().enumerate() {
            queries += 1;
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_hiera-lookup"));
            cmd.current_dir(dir)
                .arg("--hiera_config")
                .arg(dir.join("hiera.yaml"))
                .arg("--environmentpath")
                .arg(dir.join("environments"))
                .args([
                    "--environment",
                    &case.environment,
                    "--puppet",
                    &puppet.to_string(),
                ])
                .arg("--scope")
                .arg(&scope_file);
            if let Some(strict) = case.settings.strict {
                cmd.args([
                    "--strict",
                    match strict {
                        Strict::Off => "off",
                        Strict::Warning => "warning",
                        Strict::Error => "error",
                    },
                ]);
            }
            if !case.settings.basemodulepath.is_empty() {
                let dirs: Vec<String> = case
                    .settings
                    .basemodulepath
                    .iter()
                    .map(|d| d.display().to_string())
                    .collect();
                cmd.arg("--basemodulepath").arg(dirs.join(":"));
            }
            let mut request = hiera::Map::default();
            request.insert(Value::from("key"), Value::from(q.key.as_str()));
            if let Some(m) = &q.merge {
                request.insert(Value::from("merge"), m.clone());
            }
            if let Some(d) = &q.default {
                request.insert(Value::from("default"), d.clone());
            }
            let mut child = cmd
                .arg("--batch")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            writeln!(
                child.stdin.take().unwrap(),
                "{}",
                to_json(&Value::hash(request))
            )
            .unwrap();
            let out = child.wait_with_output().unwrap();
            let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
            let label = format!("{name} #{i} {}", q.key);
            let Ok(Value::Hash(resp)) = from_json(&line) else {
                failures.push(format!("{label}: not a response: {line:?}"));
                continue;
            };
            let got = if let Some(v) = resp.get(&Value::from("value")) {
                Outcome::Value(v.clone())
            } else if resp.get(&Value::from("not_found")).is_some() {
                Outcome::NotFound
            } else {
                Outcome::Error(line.clone())
            };
            // A case whose data providers call functions the CLI has no
            // host for: Puppet's error naming the function (the hand-off
            // test runs them with Puppet's).
            let message = resp
                .get(&Value::from("error"))
                .and_then(|e| e.get("message"))
                .and_then(Value::as_str)
                .unwrap_or("");
            if support::host_function_error(&case.host_functions, message) {
                case_need_host += 1;
                continue;
            }
            let same = match (&q.expected, &got) {
                (Outcome::Value(want), Outcome::Value(have)) => to_json(want) == to_json(have),
                (Outcome::NotFound, Outcome::NotFound) | (Outcome::Error(_), Outcome::Error(_)) => {
                    true
                }
                _ => false,
            };
            if !same {
                failures.push(format!("{label}: expected {:?}, got {line}", q.expected));
            }
        }
        if !case.host_functions.is_empty() && case_need_host == 0 {
            failures.push(format!(
                "{name}: host_functions.txt names functions no query needed"
            ));
        }
        need_host += case_need_host;
    }
    let _ = std::fs::remove_dir_all(&scratch);
    for f in &failures {
        eprintln!("FAIL {f}");
    }
    eprintln!(
        "conformance through hiera-lookup (Puppet {puppet}): {queries} queries, {} failed, {need_host} need host functions (the hand-off runs them)",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {queries} queries differ through the CLI",
        failures.len()
    );
    assert!(queries > 500, "only {queries} queries ran");
}
