use super::*;
use crate::error::{Error, ErrorKind};
use crate::hiera5::config::HieraConfig;
use crate::value::Map;
use std::sync::Arc;

#[test]
fn strict_defaults_to_the_puppet_versions() {
    let o = |strict, puppet| {
        Options {
            strict,
            puppet,
            ..Options::default()
        }
        .strict()
    };
    assert_eq!(o(None, 7), Strict::Warning);
    assert_eq!(o(None, 8), Strict::Error);
    assert_eq!(o(Some(Strict::Off), 8), Strict::Off);
    assert_eq!(o(Some(Strict::Error), 7), Strict::Error);
    let e = Hiera::open(Options {
        puppet: 6,
        ..Options::default()
    })
    .err()
    .unwrap();
    assert_eq!(
        (e.kind, e.message.as_str()),
        (ErrorKind::InvalidArgument, "puppet must be 7 or 8, not 6")
    );
}

#[test]
fn a_default_values_hash_entry_excuses_an_undefined_variable_in_puppet_8_only() {
    let dir = std::env::temp_dir().join(format!("libhiera-dvh-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(dir.join("hiera.yaml"), "version: 5\n").unwrap();
    std::fs::write(dir.join("data/common.yaml"), "k: \"<%{x}>\"\n").unwrap();
    let run = |strict, puppet| {
        let options = Options {
            hiera_config: dir.join("hiera.yaml"),
            environmentpath: dir.clone(),
            strict,
            puppet,
            ..Options::default()
        };
        let session = Session::new(Arc::new(Hiera::open(options).unwrap()), Map::default());
        let mut defaults = Map::default();
        defaults.insert("x".into(), "d".into());
        let req = LookupRequest {
            keys: vec!["k".into()],
            default_values_hash: defaults,
            ..Default::default()
        };
        let (r, warnings) = session.lookup_with_warnings(&req);
        (
            r.map(|v| v.and_then(|v| v.as_str().map(str::to_string)))
                .map_err(|e| e.message),
            warnings,
        )
    };
    // Puppet 7 asks the scope first: an error, or a warning and then the default.
    assert_eq!(
        run(Some(Strict::Error), 7),
        (Err("Undefined variable 'x'; ".into()), vec![])
    );
    assert_eq!(
        run(None, 7),
        (
            Ok(Some("<d>".into())),
            vec!["Undefined variable 'x'; ".into()]
        )
    );
    // Puppet 8 catches the undefined variable when there is a default.
    assert_eq!(run(None, 8), (Ok(Some("<d>".into())), vec![]));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn undefined_variable_warnings_are_puppets_warn_once() {
    let dir = std::env::temp_dir().join(format!("libhiera-warn-once-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(dir.join("hiera.yaml"), "version: 5\nhierarchy:\n  - name: n\n    path: \"n/%{nope}.yaml\"\n  - name: c\n    path: common.yaml\n").unwrap();
    std::fs::write(dir.join("data/common.yaml"), "k: \"<%{::x}>\"\n").unwrap();
    let warned = |puppet: u8, strict: Strict| {
        let options = Options {
            hiera_config: dir.join("hiera.yaml"),
            environmentpath: dir.clone(),
            strict: Some(strict),
            puppet,
            ..Options::default()
        };
        let session = Session::new(Arc::new(Hiera::open(options).unwrap()), Map::default());
        session.lookup_warned(&LookupRequest::key("k")).1
    };
    // Each kind of warning keyed by the variable's name, as Puppet's scope keys it.
    let w = warned(7, Strict::Warning);
    assert_eq!(
        w.iter()
            .map(|w| (w.kind, w.key.as_str()))
            .collect::<Vec<_>>(),
        [
            (Some("undefined_variables"), "Variable: nope"),
            (Some("undefined_variables"), "Variable: ::x")
        ]
    );
    let w = warned(8, Strict::Error);
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(
        (w[0].kind, w[0].key.as_str()),
        (Some("undefined_variables"), "Variable: nope")
    );
    assert!(
        w[0].message
            .starts_with("Interpolation failed with 'nope', but compilation continuing"),
        "{w:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn undefined_variables_are_worded_as_puppet_words_them() {
    let w = |root: &str| undefined_variable_words(root).map(|(n, r)| format!("{n}|{r}"));
    assert_eq!(w("x").as_deref(), Some("x|"));
    assert_eq!(w("::x").as_deref(), Some("::x|"));
    assert_eq!(
        w("a::x").as_deref(),
        Some("a::x|class a could not be found")
    );
    assert_eq!(
        w("::a::b::x").as_deref(),
        Some("a::b::x|class a::b could not be found")
    );
    assert_eq!(w("settings::x").as_deref(), Some("::settings::x|"));
    assert_eq!(
        w("::caller_module_name").as_deref(),
        Some("::caller_module_name|")
    );
    assert_eq!(w("01").as_deref(), Some("01|"));
    for always in ["module_name", "caller_module_name", "0", "7", "12"] {
        assert_eq!(w(always), None, "{always}");
    }
}

#[test]
fn config_lines_are_found_as_puppet_finds_them() {
    let dir = std::env::temp_dir().join(format!("libhiera-find-line-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("hiera.yaml");
    let text = "version: 5\n# path: \"%{x}\"\npath: \"a#%{x}\"\npath: \"%{'x'}/%{y.z}\"\nglob: \"%{::x}\"\n";
    std::fs::write(&path, text).unwrap();
    // A comment, then text after any `#` (quoted or not), are cut off.
    assert_eq!(find_line_matching(&path, "x"), Some(4));
    assert_eq!(find_line_matching(&path, "::x"), Some(5));
    // A dotted expression's root does not match `%{y.z}`.
    assert_eq!(find_line_matching(&path, "y"), None);
    // The name is a regexp, as Puppet interpolates it into one.
    assert_eq!(find_line_matching(&path, "."), Some(4));
    let e = config_undefined_variable(
        Error::new(ErrorKind::Interpolation, "Undefined variable '::x'; "),
        &HieraConfig {
            path: Some(path.clone()),
            ..HieraConfig::implicit_default(&dir)
        },
    );
    assert_eq!(
        e.message,
        format!(
            "Undefined variable '::x' (file: {}, line: 5)",
            path.display()
        )
    );
    assert_eq!(e.kind, ErrorKind::Config);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A configuration in a fresh directory: `hiera.yaml` and `data/common.yaml`.
fn plan_fixture(name: &str, hiera: &str, common: &str) -> (std::path::PathBuf, Arc<Hiera>) {
    let dir = std::env::temp_dir().join(format!("libhiera-{name}-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(dir.join("hiera.yaml"), hiera).unwrap();
    std::fs::write(dir.join("data/common.yaml"), common).unwrap();
    let options = Options {
        hiera_config: dir.join("hiera.yaml"),
        environmentpath: dir.clone(),
        ..Options::default()
    };
    (dir, Arc::new(Hiera::open(options).unwrap()))
}

#[test]
fn the_quick_path_walks_the_plan_the_general_path_gathered_or_names_why_not() {
    let (dir, hiera) = plan_fixture(
        "plan",
        "version: 5\nhierarchy:\n  - name: n\n    path: \"n/%{role}.yaml\"\n  - name: c\n    path: common.yaml\n",
        "a: 1\nb: \"%{role}-x\"\nm:\n  x: 1\nlookup_options:\n  m:\n    merge: deep\n",
    );
    let mut scope = Map::default();
    scope.insert("role".into(), "web".into());
    let session = Session::new(hiera, scope);
    let quick = |req: &LookupRequest| {
        session
            .quick_lookup(req, &mut Asked::new())
            .map(|(found, _)| found)
    };
    let key = LookupRequest::key;
    // Nothing gathered yet: the general path answers, and fills the store.
    assert_eq!(quick(&key("a")), Err(Decline::NotYet));
    assert_eq!(session.lookup_key("a").unwrap(), Some(Value::Int(1)));
    // Now the plan is there: found, not found, dotted, interpolated.
    assert_eq!(quick(&key("a")), Ok(Some(Value::Int(1))));
    assert_eq!(quick(&key("nope")), Ok(None));
    assert_eq!(quick(&key("a.b")), Err(Decline::Failed));
    assert_eq!(quick(&key("b")), Ok(Some(Value::string("web-x"))));
    // The interpolated answer is kept as the general path keeps it.
    let (kept, reads) = session.find::<Finished>(("b", None)).unwrap();
    assert_eq!(kept, Some(Value::string("web-x")));
    assert!(reads.iter().any(|r| &**r == "role"), "{reads:?}");
    // Each step the plan leaves to the general path, named.
    assert_eq!(quick(&key("m")), Err(Decline::Options));
    assert_eq!(quick(&key("'a'")), Err(Decline::Key));
    assert_eq!(quick(&key("lookup_options")), Err(Decline::Key));
    let merged = LookupRequest {
        merge: Some(Value::string("deep")),
        ..key("a")
    };
    assert_eq!(quick(&merged), Err(Decline::Request));
    // And the general path gives the same answers.
    assert_eq!(
        session.lookup_key("b").unwrap(),
        Some(Value::string("web-x"))
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_overlay_sees_its_parents_entries_that_read_none_of_its_changes() {
    let (dir, hiera) = plan_fixture(
        "store",
        "version: 5\nhierarchy:\n  - name: c\n    path: common.yaml\n",
        "a: \"%{x}\"\nb: 2\n",
    );
    let mut scope = Map::default();
    scope.insert("x".into(), "1".into());
    scope.insert("y".into(), "1".into());
    let parent = Arc::new(Session::new(hiera, scope));
    assert_eq!(parent.lookup_key("a").unwrap(), Some(Value::string("1")));
    assert_eq!(parent.lookup_key("b").unwrap(), Some(Value::Int(2)));
    let overlay = |var: &str| {
        let mut vars = Map::default();
        vars.insert(var.into(), "2".into());
        parent.overlay(vars, Map::default(), &[])
    };
    // Changing y: the parent's finished lookup and lookup_options hold
    // (`b`, plain, was the quick path's: nothing to keep).
    let y = overlay("y");
    assert!(y.find::<Finished>(("a", None)).is_some());
    assert!(y.find::<Finished>(("b", None)).is_none());
    assert!(y.find::<ModuleOptions>("").is_some());
    // Changing x: `a` read it, so the overlay computes and keeps its own.
    let x = overlay("x");
    assert!(x.find::<Finished>(("a", None)).is_none());
    assert!(x.find::<ModuleOptions>("").is_some());
    assert_eq!(x.lookup_key("a").unwrap(), Some(Value::string("2")));
    let (own, _) = x.find::<Finished>(("a", None)).unwrap();
    assert_eq!(own, Some(Value::string("2")));
    assert_eq!(
        parent.find::<Finished>(("a", None)).unwrap().0,
        Some(Value::string("1"))
    );
    // Configurations are the parent's, whatever the overlay changes.
    let (g, _) = x.find::<GlobalConfig>(()).unwrap();
    assert!(Arc::ptr_eq(&g, &parent.find::<GlobalConfig>(()).unwrap().0));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_shelf_keeps_the_first_entry_a_session_sees() {
    let single = Single::<i32>::default();
    assert_eq!(single.keep((), 1, no_reads(), |_| true), 1);
    assert_eq!(single.keep((), 2, no_reads(), |_| true), 1);
    assert_eq!(single.find((), |_| true).map(|(v, _)| v), Some(1));
    // An entry the asking session does not see is not its answer.
    let reads: Reads = Arc::from([Box::from("x")]);
    let named = ByName::<i32>::default();
    assert_eq!(named.keep("k", 1, reads.clone(), |_| true), 1);
    let blind = |r: &[Box<str>]| !r.iter().any(|r| &**r == "x");
    assert_eq!(named.find("k", blind), None);
    assert_eq!(named.keep("k", 2, no_reads(), blind), 2);
    assert_eq!(named.find("k", blind).map(|(v, _)| v), Some(2));
    assert_eq!(named.find("k", |_| true).map(|(v, _)| v), Some(1));
}

#[test]
fn the_general_path_walks_the_same_plan_once_it_is_made() {
    let (dir, hiera) = plan_fixture(
        "walk",
        "version: 5\nhierarchy:\n  - name: n\n    path: \"n/%{role}.yaml\"\n  - name: c\n    path: common.yaml\n",
        "a: 1\nh:\n  x: 1\nl: [1, 2]\n",
    );
    std::fs::create_dir_all(dir.join("data/n")).unwrap();
    std::fs::write(dir.join("data/n/web.yaml"), "h:\n  y: 2\nl: [2, 3]\n").unwrap();
    let mut scope = Map::default();
    scope.insert("role".into(), "web".into());
    let session = Session::new(hiera, scope);
    let req = LookupRequest::key("h");
    let lk = crate::hiera5::key::LookupKey::parse("h").unwrap();
    // Before any lookup there is no plan: each layer's step is made.
    assert!(Invocation::new(&session, &req).walkable_plan(&lk).is_none());
    assert_eq!(session.lookup_key("a").unwrap(), Some(Value::Int(1)));
    let plan = Invocation::new(&session, &req).walkable_plan(&lk).unwrap();
    // The plan's step is the one the session keeps for the layer.
    let global = plan.layer(Layer::Global).unwrap();
    let (kept, _) = session
        .find::<Hierarchies>((Arc::as_ptr(&global.hierarchy.config) as usize, false))
        .unwrap();
    assert!(Arc::ptr_eq(&kept, &global.hierarchy));
    // Its stops for a key: only the locations whose data has it, while
    // every entry stays a merge candidate.
    let stops = global.stops("h");
    assert_eq!(stops.entries(), 2);
    assert!(stops.at_entry(0) && stops.at_entry(1));
    let stops = global.stops("a");
    assert!(!stops.at_entry(0) && stops.at_entry(1));
    assert_eq!(
        stops.first().map(|s| (s.entry, s.location, s.plain)),
        Some((1, 0, true))
    );
    assert!(stops.at(0, 0).is_none());
    assert!(global.stops("nope").is_empty());
    // Merges walk the plan, and answer as a fresh session's general path,
    // which makes each step (no plan made yet there).
    let merged = |session: &Session, merge: &str, key: &str| {
        let req = LookupRequest {
            merge: Some(Value::string(merge)),
            ..LookupRequest::key(key)
        };
        session.lookup(&req).unwrap().unwrap()
    };
    for (merge, key) in [
        ("deep", "h"),
        ("hash", "h"),
        ("unique", "l"),
        ("first", "l"),
    ] {
        let fresh = Session::new(Arc::clone(session.hiera()), session.scope().clone());
        assert!(Invocation::new(&fresh, &req).walkable_plan(&lk).is_none());
        assert_eq!(
            merged(&session, merge, key),
            merged(&fresh, merge, key),
            "{merge}"
        );
    }
    let deep = merged(&session, "deep", "h");
    let Value::Hash(h) = &deep else {
        panic!("{deep:?}")
    };
    assert_eq!(
        (
            h.get(&crate::value::Key("x")),
            h.get(&crate::value::Key("y"))
        ),
        (Some(&Value::Int(1)), Some(&Value::Int(2)))
    );
    assert_eq!(
        merged(&session, "unique", "l"),
        Value::array(vec![Value::Int(2), Value::Int(3), Value::Int(1)])
    );
    // Explaining, overriding or defaulting is not walking the plan.
    let mut inv = Invocation::new(&session, &req);
    inv.explain = Some(crate::hiera5::explain::Explainer::default());
    assert!(inv.walkable_plan(&lk).is_none());
    let mut overrides = Map::default();
    overrides.insert("z".into(), Value::Int(1));
    let overriding = LookupRequest {
        override_values: overrides,
        ..LookupRequest::key("h")
    };
    assert!(Invocation::new(&session, &overriding)
        .walkable_plan(&lk)
        .is_none());
    // Explained, every location is a stop (no index), with the same answer.
    let (r, text) = session.explain(&LookupRequest {
        merge: Some(Value::string("deep")),
        ..LookupRequest::key("h")
    });
    assert_eq!(r.unwrap(), Some(deep));
    assert!(
        text.contains("n/web.yaml") && text.contains("common.yaml"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The global layer's resolved hierarchy a session keeps.
fn kept_hierarchy(session: &Session) -> Arc<ResolvedHierarchy> {
    let (config, _) = session.find::<GlobalConfig>(()).unwrap();
    session
        .find::<Hierarchies>((Arc::as_ptr(&config) as usize, false))
        .unwrap()
        .0
}

#[test]
fn sessions_share_a_resolved_hierarchy_only_when_the_values_it_read_and_its_files_are_the_same() {
    let (dir, hiera) = plan_fixture(
        "share",
        "version: 5\nhierarchy:\n  - name: n\n    path: \"n/%{facts.role}.yaml\"\n  - name: c\n    path: common.yaml\n",
        "a: 1\nb: \"%{facts.role}-b\"\n",
    );
    std::fs::create_dir_all(dir.join("data/n")).unwrap();
    std::fs::write(dir.join("data/n/web.yaml"), "a: web\n").unwrap();
    let session = |role: Option<&str>, other: &str| {
        let mut facts = Map::default();
        if let Some(role) = role {
            facts.insert("role".into(), role.into());
        }
        facts.insert("other".into(), other.into());
        let mut scope = Map::default();
        scope.insert("facts".into(), Value::hash(facts));
        Session::new(Arc::clone(&hiera), scope)
    };
    let fresh = |s: &Session, key: &str| {
        let hiera = Arc::new(Hiera::open(s.hiera().options().clone()).unwrap());
        Session::new(hiera, s.scope().clone())
            .lookup_with_warnings(&LookupRequest::key(key))
            .0
            .map_err(|e| e.message)
    };
    let web = session(Some("web"), "1");
    assert_eq!(web.lookup_key("a").unwrap(), Some(Value::string("web")));
    assert_eq!(hiera.resolutions.len(), 1);
    // A recorded resolution notes the reads `variable` notes (an overlay's
    // lookups neither record nor share, and keep the resolution in its
    // parent when it reads none of the overlay's variables).
    let other = Arc::new(Hiera::open(hiera.options().clone()).unwrap());
    let parent = Arc::new(Session::new(Arc::clone(&other), web.scope().clone()));
    let mut vars = Map::default();
    vars.insert("zzz".into(), "1".into());
    let overlay = parent.overlay(vars, Map::default(), &[]);
    assert_eq!(overlay.lookup_key("a").unwrap(), Some(Value::string("web")));
    assert_eq!(other.resolutions.len(), 0);
    assert_eq!(kept_hierarchy(&parent).reads, kept_hierarchy(&web).reads);
    // Another node with the same role (other facts differ): the same
    // resolution, data slots and index, the same answers.
    let web2 = session(Some("web"), "2");
    assert_eq!(web2.lookup_key("a").unwrap(), Some(Value::string("web")));
    assert_eq!(web2.lookup_key("b").unwrap(), Some(Value::string("web-b")));
    assert!(Arc::ptr_eq(&kept_hierarchy(&web), &kept_hierarchy(&web2)));
    assert_eq!(hiera.resolutions.len(), 1);
    // Another role: its own resolution, its own answer.
    let db = session(Some("db"), "1");
    assert_eq!(db.lookup_key("a").unwrap(), Some(Value::Int(1)));
    assert!(!Arc::ptr_eq(&kept_hierarchy(&web), &kept_hierarchy(&db)));
    assert_eq!(hiera.resolutions.len(), 2);
    // No role (never shared: the scope does not have every step), and no
    // facts at all: an undefined variable, warned by every session.
    for _ in 0..2 {
        let none = session(None, "1");
        assert_eq!(none.lookup_key("a").unwrap(), Some(Value::Int(1)));
        let bare = Session::new(Arc::clone(&hiera), Map::default());
        let (r, warnings) = bare.lookup_with_warnings(&LookupRequest::key("a"));
        assert_eq!(r.unwrap(), Some(Value::Int(1)));
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("facts"), "{warnings:?}");
    }
    assert_eq!(hiera.resolutions.len(), 2);
    // A changed data file: the next session reads it, as a fresh Hiera does.
    std::fs::write(dir.join("data/n/web.yaml"), "a: web, changed\n").unwrap();
    let web3 = session(Some("web"), "3");
    assert_eq!(
        web3.lookup_key("a").unwrap(),
        Some(Value::string("web, changed"))
    );
    assert_eq!(fresh(&web3, "a"), Ok(Some(Value::string("web, changed"))));
    assert!(!Arc::ptr_eq(&kept_hierarchy(&web), &kept_hierarchy(&web3)));
    // A removed file, and a file that appears.
    std::fs::remove_file(dir.join("data/n/web.yaml")).unwrap();
    std::fs::write(dir.join("data/n/db.yaml"), "a: db\n").unwrap();
    let (web4, db2) = (session(Some("web"), "4"), session(Some("db"), "4"));
    assert_eq!(web4.lookup_key("a").unwrap(), Some(Value::Int(1)));
    assert_eq!(db2.lookup_key("a").unwrap(), Some(Value::string("db")));
    // The sessions before keep their snapshot.
    assert_eq!(web2.lookup_key("a").unwrap(), Some(Value::string("web")));
    // lookup_options added to a shared file: seen by the next session.
    std::fs::write(
        dir.join("data/common.yaml"),
        "a: 1\nh:\n  x: 1\nlookup_options:\n  h:\n    merge: deep\n",
    )
    .unwrap();
    std::fs::write(dir.join("data/n/db.yaml"), "a: db\nh:\n  y: 2\n").unwrap();
    let db3 = session(Some("db"), "5");
    let h = db3.lookup_key("h").unwrap().unwrap();
    assert_eq!(h.as_hash().map(|h| h.len()), Some(2), "{h:?}");
    assert_eq!(fresh(&db3, "h"), Ok(Some(h)));
    // A changed hiera.yaml: a new configuration, resolved again.
    std::fs::write(
        dir.join("hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: r\n    path: \"r/%{facts.role}.yaml\"\n  - name: c\n    path: common.yaml\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("data/r")).unwrap();
    std::fs::write(dir.join("data/r/db.yaml"), "a: r-db\n").unwrap();
    let db4 = session(Some("db"), "6");
    assert_eq!(db4.lookup_key("a").unwrap(), Some(Value::string("r-db")));
    let db5 = session(Some("db"), "7");
    assert_eq!(db5.lookup_key("a").unwrap(), Some(Value::string("r-db")));
    assert!(Arc::ptr_eq(&kept_hierarchy(&db4), &kept_hierarchy(&db5)));
    // Explained, overridden and defaulted lookups answer as a fresh Hiera's.
    let (r, text) = db5.explain(&LookupRequest::key("a"));
    let fresh_hiera = Arc::new(Hiera::open(hiera.options().clone()).unwrap());
    let fresh_db = Session::new(fresh_hiera, db5.scope().clone());
    // (In the same state: a session explains the lookup_options it has
    // not gathered yet.)
    assert_eq!(
        fresh_db.lookup_key("a").unwrap(),
        Some(Value::string("r-db"))
    );
    let (fr, ftext) = fresh_db.explain(&LookupRequest::key("a"));
    assert_eq!((r.unwrap(), text), (fr.unwrap(), ftext));
    let mut overrides = Map::default();
    let mut facts = Map::default();
    facts.insert("role".into(), "web".into());
    overrides.insert("facts".into(), Value::hash(facts));
    let req = LookupRequest {
        override_values: overrides.clone(),
        default_values_hash: overrides,
        ..LookupRequest::key("a")
    };
    assert_eq!(db5.lookup(&req).unwrap(), fresh_db.lookup(&req).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_shared_resolutions_are_bounded() {
    let (dir, hiera) = plan_fixture(
        "share-bound",
        "version: 5\nhierarchy:\n  - name: n\n    path: \"n/%{certname}.yaml\"\n  - name: c\n    path: common.yaml\n",
        "a: 1\n",
    );
    // A hierarchy that reads each node's own variable: never shared, and
    // only the last few kept.
    for i in 0..50 {
        let mut scope = Map::default();
        scope.insert("certname".into(), format!("node{i}").into());
        let s = Session::new(Arc::clone(&hiera), scope);
        assert_eq!(s.lookup_key("a").unwrap(), Some(Value::Int(1)));
    }
    assert_eq!(hiera.resolutions.len(), ResolutionCache::VARIANTS);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_resolution_is_shared_only_for_values_that_interpolate_the_same() {
    // Ruby's `==` (and Value::eq) holds `-0.0 == 0.0` and Hashes equal in
    // any key order, but `%{...}` renders them apart: each session must
    // get the file its own values name, as a fresh Hiera gives it.
    let (dir, hiera) = plan_fixture(
        "share-identical",
        "version: 5\nhierarchy:\n  - name: x\n    path: \"x/%{facts.x}.yaml\"\n  - name: h\n    path: \"h/%{facts.h}.yaml\"\n  - name: c\n    path: common.yaml\n",
        "a: common\n",
    );
    std::fs::create_dir_all(dir.join("data/x")).unwrap();
    std::fs::write(dir.join("data/x/-0.0.yaml"), "a: negative\n").unwrap();
    std::fs::write(dir.join("data/x/0.0.yaml"), "a: positive\n").unwrap();
    let session = |x: f64, keys: [&str; 2]| {
        let mut h = Map::default();
        for k in keys {
            h.insert(k.into(), Value::Int(1));
        }
        let mut facts = Map::default();
        facts.insert("x".into(), Value::Float(x));
        facts.insert("h".into(), Value::hash(h));
        let mut scope = Map::default();
        scope.insert("facts".into(), Value::hash(facts));
        Session::new(Arc::clone(&hiera), scope)
    };
    let negative = session(-0.0, ["a", "b"]);
    assert_eq!(
        negative.lookup_key("a").unwrap(),
        Some(Value::string("negative"))
    );
    let positive = session(0.0, ["a", "b"]);
    assert_eq!(
        positive.lookup_key("a").unwrap(),
        Some(Value::string("positive"))
    );
    assert!(!Arc::ptr_eq(
        &kept_hierarchy(&negative),
        &kept_hierarchy(&positive)
    ));
    let reordered = session(0.0, ["b", "a"]);
    assert_eq!(
        reordered.lookup_key("a").unwrap(),
        Some(Value::string("positive"))
    );
    assert!(!Arc::ptr_eq(
        &kept_hierarchy(&positive),
        &kept_hierarchy(&reordered)
    ));
    // The same values, in the same order: shared.
    let again = session(0.0, ["b", "a"]);
    assert_eq!(
        again.lookup_key("a").unwrap(),
        Some(Value::string("positive"))
    );
    assert!(Arc::ptr_eq(
        &kept_hierarchy(&reordered),
        &kept_hierarchy(&again)
    ));
    assert_eq!(hiera.resolutions.len(), 3);
    std::fs::remove_dir_all(&dir).unwrap();
}
