//! The hierarchy search: layers, locations (paths, globs, mapped paths,
//! uris) resolved for a scope, the per-layer key index, data slots, and
//! `create_configured_data_providers`.

use super::variables::ScopePath;
use super::*;
use crate::data::DataFormat;
use crate::error::{Error, ErrorKind, Result};
use crate::hiera5::config::{
    pathname_join, Entry, FunctionKind, HieraConfig, LayerKind, LocationSpec,
};
use crate::hiera5::interpolate;
use crate::hiera5::key::LookupKey;
use crate::hiera5::merge::Strategy;
use crate::host::Warning;
use crate::value::Str;
use crate::value::{Key, Map, Value};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// Which layer a search is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Layer {
    Global,
    Environment,
    Module,
}

impl Layer {
    pub(super) fn kind(self) -> LayerKind {
        match self {
            Layer::Global => LayerKind::Global,
            Layer::Environment => LayerKind::Environment,
            Layer::Module => LayerKind::Module,
        }
    }
}

/// A resolved data location.
#[derive(Clone, Debug)]
pub(super) enum Location {
    /// The function is called without a path.
    Nowhere,
    /// A file path and the declaration it came from. Whether the file
    /// exists is checked at each lookup (through the file cache).
    Path(PathBuf, String),
    /// A URI (always "exists").
    Uri(String),
}

/// What one location gave.
pub(super) enum LocationOutcome {
    /// The file does not exist.
    Missing,
    /// The file has no such key.
    NoKey,
    /// The key's (interpolated) value.
    Found(Value),
}

/// A hierarchy entry resolved for the current scope.
pub(super) struct ResolvedEntry {
    /// The index of the entry in its hierarchy.
    pub(super) index: usize,
    pub(super) locations: Vec<Location>,
    /// Each location's data hash, once read in this session (None inside:
    /// the file does not exist).
    pub(super) data: Vec<OnceLock<Option<Map>>>,
    /// The interpolated `options`, when there are any.
    pub(super) options: Option<Value>,
}

/// A hierarchy resolved for a session's scope: interpolated datadirs,
/// paths, globs, URIs and mapped paths. Shared by the session's lookups.
pub(super) struct ResolvedHierarchy {
    /// The configuration it was resolved from (held also so that its
    /// address, the cache key, stays unique while the entry lives).
    pub(super) config: Arc<HieraConfig>,
    /// Whether it is the configuration's default hierarchy.
    pub(super) default_hierarchy: bool,
    pub(super) entries: Vec<ResolvedEntry>,
    /// Which locations hold which root keys (built once, on first use).
    /// `None` inside when it cannot be built (a location that fails to
    /// load, or a function other than yaml_data/json_data): lookups then
    /// probe every location, which also reports the error where Puppet does.
    pub(super) index: OnceLock<Option<Arc<KeyIndex>>>,
    /// The variables its resolution read.
    pub(super) reads: Reads,
}

/// Root key -> the locations whose data has that key, in hierarchy order.
pub(super) type KeyIndex = FastMap<Str, Vec<Hit>>;

/// A location whose data has a key.
#[derive(Debug)]
pub(super) struct Hit {
    /// The position of the entry in the resolved hierarchy.
    pub(super) entry: u32,
    /// The position of the location in the entry.
    pub(super) location: u32,
    /// Whether the value is rich data without `%{...}` (the answer as it
    /// is, with nothing to check or interpolate): found out the first time
    /// a search stops here ([`Hit::find_plain`]), not when the index is built,
    /// which would walk every value of every file (a large common.yaml's
    /// thousands of keys) for the few keys a node looks up.
    plain: std::sync::atomic::AtomicU8,
}

/// [`Hit::plain`] not found out yet.
const PLAIN_UNKNOWN: u8 = 0;
const PLAIN_YES: u8 = 1;
const PLAIN_NO: u8 = 2;

impl Hit {
    fn new(entry: u32, location: u32) -> Hit {
        Hit {
            entry,
            location,
            plain: std::sync::atomic::AtomicU8::new(PLAIN_UNKNOWN),
        }
    }

    /// Whether the hit's value is plain ([`Hit`]'s `plain`), if that is
    /// known yet.
    #[inline(always)]
    pub(super) fn known_plain(&self) -> Option<bool> {
        match self.plain.load(std::sync::atomic::Ordering::Relaxed) {
            PLAIN_YES => Some(true),
            PLAIN_NO => Some(false),
            _ => None,
        }
    }

