//! [`PathTable`]: the file cache's map from a path (its bytes) to what is
//! kept for it, laid out for a cache of thousands of small files.
//!
//! A `HashMap<Box<[u8]>, V>` keeps each entry inline in its table, whose
//! size is a power of two at most 7/8 full: with a cache entry of over a
//! hundred bytes, the empty buckets alone cost about as much as the data of
//! a small YAML file (issue 18: 4,607 files of 320 bytes on average took a
//! 1.25 MB table). Here the table holds a 4-byte node number per bucket;
//! the nodes (each its value, its directory's number and its name's place:
//! 8 bytes beside the value) are kept in chunks of 256, and the file names
//! one after another in chunks of 16 KiB, so that a path costs no
//! allocation of its own. A path is kept as its directory, shared by the
//! paths of that directory (a hierarchy level's files are mostly in a few),
//! and its file name; a directory deeper than [`ANCHOR_SLASHES`] levels as
//! its ancestor that deep (its anchor, kept whole, shared by all below it)
//! and the rest of its path, so that the long prefix a control repo's
//! paths share (`/etc/puppetlabs/code/environments/`) is kept once, not
//! once per directory. A path is compared in two pieces at most: its
//! anchor, and the rest.
//!
//! Not synchronised: the cache keeps it behind its lock.

use hashbrown::hash_table::HashTable;
use std::hash::BuildHasher;

/// Nodes a chunk of [`PathTable::nodes`] holds.
const NODE_CHUNK: usize = 256;

/// Bytes a chunk of [`PathTable::names`] holds (a longer name has a chunk
/// of its own); a name's place is its chunk's number shifted by
/// [`NAME_SHIFT`] and its offset in it.
const NAME_SHIFT: u32 = 14;
const NAME_CHUNK: usize = 1 << NAME_SHIFT;

/// A map from path bytes to `V` (see the module).
pub struct PathTable<V> {
    /// Nodes' numbers ([`node`]), hashed by path.
    table: HashTable<u32>,
    /// The nodes, in chunks of [`NODE_CHUNK`]: only the last one grows, so
    /// no more than half a chunk is spare room. (Nodes are never dropped
    /// before the table: see `dirs`.)
    nodes: Vec<Vec<Node<V>>>,
    /// The file names, each after its length (LEB128), in chunks of
    /// [`NAME_CHUNK`] bytes: one allocation per chunk, not per name.
    names: Vec<Vec<u8>>,
    /// The directories of the paths kept and their ancestors, each once
    /// (never dropped: a cache's paths are those of its hierarchies, which
    /// a long-lived cache reads again and again).
    dirs: Vec<Dir>,
    /// The directories' anchors, whole (a few: one an environment).
    anchors: Vec<Box<[u8]>>,
    /// Positions in `dirs`, hashed by directory ([`spread`] of
    /// [`Dir::hash`]).
    dir_index: HashTable<u32>,
    hasher: foldhash::fast::RandomState,
}

/// One entry: the path's directory (up to its last `/`, included: its
/// position in the table's `dirs`), its file name (its place in the
/// table's `names`), and its value.
struct Node<V> {
    dir: u32,
    name: u32,
    value: V,
}

/// A directory (its path up to its last `/`, included; or empty, the
/// directory of a path without a `/`): its anchor's path, then `rest`.
struct Dir {
    /// Its anchor's place in `anchors` ([`WHOLE`]: `rest` is its whole
    /// path).
    anchor: u32,
    /// The rest of its path's place in `names`.
    rest: u32,
    /// Its path's hash, cut to 32 bits (to place it again as the index
    /// grows, without putting its path together).
    hash: u32,
}

/// No anchor: a directory kept whole.
const WHOLE: u32 = u32::MAX;

/// A directory with more `/` than this is kept as its anchor, its prefix
/// up to this many `/` (`/etc/puppetlabs/code/environments/`), and the
/// rest.
const ANCHOR_SLASHES: usize = 5;

/// The most anchors kept (found one by one when a directory is kept: a
/// cache's directories are under a few, its environments' and modules').
const MAX_ANCHORS: usize = 64;

/// The length of the anchor of directory `dir`, when it has one.
fn anchor_len(dir: &[u8]) -> Option<usize> {
    memchr::memchr_iter(b'/', dir)
        .nth(ANCHOR_SLASHES - 1)
        .map(|at| at + 1)
        .filter(|&len| len < dir.len())
}

