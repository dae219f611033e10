//! YAML loading with the semantics of Ruby's Psych 4.0.3 (libyaml 0.2.5), as
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
//! Known differences that remain: U+0085, U+2028 and U+2029 are not line
//! breaks (libyaml treats them as such); flow collections nested deeper than
//! 255 levels and any collections nested deeper than [`MAX_DEPTH`] are an
//! error (Psych overflows Ruby's stack at roughly 1,000 levels); a recursive
//! alias (to a collection that contains it) is an error instead of a
//! recursive structure; `!ruby/encoding` is an error instead of an
//! `Encoding`; Psych's `!!omap` entry, `!ruby/hash-with-ivars` and
//! `!ruby/object` details are followed but not to every corner; for some
//! malformed documents the error wording or position differs from libyaml's
//! (all documents in this module's test table, over 800 recorded from
//! Psych, give Psych's result exactly).

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
    if control_character(text).is_some() {
        // libyaml's reader checks the input before the scanner sees it; the
        // error has no context mark, so Psych says line 1 column 1.
        return Err(YamlError::new(
            "control characters are not allowed at line 1 column 1",
            Some(1),
        ));
    }
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

/// A private-use character that does not occur in the source.
fn unused_char(chars: &[char], taken: &[(char, char)]) -> char {
    ('\u{f0000}'..='\u{10fffd}')
        .rev()
        .find(|c| !chars.contains(c) && !taken.iter().any(|t| t.0 == *c))
        .unwrap_or('\u{10fffd}')
}

/// Blanks, after char `from`, the tabs that follow a `:` as saphyr rejects
/// them (only tabs, then `-` or a letter or digit), recording where.
fn guess_colon_tabs(chars: &mut [char], from: usize, no_guess: &[usize], guesses: &mut Vec<usize>) {
    let mut i = from;
    while i + 1 < chars.len() {
        if chars[i] == ':'
            && chars[i + 1] == '\t'
            && i > 0
            && !is_blank(chars[i - 1])
            && !is_break(chars[i - 1])
        {
            let mut j = i + 1;
            while j < chars.len() && chars[j] == '\t' {
                j += 1;
            }
            if j < chars.len()
                && (chars[j] == '-' || chars[j].is_ascii_alphanumeric() || chars[j] == '_')
            {
                for (k, c) in chars.iter_mut().enumerate().take(j).skip(i + 1) {
                    if !no_guess.contains(&k) {
                        *c = ' ';
                        guesses.push(k);
                    }
                }
            }
            i = j;
        } else {
            i += 1;
        }
    }
    guesses.sort_unstable();
}

/// How many times a document may be re-parsed after patching a place where
/// saphyr is stricter than libyaml.
const MAX_RETRIES: usize = 100_000;

/// The characters that all the passes of one load may parse together: a
/// document that needs many repairs is re-parsed once per repair, so a large
/// one gets fewer (a 64 KiB document 128, a 1 MiB one 8, never fewer than
/// 8), and a hostile one ends in "document too complex to parse" within a
/// few seconds instead of minutes or hours (a pass may run at a few MB/s:
/// deep flow collections parse slowly). Repairs that recur through a
/// document, lone dashes and tabs after colons, are made all at once.
const MAX_REPARSED_CHARS: usize = 8 << 20;

/// The most digits of a binary, octal or hexadecimal integer (their
/// conversion to decimal is quadratic); decimal integers have no bound.
const MAX_NONDECIMAL_DIGITS: usize = 100_000;

/// The first character libyaml's reader rejects.
fn control_character(text: &str) -> Option<char> {
    if text
        .bytes()
        .all(|b| matches!(b, b'\t' | b'\n' | b'\r' | 0x20..=0x7e))
    {
        // Plain ASCII, the usual data file: checked a byte at a time.
        return None;
    }
    for c in text.chars() {
        let ok = matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{7e}' | '\u{85}')
            || ('\u{a0}'..='\u{d7ff}').contains(&c)
            || ('\u{e000}'..='\u{fffd}').contains(&c)
            || c >= '\u{10000}';
        if !ok {
            return Some(c);
        }
    }
    None
}

// ---------------------------------------------------------------------------
// Directives (libyaml checks them where saphyr does not)
// ---------------------------------------------------------------------------

fn at_line_col(problem: &str, line: usize, col0: usize) -> YamlError {
    YamlError::new(
        format!("{} at line {} column {}", problem, line, col0 + 1),
        Some(line),
    )
}

