//! Dynamic and nested forcing chains (forcing nets), Sudoku Explainer's
//! last rules, after the static forcing chains of `forcing.rs`. An
//! assumption ("r1c1 is 5") is followed on a copy of the candidates
//! through every candidate it makes true ("on") or false ("off"):
//!
//! - static: a placement removes its peers and the cell's other
//!   candidates; a removal makes a candidate true only where the position
//!   itself has a bivalue cell or a unit with two places (used only as the
//!   inner rule of [`Technique::NestedForcingChain`] of levels 2 and 3);
//! - dynamic ([`Technique::DynamicForcingChain`], SE 8.5): a removal makes
//!   a candidate true whenever the candidates left by the assumption so far
//!   leave one in a cell or one place in a unit (naked and hidden singles
//!   on the changed grid);
//! - dynamic (+) ([`Technique::DynamicForcingChainPlus`], SE 9.0): besides,
//!   locked candidates, naked and hidden pairs and X-Wings that the
//!   assumption creates also fire;
//! - nested ([`Technique::NestedForcingChain`], SE 9.5, 10.0, 10.5, 11.0
//!   for levels 2 to 5): besides, when nothing else follows, each
//!   candidate still open is tried with an inner rule and removed when it
//!   leads to a contradiction there. As in SE, the inner rule grows with
//!   the level: static chains (level 2), static chains and forcing nets
//!   (3: a candidate goes when every candidate of a cell, or every place
//!   of a value in a unit, removes it), dynamic chains and nets (4), and
//!   dynamic (+) chains and nets (5). (SE's level 5 nests a level-2 net
//!   inside; ours nests the dynamic (+) rule, which costs far less.)
//!
//! An assumption that ends in a contradiction (a candidate both true and
//! false, a cell without candidates, a unit without a place for a value)
//! is false; when every candidate of a cell, or every place of a value in a
//! unit, leads to the same candidate being true (or false), it is.
//!
//! Assumptions are "true" only. SE also assumes a candidate false (a
//! contradiction then places it; what its truth and its falsehood both
//! imply holds: "double" chains). Under the dynamic rules that finds
//! nothing more: a candidate's falsehood either implies nothing, or makes
//! true the other candidate of its bivalue cell or its other place in a
//! unit with two, whose truth in turn makes it false, so both reach the
//! same candidates (a test checks this), and "true or false" is then that
//! cell's or unit's net. Under the (+) and nested rules a falsehood that
//! implies no single can still start something; searching those took half
//! as much time again on forum-hardest puzzles and moved one rating in ten
//! by a tenth or two either way (README, Grading), so they are not
//! searched. Every
//! conclusion rests on the position's candidates alone (no uniqueness), so
//! every step is sound. Each implication keeps its causes, so a step
//! counts the nodes it needs (its "complexity", shown in the explanation
//! as "(N nodes)": the nodes the conclusion rests on, plus those of the
//! inner chains it uses) and the rating grows with it as SE's does. The
//! explanation follows the branch that decides, through the first cause
//! of each node, and elides the middle of a long one.
//!
//! Work is counted (peer visits, unit scans) and capped per call
//! ([`WORK_BUDGET`], scaled with the board); the board's limits (deadline,
//! cancel flag) are checked between assumptions. The nested levels of 2
//! and 3 follow only the inner chains that can end in a contradiction,
//! found for all candidates at once on the graph of the position's links
//! (`suspects.rs`; at level 3 exactly, with what each other chain
//! removes); the others cost them little.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
#[cfg(test)]
use std::sync::Mutex;

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use crate::engine::grid::Value;

use super::cellset::members;
use super::kept::{Kept, ROOM};
use super::{Board, CandidateRole, Highlights, Link, Step, Technique, bits};

mod suspects;

/// Work budget of one call on a 9×9 board, in elementary operations; a
/// board with more cells gets proportionally less per cell (the same
/// total), so nets stay bounded on large boards.
pub const WORK_BUDGET: usize = 60_000_000;

/// Most branches (candidates of a cell, places of a value in a unit) a
/// cell or unit forcing net may have.
pub const MAX_BRANCHES: usize = 9;

/// Most steps one call returns (those of fewest nodes).
pub const MAX_STEPS: usize = 8;

/// Most nodes of the deciding branch spelled out in an explanation.
const SHOWN: usize = 10;

const NONE: u32 = u32::MAX;

/// How a propagation follows removals to placements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Mode {
    /// As [`Mode::Static`], but only a candidate both true and false is a
    /// contradiction (SE's plain forcing chains: an assumption that
    /// implies its own negation through strong and weak links).
    Chains,
    /// Only through the position's bivalue cells and two-place units.
    Static,
    /// Singles on the changed candidates.
    Dynamic,
    /// Singles, locked candidates, naked and hidden pairs, X-Wings.
    Plus,
    /// Plus, and inner contradictions of the given SE level (2, 3, 4).
    Nested(u8),
}

impl Mode {
    fn of(t: Technique) -> Option<Mode> {
        match t {
            Technique::DynamicForcingChain => Some(Mode::Dynamic),
            Technique::DynamicForcingChainPlus => Some(Mode::Plus),
            Technique::NestedForcingChain(k) if (2..=5).contains(&k) => Some(Mode::Nested(k)),
            _ => None,
        }
    }

    /// The rule a nested mode tries inside.
    fn inner(self) -> Mode {
        match self {
            Mode::Nested(2) => Mode::Chains,
            Mode::Nested(3) => Mode::Static,
            Mode::Nested(4) => Mode::Dynamic,
            _ => Mode::Plus,
        }
    }

    /// Whether the inner rule also has cell and unit forcing nets (SE's
    /// "multiple" chains, from level 3 up).
    fn multiple(self) -> bool {
        matches!(self, Mode::Nested(k) if k >= 3)
    }

    /// Whether removals make singles true (else only in the position's
    /// bivalue cells and two-place units).
    fn dynamic(self) -> bool {
        !matches!(self, Mode::Chains | Mode::Static)
    }

    fn plus(self) -> bool {
        matches!(self, Mode::Plus | Mode::Nested(_))
    }

    /// Where a search of this mode keeps its branches for the next level
    /// ([`EARLIER`]): the dynamic and the (+) modes only.
    fn kept_slot(self) -> Option<usize> {
        match self {
            Mode::Dynamic => Some(0),
            Mode::Plus => Some(1),
            _ => None,
        }
    }

    /// The modes whose kept branches a search of this mode goes on from,
    /// the nearest first, and whether those end at the (+) rules' end.
    fn resumes_from(self) -> &'static [(Mode, bool)] {
        match self {
            Mode::Plus => &[(Mode::Dynamic, false)],
            Mode::Nested(_) => &[(Mode::Plus, true), (Mode::Dynamic, false)],
            _ => &[],
        }
    }
}

/// Why a node holds. Units and cells are `u32` here, as a node's
/// candidate is, so that a node takes 32 bytes: a branch's log is copied
/// whole when it is kept for the next level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Why {
    Assumed,
    /// A placement in the same cell or a peer removes it.
    Seen,
    /// The last candidate of its cell.
    NakedSingle,
    /// The last place of its value in a unit.
    HiddenSingle(u32),
    /// Locked candidates: the value's places in the first unit lie in the
    /// second.
    Locked(u32, u32),
    /// A naked or hidden pair in a unit.
    Pair(u32),
    /// An X-Wing on two lines.
    XWing(u32, u32),
    /// An inner chain from this candidate ends in a contradiction (its
    /// node count).
    Nested(u32),
    /// An inner forcing net from this source removes the candidate (the
    /// node count of all its branches).
    NestedNet(Origin, u32),
}

/// A [`Source`] in two `u32`s: a cell and [`NONE`], or a unit and a
/// value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Origin(u32, u32);

impl From<Source> for Origin {
    fn from(s: Source) -> Origin {
        match s {
            Source::Cell(c) => Origin(c as u32, NONE),
            Source::Unit(u, d) => Origin(u as u32, d as u32),
        }
    }
}

impl From<Origin> for Source {
    fn from(o: Origin) -> Source {
        match o {
            Origin(c, NONE) => Source::Cell(c as usize),
            Origin(u, d) => Source::Unit(u as usize, d as usize),
        }
    }
}

/// One node: candidate (`cell`, `digit`) true or false, its reason and
/// where its causes lie in the log's list of links.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Node {
    cell: u32,
    digit: u16,
    on: bool,
    why: Why,
    from: u32,
    to: u32,
}

impl Node {
    fn c(&self) -> usize {
        self.cell as usize
    }

    fn d(&self) -> usize {
        self.digit as usize
    }
}

const _: () = assert!(std::mem::size_of::<Node>() == 32);

/// The nodes of a branch in the order they were found, and their causes
/// (one list for all, so that a node costs no allocation).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Log {
    nodes: Vec<Node>,
    links: Vec<u32>,
}

impl Log {
    fn len(&self) -> usize {
        self.nodes.len()
    }

    fn clear(&mut self) {
        self.nodes.clear();
        self.links.clear();
    }

    fn iter(&self) -> std::slice::Iter<'_, Node> {
        self.nodes.iter()
    }

    /// The causes of node `i`.
    fn parents(&self, i: u32) -> &[u32] {
        let x = &self.nodes[i as usize];
        &self.links[x.from as usize..x.to as usize]
    }
}

impl std::ops::Index<usize> for Log {
    type Output = Node;

