//! `dekadoku bench`: solver throughput on whole files, single thread, for
//! one or more of our exact backends (`--backend`, repeatable). On 9×9
//! files it also runs the `sudoku` crate (opt-in feature `peer-sudoku`) on the same
//! puzzles in the same run and prints the ratio to the first backend.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufReader, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::ProgressBar;

use crate::engine::format::{Format, PuzzleReader};
use crate::engine::{Backend, Puzzle, Shape};

use super::{CliError, Exact, Status, Tally, Timeout, progress};

/// Time the solver (and, on 9×9 files, the `sudoku` crate) on whole files.
#[derive(Debug, Args)]
#[command(mut_arg("timeout", |a| a.help(
    "Give up on a puzzle after this many seconds (counted as stopped)"
)))]
pub struct BenchArgs {
    /// Puzzle files (any format, detected).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Repeat each measurement until it has run this many seconds.
    #[arg(long, default_value_t = 1.0, value_name = "SECONDS")]
    min_time: f64,
    /// Use at most this many puzzles of each file.
    #[arg(long, value_name = "N")]
    max_puzzles: Option<usize>,
    /// The input format (detected when not given).
    #[arg(long, value_name = "FORMAT")]
    from: Option<Format>,
    #[command(flatten)]
    timeout: Timeout,
    /// Stop at the first solution instead of proving uniqueness.
    #[arg(long)]
    first: bool,
    /// The exact backend to time (repeat for several, each on every
    /// file, in the same run); the default is `auto`, which picks per
    /// puzzle (the methods that answered are listed after each row).
    #[arg(long = "backend", value_name = "BACKEND")]
    backends: Vec<Backend>,
    /// Also time an external SAT program on the same puzzles, run as
    /// `solve --sat-cmd` runs it (repeatable), e.g. `--sat-cmd cadical`.
    #[arg(long = "sat-cmd", value_name = "COMMAND")]
    sat_cmds: Vec<String>,
}

/// One timed solver over one file.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    /// Puzzles solved per pass.
    pub puzzles: usize,
    /// Average time per puzzle.
    pub per_puzzle: Duration,
    /// Puzzles found to have exactly one solution (with `--first`: solved).
    pub unique: usize,
    /// Puzzles stopped by the timeout (in the first pass).
    pub stopped: usize,
}

impl Timing {
    /// Puzzles per second.
    pub fn rate(&self) -> f64 {
        1.0 / self.per_puzzle.as_secs_f64().max(1e-12)
    }
}

/// Times `f` over all puzzles, repeating whole passes until `min_time` has passed.
fn time_passes(
    puzzles: usize,
    min_time: Duration,
    mut pass: impl FnMut() -> (usize, usize),
) -> Timing {
    let start = Instant::now();
    let mut passes = 1u32;
    let (unique, stopped) = pass();
    while start.elapsed() < min_time {
        pass();
        passes += 1;
    }
    let total = start.elapsed();
    Timing {
        puzzles,
        per_puzzle: total / (passes * puzzles.max(1) as u32).max(1),
        unique,
        stopped,
    }
}

