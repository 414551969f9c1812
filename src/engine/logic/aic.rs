//! Alternating inference chains over any candidates, and nice loops
//! (continuous and discontinuous), plain and grouped, on boards larger
//! than 9×9.
//!
//! Why a second search beside [`super::tables`]: the tables follow HoDoKu
//! step for step (so its regression library matches), but they hold one
//! table per premise and grow with the number of candidates, too large
//! beyond 9×9. This search walks a graph of links with a work budget
//! ([`MAX_WORK_BIG`]), so it costs a bounded amount on any board, at the
//! price of the chains the budget does not reach. [`super::nice_loops`]
//! picks between the two and holds what they share: the nodes
//! ([`ChainNodes`]), group nodes, ALSs (from [`super::als`]), names and
//! explanations.
//!
//! Everything here walks one implication graph. A node says "digit d sits
//! in one of these cells": a single candidate, or (grouped) a group node —
//! two or more cells of one digit in one line∩box intersection. A strong
//! link (at least one of two nodes is true: a bivalue cell, or a unit whose
//! places of d are exactly the two nodes) lets "false" imply "true"; a weak
//! link (at most one is true: two digits of one cell, or one digit in nodes
//! that share a unit) lets "true" imply "false". The search is breadth first
//! over (node, true/false) states from each start, with a length cap, so each
//! elimination set is reported once, with the shortest chain that proves it:
//!
//! - AIC: start false ⇒ … ⇒ end true, so one end is true; every candidate
//!   both ends rule out goes (same digit: the cells seeing both ends; two
//!   digits in cells that see each other: each end's digit in the other).
//!   An AIC with only one elimination is the discontinuous nice loop
//!   through that candidate, and is reported as that (HoDoKu's convention).
//!
//! No chain or loop enters again a cell it has left (a lasso; HoDoKu's rule,
//! see `is_lasso`). The breadth-first search keeps one shortest chain per
//! state; when an AIC's or a placing loop's chain is a lasso, a short
//! depth-first search looks for a simple one (`Ctx::simple_chain`). A
//! continuous loop seen as a lasso from one start is found from another; an
//! eliminating discontinuous loop whose every shortest chain is a lasso is
//! left to later techniques.
//! - Discontinuous nice loop: assuming a candidate true leads to it being
//!   false (it goes), or assuming it false leads to it being true (it is
//!   placed; reported as the removal of the cell's other candidates).
//! - Continuous nice loop: an AIC whose ends are weakly linked closes a
//!   loop in which exactly one node of every link is true; each weak link
//!   then acts as a strong one, and the candidates both its nodes rule out
//!   go. An ALS on the loop lacks exactly one of the two digits it links
//!   by, so its other digits are locked in it and go from every cell that
//!   sees all of the ALS's cells holding them.
//!
//! ALS nodes (the grouped techniques with [`ChainNodes::GroupsAndAls`]): an ALS
//! holds one of any two of its digits, a strong link between its parts.
//! It can also force a cell outside it (HoDoKu's "forced exits"): without
//! digit x the set is locked, so a cell that sees every holder of all but
//! one of its candidates m is m; "x in the set or m in that cell" is a
//! strong link. On a continuous loop such a link locks only the set's
//! digits other than x and the cell's other candidates.
//!
//! The grouped techniques report only chains that use a group node or ALS.
//! Shape-agnostic; the work per call is capped by [`MAX_WORK`] (and
//! [`MAX_WORK_BIG`] beyond 9×9).

use foldhash::{HashMap, HashMapExt};
use smallvec::{SmallVec, smallvec};
use std::rc::Rc;

use crate::engine::grid::Value;

use super::als::{self, AlsSize};
use super::chains::Found;
use super::nice_loops::{self, ChainNodes, LoopEnds, chain_step};
use super::{Board, CandidateRole, Link, Step, Technique};

/// The longest plain chain or loop searched, in links.
pub const MAX_LINKS: usize = 20;

/// The longest grouped chain or loop searched, in links.
pub const MAX_GROUPED_LINKS: usize = 16;

/// The most links followed in one call on boards up to 9×9 (over all
/// starts and passes); beyond it the search stops with what it has found.
/// Above what a 9×9 position needs (a few ms at most).
pub const MAX_WORK: usize = 1_000_000;

/// The budget of [`MAX_WORK`] on boards larger than 9×9, where the chains
/// are searched only as far as this goes (about a millisecond per pass).
pub const MAX_WORK_BIG: usize = 300_000;

/// The largest ALS used as a chain node on boards larger than 9×9, in
/// cells (up to 9×9 every size is; see [`AlsSize`]). Below the ALS
/// techniques' [`als::MAX_ALS_CELLS_LARGE`]: each set adds nodes and links
/// to the graph that the search walks within [`MAX_WORK_BIG`], and with 4
/// the budget reaches other chains on 12×12 and 16×16 positions.
pub const MAX_NODE_ALS_CELLS_LARGE: usize = 3;

const NONE: u32 = u32::MAX;

/// "Digit `digit` sits in one of `cells`": one candidate, or a group node.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Node {
    digit: usize,
    /// Sorted.
    cells: SmallVec<[usize; 2]>,
    /// The units holding every cell of the node.
    units: SmallVec<[usize; 3]>,
}

impl Node {
    fn candidate(b: &Board, c: usize, d: usize) -> Node {
        Node {
            digit: d,
            cells: smallvec![c],
            units: SmallVec::from_slice(&b.units_of(c)),
        }
    }

    fn is_candidate(&self) -> bool {
        self.cells.len() == 1
    }

    fn disjoint(&self, o: &Node) -> bool {
        self.cells.iter().all(|c| !o.cells.contains(c))
    }

    /// At most one of the two is true.
    fn weak_with(&self, o: &Node) -> bool {
        if self.digit == o.digit {
            self.disjoint(o) && self.units.iter().any(|u| o.units.contains(u))
        } else {
            self.is_candidate() && o.is_candidate() && self.cells[0] == o.cells[0]
        }
    }
}

/// A node's strong links (most nodes have one to three).
type Links = SmallVec<[u32; 3]>;

/// The nodes that have a strong link, their links, and one scratch slot
/// (the last node) for a start without strong links.
#[derive(Clone)]
struct Graph {
    nodes: Vec<Node>,
    /// Node holds more than one cell (a group).
    special: Vec<bool>,
    strong: Vec<Links>,
    /// For each strong link, the ALS that makes it, or [`NONE`].
    via: Vec<Links>,
    weak: Vec<Vec<u32>>,
    /// The almost locked sets (grouped search only).
    als: Vec<Vec<usize>>,
    /// `cell * n + d` → node of that candidate, or [`NONE`].
    cand_id: Vec<u32>,
    /// `unit * n + d` → nodes of digit d inside the unit.
    by_unit: Vec<Vec<u32>>,
    /// Candidates only (no group or ALS node, so no state is "used").
    plain: bool,
}

/// The group nodes of the position, box by box, then digit by digit, then
/// line by line (rows first).
fn group_nodes(b: &Board) -> Vec<Node> {
    let mut groups = nice_loops::group_nodes(b);
    groups.sort_unstable_by_key(|g| (g.boxu, g.digit, g.line));
    groups
        .into_iter()
        .map(|g| Node {
            digit: g.digit,
            cells: SmallVec::from_vec(g.cells),
            units: smallvec![g.line, g.boxu],
        })
        .collect()
}

/// The almost locked sets used as chain nodes: two or more cells, each
/// with two or more candidates, not all bivalue (bivalue cells alone make
/// plain chains); of any size up to 9×9 and at most
/// [`MAX_NODE_ALS_CELLS_LARGE`] cells beyond. Sorted by their cells.
fn almost_locked_sets(b: &Board) -> Vec<Vec<usize>> {
    let size = AlsSize::capped(b.n(), 2, MAX_NODE_ALS_CELLS_LARGE);
    let mut out: Vec<Vec<usize>> = als::almost_locked_sets(b, size)
        .into_iter()
        .map(|set| set.cells)
        .filter(|cells| {
            cells.iter().all(|&c| b.count(c) >= 2) && cells.iter().any(|&c| b.count(c) > 2)
        })
        .collect();
    out.sort_unstable();
    out
}

