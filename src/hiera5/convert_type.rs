//! The type checks Puppet's `new` makes around a conversion, for
//! `convert_to`: the "already an instance" shortcut (`Type.new(v)` returns
//! `v` unchanged when `v` already is an instance of `Type`) and the
//! assertion of the converted value (`Converted value from T.new() has
//! wrong type, ...`), for the types whose checks and messages are known
//! here. A type outside that set answers `None`: no shortcut, no assertion.

use crate::value::Value;

/// A type `new` can check, parsed from `convert_to`'s type text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Checked {
    Any,
    Scalar,
    Numeric,
    Boolean,
    /// `Boolean[true]` or `Boolean[false]`.
    BooleanValue(bool),
    /// `Sensitive` or `Sensitive[T]`.
    Sensitive(Box<Checked>),
    Undef,
    /// `Integer[min, max]` (bounds inclusive; `None` is unbounded).
    Integer(Option<i64>, Option<i64>),
    /// `Float` without parameters.
    Float,
    /// `Float[min, max]` with Float literals (or `default`) as bounds.
    FloatRange(Option<f64>, Option<f64>),
    /// `String[min, max]` (length in characters).
    String(usize, Option<usize>),
    /// `Array` or `Array[T]` (element type only) and plain `Tuple`.
    Array(Box<Checked>),
    /// `Hash` without parameters (and plain `Struct`).
    Hash,
    Variant(Vec<Checked>),
    Optional(Box<Checked>),
    /// `Enum[values..., case_insensitive]`: one of the Strings (ASCII case
    /// folded when the last parameter is `true`).
    Enum(Vec<String>, bool),
}

/// Parses `name` with its `params` (the type's text split at top-level
/// commas) into a [`Checked`] type, or `None` when this module does not
/// know how Puppet checks it.
pub(crate) fn parse(name: &str, params: &[String]) -> Option<Checked> {
    let sub = |s: &str| -> Option<Checked> {
        let (n, p) = split(s)?;
        parse(&n, &p)
    };
    Some(match (name, params.len()) {
        ("Any", 0) => Checked::Any,
        ("Scalar", 0) => Checked::Scalar,
        ("Numeric", 0) => Checked::Numeric,
        ("Boolean", 0) => Checked::Boolean,
        ("Boolean", 1) => match params[0].as_str() {
            "true" => Checked::BooleanValue(true),
            "false" => Checked::BooleanValue(false),
            _ => return None,
        },
        ("Sensitive", 0) => Checked::Sensitive(Box::new(Checked::Any)),
        ("Sensitive", 1) => Checked::Sensitive(Box::new(sub(&params[0])?)),
        ("Undef", 0) => Checked::Undef,
        ("Float", 0) => Checked::Float,
        ("Float", 1..=2) => {
            let min = float_bound(params.first())?;
            let max = float_bound(params.get(1))?;
            Checked::FloatRange(min, max)
        }
        ("Hash" | "Struct", 0) => Checked::Hash,
        ("Integer", 0..=2) => {
            let min = param_bound(params, 0)?;
            let max = param_bound(params, 1)?;
            Checked::Integer(min, max)
        }
        ("String", 0..=2) => {
            let min = param_bound(params, 0)?;
            let max = param_bound(params, 1)?;
            let min = usize::try_from(min.unwrap_or(0)).ok()?;
            let max = match max {
                Some(m) => Some(usize::try_from(m).ok()?),
                None => None,
            };
            Checked::String(min, max)
        }
        ("Array" | "Tuple", 0) => Checked::Array(Box::new(Checked::Any)),
        ("Array", 1) => Checked::Array(Box::new(sub(&params[0])?)),
        ("Variant", n) if n > 0 => {
            Checked::Variant(params.iter().map(|p| sub(p)).collect::<Option<Vec<_>>>()?)
        }
        ("Optional", 1) => Checked::Optional(Box::new(sub(&params[0])?)),
        ("Enum", n) if n > 0 => {
            let (values, folded) = match params[n - 1].trim() {
                "true" => (&params[..n - 1], true),
                "false" => (&params[..n - 1], false),
                _ => (params, false),
            };
            if values.is_empty() {
                return None;
            }
            let values = values
                .iter()
                .map(|p| enum_value(p))
                .collect::<Option<_>>()?;
            Checked::Enum(values, folded)
        }
        _ => return None,
    })
}

