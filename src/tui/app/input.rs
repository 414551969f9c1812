//! Keys and clicks into commands: text fields, values typed on the board
//! (several digits on boards above 9, letters where they are values), the
//! keymap, and mouse clicks through the shared layout.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use tui_input::Input;
use tui_input::backend::crossterm::EventHandler;

use strum::IntoEnumIterator;

use super::{App, Effect, Screen, Setting, fallback_choices};
use crate::game::parse_symbol;
use crate::tui::action::Command;
use crate::tui::keymap::KeyContext;
use crate::tui::layout::{self, Chip, Geometry};
use crate::tui::playback::WatchSolver;
use ratatui::layout::Rect;

impl App {
    pub(super) fn key(&mut self, e: KeyEvent, fx: &mut Vec<Effect>) {
        if e.kind == KeyEventKind::Release {
            return;
        }
        // Text fields take every key but the ones that leave them.
        if let Screen::Import { input } | Screen::SaveAs { input } | Screen::Name { input } =
            &mut self.screen
        {
            match e.code {
                KeyCode::Enter => self.command(Command::Confirm, fx),
                KeyCode::Esc => self.command(Command::Cancel, fx),
                _ if e.modifiers.contains(KeyModifiers::CONTROL)
                    && e.code == KeyCode::Char('c') =>
                {
                    self.command(Command::Quit, fx)
                }
                _ => {
                    input.handle_event(&ratatui::crossterm::event::Event::Key(e));
                }
            }
            return;
        }
        if self.key_context() == KeyContext::Board
            && self.overlay.is_none()
            && self.typed_value(&e, fx)
        {
            return;
        }
        if let Some(mut cmd) = self.keymap.command(self.key_context(), &e) {
            // The statistics close on a plain quit key (`q`), as a pager
            // does; Ctrl+C still quits.
            if cmd == Command::Quit
                && matches!(self.screen, Screen::Stats { .. })
                && !e
                    .modifiers
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
            {
                cmd = Command::Cancel;
            }
            self.command(cmd, fx);
        } else if let KeyCode::Char(c) = e.code {
            // Letters of their own on the waiting screens, when the keymap
            // gives them no command.
            match &self.screen {
                Screen::Working { .. } if c == 'r' => self.ready_puzzle(fx),
                Screen::Fallback { missed, .. } => {
                    let choice = fallback_choices(missed.shipped)
                        .into_iter()
                        .find(|choice| choice.letter() == c);
                    if let Some(choice) = choice {
                        self.fallback_choose(choice, fx);
                    }
                }
                _ => {}
            }
        }
    }

