//! Dancing Links: Knuth's Algorithm X on the exact-cover form of Sudoku,
//! for every shape.
//!
//! Columns are the 4·n² constraints (each cell filled once; each digit once
//! per row, column and box); rows are the candidates (cell, digit). The
//! givens are not rows: the columns they satisfy are left out, and so are
//! the candidates that clash with them, so the matrix holds only what is
//! left to decide. The search always branches on a column with the fewest
//! rows, and is iterative (a 400×400 search can be 160,000 levels deep).
//! Links are `u32` indices into flat arrays; nothing is allocated per node.

use crate::engine::grid::{Cell, Grid, Puzzle, Value};
use crate::engine::limits::{Limits, StopReason};
use crate::engine::trace::{Reason, TraceEvent, TraceSink};

use super::RawResult;

/// How many search steps pass between two checks of the limits.
const CHECK_EVERY: u64 = 256;

/// The linked matrix. Nodes `0..cols` are the column headers, node `cols`
/// is the root, and the rest are the candidates' nodes, four per row.
struct Matrix {
    l: Vec<u32>,
    r: Vec<u32>,
    u: Vec<u32>,
    d: Vec<u32>,
    /// The column of each node (headers: themselves).
    col: Vec<u32>,
    /// Rows left in each column.
    size: Vec<u32>,
    /// The candidate (cell, digit) of each node's row.
    cand: Vec<(u32, u32)>,
    root: u32,
}

impl Matrix {
    fn cover(&mut self, c: u32) {
        let c = c as usize;
        let (l, r) = (self.l[c], self.r[c]);
        self.r[l as usize] = r;
        self.l[r as usize] = l;
        let mut i = self.d[c];
        while i as usize != c {
            let mut j = self.r[i as usize];
            while j != i {
                let (ju, jd) = (self.u[j as usize], self.d[j as usize]);
                self.d[ju as usize] = jd;
                self.u[jd as usize] = ju;
                self.size[self.col[j as usize] as usize] -= 1;
                j = self.r[j as usize];
            }
            i = self.d[i as usize];
        }
    }

    fn uncover(&mut self, c: u32) {
        let c = c as usize;
        let mut i = self.u[c];
        while i as usize != c {
            let mut j = self.l[i as usize];
            while j != i {
                self.size[self.col[j as usize] as usize] += 1;
                let (ju, jd) = (self.u[j as usize], self.d[j as usize]);
                self.d[ju as usize] = j;
                self.u[jd as usize] = j;
                j = self.l[j as usize];
            }
            i = self.u[i as usize];
        }
        let (l, r) = (self.l[c], self.r[c]);
        self.r[l as usize] = c as u32;
        self.l[r as usize] = c as u32;
    }

    /// Covers the other columns of row node `i` (its own column is covered).
    fn select(&mut self, i: u32) {
        let mut j = self.r[i as usize];
        while j != i {
            self.cover(self.col[j as usize]);
            j = self.r[j as usize];
        }
    }

    /// Undoes [`Matrix::select`].
    fn unselect(&mut self, i: u32) {
        let mut j = self.l[i as usize];
        while j != i {
            self.uncover(self.col[j as usize]);
            j = self.l[j as usize];
        }
    }

    /// The active column with the fewest rows (the first on a tie), or
    /// `None` when every column is covered (a solution).
    fn smallest(&self) -> Option<u32> {
        let mut best: Option<(u32, u32)> = None;
        let mut c = self.r[self.root as usize];
        while c != self.root {
            let s = self.size[c as usize];
            if best.is_none_or(|(_, b)| s < b) {
                best = Some((c, s));
                if s <= 1 {
                    break;
                }
            }
            c = self.r[c as usize];
        }
        best.map(|(c, _)| c)
    }
}

