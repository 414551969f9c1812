//! `dekadoku convert`: rewrite puzzles in another format.

use std::io::{self, BufWriter, Write};

use clap::Args;

use crate::engine::format::{self, Format};

use super::{Input, Status};

/// Arguments of `convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    #[command(flatten)]
    input: Input,
    /// The format to write.
    #[arg(long, value_name = "FORMAT")]
    to: Format,
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
    for item in reader.by_ref() {
        match item {
            Ok(p) => {
                count += 1;
                // Block formats need a blank line between puzzles.
                if count > 1 && args.to != Format::Line && writeln!(out).is_err() {
                    return status;
                }
                if let Err(e) = format::write(&p, args.to, &mut out) {
                    if e.kind() != io::ErrorKind::BrokenPipe {
                        eprintln!("{name}: cannot write: {e}");
                    }
                    return status;
                }
            }
            Err(e) => {
                eprintln!("{e}");
                status = Status::BadInput;
            }
        }
    }
    let _ = out.flush();
    if count == 0 && status == Status::Ok {
        eprintln!("{name}: no puzzle found");
        return Status::BadInput;
    }
    status
}
