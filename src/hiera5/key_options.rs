//! A key's `lookup_options` entry that is not a Hash: Puppet indexes it
//! with `options['merge']` / `options['convert_to']` as Ruby does, so an
//! Array or Integer raises Ruby's TypeError and `true` or a Float a
//! NoMethodError; `nil`, `false` and Strings index without error (treated
//! here as no options).

use crate::error::Error;
use crate::value::Value;

/// The error Ruby raises for `options['merge']` on a non-Hash `options`,
/// or `None` when indexing it does not raise.
pub fn index_error(options: &Value) -> Option<Error> {
    match options {
        Value::Array(_) | Value::Int(_) | Value::BigInt(_) => Some(
            crate::ruby::errors::no_implicit_conversion(&Value::from("merge"), "Integer"),
        ),
        Value::Bool(true) | Value::Float(_) => Some(crate::ruby::errors::no_method("[]", options)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_options_raise_type_error() {
        let e = index_error(&Value::array(vec![])).unwrap();
        assert_eq!(e.message, "no implicit conversion of String into Integer");
        assert!(index_error(&Value::Nil).is_none());
        assert_eq!(
            index_error(&Value::Bool(true)).unwrap().message,
            "undefined method `[]' for true:TrueClass"
        );
    }
}
