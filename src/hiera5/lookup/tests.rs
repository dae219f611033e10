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
    // Merges of plain values: the request's, or the key's lookup_options'.
    let deep = |k: &str| LookupRequest {
        merge: Some(Value::string("deep")),
        ..key(k)
    };
    let mut m = Map::default();
    m.insert("x".into(), Value::Int(1));
    assert_eq!(quick(&key("m")), Ok(Some(Value::hash(m.clone()))));
    assert_eq!(quick(&deep("a")), Ok(Some(Value::Int(1))));
    assert_eq!(quick(&deep("m.x")), Ok(Some(Value::Int(1))));
    assert_eq!(quick(&deep("nope")), Ok(None));
    // Each step the plan leaves to the general path, named.
    assert_eq!(quick(&key("'a'")), Err(Decline::Key));
    assert_eq!(quick(&key("lookup_options")), Err(Decline::Key));
    assert_eq!(quick(&deep("b")), Err(Decline::NotRichData));
    let bad = LookupRequest {
        merge: Some(Value::string("nosuch")),
        ..key("a")
    };
    assert_eq!(quick(&bad), Err(Decline::Request));
    assert!(session.lookup(&bad).is_err());
    assert_eq!(
        session.lookup(&deep("b")).unwrap(),
        Some(Value::string("web-x"))
    );
    assert_eq!(session.lookup_key("m").unwrap(), Some(Value::hash(m)));
    // And the general path gives the same answers.
    assert_eq!(
        session.lookup_key("b").unwrap(),
        Some(Value::string("web-x"))
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The quick path digs a dotted key's tail from its text (no parsed key
/// made): each key here answers as the general path (the explanation's
/// lookup) answers it, or is declined; the syntax errors and the
/// integer-like root are declined, never answered.
#[test]
fn the_quick_path_digs_dotted_keys_as_the_general_path_does() {
    let (dir, hiera) = plan_fixture(
        "dotted",
        "version: 5\nhierarchy:\n  - name: c\n    path: common.yaml\n",
        "a: 1\nh:\n  x:\n    y: 1\n  \"0\": a\n  1: b\n  \"\": e\nl: [10, 20, [30]]\ns: str\nn: 5\n\"1\": one\n",
    );
    let session = Session::new(hiera, Map::default());
    assert_eq!(session.lookup_key("a").unwrap(), Some(Value::Int(1)));
    let mut answered = 0;
    for k in [
        "h.x.y", "h.x", "h. x .y", "h.0", "h.1", "h.:1", "h.+1", "l.1", "l.-1", "l.2.0", "l.5",
        "l.x", "s.x", "n.x", "h.x.y.z", "nope.x", "h.\x0bx", "h..x", "h.x.", "h. .x", "1.a",
        ":1.a", "l.1.",
    ] {
        let req = LookupRequest::key(k);
        let general = session.explain(&req).0;
        match session.quick_lookup(&req, &mut Asked::new()) {
            Ok((found, _)) => {
                assert_eq!(Ok(found), general, "{k:?}");
                answered += 1;
            }
            Err(d) => assert!(matches!(d, Decline::Key | Decline::Failed), "{k:?}: {d:?}"),
        }
        assert_eq!(session.lookup_key(k), general, "{k:?}");
    }
    assert!(answered >= 12, "{answered}");
    // The syntax errors and the integer-like root are the general path's.
    for k in ["h..x", "h.x.", "1.a", ":1.a", "l.1."] {
        let req = LookupRequest::key(k);
        assert!(session.explain(&req).0.is_err(), "{k:?}");
        assert_eq!(
            session.quick_lookup(&req, &mut Asked::new()).err(),
            Some(Decline::Key),
            "{k:?}"
        );
    }
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

/// A control repo with modules, for the namespaces a session takes from
/// what the `Hiera` shares: a global layer that reads the node's own name,
/// an environment layer and modules of each kind the adoption handles or
/// leaves to the general path.
fn modules_fixture(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("libhiera-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let write = |path: &str, text: &str| {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    let by_os = "version: 5\nhierarchy:\n  - name: os\n    path: \"os/%{facts.os.family}.yaml\"\n  - name: c\n    path: common.yaml\n";
    write(
        "hiera.yaml",
        "version: 5\ndefaults:\n  datadir: global\n  data_hash: yaml_data\nhierarchy:\n  - name: n\n    path: \"nodes/%{trusted.certname}.yaml\"\n  - name: c\n    path: common.yaml\n",
    );
    write(
        "global/common.yaml",
        "lookup_options:\n  '^.*::labels$':\n    merge: hash\ng: global\n",
    );
    write("global/nodes/n1.yaml", "m1::a: node-n1\n");
    write(
        "production/hiera.yaml",
        "version: 5\nhierarchy:\n  - name: r\n    path: \"roles/%{facts.role}.yaml\"\n  - name: c\n    path: common.yaml\n",
    );
    write(
        "production/data/common.yaml",
        "e: env\nm1::labels:\n  e: 1\n",
    );
    write("production/data/roles/web.yaml", "m1::b: web-b\n");
    // m1: options in one file, as they are.
    write("production/modules/m1/hiera.yaml", by_os);
    write(
        "production/modules/m1/data/common.yaml",
        "lookup_options:\n  m1::h:\n    merge: deep\nm1::a: common\nm1::b: common-b\nm1::h:\n  x: 1\nm1::labels:\n  l: 1\nm1::s: \"%{facts.role}-s\"\n",
    );
    write(
        "production/modules/m1/data/os/RedHat.yaml",
        "m1::a: redhat\nm1::h:\n  y: 2\n",
    );
    // m2: no hiera.yaml (no module layer).
    write("production/modules/m2/data/common.yaml", "m2::a: unread\n");
    // m3: options in two files (merged: the general path's).
    write("production/modules/m3/hiera.yaml", by_os);
    write(
        "production/modules/m3/data/common.yaml",
        "lookup_options:\n  m3::h:\n    merge: deep\nm3::a: 3\nm3::h:\n  x: 1\n",
    );
    write(
        "production/modules/m3/data/os/RedHat.yaml",
        "lookup_options:\n  m3::l:\n    merge: unique\nm3::h:\n  y: 2\nm3::l: [1]\n",
    );
    // m4: interpolated options; m5: a default hierarchy; m6: options that
    // are not a Hash (an error).
    write("production/modules/m4/hiera.yaml", by_os);
    write(
        "production/modules/m4/data/common.yaml",
        "lookup_options:\n  m4::h:\n    merge: \"%{facts.strategy}\"\nm4::h:\n  x: 1\n",
    );
    write(
        "production/modules/m4/data/os/Debian.yaml",
        "m4::h:\n  y: 2\n",
    );
    write(
        "production/modules/m5/hiera.yaml",
        "version: 5\nhierarchy:\n  - name: c\n    path: common.yaml\ndefault_hierarchy:\n  - name: d\n    path: defaults.yaml\n",
    );
    write("production/modules/m5/data/common.yaml", "m5::a: 5\n");
    write(
        "production/modules/m5/data/defaults.yaml",
        "m5::d: default\n",
    );
    write("production/modules/m6/hiera.yaml", by_os);
    write(
        "production/modules/m6/data/common.yaml",
        "lookup_options: nope\nm6::a: 6\n",
    );
    dir
}

fn modules_scope(cert: &str, family: &str, role: &str) -> Map {
    let mut os = Map::default();
    os.insert("family".into(), family.into());
    let mut facts = Map::default();
    facts.insert("os".into(), Value::hash(os));
    facts.insert("role".into(), role.into());
    facts.insert("strategy".into(), "deep".into());
    crate::scope::scope_from_facts(&facts, Some(cert), "production")
}

fn modules_hiera(dir: &std::path::Path) -> Arc<Hiera> {
    let options = Options {
        hiera_config: dir.join("hiera.yaml"),
        environmentpath: dir.to_path_buf(),
        ..Options::default()
    };
    Arc::new(Hiera::open(options).unwrap())
}

const MODULE_KEYS: [&str; 17] = [
    "g",
    "m1::a",
    "m1::b",
    "m1::h",
    "m1::labels",
    "m1::s",
    "m1::nope",
    "m2::a",
    "m3::a",
    "m3::h",
    "m3::l",
    "m4::h",
    "m5::a",
    "m5::d",
    "m6::a",
    "nomodule::x",
    "e",
];

/// Each key's answer in `session`, in order (errors as their messages).
fn module_answers(session: &Session) -> Vec<std::result::Result<Option<Value>, String>> {
    MODULE_KEYS
        .iter()
        .map(|k| session.lookup_key(k).map_err(|e| e.message))
        .collect()
}

#[test]
fn a_session_takes_a_namespace_from_what_the_hiera_shares_as_its_general_path_would_make_it() {
    let dir = modules_fixture("adopt");
    let hiera = modules_hiera(&dir);
    let nodes = [
        ("n1", "RedHat", "web"),
        ("n2", "RedHat", "web"),
        ("n3", "Debian", "db"),
        ("n4", "RedHat", "db"),
    ];
    let fresh = |scope: &Map| module_answers(&Session::new(modules_hiera(&dir), scope.clone()));
    let check = |hiera: &Arc<Hiera>, round: &str| {
        for (cert, family, role) in nodes {
            let scope = modules_scope(cert, family, role);
            let session = Session::new(Arc::clone(hiera), scope.clone());
            assert_eq!(module_answers(&session), fresh(&scope), "{round}: {cert}");
        }
    };
    check(&hiera, "first");
    // A new session of a node like one seen: after its first lookup (the
    // general path's), the namespaces it has not searched are taken from
    // what the Hiera shares, where they can be; the others are named.
    let session = Session::new(Arc::clone(&hiera), modules_scope("n9", "RedHat", "web"));
    let quick = |key: &str| {
        session
            .quick_lookup(&LookupRequest::key(key), &mut Asked::new())
            .map(|(found, _)| found)
    };
    assert_eq!(quick("m1::a"), Err(Decline::NotYet));
    assert_eq!(
        session.lookup_key("g").unwrap(),
        Some(Value::string("global"))
    );
    assert_eq!(quick("m1::a"), Ok(Some(Value::string("redhat"))));
    assert_eq!(quick("m1::b"), Ok(Some(Value::string("web-b"))));
    assert_eq!(quick("m1::s"), Ok(Some(Value::string("web-s"))));
    // m1::h has lookup_options (a deep merge): merged from the plan.
    assert_eq!(
        quick("m1::h"),
        Ok(
            Session::new(modules_hiera(&dir), modules_scope("n9", "RedHat", "web"))
                .lookup_key("m1::h")
                .unwrap()
        )
    );
    assert_eq!(quick("m2::a"), Ok(None));
    assert_eq!(quick("nomodule::x"), Ok(None));
    assert_eq!(quick("m3::a"), Err(Decline::NotYet));
    assert_eq!(quick("m4::h"), Err(Decline::NotYet));
    assert_eq!(quick("m5::a"), Err(Decline::NotYet));
    assert_eq!(quick("m6::a"), Err(Decline::NotYet));
    // What it kept is what the general path keeps.
    let general = Session::new(Arc::clone(&hiera), modules_scope("n9", "RedHat", "web"));
    assert_eq!(
        general.lookup_key("m1::a").unwrap(),
        Some(Value::string("redhat"))
    );
    let (options, reads) = session.find::<ModuleOptions>("m1").unwrap();
    let (g_options, g_reads) = general.find::<ModuleOptions>("m1").unwrap();
    assert!(Arc::ptr_eq(
        options.as_ref().unwrap(),
        g_options.as_ref().unwrap()
    ));
    assert_eq!(reads, g_reads);
    let (config, _) = session.find::<ModuleConfigs>("m1").unwrap();
    let (g_config, _) = general.find::<ModuleConfigs>("m1").unwrap();
    assert!(Arc::ptr_eq(
        config.as_ref().unwrap(),
        g_config.as_ref().unwrap()
    ));
    assert_eq!(module_answers(&session), module_answers(&general));
    // An overlay, and a request with its own variables, take nothing.
    let parent = Arc::new(Session::new(
        Arc::clone(&hiera),
        modules_scope("n9", "RedHat", "web"),
    ));
    parent.lookup_key("g").unwrap();
    let overlay = parent.overlay(Map::default(), Map::default(), &[]);
    let adopt =
        |s: &Session, req: &LookupRequest| Invocation::new(s, req).adopt_namespace(Some("m1"));
    assert_eq!(
        adopt(&overlay, &LookupRequest::key("m1::a")),
        Err(Decline::NotYet)
    );
    let local = LookupRequest {
        local_variables: vec!["x".into()],
        ..LookupRequest::key("m1::a")
    };
    assert_eq!(adopt(&parent, &local), Err(Decline::NotYet));
    assert_eq!(adopt(&parent, &LookupRequest::key("m1::a")), Ok(()));
    // Explained, the same text as a fresh Hiera's.
    let explained = |s: &Session| s.explain(&LookupRequest::key("m1::h")).1;
    let fresh_session = Session::new(modules_hiera(&dir), modules_scope("n9", "RedHat", "web"));
    // (In the same state: a session explains the lookup_options it has not
    // gathered yet.)
    fresh_session.lookup_key("m1::a").unwrap();
    assert_eq!(explained(&session), explained(&fresh_session));
    // Edited files are seen by the next sessions, as a fresh Hiera sees them.
    std::fs::write(
        dir.join("production/modules/m1/data/common.yaml"),
        "lookup_options:\n  m1::h:\n    merge: hash\n  m1::a:\n    convert_to: Array\nm1::a: common\nm1::h:\n  x: 1\n",
    )
    .unwrap();
    check(&hiera, "options edited");
    std::fs::write(
        dir.join("production/modules/m1/hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: r\n    path: \"roles/%{facts.role}.yaml\"\n  - name: c\n    path: common.yaml\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("production/modules/m1/data/roles")).unwrap();
    std::fs::write(
        dir.join("production/modules/m1/data/roles/db.yaml"),
        "m1::b: db-b\n",
    )
    .unwrap();
    check(&hiera, "hiera.yaml edited");
    std::fs::write(
        dir.join("production/modules/m1/metadata.json"),
        "{\"name\": \"m1\"}",
    )
    .unwrap();
    check(&hiera, "metadata.json drops the module");
    std::fs::remove_file(dir.join("production/modules/m1/metadata.json")).unwrap();
    std::fs::remove_file(dir.join("production/modules/m1/data/common.yaml")).unwrap();
    check(&hiera, "data removed");
    // Many threads, each with its nodes' sessions, answer as fresh Hieras.
    let expected: Vec<_> = nodes
        .iter()
        .map(|&(c, f, r)| fresh(&modules_scope(c, f, r)))
        .collect();
    std::thread::scope(|s| {
        for t in 0..4 {
            let (hiera, expected, nodes) = (&hiera, &expected, &nodes);
            s.spawn(move || {
                for i in 0..8 {
                    let n = (t + i) % nodes.len();
                    let (cert, family, role) = nodes[n];
                    let session =
                        Session::new(Arc::clone(hiera), modules_scope(cert, family, role));
                    assert_eq!(module_answers(&session), expected[n], "thread {t}: {cert}");
                }
            });
        }
    });
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn keys_no_pattern_can_match_are_refused_by_their_last_bytes_as_each_pattern_refuses_them() {
    let hiera = Hiera::open(Options::default()).unwrap();
    let compiled = |patterns: &[&str]| {
        let mut opts = Map::default();
        opts.insert("m::literal".into(), Value::string("lit"));
        for (i, p) in patterns.iter().enumerate() {
            opts.insert((*p).into(), Value::Int(i as i64));
        }
        compile_patterns(&hiera, &Value::hash(opts)).unwrap()
    };
    let keys = [
        "a::labels",
        "labels",
        "bels",
        "els",
        "",
        "m::x::servers",
        "m::x::server",
        "m::x::packages",
        "n::x::packages",
        "site::a_list",
        "site::alist",
        "m::literal",
        "x::labels\n",
        "x\n::labels",
        "m::labels::x",
        "::labels",
        "abc",
    ];
    for patterns in [
        &[
            "^.*::labels$",
            "^m::.*::(packages|servers)$",
            "^site::.*_list$",
        ][..],
        &["^.*::labels$", "^m::.*_x$"][..],
        &["^.*::labels$", "^m::"][..],
        &[][..],
    ] {
        let with = compiled(patterns);
        let mut without = with.clone();
        without.tails = None;
        for key in keys {
            assert_eq!(
                with.for_key(key).unwrap(),
                without.for_key(key).unwrap(),
                "{patterns:?} {key:?}"
            );
        }
    }
    // The filter is made when every pattern has suffixes of four bytes.
    assert_eq!(
        compiled(&["^.*::labels$", "^m::.*::(packages|servers)$"])
            .tails
            .map(|t| t.len()),
        Some(3)
    );
    assert!(compiled(&["^.*::labels$", "^m::.*_x$"]).tails.is_none());
    assert!(compiled(&["^.*::labels$", "^m::"]).tails.is_none());
    // And a key the filter passes is still matched by the patterns.
    let c = compiled(&["^.*::labels$"]);
    assert_eq!(c.for_key("a::labels").unwrap(), Some(&Value::Int(0)));
    assert_eq!(c.for_key("a:labels").unwrap(), None);
}

#[test]
fn resolutions_no_session_could_take_are_not_kept() {
    // A level no key index is built for (a function with `options`, here
    // eyaml's) makes the hierarchy one no other session can take: it is not
    // kept in the Hiera's ResolutionCache (it would only hold its data and a
    // variant's place), and neither is what an explaining session resolves.
    let (dir, hiera) = plan_fixture(
        "share-takeable",
        "version: 5\nhierarchy:\n  - name: secrets\n    lookup_key: eyaml_lookup_key\n    path: secrets.eyaml\n    options: {pkcs7_private_key: nowhere.pem, pkcs7_public_key: nowhere.pem}\n  - name: c\n    path: \"%{facts.role}.yaml\"\n",
        "",
    );
    std::fs::write(dir.join("data/web.yaml"), "a: web\n").unwrap();
    let session = |hiera: &Arc<Hiera>| {
        let mut facts = Map::default();
        facts.insert("role".into(), "web".into());
        let mut scope = Map::default();
        scope.insert("facts".into(), Value::hash(facts));
        Session::new(Arc::clone(hiera), scope)
    };
    for _ in 0..2 {
        assert_eq!(
            session(&hiera).lookup_key("a").unwrap(),
            Some(Value::string("web"))
        );
    }
    assert_eq!(hiera.resolutions.len(), 0);
    // Without the eyaml level: explained, not kept; looked up, kept.
    std::fs::write(
        dir.join("hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: c\n    path: \"%{facts.role}.yaml\"\n",
    )
    .unwrap();
    let hiera = Arc::new(Hiera::open(hiera.options().clone()).unwrap());
    let (r, _) = session(&hiera).explain(&LookupRequest::key("a"));
    assert_eq!(r.unwrap(), Some(Value::string("web")));
    assert_eq!(hiera.resolutions.len(), 0);
    assert_eq!(
        session(&hiera).lookup_key("a").unwrap(),
        Some(Value::string("web"))
    );
    assert_eq!(hiera.resolutions.len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_borrowed_key_is_answered_and_warned_as_its_request_is() {
    // lookup_key asks the quick path with the key borrowed and a request of
    // no names, and makes a request only for the general path: every answer
    // and warning must be lookup()'s of the one-key request, in cold and
    // warm sessions (namespaces taken from what the Hiera shares, plans
    // made), for keys each path answers or declines.
    let dir = modules_fixture("borrowed");
    std::fs::write(
        dir.join("production/data/common.yaml"),
        "e: env\nm1::labels:\n  e: 1\nw: \"<%{::undefined_here}>\"\nd:\n  x:\n    - 1\n    - \"%{facts.role}\"\n\"q.k\": quoted\n",
    )
    .unwrap();
    let keys: Vec<&str> = MODULE_KEYS
        .iter()
        .copied()
        .chain([
            "w",
            "d",
            "d.x",
            "d.x.1",
            "d.nope",
            "\"q.k\"",
            "'q.k'",
            "",
            ".d",
            " d",
            "d..x",
            "lookup_options",
            "m1::h.x",
            "m1::s",
            "m1::a",
        ])
        .collect();
    for strict in [Strict::Warning, Strict::Off, Strict::Error] {
        let open = || {
            let options = Options {
                hiera_config: dir.join("hiera.yaml"),
                environmentpath: dir.clone(),
                strict: Some(strict),
                ..Options::default()
            };
            Arc::new(Hiera::open(options).unwrap())
        };
        let (borrowed, requested) = (open(), open());
        let mut warned = false;
        for (cert, family, role) in [
            ("n1", "RedHat", "web"),
            ("n2", "RedHat", "web"),
            ("n3", "Debian", "db"),
            ("n2", "RedHat", "web"),
        ] {
            let scope = modules_scope(cert, family, role);
            let a = Session::new(Arc::clone(&borrowed), scope.clone());
            let b = Session::new(Arc::clone(&requested), scope);
            // Twice: the second round is answered by the plans the first made.
            for round in 0..2 {
                for key in &keys {
                    let (ra, wa) = a.lookup_key_warned(key);
                    let (rb, wb) = b.lookup_warned(&LookupRequest::key(key));
                    let what = format!("{strict:?} {cert} round {round} key {key:?}");
                    assert_eq!(
                        ra.map_err(|e| e.message),
                        rb.map_err(|e| e.message),
                        "{what}"
                    );
                    assert_eq!(wa, wb, "{what}");
                    warned |= !wa.is_empty();
                }
            }
        }
        // `w` reads an undefined variable: warned of under strict = warning
        // (the quick path's warnings, which lookup_key must pass on).
        assert!(
            warned || strict != Strict::Warning,
            "no warning under {strict:?}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Sessions of `nodes` (certname, OS family, role) on `hiera`, each
/// answering as a session of a fresh `Hiera` on `dir` does; how many module
/// namespaces they took from the `Hiera`'s [`NamespaceTable`].
fn namespace_round(
    hiera: &Arc<Hiera>,
    dir: &std::path::Path,
    what: &str,
    nodes: &[(&str, &str, &str)],
) -> u64 {
    let before = hiera.namespaces.hits();
    for &(cert, family, role) in nodes {
        let scope = modules_scope(cert, family, role);
        let session = Session::new(Arc::clone(hiera), scope.clone());
        let fresh = Session::new(modules_hiera(dir), scope);
        assert_eq!(
            module_answers(&session),
            module_answers(&fresh),
            "{what}: {cert}"
        );
    }
    hiera.namespaces.hits() - before
}

#[test]
fn a_namespace_the_hiera_shares_is_taken_only_while_what_made_it_holds() {
    let dir = modules_fixture("namespaces");
    let hiera = modules_hiera(&dir);
    let web = [
        ("n1", "RedHat", "web"),
        ("n2", "RedHat", "web"),
        ("n3", "RedHat", "web"),
    ];
    let m1a = |family: &str| {
        Session::new(Arc::clone(&hiera), modules_scope("n8", family, "web"))
            .lookup_key("m1::a")
            .unwrap()
    };
    // The first session resolves, the second adopts the first's
    // resolution, the third takes the namespace whole.
    assert!(namespace_round(&hiera, &dir, "warm", &web) > 0);
    assert!(hiera.namespaces.newest("m1").is_some());
    assert!(namespace_round(&hiera, &dir, "warm again", &web) >= 3);
    // A variable the module's hierarchy reads has another value.
    let debian = [("n4", "Debian", "web"), ("n5", "Debian", "web")];
    namespace_round(&hiera, &dir, "another family", &debian);
    assert_eq!(m1a("Debian"), Some(Value::string("common")));
    assert_eq!(m1a("RedHat"), Some(Value::string("redhat")));
    // A data file changed.
    std::fs::write(
        dir.join("production/modules/m1/data/os/RedHat.yaml"),
        "m1::a: redhat, edited\nm1::h:\n  y: 3\n",
    )
    .unwrap();
    assert_eq!(m1a("RedHat"), Some(Value::string("redhat, edited")));
    namespace_round(&hiera, &dir, "data edited", &web);
    assert!(namespace_round(&hiera, &dir, "data edited, again", &web) > 0);
    // A data file appeared.
    std::fs::write(
        dir.join("production/modules/m1/data/os/Debian.yaml"),
        "m1::a: debian\n",
    )
    .unwrap();
    namespace_round(&hiera, &dir, "data appeared", &debian);
    assert_eq!(m1a("Debian"), Some(Value::string("debian")));
    // The global and environment lookup_options changed (m1::labels is
    // no longer a hash merge).
    std::fs::write(dir.join("global/common.yaml"), "g: global\n").unwrap();
    assert_eq!(
        Session::new(Arc::clone(&hiera), modules_scope("n8", "RedHat", "web"))
            .lookup_key("m1::labels")
            .unwrap(),
        Some(Value::hash(Map::from_iter([("e".into(), Value::Int(1))])))
    );
    namespace_round(&hiera, &dir, "base options", &web);
    // The module's hiera.yaml changed, disappeared, appeared.
    let hiera_yaml = dir.join("production/modules/m1/hiera.yaml");
    std::fs::write(
        &hiera_yaml,
        "version: 5\nhierarchy:\n  - name: r\n    path: \"roles/%{facts.role}.yaml\"\n  - name: c\n    path: common.yaml\n",
    )
    .unwrap();
    assert_eq!(m1a("RedHat"), Some(Value::string("common")));
    namespace_round(&hiera, &dir, "hiera.yaml edited", &web);
    namespace_round(&hiera, &dir, "hiera.yaml edited, again", &web);
    std::fs::remove_file(&hiera_yaml).unwrap();
    assert_eq!(m1a("RedHat"), None);
    namespace_round(&hiera, &dir, "hiera.yaml removed", &web);
    std::fs::write(
        &hiera_yaml,
        "version: 5\nhierarchy:\n  - name: os\n    path: \"os/%{facts.os.family}.yaml\"\n  - name: c\n    path: common.yaml\n",
    )
    .unwrap();
    assert_eq!(m1a("RedHat"), Some(Value::string("redhat, edited")));
    namespace_round(&hiera, &dir, "hiera.yaml back", &web);
    assert!(namespace_round(&hiera, &dir, "hiera.yaml back, again", &web) > 0);
    // An overlay (its own role) takes nothing from the table, and answers
    // as an overlay of a fresh Hiera's session.
    let overlaid = |hiera: Arc<Hiera>| {
        let parent = Arc::new(Session::new(hiera, modules_scope("n6", "RedHat", "web")));
        parent.lookup_key("g").unwrap();
        let facts = modules_scope("n6", "RedHat", "db")
            .get(&crate::value::Key("facts"))
            .cloned()
            .unwrap();
        let overlay = parent.overlay(
            Map::from_iter([("facts".into(), facts)]),
            Map::default(),
            &[],
        );
        module_answers(&overlay)
    };
    let hits = hiera.namespaces.hits();
    let answers = overlaid(Arc::clone(&hiera));
    assert_eq!(hiera.namespaces.hits(), hits);
    assert_eq!(answers, overlaid(modules_hiera(&dir)));
    assert_eq!(answers[1], Ok(Some(Value::string("redhat, edited"))));
    assert_eq!(answers[5], Ok(Some(Value::string("db-s"))));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_namespace_table_is_bounded() {
    let dir = modules_fixture("namespaces-bound");
    let hiera = modules_hiera(&dir);
    // A fleet whose nodes each have their own value of what the module's
    // hierarchy reads: at most VARIANTS entries for the module.
    for family in 0..40 {
        let family = format!("os{family}");
        namespace_round(
            &hiera,
            &dir,
            "fleet",
            &[("n1", &family, "web"), ("n2", &family, "web")],
        );
        assert!(hiera.namespaces.variants("m1") <= NamespaceTable::VARIANTS);
    }
    assert_eq!(hiera.namespaces.variants("m1"), NamespaceTable::VARIANTS);
    // The newest families are taken from it, the oldest were dropped.
    let hits = hiera.namespaces.hits();
    namespace_round(&hiera, &dir, "newest", &[("n3", "os39", "web")]);
    assert!(hiera.namespaces.hits() > hits);
    // At most LIMIT modules: past it the table starts over.
    let e = hiera.namespaces.newest("m1").unwrap();
    for m in 0..NamespaceTable::LIMIT + 10 {
        hiera.namespaces.insert(
            &format!("module{m}"),
            SharedNamespace {
                config: Arc::clone(&e.config),
                base: e.base.clone(),
                plan: e.plan,
                hierarchy: Arc::clone(&e.hierarchy),
                exprs: Arc::clone(&e.exprs),
                options: e.options.clone(),
            },
        );
        let (entries, modules) = hiera.namespaces.len();
        assert!(modules <= NamespaceTable::LIMIT && entries <= modules * NamespaceTable::VARIANTS);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn kind_of_session(hiera: &Arc<Hiera>, plan: bool, cert: &str) -> Session {
    Session::with_options(
        Arc::clone(hiera),
        modules_scope(cert, "RedHat", "web"),
        SessionOptions {
            plan,
            ..SessionOptions::default()
        },
    )
}

/// A plan's sessions and a catalog's alternate on one `Hiera`: each answers
/// as a fresh `Hiera` does (the namespace table keeps their entries apart;
/// review21b: no test held that guard).
#[test]
fn plan_and_catalog_sessions_alternate_as_a_fresh_hiera_answers() {
    let dir = modules_fixture("plan-alternate");
    std::fs::write(
        dir.join("production/modules/m1/hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: os\n    path: \"os/%{facts.os.family}.yaml\"\n  \
         - name: c\n    path: common.yaml\nplan_hierarchy:\n  - name: p\n    path: plan.yaml\n  \
         - name: c\n    path: common.yaml\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("production/modules/m1/data/plan.yaml"),
        "m1::a: plan\n",
    )
    .unwrap();
    let hiera = modules_hiera(&dir);
    for round in 0..6 {
        for plan in [false, true] {
            for cert in ["n1", "n2", "n3"] {
                let s = kind_of_session(&hiera, plan, cert);
                let fresh = kind_of_session(&modules_hiera(&dir), plan, cert);
                assert_eq!(
                    module_answers(&s),
                    module_answers(&fresh),
                    "round {round} plan {plan} {cert}"
                );
            }
        }
    }
    assert!(hiera.namespaces.hits() > 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A data file removed after its namespace was shared: the next session
/// answers from the level below.
#[test]
fn a_removed_data_file_is_seen_by_the_next_session() {
    let dir = modules_fixture("removed-shared");
    let hiera = modules_hiera(&dir);
    for _ in 0..3 {
        let s = kind_of_session(&hiera, false, "n7");
        s.lookup_key("g").unwrap();
        assert_eq!(
            s.lookup_key("m1::a").unwrap(),
            Some(Value::string("redhat"))
        );
    }
    assert!(hiera.namespaces.hits() > 0);
    std::fs::remove_file(dir.join("production/modules/m1/data/os/RedHat.yaml")).unwrap();
    for _ in 0..3 {
        let s = kind_of_session(&hiera, false, "n7");
        s.lookup_key("g").unwrap();
        assert_eq!(
            s.lookup_key("m1::a").unwrap(),
            Some(Value::string("common"))
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two threads take a shared namespace while its data file is rewritten
/// (at the same size) between rounds: every session made after a write
/// sees it.
#[test]
fn sessions_on_threads_see_each_write_at_once() {
    let dir = modules_fixture("threads-writes");
    let hiera = modules_hiera(&dir);
    let file = dir.join("production/modules/m1/data/os/RedHat.yaml");
    for k in 0..200 {
        let want = format!("v{k:04}");
        std::fs::write(&file, format!("m1::a: {want}\n")).unwrap();
        std::thread::scope(|s| {
            for t in 0..2 {
                let (hiera, want) = (&hiera, &want);
                s.spawn(move || {
                    for i in 0..3 {
                        let session = kind_of_session(hiera, false, &format!("x{t}{i}"));
                        session.lookup_key("g").unwrap();
                        assert_eq!(
                            session.lookup_key("m1::a").unwrap(),
                            Some(Value::string(want.as_str())),
                            "write {k}, thread {t}, session {i}"
                        );
                    }
                });
            }
        });
    }
    assert!(hiera.namespaces.hits() > 0);
    std::fs::remove_dir_all(&dir).unwrap();
}
