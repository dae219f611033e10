//! What a session keeps (finished lookups, resolved hierarchies, compiled
//! lookup_options) and which session keeps it: an overlay keeps in its
//! parent whatever read none of the variables it changes.

use super::*;
use crate::value::Value;
use std::sync::Arc;

impl Session {
    /// The session whose caches hold what was computed from `reads`: the
    /// parent when none of them is a variable this overlay changes.
    pub(super) fn keeper(&self, reads: &[Box<str>]) -> &Session {
        match &self.parent {
            Some(p) if !reads.iter().any(|r| self.changed.contains(r)) => p,
            _ => self,
        }
    }

    /// The sessions whose caches may hold what this session computes: its
    /// own, then its parent's (whose entries count only when they read no
    /// variable this overlay changes).
    pub(super) fn cache_sessions(&self) -> impl Iterator<Item = &Session> {
        std::iter::once(self).chain(self.parent.as_deref())
    }

    /// Whether an entry of `owner`'s caches that read `reads` is this
    /// session's answer too.
    pub(super) fn sees(&self, owner: &Session, reads: &[Box<str>]) -> bool {
        std::ptr::eq(owner, self) || !reads.iter().any(|r| self.changed.contains(r))
    }

    /// A finished lookup of `key` with `merge`, if the session keeps one,
    /// and the variables it read.
    pub(super) fn finished(&self, key: &str, merge: Option<&Value>) -> Option<(Found, Reads)> {
        for owner in self.cache_sessions() {
            let results = owner.results.lock();
            let hit = results.get(key).and_then(|slot| {
                slot.iter()
                    .find(|(m, _, reads)| m.as_ref() == merge && self.sees(owner, reads))
            });
            if let Some((_, found, reads)) = hit {
                return Some((found.clone(), Arc::clone(reads)));
            }
        }
        None
    }

    /// Keeps a finished lookup that read `reads` (the first answer kept for
    /// a key and merge stays).
    pub(super) fn keep(&self, key: &str, merge: Option<&Value>, found: &Found, reads: Reads) {
        if reads.iter().any(|r| &**r == VOLATILE) {
            return;
        }
        let owner = self.keeper(&reads);
        let mut results = owner.results.lock();
        let slot = results.entry(key.to_string()).or_default();
        if !slot
            .iter()
            .any(|(m, _, r)| m.as_ref() == merge && self.sees(owner, r))
        {
            slot.push((merge.cloned(), found.clone(), reads));
        }
    }

    /// A resolved hierarchy this session may search, if one is kept.
    pub(super) fn cached_hierarchy(&self, key: (usize, bool)) -> Option<Arc<ResolvedHierarchy>> {
        self.cache_sessions().find_map(|owner| {
            let cache = owner.hierarchy_cache.lock();
            cache
                .get(&key)
                .filter(|r| self.sees(owner, &r.reads))
                .map(Arc::clone)
        })
    }

    /// Keeps a resolved hierarchy; returns the one kept (another thread's,
    /// when it was first).
    pub(super) fn keep_hierarchy(
        &self,
        key: (usize, bool),
        resolved: Arc<ResolvedHierarchy>,
    ) -> Arc<ResolvedHierarchy> {
        if resolved.reads.iter().any(|r| &**r == VOLATILE) {
            return resolved;
        }
        let owner = self.keeper(&resolved.reads);
        let mut cache = owner.hierarchy_cache.lock();
        Arc::clone(cache.entry(key).or_insert(resolved))
    }

    /// The compiled lookup_options of a module namespace ("" outside
    /// modules), if kept, and the variables they read.
    pub(super) fn cached_options(&self, namespace: &str) -> Option<KeptOptions> {
        self.cache_sessions().find_map(|owner| {
            let cache = owner.options_cache.lock();
            cache
                .get(namespace)
                .filter(|(_, reads)| self.sees(owner, reads))
                .cloned()
        })
    }

    pub(super) fn keep_options(
        &self,
        namespace: &str,
        options: Option<Arc<CompiledOptions>>,
        reads: Reads,
    ) {
        if reads.iter().any(|r| &**r == VOLATILE) {
            return;
        }
        let owner = self.keeper(&reads);
        let mut cache = owner.options_cache.lock();
        cache
            .entry(namespace.to_string())
            .or_insert((options, reads));
    }

    /// The merged global and environment lookup_options, if kept.
    pub(super) fn cached_base_options(&self) -> Option<&(Option<Value>, Reads)> {
        self.cache_sessions().find_map(|owner| {
            owner
                .base_options
                .get()
                .filter(|(_, reads)| self.sees(owner, reads))
        })
    }

    pub(super) fn keep_base_options(&self, options: Option<Value>, reads: Reads) {
        if reads.iter().any(|r| &**r == VOLATILE) {
            return;
        }
        let _ = self.keeper(&reads).base_options.set((options, reads));
    }

    /// The session that reads and keeps the configurations (they do not
    /// depend on variables): the parent of an overlay.
    pub(super) fn configs(&self) -> &Session {
        self.parent.as_deref().unwrap_or(self)
    }

    /// Forgets the finished lookups this session keeps (its other caches
    /// stay): for benchmarks that time lookups on a warm session.
    #[doc(hidden)]
    pub fn forget_results(&self) {
        self.results.lock().clear();
    }
}
