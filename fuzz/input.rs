//! One generated input: a set of files (a repo, or one document) that a
//! target runs, and a one-line note saying what was generated.

use std::path::Path;

/// The placeholder for the directory an input is written to, in files that
/// hold paths (e.g. the C ABI's options JSON). Replaced when run.
pub const DIR: &str = "@DIR@";

/// A generated input.
#[derive(Default)]
pub struct Input {
    /// The files, by relative path (`/`-separated).
    pub files: Vec<(String, Vec<u8>)>,
    /// What kind of input this is (for the findings README).
    pub note: String,
}

impl Input {
    /// An input of one file.
    pub fn single(name: &str, bytes: Vec<u8>, note: impl Into<String>) -> Input {
        Input {
            files: vec![(name.to_string(), bytes)],
            note: note.into(),
        }
    }

    /// Adds (or replaces) a file.
    pub fn add(&mut self, name: impl Into<String>, bytes: impl Into<Vec<u8>>) {
        let name = name.into();
        let bytes = bytes.into();
        match self.files.iter_mut().find(|(n, _)| *n == name) {
            Some(f) => f.1 = bytes,
            None => self.files.push((name, bytes)),
        }
    }

    /// The content of a file.
    pub fn file(&self, name: &str) -> Option<&[u8]> {
        self.files
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, b)| b.as_slice())
    }

    /// The content of a file as (lossy) text, `""` when absent.
    pub fn text(&self, name: &str) -> String {
        String::from_utf8_lossy(self.file(name).unwrap_or_default()).into_owned()
    }

    /// Writes the files under `dir` (which is emptied first).
    pub fn write_to(&self, dir: &Path) -> std::io::Result<()> {
        if dir.exists() {
            std::fs::remove_dir_all(dir)?;
        }
        std::fs::create_dir_all(dir)?;
        for (name, bytes) in &self.files {
            let path = dir.join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(path, bytes)?;
        }
        Ok(())
    }
}