    fn index(&self, i: usize) -> &Node {
        &self.nodes[i]
    }
}

/// How a branch breaks the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Clash {
    /// A candidate both true and false.
    Both(usize, usize),
    /// A cell without candidates.
    EmptyCell(usize),
    /// A unit without a place for a value.
    NoPlace(usize, usize),
}

/// Why a branch stopped early.
#[derive(Debug, Clone)]
enum Stop {
    Clash(Clash, Vec<u32>),
    Budget,
}

/// Propagates assumptions over a private copy of a position.
struct Net<'a> {
    b: &'a Board,
    n: usize,
    /// The position the branch starts from.
    start: Vec<u64>,
    start_value: Vec<u32>,
    /// Digits placed in each unit in the position.
    done: Vec<u64>,
    /// Places of each value in each unit (index u·n + d) in the position
    /// the branch starts from (those left now are `places`).
    had: Vec<u32>,
    /// The candidates (c·n + d) whose removal the branch has followed.
    cleared: Vec<u32>,
    mask: Vec<u64>,
    /// Per unit and digit (u·n + d): the unit's places of the digit in
    /// `mask`, bit j for the unit's j-th cell.
    places: Vec<u64>,
    value: Vec<u32>,
    on: Vec<u32>,
    off: Vec<u32>,
    log: Log,
    /// Scratch for the causes of one node.
    causes: Vec<u32>,
    /// Scratch for the causes of the (+) rules' removals.
    parents: Vec<u32>,
    queue: VecDeque<u32>,
    /// Per unit, the digits whose places changed since the last pass of
    /// the (+) rules.
    dirty: Vec<u64>,
    /// The other buffer of `dirty`.
    spare: Vec<u64>,
    work: usize,
    budget: usize,
    inner: Option<Box<Net<'a>>>,
    /// When the inner net and the graph hold this branch's position: the
    /// log's length then, whether the graph was searched whole, and the
    /// work that search counted.
    inner_at: Option<(usize, bool, usize)>,
    /// The nested level 2's buffers for the chains it may skip.
    suspects: Option<Box<suspects::Suspects>>,
    /// Level 3's buffers for what each inner chain removes.
    reached: Option<suspects::Reached>,
}

impl<'a> Net<'a> {
    fn new(b: &'a Board, mask: Vec<u64>, value: Vec<u32>, budget: usize) -> Net<'a> {
        let n = b.n();
        let cells = mask.len();
        let mut net = Net {
            b,
            n,
            start: mask.clone(),
            start_value: value.clone(),
            done: vec![0; b.shape().units()],
            had: vec![0; b.shape().units() * n],
            cleared: Vec::new(),
            mask,
            places: vec![0; b.shape().units() * n],
            value,
            on: vec![NONE; cells * n],
            off: vec![NONE; cells * n],
            log: Log::default(),
            causes: Vec::new(),
            parents: Vec::new(),
            queue: VecDeque::new(),
            dirty: vec![0; b.shape().units()],
            spare: Vec::new(),
            work: 0,
            budget,
            inner: None,
            inner_at: None,
            suspects: None,
            reached: None,
        };
        net.set_start();
        net
    }

    fn of_board(b: &'a Board, budget: usize) -> Net<'a> {
        let cells = b.shape().cells();
        let mask = (0..cells).map(|c| b.mask(c)).collect();
        let value = (0..cells)
            .map(|c| b.value(c).map_or(NONE, |v| v.index() as u32))
            .collect();
        Net::new(b, mask, value, budget)
    }

    /// The digits placed and the places of each value in each unit of
    /// the start position.
    fn set_start(&mut self) {
        let n = self.n;
        self.done.iter_mut().for_each(|x| *x = 0);
        self.had.iter_mut().for_each(|x| *x = 0);
        self.places.iter_mut().for_each(|x| *x = 0);
        for c in 0..self.start.len() {
            let v = self.start_value[c];
            let positions = self.b.positions(c);
            if v != NONE && self.start[c] == 0 {
                for (u, _) in positions {
                    self.done[u] |= 1 << v;
                }
            }
            for d in bits(self.start[c]) {
                for (u, i) in positions {
                    self.had[u * n + d] += 1;
                    self.places[u * n + d] |= 1 << i;
                }
            }
        }
        self.cleared.clear();
    }

    /// Makes the position `mask`/`value` the start of the next branches.
    fn load(&mut self, mask: &[u64], value: &[u32]) {
        self.reset();
        self.start.copy_from_slice(mask);
        self.start_value.copy_from_slice(value);
        self.mask.copy_from_slice(mask);
        self.value.copy_from_slice(value);
        self.set_start();
    }

    /// Back to the start position, with an empty log.
    fn reset(&mut self) {
        for node in self.log.iter() {
            let i = node.c() * self.n + node.d();
            self.on[i] = NONE;
            self.off[i] = NONE;
            self.mask[node.c()] = self.start[node.c()];
            self.value[node.c()] = self.start_value[node.c()];
        }
        for &k in &self.cleared {
            let (c, d) = (k as usize / self.n, k as usize % self.n);
            for (u, i) in self.b.positions(c) {
                self.places[u * self.n + d] |= 1 << i;
            }
        }
        self.cleared.clear();
        self.log.clear();
        self.queue.clear();
        self.dirty.iter_mut().for_each(|x| *x = 0);
        self.inner_at = None;
    }

    fn spent(&self) -> bool {
        self.work >= self.budget
    }

    fn push(&mut self, c: usize, d: usize, on: bool, why: Why, parents: &[u32]) {
        let i = self.log.len() as u32;
        if on {
            self.on[c * self.n + d] = i;
        } else {
            self.off[c * self.n + d] = i;
        }
        let from = self.log.links.len() as u32;
        self.log.links.extend_from_slice(parents);
        self.log.nodes.push(Node {
            cell: c as u32,
            digit: d as u16,
            on,
            why,
            from,
            to: self.log.links.len() as u32,
        });
        self.queue.push_back(i);
    }

    fn set_on(&mut self, c: usize, d: usize, why: Why, parents: &[u32]) -> Result<(), Stop> {
        let k = c * self.n + d;
        if self.on[k] != NONE {
            return Ok(());
        }
        if self.off[k] != NONE {
            let mut parents = parents.to_vec();
            parents.push(self.off[k]);
            return Err(Stop::Clash(Clash::Both(c, d), parents));
        }
        if self.start[c] >> d & 1 == 0 {
            return Err(Stop::Clash(Clash::Both(c, d), parents.to_vec()));
        }
        self.push(c, d, true, why, parents);
        Ok(())
    }

    fn set_off(&mut self, c: usize, d: usize, why: Why, parents: &[u32]) -> Result<(), Stop> {
        let k = c * self.n + d;
        if self.off[k] != NONE || self.start[c] >> d & 1 == 0 {
            return Ok(());
        }
        if self.on[k] != NONE {
            let mut parents = parents.to_vec();
            parents.push(self.on[k]);
            return Err(Stop::Clash(Clash::Both(c, d), parents));
        }
        self.push(c, d, false, why, parents);
        Ok(())
    }

    /// Makes the single `c` = `d` true, caused by the removals of the
    /// cell's other candidates (`unit` None) or of the value's other
    /// places in a unit.
    fn set_single(&mut self, c: usize, d: usize, unit: Option<usize>) -> Result<(), Stop> {
        let mut causes = std::mem::take(&mut self.causes);
        causes.clear();
        let why = match unit {
            None => {
                causes.extend(bits(self.start[c]).map(|e| self.off[c * self.n + e]));
                Why::NakedSingle
            }
            Some(u) => {
                let n = self.n;
                causes.extend(self.b.unit(u).iter().map(|&x| self.off[x as usize * n + d]));
                Why::HiddenSingle(u as u32)
            }
        };
        causes.retain(|&i| i != NONE);
        let out = self.set_on(c, d, why, &causes);
        self.causes = causes;
        out
    }

    /// The nodes that turned the position's candidates of `d` in `cells`
    /// off.
    fn offs(&self, cells: impl Iterator<Item = usize>, d: usize) -> Vec<u32> {
        self.offs_of(cells, d).collect()
    }

    fn offs_of<'s>(
        &'s self,
        cells: impl Iterator<Item = usize> + 's,
        d: usize,
    ) -> impl Iterator<Item = u32> + 's {
        cells
            .map(move |c| self.off[c * self.n + d])
            .filter(|&i| i != NONE)
    }

    /// The nodes that turned candidates of cell `c` off.
    fn cell_offs(&self, c: usize) -> Vec<u32> {
        self.cell_offs_of(c).collect()
    }

