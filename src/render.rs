//! Turning values into text: the JSON wire format of the CLI and the test
//! oracle (and reading it back), the value text of Puppet's `--explain` and
//! Ruby's `to_yaml`. Ruby's own `to_s`, `inspect` and `Float#to_s` are in
//! [`crate::ruby`].
//!
//! Everything here was checked against Ruby 3.1.2 (Psych 4.0.3, libyaml
//! 0.2.5) on the development machine; the unit tests hold its outputs.
//!
//! Known differences from Ruby:
//! * [`to_json_pretty`] keeps empty containers as `{}`/`[]` (the format of
//!   `expected.json`), not json 2.6.1's `{\n  }`/`[\n\n  ]`.
//! * [`to_yaml`] never emits anchors/aliases (`&1`/`*1`) for containers
//!   that Ruby would see as the same object twice, and writes a `Sensitive`
//!   as the string `Sensitive [value redacted]` (what `puppet lookup` shows).

use crate::error::{Error, ErrorKind, Result};
use crate::ruby::{base64, float_to_s, inspect_into, SENSITIVE_TEXT};
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
    let mut out = String::new();
    write_json(v, None, 0, &mut out);
    out
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
        Value::Int(i) => out.push_str(&i.to_string()),
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

fn decode_wire(v: Value) -> Result<Value> {
    crate::stack::grow(|| {
        match v {
            Value::Array(mut a) => {
                // In place: the parser's containers are not shared.
                for item in Arc::make_mut(&mut a).iter_mut() {
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
                for (_, v) in Arc::make_mut(&mut h).iter_mut() {
                    *v = decode_wire(std::mem::take(v))?;
                }
                Ok(Value::Hash(h))
            }
            other => Ok(other),
        }
    })
}

// ---------------------------------------------------------------------------
// Puppet --explain value text
// ---------------------------------------------------------------------------

/// The value text of `puppet lookup --explain` (Puppet's
/// `ExplainTreeNode#dump_value`): containers one entry per line, each
/// indented two more spaces than `indent`, `"k" => v` pairs joined by
/// `,\n`, the closing bracket at `indent`; anything else as `inspect`.
pub fn explain_value(v: &Value, indent: usize, out: &mut String) {
    crate::stack::grow(|| {
        let pad = |n: usize, out: &mut String| out.extend(std::iter::repeat_n(' ', n));
        match v {
            Value::Hash(h) => {
                out.push('{');
                if !h.is_empty() {
                    let inner = indent + 2;
                    for (i, (k, x)) in h.iter().enumerate() {
                        out.push_str(if i == 0 { "\n" } else { ",\n" });
                        pad(inner, out);
                        explain_value(k, inner, out);
                        out.push_str(" => ");
                        explain_value(x, inner, out);
                    }
                    out.push('\n');
                    pad(indent, out);
                }
                out.push('}');
            }
            Value::Array(a) => {
                out.push('[');
                if !a.is_empty() {
                    let inner = indent + 2;
                    for (i, x) in a.iter().enumerate() {
                        out.push_str(if i == 0 { "\n" } else { ",\n" });
                        pad(inner, out);
                        explain_value(x, inner, out);
                    }
                    out.push('\n');
                    pad(indent, out);
                }
                out.push(']');
            }
            other => inspect_into(other, out),
        }
    })
}

// ---------------------------------------------------------------------------
// YAML (Psych 4.0.3 YAMLTree + libyaml 0.2.5 emitter)
// ---------------------------------------------------------------------------

/// Ruby's `value.to_yaml`: a `---` document as Psych writes it, ending in
/// a newline.
pub fn to_yaml(v: &Value) -> String {
    let node = yaml_node(v);
    let mut e = Emitter::new();
    e.document(&node);
    e.out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    Any,
    Plain,
    Single,
    Double,
    Literal,
}

struct Scalar {
    value: String,
    tag: Option<&'static str>,
    plain_implicit: bool,
    quoted_implicit: bool,
    style: Style,
}

enum Node {
    Scalar(Scalar),
    Seq(Vec<Node>),
    Map(Vec<(Node, Node)>),
}

fn plain_scalar(value: String) -> Node {
    Node::Scalar(Scalar {
        value,
        tag: None,
        plain_implicit: true,
        quoted_implicit: false,
        style: Style::Any,
    })
}

/// Psych's `YAMLTree` visitor: the events Ruby's `to_yaml` emits.
fn yaml_node(v: &Value) -> Node {
    crate::stack::grow(|| match v {
        Value::Nil => Node::Scalar(Scalar {
            value: String::new(),
            tag: Some("tag:yaml.org,2002:null"),
            plain_implicit: true,
            quoted_implicit: false,
            style: Style::Any,
        }),
        Value::Bool(b) => plain_scalar(b.to_string()),
        Value::Int(i) => plain_scalar(i.to_string()),
        Value::BigInt(s) => plain_scalar(s.to_string()),
        Value::Float(f) => plain_scalar(if f.is_nan() {
            ".nan".into()
        } else if f.is_infinite() {
            if *f > 0.0 {
                ".inf".into()
            } else {
                "-.inf".into()
            }
        } else {
            float_to_s(*f)
        }),
        Value::String(s) => string_node(s),
        Value::Bytes(b) => match std::str::from_utf8(b) {
            Ok(s) => string_node(s),
            Err(_) => Node::Scalar(Scalar {
                value: base64::encode(b),
                tag: Some("!binary"),
                plain_implicit: false,
                quoted_implicit: false,
                style: Style::Literal,
            }),
        },
        Value::Symbol(s) if s.is_empty() => Node::Scalar(Scalar {
            value: String::new(),
            tag: Some("!ruby/symbol"),
            plain_implicit: false,
            quoted_implicit: false,
            style: Style::Any,
        }),
        Value::Symbol(s) => plain_scalar(format!(":{}", s)),
        Value::Sensitive(_) => string_node(SENSITIVE_TEXT),
        Value::Rich(r) => string_node(&r.1),
        Value::Array(a) => Node::Seq(a.iter().map(yaml_node).collect()),
        Value::Hash(h) => Node::Map(
            h.iter()
                .map(|(k, x)| (yaml_node(k), yaml_node(x)))
                .collect(),
        ),
    })
}

/// Psych's `visit_String` for a UTF-8 string.
fn string_node(s: &str) -> Node {
    let mut tag = None;
    let mut quoted_implicit = true;
    let mut plain_implicit = true;
    let style = if has_inner_newline(s) {
        Style::Literal
    } else if s == "<<" {
        tag = Some("tag:yaml.org,2002:str");
        plain_implicit = false;
        quoted_implicit = false;
        Style::Single
    } else if s == "y" || s == "n" || nonword_line(s) {
        Style::Double
    } else if s.contains('\n') {
        // Only a trailing newline: the emitter quotes it whatever the
        // scalar scanner would say.
        Style::Plain
    } else if !tokenizes_as_string(s) || octal_with_8_or_9(s) {
        Style::Single
    } else {
        Style::Plain
    };
    Node::Scalar(Scalar {
        value: s.to_string(),
        tag,
        plain_implicit,
        quoted_implicit,
        style,
    })
}

/// `s =~ /\n(?!\Z)/`: a newline that is not the last character nor the
/// first of a final `\n\n`.
fn has_inner_newline(s: &str) -> bool {
    let b = s.as_bytes();
    let n = b.len();
    b.iter()
        .enumerate()
        .any(|(i, &c)| c == b'\n' && !(i + 1 == n || (i + 2 == n && b[i + 1] == b'\n')))
}

/// `s =~ /^[^[:word:]][^"]*$/` with Ruby's line anchors.
fn nonword_line(s: &str) -> bool {
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let at_line_start = i == 0 || chars[i - 1] == '\n';
        if at_line_start && !crate::ruby::unicode::word(chars[i]) {
            // [^"]* then $ (end of string or before a newline).
            let mut j = i + 1;
            loop {
                if j == chars.len() || chars[j] == '\n' {
                    return true;
                }
                if chars[j] == '"' {
                    break;
                }
                j += 1;
            }
        }
        i += 1;
    }
    false
}

