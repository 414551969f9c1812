//! Everything that can happen to the app: commands from keys, raw input for
//! text fields, mouse clicks, ticks, and the results of effects the runner
//! performed (jobs finished, files read).

use std::io;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use ratatui::crossterm::event::KeyEvent;
use strum::{EnumIter, EnumString, IntoStaticStr};

use crate::engine::format::FormatError;
use crate::engine::generate::daily::Date;
use crate::game::{Game, GameSave};
use crate::store::{LoadError, MetaError, SaveMeta, StoreError};

use super::worker::JobResult;

/// A named command, as key bindings name them (`"undo"`, `"move_up"`, …):
/// the names and the order (the help's) come from strum.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, EnumIter, EnumString, IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum Command {
    /// Cursor up.
    MoveUp,
    /// Cursor down.
    MoveDown,
    /// Cursor left.
    MoveLeft,
    /// Cursor right.
    MoveRight,
    /// Lists: a page up.
    PageUp,
    /// Lists: a page down.
    PageDown,
    /// Clear the cell (entry, else notes).
    Clear,
    /// Switch between entering values and toggling notes.
    #[strum(serialize = "toggle_notes")]
    ToggleNoteMode,
    /// Undo the last move.
    Undo,
    /// Redo the last undone move.
    Redo,
    /// Note every empty cell's candidates.
    FillNotes,
    /// Remove every note.
    ClearNotes,
    /// Mark wrong entries.
    Check,
    /// Fill the board from the solution.
    Solve,
    /// The next hint stage.
    Hint,
    /// Step through the logic solver's whole path.
    LogicSolve,
    /// Watch a solver solve the puzzle, step by step (`solve_visually`
    /// is its name from before, still read).
    #[strum(to_string = "watch", serialize = "solve_visually")]
    Watch,
    /// Solver view: jump to the end.
    Finish,
    /// Crash on purpose, to test that the terminal is restored and the
    /// game saved (bound to no key unless the config binds it).
    DebugPanic,
    /// Show or hide the statistics.
    #[strum(to_string = "statistics", serialize = "stats")]
    Stats,
    /// Show or hide the key help.
    Help,
    /// Pause or resume.
    Pause,
    /// Save under a name.
    SaveAs,
    /// Back to the start screen (the game is kept).
    Menu,
    /// Confirm / choose.
    Confirm,
    /// Cancel / close.
    Cancel,
    /// Quit the program.
    Quit,
}

impl Command {
    /// The name used in key binding files.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// What the command does, for the help overlay.
    pub fn describe(self) -> &'static str {
        match self {
            Command::MoveUp => "move up",
            Command::MoveDown => "move down",
            Command::MoveLeft => "move left",
            Command::MoveRight => "move right",
            Command::PageUp => "page up",
            Command::PageDown => "page down",
            Command::Clear => "clear the cell",
            Command::ToggleNoteMode => "note mode on/off",
            Command::Undo => "undo",
            Command::Redo => "redo",
            Command::FillNotes => "fill in all candidates",
            Command::ClearNotes => "remove all notes",
            Command::Check => "check entries",
            Command::Solve => "solve the board",
            Command::Hint => "hint (press again for more)",
            Command::LogicSolve => "step through the logic solution",
            Command::Watch => "watch a solver solve it",
            Command::Finish => "jump to the end",
            Command::DebugPanic => "crash on purpose (testing)",
            Command::Stats => "statistics",
            Command::Help => "this help",
            Command::Pause => "pause",
            Command::SaveAs => "save as…",
            Command::Menu => "menu",
            Command::Confirm => "choose / enter typed value",
            Command::Cancel => "close / back",
            Command::Quit => "quit",
        }
    }

    /// The command with this name (or an older name of it).
    pub fn from_name(name: &str) -> Option<Command> {
        name.parse().ok()
    }
}

/// What a load or import produced.
#[derive(Debug)]
pub enum Loaded {
    /// A game to play.
    Game(Box<Game>),
    /// A game to play from a save's backup, and why the save itself could
    /// not be used (said on the status line).
    Recovered(Box<Game>, LoadError),
    /// The file or text could not be used (said on the status line).
    Error(LoadGameError),
}

