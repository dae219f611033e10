//! The Hiera 5 lookup engine: layers (global, environment, module), the
//! hierarchy search, lookup_options, merges, defaults and interpolation.
//!
//! [`Hiera`] is an opened configuration: immutable apart from its internal
//! caches, `Send + Sync`, shared by threads. A [`Session`] binds it to one
//! scope (the node's variables); lookups go through a session.

use crate::config::{pathname_join, Entry, FunctionKind, HieraConfig, LayerKind, LocationSpec};
use crate::data::{DataFormat, FileCache};
use crate::error::{Error, ErrorKind, Result};
use crate::explain::Explainer;
use crate::interpolate::{self, Resolver};
use crate::key::{dig, split_key, LookupKey, Segment};
use crate::merge::{Strategy, StrategyKind};
use crate::value::{Key, Map, Value};
use regex::Regex;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// How undefined variables in interpolation are treated (Puppet's `strict`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strict {
    /// Silently empty.
    Off,
    /// Empty, with a warning (Puppet 7's default).
    #[default]
    Warning,
    /// An error.
    Error,
}

/// What [`Hiera::open`] needs: where the configuration lives.
#[derive(Clone, Debug)]
pub struct Options {
    /// The global hiera.yaml (need not exist: Puppet's default config is
    /// then used, rooted at this file's directory).
    pub hiera_config: PathBuf,
    /// The directory holding environments.
    pub environmentpath: PathBuf,
    /// The environment name.
    pub environment: String,
    /// Undefined variable handling.
    pub strict: Strict,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hiera_config: PathBuf::from("hiera.yaml"),
            environmentpath: PathBuf::from("environments"),
            environment: "production".into(),
            strict: Strict::Warning,
        }
    }
}

/// An opened Hiera configuration. Thread-safe; share it with `Arc`.
pub struct Hiera {
    options: Options,
    env_dir: Option<PathBuf>,
    cache: FileCache,
    /// lookup_options patterns compiled once (a `Regex` clone is cheap).
    regexes: Mutex<HashMap<String, Regex>>,
}

impl Hiera {
    /// Opens a configuration. Nothing is read yet: configuration and data
    /// errors surface at lookup time, as in Puppet, and only for the
    /// lookups they affect.
    pub fn open(mut options: Options) -> Result<Hiera> {
        let absolute = |p: &Path| std::path::absolute(p).map_err(|e| Error::new(ErrorKind::InvalidArgument, format!("{}: {e}", p.display())));
        options.hiera_config = absolute(&options.hiera_config)?;
        options.environmentpath = absolute(&options.environmentpath)?;
        if options.environment.is_empty() || options.environment.contains('/') {
            return Err(Error::new(ErrorKind::InvalidArgument, format!("Invalid environment name '{}'", options.environment)));
        }
        let env_dir = options.environmentpath.join(&options.environment);
        let env_dir = if env_dir.is_dir() { Some(env_dir) } else { None };
        Ok(Hiera { options, env_dir, cache: FileCache::default(), regexes: Mutex::new(HashMap::new()) })
    }

    /// A lookup_options pattern, compiled once per configuration.
    fn regex(&self, src: &str) -> Result<Regex> {
        if let Some(re) = self.regexes.lock().unwrap_or_else(|p| p.into_inner()).get(src) {
            return Ok(re.clone());
        }
        let re = crate::rubyre::compile(src)?;
        self.regexes.lock().unwrap_or_else(|p| p.into_inner()).insert(src.to_string(), re.clone());
        Ok(re)
    }

    /// The options this configuration was opened with.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The shared file cache.
    pub fn cache(&self) -> &FileCache {
        &self.cache
    }

    fn global_config(&self) -> Result<Arc<HieraConfig>> {
        let path = &self.options.hiera_config;
        if path.exists() {
            match self.cache.config(path, LayerKind::Global)? {
                Some(c) => Ok(c),
                None => unreachable!("a global config is never ignored"),
            }
        } else {
            let root = path.parent().map(Path::to_path_buf).unwrap_or_default();
            Ok(Arc::new(HieraConfig::implicit_default(&root)))
        }
    }

    fn env_config(&self) -> Result<Option<Arc<HieraConfig>>> {
        let Some(dir) = &self.env_dir else { return Ok(None) };
        let path = dir.join("hiera.yaml");
        if !path.exists() {
            return Ok(None);
        }
        self.cache.config(&path, LayerKind::Environment)
    }

    /// The module directory, if the module exists in the environment.
    fn module_dir(&self, name: &str) -> Option<PathBuf> {
        let dir = self.env_dir.as_ref()?.join("modules").join(name);
        if is_module_name(name) && dir.is_dir() {
            Some(dir)
        } else {
            None
        }
    }

    fn module_config(&self, name: &str) -> Result<Option<Arc<HieraConfig>>> {
        let Some(dir) = self.module_dir(name) else { return Ok(None) };
        let path = dir.join("hiera.yaml");
        if !path.exists() {
            return Ok(None);
        }
        self.cache.config(&path, LayerKind::Module)
    }
}

