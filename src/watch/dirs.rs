//! [`Dirs`]: the directories the watcher armed, by real path, each with the
//! names in it that matter, kept as a tree (issue 18).
//!
//! The directories a cache's paths go through share most of their path:
//! a control repo's hundreds of data directories are all under one
//! environment, and the walk arms every ancestor of each. Keyed by their
//! whole paths they took 57 KB of path bytes on a corpus of 1.1 MB of
//! YAML, and two hash maps (by path, and by watch for the names) 75 KB
//! more. Here a directory is a node: its parent's number and its name,
//! after the names of the others in one array; a hash table of 4-byte node
//! numbers finds a path (hashed whole, then compared name by name up the
//! tree); a sorted list finds the directories of a watch, when an event
//! comes.
//!
//! A path is split at its last `/` into its parent (the bytes before, ""
//! at the top) and its name (the bytes after): `/` is "" and "", `/a` is
//! "" and `a`, `/a//b` is `/a/` and `b`. Any bytes with a `/` are a path
//! here, each with one node, and a path put together from its nodes gives
//! its bytes back.

use crate::path_table::spread;
use hashbrown::hash_table::HashTable;
use std::hash::BuildHasher;

/// No node: the parent of a node at the top.
const TOP: u32 = u32::MAX;

/// A directory with more names of interest than this is watched whole.
pub(super) const MAX_NAMES: usize = 4096;

/// The most names of interest kept in all (beyond it, a directory that
/// gains one is watched whole): what the watcher keeps stays bounded
/// however many paths a long-lived process asks about.
pub(super) const MAX_ALL_NAMES: usize = 65_536;

/// The most devices the directories kept are on (a directory on another
/// one is not kept: it is armed again each time).
const MAX_DEVICES: usize = DEVICE as usize + 1;

/// [`Node::device`]: the device's place, and two flags.
const DEVICE: u16 = 0x3FFF;
/// A directory is kept at the node's path.
const KEPT: u16 = 0x8000;
/// Every name in it matters (its listing was asked for, or it had more
/// than [`MAX_NAMES`] names of interest).
const ALL: u16 = 0x4000;

/// What is kept of a directory armed (the `wd` of -1: it cannot be
/// watched).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Dir {
    pub(super) wd: i32,
    pub(super) dev: u64,
    /// The generation it was armed in, cut to 32 bits (0, never the current
    /// one, past `u32::MAX`: the directory is then armed again each time).
    armed_in: u32,
}

impl Dir {
    /// Whether it was armed in generation `gen` (from 1).
    pub(super) fn armed_in(&self, gen: u64) -> bool {
        self.armed_in != 0 && u64::from(self.armed_in) == gen
    }
}

/// Where a directory is kept ([`Dirs::find_kept`]): its node's number, as
/// long as no directory is set or forgotten.
#[derive(Clone, Copy)]
pub(super) struct DirId(u32);

/// One path: a directory kept, or only the ancestor of one. 40 bytes.
struct Node {
    parent: u32,
    /// Its name's place in [`Dirs::names`].
    name_at: u32,
    /// Its path's hash ([`Dirs::hash`]), to place it again when the index
    /// grows.
    hash: u32,
    wd: i32,
    armed_in: u32,
    name_len: u16,
    /// Its device's place in [`Dirs::devices`] ([`DEVICE`]), [`KEPT`]
    /// and [`ALL`].
    device: u16,
    /// The hashes of the names in it that matter ([`name_hash`]), sorted:
    /// two names of one hash only make a change to either start a
    /// generation (so 32 bits are enough: a collision costs a generation,
    /// never a change missed).
    interest: Box<[u32]>,
}

impl Node {
    fn kept(&self) -> bool {
        self.device & KEPT != 0
    }

    fn all(&self) -> bool {
        self.device & ALL != 0
    }
}

/// The directories armed (see the module).
pub(super) struct Dirs {
    nodes: Vec<Node>,
    /// The nodes' names, one after another.
    names: Vec<u8>,
    /// Node numbers, hashed by their whole path.
    index: HashTable<u32>,
    hasher: foldhash::fast::RandomState,
    /// The devices of the directories, each once.
    devices: Vec<u64>,
    /// The watch and node number of each directory kept with a watch,
    /// sorted.
    by_wd: Vec<(i32, u32)>,
    /// How many nodes keep a directory.
    kept: usize,
    /// How many distinct watches `by_wd` holds.
    watches: usize,
    /// How many names of interest the nodes hold.
    interest: usize,
}

