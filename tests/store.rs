#![cfg(feature = "store")]
//! The store against real files in scratch folders: config issues, themes
//! from a user folder, saves kept aside, statistics.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use dekadoku::engine::Level;
use dekadoku::store::{
    BoardSize, Color, ColorDepth, Config, ConfigIssue, ConflictMode, Dirs, LoadError, MetaError,
    Named16, Role, SaveMeta, Saves, Stats, StatsWarning, StoreError, Themes, read_save,
    sanitize_name, write_atomic, write_save,
};
use serde::{Deserialize, Serialize};

/// A scratch folder under the system's temp folder, removed when dropped.
struct Scratch(tempfile::TempDir);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let dir = tempfile::Builder::new()
            .prefix(&format!("dekadoku-store-{tag}-"))
            .tempdir()
            .unwrap();
        Scratch(dir)
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.0.path().join(rel)
    }

    fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let p = self.path(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(&p, bytes).unwrap();
        p
    }

    fn names(&self, rel: &str) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(self.path(rel))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }
}

fn load_config(text: &str) -> (Config, Vec<ConfigIssue>, PathBuf) {
    let s = Scratch::new("cfg");
    let p = s.write("config.toml", text);
    let (c, issues) = Config::load(&p);
    (c, issues, p)
}

/// The one issue, checked to name the file.
fn only_issue(issues: &[ConfigIssue], file: &Path) -> ConfigIssue {
    assert_eq!(issues.len(), 1, "{issues:#?}");
    assert_eq!(issues[0].file, file);
    assert!(
        issues[0]
            .to_string()
            .starts_with(&file.display().to_string())
    );
    issues[0].clone()
}

// ---- config ----------------------------------------------------------

#[test]
fn missing_config_is_the_default_without_issues_and_creates_nothing() {
    let s = Scratch::new("nocfg");
    let dirs = Dirs::at(s.path("c"), s.path("d"));
    let (c, issues) = Config::load(&dirs.config_file());
    assert_eq!(c, Config::default());
    assert!(issues.is_empty());
    let (themes, issues) = Themes::load(&dirs.themes_dir());
    assert!(issues.is_empty());
    assert_eq!(themes.names().len(), 4);
    let (stats, warning) = Stats::load(&dirs.stats_file());
    assert_eq!(stats, Stats::default());
    assert!(warning.is_none(), "{warning:?}");
    assert!(Saves::new(dirs.saves_dir()).list().is_empty());
    assert!(!s.path("c").exists() && !s.path("d").exists());
}

#[test]
fn partial_config_keeps_the_other_defaults() {
    let (c, issues, _) = load_config(
        "theme = \"light\"\n[play]\nwrap = true\ndefault_size = \"16x16\"\n\
         default_level = \"Hard\"\nconflicts = \"cells\"\n\
         [keys.board]\n\"ctrl+z\" = \"undo\"\nu = \"none\"\n[keys.menu]\nq = \"quit\"\n",
    );
    assert!(issues.is_empty(), "{issues:#?}");
    assert_eq!(c.theme, "light");
    assert!(c.play.wrap);
    assert_eq!(c.play.default_size, BoardSize::new(16).unwrap());
    assert_eq!(c.play.default_level, Level::Hard);
    assert_eq!(c.play.conflicts, ConflictMode::Cells);
    let d = Config::default().play;
    assert_eq!(c.play.auto_remove_notes, d.auto_remove_notes);
    assert_eq!(c.play.mouse, d.mouse);
    assert_eq!(c.play.autosave, d.autosave);
    let board: BTreeMap<String, String> = [("ctrl+z", "undo"), ("u", "none")]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    assert_eq!(c.keys["board"], board);
    assert_eq!(c.keys["menu"]["q"], "quit");
}

