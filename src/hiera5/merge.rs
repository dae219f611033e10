//! Merge strategies of Hiera 5: first, unique, hash, deep (and the internal
//! reverse_deep and unconstrained_deep), with Puppet's option validation and
//! type checks.

use crate::deep_merge::{deep_merge, deep_merge_chain, deep_merge_owned, DeepMergeOptions};
use crate::error::{Error, ErrorKind, Result};
use crate::hiera5::ptype::infer_type;
use crate::value::{Map, Value};

/// The name of a strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrategyKind {
    /// `first` (and `default`): the first found value.
    First,
    /// `unique`: flattened arrays, duplicates removed, highest priority first.
    Unique,
    /// `hash`: shallow hash merge.
    Hash,
    /// `deep`: recursive merge through the deep_merge rules.
    Deep,
    /// `unconstrained_deep`: deep without option validation.
    UnconstrainedDeep,
    /// `reverse_deep`: deep with lower priority winning (Hiera 3 `deep`).
    ReverseDeep,
}

/// A merge strategy with its options.
#[derive(Clone, Debug)]
pub struct Strategy {
    /// Which strategy.
    pub kind: StrategyKind,
    /// Deep merge options (deep strategies only).
    pub deep: DeepMergeOptions,
    /// The options hash as given, without `strategy` (for explain).
    pub options: Map,
}

impl Default for Strategy {
    fn default() -> Strategy {
        Strategy::new(StrategyKind::First)
    }
}

impl Strategy {
    /// A strategy without options.
    pub fn new(kind: StrategyKind) -> Strategy {
        Strategy {
            kind,
            deep: DeepMergeOptions::default(),
            options: Map::default(),
        }
    }

    /// The strategy as a `merge` argument (`None` for `first`): its name,
    /// or a hash of it and its options.
    pub fn to_value(&self) -> Option<Value> {
        if self.kind == StrategyKind::First {
            return None;
        }
        if self.options.is_empty() {
            return Some(Value::from(self.name()));
        }
        let mut m = Map::default();
        m.insert(Value::from("strategy"), Value::from(self.name()));
        for (k, v) in self.options.iter() {
            m.insert(k.clone(), v.clone());
        }
        Some(Value::hash(m))
    }

