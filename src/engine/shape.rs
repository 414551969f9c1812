//! Board shapes (box_rows × box_cols) and the cell/unit/peer tables built once per shape.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use thiserror::Error;

/// Smallest side length the engine supports (2×2 boxes).
pub const MIN_SIZE: usize = 4;
/// Largest side length the engine supports (20×20 boxes).
pub const MAX_SIZE: usize = 400;

/// Why a shape was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ShapeError {
    /// A box side below 2 (a 1×n "box" is not a Sudoku).
    #[error("box of {box_rows}×{box_cols}: each box side must be at least 2")]
    BoxTooThin {
        /// Rows in one box.
        box_rows: usize,
        /// Columns in one box.
        box_cols: usize,
    },
    /// The side n = box_rows · box_cols is outside 4..=400.
    #[error("a {n}×{n} grid is not supported: the side must be between {MIN_SIZE} and {MAX_SIZE}")]
    OutOfRange {
        /// The side that was asked for.
        n: usize,
    },
    /// No box shape with both sides ≥ 2 multiplies to n (n is prime, for example).
    #[error("no box shape fits a {n}×{n} grid: {n} is not a product of two numbers ≥ 2")]
    NoBoxShape {
        /// The side that was asked for.
        n: usize,
    },
}

/// A board shape: boxes of `box_rows` rows by `box_cols` columns, so the grid
/// is n × n with n = box_rows · box_cols; digits run 1..=n.
///
/// ```
/// use dekadoku::engine::Shape;
/// let s = Shape::new(2, 3).unwrap();
/// assert_eq!(s.n(), 6);
/// assert_eq!(Shape::for_side(12).unwrap(), Shape::new(3, 4).unwrap());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    box_rows: u16,
    box_cols: u16,
}

impl Shape {
    /// The classic 9×9 shape.
    pub const CLASSIC: Shape = Shape {
        box_rows: 3,
        box_cols: 3,
    };

