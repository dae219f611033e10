//! `hiera-lookup`: `puppet lookup`'s job, on libhiera.
//!
//! Exit status: 0 found (or default used), 1 not found (or, with `--type`,
//! an answer that does not match or a TYPE that does not parse, as `puppet
//! lookup --type`), 2 error.

mod all;
mod args;
mod batch;
mod diff;
mod fleet;
mod hiera3;
mod pool;
mod progress;
mod scope;
mod single;

use hiera::{Hiera, Session};
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

/// Prints `Error: MSG` on stderr; exit status 2.
pub fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("Error: {msg}");
    ExitCode::from(2)
}

/// Prints an answer on stdout; a reader that went away (a closed pipe) is
/// not an error of the lookup.
pub fn print_value(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}").and_then(|()| out.flush());
}

fn main() -> ExitCode {
    if std::env::args().skip(1).any(|a| a == "--hiera3") {
        return hiera3::run();
    }
    let mut a = match args::parse_args() {
        Ok(a) => a,
        Err(e) => return fail(e),
    };
    let scope = match &a.fleet {
        Some(_) => Default::default(),
        None => match scope::build_scope(&a) {
            Ok(s) => s,
            Err(e) => return fail(e),
        },
    };
    if a.fleet.is_some() || a.diff.is_some() {
        // One run, one snapshot of the files: the sessions of a fleet or a
        // diff trust what the first one read, as Puppet Server trusts its environment
        // cache between checks (environment_timeout).
        a.options.file_check_interval = std::time::Duration::from_secs(24 * 3600);
    }
    let hiera = match Hiera::open(a.options.clone()) {
        Ok(h) => Arc::new(h),
        Err(e) => return fail(e),
    };
    if let Some(base) = &a.diff {
        return diff::run(&a, hiera, base, (a.fleet.is_none()).then_some(scope));
    }
    if let Some(dir) = &a.fleet {
        return fleet::run(&a, hiera, dir);
    }
    let session = Session::new(hiera, scope);
    if a.batch {
        return batch::run(&session);
    }
    if a.all {
        return all::run(&session, a.sources);
    }
    single::run(&a, &session)
}
