//! The Hiera 5 lookup engine: layers (global, environment, module), the
//! hierarchy search, lookup_options, merges, defaults and interpolation.
//!
//! [`Hiera`] is an opened configuration: immutable apart from its internal
//! caches, `Send + Sync`, shared by threads. A [`Session`] binds it to one
//! scope (the node's variables); lookups go through a session.
//!
//! A lookup flows: [`Session::lookup`] (the session's finished lookups, then
//! the quick path over what is already resolved) → an `Invocation` →
//! lookup_options for the key (`options`) → each layer's hierarchy
//! (`hierarchy`), its locations read through the file cache or answered by
//! a data function (`functions`) → merged, interpolated (`resolver`,
//! `variables`) and converted.

use crate::error::Result;
use crate::hiera5::key::{dig, Segment};
use crate::value::Value;

mod batch;
mod cache;
mod functions;
mod hiera;
mod hierarchy;
mod invocation;
mod kept;
mod namespaces;
mod options;
mod plan;
mod quick;
mod request;
mod resolver;
mod session;
#[cfg(test)]
mod tests;
mod variables;

use batch::*;
use cache::*;
use functions::*;
use hiera::*;
pub use hiera::{Hiera, Options, Strict, OWN_FUNCTIONS};
use hierarchy::*;
use invocation::*;
use kept::Kept;
use namespaces::*;
use options::*;
use plan::*;
pub use request::LookupRequest;
use session::*;
pub use session::{Session, SessionOptions};

/// Puppet's message when `lookup()` finds nothing and has no default.
pub fn not_found_message(names: &[String]) -> String {
    if names.len() == 1 {
        format!(
            "Function lookup() did not find a value for the name '{}'",
            names[0]
        )
    } else {
        let list: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
        format!(
            "Function lookup() did not find a value for any of the names [{}]",
            list.join(", ")
        )
    }
}

/// Digs `segments` into a value (exposed for the CLI and tests).
pub fn dig_value(key: &str, segments: &[Segment], v: Value) -> Result<Option<Value>> {
    dig(key, segments, v)
}
