//! The inotify [`Watcher`] (see [`crate::watch`] for what it promises).

use super::dirs::{name_hash, Dirs};
use super::MAX_WATCHES;
use crate::ffi::fork::fork_count;
use rustix::event::{PollFd, PollFlags, Timespec};
use rustix::fs::inotify::{self, CreateFlags, ReadFlags, WatchFlags};
use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::mem::MaybeUninit;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;

/// What a directory's watch reports: any change to a name in it, and the
/// directory itself moved or removed. (`IN_ONLYDIR | IN_DONT_FOLLOW`: the
/// path watched is a directory reached without a link, or not watched.)
const MASK: WatchFlags = WatchFlags::MODIFY
    .union(WatchFlags::ATTRIB)
    .union(WatchFlags::CLOSE_WRITE)
    .union(WatchFlags::MOVED_FROM)
    .union(WatchFlags::MOVED_TO)
    .union(WatchFlags::CREATE)
    .union(WatchFlags::DELETE)
    .union(WatchFlags::DELETE_SELF)
    .union(WatchFlags::MOVE_SELF)
    .union(WatchFlags::ONLYDIR)
    .union(WatchFlags::DONT_FOLLOW);

/// What a file's own watch reports (added to what a watch of the same
/// inode reports already): a write, a new link or a change of mode through
/// another name or an old descriptor is reported to the file's inode, not
/// to the directory it was found in.
const FILE_MASK: WatchFlags = WatchFlags::MODIFY
    .union(WatchFlags::ATTRIB)
    .union(WatchFlags::CLOSE_WRITE)
    .union(WatchFlags::DELETE_SELF)
    .union(WatchFlags::MOVE_SELF)
    .union(WatchFlags::DONT_FOLLOW)
    .union(WatchFlags::MASK_ADD);

/// The filesystems (`statfs`'s `f_type`) whose every change this kernel
/// makes, and so reports: ext2/3/4, XFS, Btrfs, tmpfs, ramfs, F2FS, JFS,
/// ReiserFS, bcachefs. Not NFS, SMB, FUSE, 9p, Ceph, GFS2, OCFS2 (other
/// machines change them), overlayfs (its layers can be changed beneath it)
/// nor ZFS (a dataset rolled back or received in place changes without an
/// event).
const LOCAL_FILESYSTEMS: [u32; 9] = [
    0xEF53,
    0x5846_5342,
    0x9123_683E,
    0x0102_1994,
    0x8584_58F6,
    0xF2F5_2010,
    0x3153_464A,
    0x5265_4973,
    0xCA45_1A4E,
];

/// The hasher of the watcher's path-keyed maps (keyed by a path's bytes:
/// hashing them is much cheaper than hashing a `Path` component by
/// component).
type Fast = foldhash::fast::RandomState;

/// A path as the watcher's maps key it.
fn key(path: &Path) -> &[u8] {
    path.as_os_str().as_bytes()
}

/// The names `/proc/self/mountinfo` gives [`LOCAL_FILESYSTEMS`].
const LOCAL_TYPES: [&[u8]; 11] = [
    b"ext2",
    b"ext3",
    b"ext4",
    b"xfs",
    b"btrfs",
    b"tmpfs",
    b"ramfs",
    b"f2fs",
    b"jfs",
    b"reiserfs",
    b"bcachefs",
];

/// The most symbolic links followed in one path (Linux's own bound).
const MAX_LINKS: usize = 40;

/// The most directories resolved in one generation, and the most
/// directories kept that cannot be watched (beyond them a path is left
/// unwatched, or its parent resolved again).
const MAX_RESOLVED: usize = 16_384;

/// The process's inotify watcher (see [`crate::watch`]). `Send + Sync`:
/// sessions on any thread refresh it and watch paths through it.
pub(crate) struct Watcher {
    /// The current generation (from 1: 0 is no generation).
    generation: AtomicU64,
    /// The process the state was made in (a child after `fork` makes its own).
    pid: AtomicU32,
    /// [`fork_count`] when the process was last seen to be `pid`: while it
    /// is the same, no fork came between, and `getpid` need not be asked.
    forks: AtomicU64,
    /// Set when a child could not make its own state: nothing is watched.
    dead: AtomicBool,
    /// The process one of whose threads makes (or made) its own state.
    claimed: AtomicU32,
    state: Mutex<State>,
}

struct State {
    inotify: OwnedFd,
    /// `/proc/self/mountinfo`, open: `poll` reports a change of the mounts.
    mountinfo: std::fs::File,
    /// Every mount point, and whether its filesystem is one of
    /// [`LOCAL_TYPES`] (a file bind-mounted into place is not watched, nor a
    /// path under a mount of another type: see [`State::under_local_mount`]).
    mount_points: HashMap<Box<[u8]>, bool, Fast>,
    /// The directories armed, by real path (a `wd` of -1: not watchable),
    /// and which names in each matter. A watch of none of them (of a file
    /// or a link itself, or one forgotten) reports only changes that
    /// matter.
    dirs: Dirs,
    /// The watches of files (and links) themselves, sorted (the kernel gives
    /// each new watch a larger number than the last, until they wrap: kept
    /// by pushing, in the usual case). Only counted ([`State::watches`]):
    /// an event on a watch of no directory matters anyway.
    file_watches: Vec<i32>,
    /// What each directory asked about resolved to, in generation
    /// `resolved_in`, where `dirs` does not tell (a missing directory, one
    /// reached through a link).
    resolved: HashMap<Box<[u8]>, Outcome, Fast>,
    resolved_in: u64,
    /// The most watches kept ([`watch_cap`]).
    cap: usize,
}

/// What the file read by [`State::watch_file`] is.
enum FileRead {
    /// A regular file, watched itself.
    File(std::fs::Metadata),
    Missing,
    /// A directory or a link (what the walk goes on with).
    Other(std::fs::Metadata),
    Unwatched,
}

