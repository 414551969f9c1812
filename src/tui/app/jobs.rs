//! Jobs on the worker: starting them, and what their results do (a new
//! game, a solved import, a hint, a logic path, a refilled pool).

use std::time::Duration;

use crate::engine::generate::bundled::bundled;
use crate::engine::generate::{Graded, Progress};
use crate::engine::{Grid, Level, Outcome, Puzzle, Shape};
use crate::game::{Game, Origin};

use super::menus::{FallbackChoice, cycle, fallback_choices, new_game_screen};
use super::play::Ask;
use super::{
    AUTOSAVE_AFTER, App, Effect, Named, Screen, Unsaved, daily_date, first_empty, size_label,
    stats_key,
};
use crate::tui::action::{Command, Loaded};
use crate::tui::worker::{Job, JobError, JobKind, JobResult, play_budget};

/// Each "keep waiting" doubles the search's time, up to this many times
/// the first search's.
const LONGEST_SEARCH: u32 = 8;

/// A new game's search for its level while the player waits: what the
/// generator says as it works, and the time it has.
#[derive(Debug, Clone)]
pub struct Search {
    /// What the generator says (tries, digging or grading, the closest
    /// level so far).
    pub progress: Progress,
    /// Time this search has run, as the ticks said.
    pub elapsed: Duration,
    /// Time it has before the closest puzzle found is offered.
    pub budget: Duration,
    /// 1 for the first search, one more each time the player keeps
    /// waiting.
    pub round: u32,
    /// Time the earlier searches ran.
    pub before: Duration,
    /// The closest puzzle the earlier searches found.
    pub earlier: Option<Box<Graded>>,
}

impl Search {
    /// The first search for a new game of `shape`.
    fn first(shape: Shape) -> Search {
        Search {
            progress: Progress::new(),
            elapsed: Duration::ZERO,
            budget: play_budget(shape),
            round: 1,
            before: Duration::ZERO,
            earlier: None,
        }
    }

    /// The level of the closest puzzle found so far, in this search or an
    /// earlier one, for `asked`.
    pub fn closest(&self, asked: Level) -> Option<Level> {
        let now = self.progress.best();
        match self.earlier.as_ref().and_then(|g| g.level()) {
            Some(e) if miss(asked, Some(e)) <= miss(asked, now) => Some(e),
            _ => now,
        }
    }
}

/// No puzzle of the level asked was found in time: what was asked, the
/// closest found, and what the next search would get.
#[derive(Debug, Clone)]
pub struct Missed {
    /// The shape asked for.
    pub shape: Shape,
    /// The level asked for.
    pub level: Level,
    /// The closest puzzle found (over every search so far).
    pub closest: Graded,
    /// The searches run so far.
    pub rounds: u32,
    /// The last search's time: the next has twice as long.
    pub budget: Duration,
    /// Time all the searches ran, as the ticks said.
    pub spent: Duration,
    /// Whether the game ships puzzles of this shape and level.
    pub shipped: bool,
}

impl Missed {
    /// The time a search after this one has (twice the last, at most
    /// `LONGEST_SEARCH` times the first).
    pub fn next_budget(&self) -> Duration {
        (self.budget * 2).min(play_budget(self.shape) * LONGEST_SEARCH)
    }
}

/// Levels between `got` and `asked` (a puzzle not graded is the farthest).
fn miss(asked: Level, got: Option<Level>) -> usize {
    got.map_or(usize::MAX, |l| (l as usize).abs_diff(asked as usize))
}

impl App {
    /// Starts a job on the worker, cancelling a running pool refill first
    /// (the worker runs one job at a time; a refill must never make the
    /// player wait).
    pub(super) fn job(&mut self, kind: JobKind, fx: &mut Vec<Effect>) -> u64 {
        if let Some(refill) = self.pool.refill.take() {
            fx.push(Effect::Cancel(refill));
        }
        let id = self.new_id();
        fx.push(Effect::Start(Job { id, kind }));
        id
    }

    /// A fresh id for a job or a read.
    pub(super) fn new_id(&mut self) -> u64 {
        let id = self.next_job;
        self.next_job += 1;
        id
    }

