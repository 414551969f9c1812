//! dekadoku: a Sudoku engine for every size from 4×4 to 400×400, square and
//! rectangular boxes, with a terminal game and a batch command line on top.
//!
//! The engine ([`engine`]) reads puzzles in any of its text formats, solves
//! and counts them, solves them step by step with human techniques, grades
//! and generates them. Puzzles parse from text with [`str::parse`]:
//!
//! ```
//! use dekadoku::engine::{Limits, NoTrace, Outcome, Puzzle, solve};
//!
//! let puzzle: Puzzle =
//!     "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
//!         .parse()
//!         .expect("a puzzle line");
//! let outcome = solve(&puzzle, &Limits::none(), &mut NoTrace);
//! assert_eq!(outcome.to_string(), "solved");
//! if let Outcome::Solved(grid) = outcome {
//!     assert!(puzzle.is_solved_by(&grid));
//! }
//!
//! // Errors say where and what: line 1, column 3.
//! let err = "4.x...8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
//!     .parse::<Puzzle>()
//!     .unwrap_err();
//! assert_eq!(err.to_string(), "text:1:3: expected 1-9, '.' or '0', found 'x'");
//! assert_eq!((err.line, err.col), (1, Some(3)));
//! ```

// Messages for standard error go through `note!`: `eprintln!` panics when
// stderr is closed or full, and a batch run must end with its exit code.
#![cfg_attr(not(test), deny(clippy::print_stderr))]

/// `eprintln!` that cannot panic: one line for standard error, dropped
/// when stderr cannot take it (closed, a full disk); the exit code still
/// tells how the run ended. (The front ends' only: the engine prints
/// nothing.) The line is formatted first and written at once: standard
/// error is unbuffered, so formatting into it wrote each piece apart
/// (`FILE: 1 error reported above` was six system calls, and a line
/// could be split by another thread's or process's output).
#[cfg(any(feature = "cli", feature = "tui"))]
macro_rules! note {
    ($($arg:tt)*) => {{
        use ::std::io::Write as _;
        let mut line = ::std::fmt::format(format_args!($($arg)*));
        line.push('\n');
        let _ = ::std::io::stderr().lock().write_all(line.as_bytes());
    }};
}

pub mod engine;
pub mod game;
#[cfg(feature = "tui")]
pub mod tui;

#[cfg(feature = "store")]
pub mod store;

#[cfg(feature = "cli")]
pub mod cli;

#[cfg(feature = "serve")]
pub mod serve;

/// The tests' one rule for what lives outside the repository (`../shared`,
/// tmux, cadical): skip in a user's clone, fail under CI. The same file
/// serves the integration tests (`tests/common`).
#[cfg(test)]
#[path = "../tests/common/skip.rs"]
pub(crate) mod test_skip;
