//! `hiera_lookup_all`: every key of a session's node and its answer (see
//! [`crate::hiera5::all_keys`]).

use super::answer::{answer_export, Answer};
use super::hiera_status;
use super::session::hiera_session;
use crate::hiera5::lookup::Session;
use crate::render::to_json;
use crate::request::error_json as error_object;
use crate::value::Value;
use std::ffi::c_char;

/// `hiera_lookup_all` without the pointers: the status and the text of
/// `*result_json`.
pub(crate) fn lookup_all_json(session: &Session) -> Answer {
    match session.lookup_all() {
        Ok(all) => {
            let mut s = String::from("{\"values\":");
            s.push_str(&to_json(&all.values_hash()));
            s.push_str(",\"errors\":{");
            for (i, (key, e)) in all.errors.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                s.push_str(&to_json(&Value::from(key.as_str())));
                s.push(':');
                s.push_str(&error_object(e));
            }
            s.push_str("}}");
            Answer::ok(s)
        }
        Err(e) => Answer::failed(&e),
    }
}

/// Looks up every key the session's node can look up (`hiera-lookup
/// --all`): the top-level keys of every data file its hierarchies reach in
/// the global, environment and module layers (module keys only in their
/// own namespace) and the keys `lookup_options` names.
///
/// Returns, with `*result_json`:
/// - `HIERA_OK`: `{"values": {KEY: V, ...}, "errors": {KEY: ERROR, ...}}`:
///   the found answers sorted by key (keys not found left out), and the
///   keys whose lookup failed with their error object (as in
///   `hiera_lookup`'s `HIERA_ERROR`); one key's error does not stop the
///   others.
/// - `HIERA_ERROR`: an error object: the global or environment
///   configuration or one of its data files cannot be read.
/// - `HIERA_NULL_ARGUMENT`, `HIERA_PANIC`: `*result_json` is not written.
///
/// Ownership: `s` is borrowed for the call; `*result_json` belongs to the
/// caller: free it with `hiera_string_free`.
/// Threads: many threads may call this on one session at once.
///
/// # Safety
/// `s` is NULL or a live session; `result_json` is NULL or valid for a
/// write of a pointer.
#[no_mangle]
pub unsafe extern "C" fn hiera_lookup_all(
    s: *const hiera_session,
    result_json: *mut *mut c_char,
) -> hiera_status {
    let answer = || {
        // SAFETY: `s` is non-NULL (checked before `answer` runs) and, per the
        // contract, a live session; only shared access is taken, since other
        // threads may use it too.
        let session = unsafe { &*s };
        lookup_all_json(&session.inner)
    };
    // SAFETY: `result_json` is NULL or writable, per the contract.
    unsafe { answer_export(s.is_null(), result_json, answer) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::hiera::{hiera_free, hiera_open};
    use crate::ffi::session::{hiera_session_free, hiera_session_new};
    use crate::ffi::string::hiera_string_free;
    use std::ffi::{CStr, CString};

    #[test]
    fn null_arguments_are_refused() {
        let mut out: *mut c_char = std::ptr::null_mut();
        // SAFETY: NULL session, valid out pointer: refused, nothing written.
        let st = unsafe { hiera_lookup_all(std::ptr::null_mut(), &mut out) };
        assert_eq!(st, hiera_status::HIERA_NULL_ARGUMENT);
        assert!(out.is_null());
    }

    #[test]
    fn answers_values_and_errors_of_a_session() {
        let dir = std::env::temp_dir().join(format!("ffi_all_{}", std::process::id()));
        std::fs::create_dir_all(dir.join("data")).unwrap();
        std::fs::write(
            dir.join("hiera.yaml"),
            "version: 5\nhierarchy:\n  - name: c\n    path: c.yaml\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("data/c.yaml"),
            "b: 2\na: 1\nloop: \"%{lookup('loop')}\"\n",
        )
        .unwrap();
        let opts = CString::new(format!(
            "{{\"hiera_config\": {}}}",
            to_json(&Value::from(dir.join("hiera.yaml").to_str().unwrap()))
        ))
        .unwrap();
        let scope = CString::new("{}").unwrap();
        let (mut h, mut s, mut err, mut out) = (
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        );
        // SAFETY: valid strings and out pointers; handles freed below.
        unsafe {
            assert_eq!(
                hiera_open(opts.as_ptr(), &mut h, &mut err),
                hiera_status::HIERA_OK
            );
            assert_eq!(
                hiera_session_new(h, scope.as_ptr(), &mut s, &mut err),
                hiera_status::HIERA_OK
            );
            assert_eq!(hiera_lookup_all(s, &mut out), hiera_status::HIERA_OK);
            let text = CStr::from_ptr(out).to_str().unwrap().to_string();
            hiera_string_free(out);
            hiera_session_free(s);
            hiera_free(h);
            assert!(
                text.starts_with(
                    "{\"values\":{\"a\":1,\"b\":2},\"errors\":{\"loop\":{\"kind\":\"recursion\""
                ),
                "{text}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
