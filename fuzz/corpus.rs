//! The recorded conformance cases under `tests/conformance/` and their
//! files: material for the mutation targets. Listed once, sorted, so that
//! generation is deterministic for a given tree.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The conformance root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

/// Every file under `dir`, recursively, sorted.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        if let Ok(rd) = std::fs::read_dir(dir) {
            for e in rd.flatten() {
                let p = e.path();
                if p.is_dir() {
                    walk(&p, out);
                } else {
                    out.push(p);
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

/// The directories of the recorded cases (those with a case.yaml), sorted.
pub fn cases() -> &'static [PathBuf] {
    static CASES: OnceLock<Vec<PathBuf>> = OnceLock::new();
    CASES.get_or_init(|| {
        let mut dirs: Vec<PathBuf> = files_under(&root())
            .into_iter()
            .filter(|p| p.file_name().is_some_and(|n| n == "case.yaml"))
            .filter_map(|p| p.parent().map(Path::to_path_buf))
            .collect();
        dirs.sort();
        dirs
    })
}

/// The contents of the cases' files with the given extension (e.g. every
/// YAML data file), sorted by path.
pub fn files_with_extension(ext: &str) -> &'static [Vec<u8>] {
    static YAML: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    static JSON: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    let cell = if ext == "json" { &JSON } else { &YAML };
    cell.get_or_init(|| {
        files_under(&root())
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .filter_map(|p| std::fs::read(p).ok())
            .collect()
    })
}

/// A random corpus file with the given extension (empty when none).
pub fn pick_file(rng: &mut crate::rng::Rng, ext: &str) -> Vec<u8> {
    let files = files_with_extension(ext);
    if files.is_empty() {
        Vec::new()
    } else {
        rng.pick(files).clone()
    }
}
