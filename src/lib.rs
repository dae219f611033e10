//! libhiera: Puppet's Hiera lookup engine in Rust.
//!
//! The engine answers what Puppet 7.23's `lookup()` answers, value for value
//! and key order for key order. See README.md.

pub mod error;
pub mod value;

pub use error::{Error, ErrorKind, Result};
pub use value::{Map, Value};
