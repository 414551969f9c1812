//! Puzzles (givens and blanks) and solved grids, with rule checks.

use std::fmt;
use std::num::NonZeroU16;

use thiserror::Error;

use super::shape::Shape;

/// A digit 1..=n. Stored non-zero so `Option<Value>` stays two bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(NonZeroU16);

impl Value {
    /// The digit `v` (1-based); `None` for 0 or above 400.
    pub fn new(v: usize) -> Option<Value> {
        if v > super::shape::MAX_SIZE {
            return None;
        }
        NonZeroU16::new(v as u16).map(Value)
    }

    /// The digit with 0-based index `d` (bit d in a candidate set).
    pub fn from_index(d: usize) -> Value {
        Value(NonZeroU16::MIN.saturating_add(d as u16))
    }

    /// The digit, 1-based.
    pub fn get(self) -> usize {
        self.0.get() as usize
    }

    /// The digit, 0-based (its bit in a candidate set).
    pub fn index(self) -> usize {
        self.get() - 1
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.get())
    }
}

/// A cell position, written r{row}c{col} with 1-based row and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// 0-based row.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
}

impl Cell {
    /// The cell with row-major index `i` in `shape`.
    pub fn from_index(shape: Shape, i: usize) -> Cell {
        Cell {
            row: shape.row_of(i),
            col: shape.col_of(i),
        }
    }

    /// Row-major index in `shape`.
    pub fn index(self, shape: Shape) -> usize {
        shape.cell_at(self.row, self.col)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row + 1, self.col + 1)
    }
}

/// Why cells could not become a puzzle or a grid.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum GridError {
    /// The cell list has the wrong length for the shape.
    #[error("expected {expected} cells for {shape}, found {found}")]
    CellCount {
        /// The shape asked for.
        shape: Shape,
        /// n².
        expected: usize,
        /// What was given.
        found: usize,
    },
    /// A value outside 1..=n.
    #[error("{cell}: value {value} is outside 1..={n}")]
    ValueOutOfRange {
        /// Where.
        cell: Cell,
        /// The bad value.
        value: usize,
        /// The side.
        n: usize,
    },
    /// A grid cell left empty.
    #[error("{cell} is empty in what should be a full grid")]
    Empty {
        /// Where.
        cell: Cell,
    },
}

/// Two givens (or entries) with the same digit in one unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Conflict {
    /// The first cell (row-major order).
    pub a: Cell,
    /// The second cell.
    pub b: Cell,
    /// The digit both hold.
    pub value: Value,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} and {} both hold {}", self.a, self.b, self.value)
    }
}

/// A puzzle: a shape and its cells, `None` where blank.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Puzzle {
    shape: Shape,
    cells: Vec<Option<Value>>,
}

impl Puzzle {
    /// An empty puzzle of `shape`.
    pub fn empty(shape: Shape) -> Puzzle {
        Puzzle {
            shape,
            cells: vec![None; shape.cells()],
        }
    }

    /// A puzzle from row-major cells.
    pub fn new(shape: Shape, cells: Vec<Option<Value>>) -> Result<Puzzle, GridError> {
        if cells.len() != shape.cells() {
            return Err(GridError::CellCount {
                shape,
                expected: shape.cells(),
                found: cells.len(),
            });
        }
        let n = shape.n();
        if let Some((i, v)) = cells
            .iter()
            .enumerate()
            .find_map(|(i, v)| v.filter(|v| v.get() > n).map(|v| (i, v)))
        {
            return Err(GridError::ValueOutOfRange {
                cell: Cell::from_index(shape, i),
                value: v.get(),
                n,
            });
        }
        Ok(Puzzle { shape, cells })
    }

    /// A puzzle from row-major numbers, 0 for blank.
    pub fn from_numbers(shape: Shape, numbers: &[usize]) -> Result<Puzzle, GridError> {
        let n = shape.n();
        let mut cells = Vec::with_capacity(numbers.len());
        for (i, &v) in numbers.iter().enumerate() {
            if v > n {
                return Err(GridError::ValueOutOfRange {
                    cell: Cell::from_index(shape, i),
                    value: v,
                    n,
                });
            }
            cells.push(Value::new(v));
        }
        Puzzle::new(shape, cells)
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// All cells, row-major.
    pub fn cells(&self) -> &[Option<Value>] {
        &self.cells
    }

    /// The cell at row-major index `i`.
    pub fn get(&self, i: usize) -> Option<Value> {
        self.cells[i]
    }

    /// Set or clear the cell at index `i` (panics only on an index out of range,
    /// a programming error; values above n are refused).
    pub fn set(&mut self, i: usize, v: Option<Value>) -> Result<(), GridError> {
        if let Some(v) = v
            && v.get() > self.shape.n()
        {
            return Err(GridError::ValueOutOfRange {
                cell: Cell::from_index(self.shape, i),
                value: v.get(),
                n: self.shape.n(),
            });
        }
        self.cells[i] = v;
        Ok(())
    }

    /// Number of givens.
    pub fn clue_count(&self) -> usize {
        self.cells.iter().filter(|c| c.is_some()).count()
    }

    /// Every pair of givens that share a unit and a digit, each pair once.
    pub fn conflicts(&self) -> Vec<Conflict> {
        conflicts_in(self.shape, &self.cells)
    }

    /// Whether `grid` is a valid solution that keeps every given.
    pub fn is_solved_by(&self, grid: &Grid) -> bool {
        grid.shape == self.shape
            && grid.is_valid()
            && self
                .cells
                .iter()
                .zip(&grid.cells)
                .all(|(p, g)| p.is_none_or(|p| p == *g))
    }
}

/// A full grid (every cell filled); not necessarily valid until checked.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    shape: Shape,
    cells: Vec<Value>,
}

