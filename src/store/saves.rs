//! Saved games and other JSON files in a versioned envelope:
//! `{ "format": "dekadoku", "kind": …, "version": N, "meta": {…}, "payload": {…} }`.
//! The envelope lets us tell our files from others, refuse files from a newer
//! dekadoku without harming them, and list saves from their `meta` alone.
//! A damaged or foreign file is moved aside (never overwritten), and the
//! error says where it went.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::StoreError;
use super::atomic::{
    backup_path, keep_aside, keep_aside_as, read_capped, write_atomic_with_backup,
};

/// The `format` word of every envelope.
pub const FORMAT: &str = "dekadoku";

/// Save files larger than this are refused (not read, not moved).
pub const MAX_SAVE_BYTES: u64 = 64 * 1024 * 1024;

/// What a save says about itself, enough to list it without reading the game.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct SaveMeta {
    /// The board size, `"9x9"`.
    pub size: String,
    /// The level, if known (`"medium"`).
    pub level: Option<String>,
    /// Cells filled so far.
    pub filled: u32,
    /// Cells on the board.
    pub cells: u32,
    /// Play time so far.
    pub elapsed_secs: u64,
    /// When it was saved, in seconds since the Unix epoch.
    pub saved_at: u64,
    /// Whether the game was finished.
    pub solved: bool,
    /// The player's title for it, if any.
    pub title: Option<String>,
}

/// Why a saved file could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// There is no such file.
    #[error("{}: no such file", path.display())]
    NotFound {
        /// The file looked for.
        path: PathBuf,
    },
    /// The system would not let us read it.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The file is not valid JSON or does not hold what its envelope says.
    #[error("{}: damaged ({source}); {}", path.display(), kept_note(kept_as))]
    Corrupt {
        /// Where the file was.
        path: PathBuf,
        /// What is wrong, with line and column.
        source: serde_json::Error,
        /// Where it was moved to, if moving it worked.
        kept_as: Option<PathBuf>,
    },
    /// The file reads, but what it holds makes no sense (a 400×400 header
    /// over 5 cells, conflicting givens, a history off the board): damaged
    /// like a file that does not read, and moved aside the same way.
    #[error("{}: damaged ({source}); {}", path.display(), kept_note(kept_as))]
    Invalid {
        /// Where the file was.
        path: PathBuf,
        /// What makes no sense.
        source: Box<dyn std::error::Error + Send + Sync>,
        /// Where it was moved to, if moving it worked.
        kept_as: Option<PathBuf>,
    },
    /// The file is something other than the kind of dekadoku file wanted.
    #[error("{}: not a dekadoku {wanted} file (it says format \"{found_format}\", kind \"{found_kind}\"); {}",
        path.display(), kept_note(kept_as))]
    Foreign {
        /// Where the file was.
        path: PathBuf,
        /// The kind asked for.
        wanted: String,
        /// The `format` it has (empty if none).
        found_format: String,
        /// The `kind` it has (empty if none).
        found_kind: String,
        /// Where it was moved to, if moving it worked.
        kept_as: Option<PathBuf>,
    },
    /// Written by a newer dekadoku. Moved aside whole (to
    /// `<name>.newer-v<version>-<secs>`), so that nothing of ours
    /// overwrites it and that version can still read it once renamed back.
    #[error("{}: written by a newer dekadoku (version {version}; this one reads up to {supported}); {}",
        path.display(), newer_note(kept_as))]
    TooNew {
        /// Where the file was.
        path: PathBuf,
        /// Its version.
        version: u32,
        /// The newest version we read.
        supported: u32,
        /// Where it was moved to, if moving it worked (if not, it is where
        /// it was, and whoever writes saves must not write over it).
        kept_as: Option<PathBuf>,
    },
    /// Larger than [`MAX_SAVE_BYTES`]; left in place.
    #[error("{}: {bytes} bytes is more than a save can be ({} MiB); left in place", path.display(), MAX_SAVE_BYTES / (1024 * 1024))]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        bytes: u64,
    },
    /// A name that cannot be a save's name.
    #[error(transparent)]
    BadName(StoreError),
}

fn newer_note(kept_as: &Option<PathBuf>) -> String {
    match kept_as {
        Some(p) => format!(
            "moved to {} so that nothing overwrites it (rename it back for that version)",
            p.display()
        ),
        None => "could not be moved aside, so it is left in place".to_string(),
    }
}

