//! Kraken fish, as HoDoKu defines them: a finned fish (basic, rows and
//! columns, X-Wing to Jellyfish) that eliminates nothing by itself, joined
//! to forcing chains. Without its fins the fish would put the value in
//! each cover line once, from the base lines (the body); with them, either
//! that holds or a fin holds the value. So:
//!
//! - Type 1 ([`Technique::KrakenFish`] 1): a cover cell outside the base
//!   lines, which the fish without fins would empty of the value, loses it
//!   when every fin, assumed true, leads to its removal (the fins need not
//!   see it, as they must in a finned fish);
//! - Type 2 ([`Technique::KrakenFish`] 2): in one cover line, one of its
//!   body cells or one of the fins holds the value; any candidate (of any
//!   value) that each of them, assumed true, removes goes. As HoDoKu does,
//!   a cover line that has no place for the value outside the base lines is
//!   skipped (its places alone make an ordinary unit forcing chain).
//!
//! "Assumed true, leads to its removal" is the propagation of the static
//! forcing chains (`forcing.rs`): placements, the singles they leave, and
//! locked candidates; a fin whose assumption ends in a contradiction is
//! false and needs no chain (a branch that removes the target before the
//! contradiction is told by its chain to the target). HoDoKu links the
//! fins by the chains of its implication tables instead (with group nodes
//! and almost locked sets): the singles an assumption leaves make some
//! links here that its tables lack, and its ALS nodes some that this
//! propagation lacks, so the two need not find the same steps (not
//! compared here: the regression library has no kraken case); every step
//! here is sound all the same.
//!
//! The search is for boards up to [`MAX_KRAKEN_SIDE`], fish of sizes 2 to
//! [`MAX_KRAKEN_SIZE`] with 1 to [`MAX_KRAKEN_FINS`] fins and no endo-fin
//! (HoDoKu's defaults); Franken kraken (which HoDoKu's default includes)
//! and mutant ones are not searched. Each elimination
//! is told once, by its smallest fish and then its shortest chains, at
//! most [`MAX_STEPS`] steps per call; the assumptions followed are capped
//! ([`MAX_ASSUMPTIONS`], [`forcing::WORK_BUDGET`]) and the board's limits
//! checked between fish.

use foldhash::{HashMap, HashMapExt};

use crate::engine::grid::Value;

use super::forcing::{self, Conclusion, NONE, Outcome, Prop};
use super::{Board, CandidateRole, Highlights, Link, Step, Technique, UnitRole, bits};

/// The largest side searched (HoDoKu's boards).
pub const MAX_KRAKEN_SIDE: usize = 9;

/// The largest fish searched (a Jellyfish).
pub const MAX_KRAKEN_SIZE: usize = 4;

/// Most fins of a kraken fish (HoDoKu's default).
pub const MAX_KRAKEN_FINS: usize = 2;

/// Most steps one call returns (smallest fish, shortest chains first).
pub const MAX_STEPS: usize = 24;

/// Most assumptions followed in one call (each once).
pub const MAX_ASSUMPTIONS: usize = 800;

/// A finned fish that eliminates nothing by itself.
struct Fish {
    /// The value (index).
    d: usize,
    /// Base lines (unit numbers).
    base: Vec<usize>,
    /// Cover lines (unit numbers).
    cover: Vec<usize>,
    /// The base lines' places inside the covers.
    body: Vec<usize>,
    /// The base lines' places outside the covers.
    fins: Vec<usize>,
    /// The cover lines' places outside the base lines: what the fish
    /// without fins would eliminate.
    targets: Vec<usize>,
}

impl Fish {
    /// Finned or sashimi (a base line keeps one place without the fins).
    fn kind(&self, b: &Board) -> Technique {
        let k = u8::try_from(self.base.len()).unwrap_or(u8::MAX);
        let sashimi = self.base.iter().any(|&u| {
            b.unit(u)
                .iter()
                .filter(|&&c| self.body.contains(&(c as usize)))
                .count()
                <= 1
        });
        if sashimi {
            Technique::SashimiFish(k)
        } else {
            Technique::FinnedFish(k)
        }
    }

