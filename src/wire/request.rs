//! Lookup requests read straight from their JSON text: the members of the
//! request object go into a [`Request`] as they are read (the key as a
//! string, never a generic value tree); only the values a request carries
//! (`merge`, `default`, `override`, ...) become [`Value`]s.
//!
//! Errors are of kind `invalid_argument`: syntax errors name the byte
//! offset and the member they are in, request errors the member
//! (`'key' must be a string or a non-empty array of strings`).

use super::read::{decode, Reader, SyntaxError};
use crate::error::{Error, ErrorKind};
use crate::hiera5::lookup::LookupRequest;
use crate::request::Request;
use crate::value::{Map, Value};

fn invalid(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidArgument, msg)
}

/// A syntax error inside member `member` of a request.
fn in_member(e: SyntaxError, member: &str) -> SyntaxError {
    SyntaxError {
        member: Some(member.to_string()),
        ..e
    }
}

/// Reads one request from `text` (`input` names the argument in errors,
/// e.g. `request_json`): a JSON object and nothing after it.
pub fn parse_request(text: &str, input: &str) -> Result<Request, Error> {
    if let Some(key) = key_only_str(text) {
        return Ok(Request {
            lookup: LookupRequest::key(key),
            explain: false,
        });
    }
    read_one(text, input)
}

/// The key of the most common request, `{"key":"NAME"}` written exactly
/// so (no whitespace, no other member), whose NAME has no escape and no
/// control character: what the reader would make of it, without reading
/// it, read from the request's bytes (not yet checked for UTF-8). Returns
/// the key's bytes and whether they are all ASCII (then they are UTF-8
/// without a check; other bytes are the caller's to check). Anything else
/// is `None` and goes to the reader. Its callers may look the key up
/// borrowed, as [`parse_request`]'s one-key request.
#[inline(always)]
pub fn key_only(text: &[u8]) -> Option<(&[u8], bool)> {
    let key = text.strip_prefix(b"{\"key\":\"")?.strip_suffix(b"\"}")?;
    let (plain, ascii) = scan(key);
    plain.then_some((key, ascii))
}

/// [`key_only`] of a text already UTF-8: the key as a `str`.
pub fn key_only_str(text: &str) -> Option<&str> {
    // The frame is ASCII, so the key's bounds are character bounds.
    key_only(text.as_bytes()).map(|(key, _)| &text[8..8 + key.len()])
}

/// Whether no byte of `b` is `"`, `\` or a control character, and whether
/// every byte is ASCII: a word (eight bytes) at a time, the last word
/// overlapping the one before it, a key under eight bytes padded with
/// spaces.
#[inline(always)]
fn scan(b: &[u8]) -> (bool, bool) {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    #[inline(always)]
    fn word(w: &[u8]) -> u64 {
        let mut word = [0u8; 8];
        word.copy_from_slice(w);
        u64::from_le_bytes(word)
    }
    let n = b.len();
    let (escapes, high) = if n < 8 {
        let mut padded = [b' '; 8];
        padded[..n].copy_from_slice(b);
        let w = word(&padded);
        (crate::render::escape_bits(w), w)
    } else {
        // Branch-free: the bits of every word gathered, tested once.
        let (mut escapes, mut high) = (0, 0);
        let mut i = 0;
        while i + 8 < n {
            let w = word(&b[i..i + 8]);
            escapes |= crate::render::escape_bits(w);
            high |= w;
            i += 8;
        }
        let w = word(&b[n - 8..]);
        (escapes | crate::render::escape_bits(w), high | w)
    };
    (escapes == 0, high & HIGH == 0)
}

/// [`parse_request`] by the reader, without [`key_only`]'s check first:
/// for a text whose caller has already seen [`key_only`] refuse it.
pub fn read_one(text: &str, input: &str) -> Result<Request, Error> {
    let mut r = Reader::new(text);
    match read_request(&mut r, input) {
        Ok(req) => {
            r.end().map_err(|e| e.into_error(input))?;
            req
        }
        Err(e) => Err(e.into_error(input)),
    }
}

