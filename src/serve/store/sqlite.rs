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
    Settings, StoreLimits, check_display_name, meta_from, meta_json, save_name,
};

/// How long a write waits for another connection's.
pub const BUSY_WAIT: Duration = Duration::from_secs(5);

/// The schema, one migration per version (version = index + 1). A
/// migration is never edited once released: a change is a new one.
const MIGRATIONS: &[&str] = &[
    // 1: players, their games, settings, statistics, the daily results.
    "CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        fingerprint TEXT NOT NULL UNIQUE,
        algorithm TEXT NOT NULL,
        name TEXT,
        name_key TEXT UNIQUE,
        created_at INTEGER NOT NULL,
        last_seen INTEGER NOT NULL
    );
    CREATE TABLE autosaves (
        player_id INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
        meta TEXT NOT NULL,
        envelope BLOB NOT NULL
    );
    CREATE TABLE saves (
        player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        meta TEXT NOT NULL,
        envelope BLOB NOT NULL,
        PRIMARY KEY (player_id, name)
    );
    CREATE TABLE settings (
        player_id INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
        theme TEXT NOT NULL,
        play TEXT NOT NULL
    );
    CREATE TABLE stats (
        player_id INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
        body BLOB NOT NULL
    );
    CREATE TABLE daily_results (
        date TEXT NOT NULL,
        player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        secs INTEGER NOT NULL,
        solved_at INTEGER NOT NULL,
        PRIMARY KEY (date, player_id)
    );
    CREATE INDEX daily_by_time ON daily_results (date, secs, solved_at);",
];

/// The newest schema version this build knows.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// A [`PlayerStore`] in an SQLite database.
#[derive(Debug)]
pub struct Sqlite {
    conn: Mutex<Connection>,
    limits: StoreLimits,
}

fn backend(e: rusqlite::Error) -> DbError {
    DbError::Backend(e.to_string())
}

