//! Watching a solver solve the puzzle: choosing it, the playback's keys,
//! and keeping the board it reached.

use super::menus::cycle;
use super::{App, Effect, Screen, StartItem};
use crate::tui::action::Command;
use crate::tui::playback::{Phase, Playback, WatchSolver};
use crate::tui::worker::JobKind;

impl App {
    /// Starts the chosen solver on the puzzle's givens.
    pub(super) fn start_watch(&mut self, solver: WatchSolver, fx: &mut Vec<Effect>) {
        let Some(g) = &self.game else {
            self.screen = Screen::Start {
                sel: StartItem::NewGame,
            };
            return;
        };
        let puzzle = g.puzzle();
        let id = self.job(
            JobKind::Trace {
                puzzle: puzzle.clone(),
                solver,
            },
            fx,
        );
        self.hint = None;
        self.status = String::new();
        self.screen = Screen::Watch {
            playback: Box::new(Playback::new(solver, &puzzle, id)),
            stopped: false,
        };
    }

    /// The solver view's keys: steps, speed, pause, finish; Esc stops the
    /// solver (and, once stopped or done, goes back to the game as it
    /// was); Enter keeps the board shown as one undoable move.
    pub(super) fn watch_command(&mut self, cmd: Command, fx: &mut Vec<Effect>) {
        let Screen::Watch { playback, stopped } = &mut self.screen else {
            return;
        };
        match cmd {
            Command::MoveRight => playback.step_forward(),
            Command::MoveLeft => {
                self.status = if playback.step_back() {
                    String::new()
                } else if playback.position() == 0 {
                    "at the start".into()
                } else {
                    format!(
                        "cannot step back further: only the events since #{} are kept",
                        playback.earliest()
                    )
                };
            }
            Command::MoveUp => playback.faster(),
            Command::MoveDown => playback.slower(),
            Command::Pause | Command::ToggleNoteMode => playback.toggle_pause(),
            Command::Finish => {
                if playback.finish()
                    && let Some(job) = playback.job
                {
                    fx.push(Effect::MuteTrace(job));
                }
            }
            Command::Cancel if !*stopped && playback.phase != Phase::Done => {
                if let Some(job) = playback.job.take() {
                    fx.push(Effect::Cancel(job));
                }
                playback.paused = true;
                *stopped = true;
                self.status = "stopped: Enter keeps the board shown, Esc goes back to yours".into();
            }
            Command::Cancel | Command::Watch => {
                if let Some(job) = playback.job.take() {
                    fx.push(Effect::Cancel(job));
                }
                self.status = "back to your board, as it was".into();
                self.screen = Screen::Playing;
            }
            Command::Confirm => {
                if let Some(job) = playback.job.take() {
                    fx.push(Effect::Cancel(job));
                }
                let values = playback.board().to_vec();
                let kept = self.game.as_mut().is_some_and(|g| g.take_board(&values));
                self.screen = Screen::Playing;
                if kept {
                    self.after_move(fx);
                }
                self.status = if kept {
                    "kept the solver's board (undo takes it back)".into()
                } else {
                    "the solver's board is the same as yours".into()
                };
            }
            _ => {}
        }
    }

    /// The traced job the solver view wants events from, and how many.
    pub fn trace_wanted(&self) -> Option<(u64, usize)> {
        match &self.screen {
            Screen::Watch { playback, .. } => Some((playback.id, playback.wanted())),
            _ => None,
        }
    }

    /// Whether the screen animates (the runner then ticks every frame).
    pub fn animating(&self) -> bool {
        match &self.screen {
            Screen::Watch { playback, .. } => {
                (playback.phase == Phase::Playing && !playback.paused)
                    || playback.phase == Phase::Finishing
            }
            _ => false,
        }
    }

    /// Choosing the solver to watch.
    pub(super) fn watch_menu_command(&mut self, cmd: Command, fx: &mut Vec<Effect>) {
        let Screen::WatchMenu { sel } = &mut self.screen else {
            return;
        };
        match cmd {
            Command::MoveUp => *sel = cycle(&WatchSolver::all(), *sel, false),
            Command::MoveDown => *sel = cycle(&WatchSolver::all(), *sel, true),
            Command::Confirm => {
                let s = *sel;
                self.start_watch(s, fx)
            }
            Command::Cancel | Command::Watch => self.screen = Screen::Playing,
            _ => {}
        }
    }
}
