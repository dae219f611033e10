//! [`NamespaceTable`]: module namespaces as a session adopted them, kept in
//! the [`Hiera`] for the sessions after (issue 18: a compile is one session
//! per node, and each new session used to rebuild each module namespace it
//! touched, ~15 K instructions a namespace).

use super::*;
use crate::hiera5::config::HieraConfig;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// A module namespace as a session adopted it: what
/// [`Invocation::adopt_namespace`] gathers, whole.
pub(super) struct SharedNamespace {
    /// The module's configuration (held, so that its address, the
    /// hierarchy's key, stays unique).
    pub(super) config: Arc<HieraConfig>,
    /// The global and environment lookup_options the module's were merged
    /// under (held, so that its identity stays unique).
    pub(super) base: Option<Value>,
    /// Made for a plan's session ([`SessionOptions::plan`]).
    pub(super) plan: bool,
    /// The module's hierarchy, resolved, read and indexed.
    pub(super) hierarchy: Arc<ResolvedHierarchy>,
    /// Each scope expression its resolution evaluated, and its value.
    pub(super) exprs: Exprs,
    /// The namespace's compiled lookup_options.
    pub(super) options: Option<Arc<CompiledOptions>>,
}

/// Module namespaces shared by the sessions of a [`Hiera`]: a new session
/// takes a module's namespace in one probe when the module's configuration
/// is the one the entry holds (the file cache gave the session the same
/// parse), its global and environment lookup_options are the same hash,
/// its scope gives every expression the resolution evaluated the same value
/// ([`ResolutionCache`]'s rule), and every location still has the data the
/// entry's slots hold ([`Invocation::data_unchanged`]). That is what
/// [`Invocation::adopt_namespace`] would have gathered from the
/// [`ResolutionCache`] and the options memo: the same resolution, the same
/// compiled options.
///
/// Bounded as the [`ResolutionCache`] is: at most
/// [`NamespaceTable::VARIANTS`] entries per module (the oldest gives way: a
/// module hierarchy that reads a node's own variable has one per node), and
/// [`NamespaceTable::LIMIT`] modules, past which it starts over.
#[derive(Default)]
pub(super) struct NamespaceTable {
    map: Kept<Box<str>, Vec<Arc<SharedNamespace>>>,
    /// Namespaces taken from the table (for tests).
    hits: AtomicU64,
}

impl NamespaceTable {
    /// The most modules kept.
    pub(super) const LIMIT: usize = 4096;
    /// The most entries kept per module.
    pub(super) const VARIANTS: usize = 8;

    /// The entry of `module` made from `config` under `base` for a session
    /// like `session`, whose expressions `session`'s scope gives the same
    /// values (its files are the caller's to check).
    pub(super) fn find(
        &self,
        module: &str,
        config: &Arc<HieraConfig>,
        base: &Option<Value>,
        session: &Session,
    ) -> Option<Arc<SharedNamespace>> {
        let base = options_identity(base)?;
        let map = self.map.lock();
        let mut seen = Vec::new();
        let found = map.get(module)?.iter().rev().find(|e| {
            Arc::ptr_eq(&e.config, config)
                && options_identity(&e.base) == Some(base)
                && e.plan == session.options.plan
                && e.exprs.given_by(session, &mut seen)
        });
        found.map(Arc::clone)
    }

    /// Keeps an entry for `module` (in place of one of the same
    /// configuration, base, kind of session and values).
    pub(super) fn insert(&self, module: &str, entry: SharedNamespace) {
        if options_identity(&entry.base).is_none() {
            return;
        }
        let mut map = self.map.lock();
        if map.len() >= Self::LIMIT && !map.contains_key(module) {
            map.clear();
        }
        let list = match map.get_mut(module) {
            Some(list) => list,
            None => map.entry(Box::from(module)).or_default(),
        };
        list.retain(|e| {
            !(Arc::ptr_eq(&e.config, &entry.config)
                && options_identity(&e.base) == options_identity(&entry.base)
                && e.plan == entry.plan
                && e.exprs.same_values(&entry.exprs))
        });
        if list.len() >= Self::VARIANTS {
            list.remove(0);
        }
        list.push(Arc::new(entry));
    }

    /// Counts a namespace taken from the table.
    pub(super) fn hit(&self) {
        self.hits.fetch_add(1, Ordering::Relaxed);
    }

    /// How many namespaces sessions took from the table (for tests).
    #[cfg(test)]
    pub(super) fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    /// How many entries are kept, and for how many modules (for tests).
    #[cfg(test)]
    pub(super) fn len(&self) -> (usize, usize) {
        let map = self.map.lock();
        (map.values().map(Vec::len).sum(), map.len())
    }

    /// The newest entry of `module` (for tests).
    #[cfg(test)]
    pub(super) fn newest(&self, module: &str) -> Option<Arc<SharedNamespace>> {
        self.map.lock().get(module)?.last().map(Arc::clone)
    }

    /// How many entries `module` has (for tests).
    #[cfg(test)]
    pub(super) fn variants(&self, module: &str) -> usize {
        self.map.lock().get(module).map_or(0, Vec::len)
    }
}

impl Invocation<'_> {
    /// A module namespace taken from the [`NamespaceTable`]: the entry for
    /// `config` under the session's `base` options whose values the scope
    /// gives and whose files are unchanged, kept in the session's shelves
    /// as [`Invocation::adopt_namespace`] keeps what it gathers (the
    /// hierarchy, the namespace's options with `base_reads` and the
    /// hierarchy's reads). `false`: none, or the session has its own
    /// resolution (the general path's), which adoption then takes.
    pub(super) fn adopt_shared(
        &self,
        config: &Arc<HieraConfig>,
        module: &str,
        base: &Option<Value>,
        base_reads: &Reads,
    ) -> bool {
        let hiera = self.hiera();
        // A host hears the module's key warnings at each adoption: the
        // shared resolution's path gives them.
        if hiera.options.host.is_some() {
            return false;
        }
        let Some(shared) = hiera.namespaces.find(module, config, base, self.session) else {
            return false;
        };
        if !self.data_unchanged(&shared.hierarchy, self.session.entries(config, false)) {
            return false;
        }
        let session = self.session;
        let key = (Arc::as_ptr(config) as usize, false);
        let reads = Arc::clone(&shared.hierarchy.reads);
        let kept = session.keep_as::<Hierarchies>(key, Arc::clone(&shared.hierarchy), reads);
        if !Arc::ptr_eq(&kept, &shared.hierarchy) {
            return false;
        }
        let reads = union_of_reads(base_reads, Some(&shared.hierarchy.reads));
        let kept = session.keep_module_options(module, shared.options.clone(), Arc::clone(&reads));
        hiera.namespaces.hit();
        if !kept {
            // The session's own options: its plan is gathered from its
            // shelves ([`Session::plan`]).
            return true;
        }
        // The plan [`SearchPlan::gather`] makes of what was just kept: the
        // module's step (its configuration has no default hierarchy: the
        // entry was adopted), the options and their reads.
        let Some(Some(index)) = shared.hierarchy.index.get() else {
            return true;
        };
        let Ok(base) = session.base_layers() else {
            return true;
        };
        let module_step = (!shared.hierarchy.entries.is_empty()).then(|| PlanLayer {
            site: Layer::Module,
            hierarchy: Arc::clone(&shared.hierarchy),
            index: Some(Arc::clone(index)),
        });
        let plan = SearchPlan {
            base,
            module: module_step,
            options: shared.options.clone(),
            default_hierarchy: false,
            options_reads: reads,
        };
        session.keep_as::<Plans>(module, Some(Arc::new(plan)), no_reads());
        true
    }
}
