//! The strict JSON reader of the wire protocol (RFC 8259).
//!
//! Requests, scopes and options that hosts send through the C ABI and the
//! CLI's `--batch` mode are read with this reader, not with the emulation of
//! Ruby's `JSON.parse` that reads `json_data` files ([`crate::json`]): no
//! comments, no `NaN`, no unknown escapes, no lone surrogates, no leading
//! zeros, nothing after the value but whitespace. Errors are its own,
//! naming the byte offset (and the request member, see
//! [`crate::wire::request`]).
//!
//! Values decode as [`crate::render::from_json`] decodes the wire format:
//! integers become `Int` (or `BigInt` beyond 64 bits), numbers with a
//! fraction or an exponent `Float`, objects Hashes (a repeated member keeps
//! its first position and takes the last value) and `{"__type__": ...}`
//! objects the values they stand for. Nesting is limited to
//! [`MAX_NESTING`] levels, each level on [`crate::stack::grow`].

use crate::error::{Error, ErrorKind};
use crate::value::{ArcStr, Map, Str, Value};

/// The deepest nesting of arrays and objects a wire value may have.
pub const MAX_NESTING: usize = 512;

/// A syntax error: what was expected and the byte offset where it was not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// The byte offset in the text.
    pub offset: usize,
    /// What is wrong there, e.g. `expected ',' or '}'`.
    pub what: String,
    /// The request member it is in, when known.
    pub member: Option<String>,
}

impl SyntaxError {
    /// The invalid-argument error `{input} is not valid JSON: {what} at byte
    /// {offset}` (`input` names the argument, e.g. `request_json`), with
    /// ` (in member '{member}')` when the member is known.
    pub fn into_error(self, input: &str) -> Error {
        let mut m = format!(
            "{input} is not valid JSON: {} at byte {}",
            self.what, self.offset
        );
        if let Some(member) = &self.member {
            m.push_str(&format!(" (in member '{member}')"));
        }
        Error::new(ErrorKind::InvalidArgument, m)
    }
}

/// A cursor over JSON text.
pub struct Reader<'a> {
    text: &'a str,
    b: &'a [u8],
    pos: usize,
    /// Whether an object member named `__type__` was read (the values read
    /// may need [`crate::render`]'s wire decoding).
    pub(crate) saw_type_tag: bool,
}

type R<T> = std::result::Result<T, SyntaxError>;

