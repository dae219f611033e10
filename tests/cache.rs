//! Files change under a running service: a session keeps the snapshot it
//! read (as a Puppet catalog compilation does), and a new session on the
//! same `Hiera` sees the changes: changed, new and deleted data files, new
//! lookup_options and an edited hiera.yaml. Unchanged files are not re-parsed.

use hiera::{Hiera, Map, Options, Session, Value};
use std::sync::Arc;
use std::time::Duration;

fn write(path: &std::path::Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn session(h: &Arc<Hiera>) -> Session {
    let mut trusted = Map::default();
    trusted.insert("certname".into(), "n1".into());
    let mut scope = Map::default();
    scope.insert("trusted".into(), Value::hash(trusted));
    Session::new(Arc::clone(h), scope)
}

#[test]
fn sessions_are_snapshots_and_new_sessions_see_changes() {
    let dir = std::env::temp_dir().join(format!("libhiera-cache-it-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    write(&dir.join("hiera.yaml"), "version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{trusted.certname}.yaml\"\n  - name: common\n    path: common.yaml\n");
    write(&dir.join("data/common.yaml"), "k: common\n");
    let h = Arc::new(
        Hiera::open(Options {
            hiera_config: dir.join("hiera.yaml"),
            environmentpath: dir.join("envs"),
            ..Default::default()
        })
        .unwrap(),
    );
    let s1 = session(&h);
    assert_eq!(s1.lookup_key("k").unwrap(), Some(Value::from("common")));

    // A file that appears later: the old session keeps its snapshot, a new one finds it.
    write(&dir.join("data/nodes/n1.yaml"), "k: node\n");
    assert_eq!(s1.lookup_key("k").unwrap(), Some(Value::from("common")));
    assert_eq!(
        session(&h).lookup_key("k").unwrap(),
        Some(Value::from("node"))
    );
    let generation = h.cache().generation();

    // Unchanged files are served from the shared cache, not re-parsed.
    assert_eq!(
        session(&h).lookup_key("k").unwrap(),
        Some(Value::from("node"))
    );
    assert_eq!(h.cache().generation(), generation);

    // A changed file is re-read (its size differs).
    write(&dir.join("data/nodes/n1.yaml"), "k: node, changed\n");
    assert_eq!(
        session(&h).lookup_key("k").unwrap(),
        Some(Value::from("node, changed"))
    );

    // lookup_options added later apply.
    write(
        &dir.join("data/common.yaml"),
        "lookup_options:\n  l: {merge: unique}\nk: common\nl: [c]\n",
    );
    write(&dir.join("data/nodes/n1.yaml"), "k: node\nl: [n]\n");
    assert_eq!(
        hiera::render::to_json(&session(&h).lookup_key("l").unwrap().unwrap()),
        r#"["n","c"]"#
    );
    // ... and changed lookup_options replace them (compiled options are
    // shared by sessions only while their files are unchanged).
    write(
        &dir.join("data/common.yaml"),
        "lookup_options:\n  l: {merge: first}\nk: common\nl: [c]\n",
    );
    assert_eq!(
        hiera::render::to_json(&session(&h).lookup_key("l").unwrap().unwrap()),
        r#"["n"]"#
    );
    write(
        &dir.join("data/common.yaml"),
        "lookup_options:\n  l: {merge: unique}\nk: common\nl: [c]\n",
    );
    assert_eq!(
        hiera::render::to_json(&session(&h).lookup_key("l").unwrap().unwrap()),
        r#"["n","c"]"#
    );

    // A deleted file is gone.
    std::fs::remove_file(dir.join("data/nodes/n1.yaml")).unwrap();
    assert_eq!(
        session(&h).lookup_key("k").unwrap(),
        Some(Value::from("common"))
    );

    // An edited hiera.yaml is re-read and its hierarchy resolved again.
    std::thread::sleep(Duration::from_millis(10));
    write(&dir.join("data/nodes/n1.yaml"), "k: node\n");
    write(
        &dir.join("hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: common only\n    path: common.yaml\n",
    );
    assert_eq!(
        session(&h).lookup_key("k").unwrap(),
        Some(Value::from("common"))
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
