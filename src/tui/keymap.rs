//! Key bindings as data: the shipped defaults, merged with the user's
//! `[keys.<mode>]` tables, and the reverse map the help overlay and the
//! status hints are generated from (so they cannot disagree with the keys).

use std::collections::BTreeMap;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use strum::IntoEnumIterator;

use super::action::Command;

/// Where a key is pressed: on the board, or in a menu / list / dialog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyContext {
    /// Playing.
    Board,
    /// Menus, lists and dialogs.
    Menu,
}

impl KeyContext {
    /// The name in config files.
    pub fn name(self) -> &'static str {
        match self {
            KeyContext::Board => "board",
            KeyContext::Menu => "menu",
        }
    }

    fn from_name(s: &str) -> Option<KeyContext> {
        match s {
            "board" => Some(KeyContext::Board),
            "menu" => Some(KeyContext::Menu),
            _ => None,
        }
    }
}

/// A key with its modifiers, normalised (shift is folded into characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    /// The key.
    pub code: KeyCodeOrd,
    /// Ctrl and Alt.
    pub ctrl: bool,
    /// Alt.
    pub alt: bool,
}

/// The key codes bindings can name (an ordered copy of crossterm's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyCodeOrd {
    /// A character (with shift applied).
    Char(char),
    /// A function key.
    F(u8),
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Enter.
    Enter,
    /// Escape.
    Esc,
    /// Backspace.
    Backspace,
    /// Delete.
    Delete,
    /// Tab.
    Tab,
    /// Home.
    Home,
    /// End.
    End,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
}

impl Key {
    /// The key of a terminal event (None for keys bindings cannot name).
    pub fn from_event(e: &KeyEvent) -> Option<Key> {
        let code = match e.code {
            KeyCode::Char(c) => KeyCodeOrd::Char(c),
            KeyCode::F(k) => KeyCodeOrd::F(k),
            KeyCode::Up => KeyCodeOrd::Up,
            KeyCode::Down => KeyCodeOrd::Down,
            KeyCode::Left => KeyCodeOrd::Left,
            KeyCode::Right => KeyCodeOrd::Right,
            KeyCode::Enter => KeyCodeOrd::Enter,
            KeyCode::Esc => KeyCodeOrd::Esc,
            KeyCode::Backspace => KeyCodeOrd::Backspace,
            KeyCode::Delete => KeyCodeOrd::Delete,
            KeyCode::Tab => KeyCodeOrd::Tab,
            KeyCode::Home => KeyCodeOrd::Home,
            KeyCode::End => KeyCodeOrd::End,
            KeyCode::PageUp => KeyCodeOrd::PageUp,
            KeyCode::PageDown => KeyCodeOrd::PageDown,
            _ => return None,
        };
        Some(Key {
            code,
            ctrl: e.modifiers.contains(KeyModifiers::CONTROL),
            alt: e.modifiers.contains(KeyModifiers::ALT),
        })
    }

