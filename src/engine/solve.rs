//! Exact solvers. Every solver takes `(&Puzzle, &Limits, &mut impl TraceSink)`
//! and returns an [`Outcome`].
//!
//! [`solve`] and [`count_solutions`](crate::engine::count_solutions) pick the
//! candidate-set width from n and run the propagation solver
//! (`solve/propagate.rs`); a reusable [`Solver`] keeps its buffers between
//! puzzles for batch work. Classic 9×9 puzzles searched without a trace go
//! to the dedicated kernel (`solve/nine.rs`) instead, which is about ten
//! times faster; a trace always comes from the propagation solver.
//! [`Backend`] picks another search: Dancing Links (`solve/dlx.rs`) or
//! SAT ([`sat`]). The default, [`Backend::Auto`], picks per puzzle
//! (`solve/auto.rs`): propagation alone on small grids and on easy big
//! ones, otherwise SAT (or, counting past two, the two raced).

mod auto;
pub(crate) mod dlx;
pub(crate) mod nine;
pub(crate) mod propagate;
pub mod sat;

use crate::engine::bits::{Bits, Wide};
use crate::engine::grid::{Conflict, Grid, Puzzle};
use crate::engine::limits::{Limits, StopReason};
use crate::engine::shape::Shape;
use crate::engine::trace::TraceSink;

use propagate::Search;

/// What a solve found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// Exactly one solution.
    Solved(Grid),
    /// No solution (the givens do not conflict, but nothing fits).
    NoSolution,
    /// More than one solution: two different witnesses.
    Multiple(Grid, Grid),
    /// Some givens break the rules; each pair is listed.
    InvalidGivens(Vec<Conflict>),
    /// A limit stopped the search first.
    Stopped(StopReason),
}

impl Outcome {
    /// The solution, when there is exactly one.
    pub fn solution(&self) -> Option<&Grid> {
        match self {
            Outcome::Solved(g) => Some(g),
            _ => None,
        }
    }
}

/// Short human text: `solved`, `no solution`, `more than one solution`,
/// `the givens break the rules: r1c4 and r9c4 both hold 7`, `stopped:
/// deadline passed`.
impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Solved(_) => f.write_str("solved"),
            Outcome::NoSolution => f.write_str("no solution"),
            Outcome::Multiple(..) => f.write_str("more than one solution"),
            Outcome::InvalidGivens(conflicts) => {
                f.write_str("the givens break the rules")?;
                if let Some(first) = conflicts.first() {
                    write!(f, ": {first}")?;
                }
                match conflicts.len() {
                    0 | 1 => Ok(()),
                    k => write!(f, " (and {} more)", k - 1),
                }
            }
            Outcome::Stopped(reason) => write!(f, "stopped: {reason}"),
        }
    }
}

/// What the search loop reports, before it becomes an [`Outcome`] or a
/// [`Count`].
#[derive(Debug, Clone, Default)]
pub(crate) struct RawResult {
    /// Solutions found.
    pub(crate) count: u64,
    /// The first (at most two) solutions.
    pub(crate) witnesses: Vec<Grid>,
    /// True when the whole tree was searched (so `count` is exact).
    pub(crate) exhausted: bool,
    /// Set when a limit stopped the search.
    pub(crate) stopped: Option<StopReason>,
    /// Conflicting givens, when the puzzle broke the rules.
    pub(crate) conflicts: Vec<Conflict>,
    /// Search nodes (guesses) used.
    pub(crate) nodes: u64,
}

impl RawResult {
    /// The outcome of a search for two solutions: bad givens, two
    /// witnesses, one solution or none when the search finished, or
    /// stopped.
    pub(crate) fn into_outcome(self) -> Outcome {
        if !self.conflicts.is_empty() {
            return Outcome::InvalidGivens(self.conflicts);
        }
        let mut w = self.witnesses.into_iter();
        match (w.next(), w.next()) {
            (Some(a), Some(b)) => Outcome::Multiple(a, b),
            (Some(a), None) if self.exhausted => Outcome::Solved(a),
            (None, _) if self.exhausted => Outcome::NoSolution,
            _ => Outcome::Stopped(self.stopped.unwrap_or(StopReason::Cancelled)),
        }
    }

