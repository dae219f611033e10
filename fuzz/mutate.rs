//! The `mutate` target: the recorded conformance cases with one to three
//! of their files (hiera.yaml, data) mutated byte by byte, then the case's
//! queries run (through [`crate::session`]).

use crate::corpus;
use crate::input::Input;
use crate::mutator::mutate;
use crate::rng::Rng;
use hiera::render::to_json;
use hiera::{Map, Value};

/// Copies a random case, mutates some of its files and writes its queries.
pub fn generate(rng: &mut Rng) -> Input {
    let cases = corpus::cases();
    if cases.is_empty() {
        return Input::default();
    }
    let dir = rng.pick(cases);
    let mut input = Input::default();
    let mut case_yaml = String::new();
    let mut expected = String::new();
    for path in corpus::files_under(dir) {
        let Ok(rel) = path.strip_prefix(dir) else {
            continue;
        };
        let rel = rel.to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap_or_default();
        match rel.as_str() {
            "case.yaml" => case_yaml = String::from_utf8_lossy(&bytes).into_owned(),
            "expected.json" => expected = String::from_utf8_lossy(&bytes).into_owned(),
            _ => input.add(rel, bytes),
        }
    }
    let case = hiera::yaml::load(&case_yaml, &Default::default())
        .ok()
        .flatten()
        .unwrap_or_default();
    let hiera3 = case.get("engine").and_then(Value::as_str) == Some("hiera3");
    let scope = hiera::json::load(&expected)
        .ok()
        .and_then(|e| e.get("scope").cloned())
        .unwrap_or_else(Value::empty_hash);
    let mut lines = String::new();
    for q in case
        .get("queries")
        .and_then(Value::as_array)
        .unwrap_or_default()
    {
        let mut req = Map::default();
        let fields: &[&str] = if hiera3 {
            &["key", "default", "resolution_type", "order_override"]
        } else {
            &["key", "merge", "default"]
        };
        for f in fields {
            if let Some(v) = q.get(f) {
                req.insert((*f).into(), v.clone());
            }
        }
        lines.push_str(&to_json(&Value::hash(req)));
        lines.push('\n');
    }
    input.add("requests.jsonl", lines);
    input.add("scope.json", to_json(&scope));
    if hiera3 {
        input.add("hiera3", "");
    }
    let mutable: Vec<usize> = (0..input.files.len())
        .filter(|&i| {
            let n = &input.files[i].0;
            n.ends_with(".yaml") || n.ends_with(".json") && n != "scope.json" || n.ends_with(".yml")
        })
        .collect();
    let mut changed = Vec::new();
    if !mutable.is_empty() {
        for _ in 0..rng.range(1, 3) {
            let i = *rng.pick(&mutable);
            let donor = input.files[*rng.pick(&mutable)].1.clone();
            mutate(rng, &mut input.files[i].1, &donor);
            changed.push(input.files[i].0.clone());
        }
    }
    let name = dir.strip_prefix(corpus::root()).unwrap_or(dir).display();
    input.note = format!("case {name} with {} mutated", changed.join(", "));
    input
}
