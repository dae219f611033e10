//! Integer's, Float's and Numeric's `new` with their other arguments, for
//! `convert_to`: Puppet's dispatch between `(from, radix?, abs?)` (Float
//! and Numeric: `(from, abs?)`), a Hash of named arguments given as the
//! value (`{from => ..., radix => ..., abs => ...}`, the `NamedArgs`
//! struct), and the argument-mismatch handlers that word the errors
//! (`on_error`, Integer's `on_error_hash`). The conversion of `from`
//! itself is the caller's ([`crate::hiera5::convert`]); this module decides
//! which signature a call matches, applies `abs`, and retries a string with
//! blanks between its sign and its digits without them, as Puppet does.

use crate::value::Value;

/// Which numeric type's `new` is called.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Kind {
    Integer,
    Float,
    Numeric,
}

impl Kind {
    /// The type's name, as Puppet's messages print it.
    fn name(self) -> &'static str {
        match self {
            Kind::Integer => "Integer",
            Kind::Float => "Float",
            Kind::Numeric => "Numeric",
        }
    }

    /// The name of the function that `new` dispatches to (the prefix of
    /// its argument-mismatch messages).
    fn function(self) -> &'static str {
        match self {
            Kind::Integer => "new",
            Kind::Float => "new_float",
            Kind::Numeric => "new_numeric",
        }
    }
}

/// The plain conversion of a `from` value (with a radix, for Integer).
pub(crate) type Convert<'a> = &'a dyn Fn(&Value, Option<u32>) -> Result<Value, String>;

/// `Kind.new(value, args...)`, or `None` when the call is the plain
/// one-argument conversion this module leaves to the caller (no arguments
/// and a value that is not a Hash).
pub(crate) fn new_number(
    kind: Kind,
    value: &Value,
    args: &[Value],
    convert: Convert,
) -> Option<Result<Value, String>> {
    if args.is_empty() {
        return match value {
            Value::Hash(_) => named(kind, value, convert),
            Value::String(_) => Some(from_args(value, None, false, convert)),
            _ => None,
        };
    }
    positional(kind, value, args, convert)
}

/// A Hash given as the only argument: `from_hash` when it is a
/// `NamedArgs`, else Integer's `on_error_hash` (Float and Numeric fall
/// through to the plain conversion, whose message names the Hash's type).
fn named(kind: Kind, value: &Value, convert: Convert) -> Option<Result<Value, String>> {
    let h = value.as_hash()?;
    if !h.keys().all(|k| matches!(k, Value::String(_))) {
        return None;
    }
    if h.is_empty() && kind == Kind::Integer {
        return Some(Err(
            "Integer.new has wrong type, expects size to be between 1 and 3, got 0".into(),
        ));
    }
    let get = |k: &str| h.get(&Value::from(k));
    let allowed: &[&str] = match kind {
        Kind::Integer => &["from", "radix", "abs"],
        _ => &["from", "abs"],
    };
    let extra: Vec<String> = h
        .keys()
        .filter_map(|k| match k {
            Value::String(s) if !allowed.contains(&&**s) => Some(s.to_string()),
            _ => None,
        })
        .collect();
    let from = get("from");
    let radix = get("radix");
    let abs = get("abs");
    let from_ok = from.is_some_and(|f| convertible(kind, f));
    let radix_ok = radix.is_none_or(|r| radix_value(r).is_some());
    let abs_ok = abs.is_none_or(|a| matches!(a, Value::Bool(_)));
    if from_ok && radix_ok && abs_ok && extra.is_empty() {
        let radix = radix.and_then(radix_value);
        let abs = matches!(abs, Some(Value::Bool(true)));
        let from = from?;
        let result = from_args(from, radix, abs, convert);
        // A failed conversion from the named arguments is not reworded by
        // an argument-mismatch handler (Integer's on_error_hash accepts
        // them): Ruby's own ArgumentError message stands.
        return Some(match (result, from, kind) {
            (Err(_), Value::String(s), Kind::Integer) => {
                let mut quoted = String::new();
                crate::ruby::inspect::inspect_str(s, &mut quoted);
                Err(format!("invalid value for Integer(): {quoted}"))
            }
            (result, _, _) => result,
        });
    }
    if kind != Kind::Integer {
        return None;
    }
    // on_error_hash: a `from` that is not convertible words the error...
    if let Some(f) = from {
        if !convertible(kind, f) {
            return Some(Err(mismatch(kind, f)));
        }
    }
    // ... then the radix, then the struct's type assertion.
    if let Some(r) = radix {
        if !r.is_nil() && radix_value(r).is_none() {
            return Some(Err(illegal_radix(r)));
        }
    }
    let label = "Integer.new has wrong type,";
    let mut errors = Vec::new();
    if from.is_none() {
        errors.push(format!("{label} expects a value for key 'from'"));
    }
    if let Some(a) = abs {
        if !matches!(a, Value::Bool(_)) {
            errors.push(format!(
                "{label} entry 'abs' expects a Boolean value, got {}",
                crate::hiera5::ptype::infer_type(a)
            ));
        }
    }
    for k in extra {
        errors.push(format!("{label} unrecognized key '{k}'"));
    }
    Some(Err(match errors.len() {
        0 => return None,
        1 => errors.remove(0),
        _ => format!(" {}", errors.join("\n  ")),
    }))
}

