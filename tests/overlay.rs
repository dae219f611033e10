//! Overlay sessions (`Session::overlay`, `hiera_session_overlay`) answer
//! exactly as a session made with the whole scope, though they share their
//! parent's caches: every query of every recorded Hiera 5 case (Puppet 7
//! and 8) is answered by an overlay whose parent lacks, or has other values
//! for, some of the case's variables, after the parent has answered the
//! same queries with its own variables (so its caches hold answers that
//! are wrong for the overlay); then the parent must still answer as a
//! fresh session with its variables (what the overlay kept in the parent's
//! caches is right for the parent too).
//!
//! `CASE=substring cargo test --test overlay` runs a subset.

mod support;

use hiera::{LookupRequest, Map, Options, Session, Value};
use std::path::Path;
use std::sync::Arc;
use support::{case_options, case_request, load_case, outcome_text, Case, CaseQuery, KnownNames};

fn outcome(r: hiera::Result<Option<Value>>) -> String {
    outcome_text(&r)
}

fn request(q: &CaseQuery) -> LookupRequest {
    case_request(q)
}

/// A host that answers the variables an overlay defers from the case's
/// scope (and runs no functions: they fail as without a host).
struct Variables(Map, std::sync::atomic::AtomicUsize);

impl hiera::host::Host for Variables {
    fn call(&self, _call: &hiera::host::HostCall<'_>) -> hiera::Result<Option<Value>> {
        unreachable!("runs_functions is false")
    }
    fn runs_functions(&self) -> bool {
        false
    }
    fn warn(&self, _warning: &hiera::host::Warning) {}
    fn variable(&self, name: &str) -> Option<Value> {
        self.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.0.get(&hiera::Key(name)).cloned()
    }
}

/// A host as the Puppet hand-off is one for `known_variables` lookups:
/// it answers a variable from the scope of the lookup being made
/// (`current`), and learns the session's numbered names.
struct KnownHost {
    current: std::sync::Mutex<Map>,
    known: KnownNames,
    asked: std::sync::atomic::AtomicUsize,
}

impl KnownHost {
    fn new(current: Map) -> KnownHost {
        KnownHost {
            current: std::sync::Mutex::new(current),
            known: KnownNames::default(),
            asked: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// How many names, from the first, it knows.
    fn checked(&self) -> usize {
        self.known.checked()
    }

    /// Of the names it checked, those in `own` (the lookup's scope's own).
    fn locals(&self, own: &[String]) -> Vec<String> {
        self.known.locals(|n| own.iter().any(|o| o == n))
    }
}

impl hiera::host::Host for KnownHost {
    fn call(&self, _call: &hiera::host::HostCall<'_>) -> hiera::Result<Option<Value>> {
        unreachable!("runs_functions is false")
    }
    fn runs_functions(&self) -> bool {
        false
    }
    fn warn(&self, _warning: &hiera::host::Warning) {}
    fn variable(&self, name: &str) -> Option<Value> {
        self.current.lock().unwrap().get(&hiera::Key(name)).cloned()
    }
    fn scope_variable(&self, name: &str, index: usize) -> Option<Value> {
        self.asked
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.known.learn(name, index);
        self.variable(name)
    }
}

/// The text of every file of a case.
fn case_text(dir: &Path) -> String {
    let mut text = String::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(t) = std::fs::read_to_string(&path) {
                text.push_str(&t);
            }
        }
    }
    text
}

fn open(case: &Case) -> Option<Arc<hiera::Hiera>> {
    open_with(case, None)
}

fn open_with(case: &Case, host: Option<hiera::host::HostRef>) -> Option<Arc<hiera::Hiera>> {
    let opts = Options {
        host,
        ..case_options(case)
    };
    hiera::Hiera::open(opts).ok().map(Arc::new)
}

/// How the case's variables are split between parent and overlay.
#[derive(Clone, Copy, Debug)]
enum Split {
    /// Every third variable only in the overlay, every third in both with
    /// another value in the parent, the rest only in the parent.
    Mixed,
    /// Every variable in the overlay, the parent empty.
    AllInOverlay,
    /// Every variable in the parent, with a different value in the
    /// overlay: the overlay puts the real ones back.
    AllReplaced,
    /// As `AllReplaced`, the overlay's Arrays and Hashes deferred: the host
    /// gives them when first read.
    Deferred,
}

