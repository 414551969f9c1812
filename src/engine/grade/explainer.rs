//! The SE-style rating: the puzzle walked the way the Sudoku Explainer
//! family rates it, so our 1.0 – 11.x number means what theirs does.
//!
//! That family tries its rules in a fixed order (singles, intersections,
//! subsets and basic fish, short single-digit chains, small wings, unique
//! rectangles, large wings up to five cells, then chains, the larger wings
//! and forcing chains), takes a step
//! from the first rule that finds one — the easiest of that rule's steps
//! where steps of one rule differ in rating — applies it and starts again;
//! the puzzle's rating is the hardest step on that walk. Rules it does not
//! know (finned fish, colouring, W-Wings, ALS, grouped chains …) are left
//! out here, so a puzzle that needs one of those patterns rates at the
//! chain or forcing chain that replaces it there.
//!
//! A chain's rating grows with its length the way theirs does: a base for
//! its kind (6.5 a one-digit or bivalue loop, 6.6 a one-digit chain, 7.0 a
//! mixed chain or loop, 8.0 a forcing chain) plus 0.1 for each step of a
//! geometric ladder of node counts ([`length_bonus`]). Their chain rule
//! searches loops of bivalue cells apart (Y-Cycles); our loop search keeps
//! one loop per set of eliminations, the shortest, often a mixed one, so
//! the walk looks for Y-Cycles itself ([`y_cycles`]).
//!
//! The walk is our own: the steps come from our techniques, so ratings
//! agree with theirs where the two find the same patterns.

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use crate::engine::grid::{Grid, Value};
use crate::engine::limits::Limits;
use crate::engine::logic::{
    Board, Link, PathError, Step, Technique, find_all, finished, walk_with, wings,
};

use super::GUESS_RATING;

/// One rule of the order: the techniques it asks, and which of their
/// steps it takes (some rules take only chains of a given size).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rule {
    /// Every productive step of these techniques.
    Any(&'static [Technique]),
    /// One-digit chains of exactly this many strong links.
    StrongLinks(usize),
    /// Basic fish larger than a Jellyfish (boards over 9×9).
    BigFish,
    /// Naked and hidden subsets larger than a quad (boards over 9×9).
    BigSubsets,
    /// Our forcing chains that rate below their dynamic chains (8.5):
    /// their Nishio and multiple forcing chains.
    StaticForcing,
}

/// How many rules at the head of [`ORDER`] are singles.
const SINGLES: usize = 2;

/// The order rules are tried in, easiest first.
const ORDER: &[Rule] = &[
    Rule::Any(&[Technique::FullHouse, Technique::HiddenSingle]),
    Rule::Any(&[Technique::NakedSingle]),
    Rule::Any(&[Technique::Pointing, Technique::Claiming]),
    Rule::Any(&[Technique::NakedPair, Technique::LockedPair]),
    Rule::Any(&[Technique::Fish(2)]),
    Rule::Any(&[Technique::HiddenPair]),
    Rule::Any(&[Technique::NakedTriple, Technique::LockedTriple]),
    Rule::Any(&[Technique::Fish(3)]),
    Rule::Any(&[Technique::HiddenTriple]),
    Rule::Any(&[
        Technique::Skyscraper,
        Technique::TwoStringKite,
        Technique::TurbotFish,
        Technique::EmptyRectangle,
    ]),
    Rule::Any(&[Technique::XYWing]),
    Rule::Any(&[Technique::XYZWing]),
    Rule::Any(&[
        Technique::UniqueRectangle(1),
        Technique::UniqueRectangle(2),
        Technique::UniqueRectangle(3),
        Technique::UniqueRectangle(4),
    ]),
    Rule::Any(&[Technique::NakedQuad]),
    Rule::Any(&[Technique::Fish(4)]),
    Rule::Any(&[Technique::HiddenQuad]),
    Rule::BigFish,
    Rule::BigSubsets,
    Rule::StrongLinks(3),
    Rule::Any(&[Technique::LargeWing(4)]),
    Rule::Any(&[Technique::BugPlusOne]),
    Rule::StrongLinks(4),
    Rule::Any(&[Technique::LargeWing(5)]),
    // Their chains and loops. An XY-Chain is an AIC here (the AIC search
    // finds it, with the same rating), so it is not searched twice.
    Rule::Any(&[
        Technique::ContinuousNiceLoop,
        Technique::XChain,
        Technique::DiscontinuousNiceLoop,
        Technique::Aic,
    ]),
    // The six-cell wing comes after the chains: on the rated set, of 696
    // puzzles whose hardest step it was when it came before them (at
    // 6.6), they rated 29 at 6.6 and 639 higher (453 at 7.1).
    Rule::Any(&[Technique::LargeWing(6)]),
    Rule::Any(&[Technique::LargeWing(7)]),
    // Our forcing chains (`forcing.rs`) are dynamic chains, but their
    // steps count placements only: those that rate as their dynamic
    // chains are left to the nets, which count every node as theirs do.
    Rule::StaticForcing,
    // Their dynamic and nested forcing chains, by level.
    Rule::Any(&[Technique::DynamicForcingChain]),
    Rule::Any(&[Technique::DynamicForcingChainPlus]),
    Rule::Any(&[Technique::NestedForcingChain(2)]),
    Rule::Any(&[Technique::NestedForcingChain(3)]),
    Rule::Any(&[Technique::NestedForcingChain(4)]),
    Rule::Any(&[Technique::NestedForcingChain(5)]),
    Rule::Any(&[Technique::TemplateSet, Technique::TemplateDelete]),
];

