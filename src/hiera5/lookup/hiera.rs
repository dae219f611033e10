//! [`Hiera`]: an opened configuration (its options, the file cache, the
//! memo of merged lookup_options), `Send + Sync` and shared by threads.

use super::*;
use crate::data::FileCache;
use crate::error::{Error, ErrorKind, Result};
use crate::hiera5::config::{HieraConfig, LayerKind};
use crate::hiera5::modulepath::is_module_name;
use crate::host::Warning;
use crate::rubyre::Pattern;
use crate::value::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
    /// Learn of changed files from the kernel instead of `stat`ing each
    /// file once a session (on by default; Linux only). A session still
    /// sees every change made before it started, as with a `stat` of each
    /// file: an inotify watch on each directory the files' paths go
    /// through, and on each file, reports every change to the names read
    /// there and to the files, and a new session reads those reports first
    /// (one `poll`), then `stat`s again only after a change. Files on
    /// filesystems another machine, layer or rollback can change (NFS, SMB,
    /// FUSE, overlayfs, ZFS, ...) and files bind-mounted into place are
    /// `stat`ed each session as before. One watcher serves the process;
    /// `HIERA_WATCH_FILES=0` in the environment turns it off for every
    /// configuration. (A change made through a shared memory mapping is
    /// seen by neither way; a process that changes its root between
    /// sessions must open a new `Hiera`.)
    pub watch_files: bool,
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
    /// it (see [`crate::hiera5::modulepath`]). Relative directories are taken from
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
    /// Ask the host ([`Options::host`], [`crate::host::Host::top_variable`])
    /// for the plain variables a session's scope does not have, once per
    /// session (an overlay's own and deferred variables come first): a
    /// session may then be made with an empty scope and read a catalog
    /// compile's top-scope variables from the host as its lookups name
    /// them, without the whole scope crossing into the engine. Off by
    /// default (such a variable is then undefined).
    pub host_scope: bool,
    /// The working directory: relative `basemodulepath` and `modulepath`
    /// directories, and the relative key paths of eyaml levels
    /// (`pkcs7_private_key`, `pkcs7_public_key`: Puppet leaves them to the
    /// process's working directory), are taken from it. `None` (the
    /// default): the process's working directory when the configuration is
    /// opened.
    pub working_directory: Option<PathBuf>,
    /// Puppet's `environment_data_provider` setting (puppet.conf, deprecated):
    /// the Puppet 4 data provider of an environment whose environment.conf
    /// does not name one (see [`crate::hiera5::data_provider`]). `None` (the
    /// default): none.
    pub environment_data_provider: Option<String>,
    /// Hierarchy functions libhiera has itself (`yaml_data`, `json_data`,
    /// `hocon_data`, `eyaml_lookup_key`, the gem's `libhiera::yaml_data`,
    /// `libhiera::json_data` and `libhiera::data_hash`) that the host runs
    /// instead, by name: a level naming one calls [`Options::host`] as a
    /// custom function's level does. For a host whose own function answers
    /// otherwise, as a Puppet without a HOCON library, whose `hocon_data`
    /// fails with its own error ("Lookup using Hocon data_hash function is
    /// not supported without hocon library"). Empty (the default): libhiera
    /// answers all of them. Any other name fails [`Hiera::open`]
    /// ([`OWN_FUNCTIONS`]).
    pub host_functions: Vec<String>,
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
            watch_files: true,
            limits: crate::limits::Limits::default(),
            basemodulepath: Vec::new(),
            modulepath: None,
            confine: false,
            host: None,
            codedir: PathBuf::from("/etc/puppet/code"),
            host_variables: false,
            host_scope: false,
            working_directory: None,
            environment_data_provider: None,
            host_functions: Vec::new(),
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
    pub(super) options: Options,
    pub(super) env_dir: Option<PathBuf>,
    /// The environment.conf's `environment_data_provider` (see
    /// [`crate::hiera5::data_provider`]).
    pub(super) env_data_provider: Option<crate::hiera5::data_provider::Setting>,
    /// The effective modulepath (absolute directories, in order).
    pub(super) modulepath: Vec<PathBuf>,
    pub(super) cache: FileCache,
    /// Key indexes of resolved hierarchies, shared by sessions.
    pub(super) indexes: IndexCache,
    /// Resolved hierarchies shared by sessions whose scopes give the same
    /// values to what the resolution read.
    pub(super) resolutions: ResolutionCache,
    /// Module namespaces as sessions adopted them, for the sessions after.
    pub(super) namespaces: NamespaceTable,
    /// lookup_options patterns compiled once (a `Regex` clone is cheap).
    /// (Shared behind an `Arc` so that every session uses the same pool of
    /// matching caches instead of warming its own.)
    pub(super) regexes: Kept<String, Arc<Pattern>>,
    /// Global and environment lookup_options merged, by the identity of the
    /// two hashes (held, so that their addresses stay unique).
    pub(super) base_options: OptionsMemo<Option<Value>>,
    /// Compiled lookup_options by the identity of the base options and a
    /// module's options (held likewise): sessions share them.
    pub(super) compiled_options: OptionsMemo<Option<Arc<CompiledOptions>>>,
    /// eyaml levels' keys, read once per configuration.
    pub(super) eyaml: crate::eyaml::Eyaml,
    /// The room a new top session's store is made with (what the last
    /// one kept).
    pub(super) store_sizes: super::cache::StoreSizes,
}

