//! Work on every core: the nodes of a fleet shared by worker threads, each
//! result handed back to the calling thread as soon as it is ready.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::sync_channel;

/// How many worker threads to run: the number of cores (at least one).
pub fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs `work` on every item of `items` on `threads` threads, and calls
/// `sink` in the calling thread with each result as it is ready (in the
/// order they finish, not the order of `items`). Results wait in a bounded
/// channel, so at most a few per thread are held at once however many
/// items there are. Returns when every item is done.
pub fn run<T, R>(
    items: &[T],
    threads: usize,
    work: impl Fn(&T) -> R + Sync,
    mut sink: impl FnMut(R),
) where
    T: Sync,
    R: Send,
{
    let next = AtomicUsize::new(0);
    let threads = threads.clamp(1, items.len().max(1));
    let (tx, rx) = sync_channel::<R>(threads * 4);
    std::thread::scope(|s| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, work) = (&next, &work);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                if tx.send(work(item)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for r in rx {
            sink(r);
        }
    });
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_item_once_on_many_threads() {
        let items: Vec<u64> = (0..1000).collect();
        let mut got = Vec::new();
        super::run(&items, 3, |i| i * 2, |r| got.push(r));
        got.sort_unstable();
        assert_eq!(got, items.iter().map(|i| i * 2).collect::<Vec<_>>());
        let mut none = 0;
        super::run(&[] as &[u64], 4, |i| *i, |_| none += 1);
        assert_eq!(none, 0);
    }
}
