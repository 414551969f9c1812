//! Almost locked sets: ALS-XZ, ALS-XY-Wing, ALS chains, Death Blossom, and
//! Sue de Coq.

use super::{Board, Step};

/// ALS-XZ.
pub fn als_xz(_b: &Board) -> Vec<Step> {
    Vec::new()
}

/// ALS-XY-Wing.
pub fn als_xy_wings(_b: &Board) -> Vec<Step> {
    Vec::new()
}

/// ALS chains.
pub fn als_chains(_b: &Board) -> Vec<Step> {
    Vec::new()
}

/// Death Blossom.
pub fn death_blossoms(_b: &Board) -> Vec<Step> {
    Vec::new()
}

/// Sue de Coq.
pub fn sue_de_coq(_b: &Board) -> Vec<Step> {
    Vec::new()
}
