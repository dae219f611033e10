//! The generalized type Puppet names in `new`'s conversion errors:
//! `Value of type T cannot be converted to Integer` prints
//! `TypeCalculator.infer(from).generalize` (Puppet 7.23
//! `pops/types/types.rb`, `on_error` of Integer, Float, Numeric, Boolean,
//! ...), not the `infer_set` form the type mismatch messages use. An Array
//! is inferred with the common type of its elements (`common_type`: nil and
//! Unit give way to the other type, equal types stay, two Arrays or two
//! Hashes combine their parameters, then Numeric, ScalarData, Scalar, Data,
//! RichData, Any) and generalized without sizes or ranges:
//! `[1, 2.5]` is `Array[Numeric]`, `['a', 1]` `Array[ScalarData]`,
//! `[{}, {a: 1}]` `Array[Hash[String, Integer]]`, `[]` `Array[Unit]`,
//! `{}` `Hash[0, 0]`.

use crate::value::Value;

/// A type as `infer` gives it for hiera data, before generalization.
#[derive(Clone, Debug, PartialEq)]
enum T {
    Unit,
    Undef,
    Boolean,
    Integer,
    Float,
    /// Strings: the distinct values seen (one: String, more: Enum).
    Strings(Vec<String>),
    Numeric,
    ScalarData,
    Scalar,
    Data,
    RichData,
    Any,
    Symbol,
    Sensitive,
    /// An Array's element type; `true` when it is Puppet's EMPTY array type.
    Array(Box<T>, bool),
    /// A Hash's key and value types; `true` when it is the EMPTY hash type.
    Hash(Box<T>, Box<T>, bool),
}

fn infer(v: &Value) -> T {
    crate::stack::grow(|| match v {
        Value::Nil => T::Undef,
        Value::Bool(_) => T::Boolean,
        Value::Int(_) | Value::BigInt(_) => T::Integer,
        Value::Float(_) => T::Float,
        Value::String(s) => T::Strings(vec![s.to_string()]),
        Value::Bytes(_) => T::Strings(vec![String::new()]),
        Value::Symbol(_) => T::Symbol,
        Value::Sensitive(_) => T::Sensitive,
        Value::Array(a) if a.is_empty() => T::Array(Box::new(T::Unit), true),
        Value::Array(a) => T::Array(Box::new(reduce(a.iter())), false),
        Value::Hash(h) if h.is_empty() => T::Hash(Box::new(T::Unit), Box::new(T::Unit), true),
        Value::Hash(h) => T::Hash(
            Box::new(reduce(h.keys())),
            Box::new(reduce(h.values())),
            false,
        ),
        _ => T::Any,
    })
}

fn reduce<'a>(mut it: impl Iterator<Item = &'a Value>) -> T {
    let first = it.next().map(infer).unwrap_or(T::Unit);
    it.fold(first, |acc, v| common(acc, infer(v)))
}

fn is_numeric(t: &T) -> bool {
    matches!(t, T::Integer | T::Float | T::Numeric)
}

fn is_scalar_data(t: &T) -> bool {
    is_numeric(t) || matches!(t, T::Boolean | T::Strings(_) | T::ScalarData)
}

fn is_scalar(t: &T) -> bool {
    is_scalar_data(t) || matches!(t, T::Scalar)
}

fn is_data(t: &T) -> bool {
    match t {
        T::Unit | T::Undef | T::Data => true,
        T::Array(e, _) => is_data(e),
        T::Hash(k, v, _) => matches!(**k, T::Unit | T::Strings(_)) && is_data(v),
        other => is_scalar_data(other),
    }
}

fn is_rich_data(t: &T) -> bool {
    match t {
        T::RichData | T::Sensitive => true,
        T::Array(e, _) => is_rich_data(e),
        T::Hash(k, v, _) => {
            matches!(
                **k,
                T::Unit | T::Strings(_) | T::Integer | T::Float | T::Numeric
            ) && is_rich_data(v)
        }
        other => is_data(other) || is_scalar(other),
    }
}

/// Puppet's `common_type` for the types hiera data gives.
fn common(a: T, b: T) -> T {
    crate::stack::grow(|| match (a, b) {
        (T::Undef | T::Unit, x) | (x, T::Undef | T::Unit) => x,
        (x, y) if x == y => x,
        (x @ (T::Numeric | T::ScalarData | T::Scalar | T::Data | T::RichData | T::Any), y)
            if covers(&x, &y) =>
        {
            x
        }
        (y, x @ (T::Numeric | T::ScalarData | T::Scalar | T::Data | T::RichData | T::Any))
            if covers(&x, &y) =>
        {
            x
        }
        (T::Array(a, _), T::Array(b, _)) => T::Array(Box::new(common(*a, *b)), false),
        (T::Hash(ak, av, _), T::Hash(bk, bv, _)) => T::Hash(
            Box::new(common(*ak, *bk)),
            Box::new(common(*av, *bv)),
            false,
        ),
        (T::Strings(mut a), T::Strings(b)) => {
            for s in b {
                if !a.contains(&s) {
                    a.push(s);
                }
            }
            T::Strings(a)
        }
        (x, y) if is_numeric(&x) && is_numeric(&y) => T::Numeric,
        (x, y) if is_scalar_data(&x) && is_scalar_data(&y) => T::ScalarData,
        (x, y) if is_scalar(&x) && is_scalar(&y) => T::Scalar,
        (x, y) if is_data(&x) && is_data(&y) => T::Data,
        (x, y) if is_rich_data(&x) && is_rich_data(&y) => T::RichData,
        _ => T::Any,
    })
}

