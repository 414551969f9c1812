//! Kraken fish (types 1 and 2) are sound: along the logic path of shared
//! hard puzzles, every kraken step found at every position removes only
//! candidates the solution does not hold. By default the first three
//! puzzles of top1465 (about 15 s on a loaded machine); the wider sweep is an ignored test:
//!
//! ```text
//! cargo test --release --test kraken -- --ignored --nocapture
//! ```
//!
//! (`DEKADOKU_KRAKEN_EVERY=K` takes every K-th puzzle of top1465 and of
//! the forum's hardest in the ignored sweep, default 10 and 400;
//! `DEKADOKU_KRAKEN_SHOW=N` prints the first N steps found as library
//! lines.)
#![allow(clippy::unwrap_used)]

mod common;

use dekadoku::engine::logic::{Board, Technique, find_all, full_path};
use dekadoku::engine::{Limits, NoTrace, Outcome, Puzzle, solve};

/// The position as a line of HoDoKu's library (`:code:digit:values:
/// deleted:eliminations::`): values not given marked `+`, candidates the
/// rules leave but the position lacks as `<digit><row><col>`.
fn library_line(
    p: &Puzzle,
    b: &Board,
    code: &str,
    elims: &[(usize, dekadoku::engine::Value)],
) -> String {
    let mut values = String::new();
    for c in 0..81 {
        match b.value(c) {
            Some(v) if p.get(c).is_some() => values.push_str(&v.to_string()),
            Some(v) => values.push_str(&format!("+{v}")),
            None => values.push('.'),
        }
    }
    let fresh =
        Board::from_values(p.shape(), &(0..81).map(|c| b.value(c)).collect::<Vec<_>>()).unwrap();
    let mut deleted = Vec::new();
    for c in 0..81 {
        for d in fresh.digits(c) {
            if !b.has(c, d) {
                deleted.push(format!("{}{}{}", d + 1, c / 9 + 1, c % 9 + 1));
            }
        }
    }
    let e: Vec<String> = elims
        .iter()
        .map(|&(c, v)| format!("{v}{}{}", c / 9 + 1, c % 9 + 1))
        .collect();
    format!(":{code}::{values}:{}:{}::", deleted.join(" "), e.join(" "))
}

/// Walks `p`'s logic path; at every position past the singles, checks
/// every kraken step against the solution. Returns the steps found per
/// type, printing the first `show` of them.
fn sweep(name: &str, i: usize, p: &Puzzle, show: &mut usize) -> [usize; 2] {
    let Outcome::Solved(sol) = solve(p, &Limits::none(), &mut NoTrace) else {
        panic!("{name} {i}: not unique")
    };
    let mut b = Board::from_puzzle(p).unwrap();
    b.set_known_unique(true);
    let path = full_path(&b, &sol, &Limits::none()).unwrap();
    let mut found = [0; 2];
    for s in &path {
        let single = matches!(
            s.technique,
            Technique::FullHouse | Technique::NakedSingle | Technique::HiddenSingle
        );
        if !single {
            for (k, t) in [Technique::KrakenFish(1), Technique::KrakenFish(2)]
                .into_iter()
                .enumerate()
            {
                for step in find_all(&b, t) {
                    assert_eq!(step.eliminations.len(), 1, "{}", step.explanation);
                    for &(c, v) in &step.eliminations {
                        assert!(b.has(c, v.index()), "{name} {i}: {}", step.explanation);
                        assert_ne!(sol.get(c), v, "{name} {i}: {}", step.explanation);
                    }
                    found[k] += 1;
                    if *show > 0 {
                        *show -= 1;
                        println!(
                            "{name} {i}\n{}\n{}\n",
                            library_line(p, &b, t.hodoku_code(), &step.eliminations),
                            step.explanation
                        );
                    }
                }
            }
        }
        b.apply(s);
    }
    found
}

/// How many steps to print (`DEKADOKU_KRAKEN_SHOW`, default none).
fn shown() -> usize {
    std::env::var("DEKADOKU_KRAKEN_SHOW")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

#[test]
fn kraken_fish_agree_with_the_solution_on_top1465() {
    let name = "puzzles3_magictour_top1465";
    let mut total = [0; 2];
    let mut show = shown();
    let puzzles = common::sample(name, 1, 3);
    for (i, p) in &puzzles {
        let f = sweep(name, *i, p, &mut show);
        total[0] += f[0];
        total[1] += f[1];
    }
    println!(
        "{} puzzles: type 1 {}, type 2 {}",
        puzzles.len(),
        total[0],
        total[1]
    );
    if !puzzles.is_empty() {
        assert!(total[0] > 0 && total[1] > 0, "{total:?}");
    }
}

#[test]
#[ignore = "slow sweep: cargo test --release --test kraken -- --ignored --nocapture"]
fn kraken_fish_sweep() {
    let every = std::env::var("DEKADOKU_KRAKEN_EVERY")
        .ok()
        .and_then(|v| v.parse().ok());
    let mut show = shown();
    for (name, default) in [
        ("puzzles3_magictour_top1465", 10),
        ("puzzles5_forum_hardest_1905_11+", 400),
    ] {
        let puzzles = common::sample(name, every.unwrap_or(default), usize::MAX);
        let (mut total, mut with) = ([0; 2], 0);
        for (i, p) in &puzzles {
            let f = sweep(name, *i, p, &mut show);
            total[0] += f[0];
            total[1] += f[1];
            with += usize::from(f != [0, 0]);
        }
        println!(
            "{name}: {} puzzles, {with} with a kraken fish; steps: type 1 {}, type 2 {}",
            puzzles.len(),
            total[0],
            total[1]
        );
    }
}
