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
    let ty = parse_type(&type_src).map_err(|msg| {
        Error::new(
            ErrorKind::Lookup,
            format!("Invalid data type in lookup_options for key '{key}' could not parse '{type_src}', error: '{msg}"),
        )
    })?;
    new_instance(&ty, value, &args).map_err(|msg| {
        Error::new(ErrorKind::Lookup, format!("The convert_to lookup_option for key '{key}' raised error: {msg}"))
    })
}

fn type_string(v: &Value) -> String {
    let mut s = String::new();
    crate::render::ruby_to_s(v, &mut s);
    s
}

/// A parsed type reference: a name with optional parameters (kept as text).
#[derive(Debug)]
struct TypeRef {
    name: String,
    params: Vec<String>,
}

fn parse_type(src: &str) -> std::result::Result<TypeRef, String> {
    let s = src.trim();
    if s.is_empty() {
        return Err("Syntax error at end of input".into());
    }
    let name_end = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == ':' || c == '_')).unwrap_or(s.len());
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
        let mut depth = 0;
        let mut cur = String::new();
        for c in inner.chars() {
            match c {
                '[' => depth += 1,
                ']' => depth -= 1,
                ',' if depth == 0 => {
                    params.push(cur.trim().to_string());
                    cur.clear();
                    continue;
                }
                _ => {}
            }
            cur.push(c);
        }
        if depth != 0 {
            return Err("Syntax error at end of input".into());
        }
        if !cur.trim().is_empty() {
            params.push(cur.trim().to_string());
        }
    }
    // Puppet type names start with an upper case letter.
    if !name.starts_with(|c: char| c.is_ascii_uppercase()) {
        return Err(format!("Syntax error at '{name}'"));
    }
    Ok(TypeRef { name: name.to_string(), params })
}

fn new_instance(ty: &TypeRef, value: Value, args: &[Value]) -> std::result::Result<Value, String> {
    match ty.name.as_str() {
        "Sensitive" => Ok(Value::Sensitive(Arc::new(value))),
        "Integer" => {
            let radix = match args.first() {
                Some(Value::Int(r)) => Some(*r as u32),
                _ => None,
            };
            to_integer(&value, radix)
        }
        "Float" => to_float(&value),
        "Numeric" => match &value {
            Value::String(s) if s.contains(['.', 'e', 'E']) && !s.starts_with("0x") => to_float(&value),
            _ => to_integer(&value, None),
        },
        "String" => Ok(Value::from(puppet_string(&value))),
        "Boolean" => to_boolean(&value),
        "Array" | "Tuple" => {
            let wrap = matches!(args.first(), Some(Value::Bool(true)));
            Ok(match value {
                Value::Array(_) => value,
                Value::Hash(h) if !wrap => Value::array(h.iter().map(|(k, v)| Value::array(vec![k.clone(), v.clone()])).collect()),
                Value::String(s) if !wrap => Value::array(s.chars().map(|c| Value::from(c.to_string())).collect()),
                other => Value::array(vec![other]),
            })
        }
        "Hash" | "Struct" => match &value {
            Value::Hash(_) => Ok(value),
            Value::Array(a) => {
                let mut m = Map::new();
                if a.iter().all(|e| matches!(e, Value::Array(p) if p.len() == 2)) {
                    for e in a.iter() {
                        let p = e.as_array().unwrap();
                        m.insert(p[0].clone(), p[1].clone());
                    }
                } else if a.len() % 2 == 0 {
                    for pair in a.chunks(2) {
                        m.insert(pair[0].clone(), pair[1].clone());
                    }
                } else {
                    return Err("'new' odd number of arguments for Hash".into());
                }
                Ok(Value::hash(m))
            }
            Value::Nil => Ok(Value::empty_hash()),
            other => Err(format!("'new' Converted value from {} has wrong structure", crate::ptype::infer_type(other))),
        },
        _ => Err(format!(
            "Creation of new instance of type 'TypeReference['{}']' is not supported",
            ty.name
        )),
    }
}

