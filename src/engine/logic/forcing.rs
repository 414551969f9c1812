//! Forcing chains: the last logical resort before a guess. An assumption
//! (a value in a cell) is followed through what it forces — a cell left
//! with one candidate, a unit left with one place for a value, a unit whose
//! places for a value all lie in one other unit (locked candidates) — on a
//! copy of the candidates, until nothing more follows or a contradiction
//! shows up (a cell without candidates, a unit without a place for a value,
//! a cell forced to a value it can no longer take). Three conclusions:
//!
//! - contradiction: an assumption that leads to a contradiction is false;
//! - cell forcing chain: every candidate of a cell leads to the same
//!   placement or elimination, which therefore holds;
//! - unit forcing chain: likewise for every place of a value in a unit.
//!
//! Nothing but the position's candidates is assumed (no uniqueness), so
//! every conclusion is sound. Sources have at most [`MAX_BRANCHES`]
//! branches and fewer branches are tried first; each assumption is followed
//! once per call and the work is capped ([`MAX_ASSUMPTIONS`],
//! [`WORK_BUDGET`]), so a call stays fast on large boards. Each step holds
//! one conclusion; the placements leading to it are the step's links
//! (weak links read "then"; eliminations in between, such as locked
//! candidates, are not spelled out), and steps come shortest first.

use std::collections::VecDeque;

use foldhash::{HashMap, HashMapExt};

use crate::engine::grid::Value;

use super::kept::{Kept, ROOM};
use super::{Board, CandidateRole, Highlights, Link, Step, Technique, bits};

/// Most branches (candidates of a cell, places of a value in a unit) a
/// forcing chain's source may have.
pub const MAX_BRANCHES: usize = 4;

/// Most assumptions followed in one call (each at most once).
pub const MAX_ASSUMPTIONS: usize = 800;

/// Work budget of one call, in elementary operations (peer visits and
/// unit cells scanned while following assumptions); no new assumption is
/// followed once it is spent.
pub const WORK_BUDGET: usize = 2_000_000;

/// Most steps one call returns (the shortest).
pub const MAX_STEPS: usize = 24;

/// Most implications spelled out per branch in an explanation.
const SHOWN_PER_BRANCH: usize = 6;

/// No value in a cell, or no parent of a placement.
pub(super) const NONE: u32 = u32::MAX;

/// How an assumption breaks the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Clash {
    /// The cell has no candidate left.
    EmptyCell(usize),
    /// The unit has no place left for the digit.
    NoPlace(usize, usize),
    /// The cell is forced to a digit it can no longer take.
    Lost(usize, usize),
}

/// Where an assumption leads.
pub(super) struct Outcome {
    /// Placements in order: cell, digit, index of the placement that
    /// forced it ([`NONE`] for the assumption itself).
    trail: Vec<Fact>,
    /// Implications from the assumption to each placement of the trail.
    depth: Vec<u32>,
    /// Placements sorted by (cell, digit), with their trail index.
    placed: Vec<Fact>,
    /// Candidates removed, sorted by (cell, digit), with the trail index of
    /// the placement that removed them.
    removed: Vec<Fact>,
    /// The contradiction reached, with the trail index that caused it.
    pub(super) clash: Option<(Clash, u32)>,
}

/// A candidate (cell, digit) with a trail index, in 12 bytes: an outcome
/// keeps one per placement and removal, and the searches keep an outcome
/// per assumption.
#[derive(Debug, Clone, Copy)]
struct Fact(u32, u32, u32);

impl Fact {
    fn new(c: usize, d: usize, at: u32) -> Fact {
        Fact(c as u32, d as u32, at)
    }

    /// The cell and the digit.
    fn candidate(self) -> (usize, usize) {
        (self.0 as usize, self.1 as usize)
    }
}

impl Outcome {
    /// The cell and digit of trail index `i`.
    pub(super) fn placement(&self, i: u32) -> (usize, usize) {
        self.trail[i as usize].candidate()
    }

    /// The candidates removed, sorted by (cell, digit).
    pub(super) fn removals(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.removed.iter().map(|f| f.candidate())
    }

    /// Implications from the assumption to trail index `i` (none for
    /// [`NONE`], a contradiction of the assumption itself).
    pub(super) fn depth_of(&self, i: u32) -> usize {
        self.depth.get(i as usize).map_or(0, |&d| d as usize)
    }

