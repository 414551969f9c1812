//! Writing files so that a crash, a full disk or a killed process never
//! leaves a half-written target, moving broken files aside so that the
//! user keeps them, and reading files with a size cap.

use std::ffi::{OsStr, OsString};
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use tempfile::NamedTempFile;

/// Seconds since the Unix epoch (0 if the clock is before it).
pub(crate) fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The folder that holds `path` (`.` for a bare file name).
fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// The file-name part of `path`, or an error for paths such as `/` or `..`.
fn file_name_of(path: &Path) -> io::Result<&std::ffi::OsStr> {
    path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} does not name a file", path.display()),
        )
    })
}

/// Opens `path` for reading when it is a regular file (symlinks
/// followed), with its length; `Ok(None)` for anything else: a FIFO (a
/// read would wait for a writer forever), a device (`/dev/zero` never
/// ends, a terminal waits for keys), a folder. Such a path is looked at,
/// not opened; and the file opened is looked at again, so one put in the
/// checked file's place meanwhile is refused too, without waiting (on
/// Unix it is opened non-blocking, which changes nothing for a regular
/// file).
pub fn open_regular(path: &Path) -> io::Result<Option<(File, u64)>> {
    if !fs::metadata(path)?.is_file() {
        return Ok(None);
    }
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    Ok(meta.is_file().then_some((file, meta.len())))
}

/// The error of a path [`open_regular`] refuses.
pub fn not_regular() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, "not a regular file")
}

/// Reads `path`, but no more than `max + 1` bytes: a file longer than `max`
/// shows as a result longer than `max`, and a huge file is never loaded
/// whole. A missing file is an error of kind [`io::ErrorKind::NotFound`];
/// what is not a regular file is refused ([`open_regular`], [`not_regular`]).
pub fn read_capped(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    let Some((file, _)) = open_regular(path)? else {
        return Err(not_regular());
    };
    let mut bytes = Vec::new();
    file.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Writes `bytes` to `path` atomically: the parent folders are created, the
/// bytes go to a uniquely named temp file beside the target, which is flushed
/// to disk and then renamed over the target; finally the folder itself is
/// synced where the platform allows it. On any error the temp file is removed
/// (the `tempfile` crate removes it when dropped unpersisted) and the target
/// is left as it was.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = parent_of(path);
    let name = file_name_of(path)?;
    fs::create_dir_all(dir)?;
    let mut tmp = create_temp(dir, name)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    sync_dir(dir);
    Ok(())
}

/// Where [`write_atomic_with_backup`] keeps the previous version of
/// `path`: `<name>.bak` beside it.
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(OsString::from).unwrap_or_default();
    name.push(".bak");
    parent_of(path).join(name)
}

/// [`write_atomic`], keeping the file it replaces as [`backup_path`]: the
/// old file is copied to a temp file that is renamed over the backup before
/// the new one is renamed over the target, so at every moment the target
/// is a whole file (old or new) and the backup a whole earlier one. A
/// backup that cannot be made (no room for the copy) does not stop the
/// save; the new file is still written atomically.
pub fn write_atomic_with_backup(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if path.is_file() {
        keep_backup(path);
    }
    write_atomic(path, bytes)
}

/// Copies `path` over its [`backup_path`] through a temp file, so the
/// backup is always a whole file; on any error the backup is left as it was.
fn keep_backup(path: &Path) {
    let backup = backup_path(path);
    let dir = parent_of(path);
    let Some(bak_name) = backup.file_name() else {
        return;
    };
    let Ok(bak_tmp) = create_temp(dir, bak_name) else {
        return;
    };
    // fs::copy writes through the temp file's path (and copies the
    // permissions); on any error the temp file is dropped, and so removed.
    let _ = fs::copy(path, bak_tmp.path())
        .and_then(|_| bak_tmp.as_file().sync_all())
        .and_then(|()| bak_tmp.persist(&backup).map(drop).map_err(|e| e.error));
}

