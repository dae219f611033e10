//! The runner's draws from splitmix64 (the stream of the benchmark corpus,
//! `benches/corpus/rng.rs`), seeded from (target, seed, index) so that every
//! input can be generated again.

#[path = "../benches/corpus/rng.rs"]
#[allow(dead_code)]
mod splitmix;

/// A splitmix64 stream and the draws the generators make from it.
pub struct Rng(splitmix::Rng);

impl Rng {
    /// The generator of input `index` of `target` in the run seeded `seed`.
    pub fn for_input(target: &str, seed: u64, index: u64) -> Rng {
        // FNV-1a of the target name, then the seed and index mixed in.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in target.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        let a = splitmix::Rng::from_state(h ^ seed.rotate_left(17)).next_u64();
        Rng(splitmix::Rng::from_state(
            a ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15),
        ))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True once in `n` times on average.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// One of `items` (not empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// One of `words` (not empty).
    pub fn word(&mut self, words: &[&'static str]) -> &'static str {
        words[self.below(words.len())]
    }

    /// A small size, most often tiny: `0..=max` skewed towards 0.
    pub fn small(&mut self, max: usize) -> usize {
        let m = self.range(0, max);
        self.range(0, m)
    }
}
