//! Tarjan's strongly connected components of a graph of implications,
//! for the searches that answer for every start at once by what each
//! component reaches: the nets' graph of links (`nets/suspects.rs`) and
//! the implication tables' test for a search that cannot find anything
//! (`tables.rs`).

const NONE: u32 = u32::MAX;

/// Tarjan's strongly connected components, with its buffers.
#[derive(Debug, Default)]
pub(super) struct Tarjan {
    order: Vec<u32>,
    low: Vec<u32>,
    /// Each node's component, numbered in the order they close (every
    /// component after all it reaches).
    pub(super) comp: Vec<u32>,
    /// The nodes in the order their components closed.
    pub(super) closed: Vec<u32>,
    pub(super) components: u32,
    stack: Vec<u32>,
    /// (node, next link to look at)
    calls: Vec<(u32, u32)>,
}

impl Tarjan {
    /// The components of the graph whose node `v` links to
    /// `to[first[v]..first[v + 1]]`.
    pub(super) fn run(&mut self, first: &[u32], to: &[u32]) {
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
            'node: while let Some(&(v, from)) = self.calls.last() {
                let v = v as usize;
                // The links of `v` not looked at yet, in one run: a link
                // to a node not met yet suspends it (its place kept).
                let mut at = from;
                let end = first[v + 1];
                let mut low = self.low[v];
                while at < end {
                    let w = to[at as usize] as usize;
                    at += 1;
                    if self.order[w] == NONE {
                        if let Some(top) = self.calls.last_mut() {
                            top.1 = at;
                        }
                        self.low[v] = low;
                        self.order[w] = next;
                        self.low[w] = next;
                        next += 1;
                        self.stack.push(w as u32);
                        self.calls.push((w as u32, first[w]));
                        continue 'node;
                    } else if self.comp[w] == NONE {
                        low = low.min(self.order[w]);
                    }
                }
                self.low[v] = low;
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