/// The hash a directory keeps of a name of interest.
pub(super) fn name_hash(name: &[u8]) -> u32 {
    let h = BuildHasher::hash_one(&foldhash::quality::FixedState::default(), name);
    (h >> 32) as u32
}

/// A path's parent and name (see the module); `None` without a `/`.
fn split(path: &[u8]) -> Option<(&[u8], &[u8])> {
    let at = memchr::memrchr(b'/', path)?;
    Some((&path[..at], &path[at + 1..]))
}

/// Grows `v` by an eighth (at least 16) when it is full: these vectors
/// grow all through the first compile, and doubling would leave up to
/// half of them spare.
fn reserve<T>(v: &mut Vec<T>, more: usize) {
    if v.len() + more > v.capacity() {
        v.reserve_exact((v.len() / 8).max(16).max(more));
    }
}

impl Default for Dirs {
    fn default() -> Dirs {
        Dirs {
            nodes: Vec::new(),
            names: Vec::new(),
            index: HashTable::new(),
            hasher: Default::default(),
            devices: Vec::new(),
            by_wd: Vec::new(),
            kept: 0,
            watches: 0,
            interest: 0,
        }
    }
}

impl Dirs {
    /// How many directories are kept.
    pub(super) fn len(&self) -> usize {
        self.kept
    }

    /// How many names of interest are kept.
    #[cfg(test)]
    pub(super) fn names(&self) -> usize {
        self.interest
    }

    /// How many watches of directories are kept.
    pub(super) fn watches(&self) -> usize {
        self.watches
    }

    fn name(&self, node: &Node) -> &[u8] {
        let at = node.name_at as usize;
        &self.names[at..at + usize::from(node.name_len)]
    }

    /// Node `n`'s path, into `out` (emptied first).
    fn path_of(&self, n: u32, out: &mut Vec<u8>) {
        let mut up = Vec::new();
        let mut n = n;
        while n != TOP {
            up.push(n);
            n = self.nodes[n as usize].parent;
        }
        out.clear();
        for &n in up.iter().rev() {
            out.push(b'/');
            out.extend_from_slice(self.name(&self.nodes[n as usize]));
        }
    }

    /// A path's hash, as its node keeps it.
    fn hash(&self, path: &[u8]) -> u32 {
        (self.hasher.hash_one(path) >> 32) as u32
    }

    /// Whether node `n`'s path is `path`.
    fn is_at(&self, mut n: u32, mut path: &[u8]) -> bool {
        loop {
            let node = &self.nodes[n as usize];
            // `path` ends in `/` and the node's name (which has no `/`):
            // that `/` is its last.
            let name = self.name(node);
            let Some(parent) = path.len().checked_sub(name.len() + 1) else {
                return false;
            };
            if path[parent] != b'/' || &path[parent + 1..] != name {
                return false;
            }
            if node.parent == TOP {
                return parent == 0;
            }
            n = node.parent;
            path = &path[..parent];
        }
    }

    fn find(&self, path: &[u8]) -> Option<u32> {
        let hash = spread(self.hash(path));
        self.index.find(hash, |&n| self.is_at(n, path)).copied()
    }

    /// The node of `path`, made (with its ancestors) when there is none;
    /// `None` without a `/`, past 4 GiB of names or for a name of 64 KiB.
    fn node(&mut self, path: &[u8]) -> Option<u32> {
        // The missing ancestors (and the path itself), by their length:
        // without recursion, as a path may have thousands of directories.
        let mut missing = Vec::new();
        let mut at = path;
        let mut parent = loop {
            if let Some(n) = self.find(at) {
                break n;
            }
            let (above, _) = split(at)?;
            missing.push(at.len());
            if above.is_empty() {
                break TOP;
            }
            at = above;
        };
        for &len in missing.iter().rev() {
            let path = &path[..len];
            let (_, name) = split(path)?;
            let name_at = u32::try_from(self.names.len()).ok()?;
            let name_len = u16::try_from(name.len()).ok()?;
            let n = u32::try_from(self.nodes.len()).ok().filter(|&n| n != TOP)?;
            reserve(&mut self.names, name.len());
            self.names.extend_from_slice(name);
            reserve(&mut self.nodes, 1);
            let hash = self.hash(path);
            self.nodes.push(Node {
                parent,
                name_at,
                hash,
                wd: -1,
                armed_in: 0,
                name_len,
                device: 0,
                interest: Box::default(),
            });
            let nodes = &self.nodes;
            self.index
                .insert_unique(spread(hash), n, |&m| spread(nodes[m as usize].hash));
            parent = n;
        }
        Some(parent)
    }

