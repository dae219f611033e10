//! Resolution types and `Backend.merge_answer` / `Backend.resolve_answer`.
//!
//! A resolution type is `:priority`, `:array`, `:hash`, or a Hash
//! `{:behavior => 'deeper', <deep_merge options>}` that means `:hash` with
//! that behaviour and those options in place of the configured
//! `:merge_behavior` and `:deep_merge_options`.
//!
//! `merge_answer(new, old)` merges the accumulated (higher priority) answer
//! `old` into the newly found (lower priority) `new`:
//!
//! * `native` (and anything unknown, including no behaviour at all):
//!   `new.merge(old)`, the key order of the lowest priority source;
//! * `deeper`: `DeepMerge.deep_merge!(old, new, preserve_unmergeables:
//!   false, ...)`, the intuitive deep merge;
//! * `deep`: the same with `preserve_unmergeables: true`, so on conflicts
//!   the *lower* priority value stays (and `knockout_prefix` is refused).
//!
//! Option keys count only as Symbols (`:knockout_prefix`), as in Ruby.
//! libhiera refuses a `knockout_prefix` or `unpack_arrays` that is truthy
//! but not a String (the gem would use its `to_s` in some places and the
//! object itself in others).

use super::config::{flatten, Config};
use crate::deep_merge::{deep_merge, DeepMergeOptions};
use crate::error::{Error, ErrorKind, Result};
use crate::ruby::errors::{no_implicit_conversion, no_method};
use crate::value::ArcStr;
use crate::value::{Map, Value};
use indexmap::IndexSet;

/// How answers from several sources are combined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// First found wins.
    Priority,
    /// Strings and arrays from every source, flattened and de-duplicated.
    Array,
    /// Hashes from every source, merged.
    Hash,
}

impl Strategy {
    /// The Symbol name (`priority`, `array`, `hash`).
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Priority => "priority",
            Strategy::Array => "array",
            Strategy::Hash => "hash",
        }
    }
}

/// A Hiera 3 resolution type.
#[derive(Clone, Debug, PartialEq)]
pub enum ResolutionType {
    /// `:priority` (also `nil`).
    Priority,
    /// `:array`.
    Array,
    /// `:hash`, merged with the configured behaviour and options.
    Hash,
    /// A Hash: `:behavior` and deep_merge options (Symbol keys), used in
    /// place of the configuration.
    HashWith(Map),
}

impl ResolutionType {
    /// From a value: `nil`, a String or Symbol `priority`/`array`/`hash`,
    /// or a Hash (kept as it is: only Symbol keys are options).
    pub fn from_value(v: &Value) -> Result<ResolutionType> {
        if let Some(name) = v.string_or_symbol() {
            return match name {
                "priority" => Ok(ResolutionType::Priority),
                "array" => Ok(ResolutionType::Array),
                "hash" => Ok(ResolutionType::Hash),
                other => Err(Error::new(
                    ErrorKind::InvalidArgument,
                    format!("Unknown resolution type '{other}': expected priority, array, hash or a Hash"),
                )),
            };
        }
        match v {
            Value::Nil => Ok(ResolutionType::Priority),
            Value::Hash(h) => Ok(ResolutionType::HashWith(h.clone())),
            other => Err(Error::new(
                ErrorKind::InvalidArgument,
                format!("Invalid resolution type {}", crate::ruby::inspect(other)),
            )),
        }
    }

    /// As [`ResolutionType::from_value`], but the String keys of a Hash
    /// become Symbols (`{"behavior": "deeper"}` from JSON is
    /// `{:behavior => "deeper"}`), as the oracle passes them to the gem.
    pub fn from_plain_value(v: &Value) -> Result<ResolutionType> {
        match v {
            Value::Hash(h) => Ok(ResolutionType::HashWith(
                h.iter()
                    .map(|(k, v)| {
                        let k = match k {
                            Value::String(s) => Value::Symbol(ArcStr::from(s.as_str())),
                            other => other.clone(),
                        };
                        (k, v.clone())
                    })
                    .collect(),
            )),
            other => ResolutionType::from_value(other),
        }
    }

