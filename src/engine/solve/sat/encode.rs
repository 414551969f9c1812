//! Sudoku of any shape as CNF: the full ("seed") encoding with a variable
//! for every (cell, digit), and the compact one that first places singles
//! to a fixed point and only keeps the candidates left.
//!
//! The clauses that define a Sudoku are "every open cell holds at least
//! one digit" and "every digit is at most once in every row, column and
//! box" (the minimal encoding): n cells of a unit, each with a digit and no
//! digit twice, hold every digit exactly once, so the models are exactly
//! the solutions. "A cell holds at most one digit" and "every digit is at
//! least once in every unit" follow from those and are added only when
//! [`Encoding::redundant`] asks for them (they help the solver prune).
//!
//! At-most-one over k literals is pairwise (k·(k−1)/2 binary clauses) up
//! to [`Encoding::pairwise_up_to`] literals and a sequential counter
//! beyond (k−1 extra variables, 3k−4 clauses), which keeps a 100×100
//! encoding in the millions of clauses rather than the hundreds of
//! millions.
//!
//! Sizes with the default settings (redundant clauses, pairwise up to 16),
//! variables / clauses:
//!
//! | puzzle                         | full                       | compact          |
//! |--------------------------------|----------------------------|------------------|
//! | 9×9, Norvig's hardest #1       | 729 / 12,010               | 169 / 1,195      |
//! | 25×25, `large/…-25-1`          | 75,625 / 180,253           | 2,201 / 28,697   |
//! | 100×100, `large/…-100-1`       | 4,960,000 / 11,886,585     | 16,790 / 200,339 |
//!
//! Pairwise everywhere, the full 25×25 is 15,625 / 752,753 and the full
//! 100×100 would be about 198 million binary clauses, which
//! [`MAX_LITERALS`] refuses. Without the redundant clauses the CNF is a
//! quarter smaller but CaDiCaL takes about four times as long (forum
//! hardest 9×9: 4.8 ms a puzzle against 1.1 ms; the full encoding 2.5 ms).

use thiserror::Error;

use crate::engine::grid::{Cell, Grid, Puzzle, Value};
use crate::engine::shape::Shape;
use crate::engine::trace::Reason;

/// Encodings larger than this many literals are refused
/// ([`EncodeError::TooLarge`]): about 400 MB in our buffer and several
/// times that inside a SAT solver.
pub const MAX_LITERALS: u64 = 100_000_000;

/// How a puzzle becomes CNF.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Encoding {
    /// Place naked and hidden singles first and create variables only for
    /// the candidates left (false: a variable for every (cell, digit), the
    /// givens as unit clauses).
    pub compact: bool,
    /// Also add the clauses implied by the others: at most one digit per
    /// cell and every digit at least once per unit.
    pub redundant: bool,
    /// At-most-one constraints over at most this many literals are
    /// pairwise; longer ones use a sequential counter.
    pub pairwise_up_to: usize,
}

impl Default for Encoding {
    /// The compact encoding with the redundant clauses, pairwise up to 16
    /// literals (the fastest of the variants measured on 9×9 and 25×25;
    /// see the module docs).
    fn default() -> Encoding {
        Encoding::compact()
    }
}

impl Encoding {
    /// The full encoding: a variable for every (cell, digit), the givens
    /// as unit clauses, with the redundant clauses.
    pub const fn full() -> Encoding {
        Encoding {
            compact: false,
            redundant: true,
            pairwise_up_to: 16,
        }
    }

    /// The compact encoding (singles placed first, variables only for the
    /// candidates left), with the redundant clauses.
    pub const fn compact() -> Encoding {
        Encoding {
            compact: true,
            redundant: true,
            pairwise_up_to: 16,
        }
    }

    /// The same encoding with or without the redundant clauses.
    pub const fn with_redundant(self, redundant: bool) -> Encoding {
        Encoding { redundant, ..self }
    }