/// The most watches the process's watcher keeps: a quarter of the user's
/// limit (`/proc/sys/fs/inotify/max_user_watches`: the watches of every
/// program the user runs), within 512 and [`MAX_WATCHES`].
fn watch_cap() -> usize {
    std::fs::read_to_string("/proc/sys/fs/inotify/max_user_watches")
        .ok()
        .and_then(|t| t.trim().parse::<usize>().ok())
        .map_or(2048, |n| n / 4)
        .clamp(512, MAX_WATCHES)
}

/// What a path resolved to, watched.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Outcome {
    /// A directory: its real path and device.
    Dir(PathBuf, u64),
    File,
    /// No such path (up to its first missing component, watched).
    Missing,
    /// Something on the way cannot be watched.
    Unwatched,
}

impl State {
    fn new() -> Option<State> {
        let inotify = inotify::init(CreateFlags::NONBLOCK | CreateFlags::CLOEXEC).ok()?;
        let mountinfo = std::fs::File::open("/proc/self/mountinfo").ok()?;
        Some(State {
            inotify,
            mountinfo,
            mount_points: mount_points()?,
            dirs: Dirs::default(),
            file_watches: Vec::new(),
            resolved: HashMap::default(),
            resolved_in: 0,
            cap: watch_cap(),
        })
    }

    /// Reads the queued events; whether any of them matters.
    fn drain(&mut self) -> bool {
        let mut changed = false;
        let mut buf = vec![MaybeUninit::<u8>::uninit(); 16 * 1024];
        let mut reader = inotify::Reader::new(&self.inotify, &mut buf);
        let mut ignored = Vec::new();
        loop {
            match reader.next() {
                Ok(event) => {
                    let name = event.file_name().map_or(&[][..], |n| n.to_bytes());
                    changed |= self.matters(event.wd(), event.events(), name);
                    if event.events().contains(ReadFlags::IGNORED) {
                        ignored.push(event.wd());
                    }
                }
                Err(rustix::io::Errno::AGAIN) => break,
                Err(rustix::io::Errno::INTR) => continue,
                // Events that cannot be read may have mattered.
                Err(_) => {
                    changed = true;
                    break;
                }
            }
        }
        for wd in ignored {
            self.forget(wd);
        }
        changed
    }

    /// Whether an event changes what a path watched resolves to.
    fn matters(&self, wd: i32, events: ReadFlags, name: &[u8]) -> bool {
        if events.contains(ReadFlags::QUEUE_OVERFLOW) || name.is_empty() {
            // Lost events, or the directory itself moved, removed, unmounted.
            return true;
        }
        // A name of interest, a whole directory, a file or link itself, or
        // a watch forgotten.
        self.dirs.matters(wd, name_hash(name))
    }

    /// A watch the kernel dropped (its directory removed or unmounted).
    fn forget(&mut self, wd: i32) {
        self.drop_interest(wd);
    }

    /// Whether the closest mount point above `path` (as written: a link on
    /// the way may still lead elsewhere, which `statfs` then tells) is of
    /// a local filesystem type.
    fn under_local_mount(&self, path: &Path) -> bool {
        let bytes = key(path);
        if !plain(bytes) {
            return path
                .ancestors()
                .find_map(|a| self.mount_points.get(key(a)))
                .is_some_and(|local| *local);
        }
        // The ancestors of a plain path are its prefixes before each `/`.
        let mut end = bytes.len();
        loop {
            if let Some(local) = self.mount_points.get(&bytes[..end]) {
                return *local;
            }
            match memchr::memrchr(b'/', &bytes[..end]) {
                Some(0) if end > 1 => end = 1,
                Some(at) if at > 0 => end = at,
                _ => return false,
            }
        }
    }

    /// How many watches are kept (of directories and of files).
    fn watches(&self) -> usize {
        self.dirs.watches() + self.file_watches.len()
    }

    /// Counts `wd`, a watch of a file or a link itself (not of a directory:
    /// a path replaced by one since it was read gives a directory's).
    fn add_file_watch(&mut self, wd: i32) {
        if self.dirs.has_watch(wd) {
            return;
        }
        if let Err(at) = self.file_watches.binary_search(&wd) {
            self.file_watches.insert(at, wd);
        }
    }

    /// Forgets what matters of watch `wd`.
    fn drop_interest(&mut self, wd: i32) {
        if let Ok(at) = self.file_watches.binary_search(&wd) {
            self.file_watches.remove(at);
        }
        self.dirs.forget(wd);
    }

    /// Watches `dir` (a real path: no link in it) in generation `gen`; its
    /// device, or `None` when it cannot be watched.
    fn arm(&mut self, dir: &Path, gen: u64) -> Option<u64> {
        self.arm_on(dir, gen, false)
    }

    /// [`State::arm`]; `local`: `dir` is known to be on a local
    /// filesystem (on the device of a watched directory it was read in),
    /// so its filesystem is not asked again.
    fn arm_on(&mut self, dir: &Path, gen: u64, local: bool) -> Option<u64> {
        let kept = self.dirs.get(key(dir));
        if let Some(d) = kept {
            if d.armed_in(gen) {
                return (d.wd >= 0).then_some(d.dev);
            }
        }
        let local = local
            || rustix::fs::statfs(dir).is_ok_and(|fs| {
                LOCAL_FILESYSTEMS.contains(&((fs.f_type as u64 & 0xFFFF_FFFF) as u32))
            });
        if !local {
            self.unwatchable(dir, gen);
            return None;
        }
        if self.watches() >= self.cap && kept.is_none() {
            return None;
        }
        let Ok(wd) = inotify::add_watch(&self.inotify, dir, MASK) else {
            return None;
        };
        // Read after the watch: a change from here on is reported.
        let dev = std::fs::symlink_metadata(dir).ok()?.dev();
        if let Some(old) = kept.map(|d| d.wd) {
            // The path is another directory now: the old one's watch is of
            // no use.
            if old != wd {
                self.release(old, dir);
            }
        }
        if !self.dirs.set(key(dir), wd, dev, gen) {
            // Not kept (see `Dirs::set`): not watched, nor counted.
            if !self.counted(wd) {
                let _ = inotify::remove_watch(&self.inotify, wd);
            }
            return None;
        }
        Some(dev)
    }

