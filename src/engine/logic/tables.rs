//! Nice loops and AICs found with implication tables ("Trebor's tables",
//! the method HoDoKu uses), for boards up to 9×9.
//!
//! Every premise — a candidate set, or a candidate removed — gets a table of
//! what it implies directly: setting a candidate removes the cell's other
//! candidates and the digit from its peers; removing one sets the cell's
//! other candidate when the cell is bivalue and the digit's other place in a
//! unit where only two are left. Grouped searches add group nodes (a digit
//! in a line∩box intersection) and almost locked sets: an ALS that loses
//! one of its digits is locked, which removes its other digits from every
//! cell that sees all their holders and may force a cell to its one
//! remaining candidate.
//!
//! Each table is then expanded in place, breadth first: for every entry in
//! turn, whatever that entry implies directly is appended unless the table
//! already holds it (an expanded entry whose new route is shorter takes
//! that route). An entry remembers the entry it came from, so one chain
//! leads from the premise to every conclusion.
//!
//! A conclusion back in the premise's cell closes a nice loop: both ends
//! weak on the same digit remove it; both strong place it; a weak and a
//! strong end on two digits remove the weak one; otherwise the loop is
//! continuous and every weak link of it acts as a strong one. A
//! conclusion "set" elsewhere after the premise "removed" is an AIC: same
//! digit at both ends removes it from the cells that see both (when that is
//! two or more cells; one is the nice loop's job); two digits in cells that
//! see each other remove each from the other cell.
//!
//! A chain that comes back into a cell it left is a lasso and is dropped,
//! not searched around: this follows HoDoKu's tables step for step, so
//! that the steps found are the ones its regression library lists (one
//! step per set of eliminations, the shortest chain kept).
//!
//! Why a second search, [`super::aic`], beside this one: there is a table
//! per candidate and per way it can go (set or removed), each of up to a
//! thousand entries, so the tables grow with the number of candidates
//! (n³) and cost too much time and memory beyond 9×9. There the
//! breadth-first search of [`super::aic`], with its work budget, takes
//! over. [`super::nice_loops`] picks between the two and holds what they
//! share: the nodes ([`ChainNodes`]), group nodes, ALSs (from
//! [`super::als`]), names and explanations.

use foldhash::HashMap;
use std::cell::RefCell;

use crate::engine::grid::Value;

use super::als::{self, AlsSize};
use super::board::bits;
use super::cellset::{clear_bit, has_bit, members, or_into, set_bit};
use super::kept;
use super::nice_loops::{self, ChainNodes, LoopEnds};
use super::tarjan::Tarjan;
use super::{Board, CandidateRole, Link, Step, Technique};

/// The largest side searched with tables (81 cells fit one `u128`).
pub const MAX_TABLE_SIDE: usize = 9;

/// The most entries a table holds (HoDoKu's limit).
const MAX_ENTRIES: usize = 1000;

/// A set of cells (at most 81).
type Cells = u128;

fn cells_of(set: Cells) -> impl Iterator<Item = usize> {
    let mut s = set;
    std::iter::from_fn(move || {
        if s == 0 {
            return None;
        }
        let c = s.trailing_zeros() as usize;
        s &= s - 1;
        Some(c)
    })
}

fn one(c: usize) -> Cells {
    1u128 << c
}

/// A digit in two or more cells of one line∩box intersection.
struct Group {
    digit: usize,
    cells: Cells,
    /// The row or column unit it lies in.
    line: usize,
    boxu: usize,
    /// Cells that see every cell of the group.
    buddies: Cells,
}

/// An almost locked set: k cells of one unit holding k+1 digits.
struct Als {
    cells: Cells,
    mask: u64,
    /// Per digit: the set's cells holding it.
    holders: [Cells; MAX_TABLE_SIDE],
    /// Per digit: the cells outside the set that hold it and see every
    /// holder.
    seen: [Cells; MAX_TABLE_SIDE],
    /// Every cell of some `seen`.
    buddies: Cells,
    /// The digits whose loss makes the set a chain node: those it holds
    /// such that some other digit of it has a `seen` cell.
    node_digits: u64,
}

impl Als {
    /// How many links longer than one an ALS counts when chains are
    /// compared (HoDoKu's penalty: nothing for one digit, 1 for two, twice
    /// the digits less one beyond).
    fn penalty(&self) -> u16 {
        match self.mask.count_ones() {
            0 | 1 => 0,
            2 => 1,
            k => ((k - 1) * 2) as u16,
        }
    }
}

/// What the ALS nodes imply, per set (the nodes have no tables: the graph
/// of [`Tabling::surely_barren`] and the walk of [`Tabling::expand`] read
/// these): a set losing digit j removes what it removes of every other
/// digit k, makes the sets paired with it on k lose k, and forces the
/// cells it leaves with one candidate. Kept per digit k, not per digit
/// lost, this is a third to a half of what tables would hold.
#[derive(Default)]
struct AlsLinks {
    /// Per set and digit (set · n + digit): the keys of what the set
    /// removes of that digit, `elim[elim_start[i]..elim_start[i + 1]]`:
    /// the candidates that see all its holders of it, then the groups
    /// inside those.
    elim_start: Vec<u32>,
    elim: Vec<u32>,
    /// Per set: the other sets, disjoint, each of whose holders of digit l
    /// sees all of this set's holders of l, as (set, l) in order.
    pair_start: Vec<u32>,
    pair: Vec<(u32, u32)>,
    /// Per set and digit lost: the keys of the candidates then set.
    forced_start: Vec<u32>,
    forced: Vec<u32>,
}

impl AlsLinks {
    fn clear(&mut self) {
        self.elim_start.clear();
        self.elim.clear();
        self.pair_start.clear();
        self.pair.clear();
        self.forced_start.clear();
        self.forced.clear();
    }

    fn elims(&self, a: usize, k: usize, n: usize) -> &[u32] {
        let i = a * n + k;
        &self.elim[self.elim_start[i] as usize..self.elim_start[i + 1] as usize]
    }

    fn pairs(&self, a: usize) -> &[(u32, u32)] {
        &self.pair[self.pair_start[a] as usize..self.pair_start[a + 1] as usize]
    }

    fn forced(&self, a: usize, j: usize, n: usize) -> &[u32] {
        let i = a * n + j;
        &self.forced[self.forced_start[i] as usize..self.forced_start[i + 1] as usize]
    }
}

/// One conclusion in a table.
#[derive(Clone, Copy)]
struct Entry {
    /// Node id times two, plus one when the node is true.
    key: u32,
    /// The entry of the same table it follows from (0: the premise).
    pred: u32,
    /// Two per link, plus ALS penalties.
    dist: u16,
    /// Came from another entry's table, not from the premise directly.
    expanded: bool,
}

#[derive(Default)]
struct Table {
    e: Vec<Entry>,
}

impl Table {
    /// Makes this the table of premise `key`, empty but for it (keeping
    /// what the table had allocated).
    fn reset(&mut self, key: u32) {
        self.e.clear();
        self.e.push(Entry {
            key,
            pred: 0,
            dist: 1,
            expanded: false,
        });
    }

    fn has(&self, key: u32) -> bool {
        self.e.iter().any(|x| x.key == key)
    }

    /// A direct implication of the premise that the table does not hold
    /// yet (the caller knows): [`Table::add`] without the look.
    fn push_direct(&mut self, key: u32) {
        if self.e.len() < MAX_ENTRIES {
            self.e.push(Entry {
                key,
                pred: 0,
                dist: (self.e[0].dist + 1) & 0x1ff,
                expanded: false,
            });
        }
    }

    /// A direct implication of the premise; with `once`, not when the table
    /// already holds it (HoDoKu looks for single candidates only).
    fn add(&mut self, key: u32, once: bool, penalty: u16) {
        if self.e.is_empty() || self.e.len() >= MAX_ENTRIES || (once && self.has(key)) {
            return;
        }
        self.e.push(Entry {
            key,
            pred: 0,
            dist: (self.e[0].dist + 1 + penalty) & 0x1ff,
            expanded: false,
        });
    }
}

const NONE: u32 = u32::MAX;

/// Items sorted into numbered buckets, each bucket's in the order they
/// came: two flat lists, where a `Vec` per bucket (729 of them per index
/// on 9×9) cost an allocation each on every search.
struct Buckets<T> {
    /// Bucket i holds `items[start[i]..start[i + 1]]`.
    start: Vec<u32>,
    items: Vec<T>,
}

impl<T: Copy + Default> Buckets<T> {
    /// `buckets` buckets holding what `pairs` gives, (bucket, item); it
    /// is called twice (to count, then to place).
    fn new<I: Iterator<Item = (usize, T)>>(buckets: usize, pairs: impl Fn() -> I) -> Buckets<T> {
        let mut start = vec![0u32; buckets + 1];
        for (i, _) in pairs() {
            start[i + 1] += 1;
        }
        for i in 0..buckets {
            start[i + 1] += start[i];
        }
        let mut next = start.clone();
        let mut items = vec![T::default(); start[buckets] as usize];
        for (i, x) in pairs() {
            items[next[i] as usize] = x;
            next[i] += 1;
        }
        Buckets { start, items }
    }

