//! A warm lookup's floor on a corpus (issue 18, item 4): for each lookup of
//! the workload, only what any engine must do once the node's data is parsed
//! and resolved: probe the data maps of the levels the key's search reaches,
//! level by level (the first found, or every level merged as the strategy
//! says), with the key's merge known by one map probe, and write the answer
//! as JSON. No interpolation (the maps hold resolved values), no lookup of
//! lookup_options beyond that probe, no request to read, no cache to consult.
//!
//! ```text
//! floor --corpus DIR [--nodes N] [--rounds R] [--index | --both] [--no-render] [--rust [--alternate]] [--check] [--dump I]
//! ```
//!
//! Set-up (not part of the floor, the same for every round count): a warm
//! `Session` per node explains every request of the workload (Puppet's JSON
//! tree); the locations it names, in order, are the node's levels (global and
//! environment, then each module's), each the file's YAML parsed into a `Map`
//! with the values the explanation found there (interpolated) in place of the
//! raw ones; a key whose search merged without a merge in its request gets its
//! merge from the tree's merge node (its lookup_options), kept in a map by key.
//!
//! `--index`: each node's keys indexed once (a root key's values at every
//! level that has it, in search order), so a lookup is one probe of that
//! index and the merge of what it holds: the floor of an engine with a
//! per-node key index (libhiera's plans index per layer and hierarchy).
//!
//! `--both`: each round runs both floors, one after the other.
//!
//! Then R rounds over the N nodes (5, 2) of the workload, each lookup through
//! `floor_lookup` (and `render` unless `--no-render`). `--rust` runs the same
//! rounds through `Session::lookup` instead (the Rust API, answers not
//! rendered), as `benches/compare` times a warm lookup: a new session per node
//! and round on the warm `Hiera`; with `--alternate` the floors' rounds and
//! the Rust API's alternate, so that all are timed in one process. `--check` compares every
//! floor answer with the session's and exits 1 on a difference.
//!
//! Under callgrind, the inclusive counts of `floor_lookup`, `floor_lookup_index`,
//! `render` and `render_index` are each floor's own instructions and its
//! answers' JSON: (I(4 rounds) - I(2 rounds)) / (2 x N x lookups), as
//! `benches/floor-icount` counts them.

#[path = "corpus_dir.rs"]
mod corpus_dir;

use hiera::hiera5::merge::Strategy;
use hiera::{Hiera, Key, LookupRequest, Map, Session, Value};
use serde_json::Value as J;
use std::collections::HashMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// One layer's hierarchy for a node: its entries, each its locations (a
/// level's index in `Node::levels`, `None` where no file is), as Puppet's
/// merges count them (a candidate per entry and per location).
#[derive(Default, Clone, PartialEq)]
struct Layer {
    entries: Vec<Vec<Option<usize>>>,
}

impl Layer {
    fn locations(&self) -> usize {
        self.entries.iter().map(Vec::len).sum()
    }
}

/// One node's resolved data: its levels' maps and where each key searches.
struct Node {
    levels: Vec<Map>,
    /// The global and environment layers.
    common: [Layer; 2],
    /// A module's layer by the module's name (a key's namespace).
    modules: HashMap<String, Layer, Fold>,
    /// The merge of a key whose lookup_options name one.
    options: HashMap<String, Strategy, Fold>,
    /// `--index`: every root key's values in search order, with their layer,
    /// entry and location: one probe per lookup, the floor of an engine that
    /// indexes a node's data by key (libhiera's plans index each layer).
    index: KeyIndex,
}

type Fold = foldhash::fast::RandomState;

/// A root key's values: (layer, entry, location, value), in search order.
type KeyIndex = HashMap<Box<str>, Vec<(u8, u16, u16, Value)>, Fold>;

/// A request, read once: keys, its merge, its default.
struct Req {
    keys: Vec<String>,
    merge: Option<Strategy>,
    default: Option<Value>,
}

