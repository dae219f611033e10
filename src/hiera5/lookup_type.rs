//! `puppet lookup --type TYPE` (and `lookup(key, TYPE)`): the answer, or
//! the default, asserted against a Puppet type, with the message Puppet's
//! `TypeAsserter` and `TypeMismatchDescriber` give when it does not match
//! (`Found value has wrong type, expects an Integer value, got String`).
//!
//! The types: `Any`, `Scalar`, `Numeric`, `Boolean`, `Undef`, `NotUndef`,
//! `Integer[min, max]`, `Float[min, max]`, `String[min, max]`, `Enum[...]`,
//! `Pattern[/re/, ...]`, `Optional[T]`, `Variant[T, ...]`, `Array[T, min,
//! max]` and `Hash[K, V, min, max]`. Any other type text is an error naming
//! it (never a silent pass). The type's text is printed as Puppet prints it
//! (Enum values sorted, Integer bounds, `default` for an open bound).

use crate::rubyre::Pattern;
use crate::value::Value;

/// A parsed Puppet type. Owned data; any thread may use it.
#[derive(Debug)]
pub struct PType {
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    Any,
    Scalar,
    Numeric,
    Boolean,
    Undef,
    NotUndef(Option<Box<Kind>>),
    Integer(Option<i64>, Option<i64>),
    Float(Option<f64>, Option<f64>),
    String(Option<i64>, Option<i64>),
    Enum(Vec<String>),
    Pattern(Vec<(String, Pattern)>),
    Optional(Box<Kind>),
    Variant(Vec<Kind>),
    Array(Box<Kind>, Option<i64>, Option<i64>),
    Hash(Box<Kind>, Box<Kind>, Option<i64>, Option<i64>),
}

impl PType {
    /// Parses a type as `--type` takes it (`Array[String, 1]`,
    /// `Enum[a, 'b']`, `Pattern[/^x/]`); an error names what is not
    /// understood.
    pub fn parse(text: &str) -> Result<PType, String> {
        let mut p = Parser {
            s: text.as_bytes(),
            i: 0,
            text,
        };
        let kind = p.ty(0)?;
        p.ws();
        if p.i != p.s.len() {
            return Err(p.err("unexpected text"));
        }
        Ok(PType { kind })
    }

    /// Whether `v` is an instance of the type, as Puppet's `instance?`.
    pub fn is_instance(&self, v: &Value) -> bool {
        instance(&self.kind, v)
    }

    /// `Ok` when `v` matches; else Puppet's message, `subject` first
    /// (`Found value`, `Default value`): `SUBJECT has wrong type, ...`.
    pub fn assert(&self, subject: &str, v: &Value) -> Result<(), String> {
        if self.is_instance(v) {
            return Ok(());
        }
        let mut errors = Vec::new();
        describe(&self.kind, &self.kind, v, &[], &mut errors);
        let name = format!("{subject} has wrong type,");
        Err(match errors.len() {
            0 => format!("{name} expects {} value", a_an(&to_s(&self.kind))),
            1 => format!(" {name}{}", errors[0]).trim().to_string(),
            _ => errors
                .iter()
                .map(|e| format!(" {name}{e}"))
                .collect::<Vec<_>>()
                .join("\n "),
        })
    }
}

/// `puppet lookup --type`'s check of a lookup's answer: a found value is
/// asserted as `Found value`, else `default` (when given) as `Default
/// value` and answered; not found without a default stays not found.
/// A mismatch is an error of kind `type` with Puppet's message.
pub fn assert_answer(
    t: &PType,
    found: crate::Result<Option<Value>>,
    default: Option<&Value>,
) -> crate::Result<Option<Value>> {
    let (subject, v) = match found? {
        Some(v) => ("Found value", v),
        None => match default {
            Some(d) => ("Default value", d.clone()),
            None => return Ok(None),
        },
    };
    t.assert(subject, &v)
        .map_err(|m| crate::Error::new(crate::ErrorKind::Type, m))?;
    Ok(Some(v))
}

// ---- parsing ----

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    text: &'a str,
}

/// Parameters nest no deeper than this (bounded recursion).
const MAX_DEPTH: usize = 64;

