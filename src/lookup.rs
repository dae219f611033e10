//! The Hiera 5 lookup engine: layers (global, environment, module), the
//! hierarchy search, lookup_options, merges, defaults and interpolation.
//!
//! [`Hiera`] is an opened configuration: immutable apart from its internal
//! caches, `Send + Sync`, shared by threads. A [`Session`] binds it to one
//! scope (the node's variables); lookups go through a session.

use crate::config::{pathname_join, Entry, FunctionKind, HieraConfig, LayerKind, LocationSpec};
use crate::data::{DataFormat, FileCache};
use crate::error::{Error, ErrorKind, Result};
use crate::explain::{Explainer, Explanation};
use crate::host::{HostCall, HostRef, Warning};
use crate::interpolate::{self, Resolver};
use crate::key::{dig, split_key, LookupKey, Segment};
use crate::known_variables::{KnownVariables, UNREGISTERED};
use crate::limits::{self, Limits};
use crate::merge::{Strategy, StrategyKind};
use crate::modulepath::is_module_name;
use crate::rubyre::Pattern;
use crate::value::Str;
use crate::value::{Key, Map, Value};
use std::cell::{Cell, RefCell};
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
    /// Puppet's `strict` setting; `None` (the default): the default of the
    /// [`Options::puppet`] version (`warning` for 7, `error` for 8). See
    /// [`Options::strict`].
    pub strict: Option<Strict>,
    /// Which Puppet to answer as: 7 (the default: Puppet 7.23) or 8
    /// (OpenVox/Puppet 8: `strict` defaults to `error`, and an undefined
    /// variable in a v5 hierarchy's paths, globs, uris or mapped_paths only
    /// warns, as does one with an entry in `default_values_hash`). Any
    /// other number is refused by [`Hiera::open`].
    pub puppet: u8,
    /// How long a `stat` of a configuration or data file is trusted before
    /// the file is checked for changes again. Zero (the default): every
    /// new session checks every file it uses, as every Puppet compilation
    /// does. A production service may set a second or more, as Puppet
    /// Server's `environment_timeout` does.
    pub file_check_interval: std::time::Duration,
    /// Bounds on the work and memory of one lookup (see [`crate::limits`]).
    pub limits: crate::limits::Limits,
    /// Puppet's `basemodulepath`: the directories of modules shared by all
    /// environments, searched after the environment's own `modules` (or
    /// where the environment's `environment.conf` puts `$basemodulepath` in
    /// its `modulepath`). Empty by default: no base directories. Puppet's
    /// own default is `$codedir/modules:/usr/share/puppet/modules` on
    /// Debian (`puppet config print basemodulepath`), and
    /// `/etc/puppetlabs/code/modules:/opt/puppetlabs/puppet/modules` in the
    /// Puppet packages (AIO). Relative directories are taken from the working
    /// directory when the configuration is opened.
    pub basemodulepath: Vec<PathBuf>,
    /// The whole modulepath, when given (as Puppet's `--modulepath`, or the
    /// list a Puppet environment reports): the environment's
    /// `environment.conf` is then not read and `basemodulepath` not used.
    /// `None` (the default): the environment's modulepath as Puppet makes
    /// it (see [`crate::modulepath`]). Relative directories are taken from
    /// the working directory when the configuration is opened.
    pub modulepath: Option<Vec<PathBuf>>,
    /// Read only data and config files inside the directories the
    /// configuration names (the environment's directory, each modulepath
    /// directory, the global hiera.yaml itself, each datadir a hiera.yaml names),
    /// `..` and symbolic links resolved: for facts that cannot be trusted
    /// not to hold `../../etc`. A file outside is an error (kind `io`), not
    /// skipped. Off by default, as in Puppet. See [`crate::confine`].
    pub confine: bool,
    /// What the host runs for the engine: hierarchy functions libhiera
    /// does not have, and the warnings Puppet would log (see
    /// [`crate::host`]). Without one, such a function is an error ("Unable
    /// to find ... function") and warnings are only returned by
    /// [`Session::lookup_with_warnings`].
    pub host: Option<crate::host::HostRef>,
    /// Puppet's `codedir` setting: where a Hiera 3 global configuration
    /// without a `datadir` reads its data
    /// (`<codedir>/environments/<environment>/hieradata`). Default
    /// `/etc/puppet/code` (Debian's Puppet; `/etc/puppetlabs/code` for
    /// Puppet's own packages).
    pub codedir: PathBuf,
    /// Ask the host ([`Options::host`], [`crate::host::Host::variable`]) for
    /// the qualified variables (`a::b`) a session does not have: a catalog
    /// compile's class variables. Off by default (such a variable is then
    /// undefined).
    pub host_variables: bool,
    /// The working directory: relative `basemodulepath` and `modulepath`
    /// directories, and the relative key paths of eyaml levels
    /// (`pkcs7_private_key`, `pkcs7_public_key`: Puppet leaves them to the
    /// process's working directory), are taken from it. `None` (the
    /// default): the process's working directory when the configuration is
    /// opened.
    pub working_directory: Option<PathBuf>,
    /// Puppet's `environment_data_provider` setting (puppet.conf, deprecated):
    /// the Puppet 4 data provider of an environment whose environment.conf
    /// does not name one (see [`crate::data_provider`]). `None` (the
    /// default): none.
    pub environment_data_provider: Option<String>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hiera_config: PathBuf::from("hiera.yaml"),
            environmentpath: PathBuf::from("environments"),
            environment: "production".into(),
            strict: None,
            puppet: 7,
            file_check_interval: std::time::Duration::ZERO,
            limits: crate::limits::Limits::default(),
            basemodulepath: Vec::new(),
            modulepath: None,
            confine: false,
            host: None,
            codedir: PathBuf::from("/etc/puppet/code"),
            host_variables: false,
            working_directory: None,
            environment_data_provider: None,
        }
    }
}

impl Options {
    /// The `strict` in effect: the one given, else the default of the Puppet
    /// version (`warning` for Puppet 7, `error` for Puppet 8).
    pub fn strict(&self) -> Strict {
        self.strict.unwrap_or(if self.puppet >= 8 {
            Strict::Error
        } else {
            Strict::Warning
        })
    }
}

/// An opened Hiera configuration. Thread-safe; share it with `Arc`.
pub struct Hiera {
    options: Options,
    env_dir: Option<PathBuf>,
    /// The environment.conf's `environment_data_provider` (see
    /// [`crate::data_provider`]).
    env_data_provider: Option<crate::data_provider::Setting>,
    /// The effective modulepath (absolute directories, in order).
    modulepath: Vec<PathBuf>,
    cache: FileCache,
    /// Key indexes of resolved hierarchies, shared by sessions.
    indexes: IndexCache,
    /// lookup_options patterns compiled once (a `Regex` clone is cheap).
    /// (Shared behind an `Arc` so that every session uses the same pool of
    /// matching caches instead of warming its own.)
    regexes: Mutex<FastMap<String, Arc<Pattern>>>,
    /// Global and environment lookup_options merged, by the identity of the
    /// two hashes (held, so that their addresses stay unique).
    base_options: OptionsMemo<Option<Value>>,
    /// Compiled lookup_options by the identity of the base options and a
    /// module's options (held likewise): sessions share them.
    compiled_options: OptionsMemo<Option<Arc<CompiledOptions>>>,
    /// eyaml levels' keys, read once per configuration.
    eyaml: crate::eyaml::Eyaml,
}

/// A result computed from two lookup_options hashes, with the hashes.
type PinnedOptions<T> = (Option<Value>, Option<Value>, T);

/// Results computed from two lookup_options hashes, by their identities.
type OptionsMemo<T> = Mutex<FastMap<(usize, usize), PinnedOptions<T>>>;

/// The most entries kept in each options memo; past it the memo starts
/// over (changed files leave their old entries behind, and this bounds them).
const OPTIONS_MEMO_LIMIT: usize = 4096;

/// The identity of a lookup_options hash (its allocation); `None` for
/// anything that is not a hash.
fn options_identity(v: &Option<Value>) -> Option<usize> {
    match v {
        None => Some(0),
        Some(Value::Hash(h)) => Some(Arc::as_ptr(h) as *const u8 as usize),
        Some(_) => None,
    }
}

/// Looks up `key` in a memo, or computes, keeps and returns the value.
fn memoized<T: Clone>(
    memo: &OptionsMemo<T>,
    a: &Option<Value>,
    b: &Option<Value>,
    compute: impl FnOnce() -> Result<T>,
) -> Result<T> {
    let (Some(ia), Some(ib)) = (options_identity(a), options_identity(b)) else {
        return compute();
    };
    if let Some((_, _, v)) = memo
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(&(ia, ib))
    {
        return Ok(v.clone());
    }
    let v = compute()?;
    let mut memo = memo.lock().unwrap_or_else(|p| p.into_inner());
    if memo.len() >= OPTIONS_MEMO_LIMIT {
        memo.clear();
    }
    memo.insert((ia, ib), (a.clone(), b.clone(), v.clone()));
    Ok(v)
}

