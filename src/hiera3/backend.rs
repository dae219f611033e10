//! The yaml and json backends' file handling: `Hiera::Filecache` and how a
//! backend reads a parsed data file.
//!
//! * YAML is `YAML.load(text) || {}` with Psych 4 (Symbols allowed,
//!   aliases and dates refused); syntax errors read `(<unknown>): ...`.
//!   JSON is `JSON.parse(text)`. A leading byte order mark is dropped.
//! * A parsed file that is not a Hash is `Data retrieved from <path> is
//!   Array not Hash`.
//! * The cache re-reads a file when its inode, mtime or size changes. As in
//!   the gem, a file that failed to load keeps its new stamp and its old
//!   data (`nil` the first time), and a non-Hash stays cached: the next
//!   lookup that reaches it without the file changing then works on that
//!   value as the backend would (`undefined method `empty?' for
//!   nil:NilClass`, ...). `Hiera3::clear` forgets everything.

use super::ruby::read_bom_utf8;
use crate::error::{Error, ErrorKind, Result};
use crate::ruby::errors::{no_implicit_conversion, no_method};
use crate::value::Value;
use std::collections::HashMap;
use std::path::Path;
use std::time::SystemTime;

/// The two backends Hiera 3 ships.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BackendKind {
    /// `Hiera::Backend::Yaml_backend`.
    Yaml,
    /// `Hiera::Backend::Json_backend`.
    Json,
}

impl BackendKind {
    /// The backend's name, also its config key and file extension.
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Yaml => "yaml",
            BackendKind::Json => "json",
        }
    }
}

/// libyaml's reader check of the input: the first invalid UTF-8 sequence,
/// or a character YAML does not allow before it.
fn reader_error(bytes: &[u8]) -> Option<&'static str> {
    let valid = match std::str::from_utf8(bytes) {
        Ok(_) => return None,
        Err(e) => e.valid_up_to(),
    };
    let prefix = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
    let allowed = |c: char| matches!(c as u32, 0x09 | 0x0A | 0x0D | 0x20..=0x7E | 0x85 | 0xA0..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF);
    if prefix.chars().any(|c| !allowed(c)) {
        return Some("control characters are not allowed");
    }
    let rest = &bytes[valid..];
    let lead = rest[0];
    let width = match lead {
        0x00..=0x7F => 1,
        _ if lead & 0xE0 == 0xC0 => 2,
        _ if lead & 0xF0 == 0xE0 => 3,
        _ if lead & 0xF8 == 0xF0 => 4,
        _ => return Some("invalid leading UTF-8 octet"),
    };
    if rest.len() < width {
        return Some("incomplete UTF-8 octet sequence");
    }
    let mut value = (lead as u32) & [0x7F, 0x1F, 0x0F, 0x07][width - 1];
    for &b in &rest[1..width] {
        if b & 0xC0 != 0x80 {
            return Some("invalid trailing UTF-8 octet");
        }
        value = (value << 6) | (b & 0x3F) as u32;
    }
    if (width == 2 && value < 0x80)
        || (width == 3 && value < 0x800)
        || (width == 4 && value < 0x10000)
    {
        return Some("invalid length of a UTF-8 sequence");
    }
    Some("invalid Unicode character")
}

