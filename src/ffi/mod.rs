//! The C ABI: opaque handles, JSON in and JSON out.
//!
//! This module holds every `unsafe` of libhiera and nothing else does. One
//! module per C type: [`status`] (`hiera_status`), [`hiera`] (`hiera`, an
//! opened configuration), [`session`] (`hiera_session`, a scope and its
//! caches, and the lookups), [`string`] (strings handed to the caller),
//! [`host`] (`hiera_host`: hierarchy functions and warnings the host
//! provides, `hiera_answer`, `hiera_open_with_host`),
//! [`data`] (data files read as `yaml_data`/`json_data` do) and [`hiera3`]
//! (`hiera3_*`: the Hiera 3 helpers with host callbacks, and `hiera3`, an
//! opened Hiera 3 configuration). `fork.rs` is the one call into the C
//! library that is not an export: forks counted, for the file watcher.
//! `include/hiera.h` is generated from these files by cbindgen
//! (`cbindgen.toml`; `tests/header.rs` checks that it is up to date).
//!
//! Rules that every export follows, each written once here:
//! - its body runs inside `guard`, so a panic never unwinds into C: it
//!   becomes `HIERA_PANIC` (or a harmless default for functions that return
//!   no status); an export that answers with a JSON text is written with
//!   `answer::answer_export` (the boundary, the NULL checks and the one
//!   writer of `*result_json`), a constructor with `write_made`, a
//!   destructor with `drop_made`, a callback's setter with `set_answer`;
//! - every pointer argument is checked for NULL before anything else happens
//!   (`HIERA_NULL_ARGUMENT`, nothing written);
//! - out-parameters are written last, only in the cases its documentation
//!   names, and never on `HIERA_NULL_ARGUMENT` or `HIERA_PANIC`;
//! - strings handed out are made by `string::c_copy` (one `malloc` of the
//!   text and its NUL) and come back only through `hiera_string_free`.
//! - callbacks into the host run on the calling thread during the call and
//!   answer through setters that copy what they are given.

#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

// The modules of the handles, in the order `include/hiera.h` lists their
// functions (cbindgen follows this order): a configuration, its sessions
// and lookups, host callbacks, strings handed out, and Hiera 3 last.
pub mod hiera;

pub mod session;

pub mod all;

pub mod host;

pub mod data;

pub mod string;

pub mod hiera3;

// What every export shares.
mod answer;
pub(crate) mod fork;
pub mod status;

pub use self::session::hiera_session;
pub use self::status::hiera_status;

use crate::error::{Error, ErrorKind};
use crate::value::Value;
use std::ffi::{c_char, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The version of the C ABI that this header describes. `hiera_abi_version()`
/// returns the version of the loaded library; the two must be equal. It is
/// also the number in the shared object's SONAME (`libhiera.so.0`): an
/// incompatible change of the ABI increments both, additions change neither.
pub const HIERA_ABI_VERSION: u32 = 0;

/// The major version of libhiera that this header comes with.
pub const HIERA_VERSION_MAJOR: u32 = 0;

/// The minor version of libhiera that this header comes with.
pub const HIERA_VERSION_MINOR: u32 = 1;

/// The patch version of libhiera that this header comes with.
pub const HIERA_VERSION_PATCH: u32 = 0;

const VERSION_C: &CStr =
    match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
        Ok(v) => v,
        Err(_) => panic!("the crate version contains a NUL byte"),
    };

/// The version of the loaded libhiera, e.g. `"0.1.0"` (the crate version).
///
/// Ownership: a static string; never free it.
/// Threads: any thread, any time.
#[no_mangle]
pub extern "C" fn hiera_version() -> *const c_char {
    guard(std::ptr::null(), || VERSION_C.as_ptr())
}

/// The ABI version of the loaded libhiera; compare it with
/// `HIERA_ABI_VERSION` to detect a header/library mismatch.
///
/// Threads: any thread, any time.
#[no_mangle]
pub extern "C" fn hiera_abi_version() -> u32 {
    guard(HIERA_ABI_VERSION, || HIERA_ABI_VERSION)
}

/// Runs the body of an export: a panic inside `f` is caught and turned into
/// `on_panic`, so that nothing unwinds into C. The panic payload is dropped
/// inside a second boundary, since its destructor could panic too.
pub(crate) fn guard<T>(on_panic: T, f: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(payload) => {
            let _ = catch_unwind(AssertUnwindSafe(move || drop(payload)));
            on_panic
        }
    }
}

