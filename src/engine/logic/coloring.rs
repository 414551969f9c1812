//! Simple Colors: for one value, each connected cluster of conjugate pairs
//! (strong links in rows, columns and boxes) is coloured with two colours
//! that alternate along the links; exactly one colour holds the value.
//! Trap: a candidate outside the cluster that sees both colours goes. Wrap:
//! two cells of one colour see each other, so that colour is false.
//! Shape-agnostic: only units and "sees" are used.

use crate::engine::grid::Value;

use super::{Board, Highlights, Link, Step, Technique};

/// One coloured cluster of a value: its cells with their colour (0 or 1)
/// and the strong links that join them.
struct Cluster {
    cells: Vec<(usize, u8)>,
    links: Vec<(usize, usize)>,
}

/// The strong links (conjugate pairs) of digit `d`, each pair once.
pub(crate) fn strong_links(b: &Board, d: usize) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (_, x, y) in b.conjugate_pairs(d) {
        if !out.contains(&(x, y)) {
            out.push((x, y));
        }
    }
    out
}

/// The clusters of digit `d` (each with at least one strong link).
fn clusters(b: &Board, d: usize) -> Vec<Cluster> {
    let links = strong_links(b, d);
    let cells = b.shape().cells();
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); cells];
    for &(x, y) in &links {
        adj[x].push(y);
        adj[y].push(x);
    }
    let mut colour: Vec<Option<u8>> = vec![None; cells];
    let mut out = Vec::new();
    for start in 0..cells {
        if adj[start].is_empty() || colour[start].is_some() {
            continue;
        }
        colour[start] = Some(0);
        let mut members = vec![(start, 0u8)];
        let mut i = 0;
        while i < members.len() {
            let (c, k) = members[i];
            i += 1;
            for &n in &adj[c] {
                if colour[n].is_none() {
                    colour[n] = Some(1 - k);
                    members.push((n, 1 - k));
                }
            }
        }
        let in_cluster: Vec<usize> = members.iter().map(|&(c, _)| c).collect();
        let cl_links = links
            .iter()
            .copied()
            .filter(|(x, _)| in_cluster.contains(x))
            .collect();
        members.sort_unstable();
        out.push(Cluster {
            cells: members,
            links: cl_links,
        });
    }
    out
}

fn highlights(d: usize, cl: &Cluster) -> Highlights {
    let v = Value::from_index(d);
    Highlights {
        cells: cl.cells.iter().map(|&(c, _)| c).collect(),
        candidates: cl.cells.iter().map(|&(c, _)| (c, v)).collect(),
        units: Vec::new(),
        links: cl
            .links
            .iter()
            .map(|&(x, y)| Link {
                from: (x, v),
                to: (y, v),
                strong: true,
            })
            .collect(),
    }
}

