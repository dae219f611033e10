//! The Hiera 3 part of the C ABI (`hiera3_*`): the helpers custom Hiera 3
//! backends call (`merge_answer`, `parse_answer`, `parse_string`,
//! `datasources`) and `hiera3`, an opened Hiera 3 configuration with the
//! yaml and json backends' file caches (`hiera3_open`, `hiera3_lookup`,
//! `hiera3_free`).
//!
//! Values travel as the wire JSON of [`crate::render::to_json`], read
//! exactly: a Hash with Symbol keys is `{"__type__": "Hash", "entries":
//! [[{"__type__": "Symbol", "value": "behavior"}, ...]]}`, as the Ruby gem
//! holds it.
//!
//! The host (the program calling in) answers what only it knows through a
//! `hiera3_host`: the lookups `%{hiera('k')}` and `%{alias('k')}` make (the
//! gem's `Backend.lookup` over every configured backend) and, when it keeps
//! the scope itself, the scope's variables. Callbacks run on the calling
//! thread, during the call, and hand their answer back with the
//! `hiera3_answer_*` setters, which copy what they are given: the host keeps
//! ownership of its strings and libhiera of its own (never mix allocators).

use super::answer::Answer;
use super::string::into_c_string;
use super::{drop_made, guard, hiera_status, input_str, set_answer, write_made, write_out};
use crate::error::{Error, ErrorKind, Result};
use crate::hiera3::config::Config;
use crate::hiera3::helpers::{
    context_from_json, context_to_json, datasources_hosted, merge_answer_with_config,
};
use crate::hiera3::interpolate::{self, Context, Lookup};
use crate::hiera3::{Hiera3, ResolutionType};
use crate::render::to_json;
use crate::value::{Map, Value};
use std::ffi::{c_char, c_void, CString};
use std::path::PathBuf;

/// An opened Hiera 3 configuration (the gem's `Hiera.new(config: ...)`) and
/// the file caches of its backends, one per backend name (the gem's
/// `Backend.@backends`).
///
/// Made by `hiera3_open`, freed by `hiera3_free`.
/// Threads: any number of threads may look up through one `hiera3` at once;
/// its caches are internally synchronized.
#[allow(non_camel_case_types)]
pub struct hiera3 {
    inner: Hiera3,
}

/// The answer a host callback hands back, through `hiera3_answer_value`,
/// `hiera3_answer_error` and `hiera3_answer_seen`. A callback that sets
/// nothing answers "not found".
///
/// Made by libhiera for one callback call; valid only until the callback
/// returns. Never free it.
#[allow(non_camel_case_types)]
pub struct hiera3_answer {
    outcome: Result<Option<Value>>,
    seen: Option<Vec<String>>,
}

impl hiera3_answer {
    fn new() -> hiera3_answer {
        hiera3_answer {
            outcome: Ok(None),
            seen: None,
        }
    }
}

/// Answers `%{hiera('key')}` and `%{alias('key')}`: the gem's
/// `Backend.lookup(key, nil, scope, context[:order_override], :priority,
/// context)`.
///
/// `key` is the key (UTF-8). `context_json` is the interpolation context:
/// `{"order_override": V, "seen": ["hiera('key')", ...]}` (with `"config":
/// true` when the lookup comes from a hiera.yaml entry): a host that
/// interpolates what it finds should do so with a recursion guard holding
/// `seen`, and hand that guard's final list back with `hiera3_answer_seen`.
/// Both strings are borrowed for the duration of the call.
///
/// The callback answers through `answer` (see `hiera3_answer_value`); it must
/// not unwind (no C++ exception, no longjmp) out of the call.
#[allow(non_camel_case_types)]
pub type hiera3_lookup_fn = Option<
    unsafe extern "C" fn(
        user_data: *mut c_void,
        key: *const c_char,
        context_json: *const c_char,
        answer: *mut hiera3_answer,
    ),
>;

/// Answers a scope variable: the gem's `scope.include?(name)` and
/// `scope[name]`, for hosts that keep the scope themselves (e.g. a Ruby
/// `Hiera::Scope`). Not setting a value means the scope has no such variable.
/// `name` is borrowed for the duration of the call. It must not unwind.
#[allow(non_camel_case_types)]
pub type hiera3_scope_fn = Option<
    unsafe extern "C" fn(user_data: *mut c_void, name: *const c_char, answer: *mut hiera3_answer),
>;

/// What the host provides. Every field may be NULL.
///
/// - `lookup`: answers `hiera()`/`alias()`. NULL: the helpers find nothing;
///   `hiera3_lookup` answers them with its own configuration.
/// - `scope`: answers scope variables. NULL: they are read from the scope
///   given as JSON.
/// - `user_data`: passed to both, untouched.
#[allow(non_camel_case_types)]
#[repr(C)]
pub struct hiera3_host {
    /// Passed to the callbacks as their first argument.
    pub user_data: *mut c_void,
    /// Answers `%{hiera('k')}` and `%{alias('k')}`, or NULL.
    pub lookup: hiera3_lookup_fn,
    /// Answers scope variables, or NULL.
    pub scope: hiera3_scope_fn,
}

// The thread contract of the header, checked by the compiler.
const _: fn() = || {
    fn shared<T: Send + Sync>() {}
    shared::<hiera3>();
};

/// The [`Lookup`] made of a `hiera3_host`.
struct Host<'a> {
    host: Option<&'a hiera3_host>,
}

impl Host<'_> {
    fn delegates_lookups(&self) -> bool {
        self.host.is_some_and(|h| h.lookup.is_some())
    }
}

fn callback_error(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::Lookup, message)
}

/// A C string for a callback argument; a NUL inside is an error (the host
/// could not see past it).
fn c_arg(s: &str, what: &str) -> Result<CString> {
    CString::new(s)
        .map_err(|_| callback_error(format!("hiera3 callback: the {what} contains a NUL byte")))
}

impl Lookup for Host<'_> {
    fn lookup(&mut self, key: &str, _scope: &Value, context: &Context) -> Result<Option<Value>> {
        let Some(host) = self.host else {
            return Ok(None);
        };
        let Some(f) = host.lookup else {
            return Ok(None);
        };
        let key = c_arg(key, "key")?;
        let ctx = c_arg(&context_to_json(context), "context")?;
        let mut answer = hiera3_answer::new();
        // SAFETY: `f` is the host's callback, called as its contract says:
        // `key` and `ctx` are NUL-terminated strings alive for the call, and
        // `answer` is a live answer the callback may set through the
        // setters until it returns.
        unsafe { f(host.user_data, key.as_ptr(), ctx.as_ptr(), &mut answer) };
        if let Some(seen) = answer.seen.take() {
            context.set_seen(seen);
        }
        answer.outcome
    }

    fn scope_variable(&mut self, name: &str) -> Option<Result<Option<Value>>> {
        let host = self.host?;
        let f = host.scope?;
        let name = match c_arg(name, "variable name") {
            Ok(n) => n,
            Err(e) => return Some(Err(e)),
        };
        let mut answer = hiera3_answer::new();
        // SAFETY: `f` is the host's callback; `name` is a NUL-terminated
        // string alive for the call and `answer` a live answer.
        unsafe { f(host.user_data, name.as_ptr(), &mut answer) };
        Some(answer.outcome)
    }
}

/// Reads a wire JSON input: strict JSON, read by the protocol's reader
/// ([`crate::wire::wire_value`]); an `invalid_argument` error names the
/// input and the byte offset.
fn wire(text: &str, name: &str) -> Result<Value> {
    crate::wire::wire_value(text, name)
}

/// An optional input: NULL is `None`.
///
/// # Safety
/// `p` is NULL or a NUL-terminated string valid for `'a`.
unsafe fn optional_str<'a>(p: *const c_char, name: &str) -> Result<Option<&'a str>> {
    if p.is_null() {
        return Ok(None);
    }
    // SAFETY: non-NULL; the caller guarantees a NUL-terminated string.
    unsafe { input_str(p, name) }.map(Some)
}

