//! What the host runs for the engine: the hierarchy levels whose data
//! provider function libhiera does not have (a custom `data_hash`,
//! `lookup_key` or `data_dig` function, a Hiera 3 backend, a Puppet 4
//! `function` data provider's `environment::data` or `<module>::data`), and
//! the warnings Puppet would log.
//!
//! The engine calls the host on the thread that looks up, during the
//! lookup, with no lock held and never on a grown stack segment (see
//! [`crate::stack`]): the host may look up again from inside a call (a
//! function that interpolates). Each call is one of Puppet's own function
//! calls, with what Puppet's function API gives the function:
//!
//! | kind | called | with | answers |
//! |---|---|---|---|
//! | `data_hash` | once per location and session | the location | the location's whole hash |
//! | `lookup_key` | per key and location | the root key, the location | the key's value |
//! | `data_dig` | per key and location | the key's segments, the location | the value of the whole dotted key |
//! | `hiera3_backend` | per key, once for the level | the whole key, the merge | the level's value of the whole key |
//! | `v4_data_hash` | once per session | nothing (no location, no options) | the layer's whole hash |
//!
//! `v4_data_hash` is a Puppet 4 `function` data provider (see
//! [`crate::hiera5::data_provider`]): environment.conf's `environment_data_provider
//! = function` (layer `environment`, function `environment::data`) or a
//! module's metadata.json `"data_provider": "function"` (layer `module`,
//! function `<module>::data`); its one entry is `Legacy function
//! '<function>'` at index 0. The host calls the function without arguments
//! (Puppet's `V4DataHashFunctionProvider`), as Puppet calls it once per
//! compilation; Puppet's own provider also drops (with a warning) a
//! module's keys outside its namespace. A host without it answers the
//! error Puppet gives for a function it cannot find: `Unable to find
//! 'v4_data_hash' function named 'environment::data'`.
//!
//! With [`crate::Options::host_variables`], the host also answers the
//! qualified variables (`ntp::params::servers`) a session does not have,
//! as Puppet's scope does: the variables of the classes evaluated so far;
//! and for a lookup with [`crate::LookupRequest::known_variables`], the
//! plain variables its scope may give itself ([`Host::scope_variable`]).
//! With [`crate::Options::host_scope`], it answers the plain variables a
//! session's scope does not have, once per session ([`Host::top_variable`]):
//! a compile's top scope read by name, never sent whole.
//!
//! The engine then treats the answer as Puppet's provider treats the
//! function's result: a `data_hash` value is checked and interpolated, the
//! others are taken as they are; a dug value is put back under its key
//! (Puppet's `LookupKey#undig`) so that the lookup digs it out again.

use crate::error::{Error, ErrorKind, Result};
use crate::hiera5::config::{FunctionKind, LayerKind};
use crate::hiera5::key::Segment;
use crate::render::to_json;
use crate::value::{Map, Value};
use std::fmt;
use std::sync::Arc;

/// One call of a hierarchy function the engine does not have.
#[derive(Debug)]
pub struct HostCall<'a> {
    /// Which function API: `data_hash`, `lookup_key`, `data_dig`,
    /// `hiera3_backend` or `v4_data_hash`.
    pub kind: FunctionKind,
    /// The function's name as hiera.yaml gives it (the backend's name for
    /// `hiera3_backend`).
    pub function: &'a str,
    /// The layer of the configuration.
    pub layer: LayerKind,
    /// The module, in the module layer.
    pub module: Option<&'a str>,
    /// The hierarchy entry's name.
    pub entry: &'a str,
    /// The entry's position in its hierarchy (from 0).
    pub index: usize,
    /// Whether the entry is in a module's `default_hierarchy`.
    pub default_hierarchy: bool,
    /// The location (a path or a URI), or `None` for an entry without one.
    pub location: Option<&'a str>,
    /// The entry's interpolated `options` (without the location).
    pub options: Option<&'a Value>,
    /// The key: the root key (`lookup_key`), the whole dotted key
    /// (`data_dig`, `hiera3_backend`); `None` for `data_hash` and
    /// `v4_data_hash`.
    pub key: Option<&'a str>,
    /// The key's segments (`data_dig`): the root key then each subkey
    /// (Integers for indexes).
    pub segments: Option<Vec<Value>>,
    /// The merge (`hiera3_backend`): the request's merge value, or `None`
    /// for the first found.
    pub merge: Option<&'a Value>,
    /// What the function may ask of the lookup that calls it while the call
    /// runs (Puppet's `LookupContext#interpolate` and `#explain`); set by
    /// the engine when it makes the call.
    pub context: Option<ContextRef<'a>>,
}

