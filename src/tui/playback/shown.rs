//! The board as the watch view shows it: values and candidates changed by
//! trace events, with an undo trail so a backtrack (or a step back) takes
//! back exactly what the search did.

use super::{Counters, Focus};
use crate::engine::logic::Step;
use crate::engine::{Puzzle, Reason, Shape, TraceEvent, Value};

/// One change the search may have to undo on a backtrack.
#[derive(Debug, Clone, Copy)]
enum Undo {
    /// The cell's value was set.
    Value(u32),
    /// The digit was removed from the cell.
    Cand(u32, u32),
}

/// The board as the playback shows it.
#[derive(Debug, Clone)]
pub struct Shown {
    shape: Shape,
    pub(super) words: usize,
    /// Each cell's value.
    pub values: Vec<Option<Value>>,
    /// Candidates, `words` 64-bit words per cell.
    pub(super) cands: Vec<u64>,
    trail: Vec<Undo>,
    /// Trail length at each guess in force (the depth is its length).
    marks: Vec<usize>,
    /// The counters.
    pub counters: Counters,
    /// The deepest the search went.
    pub max_depth: usize,
    /// The last thing that happened.
    pub focus: Focus,
    /// The last technique step (logic solver).
    pub step: Option<Box<Step>>,
    /// The first solution reached, when one was.
    pub solution: Option<Vec<Option<Value>>>,
    /// Solutions reached.
    pub solutions: usize,
}

impl Shown {
    /// The position of the givens, each cell's candidates those its
    /// peers' givens leave.
    pub fn new(puzzle: &Puzzle) -> Shown {
        let shape = puzzle.shape();
        let n = shape.n();
        let words = n.div_ceil(64);
        let cells = shape.cells();
        // Digits used per unit, as bit rows of `words` words.
        let mut used = vec![0u64; shape.units() * words];
        for (c, v) in puzzle.cells().iter().enumerate() {
            if let Some(v) = v {
                let d = v.index();
                for u in shape.units_of(c) {
                    used[u * words + d / 64] |= 1 << (d % 64);
                }
            }
        }
        let mut cands = vec![0u64; cells * words];
        for c in 0..cells {
            if puzzle.cells()[c].is_some() {
                continue;
            }
            let us = shape.units_of(c);
            for w in 0..words {
                let full = if (w + 1) * 64 <= n {
                    u64::MAX
                } else {
                    (1u64 << (n - w * 64)) - 1
                };
                let seen = us.iter().fold(0, |acc, &u| acc | used[u * words + w]);
                cands[c * words + w] = full & !seen;
            }
        }
        Shown {
            shape,
            words,
            values: puzzle.cells().to_vec(),
            cands,
            trail: Vec::new(),
            marks: Vec::new(),
            counters: Counters::default(),
            max_depth: 0,
            focus: Focus::None,
            step: None,
            solution: None,
            solutions: 0,
        }
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The search depth (guesses in force).
    pub fn depth(&self) -> usize {
        self.marks.len()
    }

    /// Whether digit `d` (0-based) is still a candidate of cell `c`.
    pub fn has(&self, c: usize, d: usize) -> bool {
        self.cands
            .get(c * self.words + d / 64)
            .is_some_and(|w| w >> (d % 64) & 1 == 1)
    }

    /// The candidates of cell `c` as bit words (digit `d` is bit `d % 64`
    /// of word `d / 64`, the layout of a game's note set).
    pub fn candidate_words(&self, c: usize) -> &[u64] {
        self.cands
            .get(c * self.words..(c + 1) * self.words)
            .unwrap_or(&[])
    }

    /// The candidates of cell `c`, 0-based.
    pub fn candidates(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.shape.n()).filter(move |&d| self.has(c, d))
    }

    pub(super) fn remove(&mut self, c: usize, d: usize) -> bool {
        let Some(w) = self.cands.get_mut(c * self.words + d / 64) else {
            return false;
        };
        let bit = 1u64 << (d % 64);
        if *w & bit == 0 {
            return false;
        }
        *w &= !bit;
        if !self.marks.is_empty() {
            self.trail.push(Undo::Cand(c as u32, d as u32));
        }
        true
    }

    /// The search's state is over (the answer is shown): nothing is left
    /// to take back.
    pub(super) fn forget_search(&mut self) {
        self.marks.clear();
        self.trail.clear();
    }

    /// Takes back what the trail holds beyond its first `len` changes.
    pub(super) fn undo_to(&mut self, len: usize) {
        while self.trail.len() > len {
            match self.trail.pop() {
                Some(Undo::Value(c)) => self.values[c as usize] = None,
                Some(Undo::Cand(c, d)) => {
                    let (c, d) = (c as usize, d as usize);
                    self.cands[c * self.words + d / 64] |= 1 << (d % 64);
                }
                None => break,
            }
        }
    }

    /// Applies one event; true when it changed what is shown.
    pub fn apply(&mut self, e: &TraceEvent) -> bool {
        self.counters.count(e);
        let cells = self.values.len();
        let n = self.shape.n();
        let ok = |c: usize, v: Value| c < cells && v.index() < n;
        match e {
            TraceEvent::Assign {
                cell,
                value,
                reason,
            } => {
                let c = cell.index(self.shape);
                if !ok(c, *value) || self.values[c] == Some(*value) {
                    return false;
                }
                self.values[c] = Some(*value);
                if !self.marks.is_empty() {
                    self.trail.push(Undo::Value(c as u32));
                }
                // Only a guess is tried; a technique's placement, like
                // propagation's, is forced.
                self.focus = match reason {
                    Reason::Guess => Focus::Try(c, *value),
                    _ => Focus::Place(c, *value),
                };
                true
            }
            TraceEvent::Eliminate { cell, value } => {
                let c = cell.index(self.shape);
                if !ok(c, *value) || !self.remove(c, value.index()) {
                    return false;
                }
                self.focus = Focus::Remove(c, *value);
                true
            }
            TraceEvent::Branch { cell, value, depth } => {
                let c = cell.index(self.shape);
                self.marks.truncate(depth.saturating_sub(1));
                self.marks.push(self.trail.len());
                self.max_depth = self.max_depth.max(self.marks.len());
                if ok(c, *value) {
                    self.focus = Focus::Try(c, *value);
                }
                true
            }
            TraceEvent::Backtrack { cell, value, depth } => {
                let c = cell.index(self.shape);
                let keep = depth.saturating_sub(1);
                if let Some(&mark) = self.marks.get(keep) {
                    self.undo_to(mark);
                }
                self.marks.truncate(keep);
                if ok(c, *value) {
                    self.remove(c, value.index());
                    self.focus = Focus::Backtrack(c, *value);
                }
                true
            }
            TraceEvent::Restart => {
                if let Some(&mark) = self.marks.first() {
                    self.undo_to(mark);
                }
                self.marks.clear();
                self.focus = Focus::Restart;
                true
            }
            TraceEvent::Contradiction => {
                self.focus = Focus::Contradiction;
                true
            }
            TraceEvent::Solved { index } => {
                self.solutions = (*index).max(self.solutions);
                if self.solution.is_none() {
                    self.solution = Some(self.values.clone());
                }
                self.focus = Focus::Solved;
                true
            }
            TraceEvent::Step(step) => {
                self.step = Some(step.clone());
                true
            }
            // Events a newer engine may add: counted, nothing drawn.
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// Memory held, roughly, in bytes.
    pub(super) fn bytes(&self) -> usize {
        self.values.len() * 4 + self.cands.len() * 8 + self.trail.len() * 12 + self.marks.len() * 8
    }
}
