//! Forcing chains: the last logical resort before a guess.

use super::{Board, Step};

/// Forcing chains.
pub fn forcing_chains(_b: &Board) -> Vec<Step> {
    Vec::new()
}
