//! Differential test of `hiera::deep_merge` against the Ruby `deep_merge`
//! gem (1.1.1), which Puppet and Hiera 3 use for deep merges.
//!
//! A fixed-seed generator produces (source, dest, options) cases; the Ruby
//! oracle `tests/support/deep_merge_oracle.rb` runs
//! `DeepMerge.deep_merge!(source, dest, opts)` on each, and every result (or
//! error message) must equal the Rust port's exactly: value types, key order,
//! array order.
//!
//! Needs `ruby` with the `json` and `deep_merge` libraries. Without them the
//! test fails, unless `LIBHIERA_SKIP_RUBY=1` is set, in which case it is
//! skipped with a message.

mod support;

use hiera::deep_merge::{deep_merge, DeepMergeOptions};
use hiera::error::ErrorKind;
use hiera::value::{Map, Value};
use std::process::Command;
use std::sync::Arc;
use support::deep_merge_oracle;
use support::wire::{decode, encode, same, Rng, ValueGen};

const SEED: u64 = 0x5EED_DEE9_4E26_E001;
const CASES: usize = 6000;

// ---------------------------------------------------------------------------
// Case generation

const WORDS: &[&str] = &[
    "a", "b", "c", "d", "x", "y", "é", "Z", "a,b", "b,c", "a b", " c  d ", "", "a\nb", "#{x}",
];
const KEYS: &[&str] = &["a", "b", "c", "k", "x", "--a"];
const SYMBOLS: &[&str] = &["zsym_one", "zsym_two"];

struct Gen<'a> {
    rng: Rng,
    /// The knockout prefix strings are built from (the case's own, or `--`).
    prefix: &'a str,
    /// Whether binary (non-UTF-8) strings may appear.
    bytes: bool,
}

impl Gen<'_> {
    fn string(&mut self) -> Value {
        let word = *self.rng.pick(WORDS);
        match self.rng.below(10) {
            0..=5 => Value::from(word),
            6 | 7 => Value::from(format!("{}{}", self.prefix, word)),
            8 => Value::from(self.prefix.to_string()),
            _ => Value::from(format!("x\n{}{}", self.prefix, word)),
        }
    }

    fn int(&mut self) -> Value {
        match self.rng.below(12) {
            0 => Value::Int(1 << 62),
            1 => Value::Int(i64::MAX),
            2 => Value::Int(-(1 << 62) - 1),
            3 => Value::BigInt(hiera::value::ArcStr::from("18446744073709551616")),
            4 => Value::BigInt(hiera::value::ArcStr::from("-18446744073709551617")),
            _ => Value::Int(self.rng.below(6) as i64 - 1),
        }
    }

    fn float(&mut self) -> Value {
        Value::Float(
            *self
                .rng
                .pick(&[0.5, 1.0, 1.5, 2.0, -3.25, 1e20, 1e-5, 3.0e15, 0.0, 4.0]),
        )
    }
}

impl ValueGen for Gen<'_> {
    fn rng(&mut self) -> &mut Rng {
        &mut self.rng
    }

    fn scalar(&mut self) -> Value {
        match self.rng.below(20) {
            0..=7 => self.string(),
            8..=10 => self.int(),
            11 | 12 => self.float(),
            13 | 14 => Value::Nil,
            15 => Value::Bool(true),
            16 => Value::Bool(false),
            17 => Value::Symbol(hiera::value::ArcStr::from(*self.rng.pick(SYMBOLS))),
            18 if self.bytes => {
                Value::Bytes(Arc::new([0xffu8, b'a'][..self.rng.below(2) + 1].to_vec()))
            }
            _ => self.string(),
        }
    }

    fn key(&mut self) -> Value {
        match self.rng.below(10) {
            0 | 1 => Value::Int(self.rng.below(3) as i64),
            2 if self.rng.chance(1, 3) => Value::Float(1.0),
            2 => Value::Nil,
            _ => Value::from(*self.rng.pick(KEYS)),
        }
    }

    fn array(&mut self, depth: usize) -> Value {
        let len = self.rng.below(6);
        let kind = self.rng.below(6);
        let items = (0..len)
            .map(|_| match kind {
                0 => self.string(),
                1 => self.int(),
                2 => {
                    if self.rng.chance(1, 2) {
                        self.int()
                    } else {
                        self.float()
                    }
                }
                3 if depth > 0 => self.hash(depth - 1),
                4 if depth > 0 && self.rng.chance(1, 4) => self.array(depth - 1),
                _ => self.scalar(),
            })
            .collect();
        Value::array(items)
    }
}

