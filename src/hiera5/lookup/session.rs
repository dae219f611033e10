//! [`Session`]: a [`Hiera`] bound to one scope, the caches that depend only
//! on it, overlay sessions, and the entry points of a lookup.

use super::*;
use crate::error::{Error, ErrorKind, Result};
use crate::hiera5::config::{Entry, HieraConfig};
use crate::hiera5::explain::{Explainer, Explanation};
use crate::hiera5::known_variables::KnownVariables;
use crate::host::Warning;
use crate::value::{Key, Map, Value};
use std::sync::{Arc, OnceLock};

/// A scope bound to a [`Hiera`]: the node's variables and the caches that
/// depend only on them. `Send + Sync`: many threads may look up at once.
///
/// A session is what a catalog compilation is to Puppet: the first lookup
/// that needs a hiera.yaml, a resolved hierarchy, a data file or the merged
/// lookup_options reads it (through the shared file cache, which re-reads
/// changed files) and the session keeps it. Later lookups in the same
/// session see that snapshot; a new session sees files as they are then.
pub struct Session {
    pub(super) hiera: Arc<Hiera>,
    /// The variables this session was given: the whole scope, or for an
    /// overlay session the variables it adds to its parent's.
    pub(super) scope: Map,
    pub(super) options: SessionOptions,
    /// An overlay session's parent (never itself an overlay): the session
    /// whose variables it sees under its own, and whose caches it shares.
    pub(super) parent: Option<Arc<Session>>,
    /// An overlay session's variables whose values differ from its
    /// parent's: whatever read none of them is the same in both sessions,
    /// and is kept in (and taken from) the parent's caches.
    pub(super) changed: Box<[Box<str>]>,
    /// An overlay's variables whose values the host gives when first read
    /// (`None` inside: the host has no such variable).
    pub(super) deferred: FastMap<Box<str>, OnceLock<Option<Value>>>,
    /// Everything the session keeps (finished lookups, resolved
    /// hierarchies, lookup_options, configurations, the quick path's
    /// plans), one shelf per kind: see [`Store`].
    pub(super) store: Store,
    /// The variable names the host has been asked about (shared with
    /// overlays: the parent's is used).
    pub(super) known: KnownVariables,
}

impl Drop for Session {
    // A top session leaves the room its store needed to the next one
    // (`StoreSizes`).
    fn drop(&mut self) {
        if self.parent.is_none() {
            self.store.note_sizes(&self.hiera.store_sizes);
        }
    }
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
pub(super) const HIERA3_CALLING_KEYS: [&str; 3] =
    ["calling_class", "calling_class_path", "calling_module"];

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

    pub(super) fn make(
        hiera: Arc<Hiera>,
        scope: Map,
        options: SessionOptions,
        parent: Option<Arc<Session>>,
        changed: Box<[Box<str>]>,
    ) -> Session {
        // A top session's store has the room the last one's needed (an
        // overlay keeps little: most of it goes to its parent).
        let store = match parent {
            None => {
                // A new snapshot: every change made before it is seen.
                hiera.cache.refresh();
                Store::sized(&hiera.store_sizes)
            }
            Some(_) => Store::default(),
        };
        Session {
            hiera,
            scope,
            options,
            parent,
            changed,
            deferred: FastMap::default(),
            store,
            known: KnownVariables::default(),
        }
    }

    /// The variable names the hosts of this session's lookups have been
    /// asked about (an overlay's parent's).
    pub(super) fn known_variables(&self) -> &KnownVariables {
        self.parent.as_ref().map_or(&self.known, |p| &p.known)
    }

