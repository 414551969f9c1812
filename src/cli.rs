//! The batch command line: one file per subcommand, the options they
//! share, input handling and progress bars on a terminal. Each subcommand
//! returns `Result<Status, CliError>`; `main` prints the error, if any, and
//! turns the result into the exit code: 0 all well, 1 some puzzle without
//! exactly one solution (or stopped), 2 an error (bad input or usage).
//! Problems with single puzzles are reported where they are met and the run
//! goes on; the run then ends with [`CliError::Reported`].

pub mod bench;
pub mod check;
pub mod convert;
pub mod count;
pub mod generate;
pub mod grade;
pub mod hint;
#[cfg(feature = "serve")]
pub mod serve;
pub mod solve;

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressStyle};

use rayon::prelude::*;

use crate::engine::format::{Format, FormatError, Parsed, PuzzleReader};
use crate::engine::sat::{External, ExternalError};
use crate::engine::solve::RawResult;
use crate::engine::solve::nine::{self, NineResult};
use crate::engine::{Backend, Limits, Method, NoTrace, Puzzle, Solver};

/// dekadoku: Sudoku from 4×4 to 400×400.
#[derive(Debug, Parser)]
#[command(name = "dekadoku", version, about, long_about = None)]
pub struct Cli {
    /// What to do; without a subcommand, the game starts.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Print the default config.toml (every key, commented) and exit.
    #[arg(long)]
    pub print_default_config: bool,
}

/// The batch subcommands.
///
/// Each one's arguments are added to the command line's definition only
/// when it is the one asked for (`defer`): clap builds no other, about
/// 0.1 ms and 23 page faults of a 2 ms start of `count FILE`. A deferred
/// subcommand's help takes its first line from its arguments' doc comment,
/// so each `…Args` struct's first line is the line written here.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum Command {
    /// Solve every puzzle and print the solutions.
    Solve(solve::SolveArgs),
    /// Count the solutions of every puzzle, up to a limit.
    Count(count::CountArgs),
    /// Report conflicting givens (by cell) and whether each puzzle is proper.
    Check(check::CheckArgs),
    /// Rewrite puzzles in another format.
    Convert(convert::ConvertArgs),
    /// Make new puzzles with exactly one solution, from a seed.
    Generate(generate::GenerateArgs),
    /// Grade every puzzle: level, score, SE-style rating, hardest technique.
    Grade(grade::GradeArgs),
    /// The next logical step for each position, explained.
    Hint(hint::HintArgs),
    /// Time the solver (and, on 9×9 files, the `sudoku` crate) on whole files.
    Bench(bench::BenchArgs),
    /// Serve the game over SSH: `ssh -p 2222 HOST` to play (see the README).
    #[cfg(feature = "serve")]
    Serve(serve::ServeArgs),
}

/// Where puzzles come from, shared by the subcommands that read one input.
#[derive(Debug, Clone, Args)]
pub struct Input {
    /// The puzzle file; `-` or nothing for standard input.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// The input format (detected when not given).
    #[arg(long, value_name = "FORMAT")]
    pub from: Option<Format>,
}

/// How a run that met no error ended: exit code 0 or 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Status {
    /// Every puzzle was fine.
    #[default]
    AllWell = 0,
    /// Some puzzle had no solution or more than one, or was stopped.
    SomeUnsolved = 1,
}

impl From<Status> for ExitCode {
    fn from(s: Status) -> ExitCode {
        ExitCode::from(s as u8)
    }
}

