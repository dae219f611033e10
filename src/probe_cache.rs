//! [`ProbeCache`]: the `stat` results a [`crate::data::FileCache`] trusts for
//! its check interval, kept within a bound however many nodes it serves.
//!
//! The paths a hierarchy probes depend on the node: `nodes/%{trusted.certname}.yaml`
//! is another path for every certname, and for most nodes a missing one. A
//! `Hiera` that lives as long as Puppet Server, or answers a fleet of
//! 10,000 nodes (`hiera-lookup --fleet`), would otherwise keep one result
//! per path any node ever probed: about 700 bytes per node.
//!
//! Results are kept in two generations. When the current generation is
//! full it becomes the previous one (the older one is dropped); a result
//! found in the previous generation moves back into the current one. What
//! nodes share (the common, role or datacenter files, their misses, the
//! module directories) is probed in every generation and stays; a path
//! only one node probed is forgotten two generations later. A generation
//! holds twice what moved back in the one before (what nodes share, and as
//! much room again for each node's own paths), or twice as many results
//! as the one before when most of its probes found nothing kept (what is
//! shared does not fit), at least [`ProbeCache::MIN_LIMIT`] and at most
//! [`ProbeCache::MAX_LIMIT`] results: the cache is sized to what is
//! shared, not to how many nodes came. A forgotten result is only `stat`ed again when its path is probed
//! again (as every probe is without a check interval): answers do not
//! change, and a moved result keeps the time it was taken, so nothing is
//! trusted for longer than the check interval.
//!
//! Not synchronised: the file cache keeps it behind its lock.

use std::collections::HashMap;

type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// A bounded map from path bytes to a `stat` result `V` (see the module).
pub(crate) struct ProbeCache<V> {
    current: FastMap<Box<[u8]>, V>,
    previous: FastMap<Box<[u8]>, V>,
    /// The most results in the current generation.
    limit: usize,
    /// How many results moved back into the current generation.
    moved: usize,
    /// How many probes asked for a result in the current generation, and
    /// how many found none.
    asked: usize,
    missed: usize,
    /// The bounds of `limit`.
    bounds: (usize, usize),
}

impl<V> Default for ProbeCache<V> {
    fn default() -> Self {
        ProbeCache::with_bounds(Self::MIN_LIMIT, Self::MAX_LIMIT)
    }
}

impl<V> ProbeCache<V> {
    /// The fewest results a generation may hold before the next one starts.
    pub(crate) const MIN_LIMIT: usize = 1024;

    /// The most results one generation holds (so at most twice as many
    /// are kept, about 6 MB with paths of 100 bytes): many times what
    /// the nodes of a large control repo share.
    pub(crate) const MAX_LIMIT: usize = 16384;

    /// A cache whose generations hold between `min` and `max` results (at
    /// least 1).
    pub(crate) fn with_bounds(min: usize, max: usize) -> Self {
        let min = min.max(1);
        ProbeCache {
            current: FastMap::default(),
            previous: FastMap::default(),
            limit: min,
            moved: 0,
            asked: 0,
            missed: 0,
            bounds: (min, max.max(min)),
        }
    }

    /// The result kept for `path`, moved into the current generation if it
    /// was in the previous one.
    pub(crate) fn get(&mut self, path: &[u8]) -> Option<&V> {
        self.asked += 1;
        if !self.current.contains_key(path) {
            let Some((k, v)) = self.previous.remove_entry(path) else {
                self.missed += 1;
                return None;
            };
            self.moved += 1;
            self.insert_owned(k, v);
        }
        self.current.get(path)
    }

    /// Keeps `value` for `path`.
    pub(crate) fn insert(&mut self, path: &[u8], value: V) {
        if let Some(v) = self.current.get_mut(path) {
            *v = value;
            return;
        }
        self.previous.remove(path);
        self.insert_owned(path.into(), value);
    }

    fn insert_owned(&mut self, path: Box<[u8]>, value: V) {
        if self.current.len() >= self.limit {
            let wanted = if 2 * self.missed > self.asked {
                2 * self.limit
            } else {
                2 * self.moved
            };
            self.limit = wanted.clamp(self.bounds.0, self.bounds.1);
            (self.moved, self.asked, self.missed) = (0, 0, 0);
            self.previous = std::mem::take(&mut self.current);
        }
        self.current.insert(path, value);
    }

    /// The number of results kept (at most twice [`ProbeCache::MAX_LIMIT`]).
    pub(crate) fn len(&self) -> usize {
        self.current.len() + self.previous.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_what_is_used_and_forgets_what_is_not_within_the_bound() {
        let mut c = ProbeCache::with_bounds(4, 4);
        for i in 0..4u32 {
            c.insert(format!("/shared/{i}").as_bytes(), i);
        }
        // One node's path after another; the shared ones used by each.
        for n in 0..1000u32 {
            c.insert(format!("/nodes/{n}.yaml").as_bytes(), n);
            for i in 0..4u32 {
                assert_eq!(
                    c.get(format!("/shared/{i}").as_bytes()),
                    Some(&i),
                    "node {n}"
                );
            }
            assert!(c.len() <= 8, "{} kept after node {n}", c.len());
        }
        // The last node's path is kept, the first ones long forgotten.
        assert_eq!(c.get(b"/nodes/999.yaml"), Some(&999));
        assert_eq!(c.get(b"/nodes/0.yaml"), None);
        // A new result replaces the old one, in either generation.
        c.insert(b"/shared/1", 10);
        assert_eq!(c.get(b"/shared/1"), Some(&10));
        let mut c = ProbeCache::with_bounds(2, 2);
        c.insert(b"a", 1);
        c.insert(b"b", 2);
        c.insert(b"c", 3); // a and b are now the previous generation
        c.insert(b"a", 4);
        assert_eq!(c.get(b"a"), Some(&4));
        assert_eq!(c.len(), 3);
    }

    #[test]
    fn generations_grow_with_what_is_shared_not_with_the_nodes() {
        let mut c = ProbeCache::with_bounds(8, 1000);
        let mut most = 0;
        for n in 0..5000u32 {
            // 100 paths every node probes, and one of its own.
            for i in 0..100u32 {
                let p = format!("/shared/{i}");
                if c.get(p.as_bytes()).is_none() {
                    assert!(n < 3, "/shared/{i} forgotten at node {n}");
                    c.insert(p.as_bytes(), i);
                }
            }
            c.insert(format!("/nodes/{n}.yaml").as_bytes(), n);
            most = most.max(c.len());
        }
        // Room for what is shared (twice 100 per generation), not 5,000.
        assert!(most <= 2 * 2 * 101, "{most} kept");
        assert!(c.limit >= 100, "{}", c.limit);
    }
}