fn is_module_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some('a'..='z')) && chars.all(|c| matches!(c, 'a'..='z' | '0'..='9' | '_'))
}

/// One lookup call, as `lookup()` takes it.
#[derive(Clone, Debug, Default)]
pub struct LookupRequest {
    /// The names to try, in order; the first found wins.
    pub keys: Vec<String>,
    /// The merge: a strategy name or a hash with `strategy` and options.
    pub merge: Option<Value>,
    /// The default value (its presence matters: `Some(Nil)` is a default).
    pub default: Option<Value>,
    /// Values used when a name is not found (and for undefined variables).
    pub default_values_hash: Map,
    /// Values that win over any data (and over scope variables).
    pub override_values: Map,
}

impl LookupRequest {
    /// A request for one key without options.
    pub fn key(key: &str) -> LookupRequest {
        LookupRequest { keys: vec![key.to_string()], ..Default::default() }
    }
}

/// Merged lookup_options, split into literal keys and patterns.
#[derive(Clone, Debug, Default)]
struct CompiledOptions {
    literal: HashMap<String, Value>,
    patterns: Vec<(Regex, Value)>,
}

impl CompiledOptions {
    fn for_key(&self, root: &str) -> Option<&Value> {
        if let Some(v) = self.literal.get(root).filter(|v| !v.is_nil()) {
            return Some(v);
        }
        self.patterns.iter().find(|(re, _)| re.is_match(root)).map(|(_, v)| v)
    }
}

/// A scope bound to a [`Hiera`]: the node's variables and the caches that
/// depend only on them. `Send + Sync`: many threads may look up at once.
///
/// A session is what a catalog compilation is to Puppet: the first lookup
/// that needs a hiera.yaml, a resolved hierarchy, a data file or the merged
/// lookup_options reads it (through the shared file cache, which re-reads
/// changed files) and the session keeps it. Later lookups in the same
/// session see that snapshot; a new session sees files as they are then.
pub struct Session {
    hiera: Arc<Hiera>,
    scope: Map,
    options_cache: Mutex<HashMap<Option<String>, Option<Arc<CompiledOptions>>>>,
    hierarchy_cache: Mutex<HashMap<(usize, bool), Arc<ResolvedHierarchy>>>,
    global_config: OnceLock<Arc<HieraConfig>>,
    env_config: OnceLock<Option<Arc<HieraConfig>>>,
    module_configs: Mutex<HashMap<String, Option<Arc<HieraConfig>>>>,
    /// Finished lookups: key -> (merge, result). Correct because a session
    /// is a snapshot and its scope does not change.
    results: Mutex<HashMap<String, Vec<(Option<Value>, Found)>>>,
}

impl Session {
    /// A session for `scope`, the map of variables (facts, trusted, ...).
    pub fn new(hiera: Arc<Hiera>, scope: Map) -> Session {
        Session {
            hiera,
            scope,
            options_cache: Mutex::new(HashMap::new()),
            hierarchy_cache: Mutex::new(HashMap::new()),
            global_config: OnceLock::new(),
            env_config: OnceLock::new(),
            module_configs: Mutex::new(HashMap::new()),
            results: Mutex::new(HashMap::new()),
        }
    }

    /// The configuration this session looks up in.
    pub fn hiera(&self) -> &Arc<Hiera> {
        &self.hiera
    }

    /// The scope variables.
    pub fn scope(&self) -> &Map {
        &self.scope
    }

    /// Looks up a request: `Ok(Some(v))` found (or default), `Ok(None)` not found.
    pub fn lookup(&self, req: &LookupRequest) -> Result<Option<Value>> {
        check_merge_argument(req.merge.as_ref())?;
        let mut inv = Invocation::new(self, req);
        inv.lookup_names(&req.keys, req.merge.as_ref(), req.default.as_ref())
    }

    /// Like [`Session::lookup`], also returning the warnings Puppet would log
    /// (undefined variables under `strict = warning`).
    pub fn lookup_with_warnings(&self, req: &LookupRequest) -> (Result<Option<Value>>, Vec<String>) {
        if let Err(e) = check_merge_argument(req.merge.as_ref()) {
            return (Err(e), Vec::new());
        }
        let mut inv = Invocation::new(self, req);
        let r = inv.lookup_names(&req.keys, req.merge.as_ref(), req.default.as_ref());
        (r, inv.warnings)
    }

    /// Looks up one key with Puppet's defaults (first found, no default).
    pub fn lookup_key(&self, key: &str) -> Result<Option<Value>> {
        self.lookup(&LookupRequest::key(key))
    }
}

/// Which layer a search is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layer {
    Global,
    Environment,
    Module,
}

/// A resolved data location.
#[derive(Clone, Debug)]
enum Location {
    /// The function is called without a path.
    Nowhere,
    /// A file path and the declaration it came from. Whether the file
    /// exists is checked at each lookup (through the file cache).
    Path(PathBuf, String),
    /// A URI (always "exists").
    Uri(String),
}