enum Param {
    Type(Kind),
    Int(Option<i64>),
    Float(f64),
    Str(String),
    Regex(String),
}

impl Parser<'_> {
    /// Puppet's syntax error (`Syntax error at end of input`), with what
    /// was expected and the type's text.
    fn err(&self, what: &str) -> String {
        let place = match self.text.get(self.i..) {
            Some(rest) if !rest.trim().is_empty() => format!("at '{}'", rest.trim()),
            _ => "at end of input".to_string(),
        };
        format!("Syntax error {place} ({what}, in the type '{}')", self.text)
    }

    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.i).copied()
    }

    fn word(&mut self) -> String {
        self.ws();
        let start = self.i;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || b"_:".contains(&self.s[self.i]))
        {
            self.i += 1;
        }
        self.text[start..self.i].to_string()
    }

    fn params(&mut self, depth: usize) -> Result<Vec<Param>, String> {
        let mut out = Vec::new();
        if self.peek() != Some(b'[') {
            return Ok(out);
        }
        self.i += 1;
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(out);
        }
        loop {
            out.push(self.param(depth + 1)?);
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(out);
                }
                _ => return Err(self.err("expected ',' or ']'")),
            }
        }
    }

    fn param(&mut self, depth: usize) -> Result<Param, String> {
        match self.peek() {
            Some(q @ (b'\'' | b'"')) => {
                self.i += 1;
                let start = self.i;
                while self.i < self.s.len() && self.s[self.i] != q {
                    self.i += 1;
                }
                if self.i == self.s.len() {
                    return Err(self.err("unterminated string"));
                }
                let s = self.text[start..self.i].to_string();
                self.i += 1;
                Ok(Param::Str(s))
            }
            Some(b'/') => {
                self.i += 1;
                let start = self.i;
                while self.i < self.s.len() && self.s[self.i] != b'/' {
                    self.i += if self.s[self.i] == b'\\' { 2 } else { 1 };
                }
                if self.i >= self.s.len() {
                    return Err(self.err("unterminated regexp"));
                }
                let s = self.text[start..self.i].to_string();
                self.i += 1;
                Ok(Param::Regex(s))
            }
            Some(c) if c == b'-' || c.is_ascii_digit() => {
                let start = self.i;
                self.i += 1;
                while self.i < self.s.len()
                    && (self.s[self.i].is_ascii_digit() || b".eE+-".contains(&self.s[self.i]))
                {
                    self.i += 1;
                }
                let t = &self.text[start..self.i];
                if let Ok(n) = t.parse::<i64>() {
                    Ok(Param::Int(Some(n)))
                } else {
                    t.parse::<f64>()
                        .map(Param::Float)
                        .map_err(|_| self.err("bad number"))
                }
            }
            Some(c) if c.is_ascii_uppercase() => Ok(Param::Type(self.ty(depth)?)),
            Some(c) if c.is_ascii_lowercase() => {
                let w = self.word();
                Ok(if w == "default" {
                    Param::Int(None)
                } else {
                    Param::Str(w)
                })
            }
            _ => Err(self.err("expected a type parameter")),
        }
    }

    fn ty(&mut self, depth: usize) -> Result<Kind, String> {
        if depth > MAX_DEPTH {
            return Err(self.err("type nested too deeply"));
        }
        let name = self.word();
        if name.is_empty() {
            return Err(self.err("expected a type name"));
        }
        let at = self.i;
        let ps = self.params(depth)?;
        let bad = |p: &Parser, what: &str| {
            let mut q = Parser { i: at, ..*p };
            q.i = at;
            q.err(&format!("{name}: {what}"))
        };
        let int = |p: &Param| match p {
            Param::Int(n) => Ok(*n),
            _ => Err(()),
        };
        let bounds = |ps: &[Param]| -> Result<(Option<i64>, Option<i64>), ()> {
            Ok((
                ps.first().map(int).transpose()?.flatten(),
                ps.get(1).map(int).transpose()?.flatten(),
            ))
        };
        let sub = |ps: Vec<Param>| -> Result<Vec<Kind>, ()> {
            ps.into_iter()
                .map(|p| match p {
                    Param::Type(t) => Ok(t),
                    _ => Err(()),
                })
                .collect()
        };
        let k = match (name.as_str(), ps.len()) {
            ("Any", 0) => Kind::Any,
            ("Scalar", 0) => Kind::Scalar,
            ("Numeric", 0) => Kind::Numeric,
            ("Boolean", 0) => Kind::Boolean,
            ("Undef", 0) => Kind::Undef,
            ("NotUndef", 0) => Kind::NotUndef(None),
            ("NotUndef", 1) => Kind::NotUndef(Some(Box::new(
                sub(ps).map_err(|_| bad(self, "expects a type"))?.remove(0),
            ))),
            ("Integer", 0..=2) => {
                let (a, b) = bounds(&ps).map_err(|_| bad(self, "expects integer bounds"))?;
                Kind::Integer(a, b)
            }
            ("String", 0..=2) => {
                let (a, b) = bounds(&ps).map_err(|_| bad(self, "expects integer bounds"))?;
                Kind::String(a, b)
            }
            ("Float", 0..=2) => {
                let f = |p: Option<&Param>| match p {
                    None | Some(Param::Int(None)) => Ok(None),
                    Some(Param::Int(Some(n))) => Ok(Some(*n as f64)),
                    Some(Param::Float(x)) => Ok(Some(*x)),
                    _ => Err(()),
                };
                Kind::Float(
                    f(ps.first()).map_err(|_| bad(self, "expects bounds"))?,
                    f(ps.get(1)).map_err(|_| bad(self, "expects bounds"))?,
                )
            }
            ("Enum", n) if n > 0 => {
                let mut vals = ps
                    .into_iter()
                    .map(|p| match p {
                        Param::Str(s) => Ok(s),
                        _ => Err(()),
                    })
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|_| bad(self, "expects strings"))?;
                vals.sort();
                vals.dedup();
                Kind::Enum(vals)
            }
            ("Pattern", n) if n > 0 => Kind::Pattern(
                ps.into_iter()
                    .map(|p| match p {
                        Param::Regex(r) | Param::Str(r) => Pattern::new(&r)
                            .map(|re| (r, re))
                            .map_err(|e| e.message),
                        _ => Err("expects regexps".into()),
                    })
                    .collect::<Result<Vec<_>, String>>()
                    .map_err(|e| bad(self, &e))?,
            ),
            ("Optional", 1) => Kind::Optional(Box::new(
                sub(ps).map_err(|_| bad(self, "expects a type"))?.remove(0),
            )),
            ("Variant", n) if n > 0 => {
                Kind::Variant(sub(ps).map_err(|_| bad(self, "expects types"))?)
            }
            ("Array", 0) => Kind::Array(Box::new(Kind::Any), None, None),
            ("Array", 1..=3) => {
                let mut it = ps.into_iter();
                let Some(Param::Type(t)) = it.next() else {
                    return Err(bad(self, "expects an element type first"));
                };
                let rest: Vec<Param> = it.collect();
                let (a, b) = bounds(&rest).map_err(|_| bad(self, "expects integer sizes"))?;
                Kind::Array(Box::new(t), a, b)
            }
            ("Hash", 0) => Kind::Hash(Box::new(Kind::Any), Box::new(Kind::Any), None, None),
            ("Hash", 2..=4) => {
                let mut it = ps.into_iter();
                let (Some(Param::Type(k)), Some(Param::Type(v))) = (it.next(), it.next()) else {
                    return Err(bad(self, "expects a key type and a value type first"));
                };
                let rest: Vec<Param> = it.collect();
                let (a, b) = bounds(&rest).map_err(|_| bad(self, "expects integer sizes"))?;
                Kind::Hash(Box::new(k), Box::new(v), a, b)
            }
            _ => {
                return Err(format!(
                    "--type '{}': the type {name} with {} parameter(s) is not supported by hiera-lookup",
                    self.text,
                    ps.len()
                ))
            }
        };
        Ok(k)
    }
}

