//! Techniques on boards other than 9×9 (each fires with exact eliminations,
//! and stays quiet where it must), contradictions, and soundness on
//! generated puzzles of several sizes.

use super::*;
use crate::engine::generate::{GenerateOptions, generate};
use crate::engine::{Level, Limits, Shape, Value};

/// An empty board of `shape`: every cell has every candidate.
pub(super) fn empty(shape: Shape) -> Board {
    Board::from_values(shape, &vec![None; shape.cells()]).unwrap()
}

/// An empty 6×6 board (2×3 boxes).
pub(super) fn empty6() -> Board {
    empty(Shape::new(2, 3).unwrap())
}

/// The value of 1-based digit `d`.
pub(super) fn v(d: usize) -> Value {
    Value::new(d).unwrap()
}

/// The value of 0-based digit `d`.
pub(super) fn v0(d: usize) -> Value {
    Value::from_index(d)
}

/// Removes digit `d` (0-based) from unit `u` except at the cells `keep`.
pub(super) fn only_at(b: &mut Board, u: usize, d: usize, keep: &[usize]) {
    let cells: Vec<usize> = b.unit(u).iter().map(|&c| c as usize).collect();
    for c in cells {
        if !keep.contains(&c) {
            b.remove(c, d);
        }
    }
}

/// Leaves cell `c` only the digits (0-based bits) of `mask`.
pub(super) fn set(b: &mut Board, c: usize, mask: u64) {
    for d in bits(b.mask(c) & !mask) {
        b.remove(c, d);
    }
}

/// The eliminations of each step, in order.
pub(super) fn elims(steps: &[Step]) -> Vec<Vec<(usize, Value)>> {
    steps.iter().map(|s| s.eliminations.clone()).collect()
}

/// A 9×9 position in HoDoKu's library form (from `reglib-1.3.txt`, GPL-3.0,
/// by Bernhard Hobiger): the values (`+` before a placed, not given, one)
/// and the candidates then deleted, as `<digit><row><col>` triples.
pub(super) fn library(values: &str, deleted: &str) -> Board {
    let mut cells = Vec::new();
    let mut placed = Vec::new();
    let mut plus = false;
    for ch in values.chars() {
        match ch {
            '+' => plus = true,
            '.' => cells.push(None),
            d => {
                if plus {
                    placed.push(cells.len());
                }
                cells.push(Some(v(d.to_digit(10).unwrap() as usize)));
                plus = false;
            }
        }
    }
    let mut b = Board::from_values(Shape::CLASSIC, &cells).unwrap();
    for c in placed {
        b.set_given(c, false);
    }
    for t in deleted.split_whitespace() {
        let x: Vec<usize> = t.bytes().map(|ch| usize::from(ch - b'0')).collect();
        b.remove((x[1] - 1) * 9 + x[2] - 1, x[0] - 1);
    }
    b
}

/// HoDoKu's library, 0709-2: a grouped continuous nice loop whose ALS
/// {r1c9 r7c9 r8c9 r9c9} forces r7c8 to 5 when it lacks 3; the position and
/// the loop's eliminations. Found only with ALS nodes.
pub(super) fn library_als_loop() -> (Board, Vec<(usize, Value)>) {
    let b = library(
        ".4..892...652+4...+9..9.+1...44..9.5...95.+4...17...1.8+4+956.+4...9...+9...174...789+4.3.",
        "331 242 342 243 245 345 574 775 584 689",
    );
    (b, triples("291 314 649"))
}

/// `<digit><row><col>` triples (a 9×9 library's eliminations), sorted.
pub(super) fn triples(text: &str) -> Vec<(usize, Value)> {
    let mut e: Vec<(usize, Value)> = text
        .split_whitespace()
        .map(|t| {
            let x: Vec<usize> = t.bytes().map(|ch| usize::from(ch - b'0')).collect();
            ((x[1] - 1) * 9 + x[2] - 1, v(x[0]))
        })
        .collect();
    e.sort();
    e
}

/// Keeps only `digits` (1-based) as candidates of cell `c`.
pub(super) fn only(b: &mut Board, c: usize, digits: &[usize]) {
    for d in 0..b.n() {
        if !digits.contains(&(d + 1)) {
            b.remove(c, d);
        }
    }
}

