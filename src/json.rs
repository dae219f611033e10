//! The JSON data-file loader: reads JSON exactly as Ruby's `JSON.parse`
//! does with json 2.6.1 (Ruby 3.1), the parser Puppet 7's `json_data`
//! backend uses.
//!
//! What this reproduces (each point checked against `ruby -rjson`):
//!
//! * `/* */` and `//` comments count as whitespace (a `//` comment must be
//!   ended by a newline); the only other whitespace is space, tab, CR, LF.
//! * `NaN`, `Infinity` and `-Infinity` are rejected, with json's messages.
//! * A number with a fraction or an exponent is a Float (`1e3` → `1000.0`,
//!   `1e400` → `Infinity`, `-0.0`); any other number is an Integer of any
//!   size (`-0` → `0`; beyond 64 bits → [`Value::BigInt`]).
//! * A duplicate key keeps its first position and takes the last value.
//! * The top level may be any value; empty input is an error.
//! * Unknown escapes drop the backslash (`"\q"` → `q`); raw control
//!   characters in strings are errors; `\u` escapes are decoded the way the
//!   C extension does, including its surrogate quirks (an unpaired high
//!   surrogate followed by six more characters becomes `?` and swallows the
//!   next character; a lone low surrogate becomes invalid UTF-8, returned as
//!   [`Value::Bytes`]); invalid UTF-8 inside strings is passed through.
//! * Nesting deeper than 100 arrays/objects fails with
//!   `nesting of 101 is too deep`; the parser never recurses deeper than
//!   that, so it cannot overflow the stack.
//! * Error messages are json 2.6.1's, with the C parser's line-number
//!   prefix: `859: unexpected token at '<rest of input>'` at the top level,
//!   `451: ...` inside an array (an error inside an object is reported at the
//!   start of the outermost object enclosing it below the nearest array or
//!   the top level, as json does), `225:`/`232:`/`249:` for
//!   `NaN`/`Infinity`/`-Infinity`, `521: incomplete surrogate pair at '...'`.
//!   The quoted text is the rest of the input from the error position, cut
//!   at a NUL byte as C's `%s` does.

use crate::error::Error;
use crate::value::{ArcStr, Str};
use crate::value::{Map, Value};
use std::fmt;
use std::path::Path;
use std::sync::Arc;

/// Ruby json's default `max_nesting`.
pub const MAX_NESTING: usize = 100;

/// A JSON parse failure: Ruby's message and, as extra information for
/// programs, the 1-based line of the error position (Ruby reports none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    /// The message exactly as Ruby's `JSON::ParserError#message`.
    pub message: String,
    /// The 1-based line of the position the error is reported at.
    pub line: Option<usize>,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for JsonError {}

impl JsonError {
    /// Puppet's `Unable to parse (<path>): <message>` parse error.
    pub fn into_error(self, path: &Path) -> Error {
        Error::parse(path, &self.message, self.line)
    }
}

/// Parses JSON text as Ruby's `JSON.parse(text)` does.
pub fn load(text: &str) -> Result<Value, JsonError> {
    load_bytes(text.as_bytes())
}

/// Parses JSON bytes as Ruby's `JSON.parse` does with a UTF-8 string that
/// may hold invalid bytes (they pass through inside strings).
pub fn load_bytes(input: &[u8]) -> Result<Value, JsonError> {
    load_with_nesting(input, MAX_NESTING)
}

/// Parses with a different nesting limit (Ruby's `max_nesting:`); the
/// parser recurses once per level, so keep the limit in the hundreds.
pub fn load_with_nesting(input: &[u8], max_nesting: usize) -> Result<Value, JsonError> {
    Parser {
        s: input,
        max_nesting,
    }
    .document()
}

/// Line numbers of the C parser's `__LINE__` in json 2.6.1's `parser.c`,
/// as `JSON::ParserError` messages show them.
const LINE_TOP: u32 = 859;
const LINE_ARRAY: u32 = 451;
const LINE_NAN: u32 = 225;
const LINE_INFINITY: u32 = 232;
const LINE_MINUS_INFINITY: u32 = 249;
const LINE_SURROGATE: u32 = 521;

/// A value parse that did not raise: `None` is json's "no match here"
/// (the caller reports the error at the value's start).
type Parsed = Option<(Value, usize)>;

