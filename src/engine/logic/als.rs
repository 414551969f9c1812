//! Almost locked sets: ALS-XZ, ALS-XY-Wing, ALS chains, Death Blossom, and
//! Sue de Coq.
//!
//! An almost locked set (ALS) is k unsolved cells of one unit holding k + 1
//! candidates between them (a bivalue cell is the smallest). Take one of its
//! values away and the rest are locked in it. A *restricted common
//! candidate* (RCC) x of two ALSs is a value both hold where every x of one
//! sees every x of the other: x can be in at most one of them, so the other
//! is locked on its remaining values. Every technique here chains that fact.
//!
//! Overlap: ALS-XZ pairs disjoint ALSs only. The chain links overlapping
//! ALSs, and so do the XY-Wing and Death Blossom when asked (`overlap`, as
//! the solver does; HoDoKu's "allow ALS overlap"), as long as no shared cell
//! holds the RCC (an RCC's places in the two ALSs are then distinct cells
//! that all see each other, which is all the proofs use). Death Blossom
//! petals may then share cells with each other, never with the stem.
//! Without `overlap`, no two ALSs of an XY-Wing or a blossom share a cell.
//! (The chain search keeps overlap: it is breadth first with pruning, and
//! without the overlapping links it misses chains of disjoint sets that a
//! longer detour would find.)
//!
//! [`almost_locked_sets`] is the one enumeration of ALSs: these techniques,
//! and the chain searches of [`super::tables`] and [`super::aic`] (which use
//! ALSs as nodes), all take their sets from it, each with its own
//! [`AlsSize`]. The techniques here find a position's ALSs once per call,
//! smallest first, of every size on boards up to 9×9 and up to
//! [`MAX_ALS_CELLS_LARGE`] cells beyond, keeping [`MAX_ALS_COUNT`] sets; chains stop at
//! [`MAX_CHAIN_ALS`] ALSs and [`MAX_CHAIN_STATES`] search states, a blossom
//! search at [`MAX_BLOSSOM_NODES`] petal choices, a Sue de Coq at
//! [`MAX_SDC_CORE`] intersection cells and, beyond 9×9,
//! [`MAX_SDC_GROUP_LARGE`] cells per side group. The caps only make the
//! search miss patterns; every step found is sound. Steps with the same
//! eliminations are reported once (the first found). Like HoDoKu, a doubly
//! linked ALS-XZ leaves the cells of its two sets alone. Shape-agnostic.

use std::cell::RefCell;
use std::collections::VecDeque;

use foldhash::HashSet;
use smallvec::SmallVec;
use std::rc::Rc;

use crate::engine::grid::Value;

use super::board::bits;
use super::cellset::{and_into, as_u128, disjoint, has_bit, is_empty, members, set_bit, subset};
use super::{Board, CandidateRole, Highlights, Link, Step, Technique};

/// Largest ALS the ALS techniques take, in cells, on boards larger than
/// 9×9 (up to 9×9 they take every size; see [`AlsSize`]).
pub const MAX_ALS_CELLS_LARGE: usize = 4;
/// Most ALSs kept per position (the smallest ones); bounds the pair search
/// on large boards.
pub const MAX_ALS_COUNT: usize = 600;
/// Longest ALS chain searched, in ALSs (chains of 2 and 3 ALSs are ALS-XZ
/// and ALS-XY-Wing).
pub const MAX_CHAIN_ALS: usize = 7;
/// Most search states an ALS chain search visits per position.
pub const MAX_CHAIN_STATES: usize = 100_000;
/// Most candidates of a Death Blossom stem cell.
pub const MAX_STEM_CANDIDATES: usize = 4;
/// Most petal choices a Death Blossom search makes per position.
pub const MAX_BLOSSOM_NODES: usize = 200_000;
/// Most cells of a Sue de Coq's line–box intersection.
pub const MAX_SDC_CORE: usize = 4;
/// Most cells of a Sue de Coq's line or box group on boards larger than 9×9
/// (up to 9×9 every group is tried).
pub const MAX_SDC_GROUP_LARGE: usize = 3;

/// Words of the largest cell set (64×64 cells).
const MAX_WORDS: usize = 64;

/// Cell sets of `w` words each, stored one after another.
struct Sets {
    w: usize,
    data: Vec<u64>,
}

impl Sets {
    fn new(w: usize) -> Sets {
        Sets {
            w,
            data: Vec::new(),
        }
    }

    /// Appends an empty set and returns its index.
    fn push(&mut self) -> usize {
        let i = self.data.len() / self.w;
        self.data.resize(self.data.len() + self.w, 0);
        i
    }

    fn get(&self, i: usize) -> &[u64] {
        &self.data[i * self.w..(i + 1) * self.w]
    }

    fn get_mut(&mut self, i: usize) -> &mut [u64] {
        &mut self.data[i * self.w..(i + 1) * self.w]
    }
}

/// One almost locked set.
struct Als {
    /// Its cells, ascending.
    cells: Vec<usize>,
    /// Its candidates.
    mask: u64,
    /// A unit holding it.
    unit: usize,
    /// The values it could eliminate: those some other cell with that
    /// candidate sees in all its places.
    useful: u64,
    /// Index of its cell set in [`Ctx::sets`]; its digits' sets follow: for
    /// the k-th digit of `mask`, the cells holding it at `set + 1 + 2k` and
    /// the cells that see all of those at `set + 2 + 2k`.
    set: usize,
}

/// What every ALS technique needs: the ALSs, their cell sets, peers.
struct Ctx<'a> {
    b: &'a Board,
    data: Rc<CtxData>,
    /// Whether linked ALSs may share cells (see the module comment).
    allow_overlap: bool,
}

/// A [`Ctx`]'s tables, which depend on the position alone: the ALS-XY-Wing
/// and ALS chain searches of one position share them (see [`Ctx::new`]).
struct CtxData {
    /// `peers[c]`: the cells c sees.
    peers: Sets,
    /// `cand[d]`: the cells with candidate d.
    cand: Sets,
    sets: Sets,
    alss: Vec<Als>,
    /// For each ALS, the others it has an RCC with (overlapping or not),
    /// and those RCCs, once searched in full.
    edges: RefCell<Option<Rc<Edges>>>,
    /// Up to 128 cells (9×9 and smaller), for the pair tests every two
    /// ALSs go through ([`Ctx::rcc`], [`Ctx::pair_useful`], the edges): per
    /// digit `d` and ALS `a`, at `d * alss + a`, the cells of `a` holding
    /// `d` (all bits set where `a` lacks `d`, so that no set sees them) and
    /// the cells that see all of them (none where `a` lacks `d`), each set
    /// one `u128`; `cand` likewise. Empty on larger boards.
    narrow_on: Vec<u128>,
    narrow_seen: Vec<u128>,
    narrow_cand: Vec<u128>,
}

type Edges = Vec<Vec<(usize, u64)>>;

impl std::ops::Deref for Ctx<'_> {
    type Target = CtxData;

    fn deref(&self) -> &CtxData {
        &self.data
    }
}

thread_local! {
    /// The last context built, with its position's key.
    static LAST: RefCell<Option<(Vec<u64>, Rc<CtxData>)>> = const { RefCell::new(None) };
}

impl CtxData {
    /// Peers and candidate places, without ALSs.
    fn tables(b: &Board) -> CtxData {
        let cells = b.shape().cells();
        let w = cells.div_ceil(64);
        let mut peers = Sets::new(w);
        for c in 0..cells {
            let i = peers.push();
            let s = peers.get_mut(i);
            for p in b.tables().peers(c) {
                set_bit(s, p);
            }
        }
        let mut cand = Sets::new(w);
        for _ in 0..b.n() {
            cand.push();
        }
        for c in 0..cells {
            for d in b.digits(c) {
                set_bit(cand.get_mut(d), c);
            }
        }
        CtxData {
            peers,
            cand,
            sets: Sets::new(w),
            alss: Vec::new(),
            edges: RefCell::new(None),
            narrow_on: Vec::new(),
            narrow_seen: Vec::new(),
            narrow_cand: Vec::new(),
        }
    }