/// An Enum parameter's String: a quoted string (single quotes, whose only
/// escapes are `\\` and `\'`; double quotes with the escapes of
/// Puppet's double-quoted strings but no interpolation) or a bare lower-case word; `None` for anything else.
fn enum_value(p: &str) -> Option<String> {
    let t = p.trim();
    if let Some(inner) = t.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')) {
        let mut out = String::with_capacity(inner.len());
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some(e @ ('\\' | '\'')) => out.push(e),
                    Some(e) => {
                        out.push('\\');
                        out.push(e);
                    }
                    None => return None,
                },
                '\'' => return None,
                c => out.push(c),
            }
        }
        return Some(out);
    }
    if let Some(inner) = t.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        let mut out = String::with_capacity(inner.len());
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => out.push(match chars.next()? {
                    e @ ('\\' | '"' | '\'' | '$') => e,
                    'n' => '\n',
                    't' => '\t',
                    'r' => '\r',
                    's' => ' ',
                    _ => return None,
                }),
                // Interpolation, or a quote that ends the string early.
                '$' | '"' => return None,
                c => out.push(c),
            }
        }
        return Some(out);
    }
    (t.starts_with(|c: char| c.is_ascii_lowercase())
        && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
    .then(|| t.to_string())
}

/// Parameter `i` as a bound: `Some(None)` when absent or `default`,
/// `None` when it is not a number.
fn param_bound(params: &[String], i: usize) -> Option<Option<i64>> {
    match params.get(i) {
        None => Some(None),
        Some(p) => bound(p),
    }
}

/// A Float bound written as a Float literal (`0.0`, `-1.5`, `1e3`), or
/// `default` or absent (unbounded); anything else (an Integer bound, whose
/// printing Puppet may change) is not known here.
fn float_bound(p: Option<&String>) -> Option<Option<f64>> {
    match p.map(|p| p.trim()) {
        None | Some("default") => Some(None),
        Some(t) if t.contains(['.', 'e', 'E']) => {
            t.parse::<f64>().ok().filter(|f| f.is_finite()).map(Some)
        }
        Some(_) => None,
    }
}

/// An Integer bound: a number, or `default` (unbounded).
fn bound(p: &str) -> Option<Option<i64>> {
    match p.trim() {
        "default" => Some(None),
        t => integer_literal(t).map(Some),
    }
}

/// An Integer literal as Puppet's lexer reads it: decimal, octal (`010` is
/// 8) or hexadecimal (`0x10`), with an optional unary minus; `None` for
/// anything else (`09` is no number Puppet reads).
fn integer_literal(p: &str) -> Option<i64> {
    let t = p.trim();
    let (negative, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest.trim_start()),
        None => (false, t),
    };
    let (radix, digits) = if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        (16, hex)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let v = i64::from_str_radix(digits, radix).ok()?;
    Some(if negative { -v } else { v })
}

/// Puppet's type factory refuses a range whose 'from' is above its 'to'
/// (`Integer[5, 1]`, `Float[2.0, 1.0]`, the size of `String[5, 1]`,
/// `Array[Integer, 5, 1]`, `Hash[String, Integer, 5, 1]`, `Tuple[Integer,
/// 5, 1]`, `Collection[5, 1]`, and `Timespan[2, 1]`, `Timestamp[2, 1]`),
/// anywhere in the type (a Struct's hash literal too), before any value is
/// converted: the message it raises ("'from' must be less or equal to
/// 'to'. Got (5, 1", as Puppet writes it), for `name` with its `params`,
/// or `None`. The parameters are read first, as Puppet interprets them
/// before the type that holds them.
pub(crate) fn empty_range(name: &str, params: &[String]) -> Option<String> {
    crate::stack::grow(|| params.iter().find_map(|p| nested_empty_range(p)))
        .or_else(|| own_empty_range(name, params))
}

