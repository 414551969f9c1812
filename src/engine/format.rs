//! Text formats for puzzles: detection, streaming readers and writers.