    /// A shape with boxes of `box_rows` × `box_cols` cells.
    pub fn new(box_rows: usize, box_cols: usize) -> Result<Shape, ShapeError> {
        if box_rows < 2 || box_cols < 2 {
            return Err(ShapeError::BoxTooThin { box_rows, box_cols });
        }
        let n = box_rows.saturating_mul(box_cols);
        if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
            return Err(ShapeError::OutOfRange { n });
        }
        Ok(Shape {
            box_rows: box_rows as u16,
            box_cols: box_cols as u16,
        })
    }

    /// A shape fixed in the source, for constants: a bad shape there is a
    /// compile error when used in a `const`, a panic otherwise.
    pub(crate) const fn fixed(box_rows: usize, box_cols: usize) -> Shape {
        assert!(box_rows >= 2 && box_cols >= 2 && box_rows * box_cols <= MAX_SIZE);
        Shape {
            box_rows: box_rows as u16,
            box_cols: box_cols as u16,
        }
    }

    /// Square boxes k × k (n = k²).
    pub fn square(k: usize) -> Result<Shape, ShapeError> {
        Shape::new(k, k)
    }

    /// The usual shape for side `n`: the most nearly square boxes, with no
    /// more rows than columns (6 → 2×3, 8 → 2×4, 12 → 3×4, 16 → 4×4).
    pub fn for_side(n: usize) -> Result<Shape, ShapeError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
            return Err(ShapeError::OutOfRange { n });
        }
        let mut best = None;
        let mut r = 2;
        while r * r <= n {
            if n.is_multiple_of(r) {
                best = Some(r);
            }
            r += 1;
        }
        match best {
            Some(r) => Shape::new(r, n / r),
            None => Err(ShapeError::NoBoxShape { n }),
        }
    }

    /// Rows in one box.
    pub fn box_rows(self) -> usize {
        self.box_rows as usize
    }

    /// Columns in one box.
    pub fn box_cols(self) -> usize {
        self.box_cols as usize
    }

    /// Side length n (also the number of digits and of units of each kind).
    pub fn n(self) -> usize {
        self.box_rows() * self.box_cols()
    }

    /// Number of cells, n².
    pub fn cells(self) -> usize {
        self.n() * self.n()
    }

    /// Number of units (rows, columns and boxes): 3n.
    pub fn units(self) -> usize {
        3 * self.n()
    }

    /// Row of a cell index.
    pub fn row_of(self, cell: usize) -> usize {
        cell / self.n()
    }

    /// Column of a cell index.
    pub fn col_of(self, cell: usize) -> usize {
        cell % self.n()
    }

    /// Box of a cell index, boxes numbered row-major.
    pub fn box_of(self, cell: usize) -> usize {
        let (r, c) = (self.row_of(cell), self.col_of(cell));
        (r / self.box_rows()) * self.boxes_per_row() + c / self.box_cols()
    }

    /// How many boxes stand side by side in one band (= box_rows).
    pub fn boxes_per_row(self) -> usize {
        self.n() / self.box_cols()
    }

    /// Cell index of (row, col).
    pub fn cell_at(self, row: usize, col: usize) -> usize {
        row * self.n() + col
    }

    /// The cells of unit `u`: rows are units 0..n, columns n..2n, boxes 2n..3n.
    pub fn unit_cells(self, unit: usize) -> impl Iterator<Item = usize> + Clone {
        let n = self.n();
        let kind = unit / n;
        let i = unit % n;
        let (br, bc, bpr) = (self.box_rows(), self.box_cols(), self.boxes_per_row());
        (0..n).map(move |j| match kind {
            0 => i * n + j,
            1 => j * n + i,
            _ => {
                let top = (i / bpr) * br;
                let left = (i % bpr) * bc;
                (top + j / bc) * n + left + j % bc
            }
        })
    }

    /// `row 3`, `column 5` or `box 7` for unit `u`.
    pub fn unit_name(self, u: usize) -> String {
        let n = self.n();
        match u / n {
            0 => format!("row {}", u % n + 1),
            1 => format!("column {}", u % n + 1),
            _ => format!("box {}", u % n + 1),
        }
    }

    /// The three units holding a cell: [row, n + col, 2n + box].
    pub fn units_of(self, cell: usize) -> [usize; 3] {
        let n = self.n();
        [
            self.row_of(cell),
            n + self.col_of(cell),
            2 * n + self.box_of(cell),
        ]
    }

    /// Number of peers of each cell (cells sharing a unit, itself excluded).
    pub fn peer_count(self) -> usize {
        let n = self.n();
        2 * (n - 1) + (n - self.box_rows() - self.box_cols() + 1)
    }

    /// The shared tables for this shape, built on first use.
    pub fn tables(self) -> Arc<Tables> {
        static CACHE: OnceLock<Mutex<HashMap<Shape, Arc<Tables>>>> = OnceLock::new();
        let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
        // A poisoned lock only means another thread panicked while inserting;
        // the map itself is still a valid cache.
        let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(self)
            .or_insert_with(|| Arc::new(Tables::build(self)))
            .clone()
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.n();
        write!(f, "{n}×{n} (boxes {}×{})", self.box_rows(), self.box_cols())
    }
}

/// Largest side for which the flat peer table is kept (about 3 MB at 64×64);
/// larger shapes list peers through their units.
pub const PEER_TABLE_MAX_SIDE: usize = 64;

/// Per-shape lookup tables, built once and shared through [`Shape::tables`].
#[derive(Debug)]
pub struct Tables {
    shape: Shape,
    /// `units[u * n + j]`: the j-th cell of unit u.
    units: Vec<u32>,
    /// `cell_units[c]`: row, column and box unit of cell c.
    cell_units: Vec<[u32; 3]>,
    /// Flat peer lists (`peer_count` per cell), only for n ≤ [`PEER_TABLE_MAX_SIDE`].
    peers: Vec<u32>,
    /// `positions[c]`: the index of cell c in its row, column and box.
    positions: Vec<[u16; 3]>,
    /// `box_lines[c]`: the indices in c's box of its cells in c's row or
    /// column, as a bit mask; only for n ≤ [`PEER_TABLE_MAX_SIDE`].
    box_lines: Vec<u64>,
}

