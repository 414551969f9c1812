//! Chains: X-Chain (one value, alternating strong and weak links, strong at
//! both ends) and XY-Chain (bivalue cells, each linked to the next by a
//! shared value). Either way one end holds the value, so a cell that sees
//! both ends cannot. The chains are found by breadth-first search over
//! "this candidate is true / false" states, so each elimination set is
//! reported once, with the shortest chain that proves it. Shape-agnostic.

use crate::engine::grid::Value;

use super::coloring::strong_links;
use super::{Board, CandidateRole, Highlights, Link, Step, Technique, barren};

/// The longest chain searched, in links.
pub const MAX_LINKS: usize = 24;

/// Elimination sets already found, each with the shortest step for it.
#[derive(Default)]
pub(super) struct Found {
    steps: Vec<(usize, Step)>,
}

impl Found {
    /// Keeps `step` (a chain of `len` links) unless an equal or shorter
    /// chain already eliminates the same candidates.
    pub(super) fn offer(&mut self, len: usize, step: Step) {
        match self
            .steps
            .iter_mut()
            .find(|(_, s)| s.eliminations == step.eliminations)
        {
            Some(entry) if len < entry.0 => *entry = (len, step),
            Some(_) => {}
            None => self.steps.push((len, step)),
        }
    }

    /// Whether a chain of at most `len` links already eliminates exactly
    /// `eliminations` (sorted).
    pub(super) fn known(&self, eliminations: &[(usize, Value)], len: usize) -> bool {
        self.steps
            .iter()
            .any(|(l, s)| *l <= len && s.eliminations == eliminations)
    }

    /// The first elimination set found, with the length of its shortest
    /// chain so far: the step a search that keeps only the first would give.
    pub(super) fn first(&self) -> Option<(usize, &Step)> {
        self.steps.first().map(|(l, s)| (*l, s))
    }

    /// How many elimination sets are known.
    pub(super) fn len(&self) -> usize {
        self.steps.len()
    }

    pub(super) fn into_steps(self) -> Vec<Step> {
        self.steps.into_iter().map(|(_, s)| s).collect()
    }
}

/// A breadth-first search's table of states, reused from one search to
/// the next: starting a search clears only the states the last one
/// reached (a 9×9 XY-Chain search runs about 60 searches over 729
/// states, and allocating and zeroing two tables for each was 6 % of the
/// instructions of generating 9×9 expert puzzles).
struct Bfs {
    parent: Vec<u32>,
    depth: Vec<u32>,
    /// The states reached, in the order reached: the queue.
    order: Vec<u32>,
}

const UNSEEN: u32 = u32::MAX;

impl Bfs {
    fn new(states: usize) -> Self {
        Bfs {
            parent: vec![UNSEEN; states],
            depth: vec![UNSEEN; states],
            order: Vec::new(),
        }
    }

    /// Forgets the last search and starts one at `state`, `depth` deep.
    fn start(&mut self, state: usize, depth: usize) {
        for &s in &self.order {
            self.parent[s as usize] = UNSEEN;
            self.depth[s as usize] = UNSEEN;
        }
        self.order.clear();
        self.depth[state] = depth as u32;
        self.order.push(state as u32);
    }

    /// The depth of `state`, if reached.
    fn depth(&self, state: usize) -> Option<usize> {
        let d = self.depth[state];
        (d != UNSEEN).then_some(d as usize)
    }

    /// Reaches `state` from `from`, `depth` deep, unless already reached.
    fn reach(&mut self, state: usize, from: usize, depth: usize) {
        if self.depth[state] == UNSEEN {
            self.depth[state] = depth as u32;
            self.parent[state] = from as u32;
            self.order.push(state as u32);
        }
    }

    /// The next state in the queue after the `head` taken so far.
    fn next(&self, head: &mut usize) -> Option<usize> {
        let s = *self.order.get(*head)?;
        *head += 1;
        Some(s as usize)
    }

    /// The states from the start to `state`.
    fn path(&self, mut state: usize) -> Vec<usize> {
        let mut path = vec![state];
        while self.parent[state] != UNSEEN {
            state = self.parent[state] as usize;
            path.push(state);
        }
        path.reverse();
        path
    }
}

