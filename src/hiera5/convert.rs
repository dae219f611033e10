//! `convert_to` in lookup_options: Puppet's `new(Type, value, args...)` for
//! the types Hiera data uses (Sensitive, Array, Hash, Integer, Float,
//! Numeric, String, Boolean).

use crate::error::{Error, ErrorKind, Result};
use crate::value::{Map, Value};
use std::sync::Arc;

/// Applies `convert_to` (a type name, or `[type, args...]`) to `value`.
pub fn convert_to(key: &str, value: Value, spec: &Value) -> Result<Value> {
    let (type_src, args): (String, Vec<Value>) = match spec {
        Value::Array(a) if !a.is_empty() => (type_string(&a[0]), a[1..].to_vec()),
        other => (type_string(other), Vec::new()),
    };
    let ty = parse_type(&type_src)
        .and_then(|ty| match crate::hiera5::convert_type::empty_range(&ty.name, &ty.params) {
            Some(msg) => Err(msg),
            None => Ok(ty),
        })
        .map_err(|msg| {
        Error::new(
            ErrorKind::Lookup,
            format!("Invalid data type in lookup_options for key '{key}' could not parse '{type_src}', error: '{msg}"),
        )
    })?;
    let checked = crate::hiera5::convert_type::parse(&ty.name, &ty.params);
    // `new` returns a value that already is an instance of the type as it is.
    if let Some(c) = &checked {
        if args.is_empty() && crate::hiera5::convert_type::is_instance(c, &value) {
            return Ok(value);
        }
    }
    let raised = |msg: String| {
        Error::new(
            ErrorKind::Lookup,
            format!("The convert_to lookup_option for key '{key}' raised error: {msg}"),
        )
    };
    let converted = new_instance(&ty, value, &args).map_err(raised)?;
    // ... and asserts that what it made is one.
    if let Some(c) = &checked {
        let text = crate::hiera5::convert_type::text_with_enum(c).unwrap_or_else(|| ty.text());
        crate::hiera5::convert_type::assert_result(c, &text, &converted).map_err(raised)?;
    }
    Ok(converted)
}

fn type_string(v: &Value) -> String {
    let mut s = String::new();
    crate::ruby::to_s(v, &mut s);
    s
}

/// A parsed type reference: a name with optional parameters (kept as text).
#[derive(Debug)]
struct TypeRef {
    name: String,
    params: Vec<String>,
}

/// The top-level parameters of a type's `[...]` contents (`inner`, without
/// the brackets), split at the commas outside nested brackets, braces,
/// parentheses, quoted strings and regexps, and trimmed; `None` when the
/// brackets do not balance.
pub(crate) fn top_level_params(inner: &str) -> Option<Vec<String>> {
    let mut params = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (at, b) in structural(inner) {
        match b {
            b'[' | b'{' | b'(' => depth += 1,
            b']' | b'}' | b')' => depth -= 1,
            b',' if depth == 0 => {
                params.push(inner[start..at].trim().to_string());
                start = at + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return None;
    }
    let last = inner[start..].trim();
    if !last.is_empty() {
        params.push(last.to_string());
    }
    Some(params)
}

/// The bytes of a type's text that are its syntax, with their positions:
/// everything outside quoted strings (`'...'`, `"..."`) and regexps
/// (`/.../`), where a bracket or a comma is text (a backslash escapes the
/// byte after it in all three).
pub(crate) fn structural(src: &str) -> impl Iterator<Item = (usize, u8)> + '_ {
    let mut quote: Option<u8> = None;
    let mut escaped = false;
    src.bytes().enumerate().filter(move |&(_, b)| {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == q {
                quote = None;
            }
            return false;
        }
        if matches!(b, b'\'' | b'"' | b'/') {
            quote = Some(b);
            return false;
        }
        true
    })
}

/// The deepest nesting of a `convert_to` type's brackets read (Puppet's
/// parser fails between 300 and 3,000 levels, "stack level too deep"):
/// each level is read again per level, so this bounds the work too.
/// Brackets inside quoted strings and regexps are text, not nesting.
const MAX_TYPE_NESTING: usize = 1000;

