//! The PostgreSQL backend, for servers that share their players: several
//! `serve` processes (behind a TCP balancer, or on several machines) on
//! one database. The same schema as SQLite's in PostgreSQL's types, the
//! same numbered migrations (taken under an advisory lock, so servers
//! starting together apply each once), one transaction a call.
//!
//! Calls go through a pool of [`POOL_SIZE`] connections, so games do not
//! wait on each other's round trips, and every connection is checked as
//! it is taken: one the server dropped (a restart, a failover, an
//! administrator's `pg_terminate_backend`) is replaced then, instead of
//! failing every call from then on.

use std::time::Duration;

use postgres::error::SqlState;
use postgres::types::ToSql;
use postgres::{Client, NoTls, Row, Transaction};
use r2d2::PooledConnection;
use r2d2_postgres::PostgresConnectionManager;

use super::{
    DailyEntry, DbError, Player, PlayerId, PlayerKey, PlayerStore, PutSave, SaveRow, SavedGame,
    Settings, StoreLimits, check_display_name, int, meta_json, save_name, save_rows, saved_game,
    sql, uint,
};

use super::sql::SCHEMA_VERSION;

/// The advisory lock the migrations are applied under ("dkdk").
const MIGRATION_LOCK: i64 = 0x646b_646b;

/// Connections a server keeps to the database at most: store calls are
/// short (one row, one transaction), so a few serve many games.
pub const POOL_SIZE: u32 = 8;

/// How long a call waits for a connection (all busy, or the database
/// away) before it fails with an error the game reports.
pub const CONNECT_WAIT: Duration = Duration::from_secs(10);

type Manager = PostgresConnectionManager<NoTls>;

/// A [`PlayerStore`] in a PostgreSQL database.
pub struct Postgres {
    pool: r2d2::Pool<Manager>,
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

/// The pool could not give a connection (the database away, or every
/// connection busy for [`CONNECT_WAIT`]).
fn no_connection(e: r2d2::Error) -> DbError {
    DbError::Backend(format!("no connection to the database: {e}"))
}

impl Postgres {
    /// Connects with a libpq-style connection string or URL
    /// (`host=/run/postgresql dbname=dekadoku`, `postgresql://…`) and
    /// brings the schema up to date. Without TLS: for a database on the
    /// same machine or a private network.
    pub fn connect(params: &str, limits: StoreLimits) -> Result<Postgres, DbError> {
        let config: postgres::Config = params.parse().map_err(backend)?;
        // The first connection is made here, so a wrong string or an
        // absent server is this call's error, with the library's reason.
        let mut first = config.connect(NoTls).map_err(backend)?;
        migrate(&mut first)?;
        drop(first);
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .min_idle(Some(1))
            .connection_timeout(CONNECT_WAIT)
            .build(PostgresConnectionManager::new(config, NoTls))
            .map_err(no_connection)?;
        Ok(Postgres { pool, limits })
    }

    /// The schema version of the database.
    pub fn schema_version(&self) -> Result<i64, DbError> {
        let mut c = self.client()?;
        let mut tx = c.transaction().map_err(backend)?;
        version(&mut tx)
    }

    /// A connection of the pool, checked live (a dropped one is replaced).
    fn client(&self) -> Result<PooledConnection<Manager>, DbError> {
        self.pool.get().map_err(no_connection)
    }

