//! `hiera_session`: one scope bound to a configuration, and the lookups
//! (`hiera_session_new`, `hiera_session_overlay`, `hiera_session_free`,
//! `hiera_lookup`, `hiera_lookup_many`, `hiera_lookup_keys`).

use super::answer::{answer_export, Answer};
use super::hiera::hiera;
use super::{drop_made, guard, hiera_status, input_json, input_str, write_made};
use crate::error::{Error, ErrorKind};
use crate::hiera5::lookup::{LookupRequest, Session, SessionOptions};
use crate::request::{error_json_explained, push_response_json, respond, response_json, Request};
use crate::value::{Map, Value};
use std::cell::RefCell;
use std::ffi::{c_char, CStr};
use std::rc::Rc;
use std::sync::Arc;

/// A scope (the node's variables: facts, trusted, top-scope variables) bound
/// to a `hiera`, and the caches that depend on it.
///
/// Made by `hiera_session_new`, freed by `hiera_session_free`.
/// Threads: any number of threads may look up through one `hiera_session` at
/// once (`hiera_lookup`, `hiera_lookup_many`); its caches are internally
/// synchronized. It keeps its `hiera` alive.
#[allow(non_camel_case_types)]
pub struct hiera_session {
    pub(crate) inner: Arc<Session>,
}

// The thread contract of the header, checked by the compiler: both handles
// may be shared by threads.
const _: fn() = || {
    fn shared<T: Send + Sync>() {}
    shared::<hiera>();
    shared::<hiera_session>();
};

/// Decodes `scope_json`: a JSON object, the variable map.
pub(crate) fn scope_from_json(text: &str) -> Result<Map, Error> {
    match input_json(text, "scope_json")? {
        Value::Hash(h) => Ok(h.clone()),
        _ => Err(Error::new(
            ErrorKind::InvalidArgument,
            "scope_json must be a JSON object",
        )),
    }
}

/// The key that makes a lookup panic, in test builds only (`cfg(test)` or the
/// `test-panic` feature), so that tests can check `HIERA_PANIC`.
#[cfg(any(test, feature = "test-panic"))]
const TEST_PANIC_KEY: &str = "__hiera_test_panic__";

fn test_hook<'k>(_keys: impl IntoIterator<Item = &'k str>) {
    #[cfg(any(test, feature = "test-panic"))]
    if _keys.into_iter().any(|k| k == TEST_PANIC_KEY) {
        panic!("test-panic hook: a lookup of {TEST_PANIC_KEY}");
    }
}

/// `hiera_lookup` without the pointers, for a text [`crate::wire::key_only`]
/// has refused (`hiera_lookup` answers those it takes itself).
pub(crate) fn lookup_json(session: &Session, text: &str) -> Answer {
    let req = match parsed_request(text) {
        Ok(r) => r,
        Err(e) => return Answer::invalid(&e),
    };
    test_hook(req.lookup.keys.iter().map(String::as_str));
    if !req.explain {
        return Answer::of_lookup(session.lookup(&req.lookup));
    }
    let (outcome, text) = session.explain(&req.lookup);
    match outcome {
        Ok(found) => Answer::new(
            if found.is_some() {
                hiera_status::HIERA_OK
            } else {
                hiera_status::HIERA_NOT_FOUND
            },
            Some(response_json(&Ok(found), Some(&text)).into_bytes()),
        ),
        Err(e) => Answer::new(
            hiera_status::HIERA_ERROR,
            Some(error_json_explained(&e, Some(&text)).into_bytes()),
        ),
    }
}

/// The most requests a thread keeps parsed ([`parsed_request`]).
const KEPT_REQUESTS: usize = 4096;
/// The most bytes a thread's kept requests may weigh ([`weight`]: their
/// texts and a measure of their parsed values); when a new one would pass
/// it, all are forgotten.
const KEPT_REQUEST_BYTES: usize = 1 << 20;
/// The longest request text kept parsed.
const KEPT_REQUEST_LEN: usize = 4096;
/// The most one kept request may weigh ([`weight`]): a text whose parse is
/// heavier (a default of many small nodes may take a few times its text)
/// is parsed each time.
const KEPT_REQUEST_WEIGHT: usize = 16 * 1024;

/// What keeping `req`, parsed from `text`, costs, in bytes, at least: the
/// text, the keys, and for each node of its values (`merge`, `default`,
/// `default_values_hash`, `override`, ...) a `Value`'s size and its
/// String's bytes. The walk stops once past `limit` (a huge default is not
/// walked to its end: `None`).
fn weight(text: &str, req: &Request, limit: usize) -> Option<usize> {
    fn walk(v: &Value, left: &mut isize) -> bool {
        *left -= std::mem::size_of::<Value>() as isize;
        match v {
            Value::String(s) => *left -= s.len() as isize,
            Value::Array(a) => {
                for v in a.iter() {
                    if !walk(v, left) {
                        return false;
                    }
                }
            }
            Value::Hash(h) => {
                if !walk_map(h, left) {
                    return false;
                }
            }
            Value::Sensitive(v) => return walk(v, left),
            Value::BigInt(s) | Value::Symbol(s) => *left -= s.len() as isize,
            Value::Bytes(b) => *left -= b.len() as isize,
            Value::Rich(r) => *left -= (r.0.len() + r.1.len()) as isize,
            Value::Nil | Value::Bool(_) | Value::Int(_) | Value::Float(_) => {}
        }
        *left >= 0
    }
    fn walk_map(m: &Map, left: &mut isize) -> bool {
        for (k, v) in m.iter() {
            if !walk(k, left) || !walk(v, left) {
                return false;
            }
        }
        *left >= 0
    }
    let l = &req.lookup;
    let mut left = limit as isize - text.len() as isize;
    let names = l.keys.iter().chain(&l.local_variables);
    left -= names.map(|k| k.len() + 24).sum::<usize>() as isize;
    let values = l.merge.iter().chain(l.default.iter());
    let ok = left >= 0
        && values.into_iter().all(|v| walk(v, &mut left))
        && walk_map(&l.default_values_hash, &mut left)
        && walk_map(&l.override_values, &mut left)
        && l.hiera3_variables
            .as_ref()
            .is_none_or(|m| walk_map(m, &mut left));
    ok.then(|| limit - left as usize)
}

/// The requests this thread has parsed, by their exact text: a host sends
/// the same few request texts (a key with its merge, its default, ...) for
/// every compile, so a repeated text is one probe, not a parse (its `Vec`,
/// `String`s and values) and a drop. A request is the same whatever the
/// session; only valid ones are kept. Bounded ([`KEPT_REQUESTS`],
/// [`KEPT_REQUEST_BYTES`] by [`weight`], [`KEPT_REQUEST_WEIGHT`]): when
/// full, forgotten all at once.
#[derive(Default)]
struct ParsedRequests {
    by_text: std::collections::HashMap<Box<str>, Rc<Request>, foldhash::fast::FixedState>,
    bytes: usize,
}

