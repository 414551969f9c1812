//! Franken and mutant fish: k base units and k cover units of any kind
//! (rows, columns, boxes) for one value, the general form of the fish in
//! `fish.rs` (the definitions of the Ultimate Fish Guide, as HoDoKu
//! searches them).
//!
//! Every base unit needs the value once, and k cover units hold every
//! base place, so when no two base units share a place each cover holds
//! exactly one of them: the value leaves every other cover place, and a
//! base place that lies in two covers (it would fill two covers at once,
//! leaving too few for the rest: cannibalism). A base place outside the
//! covers is a fin, and so is a place two base units share (an endo-fin:
//! the base units may then hold fewer than k values); with fins, either
//! a fin holds the value or the fish does, so only the eliminations that
//! see every fin stand.
//!
//! A fish whose bases are rows and covers columns (or the other way) is a
//! basic fish, left to `fish.rs`. Franken fish take rows and boxes against
//! columns and boxes (or columns and boxes against rows and boxes); every
//! other mix is mutant. As HoDoKu does, a fish may have at most
//! [`MAX_FINS`] fins, of them at most [`MAX_ENDO_FINS`] endo-fins.
//!
//! The search is for boards up to [`MAX_GENERAL_FISH_SIDE`] (9×9 and
//! smaller): on larger ones the choices of units explode, and nothing is
//! found there. For each choice of base units the covers are found by
//! taking the lowest base place not yet covered and either making it a fin
//! or covering it by one of its units (the lowest chosen unit holding it,
//! so each cover set is met once), then topping up with units that only
//! hold covered places. The last cover is tried unit by unit, what it
//! leaves becoming the last fins, in the order that recursion would meet
//! them; with base units all rows (or all columns) it must be a box if no
//! cover is one yet (lines alone make a basic fish).

use crate::engine::grid::Value;

use super::{Board, CandidateRole, Highlights, Step, Technique, UnitRole, barren};

/// The largest side searched (the units are kept as a `u32`, the cells
/// as a `u128`).
pub const MAX_GENERAL_FISH_SIDE: usize = 9;

/// The most fins a Franken or mutant fish may have (endo-fins included).
pub const MAX_FINS: u32 = 5;

/// The most endo-fins (places shared by two base units).
pub const MAX_ENDO_FINS: u32 = 2;

/// Franken or mutant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Rows and boxes against columns and boxes (or the reverse).
    Franken,
    /// Any other mix that is not a basic fish.
    Mutant,
}

const ROW: u8 = 1;
const COL: u8 = 2;
const BOX: u8 = 4;

/// One fish found: units, fins and eliminations as cell sets.
#[derive(Debug, Clone)]
struct Found {
    /// The value (index).
    d: usize,
    base: Vec<usize>,
    cover: Vec<usize>,
    /// The base places (fins included).
    body: u128,
    /// Fins outside the covers.
    fins: u128,
    endo: u128,
    elims: u128,
    /// The eliminations that are base places in two covers.
    cannibal: u128,
}

struct Search<'a> {
    b: &'a Board,
    n: usize,
    d: usize,
    k: usize,
    finned: bool,
    family: Family,
    /// Per unit, its places for the value.
    places: Vec<u128>,
    /// Per cell, the cells it sees.
    peers: Vec<u128>,
    /// The places of the value.
    cand: u128,
    /// The units allowed as covers in this pass.
    cover_ok: u32,
    found: Vec<Found>,
    /// The covers chosen, lent to each base set's search in turn (one
    /// allocation a pass, not one a base set).
    chosen: Vec<usize>,
    /// Per index of the open units, those from there on that a base set
    /// must take one of (see [`search`]); all, when any base set will do.
    needed: Vec<u32>,
}

fn kind(n: usize, u: usize) -> u8 {
    match u / n {
        0 => ROW,
        1 => COL,
        _ => BOX,
    }
}

fn lowest(m: u128) -> usize {
    m.trailing_zeros() as usize
}

fn cells(mut m: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let c = lowest(m);
            m &= m - 1;
            c
        })
    })
}

