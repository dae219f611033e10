//! hiera.yaml: versions 5, 4 and 3 as Puppet 7.23 reads them, with Puppet's
//! validation and error texts.

use crate::error::{Error, ErrorKind, Result};
use crate::value::Str;
use crate::value::{Key, Map, Value};
use regex::Regex;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Which layer a configuration belongs to (validation differs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayerKind {
    /// The global layer (`hiera_config`).
    Global,
    /// The environment layer.
    Environment,
    /// A module layer.
    Module,
}

/// The kind of data provider function of a hierarchy entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunctionKind {
    /// `data_hash`: returns the whole hash of a location.
    DataHash,
    /// `lookup_key`: called per key.
    LookupKey,
    /// `data_dig`: called per key with its segments.
    DataDig,
    /// `hiera3_backend`: a classic Hiera 3 backend (global layer only).
    Hiera3Backend,
    /// `v4_data_hash`: a Puppet 4 data provider function (`environment::data`,
    /// `<module>::data`), called without arguments for its whole hash (see
    /// [`crate::hiera5::data_provider`]).
    V4DataHash,
}

impl FunctionKind {
    /// The hiera.yaml key naming this kind.
    pub fn key(self) -> &'static str {
        match self {
            FunctionKind::DataHash => "data_hash",
            FunctionKind::LookupKey => "lookup_key",
            FunctionKind::DataDig => "data_dig",
            FunctionKind::Hiera3Backend => "hiera3_backend",
            FunctionKind::V4DataHash => "v4_data_hash",
        }
    }
}

/// How an entry names its data locations.
#[derive(Clone, Debug, PartialEq)]
pub enum LocationSpec {
    /// No location key: the function is called once without a path.
    None,
    /// `path` / `paths` (and v3/v4 paths, with their extension).
    Paths(Vec<String>),
    /// `glob` / `globs`.
    Globs(Vec<String>),
    /// `uri` / `uris`.
    Uris(Vec<String>),
    /// `mapped_paths: [scope expression, variable, template]`.
    Mapped(String, String, String),
}

/// One hierarchy entry, validated, not yet interpolated.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The entry's name (`name:`; the backend name for v3).
    pub name: String,
    /// The data provider function kind.
    pub function_kind: FunctionKind,
    /// The data provider function name (`yaml_data`, `json_data`, ...).
    pub function_name: String,
    /// The datadir as declared (relative to the config root unless absolute).
    pub datadir: String,
    /// Whether `datadir` is interpolated (v5 and v3) or not (v4).
    pub interpolate_datadir: bool,
    /// Whether a relative `datadir` is relative to the working directory (v3).
    pub datadir_from_cwd: bool,
    /// Locations.
    pub locations: LocationSpec,
    /// An extension appended to paths that lack it (v3 and v4).
    pub extension: Option<String>,
    /// `options` (entry options replace defaults options), uninterpolated.
    pub options: Map,
}

/// A parsed hiera.yaml.
#[derive(Clone, Debug)]
pub struct HieraConfig {
    /// The file, or `None` for the implicit default global config.
    pub path: Option<PathBuf>,
    /// The directory the config's relative datadirs are relative to.
    pub root: PathBuf,
    /// 3, 4 or 5.
    pub version: u32,
    /// The hierarchy.
    pub hierarchy: Vec<Entry>,
    /// A module's `default_hierarchy`.
    pub default_hierarchy: Option<Vec<Entry>>,
    /// `plan_hierarchy`: the hierarchy of lookups made by plans (Puppet's
    /// script compiler; [`crate::hiera5::lookup::SessionOptions::plan`]).
    pub plan_hierarchy: Option<Vec<Entry>>,
    /// v3 `merge_behavior` (`native`, `deep`, `deeper`).
    pub merge_behavior: String,
    /// v3 `deep_merge_options`.
    pub deep_merge_options: Map,
}

impl HieraConfig {
    /// The name explain shows for this config: `hiera configuration version N`.
    pub fn name(&self) -> String {
        format!("hiera configuration version {}", self.version)
    }

    /// The built-in default global config (used when no global hiera.yaml
    /// exists): `data/common.yaml` under `root`, missing files dropped.
    pub fn implicit_default(root: &Path) -> HieraConfig {
        HieraConfig {
            path: None,
            root: root.to_path_buf(),
            version: 5,
            hierarchy: vec![Entry {
                name: "Common".into(),
                function_kind: FunctionKind::DataHash,
                function_name: "yaml_data".into(),
                datadir: "data".into(),
                interpolate_datadir: true,
                datadir_from_cwd: false,
                locations: LocationSpec::Paths(vec!["common.yaml".into()]),
                extension: None,
                options: Map::default(),
            }],
            default_hierarchy: None,
            plan_hierarchy: None,
            merge_behavior: "native".into(),
            deep_merge_options: Map::default(),
        }
    }

