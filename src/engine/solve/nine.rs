//! A dedicated exact solver for the classic 9×9 grid: band bitboards, table
//! driven band logic, and backtracking by copying a small state.
//!
//! # Representation
//!
//! The grid is cut into three bands of three rows. For every digit `d` and
//! band `b`, `cand[3 * d + b]` is a 27-bit mask of the cells of that band
//! where `d` may still go: bit `9 * r + c` for row `r` of the band and
//! column `c`. Together with a 27-bit mask of unsolved cells per band and a
//! dirty mask naming the (digit, band) pairs that changed, the whole state is
//! 31 words (124 bytes).
//!
//! # Propagation
//!
//! * **Band step** for one (digit, band): in a band the digit sits once in
//!   each row and once in each box, so it picks one *mini-row* (row ∩ box)
//!   per row along a permutation of the three boxes. A table keyed by which
//!   of the nine mini-rows are non-empty gives the mini-rows that belong to
//!   at least one such permutation; all others are cleared (this covers
//!   pointing, claiming and box hidden singles). A row left with one cell is
//!   a placement: the cell leaves the other digits, and its column leaves the
//!   digit's other two bands.
//! * **Naked singles** across digits by bit-sliced counting of the nine
//!   digit masks of a band (cells seen once, cells seen twice or more).
//! * A cell with no candidate or a band step with no permutation left is a
//!   contradiction.
//!
//! # Search
//!
//! When propagation stalls, the solver guesses on a bivalue cell when there
//! is one (the second digit is then the forced alternative), otherwise on a
//! cell with fewest candidates (the alternative removes the guessed digit).
//! The alternative is pushed as a full copy of the state on a fixed array of
//! 81 slots: each pending alternative belongs to a guess on the current path
//! that solved a cell, so the depth never exceeds 81. For a 124-byte state a
//! copy per guess is cheaper than logging each change and undoing it, which
//! is what the general solver ([`super::propagate`]) does for every size.
//! Nothing is allocated during a solve.

use crate::engine::limits::{Limits, StopReason};

/// Guesses between two checks of the limits (only when limits are set).
const CHECK_EVERY: u64 = 64;

/// Row masks of a band: the nine cells of row `r`.
const ROW: [u32; 3] = [0x1FF, 0x1FF << 9, 0x1FF << 18];

/// Mini-row occupancy of one 9-bit row: bit `k` set when box `k` of the row
/// has a cell.
const OCC3: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut v = 0;
    while v < 512 {
        let mut k = 0;
        while k < 3 {
            if (v >> (3 * k)) & 7 != 0 {
                t[v] |= 1 << k;
            }
            k += 1;
        }
        v += 1;
    }
    t
};

/// For a 9-bit mini-row occupancy (bit `3 * r + k` for row `r`, box `k`),
/// the 27-bit mask of the mini-rows that belong to some permutation of boxes
/// over rows using only occupied mini-rows. Zero when there is none.
const SHRINK: [u32; 512] = {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u32; 512];
    let mut occ = 0;
    while occ < 512 {
        let mut viable = 0u32;
        let mut p = 0;
        while p < 6 {
            let perm = PERMS[p];
            let mut bits = 0u32;
            let mut r = 0;
            while r < 3 {
                bits |= 1 << (3 * r + perm[r]);
                r += 1;
            }
            if occ as u32 & bits == bits {
                viable |= bits;
            }
            p += 1;
        }
        let mut mask = 0u32;
        let mut i = 0;
        while i < 9 {
            if viable & (1 << i) != 0 {
                mask |= 7 << (3 * i);
            }
            i += 1;
        }
        t[occ] = mask;
        occ += 1;
    }
    t
};

/// For the 9-bit column occupancy of a band, the columns that are the only
/// occupied column of their box (the band must use them).
const CLAIM: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut v = 0;
    while v < 512 {
        let mut k = 0;
        while k < 3 {
            let c = (v as u32 >> (3 * k)) & 7;
            if c != 0 && c & (c - 1) == 0 {
                t[v] |= c << (3 * k);
            }
            k += 1;
        }
        v += 1;
    }
    t
};