#[test]
fn hidden_single_and_full_house_on_6x6() {
    let shape = Shape::new(2, 3).unwrap();
    // Row 1 holds 1..5; its last cell is a full house (6).
    let mut vals = vec![None; 36];
    for (c, d) in [1, 2, 3, 4, 5].iter().enumerate() {
        vals[c] = Some(v(*d));
    }
    let b = Board::from_values(shape, &vals).unwrap();
    let fh = singles::full_houses(&b);
    assert_eq!(fh.len(), 1);
    assert_eq!(fh[0].placements, vec![(5, v(6))]);
    // An empty 6×6 has no single of any kind.
    let e = empty(shape);
    assert!(singles::full_houses(&e).is_empty());
    assert!(singles::naked_singles(&e).is_empty());
    assert!(singles::hidden_singles(&e).is_empty());
}

#[test]
fn pointing_and_claiming_with_3x4_boxes() {
    // 12×12, boxes of 3 rows × 4 columns. In box 1 (rows 1–3, cols 1–4),
    // 7 is kept only in row 1: it leaves the rest of row 1.
    let shape = Shape::new(3, 4).unwrap();
    let mut b = empty(shape);
    let n = 12;
    for r in 1..3 {
        for c in 0..4 {
            b.remove(r * n + c, 6);
        }
    }
    let steps = intersections::pointing(&b);
    let s = steps
        .iter()
        .find(|s| s.highlights.units == vec![2 * n, 0])
        .expect("pointing from box 1 into row 1");
    let expected: Vec<(usize, Value)> = (4..12).map(|c| (c, v(7))).collect();
    assert_eq!(s.eliminations, expected);
    assert_eq!(s.technique, Technique::Pointing);
    // Claiming: row 1's 7s now lie in box 1 only if removed from cols 5–12;
    // on the untouched board row 2 spans three boxes: no claiming there.
    assert!(intersections::claiming(&empty(shape)).is_empty());
    let mut b2 = empty(shape);
    for c in 4..12 {
        b2.remove(c, 6);
    }
    let cl = intersections::claiming(&b2);
    let s = cl
        .iter()
        .find(|s| s.highlights.units == vec![0, 2 * n])
        .unwrap();
    let expected: Vec<(usize, Value)> = (1..3)
        .flat_map(|r| (0..4).map(move |c| (r * n + c, v(7))))
        .collect();
    assert_eq!(s.eliminations, expected);
}

#[test]
fn naked_and_hidden_pairs_on_16x16() {
    let shape = Shape::square(4).unwrap();
    let mut b = empty(shape);
    // r1c1 and r1c9 hold only {3, 5}: a naked pair in row 1 (not in one box).
    only(&mut b, 0, &[3, 5]);
    only(&mut b, 8, &[3, 5]);
    let steps = subsets::naked(&b, 2);
    assert_eq!(steps.len(), 1);
    let s = &steps[0];
    assert_eq!(s.technique, Technique::NakedPair);
    let mut expected: Vec<(usize, Value)> = (0..16)
        .filter(|&c| c != 0 && c != 8)
        .flat_map(|c| [(c, v(3)), (c, v(5))])
        .collect();
    expected.sort();
    assert_eq!(s.eliminations, expected);
    // Hidden pair: in column 2, 9 and 11 only in r1c2 and r2c2.
    let mut h = empty(shape);
    for r in 2..16 {
        h.remove(r * 16 + 1, 8);
        h.remove(r * 16 + 1, 10);
    }
    let hs = subsets::hidden(&h, 2);
    let s = hs
        .iter()
        .find(|s| s.highlights.units == vec![16 + 1])
        .unwrap();
    assert_eq!(s.technique, Technique::HiddenPair);
    assert_eq!(s.highlights.cells, vec![1, 17]);
    assert_eq!(s.eliminations.len(), 2 * 14);
    // The hidden pair is also a locked pair's source? No: the cells share a
    // column and a box, but they hold all 16 candidates: no naked subset.
    assert!(subsets::locked_subsets(&h, 2).is_empty());
    assert!(subsets::naked(&empty(shape), 2).is_empty());
    assert!(subsets::hidden(&empty(shape), 2).is_empty());
}