fn j_to_value(j: &J) -> Value {
    hiera::render::from_json(&j.to_string()).expect("explanation value")
}

/// The layers of an explanation tree: (module, layer number 0-2, entries of
/// (path, found key and value)).
type Layers = Vec<(Option<String>, u8, Vec<Vec<(String, Option<(String, J)>)>>)>;

fn layers(j: &J, out: &mut Layers) {
    let ty = j.get("type").and_then(J::as_str).unwrap_or("");
    let name = j.get("name").and_then(J::as_str).unwrap_or("");
    if ty == "data_provider" && !name.starts_with("Hierarchy entry") {
        let (module, n) = if name.starts_with("Global Data Provider") {
            (None, 0)
        } else if name.starts_with("Environment Data Provider") {
            (None, 1)
        } else {
            (j.get("module").and_then(J::as_str).map(str::to_string), 2)
        };
        out.push((module, n, Vec::new()));
    } else if ty == "data_provider" {
        out.last_mut()
            .expect("an entry in a layer")
            .2
            .push(Vec::new());
    } else if ty == "path" {
        let path = j["path"].as_str().expect("path").to_string();
        let found = (j.get("event").and_then(J::as_str) == Some("found"))
            .then(|| Some((j.get("key")?.as_str()?.to_string(), j.get("value")?.clone())))
            .flatten();
        let layer = out.last_mut().expect("a location in a layer");
        if layer.2.is_empty() {
            layer.2.push(Vec::new());
        }
        layer.2.last_mut().expect("entry").push((path, found));
        return;
    }
    if let Some(b) = j.get("branches").and_then(J::as_array) {
        b.iter().for_each(|b| layers(b, out));
    }
}

/// The merge node at the top of a request's tree (a merge from lookup_options
/// or from the request), as a merge argument.
fn top_merge(j: &J) -> Option<Value> {
    // The search's root (beside the search for lookup_options, when any).
    let mut n = match j.get("type").and_then(J::as_str) {
        Some("root") => j,
        _ => j
            .get("branches")
            .and_then(J::as_array)?
            .iter()
            .find(|b| b.get("type").and_then(J::as_str) == Some("root"))?,
    };
    loop {
        match n.get("type").and_then(J::as_str) {
            Some("merge") => {
                let name = n["merge"].as_str()?;
                return Some(match n.get("options") {
                    Some(o) => {
                        let mut h = o.clone();
                        h.as_object_mut()?
                            .insert("strategy".into(), J::String(name.into()));
                        j_to_value(&h)
                    }
                    None => Value::from(name),
                });
            }
            Some("data_provider") | Some("path") => return None,
            _ => {}
        }
        // The search's node (a dotted key's root also has its sub keys').
        let mut b = n
            .get("branches")
            .and_then(J::as_array)?
            .iter()
            .filter(|b| b.get("type").and_then(J::as_str) != Some("sub_key"));
        n = b.next()?;
        if b.next().is_some() {
            return None;
        }
    }
}

fn load_yaml(path: &str) -> Map {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    match hiera::yaml::load(&text, &Default::default()) {
        Ok(Some(Value::Hash(h))) => h,
        _ => Map::new(),
    }
}

