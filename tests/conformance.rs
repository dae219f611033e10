//! Runs every recorded case under `tests/conformance/` through the engine
//! and compares strictly with `expected.json` (recorded from Puppet 7.23 and
//! Hiera 3.10 by `../shared/oracle/record`): values with types and key
//! order, not-found versus error. Error texts are compared too; a differing
//! text is reported, and fails the test when `LIBHIERA_STRICT_MESSAGES=1`.
//! The cases under `tests/conformance-p8/` (recorded from OpenVox 8.28.1 by
//! `../shared/oracle/record-p8`: Puppet 8's defaults, strict=error unless a
//! case sets it) run the same way with `puppet: 8`.
//!
//! `CASE=substring cargo test --test conformance` runs a subset.

mod support;

use hiera::render::to_json;
use std::path::Path;
use support::{load_case, relativize, run_query, CaseQuery, Outcome};

#[test]
fn conformance_cases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    // The README's example is a recorded case too.
    run_tree(
        &root,
        &[Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")],
        7,
    );
}

#[test]
fn conformance_cases_puppet8() {
    run_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance-p8"),
        &[],
        8,
    );
}

/// Runs the cases under `root` (and `more`) as Puppet `puppet` answered them.
fn run_tree(root: &Path, more: &[std::path::PathBuf], puppet: u8) {
    let filter = std::env::var("CASE").unwrap_or_default();
    let strict_messages = std::env::var("LIBHIERA_STRICT_MESSAGES").as_deref() == Ok("1");
    let mut cases = Vec::new();
    support::find_cases(root, &mut cases);
    for dir in more {
        support::find_cases(dir, &mut cases);
    }
    cases.sort();
    assert!(!cases.is_empty(), "no cases found under {}", root.display());

    let (mut queries, mut failures, mut message_diffs, mut skipped) =
        (0, Vec::new(), Vec::new(), 0);
    // Queries of cases whose data providers need host functions, answered
    // with Puppet's error for a function it cannot find (see
    // support::host_functions): the hand-off test runs them with Puppet's.
    let mut need_host = 0;
    for dir in &cases {
        let name = dir.strip_prefix(root).unwrap_or(dir).display().to_string();
        if !name.contains(&filter) {
            continue;
        }
        let mut case = match load_case(dir) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{name}: cannot load case: {e}"));
                continue;
            }
        };
        case.puppet = puppet;
        if !support::engine_supported(&case.engine) {
            skipped += case.queries.len();
            continue;
        }
        let mut case_need_host = 0;
        for (i, q) in case.queries.iter().enumerate() {
            queries += 1;
            let got = run_query(&case, q);
            let label = format!("{name} #{i} {}", q.key);
            if matches!(&got, Outcome::Error(e) if support::host_function_error(&case.host_functions, e))
            {
                case_need_host += 1;
                continue;
            }
            compare(&label, dir, q, &got, &mut failures, &mut message_diffs);
        }
        if !case.host_functions.is_empty() && case_need_host == 0 {
            failures.push(format!(
                "{name}: host_functions.txt names functions no query needed"
            ));
        }
        need_host += case_need_host;
    }
    for d in &message_diffs {
        eprintln!("message differs: {d}");
    }
    for f in &failures {
        eprintln!("FAIL {f}");
    }
    eprintln!(
        "conformance (Puppet {puppet}): {} queries, {} failed, {} message differences, {} skipped (engine not supported yet), {} need host functions (the hand-off runs them)",
        queries,
        failures.len(),
        message_diffs.len(),
        skipped,
        need_host
    );
    assert!(
        failures.is_empty(),
        "{} conformance failures",
        failures.len()
    );
    if strict_messages {
        assert!(
            message_diffs.is_empty(),
            "{} message differences",
            message_diffs.len()
        );
    }
}

fn compare(
    label: &str,
    dir: &Path,
    q: &CaseQuery,
    got: &Outcome,
    failures: &mut Vec<String>,
    diffs: &mut Vec<String>,
) {
    match (&q.expected, got) {
        (Outcome::Value(want), Outcome::Value(have)) => {
            let (want, have) = (to_json(want), to_json(have));
            if want != have {
                failures.push(format!("{label}: expected {want}, got {have}"));
            }
        }
        (Outcome::NotFound, Outcome::NotFound) => {}
        (Outcome::Error(want), Outcome::Error(have)) => {
            let have = relativize(have, dir);
            // File descriptor numbers (Ruby's `io_fillbuf - fd:5 path`) are
            // the recording process's state, not behaviour.
            let fd = regex::Regex::new(r"\bfd:\d+").unwrap();
            if fd.replace_all(want, "fd:N") != fd.replace_all(&have, "fd:N") {
                diffs.push(format!(
                    "{label}:\n    expected: {want}\n    got:      {have}"
                ));
            }
        }
        (want, have) => failures.push(format!(
            "{label}: expected {}, got {}",
            describe(want),
            describe(have)
        )),
    }
}

fn describe(o: &Outcome) -> String {
    match o {
        Outcome::Value(v) => format!("value {}", to_json(v)),
        Outcome::NotFound => "not found".into(),
        Outcome::Error(e) => format!("error {e:?}"),
    }
}
