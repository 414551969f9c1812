//! Templates (pattern overlay): for one value, every way to place it once
//! in each row, column and box among its candidates (and where it is
//! placed already). A template of one value that uses a cell every
//! template of another value uses cannot be the answer and is dropped,
//! round after round (as HoDoKu does). Then a candidate no template uses
//! goes (Template Delete); a cell every template uses holds the value
//! (Template Set).
//!
//! The templates are enumerated row by row with the columns and boxes used
//! so far as bit masks, for any shape up to 64×64. Conclusions need the
//! whole enumeration, so a value with more templates than its share of
//! [`MAX_TEMPLATE_WORDS`] (at most [`MAX_TEMPLATES`]), or more than
//! [`MAX_NODES`] search nodes, is left out, and the others are not checked
//! against it.

use crate::engine::grid::Value;

use super::{Board, Highlights, Step, Technique};

/// The most search nodes spent on one value's templates.
pub const MAX_NODES: usize = 400_000;

/// The most templates kept for one value.
pub const MAX_TEMPLATES: usize = 20_000;

/// The most 64-bit words all values' templates may hold together (32 MB):
/// on 64×64 a template is 64 words, so each value may keep about 1,000.
pub const MAX_TEMPLATE_WORDS: usize = 4 << 20;

/// A template: one bit per cell.
type Bits = Vec<u64>;

fn disjoint(a: &Bits, b: &Bits) -> bool {
    a.iter().zip(b).all(|(x, y)| x & y == 0)
}

/// The cells every template of `list` uses (`words` words each).
fn in_every(list: &[Bits], words: usize) -> Bits {
    let mut m = vec![u64::MAX; words];
    for t in list {
        for (w, x) in m.iter_mut().zip(t) {
            *w &= x;
        }
    }
    m
}

/// The cells some template of `list` uses.
fn in_any(list: &[Bits], words: usize) -> Bits {
    let mut m = vec![0; words];
    for t in list {
        for (w, x) in m.iter_mut().zip(t) {
            *w |= x;
        }
    }
    m
}

/// Every template of value `d`, or `None` when there are too many.
fn enumerate(b: &Board, d: usize) -> Option<Vec<Bits>> {
    let n = b.n();
    // Per row: the columns d may take (its placed cell only, if any).
    let mut options: Vec<Vec<usize>> = Vec::with_capacity(n);
    for r in 0..n {
        let placed: Vec<usize> = (0..n)
            .filter(|&c| b.value(r * n + c).map(Value::index) == Some(d))
            .collect();
        options.push(if placed.is_empty() {
            (0..n).filter(|&c| b.has(r * n + c, d)).collect()
        } else {
            placed
        });
    }
    let mut out = Vec::new();
    let words = (n * n).div_ceil(64);
    let mut walk = Walk {
        b,
        options: &options,
        chosen: vec![0; n],
        nodes: 0,
        ok: true,
        cap: (MAX_TEMPLATE_WORDS / (words * n)).clamp(1, MAX_TEMPLATES),
        out: &mut out,
    };
    walk.row(0, 0, 0);
    walk.ok.then_some(out)
}

/// The depth-first enumeration of one value's templates.
struct Walk<'a> {
    b: &'a Board,
    options: &'a [Vec<usize>],
    chosen: Vec<usize>,
    nodes: usize,
    ok: bool,
    /// The most templates this value may keep.
    cap: usize,
    out: &'a mut Vec<Bits>,
}

