//! One session keeps answering correctly while files change under it:
//! data files are re-read when they change, new files are found, and an
//! edited hiera.yaml is re-read and its hierarchy resolved again.

use hiera::{Hiera, Map, Options, Session, Value};
use std::sync::Arc;
use std::time::Duration;

fn write(path: &std::path::Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn one_session_sees_changes() {
    let dir = std::env::temp_dir().join(format!("libhiera-cache-it-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    write(&dir.join("hiera.yaml"), "version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{trusted.certname}.yaml\"\n  - name: common\n    path: common.yaml\n");
    write(&dir.join("data/common.yaml"), "k: common\n");
    let h = Arc::new(Hiera::open(Options { hiera_config: dir.join("hiera.yaml"), environmentpath: dir.join("envs"), ..Default::default() }).unwrap());
    let mut trusted = Map::new();
    trusted.insert("certname".into(), "n1".into());
    let mut scope = Map::new();
    scope.insert("trusted".into(), Value::hash(trusted));
    let s = Session::new(h, scope);
    assert_eq!(s.lookup_key("k").unwrap(), Some(Value::from("common")));

    // A file that appears later is found by the same session.
    write(&dir.join("data/nodes/n1.yaml"), "k: node\n");
    assert_eq!(s.lookup_key("k").unwrap(), Some(Value::from("node")));

    // A changed file is re-read (its size differs).
    write(&dir.join("data/nodes/n1.yaml"), "k: node, changed\n");
    assert_eq!(s.lookup_key("k").unwrap(), Some(Value::from("node, changed")));

    // lookup_options added later apply.
    write(&dir.join("data/common.yaml"), "lookup_options:\n  l: {merge: unique}\nk: common\nl: [c]\n");
    write(&dir.join("data/nodes/n1.yaml"), "k: node\nl: [n]\n");
    assert_eq!(hiera::render::to_json(&s.lookup_key("l").unwrap().unwrap()), r#"["n","c"]"#);

    // An edited hiera.yaml is re-read and its hierarchy resolved again.
    std::thread::sleep(Duration::from_millis(10));
    write(&dir.join("hiera.yaml"), "version: 5\nhierarchy:\n  - name: common only\n    path: common.yaml\n");
    assert_eq!(s.lookup_key("k").unwrap(), Some(Value::from("common")));
    std::fs::remove_dir_all(&dir).unwrap();
}
