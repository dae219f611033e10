//! Work on every core: the nodes of a fleet shared by worker threads, each
//! result handed back to the calling thread as soon as it is ready.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::sync_channel;

/// How many worker threads to run: the number of cores (at least one).
pub fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs `work` on every item of `items` on `threads` threads, and calls
/// `sink` in the calling thread with each result as it is ready (in the
/// order they finish, not the order of `items`). Results wait in a bounded
/// channel, so at most a few per thread are held at once however many
/// items there are. Returns when every item is done, or soon after `sink`
/// returns `false` (no new item is started; results already made are dropped).
pub fn run<T, R>(
    items: &[T],
    threads: usize,
    work: impl Fn(&T) -> R + Sync,
    mut sink: impl FnMut(R) -> bool,
) where
    T: Sync,
    R: Send,
{
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let threads = threads.clamp(1, items.len().max(1));
    let (tx, rx) = sync_channel::<R>(threads * 4);
    std::thread::scope(|s| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, work, stop) = (&next, &work, &stop);
            s.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                if tx.send(work(item)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for r in rx.iter() {
            if !sink(r) {
                stop.store(true, Ordering::Relaxed);
                // Drained (and dropped) so that no worker waits on a full channel.
                for _ in rx.iter() {}
                break;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_item_once_on_many_threads() {
        let items: Vec<u64> = (0..1000).collect();
        let mut got = Vec::new();
        super::run(
            &items,
            3,
            |i| i * 2,
            |r| {
                got.push(r);
                true
            },
        );
        got.sort_unstable();
        assert_eq!(got, items.iter().map(|i| i * 2).collect::<Vec<_>>());
        let mut none = 0;
        super::run(
            &[] as &[u64],
            4,
            |i| *i,
            |_| {
                none += 1;
                true
            },
        );
        assert_eq!(none, 0);
        // Stopped by the sink: far fewer items done than there are.
        let done = std::sync::atomic::AtomicUsize::new(0);
        let many: Vec<u64> = (0..100_000).collect();
        let mut seen = 0;
        super::run(
            &many,
            2,
            |i| {
                done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                *i
            },
            |_| {
                seen += 1;
                seen < 5
            },
        );
        assert_eq!(seen, 5);
        assert!(done.into_inner() < 1_000);
    }
}