/// [`empty_range`] of one parameter: a type, or a Struct's `{k => v, ...}`.
fn nested_empty_range(p: &str) -> Option<String> {
    let t = p.trim();
    if let Some(inner) = t.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
        let entries = crate::hiera5::convert::top_level_params(inner)?;
        return entries.iter().find_map(|entry| {
            let arrow = crate::hiera5::convert::structural(entry)
                .find(|&(at, b)| b == b'=' && entry.as_bytes().get(at + 1) == Some(&b'>'))
                .map(|(at, _)| at)?;
            nested_empty_range(&entry[..arrow]).or_else(|| nested_empty_range(&entry[arrow + 2..]))
        });
    }
    let (n, ps) = split(t)?;
    empty_range(&n, &ps)
}

/// The range `name[params]` itself makes, when it is empty.
fn own_empty_range(name: &str, params: &[String]) -> Option<String> {
    let refused = |from: String, to: String| {
        format!("'from' must be less or equal to 'to'. Got ({from}, {to}")
    };
    let int = |i: usize| params.get(i).and_then(|p| integer_literal(p));
    let sizes = |from: usize, to: usize| {
        let (a, b) = (int(from)?, int(to)?);
        (a > b).then(|| refused(a.to_string(), b.to_string()))
    };
    let n = params.len();
    match (name, n) {
        ("Integer" | "String", 2) => {
            let ((a, at), (b, bt)) = (number(&params[0])?, number(&params[1])?);
            (a > b).then(|| refused(at, bt))
        }
        // `Float(from)` comes first: `Float[5, 1]` is refused as (5.0, 1.0.
        ("Float", 2) => {
            let ((a, _), (b, _)) = (number(&params[0])?, number(&params[1])?);
            (a > b).then(|| {
                refused(
                    crate::ruby::float::float_to_s(a),
                    crate::ruby::float::float_to_s(b),
                )
            })
        }
        // `Array[5, 1]` (a size without a type), `Array[T, 5, 1]`.
        ("Array", 2) if int(0).is_some() => sizes(0, 1),
        ("Array", 3) => sizes(1, 2),
        ("Hash" | "Collection", 2) => sizes(0, 1),
        ("Hash", 4) => sizes(2, 3),
        // A Tuple's last two parameters are its size when the first of
        // them is a number or `default` (a minimum of 0).
        ("Tuple", 2..) if params[n - 2].trim() == "default" => {
            let to = int(n - 1)?;
            (to < 0).then(|| refused("0".into(), to.to_string()))
        }
        ("Tuple", 2..) => sizes(n - 2, n - 1),
        // Integer bounds are seconds (since the epoch for a Timestamp).
        ("Timespan" | "Timestamp", 2) => {
            let text = match name {
                "Timespan" => crate::hiera5::convert_time::timespan_text,
                _ => crate::hiera5::convert_time::timestamp_text,
            };
            let (a, b) = (int(0)?, int(1)?);
            let ns = |s: i64| i128::from(s) * 1_000_000_000;
            (a > b).then(|| refused(text(ns(a)), text(ns(b))))
        }
        _ => None,
    }
}

/// A numeric type parameter: its value and its text as Ruby prints it
/// (`1e1` is `10.0`, `010` is `8`).
fn number(p: &str) -> Option<(f64, String)> {
    let t = p.trim();
    if let Some(i) = integer_literal(t) {
        return Some((i as f64, i.to_string()));
    }
    if t.contains(['.', 'e', 'E']) && t.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        let f = t.parse::<f64>().ok().filter(|f| f.is_finite())?;
        return Some((f, crate::ruby::float::float_to_s(f)));
    }
    None
}

/// Splits `Name[a, b]` into its name and top-level parameters.
fn split(src: &str) -> Option<(String, Vec<String>)> {
    let s = src.trim();
    let (name, rest) = match s.find('[') {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    };
    let mut params = Vec::new();
    if !rest.is_empty() {
        let inner = rest.strip_prefix('[')?.strip_suffix(']')?;
        params = crate::hiera5::convert::top_level_params(inner)?;
    }
    Some((name.trim().to_string(), params))
}

