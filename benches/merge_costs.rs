//! The deep merge of issue 7's target (100 keys over 3 levels, the values of
//! `benches/lookup.rs`'s `deep_merge/strategy`), in a loop, for callgrind and
//! perf: the difference of two round counts under callgrind, divided by the
//! extra rounds, is the instructions per merge.
//!
//! ```text
//! merge_costs [ROUNDS]     # default 20000; prints µs per merge
//! ```

#[path = "corpus/gen.rs"]
mod gen;

use hiera::hiera5::merge::Strategy;
use hiera::Value;
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|r| r.parse().ok())
        .unwrap_or(20_000);
    let mut rng = gen::Rng::new(7);
    let levels: Vec<Value> = (0..3).map(|l| gen::bench_tuning(&mut rng, l)).collect();
    let strategy = Strategy::from_value(&Value::from("deep")).expect("deep");
    let start = Instant::now();
    for _ in 0..rounds {
        black_box(
            strategy
                .lookup(3, |i| Ok(Some(levels[i].clone())))
                .expect("merge"),
        );
    }
    let us = start.elapsed().as_secs_f64() * 1e6 / rounds as f64;
    println!("{rounds} merges, {us:.2} µs per merge");
}
