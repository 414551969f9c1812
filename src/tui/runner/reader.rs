//! The game's reads, each on a short-lived thread of its own: a puzzle
//! file, pasted text, a named save, the autosave (or its backup), the
//! list of saves. The UI thread only starts them; the answer comes back
//! as an action on a channel the loop listens to. A read never waits on
//! the worker (a generation may be running) and the worker never waits on
//! a read; a read stuck in the system (a FIFO put in a checked file's
//! place, a hung network disk) holds only its own thread, which the game
//! does not wait for when it quits.

use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crossbeam_channel::Sender;

use super::files::game_of;
use super::import::{import_file_until, import_text, resume};
use crate::game::GAME_SAVE_VERSION;
use crate::store::{Saves, read_checked_or_backup};
use crate::tui::action::{Action, GAME_KIND, LoadGameError, Loaded, SaveListing, ToRead};
use crate::tui::worker::panic_text;

/// The reading threads' name: the runner's panic hook leaves the screen
/// alone for their panics, which are caught and said on the status line.
pub(super) const THREAD_NAME: &str = "dekadoku-reader";

/// Where the reads find the game's files.
#[derive(Debug, Clone)]
pub(super) struct Places {
    /// The named saves' folder.
    pub saves: PathBuf,
    /// This game's autosave.
    pub autosave: PathBuf,
}

/// Reads `what` (a puzzle file until `cancel` is raised; the others are
/// capped and end on their own).
pub(super) fn read(what: ToRead, places: &Places, cancel: &AtomicBool) -> Loaded {
    match what {
        ToRead::Puzzle(path) => {
            let loaded = import_file_until(&path, cancel);
            // No such file, but what was typed is a puzzle (a line of 81
            // characters, say): that puzzle.
            if let Loaded::Error(LoadGameError::Io { source, .. }) = &loaded
                && source.kind() == std::io::ErrorKind::NotFound
                && let typed @ Loaded::Game(_) = import_text(&path.to_string_lossy(), "typed text")
            {
                return typed;
            }
            loaded
        }
        ToRead::Pasted(text) => import_text(&text, "pasted text"),
        ToRead::Save(name) => resume(Saves::new(&places.saves).load_checked(
            &name,
            GAME_KIND,
            GAME_SAVE_VERSION,
            game_of,
        )),
        ToRead::Autosave => resume(read_checked_or_backup(
            &places.autosave,
            GAME_KIND,
            GAME_SAVE_VERSION,
            game_of,
        )),
    }
}

/// Starts reading `what` for the read `job`; [`Action::Read`] comes back
/// on `done` (also when the read panicked: [`LoadGameError::Internal`]).
pub(super) fn spawn(
    job: u64,
    what: ToRead,
    places: Places,
    cancel: Arc<AtomicBool>,
    done: Sender<Action>,
) -> std::io::Result<()> {
    spawn_with(job, done, move || read(what, &places, &cancel))
}

/// [`spawn`] with the reading given (tests give one that panics, or one
/// that waits).
pub(super) fn spawn_with(
    job: u64,
    done: Sender<Action>,
    read: impl FnOnce() -> Loaded + Send + 'static,
) -> std::io::Result<()> {
    on_thread(done, move || {
        let loaded = std::panic::catch_unwind(AssertUnwindSafe(read)).unwrap_or_else(|payload| {
            Loaded::Error(LoadGameError::Internal(panic_text(payload.as_ref())))
        });
        Action::Read { job, loaded }
    })
}

/// Starts reading the list of saves in `dir`; [`Action::Saves`] comes
/// back on `done` (an empty list if the reading panicked).
pub(super) fn spawn_list(dir: PathBuf, done: Sender<Action>) -> std::io::Result<()> {
    on_thread(done, move || {
        let list = std::panic::catch_unwind(|| {
            Saves::new(dir)
                .list()
                .into_iter()
                .map(|e| SaveListing {
                    name: e.name,
                    meta: e.meta.map_err(Arc::new),
                })
                .collect()
        });
        Action::Saves(list.unwrap_or_default())
    })
}

/// Runs `work` on a reading thread of its own and sends its action (a
/// loop that is gone no longer wants it).
fn on_thread(
    done: Sender<Action>,
    work: impl FnOnce() -> Action + Send + 'static,
) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name(THREAD_NAME.into())
        .spawn(move || {
            let _ = done.send(work());
        })
        .map(drop)
}

#[cfg(test)]
mod tests;
