//! A YAML loader that resolves documents the way Ruby's Psych 4 (YAML 1.1,
//! libyaml) does for Puppet, on top of the `saphyr-parser` event parser.
//!
//! Plain scalars go through a port of Psych's `ScalarScanner#tokenize`:
//! `yes`/`on` are true, `0777` is 511, `1:20` is 4800, `1e3` is a string,
//! `:sym` is a Symbol, dates and times are refused. Merge keys (`<<`),
//! anchors and aliases are resolved as Psych's `ToRuby` visitor does.
//! The loader is iterative: deep nesting and alias bombs are errors, never
//! a stack overflow or a hang.

use crate::value::{Map, Value};
use regex::Regex;
use saphyr_parser::{Event, Parser, ScalarStyle, Tag};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// Loader options.
#[derive(Clone, Debug)]
pub struct YamlOptions {
    /// Whether aliases are allowed (Puppet: yes; Hiera 3 on Psych 4: no).
    pub aliases: bool,
    /// The most nodes that alias expansion may produce in one document.
    pub max_alias_expansion: usize,
    /// The deepest nesting of collections.
    pub max_depth: usize,
}

impl Default for YamlOptions {
    fn default() -> YamlOptions {
        YamlOptions { aliases: true, max_alias_expansion: 1_000_000, max_depth: 10_000 }
    }
}

/// A load error: Psych-style message (without the file) and line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlError {
    /// The message, e.g. `Tried to load unspecified class: Date`.
    pub message: String,
    /// The 1-based line, when known.
    pub line: Option<usize>,
}

impl std::fmt::Display for YamlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