    /// Parses the text of a hiera.yaml file at `path` for `layer`.
    ///
    /// `Ok(None)` means "this layer has no configuration" (a v3 file in the
    /// environment or module layer is ignored, as Puppet does with a warning).
    pub fn parse(text: &str, path: &Path, layer: LayerKind) -> Result<Option<HieraConfig>> {
        let root = path.parent().map(Path::to_path_buf).unwrap_or_default();
        // Puppet reads hiera.yaml as 'bom|utf-8': a leading BOM is dropped.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        // A hiera.yaml syntax error reads `(<path>): <problem>` (Psych's own text).
        let loaded =
            crate::yaml::load(text, &crate::yaml::YamlOptions::default()).map_err(|e| {
                let message = if e.has_path() {
                    format!("({}): {}", path.display(), e.message)
                } else {
                    e.message.clone()
                };
                Error {
                    kind: ErrorKind::Parse,
                    message,
                    file: Some(path.to_path_buf()),
                    line: e.line,
                }
            })?;
        let cfg = match loaded {
            Some(v @ Value::Hash(_)) => symkeys_to_string(&v),
            _ => {
                // "File exists but does not contain a valid YAML hash. Falling
                // back to Hiera version 3 default config"
                v3_default()
            }
        };
        let Value::Hash(map) = &cfg else {
            unreachable!()
        };
        let version_value = map.get(&Key("version"));
        let version = match version_value {
            None | Some(Value::Nil) => 3,
            Some(Value::Int(i)) => *i,
            Some(Value::Float(f)) => *f as i64,
            Some(Value::String(s)) => ruby_to_i(s),
            Some(_) => 0,
        };
        let ctx = Ctx { path, text };
        match version {
            5 => Ok(Some(parse_v5(map, &ctx, &root, layer)?)),
            4 => {
                if layer == LayerKind::Global {
                    return Err(Error::config(
                        "hiera.yaml version 4 cannot be used in the global layer",
                        path,
                        None,
                    ));
                }
                Ok(Some(parse_v4(map, &ctx, &root)?))
            }
            3 => {
                // Validated in every layer, then ignored outside the global one.
                let c = parse_v3(map, &ctx, &root)?;
                if layer != LayerKind::Global {
                    return Ok(None);
                }
                Ok(Some(c))
            }
            v => Err(Error::config(
                format!("This runtime does not support hiera.yaml version {v}"),
                path,
                None,
            )),
        }
    }
}

fn ruby_to_i(s: &str) -> i64 {
    let t = s.trim_start();
    let mut end = 0;
    let b = t.as_bytes();
    if end < b.len() && (b[end] == b'-' || b[end] == b'+') {
        end += 1;
    }
    while end < b.len() && (b[end].is_ascii_digit() || b[end] == b'_') {
        end += 1;
    }
    t[..end].replace('_', "").parse().unwrap_or(0)
}

fn v3_default() -> Value {
    let mut m = Map::default();
    m.insert("backends".into(), Value::array(vec!["yaml".into()]));
    m.insert(
        "hierarchy".into(),
        Value::array(vec!["nodes/%{::trusted.certname}".into(), "common".into()]),
    );
    m.insert("merge_behavior".into(), "native".into());
    Value::hash(m)
}

/// Converts Symbol keys to String keys recursively (Puppet's `symkeys_to_string`).
/// A value with no Symbol key (as a configuration read from YAML has, but
/// for `:key:` spellings) is returned as it is, shared, not rebuilt.
pub fn symkeys_to_string(v: &Value) -> Value {
    if !has_symbol_key(v) {
        return v.clone();
    }
    converted(v)
}

/// Whether a Hash in `v` has a Symbol key.
fn has_symbol_key(v: &Value) -> bool {
    crate::stack::grow(|| match v {
        Value::Hash(h) => h
            .iter()
            .any(|(k, v)| matches!(k, Value::Symbol(_)) || has_symbol_key(v)),
        Value::Array(a) => a.iter().any(has_symbol_key),
        _ => false,
    })
}

/// [`symkeys_to_string`] of a value with a Symbol key: every Hash rebuilt.
fn converted(v: &Value) -> Value {
    crate::stack::grow(|| match v {
        Value::Hash(h) => {
            let mut m = Map::with_capacity(h.len());
            for (k, v) in h.iter() {
                let k = match k {
                    Value::Symbol(s) => Value::String(Str::new(s)),
                    other => other.clone(),
                };
                m.insert(k, converted(v));
            }
            Value::hash(m)
        }
        Value::Array(a) => Value::array(a.iter().map(converted).collect()),
        other => other.clone(),
    })
}

struct Ctx<'a> {
    path: &'a Path,
    text: &'a str,
}

