//! Simple Colors: for one value, each connected cluster of conjugate pairs
//! (strong links in rows, columns and boxes) is coloured with two colours
//! that alternate along the links; exactly one colour holds the value.
//! Trap: a candidate outside the cluster that sees both colours goes. Wrap:
//! two cells of one colour see each other, so that colour is false. Multi
//! Colors relates two clusters of one value: where a colour of one sees a
//! colour of the other, the opposite colours cannot both be false (1), or
//! a colour that sees both colours of another cluster is false (2).
//! Shape-agnostic: only units and "sees" are used.

use crate::engine::grid::Value;

use super::cellset::{has_bit, set_bit};
use super::{Board, CandidateRole, Highlights, Link, Step, Technique, barren};

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

/// The highlights of cluster `cl` of digit `d`, its colours told as
/// [`CandidateRole::Colour`] `first` and `first + 1`.
fn highlights(d: usize, cl: &Cluster, first: u8) -> Highlights {
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
        roles: cl
            .cells
            .iter()
            .map(|&(c, k)| (c, v, CandidateRole::Colour(first + k)))
            .collect(),
        unit_roles: Vec::new(),
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
        if barren::is_barren(b, Technique::ColorTrap, 0, d) {
            continue;
        }
        let before = steps.len();
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
                highlights: highlights(d, &cl, 0),
                explanation: format!(
                    "{}: the conjugate pairs of {} colour {} one way and {} the other; one \
                     colour holds {}, so a cell that sees both colours cannot",
                    Technique::ColorTrap.name(),
                    b.symbol(d),
                    names(b, &cl, 0),
                    names(b, &cl, 1),
                    b.symbol(d),
                ),
                eliminations: elim,
            });
        }
        if steps.len() == before {
            barren::set_barren(b, Technique::ColorTrap, 0, d);
        }
    }
    steps
}

/// Simple Colors wrap: two cells of the same colour see each other, so
/// that colour cannot hold the value anywhere.
pub fn wraps(b: &Board) -> Vec<Step> {
    let mut steps = Vec::new();
    for d in 0..b.n() {
        if barren::is_barren(b, Technique::ColorWrap, 0, d) {
            continue;
        }
        let before = steps.len();
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
                    highlights: highlights(d, &cl, 0),
                    explanation: format!(
                        "{}: the conjugate pairs of {} colour {} one way and {} the other; \
                         {} and {} share a colour and see each other, so that colour is false \
                         and {} leaves all its cells",
                        Technique::ColorWrap.name(),
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
        if steps.len() == before {
            barren::set_barren(b, Technique::ColorWrap, 0, d);
        }
    }
    steps
}

/// The cells of colour `k` of a cluster.
fn colour_cells(cl: &Cluster, k: u8) -> Vec<usize> {
    cl.cells
        .iter()
        .filter(|&&(_, kk)| kk == k)
        .map(|&(c, _)| c)
        .collect()
}

/// A set of cells as a bit set (bit c of word c / 64).
type CellSet = Vec<u64>;

/// The cells that see at least one of `cells`.
fn seen_by_any(b: &Board, cells: &[usize]) -> CellSet {
    let mut set = vec![0u64; b.shape().cells().div_ceil(64)];
    for &c in cells {
        for p in b.tables().peers(c) {
            set_bit(&mut set, p);
        }
    }
    set
}

/// One colour of a cluster: its cells and the cells that see one of them.
struct Colour {
    cells: Vec<usize>,
    seen: CellSet,
}

impl Colour {
    fn of(b: &Board, cl: &Cluster, k: u8) -> Colour {
        let cells = colour_cells(cl, k);
        let seen = seen_by_any(b, &cells);
        Colour { cells, seen }
    }

    /// Whether a cell of this colour sees a cell of `other`.
    fn sees(&self, other: &Colour) -> bool {
        other.cells.iter().any(|&c| has_bit(&self.seen, c))
    }
}

/// The highlights of two clusters of digit `d` together.
fn pair_highlights(d: usize, a: &Cluster, c: &Cluster) -> Highlights {
    let mut h = highlights(d, a, 0);
    let h2 = highlights(d, c, 2);
    h.cells.extend(h2.cells);
    h.candidates.extend(h2.candidates);
    h.links.extend(h2.links);
    h.roles.extend(h2.roles);
    h
}

/// Multi Colors over every pair of clusters of one value, with colours
/// a1/a2 and b1/b2. Kind 1 (colour wing): a cell of a1 sees a cell of b1,
/// so a1 and b1 are not both true and a2 or b2 is; a candidate that sees a
/// cell of a2 and a cell of b2 goes (one step per pair of clusters, with
/// the eliminations of every such colour pairing). Kind 2: a1 sees cells of
/// both b1 and b2, one of which is true, so a1 is false and the value
/// leaves every a1 cell.
pub fn multi_colors(b: &Board, kind: u8) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    let technique = if kind == 1 {
        Technique::MultiColors1
    } else {
        Technique::MultiColors2
    };
    for d in 0..b.n() {
        if b.stopped() {
            break;
        }
        if barren::is_barren(b, technique, 0, d) {
            continue;
        }
        let before = steps.len();
        let cls = clusters(b, d);
        let colours: Vec<[Colour; 2]> = cls
            .iter()
            .map(|cl| [Colour::of(b, cl, 0), Colour::of(b, cl, 1)])
            .collect();
        for (i, ca) in cls.iter().enumerate() {
            for (j, cb) in cls.iter().enumerate() {
                let step = match kind {
                    1 if i < j => colour_wing(b, d, [ca, cb], [&colours[i], &colours[j]]),
                    2 if i != j => colour_sees_both(b, d, [ca, cb], [&colours[i], &colours[j]]),
                    _ => None,
                };
                if let Some(s) = step
                    && !steps.iter().any(|t| t.eliminations == s.eliminations)
                {
                    steps.push(s);
                }
            }
        }
        if steps.len() == before {
            barren::set_barren(b, technique, 0, d);
        }
    }
    steps
}

