//! [`Map`]: the ordered hash of a Hash [`Value`], as Ruby's `Hash`.
//!
//! Insertion order is kept and significant; keys are compared with Ruby's
//! `eql?` (see [`Value`]'s `PartialEq` and `Hash`). Most hashes Hiera reads
//! are small (a data file's median is two keys, nested hashes a handful), so
//! a map is a vector of entries searched linearly, and only a map of more than
//! [`INDEXED`] entries keeps a hash index beside it. That saves an allocation,
//! a hash table and a hash per entry for the small ones: less memory in the
//! file cache and cheaper copies when a merge copies a hash on write.
//!
//! The methods are named as `indexmap::IndexMap`'s, which this type replaced.

use crate::value::Value;
use hashbrown::hash_table::{Entry, HashTable};
use indexmap::Equivalent;
use std::hash::{BuildHasher, Hash};
use std::sync::OnceLock;

/// Maps with more entries than this keep a hash index.
pub const INDEXED: usize = 8;

/// Positions below this fit a narrow slot of the index (see [`Index`]).
const NARROW: usize = 1 << 16;

/// An ordered hash of [`Value`]s to [`Value`]s (Ruby's `Hash`).
///
/// 24 bytes (issue 18: one per Hash of the file cache, behind its `Arc`):
/// a small map is its entries' `Vec` alone; a map of more than [`INDEXED`]
/// entries boxes its entries with their hash index (`Big`), the enum's
/// tag kept in the `Vec`'s capacity (which never reaches `isize::MAX`).
#[derive(Clone)]
pub struct Map(Repr);

#[derive(Clone)]
enum Repr {
    /// At most [`INDEXED`] entries (searched linearly).
    Small(Vec<(Value, Value)>),
    /// More than [`INDEXED`] entries, and their index.
    Big(Box<Big>),
}

/// The entries of a map of more than [`INDEXED`] entries and their hash
/// index (positions in `entries`, hashed by key).
#[derive(Clone)]
struct Big {
    entries: Vec<(Value, Value)>,
    index: Index,
}

impl Default for Map {
    fn default() -> Map {
        Map::EMPTY
    }
}

/// The hash index of a map: each entry's position in a 4-byte slot (issue
/// 18: the slots are most of an index's bytes in the file cache).
///
/// A narrow slot (a map that has not had more than [`NARROW`] entries)
/// holds the position in its low 16 bits and the low 16 bits of the key's
/// hash in its high ones: the table's hash of a key is made of those 16
/// bits alone ([`narrow`]), so that growing the index or copying it into a
/// merge's result hashes no key again. A wide slot is the position alone,
/// and the keys are hashed again when the table grows.
#[derive(Clone)]
struct Index {
    table: HashTable<u32>,
    wide: bool,
}

/// A key's 32-bit hash (foldhash, randomly seeded once per process).
fn hash_of<Q: Hash + ?Sized>(key: &Q) -> u32 {
    static STATE: OnceLock<foldhash::fast::RandomState> = OnceLock::new();
    let h = STATE.get_or_init(Default::default).hash_one(key);
    (h ^ (h >> 32)) as u32
}

/// The table's hash of a key's 32-bit hash, for a wide index: its bits in
/// both halves (the table takes a slot's position from the low bits and a
/// tag from the top ones).
fn spread(hash: u32) -> u64 {
    (u64::from(hash) << 32) | u64::from(hash)
}

/// The table's hash of a key's 32-bit hash, for a narrow index: of its low
/// 16 bits only (what a narrow slot keeps), in the low bits as they are and
/// mixed into the top ones (the tag then depends on all 16).
#[inline]
fn narrow(hash: u32) -> u64 {
    let h = u64::from(hash & 0xffff);
    h | (h.wrapping_mul(0x9e37_79b9_7f4a_7c15) & !0xffff)
}

/// The table's hash of a key whose 32-bit hash is `hash`.
#[inline]
fn table_hash(wide: bool, hash: u32) -> u64 {
    if wide {
        spread(hash)
    } else {
        narrow(hash)
    }
}

/// The position a slot holds.
#[inline]
fn at(wide: bool, slot: u32) -> usize {
    if wide {
        slot as usize
    } else {
        (slot & 0xffff) as usize
    }
}

/// The slot of position `at` for a key whose hash is `hash`.
#[inline]
fn slot(wide: bool, at: usize, hash: u32) -> u32 {
    if wide {
        position(at)
    } else {
        debug_assert!(at < NARROW);
        at as u32 | (hash << 16)
    }
}

/// The table's hash of each slot, as growing the table needs it: from the
/// slot for a narrow index, from the key in `entries` for a wide one.
fn rehash(wide: bool, entries: &[(Value, Value)]) -> impl Fn(&u32) -> u64 + '_ {
    move |&s| {
        if wide {
            spread(hash_of(&entries[s as usize].0))
        } else {
            narrow(s >> 16)
        }
    }
}

fn position(i: usize) -> u32 {
    u32::try_from(i).expect("a Hash of more than 4 billion entries")
}

impl Index {
    /// An empty index with room for `n` entries.
    fn with_capacity(n: usize, wide: bool) -> Index {
        Index {
            table: HashTable::with_capacity(n),
            wide,
        }
    }

    /// The index of `entries`, with room for `capacity`: wide when a
    /// position does not fit a narrow slot.
    fn of(entries: &[(Value, Value)], capacity: usize) -> Index {
        let wide = entries.len() > NARROW;
        let mut index = Index::with_capacity(capacity.max(entries.len()), wide);
        for (i, (k, _)) in entries.iter().enumerate() {
            let hash = hash_of(k);
            index.table.insert_unique(
                table_hash(wide, hash),
                slot(wide, i, hash),
                rehash(wide, entries),
            );
        }
        index
    }
}