    /// Fills the narrow copies of the sets (once every ALS is added), on
    /// boards of at most 128 cells.
    fn narrow(&mut self) {
        if self.sets.w > 2 {
            return;
        }
        let n = self.cand.data.len() / self.cand.w;
        let k = self.alss.len();
        self.narrow_on = vec![u128::MAX; n * k];
        self.narrow_seen = vec![0; n * k];
        for (a, als) in self.alss.iter().enumerate() {
            for (i, d) in bits(als.mask).enumerate() {
                self.narrow_on[d * k + a] = as_u128(self.sets.get(als.set + 1 + 2 * i));
                self.narrow_seen[d * k + a] = as_u128(self.sets.get(als.set + 2 + 2 * i));
            }
        }
        self.narrow_cand = self.cand.data.chunks(self.cand.w).map(as_u128).collect();
    }

    fn add_als(&mut self, b: &Board, cells: Vec<usize>, mask: u64, unit: usize) {
        let w = self.sets.w;
        let set = self.sets.push();
        for &c in &cells {
            set_bit(self.sets.get_mut(set), c);
        }
        let mut on = vec![0u64; w];
        let mut seen = vec![0u64; w];
        let mut useful = 0;
        for d in bits(mask) {
            on.fill(0);
            seen.fill(u64::MAX);
            for &c in cells.iter().filter(|&&c| b.has(c, d)) {
                set_bit(&mut on, c);
                and_into(&mut seen, self.peers.get(c));
            }
            if !disjoint(&seen, self.cand.get(d)) {
                useful |= 1 << d;
            }
            let i = self.sets.push();
            self.sets.get_mut(i).copy_from_slice(&on);
            let j = self.sets.push();
            self.sets.get_mut(j).copy_from_slice(&seen);
        }
        self.alss.push(Als {
            cells,
            mask,
            unit,
            useful,
            set,
        });
    }
}

impl<'a> Ctx<'a> {
    /// The context of the position; the last one built (per thread) when
    /// it was for the same position.
    fn new(b: &'a Board, overlap: bool) -> Ctx<'a> {
        let key = b.position_key();
        let kept = LAST.with(|last| {
            last.borrow()
                .as_ref()
                .filter(|(k, _)| *k == key)
                .map(|(_, data)| Rc::clone(data))
        });
        if let Some(data) = kept {
            return Ctx {
                b,
                data,
                allow_overlap: overlap,
            };
        }
        let mut data = CtxData::tables(b);
        let size = AlsSize::capped(b.n(), 1, MAX_ALS_CELLS_LARGE);
        let mut found = almost_locked_sets(b, size);
        found.sort_by(|x, y| (x.cells.len(), &x.cells).cmp(&(y.cells.len(), &y.cells)));
        found.truncate(MAX_ALS_COUNT);
        for als in found {
            data.add_als(b, als.cells, als.mask, als.unit);
        }
        data.narrow();
        let data = Rc::new(data);
        if !b.stopped() {
            LAST.with(|last| *last.borrow_mut() = Some((key, Rc::clone(&data))));
        }
        Ctx {
            b,
            data,
            allow_overlap: overlap,
        }
    }

    fn all(&self, a: usize) -> &[u64] {
        self.sets.get(self.alss[a].set)
    }

    fn rank(&self, a: usize, d: usize) -> usize {
        (self.alss[a].mask & ((1u64 << d) - 1)).count_ones() as usize
    }

    /// The cells of ALS `a` holding `d` (which it must hold).
    fn on(&self, a: usize, d: usize) -> &[u64] {
        self.sets.get(self.alss[a].set + 1 + 2 * self.rank(a, d))
    }

    /// The cells that see every `d` of ALS `a` (which must hold `d`).
    fn seen(&self, a: usize, d: usize) -> &[u64] {
        self.sets.get(self.alss[a].set + 2 + 2 * self.rank(a, d))
    }

    /// The restricted common candidates of ALSs `a` and `c` (they may
    /// overlap; an RCC is never in a shared cell).
    fn rcc(&self, a: usize, c: usize) -> u64 {
        let mut r = 0;
        for x in bits(self.alss[a].mask & self.alss[c].mask) {
            if subset(self.on(c, x), self.seen(a, x)) {
                r |= 1 << x;
            }
        }
        r
    }

    fn overlap(&self, a: usize, c: usize) -> bool {
        !disjoint(self.all(a), self.all(c))
    }

    /// Whether ALSs `a` and `c` may take part in one step together: always
    /// when overlap is allowed, else only when they share no cell.
    fn may_link(&self, a: usize, c: usize) -> bool {
        self.allow_overlap || !self.overlap(a, c)
    }

    /// For each ALS, the others it has an RCC with and may link to, and
    /// those RCCs, in the order of the others.
    fn edges(&self) -> Rc<Edges> {
        let all = self.all_edges();
        if self.allow_overlap {
            return all;
        }
        Rc::new(
            all.iter()
                .enumerate()
                .map(|(a, e)| {
                    e.iter()
                        .copied()
                        .filter(|&(c, _)| !self.overlap(a, c))
                        .collect()
                })
                .collect(),
        )
    }

    /// For each ALS, the others it has an RCC with, overlapping or not,
    /// and those RCCs, in the order of the others (kept with the context
    /// when the search was not stopped).
    fn all_edges(&self) -> Rc<Edges> {
        if let Some(e) = self.data.edges.borrow().as_ref() {
            return Rc::clone(e);
        }
        let mut e = vec![Vec::new(); self.alss.len()];
        let whole = if self.narrow_on.is_empty() {
            self.wide_edges(&mut e)
        } else {
            self.narrow_edges(&mut e)
        };
        let e = Rc::new(e);
        if whole {
            *self.data.edges.borrow_mut() = Some(Rc::clone(&e));
        }
        e
    }

    /// [`Ctx::all_edges`] pair by pair; false when the board's limits
    /// stopped it.
    fn wide_edges(&self, e: &mut Edges) -> bool {
        for a in 0..self.alss.len() {
            if self.b.stopped() {
                return false;
            }
            for c in a + 1..self.alss.len() {
                if self.alss[a].mask & self.alss[c].mask == 0 {
                    continue;
                }
                let r = self.rcc(a, c);
                if r != 0 {
                    e[a].push((c, r));
                    e[c].push((a, r));
                }
            }
        }
        true
    }

    /// [`Ctx::all_edges`] on a narrow board: for each ALS, its RCCs with
    /// every later one found digit by digit over the later ones in a row
    /// (an ALS lacking the digit never passes: its cells are all bits);
    /// false when the board's limits stopped it.
    fn narrow_edges(&self, e: &mut Edges) -> bool {
        let k = self.alss.len();
        let mut r = vec![0u64; k];
        for a in 0..k {
            if self.b.stopped() {
                return false;
            }
            let later = &mut r[a + 1..];
            later.fill(0);
            for x in bits(self.alss[a].mask) {
                let seen = !self.narrow_seen[x * k + a];
                let on = &self.narrow_on[x * k + a + 1..(x + 1) * k];
                for (m, &o) in later.iter_mut().zip(on) {
                    *m |= u64::from(o & seen == 0) << x;
                }
            }
            for (i, &m) in later.iter().enumerate() {
                if m != 0 {
                    let c = a + 1 + i;
                    e[a].push((c, m));
                    e[c].push((a, m));
                }
            }
        }
        true
    }

    /// The ALSs that may be the petal of value `d` of stem cell `s`: they
    /// hold `d`, leave `s` out, and `s` sees all their places for `d` (on
    /// a narrow board one test: `s` holds `d`, so an ALS holding `s` has
    /// `s` among those places, which `s` does not see).
    fn petals(&self, s: usize, d: usize) -> Vec<usize> {
        let k = self.alss.len();
        if self.narrow_on.is_empty() {
            return (0..k)
                .filter(|&a| {
                    self.alss[a].mask >> d & 1 == 1
                        && !has_bit(self.all(a), s)
                        && subset(self.on(a, d), self.peers.get(s))
                })
                .collect();
        }
        let unseen = !as_u128(self.peers.get(s));
        self.narrow_on[d * k..(d + 1) * k]
            .iter()
            .enumerate()
            .filter(|&(_, &on)| on & unseen == 0)
            .map(|(a, _)| a)
            .collect()
    }

    /// [`Ctx::pair_useful`] of `a` with every ALS, into `out`: nothing up
    /// to `a`, then each later one (on a narrow board digit by digit over
    /// the later ones in a row: one that lacks the digit sees no cell).
    fn pair_row(&self, a: usize, out: &mut [u64]) {
        out[..=a].fill(0);
        if self.narrow_on.is_empty() {
            for (c, m) in out.iter_mut().enumerate().skip(a + 1) {
                *m = self.pair_useful(a, c);
            }
            return;
        }
        let k = self.alss.len();
        let later = &mut out[a + 1..];
        later.fill(0);
        for z in bits(self.alss[a].useful) {
            let seen = self.narrow_seen[z * k + a] & self.narrow_cand[z];
            let theirs = &self.narrow_seen[z * k + a + 1..(z + 1) * k];
            for (m, &t) in later.iter_mut().zip(theirs) {
                *m |= u64::from(t & seen != 0) << z;
            }
        }
    }

    /// The values common to ALSs `a` and `c` that some cell holding them
    /// sees in all their places in both.
    fn pair_useful(&self, a: usize, c: usize) -> u64 {
        let mut m = 0;
        if !self.narrow_on.is_empty() {
            let k = self.alss.len();
            for z in bits(self.alss[a].useful & self.alss[c].useful) {
                let seen = &self.narrow_seen[z * k..];
                if self.narrow_cand[z] & seen[a] & seen[c] != 0 {
                    m |= 1 << z;
                }
            }
            return m;
        }
        for z in bits(self.alss[a].useful & self.alss[c].useful) {
            let (p, q, r) = (self.cand.get(z), self.seen(a, z), self.seen(c, z));
            if (0..p.len()).any(|i| p[i] & q[i] & r[i] != 0) {
                m |= 1 << z;
            }
        }
        m
    }

    /// The cells holding `z` that lie in every one of `sets`, as eliminations.
    fn targets(&self, z: usize, sets: &[&[u64]], out: &mut Vec<(usize, Value)>) {
        let mut buf = [0u64; MAX_WORDS];
        let acc = &mut buf[..self.peers.w];
        acc.copy_from_slice(self.cand.get(z));
        for s in sets {
            and_into(acc, s);
        }
        out.extend(members(acc).map(|c| (c, Value::from_index(z))));
    }

    /// `{r1c2, r1c5} (358)`.
    fn name(&self, a: usize) -> String {
        let als = &self.alss[a];
        format!(
            "{{{}}} ({})",
            als.cells
                .iter()
                .map(|&c| self.b.cell_name(c))
                .collect::<Vec<_>>()
                .join(", "),
            self.b.symbols(als.mask)
        )
    }

    /// The first cell of ALS `a` holding `d`.
    fn first_on(&self, a: usize, d: usize) -> usize {
        members(self.on(a, d))
            .next()
            .unwrap_or(self.alss[a].cells[0])
    }

    /// A weak link between the RCC `x` of ALSs `a` and `c`.
    fn rcc_link(&self, a: usize, c: usize, x: usize) -> Link {
        let v = Value::from_index(x);
        Link {
            from: (self.first_on(a, x), v),
            to: (self.first_on(c, x), v),
            strong: false,
        }
    }

    /// Highlights for the ALSs `list` (plus extra cells and links).
    fn highlights(&self, list: &[usize], extra: &[usize], links: Vec<Link>) -> Highlights {
        let mut cells: Vec<usize> = list
            .iter()
            .flat_map(|&a| self.alss[a].cells.iter().copied())
            .chain(extra.iter().copied())
            .collect();
        cells.sort_unstable();
        cells.dedup();
        let mut units: Vec<usize> = list.iter().map(|&a| self.alss[a].unit).collect();
        units.dedup();
        let mut h = Highlights {
            candidates: all_candidates(self.b, &cells),
            cells,
            units,
            links,
            ..Highlights::default()
        };
        for (k, &a) in list.iter().enumerate() {
            let role = CandidateRole::Set(u8::try_from(k).unwrap_or(u8::MAX));
            for (c, v) in all_candidates(self.b, &self.alss[a].cells) {
                h.add_role(c, v, role);
            }
        }
        h
    }
}

/// Every candidate of `cells`.
fn all_candidates(b: &Board, cells: &[usize]) -> Vec<(usize, Value)> {
    cells
        .iter()
        .flat_map(|&c| b.digits(c).map(move |d| (c, Value::from_index(d))))
        .collect()
}

/// An almost locked set as [`almost_locked_sets`] finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct FoundAls {
    /// Its cells, ascending.
    pub(super) cells: Vec<usize>,
    /// Their candidates: one more than there are cells.
    pub(super) mask: u64,
    /// The first unit holding it (rows, then columns, then boxes).
    pub(super) unit: usize,
}

