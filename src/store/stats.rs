//! Statistics: games started and solved, best, total and recent times,
//! hints used and the current streak, per board size and level
//! (`"9x9/medium"`), and the daily puzzle's result by date, kept in
//! `stats.json`. The lists are bounded ([`TIMES_KEPT`], [`DAILY_KEPT`]), so
//! the file stays small however long it is played.

use std::collections::{BTreeMap, VecDeque};
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::atomic::{keep_aside, read_capped, write_atomic};
use super::{StoreError, kept_text};
use crate::engine::Level;
use crate::engine::generate::daily::Date;

/// Statistics files larger than this are treated as damaged.
const MAX_STATS_BYTES: u64 = 16 * 1024 * 1024;

/// Solve times kept per size and level for the median: the most recent
/// solves without help.
pub const TIMES_KEPT: usize = 1000;

/// Daily puzzle dates kept: the most recent.
pub const DAILY_KEPT: usize = 1000;

/// The record for one size and level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
    /// The times of the most recent solves without help, oldest first, at
    /// most [`TIMES_KEPT`] (for the median). Files from before version 2
    /// have none: their solves have no median.
    pub times: VecDeque<u64>,
    /// Games solved without help in a row, up to the last game that
    /// ended: one solved with help, or left unfinished (another game
    /// started or loaded over it), sets it back to 0. `None` when not
    /// known: a file from before version 2, until its next game ends.
    #[serde(default)]
    pub streak: Option<u64>,
}

impl Default for Record {
    fn default() -> Record {
        Record {
            started: 0,
            solved: 0,
            best_secs: None,
            best_at: None,
            total_secs: 0,
            hints: 0,
            assisted: 0,
            times: VecDeque::new(),
            // A record begun by this version knows its streak from the start.
            streak: Some(0),
        }
    }
}

impl Record {
    /// The mean time of a solved game, if any were solved.
    pub fn mean_secs(&self) -> Option<u64> {
        self.total_secs.checked_div(self.solved)
    }

    /// Games solved without help.
    pub fn unassisted(&self) -> u64 {
        self.solved.saturating_sub(self.assisted)
    }

    /// The median time of the kept solves without help ([`Record::times`];
    /// of two middle times, their mean rounded down), if there are any.
    pub fn median_secs(&self) -> Option<u64> {
        let mut t: Vec<u64> = self.times.iter().copied().collect();
        t.sort_unstable();
        let mid = t.len() / 2;
        match t.len() {
            0 => None,
            len if len % 2 == 1 => Some(t[mid]),
            // The mean of the two, without overflowing.
            _ => Some(t[mid - 1] / 2 + t[mid] / 2 + (t[mid - 1] % 2 + t[mid] % 2) / 2),
        }
    }
}

/// The daily puzzle of one date, as far as it was played.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Daily {
    /// Its size and level, as a record key (`"9x9/hard"`).
    pub key: String,
    /// The solve time in seconds, once solved (`None`: started, not solved).
    pub secs: Option<u64>,
    /// Solved with help (hints, or the solver filling cells).
    pub assisted: bool,
}

impl Daily {
    /// Solved without help.
    pub fn solved_alone(&self) -> bool {
        self.secs.is_some() && !self.assisted
    }

    /// How good a result is: solved without help, then with help, then
    /// not solved; faster is better among equals.
    fn rank(&self) -> (u8, std::cmp::Reverse<u64>) {
        let kind = match (self.secs, self.assisted) {
            (None, _) => 0,
            (Some(_), true) => 1,
            (Some(_), false) => 2,
        };
        (kind, std::cmp::Reverse(self.secs.unwrap_or(u64::MAX)))
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
    /// The daily puzzles played, by their date (`"2026-03-14"`, which
    /// sorts by date), at most [`DAILY_KEPT`]: the most recent. Files from
    /// before version 2 have none.
    pub daily: BTreeMap<String, Daily>,
}

impl Default for Stats {
    fn default() -> Stats {
        Stats {
            version: Stats::VERSION,
            records: BTreeMap::new(),
            daily: BTreeMap::new(),
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
    /// The version this build writes. Version 2 added the recent solve
    /// times, the streak and the daily record; version 1 files read with
    /// those empty (and unknown streaks).
    pub const VERSION: u32 = 2;

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
                Ok(mut stats) => {
                    // An older file reads with what it lacks empty, and is
                    // written back as this version.
                    stats.version = Stats::VERSION;
                    return (stats, None);
                }
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
        self.records.get(key).cloned().unwrap_or_default()
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
            r.streak = Some(0);
            return false;
        }
        r.streak = Some(r.streak.unwrap_or(0).saturating_add(1));
        r.times.push_back(secs);
        while r.times.len() > TIMES_KEPT {
            r.times.pop_front();
        }
        let best = r.best_secs.is_none_or(|b| secs < b);
        if best {
            r.best_secs = Some(secs);
            r.best_at = Some(now);
        }
        best
    }

