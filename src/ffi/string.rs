//! Strings handed to the caller: allocated here with the C library's
//! `malloc` (one allocation of exactly the text and its NUL), freed only by
//! `hiera_string_free` (which calls `free`; callers never call `free`
//! themselves, so the allocator stays libhiera's choice).

use super::guard;
use std::ffi::c_char;

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
    c_copy(&s)
}

/// A copy of `bytes` (UTF-8) as a NUL-terminated C string the caller frees
/// with `hiera_string_free`: one `malloc` of the length and the NUL, no
/// `realloc` to shrink it and no `strlen` to free it (what `CString`'s
/// `into_raw` and `from_raw` cost). A NUL inside is written `\u0000`.
pub(crate) fn c_copy(bytes: &[u8]) -> *mut c_char {
    if memchr::memchr(0, bytes).is_some() {
        let text = String::from_utf8_lossy(bytes).replace('\0', "\\u0000");
        return c_copy(text.as_bytes());
    }
    c_copy_nul_free(bytes)
}

/// [`c_copy`] of a text known to hold no NUL byte (the JSON writer's,
/// [`crate::render::push_json_bytes`]): not searched for one.
pub(crate) fn c_copy_nul_free(bytes: &[u8]) -> *mut c_char {
    debug_assert!(memchr::memchr(0, bytes).is_none());
    let n = bytes.len();
    // SAFETY: `malloc` may be called with any size; its result is checked
    // for NULL before use.
    let p = unsafe { libc::malloc(n + 1) }.cast::<u8>();
    if p.is_null() {
        // What a Rust allocation failure does (no unwinding across the ABI).
        std::alloc::handle_alloc_error(
            std::alloc::Layout::array::<u8>(n + 1)
                .unwrap_or_else(|_| std::alloc::Layout::new::<u8>()),
        );
    }
    // SAFETY: `p` is a fresh allocation of `n + 1` bytes, which cannot
    // overlap `bytes`; the `n` bytes and the NUL after them are written
    // within it.
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), p, n);
        p.add(n).write(0);
    }
    p.cast::<c_char>()
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
        // i.e. allocated by `malloc` in `c_copy`, and that it is freed only
        // once.
        unsafe { libc::free(s.cast()) };
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