/// A hash table's hash of a 32-bit hash: spread over 64 bits (one to one),
/// as hashbrown takes its tag from the top bits and its place from the
/// bottom ones.
pub(crate) fn spread(hash: u32) -> u64 {
    u64::from(hash).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// A path's directory (up to its last `/`, included) and file name.
fn split(path: &[u8]) -> (&[u8], &[u8]) {
    path.split_at(memchr::memrchr(b'/', path).map_or(0, |i| i + 1))
}

/// The name at `place` in `names` (see [`PathTable::names`]).
fn name_at(names: &[Vec<u8>], place: u32) -> &[u8] {
    let chunk = &names[(place >> NAME_SHIFT) as usize];
    let mut at = (place & (NAME_CHUNK as u32 - 1)) as usize;
    let mut len = 0usize;
    let mut shift = 0;
    loop {
        let b = chunk[at];
        at += 1;
        len |= usize::from(b & 0x7F) << shift;
        if b < 0x80 {
            break;
        }
        shift += 7;
    }
    &chunk[at..at + len]
}

/// Whether `n` is the entry of `path`.
fn is<V>(dirs: &Dirs<'_>, n: &Node<V>, path: &[u8]) -> bool {
    let name = name_at(dirs.names, n.name);
    path.ends_with(name) && dirs.dir_is(n.dir, &path[..path.len() - name.len()])
}

/// The directories of a [`PathTable`]: what [`dir_is`] and [`dir_path`]
/// read.
struct Dirs<'a> {
    dirs: &'a [Dir],
    anchors: &'a [Box<[u8]>],
    names: &'a [Vec<u8>],
}

impl Dirs<'_> {
    /// Directory `d`'s anchor's path (empty when it has none) and the rest.
    fn parts(&self, d: u32) -> (&[u8], &[u8]) {
        let dir = &self.dirs[d as usize];
        let anchor = match dir.anchor {
            WHOLE => &[][..],
            a => &self.anchors[a as usize][..],
        };
        (anchor, name_at(self.names, dir.rest))
    }

    /// Whether directory `d`'s path is `path`.
    fn dir_is(&self, d: u32, path: &[u8]) -> bool {
        let (anchor, rest) = self.parts(d);
        path.len() == anchor.len() + rest.len() && path.starts_with(anchor) && path.ends_with(rest)
    }

    /// Directory `d`'s path, after what `out` holds.
    fn dir_path(&self, d: u32, out: &mut Vec<u8>) {
        let (anchor, rest) = self.parts(d);
        out.extend_from_slice(anchor);
        out.extend_from_slice(rest);
    }
}

fn node<V>(nodes: &[Vec<Node<V>>], i: u32) -> &Node<V> {
    &nodes[i as usize / NODE_CHUNK][i as usize % NODE_CHUNK]
}

/// The node numbered `i` in `nodes`, to change.
fn node_mut<V>(nodes: &mut [Vec<Node<V>>], i: u32) -> &mut Node<V> {
    &mut nodes[i as usize / NODE_CHUNK][i as usize % NODE_CHUNK]
}

impl<V> Default for PathTable<V> {
    fn default() -> Self {
        PathTable {
            table: HashTable::new(),
            nodes: Vec::new(),
            names: Vec::new(),
            dirs: Vec::new(),
            anchors: Vec::new(),
            dir_index: HashTable::new(),
            hasher: foldhash::fast::RandomState::default(),
        }
    }
}

impl<V> PathTable<V> {
    /// The number of the node of `path`, whose hash is `hash`.
    fn find(&self, hash: u64, path: &[u8]) -> Option<u32> {
        let (dirs, nodes) = (self.view(), &self.nodes);
        self.table
            .find(hash, |&i| is(&dirs, node(nodes, i), path))
            .copied()
    }

    /// The value kept for `path`.
    pub fn get(&self, path: &[u8]) -> Option<&V> {
        let i = self.find(self.hasher.hash_one(path), path)?;
        Some(&node(&self.nodes, i).value)
    }

    /// The value kept for `path`, to change.
    pub fn get_mut(&mut self, path: &[u8]) -> Option<&mut V> {
        let i = self.find(self.hasher.hash_one(path), path)?;
        Some(&mut node_mut(&mut self.nodes, i).value)
    }