    /// The public name of the strategy.
    pub fn name(&self) -> &'static str {
        match self.kind {
            StrategyKind::First => "first",
            StrategyKind::Unique => "unique",
            StrategyKind::Hash => "hash",
            StrategyKind::Deep => "deep",
            StrategyKind::UnconstrainedDeep => "unconstrained_deep",
            StrategyKind::ReverseDeep => "reverse_deep",
        }
    }

    /// Parses a `merge` argument: a strategy name, or a hash with
    /// `strategy` and options. `nil` gives first-found.
    pub fn from_value(merge: &Value) -> Result<Strategy> {
        let bad = |m: String| Error::new(ErrorKind::InvalidArgument, m);
        let (name_value, options) = match merge {
            Value::Nil => return Ok(Strategy::default()),
            Value::Hash(h) => {
                let s = h.get(&Value::from("strategy")).filter(|v| !v.is_nil()).ok_or_else(|| {
                    bad("The hash given as 'merge' must contain the name of a strategy in string form for the key 'strategy'".into())
                })?;
                (s.clone(), if h.len() == 1 { None } else { Some(h.clone()) })
            }
            other => (other.clone(), None),
        };
        let name = match &name_value {
            Value::String(s) => s.to_string(),
            Value::Symbol(s) => s.to_string(),
            other => {
                let mut s = String::new();
                crate::ruby::to_s(other, &mut s);
                s
            }
        };
        let kind = match name.as_str() {
            "first" | "default" => StrategyKind::First,
            "unique" => StrategyKind::Unique,
            "hash" => StrategyKind::Hash,
            "deep" => StrategyKind::Deep,
            "unconstrained_deep" => StrategyKind::UnconstrainedDeep,
            "reverse_deep" => StrategyKind::ReverseDeep,
            _ => return Err(bad(format!("Unknown merge strategy: '{name}'"))),
        };
        let mut strategy = Strategy::new(kind);
        if let Some(opts) = options {
            strategy.set_options(&name, &opts)?;
        }
        Ok(strategy)
    }

    fn set_options(&mut self, name: &str, opts: &Map) -> Result<()> {
        let bad = |m: String| {
            Error::new(
                ErrorKind::InvalidArgument,
                format!("The merge options has wrong type, {m}"),
            )
        };
        let mut stored = Map::default();
        for (k, v) in opts.iter() {
            let Some(key) = k.as_str() else {
                if matches!(
                    self.kind,
                    StrategyKind::UnconstrainedDeep | StrategyKind::ReverseDeep
                ) {
                    return Err(Error::new(
                        ErrorKind::InvalidArgument,
                        format!("The merge options has wrong type, expects a String[1] value for keys, got {}", infer_type(k)),
                    ));
                }
                return Err(bad(format!("unrecognized key '{}'", display(k))));
            };
            if key == "strategy" {
                let ok = match v {
                    Value::String(s) => s.contains(Strategy::new(self.kind).name()),
                    Value::Nil => true,
                    _ => false,
                };
                if !ok
                    && !matches!(
                        self.kind,
                        StrategyKind::UnconstrainedDeep | StrategyKind::ReverseDeep
                    )
                {
                    return Err(bad(format!(
                        "entry 'strategy' expects a match for Pattern[/{}/], got {}",
                        Strategy::new(self.kind).name(),
                        display_typed(v)
                    )));
                }
                continue;
            }
            match self.kind {
                StrategyKind::First | StrategyKind::Unique | StrategyKind::Hash => {
                    return Err(bad(format!("unrecognized key '{key}'")));
                }
                StrategyKind::Deep => match key {
                    "knockout_prefix" => match v {
                        Value::String(s) => self.deep.knockout_prefix = Some(s.to_string()),
                        Value::Nil => {}
                        _ => return Err(bad(format!("entry 'knockout_prefix' expects a value of type Undef or String, got {}", infer_type(v)))),
                    },
                    "merge_debug" | "merge_hash_arrays" | "sort_merged_arrays" => match v {
                        Value::Bool(b) => match key {
                            "merge_hash_arrays" => self.deep.merge_hash_arrays = *b,
                            "sort_merged_arrays" => self.deep.sort_merged_arrays = *b,
                            _ => {}
                        },
                        Value::Nil => {}
                        _ => return Err(bad(format!("entry '{key}' expects a value of type Undef or Boolean, got {}", infer_type(v)))),
                    },
                    _ => return Err(bad(format!("unrecognized key '{key}'"))),
                },
                StrategyKind::UnconstrainedDeep | StrategyKind::ReverseDeep => {
                    if key.is_empty() {
                        return Err(bad("expects a String[1] value for keys".into()));
                    }
                    apply_deep_option(&mut self.deep, key, v)?;
                }
            }
            stored.insert(k.clone(), v.clone());
        }
        self.options = stored;
        let _ = name;
        Ok(())
    }

    /// Merges `e1` (higher priority, the accumulated result) with `e2`
    /// (lower priority), type-checking both as Puppet does.
    pub fn merge(&self, e1: Value, e2: &Value) -> Result<Value> {
        match self.kind {
            StrategyKind::First => Ok(e1),
            StrategyKind::Hash => {
                check_hash("first", &e1)?;
                check_hash("second", e2)?;
                // e2.merge(e1): lower-priority order, higher-priority values.
                let (Value::Hash(hi), Value::Hash(lo)) = (&e1, e2) else {
                    unreachable!()
                };
                let mut out = lo.clone();
                for (k, v) in hi.iter() {
                    out.insert(k.clone(), v.clone());
                }
                Ok(Value::hash(out))
            }
            StrategyKind::Unique => {
                check_unique("first", &e1)?;
                check_unique("second", e2)?;
                let mut out: Vec<Value> = Vec::new();
                let mut seen: indexmap::IndexSet<Value, foldhash::fast::RandomState> =
                    indexmap::IndexSet::default();
                let mut push_all = |v: &Value| {
                    let mut flat = Vec::new();
                    flatten_into(v, &mut flat);
                    for x in flat {
                        if seen.insert(x.clone()) {
                            out.push(x);
                        }
                    }
                };
                push_all(&e1);
                push_all(e2);
                Ok(Value::array(out))
            }
            StrategyKind::Deep | StrategyKind::UnconstrainedDeep => {
                deep_merge_owned(e1, e2.clone(), &self.deep)
            }
            StrategyKind::ReverseDeep => deep_merge(e2, e1, &self.deep),
        }
    }

    /// Puppet's `convert_value`: applied to the first found value of a
    /// level with several candidates.
    pub fn convert_value(&self, v: Value) -> Value {
        match self.kind {
            StrategyKind::Unique => {
                let mut flat = Vec::new();
                flatten_into(&v, &mut flat);
                Value::array(flat)
            }
            _ => v,
        }
    }

    /// Puppet's `merge_single`: applied to the value of a level with exactly
    /// one candidate.
    pub fn merge_single(&self, v: Value) -> Value {
        match (self.kind, &v) {
            (StrategyKind::Unique, Value::Array(a)) => {
                let mut seen: indexmap::IndexSet<Value, foldhash::fast::RandomState> =
                    indexmap::IndexSet::default();
                Value::array(
                    a.iter()
                        .filter(|x| seen.insert((*x).clone()))
                        .cloned()
                        .collect(),
                )
            }
            _ => v,
        }
    }

    /// Puppet's `MergeStrategy#lookup`: combines the candidates `0..n` of one
    /// level. `f(i)` yields `Ok(None)` when candidate `i` has no value.
    pub fn lookup<F>(&self, n: usize, mut f: F) -> Result<Option<Value>>
    where
        F: FnMut(usize) -> Result<Option<Value>>,
    {
        self.lookup_with(&mut (), n, |_, i| f(i))
    }

    /// [`Strategy::lookup`] threading a context through the candidates.
    pub fn lookup_with<C: ?Sized, F>(
        &self,
        ctx: &mut C,
        n: usize,
        mut f: F,
    ) -> Result<Option<Value>>
    where
        F: FnMut(&mut C, usize) -> Result<Option<Value>>,
    {
        match n {
            0 => Ok(None),
            1 => Ok(f(ctx, 0)?.map(|v| self.merge_single(v))),
            _ => {
                if self.kind == StrategyKind::First {
                    for i in 0..n {
                        if let Some(v) = f(ctx, i)? {
                            return Ok(Some(v));
                        }
                    }
                    return Ok(None);
                }
                if matches!(
                    self.kind,
                    StrategyKind::Deep | StrategyKind::UnconstrainedDeep
                ) && self.deep.entries_independent()
                {
                    // No merge can fail: every candidate is found first and
                    // the chain merged in one pass. (Otherwise candidates and
                    // merges alternate, as in Puppet's `reduce`, so that a
                    // failing merge stops the lookup before the next
                    // candidate is read.)
                    let mut found = Vec::with_capacity(n);
                    for i in 0..n {
                        found.extend(f(ctx, i)?);
                    }
                    return deep_merge_chain(found, &self.deep);
                }
                let mut acc: Option<Value> = None;
                for i in 0..n {
                    if let Some(v) = f(ctx, i)? {
                        acc = Some(match acc {
                            None => self.convert_value(v),
                            Some(a) => self.merge(a, &v)?,
                        });
                    }
                }
                Ok(acc)
            }
        }
    }

    /// The configuration as Puppet's explain shows it.
    pub fn is_first(&self) -> bool {
        self.kind == StrategyKind::First
    }
}

