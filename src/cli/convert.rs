//! `dekadoku convert`: rewrite puzzles in another format, or as CNF for a
//! SAT solver (`--to dimacs`).

use std::io::{self, BufWriter, Write};
use std::str::FromStr;

use clap::{Args, ValueEnum};
use indicatif::ProgressBar;

use crate::engine::format::{self, Format};
use crate::engine::sat::{Cnf, Encoding, dimacs};

use super::{CliError, Input, Status, Tally};

/// What `convert` writes: a puzzle format, or each puzzle's CNF.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A puzzle text format.
    Puzzle(Format),
    /// DIMACS CNF (`p cnf V C`), one formula per puzzle.
    Dimacs,
}

/// Text that names no output of `convert`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown output `{text}`; expected one of: {}, dimacs", format_names())]
pub struct UnknownTarget {
    /// The text as given.
    pub text: String,
}

/// The puzzle formats' names, for messages.
fn format_names() -> String {
    let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
    names.join(", ")
}

impl FromStr for Target {
    type Err = UnknownTarget;
    fn from_str(s: &str) -> Result<Target, UnknownTarget> {
        if s.trim().eq_ignore_ascii_case("dimacs") || s.trim().eq_ignore_ascii_case("cnf") {
            return Ok(Target::Dimacs);
        }
        Format::from_str(s)
            .map(Target::Puzzle)
            .map_err(|_| UnknownTarget {
                text: s.to_string(),
            })
    }
}

/// Which CNF encoding `--to dimacs` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EncodingKind {
    /// Singles placed first; variables only for the candidates left.
    Compact,
    /// A variable for every (cell, digit); the givens as unit clauses.
    Full,
}

/// Rewrite puzzles in another format.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    #[command(flatten)]
    input: Input,
    /// What to write: `seeds`, `line`, `grid`, `numbers`, or `dimacs` (the
    /// CNF of each puzzle, for a SAT solver; several puzzles give several
    /// formulas one after another, each after a `c puzzle N` line).
    #[arg(long, value_name = "FORMAT")]
    to: Target,
    /// The CNF encoding for `--to dimacs`.
    #[arg(long, value_enum, default_value = "compact", value_name = "ENCODING")]
    encoding: EncodingKind,
    /// Whether `--to dimacs` adds the redundant clauses (at most one digit
    /// per cell, every digit at least once per unit); `--redundant=false`
    /// writes the minimal encoding.
    #[arg(
        long,
        value_name = "BOOL",
        default_value_t = true,
        num_args = 0..=1,
        default_missing_value = "true",
        action = clap::ArgAction::Set
    )]
    redundant: bool,
}

impl ConvertArgs {
    fn encoding(&self) -> Encoding {
        let e = match self.encoding {
            EncodingKind::Compact => Encoding::compact(),
            EncodingKind::Full => Encoding::full(),
        };
        e.with_redundant(self.redundant)
    }
}

/// Runs `convert`.
pub fn run(args: &ConvertArgs) -> Result<Status, CliError> {
    let mut reader = args.input.open()?;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut tally = Tally::new(args.input.name());
    // No progress bar: converting is as fast as reading.
    let quiet = ProgressBar::hidden();
    while let Some(item) = reader.next() {
        let Some(p) = tally.puzzle(item, &quiet) else {
            continue;
        };
        let count = tally.puzzles;
        let written = match args.to {
            Target::Puzzle(f) => {
                // Block formats need a blank line between puzzles.
                let gap = if count > 1 && f != Format::Line {
                    writeln!(out)
                } else {
                    Ok(())
                };
                gap.and_then(|()| format::write(&p, f, &mut out))
            }
            Target::Dimacs => match Cnf::encode(&p, args.encoding()) {
                Ok(cnf) => writeln!(out, "c puzzle {count} (line {})", reader.last_line())
                    .and_then(|()| dimacs::write(&cnf, &[], &mut out)),
                Err(e) => {
                    let at = tally.at(reader.last_line());
                    tally.error(&quiet, format_args!("{at}: {e}"));
                    Ok(())
                }
            },
        };
        if let Err(e) = written {
            return tally.write_failed(e);
        }
    }
    tally.flush_and_finish(&mut out)
}
