//! The JSON wire format of values: what the CLI prints, the C ABI answers
//! and every `expected.json` holds, and reading it back. Ruby's `to_s`,
//! `inspect` and `Float#to_s` are in [`crate::ruby`], `to_yaml` in
//! [`crate::yaml`], the `--explain` value text in the explain module.
//!
//! [`to_json_pretty`] keeps empty containers as `{}`/`[]` (the format of
//! `expected.json`), not json 2.6.1's `{\n  }`/`[\n\n  ]`.

use crate::error::{Error, ErrorKind, Result};
use crate::ruby::{base64, float_to_s};
use crate::value::{ArcStr, Str};
use crate::value::{Map, Value};
use std::sync::Arc;

// ---------------------------------------------------------------------------
// Wire JSON
// ---------------------------------------------------------------------------

/// The compact wire JSON of a value, the format of every `expected.json`:
/// `nil`, booleans, Integers (any size) and Strings as JSON; finite Floats
/// as Ruby prints them (`1.0`, `-0.0`, `1.0e+20`); Arrays as arrays;
/// Hashes whose keys are all Strings as objects in key order. Everything
/// else is a `{"__type__": ...}` object: `{"__type__":"Float","value":"NaN"}`
/// (also `Infinity`, `-Infinity`), `{"__type__":"Binary","value":"<base64>"}`
/// for non-UTF-8 bytes, `{"__type__":"Symbol","value":"name"}`,
/// `{"__type__":"Sensitive","value":<inner>}` and
/// `{"__type__":"Hash","entries":[[key, value], ...]}` for a Hash with any
/// non-String key.
pub fn to_json(v: &Value) -> String {
    let mut out = Vec::with_capacity(json_capacity(v));
    write_compact(v, &mut out);
    // Valid UTF-8 by construction (a String's bytes, ASCII around them):
    // one check of the whole text, where `Str::as_str` would check each
    // short String again.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Appends the compact wire JSON of `v` to `out` (what [`to_json`]
/// returns).
pub fn push_json(v: &Value, out: &mut String) {
    out.push_str(&to_json(v));
}

/// Appends the compact wire JSON of `v` (what [`to_json`] returns) to
/// `out` as bytes, always valid UTF-8 and never a NUL byte: the answers of
/// the C ABI, which need bytes, not a checked `str`.
pub fn push_json_bytes(v: &Value, out: &mut Vec<u8>) {
    write_compact(v, out);
}

/// A first guess at the length of a value's compact JSON, one byte over so
/// that a C string's NUL fits too ([`crate::ffi`] hands most answers out
/// as C strings): a String exactly, a container a few bytes an element.
/// The text grows past it as any `String` does.
pub(crate) fn json_capacity(v: &Value) -> usize {
    match v {
        Value::String(s) => s.len() + 3,
        Value::Array(a) => 16 * a.len() + 3,
        Value::Hash(h) => 32 * h.len() + 3,
        _ => 24,
    }
}

/// Appends an Integer's decimal digits (what `write!(out, "{i}")` writes,
/// without the formatting machinery).
fn push_int(i: i64, out: &mut String) {
    let mut buf = Vec::with_capacity(20);
    push_int_bytes(i, &mut buf);
    // Only ASCII digits were written.
    out.push_str(std::str::from_utf8(&buf).unwrap_or_default());
}

/// [`push_int`] into bytes. Below 10,000,000 (most Integers of data),
/// the digits are gathered in one word, most significant first in memory,
/// with the sign, and written as one 8-byte store cut to their length (no
/// copy of a run of unknown length, which is a call of `memcpy`).
#[inline(always)]
fn push_int_bytes(i: i64, out: &mut Vec<u8>) {
    let mut n = i.unsigned_abs();
    if n >= 10_000_000 {
        return push_long_int_bytes(i, out);
    }
    let mut text = 0u64;
    let mut len = 0;
    loop {
        text = (text << 8) | u64::from(b'0' + (n % 10) as u8);
        len += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if i < 0 {
        text = (text << 8) | u64::from(b'-');
        len += 1;
    }
    let at = out.len();
    out.extend_from_slice(&text.to_le_bytes());
    out.truncate(at + len);
}

/// [`push_int_bytes`] of an Integer of 8 digits or more.
#[inline(never)]
fn push_long_int_bytes(i: i64, out: &mut Vec<u8>) {
    let mut n = i.unsigned_abs();
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if i < 0 {
        out.push(b'-');
    }
    out.extend_from_slice(&buf[at..]);
}

/// The wire JSON, indented by two spaces as Ruby's `JSON.pretty_generate`
/// (except that empty containers stay `{}` and `[]`, where json 2.6.1
/// writes `{\n  }` and `[\n\n  ]`).
pub fn to_json_pretty(v: &Value) -> String {
    let mut out = String::new();
    write_json(v, Some(2), 0, &mut out);
    out
}

/// Appends a JSON string literal: `"`, `\` and control characters escaped
/// (`\n`, `\t`, ... or `\u001f`), everything else as UTF-8.
pub fn json_string(s: &str, out: &mut String) {
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    loop {
        let i = next_escape(bytes, start);
        // An escape is at an ASCII byte: a character boundary.
        out.push_str(&s[start..i]);
        let Some(&b) = bytes.get(i) else { break };
        out.push_str(escape(b).as_str());
        start = i + 1;
    }
    out.push('"');
}

/// The escape of a byte that [`next_escape`] stops at.
fn escape(b: u8) -> Escape {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let short = match b {
        b'"' => b'"',
        b'\\' => b'\\',
        b'\n' => b'n',
        b'\r' => b'r',
        b'\t' => b't',
        8 => b'b',
        12 => b'f',
        _ => 0,
    };
    if short != 0 {
        Escape([b'\\', short, 0, 0, 0, 0], 2)
    } else {
        Escape(
            [
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[(b >> 4) as usize],
                HEX[(b & 15) as usize],
            ],
            6,
        )
    }
}

/// An escape's bytes (ASCII) and length.
struct Escape([u8; 6], usize);

impl Escape {
    fn as_bytes(&self) -> &[u8] {
        &self.0[..self.1]
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }
}

/// [`json_string`] of a String's bytes (valid UTF-8), into bytes.
#[inline(always)]
fn json_bytes(bytes: &[u8], out: &mut Vec<u8>) {
    json_bytes_then(bytes, None, out);
}

/// [`json_bytes`], then `after` (a Hash key's `:`) when given. Inlined in
/// the writer: a short String costs a few instructions, no call.
#[inline(always)]
fn json_bytes_then(bytes: &[u8], after: Option<u8>, out: &mut Vec<u8>) {
    let n = bytes.len();
    if (1..=8).contains(&n) {
        // A short String (most keys and words): its bytes as one word,
        // checked at once; the quotes, the bytes and `after` written as one
        // 16-byte store cut to their length.
        let w = short_word(bytes);
        if plain_word_prefix(w, n) {
            let mut text = [0u8; 16];
            text[0] = b'"';
            text[1..9].copy_from_slice(&w.to_le_bytes());
            text[n + 1] = b'"';
            let mut len = n + 2;
            if let Some(a) = after {
                text[len] = a;
                len += 1;
            }
            let at = out.len();
            out.extend_from_slice(&text);
            out.truncate(at + len);
            return;
        }
    }
    json_bytes_long(bytes, after, out);
}

/// [`json_bytes_then`] of a String that is empty, longer than 8 bytes or
/// has a byte to escape.
#[inline(never)]
fn json_bytes_long(bytes: &[u8], after: Option<u8>, out: &mut Vec<u8>) {
    let n = bytes.len();
    if n > 8 && plain_long(bytes) {
        out.reserve(n + 3);
        out.push(b'"');
        out.extend_from_slice(bytes);
        out.push(b'"');
    } else {
        json_bytes_escaped(bytes, out);
    }
    out.extend(after);
}

/// The bytes of a String of at most 8 bytes as a little-endian word, zero
/// above its length: two overlapping loads (whose common bytes agree)
/// instead of a loop.
fn short_word(b: &[u8]) -> u64 {
    let n = b.len();
    let word = |lo: u64, hi: u64, shift: usize| lo | (hi << (8 * shift));
    match n {
        0 => 0,
        1 => u64::from(b[0]),
        2 | 3 => word(
            u64::from(u16::from_le_bytes([b[0], b[1]])),
            u64::from(u16::from_le_bytes([b[n - 2], b[n - 1]])),
            n - 2,
        ),
        _ => word(
            u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            u64::from(u32::from_le_bytes([b[n - 4], b[n - 3], b[n - 2], b[n - 1]])),
            n - 4,
        ),
    }
}

/// Whether none of the first `n` (1 to 8) bytes of `w` needs an escape:
/// [`plain_word`]'s test, the bytes above `n` left out (a borrow only goes
/// up, from a byte that needs an escape, so they cannot change the answer
/// for the bytes below).
fn plain_word_prefix(w: u64, n: usize) -> bool {
    let mask = if n >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * n)) - 1
    };
    escape_bits(w) & mask == 0
}

