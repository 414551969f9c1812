//! `dekadoku solve`: print the solution of every puzzle.

use std::io::{self, BufWriter, Write};

use clap::Args;

use crate::engine::Outcome;
use crate::engine::format::{self, Format};

use super::{CliError, Input, Search, Status, Tally, progress};

/// Arguments of `solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    input: Input,
    /// Output format (default: the input's).
    #[arg(long, value_name = "FORMAT")]
    format: Option<Format>,
    /// Accept the first solution found, without proving it is the only one
    /// (for large grids that may have many).
    #[arg(long)]
    first: bool,
    #[command(flatten)]
    search: Search,
}

/// Runs `solve`.
pub fn run(args: &SolveArgs) -> Result<Status, CliError> {
    let mut reader = args.input.open()?;
    let mut exact = args.search.exact().map_err(|source| CliError::Search {
        command: "solve",
        source,
    })?;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut tally = Tally::new(args.input.name());
    let bar = progress("solving");
    let mut solved = 0usize;
    while let Some(item) = reader.next() {
        let Some(puzzle) = tally.puzzle(item, &bar) else {
            continue;
        };
        let at = tally.at(reader.last_line());
        let out_format = args.format.or(reader.format()).unwrap_or(Format::Line);
        let limits = args.search.timeout.limits();
        let started = std::time::Instant::now();
        let r = exact
            .run(&puzzle, if args.first { 1 } else { 2 }, &limits)
            .map_err(|source| CliError::Solver {
                at: at.clone(),
                source,
            })?;
        args.search
            .verbose
            .tell(&bar, &at, &exact.method(), started.elapsed());
        let solution = if args.first {
            if !r.conflicts.is_empty() {
                Err(Outcome::InvalidGivens(r.conflicts))
            } else if let Some(g) = r.witnesses.into_iter().next() {
                Ok(g)
            } else if let Some(stop) = r.stopped {
                Err(Outcome::Stopped(stop))
            } else {
                Err(Outcome::NoSolution)
            }
        } else {
            match r.into_outcome() {
                Outcome::Solved(g) => Ok(g),
                other => Err(other),
            }
        };
        bar.inc(1);
        match solution {
            Ok(grid) => {
                // Block formats need a blank line between puzzles.
                let gap = if solved > 0 && out_format != Format::Line {
                    writeln!(out)
                } else {
                    Ok(())
                };
                solved += 1;
                let written = gap.and_then(|()| format::write_grid(&grid, out_format, &mut out));
                if let Err(e) = written {
                    return tally.write_failed(e);
                }
            }
            Err(outcome) => {
                bar.suspend(|| note!("{at}: {}", describe(&outcome)));
                tally.unsolved();
            }
        }
    }
    bar.finish_and_clear();
    tally.flush_and_finish(&mut out)
}

/// A one-line description of an outcome that is not a unique solution.
pub fn describe(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Solved(_) => "solved".to_string(),
        Outcome::NoSolution => "no solution".to_string(),
        Outcome::Multiple(..) => "more than one solution".to_string(),
        Outcome::InvalidGivens(c) => {
            let list: Vec<String> = c.iter().map(|c| c.to_string()).collect();
            format!("conflicting givens: {}", list.join("; "))
        }
        Outcome::Stopped(why) => format!("stopped: {why}"),
    }
}