    /// The same encoding with pairwise at-most-one up to `k` literals.
    pub const fn with_pairwise_up_to(self, k: usize) -> Encoding {
        Encoding {
            pairwise_up_to: k,
            ..self
        }
    }

    /// One line for humans and DIMACS comments, e.g. `compact with
    /// redundant clauses, pairwise at-most-one up to 16 literals, …`.
    pub fn describe(&self) -> String {
        format!(
            "{}{}, pairwise at-most-one up to {} literals, sequential counter beyond",
            if self.compact { "compact" } else { "full" },
            if self.redundant {
                " with redundant clauses"
            } else {
                " (minimal clauses)"
            },
            self.pairwise_up_to
        )
    }
}

/// Why a puzzle could not be encoded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// The CNF would be too large to build.
    #[error(
        "the {shape} CNF would have about {literals} literals, more than the {limit} allowed; \
         try the compact encoding or fewer blanks"
    )]
    TooLarge {
        /// The puzzle's shape.
        shape: Shape,
        /// Literals the encoding would need.
        literals: u64,
        /// The most allowed ([`MAX_LITERALS`]).
        limit: u64,
    },
}

/// Why a model does not describe a grid of its CNF.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ModelError {
    /// The model sets no digit in a cell.
    #[error("the model sets no digit in {cell}")]
    NoDigit {
        /// The cell.
        cell: Cell,
    },
    /// The model sets two digits in a cell.
    #[error("the model sets both {a} and {b} in {cell}")]
    TwoDigits {
        /// The cell.
        cell: Cell,
        /// One digit.
        a: Value,
        /// The other.
        b: Value,
    },
    /// The model's grid breaks a rule or a clue (the solver answered
    /// something that is not a solution).
    #[error("the model's grid is not a solution of the puzzle")]
    NotASolution,
}

/// A puzzle as CNF, with the map from variables back to cells and digits.
///
/// Variables are numbered from 1 as in DIMACS. The (cell, digit) variables
/// come first, cell by cell in row-major order and digit by digit inside a
/// cell; the sequential counters' helper variables follow them. In the full
/// encoding the variable of (cell c, 0-based digit d) is `c·n + d + 1`.
#[derive(Debug, Clone)]
pub struct Cnf {
    shape: Shape,
    encoding: Encoding,
    vars: u32,
    primary: u32,
    /// Clauses, each ended by a 0.
    lits: Vec<i32>,
    clauses: usize,
    /// First variable and number of variables of each cell (0, 0 for a
    /// cell with no variable).
    cell_vars: Vec<(u32, u32)>,
    /// The cell and 0-based digit of each (cell, digit) variable, by
    /// variable − 1.
    var_cand: Vec<(u32, u16)>,
    /// The cells known without the solver: givens, and in the compact
    /// encoding the singles.
    fixed: Vec<Option<Value>>,
    /// Placements made while building (compact only), in order.
    steps: Vec<(usize, Value, Reason)>,
    /// The compact encoding's propagation ran into a contradiction: the
    /// CNF is the single empty clause.
    contradiction: bool,
}

impl Cnf {
    /// Encodes `puzzle`. Conflicting givens are not checked here (the CNF
    /// of such a puzzle is unsatisfiable); the solvers report them first.
    pub fn encode(puzzle: &Puzzle, encoding: Encoding) -> Result<Cnf, EncodeError> {
        Cnf::encode_within(puzzle, encoding, None)
    }

