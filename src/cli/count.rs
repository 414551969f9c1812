//! `dekadoku count`: how many solutions each puzzle has, up to a limit.

use std::io::{self, BufWriter, Write};

use clap::Args;

use crate::engine::{Backend, Limits};

use super::{Exact, Input, Status, progress, puzzle_or_report, seconds, write_failed};

/// Arguments of `count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    #[command(flatten)]
    input: Input,
    /// Stop counting a puzzle at this many solutions.
    #[arg(long, default_value_t = 2, value_name = "N")]
    limit: u64,
    /// Give up on a puzzle after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// The exact search: `propagation` (the default), `dlx` (Dancing
    /// Links) or `sat` (the embedded SAT solver, CaDiCaL, counting with
    /// blocking clauses).
    #[arg(long, value_name = "BACKEND")]
    backend: Option<Backend>,
    /// Count with this SAT solver program instead (implies `--backend
    /// sat`; the program runs once per solution found, plus once to prove
    /// there is no other), e.g. `kissat -q` or `cadical -q`.
    #[arg(long, value_name = "COMMAND")]
    sat_cmd: Option<String>,
}

/// Runs `count`: one line per puzzle, `N` when exact, `>=N` at the limit.
pub fn run(args: &CountArgs) -> Status {
    let mut reader = match args.input.open_or_report() {
        Ok(r) => r,
        Err(status) => return status,
    };
    let name = args.input.name();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut exact = match Exact::new(args.backend, args.sat_cmd.as_deref()) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("dekadoku count: {e}");
            return Status::BadInput;
        }
    };
    let mut status = Status::Ok;
    let bar = progress("counting");
    let mut index = 0usize;
    while let Some(item) = reader.next() {
        let Some(puzzle) = puzzle_or_report(item, &bar, &mut status) else {
            continue;
        };
        index += 1;
        let limits = match seconds(args.timeout) {
            Some(d) => Limits::timeout(d),
            None => Limits::none(),
        };
        let c = match exact.run(&puzzle, args.limit.max(1), &limits) {
            Ok(r) => r.into_count(),
            Err(e) => {
                bar.finish_and_clear();
                let _ = out.flush();
                let line = reader.last_line();
                eprintln!("{name}: puzzle {index} (line {line}): {e}");
                return Status::BadInput;
            }
        };
        bar.inc(1);
        let text = if !c.conflicts.is_empty() {
            let line = reader.last_line();
            bar.suspend(|| {
                for k in &c.conflicts {
                    eprintln!("{name}: puzzle {index} (line {line}): conflicting givens: {k}");
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
            status = status.worst(Status::NotUnique);
        }
        if let Err(e) = writeln!(out, "{text}") {
            return write_failed(&name, &e, status);
        }
    }
    bar.finish_and_clear();
    let _ = out.flush();
    if index == 0 && status == Status::Ok {
        eprintln!("{name}: no puzzle found");
        return Status::BadInput;
    }
    status
}
