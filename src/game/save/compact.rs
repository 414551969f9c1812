//! The compact form of a game's play in a save: the position before the
//! first move, then every move of the undo and redo lists as deltas, so a
//! save grows with the moves, not with moves × board.
//!
//! The state a move starts from is never stored: the reader replays the
//! moves from the starting position and knows it. Of each changed cell
//! only what changed is written: the new entry, and the notes as "same",
//! "none", "its candidates" (what filling candidates writes, recomputed on
//! replay from the board) or the digits toggled. The bytes are deflated
//! and carried in the JSON save as base64.
//!
//! Layout (all numbers LEB128 varints unless said): a format byte; the
//! starting position as one change list (relative to an empty board); the
//! number of undo moves, each as a kind byte and a change list; the same for
//! the redo moves, in the order redo applies them. A change list is a count
//! then per change: the cell as a zigzag delta from the previous cell of the
//! list, a flag byte, the entry when it changed, the toggled digits (count,
//! then deltas) for toggled notes, and, in the rare case the history does not
//! follow from the replay, the explicit state before.

use std::io::{self, Read, Write};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use flate2::Compression;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use thiserror::Error;

use crate::engine::{Shape, Value};
use crate::game::{CellChange, CellState, History, Move, MoveKind, NoteSet, Notes};

use super::MoveFault;

/// The layout this build writes and reads.
const FORMAT: u8 = 1;

/// Most bytes the packed play may unpack to: far beyond any real game
/// (a 400×400 board's fill-all-candidates move is about half a megabyte),
/// small enough that a crafted save cannot fill memory.
const MAX_UNPACKED: u64 = 256 << 20;

/// Flag bits of a change.
const NOTES_MASK: u8 = 0b11;
const NOTES_SAME: u8 = 0;
const NOTES_NONE: u8 = 1;
const NOTES_CANDIDATES: u8 = 2;
const NOTES_TOGGLED: u8 = 3;
const ENTRY_CHANGED: u8 = 1 << 2;
const BEFORE_STORED: u8 = 1 << 3;

/// Why the packed play of a save cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PlayError {
    /// The text is not base64.
    #[error("the play is not base64: {0}")]
    Base64(#[from] base64::DecodeError),
    /// The bytes are not deflate data.
    #[error("the play does not unpack: {0}")]
    Unpack(String),
    /// It unpacks to more than any game could hold.
    #[error("the play unpacks to more than {} MiB", MAX_UNPACKED >> 20)]
    TooLarge,
    /// A layout this build does not know.
    #[error("the play is in layout {0}, this build reads layout {FORMAT}")]
    Format(u8),
    /// It ends in the middle of something.
    #[error("the play is cut short at byte {0}")]
    Truncated(usize),
    /// A number does not fit.
    #[error("the play holds a number too large at byte {0}")]
    Number(usize),
    /// Bytes are left after the last move.
    #[error("the play has {0} bytes after its last move")]
    Trailing(usize),
    /// A move kind this build does not know.
    #[error("move {index} is of unknown kind {kind}")]
    Kind {
        /// Position in the undo list, then the redo list.
        index: usize,
        /// The kind byte.
        kind: u8,
    },
    /// A change of the starting position is not valid for the board.
    #[error("the starting position is invalid: {0}")]
    Start(MoveFault),
    /// A change of a move is not valid for the board.
    #[error("move {index} is invalid: {fault}")]
    Move {
        /// Position in the undo list, then the redo list.
        index: usize,
        /// What is wrong.
        fault: MoveFault,
    },
}

/// A game's play read back: the board now and its history.
#[derive(Debug)]
pub(crate) struct Play {
    /// Entries, 0 for none.
    pub entries: Vec<u16>,
    /// Notes.
    pub notes: Notes,
    /// Undo and redo lists.
    pub history: History,
}

