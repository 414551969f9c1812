//! The menus: start, new game, load, import, save as and settings. Each
//! menu is an enum ([`StartItem`], [`Setting`], [`NewGameRow`]) whose
//! order and labels come from `strum`, never an index kept in step with a
//! table by hand.

use strum::{EnumIter, IntoEnumIterator, IntoStaticStr};
use tui_input::Input;

use crate::engine::generate::daily::daily_level;
use crate::engine::generate::{BUNDLED_SIZES, levels_for, nearest_level};
use crate::engine::{Level, Shape};
use crate::store::ConflictMode;

use super::{App, Effect, Screen};
use crate::tui::action::{Command, ToRead};
use crate::tui::worker::JobKind;

/// The sizes offered for a new game: the sizes the game ships puzzles
/// for (one table, [`BUNDLED_SIZES`]), so "play a ready puzzle" always has
/// one to offer.
pub const MENU_SIZES: [Shape; 6] = BUNDLED_SIZES;

/// The start menu's entries, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, IntoStaticStr)]
pub enum StartItem {
    /// Back to the game in play, or the autosave.
    #[strum(to_string = "Continue")]
    Continue,
    /// The size and level dialog.
    #[strum(to_string = "New game")]
    NewGame,
    /// The named saves.
    #[strum(to_string = "Load")]
    Load,
    /// A puzzle from a file or pasted text.
    #[strum(to_string = "Import")]
    Import,
    /// The settings.
    #[strum(to_string = "Settings")]
    Settings,
    /// The date's daily puzzle.
    #[strum(to_string = "Daily puzzle")]
    Daily,
    /// The day's board of times on the server (served games only).
    #[strum(to_string = "Daily board")]
    DailyBoard,
    /// The statistics.
    #[strum(to_string = "Statistics")]
    Stats,
    /// Leave.
    #[strum(to_string = "Quit")]
    Quit,
}

impl StartItem {
    /// The label shown.
    pub fn label(self) -> &'static str {
        self.into()
    }
}

/// The settings, in the order shown (saved into config.toml as they
/// change).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, IntoStaticStr)]
pub enum Setting {
    /// The colour theme (`auto` picks by the terminal).
    #[strum(to_string = "Theme")]
    Theme,
    /// The cursor wraps around the board's edges.
    #[strum(to_string = "Wrap at the edges")]
    Wrap,
    /// Entering a value removes it from the notes of the cell's peers.
    #[strum(to_string = "Remove notes from peers on entry")]
    AutoRemoveNotes,
    /// How conflicts are shown: off, the cells, or the cells and units.
    #[strum(to_string = "Conflicts")]
    Conflicts,
    /// Tint the cursor's row, column and box.
    #[strum(to_string = "Highlight row, column and box")]
    HighlightPeers,
    /// Emphasise the cursor's value elsewhere.
    #[strum(to_string = "Highlight the same digit")]
    HighlightSameDigit,
    /// Clicks move the cursor.
    #[strum(to_string = "Mouse")]
    Mouse,
}

impl Setting {
    /// The label shown.
    pub fn label(self) -> &'static str {
        self.into()
    }
}

/// The new-game dialog's rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter)]
pub enum NewGameRow {
    /// The board size.
    Size,
    /// The level.
    Level,
}

/// The choices when no puzzle of the level asked was found in time, in
/// the order shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter)]
pub enum FallbackChoice {
    /// Search again, from a new seed, for longer.
    KeepWaiting,
    /// Play the closest puzzle found.
    PlayClosest,
    /// Play a shipped puzzle of the size and level asked (offered only
    /// when the game ships one).
    PlayShipped,
}

impl FallbackChoice {
    /// The letter that chooses it at once (when the keymap gives the key
    /// no command).
    pub fn letter(self) -> char {
        match self {
            FallbackChoice::KeepWaiting => 'w',
            FallbackChoice::PlayClosest => 'c',
            FallbackChoice::PlayShipped => 'r',
        }
    }
}

/// The choices offered: all three when a shipped puzzle of the size and
/// level exists (`shipped`), else the first two.
pub fn fallback_choices(shipped: bool) -> Vec<FallbackChoice> {
    FallbackChoice::iter()
        .filter(|&c| shipped || c != FallbackChoice::PlayShipped)
        .collect()
}

/// The entry after (or before) `cur` in `all`, wrapping around; `cur`
/// itself when it is not in `all`.
pub fn cycle<T: Copy + PartialEq>(all: &[T], cur: T, forward: bool) -> T {
    let Some(at) = all.iter().position(|&t| t == cur) else {
        return cur;
    };
    let len = all.len();
    all[if forward {
        (at + 1) % len
    } else {
        (at + len - 1) % len
    }]
}

/// [`cycle`] over every value of an enum, in declaration order.
pub fn cycle_enum<T: IntoEnumIterator + Copy + PartialEq>(cur: T, forward: bool) -> T {
    cycle(&T::iter().collect::<Vec<_>>(), cur, forward)
}