fn parse_type(src: &str) -> std::result::Result<TypeRef, String> {
    let s = src.trim();
    if s.is_empty() {
        return Err("Syntax error at end of input".into());
    }
    let mut depth = 0usize;
    for (_, b) in structural(s) {
        match b {
            b'[' | b'{' | b'(' => {
                depth += 1;
                if depth > MAX_TYPE_NESTING {
                    return Err(format!(
                        "stack level too deep (a type nested deeper than {MAX_TYPE_NESTING} levels)"
                    ));
                }
            }
            b']' | b'}' | b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    let name_end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == ':' || c == '_'))
        .unwrap_or(s.len());
    let name = &s[..name_end];
    if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Err(format!("Syntax error at '{}'", &s[..s.len().min(1)]));
    }
    let rest = s[name_end..].trim();
    let mut params = Vec::new();
    if !rest.is_empty() {
        let Some(inner) = rest.strip_prefix('[') else {
            return Err(format!("Syntax error at '{rest}'"));
        };
        let Some(inner) = inner.strip_suffix(']') else {
            return Err("Syntax error at end of input".into());
        };
        let Some(split) = top_level_params(inner) else {
            return Err("Syntax error at end of input".into());
        };
        params = split;
    }
    // Puppet type names start with an upper case letter.
    if !name.starts_with(|c: char| c.is_ascii_uppercase()) {
        return Err(format!("Syntax error at '{name}'"));
    }
    // Types that take no parameters (Puppet's TypeParser).
    if !params.is_empty()
        && matches!(
            name.to_ascii_lowercase().as_str(),
            "any"
                | "data"
                | "catalogentry"
                | "scalar"
                | "undef"
                | "numeric"
                | "default"
                | "semverrange"
        )
    {
        return Err(format!("Not a parameterized type <{name}>"));
    }
    Ok(TypeRef {
        name: name.to_string(),
        params,
    })
}

impl TypeRef {
    /// The type as Puppet prints it: `Name[p1, p2]`.
    fn text(&self) -> String {
        if self.params.is_empty() {
            self.name.clone()
        } else {
            format!("{}[{}]", self.name, self.params.join(", "))
        }
    }
}

/// The largest Integer `Array.new` iterates here (Puppet would try any
/// size, and exhaust the memory).
const ARRAY_OF_INTEGER_LIMIT: i64 = 1 << 20;

