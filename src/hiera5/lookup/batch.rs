//! A batch of lookups from one scope at one moment (`hiera_lookup_keys`: a
//! Puppet class's automatic parameter lookups, which Puppet makes one after
//! the other with nothing evaluated in between). What the host said about
//! the scope's variables holds for the whole batch: it is asked once, and a
//! name the host checked for the first key counts as checked for the keys
//! after it (its value the session's, or the scope's own).

use super::*;
use crate::value::Value;

/// What the host answered about the lookup scope's variables, by name
/// (`None`: no such variable).
pub(super) type Asked = Vec<(Box<str>, Option<Value>)>;

impl Session {
    /// Looks up `keys` in order, each alone (first found, no merge argument,
    /// no default), with the scope fields of `scope` (`local_variables`,
    /// `known_variables`, `hiera3_variables`; its own keys are ignored), as
    /// [`Session::lookup`] looks up each: the same values, errors and
    /// warnings. The keys must be looked up from one scope whose variables
    /// do not change between them. `each` gets each key's outcome and
    /// says whether to go on.
    pub fn lookup_batch(
        &self,
        scope: &LookupRequest,
        keys: &[String],
        mut each: impl FnMut(&str, Result<Option<Value>>) -> bool,
    ) {
        let mut req = LookupRequest {
            keys: Vec::new(),
            ..scope.clone()
        };
        let mut asked = Asked::new();
        for key in keys {
            req.keys = vec![key.clone()];
            let (r, warnings) = self.lookup_warned_asked(&req, &mut asked);
            if let Some(host) = &self.hiera.options.host {
                for w in &warnings {
                    host.0.warn(w);
                }
            }
            if !each(key, r) {
                return;
            }
            self.advance_checked(&mut req, &asked);
        }
    }

    /// After a key of a known-variables batch: the names the session
    /// numbered since the request's `known_variables` that the host was
    /// asked about in this batch (in order, without a gap) are checked for
    /// the keys after, those whose value the scope gives itself added to
    /// the request's `local_variables`.
    fn advance_checked(&self, req: &mut LookupRequest, asked: &Asked) {
        let Some(checked) = req.known_variables else {
            return;
        };
        let known = self.known_variables();
        if known.len() <= checked {
            return;
        }
        let plain = LookupRequest::default();
        let inv = Invocation::new(self, &plain);
        let mut next = checked;
        for (index, name) in known.names_from(checked) {
            if index != next {
                break;
            }
            let Some((_, theirs)) = asked.iter().find(|(n, _)| **n == *name) else {
                break;
            };
            if *theirs != inv.session_variable(&name) {
                req.local_variables.push(name.to_string());
            }
            next += 1;
        }
        req.known_variables = Some(next);
    }
}