/// How many cells the ALSs of one search may have. Every search takes every
/// size on boards up to 9×9; beyond, where the number of sets explodes, each
/// caller names its own cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct AlsSize {
    /// The fewest cells (1: a bivalue cell is an ALS).
    pub(super) min: usize,
    /// The most cells.
    pub(super) max: usize,
}

impl AlsSize {
    /// Sets of `min` cells or more, of every size: at most n − 1 cells on
    /// a board of side `n` (n cells cannot hold n + 1 values).
    pub(super) fn all(n: usize, min: usize) -> AlsSize {
        AlsSize {
            min,
            max: n.saturating_sub(1),
        }
    }

    /// As [`AlsSize::all`] up to 9×9, and at most `large` cells beyond.
    pub(super) fn capped(n: usize, min: usize, large: usize) -> AlsSize {
        let all = AlsSize::all(n, min);
        if n <= 9 {
            all
        } else {
            AlsSize {
                max: all.max.min(large),
                ..all
            }
        }
    }
}

/// Every almost locked set of the position within `size`: k unsolved cells
/// of one unit holding k + 1 candidates between them. Each set comes once,
/// from the first unit holding it; units in order (rows, columns, boxes),
/// and within a unit depth first over its cells in order, so a set comes
/// before its extensions. Stops early (with what it has) when the board's
/// limits say stop.
pub(super) fn almost_locked_sets(b: &Board, size: AlsSize) -> Vec<FoundAls> {
    let mut found = Vec::new();
    for u in 0..3 * b.n() {
        if b.stopped() {
            break;
        }
        let free: Vec<usize> = b
            .unit(u)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| b.value(c).is_none() && b.mask(c) != 0)
            .collect();
        let mut chosen = Vec::new();
        collect(b, u, &free, 0, 0, size, &mut chosen, &mut found);
    }
    found
}

/// Adds to `out` every ALS among `free[from..]` extending `chosen` (whose
/// candidates are `mask`) within `size`. A set lying in a row is reported
/// from the row only, one in a column from the column only.
#[allow(clippy::too_many_arguments)]
fn collect(
    b: &Board,
    u: usize,
    free: &[usize],
    from: usize,
    mask: u64,
    size: AlsSize,
    chosen: &mut Vec<usize>,
    out: &mut Vec<FoundAls>,
) {
    for i in from..free.len() {
        let m = mask | b.mask(free[i]);
        if m.count_ones() as usize > size.max + 1 {
            continue;
        }
        chosen.push(free[i]);
        if chosen.len() >= size.min
            && m.count_ones() as usize == chosen.len() + 1
            && !found_elsewhere(b, u, chosen)
        {
            out.push(FoundAls {
                cells: chosen.clone(),
                mask: m,
                unit: u,
            });
        }
        if chosen.len() < size.max {
            collect(b, u, free, i + 1, m, size, chosen, out);
        }
        chosen.pop();
    }
}

