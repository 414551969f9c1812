//! The puzzle pool: a few pre-generated puzzles per board shape and level,
//! so that New game can start at once. The game takes puzzles from here and
//! its worker refills it in the background.
//!
//! Each shape and level has its own small JSON file in the pool folder
//! (`9x9-3x3-medium.json`), written atomically. The pool is a cache: a
//! damaged file is moved aside and the pool for that key starts empty, and
//! an entry that fails validation (wrong length, a digit out of range, a
//! solution that breaks the rules or misses a clue) is dropped on reading.

use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::engine::{Grid, Level, Puzzle, Shape, Value};

use super::atomic::{keep_aside, read_capped, write_atomic};
use super::{StoreError, kept_text};

/// Pool files larger than this are treated as damaged.
const MAX_POOL_BYTES: u64 = 8 * 1024 * 1024;

/// A pooled puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolEntry {
    /// The puzzle (unique).
    pub puzzle: Puzzle,
    /// Its solution.
    pub solution: Grid,
    /// The seed it was generated from.
    pub seed: u64,
    /// The level the grader measured (for sides the grader does not take,
    /// the clue-count level it was made for).
    pub level: Level,
    /// The SE-style rating, when graded.
    pub rating: Option<f32>,
}

/// What the file holds for one entry.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct EntryFile {
    /// Givens, row-major, 0 for blank.
    givens: Vec<u16>,
    /// The solution, row-major.
    solution: Vec<u16>,
    seed: u64,
    level: Level,
    #[serde(default)]
    rating: Option<f32>,
}

/// One pool file.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct PoolFile {
    version: u32,
    box_rows: usize,
    box_cols: usize,
    puzzles: Vec<EntryFile>,
}

/// Why a pool file gave fewer puzzles than it holds (the game lists these
/// at the start; the pool is a cache, so nothing is lost but time).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PoolWarning {
    /// The file is there but cannot be read.
    #[error("{}: {source}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The file is too large to be a pool file; it is not read.
    #[error("{}: larger than {} MiB", path.display(), MAX_POOL_BYTES / (1024 * 1024))]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// Written by a newer dekadoku: not used, never overwritten.
    #[error("{}: written by a newer dekadoku (version {version}); not used", path.display())]
    Newer {
        /// The file.
        path: PathBuf,
        /// Its version.
        version: u32,
    },
    /// Not a pool file; it was moved aside.
    #[error("{}: damaged ({source}); {}", path.display(), kept_text(kept))]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What the JSON reader said, with the line and column.
        source: serde_json::Error,
        /// Where it was moved, or why it could not be.
        kept: Result<PathBuf, io::Error>,
    },
    /// A file whose boxes are not the shape its name says.
    #[error(
        "{}: holds {box_rows}×{box_cols} boxes, expected {}×{}; not used",
        path.display(),
        expected.box_rows(),
        expected.box_cols()
    )]
    OtherShape {
        /// The file.
        path: PathBuf,
        /// Rows of its boxes.
        box_rows: usize,
        /// Columns of its boxes.
        box_cols: usize,
        /// The shape the file is for.
        expected: Shape,
    },
    /// Entries that failed validation were dropped.
    #[error("{}: {dropped} of {total} puzzles were invalid and are dropped", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// How many were dropped.
        dropped: usize,
        /// How many it held.
        total: usize,
    },
}

/// The version of the pool files this build writes.
pub const POOL_VERSION: u32 = 1;

/// How many puzzles the pool keeps per shape and level: a few for boards up
/// to 16×16 (a few seconds of work each at most), one above.
pub fn capacity(shape: Shape) -> usize {
    if shape.n() <= 16 { 3 } else { 1 }
}

/// The pool under one folder.
#[derive(Debug, Clone)]
pub struct Pool {
    dir: PathBuf,
}

impl Pool {
    /// The pool kept in `dir` (created on the first write).
    pub fn new(dir: impl Into<PathBuf>) -> Pool {
        Pool { dir: dir.into() }
    }

