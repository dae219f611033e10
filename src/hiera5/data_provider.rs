//! Puppet 4 data providers: an environment's `environment_data_provider`
//! (its `environment.conf`) and a module's `"data_provider"` (its
//! `metadata.json`), as Puppet 7.23 and OpenVox 8.28.1 still read them,
//! deprecated (`Puppet::Pops::Lookup::LookupAdapter#initialize_env_provider`
//! and `#initialize_module_provider`).
//!
//! What a layer's configuration is, once per session:
//!
//! - no setting: the layer's hiera.yaml, if it has one (as without this
//!   module);
//! - a version 5 hiera.yaml wins over any setting (even an unknown name):
//!   the setting is ignored, with a deprecation warning;
//! - `none`: the layer has no data (its hiera.yaml, version 4, is not read);
//! - `hiera`: the layer's version 4 hiera.yaml, or Puppet's default
//!   version 5 configuration (`data/common.yaml` under the layer's
//!   directory) when it has none; with a version 3 hiera.yaml (ignored),
//!   every lookup that reaches the layer fails as Puppet's code fails
//!   (``undefined method `configured_data_providers' for nil:NilClass``);
//! - `function`: one hierarchy entry, `Legacy function 'environment::data'`
//!   (or `'<module>::data'`), whose `v4_data_hash` function is called
//!   without arguments for the layer's whole hash, through the host (see
//!   [`crate::host`]); its values are checked and interpolated as a
//!   `data_hash` level's. Without a host that runs functions it is Puppet's
//!   own error for a function it cannot find: `Unable to find
//!   'v4_data_hash' function named 'environment::data'`;
//! - any other name: Puppet's error, `Environment 'production', cannot find
//!   environment_data_provider 'x'`; for a module the error Puppet's code
//!   really raises (a `NoMethodError` of its own message).
//!
//! Each use of a setting that is not ignored silently warns as Puppet does
//! (`deprecations` warnings, once per key), unless `strict` is `off`.
//!
//! Puppet's `environment_data_provider` setting of puppet.conf (the default
//! of environment.conf's) is not an option of libhiera: only the
//! environment.conf setting is read.

use crate::data::FileCache;
use crate::error::{Error, ErrorKind, Result};
use crate::hiera5::config::{Entry, FunctionKind, HieraConfig, LayerKind, LocationSpec};
use crate::hiera5::lookup::Strict;
use crate::hiera5::modulepath::ConfValue;
use crate::host::Warning;
use crate::value::{Map, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A data provider setting: its value as Puppet shows it in messages
/// (`%{name}`), and what it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    /// The value as Ruby's `to_s` shows it (`function`, `true`, `5`).
    pub shown: String,
    /// What the value names.
    pub provider: Provider,
}

/// The providers Puppet 7.23 has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provider {
    /// `none`: no data.
    None,
    /// `hiera`: the layer's hiera.yaml, or the default configuration.
    Hiera,
    /// `function`: `environment::data()` or `<module>::data()`.
    Function,
    /// Any other value: an error.
    Unknown,
}

impl Setting {
    /// The setting of a value as Puppet reads it.
    fn of(shown: String, name: Option<&str>) -> Setting {
        let provider = match name {
            Some("none") => Provider::None,
            Some("hiera") => Provider::Hiera,
            Some("function") => Provider::Function,
            _ => Provider::Unknown,
        };
        Setting { shown, provider }
    }

    /// Puppet's `environment_data_provider` setting (a string).
    pub fn of_setting(value: &str) -> Setting {
        Setting::of(value.to_string(), Some(value))
    }

    /// An environment.conf value (text, or a boolean, which names nothing).
    pub fn of_conf(value: &ConfValue) -> Setting {
        match value {
            ConfValue::Text(t) => Setting::of(t.clone(), Some(t)),
            ConfValue::Bool(b) => Setting::of(b.to_string(), None),
        }
    }

    /// A metadata.json value (a String names a provider; anything else is
    /// unknown, shown as Ruby's `to_s` shows it).
    pub fn of_json(value: &Value) -> Setting {
        match value {
            Value::String(s) => Setting::of(s.to_string(), Some(s)),
            other => {
                let mut shown = String::new();
                crate::ruby::to_s(other, &mut shown);
                Setting::of(shown, None)
            }
        }
    }
}

/// The `environment_data_provider` of the environment in `env_dir`, from
/// its environment.conf (`None`: no file, or no such setting). An
/// environment.conf Puppet cannot read is an error, as
/// [`crate::hiera5::modulepath`] reports it.
pub fn environment_setting(env_dir: &Path) -> Result<Option<Setting>> {
    let conf = env_dir.join("environment.conf");
    let Some(text) = crate::hiera5::modulepath::read_environment_conf(&conf)? else {
        return Ok(None);
    };
    Ok(crate::hiera5::modulepath::environment_conf_setting(
        &text,
        &conf,
        "environment_data_provider",
    )?
    .map(|(v, _)| Setting::of_conf(&v)))
}