/// Whether no byte of `bytes` (more than 8 of them) needs an escape: eight
/// at a time, the last eight (overlapping the word before) for the rest.
fn plain_long(bytes: &[u8]) -> bool {
    let word = |i: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[i..i + 8]);
        u64::from_le_bytes(w)
    };
    let n = bytes.len();
    let mut i = 0;
    while i + 8 <= n {
        if !plain_word(word(i)) {
            return false;
        }
        i += 8;
    }
    i == n || plain_word(word(n - 8))
}

/// [`json_bytes`] of a String with a byte to escape.
fn json_bytes_escaped(bytes: &[u8], out: &mut Vec<u8>) {
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    // Runs of bytes that need no escape are copied whole: every byte of a
    // multi-byte character is >= 0x80, so a run never splits a character,
    // and an escape is always at an ASCII byte.
    let mut start = 0;
    loop {
        let i = next_escape(bytes, start);
        out.extend_from_slice(&bytes[start..i]);
        let Some(&b) = bytes.get(i) else { break };
        out.extend_from_slice(escape(b).as_bytes());
        start = i + 1;
    }
    out.push(b'"');
}

/// Whether a byte must be escaped in a JSON string literal: `"`, `\` or a
/// control character.
fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// Whether none of the eight bytes of `w` needs an escape (`"`, `\`,
/// below 0x20), for eight bytes at a time. Exact: a byte's test borrows
/// from the byte above only when the byte itself is one of those, so a word
/// of plain bytes never looks otherwise, and one with such a byte always
/// sets that byte's high bit.
pub(crate) fn plain_word(w: u64) -> bool {
    escape_bits(w) == 0
}

