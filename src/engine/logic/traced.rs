//! The logic solver as a traced solver: technique steps, easiest first,
//! told as [`TraceEvent::Step`] followed by what the step placed and
//! removed; when no technique applies, the propagation search takes over
//! from the position reached (its placements as givens, its eliminations
//! excluded), telling the same sink. This is what the game's "solve
//! visually" shows for the logic solver.

use crate::engine::grid::{Cell, Grid, Puzzle, Value};
use crate::engine::limits::Limits;
use crate::engine::solve::{Count, RawResult, Solver};
use crate::engine::trace::{Reason, TraceEvent, TraceSink};

use super::{Board, MAX_LOGIC_SIDE, next_step};

/// Solves `puzzle` with techniques, then search, for up to `cap`
/// solutions, telling `sink` every step and what it placed and removed
/// ([`TraceEvent::Step`], then `Assign` and `Eliminate`) and then the
/// search. Boards above [`MAX_LOGIC_SIDE`] and puzzles whose givens clash
/// go straight to the search, which reports them as usual. `limits` and
/// [`TraceSink::wants_stop`] are checked before every step.
pub fn count_traced<S: TraceSink>(
    puzzle: &Puzzle,
    cap: u64,
    limits: &Limits,
    sink: &mut S,
) -> Count {
    solve_logic(puzzle, cap, limits, sink).into_count()
}