impl Gen<'_> {
    /// A value of nested arrays and hashes whose arrays hold duplicates and
    /// knockout strings: where the gem merges a value into itself (or into
    /// its own `dup`), these show how the aliasing plays out.
    fn aliased(&mut self, depth: usize) -> Value {
        match self.rng.below(if depth == 0 { 1 } else { 3 }) {
            0 => {
                let len = self.rng.below(5);
                let items = (0..len)
                    .map(|_| match self.rng.below(5) {
                        0 => Value::from(format!("{}{}", self.prefix, self.rng.pick(&["a", "b"]))),
                        1 if self.rng.chance(1, 4) => Value::from(self.prefix.to_string()),
                        _ => Value::from(*self.rng.pick(&["a", "b", "c"])),
                    })
                    .collect();
                Value::array(items)
            }
            1 => {
                let len = self.rng.below(3) + 1;
                Value::array((0..len).map(|_| self.aliased_hash(depth - 1)).collect())
            }
            _ => self.aliased_hash(depth - 1),
        }
    }

    fn aliased_hash(&mut self, depth: usize) -> Value {
        let mut map = Map::default();
        for _ in 0..self.rng.below(3) + 1 {
            let k = Value::from(*self.rng.pick(&["j", "k", "l"]));
            let v = if self.rng.chance(1, 6) {
                self.scalar()
            } else {
                self.aliased(depth)
            };
            map.insert(k, v);
        }
        Value::hash(map)
    }

    /// A case where the source lands on missing, nil, false or unmergeable
    /// destinations.
    fn aliasing_case(&mut self, depth: usize) -> (Value, Value) {
        let source = self.aliased_hash(depth);
        let dest = match self.rng.below(6) {
            0 => Value::empty_hash(),
            1 => Value::Nil,
            2 => Value::from("s"),
            3 => Value::array(vec![Value::Int(1)]),
            _ => {
                let mut map = Map::default();
                for k in ["j", "k", "m"] {
                    match self.rng.below(4) {
                        0 => {}
                        1 => {
                            map.insert(Value::from(k), Value::Nil);
                        }
                        2 => {
                            map.insert(Value::from(k), Value::Bool(false));
                        }
                        _ => {
                            let v = self.aliased(depth.saturating_sub(1));
                            map.insert(Value::from(k), v);
                        }
                    }
                }
                Value::hash(map)
            }
        };
        (source, dest)
    }

    /// A source value that overlaps `dest` in structure, so merges happen.
    fn like(&mut self, dest: &Value, depth: usize) -> Value {
        if self.rng.chance(1, 6) {
            return self.value(depth);
        }
        match dest {
            Value::Hash(d) => {
                let mut map = Map::default();
                let keys: Vec<&Value> = d.keys().collect();
                for _ in 0..self.rng.below(d.len() + 2) + 1 {
                    if !keys.is_empty() && self.rng.chance(3, 4) {
                        let k = (*self.rng.pick(&keys)).clone();
                        let v = self.like(&d[&k], depth.saturating_sub(1));
                        map.insert(k, v);
                    } else {
                        let k = self.key();
                        let v = self.value(depth.saturating_sub(1));
                        map.insert(k, v);
                    }
                }
                Value::hash(map)
            }
            Value::Array(d) => {
                let mut items = Vec::new();
                for _ in 0..self.rng.below(5) {
                    if !d.is_empty() && self.rng.chance(1, 2) {
                        let item = self.rng.pick(d).clone();
                        items.push(match item {
                            Value::String(s) if self.rng.chance(1, 2) => {
                                Value::from(format!("{}{}", self.prefix, s))
                            }
                            Value::Hash(_) if self.rng.chance(1, 4) => numeric_twin(&item),
                            Value::Hash(_) if depth > 0 && self.rng.chance(1, 2) => {
                                self.like(&item, depth - 1)
                            }
                            other => other,
                        });
                    } else if self.rng.chance(1, 8) {
                        items.push(Value::from(self.prefix.to_string()));
                    } else if d.first().is_some_and(|f| matches!(f, Value::Hash(_))) && depth > 0 {
                        items.push(self.hash(depth - 1));
                    } else {
                        items.push(self.scalar());
                    }
                }
                Value::array(items)
            }
            Value::String(s) if self.rng.chance(1, 3) => {
                Value::from(format!("{}{}", self.prefix, s))
            }
            _ => self.value(depth),
        }
    }
}