/// Checks the directives before the first document as libyaml does: only
/// `%YAML 1.1`/`1.2` and `%TAG` are known, each at most once, and they must
/// be followed by `---`.
fn check_directives(chars: &[char]) -> Result<(), YamlError> {
    let mut i = 0;
    let mut line = 1;
    let mut seen_yaml = false;
    let mut handles: Vec<String> = Vec::new();
    let mut any = false;
    while i < chars.len() {
        let start = i;
        let mut end = i;
        while end < chars.len() && chars[end] != '\n' && chars[end] != '\r' {
            end += 1;
        }
        let l = &chars[start..end];
        let mut next = end;
        if next < chars.len() {
            next += if chars[next] == '\r' && chars.get(next + 1) == Some(&'\n') {
                2
            } else {
                1
            };
        }
        let first = l.iter().position(|c| *c != ' ');
        match first {
            None => {}
            Some(p) if l[p] == '#' => {}
            Some(0) if l[0] == '%' => {
                any = true;
                let name: String = l[1..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == '_' || **c == '-')
                    .collect();
                let after = 1 + name.chars().count();
                if name.is_empty() {
                    return Err(at_line_col(
                        "could not find expected directive name while scanning a directive",
                        line,
                        0,
                    ));
                }
                if after < l.len() && l[after] != ' ' && l[after] != '\t' {
                    return Err(at_line_col(
                        "found unexpected non-alphabetical character while scanning a directive",
                        line,
                        0,
                    ));
                }
                let rest: String = l[after..].iter().collect();
                let rest = match rest.find('#') {
                    Some(h) => rest[..h].to_string(),
                    None => rest,
                };
                let words: Vec<&str> = rest.split([' ', '\t']).filter(|w| !w.is_empty()).collect();
                match name.as_str() {
                    "YAML" => {
                        let version = words.first().copied().unwrap_or("");
                        let (major, minor) = match version.split_once('.') {
                            Some((a, b))
                                if !a.is_empty()
                                    && !b.is_empty()
                                    && a.chars().all(|c| c.is_ascii_digit())
                                    && b.chars().all(|c| c.is_ascii_digit()) =>
                            {
                                (a.parse::<u64>().unwrap_or(u64::MAX), b.parse::<u64>().unwrap_or(u64::MAX))
                            }
                            _ => {
                                return Err(at_line_col(
                                    "did not find expected digit or '.' character while scanning a %YAML directive",
                                    line,
                                    0,
                                ))
                            }
                        };
                        if seen_yaml {
                            return Err(at_line_col("found duplicate %YAML directive", 1, 0));
                        }
                        seen_yaml = true;
                        if major != 1 || (minor != 1 && minor != 2) {
                            return Err(at_line_col("found incompatible YAML document", 1, 0));
                        }
                    }
                    "TAG" => {
                        let handle = words.first().copied().unwrap_or("").to_string();
                        if handles.contains(&handle) {
                            return Err(at_line_col("found duplicate %TAG directive", 1, 0));
                        }
                        handles.push(handle);
                    }
                    _ => {
                        return Err(at_line_col(
                            "found unknown directive name while scanning a directive",
                            line,
                            0,
                        ))
                    }
                }
            }
            Some(_) => {
                let is_doc_start = l.len() >= 3
                    && l[0] == '-'
                    && l[1] == '-'
                    && l[2] == '-'
                    && (l.len() == 3 || l[3] == ' ' || l[3] == '\t');
                if any && !is_doc_start {
                    return Err(at_line_col("did not find expected <document start>", 1, 0));
                }
                return Ok(());
            }
        }
        i = next;
        line += 1;
    }
    if any {
        // libyaml reaches the end of the stream where it wanted `---`.
        return Err(at_line_col("did not find expected <document start>", 1, 0));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Positions in the source
// ---------------------------------------------------------------------------

/// A position: char index, 1-based line, 0-based column (saphyr's markers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pos {
    idx: usize,
    line: usize,
    col: usize,
}

impl Pos {
    fn start(span: &Span) -> Pos {
        Pos {
            idx: span.start.index(),
            line: span.start.line(),
            col: span.start.col(),
        }
    }
    fn end(span: &Span) -> Pos {
        Pos {
            idx: span.end.index(),
            line: span.end.line(),
            col: span.end.col(),
        }
    }
}

fn is_break(c: char) -> bool {
    c == '\n' || c == '\r'
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

// ---------------------------------------------------------------------------
// Patches for places where saphyr is stricter than libyaml
// ---------------------------------------------------------------------------

/// An edit of the source after which saphyr reads it as libyaml would.
enum Fix {
    /// Replace these chars with spaces (tabs after `:`, a comment glued to a
    /// quoted scalar).
    Blank(usize, usize),
    /// Insert spaces at a char index (indentation saphyr wants inside flow
    /// collections and quoted scalars, which libyaml ignores).
    Indent(usize, usize),
    /// Drop everything from here on (content after the root node, which
    /// Psych never reads).
    Truncate(usize),
    /// Stand in for this `-` (a plain scalar for libyaml).
    Dash(usize),
    /// Replace these chars with a null (`~`) padded with spaces (an alias to
    /// an unknown anchor, which saphyr cannot get past but Psych only reports
    /// after parsing the whole document).
    Null(usize, usize),
}

impl Fix {
    fn position(&self) -> usize {
        match *self {
            Fix::Blank(a, _)
            | Fix::Indent(a, _)
            | Fix::Truncate(a)
            | Fix::Null(a, _)
            | Fix::Dash(a) => a,
        }
    }

    fn apply(self, chars: &mut Vec<char>) {
        match self {
            Fix::Blank(a, b) => {
                let b = b.min(chars.len());
                for c in chars[a..b].iter_mut() {
                    *c = ' ';
                }
            }
            Fix::Indent(a, n) => {
                chars.splice(a..a, std::iter::repeat_n(' ', n));
            }
            Fix::Truncate(a) => chars.truncate(a),
            Fix::Dash(_) => {}
            Fix::Null(a, b) => {
                let b = b.min(chars.len());
                for c in chars[a..b].iter_mut() {
                    *c = ' ';
                }
                if a < b {
                    chars[a] = '~';
                }
            }
        }
    }
}

enum Outcome {
    Done(Option<Value>),
    Failed(YamlError),
    /// Patch the source and parse again; the error is reported if the patch
    /// does not move the parse forward. A conversion error found on the way
    /// is carried over to the next parse.
    Retry(Fix, YamlError, Option<Failure>),
}

/// A conversion error and where it happened (line, column): Psych reports
/// the first in document order.
type Failure = ((usize, usize), YamlError);

// ---------------------------------------------------------------------------
// The loader: events to values
// ---------------------------------------------------------------------------

const CANNOT_START: &str =
    "found character that cannot start any token while scanning for the next token";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NodeKind {
    Scalar,
    Alias,
    Sequence,
    Mapping,
}

/// How a mapping becomes a value (by its tag), as Psych's `ToRuby` does it.
enum MapMode {
    /// A Hash, with `<<` merge keys.
    Hash,
    /// A `!str`/`!!str` mapping: the value of its `str` key, and whether it
    /// has other keys (set as instance variables of the string).
    Str(Option<Value>, bool),
    /// `!ruby/hash-with-ivars`: the entries of its `elements` mapping.
    Ivars,
}

enum Body {
    Seq(Vec<Value>),
    /// An `!!omap` sequence: each child gives the pair (its first child, its
    /// last child).
    Omap(Map),
    /// A child collection of an `!!omap` sequence.
    OmapPair {
        first: Option<Value>,
        last: Option<Value>,
    },
    Map {
        map: Map,
        key: Option<(Value, bool)>,
        mode: MapMode,
    },
}

struct Frame {
    body: Body,
    seq: bool,
    anchor: usize,
    flow: bool,
    /// A single-pair mapping inside a flow sequence (`[a: 1]`).
    pair: bool,
    /// libyaml's context mark for errors inside this collection: the `[` or
    /// `{`, the first key of a block mapping, the first `-` of a block
    /// sequence.
    mark: Pos,
    /// The column of a block collection's keys or dashes (libyaml's indent).
    indent: isize,
    /// Nodes in this collection with aliases expanded (for the alias limit).
    size: usize,
    /// Child nodes read so far (keys and values count separately).
    children: usize,
}

enum Anchor {
    /// A collection still being read: an alias to it would be recursive.
    Open,
    Done(Value, usize),
}

/// A Ruby exception raised by Psych while converting the parsed tree.
enum Fail {
    /// `Psych::DisallowedClass`.
    Disallowed(String),
    /// Any other error, with Ruby's message.
    Message(String),
}

impl Fail {
    fn message(self) -> String {
        match self {
            Fail::Disallowed(c) => format!("Tried to load unspecified class: {}", c),
            Fail::Message(m) => m,
        }
    }
}

fn step(chars: &[char], p: Pos) -> Pos {
    let c = chars[p.idx];
    if c == '\n' || (c == '\r' && chars.get(p.idx + 1) != Some(&'\n')) {
        Pos {
            idx: p.idx + 1,
            line: p.line + 1,
            col: 0,
        }
    } else {
        Pos {
            idx: p.idx + 1,
            line: p.line,
            col: p.col + 1,
        }
    }
}

fn is_token_error(info: &str) -> bool {
    info.starts_with("unexpected character")
        || info == "mapping values are not allowed in this context"
        || info == "block sequence entries are not allowed in this context"
        || info == "mapping keys are not allowed in this context"
        || info.starts_with("while scanning")
        || info.starts_with("while parsing a quoted scalar")
        || info.starts_with("while parsing a tag")
}

struct Loader<'a> {
    chars: &'a [char],
    opts: &'a YamlOptions,
    has_tabs: bool,
    stack: Vec<Frame>,
    anchors: HashMap<usize, Anchor>,
    alias_nodes: usize,
    /// The first conversion error, reported once the document has parsed.
    failure: Option<Failure>,
    /// Characters standing in for others in the source: (stand-in, original).
    stand_ins: &'a [(char, char)],
    /// Tabs blanked on a guess (sorted), and those that turned out to be in
    /// a scalar.
    guesses: &'a [usize],
    bad_guesses: Vec<usize>,
    /// The root value, and whether it is a block collection.
    root: Option<(Value, bool)>,
    /// The position up to which the source was checked for tabs.
    cur: Pos,
    /// libyaml's `simple_key_allowed` at `cur`: a tab there is an error.
    ska: bool,
    /// The last token was a plain scalar in block context: its start and
    /// indentation (libyaml goes on scanning whitespace as part of it).
    plain: Option<(Pos, isize)>,
    /// The end of the last event.
    last_end: Pos,
    /// A patch to make before parsing again, found while handling an event.
    retry: Option<Fix>,
}

impl<'a> Loader<'a> {
    fn new(
        chars: &'a [char],
        opts: &'a YamlOptions,
        stand_ins: &'a [(char, char)],
        failure: Option<Failure>,
        guesses: &'a [usize],
    ) -> Loader<'a> {
        let origin = Pos {
            idx: 0,
            line: 1,
            col: 0,
        };
        Loader {
            chars,
            opts,
            has_tabs: chars.contains(&'\t'),
            stack: Vec::new(),
            anchors: HashMap::new(),
            alias_nodes: 0,
            failure,
            stand_ins,
            guesses,
            bad_guesses: Vec::new(),
            root: None,
            cur: origin,
            ska: true,
            plain: None,
            last_end: origin,
            retry: None,
        }
    }

    fn run(&mut self, source: &str) -> Outcome {
        let first = self.next_token(self.cur);
        if first.col == 0
            && self.chars.get(first.idx) == Some(&'.')
            && self.document_marker(first.idx)
        {
            // libyaml takes a leading `...` for the content of a document.
            return Outcome::Failed(at_line_col(
                "did not find expected node content while parsing a block node",
                first.line,
                first.col,
            ));
        }
        let mut parser = Parser::new_from_str(source);
        loop {
            let (event, span) = match parser.next_event() {
                None => break,
                Some(Ok(x)) => x,
                Some(Err(e)) => return self.scan_error(&e),
            };
            match self.event(event, span) {
                Ok(true) => break,
                Ok(false) => {}
                Err(e) => {
                    if let Some(fix) = self.retry.take() {
                        return Outcome::Retry(fix, e, self.failure.take());
                    }
                    return Outcome::Failed(e);
                }
            }
            if self.root.is_some() {
                if let Err(e) = self.after_root(&mut parser) {
                    return Outcome::Failed(e);
                }
                break;
            }
        }
        if let Some((_, e)) = self.failure.take() {
            return Outcome::Failed(e);
        }
        match self.root.take() {
            Some((Value::Nil, _)) | None => Outcome::Done(None),
            Some((v, _)) => Outcome::Done(Some(v)),
        }
    }

    /// The root node is complete: libyaml reads one more token to see that
    /// the document ended (for a block collection it already has); nothing
    /// after it is read.
    fn after_root(
        &mut self,
        parser: &mut Parser<'_, saphyr_parser::StrInput<'_>>,
    ) -> Result<(), YamlError> {
        let block_root = self.root.as_ref().is_some_and(|r| r.1);
        let from = if self.cur.idx >= self.last_end.idx {
            self.cur
        } else {
            self.last_end
        };
        let next = self.next_token(from);
        self.gap(next, false, -1, false)?;
        if block_root {
            return Ok(());
        }
        if let Some(Err(e)) = parser.next_event() {
            let m = e.marker();
            if m.index() == next.idx && is_token_error(e.info()) {
                let pos = Pos {
                    idx: m.index(),
                    line: m.line(),
                    col: m.col(),
                };
                return Err(self.translate(e.info(), pos));
            }
        }
        Ok(())
    }

    /// The innermost block indentation (libyaml's `parser->indent`).
    fn block_indent(&self) -> isize {
        self.stack
            .iter()
            .rev()
            .find(|f| !f.flow)
            .map_or(-1, |f| f.indent)
    }

    fn in_flow(&self) -> bool {
        self.stack.last().is_some_and(|f| f.flow)
    }

    fn fail(&mut self, fail: Fail, at: Pos) {
        let key = (at.line, at.col);
        if self.failure.as_ref().is_none_or(|f| key < f.0) {
            self.failure = Some((key, YamlError::new(fail.message(), Some(at.line))));
        }
    }

    fn advance_to(&mut self, p: Pos) {
        if p.idx > self.cur.idx {
            self.cur = p;
        }
    }

    /// Handles one event; `Ok(true)` ends the document.
    fn event(&mut self, event: Event<'_>, span: Span) -> Result<bool, YamlError> {
        let start = Pos::start(&span);
        let end = Pos::end(&span);
        match event {
            Event::StreamStart | Event::Nothing => {}
            Event::StreamEnd | Event::DocumentEnd => return Ok(true),
            Event::DocumentStart(explicit) => {
                if explicit {
                    self.gap(start, false, -1, false)?;
                    self.advance_to(end);
                    self.ska = false;
                }
            }
            Event::Alias(id) => self.alias(id, start, end)?,
            Event::Scalar(text, style, anchor, tag) => {
                let flow = self.in_flow();
                let block_scalar = matches!(style, ScalarStyle::Literal | ScalarStyle::Folded);
                let indent = self.block_indent();
                let header = self.gap(start, flow, indent, block_scalar)?;
                if anchor != 0 {
                    self.check_anchor(start)?;
                }
                if text.is_empty() && style == ScalarStyle::Plain && anchor == 0 && tag.is_none() {
                    // libyaml needs a key before a `:` in a block mapping (an
                    // empty key takes an explicit `?`).
                    if let Some(f) = self.stack.last() {
                        if !f.flow && matches!(f.body, Body::Map { key: None, .. }) {
                            let t = self.next_token(self.last_end);
                            if self.chars.get(t.idx) == Some(&':') {
                                return Err(self.state_error(t));
                            }
                        }
                    }
                }
                if flow && style == ScalarStyle::Plain {
                    self.check_flow_plain(start, &text)?;
                }
                if block_scalar && !flow && self.has_tabs {
                    if let Some(h) = header.or_else(|| self.find_block_header(start)) {
                        let after = self.block_scalar_tabs(h, indent)?;
                        self.advance_to(after);
                    }
                }
                self.advance_to(end);
                self.plain = None;
                self.ska = block_scalar;
                if style == ScalarStyle::Plain && !text.is_empty() && !flow {
                    self.plain = Some((start, indent + 1));
                }
                if !self.guesses.is_empty() {
                    let from = self.guesses.partition_point(|g| *g < start.idx);
                    for g in &self.guesses[from..] {
                        if *g >= end.idx {
                            break;
                        }
                        self.bad_guesses.push(*g);
                    }
                }
                let tag = tag.map(|t| format!("{}{}", t.handle, t.suffix));
                let str_tag = tag.as_deref() == Some("tag:yaml.org,2002:str");
                let mut text = text;
                for &(stand_in, original) in self.stand_ins {
                    if text.contains(stand_in) {
                        text = text.replace(stand_in, &original.to_string()).into();
                    }
                }
                let value = match resolve_scalar(&text, style, tag.as_deref()) {
                    Ok(v) => v,
                    Err(f) => {
                        self.fail(f, start);
                        Value::Nil
                    }
                };
                self.add(value, NodeKind::Scalar, str_tag, 1, anchor, false);
            }
            Event::SequenceStart(anchor, tag) => {
                let tag = tag.map(|t| format!("{}{}", t.handle, t.suffix));
                self.start_collection(true, anchor, tag, start, end)?;
            }
            Event::MappingStart(anchor, tag) => {
                let tag = tag.map(|t| format!("{}{}", t.handle, t.suffix));
                self.start_collection(false, anchor, tag, start, end)?;
            }
            Event::SequenceEnd | Event::MappingEnd => self.end_collection(start, end)?,
        }
        if end.idx > self.last_end.idx {
            self.last_end = end;
        }
        Ok(false)
    }

    fn alias(&mut self, id: usize, start: Pos, end: Pos) -> Result<(), YamlError> {
        let flow = self.in_flow();
        self.gap(start, flow, self.block_indent(), false)?;
        let from = (start.idx + 1).min(self.chars.len());
        let name: String = self.chars[from..end.idx.clamp(from, self.chars.len())]
            .iter()
            .collect();
        check_anchor_name(&name, start, "alias")?;
        self.advance_to(end);
        self.ska = false;
        self.plain = None;
        if !self.opts.aliases {
            // Psych 4's YAML.load (NoAliasRuby).
            self.fail(Fail::Message(format!("Unknown alias: {}", name)), start);
            self.add(Value::Nil, NodeKind::Alias, false, 1, 0, false);
            return Ok(());
        }
        match self.anchors.get(&id) {
            Some(Anchor::Done(v, size)) => {
                let (v, size) = (v.clone(), *size);
                self.alias_nodes = self.alias_nodes.saturating_add(size);
                if self.alias_nodes > self.opts.max_alias_expansion {
                    return Err(YamlError::new(
                        format!(
                            "Too many aliases: expanding them would exceed {} nodes (alias *{} at line {} column {})",
                            self.opts.max_alias_expansion,
                            name,
                            start.line,
                            start.col + 1
                        ),
                        Some(start.line),
                    ));
                }
                self.add(v, NodeKind::Alias, false, size, 0, false);
            }
            Some(Anchor::Open) => {
                // Psych would build a recursive structure; values here cannot be.
                self.fail(
                    Fail::Message(format!(
                        "Recursive alias not supported: *{} refers to a collection that contains it (line {} column {})",
                        name,
                        start.line,
                        start.col + 1
                    )),
                    start,
                );
                self.add(Value::Nil, NodeKind::Alias, false, 1, 0, false);
            }
            None => {
                // An anchor defined on a node Psych never converts (inside an
                // !!omap entry).
                self.fail(Fail::Message(format!("Unknown alias: {}", name)), start);
                self.add(Value::Nil, NodeKind::Alias, false, 1, 0, false);
            }
        }
        Ok(())
    }

    fn start_collection(
        &mut self,
        seq: bool,
        anchor: usize,
        tag: Option<String>,
        start: Pos,
        end: Pos,
    ) -> Result<(), YamlError> {
        let parent_flow = self.in_flow();
        let open = if seq { '[' } else { '{' };
        let mut b = end.idx.min(self.chars.len());
        while b > start.idx && is_blank(self.chars[b - 1]) {
            b -= 1;
        }
        let bracket = b > start.idx && self.chars[b - 1] == open;
        // A block collection's span ends at its first key or dash: the
        // properties and line breaks before it are checked for tabs too.
        let upto = if bracket {
            Pos {
                idx: b - 1,
                line: end.line,
                col: end.col.saturating_sub(end.idx - (b - 1)),
            }
        } else {
            end
        };
        self.gap(upto, parent_flow, self.block_indent(), false)?;
        if anchor != 0 {
            self.check_anchor(start)?;
        }
        if self.stack.len() >= MAX_DEPTH {
            return Err(YamlError::new(
                format!(
                    "stack level too deep (collections nested more than {} levels) at line {} column {}",
                    MAX_DEPTH,
                    start.line,
                    start.col + 1
                ),
                Some(start.line),
            ));
        }
        let flow = parent_flow || bracket;
        let pair = parent_flow && !bracket && !seq;
        // A block sequence's span may end at its first entry rather than at
        // the `-`: libyaml's indentation is the dash's column.
        let mut upto = upto;
        if !flow && seq && self.chars.get(end.idx) != Some(&'-') {
            let mut d = end.idx.min(self.chars.len());
            while d > 0 && is_blank(self.chars[d - 1]) {
                d -= 1;
            }
            if d > 0 && self.chars[d - 1] == '-' {
                let back = end.idx - (d - 1);
                if back <= end.col {
                    upto = Pos {
                        idx: d - 1,
                        line: end.line,
                        col: end.col - back,
                    };
                }
            }
        }
        let indent = if flow {
            self.block_indent()
        } else {
            upto.col as isize
        };
        let parent_omap = matches!(
            self.stack.last(),
            Some(Frame {
                body: Body::Omap(_),
                ..
            })
        );
        let body = if parent_omap {
            Body::OmapPair {
                first: None,
                last: None,
            }
        } else if seq {
            match sequence_mode(tag.as_deref()) {
                Ok(true) => Body::Omap(Map::default()),
                Ok(false) => Body::Seq(Vec::new()),
                Err(f) => {
                    self.fail(f, start);
                    Body::Seq(Vec::new())
                }
            }
        } else {
            let mode = match mapping_mode(tag.as_deref()) {
                Ok(m) => m,
                Err(f) => {
                    self.fail(f, start);
                    MapMode::Hash
                }
            };
            Body::Map {
                map: Map::default(),
                key: None,
                mode,
            }
        };
        // Psych never converts an !!omap entry itself, so its anchor stays
        // unknown.
        let anchor = if parent_omap { 0 } else { anchor };
        if anchor != 0 {
            self.anchors.insert(anchor, Anchor::Open);
        }
        self.stack.push(Frame {
            body,
            seq,
            anchor,
            flow,
            pair,
            mark: upto,
            indent,
            size: 1,
            children: 0,
        });
        self.advance_to(end);
        self.plain = None;
        if bracket {
            self.ska = true;
        }
        Ok(())
    }

    fn end_collection(&mut self, start: Pos, end: Pos) -> Result<(), YamlError> {
        let flow = self.in_flow();
        self.gap(start, flow, self.block_indent(), false)?;
        let Some(frame) = self.stack.pop() else {
            return Ok(());
        };
        self.advance_to(end);
        if frame.flow && !frame.pair {
            self.ska = false;
            self.plain = None;
        }
        let block = !frame.flow;
        let (value, kind) = match frame.body {
            Body::Seq(items) => (Value::array(items), NodeKind::Sequence),
            Body::Omap(map) => (Value::hash(map), NodeKind::Sequence),
            Body::OmapPair { first, last } => {
                match (first, last) {
                    (Some(k), Some(v)) => {
                        if let Some(Frame {
                            body: Body::Omap(map),
                            size,
                            ..
                        }) = self.stack.last_mut()
                        {
                            *size = size.saturating_add(frame.size);
                            map.insert(k, v);
                        }
                    }
                    _ => self.fail(
                        Fail::Message(
                            "undefined method `visit_NilClass' for Psych::Visitors::ToRuby".into(),
                        ),
                        start,
                    ),
                }
                return Ok(());
            }
            Body::Map { map, mode, .. } => match mode {
                MapMode::Hash | MapMode::Ivars => (Value::hash(map), NodeKind::Mapping),
                MapMode::Str(None, true) => {
                    self.fail(
                        Fail::Message("can't modify frozen NilClass: nil".into()),
                        frame.mark,
                    );
                    (Value::Nil, NodeKind::Mapping)
                }
                MapMode::Str(s, _) => (s.unwrap_or(Value::Nil), NodeKind::Mapping),
            },
        };
        self.add(value, kind, false, frame.size, frame.anchor, block);
        Ok(())
    }

    /// Adds a complete node to its parent (or makes it the root).
    fn add(
        &mut self,
        value: Value,
        kind: NodeKind,
        str_tag: bool,
        size: usize,
        anchor: usize,
        block: bool,
    ) {
        if anchor != 0 {
            self.anchors
                .insert(anchor, Anchor::Done(value.clone(), size));
        }
        let Some(frame) = self.stack.last_mut() else {
            self.root = Some((value, block));
            return;
        };
        frame.size = frame.size.saturating_add(size);
        frame.children += 1;
        let mut failure = None;
        match &mut frame.body {
            Body::Seq(items) => items.push(value),
            Body::Omap(_) => failure = Some("undefined method `first' for nil:NilClass"),
            Body::OmapPair { first, last } => {
                if first.is_none() {
                    *first = Some(value.clone());
                }
                *last = Some(value);
            }
            Body::Map { map, key, mode } => match key.take() {
                None => *key = Some((value, str_tag)),
                Some((k, k_str)) => match mode {
                    MapMode::Hash => insert_pair(map, k, k_str, value, kind),
                    MapMode::Str(s, others) => {
                        if k.as_str() == Some("str") {
                            *s = Some(value);
                        } else {
                            *others = true;
                        }
                    }
                    MapMode::Ivars => {
                        if k.as_str() == Some("elements") {
                            match (&value, kind) {
                                (Value::Hash(h), NodeKind::Mapping) => {
                                    for (a, b) in h.iter() {
                                        map.insert(a.clone(), b.clone());
                                    }
                                }
                                _ => {
                                    failure = Some("undefined method `each_slice' for nil:NilClass")
                                }
                            }
                        }
                    }
                },
            },
        }
        if let Some(f) = failure {
            self.fail(Fail::Message(f.into()), self.last_end);
        }
    }

    // -- tabs ---------------------------------------------------------------

    /// Checks the source between the last token and `to` for tabs libyaml
    /// rejects (saphyr accepts them): a tab where a token could start in block
    /// context (indentation, after `- `, `? `, or the `:` of an explicit key),
    /// and a tab in the indentation of a plain scalar's continuation lines.
    /// With `stop_at_header`, returns the position of a block scalar header.
    fn gap(
        &mut self,
        to: Pos,
        flow: bool,
        indent: isize,
        stop_at_header: bool,
    ) -> Result<Option<Pos>, YamlError> {
        let to = if to.idx > self.chars.len() {
            Pos {
                idx: self.chars.len(),
                ..to
            }
        } else {
            to
        };
        if !self.has_tabs || to.idx <= self.cur.idx {
            return Ok(None);
        }
        if flow {
            self.plain = None;
            self.cur = to;
            return Ok(None);
        }
        let chars = self.chars;
        let mut p = self.cur;
        if let Some((start, pindent)) = self.plain.take() {
            let mut leading = false;
            while p.idx < to.idx {
                let c = chars[p.idx];
                if c == '\t' && leading && (p.col as isize) < pindent {
                    return Err(at_line_col(
                        "found a tab character that violates indentation while scanning a plain scalar",
                        start.line,
                        start.col,
                    ));
                }
                if is_break(c) {
                    leading = true;
                } else if !is_blank(c) {
                    break;
                }
                p = step(chars, p);
            }
            if leading {
                self.ska = true;
            }
        }
        while p.idx < to.idx {
            let c = chars[p.idx];
            let blankz_next = chars
                .get(p.idx + 1)
                .is_none_or(|n| is_blank(*n) || is_break(*n));
            if is_break(c) {
                p = step(chars, p);
                self.ska = true;
            } else if c == ' ' {
                p = step(chars, p);
            } else if c == '\t' {
                if self.ska {
                    return Err(at_line_col(CANNOT_START, p.line, p.col));
                }
                p = step(chars, p);
            } else if c == '#' {
                while p.idx < chars.len() && !is_break(chars[p.idx]) {
                    p = step(chars, p);
                }
            } else if p.col == 0 && self.document_marker(p.idx) {
                for _ in 0..3 {
                    p = step(chars, p);
                }
                self.ska = false;
            } else if (c == '-' || c == '?') && blankz_next {
                p = step(chars, p);
                self.ska = true;
            } else if c == ':' && blankz_next {
                let complex = self.line_prefix_blank(p.idx);
                p = step(chars, p);
                self.ska = complex;
            } else if (c == '|' || c == '>') && stop_at_header {
                self.cur = p;
                return Ok(Some(p));
            } else if c == '|' || c == '>' {
                // A block scalar saphyr has not reported yet.
                p = self.block_scalar_tabs(p, indent)?;
                self.ska = true;
            } else if c == '\'' || c == '"' || c == '[' || c == '{' {
                // A quoted scalar or flow collection saphyr has not reported
                // yet: no tab rules inside.
                p = self.skip_flow_token(p);
                self.ska = false;
            } else {
                while p.idx < chars.len() && !is_blank(chars[p.idx]) && !is_break(chars[p.idx]) {
                    p = step(chars, p);
                }
                self.ska = false;
            }
        }
        self.cur = if p.idx > to.idx { p } else { to };
        Ok(None)
    }

    /// Skips a quoted scalar or a flow collection starting at `p`.
    fn skip_flow_token(&self, mut p: Pos) -> Pos {
        let chars = self.chars;
        let mut depth = 0usize;
        let mut quote: Option<char> = None;
        while p.idx < chars.len() {
            let c = chars[p.idx];
            match quote {
                Some(q) => {
                    if q == '"' && c == '\\' {
                        p = step(chars, p);
                    } else if c == q {
                        if q == '\'' && chars.get(p.idx + 1) == Some(&'\'') {
                            p = step(chars, p);
                        } else {
                            quote = None;
                            if depth == 0 {
                                return step(chars, p);
                            }
                        }
                    }
                }
                None => match c {
                    '\'' | '"' => quote = Some(c),
                    '[' | '{' => depth += 1,
                    ']' | '}' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return step(chars, p);
                        }
                    }
                    '#' if p.idx > 0
                        && (is_blank(chars[p.idx - 1]) || is_break(chars[p.idx - 1])) =>
                    {
                        while p.idx < chars.len() && !is_break(chars[p.idx]) {
                            p = step(chars, p);
                        }
                        continue;
                    }
                    _ => {}
                },
            }
            if p.idx < chars.len() {
                p = step(chars, p);
            }
        }
        p
    }

    fn document_marker(&self, i: usize) -> bool {
        let c = self.chars;
        i + 2 < c.len()
            && ((c[i] == '-' && c[i + 1] == '-' && c[i + 2] == '-')
                || (c[i] == '.' && c[i + 1] == '.' && c[i + 2] == '.'))
            && c.get(i + 3).is_none_or(|n| is_blank(*n) || is_break(*n))
    }

    /// Whether only blanks precede char `i` on its line.
    fn line_prefix_blank(&self, i: usize) -> bool {
        let mut j = i;
        while j > 0 {
            let c = self.chars[j - 1];
            if is_break(c) {
                return true;
            }
            if !is_blank(c) {
                return false;
            }
            j -= 1;
        }
        true
    }

    /// The start of the next token at or after `p`: blanks, line breaks and
    /// comments skipped.
    fn next_token(&self, mut p: Pos) -> Pos {
        let chars = self.chars;
        while p.idx < chars.len() {
            let c = chars[p.idx];
            if c == '#' {
                while p.idx < chars.len() && !is_break(chars[p.idx]) {
                    p = step(chars, p);
                }
            } else if is_blank(c) || is_break(c) {
                p = step(chars, p);
            } else {
                break;
            }
        }
        p
    }

    /// The start of the next node's content: like [`Self::next_token`], also
    /// past `:`, `-`, `?` indicators and properties.
    fn next_node_token(&self, mut p: Pos) -> Pos {
        let chars = self.chars;
        loop {
            p = self.next_token(p);
            match chars.get(p.idx) {
                Some(':' | '-' | '?')
                    if chars
                        .get(p.idx + 1)
                        .is_none_or(|c| is_blank(*c) || is_break(*c)) =>
                {
                    p = step(chars, p);
                }
                Some('&' | '!') => {
                    while p.idx < chars.len() && !is_blank(chars[p.idx]) && !is_break(chars[p.idx])
                    {
                        p = step(chars, p);
                    }
                }
                _ => return p,
            }
        }
    }

    /// The `|` or `>` of a block scalar whose event starts at its properties.
    fn find_block_header(&self, from: Pos) -> Option<Pos> {
        let chars = self.chars;
        let mut p = from;
        while p.idx < chars.len() {
            let c = chars[p.idx];
            if c == '|' || c == '>' {
                return Some(p);
            }
            if c == '&' || c == '!' {
                while p.idx < chars.len() && !is_blank(chars[p.idx]) && !is_break(chars[p.idx]) {
                    p = step(chars, p);
                }
            } else if c == '#' {
                while p.idx < chars.len() && !is_break(chars[p.idx]) {
                    p = step(chars, p);
                }
            } else if is_blank(c) || is_break(c) {
                p = step(chars, p);
            } else {
                return None;
            }
        }
        None
    }

    /// Walks a block scalar from its header as libyaml does, rejecting a tab
    /// in its indentation; returns where the scalar ends.
    fn block_scalar_tabs(&self, header: Pos, parent_indent: isize) -> Result<Pos, YamlError> {
        let chars = self.chars;
        let err = || {
            at_line_col(
                "found a tab character where an indentation space is expected while scanning a block scalar",
                header.line,
                header.col,
            )
        };
        let mut p = step(chars, header);
        let mut increment = 0usize;
        for _ in 0..2 {
            match chars.get(p.idx) {
                Some('+') | Some('-') => p = step(chars, p),
                Some(d @ '1'..='9') => {
                    increment = d.to_digit(10).unwrap_or(0) as usize;
                    p = step(chars, p);
                }
                _ => break,
            }
        }
        while p.idx < chars.len() && !is_break(chars[p.idx]) {
            p = step(chars, p);
        }
        if p.idx >= chars.len() {
            return Ok(p);
        }
        p = step(chars, p);
        let mut indent = if increment > 0 {
            if parent_indent >= 0 {
                parent_indent as usize + increment
            } else {
                increment
            }
        } else {
            0
        };
        // Leading empty lines and the first content line (auto-detection).
        let mut max_indent = 0;
        loop {
            while p.idx < chars.len() && chars[p.idx] == ' ' && (indent == 0 || p.col < indent) {
                p = step(chars, p);
            }
            max_indent = max_indent.max(p.col);
            if p.idx >= chars.len() {
                return Ok(p);
            }
            let c = chars[p.idx];
            if c == '\t' && (indent == 0 || p.col < indent) {
                return Err(err());
            }
            if !is_break(c) {
                break;
            }
            p = step(chars, p);
        }
        if indent == 0 {
            indent = max_indent.max((parent_indent + 1).max(1) as usize);
        }
        loop {
            if p.idx >= chars.len() || p.col < indent {
                return Ok(p);
            }
            while p.idx < chars.len() && !is_break(chars[p.idx]) {
                p = step(chars, p);
            }
            if p.idx >= chars.len() {
                return Ok(p);
            }
            p = step(chars, p);
            loop {
                while p.idx < chars.len() && chars[p.idx] == ' ' && p.col < indent {
                    p = step(chars, p);
                }
                if p.idx >= chars.len() {
                    return Ok(p);
                }
                let c = chars[p.idx];
                if c == '\t' && p.col < indent {
                    return Err(err());
                }
                if !is_break(c) {
                    break;
                }
                p = step(chars, p);
            }
        }
    }

    /// In flow context libyaml reads `:` and `?` as indicators wherever they
    /// start a token, and `|`, `>` cannot start one: saphyr takes them for
    /// the start of a plain scalar.
    fn check_flow_plain(&mut self, start: Pos, text: &str) -> Result<(), YamlError> {
        let chars = self.chars;
        let (is_key, is_value, in_seq) = match self.stack.last() {
            Some(Frame {
                body: Body::Map { key, .. },
                ..
            }) => (key.is_none(), key.is_some(), false),
            Some(f) => (false, false, f.seq),
            None => (false, false, false),
        };
        let mut p = start;
        let mut props = false;
        // Skip properties.
        while matches!(chars.get(p.idx), Some('&' | '!')) {
            props = true;
            if chars[p.idx] == '!' {
                // libyaml wants a blank (or `,`) after a tag in flow context.
                let mut q = p.idx;
                while q < chars.len()
                    && !is_blank(chars[q])
                    && !is_break(chars[q])
                    && !",[]{}".contains(chars[q])
                {
                    q += 1;
                }
                if matches!(chars.get(q), Some(']' | '}' | '[' | '{')) {
                    return Err(at_line_col(
                        "did not find expected whitespace or line break while scanning a tag",
                        p.line,
                        p.col,
                    ));
                }
            }
            while p.idx < chars.len() && !is_blank(chars[p.idx]) && !is_break(chars[p.idx]) {
                p = step(chars, p);
            }
            while p.idx < chars.len() && (is_blank(chars[p.idx]) || is_break(chars[p.idx])) {
                p = step(chars, p);
            }
        }
        let first = chars.get(p.idx).copied();
        let Some(c) = first else { return Ok(()) };
        if text.is_empty() {
            // An empty key before `:` ("{: x}", "[: x]").
            let mut b = p.idx;
            while b > 0 && (is_blank(chars[b - 1]) || is_break(chars[b - 1])) {
                b -= 1;
            }
            let explicit = b > 0 && chars[b - 1] == '?';
            if c == ':' && is_key && !props && !explicit {
                return Err(at_line_col(
                    "did not find expected node content while parsing a flow node",
                    p.line,
                    p.col,
                ));
            }
            return Ok(());
        }
        if !text.starts_with(c) {
            return Ok(());
        }
        let blank_next = chars
            .get(p.idx + 1)
            .is_none_or(|n| is_blank(*n) || is_break(*n));
        let insert_space = |this: &mut Self| {
            this.retry = Some(Fix::Indent(p.idx + 1, 1));
            Err(at_line_col(
                "did not find expected node content while parsing a flow node",
                p.line,
                p.col,
            ))
        };
        match c {
            // `[&a :x]` is an anchored empty key with the value `x`.
            ':' if props && !blank_next => insert_space(self),
            ':' => Err(at_line_col(
                "did not find expected node content while parsing a flow node",
                p.line,
                p.col,
            )),
            '?' if is_value => Err(at_line_col(
                "did not find expected node content while parsing a flow node",
                p.line,
                p.col,
            )),
            '?' if text == "?" && in_seq => Err(self.state_error(p)),
            '?' if !blank_next => insert_space(self),
            '|' | '>' => Err(at_line_col(CANNOT_START, p.line, p.col)),
            '-' if chars
                .get(p.idx + 1)
                .is_none_or(|n| is_blank(*n) || is_break(*n)) =>
            {
                Err(at_line_col(
                    "did not find expected node content while parsing a flow node",
                    p.line,
                    p.col,
                ))
            }
            _ => Ok(()),
        }
    }

    /// The end of the stream as libyaml marks it: on a new line when the last
    /// line has no line break.
    fn end_mark(&self, p: Pos) -> Pos {
        if p.idx >= self.chars.len() && p.col != 0 {
            Pos {
                idx: p.idx,
                line: p.line + 1,
                col: 0,
            }
        } else {
            p
        }
    }

    // -- anchors ------------------------------------------------------------

    /// Checks the anchor among the properties starting at `start`.
    fn check_anchor(&self, start: Pos) -> Result<(), YamlError> {
        let chars = self.chars;
        let mut p = start;
        for _ in 0..2 {
            match chars.get(p.idx) {
                Some('&') => {
                    let from = p.idx + 1;
                    let mut to = from;
                    while to < chars.len()
                        && !is_blank(chars[to])
                        && !is_break(chars[to])
                        && !",[]{}".contains(chars[to])
                    {
                        to += 1;
                    }
                    let name: String = chars[from..to].iter().collect();
                    return check_anchor_name(&name, p, "anchor");
                }
                Some('!') => {
                    while p.idx < chars.len() && !is_blank(chars[p.idx]) && !is_break(chars[p.idx])
                    {
                        p = step(chars, p);
                    }
                    while p.idx < chars.len() && (is_blank(chars[p.idx]) || is_break(chars[p.idx]))
                    {
                        p = step(chars, p);
                    }
                }
                _ => return Ok(()),
            }
        }
        Ok(())
    }

    // -- syntax errors ------------------------------------------------------

    fn scan_error(&mut self, e: &ScanError) -> Outcome {
        let m = e.marker();
        let pos = Pos {
            idx: m.index(),
            line: m.line(),
            col: m.col(),
        };
        let info = e.info();
        // A tab libyaml rejects before the point saphyr stopped comes first.
        let flow = self.in_flow();
        if let Err(t) = self.gap(pos, flow, self.block_indent(), false) {
            return Outcome::Failed(t);
        }
        let chars = self.chars;
        match info {
            "':' must be followed by a valid YAML whitespace" => {
                // libyaml allows tabs after the `:` of a simple key.
                let mut colon = pos.idx.min(chars.len());
                while colon > 0 && is_blank(chars[colon - 1]) {
                    colon -= 1;
                }
                let tab = self.tab_near(pos);
                let fallback = at_line_col(CANNOT_START, tab.line, tab.col);
                if colon == 0 || chars[colon - 1] != ':' || self.line_prefix_blank(colon - 1) {
                    return Outcome::Failed(fallback);
                }
                Outcome::Retry(Fix::Blank(colon, pos.idx), fallback, None)
            }
            "comments must be separated from other tokens by whitespace" => {
                // libyaml reads `'x'#c` as a scalar and a comment.
                let mut eol = pos.idx;
                while eol < chars.len() && !is_break(chars[eol]) {
                    eol += 1;
                }
                Outcome::Retry(Fix::Blank(pos.idx, eol), self.state_error(pos), None)
            }
            "invalid indentation in flow construct" | "invalid indentation" if self.flow_at(info, pos) => {
                // libyaml ignores indentation inside flow collections.
                let target = self.flow_target_indent().max(pos.col + 1);
                let line_start = pos.idx - pos.col.min(pos.idx);
                Outcome::Retry(Fix::Indent(line_start, target - pos.col), self.state_error(pos), None)
            }
            "tab cannot be used as indentation"
                if {
                    let t = self.next_node_token(self.last_end);
                    matches!(chars.get(t.idx), Some('\'' | '"')) && t.idx < pos.idx && self.quoted_indent_fix(t).is_some()
                } =>
            {
                // A tab in the leading blanks of a quoted scalar's line: libyaml
                // does not mind.
                let t = self.next_node_token(self.last_end);
                match self.quoted_indent_fix(t) {
                    Some(fix) => Outcome::Retry(fix, self.translate(info, pos), None),
                    None => Outcome::Failed(self.translate(info, pos)),
                }
            }
            "invalid indentation in quoted scalar" => match self.quoted_indent_fix(pos) {
                Some(fix) => Outcome::Retry(fix, self.state_error(pos), None),
                None => Outcome::Failed(self.state_error(pos)),
            },
            "invalid trailing content after double-quoted scalar"
                if chars.get(pos.idx) == Some(&':')
                    && chars.get(pos.idx + 1).is_none_or(|c| is_blank(*c) || is_break(*c)) =>
            {
                // A quoted scalar over several lines cannot be a key.
                Outcome::Failed(at_line_col("mapping values are not allowed in this context", pos.line, pos.col))
            }
            "misplaced bracket"
            | "invalid trailing content after double-quoted scalar"
            | "did not find expected <document start>"
            | "invalid content after document end marker"
                if self.stack.is_empty() && self.root.is_none() =>
            {
                // Content after the root node, which Psych never reads.
                let from = if self.cur.idx >= self.last_end.idx { self.cur } else { self.last_end };
                if self.next_token(from).idx >= pos.idx {
                    return Outcome::Failed(at_line_col(
                        "did not find expected node content while parsing a block node",
                        pos.line,
                        pos.col,
                    ));
                }
                Outcome::Retry(Fix::Truncate(pos.idx), self.state_error(pos), None)
            }
            "while parsing node, found unknown anchor" => {
                let from = (pos.idx + 1).min(chars.len());
                let mut to = from;
                while to < chars.len() && !is_blank(chars[to]) && !is_break(chars[to]) && !",[]{}".contains(chars[to]) {
                    to += 1;
                }
                let name: String = chars[from..to].iter().collect();
                if let Err(e) = check_anchor_name(&name, pos, "alias") {
                    return Outcome::Failed(e);
                }
                // Psych reports it after parsing the whole document: go on
                // with a null in its place.
                self.fail(Fail::Message(format!("Unknown alias: {}", name)), pos);
                let failure = self.failure.take();
                let fallback = failure.as_ref().map(|f| f.1.clone()).unwrap_or_else(|| self.state_error(pos));
                Outcome::Retry(Fix::Null(pos.idx, to), fallback, failure)
            }
            "plain scalar cannot start with '-' followed by ,[]{}" if chars.get(pos.idx) == Some(&'-') => {
                Outcome::Retry(Fix::Dash(pos.idx), self.state_error(pos), None)
            }
            "recursion limit exceeded" => Outcome::Failed(YamlError::new(
                format!(
                    "stack level too deep (flow collections nested more than 255 levels) at line {} column {}",
                    pos.line,
                    pos.col + 1
                ),
                Some(pos.line),
            )),
            _ => Outcome::Failed(self.translate(info, pos)),
        }
    }

    /// Whether saphyr's indentation error at `pos` is inside a flow
    /// collection (possibly one whose start was not reported yet).
    fn flow_at(&self, info: &str, pos: Pos) -> bool {
        info == "invalid indentation in flow construct" || self.in_flow() || {
            let to = pos.idx.min(self.chars.len());
            self.chars[self.last_end.idx.min(to)..to]
                .iter()
                .any(|c| *c == '[' || *c == '{')
        }
    }

    /// A column at which a line inside the innermost flow collections is
    /// indented enough for saphyr.
    fn flow_target_indent(&self) -> usize {
        let outer = self
            .stack
            .iter()
            .find(|f| f.flow)
            .map_or(0, |f| f.mark.col + 1);
        outer.max((self.block_indent() + 1).max(0) as usize)
    }

    /// Indents the first under-indented continuation line of the quoted
    /// scalar starting at `start` (libyaml does not mind).
    fn quoted_indent_fix(&self, start: Pos) -> Option<Fix> {
        let chars = self.chars;
        let quote = *chars.get(start.idx)?;
        if quote != '\'' && quote != '"' {
            return None;
        }
        let target = start.col.max((self.block_indent() + 1).max(0) as usize);
        let mut i = start.idx + 1;
        while i < chars.len() {
            let c = chars[i];
            if c == quote {
                if quote == '\'' && chars.get(i + 1) == Some(&'\'') {
                    i += 2;
                    continue;
                }
                return None;
            }
            if c == '\\' && quote == '"' {
                i += 2;
                continue;
            }
            if is_break(c) {
                let line_start = if c == '\r' && chars.get(i + 1) == Some(&'\n') {
                    i + 2
                } else {
                    i + 1
                };
                let mut j = line_start;
                while j < chars.len() && chars[j] == ' ' {
                    j += 1;
                }
                let col = j - line_start;
                let mut k = j;
                while k < chars.len() && is_blank(chars[k]) {
                    k += 1;
                }
                if k < chars.len() && !is_break(chars[k]) && col < target {
                    if col == 0 && (self.document_marker(j)) {
                        return None;
                    }
                    return Some(Fix::Indent(line_start, target - col));
                }
                i = line_start;
                continue;
            }
            i += 1;
        }
        None
    }

    /// The tab a saphyr tab error is about: the first tab in the indentation
    /// of the line, else the last one before `pos` on it.
    fn tab_near(&self, pos: Pos) -> Pos {
        let chars = self.chars;
        let line_start = pos.idx.saturating_sub(pos.col).min(chars.len());
        let mut j = line_start;
        while j < chars.len() && is_blank(chars[j]) {
            if chars[j] == '\t' {
                return Pos {
                    idx: j,
                    line: pos.line,
                    col: j - line_start,
                };
            }
            j += 1;
        }
        let mut j = pos.idx.min(chars.len());
        while j > line_start {
            j -= 1;
            if chars[j] == '\t' {
                return Pos {
                    idx: j,
                    line: pos.line,
                    col: j - line_start,
                };
            }
        }
        pos
    }

    /// libyaml's message for a syntax error saphyr reported as `info` at `pos`.
    fn translate(&self, info: &str, pos: Pos) -> YamlError {
        let here = |problem: &str| at_line_col(problem, pos.line, pos.col);
        if info.starts_with("unexpected character") {
            return here(CANNOT_START);
        }
        match info {
            "mapping values are not allowed in this context"
            | "block sequence entries are not allowed in this context"
            | "mapping keys are not allowed in this context" => here(info),
            "tabs disallowed within this context (block indentation)"
            | "tabs disallowed in this context"
            | "tab cannot be used as indentation"
            | "'-' must be followed by a valid YAML whitespace"
            | "a block scalar content cannot start with a tab"
            | "':' must be followed by a valid YAML whitespace" => {
                let t = self.tab_near(pos);
                at_line_col(CANNOT_START, t.line, t.col)
            }
            "simple key expect ':'" => {
                let k = self.next_token(self.last_end);
                at_line_col("could not find expected ':' while scanning a simple key", k.line, k.col)
            }
            "the handle wasn't declared" => here("found undefined tag handle while parsing a node"),
            "duplicate version directive" => at_line_col("found duplicate %YAML directive", 1, 0),
            "the TAG directive must only be given at most once per handle in the same document" => {
                at_line_col("found duplicate %TAG directive", 1, 0)
            }
            "while parsing a node, did not find expected node content" => {
                if self.in_flow() {
                    here("did not find expected node content while parsing a flow node")
                } else {
                    here("did not find expected node content while parsing a block node")
                }
            }
            "while scanning a plain scalar, found a tab" => {
                here("found a tab character that violates indentation while scanning a plain scalar")
            }
            "while parsing a quoted scalar, did not find expected hexadecimal number" => {
                here("did not find expected hexdecimal number while parsing a quoted scalar")
            }
            "while scanning an anchor or alias, did not find expected alphabetic or numeric character" => {
                if self.chars.get(pos.idx) == Some(&'*') {
                    here("did not find expected alphabetic or numeric character while scanning an alias")
                } else {
                    here("did not find expected alphabetic or numeric character while scanning an anchor")
                }
            }
            "while scanning a verbatim tag, did not find the expected '>'" => {
                here("did not find the expected '>' while scanning a tag")
            }
            _ => {
                let structural = [
                    "while parsing a flow sequence",
                    "while parsing a flow mapping",
                    "while parsing a block mapping",
                    "while parsing a block collection",
                ];
                if info.starts_with("while ") && !structural.iter().any(|s| info.starts_with(s)) {
                    if let Some((context, problem)) = info.split_once(", ") {
                        let context = match context {
                            "while scanning a YAML directive" => "while scanning a %YAML directive",
                            "while scanning TAG" => "while scanning a %TAG directive",
                            c => c,
                        };
                        return here(&format!("{} {}", problem, context));
                    }
                }
                self.state_error(pos)
            }
        }
    }

    /// libyaml's parser error for an unexpected token inside the innermost
    /// collection (or at the top).
    fn state_error(&self, pos: Pos) -> YamlError {
        // After `key:`, `- ` or `? ` in block context libyaml wants a node.
        if !self.in_flow() && pos.idx <= self.chars.len() {
            let mut t = pos.idx;
            while t > 0 && (is_blank(self.chars[t - 1]) || is_break(self.chars[t - 1])) {
                t -= 1;
            }
            let indicator = t > 0
                && t < pos.idx
                && match (self.chars[t - 1], self.stack.last()) {
                    (':' | '?', Some(f)) => !f.seq,
                    ('-', Some(f)) => {
                        f.seq
                            && (t < 2 || is_blank(self.chars[t - 2]) || is_break(self.chars[t - 2]))
                    }
                    _ => false,
                };
            let at_value = self.chars.get(pos.idx) == Some(&':')
                && self
                    .chars
                    .get(pos.idx + 1)
                    .is_none_or(|c| is_blank(*c) || is_break(*c));
            if indicator && at_value {
                // `? : x`: the `:` starts a mapping inside the key.
                return at_line_col(
                    "did not find expected key while parsing a block mapping",
                    pos.line,
                    pos.col,
                );
            }
            if indicator {
                return at_line_col(
                    "did not find expected node content while parsing a block node",
                    pos.line,
                    pos.col,
                );
            }
        }
        // In a flow collection libyaml wants a node after `[`, `{`, `,` and a
        // key's `:`, and a `,` or the closing bracket after a node.
        if let Some(f) = self.stack.last().filter(|f| f.flow) {
            let t = self.next_token(self.last_end);
            let c = self.chars.get(t.idx).copied();
            let awaiting_value = matches!(f.body, Body::Map { key: Some(_), .. });
            let node_at = if f.children == 0 && !f.pair {
                Some(t)
            } else if c == Some(',') || (c == Some(':') && (awaiting_value || f.pair)) {
                Some(self.next_token(step(self.chars, t)))
            } else {
                None
            };
            if let Some(np) = node_at {
                let n = self.chars.get(np.idx).copied();
                let closes = (n == Some(']') && f.seq) || (n == Some('}') && !f.seq && !f.pair);
                let closes = closes || (f.pair && n == Some(']'));
                if !closes && np.idx >= pos.idx.min(self.chars.len()) {
                    let np = self.end_mark(np);
                    return at_line_col(
                        "did not find expected node content while parsing a flow node",
                        np.line,
                        np.col,
                    );
                }
            }
        }
        for i in (0..self.stack.len()).rev() {
            let f = &self.stack[i];
            if f.pair {
                continue;
            }
            if !f.flow && f.seq && i > 0 {
                // An indentless sequence (`a:\n- b`) has no context of its own.
                let p = &self.stack[i - 1];
                if !p.flow && !p.seq && p.indent == f.indent {
                    continue;
                }
            }
            let message = match (f.flow, f.seq) {
                (true, true) => "did not find expected ',' or ']' while parsing a flow sequence",
                (true, false) => "did not find expected ',' or '}' while parsing a flow mapping",
                (false, false) => "did not find expected key while parsing a block mapping",
                (false, true) => {
                    "did not find expected '-' indicator while parsing a block collection"
                }
            };
            return at_line_col(message, f.mark.line, f.mark.col);
        }
        at_line_col(
            "did not find expected node content while parsing a block node",
            pos.line,
            pos.col,
        )
    }
}

