//! criterion benches of issue 7, on the benchmark corpus (scale 1, seed 1)
//! generated at start into a temporary directory.
//!
//! ```text
//! cargo bench --bench lookup                 # everything, about 1.5 minutes
//! cargo bench --bench lookup -- warm/        # a group (criterion filter)
//! ```
//!
//! Groups:
//! * `warm/*`: one session for node 0, warmed by running the whole workload
//!   once; then one key: `hit` (a module parameter from the environment's
//!   common.yaml), `miss` (a module parameter no file defines), `dotted` (10
//!   levels into a nested hash), `interpolated` (facts, trusted data and a
//!   `lookup()`); `workload` is the whole compile's workload on the warm
//!   session (per-lookup time = time / elements).
//! * `cold/*`: `first_lookup_new_session` (a new Session each iteration, the
//!   Hiera and its file cache warm), `compile_new_session` (a new Session and
//!   the whole workload: what `benches/compare` times per compile),
//!   `first_lookup_new_hiera` (a new Hiera each iteration: hiera.yaml and data
//!   files read and parsed again; the OS page cache is warm).
//! * `deep_merge/*`: the 100-key nested hash at 3 levels: `strategy` merges
//!   the 3 values with `Strategy::lookup` (what a lookup does), `deep_merge`
//!   calls `deep_merge` twice, `lookup` looks it up with `merge: deep` on the
//!   warm session (hierarchy search included).
//! * `yaml/*`: the YAML loader's throughput: every data file of the corpus
//!   (`corpus`), and the environment's common.yaml (`common`).

#[path = "corpus/gen.rs"]
mod gen;

use criterion::{BatchSize, Criterion, Throughput};
use hiera::deep_merge::{deep_merge, DeepMergeOptions};
use hiera::hiera5::merge::Strategy;
use hiera::yaml::{load, YamlOptions};
use hiera::{Hiera, LookupRequest, Map, Session, Value};
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