    /// The trail indices from the assumption to placement `i`.
    pub(super) fn path(&self, mut i: u32) -> Vec<u32> {
        let mut p = Vec::new();
        while i != NONE {
            p.push(i);
            i = self.trail[i as usize].2;
        }
        p.reverse();
        p
    }
}

/// What one assumption has still to do.
struct Trace {
    /// Placements to make: cell, digit, trail index of the cause.
    queue: VecDeque<(usize, usize, u32)>,
    /// Units to check for a digit: unit, digit, trail index of the cause.
    units: Vec<(usize, usize, u32)>,
}

/// A placement to make or a unit to check for a digit (cell or unit,
/// digit, trail index of the cause), as [`Trace`] queues them.
type Pending = (usize, usize, u32);

/// Follows assumptions on a private copy of the candidates, undoing each.
pub(super) struct Prop<'a> {
    b: &'a Board,
    mask: Vec<u64>,
    value: Vec<u32>,
    /// Per unit: the digits placed in it.
    unit_has: Vec<u64>,
    n: usize,
    /// Words of a bit set over the cells.
    words: usize,
    /// Per unit and digit (`u * n + d`): the unit's places of the digit,
    /// bit j for the unit's j-th cell, kept with the masks: a unit's places
    /// are one word.
    places: Vec<u64>,
    undo_mask: Vec<(usize, u64)>,
    undo_unit: Vec<(usize, u64)>,
    /// Per cell and digit (`c * n + d`): the trail index of the placement
    /// that removed the candidate, valid for the candidates removed by the
    /// current assumption (each is removed once). With the masks this
    /// gives an assumption's removals in (cell, digit) order without
    /// sorting them.
    cause_at: Vec<u32>,
    /// Per cell: its trail index, valid for the cells the current
    /// assumption placed.
    trail_at: Vec<u32>,
    /// Candidates the current assumption removed so far.
    removals: usize,
    /// A bit set over the cells, all zero between uses.
    scratch: Vec<u64>,
    /// The queues of [`Trace`], kept empty between assumptions so that
    /// each assumption does not allocate them anew.
    spare: (VecDeque<Pending>, Vec<Pending>),
    pub(super) work: usize,
}

