//! The menus and dialogs: start, new game, load, text input (import,
//! save as) and settings.
use jiff::Timestamp;
use jiff::tz::TimeZone;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Padding, Paragraph, Wrap};
use strum::IntoEnumIterator;

use super::{clock, keys, seconds};
use crate::engine::{Level, Shape};
use crate::tui::action::{Command, SaveListing};
use crate::tui::app::{
    App, FallbackChoice, Missed, NewGameRow, Setting, StartItem, fallback_choices, size_label,
};
use crate::tui::keymap::KeyContext;
use crate::tui::layout::{
    centered, fallback_rect, frame_parts, load_rect, menu_rect, settings_rect,
};
use crate::tui::style::Role;

pub(super) fn draw_start(frame: &mut Frame, app: &App, area: Rect, sel: StartItem) {
    let s = &app.styles;
    let items = app.start_items();
    let r = menu_rect(area, items.len());
    let lines: Vec<Line> = items
        .into_iter()
        .map(|item| {
            let mut text = format!(" {}", item.label());
            if item == StartItem::Continue {
                if app.game.is_some() {
                    text.push_str(" (game in memory)");
                } else if let Some(m) = &app.autosave {
                    text.push_str(&format!(" ({} {}/{})", m.size, m.filled, m.cells));
                }
            }
            let style = if item == sel {
                s.get(Role::Selected)
            } else if item == StartItem::Continue && app.game.is_none() && app.autosave.is_none() {
                s.get(Role::Dim)
            } else {
                s.get(Role::Text)
            };
            Line::from(Span::styled(text, style))
        })
        .collect();
    frame.render_widget(Clear, r);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(" dekadoku ")
                .border_style(s.get(Role::BoxBorder)),
        ),
        r,
    );
    if !app.issues.is_empty() {
        let (_, body, _) = frame_parts(area);
        let below = Rect::new(
            body.x,
            r.y + r.height + 1,
            body.width,
            (body.y + body.height).saturating_sub(r.y + r.height + 1),
        );
        let lines: Vec<Line> = app
            .issues
            .iter()
            .map(|i| Line::from(Span::styled(i.clone(), s.get(Role::Wrong))))
            .collect();
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), below);
    }
}

pub(super) fn draw_new_game(
    frame: &mut Frame,
    app: &App,
    body: Rect,
    size: Shape,
    level: Level,
    row: NewGameRow,
) {
    let s = &app.styles;
    let pick = |label: &str, value: &str, on: bool| {
        Line::from(vec![
            Span::styled(format!("{label:>7}  "), s.get(Role::Dim)),
            Span::styled(
                format!("◀ {value} ▶"),
                if on {
                    s.get(Role::Selected)
                } else {
                    s.get(Role::Text)
                },
            ),
        ])
    };
    let lines = vec![
        pick("Size", &size_label(size), row == NewGameRow::Size),
        Line::default(),
        pick("Level", level.name(), row == NewGameRow::Level),
        Line::default(),
        Line::from(Span::styled(
            format!("{} start", keys(app, KeyContext::Menu, Command::Confirm)),
            s.get(Role::Dim),
        )),
    ];
    let r = centered(body, 40, 7);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(" New game ")
                .border_style(s.get(Role::BoxBorder)),
        ),
        r,
    );
}

/// The dialog after a search that missed the level asked: what was
/// found, and the choices (keep waiting, the closest, a shipped puzzle).
pub(super) fn draw_fallback(
    frame: &mut Frame,
    app: &App,
    area: Rect,
    missed: &Missed,
    sel: FallbackChoice,
) {
    let s = &app.styles;
    let choices = fallback_choices(missed.shipped);
    let r = fallback_rect(area, choices.len());
    let closest = &missed.closest;
    let clues = closest.generated.clues;
    let spent = missed.spent.as_secs_f64();
    let got = closest.level();
    let head = match (got, &closest.grade) {
        (Some(l), Some(g)) => format!(
            "Closest in {spent:.1} s: {l}, rating {:.1}, {clues} clues",
            g.rating
        ),
        (Some(l), None) => format!("Closest in {spent:.1} s: {l}, {clues} clues"),
        (None, _) => format!("Closest in {spent:.1} s: not graded in time, {clues} clues"),
    };
    let mut lines = vec![
        Line::from(Span::styled(head, s.get(Role::Text))),
        Line::default(),
    ];
    for choice in choices {
        let text = match choice {
            FallbackChoice::KeepWaiting => format!(
                "Keep waiting: search again, up to {}",
                seconds(missed.next_budget())
            ),
            FallbackChoice::PlayClosest => match got {
                Some(l) => format!("Play the closest found ({l})"),
                None => "Play the puzzle found (not graded)".to_string(),
            },
            FallbackChoice::PlayShipped => format!(
                "Play a shipped {} {} puzzle",
                size_label(missed.shape),
                missed.level
            ),
        };
        let style = if choice == sel {
            s.get(Role::Selected)
        } else {
            s.get(Role::Text)
        };
        lines.push(Line::from(vec![
            Span::styled(format!(" {}  ", choice.letter()), s.get(Role::Dim)),
            Span::styled(text, style),
        ]));
    }
    lines.push(Line::default());
    lines.push(Line::from(Span::styled(
        format!(
            "{} {} move · {} choose · {} back",
            keys(app, KeyContext::Menu, Command::MoveUp),
            keys(app, KeyContext::Menu, Command::MoveDown),
            keys(app, KeyContext::Menu, Command::Confirm),
            keys(app, KeyContext::Menu, Command::Cancel),
        ),
        s.get(Role::Dim),
    )));
    let title = format!(
        " {} {}: none found in time ",
        size_label(missed.shape),
        missed.level
    );
    frame.render_widget(Clear, r);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(title)
                .padding(Padding::horizontal(1))
                .border_style(s.get(Role::BoxBorder)),
        ),
        r,
    );
}