#[test]
fn each_bad_value_names_file_and_key_and_falls_back() {
    // (file body, dotted key, text the message must quote, expected words)
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "[play]\nwrap = \"yes\"",
            "play.wrap",
            "\"yes\"",
            "true or false",
        ),
        ("[play]\nmouse = 1", "play.mouse", "1", "true or false"),
        (
            "[play]\nautosave = [true]",
            "play.autosave",
            "an array",
            "true or false",
        ),
        (
            "[play]\nconflicts = \"all\"",
            "play.conflicts",
            "\"all\"",
            "\"unit\"",
        ),
        (
            "[play]\nconflicts = false",
            "play.conflicts",
            "false",
            "\"cells\"",
        ),
        (
            "[play]\ndefault_size = \"7x7\"",
            "play.default_size",
            "\"7x7\"",
            "9x9",
        ),
        (
            "[play]\ndefault_size = \"9x8\"",
            "play.default_size",
            "\"9x8\"",
            "9x9",
        ),
        (
            "[play]\ndefault_level = \"brutal\"",
            "play.default_level",
            "\"brutal\"",
            "expert",
        ),
        (
            "[play]\ndefault_level = 3",
            "play.default_level",
            "3",
            "medium",
        ),
        ("theme = 7", "theme", "7", "theme name"),
        ("theme = \"\"", "theme", "\"\"", "theme name"),
        ("play = true", "play", "true", "table"),
        ("keys = \"vim\"", "keys", "\"vim\"", "table"),
        ("[keys]\nboard = 1", "keys.board", "1", "table"),
        (
            "[keys.board]\n\"ctrl+z\" = 5",
            "keys.board.\"ctrl+z\"",
            "5",
            "action",
        ),
        (
            "[play]\nwrap = 1979-05-27",
            "play.wrap",
            "1979-05-27",
            "true or false",
        ),
    ];
    for (body, key, quoted, expected) in cases {
        let text = if body.starts_with("theme") {
            format!("{body}\n")
        } else {
            format!("theme = \"light\"\n{body}\n")
        };
        let (c, issues, file) = load_config(&text);
        assert_eq!(issues.len(), 1, "{body}: {issues:#?}");
        let issue = only_issue(&issues, &file);
        assert_eq!(issue.key.as_deref(), Some(*key), "{body}");
        assert!(issue.line.is_some() && issue.col.is_some(), "{issue}");
        let shown = issue.to_string();
        assert!(shown.contains(&format!(": {key}: ")), "{shown}");
        assert!(shown.contains(&format!("found {quoted}")), "{shown}");
        assert!(shown.contains(expected), "{shown}");
        assert!(shown.contains("default"), "{shown}");
        if !body.starts_with("theme") {
            assert_eq!(c.theme, "light", "the other keys still apply: {body}");
        }
        // The bad key keeps its default.
        let d = Config::default();
        match *key {
            "play.wrap" => assert_eq!(c.play.wrap, d.play.wrap),
            "play.conflicts" => assert_eq!(c.play.conflicts, d.play.conflicts),
            "play.default_size" => assert_eq!(c.play.default_size, d.play.default_size),
            "play.default_level" => assert_eq!(c.play.default_level, d.play.default_level),
            "theme" => assert_eq!(c.theme, d.theme),
            "play" => assert_eq!(c.play, d.play),
            _ => assert!(c.keys.is_empty(), "{body}"),
        }
    }
}

#[test]
fn other_keys_still_apply_around_bad_ones() {
    let (c, issues, file) = load_config(
        "theme = \"high-contrast\"\n\
         [play]\n\
         wrap = \"yes\"\n\
         mouse = false\n\
         conflicts = \"everything\"\n\
         default_level = \"expert\"\n\
         [keys.board]\n\
         x = 1\n\
         y = \"undo\"\n",
    );
    assert_eq!(issues.len(), 3, "{issues:#?}");
    assert!(issues.iter().all(|i| i.file == file));
    let keys: Vec<&str> = issues.iter().filter_map(|i| i.key.as_deref()).collect();
    assert_eq!(keys, ["play.wrap", "play.conflicts", "keys.board.x"]);
    assert_eq!((issues[0].line, issues[0].col), (Some(3), Some(8)));
    assert_eq!(c.theme, "high-contrast");
    assert!(!c.play.wrap);
    assert!(!c.play.mouse);
    assert_eq!(c.play.conflicts, ConflictMode::Unit);
    assert_eq!(c.play.default_level, Level::Expert);
    assert_eq!(c.keys["board"].len(), 1);
    assert_eq!(c.keys["board"]["y"], "undo");
}

#[test]
fn unknown_keys_are_reported_with_a_suggestion() {
    let (c, issues, file) = load_config(
        "colour = \"red\"\n[play]\nwrapp = true\nmouse = false\n[sound]\nbeep = true\n",
    );
    assert_eq!(issues.len(), 3, "{issues:#?}");
    assert!(issues.iter().all(|i| i.file == file));
    let keys: Vec<&str> = issues.iter().filter_map(|i| i.key.as_deref()).collect();
    assert_eq!(keys, ["colour", "play.wrapp", "sound"]);
    assert!(issues.iter().all(|i| i.message.contains("unknown key")));
    assert!(
        issues[1].message.contains("did you mean play.wrap?"),
        "{}",
        issues[1]
    );
    assert_eq!(issues[1].line, Some(3));
    assert!(!c.play.mouse, "known keys beside unknown ones apply");
    assert!(!c.play.wrap);
}

