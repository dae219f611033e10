//! The benchmark corpus generator (benches/corpus/gen.rs): deterministic,
//! and what it writes loads through the engine.

#[path = "../benches/corpus/gen.rs"]
mod gen;

use gen::Corpus;
use hiera::request::request_from_value;
use hiera::{Hiera, Session, Value};
use std::sync::Arc;

#[test]
fn same_seed_same_files() {
    let a = Corpus::generate(42, 1.0);
    let b = Corpus::generate(42, 1.0);
    assert_eq!(a.files.len(), b.files.len());
    for ((pa, ta), (pb, tb)) in a.files.iter().zip(&b.files) {
        assert_eq!(pa, pb);
        assert!(ta == tb, "{pa} differs between two runs with the same seed");
    }
    let c = Corpus::generate(43, 1.0);
    assert_ne!(
        a.files.get("workload.jsonl"),
        c.files.get("workload.jsonl"),
        "another seed, another corpus"
    );
}

#[test]
fn scale_one_follows_the_spec() {
    let c = Corpus::generate(1, 1.0);
    let s = &c.stats;
    assert!(
        (1300..=1700).contains(&s.data_files),
        "{} data files",
        s.data_files
    );
    assert_eq!(s.keys_median, 2);
    assert!((12..=18).contains(&s.keys_p90), "p90 {}", s.keys_p90);
    assert!(
        s.common_keys >= 700,
        "common.yaml has {} keys",
        s.common_keys
    );
    let interp = s.files_interpolated as f64 / s.data_files as f64;
    assert!(
        (0.09..=0.16).contains(&interp),
        "interpolation in {interp:.3} of the files"
    );
    assert!(
        s.files_functions * 3 >= s.files_interpolated,
        "function calls in {} of {}",
        s.files_functions,
        s.files_interpolated
    );
    assert_eq!(s.max_depth, 10);
    assert_eq!(s.modules, 50);
    assert!((8..=12).contains(&s.levels));
    assert_eq!(c.nodes.len(), 50);
    assert!(
        (900..=1100).contains(&c.workload.len()),
        "{} lookups",
        c.workload.len()
    );
    let half = Corpus::generate(1, 0.5);
    assert!(
        half.stats.data_files * 3 < s.data_files * 2,
        "scale 0.5 is smaller"
    );
}