/// Sets one deep_merge option by name (unconstrained deep strategies and
/// Hiera 3's `deep_merge_options` pass options through unvalidated).
pub fn apply_deep_option(o: &mut DeepMergeOptions, key: &str, v: &Value) -> Result<()> {
    let s = || match v {
        Value::String(s) => Some(s.to_string()),
        Value::Nil => None,
        other => {
            let mut t = String::new();
            crate::ruby::to_s(other, &mut t);
            Some(t)
        }
    };
    match key {
        "knockout_prefix" => o.knockout_prefix = s(),
        "unpack_arrays" => o.unpack_arrays = s(),
        "sort_merged_arrays" => o.sort_merged_arrays = v.is_truthy(),
        "merge_hash_arrays" => o.merge_hash_arrays = v.is_truthy(),
        "overwrite_arrays" => o.overwrite_arrays = v.is_truthy(),
        "extend_existing_arrays" => o.extend_existing_arrays = v.is_truthy(),
        "preserve_unmergeables" => o.preserve_unmergeables = v.is_truthy(),
        _ => {}
    }
    Ok(())
}

fn display(v: &Value) -> String {
    let mut s = String::new();
    crate::ruby::to_s(v, &mut s);
    s
}

fn display_typed(v: &Value) -> String {
    match v {
        Value::String(s) => format!("'{s}'"),
        _ => infer_type(v),
    }
}

