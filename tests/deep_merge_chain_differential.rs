//! Differential test of `hiera::deep_merge::deep_merge_chain` (and of the
//! deep strategies' `Strategy::lookup`, which calls it) against the Ruby
//! `deep_merge` gem (1.1.1) merging a chain of values as Puppet 7's deep
//! merge strategy does: `memo = values[0]`, then for each later value
//! `memo = DeepMerge.deep_merge!(memo, deep_clone(value), opts)`.
//!
//! The chains (2 to 6 values, nearly always hashes: the one-pass merge)
//! are variations of one random shape, so that the levels share keys, in
//! different orders, and more than 8 of them (where `Map` builds its hash
//! index), with nested hashes, arrays with duplicates, nil and false, and
//! scalars, arrays and hashes clashing at the same key. Every option set
//! is drawn, those that take the one-pass merge and those that fold the
//! chain pairwise (knockout_prefix, sort_merged_arrays).
//!
//! Needs `ruby` with the `deep_merge` gem, as `deep_merge_differential`;
//! skipped with `LIBHIERA_SKIP_RUBY=1`.

mod support;

use hiera::deep_merge::{deep_merge_chain, DeepMergeOptions};
use hiera::hiera5::merge::{Strategy, StrategyKind};
use hiera::value::{Map, Value};
use support::deep_merge_oracle;
use support::wire::{decode, encode, same, Rng};

const SEED: u64 = 0xc4a1_d1ff_5eed_0004;
const CHAINS: usize = 6000;

/// Keys: short ones (in place), long ones (on the heap), an Integer and a
/// Float that are `==` but not `eql?` (distinct Ruby hash keys), `0.0` and
/// `-0.0` (one key in Ruby), and nil.
fn key_pool() -> Vec<Value> {
    let mut keys: Vec<Value> = [
        "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n",
    ]
    .into_iter()
    .map(Value::from)
    .collect();
    keys.push(Value::from("eight!!!"));
    keys.push(Value::from("ninebytes"));
    keys.push(Value::from("a key longer than the in-place limit"));
    keys.push(Value::Int(1));
    keys.push(Value::Float(1.0));
    keys.push(Value::Float(0.0));
    keys.push(Value::Float(-0.0));
    keys.push(Value::Nil);
    keys
}

struct Gen {
    rng: Rng,
    keys: Vec<Value>,
    /// The knockout prefix strings are built from (the case's, or `--`).
    prefix: String,
    /// Arrays of Strings only, mostly (so that sorting them rarely fails).
    sortable: bool,
}

impl Gen {
    fn string(&mut self) -> Value {
        let word = *self.rng.pick(&[
            "a",
            "b",
            "c",
            "x,y",
            "a,b",
            "a long string, stored on the heap",
        ]);
        match self.rng.below(10) {
            0 => Value::from(format!("{}{}", self.prefix, word)),
            1 if self.rng.chance(1, 3) => Value::from(self.prefix.clone()),
            _ => Value::from(word),
        }
    }

    fn scalar(&mut self) -> Value {
        if self.sortable && self.rng.chance(3, 4) {
            return self.string();
        }
        match self.rng.below(12) {
            0 | 1 => Value::Nil,
            2 | 3 => Value::Bool(false),
            4 => Value::Bool(true),
            5 | 6 => Value::Int(self.rng.below(3) as i64),
            7 => Value::Float(*self.rng.pick(&[1.0, 0.0, -0.0])),
            _ => self.string(),
        }
    }

    fn element(&mut self, depth: usize, hashes: bool) -> Value {
        if hashes && depth > 0 {
            return self.hash(depth - 1, 4);
        }
        if self.sortable && self.rng.chance(7, 8) {
            return self.string();
        }
        self.scalar()
    }