impl Map {
    /// The empty map, as a constant.
    pub const EMPTY: Map = Map(Repr::Small(Vec::new()));

    /// The entries in order.
    #[inline]
    fn entries(&self) -> &Vec<(Value, Value)> {
        match &self.0 {
            Repr::Small(entries) => entries,
            Repr::Big(big) => &big.entries,
        }
    }

    /// The entries in order, to change.
    #[inline]
    fn entries_mut(&mut self) -> &mut Vec<(Value, Value)> {
        match &mut self.0 {
            Repr::Small(entries) => entries,
            Repr::Big(big) => &mut big.entries,
        }
    }

    /// The hash index, kept when there are more than [`INDEXED`] entries.
    #[inline]
    fn index(&self) -> Option<&Index> {
        match &self.0 {
            Repr::Small(_) => None,
            Repr::Big(big) => Some(&big.index),
        }
    }

    /// A map of `entries` and their `index`, if they have one.
    fn of_parts(entries: Vec<(Value, Value)>, index: Option<Index>) -> Map {
        match index {
            None => Map(Repr::Small(entries)),
            Some(index) => Map(Repr::Big(Box::new(Big { entries, index }))),
        }
    }

    /// Drops the hash index (the entries stay).
    fn unindex(&mut self) {
        if let Repr::Big(big) = &mut self.0 {
            let entries = std::mem::take(&mut big.entries);
            self.0 = Repr::Small(entries);
        }
    }

    /// Entries and their `index` (replacing any).
    fn set_index(&mut self, index: Index) {
        match &mut self.0 {
            Repr::Big(big) => big.index = index,
            Repr::Small(entries) => {
                let entries = std::mem::take(entries);
                self.0 = Repr::Big(Box::new(Big { entries, index }));
            }
        }
    }

    /// An empty map.
    pub fn new() -> Map {
        Map::default()
    }

    /// An empty map with room for `n` entries.
    pub fn with_capacity(n: usize) -> Map {
        Map::of_parts(
            Vec::with_capacity(n),
            (n > INDEXED).then(|| Index::with_capacity(n, false)),
        )
    }

    /// Whether the map has a hash index (more than [`INDEXED`] entries, or
    /// sized for them and not shrunk).
    #[cfg(test)]
    pub(crate) fn is_indexed(&self) -> bool {
        matches!(self.0, Repr::Big(_))
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries().len()
    }

    /// The number of entries the map has room for without allocating.
    pub fn capacity(&self) -> usize {
        self.entries().capacity()
    }