fn kept_note(kept_as: &Option<PathBuf>) -> String {
    match kept_as {
        Some(p) => format!("moved to {} so that nothing overwrites it", p.display()),
        None => "could not be moved aside".to_string(),
    }
}

impl LoadError {
    /// The file the error is about (none for a bad name).
    pub fn path(&self) -> Option<&Path> {
        match self {
            LoadError::NotFound { path }
            | LoadError::Io { path, .. }
            | LoadError::Corrupt { path, .. }
            | LoadError::Invalid { path, .. }
            | LoadError::Foreign { path, .. }
            | LoadError::TooNew { path, .. }
            | LoadError::TooLarge { path, .. } => Some(path),
            LoadError::BadName(_) => None,
        }
    }
}

#[derive(Serialize)]
struct EnvelopeOut<'a, T> {
    format: &'a str,
    kind: &'a str,
    version: u32,
    meta: &'a SaveMeta,
    payload: &'a T,
}

#[derive(Deserialize)]
struct EnvelopeIn<T> {
    format: String,
    kind: String,
    version: u32,
    meta: SaveMeta,
    payload: T,
}

/// The envelope read leniently (the payload is skipped), to say what a file
/// is when the strict read fails, and to list saves without building games.
#[derive(Deserialize)]
struct Head {
    #[serde(default)]
    format: Option<String>,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    version: Option<u64>,
    #[serde(default)]
    meta: Option<serde_json::Value>,
}

/// Writes `payload` to `path` atomically, inside an envelope of `kind` and
/// `version` with `meta`, keeping the save it replaces as `<name>.bak`
/// (see [`read_save_or_backup`]).
pub fn write_save<T: Serialize>(
    path: &Path,
    kind: &str,
    version: u32,
    meta: &SaveMeta,
    payload: &T,
) -> Result<(), StoreError> {
    let bytes =
        encode_save(kind, version, meta, payload).map_err(|e| StoreError::encode(path, e))?;
    write_atomic_with_backup(path, &bytes).map_err(|e| StoreError::io(path, e))
}

/// The bytes [`write_save`] writes, for keeping them elsewhere than in a
/// file (a server keeps them in its players' rows).
pub fn encode_save<T: Serialize>(
    kind: &str,
    version: u32,
    meta: &SaveMeta,
    payload: &T,
) -> Result<Vec<u8>, serde_json::Error> {
    serde_json::to_vec(&EnvelopeOut {
        format: FORMAT,
        kind,
        version,
        meta,
        payload,
    })
}

/// Reads bytes made by [`encode_save`] of this `kind` and a version up to
/// `max_version`: the summary and the payload, or what is wrong with them
/// in words (no file to name, nothing moved aside).
pub fn decode_save<T: DeserializeOwned>(
    bytes: &[u8],
    kind: &str,
    max_version: u32,
) -> Result<(SaveMeta, T), String> {
    let env = match serde_json::from_slice::<EnvelopeIn<T>>(bytes) {
        Ok(env) => env,
        Err(e) => return Err(format!("damaged ({e})")),
    };
    if env.format != FORMAT || env.kind != kind {
        return Err(format!(
            "not a dekadoku {kind} (it says format \"{}\", kind \"{}\")",
            env.format, env.kind
        ));
    }
    if env.version > max_version {
        return Err(format!(
            "written by a newer dekadoku (version {}; this one reads up to {max_version})",
            env.version
        ));
    }
    Ok((env.meta, env.payload))
}

/// A save read by [`read_save_or_backup`].
#[derive(Debug)]
pub struct Recovered<T> {
    /// What the save says about itself.
    pub meta: SaveMeta,
    /// The save.
    pub payload: T,
    /// Set when the save itself could not be read (the error says why and
    /// where it was moved) and this is the backup of the one before.
    pub from_backup: Option<LoadError>,
}

/// [`read_save`], falling back to the backup [`write_save`] keeps when the
/// save is missing, damaged, foreign or from a newer version (moved aside
/// by [`read_save`]). A save too large to read, or a newer one that could
/// not be moved aside, is reported as it is and left alone, never replaced
/// by the backup.
pub fn read_save_or_backup<T: DeserializeOwned>(
    path: &Path,
    kind: &str,
    max_version: u32,
) -> Result<Recovered<T>, LoadError> {
    read_checked_or_backup(path, kind, max_version, Ok::<T, std::convert::Infallible>)
}