pub(super) fn draw_load(
    frame: &mut Frame,
    app: &App,
    area: Rect,
    list: Option<&[SaveListing]>,
    sel: usize,
) {
    let s = &app.styles;
    let lines: Vec<Line> = match list {
        None => vec![Line::from("reading…")],
        Some([]) => vec![Line::from("no saves yet (press s while playing to save)")],
        Some(list) => list
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let (text, role) = match &e.meta {
                    Ok(m) => (
                        format!(
                            "{:<20} {:<10} {:<7} {:>4}/{:<4} {} {}",
                            e.name,
                            m.size,
                            m.level.as_deref().unwrap_or("-"),
                            m.filled,
                            m.cells,
                            clock(m.elapsed_secs),
                            date(m.saved_at, &app.time_zone)
                        ),
                        Role::Text,
                    ),
                    Err(err) => (format!("{:<20} unreadable: {err}", e.name), Role::Dim),
                };
                let style = if i == sel {
                    s.get(Role::Selected)
                } else {
                    s.get(role)
                };
                Line::from(Span::styled(text, style))
            })
            .collect(),
    };
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(" Load ")
                .border_style(s.get(Role::BoxBorder)),
        ),
        load_rect(area),
    );
}

/// `YYYY-MM-DD HH:MM` of a unix time in the time zone `tz`.
fn date(secs: u64, tz: &TimeZone) -> String {
    i64::try_from(secs)
        .ok()
        .and_then(|s| Timestamp::from_second(s).ok())
        .map_or_else(
            || "????-??-?? ??:??".to_string(),
            |t| (t.to_zoned_datetime(tz.clone()).strftime("%Y-%m-%d %H:%M")).to_string(),
        )
}

pub(super) fn draw_input(
    frame: &mut Frame,
    app: &App,
    body: Rect,
    title: &str,
    prompt: &str,
    input: &tui_input::Input,
) {
    let s = &app.styles;
    let r = centered(body, 70, 7);
    let width = r.width.saturating_sub(4) as usize;
    let scroll = input.visual_scroll(width);
    let lines = vec![
        Line::from(Span::styled(prompt.to_string(), s.get(Role::Text))),
        Line::default(),
        Line::from(Span::styled(
            format!(
                "> {}",
                &input.value().chars().skip(scroll).collect::<String>()
            ),
            s.get(Role::Entered),
        )),
    ];
    frame.render_widget(Clear, r);
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }).block(
            Block::default()
                .borders(Borders::ALL)
                .title(format!(" {title} "))
                .border_style(s.get(Role::BoxBorder)),
        ),
        r,
    );
    let cx = r.x + 3 + (input.visual_cursor().saturating_sub(scroll)) as u16;
    frame.set_cursor_position((cx.min(r.x + r.width.saturating_sub(2)), r.y + 3));
}

