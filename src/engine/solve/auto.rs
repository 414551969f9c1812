//! The default search, [`Backend::Auto`]: the method is picked per puzzle,
//! so that no size is left to the backend that is slow on it.
//!
//! Grids below 20×20 get the propagation solver alone (the 9×9 kernel on
//! classic puzzles): it is the fastest there and starts no thread. Larger
//! grids first get the propagation solver — with Hall sets
//! ([`Backend::Hall`]) when solving and proving, which finishes far more
//! hard big puzzles (81×81 `81-1` at its root, where SAT takes 1.3 s) at
//! the same cost elsewhere — for its root fixed point and then
//! [`warm_nodes`] search nodes (a count, not a time, so that the method
//! does not depend on the machine or its load), which answers easy big
//! puzzles without a thread. A puzzle it does not finish by then goes to SAT
//! (CaDiCaL on the compact encoding) alone when the question is "solve
//! it, and is it unique" (up to two solutions, [`handover`]): on every
//! big instance we have, SAT is then the faster by far (propagation
//! finishes 2 of 18 hard 25×25 puzzles in 10 s, SAT all 18), and one
//! thread leaves the other core free; the default costs SAT's time plus
//! the root and [`warm_nodes`]. An earlier version raced the two on two threads here, which
//! on a machine whose other core is busy took twice SAT's time. Counting
//! further (a limit above two), where propagation enumerates solutions
//! far faster than SAT's blocking clauses, is raced ([`race`]): the
//! propagation solver (from scratch) and SAT each on a thread of its own,
//! the first that finishes answers and the other is cancelled and joined
//! before the answer is returned.
//!
//! Answers stay exact: the one returned is one method's whole answer,
//! never a mix, so "one solution" is always that method's proof; its
//! solutions are checked against the rules and the givens (a result whose
//! witness fails, which no backend should ever give, is not taken). Which
//! method answers a race depends on timing, so which witnesses a puzzle
//! with several solutions shows there may differ from run to run; counts
//! and verdicts do not.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use crate::engine::grid::Puzzle;
use crate::engine::limits::{Limits, StopReason};
use crate::engine::shape::Shape;
use crate::engine::trace::NoTrace;

use super::{Backend, Method, RawResult, Solver, sat};

/// The smallest n that may be raced: up to 16×16 the propagation solver
/// wins on every instance we have, by far (SAT's setup alone costs more).
const RACE_FROM_N: usize = 20;

/// The search nodes (branches) the propagation solver may spend alone on
/// an n×n grid before SAT (or a race) takes over, after its root fixed
/// point, which is never cut short: about 40,000 / n² (64 at 25×25, 4 at
/// 100×100, one from 200×200 on). A node's cost grows with the grid
/// (about 0.15 ms at 25×25 with Hall sets, 2 ms at 100×100, 3 ms at
/// 225×225) while the root costs 15–55 ms on the large instances, so this
/// gives the propagation solver about 10–20 ms of search at every size.
/// Nodes rather than time: the same puzzle is answered by the same method
/// on every machine and under any load (a time of 30 ms at 81×81 went to
/// SAT, 10 times slower, on a machine where Hall sets needed 32 ms there).
fn warm_nodes(n: usize) -> u64 {
    (WARM_WORK / (n * n).max(1)).max(1) as u64
}

/// [`warm_nodes`] times the number of cells.
const WARM_WORK: usize = 40_000;

/// How often the caller of a race checks its own limits (its cancel flag
/// and deadline), which the racers do not see.
const POLL: Duration = Duration::from_millis(5);

/// Whether puzzles of `shape` may be raced.
pub(super) fn may_race(shape: Shape) -> bool {
    shape.n() >= RACE_FROM_N
}