    /// Keeps `value` for `path`, replacing (and returning) what was kept.
    pub fn insert(&mut self, path: &[u8], value: V) -> Option<V> {
        let hash = self.hasher.hash_one(path);
        if let Some(i) = self.find(hash, path) {
            return Some(std::mem::replace(
                &mut node_mut(&mut self.nodes, i).value,
                value,
            ));
        }
        let (dir, name) = split(path);
        let dir = self.dir(dir);
        let name = push_name(&mut self.names, name);
        if self.nodes.last().is_none_or(|c| c.len() == NODE_CHUNK) {
            self.nodes.push(Vec::new());
        }
        let chunk = self.nodes.len() - 1;
        let i = u32::try_from(chunk * NODE_CHUNK + self.nodes[chunk].len())
            .expect("a cache of more than 4 billion paths");
        self.nodes[chunk].push(Node { dir, name, value });
        // A path is hashed whole, as it is looked up; when the table grows,
        // each entry's path is put together again to be hashed (an
        // allocation per entry, as often as the table doubles).
        let dirs = Dirs {
            dirs: &self.dirs,
            anchors: &self.anchors,
            names: &self.names,
        };
        let (nodes, hasher) = (&self.nodes, &self.hasher);
        self.table.insert_unique(hash, i, |&j| {
            let n = node(nodes, j);
            let mut path = Vec::new();
            dirs.dir_path(n.dir, &mut path);
            path.extend_from_slice(name_at(dirs.names, n.name));
            hasher.hash_one(&path[..])
        });
        None
    }

    fn view(&self) -> Dirs<'_> {
        Dirs {
            dirs: &self.dirs,
            anchors: &self.anchors,
            names: &self.names,
        }
    }

    /// A directory's hash ([`Dir::hash`]).
    fn dir_hash(&self, dir: &[u8]) -> u32 {
        (self.hasher.hash_one(dir) >> 32) as u32
    }

    /// The place of directory `dir` (a path up to its last `/`, or empty)
    /// in `dirs`, kept (with its anchor) if it was not.
    fn dir(&mut self, dir: &[u8]) -> u32 {
        let hash = self.dir_hash(dir);
        let dirs = self.view();
        if let Some(&d) = self.dir_index.find(spread(hash), |&d| dirs.dir_is(d, dir)) {
            return d;
        }
        let anchored = anchor_len(dir).and_then(|len| Some((self.anchor(&dir[..len])?, len)));
        let (anchor, rest) = match anchored {
            Some((anchor, len)) => (anchor, &dir[len..]),
            None => (WHOLE, dir),
        };
        let rest = push_name(&mut self.names, rest);
        let d = u32::try_from(self.dirs.len())
            .ok()
            .filter(|&d| d != WHOLE)
            .expect("a cache of more than 4 billion directories");
        self.dirs.push(Dir { anchor, rest, hash });
        let dirs = &self.dirs;
        self.dir_index
            .insert_unique(spread(hash), d, |&e| spread(dirs[e as usize].hash));
        d
    }

    /// The place of anchor `path` in `anchors`, kept if it was not; `None`
    /// past [`MAX_ANCHORS`] (the directory is then kept whole).
    fn anchor(&mut self, path: &[u8]) -> Option<u32> {
        if let Some(at) = self.anchors.iter().position(|a| **a == *path) {
            return u32::try_from(at).ok();
        }
        if self.anchors.len() >= MAX_ANCHORS {
            return None;
        }
        self.anchors.push(path.into());
        u32::try_from(self.anchors.len() - 1).ok()
    }

    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// `true` when no path is kept.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }
}