/// The rating a chain of `nodes` nodes adds to its kind's base: nothing
/// up to 6 nodes, then 0.1 each time the node count (less two) passes the
/// next rung of 4, 6, 8, 12, 16, 24, 32, … (alternately × 3/2 and × 4/3).
pub fn length_bonus(nodes: usize) -> f32 {
    let length = nodes.saturating_sub(2);
    let (mut rung, mut tenths, mut half) = (4usize, 0u32, true);
    while length > rung {
        tenths += 1;
        rung = if half { rung * 3 / 2 } else { rung * 4 / 3 };
        half = !half;
    }
    tenths as f32 / 10.0
}

/// Whether every link of a chain is on one digit, between two cells.
fn one_digit(links: &[Link]) -> bool {
    links
        .iter()
        .all(|l| l.from.1 == links[0].from.1 && l.to.1 == l.from.1 && l.from.0 != l.to.0)
}

/// Whether every strong link of a chain is inside a cell (bivalue cells
/// only) and every weak one between two cells on one digit.
fn bivalue_only(links: &[Link]) -> bool {
    links.iter().all(|l| {
        if l.strong {
            l.from.0 == l.to.0
        } else {
            l.from.0 != l.to.0 && l.from.1 == l.to.1
        }
    })
}

/// The kind of house a strong link between two cells lies in: 0 a box
/// (only), 1 a row, 2 a column.
fn house_kind(b: &Board, l: &Link) -> u8 {
    let s = b.shape();
    let (x, y) = (l.from.0, l.to.0);
    if s.row_of(x) == s.row_of(y) {
        1
    } else if s.col_of(x) == s.col_of(y) {
        2
    } else {
        0
    }
}

/// What the mix of houses adds to a one-digit chain of strong links: none
/// when all lie in parallel lines, 0.1 for boxes with one kind of line or
/// rows with columns, 0.2 for boxes with both.
fn house_mix(b: &Board, links: &[Link]) -> f32 {
    let mut kinds = [false; 3];
    for l in links.iter().filter(|l| l.strong) {
        kinds[usize::from(house_kind(b, l))] = true;
    }
    match kinds {
        [false, true, false] | [false, false, true] => 0.0,
        [true, true, true] => 0.2,
        _ => 0.1,
    }
}