/// What one location gave.
enum LocationOutcome {
    /// The file does not exist.
    Missing,
    /// The file has no such key.
    NoKey,
    /// The key's (interpolated) value.
    Found(Value),
}

/// A hierarchy entry resolved for the current scope.
struct ResolvedEntry {
    /// The index of the entry in its hierarchy.
    index: usize,
    locations: Vec<Location>,
    /// Each location's data hash, once read in this session (None inside:
    /// the file does not exist).
    data: Vec<OnceLock<Option<Arc<Map>>>>,
    /// The interpolated `options`, when there are any.
    options: Option<Value>,
}

/// A hierarchy resolved for a session's scope: interpolated datadirs,
/// paths, globs, URIs and mapped paths. Shared by the session's lookups.
struct ResolvedHierarchy {
    /// The configuration it was resolved from: held so that its address,
    /// the cache key, stays unique while the entry lives.
    _config: Arc<HieraConfig>,
    entries: Vec<ResolvedEntry>,
}

/// The state of one top-level lookup: the recursion guard and the request.
struct Invocation<'s> {
    session: &'s Session,
    req: &'s LookupRequest,
    stack: Vec<String>,
    /// Local variable bindings (the variable of `mapped_paths`).
    locals: Vec<(String, Value)>,
    /// The explanation being built, when one was asked for.
    explain: Option<Explainer>,
    /// lookup_options layers being gathered now: a nested lookup made while
    /// they are gathered sees them as absent, as in Puppet.
    options_busy: Vec<(Layer, Option<String>)>,
    /// Warnings (Puppet's `strict = warning` messages), each once.
    warnings: Vec<String>,
}

type Found = Option<Value>;