impl Ctx<'_> {
    fn type_error(&self, detail: impl std::fmt::Display) -> Error {
        let mut e = Error::new(
            ErrorKind::Type,
            format!(
                "The Lookup Configuration at '{}' has wrong type, {}",
                self.path.display(),
                detail
            ),
        );
        e.file = Some(self.path.to_path_buf());
        e
    }

    fn fail(&self, msg: impl Into<String>, line: Option<usize>) -> Error {
        Error::config(msg, self.path, line)
    }

    /// Puppet's `find_line_matching`: the first line at or after `start`
    /// (1-based) whose text, with unquoted `#` comments stripped, matches.
    fn find_line(&self, re: &Regex, start: usize) -> Option<usize> {
        for (i, line) in self.text.lines().enumerate() {
            let n = i + 1;
            if n < start {
                continue;
            }
            let mut quote: Option<char> = None;
            let mut stripped = String::new();
            for c in line.chars() {
                if c == '"' || c == '\'' {
                    if quote == Some(c) {
                        quote = None;
                    } else if quote.is_none() {
                        quote = Some(c);
                    }
                } else if c == '#' {
                    break;
                }
                stripped.push(c);
            }
            if re.is_match(&stripped) {
                return Some(n);
            }
        }
        None
    }

    fn duplicate(&self, re: &Regex, msg_name: &str, what: &str) -> Error {
        let first = self.find_line(re, 1);
        let mut line = first.and_then(|f| self.find_line(re, f + 1));
        let mut first_line = first;
        if line.is_none() {
            line = first;
            first_line = None;
        }
        let verb = if what == "Backend" {
            "is defined"
        } else {
            "defined"
        };
        let mut msg = format!("{what} '{msg_name}' {verb} more than once");
        if let Some(f) = first_line {
            msg.push_str(&format!(". First defined at (line: {f})"));
        }
        self.fail(msg, line)
    }
}

fn nes(v: &Value) -> Option<&str> {
    match v {
        Value::String(s) if !s.is_empty() => Some(s),
        _ => None,
    }
}

fn type_name(v: &Value) -> String {
    match v {
        Value::String(s) if s.is_empty() => "String".into(),
        Value::Hash(_) => "Hash".into(),
        Value::Array(_) => "Array".into(),
        other => crate::hiera5::ptype::infer_type(other),
    }
}

/// Puppet's regexp for the line declaring hierarchy entry `name`
/// (the name is spliced in unescaped, as Puppet does; if that is not a
/// valid pattern, no line is named).
fn name_line_regex(name: &str) -> Regex {
    Regex::new(&format!(r#"\s+name:\s+['"]?{name}(?:[^\w]|$)"#))
        .unwrap_or_else(|_| Regex::new("$^").expect("valid"))
}

fn hiera3_backend_line() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"\s+hiera3_backend:").expect("valid"))
}

fn variant_type(v: &Value) -> String {
    match v {
        Value::Array(_) => "Tuple".into(),
        Value::Hash(_) => "Struct".into(),
        other => type_name(other),
    }
}
const ALL_FUNCTION_KEYS: [&str; 5] = [
    "data_hash",
    "lookup_key",
    "data_dig",
    "hiera3_backend",
    "v4_data_hash",
];
const LOCATION_KEYS: [&str; 7] = [
    "path",
    "paths",
    "glob",
    "globs",
    "uri",
    "uris",
    "mapped_paths",
];

fn option_key_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"\A[A-Za-z](:?[0-9A-Za-z_-]*[0-9A-Za-z])?\z").unwrap())
}

fn check_options(ctx: &Ctx, prefix: &str, v: &Value) -> Result<Map> {
    let Value::Hash(h) = v else {
        return Err(ctx.type_error(format!(
            "{prefix}entry 'options' expects a Hash value, got {}",
            type_name(v)
        )));
    };
    for (k, val) in h.iter() {
        let ok = matches!(k, Value::String(s) if option_key_re().is_match(s));
        if !ok {
            let mut ks = String::new();
            crate::ruby::to_s(k, &mut ks);
            return Err(ctx.type_error(format!(
                "{prefix}entry 'options' key of entry '{ks}' expects a match for Pattern[/\\A[A-Za-z](:?[0-9A-Za-z_-]*[0-9A-Za-z])?\\z/], got '{ks}'"
            )));
        }
        if !crate::hiera5::ptype::is_data(val) {
            return Err(ctx.type_error(format!(
                "{prefix}entry 'options' entry '{}' expects a Data value, got {}",
                k.as_str().unwrap_or(""),
                type_name(val)
            )));
        }
    }
    Ok(h.clone())
}

