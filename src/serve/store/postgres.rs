//! The PostgreSQL backend, for servers that share their players: several
//! `serve` processes (behind a TCP balancer, or on several machines) on
//! one database. The same schema as SQLite's in PostgreSQL's types, the
//! same numbered migrations (taken under an advisory lock, so servers
//! starting together apply each once), one transaction a call.

use std::sync::{Mutex, MutexGuard};

use postgres::error::SqlState;
use postgres::{Client, NoTls, Transaction};

use super::{
    DailyEntry, DbError, Player, PlayerId, PlayerKey, PlayerStore, PutSave, SaveRow, SavedGame,
    Settings, StoreLimits, check_display_name, meta_from, meta_json, save_name,
};

/// The schema, one migration per version (version = index + 1); never
/// edited once released.
const MIGRATIONS: &[&str] = &[
    // 1: players, their games, settings, statistics, the daily results.
    "CREATE TABLE players (
        id BIGSERIAL PRIMARY KEY,
        fingerprint TEXT NOT NULL UNIQUE,
        algorithm TEXT NOT NULL,
        name TEXT,
        name_key TEXT UNIQUE,
        created_at BIGINT NOT NULL,
        last_seen BIGINT NOT NULL
    );
    CREATE TABLE autosaves (
        player_id BIGINT PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
        meta TEXT NOT NULL,
        envelope BYTEA NOT NULL
    );
    CREATE TABLE saves (
        player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        meta TEXT NOT NULL,
        envelope BYTEA NOT NULL,
        PRIMARY KEY (player_id, name)
    );
    CREATE TABLE settings (
        player_id BIGINT PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
        theme TEXT NOT NULL,
        play TEXT NOT NULL
    );
    CREATE TABLE stats (
        player_id BIGINT PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
        body BYTEA NOT NULL
    );
    CREATE TABLE daily_results (
        date TEXT NOT NULL,
        player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        secs BIGINT NOT NULL,
        solved_at BIGINT NOT NULL,
        PRIMARY KEY (date, player_id)
    );
    CREATE INDEX daily_by_time ON daily_results (date, secs, solved_at);",
];

/// The newest schema version this build knows.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// The advisory lock the migrations are applied under ("dkdk").
const MIGRATION_LOCK: i64 = 0x646b_646b;

/// A [`PlayerStore`] in a PostgreSQL database.
pub struct Postgres {
    client: Mutex<Client>,
    limits: StoreLimits,
}

