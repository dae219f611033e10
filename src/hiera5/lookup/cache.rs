//! What a session keeps, in one store with typed keys ([`Store`]), and
//! which session keeps it: an overlay keeps in its parent whatever read
//! none of the variables it changes.
//!
//! Every kind of kept thing is one line of [`kinds!`]: its name, its shelf
//! (how it is keyed) and its [`Sharing`]. The rules (which session keeps an
//! entry, which entries a session sees, what is never kept) are written
//! once, in [`Session::find`] and [`Session::keep_as`], for every kind.

use super::*;
use crate::hiera5::config::HieraConfig;
use crate::value::Value;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// Which session's store holds a kind of entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sharing {
    /// Computed from the scope: an overlay keeps in (and takes from) its
    /// parent what read none of the variables it changes, and keeps the
    /// rest itself.
    Scope,
    /// Read from files only (configurations): kept by the parent of an
    /// overlay, seen by all.
    Configs,
    /// The session's own (the quick path's plans, made from the others).
    Own,
}

/// One shelf of a [`Store`]: the entries of one kind by key, each with the
/// variables it read. `Send + Sync`: threads share it.
pub(super) trait Shelf: Default {
    /// An empty shelf with room for `n` entries (see [`StoreSizes`]).
    fn with_room(_n: usize) -> Self {
        Self::default()
    }
    /// How many keys it holds (0 for a shelf that is not sized).
    fn len(&self) -> usize {
        0
    }
    /// How an entry is asked for.
    type Key<'a>: Copy;
    /// What an entry holds (cheap to clone: `Arc`s and small values).
    type Value: Clone;
    /// The first entry for `key` whose reads `sees` accepts.
    fn find(
        &self,
        key: Self::Key<'_>,
        sees: impl Fn(&[Box<str>]) -> bool,
    ) -> Option<(Self::Value, Reads)>;
    /// Keeps `value` for `key` unless an entry `sees` accepts is there;
    /// returns the entry kept (another thread's, when it was first).
    fn keep(
        &self,
        key: Self::Key<'_>,
        value: Self::Value,
        reads: Reads,
        sees: impl Fn(&[Box<str>]) -> bool,
    ) -> Self::Value;
}

/// A shelf of one entry (per session).
pub(super) struct Single<V>(OnceLock<(V, Reads)>);

impl<V> Default for Single<V> {
    fn default() -> Self {
        Single(OnceLock::new())
    }
}

impl<V: Clone> Shelf for Single<V> {
    type Key<'a> = ();
    type Value = V;

    fn find(&self, _: (), sees: impl Fn(&[Box<str>]) -> bool) -> Option<(V, Reads)> {
        self.0.get().filter(|(_, r)| sees(r)).cloned()
    }

    fn keep(&self, _: (), value: V, reads: Reads, sees: impl Fn(&[Box<str>]) -> bool) -> V {
        let mut value = Some(value);
        let (kept, r) = self
            .0
            .get_or_init(|| (value.take().expect("taken once"), reads));
        match value {
            // Another thread's entry, which this session does not see.
            Some(v) if !sees(r) => v,
            _ => kept.clone(),
        }
    }
}

/// Several entries per key, told apart by a variant (a finished lookup's
/// merge) and by their reads.
pub(super) struct Keyed<K, T, V>(Kept<K, Entries<T, V>>);

/// The entries of one key: nearly always one, kept inline.
pub(super) struct Entries<T, V> {
    first: (T, V, Reads),
    more: Vec<(T, V, Reads)>,
}

impl<T, V> Entries<T, V> {
    fn iter(&self) -> impl Iterator<Item = &(T, V, Reads)> {
        std::iter::once(&self.first).chain(self.more.iter())
    }
}

impl<K, T, V> Default for Keyed<K, T, V> {
    fn default() -> Self {
        Keyed(Kept::default())
    }
}

