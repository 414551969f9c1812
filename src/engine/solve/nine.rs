//! A dedicated exact solver for the classic 9×9 grid: band bitboards, table
//! driven band logic, and backtracking by copying a small state. It is the
//! 9×9 fast path when no tracing is asked for; the general solver
//! ([`super::propagate`]) serves every size.
//!
//! # Representation
//!
//! The grid is cut into three bands of three rows. For every digit `d` and
//! band `b`, `cand[3 * d + b]` is a 27-bit mask of the cells of that band
//! where `d` may still go: bit `9 * r + c` for row `r` of the band and
//! column `c`. Beside it, `seen` holds each mask as its band step last left
//! it (a difference means the pair needs another step), `unsolved` holds
//! the unsolved cells of each band and `cols` the columns each band allows
//! each digit: 66 words (264 bytes) in all.
//!
//! # Propagation
//!
//! * **Band step** for one (digit, band): in a band the digit sits once in
//!   each row and once in each box, so it picks one *mini-row* (row ∩ box)
//!   per row along a permutation of the three boxes. A table keyed by which
//!   of the nine mini-rows are non-empty gives the mini-rows that belong to
//!   at least one such permutation; all others are cleared (this covers
//!   pointing and claiming inside the band and hidden singles in rows and
//!   boxes). A box whose cells lie in one column claims that column: it
//!   leaves the digit's other two bands. A row left with one cell is solved:
//!   the cell leaves the other digits. The 27 steps are unrolled with their
//!   indices known at compile time, and a step runs only when its mask
//!   changed since it last ran (`cand != seen`), in passes until none did.
//! * **Naked singles** across digits by bit-sliced counting of the nine
//!   digit masks of a band (cells seen once, twice, three times or more),
//!   which also finds the bivalue cells for the next guess.
//! * **Columns** (strong searches only), when nothing else moves: a digit
//!   with no place left in a column is a contradiction, and a column whose
//!   places for a digit all lie in one band pins the digit, in that band's
//!   box, to that column.
//! * A cell with no candidate or a band step with no permutation left is a
//!   contradiction.
//!
//! # Search
//!
//! When propagation stalls, the solver guesses on a bivalue cell (the
//! second digit is then the forced alternative), or, without one, on a
//! cell with fewest candidates (the alternative removes the guessed digit).
//! Sparse puzzles (at most 29 givens) search *strong*: the bivalue cell
//! with most unsolved peers, plus the column pass, which cut the hardest
//! corpus's guesses by about 40 %. Denser puzzles take the first bivalue
//! cell and skip the pass: their trees are small (often a short path to
//! each of many solutions), so cheaper guesses win.
//!
//! The first branch is a recursive call on a copy of the state and the
//! alternative continues in the caller's frame, so the depth is at most 81
//! (each level solved a cell) and the frames together hold at most 81
//! states. For a state of a few hundred bytes one copy per guess is cheaper
//! than logging each change and undoing it, which is what the general
//! solver does with its trail. Nothing is allocated during a solve.

use crate::engine::limits::{Limits, StopReason};

/// Guesses between two checks of the limits (only when limits are set).
const CHECK_EVERY: u64 = 64;

/// Puzzles with at least this many blanks (at most 29 givens) score
/// bivalue cells and run the column pass: their search trees are large and
/// both cut them (by about 40 % on the hardest corpus). Denser puzzles have
/// small trees, often a short path to each of many solutions, where the
/// first bivalue cell and no column pass are cheaper per guess for about
/// as many guesses.
const STRONG_OPEN: u32 = 52;

/// All 27 cells of a band.
const BAND: u32 = 0x7FF_FFFF;

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

/// For the 9-bit column occupancy of a band, the band cells of the other
/// bands that stay possible: a column that is the only occupied column of
/// its box is claimed by this band and leaves the others.
const OTHERS_KEEP: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut v = 0;
    while v < 512 {
        let mut claimed = 0u32;
        let mut k = 0;
        while k < 3 {
            let c = (v as u32 >> (3 * k)) & 7;
            if c != 0 && c & (c - 1) == 0 {
                claimed |= c << (3 * k);
            }
            k += 1;
        }
        t[v] = !(claimed * 0x40201) & BAND;
        v += 1;
    }
    t
};

