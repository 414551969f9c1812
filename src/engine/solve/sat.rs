//! The SAT backend: a puzzle becomes CNF ([`encode`]), a SAT solver finds
//! a model, and the model becomes a grid. Counting and uniqueness add the
//! clause that forbids each solution found ("blocking clause") and ask
//! again, until the limit or until the solver proves there is no other.
//!
//! The solver is embedded (`sat/embedded.rs`, CaDiCaL through the
//! `cadical` crate) or any program that reads DIMACS (`sat/external.rs`,
//! such as `kissat -q`). [`dimacs`] writes the CNF and reads a solver's answer.
//!
//! The trace says little, since a SAT solver cannot say why one cell holds
//! its digit: the givens, the singles the compact encoding placed (naked
//! or hidden, with their unit), then for each model the remaining cells
//! ([`Reason::Model`]) and [`TraceEvent::Solved`].

pub mod dimacs;
pub(crate) mod embedded;
pub mod encode;
// Runs a DIMACS program (`--sat-cmd`): crate-internal, since its `run`
// reports the crate-internal `RawResult`; only the command line drives it,
// so the library alone leaves it unused.
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
pub(crate) mod external;

pub use dimacs::{Answer, DimacsCnf, DimacsError, Model, parse_answer, parse_cnf};
pub use encode::{Cnf, EncodeError, Encoding, ModelError};
#[cfg(feature = "cli")]
pub(crate) use external::External;
pub use external::ExternalError;

use crate::engine::grid::{Cell, Grid, Puzzle};
use crate::engine::limits::{Limits, StopReason};
use crate::engine::trace::{Reason, TraceEvent, TraceSink};

use super::RawResult;

/// What one call of a SAT solver found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// A model: read it with [`Oracle::value`].
    Satisfiable,
    /// No model.
    Unsatisfiable,
    /// A limit stopped the call.
    Stopped(StopReason),
}

/// A SAT solver the counting loop drives: the CNF's clauses go in when it
/// is made; then blocking clauses, calls, and the values of a model.
pub(crate) trait Oracle {
    /// Why a call failed (a broken external program; never for the
    /// embedded solver).
    type Error;
    /// Adds a clause (DIMACS literals, no terminating 0).
    fn add_clause(&mut self, clause: &[i32]);
    /// Looks for a model of every clause added so far, within `limits`.
    fn solve(&mut self, limits: &Limits) -> Result<Verdict, Self::Error>;
    /// The last model's value of `var` (after [`Verdict::Satisfiable`]).
    fn value(&self, var: u32) -> Option<bool>;
    /// Conflicts (or another measure of work) so far, reported as the
    /// result's nodes and held against [`Limits::node_budget`].
    fn work(&self) -> u64;
    /// Lets go of the solver after a stopped search. Dropping it here is
    /// the default; a solver that takes long to free may do it elsewhere.
    fn release(self)
    where
        Self: Sized,
    {
    }
}

/// Why the counting loop could not finish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Failure<E> {
    /// The CNF would be too large.
    Encode(EncodeError),
    /// The solver's model is not a solution.
    Model(ModelError),
    /// The solver failed.
    Oracle(E),
}

/// Finds up to `limit` solutions of `puzzle` with the embedded SAT solver
/// on the default [`Encoding`]; the same result as the other backends (the
/// count, exact when the solver proved there is no other, the first two
/// solutions, conflicting givens, and what stopped it).
///
/// A puzzle whose CNF would be too large ([`EncodeError::TooLarge`]) is
/// reported as stopped by the node budget: the solver's resources.
/// The deadline and the cancel flag are checked while the solver works;
/// the sink's [`wants_stop`](TraceSink::wants_stop) between calls.
pub(crate) fn run<S: TraceSink>(
    puzzle: &Puzzle,
    limit: u64,
    limits: &Limits,
    sink: &mut S,
) -> RawResult {
    run_with(puzzle, limit, limits, sink, Encoding::default())
}

