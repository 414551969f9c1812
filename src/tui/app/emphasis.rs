//! What the board emphasises besides the cursor: the app decides it, the
//! board widget draws it. A hint or logic step shows its units by the part
//! they play (a fish's base and cover lines, the other units it is about),
//! its candidates by theirs (pattern, fin, removed, placed, chain on and
//! off, colours, sets), and a chain's cells numbered in chain order.

use crate::engine::Value;
use crate::engine::logic::{CandidateRole, Link, Step, Technique, UnitRole};
use crate::game::{Game, Hint};

/// How conflicts (a value twice in a unit) are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ConflictDisplay {
    /// Not shown.
    Off,
    /// The conflicting cells.
    #[default]
    Cells,
    /// The conflicting cells and a tint over every unit holding them.
    Unit,
}

/// What the board emphasises besides the cursor.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Emphasis {
    /// Tint the cells sharing a row, column or box with the cursor.
    pub peers: bool,
    /// Emphasise the cells (and notes) holding the cursor's value.
    pub same_digit: bool,
    /// How conflicts are shown.
    pub conflicts: ConflictDisplay,
    /// Units (rows 0..n, columns n..2n, boxes 2n..3n) a hint is about,
    /// each with the part it plays (a fish's base or cover line, or
    /// another unit the step is about).
    pub hint_units: Vec<(usize, UnitRole)>,
    /// Cells a hint marks as a whole (wrong entries; a step's cells that
    /// have no candidate to mark).
    pub hint_cells: Vec<usize>,
    /// Candidates a hint or step is about, each with the part it plays,
    /// sorted by cell and value. The board draws them whether or not the
    /// player noted them, so what a step removes is always on the board.
    pub candidates: Vec<(usize, Value, CandidateRole)>,
    /// A chain's cells with their place in chain order ("1", "2,5" for a
    /// cell visited twice, "a3" for the third cell of a forcing chain's
    /// first branch), sorted by cell.
    pub chain: Vec<(usize, String)>,
    /// The solver view: the cell where a value is being tried.
    pub solver_try: Option<usize>,
    /// The solver view: the cell whose guess was just taken back.
    pub solver_backtrack: Option<usize>,
}

impl Default for Emphasis {
    /// The usual play settings: peers, same digit and conflicting cells
    /// shown, no hint.
    fn default() -> Emphasis {
        Emphasis {
            peers: true,
            same_digit: true,
            conflicts: ConflictDisplay::Cells,
            hint_units: Vec::new(),
            hint_cells: Vec::new(),
            candidates: Vec::new(),
            chain: Vec::new(),
            solver_try: None,
            solver_backtrack: None,
        }
    }
}

impl Emphasis {
    /// Shows logic step `step`: its units with their roles; with `detail`
    /// also its candidates with their roles (what it removes and places
    /// among them) and its chain's order. The peers' tint goes, so the
    /// step's own tints read alone.
    pub fn show_step(&mut self, step: &Step, detail: bool) {
        self.peers = false;
        self.hint_units = step
            .highlights
            .units
            .iter()
            .chain(step.highlights.unit_roles.iter().map(|(u, _)| u))
            .filter_map(|&u| step.unit_role(u).map(|r| (u, r)))
            .collect();
        self.hint_units.sort_unstable();
        self.hint_units.dedup_by_key(|&mut (u, _)| u);
        if !detail {
            return;
        }
        self.candidates = step.candidate_roles();
        self.chain = chain_labels(step);
        // Cells of the pattern without a candidate to mark are marked whole.
        let mut cells: Vec<usize> = step
            .highlights
            .cells
            .iter()
            .copied()
            .filter(|&c| !self.candidates.iter().any(|&(rc, _, _)| rc == c))
            .collect();
        cells.sort_unstable();
        cells.dedup();
        self.hint_cells = cells;
    }