/// The cells outside ALS `set` with three or more candidates that the set
/// can force, each with the set's digits it would lose whatever the set
/// lacks: those of its candidates whose every holder in the set it sees
/// (never none).
fn forced_cells(b: &Board, set: &[usize]) -> Vec<(usize, u64)> {
    let mut out: Vec<(usize, u64)> = Vec::new();
    for &c in set {
        for p in b.tables().peers(c) {
            if set.contains(&p) || b.count(p) < 3 || out.iter().any(|&(q, _)| q == p) {
                continue;
            }
            let seen = b
                .digits(p)
                .filter(|&z| {
                    set.iter().any(|&h| b.has(h, z))
                        && set.iter().all(|&h| !b.has(h, z) || b.sees(h, p))
                })
                .fold(0u64, |m, z| m | 1 << z);
            if seen != 0 {
                out.push((p, seen));
            }
        }
    }
    out
}

/// The units holding every one of `cells`.
fn units_holding(b: &Board, cells: &[usize]) -> Vec<usize> {
    let Some(&first) = cells.first() else {
        return Vec::new();
    };
    b.units_of(first)
        .into_iter()
        .filter(|&u| cells.iter().all(|&c| b.units_of(c).contains(&u)))
        .collect()
}

impl Graph {
    fn build(b: &Board, pass: Pass) -> Graph {
        let n = b.n();
        let cells = b.shape().cells();
        let groups = if pass == Pass::Plain {
            Vec::new()
        } else {
            group_nodes(b)
        };
        let mut groups_in: Vec<Vec<usize>> = vec![Vec::new(); 3 * n * n];
        for (i, g) in groups.iter().enumerate() {
            for &u in &g.units {
                groups_in[u * n + g.digit].push(i);
            }
        }
        let max_group = groups.iter().map(|g| g.cells.len()).max().unwrap_or(1);
        let cand = |c: usize, d: usize| Node::candidate(b, c, d);
        // Strong pairs, with the ALS that makes them (or NONE).
        let mut pairs: Vec<(Node, Node, u32)> = Vec::new();
        for c in 0..cells {
            if b.count(c) == 2 {
                let mut ds = b.digits(c);
                if let (Some(x), Some(y)) = (ds.next(), ds.next()) {
                    pairs.push((cand(c, x), cand(c, y), NONE));
                }
            }
        }
        // One buffer for the places of every unit and digit.
        let mut places: Vec<usize> = Vec::with_capacity(n);
        for u in 0..3 * n {
            for d in 0..n {
                let count = b.places(u, d).count_ones() as usize;
                if count < 2 || count > 2 * max_group {
                    continue;
                }
                places.clear();
                let unit = b.unit(u);
                places.extend(super::bits(b.places(u, d)).map(|j| unit[j] as usize));
                if places.len() == 2 {
                    pairs.push((cand(places[0], d), cand(places[1], d), NONE));
                }
                // A group and the rest, or two groups.
                let gs = &groups_in[u * n + d];
                for (i, &g) in gs.iter().enumerate() {
                    let rest: Vec<usize> = places
                        .iter()
                        .copied()
                        .filter(|c| !groups[g].cells.contains(c))
                        .collect();
                    if rest.len() == 1 {
                        pairs.push((groups[g].clone(), cand(rest[0], d), NONE));
                    }
                    for &h in &gs[i + 1..] {
                        if groups[h].cells[..] == rest[..] {
                            pairs.push((groups[g].clone(), groups[h].clone(), NONE));
                        }
                    }
                }
            }
        }
        let als = if pass == Pass::Als {
            almost_locked_sets(b)
        } else {
            Vec::new()
        };
        for (k, set) in als.iter().enumerate() {
            let mask = set.iter().fold(0u64, |m, &c| m | b.mask(c));
            let part = |d: usize| {
                let cs: SmallVec<[usize; 2]> =
                    set.iter().copied().filter(|&c| b.has(c, d)).collect();
                Node {
                    digit: d,
                    units: SmallVec::from_vec(units_holding(b, &cs)),
                    cells: cs,
                }
            };
            let ds: Vec<usize> = super::bits(mask).collect();
            for (i, &x) in ds.iter().enumerate() {
                for &y in &ds[i + 1..] {
                    pairs.push((part(x), part(y), k as u32));
                }
            }
            // Forced exits (HoDoKu's): without x the set is locked on its
            // other digits, so a cell outside it loses each of them whose
            // holders in the set it sees all of; when that leaves one
            // candidate m (of three or more: a bivalue cell is reached by
            // plain links), x is in the set or m in that cell.
            for (y, seen) in forced_cells(b, set) {
                for &x in &ds {
                    let left = b.mask(y) & !(seen & !(1u64 << x));
                    if left.count_ones() == 1 {
                        pairs.push((part(x), cand(y, left.trailing_zeros() as usize), k as u32));
                    }
                }
            }
        }
        let mut g = Graph {
            nodes: Vec::new(),
            special: Vec::new(),
            strong: Vec::new(),
            via: Vec::new(),
            weak: Vec::new(),
            cand_id: vec![NONE; cells * n],
            by_unit: vec![Vec::new(); 3 * n * n],
            als,
            plain: pass == Pass::Plain,
        };
        let mut multi: HashMap<(usize, SmallVec<[usize; 2]>), u32> = HashMap::new();
        let mut id_of = |g: &mut Graph, node: Node| -> u32 {
            let slot = if let [c] = node.cells[..] {
                &mut g.cand_id[c * n + node.digit]
            } else {
                multi
                    .entry((node.digit, node.cells.clone()))
                    .or_insert(NONE)
            };
            if *slot == NONE {
                *slot = g.nodes.len() as u32;
                g.special.push(pass == Pass::Groups && node.cells.len() > 1);
                g.nodes.push(node);
                g.strong.push(Links::new());
                g.via.push(Links::new());
            }
            *slot
        };
        // Plain links first, so a pair linked both ways keeps the plain one.
        for (x, y, k) in pairs {
            let (i, j) = (id_of(&mut g, x), id_of(&mut g, y));
            for (p, q) in [(i as usize, j), (j as usize, i)] {
                if !g.strong[p].contains(&q) {
                    g.strong[p].push(q);
                    g.via[p].push(k);
                }
            }
        }
        for (i, node) in g.nodes.iter().enumerate() {
            for &u in &node.units {
                g.by_unit[u * n + node.digit].push(i as u32);
            }
        }
        g.weak = (0..g.nodes.len())
            .map(|i| g.weak_of(b, &g.nodes[i]))
            .collect();
        // The scratch slot.
        g.nodes.push(Node::candidate(b, 0, 0));
        g.special.push(false);
        g.strong.push(Links::new());
        g.via.push(Links::new());
        g.weak.push(Vec::new());
        g
    }

    /// The ALS behind the strong link from `u` to `v`, if any.
    fn als_of(&self, u: usize, v: usize) -> Option<&[usize]> {
        let i = self.strong[u].iter().position(|&t| t as usize == v)?;
        let k = self.via[u][i];
        (k != NONE).then(|| &self.als[k as usize][..])
    }

    /// Index of the scratch slot (also the number of linked nodes).
    fn scratch(&self) -> usize {
        self.nodes.len() - 1
    }

