//! Hints. The game asks a [`Hinter`] for the next step: [`LogicHinter`]
//! asks the engine's technique solver (`engine::logic`) on the player's
//! notes when they are complete, else on the computed candidates;
//! [`SinglesHinter`] knows only singles. Both say first when an entry is
//! wrong, and reveal a cell from the solution when no technique applies.

use crate::engine::logic::{self, Board, BoardError, Step, Technique};
use crate::engine::{Limits, Value};

use super::Game;

/// Why a hinted value goes where it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HintReason {
    /// The only empty cell of a unit.
    FullHouse {
        /// The unit (rows 0..n, columns n..2n, boxes 2n..3n).
        unit: usize,
    },
    /// The only candidate left in the cell.
    NakedSingle,
    /// The only place for the value in a unit.
    HiddenSingle {
        /// The unit.
        unit: usize,
    },
    /// No single is available: the value is taken from the solution.
    Revealed,
}

/// What a hint says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hint {
    /// Some entries disagree with the solution; fix them first.
    Wrong {
        /// The wrong cells, row-major indices.
        cells: Vec<usize>,
    },
    /// A step of the technique solver.
    Logic(Box<Step>),
    /// A value that can be placed.
    Place {
        /// Row-major cell index.
        cell: usize,
        /// The value.
        value: Value,
        /// Why.
        reason: HintReason,
    },
}

/// The technique's name, for the first stage of a hint (the engine's one
/// table of names, [`Technique::name`]).
pub fn technique_name(reason: HintReason) -> &'static str {
    match reason {
        HintReason::FullHouse { .. } => Technique::FullHouse.name(),
        HintReason::NakedSingle => Technique::NakedSingle.name(),
        HintReason::HiddenSingle { .. } => Technique::HiddenSingle.name(),
        HintReason::Revealed => "Reveal a cell",
    }
}

impl Hint {
    /// The first stage of the hint: what kind of step it is.
    pub fn title(&self) -> String {
        match self {
            Hint::Wrong { .. } => "some entries are wrong".to_string(),
            Hint::Logic(step) => step.technique.name().to_string(),
            Hint::Place { reason, .. } => technique_name(*reason).to_string(),
        }
    }

    /// The cells the second stage shows: the pattern and what it changes.
    pub fn cells(&self) -> Vec<usize> {
        match self {
            Hint::Wrong { cells } => cells.clone(),
            Hint::Place { cell, .. } => vec![*cell],
            Hint::Logic(step) => {
                let mut cells = step.highlights.cells.clone();
                for &(c, _) in step.placements.iter().chain(&step.eliminations) {
                    if !cells.contains(&c) {
                        cells.push(c);
                    }
                }
                cells
            }
        }
    }

    /// A one-line explanation in the board's own terms (`r3c5`, digits as shown).
    pub fn explain(&self, game: &Game) -> String {
        let shape = game.shape();
        match self {
            Hint::Logic(step) => step.explanation.clone(),
            Hint::Wrong { cells } => {
                let names: Vec<String> = cells.iter().take(5).map(|&c| game.cell_name(c)).collect();
                let more = if cells.len() > 5 { ", …" } else { "" };
                format!(
                    "{} entr{} disagree{} with the solution: {}{more}",
                    cells.len(),
                    if cells.len() == 1 { "y" } else { "ies" },
                    if cells.len() == 1 { "s" } else { "" },
                    names.join(", ")
                )
            }
            Hint::Place {
                cell,
                value,
                reason,
            } => {
                let at = game.cell_name(*cell);
                let v = game.symbol(*value);
                let name = technique_name(*reason);
                // Ends with the effect, as every engine step does.
                match reason {
                    HintReason::FullHouse { unit } => format!(
                        "{name}: {at} is the last empty cell of {}, so it is {v} => {at}={v}",
                        shape.unit_name(*unit)
                    ),
                    HintReason::NakedSingle => format!(
                        "{name}: every other value is seen by {at}'s row, column or box, so it is {v} => {at}={v}"
                    ),
                    HintReason::HiddenSingle { unit } => format!(
                        "{name}: {at} is the only place for {v} in {} => {at}={v}",
                        shape.unit_name(*unit)
                    ),
                    HintReason::Revealed => {
                        format!(
                            "No single is available here: the solution has {v} at {at} => {at}={v}"
                        )
                    }
                }
            }
        }
    }

    /// The units the hint is about (for highlighting).
    pub fn units(&self, game: &Game) -> Vec<usize> {
        match self {
            Hint::Place {
                reason: HintReason::FullHouse { unit } | HintReason::HiddenSingle { unit },
                ..
            } => vec![*unit],
            Hint::Place {
                cell,
                reason: HintReason::NakedSingle,
                ..
            } => game.shape().units_of(*cell).to_vec(),
            Hint::Logic(step) => step.highlights.units.clone(),
            _ => Vec::new(),
        }
    }
}

/// Something that can find the next hint for a game.
pub trait Hinter {
    /// The next hint, or None when the board is full (or nothing is known).
    fn hint(&self, game: &Game) -> Option<Hint>;
}

