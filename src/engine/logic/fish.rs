//! Fish: for one value, k base lines (rows, or columns) whose places for it
//! lie within k cover lines of the other direction. Each cover line then
//! holds the value in one of the base lines, so it leaves the rest of the
//! cover lines (basic fish: X-Wing, Swordfish, Jellyfish, and larger).
//!
//! A finned fish has extra places in the base lines (the fins) outside the
//! covers, all in one box: either a fin holds the value or the fish does, so
//! only the cover cells outside the bases that sit in the fins' box lose it.
//! It is called sashimi (HoDoKu's convention) when some base line keeps at
//! most one place once the fins are taken away: without the fins the body
//! would not be a fish of that size at all.
//!
//! Sizes run from 2 to n/2 (a larger fish in one direction is a smaller one
//! in the other). To keep the search quick on big boards, basic fish stop at
//! size [`MAX_BASIC_SIZE`] and finned/sashimi fish at size
//! [`MAX_FINNED_SIZE`]; on 9×9 that is no limit (n/2 = 4). The search walks
//! the combinations of base lines and drops a partial one as soon as its
//! places spread over more columns (rows) than the fish and a fin box can
//! take.

use crate::engine::grid::Value;

use super::{Board, CandidateRole, Highlights, Step, Technique, UnitRole, barren, bits};

/// The largest basic fish searched for, whatever the side.
pub const MAX_BASIC_SIZE: usize = 8;

/// The largest finned or sashimi fish searched for, whatever the side.
pub const MAX_FINNED_SIZE: usize = 4;

/// What kind of fish to look for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Basic,
    Finned,
    Sashimi,
}

/// One orientation of the search: base lines are rows (`dir` 0) or
/// columns (1), and cover lines the other direction.
struct Lines<'a> {
    b: &'a Board,
    n: usize,
    dir: usize,
    d: usize,
    /// Per base line, the cover indices where `d` is a candidate.
    masks: Vec<u64>,
    /// How many cover lines a box spans.
    cover_band: usize,
    /// How many base lines a box spans.
    base_band: usize,
}

impl Lines<'_> {
    /// The cell where base line `i` meets cover line `j`.
    fn cell(&self, i: usize, j: usize) -> usize {
        if self.dir == 0 {
            i * self.n + j
        } else {
            j * self.n + i
        }
    }

    /// The unit number of base line `i`.
    fn base_unit(&self, i: usize) -> usize {
        self.dir * self.n + i
    }

    /// The unit number of cover line `j`.
    fn cover_unit(&self, j: usize) -> usize {
        (1 - self.dir) * self.n + j
    }
}

/// Every k-element subset of the set bits of `m`, as masks, passed to `f`.
fn sub_masks(m: u64, k: usize, f: &mut impl FnMut(u64)) {
    fn go(rest: u64, k: usize, acc: u64, f: &mut impl FnMut(u64)) {
        if k == 0 {
            f(acc);
            return;
        }
        if (rest.count_ones() as usize) < k {
            return;
        }
        let low = rest & rest.wrapping_neg();
        go(rest & !low, k - 1, acc | low, f);
        go(rest & !low, k, acc, f);
    }
    go(m, k, 0, f);
}

/// The technique for a kind and size.
fn technique(kind: Kind, k: usize) -> Technique {
    let k = u8::try_from(k).unwrap_or(u8::MAX);
    match kind {
        Kind::Basic => Technique::Fish(k),
        Kind::Finned => Technique::FinnedFish(k),
        Kind::Sashimi => Technique::SashimiFish(k),
    }
}

fn names(b: &Board, units: &[usize]) -> String {
    let v: Vec<String> = units.iter().map(|&u| b.unit_name(u)).collect();
    match v.len() {
        0 => String::new(),
        1 => v[0].clone(),
        l => format!("{} and {}", v[..l - 1].join(", "), v[l - 1]),
    }
}

