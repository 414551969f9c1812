//! Single-digit patterns: two conjugate pairs of one value joined by a weak
//! link (skyscraper, 2-string kite, turbot fish), and the empty rectangle.
//! Either free end of such a chain holds the value, so it leaves every cell
//! that sees both ends. Works for any box shape: only "sees" and unit
//! membership are used, and an empty rectangle's cross is a row and a
//! column of its (possibly rectangular) box. The dual forms (two kites
//! through the same two box cells, two empty rectangles in one box) unite
//! the eliminations of both patterns in one step.

use foldhash::{HashSet, HashSetExt};

use crate::engine::grid::Value;

use super::{Board, CandidateRole, Highlights, Link, Step, Technique, barren};

/// A conjugate pair: the only two places of a value in a unit.
#[derive(Debug, Clone, Copy)]
struct Strong {
    unit: usize,
    a: usize,
    b: usize,
}

/// Every conjugate pair of digit `d`, in rows, columns and boxes.
fn strong_links(b: &Board, d: usize) -> Vec<Strong> {
    b.conjugate_pairs(d)
        .into_iter()
        .map(|(unit, a, c)| Strong { unit, a, b: c })
        .collect()
}

/// 0 row, 1 column, 2 box.
fn kind(b: &Board, u: usize) -> usize {
    u / b.n()
}

/// Which two-link shape a chain `e1 = w1 - w2 = e2` is.
fn classify(b: &Board, l1: Strong, l2: Strong, cells: [usize; 4]) -> Technique {
    let [e1, w1, w2, e2] = cells;
    let n = b.n();
    let (k1, k2) = (kind(b, l1.unit), kind(b, l2.unit));
    if k1 == k2 && k1 < 2 {
        // Parallel lines; the weak ends share the cross line, the strong
        // ends do not (else an X-Wing).
        let cross = |c: usize| if k1 == 0 { c % n } else { c / n };
        if cross(w1) == cross(w2) && cross(e1) != cross(e2) {
            return Technique::Skyscraper;
        }
    } else if k1 < 2 && k2 < 2 {
        let bx = b.units_of(w1)[2];
        if b.units_of(w2)[2] == bx && b.units_of(e1)[2] != bx && b.units_of(e2)[2] != bx {
            return Technique::TwoStringKite;
        }
    }
    Technique::TurbotFish
}

fn link(d: usize, from: usize, to: usize, strong: bool) -> Link {
    Link {
        from: (from, Value::from_index(d)),
        to: (to, Value::from_index(d)),
        strong,
    }
}

/// The highlights of the chain `e1 = w1 − w2 = e2` on digit `d` whose
/// strong links lie in `units`: read from e1, e1 is false, w1 true, w2
/// false and e2 true.
fn chain_highlights(d: usize, cells: [usize; 4], units: [usize; 2]) -> Highlights {
    let [e1, w1, w2, e2] = cells;
    let v = Value::from_index(d);
    let mut h = Highlights {
        cells: cells.to_vec(),
        candidates: cells.iter().map(|&c| (c, v)).collect(),
        units: units.to_vec(),
        links: vec![
            link(d, e1, w1, true),
            link(d, w1, w2, false),
            link(d, w2, e2, true),
        ],
        ..Highlights::default()
    };
    for (c, on) in [(e1, false), (w1, true), (w2, false), (e2, true)] {
        let role = if on {
            CandidateRole::ChainOn
        } else {
            CandidateRole::ChainOff
        };
        h.add_role(c, v, role);
    }
    h
}

