//! `dekadoku grade`: one line per puzzle — level, score, SE-style rating
//! and the hardest technique — and a count per level at the end.

use std::collections::BTreeMap;
use std::io::{self, BufWriter, Write};

use clap::Args;

use crate::engine::grade::{Grade, GradeError, grade_within, step_rating};
use crate::engine::level::Level;
use crate::engine::logic::{BoardError, MAX_LOGIC_SIDE};
use crate::engine::{Limits, NoTrace, Outcome, Puzzle, solve};

use super::{CliError, Input, Status, Tally, Timeout, progress};

/// Grade every puzzle: level, score, SE-style rating, hardest technique.
#[derive(Debug, Args)]
#[command(mut_arg("timeout", |a| a.help(
    "Give up on a puzzle after this many seconds (its line says it was stopped)"
)))]
pub struct GradeArgs {
    #[command(flatten)]
    input: Input,
    /// Also print the explained solution path, one step per line.
    #[arg(long)]
    steps: bool,
    #[command(flatten)]
    timeout: Timeout,
}

/// Grades one puzzle within `limits`: a board the technique solver does
/// not take (above [`MAX_LOGIC_SIDE`]) is refused before any search.
fn grade_one(puzzle: &Puzzle, limits: &Limits) -> Result<Grade, GradeError> {
    let n = puzzle.shape().n();
    if n > MAX_LOGIC_SIDE {
        return Err(BoardError::TooLarge(n).into());
    }
    match solve(puzzle, limits, &mut NoTrace) {
        Outcome::Solved(solution) => grade_within(puzzle, &solution, limits),
        Outcome::Stopped(stop) => Err(GradeError::Stopped(stop)),
        _ => Err(GradeError::NotUnique),
    }
}

/// Runs `grade`.
pub fn run(args: &GradeArgs) -> Result<Status, CliError> {
    let mut reader = args.input.open()?;
    let name = args.input.name();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut tally = Tally::new(name.as_str());
    let mut levels: BTreeMap<Level, usize> = BTreeMap::new();
    let bar = progress("grading");
    while let Some(item) = reader.next() {
        let Some(puzzle) = tally.puzzle(item, &bar) else {
            continue;
        };
        bar.inc(1);
        let text = match grade_one(&puzzle, &args.timeout.limits()) {
            Ok(g) => {
                *levels.entry(g.level).or_default() += 1;
                let hardest = match (g.guesses, g.hardest) {
                    (0, Some(t)) => t.name().to_string(),
                    (0, None) => "nothing to do".to_string(),
                    (k, _) => format!("guess ×{k} (beyond the implemented techniques)"),
                };
                let mut line = format!("{} {} {:.1} {hardest}", g.level, g.score, g.rating);
                // The rating comes from the Explainer-order walk; say which
                // step set it when that is not the path's hardest.
                if let Some(t) = g
                    .rated_by
                    .filter(|&t| g.guesses == 0 && Some(t) != g.hardest)
                {
                    line.push_str(&format!(" (rated by {})", t.name()));
                }
                if args.steps {
                    for (i, s) in g.path.iter().enumerate() {
                        line.push_str(&format!(
                            "\n  {:>3}. [{:.1}] {}",
                            i + 1,
                            step_rating(s),
                            s.explanation
                        ));
                    }
                }
                line
            }
            Err(e) => {
                let at = tally.at(reader.last_line());
                match e {
                    GradeError::NotUnique | GradeError::Stopped(_) => {
                        bar.suspend(|| note!("{at}: {e}"));
                        tally.unsolved();
                    }
                    GradeError::Board(_) => tally.error(&bar, format_args!("{at}: {e}")),
                }
                format!("- - - {e}")
            }
        };
        if let Err(e) = writeln!(out, "{text}") {
            return tally.write_failed(e);
        }
    }
    bar.finish_and_clear();
    // The summary only after the last line is out: a run whose output
    // could not be written ends with that alone.
    if let Err(e) = out.flush() {
        return tally.write_failed(e);
    }
    let summary: Vec<String> = levels.iter().map(|(l, k)| format!("{l} {k}")).collect();
    note!("{name}: {} puzzles: {}", tally.puzzles, summary.join(", "));
    tally.finish()
}