impl<K: std::hash::Hash + Eq, T, V: Clone> Keyed<K, T, V> {
    fn with_room(n: usize) -> Self {
        Keyed(Kept::with_room(n))
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    fn find_by<Q>(
        &self,
        key: &Q,
        variant: impl Fn(&T) -> bool,
        sees: impl Fn(&[Box<str>]) -> bool,
    ) -> Option<(V, Reads)>
    where
        K: std::borrow::Borrow<Q>,
        Q: std::hash::Hash + Eq + ?Sized,
    {
        let map = self.0.lock();
        let entries = map.get(key)?;
        let found = entries
            .iter()
            .find(|(t, _, r)| variant(t) && sees(r))
            .map(|(_, v, r)| (v.clone(), Arc::clone(r)));
        found
    }

    fn keep_by<Q>(
        &self,
        key: &Q,
        variant: T,
        value: V,
        reads: Reads,
        same: impl Fn(&T, &T) -> bool,
        sees: impl Fn(&[Box<str>]) -> bool,
    ) -> V
    where
        K: std::borrow::Borrow<Q> + From<Q::Owned>,
        Q: std::hash::Hash + Eq + ToOwned + ?Sized,
    {
        let mut map = self.0.lock();
        if let Some(entries) = map.get_mut(key) {
            if let Some((_, v, _)) = entries
                .iter()
                .find(|(t, _, r)| same(t, &variant) && sees(r))
            {
                return v.clone();
            }
            entries.more.push((variant, value.clone(), reads));
            return value;
        }
        let entries = Entries {
            first: (variant, value.clone(), reads),
            more: Vec::new(),
        };
        map.insert(K::from(key.to_owned()), entries);
        value
    }
}

/// Entries by name (a module's name, "" outside modules).
pub(super) type ByName<V> = Keyed<Box<str>, (), V>;

impl<V: Clone> Shelf for ByName<V> {
    type Key<'a> = &'a str;
    type Value = V;

    fn with_room(n: usize) -> Self {
        Keyed::with_room(n)
    }

    fn len(&self) -> usize {
        Keyed::len(self)
    }

    fn find(&self, key: &str, sees: impl Fn(&[Box<str>]) -> bool) -> Option<(V, Reads)> {
        self.find_by(key, |_| true, sees)
    }

    fn keep(&self, key: &str, value: V, reads: Reads, sees: impl Fn(&[Box<str>]) -> bool) -> V {
        self.keep_by(key, (), value, reads, |_, _| true, sees)
    }
}

/// The identity of a hierarchy: its configuration's address (the entry
/// holds the configuration, so that the address stays unique), and whether
/// it is the default hierarchy.
pub(super) type HierarchyKey = (usize, bool);

/// Entries by hierarchy.
pub(super) type ByHierarchy<V> = Keyed<HierarchyKey, (), V>;

impl<V: Clone> Shelf for ByHierarchy<V> {
    type Key<'a> = HierarchyKey;
    type Value = V;

    fn with_room(n: usize) -> Self {
        Keyed::with_room(n)
    }

    fn len(&self) -> usize {
        Keyed::len(self)
    }

    fn find(&self, key: HierarchyKey, sees: impl Fn(&[Box<str>]) -> bool) -> Option<(V, Reads)> {
        self.find_by(&key, |_| true, sees)
    }

    fn keep(
        &self,
        key: HierarchyKey,
        value: V,
        reads: Reads,
        sees: impl Fn(&[Box<str>]) -> bool,
    ) -> V {
        self.keep_by(&key, (), value, reads, |_, _| true, sees)
    }
}

/// Finished lookups by key and merge.
pub(super) type ByKeyAndMerge = Keyed<Box<str>, Option<Value>, Found>;

impl Shelf for ByKeyAndMerge {
    type Key<'a> = (&'a str, Option<&'a Value>);
    type Value = Found;

    fn with_room(n: usize) -> Self {
        Keyed::with_room(n)
    }

    fn len(&self) -> usize {
        Keyed::len(self)
    }

    fn find(
        &self,
        (key, merge): (&str, Option<&Value>),
        sees: impl Fn(&[Box<str>]) -> bool,
    ) -> Option<(Found, Reads)> {
        self.find_by(key, |m| m.as_ref() == merge, sees)
    }

