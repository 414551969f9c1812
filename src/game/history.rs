//! Undo and redo: every change to the board is one [`Move`] holding the
//! before and after state of each cell it touched, so one pair of functions
//! undoes and redoes entries, notes, fills, clears, hints and solves alike.

use serde::{Deserialize, Serialize};

use super::notes::NoteSet;

/// What a cell holds apart from its given: an entry (1-based value, 0 for
/// none) and notes.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CellState {
    /// The entered value, 1-based; 0 when empty.
    pub entry: u16,
    /// The pencil marks.
    pub notes: NoteSet,
}

/// One cell's change within a move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellChange {
    /// Row-major cell index.
    pub cell: u32,
    /// The state before the move.
    pub before: CellState,
    /// The state after the move.
    pub after: CellState,
}

/// What kind of move it was (for the status line and for statistics).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveKind {
    /// A value entered (possibly clearing notes around it).
    Enter,
    /// A cell's entry or notes cleared.
    Clear,
    /// A note toggled.
    Note,
    /// Every empty cell's candidates filled in as notes.
    FillNotes,
    /// Every note removed.
    ClearNotes,
    /// A hint applied.
    Hint,
    /// The whole board filled from the solution.
    Solve,
    /// A board a solver showed in the watch view, kept.
    Solver,
}

impl MoveKind {
    /// A short description for the status line ("undid: …").
    pub fn label(self) -> &'static str {
        match self {
            MoveKind::Enter => "entry",
            MoveKind::Clear => "clear",
            MoveKind::Note => "note",
            MoveKind::FillNotes => "fill candidates",
            MoveKind::ClearNotes => "clear notes",
            MoveKind::Hint => "hint",
            MoveKind::Solve => "solve",
            MoveKind::Solver => "solver's board",
        }
    }
}

/// One undoable step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    /// What it was.
    pub kind: MoveKind,
    /// The cells it changed (each at most once).
    pub changes: Vec<CellChange>,
}

/// Moves done and undone. A new move clears the redo list.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct History {
    /// Done moves, oldest first.
    pub undo: Vec<Move>,
    /// Undone moves, the next to redo last.
    pub redo: Vec<Move>,
}

impl History {
    /// Records a new move (dropping the redo list).
    pub fn push(&mut self, m: Move) {
        self.redo.clear();
        self.undo.push(m);
    }

    /// Takes the move to undo, remembering it for redo.
    pub fn take_undo(&mut self) -> Option<&Move> {
        let m = self.undo.pop()?;
        self.redo.push(m);
        self.redo.last()
    }

    /// Takes the move to redo, remembering it for undo.
    pub fn take_redo(&mut self) -> Option<&Move> {
        let m = self.redo.pop()?;
        self.undo.push(m);
        self.undo.last()
    }
}
