//! Hiera 3's configuration (`Hiera::Config.load`).
//!
//! Keys are Ruby Symbols (`:backends:` in YAML); plain String keys are kept
//! but mean nothing. The file is merged shallowly over the defaults
//! `{:backends => ["yaml"], :hierarchy => ["nodes/%{::trusted.certname}",
//! "common"], :merge_behavior => :native}`; `:backends` is flattened; each
//! backend must be `yaml` or `json` in any case (the gem requires
//! `hiera/backend/<name>_backend`). The YAML is read as Psych 4's
//! `YAML.load_file` reads it: Symbols allowed, aliases and dates refused.

use super::backend::BackendKind;
use crate::error::{Error, ErrorKind, Result};
use crate::ruby::errors::{no_implicit_conversion, no_method};
use crate::value::{Map, Value};
use std::path::{Path, PathBuf};

/// The datadir used when a backend has none (Debian's `Hiera::Util.var_dir`).
pub const DEFAULT_DATADIR: &str = "/etc/puppet/environments/%{environment}/hieradata";

/// A loaded Hiera 3 configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    map: Map,
    backends: Vec<(Value, BackendKind)>,
}

fn sym(name: &str) -> Value {
    Value::Symbol(name.into())
}

fn config_error(message: String) -> Error {
    Error::new(ErrorKind::Config, message)
}

impl Config {
    /// The configuration Hiera 3 uses when the file gives nothing.
    pub fn defaults() -> Config {
        Config::build(Map::default()).expect("the defaults are valid")
    }

    /// `Config.load(hash)`: `hash` (Symbol keys) merged over the defaults.
    /// A value that is not a Hash gives the defaults, as in the gem.
    pub fn from_value(v: &Value) -> Result<Config> {
        match v {
            Value::Hash(h) => Config::build(h.clone()),
            _ => Config::build(Map::default()),
        }
    }

    /// `Config.load(path)`: reads a hiera.yaml. A relative `path` is taken
    /// relative to `cwd` (the process's working directory when `None`);
    /// messages name the path as given.
    pub fn load(path: &Path, cwd: Option<&Path>) -> Result<Config> {
        let fs_path: PathBuf = match cwd {
            Some(dir) if path.is_relative() => dir.join(path),
            _ => path.to_path_buf(),
        };
        let shown = path.display().to_string();
        if std::fs::metadata(&fs_path).is_err() {
            return Err(config_error(format!("Config file {shown} not found")));
        }
        let bytes = super::ruby::read_bom_utf8(&fs_path, &shown)?;
        let loaded = super::backend::load_yaml(&bytes).map_err(|m| Error {
            kind: ErrorKind::Parse,
            message: m.replacen("(<unknown>)", &format!("({shown})"), 1),
            file: Some(fs_path.clone()),
            line: None,
        })?;
        let mut map = Map::default();
        if loaded.is_truthy() {
            let mut version = index(&loaded, &Value::from("version"))?;
            if !version.is_truthy() {
                version = index(&loaded, &sym("version"))?;
            }
            if !version.is_truthy() {
                version = Value::Int(3);
            }
            if at_least_4(&version)? {
                let mut v = String::new();
                crate::ruby::to_s(&version, &mut v);
                return Err(config_error(format!(
                    "v{v} hiera.yaml is only to be used inside an environment or a module and cannot be given to the global hiera"
                )));
            }
            match loaded {
                Value::Hash(h) => map = h.clone(),
                other => return Err(no_implicit_conversion(&other, "Hash")),
            }
        }
        Config::build(map)
    }

    fn build(given: Map) -> Result<Config> {
        let mut map = Map::default();
        map.insert(sym("backends"), Value::array(vec![Value::from("yaml")]));
        map.insert(
            sym("hierarchy"),
            Value::array(vec![
                Value::from("nodes/%{::trusted.certname}"),
                Value::from("common"),
            ]),
        );
        map.insert(sym("merge_behavior"), sym("native"));
        for (k, v) in given {
            map.insert(k, v);
        }
        let mut flat = Vec::new();
        flatten(
            map.get(&sym("backends")).cloned().unwrap_or_default(),
            &mut flat,
        );
        map.insert(sym("backends"), Value::array(flat.clone()));
        if !map.contains_key(&sym("logger")) {
            map.insert(sym("logger"), Value::from("console"));
        }
        // Config.load_backends
        let mut backends = Vec::new();
        for b in flat {
            let Some(name) = b.string_or_symbol().map(str::to_lowercase) else {
                return Err(no_method("downcase", &b));
            };
            let kind = match name.as_str() {
                "yaml" => BackendKind::Yaml,
                "json" => BackendKind::Json,
                _ => {
                    let mut shown = String::new();
                    crate::ruby::to_s(&b, &mut shown);
                    return Err(config_error(format!(
                        "Cannot load backend {shown}: cannot load such file -- hiera/backend/{name}_backend"
                    )));
                }
            };
            backends.push((b, kind));
        }
        Ok(Config { map, backends })
    }

