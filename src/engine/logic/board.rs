//! The position a human solver looks at: values and candidate marks, for
//! any shape up to 64×64 (one `u64` of candidates per cell; beyond that the
//! human techniques are impractical and the exact solvers take over).

use std::fmt;
use std::sync::Arc;

use thiserror::Error;

use crate::engine::grid::{Puzzle, Value};
use crate::engine::limits::Limits;
use crate::engine::shape::{Shape, Tables};

/// The largest side the logic solver accepts.
pub const MAX_LOGIC_SIDE: usize = 64;

/// Why a position cannot be reasoned about.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum BoardError {
    /// The board is larger than the logic solver handles.
    #[error(
        "the logic solver handles boards up to {MAX_LOGIC_SIDE}×{MAX_LOGIC_SIDE}; this one is {0}×{0}"
    )]
    TooLarge(usize),
    /// A cell has no value and no candidate left.
    #[error("this position has an error at {0}: no candidate is left")]
    EmptyCell(String),
    /// Two cells of a unit hold the same value.
    #[error("this position has an error at {0} and {1}: the same value twice in a unit")]
    Duplicate(String, String),
    /// A value has no place left in a unit.
    #[error("this position has an error in {unit}: {value} has no place left")]
    NoPlace {
        /// The unit's name.
        unit: String,
        /// The value (as shown).
        value: String,
    },
}

/// Values and candidates.
#[derive(Clone)]
pub struct Board {
    shape: Shape,
    tables: Arc<Tables>,
    n: usize,
    values: Vec<Option<Value>>,
    cand: Vec<u64>,
    /// Per unit and digit (`u * n + d`): the positions in the unit (bit i:
    /// its i-th cell) where the digit is a candidate, kept with `cand`, so
    /// that [`Board::places`] is read, not counted.
    places: Vec<u64>,
    /// Per unit: the digits placed in it (bit d).
    placed: Vec<u64>,
    /// The puzzle is known to have exactly one solution, so uniqueness
    /// techniques may rely on it.
    unique: bool,
    /// Per cell: its value was given (not placed while solving). Avoidable
    /// rectangles reason about the placed ones.
    given: Vec<bool>,
    /// A deadline or cancel flag the techniques poll in their outer loops,
    /// so that a long search (a large board's fish, chains, ALSs, forcing
    /// chains) ends soon after it is asked to; see [`Board::set_limits`].
    stop: Option<Limits>,
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.shape == other.shape && self.values == other.values && self.cand == other.cand
    }
}

impl Eq for Board {}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Board")
            .field("shape", &self.shape)
            .field("values", &self.values)
            .field("cand", &self.cand)
            .finish()
    }
}

impl Board {
    /// The position of `values` with every candidate no solved peer rules out.
    pub fn from_values(shape: Shape, values: &[Option<Value>]) -> Result<Board, BoardError> {
        let n = shape.n();
        if n > MAX_LOGIC_SIDE {
            return Err(BoardError::TooLarge(n));
        }
        let full = all_digits(n);
        let tables = shape.tables();
        let mut b = Board {
            shape,
            tables,
            n,
            values: values.to_vec(),
            cand: vec![full; shape.cells()],
            places: Vec::new(),
            placed: Vec::new(),
            unique: false,
            given: values.iter().map(Option::is_some).collect(),
            stop: None,
        };
        for c in 0..shape.cells() {
            if let Some(v) = values.get(c).copied().flatten() {
                b.cand[c] = 0;
                let bit = 1u64 << v.index();
                for p in b.tables.peers(c) {
                    b.cand[p] &= !bit;
                }
            }
        }
        for c in 0..shape.cells() {
            if b.values[c].is_some() {
                b.cand[c] = 0;
            }
        }
        b.places = vec![0; shape.units() * n];
        b.placed = vec![0; shape.units()];
        for c in 0..shape.cells() {
            for (u, i) in b.positions(c) {
                for d in bits(b.cand[c]) {
                    b.places[u * n + d] |= 1 << i;
                }
                if let Some(v) = b.values[c] {
                    b.placed[u] |= 1 << v.index();
                }
            }
        }
        Ok(b)
    }

