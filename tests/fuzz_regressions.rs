#![cfg(feature = "tui")]
//! The fuzz targets' entry points (see `fuzz/`) as plain tests, so that what
//! fuzzing covers stays covered where cargo-fuzz is not installed: every
//! committed seed under `fuzz/seeds/<target>/` goes through the same calls,
//! and must give a result or an error, never a panic. Inputs that once
//! crashed a target are added here, inline, with the fix they check.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use dekadoku::engine::Puzzle;
use dekadoku::engine::format::{self, Format, FormatError, PuzzleReader};
use dekadoku::game::{GAME_SAVE_VERSION, Game, GameSave};
use dekadoku::store::{Config, Stats, Theme, read_save};
use dekadoku::tui::action::GAME_KIND;
use dekadoku::tui::keymap::{Key, Keymap};

/// The seeds of one fuzz target: file name and bytes, sorted by name.
fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/seeds")
        .join(target);
    let mut out: Vec<(String, Vec<u8>)> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, fs::read(&path).unwrap())
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no seeds in {}", dir.display());
    out
}

/// Every item of `data`, read as the format targets read it.
fn read(data: &[u8], format: Option<Format>) -> Vec<Result<Puzzle, FormatError>> {
    PuzzleReader::new(data, "fuzz", format).collect()
}

/// `read(write(p)) == p` in each format that holds `p`'s shape.
fn round_trips(p: &Puzzle) {
    for f in Format::ALL.into_iter().filter(|f| f.round_trips(p.shape())) {
        let text = format::to_string(p, f);
        assert_eq!(read(text.as_bytes(), Some(f)), vec![Ok(p.clone())], "{f}");
        assert_eq!(format::parse_one(&text, "rt").as_ref(), Ok(p), "{f}");
    }
}

/// A scratch folder under the temp folder, removed when dropped.
fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("dekadoku-fuzz-regressions-")
        .tempdir()
        .unwrap()
}

/// What the `save` target does with its input, minus the round trip:
/// the game it resumes, or why not.
fn load_save(data: &[u8]) -> Result<Game, String> {
    let dir = scratch();
    let path = dir.path().join("autosave.json");
    fs::write(&path, data).unwrap();
    let stats = dir.path().join("stats.json");
    fs::write(&stats, data).unwrap();
    let _ = Stats::load(&stats);
    let (_, save) =
        read_save::<GameSave>(&path, GAME_KIND, GAME_SAVE_VERSION).map_err(|e| e.to_string())?;
    Game::from_save(&save).map_err(|e| e.to_string())
}

#[test]
fn puzzle_seeds_read_and_round_trip() {
    for f in Format::ALL {
        for (name, data) in seeds(&format!("format_{}", f.name())) {
            for p in read(&data, Some(f)).into_iter().flatten() {
                round_trips(&p);
            }
            // Every seed also goes through detection and the other formats.
            let _ = read(&data, None);
            for other in Format::ALL {
                let _ = read(&data, Some(other));
            }
            // The written ones (named after their size) read cleanly.
            if name.starts_with(|c: char| c.is_ascii_digit()) || name == "two.txt" {
                assert!(read(&data, Some(f)).iter().all(Result::is_ok), "{f}/{name}");
            }
        }
    }
    for (name, data) in seeds("format_detect") {
        let items = read(&data, None);
        assert!(!items.is_empty(), "{name}");
        assert!(items.iter().all(Result::is_ok), "{name}: {items:?}");
    }
}

#[test]
fn save_seeds_load_or_fail_cleanly() {
    for (name, data) in seeds("save") {
        let loaded = load_save(&data);
        if name.starts_with("game-") {
            let game = loaded.unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(
                Game::from_save(&game.to_save()).unwrap().to_save(),
                game.to_save()
            );
        } else if name != "stats.json" {
            assert!(loaded.is_err(), "{name}");
        }
    }
}

#[test]
fn config_seeds_parse_and_feed_the_keymap() {
    for (name, data) in seeds("config") {
        let text = String::from_utf8(data).unwrap();
        let (config, issues) = Config::parse(&text, Path::new("config.toml"));
        let (_, key_issues) = Keymap::with_overrides(&config.keys);
        if name == "default.toml" {
            assert!(issues.is_empty() && key_issues.is_empty(), "{issues:?}");
            assert_eq!(config, Config::default());
        }
    }
}

#[test]
fn theme_seeds_parse() {
    for (name, data) in seeds("theme") {
        let text = String::from_utf8(data).unwrap();
        let parsed = Theme::parse(&text, Path::new(&name));
        assert_eq!(parsed.is_err(), name == "unknown-role.toml", "{name}");
    }
}

#[test]
fn keymap_seeds_parse() {
    for (name, data) in seeds("keymap") {
        let text = String::from_utf8(data).unwrap();
        let mut user: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        for line in text.split('\n') {
            let _ = Key::parse(line);
            let parts: Vec<&str> = line.splitn(3, '\t').collect();
            if let [mode, key, action] = parts[..] {
                user.entry(mode.to_string())
                    .or_default()
                    .insert(key.to_string(), action.to_string());
            }
        }
        let (_, issues) = Keymap::with_overrides(&user);
        if name == "swap.txt" {
            assert!(issues.is_empty(), "{issues:?}");
        }
    }
}

/// The `serve_input` seeds through the server's input path: no panic, the
/// decoder within its caps (`feed_chunks` checks), and the import seeds
/// get where they aim: the puzzle pasted or typed is read and taken (its
/// solve is a job, which this path without a worker leaves waiting).
#[cfg(feature = "serve")]
#[test]
fn serve_input_seeds_never_break_the_game() {
    for (name, data) in seeds("serve_input") {
        let shown = dekadoku::serve::session::feed_chunks(&data);
        if name.starts_with("import-") {
            assert!(
                shown.contains("solving the imported puzzle"),
                "{name}: the puzzle was not taken:\n{shown}"
            );
        } else {
            assert!(!shown.is_empty(), "{name}: nothing drawn");
        }
    }
}