    /// [`Cnf::encode`], the compact encoding on only the candidates `root`
    /// allows (`n.div_ceil(64)` words per cell, digit d at bit d % 64 of
    /// word d / 64; see `Search::root_mask`): a candidate no solution
    /// holds gets no variable, and the singles it leaves are placed. The
    /// full encoding ignores `root`.
    pub fn encode_within(
        puzzle: &Puzzle,
        encoding: Encoding,
        root: Option<&[u64]>,
    ) -> Result<Cnf, EncodeError> {
        let shape = puzzle.shape();
        let n = shape.n();
        let cells = shape.cells();
        let mut cnf = Cnf {
            shape,
            encoding,
            vars: 0,
            primary: 0,
            lits: Vec::new(),
            clauses: 0,
            cell_vars: vec![(0, 0); cells],
            var_cand: Vec::new(),
            fixed: puzzle.cells().to_vec(),
            steps: Vec::new(),
            contradiction: false,
        };
        if encoding.compact {
            let mut cands = Candidates::new(puzzle);
            let words = n.div_ceil(64);
            let barred = root
                .filter(|r| r.len() == cells * words)
                .map_or(Ok(()), |root| {
                    cands.bar(|c, d| root[c * words + d / 64] >> (d % 64) & 1 == 0)
                });
            match barred.and_then(|()| cands.propagate()) {
                Ok(steps) => cnf.steps = steps,
                Err(()) => {
                    cnf.contradiction = true;
                    cnf.lits.push(0);
                    cnf.clauses = 1;
                    return Ok(cnf);
                }
            }
            cnf.fixed = cands.value.clone();
            cnf.build(
                |c| cands.digits(c),
                |u, d| (!cands.placed[u * n + d]).then(|| cands.count[u * n + d] as usize),
            )?;
        } else {
            let all: Vec<usize> = (0..n).collect();
            cnf.build(|_| all.clone(), |_, _| Some(n))?;
            // The givens as unit clauses.
            for (c, v) in puzzle.cells().iter().enumerate() {
                if let Some(v) = v {
                    let lit = cnf.var(c, v.index()).unwrap_or(0) as i32;
                    cnf.clause(&[lit]);
                }
            }
        }
        Ok(cnf)
    }

    /// Creates the (cell, digit) variables of the cells `digits` gives
    /// digits for, and the clauses over them; `group(u, d)` is the number
    /// of places digit d has left in unit u, or `None` when it is placed.
    fn build(
        &mut self,
        digits: impl Fn(usize) -> Vec<usize>,
        group: impl Fn(usize, usize) -> Option<usize>,
    ) -> Result<(), EncodeError> {
        let shape = self.shape;
        let n = shape.n();
        let full = !self.encoding.compact;
        let open_cell = |c: usize| full || self.fixed[c].is_none();
        // Refuse what would not fit before building any of it.
        let redundant = u64::from(self.encoding.redundant);
        let mut literals = 0u64;
        for c in (0..shape.cells()).filter(|&c| open_cell(c)) {
            let k = digits(c).len();
            literals += k as u64 + 1 + redundant * self.amo_size(k).1;
        }
        for u in 0..shape.units() {
            for k in (0..n).filter_map(|d| group(u, d)) {
                literals += self.amo_size(k).1 + redundant * (k as u64 + 1);
            }
        }
        if literals > MAX_LITERALS {
            return Err(EncodeError::TooLarge {
                shape,
                literals,
                limit: MAX_LITERALS,
            });
        }
        // Variables, cell by cell.
        let mut next = 1u32;
        for c in 0..shape.cells() {
            if !open_cell(c) {
                continue;
            }
            let ds = digits(c);
            self.cell_vars[c] = (next, ds.len() as u32);
            next += ds.len() as u32;
            self.var_cand
                .extend(ds.iter().map(|&d| (c as u32, d as u16)));
        }
        self.primary = next - 1;
        self.vars = self.primary;
        self.lits.reserve(literals as usize);
        // Each open cell holds a digit (and, redundantly, at most one).
        let mut lits: Vec<i32> = Vec::new();
        for c in 0..shape.cells() {
            let (first, len) = self.cell_vars[c];
            if len == 0 && self.fixed[c].is_some() {
                continue;
            }
            lits.clear();
            lits.extend((first..first + len).map(|v| v as i32));
            self.clause(&lits);
            if self.encoding.redundant {
                self.at_most_one(&lits);
            }
        }
        // Each digit at most once per unit (and, redundantly, at least once).
        let mut by_digit: Vec<Vec<i32>> = vec![Vec::new(); n];
        for u in 0..shape.units() {
            by_digit.iter_mut().for_each(Vec::clear);
            for c in shape.unit_cells(u) {
                let (first, len) = self.cell_vars[c];
                for v in first..first + len {
                    let d = usize::from(self.var_cand[(v - 1) as usize].1);
                    by_digit[d].push(v as i32);
                }
            }
            for (d, g) in by_digit.iter().enumerate() {
                if group(u, d).is_some() {
                    self.at_most_one(g);
                    if self.encoding.redundant {
                        self.clause(g);
                    }
                }
            }
        }
        Ok(())
    }