impl Hiera {
    /// Opens a configuration. Only the environment's `environment.conf` is
    /// read now (for its `modulepath` and its `environment_data_provider`,
    /// as Puppet reads it when it makes the environment; an error there
    /// fails the open): configuration and data
    /// errors surface at lookup time, as in Puppet, and only for the
    /// lookups they affect.
    pub fn open(mut options: Options) -> Result<Hiera> {
        let absolute = |p: &Path| {
            std::path::absolute(p).map_err(|e| {
                Error::new(ErrorKind::InvalidArgument, format!("{}: {e}", p.display()))
            })
        };
        options.hiera_config = absolute(&options.hiera_config)?;
        options.environmentpath = absolute(&options.environmentpath)?;
        if !matches!(options.puppet, 7 | 8) {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!("puppet must be 7 or 8, not {}", options.puppet),
            ));
        }
        if options.environment.is_empty() || options.environment.contains('/') {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!("Invalid environment name '{}'", options.environment),
            ));
        }
        let cwd = match &options.working_directory {
            Some(d) => absolute(d)?,
            None => crate::modulepath::working_directory()?,
        };
        let expand = |dirs: &mut Vec<PathBuf>| {
            dirs.iter_mut()
                .for_each(|d| *d = crate::modulepath::expand_path(d, &cwd))
        };
        expand(&mut options.basemodulepath);
        if let Some(dirs) = &mut options.modulepath {
            expand(dirs);
        }
        let env_dir = options.environmentpath.join(&options.environment);
        let env_dir = if env_dir.is_dir() {
            Some(env_dir)
        } else {
            None
        };
        let modulepath = crate::modulepath::resolve(
            options.modulepath.as_deref(),
            &options.basemodulepath,
            env_dir.as_deref(),
            &cwd,
        )?;
        let env_data_provider = match &env_dir {
            // environment.conf's, else Puppet's setting (its default).
            Some(dir) => crate::data_provider::environment_setting(dir)?.or_else(|| {
                options
                    .environment_data_provider
                    .as_deref()
                    .map(crate::data_provider::Setting::of_setting)
            }),
            None => None,
        };
        let cache = FileCache::for_options(&options, &modulepath);
        Ok(Hiera {
            options,
            env_dir,
            env_data_provider,
            modulepath,
            cache,
            indexes: IndexCache::default(),
            regexes: Mutex::new(FastMap::default()),
            base_options: Mutex::new(FastMap::default()),
            compiled_options: Mutex::new(FastMap::default()),
            eyaml: crate::eyaml::Eyaml::new(cwd),
        })
    }

    /// A lookup_options pattern, compiled once per configuration.
    fn regex(&self, src: &str) -> Result<Arc<Pattern>> {
        if let Some(re) = self
            .regexes
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(src)
        {
            return Ok(Arc::clone(re));
        }
        let re = Arc::new(Pattern::new(src)?);
        self.regexes
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(src.to_string(), re.clone());
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
        if self.cache.exists(path) {
            match self.cache.config(path, LayerKind::Global)? {
                Some(c) => Ok(c),
                None => unreachable!("a global config is never ignored"),
            }
        } else {
            let root = path.parent().map(Path::to_path_buf).unwrap_or_default();
            Ok(Arc::new(HieraConfig::implicit_default(&root)))
        }
    }

    /// The environment layer's configuration: its hiera.yaml, or what its
    /// `environment_data_provider` makes (see [`crate::data_provider`]).
    fn env_config(&self, warnings: &mut Vec<Warning>) -> Result<Option<Arc<HieraConfig>>> {
        let Some(dir) = &self.env_dir else {
            return Ok(None);
        };
        crate::data_provider::environment_layer(
            &self.cache,
            self.options.strict(),
            dir,
            &self.options.environment,
            self.env_data_provider.as_ref(),
            warnings,
        )
    }

    /// The effective modulepath: the directories searched for modules, in
    /// order (absolute; see [`crate::modulepath`]).
    pub fn modulepath(&self) -> &[PathBuf] {
        &self.modulepath
    }

    /// The module's directory: in the first modulepath directory that has
    /// a directory of that name (through the file cache's `stat`s), if its
    /// metadata.json does not make Puppet drop the module.
    fn module_dir(&self, name: &str) -> Option<PathBuf> {
        if !is_module_name(name) {
            return None;
        }
        self.modulepath
            .iter()
            .map(|d| d.join(name))
            .find(|d| self.cache.is_dir(d))
            .filter(|d| self.cache.module_metadata(d).unwrap_or(true))
    }

    /// The module's hiera.yaml, if the module exists and has one (or what
    /// its metadata.json's `data_provider` makes: see
    /// [`crate::data_provider`]). The
    /// module is the first one in the modulepath, with or without a
    /// hiera.yaml: a later one of the same name is never consulted. In the
    /// last directory one `stat` of the file answers both questions (a
    /// missing module directory is a missing file): with the default
    /// modulepath of one directory, that is the only `stat`. Sessions keep
    /// the answer, so this runs once per module and session.
    fn module_config(
        &self,
        name: &str,
        warnings: &mut Vec<Warning>,
    ) -> Result<Option<Arc<HieraConfig>>> {
        if !is_module_name(name) {
            return Ok(None);
        }
        let Some((last, earlier)) = self.modulepath.split_last() else {
            return Ok(None);
        };
        let dir = earlier
            .iter()
            .map(|d| d.join(name))
            .find(|d| self.cache.is_dir(d))
            .unwrap_or_else(|| last.join(name));
        let (keep, provider) = self.cache.module_metadata_and_provider(&dir)?;
        if !keep {
            return Ok(None);
        }
        let setting = provider.map(|v| crate::data_provider::Setting::of_json(&v));
        crate::data_provider::module_layer(
            &self.cache,
            self.options.strict(),
            &dir,
            name,
            setting.as_ref(),
            warnings,
        )
    }
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
    /// Names of variables the lookup's scope has beyond the session's (a
    /// class's parameters and locals, a resource's title: what Puppet's
    /// scope of the lookup adds to the compile's top scope). Their values
    /// are asked of the host ([`crate::host::Host::variable`], with the
    /// lookup's scope) when the lookup reads one, once per lookup; what
    /// read one is not kept in, nor taken from, the session's caches. A
    /// class's lookups need no session of their own. Needs a host.
    pub local_variables: Vec<String>,
    /// The lookup's own Hiera 3 calling variables (`calling_class`,
    /// `calling_class_path`, `calling_module`), in place of the session's;
    /// what read one is not kept, as for `local_variables`.
    pub hiera3_variables: Option<Map>,
    /// How many of the session's known variable names
    /// ([`crate::known_variables`]) the host has checked for this lookup's
    /// scope: `local_variables` then lists those of them the scope gives
    /// itself, and any other variable the lookup reads is first asked of
    /// the host ([`crate::host::Host::scope_variable`]). `None`:
    /// `local_variables` lists all of the scope's own variables. Needs a
    /// host.
    pub known_variables: Option<usize>,
}

impl LookupRequest {
    /// Whether something computed from `reads` may differ for this request
    /// from what the session has: it read one of the request's own
    /// variables.
    fn hides(&self, reads: &[Box<str>]) -> bool {
        (!self.local_variables.is_empty() || self.hiera3_variables.is_some())
            && reads.iter().any(|r| {
                self.local_variables.iter().any(|l| **l == **r)
                    || (self.hiera3_variables.is_some() && HIERA3_CALLING_KEYS.contains(&&**r))
            })
    }

    /// Whether this request may not take something the session computed
    /// from `reads`: it [`hides`](Self::hides) it, or it read a variable
    /// the request's host has not checked (`known_variables`).
    fn refuses(&self, reads: &[Box<str>], known: &KnownVariables) -> bool {
        self.hides(reads)
            || self
                .known_variables
                .is_some_and(|n| known.unchecked(reads, n))
    }

    /// Whether the request's scope may differ from its session's.
    fn scoped(&self) -> bool {
        !self.local_variables.is_empty()
            || self.hiera3_variables.is_some()
            || self.known_variables.is_some()
    }
}

impl LookupRequest {
    /// A request for one key without options.
    pub fn key(key: &str) -> LookupRequest {
        LookupRequest {
            keys: vec![key.to_string()],
            ..Default::default()
        }
    }
}

/// Merged lookup_options, split into literal keys and patterns.
#[derive(Clone, Debug, Default)]
struct CompiledOptions {
    literal: FastMap<String, Value>,
    patterns: Vec<(Arc<Pattern>, Value)>,
}

impl CompiledOptions {
    fn for_key(&self, root: &str) -> Result<Option<&Value>> {
        if let Some(v) = self.literal.get(root).filter(|v| !v.is_nil()) {
            return Ok(Some(v));
        }
        let has_newline = root.bytes().any(|b| b == b'\n');
        for (re, v) in &self.patterns {
            if re.is_match_lines(root, has_newline)? {
                return Ok(Some(v));
            }
        }
        Ok(None)
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
    /// The variables this session was given: the whole scope, or for an
    /// overlay session the variables it adds to its parent's.
    scope: Map,
    options: SessionOptions,
    /// An overlay session's parent (never itself an overlay): the session
    /// whose variables it sees under its own, and whose caches it shares.
    parent: Option<Arc<Session>>,
    /// An overlay session's variables whose values differ from its
    /// parent's: whatever read none of them is the same in both sessions,
    /// and is kept in (and taken from) the parent's caches.
    changed: Box<[Box<str>]>,
    /// An overlay's variables whose values the host gives when first read
    /// (`None` inside: the host has no such variable).
    deferred: FastMap<Box<str>, OnceLock<Option<Value>>>,
    /// Compiled lookup_options by module name ("" for keys outside modules).
    options_cache: Mutex<FastMap<String, KeptOptions>>,
    hierarchy_cache: Mutex<FastMap<(usize, bool), Arc<ResolvedHierarchy>>>,
    base_options: OnceLock<(Option<Value>, Reads)>,
    global_config: OnceLock<Arc<HieraConfig>>,
    env_config: OnceLock<Option<Arc<HieraConfig>>>,
    module_configs: Mutex<FastMap<String, Option<Arc<HieraConfig>>>>,
    /// Finished lookups: key -> (merge, result, variables read). Correct
    /// because a session is a snapshot and its scope does not change.
    results: Mutex<FastMap<String, Vec<CachedResult>>>,
    /// The global and environment hierarchies for [`Session::quick_lookup`],
    /// once both are resolved and indexed.
    quick_base: OnceLock<QuickBase>,
    /// Per module name ("" for keys outside modules): what the quick path
    /// needs, once ready; `None` inside: never ready (always the general path).
    quick_modules: Mutex<FastMap<Box<str>, Option<Arc<QuickModule>>>>,
    /// The variable names the host has been asked about (shared with
    /// overlays: the parent's is used).
    known: KnownVariables,
}

/// How a session sees its configuration beyond its variables.
#[derive(Clone, Debug, Default)]
pub struct SessionOptions {
    /// Lookups made by a plan (Puppet's script compiler): hierarchies
    /// with a `plan_hierarchy` use it instead of `hierarchy`.
    pub plan: bool,
    /// Variables only a Hiera 3 global layer sees, as Puppet's
    /// `Hiera::Scope` gives them: `calling_class`, `calling_class_path`,
    /// `calling_module` (each defined there even when absent here, and an
    /// empty String is undefined).
    pub hiera3_variables: Map,
}

/// The variables `Hiera::Scope` always defines.
const HIERA3_CALLING_KEYS: [&str; 3] = ["calling_class", "calling_class_path", "calling_module"];

/// The global and environment layers as the quick path searches them.
struct QuickBase {
    global: Option<Arc<ResolvedHierarchy>>,
    env: Option<Arc<ResolvedHierarchy>>,
}

impl QuickBase {
    fn layers(&self) -> impl Iterator<Item = &Arc<ResolvedHierarchy>> {
        self.global.iter().chain(self.env.iter())
    }
}

/// One module namespace as the quick path searches it.
struct QuickModule {
    /// The merged lookup_options for the namespace's keys.
    options: Option<Arc<CompiledOptions>>,
    /// The module layer (None: no module data for these keys).
    layer: Option<Arc<ResolvedHierarchy>>,
    /// The module has a default hierarchy (searched when nothing is found).
    default_hierarchy: bool,
    /// The variables its options read.
    options_reads: Reads,
}

/// What [`Session::quick_layer`] makes of a layer's configuration.
enum QuickLayer {
    /// Not resolved or indexed yet in this session.
    NotYet,
    /// Never searchable by the quick path (no index can be built).
    Never,
    /// Searchable (None: the layer has nothing to search).
    Ready(Option<Arc<ResolvedHierarchy>>),
}

impl Session {
    /// A session for `scope`, the map of variables (facts, trusted, ...).
    pub fn new(hiera: Arc<Hiera>, scope: Map) -> Session {
        Session::with_options(hiera, scope, SessionOptions::default())
    }

    /// A session for `scope` with [`SessionOptions`].
    pub fn with_options(hiera: Arc<Hiera>, scope: Map, options: SessionOptions) -> Session {
        Session::make(hiera, scope, options, None, Box::default())
    }

    /// An overlay session: this session's variables with `vars` over them
    /// (a class's or a resource's own variables over a compile's top
    /// scope), and the Hiera 3 calling variables `hiera3_variables`
    /// (`plan` is this session's). `deferred` names more variables of the
    /// overlay whose values the host gives ([`crate::host::Host::variable`])
    /// when a lookup first reads them (a class parameter's big value, which
    /// data seldom names).
    ///
    /// It shares this session's snapshot: a lookup, hierarchy or
    /// lookup_options that reads none of the variables the overlay changes
    /// is the same in both, so it is found in, or kept in, this session's
    /// caches; the rest is the overlay's own. An overlay of an overlay is an
    /// overlay of its parent with both sets of variables.
    pub fn overlay(
        self: &Arc<Session>,
        vars: Map,
        hiera3_variables: Map,
        deferred: &[&str],
    ) -> Session {
        let (parent, mut vars, mut later) = match &self.parent {
            Some(p) => {
                let mut all = self.scope.clone();
                for (k, v) in vars {
                    all.insert(k, v);
                }
                let later: Vec<Box<str>> = self
                    .deferred
                    .keys()
                    .filter(|n| !all.contains_key(&Key(n)))
                    .cloned()
                    .collect();
                (Arc::clone(p), all, later)
            }
            None => (Arc::clone(self), vars, Vec::new()),
        };
        for name in deferred {
            vars.shift_remove(&Key(name));
            if !later.iter().any(|n| **n == **name) {
                later.push(Box::from(*name));
            }
        }
        let mut changed: Vec<Box<str>> = vars
            .iter()
            .filter(|(k, v)| parent.scope.get(*k) != Some(*v))
            .filter_map(|(k, _)| k.as_str().map(Box::from))
            .chain(later.iter().cloned())
            .collect();
        if hiera3_variables != parent.options.hiera3_variables {
            changed.extend(HIERA3_CALLING_KEYS.iter().map(|k| Box::from(*k)));
        }
        let options = SessionOptions {
            plan: parent.options.plan,
            hiera3_variables,
        };
        let hiera = Arc::clone(&parent.hiera);
        let mut session = Session::make(hiera, vars, options, Some(parent), changed.into());
        session.deferred = later.into_iter().map(|n| (n, OnceLock::new())).collect();
        session
    }

