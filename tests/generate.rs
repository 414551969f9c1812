//! The generator: unique puzzles that match their solutions, symmetry,
//! determinism, clue targets, full grids for every box shape, prompt
//! cancellation, and the bundled collections.

#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use dekadoku::engine::generate::{
    BUNDLED_SIZES, GenerateOptions, Generated, Symmetry, bundled, clue_range, full_grid, generate,
    random::rng_for,
};
use dekadoku::engine::{Level, Limits, Puzzle, Shape, Solver, StopReason};

/// Solution count up to 2 on the propagation solver (never the 9×9 kernel
/// the generator uses for classic grids): an independent check.
fn independent_count(p: &Puzzle) -> (u64, bool) {
    let c = Solver::propagation_only().count(p, 2, &Limits::none());
    assert!(c.stopped.is_none() && c.conflicts.is_empty());
    (c.solutions, c.exact)
}

/// Everything a generated puzzle promises.
fn check(g: &Generated, opts: &GenerateOptions) {
    let what = format!(
        "{} {} {} seed {}",
        opts.shape, opts.level, opts.symmetry, opts.seed
    );
    let p = &g.puzzle;
    assert_eq!(p.shape(), opts.shape, "{what}");
    assert_eq!(independent_count(p), (1, true), "{what}: not unique");
    assert!(g.solution.is_valid(), "{what}");
    assert!(
        p.is_solved_by(&g.solution),
        "{what}: solution misses a clue"
    );
    let solved =
        Solver::propagation_only().solve(p, &Limits::none(), &mut dekadoku::engine::NoTrace);
    assert_eq!(solved.solution(), Some(&g.solution), "{what}");
    assert_eq!(g.clues, p.clue_count(), "{what}");
    assert_eq!((g.seed, g.level), (opts.seed, opts.level), "{what}");
    let (lo, hi) = opts.clue_target();
    assert!(
        (lo..=hi).contains(&g.clues),
        "{what}: {} clues, want {lo}-{hi}",
        g.clues
    );
    assert_symmetric(p, opts.symmetry, &what);
}

fn assert_symmetric(p: &Puzzle, symmetry: Symmetry, what: &str) {
    let n = p.shape().n();
    for i in 0..n * n {
        if p.get(i).is_some() {
            for (r, c) in symmetry.orbit(n, i / n, i % n) {
                assert!(
                    p.get(r * n + c).is_some(),
                    "{what}: clue {i} without r{r}c{c}"
                );
            }
        }
    }
}

#[test]
fn every_bundled_size_makes_unique_puzzles_on_target() {
    for shape in BUNDLED_SIZES {
        let levels: &[Level] = if shape.n() > 16 {
            &[Level::Easy, Level::Hard]
        } else {
            &[Level::Easy, Level::Medium, Level::Hard, Level::Expert]
        };
        for &level in levels {
            for (seed, symmetry) in [(1, Symmetry::None), (2, Symmetry::Rotate180)] {
                let mut opts = GenerateOptions::new(shape, level, seed);
                opts.symmetry = symmetry;
                let g = generate(&opts, &Limits::none()).unwrap();
                check(&g, &opts);
            }
        }
    }
}

#[test]
fn rectangular_boxes_either_way_round() {
    for (r, c) in [(3, 2), (4, 3), (2, 4), (4, 2)] {
        let shape = Shape::new(r, c).unwrap();
        for level in [Level::Easy, Level::Hard] {
            let mut opts = GenerateOptions::new(shape, level, 11);
            opts.symmetry = Symmetry::Rotate180;
            check(&generate(&opts, &Limits::none()).unwrap(), &opts);
        }
    }
}