    /// `true` when the map has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries().is_empty()
    }

    /// The position of `key`.
    pub fn get_index_of<Q: ?Sized + Hash + Equivalent<Value>>(&self, key: &Q) -> Option<usize> {
        match &self.0 {
            Repr::Small(entries) => entries.iter().position(|(k, _)| key.equivalent(k)),
            Repr::Big(big) => {
                let wide = big.index.wide;
                big.index
                    .table
                    .find(table_hash(wide, hash_of(key)), |&s| {
                        key.equivalent(&big.entries[at(wide, s)].0)
                    })
                    .map(|&s| at(wide, s))
            }
        }
    }

    /// The value of `key`.
    pub fn get<Q: ?Sized + Hash + Equivalent<Value>>(&self, key: &Q) -> Option<&Value> {
        self.get_index_of(key).map(|i| &self.entries()[i].1)
    }

    /// The value of `key`, to change.
    pub fn get_mut<Q: ?Sized + Hash + Equivalent<Value>>(&mut self, key: &Q) -> Option<&mut Value> {
        self.get_index_of(key).map(|i| &mut self.entries_mut()[i].1)
    }

    /// The position, key and value of `key`.
    pub fn get_full<Q: ?Sized + Hash + Equivalent<Value>>(
        &self,
        key: &Q,
    ) -> Option<(usize, &Value, &Value)> {
        let entries = self.entries();
        self.get_index_of(key)
            .map(|i| (i, &entries[i].0, &entries[i].1))
    }

    /// The stored key equal to `key`, and its value.
    pub fn get_key_value<Q: ?Sized + Hash + Equivalent<Value>>(
        &self,
        key: &Q,
    ) -> Option<(&Value, &Value)> {
        let entries = self.entries();
        self.get_index_of(key)
            .map(|i| (&entries[i].0, &entries[i].1))
    }

    /// `true` when the map has `key`.
    pub fn contains_key<Q: ?Sized + Hash + Equivalent<Value>>(&self, key: &Q) -> bool {
        self.get_index_of(key).is_some()
    }

    /// The entry at position `i`.
    pub fn get_index(&self, i: usize) -> Option<(&Value, &Value)> {
        self.entries().get(i).map(|(k, v)| (k, v))
    }

    /// The entry at position `i`, its value to change.
    pub fn get_index_mut(&mut self, i: usize) -> Option<(&Value, &mut Value)> {
        self.entries_mut().get_mut(i).map(|(k, v)| (&*k, v))
    }

    /// The first entry.
    pub fn first(&self) -> Option<(&Value, &Value)> {
        self.get_index(0)
    }

    /// The last entry.
    pub fn last(&self) -> Option<(&Value, &Value)> {
        self.entries().last().map(|(k, v)| (k, v))
    }

    /// Sets `key` to `value`: a key already present keeps its position and
    /// its stored key, and its old value is returned; a new key goes last.
    pub fn insert(&mut self, key: Value, value: Value) -> Option<Value> {
        self.insert_full(key, value).1
    }

    /// [`Map::insert`], with the position of the key.
    pub fn insert_full(&mut self, key: Value, value: Value) -> (usize, Option<Value>) {
        let end = self.len();
        if end >= NARROW {
            self.widen();
        }
        match &mut self.0 {
            Repr::Small(entries) => {
                if let Some(i) = entries.iter().position(|(k, _)| *k == key) {
                    return (i, Some(std::mem::replace(&mut entries[i].1, value)));
                }
                entries.push((key, value));
                if entries.len() > INDEXED {
                    self.build_index();
                }
                (end, None)
            }
            Repr::Big(big) => {
                let Big { entries, index } = &mut **big;
                let wide = index.wide;
                let hash = hash_of(&key);
                let found = match index.table.entry(
                    table_hash(wide, hash),
                    |&s| entries[at(wide, s)].0 == key,
                    rehash(wide, entries),
                ) {
                    Entry::Occupied(o) => Some(at(wide, *o.get())),
                    Entry::Vacant(v) => {
                        v.insert(slot(wide, end, hash));
                        None
                    }
                };
                match found {
                    Some(i) => (i, Some(std::mem::replace(&mut entries[i].1, value))),
                    None => {
                        entries.push((key, value));
                        (end, None)
                    }
                }
            }
        }
    }

    /// Adds an entry whose key the map does not have (checked only in debug
    /// builds): no search for it. A key already present would be stored
    /// twice, so this is for the crate's merges, which know.
    pub(crate) fn insert_unique(&mut self, key: Value, value: Value) {
        debug_assert!(
            !self.contains_key(&key),
            "insert_unique of a present key {key:?}"
        );
        let end = self.len();
        if end >= NARROW {
            self.widen();
        }
        match &mut self.0 {
            Repr::Small(entries) => {
                entries.push((key, value));
                if entries.len() > INDEXED {
                    self.build_index();
                }
            }
            Repr::Big(big) => {
                let Big { entries, index } = &mut **big;
                let wide = index.wide;
                let hash = hash_of(&key);
                index.table.insert_unique(
                    table_hash(wide, hash),
                    slot(wide, end, hash),
                    rehash(wide, entries),
                );
                entries.push((key, value));
            }
        }
    }

    /// A map of the same keys in the same order, each value `f(key, value)`,
    /// with room for `extra` more entries. The hash index is copied, not
    /// built again. The first error of `f` is returned.
    pub fn try_map_values<E>(
        &self,
        extra: usize,
        mut f: impl FnMut(&Value, &Value) -> Result<Value, E>,
    ) -> Result<Map, E> {
        let mut entries = Vec::with_capacity(self.len() + extra);
        for (k, v) in self.entries() {
            entries.push((k.clone(), f(k, v)?));
        }
        let mut out = Map::of_parts(entries, self.index().cloned());
        if let Repr::Big(big) = &mut out.0 {
            let wide = big.index.wide;
            big.index.table.reserve(extra, rehash(wide, &big.entries));
        }
        Ok(out)
    }

    /// Removes `key`, shifting the entries after it (order is kept), and
    /// returns its value.
    /// O(n), as `IndexMap`'s: the index's later positions are shifted down,
    /// no key is hashed again.
    pub fn shift_remove<Q: ?Sized + Hash + Equivalent<Value>>(&mut self, key: &Q) -> Option<Value> {
        let i = self.get_index_of(key)?;
        let (_, value) = self.entries_mut().remove(i);
        match &mut self.0 {
            Repr::Big(big) if big.entries.len() > INDEXED => {
                let index = &mut big.index;
                let wide = index.wide;
                index.table.retain(|&mut s| at(wide, s) != i);
                for s in index.table.iter_mut() {
                    if at(wide, *s) > i {
                        // The position is the slot's low bits, at least 1.
                        *s -= 1;
                    }
                }
            }
            _ => self.unindex(),
        }
        Some(value)
    }

    /// Keeps the entries for which `keep(key, value)` is true, in order.
    /// A narrow index, if kept, is rebuilt from the stored hashes (no key is
    /// hashed again).
    pub fn retain<F: FnMut(&Value, &mut Value) -> bool>(&mut self, mut keep: F) {
        let before = self.len();
        let big = match &mut self.0 {
            Repr::Small(entries) => {
                entries.retain_mut(|(k, v)| keep(k, v));
                return;
            }
            Repr::Big(big) => &mut **big,
        };
        if big.index.wide {
            big.entries.retain_mut(|(k, v)| keep(k, v));
            let after = big.entries.len();
            if after != before {
                if after > INDEXED {
                    self.build_index();
                } else {
                    self.unindex();
                }
            }
            return;
        }
        let mut hashes = vec![0u32; before];
        for &s in big.index.table.iter() {
            hashes[at(false, s)] = s >> 16;
        }
        let mut i = 0;
        let mut kept = Vec::with_capacity(before);
        big.entries.retain_mut(|(k, v)| {
            let keep = keep(k, v);
            if keep {
                kept.push(hashes[i]);
            }
            i += 1;
            keep
        });
        let after = big.entries.len();
        if after == before {
            // The index holds as it is.
        } else if after > INDEXED {
            let mut index = Index::with_capacity(big.entries.capacity(), false);
            for (i, hash) in kept.into_iter().enumerate() {
                index.table.insert_unique(
                    narrow(hash),
                    slot(false, i, hash),
                    rehash(false, &big.entries),
                );
            }
            big.index = index;
        } else {
            self.unindex();
        }
    }

    /// Removes the last entry.
    pub fn pop(&mut self) -> Option<(Value, Value)> {
        let entry = self.entries_mut().pop()?;
        let last = self.len();
        if last <= INDEXED {
            self.unindex();
        } else if let Repr::Big(big) = &mut self.0 {
            let index = &mut big.index;
            let wide = index.wide;
            if let Ok(found) = index
                .table
                .find_entry(table_hash(wide, hash_of(&entry.0)), |&s| {
                    at(wide, s) == last
                })
            {
                found.remove();
            }
        }
        Some(entry)
    }

    /// Room for `n` more entries.
    pub fn reserve(&mut self, n: usize) {
        match &mut self.0 {
            Repr::Small(entries) => {
                entries.reserve(n);
                if entries.len() + n > INDEXED {
                    self.build_index();
                }
            }
            Repr::Big(big) => {
                big.entries.reserve(n);
                let wide = big.index.wide;
                big.index.table.reserve(n, rehash(wide, &big.entries));
            }
        }
    }

    /// Frees unused capacity, and the index of a map of at most
    /// [`INDEXED`] entries (one sized for more, whose repeated keys left
    /// fewer, is searched as a small one is).
    pub fn shrink_to_fit(&mut self) {
        if self.len() <= INDEXED {
            self.unindex();
        }
        match &mut self.0 {
            Repr::Small(entries) => entries.shrink_to_fit(),
            Repr::Big(big) => {
                big.entries.shrink_to_fit();
                let wide = big.index.wide;
                big.index.table.shrink_to_fit(rehash(wide, &big.entries));
            }
        }
    }

    /// The entries in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter(self.entries().iter())
    }

    /// The entries in order, their values to change.
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        IterMut(self.entries_mut().iter_mut())
    }

    /// The entries in order, keys and values to change. The caller must not
    /// change a key's hash or equality (interning a key, for one, keeps both).
    pub(crate) fn iter_mut_keys(&mut self) -> impl Iterator<Item = (&mut Value, &mut Value)> {
        self.entries_mut().iter_mut().map(|(k, v)| (k, v))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator + Clone {
        self.entries().iter().map(|(k, _)| k)
    }

    /// The values in order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator + Clone {
        self.entries().iter().map(|(_, v)| v)
    }

    /// The values in order, to change.
    pub fn values_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = &mut Value> + ExactSizeIterator {
        self.entries_mut().iter_mut().map(|(_, v)| v)
    }

    /// The keys a chain of merges gives `maps` (highest priority first, as
    /// a lookup finds them), each with a Nil value: the last map's keys in
    /// its order, then each earlier map's keys that no later one has, in its
    /// order. That is the order of `merge(...merge(maps[0] into maps[1])...
    /// into maps[m-1])` when each merge keeps its destination's order and
    /// appends its source's new keys.
    ///
    /// `present` (`m` entries per key of the result, zero on entry, at least
    /// `m` times the maps' total length) is filled in: `present[p * m + i]`
    /// is one more than the position of key `p` in `maps[i]`, 0 when
    /// `maps[i]` lacks it. No key is hashed for a map that has it at the
    /// same position as the result (as nested hashes of one shape do).
    pub(crate) fn merged_keys(maps: &[&Map], present: &mut [u32]) -> Map {
        let m = maps.len();
        let lowest = maps[m - 1];
        let others: usize = maps[..m - 1].iter().map(|h| h.len()).sum();
        let capacity = lowest.len() + others / 2;
        let mut out = Map::of_parts(
            Vec::with_capacity(capacity),
            // The lowest map's index, with room: its keys are the first, at
            // the same positions.
            lowest.index().map(|index| {
                let wide = index.wide;
                let mut room = Index::with_capacity(capacity, wide);
                let rehash = rehash(wide, lowest.entries());
                for s in index.table.iter() {
                    room.table.insert_unique(rehash(s), *s, &rehash);
                }
                room
            }),
        );
        // Written in place (a pushed pair was built on the stack and read
        // back whole before its Nil's other half was written: a stall).
        out.entries_mut().extend(
            lowest
                .entries()
                .iter()
                .map(|(k, _)| (k.clone_key(), Value::Nil)),
        );
        for j in 0..lowest.len() {
            present[j * m + m - 1] = position(j) + 1;
        }
        // The hashes a narrow index holds (the low 16 bits of each key's),
        // by position: no key is hashed again while the result's index is
        // narrow too.
        let mut hashes = Vec::new();
        for (i, map) in maps[..m - 1].iter().enumerate().rev() {
            hashes.clear();
            if let Some(index) = map.index().filter(|index| !index.wide) {
                hashes.resize(map.len(), 0);
                for &s in index.table.iter() {
                    hashes[at(false, s)] = s >> 16;
                }
            }
            for (j, (k, _)) in map.entries().iter().enumerate() {
                let p = match out.entries().get(j) {
                    Some((same, _)) if same == k => j,
                    _ => out.find_or_push(k, hashes.get(j).copied()),
                };
                present[p * m + i] = position(j) + 1;
            }
        }
        out
    }

    /// The position of `key`, pushed last with a Nil value when absent.
    /// `hash` is the low 16 bits of its hash (at least) when known, which a
    /// narrow index needs.
    fn find_or_push(&mut self, key: &Value, hash: Option<u32>) -> usize {
        let end = self.len();
        if end >= NARROW {
            self.widen();
        }
        match &mut self.0 {
            Repr::Small(entries) => {
                if let Some(i) = entries.iter().position(|(k, _)| k == key) {
                    return i;
                }
                entries.push((key.clone_key(), Value::Nil));
                if entries.len() > INDEXED {
                    self.build_index();
                }
                end
            }
            Repr::Big(big) => {
                let Big { entries, index } = &mut **big;
                let wide = index.wide;
                let hash = match hash {
                    Some(hash) if !wide => hash,
                    _ => hash_of(key),
                };
                match index.table.entry(
                    table_hash(wide, hash),
                    |&s| entries[at(wide, s)].0 == *key,
                    rehash(wide, entries),
                ) {
                    Entry::Occupied(o) => at(wide, *o.get()),
                    Entry::Vacant(v) => {
                        v.insert(slot(wide, end, hash));
                        entries.push((key.clone_key(), Value::Nil));
                        end
                    }
                }
            }
        }
    }

    fn build_index(&mut self) {
        let entries = self.entries();
        let index = Index::of(entries, entries.capacity());
        self.set_index(index);
    }

    /// Makes a narrow index wide (before a position that does not fit a
    /// narrow slot is pushed).
    #[cold]
    fn widen(&mut self) {
        if let Repr::Big(big) = &mut self.0 {
            if !big.index.wide {
                let mut index = Index::with_capacity(big.entries.capacity(), true);
                for (i, (k, _)) in big.entries.iter().enumerate() {
                    index.table.insert_unique(
                        spread(hash_of(k)),
                        position(i),
                        rehash(true, &big.entries),
                    );
                }
                big.index = index;
            }
        }
    }
}