    /// Parses `"ctrl+z"`, `"U"`, `"up"`, `"f1"`, `"space"`, `"?"` ….
    pub fn parse(text: &str) -> Result<Key, KeyError> {
        let mut ctrl = false;
        let mut alt = false;
        let mut rest = text;
        loop {
            let lower = rest.to_ascii_lowercase();
            if lower.starts_with("ctrl+") && rest.len() > 5 {
                ctrl = true;
                rest = &rest[5..];
            } else if lower.starts_with("alt+") && rest.len() > 4 {
                alt = true;
                rest = &rest[4..];
            } else {
                break;
            }
        }
        let lower = rest.to_ascii_lowercase();
        let code = match lower.as_str() {
            "up" => KeyCodeOrd::Up,
            "down" => KeyCodeOrd::Down,
            "left" => KeyCodeOrd::Left,
            "right" => KeyCodeOrd::Right,
            "enter" | "return" => KeyCodeOrd::Enter,
            "esc" | "escape" => KeyCodeOrd::Esc,
            "backspace" => KeyCodeOrd::Backspace,
            "delete" | "del" => KeyCodeOrd::Delete,
            "tab" => KeyCodeOrd::Tab,
            "home" => KeyCodeOrd::Home,
            "end" => KeyCodeOrd::End,
            "pageup" | "pgup" => KeyCodeOrd::PageUp,
            "pagedown" | "pgdn" => KeyCodeOrd::PageDown,
            "space" => KeyCodeOrd::Char(' '),
            f if f.len() >= 2 && f.starts_with('f') && f[1..].parse::<u8>().is_ok() => {
                let k = f[1..].parse::<u8>().unwrap_or(0);
                if !(1..=12).contains(&k) {
                    return Err(KeyError::Function(text.to_string()));
                }
                KeyCodeOrd::F(k)
            }
            _ => {
                let mut chars = rest.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) if !c.is_control() => {
                        // Ctrl combinations arrive as lower-case letters.
                        KeyCodeOrd::Char(if ctrl { c.to_ascii_lowercase() } else { c })
                    }
                    _ => {
                        return Err(KeyError::Unknown(text.to_string()));
                    }
                }
            }
        };
        Ok(Key { code, ctrl, alt })
    }

    /// The key as bindings and the help write it.
    pub fn label(&self) -> String {
        let mut s = String::new();
        if self.ctrl {
            s.push_str("Ctrl+");
        }
        if self.alt {
            s.push_str("Alt+");
        }
        match self.code {
            KeyCodeOrd::Char(' ') => s.push_str("Space"),
            KeyCodeOrd::Char(c) => s.push(c),
            KeyCodeOrd::F(k) => s.push_str(&format!("F{k}")),
            KeyCodeOrd::Up => s.push('↑'),
            KeyCodeOrd::Down => s.push('↓'),
            KeyCodeOrd::Left => s.push('←'),
            KeyCodeOrd::Right => s.push('→'),
            KeyCodeOrd::Enter => s.push_str("Enter"),
            KeyCodeOrd::Esc => s.push_str("Esc"),
            KeyCodeOrd::Backspace => s.push_str("Backspace"),
            KeyCodeOrd::Delete => s.push_str("Delete"),
            KeyCodeOrd::Tab => s.push_str("Tab"),
            KeyCodeOrd::Home => s.push_str("Home"),
            KeyCodeOrd::End => s.push_str("End"),
            KeyCodeOrd::PageUp => s.push_str("PgUp"),
            KeyCodeOrd::PageDown => s.push_str("PgDn"),
        }
        s
    }
}

