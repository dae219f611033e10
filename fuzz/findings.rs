//! Findings: what kind of failure a dead worker was, and how it is saved
//! (the regenerated input's files, a README, and a line in the index).

use crate::targets::Target;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The kinds of findings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// Killed by a signal other than SIGABRT (e.g. SIGSEGV).
    Signal,
    /// Aborted (SIGABRT) for a reason other than the two below.
    Abort,
    /// A thread overflowed its stack (Rust's handler then aborts).
    StackOverflow,
    /// An allocation failed under the memory limit (then aborts).
    OutOfMemory,
    /// One input ran past the time limit.
    Timeout,
    /// A panic escaped the library into the worker.
    Panic,
    /// The C ABI caught a panic and returned `HIERA_PANIC`.
    PanicStatus,
    /// The worker exited with an unexpected status.
    Exit,
}

impl Kind {
    /// Every kind, in summary order.
    pub const ALL: [Kind; 8] = [
        Kind::Signal,
        Kind::Abort,
        Kind::StackOverflow,
        Kind::OutOfMemory,
        Kind::Timeout,
        Kind::Panic,
        Kind::PanicStatus,
        Kind::Exit,
    ];

    /// The kind's name in summaries and READMEs.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Signal => "signal",
            Kind::Abort => "abort",
            Kind::StackOverflow => "stack-overflow",
            Kind::OutOfMemory => "oom",
            Kind::Timeout => "timeout",
            Kind::Panic => "panic",
            Kind::PanicStatus => "panic-status",
            Kind::Exit => "exit",
        }
    }
}

/// One finding.
pub struct Finding {
    /// The target.
    pub target: Target,
    /// The run's seed.
    pub seed: u64,
    /// The input's index.
    pub index: u64,
    /// What kind of failure.
    pub kind: Kind,
    /// What happened, in words.
    pub what: String,
    /// The end of the worker's stderr.
    pub stderr_tail: String,
}

impl Finding {
    /// The finding's one-line description.
    pub fn line(&self) -> String {
        format!(
            "{} target={} seed={} index={}: {}",
            self.kind.name(),
            self.target.name(),
            self.seed,
            self.index,
            self.what
        )
    }
}

/// Saves a finding under `root`: `root/<target>-<seed>-<index>/` holds the
/// regenerated input under `input/` and a README.md; `root/README.md` gets
/// one line. Returns the finding's directory.
pub fn record(root: &Path, f: &Finding) -> std::io::Result<PathBuf> {
    let dir = root.join(format!("{}-{}-{}", f.target.name(), f.seed, f.index));
    let input = f.target.generate(f.seed, f.index);
    input.write_to(&dir.join("input"))?;
    let readme = format!(
        "# {}\n\ninput: {}\n\nreproduce: `target/release/examples/soak --target {} --seed {} --start {} --inputs 1 --seconds 60` \
         (the input's files are in `input/`)\n\n## stderr (tail)\n\n```\n{}\n```\n",
        f.line(),
        input.note,
        f.target.name(),
        f.seed,
        f.index,
        f.stderr_tail
    );
    std::fs::write(dir.join("README.md"), readme)?;
    let mut index = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(root.join("README.md"))?;
    writeln!(
        index,
        "- {} ({}) -> {}/",
        f.line(),
        input.note,
        dir.file_name().unwrap_or_default().to_string_lossy()
    )?;
    Ok(dir)
}
