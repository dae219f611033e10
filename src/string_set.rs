//! [`StringSet`]: the file cache's set of shared heap strings (see the
//! interner in [`crate::data`]), one thin pointer per slot.
//!
//! A `HashSet<Str>` holds a 16-byte [`Str`] per bucket, in a table that is
//! a power of two and at most 7/8 full; the strings it shares are all on the
//! heap, so an 8-byte [`SharedStr`] says as much, in a [`ThinSet`] that
//! stays 7/10 to 7/8 full (issue 18: 0.28 MB, then 0.15 MB, now 0.08 MB of
//! deep-1's cache of 1.5 MB of YAML).

use crate::shared_slice::SharedStr;
use crate::string::Str;
use crate::thin_set::ThinSet;
use std::hash::BuildHasher;

/// A set of heap strings, found by their text (see the module).
#[derive(Default)]
pub(crate) struct StringSet {
    table: ThinSet<SharedStr>,
    hasher: foldhash::fast::RandomState,
}

impl StringSet {
    /// The string of the set equal to `s`; `s` is added when there is none.
    /// Strings stored in place are returned as they are, and not kept.
    pub(crate) fn intern(&mut self, s: &Str) -> Str {
        let Some(heap) = s.heap() else {
            return s.clone();
        };
        self.kept(heap.as_str(), || heap.clone())
    }

    /// The string of the set equal to `s`, as [`Self::intern`], without
    /// building a string first: one is made only when the set has none
    /// (a parse reads many strings the set holds already).
    pub(crate) fn intern_str(&mut self, s: &str) -> Str {
        if s.len() <= crate::string::INLINE {
            return Str::new(s);
        }
        self.kept(s, || SharedStr::new(s))
    }

    /// The string of the set whose text is `s`, added by `make` when there
    /// is none.
    fn kept(&mut self, s: &str, make: impl FnOnce() -> SharedStr) -> Str {
        let hasher = &self.hasher;
        let kept = self.table.get_or_insert_with(
            hasher.hash_one(s),
            |k| k.as_str() == s,
            make,
            |k| hasher.hash_one(k.as_str()),
        );
        Str::from_shared(kept)
    }

    /// The number of strings kept.
    pub(crate) fn len(&self) -> usize {
        self.table.len()
    }

    /// Drops the strings nothing else refers to.
    pub(crate) fn retain_shared(&mut self) {
        let hasher = &self.hasher;
        self.table
            .retain(|s| s.strong_count() > 1, |k| hasher.hash_one(k.as_str()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_equal_heap_strings_and_drops_unused_ones() {
        let mut set = StringSet::default();
        let a = set.intern(&Str::new("ntp::servers"));
        let b = set.intern(&Str::new("ntp::servers"));
        assert!(Str::ptr_eq(&a, &b));
        assert_eq!(a, "ntp::servers");
        let short = set.intern(&Str::new("port"));
        assert_eq!(short, "port");
        assert_eq!(set.len(), 1);
        let c = set.intern(&Str::new("ntp::server_pool"));
        assert_eq!(set.len(), 2);
        drop(c);
        set.retain_shared();
        assert_eq!(set.len(), 1);
        drop((a, b));
        set.retain_shared();
        assert_eq!(set.len(), 0);
    }
}
