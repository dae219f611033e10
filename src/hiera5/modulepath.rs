//! Puppet's modulepath: the directories where an environment's modules are,
//! searched in order. The first directory holding a module of a name is
//! where that module is; a module of the same name in a later directory is
//! never consulted, even when the first one has no hiera.yaml.
//!
//! The modulepath of a configuration (`resolve`), as Puppet 7.23 makes an
//! environment's (`Puppet::Environments::Directories`,
//! `Puppet::Settings::EnvironmentConf`, `Puppet::Node::Environment`):
//!
//! - [`crate::Options::modulepath`], when given, is the whole list (as
//!   Puppet's `--modulepath`): environment.conf is not read.
//! - Otherwise, when the environment's directory exists, its
//!   `environment.conf` `modulepath` setting if it has one, else
//!   `<environment>/modules` followed by [`crate::Options::basemodulepath`].
//!   The setting is read as Puppet reads it ([`environment_conf_modulepath`]):
//!   split at `:`; entries not starting with `$` are taken relative to the
//!   environment's directory (`..` resolved by name, `~` and `~/` are
//!   `$HOME`); an entry with a wildcard (`*?[{`) is replaced by what
//!   `Dir.glob` finds, in its sorted order; then `$basemodulepath` (and
//!   `${basemodulepath}`) becomes the base directories joined with `:`, and
//!   `$environment` stays as it is (Puppet refuses to interpolate it there);
//!   the result is split at `:` again.
//! - Without the environment's directory: the base directories (the
//!   oracle's empty environment; real Puppet refuses such an environment).
//!
//! Where libhiera differs, deliberately:
//! - Any other `$setting` (`$codedir`, `$run_mode`, ...) is an error:
//!   libhiera does not know Puppet's other settings (pass the modulepath
//!   explicitly instead). So is `~user`.
//! - An empty entry after interpolation (`$basemodulepath:modules` without
//!   base directories) is dropped; Puppet would take it as its working
//!   directory.
//! - `PUPPETLIB` (which Puppet puts in front of every modulepath) is not
//!   read: a library takes its configuration from its caller.
//!
//! Relative entries of [`crate::Options::modulepath`] and
//! [`crate::Options::basemodulepath`] are taken from the working directory
//! when the configuration is opened, as Puppet's settings are.
//!
//! Module directories: only names that are module names
//! ([`is_module_name`]) are modules, as `Puppet::Module.is_module_directory_name?`
//! says; anything else in a modulepath directory (a file, `BadName`,
//! `my-mod`) is skipped.

use crate::error::{Error, ErrorKind, Result};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

/// Whether `name` names a module directory: `^[a-z][a-z0-9_]*$`.
pub fn is_module_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    matches!(bytes.next(), Some(b'a'..=b'z'))
        && bytes.all(|c| matches!(c, b'a'..=b'z' | b'0'..=b'9' | b'_'))
}

