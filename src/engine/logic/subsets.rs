//! Subsets: k cells of a unit that hold only k values between them (naked),
//! or k values of a unit confined to k cells (hidden); and locked pairs and
//! triples, naked subsets inside a line–box intersection that clear both
//! units. Subset sizes go up to what makes sense for n: 2–4 on 9×9, and up
//! to n/2 (at most [`MAX_SUBSET_SIZE`]) on larger boards, where a naked
//! subset of more cells is a hidden one of the unit's other cells.
//!
//! The search grows sets of cells (or values) in index order and drops a
//! set as soon as it holds more than k values (places), so only sets that
//! can still become subsets are grown; a call follows at most
//! [`MAX_SUBSET_NODES`] sets.

use crate::engine::grid::Value;

use super::{Board, Highlights, Step, Technique, barren, bits};

/// The largest subset searched (boards of 16×16 and beyond).
pub const MAX_SUBSET_SIZE: usize = 8;

/// The most sets one call grows before it stops with what it found.
pub const MAX_SUBSET_NODES: usize = 2_000_000;

/// Every set of `k` of the `masks`' indices whose masks' union has at most
/// `k` bits, passed to `f` with that union; sets are grown in index order
/// and dropped once their union passes `k` bits. `budget` counts the sets
/// grown.
fn subsets_within(masks: &[u64], k: usize, budget: &mut usize, f: &mut impl FnMut(&[usize], u64)) {
    sets_within(masks, k, k, budget, f);
}

/// Every set of `size` of the `masks`' indices whose masks' union has at
/// most `most` bits, as [`subsets_within`] (which is this with both `k`).
pub(super) fn sets_within(
    masks: &[u64],
    size: usize,
    most: usize,
    budget: &mut usize,
    f: &mut impl FnMut(&[usize], u64),
) {
    #[allow(clippy::too_many_arguments)]
    fn go(
        masks: &[u64],
        size: usize,
        most: usize,
        start: usize,
        union: u64,
        cur: &mut Vec<usize>,
        budget: &mut usize,
        f: &mut impl FnMut(&[usize], u64),
    ) {
        if cur.len() == size {
            f(cur, union);
            return;
        }
        for i in start..masks.len() {
            if masks.len() - i < size - cur.len() || *budget == 0 {
                break;
            }
            let u = union | masks[i];
            if u.count_ones() as usize > most {
                continue;
            }
            *budget -= 1;
            cur.push(i);
            go(masks, size, most, i + 1, u, cur, budget, f);
            cur.pop();
        }
    }
    go(
        masks,
        size,
        most,
        0,
        0,
        &mut Vec::with_capacity(size),
        budget,
        f,
    );
}

fn naked_technique(k: usize) -> Technique {
    match k {
        2 => Technique::NakedPair,
        3 => Technique::NakedTriple,
        4 => Technique::NakedQuad,
        _ => Technique::NakedSubset(u8::try_from(k).unwrap_or(u8::MAX)),
    }
}

fn hidden_technique(k: usize) -> Technique {
    match k {
        2 => Technique::HiddenPair,
        3 => Technique::HiddenTriple,
        4 => Technique::HiddenQuad,
        _ => Technique::HiddenSubset(u8::try_from(k).unwrap_or(u8::MAX)),
    }
}

fn cells_text(b: &Board, cells: &[usize]) -> String {
    cells
        .iter()
        .map(|&c| b.cell_name(c))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Eliminations of `mask`'s digits from the cells of `units` outside `cells`.
fn clear(b: &Board, units: &[usize], cells: &[usize], mask: u64) -> Vec<(usize, Value)> {
    let mut out = Vec::new();
    for &u in units {
        for &c in b.unit(u) {
            let c = c as usize;
            if cells.contains(&c) {
                continue;
            }
            for d in bits(b.mask(c) & mask) {
                if !out.contains(&(c, Value::from_index(d))) {
                    out.push((c, Value::from_index(d)));
                }
            }
        }
    }
    out.sort();
    out
}

fn subset_step(
    b: &Board,
    t: Technique,
    cells: &[usize],
    mask: u64,
    units: Vec<usize>,
    elim: Vec<(usize, Value)>,
) -> Step {
    let unit_names: Vec<String> = units.iter().map(|&u| b.unit_name(u)).collect();
    Step {
        technique: t,
        placements: Vec::new(),
        highlights: Highlights {
            cells: cells.to_vec(),
            candidates: cells
                .iter()
                .flat_map(|&c| bits(b.mask(c) & mask).map(move |d| (c, Value::from_index(d))))
                .collect(),
            units,
            ..Highlights::default()
        },
        explanation: format!(
            "{}: {} hold only {} between them, so those values leave the rest of {}",
            t.name(),
            cells_text(b, cells),
            b.symbols(mask),
            unit_names.join(" and ")
        ),
        eliminations: elim,
    }
}

/// Calls `f(cells, mask, shared units)` for every `k` empty cells of one of
/// `units` holding exactly `k` candidates between them.
fn naked_sets(
    b: &Board,
    units: std::ops::Range<usize>,
    k: usize,
    mut f: impl FnMut(Vec<usize>, u64, Vec<usize>),
) {
    let mut budget = MAX_SUBSET_NODES;
    for u in units {
        if b.stopped() || budget == 0 || k > MAX_SUBSET_SIZE {
            break;
        }
        let open: Vec<usize> = b
            .unit(u)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| b.value(c).is_none() && (b.count(c) as usize) <= k)
            .collect();
        let masks: Vec<u64> = open.iter().map(|&c| b.mask(c)).collect();
        subsets_within(&masks, k, &mut budget, &mut |idx, mask| {
            if mask.count_ones() as usize == k {
                let cells: Vec<usize> = idx.iter().map(|&i| open[i]).collect();
                let shared = b.shared_units(&cells);
                f(cells, mask, shared);
            }
        });
    }
}