/// An empty board of `shape` where values 1..=k of column 1 are confined
/// to `rows` — a hidden subset — or, with `spoil`, where value 1 may also
/// go in the first other row (k values, k + 1 places: none).
fn hidden_in_column(shape: Shape, rows: &[usize], k: usize, spoil: bool) -> Board {
    let n = shape.n();
    let mut b = empty(shape);
    let other = (0..n).find(|r| !rows.contains(r)).unwrap();
    for r in (0..n).filter(|r| !rows.contains(r)) {
        let first = if spoil && r == other { 1 } else { 0 };
        for d in first..k {
            b.remove(r * n, d);
        }
    }
    b
}

/// Whether a hidden subset of size `k` is found in column 1.
fn hidden_in_column_1(b: &Board, k: usize) -> bool {
    subsets::hidden(b, k)
        .iter()
        .any(|s| s.highlights.units == vec![b.n()])
}

/// The cells of column `col` of a 12×12 board (3×4 boxes) at `rows`.
fn column12(col: usize, rows: &[usize]) -> Vec<usize> {
    rows.iter().map(|r| r * 12 + col).collect()
}

/// Every (cell, digit) of column `col` outside `rows`, for 1-based `digits`,
/// sorted as a step's eliminations.
fn rest_of_column12(col: usize, rows: &[usize], digits: &[usize]) -> Vec<(usize, Value)> {
    let mut e: Vec<(usize, Value)> = (0..12)
        .filter(|r| !rows.contains(r))
        .flat_map(|r| digits.iter().map(move |&d| (r * 12 + col, v(d))))
        .collect();
    e.sort();
    e
}

/// Naked and hidden triples and quads in a column of 12×12 (3×4 boxes), on
/// cells of different boxes so the column is their only unit: exact
/// eliminations, and nothing once the set is spoiled.
#[test]
fn naked_and_hidden_triples_and_quads_on_12x12() {
    let shape = Shape::new(3, 4).unwrap();
    // Naked: {1,2} {2,3} {1,3} in r1c1, r4c1, r7c1; {1,2} {2,3} {3,4}
    // {1,4} in r1c1, r4c1, r7c1, r10c1.
    let cases: [(&[usize], &[&[usize]]); 2] = [
        (&[0, 3, 6], &[&[1, 2], &[2, 3], &[1, 3]]),
        (&[0, 3, 6, 9], &[&[1, 2], &[2, 3], &[3, 4], &[1, 4]]),
    ];
    for (rows, sets) in cases {
        let k = rows.len();
        let cells = column12(0, rows);
        let digits: Vec<usize> = (1..=k).collect();
        let mut b = empty(shape);
        for (&c, set) in cells.iter().zip(sets) {
            only(&mut b, c, set);
        }
        let steps = subsets::naked(&b, k);
        assert_eq!(steps.len(), 1, "size {k}: {steps:?}");
        let t = [Technique::NakedTriple, Technique::NakedQuad][k - 3];
        assert_eq!(steps[0].technique, t);
        assert_eq!(steps[0].eliminations, rest_of_column12(0, rows, &digits));
        // One more value in the first cell: k cells, k + 1 values.
        let mut first = sets[0].to_vec();
        first.push(k + 1);
        let mut spoiled = empty(shape);
        only(&mut spoiled, cells[0], &first);
        for (&c, set) in cells.iter().zip(sets).skip(1) {
            only(&mut spoiled, c, set);
        }
        assert!(subsets::naked(&spoiled, k).is_empty(), "size {k}");
    }
    // Hidden: 1..=k only in those cells of column 1; every other value
    // leaves them.
    for rows in [&[0usize, 3, 6][..], &[0, 3, 6, 9]] {
        let k = rows.len();
        let cells = column12(0, rows);
        let b = hidden_in_column(shape, rows, k, false);
        let steps = subsets::hidden(&b, k);
        let s = steps
            .iter()
            .find(|s| s.highlights.cells == cells)
            .unwrap_or_else(|| panic!("size {k}: {steps:?}"));
        let t = [Technique::HiddenTriple, Technique::HiddenQuad][k - 3];
        assert_eq!(s.technique, t);
        let mut want: Vec<(usize, Value)> = cells
            .iter()
            .flat_map(|&c| (k + 1..=12).map(move |d| (c, v(d))))
            .collect();
        want.sort();
        assert_eq!(s.eliminations, want);
        // One value also elsewhere in the column: no hidden set of size k.
        let spoiled = hidden_in_column(shape, rows, k, true);
        assert!(!hidden_in_column_1(&spoiled, k), "size {k}");
    }
}

