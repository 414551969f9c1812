//! `dekadoku generate`: new puzzles with exactly one solution, from a seed.

use std::io::{self, BufWriter, Write};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use clap::Args;
use rayon::prelude::*;

use crate::engine::format::{self, Format, MAX_CHAR_SIDE};
use crate::engine::generate::daily::{Date, daily_options};
use crate::engine::generate::graded::rating_tenths;
use crate::engine::generate::random::splitmix64;
use crate::engine::generate::{
    GenerateOptions, Symmetry, generate_graded, levels_for, nearest_level,
};
use crate::engine::{Level, Shape, ShapeError};

use super::{CliError, Status, Tally, Timeout, progress_of};

/// Make new puzzles with exactly one solution, from a seed.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Side of the grid: 4, 6, 9, 12, 16, 25, … (default 9, or the box's).
    #[arg(long, value_name = "N")]
    size: Option<usize>,
    /// Box shape, rows x columns (`2x3`, `3x4`, `4x5`); default the most
    /// nearly square box for the side, with no more rows than columns.
    #[arg(long = "box", value_name = "RxC", value_parser = parse_box)]
    box_shape: Option<(usize, usize)>,
    /// Difficulty, as the grader measures it (the hardest technique a
    /// puzzle needs): easy, medium, hard, expert or extreme. Puzzles are
    /// dug, graded and kept when they match; when none does within the
    /// tries, the closest is printed with a warning (and the exit code is 1
    /// when it was the timeout that ran out; the closest is still graded,
    /// which may take up to 10 s past the timeout). Above 64×64 the level is a
    /// clue-count target. Small grids have fewer levels (4×4: easy; 6×6:
    /// easy to hard): asking for another is an error. Default: medium, or
    /// the nearest level the size has.
    #[arg(long, value_name = "LEVEL")]
    level: Option<Level>,
    /// Clue symmetry: none, rotate180, rotate90, mirror-horizontal,
    /// mirror-vertical or diagonal.
    #[arg(long, default_value = "none", value_name = "SYMMETRY")]
    symmetry: Symmetry,
    /// How many puzzles; puzzle i (from 0) uses seed SEED + i.
    #[arg(long, default_value_t = 1, value_name = "N")]
    count: u64,
    /// The first seed (default: from the clock, printed on stderr). The same
    /// options and seed give the same puzzles on every machine.
    #[arg(long, value_name = "SEED")]
    seed: Option<u64>,
    /// Output format (default: line up to 35×35, else numbers; seeds for
    /// boxes other than the side's usual shape).
    #[arg(long, value_name = "FORMAT")]
    format: Option<Format>,
    /// Clue-count range instead of the level's: `MIN-MAX` or one number.
    #[arg(long, value_name = "MIN-MAX", value_parser = parse_clues)]
    clues: Option<(usize, usize)>,
    /// SE-style rating range the hardest step must also fall in, with
    /// --level: `MIN-MAX` such as `7.0-7.9` (or one rating).
    #[arg(long, value_name = "MIN-MAX", value_parser = parse_rating)]
    rating: Option<(u16, u16)>,
    #[command(flatten)]
    timeout: Timeout,
    /// Dig until no clue (no symmetric group of clues) can go: minimal
    /// puzzles, at any level.
    #[arg(long)]
    minimal: bool,
    /// The daily puzzle of DATE (`YYYY-MM-DD`, UTC; today without a
    /// date): the same 9×9 for everyone, easy on Monday up to extreme on
    /// Sunday.
    #[arg(
        long,
        value_name = "DATE",
        num_args = 0..=1,
        default_missing_value = "today",
        conflicts_with_all = ["size", "box_shape", "level", "symmetry", "count", "seed", "clues", "minimal", "rating"]
    )]
    daily: Option<String>,
    /// Puzzles made at once (default: one per core). The output is the
    /// same for every job count: puzzle i always comes from seed SEED + i.
    #[arg(long, value_name = "J")]
    jobs: Option<usize>,
}