impl Grid {
    /// A grid from row-major values.
    pub fn new(shape: Shape, cells: Vec<Value>) -> Result<Grid, GridError> {
        Puzzle::new(shape, cells.iter().copied().map(Some).collect())?;
        Ok(Grid { shape, cells })
    }

    /// A grid from a puzzle with no blanks.
    pub fn from_puzzle(p: &Puzzle) -> Result<Grid, GridError> {
        let mut cells = Vec::with_capacity(p.cells.len());
        for (i, c) in p.cells.iter().enumerate() {
            match c {
                Some(v) => cells.push(*v),
                None => {
                    return Err(GridError::Empty {
                        cell: Cell::from_index(p.shape, i),
                    });
                }
            }
        }
        Ok(Grid {
            shape: p.shape,
            cells,
        })
    }

    /// Builds a grid from 0-based digit indices that the caller guarantees
    /// are below n (used by the solvers).
    pub(crate) fn from_indices(shape: Shape, idx: impl Iterator<Item = usize>) -> Grid {
        Grid {
            shape,
            cells: idx.map(Value::from_index).collect(),
        }
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// All cells, row-major.
    pub fn cells(&self) -> &[Value] {
        &self.cells
    }

    /// The value at row-major index `i`.
    pub fn get(&self, i: usize) -> Value {
        self.cells[i]
    }

    /// The grid as a puzzle with every cell given.
    pub fn to_puzzle(&self) -> Puzzle {
        Puzzle {
            shape: self.shape,
            cells: self.cells.iter().copied().map(Some).collect(),
        }
    }

    /// Whether every row, column and box holds each digit exactly once.
    pub fn is_valid(&self) -> bool {
        let n = self.shape.n();
        if self.cells.len() != n * n || self.cells.iter().any(|v| v.get() > n) {
            return false;
        }
        let mut seen = vec![false; n];
        (0..self.shape.units()).all(|u| {
            seen.fill(false);
            self.shape.unit_cells(u).all(|c| {
                let d = self.cells[c].index();
                !std::mem::replace(&mut seen[d], true)
            })
        })
    }
}

fn conflicts_in(shape: Shape, cells: &[Option<Value>]) -> Vec<Conflict> {
    let n = shape.n();
    let mut out = Vec::new();
    let mut first: Vec<Option<usize>> = vec![None; n + 1];
    for u in 0..shape.units() {
        first.fill(None);
        for c in shape.unit_cells(u) {
            if let Some(v) = cells[c] {
                let slot = &mut first[v.get().min(n)];
                match *slot {
                    None => *slot = Some(c),
                    Some(a) => out.push(Conflict {
                        a: Cell::from_index(shape, a),
                        b: Cell::from_index(shape, c),
                        value: v,
                    }),
                }
            }
        }
    }
    // Two cells in the same row and box are reported once.
    out.sort_by_key(|c| (c.a, c.b));
    out.dedup();
    out
}

/// How value `v` (1-based) of an n-digit board is written: `1`–`9`, then
/// `A`, `B`, … up to n = 35, decimal numbers beyond.
pub fn symbol(n: usize, v: usize) -> String {
    if n <= 35 && (10..=35).contains(&v) {
        char::from(b'A' + (v - 10) as u8).to_string()
    } else {
        v.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classic(s: &str) -> Puzzle {
        let nums: Vec<usize> = s
            .bytes()
            .map(|b| if b == b'.' { 0 } else { (b - b'0') as usize })
            .collect();
        Puzzle::from_numbers(Shape::CLASSIC, &nums).unwrap()
    }

    #[test]
    fn conflicts_name_both_cells_once() {
        let mut s = ".".repeat(81);
        s.replace_range(0..1, "5");
        s.replace_range(1..2, "5"); // same row and box
        s.replace_range(80..81, "7");
        let p = classic(&s);
        let c = p.conflicts();
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].a, Cell { row: 0, col: 0 });
        assert_eq!(c[0].b, Cell { row: 0, col: 1 });
        assert_eq!(c[0].to_string(), "r1c1 and r1c2 both hold 5");
    }

    #[test]
    fn validity_checks_rules_and_clues() {
        let solved =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        let g = Grid::from_puzzle(&classic(solved)).unwrap();
        assert!(g.is_valid());
        let mut p = Puzzle::empty(Shape::CLASSIC);
        p.set(0, Value::new(5)).unwrap();
        assert!(p.is_solved_by(&g));
        p.set(0, Value::new(6)).unwrap();
        assert!(!p.is_solved_by(&g));
        let mut bad = solved.as_bytes().to_vec();
        bad.swap(0, 1);
        let g2 = Grid::from_puzzle(&classic(std::str::from_utf8(&bad).unwrap())).unwrap();
        assert!(!g2.is_valid());
    }

    #[test]
    fn out_of_range_values_are_refused() {
        let err = Puzzle::from_numbers(Shape::CLASSIC, &[10; 81]).unwrap_err();
        assert!(matches!(err, GridError::ValueOutOfRange { value: 10, .. }));
        assert!(Puzzle::from_numbers(Shape::CLASSIC, &[0; 80]).is_err());
    }
}
