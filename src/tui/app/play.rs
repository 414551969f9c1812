//! Playing: moves, undo and redo, notes, check and solve, hints in three
//! stages, the logic view, and the autosave.

use tui_input::Input;

use crate::game::{Game, GameSave, Hint};
use crate::store::SaveMeta;

use super::{
    App, Effect, HintState, Overlay, Pending, Position, Screen, StartItem, daily_date, meta,
    stats_key,
};
use crate::tui::action::{Command, UNFINISHED};
use crate::tui::playback::WatchSolver;
use crate::tui::worker::JobKind;

/// What the worker is asked about the position on the board.
#[derive(Clone, Copy)]
pub(super) enum Ask {
    Hint,
    Path,
}

impl Ask {
    /// The status line while the worker works on it.
    fn waiting(self) -> &'static str {
        match self {
            Ask::Hint => "looking for a hint…",
            Ask::Path => "working out the logic path…",
        }
    }
}

impl App {
    pub(super) fn put_value(&mut self, v: crate::engine::Value, fx: &mut Vec<Effect>) {
        let auto = self.config.play.auto_remove_notes;
        let c = self.cursor;
        let note = self.note_mode;
        let Some(g) = &mut self.game else {
            return;
        };
        let changed = if note {
            g.toggle_note(c, v)
        } else {
            g.enter(c, v, auto)
        };
        if changed {
            self.after_move(fx);
        } else if g.is_given(c) {
            self.status = "that cell is a given".into();
        } else if note {
            self.status = "notes go in empty cells".into();
        }
    }

    pub(super) fn after_move(&mut self, fx: &mut Vec<Effect>) {
        self.hint = None;
        self.changed();
        self.status.clear();
        let Some(g) = &mut self.game else {
            return;
        };
        if g.is_solved() {
            let secs = g.elapsed().as_secs();
            self.overlay = Some(Overlay::Solved {
                secs,
                new_best: false,
                best: None,
            });
            self.unsaved = None;
            // A game is won once: a redo of the winning move or a cell
            // typed again shows the board solved, and counts nothing.
            if g.mark_won() {
                fx.push(Effect::RecordWin {
                    key: stats_key(g),
                    secs,
                    hints: g.hints_used(),
                    assisted: g.assisted(),
                    daily: daily_date(g),
                });
            }
            fx.push(Effect::ClearAutosave);
            self.autosave = None;
        }
    }

