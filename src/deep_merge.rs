//! Deep merging as done by the Ruby `deep_merge` gem, version 1.1.1.
//!
//! Both Hiera 5 (Puppet's `deep` merge strategy) and Hiera 3
//! (`:merge_behavior: deep` / `deeper`) hand their deep merges to
//! `DeepMerge.deep_merge!(source, dest, options)`. [`deep_merge`] reproduces
//! that call, quirks included:
//!
//! * `source` has priority; the merged `dest` is returned.
//! * A `nil` source leaves `dest` alone; a `nil` or `false` dest is replaced
//!   by the source (unless `preserve_unmergeables`).
//! * A key whose destination value is missing, `nil` or `false` receives the
//!   source value merged into a shallow copy of itself, so arrays nested in
//!   it lose their duplicates (and, with a knockout prefix, lose knocked out
//!   entries in the way Ruby's `delete_if` does when the array deletes from
//!   itself while being iterated).
//! * Arrays are merged as `dest | source` (union by `eql?`, destination
//!   order first), after knockouts; `sort_merged_arrays` sorts the result
//!   the way Ruby's `Array#sort!` does (glibc merge sort, `<=>` semantics,
//!   Ruby's `comparison of X with Y failed` errors).
//! * The knockout prefix is used unescaped in the regular expression
//!   `/^#{prefix}/` (so `^` is a start-of-line anchor and regexp
//!   metacharacters in the prefix are live).
//! * A non-hash destination overwritten by a source hash becomes that very
//!   hash, so the remaining keys of the source are then merged into
//!   themselves.
//!
//! The `merge_debug` option of the gem only prints to standard output and is
//! not reproduced. The options `keep_array_duplicates` and
//! `merge_nil_values` only exist in later versions of the gem (1.2+), so they
//! are not offered here.

use crate::error::{Error, ErrorKind, Result};
use crate::value::{List, Map, Value};
use indexmap::IndexSet;
use std::borrow::Cow;
use std::cell::OnceCell;
use std::sync::Arc;

/// The options of `DeepMerge.deep_merge!` (gem 1.1.1). `Default` gives the
/// gem's defaults.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeepMergeOptions {
    /// `:preserve_unmergeables`: keep the destination when source and
    /// destination cannot be merged (Hiera 3 `deep` = true; Puppet `deep`
    /// and Hiera 3 `deeper` = false).
    pub preserve_unmergeables: bool,
    /// `:knockout_prefix`: strings starting with it remove matching entries.
    pub knockout_prefix: Option<String>,
    /// `:overwrite_arrays`: a source array replaces the destination.
    pub overwrite_arrays: bool,
    /// `:sort_merged_arrays`: sort arrays after merging them.
    pub sort_merged_arrays: bool,
    /// `:unpack_arrays`: join arrays with this string and split them again.
    pub unpack_arrays: Option<String>,
    /// `:merge_hash_arrays`: merge arrays of hashes element by element.
    pub merge_hash_arrays: bool,
    /// `:extend_existing_arrays`: push non-array sources onto a destination
    /// array instead of replacing it.
    pub extend_existing_arrays: bool,
}

impl DeepMergeOptions {
    /// The options Puppet's `deep` merge strategy starts from
    /// (`preserve_unmergeables: false`); Puppet then adds the lookup's
    /// `knockout_prefix`, `sort_merged_arrays` and `merge_hash_arrays`.
    pub fn puppet_deep() -> DeepMergeOptions {
        DeepMergeOptions::default()
    }

    /// Hiera 3 `:merge_behavior: deep` (`preserve_unmergeables: true`).
    pub fn hiera3_deep() -> DeepMergeOptions {
        DeepMergeOptions {
            preserve_unmergeables: true,
            ..DeepMergeOptions::default()
        }
    }

    /// Hiera 3 `:merge_behavior: deeper` (`preserve_unmergeables: false`).
    pub fn hiera3_deeper() -> DeepMergeOptions {
        DeepMergeOptions::default()
    }

    /// `true` when no merge under these options can fail, and merging one
    /// entry of a hash does not depend on the others: no knockout prefix,
    /// no sorting. The entries may then be merged in any order, and a chain
    /// of merges in one pass ([`deep_merge_chain`]).
    pub fn entries_independent(&self) -> bool {
        self.knockout_prefix.is_none() && !self.sort_merged_arrays
    }
}

/// `DeepMerge.deep_merge!(source, dest, options)`: merges `source` into
/// `dest` and returns the merged destination. `source` has priority.
///
/// Errors: `DeepMerge::InvalidParameter` (empty knockout prefix, or a
/// knockout prefix with `preserve_unmergeables`) and an invalid knockout
/// regexp give [`ErrorKind::Merge`]; Ruby's `ArgumentError` from
/// sorting incomparable values gives [`ErrorKind::Merge`] too. Messages are
/// Ruby's.
pub fn deep_merge(source: &Value, dest: Value, opts: &DeepMergeOptions) -> Result<Value> {
    deep_merge_owned(source.clone(), dest, opts)
}

/// [`deep_merge`] taking the source by value: a source hash that only the
/// caller holds gives its entries to the result instead of copying them
/// (what a chain of merges does with its accumulated value).
pub fn deep_merge_owned(source: Value, dest: Value, opts: &DeepMergeOptions) -> Result<Value> {
    Merger::new(opts)?.merge(source, Dest::Other(dest))
}

/// The deep merge of a chain of values, highest priority first, as a lookup
/// finds them: `deep_merge!(...deep_merge!(deep_merge!(values[0],
/// values[1]), values[2])..., values[n-1])`, each result the source of the
/// next merge. `None` for no values; one value is returned as it is.
///
/// When every value is a hash and the options make each entry's merge
/// independent of the others ([`DeepMergeOptions::entries_independent`]),
/// the chain is merged in one pass: the keys in the order the chain gives
/// them, then each key's value folded from the hashes that have it. The
/// result is the same, in the same order, without the intermediate results.
pub fn deep_merge_chain(values: Vec<Value>, opts: &DeepMergeOptions) -> Result<Option<Value>> {
    let mut values = values.into_iter();
    let Some(mut acc) = values.next() else {
        return Ok(None);
    };
    if values.len() == 0 {
        // No `deep_merge!` call, so no check of the options either.
        return Ok(Some(acc));
    }
    let merger = Merger::new(opts)?;
    if merger.opts.entries_independent()
        && matches!(acc, Value::Hash(_))
        && values
            .as_slice()
            .iter()
            .all(|v| matches!(v, Value::Hash(_)))
    {
        let maps = std::iter::once(&acc)
            .chain(values.as_slice())
            .filter_map(Value::as_hash);
        return with_maps(maps, |maps| merger.merge_hashes(maps)).map(Some);
    }
    for dest in values {
        acc = merger.merge(acc, Dest::Other(dest))?;
    }
    Ok(Some(acc))
}

fn invalid_parameter(message: &str) -> Error {
    Error::new(ErrorKind::Merge, message)
}

/// The destination of one recursive `deep_merge!` call, and how it relates
/// to the source object (the gem aliases objects in two places, and the
/// aliasing is visible in the results).
enum Dest {
    /// A destination object distinct from the source.
    Other(Value),
    /// The destination is the source object itself (`deep_merge!(v, v)`).
    Same,
    /// The destination is `source.dup`: a shallow copy whose elements are
    /// the source's own elements.
    Copy,
}

