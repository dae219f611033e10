//! Runs a repo input through the Rust API: opens `hiera.yaml` (and the
//! `environments/` beside it), makes a session with `scope.json`, and
//! answers every line of `requests.jsonl` as the C ABI would (also through
//! the quick `lookup_key` path). A repo with a `hiera3` file is a Hiera 3
//! configuration: its request lines are `{"key", "default",
//! "resolution_type", "order_override"}`.

use crate::input::Input;
use hiera::hiera3::{Hiera3, ResolutionType};
use hiera::render::from_json;
use hiera::request::{parse_request, respond};
use hiera::{Hiera, Map, Options, Session, Strict, Value};
use std::path::Path;
use std::sync::Arc;

/// The scope of a repo input (`scope.json`), `{}` when it is not a Hash.
pub fn scope(input: &Input) -> Map {
    match from_json(&input.text("scope.json")) {
        Ok(Value::Hash(m)) => m,
        _ => Map::default(),
    }
}

/// Writes the input under `dir` and runs its requests.
pub fn run(input: &Input, dir: &Path) {
    if let Err(e) = input.write_to(dir) {
        // A file the generator named oddly (it cannot be written): the
        // engine sees the rest.
        eprintln!("soak: writing the input: {e}");
    }
    if input.file("hiera3").is_some() {
        return run_hiera3(input, dir);
    }
    let strict = match input.text("strict").trim() {
        "error" => Some(Strict::Error),
        "off" => Some(Strict::Off),
        "warning" => Some(Strict::Warning),
        _ => None,
    };
    let puppet = if input.text("puppet").trim() == "8" {
        8
    } else {
        7
    };
    let options = Options {
        hiera_config: dir.join("hiera.yaml"),
        environmentpath: dir.join("environments"),
        strict,
        puppet,
        ..Options::default()
    };
    let Ok(hiera) = Hiera::open(options) else {
        return;
    };
    let session = Session::new(Arc::new(hiera), scope(input));
    for line in input.text("requests.jsonl").lines() {
        if let Ok(req) = parse_request(line) {
            let _ = respond(&session, &req);
            if let Some(key) = req.lookup.keys.first() {
                let _ = session.lookup_key(key);
            }
        }
    }
}

/// Runs a Hiera 3 repo's requests.
fn run_hiera3(input: &Input, dir: &Path) {
    let Ok(h) = Hiera3::open(&dir.join("hiera.yaml"), Some(dir)) else {
        return;
    };
    let scope = Value::hash(scope(input));
    for line in input.text("requests.jsonl").lines() {
        let Ok(Value::Hash(req)) = from_json(line) else {
            continue;
        };
        let get = |k: &str| req.get(&Value::from(k)).cloned();
        let Some(key) = get("key").and_then(|k| k.as_str().map(str::to_string)) else {
            continue;
        };
        let rt = match get("resolution_type")
            .as_ref()
            .map(ResolutionType::from_plain_value)
            .transpose()
        {
            Ok(rt) => rt.unwrap_or(ResolutionType::Priority),
            Err(_) => continue,
        };
        let _ = h.lookup(
            &key,
            get("default").as_ref(),
            &scope,
            get("order_override").as_ref(),
            &rt,
        );
    }
}