/// `Kind.new(value, args...)` with positional arguments: Integer's
/// `(from, radix?, abs?)`, Float's and Numeric's `(from, abs?)`, or their
/// `on_error` handlers; `None` when no signature takes the arguments
/// (the caller's message then stands).
fn positional(
    kind: Kind,
    value: &Value,
    args: &[Value],
    convert: Convert,
) -> Option<Result<Value, String>> {
    let most = if kind == Kind::Integer { 3 } else { 2 };
    if args.len() + 1 > most {
        return Some(Err(format!(
            "'{}' expects between 1 and {most} arguments, got {}",
            kind.function(),
            args.len() + 1
        )));
    }
    let (radix, abs) = match kind {
        Kind::Integer => (Some(&args[0]), args.get(1)),
        _ => (None, args.first()),
    };
    let abs_ok = abs.is_none_or(|a| matches!(a, Value::Bool(_)));
    let radix_ok = radix.is_none_or(|r| radix_value(r).is_some());
    if convertible(kind, value) && abs_ok && radix_ok {
        let radix = radix.and_then(radix_value);
        return Some(from_args(
            value,
            radix,
            matches!(abs, Some(Value::Bool(true))),
            convert,
        ));
    }
    // on_error(from, Integer radix?, Boolean abs?)
    let radix_int = radix.is_none_or(|r| matches!(r, Value::Int(_) | Value::BigInt(_)));
    if !(abs_ok && radix_int) {
        return Some(Err(no_signature(kind, value, args)));
    }
    if let Some(r) = radix {
        if radix_value(r).is_none() {
            return Some(Err(illegal_radix(r)));
        }
    }
    Some(Err(mismatch(kind, value)))
}

/// Puppet's `Convertible` type of Integer's, Float's and Numeric's `new`.
fn convertible_type(kind: Kind) -> &'static str {
    match kind {
        Kind::Integer => {
            r"Convertible = Variant[Numeric, Boolean, Pattern[/\A[+-]?\s*(?:(?:\d+)|(?:0[xX][0-9A-Fa-f]+)|(?:0[bB][01]+))\z/], Timespan, Timestamp]"
        }
        Kind::Float => {
            r"Convertible = Variant[Numeric, Boolean, Pattern[/\A[+-]?\s*(?:(?:(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE]-?\d+)?)|(?:0[xX][0-9A-Fa-f]+)|(?:0[0-7]+)|(?:0[bB][01]+))\z/], Timespan, Timestamp]"
        }
        Kind::Numeric => {
            r"Convertible = Variant[Integer, Float, Boolean, Pattern[/\A[+-]?\s*(?:(?:(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE]-?\d+)?)|(?:0[xX][0-9A-Fa-f]+)|(?:0[0-7]+)|(?:0[bB][01]+))\z/], Timespan, Timestamp]"
        }
    }
}