/// [`count_traced`] in the search loop's own terms.
pub(crate) fn solve_logic<S: TraceSink>(
    puzzle: &Puzzle,
    limit: u64,
    limits: &Limits,
    sink: &mut S,
) -> RawResult {
    let shape = puzzle.shape();
    let mut solver = Solver::propagation_only();
    if shape.n() > MAX_LOGIC_SIDE || !puzzle.conflicts().is_empty() {
        return solver.run(puzzle, limit, limits, sink);
    }
    let Ok(mut board) = Board::from_puzzle(puzzle) else {
        return solver.run(puzzle, limit, limits, sink);
    };
    board.set_limits(limits);
    let cells = shape.cells();
    let mut before = vec![0u64; cells];
    while !board.is_solved() && board.check().is_ok() {
        if let Some(stop) = limits.check(0) {
            return RawResult {
                stopped: Some(stop),
                ..RawResult::default()
            };
        }
        if sink.wants_stop() {
            return RawResult::default();
        }
        let Some(step) = next_step(&board) else {
            // A technique cut short by the limits: stopped, not stuck.
            if let Some(stop) = limits.check(0) {
                return RawResult {
                    stopped: Some(stop),
                    ..RawResult::default()
                };
            }
            break;
        };
        for (c, m) in before.iter_mut().enumerate() {
            *m = board.mask(c);
        }
        board.apply(&step);
        if S::ENABLED {
            let placed = step.placements.clone();
            sink.event(TraceEvent::Step(Box::new(step)));
            for (c, v) in placed {
                sink.event(TraceEvent::Assign {
                    cell: Cell::from_index(shape, c),
                    value: v,
                    reason: Reason::Logic,
                });
            }
            for (c, &was) in before.iter().enumerate() {
                if board.value(c).is_some() {
                    continue;
                }
                for d in super::bits(was & !board.mask(c)) {
                    sink.event(TraceEvent::Eliminate {
                        cell: Cell::from_index(shape, c),
                        value: Value::from_index(d),
                    });
                }
            }
        }
    }
    if board.is_solved() && board.check().is_ok() {
        let grid = Grid::from_indices(
            shape,
            (0..cells).map(|c| board.value(c).map_or(0, Value::index)),
        );
        if S::ENABLED {
            sink.event(TraceEvent::Solved { index: 1 });
        }
        // Techniques only ever keep the solutions there are: a position
        // they solve has exactly one, unless a uniqueness technique was
        // allowed (it is not: the board is not declared unique).
        return RawResult {
            count: 1,
            witnesses: vec![grid],
            exhausted: true,
            ..RawResult::default()
        };
    }
    // No technique applies: search from here.
    let values: Vec<Option<Value>> = (0..cells).map(|c| board.value(c)).collect();
    let Ok(reached) = Puzzle::new(shape, values) else {
        return solver.run(puzzle, limit, limits, sink);
    };
    let n = shape.n();
    let exclude: Vec<(usize, usize)> = (0..cells)
        .filter(|&c| board.value(c).is_none())
        .flat_map(|c| {
            let m = board.mask(c);
            (0..n)
                .filter(move |&d| m >> d & 1 == 0)
                .map(move |d| (c, d))
        })
        .collect();
    solver.run_excluding(&reached, &exclude, limit, limits, sink)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Shape;
    use crate::engine::limits::StopReason;
    use crate::engine::solve::Outcome;
    use crate::engine::trace::NoTrace;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    fn classic(s: &str) -> Puzzle {
        crate::engine::format::parse_one(s, "test").unwrap()
    }

    fn replay(p: &Puzzle, events: &[TraceEvent]) -> Vec<Option<Value>> {
        crate::engine::trace::replay_last_solution(p, events).unwrap()
    }

    #[test]
    fn an_easy_puzzle_is_solved_by_steps_alone() {
        let p = classic(
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        );
        let mut events = Vec::new();
        let r = solve_logic(&p, 2, &Limits::none(), &mut events);
        assert_eq!((r.count, r.exhausted), (1, true));
        assert!(p.is_solved_by(&r.witnesses[0]));
        let steps = events
            .iter()
            .filter(|e| matches!(e, TraceEvent::Step(_)))
            .count();
        assert!(steps > 0);
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, TraceEvent::Branch { .. }))
        );
        // Every step is followed by its own placements.
        for (i, e) in events.iter().enumerate() {
            if let TraceEvent::Step(step) = e {
                for (k, &(c, v)) in step.placements.iter().enumerate() {
                    assert_eq!(
                        events[i + 1 + k],
                        TraceEvent::Assign {
                            cell: Cell::from_index(p.shape(), c),
                            value: v,
                            reason: Reason::Logic
                        }
                    );
                }
            }
        }
        let grid = Grid::from_puzzle(&Puzzle::new(p.shape(), replay(&p, &events)).unwrap());
        assert_eq!(grid.ok().as_ref(), Some(&r.witnesses[0]));
    }

    #[test]
    fn a_hard_puzzle_is_solved_by_the_nets_and_agrees_with_the_search() {
        // Rated 10+ in SE: once the forcing chains give out, the forcing
        // nets solve it with no branch.
        let p = classic(
            "........1.....2.....3.4.56...47......5.4.....8...6.45..4..8.63.3.8...2..6.......9",
        );
        let mut events = Vec::new();
        let r = solve_logic(&p, 2, &Limits::none(), &mut events);
        let Outcome::Solved(want) = crate::engine::solve(&p, &Limits::none(), &mut NoTrace) else {
            panic!("the puzzle is unique");
        };
        assert_eq!((r.count, r.exhausted), (1, true));
        assert_eq!(r.witnesses, vec![want.clone()]);
        assert!(events.iter().any(|e| matches!(e, TraceEvent::Step(_))));
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, TraceEvent::Branch { .. }))
        );
        let grid = Grid::from_puzzle(&Puzzle::new(p.shape(), replay(&p, &events)).unwrap());
        assert_eq!(grid.ok(), Some(want));
    }

    #[test]
    fn a_cancel_stops_it_and_a_puzzle_with_two_solutions_shows_two() {
        let p = classic(
            "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6",
        );
        let flag = Arc::new(AtomicBool::new(true));
        let r = solve_logic(&p, 2, &Limits::none().with_cancel(flag), &mut NoTrace);
        assert_eq!(r.stopped, Some(StopReason::Cancelled));
        assert!(r.witnesses.is_empty());
        let empty = Puzzle::empty(Shape::square(2).unwrap());
        let r = solve_logic(&empty, 2, &Limits::none(), &mut NoTrace);
        assert_eq!(r.count, 2);
        assert!(r.witnesses.iter().all(|g| empty.is_solved_by(g)));
        assert_ne!(r.witnesses[0], r.witnesses[1]);
    }

    #[test]
    fn where_no_technique_applies_the_search_takes_over_from_the_steps() {
        // A solved grid with four full houses opened, and a deadly
        // rectangle (r4c6 r4c9 r5c6 r5c9 on 1 and 3) opened too: the steps
        // fill the full houses, then nothing sound is left to find (both
        // fillings of the rectangle are solutions), so the search branches
        // from the position the steps reached.
        let p = classic(
            ".34678912\
             6.2195348\
             198342567\
             85976.42.\
             42685.79.\
             713924856\
             9615.7284\
             287419635\
             34528617.",
        );
        let mut events = Vec::new();
        let r = solve_logic(&p, 3, &Limits::none(), &mut events);
        assert_eq!((r.count, r.exhausted), (2, true));
        assert!(r.witnesses.iter().all(|g| p.is_solved_by(g)));
        assert_ne!(r.witnesses[0], r.witnesses[1]);
        let first_step = events
            .iter()
            .position(|e| matches!(e, TraceEvent::Step(_)))
            .expect("the full houses are steps");
        let first_branch = events
            .iter()
            .position(|e| matches!(e, TraceEvent::Branch { .. }))
            .expect("the rectangle is left to the search");
        assert!(first_step < first_branch);
        // Every step came before the search, and the steps placed the four
        // full houses and nothing in the rectangle.
        let placed: Vec<usize> = events[..first_branch]
            .iter()
            .filter_map(|e| match e {
                TraceEvent::Step(s) => Some(s.placements.iter().map(|&(c, _)| c)),
                _ => None,
            })
            .flatten()
            .collect();
        assert_eq!(placed.len(), 4);
        assert!(
            !events[first_branch..]
                .iter()
                .any(|e| matches!(e, TraceEvent::Step(_)))
        );
        for c in [3 * 9 + 5, 3 * 9 + 8, 4 * 9 + 5, 4 * 9 + 8] {
            assert!(!placed.contains(&c));
        }
    }
}