/// Ruby's `File.expand_path(path, base)` without `~`: `path` joined to
/// `base` (an absolute directory) unless absolute, `.`, `..` and repeated
/// `/` resolved by name.
pub fn expand_path(path: &Path, base: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        base.join(path)
    };
    let mut out = PathBuf::from("/");
    for c in joined.components() {
        match c {
            Component::Normal(n) => out.push(n),
            Component::ParentDir => {
                out.pop();
            }
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    out
}

/// The working directory, for relative paths in the options.
pub(crate) fn working_directory() -> Result<PathBuf> {
    std::env::current_dir().map_err(|e| {
        Error::new(
            ErrorKind::InvalidArgument,
            format!("the working directory: {e}"),
        )
    })
}

/// The modulepath of a configuration (see the module documentation).
/// `explicit` and `base` are absolute; `env_dir` is the environment's
/// directory when it exists; `cwd` resolves what is still relative after
/// interpolation.
pub(crate) fn resolve(
    explicit: Option<&[PathBuf]>,
    base: &[PathBuf],
    env_dir: Option<&Path>,
    cwd: &Path,
) -> Result<Vec<PathBuf>> {
    if let Some(list) = explicit {
        return Ok(list.to_vec());
    }
    let Some(env_dir) = env_dir else {
        return Ok(base.to_vec());
    };
    let conf = env_dir.join("environment.conf");
    let setting = match read_environment_conf(&conf)? {
        Some(text) => environment_conf_modulepath(&text, &conf)?,
        None => None,
    };
    // EnvironmentConf#modulepath: each entry made absolute (unless it starts
    // with `$`) and globbed, then joined.
    let entries: Vec<Vec<u8>> = match &setting {
        Some(value) => ruby_split(value.as_bytes())
            .into_iter()
            .map(|p| {
                if p.starts_with(b"$") {
                    Ok(p.to_vec())
                } else {
                    conf_entry(p, env_dir, &conf)
                }
            })
            .collect::<Result<_>>()?,
        None => std::iter::once(env_dir.join("modules"))
            .chain(base.iter().cloned())
            .map(|p| p.into_os_string().into_encoded_bytes())
            .collect(),
    };
    let mut parts = Vec::new();
    for e in entries {
        if e.iter().any(|b| matches!(b, b'*' | b'?' | b'[' | b'{')) {
            let pattern = String::from_utf8_lossy(&e);
            let found = crate::hiera5::glob::expand_all(&pattern)
                .map_err(|g| conf_error(&conf, None, g.message))?;
            parts.extend(
                found
                    .into_iter()
                    .map(|p| p.into_os_string().into_encoded_bytes()),
            );
        } else {
            parts.push(e);
        }
    }
    let joined = parts.join(&b':');
    // The settings' interpolation, then Puppet's path setting and
    // Environment.create: split, each entry from the working directory.
    let interpolated = interpolate(&joined, base, &conf)?;
    Ok(ruby_split(&interpolated)
        .into_iter()
        .filter(|p| !p.is_empty())
        .map(|p| expand_path(Path::new(OsStr::from_bytes(p)), cwd))
        .collect())
}

/// A relative environment.conf entry made absolute, as Puppet's
/// `File.expand_path(entry, environment_dir)`.
fn conf_entry(entry: &[u8], env_dir: &Path, conf: &Path) -> Result<Vec<u8>> {
    let path = Path::new(OsStr::from_bytes(entry));
    let path = match entry.strip_prefix(b"~") {
        Some(rest) if rest.is_empty() || rest.starts_with(b"/") => {
            let home = std::env::var_os("HOME").filter(|h| Path::new(h).is_absolute());
            let home = home.ok_or_else(|| {
                conf_error(
                    conf,
                    None,
                    "couldn't find HOME environment -- expanding '~'".into(),
                )
            })?;
            expand_path(
                Path::new(OsStr::from_bytes(rest.strip_prefix(b"/").unwrap_or(rest))),
                Path::new(&home),
            )
        }
        Some(_) => {
            let shown = String::from_utf8_lossy(entry);
            return Err(conf_error(
                conf,
                None,
                format!("modulepath entry '{shown}': libhiera does not expand ~user"),
            ));
        }
        None => expand_path(path, env_dir),
    };
    Ok(path.into_os_string().into_encoded_bytes())
}

/// Puppet's settings interpolation of `$name` and `${name}` in the joined
/// modulepath: `basemodulepath` is known, `environment` stays as written.
fn interpolate(s: &[u8], base: &[PathBuf], conf: &Path) -> Result<Vec<u8>> {
    let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] != b'$' {
            out.push(s[i]);
            i += 1;
            continue;
        }
        let bare = s[i + 1..].iter().take_while(|b| word(b)).count();
        let (name, end) = if bare > 0 {
            (&s[i + 1..i + 1 + bare], i + 1 + bare)
        } else if s.get(i + 1) == Some(&b'{') {
            let n = s[i + 2..].iter().take_while(|b| word(b)).count();
            if n > 0 && s.get(i + 2 + n) == Some(&b'}') {
                (&s[i + 2..i + 2 + n], i + 3 + n)
            } else {
                out.push(b'$');
                i += 1;
                continue;
            }
        } else {
            out.push(b'$');
            i += 1;
            continue;
        };
        match name {
            b"basemodulepath" => {
                let dirs: Vec<&[u8]> = base.iter().map(|p| p.as_os_str().as_bytes()).collect();
                out.extend_from_slice(&dirs.join(&b':'));
            }
            b"environment" => out.extend_from_slice(&s[i..end]),
            _ => {
                let expr = String::from_utf8_lossy(&s[i..end]);
                return Err(conf_error(
                    conf,
                    None,
                    format!(
                        "Error converting value for param 'modulepath': Could not find value for {expr} \
                         (libhiera knows only $basemodulepath there; give the modulepath explicitly)"
                    ),
                ));
            }
        }
        i = end;
    }
    Ok(out)
}

