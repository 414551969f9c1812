//! The players' store of a server: who each player is (their SSH key),
//! their autosave, named saves, settings and statistics, and the daily
//! puzzle's results shared by everyone on the server.
//!
//! One trait, [`PlayerStore`], with a backend per database: SQLite
//! ([`Sqlite`], embedded, one file in WAL mode; the default) and
//! PostgreSQL ([`Postgres`], several servers sharing players). Both keep the schema in
//! numbered migrations and refuse a database written by a newer dekadoku
//! rather than change it.
//!
//! Games are kept as the same versioned JSON envelope the local game
//! writes to files (`store::saves`), with their [`SaveMeta`] beside them
//! for listing, so a row and a file read back the same way. Every value a
//! player can grow is bounded ([`StoreLimits`]): the number of saves, the
//! size of one, the length of names.

use thiserror::Error;

use crate::store::SaveMeta;

mod postgres;
mod sql;
mod sqlite;

pub use postgres::Postgres;
pub use sqlite::Sqlite;

/// A player's id in the store.
pub type PlayerId = i64;

/// Who a player is: the SSH public key they authenticated with, by its
/// SHA-256 fingerprint (`SHA256:…`, as `ssh-keygen -l` prints it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerKey {
    /// The key's fingerprint.
    pub fingerprint: String,
    /// Its algorithm (`ssh-ed25519`), kept for the logs.
    pub algorithm: String,
}

/// A player as the store knows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// The player's id.
    pub id: PlayerId,
    /// The display name they chose, if any.
    pub name: Option<String>,
}

/// A saved game: the envelope's bytes and what it says about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedGame {
    /// The summary shown in lists.
    pub meta: SaveMeta,
    /// The whole envelope, as `store::saves` writes it.
    pub envelope: Vec<u8>,
}

/// One named save in a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveRow {
    /// The save's name.
    pub name: String,
    /// Its summary.
    pub meta: SaveMeta,
}

/// What [`PlayerStore::put_save`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PutSave {
    /// The save was written (new, or over the old one when asked to).
    Written,
    /// A save of that name exists and overwriting was not asked for:
    /// nothing was written.
    Exists,
}

/// A player's settings: the theme's name and the play settings as TOML.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// The theme's name.
    pub theme: String,
    /// The `[play]` settings, as the local config writes them.
    pub play_toml: String,
}

/// One line of a daily puzzle's board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DailyEntry {
    /// The player.
    pub player: PlayerId,
    /// Their display name, if they chose one.
    pub name: Option<String>,
    /// Their best unassisted time on that day's puzzle.
    pub secs: u64,
}

/// The bounds on what one player can keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoreLimits {
    /// Named saves per player.
    pub max_saves: usize,
    /// Bytes in one saved game's envelope (the autosave too), and in the
    /// statistics.
    pub max_bytes: usize,
}

impl StoreLimits {
    /// Refuses `what` of `bytes` bytes when it is over [`max_bytes`](Self::max_bytes).
    pub fn check(&self, what: &'static str, bytes: usize) -> Result<(), DbError> {
        if bytes > self.max_bytes {
            return Err(DbError::TooLarge {
                what,
                bytes,
                max: self.max_bytes,
            });
        }
        Ok(())
    }

    /// The rule of a named save, which both backends apply inside the
    /// transaction that writes it: a name the player has is kept unless
    /// `overwrite` (`Ok(false)`: do not write); a new name is refused when
    /// the player keeps [`max_saves`](Self::max_saves) already (`kept`
    /// counts them, asked only then).
    fn may_write_save(
        &self,
        exists: bool,
        overwrite: bool,
        kept: impl FnOnce() -> Result<i64, DbError>,
    ) -> Result<bool, DbError> {
        if exists {
            return Ok(overwrite);
        }
        if usize::try_from(kept()?).unwrap_or(usize::MAX) >= self.max_saves {
            return Err(DbError::TooManySaves {
                max: self.max_saves,
            });
        }
        Ok(true)
    }
}

impl Default for StoreLimits {
    /// 200 saves of at most 4 MiB each: a 25×25 game with a long history
    /// is far below that, and a player cannot fill the server's disk.
    fn default() -> StoreLimits {
        StoreLimits {
            max_saves: 200,
            max_bytes: 4 * 1024 * 1024,
        }
    }
}

/// The longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// Why the store could not do what was asked.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum DbError {
    /// The database itself failed (I/O, locking, a damaged file).
    #[error("database: {0}")]
    Backend(String),
    /// The database was made by a newer dekadoku: it is left untouched.
    #[error(
        "the database is at schema version {found}, newer than this dekadoku knows ({known}); it was not changed"
    )]
    TooNew {
        /// The database's version.
        found: i64,
        /// The newest this build knows.
        known: i64,
    },
    /// A display name that is taken or not allowed.
    #[error("the name {name:?} cannot be used: {reason}")]
    BadName {
        /// The name asked for.
        name: String,
        /// Why not.
        reason: &'static str,
    },
    /// A save name that is not allowed.
    #[error("the save name {name:?} cannot be used: {reason}")]
    BadSaveName {
        /// The name asked for.
        name: String,
        /// Why not.
        reason: String,
    },
    /// The player already keeps the most saves allowed.
    #[error("at most {max} saves are kept; delete one first")]
    TooManySaves {
        /// The limit.
        max: usize,
    },
    /// A save or the statistics are larger than allowed.
    #[error("{what} is {bytes} bytes, more than the {max} allowed")]
    TooLarge {
        /// What was too large.
        what: &'static str,
        /// Its size.
        bytes: usize,
        /// The limit.
        max: usize,
    },
    /// A stored value does not read back (a damaged row).
    #[error("a stored {what} does not read back: {reason}")]
    Damaged {
        /// What was read.
        what: &'static str,
        /// Why it failed.
        reason: String,
    },
}