fn err(message: impl Into<String>) -> YamlError {
    YamlError { message: message.into(), line: None }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum NodeKind {
    Scalar,
    Alias,
    Sequence,
    Mapping,
}

enum Frame {
    Seq { items: Vec<Value>, anchor: usize, tag: Option<String> },
    Map { map: Map, anchor: usize, key: Option<(Value, bool)> },
}

/// Parses the first document of `text`; `Ok(None)` for an empty or null document.
pub fn load(text: &str, opts: &YamlOptions) -> Result<Option<Value>, YamlError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut parser = Parser::new_from_str(text);
    let mut anchors: HashMap<usize, (Value, usize)> = HashMap::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut expanded = 0usize;
    let mut result: Option<Value> = None;
    let mut seen_doc = false;
    loop {
        let (event, span) = match parser.next_event() {
            None => break,
            Some(Ok(e)) => e,
            Some(Err(e)) => {
                let line = e.marker().line();
                return Err(YamlError {
                    message: format!("{} at line {} column {}", psych_problem(e.info()), line, e.marker().col() + 1),
                    line: Some(line),
                });
            }
        };
        let line = span.start.line();
        let with_line = |mut e: YamlError| {
            e.line = Some(line);
            e
        };
        let (value, kind, anchor) = match event {
            Event::StreamStart | Event::Nothing => continue,
            Event::StreamEnd => break,
            Event::DocumentStart(_) => {
                if seen_doc {
                    break;
                }
                seen_doc = true;
                continue;
            }
            Event::DocumentEnd => {
                if stack.is_empty() {
                    break;
                }
                continue;
            }
            Event::Alias(id) => {
                if !opts.aliases {
                    let name = alias_name(text, span.start.index());
                    return Err(with_line(err(format!("Unknown alias: {name}"))));
                }
                let Some((v, size)) = anchors.get(&id) else {
                    let name = alias_name(text, span.start.index());
                    return Err(with_line(err(format!("Unknown alias: {name}"))));
                };
                expanded = expanded.saturating_add(*size);
                if expanded > opts.max_alias_expansion {
                    return Err(with_line(err(format!(
                        "alias expansion exceeds the limit of {} nodes (an alias bomb?)",
                        opts.max_alias_expansion
                    ))));
                }
                (v.clone(), NodeKind::Alias, 0)
            }
            Event::Scalar(s, style, anchor, tag) => {
                let v = scalar(&s, style, tag.as_deref()).map_err(with_line)?;
                (v, NodeKind::Scalar, anchor)
            }
            Event::SequenceStart(anchor, tag) => {
                if stack.len() >= opts.max_depth {
                    return Err(with_line(err(format!("nesting deeper than {} levels", opts.max_depth))));
                }
                let tag = tag.map(|t| tag_name(&t));
                check_collection_tag(tag.as_deref()).map_err(with_line)?;
                stack.push(Frame::Seq { items: Vec::new(), anchor, tag });
                continue;
            }
            Event::MappingStart(anchor, tag) => {
                if stack.len() >= opts.max_depth {
                    return Err(with_line(err(format!("nesting deeper than {} levels", opts.max_depth))));
                }
                let tag = tag.map(|t| tag_name(&t));
                check_collection_tag(tag.as_deref()).map_err(with_line)?;
                stack.push(Frame::Map { map: Map::new(), anchor, key: None });
                continue;
            }
            Event::SequenceEnd => match stack.pop() {
                Some(Frame::Seq { items, anchor, tag }) => {
                    let v = if tag.as_deref() == Some("tag:yaml.org,2002:omap") {
                        let mut m = Map::new();
                        for item in items {
                            if let Value::Hash(h) = item {
                                for (k, v) in h.iter() {
                                    m.insert(k.clone(), v.clone());
                                }
                            }
                        }
                        Value::hash(m)
                    } else {
                        Value::array(items)
                    };
                    (v, NodeKind::Sequence, anchor)
                }
                _ => return Err(with_line(err("unbalanced sequence end"))),
            },
            Event::MappingEnd => match stack.pop() {
                Some(Frame::Map { map, anchor, .. }) => (Value::hash(map), NodeKind::Mapping, anchor),
                _ => return Err(with_line(err("unbalanced mapping end"))),
            },
        };
        if anchor != 0 {
            let size = node_count(&value);
            anchors.insert(anchor, (value.clone(), size));
        }
        match stack.last_mut() {
            None => {
                result = Some(value);
            }
            Some(Frame::Seq { items, .. }) => items.push(value),
            Some(Frame::Map { map, key, .. }) => match key.take() {
                None => {
                    // A key; `<<` (not tagged !!str) is a merge key.
                    let is_merge = kind != NodeKind::Alias && value.as_str() == Some("<<");
                    *key = Some((value, is_merge));
                }
                Some((k, is_merge)) => insert_pair(map, k, is_merge, value, kind),
            },
        }
    }
    Ok(match result {
        Some(Value::Nil) | None => None,
        Some(v) => Some(v),
    })
}

fn insert_pair(map: &mut Map, k: Value, is_merge: bool, value: Value, kind: NodeKind) {
    if is_merge {
        match (kind, &value) {
            (NodeKind::Alias | NodeKind::Mapping, Value::Hash(h)) => {
                for (mk, mv) in h.iter() {
                    map.insert(mk.clone(), mv.clone());
                }
                return;
            }
            (NodeKind::Sequence, Value::Array(items)) if items.iter().all(|i| matches!(i, Value::Hash(_))) => {
                let mut h = Map::new();
                for item in items.iter().rev() {
                    for (mk, mv) in item.as_hash().unwrap().iter() {
                        h.insert(mk.clone(), mv.clone());
                    }
                }
                for (mk, mv) in h {
                    map.insert(mk, mv);
                }
                return;
            }
            _ => {}
        }
    }
    map.insert(k, value);
}

fn node_count(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(node_count).fold(0usize, usize::saturating_add),
        Value::Hash(h) => 1 + h.iter().map(|(k, v)| node_count(k).saturating_add(node_count(v))).fold(0usize, usize::saturating_add),
        _ => 1,
    }
}

fn alias_name(text: &str, char_index: usize) -> String {
    let rest: String = text.chars().skip(char_index).collect();
    let rest = rest.strip_prefix('*').unwrap_or(&rest);
    rest.chars().take_while(|c| !c.is_whitespace() && !matches!(c, ',' | ']' | '}')).collect()
}