impl<'a> Prop<'a> {
    pub(super) fn new(b: &'a Board) -> Prop<'a> {
        let cells = b.shape().cells();
        let value = (0..cells)
            .map(|c| b.value(c).map_or(NONE, |v| v.index() as u32))
            .collect();
        let unit_has = (0..b.shape().units()).map(|u| b.placed_in(u)).collect();
        let mask: Vec<u64> = (0..cells).map(|c| b.mask(c)).collect();
        let words = cells.div_ceil(64);
        let (n, units) = (b.n(), b.shape().units());
        let places = (0..units)
            .flat_map(|u| (0..n).map(move |d| b.places(u, d)))
            .collect();
        Prop {
            b,
            mask,
            value,
            unit_has,
            n,
            words,
            places,
            undo_mask: Vec::new(),
            undo_unit: Vec::new(),
            cause_at: vec![NONE; cells * b.n()],
            trail_at: vec![NONE; cells],
            removals: 0,
            scratch: vec![0; words],
            spare: (VecDeque::new(), Vec::new()),
            work: 0,
        }
    }

    /// Sets cell `c`'s mask to `m`, a subset of it.
    fn set_mask(&mut self, c: usize, m: u64) {
        let old = self.mask[c];
        self.undo_mask.push((c, old));
        self.mask[c] = m;
        for (u, i) in self.b.positions(c) {
            for d in bits(old & !m) {
                self.places[u * self.n + d] &= !(1u64 << i);
            }
        }
    }

    /// Removes candidate `d` from cell `p` (placement `cause` is why): an
    /// emptied cell is a contradiction, a last candidate a naked single;
    /// `p`'s units are to be checked for `d`.
    fn remove(&mut self, p: usize, d: usize, cause: u32, t: &mut Trace) -> Result<(), Clash> {
        let m = self.mask[p] & !(1u64 << d);
        self.set_mask(p, m);
        self.cause_at[p * self.n + d] = cause;
        self.removals += 1;
        if m == 0 {
            return Err(Clash::EmptyCell(p));
        }
        if m.is_power_of_two() {
            t.queue.push_back((p, m.trailing_zeros() as usize, cause));
        }
        for u in self.b.units_of(p) {
            t.units.push((u, d, cause));
        }
        Ok(())
    }

    /// Checks unit `u` for digit `d` after a removal: no place left is a
    /// contradiction, one place a hidden single, places all in one
    /// intersection with another unit remove `d` from the rest of that unit
    /// (locked candidates).
    fn check_unit(&mut self, u: usize, d: usize, cause: u32, t: &mut Trace) -> Result<(), Clash> {
        if self.unit_has[u] >> d & 1 == 1 {
            return Ok(());
        }
        let b = self.b;
        let unit = b.unit(u);
        self.work += unit.len();
        // The places in the order of the unit's cells (ascending).
        let x = self.places[u * self.n + d];
        if x == 0 {
            return Err(Clash::NoPlace(u, d));
        }
        let f = unit[x.trailing_zeros() as usize] as usize;
        if x.is_power_of_two() {
            t.queue.push_back((f, d, cause));
            return Ok(());
        }
        // Per kind (row, column, box): whether every place shares it.
        let mut shared = [true; 3];
        let uf = b.units_of(f);
        let mut rest = x & (x - 1);
        while rest != 0 {
            let uc = b.units_of(unit[rest.trailing_zeros() as usize] as usize);
            rest &= rest - 1;
            for k in 0..3 {
                shared[k] &= uf[k] == uc[k];
            }
        }
        for k in 0..3 {
            let other = uf[k];
            if other == u || !shared[k] {
                continue;
            }
            // The other unit's places of d outside this one, in order;
            // one unit of work per cell of it, up to the one that fails.
            let cells = b.unit(other);
            let mut y = self.places[other * self.n + d];
            while y != 0 {
                let j = y.trailing_zeros() as usize;
                y &= y - 1;
                let x = cells[j] as usize;
                if !b.units_of(x).contains(&u)
                    && let Err(clash) = self.remove(x, d, cause, t)
                {
                    self.work += j + 1;
                    return Err(clash);
                }
            }
            self.work += cells.len();
        }
        Ok(())
    }

    /// Places `d` in `c` (trail index `idx`), removes it from the peers and
    /// checks the units touched, queueing the placements that follow.
    fn place(&mut self, c: usize, d: usize, idx: u32, t: &mut Trace) -> Result<(), Clash> {
        let others = self.mask[c] & !(1u64 << d);
        self.set_mask(c, 0);
        self.value[c] = d as u32;
        for u in self.b.units_of(c) {
            self.undo_unit.push((u, self.unit_has[u]));
            self.unit_has[u] |= 1 << d;
        }
        for e in bits(others) {
            self.cause_at[c * self.n + e] = idx;
            self.removals += 1;
            for u in self.b.units_of(c) {
                t.units.push((u, e, idx));
            }
        }
        // The peers holding d, in the order of `Tables::peers`: the row,
        // the column, then the box's cells in neither (each ascending);
        // one unit of work per peer, up to the one that fails.
        let b = self.b;
        let [row, col, bx] = b.units_of(c);
        for (k, u) in [row, col, bx].into_iter().enumerate() {
            let mut x = self.places[u * self.n + d];
            if k == 2 {
                x &= !b.tables().box_lines(c);
            }
            let unit = b.unit(u);
            while x != 0 {
                let p = unit[x.trailing_zeros() as usize] as usize;
                x &= x - 1;
                if let Err(clash) = self.remove(p, d, idx, t) {
                    self.work += 1 + b.tables().peers(c).position(|q| q == p).unwrap_or(0);
                    return Err(clash);
                }
            }
        }
        self.work += b.shape().peer_count();
        while let Some((u, e, cause)) = t.units.pop() {
            self.check_unit(u, e, cause, t)?;
        }
        Ok(())
    }

    /// The candidates the current assumption removed (before it is
    /// undone), sorted by (cell, digit), with the trail index of their
    /// cause: every cell whose mask changed, in order, loses what its mask
    /// no longer holds (but the digit placed there).
    fn removed(&mut self) -> Vec<Fact> {
        let n = self.b.n();
        for &(c, _) in &self.undo_mask {
            self.scratch[c / 64] |= 1 << (c % 64);
        }
        let mut out = Vec::with_capacity(self.removals);
        for w in 0..self.words {
            let mut x = std::mem::take(&mut self.scratch[w]);
            while x != 0 {
                let c = w * 64 + x.trailing_zeros() as usize;
                x &= x - 1;
                let mut gone = self.b.mask(c) & !self.mask[c];
                if self.value[c] != NONE {
                    gone &= !(1u64 << self.value[c]);
                }
                out.extend(bits(gone).map(|d| Fact::new(c, d, self.cause_at[c * n + d])));
            }
        }
        out
    }

    /// The placements of `trail` sorted by (cell, digit), with their trail
    /// index (each cell is placed at most once).
    fn placed(&mut self, trail: &[Fact]) -> Vec<Fact> {
        for f in trail {
            let (c, _) = f.candidate();
            self.scratch[c / 64] |= 1 << (c % 64);
        }
        let mut out = Vec::with_capacity(trail.len());
        for w in 0..self.words {
            let mut x = std::mem::take(&mut self.scratch[w]);
            while x != 0 {
                let c = w * 64 + x.trailing_zeros() as usize;
                x &= x - 1;
                out.push(Fact::new(c, self.value[c] as usize, self.trail_at[c]));
            }
        }
        out
    }

    /// Follows "`c` holds `d`" to its end, then restores the candidates.
    pub(super) fn assume(&mut self, c: usize, d: usize) -> Outcome {
        let mut trail: Vec<Fact> = Vec::new();
        let (mut queue, units) = std::mem::take(&mut self.spare);
        queue.push_back((c, d, NONE));
        let mut t = Trace { queue, units };
        self.removals = 0;
        let mut clash = None;
        while let Some((c, d, parent)) = t.queue.pop_front() {
            if self.value[c] == d as u32 {
                continue;
            }
            if self.value[c] != NONE || self.mask[c] >> d & 1 == 0 {
                clash = Some((Clash::Lost(c, d), parent));
                break;
            }
            let idx = trail.len() as u32;
            trail.push(Fact::new(c, d, parent));
            self.trail_at[c] = idx;
            if let Err(x) = self.place(c, d, idx, &mut t) {
                clash = Some((x, idx));
                break;
            }
        }
        let removed = self.removed();
        let placed = self.placed(&trail);
        t.queue.clear();
        t.units.clear();
        self.spare = (t.queue, t.units);
        while let Some((c, m)) = self.undo_mask.pop() {
            for (u, i) in self.b.positions(c) {
                for d in bits(m & !self.mask[c]) {
                    self.places[u * self.n + d] |= 1u64 << i;
                }
            }
            self.mask[c] = m;
        }
        while let Some((u, m)) = self.undo_unit.pop() {
            self.unit_has[u] = m;
        }
        for f in &trail {
            self.value[f.candidate().0] = NONE;
        }
        let mut depth: Vec<u32> = Vec::with_capacity(trail.len());
        for &Fact(_, _, parent) in &trail {
            let up = if parent == NONE {
                0
            } else {
                depth[parent as usize] + 1
            };
            depth.push(up);
        }
        Outcome {
            trail,
            depth,
            placed,
            removed,
            clash,
        }
    }
}

/// Where a forcing chain starts.
#[derive(Debug, Clone, Copy)]
enum Source {
    /// Every candidate of a cell.
    Cell(usize),
    /// Every place of a digit in a unit.
    Unit(usize, usize),
}

/// What a forcing chain proves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Conclusion {
    Place(usize, usize),
    Remove(usize, usize),
}