    /// Keeps `dir` as a directory that cannot be watched, in generation
    /// `gen` (another filesystem may be mounted over a directory watched
    /// before: its watch is of no use now).
    fn unwatchable(&mut self, dir: &Path, gen: u64) {
        if let Some(old) = self.dirs.get(key(dir)) {
            self.release(old.wd, dir);
        }
        if self.dirs.len() < MAX_WATCHES + MAX_RESOLVED {
            self.dirs.set(key(dir), -1, 0, gen);
        }
    }

    /// Removes watch `wd` of the directory kept at `dir`, unless another
    /// path reaches it (or it is no watch: -1).
    fn release(&mut self, wd: i32, dir: &Path) {
        if wd >= 0 && !self.dirs.shared(wd, key(dir)) {
            // A stale `wd` only fails.
            let _ = inotify::remove_watch(&self.inotify, wd);
            self.drop_interest(wd);
        }
    }

    /// Whether watch `wd` is counted ([`State::watches`]).
    fn counted(&self, wd: i32) -> bool {
        self.dirs.has_watch(wd) || self.file_watches.binary_search(&wd).is_ok()
    }

    /// Marks `name` in the armed directory `dir` as one that matters.
    fn note(&mut self, dir: &Path, name: &OsStr) {
        self.dirs.note(key(dir), name_hash(name.as_bytes()));
    }

    /// Marks every name in the armed directory `dir` as mattering.
    fn note_all(&mut self, dir: &Path) {
        self.dirs.note_all(key(dir));
    }

    /// Reads `path` (its name noted in its watched directory on `dev`) and
    /// watches a regular file itself, then reads it again under that watch:
    /// the directory's watch does not see a write through another of the
    /// file's names (a link made later) or an old descriptor.
    fn watch_file(&mut self, path: &Path, dev: u64) -> FileRead {
        let md = match lstat(path) {
            Ok(Some(md)) => md,
            Ok(None) => return FileRead::Missing,
            Err(()) => return FileRead::Unwatched,
        };
        if !md.is_file() {
            if md.file_type().is_symlink() {
                // The link's own inode: its change matters too (rare).
                if let Ok(wd) = inotify::add_watch(&self.inotify, path, FILE_MASK) {
                    self.add_file_watch(wd);
                }
            }
            return FileRead::Other(md);
        }
        if md.dev() != dev || self.mount_points.contains_key(key(path)) {
            return FileRead::Unwatched;
        }
        let at_cap = self.watches() >= self.cap;
        let Ok(wd) = inotify::add_watch(&self.inotify, path, FILE_MASK) else {
            return FileRead::Unwatched;
        };
        if at_cap && !self.counted(wd) {
            // A new watch, beyond the cap (a file watched already gets its
            // own watch back, counted).
            let _ = inotify::remove_watch(&self.inotify, wd);
            return FileRead::Unwatched;
        }
        self.add_file_watch(wd);
        // Read again, under the watch.
        match lstat(path) {
            Ok(Some(md)) if md.is_file() && md.dev() == dev => FileRead::File(md),
            // Replaced meanwhile (a change the directory's watch reports):
            // the general way, or a `stat`, decides.
            Ok(Some(md)) if !md.is_file() => FileRead::Other(md),
            Ok(Some(_)) | Err(()) => FileRead::Unwatched,
            Ok(None) => FileRead::Missing,
        }
    }

    /// Resolves `names` (a stack: the last is resolved first) from the
    /// armed real directory `dir` on `dev`, watching each directory before
    /// reading the entry in it. `whole`: a directory reached at the end is
    /// watched whole (its listing matters, not only its being there). With
    /// what it resolved to, the `lstat` of it (read under watch: what a
    /// `stat` of the path gives) when it exists.
    fn walk(
        &mut self,
        mut dir: PathBuf,
        mut dev: u64,
        mut names: Vec<OsString>,
        gen: u64,
        whole: bool,
    ) -> (Outcome, Option<std::fs::Metadata>) {
        let mut links = 0;
        // The `lstat` of `dir`, when it was the last entry read.
        let mut dir_md = None;
        while let Some(name) = names.pop() {
            if name == ".." {
                dir.pop();
                dir_md = None;
                match self.arm(&dir, gen) {
                    Some(d) => dev = d,
                    None => return (Outcome::Unwatched, None),
                }
                continue;
            }
            self.note(&dir, &name);
            let child = dir.join(&name);
            let md = if names.is_empty() {
                // The last name (unless a link): a file is watched itself.
                match self.watch_file(&child, dev) {
                    FileRead::File(md) => return (Outcome::File, Some(md)),
                    FileRead::Missing => return (Outcome::Missing, None),
                    FileRead::Other(md) => md,
                    FileRead::Unwatched => return (Outcome::Unwatched, None),
                }
            } else {
                match lstat(&child) {
                    Ok(Some(md)) => md,
                    Ok(None) => return (Outcome::Missing, None),
                    Err(()) => return (Outcome::Unwatched, None),
                }
            };
            let kind = md.file_type();
            if kind.is_symlink() {
                links += 1;
                let Ok(target) = std::fs::read_link(&child) else {
                    return (Outcome::Unwatched, None);
                };
                if links > MAX_LINKS || must_be_dir(target.as_os_str().as_bytes()) {
                    return (Outcome::Unwatched, None);
                }
                if target.is_absolute() {
                    dir = PathBuf::from("/");
                    dir_md = None;
                    match self.arm(&dir, gen) {
                        Some(d) => dev = d,
                        None => return (Outcome::Unwatched, None),
                    }
                }
                names.extend(components(&target).into_iter().rev());
                continue;
            }
            if kind.is_dir() {
                // The device of the directory it is in: the same filesystem.
                match self.arm_on(&child, gen, md.dev() == dev) {
                    Some(d) => dev = d,
                    None => return (Outcome::Unwatched, None),
                }
                dir = child;
                dir_md = Some(md);
                continue;
            }
            if !names.is_empty() {
                // A file on the way: no such path (until it is replaced).
                return (Outcome::Missing, None);
            }
            // Neither a file nor a directory nor a link (a FIFO, a socket, a
            // device): not watched.
            return (Outcome::Unwatched, None);
        }
        if whole {
            self.note_all(&dir);
        }
        let md = match dir_md {
            Some(md) => Some(md),
            None => match std::fs::symlink_metadata(&dir) {
                Ok(md) => Some(md),
                Err(_) => return (Outcome::Unwatched, None),
            },
        };
        (Outcome::Dir(dir, dev), md)
    }