    /// Runs a statement that changes rows; how many it changed.
    fn run(&self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<u64, DbError> {
        self.client()?.execute(sql, params).map_err(backend)
    }

    /// The row a statement selects, if any.
    fn one(&self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Option<Row>, DbError> {
        self.client()?.query_opt(sql, params).map_err(backend)
    }

    /// A saved game from a statement that selects its meta and envelope.
    fn game(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Option<SavedGame>, DbError> {
        self.one(sql, params)?
            .map(|r| saved_game(r.get(0), r.get(1)))
            .transpose()
    }
}

fn version(tx: &mut Transaction<'_>) -> Result<i64, DbError> {
    let row = tx.query_opt(sql::VERSION, &[]).map_err(backend)?;
    Ok(row.map_or(0, |r| r.get(0)))
}

fn migrate(client: &mut Client) -> Result<(), DbError> {
    let mut tx = client.transaction().map_err(backend)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .map_err(backend)?;
    tx.batch_execute(sql::CREATE_VERSION).map_err(backend)?;
    let found = version(&mut tx)?;
    if found > SCHEMA_VERSION {
        return Err(DbError::TooNew {
            found,
            known: SCHEMA_VERSION,
        });
    }
    let migrations = sql::schema("BIGSERIAL PRIMARY KEY", "BYTEA");
    for (i, migration) in migrations.iter().enumerate().skip(uint(found) as usize) {
        tx.batch_execute(migration).map_err(backend)?;
        tx.execute(sql::CLEAR_VERSION, &[]).map_err(backend)?;
        tx.execute(sql::SET_VERSION, &[&(i as i64 + 1)])
            .map_err(backend)?;
    }
    tx.commit().map_err(backend)
}

impl PlayerStore for Postgres {
    fn player(&self, key: &PlayerKey, now: u64) -> Result<Player, DbError> {
        let row = self
            .client()?
            .query_one(sql::PLAYER, &[&key.fingerprint, &key.algorithm, &int(now)])
            .map_err(backend)?;
        Ok(Player {
            id: row.get(0),
            name: row.get(1),
        })
    }

    fn set_name(&self, player: PlayerId, name: &str) -> Result<(), DbError> {
        let name = check_display_name(name)?;
        let key = name.to_lowercase();
        match self
            .client()?
            .execute(sql::SET_NAME, &[&name, &key, &player])
        {
            Ok(_) => Ok(()),
            Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => Err(DbError::BadName {
                name,
                reason: "another player has it",
            }),
            Err(e) => Err(backend(e)),
        }
    }

    fn autosave(&self, player: PlayerId) -> Result<Option<SavedGame>, DbError> {
        self.game(sql::AUTOSAVE, &[&player])
    }

    fn put_autosave(&self, player: PlayerId, game: &SavedGame) -> Result<(), DbError> {
        self.limits.check("the game", game.envelope.len())?;
        self.run(
            sql::PUT_AUTOSAVE,
            &[&player, &meta_json(&game.meta), &game.envelope],
        )
        .map(drop)
    }

    fn clear_autosave(&self, player: PlayerId) -> Result<(), DbError> {
        self.run(sql::CLEAR_AUTOSAVE, &[&player]).map(drop)
    }

    fn saves(&self, player: PlayerId) -> Result<Vec<SaveRow>, DbError> {
        let rows = self
            .client()?
            .query(sql::SAVES, &[&player])
            .map_err(backend)?;
        save_rows(rows.iter().map(|r| (r.get(0), r.get(1))))
    }

    fn save(&self, player: PlayerId, name: &str) -> Result<Option<SavedGame>, DbError> {
        self.game(sql::SAVE, &[&player, &save_name(name)?])
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
        let mut c = self.client()?;
        let mut tx = c.transaction().map_err(backend)?;
        // One writer of a player's saves at a time, so the count holds.
        tx.execute("SELECT 1 FROM players WHERE id = $1 FOR UPDATE", &[&player])
            .map_err(backend)?;
        let exists = tx
            .query_opt(sql::SAVE_EXISTS, &[&player, &name])
            .map_err(backend)?
            .is_some();
        let kept = || {
            tx.query_one(sql::SAVE_COUNT, &[&player])
                .map(|r| r.get(0))
                .map_err(backend)
        };
        if !self.limits.may_write_save(exists, overwrite, kept)? {
            return Ok(PutSave::Exists);
        }
        tx.execute(
            sql::PUT_SAVE,
            &[&player, &name, &meta_json(&game.meta), &game.envelope],
        )
        .map_err(backend)?;
        tx.commit().map_err(backend)?;
        Ok(PutSave::Written)
    }

    fn delete_save(&self, player: PlayerId, name: &str) -> Result<bool, DbError> {
        Ok(self.run(sql::DELETE_SAVE, &[&player, &save_name(name)?])? > 0)
    }

    fn settings(&self, player: PlayerId) -> Result<Option<Settings>, DbError> {
        Ok(self.one(sql::SETTINGS, &[&player])?.map(|r| Settings {
            theme: r.get(0),
            play_toml: r.get(1),
        }))
    }

    fn put_settings(&self, player: PlayerId, settings: &Settings) -> Result<(), DbError> {
        self.limits.check(
            "the settings",
            settings.theme.len() + settings.play_toml.len(),
        )?;
        self.run(
            sql::PUT_SETTINGS,
            &[&player, &settings.theme, &settings.play_toml],
        )
        .map(drop)
    }

    fn stats(&self, player: PlayerId) -> Result<Option<Vec<u8>>, DbError> {
        Ok(self.one(sql::STATS, &[&player])?.map(|r| r.get(0)))
    }

    fn put_stats(&self, player: PlayerId, json: &[u8]) -> Result<(), DbError> {
        self.limits.check("the statistics", json.len())?;
        self.run(sql::PUT_STATS, &[&player, &json]).map(drop)
    }

    fn record_daily(
        &self,
        date: &str,
        player: PlayerId,
        secs: u64,
        now: u64,
    ) -> Result<(), DbError> {
        self.run(sql::RECORD_DAILY, &[&date, &player, &int(secs), &int(now)])
            .map(drop)
    }

    fn daily_board(&self, date: &str, limit: usize) -> Result<Vec<DailyEntry>, DbError> {
        let rows = self
            .client()?
            .query(sql::DAILY_BOARD, &[&date, &int(limit as u64)])
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
        let row = self
            .client()?
            .query_one(sql::DAILY_RANK, &[&date, &player])
            .map_err(backend)?;
        let (ahead, total): (Option<i64>, i64) = (row.get(0), row.get(1));
        Ok(ahead
            .filter(|_| total > 0)
            .map(|a| (uint(a) + 1, uint(total))))
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
        fresh_with(base, "")
    }

    /// [`fresh`] with more `key=value` settings for its connections.
    fn fresh_with(base: &str, more: &str) -> Postgres {
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
            &format!("{base} options='-c search_path={schema}'{more}"),
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
            .client()
            .unwrap()
            .query_one("SELECT current_schema()", &[])
            .unwrap()
            .get(0);
        let url = format!("{base} options='-c search_path={schema}'");
        // A second server on the same database finds it up to date.
        let again = Postgres::connect(&url, StoreLimits::default()).unwrap();
        assert_eq!(again.schema_version().unwrap(), SCHEMA_VERSION);
        s.client()
            .unwrap()
            .execute(
                "UPDATE schema_version SET version = $1",
                &[&(SCHEMA_VERSION + 1)],
            )
            .unwrap();
        let err = Postgres::connect(&url, StoreLimits::default()).unwrap_err();
        assert!(matches!(err, DbError::TooNew { .. }), "{err}");
    }

    /// The database drops the store's connections (a restart, a
    /// failover, an administrator): the next calls work on new ones, and
    /// nothing written before is lost.
    #[test]
    fn a_dropped_connection_is_replaced() {
        let Some(base) = server() else { return };
        let app = format!("dk_reconnect_{}", std::process::id());
        let s = fresh_with(&base, &format!(" application_name={app}"));
        let key = PlayerKey {
            fingerprint: "SHA256:reconnect".to_string(),
            algorithm: "ssh-ed25519".to_string(),
        };
        let me = s.player(&key, 1).unwrap();
        s.put_stats(me.id, b"{\"won\":1}").unwrap();
        let mut admin = Client::connect(&base, NoTls).unwrap();
        let dropped = admin
            .query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                 WHERE application_name = $1",
                &[&app],
            )
            .unwrap()
            .len();
        assert!(dropped >= 1, "the store had no connection to drop");
        // Every call after that finds a live connection.
        for _ in 0..2 * POOL_SIZE {
            assert_eq!(s.stats(me.id).unwrap(), Some(b"{\"won\":1}".to_vec()));
        }
        s.put_stats(me.id, b"{\"won\":2}").unwrap();
        assert_eq!(s.player(&key, 2).unwrap(), me);
        assert_eq!(s.stats(me.id).unwrap(), Some(b"{\"won\":2}".to_vec()));
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
