//! Dotted keys: `a.b.'c.d'.0`, split the way Puppet's `SubLookup#split_key`
//! splits them, and the "dig" into a found value.

use crate::error::{Error, ErrorKind, Result};
use crate::value::Value;
use std::sync::Arc;

/// One segment of a dotted key after the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    /// A string segment (quoted, or unquoted and not integer-like).
    Name(String),
    /// An unquoted integer-like segment (`1`, `-1`, `+2`).
    Index(i64),
}

impl Segment {
    /// The segment as a hash key.
    pub fn to_value(&self) -> Value {
        match self {
            Segment::Name(s) => Value::string(s.as_str()),
            Segment::Index(i) => Value::Int(*i),
        }
    }
}

impl std::fmt::Display for Segment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Segment::Name(s) => f.write_str(s),
            Segment::Index(i) => write!(f, "{i}"),
        }
    }
}

/// A key that Puppet's key splitter rejects ("Syntax error").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyntaxError;

/// Splits `key` into segments as Puppet's `SubLookup#split_key` does. The
/// first element is the root (an integer-like root is refused by
/// [`LookupKey::parse`] with Puppet's own NoMethodError text).
///
/// `Err(SyntaxError)` means "Syntax error"; the caller words the message.
pub fn split_key(key: &str) -> std::result::Result<Vec<Segment>, SyntaxError> {
    let bytes = key.as_bytes();
    if !has_dot_or_quote(bytes) {
        return Ok(vec![Segment::Name(key.to_string())]);
    }
    if memchr::memchr2(b'\'', b'"', bytes).is_none() {
        return split_unquoted(key);
    }
    split_tokens(key)
}

/// [`split_key`] by Puppet's tokenizer (any key with a dot or a quote).
fn split_tokens(key: &str) -> std::result::Result<Vec<Segment>, SyntaxError> {
    let bytes = key.as_bytes();
    // Tokenise into: quoted strings (with surrounding whitespace), runs of
    // characters other than quotes and dots, and the separators between
    // them (which must each be exactly ".").
    let mut segments: Vec<Segment> = Vec::new();
    let mut separators: Vec<&str> = Vec::new();
    let mut pos = 0;
    let mut last_end = 0;
    let mut first = true;
    while pos < bytes.len() {
        // Try to match a token at `pos` (leftmost match, as Ruby's split).
        if let Some((start, end, seg)) = match_token(key, pos) {
            let gap = &key[last_end..start];
            if first {
                if !gap.is_empty() {
                    return Err(SyntaxError);
                }
                first = false;
            } else {
                separators.push(gap);
            }
            segments.push(seg);
            last_end = end;
            pos = end;
        } else {
            pos += 1;
        }
    }
    if segments.is_empty() || first {
        return Err(SyntaxError);
    }
    let trailing = &key[last_end..];
    if !trailing.is_empty() {
        return Err(SyntaxError);
    }
    if separators.iter().any(|s| *s != ".") {
        return Err(SyntaxError);
    }
    Ok(segments)
}

/// Whether a key has a dot or a quote: byte by byte, where `str::contains`
/// of a `char` array decodes each character (a few hundred instructions a
/// key, twice per dotted lookup).
#[inline]
fn has_dot_or_quote(bytes: &[u8]) -> bool {
    memchr::memchr3(b'.', b'\'', b'"', bytes).is_some()
}

/// [`split_key`] of a key with a dot and no quote: the tokenizer's tokens
/// are then the runs between dots, so the key splits at each dot, and it is
/// a syntax error exactly when a run is empty (a dot first or last, or two
/// together: the tokenizer's gap before the first token, trailing text or a
/// separator other than "."). Each run is trimmed and classified as the
/// tokenizer's third alternative does.
fn split_unquoted(key: &str) -> std::result::Result<Vec<Segment>, SyntaxError> {
    let mut segments = Vec::with_capacity(4);
    for run in key.split('.') {
        if run.is_empty() {
            return Err(SyntaxError);
        }
        segments.push(classify(trim_run(run)));
    }
    Ok(segments)
}

/// An unquoted run without the ASCII whitespace around it.
fn trim_run(run: &str) -> &str {
    run.trim_matches(|c: char| c.is_ascii_whitespace())
}

/// Matches one token exactly at `i` (the regexp's alternatives in order);
/// returns (start, end, segment), or `None` when no token starts there.
fn match_token(key: &str, i: usize) -> Option<(usize, usize, Segment)> {
    let bytes = key.as_bytes();
    if i >= bytes.len() {
        return None;
    }
    // Alternatives 1 and 2: \s*"[^"]+"\s* or \s*'[^']+'\s*
    let mut j = i;
    while j < bytes.len() && is_space(bytes[j]) {
        j += 1;
    }
    if j < bytes.len() && (bytes[j] == b'"' || bytes[j] == b'\'') {
        let q = bytes[j];
        if let Some(close) = key[j + 1..].find(q as char) {
            if close > 0 {
                let inner = &key[j + 1..j + 1 + close];
                let mut end = j + 1 + close + 1;
                while end < bytes.len() && is_space(bytes[end]) {
                    end += 1;
                }
                return Some((i, end, Segment::Name(inner.to_string())));
            }
        }
    }
    // Alternative 3: [^'".]+
    if matches!(bytes[i], b'\'' | b'"' | b'.') {
        // Only a quote could match here, and it did not: the text at i is a
        // separator or a stray quote. The caller moves on.
        return None;
    }
    let mut end = i;
    while end < bytes.len() && !matches!(bytes[end], b'\'' | b'"' | b'.') {
        end += 1;
    }
    Some((i, end, classify(trim_run(&key[i..end]))))
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c')
}

