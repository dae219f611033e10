//! Files changing under load: one [`Hiera`] shared by eight reader threads,
//! each looking keys up in fresh [`Session`]s, while a writer thread keeps
//! changing the repository for a few seconds: data files rewritten
//! atomically (a temporary file renamed over) and in place (truncated and
//! written again, mostly at the same size, where the modification time's
//! granularity can hide a change), deleted and re-created, replaced by a
//! directory and back; the global hiera.yaml rewritten, atomically and in
//! place, switching between two hierarchies.
//!
//! Every version written is recognisable: a data file's keys carry its
//! version number (`a_version` first, `a_payload`, a String of several
//! pages whose every word names the version and its position, and
//! `a_check` last), and the two hierarchies name marker files at their
//! first and last level (`hv_first`, `hv_last`), with pages of comments
//! between them. `b.json` is large (2.4 MB, mostly blank lines between its
//! payload and its check, which JSON parses fast): reading it takes long
//! enough for a rewrite to overtake the read. An answer is right when it is
//! - a value of one version written (and, within one session, the same
//!   version for every key of one file, and the same hierarchy);
//! - for an in-place rewrite, what the file held at one instant: nothing
//!   (just truncated: no data in YAML, so not found; a parse error in
//!   JSON), or a prefix, which for these files (YAML flow mappings and JSON
//!   objects) is a parse error, or for hiera.yaml a shorter hierarchy (its
//!   last marker not found);
//! - not found (a deleted file, a hierarchy cut short) or a clean `Err`.
//!
//! A value mixed from two versions of one file (pages of one version and
//! pages of the next, read while the file was rewritten) is wrong, and so
//! is a panic. The test counts each kind of answer and asserts no wrong
//! ones; at the end a fresh session must see the last versions written.
//!
//! `FILES_CHANGING_SECS` (default 5) sets how long the writer runs, and
//! `FILES_CHANGING_DIR` where the repository is made (default: the
//! temporary directory).

