//! [`Kept`]: a map that a [`Hiera`] or a [`Session`] keeps for the threads
//! that share it, behind one lock. A panic in another thread while it held
//! the lock (a poisoned lock) loses nothing: every entry is whole, since
//! entries are only inserted or removed, never changed in place.

use super::*;
use std::sync::{Mutex, MutexGuard};

/// A map kept behind a lock, shared by threads.
pub(super) struct Kept<K, V>(Mutex<FastMap<K, V>>);

impl<K, V> Default for Kept<K, V> {
    fn default() -> Self {
        Kept(Mutex::new(FastMap::default()))
    }
}

impl<K, V> Kept<K, V> {
    /// An empty map with room for `n` entries.
    pub(super) fn with_room(n: usize) -> Self {
        Kept(Mutex::new(FastMap::with_capacity_and_hasher(
            n,
            Default::default(),
        )))
    }

    /// How many entries it holds.
    pub(super) fn len(&self) -> usize {
        self.lock().len()
    }

    /// The map, locked for this thread until the guard is dropped.
    pub(super) fn lock(&self) -> MutexGuard<'_, FastMap<K, V>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}
