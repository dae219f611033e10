//! The command line: every flag of Hiera 5 mode in one `match`, and the
//! checks of their combinations.

use hiera::Options;
use std::path::PathBuf;

pub const USAGE: &str =
    "usage: hiera-lookup [--hiera_config FILE] [--environmentpath DIR] [--environment NAME]
                    [--basemodulepath DIR[:DIR...]] [--modulepath DIR[:DIR...]]
                    [--scope FILE | --facts FILE [--node CERTNAME]]
                    [--merge first|unique|hash|deep|JSON] [--knock-out-prefix P]
                    [--sort-merged-arrays] [--merge-hash-arrays] [--default JSON]
                    [--explain] [--explain-options] [--type TYPE]
                    [--render-as s|json|yaml] [--strict off|warning|error]
                    [--puppet 7|8] [--limit NAME=N]... [--confine]
                    [--fleet DIR] [--diff BASE [--format text|json|markdown]]
                    (KEY... | --batch | --all [--sources])
       hiera-lookup --hiera3 [--hiera_config FILE] [--scope FILE]
                    [--resolution-type priority|array|hash|JSON] [--order-override NAME]...
                    [--default JSON] [--render-as s|json|yaml] [--] KEY";

/// The parsed command line of Hiera 5 mode.
pub struct Args {
    pub options: Options,
    pub scope_file: Option<PathBuf>,
    pub facts_file: Option<PathBuf>,
    pub node: Option<String>,
    pub merge: Option<String>,
    pub knockout: Option<String>,
    pub sort_merged: bool,
    pub merge_hash_arrays: bool,
    pub default: Option<String>,
    pub explain: bool,
    pub explain_options: bool,
    pub value_type: Option<String>,
    pub render_as: String,
    pub batch: bool,
    pub all: bool,
    pub sources: bool,
    pub keys: Vec<String>,
    pub fleet: Option<PathBuf>,
    pub diff: Option<PathBuf>,
    pub format: String,
}

pub fn parse_args() -> Result<Args, String> {
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
        fleet: None,
        diff: None,
        format: "text".into(),
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
            "--fleet" => a.fleet = Some(PathBuf::from(value(&flag)?)),
            "--diff" => a.diff = Some(PathBuf::from(value(&flag)?)),
            "--format" => a.format = value(&flag)?.to_lowercase(),
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
    if a.sources && !a.all {
        return Err("--sources is only applicable with --all".into());
    }
    if a.fleet.is_some() || a.diff.is_some() {
        let mode = if a.diff.is_some() {
            "--diff"
        } else {
            "--fleet"
        };
        if a.batch || a.explain || a.explain_options || a.sources || a.value_type.is_some() {
            return Err(format!(
                "{mode} takes no --batch, --explain, --explain-options, --sources or --type"
            ));
        }
        if a.fleet.is_some()
            && (a.scope_file.is_some() || a.facts_file.is_some() || a.node.is_some())
        {
            return Err(
                "--fleet takes each node's facts from its directory: no --scope, --facts or --node"
                    .into(),
            );
        }
    }
    if a.diff.is_some() && (a.merge.is_some() || a.default.is_some()) {
        return Err("--diff compares plain lookups: no --merge or --default".into());
    }
    if a.format != "text" && a.diff.is_none() {
        return Err("--format is for --diff (use --render-as for a value)".into());
    }
    if !matches!(a.format.as_str(), "text" | "json" | "markdown") {
        return Err(format!(
            "--format takes text, json or markdown, not '{}'",
            a.format
        ));
    }
    // Puppet explains the lookup_options of `__global__` when no key is given.
    let only_options = a.explain_options && !a.explain;
    if !a.batch && !a.all && a.keys.is_empty() && !only_options {
        return Err(format!("No keys were given to lookup.\n{USAGE}"));
    }
    Ok(a)
}

/// A `:`-separated list of directories, split as Puppet splits its path
/// settings (Ruby's `split(':')`: trailing empty entries dropped; an empty
/// entry inside is the working directory). Relative directories are taken
/// from the working directory.
pub fn split_path(list: &str) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = list.split(':').map(PathBuf::from).collect();
    while dirs.last().is_some_and(|d| d.as_os_str().is_empty()) {
        dirs.pop();
    }
    dirs
}

/// `--flag=value` is the flag and its value; any other word stands alone.
pub fn split_flag(arg: &str) -> (String, Option<String>) {
    match arg.split_once('=') {
        Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
        _ => (arg.to_string(), None),
    }
}

/// A flag's value: given inline, or the next word.
pub fn flag_value(
    inline: &Option<String>,
    words: &mut impl Iterator<Item = String>,
    name: &str,
) -> Result<String, String> {
    match inline {
        Some(v) => Ok(v.clone()),
        None => words.next().ok_or_else(|| format!("{name} needs a value")),
    }
}