    /// The directory kept at `path`.
    pub(super) fn get(&self, path: &[u8]) -> Option<Dir> {
        self.find_kept(path).map(|(_, dir)| dir)
    }

    /// The directory kept at `path`, and where: what [`Dirs::note_in`]
    /// takes, to note a name there without finding the path again.
    pub(super) fn find_kept(&self, path: &[u8]) -> Option<(DirId, Dir)> {
        let n = self.find(path)?;
        let node = &self.nodes[n as usize];
        node.kept().then(|| {
            let dir = Dir {
                wd: node.wd,
                dev: self.devices[usize::from(node.device & DEVICE)],
                armed_in: node.armed_in,
            };
            (DirId(n), dir)
        })
    }

    /// Keeps directory `wd` on `dev` at `path`, armed in generation `gen`.
    /// The names of interest of a directory kept there with the same watch
    /// stay. `false` when it cannot be kept (see [`Dirs::node`], and
    /// [`MAX_DEVICES`]).
    pub(super) fn set(&mut self, path: &[u8], wd: i32, dev: u64, gen: u64) -> bool {
        let device = match self.devices.iter().position(|&d| d == dev) {
            Some(i) => i,
            None if self.devices.len() < MAX_DEVICES => {
                self.devices.push(dev);
                self.devices.len() - 1
            }
            None => return false,
        };
        let Some(n) = self.node(path) else {
            return false;
        };
        let node = &self.nodes[n as usize];
        if !(node.kept() && node.wd == wd) {
            self.unkeep(n);
            if wd >= 0 {
                self.add_watch(wd, n);
            }
            self.kept += 1;
        }
        let node = &mut self.nodes[n as usize];
        node.wd = wd;
        node.device = device as u16 | KEPT | (node.device & ALL);
        node.armed_in = u32::try_from(gen).unwrap_or(0);
        true
    }

    /// Node `n` keeps no directory (nor interest) any more.
    fn unkeep(&mut self, n: u32) {
        let node = &mut self.nodes[n as usize];
        if !node.kept() {
            return;
        }
        node.device &= DEVICE;
        self.interest -= node.interest.len();
        node.interest = Box::default();
        self.kept -= 1;
        let wd = node.wd;
        if wd >= 0 {
            if let Ok(at) = self.by_wd.binary_search(&(wd, n)) {
                self.by_wd.remove(at);
                if !self.has_watch(wd) {
                    self.watches -= 1;
                }
            }
        }
    }

    fn add_watch(&mut self, wd: i32, n: u32) {
        if !self.has_watch(wd) {
            self.watches += 1;
        }
        if let Err(at) = self.by_wd.binary_search(&(wd, n)) {
            reserve(&mut self.by_wd, 1);
            self.by_wd.insert(at, (wd, n));
        }
    }

    /// The nodes of directories watched by `wd`.
    fn of_watch(&self, wd: i32) -> &[(i32, u32)] {
        let from = self.by_wd.partition_point(|&(w, _)| w < wd);
        let to = self.by_wd.partition_point(|&(w, _)| w <= wd);
        &self.by_wd[from..to]
    }

    /// Whether a directory kept is watched by `wd`.
    pub(super) fn has_watch(&self, wd: i32) -> bool {
        !self.of_watch(wd).is_empty()
    }

    /// Whether a directory kept at another path than `path` is watched by
    /// `wd`.
    pub(super) fn shared(&self, wd: i32, path: &[u8]) -> bool {
        self.of_watch(wd).iter().any(|&(_, n)| !self.is_at(n, path))
    }