/// Runs `bench`. A file that cannot be read, or a solver that fails on
/// one, is reported and the others are still timed.
pub fn run(args: &BenchArgs) -> Result<Status, CliError> {
    // Every search timed, with its label; a bad `--sat-cmd` stops the run
    // before any file is read.
    let mut contenders: Vec<(String, Exact)> = Vec::new();
    let backends = if args.backends.is_empty() && args.sat_cmds.is_empty() {
        vec![Backend::Auto]
    } else {
        args.backends.clone()
    };
    let search = |source| CliError::Search {
        command: "bench",
        source,
    };
    for b in &backends {
        contenders.push((
            b.name().to_string(),
            Exact::new(Some(*b), None).map_err(search)?,
        ));
    }
    for cmd in &args.sat_cmds {
        contenders.push((
            format!("sat-cmd {cmd}"),
            Exact::new(None, Some(cmd)).map_err(search)?,
        ));
    }
    let mut tally = Tally::new("dekadoku bench");
    let min_time = Duration::from_secs_f64(args.min_time.clamp(0.0, 3600.0));
    // Line by line, so that each row shows when it is timed.
    let mut out = io::stdout().lock();
    let header = writeln!(
        out,
        "{:<40} {:>8} {:>12} {:>12} {:>13} {:>12} {:>7}",
        "file", "puzzles", "ours µs/pz", "ours pz/s", "sudoku µs/pz", "sudoku pz/s", "ratio"
    );
    if let Err(e) = header.and_then(|()| out.flush()) {
        return tally.write_failed(e);
    }
    for path in &args.files {
        let name = path.display().to_string();
        let quiet = ProgressBar::hidden();
        let file = match File::open(path) {
            Ok(f) => f,
            Err(source) => {
                let e = CliError::Open {
                    path: path.clone(),
                    source,
                };
                tally.error(&quiet, e);
                continue;
            }
        };
        let mut puzzles: Vec<Puzzle> = Vec::new();
        let bar = progress("loading");
        for item in PuzzleReader::new(BufReader::new(file), name.clone(), args.from) {
            match item {
                Ok(p) => {
                    puzzles.push(p);
                    bar.inc(1);
                }
                Err(e) => tally.error(&bar, e),
            }
            if args.max_puzzles.is_some_and(|m| puzzles.len() >= m) {
                break;
            }
        }
        bar.finish_and_clear();
        if puzzles.is_empty() {
            tally.error(&quiet, CliError::NoPuzzle { name });
            continue;
        }
        let limit = if args.first { 1 } else { 2 };
        let mut first_unique = None;
        let several = contenders.len() > 1;
        for (k, (what, solver)) in contenders.iter_mut().enumerate() {
            let bar = progress("timing");
            let mut failure = None;
            // Which method answered how many puzzles, in the last pass.
            let mut methods: BTreeMap<String, usize> = BTreeMap::new();
            let ours = time_passes(puzzles.len(), min_time, || {
                let (mut unique, mut stopped) = (0, 0);
                methods.clear();
                for p in &puzzles {
                    let limits = args.timeout.limits();
                    let r = match solver.run(p, limit, &limits) {
                        Ok(r) => r,
                        Err(e) => {
                            failure = Some(e);
                            break;
                        }
                    };
                    *methods.entry(solver.method()).or_default() += 1;
                    if r.stopped.is_some() {
                        stopped += 1;
                    } else if r.conflicts.is_empty() && r.count == 1 && (args.first || r.exhausted)
                    {
                        unique += 1;
                    }
                    bar.inc(1);
                }
                (unique, stopped)
            });
            // The peer runs once per file, beside the first backend.
            let peer = if k == 0 {
                peer_timing(&puzzles, min_time, args.first, &bar)
            } else {
                None
            };
            bar.finish_and_clear();
            if let Some(e) = failure {
                tally.error(&quiet, format_args!("{name} [{what}]: {e}"));
                continue;
            }
            let label = if several {
                let tag: String = what.chars().take(20).collect();
                format!(
                    "{} [{tag}]",
                    shorten(
                        &name,
                        40usize.saturating_sub(3 + tag.chars().count()).max(8)
                    )
                )
            } else {
                shorten(&name, 40)
            };
            if let Err(e) = print_row(&mut out, &label, &ours, peer.as_ref()) {
                return tally.write_failed(e);
            }
            if let Some(theirs) = &peer
                && theirs.unique != ours.unique
            {
                note!(
                    "{name}: the solvers disagree: {} unique for us, {} for the sudoku crate",
                    ours.unique,
                    theirs.unique
                );
            }
            // Only puzzles none stopped can be compared between backends.
            match first_unique {
                None => first_unique = Some((ours.unique, ours.stopped)),
                Some((u, 0)) if ours.stopped == 0 && u != ours.unique => note!(
                    "{name}: the solvers disagree: {u} for the first, {} for {what}",
                    ours.unique,
                ),
                Some(_) => {}
            }
            let verdict = if args.first {
                "were solved"
            } else {
                "have exactly one solution"
            };
            note!(
                "{name} [{what}]: {} of {} puzzles {verdict}",
                ours.unique,
                ours.puzzles
            );
            let answered: Vec<String> = methods.iter().map(|(m, k)| format!("{m} {k}")).collect();
            note!("{name} [{what}]: answered by {}", answered.join(", "));
            if ours.stopped > 0 {
                note!(
                    "{name} [{what}]: {} puzzles stopped by the {} s timeout (their time counts in the average)",
                    ours.stopped,
                    args.timeout.timeout.unwrap_or(0.0)
                );
            }
        }
    }
    if cfg!(not(feature = "peer-sudoku")) {
        note!(
            "the `sudoku` crate (AGPL-3.0, opt-in) is not built in, so it is not timed: \
             build with `cargo build --release --features peer-sudoku` to compare with it"
        );
    }
    tally.end()
}