/// Full houses, naked and hidden singles on the board's own candidates,
/// then a revealed cell.
#[derive(Debug, Clone, Copy, Default)]
pub struct SinglesHinter;

impl Hinter for SinglesHinter {
    fn hint(&self, game: &Game) -> Option<Hint> {
        let wrong = game.wrong_entries();
        if !wrong.is_empty() {
            return Some(Hint::Wrong { cells: wrong });
        }
        let shape = game.shape();
        let n = shape.n();
        // A conflict-free but unsolvable board gets no single-based hint.
        let cand = game.candidates();
        for u in 0..shape.units() {
            let empty: Vec<usize> = shape
                .unit_cells(u)
                .filter(|&c| game.value(c).is_none())
                .collect();
            if let [c] = empty[..]
                && let Some(v) = cand[c].iter().next()
                && cand[c].len() == 1
            {
                return Some(Hint::Place {
                    cell: c,
                    value: v,
                    reason: HintReason::FullHouse { unit: u },
                });
            }
        }
        for (c, set) in cand.iter().enumerate() {
            if game.value(c).is_none() && set.len() == 1 {
                let v = set.iter().next()?;
                return Some(Hint::Place {
                    cell: c,
                    value: v,
                    reason: HintReason::NakedSingle,
                });
            }
        }
        for u in 0..shape.units() {
            for d in 0..n {
                let v = Value::from_index(d);
                let mut places = shape
                    .unit_cells(u)
                    .filter(|&c| game.value(c).is_none() && cand[c].has(v));
                if let (Some(c), None) = (places.next(), places.next()) {
                    return Some(Hint::Place {
                        cell: c,
                        value: v,
                        reason: HintReason::HiddenSingle { unit: u },
                    });
                }
            }
        }
        let solution = game.solution()?;
        (0..shape.cells())
            .find(|&c| game.value(c).is_none())
            .map(|c| Hint::Place {
                cell: c,
                value: solution.get(c),
                reason: HintReason::Revealed,
            })
    }
}

/// Hints from the technique solver: the easiest step the engine knows in
/// the position — the computed candidates, narrowed by the player's notes
/// in every cell that has some (so with complete notes, the player's own
/// position). A step that contradicts the solution (wrong notes) is not
/// offered; the singles hinter answers instead.
#[derive(Debug, Clone, Copy, Default)]
pub struct LogicHinter;

impl LogicHinter {
    /// The technique solver's board for `values` of `game` (its entries, or
    /// only its givens): the player's entries count as placed, not given,
    /// and the puzzle is known unique once the game knows its solution
    /// (generated puzzles, or imports the solver found exactly one
    /// solution for).
    pub fn position(game: &Game, values: &[Option<Value>]) -> Result<Board, BoardError> {
        let mut board = Board::from_values(game.shape(), values)?;
        for c in 0..values.len() {
            board.set_given(c, game.is_given(c));
        }
        board.set_known_unique(game.solution().is_some());
        Ok(board)
    }

    /// The position the hint reasons about.
    pub fn board(game: &Game) -> Option<Board> {
        let shape = game.shape();
        let values: Vec<Option<Value>> = (0..shape.cells()).map(|c| game.value(c)).collect();
        let mut board = LogicHinter::position(game, &values).ok()?;
        // Notes the player has written narrow the computed candidates (when
        // every empty cell has notes, the position is the player's own).
        for c in (0..shape.cells()).filter(|&c| values[c].is_none()) {
            let notes = game.notes(c);
            if notes.is_empty() {
                continue;
            }
            for d in 0..shape.n() {
                if !notes.has(Value::from_index(d)) {
                    board.remove(c, d);
                }
            }
        }
        Some(board)
    }
}

impl LogicHinter {
    /// [`Hinter::hint`] within `limits`: their deadline and cancel flag stop
    /// the technique search (a large board's chains can take seconds), and
    /// then there is no hint.
    pub fn hint_within(&self, game: &Game, limits: &Limits) -> Option<Hint> {
        let wrong = game.wrong_entries();
        if !wrong.is_empty() {
            return Some(Hint::Wrong { cells: wrong });
        }
        if let Some(mut board) = LogicHinter::board(game)
            && board.check().is_ok()
        {
            board.set_limits(limits);
            let found = logic::next_step(&board);
            if board.stopped() {
                return None;
            }
            // A step on the player's notes that contradicts the solution
            // means the notes are wrong: fall back to the singles hinter.
            if let Some(step) = found
                && game.solution().is_none_or(|sol| {
                    step.eliminations.iter().all(|&(c, v)| sol.get(c) != v)
                        && step.placements.iter().all(|&(c, v)| sol.get(c) == v)
                })
            {
                return Some(Hint::Logic(Box::new(step)));
            }
        }
        SinglesHinter.hint(game)
    }
}

impl Hinter for LogicHinter {
    fn hint(&self, game: &Game) -> Option<Hint> {
        self.hint_within(game, &Limits::none())
    }
}
