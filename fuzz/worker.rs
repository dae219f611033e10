//! The worker child: runs inputs one after another, each on a fresh thread
//! with the stack size a host thread may have, and tells the supervisor on
//! stdout which index it is starting (`start N`), and `done` at the end.

use crate::args::WorkerArgs;
use crate::targets::{Target, Verdict};
use std::io::Write;

/// The exit status of a worker whose input panicked (the panic reached the
/// worker: the library let it escape).
pub const EXIT_PANIC: i32 = 70;
/// The exit status of a worker whose input got `HIERA_PANIC` from the C ABI
/// (a panic was caught at the boundary: a bug all the same).
pub const EXIT_PANIC_STATUS: i32 = 71;

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// The scratch directory a worker writes its inputs to: in memory
/// (/dev/shm) when there is one, since every input writes its files.
pub fn scratch_dir(pid: u32) -> std::path::PathBuf {
    let shm = std::path::Path::new("/dev/shm");
    let base = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    base.join(format!("libhiera-soak-{pid}"))
}

/// Runs inputs `w.start..w.end` of `target` until `w.deadline_ms`, then exits.
pub fn run(target: Target, seed: u64, stack: usize, w: WorkerArgs) -> ! {
    let scratch = scratch_dir(std::process::id());
    let mut out = std::io::stdout().lock();
    for index in w.start..w.end {
        if now_ms() >= w.deadline_ms {
            break;
        }
        let _ = writeln!(out, "start {index}");
        let _ = out.flush();
        // Generated here, on the main thread: the small stack is the
        // library's to use.
        let input = target.generate(seed, index);
        let dir = scratch.clone();
        let handle = std::thread::Builder::new()
            .name(format!("input-{index}"))
            .stack_size(stack)
            .spawn(move || target.run(&input, &dir))
            .unwrap_or_else(|e| {
                eprintln!("soak worker: cannot spawn an input thread: {e}");
                std::process::exit(2)
            });
        match handle.join() {
            Ok(Verdict::Ok) => {}
            Ok(Verdict::PanicStatus(call)) => {
                eprintln!("soak worker: {call} returned HIERA_PANIC");
                std::process::exit(EXIT_PANIC_STATUS);
            }
            Err(_) => std::process::exit(EXIT_PANIC),
        }
    }
    let _ = writeln!(out, "done");
    let _ = out.flush();
    let _ = std::fs::remove_dir_all(&scratch);
    std::process::exit(0)
}