/// `/\A0[0-7]*[89]/`
fn octal_with_8_or_9(s: &str) -> bool {
    let b = s.as_bytes();
    if b.first() != Some(&b'0') {
        return false;
    }
    let rest = &b[1..];
    let k = rest
        .iter()
        .take_while(|c| (b'0'..=b'7').contains(c))
        .count();
    matches!(rest.get(k), Some(b'8' | b'9'))
}

fn all_digits(s: &[u8]) -> bool {
    s.iter().all(u8::is_ascii_digit)
}

fn ruby_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{b}' | '\u{c}' | '\r')
}

/// Whether Psych's `ScalarScanner#tokenize` leaves `s` (no newline in it)
/// a String.
fn tokenizes_as_string(s: &str) -> bool {
    if s.is_empty() {
        return false;
    }
    let chars: Vec<char> = s.chars().collect();
    // /^[^\d.:-]?[[:alpha:]_\s!@#$%\^&*(){}<>|\/\\~;=]+/
    let in_set =
        |c: char| c.is_alphabetic() || ruby_space(c) || "_!@#$%^&*(){}<>|/\\~;=".contains(c);
    let first_ok = !(chars[0].is_ascii_digit() || ".:-".contains(chars[0]));
    if in_set(chars[0]) || (first_ok && chars.get(1).is_some_and(|&c| in_set(c))) {
        if chars.len() > 5 || !"ytonfYTONF~".contains(chars[0]) {
            return true;
        }
        let lower = s.to_ascii_lowercase();
        return !matches!(
            lower.as_str(),
            "~" | "null" | "yes" | "true" | "on" | "no" | "false" | "off"
        );
    }
    let b = s.as_bytes();
    if let Some(valid) = time_token(b) {
        return !valid;
    }
    if let Some(valid) = date_token(b) {
        return !valid;
    }
    let lower = s.to_ascii_lowercase();
    if matches!(lower.as_str(), ".inf" | "+.inf" | "-.inf" | ".nan") {
        return false;
    }
    if chars[0] == ':' && chars.len() >= 2 {
        return false;
    }
    if sexagesimal(b) {
        return false;
    }
    if let Some(is_float) = float_token(b) {
        return !is_float;
    }
    !integer_token(b)
}

fn strip_sign(b: &[u8]) -> &[u8] {
    match b.first() {
        Some(b'+' | b'-') => &b[1..],
        _ => b,
    }
}

