//! Random full grids: a searched or patterned base grid, then random
//! validity-preserving transformations.

use rand_chacha::ChaCha8Rng;

use crate::engine::grid::{Grid, Puzzle, Value};
use crate::engine::limits::Limits;
use crate::engine::shape::Shape;
use crate::engine::solve::Solver;
use crate::engine::trace::NoTrace;

use super::random::{below, permutation};

/// Largest side whose base grid is searched from random boxes; larger sides
/// start from the pattern grid.
pub const SEARCHED_MAX_SIDE: usize = 16;

/// Search nodes allowed for completing the random boxes (far more than any
/// completion up to 16×16 needs; past it the pattern grid is used, so the
/// result still depends on the seed alone).
const COMPLETION_BUDGET: u64 = 100_000;

/// A random valid full grid of `shape`.
///
/// For sides up to [`SEARCHED_MAX_SIDE`] the base grid is found by the
/// solver from random digits in the boxes of the main diagonal (boxes that
/// share no row or column, so any filling of them is consistent and, in
/// practice, completable); larger sides use the pattern grid
/// `(C·(r mod R) + ⌊r/R⌋ + c) mod n` for boxes of R × C. Either base is
/// then transformed at random: digits relabelled, bands and stacks
/// reordered, rows reordered within their band and columns within their
/// stack, and the grid transposed (square boxes only). Searched bases make
/// small grids varied beyond one pattern's transformations; large grids
/// are all transformations of the pattern, which keeps them cheap at every
/// size up to 400×400.
pub fn full_grid(shape: Shape, rng: &mut ChaCha8Rng) -> Grid {
    full_grid_with(shape, rng, &mut Solver::new())
}

/// [`full_grid`] with a solver the caller reuses.
pub(super) fn full_grid_with(shape: Shape, rng: &mut ChaCha8Rng, solver: &mut Solver) -> Grid {
    let base = if shape.n() <= SEARCHED_MAX_SIDE {
        searched(shape, rng, solver).unwrap_or_else(|| pattern(shape))
    } else {
        pattern(shape)
    };
    transform(shape, &base, rng)
}

/// The pattern grid, as 0-based digits, row-major.
fn pattern(shape: Shape) -> Vec<usize> {
    let (n, r, c) = (shape.n(), shape.box_rows(), shape.box_cols());
    (0..n * n)
        .map(|i| {
            let (row, col) = (i / n, i % n);
            (c * (row % r) + row / r + col) % n
        })
        .collect()
}

/// A grid completed by the solver from random digits in the diagonal boxes.
fn searched(shape: Shape, rng: &mut ChaCha8Rng, solver: &mut Solver) -> Option<Vec<usize>> {
    let n = shape.n();
    let mut puzzle = Puzzle::empty(shape);
    // Box (band i, stack i) for i below the smaller count: pairwise apart.
    let stacks = shape.boxes_per_row();
    let bands = n / stacks;
    for i in 0..bands.min(stacks) {
        let unit = 2 * n + i * stacks + i;
        let digits = permutation(rng, n);
        for (cell, d) in shape.unit_cells(unit).zip(digits) {
            puzzle.set(cell, Some(Value::from_index(d))).ok()?;
        }
    }
    let found = solver.run(&puzzle, 1, &Limits::nodes(COMPLETION_BUDGET), &mut NoTrace);
    let grid = found.witnesses.into_iter().next()?;
    Some(grid.cells().iter().map(|v| v.index()).collect())
}

/// Applies random validity-preserving transformations to `base`.
fn transform(shape: Shape, base: &[usize], rng: &mut ChaCha8Rng) -> Grid {
    let (n, br, bc) = (shape.n(), shape.box_rows(), shape.box_cols());
    // n / br bands of br rows; n / bc stacks of bc columns.
    let rows = blocks(rng, n / br, br);
    let cols = blocks(rng, n / bc, bc);
    let digits = permutation(rng, n);
    let transpose = br == bc && below(rng, 2) == 1;
    let cells = (0..n * n).map(|i| {
        let (r, c) = (rows[i / n], cols[i % n]);
        let src = if transpose { c * n + r } else { r * n + c };
        digits[base[src]]
    });
    Grid::from_indices(shape, cells)
}

/// A permutation of `count · size` lines that keeps blocks of `size`
/// together: the blocks reordered, then the lines inside each block.
fn blocks(rng: &mut ChaCha8Rng, count: usize, size: usize) -> Vec<usize> {
    let order = permutation(rng, count);
    let mut out = Vec::with_capacity(count * size);
    for b in order {
        let inner = permutation(rng, size);
        out.extend(inner.into_iter().map(|i| b * size + i));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::random::rng_for;
    use super::*;

    #[test]
    fn patterns_are_valid() {
        for (r, c) in [
            (2, 2),
            (2, 3),
            (3, 2),
            (3, 3),
            (3, 4),
            (4, 3),
            (4, 5),
            (5, 5),
        ] {
            let shape = Shape::new(r, c).unwrap();
            let g = Grid::from_indices(shape, pattern(shape).into_iter());
            assert!(g.is_valid(), "{shape}");
        }
    }

    #[test]
    fn searched_and_transformed_grids_vary() {
        let shape = Shape::CLASSIC;
        let mut rng = rng_for(3);
        let a = full_grid(shape, &mut rng);
        let b = full_grid(shape, &mut rng);
        assert!(a.is_valid() && b.is_valid());
        assert_ne!(a, b);
        assert_eq!(a, full_grid(shape, &mut rng_for(3)));
    }
}