/// The SE-style rating of one step found on board `b`, or `None` when the
/// Explainer family has no rule for it (then it is not taken).
fn rate(b: &Board, rule: Rule, step: &Step) -> Option<f32> {
    let links = &step.highlights.links;
    let strong = links.iter().filter(|l| l.strong).count();
    match rule {
        Rule::StrongLinks(k) => {
            (step.technique == Technique::XChain && strong == k && one_digit(links))
                .then(|| if k == 3 { 5.4 } else { 5.8 } + house_mix(b, links))
        }
        Rule::BigFish => Some(5.6),
        Rule::BigSubsets => Some(super::rating(step.technique)),
        Rule::StaticForcing => Some(forcing(step)).filter(|&r| r < 8.5),
        Rule::Any(_) => Some(match step.technique {
            Technique::LargeWing(k) => return large_wing(b, k, step),
            Technique::HiddenSingle => {
                let in_box = step.highlights.units.iter().any(|&u| u >= 2 * b.n());
                if in_box { 1.2 } else { 1.5 }
            }
            Technique::LockedPair => 3.0,
            Technique::LockedTriple => 3.6,
            Technique::Skyscraper => 4.0,
            Technique::TwoStringKite => 4.1,
            Technique::TurbotFish => 4.0 + house_mix(b, links).max(0.1),
            Technique::EmptyRectangle => 4.3,
            Technique::UniqueRectangle(3) => 4.6,
            Technique::UniqueRectangle(_) => 4.5,
            Technique::ContinuousNiceLoop => {
                let base = if one_digit(links) || bivalue_only(links) {
                    6.5
                } else {
                    7.0
                };
                base + length_bonus(links.len())
            }
            Technique::DiscontinuousNiceLoop => {
                let base = if one_digit(links) { 6.6 } else { 7.0 };
                base + length_bonus(links.len() + 1)
            }
            Technique::XChain => 6.6 + length_bonus(links.len() + 3),
            Technique::Aic => {
                let base = if one_digit(links) { 6.6 } else { 7.0 };
                base + length_bonus(links.len() + 3)
            }
            Technique::ForcingChain => forcing(step),
            Technique::DynamicForcingChain
            | Technique::DynamicForcingChainPlus
            | Technique::NestedForcingChain(_) => {
                super::rating(step.technique)
                    + length_bonus(crate::engine::logic::nets::nodes_of(step).unwrap_or(0))
            }
            Technique::TemplateSet | Technique::TemplateDelete => 8.5,
            t => super::rating(t),
        }),
    }
}

/// A forcing chain's rating. With one branch it is a contradiction: 7.5
/// on one digit (their Nishio), else 8.5 (their dynamic chains, which
/// ours resemble: each placement updates the candidates). With several
/// branches (every candidate of a cell, every place in a unit) it is 8.0.
/// Their length counts nodes "on" and "off": about two per placement,
/// one per assumption and one per elimination reached, over all branches.
fn forcing(step: &Step) -> f32 {
    let links = &step.highlights.links;
    let branches = step.highlights.candidates.len();
    if branches <= 1 {
        let digit = step.eliminations.first().map(|&(_, v)| v);
        let single = links
            .iter()
            .all(|l| Some(l.from.1) == digit && Some(l.to.1) == digit);
        let base = if single { 7.5 } else { 8.5 };
        return base + length_bonus(2 * (2 * links.len() + 1));
    }
    let nodes = if step.placements.is_empty() {
        2 * links.len()
    } else {
        2 * links.len() + branches
    };
    8.0 + length_bonus(nodes)
}

/// A large wing's rating, when it has the shape their wings have: one
/// bivalue cell and the other cells all in one house (an almost locked
/// set). 5.5 for 4 cells, 6.2 for 5, 6.6 for 6, 7.5 for 7, the first two
/// a tenth or two higher the nearer the house cells' largest candidate
/// count is to three.
fn large_wing(b: &Board, k: u8, step: &Step) -> Option<f32> {
    let cells = &step.highlights.cells;
    let house = cells.iter().filter(|&&y| b.count(y) == 2).find_map(|&y| {
        let rest: Vec<usize> = cells.iter().copied().filter(|&c| c != y).collect();
        (!b.shared_units(&rest).is_empty()).then_some(rest)
    })?;
    let widest = house.iter().map(|&c| b.count(c)).max().unwrap_or(2) as i32;
    let near = (3 - widest).abs();
    Some(match k {
        4 => 5.5 + 0.1 * (1 - near).max(0) as f32,
        5 => 6.2 + 0.1 * (2 - near).max(0) as f32,
        6 => 6.6,
        _ => 7.5,
    })
}

/// The techniques a rule asks.
fn techniques(rule: Rule, n: usize) -> Vec<Technique> {
    match rule {
        Rule::Any(ts) => ts.to_vec(),
        Rule::StrongLinks(_) => vec![Technique::XChain],
        Rule::BigFish => Technique::big_fish(n).collect(),
        Rule::BigSubsets => Technique::big_subsets(n).collect(),
        Rule::StaticForcing => vec![Technique::ForcingChain],
    }
}

