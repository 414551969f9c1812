//! `dekadoku convert`: rewrite puzzles in another format, or as CNF for a
//! SAT solver (`--to dimacs`).

use std::io::{self, BufWriter, Write};
use std::str::FromStr;

use clap::{Args, ValueEnum};

use crate::engine::format::{self, Format};
use crate::engine::sat::{Cnf, Encoding, dimacs};

use super::{Input, Status};

/// What `convert` writes: a puzzle format, or each puzzle's CNF.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A puzzle text format.
    Puzzle(Format),
    /// DIMACS CNF (`p cnf V C`), one formula per puzzle.
    Dimacs,
}

impl FromStr for Target {
    type Err = String;
    fn from_str(s: &str) -> Result<Target, String> {
        if s.trim().eq_ignore_ascii_case("dimacs") || s.trim().eq_ignore_ascii_case("cnf") {
            return Ok(Target::Dimacs);
        }
        Format::from_str(s).map(Target::Puzzle).map_err(|_| {
            let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
            format!(
                "unknown output `{s}`; expected one of: {}, dimacs",
                names.join(", ")
            )
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

/// Arguments of `convert`.
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
pub fn run(args: &ConvertArgs) -> Status {
    let mut reader = match args.input.open_or_report() {
        Ok(r) => r,
        Err(status) => return status,
    };
    let name = args.input.name();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut status = Status::Ok;
    let mut count = 0usize;
    while let Some(item) = reader.next() {
        let p = match item {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                status = Status::BadInput;
                continue;
            }
        };
        count += 1;
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
                    eprintln!("{name}: puzzle {count} (line {}): {e}", reader.last_line());
                    status = Status::BadInput;
                    Ok(())
                }
            },
        };
        if let Err(e) = written {
            if e.kind() != io::ErrorKind::BrokenPipe {
                eprintln!("{name}: cannot write: {e}");
            }
            return status;
        }
    }
    let _ = out.flush();
    if count == 0 && status == Status::Ok {
        eprintln!("{name}: no puzzle found");
        return Status::BadInput;
    }
    status
}
