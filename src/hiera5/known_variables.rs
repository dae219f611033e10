//! The variable names whose scope the host knows: a session's numbered
//! list of the plain (unqualified) variable names its lookups have read,
//! for hosts whose lookups come from many scopes of one compile.
//!
//! A Puppet compile looks up from many scopes (classes, defined
//! resources), each seeing the top scope's variables and its own. Sending
//! every scope's variable names with each lookup costs what the lookups
//! do not need: they read few variables, nearly always the same (`facts`,
//! `trusted`, a hierarchy's top-scope names). Instead, a lookup may say
//! how many of the session's known names its host has checked
//! ([`crate::LookupRequest::known_variables`]): the request's
//! `local_variables` then lists which of those first names its scope
//! gives itself, and a name read that is not among them is asked of the
//! host ([`crate::host::Host::scope_variable`], with its number in this
//! list) before the lookup uses it, and numbered here. The host learns
//! every name this way, in order, and so knows what to check next time.
//!
//! Names are only added; the list is shared by a session and its overlays.
//!
//! It also keeps the host's answers about the session's own (top-scope)
//! variables ([`crate::Options::host_scope`]), asked once per session by
//! name: the same session, its overlays share them.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::value::Value;

type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// The read that marks what read a plain variable name not in the list
/// (outside of a known-variables lookup): a known-variables lookup takes
/// nothing that read it from the caches, as its host never checked the name.
pub const UNREGISTERED: &str = "::?";

/// A session's numbered variable names. Any thread may use it.
#[derive(Default)]
pub struct KnownVariables {
    len: AtomicUsize,
    names: Mutex<FastMap<Box<str>, usize>>,
    /// The host's answers about the session's own variables, by name.
    top: Mutex<FastMap<Box<str>, Option<Value>>>,
}

impl KnownVariables {
    /// How many names are known.
    pub fn len(&self) -> usize {
        self.len.load(Ordering::Acquire)
    }

    /// Whether no name is known yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of `name`, when it is known.
    pub fn index(&self, name: &str) -> Option<usize> {
        if self.is_empty() {
            return None;
        }
        self.names
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(name)
            .copied()
    }

    /// The number of `name`, numbering it next when it is new.
    pub fn register(&self, name: &str) -> usize {
        let mut names = self.names.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&i) = names.get(name) {
            return i;
        }
        let i = names.len();
        names.insert(Box::from(name), i);
        self.len.store(i + 1, Ordering::Release);
        i
    }

    /// The names numbered `from` or later, by number.
    pub fn names_from(&self, from: usize) -> Vec<(usize, Box<str>)> {
        if self.len() <= from {
            return Vec::new();
        }
        let names = self.names.lock().unwrap_or_else(|e| e.into_inner());
        let mut out: Vec<(usize, Box<str>)> = names
            .iter()
            .filter(|(_, &i)| i >= from)
            .map(|(n, &i)| (i, n.clone()))
            .collect();
        out.sort_unstable_by_key(|(i, _)| *i);
        out
    }

    /// The session's own variable `name` as the host answered it the first
    /// time (`ask`, called with no lock held: it may be called twice when
    /// two threads ask at once, the first answer kept); `ask` gives `None`
    /// when it could not ask (nothing is kept, and `None` is returned).
    pub fn top_value(
        &self,
        name: &str,
        ask: impl FnOnce() -> Option<Option<Value>>,
    ) -> Option<Option<Value>> {
        if let Some(v) = self.top.lock().unwrap_or_else(|e| e.into_inner()).get(name) {
            return Some(v.clone());
        }
        let v = ask()?;
        let mut top = self.top.lock().unwrap_or_else(|e| e.into_inner());
        Some(top.entry(Box::from(name)).or_insert(v).clone())
    }

    /// Whether something computed from `reads` may depend on a variable a
    /// host that checked the first `checked` names has not checked: a
    /// plain name read that is unnumbered or numbered later, or the
    /// [`UNREGISTERED`] mark.
    pub fn unchecked(&self, reads: &[Box<str>], checked: usize) -> bool {
        if reads.iter().any(|r| &**r == UNREGISTERED) {
            return true;
        }
        if checked >= self.len() {
            // Every numbered name is checked; what read an unnumbered one
            // carries the mark.
            return false;
        }
        let names = self.names.lock().unwrap_or_else(|e| e.into_inner());
        reads
            .iter()
            .filter(|r| !r.contains("::"))
            .any(|r| names.get(&**r).is_none_or(|&i| i >= checked))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reads(names: &[&str]) -> Vec<Box<str>> {
        names.iter().map(|n| Box::from(*n)).collect()
    }

    #[test]
    fn names_are_numbered_once_in_order() {
        let k = KnownVariables::default();
        assert!(k.is_empty());
        assert_eq!(k.index("facts"), None);
        assert_eq!(k.register("facts"), 0);
        assert_eq!(k.register("trusted"), 1);
        assert_eq!(k.register("facts"), 0);
        assert_eq!(k.len(), 2);
        assert_eq!(k.index("trusted"), Some(1));
    }

    #[test]
    fn unchecked_reads() {
        let k = KnownVariables::default();
        k.register("facts");
        k.register("trusted");
        // Every number checked.
        assert!(!k.unchecked(&reads(&["facts", "trusted", "a::b"]), 2));
        assert!(k.unchecked(&reads(&["facts", UNREGISTERED]), 2));
        // Only the first checked: trusted was numbered after.
        assert!(k.unchecked(&reads(&["trusted"]), 1));
        assert!(!k.unchecked(&reads(&["facts", "x::y", "::"]), 1));
        // An unnumbered plain name.
        assert!(k.unchecked(&reads(&["role"]), 1));
    }

    #[test]
    fn top_values_are_asked_once() {
        let k = KnownVariables::default();
        let asked = std::cell::Cell::new(0);
        let ask = |v: Option<Value>| {
            asked.set(asked.get() + 1);
            Some(v)
        };
        assert_eq!(
            k.top_value("role", || ask(Some(Value::from("web")))),
            Some(Some(Value::from("web")))
        );
        assert_eq!(
            k.top_value("role", || ask(Some(Value::from("db")))),
            Some(Some(Value::from("web")))
        );
        assert_eq!(k.top_value("nope", || ask(None)), Some(None));
        assert_eq!(
            k.top_value("nope", || ask(Some(Value::from("late")))),
            Some(None)
        );
        assert_eq!(asked.get(), 2);
        // Not asked: nothing kept.
        assert_eq!(k.top_value("x", || None), None);
        assert_eq!(
            k.top_value("x", || ask(Some(Value::Int(1)))),
            Some(Some(Value::Int(1)))
        );
        assert_eq!(asked.get(), 3);
    }
}
