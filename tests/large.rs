//! The big k-sudoku instances of ../shared/puzzles-public/large: each one is
//! solved and the solution checked against the rules and the clues.
//!
//! Five instances are quasigroup-completion-hard (about 60 % givens, at the
//! phase transition). The propagation solver finds a solution of 100-1 in
//! about 2 s but does not finish the other four within 60 s on this machine
//! (64-1, 64-2, 81-1, 225-1; published notes in
//! ../shared/notes report CaDiCaL needs 27–41 s on 64-1 and times out on
//! 225-1). Their tests are `#[ignore]`d; run them with
//! `cargo test --release --test large -- --ignored`. The bench that covers
//! them is `cargo run --release -- bench --first --timeout 600
//! ../shared/puzzles-public/large/*.txt`, which times every instance and
//! counts the ones the timeout stops. The SAT backend solves 64-2 and
//! 81-1 in about a second (tests below); 64-1 takes it one to two
//! minutes and 225-1 longer.
#![allow(clippy::unwrap_used)]

mod common;

use std::time::Duration;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use dekadoku::engine::{Backend, Limits, Solver, StopReason};

fn solve_large(name: &str, n: usize, unique: bool) {
    solve_large_on(Backend::Propagation, name, n, unique);
}

fn solve_large_on(backend: Backend, name: &str, n: usize, unique: bool) {
    let Some(path) = common::shared(&format!("large/{name}")) else {
        return;
    };
    let puzzles = common::read_all(&path);
    assert_eq!(puzzles.len(), 1, "{name}");
    let p = &puzzles[0];
    assert_eq!(p.shape().n(), n, "{name}");
    let mut solver = Solver::with_backend(backend);
    // Generous guard against a hang; the answer, not the time, is tested.
    let limits = Limits::timeout(Duration::from_secs(600));
    let limit = if unique { 2 } else { 1 };
    let r = solver.count(p, limit, &limits);
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
        assert_eq!((r.solutions, r.exact), (1, true), "{name}: not unique");
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
fn n100() {
    solve_large("rkkautsar_sudoku-100-1.txt", 100, false);
}

#[test]
#[ignore = "QWH-hard: not solved within 60 s by propagation (see module docs)"]
fn n225() {
    solve_large("rkkautsar_sudoku-225-1.txt", 225, false);
}

/// Two of the QWH-hard instances the propagation solver does not finish
/// are solved by the SAT backend (CaDiCaL on the compact encoding) in
/// about a second each, and 81-1 is proved unique; 64-1 and 225-1 still
/// take it minutes.
#[test]
fn n64_2_on_sat() {
    solve_large_on(Backend::Sat, "rkkautsar_sudoku-64-2.txt", 64, false);
}

#[test]
fn n81_on_sat() {
    solve_large_on(Backend::Sat, "rkkautsar_sudoku-81-1.txt", 81, true);
}

#[test]
fn n100_on_sat() {
    solve_large_on(Backend::Sat, "rkkautsar_sudoku-100-1.txt", 100, true);
}

/// The default (`Backend::Auto`) answers the instances the propagation
/// solver cannot finish as SAT does: its race lets SAT win them. 64-2
/// has more than one solution, and the default says so.
#[test]
fn hard_instances_on_the_default() {
    solve_large_on(Backend::Auto, "rkkautsar_sudoku-81-1.txt", 81, true);
    solve_large_on(Backend::Auto, "rkkautsar_sudoku-100-1.txt", 100, true);
    let Some(path) = common::shared("large/rkkautsar_sudoku-64-2.txt") else {
        return;
    };
    let p = &common::read_all(&path)[0];
    let limits = Limits::timeout(Duration::from_secs(600));
    let mut auto = Solver::new();
    let r = auto.count(p, 2, &limits);
    assert_eq!((r.solutions, r.stopped), (2, None), "64-2");
    assert!(r.witnesses.iter().all(|w| p.is_solved_by(w)), "64-2");
    let sat = Solver::with_backend(Backend::Sat).count(p, 2, &limits);
    assert_eq!((sat.solutions, sat.exact), (r.solutions, r.exact), "64-2");
}

/// Runs `limits` on a large instance and returns how the search stopped and
/// how long it ran after `after` (the moment the cancel flag was raised or
/// the deadline passed).
fn stop_large(
    name: &str,
    limits: Limits,
    cancel: Option<(Arc<AtomicBool>, Duration)>,
) -> Option<(Option<StopReason>, Duration)> {
    let (r, late) = common::stop_on_large(Backend::Propagation, 2, name, limits, cancel)?;
    Some((r.stopped, late))
}

/// A cancel flag raised from another thread stops the search on hard
/// instances of several sizes, deep in the search (225×225, 64×64). (The
/// 400×400 used to be here for a cancel during the root propagation; since
/// the givens are placed all at once it is solved in about 0.1 s, before
/// any stop.) The latency is printed
/// for the record (tests check answers, not timings; a search that never
/// looked at the flag would not end).
#[test]
fn cancel_flag_stops_large_searches() {
    for (name, after) in [
        ("rkkautsar_sudoku-225-1.txt", 500),
        ("rkkautsar_sudoku-64-1.txt", 300),
    ] {
        let flag = Arc::new(AtomicBool::new(false));
        let limits = Limits::none().with_cancel(Arc::clone(&flag));
        let Some((stopped, late)) =
            stop_large(name, limits, Some((flag, Duration::from_millis(after))))
        else {
            return;
        };
        println!("{name}: cancel honoured {late:?} after the flag");
        assert_eq!(stopped, Some(StopReason::Cancelled), "{name}");
    }
}

/// A deadline stops the same searches, with the outcome saying so.
#[test]
fn deadline_stops_large_searches() {
    for name in ["rkkautsar_sudoku-225-1.txt", "rkkautsar_sudoku-64-1.txt"] {
        let limits = Limits::timeout(Duration::from_millis(300));
        let Some((stopped, late)) = stop_large(name, limits, None) else {
            return;
        };
        println!("{name}: deadline honoured {late:?} after it passed");
        assert_eq!(stopped, Some(StopReason::Deadline), "{name}");
    }
}

/// The default's race stops on a cancel and on a deadline at 225×225
/// (while SAT loads its 3.5 million clauses, and later) and at 64×64,
/// and says which stopped it; both racers are joined before it returns.
#[test]
fn the_default_stops_on_cancel_and_deadline() {
    for (name, after) in [
        ("rkkautsar_sudoku-225-1.txt", 500),
        ("rkkautsar_sudoku-225-1.txt", 3000),
        ("rkkautsar_sudoku-64-1.txt", 400),
    ] {
        let flag = Arc::new(AtomicBool::new(false));
        let limits = Limits::none().with_cancel(Arc::clone(&flag));
        let cancel = Some((flag, Duration::from_millis(after)));
        let Some((r, late)) = common::stop_on_large(Backend::Auto, 2, name, limits, cancel) else {
            return;
        };
        println!("{name}: cancel honoured {late:?} after the flag");
        assert_eq!(r.stopped, Some(StopReason::Cancelled), "{name}");
        assert!(!r.exact, "{name}");
    }
    let limits = Limits::timeout(Duration::from_millis(400));
    let name = "rkkautsar_sudoku-64-1.txt";
    if let Some((r, late)) = common::stop_on_large(Backend::Auto, 2, name, limits, None) {
        println!("{name}: deadline honoured {late:?} after it passed");
        assert_eq!(r.stopped, Some(StopReason::Deadline), "{name}");
    }
}
