//! [`Invocation`]: one top-level lookup (the recursion guard, the request,
//! the variables read, the explanation) and its walk through the layers.

use super::*;
use crate::error::{Error, ErrorKind, Result};
use crate::hiera5::config::HieraConfig;
use crate::hiera5::explain::Explainer;
use crate::hiera5::key::{dig, LookupKey, Segment};
use crate::hiera5::merge::Strategy;
use crate::host::Warning;
use crate::limits::{self, Limits};
use crate::rubyre::Pattern;
use crate::value::{Key, Map, Value};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// The state of one top-level lookup: the recursion guard and the request.
pub(super) struct Invocation<'s> {
    pub(super) session: &'s Session,
    pub(super) req: &'s LookupRequest,
    pub(super) stack: Vec<Arc<str>>,
    /// Local variable bindings (the variable of `mapped_paths`).
    pub(super) locals: Vec<(String, Value)>,
    /// The explanation being built, when one was asked for.
    pub(super) explain: Option<Explainer>,
    /// lookup_options layers being gathered now: a nested lookup made while
    /// they are gathered sees them as absent, as in Puppet.
    pub(super) options_busy: Vec<(Layer, Option<String>)>,
    /// Warnings (Puppet's `strict = warning` messages), each once.
    pub(super) warnings: Vec<Warning>,
    /// What the scope expressions being evaluated belong to.
    pub(super) config_part: ConfigPart,
    /// How deep the nested lookup being made is (the top-level lookup is 0).
    pub(super) depth: usize,
    /// The nested lookups made so far.
    pub(super) nested: usize,
    /// How deep interpolations of found values are nested now.
    pub(super) checks: usize,
    /// The values the nested lookups have returned so far.
    pub(super) nested_values: usize,
    /// The bytes interpolation has produced so far.
    pub(super) interpolated: usize,
    /// The layer (and module) whose hierarchy is being searched, for the
    /// host's calls.
    pub(super) site: (Layer, Option<Arc<str>>),
    /// Only the global layer answers (Puppet's `global_only`): the lookups
    /// a Hiera 3 global layer's data makes when the environment has no
    /// data provider of its own, and the lookups they make.
    pub(super) global_only: bool,
    /// The scope variables read so far, including those read by the cached
    /// results used: what is kept is kept with the part of this list read
    /// while it was computed.
    pub(super) reads: RefCell<Vec<Box<str>>>,
    /// Whether [`UNREGISTERED`] was noted since the last
    /// [`reads_mark`](Self::reads_mark): every mark still open sees it.
    pub(super) unregistered_noted: Cell<bool>,
    /// The variables asked of the host so far, and its answers (asked once
    /// per lookup: nothing is evaluated during one).
    pub(super) asked: RefCell<Vec<(Box<str>, Option<Value>)>>,
    /// While a hierarchy that may be shared with other sessions is resolved:
    /// the scope expressions evaluated and their values, and whether each
    /// came from the session's scope alone (see [`ResolutionCache`]).
    pub(super) recording: Option<Recording>,
}

pub(super) type Found = Option<Value>;

/// A `HashMap` hashed with foldhash, for the engine's internal caches.
pub(super) type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// What the scope expressions being evaluated belong to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ConfigPart {
    /// Data, not a hiera.yaml.
    None,
    /// A hiera.yaml string: a datadir, options, a v3 or v4 hierarchy.
    Config,
    /// A v5 hierarchy's paths, globs, uris or mapped_paths (where Puppet 8
    /// resolves variables with `avoid_hiera_interpolation_errors`).
    Locations,
}

/// Puppet's wording of an undefined variable (`Scope#lookupvar`, then
/// `variable_not_found`): the name and the reason, or `None` for the
/// variables that always exist (`module_name`, `caller_module_name`, and
/// numeric match variables), which are silently undef.
pub(super) fn undefined_variable_words(root: &str) -> Option<(String, String)> {
    let Some(idx) = root.find("::") else {
        let numeric = root == "0"
            || (root.starts_with(|c: char| matches!(c, '1'..='9'))
                && root.bytes().all(|b| b.is_ascii_digit()));
        if numeric || root == "module_name" || root == "caller_module_name" {
            return None;
        }
        return Some((root.to_string(), String::new()));
    };
    // A qualified name; a leading `::` only says "top scope".
    let fqn = if idx == 0 { &root[2..] } else { root };
    match fqn.rfind("::") {
        // The class `settings` always exists: its missing variables are
        // reported as top-scope names.
        Some(leaf) if &fqn[..leaf] != "settings" => {
            let class = &fqn[..leaf];
            Some((fqn.to_string(), format!("class {class} could not be found")))
        }
        _ => Some((format!("::{fqn}"), String::new())),
    }
}

