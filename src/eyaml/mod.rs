//! `eyaml_lookup_key`: Puppet 7.23's `lookup_key` function for hiera-eyaml
//! 3.3.0 (`puppet/functions/eyaml_lookup_key.rb` with
//! `hiera/backend/eyaml`), natively.
//!
//! The engine reads the level's file as `yaml_data` reads it (same cache,
//! same parse errors, a non-Hash file is empty with a warning), takes the
//! root key's value and hands it to [`Eyaml::decrypt_value`], which does
//! what the function's `decrypt_value` does: every String with an
//! `ENC[...]` block (see `blocks`) is decrypted block by block, the text
//! around blocks kept and the result `chomp`ed, then interpolated; Hash
//! keys are interpolated, never decrypted; other values are kept. The
//! engine then checks the result as Puppet's `validate_data_value` does.
//!
//! Errors are hiera-eyaml's, wrapped as the function wraps them:
//! `hiera-eyaml backend error decrypting <the string> when looking up
//! <key> in <path>. Error was <message>`. Key material never appears in
//! an error, a warning or explain output.
//!
//! Threads: an [`Eyaml`] is shared by every session of a configuration;
//! any thread may call it.

mod blocks;
mod keys;
mod pkcs7;

use std::path::{Path, PathBuf};

use crate::error::{Error, ErrorKind, Result};
use crate::value::{Map, Value};

/// The function's name in a `lookup_key` entry.
pub const FUNCTION: &str = "eyaml_lookup_key";

/// The error for a level without a path (Puppet's ArgumentError).
pub fn no_path_error() -> Error {
    Error::new(
        ErrorKind::Config,
        "'eyaml_lookup_key': one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this lookup_key function",
    )
}

/// The eyaml state of one configuration: the working directory relative
/// key paths are read from, and the key pairs read so far.
pub struct Eyaml {
    cwd: PathBuf,
    keys: keys::KeyCache,
}

impl Eyaml {
    /// Relative key paths will be read from `cwd`.
    pub fn new(cwd: PathBuf) -> Eyaml {
        Eyaml {
            cwd,
            keys: keys::KeyCache::default(),
        }
    }

    /// `decrypt_value`: `value` (the root `key`'s value in the file at
    /// `path`) with its blocks decrypted with the keys `options` names, in
    /// the function's order: each String decrypted, then given to
    /// `interpolate` (Puppet's `context.interpolate`); each Hash key given
    /// to `interpolate` (never decrypted) before its value is walked.
    pub fn decrypt_value(
        &self,
        value: &Value,
        options: Option<&Value>,
        key: &str,
        path: &Path,
        interpolate: &mut dyn FnMut(&Value) -> Result<Value>,
    ) -> Result<Value> {
        match value {
            Value::String(s) if blocks::encrypted(s) => {
                interpolate(&self.decrypt(s, options, key, path)?)
            }
            Value::String(_) => interpolate(value),
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for v in items.iter() {
                    out.push(self.decrypt_value(v, options, key, path, interpolate)?);
                }
                Ok(Value::array(out))
            }
            Value::Hash(h) => {
                let mut out = Map::default();
                for (k, v) in h.iter() {
                    let k = interpolate(k)?;
                    out.insert(k, self.decrypt_value(v, options, key, path, interpolate)?);
                }
                Ok(Value::hash(out))
            }
            other => Ok(other.clone()),
        }
    }

    /// One encrypted string: its blocks decrypted, the text around them
    /// kept, then `chomp`.
    fn decrypt(&self, s: &str, options: Option<&Value>, key: &str, path: &Path) -> Result<Value> {
        let fail = |message: String| {
            Error::new(
                ErrorKind::Lookup,
                format!(
                    "hiera-eyaml backend error decrypting {s} when looking up {key} in {}. Error was {message}",
                    path.display()
                ),
            )
        };
        let mut out: Vec<u8> = Vec::with_capacity(s.len());
        for piece in blocks::parse(s) {
            match piece {
                blocks::Piece::Text(t) => out.extend_from_slice(t.as_bytes()),
                blocks::Piece::Block { scheme, base64 } => {
                    if let Some(name) = scheme.filter(|n| !n.eq_ignore_ascii_case("pkcs7")) {
                        // Encryptor.find requires a file of that name,
                        // and its LoadError passes the function's rescue.
                        return Err(Error::new(
                            ErrorKind::Config,
                            format!(
                                "cannot load such file -- hiera/backend/eyaml/encryptors/{}",
                                name.to_ascii_lowercase()
                            ),
                        ));
                    }
                    let pair = self.keys.pair(options, &self.cwd).map_err(fail)?;
                    let der = crate::ruby::base64::unpack_m(base64.as_bytes());
                    let plain = pkcs7::decrypt(&der, &pair).map_err(fail)?;
                    out.extend_from_slice(&plain);
                }
            }
        }
        // Ruby's String#chomp: one trailing "\r\n", "\n" or "\r".
        if out.ends_with(b"\r\n") {
            out.truncate(out.len() - 2);
        } else if out.ends_with(b"\n") || out.ends_with(b"\r") {
            out.truncate(out.len() - 1);
        }
        Ok(match String::from_utf8(out) {
            Ok(s) => Value::from(s),
            Err(e) => Value::Bytes(std::sync::Arc::new(e.into_bytes())),
        })
    }
}
