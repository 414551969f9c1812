//! Which plain and static chains end in a contradiction, found for all
//! assumptions at once.
//!
//! A plain chain ([`super::Mode::Chains`]) follows two kinds of link in its
//! start position: a true candidate makes the cell's other candidates and
//! its peers' candidates of the value false; a false candidate makes the
//! other one true in a bivalue cell, and the other place true in a unit
//! with two places for the value. Every link has its contrapositive among
//! them (if a then b, so if not b then not a), so when an assumption
//! reaches a candidate both true and false, it also reaches its own
//! negation. The links form a graph over the candidates true and false;
//! its strongly connected components, met in Tarjan's order (each after
//! all it reaches), carry the sets of "false" each reaches, so one pass
//! answers for every candidate.
//!
//! The nested level of 2 tries every open candidate with a plain chain and
//! keeps those that end in a contradiction; a candidate whose "true"
//! cannot reach its own "false" cannot, and its chain need not be
//! followed. A static chain ([`super::Mode::Static`], inside level 3)
//! follows the same links and nothing else, so what it reaches is exactly
//! what the graph reaches: it ends in a contradiction when that holds a
//! candidate both true and false, every candidate of a cell false, or
//! every place of a value in a unit false. The level-3 search asks the
//! graph which chains do, and what each of the others removes (for its
//! cell and unit forcing nets), and follows only the first kind. By the
//! contrapositives, a chain from Y reaches the "false" of every candidate
//! of a cell when each of them reaches Y's "false": one intersection of
//! sets per cell and per unit and value answers for every Y.
//!
//! Only a "false" in a bivalue cell or a unit with two places links on,
//! so only those are linked to: a "true" adds the others to what it
//! reaches directly (as bits). A position with more than
//! [`MAX_CANDIDATES`] is not searched (every chain is followed).

use super::super::cellset::{and_into, has_bit, is_empty, members, or_into, set_bit};
use super::{NONE, Net, bits};

/// Most candidates a position may have for the graph to be searched (its
/// bit sets take m² / 8 bytes each: 2 MB at this size); past it every
/// chain is followed.
const MAX_CANDIDATES: usize = 4096;

/// The graph of one position's links and what its search keeps, reused
/// from one position to the next.
#[derive(Debug, Default)]
pub(super) struct Suspects {
    /// Per candidate (c·n + d of the position), whether a plain chain
    /// assuming it may end in a contradiction: a superset of those that
    /// do.
    pub(super) may: Vec<bool>,
    /// Candidate c·n + d → its number i (literal 2i "true", 2i + 1
    /// "false").
    index: Vec<u32>,
    cand: Vec<(usize, usize)>,
    /// Per unit and value (u·n + d), its places as bits of the
    /// candidates' numbers.
    places: Vec<u64>,
    /// The candidates whose "false" has links, as bits.
    strong: Vec<u64>,
    /// Per candidate, the candidates its "true" makes false, as bits.
    seen: Vec<u64>,
    /// Literal v links to `to[first[v]..first[v + 1]]`.
    first: Vec<u32>,
    to: Vec<u32>,
    tarjan: Tarjan,
    /// Per component, the candidates whose "false" it reaches, as bits.
    reach: Vec<u64>,
    /// Bits per component in [`Suspects::reach`].
    words: usize,
    /// For the static rule, the candidates whose chain empties a cell or
    /// a unit of a value, as bits.
    empties: Vec<u64>,
    /// Scratch, one bit set.
    acc: Vec<u64>,
    /// Whether [`Suspects::reach`] is the position's (the graph was
    /// searched).
    searched: bool,
}