/// [`run`] on a chosen encoding.
pub(crate) fn run_with<S: TraceSink>(
    puzzle: &Puzzle,
    limit: u64,
    limits: &Limits,
    sink: &mut S,
    encoding: Encoding,
) -> RawResult {
    run_within(puzzle, None, limit, limits, sink, encoding)
}

/// [`run_with`] on the candidates `root` allows ([`Cnf::encode_within`]):
/// those a propagation search's root fixed point left, which every
/// solution keeps, so the answer is the same on a smaller CNF.
pub(crate) fn run_within<S: TraceSink>(
    puzzle: &Puzzle,
    root: Option<&[u64]>,
    limit: u64,
    limits: &Limits,
    sink: &mut S,
    encoding: Encoding,
) -> RawResult {
    let r = search(
        puzzle,
        root,
        limit,
        limits,
        sink,
        encoding,
        embedded::Embedded::load,
    );
    match r {
        Ok(r) => r,
        Err(Failure::Oracle(never)) => match never {},
        // Too large for the solver's memory: its resources are spent.
        Err(Failure::Encode(_)) => RawResult {
            stopped: Some(StopReason::NodeBudget),
            ..RawResult::default()
        },
        // CaDiCaL's models satisfy every clause, and every model of the
        // CNF is a solution: this cannot happen, but must not panic.
        Err(Failure::Model(_)) => RawResult {
            stopped: Some(StopReason::Cancelled),
            ..RawResult::default()
        },
    }
}

/// The counting loop over any [`Oracle`]: conflicting givens first, then
/// the encoding (with its trace), then models and blocking clauses.
/// `make` loads the CNF into a solver, or says which limit stopped it.
pub(crate) fn search<S: TraceSink, O: Oracle>(
    puzzle: &Puzzle,
    root: Option<&[u64]>,
    limit: u64,
    limits: &Limits,
    sink: &mut S,
    encoding: Encoding,
    make: impl FnOnce(&Cnf, &Limits) -> Result<O, StopReason>,
) -> Result<RawResult, Failure<O::Error>> {
    if let Err(done) = super::check_and_tell_givens(puzzle, sink) {
        return Ok(done);
    }
    let mut result = RawResult::default();
    let shape = puzzle.shape();
    let stop = |sink: &S, work: u64| {
        limits
            .check(work)
            .or_else(|| sink.wants_stop().then_some(StopReason::Cancelled))
    };
    if let Some(why) = stop(sink, 0) {
        result.stopped = Some(why);
        return Ok(result);
    }
    let cnf = Cnf::encode_within(puzzle, encoding, root).map_err(Failure::Encode)?;
    if S::ENABLED {
        for &(c, value, reason) in cnf.steps() {
            sink.event(TraceEvent::Assign {
                cell: Cell::from_index(shape, c),
                value,
                reason,
            });
        }
    }
    if cnf.is_contradiction() {
        if S::ENABLED {
            sink.event(TraceEvent::Contradiction);
        }
        result.exhausted = true;
        return Ok(result);
    }
    if cnf.num_cell_vars() == 0 {
        // The singles filled the grid: the one solution, no solver needed.
        let grid = cnf.grid(|_| None).map_err(Failure::Model)?;
        found(&mut result, grid, &cnf, sink);
        result.exhausted = true;
        return Ok(result);
    }
    let mut oracle = match make(&cnf, limits) {
        Ok(o) => o,
        Err(why) => {
            result.stopped = Some(why);
            return Ok(result);
        }
    };
    loop {
        if let Some(why) = stop(sink, oracle.work()) {
            result.stopped = Some(why);
            break;
        }
        match oracle.solve(limits).map_err(Failure::Oracle)? {
            Verdict::Satisfiable => {
                let grid = cnf.grid(|v| oracle.value(v)).map_err(Failure::Model)?;
                let blocking = cnf.blocking_clause(&grid);
                found(&mut result, grid, &cnf, sink);
                if result.count >= limit {
                    break;
                }
                oracle.add_clause(&blocking);
            }
            Verdict::Unsatisfiable => {
                result.exhausted = true;
                break;
            }
            Verdict::Stopped(why) => {
                result.stopped = Some(why);
                break;
            }
        }
    }
    result.nodes = oracle.work();
    if result.stopped.is_some() {
        // A stopped search returns at once; a large CNF and the solver
        // holding it (225×225: 3.5 million clauses) take about a second to
        // free, which is done beside it.
        oracle.release();
        free_beside(cnf);
    }
    Ok(result)
}

