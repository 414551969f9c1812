//! The statistics screen: a table per size and level (started, solved,
//! solved without help, best and median time, streak), the daily puzzle's
//! record by date, newest first, and a footer saying what the columns
//! count. Everything it says is in words and signs, never in colour alone.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::{clock, scroll_title};
use crate::engine::generate::daily::Date;
use crate::store::{Daily, Record, Stats};
use crate::tui::app::App;
use crate::tui::layout::{stats_lines, stats_parts, stats_scroll_max};
use crate::tui::style::Role;

/// What is shown where a number is not known.
const UNKNOWN: &str = "—";

/// The footer: what "no help", the times and the streak count.
const FOOTER: [&str; 2] = [
    "No help: solved without hints or the solver. Best, median: of those.",
    "Streak: solved without help in a row; help or a game left unfinished ends it.",
];

/// A table column's alignment.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Align {
    Left,
    Right,
}

/// Draws the statistics (`None`: still being read) scrolled to `scroll`.
pub(super) fn draw(frame: &mut Frame, app: &App, area: Rect, stats: Option<&Stats>, scroll: usize) {
    let s = &app.styles;
    let lines = match stats {
        Some(st) => content(app, st),
        None => vec![Line::from(Span::styled(
            " reading the statistics…",
            s.get(Role::Dim),
        ))],
    };
    let len = stats.map_or(lines.len(), |st| {
        stats_lines(st.records.len(), st.daily.len())
    });
    debug_assert_eq!(
        len,
        lines.len(),
        "layout::stats_lines and the screen disagree"
    );
    let (r, scrolled, footer) = stats_parts(area, len);
    let scroll = scroll.min(stats_scroll_max(area, len));
    let mut block = Block::default()
        .borders(Borders::ALL)
        .title(" Statistics ")
        .border_style(s.get(Role::BoxBorder));
    let shown = usize::from(scrolled.height);
    if let Some(at) = scroll_title(scroll, shown, len) {
        block = block.title_bottom(at);
    }
    frame.render_widget(Clear, r);
    frame.render_widget(block.style(s.get(Role::Text)), r);
    let start = scroll.min(lines.len());
    let end = (start + shown).min(lines.len());
    frame.render_widget(Paragraph::new(lines[start..end].to_vec()), scrolled);
    let mut foot = vec![Line::from(Span::styled(
        "─".repeat(usize::from(footer.width)),
        s.get(Role::CellBorder),
    ))];
    foot.extend(
        FOOTER
            .iter()
            .map(|t| Line::from(Span::styled(format!(" {t}"), s.get(Role::Dim)))),
    );
    frame.render_widget(Paragraph::new(foot), footer);
}

/// The lines that scroll: the table by size and level, then the daily
/// record (as many as [`stats_lines`] counts).
fn content(app: &App, st: &Stats) -> Vec<Line<'static>> {
    let s = &app.styles;
    let (head, text, dim) = (s.get(Role::Title), s.get(Role::Text), s.get(Role::Dim));
    let mut lines = Vec::new();
    let records = st.records_in_order();
    if records.is_empty() {
        lines.push(Line::from(Span::styled(
            " No games yet: the table fills in as you play.",
            dim,
        )));
    } else {
        let rows: Vec<Vec<String>> = records.iter().map(|(key, r)| record_row(key, r)).collect();
        lines.extend(table(
            &[
                ("Size / level", Align::Left),
                ("Started", Align::Right),
                ("Solved", Align::Right),
                ("No help", Align::Right),
                ("Best", Align::Right),
                ("Median", Align::Right),
                ("Streak", Align::Right),
            ],
            &rows,
            head,
            text,
            dim,
        ));
    }
    lines.push(Line::default());
    let mut title = vec![Span::styled(" Daily puzzle", head)];
    if let Some(today) = app.today {
        title.push(Span::styled(
            format!(
                " · streak {} (days in a row solved without help)",
                st.daily_streak(today)
            ),
            text,
        ));
    }
    lines.push(Line::from(title));
    if st.daily.is_empty() {
        lines.push(Line::from(Span::styled(
            " None played yet: Daily puzzle on the start menu.",
            dim,
        )));
    } else {
        let rows: Vec<Vec<String>> = st
            .daily
            .iter()
            .rev()
            .map(|(date, d)| daily_row(date, d))
            .collect();
        lines.extend(table(
            &[
                ("Date", Align::Left),
                ("Size / level", Align::Left),
                ("Time", Align::Right),
                ("Result", Align::Left),
            ],
            &rows,
            head,
            text,
            dim,
        ));
    }
    lines
}

