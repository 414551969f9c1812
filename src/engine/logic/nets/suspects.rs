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
//! cell and unit forcing nets), and follows only the first kind.

use super::{NONE, Net, bits};

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
    /// Per unit and value (u·n + d), its places as bits of the unit's
    /// cell order.
    places: Vec<u64>,
    /// Literal v links to `to[first[v]..first[v + 1]]`.
    first: Vec<u32>,
    to: Vec<u32>,
    tarjan: Tarjan,
    /// Per component, the candidates whose "false" it reaches, as bits.
    reach: Vec<u64>,
    /// Bits per component in [`Suspects::reach`].
    words: usize,
    /// For the static rule, per component: 0 not yet known, 1 no cell or
    /// unit emptied, 2 one emptied.
    emptied: Vec<u8>,
    /// Scratch: per cell and per unit and value, the places found false.
    cell_hits: Vec<u32>,
    unit_hits: Vec<u32>,
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
        self.index.clear();
        self.index.resize(cells * n, NONE);
        self.cand.clear();
        for c in 0..cells {
            for d in bits(net.start[c]) {
                self.index[c * n + d] = self.cand.len() as u32;
                self.cand.push((c, d));
            }
        }
        let m = self.cand.len();
        let units = b.shape().units();
        self.places.clear();
        self.places.resize(units * n, 0);
        for u in 0..units {
            for (i, &x) in b.unit(u).iter().enumerate() {
                for d in bits(net.start[x as usize]) {
                    self.places[u * n + d] |= 1 << i;
                }
            }
        }
        self.first.clear();
        self.to.clear();
        let index = &self.index;
        let places = &self.places;
        let to = &mut self.to;
        let lit = |c: usize, d: usize, on: bool| 2 * index[c * n + d] + u32::from(!on);
        // The places of `d` in unit `u` other than cell `c`.
        let others = |u: usize, c: usize, d: usize| {
            let cells = b.unit(u);
            bits(places[u * n + d])
                .map(move |i| cells[i] as usize)
                .filter(move |&x| x != c)
        };
        for &(c, d) in &self.cand {
            // True: the cell's other candidates and the value's other
            // places in its units (twice where two units meet) are false.
            self.first.push(to.len() as u32);
            for e in bits(net.start[c] & !(1 << d)) {
                to.push(lit(c, e, false));
            }
            let units_of = b.units_of(c);
            for u in units_of {
                to.extend(others(u, c, d).map(|x| lit(x, d, false)));
            }
            // False: the other candidate of a bivalue cell, the other
            // place of a unit with two, are true.
            self.first.push(to.len() as u32);
            if net.start[c].count_ones() == 2 {
                let e = (net.start[c] & !(1 << d)).trailing_zeros() as usize;
                to.push(lit(c, e, true));
            }
            for u in units_of {
                if net.done[u] >> d & 1 == 1 || net.had[u * n + d] != 2 {
                    continue;
                }
                to.extend(others(u, c, d).map(|x| lit(x, d, true)));
            }
        }
        self.first.push(to.len() as u32);
        let links = to.len();
        let t = &mut self.tarjan;
        t.run(&self.first, &self.to);
        let words = m.div_ceil(64);
        let count = t.components as usize;
        self.reach.clear();
        self.reach.resize(count * words, 0);
        for &l in &t.closed {
            let l = l as usize;
            let k = t.comp[l] as usize;
            if l % 2 == 1 {
                self.reach[k * words + l / 128] |= 1 << (l / 2 % 64);
            }
            for &x in &self.to[self.first[l] as usize..self.first[l + 1] as usize] {
                let j = t.comp[x as usize] as usize;
                if j != k {
                    // Closed before k: complete.
                    let (done, this) = self.reach.split_at_mut(k * words);
                    for (a, b) in this[..words]
                        .iter_mut()
                        .zip(&done[j * words..(j + 1) * words])
                    {
                        *a |= b;
                    }
                }
            }
        }
        self.words = words;
        self.may.clear();
        self.may.resize(cells * n, false);
        self.emptied.clear();
        self.emptied.resize(count, 0);
        for i in 0..m {
            let (c, d) = self.cand[i];
            let k = self.tarjan.comp[2 * i] as usize;
            let mut may = self.reach[k * words + i / 64] >> (i % 64) & 1 == 1;
            if whole && !may && net.start_value[c] == NONE {
                if self.emptied[k] == 0 {
                    self.emptied[k] = 1 + u8::from(self.empties(net, k));
                }
                may = self.emptied[k] == 2;
            }
            self.may[c * n + d] = may;
        }
        links
    }

    /// Whether the "false" candidates component `k` reaches are every
    /// candidate of a cell, or every place of a value in a unit (one
    /// where the value is not placed).
    fn empties(&mut self, net: &Net, k: usize) -> bool {
        let b = net.b;
        let n = net.n;
        let words = self.words;
        self.cell_hits.resize(net.start.len(), 0);
        self.unit_hits.resize(b.shape().units() * n, 0);
        let reach = &self.reach[k * words..(k + 1) * words];
        let ones = || {
            reach
                .iter()
                .enumerate()
                .flat_map(|(w, &x)| bits(x).map(move |j| w * 64 + j))
        };
        let mut empty = false;
        'count: for i in ones() {
            let (c, d) = self.cand[i];
            self.cell_hits[c] += 1;
            if self.cell_hits[c] == net.start[c].count_ones() {
                empty = true;
                break 'count;
            }
            for u in b.units_of(c) {
                if net.done[u] >> d & 1 == 1 {
                    continue;
                }
                let x = &mut self.unit_hits[u * n + d];
                *x += 1;
                if *x == net.had[u * n + d] {
                    empty = true;
                    break 'count;
                }
            }
        }
        // Back to zero, for the next component.
        for i in ones() {
            let (c, d) = self.cand[i];
            self.cell_hits[c] = 0;
            for u in b.units_of(c) {
                self.unit_hits[u * n + d] = 0;
            }
        }
        empty
    }

    /// The candidates (c·n + d, ascending) whose "false" the assumption
    /// `c` = `d` reaches, after [`Suspects::find`].
    pub(super) fn offs(&self, c: usize, d: usize, n: usize) -> Vec<u32> {
        let i = self.index[c * n + d] as usize;
        let k = self.tarjan.comp[2 * i] as usize;
        let words = self.words;
        self.reach[k * words..(k + 1) * words]
            .iter()
            .enumerate()
            .flat_map(|(w, &x)| bits(x).map(move |j| w * 64 + j))
            .map(|j| {
                let (c, d) = self.cand[j];
                (c * n + d) as u32
            })
            .collect()
    }
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
