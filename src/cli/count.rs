//! `dekadoku count`: how many solutions each puzzle has, up to a limit.

use std::io::{self, BufWriter, Write};

use clap::Args;

use super::{CliError, Input, Search, Status, Tally, progress};

/// Arguments of `count`.
#[derive(Debug, Args)]
#[command(
    mut_arg("backend", |a| a.help(
        "The exact search: `auto` (the default: picked per puzzle, hard big ones raced \
         between propagation and SAT), `propagation`, `dlx` (Dancing Links) or `sat` \
         (the embedded SAT solver, CaDiCaL, counting with blocking clauses)"
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
}

/// Runs `count`: one line per puzzle, `N` when exact, `>=N` at the limit.
pub fn run(args: &CountArgs) -> Result<Status, CliError> {
    let mut reader = args.input.open()?;
    let mut exact = args.search.exact().map_err(|source| CliError::Search {
        command: "count",
        source,
    })?;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut tally = Tally::new(args.input.name());
    let bar = progress("counting");
    while let Some(item) = reader.next() {
        let Some(puzzle) = tally.puzzle(item, &bar) else {
            continue;
        };
        let at = tally.at(reader.last_line());
        let limits = args.search.timeout.limits();
        let started = std::time::Instant::now();
        let c = exact
            .run(&puzzle, args.limit.max(1), &limits)
            .map_err(|source| CliError::Solver {
                at: at.clone(),
                source,
            })?
            .into_count();
        args.search
            .verbose
            .tell(&bar, &at, &exact.method(), started.elapsed());
        bar.inc(1);
        let text = if !c.conflicts.is_empty() {
            bar.suspend(|| {
                for k in &c.conflicts {
                    note!("{at}: conflicting givens: {k}");
                }
            });
            "0".to_string()
        } else if let Some(stop) = c.stopped {
            format!(">={} ({stop})", c.solutions)
        } else if c.exact {
            c.solutions.to_string()
        } else {
            format!(">={}", c.solutions)
        };
        if !(c.exact && c.solutions == 1) {
            tally.unsolved();
        }
        if let Err(e) = writeln!(out, "{text}") {
            return tally.write_failed(e);
        }
    }
    bar.finish_and_clear();
    tally.flush_and_finish(&mut out)
}