/// Why a run ended with exit code 2 ([`CliError::EXIT_CODE`]); `main`
/// prints it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CliError {
    /// An input file that cannot be opened.
    #[error("{}: cannot open: {source}", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// Output that cannot be written (a closed pipe is not an error: the
    /// run ends quietly).
    #[error("{name}: cannot write: {source}")]
    Write {
        /// The input being worked on, or the subcommand.
        name: String,
        /// What the system said.
        source: io::Error,
    },
    /// An input without a single puzzle.
    #[error("{name}: no puzzle found")]
    NoPuzzle {
        /// The input.
        name: String,
    },
    /// Errors were reported as they were met (a puzzle that cannot be read,
    /// a file that cannot be opened), and the run went on without them.
    #[error("{name}: {count} {} reported above", if *count == 1 { "error" } else { "errors" })]
    Reported {
        /// The input, or the subcommand.
        name: String,
        /// How many.
        count: usize,
    },
    /// `--backend` and `--sat-cmd` that do not go together, or a
    /// `--sat-cmd` that is not a command.
    #[error("dekadoku {command}: {source}")]
    Search {
        /// The subcommand.
        command: &'static str,
        /// What is wrong.
        source: SearchError,
    },
    /// The SAT program failed on a puzzle (it would on the next as well,
    /// so the run stops).
    #[error("{at}: {source}")]
    Solver {
        /// The puzzle.
        at: PuzzleAt,
        /// What went wrong with the program.
        source: ExternalError,
    },
    /// Options of `generate` that cannot be met.
    #[error("dekadoku generate: {0}")]
    Generate(#[from] generate::GenerateError),
    /// The worker threads of `--jobs` could not start.
    #[error("dekadoku {command}: cannot start {jobs} threads: {source}")]
    Threads {
        /// The subcommand.
        command: &'static str,
        /// How many were asked for.
        jobs: usize,
        /// What rayon said.
        source: rayon::ThreadPoolBuildError,
    },
    /// The game could not start (or failed while it ran).
    #[error("dekadoku: {0}")]
    Game(#[source] io::Error),
    /// `--print-default-config` in a build without the config.
    #[error("this build has no config (built without the `store` feature)")]
    NoConfig,
}

impl CliError {
    /// The exit code of every error.
    pub const EXIT_CODE: u8 = 2;
}

/// A puzzle of an input, as messages name it: `FILE: puzzle 3 (line 7)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuzzleAt {
    /// The input's name.
    pub name: String,
    /// The puzzle's number in the input, from 1.
    pub index: usize,
    /// The line it ends on.
    pub line: usize,
}

impl fmt::Display for PuzzleAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: puzzle {} (line {})",
            self.name, self.index, self.line
        )
    }
}

impl Input {
    /// The name used in error messages (`<stdin>` for standard input).
    pub fn name(&self) -> String {
        match &self.file {
            Some(p) if p.as_os_str() != "-" => p.display().to_string(),
            _ => "<stdin>".to_string(),
        }
    }

    /// Opens the input as a streaming puzzle reader.
    pub fn open(&self) -> Result<PuzzleReader<Box<dyn BufRead>>, CliError> {
        let reader: Box<dyn BufRead> = match &self.file {
            Some(p) if p.as_os_str() != "-" => {
                let f = File::open(p).map_err(|source| CliError::Open {
                    path: p.clone(),
                    source,
                })?;
                Box::new(BufReader::with_capacity(1 << 16, f))
            }
            _ => Box::new(BufReader::new(io::stdin())),
        };
        Ok(PuzzleReader::new(reader, self.name(), self.from))
    }
}

/// What a run over one input has met so far, and how it ends.
#[derive(Debug)]
pub struct Tally {
    name: String,
    /// Puzzles read so far.
    pub puzzles: usize,
    errors: usize,
    status: Status,
    /// Notes for standard error held back to be written in blocks (see
    /// [`Tally::hold_notes`]); written when full and when the tally ends
    /// or is dropped.
    held: Option<Vec<u8>>,
}

/// Bytes of held notes written at once: as standard output's buffer.
const NOTES_BLOCK: usize = 1 << 16;

impl Drop for Tally {
    fn drop(&mut self) {
        self.write_notes();
    }
}

impl Tally {
    /// A run over the input called `name`.
    pub fn new(name: impl Into<String>) -> Tally {
        Tally {
            name: name.into(),
            puzzles: 0,
            errors: 0,
            status: Status::AllWell,
            held: None,
        }
    }