    fn keep(
        &self,
        (key, merge): (&str, Option<&Value>),
        value: Found,
        reads: Reads,
        sees: impl Fn(&[Box<str>]) -> bool,
    ) -> Found {
        self.keep_by(key, merge.cloned(), value, reads, |a, b| a == b, sees)
    }
}

/// A kind of thing a session keeps: its shelf in the [`Store`], and which
/// session keeps it.
pub(super) trait Kind {
    /// How its entries are keyed.
    type Shelf: Shelf;
    /// Which session's store holds its entries.
    const SHARING: Sharing;
    /// Its shelf in `store`.
    fn shelf(store: &Store) -> &Self::Shelf;
}

/// How an entry of kind `K` is asked for.
pub(super) type KeyOf<'a, K> = <<K as Kind>::Shelf as Shelf>::Key<'a>;
/// What an entry of kind `K` holds.
pub(super) type ValueOf<K> = <<K as Kind>::Shelf as Shelf>::Value;

/// Declares the kinds a session keeps: for each, a marker type, its shelf
/// and its sharing, and the [`Store`] that has one shelf of each.
macro_rules! kinds {
    ($( $(#[$doc:meta])* $kind:ident($field:ident): $shelf:ty, $sharing:ident; )*) => {
        /// Everything a session keeps: one shelf per kind.
        #[derive(Default)]
        pub(super) struct Store {
            $( $(#[$doc])* $field: $shelf, )*
        }

        /// How many keys each shelf of a [`Hiera`]'s last finished top
        /// session held (at most [`StoreSizes::MOST`]): its next sessions'
        /// stores are made with as much room, one table per shelf where
        /// growing there made and freed one per doubling, each entry
        /// hashed again each time (and freeing the old tables made glibc
        /// consolidate its fast bins, a walk over freed memory). Issue 18:
        /// a compile keeps about one finished lookup per key it looks up.
        #[derive(Default)]
        pub(super) struct StoreSizes {
            $( $field: AtomicUsize, )*
        }

        impl Store {
            /// A store with the room `sizes` says.
            pub(super) fn sized(sizes: &StoreSizes) -> Store {
                Store {
                    $( $field: <$shelf>::with_room(sizes.$field.load(Ordering::Relaxed)), )*
                }
            }

            /// Notes in `sizes` how many keys each shelf holds.
            pub(super) fn note_sizes(&self, sizes: &StoreSizes) {
                $( sizes.$field.store(self.$field.len().min(StoreSizes::MOST), Ordering::Relaxed); )*
            }
        }
        $(
            $(#[$doc])*
            pub(super) struct $kind;
            impl Kind for $kind {
                type Shelf = $shelf;
                const SHARING: Sharing = Sharing::$sharing;
                fn shelf(store: &Store) -> &$shelf {
                    &store.$field
                }
            }
        )*
    };
}

kinds! {
    /// Finished lookups: key and merge -> the result. Correct because a
    /// session is a snapshot and its scope does not change.
    Finished(finished): ByKeyAndMerge, Scope;
    /// Hierarchies resolved for the scope.
    Hierarchies(hierarchies): ByHierarchy<Arc<ResolvedHierarchy>>, Scope;
    /// Compiled lookup_options by module name ("" for keys outside modules).
    ModuleOptions(module_options): ByName<Option<Arc<CompiledOptions>>>, Scope;
    /// The merged global and environment lookup_options.
    BaseOptions(base_options): Single<Option<Value>>, Scope;
    /// The global layer's configuration.
    GlobalConfig(global_config): Single<Arc<HieraConfig>>, Configs;
    /// The environment layer's configuration, if any.
    EnvConfig(env_config): Single<Option<Arc<HieraConfig>>>, Configs;
    /// Each module's configuration, if any, by module name.
    ModuleConfigs(module_configs): ByName<Option<Arc<HieraConfig>>>, Configs;
    /// The quick path's global and environment layers; `None` inside:
    /// never ready (always the general path).
    BasePlans(base_plans): Single<Option<Arc<BaseLayers>>>, Own;
    /// The quick path's search plans by module name ("" for keys outside
    /// modules); `None` inside: never ready (always the general path).
    Plans(plans): ByName<Option<Arc<SearchPlan>>>, Own;
}

impl StoreSizes {
    /// The most room a shelf is made with (beyond it, a shelf grows as
    /// it fills): a session that kept many entries does not make every
    /// later one hold as much memory.
    pub(super) const MOST: usize = 4096;
}

impl Session {
    /// The session whose store holds what was computed from `reads`: the
    /// parent when none of them is a variable this overlay changes.
    pub(super) fn keeper(&self, reads: &[Box<str>]) -> &Session {
        match &self.parent {
            Some(p) if !reads.iter().any(|r| self.changed.contains(r)) => p,
            _ => self,
        }
    }

    /// Whether an entry of `owner`'s store that read `reads` is this
    /// session's answer too.
    pub(super) fn sees(&self, owner: &Session, reads: &[Box<str>]) -> bool {
        std::ptr::eq(owner, self) || !reads.iter().any(|r| self.changed.contains(r))
    }

    /// An entry of kind `K` this session may use, and the variables it
    /// read: for [`Sharing::Scope`] its own, then its parent's (whose
    /// entries count only when they read no variable this overlay changes).
    pub(super) fn find<K: Kind>(&self, key: KeyOf<'_, K>) -> Option<(ValueOf<K>, Reads)> {
        match K::SHARING {
            Sharing::Scope => {
                let own = K::shelf(&self.store).find(key, |_| true);
                own.or_else(|| {
                    let parent = self.parent.as_deref()?;
                    K::shelf(&parent.store).find(key, |r| self.sees(parent, r))
                })
            }
            Sharing::Configs => K::shelf(&self.configs().store).find(key, |_| true),
            Sharing::Own => K::shelf(&self.store).find(key, |_| true),
        }
    }

    /// Keeps an entry of kind `K` that read `reads`, in the session that
    /// keeps it ([`Sharing`]); returns the entry kept (the first one kept
    /// for a key stays). What read a [`VOLATILE`] variable is not kept.
    pub(super) fn keep_as<K: Kind>(
        &self,
        key: KeyOf<'_, K>,
        value: ValueOf<K>,
        reads: Reads,
    ) -> ValueOf<K> {
        let owner = match K::SHARING {
            Sharing::Scope if reads.iter().any(|r| &**r == VOLATILE) => return value,
            Sharing::Scope => self.keeper(&reads),
            Sharing::Configs => self.configs(),
            Sharing::Own => self,
        };
        K::shelf(&owner.store).keep(key, value, reads, |r| self.sees(owner, r))
    }

    /// Keeps a module namespace's compiled lookup_options, as
    /// [`Session::keep_as`] keeps [`ModuleOptions`], in a session that is not
    /// an overlay; whether they are the entry kept (`false`: the session had
    /// one, or what read a [`VOLATILE`] variable is not kept).
    pub(super) fn keep_module_options(
        &self,
        module: &str,
        options: Option<Arc<CompiledOptions>>,
        reads: Reads,
    ) -> bool {
        if self.parent.is_some() || reads.iter().any(|r| &**r == VOLATILE) {
            return false;
        }
        let had = std::cell::Cell::new(false);
        self.store.module_options.keep_by(
            module,
            (),
            options,
            reads,
            |_, _| {
                had.set(true);
                true
            },
            |_| true,
        );
        !had.get()
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
        self.store.finished.0.lock().clear();
    }
}

/// The reads of what depends on no variable.
pub(super) fn no_reads() -> Reads {
    Arc::from([])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Map;

    /// The room of a store's finished lookups.
    fn finished_room(session: &Session) -> usize {
        session.store.finished.0.lock().capacity()
    }

    /// Keeps `n` finished lookups in `session`'s store.
    fn keep_finished(session: &Session, n: usize) {
        for i in 0..n {
            let key = format!("k{i}");
            let kept = session.store.finished.keep(
                (key.as_str(), None),
                Some(Value::from("v")),
                no_reads(),
                |_| true,
            );
            assert_eq!(kept, Some(Value::from("v")));
        }
    }

    #[test]
    fn a_top_sessions_store_has_the_room_the_last_one_needed() {
        let dir = std::env::temp_dir().join(format!("libhiera-store-room-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("data")).unwrap();
        std::fs::write(dir.join("hiera.yaml"), "version: 5\n").unwrap();
        std::fs::write(dir.join("data/common.yaml"), "k: v\n").unwrap();
        let h = Arc::new(
            Hiera::open(Options {
                hiera_config: dir.join("hiera.yaml"),
                environmentpath: dir.join("envs"),
                ..Options::default()
            })
            .unwrap(),
        );
        // The first session grows as it keeps.
        let first = Session::new(Arc::clone(&h), Map::default());
        assert_eq!(finished_room(&first), 0);
        keep_finished(&first, 300);
        assert_eq!(first.lookup_key("k").unwrap(), Some(Value::from("v")));
        // An overlay keeps little and leaves the sizes as they are.
        let first = Arc::new(first);
        let mut vars = Map::default();
        vars.insert("x".into(), "y".into());
        let overlay = first.overlay(vars, Map::default(), &[]);
        assert_eq!(finished_room(&overlay), 0);
        drop(overlay);
        drop(first);
        // The next one is made with room for as many, in one table.
        let second = Session::new(Arc::clone(&h), Map::default());
        assert!(finished_room(&second) >= 300, "{}", finished_room(&second));
        keep_finished(&second, 10);
        assert_eq!(second.lookup_key("k").unwrap(), Some(Value::from("v")));
        drop(second);
        // What the last session kept decides: 10 now.
        let third = Session::new(Arc::clone(&h), Map::default());
        let room = finished_room(&third);
        assert!((10..300).contains(&room), "{room}");
        // A session that kept very many does not make the next hold as much.
        keep_finished(&third, StoreSizes::MOST + 1000);
        drop(third);
        let fourth = Session::new(Arc::clone(&h), Map::default());
        let room = finished_room(&fourth);
        assert!(
            (StoreSizes::MOST..2 * StoreSizes::MOST).contains(&room),
            "{room}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
