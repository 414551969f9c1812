//! Statistics: games started and solved, best and total times, hints used,
//! per board size and level (`"9x9/medium"`), kept in `stats.json`.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::atomic::{keep_aside, read_capped, write_atomic};
use super::{StoreError, kept_text};

/// Statistics files larger than this are treated as damaged.
const MAX_STATS_BYTES: u64 = 16 * 1024 * 1024;

/// The record for one size and level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Record {
    /// Games started.
    pub started: u64,
    /// Games solved.
    pub solved: u64,
    /// The fastest solve, in seconds.
    pub best_secs: Option<u64>,
    /// When the fastest solve happened, in seconds since the Unix epoch.
    pub best_at: Option<u64>,
    /// Time spent on solved games, in seconds.
    pub total_secs: u64,
    /// Hints used in solved games.
    pub hints: u64,
    /// Solved games with help (hints, or the solver filling cells): counted
    /// in `solved`, never a best time.
    pub assisted: u64,
}

impl Record {
    /// The mean time of a solved game, if any were solved.
    pub fn mean_secs(&self) -> Option<u64> {
        self.total_secs.checked_div(self.solved)
    }
}

/// All statistics.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Stats {
    /// The file format's version.
    pub version: u32,
    /// Records by key, `"<size>/<level>"` such as `"9x9/medium"`.
    pub records: BTreeMap<String, Record>,
}

impl Default for Stats {
    fn default() -> Stats {
        Stats {
            version: Stats::VERSION,
            records: BTreeMap::new(),
        }
    }
}

/// Why the statistics start empty, or will not be saved (the game says
/// it once, at the start).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StatsWarning {
    /// The file is there but cannot be read.
    #[error("{}: {source}; statistics start empty", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The file is too large to be statistics; it was moved aside.
    #[error(
        "{}: larger than {} MiB; {}; statistics start empty",
        path.display(),
        MAX_STATS_BYTES / (1024 * 1024),
        kept_text(kept)
    )]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Where it was moved, or why it could not be.
        kept: Result<PathBuf, io::Error>,
    },
    /// The file is not our statistics; it was moved aside.
    #[error(
        "{}: damaged ({source}); {}; statistics start empty",
        path.display(),
        kept_text(kept)
    )]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What the JSON reader said, with the line and column.
        source: serde_json::Error,
        /// Where it was moved, or why it could not be.
        kept: Result<PathBuf, io::Error>,
    },
    /// Written by a newer dekadoku: read as far as understood, never
    /// overwritten.
    #[error(
        "{}: written by a newer dekadoku (version {version}); it will not be overwritten",
        path.display()
    )]
    Newer {
        /// The file.
        path: PathBuf,
        /// Its version.
        version: u32,
    },
}

impl Stats {
    /// The version this build writes.
    pub const VERSION: u32 = 1;

    /// The record key for a size and level: `key("9x9", "medium")` is
    /// `"9x9/medium"`.
    pub fn key(size: &str, level: &str) -> String {
        format!("{size}/{level}")
    }