    /// What a finished job does. Results nobody waits for any more (the
    /// player moved on, cancelled, or asked again) are dropped.
    pub(super) fn job_done(&mut self, r: JobResult, fx: &mut Vec<Effect>) {
        let waited = matches!(self.screen, Screen::Working { job, .. } if job == r.id());
        match r {
            JobResult::Traced { id, finished } => {
                if let Screen::Watch { playback, .. } = &mut self.screen
                    && playback.job == Some(id)
                {
                    playback.answered(finished);
                }
            }
            JobResult::Walk { id, walk } => {
                if self.answered(Ask::Path, id) && matches!(self.screen, Screen::Playing) {
                    match walk {
                        Ok(walk) => {
                            self.status = if walk.from_givens() {
                                "the board has wrong entries: the path starts from the givens"
                                    .into()
                            } else {
                                String::new()
                            };
                            self.hint = None;
                            self.screen = Screen::Logic { walk };
                        }
                        Err(e) => self.status = e.to_string(),
                    }
                }
            }
            JobResult::Hint { id, hint } => {
                if self.answered(Ask::Hint, id) {
                    self.show_hint(hint);
                }
            }
            JobResult::Refilled { id, result } => {
                if self.pool.refill == Some(id) {
                    self.pool.refill = None;
                }
                // An error means cancelled (the player wanted the worker)
                // or out of time: the next idle tick tries again.
                if let Ok(graded) = result {
                    self.refilled(graded, fx);
                }
            }
            JobResult::Generated { result, title, .. } if waited => match result {
                Ok(graded) => {
                    let search = match &mut self.screen {
                        Screen::Working { search, .. } => search.take(),
                        _ => None,
                    };
                    match search {
                        Some(search) if title.is_none() => self.searched(graded, *search, fx),
                        _ => self.generated(graded, title, fx),
                    }
                }
                Err(e) => {
                    if let Screen::Working {
                        shape,
                        level,
                        search,
                        ..
                    } = &mut self.screen
                    {
                        // A search after "keep waiting" that made nothing
                        // still leaves the closest of the earlier ones.
                        if let Some(search) = search.take()
                            && e != JobError::Cancelled
                            && let Some(earlier) = search.earlier.clone()
                        {
                            self.searched(*earlier, *search, fx);
                            return;
                        }
                        self.screen = new_game_screen(*shape, *level);
                    }
                    self.status = e.to_string();
                }
            },
            JobResult::Solved {
                puzzle,
                origin,
                outcome,
                ..
            } if waited => self.solved(&puzzle, origin, outcome, fx),
            JobResult::Failed { id, error } => self.failed(id, waited, &error),
            // Stale: nobody waits for it.
            JobResult::Generated { .. } | JobResult::Solved { .. } => {}
        }
    }

    /// A job stopped on an internal error: whoever waited for it stops
    /// waiting, and the status line says what happened. A failed refill
    /// ends refilling for the session (it would fail again every tick).
    fn failed(&mut self, id: u64, waited: bool, error: &JobError) {
        if self.pool.refill == Some(id) {
            self.pool.refill = None;
            self.pool.stop_refilling();
            // A refill the server stopped for its memory is nothing the
            // player asked for: it ends quietly.
            if matches!(error, JobError::Memory { .. }) {
                return;
            }
        }
        // Nothing waits for it any more.
        for what in [Ask::Hint, Ask::Path] {
            self.pending(what).take_if(|p| p.job == id);
        }
        if waited && let Screen::Working { shape, level, .. } = self.screen {
            self.screen = new_game_screen(shape, level);
        }
        if let Screen::Watch { playback, stopped } = &mut self.screen
            && playback.job == Some(id)
        {
            playback.job = None;
            playback.paused = true;
            *stopped = true;
        }
        self.notify(error.to_string());
    }

    /// A new game's search ended: the puzzle is played when it has the
    /// level asked; otherwise the player chooses what to do with the
    /// closest found (over this search and the earlier ones).
    fn searched(&mut self, graded: Graded, search: Search, fx: &mut Vec<Effect>) {
        let Screen::Working { shape, level, .. } = self.screen else {
            return;
        };
        if graded.level() == Some(level) {
            self.generated(graded, None, fx);
            return;
        }
        let closest = match search.earlier {
            Some(e) if miss(level, e.level()) <= miss(level, graded.level()) => *e,
            _ => graded,
        };
        self.screen = Screen::Fallback {
            sel: FallbackChoice::KeepWaiting,
            missed: Box::new(Missed {
                shape,
                level,
                closest,
                rounds: search.round,
                budget: search.budget,
                spent: search.before + search.elapsed,
                shipped: !bundled(shape, level).is_empty(),
            }),
        };
        self.status.clear();
    }

    /// The dialog after a search that missed the level: ↑/↓ and Enter (or
    /// a choice's letter, see [`App::key`]) choose, Esc goes back to the
    /// new-game dialog.
    pub(super) fn fallback_command(&mut self, cmd: Command, fx: &mut Vec<Effect>) {
        let Screen::Fallback { sel, missed } = &mut self.screen else {
            return;
        };
        let choices = fallback_choices(missed.shipped);
        match cmd {
            Command::MoveUp | Command::MoveDown => {
                *sel = cycle(&choices, *sel, cmd == Command::MoveDown)
            }
            Command::Confirm => {
                let choice = *sel;
                self.fallback_choose(choice, fx)
            }
            Command::Cancel => {
                self.screen = new_game_screen(missed.shape, missed.level);
                self.status = "no new game started".into();
            }
            _ => {}
        }
    }