fn names(b: &Board, cl: &Cluster, k: u8) -> String {
    cl.cells
        .iter()
        .filter(|&&(_, kk)| kk == k)
        .map(|&(c, _)| b.cell_name(c))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Simple Colors trap: a candidate outside a cluster that sees a cell of
/// each colour is false (one of the colours holds the value).
pub fn traps(b: &Board) -> Vec<Step> {
    let mut steps = Vec::new();
    for d in 0..b.n() {
        for cl in clusters(b, d) {
            let mut elim = Vec::new();
            for c in 0..b.shape().cells() {
                if !b.has(c, d) || cl.cells.iter().any(|&(x, _)| x == c) {
                    continue;
                }
                let sees = |k: u8| cl.cells.iter().any(|&(x, kk)| kk == k && b.sees(c, x));
                if sees(0) && sees(1) {
                    elim.push((c, Value::from_index(d)));
                }
            }
            if elim.is_empty() {
                continue;
            }
            steps.push(Step {
                technique: Technique::ColorTrap,
                placements: Vec::new(),
                highlights: highlights(d, &cl),
                explanation: format!(
                    "Simple Colors: the conjugate pairs of {} colour {} one way and {} the \
                     other; one colour holds {}, so a cell that sees both colours cannot",
                    b.symbol(d),
                    names(b, &cl, 0),
                    names(b, &cl, 1),
                    b.symbol(d),
                ),
                eliminations: elim,
            });
        }
    }
    steps
}

/// Simple Colors wrap: two cells of the same colour see each other, so
/// that colour cannot hold the value anywhere.
pub fn wraps(b: &Board) -> Vec<Step> {
    let mut steps = Vec::new();
    for d in 0..b.n() {
        for cl in clusters(b, d) {
            for k in 0..2u8 {
                let same: Vec<usize> = cl
                    .cells
                    .iter()
                    .filter(|&&(_, kk)| kk == k)
                    .map(|&(c, _)| c)
                    .collect();
                let clash = same.iter().enumerate().find_map(|(i, &x)| {
                    same[i + 1..]
                        .iter()
                        .find(|&&y| b.sees(x, y))
                        .map(|&y| (x, y))
                });
                let Some((x, y)) = clash else {
                    continue;
                };
                steps.push(Step {
                    technique: Technique::ColorWrap,
                    placements: Vec::new(),
                    highlights: highlights(d, &cl),
                    explanation: format!(
                        "Simple Colors: the conjugate pairs of {} colour {} one way and {} \
                         the other; {} and {} share a colour and see each other, so that \
                         colour is false and {} leaves all its cells",
                        b.symbol(d),
                        names(b, &cl, 0),
                        names(b, &cl, 1),
                        b.cell_name(x),
                        b.cell_name(y),
                        b.symbol(d),
                    ),
                    eliminations: same.iter().map(|&c| (c, Value::from_index(d))).collect(),
                });
            }
        }
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An empty 6×6 board (2×3 boxes): every cell has every candidate.
    fn empty6() -> Board {
        let shape = crate::engine::Shape::new(2, 3).unwrap();
        Board::from_values(shape, &[None; 36]).unwrap()
    }

    /// Removes digit `d` from unit `u` except at `keep`.
    fn only_at(b: &mut Board, u: usize, d: usize, keep: &[usize]) {
        let cells: Vec<usize> = b.unit(u).iter().map(|&c| c as usize).collect();
        for c in cells {
            if !keep.contains(&c) {
                b.remove(c, d);
            }
        }
    }

    fn v(d: usize) -> Value {
        Value::from_index(d)
    }

    /// Conjugate pairs of 1: r1c1=r1c4 (row 1), r1c4=r4c4 (column 4),
    /// r4c4=r4c2 (row 4).
    fn three_links() -> Board {
        let mut b = empty6();
        only_at(&mut b, 0, 0, &[0, 3]);
        only_at(&mut b, 6 + 3, 0, &[3, 21]);
        only_at(&mut b, 3, 0, &[19, 21]);
        b
    }

    #[test]
    fn trap_on_6x6() {
        let b = three_links();
        let steps = traps(&b);
        // r2c2 sees r1c1 and r4c2; r3c1 sees r1c1 and r4c2.
        assert_eq!(steps.len(), 1);
        assert_eq!(steps[0].eliminations, vec![(7, v(0)), (12, v(0))]);
        assert!(
            steps[0]
                .highlights
                .candidates
                .iter()
                .all(|&(_, x)| x == v(0))
        );
        assert!(wraps(&b).is_empty());
        // Without those two candidates, nothing sees both colours.
        let mut b = b;
        b.remove(7, 0);
        b.remove(12, 0);
        assert!(traps(&b).is_empty());
    }

    #[test]
    fn wrap_on_6x6() {
        let mut b = three_links();
        // A fourth link, r4c2=r2c2 (column 2): r2c2 takes r1c1's colour and
        // sees it in box 1.
        only_at(&mut b, 6 + 1, 0, &[7, 19]);
        let steps = wraps(&b);
        assert_eq!(steps.len(), 1);
        assert_eq!(
            steps[0].eliminations,
            vec![(0, v(0)), (7, v(0)), (21, v(0))]
        );
    }
}

/// Multi Colors 1 (`wing`) and 2.
pub fn multi_colors(_b: &Board, _kind: u8) -> Vec<Step> {
    Vec::new()
}