    /// Finds out whether `value`, the hit's value, is plain, and keeps the
    /// answer (`None`: its data is not at hand, and the value counts as not
    /// plain, unkept: the general checks then run, with the same outcome).
    #[cold]
    #[inline(never)]
    pub(super) fn find_plain(&self, value: Option<&Value>) -> bool {
        let Some(v) = value else { return false };
        let plain = crate::hiera5::ptype::is_rich_data(v) && !interpolate::needs_interpolation(v);
        // Every thread finds the same answer: a race is harmless.
        self.plain.store(
            if plain { PLAIN_YES } else { PLAIN_NO },
            std::sync::atomic::Ordering::Relaxed,
        );
        plain
    }
}

/// A key index and the data it was built from.
pub(super) type PinnedIndex = (Vec<Map>, Arc<KeyIndex>);

/// Key indexes by the identity of the data they were built from. Each entry
/// holds its data (`pinned`) so that the addresses in its key stay unique.
#[derive(Default)]
pub(super) struct IndexCache {
    pub(super) map: Kept<Vec<usize>, PinnedIndex>,
}

impl IndexCache {
    /// The most indexes kept; past it the cache starts over (a changed file
    /// leaves its old index behind, and this bounds them).
    const LIMIT: usize = 4096;

    pub(super) fn get(&self, identity: &[usize]) -> Option<Arc<KeyIndex>> {
        let map = self.map.lock();
        map.get(identity).map(|(_, index)| Arc::clone(index))
    }

    pub(super) fn insert(&self, identity: Vec<usize>, pinned: Vec<Map>, index: Arc<KeyIndex>) {
        let mut map = self.map.lock();
        if map.len() >= Self::LIMIT {
            map.clear();
        }
        map.insert(identity, (pinned, index));
    }
}

/// A resolved hierarchy kept in the [`Hiera`] for other sessions, with the
/// scope expressions its resolution evaluated and their values.
pub(super) struct SharedResolution {
    /// The hierarchy as its session resolved, read and indexed it.
    pub(super) hierarchy: Arc<ResolvedHierarchy>,
    /// Each scope expression its paths, datadirs and options evaluated, and
    /// its value (always the scope's own, found).
    pub(super) exprs: Exprs,
}

/// The scope expressions a resolution evaluated and their values (shared
/// with the [`NamespaceTable`]'s entries made from it).
pub(super) type Exprs = Arc<Recorded>;

/// The scope expressions a resolution evaluated, each with its value
/// (always the scope's own, found) and read once ([`ScopePath`]), for the
/// sessions after to ask of their scopes.
pub(super) struct Recorded {
    exprs: Box<[(Box<str>, Value)]>,
    paths: Box<[ScopePath]>,
}

impl Recorded {
    /// `None`: an expression no scope gives (a resolution that read it is
    /// never another session's).
    pub(super) fn of(exprs: Vec<(Box<str>, Value)>) -> Option<Recorded> {
        let paths = exprs
            .iter()
            .map(|(e, _)| ScopePath::of(e))
            .collect::<Option<_>>()?;
        Some(Recorded {
            exprs: exprs.into_boxed_slice(),
            paths,
        })
    }

    /// Whether `session`'s scope gives every expression its recorded value
    /// ([`Value::identical`]). `seen`: the values already asked of it (the
    /// recordings of one hierarchy evaluated the same expressions, with
    /// other values: each is asked once).
    pub(super) fn given_by<'a>(
        &'a self,
        session: &'a Session,
        seen: &mut Vec<(&'a str, Option<&'a Value>)>,
    ) -> bool {
        self.exprs
            .iter()
            .zip(self.paths.iter())
            .all(|((expr, v), path)| {
                let value = match seen.iter().find(|(e, _)| *e == &**expr) {
                    Some(&(_, value)) => value,
                    None => {
                        let value = session.peek_path(path);
                        seen.push((expr, value));
                        value
                    }
                };
                value.is_some_and(|w| w.identical(v))
            })
    }

    /// Whether two recordings hold the same expressions with
    /// [`Value::identical`] values.
    pub(super) fn same_values(&self, other: &Recorded) -> bool {
        self.exprs.len() == other.exprs.len()
            && self
                .exprs
                .iter()
                .zip(other.exprs.iter())
                .all(|((e, v), (f, w))| e == f && v.identical(w))
    }
}

/// What a resolution being recorded evaluated: each scope expression and
/// its value, and whether it may still be shared.
pub(super) type Recording = (Vec<(Box<str>, Value)>, bool);

/// How a shared resolution is asked for: its configuration's address (the
/// entry holds the configuration), whether it is the default hierarchy, and
/// whether the session is a plan's (which hierarchy it resolves).
pub(super) type ResolutionKey = (usize, bool, bool);

