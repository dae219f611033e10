//! Ruby's `==` and `<=>` between the values Hiera handles, and `Array#sort!`
//! as Ruby on glibc runs it (which decides which comparison error is
//! raised first).

use crate::error::{Error, ErrorKind, Result};
use crate::value::Value;
use std::cmp::Ordering;

/// Ruby's `==` (`rb_equal`): numbers compare by value across Integer and
/// Float, containers element by element with `==`.
pub fn is_nan(v: &Value) -> bool {
    matches!(v, Value::Float(f) if f.is_nan())
}

/// Ruby's `rb_equal`, what Array#delete, Array#== and Hash#== compare
/// elements with: identity first, then `==`. Every NaN Psych gives is the
/// one `Float::NAN` object, so a NaN is equal to a NaN here, unlike with
/// `==` ([`equal`]).
pub fn rb_equal(a: &Value, b: &Value) -> bool {
    (is_nan(a) && is_nan(b)) || equal(a, b)
}

pub fn equal(a: &Value, b: &Value) -> bool {
    crate::stack::grow(|| {
        use Value::*;
        match (a, b) {
            (Int(_) | BigInt(_) | Float(_), Int(_) | BigInt(_) | Float(_)) => {
                numeric_cmp(a, b) == Some(Ordering::Equal)
            }
            (String(x), String(y)) => x == y,
            (Bytes(x), Bytes(y)) => x == y,
            (Array(x), Array(y)) => {
                crate::value::List::ptr_eq(x, y)
                    || (x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| rb_equal(p, q)))
            }
            (Hash(x), Hash(y)) => {
                crate::value::Map::ptr_eq(x, y)
                    || (x.len() == y.len()
                        && x.iter()
                            .all(|(k, v)| y.get(k).is_some_and(|w| rb_equal(v, w))))
            }
            _ => a == b,
        }
    })
}

/// Exact comparison of two numbers (Integer or Float); `None` involving NaN.
fn numeric_cmp(a: &Value, b: &Value) -> Option<Ordering> {
    use Value::*;
    match (a, b) {
        (Int(x), Int(y)) => Some(x.cmp(y)),
        (Float(x), Float(y)) => x.partial_cmp(y),
        (Int(_) | BigInt(_), Int(_) | BigInt(_)) => {
            Some(decimal_cmp(&int_digits(a), &int_digits(b)))
        }
        (Int(_) | BigInt(_), Float(f)) => int_float_cmp(a, *f),
        (Float(f), Int(_) | BigInt(_)) => int_float_cmp(b, *f).map(Ordering::reverse),
        _ => None,
    }
}

fn int_digits(v: &Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::BigInt(s) => s.to_string(),
        _ => unreachable!("int_digits of a non-integer"),
    }
}

/// Compares two canonical decimal integers (optional `-`, no leading zeros).
fn decimal_cmp(a: &str, b: &str) -> Ordering {
    let (an, ad) = a.strip_prefix('-').map_or((false, a), |d| (true, d));
    let (bn, bd) = b.strip_prefix('-').map_or((false, b), |d| (true, d));
    let magnitude = ad.len().cmp(&bd.len()).then_with(|| ad.cmp(bd));
    match (an, bn) {
        (false, false) => magnitude,
        (true, true) => magnitude.reverse(),
        (false, true) => Ordering::Greater,
        (true, false) => Ordering::Less,
    }
}

/// Integer `<=>` Float, exactly (as `rb_integer_float_cmp`).
fn int_float_cmp(int: &Value, f: f64) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    if f.is_infinite() {
        return Some(if f > 0.0 {
            Ordering::Less
        } else {
            Ordering::Greater
        });
    }
    let whole = f.trunc();
    let by_whole = match int {
        Value::Int(i) if whole.abs() < 1.7e38 => (*i as i128).cmp(&(whole as i128)),
        _ => {
            let w = if whole == 0.0 {
                "0".to_string()
            } else {
                format!("{whole:.0}")
            };
            decimal_cmp(&int_digits(int), &w)
        }
    };
    Some(by_whole.then_with(|| 0.0f64.partial_cmp(&(f - whole)).unwrap_or(Ordering::Equal)))
}

