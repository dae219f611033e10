//! Where the data cache's bytes go (issue 18): loads every YAML data file of
//! a corpus into a new `Hiera`'s file cache, as `compare_rust`'s memory line
//! does, and prints the live heap by allocation size.
//!
//! ```text
//! cache_bytes CORPUS_DIR [--top N]
//! CENSUS=1 cache_bytes CORPUS_DIR     # and what the values are: Hashes by size, keys
//! ```
//!
//! The counts are of requested bytes (what `compare_rust` reports), not of
//! the allocator's chunks; they do not depend on the machine's load. A
//! second line estimates what glibc's malloc takes for them (header and
//! rounding per allocation), which the requested bytes leave out.

#[path = "corpus_dir.rs"]
#[allow(dead_code)]
mod corpus_dir;

use hiera::data::DataFormat;
use hiera::Hiera;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};

struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static LIVE: AtomicIsize = AtomicIsize::new(0);
/// Live allocations and bytes by size: sizes 0..SMALL one by one, larger
/// ones in one bucket per power of two.
const SMALL: usize = 1024;
const BUCKETS: usize = SMALL + 64;
static COUNT: [AtomicIsize; BUCKETS] = [const { AtomicIsize::new(0) }; BUCKETS];
static BYTES: [AtomicIsize; BUCKETS] = [const { AtomicIsize::new(0) }; BUCKETS];

fn bucket(size: usize) -> usize {
    if size < SMALL {
        size
    } else {
        SMALL + (usize::BITS - size.leading_zeros()) as usize
    }
}

