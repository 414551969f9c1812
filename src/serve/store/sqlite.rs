//! The SQLite backend: one file in WAL mode (readers do not wait for the
//! writer, a crash loses nothing committed), reached through one
//! connection per store; every method is one transaction. Two `serve`
//! processes may open the same file: SQLite locks it, and a writer waits
//! up to [`BUSY_WAIT`] for the other.

use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use super::{
    DailyEntry, DbError, Player, PlayerId, PlayerKey, PlayerStore, PutSave, SaveRow, SavedGame,
    Settings, StoreLimits, check_display_name, int, meta_json, save_name, save_rows, saved_game,
    sql, uint,
};

/// How long a write waits for another connection's.
pub const BUSY_WAIT: Duration = Duration::from_secs(5);

use super::sql::SCHEMA_VERSION;

/// A [`PlayerStore`] in an SQLite database.
#[derive(Debug)]
pub struct Sqlite {
    conn: Mutex<Connection>,
    limits: StoreLimits,
}

fn backend(e: rusqlite::Error) -> DbError {
    DbError::Backend(e.to_string())
}

impl Sqlite {
    /// Opens (creating it if need be) the database file at `path` and
    /// brings its schema up to date.
    pub fn open(path: &Path, limits: StoreLimits) -> Result<Sqlite, DbError> {
        let conn = Connection::open(path).map_err(backend)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(backend)?;
        Sqlite::with(conn, limits)
    }

    /// A database in memory, gone when the store is dropped (tests).
    pub fn in_memory(limits: StoreLimits) -> Result<Sqlite, DbError> {
        Sqlite::with(Connection::open_in_memory().map_err(backend)?, limits)
    }

    fn with(mut conn: Connection, limits: StoreLimits) -> Result<Sqlite, DbError> {
        conn.busy_timeout(BUSY_WAIT).map_err(backend)?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(backend)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(backend)?;
        migrate(&mut conn)?;
        Ok(Sqlite {
            conn: Mutex::new(conn),
            limits,
        })
    }

    /// The schema version of the database.
    pub fn schema_version(&self) -> Result<i64, DbError> {
        version(&self.lock())
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A connection whose holder panicked is still a connection: the
        // transaction it had open was rolled back when it was dropped.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs a statement that changes rows; how many it changed.
    fn run(&self, sql: &str, params: impl rusqlite::Params) -> Result<usize, DbError> {
        self.lock().execute(sql, params).map_err(backend)
    }

    /// A saved game from a statement that selects its meta and envelope.
    fn game(&self, sql: &str, params: impl rusqlite::Params) -> Result<Option<SavedGame>, DbError> {
        let row: Option<(String, Vec<u8>)> = self
            .lock()
            .query_row(sql, params, |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()
            .map_err(backend)?;
        row.map(|(meta, envelope)| saved_game(&meta, envelope))
            .transpose()
    }
}

fn version(conn: &Connection) -> Result<i64, DbError> {
    conn.query_row(sql::VERSION, [], |r| r.get(0))
        .optional()
        .map(|v| v.unwrap_or(0))
        .map_err(backend)
}

/// Applies the migrations the database lacks, each with its version in
/// one transaction, taken before reading the version so that two servers
/// starting at once do not both apply one.
fn migrate(conn: &mut Connection) -> Result<(), DbError> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(backend)?;
    tx.execute_batch(sql::CREATE_VERSION).map_err(backend)?;
    let found = version(&tx)?;
    if found > SCHEMA_VERSION {
        return Err(DbError::TooNew {
            found,
            known: SCHEMA_VERSION,
        });
    }
    let migrations = sql::schema("INTEGER PRIMARY KEY", "BLOB");
    for (i, migration) in migrations.iter().enumerate().skip(uint(found) as usize) {
        tx.execute_batch(migration).map_err(backend)?;
        tx.execute(sql::CLEAR_VERSION, []).map_err(backend)?;
        tx.execute(sql::SET_VERSION, [i as i64 + 1])
            .map_err(backend)?;
    }
    tx.commit().map_err(backend)
}

impl PlayerStore for Sqlite {
    fn player(&self, key: &PlayerKey, now: u64) -> Result<Player, DbError> {
        self.lock()
            .query_row(
                sql::PLAYER,
                params![key.fingerprint, key.algorithm, int(now)],
                |r| {
                    Ok(Player {
                        id: r.get(0)?,
                        name: r.get(1)?,
                    })
                },
            )
            .map_err(backend)
    }