/// Where a conclusion comes from.
#[derive(Debug, Clone, Copy)]
enum Origin {
    /// The assumption (cell, digit) leads to a contradiction.
    Contradiction(usize, usize),
    /// Every branch of the source leads to it.
    Forced(Source),
}

/// Forcing chains: contradictions, cell forcing chains and unit forcing
/// chains, one conclusion per step, fewest implications first (at most
/// [`MAX_STEPS`]). Sources with two branches are tried first; larger ones
/// (up to [`MAX_BRANCHES`]) only when the smaller prove nothing.
pub fn forcing_chains(b: &Board) -> Vec<Step> {
    // The path walk and the rating walk of a grade ask this in the same
    // positions, often on two threads at once: see `kept.rs`.
    KEPT.get_or_search(((), b.position_key()), b, || search(b))
}

/// The forcing chains' answers, for every thread.
static KEPT: Kept<()> = Kept::new(ROOM);

fn search(b: &Board) -> Vec<Step> {
    let mut prop = Prop::new(b);
    let mut cache: HashMap<(usize, usize), Outcome> = HashMap::new();
    // Each conclusion with its cheapest origin: (cost, order found, origin).
    let mut best: HashMap<Conclusion, (usize, usize, Origin)> = HashMap::new();
    'stages: for k in 2..=MAX_BRANCHES {
        for source in sources(b, k) {
            let branches = branches(b, source);
            for &(c, d) in &branches {
                if cache.contains_key(&(c, d)) {
                    continue;
                }
                if cache.len() >= MAX_ASSUMPTIONS || prop.work >= WORK_BUDGET || b.stopped() {
                    break 'stages;
                }
                let out = prop.assume(c, d);
                if let Some((_, cause)) = out.clash {
                    let cost = out.depth_of(cause);
                    offer(
                        &mut best,
                        Conclusion::Remove(c, d),
                        cost,
                        Origin::Contradiction(c, d),
                    );
                }
                cache.insert((c, d), out);
            }
            let outs: Vec<&Outcome> = branches.iter().filter_map(|k| cache.get(k)).collect();
            if outs.len() == branches.len() {
                for (k, cost) in forced(b, &outs) {
                    offer(&mut best, k, cost, Origin::Forced(source));
                }
            }
        }
        if !best.is_empty() {
            break;
        }
    }
    let mut list: Vec<(Conclusion, (usize, usize, Origin))> = best.into_iter().collect();
    list.sort_by_key(|&(_, (cost, order, _))| (cost, order));
    list.truncate(MAX_STEPS);
    list.into_iter()
        .filter_map(|(k, (_, _, origin))| match origin {
            Origin::Contradiction(c, d) => cache.get(&(c, d)).map(|o| contradiction(b, c, d, o)),
            Origin::Forced(source) => {
                let branches = branches(b, source);
                let outs: Vec<&Outcome> = branches.iter().filter_map(|x| cache.get(x)).collect();
                Some(forced_step(b, source, &branches, &outs, k))
            }
        })
        .collect()
}