    /// Forgets every directory watched by `wd`.
    pub(super) fn forget(&mut self, wd: i32) {
        let nodes: Vec<u32> = self.of_watch(wd).iter().map(|&(_, n)| n).collect();
        if nodes.is_empty() {
            return;
        }
        for n in nodes {
            self.unkeep(n);
        }
        self.compact();
    }

    /// Notes `hash` ([`name_hash`]) as a name that matters in the
    /// directory kept at `path`, watched.
    pub(super) fn note(&mut self, path: &[u8], hash: u32) {
        if let Some(n) = self.find(path) {
            self.note_in(DirId(n), hash);
        }
    }

    /// [`Dirs::note`] in the directory `at` ([`Dirs::find_kept`], with
    /// no directory set nor forgotten since).
    pub(super) fn note_in(&mut self, at: DirId, hash: u32) {
        let n = at.0;
        let total = self.interest;
        let node = &mut self.nodes[n as usize];
        if !node.kept() || node.wd < 0 || node.all() {
            return;
        }
        if let Err(at) = node.interest.binary_search(&hash) {
            if node.interest.len() >= MAX_NAMES || total >= MAX_ALL_NAMES {
                self.interest -= node.interest.len();
                node.interest = Box::default();
                node.device |= ALL;
            } else {
                // Exactly as long as it must be: a directory gains names
                // one by one, in its first compile.
                let mut names = std::mem::take(&mut node.interest).into_vec();
                names.reserve_exact(1);
                names.insert(at, hash);
                node.interest = names.into_boxed_slice();
                self.interest += 1;
            }
        }
    }

    /// Every name in the directory kept at `path`, watched, matters.
    pub(super) fn note_all(&mut self, path: &[u8]) {
        let Some(n) = self.find(path) else {
            return;
        };
        let node = &mut self.nodes[n as usize];
        if node.kept() && node.wd >= 0 {
            self.interest -= node.interest.len();
            node.interest = Box::default();
            node.device |= ALL;
        }
    }

    /// Whether a change to the name of `hash` in the directory of watch
    /// `wd` matters: it is of interest there, or `wd` is no directory's
    /// (a file's or link's own watch, or one forgotten: any change
    /// matters).
    pub(super) fn matters(&self, wd: i32, hash: u32) -> bool {
        let nodes = self.of_watch(wd);
        nodes.is_empty()
            || nodes.iter().any(|&(_, n)| {
                let node = &self.nodes[n as usize];
                node.all() || node.interest.binary_search(&hash).is_ok()
            })
    }