/// Whether `v` is an instance of `t`, as Puppet's `instance?` answers it.
pub(crate) fn is_instance(t: &Checked, v: &Value) -> bool {
    crate::stack::grow(|| match t {
        Checked::Any => true,
        Checked::Scalar => crate::hiera5::ptype::is_scalar(v),
        // Float and Numeric have a range (-Infinity..Infinity) that NaN is outside of.
        Checked::Numeric => match v {
            Value::Float(f) => !f.is_nan(),
            other => matches!(other, Value::Int(_) | Value::BigInt(_)),
        },
        Checked::Boolean => matches!(v, Value::Bool(_)),
        Checked::BooleanValue(b) => matches!(v, Value::Bool(x) if x == b),
        Checked::Sensitive(inner) => match v {
            Value::Sensitive(x) => is_instance(inner, x),
            _ => false,
        },
        Checked::Undef => v.is_nil(),
        Checked::Float => matches!(v, Value::Float(f) if !f.is_nan()),
        Checked::FloatRange(min, max) => matches!(v, Value::Float(f)
            if !f.is_nan() && min.is_none_or(|m| *f >= m) && max.is_none_or(|m| *f <= m)),
        Checked::Integer(min, max) => match v {
            Value::Int(n) => min.is_none_or(|m| *n >= m) && max.is_none_or(|m| *n <= m),
            Value::BigInt(digits) => {
                // Beyond 64 bits: above any finite bound on its side.
                if digits.starts_with('-') {
                    min.is_none()
                } else {
                    max.is_none()
                }
            }
            _ => false,
        },
        Checked::String(min, max) => match v {
            Value::String(s) => {
                let n = s.chars().count();
                n >= *min && max.is_none_or(|m| n <= m)
            }
            _ => false,
        },
        Checked::Array(elem) => match v {
            Value::Array(a) => a.iter().all(|e| is_instance(elem, e)),
            _ => false,
        },
        Checked::Hash => matches!(v, Value::Hash(_)),
        Checked::Variant(ts) => ts.iter().any(|t| is_instance(t, v)),
        Checked::Optional(inner) => v.is_nil() || is_instance(inner, v),
        Checked::Enum(values, folded) => match v {
            Value::String(s) => values.iter().any(|e| {
                if *folded {
                    e.eq_ignore_ascii_case(s)
                } else {
                    e == &**s
                }
            }),
            _ => false,
        },
    })
}

/// Puppet's assertion of `new`'s result: `Ok` when `v` is an instance of
/// `t` (whose text, as Puppet prints it, is `type_text`), else the
/// mismatch message Puppet's TypeAsserter gives. Only the mismatches whose
/// wording is known are described; others answer `Ok` (no assertion).
pub(crate) fn assert_result(t: &Checked, type_text: &str, v: &Value) -> Result<(), String> {
    if is_instance(t, v) {
        return Ok(());
    }
    let label = format!("Converted value from {type_text}.new() has wrong type,");
    let mut errors = Vec::new();
    match (t, v) {
        (Checked::Array(elem), Value::Array(a)) => {
            for (i, e) in a.iter().enumerate() {
                if let (Checked::Enum(..), false) = (&**elem, is_instance(elem, e)) {
                    let got = match e {
                        Value::String(s) => crate::hiera5::string_format::puppet_quote(s, false),
                        other => crate::hiera5::ptype::infer_type(other),
                    };
                    errors.push(format!(
                        "{label} index {i} expects a match for {}, got {got}",
                        canonical(elem)
                    ));
                } else if !is_instance(elem, e) {
                    let Some(want) = simple_name(elem) else {
                        return Ok(());
                    };
                    errors.push(format!(
                        "{label} index {i} expects {} value, got {}",
                        article(&want),
                        crate::hiera5::ptype::infer_type(e)
                    ));
                }
            }
        }
        (Checked::Integer(..), Value::Int(n)) => errors.push(format!(
            "{label} expects {} value, got Integer[{n}, {n}]",
            article(type_text)
        )),
        (Checked::FloatRange(..), Value::Float(x)) if !x.is_nan() => {
            let x = crate::ruby::float_to_s(*x);
            errors.push(format!(
                "{label} expects {} value, got Float[{x}, {x}]",
                article(type_text)
            ))
        }
        (Checked::BooleanValue(_), Value::Bool(b)) => errors.push(format!(
            "{label} expects {} value, got Boolean[{b}]",
            article(type_text)
        )),
        // Puppet prints the wrapped value's generalized type.
        (Checked::Sensitive(_), Value::Sensitive(x)) => errors.push(format!(
            "{label} expects {} value, got Sensitive[{}]",
            article(type_text),
            crate::hiera5::ptype_general::infer_generalized(x)
        )),
        (Checked::String(..), Value::String(_)) => errors.push(format!(
            "{label} expects {} value, got String",
            article(type_text)
        )),
        _ => return Ok(()),
    }
    Err(match errors.len() {
        0 => return Ok(()),
        1 => errors.remove(0),
        // Several mismatches: Puppet indents each on its own line.
        _ => format!(" {}", errors.join("\n  ")),
    })
}

