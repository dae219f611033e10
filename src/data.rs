//! Data files: `yaml_data` and `json_data` as Puppet reads them, and the
//! file cache that re-reads a file when its identity, size or times change
//! (and makes sure each read is one version of the file).

use crate::confine::Confinement;
use crate::error::{Error, ErrorKind, Result};
use crate::hiera5::config::{symkeys_to_string, HieraConfig, LayerKind};
use crate::hiera5::lookup::{Options, Strict};
use crate::path_table::PathTable;
use crate::probe_cache::ProbeCache;
use crate::string_set::StringSet;
use crate::thin_set::ThinSet;
use crate::value::Str;
use crate::value::{List, Map, Value};
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

/// The largest data or config file read (bytes); larger files are an error.
pub const MAX_FILE_SIZE: u64 = 256 * 1024 * 1024;

/// What identifies one version of a file: the device and inode, the size,
/// and the modification and status-change times. (No one can set the
/// change time: it tells a rewrite that put the modification time back,
/// as `rsync --inplace --times` and `touch -r` do.)
///
/// The times are kept as seconds and nanoseconds, each pair apart (48 bytes
/// where two `Option<SystemTime>`s took 32 of the 56: a cache keeps one
/// stamp per file, issue 18); [`Stamp::mtime`] and [`Stamp::ctime`] give
/// them back exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stamp {
    dev: u64,
    ino: u64,
    size: u64,
    mtime_secs: i64,
    ctime_secs: i64,
    /// [`NO_TIME`] when there is no such time.
    mtime_nanos: u32,
    ctime_nanos: u32,
}

/// The nanoseconds of a time a [`Stamp`] does not have (none is this large).
const NO_TIME: u32 = u32::MAX;

/// A time as seconds since the epoch (negative before it) and nanoseconds
/// after that second; `(0, NO_TIME)` for none. Exact for every time of
/// whole seconds that fit an `i64`, as a file's times do.
fn split_time(t: Option<SystemTime>) -> (i64, u32) {
    let Some(t) = t else {
        return (0, NO_TIME);
    };
    let split = match t.duration_since(SystemTime::UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_secs())
            .ok()
            .map(|s| (s, d.subsec_nanos())),
        Err(e) => {
            let d = e.duration();
            let (s, n) = (d.as_secs(), d.subsec_nanos());
            i64::try_from(s).ok().and_then(|s| match n {
                0 => Some((-s, 0)),
                n => (-s).checked_sub(1).map(|s| (s, 1_000_000_000 - n)),
            })
        }
    };
    split.unwrap_or((0, NO_TIME))
}

/// The time [`split_time`] split.
fn join_time(secs: i64, nanos: u32) -> Option<SystemTime> {
    if nanos == NO_TIME {
        return None;
    }
    let whole = if secs >= 0 {
        SystemTime::UNIX_EPOCH.checked_add(Duration::from_secs(secs.unsigned_abs()))
    } else {
        SystemTime::UNIX_EPOCH.checked_sub(Duration::from_secs(secs.unsigned_abs()))
    };
    whole?.checked_add(Duration::from_nanos(u64::from(nanos)))
}

impl Stamp {
    fn new(
        dev: u64,
        ino: u64,
        size: u64,
        mtime: Option<SystemTime>,
        ctime: Option<SystemTime>,
    ) -> Stamp {
        let (mtime_secs, mtime_nanos) = split_time(mtime);
        let (ctime_secs, ctime_nanos) = split_time(ctime);
        Stamp {
            dev,
            ino,
            size,
            mtime_secs,
            ctime_secs,
            mtime_nanos,
            ctime_nanos,
        }
    }

    fn of(md: &std::fs::Metadata) -> Stamp {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let ctime = u64::try_from(md.ctime()).ok().and_then(|s| {
                SystemTime::UNIX_EPOCH.checked_add(Duration::new(
                    s,
                    md.ctime_nsec().clamp(0, 999_999_999) as u32,
                ))
            });
            Stamp::new(md.dev(), md.ino(), md.len(), md.modified().ok(), ctime)
        }
        #[cfg(not(unix))]
        Stamp::new(0, 0, md.len(), md.modified().ok(), None)
    }

    /// The modification time.
    fn mtime(&self) -> Option<SystemTime> {
        join_time(self.mtime_secs, self.mtime_nanos)
    }

    /// The status-change time.
    fn ctime(&self) -> Option<SystemTime> {
        join_time(self.ctime_secs, self.ctime_nanos)
    }

    /// Whether the file changed so shortly before `now` that a change
    /// coming later may leave this stamp as it is: its times may still
    /// read the same (see [`RACY_WINDOW`]).
    fn racy(&self, now: SystemTime) -> bool {
        self.mtime()
            .max(self.ctime())
            .is_none_or(|t| t.checked_add(RACY_WINDOW).is_none_or(|t| t > now))
    }
}

/// Whether a path exists, and what it is.
pub fn exists(path: &Path) -> bool {
    std::fs::metadata(path).is_ok()
}

pub(crate) fn stamp_of(path: &Path) -> std::io::Result<(Stamp, std::fs::Metadata)> {
    let md = std::fs::metadata(path)?;
    Ok((Stamp::of(&md), md))
}

/// How many times a file that changes while it is read is read again
/// before the read fails (see [`read_file`]).
const READ_ATTEMPTS: usize = 3;

/// How long after a file's last change its stamp is not trusted to tell
/// the next change. File times are kept with a granularity: a clock tick
/// of a few milliseconds on Linux before 6.13 (or on a filesystem without
/// fine-grained timestamps), a second on some network filesystems, two on
/// FAT; two changes within one tick, at one size, leave the same stamp.
/// (The time of a file on a network filesystem is the server's: a clock
/// further off than this is not covered.)
const RACY_WINDOW: Duration = Duration::from_secs(2);

/// What [`read_file`] read: one version of a file.
struct FileRead {
    /// The file's stamp before and after the read.
    stamp: Stamp,
    bytes: Vec<u8>,
    /// The file changed within [`RACY_WINDOW`] before the read: a change
    /// to come may not show in its stamp.
    racy: bool,
}

fn io_error(e: &std::io::Error, path: &Path) -> Error {
    Error {
        kind: ErrorKind::Io,
        message: format!("{} @ rb_sysopen - {}", io_message(e), path.display()),
        file: Some(path.to_path_buf()),
        line: None,
    }
}

/// Reads a file as Puppet would, refusing what would hang or is not a
/// file, and making sure that the bytes are one version of it: a file
/// rewritten in place while it is read (truncated and written again) can
/// give pages of one version followed by pages of the next, which may well
/// parse (when both have the same layout) and mix two versions' values.
///
/// So the open file's stamp ([`Stamp`]: identity, size, times) is taken
/// before and after the read, and the read made again when they differ, at
/// most [`READ_ATTEMPTS`] times; a file still changing then is an error
/// ("changed while being read"), which the cache does not keep. A file that
/// changed within [`RACY_WINDOW`] before the read could change again within
/// the same tick of its filesystem's clock and keep its stamp: it is read
/// twice, and the two reads must agree. What a read gives is what the file
/// held at one instant: an empty file just truncated, or a prefix of one
/// being written, are read as they are (as Puppet reads them).
fn read_file(path: &Path) -> Result<FileRead> {
    use std::io::{Read, Seek};
    for _ in 0..READ_ATTEMPTS {
        let started = SystemTime::now();
        let mut options = std::fs::OpenOptions::new();
        options.read(true);
        // A FIFO put there must not block the open (its type is refused below).
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
        let mut file = match options.open(path) {
            Ok(f) => f,
            // Not everything can be opened (a directory on some systems, a socket).
            Err(e) => {
                return Err(match std::fs::metadata(path) {
                    Ok(md) if md.is_dir() => is_a_directory(path),
                    Ok(md) if !md.is_file() => not_a_file(path),
                    _ => io_error(&e, path),
                })
            }
        };
        let md = file.metadata().map_err(|e| io_error(&e, path))?;
        if md.is_dir() {
            return Err(is_a_directory(path));
        }
        #[cfg(unix)]
        let is_char_device = std::os::unix::fs::FileTypeExt::is_char_device(&md.file_type());
        #[cfg(not(unix))]
        let is_char_device = false;
        if is_char_device {
            // /dev/null reads as empty; read at most MAX_FILE_SIZE of any device.
            let mut bytes = Vec::new();
            let _ = file.take(MAX_FILE_SIZE).read_to_end(&mut bytes);
            return Ok(FileRead {
                stamp: Stamp::of(&md),
                bytes,
                racy: false,
            });
        }
        if !md.is_file() {
            return Err(not_a_file(path));
        }
        if md.len() > MAX_FILE_SIZE {
            return Err(too_large(md.len(), path));
        }
        let before = Stamp::of(&md);
        let read = |file: &mut std::fs::File| -> Result<Vec<u8>> {
            let mut bytes = Vec::with_capacity(before.size as usize + 1);
            (&mut *file)
                .take(MAX_FILE_SIZE + 1)
                .read_to_end(&mut bytes)
                .map_err(|e| io_error(&e, path))?;
            if bytes.len() as u64 > MAX_FILE_SIZE {
                return Err(too_large(bytes.len() as u64, path));
            }
            Ok(bytes)
        };
        let bytes = read(&mut file)?;
        let racy = before.racy(started);
        if racy {
            // The stamp may not tell a change during the read: read again.
            file.rewind().map_err(|e| io_error(&e, path))?;
            if read(&mut file)? != bytes {
                continue;
            }
        }
        let after = Stamp::of(&file.metadata().map_err(|e| io_error(&e, path))?);
        if after == before {
            return Ok(FileRead {
                stamp: before,
                bytes,
                racy,
            });
        }
    }
    Err(Error {
        kind: ErrorKind::Io,
        message: format!(
            "File changed while being read ({READ_ATTEMPTS} attempts): {}",
            path.display()
        ),
        file: Some(path.to_path_buf()),
        line: None,
    })
}

fn is_a_directory(path: &Path) -> Error {
    Error {
        kind: ErrorKind::Io,
        message: format!("Is a directory @ io_fread - {}", path.display()),
        file: Some(path.to_path_buf()),
        line: None,
    }
}

fn not_a_file(path: &Path) -> Error {
    Error {
        kind: ErrorKind::Io,
        message: format!(
            "Not a regular file (a FIFO, socket or device): {}",
            path.display()
        ),
        file: Some(path.to_path_buf()),
        line: None,
    }
}

fn too_large(size: u64, path: &Path) -> Error {
    Error {
        kind: ErrorKind::Io,
        message: format!("File too large ({size} bytes): {}", path.display()),
        file: Some(path.to_path_buf()),
        line: None,
    }
}

fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "No such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "Permission denied".into(),
        _ => e.to_string(),
    }
}

/// libyaml's reader check: the problem with invalid UTF-8 input, worded as
/// Psych reports it (reader errors carry no position: line 1 column 1).
pub fn yaml_utf8(bytes: &[u8]) -> std::result::Result<&str, String> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) => {
            let i = e.valid_up_to();
            let lead = bytes[i];
            let width = match lead {
                b if b & 0xE0 == 0xC0 => 2,
                b if b & 0xF0 == 0xE0 => 3,
                b if b & 0xF8 == 0xF0 => 4,
                _ => 0,
            };
            let problem = if width == 0 {
                "invalid leading UTF-8 octet"
            } else if i + width > bytes.len() {
                "incomplete UTF-8 octet sequence"
            } else if bytes[i + 1..i + width].iter().any(|b| b & 0xC0 != 0x80) {
                "invalid trailing UTF-8 octet"
            } else if matches!(
                (lead, bytes[i + 1]),
                (0xC0 | 0xC1, _) | (0xE0, 0x80..=0x9F) | (0xF0, 0x80..=0x8F)
            ) {
                "invalid length of a UTF-8 sequence"
            } else {
                "invalid Unicode character"
            };
            Err(format!("{problem} at line 1 column 1"))
        }
    }
}

