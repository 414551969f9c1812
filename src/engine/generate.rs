//! The puzzle generator: random full grids, then digging out clues in
//! symmetric orbits while the puzzle keeps exactly one solution.
//!
//! Everything random comes from one [`ChaCha8Rng`] seeded with
//! [`GenerateOptions::seed`] (see [`random::rng_for`] for why ChaCha8), and
//! every uniqueness check is bounded by a node budget rather than by time,
//! so the same options and seed give the same puzzle on every machine
//! (for one version of dekadoku: a change to the solver or to this module
//! may change which puzzle a seed makes).
//!
//! To [`generate`], a [`Level`] is only a clue-count target
//! ([`clue_range`]): fewer clues for harder levels, and
//! [`Level::Extreme`] digs until no orbit can go. [`generate_graded`]
//! makes the level mean the techniques a puzzle needs: it grades what it
//! digs and keeps what matches.
//!
//! ```
//! use dekadoku::engine::generate::{generate, GenerateOptions, Symmetry};
//! use dekadoku::engine::{is_unique, Level, Limits, Shape};
//!
//! let mut opts = GenerateOptions::new(Shape::CLASSIC, Level::Medium, 2024);
//! opts.symmetry = Symmetry::Rotate180;
//! let g = generate(&opts, &Limits::none()).unwrap();
//! assert_eq!(is_unique(&g.puzzle, &Limits::none()), Some(true));
//! assert!(g.puzzle.is_solved_by(&g.solution));
//! // The same seed makes the same puzzle.
//! assert_eq!(generate(&opts, &Limits::none()).unwrap().puzzle, g.puzzle);
//! ```

mod aim;
pub mod bundled;
pub mod daily;
mod full;
pub mod graded;
mod progress;
pub mod random;
mod symmetry;

use rand_chacha::ChaCha8Rng;

use crate::engine::grid::{Grid, Puzzle};
use crate::engine::level::Level;
use crate::engine::limits::{Limits, StopReason};
use crate::engine::shape::Shape;
use crate::engine::solve::Solver;

pub use bundled::{BUNDLED_SIZES, bundled};
pub use full::{SEARCHED_MAX_SIDE, full_grid};
pub use graded::{Graded, generate_graded};
pub use progress::{Progress, Stage};
pub use symmetry::{Symmetry, SymmetryError};

use random::{below, rng_for, shuffle};

/// What to generate.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GenerateOptions {
    /// The board shape.
    pub shape: Shape,
    /// The level aimed at: a clue-count target ([`clue_range`]) for
    /// [`generate`], the grader's level for [`generate_graded`].
    pub level: Level,
    /// The clue symmetry.
    pub symmetry: Symmetry,
    /// The seed: the same options and seed give the same puzzle.
    pub seed: u64,
    /// A clue-count range (inclusive) that replaces the level's.
    pub clues: Option<(usize, usize)>,
    /// Dig until no clue orbit can go (a minimal puzzle, up to the
    /// symmetry), whatever the level's clue range; within `clues` when set
    /// (never below its minimum).
    pub minimal: bool,
    /// For [`generate_graded`]: an SE-style rating range the hardest step
    /// must also fall in, in tenths, inclusive (`(70, 79)` is 7.0–7.9).
    pub rating: Option<(u16, u16)>,
    /// Where [`generate_graded`] says what it is doing as it works (tries,
    /// digging or grading, the closest level so far); by default nobody
    /// watches. It never changes the puzzle made.
    pub progress: Progress,
}

impl GenerateOptions {
    /// Options for `shape` and `level` with no symmetry and the level's clue range.
    pub fn new(shape: Shape, level: Level, seed: u64) -> GenerateOptions {
        GenerateOptions {
            shape,
            level,
            symmetry: Symmetry::None,
            seed,
            clues: None,
            minimal: false,
            rating: None,
            progress: Progress::default(),
        }
    }

    /// The clue range aimed at: the override, or the level's.
    pub fn clue_target(&self) -> (usize, usize) {
        match self.clues {
            Some((a, b)) => {
                let cells = self.shape.cells();
                (a.min(b).min(cells), a.max(b).min(cells))
            }
            None => clue_range(self.shape, self.level),
        }
    }
}

/// A generated puzzle with its solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle: exactly one solution.
    pub puzzle: Puzzle,
    /// Its solution.
    pub solution: Grid,
    /// Number of clues in `puzzle`.
    pub clues: usize,
    /// The seed it was made from.
    pub seed: u64,
    /// The level it was aimed at.
    pub level: Level,
}