fn tag_name(t: &Tag) -> String {
    if t.handle == "!!" {
        format!("tag:yaml.org,2002:{}", t.suffix)
    } else {
        format!("{}{}", t.handle, t.suffix)
    }
}

fn check_collection_tag(tag: Option<&str>) -> Result<(), YamlError> {
    match tag {
        None => Ok(()),
        Some("tag:yaml.org,2002:set") => Err(err("Tried to load unspecified class: Set")),
        Some(t) if t.starts_with("!ruby/object:") => Err(err(format!("Tried to load unspecified class: {}", &t[13..]))),
        Some(t) if t.starts_with("!ruby/") => Err(err(format!("Tried to load unspecified class: {}", ruby_tag_class(t)))),
        _ => Ok(()),
    }
}

fn ruby_tag_class(t: &str) -> &str {
    match t.split_once(':') {
        Some((_, class)) => class,
        None => match t {
            "!ruby/hash" => "Hash",
            "!ruby/array" => "Array",
            "!ruby/range" => "Range",
            "!ruby/regexp" => "Regexp",
            "!ruby/struct" => "Struct",
            _ => "Object",
        },
    }
}

/// libyaml words a few problems differently from saphyr; map the common ones.
fn psych_problem(info: &str) -> String {
    let i = info.trim_start_matches("while parsing ").to_string();
    if info.contains("did not find expected ',' or ']'") {
        return "did not find expected ',' or ']' while parsing a flow sequence".into();
    }
    if info.contains("did not find expected ',' or '}'") {
        return "did not find expected ',' or '}' while parsing a flow mapping".into();
    }
    if info.contains("cannot start any token") || info.contains("tab") {
        return "found character that cannot start any token while scanning for the next token".into();
    }
    if info.contains("mapping values are not allowed") {
        return "mapping values are not allowed in this context".into();
    }
    i
}

fn scalar(s: &str, style: ScalarStyle, tag: Option<&Tag>) -> Result<Value, YamlError> {
    if let Some(t) = tag {
        let name = tag_name(t);
        return tagged_scalar(s, style, &name);
    }
    if style != ScalarStyle::Plain {
        return Ok(Value::string(s));
    }
    tokenize(s)
}

fn tagged_scalar(s: &str, style: ScalarStyle, tag: &str) -> Result<Value, YamlError> {
    match tag {
        "tag:yaml.org,2002:str" | "!str" => Ok(Value::string(s)),
        "tag:yaml.org,2002:int" => Ok(parse_integer(&s.replace([',', '_'], "")).unwrap_or_else(|| Value::string(s))),
        "tag:yaml.org,2002:float" => {
            let t = s.replace([',', '_'], "");
            Ok(match t.trim().parse::<f64>() {
                Ok(f) => Value::Float(f),
                Err(_) => match tokenize(s)? {
                    Value::Int(i) => Value::Float(i as f64),
                    other => other,
                },
            })
        }
        "tag:yaml.org,2002:bool" | "tag:yaml.org,2002:null" => tokenize(s),
        "tag:yaml.org,2002:binary" => {
            let bytes = crate::render::base64_decode(&s.split_whitespace().collect::<String>()).unwrap_or_default();
            Ok(match String::from_utf8(bytes) {
                Ok(st) => Value::string(st),
                Err(e) => Value::Bytes(Arc::from(e.into_bytes())),
            })
        }
        "!ruby/symbol" | "!ruby/sym" => Ok(Value::Symbol(Arc::from(s))),
        "tag:yaml.org,2002:timestamp" => Err(err("Tried to load unspecified class: Time")),
        t if t.starts_with("!ruby/object:") => Err(err(format!("Tried to load unspecified class: {}", &t[13..]))),
        t if t.starts_with("!ruby/") => Err(err(format!("Tried to load unspecified class: {}", ruby_tag_class(t)))),
        _ => {
            if style == ScalarStyle::Plain {
                tokenize(s)
            } else {
                Ok(Value::string(s))
            }
        }
    }
}

