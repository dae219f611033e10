//! Runs the soak runner (`fuzz/`, the `soak` example that `cargo test`
//! builds) briefly on every target with fixed seeds, and expects no
//! findings: no crash, abort, stack overflow, timeout, escaped panic or
//! `HIERA_PANIC`. The findings of a failing run are printed, and kept
//! under `target/soak-findings/`.

use std::path::PathBuf;
use std::process::Command;

/// The soak example next to this test's executable:
/// `target/<profile>/deps/soak-HASH` -> `target/<profile>/examples/soak`.
fn soak_exe() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    let profile = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("target/<profile>");
    profile
        .join("examples")
        .join(format!("soak{}", std::env::consts::EXE_SUFFIX))
}

#[test]
fn soak_every_target_briefly() {
    let exe = soak_exe();
    assert!(
        exe.is_file(),
        "{} is missing: build it with `cargo build --example soak`",
        exe.display()
    );
    let findings = exe
        .parent()
        .and_then(|d| d.parent())
        .and_then(|d| d.parent())
        .expect("target/")
        .join("soak-findings");
    let _ = std::fs::remove_dir_all(&findings);
    let targets = [
        "yaml",
        "json",
        "config",
        "interpolation",
        "request",
        "repo",
        "mutate",
    ];
    let mut failures = Vec::new();
    for (seed, target) in targets.iter().enumerate() {
        let out = Command::new(&exe)
            .args([
                "--target",
                target,
                "--seed",
                &(seed as u64 + 1).to_string(),
                "--seconds",
                "4",
            ])
            .args(["--timeout-secs", "5", "--findings"])
            .arg(&findings)
            .output()
            .expect("the soak runner starts");
        let stdout = String::from_utf8_lossy(&out.stdout);
        eprint!("{stdout}");
        if !out.status.success() {
            failures.push(format!(
                "{target}: {}\n{stdout}{}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    if !failures.is_empty() {
        let index = std::fs::read_to_string(findings.join("README.md")).unwrap_or_default();
        panic!(
            "soak findings (saved under {}):\n{index}\n{}",
            findings.display(),
            failures.join("\n")
        );
    }
}
