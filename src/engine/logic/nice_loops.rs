//! Nice loops and AICs, plain and grouped: which of the two searches runs,
//! and what both share.
//!
//! Two searches find these chains, and both stay:
//!
//! - [`super::tables`], on boards up to [`MAX_TABLE_SIDE`]: HoDoKu's
//!   implication tables, one per premise (a candidate set or removed),
//!   expanded breadth first. Following HoDoKu step for step is what makes
//!   our steps the ones its regression library lists. But the tables grow
//!   with the number of candidates (n³ premises, each table up to a
//!   thousand entries), so beyond 9×9 they cost too much time and memory.
//! - [`super::aic`], on larger boards: a breadth-first search over
//!   (node, true/false) states from each start, with a work budget, so a
//!   16×16 or 64×64 position costs a bounded amount whatever its size.
//!
//! Both use the same nodes ([`ChainNodes`]): candidates, group nodes
//! ([`group_nodes`]) and almost locked sets ([`super::als`]'s one
//! enumeration); they name nodes and eliminations alike and explain and
//! build their steps with [`explanation`] and [`chain_step`].

use crate::engine::grid::Value;

use super::tables::MAX_TABLE_SIDE;
use super::{Board, CandidateRole, Highlights, Link, SearchOptions, Step, Technique, aic, tables};

/// The nodes a chain technique may use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum ChainNodes {
    /// Single candidates: AICs and nice loops.
    Candidates,
    /// Candidates and group nodes: the grouped techniques without ALSs.
    Groups,
    /// Candidates, group nodes and almost locked sets: the grouped
    /// techniques as the solver runs them (HoDoKu's "ALS in chains").
    GroupsAndAls,
}

impl ChainNodes {
    /// The nodes of `technique` (a nice loop or AIC) searched with
    /// `options`.
    fn of(technique: Technique, options: SearchOptions) -> ChainNodes {
        match technique {
            Technique::Aic | Technique::ContinuousNiceLoop | Technique::DiscontinuousNiceLoop => {
                ChainNodes::Candidates
            }
            _ if options.als_in_chains => ChainNodes::GroupsAndAls,
            _ => ChainNodes::Groups,
        }
    }
}

/// Every step of `technique`, a nice loop or AIC (plain or grouped), in
/// the position: found with the tables up to [`MAX_TABLE_SIDE`], by the
/// budgeted search beyond.
pub(super) fn steps(
    b: &Board,
    technique: Technique,
    options: SearchOptions,
    first: bool,
) -> Vec<Step> {
    let nodes = ChainNodes::of(technique, options);
    if b.n() <= MAX_TABLE_SIDE {
        return tables::steps(b, nodes, technique);
    }
    match technique {
        Technique::ContinuousNiceLoop | Technique::GroupedContinuousNiceLoop => {
            aic::continuous_nice_loops(b, nodes, first)
        }
        Technique::DiscontinuousNiceLoop | Technique::GroupedDiscontinuousNiceLoop => {
            aic::discontinuous_nice_loops(b, nodes, first)
        }
        _ => aic::aics(b, nodes, first),
    }
}

/// A group node: digit `digit` in two or more cells of one line∩box
/// intersection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct GroupNode {
    pub(super) digit: usize,
    /// Its cells, ascending.
    pub(super) cells: Vec<usize>,
    /// The row or column unit it lies in.
    pub(super) line: usize,
    /// The box unit it lies in.
    pub(super) boxu: usize,
}

/// Every group node of the position: line by line (rows, then columns),
/// then digit by digit, then box by box.
pub(super) fn group_nodes(b: &Board) -> Vec<GroupNode> {
    let n = b.n();
    let shape = b.shape();
    let mut out = Vec::new();
    for line in 0..2 * n {
        for d in 0..n {
            // No group where d has fewer than two places (found without
            // listing them).
            let places = b.places(line, d);
            if places.count_ones() < 2 {
                continue;
            }
            // The line's places of d, box by box: a box's cells of the
            // line are `width` consecutive places.
            let cells = b.unit(line);
            let width = if line < n {
                shape.box_cols()
            } else {
                shape.box_rows()
            };
            for start in (0..n).step_by(width) {
                let seg = places >> start & ((1u64 << width) - 1);
                if seg.count_ones() >= 2 {
                    let cells: Vec<usize> = super::bits(seg)
                        .map(|j| cells[start + j] as usize)
                        .collect();
                    out.push(GroupNode {
                        digit: d,
                        boxu: 2 * n + shape.box_of(cells[0]),
                        cells,
                        line,
                    });
                }
            }
        }
    }
    out
}