struct Res {
    first: Regex,
    time: Regex,
    date: Regex,
    sexa_int: Regex,
    sexa_float: Regex,
    float: Regex,
    integer: Regex,
}

fn res() -> &'static Res {
    static R: OnceLock<Res> = OnceLock::new();
    R.get_or_init(|| Res {
        first: Regex::new(r"^[^\d.:-]?[\p{Alphabetic}_\s!@#$%\^&*(){}<>|/\\~;=]+").unwrap(),
        time: Regex::new(r"^-?\d{4}-\d{1,2}-\d{1,2}(?:[Tt]|\s+)\d{1,2}:\d\d:\d\d(?:\.\d*)?(?:\s*(?:Z|[-+]\d{1,2}:?(?:\d\d)?))?$").unwrap(),
        date: Regex::new(r"^\d{4}-(?:1[012]|0\d|\d)-(?:[12]\d|3[01]|0\d|\d)$").unwrap(),
        sexa_int: Regex::new(r"^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}$").unwrap(),
        sexa_float: Regex::new(r"^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}\.[0-9_]*$").unwrap(),
        float: Regex::new(r"^[-+]?([0-9][0-9_,]*)?\.[0-9]*([eE][-+][0-9]+)?$").unwrap(),
        integer: Regex::new(r"^(?:[-+]?0b[0-1_,]+|[-+]?0[0-7_,]+|[-+]?(?:0|[1-9](?:[0-9]|,[0-9]|_[0-9])*)|[-+]?0x[0-9a-fA-F_,]+)$").unwrap(),
    })
}

/// Psych's `ScalarScanner#tokenize` for a plain scalar.
pub fn tokenize(s: &str) -> Result<Value, YamlError> {
    if s.is_empty() {
        return Ok(Value::Nil);
    }
    let r = res();
    if r.first.is_match(s) || s.contains('\n') {
        if s.chars().count() > 5 {
            return Ok(Value::string(s));
        }
        let lower = s.to_ascii_lowercase();
        let c = lower.chars().next().unwrap();
        if !matches!(c, 'y' | 't' | 'o' | 'n' | 'f' | '~') {
            return Ok(Value::string(s));
        }
        return Ok(match lower.as_str() {
            "~" | "null" => Value::Nil,
            "yes" | "true" | "on" => Value::Bool(true),
            "no" | "false" | "off" => Value::Bool(false),
            _ => Value::string(s),
        });
    }
    if r.time.is_match(s) {
        return Err(err("Tried to load unspecified class: Time"));
    }
    if r.date.is_match(s) {
        let parts: Vec<u32> = s.split('-').filter_map(|p| p.parse().ok()).collect();
        if parts.len() == 3 && valid_date(parts[0], parts[1], parts[2]) {
            return Err(err("Tried to load unspecified class: Date"));
        }
        return Ok(Value::string(s));
    }
    let lower = s.to_ascii_lowercase();
    if lower == ".inf" || lower == "+.inf" {
        return Ok(Value::Float(f64::INFINITY));
    }
    if lower == "-.inf" {
        return Ok(Value::Float(f64::NEG_INFINITY));
    }
    if lower == ".nan" {
        return Ok(Value::Float(f64::NAN));
    }
    if s.len() >= 2 && s.starts_with(':') {
        let body = &s[1..];
        let name = match (body.chars().next(), body.chars().last()) {
            (Some(q @ ('"' | '\'')), _) if body.len() >= 2 && body[1..].contains(q) => {
                let inner = &body[1..];
                let end = inner.rfind(q).unwrap();
                inner[..end].trim_start_matches(':').to_string()
            }
            _ => body.to_string(),
        };
        return Ok(Value::Symbol(Arc::from(name)));
    }
    if r.sexa_int.is_match(s) {
        let parts: Vec<&str> = s.split(':').collect();
        let n = parts.len() as i32;
        let mut total: i128 = 0;
        for (e, p) in parts.iter().enumerate() {
            total += ruby_to_i(p) * 60i128.pow((e as i32 - 2).unsigned_abs());
        }
        let _ = n;
        return Ok(i128_value(total));
    }
    if r.sexa_float.is_match(s) {
        let parts: Vec<&str> = s.split(':').collect();
        let mut total = 0f64;
        for (e, p) in parts.iter().enumerate() {
            total += ruby_to_f(p) * 60f64.powi((e as i32 - 2).abs());
        }
        return Ok(Value::Float(total));
    }
    if r.float.is_match(s) {
        if matches!(s, "." | "+." | "-.") {
            return Ok(Value::string(s));
        }
        let mut t: String = s.chars().filter(|c| *c != ',' && *c != '_').collect();
        // `.` before an exponent or at the end is dropped.
        if let Some(pos) = t.find(['e', 'E']) {
            if pos > 0 && t.as_bytes()[pos - 1] == b'.' {
                t.remove(pos - 1);
            }
        } else if t.ends_with('.') {
            t.pop();
        }
        return Ok(match t.parse::<f64>() {
            Ok(f) => Value::Float(f),
            Err(_) => Value::string(s),
        });
    }
    if r.integer.is_match(s) {
        let t: String = s.chars().filter(|c| *c != ',' && *c != '_').collect();
        return Ok(parse_integer(&t).unwrap_or_else(|| Value::string(s)));
    }
    Ok(Value::string(s))
}

