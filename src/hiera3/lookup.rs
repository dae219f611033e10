//! The standalone Hiera 3 lookup: `Hiera#lookup(key, default, scope,
//! order_override, resolution_type)` with the yaml and json backends.
//!
//! * The key is split with Hiera 3's splitter (`Syntax error in key: a..b`);
//!   a dotted key only works with priority resolution (`Resolution type
//!   :hash is illegal when accessing values using dotted keys. Offending key
//!   was 'a.b'`). Each backend is asked for the root key and the rest is dug
//!   into its answer; a miss there moves on to the next backend.
//! * Backends are queried in `:backends` order. Within a backend the
//!   sources are read in order: priority stops at the first file that has
//!   the key (a `nil` value counts); `:array` collects Strings and Arrays
//!   (anything else is `Hiera type mismatch for key 'k': expected Array and
//!   got Integer`); `:hash` merges Hashes with `merge_answer`. Across
//!   backends the same happens with each backend's answer.
//! * A found answer is returned (even `nil`); otherwise a String default is
//!   interpolated (and if that gives `nil` the raw default is returned),
//!   another default is returned as it is.
//! * Every value read is interpolated (`parse_answer`), and so are the
//!   hierarchy entries and datadirs (`interpolate_config`, whose recursion
//!   guard is shared by the lookups that `%{hiera()}` in hiera.yaml makes).
//! * A relative datadir (and config path) is relative to the working
//!   directory given at [`Hiera3::open`]; messages name paths as the gem
//!   builds them.

use super::backend::{lookup_in, BackendKind, FileCache};
use super::config::{Config, DEFAULT_DATADIR};
use super::interpolate::{interpolate, parse_answer, Context, Lookup, NoLookup};
use super::key::{qualified_lookup, split_key};
use super::merge::{merge_answer, resolve_answer, ResolutionType, Strategy};
use super::sources::{datafile, is_bad_source, with_override};
use crate::error::{Error, ErrorKind, Result};
use crate::ruby::errors::{no_implicit_conversion, no_method};
use crate::value::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A Hiera 3 instance: a configuration and the backends' file caches.
/// `Send + Sync`; lookups may run on several threads.
#[derive(Debug)]
pub struct Hiera3 {
    config: Config,
    cwd: Option<PathBuf>,
    /// `Backend.@backends`: one file cache per backend as written.
    caches: Mutex<HashMap<Value, Arc<Mutex<FileCache>>>>,
}

impl Hiera3 {
    /// `Hiera.new(config: path)`. Relative paths (the config's and the
    /// datadirs') are taken relative to `cwd`, or to the process's working
    /// directory when `cwd` is `None`.
    pub fn open(config: &Path, cwd: Option<&Path>) -> Result<Hiera3> {
        Ok(Hiera3::new(
            Config::load(config, cwd)?,
            cwd.map(Path::to_path_buf),
        ))
    }

