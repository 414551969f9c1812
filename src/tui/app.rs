//! The app model: what is on screen, the game in play, and the one function
//! that changes them, [`App::update`]. It performs no I/O: what must happen
//! outside (start or cancel a job, write a save, quit) comes back as
//! [`Effect`]s for the runner, and the results come in again as actions.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::Rect;
use tui_input::Input;
use tui_input::backend::crossterm::EventHandler;

use crate::engine::generate::bundled::bundled;
use crate::engine::generate::daily::{Date, daily_level};
use crate::engine::generate::random::splitmix64;
use crate::engine::{Grid, Level, Outcome, Puzzle, Shape};
use crate::game::{Game, GameSave, Hint, LogicWalk, Origin, parse_symbol};
use crate::store::pool::{self, PoolEntry};
use crate::store::{Config, SaveMeta};

use super::action::{Action, Command, Loaded, SaveListing};
use super::keymap::{Keymap, Mode};
use super::playback::{Phase, Playback, Watched};
use super::style::Styles;
use super::ui;
use super::ui::board::{ConflictDisplay, Geometry, Highlights};
use super::worker::{Job, JobKind, JobResult};
use crate::engine::generate::Graded;

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

/// Refills in a row that miss a level before the pool stops asking for it
/// this session.
const POOL_MISSES: u32 = 3;

/// Seconds of quiet after a move before the autosave is written.
pub const AUTOSAVE_AFTER: Duration = Duration::from_millis(800);

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
    SaveAs(String, Box<GameSave>, SaveMeta),
    /// Read the list of named saves.
    ListSaves,
    /// Read a named save.
    Load(String),
    /// Read the autosave.
    LoadAutosave,
    /// Read a puzzle from a file path.
    ImportFile(String),
    /// Read a puzzle from pasted text.
    ImportText(String),
    /// Switch to the theme with this name.
    SetTheme(String),
    /// Keep the settings in config.toml.
    SaveSettings(String, Box<crate::store::PlayConfig>),
    /// Count a started game in the statistics.
    RecordStart(String),
    /// Record a win.
    RecordWin {
        /// Statistics key, e.g. `9x9/medium`.
        key: String,
        /// Time in seconds.
        secs: u64,
        /// Hints used.
        hints: u32,
    },
    /// Take a puzzle of this shape and level from the pool (answered by
    /// [`Action::Pooled`]).
    TakePooled(Shape, Level),
    /// Put a puzzle in the pool (answered by [`Action::PoolCount`]).
    AddPooled(Box<PoolEntry>),
    /// Stop sending a traced job's events (the solver view jumps to the end).
    MuteTrace(u64),
    /// Leave the program.
    Quit,
}

/// The screen shown.
#[derive(Debug, Clone)]
pub enum Screen {
    /// The start menu.
    Start {
        /// Selected entry.
        sel: usize,
    },
    /// Choosing size and level.
    NewGame {
        /// Index into [`SIZES`].
        size: usize,
        /// Index into [`LEVELS`].
        level: usize,
        /// 0: size row, 1: level row.
        row: usize,
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
        sel: usize,
    },
    /// Stepping through the logic solver's path (the game is untouched).
    Logic {
        /// The path and the step shown.
        walk: Box<LogicWalk>,
    },
    /// Choosing the solver to watch.
    WatchMenu {
        /// Index into [`Watched::all`].
        sel: usize,
    },
    /// Watching a solver solve the puzzle (the game is untouched until
    /// the player keeps the board shown).
    Watch {
        /// The playback.
        playback: Box<Playback>,
        /// The player stopped it: keep the board, or go back.
        stopped: bool,
    },
}

/// Something shown over the screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Overlay {
    /// The key help.
    Help,
    /// The game is paused (board hidden).
    Paused,
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
    /// Spinner frame.
    pub spinner: usize,
    /// The names of the themes on offer.
    pub themes: Vec<String>,
    /// A hint being looked for on the worker: its job and the position it
    /// was asked for (moves and history length).
    pending_hint: Option<(u64, (u32, usize))>,
    /// A logic path being worked out: its job and the position it is for.
    pending_walk: Option<(u64, (u32, usize))>,
    /// Puzzles in the pool per shape and level, as the runner last said.
    pub pool: BTreeMap<(Shape, Level), usize>,
    /// The shapes and levels the pool is kept filled for: the default
    /// size at every level, and whatever the player asked for since.
    pool_wanted: BTreeSet<(Shape, Level)>,
    /// The pool refill running on the worker.
    refill: Option<u64>,
    /// Refills in a row that came out at another level, per shape and
    /// level asked.
    pool_misses: BTreeMap<(Shape, Level), u32>,
    next_job: u64,
    seed: u64,
    dirty: bool,
    quiet: Duration,
    quitting: bool,
}