    /// The count of a search for up to a cap of solutions.
    pub(crate) fn into_count(self) -> Count {
        Count {
            solutions: self.count,
            exact: self.exhausted,
            stopped: self.stopped,
            conflicts: self.conflicts,
            witnesses: self.witnesses,
            nodes: self.nodes,
        }
    }
}

/// A solution count with a cap, and what the search met on the way.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Count {
    /// Solutions found (at most the cap).
    pub solutions: u64,
    /// True when `solutions` is the exact number (the search finished below the cap).
    pub exact: bool,
    /// Set when a limit stopped the count.
    pub stopped: Option<StopReason>,
    /// Conflicting givens, when the puzzle broke the rules (count is then 0).
    pub conflicts: Vec<Conflict>,
    /// The first solutions found, at most two.
    pub witnesses: Vec<Grid>,
    /// Search nodes (guesses) used.
    pub nodes: u64,
}

enum Engine {
    W16(Search<u16>),
    W32(Search<u32>),
    W64(Search<u64>),
    W128(Search<Wide<2>>),
    W256(Search<Wide<4>>),
    W448(Search<Wide<7>>),
}

macro_rules! on_engine {
    ($e:expr, $s:ident => $body:expr) => {
        match $e {
            Engine::W16($s) => $body,
            Engine::W32($s) => $body,
            Engine::W64($s) => $body,
            Engine::W128($s) => $body,
            Engine::W256($s) => $body,
            Engine::W448($s) => $body,
        }
    };
}

impl Engine {
    fn new(shape: Shape) -> Engine {
        let n = shape.n();
        if n <= u16::CAPACITY {
            Engine::W16(Search::new(shape))
        } else if n <= u32::CAPACITY {
            Engine::W32(Search::new(shape))
        } else if n <= u64::CAPACITY {
            Engine::W64(Search::new(shape))
        } else if n <= Wide::<2>::CAPACITY {
            Engine::W128(Search::new(shape))
        } else if n <= Wide::<4>::CAPACITY {
            Engine::W256(Search::new(shape))
        } else {
            Engine::W448(Search::new(shape))
        }
    }

    fn shape(&self) -> Shape {
        on_engine!(self, s => s.shape())
    }

    /// The last run's root candidates ([`Search::root_mask`]).
    fn root_mask(&self) -> Option<Vec<u64>> {
        on_engine!(self, s => s.root_mask())
    }

    /// Turns the propagation search's Hall-set pruning on or off.
    fn set_hall(&mut self, on: bool) {
        on_engine!(self, s => s.set_hall(on))
    }

    /// An untraced propagation search.
    fn run(&mut self, puzzle: &Puzzle, limit: u64, limits: &Limits) -> RawResult {
        on_engine!(self, s => s.run(puzzle, limit, limits, &mut crate::engine::trace::NoTrace))
    }
}

/// The exact search a [`Solver`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Backend {
    /// The method picked per puzzle: the propagation solver alone on grids
    /// below 20×20, on traced searches and on searches with a node budget
    /// (counted in its nodes, so these stay deterministic); on larger grids
    /// it first runs alone for its root and a few search nodes (about
    /// 40,000 / n², at least one), and a puzzle it does not finish by then
    /// goes to SAT (up to two solutions: solve, uniqueness) or is
    /// raced (counting further): the propagation solver and SAT on two
    /// threads, the first to finish answers and the other is cancelled and
    /// joined. See [`Solver::last_method`] for which one answered.
    #[default]
    Auto,
    /// Singles to a fixed point, then search on the most constrained
    /// choice, on an undo trail; classic 9×9 on a dedicated kernel when
    /// untraced.
    Propagation,
    /// The propagation solver with Hall sets: at every fixed point each
    /// unit is also made all-different consistent (Régin's matching
    /// method), which removes every naked and hidden subset; fewer nodes
    /// on hard big puzzles, more time per node. No 9×9 kernel.
    Hall,
    /// Knuth's Algorithm X with dancing links.
    DancingLinks,
    /// The embedded SAT solver on the compact CNF encoding, counting with
    /// blocking clauses ([`sat`]).
    Sat,
}

