//! The 9×9 kernel on the public corpora and against the general solver
//! (moved here from `tests/nine.rs` when the kernel became crate-internal).
//!
//! Answers only: every solution is checked against the rules and the clues
//! by a small checker written here, counts are compared with
//! [`Search`], and the limits are exercised.

use crate::test_skip as common;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::{NineResult, solve_nine};
use crate::engine::solve::propagate::Search;
use crate::engine::{Limits, NoTrace, Puzzle, Shape, StopReason};

/// True when `g` fills every cell with 1..=9, each row, column and box
/// holds every digit once, and every clue of `p` is kept.
fn valid_solution(p: &[u8; 81], g: &[u8; 81]) -> bool {
    if g.iter().any(|&v| !(1..=9).contains(&v)) {
        return false;
    }
    if p.iter().zip(g).any(|(&c, &v)| c != 0 && c != v) {
        return false;
    }
    for u in 0..9 {
        let (mut row, mut col, mut bx) = (0u16, 0u16, 0u16);
        for k in 0..9 {
            row |= 1 << g[u * 9 + k];
            col |= 1 << g[k * 9 + u];
            bx |= 1 << g[(u / 3 * 3 + k / 3) * 9 + u % 3 * 3 + k % 3];
        }
        if row != 0x3FE || col != 0x3FE || bx != 0x3FE {
            return false;
        }
    }
    true
}

/// Checks the reported solutions of `r` for puzzle `p`.
fn check_witnesses(p: &[u8; 81], r: &NineResult) {
    let shown = r.count.min(2) as usize;
    for g in &r.solutions[..shown] {
        assert!(valid_solution(p, g), "invalid solution for {}", line(p));
    }
    if shown == 2 {
        assert_ne!(r.solutions[0], r.solutions[1], "same witness twice");
    }
}

fn parse(l: &str) -> Option<[u8; 81]> {
    let l = l.trim();
    if l.starts_with('#') || l.len() < 81 {
        return None;
    }
    let mut g = [0u8; 81];
    for (i, ch) in l.bytes().take(81).enumerate() {
        g[i] = match ch {
            b'1'..=b'9' => ch - b'0',
            _ => 0,
        };
    }
    Some(g)
}

fn line(p: &[u8; 81]) -> String {
    p.iter()
        .map(|&v| if v == 0 { '.' } else { (b'0' + v) as char })
        .collect()
}

/// The first `max` puzzles of a shared file, or `None` when it is absent
/// (a failure under CI: `common::skip_or_fail`).
fn load(name: &str, max: usize) -> Option<Vec<[u8; 81]>> {
    let path = common::shared(name)?;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some(text.lines().filter_map(parse).take(max).collect())
}

fn general(p: &[u8; 81], limit: u64) -> (u64, bool) {
    let nums: Vec<usize> = p.iter().map(|&v| v as usize).collect();
    let Ok(puzzle) = Puzzle::from_numbers(Shape::CLASSIC, &nums) else {
        panic!("bad puzzle {}", line(p));
    };
    let r = Search::<u16>::new(Shape::CLASSIC).run(&puzzle, limit, &Limits::none(), &mut NoTrace);
    (r.count, r.exhausted)
}

fn check_proper(name: &str) {
    let Some(ps) = load(name, 2000) else { return };
    assert!(ps.len() >= 1000, "{name}: only {} puzzles", ps.len());
    for p in &ps {
        let r = solve_nine(p, 2, &Limits::none());
        assert_eq!(r.count, 1, "{name}: {}", line(p));
        assert!(r.exhausted && !r.givens_conflict && r.stopped.is_none());
        check_witnesses(p, &r);
    }
    for p in ps.iter().take(100) {
        assert_eq!(general(p, 2), (1, true), "{name}: {}", line(p));
    }
}

#[test]
fn seventeen_clue_unique() {
    check_proper("puzzles2_17_clue");
}

#[test]
fn magictour_unique() {
    check_proper("puzzles3_magictour_top1465");
}

#[test]
fn forum_hardest_unique() {
    check_proper("puzzles5_forum_hardest_1905_11+");
}

#[test]
fn serg_has_two_witnesses() {
    let Some(ps) = load("puzzles7_serg_benchmark", 2000) else {
        return;
    };
    assert!(ps.len() >= 1000);
    for p in &ps {
        let r = solve_nine(p, 2, &Limits::none());
        assert_eq!(r.count, 2, "{}", line(p));
        assert!(!r.exhausted && !r.givens_conflict && r.stopped.is_none());
        check_witnesses(p, &r);
    }
    for p in ps.iter().take(200) {
        let exact = solve_nine(p, 1000, &Limits::none());
        assert_eq!(
            general(p, 1000),
            (exact.count, exact.exhausted),
            "{}",
            line(p)
        );
    }
}