/// Naked subsets of size `k` (locked pairs and triples are left to
/// [`locked_subsets`]; a pair or triple in a line–box intersection that
/// clears only one of the two is found here).
pub fn naked(b: &Board, k: usize) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    naked_sets(b, 0..b.shape().units(), k, |cells, mask, units| {
        if steps.iter().any(|s| s.highlights.cells == cells) {
            return;
        }
        let elim = clear(b, &units, &cells, mask);
        if k <= 3 && locks_both(b, &units, &elim) {
            return; // a locked subset
        }
        if !elim.is_empty() {
            steps.push(subset_step(
                b,
                naked_technique(k),
                &cells,
                mask,
                units,
                elim,
            ));
        }
    });
    steps
}

/// Hidden subsets of size `k`.
pub fn hidden(b: &Board, k: usize) -> Vec<Step> {
    let n = b.n();
    let mut steps: Vec<Step> = Vec::new();
    let mut budget = MAX_SUBSET_NODES;
    let t = hidden_technique(k);
    for u in 0..b.shape().units() {
        if b.stopped() || budget == 0 || k > MAX_SUBSET_SIZE {
            break;
        }
        let unit = b.unit(u);
        // A unit whose cells are as they were when it held no hidden
        // subset holds none now; its work still counts against the budget.
        let cells_now: Vec<u64> = unit.iter().map(|&c| b.mask(c as usize)).collect();
        if let Some(work) = barren::recall(b, t, 0, u, &cells_now) {
            budget = budget.saturating_sub(work);
            continue;
        }
        let (budget_before, mut any) = (budget, false);
        let open: Vec<usize> = (0..n)
            .filter(|&d| {
                let p = b.places(u, d).count_ones() as usize;
                p >= 1 && p <= k
            })
            .collect();
        let places_of: Vec<u64> = open.iter().map(|&d| b.places(u, d)).collect();
        subsets_within(&places_of, k, &mut budget, &mut |idx, places| {
            let digits: Vec<usize> = idx.iter().map(|&i| open[i]).collect();
            if places.count_ones() as usize != k {
                return;
            }
            let mask = digits.iter().fold(0u64, |m, &d| m | 1 << d);
            let cells: Vec<usize> = bits(places).map(|i| unit[i] as usize).collect();
            let elim: Vec<(usize, Value)> = cells
                .iter()
                .flat_map(|&c| bits(b.mask(c) & !mask).map(move |d| (c, Value::from_index(d))))
                .collect();
            if elim.is_empty() {
                return;
            }
            any = true;
            if steps
                .iter()
                .any(|s| s.highlights.cells == cells && s.eliminations == elim)
            {
                return;
            }
            steps.push(Step {
                technique: t,
                placements: Vec::new(),
                highlights: Highlights {
                    cells: cells.clone(),
                    candidates: cells
                        .iter()
                        .flat_map(|&c| {
                            bits(b.mask(c) & mask).map(move |d| (c, Value::from_index(d)))
                        })
                        .collect(),
                    units: vec![u],
                    ..Highlights::default()
                },
                explanation: format!(
                    "{}: in {}, {} can only go in {}, so those cells hold nothing else",
                    t.name(),
                    b.unit_name(u),
                    b.symbols(mask),
                    cells_text(b, &cells)
                ),
                eliminations: elim,
            });
        });
        if !any && budget > 0 {
            barren::remember(b, t, 0, u, cells_now, budget_before - budget);
        }
    }
    steps
}

/// Locked pairs (`k` = 2) and triples (3): a naked subset inside a line–box
/// intersection whose values leave both the rest of the line and the rest
/// of the box.
pub fn locked_subsets(b: &Board, k: usize) -> Vec<Step> {
    let t = if k == 2 {
        Technique::LockedPair
    } else {
        Technique::LockedTriple
    };
    let mut steps: Vec<Step> = Vec::new();
    naked_sets(b, 0..2 * b.n(), k, |cells, mask, units| {
        let elim = clear(b, &units, &cells, mask);
        if locks_both(b, &units, &elim) {
            steps.push(subset_step(b, t, &cells, mask, units, elim));
        }
    });
    steps
}

/// Whether a naked subset is locked: it lies in a line and a box and
/// removes candidates from both, the box and the line outside the box (as
/// HoDoKu defines a locked pair or triple). One that clears only one of the
/// two is a plain naked subset there.
fn locks_both(b: &Board, units: &[usize], elim: &[(usize, Value)]) -> bool {
    let Some(&bx) = units.iter().find(|&&u| u >= 2 * b.n()) else {
        return false;
    };
    if units.len() < 2 {
        return false;
    }
    let in_box = |c: usize| b.units_of(c)[2] == bx;
    elim.iter().any(|&(c, _)| in_box(c)) && elim.iter().any(|&(c, _)| !in_box(c))
}
