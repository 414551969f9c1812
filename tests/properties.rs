//! Property tests with planted solutions: a random valid grid, random cells
//! blanked; the solver must return grids consistent with the clues (never
//! "no solution"), and agree with the `sudoku` crate on 9×9 counts.
#![allow(clippy::unwrap_used)]

mod common;

use dekadoku::engine::{Limits, NoTrace, Outcome, Shape, Solver};
use proptest::prelude::*;

fn shapes() -> impl Strategy<Value = Shape> {
    prop_oneof![
        Just(Shape::new(2, 2).unwrap()),
        Just(Shape::new(2, 3).unwrap()),
        Just(Shape::new(3, 2).unwrap()),
        Just(Shape::new(2, 4).unwrap()),
        Just(Shape::new(3, 3).unwrap()),
        Just(Shape::new(3, 4).unwrap()),
        Just(Shape::new(4, 4).unwrap()),
        Just(Shape::new(5, 5).unwrap()),
    ]
}

proptest! {
    // A fixed seed keeps CI reproducible; explore with PROPTEST_RNG_SEED=<n>
    // and PROPTEST_CASES=<n>.
    #![proptest_config(ProptestConfig {
        cases: 1000,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5EED_DECA),
        ..ProptestConfig::default()
    })]

    #[test]
    fn planted_solution_is_respected(shape in shapes(), seed in any::<u64>(), keep_pct in 0u64..=100, mask_seed in any::<u64>()) {
        // Random 25×25 grids with about 35–55 % of cells kept sit at the
        // quasigroup-completion phase transition, where some instances take
        // the propagation solver minutes (see `phase_transition_25x25`; a
        // 40 000-case run outside this band found none slower than 2 s).
        prop_assume!(shape.n() < 25 || !(35..=55).contains(&keep_pct));
        let grid = common::random_grid(shape, seed);
        let keep = |i: usize| {
            let h = (i as u64 ^ mask_seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 33;
            h % 100 < keep_pct
        };
        let puzzle = common::blank(&grid, keep);
        let mut solver = Solver::new();
        match solver.solve(&puzzle, &Limits::none(), &mut NoTrace) {
            Outcome::Solved(g) => {
                prop_assert!(puzzle.is_solved_by(&g));
                prop_assert_eq!(g, grid);
            }
            Outcome::Multiple(a, b) => {
                prop_assert!(a != b);
                prop_assert!(puzzle.is_solved_by(&a));
                prop_assert!(puzzle.is_solved_by(&b));
            }
            other => prop_assert!(false, "planted puzzle reported {:?}", other),
        }
    }

    #[test]
    fn counts_agree_with_the_sudoku_crate(seed in any::<u64>(), keep_pct in 20u64..=45, mask_seed in any::<u64>()) {
        let grid = common::random_grid(Shape::CLASSIC, seed);
        let keep = |i: usize| {
            let h = (i as u64 ^ mask_seed).wrapping_mul(0xD134_2543_DE82_EF95) >> 33;
            h % 100 < keep_pct
        };
        let puzzle = common::blank(&grid, keep);
        let mut bytes = [0u8; 81];
        for (b, c) in bytes.iter_mut().zip(puzzle.cells()) {
            *b = c.map_or(0, |v| v.get() as u8);
        }
        let theirs = sudoku::Sudoku::from_bytes(bytes).unwrap().solutions_count_up_to(20) as u64;
        for mut solver in [Solver::new(), Solver::propagation_only()] {
            let ours = solver.count(&puzzle, 20, &Limits::none());
            prop_assert_eq!(ours.solutions, theirs, "{:?}", solver);
            prop_assert_eq!(ours.exact, theirs < 20, "{:?}", solver);
        }
    }
}

/// The hard band for random 25×25 blanking: most instances are solved in
/// well under a second, some take minutes. Run with `-- --ignored`.
#[test]
#[ignore = "phase-transition 25×25 instances can take minutes (see the test's docs)"]
fn phase_transition_25x25() {
    let shape = Shape::square(5).unwrap();
    for seed in 0..10u64 {
        let grid = common::random_grid(shape, seed);
        let puzzle = common::blank(&grid, |i| {
            ((i as u64 ^ seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 33) % 100 < 45
        });
        match Solver::new().solve(&puzzle, &Limits::none(), &mut NoTrace) {
            Outcome::Solved(g) => assert!(puzzle.is_solved_by(&g)),
            Outcome::Multiple(a, b) => {
                assert!(puzzle.is_solved_by(&a) && puzzle.is_solved_by(&b) && a != b)
            }
            other => panic!("seed {seed}: {other:?}"),
        }
    }
}