/// Every productive two-strong-link chain of shape `want`.
fn two_links(b: &Board, want: Technique) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut seen = HashSet::new();
    for d in 0..b.n() {
        if b.stopped() {
            break;
        }
        if barren::is_barren(b, want, 0, d) {
            continue;
        }
        let before = steps.len();
        let links = strong_links(b, d);
        for (i, &l1) in links.iter().enumerate() {
            for &l2 in &links[i + 1..] {
                for (e1, w1) in [(l1.a, l1.b), (l1.b, l1.a)] {
                    for (w2, e2) in [(l2.a, l2.b), (l2.b, l2.a)] {
                        let cells = [e1, w1, w2, e2];
                        let distinct = e1 != w2 && e1 != e2 && w1 != w2 && w1 != e2;
                        if !distinct || !b.sees(w1, w2) {
                            continue;
                        }
                        if classify(b, l1, l2, cells) != want {
                            continue;
                        }
                        let elim = b.seen_by_all(1 << d, &[e1, e2], &cells);
                        if elim.is_empty() {
                            continue;
                        }
                        let mut key = cells.to_vec();
                        key.sort_unstable();
                        if !seen.insert((key, elim.clone())) {
                            continue;
                        }
                        let name = |c| b.cell_name(c);
                        let v = b.symbol(d);
                        steps.push(Step {
                            technique: want,
                            placements: Vec::new(),
                            highlights: chain_highlights(d, cells, [l1.unit, l2.unit]),
                            explanation: format!(
                                "{}: {v} is in {} or {} ({}), and in {} or {} ({}); {} and {} \
                                 see each other, so {v} is in {} or {} and leaves every cell \
                                 that sees both",
                                want.name(),
                                name(e1),
                                name(w1),
                                b.unit_name(l1.unit),
                                name(w2),
                                name(e2),
                                b.unit_name(l2.unit),
                                name(w1),
                                name(w2),
                                name(e1),
                                name(e2),
                            ),
                            eliminations: elim,
                        });
                    }
                }
            }
        }
        if steps.len() == before {
            barren::set_barren(b, want, 0, d);
        }
    }
    steps
}

/// Skyscrapers: conjugate pairs in two parallel lines whose one ends share
/// a cross line.
pub fn skyscrapers(b: &Board) -> Vec<Step> {
    two_links(b, Technique::Skyscraper)
}

/// 2-string kites: a row's conjugate pair and a column's, one end of each in
/// the same box (outside the other ends' box).
pub fn kites(b: &Board) -> Vec<Step> {
    two_links(b, Technique::TwoStringKite)
}

/// Turbot fish: the other chains of two conjugate pairs joined by a weak
/// link (at least one pair in a box, or the weak link in a box).
pub fn turbot_fish(b: &Board) -> Vec<Step> {
    two_links(b, Technique::TurbotFish)
}

/// Empty rectangles: a box whose places for a value all lie on one row r
/// and one column c of the box (with places on both arms), and a conjugate
/// pair in a line outside the box with one end on r (or c): the value
/// leaves the cell where the pair's other end meets c (or r).
pub fn empty_rectangles(b: &Board) -> Vec<Step> {
    let n = b.n();
    let mut steps = Vec::new();
    let mut seen = HashSet::new();
    for d in 0..n {
        if barren::is_barren(b, Technique::EmptyRectangle, 0, d) {
            continue;
        }
        // Whether this digit has a pattern, told or not: one told for an
        // earlier digit with the same cells is not told again, but this
        // digit is not barren for that.
        let mut any = false;
        let links = strong_links(b, d);
        for bx in 2 * n..3 * n {
            let cells = b.cells_with(bx, d);
            if cells.len() < 2 {
                continue;
            }
            let box_cells: Vec<usize> = b.unit(bx).iter().map(|&c| c as usize).collect();
            let mut rows: Vec<usize> = box_cells.iter().map(|c| c / n).collect();
            rows.sort_unstable();
            rows.dedup();
            let mut cols: Vec<usize> = box_cells.iter().map(|c| c % n).collect();
            cols.sort_unstable();
            cols.dedup();
            for &r in &rows {
                for &c in &cols {
                    if !cells.iter().all(|&x| x / n == r || x % n == c) {
                        continue;
                    }
                    let row_arm = cells.iter().any(|&x| x / n == r && x % n != c);
                    let col_arm = cells.iter().any(|&x| x % n == c && x / n != r);
                    if !row_arm || !col_arm {
                        continue;
                    }
                    for l in &links {
                        let k = kind(b, l.unit);
                        for (a, e) in [(l.a, l.b), (l.b, l.a)] {
                            // A column pair with one end on row r: the other
                            // end's row meets column c at the target; a row
                            // pair with one end on column c likewise.
                            let target = match k {
                                0 if !rows.contains(&(a / n))
                                    && a % n == c
                                    && !cols.contains(&(e % n)) =>
                                {
                                    r * n + e % n
                                }
                                1 if !cols.contains(&(a % n))
                                    && a / n == r
                                    && !rows.contains(&(e / n)) =>
                                {
                                    (e / n) * n + c
                                }
                                _ => continue,
                            };
                            if !b.has(target, d) || target == a || target == e {
                                continue;
                            }
                            let elim = vec![(target, Value::from_index(d))];
                            any = true;
                            if !seen.insert((bx, r, c, a, e, target)) {
                                continue;
                            }
                            let mut pattern = cells.clone();
                            pattern.extend([a, e]);
                            let v = b.symbol(d);
                            steps.push(Step {
                                technique: Technique::EmptyRectangle,
                                placements: Vec::new(),
                                highlights: Highlights {
                                    cells: pattern.clone(),
                                    candidates: pattern
                                        .iter()
                                        .map(|&x| (x, Value::from_index(d)))
                                        .collect(),
                                    units: vec![bx, l.unit],
                                    links: vec![link(d, a, e, true)],
                                    ..Highlights::default()
                                },
                                explanation: format!(
                                    "{}: in {}, {v} lies only on row {} and \
                                     column {}; {v} is in {} or {} ({}), so if {} held {v}, \
                                     {} would too and {} would have no place for {v}; \
                                     so {v} leaves {}",
                                    Technique::EmptyRectangle.name(),
                                    b.unit_name(bx),
                                    r + 1,
                                    c + 1,
                                    b.cell_name(a),
                                    b.cell_name(e),
                                    b.unit_name(l.unit),
                                    b.cell_name(target),
                                    b.cell_name(a),
                                    b.unit_name(bx),
                                    b.cell_name(target),
                                ),
                                eliminations: elim,
                            });
                        }
                    }
                }
            }
        }
        if !any {
            barren::set_barren(b, Technique::EmptyRectangle, 0, d);
        }
    }
    steps
}