/// Removes the temp files that writers killed mid-write left in `dir`
/// (`.<name>.tmp-<random>`, or `.<name>.tmp-<pid>-<n>` from versions before
/// the `tempfile` crate) once they are older than `age`; returns how many
/// went. Nothing else is touched. A temp file is removed when its writer
/// drops it, but not when the process is killed or the machine stops.
pub fn remove_stale_temps(dir: &Path, age: std::time::Duration) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let now = SystemTime::now();
    entries
        .filter_map(Result::ok)
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with('.') && name.contains(".tmp-")
        })
        .filter(|e| {
            e.metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| now.duration_since(t).is_ok_and(|d| d >= age))
        })
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()) && fs::remove_file(e.path()).is_ok())
        .count()
}

/// Creates `.<name>.tmp-<random>` in `dir` (never an existing file), which
/// [`remove_stale_temps`] recognises. Its permissions are the system's
/// default for a new file (0666 less the umask), as the target's would be,
/// not `tempfile`'s private 0600.
fn create_temp(dir: &Path, name: &OsStr) -> io::Result<NamedTempFile> {
    let mut prefix = OsString::from(".");
    prefix.push(name);
    prefix.push(".tmp-");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(dir)
}

/// Makes a rename durable on systems where a folder can be opened and synced;
/// elsewhere (Windows) this quietly does nothing.
fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Moves a file that could not be read out of the way, to
/// `<name>.bad-<unix-secs>` beside it (or `<name>.bad-<unix-secs>-<k>` if that
/// is taken), never overwriting anything, and returns where it went.
pub fn keep_aside(path: &Path) -> io::Result<PathBuf> {
    keep_aside_as(path, "bad")
}