    /// From now on, when standard error is not a terminal, notes and
    /// errors are written in blocks rather than one system call each (a
    /// run over 10,000 puzzles with two solutions made 10,000 writes, a
    /// quarter of its time), in the same order; on a terminal each one
    /// still appears as it happens.
    pub fn hold_notes(&mut self) {
        if !io::stderr().is_terminal() {
            self.held.get_or_insert_with(Vec::new);
        }
    }

    /// Writes `text` and a line end to standard error (above the progress
    /// bar), or holds it (see [`Tally::hold_notes`]).
    pub fn note(&mut self, bar: &ProgressBar, text: &str) {
        match &mut self.held {
            Some(held) => {
                held.extend_from_slice(text.as_bytes());
                held.push(b'\n');
                if held.len() >= NOTES_BLOCK {
                    self.write_notes();
                }
            }
            None => bar.suspend(|| note!("{text}")),
        }
    }

    /// Writes the notes held so far (a failure to is not reported: as
    /// `note!`, standard error is where it would go).
    fn write_notes(&mut self) {
        if let Some(held) = &mut self.held
            && !held.is_empty()
        {
            let _ = io::stderr().lock().write_all(held);
            held.clear();
        }
    }

    /// The input's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The puzzle of a reader's item, counted, or None after reporting its
    /// format error (above the progress bar).
    pub fn puzzle(
        &mut self,
        item: Result<Puzzle, FormatError>,
        bar: &ProgressBar,
    ) -> Option<Puzzle> {
        match item {
            Ok(p) => {
                self.puzzles += 1;
                Some(p)
            }
            Err(e) => {
                self.error(bar, e);
                None
            }
        }
    }

    /// The last puzzle counted, ending on `line`, as messages name it.
    pub fn at(&self, line: usize) -> PuzzleAt {
        self.at_of(self.puzzles, line)
    }

    /// Puzzle `index` of this input, ending on `line`, as messages name it.
    pub fn at_of(&self, index: usize, line: usize) -> PuzzleAt {
        PuzzleAt {
            name: self.name.clone(),
            index,
            line,
        }
    }

    /// Reports an error above the progress bar; the run goes on, and will
    /// end with [`CliError::Reported`].
    pub fn error(&mut self, bar: &ProgressBar, e: impl fmt::Display) {
        self.note(bar, &e.to_string());
        self.errors += 1;
    }

    /// Counts a puzzle without exactly one solution (or stopped).
    pub fn unsolved(&mut self) {
        self.status = Status::SomeUnsolved;
    }

    /// How the run ends: an error if errors were reported or no puzzle
    /// was found, else its status.
    pub fn finish(mut self) -> Result<Status, CliError> {
        if self.puzzles == 0 && self.errors == 0 {
            return Err(CliError::NoPuzzle {
                name: std::mem::take(&mut self.name),
            });
        }
        self.end()
    }

    /// How the run ends as it stands: an error if errors were reported,
    /// else its status (an input without puzzles is not checked for).
    pub fn end(mut self) -> Result<Status, CliError> {
        match self.errors {
            0 => Ok(self.status),
            count => Err(CliError::Reported {
                name: std::mem::take(&mut self.name),
                count,
            }),
        }
    }

    /// How a run ends whose output could not be written: a closed pipe
    /// (`| head`) ends it quietly as it stood; anything else is an error.
    pub fn write_failed(mut self, source: io::Error) -> Result<Status, CliError> {
        if source.kind() == io::ErrorKind::BrokenPipe {
            return self.end();
        }
        Err(CliError::Write {
            name: std::mem::take(&mut self.name),
            source,
        })
    }

    /// Ends the run after flushing `out` (see [`Tally::write_failed`]).
    pub fn flush_and_finish(self, out: &mut impl io::Write) -> Result<Status, CliError> {
        match out.flush() {
            Ok(()) => self.finish(),
            Err(e) => self.write_failed(e),
        }
    }
}

/// A progress spinner on standard error when it is a terminal; hidden otherwise.
pub fn progress(what: &str) -> ProgressBar {
    progress_bar(
        None,
        &format!("{{spinner}} {what}: {{pos}} puzzles ({{per_sec}}, {{elapsed}})"),
    )
}

