//! The supervising parent: runs worker children, watches which input each
//! one is on, kills one that runs an input too long, and records every
//! child that dies as a finding.

use crate::args::{Args, WorkerArgs};
use crate::findings::{self, Finding, Kind};
use crate::targets::Target;
use crate::worker::{self, now_ms};
use std::collections::BTreeMap;
use std::io::BufRead;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What one target's run did.
pub struct Summary {
    /// The target.
    pub target: Target,
    /// Inputs started (including those that were findings).
    pub executed: u64,
    /// Wall time of the run.
    pub elapsed: Duration,
    /// Findings, by kind.
    pub findings: BTreeMap<Kind, u64>,
}

impl Summary {
    /// The number of findings.
    pub fn total_findings(&self) -> u64 {
        self.findings.values().sum()
    }

    /// The summary line.
    pub fn line(&self) -> String {
        let secs = self.elapsed.as_secs_f64();
        let kinds: Vec<String> = Kind::ALL
            .iter()
            .map(|k| {
                format!(
                    "{}={}",
                    k.name(),
                    self.findings.get(k).copied().unwrap_or(0)
                )
            })
            .collect();
        format!(
            "soak: target={} inputs={} secs={:.1} execs/s={:.1} findings={} ({})",
            self.target.name(),
            self.executed,
            secs,
            self.executed as f64 / secs.max(1e-9),
            self.total_findings(),
            kinds.join(" ")
        )
    }
}

/// How a worker child ended.
enum Ended {
    /// It was killed because its input ran past the time limit.
    Timeout,
    /// It exited by itself.
    Exited(ExitStatus),
}

/// Runs `target` for `seconds` (and at most `--inputs` inputs).
pub fn run(args: &Args, target: Target, seconds: f64) -> Result<Summary, String> {
    let began = Instant::now();
    let deadline_ms = now_ms() + (seconds * 1000.0) as u64;
    let end = args
        .inputs
        .map_or(u64::MAX, |n| args.start.saturating_add(n));
    let timeout = Duration::from_secs_f64(args.timeout_secs);
    let stderr_path =
        std::env::temp_dir().join(format!("libhiera-soak-stderr-{}", std::process::id()));
    let mut summary = Summary {
        target,
        executed: 0,
        elapsed: Duration::ZERO,
        findings: BTreeMap::new(),
    };
    let mut next = args.start;
    while next < end && now_ms() < deadline_ms {
        let w = WorkerArgs {
            start: next,
            end,
            deadline_ms,
        };
        let mut child = spawn(args, target, w, &stderr_path)?;
        let (current, ended) = watch(&mut child, timeout, &mut summary.executed)?;
        let _ = std::fs::remove_dir_all(worker::scratch_dir(child.id()));
        let stderr = std::fs::read(&stderr_path).unwrap_or_default();
        let kind = match &ended {
            Ended::Exited(status) if status.success() => break,
            Ended::Exited(status) => classify(*status, &stderr),
            Ended::Timeout => (
                Kind::Timeout,
                format!("killed after {:.0} s on one input", args.timeout_secs),
            ),
        };
        let Some(index) = current else {
            return Err(format!(
                "the worker ended ({}) before starting an input:\n{}",
                kind.1,
                String::from_utf8_lossy(&stderr)
            ));
        };
        let finding = Finding {
            target,
            seed: args.seed,
            index,
            kind: kind.0,
            what: kind.1,
            stderr_tail: tail(&stderr),
        };
        let dir = findings::record(&args.findings, &finding)
            .map_err(|e| format!("cannot write the finding: {e}"))?;
        eprintln!("soak: FINDING {} -> {}", finding.line(), dir.display());
        *summary.findings.entry(finding.kind).or_default() += 1;
        next = index + 1;
    }
    let _ = std::fs::remove_file(&stderr_path);
    summary.elapsed = began.elapsed();
    Ok(summary)
}

/// Starts a worker child under the memory limit, its stderr going to
/// `stderr_path`.
fn spawn(
    args: &Args,
    target: Target,
    w: WorkerArgs,
    stderr_path: &std::path::Path,
) -> Result<Child, String> {
    let exe =
        std::env::current_exe().map_err(|e| format!("cannot find the soak executable: {e}"))?;
    let stderr = std::fs::File::create(stderr_path)
        .map_err(|e| format!("cannot create {}: {e}", stderr_path.display()))?;
    let mut cmd = Command::new(exe);
    cmd.args(args.worker_command_line(target, w))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr);
    if args.memory_mib > 0 {
        let bytes = (args.memory_mib << 20) as libc::rlim_t;
        // SAFETY: the closure runs in the forked child before exec and only
        // calls setrlimit (async-signal-safe) on a stack value; it allocates
        // nothing.
        unsafe {
            cmd.pre_exec(move || {
                let limit = libc::rlimit {
                    rlim_cur: bytes,
                    rlim_max: bytes,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    cmd.spawn()
        .map_err(|e| format!("cannot start a worker: {e}"))
}

/// Follows a child's `start N` lines until it ends or overruns the time
/// limit on one input. Returns the index it was on and how it ended.
fn watch(
    child: &mut Child,
    timeout: Duration,
    executed: &mut u64,
) -> Result<(Option<u64>, Ended), String> {
    let stdout = child.stdout.take().ok_or("the worker has no stdout")?;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut current = None;
    let mut started = Instant::now();
    loop {
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(line) => {
                if let Some(n) = line.strip_prefix("start ") {
                    current = Some(n.parse().map_err(|_| format!("bad worker line '{line}'"))?);
                    started = Instant::now();
                    *executed += 1;
                } else if line == "done" {
                    current = None;
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if current.is_some() && started.elapsed() > timeout {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Ok((current, Ended::Timeout));
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                let status = child
                    .wait()
                    .map_err(|e| format!("cannot wait for the worker: {e}"))?;
                return Ok((current, Ended::Exited(status)));
            }
        }
    }
}

/// What a child's exit status (and stderr) says happened.
fn classify(status: ExitStatus, stderr: &[u8]) -> (Kind, String) {
    let text = String::from_utf8_lossy(stderr);
    if text.contains("has overflowed its stack") {
        return (
            Kind::StackOverflow,
            "stack overflow (the thread overflowed its stack)".into(),
        );
    }
    if let Some(line) = text.lines().find(|l| l.starts_with("memory allocation of")) {
        return (Kind::OutOfMemory, format!("abort: {line}"));
    }
    match (status.signal(), status.code()) {
        (Some(libc::SIGABRT), _) => (Kind::Abort, "killed by SIGABRT".into()),
        (Some(sig), _) => (
            Kind::Signal,
            format!(
                "killed by signal {sig}{}",
                if status.core_dumped() {
                    " (core dumped)"
                } else {
                    ""
                }
            ),
        ),
        (None, Some(worker::EXIT_PANIC)) => (Kind::Panic, "a panic escaped the library".into()),
        (None, Some(worker::EXIT_PANIC_STATUS)) => {
            (Kind::PanicStatus, "the C ABI returned HIERA_PANIC".into())
        }
        (None, code) => (Kind::Exit, format!("exited with status {code:?}")),
    }
}

/// The last lines of a child's stderr.
fn tail(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.lines().collect();
    let mut t = lines[lines.len().saturating_sub(30)..].join("\n");
    if t.len() > 8000 {
        let mut cut = t.len() - 8000;
        while !t.is_char_boundary(cut) {
            cut += 1;
        }
        t = t.split_off(cut);
    }
    t
}