/// `^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}$` or the same with
/// `\.[0-9_]*` after it.
fn sexagesimal(b: &[u8]) -> bool {
    let b = strip_sign(b);
    if !b.first().is_some_and(u8::is_ascii_digit) {
        return false;
    }
    let (body, _frac) = match b.iter().position(|&c| c == b'.') {
        Some(p) => {
            if !b[p + 1..].iter().all(|&c| c.is_ascii_digit() || c == b'_') {
                return false;
            }
            (&b[..p], Some(&b[p + 1..]))
        }
        None => (b, None),
    };
    let mut parts = body.split(|&c| c == b':');
    let head = parts.next().unwrap_or_default();
    if !head.iter().all(|&c| c.is_ascii_digit() || c == b'_') {
        return false;
    }
    let groups: Vec<&[u8]> = parts.collect();
    if groups.is_empty() || groups.len() > 2 {
        return false;
    }
    groups.iter().all(|g| match g.len() {
        1 => g[0].is_ascii_digit(),
        2 => (b'0'..=b'5').contains(&g[0]) && g[1].is_ascii_digit(),
        _ => false,
    })
}

/// FLOAT: `^[-+]?([0-9][0-9_,]*)?\.[0-9]*([eE][-+][0-9]+)?$`; `Some(false)`
/// for the bare `[-+]?.` that Psych keeps a String.
fn float_token(b: &[u8]) -> Option<bool> {
    let body = strip_sign(b);
    let mut i = 0;
    if body.first().is_some_and(u8::is_ascii_digit) {
        while body
            .get(i)
            .is_some_and(|&c| c.is_ascii_digit() || c == b'_' || c == b',')
        {
            i += 1;
        }
    }
    if body.get(i) != Some(&b'.') {
        return None;
    }
    i += 1;
    while body.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    if matches!(body.get(i), Some(b'e' | b'E')) {
        if !matches!(body.get(i + 1), Some(b'+' | b'-')) {
            return None;
        }
        let st = i + 2;
        let mut j = st;
        while body.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        if j == st {
            return None;
        }
        i = j;
    }
    if i != body.len() {
        return None;
    }
    Some(body != b".")
}

/// INTEGER (binary, octal, decimal with `,`/`_` separators, hex).
fn integer_token(b: &[u8]) -> bool {
    let r = strip_sign(b);
    if let Some(bin) = r.strip_prefix(b"0b") {
        if !bin.is_empty() && bin.iter().all(|c| b"01_,".contains(c)) {
            return true;
        }
    }
    if let Some(oct) = r.strip_prefix(b"0") {
        if !oct.is_empty() && oct.iter().all(|c| b"01234567_,".contains(c)) {
            return true;
        }
    }
    if let Some(hex) = r.strip_prefix(b"0x") {
        if !hex.is_empty()
            && hex
                .iter()
                .all(|c| c.is_ascii_hexdigit() || *c == b'_' || *c == b',')
        {
            return true;
        }
    }
    if r == b"0" {
        return true;
    }
    if !r.first().is_some_and(|c| (b'1'..=b'9').contains(c)) {
        return false;
    }
    let mut i = 1;
    while i < r.len() {
        match r[i] {
            b'0'..=b'9' => i += 1,
            b',' | b'_' if r.get(i + 1).is_some_and(u8::is_ascii_digit) => i += 2,
            _ => return false,
        }
    }
    true
}

fn digits_at(b: &[u8], i: usize, min: usize, max: usize) -> Option<(u32, usize)> {
    let n = b[i.min(b.len())..]
        .iter()
        .take(max)
        .take_while(|c| c.is_ascii_digit())
        .count();
    if n < min {
        return None;
    }
    let v = std::str::from_utf8(&b[i..i + n]).ok()?.parse().ok()?;
    Some((v, i + n))
}

/// [`digits_at`] followed by the byte `sep`: the number and the index
/// after `sep`.
fn digits_then(b: &[u8], i: usize, min: usize, max: usize, sep: u8) -> Option<(u32, usize)> {
    let (v, j) = digits_at(b, i, min, max)?;
    (b.get(j) == Some(&sep)).then_some((v, j + 1))
}

/// Psych's TIME pattern; `Some(valid)` when it matches, `valid` being
/// whether `parse_time` succeeds (Ruby's `Time.utc`/`Time.new` accept the
/// fields).
fn time_token(b: &[u8]) -> Option<bool> {
    let mut i = 0;
    if b.first() == Some(&b'-') {
        i = 1;
    }
    let (_, j) = digits_then(b, i, 4, 4, b'-')?;
    let (mon, j) = digits_then(b, j, 1, 2, b'-')?;
    let (day, mut j) = digits_at(b, j, 1, 2)?;
    match b.get(j) {
        Some(b'T' | b't') => j += 1,
        Some(&c) if ruby_space(c as char) => {
            while b.get(j).is_some_and(|&c| ruby_space(c as char)) {
                j += 1;
            }
        }
        _ => return None,
    }
    let (hour, j) = digits_then(b, j, 1, 2, b':')?;
    let (min, j) = digits_then(b, j, 2, 2, b':')?;
    let (sec, mut j) = digits_at(b, j, 2, 2)?;
    if b.get(j) == Some(&b'.') {
        j += 1;
        while b.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
    }
    let mut offset: Option<i64> = None;
    if j < b.len() {
        let mut k = j;
        while b.get(k).is_some_and(|&c| ruby_space(c as char)) {
            k += 1;
        }
        match b.get(k) {
            Some(b'Z') if k + 1 == b.len() => {}
            Some(&sign @ (b'+' | b'-')) => {
                let tz = &b[k + 1..];
                let (h, m) = match tz.iter().position(|&c| c == b':') {
                    Some(p) => {
                        let (l, r) = (&tz[..p], &tz[p + 1..]);
                        if l.is_empty()
                            || l.len() > 2
                            || !all_digits(l)
                            || !(r.is_empty() || r.len() == 2)
                            || !all_digits(r)
                        {
                            return None;
                        }
                        (l, r)
                    }
                    None => {
                        if tz.is_empty() || tz.len() > 4 || !all_digits(tz) {
                            return None;
                        }
                        let hl = tz.len().min(2);
                        (&tz[..hl], &tz[hl..])
                    }
                };
                let num = |d: &[u8]| -> i64 {
                    std::str::from_utf8(d)
                        .ok()
                        .and_then(|s| s.parse().ok())
                        .unwrap_or(0)
                };
                let hours = num(h);
                let mins = num(m);
                let mut off = hours * 3600;
                if sign == b'-' {
                    off = -off;
                }
                off += if off < 0 { -mins * 60 } else { mins * 60 };
                offset = Some(off);
            }
            _ => return None,
        }
    }
    let fields_ok = (1..=12).contains(&mon)
        && (1..=31).contains(&day)
        && min <= 59
        && sec <= 60
        && (hour < 24 || (hour == 24 && min == 0 && sec == 0));
    let offset_ok = offset.is_none_or(|o| o.abs() < 86_400);
    Some(fields_ok && offset_ok)
}

