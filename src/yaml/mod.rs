//! YAML with Psych's semantics: [`load`] (saphyr's parser, patched where
//! libyaml differs, and a loader that builds values as Psych does) and
//! [`to_yaml`] (Psych's YAMLTree and libyaml's emitter).
//!
//! * `patch`: the edits and checks around saphyr;
//! * `loader`: events to values;
//! * `scalar`: Psych's scalar rules, shared by the loader and the emitter;
//! * `bignum`: integers of any size;
//! * `emit`: `to_yaml`;
//! * `fast`: the usual data file (block collections of one-line scalars)
//!   read without saphyr, falling back to the full loader at anything else.
//!
//! Loading follows the semantics of Ruby's Psych 4.0.3 (libyaml 0.2.5), as
//! used by Puppet 7.23: `Psych.safe_load(text, permitted_classes: [Symbol],
//! aliases: true)` for Hiera 5 data files, and `aliases: false` (Psych 4's
//! `YAML.load`) for Hiera 3.
//!
//! The syntax is read by `saphyr-parser` (a YAML 1.2 event parser); this module
//! resolves the events exactly as Psych's `ToRuby` visitor and
//! `ScalarScanner` do (YAML 1.1 flavour: `yes`/`no`/`on`/`off` booleans, octal
//! `010`, sexagesimal `1:20`, `:symbols`, `<<` merge keys, `!!binary`, ...),
//! and papers over the places where saphyr and libyaml disagree on syntax.
//!
//! Psych parses the whole first document before converting it, so a syntax
//! error anywhere in the first document wins over a conversion error (an
//! unpermitted `Date`, a bad `!!float`, an unknown alias); this loader does the
//! same. Only the first document is read: what follows it is ignored, as in
//! Psych, except the one token libyaml reads to see that the document ended.
//!
//! Differences between saphyr and libyaml that are papered over (see the
//! comments at each place): tabs after the `:` of a simple key are accepted;
//! tabs libyaml rejects (indentation, after `- `, on blank lines inside block
//! collections and plain scalars, in block scalar indentation) are rejected
//! with libyaml's message; content after the root node is ignored; `'x'#c`
//! is a scalar and a comment; flow collections and quoted scalars need no
//! indentation; in flow context `:x`, `?x`, `|`, `>` and a lone `-` are
//! read as libyaml reads them; anchors are `[0-9A-Za-z_-]+`; `%YAML`, `%TAG`
//! and unknown directives are checked as libyaml does; control characters
//! are rejected; a byte order mark at the start of a line counts as one
//! column (so `\u{FEFF}---` is no document start, as in Psych), elsewhere it
//! is an ordinary character. Syntax errors are worded as libyaml words them
//! (`<problem> <context> at line L column C`, at libyaml's context mark).
//! saphyr is patched around by re-parsing an edited copy of the source, so a
//! document needing many such patches (other than tabs after `:`) parses
//! more slowly.
//!
//! Known differences that remain: U+0085, U+2028 and U+2029 are not line breaks
//! (libyaml treats them as such), except that an implicit mapping key holding
//! one is refused as libyaml refuses a key spanning lines; flow collections
//! nested deeper than 255 levels and any collections nested deeper than
//! [`MAX_DEPTH`] are an error (Psych overflows Ruby's stack at roughly 1,000
//! levels); a recursive alias (to a collection that contains it) is an error
//! instead of a recursive structure; `!ruby/encoding` is an error instead of an
//! `Encoding`; Psych's `!!omap` entry, `!ruby/hash-with-ivars` and
//! `!ruby/object` details are followed but not to every corner; for some
//! malformed documents the error wording or position differs from libyaml's
//! (all documents in this module's test table, over 800 recorded from Psych,
//! give Psych's result exactly).
//!
//! The table of documents recorded from Psych is `tests/psych/cases.json`
//! (run by `tests/psych_table.rs`).

mod bignum;
mod emit;
mod fast;
pub(crate) use fast::Intern;
mod loader;
mod patch;
mod scalar;

pub use emit::to_yaml;

#[allow(unused_imports)]
use bignum::*;
#[allow(unused_imports)]
use loader::*;
#[allow(unused_imports)]
use patch::*;
#[allow(unused_imports)]
use scalar::*;

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::path::Path;

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError, Span};

use crate::error::{Error, ErrorKind};
use crate::value::{Map, Value};

/// How deep collections may nest before loading fails. Psych itself overflows
/// Ruby's stack at about 960 (mappings) to 1,300 (sequences) levels, so every
/// document Puppet can load is within this; and values this deep can still be
/// dropped and walked recursively on a 2 MiB thread stack.
pub const MAX_DEPTH: usize = 1_500;

/// Options of [`load`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlOptions {
    /// Whether aliases (`*name`) are allowed. `true` for Hiera 5 data files
    /// (`Psych.safe_load(..., aliases: true)`); `false` reproduces Psych 4's
    /// `YAML.load` (Hiera 3), where any alias fails with `Unknown alias: NAME`.
    pub aliases: bool,
    /// The largest number of nodes that aliases may add to the document when
    /// expanded (each alias adds the size of the value it refers to). Guards
    /// against "billion laughs" documents. Psych has no such limit.
    pub max_alias_expansion: usize,
}