/// For each cell of a band, its row and its box (itself included).
const BAND_PEERS: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let (r, c) = (p / 9, p % 9);
        t[p] = ROW[r] | (7 * 0x40201u32) << (3 * (c / 3));
        p += 1;
    }
    t
};

/// The number of cells in a 9-bit set.
const POP9: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut v = 0;
    while v < 512 {
        t[v] = (v as u32).count_ones() as u8;
        v += 1;
    }
    t
};

/// For 3 bits naming rows of a band, those rows' cells.
const ROWS_OF: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut v = 0;
    while v < 8 {
        let mut r = 0;
        while r < 3 {
            if v & (1 << r) != 0 {
                t[v] |= ROW[r];
            }
            r += 1;
        }
        v += 1;
    }
    t
};

/// For 3 bits naming boxes of a band, those boxes' cells.
const BOXES_OF: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut v = 0;
    while v < 8 {
        let mut k = 0;
        while k < 3 {
            if v & (1 << k) != 0 {
                t[v] |= (7 * 0x40201) << (3 * k);
            }
            k += 1;
        }
        v += 1;
    }
    t
};

/// The rows of a band that hold a cell of `m`, as 3 bits.
#[inline]
fn row_bits(m: u32) -> u32 {
    u32::from(m & ROW[0] != 0) | u32::from(m & ROW[1] != 0) << 1 | u32::from(m & ROW[2] != 0) << 2
}

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

/// The search state. `cand[i]` and `seen[i]` are indexed by
/// `i = 3 * digit + band`.
#[derive(Debug, Clone, Copy)]
struct State {
    cand: [u32; 27],
    seen: [u32; 27],
    unsolved: [u32; 3],
    /// Per digit, the columns each band allows as of its last band step:
    /// bits `9 * band + column`.
    cols: [u32; 9],
}

/// Runs the band step of every (digit, band) whose mask changed, in a fixed
/// unrolled order; `return false` from the enclosing function on a
/// contradiction.
macro_rules! steps {
    ($s:ident, $any:ident; $($i:literal)*) => {
        $(
            if $s.cand[$i] != $s.seen[$i] {
                $any = true;
                if !$s.step::<$i>() {
                    return false;
                }
            }
        )*
    };
}

impl State {
    /// The root state for `givens`: each given's digit leaves the given's
    /// row, column and box, and its cell leaves the other digits. None when
    /// two givens of one digit share a unit, or a given is above 9.
    fn from_givens(givens: &[u8; 81]) -> Option<State> {
        // given[3 * v + b]: the cells of band b holding v (v = 0: blanks).
        let mut given = [0u32; 30];
        let mut count = [0u8; 10];
        for (b, band) in givens.chunks_exact(27).enumerate() {
            for (p, &v) in band.iter().enumerate() {
                let v = usize::from(v);
                *given.get_mut(3 * v + b)? |= 1 << p;
                *count.get_mut(v)? += 1;
            }
        }
        let free = [given[0], given[1], given[2]];
        let mut s = State {
            cand: [0; 27],
            seen: [0; 27],
            unsolved: free,
            cols: [BAND; 9],
        };
        let fold = |m: u32| (m | m >> 9 | m >> 18) & 0x1FF;
        for d in 0..9 {
            let g = [given[3 * d + 3], given[3 * d + 4], given[3 * d + 5]];
            let f = [fold(g[0]), fold(g[1]), fold(g[2])];
            let cols = f[0] | f[1] | f[2];
            // Rows and boxes holding the digit, 3 bits per band.
            let rows = [row_bits(g[0]), row_bits(g[1]), row_bits(g[2])];
            let boxes = [
                OCC3[f[0] as usize],
                OCC3[f[1] as usize],
                OCC3[f[2] as usize],
            ];
            // Each given of the digit needs a row, a column and a box of its own.
            let n = u32::from(count[d + 1]);
            if u32::from(POP9[(rows[0] | rows[1] << 3 | rows[2] << 6) as usize]) != n
                || u32::from(POP9[(boxes[0] | boxes[1] << 3 | boxes[2] << 6) as usize]) != n
                || u32::from(POP9[cols as usize]) != n
            {
                return None;
            }
            let cols = cols * 0x40201;
            for b in 0..3 {
                let taken = ROWS_OF[rows[b] as usize] | BOXES_OF[boxes[b] as usize] | cols;
                s.cand[3 * d + b] = g[b] | (free[b] & !taken);
            }
        }
        Some(s)
    }