    /// Digits and letters on the board: values (or notes in note mode).
    /// Boards above 9 take several digits, ended by Enter or by a digit
    /// that could not be extended. True when the key was used.
    pub(super) fn typed_value(&mut self, e: &KeyEvent, fx: &mut Vec<Effect>) -> bool {
        let Some(g) = &self.game else {
            return false;
        };
        let n = g.shape().n();
        let KeyCode::Char(ch) = e.code else {
            if !self.typed.value().is_empty() {
                match e.code {
                    KeyCode::Enter => {
                        let text = self.typed.value().to_string();
                        self.typed.reset();
                        if let Some(v) = parse_symbol(n, &text) {
                            self.put_value(v, fx);
                        } else {
                            self.status = format!("{text} is not a value of this board (1–{n})");
                        }
                        return true;
                    }
                    KeyCode::Esc | KeyCode::Backspace => {
                        self.typed.reset();
                        self.status.clear();
                        return true;
                    }
                    _ => {}
                }
            }
            return false;
        };
        if e.modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            return false;
        }
        if ch.is_ascii_digit() {
            let mut text = self.typed.value().to_string();
            if text.is_empty() && ch == '0' {
                self.command(Command::Clear, fx);
                return true;
            }
            text.push(ch);
            let Ok(num) = text.parse::<usize>() else {
                self.typed.reset();
                return true;
            };
            if num > n {
                self.typed.reset();
                self.status = format!("{text} is not a value of this board (1–{n})");
                return true;
            }
            if num.saturating_mul(10) > n {
                self.typed.reset();
                if let Some(v) = parse_symbol(n, &num.to_string()) {
                    self.put_value(v, fx);
                }
            } else {
                self.typed = Input::default().with_value(text.clone());
                self.status = format!("{TYPING}{text}… (Enter to place)");
            }
            return true;
        }
        if let Some(v) = letter_value(n, ch) {
            self.typed.reset();
            self.put_value(v, fx);
            return true;
        }
        // A lower-case letter that is no command here but whose capital is
        // a value: say how values are typed on this board.
        let upper = ch.to_ascii_uppercase();
        if ch.is_ascii_lowercase()
            && self.keymap.command(KeyContext::Board, e).is_none()
            && let Some(v) = letter_value(n, upper)
        {
            self.status = format!(
                "values are capitals here: Shift+{upper} (or {} Enter)",
                v.get()
            );
            return true;
        }
        false
    }

    /// Forgets a value being typed, and the status line's "typing …"
    /// about it.
    pub(super) fn drop_typed(&mut self) {
        if !self.typed.value().is_empty() {
            self.typed.reset();
            if self.status.starts_with(TYPING) {
                self.status.clear();
            }
        }
    }

    pub(super) fn click(&mut self, x: u16, y: u16, fx: &mut Vec<Effect>) {
        if !self.config.play.mouse {
            return;
        }
        let area = self.layout_area();
        let start_items = self.start_items();
        match &mut self.screen {
            Screen::Playing if self.overlay.is_none() => {
                let Some(g) = &self.game else {
                    return;
                };
                let board = layout::board_area(area, g.shape());
                // The digit bar where it was last drawn (the magnifier may
                // have taken the foot of the panel).
                let panel = self.digit_panel.get();
                let magnified = self.zoomed.borrow().as_ref().and_then(|z| z.cell_at(x, y));
                if let Some(c) = Geometry::new(g.shape(), board, self.cursor)
                    .cell_at(x, y)
                    .or(magnified)
                {
                    self.cursor = c;
                    self.drop_typed();
                    return;
                }
                let n = g.shape().n();
                // The digit bar in the side panel: a value (or note) for
                // the cell chosen.
                match panel.and_then(|p| layout::chip_at(p, n, x, y)) {
                    Some(Chip::Value(v)) => {
                        self.drop_typed();
                        if let Some(v) = crate::engine::Value::new(v) {
                            self.put_value(v, fx);
                        }
                    }
                    Some(Chip::Clear) => self.command(Command::Clear, fx),
                    Some(Chip::NoteMode) => self.command(Command::ToggleNoteMode, fx),
                    None => {}
                }
            }
            Screen::Settings { sel } => {
                let items: Vec<Setting> = Setting::iter().collect();
                if let Some(i) = layout::row_at(layout::settings_rect(area), 0, items.len(), x, y) {
                    *sel = items[i];
                    self.command(Command::Confirm, fx);
                }
            }
            Screen::Load {
                list: Some(list),
                sel,
            } => {
                if let Some(i) = layout::row_at(layout::load_rect(area), 0, list.len(), x, y) {
                    *sel = i;
                    self.command(Command::Confirm, fx);
                }
            }
            Screen::WatchMenu { sel } => {
                let solvers = WatchSolver::all();
                let r = layout::watch_menu_rect(area, solvers.len());
                // The text has no border: its rows start at its top.
                let r = Rect::new(
                    r.x.saturating_sub(1),
                    r.y.saturating_sub(1),
                    r.width + 2,
                    r.height + 2,
                );
                if let Some(i) = layout::row_at(r, layout::WATCH_MENU_HEAD, solvers.len(), x, y) {
                    *sel = solvers[i];
                    self.command(Command::Confirm, fx);
                }
            }
            Screen::Fallback { sel, missed } => {
                let choices = fallback_choices(missed.shipped);
                let r = layout::fallback_rect(area, choices.len());
                if let Some(i) = layout::row_at(r, layout::FALLBACK_HEAD, choices.len(), x, y) {
                    *sel = choices[i];
                    self.command(Command::Confirm, fx);
                }
            }
            Screen::Start { sel } => {
                // A click chooses the item, as Enter on it would.
                let all = &start_items;
                let items = all.len();
                if let Some(item) =
                    layout::menu_item_at(area, items, x, y).and_then(|i| all.get(i).copied())
                {
                    *sel = item;
                    self.command(Command::Confirm, fx);
                }
            }
            _ => {}
        }
    }
}

/// How the status line begins while a value is being typed.
const TYPING: &str = "typing ";

/// The value capital letter `ch` names on an n×n board, for boards of 10
/// to 35 (`A` is 10); `None` for lower-case letters (always commands, so
/// `hjkl`, `c`, `f`, `i` … mean one thing on every size), other characters
/// and sizes.
pub(super) fn letter_value(n: usize, ch: char) -> Option<crate::engine::Value> {
    if (10..=35).contains(&n) && ch.is_ascii_uppercase() {
        parse_symbol(n, &ch.to_string())
    } else {
        None
    }
}
