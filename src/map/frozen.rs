//! The hash index of a frozen map: a map of more than [`super::INDEXED`]
//! entries as the file cache keeps it, its index in the same allocation as
//! its entries, after them (a `SharedSlice` tail of `u16`s).
//!
//! Issue 18: the growable form's index is a `hashbrown` table of 4-byte
//! slots with a control byte each, in an allocation of its own beside a
//! 72-byte box of the `Vec` and the table; on a control repo of modules
//! those came to 0.13x of the YAML. A frozen map's index is the slots
//! alone, 2 bytes each below [`NARROW_MAX`] entries: on a map of 60
//! entries, 256 bytes where the growable form took 728.
//!
//! The table is open addressing with linear probing, a power of two of
//! slots at most three quarters full (a miss probes about eight slots,
//! each a 2-byte compare). A slot holds one more than an entry's position
//! (0: empty) and a tag of the key's hash, so that a probe compares a key
//! only when the tags agree:
//! - narrow (fewer than [`NARROW_MAX`] entries): one `u16` a slot, the
//!   tag (8 bits of the hash) above the position (8 bits). Only the low 16
//!   bits of the key's hash place and tag it, the bits a growable map's
//!   narrow index keeps: a map frozen from one is not hashed again;
//! - wide (fewer than [`WIDE_MAX`]): two, the tag (16 bits) then the
//!   position.
//!
//! Larger maps are not frozen. The index is built once, when the map is
//! frozen ([`build`]), and never changed: a change to the keys makes the
//! map growable again (changing values, or keys for equal ones, keeps it).

use crate::value::Value;

/// Maps of fewer entries than this have narrow slots.
pub(super) const NARROW_MAX: usize = 255;

/// Maps of fewer entries than this can be frozen.
pub(super) const WIDE_MAX: usize = u16::MAX as usize;

/// The number of slots of the table of `n` entries: a power of two, at
/// most three quarters full.
fn slots_for(n: usize) -> usize {
    (n + n / 3 + 1).next_power_of_two()
}

/// An empty table for `n` entries (narrow below [`NARROW_MAX`]: one `u16`
/// a slot, else two).
fn table_for(n: usize) -> Vec<u16> {
    let slots = slots_for(n);
    vec![0u16; if n < NARROW_MAX { slots } else { 2 * slots }]
}

/// Where a probe for a key ended.
enum Probe {
    /// At the entry of this position, whose key `same` said is the key.
    Found(usize),
    /// At this empty slot: the key is not in the table.
    Empty(usize),
}

/// Probes `table` (narrow or wide) for a key of `hash` (its
/// [`place_hash`]): slot by slot from the key's place until an empty one,
/// asking `same` about each entry whose tag agrees. The one probing loop,
/// for lookups ([`find`]) and for building ([`build`], [`collect`]).
#[inline]
fn probe(table: &[u16], narrow: bool, hash: u32, mut same: impl FnMut(usize) -> bool) -> Probe {
    if narrow {
        let mask = table.len() - 1;
        let tag = narrow_tag(hash);
        let mut at = hash as usize & mask;
        loop {
            let slot = table[at];
            if slot == 0 {
                return Probe::Empty(at);
            }
            if slot >> 8 == tag {
                let i = usize::from(slot & 0xff) - 1;
                if same(i) {
                    return Probe::Found(i);
                }
            }
            at = (at + 1) & mask;
        }
    } else {
        let mask = table.len() / 2 - 1;
        let tag = wide_tag(hash);
        let mut at = hash as usize & mask;
        loop {
            let position = table[2 * at + 1];
            if position == 0 {
                return Probe::Empty(at);
            }
            if table[2 * at] == tag {
                let i = usize::from(position) - 1;
                if same(i) {
                    return Probe::Found(i);
                }
            }
            at = (at + 1) & mask;
        }
    }
}

/// Puts the entry of position `i` (its key's hash `hash`) in the empty slot
/// `at` that [`probe`] found.
#[inline]
fn fill(table: &mut [u16], narrow: bool, at: usize, hash: u32, i: usize) {
    // `i + 1` fits: below NARROW_MAX (8 bits) or WIDE_MAX (16 bits).
    let position = (i + 1) as u16;
    if narrow {
        table[at] = (narrow_tag(hash) << 8) | position;
    } else {
        table[2 * at] = wide_tag(hash);
        table[2 * at + 1] = position;
    }
}

/// The index of `entries` (fewer than [`WIDE_MAX`], of distinct keys), as a
/// frozen map's tail. `low16`, when given, holds the low 16 bits of each
/// key's hash, by position (what a narrow index keeps): a map of fewer
/// than [`NARROW_MAX`] entries then hashes no key.
pub(super) fn build(entries: &[(Value, Value)], low16: Option<&[u16]>) -> Vec<u16> {
    let n = entries.len();
    debug_assert!(n < WIDE_MAX);
    let narrow = n < NARROW_MAX;
    let mut table = table_for(n);
    for (i, (k, _)) in entries.iter().enumerate() {
        let hash = match low16 {
            Some(low) if narrow => u32::from(low[i]),
            _ => place_hash(narrow, super::hash_of(k)),
        };
        // The keys are distinct: no slot is theirs yet.
        if let Probe::Empty(at) = probe(&table, narrow, hash, |_| false) {
            fill(&mut table, narrow, at, hash, i);
        }
    }
    table
}