/// Whether a set of cells of unit `u` also lies in a unit listed earlier
/// (rows, then columns, then boxes).
fn found_elsewhere(b: &Board, u: usize, cells: &[usize]) -> bool {
    let kind = u / b.n();
    let first = b.units_of(cells[0]);
    (0..kind).any(|k| cells.iter().all(|&c| b.units_of(c)[k] == first[k]))
}

/// Steps kept once per (pattern digits, eliminations).
#[derive(Default)]
struct Found {
    seen: HashSet<(u64, Vec<(usize, Value)>)>,
    steps: Vec<Step>,
}

impl Found {
    /// Sorts `elims`; whether they are new for `key` (and not empty).
    fn fresh(&mut self, key: u64, elims: &mut Vec<(usize, Value)>) -> bool {
        elims.sort_unstable();
        elims.dedup();
        !elims.is_empty() && self.seen.insert((key, elims.clone()))
    }
}

fn step(technique: Technique, elims: Vec<(usize, Value)>, h: Highlights, text: String) -> Step {
    Step {
        technique,
        placements: Vec::new(),
        eliminations: elims,
        highlights: h,
        explanation: text,
    }
}

/// ALS-XZ: two disjoint ALSs A and B with a restricted common candidate x.
/// x is in at most one of them, so the other is locked: any other common
/// value z is in A or in B, and leaves every cell that sees all its places
/// in both. Doubly linked (two RCCs x and y): each ALS is locked without
/// one of x, y, so its other values leave every cell that sees all their
/// places in it, and x and y leave cells that see all their places in both.
pub fn als_xz(b: &Board) -> Vec<Step> {
    let ctx = Ctx::new(b, false);
    let mut found = Found::default();
    // (The later ALS searches of the position reuse these links.)
    let edges = ctx.all_edges();
    for (a, e) in edges.iter().enumerate() {
        if b.stopped() {
            break;
        }
        for &(c, r) in e.iter().filter(|&&(c, _)| c > a) {
            let common = ctx.alss[a].mask & ctx.alss[c].mask;
            if common.count_ones() < 2 || ctx.overlap(a, c) {
                continue;
            }
            let mut elims = Vec::new();
            let doubly = r.count_ones() >= 2;
            if doubly {
                // Cells of the other set are left alone (as HoDoKu does),
                // though a value locked in one set cannot be in the other.
                let outside: Vec<u64> = ctx
                    .all(a)
                    .iter()
                    .zip(ctx.all(c))
                    .map(|(x, y)| !(x | y))
                    .collect();
                for p in [a, c] {
                    for d in bits(ctx.alss[p].mask & !r) {
                        ctx.targets(d, &[ctx.seen(p, d), &outside], &mut elims);
                    }
                }
                for x in bits(r) {
                    ctx.targets(x, &[ctx.seen(a, x), ctx.seen(c, x)], &mut elims);
                }
            } else {
                for z in bits(common & !r) {
                    ctx.targets(z, &[ctx.seen(a, z), ctx.seen(c, z)], &mut elims);
                }
            }
            if !found.fresh(0, &mut elims) {
                continue;
            }
            let links = bits(r).map(|x| ctx.rcc_link(a, c, x)).collect();
            let text = if doubly {
                format!(
                    "{}: doubly linked, the almost locked sets {} and {} share the \
                     restricted common values {} (each place of one sees each place in the \
                     other); each set is locked without one of them, so its other values stay \
                     in it and {} each stay in one of the two: they leave every cell that sees \
                     all their places there",
                    Technique::AlsXz.name(),
                    ctx.name(a),
                    ctx.name(c),
                    b.symbols(r),
                    b.symbols(r),
                )
            } else {
                format!(
                    "{}: the almost locked sets {} and {} share the restricted common value \
                     {} (every {} of one sees every {} of the other), so one of them is locked \
                     without it and holds {}; {} leaves every cell that sees all its places in \
                     both",
                    Technique::AlsXz.name(),
                    ctx.name(a),
                    ctx.name(c),
                    b.symbol(digit(r)),
                    b.symbol(digit(r)),
                    b.symbol(digit(r)),
                    b.symbols(common & !r),
                    b.symbols(common & !r),
                )
            };
            found.steps.push(step(
                Technique::AlsXz,
                elims,
                ctx.highlights(&[a, c], &[], links),
                text,
            ));
        }
    }
    found.steps
}

/// The single digit of a one-bit mask (the lowest of several).
fn digit(mask: u64) -> usize {
    mask.trailing_zeros() as usize
}

/// ALS-XY-Wing: ALS C has an RCC x with ALS A and an RCC y ≠ x with ALS B.
/// C cannot lose both x and y, so A lacks x or B lacks y, and the other of
/// them is locked: a value z common to A and B (not x or y) is in A or B and
/// leaves every cell that sees all its places in both.
pub fn als_xy_wings(b: &Board, overlap: bool) -> Vec<Step> {
    let ctx = Ctx::new(b, overlap);
    let edges = ctx.edges();
    let mut found = Found::default();
    for (c, e) in edges.iter().enumerate() {
        if b.stopped() {
            break;
        }
        // Outer sets that could take part in an elimination.
        let e: Vec<(usize, u64)> = e
            .iter()
            .copied()
            .filter(|&(a, _)| ctx.alss[a].useful != 0)
            .collect();
        for (i, &(a, ra)) in e.iter().enumerate() {
            for &(d, rd) in &e[i + 1..] {
                let zs = ctx.pair_useful(a, d);
                if zs == 0 || !ctx.may_link(a, d) {
                    continue;
                }
                for x in bits(ra) {
                    for y in bits(rd & !(1 << x)) {
                        let z = zs & !(1 << x) & !(1 << y);
                        let mut elims = Vec::new();
                        for z in bits(z) {
                            ctx.targets(z, &[ctx.seen(a, z), ctx.seen(d, z)], &mut elims);
                        }
                        if !found.fresh(0, &mut elims) {
                            continue;
                        }
                        let links = vec![ctx.rcc_link(a, c, x), ctx.rcc_link(c, d, y)];
                        let text = format!(
                            "{}: the almost locked set {} has the restricted common \
                             value {} with {} and {} with {}; it cannot lose both, so one of \
                             the outer sets is locked and holds {}; {} leaves every cell that \
                             sees all its places in both",
                            Technique::AlsXyWing.name(),
                            ctx.name(c),
                            b.symbol(x),
                            ctx.name(a),
                            b.symbol(y),
                            ctx.name(d),
                            b.symbols(z),
                            b.symbols(z),
                        );
                        found.steps.push(step(
                            Technique::AlsXyWing,
                            elims,
                            ctx.highlights(&[a, c, d], &[], links),
                            text,
                        ));
                    }
                }
            }
        }
    }
    found.steps
}