/// Builds the matrix for what the givens leave open.
fn build(puzzle: &Puzzle) -> Matrix {
    let shape = puzzle.shape();
    let n = shape.n();
    let cells = shape.cells();
    let ncols = 4 * cells;
    let box_of = |c: usize| shape.box_of(c);
    let columns = |c: usize, d: usize| -> [usize; 4] {
        let (row, col) = (c / n, c % n);
        [
            c,
            cells + row * n + d,
            2 * cells + col * n + d,
            3 * cells + box_of(c) * n + d,
        ]
    };
    // Columns the givens satisfy are left out.
    let mut done = vec![false; ncols];
    for (c, v) in puzzle.cells().iter().enumerate() {
        if let Some(v) = v {
            for k in columns(c, v.index()) {
                done[k] = true;
            }
        }
    }
    let root = ncols as u32;
    let mut m = Matrix {
        l: Vec::new(),
        r: Vec::new(),
        u: (0..=root).collect(),
        d: (0..=root).collect(),
        col: (0..=root).collect(),
        size: vec![0; ncols],
        cand: vec![(u32::MAX, u32::MAX); ncols + 1],
        root,
    };
    // Link the open columns (and the root) in a ring.
    let open: Vec<u32> = (0..ncols).filter(|&k| !done[k]).map(|k| k as u32).collect();
    m.l = (0..=root).collect();
    m.r = (0..=root).collect();
    let mut prev = root;
    for &k in &open {
        m.r[prev as usize] = k;
        m.l[k as usize] = prev;
        prev = k;
    }
    m.r[prev as usize] = root;
    m.l[root as usize] = prev;
    // One row per open candidate: an empty cell and a digit whose three
    // unit columns are all still open.
    for c in 0..cells {
        if puzzle.get(c).is_some() {
            continue;
        }
        for d in 0..n {
            let ks = columns(c, d);
            if ks.iter().any(|&k| done[k]) {
                continue;
            }
            let first = m.col.len() as u32;
            for (i, &k) in ks.iter().enumerate() {
                let node = first + i as u32;
                let k32 = k as u32;
                // Vertical: append at the bottom of column k.
                let up = m.u[k];
                m.u.push(up);
                m.d.push(k32);
                m.d[up as usize] = node;
                m.u[k] = node;
                m.col.push(k32);
                m.size[k] += 1;
                m.cand.push((c as u32, d as u32));
                // Horizontal: a ring of the row's four nodes.
                m.l.push(if i == 0 { first + 3 } else { node - 1 });
                m.r.push(if i == 3 { first } else { node + 1 });
            }
        }
    }
    m
}

