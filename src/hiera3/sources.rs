//! Data sources (`Backend.datasources`, `datafile_in`): the hierarchy with
//! the order_override in front, each entry interpolated, bad entries
//! skipped.
//!
//! An entry is skipped when it interpolates to `""` or when (as a String or
//! Symbol) it has a line starting with `/`, a `//`, or a line ending with
//! `/` (`/(^\/|\/\/|\/$)/`). Entries that are not Strings are used through
//! their `to_s` (`nil` gives `.yaml`).

use super::config::flatten;
use super::ruby::file_join;
use crate::ruby::to_s as ruby_to_s;
use crate::value::Value;
use regex::Regex;
use std::sync::OnceLock;

fn bad_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"(?m)(^/|//|/$)").unwrap())
}

/// `hierarchy.insert(0, override) if override` then `flatten`: the entries
/// to interpolate, in order. A falsy override (`nil`, `false`) adds nothing.
pub fn with_override(hierarchy: Vec<Value>, order_override: Option<&Value>) -> Vec<Value> {
    let mut all = Vec::with_capacity(hierarchy.len() + 1);
    if let Some(o) = order_override.filter(|o| o.is_truthy()) {
        flatten(o.clone(), &mut all);
    }
    for h in hierarchy {
        flatten(h, &mut all);
    }
    all
}

/// Whether an interpolated entry is skipped (`Ignoring bad definition in
/// :hierarchy:`).
pub fn is_bad_source(source: &Value) -> bool {
    match source {
        Value::String(s) => s.is_empty() || bad_re().is_match(s),
        Value::Symbol(s) => bad_re().is_match(s),
        _ => false,
    }
}

/// `File.join(datadir, "#{source}.#{extension}")`.
pub fn datafile(datadir: &str, source: &Value, extension: &str) -> String {
    let mut name = String::new();
    ruby_to_s(source, &mut name);
    name.push('.');
    name.push_str(extension);
    file_join(datadir, &name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_definitions() {
        for bad in ["", "/abs", "a//b", "dir/", "x\n/y"] {
            assert!(is_bad_source(&Value::from(bad)), "{bad:?}");
        }
        for good in ["common", "nodes/web", " ", "a/b"] {
            assert!(!is_bad_source(&Value::from(good)), "{good:?}");
        }
        assert!(!is_bad_source(&Value::Nil));
        assert_eq!(datafile("data", &Value::Nil, "yaml"), "data/.yaml");
        assert_eq!(
            datafile("data/", &Value::Int(2020), "json"),
            "data/2020.json"
        );
    }

    #[test]
    fn override_goes_first() {
        let h = vec![Value::from("a"), Value::array(vec![Value::from("b")])];
        let o = Value::array(vec![Value::from("x"), Value::from("y")]);
        let got = with_override(h.clone(), Some(&o));
        assert_eq!(got, ["x", "y", "a", "b"].map(Value::from).to_vec());
        assert_eq!(with_override(h.clone(), Some(&Value::Bool(false))).len(), 2);
        assert_eq!(with_override(h, None).len(), 2);
    }
}
