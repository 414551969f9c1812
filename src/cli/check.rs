//! `dekadoku check`: conflicting givens by cell, and whether each puzzle has
//! exactly one solution.

use std::io::{self, Write};

use clap::Args;

use crate::engine::{NoTrace, Outcome, Solver};

use super::solve::describe;
use super::{CliError, Input, Status, Tally, Timeout, Verbose, progress};

/// Report conflicting givens (by cell) and whether each puzzle is proper.
#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    input: Input,
    #[command(flatten)]
    timeout: Timeout,
    /// Also print a line for every good puzzle.
    #[arg(long)]
    all: bool,
    #[command(flatten)]
    verbose: Verbose,
}

/// Runs `check`: one line per puzzle, `ok` or what is wrong. Output that
/// cannot be written ends the run (see [`Tally::write_failed`]).
pub fn run(args: &CheckArgs) -> Result<Status, CliError> {
    let mut reader = args.input.open()?;
    // Line by line, as `println!` would, but a failed write is an error
    // rather than a panic.
    let mut out = io::stdout().lock();
    let name = args.input.name();
    let mut solver = Solver::new();
    let mut tally = Tally::new(name.as_str());
    let mut good = 0usize;
    let bar = progress("checking");
    while let Some(item) = reader.next() {
        let Some(puzzle) = tally.puzzle(item, &bar) else {
            continue;
        };
        let line = reader.last_line();
        let started = std::time::Instant::now();
        let outcome = solver.solve(&puzzle, &args.timeout.limits(), &mut NoTrace);
        let head = format!(
            "{name}: puzzle {} (line {line}, {})",
            tally.puzzles,
            puzzle.shape()
        );
        let method = solver
            .last_method()
            .map_or_else(String::new, |m| m.to_string());
        args.verbose
            .tell(&mut tally, &bar, &head, &method, started.elapsed());
        bar.inc(1);
        let written = match outcome {
            Outcome::Solved(_) => {
                good += 1;
                if args.all {
                    bar.suspend(|| writeln!(out, "{head}: ok, one solution"))
                } else {
                    Ok(())
                }
            }
            Outcome::InvalidGivens(conflicts) => {
                tally.unsolved();
                bar.suspend(|| {
                    conflicts
                        .iter()
                        .try_for_each(|c| writeln!(out, "{head}: conflict: {c}"))
                })
            }
            other => {
                tally.unsolved();
                bar.suspend(|| writeln!(out, "{head}: {}", describe(&other)))
            }
        };
        if let Err(e) = written.and_then(|()| out.flush()) {
            return tally.write_failed(e);
        }
    }
    bar.finish_and_clear();
    let checked = tally.puzzles;
    let end = tally.finish();
    if !matches!(end, Err(CliError::NoPuzzle { .. })) {
        note!("{name}: {good} of {checked} puzzles have exactly one solution");
    }
    end
}
