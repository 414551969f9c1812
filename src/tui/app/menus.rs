//! The menus: start, new game, load, import, save as and settings.

use tui_input::Input;

use crate::engine::generate::daily::{Date, daily_level};
use crate::engine::{Level, Shape};

use super::{App, Effect, Screen, meta};
use crate::tui::action::Command;
use crate::tui::worker::JobKind;

/// Sizes offered for a new game: (label, box rows, box columns).
pub const SIZES: [(&str, usize, usize); 6] = [
    ("4×4", 2, 2),
    ("6×6 (2×3 boxes)", 2, 3),
    ("9×9", 3, 3),
    ("12×12 (3×4 boxes)", 3, 4),
    ("16×16", 4, 4),
    ("25×25", 5, 5),
];

/// Levels offered for a new game.
pub const LEVELS: [Level; 5] = Level::ALL;

/// Start screen entries.
pub const START_ITEMS: [&str; 7] = [
    "Continue",
    "New game",
    "Load",
    "Import",
    "Settings",
    "Daily puzzle",
    "Quit",
];

/// Settings entries (saved into config.toml as they change).
pub const SETTINGS: [&str; 7] = [
    "Theme",
    "Wrap at the edges",
    "Remove notes from peers on entry",
    "Conflicts",
    "Highlight row, column and box",
    "Highlight the same digit",
    "Mouse",
];

impl App {
    pub(super) fn start_item(&mut self, sel: usize, fx: &mut Vec<Effect>) {
        match sel {
            0 => {
                if self.game.is_some() {
                    self.screen = Screen::Playing;
                } else if self.autosave.is_some() {
                    self.status = "loading the autosave…".into();
                    fx.push(Effect::LoadAutosave);
                } else {
                    self.status = "no game to continue".into();
                }
            }
            1 => {
                let size = SIZES
                    .iter()
                    .position(|s| s.1 * s.2 == self.config.play.default_size.side())
                    .unwrap_or(2);
                let level = LEVELS
                    .iter()
                    .position(|&l| l == self.config.play.default_level)
                    .unwrap_or(1);
                self.screen = Screen::NewGame {
                    size,
                    level,
                    row: 0,
                };
            }
            2 => {
                self.screen = Screen::Load { list: None, sel: 0 };
                fx.push(Effect::ListSaves);
            }
            3 => {
                self.screen = Screen::Import {
                    input: Input::default(),
                }
            }
            4 => self.screen = Screen::Settings { sel: 0 },
            5 => {
                let date = Date::today();
                let level = daily_level(date);
                let id = self.job(JobKind::Daily { date }, fx);
                self.screen = Screen::Working {
                    job: id,
                    what: format!("making the daily puzzle of {date} ({level})"),
                    shape: Shape::CLASSIC,
                    level,
                };
            }
            _ => {
                self.autosave_now(fx);
                self.quitting = true;
                fx.push(Effect::Quit);
            }
        }
    }

    pub(super) fn toggle_setting(&mut self, sel: usize, forward: bool, fx: &mut Vec<Effect>) {
        use crate::store::ConflictMode;
        let p = &mut self.config.play;
        match sel {
            0 => {
                let mut names = vec!["auto".to_string()];
                names.extend(self.themes.iter().cloned());
                let at = names
                    .iter()
                    .position(|t| *t == self.config.theme)
                    .unwrap_or(0);
                let next = if forward {
                    (at + 1) % names.len()
                } else {
                    (at + names.len() - 1) % names.len()
                };
                fx.push(Effect::SetTheme(names[next].clone()));
                return;
            }
            1 => p.wrap = !p.wrap,
            2 => p.auto_remove_notes = !p.auto_remove_notes,
            3 => {
                p.conflicts = match (p.conflicts, forward) {
                    (ConflictMode::Off, true) | (ConflictMode::Unit, false) => ConflictMode::Cells,
                    (ConflictMode::Cells, true) | (ConflictMode::Off, false) => ConflictMode::Unit,
                    (ConflictMode::Unit, true) | (ConflictMode::Cells, false) => ConflictMode::Off,
                }
            }
            4 => p.highlight_peers = !p.highlight_peers,
            5 => p.highlight_same_digit = !p.highlight_same_digit,
            _ => p.mouse = !p.mouse,
        }
        fx.push(Effect::SaveSettings(
            self.config.theme.clone(),
            Box::new(self.config.play.clone()),
        ));
    }

    pub(super) fn new_game(&mut self, size: usize, level: usize, fx: &mut Vec<Effect>) {
        let (_, br, bc) = SIZES[size];
        let Ok(shape) = Shape::new(br, bc) else {
            return;
        };
        let level = LEVELS[level];
        self.pool_wanted.insert((shape, level));
        if self.pool.get(&(shape, level)).is_some_and(|&k| k > 0) {
            // The runner answers at once with Action::Pooled.
            fx.push(Effect::TakePooled(shape, level));
        } else {
            self.generate(shape, level, fx);
        }
    }

