//! What an export hands back through its `*result_json`: one [`Answer`]
//! type and one export body, [`answer_export`], for every export that
//! answers with a JSON text (the lookups, `hiera_lookup_all`,
//! `hiera_parse_data`, `hiera_answer_interpolate` and the `hiera3_*`
//! helpers).
//!
//! The export's steps, written once: the panic boundary ([`super::guard`]:
//! `HIERA_PANIC`, nothing written), the NULL checks (`HIERA_NULL_ARGUMENT`,
//! nothing written), then the answer, whose text (when there is one) is
//! handed to the caller, who frees it with `hiera_string_free`.

use super::string::{c_copy, c_copy_nul_free};
use super::{guard, hiera_status, write_out};
use crate::error::{Error, Result};
use crate::render::{json_capacity, push_json_bytes};
use crate::request::error_json;
use crate::value::Value;
use std::cell::Cell;
use std::ffi::c_char;

/// The largest text buffer a thread keeps for its next answer; a bigger
/// one (a huge merged Hash) is freed after its answer is copied out.
const KEPT_BUFFER: usize = 64 * 1024;

thread_local! {
    /// The buffer each thread writes its answers' JSON in ([`Answer::value`],
    /// given back by [`answer_export`] once the text is copied into the
    /// caller's C string): no allocation per answer but the C string's.
    static TEXT: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

/// This thread's answer buffer, empty (a new one when it is in use).
fn text_buffer() -> Vec<u8> {
    let mut b = TEXT.with(Cell::take);
    b.clear();
    b
}

/// Gives an answer's text buffer back to this thread (unless it is big).
fn keep_buffer(b: Vec<u8>) {
    if b.capacity() <= KEPT_BUFFER {
        TEXT.with(|t| t.set(b));
    }
}

/// A status and the text of `*result_json` (`None` writes NULL): UTF-8
/// bytes, kept as bytes since the C string needs nothing else.
#[derive(Debug, PartialEq)]
pub(crate) struct Answer {
    pub status: hiera_status,
    pub json: Option<Vec<u8>>,
    /// The text is [`push_json_bytes`]'s, which never writes a NUL byte:
    /// copied out without looking for one. Only [`Answer::value`] says so.
    nul_free: bool,
}

impl Answer {
    /// A status and a text that may hold a NUL byte (checked when copied
    /// out): every answer but [`Answer::value`]'s.
    pub(crate) fn new(status: hiera_status, json: Option<Vec<u8>>) -> Answer {
        Answer {
            status,
            json,
            nul_free: false,
        }
    }

    /// `HIERA_OK` with a text.
    pub(crate) fn ok(json: String) -> Answer {
        Answer::ok_bytes(json.into_bytes())
    }

    /// `HIERA_OK` with a text's bytes (UTF-8).
    pub(crate) fn ok_bytes(json: Vec<u8>) -> Answer {
        Answer::new(hiera_status::HIERA_OK, Some(json))
    }

    /// `HIERA_OK` with a value's compact wire JSON.
    pub(crate) fn value(v: &Value) -> Answer {
        let mut json = text_buffer();
        json.reserve(json_capacity(v));
        push_json_bytes(v, &mut json);
        Answer {
            nul_free: true,
            ..Answer::ok_bytes(json)
        }
    }

    /// A lookup's outcome: the value (`HIERA_OK`), NULL (`HIERA_NOT_FOUND`)
    /// or the error object (`HIERA_ERROR`, whatever the error's kind: the
    /// inputs of the call were valid).
    pub(crate) fn of_lookup(outcome: Result<Option<Value>>) -> Answer {
        match outcome {
            Ok(Some(v)) => Answer::value(&v),
            Ok(None) => Answer::new(hiera_status::HIERA_NOT_FOUND, None),
            Err(e) => Answer::failed(&e),
        }
    }

    /// An error found while answering: `HIERA_ERROR` and its object.
    pub(crate) fn failed(e: &Error) -> Answer {
        Answer::new(hiera_status::HIERA_ERROR, Some(error_json(e).into_bytes()))
    }

    /// An input of the call is not valid: `HIERA_INVALID_ARGUMENT` and the
    /// error object.
    pub(crate) fn invalid(e: &Error) -> Answer {
        Answer::new(
            hiera_status::HIERA_INVALID_ARGUMENT,
            Some(error_json(e).into_bytes()),
        )
    }

    /// An error that is `HIERA_INVALID_ARGUMENT` when its kind is
    /// `invalid_argument`, else `HIERA_ERROR` (a helper whose input and
    /// work fail alike).
    pub(crate) fn refused(e: &Error) -> Answer {
        Answer::new(
            hiera_status::of_input_error(e),
            Some(error_json(e).into_bytes()),
        )
    }

    /// A text result, or the error `refused` makes of it.
    pub(crate) fn of_text(r: Result<String>) -> Answer {
        r.map_or_else(|e| Answer::refused(&e), Answer::ok)
    }
}

/// The body of an export that answers through `*result_json`:
/// `HIERA_NULL_ARGUMENT`, with nothing written, when `missing` (a required
/// input is NULL) or `result_json` is NULL; else the answer `answer` gives
/// (it runs only then, so it may read the required inputs), written to
/// `*result_json`; a panic is `HIERA_PANIC`, with nothing written.
///
/// # Safety
/// `result_json` is NULL or valid for a write of a pointer.
pub(crate) unsafe fn answer_export(
    missing: bool,
    result_json: *mut *mut c_char,
    answer: impl FnOnce() -> Answer,
) -> hiera_status {
    guard(hiera_status::HIERA_PANIC, || {
        if missing || result_json.is_null() {
            return hiera_status::HIERA_NULL_ARGUMENT;
        }
        let Answer {
            status,
            json,
            nul_free,
        } = answer();
        let text = json.map_or(std::ptr::null_mut(), |j| {
            let text = if nul_free {
                c_copy_nul_free(&j)
            } else {
                c_copy(&j)
            };
            keep_buffer(j);
            text
        });
        // SAFETY: `result_json` is non-NULL and, per the caller, writable.
        unsafe { write_out(result_json, text) };
        status
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;
    use std::ffi::CStr;

    fn run(missing: bool, answer: impl FnOnce() -> Answer) -> (hiera_status, Option<String>) {
        let mut out: *mut c_char = 0x30 as *mut c_char;
        // SAFETY: `out` is a local, valid for a write.
        let status = unsafe { answer_export(missing, &mut out, answer) };
        let text = if out.is_null() || out == 0x30 as *mut c_char {
            None
        } else {
            // SAFETY: written by `answer_export` from `into_c_string`.
            let s = unsafe { CStr::from_ptr(out) }.to_str().unwrap().to_string();
            // SAFETY: as above; freed once.
            unsafe { super::super::string::hiera_string_free(out) };
            Some(s)
        };
        (status, text)
    }

    #[test]
    fn answers_are_written_and_refusals_write_nothing() {
        assert_eq!(
            run(false, || Answer::of_lookup(Ok(Some(Value::from(1))))),
            (hiera_status::HIERA_OK, Some("1".into()))
        );
        // A value's text is copied out unsearched: its writer escapes NUL.
        assert_eq!(
            run(false, || Answer::of_lookup(Ok(Some(Value::from("a\0b"))))),
            (hiera_status::HIERA_OK, Some("\"a\\u0000b\"".into()))
        );
        assert_eq!(
            run(false, || Answer::ok("\"a\0b\"".into())),
            (hiera_status::HIERA_OK, Some("\"a\\u0000b\"".into()))
        );
        assert_eq!(
            run(false, || Answer::of_lookup(Ok(None))),
            (hiera_status::HIERA_NOT_FOUND, None)
        );
        let bad = Error::new(ErrorKind::InvalidArgument, "x is not valid");
        assert_eq!(
            run(false, || Answer::refused(&bad)).0,
            hiera_status::HIERA_INVALID_ARGUMENT
        );
        assert_eq!(
            run(false, || Answer::of_lookup(Err(bad.clone()))).0,
            hiera_status::HIERA_ERROR
        );
        let mut ran = false;
        let mut out: *mut c_char = 0x30 as *mut c_char;
        // SAFETY: `out` is a local, valid for a write.
        let st = unsafe {
            answer_export(true, &mut out, || {
                ran = true;
                Answer::ok("1".into())
            })
        };
        assert_eq!(
            (st, ran, out),
            (
                hiera_status::HIERA_NULL_ARGUMENT,
                false,
                0x30 as *mut c_char
            )
        );
        // SAFETY: a NULL out-pointer is refused before anything runs.
        let st = unsafe { answer_export(false, std::ptr::null_mut(), || Answer::ok("1".into())) };
        assert_eq!(st, hiera_status::HIERA_NULL_ARGUMENT);
        assert_eq!(
            run(false, || panic!("inside an export")),
            (hiera_status::HIERA_PANIC, None)
        );
    }
}
