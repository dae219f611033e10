//! `hiera-lookup`: `puppet lookup`'s job, on libhiera.
//!
//! Exit status: 0 found (or default used), 1 not found, 2 error.

use hiera::render::{from_json, to_json, to_json_pretty};
use hiera::request::{parse_request, respond, response_json};
use hiera::ruby::to_s as ruby_to_s;
use hiera::yaml::to_yaml;
use hiera::{Hiera, LookupRequest, Map, Options, Session, Value};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

const USAGE: &str =
    "usage: hiera-lookup [--hiera_config FILE] [--environmentpath DIR] [--environment NAME]
                    [--basemodulepath DIR[:DIR...]] [--modulepath DIR[:DIR...]]
                    [--scope FILE | --facts FILE [--node CERTNAME]]
                    [--merge first|unique|hash|deep|JSON] [--knock-out-prefix P]
                    [--sort-merged-arrays] [--merge-hash-arrays] [--default JSON]
                    [--explain] [--explain-options] [--type TYPE] [--render-as s|json|yaml] [--strict off|warning|error]
                    [--puppet 7|8] [--limit NAME=N]... [--confine]
                    (KEY... | --batch | --all [--sources])
       hiera-lookup --hiera3 [--hiera_config FILE] [--scope FILE]
                    [--resolution-type priority|array|hash|JSON] [--order-override NAME]...
                    [--default JSON] [--render-as s|json|yaml] [--] KEY";

struct Args {
    options: Options,
    scope_file: Option<PathBuf>,
    facts_file: Option<PathBuf>,
    node: Option<String>,
    merge: Option<String>,
    knockout: Option<String>,
    sort_merged: bool,
    merge_hash_arrays: bool,
    default: Option<String>,
    explain: bool,
    explain_options: bool,
    value_type: Option<String>,
    render_as: String,
    batch: bool,
    all: bool,
    sources: bool,
    keys: Vec<String>,
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("Error: {msg}");
    ExitCode::from(2)
}

/// Prints an answer on stdout; a reader that went away (a closed pipe) is
/// not an error of the lookup.
fn print_value(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}").and_then(|()| out.flush());
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        options: Options::default(),
        scope_file: None,
        facts_file: None,
        node: None,
        merge: None,
        knockout: None,
        sort_merged: false,
        merge_hash_arrays: false,
        default: None,
        explain: false,
        explain_options: false,
        value_type: None,
        render_as: "yaml".into(),
        batch: false,
        all: false,
        sources: false,
        keys: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let (flag, inline) = split_flag(&arg);
        let mut value = |name: &str| flag_value(&inline, &mut it, name);
        match flag.as_str() {
            "--hiera_config" | "--hiera-config" => {
                a.options.hiera_config = PathBuf::from(value(&flag)?)
            }
            "--environmentpath" => a.options.environmentpath = PathBuf::from(value(&flag)?),
            "--environment" => a.options.environment = value(&flag)?,
            "--basemodulepath" => a.options.basemodulepath = split_path(&value(&flag)?),
            "--modulepath" => a.options.modulepath = Some(split_path(&value(&flag)?)),
            "--scope" => a.scope_file = Some(PathBuf::from(value(&flag)?)),
            "--facts" => a.facts_file = Some(PathBuf::from(value(&flag)?)),
            "--node" => a.node = Some(value(&flag)?),
            "--merge" => a.merge = Some(value(&flag)?),
            "--knock-out-prefix" | "--knock_out_prefix" => a.knockout = Some(value(&flag)?),
            "--sort-merged-arrays" | "--sort_merged_arrays" => a.sort_merged = true,
            "--merge-hash-arrays" | "--merge_hash_arrays" => a.merge_hash_arrays = true,
            "--default" => a.default = Some(value(&flag)?),
            "--explain" => a.explain = true,
            "--explain-options" | "--explain_options" => a.explain_options = true,
            "--type" => a.value_type = Some(value(&flag)?),
            "--render-as" | "--render_as" => a.render_as = value(&flag)?.to_lowercase(),
            "--strict" => {
                a.options.strict = Some(match value(&flag)?.as_str() {
                    "off" => hiera::Strict::Off,
                    "warning" => hiera::Strict::Warning,
                    "error" => hiera::Strict::Error,
                    other => {
                        return Err(format!(
                            "--strict takes off, warning or error, not '{other}'"
                        ))
                    }
                })
            }
            "--puppet" => {
                a.options.puppet = match value(&flag)?.as_str() {
                    "7" => 7,
                    "8" => 8,
                    other => return Err(format!("--puppet takes 7 or 8, not '{other}'")),
                }
            }
            "--limit" => {
                let spec = value(&flag)?;
                let (name, n) = spec
                    .split_once('=')
                    .ok_or_else(|| format!("--limit takes NAME=N, not '{spec}'"))?;
                let n: usize = n
                    .parse()
                    .map_err(|_| format!("--limit {name}: '{n}' is not a whole number"))?;
                a.options
                    .limits
                    .set(name, n)
                    .map_err(|e| format!("--limit: {e}"))?;
            }
            "--confine" => a.options.confine = true,
            "--batch" => a.batch = true,
            "--all" => a.all = true,
            "--sources" => a.sources = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            f if f.starts_with("--") => return Err(format!("unknown option '{f}'\n{USAGE}")),
            _ => a.keys.push(arg),
        }
    }
    if !matches!(a.render_as.as_str(), "s" | "json" | "yaml") {
        return Err(format!("Unknown rendering format '{}'", a.render_as));
    }
    if a.scope_file.is_some() && a.facts_file.is_some() {
        return Err("--scope and --facts cannot be used together".into());
    }
    if a.all && (a.batch || !a.keys.is_empty() || a.explain || a.explain_options) {
        return Err("--all takes no keys, --batch, --explain or --explain-options".into());
    }
    // Puppet explains the lookup_options of `__global__` when no key is given.
    let only_options = a.explain_options && !a.explain;
    if a.sources && !a.all {
        return Err("--sources is only applicable with --all".into());
    }
    if !a.batch && !a.all && a.keys.is_empty() && !only_options {
        return Err(format!("No keys were given to lookup.\n{USAGE}"));
    }
    Ok(a)
}