/// Unquoted segments matching `^(:?[+-]?[0-9]+)$` become Integers (Ruby
/// `to_i`, so a leading `:` gives 0).
fn classify(raw: &str) -> Segment {
    match index_segment(raw) {
        Some(i) => Segment::Index(i),
        None => Segment::Name(raw.to_string()),
    }
}

/// The index an unquoted segment stands for, when it is integer-like (see
/// [`split_key`]); `None` for a name.
pub fn index_segment(raw: &str) -> Option<i64> {
    let body = raw.strip_prefix(':');
    let digits = body.unwrap_or(raw);
    let unsigned = digits.strip_prefix(['+', '-']).unwrap_or(digits);
    if !unsigned.is_empty() && unsigned.bytes().all(|b| b.is_ascii_digit()) {
        if body.is_some() {
            return Some(0);
        }
        return Some(digits.parse::<i64>().unwrap_or(if digits.starts_with('-') {
            i64::MIN
        } else {
            i64::MAX
        }));
    }
    None
}

/// The module name of a root key: the part before the first `::`.
pub fn module_of(root: &str) -> Option<&str> {
    root.as_bytes()
        .windows(2)
        .position(|w| w == b"::")
        .map(|n| &root[..n])
}

/// A parsed lookup key: its root, its sub-key segments and its module.
#[derive(Clone, Debug)]
pub struct LookupKey {
    /// The key as given.
    pub key: Arc<str>,
    /// The root key (first segment); the same allocation as `key` when the
    /// key is not dotted.
    pub root: Arc<str>,
    /// The segments after the root (empty when the key is not dotted).
    pub segments: Vec<Segment>,
    /// The length of the module name at the start of `root`.
    module_len: Option<usize>,
}

impl LookupKey {
    /// Parses a lookup key; errors are worded `Syntax error in key: '<key>'`.
    pub fn parse(key: &str) -> Result<LookupKey> {
        let whole: Arc<str> = Arc::from(key);
        if !has_dot_or_quote(key.as_bytes()) {
            return Ok(LookupKey::plain(whole));
        }
        let syntax = || Error::new(ErrorKind::Lookup, format!("Syntax error in key: '{key}'"));
        let mut segs = split_key(key).map_err(|_| syntax())?;
        let root = match segs.remove(0) {
            Segment::Name(s) => s,
            // Puppet 7.23 fails with Ruby's NoMethodError here; say the same.
            Segment::Index(i) => {
                return Err(Error::new(
                    ErrorKind::Lookup,
                    format!("undefined method `index' for {i}:Integer"),
                ))
            }
        };
        let module_len = module_of(&root).map(str::len);
        Ok(LookupKey {
            key: whole,
            root: Arc::from(root),
            segments: segs,
            module_len,
        })
    }

    /// A key of one segment (no dots or quotes), taken as it is.
    pub fn plain(key: Arc<str>) -> LookupKey {
        let module_len = module_of(&key).map(str::len);
        LookupKey {
            root: Arc::clone(&key),
            key,
            segments: Vec::new(),
            module_len,
        }
    }

    /// The module name: the part of the root before the first `::`.
    pub fn module(&self) -> Option<&str> {
        self.module_len.map(|n| &self.root[..n])
    }

    /// Digs the sub-keys into `value`; `Ok(None)` is "not found".
    pub fn dig(&self, value: Value) -> Result<Option<Value>> {
        dig(&self.key, &self.segments, value)
    }
}

/// Digs `segments` into `value` with Puppet's rules; `key` is used in messages.
pub fn dig(key: &str, segments: &[Segment], mut value: Value) -> Result<Option<Value>> {
    for seg in segments {
        let seg = match seg {
            Segment::Name(name) => SegmentRef::Name(name),
            Segment::Index(i) => SegmentRef::Index(*i),
        };
        match dig_step(key, &value, seg)? {
            Some(next) => value = next,
            None => return Ok(None),
        }
    }
    Ok(Some(value))
}

/// A [`Segment`] borrowed from its key's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SegmentRef<'a> {
    /// A string segment.
    Name(&'a str),
    /// An integer-like segment.
    Index(i64),
}

impl<'a> SegmentRef<'a> {
    /// The segment of an unquoted run of a key, trimmed and classified as
    /// [`split_key`] does.
    pub fn unquoted(run: &'a str) -> SegmentRef<'a> {
        let raw = trim_run(run);
        match index_segment(raw) {
            Some(i) => SegmentRef::Index(i),
            None => SegmentRef::Name(raw),
        }
    }
}

impl std::fmt::Display for SegmentRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SegmentRef::Name(s) => f.write_str(s),
            SegmentRef::Index(i) => write!(f, "{i}"),
        }
    }
}

