//! `hiera-lookup --explain` prints the same text as Puppet 7.23's
//! `puppet lookup --explain` (recorded by scripts/record-explain into
//! tests/explain/, and re-checked against Puppet by the test command).

use std::path::Path;
use std::process::Command;

#[test]
fn explain_matches_puppet_text() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ex = root.join("examples");
    let keys = std::fs::read_to_string(ex.join("keys.txt")).unwrap();
    let mut failures = Vec::new();
    for key in keys.lines().filter(|l| !l.is_empty()) {
        let want = std::fs::read_to_string(
            root.join("tests/explain")
                .join(format!("{}.txt", key.replace([':', '.'], "_"))),
        )
        .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_hiera-lookup"))
            .current_dir(&ex)
            .args([
                "--hiera_config",
                "hiera.yaml",
                "--environmentpath",
                "environments",
                "--facts",
                "facts.yaml",
                "--explain",
                key,
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{key}");
        let got = String::from_utf8(out.stdout)
            .unwrap()
            .replace(&format!("{}/", ex.display()), "EXAMPLES/");
        if got != want {
            failures.push(format!(
                "{key}:\n--- puppet\n{want}\n--- hiera-lookup\n{got}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
