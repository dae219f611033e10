//! The differential fuzzer's fixed-seed batch (`fuzz/differential/`):
//! `tests/conformance/libhiera/fuzz/seed7/` holds the 60 cases
//! `difffuzz.py gen --seed 7 --count 60` writes, with the answers the real
//! Puppet recorded for them (`expected.json`). The conformance tests
//! (`--test conformance`, `--test conformance_cli`) check the engine and
//! the CLI against those answers; this test checks that the generator
//! still writes exactly those cases, so the committed batch stays what the
//! seed means (a generator change must regenerate and re-record it).
//!
//! Needs `python3` (standard library only).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const SEED: &str = "7";
const COUNT: &str = "60";

fn files_under(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else if path.file_name().is_some_and(|n| n != "expected.json") {
                let rel = path.strip_prefix(root).unwrap().to_path_buf();
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

#[test]
fn generator_rewrites_the_committed_batch() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let committed = repo.join("tests/conformance/libhiera/fuzz/seed7");
    let scratch = std::env::temp_dir().join(format!("libhiera-difffuzz-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let status = Command::new("python3")
        .arg(repo.join("fuzz/differential/difffuzz.py"))
        .args(["gen", "--seed", SEED, "--count", COUNT, "--out"])
        .arg(&scratch)
        .status()
        .expect("python3 runs");
    assert!(status.success(), "difffuzz.py gen failed");
    let want = files_under(&committed);
    let have = files_under(&scratch);
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(want.len() > 100, "only {} committed files", want.len());
    let missing: Vec<_> = want.keys().filter(|k| !have.contains_key(*k)).collect();
    let extra: Vec<_> = have.keys().filter(|k| !want.contains_key(*k)).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "generated files differ: missing {missing:?}, extra {extra:?}"
    );
    let changed: Vec<_> = want
        .iter()
        .filter(|(k, v)| have.get(*k) != Some(v))
        .map(|(k, _)| k)
        .collect();
    assert!(
        changed.is_empty(),
        "the generator no longer writes the committed batch: {changed:?}"
    );
    // Every committed case was recorded.
    for dir in std::fs::read_dir(&committed).unwrap() {
        let dir = dir.unwrap().path();
        assert!(
            dir.join("expected.json").is_file(),
            "{} is not recorded",
            dir.display()
        );
    }
}