    /// Cell `c`'s units (row, column, box) with its position in each
    /// (bit i of a unit's [`Board::places`] is its i-th cell).
    #[inline]
    pub(super) fn positions(&self, c: usize) -> [(usize, usize); 3] {
        let [row, column, boxu] = self.units_of(c);
        let [i, j, k] = self.tables.positions(c);
        [(row, i), (column, j), (boxu, k)]
    }

    /// Removes the candidates `gone` (a subset of its candidates) from
    /// cell `c`.
    fn drop_candidates(&mut self, c: usize, gone: u64) {
        if gone == 0 {
            return;
        }
        self.cand[c] &= !gone;
        let n = self.n;
        for (u, i) in self.positions(c) {
            for d in bits(gone) {
                self.places[u * n + d] &= !(1 << i);
            }
        }
    }

    /// The position of a puzzle's givens.
    pub fn from_puzzle(p: &Puzzle) -> Result<Board, BoardError> {
        Board::from_values(p.shape(), p.cells())
    }

    /// Declares whether the puzzle is known to have exactly one solution;
    /// uniqueness techniques (unique rectangles, BUG+1) find nothing unless
    /// it is.
    pub fn set_known_unique(&mut self, unique: bool) {
        self.unique = unique;
    }

    /// Lets `limits`' deadline and cancel flag cut the techniques' searches
    /// short (their node budget is not used here). A technique asked to stop
    /// returns the steps it has found so far, each as sound as ever; callers
    /// check [`Board::stopped`] before treating "no step" as "none exists".
    /// Copies of the board (forcing chains follow assumptions on copies)
    /// keep the limits.
    pub fn set_limits(&mut self, limits: &Limits) {
        self.stop = (limits.deadline.is_some() || limits.cancel.is_some()).then(|| Limits {
            node_budget: None,
            ..limits.clone()
        });
    }

