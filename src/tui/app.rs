//! The app model: what is on screen, the game in play, and the one function
//! that changes them, [`App::update`]. It performs no I/O: what must happen
//! outside (start or cancel a job, write a save, quit) comes back as
//! [`Effect`]s for the runner, and the results come in again as actions.

mod emphasis;
mod help;
mod input;
mod jobs;
mod menus;
mod play;
mod pool;
mod reads;
mod stats;
mod watch;

use std::sync::Arc;
use std::time::Duration;

use tui_input::Input;

use crate::engine::generate::daily::Date;
use crate::engine::generate::random::splitmix64;
use crate::engine::{Level, Shape};
use crate::game::{Game, GameSave, Hint, LogicWalk};
use crate::store::pool::PoolEntry;
use crate::store::{Config, SaveMeta, Stats};

use super::action::{Action, Command, SaveListing, ToRead};
use super::keymap::{KeyContext, Keymap};
use super::playback::{Playback, WatchSolver};
use super::style::Styles;
use super::worker::Job;
use input::letter_value;

pub use emphasis::{ConflictDisplay, Emphasis};
pub use help::HelpLine;
pub use jobs::{Missed, Search};
pub use menus::{FallbackChoice, MENU_SIZES, NewGameRow, Setting, StartItem, fallback_choices};
pub use pool::PoolKeeper;
pub use stats::StatsFrom;

/// Quiet after a move before the autosave is written.
pub const AUTOSAVE_AFTER: Duration = Duration::from_millis(800);

/// The longest a change waits for the autosave, however fast the player
/// keeps moving (a debounce alone would never save a steady typist).
pub const AUTOSAVE_AT_MOST: Duration = Duration::from_secs(1);

/// Changes to the game not yet in the autosave.
#[derive(Debug, Clone, Copy, Default)]
struct Unsaved {
    /// Time since the first of them.
    age: Duration,
    /// Time since the last of them.
    quiet: Duration,
}

/// What the runner must do.
#[derive(Debug, Clone)]
pub enum Effect {
    /// Start a job on the worker.
    Start(Job),
    /// Raise the cancel flag of a job.
    Cancel(u64),
    /// Write the autosave.
    Autosave(Box<GameSave>, SaveMeta),
    /// Remove the autosave (the game was won).
    ClearAutosave,
    /// Write a named save.
    SaveAs {
        /// The save's name.
        name: String,
        /// The game.
        save: Box<GameSave>,
        /// Its summary.
        meta: SaveMeta,
        /// Write even over a save of another game (the player said so);
        /// otherwise the runner asks first ([`Action::SaveWouldReplace`]).
        overwrite: bool,
    },
    /// Keep a game the player is leaving unfinished among the named saves:
    /// under the `unfinished-…` name it was loaded from, or a name of the
    /// runner's choosing (`unfinished-N`).
    KeepUnfinished(Box<GameSave>, SaveMeta, Option<String>),
    /// Read the list of named saves.
    ListSaves,
    /// Read a save or a puzzle off the UI thread (answered by
    /// [`Action::Read`] with the same `job`; [`Effect::Cancel`] of the
    /// `job` stops it).
    Read {
        /// The read's id (from the jobs' counter).
        job: u64,
        /// What to read.
        what: ToRead,
    },
    /// Switch to the theme with this name.
    SetTheme(String),
    /// Keep the settings in config.toml.
    SaveSettings(String, Box<crate::store::PlayConfig>),
    /// Count a started game in the statistics.
    RecordStart {
        /// Statistics key, e.g. `9x9/medium`.
        key: String,
        /// The date of a daily puzzle.
        daily: Option<Date>,
    },
    /// Record a win.
    RecordWin {
        /// Statistics key, e.g. `9x9/medium`.
        key: String,
        /// Time in seconds.
        secs: u64,
        /// Hints used.
        hints: u32,
        /// Hints or the solver helped: solved, but never a best time.
        assisted: bool,
        /// The date of a daily puzzle.
        daily: Option<Date>,
    },
    /// A game the player had played in was left unfinished (another game
    /// replaced it): its streak ends.
    RecordUnfinished(String),
    /// Read the statistics (answered by [`Action::Stats`]).
    ReadStats,
    /// Take a puzzle of this shape and level from the pool (answered by
    /// [`Action::Pooled`]).
    TakePooled(Shape, Level),
    /// Put a puzzle in the pool (answered by [`Action::PoolCount`]).
    AddPooled(Box<PoolEntry>),
    /// Stop sending a traced job's events (the solver view jumps to the end).
    MuteTrace(u64),
    /// Read the daily board of a date (served games; answered by
    /// [`Action::DailyBoard`]).
    ReadDailyBoard(Date),
    /// Keep the player's display name (served games; answered by
    /// [`Action::NameSet`]).
    SetName(String),
    /// Leave the program.
    Quit,
}