/// The high bit of each byte of `w` that needs an escape (`"`, `\`, below
/// 0x20), and possibly of bytes above one that does (a borrow only goes up).
#[inline]
pub(crate) fn escape_bits(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let quote = w ^ (ONES * b'"' as u64);
    let backslash = w ^ (ONES * b'\\' as u64);
    let control = w.wrapping_sub(ONES * 0x20) & !w;
    let quote = quote.wrapping_sub(ONES) & !quote;
    let backslash = backslash.wrapping_sub(ONES) & !backslash;
    (control | quote | backslash) & HIGH
}

/// The offset of the first byte at or after `from` that needs an escape,
/// or the length: eight bytes at a time, then byte by byte.
pub(crate) fn next_escape(bytes: &[u8], mut from: usize) -> usize {
    while let Some(word) = bytes.get(from..from + 8) {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        if !plain_word(u64::from_le_bytes(w)) {
            break;
        }
        from += 8;
    }
    while let Some(&b) = bytes.get(from) {
        if needs_escape(b) {
            return from;
        }
        from += 1;
    }
    from
}

fn newline_indent(pretty: Option<usize>, level: usize, out: &mut String) {
    if let Some(step) = pretty {
        out.push('\n');
        for _ in 0..step * level {
            out.push(' ');
        }
    }
}