    fn make(
        hiera: Arc<Hiera>,
        scope: Map,
        options: SessionOptions,
        parent: Option<Arc<Session>>,
        changed: Box<[Box<str>]>,
    ) -> Session {
        Session {
            hiera,
            scope,
            options,
            parent,
            changed,
            deferred: FastMap::default(),
            options_cache: Mutex::new(FastMap::default()),
            hierarchy_cache: Mutex::new(FastMap::default()),
            base_options: OnceLock::new(),
            global_config: OnceLock::new(),
            env_config: OnceLock::new(),
            module_configs: Mutex::new(FastMap::default()),
            results: Mutex::new(FastMap::default()),
            quick_base: OnceLock::new(),
            quick_modules: Mutex::new(FastMap::default()),
            known: KnownVariables::default(),
        }
    }

    /// The variable names the hosts of this session's lookups have been
    /// asked about (an overlay's parent's).
    fn known_variables(&self) -> &KnownVariables {
        self.parent.as_ref().map_or(&self.known, |p| &p.known)
    }

    /// The hierarchy of `config` this session searches: the default
    /// hierarchy, the plan hierarchy for plans, else the hierarchy.
    fn entries<'c>(&self, config: &'c HieraConfig, default_hierarchy: bool) -> &'c [Entry] {
        if default_hierarchy {
            return config.default_hierarchy.as_deref().unwrap_or(&[]);
        }
        match &config.plan_hierarchy {
            Some(plan) if self.options.plan => plan,
            _ => &config.hierarchy,
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
    /// The warnings Puppet would log go to the host's `warn`, when there is
    /// a host (see [`Options::host`]).
    pub fn lookup(&self, req: &LookupRequest) -> Result<Option<Value>> {
        let (r, warnings) = self.lookup_warned(req);
        if let Some(host) = &self.hiera.options.host {
            for w in &warnings {
                host.0.warn(w);
            }
        }
        r
    }

    /// Like [`Session::lookup`], also returning the warnings Puppet would log
    /// (undefined variables under `strict = warning`).
    pub fn lookup_with_warnings(
        &self,
        req: &LookupRequest,
    ) -> (Result<Option<Value>>, Vec<String>) {
        let (r, warnings) = self.lookup_warned(req);
        (r, warnings.into_iter().map(|w| w.message).collect())
    }

    /// The lookup and the warnings Puppet would log, as Puppet logs them.
    fn lookup_warned(&self, req: &LookupRequest) -> (Result<Option<Value>>, Vec<Warning>) {
        if (!req.local_variables.is_empty() || req.known_variables.is_some())
            && self.hiera.options.host.is_none()
        {
            let field = if req.local_variables.is_empty() {
                "known_variables"
            } else {
                "local_variables"
            };
            let e = Error::new(
                ErrorKind::InvalidArgument,
                format!("a lookup's {field} are asked of the host: the configuration has none"),
            );
            return (Err(e), Vec::new());
        }
        if let Some((found, warnings)) = self.quick_lookup(req) {
            return (Ok(found.or_else(|| req.default.clone())), warnings);
        }
        if let Err(e) = check_merge_argument(req.merge.as_ref()) {
            return (Err(e), Vec::new());
        }
        let mut inv = Invocation::new(self, req);
        let r = inv.lookup_names(&req.keys, req.merge.as_ref(), req.default.as_ref());
        let r = r.map_err(|e| match e.kind {
            ErrorKind::Limit => e.prefixed(&req.keys.join(", ")),
            _ => e,
        });
        (r, inv.warnings)
    }

    /// The lookups answered from what the session already holds, without
    /// walking the layers: no merge, no overrides or default values, each
    /// name without lookup_options, every layer's hierarchy already resolved
    /// and indexed in this session. These are most of a compile's automatic
    /// parameter lookups, found or not, and its dotted and interpolated
    /// keys. `None`: anything else, and anything that fails, which the
    /// general path answers (and which fills these caches).
    ///
    /// The answer is the general path's: the same snapshot (the session's
    /// resolved hierarchies, their key indexes and data slots), searched in
    /// the same order, first found wins, values interpolated by the same
    /// resolver with the same recursion guard. Also returns the warnings.
    fn quick_lookup(&self, req: &LookupRequest) -> Option<(Found, Vec<Warning>)> {
        if req.keys.is_empty()
            || req.merge.is_some()
            || !req.override_values.is_empty()
            || !req.default_values_hash.is_empty()
        {
            return None;
        }
        let mut warnings = Vec::new();
        for name in &req.keys {
            if let Some(v) = self.quick_key(req, name, &mut warnings)? {
                return Some((Some(v), warnings));
            }
        }
        Some((None, warnings))
    }

    /// One name of [`Session::quick_lookup`]: `Some(found)`, or `None` when
    /// the general path must answer.
    fn quick_key(
        &self,
        req: &LookupRequest,
        name: &str,
        warnings: &mut Vec<Warning>,
    ) -> Option<Found> {
        let bytes = name.as_bytes();
        if memchr::memchr2(b'\'', b'"', bytes).is_some() {
            return None;
        }
        // Without quotes the root is the text before the first dot (a root
        // with spaces around it is left to the general path).
        let root = match memchr::memchr(b'.', bytes) {
            Some(dot) => &name[..dot],
            None => name,
        };
        if root.is_empty() || root == "lookup_options" || root.trim_ascii() != root {
            return None;
        }
        let module = crate::key::module_of(root);
        let base = match self.quick_base.get() {
            Some(b) => b,
            None => {
                let b = self.quick_base_now()?;
                self.quick_base.get_or_init(|| b)
            }
        };
        let namespace = module.unwrap_or("");
        let cached = self
            .quick_modules
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(namespace)
            .cloned();
        let quick = match cached {
            Some(q) => q?,
            None => {
                let q = self.quick_module_now(module)?;
                self.quick_modules
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .insert(namespace.into(), q.clone());
                q?
            }
        };
        if quick
            .options
            .as_ref()
            .is_some_and(|o| !matches!(o.for_key(root), Ok(None)))
        {
            // Options for the key (or a pattern that fails: the full lookup
            // reports it).
            return None;
        }
        // The request's own variables hide what read them.
        let known = self.known_variables();
        if req.scoped()
            && (base
                .layers()
                .chain(quick.layer.iter())
                .any(|r| req.refuses(&r.reads, known))
                || req.refuses(&quick.options_reads, known))
        {
            return None;
        }
        let parsed = if root.len() < name.len() {
            Some(LookupKey::parse(name).ok().filter(|lk| &*lk.root == root)?)
        } else {
            None
        };
        let mut found = None;
        let mut interpolated = false;
        let mut all_reads = Vec::new();
        for (site, layer) in [
            (Layer::Global, &base.global),
            (Layer::Environment, &base.env),
            (Layer::Module, &quick.layer),
        ] {
            let Some(resolved) = layer else { continue };
            let Some(Some(index)) = resolved.index.get() else {
                return None;
            };
            let Some(hit) = index.get(root).and_then(|hits| hits.first()) else {
                continue;
            };
            let data = resolved
                .entries
                .get(hit.entry as usize)?
                .data
                .get(hit.location as usize)?
                .get()?
                .as_ref()?;
            let value = data.get(&Key(root))?;
            if hit.plain {
                found = Some(value.clone());
                break;
            }
            if !crate::ptype::is_rich_data(value) {
                return None;
            }
            // Interpolated values are kept as the general path keeps them:
            // the session's finished lookups.
            if let Some((done, _)) = self
                .finished(name, None)
                .filter(|(_, reads)| !req.refuses(reads, self.known_variables()))
            {
                return Some(done);
            }
            // Interpolated as the general path does: inside the layer's
            // search, with the key on the recursion guard.
            let mut inv = Invocation::new(self, req);
            inv.site = (
                site,
                if site == Layer::Module {
                    module.map(Arc::from)
                } else {
                    None
                },
            );
            inv.stack.push(
                parsed
                    .as_ref()
                    .map_or_else(|| Arc::from(name), |lk| Arc::clone(&lk.key)),
            );
            found = Some(interpolate::interpolate(value, &mut inv, true).ok()?);
            all_reads = inv.reads.take();
            for w in inv.warnings {
                if !warnings.contains(&w) {
                    warnings.push(w);
                }
            }
            interpolated = true;
            break;
        }
        let found = match (found, &parsed) {
            (Some(v), Some(lk)) => lk.dig(v).ok()?,
            (found, _) => found,
        };
        // Not found: a module's default hierarchy is the general path's.
        if found.is_none() && quick.default_hierarchy {
            return None;
        }
        if interpolated {
            // What the general path would have read: the layers' and the
            // options' variables, and the interpolation's.
            let mut reads: Vec<Box<str>> = base
                .layers()
                .chain(quick.layer.iter())
                .flat_map(|r| r.reads.iter())
                .chain(quick.options_reads.iter())
                .chain(all_reads.iter())
                .cloned()
                .collect();
            reads.sort_unstable();
            reads.dedup();
            if !req.hides(&reads) {
                self.keep(name, None, &found, reads.into());
            }
        }
        Some(found)
    }

    /// The quick path's global and environment layers, when the general
    /// path has resolved and indexed both (`None`: not yet, or never).
    fn quick_base_now(&self) -> Option<QuickBase> {
        let configs = self.configs();
        let global = match self.quick_layer(Some(configs.global_config.get()?)) {
            QuickLayer::Ready(r) => r,
            QuickLayer::NotYet | QuickLayer::Never => return None,
        };
        let env = match self.quick_layer(configs.env_config.get()?.as_ref()) {
            QuickLayer::Ready(r) => r,
            QuickLayer::NotYet | QuickLayer::Never => return None,
        };
        Some(QuickBase { global, env })
    }

    /// The quick path's view of a module namespace: `None` when the general
    /// path has not gathered it yet; `Some(None)` when it never can be used.
    fn quick_module_now(&self, module: Option<&str>) -> Option<Option<Arc<QuickModule>>> {
        let (options, options_reads) = self.cached_options(module.unwrap_or(""))?;
        let config = match module {
            Some(m) => self
                .configs()
                .module_configs
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get(m)?
                .clone(),
            None => None,
        };
        let layer = match self.quick_layer(config.as_ref()) {
            QuickLayer::NotYet => return None,
            QuickLayer::Never => return Some(None),
            QuickLayer::Ready(r) => r,
        };
        let default_hierarchy = config.is_some_and(|c| c.default_hierarchy.is_some());
        Some(Some(Arc::new(QuickModule {
            options,
            layer,
            default_hierarchy,
            options_reads,
        })))
    }

    /// A layer's resolved hierarchy as the quick path can search it.
    fn quick_layer(&self, config: Option<&Arc<HieraConfig>>) -> QuickLayer {
        let Some(config) = config else {
            return QuickLayer::Ready(None);
        };
        if config.path.is_none() {
            return QuickLayer::Never;
        }
        let Some(resolved) = self.cached_hierarchy((Arc::as_ptr(config) as usize, false)) else {
            return QuickLayer::NotYet;
        };
        if resolved.entries.is_empty() {
            return QuickLayer::Ready(None);
        }
        match resolved.index.get() {
            None => QuickLayer::NotYet,
            Some(None) => QuickLayer::Never,
            Some(Some(_)) => QuickLayer::Ready(Some(resolved)),
        }
    }

    /// The session whose caches hold what was computed from `reads`: the
    /// parent when none of them is a variable this overlay changes.
    fn keeper(&self, reads: &[Box<str>]) -> &Session {
        match &self.parent {
            Some(p) if !reads.iter().any(|r| self.changed.contains(r)) => p,
            _ => self,
        }
    }

    /// The sessions whose caches may hold what this session computes: its
    /// own, then its parent's (whose entries count only when they read no
    /// variable this overlay changes).
    fn cache_sessions(&self) -> impl Iterator<Item = &Session> {
        std::iter::once(self).chain(self.parent.as_deref())
    }

    /// Whether an entry of `owner`'s caches that read `reads` is this
    /// session's answer too.
    fn sees(&self, owner: &Session, reads: &[Box<str>]) -> bool {
        std::ptr::eq(owner, self) || !reads.iter().any(|r| self.changed.contains(r))
    }

    /// A finished lookup of `key` with `merge`, if the session keeps one,
    /// and the variables it read.
    fn finished(&self, key: &str, merge: Option<&Value>) -> Option<(Found, Reads)> {
        for owner in self.cache_sessions() {
            let results = owner.results.lock().unwrap_or_else(|p| p.into_inner());
            let hit = results.get(key).and_then(|slot| {
                slot.iter()
                    .find(|(m, _, reads)| m.as_ref() == merge && self.sees(owner, reads))
            });
            if let Some((_, found, reads)) = hit {
                return Some((found.clone(), Arc::clone(reads)));
            }
        }
        None
    }

    /// Keeps a finished lookup that read `reads` (the first answer kept for
    /// a key and merge stays).
    fn keep(&self, key: &str, merge: Option<&Value>, found: &Found, reads: Reads) {
        if reads.iter().any(|r| &**r == VOLATILE) {
            return;
        }
        let owner = self.keeper(&reads);
        let mut results = owner.results.lock().unwrap_or_else(|p| p.into_inner());
        let slot = results.entry(key.to_string()).or_default();
        if !slot
            .iter()
            .any(|(m, _, r)| m.as_ref() == merge && self.sees(owner, r))
        {
            slot.push((merge.cloned(), found.clone(), reads));
        }
    }

    /// A resolved hierarchy this session may search, if one is kept.
    fn cached_hierarchy(&self, key: (usize, bool)) -> Option<Arc<ResolvedHierarchy>> {
        self.cache_sessions().find_map(|owner| {
            let cache = owner
                .hierarchy_cache
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            cache
                .get(&key)
                .filter(|r| self.sees(owner, &r.reads))
                .map(Arc::clone)
        })
    }

    /// Keeps a resolved hierarchy; returns the one kept (another thread's,
    /// when it was first).
    fn keep_hierarchy(
        &self,
        key: (usize, bool),
        resolved: Arc<ResolvedHierarchy>,
    ) -> Arc<ResolvedHierarchy> {
        if resolved.reads.iter().any(|r| &**r == VOLATILE) {
            return resolved;
        }
        let owner = self.keeper(&resolved.reads);
        let mut cache = owner
            .hierarchy_cache
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        Arc::clone(cache.entry(key).or_insert(resolved))
    }

    /// The compiled lookup_options of a module namespace ("" outside
    /// modules), if kept, and the variables they read.
    fn cached_options(&self, namespace: &str) -> Option<KeptOptions> {
        self.cache_sessions().find_map(|owner| {
            let cache = owner
                .options_cache
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            cache
                .get(namespace)
                .filter(|(_, reads)| self.sees(owner, reads))
                .cloned()
        })
    }

    fn keep_options(&self, namespace: &str, options: Option<Arc<CompiledOptions>>, reads: Reads) {
        if reads.iter().any(|r| &**r == VOLATILE) {
            return;
        }
        let owner = self.keeper(&reads);
        let mut cache = owner
            .options_cache
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        cache
            .entry(namespace.to_string())
            .or_insert((options, reads));
    }

    /// The merged global and environment lookup_options, if kept.
    fn cached_base_options(&self) -> Option<&(Option<Value>, Reads)> {
        self.cache_sessions().find_map(|owner| {
            owner
                .base_options
                .get()
                .filter(|(_, reads)| self.sees(owner, reads))
        })
    }

    fn keep_base_options(&self, options: Option<Value>, reads: Reads) {
        if reads.iter().any(|r| &**r == VOLATILE) {
            return;
        }
        let _ = self.keeper(&reads).base_options.set((options, reads));
    }

    /// The session that reads and keeps the configurations (they do not
    /// depend on variables): the parent of an overlay.
    fn configs(&self) -> &Session {
        self.parent.as_deref().unwrap_or(self)
    }

    /// Forgets the finished lookups this session keeps (its other caches
    /// stay): for benchmarks that time lookups on a warm session.
    #[doc(hidden)]
    pub fn forget_results(&self) {
        self.results
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
    }

    /// Looks up one key with Puppet's defaults (first found, no default).
    pub fn lookup_key(&self, key: &str) -> Result<Option<Value>> {
        self.lookup(&LookupRequest::key(key))
    }

    /// The data hashes of every file the hierarchies of one layer reach for
    /// this session's scope (global and environment layers when `module` is
    /// `None`, else that module's layer), in hierarchy order, default
    /// hierarchies included: read through the session's resolved
    /// hierarchies and the file cache, as lookups read them. Locations
    /// that a host function or a Hiera 3 backend answers are not files
    /// libhiera reads, and are left out. Used by [`crate::all_keys`].
    pub(crate) fn layer_data(&self, module: Option<&str>) -> Result<Vec<Arc<Map>>> {
        let req = LookupRequest::default();
        let mut inv = Invocation::new(self, &req);
        let layers: &[Layer] = if module.is_some() {
            &[Layer::Module]
        } else {
            &[Layer::Global, Layer::Environment]
        };
        let mut out = Vec::new();
        for &layer in layers {
            let Some(config) = inv.layer_config(layer, module)? else {
                continue;
            };
            let site = std::mem::replace(&mut inv.site, (layer, module.map(Arc::from)));
            let r = inv.hierarchy_data(&config, &mut out);
            inv.site = site;
            r?;
        }
        Ok(out)
    }
}

/// Which layer a search is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layer {
    Global,
    Environment,
    Module,
}