/// Clue targets as per-mille of the n² cells, [low, high] for Easy,
/// Medium, Hard and Expert, by the largest side each row covers.
///
/// Measured with this generator: digging to minimal leaves about 25 % of
/// the cells at 4×4, 28 % at 6×6, 30 % at 9×9, 33 % at 12×12, 37 % at
/// 16×16 and 45 % at 25×25 (a few points more with symmetry), so Expert
/// sits just above those and the easier levels above it. The bundled sides
/// get whole-number ranges: 9×9 is 36–40, 31–35, 28–30, 24–27.
const PER_MILLE: [(usize, [(usize, usize); 4]); 10] = [
    // 4×4: 9–10, 7–8, 6, 4–5.
    (4, [(540, 625), (420, 500), (350, 375), (250, 330)]),
    // 6×6: 18–20, 15–17, 13–14, 10–12.
    (6, [(500, 560), (410, 475), (355, 395), (270, 340)]),
    // 9×9: 36–40, 31–35, 28–30, 24–27.
    (9, [(440, 495), (380, 435), (340, 375), (290, 335)]),
    // 12×12: 70–78, 62–69, 56–61, 50–55.
    (12, [(486, 545), (427, 482), (385, 425), (346, 385)]),
    // 16×16: 125–138, 113–124, 104–112, 96–103.
    (16, [(485, 540), (440, 485), (405, 440), (372, 404)]),
    // 25×25: 360–390, 335–359, 315–334, 300–314.
    (25, [(576, 624), (536, 575), (504, 535), (480, 503)]),
    // From 36×36 up, the targets stay above the clue density where the
    // uniqueness search turns hard for the size (checks of seconds each):
    // about 50 % clues at 36×36, 57 % at 49×49, 62 % at 64×64 and 67 % at
    // 100×100.
    (36, [(600, 650), (575, 599), (550, 574), (530, 549)]),
    (49, [(630, 670), (610, 629), (595, 609), (585, 594)]),
    (64, [(670, 710), (650, 669), (640, 649), (630, 639)]),
    (usize::MAX, [(720, 760), (705, 719), (695, 704), (685, 694)]),
];

/// The clue counts (inclusive) the generator aims at for `level` on `shape`.
///
/// This is all a level means to [`generate`]; [`generate_graded`] starts
/// from it and grades what it digs.
/// [`Level::Extreme`] has no target: it digs until no orbit can be removed
/// (a minimal puzzle, up to symmetry), so its range is every count.
pub fn clue_range(shape: Shape, level: Level) -> (usize, usize) {
    let cells = shape.cells();
    let n = shape.n();
    let i = match level {
        Level::Easy => 0,
        Level::Medium => 1,
        Level::Hard => 2,
        Level::Expert => 3,
        Level::Extreme => return (0, cells),
    };
    let row = PER_MILLE
        .iter()
        .find(|(side, _)| n <= *side)
        .map_or(PER_MILLE[PER_MILLE.len() - 1].1, |(_, r)| *r);
    let (lo, hi) = row[i];
    ((cells * lo).div_ceil(1000), cells * hi / 1000)
}

/// The levels [`generate_graded`] makes on `shape`, easiest first: the
/// ones worth offering a player or accepting on the command line.
///
/// Measured with this generator (2026-11-25; `tests` check that each is
/// produced): every 4×4 puzzle needs only singles, so Easy alone; on 6×6
/// Easy to Hard (Expert comes out in about half the requests even after
/// 400 tries, Extreme never); from 8×8 up every level. Sides above
/// [`crate::engine::logic::MAX_LOGIC_SIDE`], where a level is a clue-count
/// target, take every level.
pub fn levels_for(shape: Shape) -> &'static [Level] {
    match shape.n() {
        0..=4 => &[Level::Easy],
        5..=7 => &[Level::Easy, Level::Medium, Level::Hard],
        _ => &Level::ALL,
    }
}

/// The level of `levels_for(shape)` nearest `level`, the easier one on a
/// tie (`level` itself when offered).
pub fn nearest_level(shape: Shape, level: Level) -> Level {
    let offered = levels_for(shape);
    offered
        .iter()
        .copied()
        .min_by_key(|&l| ((l as i32) - (level as i32)).abs())
        .unwrap_or(Level::Easy)
}

