//! Sessions that read their scope from the host (`Options::host_scope`,
//! `Host::top_variable`) answer exactly as sessions made with the whole
//! scope: every query of every recorded Hiera 5 case (Puppet 7 and 8), with
//! the same warnings (undefined variables under `strict`), by a session made
//! with an empty scope whose host answers the case's variables by name; the
//! host asked at most once per name and session; the same for lookups that
//! give `known_variables` (the Puppet hand-off's), from a scope with its own
//! variables too; and for an overlay that adds the variables the host did
//! not have yet (a top scope that gains variables during a compile).
//!
//! `CASE=substring cargo test --test host_scope` runs a subset.

mod support;

use hiera::{LookupRequest, Map, Options, Session, Value};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use support::{case_options, case_request, load_case, outcome_text, Case, CaseQuery, KnownNames};

fn outcome(r: (hiera::Result<Option<Value>>, Vec<String>)) -> String {
    format!("{}; warnings {:?}", outcome_text(&r.0), r.1)
}

fn request(q: &CaseQuery) -> LookupRequest {
    case_request(q)
}

/// A host that has a top scope (`top`, answered by name and counted per
/// name) and, for `known_variables` lookups, the scope of the lookup being
/// made (`current`: the top scope's variables, or a class's over them).
struct TopHost {
    top: Mutex<Map>,
    current: Mutex<Map>,
    top_asked: Mutex<HashMap<String, usize>>,
    known: KnownNames,
}

impl TopHost {
    fn new(top: Map) -> TopHost {
        TopHost {
            current: Mutex::new(top.clone()),
            top: Mutex::new(top),
            top_asked: Mutex::new(HashMap::new()),
            known: KnownNames::default(),
        }
    }

    fn checked(&self) -> usize {
        self.known.checked()
    }

    /// Of the names it checked, those in `own`.
    fn locals(&self, own: &Map) -> Vec<String> {
        self.known.locals(|n| own.contains_key(&hiera::Key(n)))
    }

    /// The most times one name was asked.
    fn most_asked(&self) -> usize {
        self.top_asked
            .lock()
            .unwrap()
            .values()
            .copied()
            .max()
            .unwrap_or(0)
    }

    fn asked(&self) -> usize {
        self.top_asked.lock().unwrap().values().sum()
    }
}

impl hiera::host::Host for TopHost {
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
        self.known.learn(name, index);
        self.variable(name)
    }
    fn top_variable(&self, name: &str) -> Option<Value> {
        *self
            .top_asked
            .lock()
            .unwrap()
            .entry(name.to_string())
            .or_default() += 1;
        self.top.lock().unwrap().get(&hiera::Key(name)).cloned()
    }
}

fn open(case: &Case, host: Option<Arc<TopHost>>, host_scope: bool) -> Option<Arc<hiera::Hiera>> {
    let opts = Options {
        host_scope,
        host: host.map(|h| hiera::host::HostRef(h as Arc<dyn hiera::host::Host>)),
        ..case_options(case)
    };
    hiera::Hiera::open(opts).ok().map(Arc::new)
}

/// Every other variable of `scope` (the first half of a top scope that
/// gains the rest later), and the rest.
fn halves(scope: &Map) -> (Map, Map) {
    let (mut first, mut later) = (Map::default(), Map::default());
    for (i, (k, v)) in scope.iter().enumerate() {
        if i % 2 == 0 {
            first.insert(k.clone(), v.clone());
        } else {
            later.insert(k.clone(), v.clone());
        }
    }
    (first, later)
}

