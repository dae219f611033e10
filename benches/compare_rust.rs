//! The libhiera (Rust API) driver of `benches/compare`.
//!
//! ```text
//! compare_rust --corpus DIR [--nodes N] [--rounds R] --results FILE --timings FILE [--no-memory]
//!              [--first-compiles N]
//! ```
//!
//! Speaks the driver interface described in BENCHMARKS.md, like
//! `benches/puppet_driver.rb`:
//!
//! * the workload is `DIR/workload.jsonl`, the nodes the first N of
//!   `DIR/nodes/*.json` in byte order of their names (certname = file stem);
//! * first compile: a new `Hiera` (empty file cache) and a new `Session` for
//!   node 0; every request of the workload, timed as a whole; three times,
//!   each with a new `Hiera`, the median reported (`--first-compiles N`:
//!   N times; the instructions of one first compile are those of N=2 less
//!   those of N=1, counted with `--rounds 0 --no-memory`);
//! * then R rounds over the N nodes, each node a "compile": a new `Session`
//!   on the shared (warm) `Hiera`; every lookup timed with a monotonic clock;
//! * `--results`: one response per line (`{"value":..}`, `{"not_found":true}`
//!   or `{"error":{..}}`, the CLI's wire format) for round 0, node by node,
//!   request by request;
//! * `--timings`: JSON lines `meta`, `first_compile`, `compile` (one per node
//!   and round, with every lookup's µs), `memory`.
//!
//! The memory line: a counting allocator measures the heap that a fresh
//! `Hiera`'s file cache holds after loading every data file of the corpus,
//! against the files' raw bytes (and the process RSS growth meanwhile), and
//! how long loading them took (with the counting allocator on).

#[path = "corpus_dir.rs"]
mod corpus_dir;

use hiera::data::DataFormat;
use hiera::request::response_json;
use hiera::{Hiera, LookupRequest, Map, Session, Value};
use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Counts live heap bytes while `COUNTING` is on (off while timing).
struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if COUNTING.load(Ordering::Relaxed) {
            LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        }
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            LIVE.fetch_add(
                new_size as isize - layout.size() as isize,
                Ordering::Relaxed,
            );
        }
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// How many times the first compile is measured (each with a new Hiera),
/// unless `--first-compiles` says.
const FIRST_COMPILES: usize = 3;

struct Args {
    corpus: PathBuf,
    nodes: usize,
    rounds: usize,
    results: PathBuf,
    timings: PathBuf,
    memory: bool,
    first_compiles: usize,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        corpus: PathBuf::new(),
        nodes: 50,
        rounds: 3,
        results: PathBuf::new(),
        timings: PathBuf::new(),
        memory: true,
        first_compiles: FIRST_COMPILES,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut val = || it.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--corpus" => a.corpus = PathBuf::from(val()?),
            "--nodes" => a.nodes = val()?.parse().map_err(|e| format!("--nodes: {e}"))?,
            "--rounds" => a.rounds = val()?.parse().map_err(|e| format!("--rounds: {e}"))?,
            "--results" => a.results = PathBuf::from(val()?),
            "--timings" => a.timings = PathBuf::from(val()?),
            "--no-memory" => a.memory = false,
            "--first-compiles" => {
                a.first_compiles = val()?
                    .parse()
                    .map_err(|e| format!("--first-compiles: {e}"))?;
                if a.first_compiles == 0 {
                    return Err("--first-compiles must be at least 1".into());
                }
            }
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    if a.corpus.as_os_str().is_empty()
        || a.results.as_os_str().is_empty()
        || a.timings.as_os_str().is_empty()
    {
        return Err("usage: compare_rust --corpus DIR [--nodes N] [--rounds R] --results FILE --timings FILE [--no-memory] [--first-compiles N]".into());
    }
    Ok(a)
}

fn rss_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kb| kb * 1024)
        .unwrap_or(0)
}

fn json_f(v: f64) -> String {
    format!("{v:.3}")
}