    fn get(&self, i: usize) -> &[T] {
        &self.items[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

/// An entry new to the table being expanded (`grow`, each key's place in
/// it in `pos`): `key`, reached from entry `pred` at distance `dist`.
#[inline]
fn found_anew(grow: &mut Vec<Entry>, pos: &mut [u16], key: u32, pred: usize, dist: u16) {
    pos[key as usize] = grow.len() as u16;
    grow.push(Entry {
        key,
        pred: pred as u32,
        dist,
        expanded: true,
    });
}

/// A direct implication in [`Tabling::expand`]'s list: its key in the low
/// bits, its distance (9 bits) above.
const DIRECT_KEY_BITS: u32 = 23;
const DIRECT_KEY_MASK: u32 = (1 << DIRECT_KEY_BITS) - 1;

struct Tabling<'a> {
    b: &'a Board,
    n: usize,
    /// Per cell: the cells it sees.
    peers: Vec<Cells>,
    /// Per digit: the cells holding it.
    holders: Vec<Cells>,
    /// Per unit: its cells.
    unit: Vec<Cells>,
    groups: Vec<Group>,
    /// Each digit's groups, in list order.
    groups_of: Buckets<usize>,
    alses: Vec<Als>,
    on: Vec<Table>,
    off: Vec<Table>,
    ext: Vec<Table>,
    /// Key → index in `ext`, or [`NONE`].
    ext_of: Vec<u32>,
    /// Tables of an earlier search, cleared, for `ext`.
    spare: Vec<Table>,
    /// The ALS nodes' links (the nodes have no tables of their own).
    als_links: AlsLinks,
    /// Per candidate key, whether its table may hold a loop or an AIC, as
    /// [`Tabling::surely_barren`] found; empty (every table may) until it
    /// is asked. [`Tabling::expand`] expands only those that may.
    live: Vec<bool>,
}

/// The tables of the last search, kept for the next one: a search fills
/// about 1,500 of them, and allocating and freeing each table's entries
/// took about a tenth of its instructions.
#[derive(Default)]
struct Kept {
    on: Vec<Table>,
    off: Vec<Table>,
    spare: Vec<Table>,
    als_links: AlsLinks,
}

/// The most entries [`Kept`] holds between searches (a 9×9 search's
/// tables usually hold well under a third of this; 12 bytes an entry).
const MAX_KEPT_ENTRIES: usize = 300_000;

/// [`Tabling::surely_barren`]'s graph, kept from one search to the next.
#[derive(Default)]
struct Graph {
    /// A candidate's key → its bit (or [`NONE`]), and back.
    bit: Vec<u32>,
    bit_key: Vec<u32>,
    /// Per cell, its first bit (and the end, after the last cell).
    cell_bits: Vec<u32>,
    /// A key → its node (or [`NONE`]), and back.
    node: Vec<u32>,
    key_of: Vec<u32>,
    /// Per set and digit, the node relaying what the set removes of the
    /// digit (or [`NONE`]); per relay node (after the keys' nodes), its
    /// set and digit.
    relay: Vec<u32>,
    relay_of: Vec<u32>,
    /// Node v links to `to[first[v]..first[v + 1]]`.
    first: Vec<u32>,
    to: Vec<u32>,
    /// Per node, the bits it reaches without an edge: its own, and those
    /// of the candidates it implies that imply nothing, as a list of bits
    /// (a few per node; `own[own_first[v]..own_first[v + 1]]`), not a
    /// row of the bit matrix.
    own_first: Vec<u32>,
    own: Vec<u32>,
    tarjan: Tarjan,
    /// Per component, the bits it reaches.
    reach: Vec<u64>,
    acc: Vec<u64>,
    /// Per component, the last component its reach went into.
    taken: Vec<u32>,
}

thread_local! {
    static BARREN: RefCell<Graph> = RefCell::new(Graph::default());
    static KEPT: RefCell<Kept> = RefCell::new(Kept::default());
}

/// What a node is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Cell(usize),
    Group(usize),
    /// ALS index; the digit it loses is the node's digit.
    Als(usize),
}

impl<'a> Tabling<'a> {
    fn new(b: &'a Board, nodes: ChainNodes) -> Tabling<'a> {
        let n = b.n();
        let cells = n * n;
        let peers = (0..cells)
            .map(|c| b.tables().peers(c).fold(0, |s, p| s | one(p)))
            .collect();
        let mut holders = vec![0; n];
        for c in 0..cells {
            for d in b.digits(c) {
                holders[d] |= one(c);
            }
        }
        let unit = (0..3 * n)
            .map(|u| b.unit(u).iter().fold(0, |s, &c| s | one(c as usize)))
            .collect();
        let kept = KEPT.with(|k| std::mem::take(&mut *k.borrow_mut()));
        let mut t = Tabling {
            b,
            n,
            peers,
            holders,
            unit,
            groups: Vec::new(),
            groups_of: Buckets::new(n, std::iter::empty),
            alses: Vec::new(),
            on: kept.on,
            off: kept.off,
            ext: Vec::new(),
            ext_of: Vec::new(),
            spare: kept.spare,
            als_links: kept.als_links,
            live: Vec::new(),
        };
        if nodes != ChainNodes::Candidates {
            t.groups = t.find_groups();
            t.groups_of = Buckets::new(n, || {
                t.groups.iter().enumerate().map(|(g, gr)| (gr.digit, g))
            });
        }
        if nodes == ChainNodes::GroupsAndAls {
            t.alses = t.find_alses();
        }
        t.ext_of = vec![NONE; 2 * t.nodes()];
        t
    }

    /// Keeps the tables for the next search, unless they hold more than
    /// [`MAX_KEPT_ENTRIES`] (then the next search starts afresh).
    fn keep(mut self) {
        self.spare.append(&mut self.ext);
        let held: usize = [&self.on, &self.off, &self.spare]
            .iter()
            .flat_map(|tables| tables.iter())
            .map(|t| t.e.capacity())
            .sum();
        if held > MAX_KEPT_ENTRIES {
            return;
        }
        let kept = Kept {
            on: self.on,
            off: self.off,
            spare: self.spare,
            als_links: self.als_links,
        };
        KEPT.with(|k| *k.borrow_mut() = kept);
    }

    fn nodes(&self) -> usize {
        self.n * self.n * self.n + self.groups.len() + self.alses.len() * self.n
    }

    fn cand_key(&self, c: usize, d: usize, on: bool) -> u32 {
        ((c * self.n + d) * 2 + usize::from(on)) as u32
    }

    fn group_key(&self, g: usize, on: bool) -> u32 {
        let base = self.n * self.n * self.n;
        ((base + g) * 2 + usize::from(on)) as u32
    }

    fn als_key(&self, a: usize, d: usize) -> u32 {
        (self.first_als_key() + (a * self.n + d) * 2) as u32
    }

    /// The first ALS node's key: every key below is a candidate's or a
    /// group's.
    fn first_als_key(&self) -> usize {
        (self.n * self.n * self.n + self.groups.len()) * 2
    }

    fn kind(&self, key: u32) -> Kind {
        let id = key as usize / 2;
        let cands = self.n * self.n * self.n;
        if id < cands {
            Kind::Cell(id / self.n)
        } else if id < cands + self.groups.len() {
            Kind::Group(id - cands)
        } else {
            Kind::Als((id - cands - self.groups.len()) / self.n)
        }
    }

    fn digit(&self, key: u32) -> usize {
        let id = key as usize / 2;
        let cands = self.n * self.n * self.n;
        if id < cands {
            id % self.n
        } else if id < cands + self.groups.len() {
            self.groups[id - cands].digit
        } else {
            (id - cands - self.groups.len()) % self.n
        }
    }

    fn is_on(key: u32) -> bool {
        key & 1 == 1
    }

    /// The node's first cell (an ALS: its first cell holding the digit).
    fn cell(&self, key: u32) -> usize {
        match self.kind(key) {
            Kind::Cell(c) => c,
            Kind::Group(g) => self.groups[g].cells.trailing_zeros() as usize,
            Kind::Als(a) => self.alses[a].holders[self.digit(key)].trailing_zeros() as usize,
        }
    }

    /// Every cell of the node (an ALS: all of its cells).
    fn all_cells(&self, key: u32) -> Cells {
        match self.kind(key) {
            Kind::Cell(c) => one(c),
            Kind::Group(g) => self.groups[g].cells,
            Kind::Als(a) => self.alses[a].cells,
        }
    }

    /// The cells that see the whole node, for digit `d` (an ALS: every
    /// holder of `d` in it).
    fn node_buddies(&self, key: u32, d: usize) -> Cells {
        match self.kind(key) {
            Kind::Cell(c) => self.peers[c],
            Kind::Group(g) => self.groups[g].buddies,
            Kind::Als(a) => self.alses[a].seen[d],
        }
    }

    fn sees_all(&self, set: Cells) -> Cells {
        cells_of(set).fold(!0, |s, c| s & self.peers[c])
    }

    /// The group nodes, in [`nice_loops::group_nodes`]' order (line,
    /// digit, box), with the cells that see them.
    fn find_groups(&self) -> Vec<Group> {
        nice_loops::group_nodes(self.b)
            .into_iter()
            .map(|g| {
                let cells = g.cells.iter().fold(0, |s, &c| s | one(c));
                Group {
                    digit: g.digit,
                    cells,
                    line: g.line,
                    boxu: g.boxu,
                    buddies: self.sees_all(cells) & !cells,
                }
            })
            .collect()
    }

    /// Every ALS of two or more cells, in the order
    /// [`als::almost_locked_sets`] finds them (HoDoKu's: unit by unit, depth
    /// first over each unit's cells).
    fn find_alses(&self) -> Vec<Als> {
        let n = self.n;
        let size = AlsSize::all(n, 2);
        als::almost_locked_sets(self.b, size)
            .into_iter()
            .map(|found| {
                let set = found.cells.iter().fold(0, |s, &c| s | one(c));
                let mut holders = [0; MAX_TABLE_SIDE];
                let mut seen = [0; MAX_TABLE_SIDE];
                for d in 0..n {
                    holders[d] = set & self.holders[d];
                    if holders[d] != 0 {
                        seen[d] = self.sees_all(holders[d]) & !set & self.holders[d];
                    }
                }
                let buddies = seen.iter().fold(0, |s, x| s | x);
                let seen_digits = (0..n)
                    .filter(|&d| seen[d] != 0)
                    .fold(0u64, |m, d| m | 1 << d);
                let node_digits = (0..n)
                    .filter(|&j| holders[j] != 0 && seen_digits & !(1 << j) != 0)
                    .fold(0u64, |m, j| m | 1 << j);
                Als {
                    cells: set,
                    mask: found.mask,
                    holders,
                    seen,
                    buddies,
                    node_digits,
                }
            })
            .collect()
    }

    fn ext_table(&mut self, key: u32) -> usize {
        let k = key as usize;
        if self.ext_of[k] == NONE {
            self.ext_of[k] = self.ext.len() as u32;
            let mut t = self.spare.pop().unwrap_or_default();
            t.reset(key);
            self.ext.push(t);
        }
        self.ext_of[k] as usize
    }

    /// The direct implications of every premise.
    fn fill(&mut self) {
        let n = self.n;
        let b = self.b;
        for tables in [&mut self.on, &mut self.off] {
            tables.resize_with(n * n * n, Table::default);
            for t in tables.iter_mut() {
                t.e.clear();
            }
        }
        for c in 0..n * n {
            if b.value(c).is_some() {
                continue;
            }
            let mask = b.mask(c);
            let bivalue = mask.count_ones() == 2;
            for d in bits(mask) {
                let i = c * n + d;
                let mut on = std::mem::take(&mut self.on[i]);
                let mut off = std::mem::take(&mut self.off[i]);
                on.reset(self.cand_key(c, d, true));
                off.reset(self.cand_key(c, d, false));
                // Each key once, as `add` with `once` would keep it: the
                // cell's other digits are distinct, and a peer is taken
                // from the first unit that has it.
                for e in bits(mask & !(1 << d)) {
                    on.push_direct(self.cand_key(c, e, false));
                    if bivalue {
                        off.push_direct(self.cand_key(c, e, true));
                    }
                }
                let others = self.holders[d] & !one(c);
                let (mut weak, mut strong): (Cells, Cells) = (0, 0);
                for u in b.units_of(c) {
                    let places = (self.unit[u] & self.holders[d]).count_ones();
                    if places < 2 {
                        continue;
                    }
                    let here = others & self.unit[u];
                    for x in cells_of(here & !weak) {
                        on.push_direct(self.cand_key(x, d, false));
                    }
                    weak |= here;
                    if places == 2 && here & strong == 0 {
                        strong |= here;
                        let x = here.trailing_zeros() as usize;
                        off.push_direct(self.cand_key(x, d, true));
                    }
                }
                self.on[i] = on;
                self.off[i] = off;
            }
        }
    }

    /// Group nodes: tables of their own, and links from the candidates'.
    fn fill_groups(&mut self) {
        let n = self.n;
        for g in 0..self.groups.len() {
            let (d, cells, line, boxu) = {
                let gr = &self.groups[g];
                (gr.digit, gr.cells, gr.line, gr.boxu)
            };
            let on_t = self.ext_table(self.group_key(g, true));
            let off_t = self.ext_table(self.group_key(g, false));
            let seeing = self.holders[d] & self.groups[g].buddies;
            for x in cells_of(seeing) {
                let k = self.cand_key(x, d, false);
                self.ext[on_t].add(k, true, 0);
                let gk = self.group_key(g, false);
                self.on[x * n + d].add(gk, false, 0);
            }
            for u in [boxu, line] {
                let only = seeing & self.unit[u];
                if only.count_ones() == 1 {
                    let x = only.trailing_zeros() as usize;
                    let k = self.cand_key(x, d, true);
                    self.ext[off_t].add(k, true, 0);
                    let gk = self.group_key(g, true);
                    self.off[x * n + d].add(gk, false, 0);
                }
            }
            // Other groups of the digit that share a unit and no cell.
            let mut first = [None; 2];
            let mut count = [0usize; 2];
            for &h in self.groups_of.get(d) {
                let other = &self.groups[h];
                if h == g || other.cells & cells != 0 {
                    continue;
                }
                for (slot, shared) in [other.line == line, other.boxu == boxu]
                    .into_iter()
                    .enumerate()
                {
                    if shared {
                        count[slot] += 1;
                        first[slot].get_or_insert(h);
                        let hk = self.group_key(h, false);
                        self.ext[on_t].add(hk, false, 0);
                    }
                }
            }
            for (slot, u) in [line, boxu].into_iter().enumerate() {
                if let (1, Some(h)) = (count[slot], first[slot]) {
                    let rest = self.unit[u] & self.holders[d] & !cells & !self.groups[h].cells;
                    if rest == 0 {
                        let hk = self.group_key(h, true);
                        self.ext[off_t].add(hk, false, 0);
                    }
                }
            }
        }
    }

    /// ALS nodes: entered when one of their digits goes; what the locked
    /// set then removes or forces is gathered here in [`AlsLinks`], once per
    /// digit rather than once per digit lost, and read from there by
    /// [`Tabling::surely_barren`] and [`Tabling::expand`].
    fn fill_alses(&mut self) {
        let n = self.n;
        // The groups holding each candidate, in list order.
        let groups_at = Buckets::new(n * n * n, || {
            self.groups
                .iter()
                .enumerate()
                .flat_map(|(g, gr)| cells_of(gr.cells).map(move |c| (c * n + gr.digit, g)))
        });
        // Per digit and cell, the sets whose first holder of the digit is
        // that cell (with their holders and cells): a set all of whose
        // holders lie in a set of cells has its first one there.
        let by_first = Buckets::new(n * n * n, || {
            self.alses.iter().enumerate().flat_map(|(o, als)| {
                als.holders[..n]
                    .iter()
                    .enumerate()
                    .filter(|&(_, &held)| held != 0)
                    .map(move |(l, &held)| {
                        (
                            l * n * n + held.trailing_zeros() as usize,
                            (o, held, als.cells),
                        )
                    })
            })
        });
        let mut links = std::mem::take(&mut self.als_links);
        links.clear();
        let mut open: Vec<(usize, u64, u64)> = Vec::new();
        // Per group, the last ALS node entered from it: a node's key is
        // added to a group's table from each of the group's cells, and
        // only this loop adds ALS keys there, so the table holds the key
        // exactly when this says so (instead of looking through it).
        let mut entered = vec![NONE; self.groups.len()];
        for a in 0..self.alses.len() {
            // What the set removes of each digit: the candidates in the
            // cells that see all its holders, then the groups among those.
            for k in 0..n {
                let of_k = self.groups_of.get(k);
                links.elim_start.push(links.elim.len() as u32);
                let e = self.alses[a].seen[k];
                for x in cells_of(e) {
                    links.elim.push(self.cand_key(x, k, false));
                }
                // (A group has two cells or more.)
                if e.count_ones() >= 2 {
                    for &g in of_k {
                        if self.groups[g].cells & !e == 0 {
                            links.elim.push(self.group_key(g, false));
                        }
                    }
                }
            }
            // The other sets (disjoint) whose every holder of a digit l of
            // the set sees all of this set's holders of l, as (set, l), in
            // order. Whichever digit the set loses, these lose l unless l
            // is that digit.
            let from = links.pair.len();
            links.pair_start.push(from as u32);
            for l in 0..n {
                let e = self.alses[a].seen[l];
                for x in cells_of(e) {
                    for &(o, held, cells) in by_first.get(l * n * n + x) {
                        if held & !e == 0 && o != a && cells & self.alses[a].cells == 0 {
                            links.pair.push((o as u32, l as u32));
                        }
                    }
                }
            }
            links.pair[from..].sort_unstable();
            // The cells that could be left with one candidate: each open
            // cell (but bivalue ones) that sees all the holders of some
            // digit of the set, with its candidates and those digits.
            open.clear();
            for x in cells_of(self.alses[a].buddies) {
                if self.b.value(x).is_some() || self.b.count(x) == 2 {
                    continue;
                }
                let seen = (0..n)
                    .filter(|&l| self.alses[a].seen[l] & one(x) != 0)
                    .fold(0u64, |m, l| m | 1 << l);
                open.push((x, self.b.mask(x), seen));
            }
            for j in 0..n {
                links.forced_start.push(links.forced.len() as u32);
                if !self.als_node(a, j) {
                    continue;
                }
                // A cell left with one candidate is set.
                for &(x, mask, seen) in &open {
                    let left = mask & !(seen & !(1 << j));
                    if left.count_ones() == 1 {
                        links
                            .forced
                            .push(self.cand_key(x, left.trailing_zeros() as usize, true));
                    }
                }
                // The set is entered from every candidate j that sees all
                // its holders of j, and from a group of j holding one, outside
                // the set, whose every cell sees them.
                let key = self.als_key(a, j);
                for x in cells_of(self.alses[a].seen[j]) {
                    self.on[x * n + j].add(key, false, 0);
                    for &g in groups_at.get(x * n + j) {
                        let gr = &self.groups[g];
                        if gr.cells & self.alses[a].cells != 0
                            || self.alses[a].holders[j] & !gr.buddies != 0
                        {
                            continue;
                        }
                        if entered[g] != key {
                            entered[g] = key;
                            let gt = self.ext_table(self.group_key(g, true));
                            self.ext[gt].add(key, false, 0);
                        }
                    }
                }
            }
        }
        links.elim_start.push(links.elim.len() as u32);
        links.pair_start.push(links.pair.len() as u32);
        links.forced_start.push(links.forced.len() as u32);
        self.als_links = links;
    }

    /// Whether set `a` losing digit `j` is a node: it holds `j`, and some
    /// other digit of it has candidates outside that see all its holders.
    fn als_node(&self, a: usize, j: usize) -> bool {
        self.alses[a].node_digits >> j & 1 == 1
    }

    /// The table whose premise is `key`, if there is one.
    fn table_of(&self, key: u32) -> Option<&Table> {
        // (A candidate's keys come first: no need to divide for the kind.)
        let k = key as usize;
        if k < 2 * self.on.len() {
            Some(if Self::is_on(key) {
                &self.on[k / 2]
            } else {
                &self.off[k / 2]
            })
        } else {
            match self.ext_of[k] {
                NONE => None,
                t => Some(&self.ext[t as usize]),
            }
        }
    }

    /// Expands the candidate tables, set-tables first, in cell order: every
    /// one, or after [`Tabling::surely_barren`] those it found may hold a
    /// step.
    fn expand(&mut self) {
        // Every table's direct implications (its entries but the premise),
        // in one list read from each key's range: expanding a table only
        // appends entries marked `expanded` and changes only those, so
        // these stay as they were while the tables grow. A table being
        // expanded is out of its place (it reads as empty), so its own
        // range is skipped.
        let keys = self.ext_of.len();
        // Key `k`'s direct implications are `direct[start[k]..start[k + 1]]`,
        // each its key in the low bits and its distance above
        // (`DIRECT_KEY_BITS`): half the memory of a pair, and the walk below
        // reads these lists in no order.
        let mut start: Vec<u32> = Vec::with_capacity(keys + 1);
        let mut direct: Vec<u32> = Vec::new();
        let n = self.n;
        for key in 0..self.first_als_key() {
            start.push(direct.len() as u32);
            let Some(t) = self.table_of(key as u32) else {
                continue;
            };
            direct.extend(
                t.e.iter()
                    .skip(1)
                    .take_while(|s| !s.expanded)
                    .map(|s| s.key | u32::from(s.dist) << DIRECT_KEY_BITS),
            );
        }
        // The ALS nodes' direct implications, read from `AlsLinks` as the
        // nodes' tables would hold them, entry for entry (a table per node
        // cost as much as the whole walk below, which reads a few): what
        // the set removes of each digit but the one lost (candidates, then
        // groups), the other sets that lose a digit, then the cells it
        // forces one link further, at most a table's entries.
        let links = &self.als_links;
        let pack =
            |key: u32, penalty: u16| key | u32::from((2 + penalty) & 0x1ff) << DIRECT_KEY_BITS;
        for (a, als) in self.alses.iter().enumerate() {
            let penalty = als.penalty();
            for j in 0..n {
                // The node of the set losing j (its key "removed")…
                start.push(direct.len() as u32);
                if self.als_node(a, j) {
                    let first = direct.len();
                    for k in (0..n).filter(|&k| k != j) {
                        direct.extend(links.elims(a, k, n).iter().map(|&key| pack(key, penalty)));
                    }
                    for &(o, l) in links.pairs(a) {
                        if l as usize != j {
                            direct.push(pack(self.als_key(o as usize, l as usize), penalty));
                        }
                    }
                    direct.extend(
                        links
                            .forced(a, j, n)
                            .iter()
                            .map(|&key| pack(key, penalty + 1)),
                    );
                    direct.truncate(first + MAX_ENTRIES - 1);
                }
                // …and its key "set", never a premise.
                start.push(direct.len() as u32);
            }
        }
        assert_eq!(start.len(), keys, "a start for every key");
        start.push(direct.len() as u32);
        assert!(keys < 1 << DIRECT_KEY_BITS, "too many chain nodes");
        // A direct implication is two long (the premise's one and a link)
        // unless an ALS penalty lengthens it.
        const UNIFORM: u16 = 2;
        let uniform = direct
            .iter()
            .all(|&packed| packed >> DIRECT_KEY_BITS == u32::from(UNIFORM));
        // Where each key is in the table being expanded (at most
        // `MAX_ENTRIES`, so a `u16`), or `NOT_IN`.
        const NOT_IN: u16 = u16::MAX;
        let mut pos = vec![NOT_IN; keys];
        // The table being expanded grows here, and is then copied out at
        // its size: one allocation a table, not one per doubling.
        let mut grow: Vec<Entry> = Vec::with_capacity(MAX_ENTRIES);
        for on in [true, false] {
            for i in 0..self.on.len() {
                if self.b.stopped() {
                    return;
                }
                let dest = if on { &self.on[i] } else { &self.off[i] };
                if dest.e.is_empty() || !self.live.is_empty() && !self.live[2 * i + usize::from(on)]
                {
                    continue;
                }
                grow.clear();
                grow.extend_from_slice(&dest.e);
                let premise = grow[0].key;
                for (k, x) in grow.iter().enumerate() {
                    pos[x.key as usize] = k as u16;
                }
                let mut j = 1;
                while j < grow.len() && grow.len() < MAX_ENTRIES {
                    let from = grow[j];
                    if from.key != premise && uniform {
                        // Every link 2 long: the entries come in order of
                        // distance, so an entry found again never has a
                        // shorter route, and only new ones matter.
                        let dist = (from.dist + UNIFORM) & 0x1ff;
                        let k = from.key as usize;
                        for &packed in &direct[start[k] as usize..start[k + 1] as usize] {
                            let key = packed & DIRECT_KEY_MASK;
                            if pos[key as usize] == NOT_IN {
                                if grow.len() == MAX_ENTRIES {
                                    break;
                                }
                                found_anew(&mut grow, &mut pos, key, j, dist);
                            }
                        }
                    } else if from.key != premise {
                        let k = from.key as usize;
                        for &packed in &direct[start[k] as usize..start[k + 1] as usize] {
                            let key = packed & DIRECT_KEY_MASK;
                            let dist = (from.dist + (packed >> DIRECT_KEY_BITS) as u16) & 0x1ff;
                            match pos[key as usize] {
                                NOT_IN => {
                                    if grow.len() < MAX_ENTRIES {
                                        found_anew(&mut grow, &mut pos, key, j, dist);
                                    }
                                }
                                o => {
                                    let old = &mut grow[o as usize];
                                    if old.expanded && old.dist > dist {
                                        old.pred = j as u32;
                                        old.dist = dist;
                                    }
                                }
                            }
                        }
                    }
                    j += 1;
                }
                for x in &grow {
                    pos[x.key as usize] = NOT_IN;
                }
                let dest = if on {
                    &mut self.on[i]
                } else {
                    &mut self.off[i]
                };
                dest.e.clear();
                dest.e.extend_from_slice(&grow);
            }
        }
    }

    /// The chain from table `t`'s premise to its entry `target`, as keys,
    /// premise first, and the cells of every node but the last. `None`
    /// when it is a lasso: a node in a cell an earlier node (not the one
    /// just before it) used — for a loop the premise's cell may come back,
    /// and its last link may not stay inside the first cell.
    fn chain(&self, t: &Table, target: usize, is_loop: bool) -> Option<(Vec<u32>, Cells)> {
        let mut rev = vec![target];
        let mut i = target;
        while i != 0 && rev.len() <= t.e.len() {
            i = t.e[i].pred as usize;
            rev.push(i);
        }
        let keys: Vec<u32> = rev.iter().rev().map(|&i| t.e[i].key).collect();
        let used = keys[..keys.len() - 1]
            .iter()
            .fold(0, |s, &k| s | self.all_cells(k));
        let last = keys.len() - 1;
        if is_loop && self.cell(keys[last]) == self.cell(keys[last - 1]) {
            return None;
        }
        let first_cell = self.cell(keys[0]);
        let mut lasso: Cells = 0;
        for w in 0..keys.len() {
            if lasso & one(self.cell(keys[w])) != 0 {
                return None;
            }
            if w > 0 {
                let prev = keys[w - 1];
                if !is_loop || self.cell(prev) != first_cell {
                    lasso |= self.all_cells(prev);
                }
            }
        }
        Some((keys, used))
    }

    /// HoDoKu's chain length: nodes, and 2.5 more per ALS node.
    fn length(&self, keys: &[u32]) -> usize {
        let als = keys
            .iter()
            .filter(|&&k| matches!(self.kind(k), Kind::Als(_)))
            .count();
        (keys.len() * 2 + als * 5) / 2
    }

    /// Nodes, and each ALS node's penalty.
    fn length_with_penalties(&self, keys: &[u32]) -> usize {
        keys.iter()
            .map(|&k| match self.kind(k) {
                Kind::Als(a) => 1 + usize::from(self.alses[a].penalty()),
                _ => 1,
            })
            .sum()
    }

    fn grouped(&self, keys: &[u32]) -> bool {
        keys.iter().any(|&k| !matches!(self.kind(k), Kind::Cell(_)))
    }

    /// The nice loop closed by entry `j` of table `t`, if it eliminates.
    fn nice_loop(&self, t: &Table, j: usize, found: &mut Found, only_grouped: bool) {
        if t.e[j].dist <= 2 {
            return;
        }
        let Some((nl, used)) = self.chain(t, j, true) else {
            return;
        };
        if self.cell(nl[0]) == self.cell(nl[1]) {
            return;
        }
        let b = self.b;
        // A set premise leaves its cell by a weak link, a removed one by a
        // strong link.
        let first_strong = !Self::is_on(t.e[0].key);
        let last_strong = Self::is_on(t.e[j].key);
        let (sc, ec) = (self.digit(t.e[0].key), self.digit(t.e[j].key));
        let start = self.cell(t.e[0].key);
        let mut elims: Vec<(usize, usize)> = Vec::new();
        let continuous;
        if !first_strong && !last_strong && sc == ec {
            elims.push((start, sc));
            continuous = false;
        } else if first_strong && last_strong && sc == ec {
            elims.extend(b.digits(start).filter(|&d| d != sc).map(|d| (start, d)));
            continuous = false;
        } else if first_strong != last_strong && sc != ec {
            elims.push((start, if first_strong { ec } else { sc }));
            continuous = false;
        } else if (!first_strong && !last_strong && b.count(start) == 2 && sc != ec)
            || (first_strong && last_strong && sc != ec)
            || (first_strong != last_strong && sc == ec)
        {
            continuous = true;
            self.continuous_elims(
                &nl,
                used,
                start,
                (sc, ec),
                (first_strong, last_strong),
                &mut elims,
            );
        } else {
            return;
        }
        if elims.is_empty() {
            return;
        }
        let grouped = self.grouped(&nl);
        if only_grouped && !grouped {
            return;
        }
        let technique = match (continuous, grouped) {
            (true, false) => Technique::ContinuousNiceLoop,
            (true, true) => Technique::GroupedContinuousNiceLoop,
            (false, false) => Technique::DiscontinuousNiceLoop,
            (false, true) => Technique::GroupedDiscontinuousNiceLoop,
        };
        found.offer(self, technique, elims, nl, false);
    }

    /// What a continuous loop removes: in a cell entered and left by strong
    /// links its other candidates; across a weak link between cells the
    /// digit from every cell that sees both nodes (off the chain); around
    /// an ALS its digits that are neither way in nor way out.
    fn continuous_elims(
        &self,
        nl: &[u32],
        used: Cells,
        start: usize,
        (sc, ec): (usize, usize),
        (first_strong, last_strong): (bool, bool),
        elims: &mut Vec<(usize, usize)>,
    ) {
        let b = self.b;
        let end = nl.len() - 1;
        let on = |i: usize| Self::is_on(nl[i]);
        let cell = |i: usize| self.cell(nl[i]);
        for i in 0..=end {
            let two_strong = if i == 0 {
                first_strong && last_strong
            } else {
                on(i)
                    && i + 2 <= end
                    && cell(i - 1) != cell(i)
                    && !on(i + 1)
                    && cell(i) == cell(i + 1)
                    && on(i + 2)
                    && cell(i + 1) != cell(i + 2)
            };
            if two_strong {
                let (c1, c2) = if i == 0 {
                    (sc, ec)
                } else {
                    (self.digit(nl[i]), self.digit(nl[i + 2]))
                };
                let c = cell(i);
                elims.extend(b.digits(c).filter(|&d| d != c1 && d != c2).map(|d| (c, d)));
            }
            if i > 0 && !on(i) && cell(i - 1) != cell(i) {
                let d = self.digit(nl[i]);
                let seen = self.node_buddies(nl[i - 1], d)
                    & self.node_buddies(nl[i], d)
                    & !used
                    & !one(start)
                    & self.holders[d];
                elims.extend(cells_of(seen).map(|c| (c, d)));
                if let Kind::Als(a) = self.kind(nl[i]) {
                    let als = &self.alses[a];
                    let forced = i < end && on(i + 1);
                    let next = cell(i + 1);
                    let exits: u64 = if forced {
                        b.mask(next) & !(1 << self.digit(nl[i + 1]))
                    } else {
                        1 << self.digit(nl[i + 1])
                    };
                    for k in bits(als.mask) {
                        if k == d || exits >> k & 1 == 1 {
                            continue;
                        }
                        elims.extend(cells_of(als.seen[k] & self.holders[k]).map(|c| (c, k)));
                    }
                    if forced {
                        for k in bits(exits) {
                            let s = als.seen[k] & self.peers[next] & self.holders[k];
                            elims.extend(cells_of(s).map(|c| (c, k)));
                        }
                    }
                }
            }
        }
    }

    /// The AIC from the premise "removed" of table `t` to its entry `j`.
    fn aic(&self, t: &Table, j: usize, found: &mut Found, only_grouped: bool) {
        if t.e[j].dist <= 2 {
            return;
        }
        let Some(elims) = self.aic_elims(t.e[0].key, t.e[j].key) else {
            return;
        };
        let Some((keys, _)) = self.chain(t, j, false) else {
            return;
        };
        let grouped = self.grouped(&keys);
        if only_grouped && !grouped {
            return;
        }
        let technique = if grouped {
            Technique::GroupedAic
        } else {
            Technique::Aic
        };
        found.offer(self, technique, elims, keys, true);
    }

    /// What an AIC from `premise` (a candidate removed) to `end` (another
    /// cell's candidate set) removes, whatever the chain between: with the
    /// same digit, the digit from the cells that see both ends, when two
    /// or more (one is a nice loop's); with two digits, each from the
    /// other's cell, when the ends see each other and both are there.
    fn aic_elims(&self, premise: u32, end: u32) -> Option<Vec<(usize, usize)>> {
        let b = self.b;
        let (sc, ec) = (self.digit(premise), self.digit(end));
        let (start, end) = (self.cell(premise), self.cell(end));
        if sc == ec {
            let both = self.peers[start] & self.peers[end] & self.holders[sc];
            (both.count_ones() >= 2).then(|| cells_of(both).map(|c| (c, sc)).collect())
        } else if self.peers[start] & one(end) == 0 || !b.has(end, sc) || !b.has(start, ec) {
            None
        } else {
            Some(vec![(start, ec), (end, sc)])
        }
    }

    /// Whether [`Tabling::search`] will find nothing once the tables are
    /// expanded, told without expanding them. An expanded entry is
    /// something its premise reaches through the direct implications,
    /// neither the premise nor one of those it implies directly (which
    /// [`Tabling::search`] passes over), so when no premise reaches that
    /// way a candidate of its own cell (the end of a nice loop), nor, from
    /// "removed", a candidate set whose AIC would remove something
    /// ([`Tabling::aic_elims`]), there is no step. What each premise
    /// reaches is found for all of them at once on the graph's strongly
    /// connected components, with no cap and lassos allowed, so it holds
    /// every table's entries and more: a "nothing" is always right, and
    /// most searches on the forum's hardest puzzles get it (a test checks
    /// both along their paths). The same holds per premise: only the
    /// tables of premises that may find something are kept live for
    /// [`Tabling::expand`].
    fn surely_barren(&mut self) -> bool {
        let mut live = std::mem::take(&mut self.live);
        let barren = BARREN.with(|g| self.barren_with(&mut g.borrow_mut(), &mut live));
        self.live = live;
        barren
    }

    /// [`Tabling::surely_barren`] on graph buffers `g`, with `live` set per
    /// candidate key.
    fn barren_with(&self, g: &mut Graph, live: &mut Vec<bool>) -> bool {
        let width = 2 * self.n;
        live.clear();
        live.resize(width * self.n * self.n, false);
        let mut any = false;
        self.reaches(g, |g, premise, acc| {
            let p = premise as usize;
            let c = p / width;
            live[p] = (g.cell_bits[c]..g.cell_bits[c + 1]).any(|i| has_bit(acc, i as usize))
                || !Self::is_on(premise)
                    && members(acc).any(|i| {
                        let key = g.bit_key[i];
                        Self::is_on(key) && self.aic_elims(premise, key).is_some()
                    });
            any |= live[p];
        });
        !any
    }

    /// What the premises' reach proves outright ([`proved`]), on graph
    /// buffers `g`.
    fn proved_with(&self, g: &mut Graph) -> Proved {
        let b = self.b;
        let n = self.n;
        let width = 2 * n;
        // Per candidate (cell · n + digit): removed, or set.
        let words = (n * n * n).div_ceil(64);
        let mut gone = vec![0u64; words];
        let mut set = vec![0u64; words];
        let mut unsure = false;
        self.reaches(g, |g, premise, acc| {
            let p = premise as usize;
            let (c, d) = (p / width, p % width / 2);
            let own = g.cell_bits[c] as usize..g.cell_bits[c + 1] as usize;
            if Self::is_on(premise) {
                // Set, it reaches its own removal or another candidate of
                // its cell set: a discontinuous loop, so it is false. Any
                // other way back into its cell proves nothing by itself.
                let mut back = false;
                for i in own.filter(|&i| has_bit(acc, i)) {
                    let key = g.bit_key[i];
                    if key == premise ^ 1 || Self::is_on(key) {
                        set_bit(&mut gone, c * n + d);
                        return;
                    }
                    back = true;
                }
                unsure |= back;
                return;
            }
            // Removed, it reaches a candidate set: one of the two is true
            // (an AIC, or a loop back into its cell).
            for i in members(acc) {
                let key = g.bit_key[i] as usize;
                let (x, e) = (key / width, key % width / 2);
                if !Self::is_on(key as u32) {
                    // Back into its cell removed: a continuous loop, whose
                    // removals other premises prove when it runs through
                    // candidates alone.
                    unsure |= x == c;
                    continue;
                }
                if x == c {
                    if e == d {
                        set_bit(&mut set, c * n + d);
                    } else {
                        let mut any = false;
                        for f in b.digits(c).filter(|&f| f != d && f != e) {
                            set_bit(&mut gone, c * n + f);
                            any = true;
                        }
                        unsure |= !any;
                    }
                } else if e == d {
                    for z in cells_of(self.peers[c] & self.peers[x] & self.holders[d]) {
                        set_bit(&mut gone, z * n + d);
                    }
                } else if self.peers[c] & one(x) != 0 {
                    if b.has(x, d) {
                        set_bit(&mut gone, x * n + d);
                    }
                    if b.has(c, e) {
                        set_bit(&mut gone, c * n + e);
                    }
                }
            }
        });
        let pairs = |s: &[u64]| members(s).map(|i| (i / n, i % n)).collect::<Vec<_>>();
        let (eliminations, placements) = (pairs(&gone), pairs(&set));
        Proved {
            unsure: unsure && eliminations.is_empty() && placements.is_empty(),
            eliminations,
            placements,
        }
    }

    /// Builds [`Tabling::surely_barren`]'s graph in `g` and hands `visit`
    /// each candidate premise that implies something, with the candidates
    /// it reaches (as `g`'s bits), but for itself and those it implies
    /// directly.
    fn reaches(&self, g: &mut Graph, mut visit: impl FnMut(&Graph, u32, &[u64])) {
        let keys = self.ext_of.len();
        let width = 2 * self.n;
        let cand_keys = width * self.n * self.n;
        // Bits: the candidates' keys (those with a table), numbered in
        // order, so that a cell's are consecutive.
        g.bit.clear();
        g.bit.resize(cand_keys, NONE);
        g.bit_key.clear();
        g.cell_bits.clear();
        for c in 0..self.n * self.n {
            g.cell_bits.push(g.bit_key.len() as u32);
            for key in c * width..(c + 1) * width {
                if self.table_of(key as u32).is_some_and(|t| !t.e.is_empty()) {
                    g.bit[key] = g.bit_key.len() as u32;
                    g.bit_key.push(key as u32);
                }
            }
        }
        g.cell_bits.push(g.bit_key.len() as u32);
        let words = g.bit_key.len().div_ceil(64);
        // Nodes: the keys that imply something directly. A key that
        // implies nothing ends every route through it, so a link to it is
        // a bit of what the linking node reaches itself, not an edge. The
        // ALS nodes' links are read from `AlsLinks`, their tables being
        // unwritten: what a set removes of digit k is one relay node, a
        // node of no key that the set's nodes for every digit but k link
        // to (the same routes, with fewer edges).
        let n = self.n;
        let links = &self.als_links;
        g.node.clear();
        g.node.resize(keys, NONE);
        g.key_of.clear();
        // Key by key in order, but by kind: candidates (a table each
        // way), groups (tables in `ext`), then each set's digits (an ALS
        // node only "removed").
        for key in 0..self.first_als_key() {
            if self.table_of(key as u32).is_some_and(|t| t.e.len() > 1) {
                g.node[key] = g.key_of.len() as u32;
                g.key_of.push(key as u32);
            }
        }
        for (a, als) in self.alses.iter().enumerate() {
            for j in bits(als.node_digits) {
                let key = self.als_key(a, j) as usize;
                g.node[key] = g.key_of.len() as u32;
                g.key_of.push(key as u32);
            }
        }
        let keyed = g.key_of.len();
        g.relay.clear();
        g.relay.resize(self.alses.len() * n, NONE);
        g.relay_of.clear();
        for i in 0..self.alses.len() * n {
            if !links.elims(i / n, i % n, n).is_empty() {
                g.relay[i] = g.key_of.len() as u32;
                g.key_of.push(NONE);
                g.relay_of.push(i as u32);
            }
        }
        let nodes = g.key_of.len();
        g.first.clear();
        g.to.clear();
        g.own_first.clear();
        g.own.clear();
        for v in 0..nodes {
            g.first.push(g.to.len() as u32);
            g.own_first.push(g.own.len() as u32);
            let key = g.key_of[v];
            let (node, bit, to, own) = (&g.node, &g.bit, &mut g.to, &mut g.own);
            let link = |k: u32, own: &mut Vec<u32>, to: &mut Vec<u32>| match node[k as usize] {
                NONE if (k as usize) < cand_keys => own.push(bit[k as usize]),
                NONE => {}
                w => to.push(w),
            };
            if v >= keyed {
                let i = g.relay_of[v - keyed] as usize;
                let (a, k) = (i / n, i % n);
                links.elims(a, k, n).iter().for_each(|&e| link(e, own, to));
                for &(o, l) in links.pairs(a) {
                    if l as usize == k {
                        link(self.als_key(o as usize, k), own, to);
                    }
                }
            } else if let Kind::Als(a) = self.kind(key) {
                let j = self.digit(key);
                for k in (0..n).filter(|&k| k != j) {
                    if g.relay[a * n + k] != NONE {
                        to.push(g.relay[a * n + k]);
                    }
                }
                links.forced(a, j, n).iter().for_each(|&f| link(f, own, to));
            } else {
                if (key as usize) < cand_keys {
                    own.push(bit[key as usize]);
                }
                let t = self.table_of(key).expect("a node has a table");
                t.e[1..].iter().for_each(|x| link(x.key, own, to));
            }
        }
        g.first.push(g.to.len() as u32);
        g.own_first.push(g.own.len() as u32);
        g.tarjan.run(&g.first, &g.to);
        // What each component reaches (itself included), after all it
        // links to.
        let comps = g.tarjan.components as usize;
        g.reach.clear();
        g.reach.resize(comps * words, 0);
        // Per component, the last component that took in its reach (a
        // component's many links to one other are taken in once).
        g.taken.clear();
        g.taken.resize(comps, NONE);
        for &v in &g.tarjan.closed {
            let v = v as usize;
            let k = g.tarjan.comp[v] as usize;
            let (done, this) = g.reach.split_at_mut(k * words);
            let this = &mut this[..words];
            for &i in &g.own[g.own_first[v] as usize..g.own_first[v + 1] as usize] {
                set_bit(this, i as usize);
            }
            for &w in &g.to[g.first[v] as usize..g.first[v + 1] as usize] {
                let j = g.tarjan.comp[w as usize] as usize;
                if j != k && g.taken[j] != k as u32 {
                    g.taken[j] = k as u32;
                    or_into(this, &done[j * words..(j + 1) * words]);
                }
            }
        }
        // Each premise with direct implications: what those reach, but
        // for the premise and the direct ones themselves. What a node and
        // all it links to reach is its component's reach: a node alone in
        // its component has just that, and one in a cycle links to a node
        // of its own component, which reaches all the component does.
        let mut acc = std::mem::take(&mut g.acc);
        acc.clear();
        acc.resize(words, 0);
        for v in 0..nodes {
            let premise = g.key_of[v];
            let p = premise as usize;
            if p >= cand_keys {
                break;
            }
            let k = g.tarjan.comp[v] as usize;
            acc.copy_from_slice(&g.reach[k * words..(k + 1) * words]);
            clear_bit(&mut acc, g.bit[p] as usize);
            let t = self.table_of(premise).expect("a node has a table");
            for x in &t.e[1..] {
                let k = x.key as usize;
                if k < cand_keys {
                    clear_bit(&mut acc, g.bit[k] as usize);
                }
            }
            visit(g, premise, &acc);
        }
        g.acc = acc;
    }

    /// Every loop and AIC in the tables.
    fn search(&self, only_grouped: bool) -> Found {
        let mut found = Found::default();
        // The keys of a cell's candidates are `2n·c .. 2n·(c + 1)`, those of
        // the groups and ALSs come after every cell's.
        let width = 2 * self.n as u32;
        let cand_keys = width * (self.n * self.n) as u32;
        for tables in [&self.on, &self.off] {
            for t in tables.iter().filter(|t| !t.e.is_empty()) {
                if self.b.stopped() {
                    return found;
                }
                let lo = t.e[0].key / width * width;
                for j in 1..t.e.len() {
                    let k = t.e[j].key;
                    if (lo..lo + width).contains(&k) {
                        self.nice_loop(t, j, &mut found, only_grouped);
                    }
                }
            }
        }
        for t in self.off.iter().filter(|t| !t.e.is_empty()) {
            let lo = t.e[0].key / width * width;
            for j in 1..t.e.len() {
                let k = t.e[j].key;
                if Self::is_on(k) && k < cand_keys && !(lo..lo + width).contains(&k) {
                    self.aic(t, j, &mut found, only_grouped);
                }
            }
        }
        found
    }

    /// `(5)r1c2`, `(5)r1c23` (a group), `(5)ALS{r1c1 r2c1}` (the set loses
    /// 5).
    fn name(&self, key: u32) -> String {
        let b = self.b;
        match self.kind(key) {
            Kind::Als(a) => {
                let names: Vec<String> = cells_of(self.alses[a].cells)
                    .map(|c| b.cell_name(c))
                    .collect();
                format!("({})ALS{{{}}}", b.symbol(self.digit(key)), names.join(" "))
            }
            _ => {
                let cells: Vec<usize> = cells_of(self.all_cells(key)).collect();
                nice_loops::cells_name(b, self.digit(key), &cells)
            }
        }
    }

    fn step(&self, f: &Offer) -> Step {
        let b = self.b;
        let mut text = self.name(f.keys[0]);
        let mut links = Vec::new();
        let head = |k: u32| (self.cell(k), Value::from_index(self.digit(k)));
        for w in f.keys.windows(2) {
            let strong = Self::is_on(w[1]);
            text.push_str(if strong { " = " } else { " − " });
            text.push_str(&self.name(w[1]));
            links.push(Link {
                from: head(w[0]),
                to: head(w[1]),
                strong,
            });
        }
        let mut candidates: Vec<(usize, Value)> = Vec::new();
        let mut roles = Vec::new();
        let mut sets = 0u8;
        for &k in &f.keys {
            let d = Value::from_index(self.digit(k));
            let role = nice_loops::node_role(Self::is_on(k));
            match self.kind(k) {
                Kind::Als(a) => {
                    let als = &self.alses[a];
                    for c in cells_of(als.cells) {
                        candidates.extend(b.digits(c).map(|d| (c, Value::from_index(d))));
                        roles.extend(
                            b.digits(c)
                                .map(|d| (c, Value::from_index(d), CandidateRole::Set(sets))),
                        );
                    }
                    roles.extend(cells_of(als.holders[self.digit(k)]).map(|c| (c, d, role)));
                    sets = sets.saturating_add(1);
                }
                _ => {
                    candidates.extend(cells_of(self.all_cells(k)).map(|c| (c, d)));
                    roles.extend(cells_of(self.all_cells(k)).map(|c| (c, d, role)));
                }
            }
        }
        roles.dedup();
        candidates.sort_unstable();
        candidates.dedup();
        let eliminations: Vec<(usize, Value)> = f
            .elims
            .iter()
            .map(|&(c, d)| (c, Value::from_index(d)))
            .collect();
        // A discontinuous loop's premise and end, both in the start cell.
        let ends = matches!(
            f.technique,
            Technique::DiscontinuousNiceLoop | Technique::GroupedDiscontinuousNiceLoop
        )
        .then(|| {
            let (first, last) = (f.keys[0], f.keys[f.keys.len() - 1]);
            LoopEnds {
                cell: self.cell(first),
                first: (self.digit(first), Self::is_on(first)),
                last: (self.digit(last), Self::is_on(last)),
            }
        });
        let explanation = nice_loops::explanation(b, f.technique, &text, ends);
        nice_loops::chain_step(
            f.technique,
            candidates,
            links,
            roles,
            explanation,
            eliminations,
        )
    }
}

/// A step found: its technique, eliminations (sorted) and chain.
struct Offer {
    technique: Technique,
    elims: Vec<(usize, usize)>,
    keys: Vec<u32>,
    length: usize,
}

/// The steps found, one per set of eliminations unless a later one has a
/// shorter chain (HoDoKu keeps both then).
#[derive(Default)]
struct Found {
    list: Vec<Offer>,
    by_elims: HashMap<Vec<(usize, usize)>, usize>,
}

impl Found {
    fn offer(
        &mut self,
        t: &Tabling<'_>,
        technique: Technique,
        mut elims: Vec<(usize, usize)>,
        keys: Vec<u32>,
        aic: bool,
    ) {
        elims.sort_unstable();
        elims.dedup();
        let mut length = t.length(&keys);
        match self.by_elims.get(&elims) {
            Some(&i) if self.list[i].length <= length => return,
            Some(_) => {}
            // HoDoKu measures a new AIC's chain with its sets' own penalties.
            None if aic => length = t.length_with_penalties(&keys),
            None => {}
        }
        self.by_elims.insert(elims.clone(), self.list.len());
        self.list.push(Offer {
            technique,
            elims,
            keys,
            length,
        });
    }
}

/// The tables of `b` with their direct implications, not yet expanded.
fn filled(b: &Board, nodes: ChainNodes) -> Tabling<'_> {
    let mut t = Tabling::new(b, nodes);
    t.fill();
    if nodes != ChainNodes::Candidates {
        t.fill_groups();
    }
    if nodes == ChainNodes::GroupsAndAls {
        t.fill_alses();
    }
    t
}

/// Every nice loop and AIC of the position with these nodes, shortest
/// chains first.
fn all_steps(b: &Board, nodes: ChainNodes) -> Vec<Step> {
    let mut t = filled(b, nodes);
    if t.surely_barren() {
        t.keep();
        return Vec::new();
    }
    t.expand();
    let found = t.search(nodes != ChainNodes::Candidates);
    let mut offers: Vec<&Offer> = found.list.iter().collect();
    offers.sort_by_key(|f| (f.length, std::cmp::Reverse(f.elims.len())));
    let steps = offers.into_iter().map(|f| t.step(f)).collect();
    t.keep();
    steps
}

/// What every nice loop and AIC of a position with these nodes removes
/// and sets, as one batch and without the chains: what the implication
/// graph of [`Tabling::surely_barren`] proves (with no cap on a table and
/// lassos allowed, so never less than the tables find, and each
/// conclusion one a chain of direct implications proves). For walks that
/// only ask whether chains get a position further, such as the
/// generator's test of "past Expert or not".
pub(crate) struct Proved {
    /// Candidates removed, as (cell, digit).
    pub(crate) eliminations: Vec<(usize, usize)>,
    /// Candidates set, as (cell, digit).
    pub(crate) placements: Vec<(usize, usize)>,
    /// Nothing was proved, yet some premise comes back into its own cell
    /// in a way the tables may make a step of (a continuous loop): then
    /// only the tables can tell.
    pub(crate) unsure: bool,
}

/// [`Proved`] for a position of side at most [`MAX_TABLE_SIDE`].
pub(super) fn proved(b: &Board, nodes: ChainNodes) -> Proved {
    let t = filled(b, nodes);
    let proved = BARREN.with(|g| t.proved_with(&mut g.borrow_mut()));
    t.keep();
    proved
}

/// The tables' steps for every thread, by kind of nodes and position:
/// the path walk and the rating walk of a grade meet the same positions,
/// often at once (`kept.rs`).
static STEPS: kept::Kept<ChainNodes> = kept::Kept::new(kept::ROOM);

/// This thread's last position asked with each kind of nodes, and its
/// steps: the three techniques of a kind share one set of tables, asked
/// for one after the other, which this answers without a lock.
struct Cache {
    key: (ChainNodes, Vec<u64>),
    steps: Vec<Step>,
}

thread_local! {
    /// One slot per kind of nodes.
    static LAST: RefCell<Vec<Cache>> = const { RefCell::new(Vec::new()) };
}

/// The steps of technique `technique` (a nice loop or AIC, with the
/// `nodes` it may use) in a position of side at most [`MAX_TABLE_SIDE`].
pub(super) fn steps(b: &Board, nodes: ChainNodes, technique: Technique) -> Vec<Step> {
    let key = (nodes, b.position_key());
    let cached = LAST.with(|l| {
        l.borrow()
            .iter()
            .find(|c| c.key == key)
            .map(|c| c.steps.clone())
    });
    let all = match cached {
        Some(s) => s,
        None => {
            let s = STEPS.get_or_search(key.clone(), b, || all_steps(b, nodes));
            if !b.stopped() {
                LAST.with(|l| {
                    let mut l = l.borrow_mut();
                    l.retain(|c| c.key.0 != nodes);
                    l.push(Cache {
                        key,
                        steps: s.clone(),
                    });
                });
            }
            s
        }
    };
    all.into_iter()
        .filter(|s| s.technique == technique)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Shape;
    use crate::engine::logic::tests::{
        FORUM_HARDEST, along_path, empty6, library_als_loop, only_at, set, v, v0,
    };
    use crate::engine::logic::{SearchOptions, find_all, find_all_with};
    use crate::engine::solve::{Outcome, solve};
    use crate::engine::trace::NoTrace;
    use crate::engine::{Grid, Limits, Puzzle};

    fn has(steps: &[Step], elims: &[(usize, Value)]) -> bool {
        steps.iter().any(|s| s.eliminations == elims)
    }

    const LOOPS: [Technique; 3] = [
        Technique::Aic,
        Technique::DiscontinuousNiceLoop,
        Technique::ContinuousNiceLoop,
    ];

    const GROUPED: [Technique; 3] = [
        Technique::GroupedAic,
        Technique::GroupedDiscontinuousNiceLoop,
        Technique::GroupedContinuousNiceLoop,
    ];

    #[test]
    fn a_search_told_barren_finds_nothing() {
        // Along the paths of two of the forum's hardest puzzles, at every
        // position, with and without groups and ALSs.
        let (mut told, mut barren, mut found) = (0, 0, 0);
        for text in FORUM_HARDEST {
            let end = along_path(text, |b, _| {
                for nodes in [ChainNodes::Candidates, ChainNodes::GroupsAndAls] {
                    let grouped = nodes != ChainNodes::Candidates;
                    let offers = |f: Found| {
                        f.list
                            .into_iter()
                            .map(|o| (o.technique, o.elims, o.keys, o.length))
                            .collect::<Vec<_>>()
                    };
                    // Every table expanded, as a search not told anything.
                    let mut all = filled(b, nodes);
                    all.expand();
                    let everything = offers(all.search(grouped));
                    let mut t = filled(b, nodes);
                    let sure = t.surely_barren();
                    // Only the tables whose premise may find something.
                    t.expand();
                    let live = offers(t.search(grouped));
                    assert!(live == everything, "{text}: the live tables find otherwise");
                    let steps = live.len();
                    t.keep();
                    if steps > 0 {
                        assert!(!sure, "{text}: {steps} steps in a search told barren");
                        found += 1;
                    } else {
                        barren += 1;
                        told += usize::from(sure);
                    }
                }
            });
            assert!(end.is_solved(), "{text}");
        }
        println!("{found} searches found steps; {told} of {barren} that found none were told");
        assert!(found > 10 && barren > 50, "{found} {barren}");
        // Most barren searches are told (154 of 162 here).
        assert!(told * 10 >= barren * 9, "{told} of {barren}");
    }

    #[test]
    fn what_the_graph_proves_is_true_and_never_less_than_the_tables() {
        // Along the paths of the forum's hardest puzzles, at every
        // position: what `proved` removes is not the solution's digit and
        // what it sets is; when the tables find a step (plain or grouped),
        // it proves something or says only the tables can tell; and most
        // of what the tables remove it removes too.
        let (mut positions, mut stepped, mut unsure, mut more) = (0, 0, 0, 0);
        let (mut removed, mut also) = (0, 0);
        for text in FORUM_HARDEST {
            let p = crate::engine::format::parse_one(text, "path").unwrap();
            let Outcome::Solved(sol) = solve(&p, &Limits::none(), &mut NoTrace) else {
                panic!("{text}: not unique");
            };
            let end = along_path(text, |b, _| {
                positions += 1;
                let got = proved(b, ChainNodes::GroupsAndAls);
                for &(c, d) in &got.eliminations {
                    assert!(b.has(c, d), "{text}: removes a candidate not there");
                    assert_ne!(sol.get(c).index(), d, "{text}: removes the solution");
                }
                for &(c, d) in &got.placements {
                    assert_eq!(sol.get(c).index(), d, "{text}: sets a wrong digit");
                }
                let nothing = got.eliminations.is_empty() && got.placements.is_empty();
                assert!(
                    !got.unsure || nothing,
                    "unsure is only told when nothing is"
                );
                unsure += usize::from(got.unsure);
                let steps: Vec<Step> = [ChainNodes::Candidates, ChainNodes::GroupsAndAls]
                    .into_iter()
                    .flat_map(|nodes| all_steps(b, nodes))
                    .collect();
                if steps.is_empty() {
                    more += usize::from(!nothing);
                    return;
                }
                stepped += 1;
                assert!(
                    !nothing || got.unsure,
                    "{text}: the tables find a step, proved nothing"
                );
                let placed: Vec<usize> = got.placements.iter().map(|&(c, _)| c).collect();
                for s in &steps {
                    for &(c, v) in &s.eliminations {
                        removed += 1;
                        also += usize::from(
                            got.eliminations.contains(&(c, v.index())) || placed.contains(&c),
                        );
                    }
                }
            });
            assert!(end.is_solved(), "{text}");
        }
        println!(
            "{positions} positions, {stepped} with table steps ({also} of their {removed} \
             removals proved), {more} proved more than the tables, {unsure} unsure"
        );
        assert!(stepped > 10, "{stepped}");
        assert!(also * 10 >= removed * 9, "{also} of {removed}");
    }

    #[test]
    fn aic_on_6x6() {
        // (1)r1c1 = (2)r1c1 − (2)r1c5 = (2)r5c5 − (2)r5c2 = (1)r5c2: r1c1
        // and r5c2 hold {1,2}, 2 in column 5 only at r1c5 and r5c5.
        let mut b = empty6();
        set(&mut b, 0, 0b11);
        set(&mut b, 25, 0b11);
        only_at(&mut b, 6 + 4, 1, &[4, 28]);
        let ones = vec![(1, v0(0)), (7, v0(0)), (24, v0(0)), (30, v0(0))];
        let aics = find_all(&b, Technique::Aic);
        assert!(has(&aics, &ones), "{aics:#?}");
        let s = aics.iter().find(|s| s.eliminations == ones).unwrap();
        assert_eq!(s.highlights.links.len(), 5);
        assert!(
            s.explanation.contains("(1)r1c1 = (2)r1c1 − (2)r1c5")
                || s.explanation.contains("(1)r5c2 = (2)r5c2 − (2)r5c5"),
            "{}",
            s.explanation
        );
        // Each of those 1s also goes by a discontinuous loop through it.
        let dnl = find_all(&b, Technique::DiscontinuousNiceLoop);
        assert!(has(&dnl, &[(1, v0(0))]), "{dnl:#?}");
        // Once the 1s are gone, no AIC is left.
        let mut b2 = b.clone();
        for &(c, val) in &ones {
            b2.remove(c, val.index());
        }
        assert!(!has(&find_all(&b2, Technique::Aic), &ones));
        // An empty board proves nothing.
        let e = empty6();
        for t in LOOPS.into_iter().chain(GROUPED) {
            assert!(find_all(&e, t).is_empty(), "{t:?}");
        }
    }

    /// (1)r1c1 = (1)r4c1 − (4)r4c1 = (4)r4c4 − (3)r4c4 = (3)r1c4 −
    /// (2)r1c4 = (2)r1c1 − (1)r1c1 on 6×6: every link between cells is a
    /// conjugate pair; r1c1 {1,2,5}, r4c1 {1,4}, r4c4 {3,4,6}, r1c4 {2,3,6}.
    fn loop_board(conjugate_2: bool) -> Board {
        let mut b = empty6();
        only_at(&mut b, 6, 0, &[0, 18]);
        only_at(&mut b, 3, 3, &[18, 21]);
        only_at(&mut b, 6 + 3, 2, &[3, 21]);
        if conjugate_2 {
            only_at(&mut b, 0, 1, &[0, 3]);
        }
        for (c, m) in [(0, 0b10011), (18, 0b1001), (21, 0b101100), (3, 0b100110)] {
            set(&mut b, c, m);
        }
        b
    }

    #[test]
    fn continuous_loop_on_6x6() {
        // Each cell entered and left by strong links keeps only their two
        // digits: r1c1<>5, r1c4<>6, r4c4<>6.
        let steps = find_all(&loop_board(true), Technique::ContinuousNiceLoop);
        let want = vec![(0, v0(4)), (3, v0(5)), (21, v0(5))];
        assert!(has(&steps, &want), "{steps:#?}");
        assert!(steps.iter().all(|s| s.eliminations == want), "{steps:#?}");
        let s = &steps[0];
        assert_eq!(s.highlights.links.len(), 7);
        assert!(
            s.explanation.contains("closes on itself"),
            "{}",
            s.explanation
        );
        // With 2 free elsewhere in row 1 the loop is open.
        assert!(find_all(&loop_board(false), Technique::ContinuousNiceLoop).is_empty());
        // A loop of bivalue cells only is never closed by the tables: each
        // cell's other digit is a direct consequence, not a loop's end.
        let mut b = empty6();
        for (c, m) in [(0, 0b0011), (3, 0b0110), (21, 0b1100), (18, 0b1001)] {
            set(&mut b, c, m);
        }
        assert!(find_all(&b, Technique::ContinuousNiceLoop).is_empty());
    }

    #[test]
    fn grouped_chains_on_6x6() {
        let (b, sol) = als_6x6();
        let groups = SearchOptions {
            als_in_chains: false,
            ..SearchOptions::default()
        };
        // (4)r2c3 = (6)r2c3 − (6)r2c6 = (6)r12c5 − (6)r6c5 = (2)r6c5 −
        // (2)r6c1 = (4)r6c1: r2c1 and r5c3 see both ends.
        let want = vec![(6, v(4)), (26, v(4))];
        let aic = find_all_with(&b, Technique::GroupedAic, groups);
        assert!(has(&aic, &want), "{aic:#?}");
        let s = aic.iter().find(|s| s.eliminations == want).unwrap();
        assert!(s.explanation.contains("(6)r12c5"), "{}", s.explanation);
        // (4)r2c2 − (4)r2c1 = (4)r56c1 − (4)r5c3 = (4)r2c3 − (4)r2c2.
        let dnl = find_all_with(&b, Technique::GroupedDiscontinuousNiceLoop, groups);
        assert!(has(&dnl, &[(7, v(4))]), "{dnl:#?}");
        for s in aic.iter().chain(&dnl) {
            assert!(s.explanation.contains("r12c5") || s.explanation.contains("r56c1"));
            for &(c, val) in &s.eliminations {
                assert_ne!(sol.get(c), val, "{}", s.explanation);
            }
        }
        // (1)r1c1 = (1)r1c56 − (1)r2c4 = (1)r5c4 on an empty 6×6: r5c1 sees
        // both ends. One elimination: the discontinuous loop through
        // (1)r5c1, not an AIC.
        let mut b = empty6();
        only_at(&mut b, 0, 0, &[0, 4, 5]);
        only_at(&mut b, 6 + 3, 0, &[9, 27]);
        let aic = find_all(&b, Technique::GroupedAic);
        assert!(!has(&aic, &[(24, v0(0))]), "{aic:#?}");
        let dnl = find_all(&b, Technique::GroupedDiscontinuousNiceLoop);
        assert!(has(&dnl, &[(24, v0(0))]), "{dnl:#?}");
        assert!(find_all(&b, Technique::DiscontinuousNiceLoop).is_empty());
    }

    /// The first position of a generated 6×6 expert puzzle (seed 1), where
    /// grouped AICs pass through almost locked sets, and its solution.
    fn als_6x6() -> (Board, Grid) {
        let text = "...4.1...2....1.4.6.5........3.531..";
        let values: Vec<Option<Value>> = text
            .chars()
            .map(|ch| ch.to_digit(10).map(|d| v(d as usize)))
            .collect();
        let shape = Shape::new(2, 3).unwrap();
        let p = Puzzle::new(shape, values.clone()).unwrap();
        let Outcome::Solved(sol) = solve(&p, &Limits::none(), &mut NoTrace) else {
            panic!("the puzzle has one solution");
        };
        let mut b = Board::from_values(shape, &values).unwrap();
        b.set_known_unique(true);
        (b, sol)
    }

    #[test]
    fn als_nodes_on_6x6() {
        let (b, sol) = als_6x6();
        // (6)r5c2 = (6)r5c3 − (6)ALS{r5c4 r5c5} − (2)r6c5 = (6)r6c5: without
        // 6 the set {r5c4 r5c5} holds 2, 4 and 5, so r6c5 is not 2.
        let want = vec![(27, v(6)), (28, v(6))];
        let with = find_all(&b, Technique::GroupedAic);
        assert!(has(&with, &want), "{with:#?}");
        let s = with.iter().find(|s| s.eliminations == want).unwrap();
        assert!(s.explanation.contains("ALS{"), "{}", s.explanation);
        let without = find_all_with(
            &b,
            Technique::GroupedAic,
            SearchOptions {
                als_in_chains: false,
                ..SearchOptions::default()
            },
        );
        assert!(without.iter().all(|s| !s.explanation.contains("ALS{")));
        assert!(without.len() < with.len());
        // Every step of every chain technique here is sound.
        for t in LOOPS.into_iter().chain(GROUPED) {
            for s in find_all(&b, t) {
                for &(c, val) in &s.eliminations {
                    assert_ne!(sol.get(c), val, "{}", s.explanation);
                }
            }
        }
    }

    #[test]
    fn a_loop_through_an_als_that_forces_a_cell() {
        let (b, want) = library_als_loop();
        let t = Technique::GroupedContinuousNiceLoop;
        assert!(has(&find_all(&b, t), &want));
        let off = SearchOptions {
            als_in_chains: false,
            ..SearchOptions::default()
        };
        assert!(!has(&find_all_with(&b, t, off), &want));
    }

    #[test]
    fn the_cache_tells_positions_and_modes_apart() {
        let (b, _) = als_6x6();
        let grouped = find_all(&b, Technique::GroupedAic);
        let plain = find_all(&b, Technique::Aic);
        assert!(grouped.iter().all(|s| s.technique == Technique::GroupedAic));
        assert!(plain.iter().all(|s| s.technique == Technique::Aic));
        // Asked again, in another order, the answers are the same.
        assert_eq!(find_all(&b, Technique::GroupedAic), grouped);
        let mut b2 = b.clone();
        b2.remove(27, 5);
        let after = find_all(&b2, Technique::GroupedAic);
        assert!(!has(&after, &[(27, v(6)), (28, v(6))]), "{after:#?}");
        assert_eq!(find_all(&b, Technique::Aic), plain);
    }

    /// Along solution paths of generated 8×8 puzzles (2×4 boxes, so
    /// groups of up to four cells) no step removes a solution value, and
    /// the techniques fire. (9×9 and 6×6 are walked in the aic tests,
    /// through the same `find_all`.)
    #[test]
    fn sound_on_8x8() {
        let techniques: Vec<Technique> = LOOPS.into_iter().chain(GROUPED).collect();
        let shape = Shape::new(2, 4).unwrap();
        let fired = crate::engine::logic::tests::sound_along_paths(shape, 1..=3, &techniques);
        assert!(fired[0] > 0 && fired[3] > 0, "{fired:?}");
    }
}