/// A size and level as the table shows it: `9x9/medium` is `9×9 medium`.
fn key_label(key: &str) -> String {
    match key.split_once('/') {
        Some((size, level)) => format!("{} {level}", size.replace('x', "×")),
        None => key.to_string(),
    }
}

/// A time, or the sign for not known.
fn time(secs: Option<u64>) -> String {
    secs.map_or_else(|| UNKNOWN.to_string(), clock)
}

fn record_row(key: &str, r: &Record) -> Vec<String> {
    vec![
        key_label(key),
        r.started.to_string(),
        r.solved.to_string(),
        r.unassisted().to_string(),
        time(r.best_secs),
        time(r.median_secs()),
        r.streak
            .map_or_else(|| UNKNOWN.to_string(), |n| n.to_string()),
    ]
}

fn daily_row(date: &str, d: &Daily) -> Vec<String> {
    let result = match (d.secs, d.assisted) {
        (None, _) => "not solved",
        (Some(_), true) => "solved with help",
        (Some(_), false) => "solved",
    };
    vec![
        // A date from a file that is not one is shown as it is.
        Date::parse(date).map_or_else(|| date.to_string(), |d| d.to_string()),
        key_label(&d.key),
        time(d.secs),
        result.to_string(),
    ]
}

/// A header line and one line per row, each column as wide as its widest
/// cell, two spaces apart; the sign for not known dimmed.
fn table(
    columns: &[(&str, Align)],
    rows: &[Vec<String>],
    head: Style,
    text: Style,
    dim: Style,
) -> Vec<Line<'static>> {
    let widths: Vec<usize> = columns
        .iter()
        .enumerate()
        .map(|(i, (h, _))| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .map(|c| c.chars().count())
                .chain([h.chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let cell = |i: usize, c: &str| {
        let w = widths[i];
        let pad = if i == 0 { " " } else { "  " };
        match columns[i].1 {
            Align::Left => format!("{pad}{c:<w$}"),
            Align::Right => format!("{pad}{c:>w$}"),
        }
    };
    let mut out = vec![Line::from(
        columns
            .iter()
            .enumerate()
            .map(|(i, (h, _))| Span::styled(cell(i, h), head))
            .collect::<Vec<_>>(),
    )];
    out.extend(rows.iter().map(|r| {
        Line::from(
            r.iter()
                .enumerate()
                .take(columns.len())
                .map(|(i, c)| Span::styled(cell(i, c), if c == UNKNOWN { dim } else { text }))
                .collect::<Vec<_>>(),
        )
    }));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Config;
    use crate::tui::keymap::Keymap;
    use crate::tui::style::Styles;

    /// The screen builds as many lines as the layout (and the app's
    /// scrolling) counts.
    #[test]
    fn the_lines_are_the_ones_counted() {
        let mut app = App::new(Config::default(), Styles::basic(), Keymap::defaults(), 1);
        let mut st = Stats::default();
        let day = |t| Date::parse(t).unwrap();
        for (records, days) in [(0, 0), (1, 0), (0, 1), (3, 4)] {
            st.records.clear();
            st.daily.clear();
            for k in ["9x9/easy", "4x4/hard", "16x16/imported"]
                .iter()
                .take(records)
            {
                st.record_start(k);
            }
            for t in ["2026-01-01", "2026-01-02", "2026-01-04", "2026-01-09"]
                .iter()
                .take(days)
            {
                st.record_daily_start(day(t), "9x9/easy");
            }
            for today in [None, Some(day("2026-01-09"))] {
                app.today = today;
                assert_eq!(content(&app, &st).len(), stats_lines(records, days));
            }
        }
    }

    #[test]
    fn keys_read_as_sizes_and_levels() {
        assert_eq!(key_label("9x9/medium"), "9×9 medium");
        assert_eq!(key_label("16x16/imported"), "16×16 imported");
        assert_eq!(key_label("odd"), "odd");
    }
}