    fn set_name(&self, player: PlayerId, name: &str) -> Result<(), DbError> {
        let name = check_display_name(name)?;
        let r = self
            .lock()
            .execute(sql::SET_NAME, params![name, name.to_lowercase(), player]);
        match r {
            Ok(_) => Ok(()),
            Err(rusqlite::Error::SqliteFailure(f, _))
                if f.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                Err(DbError::BadName {
                    name,
                    reason: "another player has it",
                })
            }
            Err(e) => Err(backend(e)),
        }
    }

    fn autosave(&self, player: PlayerId) -> Result<Option<SavedGame>, DbError> {
        self.game(sql::AUTOSAVE, [player])
    }

    fn put_autosave(&self, player: PlayerId, game: &SavedGame) -> Result<(), DbError> {
        self.limits.check("the game", game.envelope.len())?;
        self.run(
            sql::PUT_AUTOSAVE,
            params![player, meta_json(&game.meta), game.envelope],
        )
        .map(drop)
    }

    fn clear_autosave(&self, player: PlayerId) -> Result<(), DbError> {
        self.run(sql::CLEAR_AUTOSAVE, [player]).map(drop)
    }

    fn saves(&self, player: PlayerId) -> Result<Vec<SaveRow>, DbError> {
        let conn = self.lock();
        let mut stmt = conn.prepare(sql::SAVES).map_err(backend)?;
        let rows = stmt
            .query_map([player], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(backend)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(backend)?;
        save_rows(rows)
    }

    fn save(&self, player: PlayerId, name: &str) -> Result<Option<SavedGame>, DbError> {
        self.game(sql::SAVE, params![player, save_name(name)?])
    }

    fn put_save(
        &self,
        player: PlayerId,
        name: &str,
        game: &SavedGame,
        overwrite: bool,
    ) -> Result<PutSave, DbError> {
        let name = save_name(name)?;
        self.limits.check("the game", game.envelope.len())?;
        let mut conn = self.lock();
        // Immediate: the write lock first, so the count holds.
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(backend)?;
        let exists = tx
            .query_row(sql::SAVE_EXISTS, params![player, name], |_| Ok(()))
            .optional()
            .map_err(backend)?
            .is_some();
        let kept = || {
            tx.query_row(sql::SAVE_COUNT, [player], |r| r.get(0))
                .map_err(backend)
        };
        if !self.limits.may_write_save(exists, overwrite, kept)? {
            return Ok(PutSave::Exists);
        }
        tx.execute(
            sql::PUT_SAVE,
            params![player, name, meta_json(&game.meta), game.envelope],
        )
        .map_err(backend)?;
        tx.commit().map_err(backend)?;
        Ok(PutSave::Written)
    }

    fn delete_save(&self, player: PlayerId, name: &str) -> Result<bool, DbError> {
        Ok(self.run(sql::DELETE_SAVE, params![player, save_name(name)?])? > 0)
    }

    fn settings(&self, player: PlayerId) -> Result<Option<Settings>, DbError> {
        self.lock()
            .query_row(sql::SETTINGS, [player], |r| {
                Ok(Settings {
                    theme: r.get(0)?,
                    play_toml: r.get(1)?,
                })
            })
            .optional()
            .map_err(backend)
    }

    fn put_settings(&self, player: PlayerId, settings: &Settings) -> Result<(), DbError> {
        self.limits.check(
            "the settings",
            settings.theme.len() + settings.play_toml.len(),
        )?;
        self.run(
            sql::PUT_SETTINGS,
            params![player, settings.theme, settings.play_toml],
        )
        .map(drop)
    }

    fn stats(&self, player: PlayerId) -> Result<Option<Vec<u8>>, DbError> {
        self.lock()
            .query_row(sql::STATS, [player], |r| r.get(0))
            .optional()
            .map_err(backend)
    }

    fn put_stats(&self, player: PlayerId, json: &[u8]) -> Result<(), DbError> {
        self.limits.check("the statistics", json.len())?;
        self.run(sql::PUT_STATS, params![player, json]).map(drop)
    }

    fn record_daily(
        &self,
        date: &str,
        player: PlayerId,
        secs: u64,
        now: u64,
    ) -> Result<(), DbError> {
        self.run(
            sql::RECORD_DAILY,
            params![date, player, int(secs), int(now)],
        )
        .map(drop)
    }

    fn daily_board(&self, date: &str, limit: usize) -> Result<Vec<DailyEntry>, DbError> {
        let conn = self.lock();
        let mut stmt = conn.prepare(sql::DAILY_BOARD).map_err(backend)?;
        let rows = stmt
            .query_map(params![date, int(limit as u64)], |r| {
                Ok(DailyEntry {
                    player: r.get(0)?,
                    name: r.get(1)?,
                    secs: uint(r.get(2)?),
                })
            })
            .map_err(backend)?;
        rows.collect::<Result<_, _>>().map_err(backend)
    }

    fn daily_rank(&self, date: &str, player: PlayerId) -> Result<Option<(u64, u64)>, DbError> {
        let (ahead, total): (Option<i64>, i64) = self
            .lock()
            .query_row(sql::DAILY_RANK, params![date, player], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .map_err(backend)?;
        Ok(ahead
            .filter(|_| total > 0)
            .map(|a| (uint(a) + 1, uint(total))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::store::conformance;

    fn key(n: u32) -> PlayerKey {
        PlayerKey {
            fingerprint: format!("SHA256:k{n}"),
            algorithm: "ssh-ed25519".to_string(),
        }
    }

    #[test]
    fn behaves_as_a_player_store() {
        conformance::suite(&|| {
            Box::new(Sqlite::in_memory(StoreLimits::default()).expect("an in-memory database"))
        });
    }

    #[test]
    fn a_file_keeps_its_players_across_opens() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("players.db");
        let id = {
            let s = Sqlite::open(&path, StoreLimits::default()).unwrap();
            assert_eq!(s.schema_version().unwrap(), SCHEMA_VERSION);
            let id = s.player(&key(1), 1).unwrap().id;
            s.set_name(id, "kept").unwrap();
            s.put_stats(id, b"{}").unwrap();
            id
        };
        let s = Sqlite::open(&path, StoreLimits::default()).unwrap();
        let p = s.player(&key(1), 2).unwrap();
        assert_eq!((p.id, p.name.as_deref()), (id, Some("kept")));
        assert_eq!(s.stats(id).unwrap().as_deref(), Some(&b"{}"[..]));
        let mode: String = s
            .lock()
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
    }

    #[test]
    fn a_database_from_a_newer_dekadoku_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("players.db");
        drop(Sqlite::open(&path, StoreLimits::default()).unwrap());
        let newer = SCHEMA_VERSION + 1;
        {
            let c = Connection::open(&path).unwrap();
            c.execute("UPDATE schema_version SET version = ?1", [newer])
                .unwrap();
        }
        let err = Sqlite::open(&path, StoreLimits::default()).unwrap_err();
        assert!(
            matches!(err, DbError::TooNew { found, known } if found == newer && known == SCHEMA_VERSION),
            "{err}"
        );
        let c = Connection::open(&path).unwrap();
        let v: i64 = c
            .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(v, newer);
    }

    #[test]
    fn something_else_than_a_database_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("players.db");
        std::fs::write(
            &path,
            b"this is not an SQLite database, but it is long enough",
        )
        .unwrap();
        let err = Sqlite::open(&path, StoreLimits::default()).unwrap_err();
        assert!(matches!(err, DbError::Backend(_)), "{err}");
        assert_eq!(
            std::fs::read(&path).unwrap(),
            b"this is not an SQLite database, but it is long enough"
        );
    }

    /// Two stores on one file (two `serve` processes) and threads on each,
    /// all writing at once: every write lands.
    #[test]
    fn two_stores_on_one_file_lose_no_write() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("players.db");
        let stores = [
            std::sync::Arc::new(Sqlite::open(&path, StoreLimits::default()).unwrap()),
            std::sync::Arc::new(Sqlite::open(&path, StoreLimits::default()).unwrap()),
        ];
        let threads: Vec<_> = (0..8u32)
            .map(|t| {
                let s = std::sync::Arc::clone(&stores[t as usize % 2]);
                std::thread::spawn(move || {
                    let id = s.player(&key(t), 1).unwrap().id;
                    for i in 0..25 {
                        let game = SavedGame {
                            meta: crate::store::SaveMeta::default(),
                            envelope: format!("{t}-{i}").into_bytes(),
                        };
                        s.put_save(id, &format!("g{i}"), &game, false).unwrap();
                        s.put_autosave(id, &game).unwrap();
                        s.record_daily("2026-11-27", id, u64::from(t) * 100 + i, 1)
                            .unwrap();
                    }
                    id
                })
            })
            .collect();
        let ids: Vec<PlayerId> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        let s = Sqlite::open(&path, StoreLimits::default()).unwrap();
        for (t, &id) in ids.iter().enumerate() {
            assert_eq!(s.saves(id).unwrap().len(), 25);
            assert_eq!(
                s.autosave(id).unwrap().unwrap().envelope,
                format!("{t}-24").into_bytes()
            );
        }
        let board = s.daily_board("2026-11-27", 100).unwrap();
        assert_eq!(board.len(), 8);
        assert_eq!(board[0].secs, 0);
    }
}