impl<'s> Invocation<'s> {
    fn new(session: &'s Session, req: &'s LookupRequest) -> Invocation<'s> {
        Invocation {
            session,
            req,
            stack: Vec::new(),
            locals: Vec::new(),
            explain: None,
            options_busy: Vec::new(),
            warnings: Vec::new(),
        }
    }

    fn hiera(&self) -> &'s Hiera {
        &self.session.hiera
    }

    fn warn(&mut self, msg: String) {
        if !self.warnings.contains(&msg) {
            self.warnings.push(msg);
        }
    }

    fn ex_line(&mut self, f: impl FnOnce() -> String) {
        if let Some(ex) = &mut self.explain {
            ex.line(f());
        }
    }

    fn ex_push(&mut self, f: impl FnOnce() -> String) {
        if let Some(ex) = &mut self.explain {
            ex.push(f());
        }
    }

    fn ex_pop(&mut self) {
        if let Some(ex) = &mut self.explain {
            ex.pop();
        }
    }

    fn ex_value(&mut self, prefix: impl FnOnce() -> String, v: &Value) {
        if let Some(ex) = &mut self.explain {
            ex.value(prefix(), v);
        }
    }

    /// Puppet's `MergeStrategy#lookup` over `n` candidates, explained: a
    /// level with several candidates and a real merge gets a merge node.
    fn merged(&mut self, strategy: &Strategy, n: usize, mut f: impl FnMut(&mut Self, usize) -> Result<Found>) -> Result<Found> {
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
    fn lookup_names(&mut self, names: &[String], merge: Option<&Value>, default: Option<&Value>) -> Result<Found> {
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
    fn lookup_key(&mut self, key: &str, merge: Option<&Value>) -> Result<Found> {
        let cacheable = self.explain.is_none()
            && self.options_busy.is_empty()
            && self.locals.is_empty()
            && self.req.override_values.is_empty()
            && self.req.default_values_hash.is_empty();
        if !cacheable {
            return self.lookup_key_uncached(key, merge);
        }
        {
            let results = self.session.results.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(found) = results.get(key).and_then(|v| v.iter().find(|(m, _)| m.as_ref() == merge)) {
                return Ok(found.1.clone());
            }
        }
        let found = self.lookup_key_uncached(key, merge)?;
        // lookup_options gathered during this lookup may have been partial.
        if self.options_busy.is_empty() {
            let mut results = self.session.results.lock().unwrap_or_else(|p| p.into_inner());
            let slot = results.entry(key.to_string()).or_default();
            if !slot.iter().any(|(m, _)| m.as_ref() == merge) {
                slot.push((merge.cloned(), found.clone()));
            }
        }
        Ok(found)
    }

    fn lookup_key_uncached(&mut self, key: &str, merge: Option<&Value>) -> Result<Found> {
        if key == "lookup_options" || key.starts_with("lookup_options.") {
            return Ok(None);
        }
        let lk = LookupKey::parse(key)?;
        let options = self.lookup_options_for(&lk)?;
        let merge_from_options = merge.is_none() && options.as_ref().is_some_and(|o| o.contains_key(&Key("merge")));
        if merge_from_options {
            self.ex_line(|| "Using merge options from \"lookup_options\" hash".to_string());
        }
        self.ex_push(|| format!("Searching for \"{key}\""));
        let r = self.lookup_parsed(&lk, merge, options);
        self.ex_pop();
        r
    }

    fn lookup_parsed(&mut self, lk: &LookupKey, merge: Option<&Value>, options: Option<Map>) -> Result<Found> {
        let key = lk.key.as_str();
        let merge_value = match merge {
            Some(m) => Some(m.clone()),
            None => options.as_ref().and_then(|o| o.get(&Key("merge")).cloned()),
        };
        let found = match self.do_lookup(lk, merge_value.as_ref())? {
            Some(v) => Some(v),
            None => match self.lookup_default_in_module(lk)? {
                Some(v) => lk.dig(v)?,
                None => None,
            },
        };
        match (found, options.as_ref().and_then(|o| o.get(&Key("convert_to")))) {
            (Some(v), Some(conv)) => Ok(Some(crate::convert::convert_to(key, v, conv)?)),
            (found, _) => Ok(found),
        }
    }

    fn do_lookup(&mut self, lk: &LookupKey, merge: Option<&Value>) -> Result<Found> {
        let strategy = match merge {
            Some(m) => Strategy::from_value(m)?,
            None => Strategy::default(),
        };
        const LAYERS: [Layer; 3] = [Layer::Global, Layer::Environment, Layer::Module];
        let found = self.merged(&strategy, 3, |inv, i| inv.layer_lookup(LAYERS[i], lk, &lk.key, lk.module.as_deref(), &strategy, false))?;
        match found {
            Some(v) if !lk.segments.is_empty() && self.explain.is_some() => self.explained_dig(&lk.key, &lk.segments, v),
            Some(v) => lk.dig(v),
            None => Ok(None),
        }
    }

    /// The configuration of a layer, read once per session (errors are not
    /// kept: they are met again at the next lookup, as in Puppet).
    fn layer_config(&self, layer: Layer, module: Option<&str>) -> Result<Option<Arc<HieraConfig>>> {
        let session = self.session;
        match layer {
            Layer::Global => {
                if let Some(c) = session.global_config.get() {
                    return Ok(Some(Arc::clone(c)));
                }
                let c = self.hiera().global_config()?;
                Ok(Some(Arc::clone(session.global_config.get_or_init(|| c))))
            }
            Layer::Environment => {
                if let Some(c) = session.env_config.get() {
                    return Ok(c.clone());
                }
                let c = self.hiera().env_config()?;
                Ok(session.env_config.get_or_init(|| c).clone())
            }
            Layer::Module => {
                let Some(m) = module else { return Ok(None) };
                if let Some(c) = session.module_configs.lock().unwrap_or_else(|p| p.into_inner()).get(m) {
                    return Ok(c.clone());
                }
                let c = self.hiera().module_config(m)?;
                session.module_configs.lock().unwrap_or_else(|p| p.into_inner()).insert(m.to_string(), c.clone());
                Ok(c)
            }
        }
    }

    /// A provider's `key_lookup`: recursion check, then the hierarchy.
    fn layer_lookup(
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
                if layer == Layer::Module {
                    if let Some(m) = module {
                        let exists = self.hiera().module_dir(m).is_some();
                        // A node of its own: it counts as a merge branch.
                        self.ex_push(|| if exists {
                            format!("Module data provider for module \"{m}\" not found")
                        } else {
                            format!("Module \"{m}\" not found")
                        });
                        self.ex_pop();
                    }
                }
                return Ok(None);
            };
            if self.stack.iter().any(|n| n == &lk.key) {
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
            let r = self.hierarchy_lookup(&config, lk, strategy, default_hierarchy);
            self.stack.pop();
            if matches!(r, Ok(None)) && config.hierarchy.is_empty() {
                self.ex_line(|| format!("No such key: \"{}\"", lk.key));
            }
            self.ex_pop();
            r
        })();
        match result {
            // Puppet prefixes LookupErrors without an issue code (parse, type and
            // recursion errors); issue-coded config and interpolation errors and
            // Ruby errors from the deep merge pass through unchanged.
            Err(e) if layer == Layer::Global && !matches!(e.kind, ErrorKind::Config | ErrorKind::Interpolation | ErrorKind::Merge) => {
                Err(e.prefixed(top_key))
            }
            other => other,
        }
    }

    fn recursion_error(&self) -> Error {
        Error::new(ErrorKind::Recursion, format!("Recursive lookup detected in [{}]", self.stack.join(", ")))
    }

    /// The hierarchy of `config` resolved for this session's scope: from the
    /// session's cache when the request cannot change variables (no
    /// override or default values), else resolved afresh.
    fn resolved_hierarchy(&mut self, config: &Arc<HieraConfig>, default_hierarchy: bool) -> Result<Arc<ResolvedHierarchy>> {
        let cacheable = config.path.is_some()
            && self.req.override_values.is_empty()
            && self.req.default_values_hash.is_empty()
            && self.locals.is_empty();
        let cache_key = (Arc::as_ptr(config) as usize, default_hierarchy);
        if cacheable {
            let cache = self.session.hierarchy_cache.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(r) = cache.get(&cache_key) {
                return Ok(Arc::clone(r));
            }
        }
        let entries = if default_hierarchy {
            config.default_hierarchy.as_deref().unwrap_or(&[])
        } else {
            &config.hierarchy
        };
        // Puppet does not explain the interpolation of hiera.yaml strings.
        let explain = self.explain.take();
        let entries = self.resolve_entries(config, entries);
        self.explain = explain;
        let resolved = Arc::new(ResolvedHierarchy { _config: Arc::clone(config), entries: entries? });
        if cacheable {
            // The entry keeps its config alive, so the address stays unique.
            let mut cache = self.session.hierarchy_cache.lock().unwrap_or_else(|p| p.into_inner());
            cache.insert(cache_key, Arc::clone(&resolved));
        }
        Ok(resolved)
    }

    fn hierarchy_lookup(
        &mut self,
        config: &Arc<HieraConfig>,
        lk: &LookupKey,
        strategy: &Strategy,
        default_hierarchy: bool,
    ) -> Result<Found> {
        if default_hierarchy && config.default_hierarchy.is_none() {
            return Ok(None);
        }
        let resolved = self.resolved_hierarchy(config, default_hierarchy)?;
        let entries = if default_hierarchy { config.default_hierarchy.as_deref().unwrap_or(&[]) } else { &config.hierarchy };
        if resolved.entries.is_empty() {
            return Ok(None);
        }
        self.merged(strategy, resolved.entries.len(), |this, i| {
            let re = &resolved.entries[i];
            let entry = &entries[re.index];
            this.ex_push(|| format!("Hierarchy entry \"{}\"", entry.name));
            let r = this.merged(strategy, re.locations.len(), |this, j| {
                let loc = &re.locations[j];
                match loc {
                    Location::Path(p, orig) => {
                        this.ex_push(|| format!("Path \"{}\"", p.display()));
                        this.ex_line(|| format!("Original path: \"{orig}\""));
                    }
                    Location::Uri(u) => this.ex_push(|| format!("URI \"{u}\"")),
                    Location::Nowhere => this.ex_push(String::new),
                }
                let r = if re.options.is_some() && takes_only_a_path(&entry.function_name) {
                    // The built-in functions accept no options but `path`.
                    Err(Error::new(
                        ErrorKind::Config,
                        format!(
                            "'{}' one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this data_hash function",
                            entry.function_name
                        ),
                    ))
                } else {
                    this.location_lookup(config, entry, loc, re.options.as_ref(), &re.data[j], &lk.root)
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
                this.ex_pop();
                r
            });
            this.ex_pop();
            r
        })
    }

    fn location_lookup(
        &mut self,
        config: &HieraConfig,
        entry: &Entry,
        location: &Location,
        options: Option<&Value>,
        slot: &OnceLock<Option<Arc<Map>>>,
        root: &str,
    ) -> Result<LocationOutcome> {
        let path = match location {
            Location::Path(p, _) => p,
            Location::Uri(_) | Location::Nowhere => {
                return Err(self.unsupported_function(config, entry));
            }
        };
        let format = match builtin_format(entry.function_kind, &entry.function_name, options, path) {
            Some(f) => f,
            // A missing file never reaches the function (Puppet checks
            // existence first).
            None if !crate::data::exists(path) => return Ok(LocationOutcome::Missing),
            None => return Err(self.unsupported_function(config, entry)),
        };
        let data = match slot.get() {
            Some(d) => d.clone(),
            None => {
                let d = self.hiera().cache.data(path, format)?;
                slot.get_or_init(|| d).clone()
            }
        };
        let Some(data) = data else { return Ok(LocationOutcome::Missing) };
        let Some(value) = data.get(&Key(root)) else { return Ok(LocationOutcome::NoKey) };
        if !crate::ptype::is_rich_data(value) {
            return Err(Error {
                kind: ErrorKind::Type,
                message: format!(
                    "Value for key '{}', in hash returned from data_hash function '{}', when using location '{}', has wrong type, expects Puppet::LookupValue, got {}",
                    root,
                    entry.function_name,
                    path.display(),
                    crate::ptype::infer_detailed(value, true)
                ),
                file: Some(path.clone()),
                line: None,
            });
        }
        let value = value.clone();
        Ok(LocationOutcome::Found(interpolate::interpolate(&value, self, true)?))
    }

    /// The error for a location the entry's function cannot serve: the
    /// built-in functions take only a `path`; other functions are unknown.
    fn unsupported_function(&self, config: &HieraConfig, entry: &Entry) -> Error {
        let builtin = takes_only_a_path(&entry.function_name);
        if builtin && entry.function_kind == FunctionKind::DataHash {
            return Error::new(
                ErrorKind::Config,
                format!(
                    "'{}' one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this data_hash function",
                    entry.function_name
                ),
            );
        }
        let msg = format!("Unable to find '{}' function named '{}'", entry.function_kind.key(), entry.function_name);
        match &config.path {
            Some(p) => Error::config(msg, p, None),
            None => Error::new(ErrorKind::Config, msg),
        }
    }

    /// `create_configured_data_providers`: interpolates datadirs, paths,
    /// globs, uris and mapped paths for the current scope.
    fn resolve_entries(&mut self, config: &HieraConfig, entries: &[Entry]) -> Result<Vec<ResolvedEntry>> {
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
                        if implicit && !crate::data::exists(&path) {
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
                        let found = crate::glob::expand(&pattern.to_string_lossy())
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
                            return Err(Error::new(ErrorKind::Config, format!("bad URI(is not URI?): {s:?}")));
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
                        Value::Hash(h) => h.iter().map(|(k, v)| Value::array(vec![k.clone(), v.clone()])).collect(),
                        other => vec![other.clone()],
                    };
                    let mut v = Vec::with_capacity(elements.len());
                    for el in elements {
                        let s = self.with_local(var, el, |inv| inv.interpolate_config(config, template))?;
                        v.push(Location::Path(pathname_join(&datadir, &s), template.clone()));
                    }
                    v
                }
            };
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
            out.push(ResolvedEntry { index, locations, data, options });
        }
        Ok(out)
    }

    /// Interpolates a hiera.yaml string: scope expressions only. Errors get
    /// the config file suffix.
    fn interpolate_config(&mut self, config: &HieraConfig, s: &str) -> Result<String> {
        if !s.contains("%{") {
            return Ok(s.to_string());
        }
        match interpolate::interpolate(&Value::string(s), self, false) {
            Ok(Value::String(s)) => Ok(s.to_string()),
            Ok(other) => {
                let mut out = String::new();
                crate::render::ruby_to_s(&other, &mut out);
                Ok(out)
            }
            Err(e) if e.kind == ErrorKind::Interpolation && e.file.is_none() => match &config.path {
                Some(p) => Err(Error::config(e.message, p, None)),
                None => Err(e),
            },
            Err(e) => Err(e),
        }
    }

    fn with_local<T>(&mut self, var: &str, value: Value, f: impl FnOnce(&mut Self) -> T) -> T {
        self.locals.push((var.to_string(), value));
        let r = f(self);
        self.locals.pop();
        r
    }

    /// A scope variable: overrides, local bindings, scope, default values.
    fn variable(&self, name: &str) -> Option<Value> {
        let name = name.strip_prefix("::").unwrap_or(name);
        if let Some(v) = self.req.override_values.get(&Key(name)) {
            return Some(v.clone());
        }
        if let Some((_, v)) = self.locals.iter().rev().find(|(n, _)| n == name) {
            return Some(v.clone());
        }
        if let Some(v) = self.session.scope.get(&Key(name)) {
            return Some(v.clone());
        }
        if let Some(setting) = name.strip_prefix("settings::") {
            let o = &self.session.hiera.options;
            let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()).to_string_lossy().to_string();
            match setting {
                "hiera_config" => return Some(Value::from(abs(&o.hiera_config))),
                "environmentpath" => return Some(Value::from(abs(&o.environmentpath))),
                "environment" => return Some(Value::from(o.environment.as_str())),
                _ => {}
            }
        }
        self.req.default_values_hash.get(&Key(name)).cloned()
    }

    /// Evaluates a scope expression (`facts.os.family`); undefined is nil.
    fn scope_expression(&mut self, expr: &str, subject: &str) -> Result<Value> {
        let segments = split_key(expr)
            .map_err(|_| Error::new(ErrorKind::Lookup, format!("Syntax error in string: {subject}")))?;
        let root = segments[0].to_string();
        self.ex_push(|| "Global Scope".to_string());
        let found = self.variable(&root);
        if let Some(v) = &found {
            self.ex_value(|| format!("Found key: \"{root}\" value: "), v);
        }
        self.ex_pop();
        let value = match found {
            Some(v) => v,
            None => {
                match self.session.hiera.options.strict {
                    Strict::Error => return Err(Error::new(ErrorKind::Lookup, format!("Undefined variable '{root}'"))),
                    Strict::Warning => self.warn(format!("Undefined variable '{root}'; ")),
                    Strict::Off => {}
                }
                Value::Nil
            }
        };
        if value.is_nil() || segments.len() == 1 {
            return Ok(value);
        }
        if self.explain.is_some() {
            return Ok(self.explained_dig(expr, &segments[1..], value)?.unwrap_or(Value::Nil));
        }
        Ok(dig(expr, &segments[1..], value)?.unwrap_or(Value::Nil))
    }

    /// Digs `segments` into `value`, explaining each step as Puppet does
    /// (`Sub key: "a.b"`, then a found or not-found line per segment).
    fn explained_dig(&mut self, key: &str, segments: &[Segment], value: Value) -> Result<Found> {
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

    fn lookup_options_for(&mut self, lk: &LookupKey) -> Result<Option<Map>> {
        let module = lk.module.clone();
        let cached = {
            let cache = self.session.options_cache.lock().unwrap_or_else(|p| p.into_inner());
            cache.get(&module).cloned()
        };
        let compiled = match cached {
            Some(c) => c,
            None => {
                self.ex_push(|| "Searching for \"lookup_options\"".to_string());
                let c = self.retrieve_lookup_options(module.as_deref());
                self.ex_pop();
                let c = c?.map(Arc::new);
                // Options gathered while others are being gathered are partial.
                if self.options_busy.is_empty() {
                    let mut cache = self.session.options_cache.lock().unwrap_or_else(|p| p.into_inner());
                    cache.insert(module.clone(), c.clone());
                }
                c
            }
        };
        Ok(compiled.and_then(|c| c.for_key(&lk.root).and_then(|v| v.as_hash().cloned())))
    }

    fn options_lookup(&mut self, layer: Layer, module: Option<&str>, default_hierarchy: bool) -> Result<Found> {
        let lk = LookupKey {
            key: "lookup_options".into(),
            root: "lookup_options".into(),
            segments: Vec::new(),
            module: module.map(str::to_string),
        };
        let hash = Strategy::new(StrategyKind::Hash);
        let busy = (layer, module.map(str::to_string));
        if !default_hierarchy && self.options_busy.contains(&busy) {
            return Ok(None);
        }
        self.options_busy.push(busy);
        let r = self.layer_lookup(layer, &lk, "lookup_options", module, &hash, default_hierarchy);
        self.options_busy.pop();
        r
    }

    fn retrieve_lookup_options(&mut self, module: Option<&str>) -> Result<Option<CompiledOptions>> {
        let hash = Strategy::new(StrategyKind::Hash);
        let global = validate_lookup_options(self.options_lookup(Layer::Global, None, false)?, None)?;
        let env_only = validate_lookup_options(self.options_lookup(Layer::Environment, None, false)?, None)?;
        let mut opts = match (global, env_only) {
            (None, e) => e,
            (g, None) => g,
            (Some(g), Some(e)) => Some(hash.merge(g, &e)?),
        };
        if let Some(m) = module {
            let module_opts = validate_lookup_options(self.options_lookup(Layer::Module, Some(m), false)?, Some(m))?;
            opts = match (opts, module_opts) {
                (None, mo) => mo,
                (o, None) => o,
                (Some(o), Some(mo)) => {
                    let merged = hash.merge(o.clone(), &mo)?;
                    if let Some(ex) = &mut self.explain {
                        ex.push_merge("hash", &Map::new());
                        for (name, v) in [("Global and Environment".to_string(), &o), (format!("Module {m}"), &mo)] {
                            ex.push(name);
                            ex.value("Found key: \"lookup_options\" value: ".into(), v);
                            ex.pop();
                        }
                        ex.result(&merged);
                        ex.pop();
                    }
                    Some(merged)
                }
            };
        }
        opts.map(|o| compile_patterns(self.hiera(), &o)).transpose()
    }

    fn lookup_default_in_module(&mut self, lk: &LookupKey) -> Result<Found> {
        let Some(module) = lk.module.as_deref() else { return Ok(None) };
        let Some(config) = self.layer_config(Layer::Module, Some(module))? else { return Ok(None) };
        if config.default_hierarchy.is_none() {
            return Ok(None);
        }
        let opts = validate_lookup_options(self.options_lookup(Layer::Module, Some(module), true)?, Some(module))?;
        let opts = opts.map(|o| compile_patterns(self.hiera(), &o)).transpose()?;
        let merge = opts.as_ref().and_then(|o| o.for_key(&lk.root)).and_then(|v| v.get("merge")).cloned();
        let strategy = match merge {
            Some(m) => Strategy::from_value(&m)?,
            None => Strategy::default(),
        };
        self.layer_lookup(Layer::Module, lk, &lk.key, Some(module), &strategy, true)
    }
}

