//! The one error type of libhiera.

use std::fmt;
use std::path::{Path, PathBuf};

/// What kind of failure an [`Error`] reports. The names are stable: they
/// appear as the `kind` field of error objects in the CLI and the C ABI.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A hiera.yaml (or an environment.conf) is invalid.
    Config,
    /// A data file (YAML or JSON) cannot be parsed.
    Parse,
    /// A value has the wrong type (merges, data validation, dotted keys).
    Type,
    /// An interpolation expression is invalid.
    Interpolation,
    /// A lookup recursed into itself.
    Recursion,
    /// The deep merge itself failed (invalid deep_merge options, arrays
    /// that cannot be sorted).
    Merge,
    /// Any other failure of a lookup (bad key syntax, convert_to, ...).
    Lookup,
    /// A file could not be read.
    Io,
    /// An argument given by the caller is invalid (merge option, request).
    InvalidArgument,
    /// A bound on the work, memory or stack of one lookup was reached (see
    /// [`crate::limits`]).
    Limit,
}

impl ErrorKind {
    /// Every kind, in the order `include/hiera.h` lists them.
    pub const ALL: [ErrorKind; 10] = [
        ErrorKind::Config,
        ErrorKind::Parse,
        ErrorKind::Type,
        ErrorKind::Interpolation,
        ErrorKind::Recursion,
        ErrorKind::Merge,
        ErrorKind::Lookup,
        ErrorKind::Io,
        ErrorKind::InvalidArgument,
        ErrorKind::Limit,
    ];

    /// The stable lowercase name of the kind.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Config => "config",
            ErrorKind::Parse => "parse",
            ErrorKind::Type => "type",
            ErrorKind::Interpolation => "interpolation",
            ErrorKind::Recursion => "recursion",
            ErrorKind::Merge => "merge",
            ErrorKind::Lookup => "lookup",
            ErrorKind::Io => "io",
            ErrorKind::InvalidArgument => "invalid_argument",
            ErrorKind::Limit => "limit",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An error with a kind, Puppet's message and, where known, a file and line.
///
/// `message` is the full text as Puppet prints it, including any
/// `(file: ..., line: ...)` suffix; `file` and `line` repeat those facts for
/// programs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Error {
    /// The kind of failure.
    pub kind: ErrorKind,
    /// The human-readable message (Puppet's wording where Puppet has one).
    pub message: String,
    /// The file the error is about, if any.
    pub file: Option<PathBuf>,
    /// The 1-based line in `file`, if known.
    pub line: Option<usize>,
}

impl Error {
    /// An error without file information.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            file: None,
            line: None,
        }
    }

    /// A configuration error; Puppet's ` (file: F)` or ` (file: F, line: N)`
    /// suffix is appended to the message.
    pub fn config(message: impl Into<String>, file: &Path, line: Option<usize>) -> Error {
        let mut message = message.into();
        match line {
            Some(l) => message.push_str(&format!(" (file: {}, line: {})", file.display(), l)),
            None => message.push_str(&format!(" (file: {})", file.display())),
        }
        Error {
            kind: ErrorKind::Config,
            message,
            file: Some(file.to_path_buf()),
            line,
        }
    }

    /// A parse error of a data or config file, worded as Puppet's
    /// `Unable to parse (<path>): <detail>`.
    pub fn parse(file: &Path, detail: impl fmt::Display, line: Option<usize>) -> Error {
        Error {
            kind: ErrorKind::Parse,
            message: format!("Unable to parse ({}): {}", file.display(), detail),
            file: Some(file.to_path_buf()),
            line,
        }
    }

    /// Wraps the message in Puppet's `Lookup of key 'K' failed: ` prefix.
    pub fn prefixed(mut self, key: &str) -> Error {
        self.message = format!("Lookup of key '{}' failed: {}", key, self.message);
        self
    }
}

/// The result type of libhiera.
pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::ErrorKind;

    #[test]
    fn all_holds_every_kind_once() {
        // Exhaustive: a new kind fails to compile here until it is placed.
        let position = |k: ErrorKind| match k {
            ErrorKind::Config => 0,
            ErrorKind::Parse => 1,
            ErrorKind::Type => 2,
            ErrorKind::Interpolation => 3,
            ErrorKind::Recursion => 4,
            ErrorKind::Merge => 5,
            ErrorKind::Lookup => 6,
            ErrorKind::Io => 7,
            ErrorKind::InvalidArgument => 8,
            ErrorKind::Limit => 9,
        };
        for (i, k) in ErrorKind::ALL.iter().enumerate() {
            assert_eq!(position(*k), i, "{k}");
        }
    }
}
