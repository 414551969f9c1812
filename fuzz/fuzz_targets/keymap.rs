//! The key map: `Key::parse` on every line of the input, and the lines of
//! the form `mode<TAB>key<TAB>action` merged over the defaults by
//! `Keymap::with_overrides`, as the `[keys.<mode>]` tables of config.toml are.
//! No panic; a parsed key's label reads back as the same key (arrows aside:
//! their labels are arrows), every good override is bound, and every bad one
//! is reported.
#![no_main]

use std::collections::BTreeMap;

use dekadoku::tui::action::Command;
use dekadoku::tui::keymap::{Key, KeyCodeOrd, KeyContext, Keymap};
use libfuzzer_sys::fuzz_target;

fn check_key(text: &str) {
    let Ok(key) = Key::parse(text) else {
        return;
    };
    let arrow = matches!(
        key.code,
        KeyCodeOrd::Up | KeyCodeOrd::Down | KeyCodeOrd::Left | KeyCodeOrd::Right
    );
    if !arrow {
        let label = key.label();
        assert_eq!(Key::parse(&label), Ok(key), "{text:?} → {label:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check_key(text);
    let mut user: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for line in text.split('\n') {
        check_key(line);
        let mut parts = line.splitn(3, '\t');
        if let (Some(mode), Some(key), Some(action)) = (parts.next(), parts.next(), parts.next()) {
            user.entry(mode.to_string())
                .or_default()
                .insert(key.to_string(), action.to_string());
        }
    }
    let (keymap, issues) = Keymap::with_overrides(&user);
    for mode in [KeyContext::Board, KeyContext::Menu] {
        let _ = keymap.help(mode);
    }
    // What each key ends up bound to, later entries winning as in the map.
    let mut bad = 0;
    let mut want = BTreeMap::new();
    for (mode_name, table) in &user {
        let mode = match mode_name.as_str() {
            "board" => KeyContext::Board,
            "menu" => KeyContext::Menu,
            _ => {
                bad += 1;
                continue;
            }
        };
        for (key_text, action) in table {
            match (Key::parse(key_text), Command::from_name(action)) {
                (Ok(key), Some(cmd)) => {
                    want.insert((mode, key), Some(cmd));
                }
                (Ok(key), None) if action == "none" => {
                    want.insert((mode, key), None);
                }
                _ => bad += 1,
            }
        }
    }
    assert_eq!(issues.len(), bad, "{issues:?}");
    for ((mode, key), cmd) in want {
        let label = key.label();
        match cmd {
            Some(cmd) => assert!(keymap.keys_for(mode, cmd).contains(&label), "{label}"),
            None => {
                for (_, keys) in keymap.help(mode) {
                    assert!(!keys.contains(&label) || !labels_unique(&key), "{label}");
                }
            }
        }
    }
});

/// Whether no other key has this key's label (arrows share theirs with the
/// arrow characters), so a label stands for the key.
fn labels_unique(key: &Key) -> bool {
    !matches!(
        key.code,
        KeyCodeOrd::Up
            | KeyCodeOrd::Down
            | KeyCodeOrd::Left
            | KeyCodeOrd::Right
            | KeyCodeOrd::Char('↑' | '↓' | '←' | '→')
    )
}