    /// What `dir` is known to resolve to in generation `gen`: from this
    /// generation's memo, or, for a directory watched in it (a real path,
    /// reached by a walk that watched each directory on its way and noted
    /// each name: none has changed since, or the generation would have),
    /// itself.
    fn known(&self, dir: &Path, gen: u64) -> Option<Outcome> {
        if let Some(o) = self.resolved.get(key(dir)) {
            return Some(o.clone());
        }
        match self.dirs.get(key(dir)) {
            Some(d) if d.armed_in(gen) && d.wd >= 0 => Some(Outcome::Dir(dir.to_path_buf(), d.dev)),
            _ => None,
        }
    }

    /// What the lexical directory `dir` (absolute) resolves to, watched,
    /// from the closest of its ancestors known in this generation.
    fn resolve(&mut self, dir: &Path, gen: u64) -> Outcome {
        if let Some(o) = self.known(dir, gen) {
            return o;
        }
        if self.resolved.len() >= MAX_RESOLVED {
            self.resolved.clear();
        }
        let mut base = dir;
        let mut outcome = None;
        while let Some(parent) = base.parent() {
            base = parent;
            outcome = self.known(base, gen);
            if outcome.is_some() {
                break;
            }
        }
        let mut outcome = match outcome {
            Some(o) => o,
            None => match self.arm(base, gen) {
                Some(dev) => Outcome::Dir(base.to_path_buf(), dev),
                None => Outcome::Unwatched,
            },
        };
        let Ok(rest) = dir.strip_prefix(base) else {
            return Outcome::Unwatched;
        };
        let mut prefix = base.to_path_buf();
        for name in components(rest) {
            prefix.push(&name);
            outcome = match outcome {
                Outcome::Dir(d, dev) => self.walk(d, dev, vec![name], gen, false).0,
                // A file on the way: no such directory.
                Outcome::File => Outcome::Missing,
                other => other,
            };
            // A directory at its own path is known from `dirs`.
            let own = matches!(&outcome, Outcome::Dir(d, _) if *d == prefix);
            if !own {
                self.resolved.insert(key(&prefix).into(), outcome.clone());
            }
        }
        outcome
    }
}

/// `lstat` of `path`: `Ok(None)` when there is no such path (it or a
/// directory on its way is missing, or a file is on its way), `Err` when
/// the call cannot tell (the caller then leaves the path unwatched).
fn lstat(path: &Path) -> Result<Option<std::fs::Metadata>, ()> {
    match std::fs::symlink_metadata(path) {
        Ok(md) => Ok(Some(md)),
        Err(e)
            if e.kind() == std::io::ErrorKind::NotFound
                || e.kind() == std::io::ErrorKind::NotADirectory =>
        {
            Ok(None)
        }
        Err(_) => Err(()),
    }
}

/// Whether a path's text ends in `/` or `/.`: the kernel then resolves it
/// only to a directory (a file there is ENOTDIR), which [`components`]
/// does not keep.
fn must_be_dir(path: &[u8]) -> bool {
    path.len() > 1 && (path.ends_with(b"/") || path.ends_with(b"/."))
}

/// Whether the text of absolute `path` is as [`Path`] reads it: no empty
/// or `.` component, and neither a `/` nor `..` at its end. Its ancestors
/// are then its prefixes before each `/` (and `/`), and its parent and name
/// either side of its last `/`.
fn plain(path: &[u8]) -> bool {
    if path.len() < 2 || path[0] != b'/' {
        return false;
    }
    memchr::memchr_iter(b'/', path).all(|at| {
        !matches!(
            &path[at + 1..],
            [] | [b'/', ..] | [b'.'] | [b'.', b'/', ..] | [b'.', b'.']
        )
    })
}

/// The parent and name of `path` ([`Path::parent`], [`Path::file_name`]),
/// from its bytes when it is [`plain`].
fn split(path: &Path) -> Option<(&Path, &OsStr)> {
    let bytes = key(path);
    if !plain(bytes) {
        return Some((path.parent()?, path.file_name()?));
    }
    let at = memchr::memrchr(b'/', bytes)?;
    let parent = if at == 0 { &bytes[..1] } else { &bytes[..at] };
    Some((
        Path::new(OsStr::from_bytes(parent)),
        OsStr::from_bytes(&bytes[at + 1..]),
    ))
}

/// The components of `path` to resolve, in order (`.` dropped; `..` kept
/// as a name).
fn components(path: &Path) -> Vec<OsString> {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n.to_os_string()),
            Component::ParentDir => Some(OsString::from("..")),
            Component::CurDir | Component::RootDir | Component::Prefix(_) => None,
        })
        .collect()
}

/// Every mount point of the process, from `/proc/self/mountinfo` (the
/// fifth field, octal escapes undone), and whether its filesystem type
/// (the first field after ` - `) is a local one.
fn mount_points() -> Option<HashMap<Box<[u8]>, bool, Fast>> {
    let text = std::fs::read("/proc/self/mountinfo").ok()?;
    let mut points = HashMap::default();
    for line in text.split(|&b| b == b'\n') {
        let fields: Vec<&[u8]> = line.split(|&b| b == b' ').collect();
        let Some(field) = fields.get(4) else {
            continue;
        };
        let fstype = fields
            .iter()
            .position(|f| *f == b"-")
            .and_then(|i| fields.get(i + 1))
            .copied()
            .unwrap_or_default();
        let mut point = Vec::with_capacity(field.len());
        let mut i = 0;
        while i < field.len() {
            let octal = field.get(i + 1..i + 4).and_then(|d| {
                d.iter().try_fold(0u32, |n, &b| {
                    (b'0'..=b'7')
                        .contains(&b)
                        .then(|| n * 8 + u32::from(b - b'0'))
                })
            });
            match (field[i], octal) {
                (b'\\', Some(n)) if n <= 0xFF => {
                    point.push(n as u8);
                    i += 4;
                }
                (b, _) => {
                    point.push(b);
                    i += 1;
                }
            }
        }
        points.insert(point.into_boxed_slice(), LOCAL_TYPES.contains(&fstype));
    }
    Some(points)
}

