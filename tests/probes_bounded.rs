//! A `Hiera` that serves any number of nodes keeps a bounded number of
//! `stat` results: each node's own paths (`nodes/<certname>.yaml`, missing
//! for most nodes) are forgotten once other nodes have been served, what
//! nodes share stays, and every answer is the same as without the bound.

use hiera::data::FileCache;
use hiera::{Hiera, Map, Options, Session, Value};
use std::sync::Arc;
use std::time::Duration;

fn write(path: &std::path::Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn node(h: &Arc<Hiera>, certname: &str, role: &str) -> Session {
    let mut trusted = Map::default();
    trusted.insert("certname".into(), certname.into());
    let mut facts = Map::default();
    facts.insert("role".into(), role.into());
    let mut scope = Map::default();
    scope.insert("trusted".into(), Value::hash(trusted));
    scope.insert("facts".into(), Value::hash(facts));
    Session::new(Arc::clone(h), scope)
}

#[test]
fn probes_of_distinct_nodes_stay_bounded_and_answers_stay_right() {
    let dir = std::env::temp_dir().join(format!("libhiera-probes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    write(
        &dir.join("hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{trusted.certname}.yaml\"\n  \
         - name: role\n    path: \"roles/%{facts.role}.yaml\"\n  - name: common\n    path: common.yaml\n",
    );
    write(&dir.join("data/common.yaml"), "k: common\nr: common\n");
    write(&dir.join("data/roles/web.yaml"), "r: web\n");
    // One node in 1,000 has a node file.
    for n in (0..40_000).step_by(1000) {
        write(
            &dir.join(format!("data/nodes/n{n}.yaml")),
            format!("k: node {n}\n").as_str(),
        );
    }
    // As `hiera-lookup --fleet` and a Puppet Server with an environment
    // timeout do: stat results are trusted for the run.
    let h = Arc::new(
        Hiera::open(Options {
            hiera_config: dir.join("hiera.yaml"),
            environmentpath: dir.join("envs"),
            file_check_interval: Duration::from_secs(3600),
            ..Default::default()
        })
        .unwrap(),
    );
    // Many more distinct nodes than a generation holds: without the bound,
    // each would leave its missing node file's result behind.
    let nodes = 20_000;
    assert!(nodes > 8 * FileCache::PROBES_GENERATION_MIN);
    let mut most = 0;
    for n in 0..nodes {
        let role = if n % 2 == 0 { "web" } else { "db" };
        let s = node(&h, &format!("n{n}"), role);
        let want_k = if n % 1000 == 0 {
            format!("node {n}")
        } else {
            "common".to_string()
        };
        assert_eq!(
            s.lookup_key("k").unwrap(),
            Some(Value::from(want_k.as_str())),
            "node {n}"
        );
        let want_r = if role == "web" { "web" } else { "common" };
        assert_eq!(
            s.lookup_key("r").unwrap(),
            Some(Value::from(want_r)),
            "node {n}"
        );
        most = most.max(h.cache().probes_len());
    }
    // What the nodes share is a few paths: two of the smallest generations.
    assert!(
        most <= 2 * FileCache::PROBES_GENERATION_MIN,
        "{most} stat results kept for {nodes} nodes (bound {})",
        2 * FileCache::PROBES_GENERATION_MIN
    );
    assert!(most <= FileCache::PROBES_LIMIT);
    assert!(most > 0, "stat results are kept with a check interval");
    // The parsed files are the tree's: the node files read, the role, common.
    assert!(
        h.cache().len() <= nodes / 1000 + 3,
        "{} files cached",
        h.cache().len()
    );
    // Nodes served first, their results long forgotten, answer as before.
    assert_eq!(
        node(&h, "n0", "web").lookup_key("k").unwrap(),
        Some(Value::from("node 0"))
    );
    assert_eq!(
        node(&h, "n1", "db").lookup_key("k").unwrap(),
        Some(Value::from("common"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}
