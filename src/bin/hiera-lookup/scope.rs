//! The node's variables: a `--scope` file, or `--facts` (with `--node`)
//! made into a scope as Puppet makes one.

use crate::args::Args;
use hiera::render::from_json;
use hiera::{Map, Value};
use std::path::PathBuf;

/// Reads a JSON or YAML data file (a scope or facts file) into a Value.
pub fn read_data_file(path: &PathBuf) -> Result<Value, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let is_json =
        path.extension().is_some_and(|e| e == "json") || text.trim_start().starts_with('{');
    if is_json {
        from_json(&text).map_err(|e| format!("{}: {}", path.display(), e.message))
    } else {
        hiera::data::load_yaml_text(&text, path)
            .map(|v| hiera::hiera5::config::symkeys_to_string(&v.unwrap_or_else(Value::empty_hash)))
            .map_err(|e| e.message)
    }
}

pub fn build_scope(a: &Args) -> Result<Map, String> {
    if let Some(f) = &a.scope_file {
        return match read_data_file(f)? {
            Value::Hash(h) => Ok(h.clone()),
            _ => Err(format!("{}: the scope must be a hash", f.display())),
        };
    }
    let facts = match &a.facts_file {
        Some(f) => match read_data_file(f)? {
            Value::Hash(h) => {
                // `puppet facts` output nests the facts under "values".
                match h.get(&Value::from("values")).and_then(Value::as_hash) {
                    Some(v) if h.contains_key(&Value::from("name")) => v.clone(),
                    _ => h.clone(),
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
