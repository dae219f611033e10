//! Forks, counted: the one call into the C library that is not an export.
//!
//! The file watcher ([`crate::watch`]) is the process's, and a forked child
//! must make its own. It used to ask `getpid` at every path it watched, a
//! system call for every file a first compile reads. A child handler of
//! `pthread_atfork` now counts each fork in the child, so a watcher sees a
//! fork by a number changing, and asks `getpid` only then.
//!
//! A child made without `fork` runs no handler: `vfork`, `posix_spawn` and
//! `clone` children exist to `exec`, and glibc's `_Fork` child may only
//! make async-signal-safe calls, which no libhiera call is. None of them may
//! call into libhiera, so none can use the parent's watcher unseen.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// The forks this process descends from since the handler was registered.
static FORKS: AtomicU64 = AtomicU64::new(0);

/// The child handler: only an atomic addition (async-signal-safe, as a
/// child handler must be).
extern "C" fn count_fork() {
    FORKS.fetch_add(1, Ordering::AcqRel);
}

/// The forks counted so far, the handler registered at the first call (a
/// watcher asks when it is made: a fork before that cannot concern it).
/// `None` when the handler could not be registered: the caller then asks
/// `getpid` every time. glibc ties the handler to this library (its
/// `pthread_atfork` passes the library's `__dso_handle`) and removes it if
/// the library is unloaded. Any thread may call it.
pub(crate) fn fork_count() -> Option<u64> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let registered = *REGISTERED.get_or_init(|| {
        // SAFETY: `count_fork` is a valid `extern "C"` function for as long
        // as the library is loaded, and only adds to an atomic.
        unsafe { libc::pthread_atfork(None, None, Some(count_fork)) == 0 }
    });
    registered.then(|| FORKS.load(Ordering::Acquire))
}

/// Runs `check` in a forked child, which exits at once with its answer:
/// the child's answer (tests only; `check` must only read memory, as a
/// child of a threaded process may do nothing else safely).
#[cfg(test)]
pub(crate) fn in_child(check: impl FnOnce() -> bool) -> bool {
    // SAFETY: the child runs `check` (reads only) and `_exit`s: it returns
    // to nothing of the parent's, and runs no destructor or atexit hook.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        let answer = check();
        // SAFETY: ends the child, as above.
        unsafe { libc::_exit(i32::from(!answer)) }
    }
    let mut status = 0;
    // SAFETY: waits for the child just made, into a local.
    assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
    libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_counts_its_fork_and_the_parent_does_not() {
        let before = fork_count().expect("pthread_atfork registered");
        assert!(in_child(|| fork_count() == Some(before + 1)));
        assert!(!in_child(|| fork_count() == Some(before)));
        assert_eq!(fork_count(), Some(before));
    }
}