    fn cell_offs_of(&self, c: usize) -> impl Iterator<Item = u32> + '_ {
        bits(self.start[c])
            .map(move |d| self.off[c * self.n + d])
            .filter(|&i| i != NONE)
    }

    /// An empty buffer for a node's causes, to give back with
    /// [`Net::give_back`] (a removal that fails loses it).
    fn parents_buffer(&mut self) -> Vec<u32> {
        let mut v = std::mem::take(&mut self.parents);
        v.clear();
        v
    }

    fn give_back(&mut self, v: Vec<u32>) {
        self.parents = v;
    }

    /// Follows node `i`.
    fn follow(&mut self, i: u32, mode: Mode) -> Result<(), Stop> {
        let node = self.log[i as usize];
        let (c, d, on) = (node.c(), node.d(), node.on);
        let b = self.b;
        if on {
            self.value[c] = d as u32;
            for e in bits(self.mask[c] & !(1 << d)) {
                self.set_off(c, e, Why::Seen, &[i])?;
            }
            // The peers holding d, in the order of `Tables::peers` (the
            // row, the column, the box's cells in neither); one unit of
            // work per peer, up to the one that fails.
            for (k, (u, at)) in b.positions(c).into_iter().enumerate() {
                let mut x = self.places[u * self.n + d] & !(1u64 << at);
                if k == 2 {
                    x &= !b.tables().box_lines(c);
                }
                let unit = b.unit(u);
                while x != 0 {
                    let p = unit[x.trailing_zeros() as usize] as usize;
                    x &= x - 1;
                    if let Err(stop) = self.set_off(p, d, Why::Seen, &[i]) {
                        self.work += 1 + b.tables().peers(c).position(|q| q == p).unwrap_or(0);
                        return Err(stop);
                    }
                }
            }
            self.work += b.shape().peer_count();
            return Ok(());
        }
        self.take_out(c, d);
        let m = self.mask[c];
        // Plain chains see only a candidate both true and false.
        if m == 0 && mode != Mode::Chains {
            return Err(Stop::Clash(Clash::EmptyCell(c), self.cell_offs(c)));
        }
        if m.is_power_of_two() && self.value[c] == NONE {
            let e = m.trailing_zeros() as usize;
            if mode.dynamic() {
                self.set_single(c, e, None)?;
            } else if self.start[c].count_ones() == 2 {
                self.set_on(c, e, Why::NakedSingle, &[i])?;
            }
        }
        for u in b.units_of(c) {
            if self.done[u] >> d & 1 == 1 {
                continue;
            }
            self.work += self.n;
            let k = u * self.n + d;
            // The places left, as the branch has them.
            match self.places[k].count_ones() {
                0 if mode == Mode::Chains => {}
                0 => {
                    let parents = self.offs(b.unit(u).iter().map(|&x| x as usize), d);
                    return Err(Stop::Clash(Clash::NoPlace(u, d), parents));
                }
                1 => {
                    let p = b.unit(u)[self.places[k].trailing_zeros() as usize] as usize;
                    if self.value[p] != NONE {
                        continue;
                    }
                    if mode.dynamic() {
                        self.set_single(p, d, Some(u))?;
                    } else if self.had[k] == 2 {
                        self.set_on(p, d, Why::HiddenSingle(u as u32), &[i])?;
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Takes candidate `c` = `d` out of the branch's position (to be put
    /// back by [`Net::reset`]) and marks its units for the (+) rules.
    fn take_out(&mut self, c: usize, d: usize) {
        let n = self.n;
        self.mask[c] &= !(1 << d);
        self.cleared.push((c * n + d) as u32);
        for (u, at) in self.b.positions(c) {
            self.dirty[u] |= 1 << d;
            self.places[u * n + d] &= !(1u64 << at);
        }
    }

    fn drain(&mut self, mode: Mode) -> Result<(), Stop> {
        while let Some(i) = self.queue.pop_front() {
            self.follow(i, mode)?;
        }
        Ok(())
    }

    /// Follows `c` = `d` (or `c` ≠ `d`) to its end under `mode`.
    fn run(&mut self, c: usize, d: usize, on: bool, mode: Mode) -> Result<(), Stop> {
        self.reset();
        if on {
            self.set_on(c, d, Why::Assumed, &[])?;
        } else {
            self.set_off(c, d, Why::Assumed, &[])?;
        }
        self.finish(mode)
    }

    /// Puts the branch where an earlier search of the same position left
    /// the same assumption, with no contradiction: its nodes `log`, each
    /// followed, and the `work` that cost. Every mode follows a node as
    /// the dynamic one does, and the (+) and nested modes first follow
    /// the queue out, then the (+) rules to their end (`fixpoint`), so a
    /// dynamic branch's end is where theirs first stops, and a dynamic
    /// (+) branch's end where a nested one first tries inner chains:
    /// [`Net::finish`] goes on from there as [`Net::run`] would.
    fn resume(&mut self, log: &Log, work: usize, fixpoint: bool) {
        self.reset();
        let n = self.n;
        self.log.nodes.extend_from_slice(&log.nodes);
        self.log.links.extend_from_slice(&log.links);
        for (i, node) in log.nodes.iter().enumerate() {
            let (c, d) = (node.c(), node.d());
            if node.on {
                self.on[c * n + d] = i as u32;
                self.value[c] = d as u32;
                continue;
            }
            self.off[c * n + d] = i as u32;
            self.take_out(c, d);
        }
        if fixpoint {
            // At the (+) rules' end no unit is left to look at.
            self.dirty.iter_mut().for_each(|x| *x = 0);
        }
        self.work += work;
    }

    /// Follows the branch to its end under `mode`, from the nodes queued.
    fn finish(&mut self, mode: Mode) -> Result<(), Stop> {
        loop {
            self.drain(mode)?;
            if self.spent() {
                return Err(Stop::Budget);
            }
            if mode.plus() && self.plus_rules()? {
                continue;
            }
            if let Mode::Nested(_) = mode
                && self.nested(mode)?
            {
                continue;
            }
            return Ok(());
        }
    }

    /// Locked candidates, naked and hidden pairs and X-Wings that the
    /// branch created; whether any removed something.
    fn plus_rules(&mut self) -> Result<bool, Stop> {
        let b = self.b;
        let n = self.n;
        let before = self.log.len();
        // The units changed so far are read; those the removals below
        // change are marked for the next pass (in the other buffer).
        let mut dirty = std::mem::take(&mut self.spare);
        dirty.clear();
        dirty.resize(b.shape().units(), 0);
        std::mem::swap(&mut self.dirty, &mut dirty);
        let mut digits = 0u64;
        let out = (|| {
            for (u, &changed) in dirty.iter().enumerate() {
                if changed == 0 {
                    continue;
                }
                digits |= changed;
                let unit = b.unit(u);
                self.work += n * 2;
                for d in bits(changed) {
                    if self.done[u] >> d & 1 == 1 {
                        continue;
                    }
                    // Locked candidates: the places all share another unit.
                    let places = self.places[u * n + d];
                    let Some(first) = bits(places).next() else {
                        continue;
                    };
                    let mut shared = b.units_of(unit[first] as usize);
                    for j in bits(places) {
                        let us = b.units_of(unit[j] as usize);
                        for k in 0..3 {
                            if shared[k] != us[k] {
                                shared[k] = NONE as usize;
                            }
                        }
                    }
                    for other in shared {
                        if other == u || other == NONE as usize {
                            continue;
                        }
                        // (Removals are only queued: the candidates stay
                        // as they are until the caller follows them.)
                        let victim = |net: &Net, x: usize| {
                            net.mask[x] >> d & 1 == 1 && !b.units_of(x).contains(&u)
                        };
                        if !b.unit(other).iter().any(|&x| victim(self, x as usize)) {
                            continue;
                        }
                        let mut parents = self.parents_buffer();
                        parents.extend(self.offs_of(unit.iter().map(|&x| x as usize), d));
                        if !parents.is_empty() {
                            for &x in b.unit(other) {
                                if victim(self, x as usize) {
                                    self.set_off(
                                        x as usize,
                                        d,
                                        Why::Locked(u as u32, other as u32),
                                        &parents,
                                    )?;
                                }
                            }
                        }
                        self.give_back(parents);
                    }
                }
                self.pairs(u)?;
            }
            if self.log.len() == before {
                self.xwings(digits)?;
            }
            Ok(())
        })();
        self.spare = dirty;
        out.map(|()| self.log.len() > before)
    }

    /// Naked and hidden pairs in unit `u`.
    fn pairs(&mut self, u: usize) -> Result<(), Stop> {
        let b = self.b;
        let n = self.n;
        let unit = b.unit(u);
        let cell = |j: usize| unit[j] as usize;
        // The unit's open cells, by their place in it.
        let mut open = 0u64;
        for (j, &x) in unit.iter().enumerate() {
            if self.value[x as usize] == NONE {
                open |= 1 << j;
            }
        }
        // (Removals are only queued: the candidates stay as they are.)
        for i in bits(open) {
            let m = self.mask[cell(i)];
            if m.count_ones() != 2 {
                continue;
            }
            for j in bits(open).filter(|&j| j > i) {
                if self.mask[cell(j)] != m {
                    continue;
                }
                let rest = open & !(1 << i) & !(1 << j);
                if bits(rest).all(|k| self.mask[cell(k)] & m == 0) {
                    continue;
                }
                let mut parents = self.parents_buffer();
                parents.extend(self.cell_offs_of(cell(i)));
                parents.extend(self.cell_offs_of(cell(j)));
                if !parents.is_empty() {
                    for k in bits(rest) {
                        for e in bits(self.mask[cell(k)] & m) {
                            self.set_off(cell(k), e, Why::Pair(u as u32), &parents)?;
                        }
                    }
                }
                self.give_back(parents);
            }
        }
        // Hidden pairs: two digits with the same two places.
        let places = |net: &Net, d: usize| net.places[u * n + d] & open;
        for d1 in 0..n {
            let p = places(self, d1);
            if p.count_ones() != 2 || self.done[u] >> d1 & 1 == 1 {
                continue;
            }
            for d2 in d1 + 1..n {
                if places(self, d2) != p || self.done[u] >> d2 & 1 == 1 {
                    continue;
                }
                let keep = (1u64 << d1) | (1 << d2);
                if bits(p).all(|k| self.mask[cell(k)] & !keep == 0) {
                    continue;
                }
                let mut parents = self.parents_buffer();
                parents.extend(self.offs_of(unit.iter().map(|&x| x as usize), d1));
                parents.extend(self.offs_of(unit.iter().map(|&x| x as usize), d2));
                if !parents.is_empty() {
                    for k in bits(p) {
                        for e in bits(self.mask[cell(k)] & !keep) {
                            self.set_off(cell(k), e, Why::Pair(u as u32), &parents)?;
                        }
                    }
                }
                self.give_back(parents);
            }
        }
        Ok(())
    }

    /// X-Wings: two rows (or columns) whose places for a value lie in the
    /// same two columns (rows).
    fn xwings(&mut self, digits: u64) -> Result<(), Stop> {
        let b = self.b;
        let n = self.n;
        let mut places = [0u64; 64];
        for (base, cover) in [(0usize, n), (n, 0usize)] {
            for d in bits(digits) {
                for (l, p) in places[..n].iter_mut().enumerate() {
                    *p = if self.done[base + l] >> d & 1 == 1 {
                        0
                    } else {
                        self.places[(base + l) * n + d]
                    };
                }
                self.work += n * n;
                for l1 in 0..n {
                    if places[l1].count_ones() != 2 {
                        continue;
                    }
                    for l2 in l1 + 1..n {
                        if places[l2] != places[l1] {
                            continue;
                        }
                        // (Removals are only queued: the candidates stay.)
                        let victim = |net: &Net, x: usize| {
                            net.mask[x] >> d & 1 == 1 && {
                                let r = b.units_of(x);
                                r[0] != base + l1
                                    && r[0] != base + l2
                                    && r[1] != base + l1
                                    && r[1] != base + l2
                            }
                        };
                        let victims = || {
                            bits(places[l1])
                                .flat_map(|i| b.unit(cover + i).iter().map(|&x| x as usize))
                        };
                        if !victims().any(|x| victim(self, x)) {
                            continue;
                        }
                        let mut parents = self.parents_buffer();
                        let lines = [base + l1, base + l2];
                        for l in lines {
                            parents.extend(self.offs_of(b.unit(l).iter().map(|&x| x as usize), d));
                        }
                        if !parents.is_empty() {
                            for x in victims() {
                                if victim(self, x) {
                                    self.set_off(
                                        x,
                                        d,
                                        Why::XWing(lines[0] as u32, lines[1] as u32),
                                        &parents,
                                    )?;
                                }
                            }
                        }
                        self.give_back(parents);
                    }
                }
            }
        }
        Ok(())
    }

    /// Tries every open candidate with the inner rule of `mode`, removing
    /// those that lead to a contradiction (and following each removal);
    /// on the levels from 3 up, when none does, the inner cell and unit
    /// forcing nets too ([`Net::inner_nets`]); whether any candidate went.
    fn nested(&mut self, mode: Mode) -> Result<bool, Stop> {
        let inner_mode = mode.inner();
        let multiple = mode.multiple();
        let mut inner = match self.inner.take() {
            Some(x) => x,
            None => Box::new(Net::new(
                self.b,
                self.mask.clone(),
                self.value.clone(),
                usize::MAX,
            )),
        };
        let mut found = false;
        let cells = self.mask.len();
        let n = self.n;
        // The removals each live inner branch reaches, for the inner
        // forcing nets: bits of the candidates' numbers in the position
        // (`suspects` numbers them).
        let mut reach = self.reached.take().unwrap_or_default();
        // Levels 2 and 3 follow only the plain or static chains that may
        // end in a contradiction in the position (see `suspects`); level 3
        // takes what the others remove from the graph of links too.
        let graph = matches!(inner_mode, Mode::Chains | Mode::Static);
        let whole = inner_mode == Mode::Static;
        // Whether the inner net starts from another position than ours
        // (each inner run puts back the one it started from). A pass
        // after one that removed something often starts where the last
        // search of the graph was made: it is not made again, but its
        // work is counted again.
        let mut stale = true;
        let mut suspects = self.suspects.take().unwrap_or_default();
        if graph
            && let Some((len, w, work)) = self.inner_at
            && len == self.log.len()
            && w == whole
        {
            self.work += work;
            reach.clear(&suspects);
            stale = false;
        }
        let result = (|| {
            for c in 0..cells {
                if self.value[c] != NONE || self.mask[c].count_ones() < 2 {
                    continue;
                }
                for d in bits(self.mask[c]) {
                    if self.mask[c] >> d & 1 == 0 || self.value[c] != NONE {
                        continue;
                    }
                    if self.spent() {
                        return Err(Stop::Budget);
                    }
                    if stale {
                        inner.load(&self.mask, &self.value);
                        if graph {
                            let work = suspects.find(&inner, whole);
                            self.work += work;
                            self.inner_at = Some((self.log.len(), whole, work));
                        } else {
                            suspects.number(&inner);
                        }
                        reach.clear(&suspects);
                        stale = false;
                    }
                    if graph && !suspects.may[c * n + d] {
                        self.work += cells;
                        if whole
                            && multiple
                            && !found
                            && let Some(i) = suspects.number_of(c * n + d)
                            && let Some(offs) = suspects.reach_of(i)
                        {
                            reach.set_bits(i, offs);
                        }
                        continue;
                    }
                    inner.work = 0;
                    let out = inner.run(c, d, true, inner_mode);
                    self.work += inner.work + cells;
                    let parents = match out {
                        Err(Stop::Clash(_, parents)) => parents,
                        Ok(()) if multiple && !found => {
                            if let Some(i) = suspects.number_of(c * n + d) {
                                reach.set_list(i, inner.offs_made(), &suspects);
                            }
                            continue;
                        }
                        _ => continue,
                    };
                    let count = inner.ancestry(&parents).len() as u32 + 1;
                    let outer = self.outer_causes(&inner, &parents);
                    self.set_off(c, d, Why::Nested(count), &outer)?;
                    found = true;
                    stale = true;
                    self.drain(mode)?;
                    while self.plus_rules()? {
                        self.drain(mode)?;
                    }
                }
            }
            // The branches were all followed from one position only when
            // nothing went.
            // (Still stale: no branch was followed, so none reaches
            // anything.)
            if multiple && !found && !stale {
                found = self.inner_nets(&mut inner, inner_mode, &reach, &suspects)?;
            }
            Ok(())
        })();
        self.inner = Some(inner);
        self.suspects = Some(suspects);
        self.reached = Some(reach);
        result.map(|()| found)
    }

    /// The outer nodes an inner chain ending in `roots` rests on: those
    /// that removed candidates of the cells it used.
    fn outer_causes(&self, inner: &Net, roots: &[u32]) -> Vec<u32> {
        let mut outer: Vec<u32> = inner
            .ancestry(roots)
            .into_iter()
            .flat_map(|j| self.cell_offs(inner.log[j as usize].c()))
            .collect();
        outer.sort_unstable();
        outer.dedup();
        outer
    }

    /// Inner cell and unit forcing nets: when every candidate of a cell,
    /// or every place of a value in a unit, removes the same candidate
    /// under the inner rule (`reach`, per assumption), the candidate goes.
    /// Each removal counts the inner nodes of every branch leading to it.
    /// Whether any went (the removals are then followed).
    fn inner_nets(
        &mut self,
        inner: &mut Net<'a>,
        inner_mode: Mode,
        reach: &suspects::Reached,
        numbers: &suspects::Suspects,
    ) -> Result<bool, Stop> {
        let b = self.b;
        let n = self.n;
        let cells = self.mask.len();
        let mut any = false;
        // The removals found are only queued: the position stays, and so
        // do the sources' lists, made one at a time.
        inner.load(&self.mask, &self.value);
        let mut numbered: Vec<usize> = Vec::new();
        let mut acc: Vec<u64> = Vec::new();
        let mut list: Vec<usize> = Vec::new();
        let units = b.shape().units();
        let sources = (0..cells)
            .map(Source::Cell)
            .chain((0..units).flat_map(|u| (0..n).map(move |d| Source::Unit(u, d))));
        for source in sources {
            list.clear();
            match source {
                Source::Cell(c) => {
                    if self.value[c] != NONE || self.mask[c].count_ones() < 2 {
                        continue;
                    }
                    list.extend(bits(self.mask[c]).map(|d| c * n + d));
                }
                Source::Unit(u, d) => {
                    if self.done[u] >> d & 1 == 1 {
                        continue;
                    }
                    list.extend(
                        b.unit(u)
                            .iter()
                            .map(|&x| x as usize)
                            .filter(|&x| self.value[x] == NONE && self.mask[x] >> d & 1 == 1)
                            .map(|x| x * n + d),
                    );
                    if list.len() < 2 {
                        continue;
                    }
                }
            }
            numbered.clear();
            numbered.extend(list.iter().filter_map(|&k| numbers.number_of(k)));
            if numbered.len() != list.len() || !reach.meet(&numbered, &mut acc) {
                continue;
            }
            // In the numbers' order, which is that of c·n + d.
            let common: Vec<u32> = members(&acc)
                .map(|j| numbers.candidate(j, n))
                .filter(|&k| {
                    let k = k as usize;
                    self.off[k] == NONE && self.mask[k / n] >> (k % n) & 1 == 1
                })
                .collect();
            if common.is_empty() {
                continue;
            }
            // Follow the branches again for the nodes each removal rests on.
            let mut counts = vec![1u32; common.len()];
            let mut outer: Vec<u32> = Vec::new();
            for &k in &list {
                inner.work = 0;
                let out = inner.run(k / n, k % n, true, inner_mode);
                self.work += inner.work + cells;
                if out.is_err() {
                    return Err(Stop::Budget);
                }
                for (i, &x) in common.iter().enumerate() {
                    let at = inner.off[x as usize];
                    counts[i] += inner.ancestry(&[at]).len() as u32;
                    outer.extend(self.outer_causes(inner, &[at]));
                }
            }
            outer.sort_unstable();
            outer.dedup();
            for (i, &x) in common.iter().enumerate() {
                let (c, d) = (x as usize / n, x as usize % n);
                self.set_off(c, d, Why::NestedNet(source.into(), counts[i]), &outer)?;
                any = true;
            }
        }
        // The caller follows the removals.
        Ok(any)
    }

    /// The candidates (c·n + d) the branch made false, in its order.
    fn offs_made(&self) -> impl Iterator<Item = u32> + '_ {
        self.log
            .iter()
            .filter(|x| !x.on)
            .map(|x| (x.c() * self.n + x.d()) as u32)
    }

    /// The candidates (c·n + d, ascending) the branch made false.
    #[cfg(test)]
    fn removed(&self) -> Vec<u32> {
        let mut offs: Vec<u32> = self.offs_made().collect();
        offs.sort_unstable();
        offs
    }

    /// The nodes `roots` rest on (themselves included), in log order.
    fn ancestry(&self, roots: &[u32]) -> Vec<u32> {
        ancestry(&self.log, roots)
    }
}

/// The nodes of `log` that `roots` rest on (themselves included), in log
/// order.
fn ancestry(log: &Log, roots: &[u32]) -> Vec<u32> {
    let mut seen = vec![false; log.len()];
    let mut stack: Vec<u32> = roots.to_vec();
    while let Some(i) = stack.pop() {
        if i == NONE || seen[i as usize] {
            continue;
        }
        seen[i as usize] = true;
        stack.extend(log.parents(i).iter().copied());
    }
    (0..log.len() as u32)
        .filter(|&i| seen[i as usize])
        .collect()
}

/// One branch's end: its nodes (on and off, per candidate) or its
/// contradiction.
struct Branch {
    log: Log,
    /// The work following it cost.
    work: usize,
    /// (candidate c·n + d, its node) for the candidates made true /
    /// false, by candidate.
    on: Vec<(u32, u32)>,
    off: Vec<(u32, u32)>,
    clash: Option<(Clash, Vec<u32>)>,
}

impl Branch {
    fn take(net: &mut Net, out: Result<(), Stop>) -> Option<Branch> {
        let clash = match out {
            Ok(()) => None,
            Err(Stop::Budget) => return None,
            Err(Stop::Clash(x, parents)) => Some((x, parents)),
        };
        let n = net.n;
        let ons = net.log.iter().filter(|x| x.on).count();
        let mut on = Vec::with_capacity(ons);
        let mut off = Vec::with_capacity(net.log.len() - ons);
        for (i, node) in net.log.iter().enumerate() {
            let k = (node.c() * n + node.d()) as u32;
            if node.on {
                on.push((k, i as u32));
            } else {
                off.push((k, i as u32));
            }
        }
        // (A candidate is made true, or false, once at most.)
        on.sort_unstable();
        off.sort_unstable();
        Some(Branch {
            log: net.log.clone(),
            work: 0,
            on,
            off,
            clash,
        })
    }

    /// The ancestry of `roots` in this branch.
    fn ancestry(&self, roots: &[u32]) -> Vec<u32> {
        ancestry(&self.log, roots)
    }

    fn complexity(&self, roots: &[u32]) -> usize {
        self.ancestry(roots)
            .into_iter()
            .map(|i| match self.log[i as usize].why {
                Why::Nested(k) | Why::NestedNet(_, k) => 1 + k as usize,
                _ => 1,
            })
            .sum()
    }

    /// The nodes of the contradiction (or of node `at`).
    fn roots(&self, at: Option<u32>) -> Vec<u32> {
        match (&self.clash, at) {
            (_, Some(i)) => vec![i],
            (Some((_, p)), None) => p.clone(),
            (None, None) => Vec::new(),
        }
    }

    /// The deciding path to `roots`: from the assumption, through the
    /// first cause of each node.
    fn path(&self, roots: &[u32]) -> Vec<u32> {
        let Some(&last) = roots.iter().max() else {
            return vec![0];
        };
        let mut p = vec![last];
        let mut i = last;
        while let Some(&up) = self.log.parents(i).iter().max() {
            if up == NONE || p.contains(&up) {
                break;
            }
            p.push(up);
            i = up;
        }
        p.reverse();
        if p.first() != Some(&0) {
            p.insert(0, 0);
        }
        p
    }
}

/// What a net proves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Conclusion {
    Place(usize, usize),
    Remove(usize, usize),
}

/// Where a net starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Cell(usize),
    Unit(usize, usize),
}

/// The steps of technique `t` (a dynamic or nested forcing chain) in the
/// position: contradictions, cell and unit forcing nets, fewest nodes
/// first (at most [`MAX_STEPS`]). Empty for other techniques, and when the
/// work budget or the board's limits stop the search first.
pub fn nets(b: &Board, t: Technique) -> Vec<Step> {
    let Some(mode) = Mode::of(t) else {
        return Vec::new();
    };
    // The path walk and the rating walk meet the same positions, often on
    // two threads at once (see `grade`): the answers are kept for every
    // thread, and a thread that asks for one another thread is still
    // searching waits for it rather than search again.
    let key = b.position_key();
    SHARED.get_or_search((t, key.clone()), b, || {
        #[cfg(test)]
        SEARCHED
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((t, key.clone()));
        nets_in(b, t, mode, key)
    })
}

/// A technique and a position's key ([`Board::position_key`]).
#[cfg(test)]
type Key = super::kept::Key<Technique>;

/// The nets' answers, for every thread: room for 380 to 1,500 answers at
/// 9×9 (a key of 164 words and up to [`MAX_STEPS`] steps each), more than
/// the path and rating walks of a forum-hardest puzzle ask for.
static SHARED: Kept<Technique> = Kept::new(16 * ROOM);

/// Every search [`nets`] made (tests only).
#[cfg(test)]
static SEARCHED: Mutex<Vec<Key>> = Mutex::new(Vec::new());

/// The steps of `t` (in `mode`) in `b`, whose key is `key`.
fn nets_in(b: &Board, t: Technique, mode: Mode, key: Vec<u64>) -> Vec<Step> {
    let cells = b.shape().cells();
    let budget = WORK_BUDGET.saturating_mul(81) / cells.max(1);
    let mut net = Net::of_board(b, budget);
    let n = b.n();
    // Assumptions by fewest candidates of their cell first.
    let mut order: Vec<usize> = (0..cells).filter(|&c| b.count(c) >= 2).collect();
    order.sort_by_key(|&c| b.count(c));
    let mut branches: HashMap<(usize, usize), Branch> = HashMap::new();
    // (node count, conclusion, source, the assumption when it is a
    // contradiction).
    type Found = (usize, Conclusion, Source, Option<(usize, usize)>);
    let mut found: Vec<Found> = Vec::new();
    // The branches of a dynamic or dynamic (+) search of this position
    // that this thread made before: the others go on from their ends.
    let earlier = EARLIER.with(|e| {
        e.borrow()
            .iter()
            .map(|slot| {
                slot.as_ref()
                    .filter(|(k, _)| *k == key)
                    .map(|(_, branches)| Rc::clone(branches))
            })
            .collect::<Vec<_>>()
    });
    let resumable = |c: usize, d: usize| -> Option<(&Branch, bool)> {
        mode.resumes_from().iter().find_map(|&(below, fixpoint)| {
            let slot = below.kept_slot()?;
            earlier[slot]
                .as_ref()
                .and_then(|m| m.get(&(c, d)))
                .filter(|br| br.clash.is_none())
                .map(|br| (br, fixpoint))
        })
    };
    let follow = |net: &mut Net, c: usize, d: usize, branches: &mut HashMap<_, _>| {
        if branches.contains_key(&(c, d)) {
            return true;
        }
        if b.stopped() || net.spent() {
            return false;
        }
        let before = net.work;
        let out = match resumable(c, d) {
            Some((br, fixpoint)) => {
                net.resume(&br.log, br.work, fixpoint);
                net.finish(mode)
            }
            None => net.run(c, d, true, mode),
        };
        match Branch::take(net, out) {
            Some(mut br) => {
                br.work = net.work - before;
                branches.insert((c, d), br);
                true
            }
            None => false,
        }
    };
    'stages: for k in 2..=MAX_BRANCHES.min(n) {
        // Cells of k candidates, then units with k places for a value.
        let mut sources: Vec<Source> = order
            .iter()
            .filter(|&&c| b.count(c) as usize == k)
            .map(|&c| Source::Cell(c))
            .collect();
        for u in 0..b.shape().units() {
            for d in 0..n {
                if !b.unit_has_value(u, d) && b.places(u, d).count_ones() as usize == k {
                    sources.push(Source::Unit(u, d));
                }
            }
        }
        for source in sources {
            let list = branch_list(b, source);
            for &(c, d) in &list {
                let had = branches.contains_key(&(c, d));
                if !follow(&mut net, c, d, &mut branches) {
                    break 'stages;
                }
                if !had
                    && let Some(br) = branches.get(&(c, d))
                    && br.clash.is_some()
                {
                    let cost = br.complexity(&br.roots(None)) + 1;
                    found.push((
                        cost,
                        Conclusion::Remove(c, d),
                        Source::Cell(c),
                        Some((c, d)),
                    ));
                }
            }
            let outs: Vec<&Branch> = list.iter().filter_map(|x| branches.get(x)).collect();
            for (k, cost) in forced(b, n, &outs) {
                found.push((cost, k, source, None));
            }
            // Nested nets are dear: the first source that proves
            // anything is enough. (SE takes the lowest-rated over all;
            // with ours that rated the forum-hardest lower than SE does,
            // 56 of 305 below 11.0 instead of 17: README, Grading.)
            if matches!(mode, Mode::Nested(_)) && !found.is_empty() {
                break 'stages;
            }
        }
        if !found.is_empty() {
            break;
        }
    }
    // The cheapest origin of each conclusion.
    found.sort_by_key(|x| x.0);
    let mut seen = HashSet::new();
    found.retain(|x| seen.insert(x.1));
    found.truncate(MAX_STEPS);
    let steps = found
        .into_iter()
        .map(|(cost, k, source, contra)| match contra {
            Some((c, d)) => contradiction_step(b, t, c, d, &branches[&(c, d)], cost),
            None => {
                let list = branch_list(b, source);
                let outs: Vec<&Branch> = list.iter().filter_map(|x| branches.get(x)).collect();
                forced_step(b, t, source, &list, &outs, k, cost)
            }
        })
        .collect();
    if let Some(slot) = mode.kept_slot()
        && !b.stopped()
        && branches.values().map(|br| br.log.len()).sum::<usize>() <= MAX_KEPT_NODES
    {
        EARLIER.with(|e| e.borrow_mut()[slot] = Some((key, Rc::new(branches))));
    }
    steps
}