struct Knockout<'a> {
    prefix: &'a str,
    /// `/^#{prefix}/`, compiled on first use as Ruby does.
    regex: OnceCell<std::result::Result<regex::bytes::Regex, String>>,
    /// The same, matching bytes rather than characters, for binary strings.
    byte_regex: OnceCell<Option<regex::bytes::Regex>>,
}

impl Knockout<'_> {
    fn regex(&self) -> Result<&regex::bytes::Regex> {
        let compiled = self.regex.get_or_init(|| {
            compile_cached(&format!("(?m)^{}", self.prefix)).map_err(|e| {
                let detail = e.to_string();
                let detail = detail
                    .lines()
                    .rev()
                    .find(|l| l.starts_with("error:"))
                    .map(|l| l.trim_start_matches("error:").trim().to_string())
                    .unwrap_or(detail);
                format!("{}: /^{}/", detail, self.prefix)
            })
        });
        compiled
            .as_ref()
            .map_err(|m| Error::new(ErrorKind::Merge, m.clone()))
    }

    /// The regexp for a binary (non-UTF-8) string, where Ruby's `.` matches
    /// any byte.
    fn byte_regex(&self) -> Result<&regex::bytes::Regex> {
        let unicode = self.regex()?;
        let bytes = self
            .byte_regex
            .get_or_init(|| compile_cached(&format!("(?m-u)^{}", self.prefix)).ok());
        Ok(bytes.as_ref().unwrap_or(unicode))
    }

    /// `item.gsub(/^#{prefix}/, "")` for a String; `None` for other values
    /// (which do not respond to `gsub`).
    fn gsub(&self, item: &Value) -> Result<Option<Value>> {
        Ok(match item {
            Value::String(s) => {
                let out = self.regex()?.replace_all(s.as_bytes(), &b""[..]);
                Some(bytes_to_value(out.into_owned()))
            }
            Value::Bytes(b) => {
                let out = self.byte_regex()?.replace_all(b, &b""[..]);
                Some(bytes_to_value(out.into_owned()))
            }
            _ => None,
        })
    }

    /// The knockout target of `item` (`item` with the prefix removed), if
    /// `item` is a String the prefix changes.
    /// A NaN is its own target: Ruby's `item != ko_item` holds for it
    /// (NaN never equals itself), so the gem knocks it out.
    fn target(&self, item: &Value) -> Result<Option<Value>> {
        if crate::ruby::compare::is_nan(item) {
            return Ok(Some(item.clone()));
        }
        Ok(self
            .gsub(item)?
            .filter(|stripped| !crate::ruby::compare::equal(stripped, item)))
    }

    /// `item.kind_of?(String) && item.match(/^#{prefix}/)`.
    fn matches(&self, item: &Value) -> Result<bool> {
        Ok(match item {
            Value::String(s) => self.regex()?.is_match(s.as_bytes()),
            Value::Bytes(b) => self.byte_regex()?.is_match(b),
            _ => false,
        })
    }

    /// `item == prefix`.
    fn is_bare(&self, item: &Value) -> bool {
        item.as_str() == Some(self.prefix)
    }
}

struct Merger<'a> {
    opts: &'a DeepMergeOptions,
    knockout: Option<Knockout<'a>>,
}