#[test]
fn bad_toml_syntax_gives_line_and_column_and_all_defaults() {
    let (c, issues, file) = load_config("theme = \"light\"\n[play]\nwrap = tru\n");
    let issue = only_issue(&issues, &file);
    assert_eq!(issue.key, None);
    assert_eq!(issue.line, Some(3), "{issue}");
    assert!(issue.col.is_some());
    assert!(issue.message.contains("TOML"), "{issue}");
    assert!(issue.message.contains("defaults"), "{issue}");
    assert_eq!(c, Config::default());

    let (_, issues, file) = load_config("[play]\nwrap = true\nwrap = false\n");
    let issue = only_issue(&issues, &file);
    assert_eq!(issue.line, Some(3), "duplicate key: {issue}");

    let (_, issues, file) = load_config("[play\n");
    assert_eq!(only_issue(&issues, &file).line, Some(1));
}

#[test]
fn huge_config_is_refused() {
    let mut text = String::from("theme = \"light\"\n");
    while text.len() <= 1024 * 1024 {
        text.push_str("# padding padding padding padding padding padding padding\n");
    }
    let (c, issues, file) = load_config(&text);
    let issue = only_issue(&issues, &file);
    assert!(issue.message.contains("larger than"), "{issue}");
    assert_eq!(c, Config::default());
}

#[test]
fn binary_garbage_never_panics() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for round in 0..64 {
        let len = 1 + round * 37;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                (seed >> 24) as u8
            })
            .collect();
        let s = Scratch::new("garbage");
        let p = s.write("config.toml", &bytes);
        let (c, issues) = Config::load(&p);
        assert_eq!(c, Config::default());
        assert_eq!(issues.len(), 1, "{issues:?}");
        // And as text (lossily), through the parser itself.
        let text = String::from_utf8_lossy(&bytes);
        let _ = Config::parse(&text, &p);
    }
    let (_, issues, file) = load_config("theme = \"light\"\n\u{0}\u{1}\u{2}");
    assert_eq!(only_issue(&issues, &file).line, Some(2));
    let s = Scratch::new("utf8");
    let p = s.write("config.toml", b"theme = \"li\xffght\"\n");
    let (_, issues) = Config::load(&p);
    let issue = only_issue(&issues, &p);
    assert!(issue.message.contains("UTF-8"), "{issue}");
    assert_eq!((issue.line, issue.col), (Some(1), Some(12)));
}

#[test]
fn unreadable_config_path_is_an_issue() {
    let s = Scratch::new("cfgdir");
    fs::create_dir_all(s.path("config.toml")).unwrap();
    let (c, issues) = Config::load(&s.path("config.toml"));
    assert_eq!(c, Config::default());
    assert_eq!(issues.len(), 1);
}

#[test]
fn default_config_is_printed_not_written() {
    let text = Config::default_toml();
    assert!(text.contains("theme = \"auto\""));
    assert!(text.contains("[keys.board]"));
    let (c, issues) = Config::parse(text, Path::new("default.toml"));
    assert!(issues.is_empty());
    assert_eq!(c, Config::default());
}

// ---- themes ----------------------------------------------------------

#[test]
fn user_theme_overrides_a_bundled_one_and_adds_its_own() {
    let s = Scratch::new("themes");
    s.write(
        "themes/my-light.toml",
        "name = \"light\"\ndescription = \"mine\"\n[roles.given]\nfg = \"#112233\"\nbold = true\n",
    );
    s.write("themes/ocean.toml", "[roles.background]\nbg = 17\n");
    s.write("themes/notes.txt", "not a theme");
    let (themes, issues) = Themes::load(&s.path("themes"));
    assert!(issues.is_empty(), "{issues:#?}");
    assert_eq!(
        themes.names(),
        ["default", "light", "high-contrast", "basic16", "ocean"]
    );
    let light = themes.pick("light", ColorDepth::TrueColor);
    assert_eq!(light.description, "mine");
    assert_eq!(
        light.source.as_deref(),
        Some(s.path("themes/my-light.toml").as_path())
    );
    assert_eq!(
        light.role(Role::Given).fg,
        Some(Color::Rgb(0x11, 0x22, 0x33))
    );
    assert_eq!(
        light.style(Role::Given, ColorDepth::Ansi256).fg,
        Some(Color::Indexed(235)),
        "nearer the gray ramp than the cube"
    );
    // Roles it leaves out come from the bundled default, not the bundled light.
    let default = themes.get("default").unwrap();
    assert_eq!(light.role(Role::Cursor), default.role(Role::Cursor));
    let ocean = themes.get("ocean").unwrap();
    assert_eq!(ocean.role(Role::Background).bg, Some(Color::Indexed(17)));
}