/// Builds the step for base lines `base` (indices), covers `cover` (mask of
/// cover indices) and fins `fins` (cells; empty for a basic fish), if it
/// eliminates anything.
fn fish_step(
    lines: &Lines,
    kind: Kind,
    base: &[usize],
    cover: u64,
    fins: &[usize],
) -> Option<Step> {
    let b = lines.b;
    let d = lines.d;
    let fin_box = fins.first().map(|&f| b.units_of(f)[2]);
    let base_bits = base.iter().fold(0u64, |m, &i| m | 1 << i);
    let mut elim: Vec<(usize, Value)> = Vec::new();
    for j in bits(cover) {
        for i in 0..lines.n {
            if base_bits >> i & 1 == 1 {
                continue;
            }
            let c = lines.cell(i, j);
            if !b.has(c, d) {
                continue;
            }
            if let Some(bx) = fin_box
                && b.units_of(c)[2] != bx
            {
                continue;
            }
            elim.push((c, Value::from_index(d)));
        }
    }
    if elim.is_empty() {
        return None;
    }
    elim.sort();
    elim.dedup();
    let mut cells: Vec<usize> = base
        .iter()
        .flat_map(|&i| bits(lines.masks[i]).map(move |j| lines.cell(i, j)))
        .collect();
    cells.sort_unstable();
    let base_units: Vec<usize> = base.iter().map(|&i| lines.base_unit(i)).collect();
    let cover_units: Vec<usize> = bits(cover).map(|j| lines.cover_unit(j)).collect();
    let t = technique(kind, base.len());
    let sym = b.symbol(d);
    let explanation = if fins.is_empty() {
        format!(
            "{}: in {}, {sym} can only go in {}; each base line needs it in one of them, so \
             {sym} leaves the rest of {}",
            t.name(),
            names(b, &base_units),
            names(b, &cover_units),
            names(b, &cover_units),
        )
    } else {
        // The cover lines that lose the value: those crossing the fins' box.
        let hit: Vec<usize> = cover_units
            .iter()
            .copied()
            .filter(|&u| elim.iter().any(|&(c, _)| b.units_of(c).contains(&u)))
            .collect();
        let fin_names: Vec<String> = fins.iter().map(|&c| b.cell_name(c)).collect();
        let fin_box = fin_box.map(|u| b.unit_name(u)).unwrap_or_default();
        format!(
            "{}: in {}, {sym} can only go in {} apart from the fin{} {} in {fin_box}; either \
             a fin holds {sym} or the fish does, so {sym} leaves the cells of {} in {fin_box} \
             outside the base lines",
            t.name(),
            names(b, &base_units),
            names(b, &cover_units),
            if fins.len() == 1 { "" } else { "s" },
            fin_names.join(", "),
            names(b, &hit),
        )
    };
    let v = Value::from_index(d);
    let mut h = Highlights {
        candidates: cells.iter().map(|&c| (c, v)).collect(),
        cells,
        ..Highlights::default()
    };
    for &f in fins {
        h.add_role(f, v, CandidateRole::Fin);
    }
    // Base lines first (the Siamese search reads them there).
    for &u in &base_units {
        h.units.push(u);
        h.set_unit_role(u, UnitRole::Base);
    }
    for &u in &cover_units {
        h.units.push(u);
        h.set_unit_role(u, UnitRole::Cover);
    }
    Some(Step {
        technique: t,
        placements: Vec::new(),
        eliminations: elim,
        highlights: h,
        explanation,
    })
}

/// Checks one choice of k base lines (their places joined in `union`).
fn leaf(lines: &Lines, kind: Kind, base: &[usize], union: u64, steps: &mut Vec<Step>) {
    let k = base.len();
    let spread = union.count_ones() as usize;
    if kind == Kind::Basic {
        if spread == k
            && let Some(s) = fish_step(lines, kind, base, union, &[])
        {
            steps.push(s);
        }
        return;
    }
    if spread <= k {
        return;
    }
    let b = lines.b;
    // The fins all lie in one box, so in one band of cover lines: a cover
    // holds every place of the union outside that band. Only those covers
    // are tried, taken in the order of all k-subsets of `union` (lowest
    // lines first), as the plain enumeration would meet them.
    let mut covers: Vec<u64> = Vec::new();
    let bw = lines.cover_band;
    for band in 0..lines.n.div_ceil(bw) {
        let in_band = ((1u64 << bw) - 1) << (band * bw);
        let required = union & !in_band;
        let needed = required.count_ones() as usize;
        let free = union & in_band;
        if needed > k || needed + free.count_ones() as usize <= k {
            continue;
        }
        sub_masks(free, k - needed, &mut |extra| covers.push(required | extra));
    }
    covers.sort_unstable_by(|&x, &y| {
        let low = (x ^ y) & (x ^ y).wrapping_neg();
        if x == y {
            std::cmp::Ordering::Equal
        } else if x & low != 0 {
            std::cmp::Ordering::Less
        } else {
            std::cmp::Ordering::Greater
        }
    });
    for cover in covers {
        // The base lines with fins lie in one band too.
        let mut fin_band = None;
        if base.iter().any(|&i| {
            if lines.masks[i] & !cover == 0 {
                return false;
            }
            let band = i / lines.base_band;
            fin_band.replace(band).is_some_and(|was| was != band)
        }) {
            continue;
        }
        let mut fin_cells = base
            .iter()
            .flat_map(|&i| bits(lines.masks[i] & !cover).map(move |j| lines.cell(i, j)));
        // Every fin in one box, checked before anything is collected (most
        // covers fail here, and this runs for every cover of every base).
        let Some(first) = fin_cells.next() else {
            continue;
        };
        let bx = b.units_of(first)[2];
        if fin_cells.any(|f| b.units_of(f)[2] != bx) {
            continue;
        }
        let fins: Vec<usize> = base
            .iter()
            .flat_map(|&i| bits(lines.masks[i] & !cover).map(move |j| lines.cell(i, j)))
            .collect();
        let sashimi = base
            .iter()
            .any(|&i| (lines.masks[i] & cover).count_ones() <= 1);
        if sashimi != (kind == Kind::Sashimi) {
            continue;
        }
        if let Some(s) = fish_step(lines, kind, base, cover, &fins) {
            steps.push(s);
        }
    }
}