    /// Number of extra variables and of literals (with the clause ends)
    /// that at-most-one over `k` literals takes.
    fn amo_size(&self, k: usize) -> (u64, u64) {
        let k = k as u64;
        if k <= 1 {
            (0, 0)
        } else if k as usize <= self.encoding.pairwise_up_to {
            (0, k * (k - 1) / 2 * 3)
        } else {
            // k − 1 helpers and 3k − 4 binary clauses, three entries each
            // with the terminating 0.
            (k - 1, (3 * k - 4) * 3)
        }
    }

    fn clause(&mut self, lits: &[i32]) {
        self.lits.extend_from_slice(lits);
        self.lits.push(0);
        self.clauses += 1;
    }

    /// At most one of `lits` is true.
    fn at_most_one(&mut self, lits: &[i32]) {
        let k = lits.len();
        if k <= 1 {
            return;
        }
        if k <= self.encoding.pairwise_up_to {
            for (i, &a) in lits.iter().enumerate() {
                for &b in &lits[i + 1..] {
                    self.clause(&[-a, -b]);
                }
            }
            return;
        }
        // Sequential counter: s_i says "one of x_1..x_i is true".
        let s0 = self.vars as i32; // s_i is s0 + i, for i in 1..k
        self.vars += (k - 1) as u32;
        let s = |i: usize| s0 + i as i32;
        self.clause(&[-lits[0], s(1)]);
        for i in 2..k {
            let x = lits[i - 1];
            self.clause(&[-x, s(i)]);
            self.clause(&[-s(i - 1), s(i)]);
            self.clause(&[-x, -s(i - 1)]);
        }
        self.clause(&[-lits[k - 1], -s(k - 1)]);
    }

    /// The shape encoded.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The encoding used.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Number of variables, helpers included.
    pub fn num_vars(&self) -> u32 {
        self.vars
    }

    /// Number of (cell, digit) variables (they come first).
    pub fn num_cell_vars(&self) -> u32 {
        self.primary
    }

    /// Number of clauses.
    pub fn num_clauses(&self) -> usize {
        self.clauses
    }

    /// Number of literals over all clauses.
    pub fn num_literals(&self) -> usize {
        self.lits.len() - self.clauses
    }

    /// The clauses, in order.
    pub fn clauses(&self) -> impl Iterator<Item = &[i32]> {
        self.lits
            .split_inclusive(|&l| l == 0)
            .map(|c| &c[..c.len() - 1])
    }

    /// Whether placing singles already proved that there is no solution
    /// (the CNF is then the single empty clause).
    pub fn is_contradiction(&self) -> bool {
        self.contradiction
    }

    /// The cells known before solving: the givens, and in the compact
    /// encoding the cells the singles fixed.
    pub fn fixed(&self) -> &[Option<Value>] {
        &self.fixed
    }

    /// The placements that building the compact encoding made, in order,
    /// with their reason (givens are not listed).
    pub fn steps(&self) -> &[(usize, Value, Reason)] {
        &self.steps
    }

