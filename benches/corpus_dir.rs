//! Reading a written benchmark corpus (`hiera-corpus --out DIR`): its
//! workload, its nodes and the options to open it with. Shared by the
//! benchmark programs `compare_rust`, `lookup_costs` and `cache_bytes`.

use hiera::render::from_json;
use hiera::request::parse_request;
use hiera::{LookupRequest, Map, Options, Value};
use std::path::{Path, PathBuf};

/// The requests of `DIR/workload.jsonl`, in order.
pub fn workload(dir: &Path) -> Vec<LookupRequest> {
    std::fs::read_to_string(dir.join("workload.jsonl"))
        .expect("workload.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| parse_request(l).expect("workload request").lookup)
        .collect()
}

/// The first `n` nodes of `DIR/nodes/*.json` by file name: (certname, facts).
pub fn nodes(dir: &Path, n: usize) -> Vec<(String, Map)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("nodes"))
        .expect("nodes/")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .take(n)
        .map(|p| {
            let cert = p.file_stem().unwrap().to_string_lossy().into_owned();
            let facts = match from_json(&std::fs::read_to_string(&p).unwrap()).expect("facts JSON")
            {
                Value::Hash(h) => h.clone(),
                _ => panic!("{}: facts must be an object", p.display()),
            };
            (cert, facts)
        })
        .collect()
}

/// A node's scope, as the drivers build it: its facts and trusted data.
pub fn scope((cert, facts): &(String, Map)) -> Map {
    hiera::scope::scope_from_facts(facts, Some(cert), "production")
}

/// The corpus opened as every driver opens it (environment `production`).
pub fn options(dir: &Path) -> Options {
    // LIBHIERA_FILE_CHECK_INTERVAL_MS: trust file checks for that long (the
    // `rust-interval` driver sets it; the default, 0, checks every session).
    let interval_ms: u64 = std::env::var("LIBHIERA_FILE_CHECK_INTERVAL_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    Options {
        hiera_config: dir.join("hiera.yaml"),
        environmentpath: dir.join("environments"),
        environment: "production".into(),
        file_check_interval: std::time::Duration::from_millis(interval_ms),
        ..Default::default()
    }
}

/// Every YAML data file of the corpus (global, environment and module
/// data), in path order: what the data cache's size is compared with.
#[allow(dead_code)] // not every benchmark program reads the files
pub fn data_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(d: &Path, in_data: bool, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(d) else { return };
        let mut entries: Vec<PathBuf> = rd.map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if p.is_dir() {
                walk(&p, in_data || name == "data" || name == "global", out);
            } else if in_data && name.ends_with(".yaml") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, false, &mut out);
    out
}