fn parse_v5(map: &Map, ctx: &Ctx, root: &Path, layer: LayerKind) -> Result<HieraConfig> {
    for k in map.keys() {
        match k.as_str() {
            Some("version" | "defaults" | "hierarchy" | "plan_hierarchy" | "default_hierarchy") => {
            }
            _ => {
                let mut ks = String::new();
                crate::ruby::to_s(k, &mut ks);
                return Err(ctx.type_error(format!("unrecognized key '{ks}'")));
            }
        }
    }
    match map.get(&Key("version")) {
        Some(Value::Int(5)) => {}
        Some(v) => {
            return Err(ctx.type_error(format!(
                "entry 'version' expects an Integer value, got {}",
                type_name(v)
            )))
        }
        None => unreachable!(),
    }
    // Defaults: absent -> {datadir: data, data_hash: yaml_data}.
    let mut def_function: Option<(FunctionKind, String)> = None;
    let mut def_datadir = "data".to_string();
    let mut def_options: Option<Map> = None;
    match map.get(&Key("defaults")) {
        None | Some(Value::Nil) => {
            def_function = Some((FunctionKind::DataHash, "yaml_data".into()))
        }
        Some(Value::Hash(d)) => {
            let mut count = 0;
            for (k, v) in d.iter() {
                let key = k.as_str().unwrap_or("");
                match key {
                    "data_hash" | "lookup_key" | "data_dig" => {
                        let name = nes(v).ok_or_else(|| {
                            ctx.type_error(format!(
                                "entry 'defaults' entry '{key}' expects a String[1] value, got {}",
                                type_name(v)
                            ))
                        })?;
                        count += 1;
                        def_function = Some((function_kind(key), name.to_string()));
                    }
                    "datadir" => {
                        def_datadir = nes(v)
                            .ok_or_else(|| ctx.type_error(format!("entry 'defaults' entry 'datadir' expects a String[1] value, got {}", type_name(v))))?
                            .to_string();
                    }
                    "options" => def_options = Some(check_options(ctx, "entry 'defaults' ", v)?),
                    _ => {
                        let mut ks = String::new();
                        crate::ruby::to_s(k, &mut ks);
                        return Err(
                            ctx.type_error(format!("entry 'defaults' unrecognized key '{ks}'"))
                        );
                    }
                }
            }
            if count > 1 {
                return Err(ctx.fail("Only one of data_hash, lookup_key, data_dig, or hiera3_backend can be defined in defaults", None));
            }
            if let Some(o) = &def_options {
                for r in ["path", "uri"] {
                    if o.contains_key(&Key(r)) {
                        return Err(ctx.fail(
                            format!("Option key '{r}' used in defaults is reserved by Puppet"),
                            None,
                        ));
                    }
                }
            }
            if count == 0 {
                def_function = None;
            }
        }
        Some(v) => {
            return Err(ctx.type_error(format!(
                "entry 'defaults' expects a Struct value, got {}",
                type_name(v)
            )))
        }
    }
    let defaults = Defaults {
        function: def_function,
        datadir: def_datadir,
        options: def_options,
    };
    let hierarchy = match map.get(&Key("hierarchy")) {
        None | Some(Value::Nil) => {
            let mut common = Map::default();
            common.insert("name".into(), "Common".into());
            common.insert("path".into(), "common.yaml".into());
            parse_entries(
                ctx,
                "hierarchy",
                &Value::array(vec![Value::hash(common)]),
                &defaults,
                layer,
            )?
        }
        Some(v) => parse_entries(ctx, "hierarchy", v, &defaults, layer)?,
    };
    let plan_hierarchy = match map.get(&Key("plan_hierarchy")) {
        Some(v) => Some(parse_entries(ctx, "plan_hierarchy", v, &defaults, layer)?),
        None => None,
    };
    let default_hierarchy = match map.get(&Key("default_hierarchy")) {
        None => None,
        Some(v) => {
            if layer != LayerKind::Module {
                static RE: OnceLock<Regex> = OnceLock::new();
                let re = RE.get_or_init(|| Regex::new(r"(?:^|\s+)default_hierarchy:").unwrap());
                return Err(ctx.fail(
                    "'default_hierarchy' is only allowed in the module layer",
                    ctx.find_line(re, 1),
                ));
            }
            Some(parse_entries(
                ctx,
                "default_hierarchy",
                v,
                &defaults,
                layer,
            )?)
        }
    };
    // Duplicate names are detected when the providers are created.
    for list in std::iter::once(&hierarchy).chain(default_hierarchy.iter()) {
        let mut seen = std::collections::HashSet::new();
        for e in list {
            if !seen.insert(e.name.as_str()) {
                let re = name_line_regex(&e.name);
                return Err(ctx.duplicate(&re, &e.name, "Hierarchy name"));
            }
        }
    }
    Ok(HieraConfig {
        path: Some(ctx.path.to_path_buf()),
        root: root.to_path_buf(),
        version: 5,
        hierarchy,
        default_hierarchy,
        plan_hierarchy,
        merge_behavior: "native".into(),
        deep_merge_options: Map::default(),
    })
}

struct Defaults {
    function: Option<(FunctionKind, String)>,
    datadir: String,
    options: Option<Map>,
}

fn function_kind(key: &str) -> FunctionKind {
    match key {
        "data_hash" => FunctionKind::DataHash,
        "v4_data_hash" => FunctionKind::V4DataHash,
        "lookup_key" => FunctionKind::LookupKey,
        "data_dig" => FunctionKind::DataDig,
        _ => FunctionKind::Hiera3Backend,
    }
}