impl Layer {
    fn kind(self) -> LayerKind {
        match self {
            Layer::Global => LayerKind::Global,
            Layer::Environment => LayerKind::Environment,
            Layer::Module => LayerKind::Module,
        }
    }
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
    /// Which locations hold which root keys (built once, on first use).
    /// `None` inside when it cannot be built (a location that fails to
    /// load, or a function other than yaml_data/json_data): lookups then
    /// probe every location, which also reports the error where Puppet does.
    index: OnceLock<Option<Arc<KeyIndex>>>,
    /// The variables its resolution read.
    reads: Reads,
}

/// Root key -> the locations whose data has that key, in hierarchy order.
type KeyIndex = FastMap<Str, Vec<Hit>>;

/// A location whose data has a key.
#[derive(Clone, Copy, Debug)]
struct Hit {
    /// The position of the entry in the resolved hierarchy.
    entry: u32,
    /// The position of the location in the entry.
    location: u32,
    /// The value is rich data and has no `%{...}`: it is the answer as it
    /// is, with nothing to check or interpolate.
    plain: bool,
}

/// A key index and the data it was built from.
type PinnedIndex = (Vec<Arc<Map>>, Arc<KeyIndex>);

/// Key indexes by the identity of the data they were built from. Each entry
/// holds its data (`pinned`) so that the addresses in its key stay unique.
#[derive(Default)]
struct IndexCache {
    map: Mutex<FastMap<Vec<usize>, PinnedIndex>>,
}

impl IndexCache {
    /// The most indexes kept; past it the cache starts over (a changed file
    /// leaves its old index behind, and this bounds them).
    const LIMIT: usize = 4096;

    fn get(&self, identity: &[usize]) -> Option<Arc<KeyIndex>> {
        let map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        map.get(identity).map(|(_, index)| Arc::clone(index))
    }

    fn insert(&self, identity: Vec<usize>, pinned: Vec<Arc<Map>>, index: Arc<KeyIndex>) {
        let mut map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() >= Self::LIMIT {
            map.clear();
        }
        map.insert(identity, (pinned, index));
    }
}

/// The state of one top-level lookup: the recursion guard and the request.
struct Invocation<'s> {
    session: &'s Session,
    req: &'s LookupRequest,
    stack: Vec<Arc<str>>,
    /// Local variable bindings (the variable of `mapped_paths`).
    locals: Vec<(String, Value)>,
    /// The explanation being built, when one was asked for.
    explain: Option<Explainer>,
    /// lookup_options layers being gathered now: a nested lookup made while
    /// they are gathered sees them as absent, as in Puppet.
    options_busy: Vec<(Layer, Option<String>)>,
    /// Warnings (Puppet's `strict = warning` messages), each once.
    warnings: Vec<Warning>,
    /// What the scope expressions being evaluated belong to.
    config_part: ConfigPart,
    /// How deep the nested lookup being made is (the top-level lookup is 0).
    depth: usize,
    /// The nested lookups made so far.
    nested: usize,
    /// How deep interpolations of found values are nested now.
    checks: usize,
    /// The values the nested lookups have returned so far.
    nested_values: usize,
    /// The bytes interpolation has produced so far.
    interpolated: usize,
    /// The layer (and module) whose hierarchy is being searched, for the
    /// host's calls.
    site: (Layer, Option<Arc<str>>),
    /// Only the global layer answers (Puppet's `global_only`): the lookups
    /// a Hiera 3 global layer's data makes when the environment has no
    /// data provider of its own, and the lookups they make.
    global_only: bool,
    /// The scope variables read so far, including those read by the cached
    /// results used: what is kept is kept with the part of this list read
    /// while it was computed.
    reads: RefCell<Vec<Box<str>>>,
    /// Whether [`UNREGISTERED`] was noted since the last
    /// [`reads_mark`](Self::reads_mark): every mark still open sees it.
    unregistered_noted: Cell<bool>,
    /// The variables asked of the host so far, and its answers (asked once
    /// per lookup: nothing is evaluated during one).
    asked: RefCell<Vec<(Box<str>, Option<Value>)>>,
}

type Found = Option<Value>;

