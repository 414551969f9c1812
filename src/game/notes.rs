//! Pencil marks: a candidate set per cell, stored flat (one or more `u64`
//! words per cell, so any n the engine supports fits).

use serde::{Deserialize, Serialize};

use crate::engine::Value;

/// The notes of one cell: bit `d` set when digit index `d` (value `d + 1`)
/// is marked.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct NoteSet(pub Vec<u64>);

impl NoteSet {
    /// No marks, sized for `n` digits.
    pub fn empty(n: usize) -> NoteSet {
        NoteSet(vec![0; n.div_ceil(64).max(1)])
    }

    /// True when no digit is marked.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Whether `v` is marked.
    pub fn has(&self, v: Value) -> bool {
        let d = v.index();
        self.0.get(d / 64).is_some_and(|w| w >> (d % 64) & 1 == 1)
    }

    /// Marks or unmarks `v` (ignored when `v` is beyond the set's size).
    pub fn set(&mut self, v: Value, on: bool) {
        let d = v.index();
        if let Some(w) = self.0.get_mut(d / 64) {
            if on {
                *w |= 1 << (d % 64);
            } else {
                *w &= !(1 << (d % 64));
            }
        }
    }

    /// Number of marks.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The marked values, smallest first.
    pub fn iter(&self) -> impl Iterator<Item = Value> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            (0..64)
                .filter(move |b| w >> b & 1 == 1)
                .map(move |b| Value::from_index(i * 64 + b))
        })
    }
}

/// The notes of every cell of a board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notes {
    words: usize,
    bits: Vec<u64>,
}

impl Notes {
    /// Empty notes for `cells` cells of a board with `n` digits.
    pub fn new(cells: usize, n: usize) -> Notes {
        let words = n.div_ceil(64).max(1);
        Notes {
            words,
            bits: vec![0; cells * words],
        }
    }

    /// The notes of cell `c`.
    pub fn get(&self, c: usize) -> NoteSet {
        NoteSet(self.bits[c * self.words..(c + 1) * self.words].to_vec())
    }

    /// Whether cell `c` has `v` marked.
    pub fn has(&self, c: usize, v: Value) -> bool {
        let d = v.index();
        d / 64 < self.words && self.bits[c * self.words + d / 64] >> (d % 64) & 1 == 1
    }

    /// Whether cell `c` has no marks.
    pub fn is_empty_at(&self, c: usize) -> bool {
        self.bits[c * self.words..(c + 1) * self.words]
            .iter()
            .all(|&w| w == 0)
    }

    /// Replaces the notes of cell `c` (extra or missing words are ignored / zero).
    pub fn put(&mut self, c: usize, set: &NoteSet) {
        for (i, slot) in self.bits[c * self.words..(c + 1) * self.words]
            .iter_mut()
            .enumerate()
        {
            *slot = set.0.get(i).copied().unwrap_or(0);
        }
    }

    /// Words per cell.
    pub fn words(&self) -> usize {
        self.words
    }

    /// All words, cell by cell (for saving).
    pub fn raw(&self) -> &[u64] {
        &self.bits
    }

    /// Notes from saved words; None when the length does not fit.
    pub fn from_raw(cells: usize, n: usize, bits: Vec<u64>) -> Option<Notes> {
        let words = n.div_ceil(64).max(1);
        (bits.len() == cells * words).then_some(Notes { words, bits })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_and_notes_agree() {
        let mut s = NoteSet::empty(100);
        assert_eq!(s.0.len(), 2);
        s.set(Value::from_index(0), true);
        s.set(Value::from_index(70), true);
        s.set(Value::from_index(99), true);
        s.set(Value::from_index(99), false);
        s.set(Value::from_index(200), true); // beyond: ignored
        assert_eq!(s.len(), 2);
        assert_eq!(s.iter().map(Value::get).collect::<Vec<_>>(), vec![1, 71]);
        let mut notes = Notes::new(4, 100);
        notes.put(2, &s);
        assert_eq!(notes.get(2), s);
        assert!(notes.has(2, Value::from_index(70)));
        assert!(notes.is_empty_at(1));
        assert!(Notes::from_raw(4, 100, notes.raw().to_vec()).is_some());
        assert!(Notes::from_raw(4, 100, vec![0; 3]).is_none());
    }
}