    /// `Config[:name]`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.map.get(&sym(name))
    }

    /// The whole configuration hash.
    pub fn as_map(&self) -> &Map {
        &self.map
    }

    /// The backends in the order they are queried: each as written and the
    /// backend it names.
    pub fn backends(&self) -> &[(Value, BackendKind)] {
        &self.backends
    }

    /// The hierarchy `Backend.datasources` walks: `[Config[:hierarchy]]`
    /// flattened, or `["common"]` without one.
    pub fn hierarchy(&self) -> Vec<Value> {
        let mut out = Vec::new();
        match self.map.get(&sym("hierarchy")) {
            Some(h) => flatten(h.clone(), &mut out),
            None => out.push(Value::from("common")),
        }
        out
    }
}

/// `[v].flatten`.
pub(crate) fn flatten(v: Value, out: &mut Vec<Value>) {
    crate::stack::grow(|| match v {
        Value::Array(a) => {
            for x in a.iter() {
                flatten(x.clone(), out);
            }
        }
        other => out.push(other),
    })
}

/// Ruby's `config[key]` for whatever the file held.
fn index(config: &Value, key: &Value) -> Result<Value> {
    if let Some(text) = config.string_or_symbol() {
        return match key {
            Value::String(k) if text.contains(&**k) => Ok(key.clone()),
            Value::String(_) => Ok(Value::Nil),
            other => Err(no_implicit_conversion(other, "Integer")),
        };
    }
    match config {
        Value::Hash(h) => Ok(h.get(key).cloned().unwrap_or_default()),
        Value::Array(_) | Value::Int(_) | Value::BigInt(_) => {
            Err(no_implicit_conversion(key, "Integer"))
        }
        other => Err(no_method("[]", other)),
    }
}

/// Ruby's `version >= 4`.
fn at_least_4(v: &Value) -> Result<bool> {
    match v {
        Value::Int(i) => Ok(*i >= 4),
        Value::BigInt(s) => Ok(!s.starts_with('-')),
        Value::Float(f) => Ok(*f >= 4.0),
        Value::String(_) | Value::Bytes(_) | Value::Symbol(_) => Err(Error::new(
            ErrorKind::Config,
            format!("comparison of {} with 4 failed", v.ruby_class()),
        )),
        Value::Hash(_) => Err(Error::new(
            ErrorKind::Type,
            "no implicit conversion of Integer into Hash",
        )),
        other => Err(no_method(">=", other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_text(text: &str) -> Result<Config> {
        let dir = std::env::temp_dir().join(format!(
            "libhiera-h3cfg-{}-{}",
            std::process::id(),
            text.len()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("hiera.yaml"), text).unwrap();
        let r = Config::load(Path::new("hiera.yaml"), Some(&dir));
        let _ = std::fs::remove_dir_all(&dir);
        r
    }

    #[test]
    fn defaults_and_symbol_keys() {
        let c = load_text(":backends: json\n:hierarchy: common\nbackends: [nope]\n").unwrap();
        assert_eq!(c.backends().len(), 1);
        assert_eq!(c.backends()[0].1, BackendKind::Json);
        assert_eq!(c.hierarchy(), vec![Value::from("common")]);
        let d = load_text("").unwrap();
        assert_eq!(d.hierarchy().len(), 2);
        assert_eq!(d.get("merge_behavior"), Some(&sym("native")));
    }

    #[test]
    fn errors() {
        assert_eq!(
            load_text(":version: 5\n").unwrap_err().message,
            "v5 hiera.yaml is only to be used inside an environment or a module and cannot be given to the global hiera"
        );
        assert_eq!(
            load_text(":backends: [yaml, Puppet]\n")
                .unwrap_err()
                .message,
            "Cannot load backend Puppet: cannot load such file -- hiera/backend/puppet_backend"
        );
        assert_eq!(
            load_text("[1]\n").unwrap_err().message,
            "no implicit conversion of String into Integer"
        );
        assert_eq!(
            load_text("a: &x 1\nb: *x\n").unwrap_err().message,
            "Unknown alias: x"
        );
        assert!(load_text("a: [\n")
            .unwrap_err()
            .message
            .starts_with("(hiera.yaml): "));
        assert_eq!(
            Config::load(Path::new("/nonexistent/hiera.yaml"), None)
                .unwrap_err()
                .message,
            "Config file /nonexistent/hiera.yaml not found"
        );
    }
}