/// The default node budget of one uniqueness check on `shape`: a check
/// that needs more counts as "not unique" and the clues stay. Checks that
/// refute one removed cell (see `unique`) rarely need more than a few
/// hundred nodes; those that need thousands are in the hard region, where
/// waiting buys little.
pub fn check_budget(shape: Shape) -> u64 {
    (shape.cells() as u64).saturating_mul(2).max(2_000)
}

/// Full grids tried before giving up on the clue range (the closest
/// puzzle found is returned then).
fn attempts(shape: Shape) -> usize {
    match shape.n() {
        0..=16 => 30,
        17..=36 => 4,
        _ => 1,
    }
}

/// Generates one puzzle.
///
/// Takes a random full grid ([`full_grid`]), then removes the clue orbits
/// of [`GenerateOptions::symmetry`] in random order, putting an orbit back
/// when the puzzle would lose its unique solution, until the clue count
/// reaches a target drawn from [`GenerateOptions::clue_target`] (for
/// Extreme without a range: until every orbit has been tried once). When
/// every orbit has been tried above the range, it starts again from a new
/// full grid, a few times; if none reaches the range the puzzle closest to
/// it is returned, so check [`Generated::clues`] when asking for a custom
/// range.
///
/// Each uniqueness check has a node budget: `limits.node_budget` when
/// set, else [`check_budget`]. A check that runs out of budget counts as
/// "not unique" (the clues stay), and a run of them ends the dig (see
/// `STALL_LIMIT`). `limits`' deadline and cancel flag are checked between
/// and inside the checks: a cancel ends generation with `Err`; a deadline
/// returns the closest puzzle dug so far (unique, but possibly above the
/// clue range), and `Err` only when it passes before the first full grid.
pub fn generate(opts: &GenerateOptions, limits: &Limits) -> Result<Generated, StopReason> {
    generate_dug(opts, limits, false)
}

/// [`generate`], with `patterned` digging (see [`Dig::patterned`]) where
/// the clues are single cells on 9×9.
pub(crate) fn generate_dug(
    opts: &GenerateOptions,
    limits: &Limits,
    patterned: bool,
) -> Result<Generated, StopReason> {
    let shape = opts.shape;
    let mut rng = rng_for(opts.seed);
    let mut solver = Solver::new();
    let outer = Limits {
        node_budget: None,
        ..limits.clone()
    };
    let check = Limits {
        node_budget: Some(limits.node_budget.unwrap_or_else(|| check_budget(shape))),
        ..outer.clone()
    };
    let minimal = opts.minimal || (opts.clues.is_none() && opts.level == Level::Extreme);
    let (lo, hi) = if minimal && opts.clues.is_none() {
        (0, shape.cells())
    } else {
        opts.clue_target()
    };
    let orbits = opts.symmetry.orbits(shape.n());
    let mut best: Option<(usize, Puzzle, Grid)> = None;
    for _ in 0..attempts(shape) {
        if let Some(stop) = outer.check(0) {
            if stop == StopReason::Deadline && best.is_some() {
                break;
            }
            return Err(stop);
        }
        let solution = full::full_grid_with(shape, &mut rng, &mut solver);
        let target = if minimal {
            0
        } else {
            lo + below(&mut rng, hi - lo + 1)
        };
        let dig = Dig {
            orbits: &orbits,
            floor: lo,
            target,
            outer: &outer,
            check: &check,
            patterned: patterned && shape == Shape::CLASSIC && orbits.len() == shape.cells(),
        };
        let (puzzle, late) = dig.run(&solution, &mut rng, &mut solver)?;
        let clues = puzzle.clue_count();
        let miss = lo.saturating_sub(clues) + clues.saturating_sub(hi);
        if best.as_ref().is_none_or(|(m, _, _)| miss < *m) {
            best = Some((miss, puzzle, solution));
        }
        if miss == 0 || late {
            break;
        }
    }
    match best {
        Some((_, puzzle, solution)) => Ok(Generated {
            clues: puzzle.clue_count(),
            puzzle,
            solution,
            seed: opts.seed,
            level: opts.level,
        }),
        // attempts() is at least 1, so a puzzle was dug.
        None => Err(StopReason::Cancelled),
    }
}

