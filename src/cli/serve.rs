//! `dekadoku serve`: the game over SSH (see `serve::server`). Each option
//! has a key of the same name in config.toml's `[serve]` table; the
//! option wins.

use std::path::PathBuf;

use clap::Args;

use super::{CliError, Status};

/// Serve the game over SSH: `ssh -p 2222 HOST` to play (see the README).
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address and port to listen on [config: 127.0.0.1:2222].
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: Option<String>,
    /// The server's folder: its host key, SQLite database and puzzle pool,
    /// unless given one by one [default: serve/ in the data folder].
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// The host key file, made (0600) on first start [default:
    /// serve/host_key in the data folder].
    #[arg(long, value_name = "FILE")]
    pub host_key: Option<PathBuf>,
    /// The players' database: an SQLite file, or PostgreSQL as a URL
    /// (postgres://…) or `host=… dbname=…` [default: serve/players.sqlite3
    /// in the data folder].
    #[arg(long, value_name = "FILE|URL")]
    pub database: Option<String>,
    /// Connections at once, in all.
    #[arg(long, value_name = "N")]
    pub max_connections: Option<u32>,
    /// Connections at once from one address.
    #[arg(long, value_name = "N")]
    pub max_per_address: Option<u32>,
    /// New connections a minute from one address.
    #[arg(long, value_name = "N")]
    pub connects_per_minute: Option<u32>,
    /// Minutes without input before a connection is closed (0: never).
    #[arg(long, value_name = "MINUTES")]
    pub idle_minutes: Option<u32>,
    /// Seconds from connecting to playing (handshake, key, terminal);
    /// a connection that has not started a game by then is closed.
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u32).range(1..))]
    pub login_seconds: Option<u32>,
    /// The largest board side a player may import.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(4..=400))]
    pub max_import_side: Option<u32>,
    /// Seconds one job (a hint, a solve, a new puzzle) may work for.
    #[arg(long, value_name = "SECONDS")]
    pub job_seconds: Option<u32>,
    /// MiB of memory the server may grow by while one job runs; the job
    /// is stopped beyond it (0: no cap).
    #[arg(long, value_name = "MIB")]
    pub job_memory_mb: Option<u32>,
    /// Log nothing (by default each connection's start and end, with the
    /// key's fingerprint, go to standard error).
    #[arg(long)]
    pub quiet: bool,
}

/// Starts the server; returns when it is stopped (SIGINT, SIGTERM).
pub fn run(args: &ServeArgs) -> Result<Status, CliError> {
    use crate::store::{Config, Dirs};
    let game = |e: std::io::Error| CliError::Game(e);
    let dirs = Dirs::resolve().map_err(|e| game(std::io::Error::other(e)))?;
    let (config, issues) = Config::load(&dirs.config_file());
    for issue in &issues {
        crate::serve::server::log("config", &[("what", issue)]);
    }
    let mut cfg = config.serve;
    if let Some(v) = &args.listen {
        cfg.listen.clone_from(v);
    }
    if let Some(v) = &args.host_key {
        cfg.host_key = v.display().to_string();
    }
    if let Some(v) = &args.database {
        cfg.database.clone_from(v);
    }
    let counts = [
        (args.max_connections, &mut cfg.max_connections),
        (args.max_per_address, &mut cfg.max_per_address),
        (args.connects_per_minute, &mut cfg.connects_per_minute),
        (args.idle_minutes, &mut cfg.idle_minutes),
        (args.login_seconds, &mut cfg.login_seconds),
        (args.max_import_side, &mut cfg.max_import_side),
        (args.job_seconds, &mut cfg.job_seconds),
        (args.job_memory_mb, &mut cfg.job_memory_mb),
    ];
    for (given, slot) in counts {
        if let Some(v) = given {
            *slot = v;
        }
    }
    crate::serve::server::serve(crate::serve::server::Options {
        config: cfg,
        dir: args.data_dir.clone().unwrap_or_else(|| dirs.serve_dir()),
        log: !args.quiet,
    })
    .map_err(game)?;
    Ok(Status::AllWell)
}