fn validate_lookup_options(found: Found, module: Option<&str>) -> Result<Option<Value>> {
    let Some(v) = found else { return Ok(None) };
    match &v {
        Value::Nil => Ok(None),
        Value::Hash(h) => {
            if let Some(m) = module {
                let pfx = format!("{m}::");
                for k in h.keys() {
                    let k = k.as_str().unwrap_or("");
                    if let Some(pat) = k.strip_prefix('^') {
                        if !pat.starts_with(&pfx) {
                            return Err(Error::new(
                                ErrorKind::Lookup,
                                format!("all lookup_options patterns must match a key starting with module name '{m}'"),
                            ));
                        }
                    } else if !k.starts_with(&pfx) {
                        return Err(Error::new(ErrorKind::Lookup, format!("all lookup_options keys must start with module name '{m}'")));
                    }
                }
            }
            Ok(Some(v))
        }
        _ => Err(Error::new(ErrorKind::Lookup, "value of lookup_options must be a hash")),
    }
}

fn compile_patterns(hiera: &Hiera, opts: &Value) -> Result<CompiledOptions> {
    let mut c = CompiledOptions::default();
    if let Some(h) = opts.as_hash() {
        for (k, v) in h.iter() {
            let Some(key) = k.as_str() else { continue };
            if key.starts_with('^') {
                let re = hiera.regex(key)?;
                c.patterns.push((re, v.clone()));
            } else {
                c.literal.insert(key.to_string(), v.clone());
            }
        }
    }
    Ok(c)
}