    /// Builds the tree again when most of its nodes keep no directory
    /// (directories forgotten), so that it stays bounded by the
    /// directories kept.
    fn compact(&mut self) {
        if self.nodes.len() < 64 || self.nodes.len() < 4 * self.kept {
            return;
        }
        let mut old = std::mem::take(self);
        let mut path = Vec::new();
        for n in 0..old.nodes.len() {
            if !old.nodes[n].kept() {
                continue;
            }
            old.path_of(n as u32, &mut path);
            let node = &mut old.nodes[n];
            let dev = old.devices[usize::from(node.device & DEVICE)];
            if self.set(&path, node.wd, dev, u64::from(node.armed_in)) {
                if let Some(m) = self.find(&path) {
                    let m = &mut self.nodes[m as usize];
                    m.device |= node.device & ALL;
                    m.interest = std::mem::take(&mut node.interest);
                    self.interest += m.interest.len();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every path, however odd its bytes, is its own node and gives its
    /// bytes back; an ancestor kept only as a node is no directory.
    #[test]
    fn paths_are_kept_apart_and_found_again() {
        let paths: [&[u8]; 11] = [
            b"/",
            b"//",
            b"/a",
            b"/a/",
            b"/a//",
            b"/a//b",
            b"/a/b",
            b"/a/b/c",
            b"/ab",
            b"/a/b\xff\x00c",
            b"/.",
        ];
        let mut dirs = Dirs::default();
        for (i, p) in paths.iter().enumerate() {
            assert!(dirs.set(p, i as i32, 7 + i as u64, 1));
        }
        assert_eq!((dirs.len(), dirs.watches()), (paths.len(), paths.len()));
        for (i, p) in paths.iter().enumerate() {
            let d = dirs.get(p).expect("kept");
            assert_eq!((d.wd, d.dev), (i as i32, 7 + i as u64));
            assert!(d.armed_in(1) && !d.armed_in(2));
            let mut back = Vec::new();
            dirs.path_of(dirs.find(p).unwrap(), &mut back);
            assert_eq!(back, *p);
        }
        for p in [&b"/a/b/c/d"[..], b"/b", b"", b"a", b"/a/b/"] {
            assert_eq!(dirs.get(p), None, "{p:?}");
        }
        // An ancestor made as a node only.
        assert!(dirs.set(b"/x/y/z", 100, 1, 1));
        assert_eq!(dirs.get(b"/x/y"), None);
        assert!(!dirs.set(b"no slash", 101, 1, 1));
        // A generation past 32 bits is never the current one.
        assert!(dirs.set(b"/a", 0, 7, u64::from(u32::MAX) + 1));
        assert!(!dirs.get(b"/a").unwrap().armed_in(u64::from(u32::MAX) + 1));
    }

    #[test]
    fn names_of_interest_are_by_watch() {
        let mut dirs = Dirs::default();
        assert!(dirs.set(b"/d", 5, 1, 1));
        dirs.note(b"/d", name_hash(b"common.yaml"));
        assert!(dirs.matters(5, name_hash(b"common.yaml")));
        assert!(!dirs.matters(5, name_hash(b"log.txt")));
        // A watch of no directory: any change matters.
        assert!(dirs.matters(6, name_hash(b"log.txt")));
        // Armed again under the same watch: the names stay.
        assert!(dirs.set(b"/d", 5, 1, 2));
        assert!(!dirs.matters(5, name_hash(b"log.txt")));
        assert!(dirs.matters(5, name_hash(b"common.yaml")));
        // A second path to the same directory (a bind mount): its names
        // matter too, and the watch is counted once.
        assert!(dirs.set(b"/e", 5, 1, 2));
        dirs.note(b"/e", name_hash(b"log.txt"));
        assert!(dirs.matters(5, name_hash(b"log.txt")));
        assert_eq!(dirs.watches(), 1);
        assert!(dirs.shared(5, b"/d") && dirs.shared(5, b"/e"));
        // The path is another directory now: its old names go.
        assert!(dirs.set(b"/d", 9, 1, 3));
        assert!(!dirs.shared(5, b"/e"));
        assert!(!dirs.matters(9, name_hash(b"common.yaml")));
        assert_eq!((dirs.watches(), dirs.names()), (2, 1));
        dirs.note_all(b"/d");
        assert!(dirs.matters(9, name_hash(b"anything")));
        // Forgotten: no directory, and the names counted out.
        dirs.forget(5);
        assert_eq!(dirs.get(b"/e"), None);
        assert_eq!((dirs.len(), dirs.watches(), dirs.names()), (1, 1, 0));
        // Unwatchable: no names kept.
        assert!(dirs.set(b"/nfs", -1, 2, 3));
        dirs.note(b"/nfs", name_hash(b"x"));
        assert_eq!((dirs.watches(), dirs.names()), (1, 0));
    }

    #[test]
    fn too_many_names_watch_the_directory_whole() {
        let mut dirs = Dirs::default();
        assert!(dirs.set(b"/nodes", 1, 1, 1));
        for i in 0..=MAX_NAMES {
            dirs.note(b"/nodes", name_hash(format!("n{i}.yaml").as_bytes()));
        }
        assert_eq!(dirs.names(), 0);
        assert!(dirs.matters(1, name_hash(b"other")));
    }

    /// Forgetting most directories builds the tree again, small, with
    /// what the others keep.
    #[test]
    fn forgotten_directories_are_let_go() {
        let mut dirs = Dirs::default();
        for i in 0..200 {
            let path = format!("/env/data/level{i}");
            assert!(dirs.set(path.as_bytes(), i + 1, 1, 4));
            dirs.note(path.as_bytes(), name_hash(b"common.yaml"));
        }
        assert!(dirs.nodes.len() > 200);
        for wd in 1..=190 {
            dirs.forget(wd);
        }
        assert_eq!((dirs.len(), dirs.watches(), dirs.names()), (10, 10, 10));
        // Built again when a quarter were kept (50 of 202 nodes).
        assert_eq!(dirs.nodes.len(), 52);
        for i in 190..200 {
            let d = dirs.get(format!("/env/data/level{i}").as_bytes()).unwrap();
            assert_eq!(d.wd, i + 1);
            assert!(d.armed_in(4));
            assert!(dirs.matters(d.wd, name_hash(b"common.yaml")));
            assert!(!dirs.matters(d.wd, name_hash(b"other.yaml")));
        }
        assert_eq!(dirs.get(b"/env/data/level3"), None);
    }
}

#[cfg(test)]
mod model_tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    /// What the model keeps of a directory.
    #[derive(Clone, Debug)]
    struct M {
        wd: i32,
        dev: u64,
        gen: u64,
        names: BTreeSet<u32>,
        all: bool,
    }

    fn check(d: &Dirs, m: &BTreeMap<Vec<u8>, M>) {
        assert_eq!(d.len(), m.len());
        let wds: BTreeSet<i32> = m.values().filter(|x| x.wd >= 0).map(|x| x.wd).collect();
        assert_eq!(d.watches(), wds.len());
        assert_eq!(d.names(), m.values().map(|x| x.names.len()).sum::<usize>());
        assert_eq!(d.by_wd.len(), m.values().filter(|x| x.wd >= 0).count());
        for (p, x) in m {
            let g = d.get(p).expect("kept");
            assert_eq!((g.wd, g.dev), (x.wd, x.dev));
            assert!(g.armed_in(x.gen));
            let n = d.find(p).unwrap();
            assert_eq!(d.nodes[n as usize].all(), x.all);
        }
        for &wd in &wds {
            for h in 0..8u32 {
                let want = m
                    .values()
                    .any(|x| x.wd == wd && (x.all || x.names.contains(&h)));
                assert_eq!(d.matters(wd, h), want);
            }
        }
    }

    /// Random sets, notes and forgets on odd paths, checked against a map
    /// of paths (with the tree built again on the way).
    #[test]
    fn matches_a_model_through_random_changes() {
        let comps: [&[u8]; 4] = [b"a", b"", b"bb", b"."];
        let mut rng = 99u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut d = Dirs::default();
        let mut m: BTreeMap<Vec<u8>, M> = BTreeMap::new();
        let mut compactions = 0;
        for step in 0..40000 {
            let depth = (next() % 5) as usize;
            let mut p = Vec::new();
            for _ in 0..=depth {
                p.push(b'/');
                p.extend_from_slice(comps[(next() % 4) as usize]);
            }
            let op = next() % 10;
            let gen = 1 + step / 100;
            match op {
                0..=3 => {
                    let wd = (next() % 40) as i32 - 5;
                    let wd = if wd < 0 { -1 } else { wd };
                    let dev = next() % 3;
                    assert!(d.set(&p, wd, dev, gen));
                    let e = m.entry(p.clone()).or_insert(M {
                        wd,
                        dev,
                        gen,
                        names: BTreeSet::new(),
                        all: false,
                    });
                    if e.wd != wd {
                        e.names.clear();
                        e.all = false;
                    }
                    e.wd = wd;
                    e.dev = dev;
                    e.gen = gen;
                }
                4..=6 => {
                    let h = (next() % 8) as u32;
                    d.note(&p, h);
                    if let Some(e) = m.get_mut(&p) {
                        if e.wd >= 0 && !e.all {
                            e.names.insert(h);
                        }
                    }
                }
                7 => {
                    d.note_all(&p);
                    if let Some(e) = m.get_mut(&p) {
                        if e.wd >= 0 {
                            e.names.clear();
                            e.all = true;
                        }
                    }
                }
                _ => {
                    let wd = (next() % 40) as i32;
                    let before = d.nodes.len();
                    d.forget(wd);
                    if d.nodes.len() < before {
                        compactions += 1;
                    }
                    m.retain(|_, e| e.wd != wd);
                }
            }
            if step % 53 == 0 {
                check(&d, &m);
            }
        }
        check(&d, &m);
        assert!(compactions > 10);
    }
}
