//! `--fleet DIR`: every node of a directory of facts files, one JSON line
//! per node on stdout, streamed as nodes finish, on every core.
//!
//! Each line is `{"node": CERTNAME, "file": PATH, "values": {...},
//! "errors": {...}}`: the found answers by key (every key with `--all`,
//! else the keys given; keys not found left out) and the failed keys'
//! messages. A facts file that cannot be read is the line `{"node": NAME,
//! "file": PATH, "error": MESSAGE}` (NAME: the file name without its
//! extension), and the run goes on. One [`Hiera`] is shared by every
//! thread, with a [`Session`] per node; a node's answers are dropped once
//! its line is written, so memory does not grow with the fleet.

use crate::args::Args;
use crate::single::{default_value, merge_value};
use crate::{fail, pool, progress::Progress};
use hiera::facts_file::{list_facts_files, read_facts_file, NodeFacts};
use hiera::hiera5::all_keys::AllAnswers;
use hiera::render::{json_string, to_json};
use hiera::{Hiera, LookupRequest, Session, Value};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

/// A node's session: its facts made into a scope as `--facts FILE --node
/// CERTNAME` makes it.
pub fn node_session(hiera: &Arc<Hiera>, node: &NodeFacts, environment: &str) -> Session {
    let facts = node.facts.as_hash().cloned().unwrap_or_default();
    let scope = hiera::scope::scope_from_facts(&facts, Some(&node.certname), environment);
    Session::new(hiera.clone(), scope)
}

/// A node's name when its facts file cannot be read: the file name
/// without its extension.
pub fn file_node_name(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// One node's line, and whether it holds an error.
fn node_line(a: &Args, hiera: &Arc<Hiera>, path: &Path, merge: &Option<Value>) -> (String, bool) {
    let mut line = String::from("{\"node\":");
    let node = match read_facts_file(path) {
        Ok(n) => n,
        Err(e) => {
            json_string(&file_node_name(path), &mut line);
            line.push_str(",\"file\":");
            json_string(&path.to_string_lossy(), &mut line);
            line.push_str(",\"error\":");
            json_string(&e.to_string(), &mut line);
            line.push('}');
            return (line, true);
        }
    };
    json_string(&node.certname, &mut line);
    line.push_str(",\"file\":");
    json_string(&path.to_string_lossy(), &mut line);
    let session = node_session(hiera, &node, &a.options.environment);
    let answers = if a.all {
        match session.lookup_all() {
            Ok(all) => all,
            Err(e) => {
                line.push_str(",\"error\":");
                json_string(&e.to_string(), &mut line);
                line.push('}');
                return (line, true);
            }
        }
    } else {
        let mut all = AllAnswers::default();
        for (i, key) in a.keys.iter().enumerate() {
            if a.keys[..i].contains(key) {
                continue;
            }
            let req = LookupRequest {
                keys: vec![key.clone()],
                merge: merge.clone(),
                default: default_value(a),
                ..Default::default()
            };
            match session.lookup(&req) {
                Ok(Some(v)) => all.values.push((key.clone(), v)),
                Ok(None) => {}
                Err(e) => all.errors.push((key.clone(), e)),
            }
        }
        all
    };
    // Written straight from the answers (no Hash built): a node's line is
    // most of the work of a fleet run after the lookups.
    line.push_str(",\"values\":{");
    for (i, (k, v)) in answers.values.iter().enumerate() {
        if i > 0 {
            line.push(',');
        }
        json_string(k, &mut line);
        line.push(':');
        line.push_str(&to_json(v));
    }
    line.push_str("},\"errors\":{");
    for (i, (k, e)) in answers.errors.iter().enumerate() {
        if i > 0 {
            line.push(',');
        }
        json_string(k, &mut line);
        line.push(':');
        json_string(&e.to_string(), &mut line);
    }
    line.push('}');
    let failed = !answers.errors.is_empty();
    line.push('}');
    (line, failed)
}

/// Runs `--fleet DIR`. Exit status: 0, or 2 when any node or key failed
/// (each reported on its line) or the directory cannot be read.
pub fn run(a: &Args, hiera: Arc<Hiera>, dir: &Path) -> ExitCode {
    let merge = match merge_value(a) {
        Ok(m) => m,
        Err(e) => return fail(e),
    };
    let files = match list_facts_files(dir) {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut progress = Progress::new(files.len());
    let mut failed = false;
    pool::run(
        &files,
        pool::threads(),
        |path| node_line(a, &hiera, path, &merge),
        |(line, bad)| {
            failed |= bad;
            progress.tick();
            // A reader that went away (a closed pipe) ends the run, not its status.
            writeln!(out, "{line}").and_then(|()| out.flush()).is_ok()
        },
    );
    progress.finish();
    if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}