thread_local! {
    static PARSED: RefCell<ParsedRequests> = RefCell::new(ParsedRequests::default());
}

/// A request text's [`Request`], parsed once per thread (see
/// [`ParsedRequests`]); errors are those of `parse_request`.
fn parsed_request(text: &str) -> Result<Rc<Request>, Error> {
    // The borrow ends before the lookup: a host called during it may look
    // up again on this thread.
    if let Some(r) = PARSED.with(|p| p.borrow().by_text.get(text).cloned()) {
        return Ok(r);
    }
    let req = Rc::new(crate::wire::read_one(text, "request_json")?);
    let weight = (text.len() <= KEPT_REQUEST_LEN)
        .then(|| weight(text, &req, KEPT_REQUEST_WEIGHT))
        .flatten();
    if let Some(weight) = weight {
        PARSED.with(|p| {
            let mut p = p.borrow_mut();
            if p.by_text.len() >= KEPT_REQUESTS || p.bytes + weight > KEPT_REQUEST_BYTES {
                p.by_text = Default::default();
                p.bytes = 0;
            }
            p.bytes += weight;
            p.by_text.insert(text.into(), Rc::clone(&req));
        });
    }
    Ok(req)
}

/// `hiera_lookup_key` without the pointers.
pub(crate) fn lookup_key_json(session: &Session, key: &str) -> Answer {
    test_hook([key]);
    Answer::of_lookup(session.lookup_key(key))
}

/// `hiera_lookup_many` without the pointers: the status and the text of
/// `results_json`.
pub(crate) fn lookup_many_json(session: &Session, text: &str) -> Answer {
    let requests = match crate::wire::parse_requests(text, "requests_json") {
        Ok(r) => r,
        Err(e) => return Answer::invalid(&e),
    };
    let mut out = String::from("[");
    for (i, r) in requests.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        match r {
            Ok(req) => {
                test_hook(req.lookup.keys.iter().map(String::as_str));
                if req.explain {
                    out.push_str(&respond(session, req));
                } else {
                    push_response_json(&session.lookup(&req.lookup), None, &mut out);
                }
            }
            Err(e) => push_response_json(&Err(e.clone()), None, &mut out),
        }
    }
    out.push(']');
    Answer::ok(out)
}

/// `hiera_lookup_keys` without the pointers: each key looked up as an
/// automatic parameter lookup, in order, up to the first that fails.
pub(crate) fn lookup_keys_json(session: &Session, text: &str, options: &str) -> Answer {
    let scope = match keys_options_from_json(options) {
        Ok(o) => o,
        Err(e) => return Answer::invalid(&e),
    };
    let keys = match crate::wire::parse_keys(text, "keys_json") {
        Ok(k) => k,
        Err(e) => return Answer::invalid(&e),
    };
    test_hook(keys.iter().map(String::as_str));
    // One scope at one moment (a class's automatic parameter lookups): the
    // keys are one batch (Session::lookup_batch).
    let mut out = String::from("[");
    session.lookup_batch(&scope, &keys, |_, outcome| {
        if out.len() > 1 {
            out.push(',');
        }
        push_response_json(&outcome, None, &mut out);
        outcome.is_ok()
    });
    out.push(']');
    Answer::ok(out)
}

/// A field of an options object that lists variable names.
fn names_field(field: &str, v: &Value) -> Result<Vec<String>, Error> {
    let invalid = || {
        Error::new(
            ErrorKind::InvalidArgument,
            format!("options_json: '{field}' must be an array of strings"),
        )
    };
    let Value::Array(a) = v else {
        return Err(invalid());
    };
    a.iter()
        .map(|n| n.as_str().map(str::to_string).ok_or_else(invalid))
        .collect()
}

/// Decodes `options_json` of `hiera_lookup_keys`: `{"local_variables":
/// [NAME, ...], "known_variables": N, "hiera3_variables": {...}}`, every
/// field optional; the scope fields of each key's request.
fn keys_options_from_json(text: &str) -> Result<LookupRequest, Error> {
    let invalid = |m: String| Error::new(ErrorKind::InvalidArgument, m);
    let Value::Hash(fields) = input_json(text, "options_json")? else {
        return Err(invalid("options_json must be a JSON object".into()));
    };
    let mut scope = LookupRequest::default();
    for (k, v) in fields.iter() {
        match (k.as_str().unwrap_or_default(), v) {
            (_, Value::Nil) => {}
            ("local_variables", v) => scope.local_variables = names_field("local_variables", v)?,
            ("known_variables", Value::Int(n)) if *n >= 0 => {
                scope.known_variables = Some(usize::try_from(*n).unwrap_or(usize::MAX))
            }
            ("known_variables", _) => {
                return Err(invalid(
                    "options_json: 'known_variables' must be a non-negative integer".into(),
                ))
            }
            ("hiera3_variables", Value::Hash(h)) => scope.hiera3_variables = Some(h.clone()),
            ("hiera3_variables", _) => {
                return Err(invalid(
                    "options_json: 'hiera3_variables' must be an object".into(),
                ))
            }
            (name, _) => return Err(invalid(format!("options_json: unknown field '{name}'"))),
        }
    }
    Ok(scope)
}

/// Makes a session: binds a configuration to one scope.
///
/// `scope_json` is a JSON object, the variable map, as the CLI's `--scope`
/// file: top-scope variables, `facts`, `trusted`, ... (`{}` for none).
///
/// Returns:
/// - `HIERA_OK`: `*out` is the new session (free it with
///   `hiera_session_free`); `*error_json` is not written.
/// - `HIERA_INVALID_ARGUMENT`: `scope_json` is not UTF-8 or not a JSON
///   object; `*error_json` is an error object; `*out` is not written.
/// - `HIERA_NULL_ARGUMENT`, `HIERA_PANIC`: nothing is written.
///
/// Ownership: `h` and `scope_json` are borrowed for the call; the session
/// holds its own reference to the configuration. `*error_json` belongs to the
/// caller: free it with `hiera_string_free`.
/// Threads: any thread; many threads may make sessions from one `hiera` at
/// once.
///
/// # Safety
/// `h` is NULL or a live handle from `hiera_open`; `scope_json` is NULL or a
/// NUL-terminated string; `out` and `error_json` are NULL or valid for a
/// write of a pointer.
#[no_mangle]
pub unsafe extern "C" fn hiera_session_new(
    h: *const hiera,
    scope_json: *const c_char,
    out: *mut *mut hiera_session,
    error_json: *mut *mut c_char,
) -> hiera_status {
    guard(hiera_status::HIERA_PANIC, || {
        if h.is_null() || scope_json.is_null() || out.is_null() || error_json.is_null() {
            return hiera_status::HIERA_NULL_ARGUMENT;
        }
        // SAFETY: `h` is non-NULL and, per the contract, a live handle from
        // `hiera_open`; only shared access is taken.
        let config = unsafe { &*h };
        // SAFETY: checked non-NULL; the caller guarantees a NUL-terminated
        // string valid for the duration of the call.
        let scope = unsafe { input_str(scope_json, "scope_json") }.and_then(scope_from_json);
        let made = scope.map(|scope| hiera_session {
            inner: Arc::new(Session::new(config.inner.clone(), scope)),
        });
        // SAFETY: `out` and `error_json` are non-NULL and, per the contract, writable.
        unsafe { write_made(made, out, error_json) }
    })
}