fn to_integer(v: &Value, radix: Option<u32>) -> std::result::Result<Value, String> {
    match v {
        Value::Int(_) | Value::BigInt(_) => Ok(v.clone()),
        Value::Float(f) => Ok(Value::Int(f.trunc() as i64)),
        Value::Bool(b) => Ok(Value::Int(*b as i64)),
        Value::String(s) => {
            let t = s.trim();
            let (neg, body) = match t.strip_prefix('-') {
                Some(b) => (true, b),
                None => (false, t.strip_prefix('+').unwrap_or(t)),
            };
            let (radix, digits) = match radix {
                Some(r) => {
                    let d = match r {
                        16 => body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")).unwrap_or(body),
                        2 => body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")).unwrap_or(body),
                        _ => body,
                    };
                    (r, d)
                }
                None => {
                    if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
                        (16, h)
                    } else if let Some(b) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
                        (2, b)
                    } else if body.len() > 1 && body.starts_with('0') {
                        (8, &body[1..])
                    } else {
                        (10, body)
                    }
                }
            };
            match i64::from_str_radix(digits, radix) {
                Ok(n) if !digits.is_empty() && !digits.starts_with(['+', '-']) => Ok(Value::Int(if neg { -n } else { n })),
                _ => Err(format!("'new' The string '{s}' cannot be converted to Integer")),
            }
        }
        other => Err(format!("'new' Value of type {} cannot be converted to Integer", crate::ptype::infer_type(other))),
    }
}

fn to_float(v: &Value) -> std::result::Result<Value, String> {
    match v {
        Value::Float(_) => Ok(v.clone()),
        Value::Int(i) => Ok(Value::Float(*i as f64)),
        Value::Bool(b) => Ok(Value::Float(if *b { 1.0 } else { 0.0 })),
        Value::String(s) => s
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .map(Value::Float)
            .ok_or_else(|| format!("'new' The string '{s}' cannot be converted to Float")),
        other => Err(format!("'new' Value of type {} cannot be converted to Float", crate::ptype::infer_type(other))),
    }
}

fn to_boolean(v: &Value) -> std::result::Result<Value, String> {
    match v {
        Value::Bool(_) => Ok(v.clone()),
        Value::Int(i) => Ok(Value::Bool(*i != 0)),
        Value::Float(f) => Ok(Value::Bool(*f != 0.0)),
        Value::String(s) => match s.to_ascii_lowercase().as_str() {
            "true" | "yes" | "y" => Ok(Value::Bool(true)),
            "false" | "no" | "n" => Ok(Value::Bool(false)),
            _ => Err(format!("'new' The string '{s}' cannot be converted to Boolean")),
        },
        other => Err(format!("'new' Value of type {} cannot be converted to Boolean", crate::ptype::infer_type(other))),
    }
}

/// Puppet's default string conversion (`String(v)`): strings as is,
/// arrays and hashes in Puppet's literal syntax.
pub fn puppet_string(v: &Value) -> String {
    let mut out = String::new();
    fn inner(v: &Value, top: bool, out: &mut String) {
        match v {
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
                out.push('[');
                for (i, x) in a.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    inner(x, false, out);
                }
                out.push(']');
            }
            Value::Hash(h) => {
                out.push('{');
                for (i, (k, x)) in h.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    inner(k, false, out);
                    out.push_str(" => ");
                    inner(x, false, out);
                }
                out.push('}');
            }
            other => crate::render::ruby_to_s(other, out),
        }
    }
    inner(v, true, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_radix_rules() {
        assert_eq!(convert_to("k", "042".into(), &"Integer".into()).unwrap(), Value::Int(34));
        let ten = Value::array(vec!["Integer".into(), Value::Int(10)]);
        assert_eq!(convert_to("k", "042".into(), &ten).unwrap(), Value::Int(42));
        assert_eq!(convert_to("k", "0xff".into(), &"Integer".into()).unwrap(), Value::Int(255));
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
    fn array_conversions() {
        assert_eq!(
            convert_to("k", "ab".into(), &"Array".into()).unwrap(),
            Value::array(vec!["a".into(), "b".into()])
        );
        let wrap = Value::array(vec!["Array".into(), Value::Bool(true)]);
        assert_eq!(convert_to("k", "ab".into(), &wrap).unwrap(), Value::array(vec!["ab".into()]));
    }
}