impl Watcher {
    pub(super) fn new() -> Option<Watcher> {
        let forks = fork_count().unwrap_or(u64::MAX);
        Some(Watcher {
            generation: AtomicU64::new(1),
            pid: AtomicU32::new(std::process::id()),
            forks: AtomicU64::new(forks),
            dead: AtomicBool::new(false),
            claimed: AtomicU32::new(std::process::id()),
            state: Mutex::new(State::new()?),
        })
    }

    /// The current generation: a result watched in it still holds (0, no
    /// generation, when the watcher cannot watch: a result labelled 0 is
    /// never vouched for).
    pub(crate) fn generation(&self) -> u64 {
        if self.dead.load(Ordering::Acquire) {
            // No generation: nothing is vouched for.
            return 0;
        }
        self.generation.load(Ordering::Acquire)
    }

    /// Reads what changed since the last refresh (one `poll` when nothing
    /// did): after it, a result of the current generation holds for every
    /// change made before the call. What each new session does first.
    pub(crate) fn refresh(&self) {
        if self.forked() {
            return;
        }
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let state = &mut *state;
        let (inotify_ready, mounts_changed, failed) = {
            let mut fds = [
                PollFd::new(&state.inotify, PollFlags::IN),
                PollFd::new(&state.mountinfo, PollFlags::PRI),
            ];
            let now = Timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            match rustix::event::poll(&mut fds, Some(&now)) {
                Ok(0) => return,
                Ok(_) => (
                    fds[0].revents().contains(PollFlags::IN),
                    !fds[1].revents().is_empty(),
                    fds[0]
                        .revents()
                        .intersects(PollFlags::ERR | PollFlags::NVAL),
                ),
                // A failed poll could not tell: a new generation.
                Err(_) => (false, false, true),
            }
        };
        let mut changed = failed;
        if mounts_changed {
            changed = true;
            // Unread (out of descriptors?): the old ones, in a new
            // generation all the same.
            if let Some(points) = mount_points() {
                state.mount_points = points;
            }
        }
        if inotify_ready {
            changed |= state.drain();
        }
        if changed {
            self.generation.fetch_add(1, Ordering::AcqRel);
        }
    }

    /// Whether this process is a child of the one that made the state: it
    /// then makes its own (the parent's queue is not its to read), in a new
    /// generation; `true` when it could not (then nothing is watched).
    fn forked(&self) -> bool {
        let forks = fork_count();
        if forks.is_some_and(|n| n == self.forks.load(Ordering::Acquire)) {
            return self.dead.load(Ordering::Acquire);
        }
        let pid = std::process::id();
        if self.pid.load(Ordering::Acquire) == pid {
            // This process's state is made (by this thread or another):
            // until the next fork, no need to ask again.
            if let Some(n) = forks {
                self.forks.store(n, Ordering::Release);
            }
            return self.dead.load(Ordering::Acquire);
        }
        // One thread of the child makes its state; the others vouch for
        // nothing until it is made (and never take the lock before: a
        // thread of the parent may have held it when it forked).
        if self.claimed.swap(pid, Ordering::AcqRel) == pid {
            return true;
        }
        // What the parent's generation vouched for, the child did not see.
        self.generation.fetch_add(1, Ordering::AcqRel);
        let state = match self.state.try_lock() {
            Ok(state) => Some(state),
            Err(std::sync::TryLockError::Poisoned(p)) => Some(p.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => None,
        };
        match (state, State::new()) {
            (Some(mut state), Some(fresh)) => *state = fresh,
            _ => self.dead.store(true, Ordering::Release),
        }
        self.pid.store(pid, Ordering::Release);
        self.dead.load(Ordering::Acquire)
    }

    /// Watches what `path` resolves to and reads it, as a `stat` would:
    /// the generation in which what it read holds until a change, and its
    /// metadata (`None`: no such path); `None` when it cannot be watched
    /// (see [`crate::watch`]: the caller then `stat`s it itself).
    pub(crate) fn watch(&self, path: &Path) -> Option<(u64, Option<std::fs::Metadata>)> {
        if self.forked() || !path.is_absolute() || must_be_dir(key(path)) {
            return None;
        }
        let (parent, name) = split(path)?;
        let gen = self.generation();
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if state.resolved_in != gen {
            state.resolved.clear();
            state.resolved_in = gen;
        }
        // Most paths asked about are in a directory watched in this
        // generation: only the name is noted and read.
        if let Some((at, d)) = state.dirs.find_kept(key(parent)) {
            if d.armed_in(gen) && d.wd >= 0 {
                // `parent` is a real directory of a local filesystem, with
                // the mounts as they were when it was found so: what
                // `under_local_mount` would say, but for a mount at `path`
                // itself (a local one is read as before: `watch_file`
                // leaves a file mounted in place unwatched).
                if state.mount_points.get(key(path)) == Some(&false) {
                    return None;
                }
                let dev = d.dev;
                state.dirs.note_in(at, name_hash(name.as_bytes()));
                match state.watch_file(path, dev) {
                    FileRead::File(md) => return Some((gen, Some(md))),
                    FileRead::Missing => return Some((gen, None)),
                    FileRead::Unwatched => return None,
                    FileRead::Other(md) if md.is_dir() => {
                        // Watched whole, as the general way would.
                        let same_fs = md.dev() == dev;
                        state.arm_on(path, gen, same_fs)?;
                        state.note_all(path);
                        return Some((gen, Some(md)));
                    }
                    // A link: the general way.
                    FileRead::Other(_) => {}
                }
            }
        }
        if !state.under_local_mount(path) {
            // Not a syscall on it under the lock (a network mount may hang).
            return None;
        }
        let name = name.to_os_string();
        let (end, md) = match state.resolve(parent, gen) {
            Outcome::Dir(dir, dev) => state.walk(dir, dev, vec![name], gen, true),
            Outcome::Unwatched => return None,
            Outcome::Missing | Outcome::File => (Outcome::Missing, None),
        };
        (end != Outcome::Unwatched).then_some((gen, md))
    }
}

#[cfg(test)]
mod tests {
    use super::super::dirs::MAX_NAMES;
    use super::*;