impl Walk<'_> {
    /// Row `r` onwards; `cols` and `boxes` are the masks used so far.
    fn row(&mut self, r: usize, cols: u64, boxes: u64) {
        if !self.ok {
            return;
        }
        self.nodes += 1;
        if self.nodes > MAX_NODES
            || self.out.len() >= self.cap
            || (self.nodes.is_multiple_of(4096) && self.b.stopped())
        {
            self.ok = false;
            return;
        }
        let n = self.options.len();
        if r == n {
            let mut bits = vec![0u64; (n * n).div_ceil(64)];
            for (row, &c) in self.chosen.iter().enumerate() {
                let cell = row * n + c;
                bits[cell / 64] |= 1 << (cell % 64);
            }
            self.out.push(bits);
            return;
        }
        for k in 0..self.options[r].len() {
            let c = self.options[r][k];
            let bx = self.b.units_of(r * n + c)[2] - 2 * n;
            if cols >> c & 1 == 1 || boxes >> bx & 1 == 1 {
                continue;
            }
            self.chosen[r] = c;
            self.row(r + 1, cols | 1 << c, boxes | 1 << bx);
        }
    }
}

/// Per value: its templates left once those using a cell that every
/// template of another value uses are dropped, round after round (`None`
/// for a value left out).
fn surviving(b: &Board) -> Vec<Option<Vec<Bits>>> {
    let n = b.n();
    let words = b.shape().cells().div_ceil(64);
    let mut all: Vec<Option<Vec<Bits>>> = (0..n)
        .map(|d| if b.stopped() { None } else { enumerate(b, d) })
        .collect();
    let mut changed = true;
    while changed && !b.stopped() {
        changed = false;
        // The cells each value certainly takes (none for a value left out
        // or without templates).
        let forced: Vec<Bits> = all
            .iter()
            .map(|l| match l {
                Some(l) if !l.is_empty() => in_every(l, words),
                _ => vec![0; words],
            })
            .collect();
        for (d, slot) in all.iter_mut().enumerate() {
            let Some(list) = slot else {
                continue;
            };
            let before = list.len();
            list.retain(|t| (0..n).filter(|&e| e != d).all(|e| disjoint(t, &forced[e])));
            changed |= list.len() != before;
        }
    }
    all
}

fn step(
    b: &Board,
    technique: Technique,
    d: usize,
    placements: Vec<(usize, Value)>,
    eliminations: Vec<(usize, Value)>,
) -> Step {
    let cells: Vec<usize> = placements
        .iter()
        .chain(&eliminations)
        .map(|&(c, _)| c)
        .collect();
    let names: Vec<String> = cells.iter().map(|&c| b.cell_name(c)).collect();
    let explanation = if technique == Technique::TemplateSet {
        format!(
            "{}: every way to place {} once in each row, column and box uses {}, so {} is there",
            technique.name(),
            b.symbol(d),
            names.join(" "),
            b.symbol(d)
        )
    } else {
        format!(
            "{}: no way to place {} once in each row, column and box uses {}, so {} goes from there",
            technique.name(),
            b.symbol(d),
            names.join(" "),
            b.symbol(d)
        )
    };
    Step {
        technique,
        placements,
        eliminations,
        highlights: Highlights {
            cells,
            ..Highlights::default()
        },
        explanation,
    }
}