/// Most nodes the branches kept for the next level may hold (a 9×9
/// search's hold a few tens of thousands), so that a thread keeps a few
/// megabytes at most.
const MAX_KEPT_NODES: usize = 1 << 18;

/// A search's branches by assumption, and the position's key.
type Earlier = Option<(Vec<u64>, Rc<HashMap<(usize, usize), Branch>>)>;

thread_local! {
    /// This thread's last dynamic and dynamic (+) searches' branches. A
    /// walk asks the next level at the same position when one finds
    /// nothing (the rating walk asks dynamic, then (+), then nested), and
    /// each level's branches begin as the level below ended them
    /// ([`Net::resume`]).
    static EARLIER: RefCell<[Earlier; 2]> = const { RefCell::new([None, None]) };
}

fn branch_list(b: &Board, s: Source) -> Vec<(usize, usize)> {
    match s {
        Source::Cell(c) => b.digits(c).map(|d| (c, d)).collect(),
        Source::Unit(u, d) => b.cells_with(u, d).into_iter().map(|c| (c, d)).collect(),
    }
}

/// The node of candidate `k` in a branch's list of them.
fn node_of(list: &[(u32, u32)], k: usize) -> Option<u32> {
    list.binary_search_by_key(&(k as u32), |x| x.0)
        .ok()
        .map(|i| list[i].1)
}