    /// A fresh directory under the temporary directory.
    fn fresh(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("libhiera-watch-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// Whether `change` starts a new generation for a watcher watching
    /// `path` (the temporary directory must be on a local filesystem: the
    /// test checks that first).
    fn reported(path: &Path, change: impl FnOnce()) -> bool {
        let w = Watcher::new().expect("inotify");
        assert!(w.watch(path).is_some(), "{} not watched", path.display());
        w.refresh();
        let gen = w.generation();
        w.refresh();
        assert_eq!(w.generation(), gen, "a generation with no change");
        change();
        w.refresh();
        w.generation() != gen
    }

    /// A fork is seen by the count changing in the child, and only there:
    /// the parent keeps asking nothing. (The child only reads memory and
    /// exits; `ruby/test/test_limits.rb` follows a child's own watcher.)
    #[test]
    fn a_child_counts_its_fork_and_the_parent_does_not() {
        let w = Watcher::new().expect("inotify");
        assert!(!w.forked());
        let before = fork_count().expect("pthread_atfork registered");
        assert_eq!(w.forks.load(Ordering::Acquire), before);
        assert!(crate::ffi::fork::in_child(|| {
            fork_count() == Some(before + 1) && w.forks.load(Ordering::Acquire) == before
        }));
        assert_eq!(fork_count(), Some(before));
        assert!(!w.forked());
    }

    #[test]
    fn a_file_rewritten_created_removed_or_renamed_is_reported() {
        let dir = fresh("file");
        let f = dir.join("data/common.yaml");
        write(&f, "a: 1\n");
        assert!(reported(&f, || write(&f, "a: 2\n")));
        assert!(reported(&f, || {
            std::fs::OpenOptions::new()
                .write(true)
                .open(&f)
                .unwrap()
                .set_len(0)
                .unwrap()
        }));
        assert!(reported(&f, || std::fs::remove_file(&f).unwrap()));
        // Missing, in a directory that does not exist either.
        let node = dir.join("data/nodes/n1.yaml");
        assert!(reported(&node, || write(&node, "a: 3\n")));
        let other = dir.join("data/other.yaml");
        write(&other, "a: 4\n");
        assert!(reported(&f, || std::fs::rename(&other, &f).unwrap()));
        // chmod: the file may no longer be readable.
        assert!(reported(&f, || {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o600)).unwrap()
        }));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_change_to_another_name_is_not_reported() {
        let dir = fresh("other");
        let f = dir.join("data/common.yaml");
        write(&f, "a: 1\n");
        assert!(!reported(&f, || write(&dir.join("data/notes.txt"), "x")));
        assert!(!reported(&f, || write(&dir.join("log"), "x")));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_directory_on_the_way_swapped_or_moved_is_reported() {
        let dir = fresh("swap");
        let env = dir.join("envs/production");
        let f = env.join("data/common.yaml");
        write(&f, "a: 1\n");
        write(&dir.join("envs/next/data/common.yaml"), "a: 2\n");
        assert!(reported(&f, || {
            std::fs::rename(&env, dir.join("envs/old")).unwrap();
            std::fs::rename(dir.join("envs/next"), &env).unwrap();
        }));
        // A directory higher up renamed.
        assert!(reported(&f, || std::fs::rename(
            dir.join("envs"),
            dir.join("e2")
        )
        .unwrap()));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A Kubernetes ConfigMap volume: each file a link through `..data`, a
    /// link swapped (renamed over) to a new directory on each update.
    #[test]
    fn a_link_on_the_way_swapped_is_reported() {
        let dir = fresh("links");
        write(&dir.join("..v1/common.yaml"), "a: 1\n");
        write(&dir.join("..v2/common.yaml"), "a: 2\n");
        std::os::unix::fs::symlink("..v1", dir.join("..data")).unwrap();
        std::os::unix::fs::symlink("..data/common.yaml", dir.join("common.yaml")).unwrap();
        let f = dir.join("common.yaml");
        assert!(reported(&f, || {
            std::os::unix::fs::symlink("..v2", dir.join("..data_tmp")).unwrap();
            std::fs::rename(dir.join("..data_tmp"), dir.join("..data")).unwrap();
        }));
        // The target written through the link's directory.
        assert!(reported(&f, || write(
            &dir.join("..v2/common.yaml"),
            "a: 3\n"
        )));
        // An absolute link on the way (a deploy's `current`).
        let env = dir.join("env");
        std::os::unix::fs::symlink(dir.join("..v1"), &env).unwrap();
        let g = env.join("common.yaml");
        assert!(reported(&g, || write(
            &dir.join("..v1/common.yaml"),
            "a: 4\n"
        )));
        assert!(reported(&g, || {
            std::fs::remove_file(&env).unwrap();
            std::os::unix::fs::symlink(dir.join("..v2"), &env).unwrap();
        }));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_directory_asked_about_is_watched_whole() {
        let dir = fresh("whole");
        let m = dir.join("modules/m");
        std::fs::create_dir_all(&m).unwrap();
        assert!(reported(&m, || write(&m.join("anything"), "x")));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn what_a_watch_could_miss_is_not_watched() {
        let dir = fresh("unwatched");
        let w = Watcher::new().expect("inotify");
        let f = dir.join("common.yaml");
        write(&f, "a: 1\n");
        assert!(w.watch(Path::new("relative/common.yaml")).is_none());
        // A loop of links.
        std::os::unix::fs::symlink("loop2", dir.join("loop1")).unwrap();
        std::os::unix::fs::symlink("loop1", dir.join("loop2")).unwrap();
        assert!(w.watch(&dir.join("loop1/x.yaml")).is_none());
        // A path the kernel resolves only to a directory (`x/`, `x/.`), and a
        // link to one: `components` does not keep that.
        assert!(w.watch(&dir.join("common.yaml/")).is_none());
        assert!(w
            .watch(Path::new(&format!("{}/common.yaml/.", dir.display())))
            .is_none());
        std::os::unix::fs::symlink("common.yaml/", dir.join("slash.yaml")).unwrap();
        assert!(w.watch(&dir.join("slash.yaml")).is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A write through another name of the file (a link made after it was
    /// watched) or through a descriptor opened before it was moved into
    /// place is reported: the file's own inode is watched (review22).
    #[test]
    fn a_write_through_another_name_or_an_old_descriptor_is_reported() {
        let dir = fresh("links2");
        let f = dir.join("data/common.yaml");
        write(&f, "a: 1\n");
        std::fs::create_dir_all(dir.join("elsewhere")).unwrap();
        let other = dir.join("elsewhere/x.yaml");
        assert!(reported(&f, || std::fs::hard_link(&f, &other).unwrap()));
        assert!(reported(&f, || write(&other, "a: 2\n")));
        // Opened elsewhere, linked into place, its first name removed.
        let g = dir.join("data/g.yaml");
        let first = dir.join("elsewhere/g.yaml");
        write(&first, "a: 1\n");
        let mut open = std::fs::OpenOptions::new()
            .write(true)
            .open(&first)
            .unwrap();
        std::fs::hard_link(&first, &g).unwrap();
        std::fs::remove_file(&first).unwrap();
        assert!(reported(&g, || {
            use std::io::Write;
            open.write_all(b"a: 2\n").unwrap()
        }));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// What a watch reads of a path is what a `stat` of it gives: through
    /// links, of a directory, and nothing for a missing path (or one under
    /// a file).
    #[test]
    fn a_watch_reads_what_a_stat_gives() {
        let dir = fresh("stat");
        let f = dir.join("v1/common.yaml");
        write(&f, "a: 1\n");
        std::os::unix::fs::symlink("v1", dir.join("current")).unwrap();
        std::os::unix::fs::symlink(&f, dir.join("abs.yaml")).unwrap();
        let w = Watcher::new().expect("inotify");
        let same = |p: &Path| {
            let (_, md) = w.watch(p).expect("watched");
            let md = md.expect("exists");
            let st = std::fs::metadata(p).unwrap();
            assert_eq!(
                (md.dev(), md.ino(), md.len(), md.mtime_nsec(), md.is_dir()),
                (st.dev(), st.ino(), st.len(), st.mtime_nsec(), st.is_dir()),
                "{}",
                p.display()
            );
        };
        same(&f);
        same(&dir.join("current/common.yaml"));
        same(&dir.join("abs.yaml"));
        same(&dir.join("current"));
        same(&dir.join("v1/../current/common.yaml"));
        for missing in [
            "v2/common.yaml",
            "v1/nothing.yaml",
            "v1/common.yaml/x",
            "current/x/y",
        ] {
            let (_, md) = w.watch(&dir.join(missing)).expect("watched");
            assert!(md.is_none(), "{missing}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A directory asked about under more than [`MAX_NAMES`] names is
    /// watched whole: what the watcher keeps is bounded.
    #[test]
    fn names_beyond_the_bound_watch_the_directory_whole() {
        let dir = fresh("bound");
        std::fs::create_dir_all(dir.join("nodes")).unwrap();
        let w = Watcher::new().expect("inotify");
        for i in 0..MAX_NAMES {
            assert!(w.watch(&dir.join(format!("nodes/n{i}.yaml"))).is_some());
        }
        {
            let state = w.state.lock().unwrap();
            assert!(
                state.dirs.names() >= MAX_NAMES,
                "{} names kept",
                state.dirs.names()
            );
        }
        w.refresh();
        let gen = w.generation();
        write(&dir.join("nodes/other.txt"), "x");
        w.refresh();
        assert_eq!(w.generation(), gen, "another name, within the bound");
        for i in MAX_NAMES..=MAX_NAMES + 1 {
            assert!(w.watch(&dir.join(format!("nodes/n{i}.yaml"))).is_some());
        }
        {
            let state = w.state.lock().unwrap();
            assert!(
                state.dirs.names() <= MAX_NAMES + 8,
                "{} names kept",
                state.dirs.names()
            );
        }
        w.refresh();
        let gen = w.generation();
        write(&dir.join("nodes/other2.txt"), "x");
        w.refresh();
        assert_ne!(w.generation(), gen, "watched whole");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Each watch is counted once: a file watched again in a later
    /// generation (the kernel gives its watch's number back) is not counted
    /// again, and a file removed takes its watch out of the count.
    #[test]
    fn each_watch_is_counted_once() {
        let dir = fresh("count");
        for i in 0..20 {
            write(&dir.join(format!("data/f{i}.yaml")), "a: 1\n");
        }
        let w = Watcher::new().expect("inotify");
        let watched = |w: &Watcher| {
            for i in 0..20 {
                let (_, md) = w
                    .watch(&dir.join(format!("data/f{i}.yaml")))
                    .expect("watched");
                assert!(md.is_some_and(|m| m.is_file()));
            }
            let state = w.state.lock().unwrap();
            (state.file_watches.len(), state.watches())
        };
        let (files, all) = watched(&w);
        assert_eq!(files, 20, "a watch a file");
        for round in 0..3 {
            // A new generation: every file is watched again.
            write(&dir.join(format!("data/f{round}.yaml")), "a: 2\n");
            let gen = w.generation();
            w.refresh();
            assert_ne!(w.generation(), gen);
            assert_eq!(watched(&w), (files, all), "round {round}");
        }
        std::fs::remove_file(dir.join("data/f7.yaml")).unwrap();
        w.refresh();
        let state = w.state.lock().unwrap();
        assert_eq!(
            state.file_watches.len(),
            19,
            "the removed file's watch forgotten"
        );
        assert!(state.file_watches.windows(2).all(|p| p[0] < p[1]), "sorted");
        drop(state);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The watches the kernel holds for the watcher (its `fdinfo`).
    fn kernel_watches(state: &State) -> usize {
        use std::os::fd::AsRawFd;
        let fdinfo = format!("/proc/self/fdinfo/{}", state.inotify.as_raw_fd());
        let text = std::fs::read_to_string(fdinfo).unwrap();
        text.lines()
            .filter(|l| l.starts_with("inotify wd:"))
            .count()
    }

    /// A directory watched, then found on a filesystem that cannot be
    /// (another one mounted over it): its watch is removed, and the count
    /// stays what the kernel holds.
    #[test]
    fn a_directory_found_unwatchable_gives_its_watch_back() {
        let dir = fresh("unwatchable");
        write(&dir.join("x/common.yaml"), "a: 1\n");
        let w = Watcher::new().expect("inotify");
        w.watch(&dir.join("x/common.yaml")).expect("watched");
        let mut state = w.state.lock().unwrap();
        let before = state.watches();
        assert_eq!(before, kernel_watches(&state));
        state.unwatchable(&dir.join("x"), w.generation() + 1);
        assert_eq!(state.watches(), kernel_watches(&state));
        assert_eq!(state.watches(), before - 1);
        assert_eq!(state.dirs.get(key(&dir.join("x"))).map(|d| d.wd), Some(-1));
        drop(state);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// At the cap, a file watched already is read again under its own
    /// watch; a new one is not watched, and its watch not kept.
    #[test]
    fn at_the_cap_only_files_watched_already_are_watched() {
        let dir = fresh("cap");
        write(&dir.join("data/common.yaml"), "a: 1\n");
        write(&dir.join("data/other.yaml"), "a: 2\n");
        let w = Watcher::new().expect("inotify");
        let f = dir.join("data/common.yaml");
        w.watch(&f).expect("watched");
        {
            let mut state = w.state.lock().unwrap();
            state.cap = state.watches();
        }
        assert!(w.watch(&f).is_some(), "watched already");
        assert!(
            w.watch(&dir.join("data/other.yaml")).is_none(),
            "beyond the cap"
        );
        let state = w.state.lock().unwrap();
        assert_eq!(state.watches(), state.cap);
        assert_eq!(state.watches(), kernel_watches(&state));
        drop(state);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A plain path's parent, name and ancestors, read from its bytes, are
    /// what [`Path`] gives, on every path of up to six pieces of `/`, `a`,
    /// `.`, `..`, `b.c`.
    #[test]
    fn plain_paths_split_as_path_does() {
        let pieces = ["/", "a", ".", "..", "b.c"];
        let mut paths = vec![String::new()];
        let mut checked = 0;
        for _ in 0..6 {
            let mut next = Vec::new();
            for p in &paths {
                for piece in pieces {
                    next.push(format!("{p}{piece}"));
                }
            }
            for text in &next {
                let path = Path::new(text);
                if !path.is_absolute() {
                    continue;
                }
                if let Some((parent, name)) = split(path) {
                    assert_eq!(Some(parent), path.parent(), "{text}");
                    assert_eq!(Some(name), path.file_name(), "{text}");
                } else {
                    assert!(
                        path.parent().is_none() || path.file_name().is_none(),
                        "{text}"
                    );
                }
                if plain(text.as_bytes()) {
                    checked += 1;
                    let mut prefixes = vec![text.as_str()];
                    let mut end = text.len();
                    while let Some(at) = memchr::memrchr(b'/', &text.as_bytes()[..end]) {
                        end = at.max(1);
                        prefixes.push(&text[..end]);
                        if at == 0 {
                            break;
                        }
                    }
                    let ancestors: Vec<&Path> = path.ancestors().collect();
                    let prefixes: Vec<&Path> = prefixes.into_iter().map(Path::new).collect();
                    assert_eq!(prefixes, ancestors, "{text}");
                }
            }
            paths = next;
        }
        assert!(checked > 500, "{checked} plain paths");
    }

    /// The closest mount point is found from the bytes of a plain path as
    /// from its ancestors.
    #[test]
    fn the_closest_mount_is_found_as_from_the_ancestors() {
        let w = Watcher::new().expect("inotify");
        let mut state = w.state.lock().unwrap();
        state.mount_points = [("/", true), ("/a", false), ("/a/b", true), ("/c/..", false)]
            .into_iter()
            .map(|(p, local)| (p.as_bytes().into(), local))
            .collect();
        for (path, local) in [
            ("/x/y", true),
            ("/a", false),
            ("/a/y", false),
            ("/a/b", true),
            ("/a/b/c/d", true),
            ("/a/bc", false),
            ("/c/../d", false),
            ("/c/./../d", true),
            ("/a//b/c", false),
            ("/a/b/.", false),
        ] {
            let path = Path::new(path);
            let by_ancestors = path
                .ancestors()
                .find_map(|a| state.mount_points.get(key(a)))
                .is_some_and(|local| *local);
            assert_eq!(
                state.under_local_mount(path),
                by_ancestors,
                "{}",
                path.display()
            );
            assert_eq!(by_ancestors, local, "{}", path.display());
        }
    }

    /// `/proc`'s filesystem is not a local one it knows: not watched.
    #[test]
    fn a_filesystem_not_known_to_be_local_is_not_watched() {
        let w = Watcher::new().expect("inotify");
        assert!(w.watch(Path::new("/proc/self/status")).is_none());
    }

    #[test]
    fn mount_points_are_read_with_their_escapes() {
        let points = mount_points().unwrap();
        assert!(points.contains_key(&b"/"[..]));
        assert_eq!(points.get(&b"/proc"[..]), Some(&false));
    }
}
