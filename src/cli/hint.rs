//! `dekadoku hint`: the next logical step for each position (a puzzle with
//! some cells filled), with its explanation.

use std::io::{self, BufWriter, Write};

use clap::Args;
use indicatif::ProgressBar;

use crate::engine::logic::{Board, next_step};

use super::{Input, Status, puzzle_or_report, write_failed};

/// Arguments of `hint`.
#[derive(Debug, Args)]
pub struct HintArgs {
    #[command(flatten)]
    input: Input,
}

/// Runs `hint`: one line per position — the technique and why, or why not.
pub fn run(args: &HintArgs) -> Status {
    let mut reader = match args.input.open_or_report() {
        Ok(r) => r,
        Err(status) => return status,
    };
    let name = args.input.name();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut status = Status::Ok;
    let mut index = 0usize;
    // No progress bar: one position is the usual input.
    let quiet = ProgressBar::hidden();
    while let Some(item) = reader.next() {
        let Some(puzzle) = puzzle_or_report(item, &quiet, &mut status) else {
            continue;
        };
        index += 1;
        let text = match Board::from_puzzle(&puzzle).and_then(|b| b.check().map(|()| b)) {
            Ok(b) if b.is_solved() => "solved: nothing to do".to_string(),
            Ok(b) => match next_step(&b) {
                Some(step) => step.explanation,
                None => "no step: this position needs a technique dekadoku does not know yet"
                    .to_string(),
            },
            Err(e) => {
                let line = reader.last_line();
                eprintln!("{name}: puzzle {index} (line {line}): {e}");
                status = status.worst(Status::NotUnique);
                format!("- {e}")
            }
        };
        if let Err(e) = writeln!(out, "{text}") {
            return write_failed(&name, &e, status);
        }
    }
    status
}
