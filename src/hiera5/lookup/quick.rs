//! The quick path: a lookup answered by walking the namespace's
//! [`SearchPlan`] over what the general path already resolved and indexed in
//! this session (the same plan the general path walks: the same snapshot,
//! the same [`Stops`], first found wins), or a [`Decline`] for the general
//! path to answer.

use super::*;
use crate::hiera5::interpolate;
use crate::hiera5::key::SegmentRef;
use crate::hiera5::merge::Strategy;
use crate::host::Warning;
use crate::value::Key;
use std::sync::Arc;

impl Session {
    /// The lookups answered from what the session already holds, by
    /// walking the namespace's [`SearchPlan`]: no merge, no overrides or
    /// default values, each name without lookup_options, every layer's
    /// hierarchy already resolved and indexed in this session. These are
    /// most of a compile's automatic parameter lookups, found or not, and
    /// its dotted and interpolated keys. A [`Decline`]: anything else, and
    /// anything that fails, which the general path answers (and which
    /// fills the session's store the plans are made from).
    ///
    /// The answer is the general path's: the same snapshot (the session's
    /// resolved hierarchies, their key indexes and data slots), searched in
    /// the same order, first found wins, values interpolated by the same
    /// resolver with the same recursion guard. Also returns the warnings.
    /// `asked`: what the host answered about the scope's variables
    /// ([`Asked`]), used and added to.
    pub(super) fn quick_lookup(
        &self,
        req: &LookupRequest,
        asked: &mut Asked,
    ) -> Planned<(Found, Vec<Warning>)> {
        if req.keys.is_empty()
            || !req.override_values.is_empty()
            || !req.default_values_hash.is_empty()
        {
            return Err(Decline::Request);
        }
        let mut warnings = Vec::new();
        if let Some(merge) = &req.merge {
            // The general path's checks of the argument: one that fails is
            // its error to report.
            check_merge_argument(Some(merge)).map_err(|_| Decline::Request)?;
            let strategy = Strategy::from_value(merge).map_err(|_| Decline::Request)?;
            for name in &req.keys {
                if let Some(v) = self.quick_merge(req, name, Some(&strategy))? {
                    return Ok((Some(v), warnings));
                }
            }
            return Ok((None, warnings));
        }
        for name in &req.keys {
            let found = match self.quick_key(req, name, &mut warnings, asked) {
                // The key's lookup_options may name its merge.
                Err(Decline::Options) => self.quick_merge(req, name, None)?,
                found => found?,
            };
            if let Some(v) = found {
                return Ok((Some(v), warnings));
            }
        }
        Ok((None, warnings))
    }