/// The node of `br` that reaches conclusion `k`.
fn reached(br: &Branch, n: usize, k: Conclusion) -> Option<u32> {
    match k {
        Conclusion::Place(c, d) => node_of(&br.on, c * n + d),
        Conclusion::Remove(c, d) => node_of(&br.off, c * n + d),
    }
}

/// The conclusions every live branch reaches (a branch ending in a
/// contradiction reaches everything), with their node count over all
/// branches. Nothing when a branch is missing or fewer than two live.
fn forced(b: &Board, n: usize, outs: &[&Branch]) -> Vec<(Conclusion, usize)> {
    let live: Vec<&Branch> = outs.iter().copied().filter(|o| o.clash.is_none()).collect();
    let Some((first, rest)) = live.split_first().filter(|_| live.len() >= 2) else {
        return Vec::new();
    };
    let common = |k: Conclusion| rest.iter().all(|o| reached(o, n, k).is_some());
    let places: Vec<(usize, usize)> = first
        .log
        .iter()
        .filter(|x| x.on && b.value(x.c()).is_none() && b.count(x.c()) > 1)
        .map(|x| (x.c(), x.d()))
        .filter(|&(c, d)| common(Conclusion::Place(c, d)))
        .collect();
    let mut out = Vec::new();
    for node in first.log.iter() {
        let k = if node.on {
            if !places.contains(&(node.c(), node.d())) {
                continue;
            }
            Conclusion::Place(node.c(), node.d())
        } else {
            let (c, d) = (node.c(), node.d());
            // A removal explained by a common placement is left out.
            if places
                .iter()
                .any(|&(pc, pd)| pc == c || (pd == d && b.sees(pc, c)))
                || !common(Conclusion::Remove(c, d))
            {
                continue;
            }
            Conclusion::Remove(c, d)
        };
        let cost = outs
            .iter()
            .map(|o| match reached(o, n, k) {
                Some(at) if o.clash.is_none() => o.complexity(&[at]),
                _ => o.complexity(&o.roots(None)),
            })
            .sum();
        out.push((k, cost));
    }
    out
}

