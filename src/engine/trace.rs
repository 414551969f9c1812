//! What solvers say while they work: one [`TraceEvent`] type for every solver,
//! and the [`TraceSink`] that receives them.

use super::grid::{Cell, Value};
use super::logic::Step;

/// Why the solver set a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reason {
    /// A given of the puzzle.
    Given,
    /// The only digit left in the cell.
    NakedSingle,
    /// The only place left for the digit in unit `unit` (rows 0..n, columns
    /// n..2n, boxes 2n..3n).
    HiddenSingle {
        /// The unit.
        unit: usize,
    },
    /// A guess made by the search.
    Guess,
    /// A technique's placement: the [`TraceEvent::Step`] before says which.
    Logic,
    /// Set by the SAT solver's model (the SAT backend cannot say why a
    /// single cell holds its digit: the model comes whole).
    Model,
}

/// One thing a solver did.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TraceEvent {
    /// A digit was placed.
    Assign {
        /// Where.
        cell: Cell,
        /// What.
        value: Value,
        /// Why.
        reason: Reason,
    },
    /// A candidate was removed.
    Eliminate {
        /// Where.
        cell: Cell,
        /// Which digit.
        value: Value,
    },
    /// The search chose to try `value` in `cell` (depth = guesses in force after it).
    Branch {
        /// Where.
        cell: Cell,
        /// The digit tried.
        value: Value,
        /// Search depth after this guess (1 for the first guess).
        depth: usize,
    },
    /// A guess failed: everything since the guess at `depth` is undone and
    /// `value` is removed from `cell`.
    Backtrack {
        /// Where the refuted guess was.
        cell: Cell,
        /// The refuted digit.
        value: Value,
        /// The depth of the refuted guess.
        depth: usize,
    },
    /// The search went back to the root to start afresh (a restart):
    /// everything since the first guess is undone, and no guess is refuted.
    Restart,
    /// A contradiction was found (a cell or a unit-digit with no place left).
    Contradiction,
    /// A full solution was reached (`index` counts from 1).
    Solved {
        /// Which solution this is.
        index: usize,
    },
    /// The logic solver found a technique step; its placements and
    /// eliminations follow as [`TraceEvent::Assign`] (reason
    /// [`Reason::Logic`]) and [`TraceEvent::Eliminate`] events.
    Step(Box<Step>),
}

/// Receives trace events. [`NoTrace`] disables tracing at compile time: the
/// solvers test [`TraceSink::ENABLED`] before building an event.
pub trait TraceSink {
    /// False only for sinks that discard everything.
    const ENABLED: bool = true;
    /// Receives one event.
    fn event(&mut self, event: TraceEvent);
    /// Whether the sink wants the search to stop (its receiver went away).
    fn wants_stop(&self) -> bool {
        false
    }
}

/// The sink that records nothing and costs nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoTrace;

impl TraceSink for NoTrace {
    const ENABLED: bool = false;
    #[inline(always)]
    fn event(&mut self, _: TraceEvent) {}
}

/// Tests and tools collect events into a vector.
impl TraceSink for Vec<TraceEvent> {
    fn event(&mut self, event: TraceEvent) {
        self.push(event);
    }
}

impl<S: TraceSink + ?Sized> TraceSink for &mut S {
    const ENABLED: bool = S::ENABLED;
    #[inline]
    fn event(&mut self, event: TraceEvent) {
        (**self).event(event);
    }
    fn wants_stop(&self) -> bool {
        (**self).wants_stop()
    }
}

/// Test support: replays `events` onto the givens of `puzzle` the simple
/// way (a copy of the board at each guess, restored on its backtrack, the
/// first one on a restart) and returns the board at the last `Solved`.
#[cfg(test)]
#[allow(clippy::unwrap_used)]
pub(crate) fn replay_last_solution(
    puzzle: &super::grid::Puzzle,
    events: &[TraceEvent],
) -> Option<Vec<Option<Value>>> {
    let shape = puzzle.shape();
    let mut cells = puzzle.cells().to_vec();
    let mut stack = Vec::new();
    let mut last = None;
    for e in events {
        match e {
            TraceEvent::Branch { .. } => stack.push(cells.clone()),
            TraceEvent::Assign { cell, value, .. } => cells[cell.index(shape)] = Some(*value),
            TraceEvent::Backtrack { .. } => cells = stack.pop().unwrap(),
            TraceEvent::Restart => {
                cells = stack.first().unwrap().clone();
                stack.clear();
            }
            TraceEvent::Solved { .. } => last = Some(cells.clone()),
            _ => {}
        }
    }
    last
}