/// One line of the table: our time and, on 9×9 files, the peer's.
fn print_row(
    out: &mut impl Write,
    label: &str,
    ours: &Timing,
    peer: Option<&Timing>,
) -> io::Result<()> {
    match peer {
        Some(theirs) => writeln!(
            out,
            "{label:<40} {:>8} {:>12.2} {:>12.0} {:>13.2} {:>12.0} {:>7.2}",
            ours.puzzles,
            ours.per_puzzle.as_secs_f64() * 1e6,
            ours.rate(),
            theirs.per_puzzle.as_secs_f64() * 1e6,
            theirs.rate(),
            theirs.per_puzzle.as_secs_f64() / ours.per_puzzle.as_secs_f64().max(1e-12),
        ),
        None => writeln!(
            out,
            "{label:<40} {:>8} {:>12.2} {:>12.0} {:>13} {:>12} {:>7}",
            ours.puzzles,
            ours.per_puzzle.as_secs_f64() * 1e6,
            ours.rate(),
            "-",
            "-",
            "-"
        ),
    }
}

fn shorten(name: &str, width: usize) -> String {
    let chars: Vec<char> = name.chars().collect();
    if chars.len() <= width {
        name.to_string()
    } else {
        let tail: String = chars[chars.len() - (width - 1)..].iter().collect();
        format!("…{tail}")
    }
}

/// Times the `sudoku` crate on the same 9×9 puzzles: it counts to two, as we
/// do, or stops at the first solution with `--first`.
#[cfg(feature = "peer-sudoku")]
fn peer_timing(
    puzzles: &[Puzzle],
    min_time: Duration,
    first: bool,
    bar: &indicatif::ProgressBar,
) -> Option<Timing> {
    if puzzles.iter().any(|p| p.shape() != Shape::CLASSIC) {
        return None;
    }
    let boards: Vec<sudoku::Sudoku> = puzzles
        .iter()
        .filter_map(|p| {
            let mut bytes = [0u8; 81];
            for (b, c) in bytes.iter_mut().zip(p.cells()) {
                *b = c.map_or(0, |v| v.get() as u8);
            }
            sudoku::Sudoku::from_bytes(bytes).ok()
        })
        .collect();
    if boards.len() != puzzles.len() {
        return None;
    }
    Some(time_passes(boards.len(), min_time, || {
        let mut unique = 0;
        for &b in &boards {
            let found = if first {
                b.some_solution().is_some()
            } else {
                b.solution().is_some()
            };
            if found {
                unique += 1;
            }
        }
        bar.inc(boards.len() as u64);
        (unique, 0)
    }))
}

#[cfg(not(feature = "peer-sudoku"))]
fn peer_timing(_: &[Puzzle], _: Duration, _: bool, _: &indicatif::ProgressBar) -> Option<Timing> {
    let _ = Shape::CLASSIC;
    None
}