fn new_instance(ty: &TypeRef, value: Value, args: &[Value]) -> std::result::Result<Value, String> {
    crate::stack::grow(|| match ty.name.as_str() {
        "Optional" | "NotUndef" if !ty.params.is_empty() => {
            let inner = parse_type(&ty.params[0]).map_err(|e| format!("'new' {e}"))?;
            // undef is an Optional's instance, returned as is when `new`
            // has no other argument; otherwise (and for NotUndef) the
            // wrapped type's `new` is called with it.
            if value.is_nil() && args.is_empty() && ty.name == "Optional" {
                return Ok(Value::Nil);
            }
            new_instance(&inner, value, args)
        }
        "Sensitive" if !args.is_empty() => Err(format!(
            "'new_Sensitive' expects 1 argument, got {}",
            args.len() + 1
        )),
        // A Sensitive is returned as it is.
        "Sensitive" if matches!(value, Value::Sensitive(_)) => Ok(value),
        "Sensitive" => Ok(Value::Sensitive(Arc::new(value))),
        // `new` returns a value that already is an instance of the type.
        "Undef" if value.is_nil() && args.is_empty() => Ok(Value::Nil),
        "SemVer" => match &value {
            Value::String(s) if is_semver(s) => {
                Ok(Value::Rich(Arc::new(("SemVer".into(), s.to_string()))))
            }
            other => Err(format!(
                "'new' The string '{}' cannot be converted to SemVer",
                display(other)
            )),
        },
        "Timespan" => crate::hiera5::convert_time::new_timespan(&value, args),
        "Timestamp" => match crate::hiera5::convert_time::timestamp_of_seconds(&value, args)
            .or_else(|| crate::hiera5::convert_time::timestamp_with_format(&value, args))
        {
            Some(result) => result,
            None => match &value {
                Value::String(s) => match timestamp(s) {
                    Some(t) => Ok(Value::Rich(Arc::new(("Timestamp".into(), t)))),
                    None => Err(format!(
                        "Unable to parse '{s}' using any of the formats {}",
                        crate::hiera5::convert_time::TIMESTAMP_DEFAULT_FORMATS
                    )),
                },
                other if args.is_empty() && !matches!(other, Value::Hash(_)) => {
                    Err(crate::hiera5::convert_time::timestamp_unsupported(other))
                }
                other => Err(format!(
                    "'new' Value of type {} cannot be converted to Timestamp",
                    crate::hiera5::ptype_general::infer_generalized(other)
                )),
            },
        },
        "Integer" | "Float" | "Numeric" => {
            use crate::hiera5::convert_numeric::{new_number, Kind};
            let kind = match ty.name.as_str() {
                "Integer" => Kind::Integer,
                "Float" => Kind::Float,
                _ => Kind::Numeric,
            };
            let convert = |v: &Value, radix: Option<u32>| plain_number(kind, v, radix);
            match new_number(kind, &value, args, &convert) {
                Some(result) => result,
                None if args.is_empty() => plain_number(kind, &value, None),
                None => Err(crate::hiera5::convert_numeric::no_signature(
                    kind, &value, args,
                )),
            }
        }
        "String" if args.is_empty() => Ok(Value::from(match &value {
            // Puppet's default Float format is `%f`.
            Value::Float(f) if f.is_infinite() => if *f > 0.0 { "Inf" } else { "-Inf" }.to_string(),
            Value::Float(f) if f.is_finite() => format!("{f:.6}"),
            _ => puppet_string(&value),
        })),
        // `String.new(value, format)`: Puppet's StringConverter.
        "String" => crate::hiera5::string_format::string_new(&value, args).map(Value::from),
        "Boolean" if !args.is_empty() => Err(format!(
            "'new_boolean' expects 1 argument, got {}",
            args.len() + 1
        )),
        "Boolean" => to_boolean(&value),
        "Array" | "Tuple" => {
            let wrap = matches!(args.first(), Some(Value::Bool(true)));
            Ok(match value {
                Value::Array(_) => value,
                // Array.new(n) iterates the Integer: 0..n-1.
                Value::Int(n) if !wrap && n >= 0 => {
                    if n > ARRAY_OF_INTEGER_LIMIT {
                        return Err(format!(
                            "'new_array' Integer {n} is too large to iterate into an Array (more than {ARRAY_OF_INTEGER_LIMIT} elements)"
                        ));
                    }
                    Value::array((0..n).map(Value::Int).collect())
                }
                Value::Int(_)
                | Value::BigInt(_)
                | Value::Float(_)
                | Value::Bool(_)
                | Value::Nil
                    if !wrap =>
                {
                    return Err(format!(
                        "'new_array' Value of type {} cannot be converted to Array",
                        crate::hiera5::ptype_general::infer_generalized(&value)
                    ))
                }
                Value::Hash(h) if !wrap => Value::array(
                    h.iter()
                        .map(|(k, v)| Value::array(vec![k.clone(), v.clone()]))
                        .collect(),
                ),
                Value::String(s) if !wrap => {
                    Value::array(s.chars().map(|c| Value::from(c.to_string())).collect())
                }
                other => Value::array(vec![other]),
            })
        }
        "Hash" | "Struct" => match &value {
            Value::Hash(_) => Ok(value),
            Value::Array(a) => {
                let mut m = Map::default();
                if a.iter()
                    .all(|e| matches!(e, Value::Array(p) if p.len() == 2))
                {
                    for e in a.iter() {
                        let p = e.as_array().unwrap();
                        m.insert(p[0].clone(), p[1].clone());
                    }
                } else if a.len() % 2 == 0 {
                    for pair in a.chunks(2) {
                        m.insert(pair[0].clone(), pair[1].clone());
                    }
                } else {
                    return Err("odd number of arguments for Hash".into());
                }
                Ok(Value::hash(m))
            }
            // Hash.new converts through Array.new: an Integer iterates,
            // a String gives its characters, paired.
            Value::Int(_) | Value::String(_) => {
                let a = new_instance(
                    &TypeRef {
                        name: "Array".into(),
                        params: Vec::new(),
                    },
                    value.clone(),
                    &[],
                )
                .map_err(|e| {
                    e.replacen("'new_array' ", "", 1)
                        .replace("to Array", "to Hash")
                })?;
                new_instance(ty, a, args)
            }
            other => Err(format!(
                "Value of type {} cannot be converted to Hash",
                crate::hiera5::ptype_general::infer_generalized(other)
            )),
        },
        // Abstract types have no `new`.
        "Scalar" | "Variant" | "Undef" => Err(format!(
            "Creation of new instance of type '{}' is not supported",
            ty.text()
        )),
        // Enum has no `new` either; Puppet prints its Strings quoted.
        "Enum" => Err(format!(
            "Creation of new instance of type '{}' is not supported",
            crate::hiera5::convert_type::parse(&ty.name, &ty.params)
                .and_then(|c| crate::hiera5::convert_type::text_with_enum(&c))
                .unwrap_or_else(|| ty.text())
        )),
        _ => Err(format!(
            "Creation of new instance of type 'TypeReference['{}']' is not supported",
            ty.name
        )),
    })
}

