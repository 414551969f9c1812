//! `dekadoku check`: conflicting givens by cell, and whether each puzzle has
//! exactly one solution.

use clap::Args;

use crate::engine::{Limits, NoTrace, Outcome, Solver};

use super::solve::describe;
use super::{Input, Status, progress, puzzle_or_report, seconds};

/// Arguments of `check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    input: Input,
    /// Give up on a puzzle after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Also print a line for every good puzzle.
    #[arg(long)]
    all: bool,
}

/// Runs `check`: one line per puzzle, `ok` or what is wrong.
pub fn run(args: &CheckArgs) -> Status {
    let mut reader = match args.input.open_or_report() {
        Ok(r) => r,
        Err(status) => return status,
    };
    let name = args.input.name();
    let mut solver = Solver::new();
    let mut status = Status::Ok;
    let (mut good, mut index) = (0usize, 0usize);
    let bar = progress("checking");
    while let Some(item) = reader.next() {
        let Some(puzzle) = puzzle_or_report(item, &bar, &mut status) else {
            continue;
        };
        index += 1;
        let line = reader.last_line();
        let limits = match seconds(args.timeout) {
            Some(d) => Limits::timeout(d),
            None => Limits::none(),
        };
        let outcome = solver.solve(&puzzle, &limits, &mut NoTrace);
        bar.inc(1);
        let head = format!("{name}: puzzle {index} (line {line}, {})", puzzle.shape());
        match outcome {
            Outcome::Solved(_) => {
                good += 1;
                if args.all {
                    bar.suspend(|| println!("{head}: ok, one solution"));
                }
            }
            Outcome::InvalidGivens(conflicts) => {
                status = status.worst(Status::NotUnique);
                bar.suspend(|| {
                    for c in &conflicts {
                        println!("{head}: conflict: {c}");
                    }
                });
            }
            other => {
                status = status.worst(Status::NotUnique);
                bar.suspend(|| println!("{head}: {}", describe(&other)));
            }
        }
    }
    bar.finish_and_clear();
    if index == 0 && status == Status::Ok {
        eprintln!("{name}: no puzzle found");
        return Status::BadInput;
    }
    eprintln!("{name}: {good} of {index} puzzles have exactly one solution");
    status
}
