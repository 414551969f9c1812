//! `dekadoku count`: how many solutions each puzzle has, up to a limit.

use std::fmt::Write as _;
use std::io::Write;

use clap::Args;

use crate::engine::{Conflict, StopReason};

use super::{Answer, CliError, Input, Jobs, Search, Status, run_batch};

/// Count the solutions of every puzzle, up to a limit.
#[derive(Debug, Args)]
#[command(
    mut_arg("backend", |a| a.help(
        "The exact search: `auto` (the default: picked per puzzle; hard big ones go to SAT, \
         or, counting past two, are raced between propagation and SAT), `propagation`, \
         `dlx` (Dancing Links), `sat` \
         (the embedded SAT solver, CaDiCaL, counting with blocking clauses) or `hall` \
         (propagation with Hall sets: all-different consistency per unit)"
    )),
    mut_arg("sat_cmd", |a| a.help(
        "Count with this SAT solver program instead (implies `--backend sat`; the program \
         runs once per solution found, plus once to prove there is no other), e.g. \
         `kissat -q` or `cadical -q`"
    )),
)]
pub struct CountArgs {
    #[command(flatten)]
    input: Input,
    /// Stop counting a puzzle at this many solutions.
    #[arg(long, default_value_t = 2, value_name = "N")]
    limit: u64,
    #[command(flatten)]
    search: Search,
    #[command(flatten)]
    jobs: Jobs,
}

/// A puzzle's count as `count` prints it.
struct Counted {
    solutions: u64,
    exact: bool,
    stopped: Option<StopReason>,
    conflicts: Vec<Conflict>,
}

/// Runs `count`: one line per puzzle, `N` when exact, `>=N` at the limit.
pub fn run(args: &CountArgs) -> Result<Status, CliError> {
    let limit = args.limit.max(1);
    let mut note = String::new();
    run_batch(
        &args.input,
        "count",
        &args.search,
        args.jobs,
        "counting",
        |exact, parsed, limits| {
            Ok(match exact.run_parsed(parsed, limit, limits)? {
                Answer::Nine(r) => Counted {
                    solutions: r.count,
                    exact: r.exhausted,
                    stopped: r.stopped,
                    conflicts: Vec::new(),
                },
                Answer::Raw(r) => {
                    let c = r.into_count();
                    Counted {
                        solutions: c.solutions,
                        exact: c.exact,
                        stopped: c.stopped,
                        conflicts: c.conflicts,
                    }
                }
            })
        },
        |tally, bar, place, c, out| {
            if !(c.exact && c.solutions == 1) {
                tally.unsolved();
            }
            if !c.conflicts.is_empty() {
                let at = place.at(tally);
                for k in &c.conflicts {
                    note.clear();
                    let _ = write!(note, "{at}: conflicting givens: {k}");
                    tally.note(bar, &note);
                }
                out.write_all(b"0\n")
            } else if let Some(stop) = c.stopped {
                writeln!(out, ">={} ({stop})", c.solutions)
            } else if c.exact {
                writeln!(out, "{}", c.solutions)
            } else {
                writeln!(out, ">={}", c.solutions)
            }
        },
    )
}