    /// The file for `shape` and `level`.
    pub fn file(&self, shape: Shape, level: Level) -> PathBuf {
        let n = shape.n();
        self.dir.join(format!(
            "{n}x{n}-{}x{}-{level}.json",
            shape.box_rows(),
            shape.box_cols()
        ))
    }

    /// How many puzzles are pooled for `shape` and `level`.
    pub fn count(&self, shape: Shape, level: Level) -> usize {
        self.read(shape, level).0.len()
    }

    /// Takes the oldest pooled puzzle of `shape` and `level` out of the
    /// pool, with the number left. `None` when there is none; an error when
    /// the file could not be rewritten (the puzzle then stays pooled).
    pub fn take(
        &self,
        shape: Shape,
        level: Level,
    ) -> Result<(Option<PoolEntry>, usize), StoreError> {
        let (mut entries, _) = self.writable(shape, level)?;
        if entries.is_empty() {
            return Ok((None, 0));
        }
        let first = entries.remove(0);
        self.write(shape, level, &entries)?;
        Ok((Some(first), entries.len()))
    }

    /// Adds `entry` to the pool of its shape and level unless that pool is
    /// full ([`capacity`]) or already holds the same puzzle. Returns the
    /// number pooled for that key afterwards.
    pub fn add(&self, entry: PoolEntry) -> Result<usize, StoreError> {
        let shape = entry.puzzle.shape();
        let level = entry.level;
        let (mut entries, _) = self.writable(shape, level)?;
        if entries.len() >= capacity(shape) || entries.iter().any(|e| e.puzzle == entry.puzzle) {
            return Ok(entries.len());
        }
        entries.push(entry);
        self.write(shape, level, &entries)?;
        Ok(entries.len())
    }

    /// The valid entries for a key, and a warning when the file was
    /// damaged (it is then moved aside) or held entries that were dropped.
    pub fn read(&self, shape: Shape, level: Level) -> (Vec<PoolEntry>, Option<PoolWarning>) {
        let (entries, warning, _) = self.load(shape, level);
        (entries, warning)
    }

    /// [`Pool::read`] for a change: an error when the file is a newer
    /// dekadoku's, which is never overwritten.
    fn writable(
        &self,
        shape: Shape,
        level: Level,
    ) -> Result<(Vec<PoolEntry>, Option<PoolWarning>), StoreError> {
        match self.load(shape, level) {
            (_, _, Some(version)) => Err(StoreError::Newer {
                path: self.file(shape, level),
                version,
                supported: POOL_VERSION,
            }),
            (entries, warning, None) => Ok((entries, warning)),
        }
    }

    /// The entries, a warning, and the file's version when it is newer.
    fn load(
        &self,
        shape: Shape,
        level: Level,
    ) -> (Vec<PoolEntry>, Option<PoolWarning>, Option<u32>) {
        let path = self.file(shape, level);
        let bytes = match read_limited(&path) {
            Ok(Some(bytes)) => bytes,
            Ok(None) => return (Vec::new(), None, None),
            Err(warning) => return (Vec::new(), Some(warning), None),
        };
        let file = match serde_json::from_slice::<PoolFile>(&bytes) {
            Ok(f) if f.version <= POOL_VERSION => f,
            Ok(f) => {
                let warning = PoolWarning::Newer {
                    path,
                    version: f.version,
                };
                return (Vec::new(), Some(warning), Some(f.version));
            }
            Err(source) => {
                let kept = keep_aside(&path);
                let warning = PoolWarning::Damaged { path, source, kept };
                return (Vec::new(), Some(warning), None);
            }
        };
        if (file.box_rows, file.box_cols) != (shape.box_rows(), shape.box_cols()) {
            let warning = PoolWarning::OtherShape {
                path,
                box_rows: file.box_rows,
                box_cols: file.box_cols,
                expected: shape,
            };
            return (Vec::new(), Some(warning), None);
        }
        let total = file.puzzles.len();
        let entries: Vec<PoolEntry> = file
            .puzzles
            .into_iter()
            .filter_map(|e| entry_of(shape, level, e))
            .collect();
        let warning = (entries.len() < total).then(|| PoolWarning::Invalid {
            path,
            dropped: total - entries.len(),
            total,
        });
        (entries, warning, None)
    }