/// Subsets larger than a quad on 16×16: a naked quintuple to octuple in a
/// column (cells in different boxes), and a hidden one; exact eliminations,
/// nothing once spoiled, and the sizes each board size tries.
#[test]
fn naked_and_hidden_subsets_beyond_quads_on_16x16() {
    let shape = Shape::square(4).unwrap();
    for k in 5..=8 {
        // Rows 1, 3, 5 … of column 1 hold values 1..=k, each cell two of
        // them in a ring ({1,2}, {2,3} … {k,1}).
        let rows: Vec<usize> = (0..k).map(|i| 2 * i).collect();
        let cells: Vec<usize> = rows.iter().map(|r| r * 16).collect();
        let mut b = empty(shape);
        for (i, &c) in cells.iter().enumerate() {
            only(&mut b, c, &[i + 1, (i + 1) % k + 1]);
        }
        let steps = subsets::naked(&b, k);
        assert_eq!(steps.len(), 1, "size {k}: {steps:?}");
        assert_eq!(steps[0].technique, Technique::NakedSubset(k as u8));
        let mut want: Vec<(usize, Value)> = (0..16)
            .filter(|r| !rows.contains(r))
            .flat_map(|r| (1..=k).map(move |d| (r * 16, v(d))))
            .collect();
        want.sort();
        assert_eq!(steps[0].eliminations, want, "size {k}");
        // find_all gives the same steps, made whole.
        let mut whole = steps.clone();
        for s in &mut whole {
            s.finish(16);
        }
        assert!(find_all(&b, Technique::NakedSubset(k as u8)) == whole);
        // One cell with a value from outside: k cells, k + 1 values.
        let mut spoiled = empty(shape);
        only(&mut spoiled, cells[0], &[1, 2, k + 1]);
        for (i, &c) in cells.iter().enumerate().skip(1) {
            only(&mut spoiled, c, &[i + 1, (i + 1) % k + 1]);
        }
        assert!(subsets::naked(&spoiled, k).is_empty(), "size {k}");
        // Hidden: 1..=k only in those cells; everything else leaves them.
        let h = hidden_in_column(shape, &rows, k, false);
        let steps = subsets::hidden(&h, k);
        let s = steps
            .iter()
            .find(|s| s.highlights.cells == cells)
            .unwrap_or_else(|| panic!("size {k}: {steps:?}"));
        assert_eq!(s.technique, Technique::HiddenSubset(k as u8));
        assert_eq!(s.eliminations.len(), k * (16 - k), "size {k}");
        assert!(
            s.eliminations
                .iter()
                .all(|&(c, d)| cells.contains(&c) && d.get() > k)
        );
        // Value 1 also in one more cell of the column: k values, k + 1
        // places.
        let spoiled = hidden_in_column(shape, &rows, k, true);
        assert!(!hidden_in_column_1(&spoiled, k), "size {k}");
    }
    let sizes = |n: usize| -> Vec<Technique> { Technique::big_subsets(n).collect() };
    assert!(sizes(9).is_empty());
    assert_eq!(
        sizes(12),
        [5, 6]
            .into_iter()
            .flat_map(|k| [Technique::NakedSubset(k), Technique::HiddenSubset(k)])
            .collect::<Vec<_>>()
    );
    assert_eq!(sizes(25).len(), 2 * 4); // capped at 8
    assert!(Technique::for_side(16).contains(&Technique::HiddenSubset(8)));
    assert!(!Technique::for_side(9).contains(&Technique::NakedSubset(5)));
    assert_eq!(Technique::NakedSubset(5).name(), "Naked Quintuple");
    assert_eq!(Technique::HiddenSubset(8).name(), "Hidden Octuple");
}