/// The two other bands of each band.
const OTHER: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// Result of the 9×9 kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NineResult {
    /// Solutions found (at most the limit).
    pub count: u64,
    /// The first two solutions, digits 1..=9 row-major (only the first
    /// `min(count, 2)` are meaningful; the rest are zeros).
    pub solutions: [[u8; 81]; 2],
    /// True when the whole tree was searched, so `count` is exact (also for
    /// a contradiction at the root).
    pub exhausted: bool,
    /// Set when a [`Limits`] check stopped the search.
    pub stopped: Option<StopReason>,
    /// A given could not be placed: its digit was already taken by a given
    /// in the same row, column or box (or it was above 9).
    pub givens_conflict: bool,
    /// Guesses made.
    pub nodes: u64,
}

/// The search state: candidates per (digit, band), unsolved cells per band,
/// and the (digit, band) pairs still to process.
#[derive(Debug, Clone, Copy)]
struct State {
    cand: [u32; 27],
    unsolved: [u32; 3],
    dirty: u32,
}

impl State {
    const EMPTY: State = State {
        cand: [0; 27],
        unsolved: [0; 3],
        dirty: 0,
    };

    fn new() -> State {
        State {
            cand: [0x7FF_FFFF; 27],
            unsolved: [0x7FF_FFFF; 3],
            dirty: 0,
        }
    }

    /// Places digit `d` at bit `p` of band `b` and removes it from every peer
    /// and the cell from every other digit. False when the digit was no
    /// longer possible there.
    fn place_direct(&mut self, d: usize, b: usize, p: usize) -> bool {
        let bit = 1u32 << p;
        if self.cand[3 * d + b] & bit == 0 || self.unsolved[b] & bit == 0 {
            return false;
        }
        let (r, c) = (p / 9, p % 9);
        let col = 0x40201u32 << c;
        let boxm = (0x7 * 0x40201u32) << (3 * (c / 3));
        for dd in 0..9 {
            self.cand[3 * dd + b] &= !bit;
        }
        self.cand[3 * d + b] &= !(ROW[r] | col | boxm);
        self.cand[3 * d + b] |= bit;
        for &o in &OTHER[b] {
            self.cand[3 * d + o] &= !col;
        }
        self.unsolved[b] &= !bit;
        true
    }

    /// Restricts the rows of `keep` (one cell per row) in `(d, b)` to those
    /// cells, so the band step places them.
    #[inline]
    fn restrict_rows(&mut self, i: usize, keep: u32) {
        let mut rows = 0;
        for row in ROW {
            if keep & row != 0 {
                rows |= row;
            }
        }
        self.cand[i] &= !rows | keep;
        self.dirty |= 1 << i;
    }

    /// Removes `mask` from `(d, b)` = index `i`, marking it dirty on change.
    #[inline]
    fn clear(&mut self, i: usize, mask: u32) {
        let old = self.cand[i];
        let new = old & !mask;
        self.cand[i] = new;
        self.dirty |= ((new != old) as u32) << i;
    }

    /// The band step for (digit, band) index `i`. False on a contradiction.
    #[inline]
    fn band_step(&mut self, i: usize) -> bool {
        let (d, b) = (i / 3, i % 3);
        let m = self.cand[i];
        let occ = OCC3[(m & 0x1FF) as usize]
            | OCC3[((m >> 9) & 0x1FF) as usize] << 3
            | OCC3[(m >> 18) as usize] << 6;
        let m = m & SHRINK[occ as usize];
        if m == 0 {
            return false;
        }
        self.cand[i] = m;
        let cols = CLAIM[((m | m >> 9 | m >> 18) & 0x1FF) as usize] * 0x40201;
        for &o in &OTHER[b] {
            self.clear(3 * d + o, cols);
        }
        let u = self.unsolved[b];
        if m & u == 0 {
            return true;
        }
        let new = single_rows(m) & u;
        if new != 0 {
            self.unsolved[b] = u & !new;
            for dd in 0..9 {
                self.clear(3 * dd + b, if dd == d { 0 } else { new });
            }
        }
        true
    }

