//! The config loader (`config.toml`): `Config::parse` on any text, the key
//! overrides it carries fed to the key map, and `save_settings` over the
//! same file: the settings it writes read back as they were.
#![no_main]

use std::fs;
use std::path::Path;

use dekadoku::store::{Config, save_settings};
use dekadoku::tui::keymap::Keymap;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (config, issues) = Config::parse(text, Path::new("config.toml"));
    for issue in &issues {
        assert!(issue.to_string().starts_with("config.toml"), "{issue}");
    }
    let (_keymap, _key_issues) = Keymap::with_overrides(&config.keys);

    // Not valid TOML: the file is left alone and nothing is compared.
    if issues.iter().any(|i| i.key.is_none()) {
        return;
    }
    let dir = dekadoku_fuzz::scratch("config");
    let path = dir.join("config.toml");
    fs::write(&path, text).expect("scratch file");
    if save_settings(&path, &config.theme, &config.play).is_ok() {
        let (again, _) = Config::load(&path);
        assert_eq!(again.theme, config.theme, "theme after save_settings");
        assert_eq!(again.play, config.play, "[play] after save_settings");
        assert_eq!(again.keys, config.keys, "save_settings touched [keys]");
    }
});