/// The steps the Explainer order takes in a position, with their rating:
/// the lowest-rated step of the first rule that finds any. Singles are
/// taken all at once — every one of the lowest rating, one per cell — as
/// taking them one by one gives the same hardest step: a single stays a
/// single while others are placed.
fn next(b: &Board) -> Vec<(Step, f32)> {
    let mut seen: HashMap<Technique, Vec<Step>> = HashMap::new();
    for (i, &rule) in ORDER.iter().enumerate() {
        if b.stopped() {
            return Vec::new();
        }
        let mut rated: Vec<(Step, f32)> = Vec::new();
        for t in techniques(rule, b.n()) {
            let steps = seen.entry(t).or_insert_with(|| match t {
                // Only their shape is rated: search only that.
                Technique::LargeWing(k) => finished(b, wings::se_large_wings(b, k.into())),
                _ => find_all(b, t),
            });
            rated.extend(
                steps
                    .iter()
                    .filter(|s| s.is_productive())
                    .filter_map(|s| rate(b, rule, s).map(|r| (s.clone(), r))),
            );
        }
        // Their chain rule searches loops of bivalue cells on their own
        // (Y-Cycles, 6.5): ours keeps the shortest loop for a set of
        // eliminations, which may be a mixed one (7.0) where a longer
        // Y-Cycle removes the same.
        if matches!(rule, Rule::Any(ts) if ts.contains(&Technique::ContinuousNiceLoop)) {
            rated.extend(
                y_cycles(b)
                    .into_iter()
                    .filter_map(|s| rate(b, rule, &s).map(|r| (s, r))),
            );
        }
        let Some(low) = rated.iter().map(|&(_, r)| r).min_by(f32::total_cmp) else {
            continue;
        };
        rated.retain(|&(_, r)| r == low);
        if i < SINGLES {
            let mut cells = HashSet::new();
            rated.retain(|(s, _)| s.placements.iter().all(|&(c, _)| cells.insert(c)));
        } else {
            rated.truncate(1);
        }
        return rated;
    }
    Vec::new()
}

/// Most cells of a Y-Cycle searched.
const Y_CYCLE_CELLS: usize = 12;

/// Most cells the Y-Cycle search visits in one position.
const Y_CYCLE_WORK: usize = 200_000;

/// The continuous loops of bivalue cells (SE's Y-Cycles) that remove
/// something: each cell's two candidates are its strong link, and
/// consecutive cells see each other and share the value of the weak link
/// between them; that value goes from every other cell that sees both.
/// Each loop once, from its first cell (in the order of the bivalue cells)
/// in both directions; at most [`Y_CYCLE_CELLS`] cells, and the search
/// stops after [`Y_CYCLE_WORK`] cells visited.
fn y_cycles(b: &Board) -> Vec<Step> {
    let cells = b.shape().cells();
    let biv: Vec<usize> = (0..cells)
        .filter(|&c| b.value(c).is_none() && b.count(c) == 2)
        .collect();
    // Per bivalue cell, the others it sees that share a value, with that
    // value (twice when they share both).
    let mut next: Vec<Vec<(usize, usize)>> = vec![Vec::new(); biv.len()];
    for (i, &c) in biv.iter().enumerate() {
        for (j, &o) in biv.iter().enumerate() {
            if o != c && b.sees(c, o) {
                next[i].extend(b.digits(c).filter(|&d| b.has(o, d)).map(|d| (j, d)));
            }
        }
    }
    let mut out = Vec::new();
    let mut work = 0usize;
    // (cell index, value that leaves it)
    let mut path: Vec<(usize, usize)> = Vec::new();
    for s in 0..biv.len() {
        for x0 in b.digits(biv[s]) {
            path.clear();
            path.push((s, x0));
            y_walk(b, &biv, &next, &mut path, &mut work, &mut out);
        }
    }
    out
}

fn y_walk(
    b: &Board,
    biv: &[usize],
    next: &[Vec<(usize, usize)>],
    path: &mut Vec<(usize, usize)>,
    work: &mut usize,
    out: &mut Vec<Step>,
) {
    let (s, x0) = path[0];
    let (cur, x) = path[path.len() - 1];
    for &(j, d) in &next[cur] {
        if d != x || *work >= Y_CYCLE_WORK {
            continue;
        }
        *work += 1;
        if j == s {
            // Back into the first cell by its other value.
            if path.len() >= 3
                && d != x0
                && let Some(step) = y_cycle_step(b, biv, path)
            {
                out.push(step);
            }
            continue;
        }
        if j < s || path.len() >= Y_CYCLE_CELLS || path.iter().any(|&(i, _)| i == j) {
            continue;
        }
        // Out by the cell's other value.
        let leave = (b.mask(biv[j]) & !(1 << d)).trailing_zeros() as usize;
        path.push((j, leave));
        y_walk(b, biv, next, path, work, out);
        path.pop();
    }
}