/// Full recursive flatten (Ruby `Array#flatten`); a non-array becomes `[v]`.
fn flatten_into(v: &Value, out: &mut Vec<Value>) {
    crate::stack::grow(|| match v {
        Value::Array(a) => {
            for x in a.iter() {
                flatten_into(x, out);
            }
        }
        other => out.push(other.clone()),
    })
}

fn check_hash(which: &str, v: &Value) -> Result<()> {
    let detail = match v {
        Value::Hash(h) => {
            if h.keys().all(|k| matches!(k, Value::String(_))) {
                // A Struct: name the first entry that is not Data.
                match h.iter().find(|(_, v)| !crate::hiera5::ptype::is_data(v)) {
                    None => return Ok(()),
                    Some((k, bad)) => format!(
                        "entry '{}' expects a Data value, got {}",
                        k.as_str().unwrap_or(""),
                        match bad {
                            Value::Hash(_) => "Hash".to_string(),
                            Value::Array(_) => "Array".to_string(),
                            other => crate::hiera5::ptype::infer_type(other),
                        }
                    ),
                }
            } else {
                format!(
                    "expects a Hash[String, Data] value, got {}",
                    crate::hiera5::ptype::infer_detailed(v, false)
                )
            }
        }
        other => format!("expects a Hash value, got {}", infer_type(other)),
    };
    Err(Error::new(
        ErrorKind::Type,
        format!("The {which} element of the merge has wrong type, {detail}"),
    ))
}