/// Records conclusion `k` at `cost` unless it is known as cheaply.
fn offer(
    best: &mut HashMap<Conclusion, (usize, usize, Origin)>,
    k: Conclusion,
    cost: usize,
    origin: Origin,
) {
    let order = best.len();
    let e = best.entry(k).or_insert((cost, order, origin));
    if cost < e.0 {
        *e = (cost, e.1, origin);
    }
}

/// The sources with exactly `k` branches: cells with `k` candidates, then
/// units with `k` places for a digit they lack.
fn sources(b: &Board, k: usize) -> Vec<Source> {
    let cells = (0..b.shape().cells())
        .filter(|&c| b.value(c).is_none() && b.count(c) as usize == k)
        .map(Source::Cell);
    let units = (0..b.shape().units()).flat_map(move |u| {
        (0..b.n())
            .filter(move |&d| b.places(u, d).count_ones() as usize == k && !b.unit_has_value(u, d))
            .map(move |d| Source::Unit(u, d))
    });
    cells.chain(units).collect()
}

/// The assumptions (cell, digit) a source branches into.
fn branches(b: &Board, s: Source) -> Vec<(usize, usize)> {
    match s {
        Source::Cell(c) => b.digits(c).map(|d| (c, d)).collect(),
        Source::Unit(u, d) => b.cells_with(u, d).into_iter().map(|c| (c, d)).collect(),
    }
}

fn value(d: usize) -> Value {
    Value::from_index(d)
}

/// "r3c5 is 7".
fn is(b: &Board, c: usize, d: usize) -> String {
    format!("{} is {}", b.cell_name(c), b.symbol(d))
}

/// Marks the nodes of trail path `path` of `out` (the assumption and the
/// placements it forces) true in `h`.
pub(super) fn mark_path(h: &mut Highlights, out: &Outcome, path: &[u32]) {
    for &i in path {
        let (c, d) = out.placement(i);
        h.add_role(c, value(d), CandidateRole::ChainOn);
    }
}

/// The links of trail path `path` of `out`.
pub(super) fn path_links(out: &Outcome, path: &[u32]) -> Vec<Link> {
    path.windows(2)
        .map(|w| {
            let (c1, d1) = out.placement(w[0]);
            let (c2, d2) = out.placement(w[1]);
            Link {
                from: (c1, value(d1)),
                to: (c2, value(d2)),
                strong: false,
            }
        })
        .collect()
}