#[test]
fn broken_user_theme_is_reported_and_the_bundled_one_stays() {
    let s = Scratch::new("badtheme");
    let bad = s.write(
        "themes/light.toml",
        "name = \"light\"\n[roles.given]\nfg = \"red\"\n[roles.sparkle]\nfg = \"red\"\n",
    );
    let worse = s.write("themes/zz.toml", "name = \"zz\"\n[roles.given\n");
    let garbage = s.write("themes/bin.toml", [0xff, 0xfe, 0x00, 0x41]);
    let (themes, issues) = Themes::load(&s.path("themes"));
    assert_eq!(issues.len(), 3, "{issues:#?}");
    let by_file = |f: &Path| issues.iter().find(|i| i.file == f).unwrap();
    let i = by_file(&bad);
    assert_eq!(i.line, Some(4), "{i}");
    assert!(i.to_string().contains("sparkle"), "{i}");
    assert!(i.message.contains("skipped"), "{i}");
    assert_eq!(by_file(&worse).line, Some(2));
    assert!(by_file(&garbage).message.contains("UTF-8"));
    let light = themes.get("light").unwrap();
    assert!(light.is_bundled());
    assert_eq!(themes.names().len(), 4);
}

#[test]
fn basic16_survives_every_depth_and_others_degrade_to_named() {
    let themes = Themes::bundled();
    for t in themes.iter() {
        for role in Role::ALL {
            let st = t.style(role, ColorDepth::Basic16);
            for c in [st.fg, st.bg].into_iter().flatten() {
                assert!(
                    matches!(c, Color::Named(_) | Color::Reset),
                    "{} {role:?}",
                    t.name
                );
            }
        }
    }
    let basic = themes.pick("auto", ColorDepth::Basic16);
    assert_eq!(
        basic.role(Role::Given).fg,
        Some(Color::Named(Named16::White))
    );
}

// ---- saves -----------------------------------------------------------

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Game {
    cells: Vec<u8>,
    notes: BTreeMap<u32, Vec<u8>>,
}

fn game() -> Game {
    Game {
        cells: vec![0, 3, 0, 9],
        notes: [(0, vec![1, 2]), (2, vec![4])].into_iter().collect(),
    }
}

fn meta(saved_at: u64) -> SaveMeta {
    SaveMeta {
        size: "9x9".into(),
        level: Some("medium".into()),
        filled: 30,
        cells: 81,
        elapsed_secs: 125,
        saved_at,
        solved: false,
        title: Some("Tuesday".into()),
    }
}

#[test]
fn save_and_load_round_trip() {
    let s = Scratch::new("roundtrip");
    let p = s.path("data/autosave.json");
    write_save(&p, "game", 1, &meta(100), &game()).unwrap();
    let (m, g): (SaveMeta, Game) = read_save(&p, "game", 1).unwrap();
    assert_eq!(m, meta(100));
    assert_eq!(g, game());
    // An older version is read by a newer reader.
    let (_, g): (SaveMeta, Game) = read_save(&p, "game", 3).unwrap();
    assert_eq!(g, game());
    let text = fs::read_to_string(&p).unwrap();
    assert!(
        text.starts_with("{\"format\":\"dekadoku\",\"kind\":\"game\",\"version\":1"),
        "{text}"
    );
    assert_eq!(s.names("data"), ["autosave.json"]);
}

#[test]
fn missing_save_is_not_found() {
    let s = Scratch::new("missing");
    let e = read_save::<Game>(&s.path("nope.json"), "game", 1).unwrap_err();
    assert!(matches!(e, LoadError::NotFound { .. }), "{e}");
}