/// A progress bar for a known number of puzzles, with the rate and the time
/// left, on a terminal (hidden otherwise).
pub fn progress_of(what: &str, len: u64) -> ProgressBar {
    progress_bar(
        Some(len),
        &format!("{{spinner}} {what}: {{bar:30}} {{pos}}/{{len}} ({{per_sec}}, {{eta}} left)"),
    )
}

/// A bar that clears itself when dropped, so that an error printed after
/// the subcommand returns is not drawn over.
fn progress_bar(len: Option<u64>, template: &str) -> ProgressBar {
    let shown = io::stderr().is_terminal();
    let target = if shown {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let mut bar = ProgressBar::with_draw_target(len, target).with_finish(ProgressFinish::AndClear);
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar = bar.with_style(style);
    }
    // The ticking thread only where there is something to draw.
    if shown {
        bar.enable_steady_tick(Duration::from_millis(120));
    }
    bar
}

/// `--timeout`, shared by every subcommand that searches.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct Timeout {
    /// Give up on a puzzle after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
}

impl Timeout {
    /// The time limit; none when not given, or not a number of seconds a
    /// clock can count (negative, not finite, or beyond a `Duration`).
    pub fn duration(self) -> Option<Duration> {
        self.timeout
            .filter(|s| *s >= 0.0)
            .and_then(|s| Duration::try_from_secs_f64(s).ok())
    }

    /// Limits for one puzzle, starting now.
    pub fn limits(self) -> Limits {
        self.duration().map_or_else(Limits::none, Limits::timeout)
    }
}

/// The exact search of `solve` and `count`: `--timeout`, `--backend` and
/// `--sat-cmd`. (`check` and `generate` share only `--timeout`; `bench`
/// takes several backends and programs, so it has its own.)
#[derive(Debug, Clone, Default, Args)]
pub struct Search {
    /// `--timeout`.
    #[command(flatten)]
    pub timeout: Timeout,
    /// The exact search: `auto` (the default: picked per puzzle, hard
    /// big ones raced between propagation and SAT), `propagation`, `dlx`
    /// (Dancing Links), `sat` (the embedded SAT solver, CaDiCaL) or `hall`
    /// (propagation with Hall sets: all-different consistency per unit).
    #[arg(long, value_name = "BACKEND")]
    pub backend: Option<Backend>,
    /// Solve with this SAT solver program instead (implies `--backend
    /// sat`): it reads DIMACS on standard input and answers in the SAT
    /// competition's format, e.g. `kissat -q` or `cadical -q`.
    #[arg(long, value_name = "COMMAND")]
    pub sat_cmd: Option<String>,
    /// `--verbose`.
    #[command(flatten)]
    pub verbose: Verbose,
}

/// `--verbose`: a line on standard error for each puzzle saying which
/// method answered and how long it took.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct Verbose {
    /// Say on standard error, for each puzzle, which method answered
    /// (with `auto`: the one picked, or the winner of the race) and its time.
    #[arg(long, short = 'v')]
    pub verbose: bool,
}

impl Verbose {
    /// Tells which `method` answered the puzzle `at` in `took`, when asked to.
    pub(crate) fn tell(
        self,
        tally: &mut Tally,
        bar: &ProgressBar,
        at: &impl fmt::Display,
        method: &str,
        took: Duration,
    ) {
        if self.verbose {
            let text = format!("{at}: answered by {method} in {:.3} s", took.as_secs_f64());
            tally.note(bar, &text);
        }
    }
}

impl Search {
    /// The search these options ask for.
    pub(crate) fn exact(&self) -> Result<Exact, SearchError> {
        Exact::new(self.backend, self.sat_cmd.as_deref())
    }
}

/// Why `--backend` and `--sat-cmd` give no search.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SearchError {
    /// `--sat-cmd` with a backend other than `sat`.
    #[error("--sat-cmd runs a SAT solver; it does not go with --backend {}", .0.name())]
    SatCmdWithBackend(Backend),
    /// A `--sat-cmd` that is not a command (an unclosed quote, nothing).
    #[error(transparent)]
    SatCmd(#[from] ExternalError),
}

