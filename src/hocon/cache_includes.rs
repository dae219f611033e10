//! The files a `hocon_data` file includes (`include file("...")`), read for
//! the engine's [`FileCache`]: confined as the data files are
//! ([`crate::Options::confine`]), and each recorded with its stamp, so that
//! the cached parse of the including file is made again when one of them
//! changes (or appears, or goes).

use crate::data::{stamp_of, Dep, FileCache};
use crate::error::{Error, Result};
use crate::value::Value;
use std::path::{Path, PathBuf};

/// The [`super::IncludeReader`] of one parse of a `hocon_data` file.
pub(crate) struct CacheIncludes<'c> {
    cache: &'c FileCache,
    deps: Vec<Dep>,
    /// The error that stopped the parse at an include (a refused path).
    failed: Option<Error>,
}

impl<'c> CacheIncludes<'c> {
    pub(crate) fn new(cache: &'c FileCache) -> CacheIncludes<'c> {
        CacheIncludes {
            cache,
            deps: Vec::new(),
            failed: None,
        }
    }

    /// The data hash of the `hocon_data` file `path` whose content is
    /// `bytes`, its includes read through the cache; a refused include is
    /// its own error (kind `io`, naming the file).
    pub(crate) fn parse(&mut self, bytes: &[u8], path: &Path) -> Result<Value> {
        let text = std::str::from_utf8(bytes)
            .map_err(|_| Error::parse(path, "invalid byte sequence in UTF-8", None))?;
        let parsed = super::hocon_data_with(text, path, self);
        match self.failed.take() {
            Some(e) => Err(e),
            None => parsed,
        }
    }

    /// The files the parse read, with their stamps.
    pub(crate) fn take_deps(&mut self) -> Vec<Dep> {
        std::mem::take(&mut self.deps)
    }
}

impl super::IncludeReader for CacheIncludes<'_> {
    fn read(&mut self, path: &Path) -> std::result::Result<Option<String>, String> {
        // Relative paths are the process's working directory's, as
        // ruby-hocon opens them.
        let absolute: PathBuf = if path.is_absolute() {
            path.to_path_buf()
        } else {
            std::env::current_dir().map_or_else(|_| path.to_path_buf(), |d| d.join(path))
        };
        if let Err(e) = self.cache.confine(&absolute) {
            let message = e.message.clone();
            self.failed = Some(e);
            return Err(message);
        }
        // The stamp is taken before the read: a change during the read
        // leaves a stamp that differs at the next check.
        let stamp = stamp_of(&absolute).ok().map(|(s, _)| s);
        self.deps.push((absolute.clone(), stamp));
        // A file that cannot be read includes nothing, as a missing one.
        Ok(std::fs::read_to_string(&absolute).ok())
    }
}