/// Borrows a C input string as UTF-8. `name` names the argument in the error.
///
/// # Safety
/// `p` must be non-NULL and point to a NUL-terminated string that stays valid
/// and unchanged for `'a`.
pub(crate) unsafe fn input_str<'a>(p: *const c_char, name: &str) -> Result<&'a str, Error> {
    // SAFETY: the caller guarantees that `p` is non-NULL and points to a
    // NUL-terminated string that outlives `'a` and is not written meanwhile.
    utf8_input(unsafe { CStr::from_ptr(p) }.to_bytes(), name)
}

/// An input's bytes as text: [`input_str`]'s check and error.
pub(crate) fn utf8_input<'a>(bytes: &'a [u8], name: &str) -> Result<&'a str, Error> {
    std::str::from_utf8(bytes).map_err(|e| {
        Error::new(
            ErrorKind::InvalidArgument,
            format!(
                "{name} is not valid UTF-8 (invalid byte at offset {})",
                e.valid_up_to()
            ),
        )
    })
}

/// Decodes a JSON input (strict JSON, the wire format of
/// [`crate::render`], read by [`crate::wire::wire_value`]); a syntax error
/// is an `invalid_argument` error naming the argument and the byte offset.
pub(crate) fn input_json(text: &str, name: &str) -> Result<Value, Error> {
    crate::wire::wire_value(text, name)
}

/// Writes an out-parameter.
///
/// # Safety
/// `out` must be non-NULL, aligned and valid for a write of `T`.
pub(crate) unsafe fn write_out<T>(out: *mut T, value: T) {
    // SAFETY: the caller guarantees that `out` is non-NULL, aligned and
    // writable; the old content is a plain pointer, so nothing is dropped.
    unsafe { out.write(value) }
}

/// The body of a callback's answer setter (`hiera_answer_*`,
/// `hiera3_answer_*`): `HIERA_NULL_ARGUMENT` when `answer` or `text` is
/// NULL, else `set` with the answer and the argument's bytes; a panic is
/// `HIERA_PANIC`.
///
/// # Safety
/// `answer` is NULL or the answer passed to the running callback (used by
/// this thread only); `text` is NULL or a NUL-terminated string.
pub(crate) unsafe fn set_answer<A>(
    answer: *mut A,
    text: *const c_char,
    set: impl FnOnce(&mut A, &[u8]) -> hiera_status,
) -> hiera_status {
    guard(hiera_status::HIERA_PANIC, || {
        if answer.is_null() || text.is_null() {
            return hiera_status::HIERA_NULL_ARGUMENT;
        }
        // SAFETY: non-NULL and, per the contract, the live answer of the
        // running callback, used by this thread only; `text` is non-NULL and
        // NUL-terminated per the contract.
        let (answer, bytes) = unsafe { (&mut *answer, CStr::from_ptr(text).to_bytes()) };
        set(answer, bytes)
    })
}

/// Ends a constructor (`hiera_open`, `hiera_session_new`): hands the new
/// object to the caller through `out`, or the error object through
/// `error_json`; returns the status.
///
/// # Safety
/// `out` and `error_json` must be non-NULL, aligned and valid for writes.
pub(crate) unsafe fn write_made<T>(
    made: Result<T, Error>,
    out: *mut *mut T,
    error_json: *mut *mut c_char,
) -> hiera_status {
    match made {
        Ok(object) => {
            let handle = Box::into_raw(Box::new(object));
            // SAFETY: the caller guarantees that `out` is non-NULL and writable.
            unsafe { write_out(out, handle) };
            hiera_status::HIERA_OK
        }
        Err(e) => {
            let status = hiera_status::of_input_error(&e);
            let text = string::into_c_string(crate::request::error_json(&e));
            // SAFETY: the caller guarantees that `error_json` is non-NULL and writable.
            unsafe { write_out(error_json, text) };
            status
        }
    }
}