/// The one-argument conversion of Integer's (with a radix), Float's and
/// Numeric's `new`.
fn plain_number(
    kind: crate::hiera5::convert_numeric::Kind,
    value: &Value,
    radix: Option<u32>,
) -> std::result::Result<Value, String> {
    use crate::hiera5::convert_numeric::Kind;
    match kind {
        Kind::Integer => to_integer(value, radix),
        Kind::Float => to_float(value),
        Kind::Numeric => match value {
            Value::Float(f) if f.is_nan() => {
                Err("'new_numeric' Value of type Float cannot be converted to Numeric".to_string())
            }
            Value::Float(_) | Value::Int(_) | Value::BigInt(_) => Ok(value.clone()),
            Value::String(s) if s.contains(['.', 'e', 'E']) && !s.starts_with("0x") => {
                to_float(value).map_err(|e| {
                    e.replacen("'new_float'", "'new_numeric'", 1)
                        .replace("to Float", "to Numeric")
                })
            }
            _ => to_integer(value, None).map_err(|e| {
                e.replacen("'new'", "'new_numeric'", 1)
                    .replace("to Integer", "to Numeric")
            }),
        },
    }
}

fn display(v: &Value) -> String {
    let mut s = String::new();
    crate::ruby::to_s(v, &mut s);
    s
}

fn is_semver(s: &str) -> bool {
    let (core, _build) = s
        .split_once('+')
        .map(|(a, b)| (a, Some(b)))
        .unwrap_or((s, None));
    let (core, _pre) = core
        .split_once('-')
        .map(|(a, b)| (a, Some(b)))
        .unwrap_or((core, None));
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.bytes().all(|b| b.is_ascii_digit())
                && (p.len() == 1 || !p.starts_with('0'))
        })
}