    /// The strategy: a Hash resolution type is `:hash`.
    pub fn strategy(&self) -> Strategy {
        match self {
            ResolutionType::Priority => Strategy::Priority,
            ResolutionType::Array => Strategy::Array,
            ResolutionType::Hash | ResolutionType::HashWith(_) => Strategy::Hash,
        }
    }
}

fn sym(name: &str) -> Value {
    Value::Symbol(name.into())
}

/// The deep_merge options from a Hiera 3 options value, over
/// `{:preserve_unmergeables => preserve}` (what the `deep`/`deeper`
/// behaviours start from).
pub fn deep_merge_options(options: &Value, preserve: bool) -> Result<DeepMergeOptions> {
    let map = match options {
        Value::Hash(h) => h,
        other => return Err(no_implicit_conversion(other, "Hash")),
    };
    let get = |name: &str| map.get(&sym(name));
    let truthy = |name: &str| get(name).is_some_and(Value::is_truthy);
    let string = |name: &str| -> Result<Option<String>> {
        match get(name) {
            None | Some(Value::Nil) | Some(Value::Bool(false)) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.to_string())),
            Some(other) => Err(Error::new(
                ErrorKind::InvalidArgument,
                format!(
                    "libhiera: the deep_merge option :{name} must be a String, got {}",
                    other.ruby_class()
                ),
            )),
        }
    };
    Ok(DeepMergeOptions {
        preserve_unmergeables: match get("preserve_unmergeables") {
            Some(v) => v.is_truthy(),
            None => preserve,
        },
        knockout_prefix: string("knockout_prefix")?,
        overwrite_arrays: truthy("overwrite_arrays"),
        sort_merged_arrays: truthy("sort_merged_arrays"),
        unpack_arrays: string("unpack_arrays")?,
        merge_hash_arrays: truthy("merge_hash_arrays"),
        extend_existing_arrays: truthy("extend_existing_arrays"),
    })
}

/// `Backend.merge_answer(new, old, resolution_type)`: a Hash resolution
/// type gives the behaviour and options, anything else takes them from
/// `config` (`:merge_behavior`, `:deep_merge_options`).
pub fn merge_answer(
    new: Value,
    old: Value,
    resolution_type: &ResolutionType,
    config: &Config,
) -> Result<Value> {
    let (behavior, options) = match resolution_type {
        ResolutionType::HashWith(m) => {
            let mut m = m.clone();
            let b = m.shift_remove(&sym("behavior")).unwrap_or_default();
            (b, Value::hash(m))
        }
        _ => {
            let options = match config.get("deep_merge_options") {
                Some(v) if v.is_truthy() => v.clone(),
                _ => Value::empty_hash(),
            };
            (
                config.get("merge_behavior").cloned().unwrap_or_default(),
                options,
            )
        }
    };
    match behavior.string_or_symbol() {
        Some("deeper") => {
            if !matches!(new, Value::Hash(_)) {
                return Err(no_method("deeper_merge!", &new));
            }
            deep_merge(&old, new, &deep_merge_options(&options, false)?)
        }
        Some("deep") => {
            if !matches!(new, Value::Hash(_)) {
                return Err(no_method("deeper_merge", &new));
            }
            deep_merge(&old, new, &deep_merge_options(&options, true)?)
        }
        _ => {
            let Value::Hash(mut left) = new else {
                return Err(no_method("merge", &new));
            };
            let Value::Hash(right) = &old else {
                return Err(no_implicit_conversion(&old, "Hash"));
            };
            let map = &mut left;
            for (k, v) in right.iter() {
                map.insert(k.clone(), v.clone());
            }
            Ok(Value::Hash(left))
        }
    }
}

