//! `--hiera3`: the standalone Hiera 3.10 lookup mode, with its own flags.

use crate::args::{flag_value, split_flag, USAGE};
use crate::single::render;
use crate::{fail, print_value};
use hiera::render::from_json;
use hiera::Value;
use std::path::PathBuf;
use std::process::ExitCode;

/// `--hiera3`: the standalone Hiera 3.10 lookup
/// (`Hiera.new(config: FILE).lookup(KEY, default, scope, order_override,
/// resolution_type)`), run from the working directory (a relative
/// `:datadir:` is relative to it). Exit status as in Hiera 5 mode.
pub fn run() -> ExitCode {
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
