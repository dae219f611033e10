//! [`ThinSet`]: a hash set of 8-byte handles kept dense, for the file
//! cache's interner (issue 18).
//!
//! hashbrown's tables are a power of two, at most 7/8 full: just after one
//! doubles it is 7/16 full, and a set of 7,324 strings (deep-1's) takes
//! 16,384 slots of 9 bytes, 20 bytes a string. This set takes any number
//! of slots, and past 4,096 of them grows by a quarter when it is 7/8 full,
//! so it stays between 7/10 and 7/8 full: 10.3 to 12.9 bytes a string.
//! (Growing hashes each element again, to place it: 5 times on average
//! where a doubling table does it twice. Below 4,096 slots, where a first
//! compile's strings are, the table doubles.)
//!
//! It is open addressing with linear probing. A slot is a tag byte (0 when
//! empty, else `0x80` and 7 bits of its element's hash, in one array, its
//! first 8 again at its end) and the element (in another; an empty slot
//! holds `T::default()`, which for the handles kept here owns nothing). A
//! probe reads tags 8 at a time until an empty one, and compares an
//! element only where its tag matches (one in 128 otherwise). Elements are
//! never removed one by one, so there are no tombstones:
//! [`ThinSet::retain`] builds the table again.

/// A hash set of `T` found by a hash and an equality the caller gives (see
/// the module): the callers hash and compare by what the element holds
/// (a string's text, an Array's elements).
pub(crate) struct ThinSet<T> {
    tags: Box<[u8]>,
    slots: Box<[T]>,
    len: usize,
}

impl<T> Default for ThinSet<T> {
    fn default() -> ThinSet<T> {
        ThinSet {
            tags: Box::default(),
            slots: Box::default(),
            len: 0,
        }
    }
}

/// The fewest slots a table that holds anything has.
const MIN_SLOTS: usize = 16;

/// The tag of a slot holding an element of `hash` (its low bits: the
/// slot's place is taken from its high bits).
fn tag(hash: u64) -> u8 {
    0x80 | (hash as u8 & 0x7F)
}

/// Where an element of `hash` is looked for first in `slots` slots (the
/// high bits of `hash` scaled to the table: any number of slots).
fn home(hash: u64, slots: usize) -> usize {
    ((u128::from(hash) * slots as u128) >> 64) as usize
}

/// A table of fewer slots than this doubles when it grows (it holds a
/// first compile's strings, and placing them all again costs hashing each
/// again); a larger one grows by a quarter.
const DOUBLE_BELOW: usize = 4096;

/// Tags read at once ([`ThinSet::probe`]).
const GROUP: usize = 8;

/// `at` within a table of `n` slots (`at` is below `2 * n`).
fn wrap(at: usize, n: usize) -> usize {
    if at >= n {
        at - n
    } else {
        at
    }
}

/// How many slots hold `len` elements at most 7/8 full.
fn slots_for(len: usize) -> usize {
    (len + len / 7 + 1).max(MIN_SLOTS)
}

impl<T: Default> ThinSet<T> {
    /// The number of elements.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The number of slots (each a tag byte and a `T`).
    #[cfg(test)]
    pub(crate) fn slots(&self) -> usize {
        self.slots.len()
    }

    /// The slot holding the element of `hash` equal by `eq`, or the empty
    /// slot where it would go. Tags are read eight at a time (as in
    /// hashbrown's tables without SIMD): a word's bytes equal to the tag
    /// are the slots to compare, its first byte without the high bit the
    /// first empty slot.
    fn probe(&self, hash: u64, eq: impl Fn(&T) -> bool) -> Result<usize, usize> {
        const LOW: u64 = 0x0101_0101_0101_0101;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let n = self.slots.len();
        let want = LOW * u64::from(tag(hash));
        let mut at = home(hash, n);
        // The table is never full: an empty slot ends every probe.
        loop {
            let group = self.group(at);
            // Bytes of `x` that are zero (and, rarely, the byte after one:
            // the tag is checked again): the tags equal to `want`'s.
            let x = group ^ want;
            let mut found = x.wrapping_sub(LOW) & !x & HIGH;
            while found != 0 {
                let i = wrap(at + found.trailing_zeros() as usize / 8, n);
                if self.tags[i] == tag(hash) && eq(&self.slots[i]) {
                    return Ok(i);
                }
                found &= found - 1;
            }
            let empty = !group & HIGH;
            if empty != 0 {
                return Err(wrap(at + empty.trailing_zeros() as usize / 8, n));
            }
            at = wrap(at + GROUP, n);
        }
    }