impl std::fmt::Debug for Map {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// Equal when both have the same keys with equal values, in any order (as
/// Ruby's `Hash#==`).
impl PartialEq for Map {
    fn eq(&self, other: &Map) -> bool {
        self.len() == other.len()
            && self
                .iter()
                .all(|(k, v)| other.get(k).is_some_and(|w| v == w))
    }
}

impl Eq for Map {}

/// Dropping a map nested as deep as the YAML loader allows cannot overflow
/// a host thread's stack: the entries are dropped on a grown stack segment
/// when the thread's stack runs low ([`crate::stack::grow`]).
impl Drop for Map {
    fn drop(&mut self) {
        if !self.is_empty() {
            let entries = std::mem::take(self.entries_mut());
            crate::stack::grow(move || drop(entries));
        }
    }
}

/// `map[&key]`: the value of `key`; panics when the map does not have it.
impl<Q: ?Sized + Hash + Equivalent<Value>> std::ops::Index<&Q> for Map {
    type Output = Value;
    fn index(&self, key: &Q) -> &Value {
        self.get(key).expect("Map: key not found")
    }
}

impl Extend<(Value, Value)> for Map {
    fn extend<I: IntoIterator<Item = (Value, Value)>>(&mut self, iter: I) {
        let iter = iter.into_iter();
        self.reserve(iter.size_hint().0);
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl FromIterator<(Value, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (Value, Value)>>(iter: I) -> Map {
        let mut m = Map::new();
        m.extend(iter);
        m
    }
}

impl IntoIterator for Map {
    type Item = (Value, Value);
    type IntoIter = std::vec::IntoIter<(Value, Value)>;
    fn into_iter(mut self) -> Self::IntoIter {
        std::mem::take(self.entries_mut()).into_iter()
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a Value, &'a Value);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Map {
    type Item = (&'a Value, &'a mut Value);
    type IntoIter = IterMut<'a>;
    fn into_iter(self) -> IterMut<'a> {
        self.iter_mut()
    }
}

/// The entries of a [`Map`], in order.
#[derive(Clone)]
pub struct Iter<'a>(std::slice::Iter<'a, (Value, Value)>);

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a Value, &'a Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// The entries of a [`Map`], in order, values to change.
pub struct IterMut<'a>(std::slice::IterMut<'a, (Value, Value)>);

impl<'a> Iterator for IterMut<'a> {
    type Item = (&'a Value, &'a mut Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (&*k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for IterMut<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (&*k, v))
    }
}

impl ExactSizeIterator for IterMut<'_> {}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::value::Key;

