//! The big k-sudoku instances of ../shared/puzzles-public/large: each one is
//! solved and the solution checked against the rules and the clues.
//!
//! Five instances are quasigroup-completion-hard (about 60 % givens, at the
//! phase transition): the propagation solver does not finish them within
//! 60 s on this machine (64-1, 64-2, 81-1, 100-1, 225-1; published notes in
//! ../shared/notes report CaDiCaL needs 27–41 s on 64-1 and times out on
//! 225-1). Their tests are `#[ignore]`d; run them with
//! `cargo test --release --test large -- --ignored` or time them with
//! `cargo run --release -- solve --first --timeout 600 FILE`. The SAT backend
//! (issue 7) is the planned cover for them.
#![allow(clippy::unwrap_used)]

mod common;

use std::time::Duration;

use dekadoku::engine::{Limits, NoTrace, Solver};

fn solve_large(name: &str, n: usize, unique: bool) {
    let Some(path) = common::shared(&format!("large/{name}")) else {
        return;
    };
    let puzzles = common::read_all(&path);
    assert_eq!(puzzles.len(), 1, "{name}");
    let p = &puzzles[0];
    assert_eq!(p.shape().n(), n, "{name}");
    let mut solver = Solver::new();
    // Generous guard against a hang; the answer, not the time, is tested.
    let limits = Limits::timeout(Duration::from_secs(600));
    let limit = if unique { 2 } else { 1 };
    let r = solver.run(p, limit, &limits, &mut NoTrace);
    assert!(r.conflicts.is_empty(), "{name}: {:?}", r.conflicts);
    assert_eq!(r.stopped, None, "{name}: stopped");
    let g = r
        .witnesses
        .first()
        .unwrap_or_else(|| panic!("{name}: no solution"));
    assert!(
        p.is_solved_by(g),
        "{name}: solution breaks the rules or clues"
    );
    if unique {
        assert_eq!((r.count, r.exhausted), (1, true), "{name}: not unique");
    }
}

#[test]
fn n4() {
    solve_large("rkkautsar_sudoku-4-1.txt", 4, false);
}

#[test]
fn n16() {
    solve_large("rkkautsar_sudoku-16-1.txt", 16, true);
}

#[test]
fn n25() {
    solve_large("rkkautsar_sudoku-25-1.txt", 25, true);
}

#[test]
fn n144() {
    solve_large("rkkautsar_sudoku-144-1.txt", 144, true);
}

#[test]
fn n400() {
    solve_large("rkkautsar_sudoku-400-1.txt", 400, true);
}

#[test]
#[ignore = "QWH-hard: not solved within 60 s by propagation (see module docs)"]
fn n64_1() {
    solve_large("rkkautsar_sudoku-64-1.txt", 64, false);
}

#[test]
#[ignore = "QWH-hard: not solved within 60 s by propagation (see module docs)"]
fn n64_2() {
    solve_large("rkkautsar_sudoku-64-2.txt", 64, false);
}

#[test]
#[ignore = "QWH-hard: not solved within 60 s by propagation (see module docs)"]
fn n81() {
    solve_large("rkkautsar_sudoku-81-1.txt", 81, false);
}

#[test]
#[ignore = "QWH-hard: not solved within 60 s by propagation (see module docs)"]
fn n100() {
    solve_large("rkkautsar_sudoku-100-1.txt", 100, false);
}

#[test]
#[ignore = "QWH-hard: not solved within 60 s by propagation (see module docs)"]
fn n225() {
    solve_large("rkkautsar_sudoku-225-1.txt", 225, false);
}
