//! Each new session `stat`s each file it uses once, and no file twice
//! (issue 18, stall21: on the `modular` and `deep` corpora a warm lookup's
//! `stat`s cost about as much time as its instructions; see BENCHMARKS.md);
//! with the file watcher (the default, on Linux) a session after no change
//! `stat`s none, and a session after a change sees it. `FileCache::stats`
//! counts them.

use hiera::{Hiera, Map, Options, Session, Value};
use std::path::Path;
use std::sync::Arc;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn fresh_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("libhiera-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn session(h: &Arc<Hiera>, certname: &str) -> Session {
    let mut trusted = Map::default();
    trusted.insert("certname".into(), certname.into());
    let mut scope = Map::default();
    scope.insert("trusted".into(), Value::hash(trusted));
    Session::new(Arc::clone(h), scope)
}

/// A global layer (node, common), an environment layer (common) and a
/// module `m` (common): the files a session's lookups of `env_key`,
/// `m::key` and `global_key` check.
fn control_repo(dir: &Path, env_hiera: bool) -> Arc<Hiera> {
    control_repo_watched(dir, env_hiera, false)
}

/// [`control_repo`], its files watched or not.
fn control_repo_watched(dir: &Path, env_hiera: bool, watch_files: bool) -> Arc<Hiera> {
    write(
        &dir.join("hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{trusted.certname}.yaml\"\n  \
         - name: common\n    path: common.yaml\n",
    );
    write(&dir.join("data/common.yaml"), "global_key: global\n");
    let env = dir.join("envs/production");
    if env_hiera {
        write(
            &env.join("hiera.yaml"),
            "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
        );
    }
    write(&env.join("data/common.yaml"), "env_key: env\n");
    write(
        &env.join("modules/m/hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
    );
    write(&env.join("modules/m/data/common.yaml"), "m::key: module\n");
    Arc::new(
        Hiera::open(Options {
            hiera_config: dir.join("hiera.yaml"),
            environmentpath: dir.join("envs"),
            environment: "production".into(),
            watch_files,
            ..Default::default()
        })
        .unwrap(),
    )
}

fn lookups(s: &Session, env_hiera: bool) {
    let env = if env_hiera {
        Some(Value::from("env"))
    } else {
        None
    };
    assert_eq!(s.lookup_key("env_key").unwrap(), env);
    assert_eq!(s.lookup_key("m::key").unwrap(), Some(Value::from("module")));
    assert_eq!(
        s.lookup_key("global_key").unwrap(),
        Some(Value::from("global"))
    );
}

/// The `stat`s of a warm session without the watcher: each file once.
#[test]
fn a_warm_session_stats_each_file_once() {
    for env_hiera in [true, false] {
        let dir = fresh_dir(&format!("stats-{env_hiera}"));
        let h = control_repo(&dir, env_hiera);
        // The files as a warm service sees them: not changed within the
        // last two seconds (a file changed since is "racy": read twice, and
        // `stat`ed twice by a session that takes another's resolution).
        std::thread::sleep(std::time::Duration::from_millis(2100));
        // The first session reads and parses; later ones only check.
        lookups(&session(&h, "n1"), env_hiera);
        let before = h.cache().stats();
        lookups(&session(&h, "n2"), env_hiera);
        let made = h.cache().stats() - before;
        // The global hiera.yaml, the node's own (missing) file and the
        // global common.yaml; the environment's hiera.yaml (present or not)
        // and, with it, the environment's common.yaml; the module's
        // metadata.json, hiera.yaml and common.yaml. The global and the
        // environment's hiera.yaml were `stat`ed twice each (`exists`, then
        // `config`).
        let files = if env_hiera { 8 } else { 7 };
        assert_eq!(made, files, "env hiera.yaml: {env_hiera}");
        // And again: a session never trusts another's checks.
        let before = h.cache().stats();
        lookups(&session(&h, "n3"), env_hiera);
        assert_eq!(h.cache().stats() - before, files);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A changed environment hiera.yaml is seen by the next session, and a
/// removed one is missing, not an error (with one `stat`, as with two).
#[test]
fn the_environment_hiera_yaml_is_checked_each_session() {
    let dir = fresh_dir("stats-env-change");
    let h = control_repo(&dir, true);
    lookups(&session(&h, "n1"), true);
    let env = dir.join("envs/production");
    std::fs::remove_file(env.join("hiera.yaml")).unwrap();
    lookups(&session(&h, "n2"), false);
    write(
        &env.join("hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: other\n    path: other.yaml\n",
    );
    write(&env.join("data/other.yaml"), "env_key: other\n");
    let s = session(&h, "n3");
    assert_eq!(s.lookup_key("env_key").unwrap(), Some(Value::from("other")));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Under `confine`, an environment hiera.yaml that is a dangling symlink
/// out of the environment is missing, as before: the environment's
/// hiera.yaml is read only if it exists, and its absence is never refused.
#[cfg(unix)]
#[test]
fn a_dangling_environment_hiera_yaml_is_missing_under_confine() {
    let dir = fresh_dir("stats-confine");
    let _ = control_repo(&dir, false);
    let env = dir.join("envs/production");
    std::os::unix::fs::symlink(dir.join("elsewhere/hiera.yaml"), env.join("hiera.yaml")).unwrap();
    let h = Arc::new(
        Hiera::open(Options {
            hiera_config: dir.join("hiera.yaml"),
            environmentpath: dir.join("envs"),
            environment: "production".into(),
            confine: true,
            ..Default::default()
        })
        .unwrap(),
    );
    lookups(&session(&h, "n1"), false);
    let _ = std::fs::remove_dir_all(&dir);
}

/// With the watcher, a warm session `stat`s nothing, and the session after
/// a change sees it: a data file rewritten, a node's file created in a
/// directory that did not exist, a module's hiera.yaml rewritten, the
/// environment's directory swapped for another. (On Linux,
/// where the watcher is; on a filesystem it does not watch, the sessions
/// `stat` as before and only the answers are checked.)
#[test]
fn a_watched_warm_session_stats_nothing_and_sees_each_change() {
    let dir = fresh_dir("stats-watched");
    let h = control_repo_watched(&dir, true, true);
    lookups(&session(&h, "n1"), true);
    let watched =
        cfg!(target_os = "linux") && std::env::var_os("HIERA_WATCH_FILES").is_none_or(|v| v != "0");
    let warm = |certname: &str| {
        let before = h.cache().stats();
        lookups(&session(&h, certname), true);
        h.cache().stats() - before
    };
    // A file changed within two seconds is checked again (racy), so the
    // first warm sessions may `stat`; once past that, none does.
    std::thread::sleep(std::time::Duration::from_millis(2100));
    warm("n2");
    if watched {
        // The same node again: nothing. Another node: its own file only.
        assert_eq!(warm("n2"), 0);
        assert_eq!(warm("n1"), 0);
        assert_eq!(warm("n3"), 1);
        assert_eq!(warm("n3"), 0);
    }

    // A data file rewritten (same size: only the watcher or its times tell).
    write(&dir.join("data/common.yaml"), "global_key: GLOBAL\n");
    let s = session(&h, "n5");
    assert_eq!(
        s.lookup_key("global_key").unwrap(),
        Some(Value::from("GLOBAL"))
    );
    write(&dir.join("data/common.yaml"), "global_key: global\n");

    // A node's file, in a directory made after the first session.
    write(&dir.join("data/nodes/n6.yaml"), "global_key: mine\n");
    let s = session(&h, "n6");
    assert_eq!(
        s.lookup_key("global_key").unwrap(),
        Some(Value::from("mine"))
    );

    // The module's hiera.yaml rewritten to name another file.
    let module = dir.join("envs/production/modules/m");
    write(
        &module.join("hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: other\n    path: other.yaml\n",
    );
    write(&module.join("data/other.yaml"), "m::key: module2\n");
    let s = session(&h, "n7");
    assert_eq!(
        s.lookup_key("m::key").unwrap(),
        Some(Value::from("module2"))
    );

    // The environment's directory swapped for another (as a deploy tool
    // renames a new checkout into place).
    let env = dir.join("envs/production");
    let next = dir.join("envs/next");
    write(&next.join("data/common.yaml"), "env_key: next\n");
    write(
        &next.join("hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
    );
    std::fs::rename(&env, dir.join("envs/old")).unwrap();
    std::fs::rename(&next, &env).unwrap();
    let s = session(&h, "n8");
    assert_eq!(s.lookup_key("env_key").unwrap(), Some(Value::from("next")));
    let _ = std::fs::remove_dir_all(&dir);
}
