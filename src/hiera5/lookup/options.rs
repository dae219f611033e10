//! lookup_options: found in every layer, merged, compiled into literal keys
//! and patterns ([`CompiledOptions`]), and validated as Puppet validates them.

use super::*;
use crate::error::{Error, ErrorKind, Result};
use crate::hiera5::key::LookupKey;
use crate::hiera5::merge::{Strategy, StrategyKind};
use crate::rubyre::Pattern;
use crate::value::{Map, Value};
use std::sync::Arc;

/// Merged lookup_options, split into literal keys and patterns.
#[derive(Clone, Debug, Default)]
pub(super) struct CompiledOptions {
    pub(super) literal: FastMap<String, Value>,
    pub(super) patterns: Vec<(Arc<Pattern>, Value)>,
    /// The last four bytes of every literal suffix of the patterns, when
    /// every pattern has suffixes of at least four bytes: a key without a
    /// newline that ends otherwise matches no pattern (most keys), and is
    /// not given to each pattern. `None`: no such filter.
    pub(super) tails: Option<Box<[[u8; 4]]>>,
}

impl CompiledOptions {
    /// The filter of [`CompiledOptions::tails`] for `patterns`.
    fn tails_of(patterns: &[(Arc<Pattern>, Value)]) -> Option<Box<[[u8; 4]]>> {
        let mut tails = Vec::new();
        for (re, _) in patterns {
            let suffixes = re.suffixes();
            if suffixes.is_empty() {
                return None;
            }
            for s in suffixes {
                let tail: [u8; 4] = s.as_bytes().last_chunk::<4>().copied()?;
                if !tails.contains(&tail) {
                    tails.push(tail);
                }
            }
        }
        Some(tails.into_boxed_slice())
    }

    pub(super) fn for_key(&self, root: &str) -> Result<Option<&Value>> {
        if let Some(v) = self.literal.get(root).filter(|v| !v.is_nil()) {
            return Ok(Some(v));
        }
        if self.patterns.is_empty() {
            return Ok(None);
        }
        let has_newline = memchr::memchr(b'\n', root.as_bytes()).is_some();
        if let (false, Some(tails)) = (has_newline, &self.tails) {
            // Every match ends with a suffix of four bytes or more.
            match root.as_bytes().last_chunk::<4>() {
                Some(last) if tails.contains(last) => {}
                _ => return Ok(None),
            }
        }
        for (re, v) in &self.patterns {
            if re.is_match_lines(root, has_newline)? {
                return Ok(Some(v));
            }
        }
        Ok(None)
    }
}

impl Invocation<'_> {
    /// Puppet's `--explain-options` alone: the key's lookup_options
    /// searched as data, a hash merge over the layers.
    pub(super) fn only_options(&mut self, key: &str) -> Result<Found> {
        let module = LookupKey::parse(key)?.module().map(str::to_string);
        const LAYERS: [Layer; 3] = [Layer::Global, Layer::Environment, Layer::Module];
        let layers = if self.global_only { 1 } else { 3 };
        let hash = Strategy::new(StrategyKind::Hash);
        self.merged(&hash, layers, |inv, i| {
            inv.options_lookup(LAYERS[i], module.as_deref(), false)
        })
    }

    pub(super) fn lookup_options_for(&mut self, lk: &LookupKey) -> Result<Option<Value>> {
        let module = lk.module();
        let compiled = match self
            .session
            .find::<ModuleOptions>(module.unwrap_or(""))
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
                        .keep_as::<ModuleOptions>(module.unwrap_or(""), c.clone(), reads);
                }
                c
            }
        };
        let Some(compiled) = compiled else {
            return Ok(None);
        };
        Ok(compiled.for_key(&lk.root)?.cloned())
    }

    pub(super) fn options_lookup(
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
    pub(super) fn global_and_environment_options(&mut self) -> Result<Option<Value>> {
        let complete = self.options_busy.is_empty();
        if complete {
            if let Some((v, reads)) = self
                .session
                .find::<BaseOptions>(())
                .filter(|(_, reads)| !self.refuses(reads))
            {
                self.read_all(&reads);
                return Ok(v);
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
            self.session.keep_as::<BaseOptions>((), opts.clone(), reads);
        }
        Ok(opts)
    }

    pub(super) fn retrieve_lookup_options(
        &mut self,
        module: Option<&str>,
    ) -> Result<Option<Arc<CompiledOptions>>> {
        let hash = Strategy::new(StrategyKind::Hash);
        let mut opts = self.global_and_environment_options()?;
        if let Some(m) = module {
            precompile_base_options(self.hiera(), &opts)?;
            let found = self.options_lookup(Layer::Module, Some(m), false)?;
            if self.explain.is_none() {
                return module_options(self.hiera(), opts, found, m);
            }
            if matches!(found, Some(Value::Nil)) {
                // As in `module_options`.
                opts = None;
            }
            let module_opts = validate_lookup_options(found, Some(m))?;
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
}

/// Puppet compiles the global and environment patterns (for keys outside
/// modules) before it reads a module's options: a bad pattern there fails
/// first. Compiled once per configuration: they are the options of keys
/// outside modules, memoized as those are.
pub(super) fn precompile_base_options(hiera: &Hiera, opts: &Option<Value>) -> Result<()> {
    if opts.is_some() {
        memoized(&hiera.compiled_options, opts, &None, || {
            opts.as_ref()
                .map(|o| compile_patterns(hiera, o).map(Arc::new))
                .transpose()
        })?;
    }
    Ok(())
}

/// A module's lookup_options as a lookup uses them (outside explain): the
/// global and environment options `opts` with the options `found` in the
/// module's layer merged over them, validated and compiled. Sessions whose
/// options come from the same files share the result (memoized by the
/// identities of the two hashes).
pub(super) fn module_options(
    hiera: &Hiera,
    mut opts: Option<Value>,
    found: Found,
    module: &str,
) -> Result<Option<Arc<CompiledOptions>>> {
    if matches!(found, Some(Value::Nil)) {
        // Puppet's `opts = if opts.nil? ... elsif module_opts ... end`:
        // a module whose lookup_options are found as nil leaves no
        // options at all for its keys (the global and environment
        // ones are dropped too).
        opts = None;
    }
    let module_opts = validate_lookup_options(found, Some(module))?;
    memoized(&hiera.compiled_options, &opts, &module_opts, || {
        let merged = match (&opts, &module_opts) {
            (None, mo) => mo.clone(),
            (o, None) => o.clone(),
            (Some(o), Some(mo)) => Some(Strategy::new(StrategyKind::Hash).merge(o.clone(), mo)?),
        };
        merged
            .map(|o| compile_patterns(hiera, &o).map(Arc::new))
            .transpose()
    })
}

pub(super) fn validate_lookup_options(found: Found, module: Option<&str>) -> Result<Option<Value>> {
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

pub(super) fn compile_patterns(hiera: &Hiera, opts: &Value) -> Result<CompiledOptions> {
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
    c.tails = CompiledOptions::tails_of(&c.patterns);
    Ok(c)
}