// ---- instance? ----

fn in_range(n: i64, min: Option<i64>, max: Option<i64>) -> bool {
    min.is_none_or(|m| n >= m) && max.is_none_or(|m| n <= m)
}

fn instance(t: &Kind, v: &Value) -> bool {
    crate::stack::grow(|| match t {
        Kind::Any => true,
        Kind::Scalar => crate::hiera5::ptype::is_scalar(v),
        Kind::Numeric => match v {
            Value::Float(f) => !f.is_nan(),
            other => matches!(other, Value::Int(_) | Value::BigInt(_)),
        },
        Kind::Boolean => matches!(v, Value::Bool(_)),
        Kind::Undef => v.is_nil(),
        Kind::NotUndef(inner) => !v.is_nil() && inner.as_ref().is_none_or(|i| instance(i, v)),
        Kind::Integer(min, max) => match v {
            Value::Int(n) => in_range(*n, *min, *max),
            Value::BigInt(d) => {
                if d.starts_with('-') {
                    min.is_none()
                } else {
                    max.is_none()
                }
            }
            _ => false,
        },
        Kind::Float(min, max) => match v {
            Value::Float(f) => {
                !f.is_nan() && min.is_none_or(|m| *f >= m) && max.is_none_or(|m| *f <= m)
            }
            _ => false,
        },
        Kind::String(min, max) => match v {
            Value::String(s) => in_range(s.chars().count() as i64, *min, *max),
            _ => false,
        },
        Kind::Enum(vals) => match v {
            Value::String(s) => vals.iter().any(|x| x.as_str() == &**s),
            _ => false,
        },
        Kind::Pattern(res) => match v {
            Value::String(s) => res.iter().any(|(_, re)| re.is_match(s).unwrap_or(false)),
            _ => false,
        },
        Kind::Optional(inner) => v.is_nil() || instance(inner, v),
        Kind::Variant(ts) => ts.iter().any(|t| instance(t, v)),
        Kind::Array(elem, min, max) => match v {
            Value::Array(a) => {
                in_range(a.len() as i64, *min, *max) && a.iter().all(|e| instance(elem, e))
            }
            _ => false,
        },
        Kind::Hash(k, x, min, max) => match v {
            Value::Hash(h) => {
                in_range(h.len() as i64, *min, *max)
                    && h.iter().all(|(a, b)| instance(k, a) && instance(x, b))
            }
            _ => false,
        },
    })
}

