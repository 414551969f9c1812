//! Where our files live: the config folder (config.toml, themes/) and the
//! data folder (saves/, autosave.json, stats.json, pool/). Each can be moved
//! with an environment variable, so tests and portable set-ups never touch
//! the real home. Nothing here creates a folder: writers do that lazily.

use std::ffi::OsString;
use std::path::PathBuf;

use super::StoreError;

/// Environment variable that overrides the config folder.
pub const CONFIG_DIR_ENV: &str = "DEKADOKU_CONFIG_DIR";
/// Environment variable that overrides the data folder.
pub const DATA_DIR_ENV: &str = "DEKADOKU_DATA_DIR";

/// The two folders dekadoku keeps things in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dirs {
    /// Settings the user edits: `config.toml`, `themes/`.
    pub config_dir: PathBuf,
    /// Things the game writes: saves, the autosave, statistics, the puzzle pool.
    pub data_dir: PathBuf,
}

impl Dirs {
    /// The platform's folders for dekadoku (`directories::ProjectDirs`), each
    /// replaced by [`CONFIG_DIR_ENV`] / [`DATA_DIR_ENV`] when that is set and
    /// not empty.
    pub fn resolve() -> Result<Dirs, StoreError> {
        Dirs::resolve_with(|name| std::env::var_os(name))
    }

    /// [`Dirs::resolve`] with the environment given as a lookup, so the rule
    /// can be tested without touching the process environment.
    pub fn resolve_with(get: impl Fn(&str) -> Option<OsString>) -> Result<Dirs, StoreError> {
        let from_env = |name: &str| get(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let config = from_env(CONFIG_DIR_ENV);
        let data = from_env(DATA_DIR_ENV);
        match (config, data) {
            (Some(config_dir), Some(data_dir)) => Ok(Dirs {
                config_dir,
                data_dir,
            }),
            (config, data) => {
                let project =
                    directories::ProjectDirs::from("", "", "dekadoku").ok_or(StoreError::NoHome)?;
                Ok(Dirs {
                    config_dir: config.unwrap_or_else(|| project.config_dir().to_path_buf()),
                    data_dir: data.unwrap_or_else(|| project.data_dir().to_path_buf()),
                })
            }
        }
    }

    /// Folders at the given places (for tests and `--config-dir`-style options).
    pub fn at(config: impl Into<PathBuf>, data: impl Into<PathBuf>) -> Dirs {
        Dirs {
            config_dir: config.into(),
            data_dir: data.into(),
        }
    }

    /// `data_dir/serve`: `dekadoku serve`'s host key, players' database
    /// and puzzle pool.
    pub fn serve_dir(&self) -> PathBuf {
        self.data_dir.join("serve")
    }

    /// `config_dir/config.toml`.
    pub fn config_file(&self) -> PathBuf {
        self.config_dir.join("config.toml")
    }

    /// `config_dir/themes`: the user's own themes, one `*.toml` each.
    pub fn themes_dir(&self) -> PathBuf {
        self.config_dir.join("themes")
    }

    /// `data_dir/saves`: named saves.
    pub fn saves_dir(&self) -> PathBuf {
        self.data_dir.join("saves")
    }

    /// `data_dir/autosave.json`: the game in play.
    pub fn autosave_file(&self) -> PathBuf {
        self.data_dir.join("autosave.json")
    }

    /// The autosave of game slot `k`: `autosave.json` for the first, and
    /// `autosave-<k>.json` for games started while another dekadoku plays
    /// from the same data folder.
    pub fn autosave_slot(&self, k: usize) -> PathBuf {
        if k <= 1 {
            self.autosave_file()
        } else {
            self.data_dir.join(format!("autosave-{k}.json"))
        }
    }

    /// The lock a game holds on its autosave slot `k` while it runs.
    pub fn slot_lock(&self, k: usize) -> PathBuf {
        self.data_dir.join(if k <= 1 {
            "autosave.lock".to_string()
        } else {
            format!("autosave-{k}.lock")
        })
    }

    /// The lock held while the statistics are read, changed and written.
    pub fn stats_lock(&self) -> PathBuf {
        self.data_dir.join("stats.lock")
    }

    /// `data_dir/stats.json`: statistics.
    pub fn stats_file(&self) -> PathBuf {
        self.data_dir.join("stats.json")
    }

    /// `data_dir/pool`: pre-generated puzzles.
    pub fn pool_dir(&self) -> PathBuf {
        self.data_dir.join("pool")
    }

    /// Both folders, for messages ("config in …, data in …").
    pub fn describe(&self) -> String {
        format!(
            "config in {}, data in {}",
            self.config_dir.display(),
            self.data_dir.display()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> {
        let pairs: Vec<(String, OsString)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), OsString::from(v)))
            .collect();
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        }
    }

    #[test]
    fn both_overrides_win_without_asking_the_platform() {
        let d = Dirs::resolve_with(env(&[(CONFIG_DIR_ENV, "/c"), (DATA_DIR_ENV, "/d")])).unwrap();
        assert_eq!(d, Dirs::at("/c", "/d"));
        assert_eq!(d.config_file(), Path::new("/c/config.toml"));
        assert_eq!(d.themes_dir(), Path::new("/c/themes"));
        assert_eq!(d.saves_dir(), Path::new("/d/saves"));
        assert_eq!(d.autosave_file(), Path::new("/d/autosave.json"));
        assert_eq!(d.stats_file(), Path::new("/d/stats.json"));
        assert_eq!(d.pool_dir(), Path::new("/d/pool"));
    }

    #[test]
    fn each_override_moves_only_its_own_folder() {
        let Some(project) = directories::ProjectDirs::from("", "", "dekadoku") else {
            return; // no home on this machine: nothing to compare with
        };
        let d = Dirs::resolve_with(env(&[(CONFIG_DIR_ENV, "/c")])).unwrap();
        assert_eq!(d.config_dir, Path::new("/c"));
        assert_eq!(d.data_dir, project.data_dir());
        let d = Dirs::resolve_with(env(&[(DATA_DIR_ENV, "/d"), (CONFIG_DIR_ENV, "")])).unwrap();
        assert_eq!(d.config_dir, project.config_dir());
        assert_eq!(d.data_dir, Path::new("/d"));
    }

    #[test]
    fn resolving_creates_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().join("home");
        let c = base.join("c");
        let d = base.join("d");
        let dirs = Dirs::resolve_with(env(&[
            (CONFIG_DIR_ENV, c.to_str().unwrap()),
            (DATA_DIR_ENV, d.to_str().unwrap()),
        ]))
        .unwrap();
        let _ = (dirs.config_file(), dirs.saves_dir(), dirs.describe());
        assert!(!base.exists());
    }
}