/// Packs the play of a game on `shape` with `givens`: its board now
/// (`entries`, 0 for none, and `notes`) and its history.
pub(crate) fn pack(
    shape: Shape,
    givens: &[Option<Value>],
    entries: &[u16],
    notes: &Notes,
    history: &History,
) -> String {
    let (cells, words) = (shape.cells(), notes.words());
    // The starting position: today's board with every done move undone.
    let mut start_entries: Vec<u16> = (0..cells)
        .map(|c| entries.get(c).copied().unwrap_or(0))
        .collect();
    let mut start_notes = notes.raw().to_vec();
    for m in history.undo.iter().rev() {
        for ch in m.changes.iter().rev() {
            let c = ch.cell as usize;
            if c < cells {
                start_entries[c] = ch.before.entry;
                for (i, slot) in start_notes[c * words..(c + 1) * words]
                    .iter_mut()
                    .enumerate()
                {
                    *slot = ch.before.notes.0.get(i).copied().unwrap_or(0);
                }
            }
        }
    }
    let mut board = Replay::new(shape, givens);
    let mut out = vec![FORMAT];
    let blank = CellState {
        entry: 0,
        notes: NoteSet::empty(shape.n()),
    };
    let start: Vec<CellChange> = (0..cells)
        .filter(|&c| {
            let notes = &start_notes[c * words..(c + 1) * words];
            givens.get(c).is_some_and(Option::is_none)
                && (start_entries[c] != 0 || notes.iter().any(|&w| w != 0))
        })
        .map(|c| CellChange {
            cell: c as u32,
            before: blank.clone(),
            after: CellState {
                entry: start_entries[c],
                notes: NoteSet(start_notes[c * words..(c + 1) * words].to_vec()),
            },
        })
        .collect();
    write_changes(&mut out, &mut board, &start);
    write_varint(&mut out, history.undo.len() as u64);
    for m in &history.undo {
        write_move(&mut out, &mut board, m);
    }
    write_varint(&mut out, history.redo.len() as u64);
    for m in history.redo.iter().rev() {
        write_move(&mut out, &mut board, m);
    }
    let mut z = DeflateEncoder::new(Vec::new(), Compression::fast());
    // Writing to a Vec cannot fail.
    let packed = z
        .write_all(&out)
        .and_then(|()| z.finish())
        .unwrap_or_default();
    BASE64.encode(packed)
}

/// Reads back what [`pack`] wrote for a game on `shape` with `givens`,
/// checking every cell, value and digit against the board.
pub(crate) fn unpack(
    shape: Shape,
    givens: &[Option<Value>],
    text: &str,
) -> Result<Play, PlayError> {
    let packed = BASE64.decode(text.trim())?;
    let mut bytes = Vec::new();
    DeflateDecoder::new(packed.as_slice())
        .take(MAX_UNPACKED + 1)
        .read_to_end(&mut bytes)
        .map_err(|e: io::Error| PlayError::Unpack(e.to_string()))?;
    if bytes.len() as u64 > MAX_UNPACKED {
        return Err(PlayError::TooLarge);
    }
    let mut r = Reader {
        bytes: &bytes,
        at: 0,
    };
    let format = r.byte()?;
    if format != FORMAT {
        return Err(PlayError::Format(format));
    }
    let mut board = Replay::new(shape, givens);
    read_changes(&mut r, &mut board).map_err(|e| e.at_start())?;
    let mut index = 0;
    let mut undo = Vec::new();
    for _ in 0..r.count()? {
        undo.push(read_move(&mut r, &mut board, index)?);
        index += 1;
    }
    // The board now is after the undo list; the redo moves are replayed
    // to learn their before states, then the board is put back.
    let (entries, notes) = (board.entries.clone(), board.notes.clone());
    let mut redo = Vec::new();
    for _ in 0..r.count()? {
        redo.push(read_move(&mut r, &mut board, index)?);
        index += 1;
    }
    redo.reverse();
    if r.at != bytes.len() {
        return Err(PlayError::Trailing(bytes.len() - r.at));
    }
    let n = shape.n();
    let notes = Notes::from_raw(shape.cells(), n, notes).ok_or(PlayError::Truncated(r.at))?;
    Ok(Play {
        entries,
        notes,
        history: History { undo, redo },
    })
}