impl<'a> Merger<'a> {
    /// The merger of `opts`, which are checked as the gem checks them.
    fn new(opts: &'a DeepMergeOptions) -> Result<Merger<'a>> {
        if opts.knockout_prefix.as_deref() == Some("") {
            return Err(invalid_parameter(
                "knockout_prefix cannot be an empty string in deep_merge!",
            ));
        }
        if opts.knockout_prefix.is_some() && opts.preserve_unmergeables {
            return Err(invalid_parameter(
                "overwrite_unmergeable must be true if knockout_prefix is specified in deep_merge!",
            ));
        }
        Ok(Merger {
            opts,
            knockout: opts.knockout_prefix.as_deref().map(|prefix| Knockout {
                prefix,
                regex: OnceCell::new(),
                byte_regex: OnceCell::new(),
            }),
        })
    }

    fn overwrite_unmergeable(&self) -> bool {
        !self.opts.preserve_unmergeables
    }

    /// One `deep_merge!(source, dest)` call.
    fn merge(&self, source: Value, dest: Dest) -> Result<Value> {
        if matches!(dest, Dest::Same | Dest::Copy) && self.is_fixpoint(&source) {
            // Merging this value into itself changes nothing: skip the walk
            // (and the copies it would make).
            return Ok(source);
        }
        if source.is_nil() {
            // `return dest if source.nil?`; an aliased dest is nil as well.
            return Ok(match dest {
                Dest::Other(d) => d,
                Dest::Same | Dest::Copy => source,
            });
        }
        let dest_truthy = match &dest {
            Dest::Other(d) => d.is_truthy(),
            Dest::Same | Dest::Copy => source.is_truthy(),
        };
        if !dest_truthy && self.overwrite_unmergeable() {
            return Ok(source);
        }
        match source {
            Value::Hash(src) => self.merge_hash(src, dest),
            Value::Array(src) => self.merge_array(src, dest),
            scalar => match dest {
                Dest::Other(Value::Array(mut d)) if self.opts.extend_existing_arrays => {
                    d.push(scalar);
                    Ok(Value::Array(d))
                }
                Dest::Other(d) => self.overwrite_unmergeables(scalar, d),
                Dest::Same | Dest::Copy => {
                    let d = scalar.clone();
                    self.overwrite_unmergeables(scalar, d)
                }
            },
        }
    }

    /// `true` when `deep_merge!(v, v)` (or into `v.dup`) returns `v`
    /// unchanged: no option that rewrites values is set, and every array
    /// inside is already free of `eql?` duplicates. Conservative: `false`
    /// means "walk it".
    fn is_fixpoint(&self, v: &Value) -> bool {
        crate::stack::grow(|| {
            if self.knockout.is_some()
                || self.opts.unpack_arrays.is_some()
                || self.opts.sort_merged_arrays
                || self.opts.extend_existing_arrays
            {
                return false;
            }
            match v {
                Value::Hash(h) => h.values().all(|x| self.is_fixpoint(x)),
                Value::Array(a) => {
                    if self.opts.merge_hash_arrays && all_hashes(a) {
                        return false;
                    }
                    all_distinct(a)
                }
                _ => true,
            }
        })
    }

    /// The gem's `overwrite_unmergeables(source, dest)`.
    fn overwrite_unmergeables(&self, source: Value, dest: Value) -> Result<Value> {
        if !self.overwrite_unmergeable() {
            return Ok(dest);
        }
        let Some(ko) = &self.knockout else {
            return Ok(source);
        };
        match source {
            Value::String(_) | Value::Bytes(_) => {
                let stripped = ko.gsub(&source)?.unwrap_or(Value::Nil);
                if crate::ruby::compare::equal(&stripped, &source) {
                    Ok(stripped)
                } else {
                    // A knocked out string removes the destination.
                    Ok(Value::string(""))
                }
            }
            Value::Array(a) => {
                // `source.delete_if { ... }` changes the source in place, so
                // the comparison that follows always finds it unchanged.
                let mut items = unwrap_vec(a);
                let mut kept = Vec::with_capacity(items.len());
                for item in items.drain(..) {
                    if !ko.matches(&item)? {
                        kept.push(item);
                    }
                }
                Ok(Value::array(kept))
            }
            // `src_tmp == source` is false for a NaN (`src_tmp` is the
            // same Float, but Float#== says NaN != NaN): the destination
            // is replaced by "", as for a knocked out string.
            other if crate::ruby::compare::is_nan(&other) => Ok(Value::string("")),
            other => Ok(other),
        }
    }

    /// `deep_merge!(source_hash, dest_hash)`: each source entry merged
    /// into the destination (a copy of it when it is shared). A source the
    /// merge owns alone gives its keys and values up instead of copying them.
    fn merge_into(&self, src: Map, mut dest: Map) -> Result<Value> {
        if !dest.is_unique() && self.opts.entries_independent() && copy_pays(src.len(), dest.len())
        {
            return self.merge_into_copy(src, &dest);
        }
        let map = &mut dest;
        if src.is_unique() {
            for (key, value) in src {
                self.merge_entry(map, Cow::Owned(key), value)?;
            }
        } else {
            for (key, value) in src.iter() {
                self.merge_entry(map, Cow::Borrowed(key), value.clone())?;
            }
        }
        Ok(Value::Hash(dest))
    }

    /// `true` when an array merged into an array is their union, `dest |
    /// source`, and nothing else (no option rewrites or replaces arrays).
    fn arrays_unite(&self) -> bool {
        self.opts.entries_independent()
            && !self.opts.overwrite_arrays
            && self.opts.unpack_arrays.is_none()
            && !self.opts.merge_hash_arrays
    }

    /// [`Merger::merge_into`] for a destination hash that is shared (it comes
    /// from the file cache, or from a caller): the result is built as a new
    /// hash, the destination's keys in their order and then the source's new
    /// keys, without first copying the destination and then overwriting most
    /// of it. Only under [`DeepMergeOptions::entries_independent`] options, where the
    /// order in which entries are merged does not show.
    fn merge_into_copy(&self, src: Map, dest: &Map) -> Result<Value> {
        // Owned: its values are taken; shared: copied.
        let mut source = if src.is_unique() { Ok(src) } else { Err(src) };
        let n = source.as_ref().map_or_else(|shared| shared.len(), Map::len);
        let mut merged = Marks::new(n);
        let mut out = dest.try_map_values(n, |key, dv| {
            let Some(j) = source.as_ref().map_or_else(
                |shared| shared.get_index_of(key),
                |owned| owned.get_index_of(key),
            ) else {
                return Ok(dv.clone());
            };
            merged.set(j);
            let sv = match &mut source {
                Ok(owned) => std::mem::take(owned.get_index_mut(j).expect("index just found").1),
                Err(shared) => shared.get_index(j).expect("index just found").1.clone(),
            };
            if dv.is_truthy() {
                self.merge_over(sv, dv)
            } else {
                self.merge(sv, Dest::Copy)
            }
        })?;
        // The source's keys the destination lacks, in the source's order.
        match source {
            Ok(owned) => {
                for (j, (key, value)) in owned.into_iter().enumerate() {
                    if !merged.get(j) {
                        out.insert_unique(key, self.merge(value, Dest::Copy)?);
                    }
                }
            }
            Err(shared) => {
                for (j, (key, value)) in shared.iter().enumerate() {
                    if !merged.get(j) {
                        out.insert_unique(key.clone(), self.merge(value.clone(), Dest::Copy)?);
                    }
                }
            }
        }
        Ok(Value::hash(out))
    }

    /// The chain of merges of `hashes` (highest priority first; at least
    /// two), each result merged into the next hash, built in one pass under
    /// [`DeepMergeOptions::entries_independent`] options: the keys in the chain's
    /// order ([`Map::merged_keys`]), then each key's value folded from the
    /// hashes that have it ([`Merger::fold_entry`]). No intermediate hash is
    /// built, at this level or in nested hashes that several levels have.
    fn merge_hashes(&self, hashes: &[&Map]) -> Result<Value> {
        thread_local! {
            /// The table of positions of the thread's outermost large merge.
            static SCRATCH: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        let m = hashes.len();
        let cells = m * hashes.iter().map(|h| h.len()).sum::<usize>();
        let mut on_stack = [0u32; 64];
        if cells <= on_stack.len() {
            return self.merge_hashes_with(hashes, &mut on_stack[..cells]);
        }
        SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
            Ok(mut table) => {
                table.clear();
                table.resize(cells, 0);
                let merged = self.merge_hashes_with(hashes, &mut table);
                if table.capacity() > KEPT_SCRATCH {
                    // Not kept for the thread's life after an outsized merge.
                    *table = Vec::new();
                }
                merged
            }
            // A large merge nested in another.
            Err(_) => self.merge_hashes_with(hashes, &mut vec![0; cells]),
        })
    }

    fn merge_hashes_with(&self, hashes: &[&Map], present: &mut [u32]) -> Result<Value> {
        crate::stack::grow(|| {
            let m = hashes.len();
            let mut out = Map::merged_keys(hashes, present);
            for (row, value) in present.chunks_exact(m).zip(out.values_mut()) {
                self.fold_entry(hashes, row, value)?;
            }
            Ok(Value::hash(out))
        })
    }

    /// One key's value in [`Merger::merge_hashes`], written to `out`:
    /// `row[i]` is one more than its position in `hashes[i]`, 0 where that
    /// hash lacks it. Folded as the chain of pairwise merges does: from the
    /// first hash that has the key, each later hash that has it is merged
    /// into (the value so far is the source), and each later hash that lacks
    /// it merges the value so far into a copy of itself. Runs of hashes or
    /// arrays are merged in one pass ([`Merger::merge_run`]).
    fn fold_entry(&self, hashes: &[&Map], row: &[u32], out: &mut Value) -> Result<()> {
        let mut i = row
            .iter()
            .position(|&j| j != 0)
            .expect("each merged key is in one of the hashes");
        // `out` holds the value so far once `started`; `unchanged` when it
        // is known to be its own merge into a copy of itself.
        let (mut started, mut unchanged) = (false, false);
        while i < row.len() {
            let Some(v) = value_in(hashes, row, i) else {
                if started && !unchanged {
                    // What `merge(out, Dest::Copy)` checks first: a value it
                    // leaves alone stays so through later gaps.
                    unchanged = self.is_fixpoint(out);
                    if !unchanged {
                        *out = self.merge(std::mem::take(out), Dest::Copy)?;
                    }
                }
                i += 1;
                continue;
            };
            unchanged = false;
            if let Some(end) = self.merge_run(hashes, row, i, started, out)? {
                started = true;
                i = end;
                continue;
            }
            *out = if !started {
                v.clone()
            } else if v.is_truthy() {
                if self.replaces(out, v) {
                    // The value so far stays (and is not moved: read back
                    // whole right after being written, it stalled).
                    i += 1;
                    continue;
                }
                self.merge_over(std::mem::take(out), v)?
            } else {
                self.merge(std::mem::take(out), Dest::Copy)?
            };
            started = true;
            i += 1;
        }
        Ok(())
    }