impl Backend {
    /// Every concrete search, in order ([`Backend::Auto`] picks among
    /// these).
    pub const ALL: [Backend; 3] = [Backend::Propagation, Backend::DancingLinks, Backend::Sat];

    /// Every name the command line takes: [`Backend::Auto`], then [`ALL`](Backend::ALL).
    /// [`Backend::Hall`] is not in `ALL` (the watch menu): traced, it is
    /// the propagation solver with more eliminations.
    pub const CHOICES: [Backend; 5] = [
        Backend::Auto,
        Backend::Propagation,
        Backend::DancingLinks,
        Backend::Sat,
        Backend::Hall,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Auto => "auto",
            Backend::Propagation => "propagation",
            Backend::Hall => "hall",
            Backend::DancingLinks => "dlx",
            Backend::Sat => "sat",
        }
    }
}

/// Why a name is not a [`Backend`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BackendError {
    /// No backend has this name.
    #[error(
        "unknown solver backend `{given}`; expected one of: {}",
        backend_names()
    )]
    Unknown {
        /// The name given.
        given: String,
    },
}

/// `auto, propagation, dlx, sat`.
fn backend_names() -> String {
    let names: Vec<&str> = Backend::CHOICES.iter().map(|b| b.name()).collect();
    names.join(", ")
}

impl std::str::FromStr for Backend {
    type Err = BackendError;
    /// The backend with this name, ignoring case and surrounding spaces.
    fn from_str(s: &str) -> Result<Backend, BackendError> {
        Backend::CHOICES
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| BackendError::Unknown {
                given: s.to_string(),
            })
    }
}

/// A reusable exact solver: keeps its buffers between puzzles of one shape,
/// so batch runs allocate nothing per puzzle once warm.
pub struct Solver {
    engine: Option<Engine>,
    /// Whether untraced 9×9 searches use the 9×9 kernel.
    kernel: bool,
    backend: Backend,
    /// Which search gave the last answer.
    last: Option<Method>,
}

/// Which search gave a [`Solver`]'s answer ([`Solver::last_method`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Method {
    /// The concrete search that answered (never [`Backend::Auto`]).
    pub backend: Backend,
    /// True when it answered a race ([`Backend::Auto`] counting past two
    /// on a hard puzzle): it finished first and the other was cancelled.
    pub raced: bool,
    /// True when SAT answered after the propagation solver had its turn
    /// ([`Backend::Auto`] solving a hard big puzzle).
    pub handed: bool,
}

impl Method {
    /// `backend` answering on its own: no race, no handover.
    pub(crate) fn alone(backend: Backend) -> Method {
        Method {
            backend,
            raced: false,
            handed: false,
        }
    }
}

/// `propagation`, `sat (won the race)`, `sat (after propagation)`.
impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.backend.name())?;
        if self.raced {
            f.write_str(" (won the race)")?;
        }
        if self.handed {
            f.write_str(" (after propagation)")?;
        }
        Ok(())
    }
}

impl Default for Solver {
    fn default() -> Solver {
        Solver {
            engine: None,
            kernel: true,
            backend: Backend::Auto,
            last: None,
        }
    }
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("shape", &self.engine.as_ref().map(Engine::shape))
            .field("kernel", &self.kernel)
            .field("backend", &self.backend)
            .field("last", &self.last)
            .finish()
    }
}

impl Solver {
    /// A solver with no buffers yet.
    pub fn new() -> Solver {
        Solver::default()
    }

    /// A solver that always uses the propagation solver, also for untraced
    /// 9×9 searches (for comparisons and for testing one path against the
    /// other).
    pub fn propagation_only() -> Solver {
        Solver {
            kernel: false,
            backend: Backend::Propagation,
            ..Solver::default()
        }
    }

    /// Which search gave the last answer (`None` before the first): for
    /// [`Backend::Auto`] the one it picked or the winner of its race.
    pub fn last_method(&self) -> Option<Method> {
        self.last
    }

    /// A solver on `backend`.
    pub fn with_backend(backend: Backend) -> Solver {
        Solver {
            backend,
            ..Solver::default()
        }
    }