/// X-Chain: on value d, start false ⇒ (strong) next true ⇒ (weak) next
/// false ⇒ … ⇒ end true; so start or end holds d.
pub fn x_chains(b: &Board) -> Vec<Step> {
    let cells = b.shape().cells();
    let mut found = Found::default();
    let mut bfs = Bfs::new(2 * cells);
    for d in 0..b.n() {
        if b.stopped() {
            break;
        }
        if barren::is_barren(b, Technique::XChain, 0, d) {
            continue;
        }
        let before = found.len();
        let links = strong_links(b, d);
        let mut strong: Vec<Vec<usize>> = vec![Vec::new(); cells];
        for &(x, y) in &links {
            strong[x].push(y);
            strong[y].push(x);
        }
        // Only cells with a strong link can continue a chain after a weak one.
        let linked: Vec<usize> = (0..cells).filter(|&c| !strong[c].is_empty()).collect();
        let mut weak: Vec<Vec<usize>> = vec![Vec::new(); cells];
        for &c in &linked {
            weak[c] = linked.iter().copied().filter(|&n| b.sees(c, n)).collect();
        }
        // State s: cell s/2, true when s is odd.
        for &start in &linked {
            bfs.start(2 * start, 0);
            let mut head = 0;
            while let Some(s) = bfs.next(&mut head) {
                let (c, on) = (s / 2, s % 2 == 1);
                let depth = bfs.depth[s] as usize;
                if depth >= MAX_LINKS {
                    continue;
                }
                let next: &[usize] = if on { &weak[c] } else { &strong[c] };
                for &n in next {
                    bfs.reach(2 * n + usize::from(!on), s, depth + 1);
                }
            }
            for &end in &linked {
                let t = 2 * end + 1;
                let Some(depth) = bfs.depth(t) else {
                    continue;
                };
                if end <= start {
                    continue;
                }
                let elim = b.seen_by_all(1 << d, &[start, end], &[]);
                if elim.is_empty() {
                    continue;
                }
                found.offer(depth, x_chain_step(b, d, &bfs.path(t), elim));
            }
        }
        if found.len() == before {
            barren::set_barren(b, Technique::XChain, 0, d);
        }
    }
    found.into_steps()
}

fn x_chain_step(b: &Board, d: usize, path: &[usize], elim: Vec<(usize, Value)>) -> Step {
    let v = Value::from_index(d);
    let chain: Vec<usize> = path.iter().map(|s| s / 2).collect();
    let links: Vec<Link> = path
        .windows(2)
        .map(|w| Link {
            from: (w[0] / 2, v),
            to: (w[1] / 2, v),
            // A link into a true state is strong.
            strong: w[1] % 2 == 1,
        })
        .collect();
    let mut text = b.cell_name(chain[0]);
    for l in &links {
        text.push_str(if l.strong { " = " } else { " − " });
        text.push_str(&b.cell_name(l.to.0));
    }
    let (a, e) = (chain[0], chain[chain.len() - 1]);
    let mut cand: Vec<(usize, Value)> = chain.iter().map(|&c| (c, v)).collect();
    cand.sort_unstable();
    cand.dedup();
    let mut h = Highlights {
        cells: cand.iter().map(|&(c, _)| c).collect(),
        candidates: cand,
        links,
        ..Highlights::default()
    };
    // State s is cell s / 2, true when s is odd.
    for &s in path {
        let role = if s % 2 == 1 {
            CandidateRole::ChainOn
        } else {
            CandidateRole::ChainOff
        };
        h.add_role(s / 2, v, role);
    }
    Step {
        technique: Technique::XChain,
        placements: Vec::new(),
        highlights: h,
        explanation: format!(
            "{}: on {}, {} (= strong, − weak link); if {} is not {} then {} is, so \
             one of them holds {} and a cell that sees both cannot",
            Technique::XChain.name(),
            b.symbol(d),
            text,
            b.cell_name(a),
            b.symbol(d),
            b.cell_name(e),
            b.symbol(d),
        ),
        eliminations: elim,
    }
}

/// XY-Chain: bivalue cells; start is not x ⇒ start is y ⇒ a linked cell is
/// not y ⇒ it is its other value ⇒ … ⇒ end is x; so start or end holds x.
pub fn xy_chains(b: &Board) -> Vec<Step> {
    let cells = b.shape().cells();
    let n = b.n();
    let bv: Vec<usize> = (0..cells).filter(|&c| b.count(c) == 2).collect();
    let mut near: Vec<Vec<usize>> = vec![Vec::new(); cells];
    for &c in &bv {
        near[c] = bv.iter().copied().filter(|&o| b.sees(c, o)).collect();
    }
    let mut found = Found::default();
    let mut bfs = Bfs::new(cells * n);
    // State (c, v) = c * n + v: cell c holds v.
    let other = |c: usize, v: usize| (b.mask(c) & !(1u64 << v)).trailing_zeros() as usize;
    for &start in &bv {
        if b.stopped() {
            break;
        }
        for x in super::bits(b.mask(start)) {
            bfs.start(start * n + other(start, x), 1);
            let mut head = 0;
            while let Some(s) = bfs.next(&mut head) {
                let (c, v) = (s / n, s % n);
                let depth = bfs.depth[s] as usize;
                if depth >= MAX_LINKS {
                    continue;
                }
                for &nb in &near[c] {
                    if b.has(nb, v) {
                        bfs.reach(nb * n + other(nb, v), s, depth + 2);
                    }
                }
            }
            for &end in &bv {
                let t = end * n + x;
                if end <= start || !b.has(end, x) {
                    continue;
                }
                let Some(depth) = bfs.depth(t) else {
                    continue;
                };
                let elim = b.seen_by_all(1 << x, &[start, end], &[]);
                if elim.is_empty() {
                    continue;
                }
                found.offer(depth, xy_chain_step(b, x, start, &bfs.path(t), elim));
            }
        }
    }
    found.into_steps()
}

