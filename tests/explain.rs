//! `hiera-lookup --explain` and `--explain-options` print what Puppet
//! 7.23's `puppet lookup` prints, as text and as JSON (`--render-as json`),
//! recorded by scripts/record-explain into tests/explain/ and re-checked
//! against Puppet by the test command. JSON is compared as JSON values,
//! key order included.

mod support;

use hiera::render::{from_json, to_json};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The recorded file's name for a key (Puppet's `__global__` when none).
fn file_name(key: &str) -> String {
    if key.is_empty() {
        "_global".into()
    } else {
        key.replace([':', '.'], "_")
    }
}

/// hiera-lookup's output over the example with `args`, paths as recorded.
fn run(args: &[&str]) -> String {
    let ex = root().join("examples");
    let out = Command::new(env!("CARGO_BIN_EXE_hiera-lookup"))
        .current_dir(&ex)
        .args(support::EXAMPLE_REPO_ARGS)
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{args:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .replace(&format!("{}/", ex.display()), "EXAMPLES/")
}

/// A JSON text in a canonical compact form that keeps key order.
fn canonical(text: &str, what: &str) -> String {
    to_json(&from_json(text.trim()).unwrap_or_else(|e| panic!("{what}: {}", e.message)))
}

/// Compares each recorded file with hiera-lookup's output for its key.
fn compare(keys_file: PathBuf, recorded: &str, flags: &[&str], json: bool, skip_empty: bool) {
    let keys = std::fs::read_to_string(keys_file).unwrap();
    let mut failures = Vec::new();
    let mut n = 0;
    for key in keys.lines().filter(|k| !(skip_empty && k.is_empty())) {
        let ext = if json { "json" } else { "txt" };
        let path = root()
            .join("tests/explain")
            .join(recorded)
            .join(format!("{}.{ext}", file_name(key)));
        let want = std::fs::read_to_string(&path).unwrap();
        let mut args = flags.to_vec();
        if !key.is_empty() {
            args.push(key);
        }
        let got = run(&args);
        let (w, g) = if json {
            (
                canonical(&want, &path.display().to_string()),
                canonical(&got, key),
            )
        } else {
            (want, got)
        };
        n += 1;
        if w != g {
            failures.push(format!("{key}:\n--- puppet\n{w}\n--- hiera-lookup\n{g}"));
        }
    }
    assert!(n > 0, "no keys in {recorded}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn example_keys() -> PathBuf {
    root().join("examples/keys.txt")
}

fn options_keys() -> PathBuf {
    root().join("tests/explain/options-keys.txt")
}

#[test]
fn explain_matches_puppet_text() {
    compare(example_keys(), "", &["--explain"], false, true);
}

#[test]
fn explain_json_matches_puppet_json() {
    compare(
        example_keys(),
        "",
        &["--explain", "--render-as", "json"],
        true,
        true,
    );
}

#[test]
fn explain_options_matches_puppet_text() {
    compare(
        options_keys(),
        "options",
        &["--explain-options"],
        false,
        false,
    );
}

#[test]
fn explain_options_json_matches_puppet_json() {
    compare(
        options_keys(),
        "options",
        &["--explain-options", "--render-as", "json"],
        true,
        false,
    );
}

#[test]
fn explain_with_explain_options_matches_puppet_text() {
    compare(
        options_keys(),
        "both",
        &["--explain", "--explain-options"],
        false,
        true,
    );
}