/// One digging pass over a full grid.
struct Dig<'a> {
    orbits: &'a [Vec<usize>],
    /// Never go below this many clues.
    floor: usize,
    /// Stop at or below this many clues.
    target: usize,
    /// The caller's deadline and cancel flag, checked between checks.
    outer: &'a Limits,
    /// The limits of one uniqueness check.
    check: &'a Limits,
    /// 9×9 with single-cell orbits only: the cells outside the clue
    /// pattern of a hard puzzle (one of [`hard_patterns`], moved by a
    /// random band, stack, row-in-band and column-in-stack permutation)
    /// are tried first, then the pattern's, each part in random order.
    /// A minimal dig ends mostly on the pattern, and is Extreme about three
    /// times as often: 9×9 Extreme, seeds 1–30, 44 tries a request median
    /// against 141 (the patterns of our own Extreme puzzles: 82), with all
    /// 2,000 patterns; the 300 kept reach Extreme 1.4 times as often again
    /// (3.36 % of tries against 2.43 %, on tries not used to choose them).
    patterned: bool,
}

/// The clue patterns 9×9 Extreme digs toward ([`Dig::patterned`]): of
/// 300 puzzles of the forum's "hardest" list, as 81-bit masks, the
/// first cell the highest bit (`hard_patterns.txt`, masks only): the 300
/// of 2,000 whose digs were most often past Expert.
fn hard_patterns() -> &'static [u128] {
    static PATTERNS: std::sync::OnceLock<Vec<u128>> = std::sync::OnceLock::new();
    PATTERNS.get_or_init(|| {
        include_str!("generate/hard_patterns.txt")
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .filter_map(|l| u128::from_str_radix(l, 16).ok())
            .collect()
    })
}

impl Dig<'_> {
    /// Removes the orbits in a random order, each one only when the puzzle
    /// stays unique without it: the greedy dig. Orbits are tried in batches
    /// that double after a batch that could all go and halve after one that
    /// could not (down to a single orbit, which then stays). A batch that
    /// can go leaves every orbit in it removable one at a time too (fewer
    /// holes keep the solution unique), so the result is the one-by-one
    /// greedy dig's, with far fewer checks while most orbits can go — the
    /// first half of every dig, and nearly all the time on large grids.
    ///
    /// The dig also ends after [`STALL_LIMIT`] single-orbit checks in a row
    /// that ran out of node budget, and at the deadline; the puzzle dug so
    /// far is unique either way, and `true` says the deadline passed.
    fn run(
        &self,
        solution: &Grid,
        rng: &mut ChaCha8Rng,
        solver: &mut Solver,
    ) -> Result<(Puzzle, bool), StopReason> {
        let mut order: Vec<usize> = (0..self.orbits.len()).collect();
        shuffle(rng, &mut order);
        if self.patterned && !hard_patterns().is_empty() {
            let patterns = hard_patterns();
            let pattern = patterns[below(rng, patterns.len())];
            // Bands and stacks reordered, rows and columns within them.
            let (rows, cols) = (full::blocks(rng, 3, 3), full::blocks(rng, 3, 3));
            let on = |o: usize| {
                let c = self.orbits[o][0];
                pattern >> (80 - (rows[c / 9] * 9 + cols[c % 9])) & 1 == 1
            };
            // Stable: each part keeps its random order.
            order.sort_by_key(|&o| on(o));
        }
        let mut puzzle = solution.to_puzzle();
        let mut clues = puzzle.clue_count();
        let mut next = 0;
        let mut batch = 1;
        let mut stalls = 0;
        let mut removed = Vec::new();
        while next < order.len() && clues > self.target && stalls < STALL_LIMIT {
            // The batch: up to `batch` orbits from `next`, never taking the
            // count below the floor, nor further below the target than its
            // last orbit does.
            let mut taken = 0;
            let mut cells = 0;
            for &o in &order[next..] {
                let len = self.orbits[o].len();
                if taken == batch
                    || clues - cells <= self.target
                    || clues - cells - len < self.floor
                {
                    break;
                }
                taken += 1;
                cells += len;
            }
            if taken == 0 {
                // The next orbit would cross the floor: it stays.
                next += 1;
                continue;
            }
            let span = &order[next..next + taken];
            removed.clear();
            removed.extend(span.iter().flat_map(|&o| self.orbits[o].iter().copied()));
            for &c in &removed {
                clear(&mut puzzle, c);
            }
            let check = match self.outer.check(0) {
                Some(stop) => Err(stop),
                None => unique(solver, &puzzle, solution, &removed, self.check),
            };
            if check != Ok(Check::Unique) {
                for &c in &removed {
                    restore(&mut puzzle, solution, c);
                }
            }
            match check {
                Ok(Check::Unique) => {
                    clues -= cells;
                    next += taken;
                    batch *= 2;
                    stalls = 0;
                }
                Ok(result) if taken == 1 => {
                    next += 1;
                    stalls += usize::from(result == Check::Unknown);
                }
                Ok(_) => batch = taken / 2,
                Err(StopReason::Deadline) => return Ok((puzzle, true)),
                Err(stop) => return Err(stop),
            }
        }
        Ok((puzzle, false))
    }
}