/// Finds up to `limit` solutions of `puzzle` with Dancing Links (at most
/// two are kept as witnesses). The result is the same as the propagation
/// solver's: the count (exact when the search finished), the witnesses,
/// conflicting givens, and why it stopped if a limit stopped it.
pub fn run<S: TraceSink>(puzzle: &Puzzle, limit: u64, limits: &Limits, sink: &mut S) -> RawResult {
    if let Err(done) = super::check_and_tell_givens(puzzle, sink) {
        return done;
    }
    let mut result = RawResult::default();
    let shape = puzzle.shape();
    let mut m = build(puzzle);
    let mut values: Vec<Option<usize>> = puzzle
        .cells()
        .iter()
        .map(|v| v.map(|v| v.index()))
        .collect();
    let checked = !limits.is_unlimited() || S::ENABLED;
    let event = |m: &Matrix, node: u32| {
        let (c, d) = m.cand[node as usize];
        (
            Cell::from_index(shape, c as usize),
            Value::from_index(d as usize),
        )
    };
    // The rows chosen, innermost last (each is a node of its row, in the
    // column that was branched on), and whether each was forced.
    let mut stack: Vec<(u32, bool)> = Vec::new();
    // Guesses on the stack: the trace's depth. The trace speaks as the
    // propagation solver does: a guess is a Branch then its Assign, a
    // forced row an Assign, and a Backtrack takes back everything since
    // the guess it names (the forced rows above it are popped silently).
    let mut guesses = 0usize;
    let assign = |sink: &mut S, cell, value, reason| {
        sink.event(TraceEvent::Assign {
            cell,
            value,
            reason,
        })
    };
    let mut steps = 0u64;
    let mut descend = true;
    loop {
        steps += 1;
        if checked && steps.is_multiple_of(CHECK_EVERY) {
            let stop = limits
                .check(result.nodes)
                .or_else(|| sink.wants_stop().then_some(StopReason::Cancelled));
            if let Some(stop) = stop {
                result.stopped = Some(stop);
                break;
            }
        }
        if descend {
            match m.smallest() {
                None => {
                    // Every constraint met: a solution.
                    result.count += 1;
                    if S::ENABLED {
                        sink.event(TraceEvent::Solved {
                            index: result.count as usize,
                        });
                    }
                    if result.witnesses.len() < 2 {
                        let grid = Grid::from_indices(shape, values.iter().map(|v| v.unwrap_or(0)));
                        result.witnesses.push(grid);
                    }
                    if result.count >= limit {
                        break;
                    }
                    descend = false;
                }
                Some(c) if m.size[c as usize] == 0 => {
                    if S::ENABLED {
                        sink.event(TraceEvent::Contradiction);
                    }
                    descend = false;
                }
                Some(c) => {
                    let forced = m.size[c as usize] == 1;
                    m.cover(c);
                    let i = m.d[c as usize];
                    m.select(i);
                    stack.push((i, forced));
                    result.nodes += u64::from(!forced);
                    guesses += usize::from(!forced);
                    let (cell, value) = event(&m, i);
                    values[cell.index(shape)] = Some(value.index());
                    if S::ENABLED {
                        if forced {
                            assign(sink, cell, value, Reason::NakedSingle);
                        } else {
                            sink.event(TraceEvent::Branch {
                                cell,
                                value,
                                depth: guesses,
                            });
                            assign(sink, cell, value, Reason::Guess);
                        }
                    }
                }
            }
            continue;
        }
        // Backtrack: the next row of the innermost column, or up a level.
        let Some((i, forced)) = stack.pop() else {
            result.exhausted = true;
            break;
        };
        m.unselect(i);
        let (cell, value) = event(&m, i);
        values[cell.index(shape)] = None;
        let c = m.col[i as usize];
        let next = m.d[i as usize];
        if !forced {
            if S::ENABLED {
                sink.event(TraceEvent::Backtrack {
                    cell,
                    value,
                    depth: guesses,
                });
            }
            guesses -= 1;
        }
        if next == c {
            m.uncover(c);
            continue;
        }
        // The column's next row: another guess at the same depth.
        m.select(next);
        stack.push((next, false));
        result.nodes += 1;
        guesses += 1;
        let (cell, value) = event(&m, next);
        values[cell.index(shape)] = Some(value.index());
        if S::ENABLED {
            sink.event(TraceEvent::Branch {
                cell,
                value,
                depth: guesses,
            });
            assign(sink, cell, value, Reason::Guess);
        }
        descend = true;
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Shape;
    use crate::engine::generate::{GenerateOptions, generate};
    use crate::engine::level::Level;
    use crate::engine::solve::Solver;

    #[test]
    fn the_empty_4x4_has_288_grids_and_every_one_is_valid() {
        let p = Puzzle::empty(Shape::square(2).unwrap());
        let r = run(
            &p,
            1000,
            &Limits::none(),
            &mut crate::engine::trace::NoTrace,
        );
        assert_eq!((r.count, r.exhausted), (288, true));
        assert!(
            r.witnesses
                .iter()
                .all(|g| g.is_valid() && p.is_solved_by(g))
        );
        let r = run(&p, 10, &Limits::none(), &mut crate::engine::trace::NoTrace);
        assert_eq!((r.count, r.exhausted), (10, false));
    }

    #[test]
    fn agrees_with_the_propagation_solver_on_generated_puzzles() {
        for (r, c) in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)] {
            let shape = Shape::new(r, c).unwrap();
            for seed in 0..4 {
                let g = generate(
                    &GenerateOptions::new(shape, Level::Hard, seed),
                    &Limits::none(),
                )
                .unwrap();
                let ours = run(
                    &g.puzzle,
                    2,
                    &Limits::none(),
                    &mut crate::engine::trace::NoTrace,
                );
                assert_eq!((ours.count, ours.exhausted), (1, true), "{shape} {seed}");
                assert_eq!(ours.witnesses, vec![g.solution.clone()], "{shape} {seed}");
                // Two clues fewer: whatever the count, both solvers agree.
                let mut p = g.puzzle.clone();
                let given: Vec<usize> = (0..shape.cells())
                    .filter(|&c| p.get(c).is_some())
                    .take(2)
                    .collect();
                for c in given {
                    p.set(c, None).unwrap();
                }
                let ours = run(&p, 3, &Limits::none(), &mut crate::engine::trace::NoTrace);
                let theirs = Solver::propagation_only().count(&p, 3, &Limits::none());
                assert_eq!(
                    (ours.count, ours.exhausted),
                    (theirs.solutions, theirs.exact),
                    "{shape} {seed}"
                );
                assert!(ours.witnesses.iter().all(|w| p.is_solved_by(w)));
            }
        }
    }

    #[test]
    fn conflicts_no_solution_limits_and_a_replayable_trace() {
        let shape = Shape::square(2).unwrap();
        // Two 1s in the first row.
        let bad =
            Puzzle::from_numbers(shape, &[1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap();
        let r = run(&bad, 2, &Limits::none(), &mut crate::engine::trace::NoTrace);
        assert!(!r.conflicts.is_empty() && r.count == 0);
        // No conflict among the givens, but no solution: cell 3 can hold
        // nothing (1 and 2 in its row, 3 and 4 in its column).
        let none =
            Puzzle::from_numbers(shape, &[1, 2, 0, 0, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0]).unwrap();
        let r = run(
            &none,
            2,
            &Limits::none(),
            &mut crate::engine::trace::NoTrace,
        );
        assert_eq!((r.count, r.exhausted), (0, true));
        // A cancel stops it.
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let empty = Puzzle::empty(Shape::square(4).unwrap());
        let r = run(
            &empty,
            u64::MAX,
            &Limits::none().with_cancel(flag),
            &mut crate::engine::trace::NoTrace,
        );
        assert_eq!(r.stopped, Some(StopReason::Cancelled));
        // Replaying the trace's assignments and backtracks gives the solution.
        let g = generate(
            &GenerateOptions::new(Shape::CLASSIC, Level::Expert, 3),
            &Limits::none(),
        )
        .unwrap();
        let mut trace: Vec<TraceEvent> = Vec::new();
        let r = run(&g.puzzle, 1, &Limits::none(), &mut trace);
        // The same replay as the propagation solver's trace: a copy at
        // each guess, restored when the guess is taken back.
        let mut board: Vec<Option<Value>> = vec![None; 81];
        let mut saved: Vec<Vec<Option<Value>>> = Vec::new();
        for e in &trace {
            match e {
                TraceEvent::Branch { depth, .. } => {
                    saved.truncate(depth - 1);
                    saved.push(board.clone());
                }
                TraceEvent::Assign { cell, value, .. } => {
                    board[cell.index(Shape::CLASSIC)] = Some(*value)
                }
                TraceEvent::Backtrack { depth, .. } => {
                    board = saved[depth - 1].clone();
                    saved.truncate(depth - 1);
                }
                _ => {}
            }
        }
        let guesses = trace
            .iter()
            .filter(|e| matches!(e, TraceEvent::Branch { .. }))
            .count() as u64;
        assert_eq!(guesses, r.nodes);
        assert_eq!(r.witnesses, vec![g.solution.clone()]);
        assert!(
            board
                .iter()
                .enumerate()
                .all(|(c, v)| *v == Some(g.solution.get(c)))
        );
    }
}