/// Puppet's Timestamp string form (`2020-01-02T03:04:05.000000000 UTC`) of
/// an ISO 8601 date or date-time, converted to UTC.
fn timestamp(s: &str) -> Option<String> {
    let s = s.trim();
    let num = |t: &str| -> Option<i64> {
        if t.bytes().all(|b| b.is_ascii_digit()) && !t.is_empty() {
            t.parse().ok()
        } else {
            None
        }
    };
    let (date, time) = match s.split_once(['T', ' ']) {
        Some((d, t)) => (d, Some(t)),
        None => (s, None),
    };
    let dp: Vec<&str> = date.split('-').collect();
    if dp.len() != 3 {
        return None;
    }
    let (y, mo, d) = (num(dp[0])?, num(dp[1])?, num(dp[2])?);
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) {
        return None;
    }
    let (mut secs, mut nanos, mut offset) = (0i64, 0i64, 0i64);
    if let Some(t) = time {
        let (clock, zone) = if let Some(c) = t.strip_suffix('Z').or_else(|| t.strip_suffix(" UTC"))
        {
            (c, None)
        } else if let Some(i) = t.rfind(['+', '-']) {
            (&t[..i], Some(&t[i..]))
        } else {
            (t, None)
        };
        let (hms, frac) = clock
            .split_once('.')
            .map(|(a, b)| (a, Some(b)))
            .unwrap_or((clock, None));
        let tp: Vec<&str> = hms.split(':').collect();
        if tp.len() < 2 || tp.len() > 3 {
            return None;
        }
        let (h, mi) = (num(tp[0])?, num(tp[1])?);
        let sec = if tp.len() == 3 { num(tp[2])? } else { 0 };
        secs = h * 3600 + mi * 60 + sec;
        if let Some(f) = frac {
            let digits: String = f.chars().take(9).collect();
            nanos = num(&digits)? * 10i64.pow(9 - digits.len() as u32);
        }
        if let Some(z) = zone {
            let sign = if z.starts_with('-') { -1 } else { 1 };
            let z = z[1..].replace(':', "");
            let (zh, zm) = (
                num(&z[..2.min(z.len())])?,
                if z.len() > 2 { num(&z[2..])? } else { 0 },
            );
            offset = sign * (zh * 3600 + zm * 60);
        }
    }
    let days = days_from_civil(y, mo, d);
    let total = days * 86400 + secs - offset;
    let (days, rem) = (total.div_euclid(86400), total.rem_euclid(86400));
    let (y, mo, d) = civil_from_days(days);
    Some(format!(
        "{y:04}-{mo:02}-{d:02}T{:02}:{:02}:{:02}.{nanos:09} UTC",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    ))
}

pub(crate) fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

pub(crate) fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + if m <= 2 { 1 } else { 0 }, m, d)
}

fn to_integer(v: &Value, radix: Option<u32>) -> std::result::Result<Value, String> {
    match v {
        Value::Int(_) | Value::BigInt(_) => Ok(v.clone()),
        Value::Float(f) if f.is_nan() => {
            Err("'new' Value of type Float cannot be converted to Integer".to_string())
        }
        // Ruby's Float#to_i raises FloatDomainError, whose message is the value.
        Value::Float(f) if f.is_infinite() => {
            Err(if *f > 0.0 { "Infinity" } else { "-Infinity" }.to_string())
        }
        Value::Float(f) => Ok(integer_of_float(*f)),
        Value::Bool(b) => Ok(Value::Int(*b as i64)),
        Value::String(s) => {
            // Strings with surrounding blanks do not match Puppet's
            // Convertible pattern: no trimming.
            let t: &str = s;
            let (neg, body) = match t.strip_prefix('-') {
                Some(b) => (true, b),
                None => (false, t.strip_prefix('+').unwrap_or(t)),
            };
            let (radix, digits) = match radix {
                Some(r) => {
                    let d = match r {
                        // Ruby's Integer(s, 16): the 0x prefix is optional.
                        // Without it the string must still look like an
                        // Integer (decimal digits, or a 0b literal) to
                        // match Puppet's Convertible pattern.
                        16 => match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
                            Some(d) => d,
                            None => {
                                let digits = body
                                    .strip_prefix("0b")
                                    .or_else(|| body.strip_prefix("0B"))
                                    .unwrap_or(body);
                                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit())
                                {
                                    return Err(format!(
                                        "'new' The string '{s}' cannot be converted to Integer"
                                    ));
                                }
                                body
                            }
                        },
                        2 => body
                            .strip_prefix("0b")
                            .or_else(|| body.strip_prefix("0B"))
                            .unwrap_or(body),
                        _ => body,
                    };
                    (r, d)
                }
                None => {
                    if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
                        (16, h)
                    } else if let Some(b) =
                        body.strip_prefix("0b").or_else(|| body.strip_prefix("0B"))
                    {
                        (2, b)
                    } else if body.len() > 1 && body.starts_with('0') {
                        (8, &body[1..])
                    } else {
                        (10, body)
                    }
                }
            };
            match i64::from_str_radix(digits, radix) {
                Ok(n) if !digits.is_empty() && !digits.starts_with(['+', '-']) => {
                    Ok(Value::Int(if neg { -n } else { n }))
                }
                _ => Err(format!(
                    "'new' The string '{s}' cannot be converted to Integer"
                )),
            }
        }
        other => Err(format!(
            "'new' Value of type {} cannot be converted to Integer",
            crate::hiera5::ptype_general::infer_generalized(other)
        )),
    }
}

