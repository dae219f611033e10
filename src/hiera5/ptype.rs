//! The few Puppet type checks Hiera needs (Scalar, Data, RichData) and a
//! close approximation of Puppet's inferred type names for messages.

use crate::value::Value;

/// Puppet `Scalar`: String, Numeric, Boolean (not Undef).
pub fn is_scalar(v: &Value) -> bool {
    matches!(
        v,
        Value::String(_)
            | Value::Bytes(_)
            | Value::Int(_)
            | Value::BigInt(_)
            | Value::Float(_)
            | Value::Bool(_)
    )
}

/// Puppet `Data`: `Scalar`, `Undef`, `Array[Data]`, `Hash[String, Data]`.
pub fn is_data(v: &Value) -> bool {
    crate::stack::grow(|| match v {
        Value::Nil => true,
        Value::Array(a) => a.iter().all(is_data),
        Value::Hash(h) => h
            .iter()
            .all(|(k, v)| matches!(k, Value::String(_)) && is_data(v)),
        other => is_scalar(other),
    })
}

/// Puppet `RichData` as Hiera validates looked-up values: Data plus
/// Sensitive, and hashes whose keys are Strings or Numerics.
pub fn is_rich_data(v: &Value) -> bool {
    crate::stack::grow(|| match v {
        Value::Nil | Value::Sensitive(_) | Value::Rich(_) => true,
        Value::Array(a) => a.iter().all(is_rich_data),
        Value::Hash(h) => h.iter().all(|(k, v)| {
            matches!(
                k,
                Value::String(_) | Value::Int(_) | Value::BigInt(_) | Value::Float(_)
            ) && is_rich_data(v)
        }),
        Value::Symbol(_) => false,
        other => is_scalar(other),
    })
}

/// The name of the type Puppet infers for `v`, as its messages print it
/// (`Undef`, `String`, `Integer`, `Tuple`, `Struct`, `Runtime[ruby, 'Symbol']`...).
pub fn infer_type(v: &Value) -> String {
    crate::stack::grow(|| match v {
        Value::Nil => "Undef".into(),
        Value::Bool(_) => "Boolean".into(),
        Value::Int(_) | Value::BigInt(_) => "Integer".into(),
        Value::Float(_) => "Float".into(),
        Value::String(_) | Value::Bytes(_) => "String".into(),
        Value::Symbol(_) => "Runtime[ruby, 'Symbol']".into(),
        Value::Sensitive(_) => "Sensitive".into(),
        Value::Rich(r) => r.0.clone(),
        // `infer_set` gives the EMPTY Array and Hash types for empty
        // containers, named `Array` and `Hash` (not Tuple, Struct).
        Value::Array(a) if a.is_empty() => "Array".into(),
        Value::Hash(h) if h.is_empty() => "Hash".into(),
        Value::Array(a) => {
            if a.iter().all(is_rich_data) {
                "Tuple".into()
            } else {
                format!("Array[Any, {}, {}]", a.len(), a.len())
            }
        }
        Value::Hash(h) => {
            if h.keys().all(|k| matches!(k, Value::String(_))) {
                "Struct".into()
            } else {
                let key_t = common_key_type(h.keys());
                format!(
                    "Hash[{}, {}, {}, {}]",
                    key_t,
                    value_type_name(h.values()),
                    h.len(),
                    h.len()
                )
            }
        }
    })
}

fn common_key_type<'a>(keys: impl Iterator<Item = &'a Value>) -> String {
    let mut kinds: Vec<&'static str> = keys
        .map(|k| match k {
            Value::String(_) => "String",
            Value::Int(_) | Value::BigInt(_) => "Integer",
            Value::Float(_) => "Float",
            Value::Bool(_) => "Boolean",
            Value::Nil => "Undef",
            _ => "Any",
        })
        .collect();
    kinds.dedup();
    if kinds.len() == 1 {
        kinds[0].to_string()
    } else {
        "ScalarData".to_string()
    }
}

fn value_type_name<'a>(values: impl Iterator<Item = &'a Value>) -> String {
    let mut names: Vec<String> = values.map(infer_type).collect();
    names.dedup();
    if names.len() == 1 {
        names.remove(0)
    } else {
        "Any".into()
    }
}

/// A type Puppet's TypeCalculator infers, as far as Hiera messages show it.
#[derive(Clone, Debug, PartialEq)]
enum Inferred {
    Undef,
    Boolean(Option<bool>),
    Integer(i64, i64),
    Float(f64, f64),
    /// A String of one known value (printed `String`) or an Enum of several.
    Strings(Vec<String>),
    Runtime(&'static str),
    ScalarData,
    Any,
    Array(Sub, usize),
    Hash(Sub, Sub, usize),
}

/// An inner type of [`Inferred`], as deep as the value it was inferred from
/// (values built from YAML aliases nest far deeper than one file may):
/// dropped and compared on a grown stack when the thread's runs low.
#[derive(Clone, Debug)]
struct Sub(Box<Inferred>);

impl Sub {
    fn new(t: Inferred) -> Sub {
        Sub(Box::new(t))
    }