impl Resolver for Invocation<'_> {
    fn enter(&mut self, subject: &str) {
        self.ex_push(|| format!("Interpolation on \"{subject}\""));
    }

    fn leave(&mut self) {
        self.ex_pop();
    }

    fn scope(&mut self, expr: &str, subject: &str) -> Result<Value> {
        self.scope_expression(expr, subject)
    }

    fn lookup(&mut self, key: &str) -> Result<Value> {
        let names = [key.to_string()];
        Ok(self.lookup_names(&names, None, Some(&Value::from("")))?.unwrap_or_default())
    }

    fn check(&mut self, name: String, f: &mut dyn FnMut(&mut Self) -> Result<Value>) -> Result<Value> {
        if self.stack.contains(&name) {
            return Err(self.recursion_error());
        }
        self.stack.push(name);
        let r = f(self);
        self.stack.pop();
        r
    }
}

/// The `merge` argument of `lookup()` is a `Variant[String[1], Hash[String,
/// Scalar]]` (or absent).
fn check_merge_argument(merge: Option<&Value>) -> Result<()> {
    let ok = match merge {
        None | Some(Value::Nil) => true,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Hash(h)) => h.iter().all(|(k, v)| matches!(k, Value::String(_)) && crate::ptype::is_scalar(v)),
        Some(_) => false,
    };
    if ok {
        return Ok(());
    }
    let got = crate::ptype::infer_type(merge.unwrap_or(&Value::Nil));
    Err(Error::new(
        ErrorKind::InvalidArgument,
        format!("The function 'lookup' was called with arguments it does not accept: 'merge' expects a MergeType = Variant[String[1], Hash[String, Scalar]] value, got {got}"),
    ))
}