/// A `:`-separated list of directories, split as Puppet splits its path
/// settings (Ruby's `split(':')`: trailing empty entries dropped; an empty
/// entry inside is the working directory). Relative directories are taken
/// from the working directory.
fn split_path(list: &str) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = list.split(':').map(PathBuf::from).collect();
    while dirs.last().is_some_and(|d| d.as_os_str().is_empty()) {
        dirs.pop();
    }
    dirs
}

/// `--flag=value` is the flag and its value; any other word stands alone.
fn split_flag(arg: &str) -> (String, Option<String>) {
    match arg.split_once('=') {
        Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
        _ => (arg.to_string(), None),
    }
}

/// A flag's value: given inline, or the next word.
fn flag_value(
    inline: &Option<String>,
    words: &mut impl Iterator<Item = String>,
    name: &str,
) -> Result<String, String> {
    match inline {
        Some(v) => Ok(v.clone()),
        None => words.next().ok_or_else(|| format!("{name} needs a value")),
    }
}

fn read_data_file(path: &PathBuf) -> Result<Value, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let is_json =
        path.extension().is_some_and(|e| e == "json") || text.trim_start().starts_with('{');
    if is_json {
        from_json(&text).map_err(|e| format!("{}: {}", path.display(), e.message))
    } else {
        hiera::data::load_yaml_text(&text, path)
            .map(|v| hiera::config::symkeys_to_string(&v.unwrap_or_else(Value::empty_hash)))
            .map_err(|e| e.message)
    }
}

fn build_scope(a: &Args) -> Result<Map, String> {
    if let Some(f) = &a.scope_file {
        return match read_data_file(f)? {
            Value::Hash(h) => Ok((*h).clone()),
            _ => Err(format!("{}: the scope must be a hash", f.display())),
        };
    }
    let facts = match &a.facts_file {
        Some(f) => match read_data_file(f)? {
            Value::Hash(h) => {
                // `puppet facts` output nests the facts under "values".
                match h.get(&Value::from("values")).and_then(Value::as_hash) {
                    Some(v) if h.contains_key(&Value::from("name")) => v.clone(),
                    _ => (*h).clone(),
                }
            }
            _ => return Err(format!("{}: the facts must be a hash", f.display())),
        },
        None => Map::default(),
    };
    Ok(hiera::scope::scope_from_facts(
        &facts,
        a.node.as_deref(),
        &a.options.environment,
    ))
}