impl Default for YamlOptions {
    fn default() -> YamlOptions {
        YamlOptions {
            aliases: true,
            max_alias_expansion: 1_000_000,
        }
    }
}

/// A failure to load a YAML document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlError {
    /// Psych's message, without the `(<path>): ` prefix: e.g.
    /// `did not find expected key while parsing a block mapping at line 1 column 1`
    /// or `Tried to load unspecified class: Date`.
    pub message: String,
    /// The 1-based line the error is about, when known. For syntax errors this
    /// is the line the message names (libyaml's context line).
    pub line: Option<usize>,
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for YamlError {}

impl YamlError {
    fn new(message: impl Into<String>, line: Option<usize>) -> YamlError {
        YamlError {
            message: message.into(),
            line,
        }
    }

    /// Whether Puppet puts the file path in front of this message. Psych's
    /// syntax errors carry `(<path>): ` and Puppet adds it to
    /// `Psych::DisallowedClass`; Ruby errors raised while converting the tree
    /// (`Unknown alias`, `invalid value for Float()`, ...) come without it.
    pub fn has_path(&self) -> bool {
        // ("stack level too deep", our nesting limit, keeps the path: the
        // limit is ours, and the file must be named.)
        const BARE: [&str; 6] = [
            "Unknown alias: ",
            "invalid value for ",
            "can't convert ",
            "undefined method ",
            "can't modify frozen ",
            "unknown encoding name",
        ];
        !BARE.iter().any(|p| self.message.starts_with(p))
    }

    /// The error as Puppet's `yaml_data` reports it:
    /// `Unable to parse (<path>): <message>`, or `Unable to parse <message>`
    /// for the messages Puppet gives without a path (see [`Self::has_path`]).
    pub fn to_error(&self, path: &Path) -> Error {
        let message = if self.has_path() {
            format!("Unable to parse ({}): {}", path.display(), self.message)
        } else {
            format!("Unable to parse {}", self.message)
        };
        Error {
            kind: ErrorKind::Parse,
            message,
            file: Some(path.to_path_buf()),
            line: self.line,
        }
    }
}

/// Parses the first document of `text` as Psych does.
///
/// Returns `Ok(None)` when there is no document or its root is null (an empty
/// file, only comments, `---`, `~`, `null`).
pub fn load(text: &str, opts: &YamlOptions) -> Result<Option<Value>, YamlError> {
    load_interned(text, opts, None).map(|(root, _)| root)
}

/// [`load`], building the values of a document the fast path reads
/// through `intern` (the file cache's interner): the root, and whether it
/// is in its final, compacted form already (see [`fast::load_checked`]).
pub(crate) fn load_interned(
    text: &str,
    opts: &YamlOptions,
    intern: Option<&mut dyn fast::Intern>,
) -> Result<(Option<Value>, bool), YamlError> {
    if plain_ascii_checked(text)? {
        if let Some((root, compact)) = fast::load_checked(text, intern) {
            return Ok((Some(root), compact));
        }
    }
    load_full(text, opts).map(|root| (root, false))
}

