//! The JSON wire format of values: what the CLI prints, the C ABI answers
//! and every `expected.json` holds, and reading it back. Ruby's `to_s`,
//! `inspect` and `Float#to_s` are in [`crate::ruby`], `to_yaml` in
//! [`crate::yaml`], the `--explain` value text in the explain module.
//!
//! [`to_json_pretty`] keeps empty containers as `{}`/`[]` (the format of
//! `expected.json`), not json 2.6.1's `{\n  }`/`[\n\n  ]`.

use crate::error::{Error, ErrorKind, Result};
use crate::ruby::{base64, float_to_s};
use crate::value::Shared;
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
    let mut out = String::with_capacity(json_capacity(v));
    write_json(v, None, 0, &mut out);
    out
}

/// A first guess at the length of a value's compact JSON, one byte over so
/// that a C string's NUL fits too ([`crate::ffi`] hands most answers out
/// as C strings): a String exactly, a container a few bytes an element.
/// The text grows past it as any `String` does.
fn json_capacity(v: &Value) -> usize {
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
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    let mut n = i.unsigned_abs();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if i < 0 {
        out.push('-');
    }
    // Only ASCII digits were written.
    out.push_str(std::str::from_utf8(&buf[at..]).unwrap_or_default());
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
    out.push('"');
    // Runs of bytes that need no escape are copied whole: every byte of a
    // multi-byte character is >= 0x80, so a run never splits a character.
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let esc: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            8 => "\\b",
            12 => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if esc.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 15) as usize] as char);
        } else {
            out.push_str(esc);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
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
                for item in Shared::make_mut(&mut a).iter_mut() {
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
                for (_, v) in Shared::make_mut(&mut h).iter_mut() {
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
