//! Hostile input never crashes or hangs: each gets a clear error. Also:
//! one Hiera and one Session are shared by many threads.

use hiera::{Hiera, LookupRequest, Map, Options, Session, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn repo(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("libhiera-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(
        dir.join("hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: bad\n    path: bad.yaml\n  - name: common\n    path: common.yaml\n",
    )
    .unwrap();
    for (p, text) in files {
        std::fs::write(dir.join("data").join(p), text).unwrap();
    }
    dir
}

fn session(dir: &Path) -> Session {
    let h = Hiera::open(Options { hiera_config: dir.join("hiera.yaml"), environmentpath: dir.join("environments"), ..Default::default() }).unwrap();
    Session::new(Arc::new(h), Map::default())
}

fn lookup_err(dir: &Path, key: &str) -> String {
    match session(dir).lookup_key(key) {
        Err(e) => e.message,
        Ok(v) => panic!("expected an error, got {v:?}"),
    }
}

#[test]
fn alias_bomb_is_an_error() {
    let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 0..9 {
        let prev = if i == 0 { "a".to_string() } else { format!("l{}", i - 1) };
        bomb.push_str(&format!("l{i}: &l{i} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"));
    }
    let dir = repo("bomb", &[("bad.yaml", &bomb), ("common.yaml", "k: v\n")]);
    let msg = lookup_err(&dir, "k");
    assert!(msg.to_lowercase().contains("alias"), "{msg}");
    assert!(msg.contains("bad.yaml"), "{msg}");
}

#[test]
fn deep_nesting_is_an_error() {
    let deep = format!("k: {}\n", "[".repeat(100_000));
    let dir = repo("deep", &[("bad.yaml", &deep), ("common.yaml", "k: v\n")]);
    let msg = lookup_err(&dir, "k");
    assert!(msg.starts_with("Lookup of key 'lookup_options' failed: Unable to parse ("), "{msg}");
}

#[test]
fn endless_recursion_is_an_error() {
    let dir = repo("rec", &[("common.yaml", "a: \"%{lookup('b')}\"\nb: \"%{lookup('a')}\"\n")]);
    let msg = lookup_err(&dir, "a");
    assert!(msg.contains("Recursive lookup detected in [a, b]"), "{msg}");
}

#[test]
fn directory_and_fifo_where_a_file_should_be() {
    let dir = repo("dir", &[("common.yaml", "k: v\n")]);
    std::fs::create_dir_all(dir.join("data/bad.yaml")).unwrap();
    let msg = lookup_err(&dir, "k");
    assert!(msg.contains("Is a directory @ io_fread"), "{msg}");

    let dir = repo("fifo", &[("common.yaml", "k: v\n")]);
    let fifo = dir.join("data/bad.yaml");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo is given a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let msg = lookup_err(&dir, "k");
    assert!(msg.contains("Not a regular file"), "{msg}");
}

#[test]
fn huge_brace_glob_is_an_error() {
    let dir = repo("glob", &[("common.yaml", "k: v\n")]);
    let pattern = "{a,b}".repeat(40);
    std::fs::write(dir.join("hiera.yaml"), format!("version: 5\nhierarchy:\n  - name: g\n    glob: \"{pattern}.yaml\"\n")).unwrap();
    let msg = lookup_err(&dir, "k");
    assert!(msg.contains("brace"), "{msg}");
}

#[test]
fn threads_share_one_session() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Hiera>();
    assert_send_sync::<Session>();
    let dir = repo("threads", &[("common.yaml", "lookup_options:\n  l: {merge: unique}\nk: v\nl: [1, 2]\nh: {a: \"%{lookup('k')}\"}\n")]);
    let s = Arc::new(session(&dir));
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let s = Arc::clone(&s);
            std::thread::spawn(move || {
                for _ in 0..200 {
                    assert_eq!(s.lookup_key("k").unwrap(), Some(Value::from("v")));
                    assert_eq!(hiera::render::to_json(&s.lookup_key("l").unwrap().unwrap()), "[1,2]");
                    assert_eq!(hiera::render::to_json(&s.lookup_key("h").unwrap().unwrap()), r#"{"a":"v"}"#);
                    assert_eq!(s.lookup(&LookupRequest::key("nope")).unwrap(), None);
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
}