/// Resolved hierarchies shared by the sessions of a [`Hiera`]: a session
/// whose scope gives every expression a resolution evaluated the same value
/// takes that resolution (its locations, data slots and key index) once the
/// data of each location is still what the file cache has now (a changed
/// or removed file is a new parse), instead of interpolating the paths and
/// reading every location again. That is what it would have made itself:
/// the resolution is a function of the configuration and those values (only
/// plain paths, uris and datadirs are shared: no globs, mapped paths or
/// implicit configurations, which read the file system or locals), and its
/// data slots hold the parses the file cache gives now.
///
/// Bounded: at most [`ResolutionCache::VARIANTS`] resolutions per
/// hierarchy (the oldest gives way: a hierarchy that reads a node's own
/// variable is resolved by every node, and never shared), and
/// [`ResolutionCache::LIMIT`] hierarchies, past which it starts over (an
/// edited hiera.yaml leaves its old configuration's entries behind).
#[derive(Default)]
pub(super) struct ResolutionCache {
    map: Kept<ResolutionKey, Vec<SharedResolution>>,
}

impl ResolutionCache {
    /// The most hierarchies kept.
    const LIMIT: usize = 4096;
    /// The most resolutions kept per hierarchy.
    pub(super) const VARIANTS: usize = 8;

    /// The resolution whose expressions `session`'s scope gives the same
    /// values, if one is kept.
    pub(super) fn find(
        &self,
        key: ResolutionKey,
        session: &Session,
    ) -> Option<(Arc<ResolvedHierarchy>, Exprs)> {
        let map = self.map.lock();
        let mut seen = Vec::new();
        let r = map
            .get(&key)?
            .iter()
            .rev()
            .find(|r| r.exprs.given_by(session, &mut seen))?;
        Some((Arc::clone(&r.hierarchy), Arc::clone(&r.exprs)))
    }

    /// Keeps a resolution (in place of one with the same values).
    pub(super) fn insert(&self, key: ResolutionKey, shared: SharedResolution) {
        let mut map = self.map.lock();
        if map.len() >= Self::LIMIT && !map.contains_key(&key) {
            map.clear();
        }
        let list = map.entry(key).or_default();
        list.retain(|r| !r.exprs.same_values(&shared.exprs));
        if list.len() >= Self::VARIANTS {
            list.remove(0);
        }
        list.push(shared);
    }

    /// How many resolutions are kept (for tests).
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.map.lock().values().map(Vec::len).sum()
    }
}

/// The data format a location of `re` is read in when the key index can
/// be built for it (`None`: no index; also for a function the host runs).
fn indexed_format(hiera: &Hiera, entry: &Entry, re: &ResolvedEntry) -> Option<DataFormat> {
    match (entry.function_kind, entry.function_name.as_str()) {
        _ if re.options.is_some() => None,
        _ if hiera.host_runs(entry) => None,
        (FunctionKind::DataHash, "yaml_data") => Some(DataFormat::Yaml),
        (FunctionKind::DataHash, "json_data") => Some(DataFormat::Json),
        (FunctionKind::DataHash, "hocon_data") => Some(DataFormat::Hocon),
        _ => None,
    }
}