/// Reads a JSON array of requests (`hiera_lookup_many`): each entry a
/// request, or the error that entry is (not a request object, an unknown
/// member, ...). A syntax error anywhere fails the whole text.
pub fn parse_requests(text: &str, input: &str) -> Result<Vec<Result<Request, Error>>, Error> {
    let mut r = Reader::new(text);
    let mut out = Vec::new();
    let read = |r: &mut Reader, out: &mut Vec<_>| -> Result<(), SyntaxError> {
        if r.peek() != Some(b'[') {
            // Not an array: a syntax error if it is not JSON at all.
            r.skip_value()?;
            r.end()?;
            return Err(SyntaxError {
                offset: 0,
                what: String::new(),
                member: None,
            });
        }
        if r.open_array()? {
            loop {
                out.push(read_request(r, input)?);
                if !r.next_or_close(b']')? {
                    break;
                }
            }
        }
        r.end()
    };
    match read(&mut r, &mut out) {
        Ok(()) => Ok(out),
        Err(e) if e.what.is_empty() => {
            Err(invalid(format!("{input} must be a JSON array of requests")))
        }
        Err(e) => Err(e.into_error(input)),
    }
}

/// Reads a JSON array of strings (`hiera_lookup_keys`' `keys_json`).
pub fn parse_keys(text: &str, input: &str) -> Result<Vec<String>, Error> {
    let mut r = Reader::new(text);
    let mut keys = Vec::new();
    let mut all_strings = r.peek() == Some(b'[');
    let read = |r: &mut Reader, keys: &mut Vec<String>, ok: &mut bool| -> Result<(), SyntaxError> {
        if !*ok {
            r.skip_value()?;
            return r.end();
        }
        if r.open_array()? {
            loop {
                if r.peek() == Some(b'"') {
                    keys.push(r.string()?.into_owned());
                } else {
                    *ok = false;
                    r.skip_value()?;
                }
                if !r.next_or_close(b']')? {
                    break;
                }
            }
        }
        r.end()
    };
    read(&mut r, &mut keys, &mut all_strings).map_err(|e| e.into_error(input))?;
    if !all_strings {
        return Err(invalid(format!("{input} must be a JSON array of strings")));
    }
    Ok(keys)
}

/// Reads a request object at the cursor. The outer error is a syntax error
/// (the text cannot be read further); the inner one what is wrong with a
/// well-formed value as a request (the whole value is read either way).
fn read_request(r: &mut Reader, input: &str) -> Result<Result<Request, Error>, SyntaxError> {
    if r.peek() != Some(b'{') {
        r.skip_value()?;
        return Ok(Err(invalid("a request must be a JSON object")));
    }
    let mut req = Request::default();
    let mut has_key = false;
    let mut problem: Option<Error> = None;
    if r.open_object()? {
        loop {
            let name = r.member_name()?;
            let outcome = if problem.is_some() {
                r.skip_value().map_err(|e| in_member(e, &name))?;
                Ok(())
            } else {
                member(r, &name, &mut req, &mut has_key, input).map_err(|e| in_member(e, &name))?
            };
            if let Err(e) = outcome {
                problem = Some(e);
            }
            if !r.next_or_close(b'}')? {
                break;
            }
        }
    }
    if let Some(e) = problem {
        return Ok(Err(e));
    }
    if !has_key {
        return Ok(Err(invalid("a request needs a 'key'")));
    }
    Ok(Ok(req))
}

/// A value of the request, wire-decoded.
fn wire(r: &mut Reader, input: &str) -> Result<Result<Value, Error>, SyntaxError> {
    r.saw_type_tag = false;
    let v = r.value()?;
    Ok(decode(v, r.saw_type_tag, input))
}

fn hash_field(name: &str, v: Value) -> Result<Map, Error> {
    match v {
        Value::Hash(h) => Ok(h),
        Value::Nil => Ok(Map::default()),
        _ => Err(invalid(format!("'{name}' must be an object"))),
    }
}

