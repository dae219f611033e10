//! `hiera`: an opened configuration (`hiera_open`, `hiera_free`).

use super::{drop_made, guard, hiera_status, input_json, input_str, write_made};
use crate::error::{Error, ErrorKind};
use crate::hiera5::lookup::{Hiera, Options, Strict};
use crate::value::Value;
use std::ffi::c_char;
use std::path::PathBuf;
use std::sync::Arc;

/// An opened Hiera configuration: where the global hiera.yaml and the
/// environments are, which environment, and the file cache shared by every
/// session made from it.
///
/// Made by `hiera_open`, freed by `hiera_free`.
/// Threads: immutable apart from internally synchronized caches. Any number
/// of threads may use one `hiera` at once (`hiera_session_new`). Sessions keep
/// their configuration alive, so `hiera_free` may come before the sessions
/// made from it are freed.
#[allow(non_camel_case_types)]
pub struct hiera {
    pub(crate) inner: Arc<Hiera>,
}

/// Decodes `options_json`: an object with the optional string fields
/// `hiera_config`, `environmentpath`, `environment` and `strict`, the
/// optional arrays of strings `basemodulepath` and `modulepath`, the
/// optional number `puppet` (7 or 8), the optional object `limits`, the
/// optional booleans `confine`, `host_variables`, `host_scope` and
/// `watch_files`, and the optional number of seconds
/// `file_check_interval`; a `null` field means its default. Unknown fields
/// are an error.
pub(crate) fn options_from_json(text: &str) -> Result<Options, Error> {
    let invalid = |m: String| Error::new(ErrorKind::InvalidArgument, m);
    let Value::Hash(fields) = input_json(text, "options_json")? else {
        return Err(invalid("options_json must be a JSON object".into()));
    };
    let mut options = Options::default();
    for (k, v) in fields.iter() {
        let name = k.as_str().unwrap_or_default();
        if !matches!(
            name,
            "hiera_config"
                | "environmentpath"
                | "environment"
                | "strict"
                | "puppet"
                | "limits"
                | "confine"
                | "codedir"
                | "basemodulepath"
                | "modulepath"
                | "host_variables"
                | "host_scope"
                | "working_directory"
                | "environment_data_provider"
                | "host_functions"
                | "file_check_interval"
                | "watch_files"
        ) {
            return Err(invalid(format!("options_json: unknown field '{name}'")));
        }
        if matches!(name, "host_functions" | "basemodulepath" | "modulepath") {
            let items = match v {
                Value::Nil => continue,
                Value::Array(items) => items
                    .iter()
                    .map(|d| d.as_str().map(str::to_string))
                    .collect::<Option<Vec<_>>>(),
                _ => None,
            }
            .ok_or_else(|| {
                invalid(format!(
                    "options_json: '{name}' must be an array of strings"
                ))
            })?;
            match name {
                "host_functions" => options.host_functions = items,
                "basemodulepath" => {
                    options.basemodulepath = items.into_iter().map(PathBuf::from).collect()
                }
                _ => options.modulepath = Some(items.into_iter().map(PathBuf::from).collect()),
            }
            continue;
        }
        if name == "limits" {
            limits_from_json(v, &mut options.limits)?;
            continue;
        }
        if name == "file_check_interval" {
            if let Some(interval) = check_interval_from_json(v)? {
                options.file_check_interval = interval;
            }
            continue;
        }
        if name == "puppet" {
            match v {
                Value::Nil => {}
                Value::Int(n @ (7 | 8)) => options.puppet = *n as u8,
                _ => return Err(invalid("options_json: 'puppet' must be 7 or 8".into())),
            }
            continue;
        }
        if matches!(
            name,
            "confine" | "host_variables" | "host_scope" | "watch_files"
        ) {
            let flag = match v {
                Value::Nil => continue,
                Value::Bool(b) => *b,
                _ => {
                    return Err(invalid(format!(
                        "options_json: '{name}' must be true or false"
                    )))
                }
            };
            match name {
                "confine" => options.confine = flag,
                "host_variables" => options.host_variables = flag,
                "watch_files" => options.watch_files = flag,
                _ => options.host_scope = flag,
            }
            continue;
        }
        let value = match v {
            Value::Nil => continue,
            Value::String(s) => s.to_string(),
            _ => return Err(invalid(format!("options_json: '{name}' must be a string"))),
        };
        match name {
            "hiera_config" => options.hiera_config = PathBuf::from(value),
            "environmentpath" => options.environmentpath = PathBuf::from(value),
            "environment" => options.environment = value,
            "codedir" => options.codedir = PathBuf::from(value),
            "working_directory" => options.working_directory = Some(PathBuf::from(value)),
            "environment_data_provider" => options.environment_data_provider = Some(value),
            "strict" => {
                options.strict = Some(match value.as_str() {
                    "off" => Strict::Off,
                    "warning" => Strict::Warning,
                    "error" => Strict::Error,
                    other => {
                        return Err(invalid(format!(
                            "options_json: 'strict' must be off, warning or error, not '{other}'"
                        )))
                    }
                })
            }
            _ => unreachable!("field names are checked above"),
        }
    }
    Ok(options)
}