    /// Runs band steps and naked singles to a fixed point. False on a
    /// contradiction.
    fn settle(&mut self) -> bool {
        loop {
            while self.dirty != 0 {
                let i = self.dirty.trailing_zeros() as usize;
                self.dirty &= self.dirty - 1;
                if !self.band_step(i) {
                    return false;
                }
            }
            if !self.columns() {
                return false;
            }
            if self.dirty != 0 {
                continue;
            }
            let mut found = false;
            for b in 0..3 {
                let u = self.unsolved[b];
                if u == 0 {
                    continue;
                }
                let (mut one, mut two) = (0u32, 0u32);
                for d in 0..9 {
                    let m = self.cand[3 * d + b];
                    two |= one & m;
                    one |= m;
                }
                if u & !one != 0 {
                    return false;
                }
                let singles = u & !two;
                if singles == 0 {
                    continue;
                }
                found = true;
                for d in 0..9 {
                    let x = singles & self.cand[3 * d + b];
                    if x != 0 {
                        self.restrict_rows(3 * d + b, one_per_row(x));
                    }
                }
            }
            if !found {
                return true;
            }
        }
    }

    /// Columns: a digit with no place in a column is a contradiction; a
    /// column whose places for a digit lie in one band pins the digit, in
    /// that band's box, to that column.
    fn columns(&mut self) -> bool {
        for d in 0..9 {
            let f = |m: u32| (m | m >> 9 | m >> 18) & 0x1FF;
            let c = [
                f(self.cand[3 * d]),
                f(self.cand[3 * d + 1]),
                f(self.cand[3 * d + 2]),
            ];
            if c[0] | c[1] | c[2] != 0x1FF {
                return false;
            }
            for b in 0..3 {
                let only = c[b] & !(c[OTHER[b][0]] | c[OTHER[b][1]]);
                if only != 0 {
                    let boxes = ((only | only >> 1 | only >> 2) & 0x49) * 7;
                    let drop = (boxes & !only) & c[b];
                    if drop != 0 {
                        self.clear(3 * d + b, drop * 0x40201);
                    }
                }
            }
        }
        true
    }

    fn solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// The grid, digits 1..=9 (valid once solved).
    fn grid(&self) -> [u8; 81] {
        let mut g = [0u8; 81];
        for d in 0..9 {
            for b in 0..3 {
                let mut m = self.cand[3 * d + b];
                while m != 0 {
                    let p = m.trailing_zeros() as usize;
                    m &= m - 1;
                    g[27 * b + p] = d as u8 + 1;
                }
            }
        }
        g
    }

    /// Chooses a guess: `(band, bit, first digit, Some(second digit))` for a
    /// bivalue cell, else the first digit of a cell with fewest candidates.
    fn choose(&self) -> (usize, u32, usize, Option<usize>) {
        for b in 0..3 {
            let u = self.unsolved[b];
            if u == 0 {
                continue;
            }
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let m = self.cand[3 * d + b];
                three |= two & m;
                two |= one & m;
                one |= m;
            }
            let pairs = u & two & !three;
            if pairs != 0 {
                let x = pairs & pairs.wrapping_neg();
                let mut first = None;
                for d in 0..9 {
                    if self.cand[3 * d + b] & x != 0 {
                        match first {
                            None => first = Some(d),
                            Some(f) => return (b, x, f, Some(d)),
                        }
                    }
                }
            }
        }
        // No bivalue cell: the cell with fewest candidates.
        let mut best = (0usize, 0u32, 0usize, u32::MAX);
        for b in 0..3 {
            let mut u = self.unsolved[b];
            while u != 0 {
                let x = u & u.wrapping_neg();
                u &= u - 1;
                let mut k = 0;
                let mut first = 0;
                for d in (0..9).rev() {
                    if self.cand[3 * d + b] & x != 0 {
                        k += 1;
                        first = d;
                    }
                }
                if k < best.3 {
                    best = (b, x, first, k);
                }
            }
        }
        (best.0, best.1, best.2, None)
    }
}

/// The cells of `m` that are alone in their row of the band.
#[inline]
fn single_rows(m: u32) -> u32 {
    let mut s = 0;
    for row in ROW {
        let c = m & row;
        if c & c.wrapping_sub(1) == 0 {
            s |= c;
        }
    }
    s
}

/// The lowest cell of `x` in each row of the band.
#[inline]
fn one_per_row(x: u32) -> u32 {
    let mut keep = 0;
    for row in ROW {
        let c = x & row;
        keep |= c & c.wrapping_neg();
    }
    keep
}

