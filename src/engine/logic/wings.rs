//! Wings: small patterns of bivalue cells. XY-Wing and XYZ-Wing (a pivot
//! and two pincers), W-Wing (two equal bivalue cells joined by a conjugate
//! pair) and Remote Pair (a chain of equal bivalue cells). Shape-agnostic:
//! only "sees" and conjugate pairs are used.

use std::collections::HashSet;

use crate::engine::grid::Value;

use super::{Board, Highlights, Link, Step, Technique, bits};

fn bivalue_cells(b: &Board) -> Vec<usize> {
    (0..b.shape().cells())
        .filter(|&c| b.count(c) == 2)
        .collect()
}

/// The candidates of `cells` among `mask`'s digits.
fn pattern_candidates(b: &Board, cells: &[usize], mask: u64) -> Vec<(usize, Value)> {
    cells
        .iter()
        .flat_map(|&c| bits(b.mask(c) & mask).map(move |d| (c, Value::from_index(d))))
        .collect()
}

/// The single digit of a one-bit mask.
fn digit(mask: u64) -> usize {
    mask.trailing_zeros() as usize
}

/// XY-Wing: pivot {x,y} seeing pincers {x,z} and {y,z}; one pincer holds z,
/// so z leaves every cell that sees both pincers.
pub fn xy_wings(b: &Board) -> Vec<Step> {
    let bv = bivalue_cells(b);
    let mut steps = Vec::new();
    for &p in &bv {
        if b.stopped() {
            break;
        }
        let pm = b.mask(p);
        for (i, &a) in bv.iter().enumerate() {
            let am = b.mask(a);
            if a == p || !b.sees(p, a) || (am & pm).count_ones() != 1 {
                continue;
            }
            let z = am & !pm;
            let bm = (pm & !am) | z;
            for &c in &bv[i + 1..] {
                if c == p || b.mask(c) != bm || !b.sees(p, c) {
                    continue;
                }
                let elim = b.seen_by_all(z, &[a, c], &[p, a, c]);
                if elim.is_empty() {
                    continue;
                }
                let all = pm | z;
                steps.push(Step {
                    technique: Technique::XYWing,
                    placements: Vec::new(),
                    highlights: Highlights {
                        cells: vec![p, a, c],
                        candidates: pattern_candidates(b, &[p, a, c], all),
                        units: Vec::new(),
                        links: Vec::new(),
                    },
                    explanation: format!(
                        "XY-Wing: pivot {} ({}) sees {} ({}) and {} ({}); whichever value \
                         the pivot takes, one of them is {}, so {} leaves every cell that \
                         sees both",
                        b.cell_name(p),
                        b.symbols(pm),
                        b.cell_name(a),
                        b.symbols(am),
                        b.cell_name(c),
                        b.symbols(bm),
                        b.symbol(digit(z)),
                        b.symbol(digit(z)),
                    ),
                    eliminations: elim,
                });
            }
        }
    }
    steps
}

/// XYZ-Wing: pivot {x,y,z} seeing pincers {x,z} and {y,z}; one of the
/// three holds z, so z leaves every cell that sees all three.
pub fn xyz_wings(b: &Board) -> Vec<Step> {
    let bv = bivalue_cells(b);
    let mut steps = Vec::new();
    for p in (0..b.shape().cells()).filter(|&c| b.count(c) == 3) {
        if b.stopped() {
            break;
        }
        let pm = b.mask(p);
        for (i, &a) in bv.iter().enumerate() {
            let am = b.mask(a);
            if am & !pm != 0 || !b.sees(p, a) {
                continue;
            }
            for &c in &bv[i + 1..] {
                let cm = b.mask(c);
                if cm & !pm != 0 || cm == am || !b.sees(p, c) {
                    continue;
                }
                let z = am & cm;
                let elim = b.seen_by_all(z, &[p, a, c], &[p, a, c]);
                if elim.is_empty() {
                    continue;
                }
                steps.push(Step {
                    technique: Technique::XYZWing,
                    placements: Vec::new(),
                    highlights: Highlights {
                        cells: vec![p, a, c],
                        candidates: pattern_candidates(b, &[p, a, c], pm),
                        units: Vec::new(),
                        links: Vec::new(),
                    },
                    explanation: format!(
                        "XYZ-Wing: pivot {} ({}) sees {} ({}) and {} ({}); one of the three \
                         is {}, so {} leaves every cell that sees all three",
                        b.cell_name(p),
                        b.symbols(pm),
                        b.cell_name(a),
                        b.symbols(am),
                        b.cell_name(c),
                        b.symbols(cm),
                        b.symbol(digit(z)),
                        b.symbol(digit(z)),
                    ),
                    eliminations: elim,
                });
            }
        }
    }
    steps
}

