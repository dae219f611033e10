//! `hiera_host`: what the host runs for a `hiera` (hierarchy functions
//! libhiera does not have, and Puppet's warnings), `hiera_answer` (a call's
//! answer), and `hiera_open_with_host`.

use super::answer::{answer_export, Answer};
use super::hiera::{hiera, open_json_with};
use super::{guard, hiera_status, input_json, input_str, set_answer, write_made};
use crate::error::{Error, ErrorKind, Result};
use crate::host::{Host, HostCall, HostContext, HostRef, Warning};
use crate::value::Value;
use std::ffi::{c_char, c_void, CString};
use std::sync::Arc;

/// The answer to one `call` of a `hiera_host`, set through
/// `hiera_answer_value` and `hiera_answer_error`. A call that sets nothing
/// answers "not found".
///
/// The answer also gives the running call its lookup's context:
/// `hiera_answer_interpolate` and `hiera_answer_explain`.
///
/// Made by libhiera for one call; valid only until the callback returns.
/// Never free it.
#[allow(non_camel_case_types)]
pub struct hiera_answer {
    outcome: Result<Option<Value>>,
    /// The lookup that made the call (a hierarchy function's call; `None`
    /// for a variable). Its lifetime is erased: it lives until the callback
    /// returns, and the answer is only reachable until then.
    context: Option<*const (dyn HostContext + 'static)>,
}

impl hiera_answer {
    fn new(context: Option<&dyn HostContext>) -> hiera_answer {
        hiera_answer {
            outcome: Ok(None),
            // SAFETY: only the lifetime is changed (same layout). The
            // pointer is used only through the answer, which the host may
            // use only until the callback returns, while the context lives.
            context: context.map(|c| unsafe {
                std::mem::transmute::<
                    *const (dyn HostContext + '_),
                    *const (dyn HostContext + 'static),
                >(c as *const dyn HostContext)
            }),
        }
    }
}

/// Runs a hierarchy function libhiera does not have (a custom `data_hash`,
/// `lookup_key` or `data_dig` function, a Hiera 3 backend, or a Puppet 4
/// `function` data provider's `environment::data` / `<module>::data`).
///
/// `call_json` is the call, a JSON object (wire JSON):
/// `{"kind": "data_hash" | "lookup_key" | "data_dig" | "hiera3_backend" |
///   "v4_data_hash",
///   "function": NAME, "layer": "global" | "environment" | "module",
///   "module": NAME?, "entry": HIERARCHY_ENTRY_NAME, "index": N,
///   "default_hierarchy": BOOL, "location": PATH_OR_URI?, "options": {...}?,
///   "key": KEY?, "segments": [ROOT, SUBKEY...]?, "merge": MERGE?}`.
/// - `data_hash`: once per location and session; answer the location's
///   whole hash (an object), or nothing.
/// - `lookup_key`: `key` is the root key; answer its value, or nothing for
///   not found (Puppet's `context.not_found`).
/// - `data_dig`: `key` is the whole dotted key and `segments` its parts;
///   answer the value of the whole key, or nothing.
/// - `hiera3_backend`: once per key for the whole level (the backend
///   searches its own hierarchy), with `merge` (absent: first found);
///   answer the value of the whole key, or nothing.
/// - `v4_data_hash`: a Puppet 4 `function` data provider (environment.conf's
///   `environment_data_provider = function`: layer `environment`, function
///   `environment::data`; a module's metadata.json `"data_provider":
///   "function"`: layer `module`, function `<module>::data`), entry
///   `Legacy function '<function>'` at index 0, no location, no options:
///   once per session; call the function without arguments and answer its
///   whole hash (an object). Without a `call` callback it is Puppet's error
///   for a function it cannot find (`Unable to find 'v4_data_hash' function
///   named 'environment::data'`).
///
/// With the option `host_variables: true` it is also called as
/// `{"kind": "variable", "key": NAME}` for a qualified variable (`a::b`,
/// a class's variable) the session does not have, and, always, for a
/// variable an overlay session defers (`hiera_session_overlay`'s
/// `deferred`) when a lookup first reads it: answer its value, or nothing
/// when there is no such variable (an error counts as nothing). It must
/// not look up from inside such a call. A lookup whose request gives
/// `known_variables` calls it as `{"kind": "variable", "key": NAME,
/// "index": I}` for a plain variable it reads that is not among the
/// first `known_variables` names the session has numbered: answer the
/// variable as the lookup's scope sees it (its own or the top scope's),
/// and remember that NAME is the session's name number I (see
/// `hiera_lookup`'s `known_variables`). With the option `host_scope: true`
/// it is called as `{"kind": "variable", "key": NAME, "scope": "top"}` for
/// a plain variable a session's scope does not have (nor an overlay's own
/// or deferred ones), at most once per session and name (its overlays
/// share the answer): answer the variable of the session's own scope (a
/// compile's top scope, whatever the lookup's scope), or nothing when
/// there is none (it stays undefined for the session).
///
/// The string is borrowed for the call. The callback answers through
/// `answer`; it may look up again (any session, any `hiera`) before it
/// returns. A hierarchy function's call also gets its lookup's context
/// through `answer`, as Puppet's `LookupContext` gives it:
/// `hiera_answer_interpolate` (`context.interpolate`) and
/// `hiera_answer_explain` (`context.explain`); answering nothing is
/// `context.not_found`. A host keeps its own cache (`context.cache`):
/// Puppet's lives as long as the environment, per function and module. It must not unwind (no C++ exception, no longjmp) out of the
/// call.
#[allow(non_camel_case_types)]
pub type hiera_call_fn = Option<
    unsafe extern "C" fn(
        user_data: *mut c_void,
        call_json: *const c_char,
        answer: *mut hiera_answer,
    ),
>;

/// Logs a warning Puppet would log during a lookup (an undefined variable
/// under `strict: warning`, a data file that is not a hash, a hiera.yaml
/// that is ignored). `warning_json` is a JSON object `{"message": TEXT,
/// "kind": K?, "key": KEY?, "file": PATH?, "line": N?}`: without `kind`,
/// Puppet logs it each time (`Puppet.warning`); with one, once per `key`
/// (`Puppet.warn_once(kind, key, message, file, line)`). Borrowed for the
/// call. It must not unwind.
#[allow(non_camel_case_types)]
pub type hiera_warn_fn =
    Option<unsafe extern "C" fn(user_data: *mut c_void, warning_json: *const c_char)>;

/// Called once, when the `hiera` and every session made from it are freed:
/// the host may then release `user_data`.
#[allow(non_camel_case_types)]
pub type hiera_release_fn = Option<unsafe extern "C" fn(user_data: *mut c_void)>;

/// What the host provides to a `hiera` (`hiera_open_with_host`). Every
/// callback may be NULL.
///
/// - `call`: runs hierarchy functions. NULL: such a function is an error,
///   as without a host ("Unable to find 'lookup_key' function named ...").
/// - `warn`: receives warnings. NULL: warnings are dropped.
/// - `release`: called once when the configuration is gone.
/// - `user_data`: passed to each, untouched.
///
/// Threads: the callbacks run on the thread that looks up, during its
/// lookup, on any thread that uses the `hiera` or its sessions, possibly
/// on several threads at once, and nested (a `call` that looks up again
/// sees further calls before it returns). `user_data` must stay valid until
/// `release`.
#[allow(non_camel_case_types)]
#[repr(C)]
pub struct hiera_host {
    /// Passed to the callbacks as their first argument.
    pub user_data: *mut c_void,
    /// Runs hierarchy functions, or NULL.
    pub call: hiera_call_fn,
    /// Receives warnings, or NULL.
    pub warn: hiera_warn_fn,
    /// Releases `user_data`, or NULL.
    pub release: hiera_release_fn,
}

/// The [`Host`] made of a `hiera_host`.
struct CHost {
    host: hiera_host,
}

// SAFETY: the contract of `hiera_host` (and of `hiera_open_with_host`) is
// that its callbacks and `user_data` may be used from any thread, at once.
unsafe impl Send for CHost {}
// SAFETY: as above; the struct is never written after it is made.
unsafe impl Sync for CHost {}

impl Host for CHost {
    fn call(&self, call: &HostCall<'_>) -> Result<Option<Value>> {
        let Some(f) = self.host.call else {
            return Err(Error::new(
                ErrorKind::Config,
                format!(
                    "Unable to find '{}' function named '{}'",
                    call.kind.key(),
                    call.function
                ),
            ));
        };
        let text = CString::new(call.to_json()).map_err(|_| {
            Error::new(
                ErrorKind::Lookup,
                "host call: the call contains a NUL byte".to_string(),
            )
        })?;
        let mut answer = hiera_answer::new(call.context.map(|c| c.0));
        // SAFETY: `f` is the host's callback, called as its contract says:
        // `text` is a NUL-terminated string alive for the call, and `answer`
        // a live answer it may set through the setters until it returns.
        unsafe { f(self.host.user_data, text.as_ptr(), &mut answer) };
        answer.outcome
    }

    fn runs_functions(&self) -> bool {
        self.host.call.is_some()
    }

    fn variable(&self, name: &str) -> Option<Value> {
        self.ask_variable(name, None)
    }

    fn scope_variable(&self, name: &str, index: usize) -> Option<Value> {
        self.ask_variable(name, Some(index))
    }

    fn top_variable(&self, name: &str) -> Option<Value> {
        self.ask_variable(name, Some(TOP))
    }

    fn warn(&self, warning: &Warning) {
        let Some(f) = self.host.warn else { return };
        // JSON escapes a NUL: never refused.
        let Ok(text) = CString::new(warning.to_json()) else {
            return;
        };
        // SAFETY: `f` is the host's callback; `text` is NUL-terminated and
        // alive for the call.
        unsafe { f(self.host.user_data, text.as_ptr()) };
    }
}

/// [`CHost::ask_variable`]'s index for a session's own (top-scope) variable.
const TOP: usize = usize::MAX;

impl CHost {
    /// `{"kind": "variable", "key": NAME, "index"?: I}` through `call`;
    /// `{"kind": "variable", "key": NAME, "scope": "top"}` for [`TOP`].
    fn ask_variable(&self, name: &str, index: Option<usize>) -> Option<Value> {
        let f = self.host.call?;
        let mut call = crate::value::Map::default();
        call.insert(Value::from("kind"), Value::from("variable"));
        call.insert(Value::from("key"), Value::from(name));
        match index {
            Some(TOP) => {
                call.insert(Value::from("scope"), Value::from("top"));
            }
            Some(i) => {
                call.insert(Value::from("index"), Value::Int(i as i64));
            }
            None => {}
        }
        let text = CString::new(crate::render::to_json(&Value::hash(call))).ok()?;
        let mut answer = hiera_answer::new(None);
        // SAFETY: as in `call`: `text` is NUL-terminated and alive for the
        // call, `answer` is live until the callback returns.
        unsafe { f(self.host.user_data, text.as_ptr(), &mut answer) };
        answer.outcome.ok().flatten()
    }
}

impl Drop for CHost {
    fn drop(&mut self) {
        if let Some(f) = self.host.release {
            // SAFETY: called once, when the last reference to the
            // configuration goes, as the contract of `release` says.
            unsafe { f(self.host.user_data) };
        }
    }
}

/// Opens a configuration, as `hiera_open`, whose lookups call `host` for
/// hierarchy functions libhiera does not have and for warnings.
///
/// `host` is copied (the struct; its `user_data` must stay valid until its
/// `release` is called). Returns what `hiera_open` returns; when the
/// configuration cannot be made, `release` is called before this returns.
///
/// Ownership: as `hiera_open`.
/// Threads: any thread; the callbacks run as `hiera_host` says.
///
/// # Safety
/// `options_json` is NULL or a NUL-terminated string; `host` is NULL or a
/// valid `hiera_host` whose callbacks keep their contract; `out` and
/// `error_json` are NULL or valid for a write of a pointer.
#[no_mangle]
pub unsafe extern "C" fn hiera_open_with_host(
    options_json: *const c_char,
    host: *const hiera_host,
    out: *mut *mut hiera,
    error_json: *mut *mut c_char,
) -> hiera_status {
    guard(hiera_status::HIERA_PANIC, || {
        if options_json.is_null() || host.is_null() || out.is_null() || error_json.is_null() {
            return hiera_status::HIERA_NULL_ARGUMENT;
        }
        // SAFETY: checked non-NULL; the caller guarantees a valid host.
        let host = unsafe { host.read() };
        let host = HostRef(Arc::new(CHost { host }));
        // SAFETY: checked non-NULL; the caller guarantees a NUL-terminated
        // string valid for the duration of the call.
        let opened = unsafe { input_str(options_json, "options_json") }
            .and_then(|text| open_json_with(text, Some(host)));
        let made = opened.map(|h| hiera { inner: Arc::new(h) });
        // SAFETY: `out` and `error_json` are non-NULL and, per the contract, writable.
        unsafe { write_made(made, out, error_json) }
    })
}

/// Hands a call's value back: `value_json` is the value as wire JSON
/// (`null` for a found nil). Copied; borrowed for the call only.
///
/// Returns `HIERA_OK`; `HIERA_INVALID_ARGUMENT` when `value_json` is not
/// UTF-8 or not JSON (the lookup then fails with that message);
/// `HIERA_NULL_ARGUMENT` (nothing recorded); `HIERA_PANIC`.
/// Threads: only inside the callback that received `answer`.
///
/// # Safety
/// `answer` is NULL or the answer passed to the running callback;
/// `value_json` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn hiera_answer_value(
    answer: *mut hiera_answer,
    value_json: *const c_char,
) -> hiera_status {
    // SAFETY: the contract of this function is the one of `set_answer`.
    unsafe {
        set_answer(answer, value_json, |answer, bytes| {
            let value = std::str::from_utf8(bytes)
                .map_err(|e| {
                    Error::new(
                        ErrorKind::InvalidArgument,
                        format!(
                            "value_json is not valid UTF-8 (invalid byte at offset {})",
                            e.valid_up_to()
                        ),
                    )
                })
                .and_then(|text| input_json(text, "value_json"));
            match value {
                Ok(v) => {
                    answer.outcome = Ok(Some(v));
                    hiera_status::HIERA_OK
                }
                Err(e) => {
                    answer.outcome = Err(Error::new(
                        ErrorKind::Lookup,
                        format!("the host function's answer: {}", e.message),
                    ));
                    hiera_status::HIERA_INVALID_ARGUMENT
                }
            }
        })
    }
}

/// Hands a call's failure back: the lookup fails with `message` (an error
/// of kind `lookup`), as the function's exception fails Puppet's lookup.
/// Copied; borrowed for the call only. A message that is not UTF-8 is taken
/// with its invalid bytes replaced.
///
/// Returns `HIERA_OK`, `HIERA_NULL_ARGUMENT` (nothing recorded) or
/// `HIERA_PANIC`.
/// Threads: only inside the callback that received `answer`.
///
/// # Safety
/// `answer` is NULL or the answer passed to the running callback; `message`
/// is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn hiera_answer_error(
    answer: *mut hiera_answer,
    message: *const c_char,
) -> hiera_status {
    // SAFETY: the contract of this function is the one of `set_answer`.
    unsafe {
        set_answer(answer, message, |answer, bytes| {
            answer.outcome = Err(Error::new(
                ErrorKind::Lookup,
                String::from_utf8_lossy(bytes).into_owned(),
            ));
            hiera_status::HIERA_OK
        })
    }
}

/// The context of the call that received `answer`, or an error.
fn context_of(answer: &hiera_answer) -> Result<&dyn HostContext> {
    match answer.context {
        // SAFETY: set by `hiera_answer::new` from the context of the
        // running call, which outlives the answer (see `hiera_answer`).
        Some(p) => Ok(unsafe { &*p }),
        None => Err(Error::new(
            ErrorKind::InvalidArgument,
            "this call has no lookup context (only a hierarchy function's call has one)"
                .to_string(),
        )),
    }
}

/// Interpolates a value in the scope of the lookup that made the running
/// call, as a Puppet function's `context.interpolate(value)` does: every
/// string in it (in hashes and arrays too), with the `lookup`, `hiera`,
/// `alias` and `literal` methods; the lookup's limits bound it, and a
/// method may call the host again (nested calls) before this returns.
/// `value_json` is the value as wire JSON; copied, borrowed for the call.
///
/// Returns, with `*result_json`:
/// - `HIERA_OK`: the interpolated value, as wire JSON;
/// - `HIERA_ERROR`: the interpolation's error object (an undefined
///   variable under `strict: error`, a bad expression, a failed nested
///   lookup); the call itself is not failed: answer
///   `hiera_answer_error` with it to fail the lookup, as the exception of
///   Puppet's `interpolate` would;
/// - `HIERA_INVALID_ARGUMENT`: an error object: `value_json` is not UTF-8
///   or not JSON, or the call has none to give (a `variable` call);
/// - `HIERA_NULL_ARGUMENT`, `HIERA_PANIC`: nothing is written.
///
/// Ownership: `*result_json` belongs to the caller (free it with
/// `hiera_string_free`).
/// Threads: only inside the callback that received `answer`, on its thread.
///
/// # Safety
/// `answer` is NULL or the answer passed to the running callback;
/// `value_json` is NULL or a NUL-terminated string; `result_json` is NULL
/// or valid for a write of a pointer.
#[no_mangle]
pub unsafe extern "C" fn hiera_answer_interpolate(
    answer: *mut hiera_answer,
    value_json: *const c_char,
    result_json: *mut *mut c_char,
) -> hiera_status {
    let missing = answer.is_null() || value_json.is_null();
    let interpolated = || {
        // SAFETY: non-NULL (checked before this runs) and, per the contract,
        // the live answer of the running callback, used by this thread only;
        // `value_json` is non-NULL and NUL-terminated per the contract.
        let (answer, text) = unsafe { (&*answer, input_str(value_json, "value_json")) };
        let input = text
            .and_then(|t| input_json(t, "value_json"))
            .and_then(|v| Ok((context_of(answer)?, v)));
        match input {
            Err(e) => Answer::invalid(&e),
            Ok((context, value)) => match context.interpolate(&value) {
                Ok(v) => Answer::ok(crate::render::to_json(&v)),
                Err(e) => Answer::failed(&e),
            },
        }
    };
    // SAFETY: `result_json` is NULL or writable, per the contract.
    unsafe { answer_export(missing, result_json, interpolated) }
}

/// Adds a line to the explanation of the lookup that made the running call,
/// as a Puppet function's `context.explain { text }` does (at the place of
/// the call in the tree); nothing when the lookup is not explained.
/// `text` is copied; a text that is not UTF-8 is taken with its invalid
/// bytes replaced.
///
/// Returns `HIERA_OK`; `HIERA_INVALID_ARGUMENT` when the call has no
/// lookup (a `variable` call); `HIERA_NULL_ARGUMENT`; `HIERA_PANIC`.
/// Threads: only inside the callback that received `answer`, on its thread.
///
/// # Safety
/// `answer` is NULL or the answer passed to the running callback; `text` is
/// NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn hiera_answer_explain(
    answer: *mut hiera_answer,
    text: *const c_char,
) -> hiera_status {
    // SAFETY: the contract of this function is the one of `set_answer`.
    unsafe {
        set_answer(answer, text, |answer, bytes| match context_of(answer) {
            Ok(context) => {
                context.explain(&String::from_utf8_lossy(bytes));
                hiera_status::HIERA_OK
            }
            Err(_) => hiera_status::HIERA_INVALID_ARGUMENT,
        })
    }
}
