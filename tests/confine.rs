//! `Options::confine`: facts that climb out of the datadir (`../..`, also
//! into the global hiera.yaml's directory), a symbolic link pointing out of it, a glob and a mapped path reaching out
//! are refused with confinement on (a clean `io` error, never "not found")
//! and read with it off; the global, environment and module layers, and a
//! datadir that is itself a symbolic link, work alike with it on; every
//! conformance case gives the same answer with it on as with it off; and
//! the CLI's `--confine`.

mod support;

use hiera::{ErrorKind, Hiera, Map, Options, Session, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

const GLOBAL: &str = r#"version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: node
    path: "nodes/%{facts.node}.yaml"
  - name: linked
    path: "links/%{facts.link}.yaml"
  - name: group
    glob: "groups/%{facts.group}/*.yaml"
  - name: roles
    mapped_paths: [facts.roles, role, "roles/%{role}.yaml"]
  - name: common
    path: common.yaml
"#;

/// A repository under a new directory: `repo/` (the global hiera.yaml, its
/// `data/`, an environment with a module) and `outside/secret.yaml` next
/// to it. Returns the directory.
fn repo(tag: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("libhiera-confine-it-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let write = |p: &str, text: &str| {
        let p = dir.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write("repo/hiera.yaml", GLOBAL);
    write("repo/data/common.yaml", "common_key: common\n");
    write("repo/data/nodes/web.yaml", "k: web\n");
    write("repo/data/groups/g1.yaml", "g: one\n");
    write("repo/data/roles/x.yaml", "r: x\n");
    write("repo/shared/inner.yaml", "k: inner\n");
    write("outside/secret.yaml", "k: secret\ng: secret\n");
    write(
        "repo/environments/production/hiera.yaml",
        "version: 5\nhierarchy:\n  - name: env\n    datadir: linked_data\n    path: env.yaml\n",
    );
    // The environment's datadir is a symbolic link to a directory outside
    // the environment: named by the configuration, so allowed.
    write("elsewhere/env.yaml", "env_key: env\n");
    write(
        "repo/environments/production/modules/mod1/hiera.yaml",
        "version: 5\nhierarchy:\n  - name: m\n    path: common.yaml\n",
    );
    write(
        "repo/environments/production/modules/mod1/data/common.yaml",
        "mod1::x: module\n",
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        std::fs::create_dir_all(dir.join("repo/data/links")).unwrap();
        symlink(
            "../../../outside/secret.yaml",
            dir.join("repo/data/links/out.yaml"),
        )
        .unwrap();
        symlink(
            "../../shared/inner.yaml",
            dir.join("repo/data/links/in.yaml"),
        )
        .unwrap();
        symlink(
            "../../../elsewhere",
            dir.join("repo/environments/production/linked_data"),
        )
        .unwrap();
    }
    dir
}

fn hiera(dir: &Path, confine: bool) -> Arc<Hiera> {
    let repo = dir.join("repo");
    let options = Options {
        hiera_config: repo.join("hiera.yaml"),
        environmentpath: repo.join("environments"),
        confine,
        ..Default::default()
    };
    Arc::new(Hiera::open(options).unwrap())
}

/// Looks `key` up with `facts` (a YAML mapping), confined or not.
fn lookup(dir: &Path, confine: bool, facts: &str, key: &str) -> hiera::Result<Option<Value>> {
    let facts = hiera::data::load_yaml_text(facts, Path::new("facts"))
        .unwrap()
        .unwrap_or_else(Value::empty_hash);
    let mut scope = Map::default();
    scope.insert("facts".into(), facts);
    Session::new(hiera(dir, confine), scope).lookup_key(key)
}

/// The error of a refused read, checked: kind `io`, naming the file.
fn refused(r: hiera::Result<Option<Value>>, file: &str) -> String {
    let e = r.expect_err("refused");
    assert_eq!(e.kind, ErrorKind::Io, "{}", e.message);
    assert!(
        e.message
            .contains("outside the directories the configuration names (confine is on)"),
        "{}",
        e.message
    );
    assert!(
        e.message.contains(file),
        "{} does not name {file}",
        e.message
    );
    e.message
}

fn s(v: &str) -> Option<Value> {
    Some(Value::from(v))
}

#[test]
fn facts_climbing_out_of_the_datadir_are_refused() {
    let dir = repo("climb");
    let out = "{node: ../../../outside/secret}";
    assert_eq!(lookup(&dir, false, out, "k").unwrap(), s("secret"));
    let m = refused(
        lookup(&dir, true, out, "k"),
        "nodes/../../../outside/secret.yaml",
    );
    assert!(
        m.contains(&format!(
            "resolves to '{}'",
            std::fs::canonicalize(dir.join("outside/secret.yaml"))
                .unwrap()
                .display()
        )),
        "{m}"
    );
    // Any key: the node level is searched first.
    refused(lookup(&dir, true, out, "common_key"), "secret.yaml");
    // A file outside that does not exist is refused too, not missing.
    let missing = "{node: ../../../outside/missing}";
    assert_eq!(lookup(&dir, false, missing, "k").unwrap(), None);
    refused(lookup(&dir, true, missing, "k"), "missing.yaml");
    // Climbing out and back in is inside.
    let back = format!(
        "{{node: ../../../../{}/repo/data/nodes/web}}",
        dir.file_name().unwrap().to_string_lossy()
    );
    for confine in [false, true] {
        assert_eq!(
            lookup(&dir, confine, "{node: ../../data/nodes/web}", "k").unwrap(),
            s("web")
        );
        assert_eq!(lookup(&dir, confine, &back, "k").unwrap(), s("web"));
    }
    // Ordinary facts: the same answers.
    for confine in [false, true] {
        assert_eq!(lookup(&dir, confine, "{node: web}", "k").unwrap(), s("web"));
        assert_eq!(lookup(&dir, confine, "{node: db}", "k").unwrap(), None);
        assert_eq!(
            lookup(&dir, confine, "{}", "common_key").unwrap(),
            s("common")
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn symbolic_links_out_of_the_directories_are_refused() {
    let dir = repo("links");
    assert_eq!(
        lookup(&dir, false, "{link: out}", "k").unwrap(),
        s("secret")
    );
    let m = refused(lookup(&dir, true, "{link: out}", "k"), "links/out.yaml");
    assert!(m.contains("outside/secret.yaml"), "{m}");
    // The global hiera.yaml's directory is not a root (in a Puppet install
    // it is the confdir, which holds ssl/): a link to a file there, outside
    // the datadirs, is refused too, and so is a fact climbing there.
    assert_eq!(lookup(&dir, false, "{link: in}", "k").unwrap(), s("inner"));
    refused(lookup(&dir, true, "{link: in}", "k"), "links/in.yaml");
    assert_eq!(
        lookup(&dir, false, "{node: ../../shared/inner}", "k").unwrap(),
        s("inner")
    );
    refused(
        lookup(&dir, true, "{node: ../../shared/inner}", "k"),
        "shared/inner.yaml",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn globs_and_mapped_paths_reaching_out_are_refused() {
    let dir = repo("globs");
    let glob = "{group: ../../../outside}";
    assert_eq!(lookup(&dir, false, glob, "g").unwrap(), s("secret"));
    let e = lookup(&dir, true, glob, "g").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Io);
    assert!(
        e.message.contains("Refusing to expand the glob '"),
        "{}",
        e.message
    );
    // A wildcard then `..`: refused before the expansion walks anywhere.
    let e = lookup(&dir, true, "{group: '*/../../../../outside'}", "g").unwrap_err();
    assert!(
        e.message.contains("Refusing to expand the glob '"),
        "{}",
        e.message
    );
    for confine in [false, true] {
        assert_eq!(lookup(&dir, confine, "{}", "g").unwrap(), s("one"));
    }
    let mapped = "{roles: [x, ../../../outside/secret]}";
    assert_eq!(lookup(&dir, false, mapped, "k").unwrap(), s("secret"));
    refused(
        lookup(&dir, true, mapped, "k"),
        "roles/../../../outside/secret.yaml",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_layer_reads_with_confinement() {
    let dir = repo("layers");
    for confine in [false, true] {
        assert_eq!(lookup(&dir, confine, "{}", "mod1::x").unwrap(), s("module"));
        assert_eq!(lookup(&dir, confine, "{}", "mod1::y").unwrap(), None);
        #[cfg(unix)]
        assert_eq!(
            lookup(&dir, confine, "{}", "env_key").unwrap(),
            s("env"),
            "confine {confine}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn conformance_cases_answer_alike_with_confinement() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let mut cases = Vec::new();
    support::find_cases(&root, &mut cases);
    support::find_cases(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("examples"),
        &mut cases,
    );
    cases.sort();
    let (mut queries, mut differ) = (0, Vec::new());
    for dir in &cases {
        let case = support::load_case(dir).unwrap();
        if case.engine != "hiera5" {
            continue;
        }
        for q in &case.queries {
            queries += 1;
            let (open, confined) = (
                support::run_query_with(&case, q, false),
                support::run_query_with(&case, q, true),
            );
            if format!("{open:?}") != format!("{confined:?}") {
                differ.push(format!(
                    "{} {}: {open:?} / confined {confined:?}",
                    dir.strip_prefix(&root).unwrap_or(dir).display(),
                    q.key
                ));
            }
        }
    }
    eprintln!(
        "{queries} queries of {} cases, {} answer otherwise with confine on",
        cases.len(),
        differ.len()
    );
    for d in &differ {
        eprintln!("  {d}");
    }
    assert!(queries > 500, "only {queries} queries");
    assert!(
        differ.is_empty(),
        "{} queries answer otherwise with confine on",
        differ.len()
    );
}

#[test]
fn cli_confine_flag() {
    let dir = repo("cli");
    std::fs::write(dir.join("facts.yaml"), "node: ../../../outside/secret\n").unwrap();
    let run = |confine: bool| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_hiera-lookup"));
        c.current_dir(dir.join("repo"))
            .args(["--facts", "../facts.yaml", "--render-as", "s"]);
        if confine {
            c.arg("--confine");
        }
        c.arg("k").output().unwrap()
    };
    let open = run(false);
    assert_eq!(open.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&open.stdout).trim(), "secret");
    let confined = run(true);
    assert_eq!(confined.status.code(), Some(2));
    assert!(confined.stdout.is_empty());
    let err = String::from_utf8_lossy(&confined.stderr);
    assert!(
        err.contains("Refusing to read") && err.contains("secret.yaml"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