    /// The tags of the [`GROUP`] slots from `at`, in a word (the first
    /// the lowest byte; past the last slot, the first ones again).
    fn group(&self, at: usize) -> u64 {
        let mut bytes = [0u8; GROUP];
        bytes.copy_from_slice(&self.tags[at..at + GROUP]);
        u64::from_le_bytes(bytes)
    }

    /// Sets slot `at`'s tag (and its copy past the last slot).
    fn set_tag(&mut self, at: usize, tag: u8) {
        self.tags[at] = tag;
        if at < GROUP {
            let n = self.slots.len();
            self.tags[n + at] = tag;
        }
    }

    /// The element of `hash` equal by `eq`, if there is one.
    #[cfg(test)]
    pub(crate) fn get(&self, hash: u64, eq: impl Fn(&T) -> bool) -> Option<&T> {
        if self.len == 0 {
            return None;
        }
        self.probe(hash, eq).ok().map(|at| &self.slots[at])
    }

    /// The element of `hash` equal by `eq`; the one `make` makes is added
    /// when there is none. `rehash` gives an element's hash (the same as
    /// `hash` for an element equal by `eq`), to place the elements again
    /// when the table grows.
    pub(crate) fn get_or_insert_with(
        &mut self,
        hash: u64,
        eq: impl Fn(&T) -> bool,
        make: impl FnOnce() -> T,
        rehash: impl Fn(&T) -> u64,
    ) -> &T {
        let mut empty = None;
        if self.len > 0 {
            match self.probe(hash, &eq) {
                Ok(at) => return &self.slots[at],
                Err(at) => empty = Some(at),
            }
        }
        if (self.len + 1) * 8 > self.slots.len() * 7 {
            let n = self.slots.len();
            let grown = if n < DOUBLE_BELOW { 2 * n } else { n + n / 4 };
            let grown = grown.max(slots_for(self.len + 1));
            self.rebuild(grown, &rehash);
            empty = None;
        }
        // A probe that matches nothing ends at an empty slot.
        let at = empty.unwrap_or_else(|| {
            let (Ok(at) | Err(at)) = self.probe(hash, |_| false);
            at
        });
        let value = make();
        self.set_tag(at, tag(hash));
        self.slots[at] = value;
        self.len += 1;
        &self.slots[at]
    }

