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

mod frozen;

use crate::shared_slice::{Form, Handle, SliceOrBox};
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
/// One thin pointer to a reference-counted allocation, copied on write:
/// cloning a map is a count increment, and a change copies the map first
/// when another value shares it (as `Arc::make_mut`). Issue 18: a Hash of
/// the file cache was a `triomphe::Arc` (24 bytes) of a 16-byte map and
/// its entries, two allocations; it is now one, 16 bytes smaller.
///
/// A map without spare room, as the file cache keeps its Hashes, is its
/// entries' shared slice (the small form) and, past [`INDEXED`] entries,
/// a compact hash index after them in the same allocation (frozen: see
/// `src/map/frozen.rs`); any other map (one being built or changed) is a
/// shared box of a `Vec` of its entries with, past [`INDEXED`], a growable
/// hash index (the big form). An empty map is no allocation. A change to
/// a small map that adds or removes entries makes it big (a frozen one's
/// index built again); [`Map::shrink_to_fit`] makes a map small again.
#[derive(Clone, Default)]
pub struct Map(SliceOrBox<(Value, Value), Big>);

/// The entries of a growable map and, when it has more than [`INDEXED`]
/// entries (or was sized for them), their hash index (positions in
/// `entries`, hashed by key).
#[derive(Clone)]
struct Big {
    entries: Vec<(Value, Value)>,
    index: Option<Index>,
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

impl Big {
    /// Drops the hash index (the entries stay).
    fn unindex(&mut self) {
        self.index = None;
    }

    fn build_index(&mut self) {
        self.index = Some(Index::of(&self.entries, self.entries.capacity()));
    }

    /// Makes a narrow index wide (before a position that does not fit a
    /// narrow slot is pushed).
    #[cold]
    fn widen(&mut self) {
        if let Some(index) = &self.index {
            if !index.wide {
                let mut index = Index::with_capacity(self.entries.capacity(), true);
                for (i, (k, _)) in self.entries.iter().enumerate() {
                    index.table.insert_unique(
                        spread(hash_of(k)),
                        position(i),
                        rehash(true, &self.entries),
                    );
                }
                self.index = Some(index);
            }
        }
    }
}

impl Map {
    /// A map of `entries` and their `index`, if they have one (big form).
    fn of_parts(entries: Vec<(Value, Value)>, index: Option<Index>) -> Map {
        Map(SliceOrBox::boxed(Big { entries, index }))
    }

    /// A map of `entries`, at most [`INDEXED`] of distinct keys, in the
    /// small form.
    fn of_small(entries: Vec<(Value, Value)>) -> Map {
        debug_assert!(entries.len() <= INDEXED);
        Map(SliceOrBox::slice(entries))
    }

    /// Whether the map is in its big form.
    #[inline]
    fn is_big(&self) -> bool {
        self.0.is_boxed()
    }

    /// The big form's parts, to change: the map copied first when shared.
    /// The map must be in its big form.
    #[inline]
    fn big_mut(&mut self) -> &mut Big {
        match self.0.boxed_mut() {
            Some(big) => big,
            None => unreachable!("big_mut of a small map"),
        }
    }

    /// Whether `a` and `b` are the same allocation (two empty maps are).
    #[inline]
    pub fn ptr_eq(a: &Map, b: &Map) -> bool {
        SliceOrBox::ptr_eq(&a.0, &b.0)
    }

    /// The allocation's address (0 when empty): an identity while the map
    /// lives.
    #[inline]
    pub fn addr(&self) -> usize {
        self.0.addr()
    }

    /// Whether no other value shares the map (a change then needs no copy).
    #[inline]
    pub fn is_unique(&self) -> bool {
        self.0.is_unique()
    }

    /// How many values share the map (1 when empty).
    pub fn strong_count(&self) -> usize {
        self.0.strong_count()
    }

    /// The entries in order.
    #[inline]
    fn entries(&self) -> &[(Value, Value)] {
        match self.0.form() {
            Form::Slice(entries, _) => entries,
            Form::Boxed(big) => &big.entries,
        }
    }

    /// The entries in order, their values to change (the keys must keep
    /// their hashes and equality): copied first when shared.
    #[inline]
    fn entries_mut(&mut self) -> &mut [(Value, Value)] {
        if self.is_big() {
            &mut self.big_mut().entries
        } else {
            match self.0.slice_mut() {
                Some(entries) => entries,
                None => unreachable!("a small map is a slice"),
            }
        }
    }