    /// The body cells in cover line `u`.
    fn body_in(&self, b: &Board, u: usize) -> Vec<usize> {
        self.body
            .iter()
            .copied()
            .filter(|&c| b.units_of(c).contains(&u))
            .collect()
    }
}

/// Every k-element subset of the set bits of `m`, as masks, lowest bits
/// first.
fn sub_masks(m: u64, k: usize) -> Vec<u64> {
    fn go(rest: u64, k: usize, acc: u64, out: &mut Vec<u64>) {
        if k == 0 {
            out.push(acc);
            return;
        }
        if (rest.count_ones() as usize) < k {
            return;
        }
        let low = rest & rest.wrapping_neg();
        go(rest & !low, k - 1, acc | low, out);
        go(rest & !low, k, acc, out);
    }
    let mut out = Vec::new();
    go(m, k, 0, &mut out);
    out
}

/// Calls `f` with every finned fish of size `k` (1 to [`MAX_KRAKEN_FINS`]
/// fins, each base line with a place in the covers) that some cover cell
/// outside the base lines could lose the value by, none of which sees
/// every fin (those make an ordinary finned fish, as in HoDoKu).
fn fishes(b: &Board, k: usize, f: &mut impl FnMut(Fish)) {
    let n = b.n();
    if k < 2 || 2 * k > n {
        return;
    }
    let limit = k + MAX_KRAKEN_FINS;
    for dir in 0..2 {
        let cell = |i: usize, j: usize| if dir == 0 { i * n + j } else { j * n + i };
        for d in 0..n {
            if b.stopped() {
                return;
            }
            // Per base line, the cover indices where `d` is a candidate.
            let masks: Vec<u64> = (0..n)
                .map(|i| {
                    (0..n)
                        .filter(|&j| b.has(cell(i, j), d))
                        .fold(0u64, |m, j| m | 1 << j)
                })
                .collect();
            let open: u64 = (0..n)
                .filter(|&i| (1..=limit).contains(&(masks[i].count_ones() as usize)))
                .fold(0, |m, i| m | 1 << i);
            for base_bits in sub_masks(open, k) {
                let union = bits(base_bits).fold(0u64, |m, i| m | masks[i]);
                let spread = union.count_ones() as usize;
                if spread <= k || spread > limit {
                    continue;
                }
                for cover in sub_masks(union, k) {
                    if bits(base_bits).any(|i| masks[i] & cover == 0) {
                        continue;
                    }
                    let fins: Vec<usize> = bits(base_bits)
                        .flat_map(|i| bits(masks[i] & !cover).map(move |j| cell(i, j)))
                        .collect();
                    if fins.is_empty() || fins.len() > MAX_KRAKEN_FINS {
                        continue;
                    }
                    let mut targets: Vec<usize> = bits(cover)
                        .flat_map(|j| {
                            (0..n)
                                .filter(move |&i| base_bits >> i & 1 == 0)
                                .map(move |i| cell(i, j))
                        })
                        .filter(|&c| b.has(c, d))
                        .collect();
                    if targets.is_empty()
                        || targets.iter().any(|&t| fins.iter().all(|&x| b.sees(t, x)))
                    {
                        continue;
                    }
                    targets.sort_unstable();
                    let mut body: Vec<usize> = bits(base_bits)
                        .flat_map(|i| bits(masks[i] & cover).map(move |j| cell(i, j)))
                        .collect();
                    body.sort_unstable();
                    f(Fish {
                        d,
                        base: bits(base_bits).map(|i| dir * n + i).collect(),
                        cover: bits(cover).map(|j| (1 - dir) * n + j).collect(),
                        body,
                        fins,
                        targets,
                    });
                }
            }
        }
    }
}

/// The assumptions followed so far, each once.
struct Implications<'a> {
    prop: Prop<'a>,
    cache: HashMap<(usize, usize), Outcome>,
}

impl Implications<'_> {
    /// Follows every assumption of `starts` (value `d`) not yet followed;
    /// false when the budget is spent before all are.
    fn follow(&mut self, starts: &[usize], d: usize) -> bool {
        for &c in starts {
            if self.cache.contains_key(&(c, d)) {
                continue;
            }
            if self.cache.len() >= MAX_ASSUMPTIONS || self.prop.work >= forcing::WORK_BUDGET {
                return false;
            }
            let out = self.prop.assume(c, d);
            self.cache.insert((c, d), out);
        }
        true
    }

    fn get(&self, c: usize, d: usize) -> Option<&Outcome> {
        self.cache.get(&(c, d))
    }
}