/// Ruby's `String#split(':')`: empty fields kept, except trailing ones.
fn ruby_split(s: &[u8]) -> Vec<&[u8]> {
    let mut v: Vec<&[u8]> = s.split(|&b| b == b':').collect();
    while v.last().is_some_and(|e| e.is_empty()) {
        v.pop();
    }
    v
}

fn conf_error(conf: &Path, line: Option<usize>, message: String) -> Error {
    let at = match line {
        Some(n) => format!(" (file: {}, line: {n})", conf.display()),
        None => format!(" (file: {})", conf.display()),
    };
    Error {
        kind: ErrorKind::Config,
        message: format!("{message}{at}"),
        file: Some(conf.to_path_buf()),
        line,
    }
}

/// Ruby's `\s` (ASCII).
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
}

/// Onigmo's `[[:word:]]`, near enough.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// A setting's value in an environment.conf, as Puppet's settings parser
/// gives it: `true` and `false` (any case) are booleans, anything else is
/// text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfValue {
    /// `true` or `false`.
    Bool(bool),
    /// Any other value (quotes and a file options group removed).
    Text(String),
}

/// The `modulepath` setting of an environment.conf (see
/// [`environment_conf_setting`]); a boolean is an error. `Ok(None)`: there
/// is no such setting.
pub fn environment_conf_modulepath(text: &str, conf: &Path) -> Result<Option<String>> {
    match environment_conf_setting(text, conf, "modulepath")? {
        None => Ok(None),
        Some((ConfValue::Text(v), _)) => Ok(Some(v)),
        Some((ConfValue::Bool(_), line)) => Err(conf_error(
            conf,
            Some(line),
            "modulepath must be a list of directories, not a boolean".into(),
        )),
    }
}

/// The text of an environment.conf (`conf`), or `None` when there is no
/// such file; a file Puppet cannot read (or not UTF-8) is an error naming
/// it.
pub fn read_environment_conf(conf: &Path) -> Result<Option<String>> {
    let bytes = match std::fs::read(conf) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(Error {
                kind: ErrorKind::Io,
                message: format!("{}: {e}", conf.display()),
                file: Some(conf.to_path_buf()),
                line: None,
            })
        }
    };
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| conf_error(conf, None, "invalid byte sequence in UTF-8".into()))
}

/// The setting `name` of an environment.conf, and its line, read as
/// Puppet's settings parser reads the file (`Puppet::Settings::IniFile`,
/// `ConfigFile`, `ValueTranslator`): `name = value` lines, `[section]`
/// lines, comments (`#`) and blank lines; any other line is an error.
/// Values lose one leading and one trailing quote and trailing blanks;
/// `true` and `false` are booleans; a `{owner=..., group=..., mode=...}`
/// group is removed and any other `{...}` is an error (in every setting of
/// every section). The first `name` of the main section (before any
/// section, or in `[main]`) counts; other sections are ignored, as Puppet
/// ignores them (with a warning). `Ok(None)`: there is no such setting.
pub fn environment_conf_setting(
    text: &str,
    conf: &Path,
    name: &str,
) -> Result<Option<(ConfValue, usize)>> {
    let mut section_is_main = true;
    let mut found = None;
    for (n, raw) in text.split_inclusive('\n').enumerate() {
        let line = raw.strip_suffix('\n').unwrap_or(raw);
        let line = line.strip_suffix('\r').unwrap_or(line);
        let body = line.trim_start_matches(is_space);
        // `^(\s*)\[([[:word:]]+)\](\s*)$`
        if let Some(rest) = body.strip_prefix('[') {
            let rest = rest.trim_end_matches(is_space);
            if let Some(section) = rest
                .strip_suffix(']')
                .filter(|n| !n.is_empty() && n.chars().all(is_word))
            {
                section_is_main = section == "main";
                continue;
            }
        }
        // `^(\s*)([[:word:]]+)(\s*=\s*)(.*?)(\s*)$`
        let name_len: usize = body
            .chars()
            .take_while(|c| is_word(*c))
            .map(char::len_utf8)
            .sum();
        let after = body[name_len..].trim_start_matches(is_space);
        if name_len > 0 && after.starts_with('=') {
            let setting = &body[..name_len];
            let value = after[1..]
                .trim_start_matches(is_space)
                .trim_end_matches(is_space);
            let value = setting_value(value).map_err(|m| conf_error(conf, Some(n + 1), m))?;
            if section_is_main && setting == name && found.is_none() {
                found = Some((value, n + 1));
            }
            continue;
        }
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        return Err(conf_error(
            conf,
            Some(n + 1),
            format!("Could not match line {line}"),
        ));
    }
    Ok(found)
}