/// W-Wing: two bivalue cells {x,y} that do not see each other, with a
/// conjugate pair on x whose ends see one each: one of the two is y, so y
/// leaves every cell that sees both.
pub fn w_wings(b: &Board) -> Vec<Step> {
    let n = b.n();
    let bv = bivalue_cells(b);
    let mut steps = Vec::new();
    let mut seen = HashSet::new();
    for (i, &a) in bv.iter().enumerate() {
        if b.stopped() {
            break;
        }
        let m = b.mask(a);
        for &c in &bv[i + 1..] {
            if b.mask(c) != m || b.sees(a, c) {
                continue;
            }
            for x in bits(m) {
                let y = m & !(1 << x);
                for u in 0..3 * n {
                    let [s, t] = b.cells_with(u, x)[..] else {
                        continue;
                    };
                    if [s, t].iter().any(|e| *e == a || *e == c) {
                        continue;
                    }
                    let (s, t) = if b.sees(s, a) && b.sees(t, c) {
                        (s, t)
                    } else if b.sees(t, a) && b.sees(s, c) {
                        (t, s)
                    } else {
                        continue;
                    };
                    let elim = b.seen_by_all(y, &[a, c], &[a, c]);
                    if elim.is_empty() || !seen.insert((a, c, s, t, elim.clone())) {
                        continue;
                    }
                    let xv = Value::from_index(x);
                    let mut candidates = pattern_candidates(b, &[a, c], m);
                    candidates.extend([(s, xv), (t, xv)]);
                    steps.push(Step {
                        technique: Technique::WWing,
                        placements: Vec::new(),
                        highlights: Highlights {
                            cells: vec![a, c, s, t],
                            candidates,
                            units: vec![u],
                            links: vec![
                                Link {
                                    from: (a, xv),
                                    to: (s, xv),
                                    strong: false,
                                },
                                Link {
                                    from: (s, xv),
                                    to: (t, xv),
                                    strong: true,
                                },
                                Link {
                                    from: (t, xv),
                                    to: (c, xv),
                                    strong: false,
                                },
                            ],
                        },
                        explanation: format!(
                            "W-Wing: {} and {} both hold {}; {} is in {} or {} ({}), which \
                             see one each, so they cannot both be {} and one of them is {}: \
                             {} leaves every cell that sees both",
                            b.cell_name(a),
                            b.cell_name(c),
                            b.symbols(m),
                            b.symbol(x),
                            b.cell_name(s),
                            b.cell_name(t),
                            b.unit_name(u),
                            b.symbol(x),
                            b.symbol(digit(y)),
                            b.symbol(digit(y)),
                        ),
                        eliminations: elim,
                    });
                }
            }
        }
    }
    steps
}