/// The exact search of `solve` and `count`: an engine backend, or an
/// external SAT program (`--sat-cmd`).
#[derive(Debug)]
pub(crate) enum Exact {
    /// A backend of the engine (boxed: a solver keeps its buffers inline).
    Engine {
        /// The solver.
        solver: Box<Solver>,
        /// Its backend.
        backend: Backend,
        /// Whether the kernel answered last.
        kernel_last: bool,
    },
    /// A SAT solver program, fed DIMACS.
    Program(External),
}

/// An answer of [`Exact::run_parsed`]: the 9×9 kernel's, for classic
/// givens, or the general search's.
#[derive(Debug)]
pub(crate) enum Answer {
    /// The 9×9 kernel's result (no conflicting givens).
    Nine(Box<NineResult>),
    /// Any other search's.
    Raw(RawResult),
}

impl Exact {
    /// The search `--backend` and `--sat-cmd` ask for; `--sat-cmd` implies
    /// the SAT backend and goes with no other.
    pub fn new(backend: Option<Backend>, sat_cmd: Option<&str>) -> Result<Exact, SearchError> {
        match (backend, sat_cmd) {
            (Some(b), Some(_)) if b != Backend::Sat => Err(SearchError::SatCmdWithBackend(b)),
            (_, Some(cmd)) => Ok(Exact::Program(External::parse(cmd)?)),
            (b, None) => {
                let backend = b.unwrap_or_default();
                Ok(Exact::Engine {
                    solver: Box::new(Solver::with_backend(backend)),
                    backend,
                    kernel_last: false,
                })
            }
        }
    }

    /// The same search with buffers of its own, for another thread.
    pub fn fresh(&self) -> Exact {
        match self {
            Exact::Engine { backend, .. } => Exact::Engine {
                solver: Box::new(Solver::with_backend(*backend)),
                backend: *backend,
                kernel_last: false,
            },
            Exact::Program(p) => Exact::Program(p.clone()),
        }
    }

    /// Searches for up to `limit` solutions. An external program that
    /// cannot run or answers nonsense is an error (the same for every
    /// puzzle, so the caller stops).
    pub fn run(
        &mut self,
        puzzle: &Puzzle,
        limit: u64,
        limits: &Limits,
    ) -> Result<RawResult, ExternalError> {
        match self {
            Exact::Engine {
                solver,
                kernel_last,
                ..
            } => {
                *kernel_last = false;
                Ok(solver.run(puzzle, limit, limits, &mut NoTrace))
            }
            Exact::Program(p) => p.run(puzzle, limit, limits, &mut NoTrace),
        }
    }

    /// [`Exact::run`] on a puzzle as the reader gave it: classic givens go
    /// straight to the 9×9 kernel when the backend would send them there
    /// (the same search, without building a [`Puzzle`] or its solution
    /// grids); givens that break the rules, other backends and other
    /// puzzles take [`Exact::run`].
    pub fn run_parsed(
        &mut self,
        parsed: &Parsed,
        limit: u64,
        limits: &Limits,
    ) -> Result<Answer, ExternalError> {
        // `auto` and `propagation` send an untraced classic search to the
        // kernel (Solver::run), so the answer is the same.
        if let (
            Parsed::Classic(givens),
            Exact::Engine {
                backend: Backend::Auto | Backend::Propagation,
                kernel_last,
                ..
            },
        ) = (parsed, &mut *self)
        {
            let r = nine::solve_nine(givens, limit, limits);
            if !r.givens_conflict {
                *kernel_last = true;
                return Ok(Answer::Nine(Box::new(r)));
            }
        }
        let r = match parsed {
            Parsed::Puzzle(p) => self.run(p, limit, limits)?,
            Parsed::Classic(_) => self.run(&parsed.clone().into_puzzle(), limit, limits)?,
        };
        Ok(Answer::Raw(r))
    }

    /// Which method gave the last answer: `propagation`, `sat (won the
    /// race)`, `sat-cmd`.
    pub fn method(&self) -> String {
        match self {
            Exact::Engine {
                kernel_last: true, ..
            } => Method::alone(Backend::Propagation).to_string(),
            Exact::Engine { solver, .. } => solver
                .last_method()
                .map_or_else(|| "nothing yet".to_string(), |m| m.to_string()),
            Exact::Program(_) => "sat-cmd".to_string(),
        }
    }
}

