//! Corpus shapes (issue 18): how a generated control repo departs from
//! issue 7's, so that the benchmarks run on repos they were not tuned on.
//!
//! [`Shape::default`] is issue 7's corpus, byte for byte (the options only
//! draw from their own random streams, and only when they differ from the
//! default). A shape is given by a preset name ([`Shape::preset`]) and/or
//! `name=value` options ([`Shape::set`]), as `hiera-corpus --shape` takes
//! them: `--shape deep`, `--shape wide,misses=0.5`.

/// How a corpus is shaped. Every factor multiplies issue 7's figure at the
/// same scale; every share is of the workload's automatic parameter lookups.
#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    /// The preset it started from (`default` when none).
    pub name: String,
    /// Levels of the environment's hierarchy, 1 to 16 (10: issue 7's). Below
    /// 10 the less common levels are left out (common, node, role, OS family
    /// and datacenter stay longest); above 10, levels keyed on teams and
    /// applications are added before common.
    pub env_levels: usize,
    /// Modules with data (factor, 1.0: 50 at scale 1).
    pub modules: f64,
    /// Levels of each module's hierarchy, 1 to 4 (2: OS family, common;
    /// 3 adds OS release; 4 adds role).
    pub module_levels: usize,
    /// Keys per data file (factor on the heavy-tailed distribution).
    pub file_keys: f64,
    /// Keys of the environment's common.yaml (factor, 1.0: 750).
    pub common_keys: f64,
    /// Hosts of the fleet with node files, the many small files (factor,
    /// 1.0: 900).
    pub node_files: f64,
    /// Share of automatic parameter lookups replaced by parameters no file
    /// defines (searched through every layer).
    pub misses: f64,
    /// Share replaced by dotted keys (copies of the workload's own).
    pub dotted: f64,
    /// Share replaced by merges (copies of the workload's unique, hash,
    /// deep and knockout merges).
    pub merges: f64,
    /// Share replaced by keys whose values are interpolated.
    pub interpolated: f64,
}

impl Default for Shape {
    fn default() -> Shape {
        Shape {
            name: "default".into(),
            env_levels: 10,
            modules: 1.0,
            module_levels: 2,
            file_keys: 1.0,
            common_keys: 1.0,
            node_files: 1.0,
            misses: 0.0,
            dotted: 0.0,
            merges: 0.0,
            interpolated: 0.0,
        }
    }
}

/// The presets and what each one is.
pub const PRESETS: [(&str, &str); 4] = [
    ("default", "issue 7's corpus: 10 levels, 50 modules with 2 levels, 750-key common.yaml"),
    (
        "flat",
        "4 levels, a large common.yaml (4x) and large files (3x), 20 modules, half the lookups missing",
    ),
    (
        "deep",
        "16 levels, many small files (3x node files, half the keys per file), 100 modules with 4 levels, \
         more dotted keys, merges and interpolation",
    ),
    (
        "modular",
        "6 levels, 150 modules with 3 levels, most lookups automatic parameters of modules and missing",
    ),
];

impl Shape {
    /// A named preset (see [`PRESETS`]).
    pub fn preset(name: &str) -> Result<Shape, String> {
        let base = Shape {
            name: name.to_string(),
            ..Shape::default()
        };
        Ok(match name {
            "default" => base,
            "flat" => Shape {
                env_levels: 4,
                modules: 0.4,
                module_levels: 1,
                file_keys: 3.0,
                common_keys: 4.0,
                node_files: 0.5,
                misses: 0.3,
                ..base
            },
            "deep" => Shape {
                env_levels: 16,
                modules: 2.0,
                module_levels: 4,
                file_keys: 0.5,
                node_files: 3.0,
                dotted: 0.1,
                merges: 0.05,
                interpolated: 0.1,
                ..base
            },
            "modular" => Shape {
                env_levels: 6,
                modules: 3.0,
                module_levels: 3,
                common_keys: 0.5,
                misses: 0.4,
                ..base
            },
            other => {
                let names: Vec<&str> = PRESETS.iter().map(|(n, _)| *n).collect();
                return Err(format!(
                    "unknown shape '{other}' (presets: {})",
                    names.join(", ")
                ));
            }
        })
    }

    /// Parses `--shape`'s text: an optional preset first, then
    /// `name=value` options, comma-separated.
    pub fn parse(text: &str) -> Result<Shape, String> {
        let mut shape = Shape::default();
        for (i, part) in text.split(',').map(str::trim).enumerate() {
            match part.split_once('=') {
                None if i == 0 => shape = Shape::preset(part)?,
                None => return Err(format!("shape option '{part}' needs a value (name=value)")),
                Some((k, v)) => shape.set(k.trim(), v.trim())?,
            }
        }
        Ok(shape)
    }

