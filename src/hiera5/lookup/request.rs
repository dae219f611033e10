//! [`LookupRequest`]: one call of `lookup()` (names, merge, default,
//! override, default values hash), as a session is asked it.

use super::*;
use crate::hiera5::known_variables::KnownVariables;
use crate::value::{Map, Value};

/// One lookup call, as `lookup()` takes it.
#[derive(Clone, Debug, Default)]
pub struct LookupRequest {
    /// The names to try, in order; the first found wins.
    pub keys: Vec<String>,
    /// The merge: a strategy name or a hash with `strategy` and options.
    pub merge: Option<Value>,
    /// The default value (its presence matters: `Some(Nil)` is a default).
    pub default: Option<Value>,
    /// Values used when a name is not found (and for undefined variables).
    pub default_values_hash: Map,
    /// Values that win over any data (and over scope variables).
    pub override_values: Map,
    /// Names of variables the lookup's scope has beyond the session's (a
    /// class's parameters and locals, a resource's title: what Puppet's
    /// scope of the lookup adds to the compile's top scope). Their values
    /// are asked of the host ([`crate::host::Host::variable`], with the
    /// lookup's scope) when the lookup reads one, once per lookup; what
    /// read one is not kept in, nor taken from, the session's caches. A
    /// class's lookups need no session of their own. Needs a host.
    pub local_variables: Vec<String>,
    /// The lookup's own Hiera 3 calling variables (`calling_class`,
    /// `calling_class_path`, `calling_module`), in place of the session's;
    /// what read one is not kept, as for `local_variables`.
    pub hiera3_variables: Option<Map>,
    /// How many of the session's known variable names
    /// ([`crate::hiera5::known_variables`]) the host has checked for this lookup's
    /// scope: `local_variables` then lists those of them the scope gives
    /// itself, and any other variable the lookup reads is first asked of
    /// the host ([`crate::host::Host::scope_variable`]). `None`:
    /// `local_variables` lists all of the scope's own variables. Needs a
    /// host.
    pub known_variables: Option<usize>,
}

impl LookupRequest {
    /// Whether something computed from `reads` may differ for this request
    /// from what the session has: it read one of the request's own
    /// variables.
    pub(super) fn hides(&self, reads: &[Box<str>]) -> bool {
        (!self.local_variables.is_empty() || self.hiera3_variables.is_some())
            && reads.iter().any(|r| {
                self.local_variables.iter().any(|l| **l == **r)
                    || (self.hiera3_variables.is_some() && HIERA3_CALLING_KEYS.contains(&&**r))
            })
    }

    /// Whether this request may not take something the session computed
    /// from `reads`: it [`hides`](Self::hides) it, or it read a variable
    /// the request's host has not checked (`known_variables`).
    pub(super) fn refuses(&self, reads: &[Box<str>], known: &KnownVariables) -> bool {
        self.hides(reads)
            || self
                .known_variables
                .is_some_and(|n| known.unchecked(reads, n))
    }

    /// Whether the request's scope may differ from its session's.
    pub(super) fn scoped(&self) -> bool {
        !self.local_variables.is_empty()
            || self.hiera3_variables.is_some()
            || self.known_variables.is_some()
    }
}

impl LookupRequest {
    /// A request for one key without options.
    pub fn key(key: &str) -> LookupRequest {
        LookupRequest {
            keys: vec![key.to_string()],
            ..Default::default()
        }
    }
}