/// The configuration Puppet 4's `function` provider makes
/// (`HieraConfig.v4_function_config`): version 5, no file, one entry named
/// `Legacy function '<function>'` that calls `function` (kind
/// `v4_data_hash`) once, without a location.
pub fn function_config(root: &Path, function: &str) -> HieraConfig {
    HieraConfig {
        path: None,
        root: root.to_path_buf(),
        version: 5,
        hierarchy: vec![Entry {
            name: format!("Legacy function '{function}'"),
            function_kind: FunctionKind::V4DataHash,
            function_name: function.to_string(),
            datadir: "data".into(),
            interpolate_datadir: false,
            datadir_from_cwd: false,
            locations: LocationSpec::None,
            extension: None,
            options: Map::default(),
        }],
        default_hierarchy: None,
        plan_hierarchy: None,
        merge_behavior: "native".into(),
        deep_merge_options: Map::default(),
    }
}

/// Whether `config` is one [`function_config`] made (a session may keep
/// what it resolved, as it keeps a file's: Puppet calls the function once
/// per compilation).
pub fn is_function_config(config: &HieraConfig) -> bool {
    config.path.is_none()
        && config
            .hierarchy
            .first()
            .is_some_and(|e| e.function_kind == FunctionKind::V4DataHash)
}

/// What Puppet's code raises when a `hiera` provider's hiera.yaml is a
/// version 3 one it ignored: its configuration is nil.
fn no_configuration() -> Error {
    Error::new(
        ErrorKind::Type,
        "undefined method `configured_data_providers' for nil:NilClass",
    )
}

/// A layer's hiera.yaml as the providers see it: whether the file exists,
/// and its configuration (`None` when missing, or a version 3 file
/// ignored outside the global layer).
struct HieraFile {
    path: PathBuf,
    exists: bool,
    config: Option<Arc<HieraConfig>>,
}

impl HieraFile {
    fn read(cache: &FileCache, path: PathBuf, layer: LayerKind) -> Result<HieraFile> {
        let exists = cache.exists(&path);
        let config = if exists {
            cache.config(&path, layer)?
        } else {
            None
        };
        Ok(HieraFile {
            path,
            exists,
            config,
        })
    }

    /// A version 5 (or later) configuration, which wins over a setting.
    fn is_v5(&self) -> bool {
        self.config.as_ref().is_some_and(|c| c.version >= 5)
    }

    /// The `hiera` provider's configuration: the file's, Puppet's default
    /// one without a file, an error for an ignored one.
    fn for_hiera(self, root: &Path) -> Result<Option<Arc<HieraConfig>>> {
        match self.config {
            Some(c) => Ok(Some(c)),
            None if self.exists => Err(no_configuration()),
            None => Ok(Some(Arc::new(HieraConfig::implicit_default(root)))),
        }
    }
}

/// The deprecation warning Puppet logs once per `key`.
fn deprecation(key: String, message: String, file: &Path) -> Warning {
    Warning {
        file: Some(file.to_path_buf()),
        ..Warning::once("deprecations", key, message)
    }
}

/// Puppet's warning for a `function` provider's configuration.
fn legacy_function(function: &str) -> Warning {
    Warning::once(
        "deprecations",
        "legacy_provider_function".into(),
        format!(
            "Using of legacy data provider function '{function}'. Please convert to a 'data_hash' function"
        ),
    )
}

/// The environment layer's configuration (`initialize_env_provider`):
/// `env_dir` is the environment's directory, `setting` its
/// environment.conf's `environment_data_provider`, `environment` its name.
/// Warnings go to `warnings`.
pub(crate) fn environment_layer(
    cache: &FileCache,
    strict: Strict,
    env_dir: &Path,
    environment: &str,
    setting: Option<&Setting>,
    warnings: &mut Vec<Warning>,
) -> Result<Option<Arc<HieraConfig>>> {
    let path = env_dir.join("hiera.yaml");
    let Some(setting) = setting else {
        // Without a setting, only an existing file is read (as before),
        // with one `stat`.
        return cache.config_if_exists(&path, LayerKind::Environment);
    };
    let file = HieraFile::read(cache, path, LayerKind::Environment)?;
    let conf = env_dir.join("environment.conf");
    let name = &setting.shown;
    let warn = strict != Strict::Off;
    if file.is_v5() {
        if warn {
            warnings.push(deprecation(
                "environment.conf#data_provider".into(),
                format!(
                    "Defining environment_data_provider='{name}' in environment.conf is deprecated"
                ),
                &conf,
            ));
            if setting.provider != Provider::Hiera {
                warnings.push(deprecation(
                    "environment.conf#data_provider_overridden".into(),
                    format!(
                        "The environment_data_provider='{name}' setting is ignored since '{}' version >= 5",
                        file.path.display()
                    ),
                    &conf,
                ));
            }
        }
        return Ok(file.config);
    }
    if warn {
        let mut message = format!(
            "Defining environment_data_provider='{name}' in environment.conf is deprecated."
        );
        if file.config.is_none() {
            message.push_str(" A 'hiera.yaml' file should be used instead");
        }
        warnings.push(deprecation(
            "environment.conf#data_provider".into(),
            message,
            &conf,
        ));
    }
    match setting.provider {
        Provider::None => Ok(None),
        Provider::Hiera => file.for_hiera(env_dir),
        Provider::Function => {
            if warn {
                warnings.push(legacy_function("environment::data"));
            }
            Ok(Some(Arc::new(function_config(
                env_dir,
                "environment::data",
            ))))
        }
        Provider::Unknown => Err(Error::new(
            ErrorKind::Config,
            format!("Environment '{environment}', cannot find environment_data_provider '{name}'"),
        )),
    }
}