fn to_float(v: &Value) -> std::result::Result<Value, String> {
    match v {
        Value::Float(f) if f.is_nan() => {
            Err("'new_float' Value of type Float cannot be converted to Float".to_string())
        }
        Value::Float(_) => Ok(v.clone()),
        Value::Int(i) => Ok(Value::Float(*i as f64)),
        Value::BigInt(b) => Ok(Value::Float(b.parse::<f64>().unwrap_or(f64::INFINITY))),
        Value::Bool(b) => Ok(Value::Float(if *b { 1.0 } else { 0.0 })),
        Value::String(s) => float_of_string(s)
            .map(Value::Float)
            .ok_or_else(|| format!("'new_float' The string '{s}' cannot be converted to Float")),
        other => Err(format!(
            "'new_float' Value of type {} cannot be converted to Float",
            crate::hiera5::ptype_general::infer_generalized(other)
        )),
    }
}

/// A Float's integer part as Ruby's `Float#to_i` gives it (exact, any size).
fn integer_of_float(f: f64) -> Value {
    let t = f.trunc();
    if t.abs() < 9.0e18 {
        Value::Int(t as i64)
    } else {
        let digits = format!("{t:.0}");
        match digits.parse::<i64>() {
            Ok(i) => Value::Int(i),
            Err(_) => Value::BigInt(digits.as_str().into()),
        }
    }
}

/// `Float.new` of a String: hexadecimal and binary integers (`0x1F`,
/// `-0b101`), otherwise a decimal float; digits with a leading zero that
/// are not octal are refused as Puppet's pattern refuses them.
fn float_of_string(s: &str) -> Option<f64> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let sign = if neg { -1.0 } else { 1.0 };
    for (prefix, radix) in [("0x", 16), ("0X", 16), ("0b", 2), ("0B", 2)] {
        if let Some(d) = body.strip_prefix(prefix) {
            return u64::from_str_radix(d, radix).ok().map(|n| sign * n as f64);
        }
    }
    if body.len() > 1
        && body.starts_with('0')
        && body.bytes().all(|b| b.is_ascii_digit())
        && body.bytes().any(|b| b == b'8' || b == b'9')
    {
        return None;
    }
    if body.is_empty() || !body.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return None;
    }
    s.parse::<f64>().ok().filter(|f| f.is_finite())
}

fn to_boolean(v: &Value) -> std::result::Result<Value, String> {
    match v {
        Value::Bool(_) => Ok(v.clone()),
        Value::Int(i) => Ok(Value::Bool(*i != 0)),
        Value::BigInt(_) => Ok(Value::Bool(true)),
        Value::Float(f) if !f.is_nan() => Ok(Value::Bool(*f != 0.0)),
        Value::String(s) => match s.to_ascii_lowercase().as_str() {
            "true" | "yes" | "y" => Ok(Value::Bool(true)),
            "false" | "no" | "n" => Ok(Value::Bool(false)),
            _ => Err(format!(
                "'new_boolean' The string '{s}' cannot be converted to Boolean"
            )),
        },
        other => Err(format!(
            "'new_boolean' Value of type {} cannot be converted to Boolean",
            crate::hiera5::ptype_general::infer_generalized(other)
        )),
    }
}

