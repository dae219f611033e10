//! `--all`: every key of one node.

use crate::{fail, print_value};
use hiera::render::to_json_pretty;
use hiera::Session;
use std::process::ExitCode;

/// `--all`: every key the node can look up and its answer, as one JSON
/// object sorted by key (keys not found left out). A key whose lookup
/// fails is left out of the object and reported on stderr as
/// `Error: KEY: MESSAGE`; the exit status is then 2 (else 0).
///
/// With `--sources`: `{"values": {...}, "sources": {KEY: [PATH, ...]}}`,
/// the files behind each answer.
pub fn run(session: &Session, sources: bool) -> ExitCode {
    let (answers, printed) = if sources {
        match session.lookup_all_sources() {
            Ok(s) => {
                let v = s.to_value();
                (s.answers, v)
            }
            Err(e) => return fail(e),
        }
    } else {
        match session.lookup_all() {
            Ok(a) => {
                let v = a.values_hash();
                (a, v)
            }
            Err(e) => return fail(e),
        }
    };
    print_value(&to_json_pretty(&printed));
    for (key, e) in &answers.errors {
        eprintln!("Error: {key}: {e}");
    }
    if answers.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    }
}
