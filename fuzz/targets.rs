//! The targets: each generates an input from (target, seed, index) and
//! runs it through one part of the library.

use crate::input::Input;
use crate::rng::Rng;
use std::path::Path;

/// A fuzz target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The YAML loader (data files, Hiera 3's loader).
    Yaml,
    /// The JSON parser (data files) and the wire decoder.
    Json,
    /// hiera.yaml parsing (v3, v4, v5), then a lookup through it.
    Config,
    /// `%{...}` interpolation in data.
    Interpolation,
    /// The C ABI.
    Request,
    /// Whole lookups on generated control repos.
    Repo,
    /// Mutated conformance cases.
    Mutate,
}

/// What running an input showed, short of a crash or an escaped panic.
pub enum Verdict {
    /// Nothing wrong.
    Ok,
    /// A C ABI call (named) returned `HIERA_PANIC`.
    PanicStatus(String),
}

impl Target {
    /// Every target, in the order `--target all` runs them.
    pub const ALL: [Target; 7] = [
        Target::Yaml,
        Target::Json,
        Target::Config,
        Target::Interpolation,
        Target::Request,
        Target::Repo,
        Target::Mutate,
    ];

    /// The target's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Target::Yaml => "yaml",
            Target::Json => "json",
            Target::Config => "config",
            Target::Interpolation => "interpolation",
            Target::Request => "request",
            Target::Repo => "repo",
            Target::Mutate => "mutate",
        }
    }

    /// The target named `name`.
    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Generates input `index` of the run seeded `seed`.
    pub fn generate(self, seed: u64, index: u64) -> Input {
        let rng = &mut Rng::for_input(self.name(), seed, index);
        match self {
            Target::Yaml => crate::yaml::generate(rng),
            Target::Json => crate::json::generate(rng),
            Target::Config => crate::config::generate(rng),
            Target::Interpolation => crate::interpolation::generate(rng),
            Target::Request => crate::request::generate(rng),
            Target::Repo => crate::repo::generate(rng),
            Target::Mutate => crate::mutate::generate(rng),
        }
    }

    /// Runs an input; `dir` is a scratch directory for its files.
    pub fn run(self, input: &Input, dir: &Path) -> Verdict {
        match self {
            Target::Yaml => crate::yaml::run(input),
            Target::Json => crate::json::run(input),
            Target::Config => crate::config::run(input, dir),
            Target::Interpolation | Target::Repo | Target::Mutate => {
                crate::session::run(input, dir);
                Verdict::Ok
            }
            Target::Request => crate::request::run(input, dir),
        }
    }
}
