//! [`SearchPlan`]: where a key of one module namespace is looked up, in
//! order (the global, environment and module layers' resolved hierarchies
//! and their key indexes), with what the plan read; and [`Decline`], why
//! the quick path leaves a lookup to the general one.
//!
//! The general path resolves each layer's hierarchy and builds its key
//! index ([`ResolvedHierarchy`], `hierarchy`), keeping them in the
//! session's [`Store`]; a plan is gathered from those entries, once per
//! session and namespace, when every step is ready. Both paths find a
//! key's locations through [`KeyIndex`] hits ([`index_hits`]) and a hit's data
//! through [`ResolvedHierarchy::hit_data`].

use super::*;
use crate::hiera5::config::HieraConfig;
use crate::value::Map;
use std::sync::Arc;

/// Why the quick path leaves a lookup to the general path. Each is a place
/// where a step needs the general machinery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Decline {
    /// A merge, override values or default values: Puppet's
    /// `Lookup.lookup` around the search.
    Request,
    /// A quoted key, a root with spaces around it, `lookup_options` or a
    /// key that does not parse: the general path's key parsing.
    Key,
    /// Some layer's configuration, resolved hierarchy, key index or the
    /// namespace's lookup_options are not gathered yet in this session
    /// (the general path gathers them; the plan is made afterwards).
    NotYet,
    /// A layer no key index can be built for (an implicit configuration,
    /// a data function other than yaml/json/hocon_data, options, a file
    /// that fails to load): this namespace is always the general path's.
    Unindexed,
    /// lookup_options for the key (or a pattern that fails).
    Options,
    /// The request's own variables (local, Hiera 3 calling, unchecked
    /// known variables) hide what the plan read.
    Scoped,
    /// A value that is not rich data: the general path's type check.
    NotRichData,
    /// Interpolation or a dig failed: the general path reports the error.
    Failed,
    /// Not found, and the module has a default hierarchy.
    DefaultHierarchy,
}

/// What the quick path answers, or why it declines.
pub(super) type Planned<T> = std::result::Result<T, Decline>;

/// One layer of a plan: its resolved hierarchy and key index.
pub(super) struct PlanLayer {
    /// Which layer.
    pub(super) site: Layer,
    /// The hierarchy resolved for the session's scope (its data slots).
    pub(super) hierarchy: Arc<ResolvedHierarchy>,
    /// Its key index.
    pub(super) index: Arc<KeyIndex>,
}

/// The global and environment layers of every plan of a session (those
/// that have something to search, in order).
pub(super) struct BaseLayers(pub(super) Vec<PlanLayer>);

/// Where the keys of one module namespace ("" outside modules) are looked
/// up, in order, as the general path searches them; made from the
/// session's [`Store`] once the general path filled it.
pub(super) struct SearchPlan {
    /// The global and environment layers (shared by the session's plans).
    pub(super) base: Arc<BaseLayers>,
    /// The module's layer, when it has something to search.
    pub(super) module: Option<PlanLayer>,
    /// The merged lookup_options for the namespace's keys.
    pub(super) options: Option<Arc<CompiledOptions>>,
    /// The module has a default hierarchy (searched when nothing is found).
    pub(super) default_hierarchy: bool,
    /// The variables the options read.
    pub(super) options_reads: Reads,
}

impl SearchPlan {
    /// The layers, in search order.
    pub(super) fn layers(&self) -> impl Iterator<Item = &PlanLayer> {
        self.base.0.iter().chain(self.module.iter())
    }

    /// The variables each step of the plan read (each layer's hierarchy,
    /// the options).
    pub(super) fn reads(&self) -> impl Iterator<Item = &Reads> {
        self.layers()
            .map(|l| &l.hierarchy.reads)
            .chain(std::iter::once(&self.options_reads))
    }
}

/// The hits of a key index for a root key, in hierarchy order.
pub(super) fn index_hits<'i>(index: &'i KeyIndex, root: &str) -> &'i [Hit] {
    index.get(root).map(Vec::as_slice).unwrap_or(&[])
}

impl ResolvedHierarchy {
    /// The data of the location a hit names, as the session's slot holds
    /// it (`None`: not read in this session, or the file does not exist).
    pub(super) fn hit_data(&self, hit: &Hit) -> Option<&Arc<Map>> {
        self.entries
            .get(hit.entry as usize)?
            .data
            .get(hit.location as usize)?
            .get()?
            .as_ref()
    }
}

impl BaseLayers {
    /// The global and environment layers from what the session holds.
    pub(super) fn gather(session: &Session) -> Planned<BaseLayers> {
        let global = session.find::<GlobalConfig>(()).ok_or(Decline::NotYet)?.0;
        let env = session.find::<EnvConfig>(()).ok_or(Decline::NotYet)?.0;
        let mut layers = Vec::with_capacity(2);
        for (site, config) in [
            (Layer::Global, Some(&global)),
            (Layer::Environment, env.as_ref()),
        ] {
            if let Some(layer) = SearchPlan::step(session, site, config)? {
                layers.push(layer);
            }
        }
        Ok(BaseLayers(layers))
    }
}

impl SearchPlan {
    /// The plan for `module`'s namespace (`None`: keys outside modules)
    /// over `base`, from what the session holds.
    pub(super) fn gather(
        session: &Session,
        base: Arc<BaseLayers>,
        module: Option<&str>,
    ) -> Planned<SearchPlan> {
        let (options, options_reads) = session
            .find::<ModuleOptions>(module.unwrap_or(""))
            .ok_or(Decline::NotYet)?;
        let config = match module {
            Some(m) => session.find::<ModuleConfigs>(m).ok_or(Decline::NotYet)?.0,
            None => None,
        };
        Ok(SearchPlan {
            base,
            module: Self::step(session, Layer::Module, config.as_ref())?,
            options,
            default_hierarchy: config.is_some_and(|c| c.default_hierarchy.is_some()),
            options_reads,
        })
    }

    /// A layer's step: its resolved hierarchy and key index, if the
    /// general path made them (`None`: the layer has nothing to search).
    fn step(
        session: &Session,
        site: Layer,
        config: Option<&Arc<HieraConfig>>,
    ) -> Planned<Option<PlanLayer>> {
        let Some(config) = config else {
            return Ok(None);
        };
        if config.path.is_none() {
            return Err(Decline::Unindexed);
        }
        let key = (Arc::as_ptr(config) as usize, false);
        let (hierarchy, _) = session.find::<Hierarchies>(key).ok_or(Decline::NotYet)?;
        if hierarchy.entries.is_empty() {
            return Ok(None);
        }
        let index = match hierarchy.index.get() {
            None => return Err(Decline::NotYet),
            Some(None) => return Err(Decline::Unindexed),
            Some(Some(index)) => Arc::clone(index),
        };
        Ok(Some(PlanLayer {
            site,
            hierarchy,
            index,
        }))
    }
}