/// Puppet's `configured_data_providers`: an undefined variable met while a
/// hiera.yaml is resolved is reported against that file, with the line of
/// the first `%{name}` in it (`HIERA_UNDEFINED_VARIABLE`). Other errors
/// pass.
pub(super) fn config_undefined_variable(e: Error, config: &HieraConfig) -> Error {
    let (Some(path), Some(rest)) = (&config.path, e.message.strip_prefix("Undefined variable '"))
    else {
        return e;
    };
    match rest.find('\'') {
        Some(end) if end > 0 => {
            let name = &rest[..end];
            Error::config(
                format!("Undefined variable '{name}'"),
                path,
                find_line_matching(path, name),
            )
        }
        _ => e,
    }
}

/// Puppet's `HieraConfig#find_line_matching` for `%\{['"]?NAME['"]?}` (NAME
/// as a regexp, as Puppet builds it): the 1-based number of the first line
/// of the file that matches up to its first `#` (Puppet tracks quotes
/// there but cuts at any `#`, quoted or not).
pub(super) fn find_line_matching(path: &Path, name: &str) -> Option<usize> {
    let re = Pattern::new(&format!(r#"%\{{['"]?{name}['"]?}}"#)).ok()?;
    let text = std::fs::read(path).ok()?;
    let text = String::from_utf8_lossy(&text);
    text.split_inclusive('\n')
        .position(|line| {
            re.is_match(line.split('#').next().unwrap_or_default())
                .unwrap_or(false)
        })
        .map(|i| i + 1)
}

/// The scope variables (their root names) something computed from the
/// scope read, found or not: what an overlay session must not change for
/// it to be shared.
pub(super) type Reads = Arc<[Box<str>]>;

/// The read of something that may change during the session (a qualified
/// variable the host does not have yet): what read it is not kept.
pub(super) const VOLATILE: &str = "::";

impl<'s> Invocation<'s> {
    pub(super) fn new(session: &'s Session, req: &'s LookupRequest) -> Invocation<'s> {
        Invocation {
            session,
            req,
            stack: Vec::new(),
            locals: Vec::new(),
            explain: None,
            options_busy: Vec::new(),
            warnings: Vec::new(),
            config_part: ConfigPart::None,
            depth: 0,
            nested: 0,
            checks: 0,
            nested_values: 0,
            interpolated: 0,
            site: (Layer::Global, None),
            global_only: false,
            reads: RefCell::new(Vec::new()),
            unregistered_noted: Cell::new(false),
            asked: RefCell::new(Vec::new()),
            recording: None,
        }
    }

    /// Whether the lookup may not take what the session computed from
    /// `reads` ([`LookupRequest::refuses`]).
    pub(super) fn refuses(&self, reads: &[Box<str>]) -> bool {
        self.req.refuses(reads, self.session.known_variables())
    }

    /// Notes that the scope variable `name` was read. Every read is noted
    /// (a name read before a mark must be seen after it too); the part of
    /// the list a cache entry keeps is deduplicated then.
    pub(super) fn read(&self, name: &str) {
        self.reads.borrow_mut().push(Box::from(name));
    }

    /// Notes that what was read to compute a cached result was read.
    pub(super) fn read_all(&self, names: &[Box<str>]) {
        for n in names {
            self.read(n);
        }
    }

    /// Where the reads of what is computed next start.
    pub(super) fn reads_mark(&self) -> usize {
        self.unregistered_noted.set(false);
        self.reads.borrow().len()
    }

    /// The variables read since `mark`, each once.
    pub(super) fn reads_since(&self, mark: usize) -> Reads {
        let reads = self.reads.borrow();
        // Sorted and deduplicated as borrowed names: only the names kept
        // are copied (a lookup notes the same few variables many times).
        let mut since: Vec<&str> = reads[mark..].iter().map(|r| &**r).collect();
        since.sort_unstable();
        since.dedup();
        since.into_iter().map(Box::from).collect()
    }

    pub(super) fn limits(&self) -> &'s Limits {
        &self.session.hiera.options.limits
    }

    pub(super) fn hiera(&self) -> &'s Hiera {
        &self.session.hiera
    }

    pub(super) fn warn(&mut self, warning: Warning) {
        if !self.warnings.contains(&warning) {
            self.warnings.push(warning);
        }
    }

    pub(super) fn ex_line(&mut self, f: impl FnOnce() -> String) {
        if let Some(ex) = &mut self.explain {
            ex.line(f());
        }
    }

    pub(super) fn ex_push(&mut self, f: impl FnOnce() -> String) {
        if let Some(ex) = &mut self.explain {
            ex.push(f());
        }
    }

    pub(super) fn ex_pop(&mut self) {
        if let Some(ex) = &mut self.explain {
            ex.pop();
        }
    }

    pub(super) fn ex_value(&mut self, prefix: impl FnOnce() -> String, v: &Value) {
        if let Some(ex) = &mut self.explain {
            ex.value(prefix(), v);
        }
    }

    /// Puppet's `MergeStrategy#lookup` over `n` candidates, explained: a
    /// level with several candidates and a real merge gets a merge node.
    pub(super) fn merged(
        &mut self,
        strategy: &Strategy,
        n: usize,
        f: impl FnMut(&mut Self, usize) -> Result<Found>,
    ) -> Result<Found> {
        let found = self.merged_unchecked(strategy, n, f)?;
        if !strategy.is_first() {
            let limit = self.limits().merge_entries;
            let entries = match &found {
                Some(Value::Array(a)) => a.len(),
                Some(Value::Hash(h)) => h.len(),
                _ => 0,
            };
            if entries > limit {
                return Err(limits::exceeded(
                    "merge_entries",
                    limit,
                    format_args!("a {} merge produced {entries} entries", strategy.name()),
                ));
            }
        }
        Ok(found)
    }

    pub(super) fn merged_unchecked(
        &mut self,
        strategy: &Strategy,
        n: usize,
        mut f: impl FnMut(&mut Self, usize) -> Result<Found>,
    ) -> Result<Found> {
        if self.explain.is_none() || n < 2 || strategy.is_first() {
            return strategy.lookup_with(self, n, f);
        }
        if let Some(ex) = &mut self.explain {
            ex.push_merge(strategy.name(), &strategy.options);
        }
        let r = strategy.lookup_with(self, n, &mut f);
        if let (Some(ex), Ok(Some(v))) = (&mut self.explain, &r) {
            ex.result(v);
        }
        self.ex_pop();
        r
    }

    /// Puppet's `Lookup.lookup`: names, overrides, defaults.
    pub(super) fn lookup_names(
        &mut self,
        names: &[String],
        merge: Option<&Value>,
        default: Option<&Value>,
    ) -> Result<Found> {
        for name in names {
            if let Some(v) = self.req.override_values.get(&Key(name)) {
                return Ok(Some(v.clone()));
            }
            if let Some(v) = self.lookup_key(name, merge)? {
                return Ok(Some(v));
            }
        }
        if !self.req.default_values_hash.is_empty() {
            for name in names {
                if let Some(v) = self.req.default_values_hash.get(&Key(name)) {
                    return Ok(Some(v.clone()));
                }
            }
        }
        Ok(default.cloned())
    }

    /// Puppet's `LookupAdapter#lookup`, with the session's result cache in
    /// front when nothing but the session decides the result (no overrides,
    /// default values or local bindings, no explanation, no lookup_options
    /// being gathered).
    pub(super) fn lookup_key(&mut self, key: &str, merge: Option<&Value>) -> Result<Found> {
        let cacheable = self.explain.is_none()
            && !self.global_only
            && self.options_busy.is_empty()
            && self.locals.is_empty()
            && self.req.override_values.is_empty()
            && self.req.default_values_hash.is_empty();
        if !cacheable {
            return self.lookup_key_uncached(key, merge);
        }
        if let Some((found, reads)) = self
            .session
            .find::<Finished>((key, merge))
            .filter(|(_, reads)| !self.refuses(reads))
        {
            self.read_all(&reads);
            return Ok(found);
        }
        let mark = self.reads_mark();
        let found = self.lookup_key_uncached(key, merge)?;
        // lookup_options gathered during this lookup may have been partial.
        let reads = self.reads_since(mark);
        if self.options_busy.is_empty() && !self.req.hides(&reads) {
            self.session
                .keep_as::<Finished>((key, merge), found.clone(), reads);
        }
        Ok(found)
    }

    pub(super) fn lookup_key_uncached(
        &mut self,
        key: &str,
        merge: Option<&Value>,
    ) -> Result<Found> {
        if key == "lookup_options" || key.starts_with("lookup_options.") {
            return Ok(None);
        }
        let lk = LookupKey::parse(key)?;
        let options = match self.lookup_options_for(&lk)? {
            Some(Value::Hash(h)) => Some(h.clone()),
            Some(other) => match crate::hiera5::key_options::index_error(&other) {
                // Puppet reads `options['merge']` before the lookup when no
                // merge is given, and `options['convert_to']` after a value
                // is found: a non-Hash raises Ruby's error at either point.
                Some(e) if merge.is_none() => return Err(e),
                Some(e) => {
                    let found = self.lookup_parsed(&lk, merge, None)?;
                    return match found {
                        Some(_) => Err(e),
                        None => Ok(None),
                    };
                }
                None => None,
            },
            None => None,
        };
        let merge_from_options = merge.is_none()
            && options
                .as_ref()
                .is_some_and(|o| o.contains_key(&Key("merge")));
        if merge_from_options {
            self.ex_line(|| "Using merge options from \"lookup_options\" hash".to_string());
        }
        self.ex_push(|| format!("Searching for \"{key}\""));
        let r = self.lookup_parsed(&lk, merge, options);
        self.ex_pop();
        r
    }

    pub(super) fn lookup_parsed(
        &mut self,
        lk: &LookupKey,
        merge: Option<&Value>,
        options: Option<Map>,
    ) -> Result<Found> {
        let key = &*lk.key;
        let merge_value = match merge {
            Some(m) => Some(m.clone()),
            None => options.as_ref().and_then(|o| o.get(&Key("merge")).cloned()),
        };
        let found = match self.do_lookup(lk, merge_value.as_ref())? {
            Some(v) => Some(v),
            None if self.global_only => None,
            None => match self.lookup_default_in_module(lk)? {
                Some(v) => lk.dig(v)?,
                None => None,
            },
        };
        match (
            found,
            options.as_ref().and_then(|o| o.get(&Key("convert_to"))),
        ) {
            (Some(v), Some(conv)) => Ok(Some(crate::hiera5::convert::convert_to(key, v, conv)?)),
            (found, _) => Ok(found),
        }
    }

    pub(super) fn do_lookup(&mut self, lk: &LookupKey, merge: Option<&Value>) -> Result<Found> {
        let strategy = match merge {
            Some(m) => Strategy::from_value(m)?,
            None => Strategy::default(),
        };
        let layers = if self.global_only {
            1
        } else {
            SEARCH_ORDER.len()
        };
        let plan = self.walkable_plan(lk);
        let found = self.merged(&strategy, layers, |inv, i| match &plan {
            Some(plan) => inv.planned_layer_lookup(plan, SEARCH_ORDER[i], lk, &strategy),
            None => inv.layer_lookup(SEARCH_ORDER[i], lk, &lk.key, lk.module(), &strategy, false),
        })?;
        match found {
            Some(v) if !lk.segments.is_empty() && self.explain.is_some() => {
                self.explained_dig(&lk.key, &lk.segments, v)
            }
            Some(v) => lk.dig(v),
            None => Ok(None),
        }
    }

    /// The namespace's [`SearchPlan`], when this lookup may walk it instead
    /// of making each layer's step: the session has made it (every layer's
    /// configuration, resolved hierarchy and key index), and nothing but the
    /// session decides where to look (no explanation, which probes every
    /// location; no override or default values or local bindings, which
    /// resolve hierarchies afresh; not `global_only`; no step whose
    /// variables the request's own hide).
    pub(super) fn walkable_plan(&self, lk: &LookupKey) -> Option<Arc<SearchPlan>> {
        if self.explain.is_some()
            || self.global_only
            || !self.locals.is_empty()
            || !self.req.override_values.is_empty()
            || !self.req.default_values_hash.is_empty()
        {
            return None;
        }
        let plan = self.session.plan(lk.module()).ok()?;
        if plan.layers().any(|l| self.refuses(&l.hierarchy.reads)) {
            return None;
        }
        Some(plan)
    }

    /// [`Invocation::layer_lookup`] over the step `plan` has for `site`: the
    /// same search, with the configuration and resolved hierarchy the plan
    /// holds (what `layer_lookup` would find in the session).
    pub(super) fn planned_layer_lookup(
        &mut self,
        plan: &SearchPlan,
        site: Layer,
        lk: &LookupKey,
        strategy: &Strategy,
    ) -> Result<Found> {
        let result = (|| {
            // The global layer (always configured) checks for recursion
            // first, as layer_lookup does before any other layer's search.
            if site == Layer::Global && self.stack.contains(&lk.key) {
                return Err(self.recursion_error());
            }
            let Some(step) = plan.layer(site) else {
                return Ok(None);
            };
            self.read_all(&step.hierarchy.reads);
            self.stack.push(lk.key.clone());
            // The key's module, in every layer (as layer_lookup has it).
            let outer = std::mem::replace(&mut self.site, (site, lk.module().map(Arc::from)));
            let r = self.hierarchy_lookup(step, lk, strategy);
            self.site = outer;
            self.stack.pop();
            r
        })();
        result.map_err(|e| layer_error(site, &lk.key, e))
    }

    /// The configuration of a layer, read once per session (errors are not
    /// kept: they are met again at the next lookup, as in Puppet).
    pub(super) fn layer_config(
        &mut self,
        layer: Layer,
        module: Option<&str>,
    ) -> Result<Option<Arc<HieraConfig>>> {
        let session = self.session;
        match layer {
            Layer::Global => {
                if let Some((c, _)) = session.find::<GlobalConfig>(()) {
                    return Ok(Some(c));
                }
                let c = self.hiera().global_config()?;
                Ok(Some(session.keep_as::<GlobalConfig>((), c, no_reads())))
            }
            Layer::Environment => {
                if let Some((c, _)) = session.find::<EnvConfig>(()) {
                    return Ok(c);
                }
                let mut warnings = Vec::new();
                let c = self.hiera().env_config(&mut warnings);
                warnings.into_iter().for_each(|w| self.warn(w));
                let c = c?;
                Ok(session.keep_as::<EnvConfig>((), c, no_reads()))
            }
            Layer::Module => {
                let Some(m) = module else { return Ok(None) };
                if let Some((c, _)) = session.find::<ModuleConfigs>(m) {
                    return Ok(c);
                }
                let mut warnings = Vec::new();
                let c = self.hiera().module_config(m, &mut warnings);
                warnings.into_iter().for_each(|w| self.warn(w));
                let c = c?;
                Ok(session.keep_as::<ModuleConfigs>(m, c, no_reads()))
            }
        }
    }

    /// A provider's `key_lookup`: recursion check, then the hierarchy.
    pub(super) fn layer_lookup(
        &mut self,
        layer: Layer,
        lk: &LookupKey,
        top_key: &str,
        module: Option<&str>,
        strategy: &Strategy,
        default_hierarchy: bool,
    ) -> Result<Found> {
        let result = (|| {
            let Some(config) = self.layer_config(layer, module)? else {
                if layer == Layer::Module && self.explain.is_some() {
                    if let Some(m) = module {
                        let exists = self.hiera().module_dir(m).is_some();
                        // A node of its own: it counts as a merge branch.
                        self.ex_push(|| {
                            if exists {
                                format!("Module data provider for module \"{m}\" not found")
                            } else {
                                format!("Module \"{m}\" not found")
                            }
                        });
                        self.ex_pop();
                    }
                }
                return Ok(None);
            };
            // Puppet's global provider of a version 3 hiera.yaml asks whether
            // the environment has a data provider (GlobalDataProvider's
            // unchecked_key_lookup), so the environment's hiera.yaml is
            // loaded inside the global layer: its errors get that layer's
            // "Lookup of key" prefix (fuzz/env_config_error_v3_global).
            if layer == Layer::Global && config.version == 3 {
                self.layer_config(Layer::Environment, None)?;
            }
            if self.stack.contains(&lk.key) {
                return Err(self.recursion_error());
            }
            self.ex_push(|| {
                let place = match layer {
                    Layer::Global => "Global Data Provider".to_string(),
                    Layer::Environment => "Environment Data Provider".to_string(),
                    Layer::Module => format!("Module \"{}\" Data Provider", module.unwrap_or("")),
                };
                format!("{place} ({})", config.name())
            });
            if let Some(p) = &config.path {
                self.ex_line(|| format!("Using configuration \"{}\"", p.display()));
            }
            self.stack.push(lk.key.clone());
            let site = std::mem::replace(&mut self.site, (layer, module.map(Arc::from)));
            let r = if default_hierarchy && config.default_hierarchy.is_none() {
                Ok(None)
            } else {
                self.plan_layer(layer, &config, default_hierarchy)
                    .and_then(|step| self.hierarchy_lookup(&step, lk, strategy))
            };
            self.site = site;
            self.stack.pop();
            if matches!(r, Ok(None)) && config.hierarchy.is_empty() {
                self.ex_line(|| format!("No such key: \"{}\"", lk.key));
            }
            self.ex_pop();
            r
        })();
        result.map_err(|e| layer_error(layer, top_key, e))
    }

    pub(super) fn recursion_error(&self) -> Error {
        Error::new(
            ErrorKind::Recursion,
            format!("Recursive lookup detected in [{}]", self.stack.join(", ")),
        )
    }
}

