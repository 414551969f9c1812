//! `dekadoku solve`: print the solution of every puzzle.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::Write;

use clap::Args;

use crate::engine::format::{self, Format};
use crate::engine::solve::nine::NineResult;
use crate::engine::{Grid, Outcome, Shape, StopReason};

use super::{Answer, CliError, Input, Jobs, Search, Status, run_batch};

/// Solve every puzzle and print the solutions.
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
    #[command(flatten)]
    jobs: Jobs,
}

/// A puzzle's answer as `solve` prints it.
enum Solution {
    /// A classic grid from the 9×9 kernel: digits 1..=9, row-major.
    Classic([u8; 81]),
    /// Any other grid.
    Grid(Grid),
    /// No single solution: what there was instead.
    Not(Cow<'static, str>),
}

/// Runs `solve`.
pub fn run(args: &SolveArgs) -> Result<Status, CliError> {
    let first = args.first;
    let limit = if first { 1 } else { 2 };
    let mut solved = 0usize;
    let mut note = String::new();
    run_batch(
        &args.input,
        "solve",
        &args.search,
        args.jobs,
        "solving",
        |exact, parsed, limits| {
            Ok(match exact.run_parsed(parsed, limit, limits)? {
                Answer::Nine(r) => classic(&r, first),
                Answer::Raw(r) => {
                    let solution = if first {
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
                    match solution {
                        Ok(g) => Solution::Grid(g),
                        Err(outcome) => Solution::Not(Cow::Owned(describe(&outcome))),
                    }
                }
            })
        },
        |tally, bar, place, solution, out| {
            let out_format = args.format.or(place.format).unwrap_or(Format::Line);
            let grid = match solution {
                Solution::Classic(digits) if out_format == Format::Line => {
                    solved += 1;
                    let mut line = [b'\n'; 82];
                    for (c, d) in line.iter_mut().zip(digits) {
                        *c = b'0' + d;
                    }
                    return out.write_all(&line);
                }
                Solution::Classic(digits) => Grid::from_indices(
                    Shape::CLASSIC,
                    digits.iter().map(|&d| usize::from(d).saturating_sub(1)),
                ),
                Solution::Grid(g) => g,
                Solution::Not(why) => {
                    note.clear();
                    let _ = write!(note, "{}: {why}", place.at(tally));
                    tally.note(bar, &note);
                    tally.unsolved();
                    return Ok(());
                }
            };
            // Block formats need a blank line between puzzles.
            if solved > 0 && out_format != Format::Line {
                writeln!(out)?;
            }
            solved += 1;
            format::write_grid(&grid, out_format, out)
        },
    )
}

/// The answer of the 9×9 kernel (givens that keep the rules), as
/// [`Outcome`] would have it: with `first`, any solution found.
fn classic(r: &NineResult, first: bool) -> Solution {
    let solved = if first {
        r.count >= 1
    } else {
        r.count == 1 && r.exhausted
    };
    if solved {
        return Solution::Classic(r.solutions[0]);
    }
    let outcome = if first {
        // As for any search: stopped when a limit stopped it, else none.
        match r.stopped {
            Some(why) => Outcome::Stopped(why),
            None => Outcome::NoSolution,
        }
    } else if r.count >= 2 {
        return Solution::Not(Cow::Borrowed("more than one solution"));
    } else if r.exhausted {
        Outcome::NoSolution
    } else {
        Outcome::Stopped(r.stopped.unwrap_or(StopReason::Cancelled))
    };
    Solution::Not(Cow::Owned(describe(&outcome)))
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
