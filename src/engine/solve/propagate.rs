//! The default exact solver for every shape: naked and hidden singles to a
//! fixed point, then search on the most constrained choice, with all state
//! on an undo trail.
//!
//! State per cell is a candidate set `B` (monomorphised over the width);
//! per unit and digit a count of the places left. Changes made below the
//! first guess are logged one (cell, digit) pair at a time and undone on
//! backtrack; nothing is copied and nothing is allocated per node once the
//! buffers have grown to the puzzle's needs. Changes at the root (givens and
//! what they force) are never undone, so they are not logged.

use std::sync::Arc;

use crate::engine::bits::Bits;
use crate::engine::grid::{Cell, Grid, Puzzle, Value};
use crate::engine::limits::{Limits, StopReason};
use crate::engine::shape::{Shape, Tables};
use crate::engine::trace::{Reason, TraceEvent, TraceSink};

use super::RawResult;

/// How many assignments pass between two checks of the limits on a 16×16;
/// fewer on larger grids, where one assignment costs more (about n peers
/// to update): [`Search::new`] scales it, so a deadline is seen within
/// about the same time at every size (a 144×144's root propagation went
/// 100 ms past a 10 ms deadline at a fixed 256).
const CHECK_EVERY: u32 = 256;

#[derive(Debug, Clone, Copy)]
enum Job {
    Naked(u32),
    Hidden(u32, u32),
    /// Unit and digit whose places may all lie in one other unit, with the
    /// count of places when queued: a job whose count has since dropped is
    /// stale (the drop queued a newer job for the same unit-digit, which
    /// ran first and did all this one could do), so it is skipped.
    Locked(u32, u16, u16),
}

#[derive(Debug, Clone, Copy)]
struct Frame {
    trail: usize,
    assigned: usize,
    cell: u32,
    digit: u32,
}

/// Signals that the current branch is dead.
struct Dead;

/// How one depth-first run ended.
enum RunEnd {
    /// The whole tree was searched; this many solutions were in it.
    Exhausted(u64),
    /// The limit of solutions was reached.
    Enough,
    /// A limit or the sink stopped the search.
    Stopped(StopReason),
    /// The failure cutoff was reached: start again from the root.
    Restart,
}

/// Largest side for which locked candidates (box/line intersections) are
/// propagated: each check scans a unit, which pays off below this size.
const LOCKED_MAX_SIDE: usize = 100;

/// Failures allowed in a run of Luby weight 1.
const RESTART_BASE: u64 = 256;