/// The 20 cells sharing a row, column or box with `c`.
fn peers(c: usize) -> impl Iterator<Item = usize> {
    let (r, k) = (c / 9, c % 9);
    (0..81).filter(move |&o| {
        o != c && (o / 9 == r || o % 9 == k || (o / 27 == c / 27 && o % 9 / 3 == k / 3))
    })
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random solved grid: relabel digits, rows within bands, bands, columns
/// within stacks and stacks of a fixed valid grid, and maybe transpose.
fn random_grid(rng: &mut Rng) -> [u8; 81] {
    let mut base = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            base[r * 9 + c] = ((r % 3 * 3 + r / 3 + c) % 9) as u8 + 1;
        }
    }
    let mut perm = |n: usize| {
        let mut v: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            v.swap(i, rng.below(i + 1));
        }
        v
    };
    let digits = perm(9);
    let (bands, stacks) = (perm(3), perm(3));
    let rows: Vec<usize> = (0..9).map(|i| bands[i / 3] * 3 + (i % 3)).collect();
    let cols: Vec<usize> = (0..9).map(|i| stacks[i / 3] * 3 + (i % 3)).collect();
    let (ri, ci) = (perm(3), perm(3));
    let transpose = rng.below(2) == 1;
    let mut g = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let rr = rows[r / 3 * 3 + ri[r % 3]];
            let cc = cols[c / 3 * 3 + ci[c % 3]];
            let (rr, cc) = if transpose { (cc, rr) } else { (rr, cc) };
            g[r * 9 + c] = digits[base[rr * 9 + cc] as usize - 1] as u8 + 1;
        }
    }
    assert!(valid_solution(&[0; 81], &g));
    g
}

#[test]
fn random_sparse_puzzles_agree_with_general_solver() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut multi, mut none) = (0, 0);
    for i in 0..300 {
        let g = random_grid(&mut rng);
        let mut p = [0u8; 81];
        let clues = 30 + rng.below(20);
        for _ in 0..clues {
            let c = rng.below(81);
            p[c] = g[c];
        }
        let r = solve_nine(&p, 50, &Limits::none());
        assert!(!r.givens_conflict && r.stopped.is_none());
        check_witnesses(&p, &r);
        assert!(r.count >= 1, "planted solution lost: {}", line(&p));
        assert_eq!(general(&p, 50), (r.count, r.exhausted), "{}", line(&p));
        if r.count > 2 && r.exhausted {
            multi += 1;
        }
        // Dig a minimal proper puzzle, then put a wrong digit that
        // breaks no rule into an empty cell: no solution, and usually only
        // a search can tell.
        if i % 3 != 0 {
            continue;
        }
        let mut q = g;
        let mut order: Vec<usize> = (0..81).collect();
        for k in (1..81).rev() {
            order.swap(k, rng.below(k + 1));
        }
        for c in order {
            q[c] = 0;
            if solve_nine(&q, 2, &Limits::none()).count != 1 {
                q[c] = g[c];
            }
        }
        assert_eq!(general(&q, 2), (1, true), "{}", line(&q));
        let wrong: Vec<(usize, u8)> = (0..81)
            .filter(|&c| q[c] == 0)
            .flat_map(|c| (1..=9).map(move |v| (c, v)))
            .filter(|&(c, v)| v != g[c] && !peers(c).any(|o| q[o] == v))
            .collect();
        for (c, v) in wrong {
            q[c] = v;
            let r = solve_nine(&q, 50, &Limits::none());
            assert!(!r.givens_conflict);
            assert_eq!((r.count, r.exhausted), (0, true), "{}", line(&q));
            if r.nodes > 0 {
                none += 1;
                if none % 8 == 0 {
                    assert_eq!(general(&q, 50), (0, true), "{}", line(&q));
                }
            }
            q[c] = 0;
        }
    }
    assert!(multi > 50, "too few multi-solution cases: {multi}");
    println!("{multi} multi, {none} unsolvable");
    assert!(
        none > 100,
        "too few unsolvable cases found by search: {none}"
    );
}

#[test]
fn counting_continues_past_the_first_solutions() {
    let mut rng = Rng(42);
    for _ in 0..40 {
        let g = random_grid(&mut rng);
        let mut p = g;
        for _ in 0..60 {
            p[rng.below(81)] = 0;
        }
        let exact = solve_nine(&p, u64::MAX, &Limits::none());
        assert!(exact.exhausted);
        for limit in 1..=exact.count.min(5) {
            let r = solve_nine(&p, limit, &Limits::none());
            assert_eq!(r.count, limit);
            assert!(!r.exhausted);
            check_witnesses(&p, &r);
        }
        let r = solve_nine(&p, exact.count + 1, &Limits::none());
        assert_eq!((r.count, r.exhausted), (exact.count, true));
    }
}

#[test]
fn hard_puzzle_is_stopped_by_limits() {
    // A hard puzzle that needs many guesses.
    let Some(p) =
        parse("1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..")
    else {
        panic!("bad literal");
    };
    let full = solve_nine(&p, 2, &Limits::none());
    assert_eq!(full.count, 1);
    assert!(full.nodes > 1);

    let r = solve_nine(&p, 2, &Limits::nodes(1));
    assert_eq!(r.stopped, Some(StopReason::NodeBudget));
    assert!(!r.exhausted);
    assert!(r.nodes <= 1);

    let flag = Arc::new(AtomicBool::new(true));
    let r = solve_nine(&p, 2, &Limits::none().with_cancel(flag));
    assert_eq!(r.stopped, Some(StopReason::Cancelled));
    assert!(!r.exhausted);

    let past = Limits {
        deadline: Some(Instant::now()),
        ..Limits::default()
    };
    let r = solve_nine(&p, 2, &past);
    assert_eq!(r.stopped, Some(StopReason::Deadline));
}

#[test]
fn empty_grid_counts_to_the_limit() {
    let p = [0u8; 81];
    let r = solve_nine(&p, 3, &Limits::none());
    assert_eq!(r.count, 3);
    assert!(!r.exhausted);
    check_witnesses(&p, &r);
}

#[test]
fn full_grid_has_one_solution() {
    let g = random_grid(&mut Rng(7));
    let r = solve_nine(&g, 2, &Limits::none());
    assert_eq!((r.count, r.exhausted, r.nodes), (1, true, 0));
    assert_eq!(r.solutions[0], g);
}