/// The shipped bindings: (mode, key, command).
pub const DEFAULTS: &[(KeyContext, &str, Command)] = &[
    (KeyContext::Board, "up", Command::MoveUp),
    (KeyContext::Board, "k", Command::MoveUp),
    (KeyContext::Board, "down", Command::MoveDown),
    (KeyContext::Board, "j", Command::MoveDown),
    (KeyContext::Board, "left", Command::MoveLeft),
    (KeyContext::Board, "h", Command::MoveLeft),
    (KeyContext::Board, "right", Command::MoveRight),
    (KeyContext::Board, "l", Command::MoveRight),
    (KeyContext::Board, "delete", Command::Clear),
    (KeyContext::Board, "backspace", Command::Clear),
    (KeyContext::Board, "n", Command::ToggleNoteMode),
    (KeyContext::Board, "space", Command::ToggleNoteMode),
    (KeyContext::Board, "u", Command::Undo),
    (KeyContext::Board, "ctrl+z", Command::Undo),
    (KeyContext::Board, "U", Command::Redo),
    (KeyContext::Board, "ctrl+r", Command::Redo),
    (KeyContext::Board, "ctrl+y", Command::Redo),
    (KeyContext::Board, "f", Command::FillNotes),
    (KeyContext::Board, "f5", Command::FillNotes),
    (KeyContext::Board, "F", Command::ClearNotes),
    // F is a value on 16×16 and 25×25 (capitals are values there).
    (KeyContext::Board, "ctrl+f", Command::ClearNotes),
    (KeyContext::Board, "f6", Command::ClearNotes),
    (KeyContext::Board, "c", Command::Check),
    (KeyContext::Board, "f7", Command::Check),
    (KeyContext::Board, "S", Command::Solve),
    (KeyContext::Board, "f9", Command::Solve),
    (KeyContext::Board, "i", Command::Hint),
    (KeyContext::Board, "f2", Command::Hint),
    (KeyContext::Board, "L", Command::LogicSolve),
    // L is a value on 25×25: e (explain) works on every size.
    (KeyContext::Board, "e", Command::LogicSolve),
    (KeyContext::Board, "f8", Command::LogicSolve),
    (KeyContext::Board, "v", Command::Watch),
    (KeyContext::Board, "f10", Command::Watch),
    (KeyContext::Board, "t", Command::Stats),
    (KeyContext::Board, "?", Command::Help),
    (KeyContext::Board, "f1", Command::Help),
    (KeyContext::Board, "p", Command::Pause),
    (KeyContext::Board, "f3", Command::Pause),
    (KeyContext::Board, "s", Command::SaveAs),
    (KeyContext::Board, "ctrl+s", Command::SaveAs),
    (KeyContext::Board, "m", Command::Menu),
    (KeyContext::Board, "esc", Command::Cancel),
    (KeyContext::Board, "enter", Command::Confirm),
    (KeyContext::Board, "q", Command::Quit),
    (KeyContext::Board, "ctrl+c", Command::Quit),
    (KeyContext::Menu, "up", Command::MoveUp),
    (KeyContext::Menu, "k", Command::MoveUp),
    (KeyContext::Menu, "down", Command::MoveDown),
    (KeyContext::Menu, "j", Command::MoveDown),
    (KeyContext::Menu, "left", Command::MoveLeft),
    (KeyContext::Menu, "h", Command::MoveLeft),
    (KeyContext::Menu, "right", Command::MoveRight),
    (KeyContext::Menu, "l", Command::MoveRight),
    (KeyContext::Menu, "pageup", Command::PageUp),
    (KeyContext::Menu, "pagedown", Command::PageDown),
    // The key help over the board scrolls by the page too.
    (KeyContext::Board, "pageup", Command::PageUp),
    (KeyContext::Board, "pagedown", Command::PageDown),
    (KeyContext::Menu, "t", Command::Stats),
    (KeyContext::Menu, "enter", Command::Confirm),
    (KeyContext::Menu, "space", Command::Pause),
    (KeyContext::Menu, "p", Command::Pause),
    (KeyContext::Menu, "end", Command::Finish),
    (KeyContext::Menu, "e", Command::Finish),
    (KeyContext::Menu, "esc", Command::Cancel),
    (KeyContext::Menu, "?", Command::Help),
    (KeyContext::Menu, "f1", Command::Help),
    (KeyContext::Menu, "q", Command::Quit),
    (KeyContext::Menu, "ctrl+c", Command::Quit),
];

/// The live key bindings.
#[derive(Debug, Clone, Default)]
pub struct Keymap {
    map: BTreeMap<(KeyContext, Key), Command>,
}

/// Why text is not a key; each quotes the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum KeyError {
    /// `f` and a number outside 1 to 12.
    #[error("`{0}`: function keys are f1 to f12")]
    Function(String),
    /// Neither one character nor a key name.
    #[error(
        "`{0}` is not a key: expected one character, or ctrl+/alt+ and a key, or a name (up down left right enter esc backspace delete tab home end pageup pagedown space f1-f12)"
    )]
    Unknown(String),
}

