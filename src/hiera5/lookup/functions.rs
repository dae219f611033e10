//! Data functions a level names: `eyaml_lookup_key` answered natively,
//! `data_hash`/`lookup_key`/`data_dig` functions and Hiera 3 backends
//! through the host, and Puppet's names and messages for them.

use super::*;
use crate::data::DataFormat;
use crate::error::{Error, ErrorKind, Result};
use crate::hiera5::config::{Entry, FunctionKind, HieraConfig};
use crate::hiera5::interpolate;
use crate::hiera5::key::LookupKey;
use crate::hiera5::merge::Strategy;
use crate::host::{HostCall, HostRef};
use crate::limits::{self};
use crate::value::{Key, Value};
use std::path::Path;

impl Invocation<'_> {
    /// A location of an `eyaml_lookup_key` level, answered natively (see
    /// [`crate::eyaml`]): the file read as `yaml_data` reads it, the root
    /// key's value decrypted, interpolated, then checked as Puppet checks a
    /// `lookup_key` function's value.
    pub(super) fn eyaml_location_lookup(
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
    pub(super) fn found_in_hash(
        &mut self,
        entry: &Entry,
        root: &str,
        location: Option<&str>,
        path: Option<&Path>,
        value: &Value,
    ) -> Result<LocationOutcome> {
        if !crate::hiera5::ptype::is_rich_data(value) {
            return Err(Error {
                kind: ErrorKind::Type,
                message: format!(
                    "Value for key '{}', in hash returned from {}{} has wrong type, expects Puppet::LookupValue, got {}",
                    root,
                    function_full_name(entry),
                    location.map(|l| format!(", when using location '{l}',")).unwrap_or_default(),
                    crate::hiera5::ptype::infer_detailed(value, true)
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
    pub(super) fn host_location_lookup(
        &mut self,
        config: &HieraConfig,
        entry: &Entry,
        resolved: &ResolvedEntry,
        j: usize,
        lk: &LookupKey,
        default_hierarchy: bool,
    ) -> Result<LocationOutcome> {
        // A built-in the host runs in place of libhiera's (a file location);
        // a built-in with no path is a configuration error all the same.
        let host_runs =
            self.hiera().host_runs(entry) && matches!(resolved.locations[j], Location::Path(..));
        let Some(host) = self
            .function_host()
            .filter(|_| host_runs || !takes_only_a_path(&entry.function_name))
        else {
            return Err(self.unsupported_function(config, entry, host_runs));
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
                                        crate::hiera5::ptype::infer_type(&other)
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
    pub(super) fn host_backend_lookup(
        &mut self,
        config: &HieraConfig,
        entry: &Entry,
        resolved: &ResolvedEntry,
        lk: &LookupKey,
        strategy: &Strategy,
        default_hierarchy: bool,
    ) -> Result<Found> {
        let Some(host) = self.function_host() else {
            return Err(self.unsupported_function(config, entry, false));
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
    pub(super) fn function_host(&self) -> Option<HostRef> {
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
    pub(super) fn call_host(
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
    pub(super) fn checked_host_value(
        &self,
        entry: &Entry,
        key: &str,
        location: Option<&str>,
        v: Value,
    ) -> Result<Value> {
        if crate::hiera5::ptype::is_rich_data(&v) {
            return Ok(v);
        }
        Err(Error::new(
            ErrorKind::Type,
            format!(
                "Value for key '{key}', returned from {} function '{}'{}, has wrong type, expects Puppet::LookupValue, got {}",
                entry.function_kind.key(),
                entry.function_name,
                location.map(|l| format!(", when using location '{l}',")).unwrap_or_default(),
                crate::hiera5::ptype::infer_detailed(&v, true)
            ),
        ))
    }

    /// The error for a location the entry's function cannot serve: the
    /// built-in functions take only a `path`; other functions, and a
    /// built-in the host should run (`host_runs`) when there is no host,
    /// are unknown.
    pub(super) fn unsupported_function(
        &self,
        config: &HieraConfig,
        entry: &Entry,
        host_runs: bool,
    ) -> Error {
        let builtin = takes_only_a_path(&entry.function_name) && !host_runs;
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
}

/// The invocation as a running host call sees it (Puppet's
/// `LookupContext`): interpolation in its scope, and its explanation.
pub(super) struct CallContext<'i, 's>(pub(super) std::cell::RefCell<&'i mut Invocation<'s>>);

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

/// The `data_hash` functions that take nothing but a `path` (Puppet's
/// built-in `yaml_data`, `json_data` and `hocon_data`, and the libhiera gem's drop-in
/// `libhiera::yaml_data` and `libhiera::json_data`).
pub(super) fn takes_only_a_path(function_name: &str) -> bool {
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
pub(super) fn builtin_format(
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
pub(super) fn function_full_name(entry: &Entry) -> String {
    match entry.function_kind {
        FunctionKind::V4DataHash => format!("deprecated API function '{}'", entry.function_name),
        kind => format!("{} function '{}'", kind.key(), entry.function_name),
    }
}
