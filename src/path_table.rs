//! [`PathTable`]: the file cache's map from a path (its bytes) to what is
//! kept for it, laid out for a cache of thousands of small files.
//!
//! A `HashMap<Box<[u8]>, V>` keeps each entry inline in its table, whose
//! size is a power of two at most 7/8 full: with a cache entry of over a
//! hundred bytes, the empty buckets alone cost about as much as the data of
//! a small YAML file (issue 18: 4,607 files of 320 bytes on average took a
//! 1.25 MB table). Here the table holds one pointer per bucket, and each
//! entry, its path and its value, is one allocation of its own size. A path
//! is kept as its directory, shared by the paths of that directory (a
//! hierarchy level's files are mostly in a few) and named in its entry by a
//! 4-byte number, and its file name.
//!
//! Not synchronised: the cache keeps it behind its lock.

use hashbrown::hash_table::{Entry, HashTable};
use std::hash::BuildHasher;

/// A map from path bytes to `V` (see the module).
pub struct PathTable<V> {
    table: HashTable<Box<Node<V>>>,
    /// The directories of the paths kept, each once (never dropped: a
    /// cache's paths are those of its hierarchies, which a long-lived
    /// cache reads again and again).
    dirs: Vec<Box<[u8]>>,
    /// Positions in `dirs`, hashed by directory.
    dir_index: HashTable<u32>,
    hasher: foldhash::fast::RandomState,
}

/// One entry: the path's directory (up to its last `/`, included: its
/// position in the table's `dirs`) and file name, and its value.
struct Node<V> {
    dir: u32,
    name: Box<[u8]>,
    value: V,
}

impl<V> Node<V> {
    /// Whether this is the entry of `path`, in a table of `dirs`.
    fn is(&self, dirs: &[Box<[u8]>], path: &[u8]) -> bool {
        let dir = &dirs[self.dir as usize];
        path.len() == dir.len() + self.name.len()
            && path.ends_with(&self.name)
            && path.starts_with(dir)
    }
}

/// The hash of a node's path, put together again.
fn whole_path_hash<V>(
    hasher: &foldhash::fast::RandomState,
    dirs: &[Box<[u8]>],
    n: &Node<V>,
) -> u64 {
    hasher.hash_one(&*[&*dirs[n.dir as usize], &*n.name].concat())
}

/// A path's directory (up to its last `/`, included) and file name.
fn split(path: &[u8]) -> (&[u8], &[u8]) {
    path.split_at(memchr::memrchr(b'/', path).map_or(0, |i| i + 1))
}

impl<V> Default for PathTable<V> {
    fn default() -> Self {
        PathTable {
            table: HashTable::new(),
            dirs: Vec::new(),
            dir_index: HashTable::new(),
            hasher: foldhash::fast::RandomState::default(),
        }
    }
}

impl<V> PathTable<V> {
    /// The value kept for `path`.
    pub fn get(&self, path: &[u8]) -> Option<&V> {
        let dirs = &self.dirs;
        self.table
            .find(self.hasher.hash_one(path), |n| n.is(dirs, path))
            .map(|n| &n.value)
    }

    /// The value kept for `path`, to change.
    pub fn get_mut(&mut self, path: &[u8]) -> Option<&mut V> {
        let dirs = &self.dirs;
        self.table
            .find_mut(self.hasher.hash_one(path), |n| n.is(dirs, path))
            .map(|n| &mut n.value)
    }

    /// Keeps `value` for `path`, replacing (and returning) what was kept.
    pub fn insert(&mut self, path: &[u8], value: V) -> Option<V> {
        let (dir, name) = split(path);
        let hasher = &self.hasher;
        let dirs = &mut self.dirs;
        // A path is hashed whole, as it is looked up; when the table grows,
        // each entry's path is put together again to be hashed (an
        // allocation per entry, as often as the table doubles).
        match self.table.entry(
            hasher.hash_one(path),
            |n| n.is(dirs, path),
            |n| whole_path_hash(hasher, dirs, n),
        ) {
            Entry::Occupied(mut o) => Some(std::mem::replace(&mut o.get_mut().value, value)),
            Entry::Vacant(v) => {
                let dir = match self.dir_index.entry(
                    hasher.hash_one(dir),
                    |&d| *dirs[d as usize] == *dir,
                    |&d| hasher.hash_one(&*dirs[d as usize]),
                ) {
                    Entry::Occupied(o) => *o.get(),
                    Entry::Vacant(d) => {
                        let at = u32::try_from(dirs.len())
                            .expect("a cache of more than 4 billion directories");
                        dirs.push(dir.into());
                        d.insert(at);
                        at
                    }
                };
                v.insert(Box::new(Node {
                    dir,
                    name: name.into(),
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
        // Paths that differ by where the last `/` is; no `/` at all.
        t.insert(b"/d/x/y", 1);
        t.insert(b"/d/x/", 2);
        t.insert(b"/d/xy", 3);
        t.insert(b"rel", 4);
        t.insert(b"", 5);
        assert_eq!(t.get(b"/d/x/y"), Some(&1));
        assert_eq!(t.get(b"/d/x/"), Some(&2));
        assert_eq!(t.get(b"/d/xy"), Some(&3));
        assert_eq!(t.get(b"rel"), Some(&4));
        assert_eq!(t.get(b""), Some(&5));
        assert_eq!(t.get(b"/d/x"), None);
        // One copy of each directory.
        assert_eq!(t.dirs.len(), 3);
        assert_eq!(t.dir_index.len(), 3);
    }

    /// An entry is small: the cache keeps one per file (issue 18).
    #[test]
    fn a_node_is_its_value_and_24_bytes() {
        assert_eq!(std::mem::size_of::<Node<[u64; 9]>>(), 24 + 72);
    }
}