fn value(d: usize) -> Value {
    Value::from_index(d)
}

/// "r1c1=5" or "r1c1<>5".
fn node_words(b: &Board, node: &Node) -> String {
    let op = if node.on { "=" } else { "<>" };
    let why = match node.why {
        Why::Assumed | Why::Seen => String::new(),
        Why::NakedSingle => " (naked single)".to_string(),
        Why::HiddenSingle(u) => format!(" (hidden single in {})", b.unit_name(u as usize)),
        Why::Locked(u, _) => format!(" (locked in {})", b.unit_name(u as usize)),
        Why::Pair(u) => format!(" (pair in {})", b.unit_name(u as usize)),
        Why::XWing(l1, l2) => format!(
            " (X-Wing in {}, {})",
            b.unit_name(l1 as usize),
            b.unit_name(l2 as usize)
        ),
        Why::Nested(k) => format!(
            " ({}={} leads to a contradiction, {k} nodes)",
            b.cell_name(node.c()),
            b.symbol(node.d())
        ),
        Why::NestedNet(source, k) => {
            let from = match Source::from(source) {
                Source::Cell(c) => format!("every candidate of {}", b.cell_name(c)),
                Source::Unit(u, d) => {
                    format!("every place of {} in {}", b.symbol(d), b.unit_name(u))
                }
            };
            format!(" ({from} removes it, {k} nodes)")
        }
    };
    format!("{}{op}{}{why}", b.cell_name(node.c()), b.symbol(node.d()))
}

fn clash_words(b: &Board, x: Clash) -> String {
    match x {
        Clash::Both(c, d) => format!("{} would be {} and not", b.cell_name(c), b.symbol(d)),
        Clash::EmptyCell(c) => format!("{} has no candidate left", b.cell_name(c)),
        Clash::NoPlace(u, d) => format!("{} has no place left for {}", b.unit_name(u), b.symbol(d)),
    }
}

/// The deciding path of `br` in words, the middle elided past [`SHOWN`].
fn path_words(b: &Board, br: &Branch, path: &[u32]) -> String {
    let words: Vec<String> = path
        .iter()
        .map(|&i| node_words(b, &br.log[i as usize]))
        .collect();
    if words.len() <= SHOWN {
        return words.join(" -> ");
    }
    let head = SHOWN / 2;
    format!(
        "{} -> … ({} more) -> {}",
        words[..head].join(" -> "),
        words.len() - SHOWN,
        words[words.len() - (SHOWN - head)..].join(" -> ")
    )
}

/// Links and roles of a path.
fn mark(h: &mut Highlights, br: &Branch, path: &[u32]) {
    for w in path.windows(2) {
        let (x, y) = (&br.log[w[0] as usize], &br.log[w[1] as usize]);
        h.links.push(Link {
            from: (x.c(), value(x.d())),
            to: (y.c(), value(y.d())),
            strong: y.on,
        });
    }
    for &i in path {
        let x = &br.log[i as usize];
        let role = if x.on {
            CandidateRole::ChainOn
        } else {
            CandidateRole::ChainOff
        };
        h.add_role(x.c(), value(x.d()), role);
    }
}

fn contradiction_step(
    b: &Board,
    t: Technique,
    c: usize,
    d: usize,
    br: &Branch,
    cost: usize,
) -> Step {
    let roots = br.roots(None);
    let path = br.path(&roots);
    let mut h = Highlights {
        cells: vec![c],
        candidates: vec![(c, value(d))],
        ..Highlights::default()
    };
    mark(&mut h, br, &path);
    // A candidate both true and false: the path to the other of the two
    // too, from where it leaves the first (its first node already told).
    let other = roots
        .iter()
        .filter(|&&r| !path.contains(&r))
        .max()
        .map(|&r| br.path(&[r]))
        .and_then(|q| {
            let split = q.iter().position(|i| !path.contains(i))?;
            Some(q[split.saturating_sub(1)..].to_vec())
        });
    let also = match &other {
        Some(q) => {
            mark(&mut h, br, q);
            format!(", and {}", path_words(b, br, q))
        }
        None => String::new(),
    };
    let x = br.clash.as_ref().map_or(Clash::Both(c, d), |x| x.0);
    Step {
        technique: t,
        placements: Vec::new(),
        eliminations: vec![(c, value(d))],
        highlights: h,
        explanation: format!(
            "{} ({cost} nodes): if {} is {}: {}{also}, and then {}, a contradiction; so {} is not {}",
            t.name(),
            b.cell_name(c),
            b.symbol(d),
            path_words(b, br, &path),
            clash_words(b, x),
            b.cell_name(c),
            b.symbol(d)
        ),
    }
}

