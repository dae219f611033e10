//! The single-lookup mode: `KEY...` with `--merge`, `--default`,
//! `--explain` and `--render-as`, as `puppet lookup` does it.

use crate::args::Args;
use crate::{fail, print_value};
use hiera::render::{from_json, to_json_pretty};
use hiera::ruby::to_s as ruby_to_s;
use hiera::yaml::to_yaml;
use hiera::{LookupRequest, Map, Session, Value};
use std::io::Write;
use std::process::ExitCode;

/// The `--merge` option (and the deep merge flags) as a merge value.
pub fn merge_value(a: &Args) -> Result<Option<Value>, String> {
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

/// The `--default` value: JSON, or else the plain string (as `puppet
/// lookup` takes it).
pub fn default_value(a: &Args) -> Option<Value> {
    let d = a.default.as_ref()?;
    Some(from_json(d).unwrap_or_else(|_| Value::from(d.as_str())))
}

/// A value rendered as `--render-as` asks (`s`, `json`, `yaml`).
pub fn render(v: &Value, how: &str) -> String {
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

/// Looks up the command line's keys (the first found answers) and prints
/// the answer, or the explanation with `--explain`.
pub fn run(a: &Args, session: &Session) -> ExitCode {
    let merge = match merge_value(a) {
        Ok(m) => m,
        Err(e) => return fail(e),
    };
    let default = default_value(a);
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
        .map(hiera::hiera5::lookup_type::PType::parse)
    {
        Some(Ok(t)) => Some(t),
        // A TYPE that does not parse: status 1, as `puppet lookup --type`.
        Some(Err(e)) => return type_failure(e),
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
    let result = match (&checked, result) {
        // An answer (or default) that does not match: status 1, as
        // `puppet lookup --type` (a failed lookup stays an error, 2).
        (Some(t), Ok(found)) => {
            match hiera::hiera5::lookup_type::assert_answer(t, Ok(found), default.as_ref()) {
                Err(e) => return type_failure(e),
                ok => ok,
            }
        }
        (_, result) => result,
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

/// `--type`'s failure (a mismatch, or a TYPE that does not parse): `Error:
/// MSG` on stderr and status 1, as `puppet lookup --type` exits.
fn type_failure(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("Error: {msg}");
    ExitCode::from(1)
}
