//! `dekadoku solve`: print the solution of every puzzle.

use std::io::{self, BufWriter, Write};

use clap::Args;

use crate::engine::format::{self, Format};
use crate::engine::{Backend, Limits, Outcome};

use super::{Exact, Input, Status, progress, puzzle_or_report, seconds, write_failed};

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
    /// Give up on a puzzle after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// The exact search: `propagation` (the default), `dlx` (Dancing
    /// Links) or `sat` (the embedded SAT solver, CaDiCaL).
    #[arg(long, value_name = "BACKEND")]
    backend: Option<Backend>,
    /// Solve with this SAT solver program instead (implies `--backend
    /// sat`): it reads DIMACS on standard input and answers in the SAT
    /// competition's format, e.g. `kissat -q` or `cadical -q`.
    #[arg(long, value_name = "COMMAND")]
    sat_cmd: Option<String>,
}

/// Runs `solve`.
pub fn run(args: &SolveArgs) -> Status {
    let mut reader = match args.input.open_or_report() {
        Ok(r) => r,
        Err(status) => return status,
    };
    let name = args.input.name();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut exact = match Exact::new(args.backend, args.sat_cmd.as_deref()) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("dekadoku solve: {e}");
            return Status::BadInput;
        }
    };
    let mut status = Status::Ok;
    let bar = progress("solving");
    let mut index = 0usize;
    let mut solved = 0usize;
    while let Some(item) = reader.next() {
        let Some(puzzle) = puzzle_or_report(item, &bar, &mut status) else {
            continue;
        };
        index += 1;
        let line = reader.last_line();
        let out_format = args.format.or(reader.format()).unwrap_or(Format::Line);
        let limits = match seconds(args.timeout) {
            Some(d) => Limits::timeout(d),
            None => Limits::none(),
        };
        let where_ = format!("{name}: puzzle {index} (line {line})");
        let r = match exact.run(&puzzle, if args.first { 1 } else { 2 }, &limits) {
            Ok(r) => r,
            Err(e) => {
                bar.finish_and_clear();
                let _ = out.flush();
                eprintln!("{where_}: {e}");
                return Status::BadInput;
            }
        };
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
                    return write_failed(&name, &e, status);
                }
            }
            Err(outcome) => {
                bar.suspend(|| eprintln!("{where_}: {}", describe(&outcome)));
                status = status.worst(Status::NotUnique);
            }
        }
    }
    bar.finish_and_clear();
    if let Err(e) = out.flush()
        && e.kind() != io::ErrorKind::BrokenPipe
    {
        eprintln!("{name}: cannot write: {e}");
    }
    if index == 0 && status == Status::Ok {
        eprintln!("{name}: no puzzle found");
        return Status::BadInput;
    }
    status
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