    /// The linked nodes that `node` being true makes false.
    fn weak_of(&self, b: &Board, node: &Node) -> Vec<u32> {
        let n = b.n();
        let room = n + node
            .units
            .iter()
            .map(|&u| self.by_unit[u * n + node.digit].len())
            .sum::<usize>();
        let mut out: Vec<u32> = Vec::with_capacity(room);
        // Links inside the cell first (the search prefers them on ties).
        if node.is_candidate() {
            let c = node.cells[0];
            for z in b.digits(c) {
                let j = self.cand_id[c * n + z];
                if z != node.digit && j != NONE {
                    out.push(j);
                }
            }
        }
        // Then those through the node's units (of its digit, so none is a
        // link inside the cell), sorted, each once.
        let inside = out.len();
        for &u in &node.units {
            for &j in &self.by_unit[u * n + node.digit] {
                if self.nodes[j as usize].disjoint(node) {
                    out.push(j);
                }
            }
        }
        out[inside..].sort_unstable();
        out.dedup();
        out
    }

    /// Puts candidate (c, d) into the scratch slot (when it is not linked)
    /// and returns its node.
    fn start(&mut self, b: &Board, c: usize, d: usize) -> usize {
        let id = self.cand_id[c * b.n() + d];
        if id != NONE {
            return id as usize;
        }
        let s = self.scratch();
        let node = Node::candidate(b, c, d);
        self.weak[s] = self.weak_of(b, &node);
        self.nodes[s] = node;
        s
    }
}

/// The graphs built last, each with its pass and position
/// ([`Board::position_key`]):
/// the three plain techniques (and the three grouped ones) are asked one
/// after the other in a position, and build the same graphs there.
type Built = Vec<(Pass, Vec<u64>, Rc<Graph>)>;

/// How many graphs [`BUILT`] keeps: one per pass.
const KEPT_GRAPHS: usize = 3;

thread_local! {
    static BUILT: std::cell::RefCell<Built> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The graph of `pass` in `b`'s position: the one built last for them
/// (shared, not copied: a 16×16 graph is thousands of small lists, and
/// copying it for every chain technique in the same position was 2–3 %
/// of grading or generating 16×16 expert and extreme puzzles), or built
/// now (and kept unless the board's limits cut the building short).
fn graph_for(b: &Board, pass: Pass) -> Rc<Graph> {
    let key = b.position_key();
    let kept = BUILT.with(|k| {
        k.borrow()
            .iter()
            .find(|(p, kk, _)| *p == pass && *kk == key)
            .map(|x| Rc::clone(&x.2))
    });
    if let Some(g) = kept {
        return g;
    }
    let g = Rc::new(Graph::build(b, pass));
    if !b.stopped() {
        BUILT.with(|k| {
            let mut k = k.borrow_mut();
            if k.len() >= KEPT_GRAPHS {
                k.remove(0);
            }
            k.push((pass, key, Rc::clone(&g)));
        });
    }
    g
}

/// The breadth-first searches from each candidate node assumed false that
/// the continuous loops ran in a position, for the discontinuous loops,
/// which run the same search from the same nodes when asked next in the
/// same position (they come next in the solving order): kept with the
/// pass and position ([`Board::position_key`]), by node, one per pass.
struct FalseRuns {
    pass: Pass,
    key: Vec<u64>,
    runs: Vec<Option<FalseRun>>,
}

/// One search of [`FalseRuns`], kept only when it was not cut short by
/// the work budget: the most links it allowed, the links it followed, and
/// the first state it reached that the discontinuous loops look for (the
/// node true again, as the technique wants it), with the chain there.
#[derive(Clone)]
struct FalseRun {
    cap: usize,
    work: usize,
    end: Option<(u32, Vec<(usize, bool)>)>,
}

thread_local! {
    static FALSE_RUNS: std::cell::RefCell<Vec<FalseRuns>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Ctx {
    /// The state the discontinuous loops look for after a search from
    /// node `s` assumed false (`s` true again), with its chain.
    fn back_to_true(&self, s: usize) -> Option<(u32, Vec<(usize, bool)>)> {
        [false, true]
            .into_iter()
            .map(|used| state(s, true, used))
            .find(|&st| self.bfs.reached(st) && self.wanted(split(st).2))
            .map(|st| (st, self.chain(st)))
    }
}

/// Breadth-first search over states `node * 4 + truth * 2 + used` (used: a
/// group node is on the way), reused across starts.
struct Bfs {
    /// Per state, together (one memory access per state reached).
    marks: Vec<Mark>,
    stamp: u32,
    /// The states reached, in order of depth.
    order: Vec<u32>,
}

/// A state's search marks: the search that reached it last (its stamp),
/// and there the state it came from and its depth.
#[derive(Clone, Copy)]
struct Mark {
    seen: u32,
    parent: u32,
    depth: u8,
}

fn state(node: usize, truth: bool, used: bool) -> u32 {
    (node * 4 + usize::from(truth) * 2 + usize::from(used)) as u32
}

fn split(s: u32) -> (usize, bool, bool) {
    let s = s as usize;
    (s / 4, s & 2 != 0, s & 1 != 0)
}

impl Bfs {
    fn new(g: &Graph) -> Bfs {
        let states = g.nodes.len() * 4;
        Bfs {
            marks: vec![
                Mark {
                    seen: 0,
                    parent: NONE,
                    depth: 0,
                };
                states
            ],
            stamp: 0,
            order: Vec::new(),
        }
    }

    fn reached(&self, s: u32) -> bool {
        self.marks[s as usize].seen == self.stamp
    }

    /// The depth state `s` was reached at (when it was).
    fn depth(&self, s: u32) -> u8 {
        self.marks[s as usize].depth
    }

    /// Every state reachable from `source` within `max` links; adds the
    /// links followed to `work`.
    fn run(&mut self, g: &Graph, source: u32, max: usize, budget: usize, work: &mut usize) {
        self.stamp += 1;
        self.order.clear();
        // The states are expanded in the order they are reached, so the
        // list of states reached is the queue too.
        self.order.push(source);
        self.marks[source as usize] = Mark {
            seen: self.stamp,
            parent: NONE,
            depth: 0,
        };
        let mut next_up = 0;
        while let Some(&s) = self.order.get(next_up) {
            next_up += 1;
            let dep = self.marks[s as usize].depth;
            if usize::from(dep) >= max || *work > budget {
                continue;
            }
            let (u, truth, used) = split(s);
            let next: &[u32] = if truth { &g.weak[u] } else { &g.strong[u] };
            *work += next.len();
            if g.plain {
                // Nothing is ever used: the next state is the node's own.
                for &t in next {
                    self.visit(state(t as usize, !truth, false), s, dep + 1);
                }
                continue;
            }
            for (i, &t) in next.iter().enumerate() {
                let t = t as usize;
                let via_als = !truth && g.via[u].get(i).is_some_and(|&k| k != NONE);
                self.visit(
                    state(t, !truth, used || via_als || g.special[t]),
                    s,
                    dep + 1,
                );
            }
        }
    }

    /// Reaches state `ns` from `s` at depth `dep`, unless reached before.
    #[inline]
    fn visit(&mut self, ns: u32, s: u32, dep: u8) {
        let m = &mut self.marks[ns as usize];
        if m.seen != self.stamp {
            *m = Mark {
                seen: self.stamp,
                parent: s,
                depth: dep,
            };
            self.order.push(ns);
        }
    }

    /// The states from the source to `s`.
    fn path(&self, mut s: u32) -> Vec<u32> {
        let mut out = vec![s];
        while self.marks[s as usize].parent != NONE {
            s = self.marks[s as usize].parent;
            out.push(s);
        }
        out.reverse();
        out
    }
}

/// The nodes one search pass uses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Pass {
    /// Candidates only.
    Plain,
    /// Candidates and group nodes; a chain must use a group node.
    Groups,
    /// Candidates, group nodes and ALS links; a chain must use an ALS link.
    Als,
}

impl Pass {
    /// The searches behind a technique with these nodes. With ALSs the
    /// grouped search runs without them first, so that ALS shortcuts do not
    /// hide the chains made of groups alone.
    fn all(nodes: ChainNodes) -> &'static [Pass] {
        match nodes {
            ChainNodes::Candidates => &[Pass::Plain],
            ChainNodes::Groups => &[Pass::Groups],
            ChainNodes::GroupsAndAls => &[Pass::Groups, Pass::Als],
        }
    }
}

