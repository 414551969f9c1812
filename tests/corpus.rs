//! Every puzzle of the public 9×9 corpora in ../shared is solved, and each
//! solution is checked against the rules and the clues; proper puzzles are
//! unique, the multi-solution benchmark gives two distinct valid witnesses.
//! Both 9×9 paths run on every puzzle: the dedicated kernel (what
//! `Solver::new` uses without a trace) and the propagation solver.
#![allow(clippy::unwrap_used)]

mod common;

use dekadoku::engine::{Limits, NoTrace, Outcome, Solver};

fn all_unique(name: &str, expected: usize) {
    let Some(path) = common::shared(name) else {
        return;
    };
    let puzzles = common::read_all(&path);
    assert_eq!(puzzles.len(), expected, "{name}: puzzle count");
    for mut solver in [Solver::new(), Solver::propagation_only()] {
        for (i, p) in puzzles.iter().enumerate() {
            match solver.solve(p, &Limits::none(), &mut NoTrace) {
                Outcome::Solved(g) => assert!(
                    p.is_solved_by(&g),
                    "{name} puzzle {}: solution breaks the rules or the clues ({solver:?})",
                    i + 1
                ),
                other => panic!("{name} puzzle {}: {other:?} ({solver:?})", i + 1),
            }
        }
    }
}

#[test]
fn seventeen_clue_all_49158() {
    all_unique("puzzles2_17_clue", 49_158);
}

#[test]
fn magictour_top1465() {
    all_unique("puzzles3_magictour_top1465", 1465);
}

#[test]
fn forum_hardest_11_plus() {
    all_unique("puzzles5_forum_hardest_1905_11+", 48_766);
}

#[test]
fn norvig_sets() {
    all_unique("norvig_top95.txt", 95);
    all_unique("norvig_hardest.txt", 11);
    all_unique("norvig_easy50.txt", 50);
}

#[test]
fn kaggle_samples() {
    all_unique("kaggle_bryanpark_first20k.csv", 20_000);
    all_unique("radcliffe_3m_sample.csv", 7034);
}

#[test]
fn serg_benchmark_has_two_witnesses_each() {
    let Some(path) = common::shared("puzzles7_serg_benchmark") else {
        return;
    };
    let puzzles = common::read_all(&path);
    assert_eq!(puzzles.len(), 10_000);
    for mut solver in [Solver::new(), Solver::propagation_only()] {
        for (i, p) in puzzles.iter().enumerate() {
            match solver.solve(p, &Limits::none(), &mut NoTrace) {
                Outcome::Multiple(a, b) => {
                    assert_ne!(a, b, "serg puzzle {}: witnesses equal", i + 1);
                    assert!(
                        p.is_solved_by(&a) && p.is_solved_by(&b),
                        "serg puzzle {}",
                        i + 1
                    );
                }
                other => panic!("serg puzzle {}: {other:?}", i + 1),
            }
        }
    }
}