fn merge_value(a: &Args) -> Result<Option<Value>, String> {
    let Some(m) = &a.merge else {
        if a.knockout.is_some() || a.sort_merged || a.merge_hash_arrays {
            return Err("The options --knock-out-prefix, --sort-merged-arrays, and --merge-hash-arrays are only applicable when using --merge deep".into());
        }
        return Ok(None);
    };
    if m.trim_start().starts_with('{') {
        return from_json(m)
            .map(Some)
            .map_err(|e| format!("--merge: {}", e.message));
    }
    if !matches!(m.as_str(), "first" | "unique" | "hash" | "deep") {
        return Err("The --merge option only accepts 'first', 'unique', 'hash', or 'deep'".into());
    }
    if m != "deep" {
        if a.knockout.is_some() || a.sort_merged || a.merge_hash_arrays {
            return Err("The options --knock-out-prefix, --sort-merged-arrays, and --merge-hash-arrays are only applicable when using --merge deep".into());
        }
        return Ok(Some(Value::from(m.as_str())));
    }
    let mut h = Map::default();
    h.insert("strategy".into(), "deep".into());
    if let Some(k) = &a.knockout {
        h.insert("knockout_prefix".into(), k.as_str().into());
    }
    if a.sort_merged {
        h.insert("sort_merged_arrays".into(), Value::Bool(true));
    }
    if a.merge_hash_arrays {
        h.insert("merge_hash_arrays".into(), Value::Bool(true));
    }
    Ok(Some(if h.len() == 1 {
        Value::from("deep")
    } else {
        Value::hash(h)
    }))
}

fn render(v: &Value, how: &str) -> String {
    match how {
        "json" => to_json_pretty(v),
        "s" => {
            let mut s = String::new();
            ruby_to_s(v, &mut s);
            s
        }
        _ => to_yaml(v).trim_end().to_string(),
    }
}

fn main() -> ExitCode {
    if std::env::args().skip(1).any(|a| a == "--hiera3") {
        return hiera3_main();
    }
    let a = match parse_args() {
        Ok(a) => a,
        Err(e) => return fail(e),
    };
    let scope = match build_scope(&a) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let hiera = match Hiera::open(a.options.clone()) {
        Ok(h) => Arc::new(h),
        Err(e) => return fail(e),
    };
    let session = Session::new(hiera, scope);
    if a.batch {
        return batch(&session);
    }
    if a.all {
        return all(&session, a.sources);
    }
    let merge = match merge_value(&a) {
        Ok(m) => m,
        Err(e) => return fail(e),
    };
    let default = match &a.default {
        Some(d) => match from_json(d) {
            Ok(v) => Some(v),
            // puppet lookup takes the default as a plain string
            Err(_) => Some(Value::from(d.as_str())),
        },
        None => None,
    };
    let req = LookupRequest {
        keys: a.keys.clone(),
        merge,
        default: default.clone(),
        ..Default::default()
    };
    if a.explain || a.explain_options {
        // `--explain-options` alone explains only how lookup_options are found.
        let (outcome, ex) = session.explanation(&req, a.explain_options && !a.explain);
        let text = match a.render_as.as_str() {
            "json" => ex.to_json(),
            _ => ex.text(),
        };
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{}", text.trim_end());
        return match outcome {
            Err(_) => ExitCode::from(2),
            _ => ExitCode::SUCCESS,
        };
    }
    let checked = match a
        .value_type
        .as_deref()
        .map(hiera::lookup_type::PType::parse)
    {
        Some(Ok(t)) => Some(t),
        Some(Err(e)) => return fail(e),
        None => None,
    };
    // With --type, the default is asserted apart from a found value.
    let req = match &checked {
        Some(_) => LookupRequest {
            default: None,
            ..req
        },
        None => req,
    };
    let (result, warnings) = session.lookup_with_warnings(&req);
    for w in warnings {
        eprintln!("Warning: {w}");
    }
    let result = match &checked {
        Some(t) => hiera::lookup_type::assert_answer(t, result, default.as_ref()),
        None => result,
    };
    match result {
        Ok(Some(v)) => {
            print_value(&render(&v, &a.render_as));
            ExitCode::SUCCESS
        }
        Ok(None) => ExitCode::from(1),
        Err(e) => fail(e),
    }
}

/// `--all`: every key the node can look up and its answer, as one JSON
/// object sorted by key (keys not found left out). A key whose lookup
/// fails is left out of the object and reported on stderr as
/// `Error: KEY: MESSAGE`; the exit status is then 2 (else 0).
fn all(session: &Session, sources: bool) -> ExitCode {
    let (answers, printed) = if sources {
        match session.lookup_all_sources() {
            Ok(s) => {
                let v = s.to_value();
                (s.answers, v)
            }
            Err(e) => return fail(e),
        }
    } else {
        match session.lookup_all() {
            Ok(a) => {
                let v = a.values_hash();
                (a, v)
            }
            Err(e) => return fail(e),
        }
    };
    print_value(&to_json_pretty(&printed));
    for (key, e) in &answers.errors {
        eprintln!("Error: {key}: {e}");
    }
    if answers.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    }
}

