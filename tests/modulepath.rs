//! The modulepath in the engine (beyond the recorded cases in
//! tests/conformance/modulepath): the effective list `Hiera::modulepath`
//! reports, shadowing, a module resolved once per session (a module that
//! appears later is seen by the next session), explanations naming the
//! module's directory, and confinement with modules outside the
//! environment.

use hiera::{ErrorKind, Hiera, LookupRequest, Map, Options, Session, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

const MODULE_HIERA: &str = "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n";

fn module(dir: &Path, name: &str, data: &str) {
    write(&dir.join(name).join("hiera.yaml"), MODULE_HIERA);
    write(&dir.join(name).join("data/common.yaml"), data);
}

/// A scratch tree, removed when dropped.
struct Tree(PathBuf);

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn tree(tag: &str) -> Tree {
    let dir = std::env::temp_dir().join(format!(
        "libhiera-modulepath-it-{tag}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("environments/production")).unwrap();
    Tree(dir)
}

fn open(dir: &Path, f: impl FnOnce(&mut Options)) -> Arc<Hiera> {
    let mut o = Options {
        hiera_config: dir.join("hiera.yaml"),
        environmentpath: dir.join("environments"),
        ..Default::default()
    };
    f(&mut o);
    Arc::new(Hiera::open(o).unwrap())
}

fn get(h: &Arc<Hiera>, key: &str) -> Option<Value> {
    Session::new(Arc::clone(h), Map::default())
        .lookup_key(key)
        .unwrap()
}

#[test]
fn the_effective_modulepath() {
    let t = tree("effective");
    let env = t.0.join("environments/production");
    let b = |n: &str| t.0.join(n);
    // Default: the environment's modules, then the base directories.
    let h = open(&t.0, |o| o.basemodulepath = vec![b("b1"), b("x/../b2")]);
    assert_eq!(h.modulepath(), [env.join("modules"), b("b1"), b("b2")]);
    assert_eq!(open(&t.0, |_| {}).modulepath(), [env.join("modules")]);
    // environment.conf.
    write(
        &env.join("environment.conf"),
        "modulepath = site:$basemodulepath:modules\n",
    );
    let h = open(&t.0, |o| o.basemodulepath = vec![b("b1")]);
    assert_eq!(
        h.modulepath(),
        [env.join("site"), b("b1"), env.join("modules")]
    );
    // An explicit modulepath is the whole list.
    let h = open(&t.0, |o| {
        o.basemodulepath = vec![b("b1")];
        o.modulepath = Some(vec![b("m")]);
    });
    assert_eq!(h.modulepath(), [b("m")]);
    // Without the environment's directory: the base directories.
    let h = open(&t.0, |o| {
        o.environment = "nowhere".into();
        o.basemodulepath = vec![b("b1")];
    });
    assert_eq!(h.modulepath(), [b("b1")]);
    // An environment.conf Puppet cannot use fails the open.
    write(
        &env.join("environment.conf"),
        "modulepath = $codedir/modules\n",
    );
    let e = Hiera::open(Options {
        hiera_config: t.0.join("hiera.yaml"),
        environmentpath: t.0.join("environments"),
        ..Default::default()
    })
    .err()
    .unwrap();
    assert_eq!(e.kind, ErrorKind::Config);
    assert_eq!(
        e.file.as_deref(),
        Some(env.join("environment.conf").as_path())
    );
}

#[test]
fn shadowing_and_one_resolution_per_session() {
    let t = tree("shadow");
    let (b1, b2) = (t.0.join("b1"), t.0.join("b2"));
    module(&b2, "mymod", "mymod::where: b2\n");
    let h = open(&t.0, |o| o.basemodulepath = vec![b1.clone(), b2.clone()]);
    let s = Session::new(Arc::clone(&h), Map::default());
    assert_eq!(
        s.lookup_key("mymod::where").unwrap(),
        Some(Value::from("b2"))
    );
    // A module of the same name appears in an earlier directory: the session
    // keeps the module it found; a new session finds the new one first.
    module(&b1, "mymod", "mymod::other: b1\n");
    assert_eq!(
        s.lookup_key("mymod::where").unwrap(),
        Some(Value::from("b2"))
    );
    assert_eq!(s.lookup_key("mymod::other").unwrap(), None);
    assert_eq!(get(&h, "mymod::where"), None, "b2's copy is shadowed");
    assert_eq!(get(&h, "mymod::other"), Some(Value::from("b1")));
    // The first copy loses its hiera.yaml: it is still the module, with no data.
    std::fs::remove_file(b1.join("mymod/hiera.yaml")).unwrap();
    assert_eq!(get(&h, "mymod::where"), None);
    // The first copy goes: the next one is the module.
    std::fs::remove_dir_all(b1.join("mymod")).unwrap();
    assert_eq!(get(&h, "mymod::where"), Some(Value::from("b2")));
    // A plain file of the module's name is not a module.
    write(&b1.join("mymod"), "not a directory\n");
    assert_eq!(get(&h, "mymod::where"), Some(Value::from("b2")));
}

#[test]
fn explanations_name_the_module_found() {
    let t = tree("explain");
    let (b1, b2) = (t.0.join("b1"), t.0.join("b2"));
    module(&b1, "gamma", "gamma::where: b1\n");
    module(&b2, "gamma", "gamma::where: b2\n");
    std::fs::create_dir_all(b2.join("nodata")).unwrap();
    let h = open(&t.0, |o| o.basemodulepath = vec![b1.clone(), b2.clone()]);
    let s = Session::new(Arc::clone(&h), Map::default());
    let (found, text) = s.explain(&LookupRequest::key("gamma::where"));
    assert_eq!(found.unwrap(), Some(Value::from("b1")));
    assert!(
        text.contains(&format!(
            "Using configuration \"{}\"",
            b1.join("gamma/hiera.yaml").display()
        )),
        "{text}"
    );
    assert!(!text.contains(&b2.display().to_string()), "{text}");
    let (_, text) = s.explain(&LookupRequest::key("nodata::x"));
    assert!(
        text.contains("Module data provider for module \"nodata\" not found"),
        "{text}"
    );
    let (_, text) = s.explain(&LookupRequest::key("nomod::x"));
    assert!(text.contains("Module \"nomod\" not found"), "{text}");
}

#[test]
fn confinement_roots_are_the_modulepath_directories() {
    let t = tree("confine");
    let base = t.0.join("base");
    write(&t.0.join("secret.yaml"), "mymod::k: secret\n");
    write(
        &base.join("mymod/hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: fact\n    path: \"%{facts.p}.yaml\"\n  - name: common\n    path: common.yaml\n",
    );
    write(&base.join("mymod/data/common.yaml"), "mymod::k: common\n");
    let h = open(&t.0, |o| {
        o.basemodulepath = vec![base.clone()];
        o.confine = true;
    });
    let lookup = |p: &str| {
        let mut facts = Map::default();
        facts.insert("p".into(), p.into());
        let mut scope = Map::default();
        scope.insert("facts".into(), Value::hash(facts));
        Session::new(Arc::clone(&h), scope).lookup_key("mymod::k")
    };
    // Module data in a base directory is read under confinement...
    assert_eq!(lookup("nothing").unwrap(), Some(Value::from("common")));
    // ...and a fact cannot lead out of it.
    let e = lookup("../../../secret").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Io, "{e:?}");
}