/// A `HashMap` hashed with foldhash, for the engine's internal caches.
type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// What the scope expressions being evaluated belong to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ConfigPart {
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
fn undefined_variable_words(root: &str) -> Option<(String, String)> {
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
fn config_undefined_variable(e: Error, config: &HieraConfig) -> Error {
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
fn find_line_matching(path: &Path, name: &str) -> Option<usize> {
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

/// A finished lookup kept by a session: the merge it was asked with, and its result.
type CachedResult = (Option<Value>, Found, Reads);

/// A module namespace's compiled lookup_options and what they read.
type KeptOptions = (Option<Arc<CompiledOptions>>, Reads);

/// The scope variables (their root names) something computed from the
/// scope read, found or not: what an overlay session must not change for
/// it to be shared.
type Reads = Arc<[Box<str>]>;

/// The read of something that may change during the session (a qualified
/// variable the host does not have yet): what read it is not kept.
const VOLATILE: &str = "::";

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
        }
    }

    /// Whether the lookup may not take what the session computed from
    /// `reads` ([`LookupRequest::refuses`]).
    fn refuses(&self, reads: &[Box<str>]) -> bool {
        self.req.refuses(reads, self.session.known_variables())
    }

    /// Notes that the scope variable `name` was read. Every read is noted
    /// (a name read before a mark must be seen after it too); the part of
    /// the list a cache entry keeps is deduplicated then.
    fn read(&self, name: &str) {
        self.reads.borrow_mut().push(Box::from(name));
    }

    /// Notes that what was read to compute a cached result was read.
    fn read_all(&self, names: &[Box<str>]) {
        for n in names {
            self.read(n);
        }
    }

    /// Where the reads of what is computed next start.
    fn reads_mark(&self) -> usize {
        self.unregistered_noted.set(false);
        self.reads.borrow().len()
    }

    /// The variables read since `mark`, each once.
    fn reads_since(&self, mark: usize) -> Reads {
        let mut since: Vec<Box<str>> = self.reads.borrow()[mark..].to_vec();
        since.sort_unstable();
        since.dedup();
        since.into()
    }

    fn limits(&self) -> &'s Limits {
        &self.session.hiera.options.limits
    }

    fn hiera(&self) -> &'s Hiera {
        &self.session.hiera
    }

    fn warn(&mut self, warning: Warning) {
        if !self.warnings.contains(&warning) {
            self.warnings.push(warning);
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
    fn merged(
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

    fn merged_unchecked(
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
    fn lookup_names(
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
    fn lookup_key(&mut self, key: &str, merge: Option<&Value>) -> Result<Found> {
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
            .finished(key, merge)
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
            self.session.keep(key, merge, &found, reads);
        }
        Ok(found)
    }

    fn lookup_key_uncached(&mut self, key: &str, merge: Option<&Value>) -> Result<Found> {
        if key == "lookup_options" || key.starts_with("lookup_options.") {
            return Ok(None);
        }
        let lk = LookupKey::parse(key)?;
        let options = match self.lookup_options_for(&lk)? {
            Some(Value::Hash(h)) => Some((*h).clone()),
            Some(other) => match crate::key_options::index_error(&other) {
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

    fn lookup_parsed(
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
        let layers = if self.global_only { 1 } else { 3 };
        let found = self.merged(&strategy, layers, |inv, i| {
            inv.layer_lookup(LAYERS[i], lk, &lk.key, lk.module(), &strategy, false)
        })?;
        match found {
            Some(v) if !lk.segments.is_empty() && self.explain.is_some() => {
                self.explained_dig(&lk.key, &lk.segments, v)
            }
            Some(v) => lk.dig(v),
            None => Ok(None),
        }
    }

    /// The configuration of a layer, read once per session (errors are not
    /// kept: they are met again at the next lookup, as in Puppet).
    fn layer_config(
        &mut self,
        layer: Layer,
        module: Option<&str>,
    ) -> Result<Option<Arc<HieraConfig>>> {
        let session = self.session.configs();
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
                let mut warnings = Vec::new();
                let c = self.hiera().env_config(&mut warnings);
                warnings.into_iter().for_each(|w| self.warn(w));
                let c = c?;
                Ok(session.env_config.get_or_init(|| c).clone())
            }
            Layer::Module => {
                let Some(m) = module else { return Ok(None) };
                if let Some(c) = session
                    .module_configs
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .get(m)
                {
                    return Ok(c.clone());
                }
                let mut warnings = Vec::new();
                let c = self.hiera().module_config(m, &mut warnings);
                warnings.into_iter().for_each(|w| self.warn(w));
                let c = c?;
                session
                    .module_configs
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .insert(m.to_string(), c.clone());
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
            let r = self.hierarchy_lookup(&config, lk, strategy, default_hierarchy);
            self.site = site;
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
            // A limit names the key it stopped at, and is prefixed once, with
            // the key asked for (Session::lookup_with_warnings).
            Err(e)
                if layer == Layer::Global
                    && !matches!(
                        e.kind,
                        ErrorKind::Config
                            | ErrorKind::Interpolation
                            | ErrorKind::Merge
                            | ErrorKind::Limit
                    ) =>
            {
                Err(e.prefixed(top_key))
            }
            other => other,
        }
    }

    fn recursion_error(&self) -> Error {
        Error::new(
            ErrorKind::Recursion,
            format!("Recursive lookup detected in [{}]", self.stack.join(", ")),
        )
    }

    /// The hierarchy of `config` resolved for this session's scope: from the
    /// session's cache when the request cannot change variables (no
    /// override or default values), else resolved afresh.
    fn resolved_hierarchy(
        &mut self,
        config: &Arc<HieraConfig>,
        default_hierarchy: bool,
    ) -> Result<Arc<ResolvedHierarchy>> {
        let cacheable = (config.path.is_some() || crate::data_provider::is_function_config(config))
            && self.req.override_values.is_empty()
            && self.req.default_values_hash.is_empty()
            && self.locals.is_empty();
        let cache_key = (Arc::as_ptr(config) as usize, default_hierarchy);
        if cacheable {
            if let Some(r) = self
                .session
                .cached_hierarchy(cache_key)
                .filter(|r| !self.refuses(&r.reads))
            {
                self.read_all(&r.reads);
                return Ok(r);
            }
        }
        let mark = self.reads_mark();
        let entries = self.session.entries(config, default_hierarchy);
        // Puppet does not explain the interpolation of hiera.yaml strings.
        let explain = self.explain.take();
        let part = std::mem::replace(&mut self.config_part, ConfigPart::Config);
        let entries = self
            .resolve_entries(config, entries)
            .map_err(|e| config_undefined_variable(e, config));
        self.config_part = part;
        self.explain = explain;
        let resolved = Arc::new(ResolvedHierarchy {
            _config: Arc::clone(config),
            entries: entries?,
            index: OnceLock::new(),
            reads: self.reads_since(mark),
        });
        if cacheable && !self.req.hides(&resolved.reads) {
            // The entry keeps its config alive, so the address stays unique.
            return Ok(self.session.keep_hierarchy(cache_key, resolved));
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
        let entries = self.session.entries(config, default_hierarchy);
        if resolved.entries.is_empty() {
            return Ok(None);
        }
        // Outside explain, the key index says which locations can answer:
        // a key no location has is not found without probing each one.
        let hits: Option<&[Hit]> = if self.explain.is_none() {
            match resolved
                .index
                .get_or_init(|| self.build_index(entries, &resolved))
            {
                Some(index) => Some(index.get(&*lk.root).map(Vec::as_slice).unwrap_or(&[])),
                None => None,
            }
        } else {
            None
        };
        if hits.is_some_and(|h| h.is_empty()) {
            return Ok(None);
        }
        self.merged(strategy, resolved.entries.len(), |this, i| {
            let re = &resolved.entries[i];
            let entry = &entries[re.index];
            this.ex_push(|| match entry.function_kind {
                FunctionKind::V4DataHash => {
                    format!("Deprecated API function \"{}\"", entry.function_name)
                }
                _ => format!("Hierarchy entry \"{}\"", entry.name),
            });
            if hits.is_some_and(|h| !h.iter().any(|hit| hit.entry as usize == i)) {
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
            let r = this.merged(strategy, re.locations.len(), |this, j| {
                let hit = hits.map(|h| h.iter().find(|hit| hit.entry as usize == i && hit.location as usize == j));
                if hit.is_some_and(|h| h.is_none()) {
                    return Ok(None);
                }
                let plain = hit.flatten().is_some_and(|h| h.plain);
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
                    this.location_lookup(config, entry, re, j, lk, plain, default_hierarchy)
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
    fn hierarchy_data(&mut self, config: &Arc<HieraConfig>, out: &mut Vec<Arc<Map>>) -> Result<()> {
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
    fn build_index(
        &self,
        entries: &[Entry],
        resolved: &ResolvedHierarchy,
    ) -> Option<Arc<KeyIndex>> {
        // First the data of every location, in order (read through the
        // session's slots, so this is the session's snapshot).
        let mut layout: Vec<Vec<Option<Arc<Map>>>> = Vec::with_capacity(resolved.entries.len());
        for re in &resolved.entries {
            let entry = &entries[re.index];
            let format = match (entry.function_kind, entry.function_name.as_str()) {
                _ if re.options.is_some() => return None,
                (FunctionKind::DataHash, "yaml_data") => DataFormat::Yaml,
                (FunctionKind::DataHash, "json_data") => DataFormat::Json,
                (FunctionKind::DataHash, "hocon_data") => DataFormat::Hocon,
                _ => return None,
            };
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
                    .map(|m| m.as_ref().map_or(0, |m| Arc::as_ptr(m) as usize))
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
                for (k, v) in data.iter() {
                    if let Value::String(name) = k {
                        let plain =
                            crate::ptype::is_rich_data(v) && !interpolate::needs_interpolation(v);
                        index.entry(name.clone()).or_default().push(Hit {
                            entry: i as u32,
                            location: j as u32,
                            plain,
                        });
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
    fn location_lookup(
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
        if entry.function_kind == FunctionKind::LookupKey
            && entry.function_name == crate::eyaml::FUNCTION
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
            Some(f) => f,
            // A missing file never reaches the function (Puppet checks
            // existence first).
            None if !self.hiera().cache.exists(path) => return Ok(LocationOutcome::Missing),
            None => {
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
    fn slot_data(
        &self,
        slot: &OnceLock<Option<Arc<Map>>>,
        entry: &Entry,
        path: &Path,
        format: DataFormat,
    ) -> Result<Option<Arc<Map>>> {
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
            self.check_module_keys(entry, path, kept.as_deref());
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
    fn check_module_keys(&self, entry: &Entry, path: &Path, data: Option<&Map>) {
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

    /// A location of an `eyaml_lookup_key` level, answered natively (see
    /// [`crate::eyaml`]): the file read as `yaml_data` reads it, the root
    /// key's value decrypted, interpolated, then checked as Puppet checks a
    /// `lookup_key` function's value.
    fn eyaml_location_lookup(
        &mut self,
        entry: &Entry,
        resolved: &ResolvedEntry,
        j: usize,
        lk: &LookupKey,
    ) -> Result<LocationOutcome> {
        let Location::Path(path, _) = &resolved.locations[j] else {
            return Err(crate::eyaml::no_path_error());
        };
        let slot = &resolved.data[j];
        let data = match slot.get() {
            Some(d) => d.clone(),
            None => {
                let d = self.hiera().cache.data(path, DataFormat::Yaml)?;
                slot.get_or_init(|| d).clone()
            }
        };
        let Some(data) = data else {
            return Ok(LocationOutcome::Missing);
        };
        let Some(value) = data.get(&Key(&lk.root)) else {
            return Ok(LocationOutcome::NoKey);
        };
        let hiera = self.hiera();
        let value = hiera.eyaml.decrypt_value(
            value,
            resolved.options.as_ref(),
            &lk.root,
            path,
            &mut |v| interpolate::interpolate(v, self, true).map_err(|e| limits::in_file(e, path)),
        )?;
        let location = path.to_string_lossy();
        Ok(LocationOutcome::Found(self.checked_host_value(
            entry,
            &lk.root,
            Some(&location),
            value,
        )?))
    }

    /// A value of a `data_hash` function's hash: checked, then interpolated,
    /// as Puppet's `DataHashFunctionProvider#data_value` does.
    fn found_in_hash(
        &mut self,
        entry: &Entry,
        root: &str,
        location: Option<&str>,
        path: Option<&Path>,
        value: &Value,
    ) -> Result<LocationOutcome> {
        if !crate::ptype::is_rich_data(value) {
            return Err(Error {
                kind: ErrorKind::Type,
                message: format!(
                    "Value for key '{}', in hash returned from {}{} has wrong type, expects Puppet::LookupValue, got {}",
                    root,
                    function_full_name(entry),
                    location.map(|l| format!(", when using location '{l}',")).unwrap_or_default(),
                    crate::ptype::infer_detailed(value, true)
                ),
                file: path.map(Path::to_path_buf),
                line: None,
            });
        }
        let value = value.clone();
        match interpolate::interpolate(&value, self, true) {
            Ok(v) => Ok(LocationOutcome::Found(v)),
            Err(e) => Err(match path {
                Some(path) => limits::in_file(e, path),
                None => e,
            }),
        }
    }

    /// A location whose function libhiera does not have: the host's, or
    /// the error Puppet gives for a function it cannot find.
    fn host_location_lookup(
        &mut self,
        config: &HieraConfig,
        entry: &Entry,
        resolved: &ResolvedEntry,
        j: usize,
        lk: &LookupKey,
        default_hierarchy: bool,
    ) -> Result<LocationOutcome> {
        let Some(host) = self
            .function_host()
            .filter(|_| !takes_only_a_path(&entry.function_name))
        else {
            return Err(self.unsupported_function(config, entry));
        };
        let location = match &resolved.locations[j] {
            Location::Path(p, _) => Some(p.to_string_lossy()),
            Location::Uri(u) => Some(std::borrow::Cow::Borrowed(u.as_str())),
            Location::Nowhere => None,
        };
        let (layer, module) = self.site.clone();
        let mut call = HostCall::of_entry(
            entry,
            resolved.index,
            layer.kind(),
            module.as_deref(),
            default_hierarchy,
            resolved.options.as_ref(),
        );
        call.location = location.as_deref();
        match entry.function_kind {
            FunctionKind::DataHash | FunctionKind::V4DataHash => {
                let slot = &resolved.data[j];
                let data = match slot.get() {
                    Some(d) => d.clone(),
                    None => {
                        let d = match self.call_host(&*host.0, call, &lk.key)? {
                            None => None,
                            Some(Value::Hash(h)) => Some(h),
                            Some(other) => {
                                return Err(Error::new(
                                    ErrorKind::Type,
                                    format!(
                                        "Value returned from {}{} has wrong type, expects a Hash value, got {}",
                                        function_full_name(entry),
                                        location.as_deref().map(|l| format!(", when using location '{l}',")).unwrap_or_default(),
                                        crate::ptype::infer_type(&other)
                                    ),
                                ))
                            }
                        };
                        slot.get_or_init(|| d).clone()
                    }
                };
                let Some(data) = data else {
                    return Ok(LocationOutcome::NoKey);
                };
                let Some(value) = data.get(&Key(&lk.root)) else {
                    return Ok(LocationOutcome::NoKey);
                };
                let path = match &resolved.locations[j] {
                    Location::Path(p, _) => Some(p.clone()),
                    _ => None,
                };
                self.found_in_hash(entry, &lk.root, location.as_deref(), path.as_deref(), value)
            }
            FunctionKind::LookupKey => {
                call.key = Some(&lk.root);
                match self.call_host(&*host.0, call, &lk.key)? {
                    Some(v) => Ok(LocationOutcome::Found(self.checked_host_value(
                        entry,
                        &lk.root,
                        location.as_deref(),
                        v,
                    )?)),
                    None => Ok(LocationOutcome::NoKey),
                }
            }
            FunctionKind::DataDig | FunctionKind::Hiera3Backend => {
                call.key = Some(&lk.key);
                call.segments = Some(HostCall::segments_of(lk));
                match self.call_host(&*host.0, call, &lk.key)? {
                    Some(v) => {
                        let v = self.checked_host_value(entry, &lk.key, location.as_deref(), v)?;
                        Ok(LocationOutcome::Found(crate::host::undig(&lk.segments, v)?))
                    }
                    None => Ok(LocationOutcome::NoKey),
                }
            }
        }
    }

    /// A Hiera 3 backend level (`hiera3_backend`): one host call for the
    /// whole level, with the merge, as Puppet's `V3BackendFunctionProvider`
    /// calls the backend's `lookup`.
    fn host_backend_lookup(
        &mut self,
        config: &HieraConfig,
        entry: &Entry,
        resolved: &ResolvedEntry,
        lk: &LookupKey,
        strategy: &Strategy,
        default_hierarchy: bool,
    ) -> Result<Found> {
        let Some(host) = self.function_host() else {
            return Err(self.unsupported_function(config, entry));
        };
        let merge = strategy.to_value();
        let (layer, module) = self.site.clone();
        let mut call = HostCall::of_entry(
            entry,
            resolved.index,
            layer.kind(),
            module.as_deref(),
            default_hierarchy,
            resolved.options.as_ref(),
        );
        call.key = Some(&lk.key);
        call.segments = Some(HostCall::segments_of(lk));
        call.merge = merge.as_ref();
        match self.call_host(&*host.0, call, &lk.key)? {
            Some(v) => {
                let v = self.checked_host_value(entry, &lk.key, None, v)?;
                self.ex_value(|| format!("Found key: \"{}\" value: ", lk.key), &v);
                Ok(Some(crate::host::undig(&lk.segments, v)?))
            }
            None => Ok(None),
        }
    }

    /// The host, when it runs the functions libhiera does not have.
    fn function_host(&self) -> Option<HostRef> {
        self.hiera()
            .options
            .host
            .clone()
            .filter(|h| h.0.runs_functions())
    }

    /// Calls the host, outside any grown stack segment and with the
    /// thread's own stack checked, as nested lookups are: the host may look
    /// up again.
    /// The call carries the invocation as its [`crate::host::HostContext`]:
    /// the function may interpolate in the lookup's scope and explain.
    fn call_host(
        &mut self,
        host: &dyn crate::host::Host,
        call: HostCall<'_>,
        key: &str,
    ) -> Result<Option<Value>> {
        crate::stack::check_lookup(key)?;
        let _depth = crate::host::Depth::enter(self.limits(), key)?;
        let context = CallContext(std::cell::RefCell::new(self));
        let call = HostCall {
            context: Some(crate::host::ContextRef(&context)),
            ..call
        };
        host.call(&call)
    }

    /// What Puppet's `validate_data_value` checks of a function's value.
    fn checked_host_value(
        &self,
        entry: &Entry,
        key: &str,
        location: Option<&str>,
        v: Value,
    ) -> Result<Value> {
        if crate::ptype::is_rich_data(&v) {
            return Ok(v);
        }
        Err(Error::new(
            ErrorKind::Type,
            format!(
                "Value for key '{key}', returned from {} function '{}'{}, has wrong type, expects Puppet::LookupValue, got {}",
                entry.function_kind.key(),
                entry.function_name,
                location.map(|l| format!(", when using location '{l}',")).unwrap_or_default(),
                crate::ptype::infer_detailed(&v, true)
            ),
        ))
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
        let msg = format!(
            "Unable to find '{}' function named '{}'",
            entry.function_kind.key(),
            entry.function_name
        );
        match &config.path {
            Some(p) => Error::config(msg, p, None),
            None => Error::new(ErrorKind::Config, msg),
        }
    }

    /// `create_configured_data_providers`: interpolates datadirs, paths,
    /// globs, uris and mapped paths for the current scope.
    fn resolve_entries(
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
    fn interpolate_config(&mut self, config: &HieraConfig, s: &str) -> Result<String> {
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

    fn with_local<T>(&mut self, var: &str, value: Value, f: impl FnOnce(&mut Self) -> T) -> T {
        self.locals.push((var.to_string(), value));
        let r = f(self);
        self.locals.pop();
        r
    }

    /// A scope variable: overrides, local bindings, scope (and the
    /// `settings::` the engine knows); not the default values.
    fn variable(&self, written: &str) -> Option<Value> {
        let name = written.strip_prefix("::").unwrap_or(written);
        self.read(name);
        if let Some(v) = self.req.override_values.get(&Key(name)) {
            return Some(v.clone());
        }
        // Hiera::Scope#[] knows them by their bare names (`::calling_module`
        // is an ordinary, undefined, variable).
        if HIERA3_CALLING_KEYS.contains(&written) && self.in_hiera3_layer() {
            let calling = self
                .req
                .hiera3_variables
                .as_ref()
                .unwrap_or(&self.session.options.hiera3_variables);
            return match calling.get(&Key(name)) {
                Some(Value::String(s)) if s.is_empty() => Some(Value::Nil),
                Some(v) => Some(v.clone()),
                None => Some(Value::Nil),
            };
        }
        if let Some((_, v)) = self.locals.iter().rev().find(|(n, _)| n == name) {
            return Some(v.clone());
        }
        // `::x` is the top scope's x (Puppet's `lookup_qualified_variable`),
        // never a class's own.
        if written.starts_with("::") {
            return self.session_variable(name);
        }
        if self.req.local_variables.iter().any(|l| l == name) {
            return self.asked_variable(name, None);
        }
        if !name.contains("::") {
            let known = self.session.known_variables();
            if let Some(checked) = self.req.known_variables {
                let index = known.register(name);
                if index >= checked {
                    return self.unchecked_variable(name, index);
                }
            } else if !self.unregistered_noted.get() && known.index(name).is_none() {
                self.read(UNREGISTERED);
                self.unregistered_noted.set(true);
            }
        }
        self.session_variable(name)
    }

    /// A variable of a known-variables lookup that its host had not
    /// checked: the host's answer, for the lookup's scope. When it differs
    /// from the session's, the scope has its own: what read it is not kept.
    fn unchecked_variable(&self, name: &str, index: usize) -> Option<Value> {
        let theirs = self.asked_variable(name, Some(index));
        let ours = self.session_variable(name);
        if theirs != ours {
            self.read(VOLATILE);
        }
        theirs
    }

    /// A variable as the session has it (its scope, deferred and parent's
    /// variables, the settings the engine knows, the host's qualified
    /// variables).
    fn session_variable(&self, name: &str) -> Option<Value> {
        let session = self.session;
        if let Some(v) = session.scope.get(&Key(name)) {
            return Some(v.clone());
        }
        if let Some(slot) = session.deferred.get(name) {
            return slot.get_or_init(|| self.asked_variable(name, None)).clone();
        }
        if let Some(v) = session
            .parent
            .as_ref()
            .and_then(|p| p.scope.get(&Key(name)))
        {
            return Some(v.clone());
        }
        if let Some(setting) = name.strip_prefix("settings::") {
            let o = &self.session.hiera.options;
            let abs = |p: &Path| {
                std::path::absolute(p)
                    .unwrap_or_else(|_| p.to_path_buf())
                    .to_string_lossy()
                    .to_string()
            };
            match setting {
                "hiera_config" => return Some(Value::from(abs(&o.hiera_config))),
                "environmentpath" => return Some(Value::from(abs(&o.environmentpath))),
                "environment" => return Some(Value::from(o.environment.as_str())),
                "codedir" => return Some(Value::from(abs(&o.codedir))),
                _ => {}
            }
        }
        self.host_variable(name)
    }

    /// A qualified variable from the host, when it answers them. One it
    /// does not have may be defined later in the compile: what read it is
    /// not kept (the read [`VOLATILE`] says so).
    fn host_variable(&self, name: &str) -> Option<Value> {
        let options = &self.session.hiera.options;
        if !options.host_variables || !name.contains("::") {
            return None;
        }
        let found = self.asked_variable(name, None);
        if found.is_none() {
            self.read(VOLATILE);
        }
        found
    }

    /// A variable asked of the host, once per lookup: on the thread's own
    /// stack, with room left for the call. `index`: the name's number among
    /// the session's known variables, for a name the host has not checked.
    fn asked_variable(&self, name: &str, index: Option<usize>) -> Option<Value> {
        if let Some((_, v)) = self.asked.borrow().iter().find(|(n, _)| **n == *name) {
            return v.clone();
        }
        let host = self.session.hiera.options.host.as_ref()?;
        crate::stack::check_lookup(name).ok()?;
        let v = match index {
            Some(i) => host.0.scope_variable(name, i),
            None => host.0.variable(name),
        };
        self.asked.borrow_mut().push((Box::from(name), v.clone()));
        v
    }

    /// Puppet's `Scope#variable_not_found` for the scope expression root
    /// `root` (as written: `::x`, `a::b`): nothing for the variables that
    /// always exist, else a warning or (strict=error) an error, worded as
    /// Puppet words them. Puppet 8 only warns while it resolves a v5
    /// hierarchy's locations.
    fn undefined_variable(&mut self, root: &str) -> Result<()> {
        let Some((mut name, reason)) = undefined_variable_words(root) else {
            return Ok(());
        };
        if self.in_hiera3_layer() {
            // Hiera::Scope#safe_lookupvar names a variable as it was written.
            name = root.to_string();
        }
        let hiera = self.hiera();
        // Puppet's warn_once(UNDEFINED_VARIABLES_KIND, "Variable: <name>", message).
        let once = |message: String| {
            Warning::once("undefined_variables", format!("Variable: {name}"), message)
        };
        match hiera.options.strict() {
            Strict::Error
                if hiera.options.puppet >= 8 && self.config_part == ConfigPart::Locations =>
            {
                self.warn(once(format!(
                    "Interpolation failed with '{name}', but compilation continuing; {reason}"
                )));
            }
            // An ArgumentError in Puppet: no `Lookup of key` prefix.
            Strict::Error => {
                return Err(Error::new(
                    ErrorKind::Interpolation,
                    format!("Undefined variable '{name}'; {reason}"),
                ))
            }
            Strict::Warning => self.warn(once(format!("Undefined variable '{name}'; {reason}"))),
            Strict::Off => {}
        }
        Ok(())
    }

    /// Whether the hierarchy being searched is a Hiera 3 global one (its
    /// scope is Puppet's `Hiera::Scope`).
    fn in_hiera3_layer(&self) -> bool {
        self.site.0 == Layer::Global
            && self
                .session
                .configs()
                .global_config
                .get()
                .is_some_and(|c| c.version == 3)
    }

    /// Evaluates a scope expression (`facts.os.family`); undefined is nil.
    fn scope_expression(&mut self, expr: &str, subject: &str) -> Result<Value> {
        if self.explain.is_none() {
            if let Some(v) = self.plain_scope_expression(expr) {
                return Ok(v);
            }
        }
        let segments = split_key(expr).map_err(|_| {
            Error::new(
                ErrorKind::Lookup,
                format!("Syntax error in string: {subject}"),
            )
        })?;
        let root = segments[0].to_string();
        self.ex_push(|| "Global Scope".to_string());
        let mut found = self.variable(&root);
        if found.is_none() {
            // default_values_hash, by the root as written (`::x` is not `x`).
            let default = self.req.default_values_hash.get(&Key(&root)).cloned();
            // Puppet 7 asks the scope first (and complains) even when
            // default_values_hash has the variable; Puppet 8 does not.
            if default.is_none() || self.hiera().options.puppet < 8 {
                if let Err(e) = self.undefined_variable(&root) {
                    self.ex_pop();
                    return Err(e);
                }
            }
            found = default;
        }
        if let Some(v) = &found {
            self.ex_value(|| format!("Found key: \"{root}\" value: "), v);
        }
        self.ex_pop();
        let value = found.unwrap_or(Value::Nil);
        if value.is_nil() || segments.len() == 1 {
            return Ok(value);
        }
        if self.explain.is_some() {
            return Ok(self
                .explained_dig(expr, &segments[1..], value)?
                .unwrap_or(Value::Nil));
        }
        Ok(dig(expr, &segments[1..], value)?.unwrap_or(Value::Nil))
    }

    /// [`Invocation::scope_expression`] without allocating, for the usual
    /// expression: names and indexes separated by single dots, no quotes,
    /// no spaces, a defined root, every step found (`facts.os.family`).
    /// `None`: anything else (undefined, not found, an error to report),
    /// which the general code answers.
    fn plain_scope_expression(&self, expr: &str) -> Option<Value> {
        if expr.is_empty()
            || expr
                .bytes()
                .any(|b| matches!(b, b'\'' | b'"') || b.is_ascii_whitespace())
        {
            return None;
        }
        let mut parts = expr.split('.');
        let root = parts.next()?;
        if root.is_empty() || crate::key::index_segment(root).is_some() {
            return None;
        }
        let mut value = self.variable(root)?;
        for part in parts {
            if part.is_empty() {
                return None;
            }
            let next = match (&value, crate::key::index_segment(part)) {
                (Value::Hash(h), None) => h.get(&Key(part))?.clone(),
                (Value::Hash(h), Some(i)) => h.get(&Value::Int(i))?.clone(),
                (Value::Array(a), Some(i)) if i >= 0 => a.get(i as usize)?.clone(),
                _ => return None,
            };
            value = next;
        }
        Some(value)
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

    fn lookup_options_for(&mut self, lk: &LookupKey) -> Result<Option<Value>> {
        let module = lk.module();
        let compiled = match self
            .session
            .cached_options(module.unwrap_or(""))
            .filter(|(_, reads)| !self.refuses(reads))
        {
            Some((c, reads)) => {
                self.read_all(&reads);
                c
            }
            None => {
                let mark = self.reads_mark();
                self.ex_push(|| "Searching for \"lookup_options\"".to_string());
                let c = self.retrieve_lookup_options(module);
                self.ex_pop();
                let c = c?;
                // Options gathered while others are being gathered are partial.
                let reads = self.reads_since(mark);
                if self.options_busy.is_empty() && !self.req.hides(&reads) {
                    self.session
                        .keep_options(module.unwrap_or(""), c.clone(), reads);
                }
                c
            }
        };
        let Some(compiled) = compiled else {
            return Ok(None);
        };
        Ok(compiled.for_key(&lk.root)?.cloned())
    }

    fn options_lookup(
        &mut self,
        layer: Layer,
        module: Option<&str>,
        default_hierarchy: bool,
    ) -> Result<Found> {
        let lk = LookupKey::plain(Arc::from("lookup_options"));
        let hash = Strategy::new(StrategyKind::Hash);
        let busy = (layer, module.map(str::to_string));
        if !default_hierarchy && self.options_busy.contains(&busy) {
            return Ok(None);
        }
        self.options_busy.push(busy);
        let r = self.layer_lookup(
            layer,
            &lk,
            "lookup_options",
            module,
            &hash,
            default_hierarchy,
        );
        self.options_busy.pop();
        r
    }

    /// The global and environment lookup_options merged (global wins), once
    /// per session as Puppet does once per compilation; every module's
    /// options are merged under them.
    fn global_and_environment_options(&mut self) -> Result<Option<Value>> {
        let complete = self.options_busy.is_empty();
        if complete {
            if let Some((v, reads)) = self
                .session
                .cached_base_options()
                .filter(|(_, reads)| !self.refuses(reads))
            {
                self.read_all(reads);
                return Ok(v.clone());
            }
        }
        let mark = self.reads_mark();
        let global =
            validate_lookup_options(self.options_lookup(Layer::Global, None, false)?, None)?;
        let env_only =
            validate_lookup_options(self.options_lookup(Layer::Environment, None, false)?, None)?;
        let opts = match (global, env_only) {
            (None, e) => e,
            (g, None) => g,
            (g, e) => memoized(&self.hiera().base_options, &g, &e, || {
                let (Some(g), Some(e)) = (g.clone(), &e) else {
                    unreachable!()
                };
                Strategy::new(StrategyKind::Hash).merge(g, e).map(Some)
            })?,
        };
        let reads = self.reads_since(mark);
        if complete && !self.req.hides(&reads) {
            // Gathered with nothing else in progress: the whole answer.
            self.session.keep_base_options(opts.clone(), reads);
        }
        Ok(opts)
    }

    fn retrieve_lookup_options(
        &mut self,
        module: Option<&str>,
    ) -> Result<Option<Arc<CompiledOptions>>> {
        let hash = Strategy::new(StrategyKind::Hash);
        let mut opts = self.global_and_environment_options()?;
        if let Some(m) = module {
            if let Some(o) = &opts {
                // Puppet compiles the global and environment patterns (for
                // keys outside modules) before it reads the module's
                // options: a bad pattern there fails first.
                compile_patterns(self.hiera(), o)?;
            }
            let found = self.options_lookup(Layer::Module, Some(m), false)?;
            if matches!(found, Some(Value::Nil)) {
                // Puppet's `opts = if opts.nil? ... elsif module_opts ... end`:
                // a module whose lookup_options are found as nil leaves no
                // options at all for its keys (the global and environment
                // ones are dropped too).
                opts = None;
            }
            let module_opts = validate_lookup_options(found, Some(m))?;
            if self.explain.is_none() {
                // Sessions whose options come from the same files share
                // the merged, compiled options.
                let hiera = self.hiera();
                return memoized(&hiera.compiled_options, &opts, &module_opts, || {
                    let merged = match (&opts, &module_opts) {
                        (None, mo) => mo.clone(),
                        (o, None) => o.clone(),
                        (Some(o), Some(mo)) => Some(hash.merge(o.clone(), mo)?),
                    };
                    merged
                        .map(|o| compile_patterns(hiera, &o).map(Arc::new))
                        .transpose()
                });
            }
            opts = match (opts, module_opts) {
                (None, mo) => mo,
                (o, None) => o,
                (Some(o), Some(mo)) => {
                    let merged = hash.merge(o.clone(), &mo)?;
                    if let Some(ex) = &mut self.explain {
                        ex.push_merge("hash", &Map::default());
                        for (name, v) in [
                            ("Global and Environment".to_string(), &o),
                            (format!("Module {m}"), &mo),
                        ] {
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
        if self.explain.is_none() && module.is_none() {
            let hiera = self.hiera();
            return memoized(&hiera.compiled_options, &opts, &None, || {
                opts.as_ref()
                    .map(|o| compile_patterns(hiera, o).map(Arc::new))
                    .transpose()
            });
        }
        opts.map(|o| compile_patterns(self.hiera(), &o).map(Arc::new))
            .transpose()
    }

    /// Puppet's `--explain-options` alone: the key's lookup_options
    /// searched as data, a hash merge over the layers.
    fn only_options(&mut self, key: &str) -> Result<Found> {
        let module = LookupKey::parse(key)?.module().map(str::to_string);
        const LAYERS: [Layer; 3] = [Layer::Global, Layer::Environment, Layer::Module];
        let layers = if self.global_only { 1 } else { 3 };
        let hash = Strategy::new(StrategyKind::Hash);
        self.merged(&hash, layers, |inv, i| {
            inv.options_lookup(LAYERS[i], module.as_deref(), false)
        })
    }

    fn lookup_default_in_module(&mut self, lk: &LookupKey) -> Result<Found> {
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
                        return Err(Error::new(
                            ErrorKind::Lookup,
                            format!("all lookup_options keys must start with module name '{m}'"),
                        ));
                    }
                }
            }
            Ok(Some(v))
        }
        _ => Err(Error::new(
            ErrorKind::Lookup,
            "value of lookup_options must be a hash",
        )),
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

/// The invocation as a running host call sees it (Puppet's
/// `LookupContext`): interpolation in its scope, and its explanation.
struct CallContext<'i, 's>(std::cell::RefCell<&'i mut Invocation<'s>>);

impl crate::host::HostContext for CallContext<'_, '_> {
    fn interpolate(&self, value: &Value) -> Result<Value> {
        let mut inv = self.0.try_borrow_mut().map_err(|_| {
            Error::new(
                ErrorKind::Lookup,
                "the host function interpolated from inside an interpolation of its own call"
                    .to_string(),
            )
        })?;
        interpolate::interpolate(value, &mut **inv, true)
    }

    fn explain(&self, text: &str) {
        if let Ok(mut inv) = self.0.try_borrow_mut() {
            if let Some(ex) = &mut inv.explain {
                ex.text(text.to_string());
            }
        }
    }
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
        let limits = self.limits();
        limits.check_lookup_depth(self.depth, format_args!("the lookup of '{key}'"))?;
        limits.check_nested_lookups(self.nested, format_args!("the lookup of '{key}'"))?;
        crate::stack::check_lookup(key)?;
        self.nested += 1;
        self.depth += 1;
        let names = [key.to_string()];
        // A Hiera 3 global layer confines its lookups to the global layer
        // unless the environment has a data provider (Puppet's
        // GlobalDataProvider).
        let global_only = self.global_only;
        if !global_only && self.in_hiera3_layer() {
            self.global_only = self
                .layer_config(Layer::Environment, None)?
                .is_none_or(|c| c.version < 5);
        }
        let r = self.lookup_names(&names, None, Some(&Value::from("")));
        self.global_only = global_only;
        self.depth -= 1;
        let v = r?.unwrap_or_default();
        if matches!(v, Value::Array(_) | Value::Hash(_)) {
            let left = limits.nested_values.saturating_sub(self.nested_values);
            match limits::expanded_size(&v, left) {
                Some(n) => self.nested_values += n,
                None => {
                    return Err(limits::exceeded(
                        "nested_values",
                        limits.nested_values,
                        format_args!("the nested lookups of one lookup returned more than {} values, at the lookup of '{key}'", limits.nested_values),
                    ))
                }
            }
        }
        Ok(v)
    }

    fn produced(&mut self, bytes: usize, whole: bool) -> Result<()> {
        let limits = self.limits();
        limits.check_string_bytes(bytes)?;
        if whole {
            self.interpolated = self.interpolated.saturating_add(bytes);
            if self.interpolated > limits.interpolated_bytes {
                return Err(limits::exceeded(
                    "interpolated_bytes",
                    limits.interpolated_bytes,
                    format_args!(
                        "interpolation produced more than {} bytes for one lookup",
                        limits.interpolated_bytes
                    ),
                ));
            }
        }
        Ok(())
    }

    fn check(
        &mut self,
        name: String,
        f: &mut dyn FnMut(&mut Self) -> Result<Value>,
    ) -> Result<Value> {
        if self.stack.iter().any(|n| **n == *name) {
            return Err(self.recursion_error());
        }
        // Interpolations nest without lookups too (a scope variable whose
        // value names the next one): bounded like nested lookups.
        self.limits()
            .check_interpolation_depth(self.checks, format_args!("'{name}'"))?;
        crate::stack::check_lookup(&name)?;
        self.stack.push(Arc::from(name));
        self.checks += 1;
        let r = f(self);
        self.checks -= 1;
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
        Some(Value::Hash(h)) => h
            .iter()
            .all(|(k, v)| matches!(k, Value::String(_)) && crate::ptype::is_scalar(v)),
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
/// built-in `yaml_data`, `json_data` and `hocon_data`, and the libhiera gem's drop-in
/// `libhiera::yaml_data` and `libhiera::json_data`).
fn takes_only_a_path(function_name: &str) -> bool {
    matches!(
        function_name,
        "yaml_data" | "json_data" | "hocon_data" | "libhiera::yaml_data" | "libhiera::json_data"
    )
}

/// The data format of a `data_hash` function libhiera reads itself:
/// Puppet's `yaml_data`, `json_data` and `hocon_data`, the libhiera gem's
/// `libhiera::yaml_data` and `libhiera::json_data` (the same functions,
/// read through libhiera when Puppet calls them), and `libhiera::data_hash`
/// (the level's `format` option, `yaml` or `json`, else by the file's
/// extension: `.json` is JSON, anything else YAML). `None` for other
/// functions.
fn builtin_format(
    kind: FunctionKind,
    name: &str,
    options: Option<&Value>,
    path: &Path,
) -> Option<DataFormat> {
    if kind != FunctionKind::DataHash {
        return None;
    }
    match name {
        "yaml_data" | "libhiera::yaml_data" => Some(DataFormat::Yaml),
        "json_data" | "libhiera::json_data" => Some(DataFormat::Json),
        "hocon_data" => Some(DataFormat::Hocon),
        "libhiera::data_hash" => {
            let options = options.and_then(Value::as_hash);
            // The function takes `format` and nothing else.
            if options.is_some_and(|o| o.keys().any(|k| k.as_str() != Some("format"))) {
                return None;
            }
            let format = options
                .and_then(|o| o.get(&Value::from("format")))
                .and_then(Value::as_str);
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

/// How Puppet's messages name an entry's `data_hash` function
/// (`FunctionProvider#full_name`).
fn function_full_name(entry: &Entry) -> String {
    match entry.function_kind {
        FunctionKind::V4DataHash => format!("deprecated API function '{}'", entry.function_name),
        kind => format!("{} function '{}'", kind.key(), entry.function_name),
    }
}

/// Puppet's message when `lookup()` finds nothing and has no default.
pub fn not_found_message(names: &[String]) -> String {
    if names.len() == 1 {
        format!(
            "Function lookup() did not find a value for the name '{}'",
            names[0]
        )
    } else {
        let list: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
        format!(
            "Function lookup() did not find a value for any of the names [{}]",
            list.join(", ")
        )
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
        let (r, ex) = self.explanation(req, false);
        (r, ex.text())
    }

    /// [`Session::explain`]'s explanation, to render as text or JSON. With
    /// `only_options` it is `puppet lookup --explain-options` without
    /// `--explain`: how the first key's lookup_options are found (Puppet's
    /// `__global__` when there is no key), and nothing else looked up.
    pub fn explanation(
        &self,
        req: &LookupRequest,
        only_options: bool,
    ) -> (Result<Option<Value>>, Explanation) {
        let mut inv = Invocation::new(self, req);
        inv.explain = Some(Explainer::default());
        let r = match check_merge_argument(req.merge.as_ref()) {
            Err(e) => Err(e),
            Ok(()) if only_options => {
                let key = req.keys.first().map_or("__global__", String::as_str);
                inv.only_options(key).map(|_| Some(Value::Nil))
            }
            Ok(()) => inv.lookup_names(&req.keys, req.merge.as_ref(), req.default.as_ref()),
        };
        let mut ex = inv.explain.take().unwrap_or_default();
        match &r {
            Err(e) => ex.line(e.message.clone()),
            Ok(None) => ex.line(not_found_message(&req.keys)),
            Ok(Some(_)) => {}
        }
        (r, ex.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_defaults_to_the_puppet_versions() {
        let o = |strict, puppet| {
            Options {
                strict,
                puppet,
                ..Options::default()
            }
            .strict()
        };
        assert_eq!(o(None, 7), Strict::Warning);
        assert_eq!(o(None, 8), Strict::Error);
        assert_eq!(o(Some(Strict::Off), 8), Strict::Off);
        assert_eq!(o(Some(Strict::Error), 7), Strict::Error);
        let e = Hiera::open(Options {
            puppet: 6,
            ..Options::default()
        })
        .err()
        .unwrap();
        assert_eq!(
            (e.kind, e.message.as_str()),
            (ErrorKind::InvalidArgument, "puppet must be 7 or 8, not 6")
        );
    }

    #[test]
    fn a_default_values_hash_entry_excuses_an_undefined_variable_in_puppet_8_only() {
        let dir = std::env::temp_dir().join(format!("libhiera-dvh-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("data")).unwrap();
        std::fs::write(dir.join("hiera.yaml"), "version: 5\n").unwrap();
        std::fs::write(dir.join("data/common.yaml"), "k: \"<%{x}>\"\n").unwrap();
        let run = |strict, puppet| {
            let options = Options {
                hiera_config: dir.join("hiera.yaml"),
                environmentpath: dir.clone(),
                strict,
                puppet,
                ..Options::default()
            };
            let session = Session::new(Arc::new(Hiera::open(options).unwrap()), Map::default());
            let mut defaults = Map::default();
            defaults.insert("x".into(), "d".into());
            let req = LookupRequest {
                keys: vec!["k".into()],
                default_values_hash: defaults,
                ..Default::default()
            };
            let (r, warnings) = session.lookup_with_warnings(&req);
            (
                r.map(|v| v.and_then(|v| v.as_str().map(str::to_string)))
                    .map_err(|e| e.message),
                warnings,
            )
        };
        // Puppet 7 asks the scope first: an error, or a warning and then the default.
        assert_eq!(
            run(Some(Strict::Error), 7),
            (Err("Undefined variable 'x'; ".into()), vec![])
        );
        assert_eq!(
            run(None, 7),
            (
                Ok(Some("<d>".into())),
                vec!["Undefined variable 'x'; ".into()]
            )
        );
        // Puppet 8 catches the undefined variable when there is a default.
        assert_eq!(run(None, 8), (Ok(Some("<d>".into())), vec![]));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn undefined_variable_warnings_are_puppets_warn_once() {
        let dir = std::env::temp_dir().join(format!("libhiera-warn-once-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("data")).unwrap();
        std::fs::write(dir.join("hiera.yaml"), "version: 5\nhierarchy:\n  - name: n\n    path: \"n/%{nope}.yaml\"\n  - name: c\n    path: common.yaml\n").unwrap();
        std::fs::write(dir.join("data/common.yaml"), "k: \"<%{::x}>\"\n").unwrap();
        let warned = |puppet: u8, strict: Strict| {
            let options = Options {
                hiera_config: dir.join("hiera.yaml"),
                environmentpath: dir.clone(),
                strict: Some(strict),
                puppet,
                ..Options::default()
            };
            let session = Session::new(Arc::new(Hiera::open(options).unwrap()), Map::default());
            session.lookup_warned(&LookupRequest::key("k")).1
        };
        // Each kind of warning keyed by the variable's name, as Puppet's scope keys it.
        let w = warned(7, Strict::Warning);
        assert_eq!(
            w.iter()
                .map(|w| (w.kind, w.key.as_str()))
                .collect::<Vec<_>>(),
            [
                (Some("undefined_variables"), "Variable: nope"),
                (Some("undefined_variables"), "Variable: ::x")
            ]
        );
        let w = warned(8, Strict::Error);
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!(
            (w[0].kind, w[0].key.as_str()),
            (Some("undefined_variables"), "Variable: nope")
        );
        assert!(
            w[0].message
                .starts_with("Interpolation failed with 'nope', but compilation continuing"),
            "{w:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn undefined_variables_are_worded_as_puppet_words_them() {
        let w = |root: &str| undefined_variable_words(root).map(|(n, r)| format!("{n}|{r}"));
        assert_eq!(w("x").as_deref(), Some("x|"));
        assert_eq!(w("::x").as_deref(), Some("::x|"));
        assert_eq!(
            w("a::x").as_deref(),
            Some("a::x|class a could not be found")
        );
        assert_eq!(
            w("::a::b::x").as_deref(),
            Some("a::b::x|class a::b could not be found")
        );
        assert_eq!(w("settings::x").as_deref(), Some("::settings::x|"));
        assert_eq!(
            w("::caller_module_name").as_deref(),
            Some("::caller_module_name|")
        );
        assert_eq!(w("01").as_deref(), Some("01|"));
        for always in ["module_name", "caller_module_name", "0", "7", "12"] {
            assert_eq!(w(always), None, "{always}");
        }
    }

    #[test]
    fn config_lines_are_found_as_puppet_finds_them() {
        let dir = std::env::temp_dir().join(format!("libhiera-find-line-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("hiera.yaml");
        let text = "version: 5\n# path: \"%{x}\"\npath: \"a#%{x}\"\npath: \"%{'x'}/%{y.z}\"\nglob: \"%{::x}\"\n";
        std::fs::write(&path, text).unwrap();
        // A comment, then text after any `#` (quoted or not), are cut off.
        assert_eq!(find_line_matching(&path, "x"), Some(4));
        assert_eq!(find_line_matching(&path, "::x"), Some(5));
        // A dotted expression's root does not match `%{y.z}`.
        assert_eq!(find_line_matching(&path, "y"), None);
        // The name is a regexp, as Puppet interpolates it into one.
        assert_eq!(find_line_matching(&path, "."), Some(4));
        let e = config_undefined_variable(
            Error::new(ErrorKind::Interpolation, "Undefined variable '::x'; "),
            &HieraConfig {
                path: Some(path.clone()),
                ..HieraConfig::implicit_default(&dir)
            },
        );
        assert_eq!(
            e.message,
            format!(
                "Undefined variable '::x' (file: {}, line: 5)",
                path.display()
            )
        );
        assert_eq!(e.kind, ErrorKind::Config);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
