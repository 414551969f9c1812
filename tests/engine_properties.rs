//! Hostile input through the engine's public entry points: arbitrary
//! bytes into the format readers, and well-formed but wrong puzzles
//! (clashing givens, no solution, many solutions) of several shapes into
//! every exact backend, the counter, the logic solver, the grader and the
//! uniqueness check, each under a deadline. Nothing panics, and nothing
//! runs past its limits by more than a little.
#![allow(clippy::unwrap_used)]

use std::io::Cursor;
use std::time::{Duration, Instant};

use dekadoku::engine::format::{self, PuzzleReader};
use dekadoku::engine::grade::grade_within;
use dekadoku::engine::logic;
use dekadoku::engine::{Backend, Limits, NoTrace, Puzzle, Shape, Solver, count_solutions};
use proptest::prelude::*;

fn shapes() -> impl Strategy<Value = Shape> {
    prop::sample::select(vec![(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)])
        .prop_map(|(r, c)| Shape::new(r, c).unwrap())
}

/// A puzzle of `shape` with random digits in random cells: usually
/// clashing, sometimes without a solution, sometimes with very many.
fn wrong_puzzle() -> impl Strategy<Value = Puzzle> {
    (shapes(), any::<u64>(), 0u64..=60).prop_map(|(shape, seed, pct)| {
        let n = shape.n();
        let mut x = seed | 1;
        let cells = (0..shape.cells())
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if x % 100 < pct {
                    (x >> 8) as usize % n + 1
                } else {
                    0
                }
            })
            .collect::<Vec<_>>();
        Puzzle::from_numbers(shape, &cells).unwrap()
    })
}

/// Generous: the entry points check their limits every few milliseconds.
const SLACK: Duration = Duration::from_secs(2);

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic_the_readers(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let _ = format::detect(&text);
        let _ = format::parse_str(&text, "fuzz");
        let _ = format::parse_one(&text, "fuzz");
        // Whatever parses is a puzzle of a real shape.
        for p in PuzzleReader::new(Cursor::new(bytes.clone()), "fuzz", None).flatten() {
            prop_assert_eq!(p.cells().len(), p.shape().cells());
        }
    }

    #[test]
    fn wrong_puzzles_are_answered_within_limits(p in wrong_puzzle()) {
        let budget = Duration::from_millis(300);
        for b in Backend::ALL.into_iter().chain([Backend::Hall]) {
            let start = Instant::now();
            let r = Solver::with_backend(b).count(&p, 2, &Limits::timeout(budget));
            prop_assert!(start.elapsed() < budget + SLACK, "{} ran on", b.name());
            for w in &r.witnesses {
                prop_assert!(p.is_solved_by(w));
            }
            if !p.conflicts().is_empty() {
                prop_assert!(!r.conflicts.is_empty() && r.witnesses.is_empty(), "{}", b.name());
            }
        }
        let start = Instant::now();
        let c = count_solutions(&p, 1000, &Limits::timeout(budget));
        prop_assert!(start.elapsed() < budget + SLACK);
        prop_assert!(c.solutions <= 1000);
        let start = Instant::now();
        let r = logic::count_traced(&p, 2, &Limits::timeout(budget), &mut NoTrace);
        prop_assert!(start.elapsed() < budget + SLACK);
        for w in &r.witnesses {
            prop_assert!(p.is_solved_by(w));
        }
        // The grader with someone else's "solution": an error, not a panic.
        if let Some(w) = Solver::new().count(&p, 1, &Limits::timeout(budget)).witnesses.first() {
            let start = Instant::now();
            let _ = grade_within(&p, w, &Limits::timeout(budget));
            prop_assert!(start.elapsed() < budget + SLACK);
        }
    }
}