impl std::fmt::Debug for Postgres {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Postgres")
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

fn backend(e: postgres::Error) -> DbError {
    DbError::Backend(e.to_string())
}

fn int(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

fn uint(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

impl Postgres {
    /// Connects with a libpq-style connection string or URL
    /// (`host=/run/postgresql dbname=dekadoku`, `postgresql://…`) and
    /// brings the schema up to date. Without TLS: for a database on the
    /// same machine or a private network.
    pub fn connect(params: &str, limits: StoreLimits) -> Result<Postgres, DbError> {
        let mut client = Client::connect(params, NoTls).map_err(backend)?;
        migrate(&mut client)?;
        Ok(Postgres {
            client: Mutex::new(client),
            limits,
        })
    }

    /// The schema version of the database.
    pub fn schema_version(&self) -> Result<i64, DbError> {
        let mut c = self.lock();
        let mut tx = c.transaction().map_err(backend)?;
        version(&mut tx)
    }

    fn lock(&self) -> MutexGuard<'_, Client> {
        self.client.lock().unwrap_or_else(|p| p.into_inner())
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

fn version(tx: &mut Transaction<'_>) -> Result<i64, DbError> {
    let row = tx
        .query_opt("SELECT version FROM schema_version", &[])
        .map_err(backend)?;
    Ok(row.map_or(0, |r| r.get(0)))
}

fn migrate(client: &mut Client) -> Result<(), DbError> {
    let mut tx = client.transaction().map_err(backend)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .map_err(backend)?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
        .map_err(backend)?;
    let found = version(&mut tx)?;
    if found > SCHEMA_VERSION {
        return Err(DbError::TooNew {
            found,
            known: SCHEMA_VERSION,
        });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(uint(found) as usize) {
        tx.batch_execute(sql).map_err(backend)?;
        let v = i as i64 + 1;
        tx.execute("DELETE FROM schema_version", &[])
            .map_err(backend)?;
        tx.execute("INSERT INTO schema_version (version) VALUES ($1)", &[&v])
            .map_err(backend)?;
    }
    tx.commit().map_err(backend)
}

impl PlayerStore for Postgres {
    fn player(&self, key: &PlayerKey, now: u64) -> Result<Player, DbError> {
        let row = self
            .lock()
            .query_one(
                "INSERT INTO players (fingerprint, algorithm, created_at, last_seen)
                 VALUES ($1, $2, $3, $3)
                 ON CONFLICT (fingerprint) DO UPDATE SET last_seen = EXCLUDED.last_seen
                 RETURNING id, name",
                &[&key.fingerprint, &key.algorithm, &int(now)],
            )
            .map_err(backend)?;
        Ok(Player {
            id: row.get(0),
            name: row.get(1),
        })
    }

    fn set_name(&self, player: PlayerId, name: &str) -> Result<(), DbError> {
        let name = check_display_name(name)?;
        let key = name.to_lowercase();
        let r = self.lock().execute(
            "UPDATE players SET name = $1, name_key = $2 WHERE id = $3",
            &[&name, &key, &player],
        );
        match r {
            Ok(_) => Ok(()),
            Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => Err(DbError::BadName {
                name,
                reason: "another player has it",
            }),
            Err(e) => Err(backend(e)),
        }
    }

    fn autosave(&self, player: PlayerId) -> Result<Option<SavedGame>, DbError> {
        let row = self
            .lock()
            .query_opt(
                "SELECT meta, envelope FROM autosaves WHERE player_id = $1",
                &[&player],
            )
            .map_err(backend)?;
        row.map(|r| {
            Ok(SavedGame {
                meta: meta_from(r.get(0))?,
                envelope: r.get(1),
            })
        })
        .transpose()
    }

    fn put_autosave(&self, player: PlayerId, game: &SavedGame) -> Result<(), DbError> {
        self.check_size("the game", game.envelope.len())?;
        self.lock()
            .execute(
                "INSERT INTO autosaves (player_id, meta, envelope) VALUES ($1, $2, $3)
                 ON CONFLICT (player_id) DO UPDATE
                 SET meta = EXCLUDED.meta, envelope = EXCLUDED.envelope",
                &[&player, &meta_json(&game.meta), &game.envelope],
            )
            .map_err(backend)?;
        Ok(())
    }

    fn clear_autosave(&self, player: PlayerId) -> Result<(), DbError> {
        self.lock()
            .execute("DELETE FROM autosaves WHERE player_id = $1", &[&player])
            .map_err(backend)?;
        Ok(())
    }

    fn saves(&self, player: PlayerId) -> Result<Vec<SaveRow>, DbError> {
        let rows = self
            .lock()
            .query(
                "SELECT name, meta FROM saves WHERE player_id = $1 ORDER BY name COLLATE \"C\"",
                &[&player],
            )
            .map_err(backend)?;
        rows.iter()
            .map(|r| {
                Ok(SaveRow {
                    name: r.get(0),
                    meta: meta_from(r.get(1))?,
                })
            })
            .collect()
    }

    fn save(&self, player: PlayerId, name: &str) -> Result<Option<SavedGame>, DbError> {
        let name = save_name(name)?;
        let row = self
            .lock()
            .query_opt(
                "SELECT meta, envelope FROM saves WHERE player_id = $1 AND name = $2",
                &[&player, &name],
            )
            .map_err(backend)?;
        row.map(|r| {
            Ok(SavedGame {
                meta: meta_from(r.get(0))?,
                envelope: r.get(1),
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
        let mut c = self.lock();
        let mut tx = c.transaction().map_err(backend)?;
        // One writer of a player's saves at a time, so the count holds.
        tx.execute("SELECT 1 FROM players WHERE id = $1 FOR UPDATE", &[&player])
            .map_err(backend)?;
        let exists = tx
            .query_opt(
                "SELECT 1 FROM saves WHERE player_id = $1 AND name = $2",
                &[&player, &name],
            )
            .map_err(backend)?
            .is_some();
        if exists && !overwrite {
            return Ok(PutSave::Exists);
        }
        if !exists {
            let kept: i64 = tx
                .query_one(
                    "SELECT COUNT(*) FROM saves WHERE player_id = $1",
                    &[&player],
                )
                .map_err(backend)?
                .get(0);
            if uint(kept) as usize >= self.limits.max_saves {
                return Err(DbError::TooManySaves {
                    max: self.limits.max_saves,
                });
            }
        }
        tx.execute(
            "INSERT INTO saves (player_id, name, meta, envelope) VALUES ($1, $2, $3, $4)
             ON CONFLICT (player_id, name) DO UPDATE
             SET meta = EXCLUDED.meta, envelope = EXCLUDED.envelope",
            &[&player, &name, &meta_json(&game.meta), &game.envelope],
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
                "DELETE FROM saves WHERE player_id = $1 AND name = $2",
                &[&player, &name],
            )
            .map_err(backend)?;
        Ok(n > 0)
    }

    fn settings(&self, player: PlayerId) -> Result<Option<Settings>, DbError> {
        let row = self
            .lock()
            .query_opt(
                "SELECT theme, play FROM settings WHERE player_id = $1",
                &[&player],
            )
            .map_err(backend)?;
        Ok(row.map(|r| Settings {
            theme: r.get(0),
            play_toml: r.get(1),
        }))
    }

    fn put_settings(&self, player: PlayerId, settings: &Settings) -> Result<(), DbError> {
        self.check_size(
            "the settings",
            settings.theme.len() + settings.play_toml.len(),
        )?;
        self.lock()
            .execute(
                "INSERT INTO settings (player_id, theme, play) VALUES ($1, $2, $3)
                 ON CONFLICT (player_id) DO UPDATE SET theme = EXCLUDED.theme, play = EXCLUDED.play",
                &[&player, &settings.theme, &settings.play_toml],
            )
            .map_err(backend)?;
        Ok(())
    }

    fn stats(&self, player: PlayerId) -> Result<Option<Vec<u8>>, DbError> {
        let row = self
            .lock()
            .query_opt("SELECT body FROM stats WHERE player_id = $1", &[&player])
            .map_err(backend)?;
        Ok(row.map(|r| r.get(0)))
    }

    fn put_stats(&self, player: PlayerId, json: &[u8]) -> Result<(), DbError> {
        self.check_size("the statistics", json.len())?;
        self.lock()
            .execute(
                "INSERT INTO stats (player_id, body) VALUES ($1, $2)
                 ON CONFLICT (player_id) DO UPDATE SET body = EXCLUDED.body",
                &[&player, &json],
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
                 VALUES ($1, $2, $3, $4)
                 ON CONFLICT (date, player_id) DO UPDATE
                 SET secs = EXCLUDED.secs, solved_at = EXCLUDED.solved_at
                 WHERE EXCLUDED.secs < daily_results.secs",
                &[&date, &player, &int(secs), &int(now)],
            )
            .map_err(backend)?;
        Ok(())
    }

    fn daily_board(&self, date: &str, limit: usize) -> Result<Vec<DailyEntry>, DbError> {
        let rows = self
            .lock()
            .query(
                "SELECT d.player_id, p.name, d.secs FROM daily_results d
                 JOIN players p ON p.id = d.player_id
                 WHERE d.date = $1
                 ORDER BY d.secs, d.solved_at, d.player_id
                 LIMIT $2",
                &[&date, &int(limit as u64)],
            )
            .map_err(backend)?;
        Ok(rows
            .iter()
            .map(|r| DailyEntry {
                player: r.get(0),
                name: r.get(1),
                secs: uint(r.get(2)),
            })
            .collect())
    }

    fn daily_rank(&self, date: &str, player: PlayerId) -> Result<Option<(u64, u64)>, DbError> {
        let mut c = self.lock();
        let Some(mine) = c
            .query_opt(
                "SELECT secs, solved_at FROM daily_results WHERE date = $1 AND player_id = $2",
                &[&date, &player],
            )
            .map_err(backend)?
        else {
            return Ok(None);
        };
        let (secs, at): (i64, i64) = (mine.get(0), mine.get(1));
        let row = c
            .query_one(
                "SELECT
                   COALESCE(SUM(CASE WHEN secs < $2 OR (secs = $2 AND solved_at < $3)
                            OR (secs = $2 AND solved_at = $3 AND player_id < $4)
                       THEN 1 ELSE 0 END), 0)::BIGINT,
                   COUNT(*)
                 FROM daily_results WHERE date = $1",
                &[&date, &secs, &at, &player],
            )
            .map_err(backend)?;
        let (ahead, total): (i64, i64) = (row.get(0), row.get(1));
        Ok(Some((uint(ahead) + 1, uint(total))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::store::conformance;
    use std::sync::atomic::{AtomicU32, Ordering};

    /// The test server's connection string (`.ci/run` starts one and sets
    /// it), or `None` after the skip rule.
    fn server() -> Option<String> {
        match std::env::var("DEKADOKU_TEST_POSTGRES") {
            Ok(s) if !s.is_empty() => Some(s),
            _ => {
                crate::test_skip::skip_or_fail(
                    "no PostgreSQL to test against (set DEKADOKU_TEST_POSTGRES to a connection string)",
                );
                None
            }
        }
    }

    /// A store in a schema of its own, so tests run side by side and
    /// again without clearing anything.
    fn fresh(base: &str) -> Postgres {
        static N: AtomicU32 = AtomicU32::new(0);
        let schema = format!(
            "dk_test_{}_{}_{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_micros()),
            N.fetch_add(1, Ordering::Relaxed)
        );
        let mut admin = Client::connect(base, NoTls).expect("the test server");
        admin
            .batch_execute(&format!("CREATE SCHEMA {schema}"))
            .expect("a schema of its own");
        Postgres::connect(
            &format!("{base} options='-c search_path={schema}'"),
            StoreLimits::default(),
        )
        .expect("a store in its schema")
    }

    #[test]
    fn behaves_as_a_player_store() {
        let Some(base) = server() else { return };
        conformance::suite(&|| Box::new(fresh(&base)));
    }

    #[test]
    fn migrations_are_applied_once_and_a_newer_schema_is_refused() {
        let Some(base) = server() else { return };
        let s = fresh(&base);
        assert_eq!(s.schema_version().unwrap(), SCHEMA_VERSION);
        let schema: String = s
            .lock()
            .query_one("SELECT current_schema()", &[])
            .unwrap()
            .get(0);
        let url = format!("{base} options='-c search_path={schema}'");
        // A second server on the same database finds it up to date.
        let again = Postgres::connect(&url, StoreLimits::default()).unwrap();
        assert_eq!(again.schema_version().unwrap(), SCHEMA_VERSION);
        s.lock()
            .execute(
                "UPDATE schema_version SET version = $1",
                &[&(SCHEMA_VERSION + 1)],
            )
            .unwrap();
        let err = Postgres::connect(&url, StoreLimits::default()).unwrap_err();
        assert!(matches!(err, DbError::TooNew { .. }), "{err}");
    }

    #[test]
    fn a_server_that_is_not_there_is_an_error() {
        // Port 1 on the loopback: nothing listens there.
        let err = Postgres::connect(
            "host=127.0.0.1 port=1 user=nobody connect_timeout=2",
            StoreLimits::default(),
        )
        .unwrap_err();
        assert!(matches!(err, DbError::Backend(_)), "{err}");
    }
}