/// Parses YAML text as Puppet's safe loader does (aliases allowed).
pub fn load_yaml_text(text: &str, path: &Path) -> Result<Option<Value>> {
    crate::yaml::load(text, &crate::yaml::YamlOptions::default()).map_err(|e| e.to_error(path))
}

/// A `yaml_data` file's document: its root Hash (Symbol keys not yet made
/// Strings), or an empty Hash for a document that is not one.
///
/// A document that is not a Hash is "file does not contain a valid yaml
/// hash": a warning, and the file counts as empty; under `strict=error` an
/// error, unless the document is empty or null or `false` (Puppet's
/// `safe_load` turns nil into false, and `yaml_data` only refuses `data !=
/// false`).
fn yaml_data_root(text: &str, path: &Path, strict: Strict) -> Result<Value> {
    yaml_data_document(text, path, strict, None).map(|(root, _, _)| root)
}

/// [`yaml_data_root`], and whether the document was not a Hash (Puppet
/// then warns), and whether the root is compacted already: read by YAML's
/// fast path through `intern` (see [`crate::yaml::Intern`]).
fn yaml_data_document(
    text: &str,
    path: &Path,
    strict: Strict,
    interner: Option<&Mutex<Interner>>,
) -> Result<(Value, bool, bool)> {
    let opts = crate::yaml::YamlOptions::default();
    let (root, compact) = match interner {
        Some(i) => crate::yaml::load_interned_shared(text, &opts, i),
        None => crate::yaml::load_interned(text, &opts, None),
    }
    .map_err(|e| e.to_error(path))?;
    let root = match root {
        Some(v @ Value::Hash(_)) => return Ok((v, false, compact)),
        None | Some(Value::Nil | Value::Bool(false)) => Ok(Value::empty_hash()),
        Some(_) if strict == Strict::Error => Err(Error {
            kind: ErrorKind::Parse,
            message: format!(
                "{}: file does not contain a valid yaml hash",
                path.display()
            ),
            file: Some(path.to_path_buf()),
            line: None,
        }),
        Some(_) => Ok(Value::empty_hash()),
    };
    root.map(|r| (r, true, false))
}

/// Parses a `yaml_data` file's text into its data hash (as under
/// `strict=warning`: a document that is not a Hash is an empty hash).
pub fn parse_yaml_data(text: &str, path: &Path) -> Result<Map> {
    let mut root = yaml_data_root(text, path, Strict::Warning)?;
    Compactor::new(None).value(&mut root, true);
    Ok(into_map(root))
}

fn into_map(v: Value) -> Map {
    match v {
        Value::Hash(h) => h,
        _ => unreachable!("a data file's root is a Hash"),
    }
}

/// Parses a `json_data` file's text into its data hash.
pub fn parse_json_data(text: &str, path: &Path) -> Result<Map> {
    parse_json_bytes(text.as_bytes(), path)
}

/// Parses a `json_data` file's bytes (invalid UTF-8 handled as Ruby does).
pub fn parse_json_bytes(bytes: &[u8], path: &Path) -> Result<Map> {
    json_data_root(bytes, path).map(into_map)
}

/// A `json_data` file's document, which must be a Hash.
fn json_data_root(bytes: &[u8], path: &Path) -> Result<Value> {
    let v = crate::json::load_bytes(bytes).map_err(|e| Error::parse(path, &e.message, e.line))?;
    match v {
        Value::Hash(_) => Ok(v),
        other => Err(Error {
            kind: ErrorKind::Type,
            message: format!(
                "Value returned from data_hash function 'json_data', when using location '{}', has wrong type, expects a Hash value, got {}",
                path.display(),
                crate::hiera5::ptype::infer_type(&other)
            ),
            file: Some(path.to_path_buf()),
            line: None,
        }),
    }
}

/// The strings of the documents in a [`FileCache`], each kept once: a
/// string that occurs in many files (keys such as `ntp::servers`, repeated
/// values) is one allocation, shared by all. So are flat Arrays of
/// Strings, Integers, booleans and `nil` (lists of servers, users, ...).
///
/// The sets hold a reference to each value; values no document uses any
/// more (their files were re-read, or the documents dropped) are purged
/// whenever the sets have doubled since the last purge, so they cannot grow
/// without bound while files change.
#[derive(Default)]
struct Interner {
    strings: StringSet,
    arrays: ThinSet<List>,
    /// The hasher of `arrays`' Arrays.
    hasher: foldhash::fast::RandomState,
    /// The sets' size after the last purge.
    after_purge: usize,
}

/// The interner is not purged below this many values.
const MIN_PURGE: usize = 4096;

/// The fast path's YAML is built through the interner (issue 18): its
/// Strings and flat Arrays are the kept ones as they are read, and the
/// compaction has nothing left to do.
impl crate::yaml::Intern for Interner {
    fn string(&mut self, s: &str) -> Str {
        self.strings.intern_str(s)
    }

    fn array(&mut self, a: &mut List) {
        self.intern_array(a);
    }
}

impl Interner {
    /// Replaces `s` with the interned string equal to it (interning it if
    /// it is new).
    /// (Only strings on the heap: short ones are stored in place.)
    fn intern(&mut self, s: &mut Str) {
        if s.is_heap() {
            *s = self.strings.intern(s);
        }
    }

    /// Replaces `a`, an Array whose elements are interned already, with the
    /// interned Array equal to it, if it is flat: made of values whose
    /// equality is identity in Ruby as well (Strings, Integers, booleans,
    /// `nil`, Symbols), so that sharing one object can change no comparison.
    /// (Floats are left out: two `NaN`s read from two places are not equal
    /// in Ruby, one object is. Hashes are left out: their equality here
    /// ignores the key order.)
    fn intern_array(&mut self, a: &mut List) {
        let flat = a.iter().all(|v| {
            matches!(
                v,
                Value::Nil
                    | Value::Bool(_)
                    | Value::Int(_)
                    | Value::BigInt(_)
                    | Value::String(_)
                    | Value::Symbol(_)
            )
        });
        if !flat {
            return;
        }
        let hasher = &self.hasher;
        let shared = self.arrays.get_or_insert_with(
            hasher.hash_one(&*a),
            |k| k == a,
            || a.clone(),
            |k| hasher.hash_one(k),
        );
        if !List::ptr_eq(shared, a) {
            *a = shared.clone();
        }
    }

    /// Drops the values only the sets refer to, when the sets have doubled
    /// since the last purge. (Only these sets hand out references to the
    /// values they hold, under the cache's lock: a count of one cannot grow
    /// meanwhile.) Arrays go first: they hold strings.
    fn purge(&mut self) {
        if self.strings.len() + self.arrays.len() < MIN_PURGE.max(2 * self.after_purge) {
            return;
        }
        self.retain_shared();
        self.after_purge = self.strings.len() + self.arrays.len();
    }

    /// Drops the values only the sets refer to (Arrays first: they hold
    /// strings).
    fn retain_shared(&mut self) {
        let hasher = &self.hasher;
        self.arrays
            .retain(|a| a.strong_count() > 1, |k| hasher.hash_one(k));
        self.strings.retain_shared();
    }
}

/// Makes a freshly parsed document as small as it can be kept: Arrays and
/// Hashes trimmed to their length, strings shared through an [`Interner`],
/// and (for YAML) Symbol keys of Hashes made Strings, as Puppet's
/// `symkeys_to_string` does (keys themselves are not converted inside).
///
/// A container the document refers to twice (a YAML alias) stays shared,
/// as the parser made it (and as Psych does).
struct Compactor<'a> {
    interner: Option<&'a mut Interner>,
    /// Shared containers already compacted, by address and `symkeys`:
    /// the original (kept alive, so that its address stays its own) and
    /// its compacted copy.
    shared: HashMap<(usize, bool), (Value, Value)>,
}

impl<'a> Compactor<'a> {
    fn new(interner: Option<&'a mut Interner>) -> Compactor<'a> {
        Compactor {
            interner,
            shared: HashMap::new(),
        }
    }

    fn value(&mut self, v: &mut Value, symkeys: bool) {
        crate::stack::grow(|| match v {
            Value::String(s) => {
                if let Some(interner) = self.interner.as_deref_mut() {
                    interner.intern(s);
                }
            }
            Value::Array(a) if a.is_unique() => {
                for item in a.iter_mut() {
                    self.value(item, symkeys);
                }
                // (A `List` has no spare room: `List::from` trimmed it.)
                if let Some(interner) = self.interner.as_deref_mut() {
                    interner.intern_array(a);
                }
            }
            Value::Hash(h) if h.is_unique() => self.map(h, symkeys),
            Value::Array(_) | Value::Hash(_) => self.shared(v, symkeys),
            _ => {}
        })
    }

    fn map(&mut self, map: &mut Map, symkeys: bool) {
        crate::stack::grow(|| {
            if symkeys && map.keys().any(|k| matches!(k, Value::Symbol(_))) {
                // The keys change (and with them their hashes): build anew, as
                // `symkeys_to_string` does (a converted key equal to a String
                // key already there keeps that key's place and takes the value).
                let old = std::mem::take(map);
                let mut m = Map::with_capacity(old.len());
                for (k, mut val) in old {
                    let mut k = match k {
                        Value::Symbol(s) => Value::String(Str::new(&s)),
                        other => other,
                    };
                    self.value(&mut k, false);
                    self.value(&mut val, true);
                    m.insert(k, val);
                }
                m.shrink_to_fit();
                *map = m;
            } else {
                // Interning a key, or anything inside it, keeps its hash.
                for (k, val) in map.iter_mut_keys() {
                    self.value(k, false);
                    self.value(val, symkeys);
                }
                map.shrink_to_fit();
            }
        })
    }

    /// A container also referred to elsewhere: compacted once, as a copy.
    fn shared(&mut self, v: &mut Value, symkeys: bool) {
        let addr = match v {
            Value::Array(a) => a.addr(),
            Value::Hash(h) => h.addr(),
            _ => return,
        };
        if let Some((_, copy)) = self.shared.get(&(addr, symkeys)) {
            *v = copy.clone();
            return;
        }
        let mut copy = match v {
            Value::Array(a) => Value::array(a.to_vec()),
            Value::Hash(h) => Value::hash(h.unshared()),
            _ => return,
        };
        self.value(&mut copy, symkeys);
        let original = std::mem::replace(v, copy.clone());
        self.shared.insert((addr, symkeys), (original, copy));
    }
}

/// A data file's document as the `yaml_data` and `json_data` functions
/// read it from `bytes` (the file's content; `path` names it in messages):
/// YAML through Puppet's safe loader (`Nil` for an empty document, Symbol
/// keys of a Hash made Strings), JSON through Ruby's parser. Unlike
/// [`FileCache::data`] a document that is not a Hash is returned as it is:
/// the caller decides (Puppet warns, or fails under `strict=error`).
pub fn parse_document(bytes: &[u8], path: &Path, format: DataFormat) -> Result<Value> {
    match format {
        DataFormat::Yaml => {
            let text = yaml_utf8(bytes).map_err(|problem| Error::parse(path, problem, Some(1)))?;
            Ok(match load_yaml_text(text, path)? {
                Some(v @ Value::Hash(_)) => symkeys_to_string(&v),
                Some(other) => other,
                None => Value::Nil,
            })
        }
        DataFormat::Json => {
            crate::json::load_bytes(bytes).map_err(|e| Error::parse(path, &e.message, e.line))
        }
        DataFormat::Hocon => hocon_data_root(bytes, path),
    }
}

/// A `hocon_data` file's data hash (ruby-hocon's root is always an
/// object). Content that is not UTF-8 is a parse error, as Ruby's String
/// operations fail on it.
fn hocon_data_root(bytes: &[u8], path: &Path) -> Result<Value> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| Error::parse(path, "invalid byte sequence in UTF-8", None))?;
    crate::hocon::hocon_data(text, path)
}