fn main() {
    let a = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("compare_rust: {e}");
            std::process::exit(2);
        }
    };
    let dir = std::path::absolute(&a.corpus).expect("corpus path");
    let workload: Vec<LookupRequest> = corpus_dir::workload(&dir);
    let nodes = corpus_dir::nodes(&dir, a.nodes);
    let scopes: Vec<Map> = nodes.iter().map(corpus_dir::scope).collect();
    let mut timings =
        std::io::BufWriter::new(std::fs::File::create(&a.timings).expect("timings file"));
    let mut results =
        std::io::BufWriter::new(std::fs::File::create(&a.results).expect("results file"));
    writeln!(
        timings,
        "{{\"type\":\"meta\",\"engine\":\"libhiera {} (Rust API)\",\"nodes\":{},\"requests\":{},\"rounds\":{}}}",
        env!("CARGO_PKG_VERSION"),
        nodes.len(),
        workload.len(),
        a.rounds
    )
    .unwrap();
    // Memory first, in a fresh process: the heap a new Hiera's file cache
    // holds with every data file loaded.
    let mut memory_line = None;
    if a.memory {
        let files = corpus_dir::data_files(&dir);
        let yaml_bytes: u64 = files
            .iter()
            .map(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0))
            .sum();
        let rss0 = rss_bytes();
        COUNTING.store(true, Ordering::SeqCst);
        let before = LIVE.load(Ordering::SeqCst);
        let h = Hiera::open(corpus_dir::options(&dir)).expect("open");
        let mut errors = 0;
        let t = Instant::now();
        for p in &files {
            if h.cache().data(p, DataFormat::Yaml).is_err() {
                errors += 1;
            }
        }
        let load_seconds = t.elapsed().as_secs_f64();
        let heap = LIVE.load(Ordering::SeqCst) - before;
        COUNTING.store(false, Ordering::SeqCst);
        let rss1 = rss_bytes();
        memory_line = Some(format!(
            "{{\"type\":\"memory\",\"yaml_files\":{},\"yaml_bytes\":{},\"cache_heap_bytes\":{},\"cache_rss_delta_bytes\":{},\"load_errors\":{},\"load_seconds\":{:.6},\"size_of_value\":{},\"size_of_map_entry\":{}}}",
            files.len(),
            yaml_bytes,
            heap,
            rss1.saturating_sub(rss0),
            errors,
            load_seconds,
            std::mem::size_of::<Value>(),
            std::mem::size_of::<(Value, Value)>(),
        ));
        drop(h);
    }
    let rss_start = rss_bytes();

    // First compile: empty caches (a new Hiera), FIRST_COMPILES times, the
    // median kept; the last Hiera is the one the warm rounds use.
    let mut samples = Vec::new();
    let mut first = Vec::new();
    let mut hiera = None;
    for _ in 0..a.first_compiles {
        let t = Instant::now();
        let h = Arc::new(Hiera::open(corpus_dir::options(&dir)).expect("open"));
        let session = Session::new(Arc::clone(&h), scopes[0].clone());
        first = workload.iter().map(|r| session.lookup(r)).collect();
        samples.push(t.elapsed().as_secs_f64());
        drop(session);
        hiera = Some(h);
    }
    let hiera = hiera.unwrap();
    let mut sorted = samples.clone();
    sorted.sort_by(f64::total_cmp);
    writeln!(
        timings,
        "{{\"type\":\"first_compile\",\"node\":{},\"seconds\":{:.6},\"samples\":[{}],\"lookups\":{}}}",
        hiera::render::to_json(&Value::from(nodes[0].0.as_str())),
        sorted[sorted.len() / 2],
        samples.iter().map(|s| format!("{s:.6}")).collect::<Vec<_>>().join(","),
        workload.len()
    )
    .unwrap();

    // Warm rounds: a new session per node on the shared Hiera.
    let mut per_lookup = vec![0f64; workload.len()];
    for round in 0..a.rounds {
        for (i, (cert, _)) in nodes.iter().enumerate() {
            let scope = scopes[i].clone();
            let start = Instant::now();
            let session = Session::new(Arc::clone(&hiera), scope);
            let mut outcomes = Vec::with_capacity(if round == 0 { workload.len() } else { 0 });
            for (j, r) in workload.iter().enumerate() {
                let t0 = Instant::now();
                let out = session.lookup(r);
                per_lookup[j] = t0.elapsed().as_nanos() as f64 / 1000.0;
                if round == 0 {
                    outcomes.push(out);
                }
            }
            let total_us = start.elapsed().as_nanos() as f64 / 1000.0;
            drop(session);
            let list: Vec<String> = per_lookup.iter().map(|&x| json_f(x)).collect();
            writeln!(
                timings,
                "{{\"type\":\"compile\",\"round\":{round},\"node\":{},\"total_us\":{:.3},\"lookup_us\":[{}]}}",
                hiera::render::to_json(&Value::from(cert.as_str())),
                total_us,
                list.join(",")
            )
            .unwrap();
            if round == 0 {
                for o in &outcomes {
                    writeln!(results, "{}", response_json(o, None)).unwrap();
                }
                if i == 0 {
                    // The cold compile must answer what the warm one does.
                    for (j, (c, w)) in first.iter().zip(&outcomes).enumerate() {
                        let (c, w) = (response_json(c, None), response_json(w, None));
                        if c != w {
                            eprintln!("compare_rust: node {cert} request {j}: first compile gave {c}, warm gave {w}");
                        }
                    }
                }
            }
        }
    }
    let rss_after = rss_bytes();
    let cached = hiera.cache().len();
    drop(hiera);
    writeln!(
        timings,
        "{{\"type\":\"run\",\"rss_start_bytes\":{rss_start},\"rss_after_bytes\":{rss_after},\"cached_files\":{cached}}}"
    )
    .unwrap();
    if let Some(line) = memory_line {
        writeln!(timings, "{line}").unwrap();
    }

    timings.flush().unwrap();
    results.flush().unwrap();
}
