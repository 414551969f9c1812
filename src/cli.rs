//! The batch command line: one file per subcommand, shared input handling,
//! progress bars on a terminal, and the exit codes (0 ok, 1 a puzzle without
//! exactly one solution, 2 bad input).

pub mod bench;
pub mod check;
pub mod convert;
pub mod count;
pub mod generate;
pub mod grade;
pub mod hint;
pub mod solve;

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::engine::format::{Format, FormatError, PuzzleReader};
use crate::engine::sat::External;
use crate::engine::solve::RawResult;
use crate::engine::{Backend, Limits, NoTrace, Puzzle, Solver};

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
#[derive(Debug, Subcommand)]
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

/// Exit status of a batch run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Status {
    /// Everything was fine.
    #[default]
    Ok = 0,
    /// Some puzzle had no solution or more than one (or was stopped).
    NotUnique = 1,
    /// Some input could not be read.
    BadInput = 2,
}

impl Status {
    /// The worse of two statuses.
    pub fn worst(self, other: Status) -> Status {
        self.max(other)
    }
}

impl From<Status> for ExitCode {
    fn from(s: Status) -> ExitCode {
        ExitCode::from(s as u8)
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
    pub fn open(&self) -> Result<PuzzleReader<Box<dyn BufRead>>, String> {
        let name = self.name();
        let reader: Box<dyn BufRead> = match &self.file {
            Some(p) if p.as_os_str() != "-" => {
                let f = File::open(p).map_err(|e| format!("{name}: cannot open: {e}"))?;
                Box::new(BufReader::with_capacity(1 << 16, f))
            }
            _ => Box::new(BufReader::new(io::stdin())),
        };
        Ok(PuzzleReader::new(reader, name, self.from))
    }
}

impl Input {
    /// Opens the input, or reports why it cannot be (bad input).
    pub fn open_or_report(&self) -> Result<PuzzleReader<Box<dyn BufRead>>, Status> {
        self.open().map_err(|e| {
            eprintln!("{e}");
            Status::BadInput
        })
    }
}

/// The puzzle of a reader's item, or None after reporting its format error
/// (above the progress bar) and marking the run as bad input.
pub fn puzzle_or_report(
    item: Result<Puzzle, FormatError>,
    bar: &ProgressBar,
    status: &mut Status,
) -> Option<Puzzle> {
    match item {
        Ok(p) => Some(p),
        Err(e) => {
            bar.suspend(|| eprintln!("{e}"));
            *status = status.worst(Status::BadInput);
            None
        }
    }
}

/// The status to end a run with after writing failed: a closed pipe
/// (`| head`) ends quietly with the run's status so far; anything else is
/// reported as bad output.
pub fn write_failed(name: &str, e: &io::Error, status: Status) -> Status {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return status;
    }
    eprintln!("{name}: cannot write: {e}");
    Status::BadInput
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

fn progress_bar(len: Option<u64>, template: &str) -> ProgressBar {
    let target = if io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(len, target);
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

/// The exact search of `solve` and `count`: an engine backend, or an
/// external SAT program (`--sat-cmd`).
#[derive(Debug)]
pub(crate) enum Exact {
    /// A backend of the engine (boxed: a solver keeps its buffers inline).
    Engine(Box<Solver>),
    /// A SAT solver program, fed DIMACS.
    Program(External),
}

impl Exact {
    /// The search `--backend` and `--sat-cmd` ask for; `--sat-cmd` implies
    /// the SAT backend and goes with no other.
    pub fn new(backend: Option<Backend>, sat_cmd: Option<&str>) -> Result<Exact, String> {
        match (backend, sat_cmd) {
            (Some(b), Some(_)) if b != Backend::Sat => Err(format!(
                "--sat-cmd runs a SAT solver; it does not go with --backend {}",
                b.name()
            )),
            (_, Some(cmd)) => External::parse(cmd)
                .map(Exact::Program)
                .map_err(|e| e.to_string()),
            (b, None) => Ok(Exact::Engine(Box::new(Solver::with_backend(
                b.unwrap_or_default(),
            )))),
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
    ) -> Result<RawResult, String> {
        match self {
            Exact::Engine(s) => Ok(s.run(puzzle, limit, limits, &mut NoTrace)),
            Exact::Program(p) => p
                .run(puzzle, limit, limits, &mut NoTrace)
                .map_err(|e| e.to_string()),
        }
    }
}

/// A limit in seconds from the command line, as a duration.
pub fn seconds(s: Option<f64>) -> Option<Duration> {
    s.filter(|s| s.is_finite() && *s >= 0.0)
        .map(Duration::from_secs_f64)
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> ExitCode {
    let status = match cli.command {
        Some(Command::Solve(a)) => solve::run(&a),
        Some(Command::Count(a)) => count::run(&a),
        Some(Command::Check(a)) => check::run(&a),
        Some(Command::Convert(a)) => convert::run(&a),
        Some(Command::Generate(a)) => generate::run(&a),
        Some(Command::Grade(a)) => grade::run(&a),
        Some(Command::Hint(a)) => hint::run(&a),
        Some(Command::Bench(a)) => bench::run(&a),
        None if cli.print_default_config => print_default_config(),
        None => play(),
    };
    status.into()
}

#[cfg(feature = "store")]
fn print_default_config() -> Status {
    print!("{}", crate::store::Config::default_toml());
    Status::Ok
}

#[cfg(not(feature = "store"))]
fn print_default_config() -> Status {
    eprintln!("this build has no config (built without the `store` feature)");
    Status::BadInput
}

/// Starts the game (or, in a build without it, lists the commands).
#[cfg(feature = "tui")]
fn play() -> Status {
    match crate::tui::runner::run() {
        Ok(()) => Status::Ok,
        Err(e) => {
            eprintln!("dekadoku: {e}");
            Status::BadInput
        }
    }
}

#[cfg(not(feature = "tui"))]
fn play() -> Status {
    println!(
        "dekadoku {}: built without the game (feature `tui`); the batch commands:\n",
        env!("CARGO_PKG_VERSION")
    );
    use clap::CommandFactory;
    let _ = Cli::command().print_help();
    Status::Ok
}
