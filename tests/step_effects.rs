//! Every step of whole logic paths states its effect: on every puzzle of
//! magictour's top1465 (`../shared/puzzles-public`) and on 16×16 puzzles
//! (the shared one and a sample of the bundled ones), each step's
//! explanation starts with its technique's name and ends with a ` => `
//! effect that reads back ([`Effect::from_explanation`]) as exactly the
//! step's placements and eliminations; every highlighted candidate and
//! unit has a role. The paths are walked on two threads. The README names
//! every technique as the steps do.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use dekadoku::engine::logic::{Board, Effect, Step, Technique, full_path};
use dekadoku::engine::solve::{Outcome, solve};
use dekadoku::engine::trace::NoTrace;
use dekadoku::engine::{Limits, Puzzle, Solver};

/// What is wrong with step `s` of a path on an n×n board, if anything.
fn fault(s: &Step, n: usize) -> Option<String> {
    let prefix = format!("{}: ", s.technique.name());
    if !s.explanation.starts_with(&prefix) {
        return Some(format!("does not start with {prefix:?}"));
    }
    match Effect::from_explanation(&s.explanation, n) {
        Ok(e) if e == s.effect() && !e.is_empty() => {}
        Ok(e) => return Some(format!("states {e:?}, does {:?}", s.effect())),
        Err(e) => return Some(e.to_string()),
    }
    let h = &s.highlights;
    if let Some(&(c, v)) = h
        .candidates
        .iter()
        .find(|&&(c, v)| s.role_of(c, v).is_none())
    {
        return Some(format!("candidate {c}/{v:?} has no role"));
    }
    if let Some(&u) = h.units.iter().find(|&&u| s.unit_role(u).is_none()) {
        return Some(format!("unit {u} has no role"));
    }
    None
}

/// Walks the logic path of every puzzle on two threads; returns the steps
/// of each technique met and the faults found (the first few).
fn walk_all(puzzles: &[Puzzle]) -> (BTreeMap<&'static str, usize>, Vec<String>) {
    let next = AtomicUsize::new(0);
    let met = Mutex::new(BTreeMap::new());
    let faults = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(p) = puzzles.get(i) else {
                        break;
                    };
                    let n = p.shape().n();
                    let Outcome::Solved(sol) = solve(p, &Limits::none(), &mut NoTrace) else {
                        panic!("puzzle {i} has no solution");
                    };
                    let unique = Solver::default().count(p, 2, &Limits::none()).solutions == 1;
                    let mut b = Board::from_puzzle(p).unwrap();
                    b.set_known_unique(unique);
                    let path = full_path(&b, &sol, &Limits::none()).unwrap();
                    let mut here = Vec::new();
                    for s in &path {
                        if let Some(f) = fault(s, n) {
                            here.push(format!("puzzle {i}: {f}: {}", s.explanation));
                        }
                    }
                    let mut m = met.lock().unwrap();
                    for s in &path {
                        *m.entry(s.technique.name()).or_insert(0) += 1;
                    }
                    faults.lock().unwrap().extend(here);
                }
            });
        }
    });
    (met.into_inner().unwrap(), faults.into_inner().unwrap())
}

fn check(what: &str, puzzles: &[Puzzle]) -> BTreeMap<&'static str, usize> {
    let (met, faults) = walk_all(puzzles);
    let steps: usize = met.values().sum();
    println!("{what}: {} puzzles, {steps} steps: {met:?}", puzzles.len());
    assert!(
        faults.is_empty(),
        "{what}: {} faults:\n{}",
        faults.len(),
        faults[..faults.len().min(20)].join("\n")
    );
    met
}

#[test]
fn every_step_of_top1465_states_its_effect() {
    let Some(path) = common::shared("puzzles3_magictour_top1465") else {
        return;
    };
    let puzzles = common::read_all(&path);
    assert_eq!(puzzles.len(), 1465);
    let met = check("top1465", &puzzles);
    // The path meets the hard families too (fish, chains, ALSs, forcing).
    for t in [
        "X-Wing",
        "Finned X-Wing",
        "Discontinuous Nice Loop",
        "ALS-XZ",
        "Forcing Chain",
    ] {
        assert!(met.contains_key(t), "{t} never met");
    }
}

#[test]
fn every_step_of_16x16_paths_states_its_effect() {
    let Some(path) = common::shared("large/rkkautsar_sudoku-16-1.txt") else {
        return;
    };
    let mut puzzles = common::read_all(&path);
    // A sample of the bundled 16×16 puzzles (made by our generator): the
    // first five of each level.
    let bundled = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    for level in ["easy", "medium", "hard", "expert"] {
        let all = common::read_all(&bundled.join(format!("16x16-{level}.txt")));
        puzzles.extend(all.into_iter().take(5));
    }
    assert!(puzzles.iter().all(|p| p.shape().n() == 16));
    check("16x16", &puzzles);
}

/// The README lists every technique by the name the steps use.
#[test]
fn the_readme_names_every_technique() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let flat = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let missing: Vec<&str> = Technique::ALL
        .into_iter()
        .chain(Technique::big_fish(16))
        .chain([Technique::Guess])
        .map(Technique::name)
        .filter(|name| !flat.contains(name))
        .collect();
    assert!(missing.is_empty(), "README.md lacks {missing:?}");
}