/// `--jobs`, shared by `solve` and `count`.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct Jobs {
    /// Solve this many puzzles at once, on as many threads (default 1;
    /// 0: one per core). The output is the same for every job count, in
    /// the input's order.
    #[arg(long, value_name = "J")]
    pub jobs: Option<usize>,
}

impl Jobs {
    /// The number of threads: at least one.
    pub fn threads(self) -> usize {
        match self.jobs {
            None => 1,
            Some(0) => std::thread::available_parallelism().map_or(1, |n| n.get()),
            Some(j) => j,
        }
    }
}

/// One item of an input as a batch run reads it: a puzzle with its number
/// and line, or a format error.
struct Entry {
    /// The puzzle's number in the input, from 1 (0 for an error).
    index: usize,
    /// The line it ends on.
    line: usize,
    /// What was read.
    item: Result<Parsed, FormatError>,
}

/// Standard output as [`run_batch`] writes it.
pub(crate) type Out = io::BufWriter<io::StdoutLock<'static>>;

/// Where an answer of [`run_batch`] belongs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Place {
    /// The puzzle's number in the input, from 1.
    pub index: usize,
    /// The line it ends on.
    pub line: usize,
    /// The input's format (forced or detected).
    pub format: Option<Format>,
}

impl Place {
    /// The puzzle as messages name it.
    pub fn at(self, tally: &Tally) -> PuzzleAt {
        tally.at_of(self.index, self.line)
    }
}

/// What a worker did with one puzzle: the answer (or the SAT program's
/// failure) and, with `--verbose`, the method and the time it took.
struct Done<T> {
    answer: Result<T, ExternalError>,
    told: Option<(String, Duration)>,
}

/// Puzzles per thread in a batch of a parallel run: enough that the
/// threads rarely wait for each other, few enough to stream the output.
const BATCH_PER_THREAD: usize = 256;