/// The implications "`c` is `d`" needs to remove candidate (`x`, `e`)
/// (one for the removal itself), or to reach a contradiction when it does
/// not remove it; `None` when it does neither.
fn cost_to(out: &Outcome, x: usize, e: usize) -> Option<usize> {
    match (forcing::reached(out, Conclusion::Remove(x, e)), out.clash) {
        (Some(at), _) => Some(out.depth_of(at) + 1),
        (None, Some((_, cause))) => Some(out.depth_of(cause)),
        (None, None) => None,
    }
}

/// One branch of a kraken step: "if r1c5 is 9: r4c6 is 9, so r4c2 is not
/// 9", its links and its nodes marked in `h`.
fn branch(
    b: &Board,
    (c, d): (usize, usize),
    out: &Outcome,
    (x, e): (usize, usize),
    h: &mut Highlights,
) -> String {
    // The chain to the target when there is one (as HoDoKu tells it),
    // else the contradiction the assumption ends in.
    let to_target = forcing::reached(out, Conclusion::Remove(x, e));
    if let (None, Some((clash, cause))) = (to_target, out.clash) {
        let path = if cause == NONE {
            vec![0]
        } else {
            out.path(cause)
        };
        h.links.extend(forcing::path_links(out, &path));
        forcing::mark_path(h, out, &path);
        return format!(
            "{}, and then {} (impossible)",
            forcing::branch_words(b, c, d, out, &path),
            forcing::clash_words(b, clash)
        );
    }
    let Some(at) = to_target else {
        return String::new();
    };
    let path = out.path(at);
    h.links.extend(forcing::path_links(out, &path));
    forcing::mark_path(h, out, &path);
    let (pc, pd) = out.placement(at);
    h.links.push(Link {
        from: (pc, Value::from_index(pd)),
        to: (x, Value::from_index(e)),
        strong: false,
    });
    let then = if path.len() == 1 { ", then" } else { ", so" };
    format!(
        "{}{then} {} is not {}",
        forcing::branch_words(b, c, d, out, &path),
        b.cell_name(x),
        b.symbol(e)
    )
}

fn list(v: Vec<String>) -> String {
    match v.len() {
        0 => String::new(),
        1 => v[0].clone(),
        l => format!("{} and {}", v[..l - 1].join(", "), v[l - 1]),
    }
}

/// "Finned X-Wing on 9: in row 1 and row 6, 9 can only go in column 2 and
/// column 7 apart from the fins r1c5 and r6c3", with the fish drawn in
/// `h` (body, fins, base and cover lines).
fn fish_words(b: &Board, f: &Fish, h: &mut Highlights) -> String {
    let v = Value::from_index(f.d);
    for &c in &f.body {
        h.candidates.push((c, v));
        h.cells.push(c);
    }
    for &c in &f.fins {
        h.candidates.push((c, v));
        h.cells.push(c);
        h.add_role(c, v, CandidateRole::Fin);
    }
    for &u in &f.base {
        h.units.push(u);
        h.set_unit_role(u, UnitRole::Base);
    }
    for &u in &f.cover {
        h.units.push(u);
        h.set_unit_role(u, UnitRole::Cover);
    }
    let sym = b.symbol(f.d);
    format!(
        "{} on {sym}: in {}, {sym} can only go in {} apart from the fin{} {}",
        f.kind(b).name(),
        list(f.base.iter().map(|&u| b.unit_name(u)).collect()),
        list(f.cover.iter().map(|&u| b.unit_name(u)).collect()),
        if f.fins.len() == 1 { "" } else { "s" },
        list(f.fins.iter().map(|&c| b.cell_name(c)).collect()),
    )
}

/// A kraken step found: its sort key (size, implications, order) and step.
type Found = ((usize, usize, usize), Step);

/// Keeps `step` for its elimination unless one as good is kept.
fn offer(best: &mut HashMap<(usize, Value), Found>, key: (usize, usize, usize), step: Step) {
    let Some(&target) = step.eliminations.first() else {
        return;
    };
    let e = best.entry(target).or_insert((key, step.clone()));
    if (key.0, key.1) < (e.0.0, e.0.1) {
        *e = (key, step);
    }
}