/// `YAML.load(bytes)` as Psych 4 does it (no file name): `nil` for an empty
/// document. The error is Psych's message.
pub fn load_yaml(bytes: &[u8]) -> std::result::Result<Value, String> {
    if let Some(problem) = reader_error(bytes) {
        return Err(format!("(<unknown>): {problem} at line 1 column 1"));
    }
    let text = std::str::from_utf8(bytes).unwrap_or_default();
    let opts = crate::yaml::YamlOptions {
        aliases: false,
        ..Default::default()
    };
    match crate::yaml::load(text, &opts) {
        Ok(v) => Ok(v.unwrap_or_default()),
        // Psych names the source in syntax errors only; DisallowedClass and
        // errors raised while building Ruby objects come bare.
        Err(e) if e.has_path() && !e.message.starts_with("Tried to load unspecified class") => {
            Err(format!("(<unknown>): {}", e.message))
        }
        Err(e) => Err(e.message),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    ino: u64,
    mtime: Option<SystemTime>,
    size: u64,
}

#[derive(Debug)]
struct Entry {
    stamp: Option<Stamp>,
    data: Value,
}

/// `Hiera::Filecache`: parsed data files by path, re-read when they change.
#[derive(Debug, Default)]
pub struct FileCache {
    entries: HashMap<String, Entry>,
}

impl FileCache {
    /// `read_file(path, Hash) { parse }`: the parsed data of a file, from
    /// the cache when the file has not changed. `shown` is the path as the
    /// gem built it (it keys the cache and appears in messages); `fs_path`
    /// is where it is on disk.
    pub fn read_file(&mut self, shown: &str, fs_path: &Path, kind: BackendKind) -> Result<Value> {
        let md = std::fs::metadata(fs_path).map_err(|_| {
            Error::new(
                ErrorKind::Io,
                format!("No such file or directory @ rb_file_s_stat - {shown}"),
            )
        })?;
        #[cfg(unix)]
        let ino = std::os::unix::fs::MetadataExt::ino(&md);
        #[cfg(not(unix))]
        let ino = 0;
        let stamp = Stamp {
            ino,
            mtime: md.modified().ok(),
            size: md.len(),
        };
        let entry = self.entries.entry(shown.to_string()).or_insert(Entry {
            stamp: None,
            data: Value::Nil,
        });
        if entry.stamp == Some(stamp) {
            return Ok(entry.data.clone());
        }
        entry.stamp = Some(stamp);
        let bytes = read_bom_utf8(fs_path, shown)?;
        let bytes = &bytes[..];
        let data = match kind {
            BackendKind::Yaml => {
                match load_yaml(bytes).map_err(|m| Error::new(ErrorKind::Parse, m))? {
                    v if v.is_truthy() => v,
                    _ => Value::empty_hash(),
                }
            }
            BackendKind::Json => crate::json::load_bytes(bytes)
                .map_err(|e| Error::new(ErrorKind::Parse, e.message))?,
        };
        entry.data = data.clone();
        if !matches!(data, Value::Hash(_)) {
            return Err(Error::new(
                ErrorKind::Type,
                format!(
                    "Data retrieved from {shown} is {} not Hash",
                    data.ruby_class()
                ),
            ));
        }
        Ok(data)
    }

    /// Forgets every file.
    pub fn clear(&mut self) {
        self.entries.clear();
    }
}

/// What a backend does with a file's data: `next if data.empty?; next
/// unless data.include?(key); data[key]`. `Ok(None)` skips the file. Only
/// a Hash reaches this in a healthy run; other values come from a cache
/// entry left behind by a failed read, and fail as Ruby would.
pub fn lookup_in(data: &Value, key: &Value) -> Result<Option<Value>> {
    match data {
        Value::Hash(h) => Ok(h.get(key).cloned()),
        Value::Array(a) => {
            if a.is_empty() || !a.contains(key) {
                return Ok(None);
            }
            Err(match key {
                Value::Nil => Error::new(
                    ErrorKind::Type,
                    "no implicit conversion from nil to integer",
                ),
                other => no_implicit_conversion(other, "Integer"),
            })
        }
        Value::String(s) => {
            if s.is_empty() {
                return Ok(None);
            }
            match key {
                Value::String(k) if s.contains(&**k) => Ok(Some(key.clone())),
                Value::String(_) => Ok(None),
                other => Err(no_implicit_conversion(other, "String")),
            }
        }
        Value::Symbol(s) if s.is_empty() => Ok(None),
        Value::Symbol(_) => Err(no_method("include?", data)),
        other => Err(no_method("empty?", other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Map;

    #[test]
    fn yaml_like_psych_4() {
        assert_eq!(load_yaml(b"").unwrap(), Value::Nil);
        assert_eq!(
            load_yaml(b"a: :s\n").unwrap().get("a"),
            Some(&Value::Symbol("s".into()))
        );
        assert_eq!(
            load_yaml(b"a: &x 1\nb: *x\n").unwrap_err(),
            "Unknown alias: x"
        );
        assert_eq!(
            load_yaml(b"a: 2020-01-01\n").unwrap_err(),
            "Tried to load unspecified class: Date"
        );
        assert!(load_yaml(b"a: [\n")
            .unwrap_err()
            .starts_with("(<unknown>): "));
    }

    #[test]
    fn libyaml_reader_errors() {
        let e = |b: &[u8]| load_yaml(b).unwrap_err();
        assert_eq!(
            e(b"a: \xff\n"),
            "(<unknown>): invalid leading UTF-8 octet at line 1 column 1"
        );
        assert_eq!(
            e(b"a: b\nc: \xc3\n"),
            "(<unknown>): invalid trailing UTF-8 octet at line 1 column 1"
        );
        assert_eq!(
            e(b"\xe0\x80\x80"),
            "(<unknown>): invalid length of a UTF-8 sequence at line 1 column 1"
        );
        assert_eq!(
            e(b"\xed\xa0\x80"),
            "(<unknown>): invalid Unicode character at line 1 column 1"
        );
        assert_eq!(
            e(b"a\xc3"),
            "(<unknown>): incomplete UTF-8 octet sequence at line 1 column 1"
        );
        assert_eq!(
            e(b"\x01a: \xff"),
            "(<unknown>): control characters are not allowed at line 1 column 1"
        );
    }

    #[test]
    fn data_access_like_the_backends() {
        let mut m = Map::default();
        m.insert(Value::from("k"), Value::Nil);
        let h = Value::hash(m);
        assert_eq!(lookup_in(&h, &Value::from("k")).unwrap(), Some(Value::Nil));
        assert_eq!(lookup_in(&h, &Value::from("x")).unwrap(), None);
        // What a failed read can leave in the cache:
        assert_eq!(
            lookup_in(&Value::Nil, &Value::from("k"))
                .unwrap_err()
                .message,
            "undefined method `empty?' for nil:NilClass"
        );
        let a = Value::array(vec![Value::from("k")]);
        assert_eq!(lookup_in(&a, &Value::from("x")).unwrap(), None);
        assert_eq!(
            lookup_in(&a, &Value::from("k")).unwrap_err().message,
            "no implicit conversion of String into Integer"
        );
        assert_eq!(
            lookup_in(&Value::from("k and more"), &Value::from("and")).unwrap(),
            Some(Value::from("and"))
        );
        assert_eq!(
            lookup_in(&Value::Int(5), &Value::from("k"))
                .unwrap_err()
                .message,
            "undefined method `empty?' for 5:Integer"
        );
    }

    #[test]
    fn cache_rereads_changed_files_and_keeps_what_failed() {
        let dir = std::env::temp_dir().join(format!("libhiera-h3cache-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("x.yaml");
        let mut cache = FileCache::default();
        std::fs::write(&p, "k: one\n").unwrap();
        assert_eq!(
            cache
                .read_file("x.yaml", &p, BackendKind::Yaml)
                .unwrap()
                .get("k"),
            Some(&Value::from("one"))
        );
        std::fs::write(&p, "k: three\n").unwrap();
        assert_eq!(
            cache
                .read_file("x.yaml", &p, BackendKind::Yaml)
                .unwrap()
                .get("k"),
            Some(&Value::from("three"))
        );
        std::fs::write(&p, "k: [broken\n").unwrap();
        assert!(cache.read_file("x.yaml", &p, BackendKind::Yaml).is_err());
        // unchanged since the failure: the old data
        assert_eq!(
            cache
                .read_file("x.yaml", &p, BackendKind::Yaml)
                .unwrap()
                .get("k"),
            Some(&Value::from("three"))
        );
        std::fs::write(&p, "[1]").unwrap();
        assert_eq!(
            cache
                .read_file("x.yaml", &p, BackendKind::Json)
                .unwrap_err()
                .message,
            "Data retrieved from x.yaml is Array not Hash"
        );
        assert_eq!(
            cache.read_file("x.yaml", &p, BackendKind::Json).unwrap(),
            Value::array(vec![Value::Int(1)])
        );
        cache.clear();
        assert!(cache.read_file("x.yaml", &p, BackendKind::Json).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
