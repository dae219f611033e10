//! Differential test of `hiera::deep_merge` against the Ruby `deep_merge`
//! gem (1.1.1) on *large* hashes: more than `Map`'s index threshold (8
//! entries) and more than the 64 entries `Marks` keeps in one word, with
//! keys of every kind (short and long Strings, Integers, Floats equal to
//! them, Symbols) and falsy destination values.
//!
//! Each case is merged three ways, which take different code paths, and
//! all three must give exactly what the gem gives (key order included):
//! * a shared destination and a shared source (`merge_into_copy`,
//!   shared source);
//! * a destination owned at every level (`merge_into` in place);
//! * a shared destination and a source owned at every level
//!   (`merge_into_copy`, owned source).
//!
//! Needs `ruby` with the `deep_merge` gem, as `deep_merge_differential`;
//! skipped with `LIBHIERA_SKIP_RUBY=1`.

mod support;

use hiera::deep_merge::{deep_merge, deep_merge_owned, DeepMergeOptions};
use hiera::value::{Map, Value};
use support::deep_merge_oracle;
use support::wire::{decode, same, Rng};

const CASES: usize = 400;

/// A copy of `v` in which every Array and Hash is a new, unshared object.
fn deep_copy(v: &Value) -> Value {
    match v {
        Value::Array(a) => Value::array(a.iter().map(deep_copy).collect()),
        Value::Hash(h) => {
            let mut m = Map::with_capacity(h.len());
            for (k, v) in h.iter() {
                m.insert(k.clone(), deep_copy(v));
            }
            Value::hash(m)
        }
        other => other.clone(),
    }
}

struct Gen {
    rng: Rng,
    keys: Vec<Value>,
}

impl Gen {
    fn new(seed: u64) -> Gen {
        let mut keys = Vec::new();
        for i in 0..60 {
            keys.push(Value::from(format!("k{i}")));
            keys.push(Value::from(format!("a_key_longer_than_fifteen_bytes_{i}")));
        }
        for i in 0..10 {
            keys.push(Value::Int(i));
            keys.push(Value::Float(i as f64));
        }
        keys.push(Value::from(""));
        keys.push(Value::from("fifteen bytes!!"));
        keys.push(Value::from("sixteen bytes!!!"));
        Gen {
            rng: Rng::from_state(seed),
            keys,
        }
    }

    fn scalar(&mut self) -> Value {
        match self.rng.below(9) {
            0 => Value::Nil,
            1 => Value::Bool(false),
            2 => Value::Bool(true),
            3 => Value::Int(self.rng.below(4) as i64),
            4 => Value::Float(self.rng.below(4) as f64),
            5 => Value::from(format!("a long string value number {}", self.rng.below(4))),
            _ => Value::from(*self.rng.pick(&["a", "b", "c", "a,b"])),
        }
    }

    fn array(&mut self, depth: usize) -> Value {
        let n = self.rng.below(5);
        let hashes = depth > 0 && self.rng.chance(1, 4);
        Value::array(
            (0..n)
                .map(|_| {
                    if hashes {
                        self.hash(depth - 1, 4)
                    } else {
                        self.scalar()
                    }
                })
                .collect(),
        )
    }

    fn value(&mut self, depth: usize) -> Value {
        if depth == 0 {
            return self.scalar();
        }
        match self.rng.below(10) {
            0..=3 => self.hash(depth - 1, if depth > 1 { 12 } else { 70 }),
            4..=6 => self.array(depth - 1),
            _ => self.scalar(),
        }
    }

    fn hash(&mut self, depth: usize, max: usize) -> Value {
        let n = self.rng.below(max + 1);
        let mut m = Map::new();
        for _ in 0..n {
            let k = self.rng.pick(&self.keys).clone();
            let v = self.value(depth);
            m.insert(k, v);
        }
        Value::hash(m)
    }

    /// A source that shares many keys with `dest` (in another order), and
    /// has keys of its own.
    fn like(&mut self, dest: &Value, depth: usize) -> Value {
        match dest {
            Value::Hash(d) if !self.rng.chance(1, 10) => {
                let mut m = Map::new();
                let mut keys: Vec<&Value> = d.keys().collect();
                // Shuffled, so that the source's order differs.
                self.rng.shuffle(&mut keys);
                for k in keys {
                    if self.rng.chance(2, 3) {
                        let v = self.like(&d[k], depth.saturating_sub(1));
                        m.insert(k.clone(), v);
                    }
                }
                for _ in 0..self.rng.below(30) {
                    let k = self.rng.pick(&self.keys).clone();
                    let v = self.value(depth.saturating_sub(1));
                    m.insert(k, v);
                }
                Value::hash(m)
            }
            _ => self.value(depth),
        }
    }
}

fn options(i: usize) -> DeepMergeOptions {
    let bit = |n: usize| i & (1 << n) != 0;
    DeepMergeOptions {
        preserve_unmergeables: bit(0),
        knockout_prefix: None,
        overwrite_arrays: bit(1) && bit(5),
        sort_merged_arrays: false,
        unpack_arrays: if bit(2) { Some(",".into()) } else { None },
        merge_hash_arrays: bit(3),
        extend_existing_arrays: bit(4),
    }
}

#[test]
fn large_hashes_merge_as_the_gem_does_on_every_path() {
    if std::env::var("LIBHIERA_SKIP_RUBY").as_deref() == Ok("1") {
        eprintln!("skipped (LIBHIERA_SKIP_RUBY=1)");
        return;
    }
    let mut gen = Gen::new(0x1a26_e0ff_5eed_0003);
    let cases: Vec<(Value, Value, DeepMergeOptions)> = (0..CASES)
        .map(|i| {
            let depth = 1 + gen.rng.below(3);
            let dest = gen.hash(depth, 100);
            let source = gen.like(&dest, depth);
            (source, dest, options(i))
        })
        .collect();
    let results =
        deep_merge_oracle::run("deep-merge-large", cases.iter().map(|(s, d, o)| (s, d, o)));
    let mut bad = Vec::new();
    for (i, ((s, d, o), want)) in cases.iter().zip(&results).enumerate() {
        let want = decode(&want["ok"]);
        let shared = deep_merge(s, d.clone(), o).unwrap();
        let unique = deep_merge(s, deep_copy(d), o).unwrap();
        let owned = deep_merge_owned(deep_copy(s), d.clone(), o).unwrap();
        for (path, got) in [
            ("shared", &shared),
            ("unique dest", &unique),
            ("owned source", &owned),
        ] {
            if !same(got, &want) {
                bad.push(format!("case {i} ({path}), opts {o:?}"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
