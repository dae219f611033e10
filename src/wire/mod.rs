//! The wire protocol of the C ABI and of the CLI's `--batch` mode, written
//! down once: how hosts send requests and how answers come back.
//!
//! **Input** (requests, scopes, options, key lists) is strict JSON (RFC
//! 8259), read by [`read::Reader`]: no comments, no `NaN`/`Infinity`
//! literals, no unknown escapes or lone surrogates, nothing after the
//! value. Errors are of kind `invalid_argument` and say
//! `<argument> is not valid JSON: <what> at byte <offset>` (with
//! `(in member '<name>')` inside a request member). Data files are not read
//! here: `json_data` files keep Ruby's `JSON.parse` rules ([`crate::json`]).
//!
//! Values inside the input (`default`, `merge`, `override`, scope
//! variables, ...) are wire values: plain JSON, plus `{"__type__": "Float" |
//! "Binary" | "Symbol" | "Sensitive" | ..., "value": ...}` and
//! `{"__type__": "Hash", "entries": [[k, v], ...]}` objects for what JSON
//! cannot say ([`crate::render::to_json`] writes them, `read::decode`
//! reads them).
//!
//! **Requests** ([`request::parse_request`]): `{"key": K | [K, ...],
//! "merge": M, "default": V, "default_values_hash": {...}, "override":
//! {...}, "explain": bool, "local_variables": [NAME, ...],
//! "known_variables": N, "hiera3_variables": {...}}`; only `key` is
//! required; unknown members are an error. Read member by member into the
//! typed [`crate::request::Request`], without a generic value tree for the
//! request itself.
//!
//! **Responses** ([`crate::request::response_json`]): `{"value": V}`,
//! `{"not_found": true}` or `{"error": {"kind", "message", "file"?,
//! "line"?}}`, each with `"explain": TEXT` when asked for; `hiera_lookup`
//! returns the bare value for a found key.

pub mod read;
pub mod request;

pub use read::{wire_value, Reader, SyntaxError};
pub use request::{key_only, key_only_str, parse_keys, parse_request, parse_requests, read_one};