/// Decodes the `limits` field of `options_json`: an object whose fields are
/// limit names (`crate::limits::Limits::NAMES`) and non-negative integers;
/// `null` keeps every default.
fn limits_from_json(v: &Value, limits: &mut crate::limits::Limits) -> Result<(), Error> {
    let invalid = |m: String| Error::new(ErrorKind::InvalidArgument, m);
    let fields = match v {
        Value::Nil => return Ok(()),
        Value::Hash(fields) => fields,
        _ => return Err(invalid("options_json: 'limits' must be an object".into())),
    };
    for (k, n) in fields.iter() {
        let name = k.as_str().unwrap_or_default();
        let n = match n {
            Value::Int(n) => usize::try_from(*n).map_err(|_| {
                invalid(format!("options_json: limit '{name}' must not be negative"))
            })?,
            Value::BigInt(digits) if !digits.starts_with('-') => usize::MAX,
            _ => {
                return Err(invalid(format!(
                    "options_json: limit '{name}' must be an integer"
                )))
            }
        };
        limits
            .set(name, n)
            .map_err(|e| invalid(format!("options_json: {e}")))?;
    }
    Ok(())
}

/// The longest `file_check_interval` taken: a year.
const CHECK_INTERVAL_MAX_SECS: f64 = 365.0 * 24.0 * 3600.0;

/// Decodes the `file_check_interval` field of `options_json`: a number of
/// seconds (an integer or a float), at least 0 and at most a year; `null`
/// keeps the default (0: every new session checks every file it uses).
fn check_interval_from_json(v: &Value) -> Result<Option<std::time::Duration>, Error> {
    let secs = match v {
        Value::Nil => return Ok(None),
        Value::Int(n) => *n as f64,
        Value::Float(f) => *f,
        _ => f64::NAN,
    };
    if !(0.0..=CHECK_INTERVAL_MAX_SECS).contains(&secs) {
        return Err(Error::new(
            ErrorKind::InvalidArgument,
            "options_json: 'file_check_interval' must be a number of seconds from 0 to 31536000 (a year)",
        ));
    }
    Ok(Some(std::time::Duration::from_secs_f64(secs)))
}

/// `hiera_open` without the pointers.
pub(crate) fn open_json(text: &str) -> Result<Hiera, Error> {
    open_json_with(text, None)
}

/// `hiera_open_with_host` without the pointers.
pub(crate) fn open_json_with(
    text: &str,
    host: Option<crate::host::HostRef>,
) -> Result<Hiera, Error> {
    let mut options = options_from_json(text)?;
    options.host = host;
    Hiera::open(options)
}

