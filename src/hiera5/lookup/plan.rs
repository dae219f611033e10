//! Where a key is looked up, decided in one place for both paths: the
//! layers in [`SEARCH_ORDER`], each layer's step ([`PlanLayer`]: its
//! hierarchy resolved for the scope and its key index), the [`Stops`] of a
//! root key in a step (the entries and locations to visit, in order), and
//! the [`SearchPlan`] of a module namespace, every step made, with what the
//! plan read; and [`Decline`], why the quick path leaves a lookup to the
//! general one.
//!
//! The general path makes each layer's step as it reaches the layer
//! ([`Invocation::plan_layer`], which keeps the resolved hierarchy in the
//! session's [`Store`]), or, once the namespace's plan is made, walks the
//! plan's steps ([`Invocation::walkable_plan`]); a plan is gathered from the
//! store, once per session and namespace, when every step is ready. Both
//! paths walk a step's [`Stops`] and read a stop's data through
//! [`ResolvedHierarchy::stop_data`]; they differ only in what they do at a
//! stop (the general path explains, merges, asks host backends, decrypts).

use super::*;
use crate::hiera5::config::HieraConfig;
use crate::value::{Map, Value};
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

/// The layers a key is searched in, in order: Puppet's global,
/// environment and module data providers.
pub(super) const SEARCH_ORDER: [Layer; 3] = [Layer::Global, Layer::Environment, Layer::Module];

/// One layer's step of a search: its resolved hierarchy and key index.
pub(super) struct PlanLayer {
    /// Which layer.
    pub(super) site: Layer,
    /// The hierarchy resolved for the session's scope (its data slots).
    pub(super) hierarchy: Arc<ResolvedHierarchy>,
    /// Its key index (`None`: explaining, or no index can be built, and
    /// every location is visited). Always there in a [`SearchPlan`].
    pub(super) index: Option<Arc<KeyIndex>>,
}

impl PlanLayer {
    /// Where a search for `root` stops in this step.
    #[inline(always)]
    pub(super) fn stops<'p>(&'p self, root: &'p str) -> Stops<'p> {
        Stops {
            entries: &self.hierarchy.entries,
            hits: self.index.as_deref().map(|index| index_hits(index, root)),
            root,
        }
    }
}

/// Where a search for one root key stops in one layer: every location of
/// every entry, in hierarchy order, or, with a key index, only the
/// locations whose data has the key. Each entry and each location of an
/// entry is still one candidate of the merge (Puppet's `MergeStrategy`
/// counts them all): a location the index rules out is a candidate that
/// found nothing.
pub(super) struct Stops<'p> {
    entries: &'p [ResolvedEntry],
    hits: Option<&'p [Hit]>,
    /// The root key searched (whose value a hit's `plain` is about).
    root: &'p str,
}

/// A stop: one location of one entry.
#[derive(Clone, Copy, Debug)]
pub(super) struct Stop {
    /// The position of the entry in the resolved hierarchy.
    pub(super) entry: usize,
    /// The position of the location in the entry.
    pub(super) location: usize,
    /// Known from the key index: the value is rich data without `%{...}`,
    /// the answer as it is.
    pub(super) plain: bool,
}

impl Stop {
    /// The stop at `hit`, in the locations `entries` (whose data slots the
    /// index was built from), for the root key `root`.
    #[inline(always)]
    fn of(hit: &Hit, entries: &[ResolvedEntry], root: &str) -> Stop {
        let (entry, location) = (hit.entry as usize, hit.location as usize);
        let plain = match hit.known_plain() {
            Some(plain) => plain,
            None => hit.find_plain(
                entries
                    .get(entry)
                    .and_then(|e| e.data.get(location)?.get()?.as_ref())
                    .and_then(|data| data.get(&crate::value::Key(root))),
            ),
        };
        Stop {
            entry,
            location,
            plain,
        }
    }
}