/// The format of a data file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataFormat {
    /// `yaml_data`.
    Yaml,
    /// `json_data`.
    Json,
    /// `hocon_data` (ruby-hocon's reading: [`crate::hocon`]).
    Hocon,
}

/// A cached parse: the value, or the error (boxed: errors are rare, and
/// an inline `Error` would make every cache slot four times larger).
#[derive(Clone)]
enum Parsed {
    Data(Map),
    Config(Option<Arc<HieraConfig>>),
    /// A module's metadata.json: whether Puppet keeps the module, and its
    /// `data_provider` (see [`crate::hiera5::data_provider`]); boxed, as one
    /// file per module is read so.
    Metadata(Box<(bool, Option<Value>)>),
    Failed(Box<Error>),
}

/// What a path is read as. Each reading has its own slot in the cache
/// and its own type of parse ([`Content`]): a path is read as one data
/// format, one layer's hiera.yaml, or a module's metadata.json.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reading {
    YamlData,
    JsonData,
    GlobalConfig,
    EnvironmentConfig,
    ModuleConfig,
    Metadata,
    HoconData,
}

/// How many [`Reading`]s there are.
const READINGS: usize = 7;

impl Reading {
    /// A data file read as `format`.
    fn data(format: DataFormat) -> Reading {
        match format {
            DataFormat::Yaml => Reading::YamlData,
            DataFormat::Json => Reading::JsonData,
            DataFormat::Hocon => Reading::HoconData,
        }
    }

    /// A hiera.yaml read for `layer`.
    fn config(layer: LayerKind) -> Reading {
        match layer {
            LayerKind::Global => Reading::GlobalConfig,
            LayerKind::Environment => Reading::EnvironmentConfig,
            LayerKind::Module => Reading::ModuleConfig,
        }
    }

    /// Its slot's position.
    fn slot(self) -> usize {
        self as usize
    }
}

/// The type of a reading's parse, as a [`Parsed`] holds it.
trait Content: Sized {
    fn into_parsed(self) -> Parsed;
    /// The parse, if `parsed` holds this type.
    fn of(parsed: Parsed) -> Option<Self>;
}

impl Content for Map {
    fn into_parsed(self) -> Parsed {
        Parsed::Data(self)
    }
    fn of(parsed: Parsed) -> Option<Self> {
        match parsed {
            Parsed::Data(d) => Some(d),
            _ => None,
        }
    }
}

impl Content for Option<Arc<HieraConfig>> {
    fn into_parsed(self) -> Parsed {
        Parsed::Config(self)
    }
    fn of(parsed: Parsed) -> Option<Self> {
        match parsed {
            Parsed::Config(c) => Some(c),
            _ => None,
        }
    }
}

impl Content for Box<(bool, Option<Value>)> {
    fn into_parsed(self) -> Parsed {
        Parsed::Metadata(self)
    }
    fn of(parsed: Parsed) -> Option<Self> {
        match parsed {
            Parsed::Metadata(m) => Some(m),
            _ => None,
        }
    }
}

impl Parsed {
    /// A parse or its error.
    fn of<T: Content>(r: Result<T>) -> Parsed {
        r.map_or_else(|e| Parsed::Failed(Box::new(e)), T::into_parsed)
    }

    /// The parse as the type its reading gives, or its error.
    fn content<T: Content>(self, path: &Path) -> Result<T> {
        match self {
            Parsed::Failed(e) => Err(*e),
            other => T::of(other).ok_or_else(|| {
                // Each reading has its own slot: a slot holds its reading's type.
                Error::new(
                    ErrorKind::Io,
                    format!("{}: cached as another kind of file", path.display()),
                )
            }),
        }
    }
}

/// A file a cached parse read besides its own (a `hocon_data` file's
/// `include file(...)`), with its stamp when it was read (`None`: it did
/// not exist).
pub(crate) type Dep = (PathBuf, Option<Stamp>);

/// A file's cached parse and the stamp the file had when it was read: 48
/// bytes (issue 18: one per path, in the path table's node). The stamp is
/// kept short ([`EntryStamp`], 28 bytes), its device in the [`Held`]'s
/// spare bytes (see [`Held::dev`]); a stamp that does not fit is kept whole
/// in the entry's [`EntryExtra`].
struct CacheEntry {
    stamp: EntryStamp,
    /// The watcher's generation in which the file was last found to have
    /// this stamp, watched (0: not watched): the entry holds, without a
    /// `stat`, while it is the current one ([`crate::watch`]). 32 bits, in
    /// what would be the stamp's padding: a generation past `u32::MAX` is
    /// kept as 0 (never vouched for: the file is `stat`ed, as unwatched).
    watched: u32,
    held: Held,
}

/// The generation a [`CacheEntry`] keeps of `watched` (see
/// [`CacheEntry::watched`]).
fn short_generation(watched: u64) -> u32 {
    u32::try_from(watched).unwrap_or(0)
}

/// A [`Stamp`] but its device, as a cache entry keeps it: 28 bytes, each
/// field of the stamp given back exactly ([`EntryStamp::of`] is one to
/// one on the stamps it takes). Aligned to 4 bytes (`packed(4)`), so that
/// the entry's generation takes the 4 bytes a `u64`'s alignment would pad.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, packed(4))]
struct EntryStamp {
    ino: u64,
    /// The modification time's seconds, from 1970 to 2106.
    mtime_secs: u32,
    /// Both times' nanoseconds, 30 bits each ([`NO_TIME`] as [`NO_NANOS`]).
    nanos: u64,
    /// The change time's seconds less the modification time's.
    ctime_delta: i32,
    size: u32,
}

/// A [`NO_TIME`] in 30 bits (a time's nanoseconds are below 10^9).
const NO_NANOS: u64 = (1 << 30) - 1;

/// A stamp's nanoseconds in 30 bits, if they fit.
fn short_nanos(n: u32) -> Option<u64> {
    match n {
        NO_TIME => Some(NO_NANOS),
        n if u64::from(n) < NO_NANOS => Some(u64::from(n)),
        _ => None,
    }
}

impl EntryStamp {
    /// The short stamp of an entry whose stamp is kept whole in its
    /// [`EntryExtra`] (its [`ShortDev`] is [`FAR_DEV`]): never read.
    const IN_EXTRA: EntryStamp = EntryStamp {
        ino: 0,
        mtime_secs: 0,
        nanos: 0,
        ctime_delta: 0,
        size: 0,
    };

    /// `s` without its device, if it fits: a size below 4 GiB, a
    /// modification time from 1970 to 2106, a change time within 68 years
    /// of it.
    #[inline]
    fn of(s: &Stamp) -> Option<EntryStamp> {
        Some(EntryStamp {
            ino: s.ino,
            mtime_secs: u32::try_from(s.mtime_secs).ok()?,
            nanos: short_nanos(s.mtime_nanos)? | (short_nanos(s.ctime_nanos)? << 30),
            ctime_delta: i32::try_from(s.ctime_secs.checked_sub(s.mtime_secs)?).ok()?,
            size: u32::try_from(s.size).ok()?,
        })
    }
}

/// A stamp's device as a [`Held`] keeps it: itself when below
/// [`FAR_DEV`], else `FAR_DEV` and the whole stamp in the entry's
/// [`EntryExtra`].
type ShortDev = u32;

/// The [`ShortDev`] of an entry whose stamp is kept whole in its extra (a
/// device that does not fit a `ShortDev`, or a stamp no [`EntryStamp`]
/// holds).
const FAR_DEV: ShortDev = u32::MAX;

/// What few cache entries have.
struct EntryExtra {
    /// The stamp, whole (read when the [`ShortDev`] is [`FAR_DEV`]).
    stamp: Stamp,
    /// The files the parse included: it holds while each keeps its stamp.
    deps: Box<[Dep]>,
    /// When the file had changed within [`RACY_WINDOW`] before it was read
    /// (its stamp may then stay the same through the next change): a hash
    /// of the bytes read, and when they were. Such an entry is read again
    /// at its next use (after the check interval, if there is one), and
    /// kept if the file's stamp and bytes are the same.
    racy: Option<(u64, Instant)>,
}

/// A [`Parsed`] as a cache entry keeps it, with the [`Reading`] it was read
/// as: in the byte after the variant's tag, where a `Reading` beside the
/// entry took 8 bytes of every path's node (issue 18). A parse that
/// included files or was read racy ([`EntryExtra`], rare) is boxed with
/// them (`Extra`), where an `Option<Box<EntryExtra>>` beside every entry
/// took 8 bytes of every node. The stamp's device ([`ShortDev`]) is in
/// the 4 bytes after the `Reading` (the variants' padding otherwise): 16
/// bytes in all.
enum Held {
    Data(Reading, ShortDev, Map),
    Config(Reading, ShortDev, Option<Arc<HieraConfig>>),
    Metadata(Reading, ShortDev, Box<(bool, Option<Value>)>),
    Failed(Reading, ShortDev, Box<Error>),
    Extra(Reading, ShortDev, Box<(Parsed, EntryExtra)>),
}

impl Held {
    fn new(reading: Reading, dev: ShortDev, parsed: Parsed, extra: Option<EntryExtra>) -> Held {
        match (parsed, extra) {
            (parsed, Some(extra)) => Held::Extra(reading, dev, Box::new((parsed, extra))),
            (Parsed::Data(d), None) => Held::Data(reading, dev, d),
            (Parsed::Config(c), None) => Held::Config(reading, dev, c),
            (Parsed::Metadata(m), None) => Held::Metadata(reading, dev, m),
            (Parsed::Failed(e), None) => Held::Failed(reading, dev, e),
        }
    }

    /// What it was read as.
    fn reading(&self) -> Reading {
        match self {
            Held::Data(r, ..)
            | Held::Config(r, ..)
            | Held::Metadata(r, ..)
            | Held::Failed(r, ..)
            | Held::Extra(r, ..) => *r,
        }
    }

    /// The device of the entry's stamp, short.
    fn dev(&self) -> ShortDev {
        match self {
            Held::Data(_, d, _)
            | Held::Config(_, d, _)
            | Held::Metadata(_, d, _)
            | Held::Failed(_, d, _)
            | Held::Extra(_, d, _) => *d,
        }
    }

    /// The parse.
    fn parsed(&self) -> Parsed {
        match self {
            Held::Data(_, _, d) => Parsed::Data(d.clone()),
            Held::Config(_, _, c) => Parsed::Config(c.clone()),
            Held::Metadata(_, _, m) => Parsed::Metadata(m.clone()),
            Held::Failed(_, _, e) => Parsed::Failed(e.clone()),
            Held::Extra(_, _, x) => x.0.clone(),
        }
    }

    /// The data hash, if it is a data file's successful parse.
    fn data(&self) -> Option<&Map> {
        match self {
            Held::Data(_, _, d) => Some(d),
            Held::Extra(_, _, x) => match &x.0 {
                Parsed::Data(d) => Some(d),
                _ => None,
            },
            _ => None,
        }
    }

    /// The rare parts, if the entry has them.
    fn extra(&self) -> Option<&EntryExtra> {
        match self {
            Held::Extra(_, _, x) => Some(&x.1),
            _ => None,
        }
    }
}

impl CacheEntry {
    fn new(
        stamp: Stamp,
        reading: Reading,
        parsed: Parsed,
        deps: Box<[Dep]>,
        racy: Option<(u64, Instant)>,
    ) -> CacheEntry {
        let short = ShortDev::try_from(stamp.dev)
            .ok()
            .filter(|&d| d != FAR_DEV)
            .zip(EntryStamp::of(&stamp));
        let (dev, kept) = match short {
            Some((dev, kept)) => (dev, kept),
            None => (FAR_DEV, EntryStamp::IN_EXTRA),
        };
        let extra = (!deps.is_empty() || racy.is_some() || dev == FAR_DEV).then_some(EntryExtra {
            stamp,
            deps,
            racy,
        });
        CacheEntry {
            stamp: kept,
            watched: 0,
            held: Held::new(reading, dev, parsed, extra),
        }
    }