/// One step of technique `t` uniting the eliminations of two steps;
/// `None` unless each of them removes something the other does not.
fn combine(t: Technique, s1: &Step, s2: &Step, why: String) -> Option<Step> {
    let s = Step::united(t, s1, s2, why);
    let n = s.eliminations.len();
    (n != s1.eliminations.len() && n != s2.eliminations.len()).then_some(s)
}

/// The digit a single-digit step removes.
fn digit_of(s: &Step) -> Option<usize> {
    s.eliminations.first().map(|&(_, v)| v.index())
}

/// A step's explanation without its leading "Technique: ".
fn reason(s: &Step) -> &str {
    s.explanation
        .split_once(": ")
        .map_or(s.explanation.as_str(), |(_, r)| r)
}

/// Pushes `s` unless a step with the same eliminations is there already.
fn push_new(steps: &mut Vec<Step>, s: Step) {
    if !steps.iter().any(|t| t.eliminations == s.eliminations) {
        steps.push(s);
    }
}

/// Dual 2-String Kites: two kites through the same two cells of their
/// box, each removing a different candidate; both kites' eliminations as
/// one step. As in HoDoKu, the kites are paired by their box cells alone,
/// so they may be on different values (both cells then hold both); on one
/// value the cells swap roles, each the row end of one kite and the column
/// end of the other.
pub fn dual_kites(b: &Board) -> Vec<Step> {
    let kites = kites(b);
    let mut steps = Vec::new();
    for (i, k1) in kites.iter().enumerate() {
        for k2 in &kites[i + 1..] {
            let ([_, w1, w2, _], [_, x1, x2, _]) =
                (&k1.highlights.cells[..], &k2.highlights.cells[..])
            else {
                continue;
            };
            let same_cells = (w1, w2) == (x1, x2) || (w1, w2) == (x2, x1);
            let (Some(d1), Some(d2)) = (digit_of(k1), digit_of(k2)) else {
                continue;
            };
            if !same_cells {
                continue;
            }
            let on = if d1 == d2 {
                format!("two kites on {}", b.symbol(d1))
            } else {
                format!("a kite on {} and one on {}", b.symbol(d1), b.symbol(d2))
            };
            let why = format!(
                "{}: {on} meet at {} and {} in {}. First, {}. Second, {}",
                Technique::DualTwoStringKite.name(),
                b.cell_name(*w1),
                b.cell_name(*w2),
                b.unit_name(b.units_of(*w1)[2]),
                reason(k1),
                reason(k2),
            );
            if let Some(s) = combine(Technique::DualTwoStringKite, k1, k2, why) {
                push_new(&mut steps, s);
            }
        }
    }
    steps
}

