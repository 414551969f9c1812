//! Where the local game keeps things: files under the player's data
//! folder (the autosave slot this game holds, named saves, statistics,
//! the puzzle pool) and `config.toml` for the settings.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::files::{keep_unfinished, read_stats, replaces_another_game, update_stats};
use super::{
    GAME_KIND, GAME_SAVE_VERSION, Jobs, Keep, SaveReport, add_pooled, now_secs, reader, take_pooled,
};
use crate::store::lock::Held;
use crate::store::{Dirs, Pool, Saves, Stats, remove_save, save_settings, write_save};
use crate::tui::action::{Action, LoadGameError, Loaded};
use crate::tui::app::Effect;

/// The local game's files.
pub(crate) struct FileKeep {
    pub(crate) dirs: Dirs,
    pub(crate) saves: Saves,
    pub(crate) stats: Stats,
    pub(crate) pool: Pool,
    pub(crate) autosave: SaveReport,
    /// This game's autosave: `autosave.json`, or another slot's while
    /// another dekadoku plays from the same data folder.
    pub(crate) autosave_file: PathBuf,
    /// The lock on that slot, held while the game runs.
    pub(crate) _slot: Option<Held>,
}

impl Keep for FileKeep {
    fn keep(&mut self, e: Effect, jobs: &mut Jobs) -> Option<Action> {
        match e {
            Effect::Autosave(save, mut meta) => {
                meta.saved_at = now_secs();
                // A failed autosave is retried after the next move; the
                // player hears of it once, and again once it works.
                let written = write_save(
                    &self.autosave_file,
                    GAME_KIND,
                    GAME_SAVE_VERSION,
                    &meta,
                    &*save,
                );
                self.autosave.after(written).map(Action::Status)
            }
            Effect::ClearAutosave => {
                let _ = remove_save(&self.autosave_file);
                None
            }
            Effect::SaveAs {
                name,
                save,
                mut meta,
                overwrite,
            } => {
                if !overwrite && replaces_another_game(&self.saves, &name, &save) {
                    return Some(Action::SaveWouldReplace(name));
                }
                meta.saved_at = now_secs();
                Some(Action::Saved(
                    self.saves
                        .save(&name, GAME_KIND, GAME_SAVE_VERSION, &meta, &*save)
                        .map(|_| name),
                ))
            }
            Effect::KeepUnfinished(save, mut meta, again) => {
                meta.saved_at = now_secs();
                Some(Action::Status(keep_unfinished(
                    &self.saves,
                    &save,
                    &meta,
                    again.as_deref(),
                )))
            }
            // Reads go to threads of their own: the answer comes back on
            // jobs.reads (a thread that cannot start is an answer at once).
            Effect::ListSaves => reader::spawn_list(self.dirs.saves_dir(), jobs.reads.clone())
                .err()
                .map(|e| Action::Status(format!("the saves could not be listed: {e}"))),
            Effect::Read { job, what } => {
                let flag = Arc::new(AtomicBool::new(false));
                let places = reader::Places {
                    saves: self.dirs.saves_dir(),
                    autosave: self.autosave_file.clone(),
                };
                match reader::spawn(job, what, places, Arc::clone(&flag), jobs.reads.clone()) {
                    Ok(()) => {
                        jobs.track(job, flag);
                        None
                    }
                    Err(e) => Some(Action::Read {
                        job,
                        loaded: Loaded::Error(LoadGameError::Internal(format!(
                            "could not start reading: {e}"
                        ))),
                    }),
                }
            }
            Effect::RecordStart { key, daily } => {
                update_stats(self, |s| s.record_game_start(&key, daily));
                None
            }
            Effect::RecordUnfinished(key) => {
                update_stats(self, |s| s.record_unfinished(&key));
                None
            }
            Effect::ReadStats => Some(Action::Stats(Box::new(read_stats(self)))),
            Effect::RecordWin {
                key,
                secs,
                hints,
                assisted,
                daily,
            } => {
                let new_best = update_stats(self, |s| {
                    s.record_game_win(&key, secs, u64::from(hints), assisted, daily, now_secs())
                });
                Some(Action::Recorded {
                    new_best,
                    best_secs: self.stats.get(&key).best_secs,
                })
            }
            Effect::SaveSettings(theme, play) => {
                let path = self.dirs.config_file();
                Some(Action::Status(match save_settings(&path, &theme, &play) {
                    Ok(()) => format!("saved in {}", path.display()),
                    Err(e) => format!("not saved: {e}"),
                }))
            }
            Effect::TakePooled(shape, level) => Some(take_pooled(&self.pool, shape, level)),
            Effect::AddPooled(entry) => Some(add_pooled(&self.pool, *entry)),
            // Kept by a server only (the menu offers them only there).
            Effect::ReadDailyBoard(_) | Effect::SetName(_) => Some(Action::Status(
                "the daily board is kept by a server (dekadoku serve)".into(),
            )),
            // The runner's own (jobs, looks, quitting).
            Effect::Start(_)
            | Effect::Cancel(_)
            | Effect::MuteTrace(_)
            | Effect::SetTheme(_)
            | Effect::Quit => None,
        }
    }
}
