//! Bounds on the work and memory of one lookup.
//!
//! Puppet answers a hostile control repo (a chain of thousands of
//! interpolated lookups, a key that interpolates the next one nine times at
//! nine levels) with "stack level too deep" or by running out of memory.
//! libhiera answers it with an error of kind [`ErrorKind::Limit`] that names
//! the key, the file and the limit, in milliseconds. The defaults are far
//! above what real control repos need (every conformance case and the
//! generated corpus at scale 16 pass with them) and can be changed through
//! [`crate::Options::limits`] (`"limits"` in `hiera_open`'s options, the
//! CLI's `--limit NAME=N`, the Go and Ruby options).

use crate::error::{Error, ErrorKind};

/// The limits of one top-level lookup (the lookups, interpolations and
/// merges made to answer it). Zero is not "no limit": it refuses everything
/// that the limit counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// How deep lookups may nest through interpolation (`%{lookup()}`,
    /// `%{hiera()}`, `%{alias()}`): the top-level lookup is depth 0.
    pub lookup_depth: usize,
    /// How many nested lookups one top-level lookup may make in all.
    pub nested_lookups: usize,
    /// The largest interpolated string, in bytes.
    pub string_bytes: usize,
    /// The bytes that all the interpolations of one top-level lookup may
    /// produce together.
    pub interpolated_bytes: usize,
    /// The most entries (array elements or hash keys) at the top level of
    /// the result of a merge.
    pub merge_entries: usize,
    /// The values (counted as JSON would write them: a shared sub-value as
    /// often as it appears) that the nested lookups of one lookup may return:
    /// `%{alias()}` of keys that alias one another twice each doubles the size
    /// with every level, in a few lookups.
    pub nested_values: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            lookup_depth: 32,
            nested_lookups: 100_000,
            string_bytes: 16 << 20,
            interpolated_bytes: 256 << 20,
            merge_entries: 1_000_000,
            nested_values: 10_000_000,
        }
    }
}

impl Limits {
    /// The names of the limits, as `hiera_open`'s options and the CLI spell
    /// them.
    pub const NAMES: [&'static str; 6] = [
        "lookup_depth",
        "nested_lookups",
        "string_bytes",
        "interpolated_bytes",
        "merge_entries",
        "nested_values",
    ];

    /// Sets the limit called `name`; an unknown name is an error message.
    pub fn set(&mut self, name: &str, value: usize) -> Result<(), String> {
        let slot = match name {
            "lookup_depth" => &mut self.lookup_depth,
            "nested_lookups" => &mut self.nested_lookups,
            "string_bytes" => &mut self.string_bytes,
            "interpolated_bytes" => &mut self.interpolated_bytes,
            "merge_entries" => &mut self.merge_entries,
            "nested_values" => &mut self.nested_values,
            _ => {
                return Err(format!(
                    "unknown limit '{name}' (known: {})",
                    Limits::NAMES.join(", ")
                ))
            }
        };
        *slot = value;
        Ok(())
    }

    /// `Ok` when a lookup may nest one level deeper than `depth`; `at` says
    /// which lookup (`the lookup of 'k'`).
    pub fn check_lookup_depth(
        &self,
        depth: usize,
        at: impl std::fmt::Display,
    ) -> Result<(), Error> {
        check(
            depth < self.lookup_depth,
            "lookup_depth",
            self.lookup_depth,
            format_args!(
                "lookups nested more than {} deep through interpolation, at {at}",
                self.lookup_depth
            ),
        )
    }

    /// `Ok` when an interpolation may nest one level deeper than `depth`.
    pub fn check_interpolation_depth(
        &self,
        depth: usize,
        at: impl std::fmt::Display,
    ) -> Result<(), Error> {
        check(
            depth < self.lookup_depth,
            "lookup_depth",
            self.lookup_depth,
            format_args!(
                "interpolations nested more than {} deep, at {at}",
                self.lookup_depth
            ),
        )
    }