    /// Whether the limits given to [`Board::set_limits`] say stop now.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(|l| l.check(0).is_some())
    }

    /// Whether the puzzle is known to have exactly one solution.
    pub fn known_unique(&self) -> bool {
        self.unique
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The side n.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The shared unit and peer tables.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// The cells of unit `u` (rows 0..n, columns n..2n, boxes 2n..3n).
    pub fn unit(&self, u: usize) -> &[u32] {
        self.tables.unit(u)
    }

    /// Row, column and box of cell `c`.
    pub fn units_of(&self, c: usize) -> [usize; 3] {
        self.tables.units_of(c).map(|u| u as usize)
    }

    /// The units every cell of `cells` lies in (row, column, box order);
    /// empty when `cells` is.
    pub fn shared_units(&self, cells: &[usize]) -> Vec<usize> {
        let Some(&first) = cells.first() else {
            return Vec::new();
        };
        let head = self.units_of(first);
        (0..3)
            .filter(|&k| cells.iter().all(|&c| self.units_of(c)[k] == head[k]))
            .map(|k| head[k])
            .collect()
    }

    /// Whether two distinct cells share a unit.
    pub fn sees(&self, a: usize, b: usize) -> bool {
        a != b && {
            let (ua, ub) = (self.units_of(a), self.units_of(b));
            ua[0] == ub[0] || ua[1] == ub[1] || ua[2] == ub[2]
        }
    }

    /// The value of cell `c`.
    pub fn value(&self, c: usize) -> Option<Value> {
        self.values[c]
    }

    /// The candidates of cell `c` as a bit mask (bit d: digit index d).
    pub fn mask(&self, c: usize) -> u64 {
        self.cand[c]
    }

    /// Whether cell `c` has digit index `d` as a candidate.
    pub fn has(&self, c: usize, d: usize) -> bool {
        self.cand[c] >> d & 1 == 1
    }

    /// Number of candidates of cell `c`.
    pub fn count(&self, c: usize) -> u32 {
        self.cand[c].count_ones()
    }

    /// The candidates of cell `c`, as digit indices.
    pub fn digits(&self, c: usize) -> impl Iterator<Item = usize> + use<> {
        bits(self.cand[c])
    }

    /// The positions (indices into the unit) of unit `u` where digit `d` is a
    /// candidate, as a bit mask.
    pub fn places(&self, u: usize, d: usize) -> u64 {
        self.places[u * self.n + d]
    }

    /// [`Board::places`] counted from the unit's cells (what the kept sets
    /// are checked against).
    #[cfg(test)]
    pub(crate) fn places_counted(&self, u: usize, d: usize) -> u64 {
        self.unit(u)
            .iter()
            .enumerate()
            .filter(|&(_, &c)| self.has(c as usize, d))
            .fold(0, |m, (i, _)| m | 1 << i)
    }

    /// The cells of unit `u` where digit `d` is a candidate.
    pub fn cells_with(&self, u: usize, d: usize) -> Vec<usize> {
        let unit = self.unit(u);
        bits(self.places(u, d)).map(|j| unit[j] as usize).collect()
    }

    /// Every conjugate pair (strong link) of digit `d`: `(unit, a, b)` for
    /// each unit where `d` has exactly the two places `a` < `b`. A pair that
    /// shares a line and a box is listed once per unit.
    pub fn conjugate_pairs(&self, d: usize) -> Vec<(usize, usize, usize)> {
        (0..self.shape.units())
            .filter_map(|u| match self.cells_with(u, d)[..] {
                [a, b] => Some((u, a, b)),
                _ => None,
            })
            .collect()
    }

    /// The candidates among `mask`'s digits in cells that see every cell of
    /// `ends` (a cell sees the others of its row, column and box, not
    /// itself), outside `pattern`; sorted by cell, then value. Empty when
    /// `ends` is.
    pub fn seen_by_all(&self, mask: u64, ends: &[usize], pattern: &[usize]) -> Vec<(usize, Value)> {
        let Some((&first, rest)) = ends.split_first() else {
            return Vec::new();
        };
        // Whatever sees every end is a peer of the first one.
        let mut cells: Vec<usize> = self
            .tables
            .peers(first)
            .filter(|&c| {
                self.cand[c] & mask != 0
                    && !pattern.contains(&c)
                    && rest.iter().all(|&e| self.sees(c, e))
            })
            .collect();
        cells.sort_unstable();
        cells.dedup();
        cells
            .into_iter()
            .flat_map(|c| bits(self.cand[c] & mask).map(move |d| (c, Value::from_index(d))))
            .collect()
    }

    /// The symbols of `mask`'s digits, concatenated (`"358"`).
    pub fn symbols(&self, mask: u64) -> String {
        bits(mask).map(|d| self.symbol(d)).collect()
    }

    /// Whether unit `u` already holds digit `d`.
    pub fn unit_has_value(&self, u: usize, d: usize) -> bool {
        self.placed_in(u) >> d & 1 == 1
    }

    /// The digits placed in unit `u` (bit d).
    pub fn placed_in(&self, u: usize) -> u64 {
        self.placed[u]
    }

    /// Removes candidate `d` from cell `c`.
    pub fn remove(&mut self, c: usize, d: usize) {
        self.drop_candidates(c, self.cand[c] & 1 << d);
    }

    /// Whether cell `c`'s value was given (every value the board was made
    /// with counts as given until [`Board::set_given`] says otherwise;
    /// values placed later never do).
    pub fn is_given(&self, c: usize) -> bool {
        self.given.get(c).copied().unwrap_or(false)
    }

    /// Declares whether cell `c`'s value was given or placed by the solver
    /// (a player's entry is placed).
    pub fn set_given(&mut self, c: usize, given: bool) {
        if let Some(g) = self.given.get_mut(c) {
            *g = given && self.values[c].is_some();
        }
    }

    /// Places digit index `d` in cell `c` and removes it from the peers.
    pub fn place(&mut self, c: usize, d: usize) {
        self.values[c] = Some(Value::from_index(d));
        self.given[c] = false;
        for (u, _) in self.positions(c) {
            self.placed[u] |= 1 << d;
        }
        self.drop_candidates(c, self.cand[c]);
        let tables = Arc::clone(&self.tables);
        for p in tables.peers(c) {
            self.drop_candidates(p, self.cand[p] & 1 << d);
        }
    }

    /// Applies a step's placements and eliminations.
    pub fn apply(&mut self, step: &super::Step) {
        for &(c, v) in &step.eliminations {
            self.remove(c, v.index());
        }
        for &(c, v) in &step.placements {
            self.place(c, v.index());
        }
    }

    /// The position as a key for the searches' per-thread caches: the box
    /// shape, every cell's candidates, then every cell's value (digit
    /// index, or all ones).
    pub(crate) fn position_key(&self) -> Vec<u64> {
        let cells = self.shape.cells();
        [self.shape.box_rows() as u64, self.shape.box_cols() as u64]
            .into_iter()
            .chain((0..cells).map(|c| self.mask(c)))
            .chain((0..cells).map(|c| self.value(c).map_or(u64::MAX, |v| v.index() as u64)))
            .collect()
    }

    /// Whether every cell has a value.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(Option::is_some)
    }

    /// `r3c5`.
    pub fn cell_name(&self, c: usize) -> String {
        format!("r{}c{}", c / self.n + 1, c % self.n + 1)
    }

    /// `row 3`, `column 5`, `box 7`.
    pub fn unit_name(&self, u: usize) -> String {
        self.shape.unit_name(u)
    }

    /// A value as shown: `1`–`9`, then letters up to n = 35, numbers beyond.
    pub fn symbol(&self, d: usize) -> String {
        crate::engine::grid::symbol(self.n, d + 1)
    }

    /// Checks the position for contradictions: a cell without value or
    /// candidate, a value twice in a unit, a value with no place in a unit.
    pub fn check(&self) -> Result<(), BoardError> {
        for c in 0..self.shape.cells() {
            if self.values[c].is_none() && self.cand[c] == 0 {
                return Err(BoardError::EmptyCell(self.cell_name(c)));
            }
        }
        let all = all_digits(self.n);
        for u in 0..self.shape.units() {
            // Values placed, and candidates open, in the unit, as masks.
            let (mut placed, mut open) = (0u64, 0u64);
            for &c in self.unit(u) {
                let c = c as usize;
                match self.values[c] {
                    Some(v) if placed >> v.index() & 1 == 1 => {
                        let first = self
                            .unit(u)
                            .iter()
                            .map(|&x| x as usize)
                            .find(|&x| self.values[x] == Some(v))
                            .unwrap_or(c);
                        return Err(BoardError::Duplicate(
                            self.cell_name(first),
                            self.cell_name(c),
                        ));
                    }
                    Some(v) => placed |= 1 << v.index(),
                    None => open |= self.cand[c],
                }
            }
            let lost = all & !placed & !open;
            if lost != 0 {
                return Err(BoardError::NoPlace {
                    unit: self.unit_name(u),
                    value: self.symbol(lost.trailing_zeros() as usize),
                });
            }
        }
        Ok(())
    }
}