/// What `solve` and `count` share: reads `input` (plain 9×9 lines without
/// building a [`Puzzle`]), has `work` answer each puzzle, on `jobs`
/// threads, and gives the answers to `emit` in input order with the
/// puzzle's place, which writes them to `out`. Format errors are reported
/// in their place; a failed write or a failing SAT program ends the run.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_batch<T: Send>(
    input: &Input,
    command: &'static str,
    search: &Search,
    jobs: Jobs,
    what: &str,
    work: impl Fn(&mut Exact, &Parsed, &Limits) -> Result<T, ExternalError> + Sync,
    mut emit: impl FnMut(&mut Tally, &ProgressBar, Place, T, &mut Out) -> io::Result<()>,
) -> Result<Status, CliError> {
    let mut reader = input.open()?;
    let mut exact = search
        .exact()
        .map_err(|source| CliError::Search { command, source })?;
    let threads = jobs.threads();
    let pool = if threads > 1 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| CliError::Threads {
                command,
                jobs: threads,
                source: e,
            })?;
        Some(pool)
    } else {
        None
    };
    let mut out: Out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut tally = Tally::new(input.name());
    tally.hold_notes();
    let bar = progress(what);
    let shown = !bar.is_hidden();
    let verbose = search.verbose.verbose;
    let one = |exact: &mut Exact, parsed: &Parsed| {
        let started = verbose.then(std::time::Instant::now);
        let answer = work(exact, parsed, &search.timeout.limits());
        let told = started.map(|t| (exact.method(), t.elapsed()));
        Done { answer, told }
    };
    let size = if pool.is_some() {
        threads * BATCH_PER_THREAD
    } else {
        1
    };
    let mut batch: Vec<Entry> = Vec::with_capacity(size);
    let mut done: Vec<Done<T>> = Vec::with_capacity(size);
    loop {
        batch.clear();
        done.clear();
        while batch.len() < size {
            let Some(item) = reader.next_fast() else {
                break;
            };
            let index = if item.is_ok() {
                tally.puzzles += 1;
                tally.puzzles
            } else {
                0
            };
            batch.push(Entry {
                index,
                line: reader.last_line(),
                item,
            });
        }
        if batch.is_empty() {
            break;
        }
        match &pool {
            None => {
                for e in &batch {
                    if let Ok(p) = &e.item {
                        done.push(one(&mut exact, p));
                    }
                }
            }
            Some(pool) => {
                let proto = &exact;
                // A SAT program that fails fails for every puzzle, and the
                // run stops at the first failure in input order: once one
                // has failed, the puzzles not yet started take its error
                // instead of running the program again.
                let failed: Mutex<Option<ExternalError>> = Mutex::new(None);
                let any_failed = AtomicBool::new(false);
                let answer = |exact: &mut Exact, p: &Parsed| {
                    if any_failed.load(Ordering::Relaxed)
                        && let Some(e) = failed.lock().ok().and_then(|f| f.clone())
                    {
                        return Done {
                            answer: Err(e),
                            told: None,
                        };
                    }
                    let d = one(exact, p);
                    if let Err(e) = &d.answer
                        && let Ok(mut f) = failed.lock()
                    {
                        f.get_or_insert_with(|| e.clone());
                        any_failed.store(true, Ordering::Relaxed);
                    }
                    d
                };
                pool.install(|| {
                    done.par_extend(
                        batch
                            .par_iter()
                            .filter_map(|e| e.item.as_ref().ok())
                            .map_init(|| proto.fresh(), |exact, p| answer(exact, p)),
                    );
                });
            }
        }
        let mut answers = done.drain(..);
        for e in batch.drain(..) {
            if let Err(err) = e.item {
                tally.error(&bar, err);
                continue;
            }
            let Some(d) = answers.next() else {
                break;
            };
            let answer = d.answer.map_err(|source| CliError::Solver {
                at: tally.at_of(e.index, e.line),
                source,
            });
            let answer = match answer {
                Ok(a) => a,
                Err(err) => {
                    // What came before is written; the error ends the run.
                    return match out.flush() {
                        Ok(()) => Err(err),
                        Err(w) => tally.write_failed(w).and(Err(err)),
                    };
                }
            };
            if let Some((method, took)) = d.told {
                let at = tally.at_of(e.index, e.line);
                search.verbose.tell(&mut tally, &bar, &at, &method, took);
            }
            if shown {
                bar.inc(1);
            }
            let place = Place {
                index: e.index,
                line: e.line,
                format: reader.format(),
            };
            if let Err(w) = emit(&mut tally, &bar, place, answer, &mut out) {
                return tally.write_failed(w);
            }
        }
    }
    bar.finish_and_clear();
    tally.flush_and_finish(&mut out)
}

/// The command line, or the exit code when there is nothing to run:
/// `--help` and `--version` (0 once their text is written, 2 when it could
/// not be, as `> /dev/full`; a closed pipe ends quietly) and usage errors
/// (2), clap's text printed.
pub fn parse() -> Result<Cli, ExitCode> {
    Cli::try_parse().map_err(|e| {
        let written = e.print().and_then(|()| io::stdout().flush());
        match written {
            Err(w) if w.kind() != io::ErrorKind::BrokenPipe => {
                note!("dekadoku: cannot write: {w}");
                ExitCode::from(CliError::EXIT_CODE)
            }
            _ => ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(CliError::EXIT_CODE)),
        }
    })
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<Status, CliError> {
    match cli.command {
        Some(Command::Solve(a)) => solve::run(&a),
        Some(Command::Count(a)) => count::run(&a),
        Some(Command::Check(a)) => check::run(&a),
        Some(Command::Convert(a)) => convert::run(&a),
        Some(Command::Generate(a)) => generate::run(&a),
        Some(Command::Grade(a)) => grade::run(&a),
        Some(Command::Hint(a)) => hint::run(&a),
        Some(Command::Bench(a)) => bench::run(&a),
        #[cfg(feature = "serve")]
        Some(Command::Serve(a)) => serve::run(&a),
        None if cli.print_default_config => print_default_config(),
        None => play(),
    }
}