/// Type 1 steps of fish `f`: each target every fin removes.
fn type_one(
    b: &Board,
    f: &Fish,
    imp: &mut Implications,
    best: &mut HashMap<(usize, Value), Found>,
) {
    if !imp.follow(&f.fins, f.d) {
        return;
    }
    let d = f.d;
    for &t in &f.targets {
        let costs: Option<Vec<usize>> = f
            .fins
            .iter()
            .map(|&x| imp.get(x, d).and_then(|o| cost_to(o, t, d)))
            .collect();
        let Some(costs) = costs else { continue };
        let mut h = Highlights::default();
        let fish = fish_words(b, f, &mut h);
        let sym = b.symbol(d);
        let parts: Vec<String> = f
            .fins
            .iter()
            .filter_map(|&x| imp.get(x, d).map(|o| branch(b, (x, d), o, (t, d), &mut h)))
            .collect();
        h.cells.push(t);
        let t8 = Technique::KrakenFish(1);
        let step = Step {
            technique: t8,
            placements: Vec::new(),
            eliminations: vec![(t, Value::from_index(d))],
            highlights: h,
            explanation: format!(
                "{}: {fish}. Without a fin the fish holds {sym} in every cover line and takes \
                 it out of {}; and each fin does too — {}",
                t8.name(),
                b.cell_name(t),
                parts.join("; ")
            ),
        };
        let order = best.len();
        offer(best, (f.base.len(), costs.iter().sum(), order), step);
    }
}

/// Type 2 steps of fish `f`: for each cover line with places outside the
/// base lines, what each of its body cells and each fin removes.
fn type_two(
    b: &Board,
    f: &Fish,
    imp: &mut Implications,
    best: &mut HashMap<(usize, Value), Found>,
) {
    let d = f.d;
    for &u in &f.cover {
        if !f.targets.iter().any(|&t| b.units_of(t).contains(&u)) {
            continue;
        }
        let mut starts = f.body_in(b, u);
        starts.extend(&f.fins);
        if !imp.follow(&starts, d) {
            return;
        }
        let outs: Vec<&Outcome> = starts.iter().filter_map(|&c| imp.get(c, d)).collect();
        let Some(first) = outs.iter().find(|o| o.clash.is_none()) else {
            continue;
        };
        let mut hits: Vec<((usize, usize), usize)> = Vec::new();
        for (x, e) in first.removals() {
            if starts.contains(&x) {
                continue;
            }
            let costs: Option<usize> = outs.iter().map(|o| cost_to(o, x, e)).sum();
            if let Some(cost) = costs {
                hits.push(((x, e), cost));
            }
        }
        for ((x, e), cost) in hits {
            let mut h = Highlights::default();
            let fish = fish_words(b, f, &mut h);
            let sym = b.symbol(d);
            let parts: Vec<String> = starts
                .iter()
                .filter_map(|&c| imp.get(c, d).map(|o| branch(b, (c, d), o, (x, e), &mut h)))
                .collect();
            h.cells.push(x);
            let body = list(f.body_in(b, u).iter().map(|&c| b.cell_name(c)).collect());
            let t8 = Technique::KrakenFish(2);
            let step = Step {
                technique: t8,
                placements: Vec::new(),
                eliminations: vec![(x, Value::from_index(e))],
                highlights: h,
                explanation: format!(
                    "{}: {fish}. So {sym} is in {} at {body} or at a fin, and each of them \
                     removes {} from {} — {}",
                    t8.name(),
                    b.unit_name(u),
                    b.symbol(e),
                    b.cell_name(x),
                    parts.join("; ")
                ),
            };
            let order = best.len();
            offer(best, (f.base.len(), cost, order), step);
        }
    }
}

