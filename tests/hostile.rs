//! Hostile input never crashes or hangs: each gets a clear error. Also:
//! one Hiera and one Session are shared by many threads.

use hiera::{Hiera, LookupRequest, Map, Options, Session, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

mod support;

fn repo(name: &str, files: &[(&str, &str)]) -> PathBuf {
    support::limit_memory();
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
    let h = Hiera::open(Options {
        hiera_config: dir.join("hiera.yaml"),
        environmentpath: dir.join("environments"),
        ..Default::default()
    })
    .unwrap();
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
        let prev = if i == 0 {
            "a".to_string()
        } else {
            format!("l{}", i - 1)
        };
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
    assert!(
        msg.starts_with("Lookup of key 'lookup_options' failed: Unable to parse ("),
        "{msg}"
    );
}

#[test]
fn endless_recursion_is_an_error() {
    let dir = repo(
        "rec",
        &[(
            "common.yaml",
            "a: \"%{lookup('b')}\"\nb: \"%{lookup('a')}\"\n",
        )],
    );
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
    std::fs::write(
        dir.join("hiera.yaml"),
        format!("version: 5\nhierarchy:\n  - name: g\n    glob: \"{pattern}.yaml\"\n"),
    )
    .unwrap();
    let msg = lookup_err(&dir, "k");
    assert!(msg.contains("brace"), "{msg}");
}

#[test]
fn threads_share_one_session() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Hiera>();
    assert_send_sync::<Session>();
    let dir = repo(
        "threads",
        &[(
            "common.yaml",
            "lookup_options:\n  l: {merge: unique}\nk: v\nl: [1, 2]\nh: {a: \"%{lookup('k')}\"}\n",
        )],
    );
    let s = Arc::new(session(&dir));
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let s = Arc::clone(&s);
            std::thread::spawn(move || {
                for _ in 0..200 {
                    assert_eq!(s.lookup_key("k").unwrap(), Some(Value::from("v")));
                    assert_eq!(
                        hiera::render::to_json(&s.lookup_key("l").unwrap().unwrap()),
                        "[1,2]"
                    );
                    assert_eq!(
                        hiera::render::to_json(&s.lookup_key("h").unwrap().unwrap()),
                        r#"{"a":"v"}"#
                    );
                    assert_eq!(s.lookup(&LookupRequest::key("nope")).unwrap(), None);
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
}

/// A session over `common.yaml` with `limits`.
fn limited(dir: &Path, limits: hiera::Limits) -> Session {
    let options = Options {
        hiera_config: dir.join("hiera.yaml"),
        environmentpath: dir.join("environments"),
        limits,
        ..Default::default()
    };
    Session::new(Arc::new(Hiera::open(options).unwrap()), Map::default())
}

/// The error of looking up `req`, which must be a `limit` error naming
/// `limit`, the key asked for and the data file.
fn limit_error(s: &Session, req: &LookupRequest, limit: &str) -> String {
    let msg = limit_error_without_file(s, req, limit);
    assert!(msg.ends_with("common.yaml)"), "{msg}");
    msg
}

/// [`limit_error`] for a limit no one file is responsible for.
fn limit_error_without_file(s: &Session, req: &LookupRequest, limit: &str) -> String {
    // On a thread with the stack a host thread may have.
    let e = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(512 * 1024)
            .spawn_scoped(scope, || s.lookup(req))
            .unwrap()
            .join()
            .unwrap()
    })
    .expect_err("a limit error");
    assert_eq!(e.kind, hiera::ErrorKind::Limit, "{}", e.message);
    assert!(
        e.message.starts_with(&format!(
            "Lookup of key '{}' failed: Limit exceeded: ",
            req.keys[0]
        )),
        "{}",
        e.message
    );
    assert!(
        e.message.contains(&format!("(limit {limit}")),
        "{}",
        e.message
    );
    e.message
}

fn chain(n: usize, f: &str, last: &str) -> String {
    let mut s: String = (0..n)
        .map(|i| format!("k{i}: \"%{{{f}('k{}')}}\"\n", (i + 1)))
        .collect();
    s.push_str(&format!("k{n}: {last}\n"));
    s
}

#[test]
fn long_lookup_chains_and_cycles_reach_the_depth_limit() {
    let cycle: String = (0..10_000)
        .map(|i| format!("k{i}: \"%{{lookup('k{}')}}\"\n", (i + 1) % 10_000))
        .collect();
    for (name, data) in [
        ("lookup", chain(10_000, "lookup", "end")),
        ("alias", chain(10_000, "alias", "end")),
        ("hiera", chain(10_000, "hiera", "end")),
        ("cycle", cycle),
    ] {
        let dir = repo(&format!("chain-{name}"), &[("common.yaml", &data)]);
        let s = session(&dir);
        let msg = limit_error(&s, &LookupRequest::key("k0"), "lookup_depth");
        assert!(
            msg.contains("nested more than 32 deep through interpolation, at the lookup of 'k33'"),
            "{name}: {msg}"
        );
        if name != "cycle" {
            // A chain within the limit is answered.
            assert_eq!(
                s.lookup_key("k9980").unwrap(),
                Some(Value::from("end")),
                "{name}"
            );
        }
    }
    // Settable.
    let dir = repo("chain-set", &[("common.yaml", &chain(10, "lookup", "end"))]);
    assert_eq!(
        session(&dir).lookup_key("k0").unwrap(),
        Some(Value::from("end"))
    );
    let s = limited(
        &dir,
        hiera::Limits {
            lookup_depth: 5,
            ..Default::default()
        },
    );
    limit_error(&s, &LookupRequest::key("k0"), "lookup_depth = 5");
    assert_eq!(s.lookup_key("k5").unwrap(), Some(Value::from("end")));
}

#[test]
fn a_string_bomb_reaches_the_string_limit() {
    let mut bomb: String = (0..9)
        .map(|i| {
            format!(
                "b{i}: \"{}\"\n",
                format!("%{{lookup('b{}')}}", i + 1).repeat(9)
            )
        })
        .collect();
    bomb.push_str(&format!("b9: {}\n", "x".repeat(57)));
    let dir = repo("string-bomb", &[("common.yaml", &bomb)]);
    let msg = limit_error(&session(&dir), &LookupRequest::key("b0"), "string_bytes");
    assert!(
        msg.contains("an interpolated string grew past 16777216 bytes"),
        "{msg}"
    );
    // The total of a lookup's interpolations is bounded too.
    let s = limited(
        &dir,
        hiera::Limits {
            interpolated_bytes: 1 << 20,
            ..Default::default()
        },
    );
    limit_error(&s, &LookupRequest::key("b2"), "interpolated_bytes");
    assert_eq!(
        s.lookup_key("b6").unwrap().unwrap().as_str().unwrap().len(),
        57 * 9 * 9 * 9
    );
}

#[test]
fn a_work_bomb_reaches_the_nested_lookups_limit() {
    // Nothing grows, but without the session's cache of finished lookups
    // (an explanation, or overrides, turn it off) the work is 9^9 lookups.
    let mut bomb: String = (0..9)
        .map(|i| {
            format!(
                "w{i}: \"{}\"\n",
                format!("%{{lookup('w{}')}}", i + 1).repeat(9)
            )
        })
        .collect();
    bomb.push_str("w9: ''\n");
    let dir = repo("work-bomb", &[("common.yaml", &bomb)]);
    let mut req = LookupRequest::key("w0");
    req.override_values
        .insert(Value::from("unrelated"), Value::from(1));
    let msg = limit_error(&session(&dir), &req, "nested_lookups");
    assert!(
        msg.contains("more than 100000 nested lookups for one lookup"),
        "{msg}"
    );
    assert_eq!(
        session(&dir).lookup_key("w0").unwrap(),
        Some(Value::from("")),
        "cached, the same data is answered"
    );
}

#[test]
fn a_large_merge_reaches_the_merge_entries_limit() {
    let dir = repo(
        "merge-entries",
        &[
            ("bad.yaml", "l: [1, 2, 3]\n"),
            ("common.yaml", "l: [3, 4, 5, \"%{lookup('k')}\"]\nk: v\n"),
        ],
    );
    let mut req = LookupRequest::key("l");
    req.merge = Some(Value::from("unique"));
    let s = limited(
        &dir,
        hiera::Limits {
            merge_entries: 5,
            ..Default::default()
        },
    );
    let msg = limit_error_without_file(&s, &req, "merge_entries = 5");
    assert!(msg.contains("a unique merge produced 6 entries"), "{msg}");
    assert_eq!(
        hiera::render::to_json(&session(&dir).lookup(&req).unwrap().unwrap()),
        r#"[1,2,3,4,5,"v"]"#
    );
}

#[test]
fn a_chain_of_scope_variables_reaches_the_depth_limit() {
    // Facts are what the node says: each names the next.
    let mut facts = Map::default();
    for i in 0..5_000 {
        facts.insert(
            Value::from(format!("f{i}")),
            Value::from(format!("%{{facts.f{}}}", i + 1)),
        );
    }
    facts.insert(Value::from("f5000"), Value::from("end"));
    let mut scope = Map::default();
    scope.insert(Value::from("facts"), Value::hash(facts));
    let dir = repo(
        "scope-chain",
        &[(
            "common.yaml",
            "k: \"%{facts.f0}\"\nshort: \"%{facts.f4990}\"\n",
        )],
    );
    let s = Session::new(
        Arc::new(
            Hiera::open(Options {
                hiera_config: dir.join("hiera.yaml"),
                environmentpath: dir.join("environments"),
                ..Default::default()
            })
            .unwrap(),
        ),
        scope,
    );
    let msg = limit_error(&s, &LookupRequest::key("k"), "lookup_depth");
    assert!(
        msg.contains("interpolations nested more than 32 deep, at 'scope:facts.f"),
        "{msg}"
    );
    assert_eq!(s.lookup_key("short").unwrap(), Some(Value::from("end")));
}

#[test]
fn aliases_that_double_at_each_level_reach_the_nested_values_limit() {
    // 31 cached lookups, and a value of 2^30 leaves when written out.
    let mut data: String = (0..30)
        .map(|i| {
            format!(
                "k{i}: [\"%{{alias('k{n}')}}\", \"%{{alias('k{n}')}}\"]\n",
                n = i + 1
            )
        })
        .collect();
    data.push_str("k30: x\n");
    let dir = repo("alias-dag", &[("common.yaml", &data)]);
    let msg = limit_error(&session(&dir), &LookupRequest::key("k0"), "nested_values");
    assert!(msg.contains("returned more than 10000000 values"), "{msg}");
    assert_eq!(
        hiera::render::to_json(&session(&dir).lookup_key("k27").unwrap().unwrap()),
        "[[[\"x\",\"x\"],[\"x\",\"x\"]],[[\"x\",\"x\"],[\"x\",\"x\"]]]"
    );
}

#[test]
fn hiera3_chains_and_bombs_reach_the_limits() {
    limit_hiera3(
        "chain",
        &chain(10_000, "hiera", "end"),
        "k0",
        "lookup_depth",
    );
    let mut bomb: String = (0..9)
        .map(|i| {
            format!(
                "k{i}: \"{}\"\n",
                format!("%{{hiera('k{}')}}", i + 1).repeat(9)
            )
        })
        .collect();
    bomb.push_str(&format!("k9: {}\n", "x".repeat(57)));
    // Hiera 3 keeps no finished lookups: the nine-fold bomb's 9^9 lookups
    // reach the count before the string reaches its size.
    limit_hiera3("bomb", &bomb, "k0", "nested_lookups");
    let mut big: String = (0..9)
        .map(|i| {
            format!(
                "k{i}: \"{}\"\n",
                format!("%{{hiera('k{}')}}", i + 1).repeat(9)
            )
        })
        .collect();
    big.push_str(&format!("k9: {}\n", "x".repeat(2_000_000)));
    limit_hiera3("bomb-string", &big, "k7", "string_bytes");
    let mut work: String = (0..9)
        .map(|i| {
            format!(
                "k{i}: \"{}\"\n",
                format!("%{{hiera('k{}')}}", i + 1).repeat(9)
            )
        })
        .collect();
    work.push_str("k9: ''\n");
    limit_hiera3("work", &work, "k0", "nested_lookups");
    // 40 distinct literal() in one string are not nested: answered.
    let literals: String = (0..40).map(|i| format!("%{{literal('x{i}')}}")).collect();
    let dir = std::env::temp_dir().join(format!(
        "libhiera-hostile-{}-h3-literals",
        std::process::id()
    ));
    let h = hiera3_repo(&dir, &format!("k: \"{literals}\"\n"));
    let v = h
        .lookup(
            "k",
            None,
            &Value::empty_hash(),
            None,
            &hiera::hiera3::ResolutionType::Priority,
        )
        .unwrap()
        .unwrap();
    assert_eq!(v.as_str().unwrap().len(), 10 * 2 + 30 * 3, "{v:?}");
}

fn hiera3_repo(dir: &Path, data: &str) -> hiera::hiera3::Hiera3 {
    support::limit_memory();
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(
        dir.join("hiera.yaml"),
        format!(
            ":backends:\n  - yaml\n:yaml:\n  :datadir: {}\n:hierarchy:\n  - common\n",
            dir.join("data").display()
        ),
    )
    .unwrap();
    std::fs::write(dir.join("data/common.yaml"), data).unwrap();
    hiera::hiera3::Hiera3::open(&dir.join("hiera.yaml"), None).unwrap()
}

fn limit_hiera3(name: &str, data: &str, key: &str, limit: &str) {
    let dir =
        std::env::temp_dir().join(format!("libhiera-hostile-{}-h3-{name}", std::process::id()));
    let h = hiera3_repo(&dir, data);
    let e = std::thread::scope(|scope| {
        let run = || {
            h.lookup(
                key,
                None,
                &Value::empty_hash(),
                None,
                &hiera::hiera3::ResolutionType::Priority,
            )
        };
        std::thread::Builder::new()
            .stack_size(512 * 1024)
            .spawn_scoped(scope, run)
            .unwrap()
            .join()
            .unwrap()
    })
    .expect_err("a limit error");
    assert_eq!(e.kind, hiera::ErrorKind::Limit, "{name}: {}", e.message);
    assert!(
        e.message.contains(&format!("(limit {limit} = ")),
        "{name}: {}",
        e.message
    );
}

/// A host function that looks the same key up again, from inside its call:
/// the re-entries are bounded (lookup_depth, counted per thread across host
/// calls) and end in a limit error, on a 512 KiB thread too.
#[test]
fn a_host_function_that_recurses_into_the_engine_reaches_a_limit() {
    use hiera::host::{Host, HostCall, HostRef, Warning};
    use std::sync::{Mutex, OnceLock};

    struct Recurse {
        session: OnceLock<Arc<Session>>,
        calls: Mutex<usize>,
    }
    impl Host for Recurse {
        fn call(&self, call: &HostCall<'_>) -> hiera::Result<Option<Value>> {
            *self.calls.lock().unwrap() += 1;
            let s = self.session.get().expect("session set");
            // The host's own lookup of the same key: the error comes back as the call's error.
            s.lookup(&LookupRequest::key(call.key.unwrap_or("x")))
        }
        fn warn(&self, _: &Warning) {}
    }

    let dir = repo("host_recursion", &[]);
    std::fs::write(
        dir.join("hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: fn\n    lookup_key: my::fn\n",
    )
    .unwrap();
    let host = Arc::new(Recurse {
        session: OnceLock::new(),
        calls: Mutex::new(0),
    });
    let opts = Options {
        hiera_config: dir.join("hiera.yaml"),
        environmentpath: dir.join("environments"),
        host: Some(HostRef(host.clone())),
        ..Default::default()
    };
    let s = Arc::new(Session::new(
        Arc::new(Hiera::open(opts).unwrap()),
        Map::default(),
    ));
    host.session.set(Arc::clone(&s)).ok().unwrap();
    let err = std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(move || s.lookup(&LookupRequest::key("k")).unwrap_err())
        .unwrap()
        .join()
        .expect("no stack overflow on a 512 KiB thread");
    assert_eq!(err.kind, hiera::ErrorKind::Limit, "{}", err.message);
    assert!(
        err.message.contains("the host function call for 'k'"),
        "{}",
        err.message
    );
    let calls = *host.calls.lock().unwrap();
    assert!((2..=64).contains(&calls), "{calls} calls");
}