/// Why a `--box`, `--rating` or `--clues` value cannot be read (clap
/// prints it after the option's name); each quotes the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArgError {
    /// Not `RxC`.
    #[error("expected a box shape like 3x3 or 2x3 (rows x columns), found `{0}`")]
    Box(String),
    /// Not a rating nor two joined by `-`.
    #[error("expected a rating range like 7.0-7.9 (or one rating), found `{0}`")]
    Rating(String),
    /// A rating off the scale.
    #[error("ratings run from 1.0 to 12.0, found `{0}`")]
    RatingScale(String),
    /// A rating range whose minimum is above its maximum.
    #[error("the rating range {0} is empty: the minimum is above the maximum")]
    EmptyRating(String),
    /// Not a count nor two joined by `-`.
    #[error("expected a clue range like 30-35 (or one number), found `{0}`")]
    Clues(String),
    /// A clue range whose minimum is above its maximum.
    #[error("the clue range {0} is empty: the minimum is above the maximum")]
    EmptyClues(String),
}

/// `RxC` (or `R×C`, `R*C`) with both numbers positive.
fn parse_box(s: &str) -> Result<(usize, usize), ArgError> {
    let bad = || ArgError::Box(s.to_string());
    let (r, c) = s.trim().split_once(['x', 'X', '×', '*']).ok_or_else(bad)?;
    let r = r.trim().parse().map_err(|_| bad())?;
    let c = c.trim().parse().map_err(|_| bad())?;
    Ok((r, c))
}

/// `MIN-MAX` or a single rating (1.0 to 12.0), in tenths.
fn parse_rating(s: &str) -> Result<(u16, u16), ArgError> {
    let (a, b) = s.trim().split_once('-').unwrap_or((s, s));
    let tenths = |t: &str| -> Result<u16, ArgError> {
        let r: f32 = t
            .trim()
            .parse()
            .map_err(|_| ArgError::Rating(s.to_string()))?;
        if !(1.0..=12.0).contains(&r) {
            return Err(ArgError::RatingScale(t.trim().to_string()));
        }
        Ok(rating_tenths(r))
    };
    let (a, b) = (tenths(a)?, tenths(b)?);
    if a > b {
        return Err(ArgError::EmptyRating(s.to_string()));
    }
    Ok((a, b))
}

/// A rating range in tenths as the command line writes it: `7.0-7.9`.
fn rating_text((lo, hi): (u16, u16)) -> String {
    format!("{:.1}-{:.1}", f32::from(lo) / 10.0, f32::from(hi) / 10.0)
}

/// `MIN-MAX` or a single count.
fn parse_clues(s: &str) -> Result<(usize, usize), ArgError> {
    let bad = || ArgError::Clues(s.to_string());
    let (a, b) = match s.trim().split_once('-') {
        Some((a, b)) => (a, b),
        None => (s, s),
    };
    let a: usize = a.trim().parse().map_err(|_| bad())?;
    let b: usize = b.trim().parse().map_err(|_| bad())?;
    if a > b {
        return Err(ArgError::EmptyClues(s.to_string()));
    }
    Ok((a, b))
}