fn write_json_tagged(
    tag: &str,
    field: &str,
    value: &Value,
    pretty: Option<usize>,
    level: usize,
    out: &mut String,
) {
    out.push('{');
    newline_indent(pretty, level + 1, out);
    out.push_str("\"__type__\":");
    if pretty.is_some() {
        out.push(' ');
    }
    json_string(tag, out);
    out.push(',');
    newline_indent(pretty, level + 1, out);
    json_string(field, out);
    out.push(':');
    if pretty.is_some() {
        out.push(' ');
    }
    write_json(value, pretty, level + 1, out);
    newline_indent(pretty, level, out);
    out.push('}');
}

fn write_json_seq<'a>(
    items: impl ExactSizeIterator<Item = JsonItem<'a>>,
    pretty: Option<usize>,
    level: usize,
    out: &mut String,
) {
    out.push('[');
    let empty = items.len() == 0;
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        newline_indent(pretty, level + 1, out);
        match item {
            JsonItem::Value(v) => write_json(v, pretty, level + 1, out),
            JsonItem::Pair(k, v) => {
                out.push('[');
                newline_indent(pretty, level + 2, out);
                write_json(k, pretty, level + 2, out);
                out.push(',');
                newline_indent(pretty, level + 2, out);
                write_json(v, pretty, level + 2, out);
                newline_indent(pretty, level + 1, out);
                out.push(']');
            }
        }
    }
    if !empty {
        newline_indent(pretty, level, out);
    }
    out.push(']');
}

enum JsonItem<'a> {
    Value(&'a Value),
    Pair(&'a Value, &'a Value),
}

/// The compact wire JSON, the writer of every answer: what
/// `write_json(v, None, 0, out)` writes, with scalars written without the
/// stack check (only containers recurse) and a Hash's keys checked as they
/// are written (a Hash with a key that is not a String, which is rare, is
/// written again by `write_json` as a tagged object).
fn write_compact(v: &Value, out: &mut Vec<u8>) {
    match v {
        Value::Nil => out.extend_from_slice(b"null"),
        Value::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Value::Int(i) => push_int_bytes(*i, out),
        Value::String(s) => json_bytes(s.as_bytes(), out),
        Value::Array(a) => crate::stack::grow(|| {
            out.push(b'[');
            for (i, item) in a.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_item(item, out);
            }
            out.push(b']');
        }),
        Value::Hash(h) => crate::stack::grow(|| {
            let mark = out.len();
            out.push(b'{');
            for (i, (k, val)) in h.iter().enumerate() {
                let Value::String(k) = k else {
                    out.truncate(mark);
                    return write_general(v, out);
                };
                if i > 0 {
                    out.push(b',');
                }
                json_bytes_then(k.as_bytes(), Some(b':'), out);
                write_item(val, out);
            }
            out.push(b'}');
        }),
        _ => write_general(v, out),
    }
}

/// [`write_compact`] of an element of a container: a String or an Integer
/// written in place, without a call.
#[inline(always)]
fn write_item(v: &Value, out: &mut Vec<u8>) {
    match v {
        Value::String(s) => json_bytes(s.as_bytes(), out),
        Value::Int(i) => push_int_bytes(*i, out),
        _ => write_compact(v, out),
    }
}

/// The values the compact writer leaves to `write_json` (Floats, tagged
/// objects, Hashes with keys that are not Strings).
fn write_general(v: &Value, out: &mut Vec<u8>) {
    let mut s = String::new();
    write_json(v, None, 0, &mut s);
    out.extend_from_slice(s.as_bytes());
}

