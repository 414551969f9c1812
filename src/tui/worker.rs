//! The one background thread for long engine work: generating a puzzle,
//! solving an imported one, finding a hint, working out a
//! logic path, refilling the puzzle pool (low priority: the app cancels a
//! refill before it starts anything else). Jobs carry an id and a cancel flag; a result
//! whose id the app no longer waits for is dropped by the app. The thread
//! ends when its job channel closes or a result cannot be sent.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};

use crate::engine::generate::daily::{Date, daily_options};
use crate::engine::generate::{GenerateOptions, Graded, Symmetry, generate_graded};
use crate::engine::{Level, Limits, NoTrace, Outcome, Puzzle, Shape, Solver};
use crate::game::{Game, Hint, Hinter, LogicHinter, LogicWalk, Origin};

/// What to do.
#[derive(Debug, Clone)]
pub enum JobKind {
    /// Generate a unique puzzle.
    Generate {
        /// Its shape.
        shape: Shape,
        /// Its level.
        level: Level,
        /// The seed.
        seed: u64,
    },
    /// Generate the daily puzzle of a date (no deadline: it must be the
    /// same puzzle for everyone).
    Daily {
        /// The date.
        date: Date,
    },
    /// Find the next hint for a position (the technique solver can take
    /// longer than a frame: chains, forcing chains, big boards).
    Hint {
        /// The game as it stands.
        game: Box<Game>,
    },
    /// Work out the logic solver's whole path from a position.
    Walk {
        /// The game as it stands.
        game: Box<Game>,
    },
    /// Generate a puzzle for the pool, as [`JobKind::Generate`] would.
    Refill {
        /// Its shape.
        shape: Shape,
        /// Its level.
        level: Level,
        /// The seed.
        seed: u64,
    },
    /// Solve a puzzle (an imported or shipped one) to learn its solution
    /// and whether it is unique.
    Solve {
        /// The puzzle.
        puzzle: Puzzle,
        /// Where it came from (carried back to the game).
        origin: Origin,
    },
}

/// A job with its id.
#[derive(Debug, Clone)]
pub struct Job {
    /// Unique per app run; results carry it back.
    pub id: u64,
    /// The work.
    pub kind: JobKind,
}

/// A finished job.
#[derive(Debug, Clone)]
pub enum JobResult {
    /// A generated puzzle, or why there is none (cancelled, stopped).
    Generated {
        /// The job's id.
        id: u64,
        /// The puzzle, or a message.
        result: Result<Graded, String>,
        /// The game's title (the daily puzzle's date).
        title: Option<String>,
    },
    /// A puzzle for the pool, or why there is none.
    Refilled {
        /// The job's id.
        id: u64,
        /// The puzzle, or a message.
        result: Result<Graded, String>,
    },
    /// A hint found (None: nothing to say).
    Hint {
        /// The job's id.
        id: u64,
        /// The hint.
        hint: Option<Hint>,
    },
    /// A logic path, or why there is none.
    Walk {
        /// The job's id.
        id: u64,
        /// The path.
        walk: Result<Box<LogicWalk>, String>,
    },
    /// A solved puzzle.
    Solved {
        /// The job's id.
        id: u64,
        /// The puzzle.
        puzzle: Puzzle,
        /// Where it came from.
        origin: Origin,
        /// What the solver found.
        outcome: Outcome,
    },
}

impl JobResult {
    /// The id of the job this answers.
    pub fn id(&self) -> u64 {
        match self {
            JobResult::Generated { id, .. }
            | JobResult::Refilled { id, .. }
            | JobResult::Hint { id, .. }
            | JobResult::Walk { id, .. }
            | JobResult::Solved { id, .. } => *id,
        }
    }
}

/// Runs one job to the end or until `cancel` is raised.
pub fn run_job(job: Job, cancel: Arc<AtomicBool>) -> JobResult {
    let limits = Limits::none().with_cancel(cancel);
    match job.kind {
        JobKind::Generate { shape, level, seed } => JobResult::Generated {
            id: job.id,
            result: for_play(shape, level, seed, limits),
            title: None,
        },
        JobKind::Refill { shape, level, seed } => JobResult::Refilled {
            id: job.id,
            result: for_play(shape, level, seed, limits),
        },
        JobKind::Daily { date } => JobResult::Generated {
            id: job.id,
            result: generate_graded(&daily_options(date), &limits)
                .map_err(|stop| format!("generation {stop}")),
            title: Some(format!("daily {date}")),
        },
        JobKind::Hint { game } => JobResult::Hint {
            id: job.id,
            hint: LogicHinter.hint(&game),
        },
        JobKind::Walk { game } => JobResult::Walk {
            id: job.id,
            walk: LogicWalk::new(&game, &limits)
                .map(Box::new)
                .map_err(|e| e.to_string()),
        },
        JobKind::Solve { puzzle, origin } => {
            let outcome = Solver::new().solve(&puzzle, &limits, &mut NoTrace);
            JobResult::Solved {
                id: job.id,
                puzzle,
                origin,
                outcome,
            }
        }
    }
}

/// A puzzle to play: 180° symmetric, searched for the level for a few
/// seconds (4 up to 16×16, 30 above), then the closest found. It fails
/// only when cancelled or when not even one try finishes in time.
fn for_play(shape: Shape, level: Level, seed: u64, limits: Limits) -> Result<Graded, String> {
    let mut opts = GenerateOptions::new(shape, level, seed);
    opts.symmetry = Symmetry::Rotate180;
    let budget = Duration::from_secs(if shape.n() <= 16 { 4 } else { 30 });
    let limits = Limits {
        deadline: Instant::now().checked_add(budget),
        ..limits
    };
    generate_graded(&opts, &limits).map_err(|stop| format!("generation {stop}"))
}

/// Starts the worker thread: it takes `(job, cancel flag)` pairs and sends
/// back results until either channel closes.
pub fn spawn(
    jobs: Receiver<(Job, Arc<AtomicBool>)>,
    results: Sender<JobResult>,
) -> std::io::Result<JoinHandle<()>> {
    std::thread::Builder::new()
        .name("dekadoku-worker".into())
        .spawn(move || {
            for (job, cancel) in jobs {
                if results.send(run_job(job, cancel)).is_err() {
                    break;
                }
            }
        })
}