const RADIX: &str =
    "Radix = Variant[Default, Integer[2, 2], Integer[8, 8], Integer[10, 10], Integer[16, 16]]";

/// The error of a call with positional arguments no signature of the
/// type's `new` takes (Puppet's `describe_signatures`: each signature with
/// why it rejected the arguments).
pub(crate) fn no_signature(kind: Kind, value: &Value, args: &[Value]) -> String {
    let conv = convertible_type(kind);
    let (positional, named) = match kind {
        Kind::Integer => (
            format!("{conv} from, {RADIX} radix?, Boolean abs?"),
            format!("Struct[{{'from' => {conv}, Optional['radix'] => {RADIX}, Optional['abs'] => Boolean}}]"),
        ),
        _ => (
            format!("{conv} from, Boolean abs?"),
            format!("Struct[{{'from' => {conv}, Optional['abs'] => Boolean}}]"),
        ),
    };
    let got = crate::hiera5::ptype::infer_type;
    // The first argument the positional signature refuses.
    let rejected = if !convertible(kind, value) {
        format!(
            "parameter 'from' expects a {conv} value, got {}",
            got(value)
        )
    } else {
        match (kind, args) {
            (Kind::Integer, [r, ..]) if radix_value(r).is_none() => {
                format!("parameter 'radix' expects a {RADIX} value, got {}", got(r))
            }
            (Kind::Integer, [_, a]) | (_, [a]) => {
                format!("parameter 'abs' expects a Boolean value, got {}", got(a))
            }
            _ => "expects 1 argument".to_string(),
        }
    };
    format!(
        "The function '{}' was called with arguments it does not accept. It expects one of:\n  ({positional})\n    rejected: {rejected}\n  (NamedArgs = {named} hash_args)\n    rejected: expects 1 argument, got {}",
        kind.function(),
        args.len() + 1
    )
}

/// `from_args`: the conversion, retried without the blanks between a
/// sign and the number (Puppet's `WS_BETWEEN_SIGN_AND_NUMBER`), then `abs`.
fn from_args(
    from: &Value,
    radix: Option<u32>,
    abs: bool,
    convert: Convert,
) -> Result<Value, String> {
    let converted = match convert(from, radix) {
        Ok(v) => Ok(v),
        Err(e) => match from {
            Value::String(s) => match without_blanks_after_sign(s) {
                Some(t) => convert(&Value::from(t.as_str()), radix).map_err(|_| e),
                None => Err(e),
            },
            _ => Err(e),
        },
    }?;
    Ok(if abs { absolute(converted) } else { converted })
}

/// `-  12` as `-12`: a sign, blanks (spaces, tabs), and the rest.
fn without_blanks_after_sign(s: &str) -> Option<String> {
    let sign = s.chars().next().filter(|c| *c == '+' || *c == '-')?;
    let rest = &s[1..];
    let trimmed = rest.trim_start_matches([' ', '\t']);
    if trimmed.len() == rest.len() {
        return None;
    }
    Some(format!("{sign}{trimmed}"))
}

/// A number's absolute value (Ruby's `abs`, exact for any Integer).
fn absolute(v: Value) -> Value {
    match v {
        Value::Int(n) => match n.checked_abs() {
            Some(a) => Value::Int(a),
            None => Value::BigInt(n.unsigned_abs().to_string().as_str().into()),
        },
        Value::BigInt(ref b) => match b.strip_prefix('-') {
            Some(d) => Value::BigInt(d.into()),
            None => v,
        },
        Value::Float(f) => Value::Float(f.abs()),
        other => other,
    }
}

/// A `Radix` (2, 8, 10 or 16) as a number.
fn radix_value(v: &Value) -> Option<u32> {
    match v {
        Value::Int(r @ (2 | 8 | 10 | 16)) => Some(*r as u32),
        _ => None,
    }
}

/// `assert_radix`'s ArgumentError.
fn illegal_radix(r: &Value) -> String {
    let mut s = String::new();
    crate::ruby::to_s(r, &mut s);
    format!("Illegal radix: {s}, expected 2, 8, 10, 16, or default")
}