impl App {
    /// A new app on the start screen. `seed` drives new-game seeds.
    pub fn new(config: Config, styles: Styles, keymap: Keymap, seed: u64) -> App {
        let shape = config.play.default_size.shape();
        let pool_wanted = LEVELS.iter().map(|&l| (shape, l)).collect();
        App {
            screen: Screen::Start { sel: 1 },
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
            spinner: 0,
            themes: Vec::new(),
            pending_hint: None,
            pending_walk: None,
            pool: BTreeMap::new(),
            pool_wanted,
            refill: None,
            pool_misses: BTreeMap::new(),
            next_job: 1,
            seed,
            dirty: false,
            quiet: Duration::ZERO,
            quitting: false,
        }
    }

    /// True once the app asked to quit.
    pub fn is_quitting(&self) -> bool {
        self.quitting
    }

    /// The key mode of the current screen.
    pub fn mode(&self) -> Mode {
        match self.screen {
            Screen::Playing => Mode::Board,
            _ => Mode::Menu,
        }
    }

    /// Whether the key with this label is a value on the board in play: a
    /// letter on a board of 10 to 35 that names one of its values (`i` is
    /// 18 on 25×25). The board takes such keys before any binding, so the
    /// status line and the help leave them out there.
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

    /// The highlights the board shows now.
    pub fn highlights(&self) -> Highlights {
        let play = &self.config.play;
        let mut h = Highlights {
            peers: play.highlight_peers,
            same_digit: play.highlight_same_digit,
            conflicts: match play.conflicts {
                crate::store::ConflictMode::Off => ConflictDisplay::Off,
                crate::store::ConflictMode::Cells => ConflictDisplay::Cells,
                crate::store::ConflictMode::Unit => ConflictDisplay::Unit,
            },
            ..Highlights::default()
        };
        if let (Some(hs), Some(g)) = (&self.hint, &self.game) {
            h.hint_units = hs.hint.units(g);
            if hs.stage >= 2 {
                h.hint_cells = hs.hint.cells();
            }
        }
        h
    }

    /// Starts a job on the worker, cancelling a running pool refill first
    /// (the worker runs one job at a time; a refill must never make the
    /// player wait).
    fn job(&mut self, kind: JobKind, fx: &mut Vec<Effect>) -> u64 {
        if let Some(refill) = self.refill.take() {
            fx.push(Effect::Cancel(refill));
        }
        let id = self.next_job;
        self.next_job += 1;
        fx.push(Effect::Start(Job { id, kind }));
        id
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
            Action::Click { x, y } => self.click(x, y),
            Action::Paste(text) => {
                if matches!(self.screen, Screen::Import { .. }) {
                    self.status = "reading the pasted puzzle…".into();
                    fx.push(Effect::ImportText(text));
                }
            }
            Action::Resize(w, h) => self.size = (w, h),
            Action::Tick(dt) => self.tick(dt, &mut fx),
            Action::Focus(f) => self.focused = f,
            Action::Job(r) => self.job_done(r, &mut fx),
            Action::Pooled {
                shape,
                level,
                entry,
                left,
            } => {
                self.pool.insert((shape, level), left);
                match entry {
                    Some(e) => self.start_pooled(*e, &mut fx),
                    None => self.generate(shape, level, &mut fx),
                }
            }
            Action::PoolCount(shape, level, count) => {
                self.pool.insert((shape, level), count);
            }
            Action::Trace { job, events, ended } => {
                if let Screen::Watch { playback, .. } = &mut self.screen
                    && playback.id == job
                {
                    playback.receive(events, ended);
                }
            }
            Action::Loaded(l) => self.loaded(l, &mut fx),
            Action::Saves(list) => {
                if let Screen::Load { list: slot, sel } = &mut self.screen {
                    *sel = 0;
                    *slot = Some(list);
                }
            }
            Action::Saved(r) => {
                self.status = match r {
                    Ok(name) => format!("saved as “{name}”"),
                    Err(e) => format!("not saved: {e}"),
                }
            }
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
            Action::AutosaveFound(meta) => self.autosave = meta,
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

    fn key(&mut self, e: KeyEvent, fx: &mut Vec<Effect>) {
        if e.kind == KeyEventKind::Release {
            return;
        }
        // Text fields take every key but the ones that leave them.
        if let Screen::Import { input } | Screen::SaveAs { input } = &mut self.screen {
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
        if self.mode() == Mode::Board && self.overlay.is_none() && self.typed_value(&e, fx) {
            return;
        }
        if let Some(cmd) = self.keymap.command(self.mode(), &e) {
            self.command(cmd, fx);
        } else if matches!(self.screen, Screen::Working { .. }) && e.code == KeyCode::Char('r') {
            self.ready_puzzle(fx);
        }
    }

    /// Digits and letters on the board: values (or notes in note mode).
    /// Boards above 9 take several digits, ended by Enter or by a digit
    /// that could not be extended. True when the key was used.
    fn typed_value(&mut self, e: &KeyEvent, fx: &mut Vec<Effect>) -> bool {
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
                self.status = format!("typing {text}… (Enter to place)");
            }
            return true;
        }
        if let Some(v) = letter_value(n, ch) {
            self.typed.reset();
            self.put_value(v, fx);
            return true;
        }
        false
    }