impl Stops<'_> {
    /// Nothing to visit: no entries, or no location has the key.
    pub(super) fn is_empty(&self) -> bool {
        self.entries.is_empty() || self.hits.is_some_and(<[Hit]>::is_empty)
    }

    /// The entries of the search (the candidates of the hierarchy's merge).
    pub(super) fn entries(&self) -> usize {
        self.entries.len()
    }

    /// The locations of entry `i` (the candidates of its merge).
    pub(super) fn locations(&self, i: usize) -> usize {
        self.entries[i].locations.len()
    }

    /// Whether the search stops at some location of entry `i`.
    pub(super) fn at_entry(&self, i: usize) -> bool {
        match self.hits {
            None => true,
            Some(hits) => hits.iter().any(|hit| hit.entry as usize == i),
        }
    }

    /// The stop at location `j` of entry `i` (`None`: the index says its
    /// data has no such key).
    pub(super) fn at(&self, i: usize, j: usize) -> Option<Stop> {
        match self.hits {
            None => Some(Stop {
                entry: i,
                location: j,
                plain: false,
            }),
            Some(hits) => hits
                .iter()
                .find(|hit| hit.entry as usize == i && hit.location as usize == j)
                .map(|hit| Stop::of(hit, self.entries, self.root)),
        }
    }

    /// The first stop, in search order.
    #[inline]
    pub(super) fn first(&self) -> Option<Stop> {
        match self.hits {
            Some(hits) => hits
                .first()
                .map(|hit| Stop::of(hit, self.entries, self.root)),
            None => {
                let i = self.entries.iter().position(|e| !e.locations.is_empty())?;
                Some(Stop {
                    entry: i,
                    location: 0,
                    plain: false,
                })
            }
        }
    }
}

/// The global and environment layers of every plan of a session (those
/// that have something to search, in order).
pub(super) struct BaseLayers(pub(super) Vec<PlanLayer>);

/// Where the keys of one module namespace ("" outside modules) are looked
/// up: the steps of the layers in [`SEARCH_ORDER`] that have something to
/// search, made from the session's [`Store`] once the general path filled
/// it. The quick path walks it; so does the general path once it is made.
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

    /// The step of layer `site` (`None`: that layer has nothing to search).
    pub(super) fn layer(&self, site: Layer) -> Option<&PlanLayer> {
        self.layers().find(|l| l.site == site)
    }

    /// The variables each step of the plan read (each layer's hierarchy,
    /// the options).
    pub(super) fn reads(&self) -> impl Iterator<Item = &Reads> {
        self.layers()
            .map(|l| &l.hierarchy.reads)
            .chain(std::iter::once(&self.options_reads))
    }
    /// Every variable the plan read, sorted, each once (what a lookup
    /// answered from the plan read): [`union_of_reads`] of each step's, so
    /// mostly one step's reads as they are (the namespace's options read what
    /// its hierarchies read), without a copy.
    pub(super) fn all_reads(&self) -> Reads {
        let mut steps = self.reads();
        let first = steps.next().expect("a plan has its options' reads");
        steps.fold(union_of_reads(first, None), |all, r| {
            union_of_reads(&all, Some(r))
        })
    }
}

/// The variables of `a` and `b` sorted, each once: what sorting and
/// deduplicating their concatenation gives. When each is sorted without
/// duplicates (as kept reads are) and one holds every variable of the other,
/// that one is the answer as it is, without a copy: a module's hierarchy
/// mostly reads variables the global and environment layers read too, and a
/// new session takes each module namespace's reads this way (issue 18).
pub(super) fn union_of_reads(a: &Reads, b: Option<&Reads>) -> Reads {
    fn strictly_sorted(r: &[Box<str>]) -> bool {
        r.windows(2).all(|w| w[0] < w[1])
    }
    /// Whether every variable of `small` is in `big` (both strictly sorted).
    fn holds(big: &[Box<str>], small: &[Box<str>]) -> bool {
        let mut big = big.iter();
        small.iter().all(|s| big.any(|b| b == s))
    }
    match b {
        None if strictly_sorted(a) => Arc::clone(a),
        Some(b) if strictly_sorted(a) && strictly_sorted(b) && holds(a, b) => Arc::clone(a),
        Some(b) if strictly_sorted(a) && strictly_sorted(b) && holds(b, a) => Arc::clone(b),
        _ => {
            let mut reads: Vec<Box<str>> = a
                .iter()
                .chain(b.into_iter().flat_map(|b| b.iter()))
                .cloned()
                .collect();
            reads.sort_unstable();
            reads.dedup();
            reads.into()
        }
    }
}

/// The hits of a key index for a root key, in hierarchy order. Inlined:
/// the quick path probes each layer's index with the same root, whose hash
/// the compiler then computes once.
#[inline(always)]
pub(super) fn index_hits<'i>(index: &'i KeyIndex, root: &str) -> &'i [Hit] {
    index.get(root).map(Vec::as_slice).unwrap_or(&[])
}