impl Suspects {
    /// Fills [`Suspects::may`] for the position `net` has loaded: with
    /// `whole` false a superset of the plain chains that end in a
    /// contradiction, with `whole` exactly the static chains that do. The
    /// number of links looked at, as the work spent.
    pub(super) fn find(&mut self, net: &Net, whole: bool) -> usize {
        let b = net.b;
        let n = net.n;
        let cells = net.start.len();
        self.number(net);
        let m = self.cand.len();
        if m > MAX_CANDIDATES {
            // Every chain is followed instead.
            self.may.clear();
            self.may.resize(cells * n, true);
            return m;
        }
        let words = m.div_ceil(64);
        let units = b.shape().units();
        // The places of each value in each unit, and the candidates whose
        // "false" leads somewhere (a bivalue cell's, or a place of a
        // value in a unit with two): only those are nodes with links in
        // the graph; the others end a chain, and a "true" that sees them
        // reaches their "false" in one step.
        self.places.clear();
        self.places.resize(units * n * words, 0);
        self.strong.clear();
        self.strong.resize(words, 0);
        // Whether the value has two places in the unit (and is not placed).
        let two = |u: usize, d: usize| net.done[u] >> d & 1 == 0 && net.had[u * n + d] == 2;
        // The numbers of cell `c`'s candidates (they follow each other).
        let index = &self.index;
        let cands_of = |c: usize| {
            let Some(d) = bits(net.start[c]).next() else {
                return 0..0;
            };
            let at = index[c * n + d] as usize;
            at..at + net.start[c].count_ones() as usize
        };
        for (i, &(c, d)) in self.cand.iter().enumerate() {
            let mut strong = net.start[c].count_ones() == 2;
            for u in b.units_of(c) {
                set_bit(set_mut(&mut self.places, u * n + d, words), i);
                strong |= two(u, d);
            }
            if strong {
                set_bit(&mut self.strong, i);
            }
        }
        // Per candidate, the candidates its "true" makes false: the
        // cell's others and the value's other places in its units.
        self.seen.clear();
        self.seen.resize(m * words, 0);
        self.first.clear();
        self.to.clear();
        let mut links = 0;
        for i in 0..m {
            let (c, d) = self.cand[i];
            let seen = set_mut(&mut self.seen, i, words);
            for u in b.units_of(c) {
                or_into(seen, set(&self.places, u * n + d, words));
            }
            for j in cands_of(c) {
                set_bit(seen, j);
            }
            seen[i / 64] &= !(1 << (i % 64));
            // True: the "false" of what it sees, where that leads on.
            self.first.push(self.to.len() as u32);
            // (The work counts every link, as a list of them would hold.)
            links += net.start[c].count_ones() as usize - 1;
            for u in b.units_of(c) {
                links += net.had[u * n + d] as usize - 1;
            }
            for (w, (&x, &y)) in seen.iter().zip(&self.strong).enumerate() {
                for j in bits(x & y) {
                    self.to.push(2 * (w * 64 + j) as u32 + 1);
                }
            }
            // False: the other candidate of a bivalue cell, the other
            // place of a unit with two, are true.
            self.first.push(self.to.len() as u32);
            if !has_bit(&self.strong, i) {
                continue;
            }
            let before = self.to.len();
            if net.start[c].count_ones() == 2 {
                let e = (net.start[c] & !(1 << d)).trailing_zeros() as usize;
                self.to.push(2 * self.index[c * n + e]);
            }
            for u in b.units_of(c) {
                if !two(u, d) {
                    continue;
                }
                let p = set(&self.places, u * n + d, words);
                for j in members(p).filter(|&j| j != i) {
                    self.to.push(2 * j as u32);
                }
            }
            links += self.to.len() - before;
        }
        self.first.push(self.to.len() as u32);
        let t = &mut self.tarjan;
        t.run(&self.first, &self.to);
        let count = t.components as usize;
        self.reach.clear();
        self.reach.resize(count * words, 0);
        for &l in &t.closed {
            let l = l as usize;
            let k = t.comp[l] as usize;
            let (done, this) = self.reach.split_at_mut(k * words);
            let this = &mut this[..words];
            if l % 2 == 1 {
                set_bit(this, l / 2);
            } else {
                or_into(this, set(&self.seen, l / 2, words));
            }
            for &x in &self.to[self.first[l] as usize..self.first[l + 1] as usize] {
                let j = t.comp[x as usize] as usize;
                if j != k {
                    // Closed before k: complete.
                    or_into(this, set(done, j, words));
                }
            }
        }
        self.words = words;
        self.searched = true;
        // A static chain from Y empties a cell (or a unit of a value)
        // when it reaches the "false" of each of its candidates (places):
        // when, by the contrapositives, each of them reaches Y's "false".
        self.empties.clear();
        self.empties.resize(words, 0);
        if whole {
            let comp = &self.tarjan.comp;
            let (reach, out) = (&self.reach, &mut self.empties);
            self.acc.resize(words, 0);
            let acc = &mut self.acc;
            for c in 0..cells {
                meet(reach, cands_of(c).map(|j| comp[2 * j] as usize), acc, out);
            }
            for u in 0..units {
                for d in 0..n {
                    if net.done[u] >> d & 1 == 1 || net.had[u * n + d] == 0 {
                        continue;
                    }
                    let p = set(&self.places, u * n + d, words);
                    meet(reach, members(p).map(|j| comp[2 * j] as usize), acc, out);
                }
            }
        }
        self.may.clear();
        self.may.resize(cells * n, false);
        for i in 0..m {
            let (c, d) = self.cand[i];
            let k = self.tarjan.comp[2 * i] as usize;
            let reach = set(&self.reach, k, words);
            self.may[c * n + d] = has_bit(reach, i) || has_bit(&self.empties, i);
        }
        links
    }

