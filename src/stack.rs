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
use std::cell::Cell;

/// A recursion over data continues on a new segment when less than this is
/// left: more than any one level of the recursions that use [`grow`] needs.
pub const RED_ZONE: usize = 64 * 1024;

/// The size of each segment [`grow`] allocates.
pub const SEGMENT: usize = 1024 * 1024;

/// A nested lookup is refused when less than this is left of the thread's
/// own stack: room for the host's callbacks and for unwinding the lookup.
pub const LOOKUP_RESERVE: usize = 128 * 1024;

thread_local! {
    /// The address below which this thread's own stack has less than
    /// [`RED_ZONE`] left; `usize::MAX` while it is not known yet or while a
    /// grown segment is in use (every level then asks `stacker`).
    static LOW_WATER: Cell<usize> = const { Cell::new(usize::MAX) };
}

/// Runs one level of a recursion over data, on a new stack segment when the
/// current one is nearly used up. `f` must not call into the host.
///
/// On the thread's own stack with room to spare (nearly always) this costs
/// a comparison of the stack pointer with a thread-local; otherwise
/// `stacker` decides and, when needed, moves to a new segment.
#[inline(always)]
pub fn grow<R>(f: impl FnOnce() -> R) -> R {
    let marker = 0u8;
    let sp = std::ptr::addr_of!(marker) as usize;
    if sp > LOW_WATER.with(Cell::get) {
        f()
    } else {
        grow_slowly(f)
    }
}

#[cold]
#[inline(never)]
fn grow_slowly<R>(f: impl FnOnce() -> R) -> R {
    let marker = 0u8;
    let sp = std::ptr::addr_of!(marker) as usize;
    let saved = LOW_WATER.with(Cell::get);
    if saved == usize::MAX && SEGMENTS.with(Cell::get) == 0 {
        // First use on this thread, on its own stack: learn where it ends.
        // (Zero: the stack pointer is below the thread's stack, on a stack of
        // the host's own, a Ruby Fiber's: nothing is learned from it.)
        if let Some(left) = stacker::remaining_stack().filter(|&left| left > 0) {
            let low_water = (sp - left.min(sp)).saturating_add(RED_ZONE);
            LOW_WATER.with(|l| l.set(low_water));
            if sp > low_water {
                return f();
            }
        }
    }
    // Near the end of the thread's stack, or on a grown segment: `stacker`
    // decides, and while a segment it made is in use every level asks it.
    struct Restore(usize);
    impl Drop for Restore {
        fn drop(&mut self) {
            LOW_WATER.with(|l| l.set(self.0));
            SEGMENTS.with(|d| d.set(d.get() - 1));
        }
    }
    LOW_WATER.with(|l| l.set(usize::MAX));
    SEGMENTS.with(|d| d.set(d.get() + 1));
    let _restore = Restore(saved);
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}

thread_local! {
    /// How many calls of [`grow_slowly`] are in progress on this thread.
    static SEGMENTS: Cell<u32> = const { Cell::new(0) };
}

/// The bytes of stack left on this thread (`None` where it cannot be told).
pub fn remaining() -> Option<usize> {
    stacker::remaining_stack()
}

/// Fails with a `limit` error when a nested lookup of `key` would leave less
/// than [`LOOKUP_RESERVE`] bytes of this thread's stack.
pub fn check_lookup(key: &str) -> Result<()> {
    match remaining() {
        // Zero: not on the thread's own stack (a host coroutine's): unknown.
        Some(left) if left > 0 && left < LOOKUP_RESERVE => Err(not_enough_stack(key, left)),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn depth(n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        // A frame of some size, so that the recursion needs many segments.
        let pad = std::hint::black_box([n as u8; 256]);
        grow(|| depth(n - 1) + 1 + (pad[0] as u32 - pad[1] as u32))
    }

    #[test]
    fn a_deep_recursion_grows_on_a_small_thread_and_comes_back() {
        let t = std::thread::Builder::new().stack_size(128 * 1024);
        let (n, low_water, segments) = t
            .spawn(|| {
                (
                    depth(200_000),
                    LOW_WATER.with(Cell::get),
                    SEGMENTS.with(Cell::get),
                )
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(n, 200_000);
        assert_ne!(
            low_water,
            usize::MAX,
            "back on the thread's own stack, with its limit known"
        );
        assert_eq!(segments, 0);
    }

    #[test]
    fn a_panic_on_a_grown_segment_restores_the_fast_path() {
        let t = std::thread::Builder::new().stack_size(128 * 1024);
        let after = t
            .spawn(|| {
                let r = std::panic::catch_unwind(|| {
                    fn down(n: u32) -> u32 {
                        if n == 0 {
                            panic!("at the bottom");
                        }
                        grow(|| down(n - 1) + 1)
                    }
                    down(100_000)
                });
                assert!(r.is_err());
                (
                    depth(10),
                    LOW_WATER.with(Cell::get),
                    SEGMENTS.with(Cell::get),
                )
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(after.0, 10);
        assert_ne!(after.1, usize::MAX);
        assert_eq!(after.2, 0);
    }
}