/// libyaml's anchor names: `[0-9A-Za-z_-]+`.
fn check_anchor_name(name: &str, at: Pos, what: &str) -> Result<(), YamlError> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(at_line_col(
            &format!(
                "did not find expected alphabetic or numeric character while scanning an {}",
                what
            ),
            at.line,
            at.col,
        ));
    }
    Ok(())
}

/// Stores a `key: value` pair as Psych's `revive_hash` does: `<<` (unless
/// tagged `!!str`) merges a mapping, or a sequence of mappings (earlier ones
/// win), into the hash, overwriting keys already there; anything else is
/// stored under the key `<<`. A repeated key keeps its first position and
/// takes the last value.
fn insert_pair(map: &mut Map, key: Value, key_str_tag: bool, value: Value, kind: NodeKind) {
    if !key_str_tag && key.as_str() == Some("<<") {
        match (kind, &value) {
            (NodeKind::Alias | NodeKind::Mapping, Value::Hash(h)) => {
                for (k, v) in h.iter() {
                    map.insert(k.clone(), v.clone());
                }
                return;
            }
            (NodeKind::Sequence, Value::Array(items))
                if items.iter().all(|i| matches!(i, Value::Hash(_))) =>
            {
                let mut merged = Map::default();
                for item in items.iter().rev() {
                    if let Value::Hash(h) = item {
                        for (k, v) in h.iter() {
                            merged.insert(k.clone(), v.clone());
                        }
                    }
                }
                for (k, v) in merged {
                    map.insert(k, v);
                }
                return;
            }
            _ => {}
        }
    }
    map.insert(key, value);
}

/// The kind of sequence a tag makes: `Ok(true)` for an `!!omap`.
fn sequence_mode(tag: Option<&str>) -> Result<bool, Fail> {
    let Some(tag) = tag else { return Ok(false) };
    if tag == "!omap" || tag == "tag:yaml.org,2002:omap" {
        return Ok(true);
    }
    if let Some(name) = tag
        .strip_prefix("!seq:")
        .or_else(|| tag.strip_prefix("!ruby/array:"))
    {
        return Err(class_fail(name));
    }
    Ok(false)
}

/// `resolve_class(name).allocate` in Psych: a class that is not permitted, or
/// `nil` for an empty name.
fn class_fail(name: &str) -> Fail {
    if name.is_empty() {
        Fail::Message("undefined method `allocate' for nil:NilClass".into())
    } else {
        Fail::Disallowed(name.into())
    }
}

/// How a tagged mapping is converted (Psych's `visit_Psych_Nodes_Mapping`).
fn mapping_mode(tag: Option<&str>) -> Result<MapMode, Fail> {
    let Some(tag) = tag else {
        return Ok(MapMode::Hash);
    };
    if let Some(rest) = tag.strip_prefix("!ruby/struct") {
        let name = rest.strip_prefix(':').unwrap_or(rest);
        return Err(Fail::Disallowed(
            if name.is_empty() { "Struct" } else { name }.into(),
        ));
    }
    if let Some(rest) = tag.strip_prefix("!ruby/object") {
        let name = rest.strip_prefix(':').unwrap_or(rest);
        return match name {
            "Hash" => Ok(MapMode::Hash),
            "" => Err(Fail::Disallowed("Object".into())),
            n => Err(Fail::Disallowed(n.into())),
        };
    }
    if tag == "tag:yaml.org,2002:str" {
        return Ok(MapMode::Str(None, false));
    }
    if let Some(rest) = tag
        .strip_prefix("!str")
        .or_else(|| tag.strip_prefix("!ruby/string"))
    {
        if rest.is_empty() || rest == ":" {
            return Ok(MapMode::Str(None, false));
        }
        if let Some(name) = rest.strip_prefix(':') {
            return Err(Fail::Disallowed(name.into()));
        }
    }
    if let Some(name) = tag.strip_prefix("!ruby/array:") {
        return Err(class_fail(name));
    }
    if tag == "!ruby/range" {
        return Err(Fail::Disallowed("Range".into()));
    }
    if let Some(rest) = tag.strip_prefix("!ruby/exception") {
        let name = rest.strip_prefix(':').unwrap_or(rest);
        return Err(Fail::Disallowed(
            if name.is_empty() { "Exception" } else { name }.into(),
        ));
    }
    if tag == "!set" || tag == "tag:yaml.org,2002:set" {
        return Err(Fail::Disallowed("Psych::Set".into()));
    }
    if let Some(rest) = tag.strip_prefix("!ruby/hash-with-ivars") {
        if rest.is_empty() {
            return Ok(MapMode::Ivars);
        }
        if let Some(name) = rest.strip_prefix(':') {
            return Err(class_fail(name));
        }
    }
    if let Some(name) = tag
        .strip_prefix("!map:")
        .or_else(|| tag.strip_prefix("!ruby/hash:"))
    {
        return Err(class_fail(name));
    }
    if tag == "!omap" || tag == "tag:yaml.org,2002:omap" {
        return Err(Fail::Disallowed("Psych::Omap".into()));
    }
    if let Some(name) = tag.strip_prefix("!ruby/marshalable:") {
        return Err(class_fail(name));
    }
    Ok(MapMode::Hash)
}

// ---------------------------------------------------------------------------
// Scalars: Psych's ToRuby#deserialize and ScalarScanner#tokenize
// ---------------------------------------------------------------------------