/// A module layer's configuration (`initialize_module_provider`): the
/// module `name` in `dir` (a module Puppet keeps), with its metadata.json's
/// `data_provider` (`setting`). Warnings go to `warnings`.
pub(crate) fn module_layer(
    cache: &FileCache,
    strict: Strict,
    dir: &Path,
    name: &str,
    setting: Option<&Setting>,
    warnings: &mut Vec<Warning>,
) -> Result<Option<Arc<HieraConfig>>> {
    let path = dir.join("hiera.yaml");
    let Some(setting) = setting else {
        return cache.config(&path, LayerKind::Module);
    };
    let file = HieraFile::read(cache, path, LayerKind::Module)?;
    let metadata = dir.join("metadata.json");
    let key = format!("metadata.json#data_provider-{name}");
    let shown = &setting.shown;
    let warn = strict != Strict::Off;
    if file.is_v5() {
        if warn {
            warnings.push(deprecation(
                key,
                format!(
                    "Defining \"data_provider\": \"{shown}\" in metadata.json is deprecated. It is ignored since a 'hiera.yaml' with version >= 5 is present"
                ),
                &metadata,
            ));
        }
        return Ok(file.config);
    }
    if warn {
        let mut message =
            format!("Defining \"data_provider\": \"{shown}\" in metadata.json is deprecated.");
        if file.config.is_none() {
            message.push_str(" A 'hiera.yaml' file should be used instead");
        }
        warnings.push(deprecation(key, message, &metadata));
    }
    match setting.provider {
        Provider::None => Ok(None),
        Provider::Hiera => file.for_hiera(dir),
        Provider::Function => {
            let function = format!("{name}::data");
            if warn {
                warnings.push(legacy_function(&function));
            }
            Ok(Some(Arc::new(function_config(dir, &function))))
        }
        // Puppet 7.23 and 8 apply `%` to the exception instead of to its
        // message, and raise what Ruby raises for that.
        Provider::Unknown => Err(Error::new(
            ErrorKind::Type,
            "undefined method `%' for #<Puppet::Error: Environment '%{env}', cannot find module_data_provider '%{provider}'>",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_name_providers_as_puppet_compares_them() {
        let text = |s: &str| Setting::of_conf(&ConfValue::Text(s.into()));
        assert_eq!(text("function").provider, Provider::Function);
        assert_eq!(text("hiera").provider, Provider::Hiera);
        assert_eq!(text("none").provider, Provider::None);
        for other in ["Function", "", " none", "custom"] {
            assert_eq!(text(other).provider, Provider::Unknown, "{other:?}");
        }
        let b = Setting::of_conf(&ConfValue::Bool(true));
        assert_eq!((b.shown.as_str(), b.provider), ("true", Provider::Unknown));
        let j = Setting::of_json(&Value::Int(5));
        assert_eq!((j.shown.as_str(), j.provider), ("5", Provider::Unknown));
        let j = Setting::of_json(&Value::from("function"));
        assert_eq!(j.provider, Provider::Function);
    }

    #[test]
    fn the_function_configuration_is_puppets() {
        let c = function_config(Path::new("/env"), "environment::data");
        assert!(is_function_config(&c));
        assert_eq!(c.version, 5);
        assert_eq!(c.hierarchy.len(), 1);
        let e = &c.hierarchy[0];
        assert_eq!(e.name, "Legacy function 'environment::data'");
        assert_eq!(e.function_kind.key(), "v4_data_hash");
        assert_eq!(e.locations, LocationSpec::None);
        assert!(!is_function_config(&HieraConfig::implicit_default(
            Path::new("/env")
        )));
    }

    /// A scratch directory, removed when dropped.
    struct Dir(PathBuf);

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn dir(tag: &str, files: &[(&str, &str)]) -> Dir {
        let d = Dir(std::env::temp_dir().join(format!(
            "libhiera-data-provider-{tag}-{}",
            std::process::id()
        )));
        let _ = std::fs::remove_dir_all(&d.0);
        std::fs::create_dir_all(&d.0).unwrap();
        for (name, text) in files {
            std::fs::write(d.0.join(name), text).unwrap();
        }
        d
    }

    fn env(
        d: &Dir,
        strict: Strict,
        setting: &str,
    ) -> (
        std::result::Result<Option<Arc<HieraConfig>>, String>,
        Vec<String>,
    ) {
        let mut w = Vec::new();
        let r = environment_layer(
            &FileCache::default(),
            strict,
            &d.0,
            "production",
            Some(&Setting::of_conf(&ConfValue::Text(setting.into()))),
            &mut w,
        );
        (
            r.map_err(|e| e.message),
            w.into_iter()
                .map(|w| format!("{}|{}", w.key, w.message))
                .collect(),
        )
    }

    #[test]
    fn environment_providers_and_their_warnings() {
        let d = dir("env", &[]);
        let (c, w) = env(&d, Strict::Warning, "function");
        assert!(is_function_config(&c.unwrap().unwrap()));
        assert_eq!(w, [
            "environment.conf#data_provider|Defining environment_data_provider='function' in environment.conf is deprecated. A 'hiera.yaml' file should be used instead",
            "legacy_provider_function|Using of legacy data provider function 'environment::data'. Please convert to a 'data_hash' function",
        ]);
        let (c, w) = env(&d, Strict::Off, "hiera");
        let c = c.unwrap().unwrap();
        assert!(c.path.is_none() && c.version == 5 && !is_function_config(&c));
        assert!(w.is_empty());
        assert!(env(&d, Strict::Error, "none").0.unwrap().is_none());
        assert_eq!(
            env(&d, Strict::Error, "x").0.unwrap_err(),
            "Environment 'production', cannot find environment_data_provider 'x'"
        );
        // A version 5 hiera.yaml wins, even over an unknown name.
        std::fs::write(d.0.join("hiera.yaml"), "version: 5\n").unwrap();
        let (c, w) = env(&d, Strict::Warning, "x");
        assert_eq!(c.unwrap().unwrap().path, Some(d.0.join("hiera.yaml")));
        assert_eq!(w.len(), 2);
        assert!(w[1].starts_with("environment.conf#data_provider_overridden|The environment_data_provider='x' setting is ignored since '"));
        let (_, w) = env(&d, Strict::Warning, "hiera");
        assert_eq!(w, ["environment.conf#data_provider|Defining environment_data_provider='hiera' in environment.conf is deprecated"]);
        // Version 4: kept by hiera, replaced by function, dropped by none.
        std::fs::write(d.0.join("hiera.yaml"), "version: 4\n").unwrap();
        assert_eq!(env(&d, Strict::Off, "hiera").0.unwrap().unwrap().version, 4);
        assert!(is_function_config(
            &env(&d, Strict::Off, "function").0.unwrap().unwrap()
        ));
        assert!(env(&d, Strict::Off, "none").0.unwrap().is_none());
        // Version 3 (ignored): hiera has no configuration at all.
        std::fs::write(d.0.join("hiera.yaml"), ":backends: [yaml]\n").unwrap();
        assert_eq!(
            env(&d, Strict::Off, "hiera").0.unwrap_err(),
            "undefined method `configured_data_providers' for nil:NilClass"
        );
    }

    #[test]
    fn module_providers() {
        let d = dir("module", &[]);
        let m = |setting: Value, strict: Strict| {
            let mut w = Vec::new();
            let r = module_layer(
                &FileCache::default(),
                strict,
                &d.0,
                "mymod",
                Some(&Setting::of_json(&setting)),
                &mut w,
            );
            (r.map_err(|e| e.message), w)
        };
        let (c, w) = m(Value::from("function"), Strict::Warning);
        assert_eq!(
            c.unwrap().unwrap().hierarchy[0].function_name,
            "mymod::data"
        );
        assert_eq!(w[0].key, "metadata.json#data_provider-mymod");
        assert_eq!(
            w[0].file.as_deref(),
            Some(d.0.join("metadata.json").as_path())
        );
        assert!(m(Value::Int(5), Strict::Off)
            .0
            .unwrap_err()
            .starts_with("undefined method `%' for #<Puppet::Error:"));
        let (_, w) = m(Value::Int(5), Strict::Warning);
        assert_eq!(w[0].message, "Defining \"data_provider\": \"5\" in metadata.json is deprecated. A 'hiera.yaml' file should be used instead");
    }
}