    /// The variable of `cell` holding 0-based `digit`, if it has one.
    pub fn var(&self, cell: usize, digit: usize) -> Option<u32> {
        let &(first, len) = self.cell_vars.get(cell)?;
        (first..first + len).find(|&v| usize::from(self.var_cand[(v - 1) as usize].1) == digit)
    }

    /// The first variable and the number of variables of `cell` (its
    /// candidates' variables are `first..first + len`).
    pub fn cell_vars(&self, cell: usize) -> (u32, u32) {
        self.cell_vars.get(cell).copied().unwrap_or((0, 0))
    }

    /// The (cell, 0-based digit) of a (cell, digit) variable; `None` for a
    /// helper variable or a number out of range.
    pub fn decode(&self, var: u32) -> Option<(usize, usize)> {
        let i = usize::try_from(var).ok()?.checked_sub(1)?;
        self.var_cand
            .get(i)
            .map(|&(c, d)| (c as usize, usize::from(d)))
    }

    /// The grid a model describes. `value(v)` is the model's value of
    /// variable v (true, false, or `None` when it left v out). Every open
    /// cell needs exactly one true variable; the grid must solve `puzzle`
    /// when one is given.
    pub fn grid(&self, value: impl Fn(u32) -> Option<bool>) -> Result<Grid, ModelError> {
        let shape = self.shape;
        let mut digits = Vec::with_capacity(shape.cells());
        for c in 0..shape.cells() {
            let (first, len) = self.cell_vars[c];
            if len == 0 {
                match self.fixed[c] {
                    Some(v) => {
                        digits.push(v.index());
                        continue;
                    }
                    None => {
                        return Err(ModelError::NoDigit {
                            cell: Cell::from_index(shape, c),
                        });
                    }
                }
            }
            let mut found: Option<usize> = None;
            for v in first..first + len {
                if value(v) == Some(true) {
                    let d = usize::from(self.var_cand[(v - 1) as usize].1);
                    if let Some(a) = found {
                        return Err(ModelError::TwoDigits {
                            cell: Cell::from_index(shape, c),
                            a: Value::from_index(a),
                            b: Value::from_index(d),
                        });
                    }
                    found = Some(d);
                }
            }
            match found {
                Some(d) => digits.push(d),
                None => {
                    return Err(ModelError::NoDigit {
                        cell: Cell::from_index(shape, c),
                    });
                }
            }
        }
        let grid = Grid::from_indices(shape, digits.into_iter());
        let givens =
            Puzzle::new(shape, self.fixed.clone()).map_err(|_| ModelError::NotASolution)?;
        if givens.is_solved_by(&grid) {
            Ok(grid)
        } else {
            Err(ModelError::NotASolution)
        }
    }

    /// The clause that forbids `grid`: one of the open cells' (cell,
    /// digit) variables of the grid must be false. Empty when no cell is
    /// open (every cell was fixed: no other solution).
    pub fn blocking_clause(&self, grid: &Grid) -> Vec<i32> {
        (0..self.shape.cells())
            .filter(|&c| self.fixed[c].is_none())
            .filter_map(|c| self.var(c, grid.get(c).index()))
            .map(|v| -(v as i32))
            .collect()
    }
}

/// Candidate sets of every cell, for placing singles to a fixed point
/// (any shape up to 400×400: one row of 64-bit words per cell).
struct Candidates {
    shape: Shape,
    words: usize,
    bits: Vec<u64>,
    value: Vec<Option<Value>>,
    /// Places left for digit d in unit u (open cells only), at u·n + d.
    count: Vec<u32>,
    /// Whether digit d is placed in unit u.
    placed: Vec<bool>,
}

/// A single to look at: a cell with one candidate left, or a unit-digit.
enum Todo {
    Cell(usize),
    UnitDigit(usize, usize),
}