    /// The hierarchy of `config` this session searches: the default
    /// hierarchy, the plan hierarchy for plans, else the hierarchy.
    pub(super) fn entries<'c>(
        &self,
        config: &'c HieraConfig,
        default_hierarchy: bool,
    ) -> &'c [Entry] {
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
        self.warn_host(self.lookup_warned(req))
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
    pub(super) fn lookup_warned(
        &self,
        req: &LookupRequest,
    ) -> (Result<Option<Value>>, Vec<Warning>) {
        self.lookup_warned_asked(req, &mut Asked::new())
    }

    /// [`Session::lookup_warned`], the host's answers about the scope's
    /// variables taken from `asked` and added to it (a batch's, `batch`).
    pub(super) fn lookup_warned_asked(
        &self,
        req: &LookupRequest,
        asked: &mut Asked,
    ) -> (Result<Option<Value>>, Vec<Warning>) {
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
        if let Ok((found, warnings)) = self.quick_lookup(req, asked) {
            return (Ok(found.or_else(|| req.default.clone())), warnings);
        }
        self.general_lookup(req, asked)
    }

    /// The general path's lookup of a request (after the quick path
    /// declined it).
    fn general_lookup(
        &self,
        req: &LookupRequest,
        asked: &mut Asked,
    ) -> (Result<Option<Value>>, Vec<Warning>) {
        if let Err(e) = check_merge_argument(req.merge.as_ref()) {
            return (Err(e), Vec::new());
        }
        let mut inv = Invocation::new(self, req);
        *inv.asked.get_mut() = std::mem::take(asked);
        let r = inv.lookup_names(&req.keys, req.merge.as_ref(), req.default.as_ref());
        let r = r.map_err(|e| match e.kind {
            ErrorKind::Limit => e.prefixed(&req.keys.join(", ")),
            _ => e,
        });
        *asked = inv.asked.take();
        (r, inv.warnings)
    }
}

/// The request of no names and no options that [`Session::lookup_key`]
/// gives the quick path: made once, where a request made and dropped per
/// lookup cost ~90 instructions (callgrind, c-json on `flat`).
fn no_request() -> &'static LookupRequest {
    static NONE: OnceLock<LookupRequest> = OnceLock::new();
    NONE.get_or_init(LookupRequest::default)
}

impl Session {
    /// Looks up one key with Puppet's defaults (first found, no default).
    ///
    /// The key is borrowed: the quick path is asked it first with a request
    /// of no names and no options (the quick path reads nothing else of a
    /// request but its names, which it is given one by one), and only when
    /// it declines is a [`LookupRequest`] made for the general path, as
    /// [`Session::lookup`] would have been asked it. The answer and the
    /// warnings are [`Session::lookup`]'s.
    pub fn lookup_key(&self, key: &str) -> Result<Option<Value>> {
        self.warn_host(self.lookup_key_warned(key))
    }

    /// A lookup's result, its warnings given to the host's `warn` (when
    /// there is a host).
    fn warn_host(
        &self,
        (r, warnings): (Result<Option<Value>>, Vec<Warning>),
    ) -> Result<Option<Value>> {
        if let Some(host) = &self.hiera.options.host {
            for w in &warnings {
                host.0.warn(w);
            }
        }
        r
    }

    /// [`Session::lookup_key`] and the warnings Puppet would log.
    pub(super) fn lookup_key_warned(&self, key: &str) -> (Result<Option<Value>>, Vec<Warning>) {
        let none = no_request();
        let mut asked = Asked::new();
        let mut warnings = Vec::new();
        let quick = match self.quick_key(none, key, &mut warnings, &mut asked) {
            // The key's lookup_options may name its merge (as
            // `quick_lookup` does for a request of this one name).
            Err(Decline::Options) => self.quick_merge(none, key, None),
            quick => quick,
        };
        match quick {
            Ok(found) => (Ok(found), warnings),
            // What `lookup_warned_asked` does when the quick path declines
            // (the host's answers kept, the quick path's warnings not; a
            // request of one name without options or variables needs none
            // of its checks before the quick path).
            Err(_) => self.general_lookup(&LookupRequest::key(key), &mut asked),
        }
    }

    /// The data hashes of every file the hierarchies of one layer reach for
    /// this session's scope (global and environment layers when `module` is
    /// `None`, else that module's layer), in hierarchy order, default
    /// hierarchies included: read through the session's resolved
    /// hierarchies and the file cache, as lookups read them. Locations
    /// that a host function or a Hiera 3 backend answers are not files
    /// libhiera reads, and are left out. Used by [`crate::hiera5::all_keys`].
    pub(crate) fn layer_data(&self, module: Option<&str>) -> Result<Vec<Map>> {
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