/// [`load_interned`] with a shared interner, held only while the fast path
/// reads (not through the full loader, which may take long on a large or
/// hostile file, while other threads wait to keep their parses): taken if
/// no other thread holds it, else the fast path reads without it (and the
/// root is not in its kept form).
pub(crate) fn load_interned_shared<I: fast::Intern>(
    text: &str,
    opts: &YamlOptions,
    interner: &std::sync::Mutex<I>,
) -> Result<(Option<Value>, bool), YamlError> {
    if plain_ascii_checked(text)? {
        let mut held = match interner.try_lock() {
            Ok(guard) => Some(guard),
            Err(std::sync::TryLockError::Poisoned(p)) => Some(p.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => None,
        };
        let intern = held.as_deref_mut().map(|i| i as &mut dyn fast::Intern);
        if let Some((root, compact)) = fast::load_checked(text, intern) {
            return Ok((Some(root), compact));
        }
    }
    load_full(text, opts).map(|root| (root, false))
}

/// Whether `text` is printable ASCII and line feeds (the usual data file,
/// which has no control character: one pass over the bytes answers both
/// questions), or the error of a control character in it.
fn plain_ascii_checked(text: &str) -> Result<bool, YamlError> {
    let ascii = fast::plain_ascii(text.as_bytes());
    if !ascii && control_character(text).is_some() {
        // libyaml's reader checks the input before the scanner sees it; the
        // error has no context mark, so Psych says line 1 column 1.
        return Err(YamlError::new(
            "control characters are not allowed at line 1 column 1",
            Some(1),
        ));
    }
    Ok(ascii)
}

/// [`load`] without its fast path: saphyr's events through the loader.
fn load_full(text: &str, opts: &YamlOptions) -> Result<Option<Value>, YamlError> {
    let mut chars: Vec<char> = text.chars().collect();
    // libyaml skips a byte order mark at the start of a line but counts it as
    // a column: a space has the same effect on saphyr. (Puppet reads data files
    // as plain 'utf-8', so a BOM does reach Psych, and `\u{FEFF}---` is then
    // no document start; callers emulating Ruby's 'bom|utf-8' reads, as for
    // hiera.yaml, strip it before calling.) Elsewhere libyaml takes a BOM as
    // an ordinary character, which saphyr rejects: it is swapped for an
    // unused private-use character and swapped back in scalars.
    let mut at_line_start = true;
    // `chars` is still `text`: the first parse reads `text` itself.
    let mut pristine = true;
    let has_bom = text.contains('\u{feff}');
    if has_bom {
        for c in chars.iter_mut() {
            if at_line_start && *c == '\u{feff}' {
                *c = ' ';
                pristine = false;
            }
            at_line_start = *c == '\n' || *c == '\r';
        }
    }
    // (stand-in, original) pairs.
    let mut stand_ins: Vec<(char, char)> = Vec::new();
    if has_bom && chars.contains(&'\u{feff}') {
        let stand_in = unused_char(&chars, &stand_ins);
        for c in chars.iter_mut() {
            if *c == '\u{feff}' {
                *c = stand_in;
            }
        }
        stand_ins.push((stand_in, '\u{feff}'));
        pristine = false;
    }
    check_directives(&chars)?;

    let mut last_fix: Option<usize> = None;
    let mut deferred: Option<Failure> = None;
    // Tabs after a `:` are blanked wherever they occur once saphyr trips on
    // the first, instead of one parse per tab; a guess that lands inside a
    // scalar is undone.
    let mut guesses: Vec<usize> = Vec::new();
    let mut no_guess: Vec<usize> = Vec::new();
    let passes = (MAX_REPARSED_CHARS / chars.len().max(1)).clamp(8, MAX_RETRIES);
    for _ in 0..passes {
        let source: Cow<'_, str> = if pristine {
            Cow::Borrowed(text)
        } else {
            Cow::Owned(chars.iter().collect())
        };
        // Every pass after the first parses a patched text.
        pristine = false;
        let mut loader = Loader::new(&chars, opts, &stand_ins, deferred.clone(), &guesses);
        let outcome = loader.run(&source);
        let bad = std::mem::take(&mut loader.bad_guesses);
        if !bad.is_empty() {
            for p in bad {
                chars[p] = '\t';
                no_guess.push(p);
                guesses.retain(|g| *g != p);
            }
            continue;
        }
        match outcome {
            Outcome::Done(v) => return Ok(v),
            Outcome::Failed(e) => return Err(e),
            Outcome::Retry(fix, fallback, failure) => {
                let at = fix.position();
                if last_fix.is_some_and(|l| at <= l) {
                    return Err(fallback);
                }
                last_fix = Some(at);
                match fix {
                    Fix::Indent(a, n) => {
                        for g in guesses.iter_mut().chain(no_guess.iter_mut()) {
                            if *g >= a {
                                *g += n;
                            }
                        }
                    }
                    Fix::Truncate(a) => {
                        guesses.retain(|g| *g < a);
                        no_guess.retain(|g| *g < a);
                    }
                    Fix::Blank(_, b)
                        if b <= chars.len() && chars.get(b.wrapping_sub(1)) == Some(&'\t') =>
                    {
                        guess_colon_tabs(&mut chars, b, &no_guess, &mut guesses);
                    }
                    Fix::Dash(a) => {
                        // libyaml reads a lone `-` before `,` `]` `}` as a
                        // plain scalar; saphyr does not.
                        let stand_in = match stand_ins.iter().find(|s| s.1 == '-') {
                            Some(s) => s.0,
                            None => {
                                let c = unused_char(&chars, &stand_ins);
                                stand_ins.push((c, '-'));
                                c
                            }
                        };
                        // Every later `-` that starts a plain scalar the
                        // same way would trip saphyr too, one parse each:
                        // stand in for them all at once (a stand-in that
                        // lands inside a quoted scalar is swapped back there).
                        chars[a] = stand_in;
                        for i in a + 1..chars.len().saturating_sub(1) {
                            if chars[i] == '-'
                                && ",[]{}".contains(chars[i + 1])
                                && matches!(
                                    chars[i - 1],
                                    '[' | ',' | '{' | ' ' | '\t' | '\n' | '\r'
                                )
                            {
                                chars[i] = stand_in;
                            }
                        }
                        continue;
                    }
                    _ => {}
                }
                fix.apply(&mut chars);
                if failure.is_some() {
                    deferred = failure;
                }
            }
        }
    }
    Err(YamlError::new(
        format!(
            "document too complex to parse (it needs more than {passes} repairs of the reader)"
        ),
        None,
    ))
}

/// The text of every YAML file under the repository's `tests/` (a corpus
/// for tests that compare two ways of reading YAML).
#[cfg(test)]
pub(crate) fn test_yaml_texts() -> Vec<String> {
    let mut texts = Vec::new();
    let mut stack = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "yaml") {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    texts.push(text);
                }
            }
        }
    }
    texts
}
