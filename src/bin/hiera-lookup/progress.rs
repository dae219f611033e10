//! The progress bar of a fleet run: on stderr, only when stderr is a
//! terminal (nodes done, rate, time left); nothing at all otherwise.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// A progress bar over `total` nodes, drawn at most ten times a second.
pub struct Progress {
    total: usize,
    done: usize,
    start: Instant,
    last: Option<Instant>,
    enabled: bool,
}

impl Progress {
    /// A bar for `total` nodes, drawn only if stderr is a terminal.
    pub fn new(total: usize) -> Progress {
        Progress {
            total,
            done: 0,
            start: Instant::now(),
            last: None,
            enabled: std::io::stderr().is_terminal(),
        }
    }

    /// One more node done.
    pub fn tick(&mut self) {
        self.done += 1;
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        if self.done < self.total
            && self
                .last
                .is_some_and(|t| now.duration_since(t) < Duration::from_millis(100))
        {
            return;
        }
        self.last = Some(now);
        let line = status_line(self.done, self.total, now.duration_since(self.start));
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r{line}\x1b[K");
        let _ = err.flush();
    }

    /// Ends the bar's line (when one was drawn).
    pub fn finish(&mut self) {
        if self.enabled && self.last.is_some() {
            let _ = writeln!(std::io::stderr());
        }
    }
}

/// `[=====>    ] 1200/10000 nodes  850/s  ETA 10s`.
fn status_line(done: usize, total: usize, elapsed: Duration) -> String {
    const WIDTH: usize = 30;
    let filled = (done * WIDTH)
        .checked_div(total)
        .unwrap_or(WIDTH)
        .min(WIDTH);
    let mut bar = "=".repeat(filled);
    if filled < WIDTH {
        bar.push('>');
        bar.push_str(&" ".repeat(WIDTH - filled - 1));
    }
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 { done as f64 / secs } else { 0.0 };
    let eta = if rate > 0.0 {
        format!("{:.0}s", (total.saturating_sub(done)) as f64 / rate)
    } else {
        "?".into()
    };
    format!("[{bar}] {done}/{total} nodes  {rate:.0}/s  ETA {eta}")
}

#[cfg(test)]
mod tests {
    use super::status_line;
    use std::time::Duration;

    #[test]
    fn line_shows_count_rate_and_time_left() {
        let l = status_line(250, 1000, Duration::from_secs(5));
        assert!(l.contains("250/1000 nodes"), "{l}");
        assert!(l.contains("50/s"), "{l}");
        assert!(l.contains("ETA 15s"), "{l}");
        assert!(status_line(0, 0, Duration::ZERO).contains("0/0 nodes"));
    }
}