    fn key(i: usize) -> Value {
        Value::from(format!("k{i}"))
    }

    /// A map is 24 bytes (one per Hash of the file cache: issue 18).
    #[test]
    fn a_map_is_three_words() {
        assert_eq!(std::mem::size_of::<Map>(), 24);
    }

    /// Every operation on maps on both sides of the index threshold, checked
    /// against a plain list of entries.
    #[test]
    fn small_and_indexed_maps_agree_with_a_list() {
        for n in [0, 1, 7, 8, 9, 10, 40] {
            let mut m = Map::new();
            let mut list: Vec<(Value, Value)> = Vec::new();
            for i in 0..n {
                assert_eq!(m.insert(key(i), Value::Int(i as i64)), None);
                list.push((key(i), Value::Int(i as i64)));
            }
            assert_eq!(m.index().is_some(), n > INDEXED, "index at {n}");
            // Replacing keeps the position.
            if n > 3 {
                assert_eq!(m.insert(key(3), Value::from("three")), Some(Value::Int(3)));
                list[3].1 = Value::from("three");
            }
            let got: Vec<(Value, Value)> = m.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
            assert_eq!(got, list);
            for (i, (k, v)) in list.iter().enumerate() {
                assert_eq!(m.get_index_of(k), Some(i));
                assert_eq!(m.get(&Key(k.as_str().unwrap())), Some(v));
            }
            assert_eq!(m.get(&Key("absent")), None);
            assert_eq!(m.get(&Value::Int(0)), None);
            // Removing from the middle keeps the order and the lookups right.
            if n > 5 {
                assert!(m.shift_remove(&key(5)).is_some());
                list.remove(5);
                m.retain(|k, _| k != &key(1));
                list.retain(|(k, _)| k != &key(1));
                assert_eq!(m.index().is_some(), list.len() > INDEXED);
                for (i, (k, _)) in list.iter().enumerate() {
                    assert_eq!(m.get_index_of(k), Some(i), "{k:?} after removals, size {n}");
                }
                assert_eq!(m.get(&key(5)), None);
                assert_eq!(m.get(&key(1)), None);
            }
            let copy: Map = m.clone().into_iter().rev().collect();
            assert_eq!(copy, m, "equality ignores order");
        }
    }

