//! The generator's random numbers: a named, seeded stream and the two draws
//! built on it (a bounded integer and a shuffle), written here so their
//! results never change with a `rand` release.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// The generator for `seed`.
///
/// ChaCha8 is a named algorithm with a fixed output stream: the same seed
/// gives the same numbers on every platform (no dependence on word size or
/// endianness) and in every `rand_chacha` release, unlike `StdRng`, whose
/// algorithm may change. `seed_from_u64` expands the seed with PCG32, which
/// `rand_core` documents as fixed.
pub fn rng_for(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// SplitMix64's mixing of `x` (its state advanced by one step, then
/// finalised): nearby inputs give unrelated outputs, for deriving seeds.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform integer in `0..bound` (`bound` ≥ 1; 0 gives 0).
///
/// Lemire's multiply-and-reject on 64-bit draws: exact (no modulo bias) and
/// defined here, so a `rand` update cannot change which puzzle a seed makes.
pub fn below(rng: &mut ChaCha8Rng, bound: usize) -> usize {
    let bound = bound as u64;
    if bound <= 1 {
        return 0;
    }
    // 2^64 mod bound: products whose low half falls below it are rejected.
    let threshold = bound.wrapping_neg() % bound;
    loop {
        let wide = u128::from(rng.next_u64()) * u128::from(bound);
        if (wide as u64) >= threshold {
            return (wide >> 64) as usize;
        }
    }
}

/// Shuffles `items` in place (Fisher–Yates, from the back).
pub fn shuffle<T>(rng: &mut ChaCha8Rng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i + 1);
        items.swap(i, j);
    }
}

/// `0..n` in random order.
pub fn permutation(rng: &mut ChaCha8Rng, n: usize) -> Vec<usize> {
    let mut p: Vec<usize> = (0..n).collect();
    shuffle(rng, &mut p);
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = rng_for(7);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            seen[below(&mut rng, 6)] += 1;
        }
        assert!(seen.iter().all(|&k| (800..1200).contains(&k)), "{seen:?}");
        assert_eq!(below(&mut rng, 1), 0);
        assert_eq!(below(&mut rng, 0), 0);
    }

    #[test]
    fn the_stream_is_fixed() {
        // Pinned: if these change, every seed makes a different puzzle.
        let mut rng = rng_for(42);
        let got: Vec<usize> = (0..8).map(|_| below(&mut rng, 100)).collect();
        assert_eq!(got, [68, 95, 42, 62, 28, 14, 30, 80]);
        assert_eq!(permutation(&mut rng_for(1), 9), [8, 7, 6, 2, 5, 1, 4, 0, 3]);
    }
}
