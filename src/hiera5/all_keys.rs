//! Every key one node can look up, and every answer (`hiera-lookup --all`).
//!
//! The keys are the top-level keys of every data file the node's
//! hierarchies reach, in the global, environment and module layers (a
//! module's keys only in its own namespace, `mod::...`, as Puppet only
//! searches a module's layer for those), plus the keys `lookup_options`
//! names (not its regular expressions). `lookup_options` itself is not a
//! key. Files are read through the session's resolved hierarchies and the
//! file cache, as lookups read them (`Session::layer_data`); locations
//! a host function or Hiera 3 backend answers are not enumerated.
//!
//! Each key's answer is exactly what `lookup(key)` answers; a key not
//! found is left out, and an error in one key is kept for that key without
//! stopping the others.

use crate::error::{Error, Result};
use crate::hiera5::modulepath::is_module_name;
use crate::value::{Map, Value};
use crate::Session;
use std::collections::BTreeSet;

/// The answers of every key of one node ([`Session::lookup_all`]).
#[derive(Debug, Default)]
pub struct AllAnswers {
    /// Found keys and their answers, sorted by key (byte order).
    pub values: Vec<(String, Value)>,
    /// Keys whose lookup failed, sorted by key, with the error.
    pub errors: Vec<(String, Error)>,
}

impl AllAnswers {
    /// The found answers as one Hash, sorted by key.
    pub fn values_hash(&self) -> Value {
        let mut m = Map::default();
        for (k, v) in &self.values {
            m.insert(Value::from(k.as_str()), v.clone());
        }
        Value::hash(m)
    }

    /// The errors as one Hash (key -> message), sorted by key.
    pub fn errors_hash(&self) -> Value {
        let mut m = Map::default();
        for (k, e) in &self.errors {
            m.insert(Value::from(k.as_str()), Value::from(e.to_string().as_str()));
        }
        Value::hash(m)
    }
}

/// The name `lookup()` takes for a data file's top-level key: the key as
/// it is, or quoted when it has a dot (which would otherwise dig). `None`
/// for a key no quoting can name.
pub fn lookup_name(key: &str) -> Option<String> {
    if !key.contains('.') {
        return Some(key.to_string());
    }
    if !key.contains('"') {
        return Some(format!("\"{key}\""));
    }
    if !key.contains('\'') {
        return Some(format!("'{key}'"));
    }
    None
}

/// Adds the top-level String keys of `data` to `keys` (those that `keep`
/// accepts), and the non-regexp keys its `lookup_options` names.
fn collect(data: &Map, keep: &dyn Fn(&str) -> bool, keys: &mut BTreeSet<String>) {
    for (k, v) in data.iter() {
        let Some(name) = k.as_str() else { continue };
        if name == "lookup_options" {
            if let Some(opts) = v.as_hash() {
                for o in opts.keys().filter_map(Value::as_str) {
                    if !o.starts_with('^') && keep(o) {
                        keys.insert(o.to_string());
                    }
                }
            }
        } else if keep(name) {
            keys.insert(name.to_string());
        }
    }
}

impl Session {
    /// The names of the modules of the modulepath (directories with a
    /// valid module name), sorted.
    fn module_names(&self) -> BTreeSet<String> {
        let mut names = BTreeSet::new();
        for dir in self.hiera().modulepath() {
            let Ok(rd) = std::fs::read_dir(dir) else {
                continue;
            };
            for e in rd.flatten() {
                if let Some(n) = e.file_name().to_str() {
                    if is_module_name(n) && e.path().is_dir() {
                        names.insert(n.to_string());
                    }
                }
            }
        }
        names
    }

    /// Every key this node can look up (see the module documentation),
    /// sorted. An error reading the configuration or a data file of the
    /// global or environment layer is an error of the whole enumeration; a
    /// module whose layer cannot be read is skipped (its keys' lookups
    /// report the error when asked).
    pub fn all_keys(&self) -> Result<Vec<String>> {
        let mut keys = BTreeSet::new();
        for data in self.layer_data(None)? {
            collect(&data, &|_| true, &mut keys);
        }
        for module in self.module_names() {
            let Ok(datas) = self.layer_data(Some(&module)) else {
                continue;
            };
            let prefix = format!("{module}::");
            for data in datas {
                collect(&data, &|k| k.starts_with(&prefix), &mut keys);
            }
        }
        Ok(keys.into_iter().collect())
    }

    /// Looks up every key of [`Session::all_keys`]: found answers and
    /// per-key errors; keys not found are left out. May be called from any
    /// thread that may use the session.
    pub fn lookup_all(&self) -> Result<AllAnswers> {
        let mut all = AllAnswers::default();
        for key in self.all_keys()? {
            let Some(name) = lookup_name(&key) else {
                continue;
            };
            match self.lookup_key(&name) {
                Ok(Some(v)) => all.values.push((key, v)),
                Ok(None) => {}
                Err(e) => all.errors.push((key, e)),
            }
        }
        Ok(all)
    }
}
