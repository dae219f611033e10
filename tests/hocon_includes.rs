//! hocon_data's `include file("...")` read through the engine's file cache:
//! an edited (or new, or removed) included file is read again at the next
//! session, an unchanged one keeps the cached parse, and with `confine` an
//! included file outside the configuration's directories is refused with
//! an error naming it. (What ruby-hocon includes is pinned by the recorded
//! cases under tests/conformance*/libhiera/hocon and src/hocon/parser.rs.)

use hiera::{Hiera, LookupRequest, Map, Options, Session, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A scratch repository: a hocon_data level whose file includes
/// `inc/extra.conf` by absolute path, and an include of `outside` (a path
/// given by the caller).
fn repo(name: &str, outside: &Path) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("libhiera-hocon-inc-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("data/inc")).unwrap();
    std::fs::write(
        dir.join("hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: hocon\n    data_hash: hocon_data\n    path: common.conf\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("data/common.conf"),
        format!(
            "own = \"common\"\ninclude file(\"{}\")\ninclude file(\"{}\")\nfrom_extra = ${{?extra}}\n",
            dir.join("data/inc/extra.conf").display(),
            outside.display()
        ),
    )
    .unwrap();
    std::fs::write(dir.join("data/inc/extra.conf"), "extra = 1\n").unwrap();
    dir
}

fn open(dir: &Path, confine: bool) -> Arc<Hiera> {
    Arc::new(
        Hiera::open(Options {
            hiera_config: dir.join("hiera.yaml"),
            environmentpath: dir.join("environments"),
            confine,
            ..Default::default()
        })
        .unwrap(),
    )
}

fn lookup(h: &Arc<Hiera>, key: &str) -> hiera::Result<Option<Value>> {
    Session::new(Arc::clone(h), Map::default()).lookup(&LookupRequest::key(key))
}

#[test]
fn an_edited_included_file_is_read_again() {
    let outside_dir =
        std::env::temp_dir().join(format!("libhiera-hocon-out-{}", std::process::id()));
    std::fs::create_dir_all(&outside_dir).unwrap();
    let outside = outside_dir.join("shared.conf");
    std::fs::write(&outside, "shared = old\n").unwrap();
    let dir = repo("edit", &outside);
    let h = open(&dir, false);
    assert_eq!(lookup(&h, "extra").unwrap(), Some(Value::Int(1)));
    assert_eq!(lookup(&h, "from_extra").unwrap(), Some(Value::Int(1)));
    assert_eq!(lookup(&h, "shared").unwrap(), Some(Value::from("old")));
    let generation = h.cache().generation();
    // Unchanged: the cached parse, nothing read again.
    assert_eq!(lookup(&h, "own").unwrap(), Some(Value::from("common")));
    assert_eq!(h.cache().generation(), generation);
    // The included files change (their sizes too, so their stamps differ
    // whatever the time granularity): the next session reads them.
    std::fs::write(dir.join("data/inc/extra.conf"), "extra = 22\nadded = yes\n").unwrap();
    assert_eq!(lookup(&h, "extra").unwrap(), Some(Value::Int(22)));
    assert_eq!(lookup(&h, "from_extra").unwrap(), Some(Value::Int(22)));
    assert_eq!(lookup(&h, "added").unwrap(), Some(Value::from("yes")));
    std::fs::write(&outside, "shared = newer\n").unwrap();
    assert_eq!(lookup(&h, "shared").unwrap(), Some(Value::from("newer")));
    // A removed include includes nothing (as ruby-hocon's missing file).
    std::fs::remove_file(dir.join("data/inc/extra.conf")).unwrap();
    assert_eq!(lookup(&h, "extra").unwrap(), None);
    assert_eq!(lookup(&h, "from_extra").unwrap(), None);
    // ...and one that appears again is read.
    std::fs::write(dir.join("data/inc/extra.conf"), "extra = 3\n").unwrap();
    assert_eq!(lookup(&h, "extra").unwrap(), Some(Value::Int(3)));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&outside_dir);
}

#[test]
fn confine_refuses_an_include_outside() {
    let outside_dir =
        std::env::temp_dir().join(format!("libhiera-hocon-conf-{}", std::process::id()));
    std::fs::create_dir_all(&outside_dir).unwrap();
    let outside = outside_dir.join("secret.conf");
    std::fs::write(&outside, "stolen = yes\n").unwrap();
    let dir = repo("confine", &outside);
    // Without confine the file is read, as ruby-hocon reads it.
    assert_eq!(
        lookup(&open(&dir, false), "stolen").unwrap(),
        Some(Value::from("yes"))
    );
    let e = lookup(&open(&dir, true), "own").unwrap_err();
    assert!(
        e.message.contains("Refusing to read")
            && e.message.contains(&outside.display().to_string())
            && e.message.contains("confine is on"),
        "{}",
        e.message
    );
    assert_eq!(e.file.as_deref(), Some(outside.as_path()));
    // An include inside the directories is read under confine.
    std::fs::write(&outside, "").unwrap();
    let inside_dir = std::env::temp_dir().join(format!(
        "libhiera-hocon-inc-{}-confine-inside",
        std::process::id()
    ));
    let inside = repo("confine-inside", &inside_dir.join("data/inc/extra.conf"));
    assert_eq!(
        lookup(&open(&inside, true), "extra").unwrap(),
        Some(Value::Int(1))
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&inside);
    let _ = std::fs::remove_dir_all(&outside_dir);
}

/// A file read by a hocon_data level and a json_data level (Puppet shares
/// file data by path): both answer, lookup after lookup (the cache once
/// indexed its slots out of bounds here).
#[test]
fn one_file_read_as_hocon_and_as_json() {
    let dir = std::env::temp_dir().join(format!("libhiera-hocon-json-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(
        dir.join("hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: hocon\n    data_hash: hocon_data\n    path: common.json\n  - name: json\n    data_hash: json_data\n    path: common.json\n",
    )
    .unwrap();
    std::fs::write(dir.join("data/common.json"), "{\"a\": 1, \"b\": [\"x\"]}\n").unwrap();
    let h = open(&dir, false);
    for _ in 0..3 {
        assert_eq!(lookup(&h, "a").unwrap(), Some(Value::Int(1)));
        let mut req = LookupRequest::key("b");
        req.merge = Some(Value::from("unique"));
        let r = Session::new(Arc::clone(&h), Map::default()).lookup(&req);
        assert_eq!(r.unwrap(), Some(Value::array(vec![Value::from("x")])));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