/// The entries of `pairs` (`n` of them, more than [`super::INDEXED`] and
/// fewer than [`WIDE_MAX`]) and their index, built together, as a parse
/// makes a Hash: a repeated key keeps its first position and takes the
/// last value. The table is sized for `n`: when repeated keys leave so few
/// entries that [`find`] would read the table as the other kind (narrow or
/// wide), or none past [`super::INDEXED`], the caller builds it again.
pub(super) fn collect(
    pairs: impl Iterator<Item = (Value, Value)>,
    n: usize,
) -> (Vec<(Value, Value)>, Vec<u16>) {
    debug_assert!(n < WIDE_MAX);
    let narrow = n < NARROW_MAX;
    let mut table = table_for(n);
    let mut entries: Vec<(Value, Value)> = Vec::with_capacity(n);
    for (k, v) in pairs {
        let hash = place_hash(narrow, super::hash_of(&k));
        match probe(&table, narrow, hash, |i| entries[i].0 == k) {
            Probe::Found(i) => entries[i].1 = v,
            Probe::Empty(at) => {
                // More pairs than `n` would overflow a slot or fill the
                // table.
                assert!(entries.len() < n, "frozen::collect: more pairs than said");
                fill(&mut table, narrow, at, hash, entries.len());
                entries.push((k, v));
            }
        }
    }
    (entries, table)
}

/// The position of the entry of `key` in `entries`, whose index `table` is
/// (made by [`build`] of the same keys).
#[inline]
pub(super) fn find<Q>(entries: &[(Value, Value)], table: &[u16], key: &Q) -> Option<usize>
where
    Q: ?Sized + std::hash::Hash + indexmap::Equivalent<Value>,
{
    let narrow = entries.len() < NARROW_MAX;
    let hash = place_hash(narrow, super::hash_of(key));
    match probe(table, narrow, hash, |i| key.equivalent(&entries[i].0)) {
        Probe::Found(i) => Some(i),
        Probe::Empty(_) => None,
    }
}

/// The bits of a key's hash that place and tag it: the low 16 for a
/// narrow table, all 32 for a wide one.
#[inline]
fn place_hash(narrow: bool, hash: u32) -> u32 {
    if narrow {
        hash & 0xffff
    } else {
        hash
    }
}

/// A narrow slot's tag: bits 8 to 15 of the hash (the slot's place comes
/// from its low bits, at most 9 of them).
#[inline]
fn narrow_tag(hash: u32) -> u16 {
    ((hash >> 8) & 0xff) as u16
}

/// A wide slot's tag: the hash's top 16 bits.
#[inline]
fn wide_tag(hash: u32) -> u16 {
    (hash >> 16) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(n: usize) -> Vec<(Value, Value)> {
        (0..n)
            .map(|i| {
                (
                    Value::from(format!("key{i}").as_str()),
                    Value::Int(i as i64),
                )
            })
            .collect()
    }

    #[test]
    fn every_key_is_found_at_its_position_and_no_other_is() {
        for n in [
            1,
            2,
            9,
            17,
            100,
            NARROW_MAX - 1,
            NARROW_MAX,
            1000,
            WIDE_MAX - 1,
        ] {
            let e = entries(n);
            let table = build(&e, None);
            let low: Vec<u16> = e
                .iter()
                .map(|(k, _)| super::super::hash_of(k) as u16)
                .collect();
            assert_eq!(
                build(&e, Some(&low)),
                table,
                "the low 16 bits given, the same"
            );
            let slots = slots_for(n);
            assert_eq!(table.len(), if n < NARROW_MAX { slots } else { 2 * slots });
            assert!(slots * 3 >= n * 4, "at most three quarters full at {n}");
            for (i, (k, _)) in e.iter().enumerate() {
                assert_eq!(find(&e, &table, k), Some(i), "{n} entries, key {i}");
            }
            for i in n..n + 50 {
                assert_eq!(
                    find(&e, &table, &Value::from(format!("key{i}").as_str())),
                    None
                );
            }
            assert_eq!(find(&e, &table, &Value::Int(3)), None);
        }
    }

    #[test]
    fn collected_entries_keep_the_first_place_and_the_last_value() {
        for (n, distinct) in [(9, 9), (20, 10), (300, 300), (300, 40)] {
            let pairs = (0..n).map(|i| {
                (
                    Value::from(format!("key{}", i % distinct).as_str()),
                    Value::Int(i as i64),
                )
            });
            let (e, table) = collect(pairs, n);
            assert_eq!(e.len(), distinct);
            for (i, (k, v)) in e.iter().enumerate() {
                assert_eq!(k, &Value::from(format!("key{i}").as_str()));
                let last = (0..n).rev().find(|j| j % distinct == i).unwrap();
                assert_eq!(v, &Value::Int(last as i64));
                if (distinct < NARROW_MAX) == (n < NARROW_MAX) {
                    assert_eq!(find(&e, &table, k), Some(i));
                }
            }
        }
    }

    #[test]
    fn the_table_is_two_bytes_a_slot_below_the_narrow_bound() {
        assert_eq!(build(&entries(9), None).len() * 2, 32);
        assert_eq!(build(&entries(60), None).len() * 2, 256);
        assert_eq!(build(&entries(300), None).len() * 2, 4 * 512);
    }
}