/// Digit `digit` in the sorted `cells`: `(5)r1c2`, `(5)r1c23` (a group in
/// a row), `(5)r12c3` (in a column), `(5)r1c1,r2c3` (cells of no one line).
pub(super) fn cells_name(b: &Board, digit: usize, cells: &[usize]) -> String {
    let shape = b.shape();
    let same = |f: &dyn Fn(usize) -> usize| cells.iter().all(|&c| f(c) == f(cells[0]));
    if !same(&|c| shape.row_of(c)) && !same(&|c| shape.col_of(c)) {
        let names: Vec<String> = cells.iter().map(|&c| b.cell_name(c)).collect();
        return format!("({}){}", b.symbol(digit), names.join(","));
    }
    let sep = if b.n() > 9 { "," } else { "" };
    let list = |f: &dyn Fn(usize) -> usize| {
        let mut v: Vec<usize> = cells.iter().map(|&c| f(c) + 1).collect();
        v.dedup();
        v.iter().map(usize::to_string).collect::<Vec<_>>().join(sep)
    };
    format!(
        "({})r{}c{}",
        b.symbol(digit),
        list(&|c| shape.row_of(c)),
        list(&|c| shape.col_of(c))
    )
}

/// How a discontinuous nice loop starts and ends in its cell: each end's
/// digit and whether that end sets it (true) or removes it.
#[derive(Clone, Copy, Debug)]
pub(super) struct LoopEnds {
    pub(super) cell: usize,
    pub(super) first: (usize, bool),
    pub(super) last: (usize, bool),
}

/// A chain step's explanation: `{technique}: {chain} (= strong, − weak
/// link) {why}`, the why told by the technique and, for a discontinuous
/// loop, by its `ends` (`None` for AICs and continuous loops). The
/// eliminations follow as the step's effect.
pub(super) fn explanation(
    b: &Board,
    technique: Technique,
    chain: &str,
    ends: Option<LoopEnds>,
) -> String {
    let why = match (technique, ends) {
        (Technique::Aic | Technique::GroupedAic, _) => {
            "one of its ends is true, so what both rule out goes".to_string()
        }
        (_, Some(ends)) => {
            let start = b.cell_name(ends.cell);
            let (sc, ec) = (b.symbol(ends.first.0), b.symbol(ends.last.0));
            match (ends.first.1, ends.last.1) {
                (true, false) => {
                    format!("if {start} were {sc}, the loop would rule {sc} out there")
                }
                (false, true) if sc == ec => {
                    format!("if {start} were not {sc}, the loop would make it {sc}, so it is {sc}")
                }
                (true, true) => format!(
                    "if {start} were {sc}, the loop would make it {ec} as well, so it is not {sc}"
                ),
                _ => format!(
                    "{start} is {sc}, or else the loop rules {ec} out there: either way it is not {ec}"
                ),
            }
        }
        _ => "closes on itself, so exactly one node of each link is true and every weak link is \
              also strong"
            .to_string(),
    };
    format!(
        "{}: {chain} (= strong, − weak link) {why}",
        technique.name()
    )
}

/// A chain's step: it only eliminates; its highlights are the chain's
/// candidates (sorted, each once), their cells, its links and the roles
/// of its nodes (true or false as the chain is read, an ALS's cells as a
/// set).
pub(super) fn chain_step(
    technique: Technique,
    candidates: Vec<(usize, Value)>,
    links: Vec<Link>,
    roles: Vec<(usize, Value, CandidateRole)>,
    explanation: String,
    eliminations: Vec<(usize, Value)>,
) -> Step {
    let mut cells: Vec<usize> = candidates.iter().map(|&(c, _)| c).collect();
    cells.dedup();
    Step {
        technique,
        placements: Vec::new(),
        eliminations,
        highlights: Highlights {
            cells,
            candidates,
            links,
            roles,
            ..Highlights::default()
        },
        explanation,
    }
}

/// The role of a chain node true (`on`) or false as the chain is read.
pub(super) fn node_role(on: bool) -> CandidateRole {
    if on {
        CandidateRole::ChainOn
    } else {
        CandidateRole::ChainOff
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::logic::tests::{empty6, only_at};

    #[test]
    fn group_nodes_are_line_box_segments_of_two_or_more() {
        // On 6×6 (2×3 boxes), 1 in row 1 only at r1c1, r1c2 and r1c4:
        // r1c12 is a group (box 1); r1c4 alone in box 2 is not.
        let mut b = empty6();
        only_at(&mut b, 0, 0, &[0, 1, 3]);
        let groups = group_nodes(&b);
        let in_row1: Vec<&GroupNode> = groups
            .iter()
            .filter(|g| g.line == 0 && g.digit == 0)
            .collect();
        assert_eq!(in_row1.len(), 1, "{in_row1:?}");
        assert_eq!(in_row1[0].cells, vec![0, 1]);
        assert_eq!(in_row1[0].boxu, 12);
        assert_eq!(cells_name(&b, 0, &in_row1[0].cells), "(1)r1c12");
        // Every group lies in its line and its box.
        for g in &groups {
            assert!(g.cells.len() >= 2);
            for &c in &g.cells {
                assert!(b.units_of(c).contains(&g.line) && b.units_of(c).contains(&g.boxu));
                assert!(b.has(c, g.digit));
            }
        }
    }
}