/// Walks the k-combinations of the `open` base lines whose joined places
/// stay within `limit` cover lines.
#[allow(clippy::too_many_arguments)]
fn walk(
    lines: &Lines,
    kind: Kind,
    k: usize,
    limit: usize,
    open: &[usize],
    start: usize,
    base: &mut Vec<usize>,
    union: u64,
    steps: &mut Vec<Step>,
) {
    if base.len() == k {
        leaf(lines, kind, base, union, steps);
        return;
    }
    for idx in start..open.len() {
        if open.len() - idx < k - base.len() {
            break;
        }
        if base.len() < 2 && lines.b.stopped() {
            return;
        }
        let i = open[idx];
        let u = union | lines.masks[i];
        if u.count_ones() as usize > limit {
            continue;
        }
        base.push(i);
        walk(lines, kind, k, limit, open, idx + 1, base, u, steps);
        base.pop();
    }
}

fn search(b: &Board, kind: Kind, k: usize) -> Vec<Step> {
    let n = b.n();
    let cap = if kind == Kind::Basic {
        MAX_BASIC_SIZE
    } else {
        MAX_FINNED_SIZE
    };
    let mut steps = Vec::new();
    if k < 2 || 2 * k > n || k > cap {
        return steps;
    }
    for dir in 0..2 {
        // How many cover lines one box spans: fins must fit in one box.
        let width = if kind == Kind::Basic {
            0
        } else if dir == 0 {
            b.shape().box_cols()
        } else {
            b.shape().box_rows()
        };
        let limit = k + width;
        let t = technique(kind, k);
        for d in 0..n {
            if barren::is_barren(b, t, dir as u8, d) {
                continue;
            }
            let mut lines = Lines {
                b,
                n,
                dir,
                d,
                masks: vec![0; n],
                cover_band: if dir == 0 {
                    b.shape().box_cols()
                } else {
                    b.shape().box_rows()
                },
                base_band: if dir == 0 {
                    b.shape().box_rows()
                } else {
                    b.shape().box_cols()
                },
            };
            for i in 0..n {
                let mut m = 0u64;
                for j in 0..n {
                    if b.has(lines.cell(i, j), d) {
                        m |= 1 << j;
                    }
                }
                lines.masks[i] = m;
            }
            let open: Vec<usize> = (0..n)
                .filter(|&i| {
                    let p = lines.masks[i].count_ones() as usize;
                    p >= 1 && p <= limit
                })
                .collect();
            let before = steps.len();
            walk(
                &lines,
                kind,
                k,
                limit,
                &open,
                0,
                &mut Vec::new(),
                0,
                &mut steps,
            );
            if steps.len() == before {
                barren::set_barren(b, t, dir as u8, d);
            }
        }
    }
    steps
}

/// Basic fish of size `k` (2 X-Wing, 3 Swordfish, 4 Jellyfish, …).
pub fn basic(b: &Board, k: usize) -> Vec<Step> {
    search(b, Kind::Basic, k)
}

/// Finned fish of size `k` that are not sashimi.
pub fn finned(b: &Board, k: usize) -> Vec<Step> {
    search(b, Kind::Finned, k)
}

/// Sashimi fish of size `k`.
pub fn sashimi(b: &Board, k: usize) -> Vec<Step> {
    search(b, Kind::Sashimi, k)
}

