//! The few Puppet type checks Hiera needs (Scalar, Data, RichData) and a
//! close approximation of Puppet's inferred type names for messages.

use crate::value::Value;

/// Puppet `Scalar`: String, Numeric, Boolean (not Undef).
pub fn is_scalar(v: &Value) -> bool {
    matches!(v, Value::String(_) | Value::Bytes(_) | Value::Int(_) | Value::BigInt(_) | Value::Float(_) | Value::Bool(_))
}

/// Puppet `Data`: Scalar, Undef, Array[Data], Hash[String, Data].
pub fn is_data(v: &Value) -> bool {
    match v {
        Value::Nil => true,
        Value::Array(a) => a.iter().all(is_data),
        Value::Hash(h) => h.iter().all(|(k, v)| matches!(k, Value::String(_)) && is_data(v)),
        other => is_scalar(other),
    }
}

/// Puppet `RichData` as Hiera validates looked-up values: Data plus
/// Sensitive, and hashes whose keys are Strings or Numerics.
pub fn is_rich_data(v: &Value) -> bool {
    match v {
        Value::Nil | Value::Sensitive(_) | Value::Rich(_) => true,
        Value::Array(a) => a.iter().all(is_rich_data),
        Value::Hash(h) => h.iter().all(|(k, v)| {
            matches!(k, Value::String(_) | Value::Int(_) | Value::BigInt(_) | Value::Float(_)) && is_rich_data(v)
        }),
        Value::Symbol(_) => false,
        other => is_scalar(other),
    }
}

/// The name of the type Puppet infers for `v`, as its messages print it
/// (`Undef`, `String`, `Integer`, `Tuple`, `Struct`, `Runtime[ruby, 'Symbol']`...).
pub fn infer_type(v: &Value) -> String {
    match v {
        Value::Nil => "Undef".into(),
        Value::Bool(_) => "Boolean".into(),
        Value::Int(_) | Value::BigInt(_) => "Integer".into(),
        Value::Float(_) => "Float".into(),
        Value::String(_) | Value::Bytes(_) => "String".into(),
        Value::Symbol(_) => "Runtime[ruby, 'Symbol']".into(),
        Value::Sensitive(_) => "Sensitive".into(),
        Value::Rich(r) => r.0.clone(),
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
                format!("Hash[{}, {}, {}, {}]", key_t, value_type_name(h.values()), h.len(), h.len())
            }
        }
    }
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
    let mut names: Vec<String> = values.map(|v| infer_type(v)).collect();
    names.dedup();
    if names.len() == 1 {
        names.remove(0)
    } else {
        "Any".into()
    }
}