#[test]
fn corrupt_save_is_kept_aside_and_the_name_freed() {
    let s = Scratch::new("corrupt");
    let p = s.write(
        "autosave.json",
        "{\"format\":\"dekadoku\",\"kind\":\"game\",\"vers",
    );
    let e = read_save::<Game>(&p, "game", 1).unwrap_err();
    let LoadError::Corrupt {
        source,
        kept_as: Some(kept),
        ..
    } = &e
    else {
        panic!("{e:?}");
    };
    assert_eq!(source.line(), 1, "{source}");
    assert!(e.to_string().contains(&kept.display().to_string()), "{e}");
    assert!(!p.exists(), "the original name is free");
    assert!(kept.exists());
    assert!(
        kept.file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("autosave.json.bad-")
    );
    // A new save goes to the freed name; the kept file is untouched.
    write_save(&p, "game", 1, &meta(5), &game()).unwrap();
    assert!(read_save::<Game>(&p, "game", 1).is_ok());
    assert_eq!(s.names("").len(), 2);

    // Valid JSON in our envelope whose payload does not fit is corrupt too.
    let p = s.write(
        "b.json",
        r#"{"format":"dekadoku","kind":"game","version":1,"meta":{},"payload":{"cells":"x"}}"#,
    );
    let e = read_save::<Game>(&p, "game", 1).unwrap_err();
    assert!(
        matches!(
            e,
            LoadError::Corrupt {
                kept_as: Some(_),
                ..
            }
        ),
        "{e}"
    );
    assert!(!p.exists());
}

#[test]
fn foreign_files_are_kept_aside() {
    let s = Scratch::new("foreign");
    for (name, text, format, kind) in [
        ("a.json", r#"{"hello":"world"}"#, "", ""),
        (
            "b.json",
            r#"{"format":"other","kind":"game","version":1,"meta":{},"payload":{}}"#,
            "other",
            "game",
        ),
        (
            "c.json",
            r#"{"format":"dekadoku","kind":"stats","version":1,"meta":{},"payload":{"cells":[],"notes":{}}}"#,
            "dekadoku",
            "stats",
        ),
    ] {
        let p = s.write(name, text);
        let e = read_save::<Game>(&p, "game", 1).unwrap_err();
        let LoadError::Foreign {
            found_format,
            found_kind,
            kept_as: Some(kept),
            ..
        } = &e
        else {
            panic!("{e:?}");
        };
        assert_eq!((found_format.as_str(), found_kind.as_str()), (format, kind));
        assert!(e.to_string().contains(&kept.display().to_string()), "{e}");
        assert!(!p.exists());
    }
}

#[test]
fn too_new_is_moved_aside_whole() {
    let s = Scratch::new("toonew");
    let p = s.path("autosave.json");
    write_save(&p, "game", 7, &meta(1), &game()).unwrap();
    let before = fs::read(&p).unwrap();
    let e = read_save::<Game>(&p, "game", 2).unwrap_err();
    let LoadError::TooNew {
        version: 7,
        supported: 2,
        kept_as: Some(kept),
        ..
    } = &e
    else {
        panic!("{e:?}");
    };
    assert!(e.to_string().contains(&kept.display().to_string()), "{e}");
    assert!(e.to_string().contains("autosave.json"), "{e}");
    assert!(!p.exists());
    let name = kept.file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with("autosave.json.newer-v7-"), "{name}");
    assert_eq!(fs::read(kept).unwrap(), before, "moved whole");
    // Even when the newer payload is something we cannot read.
    let p = s.write(
        "n.json",
        r#"{"format":"dekadoku","kind":"game","version":9,"meta":{},"payload":[1,2]}"#,
    );
    let e = read_save::<Game>(&p, "game", 2).unwrap_err();
    assert!(
        matches!(
            e,
            LoadError::TooNew {
                version: 9,
                kept_as: Some(_),
                ..
            }
        ),
        "{e:?}"
    );
    assert!(!p.exists());
}

#[test]
fn oversized_save_is_refused_and_left() {
    let s = Scratch::new("huge");
    let p = s.path("big.json");
    let f = fs::File::create(&p).unwrap();
    f.set_len(64 * 1024 * 1024 + 1).unwrap();
    let e = read_save::<Game>(&p, "game", 1).unwrap_err();
    assert!(matches!(e, LoadError::TooLarge { .. }), "{e:?}");
    assert!(p.exists());
}