    fn put_value(&mut self, v: crate::engine::Value, fx: &mut Vec<Effect>) {
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

    fn after_move(&mut self, fx: &mut Vec<Effect>) {
        self.hint = None;
        self.dirty = true;
        self.quiet = Duration::ZERO;
        self.status.clear();
        let Some(g) = &self.game else {
            return;
        };
        if g.is_solved() {
            let secs = g.elapsed().as_secs();
            self.overlay = Some(Overlay::Solved {
                secs,
                new_best: false,
                best: None,
            });
            self.dirty = false;
            fx.push(Effect::RecordWin {
                key: stats_key(g),
                secs,
                hints: g.hints_used(),
            });
            fx.push(Effect::ClearAutosave);
            self.autosave = None;
        }
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
        if let Some(o) = self.overlay.clone() {
            match (o, cmd) {
                (Overlay::Help, Command::Help | Command::Cancel | Command::Confirm) => {
                    self.overlay = None
                }
                (Overlay::Paused, Command::Pause | Command::Cancel | Command::Confirm) => {
                    self.overlay = None;
                    if let Some(g) = &mut self.game {
                        g.set_paused(false);
                    }
                }
                (Overlay::Solved { .. }, Command::Confirm | Command::Cancel) => {
                    self.overlay = None;
                    self.screen = Screen::Start { sel: 1 };
                }
                _ => {}
            }
            return;
        }
        if cmd == Command::Help {
            self.overlay = Some(Overlay::Help);
            return;
        }
        match &mut self.screen {
            Screen::Start { sel } => {
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
            Screen::NewGame { size, level, row } => match cmd {
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
            },
            Screen::Working {
                job, shape, level, ..
            } => {
                if cmd == Command::Cancel {
                    fx.push(Effect::Cancel(*job));
                    self.screen = new_game_screen(*shape, *level);
                    self.status = "cancelled".into();
                }
            }
            Screen::Load { list, sel } => {
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
            Screen::Import { input } => match cmd {
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
            },
            Screen::SaveAs { input } => match cmd {
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
            },
            Screen::Settings { sel } => {
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
            Screen::Logic { walk } => match cmd {
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
            },
            Screen::WatchMenu { sel } => {
                let len = Watched::all().len();
                match cmd {
                    Command::MoveUp => *sel = (*sel + len - 1) % len,
                    Command::MoveDown => *sel = (*sel + 1) % len,
                    Command::Confirm => {
                        let s = *sel;
                        self.start_watch(s, fx)
                    }
                    Command::Cancel | Command::Watch => self.screen = Screen::Playing,
                    _ => {}
                }
            }
            Screen::Watch { .. } => self.watch_command(cmd, fx),
            Screen::Playing => self.play_command(cmd, fx),
        }
    }

    /// Starts the chosen solver on the puzzle's givens.
    fn start_watch(&mut self, sel: usize, fx: &mut Vec<Effect>) {
        let Some(g) = &self.game else {
            self.screen = Screen::Start { sel: 1 };
            return;
        };
        let Some(&solver) = Watched::all().get(sel) else {
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
    fn watch_command(&mut self, cmd: Command, fx: &mut Vec<Effect>) {
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

    fn start_item(&mut self, sel: usize, fx: &mut Vec<Effect>) {
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

    fn toggle_setting(&mut self, sel: usize, forward: bool, fx: &mut Vec<Effect>) {
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

    fn new_game(&mut self, size: usize, level: usize, fx: &mut Vec<Effect>) {
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

    /// Generates a puzzle on the worker while the player waits.
    fn generate(&mut self, shape: Shape, level: Level, fx: &mut Vec<Effect>) {
        let label = SIZES
            .iter()
            .find(|&&(_, r, c)| (r, c) == (shape.box_rows(), shape.box_cols()))
            .map_or_else(|| shape.to_string(), |(l, _, _)| l.to_string());
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
    fn ready_puzzle(&mut self, fx: &mut Vec<Effect>) {
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

    /// Puts a refilled puzzle in the pool, under the level it was graded at
    /// (a miss still serves that level).
    fn refilled(&mut self, graded: Graded, fx: &mut Vec<Effect>) {
        let level = graded.level();
        let rating = graded.grade.map(|g| g.rating);
        let made = graded.generated;
        let shape = made.puzzle.shape();
        let asked = (shape, made.level);
        if level == Some(made.level) {
            self.pool_misses.remove(&asked);
        } else {
            // Some levels are out of reach for a size (a 4×4 never needs
            // more than singles) or take too long: stop asking after a few.
            let misses = self.pool_misses.entry(asked).or_default();
            *misses += 1;
            if *misses >= POOL_MISSES {
                self.pool_wanted.remove(&asked);
            }
        }
        // Not graded in time: no level to pool it under.
        let Some(level) = level else {
            return;
        };
        fx.push(Effect::AddPooled(Box::new(PoolEntry {
            puzzle: made.puzzle,
            solution: made.solution,
            seed: made.seed,
            level,
            rating,
        })));
        // Counted now, so the next tick does not ask for the same key again
        // before the runner answers.
        *self.pool.entry((shape, level)).or_default() += 1;
    }

    /// Starts a puzzle taken from the pool.
    fn start_pooled(&mut self, e: PoolEntry, fx: &mut Vec<Effect>) {
        let origin = Origin {
            level: Some(e.level),
            seed: Some(e.seed),
            title: None,
        };
        self.play_made(&e.puzzle, e.solution, origin, e.rating, fx);
    }

    /// Starts a freshly made puzzle (generated or pooled) and says what it
    /// is on the status line.
    fn play_made(
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

    fn start_game(&mut self, game: Game, fx: &mut Vec<Effect>) {
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

    fn job_done(&mut self, r: JobResult, fx: &mut Vec<Effect>) {
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
                    Err(e) => self.status = e.to_string(),
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
                    self.status = e.to_string();
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

    fn loaded(&mut self, l: Loaded, fx: &mut Vec<Effect>) {
        match l {
            Loaded::Recovered(g, why) => {
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
                self.cursor = first_empty(&g);
                self.game = Some(g);
                self.screen = Screen::Playing;
                self.overlay = None;
                self.hint = None;
                self.status = "resumed".into();
            }
            Loaded::Error(e) => self.status = e.to_string(),
        }
    }

    fn play_command(&mut self, cmd: Command, fx: &mut Vec<Effect>) {
        let wrap = self.config.play.wrap;
        let Some(g) = &mut self.game else {
            self.screen = Screen::Start { sel: 1 };
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
            self.typed.reset();
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
                    self.dirty = true;
                    self.quiet = Duration::ZERO;
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
                if g.solve() {
                    true
                } else {
                    self.status = "no known solution".into();
                    false
                }
            }
            Command::Hint => {
                self.hint_step(fx);
                return;
            }
            Command::Watch => {
                self.screen = Screen::WatchMenu { sel: 0 };
                return;
            }
            Command::LogicSolve => {
                if g.solution().is_none() {
                    self.status = "the solution is not known yet: no path to show".into();
                } else {
                    let at = position(g);
                    let game = Box::new(g.clone());
                    let id = self.job(JobKind::Walk { game }, fx);
                    self.pending_walk = Some((id, at));
                    self.status = "working out the logic path…".into();
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
                self.screen = Screen::Start { sel: 0 };
                false
            }
            Command::Cancel => {
                if self.hint.is_some() {
                    self.hint = None;
                    self.status.clear();
                } else {
                    self.autosave_now(fx);
                    self.screen = Screen::Start { sel: 0 };
                }
                false
            }
            _ => false,
        };
        if changed {
            self.after_move(fx);
        }
    }

    /// Stage 1 names the technique and marks the units, stage 2 shows the
    /// cells and the explanation, stage 3 applies the step.
    fn hint_step(&mut self, fx: &mut Vec<Effect>) {
        let auto = self.config.play.auto_remove_notes;
        let Some(g) = &mut self.game else {
            return;
        };
        match self.hint.take() {
            None => {
                // The technique solver can take longer than a frame (chains
                // and forcing chains on a hard 9×9, any step on big boards):
                // ask the worker, keep the keys responsive.
                let game = Box::new(g.clone());
                let at = position(g);
                let id = self.job(JobKind::Hint { game }, fx);
                self.pending_hint = Some((id, at));
                self.status = "looking for a hint…".into();
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

    fn show_hint(&mut self, h: Option<Hint>) {
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

    fn click(&mut self, x: u16, y: u16) {
        if !self.config.play.mouse {
            return;
        }
        match &mut self.screen {
            Screen::Playing if self.overlay.is_none() => {
                let Some(g) = &self.game else {
                    return;
                };
                let area = ui::board_area(Rect::new(0, 0, self.size.0, self.size.1), g.shape());
                if let Some(c) = Geometry::new(g.shape(), area, self.cursor).cell_at(x, y) {
                    self.cursor = c;
                    self.typed.reset();
                }
            }
            Screen::Start { sel } => {
                if let Some(i) = ui::menu_item_at(
                    Rect::new(0, 0, self.size.0, self.size.1),
                    START_ITEMS.len(),
                    x,
                    y,
                ) {
                    *sel = i;
                }
            }
            _ => {}
        }
    }

    fn tick(&mut self, dt: Duration, fx: &mut Vec<Effect>) {
        self.spinner = self.spinner.wrapping_add(1);
        if let Screen::Watch { playback, .. } = &mut self.screen {
            playback.tick(dt);
        }
        let playing =
            matches!(self.screen, Screen::Playing) && self.overlay.is_none() && self.focused;
        if let Some(g) = &mut self.game
            && playing
        {
            g.advance(dt);
        }
        if self.dirty {
            self.quiet += dt;
            if self.quiet >= AUTOSAVE_AFTER {
                self.autosave_now(fx);
            }
        }
        self.refill_pool(fx);
    }

    /// Starts a pool refill when the worker is idle and a wanted shape and
    /// level has room ([`pool::capacity`]).
    fn refill_pool(&mut self, fx: &mut Vec<Effect>) {
        let busy = self.refill.is_some()
            || self.pending_hint.is_some()
            || self.pending_walk.is_some()
            || matches!(self.screen, Screen::Working { .. } | Screen::Watch { .. });
        if busy {
            return;
        }
        let Some(&(shape, level)) = self.pool_wanted.iter().find(|&&(shape, level)| {
            self.pool.get(&(shape, level)).copied().unwrap_or(0) < pool::capacity(shape)
        }) else {
            return;
        };
        let seed = self.next_seed();
        self.refill = Some(self.job(JobKind::Refill { shape, level, seed }, fx));
    }

    fn autosave_now(&mut self, fx: &mut Vec<Effect>) {
        if !self.config.play.autosave {
            self.dirty = false;
            return;
        }
        if let Some(g) = &self.game
            && self.dirty
            && !g.is_solved()
        {
            fx.push(Effect::Autosave(Box::new(g.to_save()), meta(g)));
            self.autosave = Some(meta(g));
        }
        self.dirty = false;
    }
}

/// The statistics key of a game: `9x9/medium`, `6x6/easy`, `9x9/imported`.
pub fn stats_key(g: &Game) -> String {
    let s = g.shape();
    let level = g.origin().level.map_or("imported", |l| l.name());
    format!("{}x{}/{level}", s.n(), s.n())
}

/// The save summary of a game.
pub fn meta(g: &Game) -> SaveMeta {
    let (filled, cells) = g.progress();
    let s = g.shape();
    SaveMeta {
        size: if s.box_rows() == s.box_cols() {
            format!("{}×{}", s.n(), s.n())
        } else {
            format!(
                "{}×{} ({}×{} boxes)",
                s.n(),
                s.n(),
                s.box_rows(),
                s.box_cols()
            )
        },
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

/// The new-game dialog with `shape` and `level` selected.
fn new_game_screen(shape: Shape, level: Level) -> Screen {
    Screen::NewGame {
        size: SIZES
            .iter()
            .position(|s| s.1 == shape.box_rows() && s.2 == shape.box_cols())
            .unwrap_or(2),
        level: LEVELS.iter().position(|&l| l == level).unwrap_or(1),
        row: 0,
    }
}

/// Identifies a position of a game: moves made and the undo history's
/// length (any change, undo or redo alters one of them).
fn position(g: &Game) -> (u32, usize) {
    (g.moves(), g.history().undo.len())
}

/// The value letter `ch` names on an n×n board, for boards of 10 to 35
/// (`A` is 10); `None` for other letters, other characters and sizes.
fn letter_value(n: usize, ch: char) -> Option<crate::engine::Value> {
    if (10..=35).contains(&n) && ch.is_ascii_alphabetic() {
        parse_symbol(n, &ch.to_string())
    } else {
        None
    }
}
