//! What the runner keeps on disk for a game besides imports: which
//! autosave slot this game holds (two games on one data folder never share
//! one), statistics changed under their lock and read for their screen,
//! games left unfinished, and whether "Save as" would replace another game.

use std::path::PathBuf;

use super::keep::FileKeep;
use super::{GAME_KIND, GAME_SAVE_VERSION};
use crate::game::{Game, GameSave};
use crate::store::lock::{Held, hold, try_hold};
use crate::store::{Dirs, SaveMeta, Saves, Stats, peek_save};
use crate::tui::action::UNFINISHED;

/// Game slots tried before giving up on an autosave of this game's own.
const SLOTS: usize = 9;

/// The first autosave slot no other running dekadoku holds, with its
/// lock, and what to tell the player when it is not the first (or none
/// is free, or locks do not work here: then the first, unlocked).
pub(super) fn claim_slot(dirs: &Dirs) -> (PathBuf, Option<Held>, Option<String>) {
    for k in 1..=SLOTS {
        match try_hold(&dirs.slot_lock(k)) {
            Ok(Some(held)) => {
                let path = dirs.autosave_slot(k);
                let said = (k > 1).then(|| {
                    format!(
                        "another dekadoku is playing from this data folder: this one keeps its \
                         game in {}",
                        path.display()
                    )
                });
                return (path, Some(held), said);
            }
            Ok(None) => continue,
            Err(e) => {
                return (
                    dirs.autosave_file(),
                    None,
                    Some(format!(
                        "{}: {e}; two games on this data folder would share one autosave",
                        dirs.slot_lock(k).display()
                    )),
                );
            }
        }
    }
    (
        dirs.autosave_slot(SLOTS + 1),
        None,
        Some(format!(
            "{SLOTS} other dekadoku games are playing from this data folder: this one's \
             autosave is unlocked"
        )),
    )
}

/// The game a save holds, or why it holds none (the check of
/// [`read_checked_or_backup`]).
pub(super) fn game_of(save: GameSave) -> Result<Game, crate::game::SaveError> {
    Game::from_save(&save)
}

/// Changes the statistics as a read-modify-write under their lock, so
/// two games on one data folder both count (each reads what the other
/// wrote). Without the lock (it cannot be taken) the change still lands,
/// on this game's copy.
pub(super) fn update_stats<T>(ctx: &mut FileKeep, change: impl FnOnce(&mut Stats) -> T) -> T {
    let file = ctx.dirs.stats_file();
    let lock = hold(&ctx.dirs.stats_lock());
    if lock.is_ok() {
        let (fresh, warning) = Stats::load(&file);
        // A file that went bad meanwhile: keep counting on what we had.
        if warning.is_none() {
            ctx.stats = fresh;
        }
    }
    let out = change(&mut ctx.stats);
    let _ = ctx.stats.save(&file);
    drop(lock);
    out
}

/// The statistics as the file holds them now (another game on this data
/// folder may have counted since), for the statistics screen. A file that
/// cannot be read leaves what this game had.
pub(super) fn read_stats(ctx: &mut FileKeep) -> Stats {
    // Writes replace the file whole (write_atomic), so no lock is needed
    // to read it.
    let (fresh, warning) = Stats::load(&ctx.dirs.stats_file());
    if warning.is_none() {
        ctx.stats = fresh;
    }
    ctx.stats.clone()
}

/// Keeps a game the player left unfinished among the named saves: as
/// `again` (the `unfinished-…` save it was loaded from), else as the first
/// free `unfinished-N`; what to tell the player.
pub(super) fn keep_unfinished(
    saves: &Saves,
    save: &GameSave,
    meta: &SaveMeta,
    again: Option<&str>,
) -> String {
    let name = unfinished_name(again.map(str::to_owned), |n| {
        saves.path_for(n).is_ok_and(|p| !p.exists())
    });
    let kept = saves.save(&name, GAME_KIND, GAME_SAVE_VERSION, meta, save);
    unfinished_said(&name, kept)
}

/// The name an unfinished game is kept under: `again` (the save it was
/// loaded from), else the first `unfinished-N` that is `free`.
pub(crate) fn unfinished_name(again: Option<String>, free: impl Fn(&str) -> bool) -> String {
    again.unwrap_or_else(|| {
        (1..10_000)
            .map(|k| format!("{UNFINISHED}{k}"))
            .find(|n| free(n))
            .unwrap_or_else(|| "unfinished".into())
    })
}

/// What the player is told once an unfinished game was kept as `name`,
/// or not.
pub(crate) fn unfinished_said<T>(name: &str, kept: Result<T, impl std::fmt::Display>) -> String {
    match kept {
        Ok(_) => format!("your unfinished game is kept as “{name}” (Load)"),
        Err(e) => format!("your unfinished game could not be kept: {e}"),
    }
}

/// Whether saving `save` as `name` would replace a save of another game
/// (other givens, or a file there that does not read as a game). Saving
/// the same puzzle again, or under a new name, replaces nothing.
pub(super) fn replaces_another_game(saves: &Saves, name: &str, save: &GameSave) -> bool {
    let Ok(path) = saves.path_for(name) else {
        return false; // the save itself reports the bad name
    };
    if !path.exists() {
        return false;
    }
    // Only looked at: a damaged file there stays where it is until the
    // player decides.
    match peek_save::<GameSave>(&path, GAME_KIND, GAME_SAVE_VERSION) {
        Some(old) => !old.same_puzzle(save),
        None => true,
    }
}