/// Borrows the host, NULL being none.
///
/// # Safety
/// `host` is NULL or points to a `hiera3_host` valid for `'a`.
unsafe fn host_ref<'a>(host: *const hiera3_host) -> Option<&'a hiera3_host> {
    // SAFETY: the caller guarantees that a non-NULL `host` is valid.
    unsafe { host.as_ref() }
}

fn seen_json(seen: Vec<String>) -> String {
    to_json(&Value::array(seen.into_iter().map(Value::from).collect()))
}

/// What an export hands back: the status and `*result_json`, and the
/// optional `*guard_json`.
pub(crate) struct Outcome {
    answer: Answer,
    guard: Option<String>,
}

impl Outcome {
    fn failed(e: &Error) -> Outcome {
        Outcome {
            answer: Answer::refused(e),
            guard: None,
        }
    }

    /// A helper's JSON result.
    fn json(json: String) -> Outcome {
        Outcome {
            answer: Answer::ok(json),
            guard: None,
        }
    }

    fn of(r: Result<Option<Value>>, guard: Option<String>) -> Outcome {
        let answer = match r {
            Err(e) => Answer::refused(&e),
            found => Answer::of_lookup(found),
        };
        Outcome { answer, guard }
    }
}

/// The body of the exports that answer through `*result_json` (and
/// `*guard_json`, when it is not NULL): [`super::answer::answer_export`]
/// with `answer`'s `Err` (an input is not valid) as an error object, and
/// the guard written beside the result.
///
/// # Safety
/// `result_json` and `guard_json` are NULL or valid for a write of a
/// pointer.
unsafe fn answer_export(
    missing: bool,
    result_json: *mut *mut c_char,
    guard_json: *mut *mut c_char,
    answer: impl FnOnce() -> Result<Outcome>,
) -> hiera_status {
    let outcome = || {
        let Outcome { answer, guard } = answer().unwrap_or_else(|e| Outcome::failed(&e));
        if !guard_json.is_null() {
            let g = guard.map_or(std::ptr::null_mut(), into_c_string);
            // SAFETY: non-NULL and, per the caller, writable.
            unsafe { write_out(guard_json, g) };
        }
        answer
    };
    // SAFETY: `result_json` is NULL or writable, per the caller.
    unsafe { super::answer::answer_export(missing, result_json, outcome) }
}

// ---------------------------------------------------------------------------
// Answers

/// Reads a setter's JSON argument: `Err` fails the lookup, and the setter
/// returns `HIERA_INVALID_ARGUMENT`.
fn answer_json(bytes: &[u8], name: &str) -> Result<Value> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        Error::new(
            ErrorKind::InvalidArgument,
            format!(
                "{name} is not valid UTF-8 (invalid byte at offset {})",
                e.valid_up_to()
            ),
        )
    })?;
    wire(text, name)
}

fn refused(answer: &mut hiera3_answer, e: Error) -> hiera_status {
    answer.outcome = Err(callback_error(format!(
        "the lookup callback's answer: {}",
        e.message
    )));
    hiera_status::HIERA_INVALID_ARGUMENT
}

/// A JSON list of strings.
fn string_list(v: &Value) -> Option<Vec<String>> {
    v.as_array()?
        .iter()
        .map(|s| s.as_str().map(str::to_string))
        .collect()
}

/// Hands a callback's value back: `value_json` is the found value as wire
/// JSON (`null` for a found nil). Copied; borrowed for the call only.
///
/// Returns `HIERA_OK`; `HIERA_INVALID_ARGUMENT` when `value_json` is not
/// UTF-8 or not JSON (the answer then fails the lookup with that message);
/// `HIERA_NULL_ARGUMENT` (nothing recorded); `HIERA_PANIC`.
/// Threads: only inside the callback that received `answer`.
///
/// # Safety
/// `answer` is NULL or the answer passed to the running callback;
/// `value_json` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn hiera3_answer_value(
    answer: *mut hiera3_answer,
    value_json: *const c_char,
) -> hiera_status {
    // SAFETY: the contract of this function is the one of `set_answer`.
    unsafe {
        set_answer(answer, value_json, |answer, bytes| {
            match answer_json(bytes, "value_json") {
                Ok(v) => {
                    answer.outcome = Ok(Some(v));
                    hiera_status::HIERA_OK
                }
                Err(e) => refused(answer, e),
            }
        })
    }
}

/// Hands a callback's failure back: the lookup fails with `message` (a
/// `lookup` error), as the host's exception would make it fail. Copied;
/// borrowed for the call only. A message that is not UTF-8 is taken with
/// its invalid bytes replaced.
///
/// Returns `HIERA_OK`, `HIERA_NULL_ARGUMENT` (nothing recorded) or
/// `HIERA_PANIC`.
/// Threads: only inside the callback that received `answer`.
///
/// # Safety
/// `answer` is NULL or the answer passed to the running callback; `message`
/// is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn hiera3_answer_error(
    answer: *mut hiera3_answer,
    message: *const c_char,
) -> hiera_status {
    // SAFETY: the contract of this function is the one of `set_answer`.
    unsafe {
        set_answer(answer, message, |answer, bytes| {
            answer.outcome = Err(callback_error(String::from_utf8_lossy(bytes)));
            hiera_status::HIERA_OK
        })
    }
}

/// Hands back the recursion guard after a `lookup` callback: `seen_json` is
/// the JSON list of strings the host's guard held when its lookup ended
/// (the gem shares one guard object between the interpolation and the
/// lookups it makes, and `%{literal()}` leaves entries on it). Optional:
/// without it the guard is what it was before the callback. Copied.
///
/// Returns `HIERA_OK`; `HIERA_INVALID_ARGUMENT` when `seen_json` is not a
/// JSON list of strings (the answer then fails the lookup);
/// `HIERA_NULL_ARGUMENT` (nothing recorded); `HIERA_PANIC`.
/// Threads: only inside the callback that received `answer`.
///
/// # Safety
/// `answer` is NULL or the answer passed to the running callback;
/// `seen_json` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn hiera3_answer_seen(
    answer: *mut hiera3_answer,
    seen_json: *const c_char,
) -> hiera_status {
    // SAFETY: the contract of this function is the one of `set_answer`.
    unsafe {
        set_answer(answer, seen_json, |answer, bytes| {
            let list = answer_json(bytes, "seen_json").and_then(|v| {
                string_list(&v).ok_or_else(|| {
                    Error::new(
                        ErrorKind::InvalidArgument,
                        "seen_json must be a JSON list of strings",
                    )
                })
            });
            match list {
                Ok(seen) => {
                    answer.seen = Some(seen);
                    hiera_status::HIERA_OK
                }
                Err(e) => refused(answer, e),
            }
        })
    }
}

// ---------------------------------------------------------------------------
// Helpers

/// The configuration `merge_answer` reads: only `:merge_behavior` and
/// `:deep_merge_options` of `config` (a Hash with Symbol keys).
fn merge_config(config: Option<&Value>) -> Result<Config> {
    let mut m = Map::default();
    if let Some(Value::Hash(h)) = config {
        for name in ["merge_behavior", "deep_merge_options"] {
            let k = Value::Symbol(name.into());
            if let Some(v) = h.get(&k) {
                m.insert(k, v.clone());
            }
        }
    }
    Config::from_value(&Value::hash(m))
}

/// `hiera3_merge_answer` without the pointers.
pub(crate) fn merge_answer_json(
    new: &str,
    old: &str,
    resolution_type: &str,
    config: Option<&str>,
) -> Result<String> {
    let new = wire(new, "new_json")?;
    let old = wire(old, "old_json")?;
    let rt = ResolutionType::from_value(&wire(resolution_type, "resolution_type_json")?)?;
    let config = config.map(|c| wire(c, "config_json")).transpose()?;
    Ok(to_json(&merge_answer_with_config(
        new,
        old,
        &rt,
        &merge_config(config.as_ref())?,
    )?))
}

