//! libhiera: Puppet's Hiera lookup engine in Rust.
//!
//! The engine answers what Puppet 7.23's `lookup()` answers, value for value
//! and key order for key order. Open a configuration with [`Hiera::open`],
//! bind it to a node's variables with [`Session::new`], and look up keys.
//!
//! ```no_run
//! use std::sync::Arc;
//! let hiera = Arc::new(hiera::Hiera::open(hiera::Options::default()).unwrap());
//! let session = hiera::Session::new(hiera, hiera::Map::default());
//! let value = session.lookup_key("ntp::servers").unwrap();
//! ```
//!
//! The C ABI (`include/hiera.h`) lives in [`ffi`]: the only module with
//! `unsafe` code.

pub mod all_keys;
pub mod all_sources;
pub mod config;
pub mod confine;
pub mod convert;
mod convert_type;
pub mod data;
pub mod data_provider;
pub mod deep_merge;
pub mod error;
mod explain;
pub mod eyaml;
pub mod facts_file;
pub mod ffi;
pub mod glob;
pub mod hiera3;
pub mod hocon;
pub mod host;
pub mod interpolate;
pub mod json;
pub mod key;
mod key_options;
pub mod known_variables;
pub mod limits;
pub mod list;
pub mod lookup;
pub mod lookup_type;
pub mod map;
pub mod merge;
pub mod modulepath;
pub mod ptype;
pub mod render;
pub mod request;
pub mod ruby;
pub mod rubyre;
pub mod scope;
pub mod stack;
pub mod string;
pub mod value;
pub mod wire;
pub mod yaml;

pub use error::{Error, ErrorKind, Result};
pub use explain::Explanation;
pub use limits::Limits;
pub use lookup::{Hiera, LookupRequest, Options, Session, SessionOptions, Strict};
pub use value::{Key, Map, Str, Value};