/// `givens[i]` = 0 for empty or 1..=9, row-major. Finds up to `limit` solutions.
///
/// With `limit == 0` nothing is searched (count 0, not exhausted).
pub fn solve_nine(givens: &[u8; 81], limit: u64, limits: &Limits) -> NineResult {
    let mut result = NineResult {
        count: 0,
        solutions: [[0; 81]; 2],
        exhausted: false,
        stopped: None,
        givens_conflict: false,
        nodes: 0,
    };
    if limit == 0 {
        return result;
    }
    let mut cur = State::new();
    for (i, &v) in givens.iter().enumerate() {
        if v == 0 {
            continue;
        }
        if v > 9 || !cur.place_direct(v as usize - 1, i / 27, i % 27) {
            result.givens_conflict = true;
            result.exhausted = true;
            return result;
        }
    }
    cur.dirty = 0x7FF_FFFF;

    let checked = !limits.is_unlimited();
    let budget = limits.node_budget.unwrap_or(u64::MAX);
    let mut stack = [State::EMPTY; 81];
    let mut sp = 0usize;
    loop {
        if cur.settle() {
            if cur.solved() {
                if let Some(slot) = result.solutions.get_mut(result.count as usize) {
                    *slot = cur.grid();
                }
                result.count += 1;
                if result.count >= limit {
                    break;
                }
            } else {
                if checked
                    && (result.nodes >= budget || result.nodes % CHECK_EVERY == 0)
                    && let Some(stop) = limits.check(result.nodes)
                {
                    result.stopped = Some(stop);
                    break;
                }
                result.nodes += 1;
                let (b, x, d1, d2) = cur.choose();
                let mut alt = cur;
                alt.cand[3 * d1 + b] &= !x;
                alt.dirty = 1 << (3 * d1 + b);
                if let Some(d2) = d2 {
                    alt.restrict_rows(3 * d2 + b, x);
                }
                stack[sp] = alt;
                sp += 1;
                cur.restrict_rows(3 * d1 + b, x);
                continue;
            }
        }
        if sp == 0 {
            result.exhausted = true;
            break;
        }
        sp -= 1;
        cur = stack[sp];
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(s: &str) -> [u8; 81] {
        let mut g = [0u8; 81];
        for (i, ch) in s.bytes().filter(|b| !b.is_ascii_whitespace()).enumerate() {
            g[i] = if ch.is_ascii_digit() { ch - b'0' } else { 0 };
        }
        g
    }

    #[test]
    fn shrink_table_keeps_only_permutations() {
        assert_eq!(SHRINK[0x1FF], 0x7FF_FFFF);
        // The diagonal boxes only: one permutation.
        assert_eq!(SHRINK[0b100_010_001], (7 << 24) | (7 << 12) | 7);
        // Row 0 only in box 0 and row 1 only in box 0: none.
        assert_eq!(SHRINK[0b111_001_001], 0);
        // Row 0 pinned to box 0 frees nothing else there.
        assert_eq!(SHRINK[0b111_111_001], (0o770 << 18) | (0o770 << 9) | 7);
        assert_eq!(OCC3[0b100_000_010], 0b101);
        assert_eq!(CLAIM[0b100_011_010], 0b100_000_010);
    }

    #[test]
    fn conflicting_givens_are_reported() {
        for (a, b) in [(0, 5), (0, 45), (0, 20), (80, 60)] {
            let mut g = [0u8; 81];
            g[a] = 4;
            g[b] = 4;
            let r = solve_nine(&g, 2, &Limits::none());
            assert!(r.givens_conflict, "{a} {b}");
            assert_eq!((r.count, r.exhausted), (0, true));
        }
        let mut g = [0u8; 81];
        g[3] = 10;
        assert!(solve_nine(&g, 2, &Limits::none()).givens_conflict);
    }

    #[test]
    fn unsolvable_givens_are_not_a_conflict() {
        // r1c9 needs a 9, but column 9 already has one.
        let g = grid(
            "12345678. ........9 ......... ......... ......... ......... ......... ......... .........",
        );
        let r = solve_nine(&g, 2, &Limits::none());
        assert!(!r.givens_conflict);
        assert_eq!((r.count, r.exhausted, r.stopped), (0, true, None));
    }

    #[test]
    fn limit_zero_searches_nothing() {
        let r = solve_nine(&[0; 81], 0, &Limits::none());
        assert_eq!((r.count, r.exhausted, r.nodes), (0, false, 0));
    }
}
