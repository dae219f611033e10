//! Strings handed to the caller: allocated here with `CString::into_raw`,
//! freed only by `hiera_string_free` (never mix allocators).

use super::guard;
use std::ffi::{c_char, CString};

/// Hands a string to the caller as a NUL-terminated C string.
///
/// Every string libhiera hands out is JSON, where a NUL can only appear
/// escaped; a raw NUL byte (which C could not see past) is written as the
/// JSON escape `\u0000` all the same, so nothing is ever cut short.
pub(crate) fn into_c_string(s: String) -> *mut c_char {
    into_c_bytes(s.into_bytes())
}

/// [`into_c_string`] of a text's bytes (UTF-8).
pub(crate) fn into_c_bytes(s: Vec<u8>) -> *mut c_char {
    let c = match CString::new(s) {
        Ok(c) => c,
        Err(e) => {
            let text = String::from_utf8_lossy(&e.into_vec()).replace('\0', "\\u0000");
            CString::new(text).unwrap_or_default()
        }
    };
    c.into_raw()
}

/// Frees a string that libhiera returned (`result_json`, `results_json`,
/// `error_json`).
///
/// Ownership: takes back ownership of `s`, which must come from libhiera and
/// must not be used afterwards. Never pass a string that libhiera did not
/// allocate, never free one twice, and never free libhiera strings with
/// `free()`. `hiera_version()`'s string is static: do not free it.
/// NULL is allowed and does nothing.
/// Threads: any thread, not necessarily the one that received the string.
///
/// # Safety
/// `s` is NULL or a string returned by libhiera that was not freed yet.
#[no_mangle]
pub unsafe extern "C" fn hiera_string_free(s: *mut c_char) {
    guard((), || {
        if s.is_null() {
            return;
        }
        // SAFETY: the caller guarantees that `s` was returned by libhiera,
        // i.e. made by `CString::into_raw` in `into_c_string`, and that it is
        // freed only once; `from_raw` takes that allocation back.
        drop(unsafe { CString::from_raw(s) });
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    #[test]
    fn round_trip() {
        let p = into_c_string("{\"a\":\"é\"}".to_string());
        // SAFETY: `p` was just made by into_c_string.
        let text = unsafe { CStr::from_ptr(p) };
        assert_eq!(text.to_str().unwrap(), "{\"a\":\"é\"}");
        // SAFETY: `p` came from into_c_string and is freed once.
        unsafe { hiera_string_free(p) };
        // SAFETY: NULL is documented as a no-op.
        unsafe { hiera_string_free(std::ptr::null_mut()) };
    }

    #[test]
    fn nul_bytes_are_escaped() {
        let p = into_c_string("\"a\0b\"".to_string());
        // SAFETY: `p` was just made by into_c_string.
        let text = unsafe { CStr::from_ptr(p) };
        assert_eq!(text.to_str().unwrap(), "\"a\\u0000b\"");
        // SAFETY: `p` came from into_c_string and is freed once.
        unsafe { hiera_string_free(p) };
    }
}