/// What a running host call may ask of the lookup that made it, as
/// Puppet's `LookupContext` gives a hierarchy function: interpolation in the
/// lookup's scope and a line of its explanation. Valid only during
/// [`Host::call`], on the thread that runs it.
pub trait HostContext {
    /// Interpolates `value` (its strings, in hashes and arrays too) as
    /// `context.interpolate(value)` does: in the scope of the lookup, with
    /// the `lookup`/`hiera`/`alias`/`literal` methods; the lookup's limits
    /// bound it.
    fn interpolate(&self, value: &Value) -> Result<Value>;

    /// Adds `text` to the lookup's explanation, as
    /// `context.explain { text }` does; nothing when the lookup is not
    /// explained.
    fn explain(&self, text: &str);
}

/// A [`HostContext`] as a [`HostCall`] carries it.
#[derive(Clone, Copy)]
pub struct ContextRef<'a>(pub &'a dyn HostContext);

impl fmt::Debug for ContextRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ContextRef(..)")
    }
}

impl<'a> HostCall<'a> {
    /// A call of hierarchy entry `entry` (at `index`, of `layer` and
    /// `module`), with its interpolated `options`; the location, key,
    /// segments and merge are set by the caller.
    pub fn of_entry(
        entry: &'a crate::hiera5::config::Entry,
        index: usize,
        layer: LayerKind,
        module: Option<&'a str>,
        default_hierarchy: bool,
        options: Option<&'a Value>,
    ) -> HostCall<'a> {
        HostCall {
            kind: entry.function_kind,
            function: &entry.function_name,
            layer,
            module,
            entry: &entry.name,
            index,
            default_hierarchy,
            location: None,
            options,
            key: None,
            segments: None,
            merge: None,
            context: None,
        }
    }

    /// The segments of a key as a call gives them: the root, then each
    /// subkey (Integers for indexes).
    pub fn segments_of(key: &crate::hiera5::key::LookupKey) -> Vec<Value> {
        std::iter::once(Value::string(&*key.root))
            .chain(key.segments.iter().map(Segment::to_value))
            .collect()
    }

    /// The call as the JSON object the C ABI hands the host:
    /// `{"kind", "function", "layer", "module"?, "entry", "index",
    /// "default_hierarchy", "location"?, "options"?, "key"?, "segments"?,
    /// "merge"?}` (wire JSON).
    pub fn to_json(&self) -> String {
        let mut m = Map::default();
        let mut put = |k: &str, v: Value| {
            m.insert(Value::from(k), v);
        };
        put("kind", Value::from(self.kind.key()));
        put("function", Value::from(self.function));
        put(
            "layer",
            Value::from(match self.layer {
                LayerKind::Global => "global",
                LayerKind::Environment => "environment",
                LayerKind::Module => "module",
            }),
        );
        if let Some(module) = self.module {
            put("module", Value::from(module));
        }
        put("entry", Value::from(self.entry));
        put("index", Value::Int(self.index as i64));
        put("default_hierarchy", Value::Bool(self.default_hierarchy));
        if let Some(location) = self.location {
            put("location", Value::from(location));
        }
        if let Some(options) = self.options {
            put("options", options.clone());
        }
        if let Some(key) = self.key {
            put("key", Value::from(key));
        }
        if let Some(segments) = &self.segments {
            put("segments", Value::array(segments.clone()));
        }
        if let Some(merge) = self.merge {
            put("merge", merge.clone());
        }
        to_json(&Value::hash(m))
    }
}

/// A warning Puppet would log during a lookup, as Puppet logs it: with
/// `Puppet.warning(message)`, or, when it has a `kind`, once per `key`
/// with `Puppet.warn_once(kind, key, message, file, line)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// The message.
    pub message: String,
    /// Puppet's `warn_once` kind (`undefined_variables`, `deprecations`,
    /// `hiera_v3_at_env_root`, `hiera_v3_at_module_root`), or `None` for a
    /// warning logged each time.
    pub kind: Option<&'static str>,
    /// What makes a `warn_once` warning unique.
    pub key: String,
    /// The file the warning is about.
    pub file: Option<std::path::PathBuf>,
    /// Its line.
    pub line: Option<usize>,
}

impl Warning {
    /// A warning logged each time.
    pub fn plain(message: String) -> Warning {
        Warning {
            key: message.clone(),
            message,
            kind: None,
            file: None,
            line: None,
        }
    }

    /// A warning logged once per `key` (Puppet's `warn_once(kind, key,
    /// message)`).
    pub fn once(kind: &'static str, key: String, message: String) -> Warning {
        Warning {
            message,
            kind: Some(kind),
            key,
            file: None,
            line: None,
        }
    }