    /// Whether the file had `stamp` when it was read (every field compared:
    /// the device and the short stamp, or the whole stamp in the extra).
    #[inline]
    fn stamp_is(&self, stamp: &Stamp) -> bool {
        match self.held.dev() {
            FAR_DEV => self.held.extra().is_some_and(|x| x.stamp == *stamp),
            dev => u64::from(dev) == stamp.dev && EntryStamp::of(stamp) == Some(self.stamp),
        }
    }

    /// The files the parse included.
    fn deps(&self) -> &[Dep] {
        self.held.extra().map_or(&[], |x| &x.deps)
    }

    /// The racy state (see [`EntryExtra::racy`]).
    fn racy(&self) -> Option<(u64, Instant)> {
        self.held.extra().and_then(|x| x.racy)
    }
}

/// The cached parses of one path, by [`Reading`]. A path is
/// nearly always read one way, so one slot is kept inline and the others
/// only exist when needed.
enum Slots {
    /// The entry of its reading ([`Held::reading`]).
    One(CacheEntry),
    Many(Box<[Option<CacheEntry>; READINGS]>),
}

impl Slots {
    fn get(&self, reading: Reading) -> Option<&CacheEntry> {
        match self {
            Slots::One(e) => (e.held.reading() == reading).then_some(e),
            Slots::Many(slots) => slots[reading.slot()].as_ref(),
        }
    }

    fn get_mut(&mut self, reading: Reading) -> Option<&mut CacheEntry> {
        match self {
            Slots::One(e) => (e.held.reading() == reading).then_some(e),
            Slots::Many(slots) => slots[reading.slot()].as_mut(),
        }
    }

    fn set(&mut self, reading: Reading, entry: CacheEntry) {
        match self {
            Slots::One(e) if e.held.reading() == reading => *e = entry,
            Slots::One(..) => {
                let Slots::One(e) = std::mem::replace(self, Slots::Many(Box::default())) else {
                    unreachable!()
                };
                let Slots::Many(slots) = self else {
                    unreachable!()
                };
                let at = e.held.reading().slot();
                slots[at] = Some(e);
                slots[reading.slot()] = Some(entry);
            }
            Slots::Many(slots) => slots[reading.slot()] = Some(entry),
        }
    }
}

/// A cache of parsed files, shared by all sessions of a [`crate::Hiera`].
///
/// Each access `stat`s the file; when its device, inode, size, mtime or
/// ctime differ from the cached version it is read and parsed again. Each
/// read is of one version of the file, even while the file is rewritten in
/// place: the file's stamp is taken before and after the read, and the read
/// made again (three times at most, then it fails) when they differ. A file
/// changed within two seconds before it was read is read twice (the reads
/// must agree) and read again at its next use (parsed again only if its
/// bytes changed): within its filesystem's time granularity, a change may
/// leave its stamp as it was. Parse errors are cached too (a broken file is
/// not re-parsed until it changes); read errors are not.
///
/// With a non-zero check interval ([`FileCache::with_check_interval`]) a
/// `stat` result, including "no such file", is trusted for that long, as
/// Puppet Server trusts a cached environment for its `environment_timeout`
/// (at most that long: the results kept are bounded, so that the paths of
/// every node a long-lived cache serves are not all kept; a result
/// forgotten is `stat`ed again, see [`FileCache::probes_len`]).
#[derive(Default)]
pub struct FileCache {
    /// Keyed by the path's bytes: hashing them is much cheaper than
    /// hashing a `Path` (component by component), and the engine builds
    /// each path the same way every time.
    entries: Mutex<PathTable<Slots>>,
    /// The `stat` results trusted for the check interval (bounded: see
    /// [`crate::probe_cache`]).
    probes: Mutex<ProbeCache<TimedProbe>>,
    strings: Mutex<Interner>,
    check_interval: Duration,
    /// The process's file watcher, when this cache uses it
    /// ([`crate::Options::watch_files`]): a `stat` result taken under watch
    /// holds until the watcher reports a change.
    watcher: Option<&'static crate::watch::Watcher>,
    generation: AtomicU64,
    /// How many `stat`s of a path [`FileCache::probe`] made
    /// ([`FileCache::stats`]).
    stats: AtomicU64,
    /// Where reads are confined to, when they are ([`crate::Options::confine`]).
    confinement: Option<Confinement>,
    /// Puppet's `strict` in effect ([`crate::Options::strict`]): under
    /// `error` a data file that is not a hash, and a v3 hiera.yaml outside
    /// the global layer, are errors.
    strict: Strict,
    /// The Puppet answered as ([`crate::Options::puppet`]; 0 in a cache
    /// made without options: as 7).
    puppet: u8,
    /// Where the warnings Puppet logs when it reads a file go (the host's
    /// `warn`; [`crate::Options::host`]).
    warnings: Option<crate::host::HostRef>,
}

/// What a `stat` said about a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Probe {
    stamp: Stamp,
    is_dir: bool,
}

/// What [`FileCache::get_parsed`] makes of a missing file.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Missing {
    /// Refused when outside the confinement (a file the engine was told
    /// to read), else `None`.
    Confined,
    /// `None` (a file whose absence is an answer: the environment's
    /// hiera.yaml).
    Unchecked,
}

/// A `stat` result, when it was taken, and the watcher's generation it
/// holds in (0: not watched).
type TimedProbe = (Instant, Option<Probe>, u64);

/// A path as the cache's maps key it.
fn path_key(path: &Path) -> &[u8] {
    path.as_os_str().as_encoded_bytes()
}

impl FileCache {
    /// A cache that trusts a `stat` result for `interval` (zero: always
    /// `stat`, which is the default and what Puppet does within a compile's
    /// first access of each file).
    pub fn with_check_interval(interval: Duration) -> FileCache {
        FileCache {
            check_interval: interval,
            ..FileCache::default()
        }
    }

    /// The cache of a [`crate::Hiera`] opened with `options` (absolute
    /// paths) and `modulepath`: its check interval and, with `confine`,
    /// confined to the global hiera.yaml, the environment's directory and
    /// each modulepath directory, and what the configurations read name
    /// (see [`crate::confine`]).
    pub fn for_options(options: &Options, modulepath: &[PathBuf]) -> FileCache {
        let mut cache = FileCache::with_check_interval(options.file_check_interval);
        if options.watch_files {
            cache.watcher = crate::watch::global();
        }
        cache.strict = options.strict();
        cache.puppet = options.puppet;
        cache.warnings = options.host.clone();
        if options.confine {
            let env = options.environmentpath.join(&options.environment);
            let global_dir = options
                .hiera_config
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default();
            let mut roots = modulepath.to_vec();
            roots.push(env);
            let confinement = Confinement::with_codedir(
                options.hiera_config.clone(),
                roots,
                options.codedir.clone(),
            );
            // The datadir of the default global config, used when there is no
            // global hiera.yaml.
            confinement.add_config(&HieraConfig::implicit_default(&global_dir), false);
            cache.confinement = Some(confinement);
        }
        cache
    }

    /// Refuses a path outside the confinement, if there is one.
    pub(crate) fn confine(&self, path: &Path) -> Result<()> {
        self.confinement
            .as_ref()
            .map_or(Ok(()), |c| c.check_file(path))
    }

    /// Refuses a glob that reaches outside the confinement, if there is one
    /// (before the glob is expanded).
    pub fn check_glob(&self, pattern: &Path) -> Result<()> {
        self.confinement
            .as_ref()
            .map_or(Ok(()), |c| c.check_glob(pattern))
    }

    /// A counter that changes whenever a cached file was (re)loaded.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// `stat`s `path`, or answers from a probe younger than the interval or
    /// one the watcher vouches for (watched, and nothing changed since).
    fn probe(&self, path: &Path) -> std::io::Result<Option<Probe>> {
        self.probe_watched(path, true).map(|(p, _)| p)
    }

    /// [`FileCache::probe`], with the watcher's generation the result holds
    /// in (0: not watched). `keep_files: false`: the result for an existing
    /// file is not kept for the watcher (its cache entry keeps it, see
    /// [`CacheEntry::watched`]), only one for a missing path or a directory
    /// (a probe trusted for the check interval is kept whatever it is).
    fn probe_watched(
        &self,
        path: &Path,
        keep_files: bool,
    ) -> std::io::Result<(Option<Probe>, u64)> {
        let timed = !self.check_interval.is_zero();
        if timed || self.watcher.is_some() {
            let mut probes = self.probes.lock().unwrap_or_else(|p| p.into_inner());
            if let Some((at, p, watched)) = probes.get(path_key(path)) {
                if *watched != 0 && self.watcher.is_some_and(|w| w.generation() == *watched) {
                    return Ok((*p, *watched));
                }
                if timed && at.elapsed() < self.check_interval {
                    return Ok((*p, 0));
                }
            }
        }
        // Watched, then read: a change after the read is reported.
        let (watched, read) = match self.watcher.and_then(|w| w.watch(path)) {
            Some((gen, md)) => (gen, Some(Ok(md))),
            None => (0, None),
        };
        self.stats.fetch_add(1, Ordering::Relaxed);
        let read = read.unwrap_or_else(|| match std::fs::metadata(path) {
            Ok(md) => Ok(Some(md)),
            Err(e)
                if e.kind() == std::io::ErrorKind::NotFound
                    || e.kind() == std::io::ErrorKind::NotADirectory =>
            {
                Ok(None)
            }
            Err(e) => Err(e),
        });
        let probe = read?.map(|md| Probe {
            stamp: Stamp::of(&md),
            is_dir: md.is_dir(),
        });
        let file = probe.is_some_and(|p| !p.is_dir);
        if timed || (watched != 0 && (keep_files || !file)) {
            let mut probes = self.probes.lock().unwrap_or_else(|p| p.into_inner());
            probes.insert(path_key(path), (Instant::now(), probe, watched));
        }
        Ok((probe, watched))
    }