impl App {
    /// The start menu's entries in this game: the daily board only when
    /// served (a local game has no one to compare with).
    pub fn start_items(&self) -> Vec<StartItem> {
        StartItem::iter()
            .filter(|&i| self.served || i != StartItem::DailyBoard)
            .collect()
    }

    /// Opens the day's board of times and asks for it.
    fn open_daily_board(&mut self, fx: &mut Vec<Effect>) {
        let Some(date) = self.today else {
            self.status = "today's date is not known yet".into();
            return;
        };
        self.screen = Screen::DailyBoard { board: None };
        fx.push(Effect::ReadDailyBoard(date));
    }

    /// The daily board's keys: Enter names the player, Esc goes back.
    pub(super) fn daily_board_command(&mut self, cmd: Command, _fx: &mut Vec<Effect>) {
        match cmd {
            Command::Confirm => {
                let mut input = Input::default();
                if let Screen::DailyBoard { board: Some(b) } = &self.screen
                    && let Some(name) = &b.name
                {
                    input = Input::new(name.clone());
                }
                self.screen = Screen::Name { input };
            }
            Command::Cancel => {
                self.screen = Screen::Start {
                    sel: StartItem::DailyBoard,
                }
            }
            _ => {}
        }
    }

    /// The display name field.
    pub(super) fn name_command(&mut self, cmd: Command, fx: &mut Vec<Effect>) {
        let Screen::Name { input } = &self.screen else {
            return;
        };
        match cmd {
            Command::Confirm => {
                let name = input.value().trim().to_string();
                if name.is_empty() {
                    self.status = "type the name to show on the daily board".into();
                } else {
                    fx.push(Effect::SetName(name));
                }
            }
            Command::Cancel => self.open_daily_board(fx),
            _ => {}
        }
    }

    /// The name was kept (back to the board, read again) or refused (the
    /// field stays, with why).
    pub(in crate::tui) fn name_set(&mut self, said: Result<String, String>, fx: &mut Vec<Effect>) {
        match said {
            Ok(name) => {
                self.status = format!("you are “{name}” on the daily board");
                if matches!(self.screen, Screen::Name { .. }) {
                    self.open_daily_board(fx);
                }
            }
            Err(why) => self.status = why,
        }
    }

    /// Does what a start menu entry says.
    pub(super) fn start_item(&mut self, item: StartItem, fx: &mut Vec<Effect>) {
        match item {
            StartItem::Continue => {
                if self.game.is_some() {
                    self.screen = Screen::Playing;
                } else if self.autosave.is_some() {
                    self.read(ToRead::Autosave, fx);
                } else {
                    self.status = "no game to continue".into();
                }
            }
            StartItem::NewGame => {
                let play = &self.config.play;
                self.screen = new_game_screen(play.default_size.shape(), play.default_level);
            }
            StartItem::Load => {
                self.screen = Screen::Load { list: None, sel: 0 };
                fx.push(Effect::ListSaves);
            }
            StartItem::Import => {
                self.screen = Screen::Import {
                    input: Input::default(),
                }
            }
            StartItem::Settings => {
                self.screen = Screen::Settings {
                    sel: Setting::Theme,
                }
            }
            StartItem::Daily => {
                let Some(date) = self.today else {
                    self.status = "today's date is not known yet".into();
                    return;
                };
                let level = daily_level(date);
                let id = self.job(JobKind::Daily { date }, fx);
                self.screen = Screen::Working {
                    job: id,
                    what: format!("making the daily puzzle of {date} ({level})"),
                    shape: Shape::CLASSIC,
                    level,
                    search: None,
                };
            }
            StartItem::DailyBoard => self.open_daily_board(fx),
            StartItem::Stats => self.open_stats(super::StatsFrom::Start, fx),
            StartItem::Quit => {
                self.autosave_now(fx);
                self.quitting = true;
                fx.push(Effect::Quit);
            }
        }
    }

    /// Steps a setting forward or back and keeps the settings.
    pub(super) fn toggle_setting(&mut self, setting: Setting, forward: bool, fx: &mut Vec<Effect>) {
        let p = &mut self.config.play;
        match setting {
            Setting::Theme => {
                let mut names = vec!["auto".to_string()];
                names.extend(self.themes.iter().cloned());
                let at = names.iter().position(|t| *t == self.config.theme);
                let next = match (at, forward) {
                    (Some(at), true) => (at + 1) % names.len(),
                    (Some(at), false) => (at + names.len() - 1) % names.len(),
                    (None, _) => 1 % names.len(),
                };
                fx.push(Effect::SetTheme(names[next].clone()));
                return;
            }
            Setting::Wrap => p.wrap = !p.wrap,
            Setting::AutoRemoveNotes => p.auto_remove_notes = !p.auto_remove_notes,
            Setting::Conflicts => {
                let all = [ConflictMode::Off, ConflictMode::Cells, ConflictMode::Unit];
                p.conflicts = cycle(&all, p.conflicts, forward);
            }
            Setting::HighlightPeers => p.highlight_peers = !p.highlight_peers,
            Setting::HighlightSameDigit => p.highlight_same_digit = !p.highlight_same_digit,
            Setting::Mouse => p.mouse = !p.mouse,
        }
        fx.push(Effect::SaveSettings(
            self.config.theme.clone(),
            Box::new(self.config.play.clone()),
        ));
    }