/// The mask of all `n` digits (`n` ≤ 64).
fn all_digits(n: usize) -> u64 {
    if n == 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// The set bits of a mask, lowest first.
pub fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(b)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::generate::random::{below, rng_for};

    /// The places and placed digits kept with the candidates agree with
    /// the cells, on square and rectangular boxes, through removals and
    /// placements.
    #[test]
    fn places_kept_with_the_candidates_match_the_cells() {
        let mut rng = rng_for(1);
        for shape in [
            Shape::square(2).unwrap(),
            Shape::new(2, 3).unwrap(),
            Shape::new(3, 2).unwrap(),
            Shape::CLASSIC,
            Shape::new(3, 4).unwrap(),
            Shape::square(5).unwrap(),
        ] {
            let n = shape.n();
            let mut values = vec![None; shape.cells()];
            values[0] = Some(Value::from_index(0));
            values[n + 2] = Some(Value::from_index(1));
            let mut b = Board::from_values(shape, &values).unwrap();
            let check = |b: &Board| {
                for u in 0..shape.units() {
                    for d in 0..n {
                        assert_eq!(
                            b.places(u, d),
                            b.places_counted(u, d),
                            "unit {u}, digit {d}"
                        );
                        let has = b
                            .unit(u)
                            .iter()
                            .any(|&c| b.value(c as usize).is_some_and(|v| v.index() == d));
                        assert_eq!(b.unit_has_value(u, d), has, "unit {u}, digit {d}");
                    }
                }
            };
            check(&b);
            for round in 0..4 * n {
                let c = below(&mut rng, shape.cells());
                if b.value(c).is_some() || b.count(c) == 0 {
                    continue;
                }
                let ds: Vec<usize> = b.digits(c).collect();
                let d = ds[below(&mut rng, ds.len())];
                if round % 3 == 0 {
                    b.place(c, d);
                } else {
                    b.remove(c, d);
                }
                check(&b);
            }
        }
    }
}