use hiera::{ErrorKind, Hiera, Map, Options, Session, Value};
use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The data files the writer changes: name and extension (the hierarchy
/// reads `.json` with `json_data`, `.yaml` with `yaml_data`).
const FILES: [(&str, &str); 3] = [("a", "yaml"), ("b", "json"), ("c", "yaml")];

/// The number of payload words of a version: mostly the same (the
/// in-place rewrites of consecutive versions are then the same size).
/// 15 bytes a word: seven or eight pages.
fn payload_len(version: u64) -> usize {
    if version % 5 == 0 {
        2_080
    } else {
        2_000
    }
}

/// A data file's text at `version`: one flow mapping (valid YAML and JSON),
/// so that any proper prefix of it but the empty one is a parse error.
/// The JSON file has 30,000 blank lines before its last key.
fn data_text(name: &str, version: u64) -> String {
    use std::fmt::Write;
    let mut s = format!("{{\"{name}_version\": \"{version:06}\", \"{name}_payload\": \"");
    for i in 0..payload_len(version) {
        if i > 0 {
            s.push(' ');
        }
        write!(s, "{name}-{version:06}-{i:05}").unwrap();
    }
    s.push_str("\",\n");
    if name == "b" {
        let blank = format!("{}\n", " ".repeat(79));
        s.push_str(&blank.repeat(30_000));
    }
    writeln!(s, "\"{name}_check\": \"{name}-{version:06}\"}}").unwrap();
    s
}

/// The global hiera.yaml naming the marker files of `letter` (A or B),
/// with `pad` lines of comments (about 80 bytes each) between the first
/// and the last level. Both letters give files of the same size.
fn hiera_text(letter: char, pad: usize) -> String {
    let mut s = format!(
        "version: 5\ndefaults:\n  datadir: data\n  data_hash: yaml_data\nhierarchy:\n  - name: first\n    path: hv{letter}_first.yaml\n  - name: a\n    path: a.yaml\n  - name: b\n    path: b.json\n    data_hash: json_data\n  - name: c\n    path: c.yaml\n"
    );
    for i in 0..pad {
        s.push_str(&format!(
            "# {letter} {i:04} {}\n",
            letter.to_string().repeat(70)
        ));
    }
    s.push_str(&format!("  - name: last\n    path: hv{letter}_last.yaml\n"));
    s
}

/// A small deterministic random number generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Writes `text` to `path` by a temporary file renamed over it.
fn write_atomically(path: &Path, text: &str) {
    let tmp = path.with_extension("tmp~");
    fs::write(&tmp, text).unwrap();
    fs::rename(&tmp, path).unwrap();
}

/// Writes `text` over `path` in place: truncated, then written in pieces
/// of 64 KiB (as `cp` and buffered writers do), so that readers meet it half
/// written.
fn write_in_place(path: &Path, text: &str) {
    let mut f = fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(path)
        .unwrap();
    for piece in text.as_bytes().chunks(64 * 1024) {
        f.write_all(piece).unwrap();
    }
}

/// What the writer has written: the newest version of the data files (all
/// versions up to it are possible answers), and whether it is done.
struct Written {
    version: AtomicU64,
    done: AtomicBool,
}

/// The writer: changes the repository (whose data files are at versions
/// `current`) for `run_for` (or a bounded number of operations), then
/// writes a last version of every file in place. Returns the operations
/// made by kind, the last versions, and the last hierarchy's letter.
fn writer(
    root: &Path,
    written: &Written,
    mut current: [u64; 3],
    run_for: Duration,
    seed: u64,
) -> (BTreeMap<&'static str, u64>, [u64; 3], char) {
    let data = root.join("data");
    let mut rng = Rng(seed);
    let mut ops: BTreeMap<&'static str, u64> = BTreeMap::new();
    let mut letter = 'A';
    let started = Instant::now();
    let new_version = |written: &Written, same_size_as: Option<u64>| {
        let mut v = written.version.load(Ordering::SeqCst) + 1;
        if let Some(old) = same_size_as {
            while payload_len(v) != payload_len(old) {
                v += 1;
            }
        }
        // Announced before it is written: readers may see it from now on.
        written.version.store(v, Ordering::SeqCst);
        v
    };
    for _ in 0..200_000 {
        if started.elapsed() >= run_for {
            break;
        }
        let op = rng.below(100);
        // Mostly the large file for same-size rewrites in place.
        let f = if op <= 44 && rng.below(3) != 0 {
            1
        } else {
            rng.below(3) as usize
        };
        let (name, ext) = FILES[f];
        let path = data.join(format!("{name}.{ext}"));
        match op {
            // In place at the same size, several times in a row: the
            // hardest case (a reader still reading one version meets the
            // next).
            0..=44 => {
                for _ in 0..1 + rng.below(12) {
                    let v = new_version(written, Some(current[f]));
                    write_in_place(&path, &data_text(name, v));
                    current[f] = v;
                    *ops.entry("data in place, same size").or_default() += 1;
                }
            }
            45..=54 => {
                let v = new_version(written, None);
                write_in_place(&path, &data_text(name, v));
                current[f] = v;
                *ops.entry("data in place").or_default() += 1;
            }
            55..=69 => {
                let v = new_version(written, None);
                write_atomically(&path, &data_text(name, v));
                current[f] = v;
                *ops.entry("data atomically").or_default() += 1;
            }
            70..=76 => {
                fs::remove_file(&path).unwrap();
                std::thread::sleep(Duration::from_micros(rng.below(300)));
                let v = new_version(written, None);
                write_in_place(&path, &data_text(name, v));
                current[f] = v;
                *ops.entry("data deleted, re-created").or_default() += 1;
            }
            77..=80 => {
                fs::remove_file(&path).unwrap();
                fs::create_dir(&path).unwrap();
                std::thread::sleep(Duration::from_micros(rng.below(500)));
                fs::remove_dir(&path).unwrap();
                let v = new_version(written, None);
                write_atomically(&path, &data_text(name, v));
                current[f] = v;
                *ops.entry("data replaced by a directory and back")
                    .or_default() += 1;
            }
            81..=87 => {
                letter = if letter == 'A' { 'B' } else { 'A' };
                write_atomically(
                    &root.join("hiera.yaml"),
                    &hiera_text(letter, 120 + 20 * rng.below(2) as usize),
                );
                *ops.entry("hiera.yaml atomically").or_default() += 1;
            }
            _ => {
                letter = if letter == 'A' { 'B' } else { 'A' };
                // Mostly the same size (both letters give the same size).
                let pad = if rng.below(4) == 0 { 140 } else { 120 };
                write_in_place(&root.join("hiera.yaml"), &hiera_text(letter, pad));
                *ops.entry("hiera.yaml in place").or_default() += 1;
            }
        }
        if rng.below(8) == 0 {
            std::thread::yield_now();
        }
    }
    // The last versions, written in place at the same size right after the
    // one before: a cache trusting a stamp the rewrite left unchanged would
    // keep serving the one before.
    for (f, (name, ext)) in FILES.iter().enumerate() {
        let path = data.join(format!("{name}.{ext}"));
        for _ in 0..2 {
            let v = new_version(written, Some(current[f]));
            write_in_place(&path, &data_text(name, v));
            current[f] = v;
        }
    }
    letter = if letter == 'A' { 'B' } else { 'A' };
    write_in_place(&root.join("hiera.yaml"), &hiera_text(letter, 120));
    (ops, current, letter)
}

/// The reader's tally.
#[derive(Default)]
struct Tally {
    sessions: u64,
    /// Answers by kind ("found", "not found", "error: parse", ...).
    answers: BTreeMap<String, u64>,
    /// Wrong answers, described (at most a few kept).
    wrong: Vec<String>,
    wrong_count: u64,
}

impl Tally {
    fn count(&mut self, what: impl Into<String>) {
        *self.answers.entry(what.into()).or_default() += 1;
    }

    fn wrong(&mut self, what: String) {
        self.wrong_count += 1;
        if self.wrong.len() < 5 {
            self.wrong.push(what);
        }
    }

    fn merge(&mut self, other: Tally) {
        self.sessions += other.sessions;
        for (k, n) in other.answers {
            *self.answers.entry(k).or_default() += n;
        }
        self.wrong_count += other.wrong_count;
        self.wrong.extend(other.wrong);
        self.wrong.truncate(10);
    }
}

/// A version number as the data files write it ("000123").
fn parse_version(s: &str) -> Option<u64> {
    (s.len() == 6 && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// Checks one answer of the data file `name` for `key` (`version`,
/// `check` or `payload`): `Ok(Some(v))` a right value of version `v`,
/// `Ok(None)` not found or an error, `Err(why)` wrong.
fn check_data(
    name: &str,
    key: &str,
    got: &hiera::Result<Option<Value>>,
    newest: u64,
    tally: &mut Tally,
) -> Result<Option<u64>, String> {
    let value = match got {
        Ok(None) => {
            tally.count("not found");
            return Ok(None);
        }
        Err(e) => {
            tally.count(format!("error: {}", e.kind.as_str()));
            if e.kind == ErrorKind::Io && e.message.contains("changed while") {
                tally.count("error: io, changed while being read");
            }
            return Ok(None);
        }
        Ok(Some(v)) => v,
    };
    tally.count("found");
    let version = match key {
        "version" => value
            .as_str()
            .and_then(parse_version)
            .ok_or_else(|| format!("{name}_version: {value:?}"))?,
        "check" => value
            .as_str()
            .and_then(|s| s.strip_prefix(name)?.strip_prefix('-'))
            .and_then(parse_version)
            .ok_or_else(|| format!("{name}_check: {value:?}"))?,
        _ => {
            let text = value
                .as_str()
                .ok_or_else(|| format!("{name}_payload is not a String"))?;
            let mut items = text.split(' ');
            let first = items.next().unwrap_or("");
            let v = first
                .strip_prefix(name)
                .and_then(|s| s.strip_prefix('-'))
                .and_then(|s| s.get(..6))
                .and_then(parse_version)
                .ok_or_else(|| {
                    format!(
                        "{name}_payload starts with {:?}",
                        &first[..first.len().min(40)]
                    )
                })?;
            let prefix = format!("{name}-{v:06}-");
            let mut n = 0;
            for (i, item) in text.split(' ').enumerate() {
                let index = item
                    .strip_prefix(prefix.as_str())
                    .filter(|s| s.len() == 5)
                    .and_then(|s| s.parse::<usize>().ok());
                if index != Some(i) {
                    return Err(format!(
                        "{name}_payload of version {v} mixed: item {i} is {item:?}"
                    ));
                }
                n += 1;
            }
            if n != payload_len(v) {
                return Err(format!(
                    "{name}_payload of version {v} has {n} items, not {}",
                    payload_len(v)
                ));
            }
            v
        }
    };
    if version > newest {
        return Err(format!(
            "{name}_{key}: version {version} never written (newest {newest})"
        ));
    }
    Ok(Some(version))
}

/// One reader: fresh sessions in a loop until the writer is done.
fn reader(hiera: Arc<Hiera>, written: Arc<Written>, seed: u64) -> Tally {
    let mut rng = Rng(seed);
    let mut tally = Tally::default();
    let mut keys: Vec<(&str, &str)> = Vec::new();
    for (name, _) in FILES {
        for key in ["version", "check", "payload"] {
            keys.push((name, key));
        }
    }
    keys.push(("hv", "first"));
    keys.push(("hv", "last"));
    while !written.done.load(Ordering::SeqCst) {
        let session = Session::new(Arc::clone(&hiera), Map::default());
        tally.sessions += 1;
        // The keys in a random order.
        for i in (1..keys.len()).rev() {
            keys.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut versions: BTreeMap<&str, (u64, &str)> = BTreeMap::new();
        let mut markers: BTreeMap<&str, Option<String>> = BTreeMap::new();
        for &(name, key) in &keys {
            let got = session.lookup_key(&format!("{name}_{key}"));
            let newest = written.version.load(Ordering::SeqCst);
            if name == "hv" {
                match &got {
                    Ok(found) => {
                        tally.count(if found.is_some() {
                            "found"
                        } else {
                            "not found"
                        });
                        let letter = found.as_ref().and_then(|v| v.as_str().map(str::to_string));
                        if found.is_some() && !matches!(letter.as_deref(), Some("A" | "B")) {
                            tally.wrong(format!("hv_{key}: {found:?}"));
                        }
                        markers.insert(key, letter);
                    }
                    Err(e) => tally.count(format!("error: {}", e.kind.as_str())),
                }
                continue;
            }
            match check_data(name, key, &got, newest, &mut tally) {
                Err(why) => tally.wrong(why),
                Ok(None) => {}
                Ok(Some(v)) => {
                    // A session is a snapshot: every key of a file it read
                    // comes from one version.
                    if let Some(&(other, other_key)) = versions.get(name) {
                        if other != v {
                            tally.wrong(format!("one session, {name}: {name}_{other_key} of version {other}, {name}_{key} of version {v}"));
                        }
                    } else {
                        versions.insert(name, (v, key));
                    }
                }
            }
        }
        // One hierarchy per session: its first and last markers agree (a
        // hierarchy cut short, read from a prefix, may lack the last).
        if let (Some(first), Some(last)) = (markers.get("first"), markers.get("last")) {
            match (first, last) {
                (Some(f), Some(l)) if f != l => {
                    tally.wrong(format!("one session, hierarchy {f} first and {l} last"))
                }
                (None, Some(l)) => {
                    tally.wrong(format!("one session, no first marker but last marker {l}"))
                }
                _ => {}
            }
        }
    }
    tally
}

#[test]
fn files_changing_under_load() {
    let base = std::env::var_os("FILES_CHANGING_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    let root = base.join(format!("libhiera-files-changing-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    let data: PathBuf = root.join("data");
    fs::create_dir_all(&data).unwrap();
    for letter in ['A', 'B'] {
        fs::write(
            data.join(format!("hv{letter}_first.yaml")),
            format!("hv_first: {letter}\n"),
        )
        .unwrap();
        fs::write(
            data.join(format!("hv{letter}_last.yaml")),
            format!("hv_last: {letter}\n"),
        )
        .unwrap();
    }
    let written = Arc::new(Written {
        version: AtomicU64::new(0),
        done: AtomicBool::new(false),
    });
    let mut first = [0; 3];
    for (f, (name, ext)) in FILES.iter().enumerate() {
        first[f] = written.version.fetch_add(1, Ordering::SeqCst) + 1;
        fs::write(
            data.join(format!("{name}.{ext}")),
            data_text(name, first[f]),
        )
        .unwrap();
    }
    fs::write(root.join("hiera.yaml"), hiera_text('A', 120)).unwrap();
    let hiera = Arc::new(
        Hiera::open(Options {
            hiera_config: root.join("hiera.yaml"),
            environmentpath: root.join("environments"),
            ..Default::default()
        })
        .unwrap(),
    );

    let secs: f64 = std::env::var("FILES_CHANGING_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5.0);
    let readers: Vec<_> = (0..8u64)
        .map(|i| {
            let (hiera, written) = (Arc::clone(&hiera), Arc::clone(&written));
            std::thread::Builder::new()
                .name(format!("reader {i}"))
                .spawn(move || reader(hiera, written, 0x9e37_79b9_7f4a_7c15 ^ (i + 1)))
                .unwrap()
        })
        .collect();
    let started = Instant::now();
    let writing = {
        let (root, written) = (root.clone(), Arc::clone(&written));
        std::thread::spawn(move || {
            let r = writer(
                &root,
                &written,
                first,
                Duration::from_secs_f64(secs),
                0x5eed,
            );
            written.done.store(true, Ordering::SeqCst);
            r
        })
    };
    let writer_result = writing.join();
    written.done.store(true, Ordering::SeqCst);
    let mut tally = Tally::default();
    let mut panics = 0;
    for r in readers {
        match r.join() {
            Ok(t) => tally.merge(t),
            Err(_) => panics += 1,
        }
    }
    let (ops, last_versions, last_letter) = writer_result.expect("the writer panicked");
    let elapsed = started.elapsed();

    eprintln!(
        "files_changing: {:.1} s, {} sessions, writer operations:",
        elapsed.as_secs_f64(),
        tally.sessions
    );
    for (op, n) in &ops {
        eprintln!("  {op}: {n}");
    }
    eprintln!("answers:");
    for (what, n) in &tally.answers {
        eprintln!("  {what}: {n}");
    }
    eprintln!("wrong answers: {}", tally.wrong_count);
    for w in &tally.wrong {
        eprintln!("  {w}");
    }

    // The state written last is what a fresh session sees.
    let session = Session::new(Arc::clone(&hiera), Map::default());
    let mut stale = Vec::new();
    for ((name, _), v) in FILES.iter().zip(&last_versions) {
        for key in ["version", "check", "payload"] {
            let mut t = Tally::default();
            let got = session.lookup_key(&format!("{name}_{key}"));
            if !matches!(check_data(name, key, &got, *v, &mut t), Ok(Some(x)) if x == *v) {
                stale.push(format!("{name}_{key}: {got:?}"));
            }
        }
    }
    for key in ["hv_first", "hv_last"] {
        let got = session.lookup_key(key);
        if got != Ok(Some(Value::from(last_letter.to_string()))) {
            stale.push(format!("{key}: {got:?}"));
        }
    }
    let _ = fs::remove_dir_all(&root);

    assert_eq!(panics, 0, "reader threads panicked");
    assert_eq!(tally.wrong_count, 0, "wrong answers: {:?}", tally.wrong);
    assert!(
        stale.is_empty(),
        "the last versions are not what a fresh session sees: {stale:?}"
    );
    assert!(tally.sessions >= 100, "only {} sessions", tally.sessions);
    assert!(
        tally.answers.get("found").copied().unwrap_or(0) >= 100,
        "too few values found"
    );
}