    /// The start menu's keys.
    pub(super) fn start_command(&mut self, cmd: Command, fx: &mut Vec<Effect>) {
        let items = self.start_items();
        let Screen::Start { sel } = &mut self.screen else {
            return;
        };
        match cmd {
            Command::MoveUp => *sel = cycle(&items, *sel, false),
            Command::MoveDown => *sel = cycle(&items, *sel, true),
            Command::Confirm => {
                let item = *sel;
                self.start_item(item, fx)
            }
            Command::Cancel if self.game.is_some() => self.screen = Screen::Playing,
            Command::Stats => self.start_item(StartItem::Stats, fx),
            _ => {}
        }
    }

    /// The new-game dialog's keys: ↑/↓ pick the row, ←/→ its value.
    pub(super) fn new_game_command(&mut self, cmd: Command, fx: &mut Vec<Effect>) {
        let Screen::NewGame { size, level, row } = &mut self.screen else {
            return;
        };
        match (cmd, *row) {
            (Command::MoveUp | Command::MoveDown, _) => {
                *row = cycle_enum(*row, cmd == Command::MoveDown)
            }
            // Each size offers only the levels its puzzles can have (4×4
            // easy only, 6×6 up to hard): the dialog shows and plays the
            // nearest to the level picked, which passing 4×4 does not forget.
            (Command::MoveLeft | Command::MoveRight, NewGameRow::Size) => {
                *size = cycle(&MENU_SIZES, *size, cmd == Command::MoveRight);
            }
            (Command::MoveLeft | Command::MoveRight, NewGameRow::Level) => {
                let offered = levels_for(*size);
                *level = cycle(
                    offered,
                    nearest_level(*size, *level),
                    cmd == Command::MoveRight,
                )
            }
            (Command::Confirm, _) => {
                let (s, l) = (*size, nearest_level(*size, *level));
                self.new_game(s, l, fx)
            }
            (Command::Cancel, _) => {
                self.screen = Screen::Start {
                    sel: StartItem::NewGame,
                }
            }
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
                        let name = entry.name.clone();
                        self.read(ToRead::Save(name), fx);
                    } else {
                        self.status = "that save cannot be read".into();
                    }
                }
            }
            Command::Cancel => {
                self.screen = Screen::Start {
                    sel: StartItem::Load,
                }
            }
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
                let typed = input.value().trim().to_string();
                if typed.is_empty() {
                    self.status = if self.served {
                        "paste a puzzle, or type one on a line".into()
                    } else {
                        "type a file path, or paste a puzzle".into()
                    };
                } else if self.served {
                    // Served: never a path, whatever was typed.
                    self.read(ToRead::Pasted(typed), fx);
                } else {
                    self.read(ToRead::Puzzle(typed.into()), fx);
                }
            }
            Command::Cancel => {
                self.screen = Screen::Start {
                    sel: StartItem::Import,
                }
            }
            _ => {}
        }
    }

    /// Saves the game in play as `name` (over a save of another game
    /// only when `overwrite`: the runner asks first otherwise).
    pub(super) fn save_as(&mut self, name: String, overwrite: bool, fx: &mut Vec<Effect>) {
        if let Some((save, meta)) = self.saved_game() {
            fx.push(Effect::SaveAs {
                name,
                save,
                meta,
                overwrite,
            });
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
                } else if self.game.is_some() {
                    self.save_as(name, false, fx);
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
        match cmd {
            Command::MoveUp => *sel = cycle_enum(*sel, false),
            Command::MoveDown => *sel = cycle_enum(*sel, true),
            Command::Confirm | Command::MoveRight => {
                let s = *sel;
                self.toggle_setting(s, true, fx)
            }
            Command::MoveLeft => {
                let s = *sel;
                self.toggle_setting(s, false, fx)
            }
            Command::Cancel => {
                self.screen = Screen::Start {
                    sel: StartItem::Settings,
                }
            }
            _ => {}
        }
    }
}

/// The new-game dialog with `shape` and `level` selected (9×9 and
/// medium when they are not on offer).
pub(super) fn new_game_screen(shape: Shape, level: Level) -> Screen {
    let size = if MENU_SIZES.contains(&shape) {
        shape
    } else {
        Shape::CLASSIC
    };
    Screen::NewGame {
        size,
        level,
        row: NewGameRow::Size,
    }
}