impl ResolvedHierarchy {
    /// The data of the location a stop names, as the session's slot holds
    /// it (`None`: not read in this session, or the file does not exist).
    pub(super) fn stop_data(&self, stop: Stop) -> Option<&Map> {
        self.entries
            .get(stop.entry)?
            .data
            .get(stop.location)?
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
            index: Some(index),
        }))
    }
}

impl Invocation<'_> {
    /// What the general path's first lookup of a module namespace gathers
    /// in this session (the module's configuration, its hierarchy resolved
    /// and indexed, the namespace's lookup_options), gathered without a
    /// lookup when each piece is one the [`Hiera`] shares: the configuration
    /// from the file cache (read without a warning), the resolution another
    /// session made ([`ResolutionCache`]: the same values, the same files),
    /// and the module's `lookup_options` found at one location of it, as
    /// they are (a Hash without `%{...}`), merged under the session's own
    /// global and environment options as the general path merges them. The
    /// same steps, kept in the same shelves, as the general path's: the
    /// namespace's [`SearchPlan`] can then be gathered. Anything else (an
    /// overlay, a request with its own variables, a warning, an error, a
    /// default hierarchy, a resolution not shared, options merged from
    /// several locations or interpolated) is left to the general path.
    pub(super) fn adopt_namespace(&mut self, module: Option<&str>) -> Planned<()> {
        let session = self.session;
        if session.parent.is_some()
            || !session.known_variables().is_empty()
            || self.req.scoped()
            || self.explain.is_some()
        {
            return Err(Decline::NotYet);
        }
        let (base, base_reads) = session.find::<BaseOptions>(()).ok_or(Decline::NotYet)?;
        let hiera = self.hiera();
        let Some(m) = module else {
            let compiled = memoized(&hiera.compiled_options, &base, &None, || {
                base.as_ref()
                    .map(|o| compile_patterns(hiera, o).map(Arc::new))
                    .transpose()
            })
            .map_err(|_| Decline::NotYet)?;
            session.keep_as::<ModuleOptions>("", compiled, base_reads);
            return Ok(());
        };
        // In the general path's order: the base patterns, then the module.
        precompile_base_options(hiera, &base).map_err(|_| Decline::NotYet)?;
        let config = match session.find::<ModuleConfigs>(m) {
            Some((config, _)) => config,
            None => {
                let mut warnings = Vec::new();
                let config = hiera
                    .module_config(m, &mut warnings)
                    .map_err(|_| Decline::NotYet)?;
                if !warnings.is_empty() {
                    return Err(Decline::NotYet);
                }
                session.keep_as::<ModuleConfigs>(m, config, no_reads())
            }
        };
        if let Some(config) = &config {
            if self.adopt_shared(config, m, &base, &base_reads) {
                return Ok(());
            }
        }
        let mut adopted = None;
        let found = match &config {
            None => None,
            Some(config) => {
                let (hierarchy, exprs) = self.adopted_hierarchy(config, m)?;
                let found = self.adopted_options(&hierarchy)?;
                adopted = Some((Arc::clone(config), hierarchy, exprs));
                found
            }
        };
        let compiled =
            module_options(hiera, base.clone(), found, m).map_err(|_| Decline::NotYet)?;
        let hierarchy_reads = adopted.as_ref().map(|(_, h, _)| &h.reads);
        let reads = union_of_reads(&base_reads, hierarchy_reads);
        let kept = session.keep_as::<ModuleOptions>(m, compiled.clone(), reads);
        let same_options = match (&kept, &compiled) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        // A namespace adopted from another session's resolution: the
        // sessions after take it whole ([`NamespaceTable`]).
        if let Some((config, hierarchy, Some(exprs))) = adopted {
            if hiera.options.host.is_none() && same_options {
                hiera.namespaces.insert(
                    m,
                    SharedNamespace {
                        config,
                        base,
                        plan: session.options.plan,
                        hierarchy,
                        exprs,
                        options: compiled,
                    },
                );
            }
        }
        Ok(())
    }

    /// The module's hierarchy as the general path's
    /// [`Invocation::resolved_hierarchy`] takes it: the session's, or a
    /// resolution shared by another session (with what it evaluated), kept
    /// in the session.
    fn adopted_hierarchy(
        &mut self,
        config: &Arc<HieraConfig>,
        module: &str,
    ) -> Planned<(Arc<ResolvedHierarchy>, Option<Exprs>)> {
        if config.default_hierarchy.is_some() || config.path.is_none() {
            return Err(Decline::NotYet);
        }
        let key = (Arc::as_ptr(config) as usize, false);
        if let Some((hierarchy, _)) = self.session.find::<Hierarchies>(key) {
            return Ok((hierarchy, None));
        }
        if !self.shares_resolutions(config, false) {
            return Err(Decline::NotYet);
        }
        // The module's site, for the check of its data's keys.
        let outer = std::mem::replace(&mut self.site, (Layer::Module, Some(Arc::from(module))));
        let shared = self.shared_resolution(config, false);
        self.site = outer;
        let (hierarchy, exprs) = shared.ok_or(Decline::NotYet)?;
        let reads = Arc::clone(&hierarchy.reads);
        let kept = self
            .session
            .keep_as::<Hierarchies>(key, Arc::clone(&hierarchy), reads);
        let exprs = Arc::ptr_eq(&kept, &hierarchy).then_some(exprs);
        Ok((kept, exprs))
    }

    /// The `lookup_options` the general path finds in a module's layer (a
    /// hash merge over its locations), when its key index says that one
    /// location has them, as they are: that Hash (`None`: no location has
    /// them).
    fn adopted_options(&self, hierarchy: &ResolvedHierarchy) -> Planned<Found> {
        if hierarchy.entries.is_empty() {
            return Ok(None);
        }
        let Some(Some(index)) = hierarchy.index.get() else {
            return Err(Decline::NotYet);
        };
        match index_hits(index, "lookup_options") {
            [] => Ok(None),
            [hit] => {
                let stop = Stop::of(hit, &hierarchy.entries, "lookup_options");
                if !stop.plain {
                    return Err(Decline::NotYet);
                }
                let value = hierarchy
                    .stop_data(stop)
                    .and_then(|data| data.get(&crate::value::Key("lookup_options")))
                    .ok_or(Decline::NotYet)?;
                match value {
                    // A merge of more entries than the limit fails there.
                    Value::Hash(h) if h.len() <= self.limits().merge_entries => {
                        Ok(Some(value.clone()))
                    }
                    _ => Err(Decline::NotYet),
                }
            }
            _ => Err(Decline::NotYet),
        }
    }
}

