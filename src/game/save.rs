//! The saved form of a game: plain serde data (numbers and lists), checked
//! field by field when read back, so a damaged or hand-edited save gives an
//! error instead of a panic or a broken board. The board and its history
//! travel in the compact form of [`compact`]; saves of version 1 (board and
//! history as plain lists) are still read.

pub mod compact;

use std::time::Duration;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::{Conflict, Grid, GridError, Puzzle, Shape, ShapeError, Value};

use super::{Game, History, Notes, Origin};

/// The version of [`GameSave`] this build writes (and the newest it reads).
/// Version 1 kept the board and history as plain lists; version 2 keeps
/// them as [`GameSave::play`].
pub const GAME_SAVE_VERSION: u32 = 2;

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
    /// The solution, when known.
    pub solution: Option<Vec<u16>>,
    /// The board and its undo and redo lists, packed (see [`compact`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play: Option<String>,
    /// Version 1: entries, row-major, 0 for none (read, never written).
    #[serde(default, skip_serializing)]
    pub entries: Option<Vec<u16>>,
    /// Version 1: notes, `words` u64 words per cell (read, never written).
    #[serde(default, skip_serializing)]
    pub notes: Option<Vec<u64>>,
    /// Version 1: undo and redo lists (read, never written).
    #[serde(default, skip_serializing)]
    pub history: Option<History>,
    /// Time played, in milliseconds.
    pub elapsed_ms: u64,
    /// Moves made.
    pub moves: u32,
    /// Hints applied.
    pub hints: u32,
    /// The solver filled cells (saves before this field: false).
    #[serde(default)]
    pub solver_help: bool,
    /// The win was counted (saves before this field: false).
    #[serde(default)]
    pub won: bool,
    /// The player's cell when saved (saves before this field: none).
    #[serde(default)]
    pub cursor: Option<usize>,
    /// Where the puzzle came from.
    pub origin: Origin,
}

impl GameSave {
    /// Whether `other` is a save of the same puzzle (box shape and givens),
    /// whatever was played in either.
    pub fn same_puzzle(&self, other: &GameSave) -> bool {
        (self.box_rows, self.box_cols, &self.givens)
            == (other.box_rows, other.box_cols, &other.givens)
    }
}

/// Why a saved game cannot be resumed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SaveError {
    /// The box shape is not one the engine supports.
    #[error("the saved box shape {box_rows}×{box_cols} is not supported: {source}")]
    Shape {
        /// Rows in one box, as saved.
        box_rows: usize,
        /// Columns in one box, as saved.
        box_cols: usize,
        /// Why the engine refuses it.
        source: ShapeError,
    },
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
    /// The givens do not make a puzzle.
    #[error("the saved givens are not a puzzle: {0}")]
    Puzzle(#[source] GridError),
    /// Two givens break the rules.
    #[error("the saved givens conflict: {0}")]
    Givens(Conflict),
    /// The packed play does not read.
    #[error("{0}")]
    Play(#[from] compact::PlayError),
    /// Neither packed play nor the lists of version 1.
    #[error("the save holds no board")]
    NoBoard,
    /// A move in the history is not valid for this board.
    #[error("move {index} of the history is invalid: {fault}")]
    History {
        /// Position in the undo list, then the redo list.
        index: usize,
        /// What is wrong.
        fault: MoveFault,
    },
}

/// What is wrong with a saved move (see [`SaveError::History`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MoveFault {
    /// It changes a cell the board does not have.
    #[error("cell {0} is outside the board")]
    OutsideBoard(usize),
    /// It changes a given.
    #[error("cell {0} is a given")]
    Given(usize),
    /// It holds a value larger than the side.
    #[error("a value above {max} at cell {cell}")]
    Value {
        /// The cell.
        cell: usize,
        /// The side (the largest value).
        max: usize,
    },
    /// Its notes have the wrong number of words for the side.
    #[error("notes of the wrong size at cell {0}")]
    Notes(usize),
}

