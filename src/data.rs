//! Data files: `yaml_data` and `json_data` as Puppet reads them, and the
//! file cache that re-reads a file when its inode, mtime or size changes.

use crate::value::Str;
use crate::config::{symkeys_to_string, HieraConfig, LayerKind};
use crate::error::{Error, ErrorKind, Result};
use crate::value::{List, Map, Value};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

/// The largest data or config file read (bytes); larger files are an error.
pub const MAX_FILE_SIZE: u64 = 256 * 1024 * 1024;

/// What identifies one version of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    ino: u64,
    mtime: Option<SystemTime>,
    size: u64,
}

/// Whether a path exists, and what it is.
pub fn exists(path: &Path) -> bool {
    std::fs::metadata(path).is_ok()
}

fn stamp_of(path: &Path) -> std::io::Result<(Stamp, std::fs::Metadata)> {
    let md = std::fs::metadata(path)?;
    #[cfg(unix)]
    let ino = std::os::unix::fs::MetadataExt::ino(&md);
    #[cfg(not(unix))]
    let ino = 0;
    Ok((Stamp { ino, mtime: md.modified().ok(), size: md.len() }, md))
}

/// Reads a file as Puppet would, refusing what would hang or is not a file.
fn read_bytes(path: &Path, md: &std::fs::Metadata) -> Result<Vec<u8>> {
    if md.is_dir() {
        return Err(Error {
            kind: ErrorKind::Io,
            message: format!("Is a directory @ io_fread - {}", path.display()),
            file: Some(path.to_path_buf()),
            line: None,
        });
    }
    #[cfg(unix)]
    let is_char_device = std::os::unix::fs::FileTypeExt::is_char_device(&md.file_type());
    #[cfg(not(unix))]
    let is_char_device = false;
    if is_char_device {
        // /dev/null reads as empty; read at most MAX_FILE_SIZE of any device.
        use std::io::Read;
        let mut buf = Vec::new();
        let f = std::fs::File::open(path).map_err(|e| Error {
            kind: ErrorKind::Io,
            message: format!("{} @ rb_sysopen - {}", io_message(&e), path.display()),
            file: Some(path.to_path_buf()),
            line: None,
        })?;
        let _ = f.take(MAX_FILE_SIZE).read_to_end(&mut buf);
        return Ok(buf);
    }
    if !md.is_file() {
        return Err(Error {
            kind: ErrorKind::Io,
            message: format!("Not a regular file (a FIFO, socket or device): {}", path.display()),
            file: Some(path.to_path_buf()),
            line: None,
        });
    }
    if md.len() > MAX_FILE_SIZE {
        return Err(Error {
            kind: ErrorKind::Io,
            message: format!("File too large ({} bytes): {}", md.len(), path.display()),
            file: Some(path.to_path_buf()),
            line: None,
        });
    }
    std::fs::read(path).map_err(|e| Error {
        kind: ErrorKind::Io,
        message: format!("{} @ rb_sysopen - {}", io_message(&e), path.display()),
        file: Some(path.to_path_buf()),
        line: None,
    })
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
            } else if matches!((lead, bytes[i + 1]), (0xC0 | 0xC1, _) | (0xE0, 0x80..=0x9F) | (0xF0, 0x80..=0x8F)) {
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
fn yaml_data_root(text: &str, path: &Path) -> Result<Value> {
    match load_yaml_text(text, path)? {
        Some(v @ Value::Hash(_)) => Ok(v),
        // nil, or not a hash: "file does not contain a valid yaml hash" (a
        // warning under strict=warning); the file counts as empty.
        _ => Ok(Value::empty_hash()),
    }
}

/// Parses a `yaml_data` file's text into its data hash.
pub fn parse_yaml_data(text: &str, path: &Path) -> Result<Arc<Map>> {
    let mut root = yaml_data_root(text, path)?;
    Compactor::new(None).value(&mut root, true);
    Ok(into_map(root))
}

fn into_map(v: Value) -> Arc<Map> {
    match v {
        Value::Hash(h) => h,
        _ => unreachable!("a data file's root is a Hash"),
    }
}

/// Parses a `json_data` file's text into its data hash.
pub fn parse_json_data(text: &str, path: &Path) -> Result<Arc<Map>> {
    parse_json_bytes(text.as_bytes(), path)
}

/// Parses a `json_data` file's bytes (invalid UTF-8 handled as Ruby does).
pub fn parse_json_bytes(bytes: &[u8], path: &Path) -> Result<Arc<Map>> {
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
                crate::ptype::infer_type(&other)
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
    strings: HashSet<Str, foldhash::fast::RandomState>,
    arrays: HashSet<Arc<List>, foldhash::fast::RandomState>,
    /// The sets' size after the last purge.
    after_purge: usize,
}

/// The interner is not purged below this many values.
const MIN_PURGE: usize = 4096;

impl Interner {
    /// Replaces `s` with the interned string equal to it (interning it if
    /// it is new).
    /// (Only strings on the heap: short ones are stored in place.)
    fn intern(&mut self, s: &mut Str) {
        if !s.is_heap() {
            return;
        }
        match self.strings.get(s.as_str()) {
            Some(shared) => {
                if !Str::ptr_eq(shared, s) {
                    *s = shared.clone();
                }
            }
            None => {
                self.strings.insert(s.clone());
            }
        }
    }

    /// Replaces `a`, an Array whose elements are interned already, with the
    /// interned Array equal to it, if it is flat: made of values whose
    /// equality is identity in Ruby as well (Strings, Integers, booleans,
    /// `nil`, Symbols), so that sharing one object can change no comparison.
    /// (Floats are left out: two `NaN`s read from two places are not equal
    /// in Ruby, one object is. Hashes are left out: their equality here
    /// ignores the key order.)
    fn intern_array(&mut self, a: &mut Arc<List>) {
        let flat = a.iter().all(|v| {
            matches!(v, Value::Nil | Value::Bool(_) | Value::Int(_) | Value::BigInt(_) | Value::String(_) | Value::Symbol(_))
        });
        if !flat {
            return;
        }
        match self.arrays.get(&**a) {
            Some(shared) => {
                if !Arc::ptr_eq(shared, a) {
                    *a = Arc::clone(shared);
                }
            }
            None => {
                self.arrays.insert(Arc::clone(a));
            }
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
        self.arrays.retain(|a| Arc::strong_count(a) > 1);
        self.strings.retain(|s| s.strong_count() > 1);
        if self.arrays.len() * 4 < self.arrays.capacity() {
            self.arrays.shrink_to_fit();
        }
        if self.strings.len() * 4 < self.strings.capacity() {
            self.strings.shrink_to_fit();
        }
        self.after_purge = self.strings.len() + self.arrays.len();
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
        Compactor { interner, shared: HashMap::new() }
    }

    fn value(&mut self, v: &mut Value, symkeys: bool) {
        crate::stack::grow(|| {
            match v {
                Value::String(s) => {
                    if let Some(interner) = self.interner.as_deref_mut() {
                        interner.intern(s);
                    }
                }
                Value::Array(a) => match Arc::get_mut(a) {
                    Some(items) => {
                        for item in items.iter_mut() {
                            self.value(item, symkeys);
                        }
                        items.shrink_to_fit();
                        if let Some(interner) = self.interner.as_deref_mut() {
                            interner.intern_array(a);
                        }
                    }
                    None => self.shared(v, symkeys),
                },
                Value::Hash(h) => match Arc::get_mut(h) {
                    Some(map) => self.map(map, symkeys),
                    None => self.shared(v, symkeys),
                },
                _ => {}
            }
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
            Value::Array(a) => Arc::as_ptr(a) as *const u8 as usize,
            Value::Hash(h) => Arc::as_ptr(h) as *const u8 as usize,
            _ => return,
        };
        if let Some((_, copy)) = self.shared.get(&(addr, symkeys)) {
            *v = copy.clone();
            return;
        }
        let mut copy = match v {
            Value::Array(a) => Value::array(a.to_vec()),
            Value::Hash(h) => Value::hash((**h).clone()),
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
        DataFormat::Json => crate::json::load_bytes(bytes).map_err(|e| Error::parse(path, &e.message, e.line)),
    }
}

/// The format of a data file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataFormat {
    /// `yaml_data`.
    Yaml,
    /// `json_data`.
    Json,
}

/// A cached parse: the value, or the error (boxed: errors are rare, and
/// an inline `Error` would make every cache slot four times larger).
#[derive(Clone)]
enum Parsed {
    Data(Arc<Map>),
    Config(Option<Arc<HieraConfig>>),
    Failed(Box<Error>),
}

impl Parsed {
    fn data(r: Result<Arc<Map>>) -> Parsed {
        r.map_or_else(|e| Parsed::Failed(Box::new(e)), Parsed::Data)
    }

    fn config(r: Result<Option<Arc<HieraConfig>>>) -> Parsed {
        r.map_or_else(|e| Parsed::Failed(Box::new(e)), Parsed::Config)
    }
}

struct CacheEntry {
    stamp: Stamp,
    parsed: Parsed,
}

/// The cached parses of one path, by tag (0 `yaml_data`, 1 `json_data`,
/// 2-4 hiera.yaml for each layer). A path is nearly always read one way, so
/// one slot is kept inline and the others only exist when needed.
enum Slots {
    One(u8, CacheEntry),
    Many(Box<[Option<CacheEntry>; 5]>),
}

impl Slots {
    fn get(&self, tag: u8) -> Option<&CacheEntry> {
        match self {
            Slots::One(t, e) => (*t == tag).then_some(e),
            Slots::Many(slots) => slots[tag as usize].as_ref(),
        }
    }

    fn set(&mut self, tag: u8, entry: CacheEntry) {
        match self {
            Slots::One(t, e) if *t == tag => *e = entry,
            Slots::One(..) => {
                let Slots::One(t, e) = std::mem::replace(self, Slots::Many(Box::default())) else { unreachable!() };
                let Slots::Many(slots) = self else { unreachable!() };
                slots[t as usize] = Some(e);
                slots[tag as usize] = Some(entry);
            }
            Slots::Many(slots) => slots[tag as usize] = Some(entry),
        }
    }
}

/// A cache of parsed files, shared by all sessions of a [`crate::Hiera`].
///
/// Each access `stat`s the file; when its inode, mtime or size differ from
/// the cached version it is read and parsed again. Parse errors are cached
/// too (a broken file is not re-parsed until it changes).
///
/// With a non-zero check interval ([`FileCache::with_check_interval`]) a
/// `stat` result, including "no such file", is trusted for that long, as
/// Puppet Server trusts a cached environment for its `environment_timeout`.
#[derive(Default)]
pub struct FileCache {
    /// Keyed by the path's bytes: hashing them is much cheaper than
    /// hashing a `Path` (component by component), and the engine builds
    /// each path the same way every time.
    entries: Mutex<FastMap<Box<[u8]>, Slots>>,
    probes: Mutex<FastMap<Box<[u8]>, TimedProbe>>,
    strings: Mutex<Interner>,
    check_interval: Duration,
    generation: AtomicU64,
}

/// What a `stat` said about a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Probe {
    stamp: Stamp,
    is_dir: bool,
}

type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// A `stat` result and when it was taken.
type TimedProbe = (Instant, Option<Probe>);

/// A path as the cache's maps key it.
fn path_key(path: &Path) -> &[u8] {
    path.as_os_str().as_encoded_bytes()
}

impl FileCache {
    /// A cache that trusts a `stat` result for `interval` (zero: always
    /// `stat`, which is the default and what Puppet does within a compile's
    /// first access of each file).
    pub fn with_check_interval(interval: Duration) -> FileCache {
        FileCache { check_interval: interval, ..FileCache::default() }
    }

    /// A counter that changes whenever a cached file was (re)loaded.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// `stat`s `path`, or answers from a probe younger than the interval.
    fn probe(&self, path: &Path) -> std::io::Result<Option<Probe>> {
        if !self.check_interval.is_zero() {
            let probes = self.probes.lock().unwrap_or_else(|p| p.into_inner());
            if let Some((at, p)) = probes.get(path_key(path)) {
                if at.elapsed() < self.check_interval {
                    return Ok(*p);
                }
            }
        }
        let probe = match stamp_of(path) {
            Ok((stamp, md)) => Some(Probe { stamp, is_dir: md.is_dir() }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound || e.kind() == std::io::ErrorKind::NotADirectory => None,
            Err(e) => return Err(e),
        };
        if !self.check_interval.is_zero() {
            let mut probes = self.probes.lock().unwrap_or_else(|p| p.into_inner());
            probes.insert(path_key(path).into(), (Instant::now(), probe));
        }
        Ok(probe)
    }

    /// Whether `path` exists (through the probe cache).
    pub fn exists(&self, path: &Path) -> bool {
        matches!(self.probe(path), Ok(Some(_)))
    }

    /// Whether `path` is a directory (through the probe cache).
    pub fn is_dir(&self, path: &Path) -> bool {
        matches!(self.probe(path), Ok(Some(Probe { is_dir: true, .. })))
    }

    fn get(&self, path: &Path, tag: u8, parse: impl FnOnce(&[u8]) -> Parsed) -> std::result::Result<Option<Parsed>, Error> {
        let io_error = |e: std::io::Error| Error {
            kind: ErrorKind::Io,
            message: format!("{} @ rb_sysopen - {}", io_message(&e), path.display()),
            file: Some(path.to_path_buf()),
            line: None,
        };
        let Some(probe) = self.probe(path).map_err(io_error)? else { return Ok(None) };
        {
            let map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(e) = map.get(path_key(path)).and_then(|slots| slots.get(tag)) {
                if e.stamp == probe.stamp {
                    return Ok(Some(e.parsed.clone()));
                }
            }
        }
        // Read and parse outside the lock so slow files do not block other threads.
        let md = std::fs::metadata(path).map_err(io_error)?;
        let bytes = read_bytes(path, &md)?;
        let parsed = parse(&bytes);
        let mut map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let entry = CacheEntry { stamp: probe.stamp, parsed: parsed.clone() };
        match map.get_mut(path_key(path)) {
            Some(slots) => slots.set(tag, entry),
            None => {
                map.insert(path_key(path).into(), Slots::One(tag, entry));
            }
        }
        self.generation.fetch_add(1, Ordering::AcqRel);
        Ok(Some(parsed))
    }

    /// The data hash of a data file; `Ok(None)` when the file does not exist.
    pub fn data(&self, path: &Path, format: DataFormat) -> Result<Option<Arc<Map>>> {
        let tag = match format {
            DataFormat::Yaml => 0,
            DataFormat::Json => 1,
        };
        match self.get(path, tag, |bytes| {
            let root = match format {
                DataFormat::Yaml => match yaml_utf8(bytes) {
                    Ok(text) => yaml_data_root(text, path),
                    Err(problem) => Err(Error::parse(path, problem, Some(1))),
                },
                DataFormat::Json => json_data_root(bytes, path),
            };
            Parsed::data(root.map(|mut root| {
                let mut strings = self.strings.lock().unwrap_or_else(|p| p.into_inner());
                Compactor::new(Some(&mut strings)).value(&mut root, format == DataFormat::Yaml);
                strings.purge();
                into_map(root)
            }))
        })? {
            None => Ok(None),
            Some(Parsed::Data(d)) => Ok(Some(d)),
            Some(Parsed::Failed(e)) => Err(*e),
            Some(Parsed::Config(_)) => unreachable!(),
        }
    }

    /// The parsed hiera.yaml at `path` for `layer`.
    pub fn config(&self, path: &Path, layer: LayerKind) -> Result<Option<Arc<HieraConfig>>> {
        let tag = match layer {
            LayerKind::Global => 2,
            LayerKind::Environment => 3,
            LayerKind::Module => 4,
        };
        let parse = |bytes: &[u8]| match yaml_utf8(bytes) {
            Ok(text) => HieraConfig::parse(text, path, layer).map(|o| o.map(Arc::new)),
            Err(problem) => Err(Error { kind: ErrorKind::Parse, message: format!("({}): {problem}", path.display()), file: Some(path.to_path_buf()), line: Some(1) }),
        };
        match self.get(path, tag, |bytes| Parsed::config(parse(bytes)))? {
            None => Ok(None),
            Some(Parsed::Config(c)) => Ok(c),
            Some(Parsed::Failed(e)) => Err(*e),
            Some(Parsed::Data(_)) => unreachable!(),
        }
    }

    /// Number of cached files.
    pub fn len(&self) -> usize {
        self.entries.lock().map(|m| m.len()).unwrap_or(0)
    }

    /// `true` when nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
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
        assert!(cache.data(&dir.join("missing.yaml"), DataFormat::Yaml).unwrap().is_none());
        std::fs::write(&f, "a: 22\nb: 2\n").unwrap();
        let d = cache.data(&f, DataFormat::Yaml).unwrap().unwrap();
        assert_eq!(d.get(&Value::from("a")), Some(&Value::Int(22)));
        let e = cache.data(&dir, DataFormat::Yaml).unwrap_err();
        assert!(e.message.starts_with("Is a directory @ io_fread - "));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn cache_keeps_each_format_of_a_path_apart() {
        let dir = scratch_dir("formats");
        let f = dir.join("x.json");
        std::fs::write(&f, "{\"a\": 1}").unwrap();
        let cache = FileCache::default();
        let y = cache.data(&f, DataFormat::Yaml).unwrap().unwrap();
        assert_eq!(y.get(&Value::from("a")), Some(&Value::Int(1)));
        let g = cache.generation();
        let j = cache.data(&f, DataFormat::Json).unwrap().unwrap();
        assert_eq!(j.get(&Value::from("a")), Some(&Value::Int(1)));
        assert!(!Arc::ptr_eq(&y, &j));
        assert!(cache.generation() > g);
        let g = cache.generation();
        // Both stay cached.
        assert!(Arc::ptr_eq(&cache.data(&f, DataFormat::Yaml).unwrap().unwrap(), &y));
        assert!(Arc::ptr_eq(&cache.data(&f, DataFormat::Json).unwrap().unwrap(), &j));
        assert_eq!(cache.generation(), g);
        assert!(cache.config(&f, LayerKind::Global).is_err());
        assert!(Arc::ptr_eq(&cache.data(&f, DataFormat::Json).unwrap().unwrap(), &j));
        assert_eq!(cache.len(), 1);
        std::fs::write(&f, "{\"a\": [1,}").unwrap();
        // A parse error is cached as well, and reported again.
        let e1 = cache.data(&f, DataFormat::Json).unwrap_err();
        let g = cache.generation();
        assert_eq!(cache.data(&f, DataFormat::Json).unwrap_err(), e1);
        assert_eq!(cache.generation(), g);
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
        let (a, e, f) = (v.get("a").unwrap(), v.get("e").unwrap(), v.get("f").unwrap());
        // The alias stays one Hash; an equal Hash written out is another.
        assert!(matches!((a, e), (Value::Hash(x), Value::Hash(y)) if Arc::ptr_eq(x, y)));
        assert!(matches!((a, f), (Value::Hash(x), Value::Hash(y)) if !Arc::ptr_eq(x, y)));
        let cs: Vec<&Str> = [a, f]
            .iter()
            .flat_map(|h| h.get("b").unwrap().as_array().unwrap()[..3].iter().chain([h.get("d").unwrap()]))
            .map(|c| match c {
                Value::String(s) => s,
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(cs.len(), 8);
        assert!(cs.iter().all(|c| Str::ptr_eq(c, cs[0])));
        fn exact(v: &Value) -> bool {
            match v {
                Value::Array(a) => a.capacity() == a.len() && a.iter().all(exact),
                Value::Hash(h) => h.capacity() == h.len() && h.iter().all(|(k, v)| exact(k) && exact(v)),
                _ => true,
            }
        }
        assert!(exact(&v));
    }

    #[test]
    fn cached_files_share_strings() {
        let dir = scratch_dir("strings");
        std::fs::write(dir.join("a.yaml"), "profile::ntp::servers: [time1.long.example.com]\n").unwrap();
        std::fs::write(dir.join("b.json"), "{\"profile::ntp::servers\": [\"time1.long.example.com\"]}").unwrap();
        let cache = FileCache::default();
        let a = cache.data(&dir.join("a.yaml"), DataFormat::Yaml).unwrap().unwrap();
        let b = cache.data(&dir.join("b.json"), DataFormat::Json).unwrap().unwrap();
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
            (Value::Array(p), Value::Array(q)) => Arc::ptr_eq(p, q),
            _ => unreachable!(),
        };
        assert!(same("a", "b"));
        // Floats are not shared (NaN), nor Arrays holding containers; the
        // inner flat Arrays are.
        assert!(!same("c", "d"));
        assert!(!same("e", "f"));
        assert!(!same("a", "g"));
        match (v.get("e").unwrap(), v.get("f").unwrap()) {
            (Value::Array(p), Value::Array(q)) => assert!(matches!((&p[0], &q[0]), (Value::Array(p), Value::Array(q)) if Arc::ptr_eq(p, q))),
            _ => unreachable!(),
        }
        assert_eq!(interner.arrays.len(), 3);
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
                while let Some(next) = v.get("k").and_then(|a| a.as_array()).and_then(|a| a.first()).cloned() {
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
            let text: String = (0..1000 + round).map(|i| format!("k{round}_{i}: [v{round}_{i}]\n")).collect();
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
}