/// The step of the Y-Cycle through `path` (cells by index in `biv`, each
/// with the value that leaves it), when it removes anything.
fn y_cycle_step(b: &Board, biv: &[usize], path: &[(usize, usize)]) -> Option<Step> {
    let k = path.len();
    let on_loop: Vec<usize> = path.iter().map(|&(i, _)| biv[i]).collect();
    let mut eliminations = Vec::new();
    let mut links = Vec::with_capacity(2 * k);
    for w in 0..k {
        let (i, x) = path[w];
        let (j, _) = path[(w + 1) % k];
        let (here, there) = (biv[i], biv[j]);
        let entered = path[(w + k - 1) % k].1;
        links.push(Link {
            from: (here, Value::from_index(entered)),
            to: (here, Value::from_index(x)),
            strong: true,
        });
        links.push(Link {
            from: (here, Value::from_index(x)),
            to: (there, Value::from_index(x)),
            strong: false,
        });
        eliminations.extend(b.seen_by_all(1 << x, &[here, there], &on_loop));
    }
    eliminations.sort_unstable();
    eliminations.dedup();
    if eliminations.is_empty() {
        return None;
    }
    let names: Vec<String> = on_loop.iter().map(|&c| b.cell_name(c)).collect();
    Some(Step {
        technique: Technique::ContinuousNiceLoop,
        placements: Vec::new(),
        eliminations,
        highlights: crate::engine::logic::Highlights {
            cells: on_loop,
            links,
            ..Default::default()
        },
        explanation: format!("Y-Cycle through {}", names.join(", ")),
    })
}

/// The Explainer-order walk from `board` to its solution `solution`:
/// each step with its SE-style rating, ending with a labelled guess
/// (rated [`GUESS_RATING`]) when the walk gets stuck, as their solver gives
/// up there.
pub fn walk(
    board: &Board,
    solution: &Grid,
    limits: &Limits,
) -> Result<Vec<(Step, f32)>, PathError> {
    let mut ratings = Vec::new();
    let steps = walk_with(
        board,
        solution,
        limits,
        |b| {
            let found = next(b);
            ratings.extend(found.iter().map(|&(_, r)| r));
            found.into_iter().map(|(s, _)| s).collect()
        },
        true,
    )?;
    let ratings = ratings.into_iter().chain(std::iter::repeat(GUESS_RATING));
    Ok(steps.into_iter().zip(ratings).collect())
}