/// Whether base units of kinds `base` against covers of kinds `cover`
/// make a fish of `family` (and not a basic one).
fn family_of(base: u8, cover: u8) -> Option<Family> {
    let basic = (base == ROW && cover == COL) || (base == COL && cover == ROW);
    let franken = ((base == ROW || base == ROW | BOX) && (cover == COL || cover == COL | BOX))
        || ((base == COL || base == COL | BOX) && (cover == ROW || cover == ROW | BOX));
    if basic {
        None
    } else if franken {
        Some(Family::Franken)
    } else {
        Some(Family::Mutant)
    }
}

impl Search<'_> {
    fn units_of(&self, c: usize) -> [usize; 3] {
        self.b.units_of(c)
    }

    /// Chooses base units from `open[start..]`, `base` so far (`met`: one
    /// of them is needed, [`Search::needed`]).
    fn bases(
        &mut self,
        open: &[usize],
        start: usize,
        base: &mut Vec<usize>,
        union: u128,
        endo: u128,
        met: bool,
    ) {
        if base.len() == self.k {
            if met {
                self.covers_for(base, union, endo);
            }
            return;
        }
        for idx in start..open.len() {
            if open.len() - idx < self.k - base.len() || !met && self.needed[idx] == 0 {
                break;
            }
            if base.len() < 2 && self.b.stopped() {
                return;
            }
            let u = open[idx];
            let shared = union & self.places[u];
            let endo2 = endo | shared;
            if endo2 != 0 && (!self.finned || endo2.count_ones() > MAX_ENDO_FINS) {
                continue;
            }
            base.push(u);
            let met = met || self.needed[idx] >> u & 1 == 1;
            self.bases(open, idx + 1, base, union | self.places[u], endo2, met);
            base.pop();
        }
    }

    fn covers_for(&mut self, base: &[usize], body: u128, endo: u128) {
        // Boxes alone against any covers make no Franken fish (see
        // `family_of`): a mutant one at best.
        if self.family == Family::Franken && base.iter().all(|&u| u >= 2 * self.n) {
            return;
        }
        let base_units: u32 = base.iter().fold(0, |m, &u| m | 1 << u);
        let mut buddies = self.cand;
        for c in cells(endo) {
            buddies &= self.peers[c];
        }
        if endo != 0 && buddies == 0 {
            return;
        }
        let forbidden = base_units | !self.cover_ok;
        let lines_only = base.iter().all(|&u| u < self.n) || base.iter().all(|&u| u / self.n == 1);
        let mut st = CoverState {
            base,
            body,
            endo,
            chosen: std::mem::take(&mut self.chosen),
            covered: 0,
            cannibal: 0,
            forbidden,
            fins: 0,
            buddies,
            lines_only,
        };
        self.cover_step(&mut st);
        self.chosen = st.chosen;
    }

    fn cover_step(&mut self, st: &mut CoverState) {
        let open = st.body & !st.endo & !st.covered & !st.fins;
        if open == 0 {
            self.top_up(st, 0);
            return;
        }
        if st.chosen.len() == self.k {
            // No cover left: every open place is a fin, all at once (the
            // same fish as making them fins one by one, lowest first).
            self.all_fins(st, open);
            return;
        }
        if st.chosen.len() + 1 == self.k {
            self.last_cover(st, open);
            return;
        }
        let c = lowest(open);
        let mut tried = 0u32;
        for u in self.units_of(c) {
            if (st.forbidden | tried) >> u & 1 == 1 {
                continue;
            }
            let saved = (st.covered, st.cannibal, st.forbidden);
            st.forbidden |= tried;
            st.cannibal |= st.covered & self.places[u];
            st.covered |= self.places[u];
            st.chosen.push(u);
            self.cover_step(st);
            st.chosen.pop();
            (st.covered, st.cannibal, st.forbidden) = saved;
            tried |= 1 << u;
        }
        // Or `c` is a fin: no cover may hold it.
        if !self.finned || (st.fins | st.endo).count_ones() >= MAX_FINS {
            return;
        }
        let buddies = st.buddies & self.peers[c];
        if buddies == 0 {
            return;
        }
        let saved = (st.fins, st.buddies, st.forbidden);
        st.fins |= 1 << c;
        st.buddies = buddies;
        for u in self.units_of(c) {
            st.forbidden |= 1 << u;
        }
        self.cover_step(st);
        (st.fins, st.buddies, st.forbidden) = saved;
    }

    /// The units that may not be the next cover although not forbidden,
    /// when one cover is left: the lines, when the base units are lines of
    /// one kind and no box is among the covers yet (a fish with only lines
    /// is a basic fish, not searched here); the boxes, when a Franken
    /// fish's covers are all boxes so far (covers of boxes alone make a
    /// mutant fish at best, see `family_of`).
    fn barred(&self, st: &CoverState) -> u32 {
        let n = self.n;
        if st.chosen.len() + 1 != self.k {
            return 0;
        }
        let boxes = st.chosen.iter().filter(|&&u| u >= 2 * n).count();
        if st.lines_only && boxes == 0 {
            (1u32 << (2 * n)) - 1
        } else if self.family == Family::Franken && boxes == st.chosen.len() {
            ((1u32 << n) - 1) << (2 * n)
        } else {
            0
        }
    }

    /// One cover is left and `open` (not empty) is what the others leave:
    /// tries each unit as the last cover, the places it leaves as fins, in
    /// the order the cover-or-fin recursion meets them (by the lowest open
    /// place each holds, then row, column, box; then, when every open place
    /// may be a fin, the units that hold none, by index).
    fn last_cover(&mut self, st: &mut CoverState, open: u128) {
        let allowed = !st.forbidden & !self.barred(st);
        let spare = if self.finned {
            MAX_FINS.saturating_sub((st.fins | st.endo).count_ones())
        } else {
            0
        };
        let mut seen = 0u32;
        // The units of the i-th lowest open place leave the places below it
        // as fins: some candidate must see them all, and a unit that holds
        // none of the lowest `spare` + 1 leaves too many.
        let mut below = 0u128;
        let mut buddies = st.buddies;
        for c in cells(open).take(spare as usize + 1) {
            for u in self.units_of(c) {
                if (allowed & !seen) >> u & 1 == 1 {
                    seen |= 1 << u;
                    if self.may_remove_with(st, open, u, buddies) {
                        self.last_leaf(st, open, u, below, buddies);
                    }
                }
            }
            buddies &= self.peers[c];
            if buddies == 0 {
                return;
            }
            below |= 1 << c;
        }
        // Every open place a fin (none of their units a cover): the last
        // cover is any other unit that holds a base place.
        if below == open && open.count_ones() <= spare {
            let saved = (st.fins, st.buddies, st.forbidden);
            st.fins |= open;
            st.buddies = buddies;
            st.forbidden |= seen;
            self.top_up(st, 0);
            (st.fins, st.buddies, st.forbidden) = saved;
        }
    }

    /// Whether `u` as the last cover may leave a fish that removes
    /// something, told before the fish is made: with fins, what it removes
    /// sees them all (`buddies`: every fin so far and those below `u`'s
    /// place), is no fin, and is a cover place outside the base units or a
    /// base place in two covers. Without fins it may always.
    fn may_remove_with(&self, st: &CoverState, open: u128, u: usize, buddies: u128) -> bool {
        #[cfg(test)]
        if tests::EVERY_COVER.get() {
            return true;
        }
        let places = self.places[u];
        let fins = st.fins | st.endo | (open & !places);
        if fins == 0 {
            return true;
        }
        let covered = st.covered | places;
        let removable = (covered & !st.body) | st.cannibal | (st.covered & places);
        buddies & self.cand & !fins & removable != 0
    }

    /// `u` is the last cover and what it leaves of `open` the last fins,
    /// `below` among them already met, with `buddies` the places that see
    /// them and the fins before.
    fn last_leaf(&mut self, st: &mut CoverState, open: u128, u: usize, below: u128, buddies: u128) {
        let fins = open & !self.places[u];
        let saved = (st.covered, st.cannibal, st.fins, st.buddies);
        st.cannibal |= st.covered & self.places[u];
        st.covered |= self.places[u];
        st.chosen.push(u);
        if fins == 0 {
            self.finish(st);
        } else {
            st.fins |= below;
            st.buddies = buddies;
            self.all_fins(st, fins & !below);
        }
        st.chosen.pop();
        (st.covered, st.cannibal, st.fins, st.buddies) = saved;
    }

    /// Every cover is chosen and `open` is what they leave besides the
    /// fins so far: the fish stands when those places may all be fins and some
    /// candidate sees every fin. Only the eliminations that see every fin
    /// stand, so when none of the cover places (or cannibals) the fins
    /// allow is left, there is no fish.
    fn all_fins(&mut self, st: &mut CoverState, open: u128) {
        if !self.finned || (st.fins | st.endo | open).count_ones() > MAX_FINS {
            return;
        }
        let buddies = cells(open).fold(st.buddies, |m, c| m & self.peers[c]);
        if buddies & ((st.covered & !st.body) | st.cannibal) == 0 {
            return;
        }
        let saved = (st.fins, st.buddies);
        st.fins |= open;
        st.buddies = buddies;
        self.finish(st);
        (st.fins, st.buddies) = saved;
    }

    /// Every base place is covered or a fin: adds the units still needed
    /// (from index `from` on) among those that hold only covered places.
    fn top_up(&mut self, st: &mut CoverState, from: usize) {
        if st.chosen.len() == self.k {
            self.finish(st);
            return;
        }
        let barred = self.barred(st);
        for u in from..3 * self.n {
            if (st.forbidden | barred) >> u & 1 == 1
                || st.chosen.contains(&u)
                || self.places[u] & st.body == 0
            {
                continue;
            }
            let saved = (st.covered, st.cannibal);
            st.cannibal |= st.covered & self.places[u];
            st.covered |= self.places[u];
            st.chosen.push(u);
            self.top_up(st, u + 1);
            st.chosen.pop();
            (st.covered, st.cannibal) = saved;
        }
    }

    fn finish(&mut self, st: &CoverState) {
        let n = self.n;
        let bk = st.base.iter().fold(0, |m, &u| m | kind(n, u));
        let ck = st.chosen.iter().fold(0, |m, &u| m | kind(n, u));
        if family_of(bk, ck) != Some(self.family) {
            return;
        }
        let all_fins = st.fins | st.endo;
        if (all_fins != 0) != self.finned {
            return;
        }
        let mut elims = (st.covered & !st.body) | st.cannibal;
        if all_fins != 0 {
            elims &= st.buddies;
        }
        elims &= self.cand & !all_fins;
        if elims == 0 {
            return;
        }
        let mut cover = st.chosen.clone();
        cover.sort_unstable();
        self.found.push(Found {
            d: self.d,
            base: st.base.to_vec(),
            cover,
            body: st.body,
            fins: st.fins,
            endo: st.endo,
            elims,
            cannibal: elims & st.body,
        });
    }
}

