//! A small deterministic random number generator (SplitMix64), seeded from
//! (target, seed, index) so that every input can be generated again.

/// A SplitMix64 generator.
pub struct Rng(u64);

impl Rng {
    /// The generator of input `index` of `target` in the run seeded `seed`.
    pub fn for_input(target: &str, seed: u64, index: u64) -> Rng {
        // FNV-1a of the target name, then the seed and index mixed in.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in target.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        let mut r = Rng(h ^ seed.rotate_left(17));
        let a = r.next_u64();
        Rng(a ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
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
