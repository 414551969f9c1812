//! dekadoku: a Sudoku engine for every size from 4×4 to 400×400, square and
//! rectangular boxes, with a terminal game and a batch command line on top.
//!
//! ```
//! use dekadoku::engine::{solve, Limits, NoTrace, Outcome, Puzzle, Shape};
//!
//! let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
//! let nums: Vec<usize> = line.bytes().map(|b| if b == b'.' { 0 } else { (b - b'0') as usize }).collect();
//! let puzzle = Puzzle::from_numbers(Shape::CLASSIC, &nums).unwrap();
//! match solve(&puzzle, &Limits::none(), &mut NoTrace) {
//!     Outcome::Solved(grid) => assert!(puzzle.is_solved_by(&grid)),
//!     other => panic!("unexpected {other:?}"),
//! }
//! ```

pub mod engine;
pub mod game;
#[cfg(feature = "tui")]
pub mod tui;

#[cfg(feature = "store")]
pub mod store;

#[cfg(feature = "cli")]
pub mod cli;
