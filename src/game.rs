//! One game in play: the givens, the player's entries and notes, the
//! history of moves, the clock and the counters. Pure state and rules: it
//! knows nothing of terminals, files or threads, so every part of play can be
//! tested directly. Every change goes through one function (`Game::apply`)
//! as a [`Move`], so undo/redo, autosave and conflicts stay consistent.

pub mod hint;
pub mod history;
pub mod notes;
pub mod save;
pub mod walk;

use std::time::Duration;

use crate::engine::{Grid, Level, Puzzle, Shape, Value};

pub use hint::{Hint, HintReason, Hinter, LogicHinter, SinglesHinter};
pub use history::{CellChange, CellState, History, Move, MoveKind};
pub use notes::{NoteSet, Notes};
pub use save::{GAME_SAVE_VERSION, GameSave, MoveFault, SaveError};
pub use walk::{LogicWalk, WalkError};

/// Where a game's puzzle came from.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Origin {
    /// The level it was generated or shipped for.
    pub level: Option<Level>,
    /// The generator seed, when generated.
    pub seed: Option<u64>,
    /// A title: a file name, "daily 2026-11-22", …
    pub title: Option<String>,
}

/// Cells and units in conflict: two equal values in one unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflicts {
    /// Per cell: it holds a value that another cell of one of its units holds too.
    pub cells: Vec<bool>,
    /// Per unit (rows, columns, boxes): it holds a value twice.
    pub units: Vec<bool>,
}

impl Conflicts {
    /// True when nothing conflicts.
    pub fn is_empty(&self) -> bool {
        !self.cells.iter().any(|&c| c)
    }
}

/// A game in play.
#[derive(Debug, Clone)]
pub struct Game {
    shape: Shape,
    givens: Vec<Option<Value>>,
    entries: Vec<Option<Value>>,
    notes: Notes,
    solution: Option<Grid>,
    history: History,
    elapsed: Duration,
    paused: bool,
    moves: u32,
    hints: u32,
    /// The solver filled cells (solve, or a watched solver's board kept).
    solver_help: bool,
    /// The win was counted (a game is won once, whatever undo and redo
    /// do afterwards).
    won: bool,
    /// The cell the player was on when the game was saved.
    cursor: Option<usize>,
    /// Cells marked wrong by the last check, until they change.
    marked_wrong: Vec<bool>,
    origin: Origin,
}

impl Game {
    /// A fresh game of `puzzle`. The solution, when known, must solve the
    /// puzzle; otherwise it is dropped (check, solve and revealing hints then
    /// wait for [`set_solution`](Game::set_solution)).
    pub fn new(puzzle: &Puzzle, solution: Option<Grid>, origin: Origin) -> Game {
        let shape = puzzle.shape();
        let cells = shape.cells();
        Game {
            shape,
            givens: puzzle.cells().to_vec(),
            entries: vec![None; cells],
            notes: Notes::new(cells, shape.n()),
            solution: solution.filter(|g| puzzle.is_solved_by(g)),
            history: History::default(),
            elapsed: Duration::ZERO,
            paused: false,
            moves: 0,
            hints: 0,
            solver_help: false,
            won: false,
            cursor: None,
            marked_wrong: vec![false; cells],
            origin,
        }
    }

    /// Another position of this game's puzzle, as a fresh game to draw:
    /// `values` for the cells that are not givens, `notes(c)` for the
    /// empty ones. Drawing it never copies the player's history.
    pub fn preview(&self, values: &[Option<Value>], notes: impl Fn(usize) -> NoteSet) -> Game {
        let mut view = Game::new(&self.puzzle(), self.solution.clone(), self.origin.clone());
        for c in 0..self.shape.cells() {
            let value = values.get(c).copied().flatten();
            if !self.is_given(c) {
                view.entries[c] = value;
            }
            if value.is_none() {
                view.notes.put(c, &notes(c));
            }
        }
        view
    }

    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Where the puzzle came from.
    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// The puzzle (givens only).
    pub fn puzzle(&self) -> Puzzle {
        let mut p = Puzzle::empty(self.shape);
        for (c, v) in self.givens.iter().enumerate() {
            // Givens came from a valid puzzle of this shape.
            let _ = p.set(c, *v);
        }
        p
    }

