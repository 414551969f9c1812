//! The hardest shared puzzles are solved by logic to the end: no guess, and
//! every step (forcing nets included) agrees with the solution. By default
//! a sample of the forum's hardest (SE 11+) and top1465's hardest; the
//! wider sweeps are ignored tests:
//!
//! ```text
//! cargo test --release --test nets -- --ignored --nocapture
//! ```
//!
//! (`DEKADOKU_NETS_EVERY=K` takes every K-th puzzle of the forum file in
//! the ignored sweep, default 20: about 2,400 puzzles.)
#![allow(clippy::unwrap_used)]

mod common;

use dekadoku::engine::grade::grade_with;
use dekadoku::engine::logic::{Board, Technique, full_path};
use dekadoku::engine::{Limits, NoTrace, Outcome, Puzzle, solve};

/// Walks `p` to its solution, checking every step; returns the hardest
/// step's technique and the SE-style rating.
fn walk(name: &str, i: usize, p: &Puzzle) -> (Technique, f32) {
    let Outcome::Solved(sol) = solve(p, &Limits::none(), &mut NoTrace) else {
        panic!("{name} {i}: not unique")
    };
    let board = Board::from_puzzle(p).unwrap();
    let path = full_path(&board, &sol, &Limits::none()).unwrap();
    let mut b = board.clone();
    for s in &path {
        assert_ne!(
            s.technique,
            Technique::Guess,
            "{name} {i}: {}",
            s.explanation
        );
        for &(c, v) in &s.placements {
            assert_eq!(sol.get(c), v, "{name} {i}: {}", s.explanation);
        }
        for &(c, v) in &s.eliminations {
            assert_ne!(sol.get(c), v, "{name} {i}: {}", s.explanation);
        }
        b.apply(s);
    }
    assert!(b.is_solved(), "{name} {i}");
    let g = grade_with(p, &sol).unwrap();
    assert_eq!(g.guesses, 0, "{name} {i}");
    // The grade's path (of a board known to be unique), walked beside the
    // rating walk on another thread with which it shares the nets'
    // answers: step for step the path walked alone.
    let mut unique = board.clone();
    unique.set_known_unique(true);
    let one = full_path(&unique, &sol, &Limits::none()).unwrap();
    assert!(g.path == one, "{name} {i}: the grade's path differs");
    (g.hardest.unwrap_or(Technique::FullHouse), g.rating)
}

#[test]
fn forum_hardest_sample_needs_no_guess() {
    let name = "puzzles5_forum_hardest_1905_11+";
    let puzzles = common::sample(name, 4000, 13);
    for (i, p) in &puzzles {
        let (t, r) = walk(name, *i, p);
        assert!(
            matches!(
                t,
                Technique::NestedForcingChain(_) | Technique::DynamicForcingChainPlus
            ),
            "{name} {i}: {t:?}"
        );
        assert!(r >= 9.0, "{name} {i}: {r}");
    }
}

#[test]
fn top1465_hardest_need_no_guess() {
    // The first puzzles of top1465 are its hardest.
    let name = "puzzles3_magictour_top1465";
    for (i, p) in common::sample(name, 1, 12) {
        walk(name, i, &p);
    }
}

#[test]
#[ignore = "slow sweep: cargo test --release --test nets -- --ignored --nocapture"]
fn forum_hardest_sweep() {
    let name = "puzzles5_forum_hardest_1905_11+";
    let every = std::env::var("DEKADOKU_NETS_EVERY")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let mut bands = std::collections::BTreeMap::new();
    let puzzles = common::sample(name, every, usize::MAX);
    for (i, p) in &puzzles {
        let (_, r) = walk(name, *i, p);
        *bands.entry((r * 10.0).round() as i32).or_insert(0usize) += 1;
    }
    println!("{} puzzles; rating (tenths): count", puzzles.len());
    for (r, k) in bands {
        println!("  {:.1}: {k}", r as f32 / 10.0);
    }
}

#[test]
#[ignore = "slow sweep: cargo test --release --test nets -- --ignored --nocapture"]
fn top1465_sweep() {
    let name = "puzzles3_magictour_top1465";
    for (i, p) in common::sample(name, 1, usize::MAX) {
        walk(name, i, &p);
    }
}