    /// In [`Merger::fold_entry`], the values from `hashes[i]` on that are all
    /// hashes, or all arrays that merge as unions ([`Merger::arrays_unite`]),
    /// merged in one pass after the value so far in `out` (when `started`;
    /// it must then be of the same kind), the result written to `out`. The
    /// end of the run is returned; `None`, and `out` left alone, when the run
    /// would be a single merge.
    fn merge_run(
        &self,
        hashes: &[&Map],
        row: &[u32],
        i: usize,
        started: bool,
        out: &mut Value,
    ) -> Result<Option<usize>> {
        #[derive(PartialEq)]
        enum Kind {
            Hash,
            Array,
            Other,
        }
        let kind_of = |v: Option<&Value>| match v {
            Some(Value::Hash(_)) => Kind::Hash,
            Some(Value::Array(_)) if self.arrays_unite() => Kind::Array,
            _ => Kind::Other,
        };
        let kind = kind_of(value_in(hashes, row, i));
        if kind == Kind::Other || (started && kind_of(Some(out)) != kind) {
            return Ok(None);
        }
        let end = (i..row.len())
            .find(|&e| kind_of(value_in(hashes, row, e)) != kind)
            .unwrap_or(row.len());
        let n = end - i + usize::from(started);
        if n < 2 {
            return Ok(None);
        }
        // Highest priority first.
        let run = started
            .then_some(&*out)
            .into_iter()
            .chain((i..end).filter_map(|e| value_in(hashes, row, e)));
        let merged = if kind == Kind::Hash {
            with_maps(run.filter_map(Value::as_hash), |maps| {
                self.merge_hashes(maps)
            })?
        } else {
            // `a[end-1] | (... | (a[i] | so far))`: the elements of all,
            // lowest first, without `eql?` duplicates.
            let arrays = run.rev().filter_map(Value::as_array);
            let total = arrays.clone().map(<[Value]>::len).sum();
            let mut merged = Vec::with_capacity(total);
            if total <= SMALL {
                for item in arrays.flatten() {
                    if !merged.contains(item) {
                        merged.push(item.clone());
                    }
                }
            } else {
                for a in arrays {
                    merged = union(merged, a);
                }
            }
            Value::array(merged)
        };
        *out = merged;
        Ok(Some(end))
    }

    /// `merge(source, Dest::Other(dest))` for a truthy destination that is
    /// borrowed: a source that replaces the destination (a scalar, or nil
    /// which keeps it) is answered without copying the destination.
    fn merge_over(&self, source: Value, dest: &Value) -> Result<Value> {
        if self.replaces(&source, dest) {
            return Ok(source);
        }
        if source.is_nil() && self.overwrite_unmergeable() && self.knockout.is_none() {
            return Ok(dest.clone());
        }
        self.merge(source, Dest::Other(dest.clone()))
    }

    /// `true` when merging `source` into the truthy `dest` gives `source`
    /// itself: a scalar (not nil) overwriting what it cannot merge with.
    fn replaces(&self, source: &Value, dest: &Value) -> bool {
        self.overwrite_unmergeable()
            && self.knockout.is_none()
            && !matches!(source, Value::Nil | Value::Hash(_) | Value::Array(_))
            && !(self.opts.extend_existing_arrays && matches!(dest, Value::Array(_)))
    }

    /// One iteration of the gem's `source.each` over a destination hash.
    fn merge_entry(&self, map: &mut Map, key: Cow<'_, Value>, value: Value) -> Result<()> {
        match map.get_index_of(&*key) {
            Some(at) => {
                let slot = map.get_index_mut(at).expect("index just found").1;
                *slot = if slot.is_truthy() {
                    let existing = std::mem::take(slot);
                    self.merge(value, Dest::Other(existing))?
                } else {
                    self.merge(value, Dest::Copy)?
                };
            }
            None => {
                let merged = self.merge(value, Dest::Copy)?;
                map.insert(key.into_owned(), merged);
            }
        }
        Ok(())
    }

    fn merge_hash(&self, mut src: Map, dest: Dest) -> Result<Value> {
        crate::stack::grow(|| {
            enum State {
                /// The destination is the source hash itself: each remaining
                /// value is merged into itself. (A merge into `source.dup` has
                /// the same outcome, since the copy shares the values.)
                Itself,
                /// A destination array with `extend_existing_arrays`, its
                /// elements as a `Vec` while the loop pushes to it (a
                /// `List` has no spare room: a push is a reallocation).
                Extend(Vec<Value>),
                /// Any other destination.
                Unmergeable(Value),
            }
            let mut state = match dest {
                Dest::Other(Value::Hash(d)) => return self.merge_into(src, d),
                Dest::Other(Value::Array(a)) if self.opts.extend_existing_arrays => {
                    State::Extend(a.into_vec())
                }
                Dest::Other(other) => State::Unmergeable(other),
                Dest::Same | Dest::Copy => State::Itself,
            };
            for i in 0..src.len() {
                state = match state {
                    State::Itself => {
                        let slot = src.get_index_mut(i).unwrap().1;
                        let value = std::mem::take(slot);
                        // A falsy value is merged into its `dup`, which leaves
                        // it as it is.
                        let merged = if value.is_truthy() {
                            self.merge(value, Dest::Same)?
                        } else {
                            value
                        };
                        *src.get_index_mut(i).unwrap().1 = merged;
                        State::Itself
                    }
                    State::Extend(mut a) => {
                        // The whole source hash is pushed, once per key.
                        a.push(Value::Hash(src.clone()));
                        State::Extend(a)
                    }
                    State::Unmergeable(d) => {
                        if self.overwrite_unmergeable() {
                            // `dest = source`: from now on the loop merges the
                            // source's values into themselves.
                            State::Itself
                        } else {
                            State::Unmergeable(d)
                        }
                    }
                };
            }
            Ok(match state {
                State::Itself => Value::Hash(src),
                State::Extend(a) => Value::array(a),
                State::Unmergeable(d) => d,
            })
        })
    }