    /// Counts a started game, and the daily puzzle of `daily` when it is
    /// one: what the game records when a game starts.
    pub fn record_game_start(&mut self, key: &str, daily: Option<Date>) {
        self.record_start(key);
        if let Some(date) = daily {
            self.record_daily_start(date, key);
        }
    }

    /// Counts a won game ([`Stats::record_win`]) and the daily puzzle of
    /// `daily` when it is one; whether it is a new best time.
    pub fn record_game_win(
        &mut self,
        key: &str,
        secs: u64,
        hints: u64,
        assisted: bool,
        daily: Option<Date>,
        now: u64,
    ) -> bool {
        if let Some(date) = daily {
            self.record_daily_win(date, key, secs, assisted);
        }
        self.record_win(key, secs, hints, assisted, now)
    }

    /// A game of `key` was left unfinished (another game was started or
    /// loaded over it after the player had played in it): its streak ends.
    pub fn record_unfinished(&mut self, key: &str) {
        self.records.entry(key.to_string()).or_default().streak = Some(0);
    }

    /// The daily puzzle of `date` (size and level `key`) was started.
    pub fn record_daily_start(&mut self, date: Date, key: &str) {
        self.daily.entry(date.to_string()).or_insert_with(|| Daily {
            key: key.to_string(),
            ..Daily::default()
        });
        self.keep_daily_bounded();
    }

    /// The daily puzzle of `date` was solved in `secs`, with help or not.
    /// A date keeps its best result: solved without help over with help
    /// over not solved, then the faster time.
    pub fn record_daily_win(&mut self, date: Date, key: &str, secs: u64, assisted: bool) {
        let new = Daily {
            key: key.to_string(),
            secs: Some(secs),
            assisted,
        };
        let slot = self.daily.entry(date.to_string()).or_default();
        if new.rank() > slot.rank() {
            *slot = new;
        }
        self.keep_daily_bounded();
    }

    /// Drops the oldest dates past [`DAILY_KEPT`].
    fn keep_daily_bounded(&mut self) {
        while self.daily.len() > DAILY_KEPT {
            self.daily.pop_first();
        }
    }

    /// The daily streak on `today`: dates in a row whose daily puzzle was
    /// solved without help, ending today, or yesterday while today's is
    /// not solved yet (0 when neither was, or today's was solved with
    /// help).
    pub fn daily_streak(&self, today: Date) -> u64 {
        let alone = |d: Date| {
            self.daily
                .get(&d.to_string())
                .is_some_and(Daily::solved_alone)
        };
        let mut day = today.days();
        match self.daily.get(&today.to_string()) {
            Some(d) if d.solved_alone() => {}
            // Today's solved with help: the streak is broken.
            Some(d) if d.secs.is_some() => return 0,
            // Today's still open: the streak runs to yesterday.
            _ => day -= 1,
        }
        let mut n = 0;
        while alone(Date::from_days(day)) {
            n += 1;
            day -= 1;
        }
        n
    }