/// Single-orbit checks in a row that may run out of node budget before a
/// dig stops. Checks that hard mean the puzzle has reached the clue density
/// where search is hardest for its size (about 58 % clues on 49×49, 62 % on
/// 64×64): digging on would cost seconds per orbit for little.
const STALL_LIMIT: usize = 16;

fn clear(puzzle: &mut Puzzle, cell: usize) {
    // Clearing a cell cannot fail.
    let _ = puzzle.set(cell, None);
}

fn restore(puzzle: &mut Puzzle, solution: &Grid, cell: usize) {
    // A value of the puzzle's own solution is always in range.
    let _ = puzzle.set(cell, Some(solution.get(cell)));
}

/// What a uniqueness check found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Check {
    Unique,
    /// Another solution was found.
    NotUnique,
    /// The node budget ran out first.
    Unknown,
}

/// Whether `puzzle`, made from a unique puzzle with solution `solution` by
/// emptying `removed`, still has exactly one solution, as far as the node
/// budget of `limits` tells; a deadline or cancel is an error.
///
/// Any other solution differs from `solution` at some removed cell, so the
/// question is asked one removed cell at a time — the earlier ones put back
/// at their solution digit, this one barred from it — and each search need
/// only refute that one alternative, never find the known solution first.
/// Large batches (the early, easy part of a dig) are counted to two
/// instead, one search for the whole batch, and so is every 9×9 check
/// (the 9×9 kernel counts faster than the general search refutes).
fn unique(
    solver: &mut Solver,
    puzzle: &Puzzle,
    solution: &Grid,
    removed: &[usize],
    limits: &Limits,
) -> Result<Check, StopReason> {
    // The 9×9 kernel counts to two faster than any exclusion search.
    if removed.len() > EXCLUDE_MAX || puzzle.shape() == Shape::CLASSIC {
        let count = solver.count(puzzle, 2, limits);
        return match count.stopped {
            Some(StopReason::NodeBudget) => Ok(Check::Unknown),
            Some(stop) => Err(stop),
            None if count.exact && count.solutions == 1 && count.conflicts.is_empty() => {
                Ok(Check::Unique)
            }
            None => Ok(Check::NotUnique),
        };
    }
    let mut p = puzzle.clone();
    for &c in removed {
        let found = solver.find_excluding(&p, &[(c, solution.get(c).index())], limits);
        match found.stopped {
            Some(StopReason::NodeBudget) => return Ok(Check::Unknown),
            Some(stop) => return Err(stop),
            None if !found.witnesses.is_empty() || !found.exhausted => {
                return Ok(Check::NotUnique);
            }
            None => restore(&mut p, solution, c),
        }
    }
    Ok(Check::Unique)
}

/// Most removed cells whose uniqueness [`unique`] checks one cell at a
/// time; larger batches are counted to two.
const EXCLUDE_MAX: usize = 4;

