//! The engine: shapes, puzzles, formats and solvers. Pure logic: no I/O
//! beyond the readers it is handed, no terminal, no threads of its own.

pub(crate) mod bits;
pub mod count;
pub mod format;
pub mod generate;
pub mod grade;
pub mod grid;
pub mod level;
pub mod limits;
pub mod logic;
pub mod shape;
pub mod solve;
pub mod trace;

pub use count::{count_solutions, is_unique};
pub use grid::{Cell, Conflict, Grid, GridError, Puzzle, Value};
pub use level::{Level, LevelError};
pub use limits::{Limits, StopReason};
pub use shape::{Shape, ShapeError};
pub use solve::{Backend, BackendError, Count, Method, Outcome, Solver, sat, solve};
pub use trace::{NoTrace, Reason, TraceEvent, TraceSink};
