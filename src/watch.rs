//! [`Watcher`]: knowing that no file a cache read has changed, without
//! `stat`ing each one (issue 18).
//!
//! Puppet checks every file a compile uses once per compile, and so does
//! the [`crate::data::FileCache`] by default: each new session `stat`s each
//! file it uses. On a warm service that is a third to a half of a lookup's
//! time (about 500 `stat`s a session on a repo of modules: BENCHMARKS.md).
//! On Linux the kernel can say instead what changed: an inotify watch on a
//! directory reports every change to the names in it (a file written,
//! truncated, created, removed, renamed, its attributes changed) as the
//! change is made, before the call that made it returns. So a session that
//! reads the watcher's queue when it starts (one `poll`, and a `getpid` to
//! tell a forked child) and finds nothing knows that every path `stat`ed
//! under watch since the last change still `stat`s the same: it sees every
//! change made before it started, as a compile that `stat`s each file does.
//!
//! What a path's answer depends on is every directory entry the kernel
//! reads to resolve it: each component, and each symbolic link on the way
//! with whatever its target names. [`Watcher::watch`] resolves the path
//! itself, one component at a time, watching each directory before it
//! reads the entry in it (so a change made after the read is reported),
//! and keeps the names it read there: an event on any other name in a
//! watched directory (a log written next to a data directory) changes
//! nothing. A regular file is also watched itself: a write through another
//! of its names (a hard link made later) or through a descriptor opened
//! before it was moved into place is reported to its inode, not to the
//! directory. A path that does not exist is watched up to the first
//! component missing, whose creation is then reported. A path that is a
//! directory is watched whole.
//!
//! Any event on a name read or a file watched, an event on a watched
//! directory itself (moved, removed, unmounted), a lost event (the queue
//! overflowed) or a change of the process's mounts (read from
//! `/proc/self/mountinfo`, which `poll` reports on) starts a new
//! **generation**: every result kept under an older one is checked again,
//! once (and watched again, since what a path resolves to may have
//! changed). A generation is a number; a result is trusted while its
//! generation is the current one.
//!
//! A path is not watched (its result is `stat`ed as before, by every
//! session) where a watch could miss a change:
//! - under a mount whose type (mountinfo's) is not a local filesystem's, or
//!   through a directory on a filesystem not known to be local by
//!   `statfs`'s magic (NFS, SMB, FUSE, 9p, overlay, ZFS, a cluster
//!   filesystem: another machine, another layer or a rollback can change it
//!   without this kernel's notice). The mount is looked up before any call
//!   on the path, as the watcher's lock is held through its calls: a hung
//!   network mount must not stall every session (one reached through a
//!   link can still hold it);
//! - a file that is a mount point (bind-mounted into place);
//! - a relative path, one the kernel resolves only to a directory (`x/`),
//!   or more than 40 symbolic links on one component's way;
//! - beyond a quarter of the user's inotify watches (at most
//!   [`MAX_WATCHES`]), or when the kernel refuses a watch.
//!
//! Not seen at all: a change made through a shared memory mapping (which
//! does not update the file's times either), a filesystem changed by
//! another kernel that claims to be local, and a process that changes its
//! root (`chroot`, `setns`) between sessions: it must open a new
//! [`crate::Hiera`] or turn the watcher off. `HIERA_WATCH_FILES=0` in the
//! environment (read once) turns the watcher off for the process, and
//! [`crate::Options::watch_files`] for one configuration.
//!
//! One watcher serves the process (an inotify instance is a per-user
//! resource, 128 by default): every [`crate::Hiera`] shares it. After a
//! `fork` the child makes its own (the queue is shared with the parent,
//! and reading it would take the parent's events).

#[cfg(target_os = "linux")]
mod dirs;
#[cfg(target_os = "linux")]
mod linux;

#[cfg(target_os = "linux")]
pub(crate) use linux::Watcher;

/// The most directories and files the process's watcher watches (a
/// control repo of a hundred modules uses a few thousand; the kernel's own
/// limit is per user, shared with every other program the user runs, and
/// the watcher takes at most a quarter of it).
pub(crate) const MAX_WATCHES: usize = 65_536;

/// The process's watcher, made at first use; `None` when there is none
/// (not Linux, `HIERA_WATCH_FILES=0`, or no inotify or `/proc`).
#[cfg(target_os = "linux")]
pub(crate) fn global() -> Option<&'static Watcher> {
    static WATCHER: std::sync::OnceLock<Option<Watcher>> = std::sync::OnceLock::new();
    WATCHER
        .get_or_init(|| {
            let off = std::env::var_os("HIERA_WATCH_FILES").is_some_and(|v| v == "0");
            if off {
                None
            } else {
                Watcher::new()
            }
        })
        .as_ref()
}

/// No watcher where there is no inotify.
#[cfg(not(target_os = "linux"))]
pub(crate) fn global() -> Option<&'static Watcher> {
    None
}

/// No watcher where there is no inotify (never made).
#[cfg(not(target_os = "linux"))]
pub(crate) enum Watcher {}

#[cfg(not(target_os = "linux"))]
impl Watcher {
    pub(crate) fn generation(&self) -> u64 {
        match *self {}
    }
    pub(crate) fn refresh(&self) {
        match *self {}
    }
    pub(crate) fn watch(&self, _: &std::path::Path) -> Option<(u64, Option<std::fs::Metadata>)> {
        match *self {}
    }
}
