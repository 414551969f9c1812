//! Intersections (locked candidates): when a value's places in a box lie in
//! one line, or a line's in one box, the value leaves the rest of the other
//! unit. Works for rectangular boxes: a box meets a row in box_cols cells
//! and a column in box_rows cells.

use crate::engine::grid::Value;

use super::{Board, Highlights, Step, Technique};

/// The unit all of `cells` share among `kinds` (0 row, 1 column, 2 box).
fn common(b: &Board, cells: &[usize], kinds: &[usize]) -> Option<usize> {
    let first = b.units_of(*cells.first()?);
    kinds
        .iter()
        .map(|&k| first[k])
        .find(|&u| cells.iter().all(|&c| b.units_of(c).contains(&u)))
}

fn locked(
    b: &Board,
    t: Technique,
    from: usize,
    to: usize,
    d: usize,
    cells: &[usize],
) -> Option<Step> {
    let elim: Vec<(usize, Value)> = b
        .unit(to)
        .iter()
        .map(|&c| c as usize)
        .filter(|c| b.has(*c, d) && !cells.contains(c))
        .map(|c| (c, Value::from_index(d)))
        .collect();
    if elim.is_empty() {
        return None;
    }
    Some(Step {
        technique: t,
        placements: Vec::new(),
        highlights: Highlights {
            cells: cells.to_vec(),
            candidates: cells.iter().map(|&c| (c, Value::from_index(d))).collect(),
            units: vec![from, to],
            ..Highlights::default()
        },
        explanation: format!(
            "{}: in {}, {} can only go where it meets {}, so {} leaves the rest of {}",
            t.name(),
            b.unit_name(from),
            b.symbol(d),
            b.unit_name(to),
            b.symbol(d),
            b.unit_name(to)
        ),
        eliminations: elim,
    })
}

/// Type 1: a box's places for a value lie in one row or column.
pub fn pointing(b: &Board) -> Vec<Step> {
    let n = b.n();
    let mut steps = Vec::new();
    for bx in 2 * n..3 * n {
        for d in 0..n {
            let cells = b.cells_with(bx, d);
            if cells.len() < 2 {
                continue;
            }
            if let Some(line) = common(b, &cells, &[0, 1])
                && let Some(s) = locked(b, Technique::Pointing, bx, line, d, &cells)
            {
                steps.push(s);
            }
        }
    }
    steps
}

/// Type 2: a line's places for a value lie in one box.
pub fn claiming(b: &Board) -> Vec<Step> {
    let n = b.n();
    let mut steps = Vec::new();
    for line in 0..2 * n {
        for d in 0..n {
            let cells = b.cells_with(line, d);
            if cells.len() < 2 {
                continue;
            }
            if let Some(bx) = common(b, &cells, &[2])
                && let Some(s) = locked(b, Technique::Claiming, line, bx, d, &cells)
            {
                steps.push(s);
            }
        }
    }
    steps
}