/// `Backend.merge_answer(new, old, resolution_type)`: merges the
/// accumulated answer `old` into the newly found `new`.
///
/// - `new_json`, `old_json`: the two values (wire JSON, exact).
/// - `resolution_type_json`: the Ruby value, exactly: `null`, `"priority"`,
///   `"array"`, `"hash"` (as Strings or Symbols), or a Hash whose Symbol keys
///   are `:behavior` and the deep_merge options (String keys mean nothing,
///   as in Ruby).
/// - `config_json` (may be NULL): the Hiera 3 configuration Hash; only its
///   `:merge_behavior` and `:deep_merge_options` are read, for resolution
///   types that are not a Hash. NULL is the gem's default (native merge).
///
/// Returns, with `*result_json`:
/// - `HIERA_OK`: the merged value;
/// - `HIERA_ERROR`: an error object (what the gem raises: a deep_merge
///   error, `undefined method ...` for a value that is not a Hash, ...);
/// - `HIERA_INVALID_ARGUMENT`: an error object: an input is not UTF-8 or not
///   JSON, or the resolution type is not one of the above;
/// - `HIERA_NULL_ARGUMENT`, `HIERA_PANIC`: nothing is written.
///
/// Ownership: the inputs are borrowed for the call; `*result_json` belongs
/// to the caller (free it with `hiera_string_free`).
/// Threads: any thread; calls are independent.
///
/// # Safety
/// The `*_json` inputs are NULL or NUL-terminated strings; `result_json` is
/// NULL or valid for a write of a pointer.
#[no_mangle]
pub unsafe extern "C" fn hiera3_merge_answer(
    new_json: *const c_char,
    old_json: *const c_char,
    resolution_type_json: *const c_char,
    config_json: *const c_char,
    result_json: *mut *mut c_char,
) -> hiera_status {
    let missing = new_json.is_null() || old_json.is_null() || resolution_type_json.is_null();
    let answer = || {
        // SAFETY: the three required inputs are non-NULL (not `missing`)
        // and, like the optional `config_json`, NUL-terminated strings
        // per the contract.
        let (new, old, rt, config) = unsafe {
            (
                input_str(new_json, "new_json")?,
                input_str(old_json, "old_json")?,
                input_str(resolution_type_json, "resolution_type_json")?,
                optional_str(config_json, "config_json")?,
            )
        };
        merge_answer_json(new, old, rt, config).map(Outcome::json)
    };
    // SAFETY: `result_json` is NULL or writable per the contract.
    unsafe { answer_export(missing, result_json, std::ptr::null_mut(), answer) }
}

/// `hiera3_parse_answer` / `hiera3_parse_string` without the pointers.
pub(crate) fn parse_json(
    data: &str,
    scope: Option<&str>,
    context: Option<&str>,
    host: Option<&hiera3_host>,
    whole: bool,
) -> Outcome {
    let inputs = (|| {
        let data = wire(data, "data_json")?;
        let scope = match scope {
            Some(s) => wire(s, "scope_json")?,
            None => Value::empty_hash(),
        };
        let (ctx, extra) = context_from_json(context)
            .map_err(|e| Error::new(ErrorKind::InvalidArgument, e.message))?;
        Ok((data, scope, ctx, extra))
    })();
    let (data, scope, ctx, extra) = match inputs {
        Ok(i) => i,
        Err(e) => return Outcome::failed(&e),
    };
    let had_guard = ctx.has_guard();
    let mut host = Host { host };
    let r = if whole {
        interpolate::parse_answer(&data, &scope, &extra, &ctx, &mut host)
    } else {
        interpolate::parse_string(&data, &scope, &extra, &ctx, &mut host)
    };
    Outcome::of(r.map(Some), had_guard.then(|| seen_json(ctx.seen())))
}

/// `Backend.parse_answer(data, scope, extra_data, context)`: interpolates
/// every String (and Hash key) of `data`; keeps Integers, Floats and
/// booleans; turns anything else (nil, Symbols) into nil.
///
/// - `data_json`: the value (wire JSON, exact).
/// - `scope_json` (may be NULL: `{}`): the scope Hash. With a host `scope`
///   callback the variables are asked from the host instead.
/// - `context_json` (may be NULL: none): `{"order_override": V, "seen":
///   [...], "extra_data": {...}}`, every field optional. `"seen"` is the
///   gem's `:recurse_guard` (the expressions it holds); without it each
///   String gets a fresh guard (`recurse_guard: nil`). `extra_data` is the
///   second variable source (default `{}`).
/// - `host` (may be NULL): the callbacks, see `hiera3_host`.
///
/// Returns, with `*result_json`:
/// - `HIERA_OK`: the interpolated value;
/// - `HIERA_ERROR`: an error object: `interpolation` (`Invalid interpolation
///   method 'x'`, ...), `recursion` (`Lookup recursion detected in [...]`),
///   `type` (a scope dig), or `lookup` (a callback's error message);
/// - `HIERA_INVALID_ARGUMENT`: an error object: an input is not UTF-8 or
///   not JSON, or the context is malformed;
/// - `HIERA_NULL_ARGUMENT`, `HIERA_PANIC`: nothing is written.
///
/// `guard_json` (may be NULL) receives, whenever `*result_json` is written,
/// the JSON list the guard holds after the call when `context_json` had
/// `"seen"` (a `literal()` leaves entries behind, as in the gem), and NULL
/// otherwise.
///
/// Ownership: the inputs and `host` are borrowed for the call;
/// `*result_json` and `*guard_json` belong to the caller (free them with
/// `hiera_string_free`).
/// Threads: any thread; the callbacks run on the calling thread, during the
/// call.
///
/// # Safety
/// The `*_json` inputs are NULL or NUL-terminated strings; `host` is NULL
/// or a valid `hiera3_host` whose callbacks keep their contract;
/// `result_json` is NULL or valid for a write of a pointer, `guard_json`
/// likewise.
#[no_mangle]
pub unsafe extern "C" fn hiera3_parse_answer(
    data_json: *const c_char,
    scope_json: *const c_char,
    context_json: *const c_char,
    host: *const hiera3_host,
    result_json: *mut *mut c_char,
    guard_json: *mut *mut c_char,
) -> hiera_status {
    // SAFETY: the contract of this function is the one of `parse_export`.
    unsafe {
        parse_export(
            data_json,
            scope_json,
            context_json,
            host,
            result_json,
            guard_json,
            true,
        )
    }
}

/// `Backend.parse_string(data, scope, extra_data, context)`: interpolates a
/// String; any other value comes back as it is. Arguments, results and
/// ownership as for `hiera3_parse_answer`. The result is a String, except
/// for a whole-string `%{alias('k')}` of a value that is not one.
///
/// # Safety
/// As for `hiera3_parse_answer`.
#[no_mangle]
pub unsafe extern "C" fn hiera3_parse_string(
    data_json: *const c_char,
    scope_json: *const c_char,
    context_json: *const c_char,
    host: *const hiera3_host,
    result_json: *mut *mut c_char,
    guard_json: *mut *mut c_char,
) -> hiera_status {
    // SAFETY: the contract of this function is the one of `parse_export`.
    unsafe {
        parse_export(
            data_json,
            scope_json,
            context_json,
            host,
            result_json,
            guard_json,
            false,
        )
    }
}

/// The body of `hiera3_parse_answer` and `hiera3_parse_string`.
///
/// # Safety
/// As for `hiera3_parse_answer`.
unsafe fn parse_export(
    data_json: *const c_char,
    scope_json: *const c_char,
    context_json: *const c_char,
    host: *const hiera3_host,
    result_json: *mut *mut c_char,
    guard_json: *mut *mut c_char,
    whole: bool,
) -> hiera_status {
    let answer = || {
        // SAFETY: `data_json` is non-NULL (not missing); the inputs are
        // NUL-terminated strings (or NULL where allowed) and `host` NULL
        // or valid, per the contract.
        let (data, scope, context, host) = unsafe {
            (
                input_str(data_json, "data_json")?,
                optional_str(scope_json, "scope_json")?,
                optional_str(context_json, "context_json")?,
                host_ref(host),
            )
        };
        Ok(parse_json(data, scope, context, host, whole))
    };
    // SAFETY: `result_json` and `guard_json` are NULL or writable per the
    // contract.
    unsafe { answer_export(data_json.is_null(), result_json, guard_json, answer) }
}