    /// The entry of `path` read as `reading`, when the watcher vouches
    /// that the file still has its stamp (watched in the current
    /// generation) and it is the path's only reading, its parse included
    /// no file and was not read racy: what a `stat` and a comparison would
    /// find, without them.
    fn vouched<'m>(
        &self,
        map: &'m PathTable<Slots>,
        path: &Path,
        reading: Reading,
    ) -> Option<&'m CacheEntry> {
        let gen = self.watcher?.generation();
        if gen == 0 {
            return None;
        }
        match map.get(path_key(path))? {
            Slots::One(e)
                if u64::from(e.watched) == gen
                    && e.held.reading() == reading
                    && e.held
                        .extra()
                        .is_none_or(|x| x.deps.is_empty() && x.racy.is_none()) =>
            {
                Some(e)
            }
            _ => None,
        }
    }

    /// What a new session does first: the changes made since the last
    /// session are taken from the watcher, so that this session sees them
    /// (one `poll` when there are none).
    pub(crate) fn refresh(&self) {
        if let Some(w) = self.watcher {
            w.refresh();
        }
    }

    /// Whether `path` exists (through the probe cache).
    pub fn exists(&self, path: &Path) -> bool {
        matches!(self.probe(path), Ok(Some(_)))
    }

    /// Whether `path` is a directory (through the probe cache).
    pub fn is_dir(&self, path: &Path) -> bool {
        matches!(self.probe(path), Ok(Some(Probe { is_dir: true, .. })))
    }

    /// `path` read as `reading`: its cached parse while the file is
    /// unchanged, else read and parsed with `parse` (which also names the
    /// files the parse included) and kept. `Ok(None)`: no such file.
    fn get<T: Content>(
        &self,
        path: &Path,
        reading: Reading,
        parse: impl FnOnce(&[u8]) -> (Result<T>, Vec<Dep>),
    ) -> Result<Option<T>> {
        self.get_or_missing(path, reading, Missing::Confined, parse)
    }

    /// [`FileCache::get`], with a missing file `missing`'s way.
    fn get_or_missing<T: Content>(
        &self,
        path: &Path,
        reading: Reading,
        missing: Missing,
        parse: impl FnOnce(&[u8]) -> (Result<T>, Vec<Dep>),
    ) -> Result<Option<T>> {
        Ok(
            match self.get_parsed(path, reading, missing, |bytes| {
                let (r, deps) = parse(bytes);
                (Parsed::of(r), deps)
            })? {
                None => None,
                Some(parsed) => Some(parsed.content(path)?),
            },
        )
    }

    fn get_parsed(
        &self,
        path: &Path,
        tag: Reading,
        missing: Missing,
        parse: impl FnOnce(&[u8]) -> (Parsed, Vec<Dep>),
    ) -> std::result::Result<Option<Parsed>, Error> {
        if self.watcher.is_some() {
            let map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(e) = self.vouched(&map, path, tag) {
                return Ok(Some(e.held.parsed()));
            }
        }
        let (probe, watched) = self
            .probe_watched(path, false)
            .map_err(|e| io_error(&e, path))?;
        let Some(probe) = probe else {
            // A missing file outside is refused, not missing.
            if missing == Missing::Confined {
                self.confine(path)?;
            }
            return Ok(None);
        };
        // A racy entry whose stamp is unchanged: kept if the bytes are too.
        let mut recheck = None;
        {
            let mut map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(e) = map
                .get_mut(path_key(path))
                .and_then(|slots| slots.get_mut(tag))
            {
                // An entry that included files holds while they are unchanged.
                if e.stamp_is(&probe.stamp) && self.deps_hold(e.deps()) {
                    match e.racy() {
                        Some((hash, at)) if at.elapsed() >= self.check_interval => {
                            recheck = Some((hash, e.held.parsed(), Box::from(e.deps())))
                        }
                        _ => {
                            e.watched = short_generation(watched);
                            return Ok(Some(e.held.parsed()));
                        }
                    }
                }
            }
        }
        // Checked before the first read (what the cache keeps was allowed).
        self.confine(path)?;
        // Read and parse outside the lock so slow files do not block other threads.
        let read = read_file(path)?;
        let hash = (read.racy || recheck.is_some()).then(|| {
            std::hash::BuildHasher::hash_one(
                &foldhash::quality::FixedState::default(),
                read.bytes.as_slice(),
            )
        });
        let (parsed, deps, reparsed) = match recheck {
            Some((old, parsed, deps)) if read.stamp == probe.stamp && hash == Some(old) => {
                (parsed, deps, false)
            }
            _ => {
                let (parsed, deps) = parse(&read.bytes);
                (parsed, deps.into_boxed_slice(), true)
            }
        };
        let mut map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let racy = hash.filter(|_| read.racy).map(|h| (h, Instant::now()));
        let mut entry = CacheEntry::new(read.stamp, tag, parsed.clone(), deps, racy);
        // Read after the watch: vouched while nothing changes, if the file
        // is the one watched.
        if read.stamp == probe.stamp {
            entry.watched = short_generation(watched);
        }
        match map.get_mut(path_key(path)) {
            Some(slots) => slots.set(tag, entry),
            None => {
                map.insert(path_key(path), Slots::One(entry));
            }
        }
        if reparsed {
            self.generation.fetch_add(1, Ordering::AcqRel);
        }
        Ok(Some(parsed))
    }

    /// Hands a warning Puppet logs when it reads a file to the host.
    fn warn(&self, warning: crate::host::Warning) {
        if let Some(host) = &self.warnings {
            host.0.warn(&warning);
        }
    }

    /// Whether every file a parse included still has the stamp it had
    /// (called with the entries locked: it takes only the probes' lock).
    fn deps_hold(&self, deps: &[Dep]) -> bool {
        deps.iter()
            .all(|(path, stamp)| matches!(self.probe(path), Ok(p) if p.map(|p| p.stamp) == *stamp))
    }

    /// The data hash of a data file; `Ok(None)` when the file does not exist.
    pub fn data(&self, path: &Path, format: DataFormat) -> Result<Option<Map>> {
        let tag = Reading::data(format);
        for other in [Reading::YamlData, Reading::JsonData, Reading::HoconData] {
            if other != tag {
                if let Some(shared) = self.parsed_as_other(path, other)? {
                    return Ok(Some(shared));
                }
            }
        }
        let mut includes = crate::hocon::cache_includes::CacheIncludes::new(self);
        self.get(path, tag, |bytes| {
            // YAML's fast path reads with the interner held, if no other
            // thread holds it (else it reads as it is, compacted after):
            // what it reads is built in its kept form.
            let mut not_a_hash = false;
            let root = match format {
                DataFormat::Yaml => match yaml_utf8(bytes) {
                    Ok(text) => yaml_data_document(text, path, self.strict, Some(&self.strings))
                        .map(|(root, other, compact)| {
                            not_a_hash = other;
                            (root, compact)
                        }),
                    Err(problem) => Err(Error::parse(path, problem, Some(1))),
                },
                DataFormat::Json => json_data_root(bytes, path).map(|root| (root, false)),
                DataFormat::Hocon => includes.parse(bytes, path).map(|root| (root, false)),
            };
            // The purge runs after a failed parse too: a fast path that
            // gave up part way may have kept strings nothing refers to.
            let mut strings = self.strings.lock().unwrap_or_else(|p| p.into_inner());
            let parsed = root.map(|(mut root, compact)| {
                if !compact {
                    Compactor::new(Some(&mut strings)).value(&mut root, format == DataFormat::Yaml);
                }
                into_map(root)
            });
            strings.purge();
            drop(strings);
            if not_a_hash {
                // Puppet's yaml_data warns each time it reads one (warned
                // with the interner no longer held).
                self.warn(crate::host::Warning::plain(format!(
                    "{}: file does not contain a valid yaml hash",
                    path.display()
                )));
            }
            (parsed, includes.take_deps())
        })
    }

    /// Whether [`FileCache::data`] would give `expected` for `path` read as
    /// `format` now (the same parse, by identity; `None`: no such file),
    /// found with one `stat`, one lock and one probe of the table:
    /// `Some(answer)` when the entries say it for certain, `None` when
    /// they cannot (an entry to read again, a racy or included-files entry,
    /// a failed parse, a read confined or an error), for the caller to ask
    /// [`FileCache::data`]. What a new session checks of each location of
    /// a resolution another session made (issue 18). A file `data` must
    /// judge is `stat`ed twice (here and there): only one changed within
    /// the last two seconds or not parsed yet. Checking first, under a lock
    /// of its own, cost every file a second probe of the table (+140
    /// instructions a warm lookup on `deep`), so the rare case pays.
    pub(crate) fn data_is(
        &self,
        path: &Path,
        format: DataFormat,
        expected: Option<&Map>,
    ) -> Option<bool> {
        if self.confinement.is_some() {
            return None;
        }
        let same = |d: &Map| expected.is_some_and(|e| Map::ptr_eq(e, d));
        let tag = Reading::data(format);
        if self.watcher.is_some() {
            let map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(e) = self.vouched(&map, path, tag) {
                return e.held.data().map(same);
            }
        }
        let (probe, watched) = self.probe_watched(path, false).ok()?;
        let Some(probe) = probe else {
            // `data`: every reading finds no file.
            return Some(expected.is_none());
        };
        let mut map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let slots = map.get_mut(path_key(path))?;
        // `parsed_as_other`, in `data`'s order: another reading's parse of
        // this version comes first.
        for other in [Reading::YamlData, Reading::JsonData, Reading::HoconData] {
            if other == tag {
                continue;
            }
            if let Some(e) = slots.get(other) {
                if e.stamp_is(&probe.stamp) && e.deps().is_empty() {
                    // A racy parse of another reading: `data`'s to judge.
                    if e.racy().is_some() {
                        return None;
                    }
                    if let Some(d) = e.held.data() {
                        return Some(same(d));
                    }
                }
            }
        }
        let e = slots.get_mut(tag)?;
        if !e.stamp_is(&probe.stamp) || !e.deps().is_empty() || e.racy().is_some() {
            return None;
        }
        e.watched = short_generation(watched);
        e.held.data().map(same)
    }

    /// The data hash another data function (`other`: another data
    /// reading) already parsed from the current version of `path`.
    /// Puppet caches file data per environment by path only
    /// (`EnvironmentContext#cached_file_data`), so a level that reads a file
    /// another level has parsed successfully gets that parse, whatever its
    /// own function; a failed parse is not cached there.
    fn parsed_as_other(&self, path: &Path, other: Reading) -> Result<Option<Map>> {
        {
            let map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
            if map.get(path_key(path)).and_then(|s| s.get(other)).is_none() {
                return Ok(None);
            }
        }
        let Some(probe) = self.probe(path).map_err(|e| io_error(&e, path))? else {
            return Ok(None);
        };
        let map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        Ok(match map.get(path_key(path)).and_then(|s| s.get(other)) {
            Some(e) if e.stamp_is(&probe.stamp) && e.deps().is_empty() => e.held.data().cloned(),
            _ => None,
        })
    }

    /// [`FileCache::config`] of a file that may be missing: then `None`,
    /// never refused by the confinement. What [`FileCache::exists`] then
    /// [`FileCache::config`] answer, with one `stat` where they made two.
    pub fn config_if_exists(
        &self,
        path: &Path,
        layer: LayerKind,
    ) -> Result<Option<Arc<HieraConfig>>> {
        self.config_or_missing(path, layer, Missing::Unchecked)
    }

    /// The parsed hiera.yaml at `path` for `layer`.
    pub fn config(&self, path: &Path, layer: LayerKind) -> Result<Option<Arc<HieraConfig>>> {
        self.config_or_missing(path, layer, Missing::Confined)
    }

    fn config_or_missing(
        &self,
        path: &Path,
        layer: LayerKind,
        missing: Missing,
    ) -> Result<Option<Arc<HieraConfig>>> {
        let tag = Reading::config(layer);
        if let (Some(c), LayerKind::Module) = (&self.confinement, layer) {
            // A module's directory is a root (its name is a plain word).
            c.add_module_dir(path.parent().unwrap_or(path));
        }
        let parse = |bytes: &[u8]| {
            match yaml_utf8(bytes) {
            // A v3 file outside the global layer: ignored (with a warning),
            // an error under strict=error.
            Ok(text) => match HieraConfig::parse(text, path, layer) {
                Ok(None) if self.strict == Strict::Error => {
                    let place = if layer == LayerKind::Module { "a module" } else { "an environment" };
                    Err(Error::config(format!("hiera.yaml version 3 cannot be used in {place}"), path, None))
                }
                Ok(None) => {
                    let (kind, message) = if layer == LayerKind::Module {
                        ("hiera_v3_at_module_root", "hiera.yaml version 3 found at module root was ignored")
                    } else {
                        ("hiera_v3_at_env_root", "hiera.yaml version 3 found at the environment root was ignored")
                    };
                    self.warn(crate::host::Warning {
                        message: message.to_string(),
                        kind: Some(kind),
                        key: path.display().to_string(),
                        file: Some(path.to_path_buf()),
                        line: None,
                    });
                    Ok(None)
                }
                Ok(Some(c)) if matches!(c.version, 3 | 4) && self.strict != Strict::Off => {
                    self.warn(crate::host::Warning {
                        message: format!(
                            "{}: Use of 'hiera.yaml' version {} is deprecated. It should be converted to version 5",
                            path.display(),
                            c.version
                        ),
                        kind: Some("deprecations"),
                        key: "hiera.yaml".to_string(),
                        file: Some(path.to_path_buf()),
                        line: None,
                    });
                    Ok(Some(c))
                }
                other => other,
            }
            .map(|o| {
                if let (Some(c), Some(config)) = (&self.confinement, &o) {
                    c.add_config(config, layer != LayerKind::Global);
                }
                o.map(Arc::new)
            }),
            Err(problem) => Err(Error { kind: ErrorKind::Parse, message: format!("({}): {problem}", path.display()), file: Some(path.to_path_buf()), line: Some(1) }),
        }
        };
        Ok(self
            .get_or_missing(path, tag, missing, |bytes| (parse(bytes), Vec::new()))?
            .flatten())
    }

    /// Whether Puppet keeps the module in `dir` for its `metadata.json`
    /// (`Puppet::Module#load_metadata`; the environment drops a module that
    /// raises a `Puppet::Module::Error`): without the file, yes; a file that
    /// is not JSON (in Puppet 7 also an empty one) is dropped under
    /// strict=error only; a non-empty JSON object is dropped if `source`,
    /// `author`, `version`, `license` or `dependencies` is missing or null,
    /// or `dependencies` is not an array. Documents Puppet trips over are
    /// errors with Ruby's words (Puppet fails the whole compilation there).
    pub fn module_metadata(&self, dir: &Path) -> Result<bool> {
        Ok(self.module_metadata_and_provider(dir)?.0)
    }

    /// [`FileCache::module_metadata`]'s answer, and the `data_provider` of
    /// the module's `metadata.json` (Puppet's `metadata['data_provider']`,
    /// see [`crate::hiera5::data_provider`]): `None` without the file, for a module
    /// Puppet drops, for a document that is not a JSON object, and for a
    /// missing or null entry. One read (and `stat`) for both.
    pub fn module_metadata_and_provider(&self, dir: &Path) -> Result<(bool, Option<Value>)> {
        if let Some(c) = &self.confinement {
            c.add_module_dir(dir);
        }
        let path = dir.join("metadata.json");
        let verdict = |bytes: &[u8]| -> Result<bool> {
            if bytes.is_empty() && self.puppet >= 8 {
                return Ok(true);
            }
            let doc = match crate::json::load_bytes(bytes) {
                Ok(doc) => doc,
                Err(_) => return Ok(self.strict != Strict::Error),
            };
            let crash = |m: String| Err(Error::new(ErrorKind::Type, m));
            match &doc {
                Value::Hash(h) if h.is_empty() => Ok(true),
                Value::Hash(h) => {
                    let field = |k: &str| h.get(&Value::from(k)).filter(|v| !v.is_nil());
                    let complete = ["source", "author", "version", "license", "dependencies"]
                        .iter()
                        .all(|k| field(k).is_some());
                    Ok(complete && matches!(field("dependencies"), Some(Value::Array(_))))
                }
                // `""['data_provider']` is nil; `"x"['source']` is nil too.
                Value::String(s) => Ok(s.is_empty()),
                Value::Array(_) => crash("no implicit conversion of String into Integer".into()),
                other => Err(crate::ruby::errors::no_method("empty?", other)),
            }
        };
        let data_provider = |bytes: &[u8]| match crate::json::load_bytes(bytes) {
            Ok(Value::Hash(h)) => h
                .get(&Value::from("data_provider"))
                .filter(|v| !v.is_nil())
                .cloned(),
            _ => None,
        };
        let metadata = self.get(&path, Reading::Metadata, |bytes| {
            let parsed = verdict(bytes)
                .map(|keep| Box::new((keep, if keep { data_provider(bytes) } else { None })));
            (parsed, Vec::new())
        })?;
        Ok(metadata.map_or((true, None), |m| *m))
    }

    /// How many `stat`s of a path this cache made (each file's check; a
    /// probe answered within the check interval makes none): what a
    /// lookup costs in system calls, beside its instructions.
    pub fn stats(&self) -> u64 {
        self.stats.load(Ordering::Relaxed)
    }

    /// Number of cached files.
    pub fn len(&self) -> usize {
        self.entries.lock().map(|m| m.len()).unwrap_or(0)
    }

    /// `true` when nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.entries.lock().map(|m| m.is_empty()).unwrap_or(true)
    }

    /// Number of `stat` results kept for the check interval (none without
    /// one). Bounded whatever paths are probed, so that a cache serving
    /// any number of nodes does not grow with them (see
    /// [`FileCache::PROBES_LIMIT`]).
    pub fn probes_len(&self) -> usize {
        self.probes.lock().map(|p| p.len()).unwrap_or(0)
    }

    /// The most `stat` results [`FileCache::probes_len`] counts, however
    /// many paths are probed: two generations of results, each sized to
    /// twice what the one before shared (at least 1,024, at most 16,384);
    /// what is probed again stays, a path probed once (one node's
    /// `nodes/<certname>.yaml`) is forgotten and only `stat`ed again if it
    /// is probed again.
    pub const PROBES_LIMIT: usize = 2 * ProbeCache::<TimedProbe>::MAX_LIMIT;

    /// The fewest results a generation of [`FileCache::probes_len`] holds
    /// before it is the older one: a cache whose nodes share fewer paths
    /// than this keeps at most twice as many, however many nodes it serves.
    pub const PROBES_GENERATION_MIN: usize = ProbeCache::<TimedProbe>::MIN_LIMIT;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new empty directory for one test.
    fn scratch_dir(tag: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("libhiera-cache-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn cache_rereads_changed_file() {
        let dir = scratch_dir("rereads");
        let f = dir.join("x.yaml");
        std::fs::write(&f, "a: 1\n").unwrap();
        let cache = FileCache::default();
        let d = cache.data(&f, DataFormat::Yaml).unwrap().unwrap();
        assert_eq!(d.get(&Value::from("a")), Some(&Value::Int(1)));
        assert!(cache
            .data(&dir.join("missing.yaml"), DataFormat::Yaml)
            .unwrap()
            .is_none());
        std::fs::write(&f, "a: 22\nb: 2\n").unwrap();
        let d = cache.data(&f, DataFormat::Yaml).unwrap().unwrap();
        assert_eq!(d.get(&Value::from("a")), Some(&Value::Int(22)));
        let e = cache.data(&dir, DataFormat::Yaml).unwrap_err();
        assert!(e.message.starts_with("Is a directory @ io_fread - "));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn reads_refuse_what_is_not_a_file_without_hanging() {
        let dir = scratch_dir("kinds");
        let e = read_file(&dir).err().unwrap();
        assert_eq!(
            e.message,
            format!("Is a directory @ io_fread - {}", dir.display())
        );
        let e = read_file(&dir.join("missing")).err().unwrap();
        assert_eq!(
            e.message,
            format!(
                "No such file or directory @ rb_sysopen - {}",
                dir.join("missing").display()
            )
        );
        #[cfg(unix)]
        {
            // A FIFO nobody writes to: refused, not waited on.
            let fifo = dir.join("fifo");
            if std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .is_ok_and(|s| s.success())
            {
                let e = read_file(&fifo).err().unwrap();
                assert_eq!(
                    e.message,
                    format!(
                        "Not a regular file (a FIFO, socket or device): {}",
                        fifo.display()
                    )
                );
            }
            let socket = dir.join("socket");
            let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
            let e = read_file(&socket).err().unwrap();
            assert_eq!(
                e.message,
                format!(
                    "Not a regular file (a FIFO, socket or device): {}",
                    socket.display()
                )
            );
            assert!(read_file(Path::new("/dev/null")).unwrap().bytes.is_empty());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn files_changed_lately_are_racy() {
        let now = SystemTime::now();
        let stamp = |age: u64| {
            let t = Some(now - Duration::from_millis(age));
            Stamp::new(1, 2, 3, t, t)
        };
        assert!(stamp(0).racy(now));
        assert!(stamp(1900).racy(now));
        assert!(!stamp(2100).racy(now));
        // The later of the two times counts (a modification time put back).
        let old = Some(now - Duration::from_millis(5000));
        assert!(Stamp::new(1, 2, 3, old, Some(now)).racy(now));
        assert!(Stamp::new(1, 2, 3, None, None).racy(now));
        let dir = scratch_dir("racy");
        let f = dir.join("x.yaml");
        std::fs::write(&f, "a: 1\n").unwrap();
        let read = read_file(&f).unwrap();
        assert!(read.racy);
        assert_eq!(read.bytes, b"a: 1\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A stamp's times come back as they went in, and times that differ
    /// make stamps that differ.
    #[test]
    fn stamp_times_are_kept_exactly() {
        let epoch = SystemTime::UNIX_EPOCH;
        let times = [
            None,
            Some(epoch),
            Some(epoch + Duration::new(0, 1)),
            Some(epoch + Duration::new(1_764_000_000, 999_999_999)),
            Some(epoch + Duration::new(1_764_000_000, 0)),
            Some(epoch - Duration::new(0, 1)),
            Some(epoch - Duration::new(1, 0)),
            Some(epoch - Duration::new(86_400, 500)),
            Some(SystemTime::now()),
        ];
        for (i, a) in times.iter().enumerate() {
            let s = Stamp::new(1, 2, 3, *a, times[times.len() - 1 - i]);
            assert_eq!(s.mtime(), *a);
            assert_eq!(s.ctime(), times[times.len() - 1 - i]);
            for (j, b) in times.iter().enumerate() {
                assert_eq!(
                    Stamp::new(1, 2, 3, *a, None) == Stamp::new(1, 2, 3, *b, None),
                    i == j
                );
            }
        }
        let md = std::fs::metadata("Cargo.toml").unwrap();
        assert_eq!(Stamp::of(&md).mtime(), md.modified().ok());
    }

    /// The racy state of the entry for `path` (YAML data).
    fn entry_racy(cache: &FileCache, path: &Path) -> Option<(u64, Instant)> {
        let map = cache.entries.lock().unwrap();
        map.get(path_key(path))
            .and_then(|slots| slots.get(Reading::YamlData))
            .unwrap()
            .racy()
    }

    /// A cache keeps one entry per file: it stays small (issue 18).
    #[test]
    fn cache_entries_are_small() {
        assert_eq!(std::mem::size_of::<Parsed>(), 16);
        assert_eq!(std::mem::size_of::<Held>(), 16);
        assert_eq!(std::mem::size_of::<EntryStamp>(), 28);
        // 4 bytes of them the watcher's generation (`CacheEntry::watched`):
        // what spares every later session the entry's `stat`.
        assert_eq!(std::mem::size_of::<CacheEntry>(), 48);
        assert_eq!(std::mem::size_of::<Slots>(), 48);
        // A generation past 32 bits is never vouched for.
        assert_eq!(short_generation(u64::from(u32::MAX)), u32::MAX);
        assert_eq!(short_generation(u64::from(u32::MAX) + 1), 0);
        assert_eq!(std::mem::size_of::<Stamp>(), 48);
    }

    /// An entry keeps its stamp short when it fits (the device in 4 bytes,
    /// the size in 4, the change time as 4 bytes from the modification
    /// time, both nanoseconds in 8), else whole in its extra: either way
    /// two stamps are the same to it exactly when they are equal.
    #[test]
    fn entries_compare_every_stamp_exactly() {
        let devs = [
            0,
            1,
            5,
            u64::from(u32::MAX) - 1,
            u64::from(u32::MAX),
            u64::from(u32::MAX) + 1,
            (1 << 32) | 5,
            u64::MAX - 1,
            u64::MAX,
        ];
        let sizes = [
            0,
            7,
            u64::from(u32::MAX) - 1,
            u64::from(u32::MAX),
            1 << 32,
            (1 << 32) | 7,
            u64::MAX,
        ];
        let t = SystemTime::UNIX_EPOCH + Duration::new(1_700_000_000, 123);
        let times = [
            None,
            Some(SystemTime::UNIX_EPOCH),
            Some(SystemTime::UNIX_EPOCH + Duration::new(1, 999_999_999)),
            Some(SystemTime::UNIX_EPOCH - Duration::new(0, 500_000_000)),
            Some(t),
            Some(t + Duration::new(0, 1)),
            Some(t + Duration::from_secs((1 << 31) - 1)),
            Some(t + Duration::from_secs(1 << 31)),
            Some(t - Duration::from_secs(1 << 31)),
            Some(t - Duration::from_secs((1 << 31) + 1)),
            Some(SystemTime::UNIX_EPOCH + Duration::from_secs(u64::from(u32::MAX))),
            Some(SystemTime::UNIX_EPOCH + Duration::new(u64::from(u32::MAX) + 1, 5)),
        ];
        let mut stamps = Vec::new();
        for &dev in &devs {
            stamps.push(Stamp::new(dev, 42, 7, Some(t), Some(t)));
        }
        for &size in &sizes {
            stamps.push(Stamp::new(5, 42, size, Some(t), Some(t)));
            stamps.push(Stamp::new(u64::MAX, 42, size, Some(t), Some(t)));
        }
        for &m in &times {
            for &c in &times {
                stamps.push(Stamp::new(5, 42, 7, m, c));
            }
        }
        stamps.push(Stamp::new(5, 43, 7, Some(t), Some(t)));
        stamps.push(Stamp::new(5, u64::MAX, 7, Some(t), Some(t)));
        for a in &stamps {
            let entry = CacheEntry::new(
                *a,
                Reading::YamlData,
                Parsed::Data(Map::new()),
                Box::new([]),
                None,
            );
            assert!(entry.deps().is_empty() && entry.racy().is_none());
            assert!(entry.held.data().is_some());
            for b in &stamps {
                assert_eq!(entry.stamp_is(b), a == b, "stamps {a:?} and {b:?}");
            }
        }
        // Most stamps are kept short.
        assert!(EntryStamp::of(&Stamp::new(5, 42, 7, Some(t), None)).is_some());
        assert!(EntryStamp::of(&Stamp::new(5, 42, 1 << 32, Some(t), Some(t))).is_none());
    }

    /// Makes `f`'s YAML entry (racy, just read) hold `parse` as if parsed
    /// from other bytes than the file's now (their hash differs) under the
    /// file's stamp: what a rewrite within the filesystem's time
    /// granularity leaves.
    fn rewritten_within_granularity(cache: &FileCache, f: &Path, parse: Map) {
        let (hash, at) = entry_racy(cache, f).unwrap();
        let entry = CacheEntry::new(
            stamp_of(f).unwrap().0,
            Reading::YamlData,
            Parsed::Data(parse),
            Box::default(),
            Some((hash ^ 1, at)),
        );
        cache
            .entries
            .lock()
            .unwrap()
            .get_mut(path_key(f))
            .unwrap()
            .set(Reading::YamlData, entry);
    }

    /// `data_is` never says "the same parse" of a racy entry (its file may
    /// have changed within the stamp's granularity): `data` reads it again.
    /// (review21b: a guard no test held.)
    #[test]
    fn data_is_leaves_a_racy_entry_to_data() {
        let dir = scratch_dir("data-is-racy");
        let f = dir.join("x.yaml");
        std::fs::write(&f, "a: 2\n").unwrap();
        let cache = FileCache::default();
        cache.data(&f, DataFormat::Yaml).unwrap().unwrap();
        let mut old = Map::default();
        old.insert(Value::from("a"), Value::Int(1));
        rewritten_within_granularity(&cache, &f, old.clone());
        assert_eq!(cache.data_is(&f, DataFormat::Yaml, Some(&old)), None);
        let now = cache.data(&f, DataFormat::Yaml).unwrap().unwrap();
        assert_eq!(now.get(&Value::from("a")), Some(&Value::Int(2)));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn racy_entries_are_read_again_and_kept_when_unchanged() {
        let dir = scratch_dir("recheck");
        let f = dir.join("x.yaml");
        std::fs::write(&f, "a: 1\n").unwrap();
        let cache = FileCache::default();
        let d = cache.data(&f, DataFormat::Yaml).unwrap().unwrap();
        // Just written: racy. Read again, the same bytes: the same parse.
        assert!(entry_racy(&cache, &f).is_some());
        let g = cache.generation();
        assert!(Map::ptr_eq(
            &cache.data(&f, DataFormat::Yaml).unwrap().unwrap(),
            &d
        ));
        assert_eq!(cache.generation(), g);
        // Bytes that differ from those the entry was parsed from (as a
        // rewrite within the filesystem's time granularity leaves them,
        // under the same stamp): parsed again.
        rewritten_within_granularity(&cache, &f, Map::default());
        let d2 = cache.data(&f, DataFormat::Yaml).unwrap().unwrap();
        assert_eq!(d2.get(&Value::from("a")), Some(&Value::Int(1)));
        assert!(cache.generation() > g);
        // An entry that is not racy is trusted while its stamp holds.
        let g = cache.generation();
        let entry = CacheEntry::new(
            stamp_of(&f).unwrap().0,
            Reading::YamlData,
            Parsed::Data(d.clone()),
            Box::default(),
            None,
        );
        cache
            .entries
            .lock()
            .unwrap()
            .get_mut(path_key(&f))
            .unwrap()
            .set(Reading::YamlData, entry);
        assert!(Map::ptr_eq(
            &cache.data(&f, DataFormat::Yaml).unwrap().unwrap(),
            &d
        ));
        assert_eq!(cache.generation(), g);
        // A rewrite at the same size that puts the modification time back
        // still changes the stamp (its change time).
        let mtime = std::fs::metadata(&f).unwrap().modified().unwrap();
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(&f, "a: 2\n").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&f)
            .unwrap()
            .set_modified(mtime)
            .unwrap();
        assert_eq!(std::fs::metadata(&f).unwrap().modified().unwrap(), mtime);
        let d3 = cache.data(&f, DataFormat::Yaml).unwrap().unwrap();
        assert_eq!(d3.get(&Value::from("a")), Some(&Value::Int(2)));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn formats_of_a_path_share_the_first_successful_parse() {
        // Puppet caches file data per environment by path only
        // (cached_file_data): what yaml_data parsed, json_data gets.
        let dir = scratch_dir("formats");
        let f = dir.join("x.json");
        std::fs::write(&f, "{\"a\": 1e3}").unwrap();
        let cache = FileCache::default();
        let y = cache.data(&f, DataFormat::Yaml).unwrap().unwrap();
        assert_eq!(y.get(&Value::from("a")), Some(&Value::from("1e3")));
        let g = cache.generation();
        let j = cache.data(&f, DataFormat::Json).unwrap().unwrap();
        assert!(Map::ptr_eq(&y, &j));
        assert_eq!(cache.generation(), g);
        assert!(cache.config(&f, LayerKind::Global).is_err());
        assert_eq!(cache.len(), 1);
        // A failed parse is not shared: the other format parses for itself.
        std::fs::write(&f, "a: [1, 2]\n").unwrap();
        let e1 = cache.data(&f, DataFormat::Json).unwrap_err();
        let g = cache.generation();
        // ... and is cached as well, and reported again.
        assert_eq!(cache.data(&f, DataFormat::Json).unwrap_err(), e1);
        assert_eq!(cache.generation(), g);
        let y = cache.data(&f, DataFormat::Yaml).unwrap().unwrap();
        assert!(y.get(&Value::from("a")).is_some());
        // Once YAML parsed it, json_data sees that parse.
        let j = cache.data(&f, DataFormat::Json).unwrap().unwrap();
        assert!(Map::ptr_eq(&y, &j));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The document as `symkeys_to_string` made it, and compacted (both
    /// printed with their key order).
    fn both_ways(text: &str) -> (String, String) {
        let raw = load_yaml_text(text, Path::new("x.yaml")).unwrap().unwrap();
        let expected = symkeys_to_string(&raw);
        let mut interner = Interner::default();
        let mut v = raw;
        Compactor::new(Some(&mut interner)).value(&mut v, true);
        (format!("{expected:?}"), format!("{v:?}"))
    }

    /// Every heap String and flat Array of `v`, with the address it has,
    /// in order (the compacted form's sharing, printed).
    fn sharing(v: &Value, out: &mut Vec<(String, usize)>) {
        match v {
            Value::String(s) if s.is_heap() => {
                out.push((s.to_string(), s.as_str().as_ptr() as usize))
            }
            Value::Array(a) => {
                out.push(("[]".into(), a.addr()));
                a.iter().for_each(|x| sharing(x, out));
            }
            Value::Hash(h) => h.iter().for_each(|(k, x)| {
                sharing(k, out);
                sharing(x, out);
            }),
            _ => {}
        }
    }

    /// YAML's fast path building values through the interner (issue 18)
    /// gives what reading then compacting gives: the same document (key
    /// order included), the same strings and Arrays shared, the same sets,
    /// and maps with no spare room; or it leaves the compaction to run (the
    /// full loader's documents, Symbol keys).
    #[test]
    fn interned_as_read_is_read_then_compacted() {
        let mut texts: Vec<String> = vec![
            "a: a long string\nb: [x]\nc:\n- a long string\n- 1\n- another long one\nd:\n- a long string\n- 1\n- another long one\n".into(),
            "a: 1\n:b: 2\nc:\n  :d: x\n".into(),
            "a: 1\na: 2\nb: 3\n<<: {c: 4}\n".into(),
            "k1: v\nk2: v\nk3: v\nk4: v\nk5: v\nk6: v\nk7: v\nk8: v\nk9: v\nk1: w\nk10: z\n".into(),
            // Nine pairs, eight keys: sized for an index, kept without one.
            "a: 1\na: 2\nb: 3\nc: 4\nd: 5\ne: 6\nf: 7\ng: 8\nh: 9\n".into(),
            "x:\n  a: 1\n  a: 2\n  b: 3\n  c: 4\n  d: 5\n  e: 6\n  f: 7\n  g: 8\n  h: 9\n".into(),
        ];
        texts.extend(crate::yaml::test_yaml_texts());
        let (mut fast, mut compacted) = (0, 0);
        // One interner each way over all the documents, as a cache's.
        let (mut a, mut b) = (Interner::default(), Interner::default());
        let opts = crate::yaml::YamlOptions::default();
        let mut kept = Vec::new();
        for text in &texts {
            let Ok((Some(mut got), compact)) =
                crate::yaml::load_interned(text, &opts, Some(&mut a))
            else {
                continue;
            };
            let mut expected = crate::yaml::load(text, &opts).unwrap().unwrap();
            Compactor::new(Some(&mut b)).value(&mut expected, true);
            if compact {
                fast += 1;
            } else {
                compacted += 1;
                Compactor::new(Some(&mut a)).value(&mut got, true);
            }
            assert_eq!(format!("{got:?}"), format!("{expected:?}"), "{text:?}");
            let (mut sa, mut sb) = (Vec::new(), Vec::new());
            sharing(&got, &mut sa);
            sharing(&expected, &mut sb);
            assert_eq!(sa.len(), sb.len());
            for (x, y) in sa.iter().zip(&sb) {
                assert_eq!(x.0, y.0);
            }
            // Equal strings and Arrays are one object on each side alike.
            for i in 0..sa.len() {
                for j in i + 1..sa.len().min(i + 64) {
                    assert_eq!(sa[i].1 == sa[j].1, sb[i].1 == sb[j].1, "{text:?}");
                }
            }
            // No spare room, a hash index only on a map that needs one, and
            // every map in its small form (a shared slice, frozen past
            // INDEXED entries: its index in the same allocation).
            fn spare(v: &Value) -> bool {
                match v {
                    Value::Hash(h) => {
                        h.len() < h.capacity()
                            || h.is_indexed() != (h.len() > crate::map::INDEXED)
                            || !h.is_small()
                            || h.values().any(spare)
                    }
                    Value::Array(l) => l.iter().any(spare),
                    _ => false,
                }
            }
            assert!(!spare(&got), "{text:?}");
            kept.push((got, expected));
        }
        // (A document the fast path leaves to the full loader part way may
        // leave strings only the set holds: dropped by the next purge.)
        a.retain_shared();
        b.retain_shared();
        assert_eq!(a.strings.len(), b.strings.len());
        assert_eq!(a.arrays.len(), b.arrays.len());
        assert!(
            fast > 500 && compacted > 100,
            "{fast} fast, {compacted} compacted"
        );
    }

    #[test]
    fn compaction_converts_symbol_keys_as_symkeys_to_string() {
        let docs = [
            "a: 1\n:b: 2\nc:\n  :d:\n  - :e: :f\n  g: h\n",
            // A Symbol key equal to a String key already there.
            "b: 1\n:b: 2\n:a: 3\na: 4\n",
            // Keys are not converted inside.
            "? :k: 1\n: v\n? - :s\n  - :t: 2\n: w\n",
            // Aliases, merge keys, and a shared Hash with Symbol keys.
            "x: &x\n  :p: 1\n  q: [1, 2]\ny: *x\nz:\n  <<: *x\n  r: 3\nl: &l [*x, *x]\nm: *l\n",
            "- :a: 1\n",
            ":only: {}\n",
        ];
        for d in docs {
            let (expected, got) = both_ways(d);
            assert_eq!(got, expected, "{d}");
        }
    }

    #[test]
    fn compaction_trims_and_shares() {
        // Strings longer than `Str`'s in-place limit (`INLINE`, 8 bytes) are shared.
        let text = "a: &x {b: [a long string, a long string, a long string, c], d: a long string}\ne: *x\nf: {b: [a long string, a long string, a long string, c], d: a long string}\n"
            .replace("a long string", "a string longer than 15 bytes");
        let mut v = load_yaml_text(&text, Path::new("x.yaml")).unwrap().unwrap();
        let mut interner = Interner::default();
        Compactor::new(Some(&mut interner)).value(&mut v, true);
        let (a, e, f) = (
            v.get("a").unwrap(),
            v.get("e").unwrap(),
            v.get("f").unwrap(),
        );
        // The alias stays one Hash; an equal Hash written out is another.
        assert!(matches!((a, e), (Value::Hash(x), Value::Hash(y)) if Map::ptr_eq(x, y)));
        assert!(matches!((a, f), (Value::Hash(x), Value::Hash(y)) if !Map::ptr_eq(x, y)));
        let cs: Vec<&Str> = [a, f]
            .iter()
            .flat_map(|h| {
                h.get("b").unwrap().as_array().unwrap()[..3]
                    .iter()
                    .chain([h.get("d").unwrap()])
            })
            .map(|c| match c {
                Value::String(s) => s,
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(cs.len(), 8);
        assert!(cs.iter().all(|c| Str::ptr_eq(c, cs[0])));
        fn exact(v: &Value) -> bool {
            match v {
                // (A `List` is a boxed slice: no spare room to check.)
                Value::Array(a) => a.iter().all(exact),
                Value::Hash(h) => {
                    h.capacity() == h.len() && h.iter().all(|(k, v)| exact(k) && exact(v))
                }
                _ => true,
            }
        }
        assert!(exact(&v));
    }

    #[test]
    fn cached_files_share_strings() {
        let dir = scratch_dir("strings");
        std::fs::write(
            dir.join("a.yaml"),
            "profile::ntp::servers: [time1.long.example.com]\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("b.json"),
            "{\"profile::ntp::servers\": [\"time1.long.example.com\"]}",
        )
        .unwrap();
        let cache = FileCache::default();
        let a = cache
            .data(&dir.join("a.yaml"), DataFormat::Yaml)
            .unwrap()
            .unwrap();
        let b = cache
            .data(&dir.join("b.json"), DataFormat::Json)
            .unwrap()
            .unwrap();
        let (ka, va) = a.get_index(0).unwrap();
        let (kb, vb) = b.get_index(0).unwrap();
        assert!(matches!((ka, kb), (Value::String(x), Value::String(y)) if Str::ptr_eq(x, y)));
        let (va, vb) = (&va.as_array().unwrap()[0], &vb.as_array().unwrap()[0]);
        assert!(matches!((va, vb), (Value::String(x), Value::String(y)) if Str::ptr_eq(x, y)));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn flat_arrays_are_shared() {
        let text = "a: [x, 1, true, ~]\nb: [x, 1, true, ~]\nc: [x, 1.0]\nd: [x, 1.0]\ne: [[x]]\nf: [[x]]\ng: [x, 1, true]\n";
        let mut v = load_yaml_text(text, Path::new("x.yaml")).unwrap().unwrap();
        let mut interner = Interner::default();
        Compactor::new(Some(&mut interner)).value(&mut v, true);
        let same = |x: &str, y: &str| match (v.get(x).unwrap(), v.get(y).unwrap()) {
            (Value::Array(p), Value::Array(q)) => List::ptr_eq(p, q),
            _ => unreachable!(),
        };
        assert!(same("a", "b"));
        // Floats are not shared (NaN), nor Arrays holding containers; the
        // inner flat Arrays are.
        assert!(!same("c", "d"));
        assert!(!same("e", "f"));
        assert!(!same("a", "g"));
        match (v.get("e").unwrap(), v.get("f").unwrap()) {
            (Value::Array(p), Value::Array(q)) => assert!(
                matches!((&p[0], &q[0]), (Value::Array(p), Value::Array(q)) if List::ptr_eq(p, q))
            ),
            _ => unreachable!(),
        }
        assert_eq!(interner.arrays.len(), 3);
    }

    #[test]
    fn yaml_documents_that_are_not_hashes_fail_under_strict_error_unless_empty() {
        let path = Path::new("/d/x.yaml");
        for text in ["--- a string\n", "- a\n", "42\n", "--- true\n"] {
            assert!(yaml_data_root(text, path, Strict::Warning)
                .unwrap()
                .as_hash()
                .unwrap()
                .is_empty());
            let e = yaml_data_root(text, path, Strict::Error).unwrap_err();
            assert_eq!(
                e.message, "/d/x.yaml: file does not contain a valid yaml hash",
                "{text:?}"
            );
        }
        // Puppet's safe_load gives false for nil; yaml_data only refuses `data != false`.
        for text in ["", "---\n", "# c\n", "--- ~\n", "null\n", "--- false\n"] {
            assert!(
                yaml_data_root(text, path, Strict::Error)
                    .unwrap()
                    .as_hash()
                    .unwrap()
                    .is_empty(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn module_metadata_verdicts() {
        let dir = scratch_dir("metadata");
        let n = std::cell::Cell::new(0);
        let verdict = |text: Option<&str>, strict: Strict, puppet: u8| {
            n.set(n.get() + 1);
            let m = dir.join(format!("m{}", n.get()));
            std::fs::create_dir_all(&m).unwrap();
            if let Some(t) = text {
                std::fs::write(m.join("metadata.json"), t).unwrap();
            }
            let cache = FileCache {
                strict,
                puppet,
                ..FileCache::default()
            };
            cache.module_metadata(&m).map_err(|e| e.message)
        };
        let full = r#"{"name":"a-b","version":"1.0.0","author":"a","license":"MIT","source":"s","dependencies":[]}"#;
        assert_eq!(verdict(None, Strict::Error, 7), Ok(true));
        assert_eq!(verdict(Some(full), Strict::Error, 7), Ok(true));
        assert_eq!(verdict(Some("{}"), Strict::Error, 7), Ok(true));
        assert_eq!(
            verdict(Some(r#"{"name":"a-b"}"#), Strict::Off, 7),
            Ok(false)
        );
        assert_eq!(
            verdict(Some(&full.replace("[]", "{}")), Strict::Off, 7),
            Ok(false)
        );
        assert_eq!(
            verdict(Some(&full.replace("\"MIT\"", "null")), Strict::Off, 7),
            Ok(false)
        );
        for (text, p8) in [("{ not json", false), ("", true)] {
            assert_eq!(verdict(Some(text), Strict::Warning, 7), Ok(true));
            assert_eq!(verdict(Some(text), Strict::Error, 7), Ok(false));
            assert_eq!(verdict(Some(text), Strict::Error, 8), Ok(p8));
        }
        assert_eq!(
            verdict(Some("[]"), Strict::Off, 7),
            Err("no implicit conversion of String into Integer".into())
        );
        assert_eq!(
            verdict(Some("null"), Strict::Off, 7),
            Err("undefined method `empty?' for nil:NilClass".into())
        );
        assert_eq!(
            verdict(Some("5"), Strict::Off, 7),
            Err("undefined method `empty?' for 5:Integer".into())
        );
        assert_eq!(verdict(Some("\"x\""), Strict::Off, 7), Ok(false));
    }

    #[test]
    fn deeply_nested_documents_load_on_a_small_stack() {
        let dir = scratch_dir("deep");
        let depth = crate::yaml::MAX_DEPTH - 2;
        let mut text = String::new();
        for i in 0..depth / 2 {
            text.push_str(&" ".repeat(2 * i));
            text.push_str(":k:\n");
            text.push_str(&" ".repeat(2 * i));
            text.push_str("- \n");
        }
        let f = dir.join("deep.yaml");
        std::fs::write(&f, text).unwrap();
        let g = f.clone();
        let levels = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let cache = FileCache::default();
                let mut v = Value::Hash(cache.data(&g, DataFormat::Yaml).unwrap().unwrap());
                let mut levels = 0;
                while let Some(next) = v
                    .get("k")
                    .and_then(|a| a.as_array())
                    .and_then(|a| a.first())
                    .cloned()
                {
                    v = next;
                    levels += 1;
                }
                levels
            })
            .unwrap()
            .join()
            .unwrap();
        // (The innermost Array holds nil.)
        assert_eq!(levels, depth / 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn interned_strings_of_changed_files_are_dropped() {
        let dir = scratch_dir("purge");
        let f = dir.join("x.yaml");
        let cache = FileCache::default();
        let mut most = 0;
        for round in 0..40 {
            // Each version has new strings (and a new size).
            let text: String = (0..1000 + round)
                .map(|i| format!("k{round}_{i}: [v{round}_{i}]\n"))
                .collect();
            std::fs::write(&f, text).unwrap();
            let d = cache.data(&f, DataFormat::Yaml).unwrap().unwrap();
            assert_eq!(d.len(), 1000 + round);
            let interner = cache.strings.lock().unwrap();
            most = most.max(interner.strings.len() + interner.arrays.len());
        }
        // The live values (3,117) plus at most twice what was live at the
        // last purge.
        assert!(most < 3 * 3200 + MIN_PURGE, "{most} values interned");
        drop(cache);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A file YAML's fast path reads part way and the full loader then
    /// refuses leaves no strings in the interner past the next purge.
    #[test]
    fn interned_strings_of_failed_parses_are_dropped() {
        let dir = scratch_dir("purge-failed");
        let f = dir.join("x.yaml");
        let cache = FileCache::default();
        let mut most = 0;
        for round in 0..40 {
            let mut text: String = (0..1000 + round)
                .map(|i| format!("a_long_key_{round}_{i}: a_long_value_{round}_{i}\n"))
                .collect();
            text.push_str("bad: [unclosed\n");
            std::fs::write(&f, text).unwrap();
            assert!(cache.data(&f, DataFormat::Yaml).is_err());
            let interner = cache.strings.lock().unwrap();
            most = most.max(interner.strings.len() + interner.arrays.len());
        }
        assert!(most > 1000, "the fast path interned what it read: {most}");
        assert!(most < 2 * 2100 + MIN_PURGE, "{most} values interned");
        drop(cache);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