/// A locked triple: three cells of one line–box intersection of 6×6 holding
/// three values between them clear both the rest of the row and the box.
#[test]
fn a_locked_triple_on_6x6() {
    let mut b = empty6();
    only(&mut b, 0, &[1, 2]);
    only(&mut b, 1, &[2, 3]);
    only(&mut b, 2, &[1, 3]);
    let locked = subsets::locked_subsets(&b, 3);
    assert_eq!(locked.len(), 1, "{locked:?}");
    assert_eq!(locked[0].technique, Technique::LockedTriple);
    let mut want: Vec<(usize, Value)> = [3, 4, 5, 6, 7, 8]
        .into_iter()
        .flat_map(|c| [(c, v(1)), (c, v(2)), (c, v(3))])
        .collect();
    want.sort();
    assert_eq!(locked[0].eliminations, want);
    // With the rest of the row already clear, only the box loses them: no
    // locked triple.
    for c in 3..6 {
        for d in 0..3 {
            b.remove(c, d);
        }
    }
    assert!(subsets::locked_subsets(&b, 3).is_empty());
}

/// A naked pair in a line–box intersection is locked when it clears both
/// the box and the line outside it; clearing only one, it is a naked pair
/// (HoDoKu's distinction).
#[test]
fn a_locked_pair_clears_its_line_and_its_box_on_6x6() {
    // r1c1 and r1c2 hold {1, 2}; they lie in row 1 and box 1 (2×3 boxes).
    let mut b = empty6();
    only(&mut b, 0, &[1, 2]);
    only(&mut b, 1, &[1, 2]);
    let locked = subsets::locked_subsets(&b, 2);
    assert_eq!(locked.len(), 1, "{locked:?}");
    assert_eq!(locked[0].technique, Technique::LockedPair);
    let mut want: Vec<(usize, Value)> = [2, 3, 4, 5, 6, 7, 8]
        .into_iter()
        .flat_map(|c| [(c, v(1)), (c, v(2))])
        .collect();
    want.sort();
    assert_eq!(locked[0].eliminations, want);
    assert!(subsets::naked(&b, 2).is_empty());
    // With 1 and 2 gone from r1c4–r1c6, only the box loses them: a naked
    // pair (found once, though the cells share two units), not a locked one.
    for c in 3..6 {
        b.remove(c, 0);
        b.remove(c, 1);
    }
    assert!(subsets::locked_subsets(&b, 2).is_empty());
    let naked = subsets::naked(&b, 2);
    assert_eq!(naked.len(), 1, "{naked:?}");
    assert_eq!(naked[0].technique, Technique::NakedPair);
    let mut want: Vec<(usize, Value)> = [2, 6, 7, 8]
        .into_iter()
        .flat_map(|c| [(c, v(1)), (c, v(2))])
        .collect();
    want.sort();
    assert_eq!(naked[0].eliminations, want);
}

#[test]
fn contradictions_are_named() {
    let shape = Shape::square(2).unwrap();
    let mut b = empty(shape);
    for d in 0..4 {
        b.remove(5, d);
    }
    assert_eq!(b.check(), Err(BoardError::EmptyCell("r2c2".into())));
    let mut vals = vec![None; 16];
    vals[0] = Some(v(1));
    vals[2] = Some(v(1));
    let b = Board::from_values(shape, &vals).unwrap();
    assert_eq!(
        b.check(),
        Err(BoardError::Duplicate("r1c1".into(), "r1c3".into()))
    );
    assert!(Board::from_values(Shape::square(9).unwrap(), &vec![None; 81 * 81]).is_err());
    let msg = BoardError::EmptyCell("r3c5".into()).to_string();
    assert!(msg.contains("this position has an error at r3c5"), "{msg}");
}