fn check_unique(which: &str, v: &Value) -> Result<()> {
    let ok = match v {
        Value::Array(a) => a.iter().all(crate::hiera5::ptype::is_data),
        other => crate::hiera5::ptype::is_scalar(other),
    };
    if ok {
        return Ok(());
    }
    Err(Error::new(
        ErrorKind::Type,
        format!("The {which} element of the merge has wrong type, expects a value of type Scalar or Array, got {}", infer_type(v)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arr(items: &[&str]) -> Value {
        Value::array(items.iter().map(|s| Value::from(*s)).collect())
    }

    #[test]
    fn parse_strategies_and_errors() {
        assert_eq!(
            Strategy::from_value(&Value::from("deep")).unwrap().kind,
            StrategyKind::Deep
        );
        assert_eq!(
            Strategy::from_value(&Value::Nil).unwrap().kind,
            StrategyKind::First
        );
        let e = Strategy::from_value(&Value::from("bogus")).unwrap_err();
        assert_eq!(e.message, "Unknown merge strategy: 'bogus'");
        let mut h = Map::default();
        h.insert("knockout_prefix".into(), "--".into());
        let e = Strategy::from_value(&Value::hash(h.clone())).unwrap_err();
        assert!(e
            .message
            .starts_with("The hash given as 'merge' must contain"));
        h.insert("strategy".into(), "unique".into());
        let e = Strategy::from_value(&Value::hash(h.clone())).unwrap_err();
        assert_eq!(
            e.message,
            "The merge options has wrong type, unrecognized key 'knockout_prefix'"
        );
        h.insert("strategy".into(), "deep".into());
        let s = Strategy::from_value(&Value::hash(h)).unwrap();
        assert_eq!(s.deep.knockout_prefix.as_deref(), Some("--"));
    }

    /// A deep merge that fails (sorting values Ruby cannot compare) stops
    /// the lookup before the next candidate is read, as Puppet's `reduce`
    /// does; merges that cannot fail read every candidate, then merge.
    #[test]
    fn a_failing_deep_merge_stops_before_the_next_candidate() {
        let hash_of = |v: Value| {
            let mut h = Map::default();
            h.insert("k".into(), v);
            Value::hash(h)
        };
        let candidates = [
            hash_of(Value::array(vec![Value::Int(1)])),
            hash_of(arr(&["a"])),
            hash_of(arr(&["b"])),
        ];
        // The strategy's answer, and the candidates it read.
        let reading = |strategy: &Strategy| {
            let mut read = Vec::new();
            let answer = strategy.lookup(3, |i| {
                read.push(i);
                Ok(Some(candidates[i].clone()))
            });
            (answer, read)
        };
        let mut sorting = Strategy::new(StrategyKind::Deep);
        sorting.deep.sort_merged_arrays = true;
        let (answer, read) = reading(&sorting);
        assert_eq!(
            answer.unwrap_err().message,
            "comparison of String with 1 failed"
        );
        assert_eq!(read, [0, 1]);
        let (answer, read) = reading(&Strategy::new(StrategyKind::Deep));
        let merged = answer.unwrap();
        assert_eq!(read, [0, 1, 2]);
        assert_eq!(
            merged,
            Some(hash_of(Value::array(vec![
                Value::from("b"),
                Value::from("a"),
                Value::Int(1)
            ])))
        );
    }

    #[test]
    fn unique_merge_orders_highest_first() {
        let s = Strategy::new(StrategyKind::Unique);
        let r = s
            .lookup(3, |i| {
                Ok(Some(
                    [arr(&["c", "a"]), arr(&["b", "c"]), arr(&["a", "z"])][i].clone(),
                ))
            })
            .unwrap();
        assert_eq!(r, Some(arr(&["c", "a", "b", "z"])));
        // A lone value inside a multi-candidate level keeps its duplicates.
        let r = s
            .lookup(2, |i| {
                Ok(if i == 0 { Some(arr(&["a", "a"])) } else { None })
            })
            .unwrap();
        assert_eq!(r, Some(arr(&["a", "a"])));
        // A single-candidate level de-duplicates.
        let r = s.lookup(1, |_| Ok(Some(arr(&["a", "a"])))).unwrap();
        assert_eq!(r, Some(arr(&["a"])));
    }

    #[test]
    fn hash_merge_keeps_lower_order() {
        let s = Strategy::new(StrategyKind::Hash);
        let mut hi = Map::default();
        hi.insert("z".into(), Value::Int(1));
        let mut lo = Map::default();
        lo.insert("y".into(), Value::Int(2));
        lo.insert("z".into(), Value::Int(3));
        let r = s.merge(Value::hash(hi), &Value::hash(lo)).unwrap();
        let keys: Vec<_> = r.as_hash().unwrap().keys().cloned().collect();
        assert_eq!(keys, vec![Value::from("y"), Value::from("z")]);
        assert_eq!(r.get("z"), Some(&Value::Int(1)));
        let e = s.merge(Value::Nil, &Value::empty_hash()).unwrap_err();
        assert!(e
            .message
            .starts_with("The first element of the merge has wrong type"));
    }

    #[test]
    fn unique_rejects_lower_nil_but_wraps_higher_nil() {
        let s = Strategy::new(StrategyKind::Unique);
        let r = s
            .lookup(2, |i| {
                Ok(Some(if i == 0 { Value::Nil } else { arr(&["x"]) }))
            })
            .unwrap();
        assert_eq!(r, Some(Value::array(vec![Value::Nil, Value::from("x")])));
        assert!(s
            .lookup(2, |i| Ok(Some(if i == 0 {
                arr(&["x"])
            } else {
                Value::Nil
            })))
            .is_err());
    }
}
