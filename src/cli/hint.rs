//! `dekadoku hint`: the next logical step for each position (a puzzle with
//! some cells filled), with its explanation: the engine's own text, which
//! starts with the technique's name and ends with its effect (` => r4c5=7`,
//! ` => r9c2<>9, r9c3<>9`; see `engine::logic::Effect`).

use std::io::{self, BufWriter, Write};

use clap::Args;
use indicatif::ProgressBar;

use crate::engine::logic::{Board, BoardError, next_step};

use super::{CliError, Input, Status, Tally, Timeout};

/// The next logical step for each position, explained.
#[derive(Debug, Args)]
#[command(mut_arg("timeout", |a| a.help(
    "Give up on a position after this many seconds (its line says it was stopped)"
)))]
pub struct HintArgs {
    #[command(flatten)]
    input: Input,
    #[command(flatten)]
    timeout: Timeout,
}

/// Runs `hint`: one line per position — the technique and why, or why not.
pub fn run(args: &HintArgs) -> Result<Status, CliError> {
    let mut reader = args.input.open()?;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut tally = Tally::new(args.input.name());
    // No progress bar: one position is the usual input.
    let quiet = ProgressBar::hidden();
    while let Some(item) = reader.next() {
        let Some(puzzle) = tally.puzzle(item, &quiet) else {
            continue;
        };
        // A board above the technique solver's sides is refused here,
        // before any search.
        let text = match Board::from_puzzle(&puzzle).and_then(|b| b.check().map(|()| b)) {
            Ok(b) if b.is_solved() => "solved: nothing to do".to_string(),
            Ok(mut b) => {
                b.set_limits(&args.timeout.limits());
                match next_step(&b) {
                    Some(step) => step.explanation,
                    None if b.stopped() => {
                        let at = tally.at(reader.last_line());
                        note!("{at}: stopped: the timeout passed");
                        tally.unsolved();
                        "- stopped: the timeout passed".to_string()
                    }
                    None => "no step: this position needs a technique dekadoku does not know yet"
                        .to_string(),
                }
            }
            Err(e @ BoardError::TooLarge(_)) => {
                let at = tally.at(reader.last_line());
                tally.error(&quiet, format_args!("{at}: {e}"));
                format!("- {e}")
            }
            Err(e) => {
                note!("{}: {e}", tally.at(reader.last_line()));
                tally.unsolved();
                format!("- {e}")
            }
        };
        if let Err(e) = writeln!(out, "{text}") {
            return tally.write_failed(e);
        }
    }
    tally.flush_and_finish(&mut out)
}