fn forced_step(
    b: &Board,
    t: Technique,
    source: Source,
    list: &[(usize, usize)],
    outs: &[&Branch],
    k: Conclusion,
    cost: usize,
) -> Step {
    let n = b.n();
    let mut h = Highlights::default();
    let mut parts = Vec::new();
    for (&(c, d), br) in list.iter().zip(outs) {
        let at = reached(br, n, k).filter(|_| br.clash.is_none());
        let path = br.path(&br.roots(at));
        mark(&mut h, br, &path);
        let mut words = format!(
            "if {} is {}: {}",
            b.cell_name(c),
            b.symbol(d),
            path_words(b, br, &path)
        );
        if at.is_none() {
            let x = br.clash.as_ref().map_or(Clash::Both(c, d), |x| x.0);
            words.push_str(&format!(", and then {} (impossible)", clash_words(b, x)));
        }
        parts.push(words);
    }
    let (placements, eliminations, result, target) = match k {
        Conclusion::Place(x, v) => (
            vec![(x, value(v))],
            b.digits(x)
                .filter(|&e| e != v)
                .map(|e| (x, value(e)))
                .collect(),
            format!("{} is {}", b.cell_name(x), b.symbol(v)),
            x,
        ),
        Conclusion::Remove(x, e) => (
            Vec::new(),
            vec![(x, value(e))],
            format!("{} is not {}", b.cell_name(x), b.symbol(e)),
            x,
        ),
    };
    let (mut cells, units, intro) = match source {
        Source::Cell(c) => (
            vec![c],
            Vec::new(),
            format!("every candidate of {}", b.cell_name(c)),
        ),
        Source::Unit(u, d) => (
            list.iter().map(|&(c, _)| c).collect(),
            vec![u],
            format!("every place of {} in {}", b.symbol(d), b.unit_name(u)),
        ),
    };
    if !cells.contains(&target) {
        cells.push(target);
    }
    Step {
        technique: t,
        placements,
        eliminations,
        highlights: Highlights {
            cells,
            candidates: list.iter().map(|&(c, d)| (c, value(d))).collect(),
            units,
            ..h
        },
        explanation: format!(
            "{} ({cost} nodes): {intro} leads to the same result — {}; so {result}",
            t.name(),
            parts.join("; ")
        ),
    }
}

