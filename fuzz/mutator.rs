//! Byte-level mutations: bit flips, byte inserts and deletes, splices,
//! duplicated lines, a chunk repeated many times, inserted deep nesting.

use crate::rng::Rng;

/// The longest a mutated input may grow to.
const MAX_LEN: usize = 1 << 20;

/// Bytes and snippets that mean something to YAML, JSON or interpolation.
const TOKENS: &[&[u8]] = &[
    b"{",
    b"}",
    b"[",
    b"]",
    b":",
    b": ",
    b"- ",
    b",",
    b"&a ",
    b"*a",
    b"<<: ",
    b"!!",
    b"!",
    b"|",
    b">",
    b"#",
    b"'",
    b"\"",
    b"\\",
    b"\n",
    b"\r\n",
    b"\t",
    b" ",
    b"  ",
    b"---\n",
    b"...\n",
    b"?",
    b"%{",
    b"%{lookup('",
    b"')}",
    b"%{alias('",
    b"%{literal('%')}",
    b"%{hiera('",
    b"%{scope('",
    b"%{facts.",
    b"}",
    b"\0",
    b"\xff",
    b"\xfe",
    b"\xc3",
    b"\xef\xbb\xbf",
    b"\xe2\x80\xa8",
    b"\xc2\x85",
    b"~",
    b"null",
    b"-1",
    b"1e999",
    b".inf",
    b".nan",
    b"0x",
    b"9223372036854775808",
    b"__type__",
    b"\"__type__\":\"Hash\",\"entries\":",
    b"\\u0000",
    b"\\ud800",
    b"--",
    b"^",
    b"*",
    b"**",
    b"{a,b}",
    b"%{trusted.certname}",
    b"..",
    b"/",
    b"//",
];

/// Applies 1 to 8 random mutations to `data`; `donor` is material for
/// splices (another file of the same kind).
pub fn mutate(rng: &mut Rng, data: &mut Vec<u8>, donor: &[u8]) {
    let n = 1 + rng.small(7);
    for _ in 0..n {
        mutate_once(rng, data, donor);
        data.truncate(MAX_LEN);
    }
}

/// Applies one mutation.
fn mutate_once(rng: &mut Rng, data: &mut Vec<u8>, donor: &[u8]) {
    let len = data.len();
    let at = if len == 0 { 0 } else { rng.below(len + 1) };
    match rng.below(11) {
        0 if len > 0 => {
            let i = rng.below(len);
            data[i] ^= 1 << rng.below(8);
        }
        1 => {
            let b = rng.below(256) as u8;
            data.insert(at, b);
        }
        2 => {
            let tok = rng.pick(TOKENS);
            data.splice(at..at, tok.iter().copied());
        }
        3 if len > 0 => {
            let start = rng.below(len);
            let n = 1 + rng.small(16);
            data.drain(start..(start + n).min(len));
        }
        4 if !donor.is_empty() => {
            let from = rng.below(donor.len());
            let n = 1 + rng.below((donor.len() - from).min(256));
            data.splice(at..at, donor[from..from + n].iter().copied());
        }
        5 => duplicate_line(rng, data),
        6 if len > 0 => {
            // A chunk repeated many times.
            let start = rng.below(len);
            let n = 1 + rng.below((len - start).min(64));
            let chunk = data[start..start + n].to_vec();
            let times = match rng.below(4) {
                0 => rng.range(2, 10),
                1 => rng.range(10, 1000),
                2 => rng.range(1000, 20_000),
                _ => rng.range(20_000, 200_000),
            };
            let times = times.min(MAX_LEN / n);
            let mut rep = Vec::with_capacity(n * times);
            for _ in 0..times {
                rep.extend_from_slice(&chunk);
            }
            data.splice(start..start, rep);
        }
        7 => {
            // Deep nesting: flow openers, or block mappings.
            let depth = match rng.below(3) {
                0 => rng.range(10, 300),
                1 => rng.range(300, 3000),
                _ => rng.range(3000, 100_000),
            };
            let nest: Vec<u8> = match rng.below(4) {
                0 => b"[".repeat(depth),
                1 => b"{a: ".repeat(depth),
                2 => b"{\"a\":".repeat(depth),
                _ => (0..depth.min(3000))
                    .flat_map(|i| format!("{}k{i}:\n", " ".repeat(i)).into_bytes())
                    .collect(),
            };
            data.splice(at..at, nest);
        }
        8 if len > 1 => {
            // Swap two bytes far apart.
            let (i, j) = (rng.below(len), rng.below(len));
            data.swap(i, j);
        }
        9 if len > 0 => {
            // Truncate.
            data.truncate(rng.below(len));
        }
        _ => {
            let b = *rng.pick(b"0123456789:-[]{}'\"\n #&*!|>%.,?");
            if len > 0 && rng.one_in(2) {
                let i = rng.below(len);
                data[i] = b;
            } else {
                data.insert(at, b);
            }
        }
    }
}

/// Duplicates one line (in place, right after itself).
fn duplicate_line(rng: &mut Rng, data: &mut Vec<u8>) {
    let lines: Vec<usize> = std::iter::once(0)
        .chain(
            data.iter()
                .enumerate()
                .filter(|(_, b)| **b == b'\n')
                .map(|(i, _)| i + 1),
        )
        .collect();
    let start = *rng.pick(&lines);
    if start >= data.len() {
        return;
    }
    let end = data[start..]
        .iter()
        .position(|b| *b == b'\n')
        .map_or(data.len(), |p| start + p + 1);
    let times = if rng.one_in(8) { rng.range(2, 500) } else { 1 };
    let copies = data[start..end].repeat(times.min(MAX_LEN / (end - start)));
    data.splice(end..end, copies);
}