/// One member: read into `req`. Outer error: syntax; inner: the member's
/// value is not what the request needs.
fn member(
    r: &mut Reader,
    name: &str,
    req: &mut Request,
    has_key: &mut bool,
    input: &str,
) -> Result<Result<(), Error>, SyntaxError> {
    let bad_key = || invalid("'key' must be a string or a non-empty array of strings");
    Ok(match name {
        "key" => {
            *has_key = true;
            match r.peek() {
                Some(b'"') => {
                    req.lookup.keys = vec![r.string()?.into_owned()];
                    Ok(())
                }
                Some(b'[') => {
                    let mut keys = Vec::new();
                    let mut ok = true;
                    if r.open_array()? {
                        loop {
                            if r.peek() == Some(b'"') {
                                keys.push(r.string()?.into_owned());
                            } else {
                                ok = false;
                                r.skip_value()?;
                            }
                            if !r.next_or_close(b']')? {
                                break;
                            }
                        }
                    }
                    if ok && !keys.is_empty() {
                        req.lookup.keys = keys;
                        Ok(())
                    } else {
                        Err(bad_key())
                    }
                }
                _ => {
                    r.skip_value()?;
                    Err(bad_key())
                }
            }
        }
        "merge" => wire(r, input)?.map(|v| {
            if !v.is_nil() {
                req.lookup.merge = Some(v)
            }
        }),
        "default" => wire(r, input)?.map(|v| req.lookup.default = Some(v)),
        "default_values_hash" => wire(r, input)?
            .and_then(|v| hash_field(name, v))
            .map(|m| req.lookup.default_values_hash = m),
        "override" => wire(r, input)?
            .and_then(|v| hash_field(name, v))
            .map(|m| req.lookup.override_values = m),
        "hiera3_variables" => wire(r, input)?.and_then(|v| match v {
            Value::Nil => Ok(()),
            v => hash_field(name, v).map(|m| req.lookup.hiera3_variables = Some(m)),
        }),
        "local_variables" => match r.peek() {
            Some(b'n') => r.value().map(|_| Ok(()))?,
            Some(b'[') => {
                let mut names = Vec::new();
                let mut ok = true;
                if r.open_array()? {
                    loop {
                        if r.peek() == Some(b'"') {
                            names.push(r.string()?.into_owned());
                        } else {
                            ok = false;
                            r.skip_value()?;
                        }
                        if !r.next_or_close(b']')? {
                            break;
                        }
                    }
                }
                if ok {
                    req.lookup.local_variables = names;
                    Ok(())
                } else {
                    Err(invalid("'local_variables' must be an array of strings"))
                }
            }
            _ => {
                r.skip_value()?;
                Err(invalid("'local_variables' must be an array of strings"))
            }
        },
        "known_variables" => match r.value()? {
            Value::Nil => Ok(()),
            Value::Int(n) if n >= 0 => {
                req.lookup.known_variables = Some(usize::try_from(n).unwrap_or(usize::MAX));
                Ok(())
            }
            _ => Err(invalid("'known_variables' must be a non-negative integer")),
        },
        "explain" => match r.value()? {
            Value::Bool(b) => {
                req.explain = b;
                Ok(())
            }
            Value::Nil => Ok(()),
            _ => Err(invalid("'explain' must be a boolean")),
        },
        other => {
            let e = invalid(format!("unknown request field '{other}'"));
            r.skip_value()?;
            Err(e)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(text: &str) -> String {
        parse_request(text, "request_json").unwrap_err().message
    }

    #[test]
    fn key_only_requests_read_as_the_reader_reads_them() {
        for text in [
            r#"{"key":"a::b"}"#,
            r#"{"key":"ntp::servers.0"}"#,
            r#"{"key":"ké"}"#,
            r#"{"key":""}"#,
            r#"{"key":"'quoted'.x"}"#,
        ] {
            assert!(key_only_str(text).is_some(), "{text}");
            let fast = parse_request(text, "request_json").unwrap();
            let read = read_one(text, "request_json").unwrap();
            assert_eq!(format!("{fast:?}"), format!("{read:?}"), "{text}");
        }
        // Everything else is the reader's, errors included.
        for text in [
            r#"{"key":"a\"b"}"#,
            r#"{"key":"a\u0041"}"#,
            "{\"key\":\"a\tb\"}",
            r#"{"key":"a"} "#,
            r#"{ "key":"a"}"#,
            r#"{"key":"a","merge":"deep"}"#,
            r#"{"key":"a"}}"#,
            r#"{"key":"a"},{"key":"b"}"#,
        ] {
            assert!(key_only_str(text).is_none(), "{text}");
        }
        assert!(msg(r#"{"key":"a"},{"key":"b"}"#).contains("after the value"));
        // An escape or a control character at every offset of longer keys
        // (the eight-byte words and the tail) sends the text to the reader.
        for len in 1..30 {
            let key: String = "profile::a_long_module::param_x"[..len].to_string();
            assert_eq!(
                key_only_str(&format!("{{\"key\":\"{key}\"}}")),
                Some(key.as_str())
            );
            for at in 0..len {
                for c in ['"', '\\', '\n', '\u{1}'] {
                    let mut k = key.clone();
                    k.replace_range(at..at + 1, &c.to_string());
                    assert_eq!(key_only_str(&format!("{{\"key\":\"{k}\"}}")), None, "{k:?}");
                }
            }
        }
    }

    #[test]
    fn key_only_says_which_keys_are_ascii() {
        // Every byte value at every offset of keys of 0 to 30 bytes: a key
        // with no quote, backslash or control byte is the key, ASCII when
        // no byte is above 0x7f; a UTF-8 text's key is the reader's.
        let base = "profile::a_long_module::param_x";
        for len in 0..=base.len() {
            let key = &base.as_bytes()[..len];
            let text = [b"{\"key\":\"".as_slice(), key, b"\"}"].concat();
            assert_eq!(key_only(&text), Some((key, true)));
            for at in 0..len {
                for byte in 0..=255u8 {
                    let mut k = key.to_vec();
                    k[at] = byte;
                    let text = [b"{\"key\":\"".as_slice(), &k, b"\"}"].concat();
                    let plain = byte >= 0x20 && byte != b'"' && byte != b'\\';
                    let want = plain.then_some((k.as_slice(), byte < 0x80));
                    assert_eq!(key_only(&text), want, "{k:?}");
                    if let (Ok(text), true) = (std::str::from_utf8(&text), plain) {
                        let fast = parse_request(text, "request_json").unwrap();
                        let read = read_one(text, "request_json").unwrap();
                        assert_eq!(format!("{fast:?}"), format!("{read:?}"), "{text}");
                    }
                }
            }
        }
        assert_eq!(
            key_only(r#"{"key":"ké"}"#.as_bytes()),
            Some(("ké".as_bytes(), false))
        );
        for text in [
            r#"{"key":"a"} "#,
            r#"{ "key":"a"}"#,
            r#"{"key":"a","merge":"deep"}"#,
            r#"{"key":"a"}}"#,
        ] {
            assert_eq!(key_only(text.as_bytes()), None, "{text}");
        }
    }

    #[test]
    fn reads_requests() {
        let r = parse_request(
            r#" {"key":["a","b"],"merge":"deep","default":null,"explain":true,
                "override":{"x":1},"local_variables":["v"],"known_variables":3} "#,
            "request_json",
        )
        .unwrap();
        assert_eq!(r.lookup.keys, vec!["a", "b"]);
        assert_eq!(r.lookup.merge, Some(Value::from("deep")));
        assert_eq!(r.lookup.default, Some(Value::Nil));
        assert_eq!(r.lookup.override_values.len(), 1);
        assert_eq!(r.lookup.local_variables, vec!["v"]);
        assert_eq!(r.lookup.known_variables, Some(3));
        assert!(r.explain);
        let r = parse_request(r#"{"key":"k\u00e9","merge":null}"#, "request_json").unwrap();
        assert_eq!(r.lookup.keys, vec!["ké"]);
        assert_eq!(r.lookup.merge, None);
        // Wire-typed values are decoded.
        let r = parse_request(
            r#"{"key":"k","default":{"__type__":"Float","value":"NaN"}}"#,
            "request_json",
        )
        .unwrap();
        assert!(matches!(r.lookup.default, Some(Value::Float(f)) if f.is_nan()));
    }

    #[test]
    fn request_errors_name_the_member() {
        assert_eq!(
            msg(r#"{"key":"a","bogus":1}"#),
            "unknown request field 'bogus'"
        );
        assert_eq!(msg(r#"{"merge":"deep"}"#), "a request needs a 'key'");
        assert_eq!(msg(r#"[1]"#), "a request must be a JSON object");
        assert_eq!(
            msg(r#"{"key":[]}"#),
            "'key' must be a string or a non-empty array of strings"
        );
        assert_eq!(
            msg(r#"{"key":["a",1]}"#),
            "'key' must be a string or a non-empty array of strings"
        );
        assert_eq!(
            msg(r#"{"key":"a","explain":"yes"}"#),
            "'explain' must be a boolean"
        );
        assert_eq!(
            msg(r#"{"key":"a","override":[1]}"#),
            "'override' must be an object"
        );
        assert_eq!(
            msg(r#"{"key":"a","known_variables":-1}"#),
            "'known_variables' must be a non-negative integer"
        );
        assert_eq!(
            msg(r#"{"key":"a","default":{"__type__":"Float","value":"x"}}"#),
            "request_json: invalid Float value 'x'"
        );
    }

    #[test]
    fn syntax_errors_name_offset_and_member() {
        assert_eq!(
            msg(r#"{"key":"a""#),
            "request_json is not valid JSON: expected ',' or '}', found the end of the input at byte 10"
        );
        assert_eq!(
            msg(r#"{"key":"a","default":[1,}"#),
            "request_json is not valid JSON: expected a value, found '}' at byte 24 (in member 'default')"
        );
        assert_eq!(
            msg("{\"key\":\"a\" /* comment */}"),
            "request_json is not valid JSON: expected ',' or '}', found '/' at byte 11"
        );
        assert_eq!(
            msg(r#"{"key":"a"} x"#),
            "request_json is not valid JSON: unexpected 'x' after the value at byte 12"
        );
        // A syntax error wins over a request error before it.
        assert!(msg(r#"{"bogus":1,"key":"a""#).contains("not valid JSON"));
    }

    #[test]
    fn reads_request_arrays() {
        let rs = parse_requests(r#"[{"key":"a"}, 7, {"key":"b","x":1}]"#, "requests_json").unwrap();
        assert_eq!(rs.len(), 3);
        assert_eq!(rs[0].as_ref().unwrap().lookup.keys, vec!["a"]);
        assert_eq!(
            rs[1].as_ref().unwrap_err().message,
            "a request must be a JSON object"
        );
        assert_eq!(
            rs[2].as_ref().unwrap_err().message,
            "unknown request field 'x'"
        );
        assert!(parse_requests("[]", "r").unwrap().is_empty());
        assert_eq!(
            parse_requests(r#"{"key":"a"}"#, "requests_json")
                .unwrap_err()
                .message,
            "requests_json must be a JSON array of requests"
        );
        assert!(parse_requests(r#"[{"key":"a"}"#, "requests_json")
            .unwrap_err()
            .message
            .starts_with("requests_json is not valid JSON: "));
        assert_eq!(
            parse_keys(r#"["a","b"]"#, "keys_json").unwrap(),
            vec!["a", "b"]
        );
        assert_eq!(
            parse_keys(r#"["a",1]"#, "keys_json").unwrap_err().message,
            "keys_json must be a JSON array of strings"
        );
        assert!(parse_keys(r#"["a""#, "keys_json")
            .unwrap_err()
            .message
            .contains("byte 4"));
    }
}