/// Ruby's `a <=> b` for the values Hiera has; `None` where Ruby returns nil.
pub fn spaceship(a: &Value, b: &Value) -> Option<Ordering> {
    crate::stack::grow(|| {
        use Value::*;
        match (a, b) {
            (Int(_) | BigInt(_) | Float(_), Int(_) | BigInt(_) | Float(_)) => numeric_cmp(a, b),
            (Int(_) | BigInt(_) | Float(_), _) => None,
            (String(_) | Bytes(_), String(_) | Bytes(_)) => Some(str_bytes(a).cmp(str_bytes(b))),
            (String(_) | Bytes(_), _) => None,
            (Symbol(x), Symbol(y)) => Some(x.as_bytes().cmp(y.as_bytes())),
            (Symbol(_), _) => None,
            (Array(x), Array(y)) => {
                for (p, q) in x.iter().zip(y.iter()) {
                    match spaceship(p, q) {
                        Some(Ordering::Equal) => {}
                        other => return other,
                    }
                }
                Some(x.len().cmp(&y.len()))
            }
            (Array(_), _) => None,
            // Object#<=>: 0 when ==, nil otherwise.
            (Nil | Bool(_) | Hash(_) | Sensitive(_) | Rich(_), _) => {
                equal(a, b).then_some(Ordering::Equal)
            }
        }
    })
}

fn str_bytes(v: &Value) -> &[u8] {
    match v {
        Value::String(s) => s.as_bytes(),
        Value::Bytes(b) => b,
        _ => &[],
    }
}

/// The comparison `Array#sort!` makes (`sort_2`), raising Ruby's
/// `comparison of X with Y failed` when `<=>` gives nil.
fn sort_cmp(a: &Value, b: &Value) -> Result<Ordering> {
    spaceship(a, b).ok_or_else(|| {
        Error::new(
            ErrorKind::Merge,
            format!(
                "comparison of {} with {} failed",
                a.ruby_class(),
                cmperr_operand(b)
            ),
        )
    })
}

/// How `rb_cmperr` names the right operand: special constants and Floats by
/// `inspect`, other objects by class.
fn cmperr_operand(v: &Value) -> String {
    const FIXNUM_MIN: i64 = -(1 << 62);
    const FIXNUM_MAX: i64 = (1 << 62) - 1;
    match v {
        Value::Nil | Value::Bool(_) | Value::Float(_) => crate::ruby::inspect(v),
        Value::Int(i) if (FIXNUM_MIN..=FIXNUM_MAX).contains(i) => i.to_string(),
        // Symbols made from data are dynamic (heap) symbols: named by class.
        other => other.ruby_class().to_string(),
    }
}

/// `Array#sort!` as Ruby on glibc runs it: `qsort_r`, which is a top-down
/// merge sort that takes the left element when the comparison is <= 0.
/// The order of comparisons matters for which error is raised.
pub fn sort(items: &mut [Value]) -> Result<()> {
    fn msort(items: &mut [Value], tmp: &mut Vec<Value>) -> Result<()> {
        let n = items.len();
        if n <= 1 {
            return Ok(());
        }
        let n1 = n / 2;
        msort(&mut items[..n1], tmp)?;
        msort(&mut items[n1..], tmp)?;
        tmp.clear();
        let (mut i, mut j) = (0, n1);
        while i < n1 && j < n {
            if sort_cmp(&items[i], &items[j])? != Ordering::Greater {
                tmp.push(items[i].clone());
                i += 1;
            } else {
                tmp.push(items[j].clone());
                j += 1;
            }
        }
        tmp.extend(items[i..n1].iter().cloned());
        // Elements left in the right run are already in place.
        items[..tmp.len()].clone_from_slice(tmp);
        Ok(())
    }
    let mut tmp = Vec::with_capacity(items.len());
    msort(items, &mut tmp)
}