struct Parser<'a> {
    s: &'a [u8],
    max_nesting: usize,
}

fn is_begin_value(c: u8) -> bool {
    matches!(
        c,
        b'n' | b'f' | b't' | b'"' | b'-' | b'[' | b'{' | b'N' | b'I'
    ) || c.is_ascii_digit()
}

fn hex_val(c: u8) -> Option<u32> {
    (c as char).to_digit(16)
}

/// json's `unescape_unicode`: four hex digits, or U+FFFD if any is not hex.
fn unescape_unicode(p: &[u8]) -> u32 {
    let mut r = 0u32;
    for &c in &p[..4] {
        match hex_val(c) {
            Some(d) => r = (r << 4) | d,
            None => return 0xFFFD,
        }
    }
    r
}

/// json's `convert_UTF32_to_UTF8`: encodes surrogates too (as invalid UTF-8).
fn push_utf32(out: &mut Vec<u8>, ch: u32) {
    if ch <= 0x7F {
        out.push(ch as u8);
    } else if ch <= 0x7FF {
        out.push(((ch >> 6) | 0xC0) as u8);
        out.push(((ch & 0x3F) | 0x80) as u8);
    } else if ch <= 0xFFFF {
        out.push(((ch >> 12) | 0xE0) as u8);
        out.push((((ch >> 6) & 0x3F) | 0x80) as u8);
        out.push(((ch & 0x3F) | 0x80) as u8);
    } else if ch <= 0x1F_FFFF {
        out.push(((ch >> 18) | 0xF0) as u8);
        out.push((((ch >> 12) & 0x3F) | 0x80) as u8);
        out.push((((ch >> 6) & 0x3F) | 0x80) as u8);
        out.push(((ch & 0x3F) | 0x80) as u8);
    } else {
        out.push(b'?');
    }
}

/// A String value, or Bytes when the bytes are not valid UTF-8.
pub(crate) fn string_value(bytes: Vec<u8>) -> Value {
    match String::from_utf8(bytes) {
        Ok(s) => Value::String(Str::from(s)),
        Err(e) => Value::Bytes(Arc::from(e.into_bytes())),
    }
}