    /// Shows hint `hint` of `game` at `stage`: 1 the units it is about, 2
    /// (and on) its candidates too, as [`Emphasis::show_step`] does for a
    /// logic step; wrong entries are marked as cells at stage 2.
    pub fn show_hint(&mut self, hint: &Hint, game: &Game, stage: u8) {
        let detail = stage >= 2;
        match hint {
            Hint::Logic(step) => self.show_step(step, detail),
            Hint::Wrong { cells } => {
                if detail {
                    self.hint_cells = cells.clone();
                }
            }
            Hint::Place { cell, value, .. } => {
                self.peers = false;
                self.hint_units = hint
                    .units(game)
                    .into_iter()
                    .map(|u| (u, UnitRole::Involved))
                    .collect();
                if detail {
                    self.candidates = vec![(*cell, *value, CandidateRole::Placed)];
                }
            }
        }
    }

    /// The role of candidate (`cell`, `value`) in the hint or step shown.
    pub fn role_of(&self, cell: usize, value: Value) -> Option<CandidateRole> {
        self.candidates
            .binary_search_by(|&(c, v, _)| (c, v).cmp(&(cell, value)))
            .ok()
            .map(|i| self.candidates[i].2)
    }
}

/// Whether technique `t` tells its steps as chains whose links run in
/// order (so numbering the cells along them reads as the chain): the
/// single-digit patterns made of links, wings with links, chains, loops
/// and forcing chains. Colourings (conjugate pairs, coloured instead) and
/// ALS steps (their links join sets, coloured by set) are not numbered.
pub fn numbers_chain(t: Technique) -> bool {
    matches!(
        t,
        Technique::Skyscraper
            | Technique::TwoStringKite
            | Technique::TurbotFish
            | Technique::EmptyRectangle
            | Technique::DualTwoStringKite
            | Technique::DualEmptyRectangle
            | Technique::WWing
            | Technique::RemotePair
            | Technique::XChain
            | Technique::XYChain
            | Technique::ContinuousNiceLoop
            | Technique::DiscontinuousNiceLoop
            | Technique::Aic
            | Technique::GroupedContinuousNiceLoop
            | Technique::GroupedDiscontinuousNiceLoop
            | Technique::GroupedAic
            | Technique::ForcingChain
            | Technique::DynamicForcingChain
            | Technique::DynamicForcingChainPlus
            | Technique::NestedForcingChain(_)
    )
}

/// The chain of `step` as numbered cells: each cell the chain passes
/// through, in order, gets its place ("1", "2", …; nodes one after another
/// in one cell are one place, and a loop's return to its first cell is not
/// numbered again). A step whose links form several runs (a forcing
/// chain's branches, a dual kite's two kites) numbers each run after a
/// letter ("a1", "a2", "b1", …), except that a first cell every run starts
/// from is plain "1". A cell in several places lists them ("2,5"). Empty
/// unless [`numbers_chain`] holds for the step's technique.
pub fn chain_labels(step: &Step) -> Vec<(usize, String)> {
    if !numbers_chain(step.technique) {
        return Vec::new();
    }
    let runs = runs(&step.highlights.links);
    // Each run's cells in order, consecutive nodes in one cell merged.
    let visits: Vec<Vec<usize>> = runs
        .iter()
        .map(|nodes| {
            let mut cells: Vec<usize> = Vec::new();
            for &(c, _) in nodes {
                if cells.last() != Some(&c) {
                    cells.push(c);
                }
            }
            if cells.len() > 2 && cells.first() == cells.last() {
                cells.pop();
            }
            cells
        })
        .collect();
    let mut labels: Vec<(usize, String)> = Vec::new();
    let mut add = |cell: usize, label: String| match labels.iter_mut().find(|(c, _)| *c == cell) {
        Some((_, l)) => {
            if !l.split(',').any(|x| x == label) {
                l.push(',');
                l.push_str(&label);
            }
        }
        None => labels.push((cell, label)),
    };
    let first = visits.first().and_then(|v| v.first()).copied();
    let shared_start = visits.len() > 1 && visits.iter().all(|v| v.first() == first.as_ref());
    for (k, cells) in visits.iter().enumerate() {
        for (i, &cell) in cells.iter().enumerate() {
            let label = if visits.len() == 1 || (shared_start && i == 0) {
                (i + 1).to_string()
            } else {
                let letter = char::from(b'a' + (k % 26) as u8);
                format!("{letter}{}", i + 1)
            };
            add(cell, label);
        }
    }
    labels.sort_unstable();
    labels
}