    /// A xorshift generator from `seed`: each call gives a number below `n`
    /// (the crate's randomized tests share it).
    pub(crate) fn below(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        }
    }

    /// Random sequences of operations give what `indexmap::IndexMap` (the
    /// type `Map` replaced) gives, in order, on both sides of the index
    /// threshold.
    #[test]
    fn random_operations_match_indexmap() {
        let mut next = below(0x2545_f491_4f6c_dd1d);
        for round in 0..200 {
            let mut m = Map::new();
            let mut reference: indexmap::IndexMap<Value, Value> = indexmap::IndexMap::new();
            let keys = 4 + round % 40;
            for step in 0..300 {
                let k = match next(3) {
                    0 => Value::Int(next(keys) as i64),
                    _ => key(next(keys) as usize),
                };
                match next(10) {
                    0 => assert_eq!(m.shift_remove(&k), reference.shift_remove(&k)),
                    1 => {
                        let cut = next(keys) as i64;
                        m.retain(|k, _| !matches!(k, Value::Int(i) if *i < cut));
                        reference.retain(|k, _| !matches!(k, Value::Int(i) if *i < cut));
                    }
                    2 => assert_eq!(m.pop(), reference.pop()),
                    3 => {
                        let v = Value::Int(step as i64);
                        if reference.contains_key(&k) {
                            m.insert(k.clone(), v.clone());
                        } else {
                            m.insert_unique(k.clone(), v.clone());
                        }
                        reference.insert(k, v);
                    }
                    _ => {
                        let v = Value::Int(step as i64);
                        assert_eq!(
                            m.insert_full(k.clone(), v.clone()),
                            reference.insert_full(k, v)
                        );
                    }
                }
                assert_eq!(m.len(), reference.len());
                if step % 50 == 0 {
                    // A copy made by try_map_values keeps the index right,
                    // with room for more.
                    let mut copy = m.try_map_values::<()>(3, |_, v| Ok(v.clone())).unwrap();
                    for extra in 0..3 {
                        copy.insert_unique(Value::from(format!("extra{extra}")), Value::Nil);
                    }
                    for (i, (k, _)) in reference.iter().enumerate() {
                        assert_eq!(copy.get_index_of(k), Some(i));
                    }
                    assert_eq!(copy.get_index_of(&Key("extra2")), Some(reference.len() + 2));
                }
                for (i, (k, v)) in reference.iter().enumerate() {
                    assert_eq!(m.get_index(i), Some((k, v)), "round {round} step {step}");
                    assert_eq!(m.get_index_of(k), Some(i), "round {round} step {step}");
                }
            }
        }
    }

    /// Keys of every kind (short and long Strings, the same text as a
    /// Symbol, Integers and the Floats equal to them, -0.0 and NaN, Arrays
    /// and Hashes), maps started with a capacity on either side of the
    /// threshold, and every operation (reserve, shrink_to_fit, clone, extend,
    /// try_map_values, lookups by `Key`): all as `IndexMap` gives.
    #[test]
    fn every_operation_and_key_kind_matches_indexmap() {
        use crate::value::ArcStr;
        let mut next = below(0x9e37_79b9_7f4a_7c15);
        let long = |i: u64| format!("a key longer than fifteen bytes {i}");
        let make_key = |next: &mut dyn FnMut(u64) -> u64, keys: u64| -> Value {
            let i = next(keys);
            match next(9) {
                0 => Value::Int(i as i64),
                1 => Value::Float(i as f64),
                2 => Value::Float(if i % 2 == 0 { -0.0 } else { f64::NAN }),
                3 => Value::from(long(i)),
                4 => Value::Symbol(ArcStr::from(format!("k{i}"))),
                5 => Value::array(vec![Value::from(format!("k{i}")), Value::Int(1)]),
                6 => {
                    let mut h = Map::new();
                    h.insert(Value::from("x"), Value::Int(i as i64 % 3));
                    Value::hash(h)
                }
                _ => key(i as usize),
            }
        };
        for round in 0..300u64 {
            let cap = next(20) as usize;
            let mut m = Map::with_capacity(cap);
            let mut reference: indexmap::IndexMap<Value, Value> = indexmap::IndexMap::new();
            let keys = 2 + round % 30;
            for step in 0..200 {
                let k = make_key(&mut next, keys);
                match next(14) {
                    0 => assert_eq!(m.shift_remove(&k), reference.shift_remove(&k)),
                    1 => {
                        let cut = next(3);
                        m.retain(|k, _| !matches!(k, Value::Int(i) if (*i as u64) % 3 == cut));
                        reference
                            .retain(|k, _| !matches!(k, Value::Int(i) if (*i as u64) % 3 == cut));
                    }
                    2 => assert_eq!(m.pop(), reference.pop()),
                    3 => m.reserve(next(20) as usize),
                    4 => m.shrink_to_fit(),
                    5 => m = m.clone(),
                    6 => {
                        let more: Vec<(Value, Value)> = (0..next(12))
                            .map(|j| (make_key(&mut next, keys), Value::Int(j as i64)))
                            .collect();
                        m.extend(more.clone());
                        reference.extend(more);
                    }
                    7 => {
                        m = m
                            .try_map_values::<()>(next(12) as usize, |_, v| Ok(v.clone()))
                            .unwrap();
                    }
                    _ => {
                        let v = Value::Int(step as i64);
                        assert_eq!(
                            m.insert_full(k.clone(), v.clone()),
                            reference.insert_full(k, v)
                        );
                    }
                }
                assert_eq!(m.len(), reference.len());
                assert!(
                    m.len() <= INDEXED || m.index().is_some(),
                    "an index beyond {INDEXED} entries"
                );
                for (i, (k, v)) in reference.iter().enumerate() {
                    assert_eq!(m.get_index(i), Some((k, v)), "round {round} step {step}");
                    assert_eq!(m.get_full(k), Some((i, k, v)), "round {round} step {step}");
                    if let Value::String(s) = k {
                        assert_eq!(m.get_index_of(&Key(s)), Some(i));
                    }
                }
                let absent = Value::from(long(1000));
                assert_eq!(m.get(&absent), None);
                assert_eq!(m.get(&Key(&long(1000))), None);
            }
        }
    }

    /// `merged_keys` over random maps on both sides of the index threshold
    /// (some indexed below it, as `with_capacity` makes them), keys of
    /// several kinds in shuffled orders: the keys in the chain's order (as a
    /// map built by `insert` from the lowest map up gives them), an index
    /// whenever there are more than `INDEXED` entries, every key found by
    /// `get` at its position (and keys pushed later still found), and
    /// `present` right for each key and map.
    #[test]
    fn merged_keys_keep_the_maps_invariants() {
        use crate::value::ArcStr;
        let mut next = below(0x6d65_7267_6564_6b73);
        let pool: Vec<Value> = (0..24)
            .map(|i| match i % 6 {
                0 => Value::Int(i),
                1 => Value::Float(i as f64),
                2 => Value::from(format!("a key longer than eight bytes {i}")),
                3 => Value::Symbol(ArcStr::from(format!("k{i}"))),
                _ => key(i as usize),
            })
            .collect();
        for round in 0..3000 {
            let m = 1 + next(6) as usize;
            let maps: Vec<Map> = (0..m)
                .map(|_| {
                    let most = if next(2) == 0 { 8 } else { 20 };
                    let n = next(most) as usize;
                    let mut map = if next(4) == 0 {
                        Map::with_capacity(9 + n)
                    } else {
                        Map::new()
                    };
                    for _ in 0..n {
                        let k = pool[next(pool.len() as u64) as usize].clone();
                        map.insert(k, Value::Int(round));
                    }
                    map
                })
                .collect();
            let refs: Vec<&Map> = maps.iter().collect();
            let total: usize = maps.iter().map(Map::len).sum();
            let mut present = vec![0u32; m * total];
            let mut out = Map::merged_keys(&refs, &mut present);
            // The chain's order: the lowest map's keys, then each higher
            // map's new keys.
            let mut expected = Map::new();
            for map in maps.iter().rev() {
                for (k, _) in map.iter() {
                    if !expected.contains_key(k) {
                        expected.insert(k.clone(), Value::Nil);
                    }
                }
            }
            let keys: Vec<&Value> = out.keys().collect();
            assert_eq!(keys, expected.keys().collect::<Vec<_>>(), "round {round}");
            assert!(
                out.len() <= INDEXED || out.index().is_some(),
                "round {round}: no index at {}",
                out.len()
            );
            for (p, (k, _)) in expected.iter().enumerate() {
                assert_eq!(out.get_index_of(k), Some(p), "round {round}: {k:?}");
                for (i, map) in maps.iter().enumerate() {
                    let want = map.get_index_of(k).map_or(0, |j| j as u32 + 1);
                    assert_eq!(present[p * m + i], want, "round {round}: {k:?} in map {i}");
                }
            }
            assert!(present[out.len() * m..].iter().all(|&x| x == 0));
            // The result stays a working map: more keys, removals.
            for k in &pool {
                if !out.contains_key(k) {
                    out.insert(k.clone(), Value::Bool(true));
                }
            }
            for (i, k) in pool.iter().enumerate() {
                assert_eq!(
                    out.get_index_of(k),
                    out.iter().position(|(x, _)| x == k),
                    "round {round}: {i}"
                );
            }
            out.shift_remove(&pool[round as usize % pool.len()]);
            for (i, (k, _)) in out.clone().iter().enumerate() {
                assert_eq!(out.get_index_of(k), Some(i), "round {round}");
            }
        }
    }

    /// Every entry of `reference` found in `m` at its position.
    fn agrees(m: &Map, reference: &indexmap::IndexMap<Value, Value>, at: &str) {
        assert_eq!(m.len(), reference.len(), "{at}");
        for (i, (k, v)) in reference.iter().enumerate() {
            assert_eq!(m.get_index(i), Some((k, v)), "{at}");
            assert_eq!(m.get_full(k), Some((i, k, v)), "{at}: {k:?}");
        }
        assert_eq!(m.get(&Key("absent")), None, "{at}");
        assert_eq!(m.get(&Value::Int(-1)), None, "{at}");
    }

    fn is_wide(m: &Map) -> bool {
        m.index().is_some_and(|index| index.wide)
    }

    /// Maps past the 65,536 positions of a narrow index (a wide index, whose
    /// slots are positions alone): every operation as `IndexMap` gives it,
    /// on the way to a wide index, in it, and back to a narrow one.
    #[test]
    fn wide_maps_agree_with_indexmap() {
        let mut m = Map::new();
        let mut reference: indexmap::IndexMap<Value, Value> = indexmap::IndexMap::new();
        for i in 0..NARROW + 300 {
            let (k, v) = (key(i), Value::Int(i as i64));
            if i % 2 == 0 {
                assert_eq!(
                    m.insert_full(k.clone(), v.clone()),
                    reference.insert_full(k, v)
                );
            } else {
                m.insert_unique(k.clone(), v.clone());
                reference.insert(k, v);
            }
            assert_eq!(is_wide(&m), i >= NARROW, "at {i}");
        }
        agrees(&m, &reference, "built");
        assert_eq!(
            m.insert_full(key(7), Value::Nil),
            reference.insert_full(key(7), Value::Nil)
        );
        assert_eq!(
            m.insert_full(Value::Int(3), Value::Nil),
            reference.insert_full(Value::Int(3), Value::Nil)
        );
        assert_eq!(m.pop(), reference.pop());
        assert_eq!(m.shift_remove(&key(5)), reference.shift_remove(&key(5)));
        assert_eq!(
            m.shift_remove(&key(NARROW + 100)),
            reference.shift_remove(&key(NARROW + 100))
        );
        m.reserve(1000);
        agrees(&m, &reference, "after removals and reserve");
        m.shrink_to_fit();
        let mut copy = m.try_map_values::<()>(5, |_, v| Ok(v.clone())).unwrap();
        let mut copied = reference.clone();
        for extra in 0..5 {
            copy.insert_unique(Value::from(format!("extra{extra}")), Value::Nil);
            copied.insert(Value::from(format!("extra{extra}")), Value::Nil);
        }
        agrees(&copy, &copied, "copied");
        agrees(&m.clone(), &reference, "cloned");
        // Fewer entries, still past the narrow positions: wide again.
        let thinned = |k: &Value, v: &Value| !matches!((k, v), (Value::String(_), Value::Int(i)) if i % 1000 == 1);
        m.retain(|k, v| thinned(k, v));
        reference.retain(|k, v| thinned(k, v));
        assert!(is_wide(&m));
        agrees(&m, &reference, "retained, wide");
        // Half of them: narrow, and wide again when they grow past it.
        let half = |v: &Value| matches!(v, Value::Int(i) if i % 2 == 0);
        m.retain(|_, v| half(v));
        reference.retain(|_, v| half(v));
        assert!(m.index().is_some() && !is_wide(&m));
        agrees(&m, &reference, "retained, narrow");
        for i in 0..NARROW {
            let k = Value::from(format!("again{i}"));
            m.insert(k.clone(), Value::Bool(true));
            reference.insert(k, Value::Bool(true));
        }
        assert!(is_wide(&m));
        agrees(&m, &reference, "grown again");
    }

    /// `merged_keys` whose result grows past the narrow positions (from the
    /// hashes narrow indexes keep), and whose maps have wide indexes, highest
    /// or lowest: the chain's keys in order and `present` right.
    #[test]
    fn merged_keys_past_the_narrow_positions() {
        let range = |from: usize, to: usize| -> Map {
            (from..to).map(|i| (key(i), Value::Int(i as i64))).collect()
        };
        let small = range(5, 20);
        let cases = [
            vec![range(30_000, 80_000), range(0, 40_000)],
            vec![range(0, NARROW + 10), small.clone()],
            vec![small.clone(), range(0, NARROW + 10)],
            vec![small.clone(), range(0, NARROW + 10), range(70_000, 70_050)],
        ];
        for (c, maps) in cases.iter().enumerate() {
            let refs: Vec<&Map> = maps.iter().collect();
            let m = maps.len();
            let total: usize = maps.iter().map(Map::len).sum();
            let mut present = vec![0u32; m * total];
            let out = Map::merged_keys(&refs, &mut present);
            let mut expected: indexmap::IndexMap<Value, Value> = indexmap::IndexMap::new();
            for map in maps.iter().rev() {
                for (k, _) in map.iter() {
                    expected.entry(k.clone()).or_insert(Value::Nil);
                }
            }
            assert_eq!(is_wide(&out), out.len() > NARROW, "case {c}");
            agrees(&out, &expected, &format!("case {c}"));
            for (p, (k, _)) in expected.iter().enumerate() {
                for (i, map) in maps.iter().enumerate() {
                    let want = map.get_index_of(k).map_or(0, |j| j as u32 + 1);
                    assert_eq!(present[p * m + i], want, "case {c}: {k:?} in map {i}");
                }
            }
        }
    }

    #[test]
    fn with_capacity_and_reserve_keep_lookups_right() {
        let mut m = Map::with_capacity(20);
        for i in 0..5 {
            m.insert(key(i), Value::Int(i as i64));
        }
        m.reserve(30);
        for i in 5..30 {
            m.insert(key(i), Value::Int(i as i64));
        }
        m.shrink_to_fit();
        for i in 0..30 {
            assert_eq!(m.get(&key(i)), Some(&Value::Int(i as i64)));
        }
        assert_eq!(m.pop(), Some((key(29), Value::Int(29))));
        assert_eq!(m.get(&key(29)), None);
        assert_eq!(m.len(), 29);
    }
}
