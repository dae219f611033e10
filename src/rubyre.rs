//! Ruby regular expressions (lookup_options pattern keys) compiled with the
//! `regex` crate. The common syntax is shared; Ruby-only escapes are
//! translated, and what Rust cannot express is reported as an error.

use crate::error::{Error, ErrorKind, Result};
use regex::Regex;

/// Compiles the Ruby regexp source `src` (as Ruby's `Regexp.compile` would).
pub fn compile(src: &str) -> Result<Regex> {
    let mut out = String::with_capacity(src.len() + 8);
    let mut chars = src.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('h') => out.push_str("[0-9a-fA-F]"),
                Some('H') => out.push_str("[^0-9a-fA-F]"),
                Some('Z') => out.push_str(r"(?:\n?\z)"),
                Some(n) => {
                    out.push('\\');
                    out.push(n);
                }
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    // Ruby's ^ and $ match at line boundaries.
    Regex::new(&format!("(?m){out}")).map_err(|e| {
        let detail = match e {
            regex::Error::Syntax(s) => s.lines().last().unwrap_or("invalid pattern").trim().to_string(),
            other => other.to_string(),
        };
        Error::new(ErrorKind::Lookup, format!("{detail}: /{src}/"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiles_ruby_syntax() {
        assert!(compile(r"^profile::(.*)::users$").unwrap().is_match("profile::web::users"));
        assert!(compile(r"^a\h+$").unwrap().is_match("a0f"));
        assert!(compile("^[a-z").is_err());
    }
}