fn write_json(v: &Value, pretty: Option<usize>, level: usize, out: &mut String) {
    crate::stack::grow(|| match v {
        Value::Nil => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => push_int(*i, out),
        Value::BigInt(s) => out.push_str(s),
        Value::Float(f) if f.is_finite() => out.push_str(&float_to_s(*f)),
        Value::Float(f) => write_json_tagged(
            "Float",
            "value",
            &Value::from(float_to_s(*f)),
            pretty,
            level,
            out,
        ),
        Value::String(s) => json_string(s, out),
        Value::Bytes(b) => match std::str::from_utf8(b) {
            Ok(s) => json_string(s, out),
            Err(_) => write_json_tagged(
                "Binary",
                "value",
                &Value::from(base64::encode(b)),
                pretty,
                level,
                out,
            ),
        },
        Value::Symbol(s) => write_json_tagged(
            "Symbol",
            "value",
            &Value::String(Str::new(s)),
            pretty,
            level,
            out,
        ),
        Value::Sensitive(inner) => {
            write_json_tagged("Sensitive", "value", inner, pretty, level, out)
        }
        Value::Rich(r) => write_json_tagged(
            &r.0,
            "value",
            &Value::from(r.1.as_str()),
            pretty,
            level,
            out,
        ),
        Value::Array(a) => write_json_seq(a.iter().map(JsonItem::Value), pretty, level, out),
        Value::Hash(h) => {
            if h.keys().all(|k| matches!(k, Value::String(_))) {
                out.push('{');
                for (i, (k, val)) in h.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    newline_indent(pretty, level + 1, out);
                    json_string(k.as_str().expect("string key"), out);
                    out.push(':');
                    if pretty.is_some() {
                        out.push(' ');
                    }
                    write_json(val, pretty, level + 1, out);
                }
                if !h.is_empty() {
                    newline_indent(pretty, level, out);
                }
                out.push('}');
            } else {
                out.push('{');
                newline_indent(pretty, level + 1, out);
                out.push_str("\"__type__\":");
                if pretty.is_some() {
                    out.push(' ');
                }
                out.push_str("\"Hash\",");
                newline_indent(pretty, level + 1, out);
                out.push_str("\"entries\":");
                if pretty.is_some() {
                    out.push(' ');
                }
                write_json_seq(
                    h.iter().map(|(k, v)| JsonItem::Pair(k, v)),
                    pretty,
                    level + 1,
                    out,
                );
                newline_indent(pretty, level, out);
                out.push('}');
            }
        }
    })
}

/// Reads the wire JSON back into a value: `{"__type__": "Float" | "Binary"
/// | "Symbol" | "Sensitive", "value": ...}` and `{"__type__": "Hash",
/// "entries": [[k, v], ...]}` objects are decoded; any other object is a
/// Hash. Integers become `Int`/`BigInt`, numbers with a fraction or an
/// exponent `Float`. Nesting is limited to 512 levels.
pub fn from_json(text: &str) -> Result<Value> {
    let raw = crate::json::load_with_nesting(text.as_bytes(), 512).map_err(|e| Error {
        kind: ErrorKind::Parse,
        message: e.message,
        file: None,
        line: e.line,
    })?;
    // Plain JSON (the common case) has nothing to decode.
    if !text.contains("\"__type__\"") {
        return Ok(raw);
    }
    decode_wire(raw)
}

fn wire_error(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::Parse, msg)
}