#[test]
fn workload_runs_through_the_engine() {
    let dir = std::env::temp_dir().join(format!("libhiera-corpus-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let c = Corpus::generate(1, 1.0);
    c.write(&dir).unwrap();
    let hiera = Arc::new(Hiera::open(Corpus::options(&dir)).unwrap());
    let mut found = 0;
    for node in [0, 1] {
        let s = Session::new(Arc::clone(&hiera), c.scope(node));
        for r in c.workload.iter().take(50) {
            let req = request_from_value(r).unwrap().lookup;
            match s.lookup(&req) {
                Ok(Some(_)) => found += 1,
                Ok(None) => {}
                Err(e) => panic!(
                    "node {}: {:?}: {}",
                    c.nodes[node].certname, req.keys, e.message
                ),
            }
        }
        // The benches' probes mean what they say.
        let p = &c.probes;
        assert!(
            s.lookup_key(&p.hit).unwrap().is_some(),
            "hit probe {}",
            p.hit
        );
        assert!(
            s.lookup_key(&p.miss).unwrap().is_none(),
            "miss probe {}",
            p.miss
        );
        assert!(
            s.lookup_key(&p.dotted).unwrap().is_some(),
            "dotted probe {}",
            p.dotted
        );
        let banner = s.lookup_key(&p.interpolated).unwrap().unwrap();
        assert!(
            banner.as_str().unwrap().contains(&c.nodes[node].certname),
            "{banner:?}"
        );
        let deep = hiera::LookupRequest {
            keys: vec![p.deep.clone()],
            merge: Some(Value::from("deep")),
            ..Default::default()
        };
        assert!(s.lookup(&deep).unwrap().unwrap().as_hash().unwrap().len() > 100);
    }
    assert!(found > 0);
    // The whole workload on warm sessions (the session's caches and its
    // quick path for plain keys) answers what the general path answers
    // (`explain` always takes the general path), value and key order.
    for node in [0, 7, 31] {
        let s = Session::new(Arc::clone(&hiera), c.scope(node));
        let reqs: Vec<_> = c
            .workload
            .iter()
            .map(|r| request_from_value(r).unwrap().lookup)
            .collect();
        let cold: Vec<String> = reqs
            .iter()
            .map(|r| hiera::request::response_json(&s.lookup(r), None))
            .collect();
        s.forget_results();
        for (i, r) in reqs.iter().enumerate() {
            let warm = hiera::request::response_json(&s.lookup(r), None);
            let general = hiera::request::response_json(&s.explain(r).0, None);
            assert_eq!(
                warm, cold[i],
                "node {node} request {i} {:?}: warm and cold lookups differ",
                r.keys
            );
            assert_eq!(
                warm, general,
                "node {node} request {i} {:?}: lookup and explain differ",
                r.keys
            );
        }
    }
    // What was written is what was generated.
    assert_eq!(
        std::fs::read_to_string(dir.join("workload.jsonl")).unwrap(),
        c.files["workload.jsonl"]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every lookup of the workload for node `node`, as response JSON, and its
/// warnings.
fn answers(s: &Session, c: &Corpus) -> Vec<String> {
    c.workload
        .iter()
        .map(|r| {
            let req = request_from_value(r).unwrap().lookup;
            let (r, warnings) = s.lookup_with_warnings(&req);
            format!("{} {warnings:?}", hiera::request::response_json(&r, None))
        })
        .collect()
}

#[test]
fn sessions_of_one_hiera_answer_as_a_fresh_hiera_per_node_on_every_shape() {
    // The sessions of one Hiera share resolved hierarchies between nodes
    // whose scopes give what they read the same values; each node's
    // answers (values, key order, warnings) are those of a Hiera of its
    // own, whichever node came first, from one thread or many.
    for preset in ["default", "flat", "deep", "modular"] {
        let dir = std::env::temp_dir().join(format!(
            "libhiera-corpus-shared-{preset}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let shape = gen::Shape::preset(preset).unwrap();
        let c = Corpus::generate_shaped(3, 0.5, &shape);
        c.write(&dir).unwrap();
        let nodes: Vec<usize> = (0..c.nodes.len()).step_by(c.nodes.len() / 8).collect();
        let own: Vec<Vec<String>> = nodes
            .iter()
            .map(|&n| {
                let hiera = Arc::new(Hiera::open(Corpus::options(&dir)).unwrap());
                answers(&Session::new(hiera, c.scope(n)), &c)
            })
            .collect();
        let shared = Arc::new(Hiera::open(Corpus::options(&dir)).unwrap());
        for round in 0..2 {
            for (i, &n) in nodes.iter().enumerate() {
                let got = answers(&Session::new(Arc::clone(&shared), c.scope(n)), &c);
                for (j, (a, b)) in got.iter().zip(&own[i]).enumerate() {
                    assert_eq!(
                        a, b,
                        "{preset}, round {round}, node {n}, request {j}: {:?}",
                        c.workload[j]
                    );
                }
            }
        }
        // Many threads, each its nodes in another order, on a new Hiera.
        let shared = Arc::new(Hiera::open(Corpus::options(&dir)).unwrap());
        std::thread::scope(|scope| {
            for t in 0..4 {
                let (shared, c, nodes, own) = (&shared, &c, &nodes, &own);
                scope.spawn(move || {
                    for k in 0..nodes.len() {
                        let i = (k + t * 3) % nodes.len();
                        let s = Session::new(Arc::clone(shared), c.scope(nodes[i]));
                        assert!(answers(&s, c) == own[i], "{preset}, thread {t}, node {i}");
                    }
                });
            }
        });
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn merges_of_every_strategy_answer_as_the_general_path_on_every_shape() {
    // Every key of the workload (each name, dotted or not) under every
    // merge strategy and deep option, on a warm session (the quick path
    // merges plain values from the plan's key index), answers what the
    // general path answers (`explain` always takes it), value, key order
    // and error; and as a fresh Hiera's session does.
    let merges: Vec<Option<Value>> = [
        None,
        Some(r#""first""#),
        Some(r#""unique""#),
        Some(r#""hash""#),
        Some(r#""deep""#),
        Some(r#"{"strategy":"deep","knockout_prefix":"--","merge_hash_arrays":false}"#),
        Some(r#"{"strategy":"deep","knockout_prefix":"--","merge_hash_arrays":true,"sort_merged_arrays":true}"#),
        Some(r#"{"strategy":"deep","sort_merged_arrays":true}"#),
        Some(r#"{"strategy":"hash"}"#),
    ]
    .into_iter()
    .map(|m| m.map(|m| hiera::json::load(m).unwrap()))
    .collect();
    for preset in ["default", "flat", "deep", "modular"] {
        let dir = std::env::temp_dir().join(format!(
            "libhiera-corpus-merges-{preset}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let shape = gen::Shape::preset(preset).unwrap();
        let c = Corpus::generate_shaped(2, 0.5, &shape);
        c.write(&dir).unwrap();
        let reqs: Vec<_> = c
            .workload
            .iter()
            .map(|r| request_from_value(r).unwrap().lookup)
            .collect();
        let mut names: Vec<String> = reqs.iter().flat_map(|r| r.keys.clone()).collect();
        names.sort();
        names.dedup();
        let hiera = Arc::new(Hiera::open(Corpus::options(&dir)).unwrap());
        let (mut found, mut merged) = (0, 0);
        for node in [0, c.nodes.len() / 2] {
            let s = Session::new(Arc::clone(&hiera), c.scope(node));
            for r in &reqs {
                let _ = s.lookup(r);
            }
            let fresh = Session::new(
                Arc::new(Hiera::open(Corpus::options(&dir)).unwrap()),
                c.scope(node),
            );
            for name in &names {
                for merge in &merges {
                    let req = hiera::LookupRequest {
                        keys: vec![name.clone()],
                        merge: merge.clone(),
                        ..Default::default()
                    };
                    let (r, warnings) = s.lookup_with_warnings(&req);
                    if let Ok(Some(v)) = &r {
                        found += 1;
                        if matches!(v, Value::Hash(_) | Value::Array(_)) && merge.is_some() {
                            merged += 1;
                        }
                    }
                    let warm = hiera::request::response_json(&r, None);
                    let general = hiera::request::response_json(&s.explain(&req).0, None);
                    assert_eq!(warm, general, "{preset}, node {node}, {name} {merge:?}");
                    let (fr, fw) = fresh.lookup_with_warnings(&req);
                    assert_eq!(
                        (warm, warnings),
                        (hiera::request::response_json(&fr, None), fw),
                        "{preset}, node {node}, {name} {merge:?}: fresh"
                    );
                }
            }
        }
        assert!(
            found > 100 && merged > 50,
            "{preset}: {found} found, {merged} merged"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