    /// Reads `path`. A missing file gives empty statistics and no warning; a
    /// damaged one is moved aside, and the warning says where. A file from a
    /// newer dekadoku is read as far as this version understands it, and
    /// [`Stats::save`] will not overwrite it.
    pub fn load(path: &Path) -> (Stats, Option<StatsWarning>) {
        let path_buf = || path.to_path_buf();
        let bytes = match read_capped(path, MAX_STATS_BYTES) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return (Stats::default(), None),
            Err(source) => {
                let warning = StatsWarning::Unreadable {
                    path: path_buf(),
                    source,
                };
                return (Stats::default(), Some(warning));
            }
        };
        let warning = if bytes.len() as u64 > MAX_STATS_BYTES {
            StatsWarning::TooLarge {
                path: path_buf(),
                kept: keep_aside(path),
            }
        } else {
            match serde_json::from_slice::<Stats>(&bytes) {
                Ok(stats) if stats.version > Stats::VERSION => {
                    let warning = StatsWarning::Newer {
                        path: path_buf(),
                        version: stats.version,
                    };
                    return (stats, Some(warning));
                }
                Ok(stats) => return (stats, None),
                Err(source) => StatsWarning::Damaged {
                    path: path_buf(),
                    source,
                    kept: keep_aside(path),
                },
            }
        };
        (Stats::default(), Some(warning))
    }

    /// Writes the statistics to `path` atomically. Refuses (with
    /// [`StoreError::Newer`]) if they were read from a newer dekadoku's file.
    pub fn save(&self, path: &Path) -> Result<(), StoreError> {
        if self.version > Stats::VERSION {
            return Err(StoreError::Newer {
                path: path.to_path_buf(),
                version: self.version,
                supported: Stats::VERSION,
            });
        }
        let bytes = serde_json::to_vec_pretty(self).map_err(|e| StoreError::encode(path, e))?;
        write_atomic(path, &bytes).map_err(|e| StoreError::io(path, e))
    }

    /// The record for `key` (empty if none).
    pub fn get(&self, key: &str) -> Record {
        self.records.get(key).copied().unwrap_or_default()
    }

    /// Counts a started game.
    pub fn record_start(&mut self, key: &str) {
        let r = self.records.entry(key.to_string()).or_default();
        r.started = r.started.saturating_add(1);
    }

    /// Counts a solved game that took `secs` with `hints` hints, at time
    /// `now` (Unix seconds); `assisted` (hints or the solver's help) never
    /// sets a best time. Returns whether it is a new best time.
    pub fn record_win(
        &mut self,
        key: &str,
        secs: u64,
        hints: u64,
        assisted: bool,
        now: u64,
    ) -> bool {
        let r = self.records.entry(key.to_string()).or_default();
        r.solved = r.solved.saturating_add(1);
        r.total_secs = r.total_secs.saturating_add(secs);
        r.hints = r.hints.saturating_add(hints);
        if assisted {
            r.assisted = r.assisted.saturating_add(1);
            return false;
        }
        let best = r.best_secs.is_none_or(|b| secs < b);
        if best {
            r.best_secs = Some(secs);
            r.best_at = Some(now);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wins_and_bests() {
        let mut s = Stats::default();
        let k = Stats::key("9x9", "medium");
        assert_eq!(k, "9x9/medium");
        s.record_start(&k);
        s.record_start(&k);
        assert!(s.record_win(&k, 300, 0, false, 1000));
        assert!(
            !s.record_win(&k, 300, 0, false, 2000),
            "a tie is not a new best"
        );
        assert!(!s.record_win(&k, 400, 0, false, 3000));
        assert!(s.record_win(&k, 200, 0, false, 4000));
        // Helped (a hint, or the solver's board): solved, never a best.
        assert!(!s.record_win(&k, 10, 3, true, 5000));
        assert!(!s.record_win(&k, 20, 0, true, 6000));
        let r = s.get(&k);
        assert_eq!(r.started, 2);
        assert_eq!(r.solved, 6);
        assert_eq!(r.assisted, 2);
        assert_eq!(r.best_secs, Some(200));
        assert_eq!(r.best_at, Some(4000));
        assert_eq!(r.total_secs, 1230);
        assert_eq!(r.hints, 3);
        assert_eq!(r.mean_secs(), Some(205));
        assert_eq!(s.get("4x4/easy"), Record::default());
        assert_eq!(Record::default().mean_secs(), None);
    }

    #[test]
    fn old_or_partial_files_read() {
        let s: Stats = serde_json::from_str(r#"{"records":{"9x9/easy":{"solved":2}}}"#).unwrap();
        assert_eq!(s.version, Stats::VERSION);
        assert_eq!(s.get("9x9/easy").solved, 2);
    }
}
