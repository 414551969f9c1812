//! Singles: full house, naked single, hidden single.

use crate::engine::grid::Value;

use super::{Board, Highlights, Step, Technique};

fn place(b: &Board, t: Technique, c: usize, d: usize, units: Vec<usize>, why: String) -> Step {
    Step {
        technique: t,
        placements: vec![(c, Value::from_index(d))],
        eliminations: Vec::new(),
        highlights: Highlights {
            cells: vec![c],
            candidates: vec![(c, Value::from_index(d))],
            units,
            ..Highlights::default()
        },
        explanation: format!(
            "{}: {} {why}, so it is {}",
            t.name(),
            b.cell_name(c),
            b.symbol(d)
        ),
    }
}

/// Cells that are the last empty cell of a unit.
pub fn full_houses(b: &Board) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    for u in 0..b.shape().units() {
        let mut empty = b
            .unit(u)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| b.value(c).is_none());
        let (Some(c), None) = (empty.next(), empty.next()) else {
            continue;
        };
        if b.count(c) != 1 || steps.iter().any(|s| s.placements[0].0 == c) {
            continue;
        }
        let d = b.mask(c).trailing_zeros() as usize;
        let why = format!("is the last empty cell of {}", b.unit_name(u));
        steps.push(place(b, Technique::FullHouse, c, d, vec![u], why));
    }
    steps
}

/// Cells with a single candidate.
pub fn naked_singles(b: &Board) -> Vec<Step> {
    (0..b.shape().cells())
        .filter(|&c| b.value(c).is_none() && b.count(c) == 1)
        .map(|c| {
            let d = b.mask(c).trailing_zeros() as usize;
            let why = "sees every other value in its row, column or box".to_string();
            place(b, Technique::NakedSingle, c, d, b.units_of(c).to_vec(), why)
        })
        .collect()
}

/// Values with a single place in a unit.
pub fn hidden_singles(b: &Board) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    for u in 0..b.shape().units() {
        // The digits open in exactly one cell of the unit: seen once and
        // never again.
        let (mut once, mut more) = (0u64, 0u64);
        for &c in b.unit(u) {
            let m = b.mask(c as usize);
            more |= once & m;
            once |= m;
        }
        for d in super::bits(once & !more) {
            let Some(c) = b.unit(u).iter().map(|&c| c as usize).find(|&c| b.has(c, d)) else {
                continue;
            };
            if steps
                .iter()
                .any(|s| s.placements[0] == (c, Value::from_index(d)))
            {
                continue;
            }
            let why = format!(
                "is the only place for {} in {}",
                b.symbol(d),
                b.unit_name(u)
            );
            steps.push(place(b, Technique::HiddenSingle, c, d, vec![u], why));
        }
    }
    steps
}
