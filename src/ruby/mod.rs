//! Ruby's and Psych's rules, written once: every part of the crate that must
//! print, read, compare or encode a value the way Ruby (3.1, with Psych 4)
//! does calls these.
//!
//! * [`float`](mod@float): `Float#to_s` and `Float()` of a String;
//! * [`inspect`](mod@inspect): `to_s` and `inspect` of values, strings and symbols;
//! * [`compare`]: `==`, `<=>` and `Array#sort!`;
//! * [`errors`]: the wording of `NoMethodError` and `TypeError`;
//! * [`base64`]: `pack('m0')`, `unpack('m')` and the wire format's strict reader;
//! * [`unicode`]: Onigmo's printable and `[[:word:]]` classes.
//!
//! `tests/ruby_rules.rs` checks them against the real Ruby on generated input.

pub mod base64;
pub mod compare;
pub mod errors;
pub mod float;
pub mod inspect;
pub mod unicode;

pub use float::float_to_s;
pub use inspect::{inspect, inspect_into, inspect_str, to_s, SENSITIVE_TEXT};