/// Puppet's default string conversion (`String(v)`): strings as is,
/// arrays and hashes in Puppet's literal syntax.
pub fn puppet_string(v: &Value) -> String {
    let mut out = String::new();
    fn inner(v: &Value, top: bool, out: &mut String) {
        crate::stack::grow(|| match v {
            Value::String(s) if top => out.push_str(s),
            Value::String(s) => {
                out.push('\'');
                out.push_str(&s.replace('\\', "\\\\").replace('\'', "\\'"));
                out.push('\'');
            }
            Value::Nil => {
                if !top {
                    out.push_str("undef")
                }
            }
            Value::Array(a) => {
                crate::ruby::inspect::write_array(a, out, |x, out| inner(x, false, out))
            }
            Value::Hash(h) => {
                crate::ruby::inspect::write_hash(h, " => ", out, |x, out| inner(x, false, out))
            }
            other => crate::ruby::to_s(other, out),
        })
    }
    inner(v, true, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_radix_rules() {
        assert_eq!(
            convert_to("k", "042".into(), &"Integer".into()).unwrap(),
            Value::Int(34)
        );
        let ten = Value::array(vec!["Integer".into(), Value::Int(10)]);
        assert_eq!(convert_to("k", "042".into(), &ten).unwrap(), Value::Int(42));
        assert_eq!(
            convert_to("k", "0xff".into(), &"Integer".into()).unwrap(),
            Value::Int(255)
        );
        let e = convert_to("k", "abc".into(), &"Integer".into()).unwrap_err();
        assert_eq!(e.message, "The convert_to lookup_option for key 'k' raised error: 'new' The string 'abc' cannot be converted to Integer");
    }

    #[test]
    fn type_syntax_errors() {
        let e = convert_to("badtype", "1".into(), &"Integer[1".into()).unwrap_err();
        assert_eq!(
            e.message,
            "Invalid data type in lookup_options for key 'badtype' could not parse 'Integer[1', error: 'Syntax error at end of input"
        );
    }

    #[test]
    fn a_type_nested_too_deep_is_an_error_not_a_stack_overflow() {
        let nested =
            |n: usize| Value::from(format!("{}Integer{}", "Array[".repeat(n), "]".repeat(n)));
        let v = |n: usize| (0..n).fold(Value::Int(1), |v, _| Value::array(vec![v]));
        // As deep as accepted: converted (a value of that shape is one).
        assert_eq!(
            convert_to("k", v(MAX_TYPE_NESTING), &nested(MAX_TYPE_NESTING)).unwrap(),
            v(MAX_TYPE_NESTING)
        );
        // Deeper (Puppet: "stack level too deep" from 3,000 levels): refused
        // before the type is read level by level.
        for n in [MAX_TYPE_NESTING + 1, 200_000] {
            let e = convert_to("k", Value::Int(1), &nested(n)).unwrap_err();
            assert!(
                e.message.starts_with(
                    "Invalid data type in lookup_options for key 'k' could not parse 'Array[Array["
                ),
                "{}",
                &e.message[..100]
            );
            assert!(e
                .message
                .ends_with("error: 'stack level too deep (a type nested deeper than 1000 levels)"));
        }
    }

    #[test]
    fn brackets_in_quoted_strings_and_regexps_are_text() {
        // Not nesting: an Enum of one value made of 5,000 brackets.
        let many = "(".repeat(5_000);
        let ty = Value::from(format!("Enum['{many}']"));
        assert_eq!(
            convert_to("k", many.as_str().into(), &ty).unwrap(),
            Value::from(many.as_str())
        );
        // Not a parameter's end: commas and brackets in strings and regexps.
        assert_eq!(
            top_level_params(r#"'a,b]', "c\",d", /e,[f/, Pattern[/g\/,/]"#).unwrap(),
            vec![
                "'a,b]'".to_string(),
                r#""c\",d""#.into(),
                "/e,[f/".into(),
                r"Pattern[/g\/,/]".into()
            ]
        );
        assert_eq!(
            top_level_params("Struct[{a => Integer, b => String}], 1").unwrap(),
            vec![
                "Struct[{a => Integer, b => String}]".to_string(),
                "1".into()
            ]
        );
        assert_eq!(top_level_params("Integer[1"), None);
    }

    #[test]
    fn array_conversions() {
        assert_eq!(
            convert_to("k", "ab".into(), &"Array".into()).unwrap(),
            Value::array(vec!["a".into(), "b".into()])
        );
        let wrap = Value::array(vec!["Array".into(), Value::Bool(true)]);
        assert_eq!(
            convert_to("k", "ab".into(), &wrap).unwrap(),
            Value::array(vec!["ab".into()])
        );
    }
}
