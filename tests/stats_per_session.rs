//! Each new session `stat`s each file it uses once, and no file twice
//! (issue 18, stall21: on the `modular` and `deep` corpora a warm lookup's
//! `stat`s cost about as much time as its instructions; see BENCHMARKS.md).
//! `FileCache::stats` counts them.

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

/// The `stat`s of a warm session: each file once.
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