/// `on_error`'s message for a `from` the type cannot convert.
fn mismatch(kind: Kind, from: &Value) -> String {
    match from {
        Value::String(s) => format!(
            "'{}' The string '{s}' cannot be converted to {}",
            kind.function(),
            kind.name()
        ),
        other => format!(
            "'{}' Value of type {} cannot be converted to {}",
            kind.function(),
            crate::hiera5::ptype_general::infer_generalized(other),
            kind.name()
        ),
    }
}

/// Whether `v` is an instance of the type's `Convertible` (Timespan and
/// Timestamp aside, which Hiera data never holds before conversion).
fn convertible(kind: Kind, v: &Value) -> bool {
    match v {
        Value::Int(_) | Value::BigInt(_) | Value::Bool(_) => true,
        Value::Float(f) => !f.is_nan(),
        Value::String(s) => match kind {
            Kind::Integer => integer_pattern(s),
            _ => float_pattern(s),
        },
        Value::Rich(r) => r.0 == "Timespan" || r.0 == "Timestamp",
        _ => false,
    }
}

/// Ruby's `\s` (ASCII white space).
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

/// `[+-]?\s*` at the start of `s`: the rest.
fn after_sign(s: &str) -> &[u8] {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    while i < b.len() && is_space(b[i]) {
        i += 1;
    }
    &b[i..]
}

fn all(b: &[u8], f: impl Fn(u8) -> bool) -> bool {
    !b.is_empty() && b.iter().all(|c| f(*c))
}

/// `0x...` or `0b...` with at least one digit.
fn prefixed(b: &[u8]) -> bool {
    match b {
        [b'0', b'x' | b'X', rest @ ..] => all(rest, |c| c.is_ascii_hexdigit()),
        [b'0', b'b' | b'B', rest @ ..] => all(rest, |c| c == b'0' || c == b'1'),
        _ => false,
    }
}

/// Puppet's `INTEGER_PATTERN_LENIENT`: decimal (or octal) digits, hex, binary.
fn integer_pattern(s: &str) -> bool {
    let b = after_sign(s);
    all(b, |c| c.is_ascii_digit()) || prefixed(b)
}

/// Puppet's `FLOAT_PATTERN`: a decimal float (`0|[1-9]\d*`, fraction,
/// exponent), hex, octal, binary.
fn float_pattern(s: &str) -> bool {
    let b = after_sign(s);
    if prefixed(b) {
        return true;
    }
    if let [b'0', rest @ ..] = b {
        if all(rest, |c| (b'0'..=b'7').contains(&c)) {
            return true;
        }
    }
    // (?:0|[1-9]\d*)(?:\.\d+)?(?:[eE]-?\d+)?
    let mut i = match b.first() {
        Some(b'0') => 1,
        Some(b'1'..=b'9') => {
            let mut j = 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            j
        }
        _ => return false,
    };
    if i < b.len() && b[i] == b'.' {
        let start = i + 1;
        i = start;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && b[i] == b'-' {
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns() {
        assert!(integer_pattern("-0x1F"));
        assert!(integer_pattern("- 3"));
        assert!(integer_pattern("09"));
        assert!(!integer_pattern("1_000"));
        assert!(!integer_pattern("1.5"));
        assert!(!integer_pattern(""));
        assert!(float_pattern("-2.5e1"));
        assert!(float_pattern("017"));
        assert!(!float_pattern("09"));
        assert!(!float_pattern("1."));
        assert!(!float_pattern(".5"));
        assert!(float_pattern("0b11"));
    }

    #[test]
    fn blanks_after_sign() {
        assert_eq!(without_blanks_after_sign("- \t3").as_deref(), Some("-3"));
        assert_eq!(without_blanks_after_sign("-3"), None);
        assert_eq!(without_blanks_after_sign(" 3"), None);
    }

    #[test]
    fn absolute_values() {
        assert_eq!(absolute(Value::Int(-5)), Value::Int(5));
        assert_eq!(
            absolute(Value::Int(i64::MIN)),
            Value::BigInt("9223372036854775808".into())
        );
        assert_eq!(absolute(Value::Float(-2.5)), Value::Float(2.5));
    }
}