/// Multi Colors 1 on clusters `cl` (colours `col`) of digit `d`.
fn colour_wing(b: &Board, d: usize, cl: [&Cluster; 2], col: [&[Colour; 2]; 2]) -> Option<Step> {
    let v = b.symbol(d);
    let mut elim: Vec<usize> = Vec::new();
    let mut why: Vec<String> = Vec::new();
    for ka in 0..2 {
        for kb in 0..2 {
            if !col[0][ka].sees(&col[1][kb]) {
                continue;
            }
            let (oa, ob) = (&col[0][1 - ka], &col[1][1 - kb]);
            let before = elim.len();
            elim.extend(
                (0..b.shape().cells())
                    .filter(|&c| b.has(c, d) && has_bit(&oa.seen, c) && has_bit(&ob.seen, c)),
            );
            if elim.len() > before {
                why.push(format!(
                    "{} sees {}, so {v} is in {} or in {}",
                    names(b, cl[0], ka as u8),
                    names(b, cl[1], kb as u8),
                    names(b, cl[0], 1 - ka as u8),
                    names(b, cl[1], 1 - kb as u8),
                ));
            }
        }
    }
    if elim.is_empty() {
        return None;
    }
    elim.sort_unstable();
    elim.dedup();
    Some(Step {
        technique: Technique::MultiColors1,
        placements: Vec::new(),
        highlights: pair_highlights(d, cl[0], cl[1]),
        explanation: format!(
            "{}: the conjugate pairs of {v} form two clusters, coloured {} / {} \
             and {} / {}; {}; {v} leaves every cell that sees both",
            Technique::MultiColors1.name(),
            names(b, cl[0], 0),
            names(b, cl[0], 1),
            names(b, cl[1], 0),
            names(b, cl[1], 1),
            why.join("; "),
        ),
        eliminations: elim
            .into_iter()
            .map(|c| (c, Value::from_index(d)))
            .collect(),
    })
}