/// Decodes `options_json` of `hiera_session_overlay`: `{"hiera3_variables":
/// {...}, "deferred": [NAME, ...]}`, every field optional (null: its
/// default); `plan` and unknown fields are an error.
fn overlay_options_from_json(text: &str) -> Result<(Map, Vec<String>), Error> {
    let invalid = |m: &str| Error::new(ErrorKind::InvalidArgument, m.to_string());
    let Value::Hash(fields) = input_json(text, "options_json")? else {
        return Err(invalid("options_json must be a JSON object"));
    };
    let (mut hiera3_variables, mut deferred) = (Map::default(), Vec::new());
    for (k, v) in fields.iter() {
        match (k.as_str().unwrap_or_default(), v) {
            (_, Value::Nil) => {}
            ("hiera3_variables", Value::Hash(h)) => hiera3_variables = h.clone(),
            ("hiera3_variables", _) => {
                return Err(invalid(
                    "options_json: 'hiera3_variables' must be an object",
                ))
            }
            ("deferred", v) => deferred = names_field("deferred", v)?,
            ("plan", _) => return Err(invalid(
                "options_json: an overlay searches its parent's hierarchy: 'plan' is the parent's",
            )),
            (name, _) => {
                return Err(Error::new(
                    ErrorKind::InvalidArgument,
                    format!("options_json: unknown field '{name}'"),
                ))
            }
        }
    }
    Ok((hiera3_variables, deferred))
}

/// Decodes `options_json` of `hiera_session_new_with`: `{"plan": BOOL,
/// "hiera3_variables": {...}}`, every field optional (null: its default);
/// unknown fields are an error.
pub(crate) fn session_options_from_json(text: &str) -> Result<SessionOptions, Error> {
    let invalid = |m: String| Error::new(ErrorKind::InvalidArgument, m);
    let Value::Hash(fields) = input_json(text, "options_json")? else {
        return Err(invalid("options_json must be a JSON object".into()));
    };
    let mut options = SessionOptions::default();
    for (k, v) in fields.iter() {
        match (k.as_str().unwrap_or_default(), v) {
            (_, Value::Nil) => {}
            ("plan", Value::Bool(b)) => options.plan = *b,
            ("plan", _) => {
                return Err(invalid("options_json: 'plan' must be true or false".into()))
            }
            ("hiera3_variables", Value::Hash(h)) => options.hiera3_variables = h.clone(),
            ("hiera3_variables", _) => {
                return Err(invalid(
                    "options_json: 'hiera3_variables' must be an object".into(),
                ))
            }
            (name, _) => return Err(invalid(format!("options_json: unknown field '{name}'"))),
        }
    }
    Ok(options)
}

/// Makes a session, as `hiera_session_new`, with options:
///
/// `options_json` is a JSON object, every field optional:
/// `{"plan": false, "hiera3_variables": {}}`.
/// - `plan: true`: the lookups of a plan (Puppet's script compiler): a
///   hiera.yaml's `plan_hierarchy`, when it has one, replaces its
///   `hierarchy`.
/// - `hiera3_variables`: variables only a Hiera 3 global hiera.yaml and
///   its data see, as Puppet's `Hiera::Scope` gives them
///   (`calling_class`, `calling_class_path`, `calling_module`: always
///   defined there, an empty string being undefined).
///
/// Returns what `hiera_session_new` returns (`HIERA_INVALID_ARGUMENT` also
/// for a bad `options_json`).
///
/// Ownership: as `hiera_session_new`; `options_json` is borrowed for the
/// call.
/// Threads: as `hiera_session_new`.
///
/// # Safety
/// As `hiera_session_new`; `options_json` is NULL or a NUL-terminated
/// string.
#[no_mangle]
pub unsafe extern "C" fn hiera_session_new_with(
    h: *const hiera,
    scope_json: *const c_char,
    options_json: *const c_char,
    out: *mut *mut hiera_session,
    error_json: *mut *mut c_char,
) -> hiera_status {
    guard(hiera_status::HIERA_PANIC, || {
        if h.is_null()
            || scope_json.is_null()
            || options_json.is_null()
            || out.is_null()
            || error_json.is_null()
        {
            return hiera_status::HIERA_NULL_ARGUMENT;
        }
        // SAFETY: `h` is non-NULL and, per the contract, a live handle from
        // `hiera_open`; only shared access is taken.
        let config = unsafe { &*h };
        // SAFETY: both checked non-NULL; the caller guarantees NUL-terminated
        // strings valid for the duration of the call.
        let made = unsafe { input_str(scope_json, "scope_json") }
            .and_then(scope_from_json)
            .and_then(|scope| {
                // SAFETY: as above.
                let options = unsafe { input_str(options_json, "options_json") }
                    .and_then(session_options_from_json)?;
                Ok(hiera_session {
                    inner: Arc::new(Session::with_options(config.inner.clone(), scope, options)),
                })
            });
        // SAFETY: `out` and `error_json` are non-NULL and, per the contract, writable.
        unsafe { write_made(made, out, error_json) }
    })
}