/// The screen shown.
#[derive(Debug, Clone)]
pub enum Screen {
    /// The start menu.
    Start {
        /// Selected entry.
        sel: StartItem,
    },
    /// Choosing size and level.
    NewGame {
        /// The size, one of [`MENU_SIZES`].
        size: Shape,
        /// The level picked (the dialog shows and plays the nearest one
        /// the size offers: `generate::nearest_level`).
        level: Level,
        /// The row the arrows change.
        row: NewGameRow,
    },
    /// Waiting for the worker.
    Working {
        /// The job waited for.
        job: u64,
        /// What is being done.
        what: String,
        /// Size and level, for a ready puzzle instead.
        shape: Shape,
        /// The level asked for.
        level: Level,
        /// A new game's search for its level: what the generator says
        /// and how long it has had (None: other work).
        search: Option<Box<Search>>,
    },
    /// No puzzle of the level asked was found in time: keep waiting,
    /// play the closest found, or play a shipped puzzle.
    Fallback {
        /// The choice the arrows are on.
        sel: FallbackChoice,
        /// What was asked and what was found.
        missed: Box<Missed>,
    },
    /// Waiting for a file (or pasted text) to be read: Esc stops waiting
    /// and goes back.
    Reading {
        /// The read waited for.
        job: u64,
        /// What is read, as the player knows it.
        what: String,
        /// The screen the read was asked from, shown again when it fails
        /// or is cancelled.
        back: Box<Screen>,
    },
    /// Playing.
    Playing,
    /// The named saves.
    Load {
        /// The saves, newest first (None while reading).
        list: Option<Vec<SaveListing>>,
        /// Selected entry.
        sel: usize,
    },
    /// A path or pasted puzzle.
    Import {
        /// The path typed.
        input: Input,
    },
    /// Naming a save.
    SaveAs {
        /// The name typed.
        input: Input,
    },
    /// Session settings.
    Settings {
        /// Selected entry.
        sel: Setting,
    },
    /// Stepping through the logic solver's path (the game is untouched).
    Logic {
        /// The path and the step shown.
        walk: Box<LogicWalk>,
    },
    /// Choosing the solver to watch.
    WatchMenu {
        /// The solver picked.
        sel: WatchSolver,
    },
    /// Watching a solver solve the puzzle (the game is untouched until
    /// the player keeps the board shown).
    Watch {
        /// The playback.
        playback: Box<Playback>,
        /// The player stopped it: keep the board, or go back.
        stopped: bool,
    },
    /// The day's board of times on the server (served games).
    DailyBoard {
        /// The board (None while it is read).
        board: Option<Arc<crate::tui::action::DailyBoard>>,
    },
    /// Choosing the display name shown on the daily board.
    Name {
        /// The name as typed.
        input: Input,
    },
    /// The statistics (the game's clock stands while they are shown).
    Stats {
        /// Where they were opened, and where closing them goes back to.
        from: StatsFrom,
        /// The statistics (None while they are read; shared, as the
        /// screen is cloned).
        stats: Option<Arc<Stats>>,
        /// The first line shown of the part that scrolls.
        scroll: usize,
    },
}

/// Something shown over the screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Overlay {
    /// The key help, scrolled by this many lines.
    Help {
        /// Lines scrolled past.
        scroll: usize,
    },
    /// The game is paused (board hidden).
    Paused,
    /// Asking before the solver fills the board (`S` sits next to `s`).
    ConfirmSolve,
    /// Asking before "Save as" replaces a save of another game.
    ConfirmOverwrite {
        /// The save's name.
        name: String,
    },
    /// The board is solved.
    Solved {
        /// Time taken.
        secs: u64,
        /// A new best for this size and level.
        new_best: bool,
        /// The best time, once recorded.
        best: Option<u64>,
    },
}

/// A hint being shown, stage 1 (technique and units) or 2 (cells and why).
#[derive(Debug, Clone)]
pub struct HintState {
    /// The hint.
    pub hint: Hint,
    /// 1 or 2.
    pub stage: u8,
}