/// Every step the implemented techniques find on generated unique puzzles
/// agrees with the solution: no elimination of a solution value, no wrong
/// placement. Steps are applied (easiest first) as far as they go; every
/// technique is asked at each position where no single applies (the
/// positions the harder techniques are for).
#[test]
fn steps_agree_with_the_unique_solution() {
    for (shape, seeds) in [
        (Shape::square(2).unwrap(), 0..6u64),
        (Shape::new(2, 3).unwrap(), 0..6),
        (Shape::CLASSIC, 0..12),
        (Shape::new(3, 4).unwrap(), 0..4),
        (Shape::square(4).unwrap(), 0..3),
    ] {
        for seed in seeds {
            for level in [Level::Medium, Level::Expert] {
                let g =
                    generate(&GenerateOptions::new(shape, level, seed), &Limits::none()).unwrap();
                let mut b = Board::from_puzzle(&g.puzzle).unwrap();
                b.set_known_unique(true);
                let mut rounds = 0;
                loop {
                    let singles = [
                        Technique::FullHouse,
                        Technique::NakedSingle,
                        Technique::HiddenSingle,
                    ];
                    let next = next_step(&b);
                    let easy = next
                        .as_ref()
                        .is_some_and(|s| singles.contains(&s.technique));
                    let n = shape.n();
                    let every = Technique::ALL
                        .into_iter()
                        .chain(Technique::big_fish(n))
                        .chain(Technique::big_subsets(n));
                    for t in every.filter(|_| !easy) {
                        for s in find_all(&b, t) {
                            for &(c, val) in &s.eliminations {
                                assert_ne!(
                                    g.solution.get(c),
                                    val,
                                    "{shape:?} seed {seed}: {}",
                                    s.explanation
                                );
                            }
                            for &(c, val) in &s.placements {
                                assert_eq!(
                                    g.solution.get(c),
                                    val,
                                    "{shape:?} seed {seed}: {}",
                                    s.explanation
                                );
                            }
                        }
                    }
                    let Some(step) = next else { break };
                    b.apply(&step);
                    b.check().unwrap();
                    rounds += 1;
                    assert!(rounds < 10 * shape.cells(), "no progress");
                }
            }
        }
    }
}

#[test]
fn a_path_through_an_easy_puzzle_solves_it() {
    let g = generate(
        &GenerateOptions::new(Shape::CLASSIC, Level::Easy, 3),
        &Limits::none(),
    )
    .unwrap();
    let mut board = Board::from_puzzle(&g.puzzle).unwrap();
    let path = full_path(&board, &g.solution, &Limits::none()).unwrap();
    // Singles suffice: no guess on the way.
    assert!(path.iter().all(|s| s.technique.level() == Level::Easy));
    for step in &path {
        board.apply(step);
    }
    for c in 0..81 {
        assert_eq!(board.value(c), Some(g.solution.get(c)));
    }
}

/// Two of the forum's hardest (rated 11+ there), whose paths need forcing
/// nets.
pub(crate) const FORUM_HARDEST: [&str; 2] = [
    "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6",
    "98.7..6..7.5....9..43.....78..2....6..7.1..2......48..3..9...6.....5.3.......1..9",
];

/// Walks the path of the 9×9 puzzle `text` to its end ([`next_step`]),
/// calling `at` with each position and its number before its step is
/// applied; each step's eliminations are checked against the solution.
/// The last position (solved unless the path stalled).
pub(super) fn along_path(text: &str, mut at: impl FnMut(&Board, usize)) -> Board {
    let p = crate::engine::format::parse_one(text, "path").unwrap();
    let crate::engine::Outcome::Solved(sol) =
        crate::engine::solve(&p, &Limits::none(), &mut crate::engine::NoTrace)
    else {
        panic!("{text}: not unique");
    };
    let mut b = Board::from_puzzle(&p).unwrap();
    for i in 0.. {
        at(&b, i);
        let Some(step) = next_step(&b) else {
            break;
        };
        for &(c, v) in &step.eliminations {
            assert_ne!(sol.get(c), v, "{text}: {}", step.explanation);
        }
        b.apply(&step);
    }
    b
}

/// The board of a generated expert puzzle of `shape` from `seed`, and
/// its solution.
pub(super) fn expert_board(shape: Shape, seed: u64) -> (Board, Grid) {
    let g = generate(
        &GenerateOptions::new(shape, Level::Expert, seed),
        &Limits::none(),
    )
    .unwrap();
    (Board::from_puzzle(&g.puzzle).unwrap(), g.solution)
}