/// Options of `generate` that cannot be met (printed after
/// `dekadoku generate: `).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// A `--size` the engine has no shape for.
    #[error("--size {n}: {source}")]
    Size {
        /// The side asked for.
        n: usize,
        /// Why there is no shape.
        source: ShapeError,
    },
    /// A `--box` the engine has no shape for.
    #[error("--box {rows}x{cols}: {source}")]
    Box {
        /// Rows in a box.
        rows: usize,
        /// Columns in a box.
        cols: usize,
        /// Why there is no shape.
        source: ShapeError,
    },
    /// `--size` and `--box` that disagree.
    #[error(
        "--size {n} does not match --box {rows}x{cols}, which makes a {side}×{side} grid",
        side = rows * cols
    )]
    SizeAndBox {
        /// The side asked for.
        n: usize,
        /// Rows in a box.
        rows: usize,
        /// Columns in a box.
        cols: usize,
    },
    /// `--format line` for a grid too large for one character a cell.
    #[error(
        "--format line holds grids up to {MAX_CHAR_SIDE}×{MAX_CHAR_SIDE}, not {n}×{n}: \
         use numbers, grid or seeds"
    )]
    LineTooNarrow {
        /// The side.
        n: usize,
    },
    /// A format that cannot say the boxes are not the side's usual ones.
    #[error(
        "--format {format} cannot state boxes of {}×{} (readers would take {usual}): use seeds or grid",
        shape.box_rows(),
        shape.box_cols(),
        usual = shape_or_why(usual)
    )]
    LosesBoxes {
        /// The format asked for.
        format: Format,
        /// The shape to write.
        shape: Shape,
        /// What a reader of that format takes the side for.
        usual: Result<Shape, ShapeError>,
    },
    /// More clues than cells.
    #[error("--clues up to {hi}, but a {n}×{n} grid has {cells} cells")]
    TooManyClues {
        /// The most clues asked for.
        hi: usize,
        /// The side.
        n: usize,
        /// The cells of the grid.
        cells: usize,
    },
    /// A level the generator cannot make on this grid.
    #[error(
        "--level {level}: {shape} puzzles come only as {}",
        offered.iter().map(|l| l.name()).collect::<Vec<_>>().join(", ")
    )]
    NoSuchLevel {
        /// The level asked for.
        level: Level,
        /// The grid.
        shape: Shape,
        /// The levels it has.
        offered: &'static [Level],
    },
    /// A `--daily` that is not a date.
    #[error("--daily {0}: expected a date like 2026-11-22")]
    Date(String),
    /// The worker threads could not start.
    #[error("cannot start {jobs} threads: {source}")]
    Threads {
        /// How many were asked for.
        jobs: usize,
        /// What rayon said.
        source: rayon::ThreadPoolBuildError,
    },
}

/// A shape, or why there is none, for a message.
fn shape_or_why(shape: &Result<Shape, ShapeError>) -> String {
    match shape {
        Ok(s) => s.to_string(),
        Err(e) => e.to_string(),
    }
}

/// The shape from `--size` and `--box`.
fn shape_of(args: &GenerateArgs) -> Result<Shape, GenerateError> {
    match (args.size, args.box_shape) {
        (None, None) => Ok(Shape::CLASSIC),
        (Some(n), None) => Shape::for_side(n).map_err(|source| GenerateError::Size { n, source }),
        (size, Some((rows, cols))) => {
            let shape = Shape::new(rows, cols).map_err(|source| GenerateError::Box {
                rows,
                cols,
                source,
            })?;
            match size {
                Some(n) if n != shape.n() => Err(GenerateError::SizeAndBox { n, rows, cols }),
                _ => Ok(shape),
            }
        }
    }
}

/// The output format, or why the asked one cannot hold the puzzles.
fn format_for(args: &GenerateArgs, shape: Shape) -> Result<Format, GenerateError> {
    let n = shape.n();
    let usual = Shape::for_side(n);
    let Some(f) = args.format else {
        return Ok(if usual.as_ref().ok() != Some(&shape) {
            Format::Seeds
        } else if n <= MAX_CHAR_SIDE {
            Format::Line
        } else {
            Format::Numbers
        });
    };
    if f == Format::Line && n > MAX_CHAR_SIDE {
        return Err(GenerateError::LineTooNarrow { n });
    }
    if !f.round_trips(shape) {
        return Err(GenerateError::LosesBoxes {
            format: f,
            shape,
            usual,
        });
    }
    Ok(f)
}

/// A seed from the clock (nanoseconds since 1970, mixed).
fn clock_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    // Nearby instants give unrelated seeds.
    splitmix64(nanos)
}

/// The threads to make `count` puzzles with: `--jobs`, or one per core,
/// but never more than there are puzzles (and at least one).
fn job_count(jobs: Option<usize>, count: u64) -> usize {
    jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .min(usize::try_from(count).unwrap_or(usize::MAX))
        .max(1)
}