    /// Numbers the candidates of the position `net` has loaded, in the
    /// order of c·n + d: what [`Suspects::find`] does first, and all a
    /// caller that keeps sets of candidates as bits ([`Reached`]) needs
    /// where the graph is not searched.
    pub(super) fn number(&mut self, net: &Net) {
        let n = net.n;
        let cells = net.start.len();
        self.index.clear();
        self.index.resize(cells * n, NONE);
        self.cand.clear();
        for c in 0..cells {
            for d in bits(net.start[c]) {
                self.index[c * n + d] = self.cand.len() as u32;
                self.cand.push((c, d));
            }
        }
        self.searched = false;
    }

    /// The number of candidate `k` (c·n + d) of the numbered position.
    pub(super) fn number_of(&self, k: usize) -> Option<usize> {
        match self.index.get(k) {
            Some(&i) if i != NONE => Some(i as usize),
            _ => None,
        }
    }

    /// Candidate number `i` as c·n + d.
    pub(super) fn candidate(&self, i: usize, n: usize) -> u32 {
        let (c, d) = self.cand[i];
        (c * n + d) as u32
    }

    /// The candidates (by number) whose "false" assumption number `i`
    /// reaches, as bits, when [`Suspects::find`] searched the graph.
    pub(super) fn reach_of(&self, i: usize) -> Option<&[u64]> {
        if !self.searched {
            return None;
        }
        let k = self.tarjan.comp[2 * i] as usize;
        Some(set(&self.reach, k, self.words))
    }

    /// The candidates (c·n + d, ascending) whose "false" the assumption
    /// `c` = `d` reaches, after [`Suspects::find`] searched the graph.
    #[cfg(test)]
    pub(super) fn offs(&self, c: usize, d: usize, n: usize) -> Vec<u32> {
        let i = self.index[c * n + d] as usize;
        self.reach_of(i)
            .map(|r| members(r).map(|j| self.candidate(j, n)).collect())
            .unwrap_or_default()
    }
}

/// What each assumption of a numbered position ([`Suspects::number`])
/// removes, as bits of the candidates' numbers, for the assumptions
/// recorded: the inner cell and unit forcing nets of level 3 and up meet
/// these sets, one word at a time.
#[derive(Debug, Default)]
pub(super) struct Reached {
    words: usize,
    bits: Vec<u64>,
    known: Vec<bool>,
}

impl Reached {
    /// Empty, for the position `numbers` numbered.
    pub(super) fn clear(&mut self, numbers: &Suspects) {
        let m = numbers.cand.len();
        self.words = m.div_ceil(64);
        self.bits.clear();
        self.bits.resize(m * self.words, 0);
        self.known.clear();
        self.known.resize(m, false);
    }

    /// Records that assumption number `i` removes `offs` (bits of
    /// candidate numbers).
    pub(super) fn set_bits(&mut self, i: usize, offs: &[u64]) {
        set_mut(&mut self.bits, i, self.words).copy_from_slice(offs);
        self.known[i] = true;
    }

    /// Records that assumption number `i` removes the candidates `offs`
    /// (c·n + d, each a candidate of the position).
    pub(super) fn set_list(&mut self, i: usize, offs: &[u32], numbers: &Suspects) {
        let set = set_mut(&mut self.bits, i, self.words);
        for &k in offs {
            if let Some(j) = numbers.number_of(k as usize) {
                set_bit(set, j);
            }
        }
        self.known[i] = true;
    }

    /// What every assumption of `list` (numbers) removes, into `acc`;
    /// false when one of them was not recorded or nothing is common.
    pub(super) fn meet(&self, list: &[usize], acc: &mut Vec<u64>) -> bool {
        let Some((&first, rest)) = list.split_first() else {
            return false;
        };
        if !self.known[first] {
            return false;
        }
        acc.clear();
        acc.extend_from_slice(set(&self.bits, first, self.words));
        for &i in rest {
            if !self.known[i] {
                return false;
            }
            and_into(acc, set(&self.bits, i, self.words));
            if is_empty(acc) {
                return false;
            }
        }
        true
    }
}

/// Set `k` of a list of sets of `words` words each.
fn set(sets: &[u64], k: usize, words: usize) -> &[u64] {
    &sets[k * words..(k + 1) * words]
}

/// Set `k` of a list of sets of `words` words each, to change.
fn set_mut(sets: &mut [u64], k: usize, words: usize) -> &mut [u64] {
    &mut sets[k * words..(k + 1) * words]
}

