//! `dekadoku generate`: new puzzles with exactly one solution, from a seed.

use std::io::{self, BufWriter, Write};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use clap::Args;
use rayon::prelude::*;

use crate::engine::format::{self, Format, MAX_CHAR_SIDE};
use crate::engine::generate::daily::{Date, daily_options};
use crate::engine::generate::graded::rating_tenths;
use crate::engine::generate::random::splitmix64;
use crate::engine::generate::{GenerateOptions, Symmetry, generate_graded};
use crate::engine::{Level, Limits, Shape};

use super::{Status, progress_of, seconds};

/// Arguments of `generate`.
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
    /// tries, the closest is printed with a warning. Above 64×64 the level
    /// is a clue-count target.
    #[arg(long, default_value = "medium", value_name = "LEVEL")]
    level: Level,
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
    /// Give up on a puzzle after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
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

/// `RxC` (or `R×C`, `R*C`) with both numbers positive.
fn parse_box(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected a box shape like 3x3 or 2x3 (rows x columns), found `{s}`");
    let (r, c) = s.trim().split_once(['x', 'X', '×', '*']).ok_or_else(bad)?;
    let r = r.trim().parse().map_err(|_| bad())?;
    let c = c.trim().parse().map_err(|_| bad())?;
    Ok((r, c))
}

/// `MIN-MAX` or a single rating (1.0 to 12.0), in tenths.
fn parse_rating(s: &str) -> Result<(u16, u16), String> {
    let bad = || format!("expected a rating range like 7.0-7.9 (or one rating), found `{s}`");
    let (a, b) = s.trim().split_once('-').unwrap_or((s, s));
    let tenths = |t: &str| -> Result<u16, String> {
        let r: f32 = t.trim().parse().map_err(|_| bad())?;
        if !(1.0..=12.0).contains(&r) {
            return Err(format!(
                "ratings run from 1.0 to 12.0, found `{}`",
                t.trim()
            ));
        }
        Ok(rating_tenths(r))
    };
    let (a, b) = (tenths(a)?, tenths(b)?);
    if a > b {
        return Err(format!(
            "the rating range {s} is empty: the minimum is above the maximum"
        ));
    }
    Ok((a, b))
}

/// A rating range in tenths as the command line writes it: `7.0-7.9`.
fn rating_text((lo, hi): (u16, u16)) -> String {
    format!("{:.1}-{:.1}", f32::from(lo) / 10.0, f32::from(hi) / 10.0)
}

/// `MIN-MAX` or a single count.
fn parse_clues(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected a clue range like 30-35 (or one number), found `{s}`");
    let (a, b) = match s.trim().split_once('-') {
        Some((a, b)) => (a, b),
        None => (s, s),
    };
    let a: usize = a.trim().parse().map_err(|_| bad())?;
    let b: usize = b.trim().parse().map_err(|_| bad())?;
    if a > b {
        return Err(format!(
            "the clue range {s} is empty: the minimum is above the maximum"
        ));
    }
    Ok((a, b))
}

/// The shape from `--size` and `--box`.
fn shape_of(args: &GenerateArgs) -> Result<Shape, String> {
    match (args.size, args.box_shape) {
        (None, None) => Ok(Shape::CLASSIC),
        (Some(n), None) => Shape::for_side(n).map_err(|e| format!("--size {n}: {e}")),
        (size, Some((r, c))) => {
            let shape = Shape::new(r, c).map_err(|e| format!("--box {r}x{c}: {e}"))?;
            match size {
                Some(n) if n != shape.n() => Err(format!(
                    "--size {n} does not match --box {r}x{c}, which makes a {m}×{m} grid",
                    m = shape.n()
                )),
                _ => Ok(shape),
            }
        }
    }
}