struct CoverState<'a> {
    base: &'a [usize],
    body: u128,
    endo: u128,
    chosen: Vec<usize>,
    covered: u128,
    cannibal: u128,
    /// Units that may not be chosen from here on.
    forbidden: u32,
    fins: u128,
    /// The places that see every fin (and endo-fin) so far.
    buddies: u128,
    /// Whether the base units are all rows or all columns: the covers must
    /// then take a box, or the fish is a basic one (`fish.rs`).
    lines_only: bool,
}

/// Every fish of `family` and size `k` for every value: finned ones
/// (`finned`) or those without fins.
fn search(b: &Board, family: Family, k: usize, finned: bool) -> Vec<Found> {
    let n = b.n();
    if n > MAX_GENERAL_FISH_SIDE || k < 2 || k > n {
        return Vec::new();
    }
    let cells = n * n;
    let peers: Vec<u128> = (0..cells)
        .map(|c| {
            (0..cells)
                .filter(|&o| b.sees(c, o))
                .fold(0u128, |m, o| m | 1 << o)
        })
        .collect();
    let rows_boxes: u32 = (0..n).chain(2 * n..3 * n).fold(0, |m, u| m | 1 << u);
    let cols_boxes: u32 = (n..3 * n).fold(0, |m, u| m | 1 << u);
    let all: u32 = (0..3 * n).fold(0, |m, u| m | 1 << u);
    let passes: Vec<(u32, u32)> = match family {
        Family::Franken => vec![(rows_boxes, cols_boxes), (cols_boxes, rows_boxes)],
        Family::Mutant => vec![(all, all)],
    };
    let mut found = Vec::new();
    // The search reads one value's places alone: a value it found nothing
    // for is skipped while they stay as they were.
    let t = technique(family, k, finned);
    for d in 0..n {
        // Where the search last found nothing and places have only gone
        // since, a fish now has a base unit that held one of them: with the
        // same base places, every fin and cover place was there then, and
        // what it removes was removed then too.
        let mut need = u32::MAX;
        if let Some(rows) = barren::removed_since(b, t, 0, d) {
            need = 0;
            for (r, &gone) in rows.iter().enumerate() {
                for j in self::cells(u128::from(gone)) {
                    need = b.units_of(r * n + j).iter().fold(need, |m, &u| m | 1 << u);
                }
            }
            if need == 0 {
                #[cfg(test)]
                barren::count_skip();
                continue;
            }
        }
        let before = found.len();
        let places: Vec<u128> = (0..3 * n)
            .map(|u| {
                b.unit(u)
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| b.has(c, d))
                    .fold(0u128, |m, c| m | 1 << c)
            })
            .collect();
        let cand = (0..cells)
            .filter(|&c| b.has(c, d))
            .fold(0u128, |m, c| m | 1 << c);
        for &(base_ok, cover_ok) in &passes {
            let open: Vec<usize> = (0..3 * n)
                .filter(|&u| base_ok >> u & 1 == 1 && places[u] != 0)
                .collect();
            // Per start, the units of `need` from there on.
            let mut needed = vec![0u32; open.len() + 1];
            for i in (0..open.len()).rev() {
                needed[i] = needed[i + 1] | (need & 1 << open[i]);
            }
            let mut s = Search {
                b,
                n,
                d,
                k,
                finned,
                family,
                places: places.clone(),
                peers: peers.clone(),
                cand,
                cover_ok,
                found: Vec::new(),
                chosen: Vec::with_capacity(k),
                needed,
            };
            s.bases(&open, 0, &mut Vec::new(), 0, 0, false);
            found.extend(s.found);
        }
        if found.len() == before {
            barren::set_barren(b, t, 0, d);
        }
    }
    found
}