/// Runs `generate`.
pub fn run(args: &GenerateArgs) -> Result<Status, CliError> {
    let shape = shape_of(args)?;
    let out_format = format_for(args, shape)?;
    if let Some((_, hi)) = args.clues
        && hi > shape.cells()
    {
        return Err(GenerateError::TooManyClues {
            hi,
            n: shape.n(),
            cells: shape.cells(),
        }
        .into());
    }
    // With --clues or --minimal the clue count decides, not the level.
    let level = match args.level {
        Some(level)
            if args.clues.is_none()
                && !args.minimal
                && args.daily.is_none()
                && !levels_for(shape).contains(&level) =>
        {
            return Err(GenerateError::NoSuchLevel {
                level,
                shape,
                offered: levels_for(shape),
            }
            .into());
        }
        Some(level) => level,
        None => nearest_level(shape, Level::Medium),
    };
    let daily = match args.daily.as_deref() {
        None => None,
        Some("today") => Some(Date::today()),
        Some(text) => match Date::parse(text) {
            Some(d) => Some(d),
            None => return Err(GenerateError::Date(text.to_string()).into()),
        },
    };
    let first_seed = match (args.seed, daily) {
        (_, Some(d)) => daily_options(d).seed,
        (Some(s), None) => s,
        (None, None) => {
            let s = clock_seed();
            note!("seed: {s}");
            s
        }
    };
    let mut opts = GenerateOptions::new(shape, level, first_seed);
    opts.symmetry = args.symmetry;
    opts.clues = args.clues;
    opts.minimal = args.minimal;
    opts.rating = args.rating;
    let mut clue_note = String::new();
    if let Some(d) = daily {
        opts = daily_options(d);
        clue_note.push_str(&format!(", daily puzzle of {d}"));
    }
    if let Some((lo, hi)) = args.clues {
        clue_note.push_str(&format!(", clues {lo}-{hi}"));
    }
    if args.minimal {
        clue_note.push_str(", minimal");
    }
    if let Some(range) = args.rating {
        clue_note.push_str(&format!(", rating {}", rating_text(range)));
    }

    let mut out = BufWriter::new(io::stdout().lock());
    let mut tally = Tally::new("dekadoku generate");
    let bar = progress_of("generating", args.count);
    let header = format!(
        "# dekadoku {} generate: {shape}, level {}, symmetry {}{clue_note}, \
         seeds {first_seed}+i, {}\n",
        env!("CARGO_PKG_VERSION"),
        opts.level,
        opts.symmetry,
        Date::today()
    );
    if let Err(e) = out.write_all(header.as_bytes()) {
        return tally.write_failed(e);
    }
    let jobs = job_count(args.jobs, args.count);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|source| GenerateError::Threads { jobs, source })?;
    // Batches of a few puzzles per thread, made in parallel and written in
    // seed order, so the output streams and never depends on the job count.
    let batch = jobs as u64 * 4;
    let made = |i: u64| {
        let opts = GenerateOptions {
            seed: first_seed.wrapping_add(i),
            ..opts.clone()
        };
        let limits = args.timeout.limits();
        let start = Instant::now();
        let result = generate_graded(&opts, &limits);
        // Whether the timeout passed (a puzzle then may be the closest
        // found by then).
        let timed_out = limits.check(0).is_some();
        bar.inc(1);
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        (i, opts.seed, result, ms, timed_out)
    };
    for first in (0..args.count).step_by(batch as usize) {
        let end = first.saturating_add(batch).min(args.count);
        let results: Vec<_> = pool.install(|| (first..end).into_par_iter().map(made).collect());
        for (i, seed, result, ms, timed_out) in results {
            let graded = match result {
                Ok(g) => g,
                Err(stop) => {
                    bar.suspend(|| note!("puzzle {i} (seed {}): {stop}", seed));
                    tally.unsolved();
                    continue;
                }
            };
            let g = &graded.generated;
            // Whether the puzzle is not what was asked (the closest found).
            let mut missed = false;
            if let Some((lo, hi)) = args.clues
                && !(lo..=hi).contains(&g.clues)
            {
                missed = true;
                bar.suspend(|| {
                    note!(
                        "puzzle {i} (seed {}): {} clues, outside {lo}-{hi} (the closest found)",
                        g.seed,
                        g.clues
                    )
                });
            }
            if let Some(grade) = &graded.grade
                && !graded.hit()
            {
                missed = true;
                let asked = match opts.rating {
                    Some(range) => format!("{} rated {}", opts.level, rating_text(range)),
                    None => opts.level.to_string(),
                };
                bar.suspend(|| {
                    note!(
                        "puzzle {i} (seed {}): graded {} (rating {:.1}), not {asked} (the closest found)",
                        seed, grade.level, grade.rating
                    )
                });
            }
            if graded.level().is_none() {
                missed = true;
                bar.suspend(|| {
                    note!("puzzle {i} (seed {seed}): not graded: the timeout passed while grading")
                });
            }
            // Settling for the closest when the timeout passed is a
            // puzzle stopped by the timeout: exit code 1. (The closest
            // after all the tries, without a timeout, is only warned of.)
            if missed && timed_out {
                tally.unsolved();
            }
            let grade_note = match &graded.grade {
                Some(grade) => {
                    // As `grade` prints it: the rating's step when it is
                    // not the path's hardest.
                    let rated_by = grade
                        .rated_by
                        .filter(|&t| grade.guesses == 0 && Some(t) != grade.hardest)
                        .map_or(String::new(), |t| format!("; rated by {}", t.name()));
                    format!(
                        ", {} (rating {:.1}, {}{rated_by})",
                        grade.level,
                        grade.rating,
                        if grade.guesses > 0 {
                            "needs a guess"
                        } else {
                            grade.hardest.map_or("nothing", |t| t.name())
                        }
                    )
                }
                None => String::new(),
            };
            let mut record = String::new();
            if i > 0 && out_format != Format::Line {
                record.push('\n');
            }
            record.push_str(&format!(
                "# seed {}, {} clues{grade_note}, {ms:.1} ms\n",
                g.seed, g.clues
            ));
            record.push_str(&format::to_string(&g.puzzle, out_format));
            if let Err(e) = out.write_all(record.as_bytes()) {
                return tally.write_failed(e);
            }
        }
    }
    bar.finish_and_clear();
    match out.flush() {
        Ok(()) => tally.end(),
        Err(e) => tally.write_failed(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_more_threads_than_puzzles() {
        assert_eq!(job_count(Some(1_000_000), 2), 2);
        assert_eq!(job_count(Some(4), 10), 4);
        assert_eq!(job_count(Some(0), 10), 1);
        assert_eq!(job_count(Some(8), 0), 1);
        assert_eq!(job_count(None, 1), 1);
        assert!(job_count(None, u64::MAX) >= 1);
    }

    #[test]
    fn box_and_clue_arguments() {
        assert_eq!(parse_box("2x3"), Ok((2, 3)));
        assert_eq!(parse_box(" 4X5 "), Ok((4, 5)));
        assert_eq!(parse_box("3×4"), Ok((3, 4)));
        assert_eq!(parse_box("3"), Err(ArgError::Box("3".into())));
        assert!(parse_box("3").unwrap_err().to_string().contains("`3`"));
        assert_eq!(parse_rating("7.0-7.9"), Ok((70, 79)));
        assert_eq!(parse_rating(" 3.4 "), Ok((34, 34)));
        assert_eq!(
            parse_rating("7.9-7.0"),
            Err(ArgError::EmptyRating("7.9-7.0".into()))
        );
        assert_eq!(
            parse_rating("0.5-2"),
            Err(ArgError::RatingScale("0.5".into()))
        );
        assert!(parse_rating("x").is_err());
        assert_eq!(parse_clues("30-35"), Ok((30, 35)));
        assert_eq!(parse_clues("28"), Ok((28, 28)));
        assert!(parse_clues("35-30").is_err());
        assert!(parse_clues("a-b").is_err());
    }
}