/// Walks the solve path of a generated expert puzzle of `shape` for each
/// seed: singles until stuck, then every step of `techniques` found in the
/// position is checked — it removes something, never a solution value, its
/// eliminations sorted and distinct — and the first of them (else the
/// easiest next step) is applied; up to 200 rounds per puzzle. Returns how
/// often each technique fired, for the caller to require that it did.
pub(super) fn sound_along_paths(
    shape: Shape,
    seeds: impl IntoIterator<Item = u64>,
    techniques: &[Technique],
) -> Vec<usize> {
    let mut fired = vec![0usize; techniques.len()];
    for seed in seeds {
        let (mut b, solution) = expert_board(shape, seed);
        b.set_known_unique(true);
        for _ in 0..200 {
            while let Some(s) = singles::naked_singles(&b)
                .into_iter()
                .chain(singles::hidden_singles(&b))
                .next()
            {
                b.apply(&s);
            }
            let mut next = None;
            for (i, &t) in techniques.iter().enumerate() {
                for s in find_all(&b, t) {
                    fired[i] += 1;
                    assert!(!s.eliminations.is_empty(), "{}", s.explanation);
                    for &(c, val) in &s.eliminations {
                        assert_ne!(
                            solution.get(c),
                            val,
                            "{shape:?} seed {seed}: {}",
                            s.explanation
                        );
                    }
                    let mut sorted = s.eliminations.clone();
                    sorted.sort();
                    sorted.dedup();
                    assert_eq!(sorted, s.eliminations);
                    next.get_or_insert(s);
                }
            }
            let Some(s) = next.or_else(|| next_step(&b)) else {
                break;
            };
            b.apply(&s);
        }
    }
    fired
}

/// Broken and arbitrary positions — random values (possibly clashing, as
/// long as the board takes them) and random candidates removed, so cells
/// may have none — go through every technique without a panic, and every
/// step found still names only cells and values of the board.
#[test]
fn arbitrary_positions_never_panic() {
    use crate::engine::generate::random::{below, rng_for};
    let mut rng = rng_for(2026);
    for (shape, boards) in [
        (Shape::square(2).unwrap(), 60),
        (Shape::new(2, 3).unwrap(), 60),
        (Shape::CLASSIC, 30),
    ] {
        let (n, cells) = (shape.n(), shape.cells());
        for _ in 0..boards {
            let mut values = vec![None; cells];
            for _ in 0..below(&mut rng, cells / 3) {
                values[below(&mut rng, cells)] = Some(Value::from_index(below(&mut rng, n)));
            }
            let Ok(mut b) = Board::from_values(shape, &values) else {
                continue;
            };
            for _ in 0..below(&mut rng, cells * n / 2) {
                b.remove(below(&mut rng, cells), below(&mut rng, n));
            }
            b.set_known_unique(below(&mut rng, 2) == 1);
            for t in Technique::for_side(n) {
                for s in find_all(&b, t) {
                    for &(c, v) in s.eliminations.iter().chain(&s.placements) {
                        assert!(c < cells && v.index() < n, "{t:?}: {c} {v:?}");
                    }
                }
            }
            let _ = next_step(&b);
        }
    }
}

/// The board's limits cut long technique searches short: on this 49×49 a
/// finned or sashimi jellyfish search takes about two seconds (grouped AIC
/// 50 ms), yet each returns within the 100 ms the game allows once its
/// cancel flag is set (measured: 1–5 ms); a board cancelled before it starts finds nothing,
/// and the path and the traced logic solver report the stop instead of
/// guessing or handing over to the search.
#[test]
fn a_cancelled_search_stops_and_stays_sound() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    let shape = Shape::square(7).unwrap();
    let g = generate(
        &GenerateOptions::new(shape, Level::Easy, 1),
        &Limits::none(),
    )
    .unwrap();
    let mut board = Board::from_puzzle(&g.puzzle).unwrap();
    board.set_known_unique(true);
    // Every technique, cancelled: it stops and what it gives before
    // stopping is as sound as ever (checked against the solution). (This
    // test once timed how soon a cancel landed mid-search; since the fish
    // and wing searches were bounded, every search here ends within a few
    // milliseconds anyway, and a test checks answers, not timings.)
    let raised = Limits::none().with_cancel(Arc::new(AtomicBool::new(true)));
    for t in Technique::for_side(shape.n()) {
        let mut b = board.clone();
        b.set_limits(&raised);
        for step in find_all(&b, t) {
            for &(c, v) in &step.placements {
                assert_eq!(g.solution.get(c), v, "{t:?}: {}", step.explanation);
            }
            for &(c, v) in &step.eliminations {
                assert_ne!(g.solution.get(c), v, "{t:?}: {}", step.explanation);
            }
        }
        assert!(b.stopped(), "{t:?}");
    }
    // Cancelled before it starts.
    let flag = Arc::new(AtomicBool::new(true));
    let limits = Limits::none().with_cancel(flag);
    let mut b = board.clone();
    assert!(next_step(&b).is_some());
    b.set_limits(&limits);
    assert!(b.stopped());
    assert!(next_step(&b).is_none());
    assert!(find_all(&b, Technique::SashimiFish(4)).is_empty());
    assert_eq!(
        full_path(&board, &g.solution, &limits),
        Err(PathError::Stopped(crate::engine::StopReason::Cancelled))
    );
    let r = traced::solve_logic(&g.puzzle, 2, &limits, &mut crate::engine::trace::NoTrace);
    assert_eq!(r.stopped, Some(crate::engine::StopReason::Cancelled));
    assert!(r.witnesses.is_empty());
}

