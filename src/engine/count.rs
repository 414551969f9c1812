//! Solution counting with a cap, and the uniqueness check built on it.

use crate::engine::grid::Puzzle;
use crate::engine::limits::Limits;
use crate::engine::solve::{Count, Solver};

/// Counts the solutions of `puzzle`, stopping at `cap`.
///
/// `Count::exact` is true when the search finished below the cap.
pub fn count_solutions(puzzle: &Puzzle, cap: u64, limits: &Limits) -> Count {
    Solver::new().count(puzzle, cap, limits)
}

/// Whether `puzzle` has exactly one solution. `None` when a limit stopped
/// the check before it could tell.
pub fn is_unique(puzzle: &Puzzle, limits: &Limits) -> Option<bool> {
    let c = count_solutions(puzzle, 2, limits);
    if c.solutions >= 2 {
        Some(false)
    } else if c.exact {
        Some(c.solutions == 1)
    } else {
        None
    }
}