/// A binding of the user's that was skipped, naming it as the config file
/// writes it (`keys.board."ctrl+q"`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BindingError {
    /// A `[keys.…]` table for a mode that does not exist.
    #[error("keys.{mode}: unknown mode, expected `board` or `menu`")]
    UnknownMode {
        /// The mode as written.
        mode: String,
    },
    /// A key text that is not a key.
    #[error("keys.{mode}.\"{key}\": {source}")]
    Key {
        /// The mode.
        mode: String,
        /// The key text as written.
        key: String,
        /// Why it is not a key.
        source: KeyError,
    },
    /// An action name that is not a command (nor `none`).
    #[error(
        "keys.{mode}.\"{key}\": unknown action `{action}`, expected one of {} or none",
        command_names()
    )]
    UnknownAction {
        /// The mode.
        mode: String,
        /// The key text as written.
        key: String,
        /// The action as written.
        action: String,
    },
    /// No key of a mode quits any more; the shipped quit keys were kept.
    #[error("keys.{mode}: no key would quit, so {kept} still quit")]
    NoQuit {
        /// The mode.
        mode: String,
        /// The keys kept for quitting.
        kept: String,
    },
}

/// Every command's name, for messages.
fn command_names() -> String {
    let names: Vec<&str> = Command::iter().map(Command::name).collect();
    names.join(", ")
}

impl Keymap {
    /// The shipped defaults.
    pub fn defaults() -> Keymap {
        let mut map = BTreeMap::new();
        for &(mode, text, cmd) in DEFAULTS {
            if let Ok(k) = Key::parse(text) {
                map.insert((mode, k), cmd);
            }
        }
        Keymap { map }
    }

    /// The defaults with the user's tables (`mode → key → command name or
    /// "none"`) merged over them; each bad entry gives an error naming it
    /// (`keys.board."ctrl+q": …`) and is skipped.
    pub fn with_overrides(
        user: &BTreeMap<String, BTreeMap<String, String>>,
    ) -> (Keymap, Vec<BindingError>) {
        let mut km = Keymap::defaults();
        let mut issues = Vec::new();
        for (mode_name, table) in user {
            let Some(mode) = KeyContext::from_name(mode_name) else {
                issues.push(BindingError::UnknownMode {
                    mode: mode_name.clone(),
                });
                continue;
            };
            for (key_text, action) in table {
                let key = match Key::parse(key_text) {
                    Ok(k) => k,
                    Err(source) => {
                        issues.push(BindingError::Key {
                            mode: mode_name.clone(),
                            key: key_text.clone(),
                            source,
                        });
                        continue;
                    }
                };
                if action == "none" {
                    km.map.remove(&(mode, key));
                } else if let Some(cmd) = Command::from_name(action) {
                    km.map.insert((mode, key), cmd);
                } else {
                    issues.push(BindingError::UnknownAction {
                        mode: mode_name.clone(),
                        key: key_text.clone(),
                        action: action.clone(),
                    });
                }
            }
        }
        for context in [KeyContext::Board, KeyContext::Menu] {
            if let Some(kept) = km.keep_a_way_to_quit(context) {
                issues.push(BindingError::NoQuit {
                    mode: context.name().to_string(),
                    kept,
                });
            }
        }
        (km, issues)
    }

    /// A config may unbind every key that quits; then the shipped quit
    /// keys of `context` that are still free come back (Ctrl+C, taken
    /// back from whatever it was bound to, when none is). Their labels
    /// when it had to; None when some key quits already.
    fn keep_a_way_to_quit(&mut self, context: KeyContext) -> Option<String> {
        if !self.keys_for(context, Command::Quit).is_empty() {
            return None;
        }
        let defaults = Keymap::defaults();
        for ((m, key), cmd) in &defaults.map {
            if *m == context && *cmd == Command::Quit && !self.map.contains_key(&(context, *key)) {
                self.map.insert((context, *key), Command::Quit);
            }
        }
        if self.keys_for(context, Command::Quit).is_empty()
            && let Ok(ctrl_c) = Key::parse("ctrl+c")
        {
            self.map.insert((context, ctrl_c), Command::Quit);
        }
        Some(self.keys_for(context, Command::Quit).join(", "))
    }