impl<'a> Reader<'a> {
    /// A reader at the start of `text`.
    pub fn new(text: &'a str) -> Reader<'a> {
        Reader {
            text,
            b: text.as_bytes(),
            pos: 0,
            saw_type_tag: false,
        }
    }

    /// The byte offset of the cursor.
    pub fn offset(&self) -> usize {
        self.pos
    }

    fn err<T>(&self, what: impl Into<String>) -> R<T> {
        Err(SyntaxError {
            offset: self.pos,
            what: what.into(),
            member: None,
        })
    }

    /// A description of the byte at the cursor, for errors.
    fn found(&self) -> String {
        match self.b.get(self.pos) {
            None => "the end of the input".into(),
            Some(c) if c.is_ascii_graphic() => format!("'{}'", *c as char),
            Some(c) => format!("byte 0x{c:02x}"),
        }
    }

    /// Skips JSON whitespace (space, tab, LF, CR).
    pub fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.pos) {
            self.pos += 1;
        }
    }

    /// The next non-whitespace byte, not consumed.
    pub fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.b.get(self.pos).copied()
    }

    /// Consumes `c` (after whitespace) or fails with `expected {what}`.
    pub fn expect(&mut self, c: u8, what: &str) -> R<()> {
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            let found = self.found();
            self.err(format!("expected {what}, found {found}"))
        }
    }

    /// Fails unless only whitespace is left.
    pub fn end(&mut self) -> R<()> {
        if self.peek().is_some() {
            let found = self.found();
            return self.err(format!("unexpected {found} after the value"));
        }
        Ok(())
    }

    /// After a member or element: `true` for `,` (another follows), `false`
    /// for `close` (consumed).
    pub fn next_or_close(&mut self, close: u8) -> R<bool> {
        match self.peek() {
            Some(b',') => {
                self.pos += 1;
                Ok(true)
            }
            Some(c) if c == close => {
                self.pos += 1;
                Ok(false)
            }
            _ => {
                let found = self.found();
                self.err(format!(
                    "expected ',' or '{}', found {found}",
                    close as char
                ))
            }
        }
    }

    /// Opens an object: `{`; `false` when it is empty (`}` consumed).
    pub fn open_object(&mut self) -> R<bool> {
        self.expect(b'{', "'{'")?;
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(false);
        }
        Ok(true)
    }

    /// Opens an array: `[`; `false` when it is empty (`]` consumed).
    pub fn open_array(&mut self) -> R<bool> {
        self.expect(b'[', "'['")?;
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(false);
        }
        Ok(true)
    }

    /// A member name and its colon.
    pub fn member_name(&mut self) -> R<std::borrow::Cow<'a, str>> {
        if self.peek() != Some(b'"') {
            let found = self.found();
            return self.err(format!("expected a member name (a string), found {found}"));
        }
        let name = self.string()?;
        if name == "__type__" {
            self.saw_type_tag = true;
        }
        self.expect(b':', "':' after a member name")?;
        Ok(name)
    }

    /// A string (the cursor at its opening quote, after whitespace).
    pub fn string(&mut self) -> R<std::borrow::Cow<'a, str>> {
        self.expect(b'"', "a string")?;
        let start = self.pos;
        // The common case: no escapes, borrowed. The first byte that is a
        // quote, a backslash or a control character is found eight bytes at
        // a time (the strings of requests are short: no call of memchr).
        let stop = crate::render::next_escape(self.b, start);
        if let Some(&c) = self.b.get(stop).filter(|&&c| c < 0x20) {
            self.pos = stop;
            return self.err(format!(
                "control character 0x{c:02x} in a string (escape it)"
            ));
        }
        self.pos = stop;
        match self.b.get(stop) {
            None => return self.err("unterminated string"),
            Some(b'"') => {
                // Both ends are at ASCII bytes of a &str: char boundaries
                // (the slice checks that, in O(1)).
                let s = &self.text[start..stop];
                self.pos += 1;
                return Ok(std::borrow::Cow::Borrowed(s));
            }
            Some(_) => {}
        }
        let mut out = String::with_capacity(self.pos - start + 16);
        out.push_str(&self.text[start..self.pos]);
        // The start of the run of plain bytes being read.
        let mut run = self.pos;
        loop {
            match self.b.get(self.pos) {
                None => return self.err("unterminated string"),
                Some(b'"') => {
                    out.push_str(&self.text[run..self.pos]);
                    self.pos += 1;
                    return Ok(std::borrow::Cow::Owned(out));
                }
                Some(b'\\') => {
                    out.push_str(&self.text[run..self.pos]);
                    let esc = self.b.get(self.pos + 1).copied();
                    let simple = match esc {
                        Some(b'"') => Some(b'"'),
                        Some(b'\\') => Some(b'\\'),
                        Some(b'/') => Some(b'/'),
                        Some(b'b') => Some(8),
                        Some(b'f') => Some(12),
                        Some(b'n') => Some(b'\n'),
                        Some(b'r') => Some(b'\r'),
                        Some(b't') => Some(b'\t'),
                        _ => None,
                    };
                    if let Some(c) = simple {
                        out.push(c as char);
                        self.pos += 2;
                        run = self.pos;
                        continue;
                    }
                    if esc != Some(b'u') {
                        return self.err("invalid escape in a string");
                    }
                    let hi = self.hex4(self.pos + 2)?;
                    let (ch, len) = if (0xD800..0xDC00).contains(&hi) {
                        if self.b.get(self.pos + 6) != Some(&b'\\')
                            || self.b.get(self.pos + 7) != Some(&b'u')
                        {
                            return self.err("unpaired surrogate in a \\u escape");
                        }
                        let lo = self.hex4(self.pos + 8)?;
                        if !(0xDC00..0xE000).contains(&lo) {
                            return self.err("unpaired surrogate in a \\u escape");
                        }
                        (0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00), 12)
                    } else if (0xDC00..0xE000).contains(&hi) {
                        return self.err("unpaired surrogate in a \\u escape");
                    } else {
                        (hi, 6)
                    };
                    out.push(char::from_u32(ch).unwrap_or('\u{FFFD}'));
                    self.pos += len;
                    run = self.pos;
                }
                Some(&c) if c < 0x20 => {
                    return self.err(format!(
                        "control character 0x{c:02x} in a string (escape it)"
                    ))
                }
                Some(_) => self.pos += 1,
            }
        }
    }

    fn hex4(&self, at: usize) -> R<u32> {
        let digits = self.b.get(at..at + 4);
        let value = digits.and_then(|d| {
            d.iter()
                .try_fold(0u32, |acc, &c| Some(acc * 16 + (c as char).to_digit(16)?))
        });
        match value {
            Some(v) => Ok(v),
            None => Err(SyntaxError {
                offset: self.pos,
                what: "a \\u escape needs four hex digits".into(),
                member: None,
            }),
        }
    }

    /// A number (the cursor at its first byte, after whitespace).
    fn number(&mut self) -> R<Value> {
        let start = self.pos;
        let b = self.b;
        let digits = |mut i: usize| {
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            i
        };
        let mut i = start;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        match b.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => i = digits(i),
            _ => {
                self.pos = i;
                return self.err("a number needs a digit after '-'");
            }
        }
        let int_end = i;
        if b.get(i) == Some(&b'.') {
            let j = digits(i + 1);
            if j == i + 1 {
                self.pos = i + 1;
                return self.err("a number needs a digit after '.'");
            }
            i = j;
        }
        if let Some(b'e' | b'E') = b.get(i) {
            i += 1;
            if let Some(b'+' | b'-') = b.get(i) {
                i += 1;
            }
            let j = digits(i);
            if j == i {
                self.pos = i;
                return self.err("a number needs a digit in its exponent");
            }
            i = j;
        }
        if b.get(i).is_some_and(u8::is_ascii_digit) {
            self.pos = i;
            return self.err("a number may not have a leading zero");
        }
        self.pos = i;
        // ASCII digits, signs, '.', 'e': UTF-8.
        let text = std::str::from_utf8(&b[start..i]).unwrap_or("0");
        if i == int_end {
            Ok(match text.parse::<i64>() {
                Ok(n) => Value::Int(n),
                Err(_) => Value::BigInt(ArcStr::from(text)),
            })
        } else {
            // Rust's parse rounds correctly; out of range is ±Infinity.
            Ok(Value::Float(text.parse::<f64>().unwrap_or(f64::NAN)))
        }
    }

    fn literal(&mut self, word: &str, v: Value) -> R<Value> {
        if self.b[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(v)
        } else {
            self.err(format!("invalid literal (expected '{word}')"))
        }
    }

    /// Any value, as a [`Value`] (wire `__type__` objects not decoded yet:
    /// see [`wire_value`]).
    pub fn value(&mut self) -> R<Value> {
        self.value_at(0)
    }

    fn value_at(&mut self, depth: usize) -> R<Value> {
        match self.peek() {
            None => self.err("expected a value, found the end of the input"),
            Some(b'"') => Ok(Value::String(Str::from(self.string()?.as_ref()))),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'n') => self.literal("null", Value::Nil),
            Some(b'[') | Some(b'{') if depth >= MAX_NESTING => {
                self.err(format!("nesting deeper than {MAX_NESTING} levels"))
            }
            Some(b'[') => crate::stack::grow(|| {
                let mut items = Vec::new();
                if self.open_array()? {
                    loop {
                        items.push(self.value_at(depth + 1)?);
                        if !self.next_or_close(b']')? {
                            break;
                        }
                    }
                }
                Ok(Value::array(items))
            }),
            Some(b'{') => crate::stack::grow(|| {
                let mut map = Map::default();
                if self.open_object()? {
                    loop {
                        let k = self.member_name()?;
                        let k = Value::String(Str::from(k.as_ref()));
                        let v = self.value_at(depth + 1)?;
                        map.insert(k, v);
                        if !self.next_or_close(b'}')? {
                            break;
                        }
                    }
                }
                Ok(Value::hash(map))
            }),
            Some(_) => {
                let found = self.found();
                self.err(format!("expected a value, found {found}"))
            }
        }
    }

    /// Skips a value (checked as strictly as [`Reader::value`]).
    pub fn skip_value(&mut self) -> R<()> {
        self.value().map(drop)
    }
}