/// Why a save, a puzzle file or pasted text gave no game to play.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadGameError {
    /// The save (or the autosave) could not be read.
    #[error(transparent)]
    Save(#[from] LoadError),
    /// Not a regular file (a FIFO, a device, a folder): reading it could
    /// wait forever or never end, so it is refused.
    #[error("{}: not a regular file; expected a puzzle file", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// A puzzle file larger than an import reads.
    #[error("{}: the file is over {} MiB; expected a puzzle file", path.display(), max >> 20)]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The most an import reads, in bytes.
        max: u64,
    },
    /// A puzzle file that could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// Text that is not a puzzle (the error names the line and column).
    #[error(transparent)]
    Format(#[from] FormatError),
    /// Text without a puzzle in it.
    #[error("{from}: no puzzle found")]
    NoPuzzle {
        /// Where the text came from (a file, "pasted text").
        from: String,
    },
    /// The player stopped the reading (Esc).
    #[error("{}: reading stopped", path.display())]
    Cancelled {
        /// The file.
        path: PathBuf,
    },
    /// The reading stopped on an internal error (a panic, caught on the
    /// reading thread) or could not start.
    #[error("internal error while reading: {0}")]
    Internal(String),
    /// A game kept in a server's database could not be used (`what`: the
    /// save's name, or "your autosave").
    #[error("{what}: {reason}")]
    Kept {
        /// Which game.
        what: String,
        /// What is wrong.
        reason: String,
    },
}

/// What the game reads on a thread of its own ([`super::app::Effect::Read`],
/// answered by [`Action::Read`]), never on the UI thread: a puzzle file
/// could be a FIFO or a slow disk, a save is up to 64 MiB.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToRead {
    /// A puzzle file, by the path the player typed.
    Puzzle(PathBuf),
    /// A pasted puzzle (only parsed: a big one takes a moment).
    Pasted(String),
    /// The named save.
    Save(String),
    /// The autosave (or its backup).
    Autosave,
}

impl ToRead {
    /// What is being read, as the player knows it.
    pub fn label(&self) -> String {
        match self {
            ToRead::Puzzle(path) => path.display().to_string(),
            ToRead::Pasted(_) => "the pasted puzzle".into(),
            ToRead::Save(name) => format!("the save “{name}”"),
            ToRead::Autosave => "the autosave".into(),
        }
    }
}

/// A served day's board of times (`dekadoku serve`): the fastest
/// unassisted solves of the daily puzzle on the server, and the player's
/// own place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DailyBoard {
    /// The day.
    pub date: Date,
    /// The fastest, fastest first.
    pub rows: Vec<BoardRow>,
    /// The player's place and how many are on the board, if they are.
    pub mine: Option<(u64, u64)>,
    /// The player's display name, if they chose one.
    pub name: Option<String>,
}

/// One line of a [`DailyBoard`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardRow {
    /// The place (1 is the fastest).
    pub rank: u64,
    /// The player's display name (none: they chose none).
    pub name: Option<String>,
    /// The time, in seconds.
    pub secs: u64,
    /// This is the player's own line.
    pub me: bool,
}

/// One entry of the saves list.
#[derive(Debug, Clone)]
pub struct SaveListing {
    /// The save's name.
    pub name: String,
    /// Its summary, or why it cannot be read (shared: the list is part of
    /// a screen, which is cloned).
    pub meta: Result<SaveMeta, Arc<MetaError>>,
}