fn valid_date(y: u32, m: u32, d: u32) -> bool {
    if !(1..=12).contains(&m) || d == 0 {
        return false;
    }
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    d <= days[(m - 1) as usize]
}

fn ruby_to_i(s: &str) -> i128 {
    let t: String = s.chars().filter(|c| *c != '_').collect();
    let (neg, digits) = match t.strip_prefix('-') {
        Some(d) => (true, d.to_string()),
        None => (false, t.trim_start_matches('+').to_string()),
    };
    let v: i128 = digits.chars().take_while(|c| c.is_ascii_digit()).collect::<String>().parse().unwrap_or(0);
    if neg {
        -v
    } else {
        v
    }
}

fn ruby_to_f(s: &str) -> f64 {
    let t: String = s.chars().filter(|c| *c != '_').collect();
    t.parse().unwrap_or_else(|_| ruby_to_i(&t) as f64)
}

fn i128_value(v: i128) -> Value {
    match i64::try_from(v) {
        Ok(i) => Value::Int(i),
        Err(_) => Value::BigInt(Arc::from(v.to_string())),
    }
}

/// Ruby's `Integer(str)`: decimal, `0b`, `0x`, and leading-zero octal; any size.
pub fn parse_integer(t: &str) -> Option<Value> {
    let t = t.trim();
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (radix, digits) = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        (16, h)
    } else if let Some(b) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
        (2, b)
    } else if let Some(o) = body.strip_prefix("0o").or_else(|| body.strip_prefix("0O")) {
        (8, o)
    } else if body.len() > 1 && body.starts_with('0') {
        (8, &body[1..])
    } else {
        (10, body)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    if let Ok(v) = i64::from_str_radix(digits, radix) {
        return Some(Value::Int(if neg { -v } else { v }));
    }
    // Beyond 64 bits: accumulate decimal digits exactly.
    let mut dec: Vec<u32> = vec![0];
    for c in digits.chars() {
        let d = c.to_digit(radix)?;
        let mut carry = d;
        for x in dec.iter_mut() {
            let v = *x * radix + carry;
            *x = v % 10;
            carry = v / 10;
        }
        while carry > 0 {
            dec.push(carry % 10);
            carry /= 10;
        }
    }
    while dec.len() > 1 && *dec.last().unwrap() == 0 {
        dec.pop();
    }
    let mut s: String = dec.iter().rev().map(|d| char::from_digit(*d, 10).unwrap()).collect();
    if neg {
        s.insert(0, '-');
    }
    Some(Value::BigInt(Arc::from(s)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(s: &str) -> Value {
        let doc = format!("k: {s}\n");
        load(&doc, &YamlOptions::default()).unwrap().unwrap().get("k").cloned().unwrap()
    }

    #[test]
    fn psych_scalars() {
        // Expectations recorded from Puppet 7.23 (conformance/yaml_json).
        assert_eq!(one("yes"), Value::Bool(true));
        assert_eq!(one("Off"), Value::Bool(false));
        assert_eq!(one("y"), Value::from("y"));
        assert_eq!(one("~"), Value::Nil);
        assert_eq!(one("Null"), Value::Nil);
        assert_eq!(one("0777"), Value::Int(511));
        assert_eq!(one("0o17"), Value::from("0o17"));
        assert_eq!(one("0x1F"), Value::Int(31));
        assert_eq!(one("1_000"), Value::Int(1000));
        assert_eq!(one("1e3"), Value::from("1e3"));
        assert_eq!(one("1.5e3"), Value::from("1.5e3"));
        assert_eq!(one("1.5e+3"), Value::Float(1500.0));
        assert_eq!(one("1:20"), Value::Int(4800));
        assert_eq!(one("+12"), Value::Int(12));
        assert_eq!(one("1.10"), Value::Float(1.1));
        assert_eq!(one("1.2.3"), Value::from("1.2.3"));
        assert_eq!(one("09"), Value::from("09"));
        assert_eq!(one("\"0777\""), Value::from("0777"));
        assert_eq!(one("123456789012345678901234567890"), Value::BigInt(Arc::from("123456789012345678901234567890")));
        assert_eq!(one(":sym"), Value::Symbol(Arc::from("sym")));
        assert!(matches!(one(".nan"), Value::Float(f) if f.is_nan()));
        assert_eq!(one("-.inf"), Value::Float(f64::NEG_INFINITY));
    }

    #[test]
    fn dates_are_refused() {
        let e = load("d: 2001-12-14\n", &YamlOptions::default()).unwrap_err();
        assert_eq!(e.message, "Tried to load unspecified class: Date");
        let e = load("d: 2001-12-14 21:59:43\n", &YamlOptions::default()).unwrap_err();
        assert_eq!(e.message, "Tried to load unspecified class: Time");
    }

    #[test]
    fn merge_keys_anchors_duplicates() {
        let v = load("base: &b {a: 1, b: [x]}\nd:\n  <<: *b\n  b: [z]\n  c: 3\ndup: 1\ndup: 2\n", &YamlOptions::default()).unwrap().unwrap();
        assert_eq!(crate::render::to_json(v.get("d").unwrap()), r#"{"a":1,"b":["z"],"c":3}"#);
        assert_eq!(v.get("dup"), Some(&Value::Int(2)));
        let e = load("a: &x 1\nb: *x\n", &YamlOptions { aliases: false, ..Default::default() }).unwrap_err();
        assert_eq!(e.message, "Unknown alias: x");
    }

    #[test]
    fn empty_documents() {
        for t in ["", "---\n", "# c\n", "--- ~\n"] {
            assert_eq!(load(t, &YamlOptions::default()).unwrap(), None, "{t:?}");
        }
        assert_eq!(load("\u{feff}a: 1\n", &YamlOptions::default()).unwrap().unwrap().get("a"), Some(&Value::Int(1)));
    }

    #[test]
    fn hostile_input_is_an_error() {
        let deep = "[".repeat(100_000);
        assert!(load(&deep, &YamlOptions::default()).is_err());
        let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 0..12 {
            let prev = if i == 0 { "a".to_string() } else { format!("l{}", i - 1) };
            bomb.push_str(&format!("l{i}: &l{i} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"));
        }
        let e = load(&bomb, &YamlOptions::default()).unwrap_err();
        assert!(e.message.contains("alias"), "{}", e.message);
    }
}