    /// The warning as the JSON object the C ABI hands the host:
    /// `{"message", "kind"?, "key"?, "file"?, "line"?}`.
    pub fn to_json(&self) -> String {
        let mut m = Map::default();
        m.insert(Value::from("message"), Value::from(self.message.as_str()));
        if let Some(kind) = self.kind {
            m.insert(Value::from("kind"), Value::from(kind));
            m.insert(Value::from("key"), Value::from(self.key.as_str()));
        }
        if let Some(file) = &self.file {
            m.insert(
                Value::from("file"),
                Value::from(file.to_string_lossy().as_ref()),
            );
        }
        if let Some(line) = self.line {
            m.insert(Value::from("line"), Value::Int(line as i64));
        }
        to_json(&Value::hash(m))
    }
}

/// What the host provides. Implementations must be callable from any
/// thread that looks up, and re-entrantly.
pub trait Host: Send + Sync {
    /// Runs the function: `Ok(Some(value))`, `Ok(None)` for not found
    /// (Puppet's `context.not_found`, or a `data_hash` location that gives
    /// nothing), or an error that fails the lookup.
    fn call(&self, call: &HostCall<'_>) -> Result<Option<Value>>;

    /// Whether [`Host::call`] runs functions at all (a host may only take
    /// warnings; functions are then "not found" errors, as without one).
    fn runs_functions(&self) -> bool {
        true
    }

    /// A warning Puppet would log (an undefined variable, a data file that
    /// is not a hash, an ignored hiera.yaml).
    fn warn(&self, warning: &Warning);

    /// A qualified variable the session does not have (`ntp::params::servers`,
    /// a class's variable, as Puppet's `Scope#lookupvar` finds it), asked
    /// only when [`crate::Options::host_variables`] is set: `Some(value)`,
    /// or `None` when the host has no such variable (it is then undefined,
    /// and what read it is not kept: it may be defined later). By default:
    /// none.
    fn variable(&self, _name: &str) -> Option<Value> {
        None
    }

    /// A plain variable as the scope of the lookup that reads it sees it
    /// (its own, or the top scope's), asked during a lookup that gives
    /// [`crate::LookupRequest::known_variables`] when the name is not among
    /// the names its host has checked; `index` is the name's number among
    /// the session's known variables ([`crate::hiera5::known_variables`]), so that
    /// the host checks it next time. `None`: the scope has no such
    /// variable. By default: [`Host::variable`].
    fn scope_variable(&self, name: &str, _index: usize) -> Option<Value> {
        self.variable(name)
    }

    /// A plain variable of the session's own scope (a catalog compile's
    /// top scope) that the session was not given, asked only when
    /// [`crate::Options::host_scope`] is set, at most once per session
    /// (the answer is kept for the session and its overlays):
    /// `Some(value)`, or `None` when there is no such variable (it is then
    /// undefined for the session: a variable the scope gains later goes to
    /// an overlay). By default: none.
    fn top_variable(&self, _name: &str) -> Option<Value> {
        None
    }
}

/// A host, as [`crate::Options`] holds it.
#[derive(Clone)]
pub struct HostRef(pub Arc<dyn Host>);

impl fmt::Debug for HostRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("HostRef(..)")
    }
}

/// Puts a value found for a dotted key back under its subkeys, as Puppet's
/// `LookupKey#undig` does: for `a.b.1`, `v` gives `{"b" => [nil, v]}` (the
/// root's value; the lookup digs `v` out again). A negative index fails as
/// Ruby's `Array#[]=` does.
pub fn undig(subkeys: &[Segment], value: Value) -> Result<Value> {
    let mut v = value;
    for segment in subkeys.iter().rev() {
        v = match segment {
            Segment::Name(name) => {
                let mut m = Map::default();
                m.insert(Value::string(name.as_str()), v);
                Value::hash(m)
            }
            Segment::Index(i) if *i >= 0 => {
                let mut list = vec![Value::Nil; *i as usize];
                list.push(v);
                Value::array(list)
            }
            Segment::Index(i) => {
                return Err(Error::new(
                    ErrorKind::Lookup,
                    format!("index {i} too small for array; minimum: 0"),
                ));
            }
        };
    }
    Ok(v)
}

thread_local! {
    /// How many host calls are running on this thread (one inside another
    /// when a function looks up again).
    static DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A running host call, counted on its thread: the calls that look up
/// again are bounded by `lookup_depth` as nested lookups are.
pub(crate) struct Depth(());

impl Depth {
    pub(crate) fn enter(limits: &crate::limits::Limits, key: &str) -> Result<Depth> {
        let depth = DEPTH.with(|d| d.get());
        limits.check_lookup_depth(depth, format_args!("the host function call for '{key}'"))?;
        DEPTH.with(|d| d.set(depth + 1));
        Ok(Depth(()))
    }
}

impl Drop for Depth {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
}