/// `hiera3_datasources` without the pointers.
pub(crate) fn datasources_json(
    hierarchy: &str,
    scope: Option<&str>,
    order_override: Option<&str>,
    host: Option<&hiera3_host>,
) -> Result<String> {
    let hierarchy = wire(hierarchy, "hierarchy_json")?;
    let scope = match scope {
        Some(s) => wire(s, "scope_json")?,
        None => Value::empty_hash(),
    };
    let order_override = order_override
        .map(|o| wire(o, "order_override_json"))
        .transpose()?
        .filter(|v| !v.is_nil());
    let list = datasources_hosted(
        Some(&hierarchy),
        &scope,
        order_override.as_ref(),
        &mut Host { host },
    )?;
    Ok(to_json(&Value::array(list)))
}

/// `Backend.datasources(scope, order_override, hierarchy)`: the data
/// sources a backend reads, in order: `order_override` first, then the
/// hierarchy, each interpolated as a hiera.yaml entry; entries that
/// interpolate to `""`, start or end with `/` or contain `//` are left out.
///
/// - `hierarchy_json`: a list or a single entry (`null`, `false`: the gem's
///   `["common"]`).
/// - `scope_json` (may be NULL: `{}`), `host` (may be NULL): as for
///   `hiera3_parse_answer` (lookups from `%{hiera()}` get a context with
///   `"config": true`).
/// - `order_override_json` (may be NULL: none): a source or a list of them.
///
/// Returns, with `*result_json`: `HIERA_OK` and the JSON list;
/// `HIERA_ERROR` or `HIERA_INVALID_ARGUMENT` and an error object (as for
/// `hiera3_parse_answer`); `HIERA_NULL_ARGUMENT`, `HIERA_PANIC`: nothing.
///
/// Ownership: inputs and `host` borrowed for the call; `*result_json`
/// belongs to the caller (free it with `hiera_string_free`).
/// Threads: any thread; callbacks run on the calling thread.
///
/// # Safety
/// The `*_json` inputs are NULL or NUL-terminated strings; `host` is NULL
/// or a valid `hiera3_host`; `result_json` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hiera3_datasources(
    hierarchy_json: *const c_char,
    scope_json: *const c_char,
    order_override_json: *const c_char,
    host: *const hiera3_host,
    result_json: *mut *mut c_char,
) -> hiera_status {
    let answer = || {
        // SAFETY: `hierarchy_json` is non-NULL (not missing); the inputs
        // are NUL-terminated strings (or NULL where allowed) and `host`
        // NULL or valid.
        let (hierarchy, scope, oo, host) = unsafe {
            (
                input_str(hierarchy_json, "hierarchy_json")?,
                optional_str(scope_json, "scope_json")?,
                optional_str(order_override_json, "order_override_json")?,
                host_ref(host),
            )
        };
        datasources_json(hierarchy, scope, oo, host).map(Outcome::json)
    };
    // SAFETY: `result_json` is NULL or writable per the contract.
    unsafe {
        answer_export(
            hierarchy_json.is_null(),
            result_json,
            std::ptr::null_mut(),
            answer,
        )
    }
}

// ---------------------------------------------------------------------------
// hiera3: the engine

/// `hiera3_open` without the pointers.
pub(crate) fn open_json(text: &str) -> Result<Hiera3> {
    let invalid = |m: String| Error::new(ErrorKind::InvalidArgument, m);
    let Value::Hash(fields) = wire(text, "options_json")? else {
        return Err(invalid("options_json must be a JSON object".into()));
    };
    let (mut file, mut config, mut cwd) = (None, None, None);
    for (k, v) in fields.iter() {
        let name = k.as_str().unwrap_or_default();
        match (name, v) {
            (_, Value::Nil) if matches!(name, "config_file" | "config" | "cwd") => {}
            ("config_file", Value::String(s)) => file = Some(PathBuf::from(&**s)),
            ("cwd", Value::String(s)) => cwd = Some(PathBuf::from(&**s)),
            ("config", v) => config = Some(v.clone()),
            ("config_file" | "cwd", _) => {
                return Err(invalid(format!("options_json: '{name}' must be a string")))
            }
            _ => return Err(invalid(format!("options_json: unknown field '{name}'"))),
        }
    }
    match (file, config) {
        (Some(f), None) => Hiera3::open(&f, cwd.as_deref()),
        (None, Some(c)) => Ok(Hiera3::new(Config::from_value(&c)?, cwd)),
        _ => Err(invalid(
            "options_json: give exactly one of 'config_file' and 'config'".into(),
        )),
    }
}

/// Opens a Hiera 3 configuration.
///
/// `options_json` is a JSON object with exactly one of
/// - `"config_file"`: the path of a hiera.yaml, read as `Hiera.new(config:
///   path)` reads it (errors are the gem's: `Config file x not found`, ...);
/// - `"config"`: the configuration Hash itself, as `Hiera::Config` holds it
///   (wire JSON with Symbol keys: `{"__type__": "Hash", "entries":
///   [[{"__type__": "Symbol", "value": "backends"}, ["yaml"]], ...]}`),
///   merged over the gem's defaults;
///
/// and optionally `"cwd"`: the directory relative paths (the config file's,
/// the datadirs') are taken from; the process's working directory at lookup
/// time when absent.
///
/// Returns:
/// - `HIERA_OK`: `*out` is the new handle (free it with `hiera3_free`);
///   `*error_json` is not written.
/// - `HIERA_ERROR`: the configuration cannot be loaded; `*error_json` is an
///   error object; `*out` is not written.
/// - `HIERA_INVALID_ARGUMENT`: `options_json` is not valid; `*error_json` is
///   an error object; `*out` is not written.
/// - `HIERA_NULL_ARGUMENT`, `HIERA_PANIC`: nothing is written.
///
/// Ownership: `options_json` is borrowed; `*error_json` belongs to the
/// caller (free it with `hiera_string_free`).
/// Threads: any thread; calls are independent.
///
/// # Safety
/// `options_json` is NULL or a NUL-terminated string; `out` and `error_json`
/// are NULL or valid for a write of a pointer.
#[no_mangle]
pub unsafe extern "C" fn hiera3_open(
    options_json: *const c_char,
    out: *mut *mut hiera3,
    error_json: *mut *mut c_char,
) -> hiera_status {
    guard(hiera_status::HIERA_PANIC, || {
        if options_json.is_null() || out.is_null() || error_json.is_null() {
            return hiera_status::HIERA_NULL_ARGUMENT;
        }
        // SAFETY: checked non-NULL; a NUL-terminated string per the contract.
        let opened = unsafe { input_str(options_json, "options_json") }.and_then(open_json);
        // SAFETY: `out` and `error_json` are non-NULL and writable.
        unsafe { write_made(opened.map(|inner| hiera3 { inner }), out, error_json) }
    })
}

/// Frees a handle made by `hiera3_open`. NULL is allowed and does nothing.
///
/// Ownership: takes back `h`, which must not be used afterwards.
/// Threads: any thread, once no other call is using `h`.
///
/// # Safety
/// `h` is NULL or a handle from `hiera3_open` that was not freed yet.
#[no_mangle]
pub unsafe extern "C" fn hiera3_free(h: *mut hiera3) {
    // SAFETY: the caller guarantees that `h` is NULL or came from
    // `hiera3_open` (`write_made`), is freed once and is no longer in use.
    guard((), || unsafe { drop_made(h) })
}