fn write_move(out: &mut Vec<u8>, board: &mut Replay, m: &Move) {
    out.push(kind_byte(m.kind));
    write_changes(out, board, &m.changes);
}

fn write_changes(out: &mut Vec<u8>, board: &mut Replay, changes: &[CellChange]) {
    write_varint(out, changes.len() as u64);
    let mut prev = 0i64;
    for ch in changes {
        let c = ch.cell as usize;
        write_varint(out, zigzag(i64::from(ch.cell) - prev));
        prev = i64::from(ch.cell);
        let before = &ch.before;
        let mut flags = 0;
        if !board.is_state(c, before) {
            flags |= BEFORE_STORED;
        }
        if ch.after.entry != before.entry {
            flags |= ENTRY_CHANGED;
        }
        board.set_entry(c, ch.after.entry);
        flags |= if ch.after.notes == before.notes {
            NOTES_SAME
        } else if ch.after.notes.is_empty() {
            NOTES_NONE
        } else if ch.after.entry == 0 && board.candidates_are(c, &ch.after.notes.0) {
            NOTES_CANDIDATES
        } else {
            NOTES_TOGGLED
        };
        out.push(flags);
        if flags & ENTRY_CHANGED != 0 {
            write_varint(out, u64::from(ch.after.entry));
        }
        if flags & NOTES_MASK == NOTES_TOGGLED {
            let toggled = before.notes.0.iter().zip(&ch.after.notes.0);
            write_digits(
                out,
                &NoteSet(toggled.map(|(a, b)| a ^ b).collect()),
                board.n,
            );
        }
        if flags & BEFORE_STORED != 0 {
            write_varint(out, u64::from(before.entry));
            write_digits(out, &before.notes, board.n);
        }
        board.set_notes(c, &ch.after.notes.0);
    }
}

fn write_digits(out: &mut Vec<u8>, set: &NoteSet, n: usize) {
    // Only digits of the board: stray bits beyond the side are dropped.
    let digits: Vec<Value> = set.iter().filter(|v| v.get() <= n).collect();
    write_varint(out, digits.len() as u64);
    let mut prev = 0;
    for v in digits {
        write_varint(out, (v.index() - prev) as u64);
        prev = v.index();
    }
}

fn read_move(r: &mut Reader, board: &mut Replay, index: usize) -> Result<Move, PlayError> {
    let byte = r.byte()?;
    let kind = kind_of(byte).ok_or(PlayError::Kind { index, kind: byte })?;
    let changes = read_changes(r, board).map_err(|e| e.at_move(index))?;
    Ok(Move { kind, changes })
}

/// A read failure, before it is known where (start or which move).
enum Fault {
    Play(PlayError),
    Cell(MoveFault),
}

impl From<PlayError> for Fault {
    fn from(e: PlayError) -> Fault {
        Fault::Play(e)
    }
}

impl Fault {
    fn at_start(self) -> PlayError {
        match self {
            Fault::Play(e) => e,
            Fault::Cell(f) => PlayError::Start(f),
        }
    }

    fn at_move(self, index: usize) -> PlayError {
        match self {
            Fault::Play(e) => e,
            Fault::Cell(fault) => PlayError::Move { index, fault },
        }
    }
}