fn run_tree(root: &Path, puppet: u8) -> (usize, usize, Vec<String>) {
    let filter = std::env::var("CASE").unwrap_or_default();
    let mut cases = Vec::new();
    support::find_cases(root, &mut cases);
    cases.sort();
    assert!(!cases.is_empty(), "no cases under {}", root.display());
    let (mut queries, mut asked, mut failures) = (0, 0, Vec::new());
    let mut too_often = Vec::new();
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
        let Some(h) = open(&case, None, false) else {
            continue;
        };
        let reqs: Vec<LookupRequest> = case.queries.iter().map(request).collect();
        let (first, later) = halves(&case.scope);
        // Each lookup on the session that reads its scope from the host and
        // on one made with the whole scope, in the same order (what a
        // session warns about depends on what it computed before).
        let mut check =
            |how: &str, i: usize, ours: &Session, theirs: &Session, r: &LookupRequest| {
                queries += 1;
                let got = outcome(ours.lookup_with_warnings(r));
                let want = outcome(theirs.lookup_with_warnings(r));
                if got != want {
                    failures.push(format!(
                        "{name} #{i} {} ({how}): answered {got}, a whole session {want}",
                        r.keys[0]
                    ));
                }
            };

        // An empty session, the whole scope from the host; twice (cold,
        // then from the session's caches).
        let host = Arc::new(TopHost::new(case.scope.clone()));
        let hh = open(&case, Some(Arc::clone(&host)), true).expect("opened once already");
        let ours = Session::new(Arc::clone(&hh), Map::default());
        let theirs = Session::new(Arc::clone(&h), case.scope.clone());
        for round in 0..2 {
            for (i, r) in reqs.iter().enumerate() {
                check(
                    &format!("from the host, round {round}"),
                    i,
                    &ours,
                    &theirs,
                    r,
                );
            }
        }
        if host.most_asked() > 1 {
            too_often.push(format!(
                "{name}: the host was asked {} times about one name",
                host.most_asked()
            ));
        }
        asked += host.asked();

        // The top scope gains the second half: an overlay of it on the
        // session, as on a session made with the first half.
        let host = Arc::new(TopHost::new(first.clone()));
        let hh = open(&case, Some(Arc::clone(&host)), true).expect("opened once already");
        let ours = Arc::new(Session::new(Arc::clone(&hh), Map::default()));
        let theirs = Arc::new(Session::new(Arc::clone(&h), first.clone()));
        for (i, r) in reqs.iter().enumerate() {
            check("from the host, first half", i, &ours, &theirs, r);
        }
        *host.top.lock().unwrap() = case.scope.clone();
        let our_overlay = ours.overlay(later.clone(), Map::default(), &[]);
        let their_overlay = theirs.overlay(later.clone(), Map::default(), &[]);
        for (i, r) in reqs.iter().enumerate() {
            check(
                "from the host, an overlay of the later half",
                i,
                &our_overlay,
                &their_overlay,
                r,
            );
        }
        for (i, r) in reqs.iter().enumerate() {
            check(
                "from the host, an overlay of the later half, again",
                i,
                &our_overlay,
                &their_overlay,
                r,
            );
        }

        // known_variables lookups (the hand-off's): from a scope with the
        // second half as its own variables over a top scope of the first
        // half, and from the top scope, on one session; the same lookups
        // on a session made with the first half.
        let host = Arc::new(TopHost::new(first.clone()));
        let hh = open(&case, Some(Arc::clone(&host)), true).expect("opened once already");
        let ours = Session::new(Arc::clone(&hh), Map::default());
        let their_host = Arc::new(TopHost::new(first.clone()));
        let ht = open(&case, Some(Arc::clone(&their_host)), false).expect("opened once already");
        let theirs = Session::new(Arc::clone(&ht), first.clone());
        for (round, own) in [(0, true), (1, false), (2, true), (3, false)] {
            let current = if own {
                case.scope.clone()
            } else {
                first.clone()
            };
            *host.current.lock().unwrap() = current.clone();
            *their_host.current.lock().unwrap() = current;
            for (i, r) in reqs.iter().enumerate() {
                let mut r = r.clone();
                r.known_variables = Some(host.checked());
                if own {
                    r.local_variables = host.locals(&later);
                }
                // Both hosts have numbered the same names in the same order.
                let mut rt = r.clone();
                rt.known_variables = Some(their_host.checked());
                rt.local_variables = if own {
                    their_host.locals(&later)
                } else {
                    Vec::new()
                };
                if rt.known_variables != r.known_variables
                    || rt.local_variables != r.local_variables
                {
                    too_often.push(format!("{name} #{i}: the hosts numbered other names"));
                    continue;
                }
                check(
                    &format!("known variables, round {round}, own {own}"),
                    i,
                    &ours,
                    &theirs,
                    &r,
                );
            }
        }
        if host.most_asked() > 1 {
            too_often.push(format!(
                "{name} (known variables): the host was asked {} times about one top-scope name",
                host.most_asked()
            ));
        }
    }
    failures.extend(too_often);
    (queries, asked, failures)
}

#[test]
fn host_scope_sessions_answer_as_whole_sessions() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (mut total, mut asked) = (0, 0);
    let mut failures = Vec::new();
    for (tree, puppet) in [("tests/conformance", 7), ("tests/conformance-p8", 8)] {
        let (q, a, f) = run_tree(&base.join(tree), puppet);
        total += q;
        asked += a;
        failures.extend(f);
    }
    for f in failures.iter().take(50) {
        eprintln!("FAIL {f}");
    }
    eprintln!(
        "host scope: {total} lookups, the host asked {asked} times about top-scope names, {} differ",
        failures.len()
    );
    assert!(total > 3000, "only {total} lookups ran");
    assert!(asked > 200, "the host was asked only {asked} times");
    assert!(failures.is_empty(), "{} differences", failures.len());
}