/// Seed of the tie-breaking generator: runs are reproducible.
const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// The Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 … (0-based index).
fn luby(index: u32) -> u64 {
    let mut i = index as u64 + 1;
    loop {
        let mut k = 1u32;
        while (1u64 << k) - 1 < i {
            k += 1;
        }
        if i == (1u64 << k) - 1 {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// Steps the xorshift64 state `rng` and maps it to a number below `k`.
#[inline]
fn xorshift_below(rng: &mut u64, k: u32) -> u32 {
    let mut x = *rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *rng = x;
    (((x >> 32) * k as u64) >> 32) as u32
}

/// Finds an augmenting path from slot `i` (unmatched) in the cell–digit
/// graph whose candidates are `dom`, skipping digits in `seen`; on success
/// the matching (`owner` per digit, `mate` per slot) grows by one.
fn augment<B: Bits>(
    dom: &[B],
    owner: &mut [u16],
    mate: &mut [u16],
    i: usize,
    seen: &mut B,
) -> bool {
    let open = dom[i].and_not(seen);
    for d in open.iter() {
        if owner[d] == u16::MAX {
            owner[d] = i as u16;
            mate[i] = d as u16;
            return true;
        }
    }
    for d in open.iter() {
        if seen.has(d) {
            continue;
        }
        seen.insert(d);
        if augment(dom, owner, mate, owner[d] as usize, seen) {
            owner[d] = i as u16;
            mate[i] = d as u16;
            return true;
        }
    }
    false
}

impl<B: Bits> HallScratch<B> {
    /// Buffers of no size (a placeholder while the real ones are in use).
    fn empty() -> HallScratch<B> {
        HallScratch {
            slots: Vec::new(),
            dom: Vec::new(),
            mate: Vec::new(),
            owner: Vec::new(),
            index: Vec::new(),
            low: Vec::new(),
            stack: Vec::new(),
            on_stack: Vec::new(),
            comp: Vec::new(),
            calls: Vec::new(),
        }
    }

    /// Tarjan's strongly connected components of the graph with an edge
    /// from slot i to the owner of each of its candidates other than
    /// `mate[i]`, over the first `n` slots; `comp` gets the same number
    /// within a component.
    fn components(&mut self, mate: &[u16], n: usize) {
        let out = |dom: &[B], v: usize| dom[v].and_not(&B::single(mate[v] as usize));
        self.index[..n].fill(u32::MAX);
        self.on_stack[..n].fill(false);
        self.stack.clear();
        let mut next = 0u32;
        for root in 0..n {
            if self.index[root] != u32::MAX {
                continue;
            }
            self.index[root] = next;
            self.low[root] = next;
            next += 1;
            self.stack.push(root as u16);
            self.on_stack[root] = true;
            self.calls.clear();
            self.calls.push((root as u16, out(&self.dom, root)));
            while let Some(top) = self.calls.last_mut() {
                let v = top.0 as usize;
                if let Some(d) = top.1.first() {
                    top.1.remove(d);
                    let w = self.owner[d] as usize;
                    if self.index[w] == u32::MAX {
                        self.index[w] = next;
                        self.low[w] = next;
                        next += 1;
                        self.stack.push(w as u16);
                        self.on_stack[w] = true;
                        self.calls.push((w as u16, out(&self.dom, w)));
                    } else if self.on_stack[w] {
                        self.low[v] = self.low[v].min(self.index[w]);
                    }
                    continue;
                }
                self.calls.pop();
                if self.low[v] == self.index[v] {
                    while let Some(w) = self.stack.pop() {
                        let w = w as usize;
                        self.on_stack[w] = false;
                        self.comp[w] = self.index[v];
                        if w == v {
                            break;
                        }
                    }
                }
                if let Some(parent) = self.calls.last() {
                    let p = parent.0 as usize;
                    self.low[p] = self.low[p].min(self.low[v]);
                }
            }
        }
    }
}

/// A reusable search over one shape with candidate sets of width `B`.
#[derive(Debug)]
pub struct Search<B: Bits> {
    shape: Shape,
    n: usize,
    tables: Arc<Tables>,
    cand: Vec<B>,
    assigned: Vec<bool>,
    /// places[u * n + d]: cells of unit u that still allow digit d.
    places: Vec<u16>,
    /// (cell, digit) eliminations below the root, in order.
    trail: Vec<(u32, u32)>,
    /// Cells assigned below the root, with their digits, in order.
    assigned_trail: Vec<(u32, u32)>,
    /// Per unit: the digits given or assigned in it. A hidden-single job
    /// for a digit already placed in its unit has nothing to do (its one
    /// place is that cell) and skips the scan for it: placing a digit
    /// leaves each of the cell's three units with one place for it, and
    /// queues such a job for each.
    placed: Vec<B>,
    queue: Vec<Job>,
    frames: Vec<Frame>,
    unassigned: usize,
    nodes: u64,
    work: u32,
    stop: Option<StopReason>,
    /// Conflict weights per unit (dom/wdeg branching); kept across restarts.
    weight: Vec<u32>,
    /// Backtracks in the current run, and the cutoff that triggers a restart.
    fails: u64,
    cutoff: u64,
    rng: u64,
    /// A unit-digit with at most this many places (and at least two) is
    /// checked for locked candidates; 0 turns the check off.
    lock_max: u16,
    /// Assignments between two checks of the limits ([`CHECK_EVERY`]
    /// scaled to the size).
    check_every: u32,
    /// Whether Hall sets are pruned (see [`Search::set_hall`]).
    hall: bool,
    /// Units whose candidates changed since their last Hall check, and a
    /// flag per unit for membership.
    dirty: Vec<u32>,
    is_dirty: Vec<bool>,
    /// Scratch for [`Search::hall_unit`], per unit: the last matching
    /// (digit per cell slot, kept as a warm start; any value is safe).
    mate: Vec<u16>,
    hall_scratch: HallScratch<B>,
    /// The candidates of the last root fixed point of an untraced run
    /// without exclusions reached before any solution was found (the
    /// givens' consequences plus what the root learned from failed
    /// branches: true of every solution), and whether they are that.
    root_kept: Vec<B>,
    root_valid: bool,
    /// Whether this run keeps them (untraced, no exclusions).
    keep_root: bool,
}

/// Buffers of one Hall check (one unit at a time).
#[derive(Debug)]
struct HallScratch<B> {
    /// The unit's unassigned cells (their places in the unit), in order:
    /// the slots of the check. An assigned cell is matched to its digit,
    /// which no other cell of the unit holds any more, a component of its
    /// own; leaving it out changes nothing but the cost.
    slots: Vec<u16>,
    /// Candidates of those cells, by slot.
    dom: Vec<B>,
    /// Digit matched to each slot (u16::MAX: none).
    mate: Vec<u16>,
    /// Slot matched to each digit (u16::MAX: none).
    owner: Vec<u16>,
    /// Tarjan: index, low link, stack, on-stack flag, component, and the
    /// explicit call stack (slot, digits left to visit).
    index: Vec<u32>,
    low: Vec<u32>,
    stack: Vec<u16>,
    on_stack: Vec<bool>,
    comp: Vec<u32>,
    calls: Vec<(u16, B)>,
}

impl<B: Bits> Search<B> {
    /// Buffers for `shape` (n must fit in `B`).
    pub fn new(shape: Shape) -> Search<B> {
        let n = shape.n();
        debug_assert!(n <= B::CAPACITY);
        Search {
            shape,
            n,
            tables: shape.tables(),
            cand: vec![B::full(n); n * n],
            assigned: vec![false; n * n],
            places: vec![n as u16; 3 * n * n],
            trail: Vec::new(),
            assigned_trail: Vec::new(),
            placed: vec![B::full(0); 3 * n],
            queue: Vec::new(),
            frames: Vec::new(),
            unassigned: n * n,
            nodes: 0,
            work: 0,
            stop: None,
            weight: vec![1; 3 * n],
            fails: 0,
            cutoff: u64::MAX,
            rng: SEED,
            lock_max: if n <= LOCKED_MAX_SIDE {
                shape.box_rows().max(shape.box_cols()) as u16
            } else {
                0
            },
            check_every: (CHECK_EVERY * 16 / n.max(16) as u32).max(1),
            hall: false,
            dirty: Vec::new(),
            is_dirty: vec![false; 3 * n],
            mate: vec![0; 3 * n * n],
            hall_scratch: HallScratch {
                slots: Vec::with_capacity(n),
                dom: vec![B::full(0); n],
                mate: vec![0; n],
                owner: vec![u16::MAX; n],
                index: vec![0; n],
                low: vec![0; n],
                stack: Vec::with_capacity(n),
                on_stack: vec![false; n],
                comp: vec![0; n],
                calls: Vec::with_capacity(n),
            },
            root_kept: Vec::new(),
            root_valid: false,
            keep_root: false,
        }
    }

    /// The digits of each cell that survived the last run's root fixed
    /// point (see `root_kept`), `n.div_ceil(64)` words per cell, digit d
    /// at bit d % 64 of word d / 64; None when that run kept none (traced,
    /// with exclusions, or a solution found before the root settled).
    /// Every solution of the puzzle keeps each of its digits.
    pub fn root_mask(&self) -> Option<Vec<u64>> {
        if !self.root_valid {
            return None;
        }
        let words = self.n.div_ceil(64);
        let mut mask = vec![0u64; self.root_kept.len() * words];
        for (c, b) in self.root_kept.iter().enumerate() {
            for d in b.iter() {
                mask[c * words + d / 64] |= 1 << (d % 64);
            }
        }
        Some(mask)
    }

    /// Turns Hall-set pruning on or off (off for a new search). When on,
    /// every fixed point of singles and locked candidates is also made
    /// all-different consistent per unit (Régin: a perfect matching of
    /// cells to digits, then each candidate kept only when some perfect
    /// matching uses it), which removes every naked and hidden subset.
    /// Off, the search is exactly the one without this code.
    pub fn set_hall(&mut self, on: bool) {
        self.hall = on;
    }

    /// The shape this search was built for.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    fn reset(&mut self) {
        let n = self.n;
        self.cand.fill(B::full(n));
        self.assigned.fill(false);
        self.placed.fill(B::full(0));
        self.places.fill(n as u16);
        self.unassigned = n * n;
        self.restart_state();
    }

    /// The search's own state back to a new search's: empty trails, queue
    /// and frames, no nodes, weights 1, no cutoff, the seed.
    fn restart_state(&mut self) {
        self.trail.clear();
        self.assigned_trail.clear();
        self.queue.clear();
        self.frames.clear();
        self.nodes = 0;
        self.work = 0;
        self.stop = None;
        self.weight.fill(1);
        self.fails = 0;
        self.cutoff = u64::MAX;
        self.rng = SEED;
        self.clear_dirty();
    }

    /// Forgets which units changed (after an undo to a state that was a
    /// fixed point).
    fn clear_dirty(&mut self) {
        for &u in &self.dirty {
            self.is_dirty[u as usize] = false;
        }
        self.dirty.clear();
    }

    /// Marks every unit for a Hall check.
    fn all_dirty(&mut self) {
        self.clear_dirty();
        if self.hall {
            self.dirty.extend(0..3 * self.n as u32);
            self.is_dirty.fill(true);
        }
    }

    /// The givens placed all at once (untraced searches): candidates from
    /// the digits given in each unit, places counted from the candidates,
    /// and a job queued for every single, hidden single and unit-digit in
    /// locked range. The fixed point the queue then reaches is the one the
    /// given-by-given path reaches (singles and locked candidates to a
    /// fixed point have one closure), and no weight has changed when the
    /// root is alive, so the search that follows is the same. False when
    /// the givens clash (or leave a cell or a unit-digit without a place).
    fn root(&mut self, puzzle: &Puzzle) -> bool {
        let n = self.n;
        self.restart_state();
        let tables = Arc::clone(&self.tables);
        // Digits given in each unit.
        let used = &mut self.placed;
        used.clear();
        used.resize(3 * n, B::full(0));
        let mut unassigned = n * n;
        for (c, v) in puzzle.cells().iter().enumerate() {
            match v {
                Some(v) => {
                    let d = v.index();
                    if d >= n {
                        return false;
                    }
                    for u in tables.units_of(c) {
                        let u = &mut used[u as usize];
                        if u.has(d) {
                            return false;
                        }
                        u.insert(d);
                    }
                    self.cand[c] = B::single(d);
                    self.assigned[c] = true;
                    unassigned -= 1;
                }
                None => self.assigned[c] = false,
            }
        }
        self.unassigned = unassigned;
        let full = B::full(n);
        self.places.fill(0);
        for c in 0..n * n {
            let [r, col, b] = tables.units_of(c);
            if !self.assigned[c] {
                let free = full
                    .and_not(&used[r as usize])
                    .and_not(&used[col as usize])
                    .and_not(&used[b as usize]);
                self.cand[c] = free;
                if free.is_empty() {
                    return false;
                }
                if free.is_single() {
                    self.queue.push(Job::Naked(c as u32));
                }
            }
            let (r, col, b) = (r as usize * n, col as usize * n, b as usize * n);
            for d in self.cand[c].iter() {
                self.places[r + d] += 1;
                self.places[col + d] += 1;
                self.places[b + d] += 1;
            }
        }
        for (u, (row, given)) in self.places.chunks_exact(n).zip(used.iter()).enumerate() {
            for (d, &k) in row.iter().enumerate() {
                match k {
                    0 => return false,
                    1 if !given.has(d) => self.queue.push(Job::Hidden(u as u32, d as u32)),
                    k if k >= 2 && k <= self.lock_max => {
                        self.queue.push(Job::Locked(u as u32, d as u16, k))
                    }
                    _ => {}
                }
            }
        }
        true
    }

    fn cell(&self, c: usize) -> Cell {
        Cell::from_index(self.shape, c)
    }

    /// Finds up to `limit` solutions of `puzzle` (whose shape must be this search's).
    ///
    /// For `limit` ≤ 2 (solve, uniqueness) the search restarts now and then
    /// (Luby schedule, conflict weights kept): each run is a complete
    /// depth-first search cut off after a number of failures, so a run that
    /// ends below its cutoff has searched the whole tree. Once a solution is
    /// found, later runs look for solutions other than the ones found (a
    /// found solution counts as a dead end), so what the root learns stays
    /// true for that question. Larger limits use one run without cutoff.
    pub fn run<S: TraceSink>(
        &mut self,
        puzzle: &Puzzle,
        limit: u64,
        limits: &Limits,
        sink: &mut S,
    ) -> RawResult {
        self.run_excluding(puzzle, &[], limit, limits, sink)
    }

    /// [`run`](Search::run) with candidates removed at the root: each
    /// `(cell, digit)` of `exclude` (0-based digit) is ruled out before the
    /// search, so only solutions without any of them are found. Excluding a
    /// given's own digit leaves no solution.
    pub fn run_excluding<S: TraceSink>(
        &mut self,
        puzzle: &Puzzle,
        exclude: &[(usize, usize)],
        limit: u64,
        limits: &Limits,
        sink: &mut S,
    ) -> RawResult {
        let mut result = RawResult::default();
        let checked = !limits.is_unlimited() || S::ENABLED;
        self.root_valid = false;
        self.keep_root = !S::ENABLED && exclude.is_empty();

        // Root: the givens, then what they force. Nothing here is logged.
        let mut ok = true;
        if S::ENABLED {
            // Traced: one given at a time, so the sink sees each step.
            self.reset();
            for (c, v) in puzzle.cells().iter().enumerate() {
                if let Some(v) = v {
                    if self.assign(c, v.index(), Reason::Given, sink).is_err() {
                        ok = false;
                        break;
                    }
                    if checked && self.tick(limits, sink) {
                        break;
                    }
                }
            }
        } else {
            ok = self.root(puzzle);
        }
        for &(c, d) in exclude {
            if !ok || self.stop.is_some() {
                break;
            }
            if c < self.cand.len() && d < self.n {
                ok = self.eliminate(c, B::single(d), sink).is_ok();
            }
        }
        self.all_dirty();
        if !ok {
            if S::ENABLED {
                sink.event(TraceEvent::Contradiction);
            }
            result.conflicts = puzzle.conflicts();
            result.exhausted = true;
            return result;
        }

        let restarts = limit <= 2;
        let mut run = 0u32;
        loop {
            self.cutoff = if restarts {
                RESTART_BASE.saturating_mul(luby(run))
            } else {
                u64::MAX
            };
            self.fails = 0;
            match self.dfs(limit, restarts, limits, sink, checked, &mut result) {
                RunEnd::Exhausted(count) => {
                    // With restarts, a finished run has seen every solution
                    // not yet found: the found ones are all there are.
                    result.count = if restarts {
                        result.witnesses.len() as u64
                    } else {
                        count
                    };
                    result.exhausted = true;
                    break;
                }
                RunEnd::Enough => {
                    result.count = limit;
                    break;
                }
                RunEnd::Stopped(stop) => {
                    result.stopped = Some(stop);
                    break;
                }
                RunEnd::Restart => {
                    // Back to the root. A frame is pushed only at a fixed
                    // point, so the queue is then empty; without frames the
                    // root has pending work (a refuted guess) that must run.
                    if let Some(f) = self.frames.first().copied() {
                        self.undo_to(f.trail, f.assigned);
                        self.queue.clear();
                        self.clear_dirty();
                        if S::ENABLED {
                            sink.event(TraceEvent::Restart);
                        }
                    }
                    self.frames.clear();
                    run += 1;
                }
            }
        }
        if !result.exhausted {
            result.count = result.count.max(result.witnesses.len() as u64);
        }
        result.nodes = self.nodes;
        result
    }

    /// One depth-first run from the root. Solutions go into `result.witnesses`
    /// (distinct, at most two).
    fn dfs<S: TraceSink>(
        &mut self,
        limit: u64,
        restarts: bool,
        limits: &Limits,
        sink: &mut S,
        checked: bool,
        result: &mut RawResult,
    ) -> RunEnd {
        let mut found = 0u64;
        loop {
            if let Some(stop) = self.stop {
                return RunEnd::Stopped(stop);
            }
            let mut alive = self.propagate(limits, sink, checked).is_ok();
            if alive && self.hall && self.stop.is_none() {
                alive = self.hall_pass(limits, sink, checked).is_ok();
            }
            if let Some(stop) = self.stop {
                return RunEnd::Stopped(stop);
            }
            let mut dead = !alive;
            if alive && self.keep_root && self.frames.is_empty() && result.witnesses.is_empty() {
                self.root_kept.clone_from(&self.cand);
                self.root_valid = true;
            }
            if alive {
                if self.unassigned == 0 {
                    found += 1;
                    let grid = self.grid();
                    let new = !result.witnesses.contains(&grid);
                    if new && S::ENABLED {
                        sink.event(TraceEvent::Solved {
                            index: if restarts {
                                result.witnesses.len() + 1
                            } else {
                                found as usize
                            },
                        });
                    }
                    if new && result.witnesses.len() < 2 {
                        result.witnesses.push(grid);
                    }
                    let enough = if restarts {
                        result.witnesses.len() as u64 >= limit
                    } else {
                        found >= limit
                    };
                    if enough {
                        return RunEnd::Enough;
                    }
                    // The search goes on for solutions other than the ones
                    // found: with restarts, every fact the root learns from
                    // here on holds for that question, so restarts stay safe.
                    dead = true;
                } else {
                    let (c, d) = self.choose();
                    self.nodes += 1;
                    if checked && let Some(stop) = limits.check(self.nodes) {
                        return RunEnd::Stopped(stop);
                    }
                    self.frames.push(Frame {
                        trail: self.trail.len(),
                        assigned: self.assigned_trail.len(),
                        cell: c as u32,
                        digit: d as u32,
                    });
                    if S::ENABLED {
                        sink.event(TraceEvent::Branch {
                            cell: self.cell(c),
                            value: Value::from_index(d),
                            depth: self.frames.len(),
                        });
                    }
                    dead = self.assign(c, d, Reason::Guess, sink).is_err();
                }
            } else if S::ENABLED {
                sink.event(TraceEvent::Contradiction);
            }
            if dead {
                // Backtrack before any restart: a dead root means the search
                // is over, and a restart must not hide that.
                if !self.backtrack(sink) {
                    return RunEnd::Exhausted(found);
                }
                self.fails += 1;
                if self.fails > self.cutoff {
                    return RunEnd::Restart;
                }
            }
        }
    }

    /// Undo the latest guess and assert its negation; repeat while that
    /// fails at once. False when no guess is left (the search is over).
    fn backtrack<S: TraceSink>(&mut self, sink: &mut S) -> bool {
        while let Some(f) = self.frames.pop() {
            self.undo_to(f.trail, f.assigned);
            self.queue.clear();
            // The state a frame was pushed in was a fixed point.
            self.clear_dirty();
            if S::ENABLED {
                sink.event(TraceEvent::Backtrack {
                    cell: self.cell(f.cell as usize),
                    value: Value::from_index(f.digit as usize),
                    depth: self.frames.len() + 1,
                });
            }
            if self
                .eliminate(f.cell as usize, B::single(f.digit as usize), sink)
                .is_ok()
            {
                return true;
            }
        }
        false
    }

    fn undo_to(&mut self, trail: usize, assigned: usize) {
        let n = self.n;
        while self.trail.len() > trail {
            let Some((c, d)) = self.trail.pop() else {
                break;
            };
            let (c, d) = (c as usize, d as usize);
            self.cand[c].insert(d);
            for u in self.tables.units_of(c) {
                self.places[u as usize * n + d] += 1;
            }
        }
        while self.assigned_trail.len() > assigned {
            let Some((c, d)) = self.assigned_trail.pop() else {
                break;
            };
            for u in self.tables.units_of(c as usize) {
                self.placed[u as usize].remove(d as usize);
            }
            self.assigned[c as usize] = false;
            self.unassigned += 1;
        }
    }

    /// Counts work and checks the limits now and then; true when stopping.
    #[inline]
    fn tick<S: TraceSink>(&mut self, limits: &Limits, sink: &S) -> bool {
        self.work += 1;
        if self.work.is_multiple_of(self.check_every) {
            if let Some(stop) = limits.check(self.nodes) {
                self.stop = Some(stop);
            } else if sink.wants_stop() {
                self.stop = Some(StopReason::Cancelled);
            }
        }
        self.stop.is_some()
    }

    /// Removes `digits` from cell `c`, updating unit counts and queueing
    /// any single that appears.
    fn eliminate<S: TraceSink>(&mut self, c: usize, digits: B, sink: &mut S) -> Result<(), Dead> {
        let old = self.cand[c];
        let gone = old.and(&digits);
        if gone.is_empty() {
            return Ok(());
        }
        let left = old.and_not(&gone);
        self.cand[c] = left;
        let log = !self.frames.is_empty();
        let units = self.tables.units_of(c);
        if self.hall {
            for u in units {
                if !self.is_dirty[u as usize] {
                    self.is_dirty[u as usize] = true;
                    self.dirty.push(u);
                }
            }
        }
        let n = self.n;
        let mut dead = false;
        for d in gone.iter() {
            if log {
                self.trail.push((c as u32, d as u32));
            }
            if S::ENABLED {
                sink.event(TraceEvent::Eliminate {
                    cell: self.cell(c),
                    value: Value::from_index(d),
                });
            }
            for u in units {
                let slot = &mut self.places[u as usize * n + d];
                *slot -= 1;
                match *slot {
                    0 => {
                        dead = true;
                        self.weight[u as usize] += 1;
                    }
                    1 => self.queue.push(Job::Hidden(u, d as u32)),
                    k if k <= self.lock_max => self.queue.push(Job::Locked(u, d as u16, k)),
                    _ => {}
                }
            }
        }
        if left.is_empty() {
            for u in units {
                self.weight[u as usize] += 1;
            }
            return Err(Dead);
        }
        if left.is_single() && !self.assigned[c] {
            self.queue.push(Job::Naked(c as u32));
        }
        if dead { Err(Dead) } else { Ok(()) }
    }

    /// Places digit `d` in cell `c` and removes it from every peer.
    fn assign<S: TraceSink>(
        &mut self,
        c: usize,
        d: usize,
        reason: Reason,
        sink: &mut S,
    ) -> Result<(), Dead> {
        if !self.cand[c].has(d) {
            return Err(Dead);
        }
        if self.assigned[c] {
            return Ok(());
        }
        self.assigned[c] = true;
        self.unassigned -= 1;
        for u in self.tables.units_of(c) {
            self.placed[u as usize].insert(d);
        }
        if !self.frames.is_empty() {
            self.assigned_trail.push((c as u32, d as u32));
        }
        if S::ENABLED {
            sink.event(TraceEvent::Assign {
                cell: self.cell(c),
                value: Value::from_index(d),
                reason,
            });
        }
        let others = self.cand[c].and_not(&B::single(d));
        self.eliminate(c, others, sink)?;
        let tables = Arc::clone(&self.tables);
        let one = B::single(d);
        let n = self.n;
        for u in tables.units_of(c) {
            // The unit's places for d count c itself: once that is the only
            // one left, no peer further on holds d (the places a peer loses
            // are counted down as it loses them), so the scan stops there.
            let slot = u as usize * n + d;
            if self.places[slot] <= 1 {
                continue;
            }
            for &p in tables.unit(u as usize) {
                let p = p as usize;
                if p != c && self.cand[p].has(d) {
                    self.eliminate(p, one, sink)?;
                    if self.places[slot] <= 1 {
                        break;
                    }
                }
            }
        }
        Ok(())
    }

    /// Applies queued singles until none is left.
    fn propagate<S: TraceSink>(
        &mut self,
        limits: &Limits,
        sink: &mut S,
        checked: bool,
    ) -> Result<(), Dead> {
        while let Some(job) = self.queue.pop() {
            match job {
                Job::Naked(c) => {
                    let c = c as usize;
                    if self.assigned[c] {
                        continue;
                    }
                    let d = self.cand[c].first().ok_or(Dead)?;
                    self.assign(c, d, Reason::NakedSingle, sink)?;
                }
                Job::Hidden(u, d) => {
                    let (u, d) = (u as usize, d as usize);
                    if self.places[u * self.n + d] != 1 {
                        continue;
                    }
                    // Placed already: the one place is that cell, assigned.
                    // Otherwise the one place is a cell not yet assigned
                    // (an assigned one has its digit placed in its units).
                    if !self.placed[u].has(d) {
                        let tables = Arc::clone(&self.tables);
                        let Some(&c) = tables
                            .unit(u)
                            .iter()
                            .find(|&&c| self.cand[c as usize].has(d))
                        else {
                            return Err(Dead);
                        };
                        self.assign(c as usize, d, Reason::HiddenSingle { unit: u }, sink)?;
                    }
                }
                Job::Locked(u, d, k) => {
                    let (u, d) = (u as usize, d as usize);
                    if self.places[u * self.n + d] == k {
                        self.locked(u, d, sink)?;
                    }
                }
            }
            if checked && self.tick(limits, sink) {
                self.queue.clear();
                return Ok(());
            }
        }
        Ok(())
    }

    /// Hall checks on the units marked dirty, with singles (and locked
    /// candidates) run to a fixed point after each unit that lost
    /// candidates, until no unit is dirty.
    fn hall_pass<S: TraceSink>(
        &mut self,
        limits: &Limits,
        sink: &mut S,
        checked: bool,
    ) -> Result<(), Dead> {
        while let Some(u) = self.dirty.pop() {
            // Still marked while checked: its own eliminations keep it
            // consistent and need not queue it again.
            let result = self.hall_unit(u as usize, sink);
            self.is_dirty[u as usize] = false;
            result?;
            if !self.queue.is_empty() {
                self.propagate(limits, sink, checked)?;
                if self.stop.is_some() {
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    /// All-different consistency on unit `u`: a perfect matching of its
    /// cells to digits (warm-started from the last one found), then the
    /// strongly connected components of the graph slot → slot of the
    /// digit's owner; a candidate outside its cell's matched digit is in
    /// some perfect matching exactly when it leads to a slot of the same
    /// component. Dead when there is no perfect matching.
    fn hall_unit<S: TraceSink>(&mut self, u: usize, sink: &mut S) -> Result<(), Dead> {
        let n = self.n;
        let tables = Arc::clone(&self.tables);
        let cells = tables.unit(u);
        let mut h = std::mem::replace(&mut self.hall_scratch, HallScratch::empty());
        h.slots.clear();
        for (i, &c) in cells.iter().enumerate() {
            if !self.assigned[c as usize] {
                h.slots.push(i as u16);
            }
        }
        // The unassigned cells hold only the digits not yet placed in the
        // unit, as many as there are cells: a perfect matching of the
        // slots matches every digit any of them holds.
        let k = h.slots.len();
        let mut mate = std::mem::take(&mut h.mate);
        let saved = &self.mate[u * n..(u + 1) * n];
        for ((slot, m), &i) in h.dom.iter_mut().zip(mate.iter_mut()).zip(&h.slots) {
            *slot = self.cand[cells[i as usize] as usize];
            *m = saved[i as usize];
        }
        h.owner.fill(u16::MAX);
        for (j, m) in mate[..k].iter_mut().enumerate() {
            let d = *m as usize;
            if d < n && h.dom[j].has(d) && h.owner[d] == u16::MAX {
                h.owner[d] = j as u16;
            } else {
                *m = u16::MAX;
            }
        }
        for j in 0..k {
            if mate[j] == u16::MAX {
                let mut seen = B::full(0);
                if !augment(&h.dom[..k], &mut h.owner, &mut mate[..k], j, &mut seen) {
                    h.mate = mate;
                    self.hall_scratch = h;
                    self.weight[u] += 1;
                    return Err(Dead);
                }
            }
        }
        for (&i, &m) in h.slots.iter().zip(&mate) {
            self.mate[u * n + i as usize] = m;
        }
        h.components(&mate, k);
        let mut result = Ok(());
        for j in 0..k {
            let mut gone = B::full(0);
            let others = h.dom[j].and_not(&B::single(mate[j] as usize));
            for d in others.iter() {
                if h.comp[j] != h.comp[h.owner[d] as usize] {
                    gone.insert(d);
                }
            }
            if !gone.is_empty() {
                result = self.eliminate(cells[h.slots[j] as usize] as usize, gone, sink);
                if result.is_err() {
                    break;
                }
            }
        }
        h.mate = mate;
        self.hall_scratch = h;
        result
    }

    /// Locked candidates: when every place of digit `d` in unit `u` lies in
    /// one other unit (a box for a line, a line for a box), `d` leaves the
    /// rest of that unit.
    fn locked<S: TraceSink>(&mut self, u: usize, d: usize, sink: &mut S) -> Result<(), Dead> {
        let n = self.n;
        let k = self.places[u * n + d];
        if k < 2 || k > self.lock_max {
            return Ok(());
        }
        let tables = Arc::clone(&self.tables);
        // For a line the shared unit can only be a box (slot 2); for a box,
        // a row (slot 0) or a column (slot 1).
        let mut common: [Option<u32>; 3] = [None; 3];
        let mut seen = 0u16;
        let line = u < 2 * n;
        let target = |common: &[Option<u32>; 3]| {
            if line {
                common[2]
            } else {
                common[0].or(common[1])
            }
        };
        for &c in tables.unit(u) {
            if !self.cand[c as usize].has(d) {
                continue;
            }
            let us = tables.units_of(c as usize);
            if seen == 0 {
                common = [Some(us[0]), Some(us[1]), Some(us[2])];
            } else {
                for (slot, unit) in common.iter_mut().zip(us) {
                    if *slot != Some(unit) {
                        *slot = None;
                    }
                }
                // No unit shared by all the places: nothing to lock.
                if target(&common).is_none() {
                    return Ok(());
                }
            }
            seen += 1;
            if seen == k {
                break;
            }
        }
        let Some(v) = target(&common) else {
            return Ok(());
        };
        let v = v as usize;
        if self.places[v * n + d] as u32 == k as u32 {
            return Ok(());
        }
        let one = B::single(d);
        for &c in tables.unit(v) {
            let c = c as usize;
            if self.cand[c].has(d) && !tables.units_of(c).contains(&(u as u32)) {
                self.eliminate(c, one, sink)?;
                // Down to the k places inside u: no other one is left.
                if self.places[v * n + d] == k {
                    break;
                }
            }
        }
        Ok(())
    }

    /// The most constrained choice: a cell with fewest candidates or a
    /// unit-digit with fewest places, each divided by the conflict weight of
    /// its units (dom/wdeg); ties are broken at random.
    fn choose(&mut self) -> (usize, usize) {
        let n = self.n;
        // Scores are size × 3072 / weight (rounded down) so both views
        // compare at weight 1. With a = size × 3072, ⌊a / w⌋ < best exactly
        // when a < best × w, and ⌊a / w⌋ = best when best × w ≤ a <
        // (best + 1) × w: the division is done only for a new best.
        let mut best = u64::MAX;
        let mut pick = (usize::MAX, 0usize, false);
        let mut ties = 0u32;
        for (c, (cand, &assigned)) in self.cand.iter().zip(self.assigned.iter()).enumerate() {
            if assigned {
                continue;
            }
            let a = cand.count() as u64 * 3072;
            let [r, col, b] = self.tables.units_of(c);
            let w = (self.weight[r as usize] + self.weight[col as usize] + self.weight[b as usize])
                as u64;
            let lo = best.saturating_mul(w);
            if a < lo {
                best = a / w;
                pick = (c, 0, false);
                ties = 1;
            } else if a < lo.saturating_add(w) {
                ties += 1;
                if xorshift_below(&mut self.rng, ties) == 0 {
                    pick = (c, 0, false);
                }
            }
        }
        for (u, (row, &weight)) in self
            .places
            .chunks_exact(n)
            .zip(self.weight.iter())
            .enumerate()
        {
            let w = 3 * weight as u64;
            // Most units have no digit near the best score: their least
            // place count of two or more (a minimum the compiler
            // vectorises) tells, and the row is passed over unread, which
            // changes nothing (no such digit could be better or tie).
            let least = row
                .iter()
                .map(|&k| if k < 2 { u16::MAX } else { k })
                .min()
                .unwrap_or(u16::MAX);
            if least == u16::MAX || least as u64 * 3072 >= best.saturating_mul(w).saturating_add(w)
            {
                continue;
            }
            for (d, &k) in row.iter().enumerate() {
                if k < 2 {
                    continue;
                }
                let a = k as u64 * 3072;
                let lo = best.saturating_mul(w);
                if a < lo {
                    best = a / w;
                    pick = (u, d, true);
                    ties = 1;
                } else if a < lo.saturating_add(w) {
                    ties += 1;
                    if xorshift_below(&mut self.rng, ties) == 0 {
                        pick = (u, d, true);
                    }
                }
            }
        }
        let (x, d, is_unit) = pick;
        if is_unit {
            let k = self.places[x * n + d] as u32;
            let mut skip = self.random_below(k);
            for &c in self.tables.unit(x) {
                let c = c as usize;
                if !self.assigned[c] && self.cand[c].has(d) {
                    if skip == 0 {
                        return (c, d);
                    }
                    skip -= 1;
                }
            }
        }
        let c = x.min(n * n - 1);
        let k = self.cand[c].count();
        let nth = self.random_below(k.max(1)) as usize;
        (c, self.cand[c].iter().nth(nth).unwrap_or(0))
    }

    /// A pseudo-random number below `k` (xorshift64; only breaks ties, so a
    /// few lines beat a dependency in the hot loop).
    fn random_below(&mut self, k: u32) -> u32 {
        xorshift_below(&mut self.rng, k)
    }

    fn grid(&self) -> Grid {
        Grid::from_indices(self.shape, self.cand.iter().map(|b| b.first().unwrap_or(0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::trace::NoTrace;

    /// A 4×4 whose row 0 holds candidates (0-based) {0,1}, {0,1},
    /// {0,1,2}, all: the naked pair {0,1} leaves 2 to cell 2 and then 3 to
    /// cell 3 (a hidden single), all from one Hall check of the row.
    fn row_with_pair() -> Search<u16> {
        let mut s = Search::<u16>::new(Shape::square(2).unwrap());
        s.reset();
        s.set_hall(true);
        for (c, gone) in [(0, [2, 3].as_slice()), (1, &[2, 3]), (2, &[3])] {
            let mut set = u16::full(0);
            for &d in gone {
                set.insert(d);
            }
            assert!(s.eliminate(c, set, &mut NoTrace).is_ok());
        }
        s
    }

    #[test]
    fn hall_check_removes_naked_and_hidden_subsets() {
        let mut s = row_with_pair();
        assert!(s.hall_unit(0, &mut NoTrace).is_ok());
        assert_eq!(s.cand[2], u16::single(2));
        assert_eq!(s.cand[3], u16::single(3));
        // Cells 0 and 1 keep both digits of the pair; no other row changed.
        assert_eq!(s.cand[0].count(), 2);
        assert_eq!(s.cand[1].count(), 2);
        assert!(s.cand[4..].iter().all(|b| b.count() == 4));
        // The columns of the changed cells (units 6 and 7) are queued for
        // a check.
        assert!(s.is_dirty[6] && s.is_dirty[7]);
    }

    #[test]
    fn hall_check_finds_a_unit_without_a_matching() {
        let mut s = row_with_pair();
        // A third cell limited to {0,1}: three cells, two digits (every
        // digit still has a place, so the counts alone see nothing).
        assert!(s.eliminate(2, u16::single(2), &mut NoTrace).is_ok());
        assert!(s.hall_unit(0, &mut NoTrace).is_err());
    }

    /// Row 0 of a 4×4 with cell 3 assigned 3: the check runs on the three
    /// cells left (its slots) and maps their places back to the row's
    /// cells; the assigned cell keeps its digit.
    #[test]
    fn hall_check_leaves_assigned_cells_out() {
        let mut s = Search::<u16>::new(Shape::square(2).unwrap());
        s.reset();
        s.set_hall(true);
        assert!(s.assign(3, 3, Reason::NakedSingle, &mut NoTrace).is_ok());
        for c in [0, 1] {
            assert!(s.eliminate(c, u16::single(2), &mut NoTrace).is_ok());
        }
        assert!(s.hall_unit(0, &mut NoTrace).is_ok());
        assert_eq!(s.hall_scratch.slots, [0, 1, 2]);
        assert_eq!(s.cand[2], u16::single(2));
        assert_eq!(s.cand[3], u16::single(3));
        assert_eq!(s.cand[0].count(), 2);
        // The matching kept is by the row's places: warm-started from it,
        // a second check finds the row consistent and changes nothing.
        let (mate, cand) = (s.mate[..4].to_vec(), s.cand.clone());
        assert!(s.hall_unit(0, &mut NoTrace).is_ok());
        assert_eq!(s.mate[..4], mate[..]);
        assert_eq!(s.cand, cand);
    }

    /// With the check off nothing is marked, so the plain search is the
    /// same code path as before.
    #[test]
    fn without_hall_no_unit_is_marked() {
        let mut s = Search::<u16>::new(Shape::square(2).unwrap());
        s.reset();
        assert!(s.eliminate(0, u16::single(1), &mut NoTrace).is_ok());
        assert!(s.dirty.is_empty() && !s.is_dirty.iter().any(|&d| d));
    }
}