/// Opens a configuration.
///
/// `options_json` is a JSON object with the same meaning as the CLI's flags;
/// every field is optional:
/// `{"hiera_config": "hiera.yaml", "environmentpath": "environments",
///   "environment": "production", "strict": "off" | "warning" | "error",
///   "puppet": 7 | 8, "basemodulepath": [], "modulepath": null,
///   "limits": {"lookup_depth": 32, "nested_lookups": 100000,
///              "string_bytes": 16777216, "interpolated_bytes": 268435456,
///              "merge_entries": 1000000, "nested_values": 10000000},
///   "confine": false, "codedir": "/etc/puppet/code", "host_variables": false,
///   "host_scope": false, "working_directory": null, "environment_data_provider": null,
///   "host_functions": [], "file_check_interval": 0, "watch_files": true}`
/// (the values shown are the defaults, but for `strict`: without it, the
/// default of the Puppet version, `warning` for 7 and `error` for 8).
/// `puppet` picks the Puppet the engine answers as: 7 (Puppet 7.23, the
/// default) or 8 (OpenVox/Puppet 8: `strict` defaults to `error`, and an
/// undefined variable in a v5 hierarchy's paths, globs, uris or
/// mapped_paths only warns). `basemodulepath` lists the
/// directories of modules shared by all environments (Puppet's
/// `basemodulepath`; by default none), searched after the environment's
/// `modules`, or where its `environment.conf` puts `$basemodulepath`.
/// `modulepath`, when given, is the environment's whole modulepath (as
/// Puppet's `--modulepath`): `environment.conf` is then not read. A module
/// is in the first modulepath directory holding a directory of its name.
/// `limits` may name any of its fields: a lookup that reaches one fails
/// with an error of kind `limit`.
/// `confine: true` reads only data and config files inside the directories
/// the configuration names (`..` and symbolic links resolved; a file outside
/// is an `io` error): for facts that cannot be trusted. Relative paths are
/// taken relative to the process's working directory at the time of the
/// call. `codedir` is Puppet's setting: where a Hiera 3 global hiera.yaml
/// without a `datadir` reads data (`<codedir>/environments/<env>/hieradata`).
/// `working_directory`: where relative `basemodulepath`/`modulepath`
/// directories and the relative key paths of eyaml levels
/// (`pkcs7_private_key`, `pkcs7_public_key`) are taken from; without it (or
/// `null`), the process's working directory at the time of the call.
/// `environment_data_provider`: Puppet's (deprecated) setting of that name
/// from puppet.conf, the Puppet 4 data provider (`none`, `hiera`,
/// `function`) of an environment whose `environment.conf` names none.
/// `host_variables: true` (with `hiera_open_with_host`) asks the host's
/// `call` for the qualified variables (`a::b`) a session does not have
/// (see `hiera_call_fn`).
/// `host_scope: true` (with `hiera_open_with_host`) asks the host's `call`
/// for the plain variables a session's scope does not have, once per
/// session (`{"kind": "variable", "key": NAME, "scope": "top"}`, see
/// `hiera_call_fn`): a session may be made with an empty scope (`{}`) and
/// take a compile's top-scope variables from the host as lookups read them.
/// `host_functions` names hierarchy functions libhiera has itself
/// (`yaml_data`, `json_data`, `hocon_data`, `eyaml_lookup_key`,
/// `libhiera::yaml_data`, `libhiera::json_data`, `libhiera::data_hash`)
/// that the host's `call` (`hiera_open_with_host`) runs instead, as it runs
/// a custom function: for a host whose own function answers otherwise, such
/// as a Puppet without a HOCON library, whose `hocon_data` fails with its own
/// error. Without a host such a level fails as an unknown function does;
/// any other name fails the open (`HIERA_INVALID_ARGUMENT`).
/// `file_check_interval`: how many seconds (an integer or a float, 0 to a
/// year) a `stat` of a configuration or data file is trusted before the
/// file is checked for changes again. 0, the default, is Puppet's own
/// behaviour: every new session checks every file it uses once (a
/// compile sees every change made before it started), and on a
/// hierarchy of many small files those `stat` calls are a third to a half
/// of a warm lookup's time. A service compiling many catalogs may trust
/// them longer, as Puppet Server trusts a cached environment for its
/// `environment_timeout`: a change is then seen at most that long after
/// it is made.
/// `watch_files: true` (the default, on Linux) learns of changed files from
/// the kernel instead: a new session still sees every change made before
/// it started, with one `poll` where it made a `stat` of each file. An
/// inotify watch on each directory the files' paths go through, and on
/// each file, reports every change to the names read there and to the
/// files; files on filesystems another machine, layer or rollback can
/// change (NFS, SMB, FUSE, overlayfs, ZFS, ...) and files bind-mounted into
/// place are `stat`ed each session as before. One watcher serves the process (`HIERA_WATCH_FILES=0`
/// in the environment turns it off for all); `false` turns it off for this
/// configuration.
/// Only the environment's `environment.conf` is read now (for its
/// `modulepath`; an error there fails the call): configuration and data
/// errors surface at lookup time, as in Puppet.
///
/// Returns:
/// - `HIERA_OK`: `*out` is the new handle (free it with `hiera_free`);
///   `*error_json` is not written.
/// - `HIERA_INVALID_ARGUMENT`: `options_json` is not UTF-8, not a JSON object,
///   has an unknown field or a bad value (e.g. an invalid environment name);
///   `*error_json` is an error object; `*out` is not written.
/// - `HIERA_ERROR`: the configuration cannot be opened (the environment's
///   `environment.conf` cannot be read or used: kind `config` or `io`);
///   `*error_json` is an error object; `*out` is not written.
/// - `HIERA_NULL_ARGUMENT`, `HIERA_PANIC`: nothing is written.
///
/// Ownership: `options_json` is borrowed for the call. `*error_json` belongs
/// to the caller: free it with `hiera_string_free`.
/// Threads: any thread; calls are independent.
///
/// # Safety
/// `options_json` is NULL or a NUL-terminated string; `out` and `error_json`
/// are NULL or valid for a write of a pointer.
#[no_mangle]
pub unsafe extern "C" fn hiera_open(
    options_json: *const c_char,
    out: *mut *mut hiera,
    error_json: *mut *mut c_char,
) -> hiera_status {
    guard(hiera_status::HIERA_PANIC, || {
        if options_json.is_null() || out.is_null() || error_json.is_null() {
            return hiera_status::HIERA_NULL_ARGUMENT;
        }
        // SAFETY: checked non-NULL; the caller guarantees a NUL-terminated
        // string valid for the duration of the call.
        let opened = unsafe { input_str(options_json, "options_json") }.and_then(open_json);
        let made = opened.map(|h| hiera { inner: Arc::new(h) });
        // SAFETY: `out` and `error_json` are non-NULL and, per the contract, writable.
        unsafe { write_made(made, out, error_json) }
    })
}

