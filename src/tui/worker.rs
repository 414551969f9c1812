//! The one background thread for long engine work: generating a puzzle,
//! solving an imported one, finding a hint, working out a
//! logic path, running a solver for the solver view (its trace goes out
//! over a bounded channel, [`TraceOut`]), refilling the puzzle pool (low priority: the app cancels a
//! refill before it starts anything else). Jobs carry an id and a cancel flag; a result
//! whose id the app no longer waits for is dropped by the app. The thread
//! ends when its job channel closes or a result cannot be sent.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};

use crate::engine::generate::daily::{Date, daily_options};
use crate::engine::generate::{GenerateOptions, Graded, Progress, Symmetry, generate_graded};
use crate::engine::logic::solve_logic;
use crate::engine::{
    Level, Limits, NoTrace, Outcome, Puzzle, Shape, Solver, StopReason, TraceEvent, TraceSink,
};
use crate::game::{Game, Hint, LogicHinter, LogicWalk, Origin, WalkError};

use super::playback::{Counters, Finished, Unfinished, WatchSolver};

/// What to do.
#[derive(Debug, Clone)]
pub enum JobKind {
    /// Generate a unique puzzle for the player waiting.
    Generate {
        /// Its shape.
        shape: Shape,
        /// Its level.
        level: Level,
        /// The seed.
        seed: u64,
        /// How long to search for the level before the closest puzzle
        /// found is returned ([`play_budget`] at first).
        budget: Duration,
        /// Where the generator says what it is doing (the app shows it).
        progress: Progress,
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
    /// Run a solver for the solver view, its trace going to the
    /// [`TraceOut`] the runner gives the job.
    Trace {
        /// The puzzle.
        puzzle: Puzzle,
        /// The solver.
        solver: WatchSolver,
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
#[derive(Debug)]
pub enum JobResult {
    /// A generated puzzle, or why there is none (cancelled, stopped).
    Generated {
        /// The job's id.
        id: u64,
        /// The puzzle, or why there is none.
        result: Result<Graded, JobError>,
        /// The game's title (the daily puzzle's date).
        title: Option<String>,
    },
    /// A puzzle for the pool, or why there is none.
    Refilled {
        /// The job's id.
        id: u64,
        /// The puzzle, or why there is none.
        result: Result<Graded, JobError>,
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
        /// The path, or why there is none.
        walk: Result<Box<LogicWalk>, JobError>,
    },
    /// What a traced solver found.
    Traced {
        /// The job's id.
        id: u64,
        /// Its answer and counters.
        finished: Finished,
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
    /// The job stopped on an internal error (a panic, caught on the
    /// worker, which goes on with the next job).
    Failed {
        /// The job's id.
        id: u64,
        /// What went wrong.
        error: JobError,
    },
}

/// Why a job gave no result. The app shows it on the status line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum JobError {
    /// The generation was cancelled (the player went back, or the app
    /// wanted the worker for something else).
    #[error("generation cancelled")]
    Cancelled,
    /// Not even one try at a puzzle finished in the time given.
    #[error("generation deadline passed")]
    OutOfTime,
    /// Not even one try at a puzzle finished within the node budget.
    #[error("generation node budget spent")]
    OutOfBudget,
    /// The logic path could not be worked out.
    #[error(transparent)]
    Walk(#[from] WalkError),
    /// The server stopped the job: it took more than the memory one job
    /// may (`job_memory_mb`).
    #[error("stopped: the job took more than the server allows one job ({mib} MiB of memory)")]
    Memory {
        /// The cap, in MiB.
        mib: u64,
    },
    /// The job stopped on an internal error; the text is the panic's.
    #[error("internal error in the background job: {0}")]
    Panicked(String),
}

impl From<StopReason> for JobError {
    /// Why a generation stopped, as the job's error.
    fn from(stop: StopReason) -> JobError {
        match stop {
            StopReason::Cancelled => JobError::Cancelled,
            StopReason::Deadline => JobError::OutOfTime,
            StopReason::NodeBudget => JobError::OutOfBudget,
        }
    }
}

impl JobResult {
    /// The id of the job this answers.
    pub fn id(&self) -> u64 {
        match self {
            JobResult::Generated { id, .. }
            | JobResult::Refilled { id, .. }
            | JobResult::Hint { id, .. }
            | JobResult::Walk { id, .. }
            | JobResult::Traced { id, .. }
            | JobResult::Solved { id, .. }
            | JobResult::Failed { id, .. } => *id,
        }
    }
}

/// Where a traced job's events go: a bounded channel (a full one makes
/// the solver wait for the playback) and a flag that mutes the trace when
/// the player jumps to the end.
#[derive(Debug, Clone)]
pub struct TraceOut {
    /// The events.
    pub events: Sender<TraceEvent>,
    /// When raised, events are counted but no longer sent.
    pub mute: Arc<AtomicBool>,
}

/// The sink of a traced job: counts every event, sends them while not
/// muted, and asks the solver to stop once the receiver is gone.
struct ChannelSink {
    out: Option<TraceOut>,
    counters: Counters,
    closed: bool,
}

impl TraceSink for ChannelSink {
    fn event(&mut self, event: TraceEvent) {
        self.counters.count(&event);
        let Some(out) = &self.out else {
            return;
        };
        if self.closed || out.mute.load(Ordering::Relaxed) {
            return;
        }
        if out.events.send(event).is_err() {
            self.closed = true;
        }
    }

    fn wants_stop(&self) -> bool {
        self.closed
    }
}

/// Runs a solver for the solver view: up to two solutions, so the
/// answer says whether the puzzle is unique.
fn traced(
    puzzle: &Puzzle,
    solver: WatchSolver,
    limits: &Limits,
    out: Option<TraceOut>,
) -> Finished {
    let mut sink = ChannelSink {
        out,
        counters: Counters::default(),
        closed: false,
    };
    let start = Instant::now();
    let r = match solver {
        WatchSolver::Logic => solve_logic(puzzle, 2, limits, &mut sink),
        WatchSolver::Exact(backend) => {
            Solver::with_backend(backend).run(puzzle, 2, limits, &mut sink)
        }
    };
    let stopped = if let Some(&first) = r.conflicts.first() {
        Some(Unfinished::InvalidGivens(first))
    } else if let Some(stop) = r.stopped {
        Some(Unfinished::Stopped(stop))
    } else if sink.closed || (!r.exhausted && r.witnesses.len() < 2) {
        Some(Unfinished::Cut)
    } else {
        None
    };
    Finished {
        solutions: r.witnesses,
        exhausted: r.exhausted,
        stopped,
        counters: sink.counters,
        elapsed: start.elapsed(),
    }
}

/// Runs one job to the end or until `cancel` is raised (a traced job
/// without a [`TraceOut`] runs untraced).
pub fn run_job(job: Job, cancel: Arc<AtomicBool>) -> JobResult {
    run_job_traced(job, cancel, None)
}

/// Runs one job, a traced one sending its events to `out`.
pub fn run_job_traced(job: Job, cancel: Arc<AtomicBool>, out: Option<TraceOut>) -> JobResult {
    run_job_within(job, cancel, out, None)
}

/// [`run_job_traced`] stopped after `most` (a server's bound on one job;
/// a new game's search for its level keeps its own shorter budget).
pub fn run_job_within(
    job: Job,
    cancel: Arc<AtomicBool>,
    out: Option<TraceOut>,
    most: Option<Duration>,
) -> JobResult {
    let mut limits = Limits::none().with_cancel(cancel);
    limits.deadline = most.and_then(|d| Instant::now().checked_add(d));
    match job.kind {
        JobKind::Generate {
            shape,
            level,
            seed,
            budget,
            progress,
        } => JobResult::Generated {
            id: job.id,
            result: for_play(shape, level, seed, budget, progress, limits),
            title: None,
        },
        JobKind::Refill { shape, level, seed } => JobResult::Refilled {
            id: job.id,
            result: for_play(
                shape,
                level,
                seed,
                play_budget(shape),
                Progress::default(),
                limits,
            ),
        },
        JobKind::Daily { date } => JobResult::Generated {
            id: job.id,
            result: generate_graded(&daily_options(date), &limits).map_err(JobError::from),
            title: Some(format!("daily {date}")),
        },
        JobKind::Hint { game } => JobResult::Hint {
            id: job.id,
            hint: LogicHinter.hint_within(&game, &limits),
        },
        JobKind::Walk { game } => JobResult::Walk {
            id: job.id,
            walk: LogicWalk::new(&game, &limits)
                .map(Box::new)
                .map_err(JobError::from),
        },
        JobKind::Trace { puzzle, solver } => JobResult::Traced {
            id: job.id,
            finished: traced(&puzzle, solver, &limits, out),
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

/// How long a new game's first search for the level lasts before the
/// closest puzzle found is offered: 4 s up to 16×16, 30 s above.
pub fn play_budget(shape: Shape) -> Duration {
    Duration::from_secs(if shape.n() <= 16 { 4 } else { 30 })
}

/// A puzzle to play: 180° symmetric, searched for the level for `budget`,
/// then the closest found; what the search does goes to `progress`. It
/// fails only when cancelled or when not even one try finishes in time.
fn for_play(
    shape: Shape,
    level: Level,
    seed: u64,
    budget: Duration,
    progress: Progress,
    limits: Limits,
) -> Result<Graded, JobError> {
    let mut opts = GenerateOptions::new(shape, level, seed);
    opts.symmetry = Symmetry::Rotate180;
    opts.progress = progress;
    // The play budget, or the job's own deadline (a server's
    // `job_seconds`) when that comes first.
    let budget = Instant::now().checked_add(budget);
    let limits = Limits {
        deadline: match (limits.deadline, budget) {
            (Some(job), Some(play)) => Some(job.min(play)),
            (job, play) => job.or(play),
        },
        ..limits
    };
    generate_graded(&opts, &limits).map_err(JobError::from)
}

/// A job as the worker thread takes it: the job, its cancel flag, and
/// where its trace goes (traced jobs only).
pub type Ticket = (Job, Arc<AtomicBool>, Option<TraceOut>);

/// The worker thread's name: the runner's panic hook tells a job's panic
/// (caught here, reported as [`JobResult::Failed`]) from the UI's own.
pub const THREAD_NAME: &str = "dekadoku-worker";

/// Starts the worker: it runs each job it receives and sends the result
/// back, until either channel closes. A job that panics does not take the
/// worker with it: the panic becomes [`JobResult::Failed`] and the next
/// job runs.
pub fn spawn(
    jobs: Receiver<Ticket>,
    results: Sender<JobResult>,
) -> std::io::Result<JoinHandle<()>> {
    spawn_with(jobs, results, |(job, cancel, out)| {
        run_job_traced(job, cancel, out)
    })
}

/// [`spawn`] with the function that runs a job given (tests give one that
/// panics).
pub(crate) fn spawn_with(
    jobs: Receiver<Ticket>,
    results: Sender<JobResult>,
    run: impl Fn(Ticket) -> JobResult + Send + 'static,
) -> std::io::Result<JoinHandle<()>> {
    std::thread::Builder::new()
        .name(THREAD_NAME.into())
        .spawn(move || {
            for ticket in jobs {
                let id = ticket.0.id;
                let result = std::panic::catch_unwind(AssertUnwindSafe(|| run(ticket)))
                    .unwrap_or_else(|payload| JobResult::Failed {
                        id,
                        error: JobError::Panicked(panic_text(payload.as_ref())),
                    });
                if results.send(result).is_err() {
                    break;
                }
            }
        })
}

/// The message a panic was raised with.
pub(crate) fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Grid;
    use crate::tui::playback::{Playback, WatchSolver};
    use crossbeam_channel::bounded;

    fn hard() -> Puzzle {
        let s = "........1.....2.....3.4.56...47......5.4.....8...6.45..4..8.63.3.8...2..6.......9";
        crate::engine::format::parse_one(s, "test").unwrap()
    }

    /// A job that panics is reported as failed with the panic's text, and
    /// the worker runs the next job.
    #[test]
    fn a_panicking_job_does_not_take_the_worker_with_it() {
        let (job_tx, job_rx) = crossbeam_channel::unbounded();
        let (res_tx, res_rx) = crossbeam_channel::unbounded();
        let worker = spawn_with(job_rx, res_tx, |(job, cancel, out)| {
            if job.id == 1 {
                panic!("boom in job {}", job.id);
            }
            run_job_traced(job, cancel, out)
        })
        .unwrap();
        let hint = |id| {
            let puzzle = hard();
            let solution = match crate::engine::solve(&puzzle, &Limits::none(), &mut NoTrace) {
                Outcome::Solved(g) => g,
                other => panic!("{other:?}"),
            };
            let game = Game::new(&puzzle, Some(solution), Origin::default());
            let job = Job {
                id,
                kind: JobKind::Hint {
                    game: Box::new(game),
                },
            };
            (job, Arc::new(AtomicBool::new(false)), None)
        };
        job_tx.send(hint(1)).unwrap();
        job_tx.send(hint(2)).unwrap();
        match res_rx.recv().unwrap() {
            JobResult::Failed { id, error } => {
                assert_eq!(id, 1);
                assert_eq!(error, JobError::Panicked("boom in job 1".into()));
                assert_eq!(
                    error.to_string(),
                    "internal error in the background job: boom in job 1"
                );
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            res_rx.recv().unwrap(),
            JobResult::Hint {
                id: 2,
                hint: Some(_)
            }
        ));
        drop(job_tx);
        worker.join().unwrap();
    }

    /// A job's own deadline (a server's `job_seconds`) bounds a new
    /// puzzle even when the play budget is longer: one that has passed
    /// stops the generation before a puzzle is made.
    #[test]
    fn a_jobs_deadline_bounds_generation_under_a_longer_budget() {
        let job = |id| Job {
            id,
            kind: JobKind::Generate {
                shape: Shape::CLASSIC,
                level: Level::Easy,
                seed: 7,
                budget: Duration::from_secs(60),
                progress: Progress::default(),
            },
        };
        let flag = || Arc::new(AtomicBool::new(false));
        match run_job_within(job(1), flag(), None, Some(Duration::ZERO)) {
            JobResult::Generated { id: 1, result, .. } => {
                assert_eq!(result.unwrap_err(), JobError::OutOfTime);
            }
            other => panic!("{other:?}"),
        }
        // Within a minute the same job makes its puzzle.
        match run_job_within(job(2), flag(), None, Some(Duration::from_secs(60))) {
            JobResult::Generated { id: 2, result, .. } => {
                let g = result.unwrap();
                assert!(g.hit(), "{:?}", g.level());
            }
            other => panic!("{other:?}"),
        }
    }

    /// The status line says what it said when the errors were strings.
    #[test]
    fn job_errors_read_as_before() {
        let text = |stop: StopReason| JobError::from(stop).to_string();
        assert_eq!(text(StopReason::Cancelled), "generation cancelled");
        assert_eq!(text(StopReason::Deadline), "generation deadline passed");
        assert_eq!(text(StopReason::NodeBudget), "generation node budget spent");
        for stop in [StopReason::Cancelled, StopReason::Deadline] {
            assert_eq!(text(stop), format!("generation {stop}"));
        }
        let walk = WalkError::Stopped(StopReason::Cancelled);
        assert_eq!(JobError::from(walk.clone()).to_string(), walk.to_string());
    }

    /// Every watchable solver, through the worker and a small bounded
    /// channel, played back to the end: the board shown is the solution.
    #[test]
    fn traced_jobs_stream_events_that_play_back_to_the_solution() {
        let p = hard();
        for solver in WatchSolver::all() {
            let (tx, rx) = bounded(64);
            let out = TraceOut {
                events: tx,
                mute: Arc::new(AtomicBool::new(false)),
            };
            let job = Job {
                id: 9,
                kind: JobKind::Trace {
                    puzzle: p.clone(),
                    solver,
                },
            };
            let worker = std::thread::spawn(move || {
                run_job_traced(job, Arc::new(AtomicBool::new(false)), Some(out))
            });
            let mut pb = Playback::new(solver, &p, 9);
            pb.speed = crate::tui::playback::SPEEDS.len() - 1;
            let events: Vec<TraceEvent> = rx.iter().collect();
            let JobResult::Traced { id: 9, finished } = worker.join().unwrap() else {
                panic!("not a traced result");
            };
            assert_eq!(finished.counters.events, events.len() as u64, "{solver:?}");
            assert_eq!(finished.solutions.len(), 1, "{solver:?}");
            assert!(
                finished.exhausted && finished.stopped.is_none(),
                "{solver:?}"
            );
            for chunk in events.chunks(4096) {
                pb.tick(Duration::from_secs(1));
                pb.receive(chunk.to_vec(), false);
            }
            pb.receive(Vec::new(), true);
            pb.answered(finished.clone());
            let shown: Vec<_> = pb.shown.solution.clone().unwrap_or_default();
            let grid = Grid::from_puzzle(&Puzzle::new(p.shape(), shown).unwrap())
                .unwrap_or_else(|e| panic!("{solver:?}: {e}"));
            assert_eq!(grid, finished.solutions[0], "{solver:?}");
            assert!(p.is_solved_by(&grid));
        }
    }
}
