//! The saved form of a game: plain serde data (numbers and lists), checked
//! field by field when read back, so a damaged or hand-edited save gives an
//! error instead of a panic or a broken board.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::{Grid, Puzzle, Shape, Value};

use super::{Game, History, Notes, Origin};

/// The version of [`GameSave`] this build writes (and the newest it reads).
pub const GAME_SAVE_VERSION: u32 = 1;

/// A game as saved: everything needed to resume exactly (board, notes,
/// undo history, clock, counters).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSave {
    /// Box rows.
    pub box_rows: usize,
    /// Box columns.
    pub box_cols: usize,
    /// Givens, row-major, 0 for blank.
    pub givens: Vec<u16>,
    /// Entries, row-major, 0 for none.
    pub entries: Vec<u16>,
    /// Notes: `words` u64 words per cell.
    pub notes: Vec<u64>,
    /// The solution, when known.
    pub solution: Option<Vec<u16>>,
    /// Undo and redo lists.
    pub history: History,
    /// Time played, in milliseconds.
    pub elapsed_ms: u64,
    /// Moves made.
    pub moves: u32,
    /// Hints applied.
    pub hints: u32,
    /// Where the puzzle came from.
    pub origin: Origin,
}

/// Why a saved game cannot be resumed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SaveError {
    /// The box shape is not one the engine supports.
    #[error("the saved box shape {0}×{1} is not supported")]
    Shape(usize, usize),
    /// A list has the wrong length.
    #[error("`{field}` has {found} entries, expected {expected}")]
    Length {
        /// The field.
        field: &'static str,
        /// Its length.
        found: usize,
        /// What the shape needs.
        expected: usize,
    },
    /// A value is out of range.
    #[error("`{field}` holds {value} at cell {cell}, expected 0..={max}")]
    Value {
        /// The field.
        field: &'static str,
        /// The cell.
        cell: usize,
        /// The bad value.
        value: u16,
        /// The largest allowed.
        max: usize,
    },
    /// The givens break the rules.
    #[error("the saved givens conflict: {0}")]
    Givens(String),
    /// A move in the history is not valid for this board.
    #[error("move {index} of the history is invalid: {why}")]
    History {
        /// Position in the undo list, then the redo list.
        index: usize,
        /// What is wrong.
        why: String,
    },
}

impl Game {
    /// The saved form of this game.
    pub fn to_save(&self) -> GameSave {
        let num = |v: &Option<Value>| v.map_or(0, |v| v.get() as u16);
        GameSave {
            box_rows: self.shape.box_rows(),
            box_cols: self.shape.box_cols(),
            givens: self.givens.iter().map(num).collect(),
            entries: self.entries.iter().map(num).collect(),
            notes: self.notes.raw().to_vec(),
            solution: self
                .solution
                .as_ref()
                .map(|g| g.cells().iter().map(|v| v.get() as u16).collect()),
            history: self.history.clone(),
            elapsed_ms: self.elapsed.as_millis().min(u64::MAX as u128) as u64,
            moves: self.moves,
            hints: self.hints,
            origin: self.origin.clone(),
        }
    }

    /// Resumes a saved game, checking every field.
    pub fn from_save(s: &GameSave) -> Result<Game, SaveError> {
        let shape = Shape::new(s.box_rows, s.box_cols)
            .map_err(|_| SaveError::Shape(s.box_rows, s.box_cols))?;
        let (n, cells) = (shape.n(), shape.cells());
        let values = |field: &'static str, list: &[u16]| -> Result<Vec<Option<Value>>, SaveError> {
            if list.len() != cells {
                return Err(SaveError::Length {
                    field,
                    found: list.len(),
                    expected: cells,
                });
            }
            list.iter()
                .enumerate()
                .map(|(cell, &value)| {
                    if usize::from(value) > n {
                        Err(SaveError::Value {
                            field,
                            cell,
                            value,
                            max: n,
                        })
                    } else {
                        Ok(Value::new(usize::from(value)))
                    }
                })
                .collect()
        };
        let givens = values("givens", &s.givens)?;
        let mut entries = values("entries", &s.entries)?;
        for (e, g) in entries.iter_mut().zip(&givens) {
            if g.is_some() {
                *e = None;
            }
        }
        let puzzle =
            Puzzle::new(shape, givens.clone()).map_err(|e| SaveError::Givens(e.to_string()))?;
        let conflicts = puzzle.conflicts();
        if let Some(c) = conflicts.first() {
            return Err(SaveError::Givens(c.to_string()));
        }
        let words = n.div_ceil(64).max(1);
        let notes = Notes::from_raw(cells, n, s.notes.clone()).ok_or(SaveError::Length {
            field: "notes",
            found: s.notes.len(),
            expected: cells * words,
        })?;
        let solution = match &s.solution {
            None => None,
            Some(list) => {
                let vals = values("solution", list)?;
                let full: Option<Vec<Value>> = vals.into_iter().collect();
                let grid = full
                    .and_then(|v| Grid::new(shape, v).ok())
                    .filter(|g| puzzle.is_solved_by(g));
                // A solution that does not solve the puzzle is dropped, not fatal.
                grid
            }
        };
        for (index, m) in s.history.undo.iter().chain(&s.history.redo).enumerate() {
            for ch in &m.changes {
                let c = ch.cell as usize;
                let why = if c >= cells {
                    Some(format!("cell {c} is outside the board"))
                } else if givens[c].is_some() {
                    Some(format!("cell {c} is a given"))
                } else if usize::from(ch.before.entry) > n || usize::from(ch.after.entry) > n {
                    Some(format!("a value above {n} at cell {c}"))
                } else if ch.before.notes.0.len() != words || ch.after.notes.0.len() != words {
                    Some(format!("notes of the wrong size at cell {c}"))
                } else {
                    None
                };
                if let Some(why) = why {
                    return Err(SaveError::History { index, why });
                }
            }
        }
        Ok(Game {
            shape,
            givens,
            entries,
            notes,
            solution,
            history: s.history.clone(),
            elapsed: Duration::from_millis(s.elapsed_ms),
            paused: false,
            moves: s.moves,
            hints: s.hints,
            marked_wrong: vec![false; cells],
            origin: s.origin.clone(),
        })
    }
}