    /// The entries and the growable form's hash index, kept when there
    /// are more than [`INDEXED`] entries (a frozen map's is not this one:
    /// see [`Map::frozen`]).
    #[inline]
    fn parts(&self) -> (&[(Value, Value)], Option<&Index>) {
        match self.0.form() {
            Form::Slice(entries, _) => (entries, None),
            Form::Boxed(big) => (&big.entries, big.index.as_ref()),
        }
    }

    /// The growable form's hash index, kept when there are more than
    /// [`INDEXED`] entries.
    #[inline]
    fn index(&self) -> Option<&Index> {
        self.parts().1
    }

    /// A frozen map's index (`src/map/frozen.rs`), empty for any other.
    #[inline]
    fn frozen(&self) -> &[u16] {
        match self.0.form() {
            Form::Slice(_, tail) => tail,
            Form::Boxed(_) => &[],
        }
    }

    /// The frozen form of `entries` (more than [`INDEXED`], fewer than
    /// [`frozen::WIDE_MAX`], of distinct keys): the entries and their
    /// index in one allocation.
    /// `low16`: the low 16 bits of each key's hash, by position, when
    /// known (see [`frozen::build`]).
    fn of_frozen(entries: Vec<(Value, Value)>, low16: Option<&[u16]>) -> Map {
        let table = frozen::build(&entries, low16);
        Map(SliceOrBox::slice_with_tail(entries, &table))
    }

    /// The growable form, to change the entries: a small map's entries
    /// are moved into a `Vec` (copied when shared; a frozen one's index
    /// built again, growable), a shared big map is copied.
    #[inline]
    fn big(&mut self) -> &mut Big {
        if let Some(entries) = self.0.take_slice() {
            let index = (entries.len() > INDEXED).then(|| Index::of(&entries, entries.len()));
            *self = Map::of_parts(entries, index);
        }
        self.big_mut()
    }

    /// An empty map.
    pub fn new() -> Map {
        Map::default()
    }

    /// An empty map with room for `n` entries.
    pub fn with_capacity(n: usize) -> Map {
        if n == 0 {
            return Map::new();
        }
        Map::of_parts(
            Vec::with_capacity(n),
            (n > INDEXED).then(|| Index::with_capacity(n, false)),
        )
    }

    /// The map of `pairs`, in order, as [`Map::insert`] of each would make
    /// it (a repeated key keeps its first position and takes the last
    /// value), without spare room, built in its final form at once (a
    /// parse's Hashes): small, frozen past [`INDEXED`] entries.
    pub(crate) fn of_pairs(pairs: impl ExactSizeIterator<Item = (Value, Value)>) -> Map {
        let n = pairs.len();
        if n > INDEXED && n < frozen::WIDE_MAX {
            // Built frozen at once (no growable index made and dropped).
            let (entries, table) = frozen::collect(pairs, n);
            let len = entries.len();
            return if len <= INDEXED {
                Map::of_small(entries)
            } else if (len < frozen::NARROW_MAX) != (n < frozen::NARROW_MAX) {
                Map::of_frozen(entries, None)
            } else {
                Map(SliceOrBox::slice_with_tail(entries, &table))
            };
        }
        if n > INDEXED {
            let mut map = Map::with_capacity(n);
            for (k, v) in pairs {
                map.insert(k, v);
            }
            map.shrink_to_fit();
            return map;
        }
        let mut entries: Vec<(Value, Value)> = Vec::with_capacity(n);
        for (k, v) in pairs {
            match entries.iter().position(|(e, _)| *e == k) {
                Some(i) => entries[i].1 = v,
                None => entries.push((k, v)),
            }
        }
        Map::of_small(entries)
    }

    /// Whether the map has a hash index (more than [`INDEXED`] entries, or
    /// sized for them and not shrunk), growable or frozen.
    #[cfg(test)]
    pub(crate) fn is_indexed(&self) -> bool {
        self.index().is_some() || !self.frozen().is_empty()
    }

    /// Whether the map is in its small form (a shared slice, frozen when
    /// it has more than [`INDEXED`] entries).
    #[cfg(test)]
    pub(crate) fn is_small(&self) -> bool {
        !self.is_big()
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries().len()
    }

    /// The number of entries the map has room for without allocating.
    pub fn capacity(&self) -> usize {
        match self.0.form() {
            Form::Slice(entries, _) => entries.len(),
            Form::Boxed(big) => big.entries.capacity(),
        }
    }