    fn merge_array(&self, src: List, dest: Dest) -> Result<Value> {
        crate::stack::grow(|| {
            if self.opts.overwrite_arrays {
                return Ok(Value::Array(src));
            }
            enum ArrayDest {
                /// The source array itself.
                Itself,
                /// Another object. `aligned` is true when it is a shallow copy of
                /// the source, so hash elements at equal positions are the same
                /// objects.
                Other { value: Value, aligned: bool },
            }
            let mut dest = match dest {
                Dest::Other(value) => ArrayDest::Other {
                    value,
                    aligned: false,
                },
                Dest::Same => ArrayDest::Itself,
                Dest::Copy => ArrayDest::Other {
                    value: Value::Array(src.clone()),
                    aligned: true,
                },
            };
            let mut source = unwrap_vec(src);

            if let Some(sep) = &self.opts.unpack_arrays {
                let unpacked = unpack(&source, sep);
                dest = match dest {
                    ArrayDest::Itself => ArrayDest::Other {
                        value: Value::array(unpack(&source, sep)),
                        aligned: false,
                    },
                    ArrayDest::Other {
                        value: Value::Array(d),
                        ..
                    } => ArrayDest::Other {
                        value: Value::array(unpack(&d, sep)),
                        aligned: false,
                    },
                    other => other,
                };
                source = unpacked;
            }

            if let Some(ko) = &self.knockout {
                if source.iter().any(|item| ko.is_bare(item)) {
                    // A bare prefix truncates the destination.
                    match &mut dest {
                        ArrayDest::Itself => source.clear(),
                        ArrayDest::Other { value, .. } => {
                            *value = clear_or_nil(std::mem::take(value));
                            source.retain(|item| !ko.is_bare(item));
                        }
                    }
                }
            }

            match dest {
                ArrayDest::Itself => {
                    if let Some(ko) = &self.knockout {
                        self_delete_if(&mut source, ko)?;
                    }
                    let merged = if self.opts.merge_hash_arrays && all_hashes(&source) {
                        source
                            .into_iter()
                            .map(|item| self.merge(item, Dest::Same))
                            .collect::<Result<Vec<_>>>()?
                    } else {
                        union(Vec::new(), &source)
                    };
                    self.finish_array(merged)
                }
                ArrayDest::Other {
                    value: Value::Array(d),
                    aligned,
                } => {
                    let mut d = unwrap_vec_with_room(d, source.len());
                    if let Some(ko) = &self.knockout {
                        let mut kept = Vec::with_capacity(source.len());
                        for item in source.drain(..) {
                            match ko.target(&item)? {
                                Some(target) => {
                                    d.retain(|e| !crate::ruby::compare::rb_equal(e, &target));
                                    d.retain(|e| !crate::ruby::compare::rb_equal(e, &item));
                                }
                                None => kept.push(item),
                            }
                        }
                        source = kept;
                    }
                    let merged =
                        if self.opts.merge_hash_arrays && all_hashes(&source) && all_hashes(&d) {
                            let dest_len = d.len();
                            let mut list = Vec::with_capacity(dest_len.max(source.len()));
                            for (i, item) in d.into_iter().enumerate() {
                                list.push(if aligned {
                                    self.merge(item, Dest::Same)?
                                } else {
                                    let src_item =
                                        source.get(i).cloned().unwrap_or_else(Value::empty_hash);
                                    self.merge(src_item, Dest::Other(item))?
                                });
                            }
                            if source.len() > dest_len {
                                list.extend(source.drain(dest_len..));
                            }
                            list
                        } else {
                            union(d, &source)
                        };
                    self.finish_array(merged)
                }
                ArrayDest::Other { value, .. } => {
                    if self.overwrite_unmergeable() {
                        self.overwrite_unmergeables(Value::array(source), value)
                    } else {
                        Ok(value)
                    }
                }
            }
        })
    }

    fn finish_array(&self, mut merged: Vec<Value>) -> Result<Value> {
        if self.opts.sort_merged_arrays {
            crate::ruby::compare::sort(&mut merged)?;
        }
        Ok(Value::array(merged))
    }
}

/// In [`Merger::merge_hashes`]: the value of the key whose row is `row` in
/// `hashes[i]`, if that hash has it.
fn value_in<'h>(hashes: &[&'h Map], row: &[u32], i: usize) -> Option<&'h Value> {
    let j = row[i].checked_sub(1)?;
    hashes[i].get_index(j as usize).map(|(_, v)| v)
}

/// The most positions (256 KiB) [`Merger::merge_hashes`] keeps in its
/// per-thread buffer between merges.
const KEPT_SCRATCH: usize = 1 << 16;

/// `f` of the maps `maps` yields, gathered on the stack when they are few
/// (a merge's levels usually are).
fn with_maps<'m, R>(mut maps: impl Iterator<Item = &'m Map>, f: impl FnOnce(&[&Map]) -> R) -> R {
    const ON_STACK: usize = 8;
    let Some(first) = maps.next() else {
        return f(&[]);
    };
    let mut gathered: [&Map; ON_STACK] = [first; ON_STACK];
    for k in 1..ON_STACK {
        match maps.next() {
            Some(map) => gathered[k] = map,
            None => return f(&gathered[..k]),
        }
    }
    match maps.next() {
        None => f(&gathered),
        Some(more) => f(&gathered
            .into_iter()
            .chain(Some(more))
            .chain(maps)
            .collect::<Vec<_>>()),
    }
}

/// Knockout prefixes repeat across merges: each pattern is compiled once per
/// process (a compiled `Regex` is cheap to clone).
fn compile_cached(pattern: &str) -> std::result::Result<regex::bytes::Regex, regex::Error> {
    static CACHE: std::sync::OnceLock<
        std::sync::Mutex<std::collections::HashMap<String, regex::bytes::Regex>>,
    > = std::sync::OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(re) = cache.lock().unwrap_or_else(|p| p.into_inner()).get(pattern) {
        return Ok(re.clone());
    }
    let re = regex::bytes::Regex::new(pattern)?;
    let mut map = cache.lock().unwrap_or_else(|p| p.into_inner());
    if map.len() < 1024 {
        map.insert(pattern.to_string(), re.clone());
    }
    Ok(re)
}

fn unwrap_vec(a: List) -> Vec<Value> {
    a.into_vec()
}

/// `true` when building a merge result in the destination's order
/// ([`Merger::merge_into_copy`]: one lookup in the source per destination
/// key) should cost less than copying the destination and merging each
/// source entry into the copy (one lookup in the destination per source
/// key), that is when the source has at least as many entries. A source
/// smaller than its destination (a node's few overrides over a large common
/// hash, Hiera's usual shape) merges 20-35% faster in place. Either way
/// gives the same result, in the same order.
fn copy_pays(source_len: usize, dest_len: usize) -> bool {
    source_len >= dest_len
}

/// Which entries of a source hash were merged: bits of a word for up to 64
/// entries (no allocation), a vector beyond.
enum Marks {
    Word(u64),
    Many(Vec<bool>),
}

impl Marks {
    fn new(n: usize) -> Marks {
        if n <= 64 {
            Marks::Word(0)
        } else {
            Marks::Many(vec![false; n])
        }
    }

    fn set(&mut self, i: usize) {
        match self {
            Marks::Word(w) => *w |= 1 << i,
            Marks::Many(v) => v[i] = true,
        }
    }

    fn get(&self, i: usize) -> bool {
        match self {
            Marks::Word(w) => *w & (1 << i) != 0,
            Marks::Many(v) => v[i],
        }
    }
}

/// [`unwrap_vec`] with room for `extra` more elements (one allocation when
/// the array is shared and must be copied).
fn unwrap_vec_with_room(a: List, extra: usize) -> Vec<Value> {
    match if a.is_unique() {
        Ok(a.into_vec())
    } else {
        Err(a)
    } {
        Ok(mut v) => {
            v.reserve(extra);
            v
        }
        Err(shared) => {
            let mut v = Vec::with_capacity(shared.len() + extra);
            v.extend_from_slice(&shared);
            v
        }
    }
}

fn all_hashes(items: &[Value]) -> bool {
    items.iter().all(|i| matches!(i, Value::Hash(_)))
}