/// A request of `hiera3_lookup`, decoded.
struct Request {
    key: Value,
    default: Option<Value>,
    scope: Value,
    order_override: Option<Value>,
    resolution_type: ResolutionType,
    backend: Option<String>,
    context: Context,
    config_context: Option<Context>,
    cwd: Option<PathBuf>,
}

/// A context object of a request: `{"order_override": V, "seen": [...]}`.
fn request_context(v: &Value, name: &str, config: bool) -> Result<Context> {
    let invalid = |m: String| Error::new(ErrorKind::InvalidArgument, m);
    let h = v
        .as_hash()
        .ok_or_else(|| invalid(format!("request_json: '{name}' must be an object")))?;
    let mut seen = None;
    let mut order_override = None;
    for (k, v) in h.iter() {
        match k.as_str() {
            Some("order_override") => order_override = Some(v.clone()).filter(|v| !v.is_nil()),
            Some("seen") => {
                seen = Some(string_list(v).ok_or_else(|| {
                    invalid(format!(
                        "request_json: '{name}.seen' must be a list of strings"
                    ))
                })?)
            }
            _ => {
                return Err(invalid(format!(
                    "request_json: unknown field '{name}.{}'",
                    k.as_str().unwrap_or("?")
                )))
            }
        }
    }
    Ok(match (seen, config) {
        (Some(s), false) => Context::with_seen(s, order_override),
        (None, false) => Context::new(order_override),
        (s, true) => Context::config_with_seen(s.unwrap_or_default(), order_override),
    })
}

fn request_from_json(text: &str) -> Result<Request> {
    let invalid = |m: String| Error::new(ErrorKind::InvalidArgument, m);
    let Value::Hash(fields) = wire(text, "request_json")? else {
        return Err(invalid("request_json must be a JSON object".into()));
    };
    let mut r = Request {
        key: Value::Nil,
        default: None,
        scope: Value::empty_hash(),
        order_override: None,
        resolution_type: ResolutionType::Priority,
        backend: None,
        context: Context::default(),
        config_context: None,
        cwd: None,
    };
    let mut has_key = false;
    for (k, v) in fields.iter() {
        let name = k.as_str().unwrap_or_default();
        match name {
            "key" => {
                r.key = v.clone();
                has_key = true;
            }
            "default" => r.default = Some(v.clone()),
            "scope" => r.scope = v.clone(),
            "order_override" => r.order_override = Some(v.clone()).filter(|v| !v.is_nil()),
            "resolution_type" => r.resolution_type = ResolutionType::from_value(v)?,
            "backend" => match v {
                Value::String(s) => r.backend = Some(s.to_string()),
                Value::Nil => {}
                _ => return Err(invalid("request_json: 'backend' must be a string".into())),
            },
            "context" => r.context = request_context(v, name, false)?,
            "cwd" => match v {
                Value::String(s) => r.cwd = Some(PathBuf::from(&**s)),
                Value::Nil => {}
                _ => return Err(invalid("request_json: 'cwd' must be a string".into())),
            },
            "config_context" => {
                if !v.is_nil() {
                    r.config_context = Some(request_context(v, name, true)?)
                }
            }
            _ => return Err(invalid(format!("request_json: unknown field '{name}'"))),
        }
    }
    if !has_key {
        return Err(invalid("request_json: 'key' is required".into()));
    }
    // A backend is given the root key as the gem has it (nil for the empty
    // key); Hiera#lookup takes a String.
    if !(r.key.as_str().is_some() || (r.backend.is_some() && r.key.is_nil())) {
        return Err(invalid("request_json: 'key' must be a string".into()));
    }
    Ok(r)
}

/// `hiera3_lookup` without the pointers.
pub(crate) fn lookup_json(h: &Hiera3, text: &str, host: Option<&hiera3_host>) -> Outcome {
    let r = match request_from_json(text) {
        Ok(r) => r,
        Err(e) => return Outcome::failed(&e),
    };
    let mut host = Host { host };
    let delegate = host.delegates_lookups();
    let found = match &r.backend {
        Some(b) => h.backend_lookup(
            b,
            &r.key,
            &r.scope,
            r.order_override.as_ref(),
            &r.resolution_type,
            &r.context,
            r.config_context.as_ref(),
            r.cwd.as_deref(),
            &mut host,
        ),
        None => h.lookup_hosted(
            r.key.as_str().unwrap_or_default(),
            r.default.as_ref(),
            &r.scope,
            r.order_override.as_ref(),
            &r.resolution_type,
            &r.context,
            r.cwd.as_deref(),
            &mut host,
            delegate,
        ),
    };
    let mut g = Map::default();
    if r.context.has_guard() {
        g.insert(
            Value::from("seen"),
            Value::array(r.context.seen().into_iter().map(Value::from).collect()),
        );
    }
    if let Some(c) = &r.config_context {
        g.insert(
            Value::from("config_seen"),
            Value::array(c.seen().into_iter().map(Value::from).collect()),
        );
    }
    Outcome::of(found, (!g.is_empty()).then(|| to_json(&Value::hash(g))))
}

