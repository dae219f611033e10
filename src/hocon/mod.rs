//! `hocon_data`: HOCON data files read as Puppet 7.23's `hocon_data`
//! function reads them with ruby-hocon 1.3.1 (`Hocon.parse(content)`, then
//! `resolve` and `unwrapped`).
//!
//! - [`lexer`]: tokens, as ruby-hocon's `Tokenizer` makes them;
//! - [`number`]: numbers, as Ruby's `Integer()` / `Float()` read them;
//! - [`parser`]: the document, with path expressions, `+=`, duplicate
//!   keys and includes, into an unresolved [`Node`] tree;
//! - [`merge`]: `with_fallback` and value concatenation;
//! - [`resolve`]: substitutions (`${a.b}`, `${?X}`, environment variables,
//!   self-references, cycles) and unwrapping into a [`Value`].
//!
//! Key order is ruby-hocon's: a duplicate key keeps its first position, and
//! two merged objects list the later one's keys first. Puppet hands
//! ruby-hocon the file's content as a String, so a plain `include "x"` at
//! the top of the file is looked up as a (missing) class-path resource and
//! includes nothing, and `include file("x")` is relative to the process's
//! working directory; inside an included file, a plain include is relative
//! to that file.
//!
//! Hostile input cannot exhaust the stack: nesting is bounded by
//! [`MAX_DEPTH`], includes by ruby-hocon's 50 levels, and resolution by
//! [`MAX_RESOLVE_STEPS`] (cycles are errors, as ruby-hocon reports them).

pub(crate) mod cache_includes;
pub mod lexer;
pub mod merge;
pub mod number;
pub mod parser;
pub mod resolve;

use crate::value::Value;
use indexmap::IndexMap;
use number::Number;
use std::fmt;
use std::path::Path;
use std::rc::Rc;

/// How deep objects, arrays and substitutions may nest.
pub const MAX_DEPTH: usize = 1000;

/// How many values one file's resolution may resolve.
pub const MAX_RESOLVE_STEPS: usize = 1_000_000;

/// An object's fields, in ruby-hocon's order.
pub type Obj = IndexMap<String, Node>;

/// A substitution `${path}`.
#[derive(Debug, PartialEq)]
pub struct Subst {
    /// Identity (ruby-hocon detects cycles by object identity).
    pub id: usize,
    /// The path looked up.
    pub path: Vec<String>,
    /// How many leading elements of `path` an include's nesting added
    /// (the path without them is tried next).
    pub prefix: usize,
    /// `${?...}`.
    pub optional: bool,
    /// Where it is.
    pub origin: Rc<str>,
    /// Its line.
    pub line: usize,
}

impl Subst {
    /// The expression as ruby-hocon's messages write it (`${a.b}`).
    pub fn expr(&self) -> String {
        format!(
            "${{{}{}}}",
            if self.optional { "?" } else { "" },
            render_path(&self.path)
        )
    }
}

/// An unresolved (or resolved) HOCON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// An object.
    Obj(Obj),
    /// A list.
    List(Vec<Node>),
    /// A string; `true` when it was unquoted text.
    Str(String, bool),
    /// A number and its original text.
    Num(Number, String),
    /// A boolean.
    Bool(bool),
    /// `null`.
    Null,
    /// A substitution.
    Ref(Rc<Subst>),
    /// A value concatenation that holds a substitution.
    Concat(Vec<Node>),
    /// A merge delayed until resolution (highest priority first).
    Merge(Vec<Node>),
}

impl Node {
    /// Whether ruby-hocon calls the value "unmergeable" (its merge with a
    /// fallback waits for resolution).
    pub fn unmergeable(&self) -> bool {
        matches!(self, Node::Ref(_) | Node::Concat(_) | Node::Merge(_))
    }
}