    /// Keeps the elements `keep` says to keep, in a table sized for them
    /// and an eighth more.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&T) -> bool, rehash: impl Fn(&T) -> u64) {
        for at in 0..self.slots.len() {
            if self.tags[at] != 0 && !keep(&self.slots[at]) {
                self.set_tag(at, 0);
                self.slots[at] = T::default();
                self.len -= 1;
            }
        }
        // Room for an eighth more: the next insert does not grow it again.
        let slots = if self.len == 0 {
            0
        } else {
            slots_for(self.len + self.len / 8)
        };
        self.rebuild(slots, &rehash);
    }

    /// Places the elements again in a table of `slots` slots (more than
    /// the elements, or none when there are none).
    fn rebuild(&mut self, slots: usize, rehash: impl Fn(&T) -> u64) {
        // The first `GROUP` tags again after the last (none without slots).
        let copies = if slots == 0 { 0 } else { GROUP };
        let tags = std::mem::replace(&mut self.tags, vec![0; slots + copies].into_boxed_slice());
        let old = std::mem::replace(
            &mut self.slots,
            std::iter::repeat_with(T::default).take(slots).collect(),
        );
        for (t, value) in tags.iter().zip(old.into_vec()) {
            if *t != 0 {
                let hash = rehash(&value);
                let (Ok(at) | Err(at)) = self.probe(hash, |_| false);
                self.set_tag(at, tag(hash));
                self.slots[at] = value;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    fn hash(s: &str) -> u64 {
        foldhash::fast::FixedState::with_seed(7).hash_one(s)
    }

    fn add(set: &mut ThinSet<String>, s: &str) -> String {
        set.get_or_insert_with(hash(s), |k| k == s, || s.to_string(), |k| hash(k))
            .clone()
    }

    #[test]
    fn finds_what_it_holds_through_growth_and_retain() {
        let mut set = ThinSet::default();
        assert!(set.get(hash("a"), |k: &String| k == "a").is_none());
        for i in 0..10_000 {
            add(&mut set, &format!("key-{i}"));
            // Adding it again adds nothing.
            add(&mut set, &format!("key-{}", i / 2));
            assert_eq!(set.len(), i + 1);
            assert!(set.len() * 8 <= set.slots() * 7);
        }
        // 7/10 to 7/8 full, past 4,096 slots.
        assert!(set.slots() * 7 <= set.len() * 10, "{} slots", set.slots());
        for i in 0..10_000 {
            let s = format!("key-{i}");
            assert_eq!(set.get(hash(&s), |k| *k == s), Some(&s));
        }
        assert!(set.get(hash("key-10000"), |k| k == "key-10000").is_none());
        set.retain(|k| k.ends_with('7'), |k| hash(k));
        assert_eq!(set.len(), 1000);
        assert!(set.slots() < 1300);
        for i in 0..10_000 {
            let s = format!("key-{i}");
            assert_eq!(set.get(hash(&s), |k| *k == s).is_some(), i % 10 == 7);
        }
        set.retain(|_| false, |k| hash(k));
        assert_eq!((set.len(), set.slots()), (0, 0));
        add(&mut set, "again");
        assert_eq!(set.len(), 1);
    }

    #[test]
    fn colliding_hashes_are_told_apart_by_equality() {
        let mut set = ThinSet::default();
        for s in ["a", "b", "c", "d"] {
            set.get_or_insert_with(42, |k: &String| k == s, || s.to_string(), |_| 42);
        }
        for s in ["a", "b", "c", "d"] {
            assert_eq!(set.get(42, |k| k == s).map(String::as_str), Some(s));
        }
        assert_eq!(set.len(), 4);
    }
}

#[cfg(test)]
mod model_tests {
    use super::*;
    use std::collections::HashSet;

    fn check_invariants(s: &ThinSet<u64>) {
        let n = s.slots.len();
        if n == 0 {
            return;
        }
        assert_eq!(s.tags.len(), n + GROUP);
        for i in 0..GROUP {
            assert_eq!(s.tags[i], s.tags[n + i]);
        }
        assert_eq!(s.tags[..n].iter().filter(|&&t| t != 0).count(), s.len);
        assert!(s.len < n);
    }

    /// Random inserts and retains, checked against a `HashSet`, under
    /// hashes that place every element alike or in clusters.
    #[test]
    fn matches_a_hash_set_under_poor_hashes() {
        // element x's hash: various bad distributions
        let hashes: [fn(u64) -> u64; 4] = [
            |x| x.wrapping_mul(0x9E37_79B9_7F4A_7C15),
            |x| u64::MAX - (x & 3), // all home at last slot, tags differ little
            |x| (x % 5) << 60 | x,  // clustered homes
            |_| 0x7F,               // all equal
        ];
        for h in hashes {
            let mut rng = 12345u64;
            let mut set: ThinSet<u64> = ThinSet::default();
            let mut model = HashSet::new();
            for step in 0..20000u64 {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let x = rng % 3000 + 1; // 0 is default; avoid
                if step % 997 == 0 {
                    set.retain(|&v| v % 3 != 0, |&v| h(v));
                    model.retain(|&v| v % 3 != 0);
                }
                let got = *set.get_or_insert_with(h(x), |&v| v == x, || x, |&v| h(v));
                assert_eq!(got, x);
                model.insert(x);
                assert_eq!(set.len(), model.len());
                if step % 101 == 0 {
                    check_invariants(&set);
                }
            }
            for &x in &model {
                assert_eq!(set.get(h(x), |&v| v == x), Some(&x));
            }
            check_invariants(&set);
        }
    }

    /// 14 elements of one home, the last slot: the probes wrap.
    #[test]
    fn a_table_of_16_fills_to_14_then_doubles() {
        // 14 elements all homed at slot 15 of a 16-slot table
        let mut set: ThinSet<u64> = ThinSet::default();
        for x in 1..=14u64 {
            set.get_or_insert_with(u64::MAX, |&v| v == x, || x, |_| u64::MAX);
            assert_eq!(set.slots(), 16);
        }
        check_invariants(&set);
        for x in 1..=14u64 {
            assert_eq!(set.get(u64::MAX, |&v| v == x), Some(&x));
        }
        assert!(set.get(u64::MAX, |&v| v == 99).is_none());
        set.get_or_insert_with(u64::MAX, |&v| v == 15, || 15, |_| u64::MAX);
        assert_eq!(set.slots(), 32);
        check_invariants(&set);
    }
}