/// The search of [`Backend::Auto`] for an untraced search without a node
/// budget on a grid that [`may_race`]: the propagation solver for its
/// root and [`warm_nodes`], then SAT or a race.
pub(super) fn run(
    solver: &mut Solver,
    puzzle: &Puzzle,
    limit: u64,
    limits: &Limits,
) -> (RawResult, Method) {
    let budget = warm_nodes(puzzle.shape().n());
    let warm = Limits {
        node_budget: Some(budget),
        ..limits.clone()
    };
    // Solving and proving (a limit of two), the propagation solver with
    // Hall sets: fewer nodes on hard big puzzles, so more of them answered
    // before SAT; counting further, the plain one (cheaper per solution).
    let (first, r) = if limit <= 2 {
        let r = solver.propagate_hall(puzzle, limit, &warm, &mut NoTrace);
        (Backend::Hall, r)
    } else {
        let r = solver.propagate(puzzle, limit, &warm, &mut NoTrace);
        (Backend::Propagation, r)
    };
    // Stopped by our node budget only (not the caller's limits): SAT.
    let ours = r.stopped == Some(StopReason::NodeBudget) && limits.check(0).is_none();
    if !ours {
        return (r, Method::alone(first));
    }
    if limit <= 2 {
        // The candidates the propagation solver's root left (Hall sets
        // and what its failed branches taught it): a smaller CNF, the same
        // answer.
        let root = solver.engine(puzzle.shape()).root_mask();
        return handover(solver, puzzle, root.as_deref(), limit, limits);
    }
    race(solver, puzzle, limit, limits)
}

/// SAT alone, after the propagation solver's [`warm_nodes`], on the
/// candidates `root` allows (that solver's root candidates for this
/// puzzle, see `Search::root_mask`); the propagation solver to the end
/// when SAT cannot take the puzzle (a CNF beyond its size limit) or
/// fails, which no limit of the caller's explains.
pub(super) fn handover(
    solver: &mut Solver,
    puzzle: &Puzzle,
    root: Option<&[u64]>,
    limit: u64,
    limits: &Limits,
) -> (RawResult, Method) {
    let r = sat::run_within(
        puzzle,
        root,
        limit,
        limits,
        &mut NoTrace,
        sat::Encoding::default(),
    );
    if decisive(puzzle, &r) || limits.check(0).is_some() {
        let method = Method {
            backend: Backend::Sat,
            raced: false,
            handed: true,
        };
        return (r, method);
    }
    let r = solver.propagate(puzzle, limit, limits, &mut NoTrace);
    let alone = Method::alone(Backend::Propagation);
    (r, alone)
}

/// Whether `r` answers the question: the search finished (or found
/// `limit` solutions) and every solution it gives solves the puzzle.
fn decisive(puzzle: &Puzzle, r: &RawResult) -> bool {
    r.stopped.is_none() && r.witnesses.iter().all(|g| puzzle.is_solved_by(g))
}

/// The propagation solver and SAT on two threads; the first decisive
/// answer wins and the other racer is cancelled. Both threads are joined
/// before this returns. `limits`' cancel flag and deadline stop both.
pub(super) fn race(
    solver: &mut Solver,
    puzzle: &Puzzle,
    limit: u64,
    limits: &Limits,
) -> (RawResult, Method) {
    race_watched(solver, puzzle, limit, limits, &Arc::new(()))
}

/// [`race`], each racer holding a clone of `alive` until its thread ends
/// (so a test can see that none outlives the race).
fn race_watched(
    solver: &mut Solver,
    puzzle: &Puzzle,
    limit: u64,
    limits: &Limits,
    alive: &Arc<()>,
) -> (RawResult, Method) {
    let flag = Arc::new(AtomicBool::new(false));
    let each = Limits {
        deadline: limits.deadline,
        node_budget: None,
        cancel: Some(flag.clone()),
    };
    let engine = solver.engine(puzzle.shape());
    engine.set_hall(false);
    let raced = std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(Backend, RawResult)>();
        let mut racers = 0;
        let (tx_p, each_p, alive_p) = (tx.clone(), each.clone(), alive.clone());
        let prop = std::thread::Builder::new()
            .name("dk-race-prop".into())
            .spawn_scoped(scope, move || {
                let _alive = alive_p;
                let r = engine.run(puzzle, limit, &each_p);
                let _ = tx_p.send((Backend::Propagation, r));
            });
        racers += usize::from(prop.is_ok());
        let alive_s = alive.clone();
        let sat = std::thread::Builder::new()
            .name("dk-race-sat".into())
            .spawn_scoped(scope, move || {
                let _alive = alive_s;
                let r = sat::run(puzzle, limit, &each, &mut NoTrace);
                let _ = tx.send((Backend::Sat, r));
            });
        racers += usize::from(sat.is_ok());
        if racers == 0 {
            return None;
        }
        Some(collect(puzzle, &rx, &flag, limits))
    });
    match raced {
        Some((r, backend)) => (
            r,
            Method {
                backend,
                raced: true,
                handed: false,
            },
        ),
        // No thread could be started: the propagation solver here.
        None => {
            let r = solver.propagate(puzzle, limit, limits, &mut NoTrace);
            let alone = Method::alone(Backend::Propagation);
            (r, alone)
        }
    }
}