/// A result computed from two lookup_options hashes, with the hashes.
pub(super) type PinnedOptions<T> = (Option<Value>, Option<Value>, T);

/// Results computed from two lookup_options hashes, by their identities.
pub(super) type OptionsMemo<T> = Kept<(usize, usize), PinnedOptions<T>>;

/// The most entries kept in each options memo; past it the memo starts
/// over (changed files leave their old entries behind, and this bounds them).
pub(super) const OPTIONS_MEMO_LIMIT: usize = 4096;

/// The identity of a lookup_options hash (its allocation; 0 for an empty
/// one, which has none); `None` for anything that is not a hash.
pub(super) fn options_identity(v: &Option<Value>) -> Option<usize> {
    match v {
        // Not an address (those are aligned): apart from an empty hash.
        None => Some(1),
        Some(Value::Hash(h)) => Some(h.addr()),
        Some(_) => None,
    }
}

/// Looks up `key` in a memo, or computes, keeps and returns the value.
pub(super) fn memoized<T: Clone>(
    memo: &OptionsMemo<T>,
    a: &Option<Value>,
    b: &Option<Value>,
    compute: impl FnOnce() -> Result<T>,
) -> Result<T> {
    let (Some(ia), Some(ib)) = (options_identity(a), options_identity(b)) else {
        return compute();
    };
    if let Some((_, _, v)) = memo.lock().get(&(ia, ib)) {
        return Ok(v.clone());
    }
    let v = compute()?;
    let mut memo = memo.lock();
    if memo.len() >= OPTIONS_MEMO_LIMIT {
        memo.clear();
    }
    memo.insert((ia, ib), (a.clone(), b.clone(), v.clone()));
    Ok(v)
}

/// The hierarchy functions libhiera runs itself, which
/// [`Options::host_functions`] may hand to the host.
pub const OWN_FUNCTIONS: [&str; 7] = [
    "yaml_data",
    "json_data",
    "hocon_data",
    crate::eyaml::FUNCTION,
    "libhiera::yaml_data",
    "libhiera::json_data",
    "libhiera::data_hash",
];