/// `Backend.resolve_answer`: for `:array`, `[answer].flatten.uniq.compact`;
/// other answers are returned as they are.
pub fn resolve_answer(answer: Value, strategy: Strategy) -> Value {
    if strategy != Strategy::Array {
        return answer;
    }
    let mut flat = Vec::new();
    flatten(answer, &mut flat);
    // uniq by eql? (where 0.0 and -0.0 are the same), then compact.
    let mut seen = IndexSet::new();
    let mut out = Vec::new();
    for v in flat {
        let key = match v {
            // -0.0 + 0.0 is 0.0; every other float is unchanged.
            Value::Float(f) => Value::Float(f + 0.0),
            ref other => other.clone(),
        };
        if seen.insert(key) && !v.is_nil() {
            out.push(v);
        }
    }
    Value::array(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(pairs: &[(&str, Value)]) -> Value {
        Value::hash(
            pairs
                .iter()
                .map(|(k, v)| (Value::from(*k), v.clone()))
                .collect(),
        )
    }

    fn rt(pairs: &[(&str, Value)]) -> ResolutionType {
        ResolutionType::HashWith(pairs.iter().map(|(k, v)| (sym(k), v.clone())).collect())
    }

    #[test]
    fn native_keeps_the_lower_key_order() {
        let new = h(&[("x", Value::Int(1)), ("y", Value::Int(1))]);
        let old = h(&[("y", Value::Int(2)), ("z", Value::Int(2))]);
        let got = merge_answer(new, old, &ResolutionType::Hash, &Config::defaults()).unwrap();
        assert_eq!(crate::render::to_json(&got), r#"{"x":1,"y":2,"z":2}"#);
    }

    #[test]
    fn deep_keeps_the_lower_scalar_and_deeper_the_higher() {
        let new = h(&[("a", Value::from("low"))]);
        let old = h(&[("a", Value::from("high"))]);
        let deep = merge_answer(
            new.clone(),
            old.clone(),
            &rt(&[("behavior", "deep".into())]),
            &Config::defaults(),
        );
        assert_eq!(deep.unwrap(), h(&[("a", Value::from("low"))]));
        let deeper = merge_answer(
            new.clone(),
            old.clone(),
            &rt(&[("behavior", sym("deeper"))]),
            &Config::defaults(),
        );
        assert_eq!(deeper.unwrap(), h(&[("a", Value::from("high"))]));
        let e = merge_answer(
            new,
            old,
            &rt(&[
                ("behavior", "deep".into()),
                ("knockout_prefix", "--".into()),
            ]),
            &Config::defaults(),
        );
        assert_eq!(
            e.unwrap_err().message,
            "overwrite_unmergeable must be true if knockout_prefix is specified in deep_merge!"
        );
    }

    #[test]
    fn ruby_errors_for_non_hashes() {
        let e = merge_answer(
            Value::Int(1),
            Value::empty_hash(),
            &ResolutionType::Hash,
            &Config::defaults(),
        );
        assert_eq!(
            e.unwrap_err().message,
            "undefined method `merge' for 1:Integer"
        );
        let e = merge_answer(
            Value::empty_hash(),
            Value::from("s"),
            &ResolutionType::Hash,
            &Config::defaults(),
        );
        assert_eq!(
            e.unwrap_err().message,
            "no implicit conversion of String into Hash"
        );
    }

    #[test]
    fn array_resolution_flattens_uniqs_and_compacts() {
        let v = Value::array(vec![
            Value::array(vec![Value::from("a"), Value::Nil, Value::from("b")]),
            Value::from("a"),
            Value::array(vec![Value::array(vec![Value::Int(1), Value::Float(1.0)])]),
        ]);
        assert_eq!(
            crate::render::to_json(&resolve_answer(v, Strategy::Array)),
            r#"["a","b",1,1.0]"#
        );
    }

    #[test]
    fn resolution_types() {
        assert_eq!(
            ResolutionType::from_value(&Value::Nil).unwrap(),
            ResolutionType::Priority
        );
        assert_eq!(
            ResolutionType::from_value(&sym("array")).unwrap(),
            ResolutionType::Array
        );
        assert!(ResolutionType::from_value(&Value::from("first")).is_err());
        let plain = ResolutionType::from_plain_value(&h(&[("behavior", "deeper".into())])).unwrap();
        assert_eq!(plain, rt(&[("behavior", "deeper".into())]));
        assert_eq!(plain.strategy(), Strategy::Hash);
    }
}
