//! The statistics screen: opened from the start menu or from the game
//! (whose clock stands meanwhile), read by the runner, scrolled with the
//! arrows and a page at a time, closed back to where it was opened.

use std::sync::Arc;

use super::{App, Effect, Screen, StartItem, scrolled};
use crate::store::Stats;
use crate::tui::action::Command;
use crate::tui::layout::{stats_lines, stats_parts, stats_scroll_max};

/// Where the statistics were opened, and where closing them goes back to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatsFrom {
    /// The start menu.
    Start,
    /// The game in play.
    Playing,
}

impl App {
    /// Shows the statistics, once the runner has read them.
    pub(super) fn open_stats(&mut self, from: StatsFrom, fx: &mut Vec<Effect>) {
        self.screen = Screen::Stats {
            from,
            stats: None,
            scroll: 0,
        };
        self.status.clear();
        fx.push(Effect::ReadStats);
    }

    /// The statistics as read, for the screen showing them.
    pub(super) fn stats_read(&mut self, read: Stats) {
        if let Screen::Stats { stats, .. } = &mut self.screen {
            *stats = Some(Arc::new(read));
        }
    }

    /// Lines the statistics screen scrolls through.
    fn stats_len(&self) -> usize {
        match &self.screen {
            Screen::Stats { stats: Some(s), .. } => stats_lines(s.records.len(), s.daily.len()),
            _ => 0,
        }
    }

    /// The statistics screen's keys: ↑/↓ a line, PgUp/PgDn a page; Esc
    /// (or the key that opened them) goes back.
    pub(super) fn stats_command(&mut self, cmd: Command) {
        let len = self.stats_len();
        let area = self.layout_area();
        let max = stats_scroll_max(area, len);
        let page = usize::from(stats_parts(area, len).1.height)
            .saturating_sub(1)
            .max(1);
        let has_game = self.game.is_some();
        let Screen::Stats { from, scroll, .. } = &mut self.screen else {
            return;
        };
        if scrolled(scroll, cmd, max, page) {
            return;
        }
        match cmd {
            Command::Cancel | Command::Stats => {
                self.screen = match from {
                    StatsFrom::Playing if has_game => Screen::Playing,
                    _ => Screen::Start {
                        sel: StartItem::Stats,
                    },
                };
            }
            _ => {}
        }
    }
}