#[test]
fn large_boards_dig_to_unique_symmetric_puzzles_in_their_range() {
    // 36×36 (searched grid), 49×49 and a rectangular 5×7 = 35 (pattern grid
    // with cycle swaps above 36 only for the square 49), with symmetry.
    for (shape, symmetry) in [
        (Shape::square(6).unwrap(), Symmetry::Rotate180),
        (Shape::square(7).unwrap(), Symmetry::Rotate90),
        (Shape::new(5, 7).unwrap(), Symmetry::None),
    ] {
        let mut opts = GenerateOptions::new(shape, Level::Easy, 21);
        opts.symmetry = symmetry;
        let g = generate(&opts, &Limits::none()).unwrap();
        check(&g, &opts);
        let (lo, hi) = clue_range(shape, Level::Easy);
        assert!((lo..=hi).contains(&g.clues), "{shape}: {} clues", g.clues);
    }
}

#[test]
fn every_symmetry_holds() {
    for shape in [
        Shape::CLASSIC,
        Shape::new(3, 4).unwrap(),
        Shape::square(4).unwrap(),
    ] {
        for symmetry in Symmetry::ALL {
            for seed in [3, 4] {
                let mut opts = GenerateOptions::new(shape, Level::Medium, seed);
                opts.symmetry = symmetry;
                check(&generate(&opts, &Limits::none()).unwrap(), &opts);
            }
        }
    }
}

#[test]
fn extreme_is_minimal_up_to_symmetry() {
    for shape in [
        Shape::CLASSIC,
        Shape::new(2, 3).unwrap(),
        Shape::new(3, 4).unwrap(),
    ] {
        for symmetry in [Symmetry::None, Symmetry::Diagonal] {
            let mut opts = GenerateOptions::new(shape, Level::Extreme, 8);
            opts.symmetry = symmetry;
            let g = generate(&opts, &Limits::none()).unwrap();
            check(&g, &opts);
            // Minimal up to symmetry: no orbit can go.
            let n = shape.n();
            for orbit in symmetry.orbits(n) {
                if g.puzzle.get(orbit[0]).is_none() {
                    continue;
                }
                let mut p = g.puzzle.clone();
                for &c in &orbit {
                    p.set(c, None).unwrap();
                }
                assert_ne!(independent_count(&p), (1, true), "{shape} {symmetry}");
            }
        }
    }
}

#[test]
fn same_seed_same_puzzle_other_seed_other_puzzle() {
    for shape in [
        Shape::square(2).unwrap(),
        Shape::CLASSIC,
        Shape::new(3, 4).unwrap(),
        Shape::square(5).unwrap(),
    ] {
        let mut opts = GenerateOptions::new(shape, Level::Medium, 77);
        opts.symmetry = Symmetry::Rotate180;
        let a = generate(&opts, &Limits::none()).unwrap();
        let b = generate(&opts, &Limits::none()).unwrap();
        assert_eq!(a, b, "{shape}");
        opts.seed = 78;
        let c = generate(&opts, &Limits::none()).unwrap();
        assert_ne!(a.puzzle, c.puzzle, "{shape}");
        assert_ne!(a.solution, c.solution, "{shape}");
    }
}

#[test]
fn a_custom_clue_range_is_met() {
    for (shape, range) in [
        (Shape::CLASSIC, (45, 50)),
        (Shape::CLASSIC, (30, 30)),
        (Shape::square(4).unwrap(), (150, 160)),
    ] {
        let mut opts = GenerateOptions::new(shape, Level::Expert, 5);
        opts.clues = Some(range);
        check(&generate(&opts, &Limits::none()).unwrap(), &opts);
    }
}

#[test]
fn full_grids_are_valid_for_every_box_shape() {
    let mut rng = rng_for(12);
    for (r, c) in [
        (2, 2),
        (2, 3),
        (3, 2),
        (3, 3),
        (3, 4),
        (4, 3),
        (4, 4),
        (5, 5),
        (6, 6),
        (10, 10),
    ] {
        let shape = Shape::new(r, c).unwrap();
        for _ in 0..3 {
            let g = full_grid(shape, &mut rng);
            assert_eq!(g.shape(), shape);
            assert!(g.is_valid(), "{shape}");
        }
    }
    let big = Shape::square(10).unwrap();
    let g = full_grid(big, &mut rng_for(1));
    assert_eq!(g.shape().n(), 100);
    assert!(g.is_valid());
}

