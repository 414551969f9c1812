//! The `dekadoku` command: parses the command line, runs it, and turns the
//! outcome into the exit code — 0 all well, 1 some puzzle without exactly
//! one solution (or stopped), 2 an error, which is printed here, once.
//! (A usage error is 2 as well; `--help` and `--version` are 0 once their
//! text is written.) Nothing here panics on a standard error that cannot
//! be written: the exit code still tells.
#![deny(clippy::print_stderr)]

use std::io::{self, Write};
use std::process::ExitCode;

use dekadoku::cli::{self, CliError};

/// mimalloc rather than the system's allocator: the engine's searches
/// allocate small lists by the hundred thousand (Cargo.toml says what it
/// gains).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = match cli::parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    match cli::run(cli) {
        Ok(status) => status.into(),
        Err(e) => {
            // Formatted first, written at once (standard error is
            // unbuffered: `{e}` written into it went out piece by piece).
            let _ = io::stderr().lock().write_all(format!("{e}\n").as_bytes());
            ExitCode::from(CliError::EXIT_CODE)
        }
    }
}
