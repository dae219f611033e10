//! `hiera_status`: what every fallible function of the C ABI returns.

use crate::error::{Error, ErrorKind};

/// The outcome of a call. The values are stable: bindings may compare with
/// the integers.
///
/// - `HIERA_OK`: success; the documented out-parameters were written.
/// - `HIERA_NOT_FOUND`: the lookup found nothing (not an error).
/// - `HIERA_ERROR`: the operation failed; an error object was written.
/// - `HIERA_NULL_ARGUMENT`: a pointer argument was NULL; nothing was written.
/// - `HIERA_INVALID_ARGUMENT`: an input string is not UTF-8, not JSON, or
///   not the object expected (e.g. an unknown field); an error object with
///   `"kind": "invalid_argument"` was written.
/// - `HIERA_PANIC`: a bug inside libhiera was caught before it could unwind
///   into the caller; nothing was written. The handles stay valid. (Rust's
///   default panic hook prints the panic message on stderr; libhiera never
///   changes that process-wide hook.)
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum hiera_status {
    /// Success.
    HIERA_OK = 0,
    /// The lookup found no value (and no default was given).
    HIERA_NOT_FOUND = 1,
    /// The lookup or open failed: see the error object.
    HIERA_ERROR = 2,
    /// A pointer argument was NULL.
    HIERA_NULL_ARGUMENT = 3,
    /// An input is not valid UTF-8, not valid JSON or not a valid object.
    HIERA_INVALID_ARGUMENT = 4,
    /// An internal panic was caught.
    HIERA_PANIC = 5,
}

impl hiera_status {
    /// The status for a failure reported as `e`: `HIERA_INVALID_ARGUMENT`
    /// for `invalid_argument` errors, `HIERA_ERROR` for the others.
    pub(crate) fn of_input_error(e: &Error) -> hiera_status {
        if e.kind == ErrorKind::InvalidArgument {
            hiera_status::HIERA_INVALID_ARGUMENT
        } else {
            hiera_status::HIERA_ERROR
        }
    }
}

#[cfg(test)]
mod tests {
    use super::hiera_status::*;
    use super::*;

    #[test]
    fn values_are_the_contract() {
        let all = [
            HIERA_OK,
            HIERA_NOT_FOUND,
            HIERA_ERROR,
            HIERA_NULL_ARGUMENT,
            HIERA_INVALID_ARGUMENT,
            HIERA_PANIC,
        ];
        for (i, s) in all.iter().enumerate() {
            assert_eq!(*s as u32, i as u32);
        }
        assert_eq!(
            std::mem::size_of::<hiera_status>(),
            std::mem::size_of::<std::ffi::c_int>()
        );
    }

    #[test]
    fn input_errors_map_by_kind() {
        assert_eq!(
            hiera_status::of_input_error(&Error::new(ErrorKind::InvalidArgument, "x")),
            HIERA_INVALID_ARGUMENT
        );
        assert_eq!(
            hiera_status::of_input_error(&Error::new(ErrorKind::Io, "x")),
            HIERA_ERROR
        );
    }
}
