//! Games from outside the loop: a save read from disk (or its backup), and
//! a puzzle imported from a file or from pasted text. Only a regular file
//! is read (a FIFO, a device or a folder is refused before it is opened),
//! one larger than [`MAX_IMPORT`] is refused before it is read, and the
//! reading stops between chunks once its cancel flag is raised. These run
//! on a reading thread ([`super::reader`]), never on the UI thread.

use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::engine::format::PuzzleReader;
use crate::game::{Game, Origin};
use crate::store::atomic::open_regular;
use crate::store::{LoadError, Recovered};
use crate::tui::action::{LoadGameError, Loaded};

/// Largest puzzle file the import reads.
pub(super) const MAX_IMPORT: u64 = 16 << 20;

/// Bytes read between two looks at the cancel flag.
const CHUNK: usize = 1 << 16;

/// The game of a save read and checked (a save that reads but holds no
/// game this build can resume was treated as damaged: moved aside, its
/// backup tried), or of its backup, saying why.
pub(super) fn resume(r: Result<Recovered<Game>, LoadError>) -> Loaded {
    match r {
        Ok(Recovered {
            payload,
            from_backup: None,
            ..
        }) => Loaded::Game(Box::new(payload)),
        Ok(Recovered {
            payload,
            from_backup: Some(e),
            ..
        }) => Loaded::Recovered(Box::new(payload), e),
        Err(e) => Loaded::Error(e.into()),
    }
}

/// Reads the first puzzle of a file in any format, to the end (the game
/// reads with a cancel flag: `import_file_until`).
pub fn import_file(path: &Path) -> Loaded {
    import_file_until(path, &AtomicBool::new(false))
}

/// [`import_file`], stopping with [`LoadGameError::Cancelled`] once
/// `cancel` is raised.
pub(super) fn import_file_until(path: &Path, cancel: &AtomicBool) -> Loaded {
    let bytes = match read_puzzle_file(path, cancel) {
        Ok(bytes) => bytes,
        Err(e) => return Loaded::Error(e),
    };
    let shown = path.display().to_string();
    let name = PathBuf::from(path)
        .file_name()
        .map_or(shown.clone(), |n| n.to_string_lossy().into_owned());
    let text = String::from_utf8_lossy(&bytes);
    match import_text(&text, &shown) {
        Loaded::Game(mut g) => {
            let p = g.puzzle();
            *g = Game::new(
                &p,
                None,
                Origin {
                    level: None,
                    seed: None,
                    title: Some(name),
                },
            );
            Loaded::Game(g)
        }
        other => other,
    }
}

/// The bytes of a puzzle file: a regular file (symlinks followed) of at
/// most [`MAX_IMPORT`] bytes.
pub(super) fn read_puzzle_file(path: &Path, cancel: &AtomicBool) -> Result<Vec<u8>, LoadGameError> {
    let path_buf = || path.to_path_buf();
    let (file, len) = match open_regular(path) {
        Ok(Some(opened)) => opened,
        // A FIFO or a terminal would wait forever, /dev/zero would never end.
        Ok(None) => return Err(LoadGameError::NotAFile { path: path_buf() }),
        Err(source) => {
            return Err(LoadGameError::Io {
                path: path_buf(),
                source,
            });
        }
    };
    let too_large = || LoadGameError::TooLarge {
        path: path_buf(),
        max: MAX_IMPORT,
    };
    if len > MAX_IMPORT {
        return Err(too_large());
    }
    match read_chunks(file, MAX_IMPORT, cancel) {
        Ok(bytes) => Ok(bytes),
        Err(Stop::TooLarge) => Err(too_large()),
        Err(Stop::Cancelled) => Err(LoadGameError::Cancelled { path: path_buf() }),
        Err(Stop::Io(source)) => Err(LoadGameError::Io {
            path: path_buf(),
            source,
        }),
    }
}

/// Why [`read_chunks`] stopped before the end.
#[derive(Debug)]
pub(super) enum Stop {
    /// More than the cap.
    TooLarge,
    /// The cancel flag was raised.
    Cancelled,
    /// The system said no.
    Io(io::Error),
}

/// Everything `from` gives, at most `max` bytes, a chunk at a time,
/// looking at `cancel` before each (a file that grows while it is read
/// still stops at the cap).
pub(super) fn read_chunks(
    mut from: impl Read,
    max: u64,
    cancel: &AtomicBool,
) -> Result<Vec<u8>, Stop> {
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; CHUNK];
    loop {
        if cancel.load(Ordering::Relaxed) {
            return Err(Stop::Cancelled);
        }
        match from.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(n) => {
                if (bytes.len() + n) as u64 > max {
                    return Err(Stop::TooLarge);
                }
                bytes.extend_from_slice(&chunk[..n]);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Stop::Io(e)),
        }
    }
}

/// Reads the first puzzle of a text in any format.
pub fn import_text(text: &str, source: &str) -> Loaded {
    match PuzzleReader::new(text.as_bytes(), source, None).next() {
        Some(Ok(p)) => Loaded::Game(Box::new(Game::new(
            &p,
            None,
            Origin {
                level: None,
                seed: None,
                title: Some(source.to_string()),
            },
        ))),
        Some(Err(e)) => Loaded::Error(e.into()),
        None => Loaded::Error(LoadGameError::NoPuzzle {
            from: source.to_string(),
        }),
    }
}
