//! Keeping things between sessions: the configuration and themes (TOML, read
//! only: nothing here writes the default config into the user's folder),
//! saved games and statistics (JSON in versioned envelopes), all under the
//! folders that [`Dirs`] resolves, and all written atomically.
//!
//! Reading never panics on what a user or a file can hold: bad config values
//! become [`ConfigIssue`]s and fall back to their defaults, broken saves become
//! [`LoadError`]s and are moved aside rather than overwritten.
//!
//! Nothing in here knows about the terminal: themes are a neutral colour model
//! that the front end converts to its own styles.

use std::io;
use std::path::PathBuf;

pub mod atomic;
pub mod config;
pub mod lock;
pub mod paths;
pub mod pool;
pub mod saves;
pub mod stats;
pub mod theme;

pub(crate) use atomic::unix_now;
pub use atomic::{keep_aside, remove_stale_temps, write_atomic};
pub use config::{
    BoardSize, Config, ConfigIssue, ConflictMode, PlayConfig, ServeConfig, save_settings,
};
pub use paths::Dirs;
pub use pool::{Pool, PoolEntry, PoolWarning};
pub use saves::{
    LoadError, MetaError, Recovered, SaveEntry, SaveMeta, Saves, decode_save, encode_save,
    peek_save, read_checked_or_backup, read_save, read_save_or_backup, remove_save, sanitize_name,
    write_save,
};
pub use stats::{Daily, Record, Stats, StatsWarning};
pub(crate) use theme::terminfo_colors;
pub use theme::{Color, ColorDepth, Named16, Role, RoleStyle, Theme, Themes};

/// What can go wrong while writing (or finding a place to write) our files.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// An operating-system error on a file or folder.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder involved.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// Neither the environment overrides nor the platform give us a folder.
    #[error(
        "cannot find a home folder for dekadoku's files; set {} and {}",
        paths::CONFIG_DIR_ENV,
        paths::DATA_DIR_ENV
    )]
    NoHome,
    /// A value could not be turned into JSON.
    #[error("{}: cannot encode: {source}", path.display())]
    Encode {
        /// The file that was to be written.
        path: PathBuf,
        /// What the encoder said.
        source: serde_json::Error,
    },
    /// The config file is not TOML we can edit, so it is left as it is.
    #[error("{}: not valid TOML, so it was not changed: {source}", path.display())]
    NotToml {
        /// The config file.
        path: PathBuf,
        /// What the TOML parser said, with the line and column (boxed:
        /// it is large, and this error is rare).
        source: Box<toml_edit::TomlError>,
    },
    /// The settings could not be turned into TOML.
    #[error("{}: cannot encode the settings: {source}", path.display())]
    EncodeToml {
        /// The config file.
        path: PathBuf,
        /// What the encoder said.
        source: toml::ser::Error,
    },
    /// One setting's value could not be written back as TOML.
    #[error("{}: cannot encode {key}: {source}", path.display())]
    EncodeValue {
        /// The config file.
        path: PathBuf,
        /// The dotted key (`play.wrap`).
        key: String,
        /// What the TOML parser said of the value (boxed, as above).
        source: Box<toml_edit::TomlError>,
    },
    /// A save name that cannot become a file name.
    #[error("`{name}` cannot be used as a save name: {reason}")]
    BadName {
        /// The name as given.
        name: String,
        /// Why it was refused.
        reason: &'static str,
    },
    /// A server's database did not take or give what was asked (the
    /// message names the player's row, never a path).
    #[error("{0}")]
    Database(String),
    /// The file on disk was written by a newer dekadoku; we do not overwrite it.
    #[error(
        "{}: written by a newer dekadoku (version {version}; this one knows up to {supported}); not overwriting it",
        path.display()
    )]
    Newer {
        /// The file on disk.
        path: PathBuf,
        /// Its format version.
        version: u32,
        /// The newest version this build writes.
        supported: u32,
    },
}

impl StoreError {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: io::Error) -> StoreError {
        StoreError::Io {
            path: path.into(),
            source,
        }
    }

    /// A JSON encoding error for the file at `path`.
    pub fn encode(path: impl Into<PathBuf>, source: serde_json::Error) -> StoreError {
        StoreError::Encode {
            path: path.into(),
            source,
        }
    }
}

/// Where a damaged file went, for messages: `moved to …`, or why it could
/// not be moved aside.
pub(crate) fn kept_text(kept: &Result<PathBuf, io::Error>) -> String {
    match kept {
        Ok(p) => format!("moved to {}", p.display()),
        Err(e) => format!("could not be moved aside: {e}"),
    }
}