/// The technique for a family, size and fins.
pub fn technique(family: Family, k: usize, finned: bool) -> Technique {
    let k = u8::try_from(k).unwrap_or(u8::MAX);
    match (family, finned) {
        (Family::Franken, false) => Technique::FrankenFish(k),
        (Family::Franken, true) => Technique::FinnedFrankenFish(k),
        (Family::Mutant, false) => Technique::MutantFish(k),
        (Family::Mutant, true) => Technique::FinnedMutantFish(k),
    }
}

fn names(b: &Board, units: &[usize]) -> String {
    let v: Vec<String> = units.iter().map(|&u| b.unit_name(u)).collect();
    match v.len() {
        0 => String::new(),
        1 => v[0].clone(),
        l => format!("{} and {}", v[..l - 1].join(", "), v[l - 1]),
    }
}

fn cell_list(b: &Board, m: u128) -> String {
    let v: Vec<String> = cells(m).map(|c| b.cell_name(c)).collect();
    match v.len() {
        0 => String::new(),
        1 => v[0].clone(),
        l => format!("{} and {}", v[..l - 1].join(", "), v[l - 1]),
    }
}

/// The step told for a fish found (its value first in `base`).
fn step_of(b: &Board, t: Technique, f: &Found) -> Step {
    let d = f.d;
    let base = &f.base[..];
    let v = Value::from_index(d);
    let sym = b.symbol(d);
    let all_fins = f.fins | f.endo;
    let mut why = format!(
        "{}: in {}, {sym} can only go in {}",
        t.name(),
        names(b, base),
        names(b, &f.cover)
    );
    if all_fins != 0 {
        let count = all_fins.count_ones();
        why.push_str(&format!(
            " apart from the fin{} {}",
            if count == 1 { "" } else { "s" },
            cell_list(b, all_fins)
        ));
        if f.endo != 0 {
            why.push_str(&format!(" ({} in two base units)", cell_list(b, f.endo)));
        }
        why.push_str(&format!(
            "; either a fin holds {sym} or the fish does, so {sym} leaves the cover cells \
             outside the base units that see every fin"
        ));
    } else {
        why.push_str(&format!(
            "; each base unit needs it in one of them, so {sym} leaves the rest of {}",
            names(b, &f.cover)
        ));
    }
    if f.cannibal != 0 {
        why.push_str(&format!(
            ", and the base cell{} {} that two covers share",
            if f.cannibal.count_ones() == 1 {
                ""
            } else {
                "s"
            },
            cell_list(b, f.cannibal)
        ));
    }
    let body: Vec<usize> = cells(f.body).collect();
    let mut h = Highlights {
        candidates: body.iter().map(|&c| (c, v)).collect(),
        cells: body,
        ..Highlights::default()
    };
    for c in cells(f.fins) {
        h.add_role(c, v, CandidateRole::Fin);
    }
    for c in cells(f.endo) {
        h.add_role(c, v, CandidateRole::EndoFin);
    }
    for &u in base {
        h.units.push(u);
        h.set_unit_role(u, UnitRole::Base);
    }
    for &u in &f.cover {
        h.units.push(u);
        h.set_unit_role(u, UnitRole::Cover);
    }
    Step {
        technique: t,
        placements: Vec::new(),
        eliminations: cells(f.elims).map(|c| (c, v)).collect(),
        highlights: h,
        explanation: why,
    }
}

