//! The statements both backends run, in the SQL that SQLite and
//! PostgreSQL share: `$n` parameters whose first uses come in order $1,
//! $2, … (SQLite numbers them by first use, so positional binding holds
//! only then; a later reuse is fine), `ON CONFLICT
//! … DO UPDATE` with `EXCLUDED`, `RETURNING`. The schemas differ (types,
//! keys) and stay with their backends.

/// The schema, one migration per version (version = index + 1), never
/// edited once released: a change is a new one. `{id}` is the backend's
/// auto-numbered key and `{bytes}` its byte string ([`schema`]).
const MIGRATIONS: &[&str] = &[
    // 1: players, their games, settings, statistics, the daily results.
    "CREATE TABLE players (
        id {id},
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
        envelope {bytes} NOT NULL
    );
    CREATE TABLE saves (
        player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        meta TEXT NOT NULL,
        envelope {bytes} NOT NULL,
        PRIMARY KEY (player_id, name)
    );
    CREATE TABLE settings (
        player_id BIGINT PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
        theme TEXT NOT NULL,
        play TEXT NOT NULL
    );
    CREATE TABLE stats (
        player_id BIGINT PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
        body {bytes} NOT NULL
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

/// The migrations in a backend's types: `id` for an auto-numbered
/// primary key, `bytes` for a byte string.
pub fn schema(id: &str, bytes: &str) -> Vec<String> {
    MIGRATIONS
        .iter()
        .map(|m| m.replace("{id}", id).replace("{bytes}", bytes))
        .collect()
}

pub const CREATE_VERSION: &str =
    "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)";
pub const VERSION: &str = "SELECT version FROM schema_version";
pub const CLEAR_VERSION: &str = "DELETE FROM schema_version";
pub const SET_VERSION: &str = "INSERT INTO schema_version (version) VALUES ($1)";

pub const PLAYER: &str = "INSERT INTO players (fingerprint, algorithm, created_at, last_seen)
     VALUES ($1, $2, $3, $3)
     ON CONFLICT (fingerprint) DO UPDATE SET last_seen = EXCLUDED.last_seen
     RETURNING id, name";
pub const SET_NAME: &str = "UPDATE players SET name = $1, name_key = $2 WHERE id = $3";

pub const AUTOSAVE: &str = "SELECT meta, envelope FROM autosaves WHERE player_id = $1";
pub const PUT_AUTOSAVE: &str = "INSERT INTO autosaves (player_id, meta, envelope)
     VALUES ($1, $2, $3)
     ON CONFLICT (player_id) DO UPDATE SET meta = EXCLUDED.meta, envelope = EXCLUDED.envelope";
pub const CLEAR_AUTOSAVE: &str = "DELETE FROM autosaves WHERE player_id = $1";

/// Unordered: the caller sorts by name (the two databases' default
/// collations differ).
pub const SAVES: &str = "SELECT name, meta FROM saves WHERE player_id = $1";
pub const SAVE: &str = "SELECT meta, envelope FROM saves WHERE player_id = $1 AND name = $2";
pub const SAVE_EXISTS: &str = "SELECT 1 FROM saves WHERE player_id = $1 AND name = $2";
pub const SAVE_COUNT: &str = "SELECT COUNT(*) FROM saves WHERE player_id = $1";
pub const PUT_SAVE: &str = "INSERT INTO saves (player_id, name, meta, envelope)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (player_id, name) DO UPDATE SET meta = EXCLUDED.meta, envelope = EXCLUDED.envelope";
pub const DELETE_SAVE: &str = "DELETE FROM saves WHERE player_id = $1 AND name = $2";

pub const SETTINGS: &str = "SELECT theme, play FROM settings WHERE player_id = $1";
pub const PUT_SETTINGS: &str = "INSERT INTO settings (player_id, theme, play) VALUES ($1, $2, $3)
     ON CONFLICT (player_id) DO UPDATE SET theme = EXCLUDED.theme, play = EXCLUDED.play";

pub const STATS: &str = "SELECT body FROM stats WHERE player_id = $1";
pub const PUT_STATS: &str = "INSERT INTO stats (player_id, body) VALUES ($1, $2)
     ON CONFLICT (player_id) DO UPDATE SET body = EXCLUDED.body";

/// Keeps the player's best time of the day.
pub const RECORD_DAILY: &str = "INSERT INTO daily_results (date, player_id, secs, solved_at)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (date, player_id) DO UPDATE
     SET secs = EXCLUDED.secs, solved_at = EXCLUDED.solved_at
     WHERE EXCLUDED.secs < daily_results.secs";
pub const DAILY_BOARD: &str = "SELECT d.player_id, p.name, d.secs FROM daily_results d
     JOIN players p ON p.id = d.player_id
     WHERE d.date = $1
     ORDER BY d.secs, d.solved_at, d.player_id
     LIMIT $2";
/// On day $1, those ahead of player $2 and everyone: (NULL, 0) when the
/// player is not on the board.
pub const DAILY_RANK: &str = "WITH me AS (
       SELECT secs, solved_at, player_id FROM daily_results WHERE date = $1 AND player_id = $2
     )
     SELECT
       CAST(SUM(CASE WHEN d.secs < me.secs
                  OR (d.secs = me.secs AND d.solved_at < me.solved_at)
                  OR (d.secs = me.secs AND d.solved_at = me.solved_at AND d.player_id < me.player_id)
           THEN 1 ELSE 0 END) AS BIGINT),
       COUNT(*)
     FROM daily_results d, me WHERE d.date = $1";