fn parse_entries(
    ctx: &Ctx,
    list_key: &str,
    v: &Value,
    defaults: &Defaults,
    layer: LayerKind,
) -> Result<Vec<Entry>> {
    let Value::Array(items) = v else {
        return Err(ctx.type_error(format!(
            "entry '{list_key}' expects an Array value, got {}",
            type_name(v)
        )));
    };
    // First the structural (type) checks of every entry, then the semantic ones.
    for (i, item) in items.iter().enumerate() {
        // The errors' prefix, made only for an error.
        let p = || format!("entry '{list_key}' index {i} ");
        let Value::Hash(h) = item else {
            return Err(ctx.type_error(format!(
                "{}expects a Struct value, got {}",
                p(),
                type_name(item)
            )));
        };
        for (k, val) in h.iter() {
            let key = k.as_str().unwrap_or("");
            match key {
                "name" | "data_hash" | "lookup_key" | "data_dig" | "hiera3_backend"
                | "v4_data_hash" | "path" | "glob" | "uri" | "datadir" => {
                    if nes(val).is_none() {
                        return Err(ctx.type_error(format!(
                            "{}entry '{key}' expects a String[1] value, got {}",
                            p(),
                            type_name(val)
                        )));
                    }
                }
                "paths" | "globs" | "uris" | "mapped_paths" => {
                    let Value::Array(a) = val else {
                        return Err(ctx.type_error(format!(
                            "{}entry '{key}' expects an Array value, got {}",
                            p(),
                            type_name(val)
                        )));
                    };
                    if key == "mapped_paths" && a.len() != 3 {
                        return Err(ctx.type_error(format!(
                            "{}entry '{key}' expects size to be 3, got {}",
                            p(),
                            a.len()
                        )));
                    }
                    if a.is_empty() {
                        return Err(ctx.type_error(format!(
                            "{}entry '{key}' expects size to be at least 1, got 0",
                            p()
                        )));
                    }
                    if let Some((j, bad)) = a.iter().enumerate().find(|(_, x)| nes(x).is_none()) {
                        return Err(ctx.type_error(format!(
                            "{}entry '{key}' index {j} expects a String[1] value, got {}",
                            p(),
                            type_name(bad)
                        )));
                    }
                }
                "options" => {
                    check_options(ctx, &p(), val)?;
                }
                _ => {
                    let mut ks = String::new();
                    crate::ruby::to_s(k, &mut ks);
                    return Err(ctx.type_error(format!("{}unrecognized key '{ks}'", p())));
                }
            }
        }
        if !h.contains_key(&Key("name")) {
            return Err(ctx.type_error(format!("{}expects a value for key 'name'", p())));
        }
    }
    let mut out = Vec::with_capacity(items.len());
    for item in items.iter() {
        let h = item.as_hash().unwrap();
        let get = |k: &str| h.get(&Key(k));
        let name = get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let present: Vec<&str> = ALL_FUNCTION_KEYS
            .iter()
            .copied()
            .filter(|k| h.contains_key(&Key(k)))
            .collect();
        let (function_kind, function_name) = match present.len() {
            0 => match &defaults.function {
                Some((k, n)) => (*k, n.clone()),
                None => {
                    return Err(ctx.fail(
                        format!("One of data_hash, lookup_key, data_dig, or hiera3_backend must be defined in hierarchy '{name}'"),
                        None,
                    ))
                }
            },
            1 => (function_kind(present[0]), get(present[0]).and_then(Value::as_str).unwrap_or("").to_string()),
            _ => {
                return Err(ctx.fail(
                    format!("Only one of data_hash, lookup_key, data_dig, or hiera3_backend can be defined in hierarchy '{name}'"),
                    None,
                ))
            }
        };
        if function_kind == FunctionKind::Hiera3Backend {
            if layer != LayerKind::Global {
                return Err(ctx.fail(
                    "'hiera3_backend' is only allowed in the global layer",
                    ctx.find_line(hiera3_backend_line(), 1),
                ));
            }
            if function_name == "json" || function_name == "yaml" {
                let re = Regex::new(&format!(
                    r#"\s+hiera3_backend:\s*['"]?{function_name}(?:[^\w]|$)"#
                ))
                .unwrap();
                return Err(ctx.fail(
                    format!("Use \"data_hash: {function_name}_data\" instead of \"hiera3_backend: {function_name}\""),
                    ctx.find_line(&re, 1),
                ));
            }
        }
        let locs: Vec<&str> = LOCATION_KEYS
            .iter()
            .copied()
            .filter(|k| h.contains_key(&Key(k)))
            .collect();
        if locs.len() > 1 {
            return Err(ctx.fail(
                format!("Only one of path, paths, glob, globs, uri, uris, or mapped_paths can be defined in hierarchy '{name}'"),
                None,
            ));
        }
        let strings = |k: &str| -> Vec<String> {
            match get(k) {
                Some(Value::Array(a)) => a
                    .iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect(),
                Some(Value::String(s)) => vec![s.to_string()],
                _ => vec![],
            }
        };
        let locations = match locs.first().copied() {
            None => LocationSpec::None,
            Some("path" | "paths") => LocationSpec::Paths(strings(locs[0])),
            Some("glob" | "globs") => LocationSpec::Globs(strings(locs[0])),
            Some("uri" | "uris") => LocationSpec::Uris(strings(locs[0])),
            Some(_) => {
                let m = strings("mapped_paths");
                LocationSpec::Mapped(m[0].clone(), m[1].clone(), m[2].clone())
            }
        };
        let options = match get("options") {
            Some(o) => {
                let o = check_options(ctx, "", o)?;
                for r in ["path", "uri"] {
                    if o.contains_key(&Key(r)) {
                        return Err(ctx.fail(
                            format!(
                                "Option key '{r}' used in hierarchy '{name}' is reserved by Puppet"
                            ),
                            None,
                        ));
                    }
                }
                o
            }
            None => defaults.options.clone().unwrap_or_default(),
        };
        let datadir = get("datadir")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| defaults.datadir.clone());
        out.push(Entry {
            name,
            function_kind,
            function_name,
            datadir,
            interpolate_datadir: true,
            datadir_from_cwd: false,
            locations,
            extension: None,
            options,
        });
    }
    Ok(out)
}

