//! Hiera 3's dotted keys: `Hiera::Util.split_key` and
//! `Backend.qualified_lookup`.
//!
//! The splitter is Ruby's `String#split` with the capturing pattern
//! `"([^"]+)"|'([^']+)'|([^'".]+)`: the pieces must alternate with single
//! dots. Unlike Puppet's splitter nothing is trimmed and no segment becomes
//! an Integer; instead `qualified_lookup` treats a segment with a line of
//! only digits as an array index (Ruby's `=~ /^[0-9]+$/` and `to_i`).

use super::ruby::to_i;
use crate::error::{Error, ErrorKind, Result};
use crate::ruby::errors::no_method;
use crate::value::Value;
use regex::Regex;
use std::sync::OnceLock;

fn token_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r#""([^"]+)"|'([^']+)'|([^'".]+)"#).unwrap())
}

fn index_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"(?m)^[0-9]+$").unwrap())
}

/// Whether `qualified_lookup` takes `segment` as an Array index (Ruby's
/// `segment =~ /^[0-9]+$/`: some line of it is only digits).
pub fn is_index(segment: &str) -> bool {
    index_re().is_match(segment)
}

/// Splits a key into its segments. `Some(vec![])` for the empty key (the
/// gem returns `''`, whose first "segment" is `nil`); `None` is the gem's
/// `Syntax error`, which callers word.
pub fn split_key(key: &str) -> Option<Vec<String>> {
    // String#split with captures: the text between matches, and each match's
    // participating group.
    let mut fields: Vec<&str> = Vec::new();
    let mut last = 0;
    for caps in token_re().captures_iter(key) {
        let m = caps.get(0).unwrap();
        fields.push(&key[last..m.start()]);
        if let Some(g) = caps.get(1).or_else(|| caps.get(2)).or_else(|| caps.get(3)) {
            fields.push(g.as_str());
        }
        last = m.end();
    }
    fields.push(&key[last..]);
    while fields.last() == Some(&"") {
        fields.pop();
    }
    if fields.is_empty() {
        return Some(Vec::new());
    }
    if !fields.remove(0).is_empty() {
        return None;
    }
    let count = fields.len();
    if count == 0 {
        return None;
    }
    fields.retain(|s| *s != ".");
    if fields.len() * 2 != count + 1 {
        return None;
    }
    Some(fields.into_iter().map(str::to_string).collect())
}

/// `Backend.qualified_lookup(segments, value, full_key)`: digs `segments`
/// into `value`. `Ok(None)` is the gem's `throw :no_such_key`.
pub fn qualified_lookup(
    segments: &[String],
    value: &Value,
    full_key: Option<&str>,
) -> Result<Option<Value>> {
    let suffix = || {
        full_key
            .map(|k| format!(" from key '{k}'"))
            .unwrap_or_default()
    };
    let mut value = value.clone();
    for segment in segments {
        if value.is_nil() {
            return Ok(None);
        }
        if is_index(segment) {
            let index = to_i(segment);
            let shown = index
                .map(|i| i.to_string())
                .unwrap_or_else(|| segment.trim().to_string());
            let Value::Array(a) = &value else {
                return Err(Error::new(
                    ErrorKind::Type,
                    format!(
                        "Hiera type mismatch: Got {} when Array was expected to access value using '{}'{}",
                        value.ruby_class(),
                        shown,
                        suffix()
                    ),
                ));
            };
            let len = a.len() as i64;
            let Some(i) = index.filter(|i| *i < len) else {
                return Ok(None);
            };
            // Ruby's Array#[]: a negative index counts from the end.
            let at = if i < 0 { i + len } else { i };
            value = if at < 0 {
                Value::Nil
            } else {
                a[at as usize].clone()
            };
        } else {
            match &value {
                Value::Hash(h) => match h.get(&Value::from(segment.as_str())) {
                    Some(v) => value = v.clone(),
                    None => return Ok(None),
                },
                // Integers and Symbols respond to `[]`, but not to `include?`.
                Value::Int(_) | Value::BigInt(_) | Value::Symbol(_) => return Err(no_method("include?", &value)),
                _ => {
                    return Err(Error::new(
                        ErrorKind::Type,
                        format!(
                            "Hiera type mismatch: Got {} when a hash-like object was expected to access value using '{}'{}",
                            value.ruby_class(),
                            segment,
                            suffix()
                        ),
                    ))
                }
            }
        }
    }
    Ok(Some(value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Map;

    fn split(k: &str) -> Vec<String> {
        split_key(k).unwrap_or_else(|| panic!("{k} should split"))
    }

    #[test]
    fn splits_like_the_gem() {
        assert_eq!(split("a"), ["a"]);
        assert_eq!(split("a.b"), ["a", "b"]);
        assert_eq!(split("a.'b.c'.\"d\""), ["a", "b.c", "d"]);
        assert_eq!(split(" a . b "), [" a ", " b "]);
        assert_eq!(split("a.1"), ["a", "1"]);
        assert_eq!(split("'a.b'"), ["a.b"]);
        assert!(split("").is_empty());
    }

    #[test]
    fn syntax_errors() {
        for bad in [
            "a..b", ".a", "a.", "a'b", "a'b'", "'a", "...", "'", "a.''", "''",
        ] {
            assert!(split_key(bad).is_none(), "{bad:?} should be a syntax error");
        }
    }

    fn hash(pairs: &[(&str, Value)]) -> Value {
        let mut m = Map::default();
        for (k, v) in pairs {
            m.insert(Value::from(*k), v.clone());
        }
        Value::hash(m)
    }

    #[test]
    fn digs() {
        let v = hash(&[
            ("a", Value::array(vec![Value::from("x"), Value::from("y")])),
            ("n", Value::Int(5)),
        ]);
        let seg = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            qualified_lookup(&seg(&["a", "1"]), &v, None).unwrap(),
            Some(Value::from("y"))
        );
        assert_eq!(qualified_lookup(&seg(&["a", "2"]), &v, None).unwrap(), None);
        assert_eq!(qualified_lookup(&seg(&["b"]), &v, None).unwrap(), None);
        assert_eq!(
            qualified_lookup(&seg(&["33"]), &v, Some("key.33")).unwrap_err().message,
            "Hiera type mismatch: Got Hash when Array was expected to access value using '33' from key 'key.33'"
        );
        assert_eq!(
            qualified_lookup(&seg(&["a", "one"]), &v, Some("a.one")).unwrap_err().message,
            "Hiera type mismatch: Got Array when a hash-like object was expected to access value using 'one' from key 'a.one'"
        );
        assert_eq!(
            qualified_lookup(&seg(&["n", "x"]), &v, None)
                .unwrap_err()
                .message,
            "undefined method `include?' for 5:Integer"
        );
        assert_eq!(
            qualified_lookup(&seg(&["x"]), &Value::Nil, None).unwrap(),
            None
        );
    }
}