/// The app model.
#[derive(Debug)]
pub struct App {
    /// The screen.
    pub screen: Screen,
    /// An overlay, if any.
    pub overlay: Option<Overlay>,
    /// The game in play (kept while in menus).
    pub game: Option<Game>,
    /// The cursor cell.
    pub cursor: usize,
    /// Digits toggle notes instead of entering values.
    pub note_mode: bool,
    /// A value being typed (boards above 9).
    pub typed: Input,
    /// The hint on display.
    pub hint: Option<HintState>,
    /// The status line.
    pub status: String,
    /// Problems found in config and theme files, shown on the start screen.
    pub issues: Vec<String>,
    /// The terminal size.
    pub size: (u16, u16),
    /// The settings.
    pub config: Config,
    /// Resolved styles.
    pub styles: Styles,
    /// Key bindings.
    pub keymap: Keymap,
    /// The autosave's summary, when one exists (Continue).
    pub autosave: Option<SaveMeta>,
    /// Whether the terminal has focus (the clock stops without it).
    pub focused: bool,
    /// Today's date, as the runner last said ([`Action::Today`]).
    pub today: Option<Date>,
    /// The time zone save dates are shown in: UTC until the runner sets
    /// the system's (tests keep UTC, so their screens are the same
    /// everywhere).
    pub time_zone: jiff::tz::TimeZone,
    /// Spinner frame.
    pub spinner: usize,
    /// The names of the themes on offer.
    pub themes: Vec<String>,
    /// A hint being looked for on the worker.
    pending_hint: Option<Pending>,
    /// A logic path being worked out on the worker.
    pending_walk: Option<Pending>,
    /// What the app knows of the puzzle pool.
    pub pool: PoolKeeper,
    next_job: u64,
    seed: u64,
    /// Changes the autosave does not hold yet.
    unsaved: Option<Unsaved>,
    /// A message that matters (a level not reached, a save that failed, a
    /// job that failed): shown above the status line until dismissed.
    pub notice: Option<String>,
    /// Rows the status took when last drawn (messages wrap), so clicks
    /// and scrolling agree with the screen the player saw.
    pub status_rows: std::cell::Cell<u16>,
    /// The part of the side panel the digit bar was last drawn at the foot
    /// of (none: no bar), for clicks on it.
    pub digit_panel: std::cell::Cell<Option<ratatui::layout::Rect>>,
    /// Played over SSH (`dekadoku serve`): nothing names or reads a path
    /// (Import takes pasted or typed puzzle text only).
    pub served: bool,
    /// What the magnifier last drew and where (none: not shown), so a
    /// click on a magnified cell moves the cursor there.
    pub zoomed: std::cell::RefCell<Option<crate::tui::layout::ZoomPlan>>,
    /// The shipped puzzle last played (shape, level, its place in the
    /// collection), so the next one offered is another.
    last_shipped: Option<(Shape, Level, usize)>,
    /// The named save being loaded (Load), until it arrives.
    loading: Option<String>,
    /// The named save the game in play came from (Load, or Save as), and
    /// whether it still holds the game as it is.
    named: Option<Named>,
    quitting: bool,
}

/// The named save a game came from.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Named {
    /// Its name.
    name: String,
    /// No move since it was loaded or saved: the save holds the game as
    /// it is, so leaving it keeps nothing more.
    unchanged: bool,
}

impl App {
    /// A new app on the start screen. `seed` drives new-game seeds.
    pub fn new(config: Config, styles: Styles, keymap: Keymap, seed: u64) -> App {
        let shape = config.play.default_size.shape();
        App {
            screen: Screen::Start {
                sel: StartItem::NewGame,
            },
            overlay: None,
            game: None,
            cursor: 0,
            note_mode: false,
            typed: Input::default(),
            hint: None,
            status: String::new(),
            issues: Vec::new(),
            size: (80, 24),
            config,
            styles,
            keymap,
            autosave: None,
            focused: true,
            today: None,
            time_zone: jiff::tz::TimeZone::UTC,
            spinner: 0,
            themes: Vec::new(),
            pending_hint: None,
            pending_walk: None,
            pool: PoolKeeper::new(shape),
            next_job: 1,
            seed,
            unsaved: None,
            notice: None,
            status_rows: std::cell::Cell::new(1),
            digit_panel: std::cell::Cell::new(None),
            served: false,
            zoomed: std::cell::RefCell::new(None),
            last_shipped: None,
            loading: None,
            named: None,
            quitting: false,
        }
    }