/// [`read_save_or_backup`] for a payload that must also make sense:
/// `check` turns it into what the caller uses. A save that reads but
/// fails the check is damaged like one that does not read
/// ([`LoadError::Invalid`]): moved aside, and the backup tried (with the
/// same check; a backup that fails it is left where it is).
pub fn read_checked_or_backup<T, U, E>(
    path: &Path,
    kind: &str,
    max_version: u32,
    check: impl Fn(T) -> Result<U, E>,
) -> Result<Recovered<U>, LoadError>
where
    T: DeserializeOwned,
    E: std::error::Error + Send + Sync + 'static,
{
    let checked = |p: &Path, move_aside: bool| -> Result<(SaveMeta, U), LoadError> {
        let (meta, payload) = read_save::<T>(p, kind, max_version)?;
        match check(payload) {
            Ok(u) => Ok((meta, u)),
            Err(e) => Err(LoadError::Invalid {
                path: p.to_path_buf(),
                source: Box::new(e),
                kept_as: if move_aside { keep_aside(p).ok() } else { None },
            }),
        }
    };
    match checked(path, true) {
        Ok((meta, payload)) => Ok(Recovered {
            meta,
            payload,
            from_backup: None,
        }),
        Err(e @ (LoadError::TooNew { kept_as: None, .. } | LoadError::TooLarge { .. })) => Err(e),
        Err(e) => match checked(&backup_path(path), false) {
            Ok((meta, payload)) => Ok(Recovered {
                meta,
                payload,
                from_backup: Some(e),
            }),
            Err(_) => Err(e),
        },
    }
}