impl Tables {
    fn build(shape: Shape) -> Tables {
        let n = shape.n();
        let mut units = Vec::with_capacity(3 * n * n);
        for u in 0..3 * n {
            units.extend(shape.unit_cells(u).map(|c| c as u32));
        }
        let cell_units = (0..n * n)
            .map(|c| shape.units_of(c).map(|u| u as u32))
            .collect();
        let mut peers = Vec::new();
        let mut box_lines = Vec::new();
        if n <= PEER_TABLE_MAX_SIDE {
            peers.reserve(n * n * shape.peer_count());
            for c in 0..n * n {
                peers.extend(peers_by_units(shape, c).map(|p| p as u32));
            }
            box_lines = (0..n * n)
                .map(|c| {
                    let (r, k) = (shape.row_of(c), shape.col_of(c));
                    shape
                        .unit_cells(2 * n + shape.box_of(c))
                        .enumerate()
                        .filter(|&(_, p)| shape.row_of(p) == r || shape.col_of(p) == k)
                        .fold(0u64, |m, (j, _)| m | 1 << j)
                })
                .collect();
        }
        let mut positions = vec![[0u16; 3]; n * n];
        for u in 0..3 * n {
            for (j, c) in shape.unit_cells(u).enumerate() {
                positions[c][u / n] = j as u16;
            }
        }
        Tables {
            shape,
            units,
            cell_units,
            peers,
            positions,
            box_lines,
        }
    }

    /// The shape these tables describe.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The cells of unit `u` (see [`Shape::unit_cells`] for numbering).
    #[inline]
    pub fn unit(&self, u: usize) -> &[u32] {
        let n = self.shape.n();
        &self.units[u * n..(u + 1) * n]
    }

    /// The three units of cell `c`: row, column, box.
    #[inline]
    pub fn units_of(&self, c: usize) -> [u32; 3] {
        self.cell_units[c]
    }

    /// The index of cell `c` in its row, its column and its box (in the
    /// order of [`Tables::unit`]).
    #[inline]
    pub fn positions(&self, c: usize) -> [usize; 3] {
        self.positions[c].map(usize::from)
    }

    /// The indices in cell `c`'s box of the box's cells in `c`'s row or
    /// column (c included), as a bit mask. Only for sides up to
    /// [`PEER_TABLE_MAX_SIDE`] (a box index fits a `u64`); 0 beyond.
    #[inline]
    pub fn box_lines(&self, c: usize) -> u64 {
        self.box_lines.get(c).copied().unwrap_or(0)
    }

    /// Every peer of cell `c` exactly once.
    pub fn peers(&self, c: usize) -> Peers<'_> {
        if self.peers.is_empty() {
            Peers::Computed(Box::new(peers_by_units(self.shape, c)))
        } else {
            let k = self.shape.peer_count();
            Peers::Table(self.peers[c * k..(c + 1) * k].iter())
        }
    }
}

fn peers_by_units(shape: Shape, c: usize) -> impl Iterator<Item = usize> {
    let (r, col, b) = (shape.row_of(c), shape.col_of(c), shape.box_of(c));
    let n = shape.n();
    let row = shape.unit_cells(r).filter(move |&p| p != c);
    let column = shape.unit_cells(n + col).filter(move |&p| p != c);
    let boxed = shape
        .unit_cells(2 * n + b)
        .filter(move |&p| shape.row_of(p) != r && shape.col_of(p) != col);
    row.chain(column).chain(boxed)
}

