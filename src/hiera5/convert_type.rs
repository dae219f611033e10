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
        _ => return None,
    })
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
        t => t.parse::<i64>().ok().map(Some),
    }
}

/// Puppet's type factory refuses a range whose 'from' is above its 'to'
/// (`Integer[5, 1]`, `Float[2.0, 1.0]`, `String[5, 1]`'s size, anywhere
/// in the type, `Integer[1e1, 2]` too), before any value is converted:
/// the message it raises ("'from' must be less or equal to 'to'. Got (5,
/// 1", as Puppet writes it), for `name` with its `params`, or `None`.
pub(crate) fn empty_range(name: &str, params: &[String]) -> Option<String> {
    if matches!(name, "Integer" | "Float" | "String") && params.len() == 2 {
        if let (Some((a, at)), Some((b, bt))) = (number(&params[0]), number(&params[1])) {
            if a > b {
                return Some(format!(
                    "'from' must be less or equal to 'to'. Got ({at}, {bt}"
                ));
            }
        }
    }
    crate::stack::grow(|| {
        params.iter().find_map(|p| {
            let (n, ps) = split(p)?;
            empty_range(&n, &ps)
        })
    })
}

/// A numeric type parameter: its value and its text as Ruby prints it
/// (`1e1` is `10.0`).
fn number(p: &str) -> Option<(f64, String)> {
    let t = p.trim();
    if let Ok(i) = t.parse::<i64>() {
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
                if !is_instance(elem, e) {
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