    /// True once the app asked to quit.
    pub fn is_quitting(&self) -> bool {
        self.quitting
    }

    /// The window as the screens above the status are laid out in: the
    /// whole window less the rows a wrapped message took when last drawn.
    pub fn layout_area(&self) -> ratatui::layout::Rect {
        let extra = self.status_rows.get().saturating_sub(1);
        ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1.saturating_sub(extra))
    }

    /// Says `text` until the player dismisses it (Esc), over what the
    /// status line says.
    pub(super) fn notify(&mut self, text: String) {
        self.notice = Some(text);
    }

    /// The key mode of the current screen.
    pub fn key_context(&self) -> KeyContext {
        match self.screen {
            Screen::Playing => KeyContext::Board,
            _ => KeyContext::Menu,
        }
    }

    /// Whether the key with this label is a value on the board in play: a
    /// capital letter on a board of 10 to 35 that names one of its values
    /// (`F` is 15 on 16×16). The board takes such keys before any binding,
    /// so the status line and the help leave them out there.
    pub fn key_is_value(&self, label: &str) -> bool {
        let (Screen::Playing, Some(g)) = (&self.screen, &self.game) else {
            return false;
        };
        let mut chars = label.chars();
        match (chars.next(), chars.next()) {
            (Some(ch), None) => letter_value(g.shape().n(), ch).is_some(),
            _ => false,
        }
    }

    /// What the board emphasises now (peers, same digit, conflicts, a hint).
    pub fn emphasis(&self) -> Emphasis {
        let play = &self.config.play;
        let mut h = Emphasis {
            peers: play.highlight_peers,
            same_digit: play.highlight_same_digit,
            conflicts: match play.conflicts {
                crate::store::ConflictMode::Off => ConflictDisplay::Off,
                crate::store::ConflictMode::Cells => ConflictDisplay::Cells,
                crate::store::ConflictMode::Unit => ConflictDisplay::Unit,
            },
            ..Emphasis::default()
        };
        if let (Some(hs), Some(g)) = (&self.hint, &self.game) {
            h.show_hint(&hs.hint, g, hs.stage);
        }
        h
    }

    fn next_seed(&mut self) -> u64 {
        // SplitMix64 steps: distinct, well-spread seeds from one start value.
        let z = splitmix64(self.seed);
        self.seed = self.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z
    }

    /// The one mutator: applies `action`, returns what the runner must do.
    pub fn update(&mut self, action: Action) -> Vec<Effect> {
        let mut fx = Vec::new();
        match action {
            Action::Key(e) => self.key(e, &mut fx),
            Action::Command(c) => self.command(c, &mut fx),
            Action::Click { x, y } => self.click(x, y, &mut fx),
            Action::Paste(text) => {
                if matches!(self.screen, Screen::Import { .. }) {
                    self.read(ToRead::Pasted(text), &mut fx);
                }
            }
            Action::Resize(w, h) => self.size = (w, h),
            Action::Tick(dt) => self.tick(dt, &mut fx),
            Action::Focus(f) => self.focused = f,
            Action::Today(date) => self.today = Some(date),
            Action::Job(r) => self.job_done(r, &mut fx),
            Action::Pooled {
                shape,
                level,
                entry,
                left,
            } => {
                self.pool.set_count(shape, level, left);
                match entry {
                    Some(e) => self.start_pooled(*e, &mut fx),
                    None => self.generate(shape, level, &mut fx),
                }
            }
            Action::PoolCount(shape, level, count) => {
                self.pool.set_count(shape, level, count);
            }
            Action::Trace { job, events, ended } => {
                if let Screen::Watch { playback, .. } = &mut self.screen
                    && playback.id == job
                {
                    playback.receive(events, ended);
                }
            }
            Action::Loaded(l) => self.loaded(l, &mut fx),
            Action::Read { job, loaded } => self.read_done(job, loaded, &mut fx),
            Action::DailyBoard(board) => {
                if let Screen::DailyBoard { board: shown } = &mut self.screen {
                    *shown = Some(Arc::new(*board));
                }
            }
            Action::NameSet(said) => self.name_set(said, &mut fx),
            Action::Saves(list) => {
                if let Screen::Load { list: slot, sel } = &mut self.screen {
                    *sel = 0;
                    *slot = Some(list);
                }
            }
            Action::SaveWouldReplace(name) => {
                self.overlay = Some(Overlay::ConfirmOverwrite { name });
            }
            Action::Saved(Err(e)) => self.notify(format!("not saved: {e}")),
            Action::Saved(r) => {
                self.status = match r {
                    Ok(name) => {
                        self.named = Some(Named {
                            name: name.clone(),
                            unchanged: true,
                        });
                        format!("saved as “{name}”")
                    }
                    Err(e) => format!("not saved: {e}"),
                }
            }
            Action::Stats(stats) => self.stats_read(*stats),
            Action::Recorded {
                new_best,
                best_secs,
            } => {
                if let Some(Overlay::Solved {
                    new_best: nb, best, ..
                }) = &mut self.overlay
                {
                    *nb = new_best;
                    *best = best_secs;
                }
            }
            Action::AutosaveFound(meta) => {
                // A game to continue: the menu's focus starts there.
                if meta.is_some()
                    && let Screen::Start { sel } = &mut self.screen
                    && *sel == StartItem::NewGame
                {
                    *sel = StartItem::Continue;
                }
                self.autosave = meta;
            }
            Action::Theme(name, styles) => {
                self.config.theme = name;
                self.styles = *styles;
                fx.push(Effect::SaveSettings(
                    self.config.theme.clone(),
                    Box::new(self.config.play.clone()),
                ));
            }
            Action::Status(text) => self.status = text,
        }
        fx
    }

    fn command(&mut self, cmd: Command, fx: &mut Vec<Effect>) {
        if cmd == Command::DebugPanic {
            panic!("debug_panic: the crash asked for by the debug_panic key binding");
        }
        if cmd == Command::Quit {
            self.autosave_now(fx);
            self.quitting = true;
            fx.push(Effect::Quit);
            return;
        }
        // Esc dismisses a notice first.
        if cmd == Command::Cancel && self.overlay.is_none() && self.notice.take().is_some() {
            return;
        }
        if let Some(o) = self.overlay.clone() {
            match (o, cmd) {
                (Overlay::Help { .. }, _) => self.help_command(cmd),
                (Overlay::Paused, Command::Pause | Command::Cancel | Command::Confirm) => {
                    self.overlay = None;
                    if let Some(g) = &mut self.game {
                        g.set_paused(false);
                    }
                }
                (Overlay::ConfirmSolve, Command::Confirm | Command::Solve) => {
                    self.overlay = None;
                    self.solve_board(fx);
                }
                (Overlay::ConfirmOverwrite { name }, Command::Confirm) => {
                    self.overlay = None;
                    self.save_as(name, true, fx);
                }
                (Overlay::ConfirmOverwrite { name }, Command::Cancel) => {
                    self.overlay = None;
                    self.status = format!("not saved: “{name}” is kept as it was");
                }
                (Overlay::ConfirmSolve, Command::Cancel) => {
                    self.overlay = None;
                    self.status = "not solved: the board is as it was".into();
                }
                (Overlay::Solved { .. }, Command::Confirm | Command::Cancel) => {
                    self.overlay = None;
                    self.screen = Screen::Start {
                        sel: StartItem::NewGame,
                    };
                }
                _ => {}
            }
            return;
        }
        if cmd == Command::Help {
            self.overlay = Some(Overlay::Help { scroll: 0 });
            return;
        }
        match &self.screen {
            Screen::Start { .. } => self.start_command(cmd, fx),
            Screen::NewGame { .. } => self.new_game_command(cmd, fx),
            Screen::Working { .. } => self.working_command(cmd, fx),
            Screen::Fallback { .. } => self.fallback_command(cmd, fx),
            Screen::Reading { .. } => self.reading_command(cmd, fx),
            Screen::Load { .. } => self.load_command(cmd, fx),
            Screen::Import { .. } => self.import_command(cmd, fx),
            Screen::SaveAs { .. } => self.save_as_command(cmd, fx),
            Screen::Settings { .. } => self.settings_command(cmd, fx),
            Screen::Logic { .. } => self.logic_command(cmd),
            Screen::WatchMenu { .. } => self.watch_menu_command(cmd, fx),
            Screen::Watch { .. } => self.watch_command(cmd, fx),
            Screen::Stats { .. } => self.stats_command(cmd),
            Screen::DailyBoard { .. } => self.daily_board_command(cmd, fx),
            Screen::Name { .. } => self.name_command(cmd, fx),
            Screen::Playing => self.play_command(cmd, fx),
        }
    }

    /// The game changed: the autosave follows after a quiet moment, or at
    /// the latest [`AUTOSAVE_AT_MOST`] after the first unsaved change.
    fn changed(&mut self) {
        self.unsaved.get_or_insert_default().quiet = Duration::ZERO;
        if let Some(named) = &mut self.named {
            named.unchanged = false;
        }
    }

    fn tick(&mut self, dt: Duration, fx: &mut Vec<Effect>) {
        self.spinner = self.spinner.wrapping_add(1);
        match &mut self.screen {
            Screen::Watch { playback, .. } => playback.tick(dt),
            Screen::Working {
                search: Some(search),
                ..
            } => search.elapsed += dt,
            _ => {}
        }
        let playing =
            matches!(self.screen, Screen::Playing) && self.overlay.is_none() && self.focused;
        if let Some(g) = &mut self.game
            && playing
        {
            g.advance(dt);
        }
        if let Some(u) = &mut self.unsaved {
            u.age += dt;
            u.quiet += dt;
            if u.quiet >= AUTOSAVE_AFTER || u.age >= AUTOSAVE_AT_MOST {
                self.autosave_now(fx);
            }
        }
        self.refill_pool(fx);
    }
}