/// Multi Colors 2 on clusters `cl` (colours `col`) of digit `d`: the first
/// colour of the first cluster that sees both colours of the second.
fn colour_sees_both(
    b: &Board,
    d: usize,
    cl: [&Cluster; 2],
    col: [&[Colour; 2]; 2],
) -> Option<Step> {
    let ka = (0..2).find(|&k| col[0][k].sees(&col[1][0]) && col[0][k].sees(&col[1][1]))?;
    let v = b.symbol(d);
    let false_cells = names(b, cl[0], ka as u8);
    Some(Step {
        technique: Technique::MultiColors2,
        placements: Vec::new(),
        highlights: pair_highlights(d, cl[0], cl[1]),
        explanation: format!(
            "{}: the conjugate pairs of {v} form two clusters, coloured {} / {} \
             and {} / {}; {false_cells} sees both colours of the other cluster, one of which \
             holds {v}, so {v} leaves {false_cells}",
            Technique::MultiColors2.name(),
            names(b, cl[0], ka as u8),
            names(b, cl[0], 1 - ka as u8),
            names(b, cl[1], 0),
            names(b, cl[1], 1),
        ),
        eliminations: col[0][ka]
            .cells
            .iter()
            .map(|&c| (c, Value::from_index(d)))
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::logic::tests::{empty6, only_at, v0};

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
        assert_eq!(steps[0].eliminations, vec![(7, v0(0)), (12, v0(0))]);
        assert!(
            steps[0]
                .highlights
                .candidates
                .iter()
                .all(|&(_, x)| x == v0(0))
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
            vec![(0, v0(0)), (7, v0(0)), (21, v0(0))]
        );
    }
}

#[cfg(test)]
mod multi_colors_tests {
    use super::*;
    use crate::engine::logic::tests::{empty6, only_at, v0};

    /// An empty 6×6 board (2×3 boxes) where digit 1 keeps only the places
    /// given for each unit: column 1 at r3c1 and r6c1, box 4 (rows 3–4,
    /// columns 4–6) at r3c5 and r4c6; two clusters.
    fn two_clusters() -> Board {
        let mut b = empty6();
        only_at(&mut b, 6, 0, &[12, 30]);
        only_at(&mut b, 12 + 3, 0, &[16, 23]);
        b
    }

    #[test]
    fn colour_wing_on_6x6() {
        let b = two_clusters();
        // r3c5 sees r3c1 (row 3): r4c6 or r6c1 holds 1, and r6c6 sees both.
        let steps = multi_colors(&b, 1);
        assert_eq!(steps.len(), 1);
        assert_eq!(steps[0].technique, Technique::MultiColors1);
        assert_eq!(steps[0].eliminations, vec![(35, v0(0))]);
        assert_eq!(steps[0].highlights.links.len(), 2);
        assert!(steps[0].explanation.contains("r3c1 sees r3c5"));
        assert!(multi_colors(&b, 2).is_empty());
        // One cluster alone: nothing.
        let mut one = b.clone();
        for c in [12, 30] {
            one.remove(c, 0);
        }
        assert!(multi_colors(&one, 1).is_empty());
    }

    #[test]
    fn colour_sees_both_on_6x6() {
        let mut b = two_clusters();
        // Column 6 at r4c6 and r6c6 only: r3c5 and r6c6 share a colour and
        // see r3c1 and r6c1, the two colours of the other cluster.
        only_at(&mut b, 6 + 5, 0, &[23, 35]);
        let steps = multi_colors(&b, 2);
        assert_eq!(steps.len(), 1);
        assert_eq!(steps[0].technique, Technique::MultiColors2);
        assert_eq!(steps[0].eliminations, vec![(16, v0(0)), (35, v0(0))]);
        assert!(multi_colors(&two_clusters(), 2).is_empty());
    }

    /// On generated puzzles (9×9 and 12×12), no Multi Colors step removes a
    /// solution value along whole solve paths, and both kinds fire.
    #[test]
    fn multi_colors_are_sound_on_generated_puzzles() {
        use crate::engine::Shape;
        let techniques = [Technique::MultiColors1, Technique::MultiColors2];
        let mut fired =
            crate::engine::logic::tests::sound_along_paths(Shape::CLASSIC, 1..=6, &techniques);
        let big = crate::engine::logic::tests::sound_along_paths(
            Shape::new(3, 4).unwrap(),
            1..=2,
            &techniques,
        );
        fired[0] += big[0];
        fired[1] += big[1];
        assert!(fired.iter().all(|&f| f > 0), "{fired:?}");
    }
}
