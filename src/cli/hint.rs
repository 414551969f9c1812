//! `dekadoku hint`: the next logical step for each position (a puzzle with
//! some cells filled), with its explanation.

use std::io::{self, BufWriter, Write};

use clap::Args;

use crate::engine::logic::{Board, next_step};

use super::{Input, Status};

/// Arguments of `hint`.
#[derive(Debug, Args)]
pub struct HintArgs {
    #[command(flatten)]
    input: Input,
}

/// Runs `hint`: one line per position — the technique and why, or why not.
pub fn run(args: &HintArgs) -> Status {
    let mut reader = match args.input.open() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return Status::BadInput;
        }
    };
    let name = args.input.name();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut status = Status::Ok;
    let mut index = 0usize;
    while let Some(item) = reader.next() {
        let puzzle = match item {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                status = status.worst(Status::BadInput);
                continue;
            }
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
            if e.kind() == io::ErrorKind::BrokenPipe {
                return status;
            }
            eprintln!("{name}: cannot write: {e}");
            return Status::BadInput;
        }
    }
    status
}