/// The store of a server's players. Every method is one transaction;
/// the store may be shared between the connections' threads.
pub trait PlayerStore: Send + Sync {
    /// The player with this key, created on first sight; `now` (seconds
    /// since the Unix epoch) becomes their last visit.
    fn player(&self, key: &PlayerKey, now: u64) -> Result<Player, DbError>;
    /// Sets the player's display name (see [`check_display_name`]); names
    /// are unique on the server, whatever their case.
    fn set_name(&self, player: PlayerId, name: &str) -> Result<(), DbError>;

    /// The player's autosave, if any.
    fn autosave(&self, player: PlayerId) -> Result<Option<SavedGame>, DbError>;
    /// Replaces the player's autosave.
    fn put_autosave(&self, player: PlayerId, game: &SavedGame) -> Result<(), DbError>;
    /// Removes the player's autosave (the game was won).
    fn clear_autosave(&self, player: PlayerId) -> Result<(), DbError>;

    /// The player's named saves, by name.
    fn saves(&self, player: PlayerId) -> Result<Vec<SaveRow>, DbError>;
    /// One named save.
    fn save(&self, player: PlayerId, name: &str) -> Result<Option<SavedGame>, DbError>;
    /// Writes a named save (the name as `store::sanitize_name` makes it);
    /// over an existing one only with `overwrite`.
    fn put_save(
        &self,
        player: PlayerId,
        name: &str,
        game: &SavedGame,
        overwrite: bool,
    ) -> Result<PutSave, DbError>;
    /// Deletes a named save; whether there was one.
    fn delete_save(&self, player: PlayerId, name: &str) -> Result<bool, DbError>;

    /// The player's settings, if they changed any.
    fn settings(&self, player: PlayerId) -> Result<Option<Settings>, DbError>;
    /// Keeps the player's settings.
    fn put_settings(&self, player: PlayerId, settings: &Settings) -> Result<(), DbError>;

    /// The player's statistics (the JSON the local game keeps in
    /// `stats.json`), if any.
    fn stats(&self, player: PlayerId) -> Result<Option<Vec<u8>>, DbError>;
    /// Replaces the player's statistics.
    fn put_stats(&self, player: PlayerId, json: &[u8]) -> Result<(), DbError>;

    /// Records an unassisted solve of the daily puzzle of `date`
    /// (`2026-11-27`) in `secs`; the player's best time of the day stays.
    fn record_daily(
        &self,
        date: &str,
        player: PlayerId,
        secs: u64,
        now: u64,
    ) -> Result<(), DbError>;
    /// The fastest `limit` of the day, fastest first (ties: who solved it
    /// first).
    fn daily_board(&self, date: &str, limit: usize) -> Result<Vec<DailyEntry>, DbError>;
    /// The player's place on the day's board and how many are on it.
    fn daily_rank(&self, date: &str, player: PlayerId) -> Result<Option<(u64, u64)>, DbError>;
}

/// Checks a display name: 1 to [`MAX_NAME_CHARS`] characters, letters,
/// digits, spaces, `-`, `_` and `.`, not blank; returns it trimmed.
pub fn check_display_name(name: &str) -> Result<String, DbError> {
    let bad = |reason| DbError::BadName {
        name: name.to_string(),
        reason,
    };
    let name = name.trim();
    if name.is_empty() {
        return Err(bad("it is empty"));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(bad("it is longer than 24 characters"));
    }
    if !name
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.'))
    {
        return Err(bad(
            "only letters, digits, spaces, '-', '_' and '.' are allowed",
        ));
    }
    Ok(name.to_string())
}

/// The save name as the local game would make it, or why not.
fn save_name(name: &str) -> Result<String, DbError> {
    crate::store::sanitize_name(name).map_err(|e| DbError::BadSaveName {
        name: name.to_string(),
        reason: e.to_string(),
    })
}

/// The meta as stored: JSON.
fn meta_json(meta: &SaveMeta) -> String {
    // A SaveMeta is strings and numbers: it always encodes.
    serde_json::to_string(meta).unwrap_or_else(|_| "{}".to_string())
}

fn meta_from(json: &str) -> Result<SaveMeta, DbError> {
    serde_json::from_str(json).map_err(|e| DbError::Damaged {
        what: "save summary",
        reason: e.to_string(),
    })
}

/// A saved game from its stored meta and envelope.
fn saved_game(meta: &str, envelope: Vec<u8>) -> Result<SavedGame, DbError> {
    Ok(SavedGame {
        meta: meta_from(meta)?,
        envelope,
    })
}

/// Named saves from their stored names and metas, by name.
fn save_rows(rows: impl IntoIterator<Item = (String, String)>) -> Result<Vec<SaveRow>, DbError> {
    let mut out = rows
        .into_iter()
        .map(|(name, meta)| {
            Ok(SaveRow {
                name,
                meta: meta_from(&meta)?,
            })
        })
        .collect::<Result<Vec<_>, DbError>>()?;
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// Seconds and sizes as the databases' signed integers, and back.
fn int(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

fn uint(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

#[cfg(test)]
pub(crate) mod conformance;