/// Franken or mutant fish of size `k`, with fins (`finned`) or without.
pub fn fish(b: &Board, family: Family, k: usize, finned: bool) -> Vec<Step> {
    let t = technique(family, k, finned);
    search(b, family, k, finned)
        .iter()
        .map(|f| step_of(b, t, f))
        .collect()
}

/// Siamese finned Franken or mutant fish of size `k`: two finned fish of
/// the family on the same value and base units whose eliminations differ
/// (first eliminations differ, as HoDoKu pairs them), told as one step
/// with the eliminations of both.
pub fn siamese(b: &Board, family: Family, k: usize) -> Vec<Step> {
    let found = search(b, family, k, true);
    let t = technique(family, k, true);
    let k8 = u8::try_from(k).unwrap_or(u8::MAX);
    let st = match family {
        Family::Franken => Technique::SiameseFinnedFrankenFish(k8),
        Family::Mutant => Technique::SiameseFinnedMutantFish(k8),
    };
    // HoDoKu lists the plain eliminations first, then the cannibalistic.
    let first = |f: &Found| {
        let plain = f.elims & !f.cannibal;
        lowest(if plain != 0 { plain } else { f.elims })
    };
    let mut steps = Vec::new();
    for (i, x) in found.iter().enumerate() {
        for y in &found[i + 1..] {
            if x.d != y.d || x.base != y.base || first(x) == first(y) {
                continue;
            }
            let (sx, sy) = (step_of(b, t, x), step_of(b, t, y));
            let why = format!(
                "{}: two fish on the same base units, both valid — {} — and {}",
                st.name(),
                sx.explanation,
                sy.explanation
            );
            steps.push(Step::united(st, &sx, &sy, why));
        }
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::shape::Shape;

    /// An empty 9×9 board where digit index `d` keeps only `cells`
    /// (0-based) in the listed rows, and stays everywhere else.
    fn shaped(d: usize, rows: &[(usize, &[usize])]) -> Board {
        let shape = Shape::CLASSIC;
        let mut b = Board::from_values(shape, &vec![None; shape.cells()]).unwrap();
        for &(r, cols) in rows {
            for c in 0..9 {
                if !cols.contains(&c) {
                    b.remove(r * 9 + c, d);
                }
            }
        }
        b
    }

    fn elims(s: &Step) -> Vec<usize> {
        s.eliminations.iter().map(|&(c, _)| c).collect()
    }

    /// 1 in box 1 only in columns 1 and 2, and in row 5 only there too:
    /// box 1 and row 5 against columns 1 and 2, a Franken X-Wing.
    fn franken_x_wing_board(fin: Option<usize>) -> Board {
        let mut row5 = vec![0, 1];
        row5.extend(fin);
        let mut b = shaped(0, &[(4, &row5)]);
        for r in 0..3 {
            b.remove(r * 9 + 2, 0);
        }
        b
    }

    #[test]
    fn franken_x_wing_with_a_box_base() {
        let b = franken_x_wing_board(None);
        let steps = fish(&b, Family::Franken, 2, false);
        // Columns 1 and 2 lose 1 outside box 1 and row 5.
        let want: Vec<usize> = [3, 5, 6, 7, 8]
            .iter()
            .flat_map(|&r| [r * 9, r * 9 + 1])
            .collect();
        assert!(
            steps.iter().any(|s| elims(s) == want),
            "{:?}",
            steps.iter().map(|s| &s.explanation).collect::<Vec<_>>()
        );
        let s = steps.iter().find(|s| elims(s) == want).unwrap();
        assert_eq!(s.technique, Technique::FrankenFish(2));
        assert_eq!(s.technique.name(), "Franken X-Wing");
        // Bases row 5 and box 1 (unit 18), covers columns 1 and 2.
        assert_eq!(s.highlights.units, vec![4, 18, 9, 10]);
        assert_eq!(s.highlights.unit_roles[1], (18, UnitRole::Base));
        assert!(
            s.explanation.starts_with(
                "Franken X-Wing: in row 5 and box 1, 1 can only go in column 1 and column 2"
            ),
            "{}",
            s.explanation
        );
        // Every step is sound: 1 in box 1 and row 5 takes both columns.
        for s in &steps {
            assert!(
                s.eliminations.iter().all(|&(c, _)| c % 9 < 2),
                "{}",
                s.explanation
            );
        }
        // No basic fish there (a box is needed); the finned ones found
        // (other units of this nearly empty board) all have fins.
        assert!(super::super::fish::basic(&b, 2).is_empty());
        for s in fish(&b, Family::Franken, 2, true) {
            assert_eq!(s.technique, Technique::FinnedFrankenFish(2));
            assert!(
                s.highlights
                    .roles
                    .iter()
                    .any(|r| matches!(r.2, CandidateRole::Fin | CandidateRole::EndoFin))
            );
        }
    }

    #[test]
    fn finned_franken_x_wing_keeps_only_what_sees_the_fin() {
        // A fin r5c3 (box 4): only the cover cells of box 4 outside the
        // bases see it.
        let b = franken_x_wing_board(Some(2));
        assert!(fish(&b, Family::Franken, 2, false).is_empty());
        let steps = fish(&b, Family::Franken, 2, true);
        let want = vec![27, 28, 45, 46];
        let s = steps
            .iter()
            .find(|s| elims(s) == want)
            .unwrap_or_else(|| panic!("{steps:?}"));
        assert_eq!(s.technique, Technique::FinnedFrankenFish(2));
        assert_eq!(
            s.highlights
                .roles
                .iter()
                .filter(|r| r.2 == CandidateRole::Fin)
                .count(),
            1
        );
        assert!(
            s.explanation.contains("apart from the fin r5c3"),
            "{}",
            s.explanation
        );
        // A fin far away (r5c9) leaves nothing to remove.
        let far = franken_x_wing_board(Some(8));
        assert!(
            fish(&far, Family::Franken, 2, true)
                .iter()
                .all(|s| elims(s) != want),
        );
    }

    #[test]
    fn nothing_on_boards_above_nine() {
        let shape = Shape::new(4, 4).unwrap();
        let mut b = Board::from_values(shape, &vec![None; shape.cells()]).unwrap();
        for c in 2..16 {
            b.remove(c, 0);
            b.remove(16 + c, 0);
        }
        assert!(fish(&b, Family::Franken, 2, false).is_empty());
        assert!(fish(&b, Family::Mutant, 2, true).is_empty());
    }

    #[test]
    fn families_by_unit_kinds() {
        assert_eq!(family_of(ROW, COL), None);
        assert_eq!(family_of(COL, ROW), None);
        assert_eq!(family_of(ROW | BOX, COL), Some(Family::Franken));
        assert_eq!(family_of(COL, ROW | BOX), Some(Family::Franken));
        assert_eq!(family_of(ROW, COL | BOX), Some(Family::Franken));
        assert_eq!(family_of(BOX, COL), Some(Family::Mutant));
        assert_eq!(family_of(ROW | COL, COL), Some(Family::Mutant));
        assert_eq!(family_of(ROW, ROW | COL | BOX), Some(Family::Mutant));
    }

    /// Along the paths of generated puzzles, every Franken and mutant fish
    /// search gives what a fresh one does when it last found nothing for a
    /// value whose places have only gone since (and searches only the
    /// base sets that held one of them): the same steps in the same order.
    #[test]
    fn a_search_after_removals_finds_what_a_fresh_one_does() {
        use crate::engine::generate::{GenerateOptions, generate};
        use crate::engine::{Level, Limits};
        let kinds: Vec<(Family, usize, bool)> = [Family::Franken, Family::Mutant]
            .into_iter()
            .flat_map(|f| [(f, 2, false), (f, 2, true), (f, 3, false), (f, 3, true)])
            .collect();
        let key = |steps: Vec<Step>| -> Vec<_> {
            steps
                .into_iter()
                .map(|s| (s.eliminations, s.explanation))
                .collect()
        };
        let (mut compared, mut narrowed, mut narrowed_found) = (0, 0, 0);
        for (shape, level, seeds) in [
            (Shape::CLASSIC, Level::Extreme, 1..=3u64),
            (Shape::new(2, 3).unwrap(), Level::Expert, 1..=3),
        ] {
            for seed in seeds {
                let g =
                    generate(&GenerateOptions::new(shape, level, seed), &Limits::none()).unwrap();
                let mut b = Board::from_puzzle(&g.puzzle).unwrap();
                while let Some(step) = super::super::next_step(&b) {
                    for &(family, k, finned) in &kinds {
                        let t = technique(family, k, finned);
                        let removed = (0..b.n()).any(|d| {
                            barren::removed_since(&b, t, 0, d)
                                .is_some_and(|rows| rows.iter().any(|&r| r != 0))
                        });
                        let remembered = key(fish(&b, family, k, finned));
                        barren::forget(t);
                        let fresh = key(fish(&b, family, k, finned));
                        assert_eq!(remembered, fresh, "{shape:?} seed {seed}, {t:?}");
                        compared += 1;
                        narrowed += usize::from(removed);
                        narrowed_found += usize::from(removed && !fresh.is_empty());
                    }
                    b.apply(&step);
                }
            }
        }
        println!("{compared} searches compared, {narrowed} narrowed, {narrowed_found} found fish");
        assert!(
            compared > 500 && narrowed > 100 && narrowed_found > 10,
            "{compared} {narrowed} {narrowed_found}"
        );
    }

    thread_local! {
        /// Tries every last cover, as before [`Search::may_remove_with`].
        pub(super) static EVERY_COVER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    /// The last covers passed over as removing nothing are only those: the
    /// search that tries them all finds the same fish in the same order,
    /// at every position of generated extreme paths, for every size and
    /// family with fins.
    #[test]
    fn last_covers_passed_over_give_no_fish() {
        use crate::engine::generate::{GenerateOptions, generate};
        use crate::engine::{Level, Limits};
        let key = |steps: Vec<Step>| -> Vec<_> {
            steps
                .into_iter()
                .map(|s| (s.eliminations, s.explanation))
                .collect()
        };
        let (mut compared, mut found) = (0, 0);
        for seed in 1..=4u64 {
            let opts = GenerateOptions::new(Shape::CLASSIC, Level::Extreme, seed);
            let g = generate(&opts, &Limits::none()).unwrap();
            let mut b = Board::from_puzzle(&g.puzzle).unwrap();
            while let Some(step) = super::super::next_step(&b) {
                for family in [Family::Franken, Family::Mutant] {
                    for k in 2..=3 {
                        let t = technique(family, k, true);
                        barren::forget(t);
                        let pruned = key(fish(&b, family, k, true));
                        barren::forget(t);
                        EVERY_COVER.set(true);
                        let every = key(fish(&b, family, k, true));
                        EVERY_COVER.set(false);
                        assert_eq!(pruned, every, "seed {seed}, {t:?}");
                        compared += 1;
                        found += usize::from(!every.is_empty());
                    }
                }
                b.apply(&step);
            }
        }
        println!("{compared} searches compared, {found} found fish");
        assert!(compared > 400 && found > 10, "{compared} {found}");
    }

    #[test]
    fn franken_and_mutant_fish_are_sound_on_generated_puzzles() {
        use crate::engine::logic::tests::sound_along_paths;
        let techniques: Vec<Technique> = Technique::ALL
            .into_iter()
            .chain(Technique::EXTRA_FISH)
            .filter(|t| {
                matches!(
                    t,
                    Technique::FrankenFish(_)
                        | Technique::FinnedFrankenFish(_)
                        | Technique::MutantFish(_)
                        | Technique::FinnedMutantFish(_)
                        | Technique::SiameseFinnedFrankenFish(_)
                        | Technique::SiameseFinnedMutantFish(_)
                )
            })
            .collect();
        let fired: Vec<usize> = sound_along_paths(Shape::CLASSIC, 1..=3, &techniques)
            .into_iter()
            .zip(sound_along_paths(
                Shape::new(2, 3).unwrap(),
                1..=3,
                &techniques,
            ))
            .map(|(a, b)| a + b)
            .collect();
        println!("{techniques:?}: {fired:?}");
        assert!(
            fired.iter().sum::<usize>() > 0,
            "no Franken or mutant fish met"
        );
    }
}