/// Removes a save and its backup (a missing file is not an error).
pub fn remove_save(path: &Path) -> io::Result<()> {
    for p in [path.to_path_buf(), backup_path(path)] {
        match fs::remove_file(&p) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    Ok(())
}

/// Reads the bytes of a file of at most [`MAX_SAVE_BYTES`].
fn read_bytes(path: &Path) -> Result<Vec<u8>, LoadError> {
    let io_error = |source: io::Error| match source.kind() {
        io::ErrorKind::NotFound => LoadError::NotFound {
            path: path.to_path_buf(),
        },
        _ => LoadError::Io {
            path: path.to_path_buf(),
            source,
        },
    };
    let bytes = read_capped(path, MAX_SAVE_BYTES).map_err(io_error)?;
    if bytes.len() as u64 > MAX_SAVE_BYTES {
        let bytes = fs::metadata(path).map_or(bytes.len() as u64, |m| m.len());
        return Err(LoadError::TooLarge {
            path: path.to_path_buf(),
            bytes,
        });
    }
    Ok(bytes)
}

/// Reads a file written by [`write_save`] with this `kind` and a version up
/// to `max_version`. Damaged, foreign and newer-version files are moved
/// aside (see [`keep_aside`]); oversized files are left alone. Callers that
/// write to the same path afterwards (an autosave) must not do so over a
/// file left in place: [`LoadError::TooLarge`], or [`LoadError::TooNew`]
/// without `kept_as`.
pub fn read_save<T: DeserializeOwned>(
    path: &Path,
    kind: &str,
    max_version: u32,
) -> Result<(SaveMeta, T), LoadError> {
    let bytes = read_bytes(path)?;
    let strict = serde_json::from_slice::<EnvelopeIn<T>>(&bytes);
    let source = match strict {
        Ok(env) => {
            let head = Head {
                format: Some(env.format),
                kind: Some(env.kind),
                version: Some(u64::from(env.version)),
                meta: None,
            };
            check_head(path, &head, kind, max_version)?;
            return Ok((env.meta, env.payload));
        }
        Err(e) => e,
    };
    // The strict read failed: find out whether the file is ours at all.
    if let Ok(head) = serde_json::from_slice::<Head>(&bytes) {
        check_head(path, &head, kind, max_version)?;
    }
    let kept_as = keep_aside(path).ok();
    Err(LoadError::Corrupt {
        path: path.to_path_buf(),
        source,
        kept_as,
    })
}

/// The payload of a save of this `kind` and a version up to
/// `max_version`, read without moving anything, whatever the file holds:
/// `None` when it is missing, unreadable, damaged, foreign or newer. For
/// looking before writing ("Save as" over another game); reading to use
/// a save is [`read_save`]'s.
pub fn peek_save<T: DeserializeOwned>(path: &Path, kind: &str, max_version: u32) -> Option<T> {
    let bytes = read_bytes(path).ok()?;
    let env = serde_json::from_slice::<EnvelopeIn<T>>(&bytes).ok()?;
    (env.format == FORMAT && env.kind == kind && env.version <= max_version).then_some(env.payload)
}

/// Foreign or too new (moved aside), or fine.
fn check_head(path: &Path, head: &Head, kind: &str, max_version: u32) -> Result<(), LoadError> {
    let found_format = head.format.clone().unwrap_or_default();
    let found_kind = head.kind.clone().unwrap_or_default();
    if found_format != FORMAT || found_kind != kind {
        let kept_as = keep_aside(path).ok();
        return Err(LoadError::Foreign {
            path: path.to_path_buf(),
            wanted: kind.to_string(),
            found_format,
            found_kind,
            kept_as,
        });
    }
    match head.version {
        Some(v) if v > u64::from(max_version) => {
            let version = u32::try_from(v).unwrap_or(u32::MAX);
            Err(LoadError::TooNew {
                path: path.to_path_buf(),
                version,
                supported: max_version,
                kept_as: keep_aside_as(path, &format!("newer-v{version}")).ok(),
            })
        }
        _ => Ok(()),
    }
}

/// Why a save's `meta` could not be read for the list of saves (the file
/// is named by the list entry, so only [`MetaError::Read`] repeats it).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MetaError {
    /// The file could not be read (or is too large to).
    #[error(transparent)]
    Read(#[from] LoadError),
    /// The file is not JSON.
    #[error("damaged: {0}")]
    Damaged(#[source] serde_json::Error),
    /// JSON without our envelope's `format`.
    #[error("not a dekadoku file")]
    Foreign,
    /// Our envelope without a `meta`.
    #[error("no meta")]
    NoMeta,
    /// A `meta` that does not hold what a save's meta holds.
    #[error("damaged meta: {0}")]
    DamagedMeta(#[source] serde_json::Error),
}

/// Reads only the envelope and `meta` of a save, without moving anything.
fn peek_meta(path: &Path) -> Result<SaveMeta, MetaError> {
    let bytes = read_bytes(path)?;
    let head: Head = serde_json::from_slice(&bytes).map_err(MetaError::Damaged)?;
    if head.format.as_deref() != Some(FORMAT) {
        return Err(MetaError::Foreign);
    }
    let meta = head.meta.ok_or(MetaError::NoMeta)?;
    serde_json::from_value(meta).map_err(MetaError::DamagedMeta)
}

/// The file stem a user-typed save name becomes: letters, digits, `-` and
/// `_` are kept; spaces, dots and anything else become `-` (runs collapsed,
/// none at the ends); a typed `.json` is dropped; at most 64 characters;
/// names the system reserves (`con`, `nul`, …) get a `_`. Empty results
/// are refused.
pub fn sanitize_name(name: &str) -> Result<String, StoreError> {
    let bad = |reason| StoreError::BadName {
        name: name.to_string(),
        reason,
    };
    let mut base = name.trim();
    if base.len() >= 5 && base.is_char_boundary(base.len() - 5) {
        let (stem, ext) = base.split_at(base.len() - 5);
        if ext.eq_ignore_ascii_case(".json") {
            base = stem;
        }
    }
    let mut out = String::new();
    for c in base.chars() {
        let keep = c.is_alphanumeric() || c == '_' || c == '-';
        if keep {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let mut out: String = out.trim_matches('-').chars().take(64).collect();
    while out.ends_with('-') {
        out.pop();
    }
    if out.is_empty() {
        return Err(bad(if name.trim().is_empty() {
            "it is empty"
        } else {
            "it has no letters or digits"
        }));
    }
    let reserved = ["con", "prn", "aux", "nul"];
    let lower = out.to_ascii_lowercase();
    let numbered = (lower.starts_with("com") || lower.starts_with("lpt"))
        && lower.len() == 4
        && lower.as_bytes()[3].is_ascii_digit();
    if reserved.contains(&lower.as_str()) || numbered {
        out.push('_');
    }
    Ok(out)
}

/// One file in the saves folder, as [`Saves::list`] finds it.
#[derive(Debug)]
pub struct SaveEntry {
    /// Its name (the file stem), as [`Saves::load`] takes it.
    pub name: String,
    /// The file.
    pub path: PathBuf,
    /// What it says about itself, or why that could not be read.
    pub meta: Result<SaveMeta, MetaError>,
}

/// The folder of named saves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saves {
    /// The folder (created when the first save is written).
    pub dir: PathBuf,
}

impl Saves {
    /// Saves kept in `dir`.
    pub fn new(dir: impl Into<PathBuf>) -> Saves {
        Saves { dir: dir.into() }
    }

    /// The file a user-typed name is saved to (see [`sanitize_name`]).
    pub fn path_for(&self, name: &str) -> Result<PathBuf, StoreError> {
        Ok(self.dir.join(format!("{}.json", sanitize_name(name)?)))
    }

    /// Saves under `name` (replacing a save of that name), returning the file.
    pub fn save<T: Serialize>(
        &self,
        name: &str,
        kind: &str,
        version: u32,
        meta: &SaveMeta,
        payload: &T,
    ) -> Result<PathBuf, StoreError> {
        let path = self.path_for(name)?;
        write_save(&path, kind, version, meta, payload)?;
        Ok(path)
    }

    /// Loads the save called `name`, or its backup when it is damaged
    /// (see [`read_save_or_backup`]).
    pub fn load<T: DeserializeOwned>(
        &self,
        name: &str,
        kind: &str,
        max_version: u32,
    ) -> Result<Recovered<T>, LoadError> {
        let path = self.path_for(name).map_err(LoadError::BadName)?;
        read_save_or_backup(&path, kind, max_version)
    }

    /// [`Saves::load`] with a check of what the save holds
    /// ([`read_checked_or_backup`]).
    pub fn load_checked<T, U, E>(
        &self,
        name: &str,
        kind: &str,
        max_version: u32,
        check: impl Fn(T) -> Result<U, E>,
    ) -> Result<Recovered<U>, LoadError>
    where
        T: DeserializeOwned,
        E: std::error::Error + Send + Sync + 'static,
    {
        let path = self.path_for(name).map_err(LoadError::BadName)?;
        read_checked_or_backup(&path, kind, max_version, check)
    }

    /// Every `*.json` in the folder, newest first (by `saved_at`, or the
    /// file's time for files whose meta cannot be read), reading only their
    /// meta. Broken files are listed with their error and left where they are.
    pub fn list(&self) -> Vec<SaveEntry> {
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut found: Vec<(u64, SaveEntry)> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json") && p.is_file())
            .filter_map(|path| {
                let name = path.file_stem()?.to_str()?.to_string();
                if name.starts_with('.') {
                    return None;
                }
                let meta = peek_meta(&path);
                let when = match &meta {
                    Ok(m) => m.saved_at,
                    Err(_) => modified_secs(&path),
                };
                Some((when, SaveEntry { name, path, meta }))
            })
            .collect();
        found.sort_by(|(ta, a), (tb, b)| tb.cmp(ta).then_with(|| a.name.cmp(&b.name)));
        found.into_iter().map(|(_, e)| e).collect()
    }

    /// Deletes the save called `name`; a save that is not there is not an
    /// error.
    pub fn delete(&self, name: &str) -> Result<(), StoreError> {
        let path = self.path_for(name)?;
        remove_save(&path).map_err(|e| StoreError::io(path, e))
    }
}

fn modified_secs(path: &Path) -> u64 {
    fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_safe_stems() {
        let ok = |s: &str| sanitize_name(s).unwrap();
        assert_eq!(ok("Monday"), "Monday");
        assert_eq!(ok("  my game  "), "my-game");
        assert_eq!(ok("../../etc/passwd"), "etc-passwd");
        assert_eq!(ok("a/b\\c:d"), "a-b-c-d");
        assert_eq!(ok("hard one.json"), "hard-one");
        assert_eq!(ok("v1.2"), "v1-2");
        assert_eq!(ok(".hidden"), "hidden");
        assert_eq!(ok("Grüße_9x9"), "Grüße_9x9");
        assert_eq!(ok("con"), "con_");
        assert_eq!(ok("COM1"), "COM1_");
        assert_eq!(ok(&"x".repeat(200)).len(), 64);
        for bad in ["", "   ", "...", "/", ".json", "\0"] {
            assert!(sanitize_name(bad).is_err(), "{bad:?}");
        }
        let stem = ok("a b/c");
        assert_eq!(ok(&stem), stem, "sanitising is idempotent");
    }
}