/// Ends a destructor (`hiera_free`, `hiera_session_free`): drops the object
/// that `write_made` handed out. NULL does nothing.
///
/// # Safety
/// `p` must be NULL or come from `write_made::<T>`, be freed only once, and
/// no longer be in use.
pub(crate) unsafe fn drop_made<T>(p: *mut T) {
    if !p.is_null() {
        // SAFETY: the caller guarantees that `p` came from `Box::into_raw` in
        // `write_made`, is freed once and is no longer in use.
        drop(unsafe { Box::from_raw(p) });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_macros_match_the_crate() {
        assert_eq!(
            HIERA_VERSION_MAJOR.to_string(),
            env!("CARGO_PKG_VERSION_MAJOR")
        );
        assert_eq!(
            HIERA_VERSION_MINOR.to_string(),
            env!("CARGO_PKG_VERSION_MINOR")
        );
        assert_eq!(
            HIERA_VERSION_PATCH.to_string(),
            env!("CARGO_PKG_VERSION_PATCH")
        );
        // SAFETY: hiera_version returns a static NUL-terminated string.
        let v = unsafe { CStr::from_ptr(hiera_version()) };
        assert_eq!(
            v.to_str().unwrap(),
            format!("{HIERA_VERSION_MAJOR}.{HIERA_VERSION_MINOR}.{HIERA_VERSION_PATCH}")
        );
        assert_eq!(hiera_abi_version(), HIERA_ABI_VERSION);
        // The SONAME set by build.rs carries the ABI version.
        let build =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/build.rs")).unwrap();
        assert!(build.contains(&format!("libhiera.so.{HIERA_ABI_VERSION}")));
    }

    /// All `unsafe` is here and in `src/shared_slice.rs` (the layouts of
    /// the reference-counted storage of Arrays and Hashes), and every unsafe
    /// block or impl has a `SAFETY:` comment right above it (clippy's
    /// `undocumented_unsafe_blocks` says the same, when clippy runs).
    #[test]
    fn unsafe_is_confined_and_documented() {
        fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            for e in std::fs::read_dir(dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    rust_files(&p, out);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    out.push(p);
                }
            }
        }
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            let in_ffi = f.starts_with(src.join("ffi")) || f == src.join("shared_slice.rs");
            let lines: Vec<&str> = text.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                // The code of the line: no comment, no string literal.
                let code: String = line
                    .split("//")
                    .next()
                    .unwrap_or("")
                    .split('"')
                    .step_by(2)
                    .collect();
                if !(code.contains("unsafe {") || code.contains("unsafe impl")) {
                    continue;
                }
                assert!(
                    in_ffi,
                    "{}:{}: unsafe outside src/ffi and src/shared_slice.rs",
                    f.display(),
                    i + 1
                );
                let comment: Vec<&str> = lines[..i]
                    .iter()
                    .rev()
                    .take_while(|l| l.trim_start().starts_with("//"))
                    .copied()
                    .collect();
                assert!(
                    comment.iter().any(|l| l.contains("SAFETY:")),
                    "{}:{}: unsafe without a SAFETY: comment above it",
                    f.display(),
                    i + 1
                );
            }
        }
    }

    #[test]
    fn guard_turns_panics_into_the_default() {
        assert_eq!(
            guard(hiera_status::HIERA_PANIC, || hiera_status::HIERA_OK),
            hiera_status::HIERA_OK
        );
        assert_eq!(
            guard(hiera_status::HIERA_PANIC, || panic!("boom")),
            hiera_status::HIERA_PANIC
        );
        assert_eq!(guard(7u32, || -> u32 { panic!("boom") }), 7);
        // A payload whose destructor panics is contained as well.
        struct Nasty;
        impl Drop for Nasty {
            fn drop(&mut self) {
                panic!("drop");
            }
        }
        assert_eq!(guard(1, || -> i32 { std::panic::panic_any(Nasty) }), 1);
    }

    #[test]
    fn inputs_are_checked() {
        let ok = c"{\"a\":1}";
        // SAFETY: a valid C string literal.
        assert_eq!(unsafe { input_str(ok.as_ptr(), "x") }.unwrap(), "{\"a\":1}");
        let bad = b"ab\xffc\0";
        // SAFETY: a NUL-terminated byte string.
        let e = unsafe { input_str(bad.as_ptr().cast(), "scope_json") }.unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArgument);
        assert_eq!(
            e.message,
            "scope_json is not valid UTF-8 (invalid byte at offset 2)"
        );
        let e = input_json("{\"a\":", "options_json").unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArgument);
        assert!(
            e.message.starts_with("options_json is not valid JSON: "),
            "{}",
            e.message
        );
    }
}