    /// `Ok` when one more nested lookup may follow the `made` ones.
    pub fn check_nested_lookups(
        &self,
        made: usize,
        at: impl std::fmt::Display,
    ) -> Result<(), Error> {
        check(
            made < self.nested_lookups,
            "nested_lookups",
            self.nested_lookups,
            format_args!(
                "more than {} nested lookups for one lookup, at {at}",
                self.nested_lookups
            ),
        )
    }

    /// `Ok` when an interpolated string of `bytes` bytes is within the limit.
    pub fn check_string_bytes(&self, bytes: usize) -> Result<(), Error> {
        check(
            bytes <= self.string_bytes,
            "string_bytes",
            self.string_bytes,
            format_args!(
                "an interpolated string grew past {} bytes",
                self.string_bytes
            ),
        )
    }

    /// The limit called `name`.
    pub fn get(&self, name: &str) -> Option<usize> {
        Some(match name {
            "lookup_depth" => self.lookup_depth,
            "nested_lookups" => self.nested_lookups,
            "string_bytes" => self.string_bytes,
            "interpolated_bytes" => self.interpolated_bytes,
            "merge_entries" => self.merge_entries,
            "nested_values" => self.nested_values,
            _ => return None,
        })
    }
}

fn check(
    within: bool,
    name: &str,
    value: usize,
    what: std::fmt::Arguments<'_>,
) -> Result<(), Error> {
    if within {
        Ok(())
    } else {
        Err(exceeded(name, value, what))
    }
}

/// A `limit` error: `Limit exceeded: <what>`.
pub fn error(what: impl std::fmt::Display) -> Error {
    Error::new(ErrorKind::Limit, format!("Limit exceeded: {what}"))
}

/// A `limit` error for the limit `name` at `value`: `Limit exceeded:
/// <what> (limit name = value)`.
pub fn exceeded(name: &str, value: usize, what: impl std::fmt::Display) -> Error {
    error(format_args!("{what} (limit {name} = {value})"))
}

/// A `limit` error that does not name a file yet names `path`: the data
/// file whose value was being interpolated when the limit was reached
/// (Puppet's ` (file: F)` suffix). Any other error is returned as it is.
pub fn in_file(mut e: Error, path: &std::path::Path) -> Error {
    if e.kind == ErrorKind::Limit && e.file.is_none() {
        e.message.push_str(&format!(" (file: {})", path.display()));
        e.file = Some(path.to_path_buf());
    }
    e
}

/// The number of values in `v` as JSON would write them (a sub-value shared
/// by several places counted at each), or `None` past `max`. Each shared
/// container is walked once.
pub fn expanded_size(v: &crate::value::Value, max: usize) -> Option<usize> {
    use crate::value::Value;
    use std::collections::HashMap;
    fn size(v: &Value, seen: &mut HashMap<usize, usize>, max: usize) -> Option<usize> {
        let key = match v {
            // (Empty containers have no allocation, no address: size 1.)
            Value::Array(a) if !a.is_empty() => a.addr(),
            Value::Hash(h) if !h.is_empty() => h.addr(),
            _ => return Some(1),
        };
        if let Some(done) = seen.get(&key) {
            return Some(*done);
        }
        let total = crate::stack::grow(|| {
            let mut total = 1usize;
            let mut add = |x: &Value| -> Option<()> {
                total = total.saturating_add(size(x, seen, max)?);
                (total <= max).then_some(())
            };
            match v {
                Value::Array(a) => a.iter().try_for_each(&mut add)?,
                Value::Hash(h) => h.iter().try_for_each(|(k, x)| {
                    add(k)?;
                    add(x)
                })?,
                _ => {}
            }
            Some(total)
        })?;
        seen.insert(key, total);
        Some(total)
    }
    size(v, &mut HashMap::new(), max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_settable_and_readable() {
        let mut l = Limits::default();
        for (i, name) in Limits::NAMES.iter().enumerate() {
            l.set(name, i + 7).unwrap();
            assert_eq!(l.get(name), Some(i + 7));
        }
        assert!(l
            .set("stack", 1)
            .unwrap_err()
            .contains("unknown limit 'stack'"));
        assert_eq!(l.get("stack"), None);
    }
}