/// Frees a configuration made by `hiera_open`. NULL is allowed and does
/// nothing.
///
/// Ownership: takes back `h`, which must not be used afterwards and must be
/// freed only once. Sessions made from `h` stay valid: they hold their own
/// reference to the configuration.
/// Threads: any thread, once no other call is using `h`.
///
/// # Safety
/// `h` is NULL or a handle from `hiera_open` that was not freed yet.
#[no_mangle]
pub unsafe extern "C" fn hiera_free(h: *mut hiera) {
    // SAFETY: the caller guarantees that `h` is NULL or came from
    // `hiera_open` (`write_made`), is freed once and is no longer in use.
    guard((), || unsafe { drop_made(h) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;
    use std::ptr;

    fn take(p: *mut c_char) -> String {
        assert!(!p.is_null());
        // SAFETY: `p` is a string returned by libhiera, read then freed once.
        let s = unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_string();
        // SAFETY: as above.
        unsafe { super::super::string::hiera_string_free(p) };
        s
    }

    #[test]
    fn file_check_interval_is_seconds() {
        let interval = |text: &str| options_from_json(text).map(|o| o.file_check_interval);
        assert_eq!(interval("{}").unwrap(), std::time::Duration::ZERO);
        assert_eq!(
            interval(r#"{"file_check_interval":null}"#).unwrap(),
            std::time::Duration::ZERO
        );
        assert_eq!(
            interval(r#"{"file_check_interval":5}"#).unwrap(),
            std::time::Duration::from_secs(5)
        );
        assert_eq!(
            interval(r#"{"file_check_interval":0.25}"#).unwrap(),
            std::time::Duration::from_millis(250)
        );
        assert_eq!(
            interval(r#"{"file_check_interval":31536000}"#).unwrap(),
            std::time::Duration::from_secs(31_536_000)
        );
        for bad in [
            "-1", "-0.5", "31536001", "1e300", "\"5\"", "true", "[1]", "{}",
        ] {
            let e = interval(&format!(r#"{{"file_check_interval":{bad}}}"#)).unwrap_err();
            assert_eq!(e.kind, ErrorKind::InvalidArgument, "{bad}");
            assert!(
                e.message
                    .contains("'file_check_interval' must be a number of seconds"),
                "{bad}: {}",
                e.message
            );
        }
    }

    /// A configuration opened through the C ABI's JSON with a check
    /// interval trusts a file's `stat` for that long: a new session still
    /// answers from the file as it was; without one it sees the change.
    #[test]
    fn a_check_interval_from_json_is_the_caches() {
        let dir =
            std::env::temp_dir().join(format!("libhiera-ffi-interval-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("data")).unwrap();
        std::fs::write(
            dir.join("hiera.yaml"),
            "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
        )
        .unwrap();
        let data = dir.join("data/common.yaml");
        let answer = |h: &Arc<Hiera>| {
            crate::Session::new(Arc::clone(h), crate::Map::default())
                .lookup_key("k")
                .unwrap()
        };
        let open = |interval: &str| {
            let text = format!(
                r#"{{"hiera_config":{:?},"environmentpath":{:?},"file_check_interval":{interval}}}"#,
                dir.join("hiera.yaml").to_str().unwrap(),
                dir.join("envs").to_str().unwrap(),
            );
            Arc::new(open_json(&text).unwrap())
        };
        std::fs::write(&data, "k: first\n").unwrap();
        let (trusting, checking) = (open("3600"), open("0"));
        assert_eq!(answer(&trusting), Some(Value::from("first")));
        assert_eq!(answer(&checking), Some(Value::from("first")));
        // Another size, so the change shows in the stamp whatever the
        // filesystem's time granularity.
        std::fs::write(&data, "k: second version\n").unwrap();
        assert_eq!(answer(&trusting), Some(Value::from("first")));
        assert_eq!(answer(&checking), Some(Value::from("second version")));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn options_fields() {
        let o = options_from_json(r#"{"hiera_config":"/a/h.yaml","environmentpath":"/e","environment":"dev","strict":"error"}"#).unwrap();
        assert_eq!(o.hiera_config, PathBuf::from("/a/h.yaml"));
        assert_eq!(o.environmentpath, PathBuf::from("/e"));
        assert_eq!(o.environment, "dev");
        assert_eq!(o.strict, Some(Strict::Error));
        assert_eq!((o.puppet, o.strict()), (7, Strict::Error));
        assert!(!o.confine);
        assert!(o.basemodulepath.is_empty());
        assert_eq!(o.modulepath, None);
        let p8 = options_from_json(r#"{"puppet":8}"#).unwrap();
        assert_eq!(
            (p8.puppet, p8.strict, p8.strict()),
            (8, None, Strict::Error)
        );
        let p8 = options_from_json(r#"{"puppet":8,"strict":"warning"}"#).unwrap();
        assert_eq!(p8.strict(), Strict::Warning);
        assert_eq!(
            options_from_json(r#"{"puppet":null}"#).unwrap().strict(),
            Strict::Warning
        );
        let d = options_from_json(
            r#"{"environment":null,"confine":null,"basemodulepath":null,"modulepath":null}"#,
        )
        .unwrap();
        assert_eq!(d.environment, "production");
        assert!(!d.confine);
        assert!(d.basemodulepath.is_empty());
        assert_eq!(d.modulepath, None);
        let m = options_from_json(r#"{"basemodulepath":["/b1","b2"],"modulepath":[]}"#).unwrap();
        assert_eq!(
            m.basemodulepath,
            vec![PathBuf::from("/b1"), PathBuf::from("b2")]
        );
        assert_eq!(m.modulepath, Some(vec![]));
        let m = options_from_json(r#"{"modulepath":["/m"]}"#).unwrap();
        assert_eq!(m.modulepath, Some(vec![PathBuf::from("/m")]));
        assert!(options_from_json(r#"{"confine":true}"#).unwrap().confine);
        assert!(!options_from_json(r#"{"confine":false}"#).unwrap().confine);
        assert!(options_from_json("{}").unwrap().watch_files);
        assert!(
            !options_from_json(r#"{"watch_files":false}"#)
                .unwrap()
                .watch_files
        );
        assert!(
            options_from_json(r#"{"watch_files":null}"#)
                .unwrap()
                .watch_files
        );
        assert_eq!(
            options_from_json(r#"{"watch_files":"no"}"#)
                .unwrap_err()
                .message,
            "options_json: 'watch_files' must be true or false"
        );
        let bad = |t: &str| options_from_json(t).unwrap_err().message;
        assert_eq!(
            bad(r#"{"hiera-config":"x"}"#),
            "options_json: unknown field 'hiera-config'"
        );
        assert_eq!(
            bad(r#"{"strict":"loud"}"#),
            "options_json: 'strict' must be off, warning or error, not 'loud'"
        );
        assert_eq!(
            bad(r#"{"puppet":6}"#),
            "options_json: 'puppet' must be 7 or 8"
        );
        assert_eq!(
            bad(r#"{"puppet":"8"}"#),
            "options_json: 'puppet' must be 7 or 8"
        );
        assert_eq!(
            bad(r#"{"environment":1}"#),
            "options_json: 'environment' must be a string"
        );
        assert_eq!(
            bad(r#"{"confine":"yes"}"#),
            "options_json: 'confine' must be true or false"
        );
        assert_eq!(
            bad(r#"{"basemodulepath":"/a:/b"}"#),
            "options_json: 'basemodulepath' must be an array of strings"
        );
        assert_eq!(
            bad(r#"{"modulepath":["/a",1]}"#),
            "options_json: 'modulepath' must be an array of strings"
        );
        let f =
            options_from_json(r#"{"host_functions":["hocon_data","eyaml_lookup_key"]}"#).unwrap();
        assert_eq!(f.host_functions, ["hocon_data", "eyaml_lookup_key"]);
        assert!(options_from_json(r#"{"host_functions":null}"#)
            .unwrap()
            .host_functions
            .is_empty());
        assert_eq!(
            bad(r#"{"host_functions":"hocon_data"}"#),
            "options_json: 'host_functions' must be an array of strings"
        );
        assert_eq!(
            bad(r#"{"host_functions":["hocon_data",1]}"#),
            "options_json: 'host_functions' must be an array of strings"
        );
        assert_eq!(bad("[]"), "options_json must be a JSON object");
        assert!(bad("{").starts_with("options_json is not valid JSON"));
        // Hiera::open's own checks are invalid arguments too.
        let e = open_json(r#"{"environment":"a/b"}"#).err().unwrap();
        assert_eq!(e.kind, ErrorKind::InvalidArgument);
    }

    #[test]
    fn open_and_free() {
        let mut h: *mut hiera = ptr::null_mut();
        let mut err: *mut c_char = ptr::null_mut();
        // SAFETY: valid pointers to locals and a C string literal.
        let st = unsafe {
            hiera_open(
                c"{\"environment\":\"production\"}".as_ptr(),
                &mut h,
                &mut err,
            )
        };
        assert_eq!(st, hiera_status::HIERA_OK);
        assert!(!h.is_null());
        assert!(err.is_null(), "error_json is not written on success");
        // SAFETY: `h` came from hiera_open and is freed once; NULL is a no-op.
        unsafe {
            hiera_free(h);
            hiera_free(ptr::null_mut());
        }
    }

    #[test]
    fn open_errors_and_nulls() {
        let sentinel = 0x10 as *mut hiera;
        let mut h = sentinel;
        let mut err: *mut c_char = ptr::null_mut();
        // SAFETY: valid pointers to locals and C string literals.
        let st = unsafe { hiera_open(c"{\"bogus\":1}".as_ptr(), &mut h, &mut err) };
        assert_eq!(st, hiera_status::HIERA_INVALID_ARGUMENT);
        assert_eq!(h, sentinel, "out is not written on failure");
        assert_eq!(
            take(err),
            r#"{"kind":"invalid_argument","message":"options_json: unknown field 'bogus'"}"#
        );

        let mut err: *mut c_char = ptr::null_mut();
        // SAFETY: a NUL-terminated byte string that is not UTF-8.
        let st = unsafe { hiera_open(c"{\"environment\":\"\xc3\"}".as_ptr(), &mut h, &mut err) };
        assert_eq!(st, hiera_status::HIERA_INVALID_ARGUMENT);
        assert!(take(err).contains("not valid UTF-8"));

        let mut err = 0x20 as *mut c_char;
        // SAFETY: every call passes one NULL; nothing else is dereferenced.
        unsafe {
            assert_eq!(
                hiera_open(ptr::null(), &mut h, &mut err),
                hiera_status::HIERA_NULL_ARGUMENT
            );
            assert_eq!(
                hiera_open(c"{}".as_ptr(), ptr::null_mut(), &mut err),
                hiera_status::HIERA_NULL_ARGUMENT
            );
            assert_eq!(
                hiera_open(c"{}".as_ptr(), &mut h, ptr::null_mut()),
                hiera_status::HIERA_NULL_ARGUMENT
            );
        }
        assert_eq!(h, sentinel);
        assert_eq!(err, 0x20 as *mut c_char);
    }
}