/// The `data_hash` functions that take nothing but a `path` (Puppet's
/// built-in `yaml_data` and `json_data`, and the libhiera gem's drop-in
/// `libhiera::yaml_data` and `libhiera::json_data`).
fn takes_only_a_path(function_name: &str) -> bool {
    matches!(function_name, "yaml_data" | "json_data" | "libhiera::yaml_data" | "libhiera::json_data")
}

/// The data format of a `data_hash` function libhiera reads itself:
/// Puppet's `yaml_data` and `json_data`, the libhiera gem's
/// `libhiera::yaml_data` and `libhiera::json_data` (the same functions,
/// read through libhiera when Puppet calls them), and `libhiera::data_hash`
/// (the level's `format` option, `yaml` or `json`, else by the file's
/// extension: `.json` is JSON, anything else YAML). `None` for other
/// functions.
fn builtin_format(kind: FunctionKind, name: &str, options: Option<&Value>, path: &Path) -> Option<DataFormat> {
    if kind != FunctionKind::DataHash {
        return None;
    }
    match name {
        "yaml_data" | "libhiera::yaml_data" => Some(DataFormat::Yaml),
        "json_data" | "libhiera::json_data" => Some(DataFormat::Json),
        "libhiera::data_hash" => {
            let options = options.and_then(Value::as_hash);
            // The function takes `format` and nothing else.
            if options.is_some_and(|o| o.keys().any(|k| k.as_str() != Some("format"))) {
                return None;
            }
            let format = options.and_then(|o| o.get(&Value::from("format"))).and_then(Value::as_str);
            match format {
                Some("json") => Some(DataFormat::Json),
                Some("yaml") => Some(DataFormat::Yaml),
                Some(_) => None,
                None if path.extension().is_some_and(|e| e == "json") => Some(DataFormat::Json),
                None => Some(DataFormat::Yaml),
            }
        }
        _ => None,
    }
}