    /// The inner type, taken out.
    fn take(mut self) -> Inferred {
        std::mem::replace(&mut *self.0, Inferred::Any)
    }
}

impl Drop for Sub {
    fn drop(&mut self) {
        if matches!(*self.0, Inferred::Array(..) | Inferred::Hash(..)) {
            let inner = std::mem::replace(&mut *self.0, Inferred::Any);
            crate::stack::grow(move || drop(inner));
        }
    }
}

impl PartialEq for Sub {
    fn eq(&self, other: &Sub) -> bool {
        crate::stack::grow(|| *self.0 == *other.0)
    }
}

impl std::ops::Deref for Sub {
    type Target = Inferred;
    fn deref(&self) -> &Inferred {
        &self.0
    }
}

fn infer(v: &Value) -> Inferred {
    crate::stack::grow(|| match v {
        Value::Nil => Inferred::Undef,
        Value::Bool(b) => Inferred::Boolean(Some(*b)),
        Value::Int(i) => Inferred::Integer(*i, *i),
        Value::Float(f) => Inferred::Float(*f, *f),
        Value::String(s) => Inferred::Strings(vec![s.to_string()]),
        Value::Symbol(_) => Inferred::Runtime("Symbol"),
        Value::Array(a) => Inferred::Array(Sub::new(common_of(a.iter())), a.len()),
        Value::Hash(h) => Inferred::Hash(
            Sub::new(common_of(h.keys())),
            Sub::new(common_of(h.values())),
            h.len(),
        ),
        _ => Inferred::Any,
    })
}

fn common_of<'a>(mut it: impl Iterator<Item = &'a Value>) -> Inferred {
    let Some(first) = it.next() else {
        return Inferred::Undef;
    };
    it.fold(infer(first), |acc, v| common(acc, infer(v)))
}

fn is_scalar_data(t: &Inferred) -> bool {
    matches!(
        t,
        Inferred::Boolean(_)
            | Inferred::Integer(..)
            | Inferred::Float(..)
            | Inferred::Strings(_)
            | Inferred::ScalarData
    )
}

/// Puppet's `common_type`, for the cases Hiera data produces.
fn common(a: Inferred, b: Inferred) -> Inferred {
    crate::stack::grow(|| {
        use Inferred::*;
        match (a, b) {
            (x, y) if x == y => x,
            (Integer(a1, a2), Integer(b1, b2)) => Integer(a1.min(b1), a2.max(b2)),
            (Float(a1, a2), Float(b1, b2)) => Float(a1.min(b1), a2.max(b2)),
            (Strings(mut a), Strings(b)) => {
                for s in b {
                    if !a.contains(&s) {
                        a.push(s);
                    }
                }
                Strings(a)
            }
            (Array(a, n), Array(b, m)) => Array(
                Sub::new(common(a.take(), b.take())),
                if n == m { n } else { usize::MAX },
            ),
            (x, y) if is_scalar_data(&x) && is_scalar_data(&y) => ScalarData,
            (Undef, _) | (_, Undef) => Any,
            _ => Any,
        }
    })
}

fn render_inferred(t: &Inferred, sizes: bool, out: &mut String) {
    crate::stack::grow(|| {
        use std::fmt::Write;
        match t {
            Inferred::Undef => out.push_str("Undef"),
            Inferred::Boolean(_) => out.push_str("Boolean"),
            Inferred::Integer(a, b) => {
                let _ = write!(out, "Integer[{a}, {b}]");
            }
            Inferred::Float(a, b) => {
                let _ = write!(
                    out,
                    "Float[{}, {}]",
                    crate::ruby::float_to_s(*a),
                    crate::ruby::float_to_s(*b)
                );
            }
            Inferred::Strings(v) if v.len() == 1 => out.push_str("String"),
            Inferred::Strings(v) => {
                out.push_str("Enum[");
                for (i, s) in v.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    let _ = write!(out, "'{s}'");
                }
                out.push(']');
            }
            Inferred::Runtime(c) => {
                let _ = write!(out, "Runtime[ruby, '{c}']");
            }
            Inferred::ScalarData => out.push_str("ScalarData"),
            Inferred::Any => out.push_str("Any"),
            Inferred::Array(e, n) => {
                out.push_str("Array[");
                render_inferred(e, true, out);
                if *n != usize::MAX {
                    let _ = write!(out, ", {n}, {n}");
                }
                out.push(']');
            }
            Inferred::Hash(k, v, n) => {
                out.push_str("Hash[");
                render_inferred(k, true, out);
                out.push_str(", ");
                render_inferred(v, true, out);
                if sizes {
                    let _ = write!(out, ", {n}, {n}");
                }
                out.push(']');
            }
        }
    })
}

/// The detailed type Puppet infers for `v` (`Hash[Integer[1, 2], String, 2,
/// 2]`, `Array[Any, 2, 2]`), as its data validation messages print it.
/// With `sizes` false, the outermost hash's size is left out, as the merge
/// type checks print it.
pub fn infer_detailed(v: &Value, sizes: bool) -> String {
    let mut out = String::new();
    render_inferred(&infer(v), sizes, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn y(s: &str) -> Value {
        crate::yaml::load(s, &Default::default()).unwrap().unwrap()
    }

    #[test]
    fn inferred_types_as_puppet_prints_them() {
        // Texts recorded from Puppet 7.23 (tests/conformance/libhiera).
        assert_eq!(
            infer_detailed(&y("{yes: 1, no: 2}"), true),
            "Hash[ScalarData, Integer[1, 2], 2, 2]"
        );
        assert_eq!(
            infer_detailed(&y("{[a, b]: x}"), true),
            "Hash[Array[Enum['a', 'b'], 2, 2], String, 1, 1]"
        );
        assert_eq!(infer_detailed(&y("- :x\n- y\n"), true), "Array[Any, 2, 2]");
        assert_eq!(
            infer_detailed(&y("{1: one, 2: two}"), false),
            "Hash[Integer[1, 2], Enum['one', 'two']]"
        );
        assert_eq!(
            infer_detailed(&y("{1.5: x}"), false),
            "Hash[Float[1.5, 1.5], String]"
        );
    }
}
