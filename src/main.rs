//! The `dekadoku` command: parses the command line, runs it, and turns the
//! outcome into the exit code — 0 all well, 1 some puzzle without exactly
//! one solution (or stopped), 2 an error, which is printed here, once.
//! (clap exits with 2 itself on a usage error.)

use std::process::ExitCode;

use clap::Parser;
use dekadoku::cli::{self, Cli, CliError};

fn main() -> ExitCode {
    match cli::run(Cli::parse()) {
        Ok(status) => status.into(),
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(CliError::EXIT_CODE)
        }
    }
}
