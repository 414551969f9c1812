//! Alternating inference chains over any candidates, and nice loops
//! (continuous and discontinuous), plain and grouped.

use super::{Board, Step};

/// Continuous nice loops (`grouped`: with group nodes).
pub fn continuous_nice_loops(_b: &Board, _grouped: bool) -> Vec<Step> {
    Vec::new()
}

/// Discontinuous nice loops (`grouped`: with group nodes).
pub fn discontinuous_nice_loops(_b: &Board, _grouped: bool) -> Vec<Step> {
    Vec::new()
}

/// AICs strong at both ends (`grouped`: with group nodes).
pub fn aics(_b: &Board, _grouped: bool) -> Vec<Step> {
    Vec::new()
}