    /// Up to 5 elements, with duplicates; all hashes now and then.
    fn array(&mut self, depth: usize) -> Value {
        let hashes = depth > 0 && self.rng.chance(1, 4);
        let n = self.rng.below(6);
        let mut items: Vec<Value> = Vec::new();
        for _ in 0..n {
            if !items.is_empty() && self.rng.chance(1, 3) {
                let again = self.rng.pick(&items).clone();
                items.push(again);
            } else {
                items.push(self.element(depth, hashes));
            }
        }
        Value::array(items)
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

    fn value(&mut self, depth: usize) -> Value {
        if depth == 0 {
            return self.scalar();
        }
        match self.rng.below(10) {
            0..=3 => {
                let max = if self.rng.chance(1, 4) { 12 } else { 5 };
                self.hash(depth - 1, max)
            }
            4..=6 => self.array(depth - 1),
            _ => self.scalar(),
        }
    }

    /// A level of the chain: `shape` varied, its keys a shuffled subset
    /// with keys of its own, its values varied in turn or replaced by
    /// values of another kind.
    fn like(&mut self, shape: &Value, depth: usize) -> Value {
        match self.rng.below(12) {
            0 => return self.value(depth),
            1 => return Value::Nil,
            2 if !matches!(shape, Value::Hash(_)) => return Value::Bool(false),
            _ => {}
        }
        match shape {
            Value::Hash(h) => {
                let mut keys: Vec<&Value> = h.keys().collect();
                self.rng.shuffle(&mut keys);
                let mut m = Map::new();
                let keep = 1 + self.rng.below(4);
                for k in keys {
                    if self.rng.below(4) < keep {
                        let v = self.like(&h[k], depth.saturating_sub(1));
                        m.insert(k.clone(), v);
                    }
                }
                for _ in 0..self.rng.below(4) {
                    let k = self.rng.pick(&self.keys).clone();
                    let v = self.value(depth.saturating_sub(1));
                    m.insert(k, v);
                }
                Value::hash(m)
            }
            Value::Array(a) => {
                let mut items = Vec::new();
                for _ in 0..self.rng.below(6) {
                    if !a.is_empty() && self.rng.chance(2, 3) {
                        let item = self.rng.pick(a).clone();
                        items.push(match item {
                            Value::Hash(_) if depth > 0 && self.rng.chance(1, 2) => {
                                self.like(&item, depth - 1)
                            }
                            Value::String(s) if self.rng.chance(1, 6) => {
                                Value::from(format!("{}{}", self.prefix, s))
                            }
                            other => other,
                        });
                    } else {
                        let hashes = a.first().is_some_and(|f| matches!(f, Value::Hash(_)));
                        items.push(self.element(depth, hashes));
                    }
                }
                Value::array(items)
            }
            _ => {
                if self.rng.chance(1, 2) {
                    shape.clone()
                } else {
                    self.value(depth)
                }
            }
        }
    }

    fn chain(&mut self) -> Vec<Value> {
        let depth = 1 + self.rng.below(3);
        let max = if self.rng.chance(2, 3) { 18 } else { 6 };
        let shape = self.hash(depth, max);
        let n = 2 + self.rng.below(5);
        (0..n)
            .map(|_| {
                let level = self.like(&shape, depth);
                if matches!(level, Value::Hash(_)) || self.rng.chance(1, 12) {
                    level
                } else {
                    // Lookups mostly find hashes: keep the one-pass merge
                    // the common case.
                    let mut again = self.like(&shape, depth);
                    while !matches!(again, Value::Hash(_)) {
                        again = self.like(&shape, depth);
                    }
                    again
                }
            })
            .collect()
    }
}

fn options(i: usize, rng: &mut Rng) -> DeepMergeOptions {
    let bit = |n: usize| i & (1 << n) != 0;
    // Half the cases with neither a knockout prefix nor sorting (the
    // one-pass merge), a quarter with each.
    let (knockout, sort) =
        [(false, false), (false, false), (true, false), (false, true)][(i >> 5) % 4];
    let knockout_prefix =
        (knockout || rng.chance(1, 16)).then(|| rng.pick(&["--", "##"]).to_string());
    DeepMergeOptions {
        // With a knockout prefix always an error: keep a few.
        preserve_unmergeables: bit(0) && (knockout_prefix.is_none() || rng.chance(1, 8)),
        knockout_prefix,
        overwrite_arrays: bit(1),
        sort_merged_arrays: sort || rng.chance(1, 16),
        unpack_arrays: bit(4).then(|| ",".to_string()),
        merge_hash_arrays: bit(2),
        extend_existing_arrays: bit(3),
    }
}

#[test]
fn deep_merge_chains_match_the_gem() {
    if std::env::var("LIBHIERA_SKIP_RUBY").as_deref() == Ok("1") {
        eprintln!("skipped (LIBHIERA_SKIP_RUBY=1)");
        return;
    }
    let mut rng = Rng::from_state(SEED);
    let mut cases: Vec<(Vec<Value>, DeepMergeOptions)> = Vec::with_capacity(CHAINS);
    for i in 0..CHAINS {
        let opts = options(i, &mut rng);
        let mut gen = Gen {
            rng: Rng::from_state(rng.next()),
            keys: key_pool(),
            prefix: opts.knockout_prefix.clone().unwrap_or_else(|| "--".into()),
            sortable: opts.sort_merged_arrays && !rng.chance(1, 10),
        };
        cases.push((gen.chain(), opts));
    }
    let results =
        deep_merge_oracle::run_chains("deep-merge-chain", cases.iter().map(|(v, o)| (&v[..], o)));

    let (mut one_pass, mut big, mut errors) = (0, 0, 0);
    let mut bad = Vec::new();
    for (i, ((values, opts), want)) in cases.iter().zip(&results).enumerate() {
        let all_hashes = values.iter().all(|v| matches!(v, Value::Hash(_)));
        one_pass += usize::from(all_hashes && opts.entries_independent());
        big += usize::from(
            values
                .iter()
                .any(|v| v.as_hash().is_some_and(|h| h.len() > 8)),
        );
        let chain = deep_merge_chain(values.clone(), opts);
        let mut strategy = Strategy::new(StrategyKind::Deep);
        strategy.deep = opts.clone();
        let lookup = strategy.lookup(values.len(), |i| Ok(Some(values[i].clone())));
        for (path, got) in [("deep_merge_chain", chain), ("Strategy::lookup", lookup)] {
            let ok = match (&got, want.get("ok"), want.get("error")) {
                (Ok(Some(v)), Some(w), _) => same(v, &decode(w)),
                (Err(e), _, Some(w)) => {
                    errors += 1;
                    e.message == w["message"].as_str().unwrap_or_default()
                }
                _ => false,
            };
            if !ok {
                let got = match &got {
                    Ok(Some(v)) => encode(v).to_string(),
                    Ok(None) => "nothing".to_string(),
                    Err(e) => format!("error {:?}: {}", e.kind, e.message),
                };
                let values: Vec<String> = values.iter().map(|v| encode(v).to_string()).collect();
                bad.push(format!(
                    "case {i} ({path}):\n  opts:  {opts:?}\n  chain: {}\n  ruby:  {want}\n  rust:  {got}",
                    values.join("\n         ")
                ));
            }
        }
    }
    eprintln!(
        "deep_merge chains: {CHAINS} ({one_pass} merged in one pass, {big} with a hash of more than 8 keys, {errors} errors), {} mismatches",
        bad.len()
    );
    assert!(
        one_pass > CHAINS / 3,
        "only {one_pass} chains take the one-pass merge"
    );
    assert!(big > CHAINS / 4, "only {big} chains have a large hash");
    assert!(
        bad.is_empty(),
        "{} of {CHAINS} chains differ from the gem; first ones:\n{}",
        bad.len(),
        bad.iter().take(6).cloned().collect::<Vec<_>>().join("\n")
    );
}