    /// The records in the order a table shows them: by board size, then
    /// by level (easy to extreme), imported puzzles and other keys last.
    pub fn records_in_order(&self) -> Vec<(&str, &Record)> {
        let mut v: Vec<(&str, &Record)> =
            self.records.iter().map(|(k, r)| (k.as_str(), r)).collect();
        v.sort_by_key(|(k, _)| key_order(k));
        v
    }
}

/// Where a record key sorts: size, then level in [`Level::ALL`]'s order,
/// then anything else by name (a key that does not read sorts last).
fn key_order(key: &str) -> (usize, usize, &str) {
    let (size, level) = key.split_once('/').unwrap_or((key, ""));
    let n = size
        .split_once('x')
        .and_then(|(a, _)| a.parse().ok())
        .unwrap_or(usize::MAX);
    let at = Level::ALL
        .iter()
        .position(|l| l.name() == level)
        .unwrap_or(Level::ALL.len());
    (n, at, level)
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

    /// A version 1 file: its counts and best times read; it has no times
    /// for a median, no streak and no daily record, and it is written back
    /// as version 2.
    #[test]
    fn a_version_1_file_reads_with_what_it_lacks_unknown() {
        let dir = std::env::temp_dir().join(format!("dekadoku-stats-v1-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("stats.json");
        let v1 = r#"{
  "version": 1,
  "records": {
    "9x9/easy": {"started": 5, "solved": 4, "best_secs": 200, "best_at": 1700000000,
                 "total_secs": 1000, "hints": 2, "assisted": 1}
  }
}"#;
        std::fs::write(&path, v1).unwrap();
        let (mut s, warning) = Stats::load(&path);
        assert!(warning.is_none(), "{warning:?}");
        assert_eq!(s.version, 2);
        let r = s.get("9x9/easy");
        assert_eq!((r.started, r.solved, r.unassisted()), (5, 4, 3));
        assert_eq!(r.best_secs, Some(200));
        assert_eq!(r.median_secs(), None, "no times were kept before version 2");
        assert_eq!(r.streak, None, "the streak is not known");
        assert!(s.daily.is_empty());
        // The next game that ends makes the streak known.
        s.record_win("9x9/easy", 300, 0, false, 1);
        assert_eq!(s.get("9x9/easy").streak, Some(1));
        assert_eq!(s.get("9x9/easy").median_secs(), Some(300));
        s.save(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("\"version\": 2"), "{text}");
        let (back, warning) = Stats::load(&path);
        assert!(warning.is_none());
        assert_eq!(back, s);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_new_record_knows_its_streak() {
        let mut s = Stats::default();
        s.record_start("4x4/easy");
        assert_eq!(s.get("4x4/easy").streak, Some(0));
        assert_eq!(s.get("6x6/easy").streak, Some(0));
        // Written and read back, it stays known.
        let back: Stats = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn medians_odd_and_even() {
        let mut r = Record::default();
        assert_eq!(r.median_secs(), None);
        r.times = [300].into();
        assert_eq!(r.median_secs(), Some(300));
        r.times = [500, 100, 300].into();
        assert_eq!(r.median_secs(), Some(300));
        r.times = [400, 100, 300, 200].into();
        assert_eq!(r.median_secs(), Some(250));
        r.times = [100, 201].into();
        assert_eq!(
            r.median_secs(),
            Some(150),
            "the mean of the middle two, rounded down"
        );
        r.times = [u64::MAX, u64::MAX].into();
        assert_eq!(r.median_secs(), Some(u64::MAX));
        r.times = [u64::MAX - 1, u64::MAX].into();
        assert_eq!(r.median_secs(), Some(u64::MAX - 1));
    }

    #[test]
    fn only_solves_without_help_have_times() {
        let mut s = Stats::default();
        let k = "9x9/hard";
        s.record_win(k, 10, 1, true, 0);
        assert_eq!(s.get(k).median_secs(), None);
        s.record_win(k, 500, 0, false, 0);
        s.record_win(k, 700, 0, false, 0);
        s.record_win(k, 20, 0, true, 0);
        assert_eq!(s.get(k).times, [500, 700]);
        assert_eq!(s.get(k).median_secs(), Some(600));
    }

    #[test]
    fn streaks_count_solves_without_help_and_end_on_help_or_leaving() {
        let mut s = Stats::default();
        let k = "9x9/medium";
        let streak = |s: &Stats| s.get(k).streak;
        s.record_start(k);
        assert_eq!(streak(&s), Some(0));
        s.record_win(k, 300, 0, false, 0);
        s.record_win(k, 300, 0, false, 0);
        assert_eq!(streak(&s), Some(2));
        // Starting a game is not the end of one.
        s.record_start(k);
        assert_eq!(streak(&s), Some(2));
        s.record_win(k, 300, 1, true, 0);
        assert_eq!(streak(&s), Some(0), "a hint ends it");
        s.record_win(k, 300, 0, false, 0);
        assert_eq!(streak(&s), Some(1));
        s.record_unfinished(k);
        assert_eq!(streak(&s), Some(0), "leaving a game unfinished ends it");
        s.record_win(k, 300, 0, false, 0);
        // Streaks are per size and level.
        s.record_unfinished("9x9/hard");
        assert_eq!(streak(&s), Some(1));
        assert_eq!(s.get("9x9/hard").streak, Some(0));
    }

    #[test]
    fn the_lists_stay_bounded() {
        let mut s = Stats::default();
        let k = "4x4/easy";
        for secs in 0..(TIMES_KEPT as u64 + 10) {
            s.record_win(k, secs, 0, false, 0);
        }
        let r = s.get(k);
        assert_eq!(r.times.len(), TIMES_KEPT);
        assert_eq!(r.times.front(), Some(&10), "the oldest go first");
        assert_eq!(r.solved, TIMES_KEPT as u64 + 10, "the counts keep counting");
        assert_eq!(r.best_secs, Some(0), "the best time stays");
        let start = Date::parse("2020-01-01").unwrap().days();
        for d in 0..(DAILY_KEPT as i64 + 5) {
            s.record_daily_start(Date::from_days(start + d), "9x9/easy");
        }
        s.record_daily_win(Date::from_days(start + 2000), "9x9/easy", 60, false);
        assert_eq!(s.daily.len(), DAILY_KEPT);
        assert!(!s.daily.contains_key("2020-01-06"));
        assert!(s.daily.contains_key("2020-01-07"));
        assert!(
            s.daily
                .contains_key(&Date::from_days(start + 2000).to_string())
        );
    }

    #[test]
    fn a_daily_date_keeps_its_best_result() {
        let mut s = Stats::default();
        let d = Date::parse("2026-03-14").unwrap();
        s.record_daily_start(d, "9x9/extreme");
        assert_eq!(s.daily["2026-03-14"].secs, None);
        s.record_daily_win(d, "9x9/extreme", 900, true);
        assert_eq!(s.daily["2026-03-14"].secs, Some(900));
        // Starting it again changes nothing.
        s.record_daily_start(d, "9x9/extreme");
        assert_eq!(s.daily["2026-03-14"].secs, Some(900));
        s.record_daily_win(d, "9x9/extreme", 1200, false);
        assert!(
            s.daily["2026-03-14"].solved_alone(),
            "without help beats with help"
        );
        s.record_daily_win(d, "9x9/extreme", 100, true);
        assert_eq!(s.daily["2026-03-14"].secs, Some(1200));
        s.record_daily_win(d, "9x9/extreme", 1000, false);
        assert_eq!(s.daily["2026-03-14"].secs, Some(1000), "then the faster");
    }

    #[test]
    fn daily_streaks_run_to_today_or_yesterday() {
        let day = |t: &str| Date::parse(t).unwrap();
        let mut s = Stats::default();
        assert_eq!(s.daily_streak(day("2026-03-14")), 0);
        for t in ["2026-03-10", "2026-03-11", "2026-03-12", "2026-03-13"] {
            s.record_daily_win(day(t), "9x9/easy", 100, false);
        }
        // Yesterday solved, today not yet played or only started.
        assert_eq!(s.daily_streak(day("2026-03-14")), 4);
        s.record_daily_start(day("2026-03-14"), "9x9/easy");
        assert_eq!(s.daily_streak(day("2026-03-14")), 4);
        s.record_daily_win(day("2026-03-14"), "9x9/easy", 100, false);
        assert_eq!(s.daily_streak(day("2026-03-14")), 5);
        // A day missed ends it.
        assert_eq!(s.daily_streak(day("2026-03-16")), 0);
        // A day solved with help ends it.
        s.record_daily_win(day("2026-03-15"), "9x9/easy", 100, true);
        assert_eq!(s.daily_streak(day("2026-03-15")), 0);
        assert_eq!(s.daily_streak(day("2026-03-16")), 0);
        s.record_daily_win(day("2026-03-12"), "9x9/easy", 5, true);
        assert_eq!(
            s.daily_streak(day("2026-03-14")),
            5,
            "a worse result is not kept"
        );
        // Across a month and a year.
        let mut s = Stats::default();
        for t in ["2025-12-31", "2026-01-01"] {
            s.record_daily_win(day(t), "9x9/easy", 100, false);
        }
        assert_eq!(s.daily_streak(day("2026-01-02")), 2);
    }

    #[test]
    fn records_sort_by_size_then_level() {
        let mut s = Stats::default();
        for k in [
            "9x9/imported",
            "16x16/easy",
            "9x9/extreme",
            "4x4/medium",
            "9x9/easy",
            "odd",
            "12x12/hard",
        ] {
            s.record_start(k);
        }
        let keys: Vec<&str> = s.records_in_order().into_iter().map(|(k, _)| k).collect();
        assert_eq!(
            keys,
            [
                "4x4/medium",
                "9x9/easy",
                "9x9/extreme",
                "9x9/imported",
                "12x12/hard",
                "16x16/easy",
                "odd"
            ]
        );
    }
}