/// The parent's and the overlay's variables for `scope`.
fn split(scope: &Map, how: Split) -> (Map, Map) {
    let decoy = |v: &Value| match v {
        Value::Hash(_) => Value::empty_hash(),
        Value::String(s) => Value::from(format!("{s}-decoy")),
        _ => Value::from("decoy"),
    };
    let (mut parent, mut overlay) = (Map::default(), Map::default());
    for (i, (k, v)) in scope.iter().enumerate() {
        match (how, i % 3) {
            (Split::AllInOverlay, _) | (Split::Mixed, 0) => {
                overlay.insert(k.clone(), v.clone());
            }
            (Split::AllReplaced | Split::Deferred, _) | (Split::Mixed, 1) => {
                parent.insert(k.clone(), decoy(v));
                overlay.insert(k.clone(), v.clone());
            }
            _ => {
                parent.insert(k.clone(), v.clone());
            }
        }
    }
    (parent, overlay)
}

fn run_tree(root: &Path, puppet: u8) -> (usize, Vec<String>) {
    let filter = std::env::var("CASE").unwrap_or_default();
    let mut cases = Vec::new();
    support::find_cases(root, &mut cases);
    cases.sort();
    assert!(!cases.is_empty(), "no cases under {}", root.display());
    let (mut queries, mut failures) = (0, Vec::new());
    let mut deferred_total = 0;
    let mut asked = 0;
    let mut locals_asked = 0;
    let mut known_asked = 0;
    let mut batch_asked = 0;
    for dir in &cases {
        let name = dir.strip_prefix(root).unwrap_or(dir).display().to_string();
        if !name.contains(&filter) {
            continue;
        }
        let Ok(mut case) = load_case(dir) else {
            continue;
        };
        case.puppet = puppet;
        if case.engine != "hiera5" {
            continue;
        }
        let Some(h) = open(&case) else { continue };
        let reqs: Vec<LookupRequest> = case.queries.iter().map(request).collect();
        // What a session with the whole scope answers (the conformance
        // tests hold it to Puppet's answers).
        let want: Vec<String> = reqs
            .iter()
            .map(|r| outcome(Session::new(Arc::clone(&h), case.scope.clone()).lookup(r)))
            .collect();
        let counter = Arc::new(Variables(
            case.scope.clone(),
            std::sync::atomic::AtomicUsize::new(0),
        ));
        let with_host = open_with(&case, Some(hiera::host::HostRef(counter.clone())));
        for how in [
            Split::Mixed,
            Split::AllInOverlay,
            Split::AllReplaced,
            Split::Deferred,
        ] {
            let h = match how {
                Split::Deferred => match &with_host {
                    Some(h) => Arc::clone(h),
                    None => continue,
                },
                _ => Arc::clone(&h),
            };
            let (vars, mut overlay_vars) = split(&case.scope, how);
            let deferred: Vec<String> = match how {
                Split::Deferred => overlay_vars
                    .iter()
                    .filter(|(_, v)| matches!(v, Value::Array(_) | Value::Hash(_)))
                    .filter_map(|(k, _)| k.as_str().map(str::to_string))
                    .collect(),
                _ => Vec::new(),
            };
            for name in &deferred {
                overlay_vars.shift_remove(&hiera::Key(name));
            }
            let deferred: Vec<&str> = deferred.iter().map(String::as_str).collect();
            deferred_total += deferred.len();
            let parent = Arc::new(Session::new(Arc::clone(&h), vars.clone()));
            let parent_want: Vec<String> = reqs
                .iter()
                .map(|r| outcome(Session::new(Arc::clone(&h), vars.clone()).lookup(r)))
                .collect();
            // The parent's caches first hold the parent's answers.
            for r in &reqs {
                let _ = parent.lookup(r);
            }
            let overlay = parent.overlay(overlay_vars.clone(), Map::default(), &deferred);
            // Twice: cold, then from the overlay's (and the quick path's) caches.
            for round in 0..2 {
                for (i, r) in reqs.iter().enumerate() {
                    queries += 1;
                    let got = outcome(overlay.lookup(r));
                    if got != want[i] {
                        failures.push(format!(
                            "{name} #{i} {} ({how:?}, round {round}): the overlay answered {got}, a whole session {}",
                            r.keys[0], want[i]
                        ));
                    }
                }
            }
            // An overlay of the overlay with nothing more is the same.
            let again = Arc::new(overlay).overlay(Map::default(), Map::default(), &[]);
            for (i, r) in reqs.iter().enumerate() {
                let got = outcome(again.lookup(r));
                if got != want[i] {
                    failures.push(format!(
                        "{name} #{i} {} ({how:?}): an overlay of the overlay answered {got}, a whole session {}",
                        r.keys[0], want[i]
                    ));
                }
            }
            asked += counter.1.swap(0, std::sync::atomic::Ordering::Relaxed);
            if let Split::Deferred = how {
                // No overlay at all: the same variables as each request's
                // local variables, on the parent (whose caches hold its own
                // answers), asked of the host.
                let mut names: Vec<String> = deferred.iter().map(|n| n.to_string()).collect();
                names.extend(
                    overlay_vars
                        .keys()
                        .filter_map(|k| k.as_str().map(str::to_string)),
                );
                // A scope's own variable is not the top scope's: `::x` reads
                // the session's x (Puppet's qualified lookup), so a name the
                // case writes as `::x` is left to the session, with its
                // value.
                let text = case_text(&case.dir);
                let (top, own): (Vec<String>, Vec<String>) = names
                    .into_iter()
                    .partition(|n| text.contains(&format!("::{n}")));
                let names = own;
                let mut vars = vars.clone();
                for n in &top {
                    if let Some(v) = case.scope.get(&hiera::Key(n)) {
                        vars.insert(Value::from(n.as_str()), v.clone());
                    }
                }
                let parent_want: Vec<String> = reqs
                    .iter()
                    .map(|r| outcome(Session::new(Arc::clone(&h), vars.clone()).lookup(r)))
                    .collect();
                let locals = Arc::new(Variables(
                    case.scope.clone(),
                    std::sync::atomic::AtomicUsize::new(0),
                ));
                let hl = open_with(&case, Some(hiera::host::HostRef(locals.clone())))
                    .expect("opened once already");
                let parent = Session::new(Arc::clone(&hl), vars.clone());
                for r in &reqs {
                    let _ = parent.lookup(r);
                }
                for round in 0..2 {
                    for (i, r) in reqs.iter().enumerate() {
                        let mut r = r.clone();
                        r.local_variables = names.clone();
                        queries += 1;
                        let got = outcome(parent.lookup(&r));
                        if got != want[i] {
                            failures.push(format!(
                                "{name} #{i} {} (local variables, round {round}): answered {got}, a whole session {}",
                                r.keys[0], want[i]
                            ));
                        }
                    }
                }
                for (i, r) in reqs.iter().enumerate() {
                    let got = outcome(parent.lookup(r));
                    if got != parent_want[i] {
                        failures.push(format!(
                            "{name} #{i} {} (local variables): then the session answered {got}, a fresh one {}",
                            r.keys[0], parent_want[i]
                        ));
                    }
                }
                locals_asked += locals.1.load(std::sync::atomic::Ordering::Relaxed);

                // known_variables: lookups from the parent's own scope and
                // from a scope with the overlay's variables, on one session,
                // the host checking only the names the session numbered.
                let host = Arc::new(KnownHost::new(vars.clone()));
                let hk = open_with(&case, Some(hiera::host::HostRef(host.clone())))
                    .expect("opened once already");
                let session = Session::new(Arc::clone(&hk), vars.clone());
                // Its caches first hold what lookups without
                // known_variables computed.
                for r in &reqs {
                    let _ = session.lookup(r);
                }
                // Round 0 reads names first from the scope with its own
                // variables; round 4's lookups say the host checked none
                // of the names (what read them must be asked again).
                for (round, own) in [(0, true), (1, false), (2, true), (3, false), (4, true)] {
                    *host.current.lock().unwrap() = if own {
                        case.scope.clone()
                    } else {
                        vars.clone()
                    };
                    for (i, r) in reqs.iter().enumerate() {
                        let mut r = r.clone();
                        r.known_variables = Some(if round == 4 { 0 } else { host.checked() });
                        if own && round != 4 {
                            r.local_variables = host.locals(&names);
                        }
                        queries += 1;
                        let got = outcome(session.lookup(&r));
                        let want = if own { &want[i] } else { &parent_want[i] };
                        if got != *want {
                            failures.push(format!(
                                "{name} #{i} {} (known variables, round {round}): answered {got}, a whole session {want}",
                                r.keys[0]
                            ));
                        }
                    }
                }
                known_asked += host.asked.load(std::sync::atomic::Ordering::Relaxed);

                // A batch (`hiera_lookup_keys`: one scope's keys at one
                // moment) on a fresh session whose host checked nothing:
                // the answers of whole sessions, and the host asked about
                // each name once for the whole batch.
                let plain: Vec<usize> = (0..reqs.len())
                    .filter(|&i| {
                        let r = &reqs[i];
                        r.keys.len() == 1
                            && r.merge.is_none()
                            && r.default.is_none()
                            && r.default_values_hash.is_empty()
                            && r.override_values.is_empty()
                    })
                    .collect();
                let keys: Vec<String> = plain.iter().map(|&i| reqs[i].keys[0].clone()).collect();
                for own in [true, false] {
                    let bh = Arc::new(KnownHost::new(if own {
                        case.scope.clone()
                    } else {
                        vars.clone()
                    }));
                    let hb = open_with(&case, Some(hiera::host::HostRef(bh.clone())))
                        .expect("opened once already");
                    let fresh = Session::new(hb, vars.clone());
                    let scope = LookupRequest {
                        known_variables: Some(0),
                        ..Default::default()
                    };
                    let mut got = Vec::new();
                    fresh.lookup_batch(&scope, &keys, |_, r| {
                        let go_on = r.is_ok();
                        got.push(outcome(r));
                        go_on
                    });
                    for (j, g) in got.iter().enumerate() {
                        let i = plain[j];
                        queries += 1;
                        let want = if own { &want[i] } else { &parent_want[i] };
                        if g != want {
                            failures.push(format!(
                                "{name} #{i} {} (a batch, own variables {own}): answered {g}, a whole session {want}",
                                reqs[i].keys[0]
                            ));
                        }
                    }
                    let asks = bh.asked.load(std::sync::atomic::Ordering::Relaxed);
                    batch_asked += asks;
                    if asks > bh.checked() {
                        failures.push(format!(
                            "{name} (a batch, own variables {own}): the host was asked {asks} times about {} names",
                            bh.checked()
                        ));
                    }
                }
            }
            for (i, r) in reqs.iter().enumerate() {
                let got = outcome(parent.lookup(r));
                if got != parent_want[i] {
                    failures.push(format!(
                        "{name} #{i} {} ({how:?}): after the overlay the parent answered {got}, a fresh session {}",
                        r.keys[0], parent_want[i]
                    ));
                }
            }
        }
    }
    eprintln!(
        "overlays under {}: {deferred_total} deferred variables, asked of the host {asked} times; local variables asked {locals_asked} times; unchecked variables asked {known_asked} times, in batches {batch_asked} times",
        root.display()
    );
    assert!(batch_asked > 50, "batches asked the host");
    assert!(known_asked > 100, "known variables were exercised");
    assert!(
        deferred_total > 100 && asked > 50,
        "deferred variables were exercised"
    );
    assert!(locals_asked > 100, "local variables were exercised");
    (queries, failures)
}