/// The output format, or why the asked one cannot hold the puzzles.
fn format_for(args: &GenerateArgs, shape: Shape) -> Result<Format, String> {
    let n = shape.n();
    let usual = Shape::for_side(n).is_ok_and(|s| s == shape);
    let Some(f) = args.format else {
        return Ok(if !usual {
            Format::Seeds
        } else if n <= MAX_CHAR_SIDE {
            Format::Line
        } else {
            Format::Numbers
        });
    };
    if f == Format::Line && n > MAX_CHAR_SIDE {
        return Err(format!(
            "--format line holds grids up to {MAX_CHAR_SIDE}×{MAX_CHAR_SIDE}, not {n}×{n}: \
             use numbers, grid or seeds"
        ));
    }
    if !f.round_trips(shape) {
        return Err(format!(
            "--format {f} cannot state boxes of {}×{} (readers would take {}): use seeds or grid",
            shape.box_rows(),
            shape.box_cols(),
            Shape::for_side(n).map_or_else(|e| e.to_string(), |s| s.to_string()),
        ));
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

/// Runs `generate`.
pub fn run(args: &GenerateArgs) -> Status {
    let shape = match shape_of(args) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("dekadoku generate: {e}");
            return Status::BadInput;
        }
    };
    let out_format = match format_for(args, shape) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("dekadoku generate: {e}");
            return Status::BadInput;
        }
    };
    if let Some((_, hi)) = args.clues
        && hi > shape.cells()
    {
        eprintln!(
            "dekadoku generate: --clues up to {hi}, but a {n}×{n} grid has {} cells",
            shape.cells(),
            n = shape.n()
        );
        return Status::BadInput;
    }
    let daily = match args.daily.as_deref() {
        None => None,
        Some("today") => Some(Date::today()),
        Some(text) => match Date::parse(text) {
            Some(d) => Some(d),
            None => {
                eprintln!("dekadoku generate: --daily {text}: expected a date like 2026-11-22");
                return Status::BadInput;
            }
        },
    };
    let first_seed = match (args.seed, daily) {
        (_, Some(d)) => daily_options(d).seed,
        (Some(s), None) => s,
        (None, None) => {
            let s = clock_seed();
            eprintln!("seed: {s}");
            s
        }
    };
    let mut opts = GenerateOptions::new(shape, args.level, first_seed);
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
    let mut status = Status::Ok;
    let bar = progress_of("generating", args.count);
    let header = format!(
        "# dekadoku {} generate: {shape}, level {}, symmetry {}{clue_note}, \
         seeds {first_seed}+i, {}\n",
        env!("CARGO_PKG_VERSION"),
        opts.level,
        opts.symmetry,
        Date::today()
    );
    if out.write_all(header.as_bytes()).is_err() {
        return status;
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(jobs).build() {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("dekadoku generate: cannot start {jobs} threads: {e}");
            return Status::BadInput;
        }
    };
    // Batches of a few puzzles per thread, made in parallel and written in
    // seed order, so the output streams and never depends on the job count.
    let batch = jobs as u64 * 4;
    let made = |i: u64| {
        let opts = GenerateOptions {
            seed: first_seed.wrapping_add(i),
            ..opts.clone()
        };
        let limits = match seconds(args.timeout) {
            Some(d) => Limits::timeout(d),
            None => Limits::none(),
        };
        let start = Instant::now();
        let result = generate_graded(&opts, &limits);
        bar.inc(1);
        (i, opts.seed, result, start.elapsed().as_secs_f64() * 1000.0)
    };
    for first in (0..args.count).step_by(batch as usize) {
        let end = first.saturating_add(batch).min(args.count);
        let results: Vec<_> = pool.install(|| (first..end).into_par_iter().map(made).collect());
        for (i, seed, result, ms) in results {
            let graded = match result {
                Ok(g) => g,
                Err(stop) => {
                    bar.suspend(|| eprintln!("puzzle {i} (seed {}): {stop}", seed));
                    status = status.worst(Status::NotUnique);
                    continue;
                }
            };
            let g = &graded.generated;
            if let Some((lo, hi)) = args.clues
                && !(lo..=hi).contains(&g.clues)
            {
                bar.suspend(|| {
                    eprintln!(
                        "puzzle {i} (seed {}): {} clues, outside {lo}-{hi} (the closest found)",
                        g.seed, g.clues
                    )
                });
            }
            if let Some(grade) = &graded.grade
                && !graded.hit()
            {
                let asked = match opts.rating {
                    Some(range) => format!("{} rated {}", opts.level, rating_text(range)),
                    None => opts.level.to_string(),
                };
                bar.suspend(|| {
                    eprintln!(
                        "puzzle {i} (seed {}): graded {} (rating {:.1}), not {asked} (the closest found)",
                        seed, grade.level, grade.rating
                    )
                });
            }
            if graded.level().is_none() {
                bar.suspend(|| {
                    eprintln!(
                        "puzzle {i} (seed {seed}): not graded: the timeout passed while grading"
                    )
                });
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
                if e.kind() != io::ErrorKind::BrokenPipe {
                    bar.suspend(|| eprintln!("dekadoku generate: cannot write: {e}"));
                    status = Status::BadInput;
                }
                return status;
            }
        }
    }
    bar.finish_and_clear();
    let _ = out.flush();
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_and_clue_arguments() {
        assert_eq!(parse_box("2x3"), Ok((2, 3)));
        assert_eq!(parse_box(" 4X5 "), Ok((4, 5)));
        assert_eq!(parse_box("3×4"), Ok((3, 4)));
        assert!(parse_box("3").unwrap_err().contains("`3`"));
        assert_eq!(parse_rating("7.0-7.9"), Ok((70, 79)));
        assert_eq!(parse_rating(" 3.4 "), Ok((34, 34)));
        assert!(parse_rating("7.9-7.0").is_err());
        assert!(parse_rating("0.5-2").is_err());
        assert!(parse_rating("x").is_err());
        assert_eq!(parse_clues("30-35"), Ok((30, 35)));
        assert_eq!(parse_clues("28"), Ok((28, 28)));
        assert!(parse_clues("35-30").is_err());
        assert!(parse_clues("a-b").is_err());
    }
}