/// The placements of trail path `path` after the assumption, in words
/// (at most [`SHOWN_PER_BRANCH`], the middle elided).
fn path_words(b: &Board, out: &Outcome, path: &[u32]) -> String {
    let words: Vec<String> = path
        .iter()
        .skip(1)
        .map(|&i| {
            let (c, d) = out.placement(i);
            is(b, c, d)
        })
        .collect();
    if words.len() <= SHOWN_PER_BRANCH {
        return words.join(", ");
    }
    let head = SHOWN_PER_BRANCH / 2;
    let tail = SHOWN_PER_BRANCH - head;
    format!(
        "{}, … ({} more), {}",
        words[..head].join(", "),
        words.len() - SHOWN_PER_BRANCH,
        words[words.len() - tail..].join(", ")
    )
}

pub(super) fn clash_words(b: &Board, x: Clash) -> String {
    match x {
        Clash::EmptyCell(c) => format!("{} has no candidate left", b.cell_name(c)),
        Clash::NoPlace(u, d) => {
            format!("{} has no place left for {}", b.unit_name(u), b.symbol(d))
        }
        Clash::Lost(c, d) => format!(
            "{} would have to be {}, which it can no longer be",
            b.cell_name(c),
            b.symbol(d)
        ),
    }
}

/// "if r1c1 is 5: r1c4 is 2, r5c4 is 9" (the assumption alone when
/// nothing is between it and the end).
pub(super) fn branch_words(b: &Board, c: usize, d: usize, out: &Outcome, path: &[u32]) -> String {
    let mid = path_words(b, out, path);
    if mid.is_empty() {
        format!("if {}", is(b, c, d))
    } else {
        format!("if {}: {mid}", is(b, c, d))
    }
}

/// The step for an assumption `c` = `d` that leads to a contradiction.
fn contradiction(b: &Board, c: usize, d: usize, out: &Outcome) -> Step {
    let (x, cause) = out.clash.unwrap_or((Clash::Lost(c, d), NONE));
    let path = if cause == NONE {
        vec![0]
    } else {
        out.path(cause)
    };
    let mut h = Highlights {
        cells: vec![c],
        candidates: vec![(c, value(d))],
        links: path_links(out, &path),
        ..Highlights::default()
    };
    mark_path(&mut h, out, &path);
    Step {
        technique: Technique::ForcingChain,
        placements: Vec::new(),
        eliminations: vec![(c, value(d))],
        highlights: h,
        explanation: format!(
            "{}: {}, and then {}, a contradiction; so {} is not {}",
            Technique::ForcingChain.name(),
            branch_words(b, c, d, out, &path),
            clash_words(b, x),
            b.cell_name(c),
            b.symbol(d),
        ),
    }
}

/// The trail index (in `out`) a conclusion follows from: the placement
/// itself, or the placement that removed the candidate.
pub(super) fn reached(out: &Outcome, conclusion: Conclusion) -> Option<u32> {
    let (list, c, d) = match conclusion {
        Conclusion::Place(c, d) => (&out.placed, c, d),
        Conclusion::Remove(c, d) => (&out.removed, c, d),
    };
    list.binary_search_by_key(&(c, d), |f| f.candidate())
        .ok()
        .map(|i| list[i].2)
}

/// The conclusions every branch reaches (branches that end in a
/// contradiction are impossible and reach everything), with their cost:
/// the implications used over all branches.
fn forced(b: &Board, outs: &[&Outcome]) -> Vec<(Conclusion, usize)> {
    // With one live branch the contradictions of the others say it all.
    let live: Vec<&Outcome> = outs.iter().copied().filter(|o| o.clash.is_none()).collect();
    let Some((first, rest)) = live.split_first().filter(|_| live.len() >= 2) else {
        return Vec::new();
    };
    let common = |c: Conclusion| rest.iter().all(|o| reached(o, c).is_some());
    let places: Vec<(usize, usize)> = first
        .placed
        .iter()
        .map(|f| f.candidate())
        .filter(|&(c, d)| b.count(c) > 1 && common(Conclusion::Place(c, d)))
        .collect();
    let mut conclusions: Vec<Conclusion> = places
        .iter()
        .map(|&(c, d)| Conclusion::Place(c, d))
        .collect();
    // Removals that a common placement explains on its own are left out.
    conclusions.extend(
        first
            .removals()
            .filter(|&(c, d)| {
                !places
                    .iter()
                    .any(|&(pc, pd)| pc == c || (pd == d && b.sees(pc, c)))
            })
            .filter(|&(c, d)| common(Conclusion::Remove(c, d)))
            .map(|(c, d)| Conclusion::Remove(c, d)),
    );
    conclusions
        .into_iter()
        .map(|k| {
            let cost = outs
                .iter()
                .map(|o| match (o.clash, reached(o, k)) {
                    (Some((_, cause)), _) => o.depth_of(cause),
                    (None, Some(at)) => {
                        o.depth_of(at) + usize::from(matches!(k, Conclusion::Remove(..)))
                    }
                    (None, None) => 0,
                })
                .sum();
            (k, cost)
        })
        .collect()
}