    /// Does what a choice of the fallback dialog says.
    pub(super) fn fallback_choose(&mut self, choice: FallbackChoice, fx: &mut Vec<Effect>) {
        let Screen::Fallback { missed, .. } = &self.screen else {
            return;
        };
        let missed = (**missed).clone();
        let (shape, level) = (missed.shape, missed.level);
        match choice {
            FallbackChoice::KeepWaiting => {
                let search = Search {
                    progress: Progress::new(),
                    elapsed: Duration::ZERO,
                    budget: missed.next_budget(),
                    round: missed.rounds + 1,
                    before: missed.spent,
                    earlier: Some(Box::new(missed.closest)),
                };
                self.search(shape, level, search, fx);
            }
            FallbackChoice::PlayClosest => {
                let got = missed.closest.level();
                let rating = missed.closest.grade.as_ref().map(|g| g.rating);
                let clues = missed.closest.generated.clues;
                self.generated(missed.closest, None, fx);
                // The player chose it: no notice, what it is on the status.
                self.notice = None;
                self.status = match (got, rating) {
                    (Some(got), Some(r)) => format!(
                        "new puzzle: {got} (the closest to {level} found), rating {r:.1}, {clues} clues"
                    ),
                    (Some(got), None) => {
                        format!("new puzzle: {got} (the closest to {level} found), {clues} clues")
                    }
                    (None, _) => format!("new puzzle: not graded in time, {clues} clues"),
                };
            }
            FallbackChoice::PlayShipped if missed.shipped => {
                self.play_shipped(shape, level, None, fx);
            }
            FallbackChoice::PlayShipped => {}
        }
    }

    /// Plays a generated puzzle, and says when it missed the level asked.
    fn generated(&mut self, graded: Graded, title: Option<String>, fx: &mut Vec<Effect>) {
        // The level the grader measured (not the one asked for when the
        // closest puzzle found missed it).
        let level = graded.level();
        let rating = graded.grade.as_ref().map(|g| g.rating);
        let made = graded.generated;
        let (asked, clues) = (made.level, made.clues);
        let origin = Origin {
            level,
            seed: Some(made.seed),
            title,
        };
        self.play_made(&made.puzzle, made.solution, origin, rating, fx);
        match level {
            Some(level) if level != asked => {
                self.notify(format!(
                    "new puzzle: {level}, not the {asked} asked for (none found in time), {clues} clues"
                ));
            }
            None => {
                self.notify(format!(
                    "new puzzle: {clues} clues, not graded (grading ran out of time)"
                ));
            }
            Some(_) => {}
        }
    }

    /// Plays a solved import or ready puzzle; what the solver found about
    /// it goes on the status line.
    fn solved(&mut self, puzzle: &Puzzle, origin: Origin, outcome: Outcome, fx: &mut Vec<Effect>) {
        let (solution, note) = match outcome {
            Outcome::Solved(g) => (Some(g), String::new()),
            Outcome::Multiple(_, _) => (
                None,
                "note: this puzzle has more than one solution; check and hints are off".into(),
            ),
            Outcome::NoSolution => (None, "note: this puzzle has no solution".to_string()),
            Outcome::InvalidGivens(c) => (
                None,
                format!(
                    "note: the givens conflict ({}); check and hints are off",
                    c.first().map(|c| c.to_string()).unwrap_or_default()
                ),
            ),
            Outcome::Stopped(s) => (None, format!("note: solving {s}; check and hints are off")),
        };
        let game = Game::new(puzzle, solution, origin);
        self.start_game(game, fx);
        self.status = note;
    }

    pub(super) fn loaded(&mut self, l: Loaded, fx: &mut Vec<Effect>) {
        let name = self.loading.take();
        match l {
            Loaded::Recovered(g, why) => {
                // From a backup: the named save does not hold this game.
                self.loaded(Loaded::Game(g), fx);
                self.status = format!("{why}; resumed its backup");
            }
            Loaded::Game(g) => {
                let g = *g;
                let fresh =
                    g.history().undo.is_empty() && g.progress().0 == g.puzzle().clue_count();
                if g.solution().is_none() && fresh {
                    // A fresh import: wait for the solver (fast) so check and
                    // hints work. A resumed save keeps what it had (its
                    // solution was saved when known).
                    let id = self.job(
                        JobKind::Solve {
                            puzzle: g.puzzle(),
                            origin: g.origin().clone(),
                        },
                        fx,
                    );
                    self.screen = Screen::Working {
                        job: id,
                        what: "solving the imported puzzle".into(),
                        shape: g.shape(),
                        level: Level::Medium,
                        search: None,
                    };
                    return;
                }
                self.keep_unfinished(fx);
                self.named = name.map(|name| Named {
                    name,
                    unchanged: true,
                });
                self.cursor = g.cursor().unwrap_or_else(|| first_empty(&g));
                self.game = Some(g);
                self.screen = Screen::Playing;
                self.overlay = None;
                self.hint = None;
                self.status = "resumed".into();
            }
            Loaded::Error(e) => self.status = e.to_string(),
        }
    }

