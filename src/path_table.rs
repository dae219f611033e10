//! [`PathTable`]: the file cache's map from a path (its bytes) to what is
//! kept for it, laid out for a cache of thousands of small files.
//!
//! A `HashMap<Box<[u8]>, V>` keeps each entry inline in its table, whose
//! size is a power of two at most 7/8 full: with a cache entry of over a
//! hundred bytes, the empty buckets alone cost about as much as the data of
//! a small YAML file (issue 18: 4,607 files of 320 bytes on average took a
//! 1.25 MB table). Here the table holds one pointer per bucket, and each
//! entry, its path and its value, is one allocation of its own size.
//!
//! Not synchronised: the cache keeps it behind its lock.

use hashbrown::hash_table::{Entry, HashTable};
use std::hash::BuildHasher;

/// A map from path bytes to `V` (see the module).
pub struct PathTable<V> {
    table: HashTable<Box<Node<V>>>,
    hasher: foldhash::fast::RandomState,
}

/// One entry: the path's bytes and its value.
struct Node<V> {
    path: Box<[u8]>,
    value: V,
}

impl<V> Default for PathTable<V> {
    fn default() -> Self {
        PathTable {
            table: HashTable::new(),
            hasher: foldhash::fast::RandomState::default(),
        }
    }
}

impl<V> PathTable<V> {
    fn hash(&self, path: &[u8]) -> u64 {
        self.hasher.hash_one(path)
    }

    /// The value kept for `path`.
    pub fn get(&self, path: &[u8]) -> Option<&V> {
        self.table
            .find(self.hash(path), |n| *n.path == *path)
            .map(|n| &n.value)
    }

    /// The value kept for `path`, to change.
    pub fn get_mut(&mut self, path: &[u8]) -> Option<&mut V> {
        let hash = self.hash(path);
        self.table
            .find_mut(hash, |n| *n.path == *path)
            .map(|n| &mut n.value)
    }

    /// Keeps `value` for `path`, replacing (and returning) what was kept.
    pub fn insert(&mut self, path: &[u8], value: V) -> Option<V> {
        let hash = self.hash(path);
        let hasher = &self.hasher;
        match self
            .table
            .entry(hash, |n| *n.path == *path, |n| hasher.hash_one(&*n.path))
        {
            Entry::Occupied(mut o) => Some(std::mem::replace(&mut o.get_mut().value, value)),
            Entry::Vacant(v) => {
                v.insert(Box::new(Node {
                    path: path.into(),
                    value,
                }));
                None
            }
        }
    }

    /// The number of paths kept.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// `true` when no path is kept.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_replaces_and_finds_paths() {
        let mut t = PathTable::default();
        assert!(t.is_empty());
        for i in 0..1000 {
            assert_eq!(t.insert(format!("/d/{i}.yaml").as_bytes(), i), None);
        }
        assert_eq!(t.len(), 1000);
        assert_eq!(t.insert(b"/d/7.yaml", 70), Some(7));
        assert_eq!(t.len(), 1000);
        for i in 0..1000 {
            let want = if i == 7 { 70 } else { i };
            assert_eq!(t.get(format!("/d/{i}.yaml").as_bytes()), Some(&want));
        }
        assert_eq!(t.get(b"/d/1000.yaml"), None);
        assert_eq!(t.get(b"/d/1.yam"), None);
        *t.get_mut(b"/d/3.yaml").unwrap() += 1;
        assert_eq!(t.get(b"/d/3.yaml"), Some(&4));
        assert!(t.get_mut(b"/e/3.yaml").is_none());
    }
}
