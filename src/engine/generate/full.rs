//! Random full grids: a searched or patterned base grid, then random
//! validity-preserving transformations.

use rand_chacha::ChaCha8Rng;

use crate::engine::grid::{Grid, Puzzle, Value};
use crate::engine::limits::Limits;
use crate::engine::shape::Shape;
use crate::engine::solve::Solver;
use crate::engine::trace::NoTrace;

use super::random::{below, permutation};

/// Largest side whose base grid is searched from random boxes (about
/// 20 ms at 36×36); larger sides start from the pattern grid.
pub const SEARCHED_MAX_SIDE: usize = 36;

/// Search nodes allowed for completing the random boxes (far more than any
/// completion up to 36×36 needs, about a thousand; past it the pattern grid
/// is used, so the result still depends on the seed alone).
const COMPLETION_BUDGET: u64 = 100_000;

/// Cycle swaps per line applied to the pattern grid above
/// [`SEARCHED_MAX_SIDE`] (see [`swap_cycles`]).
const SWAPS_PER_LINE: usize = 16;

/// A random valid full grid of `shape`.
///
/// For sides up to [`SEARCHED_MAX_SIDE`] the base grid is found by the
/// solver from random digits in the boxes of the main diagonal (boxes that
/// share no row or column, so any filling of them is consistent and, in
/// practice, completable). Larger sides start from the pattern grid
/// `(C·(r mod R) + ⌊r/R⌋ + c) mod n` for boxes of R × C and break its
/// regularity with random cycle swaps (`swap_cycles`): a bare pattern
/// grid is full of small unavoidable sets, and a 100×100 dug from one stops
/// being unique at 90 % clues. Either base is then transformed at random:
/// digits relabelled, bands and stacks reordered, rows reordered within
/// their band and columns within their stack, and the grid transposed
/// (square boxes only). Every step is cheap at every size up to 400×400.
pub fn full_grid(shape: Shape, rng: &mut ChaCha8Rng) -> Grid {
    full_grid_with(shape, rng, &mut Solver::new())
}

/// [`full_grid`] with a solver the caller reuses.
pub(super) fn full_grid_with(shape: Shape, rng: &mut ChaCha8Rng, solver: &mut Solver) -> Grid {
    let base = if shape.n() <= SEARCHED_MAX_SIDE {
        searched(shape, rng, solver).unwrap_or_else(|| pattern(shape))
    } else {
        let mut g = pattern(shape);
        swap_cycles(shape, &mut g, rng, SWAPS_PER_LINE * shape.n());
        g
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

/// Applies `moves` random cycle swaps to the grid `g`, alternating between
/// rows and columns. A swap takes two rows of one band (or two columns of
/// one stack) and a starting position, exchanges the two digits there, and
/// follows the cycle this opens: the first row now holds the digit it
/// received twice, so the other copy is exchanged next, until the digit the
/// first row gave away comes back. Columns and boxes keep their digits
/// (each exchange stays in one column and, the rows sharing a band, in one
/// box), and the closed cycle leaves each row a permutation, so the grid
/// stays valid.
fn swap_cycles(shape: Shape, g: &mut [usize], rng: &mut ChaCha8Rng, moves: usize) {
    let (n, br, bc) = (shape.n(), shape.box_rows(), shape.box_cols());
    for m in 0..moves {
        let by_rows = m % 2 == 0;
        let size = if by_rows { br } else { bc };
        if size < 2 {
            continue;
        }
        let block = below(rng, n / size);
        let a = block * size + below(rng, size);
        let mut b = block * size + below(rng, size - 1);
        if b >= a {
            b += 1;
        }
        let at = |line: usize, k: usize| if by_rows { line * n + k } else { k * n + line };
        let mut k = below(rng, n);
        let first = g[at(a, k)];
        loop {
            let got = g[at(b, k)];
            g.swap(at(a, k), at(b, k));
            if got == first {
                break;
            }
            // Line a now holds `got` twice; its other copy moves next.
            match (0..n).find(|&j| j != k && g[at(a, j)] == got) {
                Some(j) => k = j,
                None => break,
            }
        }
    }
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
pub(super) fn blocks(rng: &mut ChaCha8Rng, count: usize, size: usize) -> Vec<usize> {
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
    fn cycle_swaps_keep_grids_valid_and_change_them() {
        for (r, c) in [(2, 3), (3, 3), (4, 5), (7, 7)] {
            let shape = Shape::new(r, c).unwrap();
            let mut g = pattern(shape);
            let before = g.clone();
            swap_cycles(shape, &mut g, &mut rng_for(9), 8 * shape.n());
            assert!(
                Grid::from_indices(shape, g.iter().copied()).is_valid(),
                "{shape}"
            );
            assert_ne!(g, before, "{shape}");
        }
        // Above the searched sides the full grid comes from the swaps.
        let shape = Shape::square(7).unwrap();
        let a = full_grid(shape, &mut rng_for(1));
        assert!(a.is_valid());
        assert_ne!(a, full_grid(shape, &mut rng_for(2)));
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