/// Converts a scalar as Psych's `ToRuby#deserialize`. `tag` is the resolved
/// tag (`tag:yaml.org,2002:int` for `!!int`, `!foo` for a local tag).
fn resolve_scalar(text: &str, style: ScalarStyle, tag: Option<&str>) -> Result<Value, Fail> {
    let Some(tag) = tag else {
        // Only plain scalars are resolved; quoted and block scalars are strings.
        return if style == ScalarStyle::Plain {
            tokenize(text)
        } else {
            Ok(Value::string(text))
        };
    };
    // A tagged scalar is resolved whatever its style: `!!int '12'` is 12.
    match tag {
        "!binary" | "tag:yaml.org,2002:binary" => {
            Ok(bytes_value(crate::ruby::base64::unpack_m(text.as_bytes())))
        }
        "tag:yaml.org,2002:str" => Ok(Value::string(text)),
        "!ruby/object:BigDecimal" => Err(Fail::Disallowed("BigDecimal".into())),
        "!ruby/object:DateTime" => Err(Fail::Disallowed("DateTime".into())),
        // Psych returns an Encoding object, which no Value can hold.
        "!ruby/encoding" => Err(Fail::Message(format!(
            "Unsupported YAML tag !ruby/encoding (value {:?})",
            text
        ))),
        "!ruby/object:Complex" => Err(Fail::Disallowed("Complex".into())),
        "!ruby/object:Rational" => Err(Fail::Disallowed("Rational".into())),
        "!ruby/class" | "!ruby/module" => {
            if text.is_empty() {
                Ok(Value::Nil)
            } else {
                Err(Fail::Disallowed(text.into()))
            }
        }
        "tag:yaml.org,2002:float" | "!float" => ruby_float(tokenize(text)?),
        "!ruby/regexp" => Err(Fail::Disallowed("Regexp".into())),
        "!ruby/range" => Err(Fail::Disallowed("Range".into())),
        _ => {
            if let Some(rest) = tag
                .strip_prefix("!str")
                .or_else(|| tag.strip_prefix("!ruby/string"))
            {
                if rest.is_empty() || rest == ":" {
                    return Ok(Value::string(text));
                }
                if let Some(name) = rest.strip_prefix(':') {
                    return Err(Fail::Disallowed(name.into()));
                }
            }
            if tag.starts_with("!ruby/sym") {
                return Ok(Value::Symbol(text.into()));
            }
            // Every other tag (`!!int`, `!!bool`, `!!null`, `!!timestamp`,
            // `!foo`, `!`) resolves the text like an untagged plain scalar.
            tokenize(text)
        }
    }
}

fn bytes_value(bytes: Vec<u8>) -> Value {
    match String::from_utf8(bytes) {
        Ok(s) => Value::string(s),
        Err(e) => Value::Bytes(e.into_bytes().into()),
    }
}

/// Ruby's `Float()` of a converted scalar (for `!!float`).
fn ruby_float(v: Value) -> Result<Value, Fail> {
    match v {
        Value::Float(f) => Ok(Value::Float(f)),
        Value::Int(i) => Ok(Value::Float(i as f64)),
        Value::BigInt(s) => Ok(Value::Float(s.parse::<f64>().unwrap_or(f64::NAN))),
        Value::String(s) => match crate::ruby::float::parse(&s) {
            Some(f) => Ok(Value::Float(f)),
            None => Err(Fail::Message(format!(
                "invalid value for Float(): {}",
                ruby_inspect(&s)
            ))),
        },
        Value::Nil => Err(Fail::Message("can't convert nil into Float".into())),
        Value::Bool(b) => Err(Fail::Message(format!("can't convert {} into Float", b))),
        other => Err(Fail::Message(format!(
            "can't convert {} into Float",
            other.ruby_class()
        ))),
    }
}

/// Ruby's `String#inspect` for the strings in error messages.
fn ruby_inspect(s: &str) -> String {
    let mut out = String::new();
    crate::ruby::inspect_str(s, &mut out);
    out
}

/// Psych's `ScalarScanner#tokenize`: the Ruby object a plain scalar denotes.
fn tokenize(s: &str) -> Result<Value, Fail> {
    if s.is_empty() {
        return Ok(Value::Nil);
    }
    // Ruby's regexps here use `^`/`$`, which match at every line.
    if looks_like_string(s) || s.contains('\n') {
        if s.chars().count() > 5 {
            return Ok(Value::string(s));
        }
        let lines: Vec<&str> = s.split('\n').collect();
        let last = lines.len() - 1;
        let other_start = lines
            .iter()
            .enumerate()
            .any(|(i, l)| match l.chars().next() {
                Some(c) => !matches!(
                    c,
                    'y' | 't' | 'o' | 'n' | 'f' | 'Y' | 'T' | 'O' | 'N' | 'F' | '~'
                ),
                None => i != last,
            });
        if other_start {
            return Ok(Value::string(s));
        }
        let any_line =
            |words: &[&str]| lines.iter().any(|l| words.contains(&fold_case(l).as_str()));
        if s == "~" || any_line(&["null"]) {
            return Ok(Value::Nil);
        }
        if any_line(&["yes", "true", "on"]) {
            return Ok(Value::Bool(true));
        }
        if any_line(&["no", "false", "off"]) {
            return Ok(Value::Bool(false));
        }
        return Ok(Value::string(s));
    }
    if is_time(s) {
        return Err(Fail::Disallowed("Time".into()));
    }
    if is_date(s) {
        return Err(Fail::Disallowed("Date".into()));
    }
    // `.inf`, `+.inf`, `-.inf` and `.nan` in any case (only ASCII letters
    // fold into their letters, so they are at most 5 bytes).
    if s.len() <= 5 && s.contains('.') {
        let folded = fold_case(s);
        if folded == ".inf" || folded == "+.inf" {
            return Ok(Value::Float(f64::INFINITY));
        }
        if folded == "-.inf" {
            return Ok(Value::Float(f64::NEG_INFINITY));
        }
        if folded == ".nan" {
            return Ok(Value::Float(f64::NAN));
        }
    }
    if let Some(rest) = s.strip_prefix(':') {
        if !rest.is_empty() {
            return Ok(Value::Symbol(symbol_name(rest).into()));
        }
    }
    if let Some(v) = sexagesimal(s) {
        return Ok(v);
    }
    if is_float(s) {
        if matches!(s, "." | "+." | "-.") {
            return Ok(Value::string(s));
        }
        // gsub(/[,_]|\.([Ee]|$)/, '\1')
        let chars: Vec<char> = s.chars().collect();
        let mut cleaned = String::new();
        for (i, &c) in chars.iter().enumerate() {
            match c {
                ',' | '_' => {}
                '.' if matches!(chars.get(i + 1), None | Some('e' | 'E')) => {}
                c => cleaned.push(c),
            }
        }
        return match crate::ruby::float::parse(&cleaned) {
            Some(f) => Ok(Value::Float(f)),
            None => Err(Fail::Message(format!(
                "invalid value for Float(): {}",
                ruby_inspect(&cleaned)
            ))),
        };
    }
    if is_integer(s) {
        let cleaned: String = s.chars().filter(|c| *c != ',' && *c != '_').collect();
        let unsigned = cleaned.trim_start_matches(['-', '+']);
        if unsigned.len() > MAX_NONDECIMAL_DIGITS && unsigned.len() > 1 && unsigned.starts_with('0')
        {
            return Err(Fail::Message(format!(
                "integer too large: {} characters in base 2, 8 or 16 (libhiera reads at most {MAX_NONDECIMAL_DIGITS})",
                unsigned.len()
            )));
        }
        return ruby_integer(&cleaned).ok_or_else(|| {
            Fail::Message(format!(
                "invalid value for Integer(): {}",
                ruby_inspect(&cleaned)
            ))
        });
    }
    Ok(Value::string(s))
}

/// Ruby's case folding as far as it matters for Psych's `/i` regexps over
/// ASCII words: ASCII letters, and the few other characters that fold into
/// them (`ſ` is `s`, the Kelvin sign is `k`, `ﬀ` is `ff`, ...).
fn fold_case(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            'A'..='Z' => out.push(c.to_ascii_lowercase()),
            '\u{17f}' => out.push('s'),
            '\u{212a}' => out.push('k'),
            '\u{fb00}' => out.push_str("ff"),
            '\u{fb01}' => out.push_str("fi"),
            '\u{fb02}' => out.push_str("fl"),
            '\u{fb03}' => out.push_str("ffi"),
            '\u{fb04}' => out.push_str("ffl"),
            '\u{fb05}' | '\u{fb06}' => out.push_str("st"),
            c => out.push(c),
        }
    }
    out
}

/// `/^[^\d.:-]?[[:alpha:]_\s!@#$%\^&*(){}<>|\/\\~;=]+/`: Psych's test for
/// "certainly a string (unless it is a short boolean or null)".
fn looks_like_string(s: &str) -> bool {
    fn class(c: char) -> bool {
        c.is_alphabetic()
            || "_!@#$%^&*(){}<>|/\\~;=".contains(c)
            || matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
    }
    let mut it = s.chars();
    let Some(c0) = it.next() else { return false };
    if class(c0) {
        return true;
    }
    if c0.is_ascii_digit() || matches!(c0, '.' | ':' | '-') {
        return false;
    }
    it.next().is_some_and(class)
}

/// The name of a `:symbol` scalar (`rest` follows the colon).
fn symbol_name(rest: &str) -> &str {
    // /^:(["'])(.*)\1/ takes the text up to the last matching quote.
    let mut it = rest.chars();
    if let Some(q @ ('"' | '\'')) = it.next() {
        let inner = &rest[1..];
        if let Some(j) = inner.rfind(q) {
            let name = &inner[..j];
            return name.strip_prefix(':').unwrap_or(name);
        }
    }
    rest
}

/// Counts the ASCII digits of `b` from `i`.
fn digit_run(b: &[u8], i: usize) -> usize {
    b[i.min(b.len())..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count()
}

/// Psych's TIME regexp:
/// `^-?\d{4}-\d{1,2}-\d{1,2}(?:[Tt]|\s+)\d{1,2}:\d\d:\d\d(?:\.\d*)?(?:\s*(?:Z|[-+]\d{1,2}:?(?:\d\d)?))?$`
fn is_time(s: &str) -> bool {
    let b = s.as_bytes();
    let ws = |c: u8| matches!(c, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r');
    let mut i = 0;
    if b.first() == Some(&b'-') {
        i += 1;
    }
    if digit_run(b, i) != 4 || b.get(i + 4) != Some(&b'-') {
        return false;
    }
    i += 5;
    let n = digit_run(b, i);
    if !(1..=2).contains(&n) || b.get(i + n) != Some(&b'-') {
        return false;
    }
    i += n + 1;
    let n = digit_run(b, i);
    if !(1..=2).contains(&n) {
        return false;
    }
    i += n;
    match b.get(i) {
        Some(b'T' | b't') => i += 1,
        Some(&c) if ws(c) => {
            while i < b.len() && ws(b[i]) {
                i += 1;
            }
        }
        _ => return false,
    }
    let n = digit_run(b, i);
    if !(1..=2).contains(&n) || b.get(i + n) != Some(&b':') {
        return false;
    }
    i += n + 1;
    if digit_run(b, i) < 2 || b.get(i + 2) != Some(&b':') {
        return false;
    }
    i += 3;
    if digit_run(b, i) < 2 {
        return false;
    }
    i += 2;
    if b.get(i) == Some(&b'.') {
        i += 1;
        i += digit_run(b, i);
    }
    if i == b.len() {
        return true;
    }
    while i < b.len() && ws(b[i]) {
        i += 1;
    }
    match b.get(i) {
        Some(b'Z') => i + 1 == b.len(),
        Some(b'+' | b'-') => {
            i += 1;
            let n = digit_run(b, i);
            i += n;
            if b.get(i) == Some(&b':') {
                // \d{1,2}: then optionally exactly \d\d
                (1..=2).contains(&n)
                    && (i + 1 == b.len() || (i + 3 == b.len() && digit_run(b, i + 1) == 2))
            } else {
                // \d{1,2} then optionally \d\d: 1 to 4 digits
                (1..=4).contains(&n) && i == b.len()
            }
        }
        _ => false,
    }
}

/// Psych's date regexp: `^\d{4}-(?:1[012]|0\d|\d)-(?:[12]\d|3[01]|0\d|\d)$`.
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if digit_run(b, 0) != 4 || b.get(4) != Some(&b'-') {
        return false;
    }
    let month = digit_run(b, 5);
    let month_ok = match month {
        1 => true,
        2 => b[5] == b'0' || (b[5] == b'1' && matches!(b[6], b'0'..=b'2')),
        _ => false,
    };
    if !month_ok || b.get(5 + month) != Some(&b'-') {
        return false;
    }
    let d = 6 + month;
    let day = digit_run(b, d);
    let day_ok = match day {
        1 => true,
        2 => {
            matches!(b[d], b'0' | b'1' | b'2') || (b[d] == b'3' && matches!(b[d + 1], b'0' | b'1'))
        }
        _ => false,
    };
    day_ok && d + day == b.len()
}

/// Psych's sexagesimal numbers: `^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}$` is
/// an Integer, and with `\.[0-9_]*` at the end a Float. The first part counts
/// hours (`1:20` is 4800, `1:20:30` is 4830).
fn sexagesimal(s: &str) -> Option<Value> {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    if !b.get(i).is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
        i += 1;
    }
    let first_end = i;
    let mut groups = 0;
    while groups < 2 && b.get(i) == Some(&b':') {
        let n = digit_run(b, i + 1);
        let len = if n >= 2 && b[i + 1] <= b'5' {
            2
        } else if n >= 1 {
            1
        } else {
            return None;
        };
        i += 1 + len;
        groups += 1;
    }
    if groups == 0 {
        return None;
    }
    let parts: Vec<&str> = s.split(':').collect();
    if i == b.len() {
        // Integer: Σ part.to_i * 60 ** |e - 2|
        let (negative, digits) = ruby_to_i_digits(&s[..first_end]);
        let mut big = Big::from_digits(&digits, 10);
        big.mul_small(3600);
        let rest: u32 = if parts.len() == 3 {
            parts[1].parse::<u32>().ok()? * 60 + parts[2].parse::<u32>().ok()?
        } else {
            parts[1].parse::<u32>().ok()? * 60
        };
        if negative && !big.is_zero() {
            big.sub_small(rest);
            return Some(big.into_value(true));
        }
        big.add_small(rest);
        return Some(big.into_value(false));
    }
    if b.get(i) == Some(&b'.') && b[i + 1..].iter().all(|c| c.is_ascii_digit() || *c == b'_') {
        let mut total = 0f64;
        let n = parts.len() as i32;
        for (e, part) in parts.iter().enumerate() {
            total += ruby_to_f(part) * 60f64.powi((e as i32 - 2).abs().min(n + 2));
        }
        return Some(Value::Float(total));
    }
    None
}

/// `String#to_i` of `[-+]?[0-9][0-9_]*`: the sign and the digits up to the
/// first character that is not a digit or a single underscore between digits.
fn ruby_to_i_digits(s: &str) -> (bool, Vec<u8>) {
    let b = s.as_bytes();
    let mut i = 0;
    let mut negative = false;
    if matches!(b.first(), Some(b'+' | b'-')) {
        negative = b[0] == b'-';
        i = 1;
    }
    let mut digits = Vec::new();
    while i < b.len() {
        if b[i].is_ascii_digit() {
            digits.push(b[i] - b'0');
            i += 1;
        } else if b[i] == b'_'
            && !digits.is_empty()
            && b.get(i + 1).is_some_and(|c| c.is_ascii_digit())
        {
            i += 1;
        } else {
            break;
        }
    }
    (negative, digits)
}

/// `String#to_f` (lenient) of the parts of a sexagesimal float.
fn ruby_to_f(s: &str) -> f64 {
    let b = s.as_bytes();
    let mut i = 0;
    let mut out = String::new();
    if matches!(b.first(), Some(b'+' | b'-')) {
        out.push(b[0] as char);
        i = 1;
    }
    let run = |i: &mut usize, out: &mut String| {
        let mut n = 0;
        while *i < b.len() {
            if b[*i].is_ascii_digit() {
                out.push(b[*i] as char);
                n += 1;
                *i += 1;
            } else if b[*i] == b'_' && n > 0 && b.get(*i + 1).is_some_and(|c| c.is_ascii_digit()) {
                *i += 1;
            } else {
                break;
            }
        }
        n
    };
    if run(&mut i, &mut out) == 0 {
        out.push('0');
    }
    if b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(|c| c.is_ascii_digit()) {
        i += 1;
        out.push('.');
        run(&mut i, &mut out);
    }
    out.parse::<f64>().unwrap_or(0.0)
}

/// Psych's FLOAT regexp: `^[-+]?([0-9][0-9_,]*)?\.[0-9]*([eE][-+][0-9]+)?$`.
fn is_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    if b.get(i).is_some_and(|c| c.is_ascii_digit()) {
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_' || b[i] == b',') {
            i += 1;
        }
    }
    if b.get(i) != Some(&b'.') {
        return false;
    }
    i += 1;
    i += digit_run(b, i);
    if i == b.len() {
        return true;
    }
    if matches!(b[i], b'e' | b'E') && matches!(b.get(i + 1), Some(b'+' | b'-')) {
        let n = digit_run(b, i + 2);
        return n > 0 && i + 2 + n == b.len();
    }
    false
}

/// Psych's INTEGER regexp (binary, octal, decimal with `,`/`_` between
/// digits, hexadecimal).
fn is_integer(s: &str) -> bool {
    let b = s.as_bytes();
    let body = if matches!(b.first(), Some(b'+' | b'-')) {
        &b[1..]
    } else {
        b
    };
    let all = |r: &[u8], f: &dyn Fn(u8) -> bool| {
        !r.is_empty() && r.iter().all(|c| f(*c) || *c == b'_' || *c == b',')
    };
    if let Some(r) = body.strip_prefix(b"0b") {
        if all(r, &|c| c == b'0' || c == b'1') {
            return true;
        }
    }
    if let Some(r) = body.strip_prefix(b"0") {
        if all(r, &|c| (b'0'..=b'7').contains(&c)) || r.is_empty() {
            return true;
        }
    }
    if body.first().is_some_and(|c| (b'1'..=b'9').contains(c)) {
        let mut i = 1;
        let mut ok = true;
        while i < body.len() {
            if body[i].is_ascii_digit() {
                i += 1;
            } else if (body[i] == b',' || body[i] == b'_')
                && body.get(i + 1).is_some_and(|c| c.is_ascii_digit())
            {
                i += 2;
            } else {
                ok = false;
                break;
            }
        }
        if ok {
            return true;
        }
    }
    if let Some(r) = body.strip_prefix(b"0x") {
        if all(r, &|c| c.is_ascii_hexdigit()) {
            return true;
        }
    }
    false
}