#[test]
fn full_grids_are_not_all_one_pattern() {
    // Searched bases: 9×9 grids from different seeds differ beyond relabelling.
    let canonical = |g: &dekadoku::engine::Grid| {
        // Relabel digits in order of first appearance.
        let mut map = [0usize; 10];
        let mut next = 1;
        g.cells()
            .iter()
            .map(|v| {
                if map[v.get()] == 0 {
                    map[v.get()] = next;
                    next += 1;
                }
                map[v.get()]
            })
            .collect::<Vec<_>>()
    };
    let mut seen = std::collections::HashSet::new();
    for seed in 0..20 {
        seen.insert(canonical(&full_grid(Shape::CLASSIC, &mut rng_for(seed))));
    }
    assert_eq!(seen.len(), 20);
}

#[test]
fn cancel_and_deadline_stop_generation_promptly() {
    let shape = Shape::square(6).unwrap();
    let mut opts = GenerateOptions::new(shape, Level::Extreme, 1);
    opts.symmetry = Symmetry::None;
    // Already cancelled: stops before any work.
    let flag = Arc::new(AtomicBool::new(true));
    let limits = Limits::none().with_cancel(flag.clone());
    assert_eq!(generate(&opts, &limits), Err(StopReason::Cancelled));
    // Cancelled from another thread while digging a 36×36 grid to minimal.
    flag.store(false, Ordering::Relaxed);
    let setter = {
        let flag = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(150));
            flag.store(true, Ordering::Relaxed);
            Instant::now()
        })
    };
    let result = generate(&opts, &limits);
    let done = Instant::now();
    let set_at = setter.join().unwrap();
    assert_eq!(result, Err(StopReason::Cancelled));
    // Tests check answers, not timings: the latency is printed for the record.
    let lag = done.saturating_duration_since(set_at);
    println!("generation stopped {lag:?} after the cancel");
    // A deadline that passes before the first full grid is an error; one
    // that passes mid-dig returns the puzzle dug so far: unique, with more
    // clues than a minimal one.
    let limits = Limits::timeout(Duration::ZERO);
    assert_eq!(generate(&opts, &limits), Err(StopReason::Deadline));
    let limits = Limits::timeout(Duration::from_millis(100));
    let g = generate(&opts, &limits).unwrap();
    assert_eq!(independent_count(&g.puzzle), (1, true));
    assert!(g.puzzle.is_solved_by(&g.solution) && g.solution.is_valid());
}

#[test]
fn bundled_files_parse_and_hold_distinct_unique_puzzles() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    for shape in BUNDLED_SIZES {
        let n = shape.n();
        for level in [Level::Easy, Level::Medium, Level::Hard, Level::Expert] {
            let path = dir.join(format!("{n}x{n}-{level}.txt"));
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(
                text.starts_with("# dekadoku"),
                "{}: no header",
                path.display()
            );
            let puzzles = common::read_all(&path);
            assert_eq!(puzzles, bundled(shape, level), "{}", path.display());
            // 25×25: five each.
            let want = if n == 25 { 5 } else { 20 };
            assert_eq!(puzzles.len(), want, "{}", path.display());
            let mut distinct = std::collections::HashSet::new();
            for (i, p) in puzzles.iter().enumerate() {
                let what = format!("{} puzzle {}", path.display(), i + 1);
                assert_eq!(p.shape(), shape, "{what}");
                assert_eq!(independent_count(p), (1, true), "{what}");
                // Their levels are checked in generate::bundled.
                assert!(distinct.insert(p.clone()), "{what}: repeated");
            }
        }
    }
}