/// [`keep_aside`] with another word than `bad` in the new name
/// (`<name>.<label>-<unix-secs>`), e.g. `newer-v3` for a file a newer
/// dekadoku wrote.
pub fn keep_aside_as(path: &Path, label: &str) -> io::Result<PathBuf> {
    let dir = parent_of(path);
    let name = file_name_of(path)?;
    let secs = unix_now();
    for k in 0..10_000u32 {
        let mut new_name = name.to_os_string();
        if k == 0 {
            new_name.push(format!(".{label}-{secs}"));
        } else {
            new_name.push(format!(".{label}-{secs}-{k}"));
        }
        let target = dir.join(new_name);
        if target.symlink_metadata().is_ok() {
            continue;
        }
        // A hard link fails if the target appeared meanwhile, so nothing is
        // ever overwritten; where links are not supported, fall back to a
        // rename of a name we just saw free.
        match fs::hard_link(path, &target) {
            Ok(()) => {
                fs::remove_file(path)?;
                return Ok(target);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(e),
            Err(_) => {
                fs::rename(path, &target)?;
                return Ok(target);
            }
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("too many kept-aside copies of {}", path.display()),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder, removed with everything in it when dropped.
    fn scratch() -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix("dekadoku-atomic-")
            .tempdir()
            .unwrap()
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    /// What is not a regular file is refused without waiting: a FIFO
    /// with no writer (opening it to read would wait for one), a device
    /// that never ends, a folder; a regular file reads, capped.
    #[test]
    fn read_capped_refuses_what_is_not_a_regular_file() {
        let tmp = scratch();
        let fifo = tmp.path().join("fifo");
        let mut paths = vec![tmp.path().to_path_buf(), PathBuf::from("/dev/zero")];
        if std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
        {
            paths.push(fifo);
        }
        for path in paths {
            // On a thread, so a regression fails here instead of hanging.
            let (tx, rx) = std::sync::mpsc::channel();
            let p = path.clone();
            std::thread::spawn(move || tx.send(read_capped(&p, 10).map_err(|e| e.to_string())));
            let got = rx.recv_timeout(std::time::Duration::from_secs(30));
            assert_eq!(
                got,
                Ok(Err("not a regular file".to_string())),
                "{}",
                path.display()
            );
        }
        let file = tmp.path().join("file");
        fs::write(&file, b"0123456789abc").unwrap();
        assert_eq!(read_capped(&file, 4).unwrap(), b"01234");
        assert_eq!(read_capped(&file, 100).unwrap(), b"0123456789abc");
        let (_, len) = open_regular(&file).unwrap().unwrap();
        assert_eq!(len, 13);
    }

    #[test]
    fn writes_replaces_and_leaves_no_temp_files() {
        let tmp = scratch();
        let dir = tmp.path();
        let target = dir.join("deep/er/file.json");
        write_atomic(&target, b"first").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"first");
        write_atomic(&target, b"second, longer").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"second, longer");
        write_atomic(&target, b"").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"");
        assert_eq!(names(target.parent().unwrap()), vec!["file.json"]);
    }

    #[test]
    fn a_failed_write_leaves_the_target_alone() {
        let tmp = scratch();
        let dir = tmp.path();
        let target = dir.join("x");
        write_atomic(&target, b"keep me").unwrap();
        // Renaming a file over a non-empty folder fails on every platform.
        let blocked = dir.join("blocked");
        fs::create_dir_all(blocked.join("inside")).unwrap();
        assert!(write_atomic(&blocked, b"nope").is_err());
        assert_eq!(names(dir), vec!["blocked", "x"]);
        assert_eq!(fs::read(&target).unwrap(), b"keep me");
        assert!(write_atomic(Path::new("/"), b"x").is_err());
    }

    #[test]
    fn stale_temps_go_and_nothing_else() {
        let tmp = scratch();
        let dir = tmp.path();
        // One left by an older version, one as a killed writer leaves it now.
        fs::write(dir.join(".autosave.json.tmp-1-0"), b"half").unwrap();
        let (_, left) = create_temp(dir, OsStr::new("stats.json"))
            .unwrap()
            .keep()
            .unwrap();
        fs::write(dir.join("autosave.json"), b"whole").unwrap();
        fs::write(dir.join(".hidden"), b"mine").unwrap();
        let age = std::time::Duration::from_secs(3600);
        assert_eq!(remove_stale_temps(dir, age), 0, "too young");
        assert_eq!(remove_stale_temps(dir, std::time::Duration::ZERO), 2);
        assert_eq!(names(dir), vec![".hidden", "autosave.json"]);
        assert!(!left.exists());
    }

    #[test]
    fn backups_rotate_through_whole_files() {
        let tmp = scratch();
        let f = tmp.path().join("autosave.json");
        write_atomic_with_backup(&f, b"one").unwrap();
        assert!(!backup_path(&f).exists(), "nothing to back up yet");
        write_atomic_with_backup(&f, b"two").unwrap();
        write_atomic_with_backup(&f, b"three").unwrap();
        assert_eq!(fs::read(&f).unwrap(), b"three");
        assert_eq!(fs::read(backup_path(&f)).unwrap(), b"two");
        assert_eq!(
            names(tmp.path()),
            vec!["autosave.json", "autosave.json.bak"]
        );
    }

    /// The written file has the mode any new file gets (tempfile's own
    /// default, 0600, would hide saves from the user's other accounts).
    #[cfg(unix)]
    #[test]
    fn written_files_get_the_usual_mode() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = scratch();
        let plain = tmp.path().join("plain");
        File::create(&plain).unwrap();
        let f = tmp.path().join("written");
        write_atomic(&f, b"x").unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&f), mode(&plain));
    }

    #[test]
    fn keep_aside_never_overwrites() {
        let tmp = scratch();
        let dir = tmp.path();
        let f = dir.join("autosave.json");
        write_atomic(&f, b"one").unwrap();
        let a = keep_aside(&f).unwrap();
        assert!(!f.exists());
        write_atomic(&f, b"two").unwrap();
        let b = keep_aside(&f).unwrap();
        assert_ne!(a, b);
        assert_eq!(fs::read(&a).unwrap(), b"one");
        assert_eq!(fs::read(&b).unwrap(), b"two");
        let an = a.file_name().unwrap().to_string_lossy().into_owned();
        assert!(an.starts_with("autosave.json.bad-"), "{an}");
        assert!(keep_aside(&f).is_err(), "nothing left to move");
    }
}