    /// One name of a merge lookup (`strategy`: the request's; `None`: the
    /// one the key's lookup_options name), answered from the namespace's
    /// [`SearchPlan`] as [`Invocation::do_lookup`] answers it when it walks
    /// the plan: a merge over the layers in [`SEARCH_ORDER`], in each a
    /// merge over the hierarchy's entries, in each a merge over its
    /// locations ([`Strategy::lookup_with`] at each level, with the same
    /// candidates, [`Stops`] ruling out the locations the key index says
    /// have no such key), then the dotted key dug into the merged value.
    /// Only where every value found is plain (rich data without `%{...}`,
    /// known from the key index): the general path's value as it is, with
    /// nothing to interpolate, check or warn about. A [`Decline`] for
    /// anything else: a value to interpolate, lookup_options other than
    /// `merge` (`convert_to`), a merge that fails or exceeds
    /// `merge_entries`, not found with a module default hierarchy.
    #[inline(never)]
    pub(super) fn quick_merge(
        &self,
        req: &LookupRequest,
        name: &str,
        strategy: Option<&Strategy>,
    ) -> Planned<Found> {
        let root = root_of(name)?;
        let module = crate::hiera5::key::module_of(root);
        let plan = self.plan_adopted(req, module)?;
        let options = match &plan.options {
            None => None,
            Some(o) => match o.for_key(root) {
                Ok(None) => None,
                Ok(Some(Value::Hash(h))) if !h.contains_key(&Key("convert_to")) => Some(h),
                // convert_to, options that are not a Hash, a pattern that
                // fails: the general path's.
                _ => return Err(Decline::Options),
            },
        };
        let from_options;
        let strategy = match strategy {
            Some(s) => s,
            None => {
                // Puppet's `options['merge']` (absent: the default, first).
                from_options = match options.and_then(|o| o.get(&Key("merge"))) {
                    Some(m) => Strategy::from_value(m).map_err(|_| Decline::Options)?,
                    None => Strategy::default(),
                };
                &from_options
            }
        };
        let known = self.known_variables();
        if req.scoped() && plan.reads().any(|reads| req.refuses(reads, known)) {
            return Err(Decline::Scoped);
        }
        // A merge is kept as the general path keeps it (the session's
        // finished lookups, by key and the request's merge): a compile
        // asks some merged keys more than once.
        if let Some((done, _)) = self
            .find::<Finished>((name, req.merge.as_ref()))
            .filter(|(_, reads)| !req.refuses(reads, known))
        {
            return Ok(done);
        }
        let parsed = dotted(name, root)?;
        let limit = self.hiera.options.limits.merge_entries;
        // Invocation::merged: the strategy over `n` candidates, and the
        // merge_entries limit of a real merge.
        let merged = |n: usize, f: &mut dyn FnMut(usize) -> Planned<Found>| -> Planned<Found> {
            let mut declined = None;
            let found = strategy
                .lookup_with(&mut (), n, |_, i| {
                    f(i).map_err(|d| {
                        declined = Some(d);
                        crate::error::Error::new(crate::error::ErrorKind::Lookup, "declined")
                    })
                })
                .map_err(|_| declined.unwrap_or(Decline::Failed))?;
            if !strategy.is_first() {
                let entries = match &found {
                    Some(Value::Array(a)) => a.len(),
                    Some(Value::Hash(h)) => h.len(),
                    _ => 0,
                };
                if entries > limit {
                    return Err(Decline::Failed);
                }
            }
            Ok(found)
        };
        let found = merged(SEARCH_ORDER.len(), &mut |l| {
            let Some(layer) = plan.layer(SEARCH_ORDER[l]) else {
                return Ok(None);
            };
            let stops = layer.stops(root);
            if stops.is_empty() {
                return Ok(None);
            }
            merged(stops.entries(), &mut |i| {
                if !stops.at_entry(i) {
                    return Ok(None);
                }
                merged(stops.locations(i), &mut |j| {
                    let Some(stop) = stops.at(i, j) else {
                        return Ok(None);
                    };
                    if !stop.plain {
                        return Err(Decline::NotRichData);
                    }
                    // The index was built from the session's slots: every
                    // stop's data is there, with the key.
                    let value = layer
                        .hierarchy
                        .stop_data(stop)
                        .and_then(|data| data.get(&Key(root)))
                        .ok_or(Decline::NotYet)?;
                    Ok(Some(value.clone()))
                })
            })
        })?;
        let found = match (found, &parsed) {
            (Some(v), Some(tail)) => tail.dig(name, v)?,
            (found, _) => found,
        };
        if found.is_none() && plan.default_hierarchy {
            return Err(Decline::DefaultHierarchy);
        }
        // What the general path would have read: the plan's variables.
        let reads = plan.all_reads();
        if !req.hides(&reads) {
            self.keep_as::<Finished>((name, req.merge.as_ref()), found.clone(), reads);
        }
        Ok(found)
    }

