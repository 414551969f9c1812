//! Games from outside the loop: a save read from disk (or its backup), and
//! a puzzle imported from a file or from pasted text. A file larger than
//! [`MAX_IMPORT`] is refused before it is read.

use std::path::{Path, PathBuf};

use crate::engine::format::PuzzleReader;
use crate::game::{Game, Origin};
use crate::store::{LoadError, Recovered};
use crate::tui::action::{LoadGameError, Loaded};

/// Largest puzzle file the import reads.
pub(super) const MAX_IMPORT: u64 = 16 << 20;

/// The game of a save read from disk (or of its backup, saying why).
/// The game of a save read and checked (a save that reads but holds no
/// game this build can resume was treated as damaged: moved aside, its
/// backup tried).
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

/// Reads the first puzzle of a file in any format.
pub fn import_file(path: &Path) -> Loaded {
    let shown = path.display().to_string();
    match std::fs::metadata(path) {
        // A FIFO or a terminal would block the game on read, /dev/zero
        // would never end: only regular files (symlinks followed).
        Ok(m) if !m.is_file() => {
            return Loaded::Error(LoadGameError::NotAFile {
                path: path.to_path_buf(),
            });
        }
        Ok(m) if m.len() > MAX_IMPORT => {
            return Loaded::Error(LoadGameError::TooLarge {
                path: path.to_path_buf(),
                max: MAX_IMPORT,
            });
        }
        Ok(_) => {}
        Err(source) => {
            return Loaded::Error(LoadGameError::Io {
                path: path.to_path_buf(),
                source,
            });
        }
    }
    match std::fs::read(path) {
        Ok(bytes) => {
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
        Err(source) => Loaded::Error(LoadGameError::Io {
            path: path.to_path_buf(),
            source,
        }),
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
