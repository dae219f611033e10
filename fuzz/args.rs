//! The command line of the soak runner.

use crate::targets::Target;
use std::path::PathBuf;

/// The usage text.
pub const USAGE: &str = "usage: soak --target yaml|json|config|interpolation|request|repo|mutate|all \
--seed N --seconds S [--start N] [--inputs N] [--findings DIR] [--stack BYTES] [--memory-mib MIB] [--timeout-secs S]";

/// Parsed arguments.
#[derive(Clone, Debug)]
pub struct Args {
    /// The targets to run, in order (`all` is every target).
    pub targets: Vec<Target>,
    /// The run's seed.
    pub seed: u64,
    /// How long to run (for `all`: in total, shared evenly).
    pub seconds: f64,
    /// The first input index to run (to reproduce one input: `--start N --inputs 1`).
    pub start: u64,
    /// The most inputs to run per target (`None`: until the time is up).
    pub inputs: Option<u64>,
    /// Where findings are written.
    pub findings: PathBuf,
    /// The stack size of the thread each input runs on.
    pub stack: usize,
    /// The worker's address-space limit (RLIMIT_AS), in MiB (0: none).
    pub memory_mib: u64,
    /// The longest one input may run before the worker is killed.
    pub timeout_secs: f64,
    /// Worker mode (internal): run inputs `start..end` until `deadline_ms`.
    pub worker: Option<WorkerArgs>,
}

/// What the supervisor tells a worker child (internal arguments).
#[derive(Clone, Copy, Debug)]
pub struct WorkerArgs {
    /// The first index to run.
    pub start: u64,
    /// One past the last index to run.
    pub end: u64,
    /// When to stop, in milliseconds since the Unix epoch.
    pub deadline_ms: u64,
}

fn value<T: std::str::FromStr>(name: &str, v: Option<String>) -> Result<T, String> {
    let v = v.ok_or_else(|| format!("{name} needs a value"))?;
    v.parse().map_err(|_| format!("bad value for {name}: {v}"))
}

/// Parses `std::env::args()` (without the program name).
pub fn parse(mut it: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut a = Args {
        targets: Vec::new(),
        seed: 0,
        seconds: 10.0,
        start: 0,
        inputs: None,
        findings: PathBuf::from("findings"),
        stack: 512 * 1024,
        memory_mib: 2048,
        timeout_secs: 10.0,
        worker: None,
    };
    let mut worker: Option<WorkerArgs> = None;
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--target" => {
                let t: String = value(&flag, it.next())?;
                a.targets = if t == "all" {
                    Target::ALL.to_vec()
                } else {
                    vec![Target::from_name(&t).ok_or_else(|| format!("unknown target '{t}'"))?]
                };
            }
            "--seed" => a.seed = value(&flag, it.next())?,
            "--seconds" => a.seconds = value(&flag, it.next())?,
            "--start" => a.start = value(&flag, it.next())?,
            "--inputs" => a.inputs = Some(value(&flag, it.next())?),
            "--findings" => a.findings = PathBuf::from(value::<String>(&flag, it.next())?),
            "--stack" => a.stack = value(&flag, it.next())?,
            "--memory-mib" => a.memory_mib = value(&flag, it.next())?,
            "--timeout-secs" => a.timeout_secs = value(&flag, it.next())?,
            "--worker" => {
                let start = value(&flag, it.next())?;
                let end = value(&flag, it.next())?;
                let deadline_ms = value(&flag, it.next())?;
                worker = Some(WorkerArgs {
                    start,
                    end,
                    deadline_ms,
                });
            }
            "-h" | "--help" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown argument '{other}'\n{USAGE}")),
        }
    }
    if a.targets.is_empty() {
        return Err(format!("--target is required\n{USAGE}"));
    }
    a.worker = worker;
    Ok(a)
}

impl Args {
    /// The arguments that make a child run `target` as a worker.
    pub fn worker_command_line(&self, target: Target, w: WorkerArgs) -> Vec<String> {
        vec![
            "--target".into(),
            target.name().into(),
            "--seed".into(),
            self.seed.to_string(),
            "--stack".into(),
            self.stack.to_string(),
            "--worker".into(),
            w.start.to_string(),
            w.end.to_string(),
            w.deadline_ms.to_string(),
        ]
    }
}