/// Ruby's `Integer(string)` for the cleaned text of an INTEGER match.
fn ruby_integer(s: &str) -> Option<Value> {
    let (negative, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let (radix, digits) = if let Some(r) = body.strip_prefix("0b") {
        (2, r)
    } else if let Some(r) = body.strip_prefix("0x") {
        (16, r)
    } else if body.len() > 1 && body.starts_with('0') {
        (8, &body[1..])
    } else {
        (10, body)
    };
    if digits.is_empty() {
        return None;
    }
    // Most integers fit in 64 bits: no arbitrary-precision arithmetic.
    let fits = match radix {
        2 => 62,
        8 => 20,
        10 => 18,
        _ => 15,
    };
    if digits.len() <= fits && digits.bytes().all(|c| c.is_ascii_alphanumeric()) {
        return i64::from_str_radix(digits, radix)
            .ok()
            .map(|n| Value::Int(if negative { -n } else { n }));
    }
    big_integer(negative, digits, radix)
}

/// [`ruby_integer`] of any size: `digits` (no sign, no prefix) in `radix`.
fn big_integer(negative: bool, digits: &str, radix: u32) -> Option<Value> {
    let digits: Option<Vec<u8>> = digits
        .chars()
        .map(|c| c.to_digit(radix).map(|d| d as u8))
        .collect();
    Some(Big::from_digits(&digits?, radix).into_value(negative))
}

/// A non-negative integer of any size, in base 10^9 limbs (least
/// significant first): enough arithmetic for YAML's integers.
struct Big(Vec<u32>);

const LIMB: u64 = 1_000_000_000;

impl Big {
    fn from_digits(digits: &[u8], radix: u32) -> Big {
        if radix == 10 {
            // Decimal digits group into limbs directly: linear, whatever
            // the length (a data file may hold a scalar of a million digits).
            let limbs = digits
                .rchunks(9)
                .map(|chunk| chunk.iter().fold(0u32, |n, &d| n * 10 + d as u32))
                .collect();
            return Big(limbs);
        }
        // Other radixes: as many digits per step as fit in a u32 multiplier
        // (quadratic, so their length is bounded: MAX_NONDECIMAL_DIGITS).
        let per_step = match radix {
            2 => 31,
            8 => 10,
            16 => 7,
            _ => 1,
        };
        let mut b = Big(vec![0]);
        for chunk in digits.chunks(per_step) {
            b.mul_small(radix.pow(chunk.len() as u32));
            b.add_small(chunk.iter().fold(0u32, |n, &d| n * radix + d as u32));
        }
        b
    }

    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for limb in self.0.iter_mut() {
            let v = *limb as u64 * m as u64 + carry;
            *limb = (v % LIMB) as u32;
            carry = v / LIMB;
        }
        while carry > 0 {
            self.0.push((carry % LIMB) as u32);
            carry /= LIMB;
        }
    }

    fn add_small(&mut self, a: u32) {
        let mut carry = a as u64;
        for limb in self.0.iter_mut() {
            if carry == 0 {
                return;
            }
            let v = *limb as u64 + carry;
            *limb = (v % LIMB) as u32;
            carry = v / LIMB;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    /// Subtracts `a`, which must not exceed the value.
    fn sub_small(&mut self, a: u32) {
        let mut borrow = a as u64;
        for limb in self.0.iter_mut() {
            if borrow == 0 {
                return;
            }
            let v = *limb as u64;
            if v >= borrow {
                *limb = (v - borrow) as u32;
                borrow = 0;
            } else {
                *limb = (v + LIMB - borrow % LIMB) as u32;
                borrow = borrow / LIMB + 1;
            }
        }
    }

    fn is_zero(&self) -> bool {
        self.0.iter().all(|l| *l == 0)
    }

    fn into_value(self, negative: bool) -> Value {
        let mut limbs = self.0;
        while limbs.len() > 1 && limbs.last() == Some(&0) {
            limbs.pop();
        }
        let mut s = String::new();
        if negative && !(limbs.len() == 1 && limbs[0] == 0) {
            s.push('-');
        }
        s.push_str(&limbs.last().copied().unwrap_or(0).to_string());
        for l in limbs.iter().rev().skip(1) {
            s.push_str(&format!("{:09}", l));
        }
        match s.parse::<i64>() {
            Ok(i) => Value::Int(i),
            Err(_) => Value::BigInt(s.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value as text: `nil`, `true`, `i:12`, `f:<IEEE bits in hex>`,
    /// `s:text`, `b:<hex>` (bytes), `y:symbol`, `[..]`, `{k=>v,..}`; non-ASCII
    /// as `\u{..}`. The Ruby side of the recorded table printed the same.
    fn canon(v: &Value) -> String {
        fn esc(s: &str) -> String {
            let mut out = String::new();
            for c in s.chars() {
                if c == '"' || c == '\\' {
                    out.push('\\');
                    out.push(c);
                } else if (' '..='~').contains(&c) {
                    out.push(c);
                } else {
                    out.push_str(&format!("\\u{{{:x}}}", c as u32));
                }
            }
            out
        }
        match v {
            Value::Nil => "nil".into(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => format!("i:{}", i),
            Value::BigInt(s) => format!("i:{}", s),
            Value::Float(f) => format!("f:{:016x}", f.to_bits()),
            Value::Symbol(s) => format!("y:{}", esc(s)),
            Value::String(s) => format!("s:{}", esc(s)),
            Value::Bytes(b) => format!(
                "b:{}",
                b.iter().map(|x| format!("{:02x}", x)).collect::<String>()
            ),
            Value::Array(a) => format!("[{}]", a.iter().map(canon).collect::<Vec<_>>().join(",")),
            Value::Hash(h) => {
                format!(
                    "{{{}}}",
                    h.iter()
                        .map(|(k, v)| format!("{}=>{}", canon(k), canon(v)))
                        .collect::<Vec<_>>()
                        .join(",")
                )
            }
            other => format!("?:{:?}", other),
        }
    }

    fn run_with(src: &str, opts: &YamlOptions) -> String {
        match load(src, opts) {
            Ok(None) => "nil".into(),
            Ok(Some(v)) => canon(&v),
            Err(e) => format!("E:{}", e.message),
        }
    }

    fn run(src: &str) -> String {
        run_with(src, &YamlOptions::default())
    }

    /// The 64-bit fast path of `ruby_integer` gives what the arbitrary
    /// precision path gives, up to the longest digit runs it takes.
    #[test]
    fn integers_that_fit_in_64_bits_read_as_big_ones_do() {
        let mut rnd = crate::map::tests::below(0x1a7e);
        for _ in 0..20_000 {
            let (prefix, radix, alphabet, longest) = *[
                ("0b", 2, "01", 62),
                ("0", 8, "012345678", 20),
                ("", 10, "0123456789", 18),
                ("0x", 16, "0123456789abcdefABCDEFg", 15),
            ]
            .get(rnd(4) as usize)
            .unwrap();
            let len = 1 + rnd(longest as u64 + 2) as usize;
            let digits: String = (0..len)
                .map(|_| alphabet.as_bytes()[rnd(alphabet.len() as u64) as usize] as char)
                .collect();
            let digits = if radix == 10 {
                digits.trim_start_matches('0').to_string() + "1"
            } else {
                digits
            };
            let negative = rnd(2) == 0;
            let text = format!("{}{prefix}{digits}", if negative { "-" } else { "" });
            assert_eq!(
                format!("{:?}", ruby_integer(&text)),
                format!("{:?}", big_integer(negative, &digits, radix)),
                "{text}"
            );
        }
    }

    #[test]
    fn results_match_psych() {
        let mut wrong = Vec::new();
        for (src, want) in PSYCH {
            let got = run(src);
            if got != *want {
                wrong.push(format!("{:?}\n  psych: {}\n  here:  {}", src, want, got));
            }
        }
        assert!(
            wrong.is_empty(),
            "{} of {} differ:\n{}",
            wrong.len(),
            PSYCH.len(),
            wrong.join("\n")
        );
    }

    #[test]
    fn aliases_disabled_fail_like_psych_4_load() {
        // Psych.safe_load(..., aliases: false) and Psych 4's YAML.load say this.
        let opts = YamlOptions {
            aliases: false,
            ..Default::default()
        };
        assert_eq!(
            run_with("a: &x 1\nb: *x\nc: *y\n", &opts),
            "E:Unknown alias: x"
        );
        assert_eq!(
            run_with("a: &x [1]\nb: 2\n", &opts),
            "{s:a=>[i:1],s:b=>i:2}"
        );
        let e = load("a: &x 1\nb: *x\n", &opts).unwrap_err();
        assert!(!e.has_path());
    }

    #[test]
    fn alias_expansion_is_limited() {
        // Psych has no limit; a billion laughs must not expand without bound.
        let mut src = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            src.push_str(&format!(
                "a{}: &a{} [{}]\n",
                i,
                i,
                vec![format!("*a{}", i - 1); 10].join(", ")
            ));
        }
        let e = load(&src, &YamlOptions::default()).unwrap_err();
        assert!(e.message.starts_with("Too many aliases"), "{}", e.message);
        let small = YamlOptions {
            max_alias_expansion: 3,
            ..Default::default()
        };
        assert_eq!(
            run_with("a: &a [1, 2]\nb: *a\n", &small),
            "{s:a=>[i:1,i:2],s:b=>[i:1,i:2]}"
        );
        assert!(run_with("a: &a [1, 2]\nb: *a\nc: *a\n", &small).starts_with("E:Too many aliases"));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let flow = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(run(&flow).starts_with("E:stack level too deep"));
        let block = format!("{}x\n", "- ".repeat(100_000));
        assert!(run(&block).starts_with("E:stack level too deep"));
        let mut map = String::new();
        for i in 0..(MAX_DEPTH + 5) {
            map.push_str(&" ".repeat(i));
            map.push_str("a:\n");
        }
        assert!(run(&map).starts_with("E:stack level too deep"));
        // Psych loads ~1,300 nested sequences; so does this.
        let ok = format!("{}x\n", "- ".repeat(1_300));
        assert!(load(&ok, &YamlOptions::default()).unwrap().is_some());
    }

    #[test]
    fn empty_and_multiple_documents() {
        for src in [
            "",
            "\n\n",
            "# c\n",
            "---\n",
            "--- ~\n",
            "~\n",
            "null\n",
            "---\n...\n",
        ] {
            assert_eq!(load(src, &YamlOptions::default()), Ok(None), "{:?}", src);
        }
        // Only the first document is read (Psych.safe_load).
        assert_eq!(run("--- a\n--- b\n"), "s:a");
        assert_eq!(run("a: 1\n---\n]]]\n"), "{s:a=>i:1}");
    }

    #[test]
    fn byte_order_mark() {
        // Psych, given the text of a file read as plain UTF-8 (as Puppet reads
        // data files): the mark is skipped but counts as a column.
        assert_eq!(run("\u{feff}a: 1\n"), "{s:a=>i:1}");
        assert_eq!(
            run("\u{feff}---\na: 1\n"),
            "E:mapping values are not allowed in this context at line 2 column 2"
        );
    }

    #[test]
    fn values() {
        let v = load(
            "a: !!binary /w==\nb: 123456789012345678901234567890\nc: -0x8000000000000001\n",
            &YamlOptions::default(),
        )
        .unwrap()
        .unwrap();
        assert_eq!(v.get("a"), Some(&Value::Bytes(vec![0xff].into())));
        assert_eq!(
            v.get("b"),
            Some(&Value::BigInt("123456789012345678901234567890".into()))
        );
        assert_eq!(
            v.get("c"),
            Some(&Value::BigInt("-9223372036854775809".into()))
        );
    }

    #[test]
    fn errors_as_puppet_reports_them() {
        let path = Path::new("/x/y.yaml");
        let e = load("a: [1, 2\n", &YamlOptions::default()).unwrap_err();
        assert_eq!(e.line, Some(1));
        let err = e.to_error(path);
        assert_eq!(
            err.message,
            "Unable to parse (/x/y.yaml): did not find expected ',' or ']' while parsing a flow sequence at line 1 column 4"
        );
        assert_eq!(err.kind, ErrorKind::Parse);
        let e = load("x: 1\na: 2001-01-01\n", &YamlOptions::default()).unwrap_err();
        assert_eq!(e.line, Some(2));
        assert_eq!(
            e.to_error(path).message,
            "Unable to parse (/x/y.yaml): Tried to load unspecified class: Date"
        );
        let e = load("a: !!float x\n", &YamlOptions::default()).unwrap_err();
        assert_eq!(
            e.to_error(path).message,
            "Unable to parse invalid value for Float(): \"x\""
        );
    }

    #[test]
    fn many_tabs_after_colons_parse_quickly() {
        let src: String = (0..5_000)
            .map(|i| format!("key{}:\tvalue{}\n", i, i))
            .collect();
        let t = std::time::Instant::now();
        let v = load(&src, &YamlOptions::default()).unwrap().unwrap();
        assert_eq!(v.as_hash().unwrap().len(), 5_000);
        assert_eq!(v.get("key42"), Some(&Value::string("value42")));
        assert!(t.elapsed().as_secs() < 20);
    }

    #[test]
    fn known_differences() {
        // Psych builds a recursive structure here, which no Value can be.
        assert!(run("&a [1, *a]\n").starts_with("E:Recursive alias not supported"));
        // libyaml takes U+2028 for a line break (and fails); saphyr does not.
        assert_eq!(run("a: x\u{2028}y\n"), "{s:a=>s:x\\u{2028}y}");
    }

    /// (YAML, what `Psych.safe_load(yaml, permitted_classes: [Symbol], aliases: true)`
    /// returned), recorded by running Ruby 3.1 / Psych 4.0.3 / libyaml 0.2.5 on this
    /// machine. Errors are `E:` and the message without `(<unknown>): `; values are
    /// written as `canon` writes them.
    const PSYCH: &[(&str, &str)] = &[
        ("~", "nil"),
        ("null", "nil"),
        ("Null", "nil"),
        ("NULL", "nil"),
        ("nULL", "nil"),
        ("nil", "s:nil"),
        ("true", "true"),
        ("True", "true"),
        ("TRUE", "true"),
        ("tRue", "true"),
        ("yes", "true"),
        ("Yes", "true"),
        ("YES", "true"),
        ("yEs", "true"),
        ("no", "false"),
        ("No", "false"),
        ("NO", "false"),
        ("on", "true"),
        ("On", "true"),
        ("ON", "true"),
        ("oN", "true"),
        ("off", "false"),
        ("Off", "false"),
        ("OFF", "false"),
        ("false", "false"),
        ("False", "false"),
        ("FALSE", "false"),
        ("fAlse", "false"),
        ("y", "s:y"),
        ("Y", "s:Y"),
        ("n", "s:n"),
        ("N", "s:N"),
        ("1_000", "i:1000"),
        ("1,000", "i:1000"),
        ("1,0,0,0", "i:1000"),
        ("1__0", "s:1__0"),
        ("_1", "s:_1"),
        ("1_", "s:1_"),
        (",1", "E:did not find expected node content while parsing a block node at line 1 column 1"),
        ("1,", "s:1,"),
        ("0755", "i:493"),
        ("010", "i:8"),
        ("08", "s:08"),
        ("09", "s:09"),
        ("0", "i:0"),
        ("00", "i:0"),
        ("-0", "i:0"),
        ("+0", "i:0"),
        ("+12", "i:12"),
        ("-12", "i:-12"),
        ("0x1F", "i:31"),
        ("0x_1F", "i:31"),
        ("0X1F", "s:0X1F"),
        ("-0x1A", "i:-26"),
        ("+0x1A", "i:26"),
        ("0x", "s:0x"),
        ("0b101", "i:5"),
        ("0B101", "s:0B101"),
        ("-0b101", "i:-5"),
        ("0b_1_0", "i:2"),
        ("0o17", "s:0o17"),
        ("0o", "s:0o"),
        ("1:20", "i:4800"),
        ("12:30", "i:45000"),
        ("190:20:30", "i:685230"),
        ("12:60", "s:12:60"),
        ("1:2", "i:3720"),
        ("1:20:30:40", "s:1:20:30:40"),
        ("-1:20", "i:-2400"),
        ("+1:20", "i:4800"),
        ("1:20.5", "f:40b2de0000000000"),
        ("1:30.5:2", "s:1:30.5:2"),
        ("1,000:20", "s:1,000:20"),
        ("01:20", "i:4800"),
        ("0:0", "i:0"),
        ("1.5", "f:3ff8000000000000"),
        (".5", "f:3fe0000000000000"),
        ("+.5", "f:3fe0000000000000"),
        ("-.5", "f:bfe0000000000000"),
        ("1.", "f:3ff0000000000000"),
        ("1.0e+3", "f:408f400000000000"),
        ("1.5E-3", "f:3f589374bc6a7efa"),
        ("1,000.5", "f:408f440000000000"),
        ("1.10", "f:3ff199999999999a"),
        ("1e3", "s:1e3"),
        ("1.5e3", "s:1.5e3"),
        ("1e+3", "s:1e+3"),
        ("1.0e3", "s:1.0e3"),
        ("1.0e-3", "f:3f50624dd2f1a9fc"),
        ("6.02e23", "s:6.02e23"),
        ("6.02e+23", "f:44dfde9f10a8d361"),
        ("1_0.0_1", "s:1_0.0_1"),
        ("1_0.5", "f:4025000000000000"),
        ("1.0_1", "s:1.0_1"),
        (".", "s:."),
        ("-.", "s:-."),
        ("+.", "s:+."),
        ("._5", "s:._5"),
        ("1..2", "s:1..2"),
        ("1.2.3", "s:1.2.3"),
        (".inf", "f:7ff0000000000000"),
        (".Inf", "f:7ff0000000000000"),
        (".INF", "f:7ff0000000000000"),
        (".iNf", "f:7ff0000000000000"),
        ("-.inf", "f:fff0000000000000"),
        ("-.Inf", "f:fff0000000000000"),
        ("+.inf", "f:7ff0000000000000"),
        ("inf", "s:inf"),
        (".nan", "f:7ff8000000000000"),
        (".NaN", "f:7ff8000000000000"),
        (".NAN", "f:7ff8000000000000"),
        (".nAn", "f:7ff8000000000000"),
        ("-.nan", "s:-.nan"),
        ("1.0e", "s:1.0e"),
        ("1.0E+", "s:1.0E+"),
        ("0.", "f:0000000000000000"),
        ("00.5", "f:3fe0000000000000"),
        ("0.1e1", "s:0.1e1"),
        ("9223372036854775807", "i:9223372036854775807"),
        ("9223372036854775808", "i:9223372036854775808"),
        ("-9223372036854775808", "i:-9223372036854775808"),
        ("-9223372036854775809", "i:-9223372036854775809"),
        ("123456789012345678901234567890", "i:123456789012345678901234567890"),
        ("0x123456789ABCDEF0123", "i:5373003642731685151011"),
        ("0777777777777777777777777", "i:4722366482869645213695"),
        ("1_000_000_000_000_000_000_000", "i:1000000000000000000000"),
        (":sym", "y:sym"),
        (":Sym", "y:Sym"),
        (":\"quoted sym\"", "y:quoted sym"),
        (":'q s'", "y:q s"),
        (":", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("::", "{s::=>nil}"),
        (":1", "y:1"),
        (":foo bar", "y:foo bar"),
        (":\"a", "y:\\\"a"),
        (":sym:", "{y:sym=>nil}"),
        (" :sym", "y:sym"),
        ("=", "s:="),
        ("<<", "s:<<"),
        ("'123'", "s:123"),
        ("\"123\"", "s:123"),
        ("!!str 123", "s:123"),
        ("!!int '12'", "i:12"),
        ("!!int \"0x1F\"", "i:31"),
        ("!!int 'abc'", "s:abc"),
        ("!!float '1'", "f:3ff0000000000000"),
        ("!!float \"1e3\"", "f:408f400000000000"),
        ("!!float 'abc'", "E:invalid value for Float(): \"abc\""),
        ("!!bool 'yes'", "true"),
        ("!!bool 'abc'", "s:abc"),
        ("!!null ''", "nil"),
        ("!!null 'abc'", "s:abc"),
        ("!!binary aGVsbG8=", "s:hello"),
        ("!!binary \"/w==\"", "b:ff"),
        ("!foo bar", "s:bar"),
        ("!ruby/symbol foo", "y:foo"),
        ("!ruby/sym foo", "y:foo"),
        ("!ruby/object:Foo {}", "E:Tried to load unspecified class: Foo"),
        ("!!set {a, b}", "E:Tried to load unspecified class: Psych::Set"),
        ("!!omap [a: 1]", "{s:a=>i:1}"),
        ("!!map {a: 1}", "{s:a=>i:1}"),
        ("!!seq [1]", "[i:1]"),
        ("!ruby/hash:Foo {}", "E:Tried to load unspecified class: Foo"),
        ("!ruby/string foo", "s:foo"),
        ("!str foo", "s:foo"),
        ("2001-12-14", "E:Tried to load unspecified class: Date"),
        ("2001-12-14 21:59:43", "E:Tried to load unspecified class: Time"),
        ("2001-12-14T21:59:43Z", "E:Tried to load unspecified class: Time"),
        ("2001-12-14 21:59:43.10 -5", "E:Tried to load unspecified class: Time"),
        ("2001-12-14t21:59:43.10-05:00", "E:Tried to load unspecified class: Time"),
        ("2001-1-14", "E:Tried to load unspecified class: Date"),
        ("2001-12-14x", "s:2001-12-14x"),
        ("20011214", "i:20011214"),
        ("1-2-3", "s:1-2-3"),
        ("! 123", "i:123"),
        ("! '123'", "i:123"),
        ("! abc", "s:abc"),
        ("!ruby/object:Foo bar", "s:bar"),
        ("!!float '.e+3'", "E:invalid value for Float(): \"e+3\""),
        (".e+3", "E:invalid value for Float(): \"e+3\""),
        ("+.e+3", "E:invalid value for Float(): \"+e+3\""),
        ("1.e+3", "f:408f400000000000"),
        ("0b_", "E:invalid value for Integer(): \"0b\""),
        ("0x_", "E:invalid value for Integer(): \"0x\""),
        ("0b,", "E:invalid value for Integer(): \"0b\""),
        ("-0b_", "E:invalid value for Integer(): \"-0b\""),
        ("0_", "i:0"),
        ("0,", "i:0"),
        ("1.0e+999", "f:7ff0000000000000"),
        ("-1.0e+999", "f:fff0000000000000"),
        ("1.0e-999", "f:0000000000000000"),
        ("!!float 1e999", "f:7ff0000000000000"),
        ("!!float '0x10'", "f:4030000000000000"),
        ("!!float '1_000'", "f:408f400000000000"),
        ("!!float ~", "E:can't convert nil into Float"),
        ("!!float 'yes'", "E:can't convert true into Float"),
        ("!!float ':sym'", "E:can't convert Symbol into Float"),
        ("!!float '2001-01-01'", "E:Tried to load unspecified class: Date"),
        ("!!float '1:20'", "f:40b2c00000000000"),
        ("!!float '1,5'", "f:402e000000000000"),
        ("!!float ' 1.5 '", "f:3ff8000000000000"),
        ("!!float '1.5x'", "E:invalid value for Float(): \"1.5x\""),
        ("!!float '0b11'", "f:4008000000000000"),
        ("!!float '010'", "f:4020000000000000"),
        ("!!float '.inf'", "f:7ff0000000000000"),
        ("!!float '.nan'", "f:7ff8000000000000"),
        ("!!float '12e'", "E:invalid value for Float(): \"12e\""),
        ("!!float '1__0'", "E:invalid value for Float(): \"1__0\""),
        ("!!float '1_0'", "f:4024000000000000"),
        ("!!float '_10'", "E:invalid value for Float(): \"_10\""),
        ("!!float '1.'", "f:3ff0000000000000"),
        ("!!float '0x1p3'", "f:4020000000000000"),
        ("!!timestamp 2001-01-01", "E:Tried to load unspecified class: Date"),
        ("!!timestamp foo", "s:foo"),
        ("!!int 2001-01-01", "E:Tried to load unspecified class: Date"),
        ("!!str 2001-01-01", "s:2001-01-01"),
        ("'2001-01-01'", "s:2001-01-01"),
        ("!ruby/object:Hash {a: 1}", "{s:a=>i:1}"),
        ("!ruby/object {a: 1}", "E:Tried to load unspecified class: Object"),
        ("!ruby/object:Object {a: 1}", "E:Tried to load unspecified class: Object"),
        ("!ruby/struct:Foo {a: 1}", "E:Tried to load unspecified class: Foo"),
        ("!ruby/struct {a: 1}", "E:Tried to load unspecified class: Struct"),
        ("!ruby/range 1..2", "E:Tried to load unspecified class: Range"),
        ("!ruby/range {begin: 1, end: 2, excl: false}", "E:Tried to load unspecified class: Range"),
        ("!ruby/regexp /a/", "E:Tried to load unspecified class: Regexp"),
        ("!ruby/exception {message: x}", "E:Tried to load unspecified class: Exception"),
        ("!ruby/hash-with-ivars {elements: {a: 1}}", "{s:a=>i:1}"),
        ("!ruby/hash-with-ivars:Foo {elements: {a: 1}}", "E:Tried to load unspecified class: Foo"),
        ("!str:Foo bar", "E:Tried to load unspecified class: Foo"),
        ("!ruby/string:Foo bar", "E:Tried to load unspecified class: Foo"),
        ("!!str {str: x}", "s:x"),
        ("!ruby/class String", "E:Tried to load unspecified class: String"),
        ("!!merge <<", "s:<<"),
        ("!!value =", "s:="),
        ("!!yaml !", "nil"),
        ("!ruby/array:Foo [1]", "E:Tried to load unspecified class: Foo"),
        ("!seq:Foo [1]", "E:Tried to load unspecified class: Foo"),
        ("!map:Foo {a: 1}", "E:Tried to load unspecified class: Foo"),
        ("!ruby/hash:Foo {a: 1}", "E:Tried to load unspecified class: Foo"),
        ("!ruby/sym :foo", "y::foo"),
        ("!ruby/symbol", "y:"),
        ("!ruby/symbol ''", "y:"),
        ("!ruby/symbolic x", "y:x"),
        ("!!omap {a: 1}", "E:Tried to load unspecified class: Psych::Omap"),
        ("!omap [a: 1, b: 2]", "{s:a=>i:1,s:b=>i:2}"),
        ("!!omap [{a: 1, b: 2}, {c: 3}]", "{s:a=>i:2,s:c=>i:3}"),
        ("!set {a: 1}", "E:Tried to load unspecified class: Psych::Set"),
        ("!ruby/object:BigDecimal 1", "E:Tried to load unspecified class: BigDecimal"),
        ("!ruby/object:DateTime 2001-01-01", "E:Tried to load unspecified class: DateTime"),
        ("!ruby/object:Complex 1", "E:Tried to load unspecified class: Complex"),
        ("!ruby/object:Rational 1", "E:Tried to load unspecified class: Rational"),
        ("!ruby/module Kernel", "E:Tried to load unspecified class: Kernel"),
        ("!ruby/marshalable:Foo {}", "E:Tried to load unspecified class: Foo"),
        ("!ruby/object:Foo", "nil"),
        ("!ruby/exception:Foo {}", "E:Tried to load unspecified class: Foo"),
        ("!<tag:yaml.org,2002:int> '12'", "i:12"),
        ("!<!foo> 12", "i:12"),
        ("!<tag:yaml.org,2002:str> 12", "s:12"),
        ("!binary aGVsbG8=", "s:hello"),
        ("!!binary 'aGVs bG8='", "s:hello"),
        ("!!binary ''", "s:"),
        ("!!binary '!!!'", "s:"),
        ("!!binary 'aGVsbG8'", "s:hello"),
        ("!!binary 'aGVsbA'", "s:hell"),
        ("!!binary 'aGVsbA=x'", "s:hell"),
        ("!!binary 'aG=Vs'", "s:h"),
        ("!!binary 'a'", "s:"),
        ("!!binary 'aGVs=bG8='", "s:hello"),
        ("!!binary 'aGV=sbG8='", "s:he"),
        ("!!binary '=aGVs'", "s:hel"),
        ("!!binary 'aG==Vs'", "s:h"),
        ("!!binary 4pyTIMOgIGxhIG1vZGU=", "s:\\u{2713} \\u{e0} la mode"),
        ("!!binary 'wyg='", "b:c328"),
        ("!!null ~", "nil"),
        ("!!null 'null'", "nil"),
        ("!!bool ~", "nil"),
        ("!!int ~", "nil"),
        ("!!int ''", "nil"),
        ("!!str ~", "s:~"),
        ("!!str", "s:"),
        ("!!int", "nil"),
        ("!!float", "E:can't convert nil into Float"),
        ("!!map", "nil"),
        ("!!seq", "nil"),
        ("!!set", "nil"),
        ("{a: 1, b: 2, a: 3}\n", "{s:a=>i:3,s:b=>i:2}"),
        ("a: 1\nb: 2\na: 3\n", "{s:a=>i:3,s:b=>i:2}"),
        ("base: &b {x: 1, y: 2}\nm:\n  z: 0\n  <<: *b\n  x: 9\n", "{s:base=>{s:x=>i:1,s:y=>i:2},s:m=>{s:z=>i:0,s:x=>i:9,s:y=>i:2}}"),
        ("base: &b {x: 1, y: 2}\nm:\n  x: 9\n  <<: *b\n", "{s:base=>{s:x=>i:1,s:y=>i:2},s:m=>{s:x=>i:1,s:y=>i:2}}"),
        ("a: &a {x: 1, y: 2}\nb: &b {y: 3, z: 4}\nm:\n  w: 0\n  <<: [*a, *b]\n", "{s:a=>{s:x=>i:1,s:y=>i:2},s:b=>{s:y=>i:3,s:z=>i:4},s:m=>{s:w=>i:0,s:y=>i:2,s:z=>i:4,s:x=>i:1}}"),
        ("a: &a {x: 1, y: 2}\nb: &b {y: 3, z: 4}\nm:\n  <<: [*b, *a]\n", "{s:a=>{s:x=>i:1,s:y=>i:2},s:b=>{s:y=>i:3,s:z=>i:4},s:m=>{s:x=>i:1,s:y=>i:3,s:z=>i:4}}"),
        ("m:\n  <<: {p: 1}\n  q: 2\n", "{s:m=>{s:p=>i:1,s:q=>i:2}}"),
        ("m:\n  \"<<\": {p: 1}\n", "{s:m=>{s:p=>i:1}}"),
        ("m:\n  !!str <<: {p: 1}\n", "{s:m=>{s:<<=>{s:p=>i:1}}}"),
        ("m:\n  <<: foo\n", "{s:m=>{s:<<=>s:foo}}"),
        ("a: &a [1, 2]\nm:\n  <<: *a\n", "{s:a=>[i:1,i:2],s:m=>{s:<<=>[i:1,i:2]}}"),
        ("m:\n  <<: [{a: 1}, 2]\n  b: 3\n", "{s:m=>{s:<<=>[{s:a=>i:1},i:2],s:b=>i:3}}"),
        ("m:\n  <<: [{a: 1}, {b: 2}]\n  <<: {c: 3}\n", "{s:m=>{s:b=>i:2,s:a=>i:1,s:c=>i:3}}"),
        ("x: =\ny: <<\n", "{s:x=>s:=,s:y=>s:<<}"),
        ("\u{feff}a: 1\n", "{s:a=>i:1}"),
        ("a: 1\n--- [\n", "{s:a=>i:1}"),
        ("a: 1\n---\n]\n", "{s:a=>i:1}"),
        ("a: 1\n--- `\n", "{s:a=>i:1}"),
        ("a: 1\n...\n`\n", "{s:a=>i:1}"),
        ("\n", "nil"),
        ("---\n", "nil"),
        ("# just a comment\n", "nil"),
        ("~\n", "nil"),
        ("--- ~\n", "nil"),
        ("...\n", "E:did not find expected node content while parsing a block node at line 1 column 1"),
        ("--- \n...\n--- a\n", "nil"),
        ("--- a\n--- b\n", "s:a"),
        ("1: a\n1.5: b\n~: c\ntrue: d\n[1, 2]: e\n{x: 1}: f\n? [a]\n: g\n:sym: h\n2001-01-01: i\n", "E:Tried to load unspecified class: Date"),
        ("a: *unknown\n", "E:Unknown alias: unknown"),
        ("a: &x 1\nb: *x\n", "{s:a=>i:1,s:b=>i:1}"),
        ("a: &x 1\nb: &x 2\nc: *x\n", "{s:a=>i:1,s:b=>i:2,s:c=>i:2}"),
        ("a: \"x\ty\\u00e9\\x41\\n\"\nb: 'it''s'\nc: |\n  line1\n   line2\n\nd: >\n  folded\n  text\n\n  para\ne: |-\n  strip\nf: |+\n  keep\n\ng: plain\n  multi line\n\n  with blank\n", "{s:a=>s:x\\u{9}y\\u{e9}A\\u{a},s:b=>s:it's,s:c=>s:line1\\u{a} line2\\u{a},s:d=>s:folded text\\u{a}para\\u{a},s:e=>s:strip,s:f=>s:keep\\u{a}\\u{a},s:g=>s:plain multi line\\u{a}with blank}"),
        ("a:\n\tb: 1\n", "E:found character that cannot start any token while scanning for the next token at line 2 column 1"),
        ("a: [1, 2\nb: 3\n", "E:did not find expected ',' or ']' while parsing a flow sequence at line 1 column 4"),
        ("a: [1, 2\n", "E:did not find expected ',' or ']' while parsing a flow sequence at line 1 column 4"),
        ("a: {x: 1, y: 2\nb: 3\n", "E:did not find expected ',' or '}' while parsing a flow mapping at line 1 column 4"),
        ("a: {x: 1\n", "E:did not find expected ',' or '}' while parsing a flow mapping at line 1 column 4"),
        ("a: 'foo\n", "E:found unexpected end of stream while scanning a quoted scalar at line 1 column 4"),
        ("a: \"foo\n", "E:found unexpected end of stream while scanning a quoted scalar at line 1 column 4"),
        ("a: 1\n  b: 2\n", "E:mapping values are not allowed in this context at line 2 column 4"),
        ("a:\n  - 1\n  b: 2\n", "E:did not find expected '-' indicator while parsing a block collection at line 2 column 3"),
        ("a: @foo\n", "E:found character that cannot start any token while scanning for the next token at line 1 column 4"),
        ("a: `foo\n", "E:found character that cannot start any token while scanning for the next token at line 1 column 4"),
        ("a: %foo\n", "E:found character that cannot start any token while scanning for the next token at line 1 column 4"),
        ("a: b: c\n", "E:mapping values are not allowed in this context at line 1 column 5"),
        ("a: 1\nfoo\nb: 2\n", "E:could not find expected ':' while scanning a simple key at line 2 column 1"),
        ("- a\nb: 1\n", "E:did not find expected '-' indicator while parsing a block collection at line 1 column 1"),
        ("a: 'x' y\n", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("a: \"\\q\"\n", "E:found unknown escape character while parsing a quoted scalar at line 1 column 4"),
        ("a: *\n", "E:did not find expected alphabetic or numeric character while scanning an alias at line 1 column 4"),
        ("a: !<foo\n", "E:did not find the expected '>' while scanning a tag at line 1 column 4"),
        ("%YAML 1.1\n%YAML 1.1\n---\n", "E:found duplicate %YAML directive at line 1 column 1"),
        ("a: |x\n", "E:did not find expected comment or line break while scanning a block scalar at line 1 column 4"),
        ("[1, 2]]\n", "[i:1,i:2]"),
        ("{a: 1}}\n", "{s:a=>i:1}"),
        ("- [a, b\n- c\n", "E:did not find expected ',' or ']' while parsing a flow sequence at line 1 column 3"),
        ("a:\n- b\n - c\n", "{s:a=>[s:b - c]}"),
        ("a: 1\n b: 2\n", "E:mapping values are not allowed in this context at line 2 column 3"),
        ("key: value\n  other: x\n", "E:mapping values are not allowed in this context at line 2 column 8"),
        ("a:\n  b: 1\n c: 2\n", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("- a\n - b\n", "[s:a - b]"),
        ("a: [1, 2]x\n", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("a: \"x\" # ok\nb: \"y\"z\n", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("a: >\n x\n\ty\n", "E:found a tab character where an indentation space is expected while scanning a block scalar at line 1 column 4"),
        ("foo: bar\n- baz\n", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("a: 1\n]\n", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("a: {b: [1, 2}\n", "E:did not find expected ',' or ']' while parsing a flow sequence at line 1 column 8"),
        ("a: !!\n", "E:did not find expected tag URI while parsing a tag at line 1 column 4"),
        ("a: &\n", "E:did not find expected alphabetic or numeric character while scanning an anchor at line 1 column 4"),
        ("a: &x\nb: *x\nc: &\n", "E:did not find expected alphabetic or numeric character while scanning an anchor at line 3 column 4"),
        ("\"a\nb\": 1\n", "E:mapping values are not allowed in this context at line 2 column 3"),
        ("? a\n? b\n: c\n- d\n", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("a:\tb\n", "{s:a=>s:b}"),
        ("a: b\t\n", "{s:a=>s:b}"),
        ("\ta: 1\n", "E:found character that cannot start any token while scanning for the next token at line 1 column 1"),
        ("a: 1\n\t\nb: 2\n", "E:found a tab character that violates indentation while scanning a plain scalar at line 1 column 4"),
        ("a: [b, c]: d\n", "E:mapping values are not allowed in this context at line 1 column 10"),
        ("- - - x\n  - y\n - z\n", "E:did not find expected '-' indicator while parsing a block collection at line 1 column 1"),
        ("%FOO bar\n---\na: 1\n", "E:found unknown directive name while scanning a directive at line 1 column 1"),
        ("%TAG !e! tag:example.com,2000:\n---\na: !e!foo 1\n", "{s:a=>i:1}"),
        ("a: !x!foo 1\n", "E:found undefined tag handle while parsing a node at line 1 column 4"),
        ("{a: 1, b}\n", "{s:a=>i:1,s:b=>nil}"),
        ("[a: 1, b: 2]\n", "[{s:a=>i:1},{s:b=>i:2}]"),
        ("a: 1 # comment\nb:# x\n", "E:could not find expected ':' while scanning a simple key at line 2 column 1"),
        ("a: -\n", "E:block sequence entries are not allowed in this context at line 1 column 4"),
        ("a: - b\n", "E:block sequence entries are not allowed in this context at line 1 column 4"),
        ("a: x\n# c\n y\n", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("'a': 1\n'b':2\n", "E:could not find expected ':' while scanning a simple key at line 2 column 1"),
        ("a: \"\\x4\"\n", "E:did not find expected hexdecimal number while parsing a quoted scalar at line 1 column 4"),
        ("a: \"\\u12\"\n", "E:did not find expected hexdecimal number while parsing a quoted scalar at line 1 column 4"),
        ("a: |\n  x\n y\n", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("a: |2\n  x\n   y\n z\n", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("a:\t\tb\n", "{s:a=>s:b}"),
        ("a: \tb\n", "{s:a=>s:b}"),
        ("a:\t-1\n", "{s:a=>i:-1}"),
        ("a:\t[1]\n", "{s:a=>[i:1]}"),
        ("a:\t'x'\n", "{s:a=>s:x}"),
        ("a:\t1\n", "{s:a=>i:1}"),
        ("-\tb\n", "E:found character that cannot start any token while scanning for the next token at line 1 column 2"),
        ("- \tb\n", "E:found character that cannot start any token while scanning for the next token at line 1 column 3"),
        ("-\t-1\n", "E:found character that cannot start any token while scanning for the next token at line 1 column 2"),
        ("a:\t\n  b: 1\n", "{s:a=>{s:b=>i:1}}"),
        ("a: b\t# c\n", "{s:a=>s:b}"),
        ("a:\t# c\n  b: 1\n", "{s:a=>{s:b=>i:1}}"),
        ("[a,\tb]\n", "[s:a,s:b]"),
        ("{a:\tb}\n", "{s:a=>s:b}"),
        ("a: \"x\ty\"\n", "{s:a=>s:x\\u{9}y}"),
        ("a: |\n  \tx\n", "E:found a tab character where an indentation space is expected while scanning a block scalar at line 1 column 4"),
        ("a: |\n \tx\n y\n", "E:found a tab character where an indentation space is expected while scanning a block scalar at line 1 column 4"),
        ("a:\n  \t- 1\n", "E:found character that cannot start any token while scanning for the next token at line 2 column 3"),
        ("a:\n  - \tx\n", "E:found character that cannot start any token while scanning for the next token at line 2 column 5"),
        ("  \ta: 1\n", "E:found character that cannot start any token while scanning for the next token at line 1 column 3"),
        ("a: x\t y\n", "{s:a=>s:x\\u{9} y}"),
        ("a:\t&x 1\n", "{s:a=>i:1}"),
        ("a:\t!!str 1\n", "{s:a=>s:1}"),
        ("a:\t*x\n", "E:Unknown alias: x"),
        ("? a\n:\tb\n", "E:found character that cannot start any token while scanning for the next token at line 2 column 2"),
        ("a: 1\t\n", "{s:a=>i:1}"),
        ("a:\n b\n\tc\n", "E:found a tab character that violates indentation while scanning a plain scalar at line 2 column 2"),
        ("- a\n-\t\n", "E:found character that cannot start any token while scanning for the next token at line 2 column 2"),
        ("a: 1\n \t\nb: 2\n", "{s:a=>i:1,s:b=>i:2}"),
        ("a:\tb: c\n", "E:mapping values are not allowed in this context at line 1 column 5"),
        ("a: 1\r\nb: 2\r\n", "{s:a=>i:1,s:b=>i:2}"),
        ("a: x\r\n  y\r\nb: |\r\n  l1\r\n  l2\r\n", "{s:a=>s:x y,s:b=>s:l1\\u{a}l2\\u{a}}"),
        ("a: 1\rb: 2\r", "{s:a=>i:1,s:b=>i:2}"),
        ("a: x\u{1}y\n", "E:control characters are not allowed at line 1 column 1"),
        ("a: \"x\u{1}y\"\n", "E:control characters are not allowed at line 1 column 1"),
        ("a: x\u{7f}y\n", "E:control characters are not allowed at line 1 column 1"),
        ("a: \"x\u{2028}y\"\n", "{s:a=>s:x\\u{2028}y}"),
        ("a: x\u{a0}y\n", "{s:a=>s:x\\u{a0}y}"),
        ("a: x\u{feff}y\n", "{s:a=>s:x\\u{feff}y}"),
        ("a: &a.b x\nb: *a.b\n", "E:did not find expected alphabetic or numeric character while scanning an anchor at line 1 column 4"),
        ("a: &a/b x\n", "E:did not find expected alphabetic or numeric character while scanning an anchor at line 1 column 4"),
        ("a: &\u{e9} x\n", "E:did not find expected alphabetic or numeric character while scanning an anchor at line 1 column 4"),
        ("a: *a\n", "E:Unknown alias: a"),
        ("%YAML 1.2\n---\na: 1\n", "{s:a=>i:1}"),
        ("%YAML 1.3\n---\na: 1\n", "E:found incompatible YAML document at line 1 column 1"),
        ("%YAML 2.0\n---\na: 1\n", "E:found incompatible YAML document at line 1 column 1"),
        ("%YAML 1.1\na: 1\n", "E:did not find expected <document start> at line 1 column 1"),
        ("[a:b]\n", "[s:a:b]"),
        ("{a:b}\n", "{s:a:b=>nil}"),
        ("{\"a\":1}\n", "{s:a=>i:1}"),
        ("[\"a\":1]\n", "[{s:a=>i:1}]"),
        ("{a: 1,}\n", "{s:a=>i:1}"),
        ("[1,]\n", "[i:1]"),
        ("[1,,2]\n", "E:did not find expected node content while parsing a flow node at line 1 column 4"),
        ("- -1\n- -x\n- ?x\n- :x\n", "[i:-1,s:-x,s:?x,y:x]"),
        ("- - x\n", "[[s:x]]"),
        ("a: b#c\n", "{s:a=>s:b#c}"),
        ("a: 'x'#c\n", "{s:a=>s:x}"),
        ("a: \"x\"#c\n", "{s:a=>s:x}"),
        ("? - a\n: b\n", "{[s:a]=>s:b}"),
        ("a:\n  - b\n  -\n  - c\n", "{s:a=>[s:b,nil,s:c]}"),
        ("--- |\n  text\n", "s:text\\u{a}"),
        ("--- >-\n  a\n  b\n", "s:a b"),
        ("---\n- a\n...\n", "[s:a]"),
        ("a: 1\n...\nb: 2\n", "{s:a=>i:1}"),
        ("'a'\n", "s:a"),
        ("\"a\" b\n", "s:a"),
        ("'a': b\n", "{s:a=>s:b}"),
        ("a: |\n\n  x\n", "{s:a=>s:\\u{a}x\\u{a}}"),
        ("a: >\n  x\n\n\n  y\n", "{s:a=>s:x\\u{a}\\u{a}y\\u{a}}"),
        ("a: |1\n  x\n", "{s:a=>s: x\\u{a}}"),
        ("a: |+\n  x\n\n\nb: 1\n", "{s:a=>s:x\\u{a}\\u{a}\\u{a},s:b=>i:1}"),
        ("a: >\n  x\n   y\n  z\n", "{s:a=>s:x\\u{a} y\\u{a}z\\u{a}}"),
        ("- &a !!str x\n- !!str &b y\n- *a\n- *b\n", "[s:x,s:y,s:x,s:y]"),
        ("a: !!str\nb: 1\n", "{s:a=>s:,s:b=>i:1}"),
        ("a: &x\nb: *x\n", "{s:a=>nil,s:b=>nil}"),
        ("&x a: *x\n", "{s:a=>s:a}"),
        ("? \n: x\n", "{nil=>s:x}"),
        (": x\n", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("a: {b: c\n  , d: e}\n", "{s:a=>{s:b=>s:c,s:d=>s:e}}"),
        ("a: [b,\n c]\n", "{s:a=>[s:b,s:c]}"),
        ("a: [b,\nc]\n", "{s:a=>[s:b,s:c]}"),
        ("a:\n  [b,\n c]\n", "{s:a=>[s:b,s:c]}"),
        ("a: \"b\n c\"\n", "{s:a=>s:b c}"),
        ("a: \"b\nc\"\n", "{s:a=>s:b c}"),
        ("a: 'b\n\n  c'\n", "{s:a=>s:b\\u{a}c}"),
        ("a: b\n c\n  d\n", "{s:a=>s:b c d}"),
        ("a: x: y\n", "E:mapping values are not allowed in this context at line 1 column 5"),
        ("a: 'x': y\n", "E:mapping values are not allowed in this context at line 1 column 7"),
        ("key with spaces: v\n", "{s:key with spaces=>s:v}"),
        ("a b: c d\n", "{s:a b=>s:c d}"),
        ("- a\n -b\n", "[s:a -b]"),
        ("a: -b\n", "{s:a=>s:-b}"),
        ("a: ---\n", "{s:a=>s:---}"),
        ("--- a: 1\n", "E:mapping values are not allowed in this context at line 1 column 6"),
        ("---a\n", "s:---a"),
        ("a: \\n\n", "{s:a=>s:\\\\n}"),
        ("a: \"\\N\\_\\L\\P\\e\\a\\/\\ \\0\"\n", "{s:a=>s:\\u{85}\\u{a0}\\u{2028}\\u{2029}\\u{1b}\\u{7}/ \\u{0}}"),
        ("a: \"\\U0001F600\\t\"\n", "{s:a=>s:\\u{1f600}\\u{9}}"),
        ("a: '\\n'\n", "{s:a=>s:\\\\n}"),
        ("a: \"x\\\n  y\"\n", "{s:a=>s:xy}"),
        ("a: !!python/none x\n", "{s:a=>s:x}"),
        ("a: !<!> x\n", "{s:a=>s:x}"),
        ("a: !e!x 1\n", "E:found undefined tag handle while parsing a node at line 1 column 4"),
        ("%TAG ! tag:foo:\n---\na: !x 1\n", "{s:a=>i:1}"),
        ("%TAG !! tag:foo:\n---\na: !!int 1\n", "{s:a=>i:1}"),
        ("a: 'x'\n\t\nb: 2", "E:found character that cannot start any token while scanning for the next token at line 2 column 1"),
        ("a: 'x'\n\t# c\nb: 2", "E:found character that cannot start any token while scanning for the next token at line 2 column 1"),
        ("a: 1\n\t# c\nb: 2", "E:found a tab character that violates indentation while scanning a plain scalar at line 1 column 4"),
        ("a:\n  b: 1\n\t# c\n", "E:found a tab character that violates indentation while scanning a plain scalar at line 2 column 6"),
        ("# c\n\t# d\na: 1", "E:found character that cannot start any token while scanning for the next token at line 2 column 1"),
        ("\t# d\na: 1", "E:found character that cannot start any token while scanning for the next token at line 1 column 1"),
        ("a: [1,\n\t2]", "{s:a=>[i:1,i:2]}"),
        ("a: 1\n\t\n", "E:found a tab character that violates indentation while scanning a plain scalar at line 1 column 4"),
        ("a: 1 \n\t\n", "E:found a tab character that violates indentation while scanning a plain scalar at line 1 column 4"),
        ("a: |\n  x\n\t\n", "E:found a tab character where an indentation space is expected while scanning a block scalar at line 1 column 4"),
        ("- 1\n\t\n- 2", "E:found a tab character that violates indentation while scanning a plain scalar at line 1 column 3"),
        ("a: x\n  \t\n  y", "{s:a=>s:x\\u{a}y}"),
        ("a: x\n \t \n y", "{s:a=>s:x\\u{a}y}"),
        ("- 'b\nc'", "[s:b c]"),
        ("a:\n  - 'b\n c'", "{s:a=>[s:b c]}"),
        ("a:\n  b: 'x\n  y'", "{s:a=>{s:b=>s:x y}}"),
        ("a:\n  b: 'x\n y'", "{s:a=>{s:b=>s:x y}}"),
        ("a:\n  b: 'x\ny'", "{s:a=>{s:b=>s:x y}}"),
        ("a:\n  b: [x,\ny]", "{s:a=>{s:b=>[s:x,s:y]}}"),
        ("a:\n  b: x\n y", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("%YAML 1.1\n%TAG ! foo:\n%TAG ! bar:\n---\na: 1", "E:found duplicate %TAG directive at line 1 column 1"),
        ("\u{feff}a: [", "E:did not find expected node content while parsing a flow node at line 2 column 1"),
        ("\u{feff}\u{feff}a: 1", "{s:\\u{feff}a=>i:1}"),
        ("\u{feff}a: 1\nb: 2", "{s:a=>i:1}"),
        ("\u{feff}- 1\n- 2", "[i:1]"),
        ("\u{feff}a:\n  b: 1\nc: 2", "{s:a=>{s:b=>i:1}}"),
        ("\u{feff}\na: 1", "{s:a=>i:1}"),
        ("\u{feff}%YAML 1.1\n---\na: 1", "E:found character that cannot start any token while scanning for the next token at line 1 column 2"),
        ("\u{feff}--- a", "s:--- a"),
        ("\u{feff}[1]", "[i:1]"),
        ("\u{feff}  a: 1\n  b: 2", "{s:a=>i:1}"),
        ("\u{feff}a: 1\n b: 2", "{s:a=>i:1,s:b=>i:2}"),
        ("\u{feff}---\na: 1", "E:mapping values are not allowed in this context at line 2 column 2"),
        ("\u{feff}a: @", "E:found character that cannot start any token while scanning for the next token at line 1 column 5"),
        ("[1]\n`", "E:found character that cannot start any token while scanning for the next token at line 2 column 1"),
        ("[1] `", "E:found character that cannot start any token while scanning for the next token at line 1 column 5"),
        ("'a'\n`", "E:found character that cannot start any token while scanning for the next token at line 2 column 1"),
        ("a\n`", "s:a `"),
        ("[1]\n'abc", "E:found unexpected end of stream while scanning a quoted scalar at line 2 column 1"),
        ("[1]\n&", "E:did not find expected alphabetic or numeric character while scanning an anchor at line 2 column 1"),
        ("[1]\n- x", "[i:1]"),
        ("[1]\n]", "[i:1]"),
        ("{a: 1}\n}", "{s:a=>i:1}"),
        ("[1]\nfoo: [", "[i:1]"),
        ("!!omap [x]", "E:undefined method `first' for nil:NilClass"),
        ("!!omap [[a, b, c]]", "{s:a=>s:c}"),
        ("!ruby/hash: {}", "E:undefined method `allocate' for nil:NilClass"),
        ("!seq: []", "E:undefined method `allocate' for nil:NilClass"),
        ("!ruby/hash-with-ivars: {}", "E:undefined method `allocate' for nil:NilClass"),
        ("!ruby/hash-with-ivars {elements: x}", "E:undefined method `each_slice' for nil:NilClass"),
        ("!ruby/hash-with-ivars {elements: {a: 1}, ivars: {\"@x\": 1}, other: 2}", "{s:a=>i:1}"),
        ("!str {a: 1}", "E:can't modify frozen NilClass: nil"),
        ("!str {str: x, a: 1}", "s:x"),
        ("!ruby/object:Hash [1]", "[i:1]"),
        ("!ruby/class \"\"", "nil"),
        ("a: &a {x: 1}\nb: !!omap [*a]", "E:undefined method `first' for nil:NilClass"),
        ("o\u{fb00}", "false"),
        ("ye\u{17f}", "true"),
        ("\u{17f}", "s:\\u{17f}"),
        ("faL\u{17f}e", "false"),
        ("\u{212a}ey", "s:\\u{212a}ey"),
        ("nuLL", "nil"),
        ("a: 2001-01-01\nb: [\n", "E:did not find expected node content while parsing a flow node at line 3 column 1"),
        ("a: !!float x\nb: 'unterminated", "E:found unexpected end of stream while scanning a quoted scalar at line 2 column 4"),
        ("a: *nope\nb: [", "E:did not find expected node content while parsing a flow node at line 3 column 1"),
        ("x: 1\ny: 2001-01-01\n", "E:Tried to load unspecified class: Date"),
        ("2001-01-01: x\n", "E:Tried to load unspecified class: Date"),
        ("a:\n  2001-01-01 10:00:00: x\n", "E:Tried to load unspecified class: Time"),
        ("-0.0: a\n0.0: b\n", "{f:8000000000000000=>s:b}"),
        ("1: a\n1.0: b\n'1': c\n", "{i:1=>s:a,f:3ff0000000000000=>s:b,s:1=>s:c}"),
        (".nan: a\n.NaN: b\n", "{f:7ff8000000000000=>s:b}"),
        ("---\nprofile::base::ntp_servers:\n  - 0.pool.ntp.org\n  - 1.pool.ntp.org\nclasses:\n  - role::web\n'quoted::key': \"%{hiera('x')}\"\nlookup_options:\n  '^profile::.*':\n    merge: deep\n", "{s:profile::base::ntp_servers=>[s:0.pool.ntp.org,s:1.pool.ntp.org],s:classes=>[s:role::web],s:quoted::key=>s:%{hiera('x')},s:lookup_options=>{s:^profile::.*=>{s:merge=>s:deep}}}"),
        ("defaults: &defaults\n  adapter: postgres\n  host: localhost\n\ndevelopment:\n  database: dev\n  <<: *defaults\n\ntest: &test\n  <<: *defaults\n  database: test\n", "{s:defaults=>{s:adapter=>s:postgres,s:host=>s:localhost},s:development=>{s:database=>s:dev,s:adapter=>s:postgres,s:host=>s:localhost},s:test=>{s:adapter=>s:postgres,s:host=>s:localhost,s:database=>s:test}}"),
        ("a:\tb\nc:\t\td\ne: [1,\t2]\n{x:\ty}: z\n", "{s:a=>s:b,s:c=>s:d,s:e=>[i:1,i:2],{s:x=>s:y}=>s:z}"),
        ("key:\tvalue\nother:\t- x\n", "E:block sequence entries are not allowed in this context at line 2 column 8"),
        ("a:\n\t- 1\n", "E:found character that cannot start any token while scanning for the next token at line 2 column 1"),
        ("a:\n  b:\tc\n  d:\t'e'\n", "{s:a=>{s:b=>s:c,s:d=>s:e}}"),
        ("a:\n  b: [c,\nd,\n  e]\n", "{s:a=>{s:b=>[s:c,s:d,s:e]}}"),
        ("- [a,\nb]\n", "[[s:a,s:b]]"),
        ("a: {b: 1,\nc: 2}\n", "{s:a=>{s:b=>i:1,s:c=>i:2}}"),
        ("a: 'x'#c\nb: \"y\"#d\n", "{s:a=>s:x,s:b=>s:y}"),
        ("[a]#c\n", "[s:a]"),
        ("]\n", "E:did not find expected node content while parsing a block node at line 1 column 1"),
        ("--- ]\n", "E:did not find expected node content while parsing a block node at line 1 column 5"),
        ("a: ]\n", "E:did not find expected node content while parsing a block node at line 1 column 4"),
        ("[1]\n]\n", "[i:1]"),
        ("- a\n]\n", "E:did not find expected '-' indicator while parsing a block collection at line 1 column 1"),
        ("[1, 2\n", "E:did not find expected ',' or ']' while parsing a flow sequence at line 1 column 1"),
        ("{a: 1\n", "E:did not find expected ',' or '}' while parsing a flow mapping at line 1 column 1"),
        ("a: &x\n  b: 1\nc: *x\nd:\n  <<: *x\n  e: 2\n", "{s:a=>{s:b=>i:1},s:c=>{s:b=>i:1},s:d=>{s:b=>i:1,s:e=>i:2}}"),
        ("a: &a [1, 2]\nb: &b {k: v}\nc: [*a, *b]\nd: {<<: [*b, {z: 1}]}\n", "{s:a=>[i:1,i:2],s:b=>{s:k=>s:v},s:c=>[[i:1,i:2],{s:k=>s:v}],s:d=>{s:z=>i:1,s:k=>s:v}}"),
        ("- &x foo\n- *x\n- &x bar\n- *x\n", "[s:foo,s:foo,s:bar,s:bar]"),
        ("a: !!binary |\n  aGVsbG8g\n  d29ybGQ=\nb: !binary /w==\n", "{s:a=>s:hello world,s:b=>b:ff}"),
        ("a: !!set {x, y}\n", "E:Tried to load unspecified class: Psych::Set"),
        ("a: !ruby/object:Foo {}\n", "E:Tried to load unspecified class: Foo"),
        ("a: !ruby/object:Foo\n  x: 1\n", "E:Tried to load unspecified class: Foo"),
        ("a: :sym\n:b: c\n:\"q\": d\n", "{s:a=>y:sym,y:b=>s:c,y:q=>s:d}"),
        ("a: 1_000\nb: 0o17\nc: 0x_1F\nd: 1:20\ne: 190:20:30\nf: 1:20.5\ng: .5\nh: 1e3\ni: 6.02e+23\n", "{s:a=>i:1000,s:b=>s:0o17,s:c=>i:31,s:d=>i:4800,s:e=>i:685230,s:f=>f:40b2de0000000000,s:g=>f:3fe0000000000000,s:h=>s:1e3,s:i=>f:44dfde9f10a8d361}"),
        ("a: |-\n  x\n  y\nb: >+\n  x\n  y\n\nc: 1\n", "{s:a=>s:x\\u{a}y,s:b=>s:x y\\u{a}\\u{a},s:c=>i:1}"),
        ("a: >\n  folded\n    more\n  back\n", "{s:a=>s:folded\\u{a}  more\\u{a}back\\u{a}}"),
        ("a: |\n  \ttab inside\n", "E:found a tab character where an indentation space is expected while scanning a block scalar at line 1 column 4"),
        ("a: |2\n  \tx\n", "{s:a=>s:\\u{9}x\\u{a}}"),
        ("a: |\n  x\n  \ty\n", "{s:a=>s:x\\u{a}\\u{9}y\\u{a}}"),
        ("a: |\n    x\n  \ty\n", "E:found a tab character where an indentation space is expected while scanning a block scalar at line 1 column 4"),
        ("- |\n x\n-\ty\n", "E:found character that cannot start any token while scanning for the next token at line 3 column 2"),
        ("a: \"line1\n  line2\"\n", "{s:a=>s:line1 line2}"),
        ("a: 'it''s'\n", "{s:a=>s:it's}"),
        ("a: \"\\x41\\u00e9\\U0001F600\"\n", "{s:a=>s:A\\u{e9}\\u{1f600}}"),
        ("a: b\n# comment\n\n# more\nc: d\n", "{s:a=>s:b,s:c=>s:d}"),
        ("a: 1 # c\nb: 2 #c\n", "{s:a=>i:1,s:b=>i:2}"),
        ("--- !!map\na: 1\n", "{s:a=>i:1}"),
        ("--- !!seq\n- 1\n", "[i:1]"),
        ("--- !!str\n", "s:"),
        ("--- !!null\n", "nil"),
        ("--- |\n", "s:"),
        ("a:\n- 1\n- 2\nb: 3\n", "{s:a=>[i:1,i:2],s:b=>i:3}"),
        ("a:\n  - b: 1\n    c: 2\n  - d\n", "{s:a=>[{s:b=>i:1,s:c=>i:2},s:d]}"),
        ("? [a, b]\n: c\n? {x: 1}\n: d\n", "{[s:a,s:b]=>s:c,{s:x=>i:1}=>s:d}"),
        ("a: 1\n---\nb: 2\n", "{s:a=>i:1}"),
        ("--- 1\n--- 2\n", "i:1"),
        ("---\n...\n---\na: 1\n", "nil"),
        ("# only\n", "nil"),
        ("", "nil"),
        ("   \n\n", "nil"),
        ("null\n", "nil"),
        ("%YAML 1.1\n---\na: 1\n", "{s:a=>i:1}"),
        ("%YAML 1.1\n--- a\n", "s:a"),
        ("%TAG !e! tag:e:\n--- !e!x {a: 1}\n", "{s:a=>i:1}"),
        ("a: *b\n", "E:Unknown alias: b"),
        ("a: &b 1\nb: *b\n", "{s:a=>i:1,s:b=>i:1}"),
        ("a: b\n  c: d\n", "E:mapping values are not allowed in this context at line 2 column 4"),
        ("a:\n  - b\n  c: d\n", "E:did not find expected '-' indicator while parsing a block collection at line 2 column 3"),
        ("- a\n- b\n  - c\n", "[s:a,s:b - c]"),
        ("a: \"unterminated\n", "E:found unexpected end of stream while scanning a quoted scalar at line 1 column 4"),
        ("a: 'x\n---\n'", "E:found unexpected document indicator while scanning a quoted scalar at line 1 column 4"),
        ("a: \"\\xZZ\"\n", "E:did not find expected hexdecimal number while parsing a quoted scalar at line 1 column 4"),
        ("a: !<x\n", "E:did not find the expected '>' while scanning a tag at line 1 column 4"),
        ("a: |0\n x\n", "E:found an indentation indicator equal to 0 while scanning a block scalar at line 1 column 4"),
        ("a: >2-\n   x\n", "{s:a=>s: x}"),
        ("a: @x\n", "E:found character that cannot start any token while scanning for the next token at line 1 column 4"),
        ("a: `x\n", "E:found character that cannot start any token while scanning for the next token at line 1 column 4"),
        ("a: %x\n", "E:found character that cannot start any token while scanning for the next token at line 1 column 4"),
        ("%x\n", "E:found unknown directive name while scanning a directive at line 1 column 1"),
        ("@\n", "E:found character that cannot start any token while scanning for the next token at line 1 column 1"),
        ("- a: b: c\n", "E:mapping values are not allowed in this context at line 1 column 7"),
        ("a:\n - b\n -c\n", "E:could not find expected ':' while scanning a simple key at line 3 column 2"),
        ("a: 'b'\n  c: d\n", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("a: [b: c, d]\n", "{s:a=>[{s:b=>s:c},s:d]}"),
        ("[a: 1, b]\n", "[{s:a=>i:1},s:b]"),
        ("{a: [1, 2], b: {c: d}}\n", "{s:a=>[i:1,i:2],s:b=>{s:c=>s:d}}"),
        ("a: !foo bar\nb: !foo {x: 1}\nc: !foo [1]\n", "{s:a=>s:bar,s:b=>{s:x=>i:1},s:c=>[i:1]}"),
        ("! a: b\n", "{s:a=>s:b}"),
        ("!!str a: b\n", "{s:a=>s:b}"),
        ("!!int '1': b\n", "{i:1=>s:b}"),
        ("a: 0b1_0\nb: -0b11\nc: 0777\nd: -0x1F\ne: +12\nf: 0\ng: -0\n", "{s:a=>i:2,s:b=>i:-3,s:c=>i:511,s:d=>i:-31,s:e=>i:12,s:f=>i:0,s:g=>i:0}"),
        ("a: 123456789012345678901234567890\nb: -123456789012345678901234567890\nc: 99999999999999999999:00\nd: -99999999999999999999:30\n", "{s:a=>i:123456789012345678901234567890,s:b=>i:-123456789012345678901234567890,s:c=>i:359999999999999999996400,s:d=>i:-359999999999999999994600}"),
        ("a: 1__0\nb: 1,000\nc: 1,0,0\nd: 12,345.6\ne: 1_0.5e-3\n", "{s:a=>s:1__0,s:b=>i:1000,s:c=>i:100,s:d=>f:40c81ccccccccccd,s:e=>f:3f85810624dd2f1b}"),
        ("key: value\n key2: value2\n", "E:mapping values are not allowed in this context at line 2 column 6"),
        ("key: [a, b\nother: c\n", "E:did not find expected ',' or ']' while parsing a flow sequence at line 1 column 6"),
        ("key: {a: b\nother: c\n", "E:did not find expected ',' or '}' while parsing a flow mapping at line 1 column 6"),
        ("key: \"unterminated\nother: c\n", "E:found unexpected end of stream while scanning a quoted scalar at line 1 column 6"),
        ("key: 'it's'\n", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("key: \"a\" \"b\"\n", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("key: value: other\n", "E:mapping values are not allowed in this context at line 1 column 11"),
        ("- a\nkey: b\n", "E:did not find expected '-' indicator while parsing a block collection at line 1 column 1"),
        ("key:\n- a\n- b\nkey2: c\n", "{s:key=>[s:a,s:b],s:key2=>s:c}"),
        ("key: %{hiera('x')}\n", "E:found character that cannot start any token while scanning for the next token at line 1 column 6"),
        ("key: '%{hiera('x')}'\n", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("key: \"%{::fqdn}\"\n", "{s:key=>s:%{::fqdn}}"),
        ("key: @foo\n", "E:found character that cannot start any token while scanning for the next token at line 1 column 6"),
        ("key: `cmd`\n", "E:found character that cannot start any token while scanning for the next token at line 1 column 6"),
        ("key: |\n  text\n key2: x\n", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("key: >\n text\nkey2: x\n", "{s:key=>s:text\\u{a},s:key2=>s:x}"),
        ("key:\n  - a\n  - b\n   - c\n", "{s:key=>[s:a,s:b - c]}"),
        ("key:\n  - a\n - b\n", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("a:\n  b:\n    c: 1\n   d: 2\n", "E:did not find expected key while parsing a block mapping at line 2 column 3"),
        ("a:\n  b: 1\n   c: 2\n", "E:mapping values are not allowed in this context at line 3 column 5"),
        ("a: 1\nb:\n  c: 2\n    d: 3\n", "E:mapping values are not allowed in this context at line 4 column 6"),
        ("- name: x\n  value: 1\n- name: y\n   value: 2\n", "E:mapping values are not allowed in this context at line 4 column 9"),
        ("a: b\n\tc: d\n", "E:found a tab character that violates indentation while scanning a plain scalar at line 1 column 4"),
        ("a:\n    b: 1\n\tc: 2\n", "E:found a tab character that violates indentation while scanning a plain scalar at line 2 column 8"),
        ("a: b  \t\n", "{s:a=>s:b}"),
        ("a: 'b'\t\t\n", "{s:a=>s:b}"),
        ("a: [1, 2]]\n", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("a: {b: 1}}\n", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("a: [1, 2,]\n", "{s:a=>[i:1,i:2]}"),
        ("a: [,]\n", "E:did not find expected node content while parsing a flow node at line 1 column 5"),
        ("a: {,}\n", "E:did not find expected node content while parsing a flow node at line 1 column 5"),
        ("a: *x\n", "E:Unknown alias: x"),
        ("a: &x 1\nb: *y\n", "E:Unknown alias: y"),
        ("a: !!int foo\nb: !!float foo\n", "E:invalid value for Float(): \"foo\""),
        ("a: !!float 1_000.5\n", "{s:a=>f:408f440000000000}"),
        ("a: !ruby/object:Puppet::Foo\n  x: 1\n", "E:Tried to load unspecified class: Puppet::Foo"),
        ("x: !ruby/sym foo\n", "{s:x=>y:foo}"),
        ("x: !ruby/regexp /a/\n", "E:Tried to load unspecified class: Regexp"),
        ("- - - - - - - - - - - - - - - - - - - - x\n", "[[[[[[[[[[[[[[[[[[[[s:x]]]]]]]]]]]]]]]]]]]]"),
        ("a:\n  <<: *x\n", "E:Unknown alias: x"),
        ("base: &b\n  x: 1\nc:\n  <<: *b\n  <<: *b\n", "{s:base=>{s:x=>i:1},s:c=>{s:x=>i:1}}"),
        ("a: b\n---\nc: [\n", "{s:a=>s:b}"),
        ("a: b\n--- !!set\n", "{s:a=>s:b}"),
        ("a: b\n...\n%YAML 9.9\n---\n", "{s:a=>s:b}"),
        ("key: value # comment with 'quote\n", "{s:key=>s:value}"),
        ("key: 'value' # comment\n", "{s:key=>s:value}"),
        ("key: value#notcomment\n", "{s:key=>s:value#notcomment}"),
        ("\"key\": value\n", "{s:key=>s:value}"),
        ("'key': 'value'\n", "{s:key=>s:value}"),
        ("? |\n  block key\n: v\n", "{s:block key\\u{a}=>s:v}"),
        ("a: 0.1\nb: -1.5e-3\nc: 1.0E+10\nd: +1.\ne: 00012\nf: 0009\ng: 1e5\n", "{s:a=>f:3fb999999999999a,s:b=>f:bf589374bc6a7efa,s:c=>f:4202a05f20000000,s:d=>f:3ff0000000000000,s:e=>i:10,s:f=>s:0009,s:g=>s:1e5}"),
        ("a: true\nb: True\nc: TRUE\nd: yes\ne: no\nf: on\ng: off\nh: y\ni: n\nj: ~\nk: null\nl: Null\nm:\n", "{s:a=>true,s:b=>true,s:c=>true,s:d=>true,s:e=>false,s:f=>true,s:g=>false,s:h=>s:y,s:i=>s:n,s:j=>nil,s:k=>nil,s:l=>nil,s:m=>nil}"),
        ("empty_map: {}\nempty_seq: []\nempty_str: ''\nempty_dq: \"\"\n", "{s:empty_map=>{},s:empty_seq=>[],s:empty_str=>s:,s:empty_dq=>s:}"),
        ("a: '1'\nb: \"2\"\nc: !!str 3\n", "{s:a=>s:1,s:b=>s:2,s:c=>s:3}"),
        ("a:\n  - &anchor\n    x: 1\n  - *anchor\n", "{s:a=>[{s:x=>i:1},{s:x=>i:1}]}"),
        ("\"a\\tb\": 1\n'a\\tb': 2\n", "{s:a\\u{9}b=>i:1,s:a\\\\tb=>i:2}"),
        ("? a\n", "{s:a=>nil}"),
        ("? a\n? b\n", "{s:a=>nil,s:b=>nil}"),
        ("?\n", "{nil=>nil}"),
        ("? : x\n", "E:did not find expected key while parsing a block mapping at line 1 column 3"),
        ("a: |\n  line1\n\n  line3\n\n\n", "{s:a=>s:line1\\u{a}\\u{a}line3\\u{a}}"),
        ("a: |-\n\n", "{s:a=>s:}"),
        ("a: >\n\n  x\n", "{s:a=>s:\\u{a}x\\u{a}}"),
        ("- a\n-\n- b\n", "[s:a,nil,s:b]"),
        ("-\n-\n", "[nil,nil]"),
        ("- - \n", "[[nil]]"),
        ("a: 'x\n\n\n  y'\n", "{s:a=>s:x\\u{a}\\u{a}y}"),
        ("a: \"x\\\n\n  y\"\n", "{s:a=>s:x\\u{a}y}"),
        ("a:\tb\nc: \"x:\ty\"\nd: |\n  k:\tv\ne:\tf\n", "{s:a=>s:b,s:c=>s:x:\\u{9}y,s:d=>s:k:\\u{9}v\\u{a},s:e=>s:f}"),
        ("a:\tb\nc: 'x:\ty\n  z:\tw'\ne:\tf\n", "{s:a=>s:b,s:c=>s:x:\\u{9}y z:\\u{9}w,s:e=>s:f}"),
        ("a:\t-1\nb: >\n  p:\tq\n  r:\ts\nc:\t- x\n", "E:block sequence entries are not allowed in this context at line 5 column 4"),
        ("a:\tb\n# c:\td\ne:\tf\n", "{s:a=>s:b,s:e=>s:f}"),
        ("a:\tb\n? x\n:\ty\n", "E:found character that cannot start any token while scanning for the next token at line 3 column 2"),
        ("a:\tb\nc:\t\t[1,\t2]\nd:\t{e:\tf}\n", "{s:a=>s:b,s:c=>[i:1,i:2],s:d=>{s:e=>s:f}}"),
        ("x:\n  a:\tb\n  c:\t'd'\n  e:\t&x f\n  g:\t*x\n", "{s:x=>{s:a=>s:b,s:c=>s:d,s:e=>s:f,s:g=>s:f}}"),
        ("a:\t1\nb: 2001-01-01\nc:\t[\n", "E:did not find expected node content while parsing a flow node at line 4 column 1"),
        ("a:\tb\nc:\td:\te\n", "E:mapping values are not allowed in this context at line 2 column 5"),
        ("{a: }", "{s:a=>nil}"),
        ("{a: , b: 1}", "{s:a=>nil,s:b=>i:1}"),
        ("[a: ]", "[{s:a=>nil}]"),
        ("[a: , b]", "[{s:a=>nil},s:b]"),
        ("x: {a: }\n", "{s:x=>{s:a=>nil}}"),
        ("{a: ~}", "{s:a=>nil}"),
        ("[-, x]", "[s:-,s:x]"),
        ("[-]", "[s:-]"),
        ("{*: -1}", "E:did not find expected alphabetic or numeric character while scanning an alias at line 1 column 2"),
        ("1:\n- }\n", "E:did not find expected node content while parsing a block node at line 2 column 3"),
        ("[\t, +.5]\n", "E:did not find expected node content while parsing a flow node at line 1 column 3"),
        ("k:\n- >+\n  1_000\n\t\n  more\n", "E:found a tab character where an indentation space is expected while scanning a block scalar at line 2 column 3"),
        ("- >\n  x\n\t\n  more\n", "E:found a tab character where an indentation space is expected while scanning a block scalar at line 1 column 3"),
        ("a: >\n  x\n\t\n  more\n", "E:found a tab character where an indentation space is expected while scanning a block scalar at line 1 column 4"),
        ("<<: ['m', &a67 :sym]\n", "{s:<<=>[s:m,{nil=>s:sym}]}"),
        ("[&a :sym]", "[{nil=>s:sym}]"),
        ("{a: [&a :x]}", "{s:a=>[{nil=>s:x}]}"),
        ("~: x\ne:\n  key: '\n \t :s: '\n", "{nil=>s:x,s:e=>{s:key=>s: :s: }}"),
        ("a: '\n\t x'\n", "{s:a=>s: x}"),
        ("{?: 'it''s', b: 1}\n", "{nil=>s:it's,s:b=>i:1}"),
        ("[x: y, !]\n", "E:did not find expected whitespace or line break while scanning a tag at line 1 column 8"),
        ("a: [!]\n", "E:did not find expected whitespace or line break while scanning a tag at line 1 column 5"),
        ("{a: !}\n", "E:did not find expected whitespace or line break while scanning a tag at line 1 column 5"),
        ("[!foo y]\n", "[s:y]"),
        ("[!!str , a]\n", "[s:,s:a]"),
        ("a: ~\n", "{s:a=>nil}"),
        ("~: {}\n", "{nil=>{}}"),
        ("1: <<\n", "{i:1=>s:<<}"),
        ("b: [,]\n", "E:did not find expected node content while parsing a flow node at line 1 column 5"),
        ("\u{e9}: - x\n", "E:block sequence entries are not allowed in this context at line 1 column 4"),
        ("\u{e9} : {}\n", "{s:\\u{e9}=>{}}"),
        ("? c: ~\n", "{{s:c=>nil}=>nil}"),
        ("? c: on\n", "{{s:c=>true}=>nil}"),
        ("'k': []\n", "{s:k=>[]}"),
        ("1: .inf\n", "{i:1=>f:7ff0000000000000}"),
        ("x y:\t No\n", "{s:x y=>false}"),
        ("\"k k\": 1\n", "{s:k k=>i:1}"),
        (":s:\t Yes\n", "{y:s=>true}"),
        ("key:\t []\n", "{s:key=>[]}"),
        ("\"k k\": <<\n", "{s:k k=>s:<<}"),
        ("'k': null\n", "{s:k=>nil}"),
        ("b: &a59 1\n", "{s:b=>i:1}"),
        ("'k' : +.5\n", "{s:k=>f:3fe0000000000000}"),
        ("key:\t 1:20\n", "{s:key=>i:4800}"),
        ("b : &a50 1\n", "{s:b=>i:1}"),
        ("---\n:s : ?x\n", "{y:s=>s:?x}"),
        ("---\n:s: 1e3\n", "{y:s=>s:1e3}"),
        ("key: &a81 No\n", "{s:key=>false}"),
        ("---\n? c:\t []\n", "{{s:c=>[]}=>nil}"),
        ("---\na: [012]\n", "{s:a=>[i:10]}"),
        ("b: null\n\u{e9}: -1\n", "{s:b=>nil,s:\\u{e9}=>i:-1}"),
        ("~:\n  - [+.5,]\n", "{nil=>[[f:3fe0000000000000]]}"),
        ("1: :sym\nb: a#b\n", "{i:1=>y:sym,s:b=>s:a#b}"),
        ("a\tb:\t &a54 1e3\n", "{s:a\\u{9}b=>s:1e3}"),
        ("---\n~: 'it''s'\n", "{nil=>s:it's}"),
        ("? c: 1.\n'k': 1.\n", "{{s:c=>f:3ff0000000000000}=>nil,s:k=>f:3ff0000000000000}"),
        ("b: [,]\na\tb : -1\n", "E:did not find expected node content while parsing a flow node at line 1 column 5"),
        ("---\n\u{e9}: [\u{e9}, 1:20]\n", "{s:\\u{e9}=>[s:\\u{e9},i:4800]}"),
        ("? c:\t 0x1F\n\u{e9} : \u{e9}\n", "{{s:c=>i:31}=>nil,s:\\u{e9}=>s:\\u{e9}}"),
        ("1 : http://x.y/z\n", "{i:1=>s:http://x.y/z}"),
        ("<<:\t +.5\n1: 0b11\n", "{s:<<=>f:3fe0000000000000,i:1=>i:3}"),
        ("a: \"multi\n  line\"\n", "{s:a=>s:multi line}"),
        ("---\n:s: !!int \"2\"\n", "{y:s=>i:2}"),
        ("a\tb: http://x.y/z\n", "{s:a\\u{9}b=>s:http://x.y/z}"),
        ("? c:\t\n    :s: 012\n", "{{s:c=>{y:s=>i:10}}=>nil}"),
        ("1 : >\n  ~\n\t\n  more\n", "E:found a tab character where an indentation space is expected while scanning a block scalar at line 1 column 5"),
        ("~ : \"multi\n  line\"\n", "{nil=>s:multi line}"),
        ("a\tb: &a97 1\n<<:\t 1\n", "{s:a\\u{9}b=>i:1,s:<<=>i:1}"),
        ("---\nprofile::x : <<\n", "{s:profile::x=>s:<<}"),
        ("x y: \"multi\n  line\"\n", "{s:x y=>s:multi line}"),
        ("1 : 'multi\n\n  line'\n", "{i:1=>s:multi\\u{a}line}"),
        ("---\na: {b: &a70 -1}\n", "{s:a=>{s:b=>i:-1}}"),
        ("a\tb:\t \"multi\n  line\"\n", "{s:a\\u{9}b=>s:multi line}"),
        ("x y : !!str 1\nx y: =\n", "{s:x y=>s:=}"),
        ("a\tb : \"%{hiera('x')}\"\n", "{s:a\\u{9}b=>s:%{hiera('x')}}"),
        ("\u{e9} : &a4 a\n<<:\t \"d\\tq\"\n", "{s:\\u{e9}=>s:a,s:<<=>s:d\\u{9}q}"),
        ("b:\t Yes\n~ : [,]\nb: []\n", "E:did not find expected node content while parsing a flow node at line 2 column 6"),
        ("profile::x : [!!str 1]\n", "{s:profile::x=>[s:1]}"),
        ("~: a#b\nprofile::x: Yes\n", "{nil=>s:a#b,s:profile::x=>true}"),
        ("\u{e9}: &a87 \"%{hiera('x')}\"\n", "{s:\\u{e9}=>s:%{hiera('x')}}"),
        ("a: {}\n:s:\t plain\n  cont\n", "{s:a=>{},y:s=>s:plain cont}"),
        ("x y: !!int \"2\"\n\u{e9}: [! x,]\n", "{s:x y=>i:2,s:\\u{e9}=>[s:x]}"),
        ("---\nkey: [!!str 1, x -,]\n", "{s:key=>[s:1,s:x -]}"),
        ("\u{e9}: 1.\n? c : [1]\na\tb:\t x -\n", "{s:\\u{e9}=>f:3ff0000000000000,{s:c=>[i:1]}=>nil,s:a\\u{9}b=>s:x -}"),
        ("1:\n  - {}\n  - [1., 1,000]\n", "{i:1=>[{},[f:3ff0000000000000,i:1,i:0]]}"),
        ("---\n:s: a\na: +.5\nkey: 0x1F\n", "{y:s=>s:a,s:a=>f:3fe0000000000000,s:key=>i:31}"),
        ("---\n:s:\n  - &a15 !!int \"2\"\n", "{y:s=>[i:2]}"),
        ("b: &a16 \u{e9}\n\u{e9}:\t http://x.y/z\n", "{s:b=>s:\\u{e9},s:\\u{e9}=>s:http://x.y/z}"),
        ("? c:\n- [<<,]\n-\n-\n  <<: [-1]\n", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("<< : a\n\"k k\" : {a: 1, a: \u{e9}}\n", "{s:<<=>s:a,s:k k=>{s:a=>s:\\u{e9}}}"),
        ("b: {b: 1., c: 0x1F}\n? c: No\n", "{s:b=>{s:b=>f:3ff0000000000000,s:c=>i:31},{s:c=>false}=>nil}"),
        ("? c: No\nkey: 012\n? c: [1.5,]\n", "{{s:c=>false}=>nil,s:key=>i:10,{s:c=>[f:3ff8000000000000]}=>nil}"),
        ("x y : - x\nx y : [~, \u{e9}]\n1: on\n", "E:block sequence entries are not allowed in this context at line 1 column 7"),
        ("\"k k\":\t\n  profile::x: \"d\\tq\"\n", "{s:k k=>{s:profile::x=>s:d\\u{9}q}}"),
        ("profile::x: [,]\nx y: foo bar\n", "E:did not find expected node content while parsing a flow node at line 1 column 14"),
        ("b:\n  - 1\n  - -\n  - %{facts.x}\n", "E:found character that cannot start any token while scanning for the next token at line 4 column 5"),
        ("<<:\t a:b\na: |2\n  012\n\t\n  more\n", "E:found a tab character where an indentation space is expected while scanning a block scalar at line 2 column 4"),
        ("b: {a: a:b, :s: yes}\n\"k k\": {}\n", "E:did not find expected node content while parsing a flow node at line 1 column 13"),
        ("? c: 'it''s'\nprofile::x: 1_000\n", "{{s:c=>s:it's}=>nil,s:profile::x=>i:1000}"),
        ("? c:\t\n- ~\n- \"multi\n  line\"\n- No\n", "E:did not find expected key while parsing a block mapping at line 1 column 1"),
        ("---\n\"k k\" : 1e3\n\"k k\": &a32 x -\n", "{s:k k=>s:x -}"),
        ("a\tb:\n- &a74 %{facts.x}\n:s: .inf\n", "E:found character that cannot start any token while scanning for the next token at line 2 column 8"),
        ("---\n\"k k\" :\n- a\n? c:\t !!int \"2\"\n", "{s:k k=>[s:a],{s:c=>i:2}=>nil}"),
        ("---\n\u{e9}: 1,000\n~ : {}\na\tb:\t 1,000\n", "{s:\\u{e9}=>i:1000,nil=>{},s:a\\u{9}b=>i:1000}"),
        ("key:\t +.5\n1 : {c: \u{e9}}\nkey: \"a\\\"b\"\n", "{s:key=>s:a\\\"b,i:1=>{s:c=>s:\\u{e9}}}"),
        (":s: [!!int \"2\", !!int \"2\", a#b,]\n", "{y:s=>[i:2,i:2,s:a#b]}"),
        ("'k':\t \"%{hiera('x')}\"\n\"k k\":\t 1.5\n", "{s:k=>s:%{hiera('x')},s:k k=>f:3ff8000000000000}"),
        ("\u{e9}: |-\n  =\n\t\n  more\n:s:\t a\na\tb: on\n", "E:found a tab character where an indentation space is expected while scanning a block scalar at line 1 column 4"),
        ("---\n\"k k\":\t plain\n  cont\nx y:\t ?x\n", "{s:k k=>s:plain cont,s:x y=>s:?x}"),
        ("a: <<\n\u{e9}: {\"k\": plain\n  cont, b: -}\n", "{s:a=>s:<<,s:\\u{e9}=>{s:k=>s:plain cont,s:b=>s:-}}"),
        ("---\n\u{e9}: {c: \"%{hiera('x')}\"}\n\u{e9}:\t {}\n", "{s:\\u{e9}=>{}}"),
        ("1 : {:s: &a2 - x, a: :sym, 1: .inf}\n", "E:did not find expected node content while parsing a flow node at line 1 column 6"),
        ("x y:\t |2\n  \"d\\tq\"\n\t\n  more\nx y: a#b\n", "E:found a tab character where an indentation space is expected while scanning a block scalar at line 1 column 7"),
        ("key : No\n\u{e9}:\t \"%{hiera('x')}\"\nb: - x\n", "E:block sequence entries are not allowed in this context at line 3 column 4"),
        ("profile::x: {}\n~: &a13 http://x.y/z\n", "{s:profile::x=>{},nil=>s:http://x.y/z}"),
        ("a: &a8 1\n'k' : {c: &a16 1e3, c: *a8}\n", "{s:a=>i:1,s:k=>{s:c=>i:1}}"),
        ("b: on\nkey: |\n  \"multi   line\"\n  more\n", "{s:b=>true,s:key=>s:\\\"multi   line\\\"\\u{a}more\\u{a}}"),
        ("---\na:\n    \u{e9}: !!int \"2\"\n    \u{e9}: [a:b]\n", "{s:a=>{s:\\u{e9}=>[s:a:b]}}"),
        ("---\n<<: [,]\nprofile::x: [a, foo bar,]\n", "E:did not find expected node content while parsing a flow node at line 2 column 6"),
        ("\u{e9}: []\nx y:\t {\"k\": http://x.y/z, a: a}\n", "{s:\\u{e9}=>[],s:x y=>{s:k=>s:http://x.y/z,s:a=>s:a}}"),
        ("<< : |2\n  ~\n\n  more\nprofile::x: \"a\\\"b\"\n", "{s:<<=>s:~\\u{a}\\u{a}more\\u{a},s:profile::x=>s:a\\\"b}"),
        ("b : {:s: 1:20, :s: - x, \"k\": &a41 'q'}\n", "E:did not find expected node content while parsing a flow node at line 1 column 6"),
        ("1: on\n:s:\t -\na: [%{facts.x}, a#b, 1.,]\n", "E:block sequence entries are not allowed in this context at line 2 column 6"),
        ("~: 1,000\n<<:\t &a95 1:20\n:s: ?x\na\tb: -1\n", "{nil=>i:1000,s:<<=>i:4800,y:s=>s:?x,s:a\\u{9}b=>i:-1}"),
    ];

    #[test]
    fn huge_integers_load_in_linear_time_or_are_refused() {
        // Found by the soak runner: a scalar of 811 KB of digits took seconds.
        let digits = "5".repeat(1_000_000);
        let v = load(&format!("k: {digits}\n"), &YamlOptions::default())
            .unwrap()
            .unwrap();
        assert!(matches!(v.get("k"), Some(Value::BigInt(d)) if d.as_str() == digits));
        let v = load(&format!("k: -{digits}\n"), &YamlOptions::default())
            .unwrap()
            .unwrap();
        assert!(
            matches!(v.get("k"), Some(Value::BigInt(d)) if d.len() == digits.len() + 1 && d.starts_with('-'))
        );
        let octal = format!("k: 0{}\n", "7".repeat(MAX_NONDECIMAL_DIGITS + 1));
        let e = load(&octal, &YamlOptions::default()).unwrap_err();
        assert!(
            e.to_string()
                .contains("integer too large: 100002 characters in base 2, 8 or 16"),
            "{e}"
        );
        let hex = format!("k: 0x{}\n", "f".repeat(20_000));
        let v = load(&hex, &YamlOptions::default()).unwrap().unwrap();
        assert!(
            matches!(v.get("k"), Some(Value::BigInt(d)) if d.len() == 24_083),
            "{:.20?}",
            v.get("k")
        );
    }

    #[test]
    fn repairs_are_bounded() {
        // Found by the soak runner: each repair re-parses the document, and a
        // mutated 1 MiB file needed about 9,600 of them (544 s).
        let dashes = format!("k: [{}]\n", "-, ".repeat(20_000));
        let v = load(&dashes, &YamlOptions::default()).unwrap().unwrap();
        let k = v.get("k").unwrap().as_array().unwrap();
        assert_eq!(k.len(), 20_000);
        assert!(k.iter().all(|x| x.as_str() == Some("-")));
        let quoted: String = (0..200).map(|i| format!("k{i}: \"a\nb\"\n")).collect();
        let v = load(&quoted, &YamlOptions::default()).unwrap().unwrap();
        assert_eq!(v.get("k199"), Some(&Value::from("a b")));
        let many: String = (0..20_000).map(|i| format!("k{i}: \"a\nb\"\n")).collect();
        let e = load(&many, &YamlOptions::default()).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("document too complex to parse (it needs more than 31 repairs"),
            "{e}"
        );
        // Found by the soak runner: each of 1,677 repairs of an 87 KB document
        // (lines under a deep flow mapping) took 12 ms.
        let mut flow = format!("k:\n  {}\n", "{a: ".repeat(150));
        flow.push_str(&"k7: \n   \n".repeat(9_000));
        let e = load(&flow, &YamlOptions::default()).unwrap_err();
        assert!(
            e.to_string().starts_with("document too complex to parse"),
            "{e}"
        );
    }
}