    /// Generates a puzzle on the worker while the player waits.
    pub(super) fn generate(&mut self, shape: Shape, level: Level, fx: &mut Vec<Effect>) {
        self.search(shape, level, Search::first(shape), fx);
    }

    /// Starts `search` for a puzzle of this shape and level from a new
    /// seed; the Working screen shows its progress.
    fn search(&mut self, shape: Shape, level: Level, search: Search, fx: &mut Vec<Effect>) {
        let label = size_label(shape);
        let seed = self.next_seed();
        let id = self.job(
            JobKind::Generate {
                shape,
                level,
                seed,
                budget: search.budget,
                progress: search.progress.clone(),
            },
            fx,
        );
        self.screen = Screen::Working {
            job: id,
            what: format!("generating a {label} {level} puzzle (seed {seed})"),
            shape,
            level,
            search: Some(Box::new(search)),
        };
    }

    /// Plays a shipped puzzle now instead of waiting for the generator.
    pub(super) fn ready_puzzle(&mut self, fx: &mut Vec<Effect>) {
        let Screen::Working {
            job, shape, level, ..
        } = self.screen
        else {
            return;
        };
        self.play_shipped(shape, level, Some(job), fx);
    }

    /// Opens a shipped puzzle of this shape and level (another than the
    /// one last played, when there are several), cancelling job `cancel`
    /// first; says so when none is shipped.
    fn play_shipped(
        &mut self,
        shape: Shape,
        level: Level,
        cancel: Option<u64>,
        fx: &mut Vec<Effect>,
    ) {
        let list = bundled(shape, level);
        if list.is_empty() {
            self.status = "no ready puzzle of this size and level".into();
            return;
        }
        if let Some(job) = cancel {
            fx.push(Effect::Cancel(job));
        }
        let len = list.len() as u64;
        let r = self.next_seed();
        let pick = match self.last_shipped {
            Some((s, l, last)) if (s, l) == (shape, level) && len > 1 && (last as u64) < len => {
                let i = (r % (len - 1)) as usize;
                i + usize::from(i >= last)
            }
            _ => (r % len) as usize,
        };
        self.last_shipped = Some((shape, level, pick));
        let origin = Origin {
            level: Some(level),
            seed: None,
            title: Some(format!("ready puzzle {}", pick + 1)),
        };
        let id = self.job(
            JobKind::Solve {
                puzzle: list[pick].clone(),
                origin,
            },
            fx,
        );
        self.screen = Screen::Working {
            job: id,
            what: "opening a ready puzzle".into(),
            shape,
            level,
            search: None,
        };
    }

    /// Starts a freshly made puzzle (generated or pooled) and says what it
    /// is on the status line.
    pub(super) fn play_made(
        &mut self,
        puzzle: &Puzzle,
        solution: Grid,
        origin: Origin,
        rating: Option<f32>,
        fx: &mut Vec<Effect>,
    ) {
        let clues = puzzle.clue_count();
        let level = origin.level;
        self.start_game(Game::new(puzzle, Some(solution), origin), fx);
        self.status = match (level, rating) {
            (Some(level), Some(r)) => format!("new puzzle: {level}, rating {r:.1}, {clues} clues"),
            _ => format!("new puzzle: {clues} clues"),
        };
    }

    pub(super) fn start_game(&mut self, game: Game, fx: &mut Vec<Effect>) {
        fx.push(Effect::RecordStart {
            key: stats_key(&game),
            daily: daily_date(&game),
        });
        self.keep_unfinished(fx);
        self.cursor = first_empty(&game);
        self.game = Some(game);
        self.screen = Screen::Playing;
        self.overlay = None;
        self.hint = None;
        self.note_mode = false;
        self.typed.reset();
        // Saved at the next tick: a new game is kept at once.
        self.unsaved = Some(Unsaved {
            age: Duration::ZERO,
            quiet: AUTOSAVE_AFTER,
        });
    }

    /// Waiting for the worker: Esc cancels (`r` for a ready puzzle is a key
    /// of its own, see [`App::key`]).
    pub(super) fn working_command(&mut self, cmd: Command, fx: &mut Vec<Effect>) {
        let Screen::Working {
            job, shape, level, ..
        } = &self.screen
        else {
            return;
        };
        if cmd == Command::Cancel {
            fx.push(Effect::Cancel(*job));
            self.screen = new_game_screen(*shape, *level);
            self.status = "cancelled".into();
        }
    }
}