/// Siamese fish of size `k`: pairs of finned or sashimi fish (`sashimi`:
/// both are sashimi; else at least one is finned, as HoDoKu names them) on
/// the same value and base lines whose eliminations differ, told as one
/// step with the eliminations of both.
pub fn siamese(b: &Board, k: usize, sashimi: bool) -> Vec<Step> {
    let mut found = search(b, Kind::Finned, k);
    found.extend(search(b, Kind::Sashimi, k));
    let key = |s: &Step| {
        let mut base: Vec<usize> = s.highlights.units[..k.min(s.highlights.units.len())].to_vec();
        base.sort_unstable();
        (s.eliminations.first().map(|e| e.1), base)
    };
    let mut steps = Vec::new();
    for (i, x) in found.iter().enumerate() {
        for y in &found[i + 1..] {
            if key(x) != key(y) || x.eliminations == y.eliminations {
                continue;
            }
            let both = matches!(x.technique, Technique::SashimiFish(_))
                && matches!(y.technique, Technique::SashimiFish(_));
            if both != sashimi {
                continue;
            }
            let k8 = u8::try_from(k).unwrap_or(u8::MAX);
            let technique = if sashimi {
                Technique::SiameseSashimiFish(k8)
            } else {
                Technique::SiameseFinnedFish(k8)
            };
            let why = format!(
                "{}: two fish on the same base lines, both valid — {} — and {}",
                technique.name(),
                x.explanation,
                y.explanation
            );
            steps.push(Step::united(technique, x, y, why));
        }
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::shape::Shape;

    /// An empty board of `shape` where digit index `d` keeps, in each listed
    /// row, only the listed columns (0-based).
    fn shaped(shape: Shape, d: usize, rows: &[(usize, &[usize])]) -> Board {
        let mut b = Board::from_values(shape, &vec![None; shape.cells()]).unwrap();
        let n = shape.n();
        for &(r, cols) in rows {
            for c in 0..n {
                if !cols.contains(&c) {
                    b.remove(r * n + c, d);
                }
            }
        }
        b
    }

    fn elims(s: &Step) -> Vec<usize> {
        s.eliminations.iter().map(|&(c, _)| c).collect()
    }

    #[test]
    fn x_wing_on_6x6() {
        let shape = Shape::new(2, 3).unwrap();
        let b = shaped(shape, 0, &[(0, &[1, 4]), (3, &[1, 4])]);
        let steps = basic(&b, 2);
        assert_eq!(steps.len(), 1, "{steps:?}");
        let s = &steps[0];
        assert_eq!(s.technique, Technique::Fish(2));
        assert_eq!(s.technique.name(), "X-Wing");
        assert_eq!(elims(s), vec![7, 10, 13, 16, 25, 28, 31, 34]);
        assert!(s.eliminations.iter().all(|&(_, v)| v.index() == 0));
        assert_eq!(
            s.highlights.candidates,
            [1, 4, 19, 22].map(|c| (c, Value::from_index(0)))
        );
        assert_eq!(s.highlights.units, vec![0, 3, 6 + 1, 6 + 4]);
        assert!(
            s.explanation.contains("row 1 and row 4")
                && s.explanation.contains("column 2 and column 5"),
            "{}",
            s.explanation
        );
        // Not finned, and no Swordfish on 6×6 here.
        assert!(finned(&b, 2).is_empty());
        assert!(sashimi(&b, 2).is_empty());
        assert!(basic(&b, 3).is_empty());
    }

    #[test]
    fn no_x_wing_when_the_columns_differ() {
        // Boxes of 2 rows × 3 columns.
        let shape = Shape::new(2, 3).unwrap();
        let b = shaped(shape, 0, &[(0, &[1, 4]), (3, &[1, 5])]);
        assert!(basic(&b, 2).is_empty());
        // Each row keeps one place in the body once its fin goes: sashimi.
        assert!(finned(&b, 2).is_empty());
        let mut found: Vec<Vec<usize>> = sashimi(&b, 2).iter().map(elims).collect();
        found.sort();
        // Covers c2, c5 with fin r4c6 (box 4); covers c2, c6 with fin r1c5.
        assert_eq!(found, vec![vec![6 + 5], vec![12 + 4]]);
    }

    #[test]
    fn basic_fish_of_every_size_on_16x16() {
        // Rows 1, 3, 5 … keep 1 only in columns 2, 4, 6 … (k of each): a
        // fish of size k; 1 leaves those columns everywhere else.
        let shape = Shape::new(4, 4).unwrap();
        for k in 3..=MAX_BASIC_SIZE {
            let base: Vec<usize> = (0..k).map(|i| 2 * i).collect();
            let covers: Vec<usize> = (0..k).map(|i| 2 * i + 1).collect();
            let rows: Vec<(usize, &[usize])> = base.iter().map(|&r| (r, &covers[..])).collect();
            let b = shaped(shape, 0, &rows);
            let want: Vec<usize> = (0..16)
                .filter(|r| !base.contains(r))
                .flat_map(|r| covers.iter().map(move |&c| r * 16 + c))
                .collect();
            let steps = basic(&b, k);
            // At k = n/2 the other eight columns make the same fish the
            // other way round, with the same eliminations.
            assert!(!steps.is_empty(), "size {k}");
            for s in &steps {
                assert_eq!(s.technique, Technique::Fish(k as u8));
                assert_eq!(elims(s), want, "size {k}");
            }
            // With the first row free again only k − 1 rows are confined.
            let b = shaped(shape, 0, &rows[1..]);
            assert!(basic(&b, k).is_empty(), "size {k}");
        }
    }

    #[test]
    fn finned_and_sashimi_swordfish_and_jellyfish_on_12x12() {
        // Boxes of 3 rows × 4 columns. Base rows r1, r4, r7 (and r10),
        // covers c2, c6, c10 (and c11); r1 also holds 1 at c3, a fin in the
        // box of rows 1-3, columns 1-4, which c2 crosses: 1 leaves r2c2 and
        // r3c2.
        let shape = Shape::new(3, 4).unwrap();
        for (base, covers) in [
            (&[0usize, 3, 6][..], &[1usize, 5, 9][..]),
            (&[0, 3, 6, 9], &[1, 5, 9, 10]),
        ] {
            let k = base.len();
            let mut first = covers.to_vec();
            first.push(2);
            let mut rows: Vec<(usize, &[usize])> = vec![(base[0], &first)];
            rows.extend(base[1..].iter().map(|&r| (r, covers)));
            let b = shaped(shape, 0, &rows);
            assert!(basic(&b, k).is_empty());
            let steps = finned(&b, k);
            assert_eq!(steps.len(), 1, "size {k}: {steps:?}");
            assert_eq!(steps[0].technique, Technique::FinnedFish(k as u8));
            assert_eq!(elims(&steps[0]), vec![12 + 1, 24 + 1]);
            // Nothing left to remove there: no step.
            let mut quiet = b.clone();
            quiet.remove(12 + 1, 0);
            quiet.remove(24 + 1, 0);
            assert!(finned(&quiet, k).is_empty(), "size {k}");
            // With r1 keeping only its last cover and the fin, the fish
            // without its fin would be degenerate: sashimi, with the same
            // eliminations. (Two covers left would still be finned.)
            let sashimi_row = [covers[k - 1], 2];
            rows[0] = (base[0], &sashimi_row);
            let b = shaped(shape, 0, &rows);
            assert!(finned(&b, k).is_empty(), "size {k}");
            let steps = sashimi(&b, k);
            assert!(
                steps
                    .iter()
                    .any(|s| s.technique == Technique::SashimiFish(k as u8)
                        && elims(s) == vec![12 + 1, 24 + 1]),
                "size {k}: {steps:?}"
            );
        }
    }

    #[test]
    fn finned_x_wing_on_12x12() {
        // Boxes of 3 rows × 4 columns.
        let shape = Shape::new(3, 4).unwrap();
        let b = shaped(shape, 0, &[(0, &[1, 6]), (5, &[1, 6, 7])]);
        assert!(basic(&b, 2).is_empty());
        assert!(sashimi(&b, 2).is_empty());
        let steps = finned(&b, 2);
        assert_eq!(steps.len(), 1, "{steps:?}");
        let s = &steps[0];
        assert_eq!(s.technique.name(), "Finned X-Wing");
        // Column 7 (index 6) in the fin's box (rows 4–6), outside rows 1, 6.
        assert_eq!(elims(s), vec![3 * 12 + 6, 4 * 12 + 6]);
        assert!(s.explanation.contains("r6c8"), "{}", s.explanation);
    }

    #[test]
    fn sashimi_x_wing_on_12x12() {
        let shape = Shape::new(3, 4).unwrap();
        let b = shaped(shape, 0, &[(0, &[1, 6]), (5, &[1, 7])]);
        assert!(finned(&b, 2).is_empty());
        let mut found: Vec<Vec<usize>> = sashimi(&b, 2).iter().map(elims).collect();
        found.sort();
        // Covers c2, c7 with fin r6c8; covers c2, c8 with fin r1c7.
        assert_eq!(found, vec![vec![12 + 7, 24 + 7], vec![36 + 6, 48 + 6]]);
    }

    #[test]
    fn a_fin_in_another_box_does_not_fire() {
        let shape = Shape::new(3, 4).unwrap();
        // The fin r6c9 is in the box of columns 9–12, which no cover crosses.
        let b = shaped(shape, 0, &[(0, &[1, 6]), (5, &[1, 6, 8])]);
        assert!(basic(&b, 2).is_empty());
        assert!(finned(&b, 2).is_empty());
        assert!(sashimi(&b, 2).is_empty());
    }

    #[test]
    fn sizes_beyond_the_caps_find_nothing() {
        let shape = Shape::new(2, 3).unwrap();
        let b = shaped(shape, 0, &[]);
        assert!(basic(&b, 4).is_empty()); // more than n/2
        assert!(basic(&b, 1).is_empty());
        let big = Shape::new(4, 4).unwrap();
        let b = shaped(big, 0, &[]);
        assert!(finned(&b, 5).is_empty());
        assert_eq!(
            Technique::for_side(16)
                .iter()
                .filter(|t| matches!(t, Technique::Fish(_)))
                .count(),
            7
        );
        assert_eq!(Technique::Fish(5).hodoku_code(), "");
        assert_eq!(Technique::from_hodoku_code(""), None);
    }

    /// The fish techniques tried on an n×n board.
    fn fish_for(n: usize) -> Vec<Technique> {
        // The solving order leaves the Siamese fish out; check them too.
        Technique::for_side(n)
            .into_iter()
            .chain([3, 4].map(Technique::SiameseFinnedFish))
            .chain([3, 4].map(Technique::SiameseSashimiFish))
            .filter(|t| {
                matches!(
                    t,
                    Technique::Fish(_)
                        | Technique::FinnedFish(_)
                        | Technique::SashimiFish(_)
                        | Technique::SiameseFinnedFish(_)
                        | Technique::SiameseSashimiFish(_)
                )
            })
            .collect()
    }

    #[test]
    fn fish_are_sound_on_generated_puzzles() {
        use crate::engine::logic::tests::sound_along_paths;
        let checked: usize = sound_along_paths(Shape::CLASSIC, 1..=6, &fish_for(9))
            .into_iter()
            .chain(sound_along_paths(
                Shape::new(4, 4).unwrap(),
                1..=2,
                &fish_for(16),
            ))
            .sum();
        println!("{checked} fish steps checked");
        assert!(checked > 0, "no fish step met");
    }

    #[test]
    fn siamese_sashimi_x_wing_on_12x12() {
        // Rows 1 and 2 hold 1 at c1 and c6 / c1 and c7: with covers c1+c6
        // the fin is r2c7, with c1+c7 it is r1c6, both in the box of rows
        // 1-3, columns 5-8; each removes one 1 from row 3 there.
        let shape = Shape::new(3, 4).unwrap();
        let b = shaped(shape, 0, &[(0, &[0, 5]), (1, &[0, 6])]);
        let one = sashimi(&b, 2);
        assert!(one.len() >= 2, "{one:?}");
        let steps = siamese(&b, 2, true);
        assert_eq!(steps.len(), 1, "{steps:?}");
        assert_eq!(steps[0].technique, Technique::SiameseSashimiFish(2));
        assert_eq!(elims(&steps[0]), vec![29, 30]);
        assert!(siamese(&b, 2, false).is_empty());
        // Row 2 with c6 as well: covers c1+c6 make a finned fish (fin
        // r2c7), c1+c7 a sashimi one (fins r1c6, r2c6): Siamese Finned.
        let b = shaped(shape, 0, &[(0, &[0, 5]), (1, &[0, 5, 6])]);
        assert!(siamese(&b, 2, true).is_empty());
        let mixed = siamese(&b, 2, false);
        assert_eq!(mixed.len(), 1, "{mixed:?}");
        assert_eq!(mixed[0].technique, Technique::SiameseFinnedFish(2));
        // One fish alone: nothing to join.
        let b = shaped(shape, 0, &[(0, &[0, 5]), (1, &[0, 5])]);
        assert!(siamese(&b, 2, true).is_empty() && siamese(&b, 2, false).is_empty());
    }
}