// ---- Puppet's text of a type ----

fn bound(n: Option<i64>) -> String {
    n.map_or("default".into(), |n| n.to_string())
}

/// Puppet's `[min, max]` suffix: nothing when unbounded, `[min]` when only
/// the minimum is set.
fn range_params(min: Option<i64>, max: Option<i64>) -> Option<String> {
    match (min, max) {
        (None, None) => None,
        (m, None) => Some(bound(m)),
        (m, x) => Some(format!("{}, {}", bound(m), bound(x))),
    }
}

fn to_s(t: &Kind) -> String {
    let with = |name: &str, ps: Vec<String>| {
        if ps.is_empty() {
            name.to_string()
        } else {
            format!("{name}[{}]", ps.join(", "))
        }
    };
    match t {
        Kind::Any => "Any".into(),
        Kind::Scalar => "Scalar".into(),
        Kind::Numeric => "Numeric".into(),
        Kind::Boolean => "Boolean".into(),
        Kind::Undef => "Undef".into(),
        Kind::NotUndef(i) => with("NotUndef", i.iter().map(|i| to_s(i)).collect()),
        Kind::Integer(a, b) => with("Integer", range_params(*a, *b).into_iter().collect()),
        Kind::String(a, b) => with("String", range_params(*a, *b).into_iter().collect()),
        Kind::Float(a, b) => {
            let f = |x: Option<f64>| {
                x.map_or("default".into(), |x| {
                    let mut s = String::new();
                    crate::ruby::to_s(&Value::Float(x), &mut s);
                    s
                })
            };
            let ps = match (a, b) {
                (None, None) => vec![],
                (a, None) => vec![f(*a)],
                (a, b) => vec![f(*a), f(*b)],
            };
            with("Float", ps)
        }
        Kind::Enum(v) => with("Enum", v.iter().map(|s| format!("'{s}'")).collect()),
        Kind::Pattern(r) => with("Pattern", r.iter().map(|(s, _)| format!("/{s}/")).collect()),
        Kind::Optional(i) => with("Optional", vec![to_s(i)]),
        Kind::Variant(ts) => with("Variant", ts.iter().map(to_s).collect()),
        Kind::Array(e, a, b) => {
            let mut ps = Vec::new();
            if !matches!(**e, Kind::Any) || a.is_some() || b.is_some() {
                ps.push(to_s(e));
            }
            ps.extend(range_params(*a, *b));
            with("Array", ps)
        }
        Kind::Hash(k, x, a, b) => {
            let mut ps = Vec::new();
            if !matches!(**k, Kind::Any) || !matches!(**x, Kind::Any) || a.is_some() {
                ps.push(to_s(k));
                ps.push(to_s(x));
            }
            ps.extend(range_params(*a, *b));
            with("Hash", ps)
        }
    }
}

