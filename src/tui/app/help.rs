//! The key help overlay: its lines, built from the keymap (keys that type
//! a value on this board left out), and scrolling through them when the
//! window is too short to show them all.

use super::{App, Overlay, Screen, scrolled};
use crate::tui::action::Command;
use crate::tui::keymap::KeyContext;
use crate::tui::layout::{help_page, help_scroll_max};

/// One line of the help.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HelpLine {
    /// A line of its own (how values are typed on this board).
    Heading(String),
    /// Nothing: space between the heading and the keys.
    Blank,
    /// The keys of a command and what it does.
    Keys {
        /// The keys, as the keymap names them.
        keys: String,
        /// What the command does.
        text: &'static str,
    },
}

impl App {
    /// The help's lines for the screen under it.
    pub fn help_lines(&self) -> Vec<HelpLine> {
        let mode = match self.screen {
            Screen::Playing => KeyContext::Board,
            _ => KeyContext::Menu,
        };
        let keys = self
            .keymap
            .help(mode)
            .into_iter()
            .filter_map(|(cmd, mut keys)| {
                keys.retain(|label| !self.key_is_value(label));
                (!keys.is_empty()).then(|| HelpLine::Keys {
                    keys: keys.join(" "),
                    text: cmd.describe(),
                })
            });
        let mut lines = Vec::new();
        if mode == KeyContext::Board {
            let n = self.game.as_ref().map_or(9, |g| g.shape().n());
            lines.push(HelpLine::Heading(if n <= 9 {
                format!("1–{n}: enter a value (0 clears)")
            } else if n <= 35 {
                format!(
                    "1–9, A–{}: values (capitals: Shift+B, or 1 1 Enter for B)",
                    char::from(b'A' + (n - 10) as u8)
                )
            } else {
                format!("type the number (1–{n}) and Enter")
            }));
            lines.push(HelpLine::Blank);
        }
        lines.extend(keys);
        lines
    }

    /// A command while the help is shown: scrolling, or closing it.
    pub(super) fn help_command(&mut self, cmd: Command) {
        let len = self.help_lines().len();
        let area = self.layout_area();
        let max = help_scroll_max(area, len);
        let page = help_page(area, len);
        let Some(Overlay::Help { scroll }) = &mut self.overlay else {
            return;
        };
        if !scrolled(scroll, cmd, max, page)
            && matches!(cmd, Command::Help | Command::Cancel | Command::Confirm)
        {
            self.overlay = None;
        }
    }
}