    /// Restricts the rows of `keep` (one cell per row) in mask `i` to those
    /// cells, so the band step solves them.
    #[inline]
    fn restrict_rows(&mut self, i: usize, keep: u32) {
        let mut rows = 0;
        for row in ROW {
            if keep & row != 0 {
                rows |= row;
            }
        }
        self.cand[i] &= !rows | keep;
    }

    /// The band step for (digit, band) `I = 3 * digit + band`. False on a
    /// contradiction.
    #[inline(always)]
    fn step<const I: usize>(&mut self) -> bool {
        let (d, b) = (I / 3, I % 3);
        let m = self.cand[I];
        let occ = OCC3[(m & 0x1FF) as usize]
            | OCC3[((m >> 9) & 0x1FF) as usize] << 3
            | OCC3[((m >> 18) & 0x1FF) as usize] << 6;
        let m = m & SHRINK[(occ & 0x1FF) as usize];
        if m == 0 {
            return false;
        }
        self.cand[I] = m;
        self.seen[I] = m;
        let fm = (m | m >> 9 | m >> 18) & 0x1FF;
        self.cols[d] = (self.cols[d] & !(0x1FF << (9 * b))) | fm << (9 * b);
        let keep = OTHERS_KEEP[fm as usize];
        self.cand[3 * d + (b + 1) % 3] &= keep;
        self.cand[3 * d + (b + 2) % 3] &= keep;
        let solved = single_rows(m);
        self.unsolved[b] &= !solved;
        for dd in 0..9 {
            if dd != d {
                self.cand[3 * dd + b] &= !solved;
            }
        }
        true
    }

    /// Band steps until no mask changes. False on a contradiction.
    fn update(&mut self) -> bool {
        loop {
            let mut any = false;
            steps!(self, any; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26);
            if !any {
                return true;
            }
        }
    }