#[test]
fn named_saves_list_newest_first_with_broken_ones() {
    let s = Scratch::new("list");
    let saves = Saves::new(s.path("saves"));
    assert!(saves.list().is_empty());
    let a = saves
        .save("Monday morning", "game", 1, &meta(100), &game())
        .unwrap();
    assert_eq!(a, s.path("saves/Monday-morning.json"));
    saves
        .save("tuesday", "game", 1, &meta(300), &game())
        .unwrap();
    saves
        .save("../../escape", "game", 1, &meta(200), &game())
        .unwrap();
    s.write("saves/broken.json", "{ not json");
    s.write("saves/notes.txt", "ignored");
    let list = saves.list();
    let names: Vec<&str> = list.iter().map(|e| e.name.as_str()).collect();
    // The broken file sorts by its modification time, which is now.
    assert_eq!(names, ["broken", "tuesday", "escape", "Monday-morning"]);
    let why = list[0].meta.as_ref().unwrap_err();
    assert!(matches!(why, MetaError::Damaged(_)), "{why:?}");
    assert!(why.to_string().contains("damaged"), "{why}");
    assert_eq!(list[1].meta.as_ref().unwrap().saved_at, 300);
    assert!(
        s.path("saves/broken.json").exists(),
        "listing moves nothing"
    );
    let r = saves.load::<Game>("Monday morning", "game", 1).unwrap();
    assert!(r.from_backup.is_none());
    let (m, g): (SaveMeta, Game) = (r.meta, r.payload);
    assert_eq!((m.saved_at, g), (100, game()));
    saves.delete("tuesday").unwrap();
    saves.delete("tuesday").unwrap();
    assert_eq!(saves.list().len(), 3);
    assert!(matches!(
        saves.load::<Game>("  ", "game", 1),
        Err(LoadError::BadName(StoreError::BadName { .. }))
    ));
    assert!(saves.save("", "game", 1, &meta(1), &game()).is_err());
    assert_eq!(sanitize_name("a/b").unwrap(), "a-b");
}

#[test]
fn atomic_writes_leave_no_temp_files() {
    let s = Scratch::new("atomic");
    let p = s.path("x/y/stats.json");
    for i in 0..20 {
        write_atomic(&p, format!("{i}").as_bytes()).unwrap();
    }
    assert_eq!(fs::read_to_string(&p).unwrap(), "19");
    assert_eq!(s.names("x/y"), ["stats.json"]);
}

// ---- stats -----------------------------------------------------------

#[test]
fn stats_round_trip() {
    let s = Scratch::new("stats");
    let dirs = Dirs::at(s.path("c"), s.path("d"));
    let (mut st, w) = Stats::load(&dirs.stats_file());
    assert!(w.is_none());
    let k = Stats::key("9x9", "hard");
    st.record_start(&k);
    assert!(st.record_win(&k, 500, 0, false, 1_700_000_000));
    assert!(!st.record_win(&k, 600, 0, false, 1_700_000_100));
    st.save(&dirs.stats_file()).unwrap();
    let (back, w) = Stats::load(&dirs.stats_file());
    assert!(w.is_none());
    assert_eq!(back, st);
    assert_eq!(back.get(&k).best_secs, Some(500));
    assert_eq!(back.get(&k).best_at, Some(1_700_000_000));
}

#[test]
fn corrupt_stats_are_kept_aside_with_a_warning() {
    let s = Scratch::new("badstats");
    let p = s.write(
        "stats.json",
        "{\"version\": 1, \"records\": {\"9x9/easy\": ",
    );
    let (st, w) = Stats::load(&p);
    assert_eq!(st, Stats::default());
    let w = w.unwrap();
    assert!(
        matches!(w, StatsWarning::Damaged { kept: Ok(_), .. }),
        "{w:?}"
    );
    let w = w.to_string();
    assert!(w.contains("moved to"), "{w}");
    assert!(!p.exists());
    let kept = s.names("");
    assert_eq!(kept.len(), 1);
    assert!(kept[0].starts_with("stats.json.bad-"));
    assert!(w.contains(&kept[0]), "{w}");
}

#[test]
fn newer_stats_are_read_but_not_overwritten() {
    let s = Scratch::new("newstats");
    let p = s.write(
        "stats.json",
        r#"{"version": 3, "records": {"9x9/easy": {"solved": 4, "rank": 3}}, "badges": []}"#,
    );
    let (mut st, w) = Stats::load(&p);
    assert!(matches!(w, Some(StatsWarning::Newer { version: 3, .. })));
    assert!(w.unwrap().to_string().contains("newer"));
    assert_eq!(st.get("9x9/easy").solved, 4);
    st.record_start("9x9/easy");
    assert!(matches!(
        st.save(&p),
        Err(StoreError::Newer { version: 3, .. })
    ));
    assert!(fs::read_to_string(&p).unwrap().contains("badges"));
}
