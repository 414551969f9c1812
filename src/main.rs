//! The `dekadoku` command: parses the command line and dispatches.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    dekadoku::cli::run(dekadoku::cli::Cli::parse())
}