/// Moves a scrolled view (`scroll` lines down, at most `max`) for the
/// move and page commands; false for any other command. The window may
/// have shrunk since the last key: the scroll is clamped first.
fn scrolled(scroll: &mut usize, cmd: Command, max: usize, page: usize) -> bool {
    *scroll = (*scroll).min(max);
    match cmd {
        Command::MoveUp => *scroll = scroll.saturating_sub(1),
        Command::MoveDown => *scroll = (*scroll + 1).min(max),
        Command::PageUp => *scroll = scroll.saturating_sub(page),
        Command::PageDown => *scroll = (*scroll + page).min(max),
        _ => return false,
    }
    true
}

/// The statistics key of a game: `9x9/medium`, `6x6/easy`, `9x9/imported`.
pub fn stats_key(g: &Game) -> String {
    let s = g.shape();
    let level = g.origin().level.map_or("imported", |l| l.name());
    format!("{}x{}/{level}", s.n(), s.n())
}

/// The date of a daily puzzle's game (its title says `daily 2026-03-14`;
/// a daily puzzle is a generated 9×9 with a level), else None.
pub fn daily_date(g: &Game) -> Option<Date> {
    let o = g.origin();
    if o.level.is_none() || g.shape() != Shape::CLASSIC {
        return None;
    }
    o.title
        .as_deref()?
        .strip_prefix("daily ")
        .and_then(Date::parse)
}