/// ALS chain: ALSs A1 – A2 – … – Ak (4 ≤ k ≤ [`MAX_CHAIN_ALS`]), each
/// linked to the next by an RCC, consecutive RCCs different. If A1 lacks a
/// value z it is locked and holds the first RCC, so A2 lacks it and holds
/// the second, …, so Ak holds z. A value z common to A1 and Ak (not the
/// first or the last RCC) leaves every cell that sees all its places in
/// both. Found by breadth-first search over (ALS, incoming RCC) from each
/// start and first link, so each result comes with its shortest chain.
pub fn als_chains(b: &Board) -> Vec<Step> {
    let ctx = Ctx::new(b, true);
    let edges = ctx.edges();
    let n = b.n();
    let k = ctx.alss.len();
    let mut found = Found::default();
    // State s = als * n + incoming RCC. An ALS is entered at most twice
    // per search, with different incoming RCCs: two cover every value it
    // may pass on or eliminate (each excludes a different one).
    let mut parent = vec![usize::MAX; k * n];
    let mut depth = vec![0usize; k * n];
    let mut entered = vec![(0u32, 0usize, 0u8); k];
    let mut round = 0u32;
    let mut budget = MAX_CHAIN_STATES;
    let mut queue = VecDeque::new();
    // pz[c]: the values the current start and ALS c could eliminate.
    let mut pz = vec![0u64; k];
    for a in 0..k {
        if b.stopped() {
            break;
        }
        if ctx.alss[a].useful == 0 {
            continue;
        }
        let mut partners = 0usize;
        let mut any = 0u64;
        ctx.pair_row(a, &mut pz);
        for &m in &pz[a + 1..] {
            if m != 0 {
                partners += 1;
                any |= m;
            }
        }
        for r1 in bits(ctx.alss[a].mask) {
            if any & !(1 << r1) == 0 {
                continue;
            }
            round += 1;
            queue.clear();
            // Partners not yet entered twice.
            let mut pending = partners;
            for &(first, rm) in &edges[a] {
                if rm >> r1 & 1 == 1 {
                    let s0 = first * n + r1;
                    entered[first] = (round, r1, 1);
                    parent[s0] = usize::MAX;
                    depth[s0] = 2;
                    queue.push_back(s0);
                }
            }
            while let Some(s) = queue.pop_front() {
                if budget == 0 {
                    break;
                }
                budget -= 1;
                let (c, rin) = (s / n, s % n);
                let z = pz[c] & !(1 << r1) & !(1 << rin);
                // Each chain is found from both ends: it is reported from
                // the lower one (pz is empty below a).
                if depth[s] >= 4 && z != 0 {
                    let mut elims = Vec::new();
                    for z in bits(z) {
                        ctx.targets(z, &[ctx.seen(a, z), ctx.seen(c, z)], &mut elims);
                    }
                    if found.fresh(0, &mut elims) {
                        let path = walk_back(&parent, s);
                        found.steps.push(chain_step(&ctx, a, &path, z, elims));
                    }
                }
                // Every partner is entered twice: nothing new lies further.
                if depth[s] >= MAX_CHAIN_ALS || pending == 0 {
                    continue;
                }
                for &(e, em) in &edges[c] {
                    if e == a {
                        continue;
                    }
                    let (when, first_rin, times) = entered[e];
                    let open = if when != round {
                        em & !(1 << rin)
                    } else if times == 1 {
                        em & !(1 << rin) & !(1 << first_rin)
                    } else {
                        0
                    };
                    let Some(r) = bits(open).next() else {
                        continue;
                    };
                    if on_path(&parent, s, e, n) {
                        continue;
                    }
                    entered[e] = if when != round {
                        (round, r, 1)
                    } else {
                        pending -= usize::from(pz[e] != 0);
                        (round, first_rin, 2)
                    };
                    let t = e * n + r;
                    parent[t] = s;
                    depth[t] = depth[s] + 1;
                    queue.push_back(t);
                    // A second value into a fresh ALS.
                    if when != round
                        && let Some(r2) = bits(open & !(1 << r)).next()
                    {
                        entered[e] = (round, r, 2);
                        pending -= usize::from(pz[e] != 0);
                        let t = e * n + r2;
                        parent[t] = s;
                        depth[t] = depth[s] + 1;
                        queue.push_back(t);
                    }
                }
            }
        }
    }
    found.steps
}

/// The states from the first to `s`.
fn walk_back(parent: &[usize], mut s: usize) -> Vec<usize> {
    let mut path = vec![s];
    while parent[s] != usize::MAX {
        s = parent[s];
        path.push(s);
    }
    path.reverse();
    path
}

/// Whether ALS `e` is on the path leading to state `s`.
fn on_path(parent: &[usize], mut s: usize, e: usize, n: usize) -> bool {
    loop {
        if s / n == e {
            return true;
        }
        if parent[s] == usize::MAX {
            return false;
        }
        s = parent[s];
    }
}

fn chain_step(ctx: &Ctx<'_>, a: usize, path: &[usize], z: u64, elims: Vec<(usize, Value)>) -> Step {
    let b = ctx.b;
    let n = b.n();
    let mut list = vec![a];
    let mut links = Vec::new();
    let mut text = ctx.name(a);
    for &s in path {
        let (c, r) = (s / n, s % n);
        links.push(ctx.rcc_link(list[list.len() - 1], c, r));
        text.push_str(&format!(" –{}– {}", b.symbol(r), ctx.name(c)));
        list.push(c);
    }
    let last = list[list.len() - 1];
    let explanation = format!(
        "{}: {text} (almost locked sets linked by restricted common values); if the \
         first set lacks {} it is locked, each link passes the lock on, and the last set holds \
         {}; so {} is in the first or the last set and leaves every cell that sees all its \
         places in {} and {}",
        Technique::AlsChain.name(),
        b.symbols(z),
        b.symbols(z),
        b.symbols(z),
        ctx.name(a),
        ctx.name(last),
    );
    step(
        Technique::AlsChain,
        elims,
        ctx.highlights(&list, &[], links),
        explanation,
    )
}

/// Death Blossom: a stem cell whose every candidate d has a petal, an ALS
/// (without the stem) holding d whose every d sees the stem. Whatever the
/// stem holds, that petal loses it and is locked. A value z that every
/// other petal holds leaves the cells that see all its places in those
/// petals (and the stem, when the stem may be z).
pub fn death_blossoms(b: &Board, overlap: bool) -> Vec<Step> {
    let ctx = Ctx::new(b, overlap);
    let mut found = Found::default();
    let mut budget = MAX_BLOSSOM_NODES;
    for s in 0..b.shape().cells() {
        if b.stopped() {
            break;
        }
        let sm = b.mask(s);
        if b.value(s).is_some() || !(2..=MAX_STEM_CANDIDATES).contains(&(sm.count_ones() as usize))
        {
            continue;
        }
        let mut petals: Vec<(usize, Vec<usize>)> =
            bits(sm).map(|d| (d, ctx.petals(s, d))).collect();
        if petals.iter().any(|(_, l)| l.is_empty()) {
            continue;
        }
        petals.sort_by_key(|(_, l)| l.len());
        // Targets per candidate z before any petal: its places, seeing the
        // stem when the stem may be z.
        let w = ctx.peers.w;
        let mut start = vec![0u64; b.n() * w];
        let mut live = 0u64;
        for z in 0..b.n() {
            let t = &mut start[z * w..(z + 1) * w];
            t.copy_from_slice(ctx.cand.get(z));
            if sm >> z & 1 == 1 {
                and_into(t, ctx.peers.get(s));
            }
            if !is_empty(t) {
                live |= 1 << z;
            }
        }
        let mut levels = vec![start];
        levels.resize(petals.len() + 1, vec![0u64; b.n() * w]);
        let mut search = Blossom {
            ctx: &ctx,
            stem: s,
            petals: &petals,
            chosen: Vec::new(),
            levels,
            budget: &mut budget,
            found: &mut found,
        };
        search.grow(live);
        if budget == 0 {
            break;
        }
    }
    found.steps
}

/// One stem's petal search.
struct Blossom<'c, 'a> {
    ctx: &'c Ctx<'a>,
    stem: usize,
    /// The candidates of the stem, each with the ALSs that can be its petal.
    petals: &'c [(usize, Vec<usize>)],
    chosen: Vec<usize>,
    /// `levels[k]`: the target cells of each value (w words per value)
    /// once k petals are chosen.
    levels: Vec<Vec<u64>>,
    budget: &'c mut usize,
    found: &'c mut Found,
}