/// The day's board of times on the server: the fastest unassisted
/// solves, the player's own line marked, their place below.
pub(super) fn draw_daily_board(
    frame: &mut Frame,
    app: &App,
    body: Rect,
    board: Option<&crate::tui::action::DailyBoard>,
) {
    let s = &app.styles;
    let r = centered(body, 58, 1);
    let mut lines = Vec::new();
    let title = match board {
        Some(b) => format!(" Daily board · {} ", b.date),
        None => " Daily board ".to_string(),
    };
    match board {
        None => lines.push(Line::from(Span::styled("reading…", s.get(Role::Dim)))),
        Some(b) if b.rows.is_empty() => {
            lines.push(Line::from(Span::styled(
                "No one has solved today's daily puzzle without help yet: \
                 Daily puzzle on the start menu, and be the first.",
                s.get(Role::Text),
            )));
        }
        Some(b) => {
            let width = r.width.saturating_sub(4) as usize;
            for row in &b.rows {
                let name = row.name.as_deref().unwrap_or("(no name)");
                let name = if row.me {
                    format!("{name} (you)")
                } else {
                    name.to_string()
                };
                let time = crate::tui::ui::clock(row.secs);
                let left = format!("{:>2}  {name}", row.rank);
                let gap = width.saturating_sub(left.chars().count() + time.chars().count());
                let text = format!("{left}{}{time}", " ".repeat(gap));
                let role = if row.me { Role::Selected } else { Role::Text };
                lines.push(Line::from(Span::styled(text, s.get(role))));
            }
        }
    }
    if let Some(b) = board {
        lines.push(Line::default());
        let place = match b.mine {
            Some((rank, of)) => format!("You are {} of {of} today.", ordinal(rank)),
            None => "You are not on today's board yet.".to_string(),
        };
        lines.push(Line::from(Span::styled(place, s.get(Role::Text))));
        lines.push(Line::from(Span::styled(
            "Unassisted solves only: no hint, check or solver.",
            s.get(Role::Dim),
        )));
        let name = match &b.name {
            Some(n) => format!("Enter: change your name (“{n}”) · Esc: back"),
            None => "Enter: choose the name shown for you · Esc: back".to_string(),
        };
        lines.push(Line::from(Span::styled(name, s.get(Role::Dim))));
    }
    let block = Block::default()
        .borders(Borders::ALL)
        .padding(ratatui::widgets::Padding::horizontal(1))
        .title(title)
        .border_style(s.get(Role::BoxBorder));
    // Rows as wrapped (words move whole, so one row more for a line that
    // wraps is kept in hand).
    let inner = usize::from(r.width.saturating_sub(4)).max(1);
    let rows: usize = lines
        .iter()
        .map(|l| match l.width() {
            0 => 1,
            w if w <= inner => 1,
            w => w.div_ceil(inner) + 1,
        })
        .sum();
    let text = Paragraph::new(lines).wrap(Wrap { trim: false });
    let r = centered(
        body,
        58,
        u16::try_from(rows).unwrap_or(u16::MAX).saturating_add(2),
    );
    frame.render_widget(Clear, r);
    frame.render_widget(text.block(block), r);
}

/// 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st.
fn ordinal(n: u64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

pub(super) fn draw_settings(frame: &mut Frame, app: &App, area: Rect, sel: Setting) {
    let s = &app.styles;
    let p = &app.config.play;
    let on = |b: bool| if b { "on" } else { "off" }.to_string();
    let value = |setting: Setting| match setting {
        Setting::Theme => app.config.theme.clone(),
        Setting::Wrap => on(p.wrap),
        Setting::AutoRemoveNotes => on(p.auto_remove_notes),
        Setting::Conflicts => p.conflicts.name().to_string(),
        Setting::HighlightPeers => on(p.highlight_peers),
        Setting::HighlightSameDigit => on(p.highlight_same_digit),
        Setting::Mouse => on(p.mouse),
    };
    let mut lines: Vec<Line> = Setting::iter()
        .map(|setting| {
            let (name, v) = (setting.label(), value(setting));
            let style = if setting == sel {
                s.get(Role::Selected)
            } else {
                s.get(Role::Text)
            };
            Line::from(Span::styled(format!(" {name:<36} {v}"), style))
        })
        .collect();
    lines.push(Line::default());
    lines.push(Line::from(Span::styled(
        "Enter/→ changes a setting (← back); each change is kept in config.toml",
        s.get(Role::Dim),
    )));
    lines.push(Line::from(Span::styled(
        "(dekadoku --print-default-config shows every key).",
        s.get(Role::Dim),
    )));
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(" Settings ")
                .border_style(s.get(Role::BoxBorder)),
        ),
        settings_rect(area),
    );
}

#[cfg(test)]
mod tests {
    use jiff::tz::{TimeZone, offset};

    use super::date;

    #[test]
    fn save_dates_are_shown_in_the_zone_given() {
        // 2026-11-25 13:55:00 UTC.
        let secs = 1_795_614_900;
        assert_eq!(date(secs, &TimeZone::UTC), "2026-11-25 13:55");
        assert_eq!(date(secs, &TimeZone::fixed(offset(9))), "2026-11-25 22:55");
        assert_eq!(
            date(secs, &TimeZone::fixed(offset(-14))),
            "2026-11-24 23:55"
        );
        assert_eq!(date(u64::MAX, &TimeZone::UTC), "????-??-?? ??:??");
    }
}