    fn write(&self, shape: Shape, level: Level, entries: &[PoolEntry]) -> Result<(), StoreError> {
        let path = self.file(shape, level);
        let file = PoolFile {
            version: POOL_VERSION,
            box_rows: shape.box_rows(),
            box_cols: shape.box_cols(),
            puzzles: entries
                .iter()
                .map(|e| EntryFile {
                    givens: e
                        .puzzle
                        .cells()
                        .iter()
                        .map(|v| v.map_or(0, |v| v.get() as u16))
                        .collect(),
                    solution: e.solution.cells().iter().map(|v| v.get() as u16).collect(),
                    seed: e.seed,
                    level: e.level,
                    rating: e.rating,
                })
                .collect(),
        };
        let bytes = serde_json::to_vec(&file).map_err(|e| StoreError::encode(&path, e))?;
        write_atomic(&path, &bytes).map_err(|e| StoreError::io(&path, e))
    }
}

/// The file's bytes; `None` when it does not exist.
fn read_limited(path: &Path) -> Result<Option<Vec<u8>>, PoolWarning> {
    match read_capped(path, MAX_POOL_BYTES) {
        Ok(bytes) if bytes.len() as u64 > MAX_POOL_BYTES => Err(PoolWarning::TooLarge {
            path: path.to_path_buf(),
        }),
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(PoolWarning::Unreadable {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// A valid entry, or `None`: the lengths fit the shape, every digit is in
/// range, the solution is a valid grid and agrees with every given.
fn entry_of(shape: Shape, level: Level, e: EntryFile) -> Option<PoolEntry> {
    let n = shape.n();
    if e.givens.len() != shape.cells() || e.solution.len() != shape.cells() || e.level != level {
        return None;
    }
    let value = |d: u16| {
        (1..=n)
            .contains(&usize::from(d))
            .then(|| Value::from_index(usize::from(d) - 1))
    };
    let solution: Vec<Value> = e
        .solution
        .iter()
        .map(|&d| value(d))
        .collect::<Option<_>>()?;
    let solution = Grid::from_indices(shape, solution.iter().map(|v| v.index()));
    if !solution.is_valid() {
        return None;
    }
    let mut puzzle = Puzzle::empty(shape);
    for (c, &d) in e.givens.iter().enumerate() {
        if d != 0 {
            puzzle.set(c, Some(value(d)?)).ok()?;
        }
    }
    puzzle.is_solved_by(&solution).then_some(PoolEntry {
        puzzle,
        solution,
        seed: e.seed,
        level,
        rating: e.rating.filter(|r| r.is_finite()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Limits;
    use crate::engine::generate::{GenerateOptions, generate};
    use std::fs;

    fn entry(shape: Shape, level: Level, seed: u64) -> PoolEntry {
        let g = generate(&GenerateOptions::new(shape, level, seed), &Limits::none()).unwrap();
        PoolEntry {
            puzzle: g.puzzle,
            solution: g.solution,
            seed,
            level,
            rating: Some(3.4),
        }
    }

    /// A fresh folder (removed when the guard drops) and a pool folder
    /// inside it that does not exist yet.
    fn scratch() -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::Builder::new()
            .prefix("dekadoku-pool-")
            .tempdir()
            .unwrap();
        let dir = tmp.path().join("pool");
        (tmp, dir)
    }

    #[test]
    fn add_take_round_trip_up_to_capacity() {
        let (_tmp, dir) = scratch();
        let pool = Pool::new(&dir);
        let shape = Shape::new(2, 3).unwrap();
        assert_eq!(pool.count(shape, Level::Medium), 0);
        assert_eq!(pool.take(shape, Level::Medium).unwrap(), (None, 0));
        let made: Vec<PoolEntry> = (1..=4).map(|s| entry(shape, Level::Medium, s)).collect();
        assert_eq!(pool.add(made[0].clone()).unwrap(), 1);
        // The same puzzle twice is kept once.
        assert_eq!(pool.add(made[0].clone()).unwrap(), 1);
        assert_eq!(pool.add(made[1].clone()).unwrap(), 2);
        assert_eq!(pool.add(made[2].clone()).unwrap(), 3);
        // Full: the fourth is not kept.
        assert_eq!(pool.add(made[3].clone()).unwrap(), capacity(shape));
        // Other keys are separate.
        assert_eq!(pool.count(shape, Level::Easy), 0);
        // Oldest first, each exactly as it went in.
        assert_eq!(
            pool.take(shape, Level::Medium).unwrap(),
            (Some(made[0].clone()), 2)
        );
        assert_eq!(
            pool.take(shape, Level::Medium).unwrap(),
            (Some(made[1].clone()), 1)
        );
        assert_eq!(pool.count(shape, Level::Medium), 1);
    }

    #[test]
    fn a_damaged_file_is_moved_aside_and_bad_entries_are_dropped() {
        let (_tmp, dir) = scratch();
        let pool = Pool::new(&dir);
        let shape = Shape::square(2).unwrap();
        let path = pool.file(shape, Level::Easy);
        fs::create_dir_all(&dir).unwrap();
        fs::write(&path, b"{not json").unwrap();
        let (entries, warning) = pool.read(shape, Level::Easy);
        assert!(entries.is_empty());
        let warning = warning.unwrap();
        assert!(matches!(warning, PoolWarning::Damaged { kept: Ok(_), .. }));
        let warning = warning.to_string();
        assert!(
            warning.contains("damaged") && warning.contains("moved to"),
            "{warning}"
        );
        assert!(!path.exists());
        // The pool works again afterwards.
        let good = entry(shape, Level::Easy, 7);
        assert_eq!(pool.add(good.clone()).unwrap(), 1);
        // An entry whose solution misses a clue, one with a digit out of
        // range and one of the wrong length are dropped; the good one stays.
        let mut text = String::from_utf8(fs::read(&path).unwrap()).unwrap();
        let mut wrong = good
            .solution
            .cells()
            .iter()
            .map(|v| v.get())
            .collect::<Vec<_>>();
        wrong.swap(0, 1);
        let givens: Vec<u16> = good
            .puzzle
            .cells()
            .iter()
            .map(|v| v.map_or(0, |v| v.get() as u16))
            .collect();
        let bad = [
            serde_json::json!({"givens": givens, "solution": wrong, "seed": 1, "level": "easy"}),
            serde_json::json!({"givens": vec![9u16; 16], "solution": vec![1u16; 16], "seed": 2, "level": "easy"}),
            serde_json::json!({"givens": [1], "solution": [1], "seed": 3, "level": "easy"}),
        ];
        let at = text.rfind(']').unwrap();
        for b in bad {
            text.insert_str(at, &format!(",{b}"));
        }
        fs::write(&path, text).unwrap();
        let (entries, warning) = pool.read(shape, Level::Easy);
        assert_eq!(entries, vec![good]);
        assert!(
            warning
                .unwrap()
                .to_string()
                .contains("3 of 4 puzzles were invalid")
        );
    }

    #[test]
    fn files_of_other_shapes_or_newer_versions_are_not_used() {
        let (_tmp, dir) = scratch();
        let pool = Pool::new(&dir);
        let shape = Shape::new(2, 3).unwrap();
        fs::create_dir_all(&dir).unwrap();
        let path = pool.file(shape, Level::Hard);
        fs::write(
            &path,
            br#"{"version":1,"box_rows":3,"box_cols":2,"puzzles":[]}"#,
        )
        .unwrap();
        assert!(
            pool.read(shape, Level::Hard)
                .1
                .unwrap()
                .to_string()
                .contains("expected 2×3")
        );
        fs::write(
            &path,
            br#"{"version":99,"box_rows":2,"box_cols":3,"puzzles":[]}"#,
        )
        .unwrap();
        assert!(matches!(
            pool.read(shape, Level::Hard).1,
            Some(PoolWarning::Newer { version: 99, .. })
        ));
        // Left in place for the newer dekadoku: adding refuses to write.
        let e = entry(shape, Level::Hard, 1);
        assert!(matches!(
            pool.add(e),
            Err(StoreError::Newer { version: 99, .. })
        ));
        assert!(fs::read_to_string(&path).unwrap().contains("99"));
    }
}