impl Invocation<'_> {
    /// Whether this lookup may take, and give, resolutions shared by the
    /// sessions of the [`Hiera`] for `config` ([`ResolutionCache`]): a
    /// version 5 hiera.yaml whose hierarchy has only paths, uris or
    /// nothing, resolved for a session that is not an overlay, whose host
    /// numbered no variable, by a request with no variables of its own.
    pub(super) fn shares_resolutions(&self, config: &HieraConfig, default_hierarchy: bool) -> bool {
        config.path.is_some()
            && config.version == 5
            && self.session.parent.is_none()
            && self.session.known_variables().is_empty()
            && !self.req.scoped()
            && self
                .session
                .entries(config, default_hierarchy)
                .iter()
                .all(|e| {
                    matches!(
                        e.locations,
                        LocationSpec::None | LocationSpec::Paths(_) | LocationSpec::Uris(_)
                    )
                })
    }

    /// A resolution another session made of `config` that this session may
    /// take ([`ResolutionCache`]): its expressions have the same values
    /// here, it is indexed (every location read), and each location's data
    /// is the parse the file cache has now. The data files it reads are
    /// checked as the module's own keys are the first time a session reads
    /// them.
    pub(super) fn shared_resolution(
        &self,
        config: &HieraConfig,
        default_hierarchy: bool,
    ) -> Option<(Arc<ResolvedHierarchy>, Exprs)> {
        let key = (
            config as *const HieraConfig as usize,
            default_hierarchy,
            self.session.options.plan,
        );
        let (hierarchy, exprs) = self.hiera().resolutions.find(key, self.session)?;
        let Some(Some(_)) = hierarchy.index.get() else {
            return None;
        };
        let entries = self.session.entries(config, default_hierarchy);
        if !self.data_unchanged(&hierarchy, entries) {
            return None;
        }
        if self.hiera().options.host.is_some() {
            for re in &hierarchy.entries {
                for (loc, slot) in re.locations.iter().zip(&re.data) {
                    if let (Location::Path(path, _), Some(data)) = (loc, slot.get()) {
                        self.check_module_keys(&entries[re.index], path, data.as_ref());
                    }
                }
            }
        }
        Some((hierarchy, exprs))
    }

    /// Whether each location of `hierarchy` (resolved from `entries`) still
    /// has the data its slot holds: the parse the file cache gives now (a
    /// changed or removed file is a new parse), or still no file.
    pub(super) fn data_unchanged(&self, hierarchy: &ResolvedHierarchy, entries: &[Entry]) -> bool {
        let cache = &self.hiera().cache;
        hierarchy.entries.iter().all(|re| {
            let Some(format) = indexed_format(self.hiera(), &entries[re.index], re) else {
                return false;
            };
            re.locations.iter().zip(&re.data).all(|(loc, slot)| {
                let (Location::Path(path, _), Some(held)) = (loc, slot.get()) else {
                    return false;
                };
                match cache.data_is(path, format, held.as_ref()) {
                    Some(same) => same,
                    None => match cache.data(path, format) {
                        Ok(now) => match (held, &now) {
                            (None, None) => true,
                            (Some(a), Some(b)) => Map::ptr_eq(a, b),
                            _ => false,
                        },
                        Err(_) => false,
                    },
                }
            })
        })
    }

    /// Whether [`Invocation::shared_resolution`] could ever take `resolved`
    /// (every location a file read in a format the key index is built for):
    /// others (a custom, host-run or eyaml function's level, `options`, a
    /// uri) are not kept in the [`ResolutionCache`], where they would only
    /// hold their data and a variant's place. An explaining session builds
    /// no key index, so what it resolves is not kept either.
    fn takeable(&self, resolved: &ResolvedHierarchy, entries: &[Entry]) -> bool {
        resolved.entries.iter().all(|re| {
            indexed_format(self.hiera(), &entries[re.index], re).is_some()
                && re.locations.iter().all(|l| matches!(l, Location::Path(..)))
        })
    }

    /// The hierarchy of `config` resolved for this session's scope: from the
    /// session's cache when the request cannot change variables (no
    /// override or default values), else resolved afresh.
    pub(super) fn resolved_hierarchy(
        &mut self,
        config: &Arc<HieraConfig>,
        default_hierarchy: bool,
    ) -> Result<Arc<ResolvedHierarchy>> {
        let cacheable = (config.path.is_some()
            || crate::hiera5::data_provider::is_function_config(config))
            && self.req.override_values.is_empty()
            && self.req.default_values_hash.is_empty()
            && self.locals.is_empty();
        let cache_key = (Arc::as_ptr(config) as usize, default_hierarchy);
        if cacheable {
            if let Some((r, _)) = self
                .session
                .find::<Hierarchies>(cache_key)
                .filter(|(_, reads)| !self.refuses(reads))
            {
                self.read_all(&r.reads);
                return Ok(r);
            }
        }
        let shares = cacheable && self.shares_resolutions(config, default_hierarchy);
        if shares {
            if let Some((r, _)) = self.shared_resolution(config, default_hierarchy) {
                self.read_all(&r.reads);
                let reads = Arc::clone(&r.reads);
                return Ok(self.session.keep_as::<Hierarchies>(cache_key, r, reads));
            }
        }
        let mark = self.reads_mark();
        let warnings = self.warnings.len();
        let entries = self.session.entries(config, default_hierarchy);
        // Puppet does not explain the interpolation of hiera.yaml strings.
        let explain = self.explain.take();
        let part = std::mem::replace(&mut self.config_part, ConfigPart::Config);
        let outer = std::mem::replace(&mut self.recording, shares.then(|| (Vec::new(), true)));
        let entries = self
            .resolve_entries(config, entries)
            .map_err(|e| config_undefined_variable(e, config));
        let recorded = std::mem::replace(&mut self.recording, outer);
        self.config_part = part;
        self.explain = explain;
        let resolved = Arc::new(ResolvedHierarchy {
            config: Arc::clone(config),
            default_hierarchy,
            entries: entries?,
            index: OnceLock::new(),
            reads: self.reads_since(mark),
        });
        if cacheable && !self.req.hides(&resolved.reads) {
            // The entry keeps its config alive, so the address stays unique.
            let reads = Arc::clone(&resolved.reads);
            let kept = self
                .session
                .keep_as::<Hierarchies>(cache_key, resolved, reads);
            if let Some((exprs, true)) = recorded {
                // Shared only when nothing but the recorded values decided it
                // (no warning, nothing that may change during the session).
                if self.warnings.len() == warnings
                    && !kept.reads.iter().any(|r| &**r == VOLATILE)
                    && Arc::ptr_eq(&kept.config, config)
                    && self.explain.is_none()
                    && self.takeable(&kept, self.session.entries(config, default_hierarchy))
                {
                    if let Some(recorded) = Recorded::of(exprs) {
                        let key = (cache_key.0, default_hierarchy, self.session.options.plan);
                        let shared = SharedResolution {
                            hierarchy: Arc::clone(&kept),
                            exprs: Arc::new(recorded),
                        };
                        self.hiera().resolutions.insert(key, shared);
                    }
                }
            }
            return Ok(kept);
        }
        Ok(resolved)
    }

    /// A layer's step of the search plan as the general path makes it: the
    /// hierarchy of `config` resolved for the scope
    /// ([`Invocation::resolved_hierarchy`]: kept in the session when it can
    /// be) and, outside explain, its key index (built once per resolution,
    /// shared between sessions that read the same files). The quick path's
    /// [`SearchPlan`] is made of these same steps, taken from the session.
    pub(super) fn plan_layer(
        &mut self,
        site: Layer,
        config: &Arc<HieraConfig>,
        default_hierarchy: bool,
    ) -> Result<PlanLayer> {
        let hierarchy = self.resolved_hierarchy(config, default_hierarchy)?;
        // Explain probes every location, as Puppet does: no index.
        let index = if self.explain.is_none() && !hierarchy.entries.is_empty() {
            let entries = self.session.entries(config, default_hierarchy);
            hierarchy
                .index
                .get_or_init(|| self.build_index(entries, &hierarchy))
                .clone()
        } else {
            None
        };
        Ok(PlanLayer {
            site,
            hierarchy,
            index,
        })
    }

    /// Searches one layer's step for `lk`: the [`Stops`] of its root key,
    /// entry by entry and location by location, merged with `strategy` and
    /// explained (each entry and location one merge candidate, as in
    /// Puppet, whether or not the key index lets it be skipped).
    pub(super) fn hierarchy_lookup(
        &mut self,
        layer: &PlanLayer,
        lk: &LookupKey,
        strategy: &Strategy,
    ) -> Result<Found> {
        let resolved = &*layer.hierarchy;
        let config = &resolved.config;
        let default_hierarchy = resolved.default_hierarchy;
        let entries = self.session.entries(config, default_hierarchy);
        let stops = layer.stops(&lk.root);
        if stops.is_empty() {
            return Ok(None);
        }
        self.merged(strategy, stops.entries(), |this, i| {
            let re = &resolved.entries[i];
            let entry = &entries[re.index];
            this.ex_push(|| match entry.function_kind {
                FunctionKind::V4DataHash => {
                    format!("Deprecated API function \"{}\"", entry.function_name)
                }
                _ => format!("Hierarchy entry \"{}\"", entry.name),
            });
            if !stops.at_entry(i) {
                // No location of this entry has the key.
                this.ex_pop();
                return Ok(None);
            }
            if entry.function_kind == FunctionKind::Hiera3Backend && this.function_host().is_some() {
                // A Hiera 3 backend searches its hierarchy itself.
                let r = this.host_backend_lookup(config, entry, re, lk, strategy, default_hierarchy);
                this.ex_pop();
                return r;
            }
            let r = this.merged(strategy, stops.locations(i), |this, j| {
                let Some(stop) = stops.at(i, j) else {
                    return Ok(None);
                };
                let loc = &re.locations[j];
                match loc {
                    Location::Path(p, orig) => {
                        this.ex_push(|| format!("Path \"{}\"", p.display()));
                        this.ex_line(|| format!("Original path: \"{orig}\""));
                    }
                    Location::Uri(u) => this.ex_push(|| format!("URI \"{u}\"")),
                    // An entry without locations (a function's own): its
                    // outcome is the entry's, as Puppet explains it.
                    Location::Nowhere => {}
                }
                let r = if re.options.is_some()
                    && takes_only_a_path(&entry.function_name)
                    && !this.hiera().host_runs(entry)
                {
                    match loc {
                        // Puppet skips a missing file before it calls the
                        // function.
                        Location::Path(p, _) if !this.hiera().cache.exists(p) => {
                            Ok(LocationOutcome::Missing)
                        }
                        // The built-in functions accept no options but `path`.
                        _ => Err(Error::new(
                        ErrorKind::Config,
                        format!(
                            "'{}' one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this data_hash function",
                            entry.function_name
                        ),
                    )),
                    }
                } else {
                    this.location_lookup(config, entry, re, j, lk, stop.plain, default_hierarchy)
                };
                let r = match r {
                    Ok(LocationOutcome::Found(v)) => {
                        this.ex_value(|| format!("Found key: \"{}\" value: ", lk.root), &v);
                        Ok(Some(v))
                    }
                    Ok(LocationOutcome::Missing) => {
                        this.ex_line(|| "Path not found".to_string());
                        Ok(None)
                    }
                    Ok(LocationOutcome::NoKey) => {
                        this.ex_line(|| format!("No such key: \"{}\"", lk.root));
                        Ok(None)
                    }
                    Err(e) => Err(e),
                };
                if !matches!(loc, Location::Nowhere) {
                    this.ex_pop();
                }
                r
            });
            this.ex_pop();
            r
        })
    }

    /// Appends the data of every file location of `config`'s hierarchies
    /// (see [`Session::layer_data`]).
    pub(super) fn hierarchy_data(
        &mut self,
        config: &Arc<HieraConfig>,
        out: &mut Vec<Map>,
    ) -> Result<()> {
        for default_hierarchy in [false, true] {
            if default_hierarchy && config.default_hierarchy.is_none() {
                continue;
            }
            let resolved = self.resolved_hierarchy(config, default_hierarchy)?;
            let entries = self.session.entries(config, default_hierarchy);
            for re in &resolved.entries {
                let entry = &entries[re.index];
                for (j, loc) in re.locations.iter().enumerate() {
                    let Location::Path(path, _) = loc else {
                        continue;
                    };
                    if self.hiera().host_runs(entry) {
                        continue;
                    }
                    let eyaml = entry.function_kind == FunctionKind::LookupKey
                        && entry.function_name == crate::eyaml::FUNCTION;
                    let format = match builtin_format(
                        entry.function_kind,
                        &entry.function_name,
                        re.options.as_ref(),
                        path,
                    ) {
                        Some(f) => f,
                        None if eyaml => DataFormat::Yaml,
                        None => continue,
                    };
                    let data = match re.data[j].get() {
                        None if eyaml => self.hiera().cache.data(path, format)?,
                        _ => self.slot_data(&re.data[j], entry, path, format)?,
                    };
                    out.extend(data);
                }
            }
        }
        Ok(())
    }

    /// Builds the key index of a resolved hierarchy (see [`ResolvedHierarchy`]).
    pub(super) fn build_index(
        &self,
        entries: &[Entry],
        resolved: &ResolvedHierarchy,
    ) -> Option<Arc<KeyIndex>> {
        // First the data of every location, in order (read through the
        // session's slots, so this is the session's snapshot).
        let mut layout: Vec<Vec<Option<Map>>> = Vec::with_capacity(resolved.entries.len());
        for re in &resolved.entries {
            let entry = &entries[re.index];
            let format = indexed_format(self.hiera(), entry, re)?;
            let mut datas = Vec::with_capacity(re.locations.len());
            for (j, loc) in re.locations.iter().enumerate() {
                let Location::Path(path, _) = loc else {
                    return None;
                };
                let data = self.slot_data(&re.data[j], entry, path, format).ok()?;
                datas.push(data);
            }
            layout.push(datas);
        }
        // Sessions that resolve a hierarchy to the same parsed files share
        // one index (the files' identity is the address of their cached data).
        let identity: Vec<usize> = layout
            .iter()
            .flat_map(|d| {
                d.iter()
                    .map(|m| m.as_ref().map_or(0, Map::addr))
                    .chain(std::iter::once(usize::MAX))
            })
            .collect();
        if let Some(index) = self.hiera().indexes.get(&identity) {
            return Some(index);
        }
        let mut index = KeyIndex::default();
        for (i, datas) in layout.iter().enumerate() {
            for (j, data) in datas.iter().enumerate() {
                let Some(data) = data else { continue };
                for k in data.keys() {
                    if let Value::String(name) = k {
                        index
                            .entry(name.clone())
                            .or_default()
                            .push(Hit::new(i as u32, j as u32));
                    }
                }
            }
        }
        let index = Arc::new(index);
        let pinned = layout.into_iter().flatten().flatten().collect();
        self.hiera()
            .indexes
            .insert(identity, pinned, Arc::clone(&index));
        Some(index)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn location_lookup(
        &mut self,
        config: &HieraConfig,
        entry: &Entry,
        resolved: &ResolvedEntry,
        j: usize,
        lk: &LookupKey,
        plain: bool,
        default_hierarchy: bool,
    ) -> Result<LocationOutcome> {
        let root = &*lk.root;
        let host_runs = self.hiera().host_runs(entry);
        if entry.function_kind == FunctionKind::LookupKey
            && entry.function_name == crate::eyaml::FUNCTION
            && !host_runs
        {
            return self.eyaml_location_lookup(entry, resolved, j, lk);
        }
        let (options, slot) = (resolved.options.as_ref(), &resolved.data[j]);
        let path = match &resolved.locations[j] {
            Location::Path(p, _) => p,
            Location::Uri(_) | Location::Nowhere => {
                return self.host_location_lookup(
                    config,
                    entry,
                    resolved,
                    j,
                    lk,
                    default_hierarchy,
                );
            }
        };
        let format = match builtin_format(entry.function_kind, &entry.function_name, options, path)
        {
            Some(f) if !host_runs => f,
            // A missing file never reaches the function (Puppet checks
            // existence first).
            _ if !self.hiera().cache.exists(path) => return Ok(LocationOutcome::Missing),
            _ => {
                return self.host_location_lookup(config, entry, resolved, j, lk, default_hierarchy)
            }
        };
        let data = self.slot_data(slot, entry, path, format)?;
        let Some(data) = data else {
            return Ok(LocationOutcome::Missing);
        };
        let Some(value) = data.get(&Key(root)) else {
            return Ok(LocationOutcome::NoKey);
        };
        if plain {
            // Known from the key index: nothing to check or interpolate.
            return Ok(LocationOutcome::Found(value.clone()));
        }
        self.found_in_hash(
            entry,
            root,
            Some(&path.to_string_lossy()),
            Some(path),
            value,
        )
    }

    /// One location's data through its session slot: the slot's parse, or
    /// the file cache's, kept in the slot (and its keys checked against the
    /// module's namespace) the first time.
    pub(super) fn slot_data(
        &self,
        slot: &OnceLock<Option<Map>>,
        entry: &Entry,
        path: &Path,
        format: DataFormat,
    ) -> Result<Option<Map>> {
        if let Some(d) = slot.get() {
            return Ok(d.clone());
        }
        let d = self.hiera().cache.data(path, format)?;
        let mut fresh = false;
        let kept = slot
            .get_or_init(|| {
                fresh = true;
                d
            })
            .clone();
        if fresh {
            self.check_module_keys(entry, path, kept.as_ref());
        }
        Ok(kept)
    }

    /// Puppet's `ModuleDataProvider#validate_data_hash` for a data file of a
    /// module's hierarchy that libhiera read (once per session, as Puppet
    /// once per compilation): each key outside the module's namespace (but
    /// `lookup_options`) is dropped with a warning, Puppet's, one per key,
    /// handed to the host. (Its lookups never see such a key: a module's
    /// layer is only searched for the module's keys. The data a host
    /// function returns is checked by the host's own provider.)
    pub(super) fn check_module_keys(&self, entry: &Entry, path: &Path, data: Option<&Map>) {
        let (Layer::Module, Some(module)) = (&self.site.0, &self.site.1) else {
            return;
        };
        let (Some(host), Some(data)) = (&self.hiera().options.host, data) else {
            return;
        };
        let prefix = format!("{module}::");
        for k in data.keys() {
            let name = k.as_str().unwrap_or("");
            if name == "lookup_options" || name.starts_with(&prefix) {
                continue;
            }
            host.0.warn(&Warning::plain(format!(
                "Module '{module}': Value returned from {}, when using location '{}', must use keys qualified with the name of the module",
                function_full_name(entry),
                path.display()
            )));
        }
    }
}

