//! Jobs on the worker: starting them, and what their results do (a new
//! game, a solved import, a hint, a logic path, a refilled pool).

use std::time::Duration;

use crate::engine::generate::Graded;
use crate::engine::generate::bundled::bundled;
use crate::engine::{Grid, Level, Outcome, Puzzle, Shape};
use crate::game::{Game, Origin};

use super::menus::new_game_screen;
use super::{
    AUTOSAVE_AFTER, App, Effect, Named, Pending, Position, Screen, Unsaved, daily_date,
    first_empty, size_label, stats_key,
};
use crate::tui::action::{Command, Loaded};
use crate::tui::worker::{Job, JobError, JobKind, JobResult};

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
                let pending = self.pending_walk.take();
                let fresh = self.is_fresh(pending, id);
                if fresh && matches!(self.screen, Screen::Playing) {
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
                let pending = self.pending_hint.take();
                if self.is_fresh(pending, id) {
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
                Ok(graded) => self.generated(graded, title, fx),
                Err(e) => {
                    if let Screen::Working { shape, level, .. } = self.screen {
                        self.screen = new_game_screen(shape, level);
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
        }
        if self.pending_hint.is_some_and(|p| p.job == id) {
            self.pending_hint = None;
        }
        if self.pending_walk.is_some_and(|p| p.job == id) {
            self.pending_walk = None;
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

    /// Whether a hint or logic path answered by job `id` is the one asked
    /// for, for the position still on the board.
    fn is_fresh(&self, pending: Option<Pending>, id: u64) -> bool {
        pending.is_some_and(|p| {
            p.job == id && self.game.as_ref().is_some_and(|g| Position::of(g) == p.at)
        })
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
        let label = size_label(shape);
        let seed = self.next_seed();
        let id = self.job(JobKind::Generate { shape, level, seed }, fx);
        self.screen = Screen::Working {
            job: id,
            what: format!("generating a {label} {level} puzzle (seed {seed})"),
            shape,
            level,
        };
    }

    /// Plays a shipped puzzle now instead of waiting for the generator.
    pub(super) fn ready_puzzle(&mut self, fx: &mut Vec<Effect>) {
        let Screen::Working {
            job, shape, level, ..
        } = self.screen.clone()
        else {
            return;
        };
        let list = bundled(shape, level);
        if list.is_empty() {
            self.status = "no ready puzzle of this size and level".into();
            return;
        }
        fx.push(Effect::Cancel(job));
        let pick = (self.next_seed() % list.len() as u64) as usize;
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
