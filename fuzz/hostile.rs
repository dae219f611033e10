//! The hostile classes known to threaten a host process, generated at a
//! low rate by the targets: long interpolation chains and cycles, alias()
//! chains, a key that interpolates the next one 9 times at 9 levels, data
//! nested 1,000-1,500 levels deep, alias bombs.

use crate::rng::Rng;

/// `n` keys, each interpolating the next with `func` (`lookup`, `hiera`,
/// `alias`); the last closes a cycle to the first when `cycle`, else it
/// holds a plain value. Returns YAML data and the first key.
pub fn chain(n: usize, func: &str, cycle: bool) -> (String, String) {
    let mut s = String::with_capacity(n * 32);
    for i in 0..n {
        s.push_str(&format!("chain{i}: \"%{{{func}('chain{}')}}\"\n", i + 1));
    }
    if cycle {
        s.push_str(&format!("chain{n}: \"%{{{func}('chain0')}}\"\n"));
    } else {
        s.push_str(&format!("chain{n}: end\n"));
    }
    (s, "chain0".into())
}

/// Nine levels, each key interpolating the next one nine times: the first
/// key's value would be 10 * 9^9 bytes (about 3.9 GB).
pub fn nine_by_nine() -> (String, String) {
    let mut s = String::new();
    for i in 0..9 {
        let one = format!("%{{lookup('nine{}')}}", i + 1);
        s.push_str(&format!("nine{i}: \"{}\"\n", one.repeat(9)));
    }
    s.push_str("nine9: \"0123456789\"\n");
    (s, "nine0".into())
}

/// A block-style mapping nested `depth` levels under `key`, one space per
/// level, ending in `leaf`.
pub fn deep_block(key: &str, depth: usize, leaf: &str) -> String {
    let mut s = String::with_capacity(depth * (depth / 2 + 8));
    s.push_str(key);
    s.push_str(":\n");
    for i in 1..depth {
        s.push_str(&" ".repeat(i));
        s.push_str(&format!("d{}:\n", i % 3));
    }
    s.push_str(&" ".repeat(depth));
    s.push_str(leaf);
    s.push('\n');
    s
}

/// A flow-style document nested `depth` levels.
pub fn deep_flow(depth: usize) -> String {
    format!("k: {}x{}\n", "[".repeat(depth), "]".repeat(depth))
}

/// A "billion laughs" document: `levels` anchors, each an array of `width`
/// aliases of the one before.
pub fn alias_bomb(levels: usize, width: usize) -> String {
    let mut s = format!("a0: &a0 [{}]\n", vec!["lol"; width].join(", "));
    for i in 1..=levels {
        let prev = format!("*a{}", i - 1);
        s.push_str(&format!(
            "a{i}: &a{i} [{}]\n",
            vec![prev.as_str(); width].join(", ")
        ));
    }
    s.push_str(&format!("k: *a{levels}\n"));
    s
}

/// A random hostile YAML document (for the YAML target) and what it is.
pub fn yaml_document(rng: &mut Rng) -> (String, String) {
    match rng.below(4) {
        0 => {
            let (l, w) = (rng.range(5, 12), rng.range(5, 12));
            (
                alias_bomb(l, w),
                format!("hostile: alias bomb {l} levels x {w}"),
            )
        }
        1 => {
            let d = rng.range(1000, 1500);
            (
                deep_block("k", d, "leaf"),
                format!("hostile: block mapping nested {d} levels"),
            )
        }
        2 => {
            let d = rng.range(1000, 200_000);
            (
                deep_flow(d),
                format!("hostile: flow sequence nested {d} levels"),
            )
        }
        _ => {
            let d = rng.range(1000, 1500);
            let mut s = String::from("k:\n");
            for i in 0..d {
                s.push_str(&" ".repeat(i));
                s.push_str("- \n");
            }
            (s, format!("hostile: block sequence nested {d} levels"))
        }
    }
}

/// Hostile interpolation data (for the interpolation and repo targets):
/// YAML data to add to a data file, the key to look up, and what it is.
pub fn interpolation_data(rng: &mut Rng) -> (String, String, String) {
    match rng.below(5) {
        0 => {
            let n = rng.range(1000, 5000);
            let (d, k) = chain(n, rng.word(&["lookup", "hiera"]), false);
            (d, k, format!("hostile: lookup chain of {n} keys"))
        }
        1 => {
            let n = rng.range(1000, 5000);
            let (d, k) = chain(n, "lookup", true);
            (d, k, format!("hostile: lookup cycle of {n} keys"))
        }
        2 => {
            let n = rng.range(1000, 5000);
            let (d, k) = chain(n, "alias", rng.one_in(2));
            (d, k, format!("hostile: alias chain of {n} keys"))
        }
        3 => {
            let (d, k) = nine_by_nine();
            (
                d,
                k,
                "hostile: 9 lookups at each of 9 levels (a 3.9 GB string)".into(),
            )
        }
        _ => {
            let n = rng.range(1000, 5000);
            // A chain through scope-free nested keys: k.sub.
            let mut s = String::new();
            for i in 0..n {
                s.push_str(&format!(
                    "dot{i}:\n  sub: \"%{{lookup('dot{}.sub')}}\"\n",
                    i + 1
                ));
            }
            s.push_str(&format!("dot{n}:\n  sub: end\n"));
            (
                s,
                "dot0.sub".into(),
                format!("hostile: dotted-key lookup chain of {n} keys"),
            )
        }
    }
}