/// Seconds and sizes as SQLite's integers.
fn int(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

fn uint(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
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

    fn check_size(&self, what: &'static str, bytes: usize) -> Result<(), DbError> {
        if bytes > self.limits.max_bytes {
            return Err(DbError::TooLarge {
                what,
                bytes,
                max: self.limits.max_bytes,
            });
        }
        Ok(())
    }
}

fn version(conn: &Connection) -> Result<i64, DbError> {
    conn.query_row("SELECT version FROM schema_version", [], |r| r.get(0))
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
    tx.execute_batch("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        .map_err(backend)?;
    let found = version(&tx)?;
    if found > SCHEMA_VERSION {
        return Err(DbError::TooNew {
            found,
            known: SCHEMA_VERSION,
        });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(uint(found) as usize) {
        tx.execute_batch(sql).map_err(backend)?;
        let v = i as i64 + 1;
        tx.execute("DELETE FROM schema_version", [])
            .map_err(backend)?;
        tx.execute("INSERT INTO schema_version (version) VALUES (?1)", [v])
            .map_err(backend)?;
    }
    tx.commit().map_err(backend)
}

impl PlayerStore for Sqlite {
    fn player(&self, key: &PlayerKey, now: u64) -> Result<Player, DbError> {
        let mut conn = self.lock();
        let tx = conn.transaction().map_err(backend)?;
        tx.execute(
            "INSERT INTO players (fingerprint, algorithm, created_at, last_seen)
             VALUES (?1, ?2, ?3, ?3)
             ON CONFLICT (fingerprint) DO UPDATE SET last_seen = excluded.last_seen",
            params![key.fingerprint, key.algorithm, int(now)],
        )
        .map_err(backend)?;
        let player = tx
            .query_row(
                "SELECT id, name FROM players WHERE fingerprint = ?1",
                [&key.fingerprint],
                |r| {
                    Ok(Player {
                        id: r.get(0)?,
                        name: r.get(1)?,
                    })
                },
            )
            .map_err(backend)?;
        tx.commit().map_err(backend)?;
        Ok(player)
    }

    fn set_name(&self, player: PlayerId, name: &str) -> Result<(), DbError> {
        let name = check_display_name(name)?;
        let conn = self.lock();
        let taken: Option<PlayerId> = conn
            .query_row(
                "SELECT id FROM players WHERE name_key = ?1",
                [name.to_lowercase()],
                |r| r.get(0),
            )
            .optional()
            .map_err(backend)?;
        if taken.is_some_and(|id| id != player) {
            return Err(DbError::BadName {
                name,
                reason: "another player has it",
            });
        }
        conn.execute(
            "UPDATE players SET name = ?1, name_key = ?2 WHERE id = ?3",
            params![name, name.to_lowercase(), player],
        )
        .map_err(|e| match e {
            // Taken between the look and the write by another server.
            rusqlite::Error::SqliteFailure(f, _)
                if f.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                DbError::BadName {
                    name: name.clone(),
                    reason: "another player has it",
                }
            }
            e => backend(e),
        })?;
        Ok(())
    }

    fn autosave(&self, player: PlayerId) -> Result<Option<SavedGame>, DbError> {
        let conn = self.lock();
        let row: Option<(String, Vec<u8>)> = conn
            .query_row(
                "SELECT meta, envelope FROM autosaves WHERE player_id = ?1",
                [player],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(backend)?;
        row.map(|(meta, envelope)| {
            Ok(SavedGame {
                meta: meta_from(&meta)?,
                envelope,
            })
        })
        .transpose()
    }

    fn put_autosave(&self, player: PlayerId, game: &SavedGame) -> Result<(), DbError> {
        self.check_size("the game", game.envelope.len())?;
        self.lock()
            .execute(
                "INSERT INTO autosaves (player_id, meta, envelope) VALUES (?1, ?2, ?3)
                 ON CONFLICT (player_id) DO UPDATE
                 SET meta = excluded.meta, envelope = excluded.envelope",
                params![player, meta_json(&game.meta), game.envelope],
            )
            .map_err(backend)?;
        Ok(())
    }

    fn clear_autosave(&self, player: PlayerId) -> Result<(), DbError> {
        self.lock()
            .execute("DELETE FROM autosaves WHERE player_id = ?1", [player])
            .map_err(backend)?;
        Ok(())
    }

    fn saves(&self, player: PlayerId) -> Result<Vec<SaveRow>, DbError> {
        let conn = self.lock();
        let mut stmt = conn
            .prepare("SELECT name, meta FROM saves WHERE player_id = ?1 ORDER BY name")
            .map_err(backend)?;
        let rows = stmt
            .query_map([player], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
            })
            .map_err(backend)?;
        let mut out = Vec::new();
        for row in rows {
            let (name, meta) = row.map_err(backend)?;
            out.push(SaveRow {
                name,
                meta: meta_from(&meta)?,
            });
        }
        Ok(out)
    }

    fn save(&self, player: PlayerId, name: &str) -> Result<Option<SavedGame>, DbError> {
        let name = save_name(name)?;
        let conn = self.lock();
        let row: Option<(String, Vec<u8>)> = conn
            .query_row(
                "SELECT meta, envelope FROM saves WHERE player_id = ?1 AND name = ?2",
                params![player, name],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(backend)?;
        row.map(|(meta, envelope)| {
            Ok(SavedGame {
                meta: meta_from(&meta)?,
                envelope,
            })
        })
        .transpose()
    }

    fn put_save(
        &self,
        player: PlayerId,
        name: &str,
        game: &SavedGame,
        overwrite: bool,
    ) -> Result<PutSave, DbError> {
        let name = save_name(name)?;
        self.check_size("the game", game.envelope.len())?;
        let mut conn = self.lock();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(backend)?;
        let exists = tx
            .query_row(
                "SELECT 1 FROM saves WHERE player_id = ?1 AND name = ?2",
                params![player, name],
                |_| Ok(()),
            )
            .optional()
            .map_err(backend)?
            .is_some();
        if exists && !overwrite {
            return Ok(PutSave::Exists);
        }
        if !exists {
            let kept: i64 = tx
                .query_row(
                    "SELECT COUNT(*) FROM saves WHERE player_id = ?1",
                    [player],
                    |r| r.get(0),
                )
                .map_err(backend)?;
            if uint(kept) as usize >= self.limits.max_saves {
                return Err(DbError::TooManySaves {
                    max: self.limits.max_saves,
                });
            }
        }
        tx.execute(
            "INSERT INTO saves (player_id, name, meta, envelope) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (player_id, name) DO UPDATE
             SET meta = excluded.meta, envelope = excluded.envelope",
            params![player, name, meta_json(&game.meta), game.envelope],
        )
        .map_err(backend)?;
        tx.commit().map_err(backend)?;
        Ok(PutSave::Written)
    }

    fn delete_save(&self, player: PlayerId, name: &str) -> Result<bool, DbError> {
        let name = save_name(name)?;
        let n = self
            .lock()
            .execute(
                "DELETE FROM saves WHERE player_id = ?1 AND name = ?2",
                params![player, name],
            )
            .map_err(backend)?;
        Ok(n > 0)
    }

    fn settings(&self, player: PlayerId) -> Result<Option<Settings>, DbError> {
        self.lock()
            .query_row(
                "SELECT theme, play FROM settings WHERE player_id = ?1",
                [player],
                |r| {
                    Ok(Settings {
                        theme: r.get(0)?,
                        play_toml: r.get(1)?,
                    })
                },
            )
            .optional()
            .map_err(backend)
    }

    fn put_settings(&self, player: PlayerId, settings: &Settings) -> Result<(), DbError> {
        self.check_size(
            "the settings",
            settings.theme.len() + settings.play_toml.len(),
        )?;
        self.lock()
            .execute(
                "INSERT INTO settings (player_id, theme, play) VALUES (?1, ?2, ?3)
                 ON CONFLICT (player_id) DO UPDATE SET theme = excluded.theme, play = excluded.play",
                params![player, settings.theme, settings.play_toml],
            )
            .map_err(backend)?;
        Ok(())
    }

    fn stats(&self, player: PlayerId) -> Result<Option<Vec<u8>>, DbError> {
        self.lock()
            .query_row(
                "SELECT body FROM stats WHERE player_id = ?1",
                [player],
                |r| r.get(0),
            )
            .optional()
            .map_err(backend)
    }

    fn put_stats(&self, player: PlayerId, json: &[u8]) -> Result<(), DbError> {
        self.check_size("the statistics", json.len())?;
        self.lock()
            .execute(
                "INSERT INTO stats (player_id, body) VALUES (?1, ?2)
                 ON CONFLICT (player_id) DO UPDATE SET body = excluded.body",
                params![player, json],
            )
            .map_err(backend)?;
        Ok(())
    }

    fn record_daily(
        &self,
        date: &str,
        player: PlayerId,
        secs: u64,
        now: u64,
    ) -> Result<(), DbError> {
        self.lock()
            .execute(
                "INSERT INTO daily_results (date, player_id, secs, solved_at)
                 VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (date, player_id) DO UPDATE
                 SET secs = excluded.secs, solved_at = excluded.solved_at
                 WHERE excluded.secs < daily_results.secs",
                params![date, player, int(secs), int(now)],
            )
            .map_err(backend)?;
        Ok(())
    }

    fn daily_board(&self, date: &str, limit: usize) -> Result<Vec<DailyEntry>, DbError> {
        let conn = self.lock();
        let mut stmt = conn
            .prepare(
                "SELECT d.player_id, p.name, d.secs FROM daily_results d
                 JOIN players p ON p.id = d.player_id
                 WHERE d.date = ?1
                 ORDER BY d.secs, d.solved_at, d.player_id
                 LIMIT ?2",
            )
            .map_err(backend)?;
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
        let conn = self.lock();
        let mine: Option<(i64, i64)> = conn
            .query_row(
                "SELECT secs, solved_at FROM daily_results WHERE date = ?1 AND player_id = ?2",
                params![date, player],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(backend)?;
        let Some((secs, at)) = mine else {
            return Ok(None);
        };
        let (ahead, total): (i64, i64) = conn
            .query_row(
                "SELECT
                   SUM(CASE WHEN secs < ?2 OR (secs = ?2 AND solved_at < ?3)
                            OR (secs = ?2 AND solved_at = ?3 AND player_id < ?4)
                       THEN 1 ELSE 0 END),
                   COUNT(*)
                 FROM daily_results WHERE date = ?1",
                params![date, secs, at, player],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map_err(backend)?;
        Ok(Some((uint(ahead) + 1, uint(total))))
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
