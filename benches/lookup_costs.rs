//! Where a compile's lookup time goes, for the optimisation work of issue 7
//! (see BENCHMARKS.md, "How each change was measured").
//!
//! ```text
//! lookup_costs --corpus DIR fresh [ROUNDS]          # a new Session per node, on a warm Hiera
//! lookup_costs --corpus DIR steady [ROUNDS] [KIND]  # one warm Session, finished lookups forgotten
//! lookup_costs --corpus DIR finished [ROUNDS] [KIND] # one warm Session answering from its finished lookups
//! ```
//!
//! `fresh` first runs the workload once for each of the corpus's first 50
//! nodes (loading every file the workload needs), then ROUNDS (3) more passes
//! over the nodes, each node a new `Session`: what `benches/compare` times.
//! `steady` runs the workload ROUNDS (2000) times on one session of node 0,
//! forgetting its finished lookups before each pass, so every lookup searches
//! again with the session's hierarchies, indexes and options in place; KIND
//! keeps the requests of one kind of `workload-kinds.txt` (`apl`, `dotted`...).
//!
//! Prints µs per lookup. Under `valgrind --tool=callgrind`, the difference
//! between two round counts divided by the extra lookups is the instructions
//! per lookup, a measure that the machine's load does not move.

#[path = "corpus_dir.rs"]
mod corpus_dir;

use hiera::{Hiera, LookupRequest, Session};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: lookup_costs --corpus DIR (fresh [ROUNDS] | steady [ROUNDS] [KIND] | finished [ROUNDS] [KIND])";
    let (dir, mode, rest) = match args.as_slice() {
        [flag, dir, mode, rest @ ..] if flag == "--corpus" => {
            (PathBuf::from(dir), mode.as_str(), rest)
        }
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    let kinds: Vec<String> = std::fs::read_to_string(dir.join("workload-kinds.txt"))
        .expect("workload-kinds.txt")
        .lines()
        .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
        .collect();
    let requests: Vec<(LookupRequest, String)> =
        corpus_dir::workload(&dir).into_iter().zip(kinds).collect();
    let hiera = Arc::new(Hiera::open(corpus_dir::options(&dir)).expect("open"));
    let rounds = |default: usize| rest.first().and_then(|r| r.parse().ok()).unwrap_or(default);
    let (lookups, elapsed) = match mode {
        "fresh" => {
            let workload: Vec<&LookupRequest> = requests.iter().map(|(r, _)| r).collect();
            let scopes = corpus_dir::nodes(&dir, 50)
                .iter()
                .map(corpus_dir::scope)
                .collect::<Vec<_>>();
            for scope in &scopes {
                let s = Session::new(Arc::clone(&hiera), scope.clone());
                workload.iter().for_each(|r| drop(s.lookup(r)));
            }
            let start = Instant::now();
            for _ in 0..rounds(3) {
                for scope in &scopes {
                    let s = Session::new(Arc::clone(&hiera), scope.clone());
                    workload.iter().for_each(|r| drop(s.lookup(r)));
                }
            }
            (rounds(3) * scopes.len() * workload.len(), start.elapsed())
        }
        "steady" | "finished" => {
            // `finished` keeps the session's finished lookups: the workload
            // is answered from them.
            let forget = mode == "steady";
            let kind = rest.get(1);
            let workload: Vec<&LookupRequest> = requests
                .iter()
                .filter(|(_, k)| kind.is_none_or(|want| want == k))
                .map(|(r, _)| r)
                .collect();
            let s = Session::new(
                Arc::clone(&hiera),
                corpus_dir::scope(&corpus_dir::nodes(&dir, 1)[0]),
            );
            workload.iter().for_each(|r| drop(s.lookup(r)));
            let rounds = rounds(if forget { 2000 } else { 5000 });
            let start = Instant::now();
            for _ in 0..rounds {
                if forget {
                    s.forget_results();
                }
                workload.iter().for_each(|r| drop(s.lookup(r)));
            }
            (rounds * workload.len(), start.elapsed())
        }
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    println!(
        "{lookups} lookups: {:.3} µs/lookup",
        elapsed.as_secs_f64() * 1e6 / lookups.max(1) as f64
    );
}