/// Makes an overlay session: `parent`'s variables with `vars_json`'s over
/// them, as a Puppet class or resource scope adds its own variables to a
/// compile's top scope.
///
/// `vars_json` is a JSON object, the variables to add or replace (`{}` for
/// none). `options_json` is a JSON object, every field optional:
/// `{"hiera3_variables": {}, "deferred": []}`. `hiera3_variables`: as
/// `hiera_session_new_with`'s, the overlay's own, not its parent's.
/// `deferred`: names of more variables of the overlay whose values the
/// configuration's host gives, through its `call` (`{"kind": "variable",
/// "key": NAME}`), when a lookup first reads one (once per overlay): for
/// big values that data seldom names, such as a class's parameters; it
/// needs a configuration opened with `hiera_open_with_host`. An overlay
/// always searches its parent's `plan` hierarchy.
///
/// The overlay shares its parent's snapshot and caches: whatever read none
/// of the variables the overlay changes (a hierarchy resolved from facts, a
/// lookup whose data names no class variable) is computed once for both,
/// so an overlay costs what its own variables change, not a new session.
/// An overlay of an overlay is an overlay of that overlay's parent with
/// both sets of variables.
///
/// Returns what `hiera_session_new` returns (`HIERA_INVALID_ARGUMENT` also
/// for a bad `vars_json` or `options_json`, or one with `plan`).
///
/// Ownership: `parent`, `vars_json` and `options_json` are borrowed for the
/// call; the overlay holds its own reference to its parent, which may be
/// freed first. Free the overlay with `hiera_session_free`.
/// Threads: any thread, also while other threads look up through `parent`;
/// the overlay is shared by threads like any session.
///
/// # Safety
/// `parent` is NULL or a live session; `vars_json` and `options_json` are
/// NULL or NUL-terminated strings; `out` and `error_json` are NULL or valid
/// for a write of a pointer.
#[no_mangle]
pub unsafe extern "C" fn hiera_session_overlay(
    parent: *const hiera_session,
    vars_json: *const c_char,
    options_json: *const c_char,
    out: *mut *mut hiera_session,
    error_json: *mut *mut c_char,
) -> hiera_status {
    guard(hiera_status::HIERA_PANIC, || {
        if parent.is_null()
            || vars_json.is_null()
            || options_json.is_null()
            || out.is_null()
            || error_json.is_null()
        {
            return hiera_status::HIERA_NULL_ARGUMENT;
        }
        // SAFETY: `parent` is non-NULL and, per the contract, a live session;
        // only shared access is taken.
        let parent = unsafe { &*parent };
        // SAFETY: both checked non-NULL; the caller guarantees NUL-terminated
        // strings valid for the duration of the call.
        let made = unsafe { input_str(vars_json, "vars_json") }
            .and_then(|text| {
                scope_from_json(text).map_err(|e| {
                    Error::new(e.kind, e.message.replace("scope_json", "vars_json"))
                })
            })
            .and_then(|vars| {
                // SAFETY: as above.
                let text = unsafe { input_str(options_json, "options_json") }?;
                let (hiera3_variables, deferred) = overlay_options_from_json(text)?;
                if !deferred.is_empty() && parent.inner.hiera().options().host.is_none() {
                    return Err(Error::new(
                        ErrorKind::InvalidArgument,
                        "options_json: 'deferred' variables are asked of the host: the configuration has none (hiera_open_with_host)",
                    ));
                }
                let deferred: Vec<&str> = deferred.iter().map(String::as_str).collect();
                Ok(hiera_session {
                    inner: Arc::new(parent.inner.overlay(vars, hiera3_variables, &deferred)),
                })
            });
        // SAFETY: `out` and `error_json` are non-NULL and, per the contract, writable.
        unsafe { write_made(made, out, error_json) }
    })
}

/// Frees a session made by `hiera_session_new`, `hiera_session_new_with` or
/// `hiera_session_overlay`. NULL is allowed and does nothing.
///
/// Ownership: takes back `s`, which must not be used afterwards and must be
/// freed only once.
/// Threads: any thread, once no other call is using `s`.
///
/// # Safety
/// `s` is NULL or a session from `hiera_session_new` that was not freed yet.
#[no_mangle]
pub unsafe extern "C" fn hiera_session_free(s: *mut hiera_session) {
    // SAFETY: the caller guarantees that `s` is NULL or came from
    // `hiera_session_new` (`write_made`), is freed once and is no longer in
    // use.
    guard((), || unsafe { drop_made(s) })
}

/// Looks up one request.
///
/// `request_json` is strict JSON (RFC 8259: no comments, no `NaN`, nothing
/// after the object; as every JSON input of this API), the request object
/// of the CLI's `--batch` mode:
/// `{"key": K | [K, ...], "merge": ..., "default": ..., "default_values_hash":
/// {...}, "override": {...}, "explain": bool, "local_variables": [NAME, ...],
/// "hiera3_variables": {...}}`; only `key` is required and unknown fields
/// are an error. `local_variables` names the variables the lookup's scope
/// has beyond the session's (a class's parameters and locals): their values
/// are asked of the configuration's host (`hiera_call_fn`, kind `variable`)
/// when the lookup reads one, and what reads one is not kept in the
/// session's caches; it needs `hiera_open_with_host`. `hiera3_variables`:
/// the lookup's own Hiera 3 calling variables. `"known_variables": N`
/// (with a host) makes `local_variables` cheaper for a host whose lookups
/// come from many scopes: the session numbers the plain variable names its
/// lookups read (0, 1, ...); N says that the host has checked the first N
/// for this lookup's scope, and `local_variables` lists only those of them
/// the scope gives itself. A name the lookup reads that is not among the
/// first N is asked of the host (`{"kind": "variable", "key": NAME,
/// "index": I}`: the scope's value, its own or the top scope's) and
/// numbered I: the host learns the session's names in order, and checks
/// them for its next lookups.
///
/// Returns, with `*result_json`:
/// - `HIERA_OK`: the value as JSON (the wire format of `--render-as json`,
///   compact). With `"explain": true`: `{"value": V, "explain": TEXT}`.
/// - `HIERA_NOT_FOUND`: NULL. With `"explain": true`:
///   `{"not_found": true, "explain": TEXT}`.
/// - `HIERA_ERROR`: an error object `{"kind", "message", "file"?, "line"?}`
///   (with `"explain": TEXT` added when an explanation was asked for).
/// - `HIERA_INVALID_ARGUMENT`: an error object (kind `invalid_argument`):
///   `request_json` is not UTF-8, not JSON, or not a valid request. A
///   syntax error's message names the byte offset (and the request member
///   it is in): `request_json is not valid JSON: expected ',' or '}', found
///   '/' at byte 14`.
/// - `HIERA_NULL_ARGUMENT`, `HIERA_PANIC`: `*result_json` is not written.
///
/// Ownership: `s` and `request_json` are borrowed for the call;
/// `*result_json` (when not NULL) belongs to the caller: free it with
/// `hiera_string_free`.
/// Threads: many threads may call this on one session at once.
///
/// # Safety
/// `s` is NULL or a live session; `request_json` is NULL or a NUL-terminated
/// string; `result_json` is NULL or valid for a write of a pointer.
#[no_mangle]
pub unsafe extern "C" fn hiera_lookup(
    s: *const hiera_session,
    request_json: *const c_char,
    result_json: *mut *mut c_char,
) -> hiera_status {
    let missing = s.is_null() || request_json.is_null();
    let answer = || {
        // SAFETY: `s` is non-NULL and, per the contract, a live session;
        // only shared access is taken, since other threads may use it too.
        let session = unsafe { &*s };
        // SAFETY: checked non-NULL; the caller guarantees a NUL-terminated
        // string valid for the duration of the call.
        let bytes = unsafe { CStr::from_ptr(request_json) }.to_bytes();
        // The most common request, `{"key":"NAME"}`: the key looked up
        // where it lies in the text, without a UTF-8 check of the whole
        // text (none at all when NAME is ASCII) and no request made.
        if let Some((key, ascii)) = crate::wire::key_only(bytes) {
            let key = if ascii {
                // SAFETY: `key_only` said every byte of `key` is below
                // 0x80, which is UTF-8.
                Some(unsafe { std::str::from_utf8_unchecked(key) })
            } else {
                std::str::from_utf8(key).ok()
            };
            // A key that is not UTF-8 is refused below, with the offset.
            if let Some(key) = key {
                return lookup_key_json(&session.inner, key);
            }
        }
        match super::utf8_input(bytes, "request_json") {
            Ok(text) => lookup_json(&session.inner, text),
            Err(e) => Answer::invalid(&e),
        }
    };
    // SAFETY: `result_json` is NULL or writable, per the contract.
    unsafe { answer_export(missing, result_json, answer) }
}