/// The node count a net step states in its explanation ("(N nodes)"), for
/// the rating.
pub(crate) fn nodes_of(step: &Step) -> Option<usize> {
    let rest = step.explanation.strip_prefix(step.technique.name())?;
    let rest = rest.strip_prefix(" (")?;
    let end = rest.find(" nodes)")?;
    rest[..end].parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::format::parse_one;
    use crate::engine::{Limits, NoTrace, Outcome, Shape, solve};

    /// Steps of `t` on `text`'s start position (after the singles), each
    /// checked against the solution; their explanations.
    fn sound_steps(text: &str, t: Technique) -> Vec<String> {
        let p = parse_one(text, "nets").unwrap();
        let Outcome::Solved(sol) = solve(&p, &Limits::none(), &mut NoTrace) else {
            panic!("unique")
        };
        let b = Board::from_puzzle(&p).unwrap();
        let steps = nets(&b, t);
        for s in &steps {
            assert_eq!(s.technique, t);
            assert!(s.is_productive(), "{}", s.explanation);
            for &(c, v) in &s.placements {
                assert_eq!(sol.get(c), v, "{}", s.explanation);
            }
            for &(c, v) in &s.eliminations {
                assert_ne!(sol.get(c), v, "{}", s.explanation);
            }
            assert!(nodes_of(s).is_some(), "{}", s.explanation);
        }
        steps.into_iter().map(|s| s.explanation).collect()
    }

    /// Two threads asking for the same position's nets at once: one
    /// searches, the other waits for its answer (the same as a search of
    /// its own), and the answer is then kept for the next ask.
    #[test]
    fn a_position_asked_on_two_threads_at_once_is_searched_once() {
        // A generated extreme puzzle (SE 8.9).
        let text =
            ".3.......9...4.....6....958........47..3.91.26...1..7.....958...7916....4....7...";
        let p = parse_one(text, "nets").unwrap();
        let Outcome::Solved(sol) = solve(&p, &Limits::none(), &mut NoTrace) else {
            panic!("unique")
        };
        let mut b = Board::from_puzzle(&p).unwrap();
        // A position no other test asks for: one false candidate gone.
        let c = (0..81).find(|&c| b.count(c) >= 3).unwrap();
        let wrong = b.digits(c).find(|&d| sol.get(c).index() != d).unwrap();
        b.remove(c, wrong);
        let t = Technique::DynamicForcingChain;
        let key = (t, b.position_key());
        let text = |steps: &[Step]| -> Vec<String> {
            steps.iter().map(|s| s.explanation.clone()).collect()
        };
        let (one, two) = std::thread::scope(|s| {
            let one = s.spawn(|| nets(&b, t));
            let two = s.spawn(|| nets(&b, t));
            (one.join().unwrap(), two.join().unwrap())
        });
        let kept = SHARED.holds(&key);
        let searched = SEARCHED
            .lock()
            .unwrap()
            .iter()
            .filter(|&k| *k == key)
            .count();
        assert_eq!(searched, 1);
        assert!(kept);
        let fresh = nets_in(&b, t, Mode::of(t).unwrap(), b.position_key());
        assert!(!fresh.is_empty());
        assert_eq!(text(&one), text(&fresh));
        assert_eq!(text(&two), text(&fresh));
    }

    /// A search that ends without settling its claim (a panic) leaves no
    /// thread waiting for it.
    #[test]
    fn a_claim_dropped_unsettled_is_no_longer_searched() {
        let p = parse_one(HARDEST[0], "nets").unwrap();
        let b = Board::from_puzzle(&p).unwrap();
        // A key no position has.
        let key = (Technique::NestedForcingChain(5), vec![u64::MAX; 3]);
        let busy = || SHARED.is_busy(&key);
        let claim = SHARED.claim(key.clone(), &b).unwrap_err();
        assert!(busy());
        drop(claim);
        assert!(!busy());
        assert!(!SHARED.holds(&key));
        SHARED.claim(key.clone(), &b).unwrap_err().settle(None);
        assert!(!busy());
    }

    /// Forum hardest (SE 11+) puzzles: nothing short of the nets opens
    /// them, and every level finds sound steps.
    const HARDEST: [&str; 2] = super::super::tests::FORUM_HARDEST;

    #[test]
    fn every_level_is_sound_on_the_hardest() {
        for text in HARDEST {
            for t in [
                Technique::DynamicForcingChain,
                Technique::DynamicForcingChainPlus,
                Technique::NestedForcingChain(2),
                Technique::NestedForcingChain(3),
                Technique::NestedForcingChain(4),
                Technique::NestedForcingChain(5),
            ] {
                sound_steps(text, t);
            }
            // The first nested level that finds anything (level 2's plain
            // chains may not) uses inner chains or nets.
            let nested = (2..=5)
                .map(|k| sound_steps(text, Technique::NestedForcingChain(k)))
                .find(|x| !x.is_empty())
                .unwrap_or_default();
            assert!(!nested.is_empty(), "{text}");
            assert!(
                nested
                    .iter()
                    .any(|e| e.contains("leads to a contradiction") || e.contains("removes it")),
                "{nested:?}"
            );
        }
    }

    /// From each position an assumption on `b` leaves (followed with the
    /// (+) rules), the graph of links searched (`whole` as level 3 does)
    /// and `f` called for every open candidate with the graph's answers,
    /// an inner net loaded with the position, and the candidate.
    fn each_inner_chain(
        b: &Board,
        whole: bool,
        mut f: impl FnMut(&suspects::Suspects, &mut Net, usize, usize),
    ) {
        let mut net = Net::of_board(b, usize::MAX);
        let mut found = suspects::Suspects::default();
        for c in (0..b.shape().cells()).filter(|&c| b.count(c) >= 2) {
            for d in b.digits(c) {
                if net.run(c, d, true, Mode::Plus).is_err() {
                    continue;
                }
                let mut inner = Net::new(b, net.mask.clone(), net.value.clone(), usize::MAX);
                found.find(&inner, whole);
                for x in 0..b.shape().cells() {
                    if net.value[x] != NONE || net.mask[x].count_ones() < 2 {
                        continue;
                    }
                    for e in bits(net.mask[x]) {
                        f(&found, &mut inner, x, e);
                    }
                }
            }
        }
    }

    #[test]
    fn every_plain_chain_that_ends_in_a_contradiction_is_a_suspect() {
        // From the positions that assumptions on the hardest puzzles
        // leave, each open candidate's plain chain is followed: those
        // that end in a contradiction are all among the suspects, and the
        // suspects are few.
        let (mut clashes, mut suspects, mut tried) = (0, 0, 0);
        for text in HARDEST {
            let b = Board::from_puzzle(&parse_one(text, "nets").unwrap()).unwrap();
            let n = b.n();
            each_inner_chain(&b, false, |found, inner, x, e| {
                tried += 1;
                suspects += usize::from(found.may[x * n + e]);
                if inner.run(x, e, true, Mode::Chains).is_err() {
                    clashes += 1;
                    let at = format!("{text}: r{}c{} {e}", x / 9 + 1, x % 9 + 1);
                    assert!(found.may[x * n + e], "{at}");
                }
            });
        }
        assert!(clashes > 0, "{clashes}");
        assert!(suspects < tried / 10, "{suspects} of {tried}");
        println!("{tried} chains, {suspects} suspects, {clashes} contradictions");
    }

    #[test]
    fn the_graph_answers_every_static_chain_exactly() {
        // From the positions that assumptions leave (on the hardest
        // puzzles, and on generated ones with rectangular boxes), each
        // open candidate's static chain is followed: it ends in a
        // contradiction exactly when the graph says so, and else removes
        // exactly what the graph says.
        let mut boards: Vec<Board> = HARDEST
            .iter()
            .map(|text| Board::from_puzzle(&parse_one(text, "nets").unwrap()).unwrap())
            .collect();
        for (rows, cols) in [(2, 3), (2, 4), (3, 4)] {
            let shape = Shape::new(rows, cols).unwrap();
            boards.push(crate::engine::logic::tests::expert_board(shape, 7).0);
        }
        let (mut clashes, mut tried) = (0, 0);
        for b in &boards {
            let n = b.n();
            each_inner_chain(b, true, |found, inner, x, e| {
                tried += 1;
                let clash = inner.run(x, e, true, Mode::Static).is_err();
                let at = format!("{n}×{n}: {x} {e}");
                assert_eq!(found.may[x * n + e], clash, "{at}");
                if clash {
                    clashes += 1;
                    return;
                }
                assert_eq!(found.offs(x, e, n), inner.removed(), "{at}");
            });
        }
        assert!(clashes > 0 && clashes < tried, "{clashes} of {tried}");
        println!("{tried} chains, {clashes} contradictions");
    }

    #[test]
    fn contradiction_cell_and_unit_nets_on_generated_puzzles() {
        // With singles and the nets alone, expert puzzles get stuck and
        // the dynamic chains take over; no step removes a solution value.
        let fired = crate::engine::logic::tests::sound_along_paths(
            Shape::CLASSIC,
            1..=3,
            &[
                Technique::DynamicForcingChain,
                Technique::DynamicForcingChainPlus,
            ],
        );
        assert!(fired[0] > 0 && fired[1] > 0, "{fired:?}");
        let fired = crate::engine::logic::tests::sound_along_paths(
            Shape::new(2, 4).unwrap(),
            1..=3,
            &[Technique::DynamicForcingChain],
        );
        assert!(fired[0] > 0, "{fired:?}");
    }

    #[test]
    fn kinds_and_explanations() {
        // Along the paths of generated expert puzzles, taking each net
        // step found (else the solver's next step), every kind shows.
        let mut kinds = [false; 3];
        for seed in 1..=4 {
            let (mut b, sol) = crate::engine::logic::tests::expert_board(Shape::CLASSIC, seed);
            for _ in 0..100 {
                let t = Technique::DynamicForcingChain;
                let steps = super::super::find_all(&b, t);
                for s in &steps {
                    let e = &s.explanation;
                    assert!(e.starts_with(t.name()), "{e}");
                    assert!(e.contains(" => "), "{e}");
                    for &(c, v) in &s.eliminations {
                        assert_ne!(sol.get(c), v, "{e}");
                    }
                    kinds[0] |= e.contains("a contradiction; so");
                    kinds[1] |= e.contains("every candidate of");
                    kinds[2] |= e.contains("every place of");
                }
                let next = steps
                    .into_iter()
                    .next()
                    .or_else(|| super::super::next_step(&b));
                let Some(s) = next else { break };
                b.apply(&s);
            }
        }
        assert_eq!(kinds, [true; 3]);
    }

    /// Sudoku Explainer also assumes candidates false ("binary" chains: a
    /// contradiction places the candidate; what both its truth and its
    /// falsehood imply holds). Under the dynamic rules that adds nothing:
    /// the falsehood of a candidate with another candidate in a bivalue
    /// cell, or another place in a unit with two, reaches exactly what that
    /// other one's truth reaches (each implies the other in one step), so
    /// a contradiction there is one the nets find from that truth, and
    /// "true or false" is the unit's or cell's net; any other candidate's
    /// falsehood implies nothing (but for a hidden single's, a
    /// contradiction at once). Checked here along the paths of the
    /// hardest, every candidate of every fifth position.
    #[test]
    fn a_candidate_assumed_false_reaches_what_a_truth_does() {
        let (mut compared, mut inert) = (0, 0);
        for text in HARDEST {
            super::super::tests::along_path(text, |b, at| {
                if at % 5 != 0 {
                    return;
                }
                let mut net = Net::of_board(b, usize::MAX);
                let mut branch = |c: usize, d: usize, on: bool| {
                    let out = net.run(c, d, on, Mode::Dynamic);
                    Branch::take(&mut net, out).unwrap()
                };
                let cells = b.shape().cells();
                for c in (0..cells).filter(|&c| b.count(c) >= 2) {
                    for d in b.digits(c) {
                        let mut partners: Vec<(usize, usize)> = Vec::new();
                        if b.count(c) == 2 {
                            partners.extend(b.digits(c).filter(|&e| e != d).map(|e| (c, e)));
                        }
                        let mut single = false;
                        for (u, _) in b.positions(c) {
                            let places = b.cells_with(u, d);
                            single |= places.len() == 1;
                            if places.len() == 2 {
                                partners
                                    .extend(places.into_iter().filter(|&x| x != c).map(|x| (x, d)));
                            }
                        }
                        let off = branch(c, d, false);
                        if single {
                            // A hidden single: its falsehood empties the unit.
                            assert!(off.clash.is_some(), "{text} r{c}");
                            continue;
                        }
                        if partners.is_empty() {
                            assert!(off.clash.is_none() && off.log.len() == 1, "{text} r{c}");
                            inert += 1;
                        }
                        let keys = |x: &[(u32, u32)]| x.iter().map(|y| y.0).collect::<Vec<_>>();
                        for (x, e) in partners {
                            let on = branch(x, e, true);
                            assert_eq!(off.clash.is_some(), on.clash.is_some(), "{text}");
                            if off.clash.is_none() {
                                assert_eq!(keys(&off.on), keys(&on.on), "{text}");
                                assert_eq!(keys(&off.off), keys(&on.off), "{text}");
                            }
                            compared += 1;
                        }
                    }
                }
            });
        }
        println!("{compared} falsehoods compared with a truth, {inert} that imply nothing");
        assert!(compared > 1000 && inert > 100, "{compared} {inert}");
    }

    #[test]
    fn a_branch_resumed_from_the_level_below_is_the_branch_followed_afresh() {
        // The first position of a forum-hardest path that needs a net.
        let p = parse_one(HARDEST[1], "nets").unwrap();
        let mut b = Board::from_puzzle(&p).unwrap();
        loop {
            let step = super::super::next_step(&b).unwrap();
            if Mode::of(step.technique).is_some() {
                break;
            }
            b.apply(&step);
        }
        let mut fresh = Net::of_board(&b, usize::MAX);
        let mut resumed = Net::of_board(&b, usize::MAX);
        let (mut compared, mut grew) = (0, 0);
        let cells = b.shape().cells();
        for c in (0..cells).filter(|&c| b.count(c) >= 2) {
            for d in b.digits(c) {
                for (below, mode, fixpoint) in [
                    (Mode::Dynamic, Mode::Plus, false),
                    (Mode::Plus, Mode::Nested(2), true),
                    (Mode::Dynamic, Mode::Nested(3), false),
                ] {
                    fresh.work = 0;
                    let out = fresh.run(c, d, true, below);
                    let low = Branch::take(&mut fresh, out).unwrap();
                    if low.clash.is_some() {
                        continue;
                    }
                    let low_work = fresh.work;
                    fresh.work = 0;
                    let out = fresh.run(c, d, true, mode);
                    let high = Branch::take(&mut fresh, out).unwrap();
                    resumed.work = 0;
                    resumed.resume(&low.log, low_work, fixpoint);
                    let out = resumed.finish(mode);
                    let again = Branch::take(&mut resumed, out).unwrap();
                    assert_eq!(high.log, again.log, "r{c} {d} {mode:?}");
                    assert_eq!(high.clash, again.clash, "r{c} {d} {mode:?}");
                    assert_eq!(fresh.work, resumed.work, "r{c} {d} {mode:?}");
                    compared += 1;
                    grew += usize::from(high.log.len() > low.log.len());
                }
            }
        }
        println!("{compared} branches resumed, {grew} of them longer than below");
        assert!(compared > 100 && grew > 20, "{compared} {grew}");
    }

    #[test]
    fn nothing_on_an_empty_or_solved_board() {
        let b = Board::from_values(Shape::new(2, 2).unwrap(), &[None; 16]).unwrap();
        for t in [
            Technique::DynamicForcingChain,
            Technique::NestedForcingChain(4),
        ] {
            assert!(nets(&b, t).is_empty());
        }
        assert!(nets(&b, Technique::ForcingChain).is_empty());
    }
}
