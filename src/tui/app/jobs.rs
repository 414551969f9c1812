//! Jobs on the worker: starting them, and what their results do (a new
//! game, a solved import, a hint, a logic path, a refilled pool).

use crate::engine::generate::bundled::bundled;
use crate::engine::{Grid, Level, Outcome, Puzzle, Shape};
use crate::game::{Game, Origin};

use super::menus::new_game_screen;
use super::{AUTOSAVE_AFTER, App, Effect, Screen, first_empty, position, size_label, stats_key};
use crate::tui::action::{Command, Loaded};
use crate::tui::worker::{Job, JobKind, JobResult};

impl App {
    /// Starts a job on the worker, cancelling a running pool refill first
    /// (the worker runs one job at a time; a refill must never make the
    /// player wait).
    pub(super) fn job(&mut self, kind: JobKind, fx: &mut Vec<Effect>) -> u64 {
        if let Some(refill) = self.refill.take() {
            fx.push(Effect::Cancel(refill));
        }
        let id = self.next_job;
        self.next_job += 1;
        fx.push(Effect::Start(Job { id, kind }));
        id
    }

    pub(super) fn job_done(&mut self, r: JobResult, fx: &mut Vec<Effect>) {
        if let JobResult::Traced { id, finished } = r {
            if let Screen::Watch { playback, .. } = &mut self.screen
                && playback.job == Some(id)
            {
                playback.answered(finished);
            }
            return;
        }
        if let JobResult::Walk { id, walk } = r {
            let fresh = self.pending_walk.take().filter(|&(j, at)| {
                j == id && self.game.as_ref().is_some_and(|g| position(g) == at)
            });
            if fresh.is_some() && matches!(self.screen, Screen::Playing) {
                match walk {
                    Ok(walk) => {
                        self.status = if walk.from_givens() {
                            "the board has wrong entries: the path starts from the givens".into()
                        } else {
                            String::new()
                        };
                        self.hint = None;
                        self.screen = Screen::Logic { walk };
                    }
                    Err(e) => self.status = e,
                }
            }
            return;
        }
        if let JobResult::Refilled { id, result } = r {
            if self.refill == Some(id) {
                self.refill = None;
            }
            // An error means cancelled (the player wanted the worker) or out
            // of time: the next idle tick tries again.
            if let Ok(graded) = result {
                self.refilled(graded, fx);
            }
            return;
        }
        if let JobResult::Hint { id, hint } = r {
            let fresh = self.pending_hint.take().filter(|&(j, at)| {
                j == id && self.game.as_ref().is_some_and(|g| position(g) == at)
            });
            if fresh.is_some() {
                self.show_hint(hint);
            }
            return;
        }
        let Screen::Working { job, .. } = &self.screen else {
            return; // stale: nobody waits for it
        };
        if *job != r.id() {
            return;
        }
        match r {
            // Answered above.
            JobResult::Hint { .. }
            | JobResult::Walk { .. }
            | JobResult::Refilled { .. }
            | JobResult::Traced { .. } => {}
            JobResult::Generated { result, title, .. } => match result {
                Ok(graded) => {
                    // The level the grader measured (not the one asked for
                    // when the closest puzzle found missed it).
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
                            self.status = format!(
                                "new puzzle: {level} (no {asked} puzzle found in time), {clues} clues"
                            );
                        }
                        None => {
                            self.status = format!(
                                "new puzzle: {clues} clues (not graded: grading ran out of time)"
                            );
                        }
                        Some(_) => {}
                    }
                }
                Err(e) => {
                    if let Screen::Working { shape, level, .. } = self.screen {
                        self.screen = new_game_screen(shape, level);
                    }
                    self.status = e;
                }
            },
            JobResult::Solved {
                puzzle,
                origin,
                outcome,
                ..
            } => {
                let (solution, note) = match outcome {
                    Outcome::Solved(g) => (Some(g), String::new()),
                    Outcome::Multiple(_, _) => (
                        None,
                        "note: this puzzle has more than one solution; check and hints are off"
                            .into(),
                    ),
                    Outcome::NoSolution => (None, "note: this puzzle has no solution".to_string()),
                    Outcome::InvalidGivens(c) => (
                        None,
                        format!(
                            "note: the givens conflict ({}); check and hints are off",
                            c.first().map(|c| c.to_string()).unwrap_or_default()
                        ),
                    ),
                    Outcome::Stopped(s) => {
                        (None, format!("note: solving {s}; check and hints are off"))
                    }
                };
                let game = Game::new(&puzzle, solution, origin);
                self.start_game(game, fx);
                self.status = note;
            }
        }
    }

    pub(super) fn loaded(&mut self, l: Loaded, fx: &mut Vec<Effect>) {
        match l {
            Loaded::Recovered(g, why) => {
                self.loaded(Loaded::Game(g), fx);
                self.status = why;
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
                self.cursor = first_empty(&g);
                self.game = Some(g);
                self.screen = Screen::Playing;
                self.overlay = None;
                self.hint = None;
                self.status = "resumed".into();
            }
            Loaded::Error(e) => self.status = e,
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
        fx.push(Effect::RecordStart(stats_key(&game)));
        self.cursor = first_empty(&game);
        self.game = Some(game);
        self.screen = Screen::Playing;
        self.overlay = None;
        self.hint = None;
        self.note_mode = false;
        self.typed.reset();
        self.dirty = true;
        self.quiet = AUTOSAVE_AFTER;
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