    fn engine(&mut self, shape: Shape) -> &mut Engine {
        if self.engine.as_ref().map(Engine::shape) != Some(shape) {
            self.engine = Some(Engine::new(shape));
        }
        self.engine.get_or_insert_with(|| Engine::new(shape))
    }

    /// Searches for up to `limit` solutions.
    ///
    /// An untraced classic 9×9 search (a sink whose `ENABLED` is false) runs
    /// on the 9×9 kernel unless this solver is
    /// [`propagation_only`](Solver::propagation_only); such a sink is not
    /// asked [`wants_stop`](TraceSink::wants_stop): stop it through
    /// [`Limits`] instead.
    pub(crate) fn run<S: TraceSink>(
        &mut self,
        puzzle: &Puzzle,
        limit: u64,
        limits: &Limits,
        sink: &mut S,
    ) -> RawResult {
        let single = |backend| Some(Method::alone(backend));
        match self.backend {
            Backend::DancingLinks => {
                self.last = single(Backend::DancingLinks);
                dlx::run(puzzle, limit, limits, sink)
            }
            Backend::Sat => {
                self.last = single(Backend::Sat);
                sat::run(puzzle, limit, limits, sink)
            }
            Backend::Propagation => {
                self.last = single(Backend::Propagation);
                self.propagate(puzzle, limit, limits, sink)
            }
            Backend::Hall => {
                self.last = single(Backend::Hall);
                self.propagate_hall(puzzle, limit, limits, sink)
            }
            Backend::Auto => {
                if S::ENABLED || limits.node_budget.is_some() || !auto::may_race(puzzle.shape()) {
                    self.last = single(Backend::Propagation);
                    return self.propagate(puzzle, limit, limits, sink);
                }
                let (r, method) = auto::run(self, puzzle, limit, limits);
                self.last = Some(method);
                r
            }
        }
    }

    /// The propagation solver (the 9×9 kernel for an untraced classic
    /// search unless [`propagation_only`](Solver::propagation_only)).
    fn propagate<S: TraceSink>(
        &mut self,
        puzzle: &Puzzle,
        limit: u64,
        limits: &Limits,
        sink: &mut S,
    ) -> RawResult {
        if !S::ENABLED && self.kernel && puzzle.shape() == Shape::CLASSIC {
            return run_nine(puzzle, limit, limits);
        }
        let engine = self.engine(puzzle.shape());
        engine.set_hall(false);
        on_engine!(engine, s => s.run(puzzle, limit, limits, sink))
    }

    /// The propagation solver with Hall-set pruning ([`Backend::Hall`]),
    /// at every size.
    fn propagate_hall<S: TraceSink>(
        &mut self,
        puzzle: &Puzzle,
        limit: u64,
        limits: &Limits,
        sink: &mut S,
    ) -> RawResult {
        let engine = self.engine(puzzle.shape());
        engine.set_hall(true);
        on_engine!(engine, s => s.run(puzzle, limit, limits, sink))
    }

    /// Searches for one solution of `puzzle` that has none of the
    /// `(cell, digit)` pairs of `exclude` (0-based digits), on the
    /// propagation solver at every size. Asking whether a puzzle whose
    /// solution is known has another one that differs at some cell is far
    /// cheaper this way than counting to two: the search never has to find
    /// the known solution first.
    pub(crate) fn find_excluding(
        &mut self,
        puzzle: &Puzzle,
        exclude: &[(usize, usize)],
        limits: &Limits,
    ) -> RawResult {
        self.run_excluding(
            puzzle,
            exclude,
            1,
            limits,
            &mut crate::engine::trace::NoTrace,
        )
    }

    /// Searches for up to `limit` solutions of `puzzle` without any of the
    /// `(cell, digit)` pairs of `exclude` (0-based digits), on the
    /// propagation solver, telling `sink`. The logic solver hands its
    /// position over this way when no technique applies: its placements
    /// as the puzzle, its eliminations as `exclude`.
    pub(crate) fn run_excluding<S: TraceSink>(
        &mut self,
        puzzle: &Puzzle,
        exclude: &[(usize, usize)],
        limit: u64,
        limits: &Limits,
        sink: &mut S,
    ) -> RawResult {
        let engine = self.engine(puzzle.shape());
        engine.set_hall(false);
        on_engine!(engine, s => s.run_excluding(puzzle, exclude, limit, limits, sink))
    }