impl Game {
    /// The saved form of this game.
    pub fn to_save(&self) -> GameSave {
        let num = |v: &Option<Value>| v.map_or(0, |v| v.get() as u16);
        GameSave {
            box_rows: self.shape.box_rows(),
            box_cols: self.shape.box_cols(),
            givens: self.givens.iter().map(num).collect(),
            solution: self
                .solution
                .as_ref()
                .map(|g| g.cells().iter().map(|v| v.get() as u16).collect()),
            play: Some(compact::pack(
                self.shape,
                &self.givens,
                &self.entries.iter().map(num).collect::<Vec<_>>(),
                &self.notes,
                &self.history,
            )),
            entries: None,
            notes: None,
            history: None,
            elapsed_ms: self.elapsed.as_millis().min(u64::MAX as u128) as u64,
            moves: self.moves,
            hints: self.hints,
            solver_help: self.solver_help,
            won: self.won,
            cursor: self.cursor,
            origin: self.origin.clone(),
        }
    }

    /// Resumes a saved game, checking every field.
    pub fn from_save(s: &GameSave) -> Result<Game, SaveError> {
        let shape = Shape::new(s.box_rows, s.box_cols).map_err(|source| SaveError::Shape {
            box_rows: s.box_rows,
            box_cols: s.box_cols,
            source,
        })?;
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
        let puzzle = Puzzle::new(shape, givens.clone()).map_err(SaveError::Puzzle)?;
        if let Some(&c) = puzzle.conflicts().first() {
            return Err(SaveError::Givens(c));
        }
        let (mut entries, notes, history) = match (&s.play, &s.entries, &s.notes, &s.history) {
            (Some(play), ..) => {
                let p = compact::unpack(shape, &givens, play)?;
                let entries = p
                    .entries
                    .iter()
                    .map(|&e| Value::new(usize::from(e)))
                    .collect();
                (entries, p.notes, p.history)
            }
            (None, Some(entries), Some(notes), Some(history)) => {
                let entries = values("entries", entries)?;
                let words = n.div_ceil(64).max(1);
                let notes = Notes::from_raw(cells, n, notes.clone()).ok_or(SaveError::Length {
                    field: "notes",
                    found: notes.len(),
                    expected: cells * words,
                })?;
                check_history(history, &givens, n)?;
                (entries, notes, history.clone())
            }
            _ => return Err(SaveError::NoBoard),
        };
        for (e, g) in entries.iter_mut().zip(&givens) {
            if g.is_some() {
                *e = None;
            }
        }
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
        Ok(Game {
            shape,
            givens,
            entries,
            notes,
            solution,
            history,
            elapsed: Duration::from_millis(s.elapsed_ms),
            paused: false,
            moves: s.moves,
            hints: s.hints,
            solver_help: s.solver_help,
            won: s.won,
            // A cursor off the board is forgotten, not an error.
            cursor: s.cursor.filter(|&c| c < cells),
            marked_wrong: vec![false; cells],
            origin: s.origin.clone(),
        })
    }
}

/// Checks a version 1 history against the board: every change inside it,
/// on a cell that is not a given, with values and notes of its size.
fn check_history(history: &History, givens: &[Option<Value>], n: usize) -> Result<(), SaveError> {
    let words = n.div_ceil(64).max(1);
    for (index, m) in history.undo.iter().chain(&history.redo).enumerate() {
        for ch in &m.changes {
            let c = ch.cell as usize;
            let fault = if c >= givens.len() {
                Some(MoveFault::OutsideBoard(c))
            } else if givens[c].is_some() {
                Some(MoveFault::Given(c))
            } else if usize::from(ch.before.entry) > n || usize::from(ch.after.entry) > n {
                Some(MoveFault::Value { cell: c, max: n })
            } else if ch.before.notes.0.len() != words || ch.after.notes.0.len() != words {
                Some(MoveFault::Notes(c))
            } else {
                None
            };
            if let Some(fault) = fault {
                return Err(SaveError::History { index, fault });
            }
        }
    }
    Ok(())
}