impl Invocation<'_> {
    /// `create_configured_data_providers`: interpolates datadirs, paths,
    /// globs, uris and mapped paths for the current scope.
    pub(super) fn resolve_entries(
        &mut self,
        config: &HieraConfig,
        entries: &[Entry],
    ) -> Result<Vec<ResolvedEntry>> {
        let implicit = config.path.is_none();
        let mut out = Vec::with_capacity(entries.len());
        for (index, entry) in entries.iter().enumerate() {
            let datadir: PathBuf = if entry.datadir_from_cwd {
                PathBuf::from(self.interpolate_config(config, &entry.datadir)?)
            } else {
                let joined = pathname_join(&config.root, &entry.datadir);
                if entry.interpolate_datadir {
                    PathBuf::from(self.interpolate_config(config, &joined.to_string_lossy())?)
                } else {
                    joined
                }
            };
            if config.version == 5 {
                self.config_part = ConfigPart::Locations;
            }
            let locations = match &entry.locations {
                LocationSpec::None => vec![Location::Nowhere],
                LocationSpec::Paths(paths) => {
                    let mut v = Vec::with_capacity(paths.len());
                    for p in paths {
                        let mut s = self.interpolate_config(config, p)?;
                        if let Some(ext) = &entry.extension {
                            if !s.ends_with(ext.as_str()) {
                                s.push_str(ext);
                            }
                        }
                        let path = pathname_join(&datadir, &s);
                        // The implicit default config drops missing files.
                        if implicit && !self.hiera().cache.exists(&path) {
                            continue;
                        }
                        v.push(Location::Path(path, p.clone()));
                    }
                    v
                }
                LocationSpec::Globs(globs) => {
                    let mut v = Vec::new();
                    for g in globs {
                        let s = self.interpolate_config(config, g)?;
                        let pattern = pathname_join(&datadir, &s);
                        self.hiera().cache.check_glob(&pattern)?;
                        let found = crate::hiera5::glob::expand(&pattern.to_string_lossy())
                            .map_err(|e| Error::new(ErrorKind::Config, e.message))?;
                        let orig = pattern.to_string_lossy().to_string();
                        v.extend(found.into_iter().map(|p| Location::Path(p, orig.clone())));
                    }
                    v
                }
                LocationSpec::Uris(uris) => {
                    let mut v = Vec::new();
                    for u in uris {
                        let s = self.interpolate_config(config, u)?;
                        if s.contains(|c: char| c.is_whitespace()) {
                            return Err(Error::new(
                                ErrorKind::Config,
                                format!("bad URI(is not URI?): {s:?}"),
                            ));
                        }
                        v.push(Location::Uri(s));
                    }
                    v
                }
                LocationSpec::Mapped(expr, var, template) => {
                    let mapped = self.scope_expression(expr, "mapped_path[0]")?;
                    let elements: Vec<Value> = match &mapped {
                        Value::Nil => vec![],
                        Value::String(s) if s.is_empty() => vec![],
                        Value::String(_) => vec![mapped.clone()],
                        Value::Array(a) => a.to_vec(),
                        Value::Hash(h) => h
                            .iter()
                            .map(|(k, v)| Value::array(vec![k.clone(), v.clone()]))
                            .collect(),
                        other => vec![other.clone()],
                    };
                    let mut v = Vec::with_capacity(elements.len());
                    for el in elements {
                        let s = self
                            .with_local(var, el, |inv| inv.interpolate_config(config, template))?;
                        v.push(Location::Path(
                            pathname_join(&datadir, &s),
                            template.clone(),
                        ));
                    }
                    v
                }
            };
            self.config_part = ConfigPart::Config;
            if implicit && locations.is_empty() {
                continue;
            }
            let options = if entry.options.is_empty() {
                None
            } else {
                let v = Value::hash(entry.options.clone());
                match interpolate::interpolate(&v, self, false) {
                    Ok(v) => Some(v),
                    Err(e) if e.kind == ErrorKind::Interpolation && e.file.is_none() => {
                        return Err(match &config.path {
                            Some(p) => Error::config(e.message, p, None),
                            None => e,
                        })
                    }
                    Err(e) => return Err(e),
                }
            };
            let data = locations.iter().map(|_| OnceLock::new()).collect();
            out.push(ResolvedEntry {
                index,
                locations,
                data,
                options,
            });
        }
        Ok(out)
    }

    /// Interpolates a hiera.yaml string: scope expressions only. Errors get
    /// the config file suffix.
    pub(super) fn interpolate_config(&mut self, config: &HieraConfig, s: &str) -> Result<String> {
        if !interpolate::has_token(s) {
            return Ok(s.to_string());
        }
        match interpolate::interpolate(&Value::string(s), self, false) {
            Ok(Value::String(s)) => Ok(s.to_string()),
            Ok(other) => {
                let mut out = String::new();
                crate::ruby::to_s(&other, &mut out);
                Ok(out)
            }
            Err(e) if e.kind == ErrorKind::Interpolation && e.file.is_none() => {
                match &config.path {
                    Some(p) => Err(Error::config(e.message, p, None)),
                    None => Err(e),
                }
            }
            Err(e) => Err(e),
        }
    }
}

impl Invocation<'_> {
    pub(super) fn lookup_default_in_module(&mut self, lk: &LookupKey) -> Result<Found> {
        let Some(module) = lk.module() else {
            return Ok(None);
        };
        let Some(config) = self.layer_config(Layer::Module, Some(module))? else {
            return Ok(None);
        };
        if config.default_hierarchy.is_none() {
            return Ok(None);
        }
        let opts = validate_lookup_options(
            self.options_lookup(Layer::Module, Some(module), true)?,
            Some(module),
        )?;
        let opts = opts
            .map(|o| compile_patterns(self.hiera(), &o))
            .transpose()?;
        let options = match &opts {
            Some(o) => o.for_key(&lk.root)?,
            None => None,
        };
        let merge = options.and_then(|v| v.get("merge")).cloned();
        let strategy = match merge {
            Some(m) => Strategy::from_value(&m)?,
            None => Strategy::default(),
        };
        self.layer_lookup(Layer::Module, lk, &lk.key, Some(module), &strategy, true)
    }
}
