//! Data files read as Puppet's `yaml_data` and `json_data` functions read
//! them (`hiera_parse_data`), for hosts that keep their own file cache (a
//! Puppet `data_hash` function hands libhiera the content Puppet's
//! `cached_file_data` read).

use super::answer::{answer_export, Answer};
use super::{hiera_status, input_str};
use crate::data::{parse_document, DataFormat};
use crate::error::{Error, ErrorKind, Result};
use crate::render::to_json;
use std::ffi::c_char;
use std::path::Path;

/// `hiera_parse_data` without the pointers.
pub(crate) fn parse_data(format: &str, path: &str, bytes: &[u8]) -> Result<String> {
    let format = match format {
        "yaml" => DataFormat::Yaml,
        "json" => DataFormat::Json,
        other => {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!("format must be yaml or json, not '{other}'"),
            ))
        }
    };
    Ok(to_json(&parse_document(bytes, Path::new(path), format)?))
}

/// Parses the content of a data file as `yaml_data` or `json_data` does.
///
/// - `format`: `"yaml"` or `"json"`.
/// - `path`: the file's path, as messages name it.
/// - `bytes`, `len`: the content (any bytes: invalid UTF-8 is reported as
///   Ruby reports it; NUL bytes are allowed). `bytes` may be NULL when `len`
///   is 0.
///
/// Returns, with `*result_json`:
/// - `HIERA_OK`: the document as wire JSON. YAML is read with Puppet's safe
///   loader (`null` for an empty document; the Symbol keys of a Hash become
///   Strings, Symbol values stay Symbols); JSON with Ruby's parser. A
///   document that is not a Hash comes back as it is: `yaml_data` warns
///   (`file does not contain a valid yaml hash`) and uses `{}`, or fails
///   under `strict=error` unless the document is empty; `json_data` leaves
///   the refusal to Puppet's data provider.
/// - `HIERA_ERROR`: an error object of kind `parse`:
///   `Unable to parse (PATH): ...` with Psych's or Ruby JSON's message.
/// - `HIERA_INVALID_ARGUMENT`: an error object: `format` or `path` is not
///   valid.
/// - `HIERA_NULL_ARGUMENT`, `HIERA_PANIC`: nothing is written.
///
/// Ownership: the inputs are borrowed for the call; `*result_json` belongs
/// to the caller (free it with `hiera_string_free`).
/// Threads: any thread; calls are independent.
///
/// # Safety
/// `format` and `path` are NULL or NUL-terminated strings; `bytes` is NULL
/// (only with `len` 0) or valid for reads of `len` bytes; `result_json` is
/// NULL or valid for a write of a pointer.
#[no_mangle]
pub unsafe extern "C" fn hiera_parse_data(
    format: *const c_char,
    path: *const c_char,
    bytes: *const u8,
    len: usize,
    result_json: *mut *mut c_char,
) -> hiera_status {
    let missing = format.is_null() || path.is_null() || (bytes.is_null() && len > 0);
    let answer = || {
        let content: &[u8] = if len == 0 {
            &[]
        } else {
            // SAFETY: `bytes` is non-NULL (checked before `answer` runs) and,
            // per the contract, valid for reads of `len` bytes for the call.
            unsafe { std::slice::from_raw_parts(bytes, len) }
        };
        // SAFETY: checked non-NULL; NUL-terminated strings per the contract.
        let (format, path) = unsafe { (input_str(format, "format"), input_str(path, "path")) };
        Answer::of_text(format.and_then(|f| parse_data(f, path?, content)))
    };
    // SAFETY: `result_json` is NULL or writable, per the contract.
    unsafe { answer_export(missing, result_json, answer) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_and_json_documents() {
        assert_eq!(
            parse_data("yaml", "/d/a.yaml", b"a: 1\n:s:\n- x\n- :y\n").unwrap(),
            r#"{"a":1,"s":["x",{"__type__":"Symbol","value":"y"}]}"#
        );
        assert_eq!(parse_data("yaml", "/d/a.yaml", b"").unwrap(), "null");
        assert_eq!(parse_data("yaml", "/d/a.yaml", b"- 1\n").unwrap(), "[1]");
        assert_eq!(
            parse_data("json", "/d/a.json", br#"{"a": [1.5e3]}"#).unwrap(),
            r#"{"a":[1500.0]}"#
        );
        let e = parse_data("yaml", "/d/a.yaml", b"a: [\n").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Parse);
        assert!(
            e.message.starts_with("Unable to parse (/d/a.yaml): "),
            "{}",
            e.message
        );
        let e = parse_data("yaml", "/d/a.yaml", b"d: 2020-01-01\n").unwrap_err();
        assert!(
            e.message.contains("Tried to load unspecified class: Date"),
            "{}",
            e.message
        );
        assert!(parse_data("json", "/d/a.json", b"{")
            .unwrap_err()
            .message
            .starts_with("Unable to parse (/d/a.json): "));
        assert_eq!(
            parse_data("hocon", "x", b"").unwrap_err().kind,
            ErrorKind::InvalidArgument
        );
    }

    #[test]
    fn export() {
        let mut out: *mut c_char = std::ptr::null_mut();
        let text = b"a: \"\xff\"\n";
        // SAFETY: valid strings, a byte buffer of the given length, a local out.
        let st = unsafe {
            hiera_parse_data(
                c"yaml".as_ptr(),
                c"/x.yaml".as_ptr(),
                text.as_ptr(),
                text.len(),
                &mut out,
            )
        };
        assert_eq!(st, hiera_status::HIERA_ERROR);
        // SAFETY: a string returned by libhiera, read then freed once.
        let msg = unsafe { std::ffi::CStr::from_ptr(out) }
            .to_str()
            .unwrap()
            .to_string();
        // SAFETY: as above.
        unsafe { super::super::string::hiera_string_free(out) };
        assert!(msg.contains("invalid") || msg.contains("UTF-8"), "{msg}");
        // SAFETY: NULL bytes with len 0 is allowed; NULL with len > 0 is not.
        unsafe {
            assert_eq!(
                hiera_parse_data(
                    c"yaml".as_ptr(),
                    c"/x".as_ptr(),
                    std::ptr::null(),
                    0,
                    &mut out
                ),
                hiera_status::HIERA_OK
            );
            super::super::string::hiera_string_free(out);
            assert_eq!(
                hiera_parse_data(
                    c"yaml".as_ptr(),
                    c"/x".as_ptr(),
                    std::ptr::null(),
                    3,
                    &mut out
                ),
                hiera_status::HIERA_NULL_ARGUMENT
            );
        }
    }
}