/// Waits for every racer's result (the channel closes when the last one
/// ends), cancelling the others at the first decisive one, or all when
/// `limits` say stop. With no decisive result, the one that got furthest
/// (more solutions found), reported as stopped.
fn collect(
    puzzle: &Puzzle,
    rx: &mpsc::Receiver<(Backend, RawResult)>,
    flag: &AtomicBool,
    limits: &Limits,
) -> (RawResult, Backend) {
    let mut winner: Option<(RawResult, Backend)> = None;
    let mut best: Option<(RawResult, Backend)> = None;
    // What stopped the race from outside (the racers, cancelled by the
    // flag, would say "cancelled" for a deadline too).
    let mut outside = None;
    loop {
        match rx.recv_timeout(POLL) {
            Ok((backend, r)) => {
                if winner.is_none() && decisive(puzzle, &r) {
                    flag.store(true, Ordering::Relaxed);
                    winner = Some((r, backend));
                } else if best
                    .as_ref()
                    .is_none_or(|(b, _)| r.witnesses.len() > b.witnesses.len())
                {
                    best = Some((r, backend));
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                if winner.is_none()
                    && outside.is_none()
                    && let Some(why) = limits.check(0)
                {
                    outside = Some(why);
                    flag.store(true, Ordering::Relaxed);
                }
            }
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    if let Some(w) = winner {
        return w;
    }
    // Every racer died without a result (a panic, which the scope then
    // passes on): nothing found.
    let (mut r, backend) = best.unwrap_or_else(|| (RawResult::default(), Backend::Propagation));
    // Not decisive: never an answer. Its witnesses are kept only when
    // they solve the puzzle.
    r.witnesses.retain(|g| puzzle.is_solved_by(g));
    r.exhausted = false;
    r.stopped = Some(
        outside
            .or(limits.check(0))
            .or(r.stopped)
            .unwrap_or(StopReason::Cancelled),
    );
    (r, backend)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::format::parse_str;
    use crate::engine::grid::Puzzle;

    fn file(text: &str, take: usize) -> Vec<Puzzle> {
        parse_str(text, "test")
            .unwrap()
            .into_iter()
            .take(take)
            .collect()
    }

    /// A few puzzles of every kind: unique, several solutions, none,
    /// clashing givens; 4×4 to 25×25.
    fn sample() -> Vec<Puzzle> {
        let mut v = file(include_str!("../../../puzzles/16x16-hard.txt"), 2);
        let big = file(include_str!("../../../puzzles/25x25-hard.txt"), 2);
        // Clues taken away: several solutions.
        let mut open = big[0].clone();
        for c in 0..open.cells().len() / 3 {
            open.set(c, None).unwrap();
        }
        v.extend(big);
        v.push(open);
        v.push(Puzzle::empty(Shape::square(2).unwrap()));
        let classic = |s: &str| parse_str(s, "test").unwrap().remove(0);
        v.push(classic(
            "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6",
        ));
        // r1c1 sees 1..8 in its row and 9 in its column: no solution.
        let mut none = String::from(".12345678");
        none.push_str(&".".repeat(36));
        none.push('9');
        none.push_str(&".".repeat(35));
        v.push(classic(&none));
        let mut clash = ".".repeat(81);
        clash.replace_range(3..4, "7");
        clash.replace_range(75..76, "7");
        v.push(classic(&clash));
        v
    }

    /// `r` finished, its solutions solve `p`, and it says what `backend`
    /// alone says of puzzle `i` at `limit`.
    fn agrees(p: &Puzzle, r: &RawResult, limit: u64, backend: Backend, i: usize) {
        assert_eq!(r.stopped, None, "{i}");
        for w in &r.witnesses {
            assert!(p.is_solved_by(w), "{i}");
        }
        let want = Solver::with_backend(backend).run(p, limit, &Limits::none(), &mut NoTrace);
        assert_eq!(
            (r.count, r.exhausted, r.conflicts.len(), r.witnesses.len()),
            (
                want.count,
                want.exhausted,
                want.conflicts.len(),
                want.witnesses.len()
            ),
            "puzzle {i}, limit {limit}, against {}",
            backend.name()
        );
    }

    #[test]
    fn a_race_answers_as_each_backend_does() {
        let mut solver = Solver::new();
        for (i, p) in sample().iter().enumerate() {
            for limit in [1, 2, 5] {
                let (r, method) = race(&mut solver, p, limit, &Limits::none());
                assert!(method.raced && method.backend != Backend::Auto, "{i}");
                for b in [Backend::Propagation, Backend::Sat] {
                    agrees(p, &r, limit, b, i);
                }
            }
        }
    }

    /// SAT after propagation's turn answers as each backend does, and
    /// says it answered.
    #[test]
    fn a_handover_answers_as_each_backend_does() {
        let mut solver = Solver::new();
        for (i, p) in sample().iter().enumerate() {
            for limit in [1, 2] {
                let (r, method) = handover(&mut solver, p, None, limit, &Limits::none());
                assert_eq!(
                    (method.backend, method.raced, method.handed),
                    (Backend::Sat, false, true),
                    "{i}"
                );
                agrees(p, &r, limit, Backend::Propagation, i);
                // On the root candidates of a short Hall-set search of
                // the same puzzle, the same answer (solving and proving:
                // asked for one solution, a CNF those candidates leave
                // without a variable is also proved unique).
                if limit < 2 {
                    continue;
                }
                let budget = Limits {
                    node_budget: Some(3),
                    ..Limits::none()
                };
                solver.propagate_hall(p, 2, &budget, &mut NoTrace);
                let root = solver.engine(p.shape()).root_mask();
                let (r, _) = handover(&mut solver, p, root.as_deref(), limit, &Limits::none());
                agrees(p, &r, limit, Backend::Propagation, i);
            }
        }
    }

    #[test]
    fn auto_answers_as_propagation_and_picks_it_for_small_grids() {
        let mut solver = Solver::new();
        for (i, p) in sample().iter().enumerate() {
            let want = Solver::with_backend(Backend::Propagation).count(p, 2, &Limits::none());
            let got = solver.count(p, 2, &Limits::none());
            assert_eq!((got.solutions, got.exact), (want.solutions, want.exact));
            let m = solver.last_method().unwrap();
            // Bigger ones may be raced when the machine is slow: timing.
            if p.shape().n() < RACE_FROM_N {
                assert_eq!((m.backend, m.raced), (Backend::Propagation, false), "{i}");
            }
        }
    }

    /// A race the caller cancels stops both racers, says so, and returns
    /// only once both threads have ended.
    #[test]
    fn a_cancelled_race_leaves_no_racer_running() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/puzzles-public/large/rkkautsar_sudoku-64-1.txt"
        );
        // Hard for both backends (minutes); without the corpus, a
        // 25×25 with a third of its clues gone: too many solutions to
        // count to a million.
        let (p, limit) = match std::fs::read_to_string(path) {
            Ok(text) => (parse_str(&text, "64-1").unwrap().remove(0), 2),
            Err(_) => (sample()[4].clone(), 1_000_000),
        };
        let flag = Arc::new(AtomicBool::new(false));
        let limits = Limits::none().with_cancel(flag.clone());
        let alive = Arc::new(());
        let raise = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            flag.store(true, Ordering::Relaxed);
        });
        let mut solver = Solver::new();
        let (r, _) = race_watched(&mut solver, &p, limit, &limits, &alive);
        raise.join().unwrap();
        assert_eq!(r.stopped, Some(StopReason::Cancelled));
        assert!(!r.exhausted);
        assert_eq!(Arc::strong_count(&alive), 1, "a racer outlived the race");
        // A deadline is reported as one.
        let limits = Limits::timeout(Duration::from_millis(200));
        let (r, _) = race_watched(&mut solver, &p, limit, &limits, &alive);
        assert_eq!(r.stopped, Some(StopReason::Deadline));
        assert_eq!(Arc::strong_count(&alive), 1, "a racer outlived the race");
    }
}