/// An input to [`super::app::App::update`].
#[derive(Debug)]
pub enum Action {
    /// A key, as the terminal reported it (the keymap turns it into a
    /// command, a typed value, or text for a field).
    Key(KeyEvent),
    /// A command directly (tests, mouse menus).
    Command(Command),
    /// A mouse click at a screen position.
    Click {
        /// Column.
        x: u16,
        /// Row.
        y: u16,
    },
    /// Pasted text (bracketed paste).
    Paste(String),
    /// The terminal's new size.
    Resize(u16, u16),
    /// Time passed.
    Tick(Duration),
    /// Today's date, sent by the runner at the start and whenever the day
    /// turns (the daily puzzle is the date's): `update` never reads a
    /// clock itself.
    Today(Date),
    /// The terminal gained (true) or lost focus.
    Focus(bool),
    /// A worker job finished.
    Job(JobResult),
    /// A saved or imported game was read (whatever the app is doing:
    /// tests; the runner answers a read with [`Action::Read`]).
    Loaded(Loaded),
    /// What the read `job` ([`super::app::Effect::Read`]) gave: used
    /// while the app still waits for that read, dropped otherwise.
    Read {
        /// The read's id.
        job: u64,
        /// The game, or why there is none.
        loaded: Loaded,
    },
    /// The list of named saves.
    Saves(Vec<SaveListing>),
    /// The day's board of times, as read for its screen (served games).
    DailyBoard(Box<DailyBoard>),
    /// The display name the player chose was taken (`Ok`, as kept) or
    /// refused (why).
    NameSet(Result<String, String>),
    /// A save was written under this name (or failed, and why).
    Saved(Result<String, StoreError>),
    /// "Save as" would replace a save of another game: nothing was
    /// written; the app asks.
    SaveWouldReplace(String),
    /// The statistics, as read for the statistics screen.
    Stats(Box<crate::store::Stats>),
    /// A win was recorded: whether it is a new best, and the best time.
    Recorded {
        /// New best for this size and level.
        new_best: bool,
        /// The best time, in seconds.
        best_secs: Option<u64>,
    },
    /// Continue is available (an autosave exists), with its summary.
    AutosaveFound(Option<SaveMeta>),
    /// The theme switched to, with its styles.
    Theme(String, Box<super::style::Styles>),
    /// Something to tell the player on the status line.
    Status(String),
    /// What the pool gave for a New game (`None`: it was empty after
    /// all), and how many are left for that shape and level.
    Pooled {
        /// The shape asked for.
        shape: crate::engine::Shape,
        /// The level asked for.
        level: crate::engine::Level,
        /// The puzzle taken.
        entry: Option<Box<crate::store::PoolEntry>>,
        /// Puzzles left for this shape and level.
        left: usize,
    },
    /// How many puzzles the pool holds for a shape and level.
    PoolCount(crate::engine::Shape, crate::engine::Level, usize),
    /// Trace events from the traced job `job`, as many as the solver view
    /// wanted or fewer; `ended` once the solver sent its last.
    Trace {
        /// The job.
        job: u64,
        /// The events, in order.
        events: Vec<crate::engine::TraceEvent>,
        /// No more will come.
        ended: bool,
    },
}

/// Saved-game payload kind and version, as written in the envelope.
pub const GAME_KIND: &str = "game";

/// How the names of games kept because the player left them unfinished
/// begin (`unfinished-1`, `unfinished-2`, …).
pub const UNFINISHED: &str = "unfinished-";

/// Re-exported for effects.
pub type Save = GameSave;

#[cfg(test)]
mod tests {
    use super::*;

    /// The status line says what it said when these were Strings.
    #[test]
    fn load_errors_read_as_before() {
        let big = LoadGameError::TooLarge {
            path: PathBuf::from("/x/p.txt"),
            max: 16 << 20,
        };
        assert_eq!(
            big.to_string(),
            "/x/p.txt: the file is over 16 MiB; expected a puzzle file"
        );
        let none = LoadGameError::NoPuzzle {
            from: "pasted text".into(),
        };
        assert_eq!(none.to_string(), "pasted text: no puzzle found");
        let io = LoadGameError::Io {
            path: PathBuf::from("/x/p.txt"),
            source: io::Error::from(io::ErrorKind::NotFound),
        };
        assert!(io.to_string().starts_with("/x/p.txt: "), "{io}");
        assert!(std::error::Error::source(&io).is_some());
    }
}