    /// An instance for an already loaded configuration.
    pub fn new(config: Config, cwd: Option<PathBuf>) -> Hiera3 {
        Hiera3 {
            config,
            cwd,
            caches: Mutex::default(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// `Backend.clear!`: forgets the backends and their file caches.
    pub fn clear(&self) {
        self.caches
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// `Hiera#lookup`. `default: None` means no default: `Ok(None)` is then
    /// "not found". `scope` is the variables (a Hash).
    pub fn lookup(
        &self,
        key: &str,
        default: Option<&Value>,
        scope: &Value,
        order_override: Option<&Value>,
        resolution_type: &ResolutionType,
    ) -> Result<Option<Value>> {
        self.lookup_hosted(
            key,
            default,
            scope,
            order_override,
            resolution_type,
            &Context::default(),
            None,
            &mut NoLookup,
            false,
        )
    }

    /// `Hiera#lookup` with a host: `host` provides the scope variables if
    /// it holds the scope ([`Lookup::scope_variable`]), and answers the
    /// nested `hiera()`/`alias()` lookups itself when `delegate` is true
    /// (otherwise this instance answers them, as [`Hiera3::lookup`] does).
    /// `context` is the interpolation context of the lookup (its
    /// `order_override` and recursion guard); `cwd`, when given, is the
    /// working directory of this lookup (a host whose idea of it is not the
    /// process's, as JRuby's `Dir.chdir`).
    #[allow(clippy::too_many_arguments)]
    pub fn lookup_hosted(
        &self,
        key: &str,
        default: Option<&Value>,
        scope: &Value,
        order_override: Option<&Value>,
        resolution_type: &ResolutionType,
        context: &Context,
        cwd: Option<&Path>,
        host: &mut dyn Lookup,
        delegate: bool,
    ) -> Result<Option<Value>> {
        let mut run = Run {
            h: self,
            cwd,
            config_ctx: None,
            host: Some(host),
            delegate,
        };
        run.lookup(
            key,
            default,
            scope,
            order_override.cloned(),
            resolution_type,
            context,
        )
    }

    /// One backend's `lookup(key, scope, order_override, resolution_type,
    /// context)`, as the gem's yaml and json backends answer it: `backend`
    /// is the backend as `:backends` names it (`yaml`, `JSON`, ...; the
    /// file cache is kept per name), `key` the root key as the gem passes
    /// it (a String; `nil` for the empty key). `Ok(None)` is
    /// `throw :no_such_key`.
    ///
    /// `config_context` is the gem's `@config_lookup_context` when the
    /// lookup runs inside the interpolation of a hiera.yaml entry (the
    /// hierarchy and datadir are then interpolated with it, sharing its
    /// guard). `host` answers `hiera()`/`alias()` (the gem's
    /// `Backend.lookup` over every backend) and may hold the scope. `cwd`
    /// as for [`Hiera3::lookup_hosted`].
    #[allow(clippy::too_many_arguments)]
    pub fn backend_lookup(
        &self,
        backend: &str,
        key: &Value,
        scope: &Value,
        order_override: Option<&Value>,
        resolution_type: &ResolutionType,
        context: &Context,
        config_context: Option<&Context>,
        cwd: Option<&Path>,
        host: &mut dyn Lookup,
    ) -> Result<Option<Value>> {
        let kind = match backend.to_lowercase().as_str() {
            "yaml" => BackendKind::Yaml,
            "json" => BackendKind::Json,
            other => {
                return Err(Error::new(
                    ErrorKind::Config,
                    format!("Cannot load backend {backend}: cannot load such file -- hiera/backend/{other}_backend"),
                ))
            }
        };
        let mut run = Run {
            h: self,
            cwd,
            config_ctx: config_context.cloned(),
            host: Some(host),
            delegate: true,
        };
        run.backend_lookup(
            &Value::from(backend),
            kind,
            key,
            scope,
            order_override,
            resolution_type,
            context,
        )
    }

    /// `Backend.datasources(scope, order_override)`: the sources a lookup
    /// reads, in order (interpolated, bad definitions left out).
    pub fn datasources(&self, scope: &Value, order_override: Option<&Value>) -> Result<Vec<Value>> {
        let mut run = Run {
            h: self,
            cwd: None,
            config_ctx: None,
            host: None,
            delegate: false,
        };
        let mut out = Vec::new();
        for entry in with_override(self.config.hierarchy(), order_override) {
            let source = run.interpolate_config(&entry, scope, order_override)?;
            if !is_bad_source(&source) {
                out.push(source);
            }
        }
        Ok(out)
    }

    /// `Backend.datadir(backend, scope)`, interpolated.
    pub fn datadir(&self, backend: BackendKind, scope: &Value) -> Result<String> {
        Run {
            h: self,
            cwd: None,
            config_ctx: None,
            host: None,
            delegate: false,
        }
        .datadir(backend, scope)
    }

    fn cache(&self, backend: &Value) -> Arc<Mutex<FileCache>> {
        let mut caches = self.caches.lock().unwrap_or_else(|e| e.into_inner());
        caches.entry(backend.clone()).or_default().clone()
    }

    fn on_disk(&self, shown: &str) -> PathBuf {
        match &self.cwd {
            Some(dir) if Path::new(shown).is_relative() => dir.join(shown),
            _ => PathBuf::from(shown),
        }
    }
}

/// One top-level lookup: `@config_lookup_context` lives here.
struct Run<'a> {
    h: &'a Hiera3,
    /// The working directory relative paths are taken from, when the
    /// caller gives one for this lookup (else the instance's).
    cwd: Option<&'a Path>,
    config_ctx: Option<Context>,
    /// Holds the scope (if it says so) and, with `delegate`, answers the
    /// nested lookups.
    host: Option<&'a mut dyn Lookup>,
    delegate: bool,
}

fn truthy(v: Option<Value>) -> Option<Value> {
    v.filter(Value::is_truthy)
}

fn type_mismatch(key: &str, expected: &str, got: &Value) -> Error {
    Error::new(
        ErrorKind::Type,
        format!(
            "Hiera type mismatch for key '{key}': expected {expected} and got {}",
            got.ruby_class()
        ),
    )
}

/// Adds a found value to the answer as `:array` and `:hash` do; `true`
/// when the search is over (priority).
fn accumulate(
    answer: &mut Value,
    new: Value,
    key: &str,
    resolution_type: &ResolutionType,
    config: &Config,
) -> Result<bool> {
    match resolution_type.strategy() {
        Strategy::Array => {
            if !matches!(new, Value::Array(_) | Value::String(_) | Value::Bytes(_)) {
                return Err(type_mismatch(key, "Array", &new));
            }
            let mut list = match std::mem::take(answer) {
                Value::Array(a) => a.into_vec(),
                _ => Vec::new(),
            };
            list.push(new);
            *answer = Value::array(list);
            Ok(false)
        }
        Strategy::Hash => {
            if !matches!(new, Value::Hash(_)) {
                return Err(type_mismatch(key, "Hash", &new));
            }
            let old = match std::mem::take(answer) {
                Value::Nil => Value::empty_hash(),
                other => other,
            };
            *answer = merge_answer(new, old, resolution_type, config)?;
            Ok(false)
        }
        Strategy::Priority => {
            *answer = new;
            Ok(true)
        }
    }
}

impl Run<'_> {
    /// `Backend.lookup(key, default, scope, order_override, resolution_type, context)`.
    fn lookup(
        &mut self,
        key: &str,
        default: Option<&Value>,
        scope: &Value,
        order_override: Option<Value>,
        resolution_type: &ResolutionType,
        context: &Context,
    ) -> Result<Option<Value>> {
        let mut context = context.clone();
        let order_override =
            truthy(order_override).or_else(|| truthy(context.order_override.clone()));
        if truthy(context.order_override.clone()).is_none() {
            context.order_override = order_override.clone();
        }
        let strategy = resolution_type.strategy();
        let segments = split_key(key)
            .ok_or_else(|| Error::new(ErrorKind::Lookup, format!("Syntax error in key: {key}")))?;
        if segments.len() > 1 && strategy != Strategy::Priority {
            return Err(Error::new(
                ErrorKind::Lookup,
                format!(
                    "Resolution type :{} is illegal when accessing values using dotted keys. Offending key was '{key}'",
                    strategy.name()
                ),
            ));
        }
        let root = segments
            .first()
            .map(|s| Value::from(s.as_str()))
            .unwrap_or_default();
        let config = &self.h.config;
        let mut answer = Value::Nil;
        let mut found = false;
        for (name, kind) in config.backends() {
            let new = self.backend_lookup(
                name,
                *kind,
                &root,
                scope,
                order_override.as_ref(),
                resolution_type,
                &context,
            )?;
            let new = match new {
                Some(v) if segments.len() > 1 => qualified_lookup(&segments[1..], &v, Some(key))?,
                other => other,
            };
            let Some(new) = new else { continue };
            found = true;
            if accumulate(&mut answer, new, key, resolution_type, config)? {
                break;
            }
        }
        if !answer.is_nil() {
            answer = resolve_answer(answer, strategy);
        }
        if !found {
            if let Some(d @ (Value::String(_) | Value::Bytes(_))) = default {
                answer = interpolate(d, scope, &Value::empty_hash(), &context, self)?;
            }
            if answer.is_nil() {
                return Ok(default.cloned());
            }
        }
        Ok(Some(answer))
    }

    /// A backend's `lookup(key, scope, order_override, resolution_type,
    /// context)`; `Ok(None)` is `throw :no_such_key`.
    #[allow(clippy::too_many_arguments)]
    fn backend_lookup(
        &mut self,
        name: &Value,
        kind: BackendKind,
        key: &Value,
        scope: &Value,
        order_override: Option<&Value>,
        resolution_type: &ResolutionType,
        context: &Context,
    ) -> Result<Option<Value>> {
        let cache = self.h.cache(name);
        let key_text = key.as_str().unwrap_or("").to_string();
        // The yaml backend finds its datadir before the sources; the json
        // backend finds it again for each source.
        let yaml_datadir = match kind {
            BackendKind::Yaml => Some(self.datadir(kind, scope)?),
            BackendKind::Json => None,
        };
        let mut answer = Value::Nil;
        let mut found = false;
        for entry in with_override(self.h.config.hierarchy(), order_override) {
            let source = self.interpolate_config(&entry, scope, order_override)?;
            if is_bad_source(&source) {
                continue;
            }
            let dir = match &yaml_datadir {
                Some(d) => d.clone(),
                None => self.datadir(kind, scope)?,
            };
            let shown = datafile(&dir, &source, kind.name());
            let on_disk = match self.cwd {
                Some(dir) if Path::new(&shown).is_relative() => dir.join(&shown),
                _ => self.h.on_disk(&shown),
            };
            if std::fs::metadata(&on_disk).is_err() {
                continue;
            }
            let data = cache
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .read_file(&shown, &on_disk, kind)?;
            let Some(raw) = lookup_in(&data, key)? else {
                continue;
            };
            found = true;
            let new = parse_answer(&raw, scope, &Value::empty_hash(), context, self)?;
            if accumulate(&mut answer, new, &key_text, resolution_type, &self.h.config)? {
                break;
            }
        }
        Ok(found.then_some(answer))
    }

    /// `Backend.datadir(backend, scope)`.
    fn datadir(&mut self, kind: BackendKind, scope: &Value) -> Result<String> {
        let dir = match self.h.config.get(kind.name()) {
            None | Some(Value::Nil) | Some(Value::Bool(false)) => None,
            Some(Value::Hash(h)) => h
                .get(&Value::Symbol("datadir".into()))
                .filter(|v| v.is_truthy())
                .cloned(),
            Some(
                Value::String(_)
                | Value::Bytes(_)
                | Value::Symbol(_)
                | Value::Array(_)
                | Value::Int(_)
                | Value::BigInt(_),
            ) => {
                return Err(no_implicit_conversion(
                    &Value::Symbol("datadir".into()),
                    "Integer",
                ))
            }
            Some(other) => return Err(no_method("[]", other)),
        };
        let dir = dir.unwrap_or_else(|| Value::from(DEFAULT_DATADIR));
        if !matches!(dir, Value::String(_) | Value::Bytes(_)) {
            return Err(Error::new(
                ErrorKind::Config,
                format!("datadir for {} cannot be an array", kind.name()),
            ));
        }
        match self.interpolate_config(&dir, scope, None)? {
            Value::String(s) => Ok(s.to_string()),
            Value::Bytes(b) => Ok(String::from_utf8_lossy(&b).into_owned()),
            other => Err(no_implicit_conversion(&other, "String")),
        }
    }

    /// `Backend.interpolate_config(entry, scope, override)`: a top-level
    /// call gets a fresh config context (and guard); calls made while one
    /// is active (through `%{hiera()}` in hiera.yaml) share it.
    fn interpolate_config(
        &mut self,
        entry: &Value,
        scope: &Value,
        order_override: Option<&Value>,
    ) -> Result<Value> {
        let order_override = order_override.cloned();
        match &self.config_ctx {
            Some(active) => {
                let mut ctx = active.clone();
                ctx.order_override = order_override;
                interpolate(entry, scope, &Value::empty_hash(), &ctx, self)
            }
            None => {
                let ctx = Context::for_config(order_override);
                self.config_ctx = Some(ctx.clone());
                let r = interpolate(entry, scope, &Value::empty_hash(), &ctx, self);
                self.config_ctx = None;
                r
            }
        }
    }
}

impl Lookup for Run<'_> {
    fn lookup(&mut self, key: &str, scope: &Value, context: &Context) -> Result<Option<Value>> {
        if self.delegate {
            if let Some(host) = self.host.as_mut() {
                return host.lookup(key, scope, context);
            }
        }
        let order_override = context.order_override.clone();
        Run::lookup(
            self,
            key,
            None,
            scope,
            order_override,
            &ResolutionType::Priority,
            context,
        )
    }

    fn scope_variable(&mut self, name: &str) -> Option<Result<Option<Value>>> {
        self.host.as_mut()?.scope_variable(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Map;

    fn setup(name: &str, files: &[(&str, &str)]) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("libhiera-h3lookup-{name}-{}", std::process::id()));
        for (path, text) in files {
            let p = dir.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        dir
    }

    fn scope(pairs: &[(&str, &str)]) -> Value {
        Value::hash(
            pairs
                .iter()
                .map(|(k, v)| (Value::from(*k), Value::from(*v)))
                .collect::<Map>(),
        )
    }

    #[test]
    fn relative_datadir_is_relative_to_cwd() {
        let dir = setup(
            "cwd",
            &[
                (
                    "hiera.yaml",
                    ":hierarchy: [\"%{role}\", common]\n:yaml:\n  :datadir: data\n",
                ),
                ("data/common.yaml", "k: common\nl: [c]\n"),
                ("data/web.yaml", "l: [w]\n"),
            ],
        );
        let h = Hiera3::open(Path::new("hiera.yaml"), Some(&dir)).unwrap();
        let s = scope(&[("role", "web")]);
        assert_eq!(
            h.lookup("k", None, &s, None, &ResolutionType::Priority)
                .unwrap(),
            Some(Value::from("common"))
        );
        let l = h
            .lookup("l", None, &s, None, &ResolutionType::Array)
            .unwrap()
            .unwrap();
        assert_eq!(crate::render::to_json(&l), r#"["w","c"]"#);
        assert_eq!(
            h.lookup("nope", None, &s, None, &ResolutionType::Priority)
                .unwrap(),
            None
        );
        assert_eq!(
            h.datasources(&s, Some(&Value::from("first"))).unwrap(),
            vec![
                Value::from("first"),
                Value::from("web"),
                Value::from("common")
            ]
        );
        assert_eq!(h.datadir(BackendKind::Yaml, &s).unwrap(), "data");
        assert_eq!(
            h.datadir(BackendKind::Json, &s).unwrap(),
            "/etc/puppet/environments//hieradata"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn clear_forgets_the_file_caches() {
        let dir = setup(
            "clear",
            &[
                (
                    "hiera.yaml",
                    ":hierarchy: [common]\n:yaml:\n  :datadir: data\n",
                ),
                ("data/common.yaml", "k: [\n"),
            ],
        );
        let h = Hiera3::open(Path::new("hiera.yaml"), Some(&dir)).unwrap();
        let s = Value::empty_hash();
        let first = h
            .lookup("k", None, &s, None, &ResolutionType::Priority)
            .unwrap_err();
        assert!(
            first.message.starts_with("(<unknown>)"),
            "{}",
            first.message
        );
        // the gem's cache keeps nil for the failed file
        let second = h
            .lookup("k", None, &s, None, &ResolutionType::Priority)
            .unwrap_err();
        assert_eq!(second.message, "undefined method `empty?' for nil:NilClass");
        h.clear();
        assert_eq!(
            h.lookup("k", None, &s, None, &ResolutionType::Priority)
                .unwrap_err(),
            first
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn shared_between_threads() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Hiera3>();
    }
}