/// Looks up one key with Puppet's defaults: what `hiera_lookup` answers for
/// the request `{"key": KEY}` (first found, no default, no explanation),
/// without a JSON request to build and parse. The quickest way to look up
/// the automatic parameters of a catalog.
///
/// `key` points to `key_len` bytes of UTF-8 (a NUL terminator is not needed
/// and not read; the key may be empty).
///
/// Returns, with `*result_json`, as `hiera_lookup`:
/// - `HIERA_OK`: the value as JSON;
/// - `HIERA_NOT_FOUND`: NULL;
/// - `HIERA_ERROR`: an error object `{"kind", "message", "file"?, "line"?}`;
/// - `HIERA_INVALID_ARGUMENT`: an error object (kind `invalid_argument`):
///   the key is not UTF-8;
/// - `HIERA_NULL_ARGUMENT` (`s`, `key` or `result_json` is NULL),
///   `HIERA_PANIC`: `*result_json` is not written.
///
/// Ownership: `s` and `key` are borrowed for the call; `*result_json` (when
/// not NULL) belongs to the caller: free it with `hiera_string_free`.
/// Threads: many threads may call this on one session at once.
///
/// # Safety
/// `s` is NULL or a live session; `key` is NULL or valid for reads of
/// `key_len` bytes; `result_json` is NULL or valid for a write of a pointer.
#[no_mangle]
pub unsafe extern "C" fn hiera_lookup_key(
    s: *const hiera_session,
    key: *const c_char,
    key_len: usize,
    result_json: *mut *mut c_char,
) -> hiera_status {
    let missing = s.is_null() || key.is_null();
    let answer = || {
        // SAFETY: `s` is non-NULL and, per the contract, a live session;
        // only shared access is taken, since other threads may use it too.
        let session = unsafe { &*s };
        // SAFETY: `key` is non-NULL and, per the contract, valid for reads
        // of `key_len` bytes that are not written during the call.
        let bytes = unsafe { std::slice::from_raw_parts(key.cast::<u8>(), key_len) };
        match std::str::from_utf8(bytes) {
            Ok(key) => lookup_key_json(&session.inner, key),
            Err(e) => Answer::invalid(&Error::new(
                ErrorKind::InvalidArgument,
                format!(
                    "key is not valid UTF-8 (invalid byte at offset {})",
                    e.valid_up_to()
                ),
            )),
        }
    };
    // SAFETY: `result_json` is NULL or writable, per the contract.
    unsafe { answer_export(missing, result_json, answer) }
}

/// Looks up many requests in one call (a catalog's worth of keys).
///
/// `requests_json` is a JSON array of request objects (see `hiera_lookup`).
///
/// Returns, with `*results_json`:
/// - `HIERA_OK`: a JSON array with one response per request, in order, as
///   the CLI's `--batch` mode writes them: `{"value": V}`,
///   `{"not_found": true}` or `{"error": {...}}`, each with
///   `"explain": TEXT` when that request asked for it. A request that is not
///   valid (unknown field, no key, ...) gets an `{"error": ...}` entry of kind
///   `invalid_argument`; the call still returns `HIERA_OK`.
/// - `HIERA_INVALID_ARGUMENT`: an error object: `requests_json` is not UTF-8,
///   not JSON, or not an array.
/// - `HIERA_NULL_ARGUMENT`, `HIERA_PANIC`: `*results_json` is not written.
///
/// Ownership: `s` and `requests_json` are borrowed for the call;
/// `*results_json` belongs to the caller: free it with `hiera_string_free`.
/// Threads: many threads may call this on one session at once.
///
/// # Safety
/// `s` is NULL or a live session; `requests_json` is NULL or a
/// NUL-terminated string; `results_json` is NULL or valid for a write of a
/// pointer.
#[no_mangle]
pub unsafe extern "C" fn hiera_lookup_many(
    s: *const hiera_session,
    requests_json: *const c_char,
    results_json: *mut *mut c_char,
) -> hiera_status {
    let missing = s.is_null() || requests_json.is_null();
    let answer = || {
        // SAFETY: `s` is non-NULL and, per the contract, a live session;
        // only shared access is taken, since other threads may use it too.
        let session = unsafe { &*s };
        // SAFETY: checked non-NULL; the caller guarantees a NUL-terminated
        // string valid for the duration of the call.
        match unsafe { input_str(requests_json, "requests_json") } {
            Ok(text) => lookup_many_json(&session.inner, text),
            Err(e) => Answer::invalid(&e),
        }
    };
    // SAFETY: `results_json` is NULL or writable, per the contract.
    unsafe { answer_export(missing, results_json, answer) }
}