    pub(super) fn play_command(&mut self, cmd: Command, fx: &mut Vec<Effect>) {
        // Any command ends a value being typed (and what the status line
        // said about it).
        self.drop_typed();
        let wrap = self.config.play.wrap;
        let Some(g) = &mut self.game else {
            self.screen = Screen::Start {
                sel: StartItem::NewGame,
            };
            return;
        };
        let n = g.shape().n();
        let (r, c) = (self.cursor / n, self.cursor % n);
        let step = |x: usize, forward: bool| -> usize {
            match (forward, wrap) {
                (true, true) => (x + 1) % n,
                (true, false) => (x + 1).min(n - 1),
                (false, true) => (x + n - 1) % n,
                (false, false) => x.saturating_sub(1),
            }
        };
        let moved = match cmd {
            Command::MoveUp => Some((step(r, false), c)),
            Command::MoveDown => Some((step(r, true), c)),
            Command::MoveLeft => Some((r, step(c, false))),
            Command::MoveRight => Some((r, step(c, true))),
            _ => None,
        };
        if let Some((r, c)) = moved {
            self.cursor = r * n + c;
            return;
        }
        let changed = match cmd {
            Command::Clear => g.clear(self.cursor),
            Command::ToggleNoteMode => {
                self.note_mode = !self.note_mode;
                false
            }
            Command::Undo => match g.undo() {
                Some(k) => {
                    self.status = format!("undid {}", k.label());
                    self.changed();
                    self.hint = None;
                    return;
                }
                None => {
                    self.status = "nothing to undo".into();
                    false
                }
            },
            Command::Redo => match g.redo() {
                Some(k) => {
                    self.status = format!("redid {}", k.label());
                    true
                }
                None => {
                    self.status = "nothing to redo".into();
                    false
                }
            },
            Command::FillNotes => g.fill_candidates(),
            Command::ClearNotes => g.clear_notes(),
            Command::Check => {
                if g.solution().is_none() {
                    self.status = "no known solution to check against".into();
                } else {
                    let wrong = g.check();
                    self.status = if wrong.is_empty() {
                        "every entry is right so far".into()
                    } else {
                        format!(
                            "{} wrong entr{} marked",
                            wrong.len(),
                            if wrong.len() == 1 { "y" } else { "ies" }
                        )
                    };
                }
                false
            }
            Command::Solve => {
                if g.solution().is_none() {
                    self.status = "no known solution".into();
                } else if !g.is_solved() {
                    self.overlay = Some(Overlay::ConfirmSolve);
                }
                false
            }
            Command::Hint => {
                self.hint_step(fx);
                return;
            }
            Command::Stats => {
                self.open_stats(super::StatsFrom::Playing, fx);
                return;
            }
            Command::Watch => {
                self.screen = Screen::WatchMenu {
                    sel: WatchSolver::Logic,
                };
                return;
            }
            Command::LogicSolve => {
                if g.solution().is_none() {
                    self.status = "the solution is not known yet: no path to show".into();
                } else {
                    self.ask(Ask::Path, fx);
                }
                return;
            }
            Command::Pause => {
                g.set_paused(true);
                self.overlay = Some(Overlay::Paused);
                false
            }
            Command::SaveAs => {
                self.screen = Screen::SaveAs {
                    input: Input::default(),
                };
                false
            }
            Command::Menu => {
                self.autosave_now(fx);
                self.screen = Screen::Start {
                    sel: StartItem::Continue,
                };
                false
            }
            Command::Cancel => {
                if self.hint.is_some() {
                    self.hint = None;
                    self.status.clear();
                } else {
                    self.autosave_now(fx);
                    self.screen = Screen::Start {
                        sel: StartItem::Continue,
                    };
                }
                false
            }
            _ => false,
        };
        if changed {
            self.after_move(fx);
        }
    }

    /// Fills the board from the solution (asked for, then confirmed):
    /// one move, which undo takes back.
    pub(super) fn solve_board(&mut self, fx: &mut Vec<Effect>) {
        let Some(g) = &mut self.game else {
            return;
        };
        if g.solve() {
            self.after_move(fx);
        } else {
            self.status = "no known solution".into();
        }
    }

    /// Stage 1 names the technique and marks the units, stage 2 shows the
    /// cells and the explanation, stage 3 applies the step.
    pub(super) fn hint_step(&mut self, fx: &mut Vec<Effect>) {
        let auto = self.config.play.auto_remove_notes;
        let Some(g) = &mut self.game else {
            return;
        };
        match self.hint.take() {
            None => {
                // The technique solver can take longer than a frame (chains
                // and forcing chains on a hard 9×9, any step on big boards):
                // ask the worker, keep the keys responsive.
                self.ask(Ask::Hint, fx);
            }
            Some(HintState { hint, stage: 1 }) => {
                self.status = format!("{} (press again to apply)", hint.explain(g));
                if let Hint::Wrong { .. } = hint {
                    g.check();
                    self.status = format!("{} — marked on the board", hint.explain(g));
                }
                self.hint = Some(HintState { hint, stage: 2 });
            }
            Some(HintState { hint, .. }) => {
                if g.apply_hint(&hint, auto) {
                    if let Some(&cell) = hint.cells().last() {
                        self.cursor = cell;
                    }
                    self.after_move(fx);
                    self.status = "hint applied (undo takes it back)".into();
                } else {
                    self.status.clear();
                }
            }
        }
    }

    /// Asks the worker for a hint or the logic path of the position on
    /// the board. Asked again before the answer, for the same position,
    /// it keeps waiting for that answer (a second job would only queue
    /// behind the first); for another position the older job is
    /// cancelled.
    fn ask(&mut self, what: Ask, fx: &mut Vec<Effect>) {
        let Some(g) = &self.game else {
            return;
        };
        let at = Position::of(g);
        let waiting = match what {
            Ask::Hint => self.pending_hint,
            Ask::Path => self.pending_walk,
        };
        self.status = what.waiting().into();
        if waiting.is_some_and(|p| p.at == at) {
            return;
        }
        if let Some(old) = waiting {
            fx.push(Effect::Cancel(old.job));
        }
        let game = Box::new(g.clone());
        let kind = match what {
            Ask::Hint => JobKind::Hint { game },
            Ask::Path => JobKind::Walk { game },
        };
        let asked = Some(Pending {
            job: self.job(kind, fx),
            at,
        });
        *self.pending(what) = asked;
    }