#[cfg(feature = "store")]
fn print_default_config() -> Result<Status, CliError> {
    use std::io::Write;
    let text = crate::store::Config::default_toml();
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(Status::AllWell),
        Err(e) => Tally::new("dekadoku --print-default-config").write_failed(e),
    }
}

#[cfg(not(feature = "store"))]
fn print_default_config() -> Result<Status, CliError> {
    Err(CliError::NoConfig)
}

/// Starts the game (or, in a build without it, lists the commands).
#[cfg(feature = "tui")]
fn play() -> Result<Status, CliError> {
    crate::tui::runner::run().map_err(CliError::Game)?;
    Ok(Status::AllWell)
}

#[cfg(not(feature = "tui"))]
fn play() -> Result<Status, CliError> {
    use clap::CommandFactory;
    use std::io::Write;
    let text = format!(
        "dekadoku {}: built without the game (feature `tui`); the batch commands:\n\n{}",
        env!("CARGO_PKG_VERSION"),
        Cli::command().render_help()
    );
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(Status::AllWell),
        Err(e) => Tally::new("dekadoku").write_failed(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The subcommands are deferred (built only when asked for), and a
    /// deferred one's help takes its first line from its arguments' doc
    /// comment: each must say what the list of commands says of it.
    #[test]
    fn each_subcommand_help_opens_with_its_line_in_the_list() {
        use clap::CommandFactory;
        let listed: Vec<(String, String)> = Cli::command()
            .get_subcommands()
            .map(|c| {
                let about = c.get_about().map(|a| a.to_string());
                (c.get_name().to_owned(), about.unwrap_or_default())
            })
            .collect();
        assert!(listed.len() >= 8, "{listed:?}");
        for (name, about) in listed {
            assert!(!about.is_empty(), "`{name}` has no line in the list");
            let err = Cli::command()
                .try_get_matches_from(["dekadoku", name.as_str(), "--help"])
                .expect_err("--help stops the parse");
            assert_eq!(err.kind(), clap::error::ErrorKind::DisplayHelp, "{name}");
            let help = err.render().to_string();
            assert_eq!(help.lines().next(), Some(about.as_str()), "`{name} --help`");
            assert!(help.contains("Usage: dekadoku "), "{help}");
        }
    }

    #[test]
    fn timeouts_a_clock_cannot_count_are_no_limit() {
        let t = |s| Timeout { timeout: Some(s) }.duration();
        assert_eq!(t(0.5), Some(Duration::from_millis(500)));
        assert_eq!(t(0.0), Some(Duration::ZERO));
        for s in [-1.0, f64::NAN, f64::INFINITY, 1e300] {
            assert_eq!(t(s), None, "{s}");
        }
        assert_eq!(Timeout::default().duration(), None);
    }

    #[test]
    fn a_tally_ends_as_the_exit_codes_say() {
        let bar = ProgressBar::hidden();
        assert!(matches!(
            Tally::new("x").finish(),
            Err(CliError::NoPuzzle { .. })
        ));
        assert!(matches!(Tally::new("x").end(), Ok(Status::AllWell)));

        let mut t = Tally::new("x");
        t.puzzles = 3;
        t.unsolved();
        assert!(matches!(t.finish(), Ok(Status::SomeUnsolved)));

        let mut t = Tally::new("x");
        t.error(&bar, "x:1:1: bad");
        t.error(&bar, "x:2:1: bad");
        let e = t.finish().unwrap_err();
        assert_eq!(e.to_string(), "x: 2 errors reported above");

        // A closed pipe ends the run as it stood; another failure is an error.
        let mut t = Tally::new("x");
        t.puzzles = 1;
        let pipe = io::Error::from(io::ErrorKind::BrokenPipe);
        assert!(matches!(t.write_failed(pipe), Ok(Status::AllWell)));
        let full = io::Error::other("disk full");
        let e = Tally::new("x").write_failed(full).unwrap_err();
        assert_eq!(e.to_string(), "x: cannot write: disk full");
    }
}