/// The text Puppet prints for a type that holds an Enum (whose Strings it
/// prints quoted, however the type's text wrote them), or `None` for one
/// that holds none (its text is then as it was written).
pub(crate) fn text_with_enum(t: &Checked) -> Option<String> {
    match t {
        Checked::Enum(..) => Some(canonical(t)),
        Checked::Array(elem) => Some(format!("Array[{}]", text_with_enum(elem)?)),
        Checked::Optional(inner) => Some(format!("Optional[{}]", text_with_enum(inner)?)),
        _ => None,
    }
}

/// An Enum as Puppet prints it: `Enum['a', 'b']`, `Enum['a', true]`.
fn canonical(t: &Checked) -> String {
    match t {
        Checked::Enum(values, folded) => {
            let mut parts: Vec<String> = values
                .iter()
                .map(|v| crate::hiera5::string_format::puppet_quote(v, false))
                .collect();
            if *folded {
                parts.push("true".into());
            }
            format!("Enum[{}]", parts.join(", "))
        }
        _ => String::new(),
    }
}

/// The name Puppet prints for an unparameterised type.
fn simple_name(t: &Checked) -> Option<String> {
    Some(
        match t {
            Checked::Scalar => "Scalar",
            Checked::Numeric => "Numeric",
            Checked::Boolean => "Boolean",
            Checked::Float => "Float",
            Checked::Hash => "Hash",
            Checked::Integer(None, None) => "Integer",
            Checked::String(0, None) => "String",
            _ => return None,
        }
        .to_string(),
    )
}

