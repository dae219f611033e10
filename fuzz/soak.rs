//! The soak runner: randomized inputs for libhiera's parsers, lookups and C
//! ABI, each run in a supervised worker process on a small stack under a
//! memory limit, so that crashes, aborts, stack overflows, hangs and panics
//! become findings instead of killing the run. See fuzz/README.md.
//!
//! `soak --target yaml|json|config|interpolation|request|repo|mutate|all
//! --seed N --seconds S [--start N] [--inputs N] [--findings DIR]
//! [--stack BYTES] [--memory-mib MIB] [--timeout-secs S]`

mod args;
mod config;
mod corpus;
mod findings;
mod hostile;
mod input;
mod interpolation;
mod json;
mod mutate;
mod mutator;
mod repo;
mod request;
mod rng;
mod session;
mod supervisor;
mod targets;
mod tree;
mod worker;
mod yaml;
mod yamlgen;

fn main() {
    let args = match args::parse(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    if let Some(w) = args.worker {
        worker::run(args.targets[0], args.seed, args.stack, w);
    }
    let per_target = args.seconds / args.targets.len() as f64;
    let mut total = 0;
    for &target in &args.targets {
        match supervisor::run(&args, target, per_target) {
            Ok(summary) => {
                println!("{}", summary.line());
                total += summary.total_findings();
            }
            Err(e) => {
                eprintln!("soak: {}: {e}", target.name());
                std::process::exit(2);
            }
        }
    }
    if total > 0 {
        println!("soak: {total} finding(s) under {}", args.findings.display());
        std::process::exit(1);
    }
}