impl Blossom<'_, '_> {
    /// Chooses a petal for the next stem candidate; `live` are the values z
    /// still eliminable.
    fn grow(&mut self, live: u64) {
        let ctx = self.ctx;
        let w = ctx.peers.w;
        let k = self.chosen.len();
        if k == self.petals.len() {
            self.report(live);
            return;
        }
        let (d, ref list) = self.petals[k];
        for &p in list {
            if *self.budget == 0 {
                return;
            }
            if !self.chosen.iter().all(|&q| ctx.may_link(p, q)) {
                continue;
            }
            *self.budget -= 1;
            let mut l = live & (ctx.alss[p].mask | 1 << d);
            let (done, rest) = self.levels.split_at_mut(k + 1);
            let (cur, next) = (&done[k], &mut rest[0]);
            for z in bits(l) {
                let t = &mut next[z * w..(z + 1) * w];
                t.copy_from_slice(&cur[z * w..(z + 1) * w]);
                if z == d {
                    continue;
                }
                and_into(t, ctx.seen(p, z));
                if is_empty(t) {
                    l &= !(1 << z);
                }
            }
            if l == 0 {
                continue;
            }
            self.chosen.push(p);
            self.grow(l);
            self.chosen.pop();
        }
    }

    fn report(&mut self, live: u64) {
        let ctx = self.ctx;
        let b = ctx.b;
        let w = ctx.peers.w;
        let targets = &self.levels[self.chosen.len()];
        let mut elims = Vec::new();
        for z in bits(live) {
            elims.extend(members(&targets[z * w..(z + 1) * w]).map(|c| (c, Value::from_index(z))));
        }
        if !self.found.fresh(0, &mut elims) {
            return;
        }
        let mut links = Vec::new();
        let mut parts = Vec::new();
        for (&(d, _), &p) in self.petals.iter().zip(&self.chosen) {
            let v = Value::from_index(d);
            for c in members(ctx.on(p, d)) {
                links.push(Link {
                    from: (self.stem, v),
                    to: (c, v),
                    strong: false,
                });
            }
            parts.push(format!("{} → {}", b.symbol(d), ctx.name(p)));
        }
        let text = format!(
            "{}: stem {} ({}) with petals {}; whatever the stem holds, that \
             value's petal loses it and is locked, so {} is in a petal (or the stem) and \
             leaves every cell that sees all its places there",
            Technique::DeathBlossom.name(),
            b.cell_name(self.stem),
            b.symbols(b.mask(self.stem)),
            parts.join(", "),
            b.symbols(live),
        );
        let h = ctx.highlights(&self.chosen, &[self.stem], links);
        self.found
            .steps
            .push(step(Technique::DeathBlossom, elims, h, text));
    }
}

/// A group of cells beside a Sue de Coq intersection: its cells, their
/// candidates, and how many more cells than candidates outside the
/// intersection's values it has.
struct Group {
    /// At most 6 at 9×9 (a line or box beside three intersection cells),
    /// [`MAX_SDC_GROUP_LARGE`] above: inline, as the search makes many.
    cells: SmallVec<[usize; 6]>,
    mask: u64,
    gain: usize,
}

/// Every group of `pool`'s cells (each sharing a value with `v`) of at most
/// `max` cells with a gain from 1 to `top`.
fn groups(b: &Board, pool: &[usize], v: u64, max: usize, top: usize) -> Vec<Group> {
    let mut out = Vec::new();
    // Depth-first over index combinations: the chosen indices, the
    // candidates after each, and the next index to try.
    let mut chosen: Vec<usize> = Vec::new();
    let mut masks = vec![0u64];
    let mut next = 0;
    loop {
        if next < pool.len() && chosen.len() < max {
            let m = masks[chosen.len()] | b.mask(pool[next]);
            chosen.push(next);
            masks.push(m);
            next += 1;
            let outside = (m & !v).count_ones() as usize;
            if outside < chosen.len() && chosen.len() - outside <= top {
                out.push(Group {
                    cells: chosen.iter().map(|&i| pool[i]).collect(),
                    mask: m,
                    gain: chosen.len() - outside,
                });
            }
        } else {
            let Some(last) = chosen.pop() else { break };
            masks.pop();
            next = last + 1;
        }
    }
    out
}