    /// `true` when the map has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries().is_empty()
    }

    /// The position of `key`.
    pub fn get_index_of<Q: ?Sized + Hash + Equivalent<Value>>(&self, key: &Q) -> Option<usize> {
        let (entries, index) = match self.0.form() {
            Form::Slice(entries, []) => (entries, None),
            Form::Slice(entries, table) => return frozen::find(entries, table, key),
            Form::Boxed(big) => (&big.entries[..], big.index.as_ref()),
        };
        match index {
            None => entries.iter().position(|(k, _)| key.equivalent(k)),
            Some(index) => {
                let wide = index.wide;
                index
                    .table
                    .find(table_hash(wide, hash_of(key)), |&s| {
                        key.equivalent(&entries[at(wide, s)].0)
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
        if !self.is_big() {
            // A key present is replaced in place: the map stays small.
            if let Some(i) = self.get_index_of(&key) {
                return (
                    i,
                    Some(std::mem::replace(&mut self.entries_mut()[i].1, value)),
                );
            }
            // (A frozen map goes on as a big one: `big` builds its index.)
            if self.frozen().is_empty() {
                let big = self.big();
                big.entries.push((key, value));
                if big.entries.len() > INDEXED {
                    big.build_index();
                }
                return (end, None);
            }
        }
        let big = self.big();
        if end >= NARROW {
            big.widen();
        }
        let Big { entries, index } = big;
        match index {
            None => {
                if let Some(i) = entries.iter().position(|(k, _)| *k == key) {
                    return (i, Some(std::mem::replace(&mut entries[i].1, value)));
                }
                entries.push((key, value));
                if entries.len() > INDEXED {
                    big.build_index();
                }
                (end, None)
            }
            Some(index) => {
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
        let big = self.big();
        if end >= NARROW {
            big.widen();
        }
        let Big { entries, index } = big;
        match index {
            None => {
                entries.push((key, value));
                if entries.len() > INDEXED {
                    big.build_index();
                }
            }
            Some(index) => {
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
        let (from, index) = self.parts();
        let mut entries = Vec::with_capacity(from.len() + extra);
        for (k, v) in from {
            entries.push((k.clone(), f(k, v)?));
        }
        if extra == 0 && index.is_none() {
            // Exactly sized: the shared slice takes the Vec's entries, and
            // a frozen map's index as it is (the same keys in the same
            // places).
            return Ok(Map(SliceOrBox::slice_with_tail(entries, self.frozen())));
        }
        let index = match index {
            Some(index) => Some(index.clone()),
            None if entries.len() > INDEXED => Some(Index::of(&entries, entries.len() + extra)),
            None => None,
        };
        let mut out = Map::of_parts(entries, index);
        let big = out.big_mut();
        if let Some(index) = &mut big.index {
            let wide = index.wide;
            index.table.reserve(extra, rehash(wide, &big.entries));
        }
        Ok(out)
    }

    /// A map of the same entries (and index) in an allocation of its own:
    /// one that no other value shares, to change in place.
    pub fn unshared(&self) -> Map {
        let Ok(copy) =
            self.try_map_values(0, |_, v| Ok::<Value, std::convert::Infallible>(v.clone()));
        copy
    }

    /// Removes `key`, shifting the entries after it (order is kept), and
    /// returns its value.
    /// O(n), as `IndexMap`'s: the index's later positions are shifted down,
    /// no key is hashed again.
    pub fn shift_remove<Q: ?Sized + Hash + Equivalent<Value>>(&mut self, key: &Q) -> Option<Value> {
        let i = self.get_index_of(key)?;
        let big = self.big();
        let (_, value) = big.entries.remove(i);
        match &mut big.index {
            Some(index) if big.entries.len() > INDEXED => {
                let wide = index.wide;
                index.table.retain(|&mut s| at(wide, s) != i);
                for s in index.table.iter_mut() {
                    if at(wide, *s) > i {
                        // The position is the slot's low bits, at least 1.
                        *s -= 1;
                    }
                }
            }
            _ => big.unindex(),
        }
        Some(value)
    }

    /// Keeps the entries for which `keep(key, value)` is true, in order.
    /// A narrow index, if kept, is rebuilt from the stored hashes (no key is
    /// hashed again).
    pub fn retain<F: FnMut(&Value, &mut Value) -> bool>(&mut self, mut keep: F) {
        let before = self.len();
        let big = self.big();
        let Some(index) = &big.index else {
            big.entries.retain_mut(|(k, v)| keep(k, v));
            return;
        };
        if index.wide {
            big.entries.retain_mut(|(k, v)| keep(k, v));
            let after = big.entries.len();
            if after != before {
                if after > INDEXED {
                    big.build_index();
                } else {
                    big.unindex();
                }
            }
            return;
        }
        let mut hashes = vec![0u32; before];
        for &s in index.table.iter() {
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
            big.index = Some(index);
        } else {
            big.unindex();
        }
    }

    /// Removes the last entry.
    pub fn pop(&mut self) -> Option<(Value, Value)> {
        if self.is_empty() {
            return None;
        }
        let big = self.big();
        let entry = big.entries.pop()?;
        let last = big.entries.len();
        if last <= INDEXED {
            big.unindex();
        } else if let Some(index) = &mut big.index {
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
        if n == 0 {
            return;
        }
        let big = self.big();
        big.entries.reserve(n);
        match &mut big.index {
            None => {
                if big.entries.len() + n > INDEXED {
                    big.build_index();
                }
            }
            Some(index) => {
                let wide = index.wide;
                index.table.reserve(n, rehash(wide, &big.entries));
            }
        }
    }

    /// Frees unused capacity: the map becomes its entries' shared slice,
    /// frozen (with a compact index after the entries) when it has more
    /// than [`INDEXED`] entries. A map too large to freeze (of 65,535
    /// entries or more) keeps its growable form, trimmed.
    pub fn shrink_to_fit(&mut self) {
        if !self.is_big() {
            return;
        }
        let big = self.big_mut();
        if big.entries.len() <= INDEXED {
            let entries = std::mem::take(&mut big.entries);
            *self = Map::of_small(entries);
            return;
        }
        if big.entries.len() < frozen::WIDE_MAX {
            // A narrow index's slots hold the low 16 bits of their keys'
            // hashes: the frozen index is built from them.
            let low16 = big.index.as_ref().filter(|index| !index.wide).map(|index| {
                let mut low = vec![0u16; big.entries.len()];
                for &s in index.table.iter() {
                    low[at(false, s)] = (s >> 16) as u16;
                }
                low
            });
            let entries = std::mem::take(&mut big.entries);
            *self = Map::of_frozen(entries, low16.as_deref());
            return;
        }
        big.entries.shrink_to_fit();
        if let Some(index) = &mut big.index {
            let wide = index.wide;
            index.table.shrink_to_fit(rehash(wide, &big.entries));
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
            // (A frozen map's is built anew, growable.)
            match lowest.index() {
                Some(index) => {
                    let wide = index.wide;
                    let mut room = Index::with_capacity(capacity, wide);
                    let rehash = rehash(wide, lowest.entries());
                    for s in index.table.iter() {
                        room.table.insert_unique(rehash(s), *s, &rehash);
                    }
                    Some(room)
                }
                None if lowest.len() > INDEXED => Some(Index::of(lowest.entries(), capacity)),
                None => None,
            },
        );
        // Written in place (a pushed pair was built on the stack and read
        // back whole before its Nil's other half was written: a stall).
        out.big().entries.extend(
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
        let big = self.big();
        if end >= NARROW {
            big.widen();
        }
        let Big { entries, index } = big;
        match index {
            None => {
                if let Some(i) = entries.iter().position(|(k, _)| k == key) {
                    return i;
                }
                entries.push((key.clone_key(), Value::Nil));
                if entries.len() > INDEXED {
                    big.build_index();
                }
                end
            }
            Some(index) => {
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
        // Only the last reference drops the entries.
        if self.0.is_unique() && !self.is_empty() {
            let storage = std::mem::take(&mut self.0);
            crate::stack::grow(move || drop(storage));
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
        if let Some(entries) = self.0.take_slice() {
            entries.into_iter()
        } else if self.is_unique() {
            std::mem::take(&mut self.big_mut().entries).into_iter()
        } else {
            self.entries().to_vec().into_iter()
        }
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

    /// A map is one pointer, and a small one's allocation its entries and
    /// an 8-byte header (one per Hash of the file cache: issue 18).
    #[test]
    fn a_map_is_one_pointer_to_its_entries() {
        assert_eq!(std::mem::size_of::<Map>(), 8);
        assert_eq!(std::mem::size_of::<Value>(), 16);
        let m = Map::of_pairs([(key(1), Value::Int(1)), (key(2), Value::Int(2))].into_iter());
        assert!(m.is_small());
        let Form::Slice(entries, []) = m.0.form() else {
            panic!("a small map is a slice, without a tail")
        };
        assert_eq!(entries.as_ptr() as usize - m.addr(), 8);
        assert_eq!(Map::new().addr(), 0);
        // Past INDEXED, frozen: the index follows the entries, its length
        // (a u32) first.
        let n = INDEXED + 1;
        let m = Map::of_pairs((0..n).map(|i| (key(i), Value::Int(i as i64))));
        let Form::Slice(entries, table) = m.0.form() else {
            panic!("a frozen map is a slice")
        };
        assert_eq!(entries.len(), n);
        assert_eq!(table.len(), 16);
        assert_eq!(
            table.as_ptr() as usize - m.addr(),
            8 + 32 * n + 4,
            "the index right after the entries"
        );
        for i in 0..n {
            assert_eq!(m.get_index_of(&key(i)), Some(i));
        }
    }

    /// A parse's Hash of repeated keys is frozen as the distinct keys
    /// need, whichever kind of table the pairs' number called for.
    #[test]
    fn repeated_keys_freeze_to_the_distinct_keys() {
        for (n, distinct) in [(300, 100), (300, 5), (20, 12), (70_000, 300), (70_000, 9)] {
            let m = Map::of_pairs((0..n).map(|i| (key(i % distinct), Value::Int(i as i64))));
            let mut reference = indexmap::IndexMap::new();
            for i in 0..n {
                reference.insert(key(i % distinct), Value::Int(i as i64));
            }
            agrees(&m, &reference, &format!("{n} pairs of {distinct} keys"));
            assert!(m.is_small() && m.is_indexed() == (distinct > INDEXED));
            assert!(m.get(&key(distinct)).is_none());
        }
    }

    /// A clone shares the entries until one side changes: then that side
    /// copies them (small and big forms, every kind of change), and the
    /// other keeps what it had.
    #[test]
    fn clones_are_copied_on_write() {
        type Change = fn(&mut Map);
        let changes: [(&str, Change); 9] = [
            ("insert new", |m| {
                m.insert(key(1000), Value::Int(-1));
            }),
            ("insert present", |m| {
                m.insert(key(0), Value::Int(-1));
            }),
            ("get_mut", |m| *m.get_mut(&key(0)).unwrap() = Value::Int(-1)),
            ("values_mut", |m| {
                m.values_mut().for_each(|v| *v = Value::Nil)
            }),
            ("shift_remove", |m| {
                m.shift_remove(&key(0));
            }),
            ("retain", |m| m.retain(|_, _| false)),
            ("pop", |m| {
                m.pop();
            }),
            ("reserve", |m| m.reserve(100)),
            ("shrink", |m| m.shrink_to_fit()),
        ];
        for n in [1, 3, 8, 9, 30] {
            for shrink in [false, true] {
                for (what, change) in changes {
                    let mut original = Map::new();
                    for i in 0..n {
                        original.insert(key(i), Value::Int(i as i64));
                    }
                    if shrink {
                        original.shrink_to_fit();
                    }
                    let before: Vec<(Value, Value)> = original.clone().into_iter().collect();
                    let mut copy = original.clone();
                    assert!(Map::ptr_eq(&original, &copy));
                    assert_eq!(original.strong_count(), 2);
                    change(&mut copy);
                    let after: Vec<(Value, Value)> = original
                        .iter()
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect();
                    assert_eq!(after, before, "{what} on a clone of {n} (shrunk: {shrink})");
                    assert!(original.is_unique() || Map::ptr_eq(&original, &copy));
                    drop(copy);
                    assert!(original.is_unique());
                }
            }
        }
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

    /// The small form (a shared slice, as the file cache keeps a map of at
    /// most [`INDEXED`] entries) against `IndexMap`: built by `of_pairs`
    /// (repeated keys, both sides of the threshold) and by `shrink_to_fit`,
    /// then every operation on it, in order, on a clone changed on write
    /// whose original must stay as it was.
    #[test]
    fn small_maps_agree_with_indexmap_through_every_operation() {
        let mut next = below(0x5851_f42d_4c95_7f2d);
        for round in 0..2000u64 {
            let n = next(13) as usize;
            let keys = 1 + next(14);
            let pairs: Vec<(Value, Value)> = (0..n)
                .map(|j| {
                    let k = match next(4) {
                        0 => Value::Int(next(keys) as i64),
                        1 => Value::from(format!("a key longer than fifteen {}", next(keys))),
                        _ => key(next(keys) as usize),
                    };
                    (k, Value::Int(j as i64))
                })
                .collect();
            let mut reference: indexmap::IndexMap<Value, Value> = indexmap::IndexMap::new();
            reference.extend(pairs.clone());
            let built = if round % 2 == 0 {
                Map::of_pairs(pairs.into_iter())
            } else {
                let mut m: Map = pairs.into_iter().collect();
                m.shrink_to_fit();
                m
            };
            let at = format!("round {round}");
            agrees(&built, &reference, &at);
            assert!(
                built.is_small(),
                "{at}: shrunk, small (frozen past INDEXED)"
            );
            assert_eq!(built.capacity(), built.len(), "{at}: no spare room");
            assert_eq!(built.is_indexed(), reference.len() > INDEXED, "{at}");
            let order: Vec<&Value> = built.keys().collect();
            assert_eq!(order, reference.keys().collect::<Vec<_>>(), "{at}");
            let shared = built;
            let mut copy = shared.clone();
            let before = reference.clone();
            let mut reference = reference;
            let k = match next(3) {
                0 => Value::Int(next(keys) as i64),
                _ => key(next(keys) as usize),
            };
            let m = &mut copy;
            let op = next(13);
            match op {
                0 => assert_eq!(m.shift_remove(&k), reference.shift_remove(&k), "{at}"),
                1 => {
                    m.retain(|k, _| !matches!(k, Value::Int(i) if i % 2 == 0));
                    reference.retain(|k, _| !matches!(k, Value::Int(i) if i % 2 == 0));
                }
                2 => assert_eq!(m.pop(), reference.pop(), "{at}"),
                3 => m.reserve(next(12) as usize),
                4 => {
                    if let (Some(v), Some(w)) = (m.get_mut(&k), reference.get_mut(&k)) {
                        *v = Value::from("changed");
                        *w = Value::from("changed");
                    }
                }
                5 => {
                    for ((_, v), (_, w)) in m.iter_mut().zip(reference.iter_mut()) {
                        *v = Value::Nil;
                        *w = Value::Nil;
                    }
                }
                6 => {
                    let more: Vec<(Value, Value)> = (0..next(10))
                        .map(|j| (key(next(keys + 10) as usize), Value::Int(100 + j as i64)))
                        .collect();
                    m.extend(more.clone());
                    reference.extend(more);
                }
                7 => {
                    let absent = Value::from(format!("absent {round}"));
                    m.insert_unique(absent.clone(), Value::Int(-1));
                    reference.insert(absent, Value::Int(-1));
                }
                8 => {
                    *m = m.try_map_values::<()>(0, |_, v| Ok(v.clone())).unwrap();
                    assert!(m.is_small(), "{at}: a small map's copy is small");
                    assert!(m.len() <= INDEXED || m.is_indexed(), "{at}");
                }
                9 => {
                    let all: Vec<(Value, Value)> = std::mem::take(m).into_iter().collect();
                    assert_eq!(
                        all,
                        reference.clone().into_iter().collect::<Vec<_>>(),
                        "{at}"
                    );
                    m.extend(all);
                }
                _ => {
                    let v = Value::Int(1000 + round as i64);
                    assert_eq!(
                        m.insert_full(k.clone(), v.clone()),
                        reference.insert_full(k.clone(), v),
                        "{at}"
                    );
                    // Replacing a value keeps the Small form.
                    if before.contains_key(&k) {
                        assert_eq!(m.is_small(), shared.is_small(), "{at}");
                    }
                }
            }
            let at = format!("{at} op {op}");
            agrees(m, &reference, &at);
            assert_eq!(
                m.keys().collect::<Vec<_>>(),
                reference.keys().collect::<Vec<_>>(),
                "{at}"
            );
            assert!(m.len() <= INDEXED || m.is_indexed(), "{at}");
            // The original is untouched.
            agrees(&shared, &before, &at);
            m.shrink_to_fit();
            agrees(m, &reference, &at);
            assert!(m.is_small(), "{at}: shrunk, small (frozen past INDEXED)");
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
                    m.len() <= INDEXED || m.is_indexed(),
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