/// `v` with its Integer values turned into Floats: `==` to `v` but not
/// `eql?`, so both survive an array union and then compare as equal when
/// sorted.
fn numeric_twin(v: &Value) -> Value {
    match v {
        Value::Int(i) if i.unsigned_abs() < 1 << 53 => Value::Float(*i as f64),
        Value::Array(a) => Value::array(a.iter().map(numeric_twin).collect()),
        Value::Hash(h) => Value::hash(
            h.iter()
                .map(|(k, v)| (k.clone(), numeric_twin(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn options(i: usize, rng: &mut Rng) -> DeepMergeOptions {
    let bit = |n: usize| i & (1 << n) != 0;
    let mut knockout_prefix =
        [None, Some("--"), Some("##"), Some(".")][(i >> 5) % 4].map(String::from);
    let mut unpack_arrays = [None, Some(","), Some(" ")][(i >> 7) % 3].map(String::from);
    if rng.chance(1, 40) {
        knockout_prefix = Some(rng.pick(&["", "-", "a|--", "x*", "-+"]).to_string());
    }
    if rng.chance(1, 40) {
        unpack_arrays = Some(rng.pick(&["", "b", "--"]).to_string());
    }
    // A knockout prefix with preserve_unmergeables is always an error: keep
    // a few of those, not half of all knockout cases.
    let preserve_unmergeables = bit(0) && (knockout_prefix.is_none() || rng.chance(1, 8));
    DeepMergeOptions {
        preserve_unmergeables,
        knockout_prefix,
        overwrite_arrays: bit(1) && rng.chance(1, 2),
        sort_merged_arrays: bit(2),
        unpack_arrays,
        merge_hash_arrays: bit(3),
        extend_existing_arrays: bit(4),
    }
}

struct Case {
    source: Value,
    dest: Value,
    opts: DeepMergeOptions,
}

fn generate() -> Vec<Case> {
    let mut rng = Rng::from_state(SEED);
    (0..CASES)
        .map(|i| {
            let opts = options(i, &mut rng);
            let prefix = opts
                .knockout_prefix
                .clone()
                .filter(|p| !p.is_empty())
                .unwrap_or_else(|| "--".into());
            let bytes = opts.unpack_arrays.is_none() && rng.chance(1, 10);
            let mut gen = Gen {
                rng: Rng::from_state(rng.next()),
                prefix: &prefix,
                bytes,
            };
            let depth = 1 + gen.rng.below(4);
            if gen.rng.chance(1, 5) {
                let (source, dest) = gen.aliasing_case(depth);
                return Case { source, dest, opts };
            }
            let dest = if gen.rng.chance(4, 5) {
                gen.hash(depth)
            } else {
                gen.value(depth)
            };
            let source = if gen.rng.chance(4, 5) {
                gen.like(&dest, depth)
            } else {
                gen.value(depth)
            };
            Case { source, dest, opts }
        })
        .collect()
}

// ---------------------------------------------------------------------------

fn skip_or_fail(why: &str) {
    if std::env::var("LIBHIERA_SKIP_RUBY").as_deref() == Ok("1") {
        eprintln!("deep_merge differential test SKIPPED (LIBHIERA_SKIP_RUBY=1): {why}");
        return;
    }
    panic!(
        "deep_merge differential test needs Ruby with the deep_merge gem (1.1.1): {why}\n\
         Install ruby and the gem (Debian: apt-get install ruby ruby-deep-merge), \
         or set LIBHIERA_SKIP_RUBY=1 to skip this test."
    );
}

#[test]
fn deep_merge_matches_ruby_gem() {
    let probe = Command::new("ruby")
        .args([
            "-e",
            "require 'json'; require 'deep_merge'; print Gem.loaded_specs['deep_merge']&.version",
        ])
        .output();
    match probe {
        Err(e) => return skip_or_fail(&format!("cannot run `ruby`: {e}")),
        Ok(out) if !out.status.success() => {
            return skip_or_fail(&format!(
                "`ruby -e \"require 'deep_merge'\"` failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        }
        Ok(out) => {
            let version = String::from_utf8_lossy(&out.stdout).to_string();
            if !version.is_empty() && version != "1.1.1" {
                eprintln!("note: the deep_merge gem is version {version}; the port follows 1.1.1");
            }
        }
    }

    let cases = generate();
    let results = deep_merge_oracle::run(
        "deep-merge",
        cases.iter().map(|c| (&c.source, &c.dest, &c.opts)),
    );

    let mut mismatches = Vec::new();
    let mut errors = 0;
    for (i, (c, want)) in cases.iter().zip(&results).enumerate() {
        let got = deep_merge(&c.source, c.dest.clone(), &c.opts);
        let ok = match (&got, want.get("ok"), want.get("error")) {
            (Ok(v), Some(w), _) => same(v, &decode(w)),
            (Err(e), _, Some(w)) => {
                errors += 1;
                let kind = match w["class"].as_str().unwrap() {
                    "DeepMerge::InvalidParameter" | "RegexpError" => ErrorKind::Merge,
                    "ArgumentError" => ErrorKind::Merge,
                    _ => ErrorKind::Lookup,
                };
                e.kind == kind && e.message == w["message"].as_str().unwrap()
            }
            _ => false,
        };
        if !ok {
            let got = match &got {
                Ok(v) => encode(v).to_string(),
                Err(e) => format!("error {:?}: {}", e.kind, e.message),
            };
            mismatches.push(format!(
                "case {i}:\n  opts:   {:?}\n  source: {}\n  dest:   {}\n  ruby:   {}\n  rust:   {}",
                c.opts,
                encode(&c.source),
                encode(&c.dest),
                want,
                got
            ));
        }
    }
    eprintln!(
        "deep_merge differential: {} cases ({} errors), {} mismatches",
        cases.len(),
        errors,
        mismatches.len()
    );
    if !mismatches.is_empty() {
        panic!(
            "{} of {} cases differ from the deep_merge gem; first ones:\n{}",
            mismatches.len(),
            cases.len(),
            mismatches
                .iter()
                .take(8)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}