/// A guess states its effect like every step, with the board's symbols.
#[test]
fn a_guess_states_its_effect() {
    let shape = Shape::square(4).unwrap();
    let g = generate(
        &GenerateOptions::new(shape, Level::Easy, 3),
        &Limits::none(),
    )
    .unwrap();
    let b = Board::from_puzzle(&g.puzzle).unwrap();
    let s = guess_step(&b, &g.solution).unwrap();
    let (c, v) = s.placements[0];
    assert!(s.explanation.starts_with("Guess: "), "{}", s.explanation);
    let want = format!(
        " => r{}c{}={}",
        c / 16 + 1,
        c % 16 + 1,
        crate::engine::grid::symbol(16, v.get())
    );
    assert!(s.explanation.ends_with(&want), "{}", s.explanation);
    assert_eq!(Effect::from_explanation(&s.explanation, 16), Ok(s.effect()));
    assert_eq!(s.role_of(c, v), Some(CandidateRole::Placed));
}

/// What a step tells of each candidate and unit: eliminations and
/// placements first, then the strongest listed role, then the pattern.
#[test]
fn roles_resolve_in_order() {
    let (a, b, c, d) = ((0, v(1)), (1, v(2)), (2, v(3)), (3, v(4)));
    let mut s = Step {
        technique: Technique::XChain,
        placements: vec![d],
        eliminations: vec![a],
        highlights: Highlights {
            candidates: vec![a, b, c],
            units: vec![0, 9],
            roles: vec![
                (a.0, a.1, CandidateRole::ChainOn),
                (b.0, b.1, CandidateRole::ChainOff),
                (b.0, b.1, CandidateRole::ChainOn),
            ],
            unit_roles: vec![(9, UnitRole::Cover)],
            ..Highlights::default()
        },
        explanation: "X-Chain: because".to_string(),
    };
    assert_eq!(s.role_of(a.0, a.1), Some(CandidateRole::Eliminated));
    assert_eq!(s.role_of(b.0, b.1), Some(CandidateRole::ChainOn));
    assert_eq!(s.role_of(c.0, c.1), Some(CandidateRole::Pattern));
    assert_eq!(s.role_of(d.0, d.1), Some(CandidateRole::Placed));
    assert_eq!(s.role_of(4, v(1)), None);
    assert_eq!(s.unit_role(0), Some(UnitRole::Involved));
    assert_eq!(s.unit_role(9), Some(UnitRole::Cover));
    assert_eq!(s.unit_role(18), None);
    assert_eq!(
        s.candidate_roles(),
        vec![
            (a.0, a.1, CandidateRole::Eliminated),
            (b.0, b.1, CandidateRole::ChainOn),
            (c.0, c.1, CandidateRole::Pattern),
            (d.0, d.1, CandidateRole::Placed),
        ]
    );
    // Made whole: every candidate and unit has a role listed, and the
    // text ends with the effect, once.
    s.finish(9);
    s.finish(9);
    assert!(
        s.highlights
            .roles
            .contains(&(c.0, c.1, CandidateRole::Pattern))
    );
    assert!(s.highlights.unit_roles.contains(&(0, UnitRole::Involved)));
    assert_eq!(s.explanation, "X-Chain: because => r1c4=4, r1c1<>1");
}
