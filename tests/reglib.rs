//! HoDoKu's regression library (`../shared/technique-tests/reglib-1.3.txt`)
//! as one data-driven test: every case of every technique we implement must
//! pass by HoDoKu's own rule — among all the steps the technique finds whose
//! digits match the case's, one equals the expected eliminations/placements
//! exactly and no other differs from it; a `-x` case must find no step with
//! its digits. Each case is searched with the
//! options HoDoKu's tester sets for its variant (ALS nodes in grouped
//! chains, overlapping ALSs). Every step found in every case's position,
//! matching or not, must agree with the puzzle's one solution.
//! Codes we do not implement are counted and listed as skipped; both counts
//! are asserted exactly (all 1,112 of the library's cases run, none skipped),
//! so a case that stops being read, or a technique that starts or stops
//! being recognised, changes them on purpose.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeMap;

use dekadoku::engine::logic::{
    Board, CandidateRole, Effect, Link, SearchOptions, Step, Technique, UnitRole, find_all_with,
};
use dekadoku::engine::solve::{Outcome, solve};
use dekadoku::engine::trace::NoTrace;
use dekadoku::engine::{Grid, Limits, Puzzle, Shape, Value};

/// `<digit><row><col>` triples → (cell, value).
fn triples(text: &str) -> Vec<(usize, Value)> {
    let mut v: Vec<(usize, Value)> = text
        .split_whitespace()
        .map(|t| {
            let b = t.as_bytes();
            let (d, r, c) = (
                (b[0] - b'0') as usize,
                (b[1] - b'1') as usize,
                (b[2] - b'1') as usize,
            );
            (r * 9 + c, Value::new(d).unwrap())
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

fn digits_of(list: &[(usize, Value)]) -> String {
    let mut d: Vec<usize> = list.iter().map(|(_, v)| v.get()).collect();
    d.sort();
    d.dedup();
    d.iter().map(|d| d.to_string()).collect()
}

/// A step in the library's terms: digits, eliminations, placements.
type Rendered = (String, Vec<(usize, Value)>, Vec<(usize, Value)>);

/// What a step looks like in the library's terms.
fn render(s: &Step) -> Rendered {
    let mut e = s.eliminations.clone();
    e.sort();
    e.dedup();
    let mut p = s.placements.clone();
    p.sort();
    p.dedup();
    // The digits the pattern is about (HoDoKu's "candidates" field): a
    // subset's values, a fish's digit, a single's value; for chains, ALSs,
    // Sue de Coq and colouring the eliminated digits; nothing for BUG+1.
    let by_result = matches!(
        s.technique,
        Technique::Aic
            | Technique::ContinuousNiceLoop
            | Technique::DiscontinuousNiceLoop
            | Technique::GroupedAic
            | Technique::GroupedContinuousNiceLoop
            | Technique::GroupedDiscontinuousNiceLoop
            | Technique::AlsXz
            | Technique::AlsXyWing
            | Technique::AlsChain
            | Technique::DeathBlossom
            | Technique::SueDeCoq
            | Technique::MultiColors1
            | Technique::MultiColors2
            | Technique::DualEmptyRectangle
    );
    let digits = if s.technique == Technique::BugPlusOne {
        String::new()
    } else if s.technique == Technique::DualTwoStringKite {
        // HoDoKu pairs kites by their box cells alone and names the pair
        // by its first kite's digit, the lower one.
        digits_of(&e)[..1].to_string()
    } else if s.highlights.candidates.is_empty() || by_result {
        digits_of(if e.is_empty() { &p } else { &e })
    } else {
        digits_of(&s.highlights.candidates)
    };
    (digits, e, p)
}

/// The search options HoDoKu's tester sets for a case: grouped chains
/// through ALS nodes only in their "with ALS" variants (0709-2, 0710-3/4,
/// 0711-3/4); ALS-XY-Wings and Death Blossoms with overlapping sets only in
/// variant 2 (ALS-XZ never; our ALS chains always link overlapping sets).
fn options(code: &str, variant: &str) -> SearchOptions {
    let als_in_chains = matches!(
        (code, variant),
        ("0709", "2") | ("0710", "3" | "4") | ("0711", "3" | "4")
    );
    let als_overlap = matches!(code, "0902" | "0904") && variant == "2";
    SearchOptions {
        als_in_chains,
        als_overlap,
    }
}

struct Case {
    /// The case's puzzle (givens and placed cells) and its one solution.
    solution: Option<Grid>,
    code: String,
    /// The variant after the code's dash ("x" for a fail case).
    variant: String,
    fail_case: bool,
    digits: String,
    board: Board,
    elims: Vec<(usize, Value)>,
    places: Vec<(usize, Value)>,
    line: usize,
}

fn parse(line_no: usize, line: &str) -> Option<Case> {
    let f: Vec<&str> = line.split(':').collect();
    if f.len() < 7 {
        return None;
    }
    let (code, variant) = match f[1].split_once('-') {
        Some((c, v)) => (c.to_string(), v.to_string()),
        None => (f[1].to_string(), String::new()),
    };
    let mut values = Vec::with_capacity(81);
    // `+` marks a value placed while solving, not given.
    let mut placed = Vec::new();
    let mut plus = false;
    for ch in f[3].chars() {
        match ch {
            '+' => {
                plus = true;
                continue;
            }
            '.' | '0' => values.push(None),
            d => values.push(Some(Value::new(d.to_digit(10)? as usize)?)),
        }
        if plus {
            placed.push(values.len() - 1);
        }
        plus = false;
    }
    if values.len() != 81 {
        return None;
    }
    let solution = match solve(
        &Puzzle::new(Shape::CLASSIC, values.clone()).ok()?,
        &Limits::none(),
        &mut NoTrace,
    ) {
        Outcome::Solved(g) => Some(g),
        _ => None,
    };
    let mut board = Board::from_values(Shape::CLASSIC, &values).ok()?;
    // The library's puzzles are unique (uniqueness cases rely on it).
    board.set_known_unique(true);
    for c in placed {
        board.set_given(c, false);
    }
    for (c, v) in triples(f[4]) {
        board.remove(c, v.index());
    }
    Some(Case {
        solution,
        code,
        fail_case: variant == "x",
        variant,
        digits: f[2].to_string(),
        board,
        elims: triples(f[5]),
        places: triples(f[6]),
        line: line_no,
    })
}

#[test]
fn hodoku_regression_library() {
    let Some(path) = common::shared_file("technique-tests/reglib-1.3.txt") else {
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let mut passed: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut skipped: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut cases = 0;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        if !line.starts_with(':') {
            continue;
        }
        cases += 1;
        let Some(case) = parse(i + 1, line) else {
            failures.push(format!("line {}: unreadable case", i + 1));
            continue;
        };
        let Some(t) = Technique::from_hodoku_code(&case.code) else {
            *skipped.entry(case.code.clone()).or_default() += 1;
            continue;
        };
        let found = find_all_with(&case.board, t, options(&case.code, &case.variant));
        // Every step found, matching or not, agrees with the solution.
        match &case.solution {
            Some(sol) => {
                for s in &found {
                    let wrong = s.eliminations.iter().any(|&(c, v)| sol.get(c) == v)
                        || s.placements.iter().any(|&(c, v)| sol.get(c) != v);
                    if wrong {
                        failures.push(format!(
                            "line {}: unsound {} step: {}",
                            case.line,
                            t.name(),
                            s.explanation
                        ));
                    }
                }
            }
            None => failures.push(format!(
                "line {}: the puzzle has no one solution",
                case.line
            )),
        }
        let steps: Vec<_> = found.iter().map(render).collect();
        let same: Vec<_> = steps.iter().filter(|(d, _, _)| *d == case.digits).collect();
        let ok = if case.fail_case {
            same.is_empty()
        } else {
            let hit = |(_, e, p): &&Rendered| *e == case.elims && *p == case.places;
            same.iter().any(hit)
        };
        // HoDoKu's own rule is stricter: no other step of the technique with
        // the case's digits may differ from the expected one.
        let others: Vec<String> = found
            .iter()
            .zip(&steps)
            .filter(|(_, (d, e, p))| *d == case.digits && (*e != case.elims || *p != case.places))
            .map(|(s, _)| s.explanation.clone())
            .collect();
        if ok && !others.is_empty() {
            failures.push(format!(
                "line {} ({}): other steps with digits {} differ from the expected one:\n  {}",
                case.line,
                t.name(),
                case.digits,
                others.join("\n  ")
            ));
        }
        let entry = passed
            .entry(format!("{} {}", case.code, t.name()))
            .or_default();
        entry.1 += 1;
        if ok {
            entry.0 += 1;
        } else {
            failures.push(format!(
                "line {} ({}): expected {:?} {:?}, found {:?}",
                case.line,
                t.name(),
                case.elims,
                case.places,
                same
            ));
        }
    }
    println!("reglib-1.3, techniques implemented (passed/cases):");
    for (name, (ok, all)) in &passed {
        println!("  {name}: {ok}/{all}");
    }
    let skipped_total: usize = skipped.values().sum();
    println!(
        "skipped (not implemented yet): {skipped_total} cases in {} codes: {}",
        skipped.len(),
        skipped
            .iter()
            .map(|(c, k)| format!("{c}×{k}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let run: usize = passed.values().map(|&(_, all)| all).sum();
    assert_eq!(
        (cases, run, skipped_total),
        (1_112, 1_112, 0),
        "cases in the library, run, skipped"
    );
}

/// Whether technique `t` tells its steps as an alternating chain: its links
/// run in chain order, strong into a true node, weak into a false one.
fn alternating(t: Technique) -> bool {
    matches!(
        t,
        Technique::Skyscraper
            | Technique::TwoStringKite
            | Technique::TurbotFish
            | Technique::WWing
            | Technique::XChain
            | Technique::XYChain
            | Technique::Aic
            | Technique::ContinuousNiceLoop
            | Technique::DiscontinuousNiceLoop
            | Technique::GroupedAic
            | Technique::GroupedContinuousNiceLoop
            | Technique::GroupedDiscontinuousNiceLoop
    )
}

/// Whether `role` is listed for (`cell`, `value`) among the step's roles.
fn listed(s: &Step, at: (usize, Value), role: CandidateRole) -> bool {
    s.highlights
        .roles
        .iter()
        .any(|&(c, v, r)| (c, v) == at && r == role)
}

/// What is wrong with the roles and the effect of step `s` (of technique
/// `t`) found on `b`, if anything.
fn role_faults(b: &Board, t: Technique, s: &Step) -> Vec<String> {
    let mut bad = Vec::new();
    let h = &s.highlights;
    let prefix = format!("{}: ", t.name());
    if !s.explanation.starts_with(&prefix) {
        bad.push(format!("does not start with {prefix:?}"));
    }
    if Effect::from_explanation(&s.explanation, 9) != Ok(s.effect()) {
        bad.push("does not end with its effect".to_string());
    }
    for &(c, v) in &s.eliminations {
        if s.role_of(c, v) != Some(CandidateRole::Eliminated) {
            bad.push(format!("elimination {c}/{v:?} is {:?}", s.role_of(c, v)));
        }
    }
    for &(c, v) in &s.placements {
        if s.role_of(c, v) != Some(CandidateRole::Placed) {
            bad.push(format!("placement {c}/{v:?} is {:?}", s.role_of(c, v)));
        }
    }
    for &(c, v) in &h.candidates {
        if !h.roles.iter().any(|&(rc, rv, _)| (rc, rv) == (c, v)) {
            bad.push(format!("candidate {c}/{v:?} has no role"));
        }
    }
    for &u in &h.units {
        if !h.unit_roles.iter().any(|&(ru, _)| ru == u) {
            bad.push(format!("unit {u} has no role"));
        }
    }
    if alternating(t) {
        // A weak link may also leave an almost locked set's node (false:
        // the set lacks that digit, so it holds its others, which rule out
        // the next node).
        let als_exit = |l: &Link| {
            !l.strong
                && listed(s, l.from, CandidateRole::ChainOff)
                && h.roles
                    .iter()
                    .any(|&(c, v, r)| (c, v) == l.from && matches!(r, CandidateRole::Set(_)))
        };
        for (i, l) in h.links.iter().enumerate() {
            let (from, to) = if l.strong || als_exit(l) {
                (CandidateRole::ChainOff, CandidateRole::ChainOn)
            } else {
                (CandidateRole::ChainOn, CandidateRole::ChainOff)
            };
            let to = if als_exit(l) {
                CandidateRole::ChainOff
            } else {
                to
            };
            if !listed(s, l.from, from) || !listed(s, l.to, to) {
                bad.push(format!("link {i} {l:?} is not {from:?} to {to:?}"));
            }
            if let Some(next) = h.links.get(i + 1)
                && next.strong == l.strong
                && !als_exit(next)
            {
                bad.push(format!("links {i} and {} do not alternate", i + 1));
            }
        }
    }
    match t {
        Technique::Fish(_)
        | Technique::FinnedFish(_)
        | Technique::SashimiFish(_)
        | Technique::SiameseFinnedFish(_)
        | Technique::SiameseSashimiFish(_) => {
            let covers: Vec<usize> = h
                .unit_roles
                .iter()
                .filter(|&&(_, r)| r == UnitRole::Cover)
                .map(|&(u, _)| u)
                .collect();
            let bases = h.unit_roles.len() - covers.len();
            if covers.is_empty() || bases == 0 {
                bad.push(format!("{bases} base and {} cover units", covers.len()));
            }
            // A base-line place outside every cover line is a fin, and only
            // those are (a Siamese fish's two fishes have their own covers).
            let siamese = matches!(
                t,
                Technique::SiameseFinnedFish(_) | Technique::SiameseSashimiFish(_)
            );
            for &(c, v) in &h.candidates {
                let covered = covers.iter().any(|u| b.units_of(c).contains(u));
                let fin = s.role_of(c, v) == Some(CandidateRole::Fin);
                let wrong = if siamese {
                    !covered && !fin
                } else {
                    covered == fin
                };
                if wrong {
                    bad.push(format!("candidate {c}/{v:?} covered {covered}, fin {fin}"));
                }
            }
            let finned = !matches!(t, Technique::Fish(_));
            if finned
                != h.candidates
                    .iter()
                    .any(|&(c, v)| s.role_of(c, v) == Some(CandidateRole::Fin))
            {
                bad.push("fins and technique disagree".to_string());
            }
        }
        Technique::FrankenFish(_)
        | Technique::FinnedFrankenFish(_)
        | Technique::MutantFish(_)
        | Technique::FinnedMutantFish(_) => {
            // As many base as cover units; a base place two bases share is
            // an endo-fin, one outside every cover a fin, and no other is.
            let of = |role: UnitRole| -> Vec<usize> {
                h.unit_roles
                    .iter()
                    .filter(|&&(_, r)| r == role)
                    .map(|&(u, _)| u)
                    .collect()
            };
            let (bases, covers) = (of(UnitRole::Base), of(UnitRole::Cover));
            let k = match t {
                Technique::FrankenFish(k)
                | Technique::FinnedFrankenFish(k)
                | Technique::MutantFish(k)
                | Technique::FinnedMutantFish(k) => usize::from(k),
                _ => 0,
            };
            if bases.len() != k || covers.len() != k {
                bad.push(format!(
                    "{} base and {} cover units",
                    bases.len(),
                    covers.len()
                ));
            }
            let mut any_fin = false;
            for &(c, v) in &h.candidates {
                let units = b.units_of(c);
                let in_bases = bases.iter().filter(|u| units.contains(u)).count();
                let covered = covers.iter().any(|u| units.contains(u));
                let want = if in_bases >= 2 {
                    Some(CandidateRole::EndoFin)
                } else if !covered {
                    Some(CandidateRole::Fin)
                } else {
                    None
                };
                let role = s.role_of(c, v);
                let fin_role = matches!(role, Some(CandidateRole::Fin | CandidateRole::EndoFin));
                any_fin |= fin_role;
                if in_bases == 0 || (want.is_some() && role != want) || (want.is_none() && fin_role)
                {
                    bad.push(format!(
                        "candidate {c}/{v:?} in {in_bases} bases, covered {covered}, role {role:?}"
                    ));
                }
            }
            let finned = matches!(
                t,
                Technique::FinnedFrankenFish(_) | Technique::FinnedMutantFish(_)
            );
            if finned != any_fin {
                bad.push("fins and technique disagree".to_string());
            }
        }
        Technique::ColorTrap
        | Technique::ColorWrap
        | Technique::MultiColors1
        | Technique::MultiColors2 => {
            // Conjugate pairs join the two colours of one cluster.
            let colour = |at: (usize, Value)| {
                h.roles.iter().find_map(|&(c, v, r)| match r {
                    CandidateRole::Colour(k) if (c, v) == at => Some(k),
                    _ => None,
                })
            };
            for l in &h.links {
                match (colour(l.from), colour(l.to)) {
                    (Some(x), Some(y)) if x ^ 1 == y => {}
                    other => bad.push(format!("link {l:?} joins colours {other:?}")),
                }
            }
        }
        Technique::UniqueRectangle(2 | 5)
            if !h.roles.iter().any(|&(_, _, r)| r == CandidateRole::Fin) =>
        {
            bad.push("no extra candidate told as a fin".to_string());
        }
        Technique::AlsXz | Technique::AlsXyWing | Technique::AlsChain => {
            for k in [0, 1] {
                if !h.roles.iter().any(|&(_, _, r)| r == CandidateRole::Set(k)) {
                    bad.push(format!("no candidate of set {k}"));
                }
            }
        }
        Technique::ForcingChain => {
            // Each link reads "then", from a true node to a true (or
            // eliminated) one.
            for l in &h.links {
                let ok = |at: (usize, Value)| {
                    listed(s, at, CandidateRole::ChainOn)
                        || s.role_of(at.0, at.1) == Some(CandidateRole::Eliminated)
                };
                if !ok(l.from) || !ok(l.to) {
                    bad.push(format!("link {l:?} is not between true nodes"));
                }
            }
        }
        _ => {}
    }
    bad
}

/// Every step found in every library case (one technique of every family
/// and more): its explanation starts with the technique's name and ends
/// with its effect; eliminated and placed candidates carry those roles;
/// every highlighted candidate and unit has a role; a chain's nodes
/// alternate on and off as its links are strong or weak; a fish's fins
/// are exactly its base-line places outside its cover lines, and its units
/// are base or cover (a Franken or mutant fish's endo-fins are the places
/// two bases share); colourings join opposite colours; unique rectangles
/// 2 and 5 tell their extra candidates as fins; ALS steps tell their sets
/// apart; forcing chains lead from true node to true node.
#[test]
fn roles_and_effects_of_every_library_step() {
    let Some(path) = common::shared_file("technique-tests/reglib-1.3.txt") else {
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let mut faults = Vec::new();
    let mut checked: BTreeMap<&'static str, usize> = BTreeMap::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        if !line.starts_with(':') {
            continue;
        }
        let Some(case) = parse(i + 1, line) else {
            continue;
        };
        let Some(t) = Technique::from_hodoku_code(&case.code) else {
            continue;
        };
        for s in find_all_with(&case.board, t, options(&case.code, &case.variant)) {
            *checked.entry(t.name()).or_default() += 1;
            for fault in role_faults(&case.board, t, &s) {
                faults.push(format!("line {}: {fault}: {}", case.line, s.explanation));
            }
        }
    }
    println!("steps checked: {checked:?}");
    assert!(
        faults.is_empty(),
        "{} faults:\n{}",
        faults.len(),
        faults[..faults.len().min(40)].join("\n")
    );
    // Every technique of the library was met.
    assert!(checked.len() >= 60, "{} techniques", checked.len());
}