/// Reads a whole text holding one wire value (what `scope_json`,
/// `options_json` and the like hold): strict JSON, `__type__` objects
/// decoded. `input` names the argument in errors.
pub fn wire_value(text: &str, input: &str) -> Result<Value, Error> {
    let mut r = Reader::new(text);
    let v = r
        .value()
        .and_then(|v| r.end().map(|()| v))
        .map_err(|e| e.into_error(input))?;
    decode(v, r.saw_type_tag, input)
}

/// Decodes the `__type__` objects of a value read by a [`Reader`] that saw
/// such a member (`tagged`); the value as it is otherwise.
pub(crate) fn decode(v: Value, tagged: bool, input: &str) -> Result<Value, Error> {
    if !tagged {
        return Ok(v);
    }
    crate::render::decode_wire(v).map_err(|e| {
        Error::new(
            ErrorKind::InvalidArgument,
            format!("{input}: {}", e.message),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(t: &str) -> Value {
        wire_value(t, "x").unwrap()
    }

    fn bad(t: &str) -> String {
        wire_value(t, "x").unwrap_err().message
    }

    #[test]
    fn reads_values() {
        assert_eq!(ok(" 1 "), Value::Int(1));
        assert_eq!(ok("-0"), Value::Int(0));
        assert_eq!(ok("1e3"), Value::Float(1000.0));
        assert_eq!(ok("-0.0"), Value::Float(-0.0));
        assert_eq!(ok("1e400"), Value::Float(f64::INFINITY));
        assert_eq!(
            ok("123456789012345678901234567890"),
            Value::BigInt(ArcStr::from("123456789012345678901234567890"))
        );
        assert_eq!(
            ok(r#""a\"\\\/\b\f\n\r\tb""#),
            Value::from("a\"\\/\u{8}\u{c}\n\r\tb")
        );
        assert_eq!(ok(r#""\u00e9\ud83d\ude00""#), Value::from("é😀"));
        assert_eq!(
            ok("[1,[true,false,null],{}]"),
            Value::array(vec![
                Value::Int(1),
                Value::array(vec![Value::Bool(true), Value::Bool(false), Value::Nil]),
                Value::empty_hash()
            ])
        );
        let h = ok(r#"{"a":1,"b":2,"a":3}"#);
        let Value::Hash(m) = &h else { panic!() };
        let keys: Vec<_> = m.keys().map(|k| k.as_str().unwrap()).collect();
        assert_eq!(keys, ["a", "b"]);
        assert_eq!(m.get(&Value::from("a")), Some(&Value::Int(3)));
        assert_eq!(
            ok(r#"{"__type__":"Symbol","value":"s"}"#),
            Value::Symbol(ArcStr::from("s"))
        );
    }

    #[test]
    fn refuses_what_rfc_8259_refuses() {
        let cases = [
            (
                "{\"a\":1 /* c */}",
                "expected ',' or '}', found '/' at byte 7",
            ),
            ("// c\n1", "expected a value, found '/' at byte 0"),
            ("NaN", "expected a value, found 'N' at byte 0"),
            ("01", "leading zero at byte 1"),
            ("1.", "digit after '.' at byte 2"),
            ("-", "digit after '-' at byte 1"),
            ("1e", "digit in its exponent at byte 2"),
            ("\"\\q\"", "invalid escape in a string at byte 1"),
            ("\"\\ud800\"", "unpaired surrogate"),
            ("\"\\udc00\"", "unpaired surrogate"),
            ("\"a\tb\"", "control character 0x09"),
            ("\"abc", "unterminated string at byte 4"),
            ("[1,]", "expected a value, found ']' at byte 3"),
            (
                "{\"a\" 1}",
                "expected ':' after a member name, found '1' at byte 5",
            ),
            (
                "{a:1}",
                "expected a member name (a string), found 'a' at byte 1",
            ),
            ("1 2", "unexpected '2' after the value at byte 2"),
            ("", "expected a value, found the end of the input at byte 0"),
            ("tru", "invalid literal (expected 'true') at byte 0"),
        ];
        for (text, want) in cases {
            let m = bad(text);
            assert!(m.starts_with("x is not valid JSON: "), "{text}: {m}");
            assert!(m.contains(want), "{text}: {m} (wanted {want})");
        }
    }

    #[test]
    fn reads_back_what_the_writer_writes() {
        let mut text: String = (0u8..0x20).map(char::from).collect();
        text.push_str("plain é😀 \" \\ / \u{7f}\u{2028} end");
        let mut json = String::new();
        crate::render::json_string(&text, &mut json);
        assert!(json.contains("\\u0000") && json.contains("\\u001f") && json.contains("\\b"));
        assert_eq!(ok(&json), Value::from(text.as_str()));
        assert_eq!(ok(r#""a\nb\u0041c""#), Value::from("a\nbAc"));
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = "[".repeat(MAX_NESTING) + &"]".repeat(MAX_NESTING);
        assert!(wire_value(&deep, "x").is_ok());
        let deeper = "[".repeat(MAX_NESTING + 1) + &"]".repeat(MAX_NESTING + 1);
        assert!(bad(&deeper).contains("nesting deeper than 512 levels"));
        // Far deeper input fails without exhausting the stack.
        let huge = "[".repeat(1_000_000);
        assert!(bad(&huge).contains("nesting"));
    }
}