impl Candidates {
    fn new(puzzle: &Puzzle) -> Candidates {
        let shape = puzzle.shape();
        let n = shape.n();
        let words = n.div_ceil(64);
        let units = shape.units();
        let mut placed = vec![false; units * n];
        for (c, v) in puzzle.cells().iter().enumerate() {
            if let Some(v) = v {
                for u in shape.units_of(c) {
                    placed[u * n + v.index()] = true;
                }
            }
        }
        let mut bits = vec![0u64; shape.cells() * words];
        let mut count = vec![0u32; units * n];
        for (c, v) in puzzle.cells().iter().enumerate() {
            if v.is_some() {
                continue;
            }
            let us = shape.units_of(c);
            let row = &mut bits[c * words..(c + 1) * words];
            for d in 0..n {
                if us.iter().all(|&u| !placed[u * n + d]) {
                    row[d / 64] |= 1 << (d % 64);
                    for &u in &us {
                        count[u * n + d] += 1;
                    }
                }
            }
        }
        Candidates {
            shape,
            words,
            bits,
            value: puzzle.cells().to_vec(),
            count,
            placed,
        }
    }

    fn row(&self, c: usize) -> &[u64] {
        &self.bits[c * self.words..(c + 1) * self.words]
    }

    fn has(&self, c: usize, d: usize) -> bool {
        self.bits[c * self.words + d / 64] >> (d % 64) & 1 == 1
    }

    fn size(&self, c: usize) -> u32 {
        self.row(c).iter().map(|w| w.count_ones()).sum()
    }

    fn digits(&self, c: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for (i, &w) in self.row(c).iter().enumerate() {
            let mut w = w;
            while w != 0 {
                out.push(i * 64 + w.trailing_zeros() as usize);
                w &= w - 1;
            }
        }
        out
    }

    /// Removes from every open cell the digits `barred` says no solution
    /// puts there; `Err` when a cell is left with none.
    fn bar(&mut self, barred: impl Fn(usize, usize) -> bool) -> Result<(), ()> {
        // `propagate` finds the singles this leaves by itself.
        let mut todo = Vec::new();
        for c in 0..self.shape.cells() {
            if self.value[c].is_some() {
                continue;
            }
            for d in self.digits(c) {
                if barred(c, d) {
                    self.remove(c, d, &mut todo)?;
                }
            }
        }
        Ok(())
    }