/// Adds to `out` the candidates whose "false" every component of `comps`
/// reaches (`acc` is scratch, one bit set's words).
fn meet(reach: &[u64], mut comps: impl Iterator<Item = usize>, acc: &mut [u64], out: &mut [u64]) {
    let words = acc.len();
    let Some(k) = comps.next() else {
        return;
    };
    acc.copy_from_slice(set(reach, k, words));
    for k in comps {
        and_into(acc, set(reach, k, words));
        if is_empty(acc) {
            return;
        }
    }
    or_into(out, acc);
}

/// Tarjan's strongly connected components, with its buffers.
#[derive(Debug, Default)]
struct Tarjan {
    order: Vec<u32>,
    low: Vec<u32>,
    /// Each node's component, numbered in the order they close (every
    /// component after all it reaches).
    comp: Vec<u32>,
    /// The nodes in the order their components closed.
    closed: Vec<u32>,
    components: u32,
    stack: Vec<u32>,
    /// (node, next link to look at)
    calls: Vec<(u32, u32)>,
}

impl Tarjan {
    /// The components of the graph whose node `v` links to
    /// `to[first[v]..first[v + 1]]`.
    fn run(&mut self, first: &[u32], to: &[u32]) {
        let nodes = first.len() - 1;
        for v in [&mut self.order, &mut self.comp] {
            v.clear();
            v.resize(nodes, NONE);
        }
        self.low.clear();
        self.low.resize(nodes, 0);
        self.closed.clear();
        self.stack.clear();
        self.calls.clear();
        self.components = 0;
        let mut next = 0u32;
        for root in 0..nodes {
            if self.order[root] != NONE {
                continue;
            }
            self.calls.push((root as u32, first[root]));
            self.order[root] = next;
            self.low[root] = next;
            next += 1;
            self.stack.push(root as u32);
            while let Some(&mut (v, ref mut at)) = self.calls.last_mut() {
                let v = v as usize;
                if *at < first[v + 1] {
                    let w = to[*at as usize] as usize;
                    *at += 1;
                    if self.order[w] == NONE {
                        self.order[w] = next;
                        self.low[w] = next;
                        next += 1;
                        self.stack.push(w as u32);
                        self.calls.push((w as u32, first[w]));
                    } else if self.comp[w] == NONE {
                        self.low[v] = self.low[v].min(self.order[w]);
                    }
                    continue;
                }
                self.calls.pop();
                if let Some(&(u, _)) = self.calls.last() {
                    let u = u as usize;
                    self.low[u] = self.low[u].min(self.low[v]);
                }
                if self.low[v] == self.order[v] {
                    while let Some(w) = self.stack.pop() {
                        self.comp[w as usize] = self.components;
                        self.closed.push(w);
                        if w as usize == v {
                            break;
                        }
                    }
                    self.components += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::grid::Puzzle;
    use crate::engine::logic::Board;
    use crate::engine::shape::Shape;

    #[test]
    fn a_position_too_big_for_the_graph_follows_every_chain() {
        // An empty 25×25 has 15,625 candidates.
        let b = Board::from_puzzle(&Puzzle::empty(Shape::new(5, 5).unwrap())).unwrap();
        let net = Net::of_board(&b, usize::MAX);
        let mut s = Suspects::default();
        for whole in [false, true] {
            assert_eq!(s.find(&net, whole), 625 * 25);
            assert_eq!(s.may.len(), 625 * 25);
            assert!(s.may.iter().all(|&x| x));
        }
        // A 9×9 one is searched: an empty board has no contradiction.
        let b = Board::from_puzzle(&Puzzle::empty(Shape::CLASSIC)).unwrap();
        let net = Net::of_board(&b, usize::MAX);
        s.find(&net, true);
        assert!(s.may.iter().all(|&x| !x));
    }

    #[test]
    fn components_close_after_what_they_reach() {
        // 0 -> 1 -> 2 -> 0 (a cycle), 2 -> 3, 3 -> 4, 4 -> 3, 5 alone.
        let links: [&[u32]; 6] = [&[1], &[2], &[0, 3], &[4], &[3], &[]];
        let mut first = vec![0u32];
        let mut to = Vec::new();
        for l in links {
            to.extend_from_slice(l);
            first.push(to.len() as u32);
        }
        let mut t = Tarjan::default();
        t.run(&first, &to);
        let comp = &t.comp;
        assert_eq!(t.closed.len(), 6);
        assert_eq!(t.components, 3);
        assert_eq!(comp[0], comp[1]);
        assert_eq!(comp[1], comp[2]);
        assert_eq!(comp[3], comp[4]);
        assert_ne!(comp[0], comp[3]);
        assert_ne!(comp[5], comp[0]);
        assert_ne!(comp[5], comp[3]);
        // {3, 4} is reached from {0, 1, 2}: it closes first.
        assert!(comp[3] < comp[0]);
    }
}
