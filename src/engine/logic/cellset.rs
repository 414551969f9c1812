//! Sets of cells as bit sets over `u64` words (bit c of word c / 64), for
//! the families that intersect cell sets: ALS, colouring; the nets' graph
//! of links keeps sets of candidates (by their numbers) the same way.

use super::board::bits;

/// A set of at most 128 cells (two words) as one `u128`.
pub(super) fn as_u128(s: &[u64]) -> u128 {
    debug_assert!(s.len() <= 2);
    s.iter()
        .enumerate()
        .fold(0, |acc, (i, &w)| acc | u128::from(w) << (64 * i))
}

/// Adds cell `c`.
pub(super) fn set_bit(s: &mut [u64], c: usize) {
    s[c / 64] |= 1 << (c % 64);
}

/// Takes out cell `c`.
pub(super) fn clear_bit(s: &mut [u64], c: usize) {
    s[c / 64] &= !(1 << (c % 64));
}

/// Whether cell `c` is in the set.
pub(super) fn has_bit(s: &[u64], c: usize) -> bool {
    s[c / 64] >> (c % 64) & 1 == 1
}

/// Whether every cell of `a` is in `b`.
pub(super) fn subset(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x & !y == 0)
}

/// Whether `a` and `b` share no cell.
pub(super) fn disjoint(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x & y == 0)
}

/// Keeps in `acc` only the cells also in `b`.
pub(super) fn and_into(acc: &mut [u64], b: &[u64]) {
    for (x, y) in acc.iter_mut().zip(b) {
        *x &= y;
    }
}

/// Adds to `acc` the cells of `b`.
pub(super) fn or_into(acc: &mut [u64], b: &[u64]) {
    for (x, y) in acc.iter_mut().zip(b) {
        *x |= y;
    }
}

/// Whether the set has no cell.
pub(super) fn is_empty(s: &[u64]) -> bool {
    s.iter().all(|&x| x == 0)
}

/// The cells of a set, ascending.
pub(super) fn members(s: &[u64]) -> impl Iterator<Item = usize> + '_ {
    s.iter()
        .enumerate()
        .flat_map(|(i, &w)| bits(w).map(move |b| i * 64 + b))
}