/// Kraken fish of type `kind` (1 or 2), sizes 2 to [`MAX_KRAKEN_SIZE`],
/// one step per elimination (its smallest fish, then its shortest chains),
/// at most [`MAX_STEPS`] in that order.
pub fn kraken_fish(b: &Board, kind: u8) -> Vec<Step> {
    if b.n() > MAX_KRAKEN_SIDE || !(1..=2).contains(&kind) {
        return Vec::new();
    }
    let mut imp = Implications {
        prop: Prop::new(b),
        cache: HashMap::new(),
    };
    let mut best: HashMap<(usize, Value), Found> = HashMap::new();
    for k in 2..=MAX_KRAKEN_SIZE {
        fishes(b, k, &mut |f| {
            if kind == 1 {
                type_one(b, &f, &mut imp, &mut best);
            } else {
                type_two(b, &f, &mut imp, &mut best);
            }
        });
    }
    let mut steps: Vec<Found> = best.into_values().collect();
    steps.sort_by_key(|s| s.0);
    steps.truncate(MAX_STEPS);
    steps.into_iter().map(|(_, s)| s).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::logic::find_all;
    use crate::engine::logic::tests::{library, only, triples};
    use crate::engine::{Grid, Limits, NoTrace, Outcome, Puzzle, Shape, solve};

    /// The solution of the puzzle made of `b`'s values (each test position
    /// has exactly one), to check steps against.
    fn solution(b: &Board) -> Grid {
        let values: Vec<Option<Value>> = (0..81).map(|c| b.value(c)).collect();
        let p = Puzzle::new(Shape::CLASSIC, values).unwrap();
        let Outcome::Solved(g) = solve(&p, &Limits::none(), &mut NoTrace) else {
            panic!("not unique")
        };
        g
    }

    /// Every step of `kind` removes one candidate the board has and the
    /// solution does not hold; returns their eliminations.
    fn checked(b: &Board, kind: u8) -> Vec<(usize, Value)> {
        let sol = solution(b);
        let steps = find_all(b, Technique::KrakenFish(kind));
        for s in &steps {
            assert_eq!(s.eliminations.len(), 1, "{}", s.explanation);
            let (c, v) = s.eliminations[0];
            assert!(b.has(c, v.index()), "{}", s.explanation);
            assert_ne!(sol.get(c), v, "{}", s.explanation);
        }
        steps.iter().map(|s| s.eliminations[0]).collect()
    }

    /// The position of a forum thread's "Kraken Fish Type 1: => r4c2<>9"
    /// (HoDoKu's output there: Sashimi X-Wing 9 r16 c27, fins r1c5 and
    /// r6c3; r1c5 -9- r23c6 =9= r4c6 -9- r4c2; r6c3 -9- r4c2), given as
    /// its candidate grid.
    fn forum_position() -> Board {
        let grid = "4 159 2 6 159 3 159 7 8 \
                    8 159 19 12459 7 1249 3 6 145 \
                    6 3 7 1459 8 149 2 49 145 \
                    37 19 6 13459 13459 149 1579 8 2 \
                    37 2 8 1359 1359 6 1579 49 145 \
                    5 4 19 8 2 7 19 3 6 \
                    9 6 45 1234 134 124 8 15 7 \
                    1 8 3 7 6 5 4 2 9 \
                    2 7 45 149 149 8 6 15 3";
        let tokens: Vec<&str> = grid.split_whitespace().collect();
        assert_eq!(tokens.len(), 81);
        let values: Vec<Option<Value>> = tokens
            .iter()
            .map(|t| (t.len() == 1).then(|| Value::new(t.parse().unwrap()).unwrap()))
            .collect();
        let mut b = Board::from_values(Shape::CLASSIC, &values).unwrap();
        for (c, t) in tokens.iter().enumerate() {
            if t.len() > 1 {
                let digits: Vec<usize> = t.bytes().map(|ch| usize::from(ch - b'0')).collect();
                only(&mut b, c, &digits);
            }
        }
        b.check().unwrap();
        b
    }

    #[test]
    fn type_one_links_every_fin_to_the_target() {
        let b = forum_position();
        let found = checked(&b, 1);
        let r4c2 = triples("942")[0];
        assert!(found.contains(&r4c2), "{found:?}");
        let s = find_all(&b, Technique::KrakenFish(1))
            .into_iter()
            .find(|s| s.eliminations == [r4c2])
            .unwrap();
        // The smallest fish with the shortest chains: HoDoKu's own.
        assert!(
            s.explanation.starts_with(
                "Kraken Fish Type 1: Sashimi X-Wing on 9: in row 1 and row 6, 9 can only go in \
                 column 2 and column 7 apart from the fins r1c5 and r6c3."
            ),
            "{}",
            s.explanation
        );
        // r1c5 as 9 leaves 9 one place in column 6 (r4c6) and in row 2
        // (r2c2), both seeing r4c2: either chain is as short.
        assert!(
            ["r4c6", "r2c2"].iter().any(|x| s
                .explanation
                .contains(&format!("if r1c5 is 9: {x} is 9, so r4c2 is not 9"))),
            "{}",
            s.explanation
        );
        assert!(s.explanation.contains("if r6c3 is 9, then r4c2 is not 9"));
        assert!(s.explanation.ends_with(" => r4c2<>9"));
        assert_eq!(s.role_of(4, v9()), Some(CandidateRole::Fin));
        assert_eq!(s.role_of(47, v9()), Some(CandidateRole::Fin));
        assert_eq!(s.unit_role(0), Some(UnitRole::Base));
        assert_eq!(s.unit_role(9 + 1), Some(UnitRole::Cover));
        // The chain from r1c5: r1c5, then r4c6 or r2c2, which removes r4c2.
        let mid = s
            .highlights
            .links
            .iter()
            .find(|l| l.from.0 == 4)
            .unwrap()
            .to
            .0;
        assert!([32, 10].contains(&mid));
        assert!(
            s.highlights
                .links
                .iter()
                .any(|l| l.from.0 == mid && l.to.0 == 28)
        );
    }

    fn v9() -> Value {
        Value::new(9).unwrap()
    }

    /// top1465's first puzzle after its first single (r9c3 is 7): in the
    /// Sashimi X-Wing on 9 in rows 6 and 7 over columns 3 and 5 (fins r6c6,
    /// r7c9), column 3 holds 9 at r6c3 or a fin does; r6c3 and r6c6 see
    /// r6c5, and r7c9 as 9 makes r7c8 5 and leaves box 8 without a 3.
    #[test]
    fn type_two_links_a_cover_line_and_the_fins_to_the_target() {
        let b = library(
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9.+7......",
            "",
        );
        let found = checked(&b, 2);
        let r6c5 = triples("965")[0];
        assert!(found.contains(&r6c5), "{found:?}");
        let s = find_all(&b, Technique::KrakenFish(2))
            .into_iter()
            .find(|s| s.eliminations == [r6c5])
            .unwrap();
        assert!(
            s.explanation.starts_with("Kraken Fish Type 2: "),
            "{}",
            s.explanation
        );
        assert!(s.explanation.ends_with(" => r6c5<>9"));
        // Type 1 there too: without the fins the fish empties the covers.
        assert!(!checked(&b, 1).is_empty());
    }

    #[test]
    fn nothing_on_a_solved_board_a_large_board_or_an_unknown_type() {
        let b = forum_position();
        let sol = solution(&b);
        let values: Vec<Option<Value>> = (0..81).map(|c| Some(sol.get(c))).collect();
        let solved = Board::from_values(Shape::CLASSIC, &values).unwrap();
        assert!(kraken_fish(&solved, 1).is_empty());
        assert!(kraken_fish(&solved, 2).is_empty());
        assert!(kraken_fish(&b, 3).is_empty());
        let big = Board::from_values(Shape::square(4).unwrap(), &vec![None; 256]).unwrap();
        assert!(kraken_fish(&big, 1).is_empty());
    }

    /// A finned fish whose fins all see a target is an ordinary finned
    /// fish: no kraken fish is told on it.
    #[test]
    fn a_plain_finned_fish_is_no_kraken() {
        let b = forum_position();
        for kind in [1, 2] {
            for s in find_all(&b, Technique::KrakenFish(kind)) {
                let fins: Vec<usize> = s
                    .candidate_roles()
                    .into_iter()
                    .filter(|r| r.2 == CandidateRole::Fin)
                    .map(|r| r.0)
                    .collect();
                assert!(!fins.is_empty() && fins.len() <= MAX_KRAKEN_FINS);
                let (t, _) = s.eliminations[0];
                if kind == 1 {
                    assert!(!fins.iter().all(|&f| b.sees(f, t)), "{}", s.explanation);
                }
            }
        }
    }
}