    /// The start menu's keys.
    pub(super) fn start_command(&mut self, cmd: Command, fx: &mut Vec<Effect>) {
        let Screen::Start { sel } = &mut self.screen else {
            return;
        };
        let len = START_ITEMS.len();
        match cmd {
            Command::MoveUp => *sel = (*sel + len - 1) % len,
            Command::MoveDown => *sel = (*sel + 1) % len,
            Command::Confirm => {
                let s = *sel;
                self.start_item(s, fx)
            }
            Command::Cancel if self.game.is_some() => self.screen = Screen::Playing,
            _ => {}
        }
    }

    /// The new-game dialog's keys: size and level rows.
    pub(super) fn new_game_command(&mut self, cmd: Command, fx: &mut Vec<Effect>) {
        let Screen::NewGame { size, level, row } = &mut self.screen else {
            return;
        };
        match cmd {
            Command::MoveUp | Command::MoveDown => *row = 1 - *row,
            Command::MoveLeft if *row == 0 => *size = (*size + SIZES.len() - 1) % SIZES.len(),
            Command::MoveRight if *row == 0 => *size = (*size + 1) % SIZES.len(),
            Command::MoveLeft => *level = (*level + LEVELS.len() - 1) % LEVELS.len(),
            Command::MoveRight => *level = (*level + 1) % LEVELS.len(),
            Command::Confirm => {
                let (s, l) = (*size, *level);
                self.new_game(s, l, fx)
            }
            Command::Cancel => self.screen = Screen::Start { sel: 1 },
            _ => {}
        }
    }

    /// The list of named saves.
    pub(super) fn load_command(&mut self, cmd: Command, fx: &mut Vec<Effect>) {
        let Screen::Load { list, sel } = &mut self.screen else {
            return;
        };
        let len = list.as_ref().map_or(0, Vec::len);
        match cmd {
            Command::MoveUp if len > 0 => *sel = (*sel + len - 1) % len,
            Command::MoveDown if len > 0 => *sel = (*sel + 1) % len,
            Command::Confirm => {
                if let Some(entry) = list.as_ref().and_then(|l| l.get(*sel)) {
                    if entry.meta.is_ok() {
                        fx.push(Effect::Load(entry.name.clone()));
                        self.status = format!("loading “{}”…", entry.name);
                    } else {
                        self.status = "that save cannot be read".into();
                    }
                }
            }
            Command::Cancel => self.screen = Screen::Start { sel: 2 },
            _ => {}
        }
    }

    /// The import field: a path (pasted text arrives as [`Action::Paste`]).
    pub(super) fn import_command(&mut self, cmd: Command, fx: &mut Vec<Effect>) {
        let Screen::Import { input } = &self.screen else {
            return;
        };
        match cmd {
            Command::Confirm => {
                let path = input.value().trim().to_string();
                if path.is_empty() {
                    self.status = "type a file path, or paste a puzzle".into();
                } else {
                    self.status = format!("reading {path}…");
                    fx.push(Effect::ImportFile(path));
                }
            }
            Command::Cancel => self.screen = Screen::Start { sel: 3 },
            _ => {}
        }
    }

    /// Naming a save.
    pub(super) fn save_as_command(&mut self, cmd: Command, fx: &mut Vec<Effect>) {
        let Screen::SaveAs { input } = &self.screen else {
            return;
        };
        match cmd {
            Command::Confirm => {
                let name = input.value().trim().to_string();
                if name.is_empty() {
                    self.status = "type a name for the save".into();
                } else if let Some(g) = &self.game {
                    fx.push(Effect::SaveAs(name, Box::new(g.to_save()), meta(g)));
                    self.screen = Screen::Playing;
                }
            }
            Command::Cancel => self.screen = Screen::Playing,
            _ => {}
        }
    }

    /// The settings list: Enter and → step a setting forward, ← back.
    pub(super) fn settings_command(&mut self, cmd: Command, fx: &mut Vec<Effect>) {
        let Screen::Settings { sel } = &mut self.screen else {
            return;
        };
        let len = SETTINGS.len();
        match cmd {
            Command::MoveUp => *sel = (*sel + len - 1) % len,
            Command::MoveDown => *sel = (*sel + 1) % len,
            Command::Confirm | Command::MoveRight => {
                let s = *sel;
                self.toggle_setting(s, true, fx)
            }
            Command::MoveLeft => {
                let s = *sel;
                self.toggle_setting(s, false, fx)
            }
            Command::Cancel => self.screen = Screen::Start { sel: 4 },
            _ => {}
        }
    }
}

/// The new-game dialog with `shape` and `level` selected.
pub(super) fn new_game_screen(shape: Shape, level: Level) -> Screen {
    Screen::NewGame {
        size: SIZES
            .iter()
            .position(|s| s.1 == shape.box_rows() && s.2 == shape.box_cols())
            .unwrap_or(2),
        level: LEVELS.iter().position(|&l| l == level).unwrap_or(1),
        row: 0,
    }
}