/// The type's name without parameters (Puppet's `short_name`), with the
/// contained type for Optional and NotUndef.
fn short_name(t: &Kind) -> String {
    match t {
        Kind::Optional(i) => format!("Optional[{}]", short_name(i)),
        Kind::NotUndef(Some(i)) => format!("NotUndef[{}]", short_name(i)),
        other => to_s(other)
            .split('[')
            .next()
            .unwrap_or_default()
            .to_string(),
    }
}

fn a_an(s: &str) -> String {
    let vowel = s.starts_with(['A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u']);
    format!("{} {s}", if vowel { "an" } else { "a" })
}

// ---- mismatch descriptions ----

/// The class of the value's inferred type, for `e.class == a.class`.
fn same_class(t: &Kind, v: &Value) -> bool {
    matches!(
        (t, v),
        (Kind::Integer(..), Value::Int(_) | Value::BigInt(_))
            | (Kind::Float(..), Value::Float(_))
            | (Kind::String(..), Value::String(_))
            | (Kind::Boolean, Value::Bool(_))
            | (Kind::Undef, Value::Nil)
    )
}

/// Whether the type's unparameterised form accepts the value (Puppet's
/// `e.class::DEFAULT.assignable?(a)`).
fn default_accepts(t: &Kind, v: &Value) -> bool {
    match t {
        Kind::Integer(..) => instance(&Kind::Integer(None, None), v),
        Kind::Float(..) => instance(&Kind::Float(None, None), v),
        Kind::String(..) | Kind::Enum(_) | Kind::Pattern(_) => matches!(v, Value::String(_)),
        Kind::Array(..) => matches!(v, Value::Array(_)),
        Kind::Hash(..) => matches!(v, Value::Hash(_)),
        Kind::Variant(_) => false,
        Kind::NotUndef(_) => !v.is_nil(),
        other => instance(other, v),
    }
}

fn path_prefix(path: &[String]) -> String {
    path.iter().map(|p| format!(" {p}")).collect()
}

/// Puppet's `TypeMismatch#message` for `expected` (its Optional and
/// Variant unwrapped into a list) against the value `v`.
fn type_mismatch(expected: &Kind, v: &Value, path: &[String]) -> String {
    let (e, optional) = match expected {
        Kind::Optional(i) => (&**i, true),
        other => (other, false),
    };
    let list: Vec<&Kind> = match e {
        Kind::Variant(ts) => ts.iter().collect(),
        other => vec![other],
    };
    let detailed = list
        .iter()
        .any(|t| same_class(t, v) || default_accepts(t, v));
    let fully = list.iter().any(|t| same_class(t, v));
    let actual = if detailed && fully {
        crate::hiera5::ptype::infer_detailed(v, true)
    } else {
        crate::hiera5::ptype::infer_type(v)
    };
    let mut names: Vec<String> = list
        .iter()
        .map(|t| if detailed { to_s(t) } else { short_name(t) })
        .collect();
    names.dedup();
    if optional {
        names.insert(0, "Undef".into());
    }
    let pos = path_prefix(path);
    match names.len() {
        1 => format!("{pos} expects {} value, got {actual}", a_an(&names[0])),
        2 => format!(
            "{pos} expects a value of type {} or {}, got {actual}",
            names[0], names[1]
        ),
        n => format!(
            "{pos} expects a value of type {}, or {}, got {actual}",
            names[..n - 1].join(", "),
            names[n - 1]
        ),
    }
}