fn parse_v4(map: &Map, ctx: &Ctx, root: &Path) -> Result<HieraConfig> {
    for k in map.keys() {
        match k.as_str() {
            Some("version" | "datadir" | "hierarchy") => {}
            _ => {
                let mut ks = String::new();
                crate::ruby::to_s(k, &mut ks);
                return Err(ctx.type_error(format!("unrecognized key '{ks}'")));
            }
        }
    }
    let default_datadir = match map.get(&Key("datadir")) {
        None => "data".to_string(),
        Some(v) => nes(v)
            .ok_or_else(|| {
                ctx.type_error(format!(
                    "entry 'datadir' expects a String[1] value, got {}",
                    type_name(v)
                ))
            })?
            .to_string(),
    };
    let mut entries = Vec::new();
    let items: Vec<Value> = match map.get(&Key("hierarchy")) {
        None => {
            let mut m = Map::default();
            m.insert("name".into(), "common".into());
            m.insert("backend".into(), "yaml".into());
            vec![Value::hash(m)]
        }
        Some(Value::Array(a)) => a.to_vec(),
        Some(v) => {
            return Err(ctx.type_error(format!(
                "entry 'hierarchy' expects an Array value, got {}",
                type_name(v)
            )))
        }
    };
    for (i, item) in items.iter().enumerate() {
        let p = format!("entry 'hierarchy' index {i} ");
        let Value::Hash(h) = item else {
            return Err(ctx.type_error(format!(
                "{p}expects a Struct value, got {}",
                type_name(item)
            )));
        };
        for (k, v) in h.iter() {
            match k.as_str() {
                Some("backend" | "name" | "datadir" | "path") => {
                    if nes(v).is_none() {
                        return Err(ctx.type_error(format!(
                            "{p}entry '{}' expects a String[1] value, got {}",
                            k.as_str().unwrap(),
                            type_name(v)
                        )));
                    }
                }
                Some("paths") => {
                    if !matches!(v, Value::Array(a) if a.iter().all(|x| nes(x).is_some())) {
                        return Err(ctx.type_error(format!(
                            "{p}entry 'paths' expects an Array value, got {}",
                            type_name(v)
                        )));
                    }
                }
                _ => {
                    let mut ks = String::new();
                    crate::ruby::to_s(k, &mut ks);
                    return Err(ctx.type_error(format!("{p}unrecognized key '{ks}'")));
                }
            }
        }
        for req in ["backend", "name"] {
            if !h.contains_key(&Key(req)) {
                return Err(ctx.type_error(format!("{p}expects a value for key '{req}'")));
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    for item in &items {
        let h = item.as_hash().unwrap();
        let get = |k: &str| h.get(&Key(k)).and_then(Value::as_str).map(str::to_string);
        let name = get("name").unwrap();
        if !seen.insert(name.clone()) {
            let re = name_line_regex(&regex::escape(&name));
            return Err(ctx.duplicate(&re, &name, "Hierarchy name"));
        }
        let backend = get("backend").unwrap();
        if backend != "yaml" && backend != "json" {
            let re = Regex::new(&format!(r"[^\w]{}(?:[^\w]|$)", regex::escape(&backend))).unwrap();
            return Err(ctx.fail(
                format!("No data provider is registered for backend '{backend}'"),
                ctx.find_line(&re, 1),
            ));
        }
        let paths = match h.get(&Key("paths")) {
            Some(Value::Array(a)) => a
                .iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect(),
            _ => vec![get("path").unwrap_or_else(|| name.clone())],
        };
        entries.push(Entry {
            name,
            function_kind: FunctionKind::DataHash,
            function_name: format!("{backend}_data"),
            datadir: get("datadir").unwrap_or_else(|| default_datadir.clone()),
            interpolate_datadir: false,
            datadir_from_cwd: false,
            locations: LocationSpec::Paths(paths),
            extension: Some(format!(".{backend}")),
            options: Map::default(),
        });
    }
    Ok(HieraConfig {
        path: Some(ctx.path.to_path_buf()),
        root: root.to_path_buf(),
        version: 4,
        hierarchy: entries,
        default_hierarchy: None,
        plan_hierarchy: None,
        merge_behavior: "native".into(),
        deep_merge_options: Map::default(),
    })
}

fn parse_v3(map: &Map, ctx: &Ctx, root: &Path) -> Result<HieraConfig> {
    let list = |v: Option<&Value>, default: &[&str]| -> Vec<String> {
        match v {
            None | Some(Value::Nil) => default.iter().map(|s| s.to_string()).collect(),
            Some(Value::String(s)) => vec![s.to_string()],
            Some(Value::Array(a)) => a
                .iter()
                .map(|x| x.as_str().unwrap_or("").to_string())
                .collect(),
            Some(_) => vec![],
        }
    };
    let backends = list(map.get(&Key("backends")), &["yaml"]);
    let hierarchy = list(
        map.get(&Key("hierarchy")),
        &["nodes/%{::trusted.certname}", "common"],
    );
    for (k, v) in map.iter() {
        let key = k.as_str().unwrap_or("");
        match key {
            "version" => {
                if !matches!(v, Value::Int(3)) {
                    return Err(ctx.type_error(format!(
                        "entry 'version' expects an Integer[3, 3] value, got {}",
                        type_name(v)
                    )));
                }
            }
            "backends" | "hierarchy" => {
                let ok = match v {
                    Value::String(s) => !s.is_empty(),
                    Value::Array(a) => a.iter().all(|x| nes(x).is_some()),
                    _ => false,
                };
                if !ok {
                    let head = format!(
                        "The Lookup Configuration at '{}' has wrong type, entry '{key}'",
                        ctx.path.display()
                    );
                    let variant1 = match v {
                        Value::Array(a) => {
                            let (i, bad) = a
                                .iter()
                                .enumerate()
                                .find(|(_, x)| nes(x).is_none())
                                .unwrap();
                            format!(
                                "index {i} expects a String value, got {}",
                                variant_type(bad)
                            )
                        }
                        other => format!("expects an Array value, got {}", variant_type(other)),
                    };
                    let mut e = Error::new(
                        ErrorKind::Type,
                        format!(" {head} variant 0 expects a String value, got {}\n  {head} variant 1 {variant1}", variant_type(v)),
                    );
                    e.file = Some(ctx.path.to_path_buf());
                    return Err(e);
                }
            }
            "logger" => {}
            "merge_behavior" => {
                if !matches!(v.as_str(), Some("deep" | "deeper" | "native")) {
                    let got = match v {
                        Value::String(s) => format!("'{s}'"),
                        other => type_name(other),
                    };
                    return Err(ctx.type_error(format!("entry 'merge_behavior' expects a match for Enum['deep', 'deeper', 'native'], got {got}")));
                }
            }
            "deep_merge_options" => {
                if !matches!(v, Value::Hash(_)) {
                    return Err(ctx.type_error(format!(
                        "entry 'deep_merge_options' expects a Hash value, got {}",
                        type_name(v)
                    )));
                }
            }
            other if backends.iter().any(|b| b == other) => {
                if !matches!(v, Value::Hash(_)) {
                    return Err(ctx.type_error(format!(
                        "entry '{other}' expects a Hash value, got {}",
                        type_name(v)
                    )));
                }
            }
            _ => {
                let mut ks = String::new();
                crate::ruby::to_s(k, &mut ks);
                return Err(ctx.type_error(format!("unrecognized key '{ks}'")));
            }
        }
    }
    let mut entries = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for backend in &backends {
        if !seen.insert(backend.clone()) {
            let re = Regex::new(&format!(r"[^\w]{}(?:[^\w]|$)", regex::escape(backend))).unwrap();
            return Err(ctx.duplicate(&re, backend, "Backend"));
        }
        let bconf = map
            .get(&Key(backend.as_str()))
            .and_then(Value::as_hash)
            .cloned()
            .unwrap_or_default();
        let ext = match bconf.get(&Key("extension")).and_then(Value::as_str) {
            Some(e) => format!(".{e}"),
            None if backend == "hocon" => ".conf".to_string(),
            None => format!(".{backend}"),
        };
        let datadir = bconf
            .get(&Key("datadir"))
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| {
                "%{::settings::codedir}/environments/%{::environment}/hieradata".to_string()
            });
        // As Puppet's HieraConfigV3: yaml, json and hocon read by their
        // data_hash functions, eyaml by its lookup_key function (with the
        // backend's settings as options), any other backend by its Hiera 3
        // class.
        let (kind, fname) = match backend.as_str() {
            "yaml" | "json" => (FunctionKind::DataHash, format!("{backend}_data")),
            "hocon" => (FunctionKind::DataHash, "hocon_data".to_string()),
            "eyaml" => (FunctionKind::LookupKey, "eyaml_lookup_key".to_string()),
            other => (FunctionKind::Hiera3Backend, other.to_string()),
        };
        let mut options = Map::default();
        if kind != FunctionKind::DataHash {
            for (k, v) in bconf.iter() {
                if k.as_str() != Some("datadir") {
                    options.insert(k.clone(), v.clone());
                }
            }
        }
        entries.push(Entry {
            name: backend.clone(),
            function_kind: kind,
            function_name: fname,
            datadir,
            interpolate_datadir: true,
            datadir_from_cwd: true,
            locations: LocationSpec::Paths(hierarchy.clone()),
            extension: Some(ext),
            options,
        });
    }
    Ok(HieraConfig {
        path: Some(ctx.path.to_path_buf()),
        root: root.to_path_buf(),
        version: 3,
        hierarchy: entries,
        default_hierarchy: None,
        plan_hierarchy: None,
        merge_behavior: map
            .get(&Key("merge_behavior"))
            .and_then(Value::as_str)
            .unwrap_or("native")
            .to_string(),
        deep_merge_options: map
            .get(&Key("deep_merge_options"))
            .and_then(Value::as_hash)
            .cloned()
            .unwrap_or_default(),
    })
}

/// Joins `right` to `left` as Ruby's `Pathname#+` does: an absolute right
/// side replaces the left; leading `.` and `..` components of the right
/// side are resolved against the left.
pub fn pathname_join(left: &Path, right: &str) -> PathBuf {
    if right.starts_with('/') {
        return PathBuf::from(right);
    }
    if !right.starts_with('.') {
        // The usual case: nothing to normalise.
        return join_relative(left, right);
    }
    let mut base = left.to_path_buf();
    let mut rest = right;
    loop {
        if let Some(r) = rest.strip_prefix("./") {
            rest = r.trim_start_matches('/');
        } else if rest == "." {
            rest = "";
        } else if rest == ".." || rest.starts_with("../") {
            let parent_ok = base.file_name().is_some_and(|n| n != "..");
            if parent_ok {
                base.pop();
            } else {
                base.push("..");
            }
            rest = rest.get(3..).unwrap_or("").trim_start_matches('/');
        } else {
            break;
        }
    }
    join_relative(&base, rest)
}

/// `left/right` (one `/` between them, none added when `right` is empty),
/// in one allocation of the right size.
fn join_relative(left: &Path, right: &str) -> PathBuf {
    let left = left.as_os_str();
    let mut s = std::ffi::OsString::with_capacity(left.len() + 1 + right.len());
    s.push(left);
    if !right.is_empty() {
        if left.as_encoded_bytes().last() != Some(&b'/') {
            s.push("/");
        }
        s.push(right);
    }
    PathBuf::from(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str, layer: LayerKind) -> Result<Option<HieraConfig>> {
        HieraConfig::parse(text, Path::new("/x/hiera.yaml"), layer)
    }

    #[test]
    fn v5_defaults_are_filled_in_when_absent() {
        let c = parse(
            "version: 5\nhierarchy:\n  - name: a\n    path: a.yaml\n",
            LayerKind::Global,
        )
        .unwrap()
        .unwrap();
        assert_eq!(c.hierarchy[0].function_name, "yaml_data");
        assert_eq!(c.hierarchy[0].datadir, "data");
    }

    #[test]
    fn v5_errors() {
        let e = parse(
            "version: 5\ndefaults:\n  datadir: data\nhierarchy:\n  - name: x\n    path: a\n",
            LayerKind::Global,
        )
        .unwrap_err();
        assert_eq!(
            e.message,
            "One of data_hash, lookup_key, data_dig, or hiera3_backend must be defined in hierarchy 'x' (file: /x/hiera.yaml)"
        );
        let e = parse(
            "version: 5\nhierarchy:\n  - name: c\n    path: a\n  - name: c\n    path: b\n",
            LayerKind::Global,
        )
        .unwrap_err();
        assert_eq!(e.message, "Hierarchy name 'c' defined more than once. First defined at (line: 3) (file: /x/hiera.yaml, line: 5)");
        let e = parse("version: 6\n", LayerKind::Global).unwrap_err();
        assert_eq!(
            e.message,
            "This runtime does not support hiera.yaml version 6 (file: /x/hiera.yaml)"
        );
        let e = parse("version: 5\nfoo: 1\n", LayerKind::Global).unwrap_err();
        assert_eq!(
            e.message,
            "The Lookup Configuration at '/x/hiera.yaml' has wrong type, unrecognized key 'foo'"
        );
        let e = parse(
            "version: 5\nhierarchy:\n  - name: a\n    path: a\n    glob: b\n",
            LayerKind::Global,
        )
        .unwrap_err();
        assert!(e.message.starts_with("Only one of path, paths, glob"));
    }

    #[test]
    fn v3_is_ignored_outside_global() {
        assert!(parse("backends: [yaml]\n", LayerKind::Environment)
            .unwrap()
            .is_none());
        let c = parse(
            ":backends: [yaml, json]\n:hierarchy: [common]\n",
            LayerKind::Global,
        )
        .unwrap()
        .unwrap();
        assert_eq!(c.hierarchy.len(), 2);
        assert_eq!(c.hierarchy[1].extension.as_deref(), Some(".json"));
    }

    #[test]
    fn pathname_join_rules() {
        assert_eq!(
            pathname_join(Path::new("/a/b"), "c"),
            PathBuf::from("/a/b/c")
        );
        assert_eq!(pathname_join(Path::new("/a/b"), "/c"), PathBuf::from("/c"));
        assert_eq!(
            pathname_join(Path::new("/a/b"), "../c"),
            PathBuf::from("/a/c")
        );
        assert_eq!(pathname_join(Path::new("/a/b"), ""), PathBuf::from("/a/b"));
    }
}