    /// [`Session::plan`], and for a namespace this session has not
    /// searched yet its steps taken from what the Hiera shares first, when
    /// they can be (what `quick_key` and `quick_merge` look up in).
    #[inline]
    fn plan_adopted(&self, req: &LookupRequest, module: Option<&str>) -> Planned<Arc<SearchPlan>> {
        match self.plan(module) {
            Err(Decline::NotYet) => {
                Invocation::new(self, req).adopt_namespace(module)?;
                self.plan(module)
            }
            plan => plan,
        }
    }

    /// The search plan of a module namespace (`None`: outside modules),
    /// made once per session when the general path has gathered every
    /// step of it.
    pub(super) fn plan(&self, module: Option<&str>) -> Planned<Arc<SearchPlan>> {
        let namespace = module.unwrap_or("");
        if let Some((plan, _)) = self.find::<Plans>(namespace) {
            return plan.ok_or(Decline::Unindexed);
        }
        let base = self.base_layers()?;
        let plan = match SearchPlan::gather(self, base, module) {
            Ok(plan) => Some(Arc::new(plan)),
            Err(Decline::Unindexed) => None,
            Err(other) => return Err(other),
        };
        self.keep_as::<Plans>(namespace, plan, no_reads())
            .ok_or(Decline::Unindexed)
    }

    /// The global and environment layers of the session's plans, gathered
    /// once.
    pub(super) fn base_layers(&self) -> Planned<Arc<BaseLayers>> {
        match self.find::<BasePlans>(()) {
            Some((base, _)) => base.ok_or(Decline::Unindexed),
            None => {
                let base = match BaseLayers::gather(self) {
                    Ok(base) => Some(Arc::new(base)),
                    Err(Decline::Unindexed) => None,
                    Err(other) => return Err(other),
                };
                self.keep_as::<BasePlans>((), base, no_reads())
                    .ok_or(Decline::Unindexed)
            }
        }
    }

    /// One name of [`Session::quick_lookup`] (and [`Session::lookup_key`]'s
    /// borrowed key). Inlined into both: out of line it cost the Rust API
    /// about 120 instructions a lookup on `flat` (callgrind).
    #[inline(always)]
    pub(super) fn quick_key(
        &self,
        req: &LookupRequest,
        name: &str,
        warnings: &mut Vec<Warning>,
        asked: &mut Asked,
    ) -> Planned<Found> {
        let root = root_of(name)?;
        let module = crate::hiera5::key::module_of(root);
        let plan = self.plan_adopted(req, module)?;
        if plan
            .options
            .as_ref()
            .is_some_and(|o| !matches!(o.for_key(root), Ok(None)))
        {
            // Options for the key (or a pattern that fails: the full lookup
            // reports it).
            return Err(Decline::Options);
        }
        // The request's own variables hide what read them.
        let known = self.known_variables();
        if req.scoped() && plan.reads().any(|reads| req.refuses(reads, known)) {
            return Err(Decline::Scoped);
        }
        let parsed = dotted(name, root)?;
        let mut found = None;
        let mut interpolated = None;
        for layer in plan.layers() {
            let Some(stop) = layer.stops(root).first() else {
                continue;
            };
            // The index was built from the session's slots: every stop's
            // data is there, with the key.
            let value = layer
                .hierarchy
                .stop_data(stop)
                .and_then(|data| data.get(&Key(root)))
                .ok_or(Decline::NotYet)?;
            if stop.plain {
                found = Some(value.clone());
                break;
            }
            if !crate::hiera5::ptype::is_rich_data(value) {
                return Err(Decline::NotRichData);
            }
            // Interpolated values are kept as the general path keeps them:
            // the session's finished lookups.
            if let Some((done, _)) = self
                .find::<Finished>((name, None))
                .filter(|(_, reads)| !req.refuses(reads, known))
            {
                return Ok(done);
            }
            // Interpolated as the general path does: inside the layer's
            // search, with the key on the recursion guard.
            let mut inv = Invocation::new(self, req);
            *inv.asked.get_mut() = std::mem::take(asked);
            inv.site = (
                layer.site,
                match layer.site {
                    Layer::Module => module.map(Arc::from),
                    _ => None,
                },
            );
            inv.stack.push(Arc::from(name));
            let interpolated_value = interpolate::interpolate(value, &mut inv, true);
            *asked = inv.asked.take();
            found = Some(interpolated_value.map_err(|_| Decline::Failed)?);
            for w in inv.warnings {
                if !warnings.contains(&w) {
                    warnings.push(w);
                }
            }
            interpolated = Some(inv.reads.take());
            break;
        }
        let found = match (found, &parsed) {
            (Some(v), Some(tail)) => tail.dig(name, v)?,
            (found, _) => found,
        };
        // Not found: a module's default hierarchy is the general path's.
        if found.is_none() && plan.default_hierarchy {
            return Err(Decline::DefaultHierarchy);
        }
        if let Some(mut reads) = interpolated {
            // What the general path would have read: the plan's variables
            // and the interpolation's.
            reads.extend(plan.reads().flat_map(|r| r.iter().cloned()));
            reads.sort_unstable();
            reads.dedup();
            if !req.hides(&reads) {
                self.keep_as::<Finished>((name, None), found.clone(), reads.into());
            }
        }
        Ok(found)
    }
}