/// Puppet's message for a collection whose size is outside its type's.
fn size_mismatch(path: &[String], min: Option<i64>, max: Option<i64>, len: usize) -> String {
    let len = len as i64;
    format!(
        "{} expects size to be {}, got {}",
        path_prefix(path),
        size_text(min.unwrap_or(0), max),
        size_text(len, Some(len))
    )
}

fn size_text(min: i64, max: Option<i64>) -> String {
    match max {
        Some(x) if x == min => {
            if min == 0 {
                "0".into()
            } else {
                min.to_string()
            }
        }
        Some(x) if min == 0 => format!("at most {x}"),
        Some(x) => format!("between {min} and {x}"),
        None if min == 0 => "unlimited".into(),
        None => format!("at least {min}"),
    }
}

fn describe(t: &Kind, original: &Kind, v: &Value, path: &[String], out: &mut Vec<String>) {
    crate::stack::grow(|| {
        if instance(t, v) {
            return;
        }
        let at = |p: String| {
            let mut q = path.to_vec();
            q.push(p);
            q
        };
        match t {
            Kind::Optional(inner) => describe(inner, original, v, path, out),
            Kind::Enum(_) | Kind::Pattern(_) => {
                let (e, pfx) = match original {
                    Kind::Optional(i) => (to_s(i), "an undef value or "),
                    _ => (to_s(t), ""),
                };
                let got = match v {
                    Value::String(s) => format!("'{s}'"),
                    other => crate::hiera5::ptype::infer_type(other),
                };
                out.push(format!(
                    "{} expects {pfx}a match for {e}, got {got}",
                    path_prefix(path)
                ));
            }
            Kind::Array(elem, min, max) => match v {
                Value::Array(a) if in_range(a.len() as i64, *min, *max) => {
                    for (i, e) in a.iter().enumerate() {
                        describe(elem, elem, e, &at(format!("index {i}")), out);
                    }
                }
                Value::Array(a) => out.push(size_mismatch(path, *min, *max, a.len())),
                _ => out.push(type_mismatch(original, v, path)),
            },
            Kind::Hash(kt, vt, min, max) => match v {
                Value::Hash(h) if in_range(h.len() as i64, *min, *max) => {
                    for (k, x) in h.iter() {
                        let mut name = String::new();
                        crate::ruby::to_s(k, &mut name);
                        describe(kt, kt, k, &at(format!("key of entry '{name}'")), out);
                        describe(vt, vt, x, &at(format!("entry '{name}'")), out);
                    }
                }
                Value::Hash(h) => out.push(size_mismatch(path, *min, *max, h.len())),
                _ => out.push(type_mismatch(original, v, path)),
            },
            _ => out.push(type_mismatch(original, v, path)),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(t: &str, v: Value) -> Result<(), String> {
        PType::parse(t).unwrap().assert("Found value", &v)
    }

    #[test]
    fn parses_and_prints_types_as_puppet() {
        for (src, want) in [
            ("Enum[ntp, 'chrony']", "Enum['chrony', 'ntp']"),
            ("Integer[5]", "Integer[5]"),
            ("Integer[1, default]", "Integer[1]"),
            ("Array[String, 3]", "Array[String, 3]"),
            (
                "Optional[Hash[String, Integer]]",
                "Optional[Hash[String, Integer]]",
            ),
        ] {
            assert_eq!(to_s(&PType::parse(src).unwrap().kind), want);
        }
        assert!(PType::parse("Strin[").is_err());
        assert!(PType::parse("Struct[{a => Integer}]").is_err());
    }

    #[test]
    fn mismatches_read_as_puppets() {
        assert_eq!(check("String", "x".into()), Ok(()));
        assert_eq!(
            check("Integer", "x".into()).unwrap_err(),
            "Found value has wrong type, expects an Integer value, got String"
        );
        assert_eq!(
            check("Integer[5]", Value::Int(4)).unwrap_err(),
            "Found value has wrong type, expects an Integer[5] value, got Integer[4, 4]"
        );
        assert_eq!(
            check("Array[Integer]", Value::array(vec!["a".into()])).unwrap_err(),
            "Found value has wrong type, index 0 expects an Integer value, got String"
        );
    }
}