fn note(size: usize, sign: isize) {
    if COUNTING.load(Ordering::Relaxed) {
        LIVE.fetch_add(sign * size as isize, Ordering::Relaxed);
        let b = bucket(size);
        COUNT[b].fetch_add(sign, Ordering::Relaxed);
        BYTES[b].fetch_add(sign * size as isize, Ordering::Relaxed);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size(), 1);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note(layout.size(), -1);
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(layout.size(), -1);
        note(new_size, 1);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = std::path::absolute(
        args.next()
            .expect("usage: cache_bytes CORPUS_DIR [--top N]"),
    )
    .expect("corpus path");
    let top: usize = match (args.next().as_deref(), args.next()) {
        (Some("--top"), Some(n)) => n.parse().expect("--top N"),
        _ => 25,
    };
    let files = corpus_dir::data_files(&dir);
    let yaml: u64 = files
        .iter()
        .map(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0))
        .sum();
    COUNTING.store(true, Ordering::SeqCst);
    let h = Hiera::open(corpus_dir::options(&dir)).expect("open");
    let opened = LIVE.load(Ordering::SeqCst);
    for p in &files {
        let _ = h.cache().data(p, DataFormat::Yaml);
    }
    // A session starts as a service's next compile would: what the file
    // watcher kept only for the loads (its memo of resolved directories)
    // is let go; what it keeps to watch the files stays counted.
    let h = std::sync::Arc::new(h);
    drop(hiera::Session::new(
        std::sync::Arc::clone(&h),
        hiera::Map::default(),
    ));
    COUNTING.store(false, Ordering::SeqCst);
    let heap = LIVE.load(Ordering::SeqCst) - opened;
    println!(
        "{}: {} files, {} bytes of YAML, cache {} bytes ({:.2}x), {:.0} bytes per file",
        dir.display(),
        files.len(),
        yaml,
        heap,
        heap as f64 / yaml as f64,
        heap as f64 / files.len() as f64
    );
    let mut rows: Vec<(isize, isize, String)> = (0..BUCKETS)
        .map(|b| {
            let label = if b < SMALL {
                format!("{b}")
            } else {
                format!("<2^{}", b - SMALL)
            };
            (
                BYTES[b].load(Ordering::SeqCst),
                COUNT[b].load(Ordering::SeqCst),
                label,
            )
        })
        .filter(|r| r.1 != 0)
        .collect();
    // What glibc's malloc (x86_64) takes for these requests: each chunk
    // 8 bytes of header, rounded up to 16, at least 32 (the sizes past
    // SMALL are known only as a total: 16 bytes each counted for them).
    let chunks: isize = (0..BUCKETS)
        .map(|b| {
            let count = COUNT[b].load(Ordering::SeqCst);
            if b < SMALL {
                count * ((b as isize + 8 + 15) & !15).max(32)
            } else {
                BYTES[b].load(Ordering::SeqCst) + 16 * count
            }
        })
        .sum();
    println!(
        "glibc malloc chunks (estimated from the sizes): {} bytes ({:.2}x), {} allocations",
        chunks,
        chunks as f64 / yaml as f64,
        COUNT
            .iter()
            .map(|c| c.load(Ordering::SeqCst))
            .sum::<isize>()
    );
    rows.sort_by_key(|r| std::cmp::Reverse(r.0));
    println!(
        "{:>10} {:>8} {:>10} {:>6}",
        "size", "live", "bytes", "share"
    );
    for (bytes, count, label) in rows.iter().take(top) {
        println!(
            "{label:>10} {count:>8} {bytes:>10} {:>5.1}%",
            100.0 * *bytes as f64 / heap as f64
        );
    }
    // The census (CENSUS=1): the cached documents walked after the count
    // (each shared container once): Hashes by size, entries, Arrays, keys.
    if std::env::var_os("CENSUS").is_some() {
        use std::collections::{HashMap, HashSet};
        let mut seen: HashSet<usize> = HashSet::new();
        let mut sizes: HashMap<usize, usize> = HashMap::new();
        let mut keys: HashMap<String, usize> = HashMap::new();
        let (mut hashes, mut entries, mut arrays, mut inline_keys, mut nonstr) = (0, 0, 0, 0, 0);
        // Entries of maps of at most 8 (the Small form) and their distinct keys.
        let mut small_entries = 0;
        let mut small_keys: HashSet<String> = HashSet::new();
        let mut stack: Vec<hiera::Value> = Vec::new();
        for p in &files {
            if let Ok(Some(d)) = h.cache().data(p, DataFormat::Yaml) {
                stack.push(hiera::Value::Hash(d));
            }
        }
        while let Some(v) = stack.pop() {
            match v {
                hiera::Value::Hash(m) => {
                    if !m.is_empty() && !seen.insert(m.addr()) {
                        continue;
                    }
                    hashes += 1;
                    entries += m.len();
                    *sizes.entry(m.len().min(9)).or_default() += 1;
                    if m.len() <= 8 {
                        small_entries += m.len();
                        small_keys.extend(m.keys().filter_map(|k| k.as_str()).map(String::from));
                    }
                    for (k, v) in m.iter() {
                        match k.as_str() {
                            Some(s) => {
                                if s.len() <= 15 {
                                    inline_keys += 1;
                                }
                                *keys.entry(s.to_string()).or_default() += 1;
                            }
                            None => nonstr += 1,
                        }
                        stack.push(v.clone());
                    }
                }
                hiera::Value::Array(a) => {
                    if !a.is_empty() && !seen.insert(a.addr()) {
                        continue;
                    }
                    arrays += 1;
                    for v in a.iter() {
                        stack.push(v.clone());
                    }
                }
                _ => {}
            }
        }
        let mut s: Vec<_> = sizes.into_iter().collect();
        s.sort();
        let inline_distinct = keys.keys().filter(|k| k.len() <= 15).count();
        println!("census: {hashes} hashes, {entries} entries, {arrays} arrays, {} distinct keys ({inline_distinct} inline), {inline_keys} inline key uses, {nonstr} non-string keys; in maps of at most 8: {small_entries} entries, {} distinct keys; sizes {s:?}", keys.len(), small_keys.len());
    }
    drop(h);
}
