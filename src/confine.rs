//! Confinement of file reads ([`crate::Options::confine`]): a hierarchy path
//! holds node data (`nodes/%{trusted.certname}.yaml`, `os/%{facts.os.family}.yaml`),
//! and facts are whatever the node says. A fact holding `../../etc` would
//! make the server read any file it can. With confinement on, the engine
//! reads only data and config files that resolve (`..` and symbolic links
//! followed, as `realpath` does) inside the directories the configuration
//! names:
//!
//! - the environment's directory, each directory of the modulepath (see
//!   [`crate::hiera5::modulepath`]), and each module directory whose hiera.yaml is
//!   read (the directory of the global
//!   hiera.yaml is not one: in a Puppet install it is the confdir, which
//!   holds `ssl/`; only the global hiera.yaml itself and its datadirs are);
//! - each datadir a hiera.yaml names (of every version of it read), as the
//!   engine resolves it: relative to the hiera.yaml's directory (a Hiera 3
//!   configuration's, to the working directory). An interpolated datadir
//!   (`data/%{facts.role}`) counts up to its last `/` before the first
//!   `%{`: what interpolation fills in is not trusted to name a directory;
//! - and each file a hiera.yaml names with a `path` that is not
//!   interpolated (`path: /dev/null`).
//!
//! The roots are resolved at each check (an environment directory that is
//! a symbolic link switched by a deployment is followed). A path that does
//! not exist is resolved as far as it exists, the rest by its names (`..`
//! taking one away), so that a missing file outside is refused too, not
//! reported as missing. A refused file is an error of kind `io`, never
//! skipped as missing: skipping could change answers. The global hiera.yaml
//! itself, which the options name, is never refused.
//!
//! A glob is refused before it is expanded when the part of it before its
//! first wildcard resolves outside, or when `..` appears in the rest; the
//! files it finds are checked as they are read, like any other.
//!
//! The check is made when a file is read (the cache keeps what it read
//! from an allowed path) and whenever a file is found missing; it guards
//! against what facts can do to paths, not against changes to the files
//! and directories themselves between the check and the read.

use crate::error::{Error, ErrorKind, Result};
use crate::hiera5::config::{pathname_join, HieraConfig, LocationSpec};
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

/// The directories reads are confined to.
#[derive(Debug, Default)]
pub struct Confinement {
    /// The global hiera.yaml (never refused).
    global_config: PathBuf,
    /// The roots known so far: the fixed ones first, then those named by
    /// the configurations read (each once).
    roots: Mutex<Vec<PathBuf>>,
    /// Puppet's codedir ([`crate::Options::codedir`]).
    codedir: PathBuf,
}

impl Confinement {
    /// Confinement to `roots` (absolute paths; more come from the
    /// configurations read, see [`Confinement::add_config`]); `global_config`
    /// is the global hiera.yaml.
    pub fn new(global_config: PathBuf, roots: Vec<PathBuf>) -> Confinement {
        Confinement::with_codedir(global_config, roots, PathBuf::from("/etc/puppet/code"))
    }

    /// [`Confinement::new`], with Puppet's `codedir` (what a Hiera 3 global
    /// configuration's default datadir starts with).
    pub fn with_codedir(
        global_config: PathBuf,
        roots: Vec<PathBuf>,
        codedir: PathBuf,
    ) -> Confinement {
        let c = Confinement {
            global_config,
            roots: Mutex::new(Vec::new()),
            codedir,
        };
        for r in roots {
            c.add_root(r);
        }
        c
    }

    fn add_root(&self, root: PathBuf) {
        let mut roots = self.roots.lock().unwrap_or_else(|p| p.into_inner());
        if !roots.contains(&root) {
            roots.push(root);
        }
    }