/// A board size as the menus and saves name it: `9×9`, `6×6 (2×3 boxes)`.
pub fn size_label(s: Shape) -> String {
    if s.box_rows() == s.box_cols() {
        format!("{0}×{0}", s.n())
    } else {
        format!("{0}×{0} ({1}×{2} boxes)", s.n(), s.box_rows(), s.box_cols())
    }
}

/// The save summary of a game.
pub fn meta(g: &Game) -> SaveMeta {
    let (filled, cells) = g.progress();
    let s = g.shape();
    SaveMeta {
        size: size_label(s),
        level: g.origin().level.map(|l| l.name().to_string()),
        filled: filled as u32,
        cells: cells as u32,
        elapsed_secs: g.elapsed().as_secs(),
        saved_at: 0,
        solved: g.is_solved(),
        title: g.origin().title.clone(),
    }
}

fn first_empty(g: &Game) -> usize {
    (0..g.shape().cells())
        .find(|&c| g.value(c).is_none())
        .unwrap_or(0)
}

/// A position of a game: moves made and the undo history's length (any
/// change, undo or redo alters one of them). A hint or logic path worked
/// out for another position is stale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Position {
    moves: u32,
    history: usize,
}

impl Position {
    fn of(g: &Game) -> Position {
        Position {
            moves: g.moves(),
            history: g.history().undo.len(),
        }
    }
}

/// A job whose answer is for one position of the game (a hint, a logic
/// path).
#[derive(Debug, Clone, Copy)]
struct Pending {
    /// The job.
    job: u64,
    /// The position it was asked for.
    at: Position,
}