fn build_node(session: &Session, workload: &[LookupRequest], dump: Option<usize>) -> Node {
    let mut node = Node {
        levels: Vec::new(),
        common: Default::default(),
        modules: HashMap::default(),
        options: HashMap::default(),
        index: HashMap::default(),
    };
    let mut ids: HashMap<String, Option<usize>> = HashMap::new();
    for (i, req) in workload.iter().enumerate() {
        let (_, ex) = session.explanation(req, false);
        let tree: J = serde_json::from_str(&ex.to_json()).expect("explanation JSON");
        if dump == Some(i) {
            println!("{}", serde_json::to_string_pretty(&tree).unwrap());
        }
        if req.merge.is_none() {
            for key in &req.keys {
                let root = key.split('.').next().unwrap();
                let merge = if req.keys.len() == 1 {
                    top_merge(&tree)
                } else {
                    let (_, ex) = session.explanation(&LookupRequest::key(root), false);
                    top_merge(&serde_json::from_str(&ex.to_json()).expect("explanation JSON"))
                };
                if let Some(m) = merge {
                    node.options
                        .insert(root.to_string(), Strategy::from_value(&m).expect("merge"));
                }
            }
        }
        let mut found_layers = Layers::new();
        layers(&tree, &mut found_layers);
        for (module, n, entries) in found_layers {
            let mut layer = Layer::default();
            for entry in entries {
                let mut locs = Vec::new();
                for (path, found) in entry {
                    let id = *ids.entry(path.clone()).or_insert_with(|| {
                        std::path::Path::new(&path).is_file().then(|| {
                            node.levels.push(load_yaml(&path));
                            node.levels.len() - 1
                        })
                    });
                    if let (Some(id), Some((key, v))) = (id, found) {
                        // The explanation's value is the root key's,
                        // interpolated: it replaces a raw value that needed
                        // interpolation.
                        let level = &mut node.levels[id];
                        if level
                            .get(&Key(&key))
                            .is_some_and(hiera::hiera5::interpolate::needs_interpolation)
                        {
                            level.insert(Value::from(key.as_str()), j_to_value(&v));
                        }
                    }
                    locs.push(id);
                }
                layer.entries.push(locs);
            }
            // A first-found search stops early: keep the longest search of
            // each layer (the others reached a prefix of it).
            let have = match (n, module) {
                (2, Some(m)) => node.modules.entry(m).or_default(),
                (2, None) => continue,
                (n, _) => &mut node.common[n as usize],
            };
            if layer.locations() > have.locations() {
                *have = layer;
            }
        }
    }
    let mut index = KeyIndex::default();
    let mut modules: Vec<(&String, &Layer)> = node.modules.iter().collect();
    modules.sort_by(|a, b| a.0.cmp(b.0));
    let all = node
        .common
        .iter()
        .enumerate()
        .map(|(n, l)| (n as u8, l))
        .chain(modules.into_iter().map(|(_, l)| (2u8, l)));
    for (n, layer) in all {
        for (e, locs) in layer.entries.iter().enumerate() {
            for (j, id) in locs.iter().enumerate() {
                let Some(id) = id else { continue };
                for (k, v) in node.levels[*id].iter() {
                    if let Some(k) = k.as_str() {
                        index
                            .entry(k.into())
                            .or_default()
                            .push((n, e as u16, j as u16, v.clone()));
                    }
                }
            }
        }
    }
    node.index = index;
    node
}

/// The root and sub keys of a name, and the layers its search reaches.
#[inline(always)]
fn search<'n>(node: &'n Node, key: &'n str) -> (&'n str, Option<&'n str>, [Option<&'n Layer>; 3]) {
    let (root, subs) = match key.split_once('.') {
        Some((r, s)) => (r, Some(s)),
        None => (key, None),
    };
    let module = root
        .split_once("::")
        .and_then(|(ns, _)| node.modules.get(ns));
    (
        root,
        subs,
        [Some(&node.common[0]), Some(&node.common[1]), module],
    )
}

/// A merge over the layers, their entries and locations, as Puppet nests
/// it; `at(layer, entry, location)` is a candidate's value.
#[inline(always)]
fn merged(
    s: &Strategy,
    layers: &[Option<&Layer>; 3],
    mut at: impl FnMut(usize, usize, usize) -> Option<Value>,
) -> Option<Value> {
    s.lookup(3, |l| {
        let Some(layer) = layers[l] else {
            return Ok(None);
        };
        s.lookup(layer.entries.len(), |e| {
            s.lookup(layer.entries[e].len(), |j| Ok(at(l, e, j)))
        })
    })
    .expect("merge")
}