/// The step of one forcing-chain conclusion.
fn forced_step(
    b: &Board,
    source: Source,
    branches: &[(usize, usize)],
    outs: &[&Outcome],
    conclusion: Conclusion,
) -> Step {
    let mut links = Vec::new();
    let mut parts = Vec::new();
    let mut h = Highlights::default();
    for (&(c, d), out) in branches.iter().zip(outs) {
        if let Some((x, cause)) = out.clash {
            let path = if cause == NONE {
                vec![0]
            } else {
                out.path(cause)
            };
            links.extend(path_links(out, &path));
            mark_path(&mut h, out, &path);
            parts.push(format!(
                "{}, and then {} (impossible)",
                branch_words(b, c, d, out, &path),
                clash_words(b, x)
            ));
            continue;
        }
        let Some(at) = reached(out, conclusion) else {
            continue;
        };
        let path = out.path(at);
        links.extend(path_links(out, &path));
        mark_path(&mut h, out, &path);
        let words = branch_words(b, c, d, out, &path);
        match conclusion {
            Conclusion::Place(..) => parts.push(words),
            Conclusion::Remove(x, e) => {
                let (pc, pd) = out.placement(at);
                links.push(Link {
                    from: (pc, value(pd)),
                    to: (x, value(e)),
                    strong: false,
                });
                let then = if path.len() == 1 { ", then" } else { ", so" };
                parts.push(format!(
                    "{words}{then} {} is not {}",
                    b.cell_name(x),
                    b.symbol(e)
                ));
            }
        }
    }
    let (placements, eliminations, result) = match conclusion {
        Conclusion::Place(x, v) => (
            vec![(x, value(v))],
            b.digits(x)
                .filter(|&e| e != v)
                .map(|e| (x, value(e)))
                .collect(),
            is(b, x, v),
        ),
        Conclusion::Remove(x, e) => (
            Vec::new(),
            vec![(x, value(e))],
            format!("{} is not {}", b.cell_name(x), b.symbol(e)),
        ),
    };
    let (cells, units, intro) = match source {
        Source::Cell(c) => (
            vec![c],
            Vec::new(),
            format!(
                "{}: every candidate of {}",
                Technique::ForcingChain.name(),
                b.cell_name(c)
            ),
        ),
        Source::Unit(u, d) => (
            branches.iter().map(|&(c, _)| c).collect(),
            vec![u],
            format!(
                "{}: every place of {} in {}",
                Technique::ForcingChain.name(),
                b.symbol(d),
                b.unit_name(u)
            ),
        ),
    };
    let mut cells = cells;
    let target = match conclusion {
        Conclusion::Place(x, _) | Conclusion::Remove(x, _) => x,
    };
    if !cells.contains(&target) {
        cells.push(target);
    }
    Step {
        technique: Technique::ForcingChain,
        placements,
        eliminations,
        highlights: Highlights {
            cells,
            candidates: branches.iter().map(|&(c, d)| (c, value(d))).collect(),
            units,
            links,
            ..h
        },
        explanation: format!(
            "{intro} leads to the same result — {}; so {result}",
            parts.join("; ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Shape;
    use crate::engine::logic::tests::{empty6, v0};

    /// Keeps only `digits` (0-based) as candidates of cell `c`.
    fn keep(b: &mut Board, c: usize, digits: &[usize]) {
        for d in 0..b.n() {
            if !digits.contains(&d) {
                b.remove(c, d);
            }
        }
    }

    /// r1c1 {1,2}, r1c4 {1,3}, r4c4 {3,4}, r4c1 {1,4}: a ring of bivalue
    /// cells (1 = digit index 0).
    fn ring() -> Board {
        let mut b = empty6();
        keep(&mut b, 0, &[0, 1]);
        keep(&mut b, 3, &[0, 2]);
        keep(&mut b, 21, &[2, 3]);
        keep(&mut b, 18, &[0, 3]);
        b
    }

    #[test]
    fn contradiction_and_cell_forcing_on_6x6() {
        let b = ring();
        let steps = forcing_chains(&b);
        // r1c1 = 1 → r4c1 = 4, and r4c4 is left empty (r1c4 = 3 took 3).
        let first = &steps[0];
        assert_eq!(first.technique, Technique::ForcingChain);
        assert_eq!(first.eliminations, vec![(0, v0(0))]);
        assert!(first.placements.is_empty());
        assert_eq!(first.highlights.links.len(), 1);
        assert!(
            first.explanation.contains("r4c4 has no candidate left"),
            "{}",
            first.explanation
        );
        // Both candidates of r1c4 (and of r4c4, r4c1) lead to r1c1 = 2.
        let place = steps
            .iter()
            .find(|s| !s.placements.is_empty())
            .expect("a placement");
        assert_eq!(place.placements, vec![(0, v0(1))]);
        assert_eq!(place.eliminations, vec![(0, v0(0))]);
        assert_eq!(place.highlights.links.len(), 4);
        assert!(place.explanation.contains("every candidate of"));
        // Every step removes r1c1's 1 or places its 2, nothing else.
        for s in &steps {
            assert_eq!(s.eliminations, vec![(0, v0(0))], "{}", s.explanation);
        }
        // Shortest first.
        assert!(
            steps
                .windows(2)
                .all(|w| w[0].highlights.links.len() <= w[1].highlights.links.len())
        );
    }

    #[test]
    fn unit_forcing_on_6x6() {
        let mut b = empty6();
        // 5 (index 4) only at r1c1 and r1c4 in row 1, at r2c2 and r5c2 in
        // column 2, at r2c5 and r5c5 in column 5. r1c1 = 5 clears box 1, so
        // r5c2 = 5, r2c5 = 5; r1c4 = 5 likewise gives r5c5 = 5, r2c2 = 5:
        // either way the rest of rows 2 and 5 loses 5.
        for (unit, keep_at) in [(0, [0, 3]), (6 + 1, [7, 25]), (6 + 4, [10, 28])] {
            for &c in b.unit(unit).to_vec().iter() {
                if !keep_at.contains(&(c as usize)) {
                    b.remove(c as usize, 4);
                }
            }
        }
        let steps = forcing_chains(&b);
        let mut all: Vec<(usize, Value)> =
            steps.iter().flat_map(|s| s.eliminations.clone()).collect();
        all.sort_unstable();
        all.dedup();
        let expected: Vec<(usize, Value)> = [6, 8, 9, 11, 24, 26, 27, 29]
            .into_iter()
            .map(|c| (c, v0(4)))
            .collect();
        assert_eq!(all, expected);
        assert_eq!(steps.len(), 8);
        assert!(steps.iter().all(|s| s.placements.is_empty()));
        // r5c1: r1c1 = 5 sees it; r1c4 = 5 leaves box 4's 5s in column 6
        // (locked), so box 5's in row 6, and box 5 loses r5c1: two links.
        let s = steps
            .iter()
            .find(|s| s.eliminations == [(24, v0(4))])
            .unwrap();
        assert_eq!(s.highlights.links.len(), 2);
        assert_eq!(s.highlights.units, vec![0]);
        assert_eq!(
            s.explanation,
            "Forcing Chain: every place of 5 in row 1 leads to the same result — if r1c1 \
             is 5, then r5c1 is not 5; if r1c4 is 5, then r5c1 is not 5; so r5c1 is \
             not 5"
        );
    }

    #[test]
    fn nothing_follows_on_6x6() {
        let mut b = empty6();
        keep(&mut b, 0, &[0, 1]);
        keep(&mut b, 3, &[0, 2]);
        assert!(forcing_chains(&b).is_empty());
        assert!(forcing_chains(&empty6()).is_empty());
    }

    /// With singles and forcing chains alone, expert puzzles get stuck and
    /// forcing chains take over; no step removes a solution value.
    #[test]
    fn forcing_chains_are_sound_on_generated_puzzles() {
        let fired = crate::engine::logic::tests::sound_along_paths(
            Shape::CLASSIC,
            1..=4,
            &[Technique::ForcingChain],
        );
        assert!(fired[0] > 0, "{fired:?}");
        let fired = crate::engine::logic::tests::sound_along_paths(
            Shape::new(2, 4).unwrap(),
            1..=3,
            &[Technique::ForcingChain],
        );
        assert!(fired[0] > 0, "{fired:?}");
    }
}