/// Whether the abstract type `x` takes every value of `y`.
fn covers(x: &T, y: &T) -> bool {
    match x {
        T::Numeric => is_numeric(y),
        T::ScalarData => is_scalar_data(y),
        T::Scalar => is_scalar(y),
        T::Data => is_data(y),
        T::RichData => is_rich_data(y),
        T::Any => true,
        _ => false,
    }
}

/// `generalize`, printed as Puppet's TypeFormatter prints it.
fn render(t: &T, out: &mut String) {
    crate::stack::grow(|| match t {
        T::Unit => out.push_str("Unit"),
        T::Undef => out.push_str("Undef"),
        T::Boolean => out.push_str("Boolean"),
        T::Integer => out.push_str("Integer"),
        T::Float => out.push_str("Float"),
        T::Strings(v) if v.len() <= 1 => out.push_str("String"),
        // An Enum generalizes to a String sized by its values' lengths.
        T::Strings(v) => {
            let lens = v.iter().map(|s| s.chars().count());
            let (min, max) = (lens.clone().min().unwrap_or(0), lens.max().unwrap_or(0));
            out.push_str(&format!("String[{min}, {max}]"));
        }
        T::Numeric => out.push_str("Numeric"),
        T::ScalarData => out.push_str("ScalarData"),
        T::Scalar => out.push_str("Scalar"),
        T::Data => out.push_str("Data"),
        T::RichData => out.push_str("RichData"),
        T::Any => out.push_str("Any"),
        T::Symbol => out.push_str("Runtime[ruby, 'Symbol']"),
        T::Sensitive => out.push_str("Sensitive"),
        T::Array(e, _) if **e == T::Any => out.push_str("Array"),
        T::Array(e, _) => {
            out.push_str("Array[");
            render(e, out);
            out.push(']');
        }
        T::Hash(_, _, true) => out.push_str("Hash[0, 0]"),
        T::Hash(k, v, _) if **k == T::Any && **v == T::Any => out.push_str("Hash"),
        T::Hash(k, v, _) => {
            out.push_str("Hash[");
            render(k, out);
            out.push_str(", ");
            render(v, out);
            out.push(']');
        }
    })
}

/// The name of `TypeCalculator.infer(v).generalize` as Puppet prints it in
/// `new`'s `Value of type T cannot be converted to ...` errors.
pub(crate) fn infer_generalized(v: &Value) -> String {
    let mut out = String::new();
    render(&infer(v), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn y(s: &str) -> Value {
        crate::yaml::load(s, &Default::default()).unwrap().unwrap()
    }

    #[test]
    fn generalized_types_as_puppet_prints_them() {
        // Each pair recorded from Puppet 7.23 (conformance
        // libhiera/fuzz/convert_to_type_names).
        for (yaml, want) in [
            ("[]", "Array[Unit]"),
            ("[[]]", "Array[Array[Unit]]"),
            ("[1, 'a']", "Array[ScalarData]"),
            ("[1, 2.5]", "Array[Numeric]"),
            ("['a', ~]", "Array[String]"),
            ("[~]", "Array[Undef]"),
            ("[{}, {a: 1}]", "Array[Hash[String, Integer]]"),
            ("[[1], ['a']]", "Array[Array[ScalarData]]"),
            ("[true, 1]", "Array[ScalarData]"),
            ("['a', [1]]", "Array[Data]"),
            ("[{a: 1}, 1]", "Array[Data]"),
            ("[{1: 2}, 'a']", "Array[RichData]"),
            ("[[1, 2], [3]]", "Array[Array[Integer]]"),
            ("[{}, []]", "Array[Data]"),
            ("[[], [1]]", "Array[Array[Integer]]"),
            ("[~, ~]", "Array[Undef]"),
            ("['a', true, 1.5]", "Array[ScalarData]"),
            (
                "[{1: {a: b}}]",
                "Array[Hash[Integer, Hash[String, String]]]",
            ),
            ("{1: {a: b}}", "Hash[Integer, Hash[String, String]]"),
            ("{a: 1, bb: 2}", "Hash[String[1, 2], Integer]"),
            ("['a', 'bcd']", "Array[String[1, 3]]"),
            ("1", "Integer"),
        ] {
            assert_eq!(infer_generalized(&y(yaml)), want, "{yaml}");
        }
        assert_eq!(infer_generalized(&Value::Nil), "Undef");
    }
}