struct Ctx {
    pass: Pass,
    g: Rc<Graph>,
    bfs: Bfs,
    /// Distances to a target, for [`Ctx::simple_chain`] (made on its
    /// first use: most passes never need it).
    back: Option<Bfs>,
    grouped: bool,
    max: usize,
    /// Links followed so far in this call, and the most allowed.
    work: usize,
    budget: usize,
    found: Found,
    /// Only the first step found is wanted (see [`Ctx::depth_cap`]).
    first: bool,
}

impl Ctx {
    fn new(b: &Board, pass: Pass, found: Found, work: usize, first: bool) -> Ctx {
        let grouped = pass != Pass::Plain;
        let g = graph_for(b, pass);
        let bfs = Bfs::new(&g);
        Ctx {
            pass,
            g,
            bfs,
            back: None,
            grouped,
            max: if grouped {
                MAX_GROUPED_LINKS
            } else {
                MAX_LINKS
            },
            work,
            budget: if b.n() <= 9 { MAX_WORK } else { MAX_WORK_BIG },
            found,
            first,
        }
    }

    /// The node of candidate (c, d), put into the graph's scratch slot
    /// when it has no link (the graph is copied from the one shared with
    /// [`BUILT`] only then, and only once).
    fn start(&mut self, b: &Board, c: usize, d: usize) -> usize {
        let id = self.g.cand_id[c * b.n() + d];
        if id != NONE {
            return id as usize;
        }
        Rc::make_mut(&mut self.g).start(b, c, d)
    }

    /// The work budget is spent, or the board's limits say stop.
    fn exhausted(&self, b: &Board) -> bool {
        self.work > self.budget || b.stopped()
    }

    fn run(&mut self, source: u32) {
        let max = self.depth_cap();
        self.bfs
            .run(&self.g, source, max, self.budget, &mut self.work);
    }

    /// The most links a chain may have. When only the first step is wanted
    /// and one is known (a chain of `len` nodes), a later chain changes it
    /// only when it proves the same eliminations with fewer nodes, so
    /// states deeper than `len - 2` links need not be reached: the search
    /// gives the same first step as a full one (breadth first, it reaches
    /// the shallower states the same way), within the work budget.
    fn depth_cap(&self) -> usize {
        match self.found.first() {
            Some((len, _)) if self.first => self.max.min(len.saturating_sub(2)),
            _ => self.max,
        }
    }

    /// When only the first step is wanted: the cell of its eliminations,
    /// for the discontinuous loops (whose eliminations all lie in their
    /// start's cell, so only that cell's starts could prove them again).
    fn first_cell(&self) -> Option<usize> {
        let (_, step) = self.found.first().filter(|_| self.first)?;
        step.eliminations.first().map(|&(c, _)| c)
    }

    /// Whether a reached state may end a chain of this technique.
    fn wanted(&self, used: bool) -> bool {
        used == self.grouped
    }

    /// The chain to state `s`: nodes with their truth.
    fn chain(&self, s: u32) -> Vec<(usize, bool)> {
        self.bfs
            .path(s)
            .into_iter()
            .map(|s| {
                let (u, t, _) = split(s);
                (u, t)
            })
            .collect()
    }

    /// The chain to state `s`, or when that is a lasso the shortest one from
    /// the same start to the same node that is not (see
    /// [`Ctx::simple_chain`]). Without a search, `None` when the lasso's
    /// eliminations, `known`, already have a chain as short as it (a simple
    /// chain could only be longer).
    fn chain_or_simple(
        &mut self,
        s: u32,
        is_loop: bool,
        known: &[(usize, Value)],
    ) -> Option<Vec<(usize, bool)>> {
        let chain = self.chain(s);
        self.simple_if_lasso(chain, s, is_loop, known)
    }

    /// [`Ctx::chain_or_simple`] given the chain to state `s`.
    fn simple_if_lasso(
        &mut self,
        chain: Vec<(usize, bool)>,
        s: u32,
        is_loop: bool,
        known: &[(usize, Value)],
    ) -> Option<Vec<(usize, bool)>> {
        if !is_lasso(&self.g, &chain, is_loop) {
            return Some(chain);
        }
        if self.found.known(known, chain.len()) {
            return None;
        }
        let (u, truth, _) = split(s);
        self.simple_chain(chain[0], u, truth, is_loop)
    }

    /// The shortest chain from `start` to node `target` in state `truth`
    /// that is not a lasso (and, grouped, uses a group or ALS), within the
    /// link cap: an iterative deepening depth-first search that cuts every
    /// branch the unconstrained distance to the target says is too long.
    /// The breadth-first search keeps one shortest chain per state, and when
    /// that one is a lasso, this finds the chain HoDoKu would show instead.
    /// It spends at most [`MAX_SIMPLE_WORK`] links.
    fn simple_chain(
        &mut self,
        start: (usize, bool),
        target: usize,
        truth: bool,
        is_loop: bool,
    ) -> Option<Vec<(usize, bool)>> {
        // A state's distance to (target, truth) is the distance from
        // (target, !truth) to the state with its truth flipped, since every
        // link runs both ways.
        let mut work = 0;
        let back = self.back.get_or_insert_with(|| Bfs::new(&self.g));
        back.run(
            &self.g,
            state(target, !truth, false),
            self.max,
            MAX_SIMPLE_WORK,
            &mut work,
        );
        let search = Dfs {
            g: &self.g,
            back,
            start: start.0,
            target: (target, truth),
            is_loop,
            grouped: self.grouped,
        };
        let from = search.distance(start)?;
        let mut path = vec![start];
        for limit in from..=self.max.min(from + MAX_SIMPLE_SLACK) {
            if search.extend(&mut path, false, limit, &mut work) {
                self.work += work;
                return Some(path);
            }
            if work > MAX_SIMPLE_WORK {
                break;
            }
        }
        self.work += work;
        None
    }
}

/// The most links one [`Ctx::simple_chain`] search follows.
const MAX_SIMPLE_WORK: usize = 5_000;

/// How many links longer than the shortest chain (lasso or not) a
/// [`Ctx::simple_chain`] search goes.
const MAX_SIMPLE_SLACK: usize = 2;

/// A depth-first search for a chain that is not a lasso.
struct Dfs<'a> {
    g: &'a Graph,
    /// Reached from the target with its truth flipped.
    back: &'a Bfs,
    start: usize,
    target: (usize, bool),
    is_loop: bool,
    grouped: bool,
}

impl Dfs<'_> {
    /// The fewest links from `(node, truth)` to the target, lasso or not.
    fn distance(&self, (u, t): (usize, bool)) -> Option<usize> {
        [false, true]
            .into_iter()
            .map(|used| state(u, !t, used))
            .filter(|&st| self.back.reached(st))
            .map(|st| usize::from(self.back.depth(st)))
            .min()
    }

    /// Extends `path` to the target within `limit` links in all.
    fn extend(
        &self,
        path: &mut Vec<(usize, bool)>,
        used: bool,
        limit: usize,
        work: &mut usize,
    ) -> bool {
        let &(u, truth) = path.last().unwrap_or(&(self.start, false));
        if (u, truth) == self.target && path.len() > 1 {
            return used == self.grouped;
        }
        let next: &[u32] = if truth {
            &self.g.weak[u]
        } else {
            &self.g.strong[u]
        };
        *work += next.len();
        if *work > MAX_SIMPLE_WORK {
            return false;
        }
        for (i, &t) in next.iter().enumerate() {
            let t = t as usize;
            let reach = self.distance((t, !truth));
            if reach.is_none_or(|d| path.len() + d > limit) {
                continue;
            }
            if t == self.start && (t, !truth) != self.target {
                continue;
            }
            let via_als = !truth && self.g.via[u].get(i).is_some_and(|&k| k != NONE);
            path.push((t, !truth));
            if !is_lasso(self.g, path, self.is_loop)
                && self.extend(path, used || via_als || self.g.special[t], limit, work)
            {
                return true;
            }
            path.pop();
        }
        false
    }
}