/// Dual Empty Rectangles: two empty rectangles of one value in the same
/// box, with different conjugate pairs, each removing a different
/// candidate; both eliminations as one step.
pub fn dual_empty_rectangles(b: &Board) -> Vec<Step> {
    let ers = empty_rectangles(b);
    let mut steps = Vec::new();
    for (i, e1) in ers.iter().enumerate() {
        for e2 in &ers[i + 1..] {
            let (h1, h2) = (&e1.highlights, &e2.highlights);
            if digit_of(e1) != digit_of(e2)
                || h1.units.first() != h2.units.first()
                || h1.links == h2.links
            {
                continue;
            }
            let (Some(d), Some(&bx)) = (digit_of(e1), h1.units.first()) else {
                continue;
            };
            let why = format!(
                "{}: {} holds two empty rectangles for {}. First, {}. Second, {}",
                Technique::DualEmptyRectangle.name(),
                b.unit_name(bx),
                b.symbol(d),
                reason(e1),
                reason(e2),
            );
            if let Some(s) = combine(Technique::DualEmptyRectangle, e1, e2, why) {
                push_new(&mut steps, s);
            }
        }
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Shape;
    use crate::engine::logic::tests::{elims, empty6, only_at, v0};

    /// Removes digit `d` from every cell of `unit` except `keep`.

    #[test]
    fn skyscraper_on_6x6() {
        let mut b = empty6();
        // Row 1: r1c1, r1c5; row 4: r4c1, r4c6 (base: column 1).
        only_at(&mut b, 0, 0, &[0, 4]);
        only_at(&mut b, 3, 0, &[18, 23]);
        let steps = skyscrapers(&b);
        assert_eq!(elims(&steps), vec![vec![(11, v0(0)), (16, v0(0))]]);
        assert_eq!(steps[0].highlights.candidates.len(), 4);
        assert!(steps[0].explanation.contains("r1c5"));
        // Roofs in the same column: an X-Wing, not a skyscraper.
        let mut b = empty6();
        only_at(&mut b, 0, 0, &[0, 4]);
        only_at(&mut b, 3, 0, &[18, 22]);
        assert!(skyscrapers(&b).is_empty());
    }

    #[test]
    fn kite_on_6x6() {
        let mut b = empty6();
        // Row 1: r1c1, r1c5; column 2: r2c2, r5c2; r1c1 and r2c2 share box 1.
        only_at(&mut b, 0, 2, &[0, 4]);
        only_at(&mut b, 6 + 1, 2, &[7, 25]);
        assert_eq!(elims(&kites(&b)), vec![vec![(28, v0(2))]]);
        // Column pair r3c4, r5c4: no end shares a box with the row's.
        let mut b = empty6();
        only_at(&mut b, 0, 2, &[0, 4]);
        only_at(&mut b, 6 + 3, 2, &[15, 27]);
        assert!(kites(&b).is_empty());
    }

    #[test]
    fn empty_rectangle_on_6x6() {
        let mut b = empty6();
        // Box 1 holds 1 only at r1c1, r1c2, r2c1 (cross: row 1, column 1);
        // column 5 has 1 only at r1c5 and r4c5, so r4c1 loses 1.
        only_at(&mut b, 12, 0, &[0, 1, 6]);
        only_at(&mut b, 6 + 4, 0, &[4, 22]);
        assert_eq!(elims(&empty_rectangles(&b)), vec![vec![(18, v0(0))]]);
        // With r2c3 as well the box's places are no longer a cross.
        let mut b = empty6();
        only_at(&mut b, 12, 0, &[0, 1, 6, 8]);
        only_at(&mut b, 6 + 4, 0, &[4, 22]);
        assert!(empty_rectangles(&b).is_empty());
    }

    #[test]
    fn turbot_fish_on_6x6() {
        let mut b = empty6();
        // Box 1 pair r1c1–r2c3 (not in one line), weak link r2c3–r2c5 along
        // row 2, column 5 pair r2c5–r5c5: r5c1 sees r1c1 (column 1) and
        // r5c5 (row 5).
        only_at(&mut b, 12, 0, &[0, 8]);
        only_at(&mut b, 6 + 4, 0, &[10, 28]);
        let steps = turbot_fish(&b);
        assert!(
            steps.iter().any(|s| s.eliminations == vec![(24, v0(0))]),
            "{:?}",
            elims(&steps)
        );
        // Every elimination sees both free ends.
        for s in &steps {
            let [e1, _, _, e2] = s.highlights.cells[..] else {
                panic!("four cells")
            };
            assert!(
                s.eliminations
                    .iter()
                    .all(|&(c, _)| b.sees(c, e1) && b.sees(c, e2))
            );
        }
    }

    #[test]
    fn dual_kite_on_6x6() {
        let mut b = empty6();
        // Box 1 cells r1c3 and r2c1: row 1 (r1c3, r1c5) with column 1
        // (r2c1, r5c1) removes r5c5; row 2 (r2c1, r2c4) with column 3
        // (r1c3, r4c3) removes r4c4.
        only_at(&mut b, 0, 0, &[2, 4]);
        only_at(&mut b, 6, 0, &[6, 24]);
        only_at(&mut b, 1, 0, &[6, 9]);
        only_at(&mut b, 6 + 2, 0, &[2, 20]);
        let steps = dual_kites(&b);
        assert_eq!(elims(&steps), vec![vec![(21, v0(0)), (28, v0(0))]]);
        assert_eq!(steps[0].technique, Technique::DualTwoStringKite);
        assert_eq!(steps[0].highlights.links.len(), 6);
        assert!(steps[0].explanation.contains("r1c3 and r2c1"));
        // As in HoDoKu, kites on different values through the same box
        // cells pair too: 1 in row 1 (r1c3, r1c5) and column 1 (r2c1,
        // r5c1) removes r5c5; 2 in row 1 (r1c3, r1c6) and column 1 (r2c1,
        // r4c1) removes r4c6.
        let mut b = empty6();
        only_at(&mut b, 0, 0, &[2, 4]);
        only_at(&mut b, 6, 0, &[6, 24]);
        only_at(&mut b, 0, 1, &[2, 5]);
        only_at(&mut b, 6, 1, &[6, 18]);
        let steps = dual_kites(&b);
        assert_eq!(elims(&steps), vec![vec![(23, v0(1)), (28, v0(0))]]);
        assert!(steps[0].explanation.contains("a kite on 1 and one on 2"));
        // One kite alone is no dual.
        let mut b = empty6();
        only_at(&mut b, 0, 2, &[0, 4]);
        only_at(&mut b, 6 + 1, 2, &[7, 25]);
        assert!(dual_kites(&b).is_empty());
    }

    #[test]
    fn dual_empty_rectangle_on_6x6() {
        let mut b = empty6();
        // Box 1 cross row 1 / column 1; column 5 pair r1c5–r4c5 removes
        // r4c1, row 5 pair r5c1–r5c6 removes r1c6.
        only_at(&mut b, 12, 0, &[0, 1, 6]);
        only_at(&mut b, 6 + 4, 0, &[4, 22]);
        only_at(&mut b, 4, 0, &[24, 29]);
        let steps = dual_empty_rectangles(&b);
        assert_eq!(elims(&steps), vec![vec![(5, v0(0)), (18, v0(0))]]);
        assert_eq!(steps[0].technique, Technique::DualEmptyRectangle);
        // With one pair only, a plain empty rectangle.
        let mut b = empty6();
        only_at(&mut b, 12, 0, &[0, 1, 6]);
        only_at(&mut b, 6 + 4, 0, &[4, 22]);
        assert!(dual_empty_rectangles(&b).is_empty());
    }

    /// On generated 9×9 puzzles, no dual step removes a solution value
    /// along whole solve paths, and both duals fire.
    #[test]
    fn duals_are_sound_on_generated_puzzles() {
        let techniques = [Technique::DualTwoStringKite, Technique::DualEmptyRectangle];
        let fired =
            crate::engine::logic::tests::sound_along_paths(Shape::CLASSIC, 1..=8, &techniques);
        assert!(fired.iter().all(|&f| f > 0), "{fired:?}");
    }
}