fn xy_chain_step(
    b: &Board,
    x: usize,
    start: usize,
    path: &[usize],
    elim: Vec<(usize, Value)>,
) -> Step {
    let n = b.n();
    let val = Value::from_index;
    // The chain's candidates in order: (cell, false value), (cell, true value).
    let mut nodes: Vec<(usize, usize, usize)> = Vec::new();
    let mut prev_true = x;
    for (i, &s) in path.iter().enumerate() {
        let (c, v) = (s / n, s % n);
        let off = if i == 0 { x } else { prev_true };
        nodes.push((c, off, v));
        prev_true = v;
    }
    let mut links = Vec::new();
    for (i, &(c, off, on)) in nodes.iter().enumerate() {
        links.push(Link {
            from: (c, val(off)),
            to: (c, val(on)),
            strong: true,
        });
        if let Some(&(nc, noff, _)) = nodes.get(i + 1) {
            links.push(Link {
                from: (c, val(on)),
                to: (nc, val(noff)),
                strong: false,
            });
        }
    }
    let text = nodes
        .iter()
        .map(|&(c, off, on)| format!("({}={}){}", b.symbol(off), b.symbol(on), b.cell_name(c)))
        .collect::<Vec<_>>()
        .join(" − ");
    let end = nodes.last().map_or(start, |&(c, _, _)| c);
    let mut cells: Vec<usize> = nodes.iter().map(|&(c, _, _)| c).collect();
    cells.dedup();
    let mut h = Highlights {
        cells,
        candidates: vec![(start, val(x)), (end, val(x))],
        links,
        ..Highlights::default()
    };
    for &(c, off, on) in &nodes {
        h.add_role(c, val(off), CandidateRole::ChainOff);
        h.add_role(c, val(on), CandidateRole::ChainOn);
    }
    Step {
        technique: Technique::XYChain,
        placements: Vec::new(),
        highlights: h,
        explanation: format!(
            "{}: {}; if {} is not {} then {} is, so one of them holds {} and a \
             cell that sees both cannot",
            Technique::XYChain.name(),
            text,
            b.cell_name(start),
            b.symbol(x),
            b.cell_name(end),
            b.symbol(x),
        ),
        eliminations: elim,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Shape;
    use crate::engine::logic::tests::{empty6, only_at, set, v0};

    #[test]
    fn x_chain_on_6x6() {
        // r1c1 = r1c4 − r4c4 = r4c2 on 1.
        let mut b = empty6();
        only_at(&mut b, 0, 0, &[0, 3]);
        only_at(&mut b, 6 + 3, 0, &[3, 21]);
        only_at(&mut b, 3, 0, &[19, 21]);
        let steps = x_chains(&b);
        assert_eq!(steps.len(), 1);
        assert_eq!(steps[0].eliminations, vec![(7, v0(0)), (12, v0(0))]);
        assert_eq!(steps[0].highlights.links.len(), 3);
        // Nothing else sees both ends: no chain.
        b.remove(7, 0);
        b.remove(12, 0);
        assert!(x_chains(&b).is_empty());
    }

    #[test]
    fn xy_chain_on_6x6() {
        let mut b = empty6();
        set(&mut b, 0, 0b0011); // r1c1 {1,2}
        set(&mut b, 4, 0b0110); // r1c5 {2,3}
        set(&mut b, 28, 0b1100); // r5c5 {3,4}
        set(&mut b, 25, 0b1001); // r5c2 {1,4}
        let steps = xy_chains(&b);
        assert_eq!(steps.len(), 1);
        assert_eq!(
            steps[0].eliminations,
            vec![(1, v0(0)), (7, v0(0)), (24, v0(0)), (30, v0(0))]
        );
        assert_eq!(
            steps[0].highlights.candidates,
            vec![(0, v0(0)), (25, v0(0))]
        );
        // With r5c2 {4,5} the chain no longer closes on 1.
        let mut b2 = empty6();
        for (c, m) in [(0, 0b0011), (4, 0b0110), (28, 0b1100), (25, 0b11000)] {
            set(&mut b2, c, m);
        }
        assert!(xy_chains(&b2).is_empty());
    }

    /// On generated puzzles, no colouring or chain step removes a solution
    /// value, along whole solve paths; each technique fires.
    #[test]
    fn coloring_and_chains_are_sound_on_generated_puzzles() {
        let techniques = [
            Technique::ColorTrap,
            Technique::ColorWrap,
            Technique::XChain,
            Technique::XYChain,
        ];
        let fired =
            crate::engine::logic::tests::sound_along_paths(Shape::CLASSIC, 1..=6, &techniques);
        assert!(fired.iter().all(|&f| f > 0), "{fired:?}");
    }
}