impl Invocation<'_> {
    /// Digs `segments` into `value`, explaining each step as Puppet does
    /// (`Sub key: "a.b"`, then a found or not-found line per segment).
    pub(super) fn explained_dig(
        &mut self,
        key: &str,
        segments: &[Segment],
        value: Value,
    ) -> Result<Found> {
        let subs: Vec<String> = segments.iter().map(|s| s.to_string()).collect();
        self.ex_push(|| format!("Sub key: \"{}\"", subs.join(".")));
        let mut cur = Some(value);
        for seg in segments {
            let Some(v) = cur else { break };
            cur = match dig(key, std::slice::from_ref(seg), v) {
                Ok(Some(next)) => {
                    self.ex_value(|| format!("Found key: \"{seg}\" value: "), &next);
                    Some(next)
                }
                Ok(None) => {
                    self.ex_line(|| format!("No such key: \"{seg}\""));
                    None
                }
                Err(e) => {
                    self.ex_pop();
                    return Err(e);
                }
            };
        }
        self.ex_pop();
        Ok(cur)
    }

    // ---- lookup_options ----
}

/// An error of a layer's search as Puppet reports it: it prefixes
/// LookupErrors without an issue code (parse, type and recursion errors)
/// of the global layer with the key; issue-coded config and interpolation
/// errors and Ruby errors from the deep merge pass through unchanged. A
/// limit names the key it stopped at, and is prefixed once, with the key
/// asked for (`Session::lookup_with_warnings`).
pub(super) fn layer_error(layer: Layer, top_key: &str, e: Error) -> Error {
    if layer == Layer::Global
        && !matches!(
            e.kind,
            ErrorKind::Config | ErrorKind::Interpolation | ErrorKind::Merge | ErrorKind::Limit
        )
    {
        e.prefixed(top_key)
    } else {
        e
    }
}

/// The `merge` argument of `lookup()` is a `Variant[String[1], Hash[String,
/// Scalar]]` (or absent).
pub(super) fn check_merge_argument(merge: Option<&Value>) -> Result<()> {
    let ok = match merge {
        None | Some(Value::Nil) => true,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Hash(h)) => h
            .iter()
            .all(|(k, v)| matches!(k, Value::String(_)) && crate::hiera5::ptype::is_scalar(v)),
        Some(_) => false,
    };
    if ok {
        return Ok(());
    }
    let got = crate::hiera5::ptype::infer_type(merge.unwrap_or(&Value::Nil));
    Err(Error::new(
        ErrorKind::InvalidArgument,
        format!("The function 'lookup' was called with arguments it does not accept: 'merge' expects a MergeType = Variant[String[1], Hash[String, Scalar]] value, got {got}"),
    ))
}