/// Whether every clue of `puzzle` is needed: `Some(true)` when removing any
/// one clue leaves more than one solution (or none), `Some(false)` when
/// some clue can go and the solution stays unique, `None` when a limit
/// stopped a check first. Meant for unique puzzles.
pub fn is_minimal(puzzle: &Puzzle, limits: &Limits) -> Option<bool> {
    let mut solver = Solver::new();
    let mut p = puzzle.clone();
    for c in 0..p.cells().len() {
        let Some(v) = p.get(c) else { continue };
        clear(&mut p, c);
        let count = solver.count(&p, 2, limits);
        if count.stopped.is_some() {
            return None;
        }
        if count.exact && count.solutions == 1 {
            return Some(false);
        }
        let _ = p.set(c, Some(v));
    }
    Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hard_patterns_are_read_and_moved_within_bands() {
        let patterns = hard_patterns();
        assert_eq!(patterns.len(), 300);
        for &p in patterns {
            // 81 cells; no unique 9×9 puzzle has fewer than 17 clues.
            assert_eq!(p >> 81, 0);
            assert!((17..=40).contains(&p.count_ones()), "{p:x}");
        }
        // The patterns move as a full grid's rows and columns do.
        let mut rng = rng_for(7);
        for _ in 0..50 {
            let perm = full::blocks(&mut rng, 3, 3);
            let mut seen = perm.clone();
            seen.sort_unstable();
            assert_eq!(seen, [0, 1, 2, 3, 4, 5, 6, 7, 8]);
            for band in perm.chunks(3) {
                assert!(band.iter().all(|r| r / 3 == band[0] / 3), "{perm:?}");
            }
        }
    }
    use crate::engine::count::is_unique;

    #[test]
    fn ranges_shrink_with_the_level_and_fit_the_grid() {
        for k in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5), (10, 10)] {
            let shape = Shape::new(k.0, k.1).unwrap();
            let mut prev = shape.cells() + 1;
            for level in [Level::Easy, Level::Medium, Level::Hard, Level::Expert] {
                let (lo, hi) = clue_range(shape, level);
                assert!(lo <= hi && hi < prev, "{shape} {level}: {lo}-{hi}");
                prev = lo;
            }
            assert_eq!(clue_range(shape, Level::Extreme), (0, shape.cells()));
        }
        let want: [(Shape, [(usize, usize); 4]); 6] = [
            (Shape::square(2).unwrap(), [(9, 10), (7, 8), (6, 6), (4, 5)]),
            (
                Shape::new(2, 3).unwrap(),
                [(18, 20), (15, 17), (13, 14), (10, 12)],
            ),
            (Shape::CLASSIC, [(36, 40), (31, 35), (28, 30), (24, 27)]),
            (
                Shape::new(3, 4).unwrap(),
                [(70, 78), (62, 69), (56, 61), (50, 55)],
            ),
            (
                Shape::square(4).unwrap(),
                [(125, 138), (113, 124), (104, 112), (96, 103)],
            ),
            (
                Shape::square(5).unwrap(),
                [(360, 390), (335, 359), (315, 334), (300, 314)],
            ),
        ];
        for (shape, ranges) in want {
            for (level, r) in [Level::Easy, Level::Medium, Level::Hard, Level::Expert]
                .into_iter()
                .zip(ranges)
            {
                assert_eq!(clue_range(shape, level), r, "{shape} {level}");
            }
        }
    }

    #[test]
    fn extreme_digs_to_a_minimal_puzzle() {
        let opts = GenerateOptions::new(Shape::CLASSIC, Level::Extreme, 5);
        let g = generate(&opts, &Limits::none()).unwrap();
        assert_eq!(is_unique(&g.puzzle, &Limits::none()), Some(true));
        assert_eq!(is_minimal(&g.puzzle, &Limits::none()), Some(true));
        let easy = GenerateOptions::new(Shape::CLASSIC, Level::Easy, 5);
        let e = generate(&easy, &Limits::none()).unwrap();
        assert_eq!(is_minimal(&e.puzzle, &Limits::none()), Some(false));
    }

    #[test]
    fn minimal_on_request_at_any_level_and_symmetry() {
        for (level, symmetry, seed) in [
            (Level::Easy, Symmetry::None, 1),
            (Level::Hard, Symmetry::Rotate180, 2),
        ] {
            let mut opts = GenerateOptions::new(Shape::CLASSIC, level, seed);
            opts.symmetry = symmetry;
            opts.minimal = true;
            let g = generate(&opts, &Limits::none()).unwrap();
            assert_eq!(is_unique(&g.puzzle, &Limits::none()), Some(true));
            if symmetry == Symmetry::None {
                assert_eq!(is_minimal(&g.puzzle, &Limits::none()), Some(true));
            }
            // Far fewer clues than an easy puzzle's range.
            assert!(
                g.clues < clue_range(Shape::CLASSIC, Level::Easy).0,
                "{}",
                g.clues
            );
        }
    }

    #[test]
    fn a_custom_range_replaces_the_level() {
        let mut opts = GenerateOptions::new(Shape::square(2).unwrap(), Level::Easy, 9);
        opts.clues = Some((7, 5));
        assert_eq!(opts.clue_target(), (5, 7));
        let g = generate(&opts, &Limits::none()).unwrap();
        assert!((5..=7).contains(&g.clues), "{}", g.clues);
    }
}