/// One step of [`dig`]: the element or entry of `value` that `seg` names
/// (`Ok(None)`: not found, or `value` is nil), or Puppet's error.
pub fn dig_step(key: &str, value: &Value, seg: SegmentRef<'_>) -> Result<Option<Value>> {
    match (value, seg) {
        (Value::Nil, _) => Ok(None),
        (Value::Array(a), SegmentRef::Index(i)) => {
            if i < 0 || (i as usize) >= a.len() {
                return Ok(None);
            }
            Ok(Some(a[i as usize].clone()))
        }
        (Value::Hash(h), _) => {
            let found = match seg {
                SegmentRef::Name(name) => h.get(&crate::value::Key(name)),
                SegmentRef::Index(i) => h.get(&Value::Int(i)),
            };
            Ok(found.cloned())
        }
        (Value::Int(_) | Value::BigInt(_) | Value::Symbol(_), _) => {
            Err(crate::ruby::errors::no_method("include?", value))
        }
        _ => Err(Error::new(
            ErrorKind::Type,
            format!(
                "Data Provider type mismatch: Got {} when a hash-like object was expected to access value using '{}' from key '{}'",
                value.ruby_class(),
                seg,
                key
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(key: &str) -> Vec<Segment> {
        split_key(key).unwrap()
    }

    #[test]
    fn plain_key_is_one_segment() {
        assert_eq!(
            names("ntp::servers"),
            vec![Segment::Name("ntp::servers".into())]
        );
        assert_eq!(names(" a b "), vec![Segment::Name(" a b ".into())]);
    }

    #[test]
    fn dotted_and_quoted() {
        assert_eq!(
            names("a.b.'c.d'.\"e f\""),
            vec![
                Segment::Name("a".into()),
                Segment::Name("b".into()),
                Segment::Name("c.d".into()),
                Segment::Name("e f".into())
            ]
        );
        assert_eq!(names("'a. b'"), vec![Segment::Name("a. b".into())]);
        assert_eq!(
            names("a . b"),
            vec![Segment::Name("a".into()), Segment::Name("b".into())]
        );
    }

    #[test]
    fn integer_segments() {
        assert_eq!(
            names("l.1"),
            vec![Segment::Name("l".into()), Segment::Index(1)]
        );
        assert_eq!(
            names("l.-1"),
            vec![Segment::Name("l".into()), Segment::Index(-1)]
        );
        assert_eq!(
            names("l.+2"),
            vec![Segment::Name("l".into()), Segment::Index(2)]
        );
        assert_eq!(
            names("l.:7"),
            vec![Segment::Name("l".into()), Segment::Index(0)]
        );
        assert_eq!(
            names("l.'1'"),
            vec![Segment::Name("l".into()), Segment::Name("1".into())]
        );
    }

    #[test]
    fn syntax_errors() {
        for bad in [
            "a..b",
            "a.''.b",
            ".a",
            "a.",
            "a.'pa'b",
            "'a",
            ".*::ports",
            "a.\"b'",
        ] {
            assert!(split_key(bad).is_err(), "{bad} should be a syntax error");
        }
    }

    /// The split of a key with a dot and no quote is the tokenizer's, on
    /// every key of up to five characters from the characters that matter
    /// (dots, spaces, a vertical tab, which `is_space` skips but the
    /// trim keeps, signs, digits, a colon).
    #[test]
    fn an_unquoted_key_splits_as_the_tokenizer_splits_it() {
        const CHARS: [char; 9] = ['.', 'a', ' ', '\t', '\x0b', '1', '-', ':', '+'];
        let mut keys = vec![String::new()];
        let mut checked = 0;
        for _ in 0..5 {
            let mut next = Vec::new();
            for k in &keys {
                for c in CHARS {
                    let key = format!("{k}{c}");
                    if key.contains('.') {
                        assert_eq!(split_unquoted(&key), split_tokens(&key), "{key:?}");
                        assert_eq!(split_key(&key), split_tokens(&key), "{key:?}");
                        checked += 1;
                    }
                    next.push(key);
                }
            }
            keys = next;
        }
        assert!(checked > 10_000);
        assert_eq!(
            names("a. \x0b1 .b"),
            vec![
                Segment::Name("a".into()),
                Segment::Name("\x0b1".into()),
                Segment::Name("b".into())
            ]
        );
    }

    #[test]
    fn lookup_key_module() {
        let k = LookupKey::parse("mod::x.y").unwrap();
        assert_eq!(&*k.root, "mod::x");
        assert_eq!(k.module(), Some("mod"));
        assert_eq!(k.segments, vec![Segment::Name("y".into())]);
        assert!(LookupKey::parse("plain").unwrap().module().is_none());
        assert_eq!(LookupKey::parse("a::b").unwrap().module(), Some("a"));
    }
}
