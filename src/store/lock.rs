//! Advisory locks on files in the data folder, so two games on one data
//! folder (two SSH logins, two terminals) never write over each other's
//! autosave or lose each other's statistics. The lock is the operating
//! system's (std's `File::try_lock`: `flock` on Unix, `LockFileEx` on
//! Windows): it goes with the process, so a crash or a kill never leaves
//! a stale lock behind, unlike a lock-file protocol.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io;
use std::path::Path;

/// A lock held until dropped.
#[derive(Debug)]
pub struct Held {
    _file: File,
}

fn open(path: &Path) -> io::Result<File> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
}

/// Takes the lock on `path` (created if missing) when no one holds it;
/// `None` when another holds it (another process, or another open of it
/// in this one).
pub fn try_hold(path: &Path) -> io::Result<Option<Held>> {
    let file = open(path)?;
    match file.try_lock() {
        Ok(()) => Ok(Some(Held { _file: file })),
        Err(TryLockError::WouldBlock) => Ok(None),
        Err(TryLockError::Error(e)) => Err(e),
    }
}

/// Takes the lock on `path`, waiting for whoever holds it (held only for
/// a read-modify-write of a small file).
pub fn hold(path: &Path) -> io::Result<Held> {
    let file = open(path)?;
    file.lock()?;
    Ok(Held { _file: file })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_is_refused_until_dropped() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("data/slot.lock");
        let first = try_hold(&path).unwrap();
        assert!(first.is_some());
        assert!(try_hold(&path).unwrap().is_none(), "held by the first");
        drop(first);
        assert!(try_hold(&path).unwrap().is_some(), "free again");
        let _waited = hold(&path).unwrap();
    }
}