/// Sue de Coq: cells C where a line meets a box, holding values V with at
/// least two more values than cells; a group L of the line's other cells
/// and a group B of the box's other cells, sharing no candidate, such that
/// C, L and B hold exactly as many values as cells. No value can sit twice
/// in the pattern (a repeat would need one in L and one in B), so each of
/// its values sits there exactly once: L's values and the values of V that
/// B lacks leave the rest of the line; B's values and the values of V that
/// L lacks leave the rest of the box.
pub fn sue_de_coq(b: &Board) -> Vec<Step> {
    let n = b.n();
    let shape = b.shape();
    let group_max = if n <= 9 { n } else { MAX_SDC_GROUP_LARGE };
    let mut found = Found::default();
    let free = |c: usize| b.value(c).is_none() && b.mask(c) != 0;
    for bx in 2 * n..3 * n {
        if b.stopped() {
            break;
        }
        let box_cells: Vec<usize> = b.unit(bx).iter().map(|&c| c as usize).collect();
        let mut lines: Vec<usize> = box_cells
            .iter()
            .flat_map(|&c| [b.units_of(c)[0], b.units_of(c)[1]])
            .collect();
        lines.sort_unstable();
        lines.dedup();
        for &line in &lines {
            let line_cells: Vec<usize> = b.unit(line).iter().map(|&c| c as usize).collect();
            let inter: Vec<usize> = box_cells
                .iter()
                .copied()
                .filter(|&c| b.units_of(c)[line / n] == line && free(c))
                .collect();
            if inter.len() < 2 {
                continue;
            }
            let in_line = |c: usize| b.units_of(c)[line / n] == line;
            let line_rest: Vec<usize> = line_cells
                .iter()
                .copied()
                .filter(|&c| free(c) && shape.box_of(c) + 2 * n != bx)
                .collect();
            let box_rest: Vec<usize> = box_cells
                .iter()
                .copied()
                .filter(|&c| free(c) && !in_line(c))
                .collect();
            let k = inter.len().min(MAX_SDC_CORE);
            for sub in 1u64..1 << inter.len() {
                let size = sub.count_ones() as usize;
                if size < 2 || size > k {
                    continue;
                }
                let core: Vec<usize> = bits(sub).map(|i| inter[i]).collect();
                let v = core.iter().fold(0, |m, &c| m | b.mask(c));
                let vn = v.count_ones() as usize;
                if vn < size + 2 {
                    continue;
                }
                let extra = vn - size;
                let pick = |pool: &[usize]| -> Vec<usize> {
                    pool.iter()
                        .copied()
                        .filter(|&c| b.mask(c) & v != 0)
                        .collect()
                };
                let lg = groups(b, &pick(&line_rest), v, group_max, extra - 1);
                if lg.is_empty() {
                    continue;
                }
                let bg = groups(b, &pick(&box_rest), v, group_max, extra - 1);
                for l in &lg {
                    for g in &bg {
                        if l.gain + g.gain != extra || l.mask & g.mask != 0 {
                            continue;
                        }
                        let line_out = l.mask | (v & !g.mask);
                        let box_out = g.mask | (v & !l.mask);
                        let mut pattern: Vec<usize> = core
                            .iter()
                            .chain(&l.cells)
                            .chain(&g.cells)
                            .copied()
                            .collect();
                        pattern.sort_unstable();
                        let mut elims = Vec::new();
                        for &c in &line_cells {
                            if !pattern.contains(&c) {
                                elims.extend(
                                    bits(b.mask(c) & line_out).map(|d| (c, Value::from_index(d))),
                                );
                            }
                        }
                        for &c in &box_cells {
                            if !pattern.contains(&c) {
                                elims.extend(
                                    bits(b.mask(c) & box_out).map(|d| (c, Value::from_index(d))),
                                );
                            }
                        }
                        let all = v | l.mask | g.mask;
                        if !found.fresh(all, &mut elims) {
                            continue;
                        }
                        let names = |cells: &[usize]| {
                            cells
                                .iter()
                                .map(|&c| b.cell_name(c))
                                .collect::<Vec<_>>()
                                .join(", ")
                        };
                        let text = format!(
                            "{}: {} where {} meets {} hold {}; with {} in the line \
                             ({}) and {} in the box ({}), which share no value, the pattern \
                             holds as many values as cells, so each value is in it once: {} \
                             leave the rest of the line and {} the rest of the box",
                            Technique::SueDeCoq.name(),
                            names(&core),
                            b.unit_name(line),
                            b.unit_name(bx),
                            b.symbols(v),
                            names(&l.cells),
                            b.symbols(l.mask),
                            names(&g.cells),
                            b.symbols(g.mask),
                            b.symbols(line_out),
                            b.symbols(box_out),
                        );
                        let mut h = Highlights {
                            candidates: all_candidates(b, &pattern),
                            cells: pattern,
                            units: vec![line, bx],
                            ..Highlights::default()
                        };
                        for (k, cells) in [&l.cells[..], &g.cells[..], &core[..]]
                            .into_iter()
                            .enumerate()
                        {
                            let role = CandidateRole::Set(k as u8);
                            for (c, v) in all_candidates(b, cells) {
                                h.add_role(c, v, role);
                            }
                        }
                        found.steps.push(step(Technique::SueDeCoq, elims, h, text));
                    }
                }
            }
        }
    }
    found.steps
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Shape;
    use crate::engine::logic::tests::{empty6, library, only, triples, v};

    /// On a 9×9 board the pair tests read the narrow sets: the edges
    /// (restricted common values) and the values two ALSs could remove
    /// match their definitions, from the board, for every pair of a
    /// forum-hardest position's ALSs, and so do the petals of every
    /// candidate as a Death Blossom's stem.
    #[test]
    fn narrow_pair_tests_match_their_definitions() {
        let text =
            "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";
        let p = crate::engine::format::parse_one(text, "als").unwrap();
        let b = Board::from_puzzle(&p).unwrap();
        let ctx = Ctx::new(&b, true);
        assert!(!ctx.narrow_on.is_empty());
        let k = ctx.alss.len();
        assert!(k > 100, "{k} ALSs");
        let holders = |a: usize, d: usize| -> Vec<usize> {
            ctx.alss[a]
                .cells
                .iter()
                .copied()
                .filter(|&c| b.has(c, d))
                .collect()
        };
        let sees_all = |t: usize, cells: &[usize]| cells.iter().all(|&p| p != t && b.sees(p, t));
        let edges = ctx.all_edges();
        let mut row = vec![0; k];
        let (mut rccs, mut useful) = (0, 0);
        for a in 0..k {
            ctx.pair_row(a, &mut row);
            let mut mine = Vec::new();
            for c in (0..k).filter(|&c| c != a) {
                let mut r = 0u64;
                for x in bits(ctx.alss[a].mask & ctx.alss[c].mask) {
                    let theirs = holders(c, x);
                    if holders(a, x).iter().all(|&p| sees_all(p, &theirs)) {
                        r |= 1 << x;
                    }
                }
                if r != 0 {
                    mine.push((c, r));
                }
                let mut m = 0u64;
                for z in bits(ctx.alss[a].mask & ctx.alss[c].mask) {
                    let (ha, hc) = (holders(a, z), holders(c, z));
                    if (0..81).any(|t| b.has(t, z) && sees_all(t, &ha) && sees_all(t, &hc)) {
                        m |= 1 << z;
                    }
                }
                assert_eq!(ctx.pair_useful(a, c), m, "ALSs {a} and {c}");
                assert_eq!(row[c], if c > a { m } else { 0 }, "ALSs {a} and {c}");
                useful += usize::from(m != 0);
            }
            rccs += mine.len();
            assert_eq!(edges[a], mine, "ALS {a}");
        }
        assert!(rccs > 0 && useful > 0);
        // The petals of a Death Blossom's stem.
        let mut petals = 0;
        for s in (0..81).filter(|&s| b.value(s).is_none()) {
            for d in b.digits(s) {
                let want: Vec<usize> = (0..k)
                    .filter(|&a| {
                        ctx.alss[a].mask >> d & 1 == 1
                            && !ctx.alss[a].cells.contains(&s)
                            && holders(a, d).iter().all(|&p| b.sees(p, s))
                    })
                    .collect();
                petals += want.len();
                assert_eq!(ctx.petals(s, d), want, "stem {s}, value {d}");
            }
        }
        assert!(petals > 0);
    }

    /// A 6×6 position where the cells of `open` are unsolved, each keeping
    /// exactly its listed candidates (1-based). The other cells get values,
    /// first fit, that repeat nothing in a unit and take no listed candidate
    /// from an open peer; a cell no value fits stays open.
    fn around(open: &[(usize, &[usize])]) -> Board {
        fn fill(
            shape: Shape,
            open: &[(usize, &[usize])],
            vals: &mut Vec<Option<Value>>,
            c: usize,
        ) -> bool {
            if c == 36 {
                return true;
            }
            if open.iter().any(|o| o.0 == c) {
                return fill(shape, open, vals, c + 1);
            }
            let t = shape.tables();
            for d in 1..=6 {
                let clash = t.peers(c).any(|p| {
                    vals[p] == Some(v(d)) || open.iter().any(|o| o.0 == p && o.1.contains(&d))
                });
                if !clash {
                    vals[c] = Some(v(d));
                    if fill(shape, open, vals, c + 1) {
                        return true;
                    }
                    vals[c] = None;
                }
            }
            // No value fits: the cell stays open (with what its peers allow).
            fill(shape, open, vals, c + 1)
        }
        let shape = Shape::new(2, 3).unwrap();
        let mut vals = vec![None; 36];
        assert!(fill(shape, open, &mut vals, 0), "no filling");
        let mut b = Board::from_values(shape, &vals).unwrap();
        for &(c, d) in open {
            only(&mut b, c, d);
        }
        b
    }

    fn cell(r: usize, c: usize) -> usize {
        (r - 1) * 6 + c - 1
    }

    /// `digit` at each (row, column), sorted as a step's eliminations.
    fn elims(digits: &[usize], at: &[(usize, usize)]) -> Vec<(usize, Value)> {
        let mut e: Vec<(usize, Value)> = at
            .iter()
            .flat_map(|&(r, c)| digits.iter().map(move |&d| (cell(r, c), v(d))))
            .collect();
        e.sort();
        e
    }

    fn has(steps: &[Step], e: &[(usize, Value)], pattern: &[usize]) -> bool {
        steps
            .iter()
            .any(|s| s.eliminations == e && pattern.iter().all(|c| s.highlights.cells.contains(c)))
    }

    #[test]
    fn nothing_on_an_empty_board() {
        let b = empty6();
        assert!(als_xz(&b).is_empty());
        assert!(als_xy_wings(&b, true).is_empty());
        assert!(als_chains(&b).is_empty());
        assert!(death_blossoms(&b, true).is_empty());
        assert!(sue_de_coq(&b).is_empty());
    }

    #[test]
    fn als_xz_on_6x6() {
        // A = r1c1 {1,2}; B = r3c1 {1,3} + r3c2 {2,3}. 1 is restricted
        // (r3c1 sees r1c1), so 2 is in A or B: it leaves r1c2, r2c2 and
        // r4c1, which see r1c1 and r3c2.
        let mut b = empty6();
        only(&mut b, cell(1, 1), &[1, 2]);
        only(&mut b, cell(3, 1), &[1, 3]);
        only(&mut b, cell(3, 2), &[2, 3]);
        let steps = als_xz(&b);
        let want = elims(&[2], &[(1, 2), (2, 2), (4, 1)]);
        assert!(has(&steps, &want, &[0, 12, 13]), "{steps:#?}");
        let s = steps.iter().find(|s| s.eliminations == want).unwrap();
        assert_eq!(s.technique, Technique::AlsXz);
        assert!(s.explanation.contains("r3c2"), "{}", s.explanation);
        // With B's 1 in r3c3 (which does not see r1c1) nothing is restricted.
        let mut b = empty6();
        only(&mut b, cell(1, 1), &[1, 2]);
        only(&mut b, cell(3, 3), &[1, 3]);
        only(&mut b, cell(3, 2), &[2, 3]);
        assert!(!als_xz(&b).iter().any(|s| s.eliminations == want));
    }

    #[test]
    fn doubly_linked_als_xz_locks_both_sets() {
        // A = r1c1 {1,2}, B = r1c4 {2,3} + r1c5 {1,3} in row 1: 1 and 2
        // are both restricted, so A holds one of them and B holds 3 and
        // the other: the rest of row 1 loses 1, 2, 3, and the rest of box 2
        // loses 3 (B's non-RCC value, all in box 2).
        let mut b = empty6();
        only(&mut b, cell(1, 1), &[1, 2]);
        only(&mut b, cell(1, 4), &[2, 3]);
        only(&mut b, cell(1, 5), &[1, 3]);
        let steps = als_xz(&b);
        let mut want = elims(&[1, 2, 3], &[(1, 2), (1, 3), (1, 6)]);
        want.extend(elims(&[3], &[(2, 4), (2, 5), (2, 6)]));
        want.sort();
        assert!(has(&steps, &want, &[0, 3, 4]), "{steps:#?}");
    }

    #[test]
    fn als_xy_wing_overlap_only_when_allowed() {
        // HoDoKu's library, 0902-2 (an ALS-XY-Wing whose sets overlap):
        // found with overlap, not without.
        let b = library(
            "..1...34.4....697....23+4...9...5.8.....6.8.....8.9...1....45...+5728....4.84...5..",
            "711 912 519 538 249 257 259 559 759 667 974 177 677 678 978 279 979 186 188 688 \
             298 299",
        );
        let want = triples("262");
        let with = als_xy_wings(&b, true);
        assert!(with.iter().any(|s| s.eliminations == want), "{with:#?}");
        assert!(
            !als_xy_wings(&b, false)
                .iter()
                .any(|s| s.eliminations == want)
        );
    }

    #[test]
    fn als_xy_wing_on_6x6() {
        // C = r1c1 {1,2}; A = r1c5 {1,3} (RCC 1), B = r3c1 {2,3} (RCC 2):
        // 3 is in A or B and leaves r3c5.
        let mut b = empty6();
        only(&mut b, cell(1, 1), &[1, 2]);
        only(&mut b, cell(1, 5), &[1, 3]);
        only(&mut b, cell(3, 1), &[2, 3]);
        let steps = als_xy_wings(&b, true);
        let want = elims(&[3], &[(3, 5)]);
        assert!(has(&steps, &want, &[0, 4, 12]), "{steps:#?}");
        // Without the pivot's 2 in B there is no second link.
        let mut b = empty6();
        only(&mut b, cell(1, 1), &[1, 2]);
        only(&mut b, cell(1, 5), &[1, 3]);
        only(&mut b, cell(3, 1), &[4, 3]);
        assert!(
            !als_xy_wings(&b, true)
                .iter()
                .any(|s| s.eliminations == want)
        );
    }

    #[test]
    fn als_chain_on_6x6() {
        // r1c1 {1,2} –2– r1c5 {2,3} –3– r4c5 {3,4} –4– r4c2 {4,1}: 1 is
        // in the first or the last and leaves r1c2 and r4c1 (which see
        // both); everything else is solved.
        let b = around(&[
            (cell(1, 1), &[1, 2]),
            (cell(1, 5), &[2, 3]),
            (cell(4, 5), &[3, 4]),
            (cell(4, 2), &[4, 1]),
            (cell(1, 2), &[1, 6]),
            (cell(4, 1), &[1, 6]),
        ]);
        let steps = als_chains(&b);
        let want = elims(&[1], &[(1, 2), (4, 1)]);
        assert!(has(&steps, &want, &[0, 4, 22, 19]), "{steps:#?}");
        assert!(steps.iter().all(|s| s.technique == Technique::AlsChain));
        // (The cells left open around the pattern make other, sound chains
        // once a link is broken; `nothing_on_an_empty_board` is the quiet
        // case.)
    }

    #[test]
    fn death_blossom_on_6x6() {
        // Stem r3c3 {1,2,3}; petals r3c1 {1,4}, r1c3 {2,4}, r4c2 {3,4}:
        // whatever the stem is, one petal is 4, so r4c3 (seeing all three)
        // is not 4. (Smaller blossoms around the open cells prove it too,
        // and the first found is kept, so only the result is checked.)
        let b = around(&[
            (cell(3, 3), &[1, 2, 3]),
            (cell(3, 1), &[1, 4]),
            (cell(1, 3), &[2, 4]),
            (cell(4, 2), &[3, 4]),
            (cell(4, 3), &[4, 5]),
        ]);
        let steps = death_blossoms(&b, true);
        let want = elims(&[4], &[(4, 3)]);
        assert!(has(&steps, &want, &[]), "{steps:#?}");
    }

    #[test]
    fn sue_de_coq_on_6x6() {
        // r1c1 {1,2,3} and r1c2 {1,2,4} (row 1 ∩ box 1) hold four values;
        // r1c4 {1,2} in the row and r2c1 {3,4} in the box complete it: 1
        // and 2 leave the rest of row 1, 3 and 4 the rest of box 1.
        let mut b = empty6();
        only(&mut b, cell(1, 1), &[1, 2, 3]);
        only(&mut b, cell(1, 2), &[1, 2, 4]);
        only(&mut b, cell(1, 4), &[1, 2]);
        only(&mut b, cell(2, 1), &[3, 4]);
        let steps = sue_de_coq(&b);
        let mut want = elims(&[1, 2, 3, 4], &[(1, 3)]);
        want.extend(elims(&[1, 2], &[(1, 5), (1, 6)]));
        want.extend(elims(&[3, 4], &[(2, 2), (2, 3)]));
        want.sort();
        assert!(has(&steps, &want, &[0, 1, 3, 6]), "{steps:#?}");
        let s = steps.iter().find(|s| s.eliminations == want).unwrap();
        assert_eq!(s.technique, Technique::SueDeCoq);
        // Every candidate of the pattern is highlighted.
        let mut digits: Vec<usize> = s.highlights.candidates.iter().map(|c| c.1.get()).collect();
        digits.sort();
        digits.dedup();
        assert_eq!(digits, vec![1, 2, 3, 4]);
        assert!(
            s.highlights.candidates.len() >= 8,
            "{:?}",
            s.highlights.candidates
        );
        // With r2c1 {3,5} the box side holds a value outside the pattern.
        let b = {
            let mut c = empty6();
            only(&mut c, cell(1, 1), &[1, 2, 3]);
            only(&mut c, cell(1, 2), &[1, 2, 4]);
            only(&mut c, cell(1, 4), &[1, 2]);
            only(&mut c, cell(2, 1), &[3, 5]);
            c
        };
        assert!(sue_de_coq(&b).is_empty(), "{:#?}", sue_de_coq(&b));
    }

    /// Every step on generated puzzles' solution paths is sound (9×9 and
    /// 6×6), and each technique fires on 9×9.
    #[test]
    fn sound_along_solution_paths() {
        let all = [
            Technique::AlsXz,
            Technique::AlsXyWing,
            Technique::AlsChain,
            Technique::DeathBlossom,
            Technique::SueDeCoq,
        ];
        let fired = super::super::tests::sound_along_paths(Shape::CLASSIC, 0..4, &all);
        println!("9×9: {fired:?}");
        assert!(fired.iter().all(|&k| k > 0), "{fired:?}");
        let small = super::super::tests::sound_along_paths(Shape::new(2, 3).unwrap(), 0..8, &all);
        println!("6×6: {small:?}");
    }
}