#[inline(never)]
fn floor_lookup(node: &Node, req: &Req) -> Option<Value> {
    for key in &req.keys {
        let (root, subs, layers) = search(node, key);
        let strategy = req.merge.as_ref().or_else(|| node.options.get(root));
        let at = |l: usize, e: usize, j: usize| {
            let id = layers[l]?.entries[e][j]?;
            node.levels[id].get(&Key(root)).cloned()
        };
        let found = match strategy {
            None => layers.iter().flatten().find_map(|layer| {
                layer
                    .entries
                    .iter()
                    .flatten()
                    .flatten()
                    .find_map(|&id| node.levels[id].get(&Key(root)))
                    .cloned()
            }),
            Some(s) => merged(s, &layers, at),
        };
        if let Some(v) = dug(found, subs) {
            return Some(v);
        }
    }
    req.default.clone()
}

/// The root's value found (or merged), its sub keys dug: the value itself
/// when there are none (no second clone).
#[inline(always)]
fn dug(found: Option<Value>, subs: Option<&str>) -> Option<Value> {
    found.and_then(|v| match subs {
        None => Some(v),
        Some(_) => dig(&v, subs),
    })
}

/// The value of a root key's sub keys in `v`.
#[inline(always)]
fn dig(v: &Value, subs: Option<&str>) -> Option<Value> {
    let mut v = v;
    if let Some(subs) = subs {
        for s in subs.split('.') {
            v = match v {
                Value::Hash(h) => h.get(&Key(s))?,
                Value::Array(a) => a.get(s.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
    }
    Some(v.clone())
}

#[inline(never)]
fn floor_lookup_index(node: &Node, req: &Req) -> Option<Value> {
    for key in &req.keys {
        let (root, subs, layers) = search(node, key);
        let Some(values) = node.index.get(root) else {
            continue;
        };
        let strategy = req.merge.as_ref().or_else(|| node.options.get(root));
        let found = match strategy {
            None => values.first().map(|(_, _, _, v)| v.clone()),
            Some(s) => merged(s, &layers, |l, e, j| {
                values
                    .iter()
                    .find(|(vl, ve, vj, _)| (*vl as usize, *ve as usize, *vj as usize) == (l, e, j))
                    .map(|(_, _, _, v)| v.clone())
            }),
        };
        if let Some(v) = dug(found, subs) {
            return Some(v);
        }
    }
    req.default.clone()
}

/// [`render`] for `--index`'s answers (a function of its own, so that
/// callgrind counts each floor's answers apart in one run).
#[inline(never)]
fn render_index(v: &Option<Value>, out: &mut Vec<u8>) {
    render(v, out)
}

#[inline(never)]
fn render(v: &Option<Value>, out: &mut Vec<u8>) {
    out.clear();
    match v {
        Some(v) => hiera::render::push_json_bytes(v, out),
        None => out.extend_from_slice(b"null"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut dir = None;
    let (mut nodes_n, mut rounds) = (5usize, 2usize);
    let (mut no_render, mut rust, mut check, mut alternate) = (false, false, false, false);
    let mut dump = None;
    let (mut index, mut both) = (false, false);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--corpus" => dir = it.next().map(PathBuf::from),
            "--nodes" => nodes_n = it.next().and_then(|v| v.parse().ok()).expect("--nodes N"),
            "--rounds" => rounds = it.next().and_then(|v| v.parse().ok()).expect("--rounds R"),
            "--dump" => dump = it.next().and_then(|v| v.parse().ok()),
            "--no-render" => no_render = true,
            "--index" => index = true,
            "--both" => both = true,
            "--rust" => rust = true,
            "--alternate" => alternate = true,
            "--check" => check = true,
            _ => {
                eprintln!("usage: floor --corpus DIR [--nodes N] [--rounds R] [--no-render] [--rust [--alternate]] [--check] [--dump I]");
                std::process::exit(2);
            }
        }
    }
    let dir = dir.expect("--corpus DIR");
    let workload = corpus_dir::workload(&dir);
    let hiera = Arc::new(Hiera::open(corpus_dir::options(&dir)).expect("open"));
    let sessions: Vec<Session> = corpus_dir::nodes(&dir, nodes_n)
        .iter()
        .map(|n| Session::new(Arc::clone(&hiera), corpus_dir::scope(n)))
        .collect();
    // Warm: every session has answered the workload once.
    for s in &sessions {
        workload.iter().for_each(|r| drop(s.lookup(r)));
    }
    let floors: Vec<Node> = sessions
        .iter()
        .enumerate()
        .map(|(i, s)| build_node(s, &workload, if i == 0 { dump } else { None }))
        .collect();
    if dump.is_some() {
        return;
    }
    let reqs: Vec<Req> = workload
        .iter()
        .map(|r| Req {
            keys: r.keys.clone(),
            merge: r
                .merge
                .as_ref()
                .map(|m| Strategy::from_value(m).expect("merge")),
            default: r.default.clone(),
        })
        .collect();
    if check {
        let mut diffs = 0;
        for (s, f) in sessions.iter().zip(&floors) {
            for (r, q) in workload.iter().zip(&reqs) {
                let want = s.lookup(r).ok().flatten();
                let got = if index {
                    floor_lookup_index(f, q)
                } else {
                    floor_lookup(f, q)
                };
                let (mut a, mut b) = (Vec::new(), Vec::new());
                render(&want, &mut a);
                render(&got, &mut b);
                if a != b {
                    diffs += 1;
                    if diffs <= 5 {
                        eprintln!(
                            "{:?}: engine {} floor {}",
                            r.keys,
                            String::from_utf8_lossy(&a),
                            String::from_utf8_lossy(&b)
                        );
                    }
                }
            }
        }
        println!(
            "{} lookups checked, {diffs} differ",
            sessions.len() * workload.len()
        );
        std::process::exit(i32::from(diffs > 0));
    }
    let mut out = Vec::with_capacity(1 << 16);
    let run_floor = |out: &mut Vec<u8>, index: bool| {
        let t = Instant::now();
        for f in &floors {
            for q in &reqs {
                if index {
                    let v = floor_lookup_index(f, q);
                    if !no_render {
                        render_index(&v, out);
                    }
                    black_box(&v);
                } else {
                    let v = floor_lookup(f, q);
                    if !no_render {
                        render(&v, out);
                    }
                    black_box(&v);
                }
            }
        }
        t.elapsed()
    };
    // As benches/compare times a warm lookup: a new session per node on the
    // warm Hiera, its set-up not timed.
    let scopes: Vec<Map> = sessions.iter().map(|s| s.scope().clone()).collect();
    let run_rust = || {
        let fresh: Vec<Session> = scopes
            .iter()
            .map(|scope| Session::new(Arc::clone(&hiera), scope.clone()))
            .collect();
        let t = Instant::now();
        for s in &fresh {
            for r in &workload {
                black_box(s.lookup(r).ok());
            }
        }
        t.elapsed()
    };
    let per = (floors.len() * reqs.len()) as f64;
    let (mut tf, mut ti, mut tr) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        if !rust || alternate {
            if !index || both {
                tf.push(run_floor(&mut out, false).as_secs_f64() * 1e6 / per);
            }
            if index || both {
                ti.push(run_floor(&mut out, true).as_secs_f64() * 1e6 / per);
            }
        }
        if rust {
            tr.push(run_rust().as_secs_f64() * 1e6 / per);
        }
    }
    let med = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
    };
    println!(
        "{} lookups x {} nodes x {rounds} rounds: floor {:.3} µs, index floor {:.3} µs, Rust API {:.3} µs per lookup (medians)",
        reqs.len(),
        floors.len(),
        med(&mut tf),
        med(&mut ti),
        med(&mut tr)
    );
}