/// The candidates `node` being true rules out, as (cell, digit), sorted.
fn excluded(b: &Board, node: &Node) -> Vec<(usize, usize)> {
    let d = node.digit;
    let mut out: Vec<(usize, usize)> = Vec::new();
    if let [c] = node.cells[..] {
        out.extend(b.digits(c).filter(|&z| z != d).map(|z| (c, z)));
        out.extend(b.tables().peers(c).filter(|&p| b.has(p, d)).map(|p| (p, d)));
    } else {
        for &u in &node.units {
            out.extend(
                b.unit(u)
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| b.has(c, d) && !node.cells.contains(&c))
                    .map(|c| (c, d)),
            );
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether a chain is a lasso by HoDoKu's rule: it enters again a cell it
/// has left. Consecutive nodes may share a cell (a link inside it, or an ALS
/// link); a node, once left, occupies its cells (an ALS link's set too), and
/// a node enters by the cell it names first (after an ALS link, the ALS's
/// first). In a loop (`is_loop`) the start's cells stay free, so the loop
/// can close on them.
fn is_lasso(g: &Graph, chain: &[(usize, bool)], is_loop: bool) -> bool {
    let cells = |i: usize| &g.nodes[chain[i].0].cells;
    let mut used: Vec<usize> = Vec::new();
    for i in 0..chain.len() {
        // The cell a node enters by: its first, or an ALS's first when an
        // ALS link leads to it.
        let via = (i > 0 && chain[i].1)
            .then(|| g.als_of(chain[i - 1].0, chain[i].0))
            .flatten();
        if used.contains(&via.unwrap_or(cells(i))[0]) {
            return true;
        }
        // A cell an ALS forces enters by its own cell as well.
        if via.is_some_and(|set| !set.contains(&cells(i)[0])) && used.contains(&cells(i)[0]) {
            return true;
        }
        if i == 0 {
            continue;
        }
        let start = cells(0);
        used.extend(
            cells(i - 1)
                .iter()
                .filter(|c| !(is_loop && start.contains(c))),
        );
        if i >= 2
            && chain[i - 1].1
            && let Some(set) = g.als_of(chain[i - 2].0, chain[i - 1].0)
        {
            used.extend(set);
        }
    }
    false
}

/// The candidates of digit `z` outside ALS `set` that see every cell of
/// the set holding z and every cell of `also`.
fn seen_with_als(b: &Board, set: &[usize], z: usize, also: &[usize]) -> Vec<(usize, usize)> {
    let holders = set.iter().copied().filter(|&c| b.has(c, z));
    let ends: Vec<usize> = also.iter().copied().chain(holders).collect();
    b.seen_by_all(1 << z, &ends, set)
        .into_iter()
        .map(|(c, v)| (c, v.index()))
        .collect()
}

/// The candidates outside ALS `set` of each of its digits other than
/// `except` that see every cell of the set holding that digit.
fn locked_in_als(b: &Board, set: &[usize], except: &[usize]) -> Vec<(usize, usize)> {
    let mask = set.iter().fold(0u64, |m, &c| m | b.mask(c));
    super::bits(mask)
        .filter(|z| !except.contains(z))
        .flat_map(|z| seen_with_als(b, set, z, &[]))
        .collect()
}

/// What ALS `set` linking `p` and `q` removes on a continuous loop. Exactly
/// one of the two is true, so the set lacks one of their digits and its
/// other digits are locked in it. When the link forces a cell outside the
/// set (one node is there), the set lacks its entry digit or one of the
/// cell's other digits (the exits): each exit is in the set or in that
/// cell, and only the set's remaining digits are locked.
fn als_on_loop(b: &Board, set: &[usize], p: &Node, q: &Node) -> Vec<(usize, usize)> {
    let outside = |n: &Node| !set.contains(&n.cells[0]);
    let forced = [p, q].into_iter().find(|n| outside(n));
    let Some(y) = forced else {
        return locked_in_als(b, set, &[p.digit, q.digit]);
    };
    let entry = if outside(p) { q.digit } else { p.digit };
    let cell = y.cells[0];
    let exits: Vec<usize> = b.digits(cell).filter(|&z| z != y.digit).collect();
    let mut except = exits.clone();
    except.push(entry);
    let mut out = locked_in_als(b, set, &except);
    for z in exits {
        out.extend(seen_with_als(b, set, z, &[cell]));
    }
    out
}

/// The candidates both nodes rule out.
fn common(b: &Board, x: &Node, y: &Node) -> Vec<(usize, usize)> {
    both(&excluded(b, x), &excluded(b, y))
}

/// What two sorted lists of [`excluded`] candidates share.
fn both(ex: &[(usize, usize)], ey: &[(usize, usize)]) -> Vec<(usize, usize)> {
    ex.iter()
        .copied()
        .filter(|e| ey.binary_search(e).is_ok())
        .collect()
}

/// Whether two sorted lists of [`excluded`] candidates share two or more
/// (without collecting them: most pairs of chain ends share fewer).
fn share_two(ex: &[(usize, usize)], ey: &[(usize, usize)]) -> bool {
    let (mut i, mut j, mut shared) = (0, 0, 0);
    while i < ex.len() && j < ey.len() {
        match ex[i].cmp(&ey[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                if shared == 2 {
                    return true;
                }
                i += 1;
                j += 1;
            }
        }
    }
    false
}

fn to_values(mut v: Vec<(usize, usize)>) -> Vec<(usize, Value)> {
    v.sort_unstable();
    v.dedup();
    v.into_iter()
        .map(|(c, d)| (c, Value::from_index(d)))
        .collect()
}

/// `(5)r1c2`, `(5)r1c23` (a group in a row), `(5)r12c3` (in a column),
/// `(5)r1c1,r2c3` (other cells of an ALS).
fn node_name(b: &Board, node: &Node) -> String {
    nice_loops::cells_name(b, node.digit, &node.cells)
}

/// A chain's candidates, links, text (`a = b − c = d`, an ALS link as
/// `=ALS{cells}=`) and node roles; `close` adds a last link back to the
/// first node (strong or weak).
fn describe(b: &Board, g: &Graph, chain: &[(usize, bool)], close: Option<bool>) -> Described {
    let mut roles = Vec::new();
    let mut node = |i: usize, on: bool| {
        let n = &g.nodes[i];
        for &c in &n.cells {
            let r = (c, Value::from_index(n.digit), nice_loops::node_role(on));
            if !roles.contains(&r) {
                roles.push(r);
            }
        }
    };
    for &(i, on) in chain {
        node(i, on);
    }
    if let (Some(strong), Some(&(first, _))) = (close, chain.first()) {
        node(first, strong);
    }
    let mut cand: Vec<(usize, Value)> = chain
        .iter()
        .flat_map(|&(i, _)| {
            let n = &g.nodes[i];
            n.cells.iter().map(|&c| (c, Value::from_index(n.digit)))
        })
        .collect();
    let mut sets = 0u8;
    for w in chain.windows(2) {
        if let Some(set) = g.als_of(w[0].0, w[1].0) {
            for &c in set {
                cand.extend(b.digits(c).map(|d| (c, Value::from_index(d))));
                roles.extend(
                    b.digits(c)
                        .map(|d| (c, Value::from_index(d), CandidateRole::Set(sets))),
                );
            }
            sets = sets.saturating_add(1);
        }
    }
    cand.sort_unstable();
    cand.dedup();
    let head = |i: usize| (g.nodes[i].cells[0], Value::from_index(g.nodes[i].digit));
    let mut links = Vec::new();
    let mut text = node_name(b, &g.nodes[chain[0].0]);
    let mut push = |text: &mut String, from: usize, to: usize, strong: bool| {
        links.push(Link {
            from: head(from),
            to: head(to),
            strong,
        });
        match g.als_of(from, to).filter(|_| strong) {
            Some(set) => {
                let names: Vec<String> = set.iter().map(|&c| b.cell_name(c)).collect();
                text.push_str(&format!(" =ALS{{{}}}= ", names.join(" ")));
            }
            None => text.push_str(if strong { " = " } else { " − " }),
        }
        text.push_str(&node_name(b, &g.nodes[to]));
    };
    for w in chain.windows(2) {
        // A link into a true state is strong.
        push(&mut text, w[0].0, w[1].0, w[1].1);
    }
    if let (Some(strong), Some(&(last, _))) = (close, chain.last()) {
        push(&mut text, last, chain[0].0, strong);
    }
    Described {
        cand,
        links,
        text,
        roles,
    }
}

/// What [`describe`] tells of a chain.
struct Described {
    cand: Vec<(usize, Value)>,
    links: Vec<Link>,
    text: String,
    roles: Vec<(usize, Value, CandidateRole)>,
}

impl Described {
    /// The chain's step, explained for `technique` (with a discontinuous
    /// loop's `ends`).
    fn step(
        self,
        b: &Board,
        technique: Technique,
        ends: Option<LoopEnds>,
        elims: Vec<(usize, Value)>,
    ) -> Step {
        let explanation = nice_loops::explanation(b, technique, &self.text, ends);
        chain_step(
            technique,
            self.cand,
            self.links,
            self.roles,
            explanation,
            elims,
        )
    }
}

/// Runs `search` once per [`Pass`] (plain; grouped; or grouped then
/// grouped with ALS nodes), sharing the steps found and the work budget.
/// With `first`, only the first step is sure to be there, with the chain a
/// full search would give it.
fn run_passes(
    b: &Board,
    nodes: ChainNodes,
    search: fn(&Board, &mut Ctx),
    first: bool,
) -> Vec<Step> {
    run_passes_counted(b, nodes, search, first).0
}

/// [`run_passes`], with the links followed (over the work budget when the
/// search was cut short).
fn run_passes_counted(
    b: &Board,
    nodes: ChainNodes,
    search: fn(&Board, &mut Ctx),
    first: bool,
) -> (Vec<Step>, usize) {
    let (mut found, mut work) = (Found::default(), 0);
    for &pass in Pass::all(nodes) {
        let mut x = Ctx::new(b, pass, found, work, first);
        search(b, &mut x);
        (found, work) = (x.found, x.work);
    }
    (found.into_steps(), work)
}

/// Continuous nice loops (grouped unless `nodes` are candidates only).
pub(super) fn continuous_nice_loops(b: &Board, nodes: ChainNodes, first: bool) -> Vec<Step> {
    run_passes(b, nodes, cnl_pass, first)
}

fn cnl_pass(b: &Board, x: &mut Ctx) {
    let grouped = x.grouped;
    let technique = if grouped {
        Technique::GroupedContinuousNiceLoop
    } else {
        Technique::ContinuousNiceLoop
    };
    let mut runs: Vec<Option<FalseRun>> = vec![None; x.g.scratch()];
    for (s, kept) in runs.iter_mut().enumerate() {
        if !x.g.nodes[s].is_candidate() || x.exhausted(b) {
            continue;
        }
        let (cap, before) = (x.depth_cap(), x.work);
        x.run(state(s, false, false));
        // Not cut short: the budget was never passed while it ran.
        if x.work <= x.budget {
            *kept = Some(FalseRun {
                cap,
                work: x.work - before,
                end: x.back_to_true(s),
            });
        }
        for k in 0..x.bfs.order.len() {
            let st = x.bfs.order[k];
            let (u, truth, used) = split(st);
            let dep = usize::from(x.bfs.depth(st));
            if !truth || !x.wanted(used) || u == s || dep < 3 {
                continue;
            }
            if !x.g.nodes[u].weak_with(&x.g.nodes[s]) {
                continue;
            }
            // A lasso here is found as a proper loop from another start.
            let chain = x.chain(st);
            if is_lasso(&x.g, &chain, true) {
                continue;
            }
            // The loop's cells, leaving out those of ALS nodes (the ALS's
            // entry and exit nodes), as HoDoKu does.
            let in_als: Vec<bool> = (0..chain.len())
                .map(|k| {
                    let linked = |a: usize, z: usize| x.g.als_of(chain[a].0, chain[z].0).is_some();
                    (k > 0 && linked(k - 1, k)) || (k + 1 < chain.len() && linked(k, k + 1))
                })
                .collect();
            let loop_cells: Vec<usize> = chain
                .iter()
                .zip(&in_als)
                .filter(|(_, als)| !**als)
                .flat_map(|(&(i, _), _)| x.g.nodes[i].cells.iter().copied())
                .collect();
            // Each weak link (into a false node), and the closing one; a
            // digit between cells goes from the cells seeing both, outside
            // the loop; a link inside a cell removes its other digits.
            let mut elims = Vec::new();
            let mut weak_links: Vec<(usize, usize)> = chain
                .windows(2)
                .filter(|w| !w[1].1)
                .map(|w| (w[0].0, w[1].0))
                .collect();
            weak_links.push((u, s));
            for (p, q) in weak_links {
                let (p, q) = (&x.g.nodes[p], &x.g.nodes[q]);
                elims.extend(
                    common(b, p, q)
                        .into_iter()
                        .filter(|&(c, _)| p.digit != q.digit || !loop_cells.contains(&c)),
                );
            }
            // An ALS on the loop holds all its digits but one of the two it
            // links by (whichever way round the loop is true), so its other
            // digits are locked in it.
            for w in chain.windows(2).filter(|w| w[1].1) {
                if let Some(set) = x.g.als_of(w[0].0, w[1].0) {
                    let (p, q) = (&x.g.nodes[w[0].0], &x.g.nodes[w[1].0]);
                    elims.extend(als_on_loop(b, set, p, q));
                }
            }
            if elims.is_empty() {
                continue;
            }
            let elims = to_values(elims);
            let step = describe(b, &x.g, &chain, Some(false)).step(b, technique, None, elims);
            x.found.offer(chain.len(), step);
        }
    }
    FALSE_RUNS.with(|k| {
        let mut k = k.borrow_mut();
        k.retain(|r| r.pass != x.pass);
        k.push(FalseRuns {
            pass: x.pass,
            key: b.position_key(),
            runs,
        });
    });
}

/// Discontinuous nice loops (grouped unless `nodes` are candidates only).
pub(super) fn discontinuous_nice_loops(b: &Board, nodes: ChainNodes, first: bool) -> Vec<Step> {
    run_passes(b, nodes, dnl_pass, first)
}

fn dnl_pass(b: &Board, x: &mut Ctx) {
    let grouped = x.grouped;
    let technique = if grouped {
        Technique::GroupedDiscontinuousNiceLoop
    } else {
        Technique::DiscontinuousNiceLoop
    };
    // The continuous loops' searches in this position and pass, if any.
    let kept = FALSE_RUNS
        .with(|k| {
            let mut k = k.borrow_mut();
            let i = k.iter().position(|r| r.pass == x.pass)?;
            Some(k.swap_remove(i))
        })
        .filter(|k| k.key == b.position_key());
    for c in 0..b.shape().cells() {
        if x.first_cell().is_some_and(|first| first != c) {
            continue;
        }
        for d in b.digits(c) {
            if x.exhausted(b) {
                break;
            }
            let s = x.start(b, c, d);
            // Assume (d)c true: does it come back false?
            x.run(state(s, true, false));
            // The first end whose shortest chain is not a lasso (a lasso's
            // conclusion is left to other techniques, as HoDoKu leaves it).
            let chain = x.bfs.order.iter().find_map(|&st| {
                let (u, truth, used) = split(st);
                if !(truth && x.wanted(used) && x.g.nodes[u].weak_with(&x.g.nodes[s])) {
                    return None;
                }
                Some(x.chain(st)).filter(|chain| !is_lasso(&x.g, chain, true))
            });
            if let Some(chain) = chain {
                let elims = to_values(vec![(c, d)]);
                let ends = LoopEnds {
                    cell: c,
                    first: (d, true),
                    last: (d, false),
                };
                let step =
                    describe(b, &x.g, &chain, Some(false)).step(b, technique, Some(ends), elims);
                x.found.offer(chain.len(), step);
            }
            // Assume it false: does it come back true?
            if s == x.g.scratch() || b.count(c) < 2 {
                continue;
            }
            // The same search as the continuous loops ran from s, with the
            // same result and work when it was not cut short by the budget
            // there and would not be here.
            let cap = x.depth_cap();
            let run = kept
                .as_ref()
                .and_then(|k| k.runs.get(s))
                .and_then(Option::as_ref)
                .filter(|r| r.cap == cap && x.work + r.work <= x.budget);
            let end = if let Some(r) = run {
                x.work += r.work;
                r.end.clone()
            } else {
                x.run(state(s, false, false));
                x.back_to_true(s)
            };
            if let Some((st, chain)) = end {
                let elims = to_values(b.digits(c).filter(|&z| z != d).map(|z| (c, z)).collect());
                let Some(chain) = x.simple_if_lasso(chain, st, true, &elims) else {
                    continue;
                };
                // The last node is the start again; drop it and close.
                let chain = &chain[..chain.len() - 1];
                let ends = LoopEnds {
                    cell: c,
                    first: (d, false),
                    last: (d, true),
                };
                let step =
                    describe(b, &x.g, chain, Some(true)).step(b, technique, Some(ends), elims);
                x.found.offer(chain.len() + 1, step);
            }
        }
    }
}

/// AICs strong at both ends (grouped unless `nodes` are candidates only).
pub(super) fn aics(b: &Board, nodes: ChainNodes, first: bool) -> Vec<Step> {
    run_passes(b, nodes, aic_pass, first)
}

fn aic_pass(b: &Board, x: &mut Ctx) {
    let grouped = x.grouped;
    let technique = if grouped {
        Technique::GroupedAic
    } else {
        Technique::Aic
    };
    // What each candidate node rules out, once per pass.
    let excl: Vec<Vec<(usize, usize)>> = (0..x.g.scratch())
        .map(|i| {
            if x.g.nodes[i].is_candidate() {
                excluded(b, &x.g.nodes[i])
            } else {
                Vec::new()
            }
        })
        .collect();
    for s in 0..x.g.scratch() {
        if !x.g.nodes[s].is_candidate() || x.exhausted(b) {
            continue;
        }
        x.run(state(s, false, false));
        for k in 0..x.bfs.order.len() {
            let st = x.bfs.order[k];
            let (e, truth, used) = split(st);
            if !truth || !x.wanted(used) || e == s || !x.g.nodes[e].is_candidate() {
                continue;
            }
            // One elimination is a discontinuous nice loop through it (as
            // HoDoKu counts them), found as that.
            if !share_two(&excl[s], &excl[e]) {
                continue;
            }
            let elims = to_values(both(&excl[s], &excl[e]));
            // Each pair of ends is met from both; the second time only a
            // shorter chain, or a simple one where the first was a lasso,
            // is news.
            let links = usize::from(x.bfs.depth(st));
            if e < s && x.found.known(&elims, links + 1) {
                continue;
            }
            let Some(chain) = x.chain_or_simple(st, false, &elims) else {
                continue;
            };
            let step = describe(b, &x.g, &chain, None).step(b, technique, None, elims);
            x.found.offer(chain.len(), step);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Shape;
    use crate::engine::logic::tests::{empty6, library_als_loop, only_at, set, v0};

    fn has_step(steps: &[Step], elims: &[(usize, Value)]) -> bool {
        steps.iter().any(|s| s.eliminations == elims)
    }

    /// (1)r1c1 = (2)r1c1 − (2)r1c5 = (2)r5c5 − (2)r5c2 = (1)r5c2 on 6×6:
    /// r1c1 {1,2}, r5c2 {1,2}, 2 in column 5 only at r1c5 and r5c5.
    fn aic_board() -> Board {
        let mut b = empty6();
        set(&mut b, 0, 0b11);
        set(&mut b, 25, 0b11);
        only_at(&mut b, 6 + 4, 1, &[4, 28]);
        b
    }

    #[test]
    fn aic_on_6x6() {
        let b = aic_board();
        let ones = vec![(1, v0(0)), (7, v0(0)), (24, v0(0)), (30, v0(0))];
        let steps = aics(&b, ChainNodes::Candidates, false);
        assert_eq!(steps.len(), 1, "{steps:?}");
        assert_eq!(steps[0].eliminations, ones);
        assert_eq!(steps[0].highlights.links.len(), 5);
        assert!(steps[0].explanation.contains("(1)r1c1 = (2)r1c1 − (2)r1c5"));
        // Each of those 1s also goes by a discontinuous loop through it.
        let dnl = discontinuous_nice_loops(&b, ChainNodes::Candidates, false);
        assert!(has_step(&dnl, &[(1, v0(0))]), "{dnl:?}");
        // Once they are gone, neither finds anything.
        let mut b2 = b.clone();
        for (c, val) in ones {
            b2.remove(c, val.index());
        }
        assert!(aics(&b2, ChainNodes::Candidates, false).is_empty());
        assert!(discontinuous_nice_loops(&b2, ChainNodes::Candidates, false).is_empty());
        assert!(continuous_nice_loops(&b2, ChainNodes::Candidates, false).is_empty());
    }

    /// HoDoKu's lasso rule, on chains of candidate nodes (`is_lasso` looks
    /// only at the cells, not at whether the links exist).
    #[test]
    fn a_chain_may_not_enter_a_cell_it_has_left() {
        // Bivalue r1c1 {1,2}, r1c2 {1,3}, r1c5 {1,2}: their candidates are
        // nodes.
        let mut b = empty6();
        for (c, m) in [(0, 0b011), (1, 0b101), (4, 0b011)] {
            set(&mut b, c, m);
        }
        let g = Graph::build(&b, Pass::Plain);
        let node = |c: usize, d: usize| g.cand_id[c * 6 + d] as usize;
        let chain = |v: &[(usize, usize, bool)]| -> Vec<(usize, bool)> {
            v.iter().map(|&(c, d, t)| (node(c, d), t)).collect()
        };
        // (1)r1c1 − (2)r1c1 = (2)r1c5: a link inside a cell is fine.
        let ok = chain(&[(0, 0, false), (0, 1, true), (4, 1, false)]);
        assert!(!is_lasso(&g, &ok, false));
        // … = (1)r1c5 − (1)r1c1: back into r1c1, which it left.
        let mut back = ok.clone();
        back.extend(chain(&[(4, 0, true), (0, 0, false)]));
        assert!(is_lasso(&g, &back, false));
        // As a loop, coming back to the start's cell closes it.
        assert!(!is_lasso(&g, &back, true));
        let mut closing = back[..4].to_vec();
        closing.extend(chain(&[(1, 0, false)]));
        assert!(!is_lasso(&g, &closing, true));
        // A loop may not come back to a cell other than the start's.
        let mut inner = closing.clone();
        inner.extend(chain(&[(4, 1, true)]));
        assert!(is_lasso(&g, &inner, true));
    }

    /// The depth-first fallback finds a real chain, link by link.
    #[test]
    fn the_simple_chain_search_follows_the_links() {
        let b = aic_board();
        let mut x = Ctx::new(&b, Pass::Plain, Found::default(), 0, false);
        let s = x.g.cand_id[0] as usize; // (1)r1c1
        let e = x.g.cand_id[25 * 6] as usize; // (1)r5c2
        let chain = x.simple_chain((s, false), e, true, false).unwrap();
        assert_eq!(chain.first(), Some(&(s, false)));
        assert_eq!(chain.last(), Some(&(e, true)));
        assert_eq!(chain.len(), 6, "{chain:?}");
        for w in chain.windows(2) {
            let (u, t) = w[0];
            assert_eq!(w[1].1, !t);
            let links: &[u32] = if t { &x.g.weak[u] } else { &x.g.strong[u] };
            assert!(links.contains(&(w[1].0 as u32)), "{chain:?}");
        }
        assert!(!is_lasso(&x.g, &chain, false));
    }

    #[test]
    fn continuous_loop_on_6x6() {
        // r1c1 {1,2} − r1c4 {2,3} − r4c4 {3,4} − r4c1 {4,1} − back.
        let mut b = empty6();
        for (c, m) in [(0, 0b0011), (3, 0b0110), (21, 0b1100), (18, 0b1001)] {
            set(&mut b, c, m);
        }
        let steps = continuous_nice_loops(&b, ChainNodes::Candidates, false);
        assert_eq!(steps.len(), 1, "{steps:?}");
        let mut want: Vec<(usize, Value)> = Vec::new();
        want.extend([1, 2, 4, 5].map(|c| (c, v0(1))));
        want.extend([9, 15, 27, 33].map(|c| (c, v0(2))));
        want.extend([19, 20, 22, 23].map(|c| (c, v0(3))));
        want.extend([6, 12, 24, 30].map(|c| (c, v0(0))));
        want.sort();
        assert_eq!(steps[0].eliminations, want);
        assert_eq!(steps[0].highlights.links.len(), 8);
        // r4c1 {4,5} breaks the loop.
        let mut b2 = empty6();
        for (c, m) in [(0, 0b0011), (3, 0b0110), (21, 0b1100), (18, 0b11000)] {
            set(&mut b2, c, m);
        }
        assert!(continuous_nice_loops(&b2, ChainNodes::Candidates, false).is_empty());
    }

    #[test]
    fn a_loop_through_an_als_that_forces_a_cell() {
        let (b, want) = library_als_loop();
        let with = continuous_nice_loops(&b, ChainNodes::GroupsAndAls, false);
        assert!(has_step(&with, &want), "{with:#?}");
        assert!(!has_step(
            &continuous_nice_loops(&b, ChainNodes::Groups, false),
            &want
        ));
    }

    #[test]
    fn grouped_chains_on_6x6() {
        // Row 1 holds 1 at r1c1 and in the group r1c56; row 2 at r2c1 and
        // r2c4: (1)r1c1 = (1)r1c56 − (1)r2c4 = (1)r2c1 − (1)r1c1.
        let mut b = empty6();
        only_at(&mut b, 0, 0, &[0, 4, 5]);
        only_at(&mut b, 1, 0, &[6, 9]);
        let cnl = continuous_nice_loops(&b, ChainNodes::GroupsAndAls, false);
        let col1: Vec<(usize, Value)> = [12, 18, 24, 30].map(|c| (c, v0(0))).to_vec();
        assert!(has_step(&cnl, &col1), "{cnl:?}");
        assert!(cnl.iter().all(|s| s.explanation.contains("r1c56")
            || s.technique == Technique::GroupedContinuousNiceLoop));
        // Without groups there is no loop.
        assert!(continuous_nice_loops(&b, ChainNodes::Candidates, false).is_empty());
        // (1)r1c1 = (1)r1c56 − (1)r2c4 = (1)r5c4: r5c1 sees both ends. One
        // elimination: the discontinuous loop through (1)r5c1, not an AIC.
        let mut b = empty6();
        only_at(&mut b, 0, 0, &[0, 4, 5]);
        only_at(&mut b, 6 + 3, 0, &[9, 27]);
        let aic = aics(&b, ChainNodes::GroupsAndAls, false);
        assert!(!has_step(&aic, &[(24, v0(0))]), "{aic:?}");
        assert!(aics(&b, ChainNodes::Candidates, false).is_empty());
        let dnl = discontinuous_nice_loops(&b, ChainNodes::GroupsAndAls, false);
        assert!(has_step(&dnl, &[(24, v0(0))]), "{dnl:?}");
        // An empty board proves nothing.
        let e = empty6();
        for grouped in [
            ChainNodes::Candidates,
            ChainNodes::Groups,
            ChainNodes::GroupsAndAls,
        ] {
            assert!(aics(&e, grouped, false).is_empty());
            assert!(discontinuous_nice_loops(&e, grouped, false).is_empty());
            assert!(continuous_nice_loops(&e, grouped, false).is_empty());
        }
    }

    #[test]
    fn an_als_links_two_of_its_digits() {
        // In row 1 of a 6×6, r1c1 {1,4}, r1c2 {1,2,3}, r1c3 {2,3} hold
        // four digits: without 4 they hold 1, 2 and 3.
        let mut b = empty6();
        set(&mut b, 0, 0b1001);
        set(&mut b, 1, 0b0111);
        set(&mut b, 2, 0b0110);
        let g = Graph::build(&b, Pass::Als);
        assert!(g.als.contains(&vec![0, 1, 2]));
        let four = g.cand_id[3] as usize;
        assert!(
            g.strong[four]
                .iter()
                .zip(&g.via[four])
                .any(|(_, &k)| k != NONE)
        );
    }

    /// Along solution paths of generated puzzles, no step of these
    /// techniques removes a solution value; AICs and discontinuous loops
    /// fire.
    /// A search that wants only the first step gives the same first step,
    /// chain and all, as the full search, wherever the full one ran within
    /// its work budget; along the paths of generated 12×12 and 16×16
    /// expert puzzles, every chain technique.
    #[test]
    fn the_first_step_alone_is_the_full_searchs_first() {
        use crate::engine::logic::next_step;
        type Search = fn(&Board, &mut Ctx);
        let searches: [(Search, &str); 3] =
            [(cnl_pass, "cnl"), (dnl_pass, "dnl"), (aic_pass, "aic")];
        let (mut compared, mut found) = (0, 0);
        for (shape, seeds) in [
            (Shape::new(3, 4).unwrap(), 1..=3u64),
            (Shape::square(4).unwrap(), 1..=2),
        ] {
            for seed in seeds {
                let (mut b, _) = crate::engine::logic::tests::expert_board(shape, seed);
                let mut rounds = 0;
                while let Some(step) = next_step(&b) {
                    rounds += 1;
                    if rounds > 300 {
                        break;
                    }
                    if step.technique.level() >= crate::engine::Level::Hard {
                        for nodes in [ChainNodes::Candidates, ChainNodes::GroupsAndAls] {
                            for (search, name) in searches {
                                let (all, work) = run_passes_counted(&b, nodes, search, false);
                                let budget = MAX_WORK_BIG;
                                if work > budget {
                                    continue;
                                }
                                let (first, _) = run_passes_counted(&b, nodes, search, true);
                                let key = |s: Option<&Step>| {
                                    s.map(|s| (s.eliminations.clone(), s.explanation.clone()))
                                };
                                assert_eq!(
                                    key(first.first()),
                                    key(all.first()),
                                    "{shape:?} seed {seed}, {name} {nodes:?}"
                                );
                                compared += 1;
                                found += usize::from(!all.is_empty());
                            }
                        }
                    }
                    b.apply(&step);
                }
            }
        }
        println!("{compared} compared, {found} with a step");
        assert!(
            compared > 100 && found > 20,
            "{compared} compared, {found} found"
        );
    }

    #[test]
    fn chains_and_loops_are_sound_on_generated_puzzles() {
        let techniques = [
            Technique::Aic,
            Technique::DiscontinuousNiceLoop,
            Technique::ContinuousNiceLoop,
            Technique::GroupedAic,
            Technique::GroupedDiscontinuousNiceLoop,
            Technique::GroupedContinuousNiceLoop,
        ];
        let fired =
            crate::engine::logic::tests::sound_along_paths(Shape::CLASSIC, 1..=3, &techniques);
        assert!(fired[0] > 0 && fired[1] > 0 && fired[3] > 0, "{fired:?}");
        let six = Shape::new(2, 3).unwrap();
        crate::engine::logic::tests::sound_along_paths(six, 1..=4, &techniques);
    }
}