    /// Runs band steps, naked singles and (when `strong`) column checks to
    /// a fixed point, leaving the bivalue cells of each band in `pairs`.
    /// False on a contradiction.
    fn settle(&mut self, pairs: &mut [u32; 3], strong: bool) -> bool {
        loop {
            if !self.update() {
                return false;
            }
            if self.solved() {
                return true;
            }
            let mut found = false;
            for (b, pair) in pairs.iter_mut().enumerate() {
                let u = self.unsolved[b];
                let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
                for d in 0..9 {
                    let m = self.cand[3 * d + b];
                    three |= two & m;
                    two |= one & m;
                    one |= m;
                }
                if u & !one != 0 {
                    return false;
                }
                *pair = u & two & !three;
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
            if found {
                continue;
            }
            if !strong {
                return true;
            }
            match self.columns() {
                None => return false,
                Some(false) => return true,
                Some(true) => {}
            }
        }
    }

    /// Columns: a digit with no place in a column is a contradiction (None);
    /// a column whose places for a digit lie in one band pins the digit, in
    /// that band's box, to that column. Some(true) when a mask changed.
    fn columns(&mut self) -> Option<bool> {
        let mut changed = false;
        for d in 0..9 {
            let p = self.cols[d];
            let rot1 = (p >> 9) | (p & 0x1FF) << 18;
            let rot2 = (p >> 18) | (p & 0x3FFFF) << 9;
            let others = rot1 | rot2;
            if p | others != BAND {
                return None;
            }
            let only = p & !others;
            let boxes = ((only | only >> 1 | only >> 2) & 0x0124_9249) * 7;
            let drop = boxes & !only & p;
            if drop != 0 {
                changed = true;
                for b in 0..3 {
                    let x = (drop >> (9 * b)) & 0x1FF;
                    self.cand[3 * d + b] &= !(x * 0x40201);
                }
            }
        }
        Some(changed)
    }

    /// The number of unsolved cells.
    fn open(&self) -> u32 {
        self.unsolved.iter().map(|u| u.count_ones()).sum()
    }

    fn solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// The grid, digits 1..=9 (valid once solved).
    fn grid(&self) -> [u8; 81] {
        // Solved, each digit holds one cell in each row.
        let mut g = [0u8; 81];
        for d in 0..9 {
            for b in 0..3 {
                let m = self.cand[3 * d + b];
                for r in 0..3 {
                    let c = ((m >> (9 * r)) & 0x1FF).trailing_zeros() as usize;
                    if let Some(cell) = g.get_mut(27 * b + 9 * r + c) {
                        *cell = d as u8 + 1;
                    }
                }
            }
        }
        g
    }

    /// Chooses a guess: `(band, bit, first digit, Some(second digit))` for a
    /// bivalue cell (from `pairs`), else the first digit of a cell with
    /// fewest candidates.
    ///
    /// When `strong`, the bivalue cell with most unsolved peers wins (ties:
    /// the first in row-major order): on the hardest corpus this needs about
    /// 40 % fewer guesses than taking the first bivalue cell, which is what
    /// happens otherwise.
    fn choose(&self, pairs: &[u32; 3], strong: bool) -> (usize, u32, usize, Option<usize>) {
        let mut best = None;
        if strong {
            let mut best_score = 0;
            for (b, &p) in pairs.iter().enumerate() {
                let mut p = p;
                let [o1, o2] = OTHER[b];
                let (u, u1, u2) = (self.unsolved[b], self.unsolved[o1], self.unsolved[o2]);
                while p != 0 {
                    let pos = p.trailing_zeros() as usize;
                    p &= p - 1;
                    let c = pos % 9;
                    let v = ((u1 >> c) & 0x40201) + ((u2 >> c) & 0x40201);
                    let score =
                        (u & BAND_PEERS[pos]).count_ones() + ((v + (v >> 9) + (v >> 18)) & 0xF);
                    if score > best_score {
                        best_score = score;
                        best = Some((b, 1u32 << pos));
                    }
                }
            }
        } else if let Some(b) = pairs.iter().position(|&p| p != 0) {
            best = Some((b, pairs[b] & pairs[b].wrapping_neg()));
        }
        if let Some((b, x)) = best {
            let mut digits = 0u32;
            for d in 0..9 {
                digits |= u32::from(self.cand[3 * d + b] & x != 0) << d;
            }
            let d1 = digits.trailing_zeros() as usize;
            let d2 = (digits & digits.wrapping_sub(1)).trailing_zeros() as usize;
            if d2 < 9 {
                return (b, x, d1, Some(d2));
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

/// A 9-bit row when it has exactly one cell, else 0.
const SINGLE: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut v = 1;
    while v < 512 {
        t[v] = v as u16;
        v <<= 1;
    }
    t
};

/// The cells of `m` that are alone in their row of the band.
#[inline]
fn single_rows(m: u32) -> u32 {
    u32::from(SINGLE[(m & 0x1FF) as usize])
        | u32::from(SINGLE[((m >> 9) & 0x1FF) as usize]) << 9
        | u32::from(SINGLE[((m >> 18) & 0x1FF) as usize]) << 18
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
    solve_with(givens, limit, limits, None)
}

/// [`solve_nine`] with the search strength forced (`Some`) or chosen from
/// the number of blanks (`None`).
fn solve_with(givens: &[u8; 81], limit: u64, limits: &Limits, strong: Option<bool>) -> NineResult {
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
    let Some(mut root) = State::from_givens(givens) else {
        result.givens_conflict = true;
        result.exhausted = true;
        return result;
    };
    let mut search = Search {
        strong: strong.unwrap_or_else(|| root.open() >= STRONG_OPEN),
        limit,
        limits,
        checked: !limits.is_unlimited(),
        budget: limits.node_budget.unwrap_or(u64::MAX),
        result,
    };
    if !search.run(&mut root) {
        search.result.exhausted = true;
    }
    search.result
}

/// One search: the caller's limits and what was found so far.
struct Search<'a> {
    /// Whether to score guesses and run the column pass.
    strong: bool,
    limit: u64,
    limits: &'a Limits,
    checked: bool,
    budget: u64,
    result: NineResult,
}

impl Search<'_> {
    /// Searches the subtree of `s`: settles it, then guesses. The first
    /// branch is a recursive call on a copy (depth ≤ 81: each level solved
    /// a cell); the alternative continues on `s` in this frame. True when
    /// the search must stop (the limit of solutions was reached or a limit
    /// fired).
    fn run(&mut self, s: &mut State) -> bool {
        let mut pairs = [0u32; 3];
        loop {
            if !s.settle(&mut pairs, self.strong) {
                return false;
            }
            if s.solved() {
                let r = &mut self.result;
                if let Some(slot) = r.solutions.get_mut(r.count as usize) {
                    *slot = s.grid();
                }
                r.count += 1;
                return r.count >= self.limit;
            }
            let nodes = self.result.nodes;
            if self.checked
                && (nodes >= self.budget || nodes.is_multiple_of(CHECK_EVERY))
                && let Some(stop) = self.limits.check(nodes)
            {
                self.result.stopped = Some(stop);
                return true;
            }
            self.result.nodes = nodes + 1;
            let (b, x, d1, d2) = s.choose(&pairs, self.strong);
            // At a stall every mask has had its band step: seen == cand.
            debug_assert_eq!(s.seen, s.cand);
            let mut first = State {
                cand: s.cand,
                seen: s.cand,
                unsolved: s.unsolved,
                cols: s.cols,
            };
            first.restrict_rows(3 * d1 + b, x);
            if self.run(&mut first) {
                return true;
            }
            s.cand[3 * d1 + b] &= !x;
            if let Some(d2) = d2 {
                s.restrict_rows(3 * d2 + b, x);
            }
        }
    }
}

#[cfg(test)]
mod corpus_tests;

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
        assert_eq!(
            OTHERS_KEEP[0b100_011_010],
            !(0b100_000_010 * 0x40201) & BAND
        );
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

    /// Both search strengths agree on counts (and find valid grids) on
    /// random clue sets of a few random grids.
    #[test]
    fn strengths_agree() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let none = Limits::none();
        let mut compared = 0;
        for _ in 0..200 {
            // A random full grid: solve a few random non-conflicting clues.
            let mut g = [0u8; 81];
            for _ in 0..6 {
                let c = (next() % 81) as usize;
                g[c] = (next() % 9) as u8 + 1;
            }
            let r = solve_with(&g, 1, &none, Some(false));
            if r.count == 0 {
                continue;
            }
            let full = r.solutions[0];
            let mut p = [0u8; 81];
            for _ in 0..(20 + next() % 20) {
                let c = (next() % 81) as usize;
                p[c] = full[c];
            }
            let a = solve_with(&p, 30, &none, Some(true));
            let b = solve_with(&p, 30, &none, Some(false));
            assert_eq!((a.count, a.exhausted), (b.count, b.exhausted));
            assert!(a.count >= 1);
            compared += 1;
            for r in [&a, &b] {
                for sol in &r.solutions[..r.count.min(2) as usize] {
                    assert!(p.iter().zip(sol).all(|(&c, &v)| c == 0 || c == v));
                    assert!(valid(sol));
                }
            }
        }
        assert!(compared > 100, "{compared}");
    }

    fn valid(g: &[u8; 81]) -> bool {
        (0..9).all(|u| {
            let (mut row, mut col, mut bx) = (0u16, 0u16, 0u16);
            for k in 0..9 {
                row |= 1 << g[u * 9 + k];
                col |= 1 << g[k * 9 + u];
                bx |= 1 << g[(u / 3 * 3 + k / 3) * 9 + u % 3 * 3 + k % 3];
            }
            row == 0x3FE && col == 0x3FE && bx == 0x3FE
        })
    }

    #[test]
    fn limit_zero_searches_nothing() {
        let r = solve_nine(&[0; 81], 0, &Limits::none());
        assert_eq!((r.count, r.exhausted, r.nodes), (0, false, 0));
    }
}