/// `a String` / `an Integer`, as Puppet's messages put it.
fn article(name: &str) -> String {
    if name.starts_with(['A', 'E', 'I', 'O', 'U']) {
        format!("an {name}")
    } else {
        format!("a {name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(s: &str) -> Checked {
        let (n, p) = split(s).unwrap();
        parse(&n, &p).unwrap()
    }

    #[test]
    fn instances() {
        assert!(is_instance(&ty("Integer[0]"), &Value::Int(0)));
        assert!(!is_instance(&ty("Integer[0]"), &Value::Int(-1)));
        assert!(is_instance(
            &ty("Variant[Integer, String]"),
            &Value::from("x")
        ));
        assert!(!is_instance(
            &ty("Variant[Integer, String]"),
            &Value::Float(1.0)
        ));
        assert!(!is_instance(&ty("String[1]"), &Value::from("")));
        assert!(!is_instance(&ty("Scalar"), &Value::Nil));
        assert!(parse("Tuple", &["Integer".into()]).is_none());
    }

    #[test]
    fn enum_instances() {
        let e = ty("Enum['(((', b, 'it\\'s', \"d\"]");
        for yes in ["(((", "b", "it's", "d"] {
            assert!(is_instance(&e, &Value::from(yes)), "{yes}");
        }
        assert!(!is_instance(&e, &Value::from("B")));
        assert!(!is_instance(&e, &Value::Int(1)));
        assert!(is_instance(&ty("Enum[a, b, true]"), &Value::from("B")));
        assert!(!is_instance(&ty("Enum[a, b, false]"), &Value::from("B")));
        assert!(parse("Enum", &["true".into()]).is_none());
        assert!(parse("Enum", &["\"$x\"".into()]).is_none());
        assert!(parse("Enum", &["\"\\w\"".into()]).is_none());
        assert!(is_instance(
            &ty("Enum[\"q\\\\w\\n\"]"),
            &Value::from("q\\w\n")
        ));
        assert!(parse("Enum", &["Foo".into()]).is_none());
    }

    #[test]
    fn integer_literals_as_puppet_reads_them() {
        assert_eq!(integer_literal("010"), Some(8));
        assert_eq!(integer_literal("0x1F"), Some(31));
        assert_eq!(integer_literal("-0X10"), Some(-16));
        assert_eq!(integer_literal("- 7"), Some(-7));
        assert_eq!(integer_literal("0"), Some(0));
        assert_eq!(integer_literal("09"), None);
        assert_eq!(integer_literal("+5"), None);
        assert_eq!(integer_literal("0x"), None);
        assert_eq!(integer_literal("1e1"), None);
        assert_eq!(integer_literal("99999999999999999999"), None);
        // Bounds read the same way: Integer[010, 9] is Integer[8, 9].
        assert!(is_instance(&ty("Integer[010, 9]"), &Value::Int(8)));
        assert!(!is_instance(&ty("Integer[010, 9]"), &Value::Int(10)));
    }

    #[test]
    fn empty_ranges_anywhere_in_the_type() {
        let refused = |t: &str| {
            let (n, p) = split(t).unwrap();
            empty_range(&n, &p)
        };
        let got = |s: &str| Some(format!("'from' must be less or equal to 'to'. Got ({s}"));
        assert_eq!(refused("Float[5, 1]"), got("5.0, 1.0"));
        assert_eq!(refused("Integer[0x10, 9]"), got("16, 9"));
        assert_eq!(refused("Integer[010, 9]"), None);
        assert_eq!(refused("Array[5, 1]"), got("5, 1"));
        assert_eq!(refused("Array[Integer, 1, 5]"), None);
        assert_eq!(refused("Hash[String, Integer, 5, 1]"), got("5, 1"));
        assert_eq!(refused("Hash[String, Integer]"), None);
        assert_eq!(refused("Collection[5, 1]"), got("5, 1"));
        assert_eq!(refused("Tuple[Integer, 5, 1]"), got("5, 1"));
        assert_eq!(refused("Tuple[Integer, default, -1]"), got("0, -1"));
        assert_eq!(refused("Tuple[Integer, String]"), None);
        assert_eq!(refused("Struct[{a => Integer[5, 1]}]"), got("5, 1"));
        assert_eq!(
            refused("Struct[{'a=>b' => Integer, c => String[2, 1]}]"),
            got("2, 1")
        );
        assert_eq!(refused("Timespan[2, 1]"), got("0-00:00:02.0, 0-00:00:01.0"));
        // Inner types first, as Puppet interprets the parameters first.
        assert_eq!(refused("Array[Float[3, 2], 5, 1]"), got("3.0, 2.0"));
    }

    #[test]
    fn assertion_messages() {
        let t = ty("Integer[0]");
        assert_eq!(
            assert_result(&t, "Integer[0]", &Value::Int(-2)).unwrap_err(),
            "Converted value from Integer[0].new() has wrong type, expects an Integer[0] value, got Integer[-2, -2]"
        );
        let t = ty("Array[String]");
        let v = Value::array(vec![Value::from("a"), Value::Int(1), Value::Int(2)]);
        assert_eq!(
            assert_result(&t, "Array[String]", &v).unwrap_err(),
            " Converted value from Array[String].new() has wrong type, index 1 expects a String value, got Integer\n  Converted value from Array[String].new() has wrong type, index 2 expects a String value, got Integer"
        );
    }
}