/// Remote Pair: bivalue cells with the same two values, linked by seeing
/// each other, alternate between the two values (one step per connected
/// group of at least four cells); a cell that sees two of them of opposite
/// parity can hold neither.
pub fn remote_pairs(b: &Board) -> Vec<Step> {
    let bv = bivalue_cells(b);
    let mut steps = Vec::new();
    let mut done = vec![false; b.shape().cells()];
    for &start in &bv {
        if b.stopped() {
            break;
        }
        if done[start] {
            continue;
        }
        let m = b.mask(start);
        // The component of `start` among cells with the same pair, coloured
        // by breadth-first search.
        let mut comp = vec![start];
        let mut colour = vec![(start, 0usize)];
        done[start] = true;
        let mut bipartite = true;
        let mut k = 0;
        while k < comp.len() {
            let cur = comp[k];
            let cur_col = colour[k].1;
            k += 1;
            for &o in &bv {
                if b.mask(o) != m || !b.sees(cur, o) {
                    continue;
                }
                if let Some(&(_, oc)) = colour.iter().find(|(c, _)| *c == o) {
                    if oc == cur_col {
                        bipartite = false;
                    }
                    continue;
                }
                done[o] = true;
                comp.push(o);
                colour.push((o, 1 - cur_col));
            }
        }
        if !bipartite || comp.len() < 4 {
            continue;
        }
        let mut elim = Vec::new();
        for x in 0..b.shape().cells() {
            if b.mask(x) & m == 0 || comp.contains(&x) {
                continue;
            }
            let sees_col = |col: usize| colour.iter().any(|&(c, cc)| cc == col && b.sees(x, c));
            if sees_col(0) && sees_col(1) {
                elim.extend(bits(b.mask(x) & m).map(|d| (x, Value::from_index(d))));
            }
        }
        if elim.is_empty() {
            continue;
        }
        let names: Vec<String> = comp.iter().map(|&c| b.cell_name(c)).collect();
        steps.push(Step {
            technique: Technique::RemotePair,
            placements: Vec::new(),
            highlights: Highlights {
                cells: comp.clone(),
                candidates: pattern_candidates(b, &comp, m),
                units: Vec::new(),
                links: Vec::new(),
            },
            explanation: format!(
                "Remote Pair: {} all hold {} and are linked, so they alternate between \
                 the two values; a cell that sees two of opposite parity can hold neither",
                names.join(", "),
                b.symbols(m),
            ),
            eliminations: elim,
        });
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Shape;
    use crate::engine::logic::tests::{elims, empty6, set, v0};

    #[test]
    fn xy_wing_on_6x6() {
        let mut b = empty6();
        set(&mut b, 0, 0b011); // pivot r1c1 {1,2}
        set(&mut b, 4, 0b101); // r1c5 {1,3}
        set(&mut b, 18, 0b110); // r4c1 {2,3}
        let steps = xy_wings(&b);
        assert_eq!(elims(&steps), vec![vec![(22, v0(2))]]);
        let mut values: Vec<usize> = steps[0]
            .highlights
            .candidates
            .iter()
            .map(|(_, v)| v.get())
            .collect();
        values.sort_unstable();
        values.dedup();
        assert_eq!(values, vec![1, 2, 3]);
        // A pincer {2,4} shares no digit with the other: no wing.
        set(&mut b, 18, 0b1010);
        assert!(xy_wings(&b).is_empty());
    }

    #[test]
    fn xyz_wing_on_6x6() {
        let mut b = empty6();
        set(&mut b, 0, 0b111); // pivot r1c1 {1,2,3}
        set(&mut b, 1, 0b101); // r1c2 {1,3}
        set(&mut b, 6, 0b110); // r2c1 {2,3}
        assert_eq!(
            elims(&xyz_wings(&b)),
            vec![vec![(2, v0(2)), (7, v0(2)), (8, v0(2))]]
        );
        // A pincer with a digit outside the pivot: none.
        let mut b = empty6();
        set(&mut b, 0, 0b111);
        set(&mut b, 1, 0b101);
        set(&mut b, 6, 0b1100);
        assert!(xyz_wings(&b).is_empty());
    }

    #[test]
    fn w_wing_on_6x6() {
        let mut b = empty6();
        set(&mut b, 0, 0b11); // r1c1 {1,2}
        set(&mut b, 35, 0b11); // r6c6 {1,2}
        // Row 4 holds 1 only at r4c1 and r4c6.
        for c in 19..23 {
            b.remove(c, 0);
        }
        assert_eq!(elims(&w_wings(&b)), vec![vec![(5, v0(1)), (30, v0(1))]]);
        // Without the conjugate pair, no W-Wing.
        let mut b = empty6();
        set(&mut b, 0, 0b11);
        set(&mut b, 35, 0b11);
        assert!(w_wings(&b).is_empty());
    }

    #[test]
    fn remote_pair_on_6x6() {
        let mut b = empty6();
        // r1c1 – r1c4 – r4c4 – r4c6, all {1,2}.
        for c in [0, 3, 21, 23] {
            set(&mut b, c, 0b11);
        }
        let steps = remote_pairs(&b);
        assert_eq!(steps.len(), 1);
        let e = &steps[0].eliminations;
        // r4c1 sees r1c1 and r4c6 (opposite ends): loses both values.
        assert!(e.contains(&(18, v0(0))) && e.contains(&(18, v0(1))));
        assert!(e.contains(&(5, v0(0))) && e.contains(&(5, v0(1))));
        // r2c5 sees only r1c4's colour: untouched.
        assert!(!e.iter().any(|&(c, _)| c == 10));
        // Three cells are not enough.
        let mut b = empty6();
        for c in [0, 3, 21] {
            set(&mut b, c, 0b11);
        }
        assert!(remote_pairs(&b).is_empty());
    }

    /// On generated puzzles, no step of these techniques removes a
    /// solution value, along a whole solve path.
    #[test]
    fn hard_techniques_are_sound_on_generated_puzzles() {
        let hard = [
            Technique::Skyscraper,
            Technique::TwoStringKite,
            Technique::TurbotFish,
            Technique::EmptyRectangle,
            Technique::XYWing,
            Technique::XYZWing,
            Technique::WWing,
            Technique::RemotePair,
        ];
        let fired = crate::engine::logic::tests::sound_along_paths(Shape::CLASSIC, 1..=6, &hard);
        assert!(fired.iter().sum::<usize>() > 0);
    }
}
