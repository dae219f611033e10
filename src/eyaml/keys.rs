//! The PKCS7 key pair of an eyaml level: where hiera-eyaml 3.3.0's
//! `Pkcs7.decrypt` takes it from (the level's `options`), read once per
//! configuration and kept in memory, never logged or shown.
//!
//! hiera-eyaml reads, for each block it decrypts:
//! 1. `pkcs7_public_key` or `pkcs7_public_key_env_var` must be set, else
//!    "pkcs7_public_key is not defined"; then the same for the private key;
//! 2. the private key: the value of the environment variable named by
//!    `pkcs7_private_key_env_var` when that variable is set, else the file
//!    `pkcs7_private_key` (a relative path from the working directory);
//! 3. the public key (a certificate) the same way.
//!
//! libhiera resolves the same sources on each decryption (an environment
//! variable is read each time) but parses a source's keys only once: the
//! pair is cached by where it came from (the file's absolute path, or the
//! variable's text) for the life of the configuration.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rsa::RsaPrivateKey;

use crate::value::Value;

/// A parsed key pair, with what decryption needs of the certificate.
pub(crate) struct KeyPair {
    pub(crate) private: RsaPrivateKey,
    /// The certificate's issuer name (DER).
    pub(crate) issuer: Vec<u8>,
    pub(crate) serial: x509_cert::serial_number::SerialNumber,
    /// Whether the certificate's public key is the private key's.
    pub(crate) matches: bool,
}

/// Where one key comes from.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Source {
    /// An environment variable's text.
    Env(String),
    /// A file (absolute path).
    File(PathBuf),
}

/// The key pairs of one configuration, by where they came from.
#[derive(Default)]
pub(crate) struct KeyCache {
    pairs: Mutex<HashMap<(Source, Source), Arc<KeyPair>>>,
}

/// The most key pairs one configuration keeps (distinct sources are few:
/// one or two per hierarchy).
const MAX_PAIRS: usize = 64;

impl KeyCache {
    /// The key pair the options name, or hiera-eyaml's message for why
    /// there is none. `cwd` resolves relative key paths.
    pub(crate) fn pair(&self, options: Option<&Value>, cwd: &Path) -> Result<Arc<KeyPair>, String> {
        let opt = |name: &str| -> Option<&Value> {
            options
                .and_then(Value::as_hash)
                .and_then(|h| h.get(&Value::from(name)))
                .filter(|v| truthy(v))
        };
        let (public, public_env) = (opt("pkcs7_public_key"), opt("pkcs7_public_key_env_var"));
        let (private, private_env) = (opt("pkcs7_private_key"), opt("pkcs7_private_key_env_var"));
        if public.is_none() && public_env.is_none() {
            return Err("pkcs7_public_key is not defined".into());
        }
        if private.is_none() && private_env.is_none() {
            return Err("pkcs7_private_key is not defined".into());
        }
        // Ruby reads and parses the private key before it reads the public one.
        let private_src = source(private, private_env, cwd)?;
        let cached = |public_src: &Source| {
            self.pairs
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(&(private_src.clone(), public_src.clone()))
                .cloned()
        };
        // A cached pair needs only its sources to be resolved again: its
        // files were read and parsed when it was cached.
        if let Ok(public_src) = source(public, public_env, cwd) {
            if let Some(pair) = cached(&public_src) {
                return Ok(pair);
            }
        }
        let private_key = super::pkcs7::private_key(&read(&private_src, private)?)?;
        let public_src = source(public, public_env, cwd)?;
        let (issuer, serial, public_key) = super::pkcs7::certificate(&read(&public_src, public)?)?;
        let matches = public_key.is_some_and(|p| p == private_key.to_public_key());
        let pair = Arc::new(KeyPair {
            private: private_key,
            issuer,
            serial,
            matches,
        });
        let mut pairs = self.pairs.lock().unwrap_or_else(|e| e.into_inner());
        if pairs.len() >= MAX_PAIRS {
            pairs.clear();
        }
        pairs.insert((private_src, public_src), Arc::clone(&pair));
        Ok(pair)
    }
}

/// Ruby's truthiness: everything but nil and false.
fn truthy(v: &Value) -> bool {
    !matches!(v, Value::Nil | Value::Bool(false))
}

/// Where a key comes from: the environment variable's text when the
/// variable option names a variable that is set, else the path option.
fn source(path: Option<&Value>, env: Option<&Value>, cwd: &Path) -> Result<Source, String> {
    if let Some(name) = env {
        let Value::String(name) = name else {
            return Err(no_conversion(name));
        };
        // Ruby's ENV[] refuses a name with a NUL byte.
        if name.contains('\0') {
            return Err("bad environment variable name: contains null byte".into());
        }
        if let Some(text) = std::env::var_os(&**name) {
            return Ok(Source::Env(text.to_string_lossy().into_owned()));
        }
    }
    match path {
        Some(Value::String(p)) => Ok(Source::File(cwd.join(&**p))),
        Some(other) => Err(no_conversion(other)),
        None => Err(no_conversion(&Value::Nil)),
    }
}

/// The bytes of a key source; a file error as Ruby's `File.read` words it
/// (with the path as the options gave it).
fn read(src: &Source, given: Option<&Value>) -> Result<Vec<u8>, String> {
    match src {
        Source::Env(text) => Ok(text.clone().into_bytes()),
        Source::File(path) => {
            let shown = match given {
                Some(Value::String(s)) => s.to_string(),
                _ => path.display().to_string(),
            };
            let meta = std::fs::metadata(path);
            if meta.as_ref().is_ok_and(|m| m.is_dir()) {
                return Err(format!("Is a directory @ io_fread - {shown}"));
            }
            // Key files are small: refuse to read a huge one into memory.
            if meta.as_ref().is_ok_and(|m| m.len() > 1 << 20) {
                return Err(format!("key file too large (over 1 MiB) - {shown}"));
            }
            std::fs::read(path).map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => {
                    format!("No such file or directory @ rb_sysopen - {shown}")
                }
                std::io::ErrorKind::PermissionDenied => {
                    format!("Permission denied @ rb_sysopen - {shown}")
                }
                _ => format!("{e} @ rb_sysopen - {shown}"),
            })
        }
    }
}

/// Ruby's TypeError for a non-String where a String is needed.
fn no_conversion(v: &Value) -> String {
    format!(
        "no implicit conversion of {} into String",
        crate::ruby::errors::conversion_name(v)
    )
}