    /// The request of this kind waiting for the worker's answer.
    pub(super) fn pending(&mut self, what: Ask) -> &mut Option<Pending> {
        match what {
            Ask::Hint => &mut self.pending_hint,
            Ask::Path => &mut self.pending_walk,
        }
    }

    /// Whether job `id` answers the request of this kind waiting, for the
    /// position still on the board. An answer to that request is taken in
    /// either case, and when the player has left its position the status
    /// line stops saying it is waited for; an answer to an older request
    /// (asked again, or cancelled) leaves the waiting one alone.
    pub(super) fn answered(&mut self, what: Ask, id: u64) -> bool {
        let Some(p) = self.pending(what).take_if(|p| p.job == id) else {
            return false;
        };
        let fresh = self.game.as_ref().is_some_and(|g| Position::of(g) == p.at);
        if !fresh && self.status == what.waiting() {
            self.status.clear();
        }
        fresh
    }

    pub(super) fn show_hint(&mut self, h: Option<Hint>) {
        match h {
            Some(h) => {
                self.status = match &h {
                    Hint::Wrong { .. } => {
                        "Hint: some entries are wrong (press again to see which)".into()
                    }
                    _ => format!("Hint: {} (press again for more)", h.title()),
                };
                self.hint = Some(HintState { hint: h, stage: 1 });
            }
            None => self.status = "no hint: the board is full or the solution is unknown".into(),
        }
    }

    /// The game in play is about to be replaced (a new game, a load, an
    /// import, the daily): one the player has played in and not finished
    /// is kept among the named saves first, so leaving it never loses it.
    /// The game in play is being left: kept among the named saves when
    /// it is in progress, unless the save it came from still holds it as
    /// it is. A game loaded from an `unfinished-…` save goes back there.
    pub(super) fn keep_unfinished(&mut self, fx: &mut Vec<Effect>) {
        let named = self.named.take();
        if named.as_ref().is_some_and(|n| n.unchanged) {
            return;
        }
        if self.game.as_ref().is_some_and(Game::in_progress)
            && let Some((save, meta)) = self.saved_game()
        {
            // A game won and then changed again was not left unfinished.
            if !save.won
                && let Some(g) = &self.game
            {
                fx.push(Effect::RecordUnfinished(stats_key(g)));
            }
            let again = named
                .map(|n| n.name)
                .filter(|name| name.starts_with(UNFINISHED));
            fx.push(Effect::KeepUnfinished(save, meta, again));
        }
    }

    pub(super) fn autosave_now(&mut self, fx: &mut Vec<Effect>) {
        let unsaved = self.unsaved.take().is_some();
        if !self.config.play.autosave {
            return;
        }
        if unsaved
            && self.game.as_ref().is_some_and(|g| !g.is_solved())
            && let Some((save, meta)) = self.saved_game()
        {
            self.autosave = Some(meta.clone());
            fx.push(Effect::Autosave(save, meta));
        }
    }

    /// The game in play as saved (with the player's cell, so Continue puts
    /// the cursor back) and its summary.
    pub(super) fn saved_game(&mut self) -> Option<(Box<GameSave>, SaveMeta)> {
        let cursor = self.cursor;
        let g = self.game.as_mut()?;
        g.set_cursor(cursor);
        Some((Box::new(g.to_save()), meta(g)))
    }

    /// The logic view's keys: → and Enter next step, ← back, ↑/↓ start and
    /// end; Esc back to the game, which the view never changed.
    pub(super) fn logic_command(&mut self, cmd: Command) {
        let Screen::Logic { walk } = &mut self.screen else {
            return;
        };
        match cmd {
            Command::MoveRight | Command::Confirm => {
                walk.forward();
            }
            Command::MoveLeft => {
                walk.back();
            }
            Command::MoveUp => walk.go_to(0),
            Command::MoveDown => walk.go_to(usize::MAX),
            Command::Cancel | Command::LogicSolve => self.screen = Screen::Playing,
            _ => {}
        }
    }
}