    /// Solves `puzzle`: one solution, none, two witnesses, bad givens or stopped.
    pub fn solve<S: TraceSink>(
        &mut self,
        puzzle: &Puzzle,
        limits: &Limits,
        sink: &mut S,
    ) -> Outcome {
        self.run(puzzle, 2, limits, sink).into_outcome()
    }

    /// Counts solutions up to `cap`.
    ///
    /// A classic 9×9 puzzle runs on the 9×9 kernel unless this solver
    /// is [`propagation_only`](Solver::propagation_only).
    pub fn count(&mut self, puzzle: &Puzzle, cap: u64, limits: &Limits) -> Count {
        self.count_traced(puzzle, cap, limits, &mut crate::engine::trace::NoTrace)
    }

    /// Counts solutions up to `cap`, telling `sink` what the search does.
    /// An untraced sink (whose `ENABLED` is false) is not asked
    /// [`wants_stop`](TraceSink::wants_stop) on 9×9: stop it through
    /// [`Limits`] instead.
    pub fn count_traced<S: TraceSink>(
        &mut self,
        puzzle: &Puzzle,
        cap: u64,
        limits: &Limits,
        sink: &mut S,
    ) -> Count {
        self.run(puzzle, cap, limits, sink).into_count()
    }
}

/// How the Dancing Links and SAT searches begin: givens that clash end the
/// search at once (reported, with a `Contradiction` event), otherwise the
/// givens are told as `Assign` events with [`Reason::Given`]. `Err` holds
/// the finished result.
///
/// [`Reason::Given`]: crate::engine::trace::Reason::Given
pub(crate) fn check_and_tell_givens<S: TraceSink>(
    puzzle: &Puzzle,
    sink: &mut S,
) -> Result<(), RawResult> {
    use crate::engine::grid::Cell;
    use crate::engine::trace::{Reason, TraceEvent};
    let conflicts = puzzle.conflicts();
    if !conflicts.is_empty() {
        if S::ENABLED {
            sink.event(TraceEvent::Contradiction);
        }
        return Err(RawResult {
            conflicts,
            exhausted: true,
            ..RawResult::default()
        });
    }
    if S::ENABLED {
        for (c, v) in puzzle.cells().iter().enumerate() {
            if let Some(v) = v {
                sink.event(TraceEvent::Assign {
                    cell: Cell::from_index(puzzle.shape(), c),
                    value: *v,
                    reason: Reason::Given,
                });
            }
        }
    }
    Ok(())
}

/// Runs the 9×9 kernel and reports in the propagation solver's terms.
fn run_nine(puzzle: &Puzzle, limit: u64, limits: &Limits) -> RawResult {
    let mut givens = [0u8; 81];
    for (g, v) in givens.iter_mut().zip(puzzle.cells()) {
        // Values of a classic puzzle are 1..=9.
        *g = v.map_or(0, |v| v.get() as u8);
    }
    let r = nine::solve_nine(&givens, limit, limits);
    let witnesses = r
        .solutions
        .iter()
        .take(r.count.min(2) as usize)
        .map(|s| {
            Grid::from_indices(
                Shape::CLASSIC,
                s.iter().map(|&d| usize::from(d).saturating_sub(1)),
            )
        })
        .collect();
    RawResult {
        count: r.count,
        witnesses,
        exhausted: r.exhausted,
        stopped: r.stopped,
        conflicts: if r.givens_conflict {
            puzzle.conflicts()
        } else {
            Vec::new()
        },
        nodes: r.nodes,
    }
}

