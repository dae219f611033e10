//! The wording of Ruby's own exceptions that Puppet lets through:
//! `NoMethodError` and `TypeError` (Ruby 3.1).

use crate::error::{Error, ErrorKind};
use crate::ruby::inspect;
use crate::value::Value;

/// How Ruby names a value in `NoMethodError` messages: `nil`, `true`,
/// `false`, else its `inspect`.
fn receiver(v: &Value) -> String {
    inspect(v)
}

/// ``undefined method `m' for <receiver>:<Class>`` (Ruby 3.1 wording).
pub fn no_method(method: &str, v: &Value) -> Error {
    Error::new(
        ErrorKind::Type,
        format!(
            "undefined method `{method}' for {}:{}",
            receiver(v),
            v.ruby_class()
        ),
    )
}

/// The class name Ruby uses in `no implicit conversion of X into Y`:
/// `nil`, `true` and `false` are named by value.
pub fn conversion_name(v: &Value) -> &'static str {
    match v {
        Value::Nil => "nil",
        Value::Bool(true) => "true",
        Value::Bool(false) => "false",
        other => other.ruby_class(),
    }
}

/// `TypeError: no implicit conversion of <X> into <Y>`.
pub fn no_implicit_conversion(v: &Value, into: &str) -> Error {
    Error::new(
        ErrorKind::Type,
        format!(
            "no implicit conversion of {} into {into}",
            conversion_name(v)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ruby_error_wording() {
        assert_eq!(
            no_method("empty?", &Value::Nil).message,
            "undefined method `empty?' for nil:NilClass"
        );
        assert_eq!(
            no_method("include?", &Value::Symbol("sym".into())).message,
            "undefined method `include?' for :sym:Symbol"
        );
        assert_eq!(
            no_implicit_conversion(&Value::Bool(true), "Hash").message,
            "no implicit conversion of true into Hash"
        );
        assert_eq!(
            no_implicit_conversion(&Value::from("s"), "Hash").message,
            "no implicit conversion of String into Hash"
        );
    }
}