fn batch(session: &Session) -> ExitCode {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(l) => l,
            Err(e) => return fail(e),
        };
        if line.trim().is_empty() {
            continue;
        }
        let resp = match parse_request(&line) {
            Ok(req) => respond(session, &req),
            Err(e) => response_json(&Err(e), None),
        };
        if writeln!(out, "{resp}").is_err() {
            return ExitCode::from(2);
        }
    }
    let _ = out.flush();
    let _ = to_json;
    ExitCode::SUCCESS
}

/// `--hiera3`: the standalone Hiera 3.10 lookup
/// (`Hiera.new(config: FILE).lookup(KEY, default, scope, order_override,
/// resolution_type)`), run from the working directory (a relative
/// `:datadir:` is relative to it). Exit status as in Hiera 5 mode.
fn hiera3_main() -> ExitCode {
    use hiera::hiera3::{Hiera3, ResolutionType};
    let mut config = PathBuf::from("hiera.yaml");
    let mut scope_file: Option<PathBuf> = None;
    let mut resolution_type = ResolutionType::Priority;
    let mut overrides: Vec<Value> = Vec::new();
    let mut default: Option<Value> = None;
    let mut render_as = "yaml".to_string();
    let mut keys: Vec<String> = Vec::new();
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        if arg == "--" {
            keys.extend(it.by_ref());
            break;
        }
        let (flag, inline) = split_flag(&arg);
        let mut value = |name: &str| flag_value(&inline, &mut it, name);
        let step = match flag.as_str() {
            "--hiera3" => Ok(()),
            "--hiera_config" | "--hiera-config" => value(&flag).map(|v| config = PathBuf::from(v)),
            "--scope" => value(&flag).map(|v| scope_file = Some(PathBuf::from(v))),
            "--order-override" | "--order_override" => {
                value(&flag).map(|v| overrides.push(Value::from(v)))
            }
            "--resolution-type" | "--resolution_type" => value(&flag).and_then(|v| {
                let parsed = if v.trim_start().starts_with('{') {
                    from_json(&v).map_err(|e| format!("--resolution-type: {}", e.message))?
                } else if matches!(v.as_str(), "priority" | "array" | "hash") {
                    Value::from(v.as_str())
                } else {
                    return Err(
                        "--resolution-type takes priority, array, hash or a JSON object".into(),
                    );
                };
                resolution_type =
                    ResolutionType::from_plain_value(&parsed).map_err(|e| e.message)?;
                Ok(())
            }),
            "--default" => value(&flag)
                .map(|v| default = Some(from_json(&v).unwrap_or_else(|_| Value::from(v.as_str())))),
            "--render-as" | "--render_as" => value(&flag).map(|v| render_as = v.to_lowercase()),
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            f if f.starts_with("--") => {
                Err(format!("unknown option '{f}' in --hiera3 mode\n{USAGE}"))
            }
            _ => {
                keys.push(arg);
                Ok(())
            }
        };
        if let Err(e) = step {
            return fail(e);
        }
    }
    if !matches!(render_as.as_str(), "s" | "json" | "yaml") {
        return fail(format!("Unknown rendering format '{render_as}'"));
    }
    let [key] = &keys[..] else {
        return fail(format!("--hiera3 looks up exactly one key\n{USAGE}"));
    };
    let scope = match &scope_file {
        None => Value::empty_hash(),
        Some(f) => match read_hiera3_scope(f) {
            Ok(s) => s,
            Err(e) => return fail(e),
        },
    };
    let order_override = match overrides.len() {
        0 => None,
        1 => overrides.pop(),
        _ => Some(Value::array(overrides)),
    };
    let h = match Hiera3::open(&config, None) {
        Ok(h) => h,
        Err(e) => return fail(e),
    };
    match h.lookup(
        key,
        default.as_ref(),
        &scope,
        order_override.as_ref(),
        &resolution_type,
    ) {
        Ok(Some(v)) => {
            print_value(&render(&v, &render_as));
            ExitCode::SUCCESS
        }
        Ok(None) => ExitCode::from(1),
        Err(e) => fail(e),
    }
}

/// A Hiera 3 scope file: the exact variable Hash, as JSON (wire format) or
/// YAML; keys are kept as they are.
fn read_hiera3_scope(path: &PathBuf) -> Result<Value, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let is_json =
        path.extension().is_some_and(|e| e == "json") || text.trim_start().starts_with('{');
    let v = if is_json {
        from_json(&text).map_err(|e| format!("{}: {}", path.display(), e.message))?
    } else {
        hiera::yaml::load(&text, &Default::default())
            .map_err(|e| format!("{}: {}", path.display(), e.message))?
            .unwrap_or_else(Value::empty_hash)
    };
    match v {
        Value::Hash(_) => Ok(v),
        _ => Err(format!("{}: the scope must be a hash", path.display())),
    }
}