/// Iterator over the peers of one cell.
pub enum Peers<'a> {
    /// Read from the flat table.
    Table(std::slice::Iter<'a, u32>),
    /// Computed from the three units (large shapes).
    Computed(Box<dyn Iterator<Item = usize> + 'a>),
}

impl Iterator for Peers<'_> {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        match self {
            Peers::Table(it) => it.next().map(|&p| p as usize),
            Peers::Computed(it) => it.next(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_box_lines_match_the_units() {
        for (br, bc) in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5), (8, 8)] {
            let shape = Shape::new(br, bc).unwrap();
            let t = shape.tables();
            for c in 0..shape.cells() {
                let units = t.units_of(c);
                let pos = t.positions(c);
                for k in 0..3 {
                    assert_eq!(
                        t.unit(units[k] as usize)[pos[k]] as usize,
                        c,
                        "{shape:?} {c} {k}"
                    );
                }
                let lines = t
                    .unit(units[2] as usize)
                    .iter()
                    .enumerate()
                    .filter(|&(_, &p)| {
                        let up = t.units_of(p as usize);
                        up[0] == units[0] || up[1] == units[1]
                    })
                    .fold(0u64, |m, (j, _)| m | 1 << j);
                assert_eq!(t.box_lines(c), lines, "{shape:?} {c}");
            }
        }
    }

    #[test]
    fn sides_and_defaults() {
        assert_eq!(Shape::for_side(4).unwrap(), Shape::new(2, 2).unwrap());
        assert_eq!(Shape::for_side(6).unwrap(), Shape::new(2, 3).unwrap());
        assert_eq!(Shape::for_side(8).unwrap(), Shape::new(2, 4).unwrap());
        assert_eq!(Shape::for_side(20).unwrap(), Shape::new(4, 5).unwrap());
        assert_eq!(Shape::for_side(400).unwrap(), Shape::square(20).unwrap());
        assert_eq!(Shape::for_side(7), Err(ShapeError::NoBoxShape { n: 7 }));
        assert_eq!(Shape::for_side(3), Err(ShapeError::OutOfRange { n: 3 }));
        assert_eq!(Shape::for_side(401), Err(ShapeError::OutOfRange { n: 401 }));
        assert!(matches!(
            Shape::new(1, 9),
            Err(ShapeError::BoxTooThin { .. })
        ));
        assert!(Shape::new(21, 20).is_err());
        for k in 2..=20 {
            assert_eq!(Shape::square(k).unwrap().n(), k * k);
        }
    }

    #[test]
    fn units_partition_the_grid() {
        for shape in [
            Shape::new(2, 3).unwrap(),
            Shape::new(3, 4).unwrap(),
            Shape::new(4, 3).unwrap(),
            Shape::square(3).unwrap(),
            Shape::square(5).unwrap(),
        ] {
            let n = shape.n();
            let t = shape.tables();
            for kind in 0..3 {
                let mut seen = vec![0u8; n * n];
                for u in kind * n..(kind + 1) * n {
                    for &c in t.unit(u) {
                        seen[c as usize] += 1;
                        assert!(t.units_of(c as usize).contains(&(u as u32)));
                    }
                }
                assert!(seen.iter().all(|&s| s == 1), "{shape} kind {kind}");
            }
        }
    }

    #[test]
    fn peers_match_definition() {
        for shape in [
            Shape::new(2, 3).unwrap(),
            Shape::square(3).unwrap(),
            Shape::new(3, 4).unwrap(),
        ] {
            let t = shape.tables();
            for c in 0..shape.cells() {
                let mut got: Vec<usize> = t.peers(c).collect();
                got.sort_unstable();
                let want: Vec<usize> = (0..shape.cells())
                    .filter(|&p| {
                        p != c
                            && (shape.row_of(p) == shape.row_of(c)
                                || shape.col_of(p) == shape.col_of(c)
                                || shape.box_of(p) == shape.box_of(c))
                    })
                    .collect();
                assert_eq!(got, want);
                assert_eq!(got.len(), shape.peer_count());
            }
        }
        // Large shapes compute peers through units; check one cell's count.
        let big = Shape::square(9).unwrap();
        let t = big.tables();
        let mut ps: Vec<usize> = t.peers(4000).collect();
        ps.sort_unstable();
        ps.dedup();
        assert_eq!(ps.len(), big.peer_count());
    }
}
