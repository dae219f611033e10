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

pub mod confine;
pub mod data;
pub mod deep_merge;
pub mod diff;
pub mod error;
pub mod eyaml;
pub mod facts_file;
pub mod ffi;
pub mod hiera3;
pub mod hiera5;
pub mod hocon;
pub mod host;
pub mod json;
pub mod limits;
pub mod list;
pub mod map;
mod path_table;
mod probe_cache;
pub mod render;
pub mod request;
pub mod ruby;
pub mod rubyre;
pub mod scope;
mod shared_slice;
pub mod stack;
pub mod string;
mod string_set;
mod thin_set;
pub mod value;
mod watch;
pub mod wire;
pub mod yaml;

pub use error::{Error, ErrorKind, Result};
pub use hiera5::explain::Explanation;
pub use hiera5::lookup::{Hiera, LookupRequest, Options, Session, SessionOptions, Strict};
pub use limits::Limits;
pub use value::{Key, Map, Str, Value};