/// Puppet's message when `lookup()` finds nothing and has no default.
pub fn not_found_message(names: &[String]) -> String {
    if names.len() == 1 {
        format!("Function lookup() did not find a value for the name '{}'", names[0])
    } else {
        let list: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
        format!("Function lookup() did not find a value for any of the names [{}]", list.join(", "))
    }
}

/// Digs `segments` into a value (exposed for the CLI and tests).
pub fn dig_value(key: &str, segments: &[Segment], v: Value) -> Result<Option<Value>> {
    dig(key, segments, v)
}

impl Session {
    /// Looks up a request and explains the search, as `puppet lookup
    /// --explain` does (a first version: layers, entries, paths, outcomes).
    pub fn explain(&self, req: &LookupRequest) -> (Result<Option<Value>>, String) {
        if let Err(e) = check_merge_argument(req.merge.as_ref()) {
            let text = format!("{}\n", e.message);
            return (Err(e), text);
        }
        let mut inv = Invocation::new(self, req);
        inv.explain = Some(Explainer::default());
        let r = inv.lookup_names(&req.keys, req.merge.as_ref(), req.default.as_ref());
        let mut ex = inv.explain.take().unwrap_or_default();
        match &r {
            Err(e) => ex.line(e.message.clone()),
            Ok(None) => ex.line(not_found_message(&req.keys)),
            Ok(Some(_)) => {}
        }
        (r, ex.render())
    }
}