/// Looks up a key, as `Hiera#lookup` does or as one backend does.
///
/// `request_json` is an object; only `key` is required:
/// `{"key": "a.b", "scope": {...}, "default": V, "order_override": V,
///   "resolution_type": V, "backend": "yaml", "context": {...},
///   "config_context": {...}, "cwd": "/dir"}`
/// - `scope`: the variables (default `{}`; with a host `scope` callback the
///   host is asked instead);
/// - `default`: absent means no default;
/// - `order_override`, `resolution_type`: the Ruby values, exactly (as for
///   `hiera3_merge_answer`);
/// - without `backend`: `Hiera#lookup(key, default, scope, order_override,
///   resolution_type)`: every backend of the configuration, dotted keys,
///   defaults (a String default is interpolated);
/// - with `backend` (`yaml`, `json`, in any case, as `:backends` names
///   them): that backend's own `lookup(key, scope, order_override,
///   resolution_type, context)`, as the gem's yaml and json backends answer
///   it; `key` is the root key (or `null`, what the gem passes for the
///   empty key) and `default` is not used. This is what a
///   Ruby `Hiera::Backend` written on libhiera calls.
/// - `context`: the lookup's interpolation context `{"order_override": V,
///   "seen": [...]}` (see `hiera3_parse_answer`);
/// - `config_context`: the gem's `@config_lookup_context` (same form) when
///   the lookup runs inside the interpolation of a hiera.yaml entry: the
///   hierarchy and datadirs are then interpolated with its guard;
/// - `cwd`: the working directory relative paths are taken from for this
///   lookup (default: the handle's, see `hiera3_open`).
///
/// `host` (may be NULL): its `lookup` answers the nested `hiera()` and
/// `alias()` lookups (NULL: this configuration answers them, as the gem
/// would with only the yaml and json backends); its `scope` answers
/// variables.
///
/// Returns, with `*result_json`:
/// - `HIERA_OK`: the value (a default counts as found);
/// - `HIERA_NOT_FOUND`: NULL (a backend's `throw :no_such_key`);
/// - `HIERA_ERROR`: an error object with the gem's message;
/// - `HIERA_INVALID_ARGUMENT`: an error object: `request_json` is not valid;
/// - `HIERA_NULL_ARGUMENT`, `HIERA_PANIC`: nothing is written.
///
/// `guard_json` (may be NULL) receives, whenever `*result_json` is written,
/// `{"seen": [...], "config_seen": [...]}`: the guards of `context` (when
/// it had `"seen"`) and of `config_context` after the lookup; NULL when the
/// request had neither.
///
/// Ownership: `h`, `request_json` and `host` are borrowed for the call;
/// `*result_json` and `*guard_json` belong to the caller (free them with
/// `hiera_string_free`).
/// Threads: many threads may look up through one `hiera3` at once; the
/// callbacks run on the calling thread, during the call.
///
/// # Safety
/// `h` is NULL or a live handle from `hiera3_open`; `request_json` is NULL
/// or a NUL-terminated string; `host` is NULL or a valid `hiera3_host`;
/// `result_json` is NULL or valid for a write of a pointer, `guard_json`
/// likewise.
#[no_mangle]
pub unsafe extern "C" fn hiera3_lookup(
    h: *const hiera3,
    request_json: *const c_char,
    host: *const hiera3_host,
    result_json: *mut *mut c_char,
    guard_json: *mut *mut c_char,
) -> hiera_status {
    let answer = || {
        // SAFETY: `h` is non-NULL (not missing) and, per the contract, a
        // live handle; only shared access is taken, since other threads
        // may use it too. `request_json` is non-NULL and a NUL-terminated
        // string; `host` is NULL or valid.
        let (config, text, host) = unsafe {
            (
                &*h,
                input_str(request_json, "request_json")?,
                host_ref(host),
            )
        };
        Ok(lookup_json(&config.inner, text, host))
    };
    // SAFETY: `result_json` and `guard_json` are NULL or writable per the
    // contract.
    unsafe {
        answer_export(
            h.is_null() || request_json.is_null(),
            result_json,
            guard_json,
            answer,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::string::hiera_string_free;
    use super::*;
    use hiera_status::*;
    use std::cell::RefCell;
    use std::ffi::CStr;
    use std::ptr;

    const UNSET: *mut c_char = 0x40 as *mut c_char;

    fn fixture_dir(name: &str) -> PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/conformance")
            .join(name)
    }

    fn take(p: *mut c_char) -> Option<String> {
        if p.is_null() {
            return None;
        }
        assert_ne!(p, UNSET);
        // SAFETY: a string returned by libhiera, read then freed once.
        let s = unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_string();
        // SAFETY: as above.
        unsafe { hiera_string_free(p) };
        Some(s)
    }

    fn c(s: &str) -> CString {
        CString::new(s).unwrap()
    }

    /// A host whose `lookup` answers from a table and records its calls;
    /// `scope` answers from another table when set.
    #[derive(Default)]
    struct Table {
        values: Vec<(&'static str, &'static str)>,
        scope: Option<Vec<(&'static str, &'static str)>>,
        seen_back: Option<&'static str>,
        fail: Option<&'static str>,
        calls: RefCell<Vec<(String, String)>>,
    }

    unsafe extern "C" fn table_lookup(
        user_data: *mut c_void,
        key: *const c_char,
        ctx: *const c_char,
        answer: *mut hiera3_answer,
    ) {
        // SAFETY: user_data is the &Table the test passed; the strings are
        // valid for the call.
        let (t, key, ctx) = unsafe {
            (
                &*(user_data as *const Table),
                CStr::from_ptr(key),
                CStr::from_ptr(ctx),
            )
        };
        let key = key.to_str().unwrap();
        t.calls
            .borrow_mut()
            .push((key.to_string(), ctx.to_str().unwrap().to_string()));
        if let Some(seen) = t.seen_back {
            let s = c(seen);
            // SAFETY: the live answer of this callback.
            unsafe { hiera3_answer_seen(answer, s.as_ptr()) };
        }
        if t.fail == Some(key) {
            let m = c("host failed");
            // SAFETY: the live answer of this callback.
            unsafe { hiera3_answer_error(answer, m.as_ptr()) };
            return;
        }
        if let Some((_, v)) = t.values.iter().find(|(k, _)| *k == key) {
            let v = c(v);
            // SAFETY: the live answer of this callback.
            unsafe { hiera3_answer_value(answer, v.as_ptr()) };
        }
    }

    unsafe extern "C" fn table_scope(
        user_data: *mut c_void,
        name: *const c_char,
        answer: *mut hiera3_answer,
    ) {
        // SAFETY: as in table_lookup.
        let (t, name) = unsafe {
            (
                &*(user_data as *const Table),
                CStr::from_ptr(name).to_str().unwrap(),
            )
        };
        t.calls
            .borrow_mut()
            .push(("$".to_string() + name, String::new()));
        if let Some((_, v)) = t.scope.as_ref().unwrap().iter().find(|(k, _)| *k == name) {
            let v = c(v);
            // SAFETY: the live answer of this callback.
            unsafe { hiera3_answer_value(answer, v.as_ptr()) };
        }
    }

    fn host_of(t: &Table) -> hiera3_host {
        hiera3_host {
            user_data: t as *const Table as *mut c_void,
            lookup: Some(table_lookup),
            scope: t.scope.as_ref().map(|_| {
                table_scope as unsafe extern "C" fn(*mut c_void, *const c_char, *mut hiera3_answer)
            }),
        }
    }

    fn parse(
        data: &str,
        scope: Option<&str>,
        ctx: Option<&str>,
        host: Option<&hiera3_host>,
    ) -> (hiera_status, Option<String>, Option<String>) {
        let (d, s, x) = (c(data), scope.map(c), ctx.map(c));
        let (mut out, mut g) = (UNSET, UNSET);
        // SAFETY: valid C strings or NULL, a valid host or NULL, local outs.
        let st = unsafe {
            hiera3_parse_answer(
                d.as_ptr(),
                s.as_ref().map_or(ptr::null(), |s| s.as_ptr()),
                x.as_ref().map_or(ptr::null(), |x| x.as_ptr()),
                host.map_or(ptr::null(), |h| h as *const _),
                &mut out,
                &mut g,
            )
        };
        assert_ne!(g, UNSET, "guard_json is written with result_json");
        (st, take(out), take(g))
    }

    #[test]
    fn merge_answer_exports() {
        let call = |new: &str, old: &str, rt: &str, cfg: Option<&str>| {
            let (n, o, r, cf) = (c(new), c(old), c(rt), cfg.map(c));
            let mut out = UNSET;
            // SAFETY: valid C strings and a local out-parameter.
            let st = unsafe {
                hiera3_merge_answer(
                    n.as_ptr(),
                    o.as_ptr(),
                    r.as_ptr(),
                    cf.as_ref().map_or(ptr::null(), |c| c.as_ptr()),
                    &mut out,
                )
            };
            (st, take(out))
        };
        let sym_hash = |pairs: &str| format!(r#"{{"__type__":"Hash","entries":[{pairs}]}}"#);
        let behavior = |b: &str| format!(r#"[{{"__type__":"Symbol","value":"behavior"}},"{b}"]"#);
        let ko = r#"[{"__type__":"Symbol","value":"knockout_prefix"},"--"]"#;
        // A Hash resolution type with Symbol keys.
        let rt = sym_hash(&format!("{},{ko}", behavior("deeper")));
        assert_eq!(
            call(
                r#"{"a":{"x":1},"l":["low"]}"#,
                r#"{"a":{"y":2},"l":["high","--low"]}"#,
                &rt,
                None
            ),
            (HIERA_OK, Some(r#"{"a":{"x":1,"y":2},"l":["high"]}"#.into()))
        );
        // String keys are not options, as in Ruby: a native merge.
        assert_eq!(
            call(
                r#"{"a":{"x":1}}"#,
                r#"{"a":{"y":2}}"#,
                r#"{"behavior":"deeper"}"#,
                None
            )
            .1
            .unwrap(),
            r#"{"a":{"y":2}}"#
        );
        // A non-Hash resolution type takes the configuration's behaviour.
        let cfg = sym_hash(
            r#"[{"__type__":"Symbol","value":"merge_behavior"},{"__type__":"Symbol","value":"deeper"}],[{"__type__":"Symbol","value":"backends"},["libhiera"]]"#,
        );
        assert_eq!(
            call(
                r#"{"a":{"x":1}}"#,
                r#"{"a":{"y":2}}"#,
                r#""hash""#,
                Some(&cfg)
            )
            .1
            .unwrap(),
            r#"{"a":{"x":1,"y":2}}"#
        );
        assert_eq!(
            call(
                r#"{"a":{"x":1}}"#,
                r#"{"a":{"y":2}}"#,
                r#"{"__type__":"Symbol","value":"hash"}"#,
                None
            )
            .1
            .unwrap(),
            r#"{"a":{"y":2}}"#
        );
        // What the gem raises.
        let (st, e) = call("[1]", "{}", "null", None);
        assert_eq!(st, HIERA_ERROR);
        assert!(e
            .unwrap()
            .contains("undefined method `merge' for [1]:Array"));
        let (st, e) = call(
            "{}",
            "{}",
            &sym_hash(&format!("{},{ko}", behavior("deep"))),
            None,
        );
        assert_eq!(st, HIERA_ERROR);
        assert!(e
            .unwrap()
            .contains("overwrite_unmergeable must be true if knockout_prefix is specified"));
        // Invalid inputs.
        let (st, e) = call("{", "{}", "null", None);
        assert_eq!(st, HIERA_INVALID_ARGUMENT);
        assert!(e.unwrap().contains("new_json is not valid JSON"));
        assert_eq!(
            call("{}", "{}", r#""lots""#, None).0,
            HIERA_INVALID_ARGUMENT
        );
        let mut out = UNSET;
        // SAFETY: NULL arguments are checked before anything is read.
        unsafe {
            assert_eq!(
                hiera3_merge_answer(
                    ptr::null(),
                    c"{}".as_ptr(),
                    c"null".as_ptr(),
                    ptr::null(),
                    &mut out
                ),
                HIERA_NULL_ARGUMENT
            );
            assert_eq!(
                hiera3_merge_answer(
                    c"{}".as_ptr(),
                    c"{}".as_ptr(),
                    c"null".as_ptr(),
                    ptr::null(),
                    ptr::null_mut()
                ),
                HIERA_NULL_ARGUMENT
            );
        }
        assert_eq!(out, UNSET);
    }

    #[test]
    fn parse_answer_with_callbacks() {
        let t = Table {
            values: vec![("k", r#""K""#), ("arr", r#"["a",1]"#)],
            fail: Some("boom"),
            ..Default::default()
        };
        let host = host_of(&t);
        let (st, v, g) = parse(
            r#"["%{hiera('k')}-%{v}", {"%{v}": "%{hiera('missing')}"}, "%{alias('arr')}", {"__type__":"Symbol","value":"s"}]"#,
            Some(r#"{"v":"V"}"#),
            Some(r#"{"order_override":"special"}"#),
            Some(&host),
        );
        assert_eq!(
            (st, v.as_deref(), g),
            (HIERA_OK, Some(r#"["K-V",{"V":""},["a",1],null]"#), None)
        );
        assert_eq!(
            t.calls.borrow()[0],
            (
                "k".into(),
                r#"{"order_override":"special","seen":["hiera('k')"]}"#.into()
            )
        );
        // A callback's error fails the interpolation with its message.
        let (st, e, _) = parse(r#""%{hiera('boom')}""#, None, None, Some(&host));
        assert_eq!(st, HIERA_ERROR);
        assert_eq!(e.unwrap(), r#"{"kind":"lookup","message":"host failed"}"#);
        // Without a host, hiera() finds nothing.
        assert_eq!(
            parse(r#""<%{hiera('k')}>""#, None, None, None).1.unwrap(),
            r#""<>""#
        );
        // The guard: given, it comes back (a literal() stays on it).
        let (st, v, g) = parse(
            r#""%{literal('x')}""#,
            None,
            Some(r#"{"seen":["hiera('a')"]}"#),
            None,
        );
        assert_eq!(
            (st, v.unwrap(), g.unwrap()),
            (
                HIERA_OK,
                r#""x""#.into(),
                r#"["hiera('a')","literal('x')"]"#.into()
            )
        );
        let (st, e, g) = parse(
            r#""%{hiera('a')}""#,
            None,
            Some(r#"{"seen":["hiera('a')"]}"#),
            Some(&host),
        );
        assert_eq!(st, HIERA_ERROR);
        assert!(e
            .unwrap()
            .contains("Lookup recursion detected in [hiera('a')]"));
        assert_eq!(g.unwrap(), r#"["hiera('a')"]"#);
        // Errors of the gem's interpolation.
        let (st, e, _) = parse(r#""%{lookup('a')}""#, None, None, None);
        assert_eq!(st, HIERA_ERROR);
        assert_eq!(
            e.unwrap(),
            r#"{"kind":"interpolation","message":"Invalid interpolation method 'lookup'"}"#
        );
        assert_eq!(parse("{", None, None, None).0, HIERA_INVALID_ARGUMENT);
        assert_eq!(
            parse(r#""x""#, None, Some(r#"{"bogus":1}"#), None).0,
            HIERA_INVALID_ARGUMENT
        );
    }

    #[test]
    fn the_host_hands_the_guard_back() {
        // The gem shares one guard between the string and the lookups it
        // makes: a literal() in the nested lookup leaves its expression on
        // it, and the outer pop then removes that one instead, so the
        // second hiera('lit') is a recursion.
        let t = Table {
            values: vec![("lit", r#""L""#)],
            seen_back: Some(r#"["hiera('lit')","literal('L')"]"#),
            ..Default::default()
        };
        let host = host_of(&t);
        let (st, e, _) = parse(
            r#""%{hiera('lit')}%{hiera('lit')}""#,
            None,
            None,
            Some(&host),
        );
        assert_eq!(st, HIERA_ERROR);
        assert!(e
            .unwrap()
            .contains("Lookup recursion detected in [hiera('lit')]"));
        // A malformed guard fails the lookup.
        let t = Table {
            seen_back: Some("[1]"),
            ..Default::default()
        };
        let host = host_of(&t);
        let (st, e, _) = parse(r#""%{hiera('x')}""#, None, None, Some(&host));
        assert_eq!(st, HIERA_ERROR);
        assert!(e
            .unwrap()
            .contains("seen_json must be a JSON list of strings"));
    }

    #[test]
    fn the_host_may_hold_the_scope() {
        let t = Table {
            scope: Some(vec![
                ("os", r#"{"family":"Debian"}"#),
                ("role", r#""%{hiera('k')}""#),
            ]),
            values: vec![("k", r#""K""#)],
            ..Default::default()
        };
        let host = host_of(&t);
        let (st, v, _) = parse(
            r#""%{os.family}/%{role}/%{nope}/%{scope('os')}""#,
            None,
            Some(r#"{"extra_data":{"nope":"E"}}"#),
            Some(&host),
        );
        assert_eq!(
            (st, v.unwrap()),
            (HIERA_OK, r#""Debian/K/E/{\"family\"=>\"Debian\"}""#.into())
        );
        let names: Vec<String> = t.calls.borrow().iter().map(|c| c.0.clone()).collect();
        assert_eq!(names, ["$os", "$role", "k", "$nope", "$os"]);
        // A digits-only variable is an Array index into the scope Hash.
        let (st, e, _) = parse(r#""%{1}""#, None, None, Some(&host));
        assert_eq!(st, HIERA_ERROR);
        assert!(e.unwrap().contains("Got Hash when Array was expected"));
    }

    #[test]
    fn answer_setters_check_their_arguments() {
        let mut a = hiera3_answer::new();
        // SAFETY: a live local answer; NULLs are checked first.
        unsafe {
            assert_eq!(
                hiera3_answer_value(ptr::null_mut(), c"1".as_ptr()),
                HIERA_NULL_ARGUMENT
            );
            assert_eq!(
                hiera3_answer_value(&mut a, ptr::null()),
                HIERA_NULL_ARGUMENT
            );
            assert_eq!(
                hiera3_answer_error(&mut a, ptr::null()),
                HIERA_NULL_ARGUMENT
            );
            assert_eq!(hiera3_answer_seen(&mut a, ptr::null()), HIERA_NULL_ARGUMENT);
            assert!(matches!(a.outcome, Ok(None)));
            assert_eq!(
                hiera3_answer_value(&mut a, c"[1".as_ptr()),
                HIERA_INVALID_ARGUMENT
            );
            assert!(a.outcome.is_err());
            assert_eq!(hiera3_answer_value(&mut a, c"null".as_ptr()), HIERA_OK);
            assert_eq!(a.outcome, Ok(Some(Value::Nil)));
            assert_eq!(hiera3_answer_error(&mut a, c"bad \xff".as_ptr()), HIERA_OK);
            assert_eq!(a.outcome.clone().unwrap_err().message, "bad \u{fffd}");
            assert_eq!(
                hiera3_answer_seen(&mut a, c"{}".as_ptr()),
                HIERA_INVALID_ARGUMENT
            );
        }
    }

    #[test]
    fn datasources_export() {
        let t = Table {
            values: vec![("lvl", r#""from_hiera""#)],
            ..Default::default()
        };
        let host = host_of(&t);
        let (h, s, o) = (
            c(r#"["nodes/%{host}", "%{missing}", "/abs", "%{hiera('lvl')}", "common"]"#),
            c(r#"{"host":"web01"}"#),
            c(r#"["first"]"#),
        );
        let mut out = UNSET;
        // SAFETY: valid strings, host and out-parameter.
        let st = unsafe { hiera3_datasources(h.as_ptr(), s.as_ptr(), o.as_ptr(), &host, &mut out) };
        assert_eq!(
            (st, take(out).unwrap()),
            (
                HIERA_OK,
                r#"["first","nodes/web01","from_hiera","common"]"#.to_string()
            )
        );
        assert!(t.calls.borrow()[0].1.contains(r#""config":true"#));
        let mut out = UNSET;
        // SAFETY: as above, with NULL optional arguments.
        let st = unsafe {
            hiera3_datasources(
                c"null".as_ptr(),
                ptr::null(),
                ptr::null(),
                ptr::null(),
                &mut out,
            )
        };
        assert_eq!(
            (st, take(out).unwrap()),
            (HIERA_OK, r#"["common"]"#.to_string())
        );
    }

    fn open(options: &str) -> (hiera_status, *mut hiera3, Option<String>) {
        let o = c(options);
        let (mut h, mut err) = (ptr::null_mut(), UNSET);
        // SAFETY: valid string and local out-parameters.
        let st = unsafe { hiera3_open(o.as_ptr(), &mut h, &mut err) };
        let err = if err == UNSET { None } else { take(err) };
        (st, h, err)
    }

    fn lookup(
        h: *mut hiera3,
        request: &str,
        host: Option<&hiera3_host>,
    ) -> (hiera_status, Option<String>, Option<String>) {
        let r = c(request);
        let (mut out, mut g) = (UNSET, UNSET);
        // SAFETY: a live handle, a valid string, host and outs.
        let st = unsafe {
            hiera3_lookup(
                h,
                r.as_ptr(),
                host.map_or(ptr::null(), |h| h as *const _),
                &mut out,
                &mut g,
            )
        };
        (st, take(out), take(g))
    }

    #[test]
    fn open_lookup_free() {
        let dir = fixture_dir("hiera3/array_resolution");
        let (st, h, err) = open(&format!(
            r#"{{"config_file":"hiera.yaml","cwd":"{}"}}"#,
            dir.display()
        ));
        assert_eq!((st, err), (HIERA_OK, None));
        let scope = r#"{"clientcert":"web01","role":"web"}"#;
        let (st, v, g) = lookup(
            h,
            &format!(r#"{{"key":"classes","scope":{scope},"resolution_type":"array"}}"#),
            None,
        );
        assert_eq!(st, HIERA_OK, "{v:?}");
        assert!(v.unwrap().starts_with('['));
        assert_eq!(g, None);
        let (st, v, _) = lookup(h, &format!(r#"{{"key":"nope","scope":{scope}}}"#), None);
        assert_eq!((st, v), (HIERA_NOT_FOUND, None));
        let (st, v, _) = lookup(
            h,
            &format!(r#"{{"key":"nope","scope":{scope},"default":"d-%{{role}}"}}"#),
            None,
        );
        assert_eq!((st, v.unwrap()), (HIERA_OK, r#""d-web""#.into()));
        // One backend, with a guard and a config context handed back.
        let (st, _, g) = lookup(
            h,
            &format!(
                r#"{{"key":"nope","scope":{scope},"backend":"YAML","context":{{"seen":["x"]}},"config_context":{{"seen":[]}}}}"#
            ),
            None,
        );
        assert_eq!(
            (st, g.unwrap()),
            (HIERA_NOT_FOUND, r#"{"seen":["x"],"config_seen":[]}"#.into())
        );
        let (st, e, _) = lookup(h, r#"{"key":"k","backend":"xml"}"#, None);
        assert_eq!(st, HIERA_ERROR);
        assert!(e.unwrap().contains("Cannot load backend xml"));
        for bad in [
            r#"{"key":1}"#,
            r#"{"scope":{}}"#,
            r#"{"key":"k","bogus":1}"#,
            r#"{"key":"k","context":{"seen":[1]}}"#,
            "[]",
        ] {
            assert_eq!(lookup(h, bad, None).0, HIERA_INVALID_ARGUMENT, "{bad}");
        }
        // SAFETY: `h` came from hiera3_open; freed once; NULL is a no-op.
        unsafe {
            hiera3_free(h);
            hiera3_free(ptr::null_mut());
        }
    }

    #[test]
    fn open_errors() {
        let (st, h, err) = open(r#"{"config_file":"/nonexistent/hiera.yaml"}"#);
        assert_eq!((st, h), (HIERA_ERROR, ptr::null_mut()));
        assert_eq!(
            err.unwrap(),
            r#"{"kind":"config","message":"Config file /nonexistent/hiera.yaml not found"}"#
        );
        for bad in [
            r#"{}"#,
            r#"{"config_file":"a","config":{}}"#,
            r#"{"cwd":1,"config":{}}"#,
            r#"{"x":1}"#,
            "1",
        ] {
            assert_eq!(open(bad).0, HIERA_INVALID_ARGUMENT, "{bad}");
        }
        let (st, h, _) = open(r#"{"config":{}}"#);
        assert_eq!(st, HIERA_OK);
        // SAFETY: from hiera3_open, freed once.
        unsafe { hiera3_free(h) };
    }

    #[test]
    fn backend_lookups_go_to_the_host() {
        // A backend's data interpolates hiera(): the host (Ruby's
        // Backend.lookup) answers, with the lookup's context.
        let dir = std::env::temp_dir().join(format!("libhiera-ffi-h3-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("data")).unwrap();
        std::fs::write(
            dir.join("data/common.yaml"),
            "k: \"%{hiera('other')} %{v}\"\n",
        )
        .unwrap();
        let t = Table {
            values: vec![("other", r#""O""#)],
            scope: Some(vec![("v", r#""V""#)]),
            ..Default::default()
        };
        let host = host_of(&t);
        let config = format!(
            r#"{{"config":{{"__type__":"Hash","entries":[[{{"__type__":"Symbol","value":"hierarchy"}},["common"]],[{{"__type__":"Symbol","value":"yaml"}},{{"__type__":"Hash","entries":[[{{"__type__":"Symbol","value":"datadir"}},"{}/data"]]}}]]}}}}"#,
            dir.display()
        );
        let (st, h, _) = open(&config);
        assert_eq!(st, HIERA_OK);
        let (st, v, _) = lookup(
            h,
            r#"{"key":"k","backend":"yaml","context":{"order_override":"oo"}}"#,
            Some(&host),
        );
        assert_eq!((st, v.unwrap()), (HIERA_OK, r#""O V""#.into()));
        assert_eq!(
            t.calls.borrow()[0],
            (
                "other".into(),
                r#"{"order_override":"oo","seen":["hiera('other')"]}"#.into()
            )
        );
        assert_eq!(t.calls.borrow()[1].0, "$v");
        // SAFETY: from hiera3_open, freed once.
        unsafe { hiera3_free(h) };
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
