//! Data files: `yaml_data` and `json_data` as Puppet reads them, and the
//! file cache that re-reads a file when its inode, mtime or size changes.

use crate::config::{symkeys_to_string, HieraConfig, LayerKind};
use crate::error::{Error, ErrorKind, Result};
use crate::value::{Map, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
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

/// Parses a `yaml_data` file's text into its data hash.
pub fn parse_yaml_data(text: &str, path: &Path) -> Result<Arc<Map>> {
    match load_yaml_text(text, path)? {
        Some(v @ Value::Hash(_)) => match symkeys_to_string(&v) {
            Value::Hash(h) => Ok(h),
            _ => unreachable!(),
        },
        // nil, or not a hash: "file does not contain a valid yaml hash" (a
        // warning under strict=warning); the file counts as empty.
        _ => Ok(Arc::new(Map::default())),
    }
}

/// Parses a `json_data` file's text into its data hash.
pub fn parse_json_data(text: &str, path: &Path) -> Result<Arc<Map>> {
    parse_json_bytes(text.as_bytes(), path)
}

/// Parses a `json_data` file's bytes (invalid UTF-8 handled as Ruby does).
pub fn parse_json_bytes(bytes: &[u8], path: &Path) -> Result<Arc<Map>> {
    let v = crate::json::load_bytes(bytes).map_err(|e| Error::parse(path, &e.message, e.line))?;
    match v {
        Value::Hash(h) => Ok(h),
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
    entries: Mutex<FastMap<Box<Path>, Slots>>,
    probes: Mutex<FastMap<PathBuf, (Instant, Option<Probe>)>>,
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
            if let Some((at, p)) = probes.get(path) {
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
            probes.insert(path.to_path_buf(), (Instant::now(), probe));
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
            if let Some(e) = map.get(path).and_then(|slots| slots.get(tag)) {
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
        match map.get_mut(path) {
            Some(slots) => slots.set(tag, entry),
            None => {
                map.insert(path.into(), Slots::One(tag, entry));
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
            Parsed::data(match format {
                DataFormat::Yaml => match yaml_utf8(bytes) {
                    Ok(text) => parse_yaml_data(text, path),
                    Err(problem) => Err(Error::parse(path, problem, Some(1))),
                },
                DataFormat::Json => parse_json_bytes(bytes, path),
            })
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

    #[test]
    fn cache_rereads_changed_file() {
        let dir = std::env::temp_dir().join(format!("libhiera-cache-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
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
        let dir = std::env::temp_dir().join(format!("libhiera-cache-formats-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
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
}