    /// Adds the directories a configuration names: its own directory (unless
    /// it is the global layer's) and each datadir of its hierarchy and
    /// default hierarchy; and the files it names with a `path` without
    /// interpolation (`path: /dev/null`).
    pub fn add_config(&self, config: &HieraConfig, own_dir: bool) {
        if own_dir {
            self.add_root(config.root.clone());
        }
        for entry in config
            .hierarchy
            .iter()
            .chain(config.default_hierarchy.iter().flatten())
        {
            // The default datadir of a Hiera 3 global configuration starts
            // with the codedir setting.
            let datadir_text = entry
                .datadir
                .strip_prefix("%{::settings::codedir}")
                .map(|rest| format!("{}{rest}", self.codedir.display()))
                .unwrap_or_else(|| entry.datadir.clone());
            let literal = !entry.interpolate_datadir || !datadir_text.contains("%{");
            let datadir = if entry.datadir_from_cwd {
                let fixed = fixed_part(&datadir_text);
                std::path::absolute(if fixed.is_empty() { "." } else { fixed })
                    .unwrap_or_else(|_| PathBuf::from(fixed))
            } else {
                let joined = pathname_join(&config.root, &datadir_text);
                if entry.interpolate_datadir {
                    PathBuf::from(fixed_part(&joined.to_string_lossy()))
                } else {
                    joined
                }
            };
            if let LocationSpec::Paths(paths) = &entry.locations {
                for p in paths
                    .iter()
                    .filter(|p| !p.contains("%{") && (literal || p.starts_with('/')))
                {
                    // As the engine makes the path (the extension of v3 and v4).
                    let mut p = p.clone();
                    if let Some(ext) = entry
                        .extension
                        .as_ref()
                        .filter(|ext| !p.ends_with(ext.as_str()))
                    {
                        p.push_str(ext);
                    }
                    self.add_root(pathname_join(&datadir, &p));
                }
            }
            self.add_root(datadir);
        }
    }

    /// Adds a module's directory (`<modulepath directory>/<name>`), before
    /// its hiera.yaml is read.
    pub fn add_module_dir(&self, dir: &Path) {
        self.add_root(dir.to_path_buf());
    }

    /// `Ok` when `path` may be read: the global hiera.yaml, or a path that
    /// resolves inside one of the roots.
    pub fn check_file(&self, path: &Path) -> Result<()> {
        if path == self.global_config {
            return Ok(());
        }
        let resolved = resolve(path);
        if self.inside(&resolved) {
            return Ok(());
        }
        let shown = if resolved == path {
            format!("'{}'", path.display())
        } else {
            format!(
                "'{}' (which resolves to '{}')",
                path.display(),
                resolved.display()
            )
        };
        Err(Error {
            kind: ErrorKind::Io,
            message: format!("Refusing to read {shown}: it is outside the directories the configuration names (confine is on)"),
            file: Some(path.to_path_buf()),
            line: None,
        })
    }

    /// `Ok` when the glob `pattern` (absolute, as the engine builds it) may
    /// be expanded: its fixed part resolves inside one of the roots, and no
    /// `..` follows its first wildcard.
    pub fn check_glob(&self, pattern: &Path) -> Result<()> {
        let text = pattern.to_string_lossy();
        let first_magic = text.find(['*', '?', '[', '{', '\\']).unwrap_or(text.len());
        let base_end = text[..first_magic].rfind('/').map_or(0, |i| i + 1);
        let (base, rest) = text.split_at(base_end);
        let base = if base.is_empty() {
            Path::new(".")
        } else {
            Path::new(base)
        };
        if !rest.contains("..") && self.inside(&resolve(base)) {
            return Ok(());
        }
        Err(Error {
            kind: ErrorKind::Io,
            message: format!(
                "Refusing to expand the glob '{}': it reaches outside the directories the configuration names (confine is on)",
                pattern.display()
            ),
            file: None,
            line: None,
        })
    }

    /// Whether a resolved path is inside one of the roots (each resolved now).
    fn inside(&self, resolved: &Path) -> bool {
        let roots = self.roots.lock().unwrap_or_else(|p| p.into_inner()).clone();
        roots.iter().any(|root| resolved.starts_with(resolve(root)))
    }
}