/// Looks up keys as Puppet's automatic parameter lookup does (a class's
/// parameters, `<class>::<param>`): each key alone (first found, no merge
/// argument, no default), in order, up to the first that fails.
///
/// `keys_json` is a JSON array of strings. `options_json` is a JSON object,
/// every field optional (`{}` for none): `{"local_variables": [NAME, ...],
/// "known_variables": N, "hiera3_variables": {...}}`, as the request
/// fields of `hiera_lookup`
/// (the variables of the lookups' scope beyond the session's, asked of the
/// host; the scope's Hiera 3 calling variables).
///
/// The keys are one scope's, at one moment (nothing changes its variables
/// between them): the host's `call` is asked about a variable of that scope
/// at most once for all of them, and a name it answered with an `index`
/// counts as checked (`known_variables`) for the keys after.
///
/// Returns, with `*results_json`:
/// - `HIERA_OK`: a JSON array with one response per key, in order, as
///   `hiera_lookup_many` writes them: `{"value": V}` or
///   `{"not_found": true}`; when a lookup fails, its `{"error": {...}}` is
///   the last entry and the keys after it are not looked up.
/// - `HIERA_INVALID_ARGUMENT`: an error object: `keys_json` is not UTF-8,
///   not JSON, or not an array of strings, or `options_json` is not valid.
/// - `HIERA_NULL_ARGUMENT`, `HIERA_PANIC`: `*results_json` is not written.
///
/// Ownership: `s`, `keys_json` and `options_json` are borrowed for the
/// call; `*results_json` belongs to the caller: free it with
/// `hiera_string_free`.
/// Threads: many threads may call this on one session at once.
///
/// # Safety
/// `s` is NULL or a live session; `keys_json` and `options_json` are NULL
/// or NUL-terminated strings; `results_json` is NULL or valid for a write
/// of a pointer.
#[no_mangle]
pub unsafe extern "C" fn hiera_lookup_keys(
    s: *const hiera_session,
    keys_json: *const c_char,
    options_json: *const c_char,
    results_json: *mut *mut c_char,
) -> hiera_status {
    let missing = s.is_null() || keys_json.is_null() || options_json.is_null();
    let answer = || {
        // SAFETY: `s` is non-NULL and, per the contract, a live session;
        // only shared access is taken, since other threads may use it too.
        let session = unsafe { &*s };
        // SAFETY: checked non-NULL; the caller guarantees NUL-terminated
        // strings valid for the duration of the call.
        let (options, keys) = unsafe {
            (
                input_str(options_json, "options_json"),
                input_str(keys_json, "keys_json"),
            )
        };
        match keys.and_then(|k| Ok((k, options?))) {
            Ok((keys, options)) => lookup_keys_json(&session.inner, keys, options),
            Err(e) => Answer::invalid(&e),
        }
    };
    // SAFETY: `results_json` is NULL or writable, per the contract.
    unsafe { answer_export(missing, results_json, answer) }
}

#[cfg(test)]
mod tests {
    use super::super::hiera::{hiera_free, hiera_open};
    use super::super::string::hiera_string_free;
    use super::*;
    use hiera_status::*;
    use std::ffi::{CStr, CString};
    use std::ptr;

    const UNSET: *mut c_char = 0x30 as *mut c_char;

    /// The example control repo, opened through the C ABI, with Puppet's
    /// recorded scope for web01.example.com.
    struct Fixture {
        h: *mut hiera,
        s: *mut hiera_session,
    }

    impl Fixture {
        fn new() -> Fixture {
            let root = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");
            let opts = CString::new(format!(
                r#"{{"hiera_config":"{root}/hiera.yaml","environmentpath":"{root}/environments"}}"#
            ))
            .unwrap();
            let expected: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(format!("{root}/expected.json")).unwrap(),
            )
            .unwrap();
            let scope = CString::new(expected["scope"].to_string()).unwrap();
            let (mut h, mut s, mut err) = (ptr::null_mut(), ptr::null_mut(), UNSET);
            // SAFETY: valid C strings and pointers to locals.
            unsafe {
                assert_eq!(hiera_open(opts.as_ptr(), &mut h, &mut err), HIERA_OK);
                assert_eq!(
                    hiera_session_new(h, scope.as_ptr(), &mut s, &mut err),
                    HIERA_OK
                );
            }
            assert_eq!(err, UNSET);
            Fixture { h, s }
        }

        /// Calls hiera_lookup; returns the status and the result (None for NULL).
        fn lookup(&self, request: &[u8]) -> (hiera_status, Option<String>) {
            let req = CString::new(request).unwrap();
            let mut out = UNSET;
            // SAFETY: a live session, a valid C string and a local out-parameter.
            let st = unsafe { hiera_lookup(self.s, req.as_ptr(), &mut out) };
            assert_ne!(out, UNSET, "result_json is written for {st:?}");
            (st, take(out))
        }