fn read_changes(r: &mut Reader, board: &mut Replay) -> Result<Vec<CellChange>, Fault> {
    let n = board.n;
    let count = r.count()?;
    // Each change takes at least two bytes: never allocate beyond the data.
    let mut changes = Vec::with_capacity(count.min(r.left() / 2));
    let mut prev = 0i64;
    for _ in 0..count {
        let at = r.at;
        let cell = prev
            .checked_add(unzigzag(r.varint()?))
            .ok_or(PlayError::Number(at))?;
        prev = cell;
        let c = match usize::try_from(cell) {
            Ok(c) if c < board.cells() => c,
            _ => return Err(Fault::Cell(MoveFault::OutsideBoard(cell.max(0) as usize))),
        };
        if board.given[c] {
            return Err(Fault::Cell(MoveFault::Given(c)));
        }
        let flags = r.byte()?;
        if flags & !(NOTES_MASK | ENTRY_CHANGED | BEFORE_STORED) != 0 {
            return Err(PlayError::Number(r.at - 1).into());
        }
        let entry = if flags & ENTRY_CHANGED != 0 {
            Some(read_entry(r, c, n)?)
        } else {
            None
        };
        let toggled = if flags & NOTES_MASK == NOTES_TOGGLED {
            Some(read_digits(r, c, n)?)
        } else {
            None
        };
        let before = if flags & BEFORE_STORED != 0 {
            let entry = read_entry(r, c, n)?;
            let notes = read_digits(r, c, n)?;
            CellState { entry, notes }
        } else {
            board.state(c)
        };
        let entry = entry.unwrap_or(before.entry);
        board.set_entry(c, entry);
        let notes = match (flags & NOTES_MASK, toggled) {
            (NOTES_NONE, _) => NoteSet::empty(n),
            (NOTES_CANDIDATES, _) => NoteSet(board.candidates(c)),
            (_, Some(t)) => NoteSet(
                before
                    .notes
                    .0
                    .iter()
                    .zip(&t.0)
                    .map(|(a, b)| a ^ b)
                    .collect(),
            ),
            _ => before.notes.clone(),
        };
        board.set_notes(c, &notes.0);
        changes.push(CellChange {
            cell: c as u32,
            before,
            after: CellState { entry, notes },
        });
    }
    Ok(changes)
}

fn read_entry(r: &mut Reader, c: usize, n: usize) -> Result<u16, Fault> {
    match u16::try_from(r.varint()?) {
        Ok(e) if usize::from(e) <= n => Ok(e),
        _ => Err(Fault::Cell(MoveFault::Value { cell: c, max: n })),
    }
}

fn read_digits(r: &mut Reader, c: usize, n: usize) -> Result<NoteSet, Fault> {
    let mut set = NoteSet::empty(n);
    let count = r.count()?;
    if count > n {
        return Err(Fault::Cell(MoveFault::Notes(c)));
    }
    let mut d = 0u64;
    for _ in 0..count {
        d = d.saturating_add(r.varint()?);
        if d >= n as u64 {
            return Err(Fault::Cell(MoveFault::Notes(c)));
        }
        set.set(Value::from_index(d as usize), true);
    }
    Ok(set)
}

/// The board as the moves are replayed, with the digits each row, column
/// and box holds, so a cell's candidates cost a few word operations.
struct Replay {
    shape: Shape,
    n: usize,
    words: usize,
    given: Vec<bool>,
    entries: Vec<u16>,
    notes: Vec<u64>,
    /// Per unit and digit: how many of the unit's cells hold it.
    counts: Vec<u32>,
    /// Per unit: the digits held, `words` words each.
    held: Vec<u64>,
}

impl Replay {
    fn new(shape: Shape, givens: &[Option<Value>]) -> Replay {
        let (n, cells) = (shape.n(), shape.cells());
        let words = n.div_ceil(64).max(1);
        let mut board = Replay {
            shape,
            n,
            words,
            given: (0..cells)
                .map(|c| givens.get(c).is_some_and(Option::is_some))
                .collect(),
            entries: vec![0; cells],
            notes: vec![0; cells * words],
            counts: vec![0; shape.units() * n],
            held: vec![0; shape.units() * words],
        };
        for (c, v) in givens.iter().enumerate().take(cells) {
            if let Some(v) = v {
                board.count(c, v.index(), true);
            }
        }
        board
    }

    fn cells(&self) -> usize {
        self.entries.len()
    }

    fn state(&self, c: usize) -> CellState {
        CellState {
            entry: self.entries[c],
            notes: NoteSet(self.notes[c * self.words..(c + 1) * self.words].to_vec()),
        }
    }