struct Fixture {
    dir: PathBuf,
    corpus: gen::Corpus,
    hiera: Arc<Hiera>,
    scope: Map,
    workload: Vec<LookupRequest>,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = std::env::temp_dir().join(format!("libhiera-bench-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let corpus = gen::Corpus::generate(1, 1.0);
        corpus.write(&dir).expect("writing the corpus");
        eprintln!("{}", corpus.summary());
        let hiera = Arc::new(Hiera::open(gen::Corpus::options(&dir)).expect("open"));
        let scope = corpus.scope(0);
        let workload = corpus
            .workload
            .iter()
            .map(|r| {
                hiera::request::request_from_value(r)
                    .expect("workload request")
                    .lookup
            })
            .collect();
        Fixture {
            dir,
            corpus,
            hiera,
            scope,
            workload,
        }
    }

    fn warm_session(&self) -> Session {
        let s = Session::new(Arc::clone(&self.hiera), self.scope.clone());
        for r in &self.workload {
            let _ = s.lookup(r);
        }
        s
    }
}

fn key(k: &str) -> LookupRequest {
    LookupRequest::key(k)
}

fn expect_found(s: &Session, r: &LookupRequest, what: &str) {
    match s.lookup(r) {
        Ok(Some(_)) => {}
        other => panic!("{what} probe {:?}: expected a value, got {other:?}", r.keys),
    }
}

fn warm(c: &mut Criterion, fx: &Fixture) {
    let s = fx.warm_session();
    let p = &fx.corpus.probes;
    let cases = [
        ("hit", key(&p.hit), true),
        ("miss", key(&p.miss), false),
        ("dotted", key(&p.dotted), true),
        ("interpolated", key(&p.interpolated), true),
    ];
    let mut g = c.benchmark_group("warm");
    for (name, req, found) in &cases {
        if *found {
            expect_found(&s, req, name);
        } else {
            assert!(
                matches!(s.lookup(req), Ok(None)),
                "miss probe {:?} was found",
                req.keys
            );
        }
        g.bench_function(*name, |b| b.iter(|| black_box(s.lookup(black_box(req)))));
    }
    g.throughput(Throughput::Elements(fx.workload.len() as u64));
    g.sample_size(20);
    g.bench_function("workload", |b| {
        b.iter(|| {
            for r in &fx.workload {
                black_box(s.lookup(r).ok());
            }
        })
    });
    g.finish();
}

fn cold(c: &mut Criterion, fx: &Fixture) {
    let hit = key(&fx.corpus.probes.hit);
    let mut g = c.benchmark_group("cold");
    g.bench_function("first_lookup_new_session", |b| {
        b.iter_batched(
            || Session::new(Arc::clone(&fx.hiera), fx.scope.clone()),
            |s| black_box(s.lookup(&hit).ok()),
            BatchSize::SmallInput,
        )
    });
    g.sample_size(20);
    g.throughput(Throughput::Elements(fx.workload.len() as u64));
    g.bench_function("compile_new_session", |b| {
        b.iter(|| {
            let s = Session::new(Arc::clone(&fx.hiera), fx.scope.clone());
            for r in &fx.workload {
                black_box(s.lookup(r).ok());
            }
        })
    });
    g.throughput(Throughput::Elements(1));
    g.bench_function("first_lookup_new_hiera", |b| {
        b.iter_batched(
            || Arc::new(Hiera::open(gen::Corpus::options(&fx.dir)).expect("open")),
            |h| {
                let s = Session::new(h, fx.scope.clone());
                black_box(s.lookup(&hit).ok())
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

fn merges(c: &mut Criterion, fx: &Fixture) {
    // The same three values the corpus has for node 0: common, role, datacenter.
    let mut rng = gen::Rng::new(7);
    let levels: Vec<Value> = (0..3).map(|l| gen::bench_tuning(&mut rng, l)).collect();
    let strategy = Strategy::from_value(&Value::from("deep")).unwrap();
    let opts = DeepMergeOptions::puppet_deep();
    let mut g = c.benchmark_group("deep_merge");
    // levels[0] has the highest priority, as a lookup finds them.
    g.bench_function("strategy", |b| {
        b.iter(|| black_box(strategy.lookup(3, |i| Ok(Some(levels[i].clone()))).unwrap()))
    });
    // What Strategy::merge does: the accumulated (higher priority) value is
    // the source, a copy of the next level the destination.
    g.bench_function("deep_merge", |b| {
        b.iter(|| {
            let d = deep_merge(&levels[0], levels[1].clone(), &opts).unwrap();
            black_box(deep_merge(&d, levels[2].clone(), &opts).unwrap())
        })
    });
    let s = fx.warm_session();
    let req = LookupRequest {
        keys: vec![fx.corpus.probes.deep.clone()],
        merge: Some(Value::from("deep")),
        ..Default::default()
    };
    match s.lookup(&req) {
        Ok(Some(Value::Hash(h))) => assert!(
            h.len() > 100,
            "the deep merge probe merged only {} keys",
            h.len()
        ),
        other => panic!("deep merge probe: {other:?}"),
    }
    g.bench_function("lookup", |b| b.iter(|| black_box(s.lookup(&req).ok())));
    g.finish();
}

fn yaml(c: &mut Criterion, fx: &Fixture) {
    let texts = fx.corpus.data_texts();
    let total: usize = texts.iter().map(|t| t.len()).sum();
    let common =
        fx.corpus.files[&format!("environments/{}/data/common.yaml", gen::ENVIRONMENT)].as_str();
    let opts = YamlOptions::default();
    let mut g = c.benchmark_group("yaml");
    g.throughput(Throughput::Bytes(total as u64));
    g.sample_size(20);
    g.bench_function("corpus", |b| {
        b.iter(|| {
            for t in &texts {
                black_box(load(t, &opts).unwrap());
            }
        })
    });
    g.throughput(Throughput::Bytes(common.len() as u64));
    g.bench_function("common", |b| {
        b.iter(|| black_box(load(common, &opts).unwrap()))
    });
    g.finish();
}

fn main() {
    let fx = Fixture::new();
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(700))
        .measurement_time(Duration::from_secs(3))
        .sample_size(50)
        .configure_from_args();
    warm(&mut c, &fx);
    cold(&mut c, &fx);
    merges(&mut c, &fx);
    yaml(&mut c, &fx);
    c.final_summary();
    let _ = std::fs::remove_dir_all(&fx.dir);
}