pub(crate) fn decode_wire(v: Value) -> Result<Value> {
    crate::stack::grow(|| {
        match v {
            Value::Array(mut a) => {
                // In place: the parser's containers are not shared.
                for item in a.iter_mut() {
                    *item = decode_wire(std::mem::take(item))?;
                }
                Ok(Value::Array(a))
            }
            Value::Hash(mut h) => {
                let tag = h
                    .get(&Value::from("__type__"))
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                if let (Some(tag), 2) = (tag, h.len()) {
                    let field = |name: &str| h.get(&Value::from(name)).cloned();
                    match (tag.as_str(), field("value"), field("entries")) {
                        ("Float", Some(Value::String(s)), _) => {
                            return match &*s {
                                "NaN" => Ok(Value::Float(f64::NAN)),
                                "Infinity" => Ok(Value::Float(f64::INFINITY)),
                                "-Infinity" => Ok(Value::Float(f64::NEG_INFINITY)),
                                other => other.parse::<f64>().map(Value::Float).map_err(|_| {
                                    wire_error(format!("invalid Float value '{}'", other))
                                }),
                            };
                        }
                        ("Binary", Some(Value::String(s)), _) => {
                            let bytes = base64::decode_strict(&s)
                                .ok_or_else(|| wire_error(format!("invalid base64 '{}'", s)))?;
                            return Ok(crate::json::string_value(bytes));
                        }
                        ("Symbol", Some(Value::String(s)), _) => {
                            return Ok(Value::Symbol(ArcStr::from(s.as_str())))
                        }
                        ("Sensitive", Some(inner), _) => {
                            return Ok(Value::Sensitive(Arc::new(decode_wire(inner)?)));
                        }
                        (
                            "SemVer" | "Timestamp" | "Timespan" | "Type" | "Regexp" | "Object",
                            Some(Value::String(s)),
                            _,
                        ) => {
                            return Ok(Value::Rich(Arc::new((tag.to_string(), s.to_string()))));
                        }
                        ("Hash", _, Some(Value::Array(entries))) => {
                            let mut map = Map::default();
                            for e in entries.iter() {
                                match e.as_array() {
                                    Some([k, v]) => {
                                        map.insert(
                                            decode_wire(k.clone())?,
                                            decode_wire(v.clone())?,
                                        );
                                    }
                                    _ => {
                                        return Err(wire_error(
                                            "Hash entries must be [key, value] pairs",
                                        ))
                                    }
                                }
                            }
                            return Ok(Value::hash(map));
                        }
                        _ => {}
                    }
                }
                for (_, v) in h.iter_mut() {
                    *v = decode_wire(std::mem::take(v))?;
                }
                Ok(Value::Hash(h))
            }
            other => Ok(other),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(wire: &str) -> Value {
        from_json(wire).unwrap_or_else(|e| panic!("{wire}: {e}"))
    }

    #[test]
    fn integers_as_display_writes_them() {
        for i in [
            0,
            1,
            -1,
            9,
            10,
            -10,
            12345,
            i64::MAX,
            i64::MIN,
            i64::MIN + 1,
        ] {
            assert_eq!(to_json(&Value::Int(i)), i.to_string());
            let mut out = String::from("x");
            push_int(i, &mut out);
            assert_eq!(out, format!("x{i}"));
        }
    }

    /// The escapes of the byte-by-byte writer this one replaced.
    fn json_string_bytewise(s: &str) -> String {
        let mut out = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\u{8}' => out.push_str("\\b"),
                '\u{c}' => out.push_str("\\f"),
                c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push(c),
            }
        }
        out.push('"');
        out
    }

    /// Strings of 0 to 40 plain bytes, and each with every byte that needs
    /// an escape (and a few that do not, next to them in value) inserted at
    /// every offset, alone and with a second one at the end.
    fn escape_cases() -> Vec<String> {
        let specials: Vec<char> = (0u8..0x20)
            .map(char::from)
            .chain(['"', '\\', '!', '#', '[', ']', '\u{7f}', 'é', '€', '😀'])
            .collect();
        let mut cases = Vec::new();
        for len in 0..40 {
            let base: String = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"[..len].to_string();
            for at in 0..=len {
                for &c in &specials {
                    let mut t = base.clone();
                    t.insert(at, c);
                    cases.push(t.clone());
                    t.push(c);
                    cases.push(t);
                }
            }
            cases.push(base);
        }
        cases
    }

    #[test]
    fn strings_are_escaped_at_every_offset() {
        // Every byte that needs an escape (and a few that do not, next to
        // them in value), at every offset of strings of 0 to 40 bytes, so
        // at every position of the eight-byte words and in the tail, written
        // at the start of the output and after what it holds.
        for t in escape_cases() {
            let mut out = String::new();
            json_string(&t, &mut out);
            assert_eq!(out, json_string_bytewise(&t), "{t:?}");
            let mut out = String::from("x");
            json_string(&t, &mut out);
            assert_eq!(out[1..], json_string_bytewise(&t), "{t:?}");
        }
        for w in [0u64, u64::MAX, 0x2020_2020_2020_2020, 0x8080_8080_8080_8080] {
            let bytes = w.to_le_bytes();
            assert_eq!(
                plain_word(w),
                !bytes.iter().any(|&b| needs_escape(b)),
                "{w:#x}"
            );
        }
        // Each byte value at each position of a word of plain bytes.
        for b in 0..=255u8 {
            for at in 0..8 {
                let mut bytes = *b"abcdefgh";
                bytes[at] = b;
                assert_eq!(
                    plain_word(u64::from_le_bytes(bytes)),
                    !needs_escape(b),
                    "{b:#x} at {at}"
                );
            }
        }
    }

    #[test]
    fn the_byte_writer_escapes_as_the_string_writer_at_every_offset_and_length() {
        // json_bytes' short (one word), long (words, the last overlapping)
        // and escaping paths: every byte that needs an escape and a few
        // that do not, at every offset of strings of 0 to 40 bytes.
        let bytes_json = |t: &str| {
            let mut out = b"x".to_vec();
            json_bytes(t.as_bytes(), &mut out);
            let text = String::from_utf8(out[1..].to_vec()).unwrap();
            // As a Hash key: the same, then ':'.
            let mut key = b"x".to_vec();
            json_bytes_then(t.as_bytes(), Some(b':'), &mut key);
            assert_eq!(key, format!("x{text}:").into_bytes(), "{t:?}");
            text
        };
        for t in escape_cases() {
            assert_eq!(bytes_json(&t), json_string_bytewise(&t), "{t:?}");
        }
        // Each byte value at each position of each length of a short word
        // (zero above the length, as short_word leaves it).
        for n in 1..=8 {
            for b in 0..=255u8 {
                for at in 0..n {
                    let mut bytes = b"abcdefgh"[..n].to_vec();
                    bytes[at] = b;
                    let w = short_word(&bytes);
                    let mut padded = [0u8; 8];
                    padded[..n].copy_from_slice(&bytes);
                    assert_eq!(w, u64::from_le_bytes(padded), "{bytes:?}");
                    assert_eq!(
                        plain_word_prefix(w, n),
                        !bytes.iter().any(|&c| needs_escape(c)),
                        "{b:#x} at {at} of {n}"
                    );
                }
            }
        }
        // Integers at every number of digits, both signs.
        let mut ints = vec![0i64, i64::MAX, i64::MIN, i64::MIN + 1];
        let mut p = 1i64;
        for _ in 0..19 {
            ints.extend([p - 1, p, p + 1, -(p - 1), -p, -(p + 1)]);
            p = p.saturating_mul(10);
        }
        for i in ints {
            let mut out = b"x".to_vec();
            push_int_bytes(i, &mut out);
            assert_eq!(out, format!("x{i}").into_bytes());
        }
    }

    #[test]
    fn the_compact_writer_writes_what_the_general_one_writes() {
        let general = |v: &Value| {
            let mut out = String::new();
            write_json(v, None, 0, &mut out);
            out
        };
        let mut odd = Map::default();
        odd.insert(Value::from("a"), Value::Int(1));
        odd.insert(Value::Int(2), Value::from("x\"y"));
        let mut m = Map::default();
        m.insert(Value::from("odd"), Value::hash(odd.clone()));
        m.insert(
            Value::from("list"),
            Value::array(vec![
                Value::Nil,
                Value::Bool(true),
                Value::Bool(false),
                Value::Int(-12),
                Value::Float(0.5),
                Value::Float(f64::NAN),
                Value::BigInt(crate::value::ArcStr::from("123456789012345678901234567890")),
                Value::Bytes(Arc::new(b"\xffa".to_vec())),
                Value::Bytes(Arc::new(b"ok".to_vec())),
                Value::Symbol(crate::value::ArcStr::from("s")),
                Value::Sensitive(Arc::new(Value::from("secret"))),
                Value::Rich(Arc::new(("SemVer".into(), "1.2.3".into()))),
                Value::hash(odd.clone()),
                Value::hash(Map::default()),
                Value::array(vec![]),
            ]),
        );
        m.insert(Value::from("tab\there"), Value::from("line\nbreak é"));
        let nested = Value::hash(m);
        let mut odd_outer = odd;
        odd_outer.insert(Value::from("inner"), nested.clone());
        for v in [
            nested,
            Value::hash(odd_outer),
            Value::from("plain"),
            Value::Int(i64::MIN),
            Value::Nil,
        ] {
            let mut out = String::from("[");
            push_json(&v, &mut out);
            assert_eq!(out[1..], general(&v));
            let mut bytes = b"[".to_vec();
            push_json_bytes(&v, &mut bytes);
            assert_eq!(bytes[1..], *general(&v).as_bytes());
            assert_eq!(to_json(&v), general(&v));
        }
    }

    #[test]
    fn wire_json_format() {
        // Ruby's JSON.generate for plain data.
        let plain =
            r#"{"a":[1,2,{"b":null}],"c":{},"d":[],"e":"x\ny\u0001é\"\\/","f":-0.0,"g":1.0e-05}"#;
        assert_eq!(to_json(&v(plain)), plain);
        // Ruby's JSON.pretty_generate (json 2.6.1 would write empty
        // containers as "{\n  }" and "[\n\n  ]"; the wire format keeps {} and []).
        let pretty = "{\n  \"a\": [\n    1,\n    2,\n    {\n      \"b\": null\n    }\n  ],\n  \"c\": {},\n  \"d\": [],\n  \"e\": \"x\\ny\\u0001é\\\"\\\\/\",\n  \"f\": -0.0,\n  \"g\": 1.0e-05\n}";
        assert_eq!(to_json_pretty(&v(plain)), pretty);

        let mut m = Map::default();
        m.insert(Value::Int(1), Value::Float(f64::NAN));
        m.insert(
            Value::Symbol(crate::value::ArcStr::from("s")),
            Value::Bytes(Arc::new(b"\xff".to_vec())),
        );
        m.insert(
            Value::from("k"),
            Value::Sensitive(Arc::new(Value::Float(f64::NEG_INFINITY))),
        );
        let h = Value::hash(m);
        let compact = r#"{"__type__":"Hash","entries":[[1,{"__type__":"Float","value":"NaN"}],[{"__type__":"Symbol","value":"s"},{"__type__":"Binary","value":"/w=="}],["k",{"__type__":"Sensitive","value":{"__type__":"Float","value":"-Infinity"}}]]}"#;
        assert_eq!(to_json(&h), compact);
        assert_eq!(
            to_json_pretty(&Value::array(vec![Value::Float(f64::INFINITY)])),
            "[\n  {\n    \"__type__\": \"Float\",\n    \"value\": \"Infinity\"\n  }\n]"
        );
        // Reading it back.
        let back = from_json(compact).unwrap();
        assert_eq!(to_json(&back), compact);
        let hb = back.as_hash().unwrap();
        assert!(matches!(hb.get(&Value::Int(1)), Some(Value::Float(f)) if f.is_nan()));
        assert_eq!(
            hb.get(&Value::Symbol(crate::value::ArcStr::from("s"))),
            Some(&Value::Bytes(Arc::new(b"\xff".to_vec())))
        );
        assert!(matches!(
            hb.get(&Value::from("k")),
            Some(Value::Sensitive(_))
        ));
        assert_eq!(
            from_json(&to_json_pretty(&h)).map(|x| to_json(&x)).unwrap(),
            compact
        );
        assert_eq!(v("1"), Value::Int(1));
        assert_eq!(v("1.0"), Value::Float(1.0));
        assert_eq!(v("1.0e+20"), Value::Float(1e20));
        assert_eq!(
            v("123456789012345678901234567890"),
            Value::BigInt(crate::value::ArcStr::from("123456789012345678901234567890"))
        );
        assert_eq!(
            v(r#"{"__type__":"Binary","value":"aGVsbG8="}"#),
            Value::from("hello")
        );
        // Other __type__ objects (SemVer, Timestamp, ...) stay Hashes.
        let semver = r#"{"__type__":"SemVer","value":"1.2.3"}"#;
        assert_eq!(to_json(&v(semver)), semver);
        assert!(from_json("[1,").is_err());
    }
}