/// The root of a key the quick path looks up: without quotes, the text
/// before the first dot (a quoted key, a root with spaces around it and
/// `lookup_options` are left to the general path).
#[inline(always)]
fn root_of(name: &str) -> Planned<&str> {
    // One search for the first dot or quote (most keys have neither), and
    // after a dot one for a quote in the rest.
    let bytes = name.as_bytes();
    let root = match memchr::memchr3(b'.', b'\'', b'"', bytes) {
        None => name,
        Some(dot) if bytes[dot] == b'.' => {
            if memchr::memchr2(b'\'', b'"', &bytes[dot + 1..]).is_some() {
                return Err(Decline::Key);
            }
            &name[..dot]
        }
        Some(_) => return Err(Decline::Key),
    };
    if root.is_empty() || root == "lookup_options" || root.trim_ascii() != root {
        return Err(Decline::Key);
    }
    Ok(root)
}

/// The dotted tail of a key the quick path looks up (the text after its
/// root's dot), checked as [`crate::hiera5::key::LookupKey::parse`] checks it: `None` for a key
/// that is its own root, declined when the key does not parse (an empty
/// segment, an integer-like root: the general path's errors). [`root_of`]
/// declined quoted keys, so every segment is an unquoted run between dots,
/// dug into found values without making the parsed key's `Arc`s, `Vec`
/// and `String`s (~1,800 instructions a dotted lookup, callgrind).
fn dotted<'k>(name: &'k str, root: &str) -> Planned<Option<Dotted<'k>>> {
    if root.len() == name.len() {
        return Ok(None);
    }
    if crate::hiera5::key::index_segment(root).is_some() {
        return Err(Decline::Key);
    }
    let tail = Dotted(&name[root.len() + 1..]);
    if tail.runs().any(str::is_empty) {
        return Err(Decline::Key);
    }
    Ok(Some(tail))
}

/// A key's dotted tail, without quotes (see [`dotted`]).
struct Dotted<'k>(&'k str);

impl<'k> Dotted<'k> {
    /// The runs between the dots.
    fn runs(&self) -> impl Iterator<Item = &'k str> {
        self.0.split('.')
    }

    /// [`crate::hiera5::key::LookupKey::dig`]: the segments dug into `value` (`key`, the whole
    /// key, for the general path's messages; any error is declined).
    fn dig(&self, key: &str, mut value: Value) -> Planned<Found> {
        for run in self.runs() {
            match crate::hiera5::key::dig_step(key, &value, SegmentRef::unquoted(run)) {
                Ok(Some(next)) => value = next,
                Ok(None) => return Ok(None),
                Err(_) => return Err(Decline::Failed),
            }
        }
        Ok(Some(value))
    }
}