    /// Whether cell `c` is in state `s`.
    fn is_state(&self, c: usize, s: &CellState) -> bool {
        self.entries[c] == s.entry
            && self.notes[c * self.words..(c + 1) * self.words] == s.notes.0[..]
    }

    fn set_notes(&mut self, c: usize, words: &[u64]) {
        for (i, slot) in self.notes[c * self.words..(c + 1) * self.words]
            .iter_mut()
            .enumerate()
        {
            *slot = words.get(i).copied().unwrap_or(0);
        }
    }

    fn set_entry(&mut self, c: usize, entry: u16) {
        let old = self.entries[c];
        if old == entry {
            return;
        }
        if old != 0 && usize::from(old) <= self.n {
            self.count(c, usize::from(old) - 1, false);
        }
        if entry != 0 && usize::from(entry) <= self.n {
            self.count(c, usize::from(entry) - 1, true);
        }
        self.entries[c] = entry;
    }

    fn count(&mut self, c: usize, d: usize, add: bool) {
        for u in self.shape.units_of(c) {
            let k = &mut self.counts[u * self.n + d];
            *k = if add { *k + 1 } else { k.saturating_sub(1) };
            let word = &mut self.held[u * self.words + d / 64];
            if *k > 0 {
                *word |= 1 << (d % 64);
            } else {
                *word &= !(1 << (d % 64));
            }
        }
    }

    /// The candidates of cell `c` (the digits none of its units holds).
    fn candidates(&self, c: usize) -> Vec<u64> {
        (0..self.words).map(|w| self.candidate_word(c, w)).collect()
    }

    fn candidate_word(&self, c: usize, w: usize) -> u64 {
        let [a, b, x] = self.shape.units_of(c);
        let held = self.held[a * self.words + w]
            | self.held[b * self.words + w]
            | self.held[x * self.words + w];
        !held & self.digits(w)
    }

    fn candidates_are(&self, c: usize, notes: &[u64]) -> bool {
        notes.len() == self.words
            && notes
                .iter()
                .enumerate()
                .all(|(w, &word)| self.candidate_word(c, w) == word)
    }

    /// The bits of word `w` that stand for digits of the board.
    fn digits(&self, w: usize) -> u64 {
        let bits = self.n.saturating_sub(w * 64).min(64);
        if bits == 64 {
            u64::MAX
        } else {
            (1 << bits) - 1
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn byte(&mut self) -> Result<u8, PlayError> {
        let b = *self
            .bytes
            .get(self.at)
            .ok_or(PlayError::Truncated(self.at))?;
        self.at += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u64, PlayError> {
        let start = self.at;
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            let part = u64::from(b & 0x7f);
            if shift == 63 && part > 1 {
                return Err(PlayError::Number(start));
            }
            value |= part << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(PlayError::Number(start))
    }

    /// A count of things that follow (each at least a byte long).
    fn count(&mut self) -> Result<usize, PlayError> {
        let at = self.at;
        let k = self.varint()?;
        usize::try_from(k)
            .ok()
            .filter(|&k| k <= self.left())
            .ok_or(PlayError::Truncated(at))
    }
}

fn write_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

fn kind_byte(kind: MoveKind) -> u8 {
    match kind {
        MoveKind::Enter => 0,
        MoveKind::Clear => 1,
        MoveKind::Note => 2,
        MoveKind::FillNotes => 3,
        MoveKind::ClearNotes => 4,
        MoveKind::Hint => 5,
        MoveKind::Solve => 6,
        MoveKind::Solver => 7,
    }
}

fn kind_of(byte: u8) -> Option<MoveKind> {
    Some(match byte {
        0 => MoveKind::Enter,
        1 => MoveKind::Clear,
        2 => MoveKind::Note,
        3 => MoveKind::FillNotes,
        4 => MoveKind::ClearNotes,
        5 => MoveKind::Hint,
        6 => MoveKind::Solve,
        7 => MoveKind::Solver,
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