#[cfg(test)]
mod union_tests {
    use super::*;

    fn reads(names: &[&str]) -> Reads {
        names.iter().map(|n| Box::<str>::from(*n)).collect()
    }

    /// What `union_of_reads` replaced: the concatenation sorted, each once.
    fn sorted_union(a: &Reads, b: Option<&Reads>) -> Vec<Box<str>> {
        let mut all: Vec<Box<str>> = a
            .iter()
            .chain(b.into_iter().flat_map(|b| b.iter()))
            .cloned()
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }

    #[test]
    fn the_union_of_reads_is_the_sorted_concatenation_and_shares_a_list_that_holds_the_other() {
        let lists: Vec<Reads> = [
            &[][..],
            &["facts.os.family"],
            &["facts.os.family", "facts.role"],
            &[
                "::datacenter",
                "facts.os.family",
                "facts.role",
                "trusted.certname",
            ],
            &["::datacenter", "facts.zone"],
            &["facts.role", "facts.os.family"],
            &["facts.role", "facts.role"],
            &["a", "b", "b", "c"],
        ]
        .iter()
        .map(|l| reads(l))
        .collect();
        for a in &lists {
            let got = union_of_reads(a, None);
            assert_eq!(&*got, &sorted_union(a, None)[..], "{a:?}");
            for b in &lists {
                let got = union_of_reads(a, Some(b));
                assert_eq!(&*got, &sorted_union(a, Some(b))[..], "{a:?} {b:?}");
            }
        }
        // A sorted list that holds the other is the answer itself.
        let (big, small) = (&lists[3], &lists[2]);
        assert!(Arc::ptr_eq(&union_of_reads(big, Some(small)), big));
        assert!(Arc::ptr_eq(&union_of_reads(small, Some(big)), big));
        assert!(Arc::ptr_eq(&union_of_reads(big, None), big));
        // Unsorted or with duplicates: a new list.
        assert!(!Arc::ptr_eq(&union_of_reads(&lists[5], None), &lists[5]));
        assert!(!Arc::ptr_eq(&union_of_reads(&lists[6], None), &lists[6]));
    }
}