/// Keeps `name` (after its length) in `names`; its place.
fn push_name(names: &mut Vec<Vec<u8>>, name: &[u8]) -> u32 {
    let mut len = [0u8; 10];
    let mut n = name.len();
    let mut used = 0;
    loop {
        let low = (n & 0x7F) as u8;
        n >>= 7;
        len[used] = if n == 0 { low } else { low | 0x80 };
        used += 1;
        if n == 0 {
            break;
        }
    }
    let need = used + name.len();
    if names.last().is_none_or(|c| c.len() + need > NAME_CHUNK) {
        // A new chunk (a name longer than a chunk: one of its own size).
        names.push(Vec::with_capacity(if need > NAME_CHUNK { need } else { 0 }));
    }
    let chunk = names.len() - 1;
    let c = &mut names[chunk];
    if c.capacity() < c.len() + need {
        // Doubling, but never past a chunk.
        let want = (c.capacity() * 2).max(c.len() + need).clamp(64, NAME_CHUNK);
        c.reserve_exact(want - c.len());
    }
    let at = c.len();
    c.extend_from_slice(&len[..used]);
    c.extend_from_slice(name);
    u32::try_from(chunk)
        .ok()
        .filter(|&k| k < (1 << (32 - NAME_SHIFT)))
        .map(|k| (k << NAME_SHIFT) | at as u32)
        .expect("a cache of more than 4 GiB of file names")
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

    /// Against a `HashMap`, through thousands of inserts, replacements and
    /// changes: names empty, short, of every length around a LEB128 byte and
    /// a chunk's size, paths without a `/`, more nodes and names than a
    /// chunk holds.
    /// Directories share their anchor: a long prefix is kept once, and
    /// directories that are prefixes of each other's bytes are told apart.
    #[test]
    fn directories_share_their_anchor() {
        let mut t = PathTable::default();
        let env = "/etc/puppetlabs/code/environments/production";
        for m in 0..100 {
            for f in ["common.yaml", "os/Debian.yaml"] {
                t.insert(format!("{env}/modules/m{m}/data/{f}").as_bytes(), m);
            }
        }
        // One anchor, `/etc/puppetlabs/code/environments/`, and two
        // directories a module.
        assert_eq!((t.anchors.len(), t.dirs.len()), (1, 200));
        // Whole, the 200 directories' paths alone take 12,780 bytes.
        let bytes: usize = t.names.iter().map(Vec::len).sum();
        assert!(bytes < 9_000, "{bytes} bytes of names");
        for m in 0..100 {
            let p = format!("{env}/modules/m{m}/data/os/Debian.yaml");
            assert_eq!(t.get(p.as_bytes()), Some(&m));
        }
        for p in [
            "/etc/puppetlabs/code/environments/production/modules/m1/data/Debian.yaml",
            "/etc/puppetlabs/code/environments/production/modules/m1/os/Debian.yaml",
            "/etc/puppetlabs/code/environments/production/modules/m1data/os/Debian.yaml",
            "etc/puppetlabs/code/environments/production/modules/m1/data/os/Debian.yaml",
            "//etc/puppetlabs/code/environments/production/modules/m1/data/os/Debian.yaml",
        ] {
            assert_eq!(t.get(p.as_bytes()), None, "{p}");
        }
        t.insert(b"a//b", 1);
        t.insert(b"a/b", 2);
        t.insert(b"/a/b", 3);
        assert_eq!(
            (t.get(b"a//b"), t.get(b"a/b"), t.get(b"/a/b")),
            (Some(&1), Some(&2), Some(&3))
        );
    }

    /// Past [`MAX_ANCHORS`] anchors, directories are kept whole, and found.
    #[test]
    fn directories_past_the_anchors_are_kept_whole() {
        let mut t = PathTable::default();
        let path = |i: usize| format!("/r{i}/a/b/c/d/e.yaml");
        for i in 0..MAX_ANCHORS + 10 {
            t.insert(path(i).as_bytes(), i);
        }
        assert_eq!(t.anchors.len(), MAX_ANCHORS);
        assert_eq!(t.dirs.iter().filter(|d| d.anchor == WHOLE).count(), 10);
        for i in 0..MAX_ANCHORS + 10 {
            assert_eq!(t.get(path(i).as_bytes()), Some(&i));
        }
    }

    #[test]
    fn agrees_with_a_hash_map() {
        let mut t = PathTable::default();
        let mut m = std::collections::HashMap::new();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let lens = [
            0,
            1,
            5,
            126,
            127,
            128,
            129,
            300,
            NAME_CHUNK - 3,
            NAME_CHUNK - 2,
            NAME_CHUNK,
            NAME_CHUNK + 7,
        ];
        for i in 0..6000u64 {
            let r = next();
            let name: Vec<u8> = if r % 50 == 0 {
                let len = lens[(r / 50) as usize % lens.len()];
                (0..len)
                    .map(|k| b'a' + ((k as u64 + r) % 26) as u8)
                    .collect()
            } else {
                format!("f{}.yaml", r % 3000).into_bytes()
            };
            let mut path = match r % 7 {
                0 => Vec::new(),
                1 => b"/".to_vec(),
                k => format!("/e/d{}/", (r >> 8) % (k * 40)).into_bytes(),
            };
            path.extend_from_slice(&name);
            assert_eq!(t.insert(&path, i), m.insert(path.clone(), i), "{i}");
            if r % 5 == 0 {
                *t.get_mut(&path).unwrap() += 1;
                *m.get_mut(&path).unwrap() += 1;
            }
        }
        assert_eq!(t.len(), m.len());
        assert!(t.nodes.len() > 2 && t.names.len() > 2, "several chunks");
        for (path, v) in &m {
            assert_eq!(t.get(path), Some(v));
            let mut other = path.clone();
            other.push(b'x');
            assert_eq!(t.get(&other), m.get(&other));
        }
        assert!(t.nodes.iter().all(|c| c.capacity() <= NODE_CHUNK));
        assert!(t
            .names
            .iter()
            .all(|c| c.capacity() <= NAME_CHUNK || c.len() == c.capacity()));
    }

    /// An entry is small: the cache keeps one per file (issue 18).
    #[test]
    fn a_node_is_its_value_and_8_bytes() {
        assert_eq!(std::mem::size_of::<Node<[u64; 7]>>(), 56 + 8);
    }
}