/// Template Set (`set`) or Template Delete steps, one per value.
pub fn templates(b: &Board, set: bool) -> Vec<Step> {
    let mut steps = Vec::new();
    let cells = b.shape().cells();
    for (d, list) in surviving(b).into_iter().enumerate() {
        // No template left would mean a broken position: say nothing.
        let Some(list) = list.filter(|l| !l.is_empty()) else {
            continue;
        };
        let words = cells.div_ceil(64);
        let (any, every) = (in_any(&list, words), in_every(&list, words));
        let bit = |m: &Bits, c: usize| m[c / 64] >> (c % 64) & 1 == 1;
        let v = Value::from_index(d);
        if set {
            let placements: Vec<(usize, Value)> = (0..cells)
                .filter(|&c| bit(&every, c) && b.value(c).is_none())
                .map(|c| (c, v))
                .collect();
            if !placements.is_empty() {
                steps.push(step(b, Technique::TemplateSet, d, placements, Vec::new()));
            }
        } else {
            let eliminations: Vec<(usize, Value)> = (0..cells)
                .filter(|&c| !bit(&any, c) && b.has(c, d))
                .map(|c| (c, v))
                .collect();
            if !eliminations.is_empty() {
                steps.push(step(
                    b,
                    Technique::TemplateDelete,
                    d,
                    Vec::new(),
                    eliminations,
                ));
            }
        }
    }
    steps
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::engine::logic::tests::{empty6, only_at, v};

    #[test]
    fn template_delete_on_6x6() {
        // Rows 1 and 3 hold 1 only in columns 1 and 4: every template puts
        // them there, so no other row's 1 in those columns is used.
        let mut b = empty6();
        only_at(&mut b, 0, 0, &[0, 3]);
        only_at(&mut b, 2, 0, &[12, 15]);
        let steps = templates(&b, false);
        assert_eq!(steps.len(), 1, "{steps:?}");
        let want: Vec<(usize, Value)> = [6, 9, 18, 21, 24, 27, 30, 33]
            .into_iter()
            .map(|c| (c, v(1)))
            .collect();
        assert_eq!(steps[0].eliminations, want);
        assert_eq!(steps[0].technique, Technique::TemplateDelete);
        assert!(templates(&b, true).is_empty());
        // The empty board: every candidate is in some template.
        assert!(templates(&empty6(), false).is_empty());
        assert!(templates(&empty6(), true).is_empty());
    }

    #[test]
    fn template_set_on_6x6() {
        // 1 may go only at r1c1 r2c4 r3c2 r4c5 r5c3 r6c6, and at r1c4,
        // which leaves row 2 nowhere: the one template places all six.
        let mut b = empty6();
        let cells = [0, 9, 13, 22, 26, 35];
        for (r, &c) in cells.iter().enumerate().skip(1) {
            only_at(&mut b, r, 0, &[c]);
        }
        only_at(&mut b, 0, 0, &[0, 3]);
        let set = templates(&b, true);
        assert_eq!(set.len(), 1, "{set:?}");
        let want: Vec<(usize, Value)> = cells.iter().map(|&c| (c, v(1))).collect();
        assert_eq!(set[0].placements, want);
        // Delete: r1c4 loses its 1, and since 1 surely takes those six
        // cells, no other value's template may use them.
        let del = templates(&b, false);
        assert_eq!(del.len(), 6, "{del:?}");
        assert_eq!(del[0].eliminations, vec![(3, v(1))]);
        for (k, s) in del.iter().enumerate().skip(1) {
            let others: Vec<(usize, Value)> = cells.iter().map(|&c| (c, v(k + 1))).collect();
            assert_eq!(s.eliminations, others);
        }
    }

    /// On the way from generated puzzles to their solutions, every
    /// template step agrees with the solution.
    #[test]
    fn sound_along_solution_paths() {
        use crate::engine::generate::{GenerateOptions, generate};
        use crate::engine::{Level, Limits, Shape};
        let mut fired = [0usize; 2];
        for (shape, seeds) in [(Shape::CLASSIC, 0..3), (Shape::new(2, 3).unwrap(), 0..10)] {
            for seed in seeds {
                let opts = GenerateOptions::new(shape, Level::Expert, seed);
                let g = generate(&opts, &Limits::none()).unwrap();
                let mut b = Board::from_puzzle(&g.puzzle).unwrap();
                while !b.is_solved() {
                    for (k, set) in [true, false].into_iter().enumerate() {
                        for s in templates(&b, set) {
                            fired[k] += 1;
                            assert!(s.placements.iter().all(|&(c, x)| g.solution.get(c) == x));
                            assert!(s.eliminations.iter().all(|&(c, x)| g.solution.get(c) != x));
                        }
                    }
                    let Some(s) = crate::engine::logic::next_step(&b) else {
                        break;
                    };
                    b.apply(&s);
                }
            }
        }
        assert!(fired.iter().all(|&k| k > 0), "{fired:?}");
    }
}
