//! `--batch`: one JSON request per stdin line, one JSON response per
//! stdout line.

use crate::fail;
use hiera::render::to_json;
use hiera::request::{parse_request, respond, response_json};
use hiera::Session;
use std::io::{BufRead, Write};
use std::process::ExitCode;

/// Answers each request line of stdin on stdout, in order.
pub fn run(session: &Session) -> ExitCode {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(l) => l,
            Err(e) => return fail(e),
        };
        if line.trim().is_empty() {
            continue;
        }
        let resp = match parse_request(&line) {
            Ok(req) => respond(session, &req),
            Err(e) => response_json(&Err(e), None),
        };
        if writeln!(out, "{resp}").is_err() {
            return ExitCode::from(2);
        }
    }
    let _ = out.flush();
    let _ = to_json;
    ExitCode::SUCCESS
}