/// The SE-style rating of the position on `board` (whose solution is
/// `solution`): the hardest step of the Explainer-order [`walk`] (1.0 when
/// nothing is left to do), with that step's technique.
pub fn rating(
    board: &Board,
    solution: &Grid,
    limits: &Limits,
) -> Result<(f32, Option<Technique>), PathError> {
    let mut hardest = (1.0, None);
    for (step, r) in walk(board, solution, limits)? {
        if r > hardest.0 {
            hardest = (r, Some(step.technique));
        }
    }
    Ok(hardest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::format::parse_one;
    use crate::engine::grid::Value;
    use crate::engine::logic::Highlights;
    use crate::engine::{NoTrace, Outcome, Shape, solve};

    fn v(d: usize) -> Value {
        Value::from_index(d)
    }

    fn link(from: (usize, usize), to: (usize, usize), strong: bool) -> Link {
        Link {
            from: (from.0, v(from.1)),
            to: (to.0, v(to.1)),
            strong,
        }
    }

    fn chain(technique: Technique, links: Vec<Link>) -> Step {
        Step {
            technique,
            placements: Vec::new(),
            eliminations: vec![(80, v(0))],
            highlights: Highlights {
                links,
                ..Highlights::default()
            },
            explanation: String::new(),
        }
    }

    fn tenths(r: Option<f32>) -> Option<i32> {
        r.map(|r| (r * 10.0).round() as i32)
    }

    #[test]
    fn the_length_bonus_climbs_a_geometric_ladder() {
        let bonus = |nodes| (length_bonus(nodes) * 10.0).round() as i32;
        for (nodes, tenths) in [
            (0, 0),
            (6, 0),
            (7, 1),
            (8, 1),
            (9, 2),
            (10, 2),
            (11, 3),
            (14, 3),
            (15, 4),
            (18, 4),
            (19, 5),
            (26, 5),
            (27, 6),
            (34, 6),
            (35, 7),
            (50, 7),
            (51, 8),
        ] {
            assert_eq!(bonus(nodes), tenths, "{nodes} nodes");
        }
    }

    #[test]
    fn chains_rate_by_kind_and_length() {
        let b = Board::from_values(Shape::CLASSIC, &[None; 81]).unwrap();
        let any = Rule::Any(&[]);
        // An XY-Chain over three bivalue cells, as the AIC search finds it:
        // 5 links, 8 nodes with the target's two: 7.0 + 0.1.
        let xy = chain(
            Technique::Aic,
            vec![
                link((0, 0), (0, 1), true),
                link((0, 1), (1, 1), false),
                link((1, 1), (1, 2), true),
                link((1, 2), (10, 2), false),
                link((10, 2), (10, 0), true),
            ],
        );
        assert_eq!(tenths(rate(&b, any, &xy)), Some(71));
        // A one-digit loop of four links (an X-Wing as a cycle): 6.5.
        let x_loop = chain(
            Technique::ContinuousNiceLoop,
            vec![
                link((0, 4), (8, 4), true),
                link((8, 4), (17, 4), false),
                link((17, 4), (9, 4), true),
                link((9, 4), (0, 4), false),
            ],
        );
        assert_eq!(tenths(rate(&b, any, &x_loop)), Some(65));
        // The same length over two digits: a mixed loop, 7.0.
        let mut mixed = x_loop.clone();
        mixed.highlights.links[0] = link((0, 4), (0, 5), true);
        assert_eq!(tenths(rate(&b, any, &mixed)), Some(70));
        // An X-Chain of three strong links in rows and a box is a
        // strong-link pattern (5.4 + 0.1), not a chain, for that rule —
        // and a chain (6.6 + 0.1) for the chain rule.
        let x3 = chain(
            Technique::XChain,
            vec![
                link((0, 2), (5, 2), true),
                link((5, 2), (23, 2), false),
                link((23, 2), (21, 2), true),
                link((21, 2), (39, 2), false),
                link((39, 2), (30, 2), true),
            ],
        );
        assert_eq!(tenths(rate(&b, Rule::StrongLinks(3), &x3)), Some(55));
        assert_eq!(rate(&b, Rule::StrongLinks(4), &x3), None);
        assert_eq!(tenths(rate(&b, any, &x3)), Some(67));
    }

    #[test]
    fn large_wings_rate_only_in_their_shape() {
        // r1c1..r1c3 hold {1,2,3}, {1,4}, {2,4}: an almost locked set in
        // row 1; r5c1 is the bivalue cell {3,4}.
        let mut values = vec![None; 81];
        values[80] = Some(v(8));
        let mut b = Board::from_values(Shape::CLASSIC, &values).unwrap();
        let keep = |b: &mut Board, c: usize, digits: &[usize]| {
            for d in 0..9 {
                if !digits.contains(&d) && b.has(c, d) {
                    b.remove(c, d);
                }
            }
        };
        keep(&mut b, 0, &[0, 1, 2]);
        keep(&mut b, 1, &[0, 3]);
        keep(&mut b, 2, &[1, 3]);
        keep(&mut b, 36, &[2, 3]);
        let wing = |cells: Vec<usize>| Step {
            technique: Technique::LargeWing(4),
            placements: Vec::new(),
            eliminations: vec![(27, v(2))],
            highlights: Highlights {
                cells,
                ..Highlights::default()
            },
            explanation: String::new(),
        };
        let any = Rule::Any(&[]);
        // Widest house cell has three candidates: 5.6.
        assert_eq!(tenths(rate(&b, any, &wing(vec![0, 1, 2, 36]))), Some(56));
        // Three cells in no common house besides the bivalue one: not theirs.
        keep(&mut b, 40, &[0, 3]);
        assert_eq!(rate(&b, any, &wing(vec![0, 40, 2, 36])), None);
    }

    /// Puzzles of the Sudoku Exchange bank with their Sukaku Explainer
    /// ratings, one for each kind of hardest step.
    const RATED: [(&str, f32, Technique); 8] = [
        (
            "007000500000080000900070001025108930003000600009000200000503000700000006010207040",
            5.5,
            Technique::LargeWing(4),
        ),
        (
            "240900001005074009000000080010020005030405060800010040020000000700340500400002078",
            5.6,
            Technique::BugPlusOne,
        ),
        (
            "500800001000004000004612300035000608002000500608000190006125900000300000100008002",
            6.4,
            Technique::LargeWing(5),
        ),
        (
            "590000007040010083008034900001402000069000820000109300004670200980040030700000016",
            7.1,
            // (A continuous loop of 7.1 before the walk took Y-Cycles: the
            // same rating, on a path through other positions.)
            Technique::DiscontinuousNiceLoop,
        ),
        // Their Y-Cycles (6.5 and the length bonus), where our shortest
        // loop for the same eliminations is a mixed one (7.1).
        (
            "005403100080106020100000003020000010850902074790040032000801000000070000010305040",
            6.6,
            Technique::ContinuousNiceLoop,
        ),
        (
            "000407000010090040840020073000956000900010005000208000700000001020000030008534200",
            6.8,
            Technique::ContinuousNiceLoop,
        ),
        (
            "083020090000800100029300008000098700070000060006740000300006980002005000010030540",
            7.2,
            Technique::DiscontinuousNiceLoop,
        ),
        (
            "000837000400000003090504010000000000089060520007402800700080002001000300060040090",
            8.4,
            Technique::ForcingChain,
        ),
    ];

    /// The position of a rated puzzle's givens and its solution.
    fn start(text: &str) -> (Board, Grid) {
        let p = parse_one(text, "rated").unwrap();
        let Outcome::Solved(sol) = solve(&p, &Limits::none(), &mut NoTrace) else {
            panic!("{text} has one solution")
        };
        let mut b = Board::from_puzzle(&p).unwrap();
        b.set_known_unique(true);
        (b, sol)
    }

    /// Every Y-Cycle found is a loop of bivalue cells, each seeing the
    /// next on the value of the weak link between them, and removes only
    /// candidates the solution does not have.
    #[test]
    fn y_cycles_are_loops_of_bivalue_cells_and_sound() {
        let mut found = 0;
        for (text, _, _) in RATED {
            let (mut b, sol) = start(text);
            // Every position of the walk.
            for (step, _) in walk(&b.clone(), &sol, &Limits::none()).unwrap() {
                for s in y_cycles(&b) {
                    found += 1;
                    let links = &s.highlights.links;
                    assert!(links.len() >= 6 && links.len() % 2 == 0, "{text}");
                    assert!(bivalue_only(links), "{text}: {}", s.explanation);
                    for (w, l) in links.iter().enumerate() {
                        let next = &links[(w + 1) % links.len()];
                        assert_eq!(l.to, next.from, "{text}: {}", s.explanation);
                        if l.strong {
                            assert_eq!(b.count(l.from.0), 2, "{text}");
                        } else {
                            assert!(b.sees(l.from.0, l.to.0), "{text}");
                        }
                    }
                    for &(c, x) in &s.eliminations {
                        assert!(b.has(c, x.index()), "{text}");
                        assert_ne!(sol.get(c), x, "{text}: {}", s.explanation);
                    }
                }
                b.apply(&step);
            }
        }
        assert!(found > 0, "no Y-Cycle met");
    }

    #[test]
    fn walks_match_their_ratings_and_follow_the_solution() {
        for (text, theirs, technique) in RATED {
            let (b, sol) = start(text);
            let steps = walk(&b, &sol, &Limits::none()).unwrap();
            let mut board = b.clone();
            for (s, _) in &steps {
                assert_ne!(s.technique, Technique::Guess, "{text}");
                for &(c, x) in &s.placements {
                    assert_eq!(sol.get(c), x, "{text}: {}", s.explanation);
                }
                for &(c, x) in &s.eliminations {
                    assert_ne!(sol.get(c), x, "{text}: {}", s.explanation);
                }
                board.apply(s);
            }
            assert!(board.is_solved(), "{text}");
            let (r, t) = rating(&b, &sol, &Limits::none()).unwrap();
            assert_eq!((r * 10.0).round(), (theirs * 10.0).round(), "{text}");
            assert_eq!(t, Some(technique), "{text}");
        }
    }
}