    /// Sets one option by name.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let num = |lo: f64, hi: f64| -> Result<f64, String> {
            value
                .parse::<f64>()
                .ok()
                .filter(|x| (lo..=hi).contains(x))
                .ok_or_else(|| {
                    format!("shape option {name}={value}: expected a number from {lo} to {hi}")
                })
        };
        let int = |lo: usize, hi: usize| -> Result<usize, String> {
            value
                .parse::<usize>()
                .ok()
                .filter(|x| (lo..=hi).contains(x))
                .ok_or_else(|| {
                    format!("shape option {name}={value}: expected an integer from {lo} to {hi}")
                })
        };
        match name {
            "env_levels" => self.env_levels = int(1, 16)?,
            "modules" => self.modules = num(0.02, 20.0)?,
            "module_levels" => self.module_levels = int(1, 4)?,
            "file_keys" => self.file_keys = num(0.05, 20.0)?,
            "common_keys" => self.common_keys = num(0.01, 40.0)?,
            "node_files" => self.node_files = num(0.0, 20.0)?,
            "misses" => self.misses = num(0.0, 1.0)?,
            "dotted" => self.dotted = num(0.0, 1.0)?,
            "merges" => self.merges = num(0.0, 1.0)?,
            "interpolated" => self.interpolated = num(0.0, 1.0)?,
            _ => {
                return Err(format!(
                    "unknown shape option '{name}' (env_levels, modules, module_levels, file_keys, \
                     common_keys, node_files, misses, dotted, merges, interpolated)"
                ))
            }
        }
        if self.misses + self.dotted + self.merges + self.interpolated > 1.0 {
            return Err("shape options misses + dotted + merges + interpolated exceed 1".into());
        }
        Ok(())
    }

    /// Keys for a file that issue 7's distribution gave `n`.
    pub fn file_keys(&self, n: usize) -> usize {
        if self.file_keys == 1.0 {
            n
        } else {
            ((n as f64 * self.file_keys).round() as usize).max(1)
        }
    }

    /// The shape as `name=value` options, for corpus.json.
    pub fn describe(&self) -> String {
        format!(
            "{}: env_levels={},modules={},module_levels={},file_keys={},common_keys={},node_files={},\
             misses={},dotted={},merges={},interpolated={}",
            self.name,
            self.env_levels,
            self.modules,
            self.module_levels,
            self.file_keys,
            self.common_keys,
            self.node_files,
            self.misses,
            self.dotted,
            self.merges,
            self.interpolated
        )
    }
}

/// The environment's levels, in hierarchy order, each with the data
/// directories (relative to the datadir) that hold its files.
pub const ENV_LEVEL_DIRS: [&[&str]; 10] = [
    &["nodes/"],
    &["roles/*/"],
    &["roles/"],
    &["datacenters/*/"],
    &["datacenters/"],
    &["os/*/"],
    &["os/"],
    &["teams/", "apps/"],
    &["networks/"],
    &["common.yaml"],
];

/// Which of issue 7's ten levels stay when a hierarchy has `n` of them
/// (indexes into [`ENV_LEVEL_DIRS`], in hierarchy order).
pub fn kept_levels(n: usize) -> Vec<usize> {
    // Longest kept first: common, node, role, OS family, datacenter, ...
    const PRIORITY: [usize; 10] = [9, 0, 2, 6, 4, 1, 5, 7, 8, 3];
    let mut kept: Vec<usize> = PRIORITY[..n.min(10)].to_vec();
    kept.sort_unstable();
    kept
}

/// Whether a data file (path relative to the datadir) belongs to level
/// `level` of [`ENV_LEVEL_DIRS`].
pub fn in_level(rel: &str, level: usize) -> bool {
    ENV_LEVEL_DIRS[level]
        .iter()
        .any(|d| match d.strip_suffix("*/") {
            // a file one directory below `d`
            Some(dir) => rel
                .strip_prefix(dir)
                .is_some_and(|rest| rest.matches('/').count() == 1),
            None if d.ends_with('/') => rel.strip_prefix(d).is_some_and(|rest| !rest.contains('/')),
            None => rel == *d,
        })
}

#[cfg(test)]
mod tests {
    // Unused where this file is compiled as part of a bench.
    #[allow(unused_imports)]
    use super::*;

    #[test]
    fn levels_are_told_apart() {
        assert!(in_level("roles/web/prod.yaml", 1));
        assert!(!in_level("roles/web.yaml", 1));
        assert!(in_level("roles/web.yaml", 2));
        assert!(in_level("common.yaml", 9));
        assert!(in_level("apps/x.yaml", 7));
        assert_eq!(kept_levels(4), vec![0, 2, 6, 9]);
        assert_eq!(kept_levels(10), (0..10).collect::<Vec<_>>());
    }

    #[test]
    fn parses_options() {
        let s = Shape::parse("deep,misses=0.2").unwrap();
        assert_eq!(s.env_levels, 16);
        assert_eq!(s.misses, 0.2);
        assert!(Shape::parse("nope").is_err());
        assert!(Shape::parse("default,env_levels=40").is_err());
        assert!(Shape::parse("misses=0.9,dotted=0.5").is_err());
        assert_eq!(Shape::parse("default").unwrap(), Shape::default());
    }
}