        fn many(&self, requests: &str) -> (hiera_status, String) {
            let req = CString::new(requests).unwrap();
            let mut out = UNSET;
            // SAFETY: a live session, a valid C string and a local out-parameter.
            let st = unsafe { hiera_lookup_many(self.s, req.as_ptr(), &mut out) };
            (st, take(out).unwrap())
        }
    }

    impl Drop for Fixture {
        fn drop(&mut self) {
            // SAFETY: both handles came from the C ABI and are freed once;
            // the session may outlive its configuration.
            unsafe {
                hiera_free(self.h);
                hiera_session_free(self.s);
            }
        }
    }

    fn take(p: *mut c_char) -> Option<String> {
        if p.is_null() {
            return None;
        }
        // SAFETY: `p` is a string returned by libhiera, read then freed once.
        let s = unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_string();
        // SAFETY: as above.
        unsafe { hiera_string_free(p) };
        Some(s)
    }

    #[test]
    fn statuses_and_results() {
        let f = Fixture::new();
        assert_eq!(
            f.lookup(br#"{"key":"ntp::service_name"}"#),
            (HIERA_OK, Some("\"ntpsec\"".into()))
        );
        assert_eq!(
            f.lookup(br#"{"key":"profile::web::settings"}"#),
            (HIERA_OK, Some(r#"{"workers":4,"listen":[80,443]}"#.into()))
        );
        assert_eq!(
            f.lookup(br#"{"key":"no::such::key"}"#),
            (HIERA_NOT_FOUND, None)
        );
        assert_eq!(
            f.lookup(br#"{"key":"no::such::key","default":[1]}"#),
            (HIERA_OK, Some("[1]".into()))
        );
        let (st, err) = f.lookup(br#"{"key":"motd","merge":"bogus"}"#);
        assert_eq!(st, HIERA_ERROR);
        assert!(err
            .unwrap()
            .starts_with(r#"{"kind":"invalid_argument","message":"#));
        let (st, err) = f.lookup(br#"{"key":"motd","color":"red"}"#);
        assert_eq!(st, HIERA_INVALID_ARGUMENT);
        assert_eq!(
            err.unwrap(),
            r#"{"kind":"invalid_argument","message":"unknown request field 'color'"}"#
        );
        let (st, err) = f.lookup(br#"{"key":"#);
        assert_eq!(st, HIERA_INVALID_ARGUMENT);
        assert_eq!(
            err.unwrap(),
            r#"{"kind":"invalid_argument","message":"request_json is not valid JSON: expected a value, found the end of the input at byte 7 (in member 'key')"}"#
        );
        // Requests are strict JSON: no comments.
        let (st, err) = f.lookup(br#"{"key":"motd" /* c */}"#);
        assert_eq!(st, HIERA_INVALID_ARGUMENT);
        assert_eq!(
            err.unwrap(),
            r#"{"kind":"invalid_argument","message":"request_json is not valid JSON: expected ',' or '}', found '/' at byte 14"}"#
        );
        let (st, err) = f.lookup(b"{\"key\":\"\xff\"}");
        assert_eq!(st, HIERA_INVALID_ARGUMENT);
        assert_eq!(
            err.unwrap(),
            r#"{"kind":"invalid_argument","message":"request_json is not valid UTF-8 (invalid byte at offset 8)"}"#
        );
    }

    #[test]
    fn repeated_requests_answer_as_the_first_time() {
        // Requests are kept parsed per thread by their text: asked again
        // (also past the kept number, which forgets them all), each answers
        // as it did the first time, errors included.
        let f = Fixture::new();
        let texts: Vec<Vec<u8>> = [
            r#"{"key":"no::such::key","default":[1]}"#,
            r#"{"key":"profile::web::settings","merge":"deep"}"#,
            r#"{"key":["no::such::key","ntp::service_name"]}"#,
            r#"{"key":"motd","merge":"bogus"}"#,
            r#"{"key":"motd","color":"red"}"#,
            r#"{"key":"ké","default":"é"}"#,
            r#"{"key":"ntp::service_name","explain":true}"#,
            r#"{"key": "ntp::service_name"}"#,
        ]
        .iter()
        .map(|t| t.as_bytes().to_vec())
        .collect();
        let first: Vec<_> = texts.iter().map(|t| f.lookup(t)).collect();
        assert_eq!(first[0], (HIERA_OK, Some("[1]".into())));
        assert_eq!(first[2], (HIERA_OK, Some("\"ntpsec\"".into())));
        assert_eq!(first[3].0, HIERA_ERROR);
        assert_eq!(first[4].0, HIERA_INVALID_ARGUMENT);
        assert_eq!(first[5], (HIERA_OK, Some("\"é\"".into())));
        for _ in 0..2 {
            for (t, want) in texts.iter().zip(&first) {
                assert_eq!(&f.lookup(t), want, "{}", String::from_utf8_lossy(t));
            }
        }
        for i in 0..KEPT_REQUESTS + 10 {
            let text = format!(r#"{{"key":"no::such::key","default":{i}}}"#);
            assert_eq!(f.lookup(text.as_bytes()), (HIERA_OK, Some(i.to_string())));
            if i % 1000 == 0 {
                for (t, want) in texts.iter().zip(&first) {
                    assert_eq!(&f.lookup(t), want);
                }
            }
        }
        assert!(PARSED.with(|p| p.borrow().by_text.len()) <= KEPT_REQUESTS);
        // A text longer than the kept ones is answered all the same.
        let long = format!(
            r#"{{"key":"no::such::key","default":"{}"}}"#,
            "x".repeat(KEPT_REQUEST_LEN)
        );
        for _ in 0..2 {
            let (st, out) = f.lookup(long.as_bytes());
            assert_eq!(
                (st, out.map(|o| o.len())),
                (HIERA_OK, Some(KEPT_REQUEST_LEN + 2))
            );
        }
        // A short text whose parse is heavy (a default of many empty
        // Arrays) is answered all the same, and not kept; a light one is
        // kept, weighed at least its text.
        let nodes = (KEPT_REQUEST_LEN - 40) / 3;
        let heavy = format!(
            r#"{{"key":"no::such::key","default":[{}[]]}}"#,
            "[],".repeat(nodes - 1)
        );
        assert!(heavy.len() <= KEPT_REQUEST_LEN);
        let parsed = crate::wire::read_one(&heavy, "request_json").unwrap();
        assert_eq!(weight(&heavy, &parsed, KEPT_REQUEST_WEIGHT), None);
        let want = format!("[{}[]]", "[],".repeat(nodes - 1));
        for _ in 0..2 {
            assert_eq!(f.lookup(heavy.as_bytes()), (HIERA_OK, Some(want.clone())));
            assert!(!PARSED.with(|p| p.borrow().by_text.contains_key(heavy.as_str())));
        }
        let light = r#"{"key":"no::such::key","default":{"a":["b",1]}}"#;
        let parsed = crate::wire::read_one(light, "request_json").unwrap();
        let w = weight(light, &parsed, KEPT_REQUEST_WEIGHT).unwrap();
        assert!(w >= light.len() + 4 * std::mem::size_of::<Value>(), "{w}");
        f.lookup(light.as_bytes());
        assert!(PARSED.with(|p| p.borrow().by_text.contains_key(light)));
    }

    #[test]
    fn explain_rule() {
        let f = Fixture::new();
        let (st, out) = f.lookup(br#"{"key":"ntp::service_name","explain":true}"#);
        assert_eq!(st, HIERA_OK);
        let v: serde_json::Value = serde_json::from_str(&out.unwrap()).unwrap();
        assert_eq!(v["value"], "ntpsec");
        assert!(v["explain"].as_str().unwrap().contains("ntp::service_name"));
        let (st, out) = f.lookup(br#"{"key":"no::such::key","explain":true}"#);
        assert_eq!(st, HIERA_NOT_FOUND);
        let v: serde_json::Value = serde_json::from_str(&out.unwrap()).unwrap();
        assert_eq!(v["not_found"], true);
        assert!(v["explain"].is_string());
        let (st, out) = f.lookup(br#"{"key":"motd","merge":"bogus","explain":true}"#);
        assert_eq!(st, HIERA_ERROR);
        let v: serde_json::Value = serde_json::from_str(&out.unwrap()).unwrap();
        assert_eq!(v["kind"], "invalid_argument");
        assert!(v["explain"].is_string());
        assert_eq!(f.lookup(br#"{"key":"motd","explain":false}"#).0, HIERA_OK);
    }

    #[test]
    fn many() {
        let f = Fixture::new();
        let (st, out) = f.many(r#"[{"key":"ntp::service_name"},{"key":"nope"},{"key":"motd","merge":"bogus"},{"nokey":1},{"key":"profile::web::settings.listen.1","explain":true}]"#);
        assert_eq!(st, HIERA_OK);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let a = v.as_array().unwrap();
        assert_eq!(a.len(), 5);
        assert_eq!(a[0], serde_json::json!({"value": "ntpsec"}));
        assert_eq!(a[1], serde_json::json!({"not_found": true}));
        assert_eq!(a[2]["error"]["kind"], "invalid_argument");
        assert_eq!(a[3]["error"]["message"], "unknown request field 'nokey'");
        assert_eq!(a[4]["value"], 443);
        assert!(a[4]["explain"].is_string());
        assert_eq!(f.many("[]"), (HIERA_OK, "[]".into()));
        let (st, out) = f.many(r#"{"key":"motd"}"#);
        assert_eq!(st, HIERA_INVALID_ARGUMENT);
        assert_eq!(
            out,
            r#"{"kind":"invalid_argument","message":"requests_json must be a JSON array of requests"}"#
        );
        assert_eq!(f.many("[").0, HIERA_INVALID_ARGUMENT);
    }

    #[test]
    fn session_scope_errors() {
        let f = Fixture::new();
        let sentinel = 0x40 as *mut hiera_session;
        for (scope, msg) in [
            (&b"[1]\0"[..], "scope_json must be a JSON object"),
            (b"{\0", "scope_json is not valid JSON"),
            (b"\"\xfe\"\0", "not valid UTF-8"),
        ] {
            let (mut s, mut err) = (sentinel, UNSET);
            // SAFETY: a live configuration, NUL-terminated input, local out-parameters.
            let st = unsafe { hiera_session_new(f.h, scope.as_ptr().cast(), &mut s, &mut err) };
            assert_eq!(st, HIERA_INVALID_ARGUMENT);
            assert_eq!(s, sentinel);
            assert!(take(err).unwrap().contains(msg));
        }
    }

    #[test]
    fn null_arguments_write_nothing() {
        let f = Fixture::new();
        let req = c"{\"key\":\"motd\"}";
        let (mut s, mut out) = (0x40 as *mut hiera_session, UNSET);
        let mut err = UNSET;
        // SAFETY: each call passes exactly one NULL; everything else is valid.
        unsafe {
            assert_eq!(
                hiera_session_new(ptr::null(), c"{}".as_ptr(), &mut s, &mut err),
                HIERA_NULL_ARGUMENT
            );
            assert_eq!(
                hiera_session_new(f.h, ptr::null(), &mut s, &mut err),
                HIERA_NULL_ARGUMENT
            );
            assert_eq!(
                hiera_session_new(f.h, c"{}".as_ptr(), ptr::null_mut(), &mut err),
                HIERA_NULL_ARGUMENT
            );
            assert_eq!(
                hiera_session_new(f.h, c"{}".as_ptr(), &mut s, ptr::null_mut()),
                HIERA_NULL_ARGUMENT
            );
            assert_eq!(
                hiera_lookup(ptr::null_mut(), req.as_ptr(), &mut out),
                HIERA_NULL_ARGUMENT
            );
            assert_eq!(
                hiera_lookup(f.s, ptr::null(), &mut out),
                HIERA_NULL_ARGUMENT
            );
            assert_eq!(
                hiera_lookup(f.s, req.as_ptr(), ptr::null_mut()),
                HIERA_NULL_ARGUMENT
            );
            assert_eq!(
                hiera_lookup_many(ptr::null_mut(), c"[]".as_ptr(), &mut out),
                HIERA_NULL_ARGUMENT
            );
            assert_eq!(
                hiera_lookup_many(f.s, ptr::null(), &mut out),
                HIERA_NULL_ARGUMENT
            );
            assert_eq!(
                hiera_lookup_many(f.s, c"[]".as_ptr(), ptr::null_mut()),
                HIERA_NULL_ARGUMENT
            );
            hiera_session_free(ptr::null_mut());
        }
        assert_eq!((s, out, err), (0x40 as *mut hiera_session, UNSET, UNSET));
    }

    #[test]
    fn panics_come_back_as_hiera_panic() {
        let f = Fixture::new();
        let mut out = UNSET;
        // SAFETY: a live session, a valid C string and a local out-parameter.
        let st = unsafe {
            hiera_lookup(
                f.s,
                c"{\"key\":\"__hiera_test_panic__\"}".as_ptr(),
                &mut out,
            )
        };
        assert_eq!(st, HIERA_PANIC);
        assert_eq!(out, UNSET, "nothing is written on HIERA_PANIC");
        // SAFETY: as above.
        let st = unsafe {
            hiera_lookup_many(
                f.s,
                c"[{\"key\":\"motd\"},{\"key\":\"__hiera_test_panic__\"}]".as_ptr(),
                &mut out,
            )
        };
        assert_eq!(st, HIERA_PANIC);
        assert_eq!(out, UNSET);
        // The session is still usable afterwards.
        assert_eq!(f.lookup(br#"{"key":"ntp::service_name"}"#).0, HIERA_OK);
    }

    #[test]
    fn session_outlives_its_configuration() {
        let f = Fixture::new();
        let mut h2 = ptr::null_mut();
        let mut s2 = ptr::null_mut();
        let mut err = UNSET;
        let opts = CString::new(format!(
            r#"{{"hiera_config":"{}/examples/hiera.yaml"}}"#,
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        // SAFETY: valid handles, C strings and local out-parameters; `h2` is
        // freed before the session made from it, which is allowed.
        unsafe {
            assert_eq!(hiera_open(opts.as_ptr(), &mut h2, &mut err), HIERA_OK);
            assert_eq!(
                hiera_session_new(
                    h2,
                    c"{\"trusted\":{\"certname\":\"web01.example.com\"}}".as_ptr(),
                    &mut s2,
                    &mut err
                ),
                HIERA_OK
            );
            hiera_free(h2);
            let mut out = UNSET;
            assert_eq!(
                hiera_lookup(s2, c"{\"key\":\"motd\"}".as_ptr(), &mut out),
                HIERA_OK
            );
            assert!(take(out).unwrap().starts_with('"'));
            hiera_session_free(s2);
        }
        drop(f);
    }

    #[test]
    fn threads_share_one_session() {
        struct Shared(*mut hiera_session);
        // SAFETY: hiera_session is documented (and built) to be used by many
        // threads at once; the pointer is only read.
        unsafe impl Sync for Shared {}
        let f = Fixture::new();
        let shared = Shared(f.s);
        let shared = &shared;
        std::thread::scope(|sc| {
            for t in 0..8 {
                sc.spawn(move || {
                    for i in 0..50 {
                        let (req, want) = if (t + i) % 2 == 0 {
                            (c"{\"key\":\"ntp::service_name\"}", Some("\"ntpsec\""))
                        } else {
                            (c"{\"key\":\"nope\"}", None)
                        };
                        let mut out = UNSET;
                        // SAFETY: a live session shared read-only, a valid C string, a local out-parameter.
                        let st = unsafe { hiera_lookup(shared.0, req.as_ptr(), &mut out) };
                        assert_eq!(
                            st,
                            if want.is_some() {
                                HIERA_OK
                            } else {
                                HIERA_NOT_FOUND
                            }
                        );
                        assert_eq!(take(out).as_deref(), want);
                    }
                });
            }
        });
    }
}