/// A setting's value as Puppet's `ValueTranslator` and
/// `ConfigFile#extract_fileinfo` leave it.
fn setting_value(value: &str) -> std::result::Result<ConfValue, String> {
    if value.eq_ignore_ascii_case("true") || value.eq_ignore_ascii_case("false") {
        return Ok(ConfValue::Bool(value.eq_ignore_ascii_case("true")));
    }
    let v = value.strip_prefix(['"', '\'']).unwrap_or(value);
    let v = v
        .strip_suffix(['"', '\''])
        .unwrap_or(v)
        .trim_end_matches(is_space);
    // `\{\s*([^}]+)\s*\}`: the first `{` with at least one character before
    // the next `}`.
    let mut group = None;
    for (i, _) in v.match_indices('{') {
        if let Some(len) = v[i + 1..].find('}').filter(|&len| len > 0) {
            group = Some((i, i + 1 + len + 1));
            break;
        }
    }
    let Some((start, end)) = group else {
        return Ok(ConfValue::Text(v.to_string()));
    };
    let inner = &v[start + 1..end - 1];
    // `\s*` before the group takes what `[^}]+` can spare.
    let params = match inner.trim_start_matches(is_space) {
        "" => &inner[inner.len() - 1..],
        p => p,
    };
    // `params.split(/\s*,\s*/)`: the blanks around each comma go with it;
    // trailing empty pieces are dropped.
    let mut items = Vec::new();
    let mut from = 0;
    for (comma, _) in params.match_indices(',') {
        let piece = params[from..comma].trim_end_matches(is_space);
        items.push(piece);
        from = comma
            + 1
            + (params[comma + 1..].len() - params[comma + 1..].trim_start_matches(is_space).len());
    }
    items.push(&params[from.min(params.len())..]);
    while items.last().is_some_and(|s| s.is_empty()) {
        items.pop();
    }
    let items: Vec<&str> = items
        .into_iter()
        .map(|s| s.trim_matches(is_space))
        .collect();
    for item in items {
        let (param, val) = item
            .split_once('=')
            .map(|(p, v)| (p.trim_end_matches(is_space), v.trim_start_matches(is_space)))
            .unwrap_or(("", ""));
        let ascii_word =
            |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if !ascii_word(param) || !ascii_word(val) {
            return Err(format!("Could not parse '{v}'"));
        }
        if !matches!(param, "owner" | "group" | "mode") {
            return Err(format!("Invalid file option '{param}'"));
        }
        if param == "mode" && !val.bytes().all(|b| b.is_ascii_digit()) {
            return Err("File modes must be numbers".into());
        }
    }
    let rest = format!("{}{}", &v[..start], &v[end..]);
    Ok(ConfValue::Text(rest.trim_end_matches(is_space).to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conf(text: &str) -> std::result::Result<Option<String>, String> {
        environment_conf_modulepath(text, Path::new("/e/environment.conf")).map_err(|e| e.message)
    }

    #[test]
    fn module_names() {
        for ok in ["a", "ntp", "ok_2", "a_b_c9"] {
            assert!(is_module_name(ok), "{ok}");
        }
        for bad in ["", "BadName", "2fast", "my-mod", "_x", "a.b", "é", "a b"] {
            assert!(!is_module_name(bad), "{bad}");
        }
    }

    #[test]
    fn expand_path_is_rubys() {
        let base = Path::new("/env/production");
        assert_eq!(
            expand_path(Path::new("modules"), base),
            PathBuf::from("/env/production/modules")
        );
        assert_eq!(
            expand_path(Path::new("../../shared/"), base),
            PathBuf::from("/shared")
        );
        assert_eq!(
            expand_path(Path::new("./a//b/."), base),
            PathBuf::from("/env/production/a/b")
        );
        assert_eq!(
            expand_path(Path::new("/x/../../y"), base),
            PathBuf::from("/y")
        );
        assert_eq!(
            expand_path(Path::new(""), base),
            PathBuf::from("/env/production")
        );
    }

    #[test]
    fn environment_conf_lines() {
        assert_eq!(conf(""), Ok(None));
        assert_eq!(conf("manifest = site.pp\n"), Ok(None));
        assert_eq!(
            conf("modulepath = site:modules:$basemodulepath\n"),
            Ok(Some("site:modules:$basemodulepath".into()))
        );
        // Blanks around the name, the `=` and the value; CRLF.
        assert_eq!(conf("  modulepath=a:b   \r\n"), Ok(Some("a:b".into())));
        assert_eq!(conf("modulepath =\n"), Ok(Some("".into())));
        // Quotes: one at each end, independently.
        assert_eq!(conf("modulepath = \"a:b\"\n"), Ok(Some("a:b".into())));
        assert_eq!(conf("modulepath = 'a:b\n"), Ok(Some("a:b".into())));
        assert_eq!(conf("modulepath = \"\"a\"\"\n"), Ok(Some("\"a\"".into())));
        // The first modulepath of the main section counts.
        assert_eq!(
            conf("modulepath = a\nmodulepath = b\n"),
            Ok(Some("a".into()))
        );
        assert_eq!(
            conf("[agent]\nmodulepath = a\n[main]\nmodulepath = b\n"),
            Ok(Some("b".into()))
        );
        assert_eq!(conf("[main]\n[user]\nmodulepath = a\n"), Ok(None));
        assert_eq!(
            conf("  [main]  \n# c\n  # c\n\n \t\nmodulepath = m # not a comment\n"),
            Ok(Some("m # not a comment".into()))
        );
        // Lines Puppet cannot read.
        assert_eq!(
            conf("# c\nfoo bar\n"),
            Err("Could not match line foo bar (file: /e/environment.conf, line: 2)".into())
        );
        assert!(conf("[ma in]\n").is_err());
        assert!(conf("mod-path = x\n").is_err());
        assert!(conf("\u{feff}modulepath = x\n").is_err());
        // Booleans.
        assert_eq!(conf("modulepath = TRUE\n"), Err("modulepath must be a list of directories, not a boolean (file: /e/environment.conf, line: 1)".into()));
        assert_eq!(
            conf("static_catalogs = false\nmodulepath = a\n"),
            Ok(Some("a".into()))
        );
    }

    #[test]
    fn environment_conf_file_options() {
        assert_eq!(
            conf("modulepath = modules {mode=644}\n"),
            Ok(Some("modules".into()))
        );
        assert_eq!(
            conf("modulepath = a{ owner = root , group=wheel }:b\n"),
            Ok(Some("a:b".into()))
        );
        assert_eq!(conf("modulepath = a{}:b\n"), Ok(Some("a{}:b".into())));
        assert_eq!(conf("modulepath = a{mode=1,}\n"), Ok(Some("a".into())));
        assert_eq!(conf("modulepath = a{ , }\n"), Ok(Some("a".into())));
        assert_eq!(conf("modulepath = a{ owner=x ,}b\n"), Ok(Some("ab".into())));
        assert_eq!(conf("modulepath = a{mode=1}{x}\n"), Ok(Some("a{x}".into())));
        assert!(conf("modulepath = a{owner=x , , group=y}\n").is_err());
        assert_eq!(
            conf("modulepath = a,{ }b\n"),
            Err("Could not parse 'a,{ }b' (file: /e/environment.conf, line: 1)".into())
        );
        let e = conf("modulepath = modules:${basemodulepath}\n").unwrap_err();
        assert_eq!(
            e,
            "Could not parse 'modules:${basemodulepath}' (file: /e/environment.conf, line: 1)"
        );
        assert!(conf("modulepath = a {size=1}\n")
            .unwrap_err()
            .starts_with("Invalid file option 'size'"));
        assert!(conf("modulepath = a {mode=rw}\n")
            .unwrap_err()
            .starts_with("File modes must be numbers"));
        // Any setting, any section.
        assert!(conf("[agent]\nmanifest = {x}\nmodulepath = a\n")
            .unwrap_err()
            .starts_with("Could not parse '{x}'"));
    }

    #[test]
    fn interpolation() {
        let base = [PathBuf::from("/b1"), PathBuf::from("/b2")];
        let c = Path::new("/e/environment.conf");
        let i = |s: &str| {
            interpolate(s.as_bytes(), &base, c)
                .map(|v| String::from_utf8(v).unwrap())
                .map_err(|e| e.message)
        };
        assert_eq!(i("/e/m:$basemodulepath"), Ok("/e/m:/b1:/b2".into()));
        assert_eq!(i("${basemodulepath}/x"), Ok("/b1:/b2/x".into()));
        assert_eq!(
            i("$environment/x:$/y:${}:$"),
            Ok("$environment/x:$/y:${}:$".into())
        );
        assert_eq!(i("$basemodulepathx"), Err("Error converting value for param 'modulepath': Could not find value for $basemodulepathx (libhiera knows only $basemodulepath there; give the modulepath explicitly) (file: /e/environment.conf)".into()));
        assert!(i("$codedir/modules").is_err());
        assert_eq!(interpolate(b"a:$basemodulepath", &[], c).unwrap(), b"a:");
    }

    #[test]
    fn splits_as_ruby() {
        assert_eq!(ruby_split(b""), Vec::<&[u8]>::new());
        assert_eq!(ruby_split(b"a::b::"), vec![&b"a"[..], b"", b"b"]);
        assert_eq!(ruby_split(b":a"), vec![&b""[..], b"a"]);
    }

    /// A scratch tree (directories end with `/`), removed when dropped.
    struct Tree(PathBuf);

    impl Drop for Tree {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn tree(tag: &str, files: &[&str]) -> Tree {
        let dir = Tree(
            std::env::temp_dir().join(format!("libhiera-modulepath-{tag}-{}", std::process::id())),
        );
        let _ = std::fs::remove_dir_all(&dir.0);
        for f in files {
            let p = dir.0.join(f);
            if f.ends_with('/') {
                std::fs::create_dir_all(&p).unwrap();
            } else {
                std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                std::fs::write(&p, "").unwrap();
            }
        }
        dir
    }

    #[test]
    fn resolved_modulepaths() {
        let t = tree(
            "resolve",
            &[
                "env/site/",
                "env/teams/b/",
                "env/teams/a/",
                "env/teams/file",
            ],
        );
        let root = t.0.as_path();
        let env = root.join("env");
        let base = vec![root.join("b1"), root.join("b2")];
        let cwd = Path::new("/cwd");
        let resolve_with = |conf: Option<&str>| {
            match conf {
                Some(text) => std::fs::write(env.join("environment.conf"), text).unwrap(),
                None => {
                    let _ = std::fs::remove_file(env.join("environment.conf"));
                }
            }
            resolve(None, &base, Some(&env), cwd).map_err(|e| e.message)
        };
        // No environment.conf, or one without modulepath: modules, then base.
        assert_eq!(
            resolve_with(None),
            Ok(vec![env.join("modules"), root.join("b1"), root.join("b2")])
        );
        assert_eq!(
            resolve_with(Some("manifest = x.pp\n")),
            Ok(vec![env.join("modules"), root.join("b1"), root.join("b2")])
        );
        assert_eq!(
            resolve_with(Some("modulepath = site:modules:$basemodulepath\n")),
            Ok(vec![
                env.join("site"),
                env.join("modules"),
                root.join("b1"),
                root.join("b2")
            ])
        );
        assert_eq!(
            resolve_with(Some("modulepath = $basemodulepath:../shared\n")),
            Ok(vec![root.join("b1"), root.join("b2"), root.join("shared")])
        );
        // An empty entry is the environment's directory (Ruby's expand_path of "").
        assert_eq!(
            resolve_with(Some("modulepath = site::modules\n")),
            Ok(vec![env.join("site"), env.clone(), env.join("modules")])
        );
        assert_eq!(resolve_with(Some("modulepath =\n")), Ok(vec![]));
        // Globs: sorted, files too (they hold no modules), no match is nothing.
        assert_eq!(
            resolve_with(Some("modulepath = teams/*:none/*:modules\n")),
            Ok(vec![
                env.join("teams/a"),
                env.join("teams/b"),
                env.join("teams/file"),
                env.join("modules")
            ])
        );
        // $environment stays, and is then relative to the working directory.
        assert_eq!(
            resolve_with(Some("modulepath = $environment/m\n")),
            Ok(vec![PathBuf::from("/cwd/$environment/m")])
        );
        assert!(resolve_with(Some("modulepath = $codedir/modules\n"))
            .unwrap_err()
            .contains("Could not find value for $codedir"));
        assert!(resolve_with(Some("modulepath = ~nobody/m\n"))
            .unwrap_err()
            .contains("~user"));
        // Explicit: the whole list; no environment directory: the base.
        let explicit = [PathBuf::from("/x")];
        assert_eq!(
            resolve(Some(&explicit), &base, Some(&env), cwd).unwrap(),
            explicit.to_vec()
        );
        assert_eq!(resolve(None, &base, None, cwd).unwrap(), base);
        // Without base directories, `$basemodulepath` leaves nothing behind.
        std::fs::write(
            env.join("environment.conf"),
            "modulepath = $basemodulepath:modules\n",
        )
        .unwrap();
        assert_eq!(
            resolve(None, &[], Some(&env), cwd).unwrap(),
            vec![env.join("modules")]
        );
    }
}
