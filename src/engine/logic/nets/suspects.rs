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
//! Only a "false" in a bivalue cell or a unit with two places links on
//! (about a quarter of the candidates in the positions the nested levels
//! meet), so only those candidates are nodes of the graph: a "true" adds
//! the others it sees to what it reaches directly (as bits), and another
//! candidate's "true" reaches its own "false" when some node it sees
//! reaches it from its "false". A position with more than
//! [`MAX_CANDIDATES`] is not searched (every chain is followed).

use super::super::cellset::{and_into, has_bit, is_empty, members, or_into, set_bit};
use super::super::tarjan::Tarjan;
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
    /// The numbers of the candidates whose "false" has links (a bivalue
    /// cell's, or a place of a value in a unit with two), and per
    /// candidate its place in that list (or `NONE`): only these are nodes
    /// of the graph, literal 2k "true" and 2k + 1 "false" of the k-th.
    strong: Vec<u32>,
    strong_at: Vec<u32>,
    /// Literal v links to `to[first[v]..first[v + 1]]`.
    first: Vec<u32>,
    to: Vec<u32>,
    /// Per node (the k-th of `strong`), the numbers of the candidates its
    /// "true" sees, `seen[seen_first[k]..seen_first[k + 1]]`: read three
    /// times, listed once.
    seen_first: Vec<u32>,
    seen: Vec<u32>,
    tarjan: Tarjan,
    /// Per component, the candidates whose "false" it reaches, as bits.
    reach: Vec<u64>,
    /// Words per bit set of candidates.
    words: usize,
    /// With `whole`, per candidate, the candidates whose "false" its
    /// "true" reaches, as bits.
    full: Vec<u64>,
    /// For the static rule, the candidates whose chain empties a cell or
    /// a unit of a value, as bits.
    empties: Vec<u64>,
    /// Scratch, one bit set.
    acc: Vec<u64>,
    /// Whether [`Suspects::full`] is the position's (the graph was
    /// searched with `whole`).
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
        self.words = words;
        let units = b.shape().units();
        // Whether the value has two places in the unit (and is not placed).
        let two = |u: usize, d: usize| net.done[u] >> d & 1 == 0 && net.had[u * n + d] == 2;
        // The candidates whose "false" leads somewhere: only those are
        // nodes with links in the graph; the others end a chain, and a
        // "true" that sees them reaches their "false" in one step. A
        // "true" links to the "false" of each of these it sees; such a
        // "false" to the other candidate of its bivalue cell and the other
        // place of each unit with two places for the value.
        self.strong.clear();
        self.strong_at.clear();
        self.strong_at.resize(m, NONE);
        // (The work counts every link of every candidate, as a list of
        // them would hold.)
        let mut links = 0;
        self.acc.clear();
        self.acc.resize(words, 0);
        for c in 0..cells {
            let k = net.start[c].count_ones() as usize;
            links += k * k.saturating_sub(1);
            if k == 2 {
                links += 2;
                let at = self.index[c * n + net.start[c].trailing_zeros() as usize] as usize;
                set_bit(&mut self.acc, at);
                set_bit(&mut self.acc, at + 1);
            }
        }
        for u in 0..units {
            let unit = b.unit(u);
            for d in 0..n {
                let k = net.had[u * n + d] as usize;
                links += k * k.saturating_sub(1);
                if two(u, d) {
                    links += 2;
                    for j in bits(net.places[u * n + d]) {
                        set_bit(&mut self.acc, self.index[unit[j] as usize * n + d] as usize);
                    }
                }
            }
        }
        for i in members(&self.acc) {
            self.strong_at[i] = self.strong.len() as u32;
            self.strong.push(i as u32);
        }
        let index = &self.index;
        self.first.clear();
        self.to.clear();
        self.seen_first.clear();
        self.seen.clear();
        for &i in &self.strong {
            let (c, d) = self.cand[i as usize];
            self.first.push(self.to.len() as u32);
            self.seen_first.push(self.seen.len() as u32);
            let (to, at, seen) = (&mut self.to, &self.strong_at, &mut self.seen);
            each_seen(net, index, c, d, |j| {
                seen.push(j as u32);
                if at[j] != NONE {
                    to.push(2 * at[j] + 1);
                }
            });
            self.first.push(self.to.len() as u32);
            if net.start[c].count_ones() == 2 {
                let e = (net.start[c] & !(1 << d)).trailing_zeros() as usize;
                self.to.push(2 * at[index[c * n + e] as usize]);
            }
            for (u, k) in b.positions(c) {
                if two(u, d) {
                    let x = net.places[u * n + d] & !(1u64 << k);
                    let y = b.unit(u)[x.trailing_zeros() as usize] as usize;
                    self.to.push(2 * at[index[y * n + d] as usize]);
                }
            }
        }
        self.first.push(self.to.len() as u32);
        self.seen_first.push(self.seen.len() as u32);
        let seen_of =
            |k: usize| &self.seen[self.seen_first[k] as usize..self.seen_first[k + 1] as usize];
        let t = &mut self.tarjan;
        t.run(&self.first, &self.to);
        let count = t.components as usize;
        // What each component reaches, after all it links to.
        self.reach.clear();
        self.reach.resize(count * words, 0);
        for &l in &t.closed {
            let l = l as usize;
            let k = t.comp[l] as usize;
            let (done, this) = self.reach.split_at_mut(k * words);
            let this = &mut this[..words];
            let i = self.strong[l / 2] as usize;
            if l % 2 == 1 {
                set_bit(this, i);
            } else {
                seen_of(l / 2)
                    .iter()
                    .for_each(|&j| set_bit(this, j as usize));
            }
            for &x in &self.to[self.first[l] as usize..self.first[l + 1] as usize] {
                let j = t.comp[x as usize] as usize;
                if j != k {
                    // Closed before k: complete.
                    or_into(this, set(done, j, words));
                }
            }
        }
        let (reach, comp, at) = (&self.reach, &self.tarjan.comp, &self.strong_at);
        // The set of a node's component.
        let of = |literal: usize| set(reach, comp[literal] as usize, words);
        self.may.clear();
        self.may.resize(cells * n, false);
        self.searched = whole;
        if !whole {
            // Whether the "true" of each candidate reaches its "false": a
            // node's through its component; another's through the "false"
            // of a node it sees, that is, when it is among the candidates
            // a node sees and reaches from its "false" (`acc`).
            self.acc.iter_mut().for_each(|x| *x = 0);
            for k in 0..self.strong.len() {
                let (acc, from) = (&mut self.acc, of(2 * k + 1));
                for &j in seen_of(k) {
                    if has_bit(from, j as usize) {
                        set_bit(acc, j as usize);
                    }
                }
            }
            for (i, &(c, d)) in self.cand.iter().enumerate() {
                self.may[c * n + d] = if at[i] != NONE {
                    has_bit(of(2 * at[i] as usize), i)
                } else {
                    has_bit(&self.acc, i)
                };
            }
            return links;
        }
        // Every candidate's set: a node's is its component's; another's
        // what it sees and what the nodes among them reach.
        self.full.clear();
        self.full.resize(m * words, 0);
        for (i, &(c, d)) in self.cand.iter().enumerate() {
            let this = set_mut(&mut self.full, i, words);
            if at[i] != NONE {
                this.copy_from_slice(of(2 * at[i] as usize));
                continue;
            }
            each_seen(net, index, c, d, |j| {
                set_bit(this, j);
                if at[j] != NONE {
                    or_into(this, of(2 * at[j] as usize + 1));
                }
            });
        }
        // A static chain from Y empties a cell (or a unit of a value)
        // when it reaches the "false" of each of its candidates (places):
        // when, by the contrapositives, each of them reaches Y's "false".
        self.empties.clear();
        self.empties.resize(words, 0);
        self.acc.resize(words, 0);
        let (full, out, acc) = (&self.full, &mut self.empties, &mut self.acc);
        for c in 0..cells {
            let Some(d) = bits(net.start[c]).next() else {
                continue;
            };
            // A cell's candidates have consecutive numbers.
            let first = index[c * n + d] as usize;
            let own = first..first + net.start[c].count_ones() as usize;
            meet(full, own, acc, out);
        }
        for u in 0..units {
            let unit = b.unit(u);
            for d in 0..n {
                if net.done[u] >> d & 1 == 1 || net.had[u * n + d] == 0 {
                    continue;
                }
                let places =
                    bits(net.places[u * n + d]).map(|j| index[unit[j] as usize * n + d] as usize);
                meet(full, places, acc, out);
            }
        }
        for (i, &(c, d)) in self.cand.iter().enumerate() {
            let this = set(&self.full, i, words);
            self.may[c * n + d] = has_bit(this, i) || has_bit(&self.empties, i);
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
    /// reaches, as bits, when [`Suspects::find`] searched the graph with
    /// `whole`.
    pub(super) fn reach_of(&self, i: usize) -> Option<&[u64]> {
        self.searched.then(|| set(&self.full, i, self.words))
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
    /// Empty, for the position `numbers` numbered. Only the sets recorded
    /// are read, and each is written whole when it is recorded, so the
    /// old ones are left in place rather than zeroed.
    pub(super) fn clear(&mut self, numbers: &Suspects) {
        let m = numbers.cand.len();
        self.words = m.div_ceil(64);
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
    /// (c·n + d, each a candidate of the position, in any order).
    pub(super) fn set_list(
        &mut self,
        i: usize,
        offs: impl Iterator<Item = u32>,
        numbers: &Suspects,
    ) {
        let set = set_mut(&mut self.bits, i, self.words);
        set.fill(0);
        for k in offs {
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

/// Calls `f` with the number of every candidate that candidate `c` = `d`
/// of the position sees: the cell's others, and the value's other places
/// in its row, column and box, each once.
fn each_seen(net: &Net, index: &[u32], c: usize, d: usize, mut f: impl FnMut(usize)) {
    let (b, n) = (net.b, net.n);
    for e in bits(net.start[c] & !(1 << d)) {
        f(index[c * n + e] as usize);
    }
    for (k, (u, at)) in b.positions(c).into_iter().enumerate() {
        let mut x = net.places[u * n + d] & !(1u64 << at);
        if k == 2 {
            x &= !b.tables().box_lines(c);
        }
        let unit = b.unit(u);
        for j in bits(x) {
            f(index[unit[j] as usize * n + d] as usize);
        }
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

/// Adds to `out` the candidates whose "false" every candidate of `list`
/// reaches (by their sets in `full`; `acc` is scratch, one bit set's
/// words).
fn meet(full: &[u64], mut list: impl Iterator<Item = usize>, acc: &mut [u64], out: &mut [u64]) {
    let words = acc.len();
    let Some(k) = list.next() else {
        return;
    };
    acc.copy_from_slice(set(full, k, words));
    for k in list {
        and_into(acc, set(full, k, words));
        if is_empty(acc) {
            return;
        }
    }
    or_into(out, acc);
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
}