    /// The known solution.
    pub fn solution(&self) -> Option<&Grid> {
        self.solution.as_ref()
    }

    /// Sets the solution once it is known; ignored when it does not solve the puzzle.
    pub fn set_solution(&mut self, g: Grid) -> bool {
        let ok = self.puzzle().is_solved_by(&g);
        if ok {
            self.solution = Some(g);
        }
        ok
    }

    /// The value shown in cell `c`: its given or its entry.
    pub fn value(&self, c: usize) -> Option<Value> {
        self.givens[c].or(self.entries[c])
    }

    /// Whether cell `c` is a given.
    pub fn is_given(&self, c: usize) -> bool {
        self.givens[c].is_some()
    }

    /// The notes of cell `c`.
    pub fn notes(&self, c: usize) -> NoteSet {
        self.notes.get(c)
    }

    /// Whether cell `c` has `v` noted.
    pub fn has_note(&self, c: usize, v: Value) -> bool {
        self.notes.has(c, v)
    }

    /// Whether the last check marked cell `c` wrong (until it changes).
    pub fn is_marked_wrong(&self, c: usize) -> bool {
        self.marked_wrong[c]
    }

    /// Time played.
    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }

    /// Moves made (undo and redo do not count).
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// Hints applied.
    pub fn hints_used(&self) -> u32 {
        self.hints
    }

    /// Whether the player had help: a hint applied, or the solver filled
    /// cells. An assisted win counts as solved, never as a best time.
    pub fn assisted(&self) -> bool {
        self.hints > 0 || self.solver_help
    }

    /// The cell the player was on, as last set (kept in saves, so
    /// Continue puts the cursor back).
    pub fn cursor(&self) -> Option<usize> {
        self.cursor
    }

    /// Remembers the player's cell (a cell of the board, else nothing).
    pub fn set_cursor(&mut self, cell: usize) {
        self.cursor = (cell < self.shape.cells()).then_some(cell);
    }

    /// Whether the player has played anything on this board: an entry,
    /// a note, or a move undone.
    pub fn in_progress(&self) -> bool {
        !self.is_solved() && self.moves > 0
    }

    /// Counts the win once: true the first time a solved board is won,
    /// false ever after (a redo of the winning move, a cell cleared and
    /// typed again).
    pub fn mark_won(&mut self) -> bool {
        let first = self.is_solved() && !self.won;
        self.won |= first;
        first
    }

    /// The history (for saving and for the status line).
    pub fn history(&self) -> &History {
        &self.history
    }

    /// Whether the clock is paused.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// Pauses or resumes the clock.
    pub fn set_paused(&mut self, paused: bool) {
        self.paused = paused;
    }

    /// Adds `dt` to the clock unless it is paused or the board is solved.
    pub fn advance(&mut self, dt: Duration) {
        if !self.paused && !self.is_solved() {
            self.elapsed += dt;
        }
    }

    /// "r3c12" for cell `c`.
    pub fn cell_name(&self, c: usize) -> String {
        let n = self.shape.n();
        format!("r{}c{}", c / n + 1, c % n + 1)
    }

    /// How value `v` is shown: 1–9 then A, B, … for n ≤ 35, numbers beyond.
    pub fn symbol(&self, v: Value) -> String {
        symbol(self.shape.n(), v)
    }

    /// Filled cells and all cells.
    pub fn progress(&self) -> (usize, usize) {
        let filled = (0..self.shape.cells())
            .filter(|&c| self.value(c).is_some())
            .count();
        (filled, self.shape.cells())
    }

    /// Cells and units holding a value twice.
    pub fn conflicts(&self) -> Conflicts {
        let n = self.shape.n();
        let mut cells = vec![false; self.shape.cells()];
        let mut units = vec![false; self.shape.units()];
        let mut seen: Vec<u32> = vec![u32::MAX; n];
        for (u, bad) in units.iter_mut().enumerate() {
            seen.fill(u32::MAX);
            for c in self.shape.unit_cells(u) {
                if let Some(v) = self.value(c) {
                    let first = seen[v.index()];
                    if first == u32::MAX {
                        seen[v.index()] = c as u32;
                    } else {
                        *bad = true;
                        cells[c] = true;
                        cells[first as usize] = true;
                    }
                }
            }
        }
        Conflicts { cells, units }
    }

    /// Every cell's candidates: for an empty cell the values none of its
    /// peers holds; filled cells get an empty set.
    pub fn candidates(&self) -> Vec<NoteSet> {
        let n = self.shape.n();
        let tables = self.shape.tables();
        (0..self.shape.cells())
            .map(|c| {
                let mut s = NoteSet::empty(n);
                if self.value(c).is_none() {
                    for d in 0..n {
                        s.set(Value::from_index(d), true);
                    }
                    for p in tables.peers(c) {
                        if let Some(v) = self.value(p) {
                            s.set(v, false);
                        }
                    }
                }
                s
            })
            .collect()
    }

    /// Entries that differ from the known solution (empty without one).
    pub fn wrong_entries(&self) -> Vec<usize> {
        let Some(sol) = &self.solution else {
            return Vec::new();
        };
        (0..self.shape.cells())
            .filter(|&c| self.entries[c].is_some_and(|v| v != sol.get(c)))
            .collect()
    }

    /// Every cell filled, no conflict (and, when known, equal to the solution).
    pub fn is_solved(&self) -> bool {
        let full = (0..self.shape.cells()).all(|c| self.value(c).is_some());
        full && self.conflicts().is_empty() && self.wrong_entries().is_empty()
    }

    fn state(&self, c: usize) -> CellState {
        CellState {
            entry: self.entries[c].map_or(0, |v| v.get() as u16),
            notes: self.notes.get(c),
        }
    }

    fn put(&mut self, c: usize, s: &CellState) {
        self.entries[c] = Value::new(usize::from(s.entry)).filter(|v| v.get() <= self.shape.n());
        self.notes.put(c, &s.notes);
        self.marked_wrong[c] = false;
    }

    /// Applies a move built from target states, recording it for undo;
    /// cells whose state would not change are left out. False when nothing
    /// changed (no move is recorded).
    fn commit(&mut self, kind: MoveKind, targets: Vec<(usize, CellState)>) -> bool {
        let mut changes = Vec::new();
        for (c, after) in targets {
            let before = self.state(c);
            if before != after && !self.is_given(c) {
                changes.push(CellChange {
                    cell: c as u32,
                    before,
                    after,
                });
            }
        }
        if changes.is_empty() {
            return false;
        }
        let m = Move { kind, changes };
        self.apply(&m, true);
        self.history.push(m);
        self.moves += 1;
        if kind == MoveKind::Hint {
            self.hints += 1;
        }
        true
    }

    /// Puts the after (`forward`) or before states of a move on the board
    /// (undoing in reverse order).
    fn apply(&mut self, m: &Move, forward: bool) {
        if forward {
            m.changes
                .iter()
                .for_each(|ch| self.put_change(ch, &ch.after));
        } else {
            m.changes
                .iter()
                .rev()
                .for_each(|ch| self.put_change(ch, &ch.before));
        }
    }

    fn put_change(&mut self, ch: &CellChange, s: &CellState) {
        let c = ch.cell as usize;
        if c < self.shape.cells() && !self.is_given(c) {
            self.put(c, s);
        }
    }

    /// Enters `v` in cell `c`, clearing its notes, and (when `auto_notes`)
    /// removing `v` from its peers' notes. Entering the value a cell already
    /// holds clears it. False for a given (nothing happens).
    pub fn enter(&mut self, c: usize, v: Value, auto_notes: bool) -> bool {
        if self.is_given(c) || v.get() > self.shape.n() {
            return false;
        }
        if self.entries[c] == Some(v) {
            return self.clear(c);
        }
        self.place(c, v, auto_notes, MoveKind::Enter)
    }

    fn place(&mut self, c: usize, v: Value, auto_notes: bool, kind: MoveKind) -> bool {
        let n = self.shape.n();
        let mut targets = vec![(
            c,
            CellState {
                entry: v.get() as u16,
                notes: NoteSet::empty(n),
            },
        )];
        if auto_notes {
            for p in self.shape.tables().peers(c) {
                if self.has_note(p, v) {
                    let mut s = self.state(p);
                    s.notes.set(v, false);
                    targets.push((p, s));
                }
            }
        }
        self.commit(kind, targets)
    }

    /// Toggles note `v` in an empty cell `c`. False for givens and filled cells.
    pub fn toggle_note(&mut self, c: usize, v: Value) -> bool {
        if self.value(c).is_some() || v.get() > self.shape.n() {
            return false;
        }
        let mut s = self.state(c);
        let on = !s.notes.has(v);
        s.notes.set(v, on);
        self.commit(MoveKind::Note, vec![(c, s)])
    }

    /// Clears cell `c`: its entry if it has one, else its notes.
    pub fn clear(&mut self, c: usize) -> bool {
        let mut s = self.state(c);
        if s.entry != 0 {
            s.entry = 0;
        } else {
            s.notes = NoteSet::empty(self.shape.n());
        }
        self.commit(MoveKind::Clear, vec![(c, s)])
    }

    /// Notes every empty cell's candidates (one move).
    pub fn fill_candidates(&mut self) -> bool {
        let cand = self.candidates();
        let targets = cand
            .into_iter()
            .enumerate()
            .filter(|(c, _)| self.value(*c).is_none())
            .map(|(c, notes)| (c, CellState { entry: 0, notes }))
            .collect();
        self.commit(MoveKind::FillNotes, targets)
    }

    /// Removes every note (one move).
    pub fn clear_notes(&mut self) -> bool {
        let n = self.shape.n();
        let targets = (0..self.shape.cells())
            .filter(|&c| !self.notes.is_empty_at(c))
            .map(|c| {
                let mut s = self.state(c);
                s.notes = NoteSet::empty(n);
                (c, s)
            })
            .collect();
        self.commit(MoveKind::ClearNotes, targets)
    }

    /// Fills the board from the solution (one undoable move). False
    /// without a solution or when already solved.
    pub fn solve(&mut self) -> bool {
        let Some(sol) = self.solution.clone() else {
            return false;
        };
        let n = self.shape.n();
        let targets = (0..self.shape.cells())
            .filter(|&c| !self.is_given(c))
            .map(|c| {
                (
                    c,
                    CellState {
                        entry: sol.get(c).get() as u16,
                        notes: NoteSet::empty(n),
                    },
                )
            })
            .collect();
        let changed = self.commit(MoveKind::Solve, targets);
        self.solver_help |= changed;
        changed
    }

    /// Takes a board a solver showed (the solver view, kept): every cell
    /// that is not a given gets the value shown there, or is emptied, as
    /// one undoable move. False when nothing changed or `values` is not
    /// a board of this shape.
    pub fn take_board(&mut self, values: &[Option<Value>]) -> bool {
        let n = self.shape.n();
        if values.len() != self.shape.cells() || values.iter().flatten().any(|v| v.get() > n) {
            return false;
        }
        let targets = values
            .iter()
            .enumerate()
            .filter(|&(c, _)| !self.is_given(c))
            .map(|(c, v)| {
                (
                    c,
                    CellState {
                        entry: v.map_or(0, |v| v.get() as u16),
                        notes: NoteSet::empty(n),
                    },
                )
            })
            .collect();
        let changed = self.commit(MoveKind::Solver, targets);
        self.solver_help |= changed;
        changed
    }

    /// Applies a hint as one undoable move (counted as a hint): a placed
    /// value, or a technique step's placements and eliminations (a cell
    /// without notes gets its candidates first, minus the eliminated ones).
    /// False for a hint that changes nothing.
    pub fn apply_hint(&mut self, hint: &Hint, auto_notes: bool) -> bool {
        match hint {
            Hint::Place { cell, value, .. } if !self.is_given(*cell) => {
                self.place(*cell, *value, auto_notes, MoveKind::Hint)
            }
            Hint::Logic(step) => {
                let n = self.shape.n();
                let cand = self.candidates();
                let mut targets: Vec<(usize, CellState)> = Vec::new();
                for &(c, v) in &step.eliminations {
                    if c >= self.shape.cells() || self.value(c).is_some() {
                        continue;
                    }
                    let i = match targets.iter().position(|(t, _)| *t == c) {
                        Some(i) => i,
                        None => {
                            let mut st = self.state(c);
                            if st.notes.is_empty() {
                                st.notes = cand[c].clone();
                            }
                            targets.push((c, st));
                            targets.len() - 1
                        }
                    };
                    targets[i].1.notes.set(v, false);
                }
                for &(c, v) in &step.placements {
                    if c < self.shape.cells() && !self.is_given(c) {
                        targets.retain(|(t, _)| *t != c);
                        targets.push((
                            c,
                            CellState {
                                entry: v.get() as u16,
                                notes: NoteSet::empty(n),
                            },
                        ));
                        if auto_notes {
                            for p in self.shape.tables().peers(c) {
                                if self.has_note(p, v) && !targets.iter().any(|(t, _)| *t == p) {
                                    let mut st = self.state(p);
                                    st.notes.set(v, false);
                                    targets.push((p, st));
                                }
                            }
                        }
                    }
                }
                self.commit(MoveKind::Hint, targets)
            }
            _ => false,
        }
    }

    /// Marks wrong entries (against the solution); returns them.
    pub fn check(&mut self) -> Vec<usize> {
        let wrong = self.wrong_entries();
        self.marked_wrong.fill(false);
        for &c in &wrong {
            self.marked_wrong[c] = true;
        }
        wrong
    }

    /// Undoes the last move; returns its kind.
    pub fn undo(&mut self) -> Option<MoveKind> {
        let m = self.history.take_undo()?.clone();
        self.apply(&m, false);
        Some(m.kind)
    }

    /// Redoes the last undone move; returns its kind.
    pub fn redo(&mut self) -> Option<MoveKind> {
        let m = self.history.take_redo()?.clone();
        self.apply(&m, true);
        Some(m.kind)
    }
}

/// How value `v` of an n-digit board is written: `1`–`9` then `A`, `B`, …
/// up to n = 35, decimal numbers beyond.
pub fn symbol(n: usize, v: Value) -> String {
    crate::engine::grid::symbol(n, v.get())
}

/// The value a symbol stands for on an n-digit board (`1`–`9`, letters for
/// n ≤ 35, decimal numbers up to n).
pub fn parse_symbol(n: usize, text: &str) -> Option<Value> {
    let t = text.trim();
    let v = if let Ok(num) = t.parse::<usize>() {
        num
    } else if n <= 35 && t.len() == 1 {
        let ch = t.chars().next()?.to_ascii_uppercase();
        if ch.is_ascii_uppercase() {
            (ch as usize - 'A' as usize) + 10
        } else {
            return None;
        }
    } else {
        return None;
    };
    Value::new(v).filter(|v| v.get() <= n)
}

#[cfg(test)]
mod tests;
