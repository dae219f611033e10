//! The quick path: a lookup answered from what the general path already
//! resolved and indexed in this session (the same snapshot, searched in the
//! same order), or `None` for the general path to answer.

use super::*;
use crate::hiera5::config::HieraConfig;
use crate::hiera5::interpolate;
use crate::hiera5::key::LookupKey;
use crate::host::Warning;
use crate::value::Key;
use std::sync::Arc;

/// The global and environment layers as the quick path searches them.
pub(super) struct QuickBase {
    pub(super) global: Option<Arc<ResolvedHierarchy>>,
    pub(super) env: Option<Arc<ResolvedHierarchy>>,
}

impl QuickBase {
    pub(super) fn layers(&self) -> impl Iterator<Item = &Arc<ResolvedHierarchy>> {
        self.global.iter().chain(self.env.iter())
    }
}

/// One module namespace as the quick path searches it.
pub(super) struct QuickModule {
    /// The merged lookup_options for the namespace's keys.
    pub(super) options: Option<Arc<CompiledOptions>>,
    /// The module layer (None: no module data for these keys).
    pub(super) layer: Option<Arc<ResolvedHierarchy>>,
    /// The module has a default hierarchy (searched when nothing is found).
    pub(super) default_hierarchy: bool,
    /// The variables its options read.
    pub(super) options_reads: Reads,
}

/// What [`Session::quick_layer`] makes of a layer's configuration.
pub(super) enum QuickLayer {
    /// Not resolved or indexed yet in this session.
    NotYet,
    /// Never searchable by the quick path (no index can be built).
    Never,
    /// Searchable (None: the layer has nothing to search).
    Ready(Option<Arc<ResolvedHierarchy>>),
}

impl Session {
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
    /// `asked`: what the host answered about the scope's variables
    /// ([`Asked`]), used and added to.
    pub(super) fn quick_lookup(
        &self,
        req: &LookupRequest,
        asked: &mut Asked,
    ) -> Option<(Found, Vec<Warning>)> {
        if req.keys.is_empty()
            || req.merge.is_some()
            || !req.override_values.is_empty()
            || !req.default_values_hash.is_empty()
        {
            return None;
        }
        let mut warnings = Vec::new();
        for name in &req.keys {
            if let Some(v) = self.quick_key(req, name, &mut warnings, asked)? {
                return Some((Some(v), warnings));
            }
        }
        Some((None, warnings))
    }

    /// One name of [`Session::quick_lookup`]: `Some(found)`, or `None` when
    /// the general path must answer.
    pub(super) fn quick_key(
        &self,
        req: &LookupRequest,
        name: &str,
        warnings: &mut Vec<Warning>,
        asked: &mut Asked,
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
        let module = crate::hiera5::key::module_of(root);
        let base = match self.quick_base.get() {
            Some(b) => b,
            None => {
                let b = self.quick_base_now()?;
                self.quick_base.get_or_init(|| b)
            }
        };
        let namespace = module.unwrap_or("");
        let cached = self.quick_modules.lock().get(namespace).cloned();
        let quick = match cached {
            Some(q) => q?,
            None => {
                let q = self.quick_module_now(module)?;
                self.quick_modules
                    .lock()
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
            if !crate::hiera5::ptype::is_rich_data(value) {
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
            *inv.asked.get_mut() = std::mem::take(asked);
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
            let interpolated_value = interpolate::interpolate(value, &mut inv, true);
            *asked = inv.asked.take();
            found = Some(interpolated_value.ok()?);
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
    pub(super) fn quick_base_now(&self) -> Option<QuickBase> {
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
    pub(super) fn quick_module_now(
        &self,
        module: Option<&str>,
    ) -> Option<Option<Arc<QuickModule>>> {
        let (options, options_reads) = self.cached_options(module.unwrap_or(""))?;
        let config = match module {
            Some(m) => self.configs().module_configs.lock().get(m)?.clone(),
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
    pub(super) fn quick_layer(&self, config: Option<&Arc<HieraConfig>>) -> QuickLayer {
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
}