/// Psych's date pattern; `Some(valid)` when it matches, `valid` being
/// whether `Date.strptime(s, '%Y-%m-%d')` accepts it (Julian calendar
/// before 1582-10-15).
fn date_token(b: &[u8]) -> Option<bool> {
    if b.len() < 8 || !all_digits(&b[..4]) || b[4] != b'-' {
        return None;
    }
    let rest = &b[5..];
    let dash = rest.iter().position(|&c| c == b'-')?;
    let (m, d) = (&rest[..dash], &rest[dash + 1..]);
    if m.is_empty()
        || m.len() > 2
        || !all_digits(m)
        || d.is_empty()
        || d.len() > 2
        || !all_digits(d)
    {
        return None;
    }
    let num = |x: &[u8]| -> u32 { std::str::from_utf8(x).unwrap().parse().unwrap() };
    let (year, mon, day) = (num(&b[..4]) as i64, num(m), num(d));
    // (1[012]|0\d|\d) and ([12]\d|3[01]|0\d|\d)
    if m.len() == 2 && m[0] != b'0' && !(m[0] == b'1' && mon <= 12) {
        return None;
    }
    if d.len() == 2
        && !(d[0] == b'0' || d[0] == b'1' || d[0] == b'2' || (d[0] == b'3' && day <= 31))
    {
        return None;
    }
    if mon == 0 || mon > 12 || day == 0 {
        return Some(false);
    }
    let julian = (year, mon, day) < (1582, 10, 15);
    if year == 1582 && mon == 10 && (5..=14).contains(&day) {
        return Some(false);
    }
    let leap = if julian {
        year % 4 == 0
    } else {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    };
    let dim = match mon {
        2 => {
            if leap {
                29
            } else {
                28
            }
        }
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    Some(day <= dim)
}

// --- libyaml emitter --------------------------------------------------------

const BEST_INDENT: i32 = 2;
const BEST_WIDTH: usize = 80;

#[derive(Default)]
struct Analysis {
    length: usize,
    multiline: bool,
    flow_plain_allowed: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

#[derive(Default, Clone)]
struct TagData {
    handle: Option<&'static str>,
    suffix: Option<String>,
}

fn yaml_printable(c: char) -> bool {
    let n = c as u32;
    n == 0x0A
        || (0x20..=0x7E).contains(&n)
        || (0xA0..=0xD7FF).contains(&n)
        || ((0xE000..=0xFFFD).contains(&n) && n != 0xFEFF)
}

fn yaml_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn yaml_blankz(c: Option<char>) -> bool {
    match c {
        None | Some('\0') => true,
        Some(c) => c == ' ' || c == '\t' || yaml_break(c),
    }
}

fn analyze_tag(tag: &str) -> TagData {
    const DIRECTIVES: [(&str, &str); 2] = [("!", "!"), ("!!", "tag:yaml.org,2002:")];
    for (handle, prefix) in DIRECTIVES {
        if prefix.len() < tag.len() && tag.starts_with(prefix) {
            return TagData {
                handle: Some(handle),
                suffix: Some(tag[prefix.len()..].to_string()),
            };
        }
    }
    TagData {
        handle: None,
        suffix: Some(tag.to_string()),
    }
}

fn analyze_scalar(value: &str) -> Analysis {
    let mut a = Analysis {
        length: value.len(),
        ..Analysis::default()
    };
    if value.is_empty() {
        a.block_plain_allowed = true;
        a.single_quoted_allowed = true;
        return a;
    }
    let (mut block_ind, mut flow_ind) = (false, false);
    if value.starts_with("---") || value.starts_with("...") {
        block_ind = true;
        flow_ind = true;
    }
    let chars: Vec<char> = value.chars().collect();
    let (mut line_breaks, mut special) = (false, false);
    let (mut leading_space, mut leading_break, mut trailing_space, mut trailing_break) =
        (false, false, false, false);
    let (mut break_space, mut space_break) = (false, false);
    let mut preceded_by_ws = true;
    let mut followed_by_ws = yaml_blankz(chars.get(1).copied());
    let (mut prev_space, mut prev_break) = (false, false);
    for (i, &c) in chars.iter().enumerate() {
        let first = i == 0;
        let last = i + 1 == chars.len();
        if first {
            if "#,[]{}&*!|>'\"%@`".contains(c) {
                flow_ind = true;
                block_ind = true;
            }
            if c == '?' || c == ':' {
                flow_ind = true;
                if followed_by_ws {
                    block_ind = true;
                }
            }
            if c == '-' && followed_by_ws {
                flow_ind = true;
                block_ind = true;
            }
        } else {
            if ",?[]{}".contains(c) {
                flow_ind = true;
            }
            if c == ':' {
                flow_ind = true;
                if followed_by_ws {
                    block_ind = true;
                }
            }
            if c == '#' && preceded_by_ws {
                flow_ind = true;
                block_ind = true;
            }
        }
        if !yaml_printable(c) {
            special = true;
        }
        if yaml_break(c) {
            line_breaks = true;
        }
        if c == ' ' {
            leading_space |= first;
            trailing_space |= last;
            break_space |= prev_break;
            prev_space = true;
            prev_break = false;
        } else if yaml_break(c) {
            leading_break |= first;
            trailing_break |= last;
            space_break |= prev_space;
            prev_space = false;
            prev_break = true;
        } else {
            prev_space = false;
            prev_break = false;
        }
        preceded_by_ws = yaml_blankz(Some(c));
        if !last {
            followed_by_ws = yaml_blankz(chars.get(i + 2).copied());
        }
    }
    a.multiline = line_breaks;
    a.flow_plain_allowed = true;
    a.block_plain_allowed = true;
    a.single_quoted_allowed = true;
    a.block_allowed = true;
    if leading_space || leading_break || trailing_space || trailing_break {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
    }
    if trailing_space {
        a.block_allowed = false;
    }
    if break_space {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
    }
    if space_break || special {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
        a.block_allowed = false;
    }
    if line_breaks {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
    }
    if flow_ind {
        a.flow_plain_allowed = false;
    }
    if block_ind {
        a.block_plain_allowed = false;
    }
    a
}

fn scalar_tag(s: &Scalar) -> TagData {
    match s.tag {
        Some(t) if !s.plain_implicit && !s.quoted_implicit => analyze_tag(t),
        _ => TagData::default(),
    }
}

struct Emitter {
    out: String,
    indent: i32,
    indents: Vec<i32>,
    flow_level: usize,
    column: usize,
    whitespace: bool,
    indention: bool,
    open_ended: u8,
    mapping_context: bool,
    simple_key_context: bool,
}

impl Emitter {
    fn new() -> Emitter {
        Emitter {
            out: String::new(),
            indent: -1,
            indents: Vec::new(),
            flow_level: 0,
            column: 0,
            whitespace: true,
            indention: true,
            open_ended: 0,
            mapping_context: false,
            simple_key_context: false,
        }
    }

    fn document(&mut self, root: &Node) {
        self.write_indent();
        self.write_indicator("---", true, false, false);
        self.open_ended = 0;
        self.node(root, false, false);
        // DOCUMENT-END (implicit)
        self.write_indent();
        if self.open_ended == 0 {
            self.open_ended = 1;
        }
        // STREAM-END
        if self.open_ended == 2 {
            self.write_indicator("...", true, false, false);
            self.open_ended = 0;
            self.write_indent();
        }
    }

    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    fn write_break(&mut self, c: char) {
        if c == '\n' {
            self.put_break();
        } else {
            self.out.push(c);
            self.column = 0;
        }
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { BEST_INDENT } else { 0 };
        } else if !indentless {
            self.indent += BEST_INDENT;
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().expect("indent stack");
    }

    fn write_indent(&mut self) {
        let indent = self.indent.max(0) as usize;
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(&mut self, ind: &str, need_ws: bool, is_ws: bool, is_indention: bool) {
        if need_ws && !self.whitespace {
            self.put(' ');
        }
        for c in ind.chars() {
            self.put(c);
        }
        self.whitespace = is_ws;
        self.indention = self.indention && is_indention;
    }

    fn node(&mut self, node: &Node, mapping: bool, simple_key: bool) {
        crate::stack::grow(|| {
            self.mapping_context = mapping;
            self.simple_key_context = simple_key;
            match node {
                Node::Scalar(s) => self.scalar(s),
                Node::Seq(items) => {
                    if self.flow_level > 0 || items.is_empty() {
                        self.flow_sequence(items);
                    } else {
                        self.block_sequence(items);
                    }
                }
                Node::Map(pairs) => {
                    if self.flow_level > 0 || pairs.is_empty() {
                        self.flow_mapping(pairs);
                    } else {
                        self.block_mapping(pairs);
                    }
                }
            }
        })
    }

    fn check_simple_key(node: &Node) -> bool {
        match node {
            Node::Scalar(s) => {
                let a = analyze_scalar(&s.value);
                if a.multiline {
                    return false;
                }
                let t = scalar_tag(s);
                let len = t.handle.map_or(0, str::len)
                    + t.suffix.as_ref().map_or(0, String::len)
                    + a.length;
                len <= 128
            }
            Node::Seq(items) => items.is_empty(),
            Node::Map(pairs) => pairs.is_empty(),
        }
    }

    fn flow_sequence(&mut self, items: &[Node]) {
        self.write_indicator("[", true, true, false);
        self.increase_indent(true, false);
        self.flow_level += 1;
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.write_indicator(",", false, false, false);
            }
            if self.column > BEST_WIDTH {
                self.write_indent();
            }
            self.node(item, false, false);
        }
        self.flow_level -= 1;
        self.pop_indent();
        self.write_indicator("]", false, false, false);
    }

    fn flow_mapping(&mut self, pairs: &[(Node, Node)]) {
        self.write_indicator("{", true, true, false);
        self.increase_indent(true, false);
        self.flow_level += 1;
        for (i, (k, v)) in pairs.iter().enumerate() {
            if i > 0 {
                self.write_indicator(",", false, false, false);
            }
            if self.column > BEST_WIDTH {
                self.write_indent();
            }
            if Self::check_simple_key(k) {
                self.node(k, true, true);
                self.write_indicator(":", false, false, false);
            } else {
                self.write_indicator("?", true, false, false);
                self.node(k, true, false);
                if self.column > BEST_WIDTH {
                    self.write_indent();
                }
                self.write_indicator(":", true, false, false);
            }
            self.node(v, true, false);
        }
        self.flow_level -= 1;
        self.pop_indent();
        self.write_indicator("}", false, false, false);
    }

    fn block_sequence(&mut self, items: &[Node]) {
        let indentless = self.mapping_context && !self.indention;
        self.increase_indent(false, indentless);
        for item in items {
            self.write_indent();
            self.write_indicator("-", true, false, true);
            self.node(item, false, false);
        }
        self.pop_indent();
    }

    fn block_mapping(&mut self, pairs: &[(Node, Node)]) {
        self.increase_indent(false, false);
        for (k, v) in pairs {
            self.write_indent();
            if Self::check_simple_key(k) {
                self.node(k, true, true);
                self.write_indicator(":", false, false, false);
            } else {
                self.write_indicator("?", true, false, true);
                self.node(k, true, false);
                self.write_indent();
                self.write_indicator(":", true, false, true);
            }
            self.node(v, true, false);
        }
        self.pop_indent();
    }

    fn scalar(&mut self, s: &Scalar) {
        let a = analyze_scalar(&s.value);
        let mut tag = scalar_tag(s);
        // yaml_emitter_select_scalar_style
        let no_tag = tag.handle.is_none() && tag.suffix.is_none();
        let mut style = if s.style == Style::Any {
            Style::Plain
        } else {
            s.style
        };
        if self.simple_key_context && a.multiline {
            style = Style::Double;
        }
        if style == Style::Plain {
            if (self.flow_level > 0 && !a.flow_plain_allowed)
                || (self.flow_level == 0 && !a.block_plain_allowed)
            {
                style = Style::Single;
            }
            if a.length == 0 && (self.flow_level > 0 || self.simple_key_context) {
                style = Style::Single;
            }
            if no_tag && !s.plain_implicit {
                style = Style::Single;
            }
        }
        if style == Style::Single && !a.single_quoted_allowed {
            style = Style::Double;
        }
        if style == Style::Literal
            && (!a.block_allowed || self.flow_level > 0 || self.simple_key_context)
        {
            style = Style::Double;
        }
        if no_tag && !s.quoted_implicit && style != Style::Plain {
            tag.handle = Some("!");
        }
        self.process_tag(&tag);
        self.increase_indent(true, false);
        let allow_breaks = !self.simple_key_context;
        match style {
            Style::Plain => self.write_plain(&s.value, allow_breaks),
            Style::Single => self.write_single(&s.value, allow_breaks),
            Style::Double => self.write_double(&s.value, allow_breaks),
            _ => self.write_literal(&s.value),
        }
        self.pop_indent();
    }

    fn process_tag(&mut self, tag: &TagData) {
        match (tag.handle, &tag.suffix) {
            (None, None) => {}
            (Some(handle), suffix) => {
                if !self.whitespace {
                    self.put(' ');
                }
                for c in handle.chars() {
                    self.put(c);
                }
                self.whitespace = false;
                self.indention = false;
                if let Some(suffix) = suffix {
                    self.write_tag_content(suffix);
                }
            }
            (None, Some(suffix)) => {
                self.write_indicator("!<", true, false, false);
                self.write_tag_content(suffix);
                self.write_indicator(">", false, false, false);
            }
        }
    }

    fn write_tag_content(&mut self, value: &str) {
        for c in value.chars() {
            if c.is_ascii_alphanumeric() || "-_;/?:@&=+$,.~*'()[]".contains(c) {
                self.put(c);
            } else {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    self.put('%');
                    for d in [b >> 4, b & 0xF] {
                        self.put(
                            char::from_digit(u32::from(d), 16)
                                .unwrap()
                                .to_ascii_uppercase(),
                        );
                    }
                }
            }
        }
        self.whitespace = false;
        self.indention = false;
    }

    fn write_plain(&mut self, value: &str, allow_breaks: bool) {
        if !self.whitespace && (!value.is_empty() || self.flow_level > 0) {
            self.put(' ');
        }
        self.write_flow_text(value, allow_breaks, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_single(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator("'", true, false, false);
        if self.write_flow_text(value, allow_breaks, true) {
            self.write_indent();
        }
        self.write_indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    /// The text of a plain or a single-quoted scalar, the loop libyaml's
    /// `yaml_emitter_write_plain_scalar` and `_single_quoted` share: a
    /// space past the best width (not one of a run of spaces) may become a
    /// line break, and a line break is written twice when it starts a run
    /// of them. In single quotes a `'` is doubled and neither the first nor
    /// the last character breaks the line. Whether the text ended in line
    /// breaks.
    fn write_flow_text(&mut self, value: &str, allow_breaks: bool, single_quoted: bool) -> bool {
        let chars: Vec<char> = value.chars().collect();
        let n = chars.len();
        let (mut spaces, mut breaks) = (false, false);
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && (!single_quoted || (i != 0 && i != n - 1))
                    && chars.get(i + 1) != Some(&' ')
                {
                    self.write_indent();
                } else {
                    self.put(c);
                }
                spaces = true;
            } else if yaml_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if single_quoted && c == '\'' {
                    self.put('\'');
                }
                self.put(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        breaks
    }

    fn write_double(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator("\"", true, false, false);
        let chars: Vec<char> = value.chars().collect();
        let n = chars.len();
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if !yaml_printable(c) || c == '\u{FEFF}' || yaml_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                let code = c as u32;
                let short = match code {
                    0x00 => Some('0'),
                    0x07 => Some('a'),
                    0x08 => Some('b'),
                    0x09 => Some('t'),
                    0x0A => Some('n'),
                    0x0B => Some('v'),
                    0x0C => Some('f'),
                    0x0D => Some('r'),
                    0x1B => Some('e'),
                    0x22 => Some('"'),
                    0x5C => Some('\\'),
                    0x85 => Some('N'),
                    0xA0 => Some('_'),
                    0x2028 => Some('L'),
                    0x2029 => Some('P'),
                    _ => None,
                };
                match short {
                    Some(e) => self.put(e),
                    None => {
                        let (letter, width) = if code <= 0xFF {
                            ('x', 2)
                        } else if code <= 0xFFFF {
                            ('u', 4)
                        } else {
                            ('U', 8)
                        };
                        self.put(letter);
                        for ch in format!("{:0w$X}", code, w = width).chars() {
                            self.put(ch);
                        }
                    }
                }
                spaces = false;
            } else if c == ' ' {
                if allow_breaks && !spaces && self.column > BEST_WIDTH && i != 0 && i != n - 1 {
                    self.write_indent();
                    if chars.get(i + 1) == Some(&' ') {
                        self.put('\\');
                    }
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                self.put(c);
                spaces = false;
            }
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_literal(&mut self, value: &str) {
        self.write_indicator("|", true, false, false);
        // yaml_emitter_write_block_scalar_hints
        let chars: Vec<char> = value.chars().collect();
        if chars.first().is_some_and(|&c| c == ' ' || yaml_break(c)) {
            self.write_indicator(&BEST_INDENT.to_string(), false, false, false);
        }
        self.open_ended = 0;
        let chomp = match chars.len() {
            0 => Some("-"),
            n if !yaml_break(chars[n - 1]) => Some("-"),
            1 => {
                self.open_ended = 2;
                Some("+")
            }
            n if yaml_break(chars[n - 2]) => {
                self.open_ended = 2;
                Some("+")
            }
            _ => None,
        };
        if let Some(ch) = chomp {
            self.write_indicator(ch, false, false, false);
        }
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        for &c in &chars {
            if yaml_break(c) {
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(wire: &str) -> Value {
        from_json(wire).unwrap_or_else(|e| panic!("{wire}: {e}"))
    }

    /// `render` gives, for each wire value of `cases`, the text Ruby printed.
    fn assert_renders(cases: &[(&str, &str)], render: impl Fn(&Value) -> String) {
        for (wire, want) in cases {
            assert_eq!(render(&v(wire)), *want, "{wire}");
        }
    }

    #[test]
    fn to_yaml_matches_ruby() {
        let cases: &[(&str, &str)] = &[
            ("{\"a\":[1,\"x\"],\"b\":null}", "---\na:\n- 1\n- x\nb:\n"),
            ("\"x\"", "--- x\n"),
            ("null", "---\n"),
            ("[null,1]", "---\n-\n- 1\n"),
            ("{\"a\":{},\"b\":[]}", "---\na: {}\nb: []\n"),
            ("[[]]", "---\n- []\n"),
            ("\"yes\"", "--- 'yes'\n"),
            ("\"no\"", "--- 'no'\n"),
            ("\"~\"", "--- \"~\"\n"),
            ("\"\"", "--- ''\n"),
            ("\" \"", "--- \" \"\n"),
            ("\"123\"", "--- '123'\n"),
            ("\"1e3\"", "--- 1e3\n"),
            ("\"0o17\"", "--- 0o17\n"),
            ("\"017\"", "--- '017'\n"),
            ("\"0789\"", "--- '0789'\n"),
            ("\"+1\"", "--- \"+1\"\n"),
            ("\".5\"", "--- \".5\"\n"),
            ("\"1.\"", "--- '1.'\n"),
            ("\"NaN\"", "--- NaN\n"),
            ("\"y\"", "--- \"y\"\n"),
            ("\"Y\"", "--- Y\n"),
            ("\"a: b\"", "--- 'a: b'\n"),
            ("\"a:b\"", "--- a:b\n"),
            ("\"a #b\"", "--- 'a #b'\n"),
            ("\"#a\"", "--- \"#a\"\n"),
            ("\"- a\"", "--- \"- a\"\n"),
            ("\"---\"", "--- \"---\"\n"),
            ("\"a:\"", "--- 'a:'\n"),
            ("\"[a]\"", "--- \"[a]\"\n"),
            ("\"a, b\"", "--- a, b\n"),
            ("\"'a'\"", "--- \"'a'\"\n"),
            ("\"\\\"a\\\"\"", "--- '\"a\"'\n"),
            ("\" a\"", "--- \" a\"\n"),
            ("\"a \"", "--- 'a '\n"),
            ("\"a\\nb\"", "--- |-\n  a\n  b\n"),
            ("\"a\\n\"", "--- 'a\n\n  '\n"),
            ("\"a\\nb\\n\"", "--- |\n  a\n  b\n"),
            ("\"\\na\"", "--- |2-\n\n  a\n"),
            ("\"a\\n\\nb\\n\\n\"", "--- |+\n  a\n\n  b\n\n...\n"),
            ("\"a\\n\\n\"", "--- \"a\\n\\n\"\n"),
            ("\"  lead\\nx\"", "--- |2-\n    lead\n  x\n"),
            ("\"trail \\nx\"", "--- \"trail \\nx\"\n"),
            ("\"a\\tb\"", "--- \"a\\tb\"\n"),
            ("\"é\"", "--- é\n"),
            ("\"😀\"", "--- \"\\U0001F600\"\n"),
            ("\"a\u{85}b\"", "--- \"a\\Nb\"\n"),
            ("\"\u{feff}x\"", "--- \"\\uFEFFx\"\n"),
            ("\"<<\"", "--- !!str '<<'\n"),
            ("{\"__type__\":\"Symbol\",\"value\":\"sym\"}", "--- :sym\n"),
            ("{\"__type__\":\"Symbol\",\"value\":\"a: b\"}", "--- ! ':a: b'\n"),
            ("{\"__type__\":\"Symbol\",\"value\":\"\"}", "--- !ruby/symbol\n"),
            ("1.5", "--- 1.5\n"),
            ("-0.0", "--- -0.0\n"),
            ("1.0e+20", "--- 1.0e+20\n"),
            ("{\"__type__\":\"Float\",\"value\":\"Infinity\"}", "--- .inf\n"),
            ("{\"__type__\":\"Float\",\"value\":\"NaN\"}", "--- .nan\n"),
            ("12345678901234567890", "--- 12345678901234567890\n"),
            ("[1,[2,[3]]]", "---\n- 1\n- - 2\n  - - 3\n"),
            ("{\"a\":{\"b\":{\"c\":1}}}", "---\na:\n  b:\n    c: 1\n"),
            ("[{\"a\":1,\"b\":2}]", "---\n- a: 1\n  b: 2\n"),
            ("{\"__type__\":\"Hash\",\"entries\":[[1,2],[null,3],[true,4],[1.5,5],[[1],6],[{\"x\":1},7],[[],8]]}", "---\n1: 2\n! '': 3\ntrue: 4\n1.5: 5\n? - 1\n: 6\n? x: 1\n: 7\n[]: 8\n"),
            ("{\"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\":1}", "---\n? kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\n: 1\n"),
            ("{\"a\\nb\":1}", "---\n? |-\n  a\n  b\n: 1\n"),
            ("\"word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word\"", "--- word word word word word word word word word word word word word word word word\n  word word word word word word word word word word word word word word\n"),
            ("{\"key\":\"v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v \"}", "---\nkey: 'v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v\n  v v v v v v v v v v v v '\n"),
            ("\"2001-02-03\"", "--- '2001-02-03'\n"),
            ("\"2001-02-30\"", "--- 2001-02-30\n"),
            ("\"1500-02-29\"", "--- '1500-02-29'\n"),
            ("\"2001-01-01 10:00:00\"", "--- '2001-01-01 10:00:00'\n"),
            ("\"2001-13-01 10:00:00\"", "--- 2001-13-01 10:00:00\n"),
            ("\"12:30\"", "--- '12:30'\n"),
            ("\"1_000\"", "--- '1_000'\n"),
            ("\"0b101\"", "--- '0b101'\n"),
            ("\"0x1F\"", "--- '0x1F'\n"),
            ("\".inf\"", "--- \".inf\"\n"),
            ("{\"__type__\":\"Binary\",\"value\":\"//4=\"}", "--- !binary |-\n  //4=\n"),
            ("[\"- item - item - item - item - item - item - item - item - item - item - item - item - item - item - item \"]", "---\n- \"- item - item - item - item - item - item - item - item - item - item - item -\n  item - item - item - item \"\n"),
            ("\"x\\n\\n\"", "--- \"x\\n\\n\"\n"),
            ("{\"__type__\":\"Sensitive\",\"value\":1}", "--- Sensitive [value redacted]\n"),
        ];
        assert_renders(cases, to_yaml);
    }

    #[test]
    fn explain_value_matches_puppet_dump_value() {
        let mut out = String::new();
        explain_value(&v(r#"{"k":"v","nested":{"x":[1]}}"#), 8, &mut out);
        assert_eq!(
            out,
            "{\n          \"k\" => \"v\",\n          \"nested\" => {\n            \"x\" => [\n              1\n            ]\n          }\n        }"
        );
        // Ruby: Puppet's dump_value with indent '  ' for
        // {[1, "a"]=>{}, nil=>[], "f"=>1.0e+20, :s=>false}.
        let mut out = String::new();
        explain_value(
            &v(
                r#"{"__type__":"Hash","entries":[[[1,"a"],{}],[null,[]],["f",1.0e+20],[{"__type__":"Symbol","value":"s"},false]]}"#,
            ),
            2,
            &mut out,
        );
        assert_eq!(
            out,
            "{\n    [\n      1,\n      \"a\"\n    ] => {},\n    nil => [],\n    \"f\" => 1.0e+20,\n    :s => false\n  }"
        );
        let mut out = String::new();
        explain_value(&v(r#""str""#), 0, &mut out);
        assert_eq!(out, "\"str\"");
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