#[test]
fn overlays_answer_as_whole_sessions() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut total = 0;
    let mut failures = Vec::new();
    for (tree, puppet) in [("tests/conformance", 7), ("tests/conformance-p8", 8)] {
        let (q, f) = run_tree(&base.join(tree), puppet);
        total += q;
        failures.extend(f);
    }
    for f in &failures {
        eprintln!("FAIL {f}");
    }
    eprintln!(
        "overlays: {total} overlay lookups, {} differ",
        failures.len()
    );
    assert!(total > 3000, "only {total} overlay lookups ran");
    assert!(
        failures.is_empty(),
        "{} overlay differences",
        failures.len()
    );
}

/// The Hiera 3 calling variables of an overlay are its own: a hierarchy
/// that names `calling_module` is resolved again for an overlay with
/// another one, and is shared when it is the same.
#[test]
fn hiera3_variables_are_the_overlays() {
    let root = &std::env::temp_dir().join(format!("libhiera-overlay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(root);
    std::fs::create_dir_all(root.join("data/mods")).unwrap();
    std::fs::write(
        root.join("hiera.yaml"),
        ":backends: [yaml]\n:yaml:\n  :datadir: DATA\n:hierarchy:\n  - \"mods/%{calling_module}\"\n  - common\n"
            .replace("DATA", &root.join("data").display().to_string()),
    )
    .unwrap();
    std::fs::write(root.join("data/mods/ntp.yaml"), "who: ntp\n").unwrap();
    std::fs::write(root.join("data/mods/ssh.yaml"), "who: ssh\n").unwrap();
    std::fs::write(root.join("data/common.yaml"), "who: common\n").unwrap();
    let h = Arc::new(
        hiera::Hiera::open(Options {
            hiera_config: root.join("hiera.yaml"),
            environmentpath: root.join("environments"),
            ..Default::default()
        })
        .unwrap(),
    );
    let parent = Arc::new(Session::new(h, Map::default()));
    let calling = |m: &str| {
        let mut v = Map::default();
        v.insert("calling_module".into(), m.into());
        v
    };
    let who = |s: &Session| outcome(s.lookup(&LookupRequest::key("who")));
    assert_eq!(who(&parent), "value \"common\"");
    let ntp = parent.overlay(Map::default(), calling("ntp"), &[]);
    let ssh = parent.overlay(Map::default(), calling("ssh"), &[]);
    assert_eq!(who(&ntp), "value \"ntp\"");
    assert_eq!(who(&ssh), "value \"ssh\"");
    assert_eq!(who(&parent), "value \"common\"");
    assert_eq!(
        who(&parent.overlay(Map::default(), Map::default(), &[])),
        "value \"common\""
    );
    let _ = std::fs::remove_dir_all(root);
}
