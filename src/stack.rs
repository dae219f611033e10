//! The native stack: bounded whatever the input.
//!
//! libhiera runs on threads it did not make (a Ruby or JVM worker, a Go
//! service's cgo thread), whose stacks may be as small as 512 KiB. Two rules
//! keep every input within them:
//!
//! - **Recursions over data** (the YAML and JSON readers, merges, rendering,
//!   comparison, type inference, `convert_to`, dropping) run through
//!   [`grow`]: when less than [`RED_ZONE`] bytes of stack are left, the
//!   recursion continues on a fresh heap-allocated segment (the `stacker`
//!   crate, which rustc uses for the same purpose). These recursions never
//!   call back into the host.
//! - **Recursions that may reach the host** (nested lookups through
//!   interpolation, which may end in a host callback) never run on a grown
//!   segment: MRI's garbage collector, the JVM's stack banging and Go's
//!   scheduler all assume the thread's own stack. They are bounded by an
//!   explicit depth ([`crate::limits::Limits::lookup_depth`]) and by
//!   [`check_lookup`], which refuses to go deeper when less than
//!   [`LOOKUP_RESERVE`] bytes of the thread's own stack are left. The walks
//!   of a value that interpolate its strings are iterative.

use crate::error::{Error, Result};
use crate::limits;

/// A recursion over data continues on a new segment when less than this is
/// left: more than any one level of the recursions that use [`grow`] needs.
pub const RED_ZONE: usize = 64 * 1024;

/// The size of each segment [`grow`] allocates.
pub const SEGMENT: usize = 1024 * 1024;

/// A nested lookup is refused when less than this is left of the thread's
/// own stack: room for the host's callbacks and for unwinding the lookup.
pub const LOOKUP_RESERVE: usize = 128 * 1024;

/// Runs one level of a recursion over data, on a new stack segment when the
/// current one is nearly used up. `f` must not call into the host.
#[inline]
pub fn grow<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}

/// The bytes of stack left on this thread (`None` where it cannot be told).
pub fn remaining() -> Option<usize> {
    stacker::remaining_stack()
}

/// Fails with a `limit` error when a nested lookup of `key` would leave less
/// than [`LOOKUP_RESERVE`] bytes of this thread's stack.
pub fn check_lookup(key: &str) -> Result<()> {
    match remaining() {
        Some(left) if left < LOOKUP_RESERVE => Err(not_enough_stack(key, left)),
        _ => Ok(()),
    }
}

fn not_enough_stack(key: &str, left: usize) -> Error {
    limits::error(format!(
        "the nested lookup of '{key}' needs more stack than the calling thread has left ({} KiB, less than the {} KiB kept in reserve)",
        left / 1024,
        LOOKUP_RESERVE / 1024
    ))
}