/// Ruby's `dest | source`: the elements of both, destination first, without
/// `eql?` duplicates.
fn union(dest: Vec<Value>, source: &[Value]) -> Vec<Value> {
    let total = dest.len() + source.len();
    if total <= SMALL {
        // Short arrays (the usual case): compare instead of hashing, and
        // keep the destination's allocation when it has no duplicates.
        let mut out = if all_distinct(&dest) {
            dest
        } else {
            let mut out: Vec<Value> = Vec::with_capacity(total);
            for v in dest {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
            out
        };
        out.reserve(source.len());
        for v in source {
            if !out.contains(v) {
                out.push(v.clone());
            }
        }
        return out;
    }
    let mut seen: IndexSet<Value, foldhash::fast::RandomState> =
        IndexSet::with_capacity_and_hasher(total, Default::default());
    seen.extend(dest);
    seen.extend(source.iter().cloned());
    seen.into_iter().collect()
}

/// Up to this many elements, duplicates are found by comparing each pair
/// (no hashing, no allocation).
const SMALL: usize = 16;

/// `true` when `items` has no two `eql?` elements.
fn all_distinct(items: &[Value]) -> bool {
    if items.len() <= SMALL {
        return items
            .iter()
            .enumerate()
            .all(|(i, x)| !items[..i].contains(x));
    }
    let mut seen: std::collections::HashSet<&Value, foldhash::fast::RandomState> =
        std::collections::HashSet::with_capacity_and_hasher(items.len(), Default::default());
    items.iter().all(|x| seen.insert(x))
}

/// The gem's `clear_or_nil`: empties what responds to `clear` (Array, Hash,
/// String), makes anything else nil.
fn clear_or_nil(v: Value) -> Value {
    match v {
        Value::Array(_) => Value::array(Vec::new()),
        Value::Hash(_) => Value::empty_hash(),
        Value::String(_) | Value::Bytes(_) => Value::string(""),
        _ => Value::Nil,
    }
}

/// `array.delete_if { |x| ... array.delete(target); array.delete(x) ... }`
/// where the block deletes from the very array being iterated: Ruby's
/// in-place compaction (read index `i1`, write index `i2`, and a final
/// truncation to `i2`) interleaved with the block's deletions.
fn self_delete_if(items: &mut Vec<Value>, ko: &Knockout<'_>) -> Result<()> {
    let (mut i1, mut i2) = (0usize, 0usize);
    while i1 < items.len() {
        let item = items[i1].clone();
        if let Some(target) = ko.target(&item)? {
            items.retain(|e| !crate::ruby::compare::rb_equal(e, &target));
            items.retain(|e| !crate::ruby::compare::rb_equal(e, &item));
        } else {
            if i1 != i2 {
                items[i2] = item;
            }
            i2 += 1;
        }
        i1 += 1;
    }
    if i2 < items.len() && i2 < i1 {
        items.truncate(i2);
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// unpack_arrays: `array.join(sep).split(sep)`

fn unpack(items: &[Value], sep: &str) -> Vec<Value> {
    let mut joined = Vec::new();
    join_into(items, sep.as_bytes(), &mut joined);
    split(&joined, sep)
        .into_iter()
        .map(bytes_to_value)
        .collect()
}

/// `Array#join(sep)`: nested arrays are joined recursively, other values
/// through `to_s`.
fn join_into(items: &[Value], sep: &[u8], out: &mut Vec<u8>) {
    crate::stack::grow(|| {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                out.extend_from_slice(sep);
            }
            match item {
                Value::Array(inner) => join_into(inner, sep, out),
                other => out.extend_from_slice(&to_s(other)),
            }
        }
    })
}

/// `String#split(sep)` with a String pattern (no limit): a single space
/// splits on runs of ASCII whitespace ignoring leading whitespace, an empty
/// pattern splits into characters; trailing empty fields are dropped.
fn split(s: &[u8], sep: &str) -> Vec<Vec<u8>> {
    let mut fields: Vec<Vec<u8>> = Vec::new();
    if s.is_empty() {
        return fields;
    }
    if sep == " " {
        let is_space = |b: u8| b == b' ' || (b'\t'..=b'\r').contains(&b);
        let mut i = 0;
        while i < s.len() {
            while i < s.len() && is_space(s[i]) {
                i += 1;
            }
            if i == s.len() {
                break;
            }
            let start = i;
            while i < s.len() && !is_space(s[i]) {
                i += 1;
            }
            fields.push(s[start..i].to_vec());
        }
    } else if sep.is_empty() {
        match std::str::from_utf8(s) {
            Ok(text) => fields.extend(text.chars().map(|c| c.to_string().into_bytes())),
            Err(_) => fields.extend(s.iter().map(|b| vec![*b])),
        }
    } else {
        let sep = sep.as_bytes();
        let mut start = 0;
        let mut i = 0;
        while i + sep.len() <= s.len() {
            if &s[i..i + sep.len()] == sep {
                fields.push(s[start..i].to_vec());
                i += sep.len();
                start = i;
            } else {
                i += 1;
            }
        }
        fields.push(s[start..].to_vec());
    }
    while fields.last().is_some_and(|f| f.is_empty()) {
        fields.pop();
    }
    fields
}

fn bytes_to_value(b: Vec<u8>) -> Value {
    match String::from_utf8(b) {
        Ok(s) => Value::from(s),
        Err(e) => Value::Bytes(Arc::from(e.into_bytes())),
    }
}

// ---------------------------------------------------------------------------
// Ruby's `to_s`, as `Array#join` uses it

/// `to_s` of a joined item, in bytes: a binary String's bytes as they are,
/// anything else as [`crate::ruby::to_s`] writes it.
fn to_s(v: &Value) -> Vec<u8> {
    match v {
        Value::Bytes(b) => b.to_vec(),
        other => {
            let mut s = String::new();
            crate::ruby::to_s(other, &mut s);
            s.into_bytes()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::tests::below;

    /// A random value for the chain tests: hashes over a few shared keys
    /// (so that levels overlap, in shuffled orders), arrays with duplicates
    /// and hashes in them, nil, false and scalars that clash with them.
    fn random_value(rnd: &mut impl FnMut(u64) -> u64, depth: u32) -> Value {
        // More keys than a map holds without its hash index.
        const KEYS: [&str; 12] = [
            "a",
            "b",
            "c",
            "d",
            "e",
            "f",
            "g",
            "h",
            "i",
            "j",
            "k",
            "a long key, on the heap",
        ];
        match rnd(if depth == 0 { 6 } else { 10 }) {
            0 => Value::Nil,
            1 => Value::Bool(rnd(2) == 0),
            2 => Value::Int(rnd(3) as i64),
            3 | 4 => s(KEYS[rnd(4) as usize]),
            5 if depth > 0 => {
                Value::array((0..rnd(4)).map(|_| random_value(rnd, depth - 1)).collect())
            }
            5 => s("x,y"),
            _ => {
                let mut m = Map::new();
                for _ in 0..rnd(if depth == 3 { 16 } else { 6 }) {
                    let key = KEYS[rnd(KEYS.len() as u64) as usize];
                    m.insert(s(key), random_value(rnd, depth.saturating_sub(1)));
                }
                Value::hash(m)
            }
        }
    }

    /// [`deep_merge_chain`] (one pass over hashes) gives what the chain of
    /// pairwise merges gives, value and key order, under every option.
    #[test]
    fn merging_a_chain_in_one_pass_equals_merging_pairwise() {
        let mut option_sets = Vec::new();
        for bits in 0..32u32 {
            option_sets.push(DeepMergeOptions {
                preserve_unmergeables: bits & 1 != 0,
                overwrite_arrays: bits & 2 != 0,
                merge_hash_arrays: bits & 4 != 0,
                extend_existing_arrays: bits & 8 != 0,
                unpack_arrays: (bits & 16 != 0).then(|| ",".to_string()),
                ..DeepMergeOptions::default()
            });
        }
        option_sets.push(DeepMergeOptions {
            sort_merged_arrays: true,
            ..DeepMergeOptions::default()
        });
        option_sets.push(DeepMergeOptions {
            knockout_prefix: Some("--".into()),
            ..DeepMergeOptions::default()
        });
        let mut rnd = below(0x5eed_c4a1);
        let mut one_pass = 0;
        for case in 0..6000 {
            let opts = &option_sets[case % option_sets.len()];
            // Now and then more levels than `with_maps` gathers on the stack.
            let n = if case % 16 == 0 {
                8 + rnd(5) as usize
            } else {
                1 + rnd(5) as usize
            };
            let values: Vec<Value> = (0..n)
                .map(|_| {
                    let mut v = random_value(&mut rnd, 3);
                    while rnd(8) != 0 && !matches!(v, Value::Hash(_)) {
                        v = random_value(&mut rnd, 3);
                    }
                    v
                })
                .collect();
            one_pass += usize::from(n > 1 && values.iter().all(|v| matches!(v, Value::Hash(_))));
            let mut pairwise: Option<Result<Value>> = None;
            for v in values.iter().cloned() {
                pairwise = Some(match pairwise {
                    None => Ok(v),
                    Some(Ok(acc)) => deep_merge_owned(acc, v, opts),
                    Some(err) => err,
                });
            }
            let chain = deep_merge_chain(values.clone(), opts);
            let show = |r: &Result<Option<Value>>| format!("{r:?}");
            assert_eq!(
                show(&chain),
                show(&pairwise.transpose()),
                "case {case}: {values:?} with {opts:?}"
            );
        }
        assert!(one_pass > 2000, "only {one_pass} chains of hashes");
    }

    /// A chain of one value (or none) merges nothing: the gem is never
    /// called, so options it would reject are no error.
    #[test]
    fn a_chain_without_a_merge_does_not_check_the_options() {
        let empty_prefix = DeepMergeOptions {
            knockout_prefix: Some(String::new()),
            ..DeepMergeOptions::default()
        };
        let preserving = DeepMergeOptions {
            knockout_prefix: Some("--".into()),
            preserve_unmergeables: true,
            ..DeepMergeOptions::default()
        };
        for opts in [&empty_prefix, &preserving] {
            assert_eq!(deep_merge_chain(vec![s("v")], opts).unwrap(), Some(s("v")));
            assert_eq!(deep_merge_chain(Vec::new(), opts).unwrap(), None);
            assert!(deep_merge_chain(vec![s("v"), s("w")], opts).is_err());
        }
    }

    fn s(x: &str) -> Value {
        Value::from(x)
    }
    fn arr(items: &[&str]) -> Value {
        Value::array(items.iter().map(|x| s(x)).collect())
    }
    fn hash(entries: Vec<(&str, Value)>) -> Value {
        Value::hash(entries.into_iter().map(|(k, v)| (s(k), v)).collect())
    }
    fn ko(prefix: &str) -> DeepMergeOptions {
        DeepMergeOptions {
            knockout_prefix: Some(prefix.into()),
            ..DeepMergeOptions::puppet_deep()
        }
    }

    #[test]
    fn puppet_deep_unions_arrays_lower_first() {
        let hi = hash(vec![("a", Value::Int(2)), ("arr", arr(&["c", "a", "c"]))]);
        let lo = hash(vec![("arr", arr(&["b", "a", "b"]))]);
        let out = deep_merge(&hi, lo, &DeepMergeOptions::puppet_deep()).unwrap();
        assert_eq!(
            out,
            hash(vec![("arr", arr(&["b", "a", "c"])), ("a", Value::Int(2))])
        );
        // key order: lower keys first
        let keys: Vec<_> = out.as_hash().unwrap().keys().cloned().collect();
        assert_eq!(keys, vec![s("arr"), s("a")]);
    }

    #[test]
    fn bare_knockout_prefix_clears_lower_array() {
        let out = deep_merge(&arr(&["x", "--"]), arr(&["y", "z"]), &ko("--")).unwrap();
        assert_eq!(out, arr(&["x"]));
    }

    #[test]
    fn knockout_with_sort() {
        let hi = hash(vec![("sa1", arr(&["e", "d", "--f"]))]);
        let lo = hash(vec![("sa1", arr(&["b", "a", "f", "c"]))]);
        let opts = DeepMergeOptions {
            sort_merged_arrays: true,
            ..ko("--")
        };
        let out = deep_merge(&hi, lo, &opts).unwrap();
        assert_eq!(out, hash(vec![("sa1", arr(&["a", "b", "c", "d", "e"]))]));
    }

    #[test]
    fn other_prefix_leaves_double_dash_alone() {
        let hi = hash(vec![("sa1", arr(&["e", "d", "--f"]))]);
        let lo = hash(vec![("sa1", arr(&["b", "a", "f", "c"]))]);
        let out = deep_merge(&hi, lo, &ko("##")).unwrap();
        assert_eq!(
            out,
            hash(vec![("sa1", arr(&["b", "a", "f", "c", "e", "d", "--f"]))])
        );
    }

    #[test]
    fn knocked_out_string_becomes_empty() {
        let hi = hash(vec![("k", s("--gone"))]);
        let lo = hash(vec![("k", arr(&["a"]))]);
        let out = deep_merge(&hi, lo, &ko("--")).unwrap();
        assert_eq!(out, hash(vec![("k", s(""))]));
        let out = deep_merge(&s("--gone"), s("old"), &ko("--")).unwrap();
        assert_eq!(out, s(""));
    }

    #[test]
    fn option_errors() {
        let e = deep_merge(&Value::Nil, Value::Nil, &ko("")).unwrap_err();
        assert_eq!(
            e.message,
            "knockout_prefix cannot be an empty string in deep_merge!"
        );
        assert_eq!(e.kind, ErrorKind::Merge);
        let opts = DeepMergeOptions {
            preserve_unmergeables: true,
            ..ko("--")
        };
        let e = deep_merge(&Value::Nil, Value::Nil, &opts).unwrap_err();
        assert_eq!(
            e.message,
            "overwrite_unmergeable must be true if knockout_prefix is specified in deep_merge!"
        );
    }

    #[test]
    fn sort_errors_name_operands_as_ruby_does() {
        let opts = DeepMergeOptions {
            sort_merged_arrays: true,
            ..DeepMergeOptions::default()
        };
        let e = deep_merge(&Value::array(vec![Value::Int(1)]), arr(&["a"]), &opts).unwrap_err();
        assert_eq!(e.message, "comparison of String with 1 failed");
        assert_eq!(e.kind, ErrorKind::Merge);
        let e = deep_merge(&arr(&["a"]), Value::array(vec![Value::Int(1)]), &opts).unwrap_err();
        assert_eq!(e.message, "comparison of Integer with String failed");
        let e = deep_merge(
            &Value::array(vec![Value::Nil]),
            Value::array(vec![Value::Int(1)]),
            &opts,
        )
        .unwrap_err();
        assert_eq!(e.message, "comparison of Integer with nil failed");
        let e =
            deep_merge(&Value::array(vec![Value::Int(1 << 62)]), arr(&["x"]), &opts).unwrap_err();
        assert_eq!(e.message, "comparison of String with Integer failed");
        let e = deep_merge(&arr(&["x"]), Value::array(vec![Value::Float(1.5)]), &opts).unwrap_err();
        assert_eq!(e.message, "comparison of Float with String failed");
        // Integer and Float compare numerically; equal ones keep their order.
        let out = deep_merge(
            &Value::array(vec![Value::Float(1.0)]),
            Value::array(vec![Value::Int(1)]),
            &opts,
        )
        .unwrap();
        assert_eq!(out, Value::array(vec![Value::Int(1), Value::Float(1.0)]));
    }

    #[test]
    fn sorting_compares_like_ruby() {
        let opts = DeepMergeOptions {
            sort_merged_arrays: true,
            ..DeepMergeOptions::default()
        };
        let h = |v: Value| hash(vec![("a", v)]);
        // `{a: 1} <=> {a: 1.0}` is 0 (Object#<=> uses ==), though they are
        // not eql? and both survive the union.
        let out = deep_merge(
            &Value::array(vec![h(Value::Int(1))]),
            Value::array(vec![h(Value::Float(1.0))]),
            &opts,
        );
        assert_eq!(
            out.unwrap(),
            Value::array(vec![h(Value::Float(1.0)), h(Value::Int(1))])
        );
        let e = deep_merge(
            &Value::array(vec![h(Value::Int(2))]),
            Value::array(vec![h(Value::Int(1))]),
            &opts,
        );
        assert_eq!(
            e.unwrap_err().message,
            "comparison of Hash with Hash failed"
        );
        let e = deep_merge(
            &Value::array(vec![Value::Nil, Value::Bool(true)]),
            Value::array(vec![Value::Nil]),
            &opts,
        );
        assert_eq!(
            e.unwrap_err().message,
            "comparison of NilClass with true failed"
        );
        // Big integers and floats sort numerically.
        let big = |s: &str| Value::BigInt(crate::value::ArcStr::from(s));
        let src = Value::array(vec![
            big("18446744073709551616"),
            Value::Float(1.5),
            big("1180591620717411303424"),
        ]);
        let dst = Value::array(vec![big("-18446744073709551616"), Value::Int(3)]);
        let out = deep_merge(&src, dst, &opts).unwrap();
        assert_eq!(
            out,
            Value::array(vec![
                big("-18446744073709551616"),
                Value::Float(1.5),
                Value::Int(3),
                big("18446744073709551616"),
                big("1180591620717411303424"),
            ])
        );
        // Symbols made from data are dynamic: named by class.
        let sym = Value::Symbol(crate::value::ArcStr::from("zsym_a"));
        let e = deep_merge(
            &Value::array(vec![sym]),
            Value::array(vec![Value::Int(1)]),
            &opts,
        );
        assert_eq!(
            e.unwrap_err().message,
            "comparison of Integer with Symbol failed"
        );
    }

    #[test]
    fn hash_arrays_in_a_copied_value_merge_into_themselves() {
        let opts = DeepMergeOptions {
            merge_hash_arrays: true,
            ..ko("--")
        };
        let inner = || Value::array(vec![hash(vec![("j", arr(&["--a", "b"]))])]);
        let emptied = Value::array(vec![hash(vec![("j", arr(&[]))])]);
        let out = deep_merge(&hash(vec![("k", inner())]), Value::empty_hash(), &opts).unwrap();
        assert_eq!(out, hash(vec![("k", emptied.clone())]));
        // Without merge_hash_arrays the elements are not merged at all.
        let out = deep_merge(&hash(vec![("k", inner())]), Value::empty_hash(), &ko("--")).unwrap();
        assert_eq!(out, hash(vec![("k", inner())]));
        // A scalar dest is overwritten by the source hash on the first key;
        // only the later keys are merged into themselves.
        let out = deep_merge(&hash(vec![("k", inner())]), s("s"), &opts).unwrap();
        assert_eq!(out, hash(vec![("k", inner())]));
        let src = hash(vec![("q", Value::Int(1)), ("k", inner())]);
        let out = deep_merge(&src, s("s"), &opts).unwrap();
        assert_eq!(out, hash(vec![("q", Value::Int(1)), ("k", emptied)]));
    }

    #[test]
    fn nil_and_false_destinations() {
        let src = hash(vec![("a", arr(&["x", "x"]))]);
        // A nil dest is replaced by the source as it is.
        assert_eq!(
            deep_merge(&src, Value::Nil, &DeepMergeOptions::default()).unwrap(),
            src
        );
        // A missing key receives the source merged into its own copy.
        let out = deep_merge(&src, Value::empty_hash(), &DeepMergeOptions::default()).unwrap();
        assert_eq!(out, hash(vec![("a", arr(&["x"]))]));
        // preserve_unmergeables keeps a nil dest.
        assert_eq!(
            deep_merge(&src, Value::Nil, &DeepMergeOptions::hiera3_deep()).unwrap(),
            Value::Nil
        );
        // A nil source leaves dest alone.
        assert_eq!(
            deep_merge(&Value::Nil, s("d"), &DeepMergeOptions::default()).unwrap(),
            s("d")
        );
    }

    #[test]
    fn self_merge_knockout_quirk() {
        // {"k"=>{"j"=>["--a","b"]}} into {} gives {"k"=>{"j"=>[]}} in Ruby.
        let src = hash(vec![("k", hash(vec![("j", arr(&["--a", "b"]))]))]);
        let out = deep_merge(&src, Value::empty_hash(), &ko("--")).unwrap();
        assert_eq!(out, hash(vec![("k", hash(vec![("j", arr(&[]))]))]));
        let src = hash(vec![("k", hash(vec![("j", arr(&["--a", "b", "c"]))]))]);
        let out = deep_merge(&src, Value::empty_hash(), &ko("--")).unwrap();
        assert_eq!(out, hash(vec![("k", hash(vec![("j", arr(&["c"]))]))]));
    }

    #[test]
    fn overwritten_scalar_dest_merges_later_keys_into_themselves() {
        let src = hash(vec![("a", arr(&["1", "1"])), ("b", arr(&["2", "2"]))]);
        let out = deep_merge(&src, s("str"), &DeepMergeOptions::default()).unwrap();
        assert_eq!(out, hash(vec![("a", arr(&["1", "1"])), ("b", arr(&["2"]))]));
    }

    #[test]
    fn extend_existing_arrays_pushes_hash_per_key() {
        let src = hash(vec![("a", Value::Int(1)), ("b", Value::Int(2))]);
        let opts = DeepMergeOptions {
            extend_existing_arrays: true,
            ..DeepMergeOptions::default()
        };
        let out = deep_merge(&src, Value::array(vec![Value::Int(0)]), &opts).unwrap();
        assert_eq!(out, Value::array(vec![Value::Int(0), src.clone(), src]));
    }

    #[test]
    fn unpack_arrays_joins_and_splits() {
        let src = Value::array(vec![
            s("x, y"),
            Value::Nil,
            Value::Float(1.5),
            Value::Float(1e20),
        ]);
        let opts = DeepMergeOptions {
            unpack_arrays: Some(" ".into()),
            ..DeepMergeOptions::default()
        };
        let out = deep_merge(&src, Value::array(vec![]), &opts).unwrap();
        assert_eq!(out, arr(&["x,", "y", "1.5", "1.0e+20"]));
    }

    #[test]
    fn caller_values_are_not_mutated() {
        let src = hash(vec![("a", arr(&["--x", "y"]))]);
        let before = src.clone();
        let dest = hash(vec![("a", arr(&["x", "z"]))]);
        let kept = dest.clone();
        let out = deep_merge(&src, dest, &ko("--")).unwrap();
        assert_eq!(out, hash(vec![("a", arr(&["z", "y"]))]));
        assert_eq!(src, before);
        assert_eq!(kept, hash(vec![("a", arr(&["x", "z"]))]));
    }
}