    /// Removes d from open cell c, noting what may have become a single.
    fn remove(&mut self, c: usize, d: usize, todo: &mut Vec<Todo>) -> Result<(), ()> {
        if !self.has(c, d) {
            return Ok(());
        }
        self.bits[c * self.words + d / 64] &= !(1 << (d % 64));
        let n = self.shape.n();
        for u in self.shape.units_of(c) {
            let k = u * n + d;
            self.count[k] -= 1;
            if !self.placed[k] && self.count[k] <= 1 {
                todo.push(Todo::UnitDigit(u, d));
            }
        }
        match self.size(c) {
            0 => Err(()),
            1 => {
                todo.push(Todo::Cell(c));
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Places d in open cell c.
    fn assign(&mut self, c: usize, d: usize, todo: &mut Vec<Todo>) -> Result<(), ()> {
        if !self.has(c, d) {
            return Err(());
        }
        let n = self.shape.n();
        for e in self.digits(c) {
            if e != d {
                self.remove(c, e, todo)?;
            }
        }
        self.value[c] = Some(Value::from_index(d));
        let units = self.shape.units_of(c);
        for u in units {
            self.placed[u * n + d] = true;
            self.count[u * n + d] -= 1;
        }
        for u in units {
            for p in self.shape.unit_cells(u) {
                if self.value[p].is_none() {
                    self.remove(p, d, todo)?;
                }
            }
        }
        Ok(())
    }

    /// Naked and hidden singles to a fixed point: the placements made, or
    /// `Err` when a cell or a unit-digit has no place left.
    fn propagate(&mut self) -> Result<Vec<(usize, Value, Reason)>, ()> {
        let n = self.shape.n();
        let mut todo: Vec<Todo> = Vec::new();
        for c in 0..self.shape.cells() {
            if self.value[c].is_none() && self.size(c) <= 1 {
                todo.push(Todo::Cell(c));
            }
        }
        for u in 0..self.shape.units() {
            for d in 0..n {
                if !self.placed[u * n + d] && self.count[u * n + d] <= 1 {
                    todo.push(Todo::UnitDigit(u, d));
                }
            }
        }
        let mut steps = Vec::new();
        while let Some(t) = todo.pop() {
            match t {
                Todo::Cell(c) => {
                    if self.value[c].is_some() {
                        continue;
                    }
                    let ds = self.digits(c);
                    let [d] = ds[..] else {
                        if ds.is_empty() {
                            return Err(());
                        }
                        continue;
                    };
                    self.assign(c, d, &mut todo)?;
                    steps.push((c, Value::from_index(d), Reason::NakedSingle));
                }
                Todo::UnitDigit(u, d) => {
                    if self.placed[u * n + d] {
                        continue;
                    }
                    let place = self
                        .shape
                        .unit_cells(u)
                        .find(|&c| self.value[c].is_none() && self.has(c, d));
                    let Some(c) = place else {
                        return Err(());
                    };
                    if self.count[u * n + d] > 1 {
                        continue;
                    }
                    self.assign(c, d, &mut todo)?;
                    steps.push((c, Value::from_index(d), Reason::HiddenSingle { unit: u }));
                }
            }
        }
        Ok(steps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classic(s: &str) -> Puzzle {
        crate::engine::format::parse_one(s, "test").unwrap()
    }

    /// Root candidates that bar digits take their variables away and
    /// place the singles left; barring every digit but the solution's
    /// leaves no variable and the solution itself; barring a solution's
    /// digit where it is the cell's last leaves a contradiction.
    #[test]
    fn root_candidates_shrink_the_compact_encoding() {
        let (p, solution) = super::super::tests::small_unique();
        let whole = Cnf::encode(&p, Encoding::default()).unwrap();
        let mask = |keep: &dyn Fn(usize, usize) -> bool| -> Vec<u64> {
            (0..16)
                .map(|c| (0..4).filter(|&d| keep(c, d)).map(|d| 1u64 << d).sum())
                .collect()
        };
        // Every digit allowed: the same CNF.
        let all = mask(&|_, _| true);
        let same = Cnf::encode_within(&p, Encoding::default(), Some(&all)).unwrap();
        assert_eq!(same.num_vars(), whole.num_vars());
        assert_eq!(same.num_clauses(), whole.num_clauses());
        // Only the solution's digits: no variable, the solution.
        let only = mask(&|c, d| d + 1 == solution[c]);
        let cnf = Cnf::encode_within(&p, Encoding::default(), Some(&only)).unwrap();
        assert!(!cnf.is_contradiction());
        assert_eq!(cnf.num_cell_vars(), 0);
        let grid = cnf.grid(|_| None).unwrap();
        assert!(p.is_solved_by(&grid));
        assert_eq!(
            (0..16).map(|c| grid.get(c).get()).collect::<Vec<_>>(),
            solution.to_vec()
        );
        // Cell 1 barred from its only digit: no solution.
        let wrong = mask(&|c, d| c != 1 && d + 1 == solution[c] || c == 1 && d + 1 != 3);
        let cnf = Cnf::encode_within(&p, Encoding::default(), Some(&wrong)).unwrap();
        assert!(cnf.is_contradiction());
    }

    #[test]
    fn full_encoding_of_an_empty_4x4_has_the_textbook_size() {
        let shape = Shape::square(2).unwrap();
        let p = Puzzle::empty(shape);
        let cnf = Cnf::encode(&p, Encoding::full().with_redundant(false)).unwrap();
        // 16 cells × 4 digits; 16 cell clauses + 48 unit-digits × 6 pairs.
        assert_eq!(cnf.num_vars(), 64);
        assert_eq!(cnf.num_clauses(), 16 + 48 * 6);
        let cnf = Cnf::encode(&p, Encoding::full()).unwrap();
        assert_eq!(cnf.num_clauses(), 16 + 48 * 6 + 16 * 6 + 48);
        assert_eq!(cnf.var(5, 2), Some(5 * 4 + 3));
        assert_eq!(cnf.decode(5 * 4 + 3), Some((5, 2)));
        assert_eq!(cnf.decode(0), None);
        assert_eq!(cnf.decode(65), None);
    }

    #[test]
    fn sequential_counter_takes_over_above_the_pairwise_limit() {
        let shape = Shape::square(2).unwrap();
        let p = Puzzle::empty(shape);
        let enc = Encoding::full()
            .with_redundant(false)
            .with_pairwise_up_to(3);
        let cnf = Cnf::encode(&p, enc).unwrap();
        // Each of the 48 unit-digit groups of 4 takes 3 helpers and 8 clauses.
        assert_eq!(cnf.num_vars(), 64 + 48 * 3);
        assert_eq!(cnf.num_clauses(), 16 + 48 * 8);
        assert!(cnf.clauses().all(|c| !c.is_empty()));
    }

    #[test]
    fn compact_encoding_places_singles_first() {
        // Solvable by singles alone: nothing is left for the solver.
        let p = classic(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        );
        let cnf = Cnf::encode(&p, Encoding::compact()).unwrap();
        assert_eq!((cnf.num_vars(), cnf.num_clauses()), (0, 0));
        assert_eq!(cnf.steps().len(), 81 - p.clue_count());
        let grid = cnf.grid(|_| None).unwrap();
        assert!(p.is_solved_by(&grid));
        assert!(cnf.blocking_clause(&grid).is_empty());
    }

    #[test]
    fn compact_encoding_finds_contradictions() {
        // r1c1 sees 1..8 in its row and 9 in its column.
        let mut s = String::from(".12345678");
        s.push_str(&".".repeat(36));
        s.push('9');
        s.push_str(&".".repeat(35));
        let cnf = Cnf::encode(&classic(&s), Encoding::compact()).unwrap();
        assert!(cnf.is_contradiction());
        assert_eq!(cnf.clauses().collect::<Vec<_>>(), vec![&[] as &[i32]]);
    }

    #[test]
    fn compact_variables_decode_to_their_candidates() {
        let p = classic(
            "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6",
        );
        let cnf = Cnf::encode(&p, Encoding::compact()).unwrap();
        assert!(cnf.num_cell_vars() > 0 && cnf.num_cell_vars() < 81 * 9);
        for v in 1..=cnf.num_cell_vars() {
            let (c, d) = cnf.decode(v).unwrap();
            assert_eq!(cnf.var(c, d), Some(v));
            assert!(cnf.fixed()[c].is_none());
        }
        // A model with two digits in a cell, or none, is refused.
        let (first, len) = (1..81)
            .map(|c| cnf.cell_vars(c))
            .find(|r| r.1 >= 2)
            .unwrap();
        assert!(matches!(
            cnf.grid(|v| Some(v == first || v == first + 1)),
            Err(ModelError::TwoDigits { .. })
        ));
        assert!(len >= 2);
        assert!(matches!(
            cnf.grid(|_| Some(false)),
            Err(ModelError::NoDigit { .. })
        ));
    }

    #[test]
    fn oversized_encodings_are_refused() {
        let p = Puzzle::empty(Shape::square(20).unwrap());
        let e = Cnf::encode(&p, Encoding::full()).unwrap_err();
        assert!(e.to_string().contains("400×400") || e.to_string().contains("literals"));
    }
}