impl Hiera {
    /// Whether the host runs the function of `entry`'s level in place of
    /// libhiera's own (its name is in [`Options::host_functions`]).
    pub(super) fn host_runs(&self, entry: &crate::hiera5::config::Entry) -> bool {
        let names = &self.options.host_functions;
        !names.is_empty() && names.contains(&entry.function_name)
    }

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
        if let Some(name) = options
            .host_functions
            .iter()
            .find(|n| !OWN_FUNCTIONS.contains(&n.as_str()))
        {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!(
                    "host_functions: '{name}' is not a function libhiera runs itself (one of {})",
                    OWN_FUNCTIONS.join(", ")
                ),
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
            None => crate::hiera5::modulepath::working_directory()?,
        };
        let expand = |dirs: &mut Vec<PathBuf>| {
            dirs.iter_mut()
                .for_each(|d| *d = crate::hiera5::modulepath::expand_path(d, &cwd))
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
        let modulepath = crate::hiera5::modulepath::resolve(
            options.modulepath.as_deref(),
            &options.basemodulepath,
            env_dir.as_deref(),
            &cwd,
        )?;
        let env_data_provider = match &env_dir {
            // environment.conf's, else Puppet's setting (its default).
            Some(dir) => crate::hiera5::data_provider::environment_setting(dir)?.or_else(|| {
                options
                    .environment_data_provider
                    .as_deref()
                    .map(crate::hiera5::data_provider::Setting::of_setting)
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
            resolutions: ResolutionCache::default(),
            namespaces: NamespaceTable::default(),
            regexes: Kept::default(),
            base_options: Kept::default(),
            compiled_options: Kept::default(),
            eyaml: crate::eyaml::Eyaml::new(cwd),
            store_sizes: Default::default(),
        })
    }

    /// A lookup_options pattern, compiled once per configuration.
    pub(super) fn regex(&self, src: &str) -> Result<Arc<Pattern>> {
        if let Some(re) = self.regexes.lock().get(src) {
            return Ok(Arc::clone(re));
        }
        let re = Arc::new(Pattern::new(src)?);
        self.regexes.lock().insert(src.to_string(), re.clone());
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

    pub(super) fn global_config(&self) -> Result<Arc<HieraConfig>> {
        let path = &self.options.hiera_config;
        // One `stat` (a global config is never ignored: `None` is a
        // missing file).
        match self.cache.config_if_exists(path, LayerKind::Global)? {
            Some(c) => Ok(c),
            None => {
                let root = path.parent().map(Path::to_path_buf).unwrap_or_default();
                Ok(Arc::new(HieraConfig::implicit_default(&root)))
            }
        }
    }

    /// The environment layer's configuration: its hiera.yaml, or what its
    /// `environment_data_provider` makes (see [`crate::hiera5::data_provider`]).
    pub(super) fn env_config(
        &self,
        warnings: &mut Vec<Warning>,
    ) -> Result<Option<Arc<HieraConfig>>> {
        let Some(dir) = &self.env_dir else {
            return Ok(None);
        };
        crate::hiera5::data_provider::environment_layer(
            &self.cache,
            self.options.strict(),
            dir,
            &self.options.environment,
            self.env_data_provider.as_ref(),
            warnings,
        )
    }

    /// The effective modulepath: the directories searched for modules, in
    /// order (absolute; see [`crate::hiera5::modulepath`]).
    pub fn modulepath(&self) -> &[PathBuf] {
        &self.modulepath
    }

    /// The module's directory: in the first modulepath directory that has
    /// a directory of that name (through the file cache's `stat`s), if its
    /// metadata.json does not make Puppet drop the module.
    pub(super) fn module_dir(&self, name: &str) -> Option<PathBuf> {
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
    /// [`crate::hiera5::data_provider`]). The
    /// module is the first one in the modulepath, with or without a
    /// hiera.yaml: a later one of the same name is never consulted. In the
    /// last directory one `stat` of the file answers both questions (a
    /// missing module directory is a missing file): with the default
    /// modulepath of one directory, that is the only `stat`. Sessions keep
    /// the answer, so this runs once per module and session.
    pub(super) fn module_config(
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
        let setting = provider.map(|v| crate::hiera5::data_provider::Setting::of_json(&v));
        crate::hiera5::data_provider::module_layer(
            &self.cache,
            self.options.strict(),
            &dir,
            name,
            setting.as_ref(),
            warnings,
        )
    }
}