/// Solves `puzzle` with a fresh [`Solver`].
///
/// ```
/// use dekadoku::engine::{solve, Limits, NoTrace, Outcome, Puzzle, Shape};
/// // A 4×4 puzzle with exactly one solution.
/// let p = Puzzle::from_numbers(Shape::square(2).unwrap(),
///     &[1, 0, 0, 0,  0, 0, 3, 0,  0, 4, 0, 0,  0, 0, 0, 2]).unwrap();
/// match solve(&p, &Limits::none(), &mut NoTrace) {
///     Outcome::Solved(g) => assert!(p.is_solved_by(&g)),
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn solve<S: TraceSink>(puzzle: &Puzzle, limits: &Limits, sink: &mut S) -> Outcome {
    Solver::new().solve(puzzle, limits, sink)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::trace::{NoTrace, TraceEvent};
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    fn nums(s: &str) -> Vec<usize> {
        s.bytes()
            .filter(|b| !b.is_ascii_whitespace())
            .map(|b| if b == b'.' { 0 } else { (b - b'0') as usize })
            .collect()
    }

    fn classic(s: &str) -> Puzzle {
        Puzzle::from_numbers(Shape::CLASSIC, &nums(s)).unwrap()
    }

    const HARD: &str =
        "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";

    #[test]
    fn excluding_a_digit_finds_the_other_solutions_only() {
        // A 4×4 with two solutions that differ at cell 0.
        let shape = Shape::square(2).unwrap();
        let mut p = Puzzle::empty(shape);
        let Outcome::Multiple(a, b) = solve(&p, &Limits::none(), &mut NoTrace) else {
            panic!("an empty 4×4 has many solutions");
        };
        // Fix a's digits except where a and b differ: exactly two solutions.
        for c in 0..16 {
            if a.get(c) == b.get(c) {
                p.set(c, Some(a.get(c))).unwrap();
            }
        }
        let diff = (0..16).find(|&c| a.get(c) != b.get(c)).unwrap();
        let mut s = Solver::new();
        let found = s.find_excluding(&p, &[(diff, a.get(diff).index())], &Limits::none());
        assert_eq!(found.witnesses, vec![b.clone()]);
        let found = s.find_excluding(
            &p,
            &[(diff, a.get(diff).index()), (diff, b.get(diff).index())],
            &Limits::none(),
        );
        assert!(found.witnesses.is_empty() && found.exhausted && found.conflicts.is_empty());
        // Excluding a given's own digit leaves nothing; out-of-range pairs are ignored.
        let given = (0..16).find(|&c| p.get(c).is_some()).unwrap();
        let found = s.find_excluding(&p, &[(given, a.get(given).index())], &Limits::none());
        assert!(found.witnesses.is_empty() && found.exhausted);
        let found = s.find_excluding(&p, &[(99, 0), (0, 99)], &Limits::none());
        assert_eq!(found.witnesses.len(), 1);
    }

    #[test]
    fn backend_names_round_trip() {
        for b in Backend::CHOICES {
            assert_eq!(b.name().parse::<Backend>(), Ok(b));
            assert_eq!(format!(" {} ", b.name().to_uppercase()).parse(), Ok(b));
        }
        let e = "foo".parse::<Backend>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown solver backend `foo`; expected one of: auto, propagation, dlx, sat, hall"
        );
    }

    #[test]
    fn outcomes_read_as_short_text() {
        let p = Puzzle::empty(Shape::square(2).unwrap());
        let mut s = ".".repeat(81);
        s.replace_range(3..4, "7");
        s.replace_range(75..76, "7");
        s.replace_range(0..1, "5");
        s.replace_range(2..3, "5");
        for (outcome, text) in [
            (
                solve(&classic(HARD), &Limits::none(), &mut NoTrace),
                "solved",
            ),
            (
                solve(&p, &Limits::none(), &mut NoTrace),
                "more than one solution",
            ),
            (Outcome::NoSolution, "no solution"),
            (
                solve(&classic(&s), &Limits::none(), &mut NoTrace),
                "the givens break the rules: r1c1 and r1c3 both hold 5 (and 1 more)",
            ),
            (
                Outcome::Stopped(StopReason::Deadline),
                "stopped: deadline passed",
            ),
        ] {
            assert_eq!(outcome.to_string(), text);
        }
    }

    #[test]
    fn empty_4x4_has_288_grids() {
        let p = Puzzle::empty(Shape::square(2).unwrap());
        let c = Solver::new().count(&p, 1000, &Limits::none());
        assert_eq!((c.solutions, c.exact), (288, true));
        let c = Solver::new().count(&p, 100, &Limits::none());
        assert_eq!((c.solutions, c.exact), (100, false));
        match solve(&p, &Limits::none(), &mut NoTrace) {
            Outcome::Multiple(a, b) => {
                assert_ne!(a, b);
                assert!(p.is_solved_by(&a) && p.is_solved_by(&b));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn hard_classic_is_solved_and_checked() {
        let p = classic(HARD);
        match solve(&p, &Limits::none(), &mut NoTrace) {
            Outcome::Solved(g) => assert!(p.is_solved_by(&g)),
            other => panic!("{other:?}"),
        }
    }

    /// Puzzles whose uniqueness proof ends with a refuted guess at the root
    /// exactly when a restart is due: the root must stay consistent (a
    /// regression that once made these searches run forever).
    #[test]
    fn restarts_keep_the_root_sound() {
        for line in [
            "98.7..6..75.4.......3.9..875...7..39.3...4.............9..4..58..52..........91.6",
            "........1.....2.....3.4.56...47......5.4.....8...6.45..4..8.63.3.8...2..6.......9",
            "98.7.....6...5......4..83..7......4...2..4..3...6...2..9......1..8..1.3....5..4.8",
            "98.76.5..7...8..9...5..9...57...6.8...4...3......9....46...8.5.....2...4......1..",
        ] {
            let p = classic(line);
            let limits = Limits::timeout(std::time::Duration::from_secs(60));
            match solve(&p, &limits, &mut NoTrace) {
                Outcome::Solved(g) => assert!(p.is_solved_by(&g), "{line}"),
                other => panic!("{line}: {other:?}"),
            }
        }
    }

    #[test]
    fn no_solution_without_conflicting_givens() {
        // r1c1 sees 1..8 in its row and 9 in its column.
        let mut s = String::from(".12345678");
        s.push_str(&".".repeat(36));
        s.push('9');
        s.push_str(&".".repeat(35));
        let p = classic(&s);
        assert!(p.conflicts().is_empty());
        assert_eq!(
            solve(&p, &Limits::none(), &mut NoTrace),
            Outcome::NoSolution
        );
        let c = Solver::new().count(&p, 2, &Limits::none());
        assert_eq!((c.solutions, c.exact), (0, true));
    }

    #[test]
    fn conflicting_givens_are_reported() {
        let mut s = ".".repeat(81);
        s.replace_range(3..4, "7");
        s.replace_range(75..76, "7"); // same column 4
        match solve(&classic(&s), &Limits::none(), &mut NoTrace) {
            Outcome::InvalidGivens(c) => {
                assert_eq!(c.len(), 1);
                assert_eq!(c[0].to_string(), "r1c4 and r9c4 both hold 7");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn limits_stop_the_search() {
        let p = Puzzle::empty(Shape::square(4).unwrap());
        let flag = Arc::new(AtomicBool::new(true));
        let l = Limits::none().with_cancel(flag);
        assert_eq!(
            solve(&p, &l, &mut NoTrace),
            Outcome::Stopped(StopReason::Cancelled)
        );
        let p = classic(HARD);
        assert_eq!(
            solve(&p, &Limits::nodes(1), &mut NoTrace),
            Outcome::Stopped(StopReason::NodeBudget)
        );
    }

    #[test]
    fn trace_tells_the_search() {
        let p = classic(HARD);
        let mut events: Vec<TraceEvent> = Vec::new();
        let mut solver = Solver::new();
        let r = solver.run(&p, 2, &Limits::none(), &mut events);
        assert_eq!(r.count, 1);
        let branches = events
            .iter()
            .filter(|e| matches!(e, TraceEvent::Branch { .. }))
            .count() as u64;
        assert_eq!(branches, r.nodes);
        assert!(
            events
                .iter()
                .any(|e| matches!(e, TraceEvent::Backtrack { .. }))
        );
        assert!(matches!(
            events.last(),
            Some(TraceEvent::Contradiction)
                | Some(TraceEvent::Backtrack { .. })
                | Some(TraceEvent::Solved { .. })
        ));
        // Replaying assignments and undoing them on backtrack ends at the solution.
        let solution = crate::engine::trace::replay_last_solution(&p, &events).unwrap();
        let grid = Grid::from_puzzle(&Puzzle::new(p.shape(), solution).unwrap()).unwrap();
        assert!(p.is_solved_by(&grid));
    }
}