/// Drops `t` on a short-lived thread of its own (or here, if no thread can
/// be started), so that freeing a large structure does not hold up a
/// search that was asked to stop.
pub(crate) fn free_beside<T: Send + 'static>(t: T) {
    // When no thread can be started, the closure (and `t` in it) is
    // dropped right here instead.
    let _ = std::thread::Builder::new()
        .name("dekadoku-free".into())
        .spawn(move || drop(t));
}

/// Counts a solution, keeps it as a witness if it is one of the first two,
/// and tells the sink the cells the model set.
fn found<S: TraceSink>(result: &mut RawResult, grid: Grid, cnf: &Cnf, sink: &mut S) {
    result.count += 1;
    if S::ENABLED {
        let shape = cnf.shape();
        for (c, fixed) in cnf.fixed().iter().enumerate() {
            if fixed.is_none() {
                sink.event(TraceEvent::Assign {
                    cell: Cell::from_index(shape, c),
                    value: grid.get(c),
                    reason: Reason::Model,
                });
            }
        }
        sink.event(TraceEvent::Solved {
            index: result.count as usize,
        });
    }
    if result.witnesses.len() < 2 {
        result.witnesses.push(grid);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::grid::Value;
    use crate::engine::shape::Shape;
    use crate::engine::trace::NoTrace;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    /// A 4×4 with one solution (givens 1 at r1c1, 3 at r2c3, 4 at r3c2,
    /// 2 at r4c4) and that solution, digits 1..=4 row by row.
    pub(crate) fn small_unique() -> (Puzzle, [usize; 16]) {
        let shape = Shape::square(2).unwrap();
        let p =
            Puzzle::from_numbers(shape, &[1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2]).unwrap();
        (p, [1, 3, 2, 4, 4, 2, 3, 1, 2, 4, 1, 3, 3, 1, 4, 2])
    }

    const ENCODINGS: [Encoding; 4] = [
        Encoding::compact(),
        Encoding::compact().with_redundant(false),
        Encoding::full(),
        Encoding::full()
            .with_redundant(false)
            .with_pairwise_up_to(2),
    ];

    fn classic(s: &str) -> Puzzle {
        crate::engine::format::parse_one(s, "test").unwrap()
    }

    const HARD: &str =
        "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";

    #[test]
    fn the_empty_4x4_has_288_grids_by_blocking_clauses() {
        let p = Puzzle::empty(Shape::square(2).unwrap());
        for enc in ENCODINGS {
            let r = run_with(&p, 1000, &Limits::none(), &mut NoTrace, enc);
            assert_eq!(
                (r.count, r.exhausted, r.stopped),
                (288, true, None),
                "{enc:?}"
            );
            assert_eq!(r.witnesses.len(), 2);
            assert_ne!(r.witnesses[0], r.witnesses[1]);
            assert!(r.witnesses.iter().all(|g| p.is_solved_by(g)));
            let r = run_with(&p, 10, &Limits::none(), &mut NoTrace, enc);
            assert_eq!((r.count, r.exhausted), (10, false), "{enc:?}");
        }
    }

    #[test]
    fn rectangular_boxes_work() {
        let shape = Shape::new(2, 3).unwrap();
        // Row 1 and the first box given: the count is exact and all valid.
        let mut p = Puzzle::empty(shape);
        for (c, d) in [
            (0, 1),
            (1, 2),
            (2, 3),
            (3, 4),
            (4, 5),
            (5, 6),
            (6, 4),
            (7, 5),
            (8, 6),
        ] {
            p.set(c, Value::new(d)).unwrap();
        }
        let mut counts = Vec::new();
        for enc in ENCODINGS {
            let r = run_with(&p, 100_000, &Limits::none(), &mut NoTrace, enc);
            assert!(r.exhausted && r.count > 2, "{enc:?}");
            assert!(r.witnesses.iter().all(|g| p.is_solved_by(g)));
            counts.push(r.count);
        }
        let theirs = super::super::Solver::propagation_only().count(&p, 100_000, &Limits::none());
        assert!(counts.iter().all(|&c| c == theirs.solutions), "{counts:?}");
        // A 6×6 with exactly one solution.
        let full = &run(&p, 1, &Limits::none(), &mut NoTrace).witnesses[0];
        let mut q = full.to_puzzle();
        for c in [0, 7, 14, 21, 28, 35, 3, 10] {
            q.set(c, None).unwrap();
        }
        let r = run(&q, 2, &Limits::none(), &mut NoTrace);
        assert_eq!((r.count, r.exhausted), (1, true));
        assert_eq!(&r.witnesses[0], full);
    }

    #[test]
    fn a_hard_classic_is_unique() {
        let p = classic(HARD);
        for enc in ENCODINGS {
            let r = run_with(&p, 2, &Limits::none(), &mut NoTrace, enc);
            assert_eq!((r.count, r.exhausted), (1, true), "{enc:?}");
            assert!(p.is_solved_by(&r.witnesses[0]));
        }
    }

    #[test]
    fn conflicts_and_no_solution() {
        let shape = Shape::square(2).unwrap();
        let bad =
            Puzzle::from_numbers(shape, &[1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap();
        let r = run(&bad, 2, &Limits::none(), &mut NoTrace);
        assert_eq!(r.conflicts.len(), 1);
        assert_eq!(r.count, 0);
        // Cell 3 can hold nothing: 1 and 2 in its row, 3 and 4 in its column.
        let none =
            Puzzle::from_numbers(shape, &[1, 2, 0, 0, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0]).unwrap();
        // A 9×9 that singles do not refute, with no solution: the hard
        // puzzle with one given changed to another digit that fits.
        let mut p = classic(HARD);
        let sol = run(&p, 1, &Limits::none(), &mut NoTrace).witnesses[0].clone();
        let open = (0..81).find(|&c| p.get(c).is_none()).unwrap();
        let mut refuted = None;
        for d in 1..=9 {
            let v = Value::new(d).unwrap();
            if v == sol.get(open) {
                continue;
            }
            p.set(open, Some(v)).unwrap();
            if p.conflicts().is_empty() {
                refuted = Some(p.clone());
                break;
            }
        }
        let refuted = refuted.unwrap();
        for enc in ENCODINGS {
            for q in [&none, &refuted] {
                let r = run_with(q, 2, &Limits::none(), &mut NoTrace, enc);
                assert!(r.conflicts.is_empty());
                assert_eq!((r.count, r.exhausted), (0, true), "{enc:?}");
            }
        }
    }

    #[test]
    fn limits_stop_it() {
        let p = Puzzle::empty(Shape::square(4).unwrap());
        let flag = Arc::new(AtomicBool::new(true));
        let r = run(&p, 2, &Limits::none().with_cancel(flag), &mut NoTrace);
        assert_eq!(r.stopped, Some(StopReason::Cancelled));
        assert!(r.witnesses.is_empty() && !r.exhausted);
        let past = Limits {
            deadline: Some(std::time::Instant::now()),
            ..Limits::default()
        };
        assert_eq!(
            run(&p, 2, &past, &mut NoTrace).stopped,
            Some(StopReason::Deadline)
        );
        assert_eq!(
            run(&p, 2, &Limits::nodes(0), &mut NoTrace).stopped,
            Some(StopReason::NodeBudget)
        );
        // Counting the empty 9×9 needs conflicts: a small budget ends it.
        let p = Puzzle::empty(Shape::CLASSIC);
        let r = run(&p, u64::MAX, &Limits::nodes(50), &mut NoTrace);
        assert_eq!(r.stopped, Some(StopReason::NodeBudget));
        assert!(r.nodes >= 50 && r.count > 0);
        assert!(r.witnesses.iter().all(|g| p.is_solved_by(g)));
    }

    #[test]
    fn a_sink_that_wants_to_stop_is_heard() {
        struct Closed;
        impl TraceSink for Closed {
            fn event(&mut self, _: TraceEvent) {}
            fn wants_stop(&self) -> bool {
                true
            }
        }
        let p = Puzzle::empty(Shape::square(3).unwrap());
        let r = run(&p, 2, &Limits::none(), &mut Closed);
        assert_eq!(r.stopped, Some(StopReason::Cancelled));
    }

    #[test]
    fn replaying_the_trace_gives_each_solution() {
        let easy = classic(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        );
        for (p, enc) in [
            (classic(HARD), Encoding::compact()),
            (classic(HARD), Encoding::full()),
            (easy.clone(), Encoding::compact()),
            (easy, Encoding::full()),
        ] {
            let mut trace: Vec<TraceEvent> = Vec::new();
            let r = run_with(&p, 2, &Limits::none(), &mut trace, enc);
            assert_eq!(r.count, 1);
            let mut board: Vec<Option<Value>> = vec![None; 81];
            let mut solved = Vec::new();
            for e in &trace {
                match e {
                    TraceEvent::Assign {
                        cell,
                        value,
                        reason,
                    } => {
                        let c = cell.index(Shape::CLASSIC);
                        assert!(
                            board[c].is_none() || *reason == Reason::Model,
                            "{cell} set twice"
                        );
                        if *reason == Reason::Given {
                            assert_eq!(p.get(c), Some(*value));
                        }
                        board[c] = Some(*value);
                    }
                    TraceEvent::Solved { index } => solved.push((*index, board.clone())),
                    other => panic!("unexpected {other:?}"),
                }
            }
            assert_eq!(solved.len(), 1);
            let grid =
                Grid::from_puzzle(&Puzzle::new(Shape::CLASSIC, solved[0].1.clone()).unwrap())
                    .unwrap();
            assert_eq!(grid, r.witnesses[0]);
            if enc.compact && p.clue_count() > 25 {
                assert!(trace.iter().any(|e| matches!(
                    e,
                    TraceEvent::Assign {
                        reason: Reason::NakedSingle | Reason::HiddenSingle { .. },
                        ..
                    }
                )));
            }
        }
        // Two solutions, two Solved events.
        let p = Puzzle::empty(Shape::square(2).unwrap());
        let mut trace: Vec<TraceEvent> = Vec::new();
        run(&p, 2, &Limits::none(), &mut trace);
        let indices: Vec<usize> = trace
            .iter()
            .filter_map(|e| match e {
                TraceEvent::Solved { index } => Some(*index),
                _ => None,
            })
            .collect();
        assert_eq!(indices, [1, 2]);
    }

    #[test]
    fn a_model_read_back_from_solver_output() {
        let (p, solution) = small_unique();
        let cnf = Cnf::encode(&p, Encoding::full()).unwrap();
        // What a solver would print: every (cell, digit) variable, true
        // where the solution has the digit (helpers left out).
        let mut out = String::from("c hand-written\ns SATISFIABLE\nv");
        for (c, &digit) in solution.iter().enumerate() {
            for d in 0..4 {
                let v = cnf.var(c, d).unwrap() as i64;
                let lit = if digit == d + 1 { v } else { -v };
                out.push_str(&format!(" {lit}"));
            }
            if c % 5 == 4 {
                out.push_str("\nv");
            }
        }
        out.push_str(" 0\n");
        let Answer::Satisfiable(model) = parse_answer(&out).unwrap() else {
            panic!("not SAT");
        };
        let grid = cnf.grid(|v| model.value(v)).unwrap();
        assert!(p.is_solved_by(&grid));
        assert_eq!(
            grid.cells().iter().map(|v| v.get()).collect::<Vec<_>>(),
            solution
        );
        // A model that breaks a clue is refused.
        let wrong = out.replacen(" 1 ", " -1 ", 1).replacen(" -2 ", " 2 ", 1);
        let Answer::Satisfiable(model) = parse_answer(&wrong).unwrap() else {
            panic!("not SAT");
        };
        assert_eq!(cnf.grid(|v| model.value(v)), Err(ModelError::NotASolution));
    }
}