impl Parser<'_> {
    fn len(&self) -> usize {
        self.s.len()
    }

    fn line_of(&self, pos: usize) -> usize {
        let end = pos.min(self.s.len());
        1 + self.s[..end].iter().filter(|&&b| b == b'\n').count()
    }

    /// The rest of the input from `pos`, as C's `%s` prints it (up to NUL).
    fn rest(&self, pos: usize) -> String {
        let tail = if pos <= self.s.len() {
            &self.s[pos..]
        } else {
            &[][..]
        };
        let tail = match tail.iter().position(|&b| b == 0) {
            Some(n) => &tail[..n],
            None => tail,
        };
        String::from_utf8_lossy(tail).into_owned()
    }

    fn error_at(&self, line: u32, what: &str, pos: usize) -> JsonError {
        JsonError {
            message: format!("{}: {} at '{}'", line, what, self.rest(pos)),
            line: Some(self.line_of(pos)),
        }
    }

    fn unexpected(&self, line: u32, pos: usize) -> JsonError {
        self.error_at(line, "unexpected token", pos)
    }

    fn nesting_error(&self, depth: usize, pos: usize) -> JsonError {
        JsonError {
            message: format!("nesting of {} is too deep", depth),
            line: Some(self.line_of(pos)),
        }
    }

    /// Skips whitespace and comments. `Err(p)`: a malformed or unterminated
    /// comment, failing at `p` (the input length at end of input).
    fn skip_ignore(&self, mut pos: usize) -> Result<usize, usize> {
        let s = self.s;
        loop {
            match s.get(pos) {
                Some(b' ' | b'\t' | b'\r' | b'\n') => pos += 1,
                Some(b'/') => match s.get(pos + 1) {
                    Some(b'*') => {
                        let body = pos + 2;
                        match s[body..].windows(2).position(|w| w == b"*/") {
                            Some(i) => pos = body + i + 2,
                            None => return Err(s.len()),
                        }
                    }
                    Some(b'/') => match s[pos + 2..].iter().position(|&b| b == b'\n') {
                        Some(i) => pos = pos + 2 + i + 1,
                        None => return Err(s.len()),
                    },
                    Some(_) => return Err(pos + 1),
                    None => return Err(s.len()),
                },
                _ => return Ok(pos),
            }
        }
    }

    fn document(&self) -> Result<Value, JsonError> {
        let pos = self
            .skip_ignore(0)
            .map_err(|e| self.unexpected(LINE_TOP, e))?;
        if pos >= self.len() || !is_begin_value(self.s[pos]) {
            return Err(self.unexpected(LINE_TOP, pos));
        }
        let (value, next) = match self.value(pos, 0)? {
            Some(r) => r,
            None => return Err(self.unexpected(LINE_TOP, pos)),
        };
        let end = self
            .skip_ignore(next)
            .map_err(|e| self.unexpected(LINE_TOP, e))?;
        if end != self.len() {
            return Err(self.unexpected(LINE_TOP, end));
        }
        Ok(value)
    }

    /// json's `JSON_parse_value` at a `begin_value` byte; `depth` is the
    /// nesting of the enclosing container (0 at the top level).
    fn value(&self, pos: usize, depth: usize) -> Result<Parsed, JsonError> {
        crate::stack::grow(|| {
            let s = self.s;
            let lit = |word: &[u8], v: Value| -> Parsed {
                if s[pos..].starts_with(word) {
                    Some((v, pos + word.len()))
                } else {
                    None
                }
            };
            Ok(match s[pos] {
                b'"' => self.string(pos)?,
                b'[' => Some(self.array(pos, depth + 1)?),
                b'{' => self.object(pos, depth + 1)?,
                b'n' => lit(b"null", Value::Nil),
                b't' => lit(b"true", Value::Bool(true)),
                b'f' => lit(b"false", Value::Bool(false)),
                b'N' => {
                    if s[pos..].starts_with(b"NaN") {
                        return Err(self.unexpected(LINE_NAN, pos));
                    }
                    None
                }
                b'I' => {
                    if s[pos..].starts_with(b"Infinity") {
                        // json 2.6.1 reports this one byte before the token; at
                        // the very start of the input that is outside the string
                        // and Ruby prints nothing.
                        return Err(match pos.checked_sub(1) {
                            Some(p) => self.unexpected(LINE_INFINITY, p),
                            None => JsonError {
                                message: format!("{}: unexpected token at ''", LINE_INFINITY),
                                line: Some(1),
                            },
                        });
                    }
                    None
                }
                _ => self.number(pos)?,
            })
        })
    }

    fn number(&self, pos: usize) -> Result<Parsed, JsonError> {
        let s = self.s;
        if s.len() - pos >= 9 && &s[pos..pos + 9] == b"-Infinity" {
            return Err(self.unexpected(LINE_MINUS_INFINITY, pos));
        }
        // The integer part: '-'? ('0' | [1-9][0-9]*).
        let mut i = pos;
        if s.get(i) == Some(&b'-') {
            i += 1;
        }
        let int_start = i;
        match s.get(i) {
            Some(b'0') => i += 1,
            Some(c) if c.is_ascii_digit() => {
                while s.get(i).is_some_and(u8::is_ascii_digit) {
                    i += 1;
                }
            }
            _ => return Ok(None),
        }
        let int_end = i;
        debug_assert!(int_end > int_start);
        if let Some(end) = self.float_tail(int_end) {
            let text = std::str::from_utf8(&s[pos..end]).expect("ASCII");
            let f: f64 = text.parse().expect("float grammar");
            return Ok(Some((Value::Float(f), end)));
        }
        // An Integer must not be followed by a digit ("01").
        if s.get(int_end).is_some_and(u8::is_ascii_digit) {
            return Ok(None);
        }
        let text = std::str::from_utf8(&s[pos..int_end]).expect("ASCII");
        let v = match text.parse::<i64>() {
            Ok(n) => Value::Int(n),
            Err(_) => Value::BigInt(ArcStr::from(text)),
        };
        Ok(Some((v, int_end)))
    }

    /// The end of a Float whose integer part ends at `i`: a fraction and/or
    /// an exponent, then a byte that is none of `[0-9Ee.-]` (or the end).
    fn float_tail(&self, mut i: usize) -> Option<usize> {
        let s = self.s;
        let digits = |mut j: usize| -> Option<usize> {
            let st = j;
            while s.get(j).is_some_and(u8::is_ascii_digit) {
                j += 1;
            }
            (j > st).then_some(j)
        };
        let mut is_float = false;
        if s.get(i) == Some(&b'.') {
            i = digits(i + 1)?;
            is_float = true;
        }
        if matches!(s.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(s.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            i = digits(i)?;
            is_float = true;
        }
        if !is_float {
            return None;
        }
        match s.get(i) {
            Some(c) if c.is_ascii_digit() || matches!(c, b'E' | b'e' | b'.' | b'-') => None,
            _ => Some(i),
        }
    }

    /// json's `JSON_parse_string` at a `"`.
    fn string(&self, pos: usize) -> Result<Parsed, JsonError> {
        let s = self.s;
        let mut i = pos + 1;
        let end = loop {
            let Some(&b) = s.get(i) else { return Ok(None) };
            match b {
                b'"' => break i,
                b'\\' => {
                    let Some(&c) = s.get(i + 1) else {
                        return Ok(None);
                    };
                    if c == b'u' {
                        if s.len() < i + 6 || !s[i + 2..i + 6].iter().all(u8::is_ascii_hexdigit) {
                            return Ok(None);
                        }
                        i += 6;
                    } else if c < 0x20 {
                        return Ok(None);
                    } else {
                        i += 2;
                    }
                }
                0..=0x1F => return Ok(None),
                _ => i += 1,
            }
        };
        let bytes = self.unescape(pos + 1, end)?;
        Ok(Some((string_value(bytes), end + 1)))
    }

    /// json's `json_string_unescape` over `s[start..end]`.
    fn unescape(&self, start: usize, end: usize) -> Result<Vec<u8>, JsonError> {
        let s = self.s;
        let mut out = Vec::with_capacity(end - start);
        let mut p = start;
        let mut pe = start;
        while pe < end {
            if s[pe] != b'\\' {
                pe += 1;
                continue;
            }
            out.extend_from_slice(&s[p..pe]);
            pe += 1;
            let simple: Option<u8> = match s[pe] {
                b'n' => Some(b'\n'),
                b'r' => Some(b'\r'),
                b't' => Some(b'\t'),
                b'"' => Some(b'"'),
                b'\\' => Some(b'\\'),
                b'b' => Some(0x08),
                b'f' => Some(0x0C),
                b'u' => None,
                _ => {
                    // Unknown escape: drop the backslash, keep the byte.
                    p = pe;
                    continue;
                }
            };
            match simple {
                Some(b) => out.push(b),
                None => {
                    pe += 1;
                    let mut ch = unescape_unicode(&s[pe..]);
                    pe += 3;
                    let mut question = false;
                    if ch & 0xFC00 == 0xD800 {
                        pe += 1;
                        if pe + 6 > end {
                            return Err(self.error_at(
                                LINE_SURROGATE,
                                "incomplete surrogate pair",
                                p,
                            ));
                        }
                        if s[pe] == b'\\' && s[pe + 1] == b'u' {
                            let sur = unescape_unicode(&s[pe + 2..]);
                            ch = ((ch & 0x3F) << 10)
                                | ((((ch >> 6) & 0xF) + 1) << 16)
                                | (sur & 0x3FF);
                            pe += 5;
                        } else {
                            question = true;
                        }
                    }
                    if question {
                        out.push(b'?');
                    } else {
                        push_utf32(&mut out, ch);
                    }
                }
            }
            pe += 1;
            p = pe;
        }
        out.extend_from_slice(&s[p..pe]);
        Ok(out)
    }

    /// json's `JSON_parse_array` at a `[`: raises on any error.
    fn array(&self, pos: usize, depth: usize) -> Result<(Value, usize), JsonError> {
        if self.max_nesting != 0 && depth > self.max_nesting {
            return Err(self.nesting_error(depth, pos));
        }
        let s = self.s;
        let err = |p: usize| self.unexpected(LINE_ARRAY, p);
        let mut items = Vec::new();
        let mut i = self.skip_ignore(pos + 1).map_err(err)?;
        if s.get(i) == Some(&b']') {
            return Ok((Value::array(items), i + 1));
        }
        loop {
            if i >= s.len() || !is_begin_value(s[i]) {
                return Err(err(i));
            }
            match self.value(i, depth)? {
                Some((v, next)) => {
                    items.push(v);
                    i = next;
                }
                None => return Err(err(i)),
            }
            i = self.skip_ignore(i).map_err(err)?;
            match s.get(i) {
                Some(b',') => i = self.skip_ignore(i + 1).map_err(err)?,
                Some(b']') => return Ok((Value::array(items), i + 1)),
                _ => return Err(err(i)),
            }
        }
    }

    /// json's `JSON_parse_object` at a `{`: any syntax error makes it
    /// return `None` (the enclosing array or the top level reports it).
    fn object(&self, pos: usize, depth: usize) -> Result<Parsed, JsonError> {
        if self.max_nesting != 0 && depth > self.max_nesting {
            return Err(self.nesting_error(depth, pos));
        }
        let s = self.s;
        let mut map = Map::default();
        let Ok(mut i) = self.skip_ignore(pos + 1) else {
            return Ok(None);
        };
        if s.get(i) == Some(&b'}') {
            return Ok(Some((Value::hash(map), i + 1)));
        }
        loop {
            if s.get(i) != Some(&b'"') {
                return Ok(None);
            }
            let Some((key, next)) = self.string(i)? else {
                return Ok(None);
            };
            let Ok(j) = self.skip_ignore(next) else {
                return Ok(None);
            };
            if s.get(j) != Some(&b':') {
                return Ok(None);
            }
            let Ok(j) = self.skip_ignore(j + 1) else {
                return Ok(None);
            };
            if j >= s.len() || !is_begin_value(s[j]) {
                return Ok(None);
            }
            let Some((v, next)) = self.value(j, depth)? else {
                return Ok(None);
            };
            map.insert(key, v);
            let Ok(j) = self.skip_ignore(next) else {
                return Ok(None);
            };
            match s.get(j) {
                Some(b',') => {
                    let Ok(k) = self.skip_ignore(j + 1) else {
                        return Ok(None);
                    };
                    i = k;
                }
                Some(b'}') => return Ok(Some((Value::hash(map), j + 1))),
                _ => return Ok(None),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> Value {
        Value::from(x)
    }

    fn ok(input: &str) -> Value {
        load(input).unwrap_or_else(|e| panic!("{input:?}: {e}"))
    }

    fn err(input: &[u8]) -> String {
        match load_bytes(input) {
            Ok(v) => panic!("{input:?} parsed as {v:?}"),
            Err(e) => e.message,
        }
    }

    fn arr(v: Vec<Value>) -> Value {
        Value::array(v)
    }

    /// Messages printed by `ruby -rjson -e 'JSON.parse(input)'` (Ruby 3.1.2,
    /// json 2.6.1) on this machine.
    #[test]
    fn error_messages_match_ruby() {
        let cases: &[(&[u8], &str)] = &[
            (b"", "859: unexpected token at ''"),
            (b" ", "859: unexpected token at ''"),
            (b"{", "859: unexpected token at '{'"),
            (b"{\"a\":1,}", "859: unexpected token at '{\"a\":1,}'"),
            (b"{a:1}", "859: unexpected token at '{a:1}'"),
            (b"[1,]", "451: unexpected token at ']'"),
            (b"[1 2]", "451: unexpected token at '2]'"),
            (b"{\"a\" 1}", "859: unexpected token at '{\"a\" 1}'"),
            (b"{\"a\":}", "859: unexpected token at '{\"a\":}'"),
            (b"nul", "859: unexpected token at 'nul'"),
            (b"NaN", "225: unexpected token at 'NaN'"),
            (b"Infinity", "232: unexpected token at ''"),
            (b"-Infinity", "249: unexpected token at '-Infinity'"),
            (b"[NaN]", "225: unexpected token at 'NaN]'"),
            (b"01", "859: unexpected token at '01'"),
            (b"-", "859: unexpected token at '-'"),
            (b"1.", "859: unexpected token at '.'"),
            (b".5", "859: unexpected token at '.5'"),
            (b"1e", "859: unexpected token at 'e'"),
            (b"1.5e+", "859: unexpected token at '.5e+'"),
            (b"\"abc", "859: unexpected token at '\"abc'"),
            (b"\"a\tb\"", "859: unexpected token at '\"a\tb\"'"),
            (b"\"a\nb\"", "859: unexpected token at '\"a\nb\"'"),
            (b"\"\\u00\"", "859: unexpected token at '\"\\u00\"'"),
            (
                b"\"\\ud800\"",
                "521: incomplete surrogate pair at '\\ud800\"'",
            ),
            (b"{\"a\":1}x", "859: unexpected token at 'x'"),
            (b"{\"a\":1} // c", "859: unexpected token at ''"),
            (b"{\"a\":1} /* c", "859: unexpected token at ''"),
            (b"// only", "859: unexpected token at ''"),
            (b"[1,2", "451: unexpected token at ''"),
            (b"true false", "859: unexpected token at 'false'"),
            (b"  truex", "859: unexpected token at 'x'"),
            (b"[tru]", "451: unexpected token at 'tru]'"),
            (b"\xff", "859: unexpected token at '\u{FFFD}'"),
            (b"[1,\n2,\n]", "451: unexpected token at ']'"),
            (
                b"{\n\"a\": 1,\n}\n",
                "859: unexpected token at '{\n\"a\": 1,\n}\n'",
            ),
            (b"[1]]", "859: unexpected token at ']'"),
            (b"{\"a\":1}}", "859: unexpected token at '}'"),
            (b"[-]", "451: unexpected token at '-]'"),
            (b"[- 1]", "451: unexpected token at '- 1]'"),
            (b"[+1]", "451: unexpected token at '+1]'"),
            (b"\xef\xbb\xbf{}", "859: unexpected token at '\u{FEFF}{}'"),
            (b"[1/x]", "451: unexpected token at 'x]'"),
            (b"{,}", "859: unexpected token at '{,}'"),
            (b"[,]", "451: unexpected token at ',]'"),
            (b"{\"a\"}", "859: unexpected token at '{\"a\"}'"),
            (b"[\"a\":1]", "451: unexpected token at ':1]'"),
            (b"[0x1]", "451: unexpected token at 'x1]'"),
            (b"[00]", "451: unexpected token at '00]'"),
            (b"[-01]", "451: unexpected token at '-01]'"),
            (b"[1.e3]", "451: unexpected token at '.e3]'"),
            (b"[1e3.5]", "451: unexpected token at 'e3.5]'"),
            (b"['a']", "451: unexpected token at ''a']'"),
            (b"\"\\u12G4\"", "859: unexpected token at '\"\\u12G4\"'"),
            (b"[Infinity]", "232: unexpected token at '[Infinity]'"),
            (b" Infinity", "232: unexpected token at ' Infinity'"),
            (b"{\"a\":Infinity}", "232: unexpected token at ':Infinity}'"),
            (b"[-Infinity]", "249: unexpected token at '-Infinity]'"),
            (b"{\"a\":NaN}", "225: unexpected token at 'NaN}'"),
            (b"[1, {\"a\":}]", "451: unexpected token at '{\"a\":}]'"),
            (
                b"{\"a\":{\"b\":}}",
                "859: unexpected token at '{\"a\":{\"b\":}}'",
            ),
            (b"[\"abc", "451: unexpected token at '\"abc'"),
            (
                b"[\"\\ud800x\"]",
                "521: incomplete surrogate pair at '\\ud800x\"]'",
            ),
            (
                b"[\"\\ud800\\u\"]",
                "451: unexpected token at '\"\\ud800\\u\"]'",
            ),
            (b"[\"\\u12\"]", "451: unexpected token at '\"\\u12\"]'"),
            (b"[-Infinityx]", "249: unexpected token at '-Infinityx]'"),
            (b"-Inf", "859: unexpected token at '-Inf'"),
            (b"[1.5e+]", "451: unexpected token at '.5e+]'"),
            (b"[1.5.3]", "451: unexpected token at '.5.3]'"),
            (b"[1-2]", "451: unexpected token at '-2]'"),
            (b"[1e5-]", "451: unexpected token at 'e5-]'"),
            (b"[\"a\x01\"]", "451: unexpected token at '\"a\x01\"]'"),
            (b"[\"\\\x01\"]", "451: unexpected token at '\"\\\x01\"]'"),
            (b"[1]\n// b", "859: unexpected token at ''"),
            (b"/ [1]", "859: unexpected token at ' [1]'"),
            (b"[1] /", "859: unexpected token at ''"),
            (b"[1,/**/]", "451: unexpected token at ']'"),
            (
                b"[\"ab\\ud800x\"]",
                "521: incomplete surrogate pair at 'ab\\ud800x\"]'",
            ),
            (
                b"[\"\\n\\ud800x\"]",
                "521: incomplete surrogate pair at '\\ud800x\"]'",
            ),
            (
                b"[\"\\q\\ud800x\"]",
                "521: incomplete surrogate pair at 'q\\ud800x\"]'",
            ),
            (
                b"[\"\\ud800abcde\"]",
                "521: incomplete surrogate pair at '\\ud800abcde\"]'",
            ),
            (b"[1,\0]", "451: unexpected token at ''"),
            (b"[1.5", "451: unexpected token at ''"),
            (b"[1]\0", "859: unexpected token at ''"),
            (b"\x0c[1]", "859: unexpected token at '\x0c[1]'"),
            (
                b"{\"a\":1,\"b\"}",
                "859: unexpected token at '{\"a\":1,\"b\"}'",
            ),
            (
                b"[1,[2,{\"a\" 1}]]",
                "451: unexpected token at '{\"a\" 1}]]'",
            ),
            (b"{\"a\":[1,}", "451: unexpected token at '}'"),
            (b"{\"a\":NaN", "225: unexpected token at 'NaN'"),
            (b"[1]/*", "859: unexpected token at ''"),
            (b"[1]//", "859: unexpected token at ''"),
        ];
        for (input, want) in cases {
            assert_eq!(
                &err(input),
                want,
                "input {:?}",
                String::from_utf8_lossy(input)
            );
        }
    }

    #[test]
    fn nesting_limit_is_100() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert_eq!(ok(&deep(100)).as_array().map(|a| a.len()), Some(1));
        assert_eq!(err(deep(101).as_bytes()), "nesting of 101 is too deep");
        assert_eq!(
            err("[".repeat(101).as_bytes()),
            "nesting of 101 is too deep"
        );
        assert_eq!(
            err(format!("{}x", "[".repeat(100)).as_bytes()),
            "451: unexpected token at 'x'"
        );
        let objs = format!("{}1{}", "{\"a\":".repeat(101), "}".repeat(101));
        assert_eq!(err(objs.as_bytes()), "nesting of 101 is too deep");
        let mixed = format!("{}{{\"a\":{{}}}}{}", "[".repeat(99), "]".repeat(99));
        assert_eq!(err(mixed.as_bytes()), "nesting of 101 is too deep");
        // Far deeper input fails at 101 without exhausting the stack.
        assert_eq!(
            err("[".repeat(1_000_000).as_bytes()),
            "nesting of 101 is too deep"
        );
    }

    #[test]
    fn values_match_ruby() {
        assert_eq!(ok("\"a\\qb\""), s("aqb"));
        assert_eq!(ok("\"\\ud800\\udc00\""), s("\u{10000}"));
        assert_eq!(
            ok("\"\\udc00\""),
            Value::Bytes(Arc::new(b"\xED\xB0\x80".to_vec()))
        );
        assert_eq!(ok("/* c */ {\"a\":1}").get("a"), Some(&Value::Int(1)));
        assert_eq!(ok("1e400"), Value::Float(f64::INFINITY));
        assert_eq!(ok("-1e400"), Value::Float(f64::NEG_INFINITY));
        assert_eq!(ok("1E3"), Value::Float(1000.0));
        assert_eq!(ok("-0"), Value::Int(0));
        assert_eq!(ok("-0.0"), Value::Float(-0.0));
        assert_eq!(ok("[-0.0e0]"), arr(vec![Value::Float(-0.0)]));
        assert_eq!(ok("[0e0]"), arr(vec![Value::Float(0.0)]));
        assert_eq!(
            ok("123456789012345678901234567890"),
            Value::BigInt(crate::value::ArcStr::from("123456789012345678901234567890"))
        );
        assert_eq!(
            ok("-9223372036854775809"),
            Value::BigInt(crate::value::ArcStr::from("-9223372036854775809"))
        );
        assert_eq!(ok("9223372036854775807"), Value::Int(i64::MAX));
        assert_eq!(ok("-9223372036854775808"), Value::Int(i64::MIN));
        assert_eq!(
            load_bytes(b"\"\xff\"").unwrap(),
            Value::Bytes(Arc::new(b"\xff".to_vec()))
        );
        assert_eq!(ok("\"\\u0000\""), s("\0"));
        assert_eq!(ok("\"\\/\""), s("/"));
        assert_eq!(ok("\"\\u00e9\\u00E9\""), s("éé"));
        assert_eq!(ok("1.0E+2"), Value::Float(100.0));
        assert_eq!(ok("2.5e-3"), Value::Float(0.0025));
        assert_eq!(ok("0.1e1"), Value::Float(1.0));
        assert_eq!(ok("1.7976931348623157e309"), Value::Float(f64::INFINITY));
        assert_eq!(ok("4.9e-325"), Value::Float(0.0));
        assert_eq!(ok("[1//c\n]"), arr(vec![Value::Int(1)]));
        assert_eq!(ok("[1/* */,2]"), arr(vec![Value::Int(1), Value::Int(2)]));
        assert_eq!(ok("true"), Value::Bool(true));
        assert_eq!(ok("null"), Value::Nil);
        assert_eq!(ok("\"str\""), s("str"));
        assert_eq!(ok("[\"\\ud800\\u0041\"]"), arr(vec![s("\u{10041}")]));
        assert_eq!(ok("[\"\\ud800abcdef\"]"), arr(vec![s("?bcdef")]));
        assert_eq!(ok("[\"\\ud83d\\ude00\"]"), arr(vec![s("😀")]));
        assert_eq!(ok("[\"\\ud800\\ud800\"]"), arr(vec![s("\u{10000}")]));
        assert_eq!(ok("[\"\\udbff\\udfff\"]"), arr(vec![s("\u{10FFFF}")]));
        assert_eq!(ok("[\"\\udbff\\ud800\"]"), arr(vec![s("\u{10FC00}")]));
        assert_eq!(ok("[\"a\\ud800\\\\\\\\u0041\"]"), arr(vec![s("a?\\A")]));
        assert_eq!(ok("[\"a\\ud800\\\\u0041\"]"), arr(vec![s("a?A")]));
        assert_eq!(ok("[\"\x7f\"]"), arr(vec![s("\x7f")]));
        assert_eq!(ok("\"\\é\""), s("é"));
        assert_eq!(
            load_bytes(b"[\"\\\xff\"]").unwrap(),
            arr(vec![Value::Bytes(Arc::new(b"\xff".to_vec()))])
        );
        assert_eq!(
            ok("[1,2]   \n\t\r "),
            arr(vec![Value::Int(1), Value::Int(2)])
        );
        assert_eq!(ok("[\"a\\u0000b\"]"), arr(vec![s("a\0b")]));
        assert_eq!(ok("-1.5e3"), Value::Float(-1500.0));
        assert_eq!(ok("[1]/**/"), arr(vec![Value::Int(1)]));
        assert_eq!(ok("[1]//\n"), arr(vec![Value::Int(1)]));
        assert_eq!(
            ok("{\"a\"/**/:/**/1/**/,/**/\"b\":2/**/}"),
            ok("{\"a\":1,\"b\":2}")
        );
        assert_eq!(
            ok("[1.0,-1.5e-3,0.1,1e0,1E-0,123.456e+2]"),
            arr([1.0, -0.0015, 0.1, 1.0, 1.0, 12345.6]
                .iter()
                .map(|&f| Value::Float(f))
                .collect())
        );
    }

    #[test]
    fn duplicate_keys_keep_first_position_last_value() {
        let v = ok("{\"a\":1,\"b\":2,\"a\":3}");
        let keys: Vec<_> = v
            .as_hash()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        assert_eq!(keys, vec![(s("a"), Value::Int(3)), (s("b"), Value::Int(2))]);
    }

    #[test]
    fn error_line_is_reported() {
        let e = load("{\n\"a\": 1\n}\n[").unwrap_err();
        assert_eq!(e.message, "859: unexpected token at '['");
        assert_eq!(e.line, Some(4));
        let e = e.into_error(Path::new("/d/x.json"));
        assert_eq!(
            e.message,
            "Unable to parse (/d/x.json): 859: unexpected token at '['"
        );
        assert_eq!(e.line, Some(4));
    }
}