    /// The command bound to a key event in `mode`.
    pub fn command(&self, mode: KeyContext, e: &KeyEvent) -> Option<Command> {
        let k = Key::from_event(e)?;
        self.map.get(&(mode, k)).copied()
    }

    /// The keys bound to `cmd` in `mode`, as labels, in a stable order.
    pub fn keys_for(&self, mode: KeyContext, cmd: Command) -> Vec<String> {
        self.map
            .iter()
            .filter(|((m, _), c)| *m == mode && **c == cmd)
            .map(|((_, k), _)| k.label())
            .collect()
    }

    /// Every bound command of `mode` with its keys, in command order.
    pub fn help(&self, mode: KeyContext) -> Vec<(Command, Vec<String>)> {
        Command::iter()
            .map(|c| (c, self.keys_for(mode, c)))
            .filter(|(_, keys)| !keys.is_empty())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyEventKind;

    fn ev(code: KeyCode, m: KeyModifiers) -> KeyEvent {
        KeyEvent {
            code,
            modifiers: m,
            kind: KeyEventKind::Press,
            state: ratatui::crossterm::event::KeyEventState::NONE,
        }
    }

    #[test]
    fn a_config_cannot_take_away_every_way_to_quit() {
        let none = |keys: &[&str]| -> BTreeMap<String, String> {
            keys.iter()
                .map(|k| (k.to_string(), "none".to_string()))
                .collect()
        };
        let quit_keys = |c| Keymap::defaults().keys_for(c, Command::Quit);
        let board: Vec<String> = quit_keys(KeyContext::Board);
        let menu: Vec<String> = quit_keys(KeyContext::Menu);
        let as_str = |v: &Vec<String>| v.iter().map(|s| s.to_lowercase()).collect::<Vec<_>>();
        let (b, m) = (as_str(&board), as_str(&menu));
        let user = BTreeMap::from([
            (
                "board".to_string(),
                none(&b.iter().map(String::as_str).collect::<Vec<_>>()),
            ),
            (
                "menu".to_string(),
                none(&m.iter().map(String::as_str).collect::<Vec<_>>()),
            ),
        ]);
        let (map, problems) = Keymap::with_overrides(&user);
        assert_eq!(problems.len(), 2, "{problems:?}");
        for (p, c) in problems.iter().zip([KeyContext::Board, KeyContext::Menu]) {
            assert!(matches!(p, BindingError::NoQuit { .. }), "{p}");
            assert!(p.to_string().contains("no key would quit"), "{p}");
            assert!(!map.keys_for(c, Command::Quit).is_empty());
        }
        // Unbinding one quit key leaves the others, and says nothing.
        let user = BTreeMap::from([("board".to_string(), none(&["q"]))]);
        let (map, problems) = Keymap::with_overrides(&user);
        assert!(problems.is_empty(), "{problems:?}");
        assert!(!map.keys_for(KeyContext::Board, Command::Quit).is_empty());
    }

    #[test]
    fn command_names_round_trip_and_old_names_still_read() {
        for c in Command::iter() {
            assert_eq!(Command::from_name(c.name()), Some(c), "{}", c.name());
        }
        assert_eq!(Command::ToggleNoteMode.name(), "toggle_notes");
        assert_eq!(Command::Watch.name(), "watch");
        assert_eq!(Command::from_name("solve_visually"), Some(Command::Watch));
        assert_eq!(Command::Stats.name(), "statistics");
        assert_eq!(Command::from_name("stats"), Some(Command::Stats));
        assert_eq!(Command::from_name("Undo"), None);
        let user = BTreeMap::from([(
            "board".to_string(),
            BTreeMap::from([("ctrl+w".to_string(), "solve_visually".to_string())]),
        )]);
        let (map, problems) = Keymap::with_overrides(&user);
        assert!(problems.is_empty(), "{problems:?}");
        let e = ev(KeyCode::Char('w'), KeyModifiers::CONTROL);
        assert_eq!(map.command(KeyContext::Board, &e), Some(Command::Watch));
    }

    #[test]
    fn defaults_parse_and_map() {
        assert_eq!(Keymap::defaults().map.len(), DEFAULTS.len());
        let km = Keymap::defaults();
        assert_eq!(
            km.command(
                KeyContext::Board,
                &ev(KeyCode::Char('z'), KeyModifiers::CONTROL)
            ),
            Some(Command::Undo)
        );
        // Shift arrives with the upper-case letter; it is folded in.
        assert_eq!(
            km.command(
                KeyContext::Board,
                &ev(KeyCode::Char('U'), KeyModifiers::SHIFT)
            ),
            Some(Command::Redo)
        );
        assert_eq!(
            km.command(KeyContext::Menu, &ev(KeyCode::Enter, KeyModifiers::NONE)),
            Some(Command::Confirm)
        );
        assert!(
            km.keys_for(KeyContext::Board, Command::Undo)
                .contains(&"Ctrl+z".to_string())
        );
    }

    #[test]
    fn key_texts() {
        assert_eq!(Key::parse("ctrl+"), Err(KeyError::Unknown("ctrl+".into())));
        assert_eq!(Key::parse("f13"), Err(KeyError::Function("f13".into())));
        let e = Key::parse("hello").unwrap_err();
        assert!(e.to_string().starts_with("`hello` is not a key"), "{e}");
        assert_eq!(Key::parse("Ctrl+Z").unwrap(), Key::parse("ctrl+z").unwrap());
        assert_eq!(Key::parse("space").unwrap().label(), "Space");
        assert_eq!(Key::parse("f10").unwrap().label(), "F10");
        assert_eq!(Key::parse("pgdn").unwrap(), Key::parse("PageDown").unwrap());
        assert_eq!(Key::parse("pageup").unwrap().label(), "PgUp");
        let e = ev(KeyCode::PageDown, KeyModifiers::NONE);
        assert_eq!(Key::from_event(&e), Key::parse("pagedown").ok());
    }

    #[test]
    fn overrides_merge_and_bad_entries_are_named() {
        let mut user = BTreeMap::new();
        let mut board = BTreeMap::new();
        board.insert("x".to_string(), "undo".to_string());
        board.insert("u".to_string(), "none".to_string());
        board.insert("ctrl+".to_string(), "undo".to_string());
        board.insert("y".to_string(), "dance".to_string());
        user.insert("board".to_string(), board);
        user.insert("nowhere".to_string(), BTreeMap::new());
        let (km, issues) = Keymap::with_overrides(&user);
        assert_eq!(
            km.command(
                KeyContext::Board,
                &ev(KeyCode::Char('x'), KeyModifiers::NONE)
            ),
            Some(Command::Undo)
        );
        assert_eq!(
            km.command(
                KeyContext::Board,
                &ev(KeyCode::Char('u'), KeyModifiers::NONE)
            ),
            None
        );
        assert_eq!(issues.len(), 3, "{issues:?}");
        let issues: Vec<String> = issues.iter().map(ToString::to_string).collect();
        assert!(
            issues
                .iter()
                .any(|i| i.starts_with("keys.board.\"y\": unknown action `dance`"))
        );
        assert!(issues.iter().any(|i| i.starts_with("keys.board.\"ctrl+\"")));
        assert!(issues.iter().any(|i| i.starts_with("keys.nowhere")));
        // The help follows the live map.
        let help = km.help(KeyContext::Board);
        let undo = help.iter().find(|(c, _)| *c == Command::Undo).unwrap();
        assert!(undo.1.contains(&"x".to_string()) && !undo.1.contains(&"u".to_string()));
    }
}