/// The part of a path template before its first interpolation, up to its
/// last `/` (all of it when it has none).
fn fixed_part(s: &str) -> &str {
    match s.find("%{") {
        None => s,
        Some(i) => s[..i].rfind('/').map_or("", |j| &s[..=j]),
    }
}

/// `path` made absolute with `..` and symbolic links resolved as far as it
/// exists (`realpath`), the rest by its names: `.` dropped, `..` taking
/// the name before it away.
pub fn resolve(path: &Path) -> PathBuf {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let components: Vec<Component> = abs.components().collect();
    for n in (1..=components.len()).rev() {
        let prefix: PathBuf = components[..n].iter().collect();
        if let Ok(mut resolved) = std::fs::canonicalize(&prefix) {
            for c in &components[n..] {
                match c {
                    Component::ParentDir => {
                        resolved.pop();
                    }
                    Component::CurDir => {}
                    other => resolved.push(other),
                }
            }
            return resolved;
        }
    }
    // Nothing of it exists (not even its root): by its names alone.
    let mut resolved = PathBuf::new();
    for c in components {
        match c {
            Component::ParentDir => {
                resolved.pop();
            }
            Component::CurDir => {}
            other => resolved.push(other),
        }
    }
    resolved
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch_dir(tag: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("libhiera-confine-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::canonicalize(dir).unwrap()
    }

    #[test]
    fn fixed_parts_of_datadirs() {
        assert_eq!(fixed_part("/srv/data"), "/srv/data");
        assert_eq!(fixed_part("/srv/%{environment}/data"), "/srv/");
        assert_eq!(fixed_part("/srv/data_%{facts.role}"), "/srv/");
        assert_eq!(fixed_part("%{facts.base}/data"), "");
        assert_eq!(fixed_part("data/%{x}"), "data/");
    }

    #[test]
    fn paths_resolve_as_far_as_they_exist() {
        let dir = scratch_dir("resolve");
        std::fs::create_dir_all(dir.join("a/b")).unwrap();
        assert_eq!(
            resolve(&dir.join("a/b/../b/./x.yaml")),
            dir.join("a/b/x.yaml")
        );
        assert_eq!(
            resolve(&dir.join("a/missing/../../../x")),
            dir.parent().unwrap().join("x")
        );
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc", dir.join("a/link")).unwrap();
            assert_eq!(
                resolve(&dir.join("a/link/hosts")),
                std::fs::canonicalize("/etc").unwrap().join("hosts")
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn files_and_globs_outside_the_roots_are_refused() {
        let dir = scratch_dir("check");
        std::fs::create_dir_all(dir.join("env/data")).unwrap();
        std::fs::create_dir_all(dir.join("other")).unwrap();
        let c = Confinement::new(dir.join("global/hiera.yaml"), vec![dir.join("env")]);
        assert!(c.check_file(&dir.join("env/data/common.yaml")).is_ok());
        assert!(c.check_file(&dir.join("env/data/missing/x.yaml")).is_ok());
        assert!(c.check_file(&dir.join("global/hiera.yaml")).is_ok());
        let e = c
            .check_file(&dir.join("env/data/../../other/x.yaml"))
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::Io);
        assert_eq!(
            e.message,
            format!(
                "Refusing to read '{}' (which resolves to '{}'): it is outside the directories the configuration names (confine is on)",
                dir.join("env/data/../../other/x.yaml").display(),
                dir.join("other/x.yaml").display()
            )
        );
        // A sibling whose name starts like a root is not inside it.
        assert!(c.check_file(&dir.join("env2/x.yaml")).is_err());
        assert!(c.check_glob(&dir.join("env/data/*.yaml")).is_ok());
        assert!(c.check_glob(&dir.join("env/data/{a,b}/*.yaml")).is_ok());
        assert!(c.check_glob(&dir.join("env/../other/*.yaml")).is_err());
        assert!(c
            .check_glob(&dir.join("env/data/*/../../../other/x.yaml"))
            .is_err());
        assert!(c.check_glob(&dir.join("env/data/{..,x}/y")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