/// The links split into runs where each link starts where the one before
/// it ended, as the nodes of each run in order.
fn runs(links: &[Link]) -> Vec<Vec<(usize, Value)>> {
    let mut out: Vec<Vec<(usize, Value)>> = Vec::new();
    for l in links {
        match out.last_mut() {
            Some(run) if run.last() == Some(&l.from) => run.push(l.to),
            _ => out.push(vec![l.from, l.to]),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::logic::{Highlights, Technique};

    fn v(d: usize) -> Value {
        Value::new(d).unwrap_or(Value::from_index(0))
    }

    fn link(from: (usize, usize), to: (usize, usize), strong: bool) -> Link {
        Link {
            from: (from.0, v(from.1)),
            to: (to.0, v(to.1)),
            strong,
        }
    }

    fn step(t: Technique, links: Vec<Link>) -> Step {
        Step {
            technique: t,
            placements: Vec::new(),
            eliminations: Vec::new(),
            highlights: Highlights {
                links,
                ..Highlights::default()
            },
            explanation: String::new(),
        }
    }

    fn labels(s: &Step) -> Vec<(usize, String)> {
        chain_labels(s)
    }

    fn want(list: &[(usize, &str)]) -> Vec<(usize, String)> {
        list.iter().map(|&(c, t)| (c, t.to_string())).collect()
    }

    /// An AIC through a cell twice in a row (two of its candidates) is one
    /// place there.
    #[test]
    fn a_chain_numbers_its_cells_in_order() {
        let s = step(
            Technique::Aic,
            vec![
                link((20, 3), (21, 3), true),
                link((21, 3), (21, 9), false),
                link((21, 9), (57, 9), true),
                link((57, 9), (57, 2), false),
                link((57, 2), (55, 2), true),
            ],
        );
        assert_eq!(
            labels(&s),
            want(&[(20, "1"), (21, "2"), (55, "4"), (57, "3")])
        );
    }

    /// A loop's return to its first cell is not numbered again; a cell
    /// passed twice lists both places.
    #[test]
    fn loops_and_cells_passed_twice() {
        let s = step(
            Technique::ContinuousNiceLoop,
            vec![
                link((7, 6), (3, 6), true),
                link((3, 6), (23, 6), false),
                link((23, 6), (3, 1), true),
                link((3, 1), (9, 1), false),
                link((9, 1), (7, 1), true),
            ],
        );
        assert_eq!(
            labels(&s),
            want(&[(3, "2,4"), (7, "1"), (9, "5"), (23, "3")])
        );
    }

    /// A forcing chain's branches from one cell: the cell is 1, each
    /// branch lettered after it.
    #[test]
    fn forcing_chain_branches_are_lettered() {
        let s = step(
            Technique::ForcingChain,
            vec![
                link((0, 1), (5, 2), false),
                link((5, 2), (40, 3), false),
                link((0, 4), (40, 3), false),
            ],
        );
        assert_eq!(labels(&s), want(&[(0, "1"), (5, "a2"), (40, "a3,b2")]));
    }

    /// Colourings and ALS steps are not numbered.
    #[test]
    fn colourings_are_not_numbered() {
        let s = step(Technique::ColorTrap, vec![link((0, 1), (5, 1), true)]);
        assert!(chain_labels(&s).is_empty());
        let s = step(Technique::AlsXz, vec![link((0, 1), (5, 1), false)]);
        assert!(chain_labels(&s).is_empty());
    }
}