/// Renders a path as ruby-hocon's `Path#render`: elements joined by `.`,
/// quoted when they hold anything but letters, digits, `-` and `_`.
pub fn render_path(path: &[String]) -> String {
    path.iter()
        .map(|e| {
            let plain = !e.is_empty()
                && e.chars()
                    .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
                && !e.starts_with(|c: char| c.is_ascii_digit() || c == '-');
            if plain {
                e.clone()
            } else {
                let mut quoted = String::with_capacity(e.len() + 2);
                crate::render::json_string(e, &mut quoted);
                quoted
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// A ruby-hocon error: its origin (`String` for the file Puppet handed
/// over as a String, else the included file's path), line, and message.
#[derive(Clone, Debug, PartialEq)]
pub struct HoconError {
    /// `String`, or an included file's path.
    pub origin: Rc<str>,
    /// The line, when ruby-hocon names one.
    pub line: Option<usize>,
    /// The message.
    pub message: String,
}

impl HoconError {
    /// An error at `line` of `origin`.
    pub fn at(origin: &Rc<str>, line: usize, message: impl Into<String>) -> HoconError {
        HoconError {
            origin: origin.clone(),
            line: Some(line),
            message: message.into(),
        }
    }
}

impl fmt::Display for HoconError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}: {}: {}", self.origin, l, self.message),
            None => write!(f, "{}: {}", self.origin, self.message),
        }
    }
}

/// Reads the files a document's `include file("...")` statements name
/// (ruby-hocon reads them relative to the process's working directory).
pub trait IncludeReader {
    /// The file's text; `Ok(None)` when there is no such file (ruby-hocon
    /// then includes nothing); `Err(message)` fails the parse at the
    /// include.
    fn read(&mut self, path: &Path) -> Result<Option<String>, String>;
}

/// Reads included files straight from the file system; a file that cannot
/// be read includes nothing, as ruby-hocon's missing file.
pub struct FsReader;

impl IncludeReader for FsReader {
    fn read(&mut self, path: &Path) -> Result<Option<String>, String> {
        Ok(std::fs::read_to_string(path).ok())
    }
}

/// Parses and resolves a HOCON document given as text (as `Hocon.parse`),
/// into its root Hash; included files are read straight from the file
/// system.
pub fn parse_str(text: &str) -> Result<Value, HoconError> {
    parse_str_with(text, &mut FsReader)
}

/// [`parse_str`] with included files read by `reader`.
pub fn parse_str_with(text: &str, reader: &mut dyn IncludeReader) -> Result<Value, HoconError> {
    let origin: Rc<str> = Rc::from("String");
    let mut ids = 0usize;
    let root = parser::parse_document(text, &origin, None, 0, &mut ids, reader)?;
    resolve::resolve_root(root, &origin)
}

/// `hocon_data`'s answer for a file whose content is `text`: its data
/// hash, or Puppet's `Unable to parse (PATH): ...` error; included files
/// are read straight from the file system.
pub fn hocon_data(text: &str, path: &Path) -> crate::error::Result<Value> {
    hocon_data_with(text, path, &mut FsReader)
}

/// [`hocon_data`] with included files read by `reader`.
pub fn hocon_data_with(
    text: &str,
    path: &Path,
    reader: &mut dyn IncludeReader,
) -> crate::error::Result<Value> {
    parse_str_with(text, reader).map_err(|e| crate::error::Error::parse(path, &e, e.line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_paths() {
        assert_eq!(render_path(&["a".into(), "b".into()]), "a.b");
        assert_eq!(render_path(&["ntp::servers".into()]), "\"ntp::servers\"");
        assert_eq!(render_path(&["".into()]), "\"\"");
    }

    #[test]
    fn errors_are_worded_as_ruby_hocon() {
        let e = parse_str("a = ${b}").unwrap_err();
        assert_eq!(
            e.to_string(),
            "String: 1: Could not resolve substitution to a value: ${b}"
        );
        let e = hocon_data("a = [1\nb=2", Path::new("/d/x.conf")).unwrap_err();
        assert!(
            e.message
                .starts_with("Unable to parse (/d/x.conf): String: 2: "),
            "{}",
            e.message
        );
        assert_eq!(e.line, Some(2));
    }
}
