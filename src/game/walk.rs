//! The logic-solve view's model: the technique solver's whole path from a
//! position to the solution (labelled guesses where no technique applies),
//! walked forward and back one step at a time. Each position along the way
//! can be shown as a [`Game`] whose notes are the solver's candidates.

use crate::engine::limits::{Limits, StopReason};
use crate::engine::logic::{Board, PathError, Step, full_path};

use super::{Game, NoteSet};

/// Why no path can be shown.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WalkError {
    /// The solution is not known (an import still being solved, or one
    /// without a unique solution).
    #[error("the solution is not known, so there is no path to show")]
    NoSolution,
    /// The board is larger than the technique solver takes, or broken.
    #[error("{0}")]
    Board(#[from] crate::engine::logic::BoardError),
    /// The walk was cancelled (or its deadline passed) before the end.
    #[error("the logic solver stopped: {0}")]
    Stopped(StopReason),
}

impl From<PathError> for WalkError {
    fn from(e: PathError) -> WalkError {
        match e {
            PathError::Board(b) => WalkError::Board(b),
            PathError::Stopped(stop) => WalkError::Stopped(stop),
        }
    }
}

/// A path and where the player is on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogicWalk {
    start: Board,
    steps: Vec<Step>,
    /// Steps applied so far: `board` is `start` after `steps[..at]`.
    at: usize,
    board: Board,
    /// The walk starts from the givens because the board had wrong entries.
    from_givens: bool,
}

impl LogicWalk {
    /// The path from the game's position: its entries with the computed
    /// candidates (the player's notes may be incomplete), or from the
    /// givens alone when an entry is wrong. `limits` can cancel it.
    pub fn new(game: &Game, limits: &Limits) -> Result<LogicWalk, WalkError> {
        let solution = game.solution().ok_or(WalkError::NoSolution)?;
        let from_givens = !game.wrong_entries().is_empty();
        let shape = game.shape();
        let values: Vec<_> = (0..shape.cells())
            .map(|c| {
                if from_givens && !game.is_given(c) {
                    None
                } else {
                    game.value(c)
                }
            })
            .collect();
        let start = super::LogicHinter::position(game, &values)?;
        let steps = full_path(&start, solution, limits)?;
        Ok(LogicWalk {
            board: start.clone(),
            start,
            steps,
            at: 0,
            from_givens,
        })
    }

    /// Every step of the path.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Steps applied so far (0 at the start, `steps().len()` at the end).
    pub fn at(&self) -> usize {
        self.at
    }

    /// The step about to be applied (None at the end).
    pub fn next(&self) -> Option<&Step> {
        self.steps.get(self.at)
    }

    /// The position after [`at`](LogicWalk::at) steps.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whether the walk ignores the player's entries (some were wrong).
    pub fn from_givens(&self) -> bool {
        self.from_givens
    }

    /// Applies the next step; false at the end.
    pub fn forward(&mut self) -> bool {
        let Some(step) = self.steps.get(self.at) else {
            return false;
        };
        self.board.apply(step);
        self.at += 1;
        true
    }

    /// Takes the last step back (replaying the path from the start, which
    /// costs little next to drawing); false at the start.
    pub fn back(&mut self) -> bool {
        if self.at == 0 {
            return false;
        }
        self.go_to(self.at - 1);
        true
    }

    /// Goes to the position after `at` steps (clamped to the path).
    pub fn go_to(&mut self, at: usize) {
        let at = at.min(self.steps.len());
        if at < self.at {
            self.board = self.start.clone();
            self.at = 0;
        }
        while self.at < at {
            self.forward();
        }
    }

    /// The current position as a game to draw: the game's givens, the
    /// position's other values as entries and its candidates as notes. A
    /// fresh game, so drawing never copies the player's history.
    pub fn preview(&self, game: &Game) -> Game {
        let shape = game.shape();
        let values: Vec<_> = (0..shape.cells()).map(|c| self.board.value(c)).collect();
        game.preview(&values, |c| {
            let mut set = NoteSet::empty(shape.n());
            for d in self.board.digits(c) {
                set.set(crate::engine::Value::from_index(d), true);
            }
            set
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::generate::{GenerateOptions, generate};
    use crate::engine::{Level, Limits, Shape};
    use crate::game::Origin;

    fn game(level: Level, seed: u64) -> Game {
        let g = generate(
            &GenerateOptions::new(Shape::CLASSIC, level, seed),
            &Limits::none(),
        )
        .unwrap();
        Game::new(&g.puzzle, Some(g.solution), Origin::default())
    }

    #[test]
    fn the_walk_reaches_the_solution_and_back() {
        let g = game(Level::Expert, 3);
        let mut w = LogicWalk::new(&g, &Limits::none()).unwrap();
        assert!(!w.from_givens());
        assert!(!w.steps().is_empty());
        let solution = g.solution().unwrap().clone();
        while w.forward() {}
        assert_eq!(w.at(), w.steps().len());
        assert!(w.board().is_solved());
        let end = w.preview(&g);
        for c in 0..81 {
            assert_eq!(end.value(c), Some(solution.get(c)), "cell {c}");
        }
        // Back to the start gives the position we began with.
        while w.back() {}
        assert_eq!(w.at(), 0);
        let start = w.preview(&g);
        for c in 0..81 {
            assert_eq!(start.value(c), g.value(c));
            // Notes are the computed candidates.
            assert_eq!(start.notes(c), g.candidates()[c]);
        }
        // go_to lands on the same board as stepping.
        w.go_to(5);
        let mut w2 = LogicWalk::new(&g, &Limits::none()).unwrap();
        for _ in 0..5 {
            w2.forward();
        }
        assert_eq!(w.board(), w2.board());
        assert_eq!(w.next(), w2.next());
    }

    #[test]
    fn wrong_entries_start_from_the_givens_and_no_solution_is_an_error() {
        let mut g = game(Level::Easy, 4);
        let solution = g.solution().unwrap().clone();
        let c = (0..81).find(|&c| !g.is_given(c)).unwrap();
        let wrong = crate::engine::Value::from_index((solution.get(c).index() + 1) % 9);
        g.enter(c, wrong, false);
        let w = LogicWalk::new(&g, &Limits::none()).unwrap();
        assert!(w.from_givens());
        assert_eq!(w.preview(&g).value(c), None);
        let bare = Game::new(&g.puzzle(), None, Origin::default());
        assert_eq!(
            LogicWalk::new(&bare, &Limits::none()),
            Err(WalkError::NoSolution)
        );
    }
}
