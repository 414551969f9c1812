//! Drawing: a pure function of `&App` into a ratatui frame. Nothing here
//! changes state or calls a solver.

pub mod board;
mod menus;
mod stats;
mod watch;
pub mod zoom;

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::action::Command;
use super::app::Emphasis;
use super::app::{App, HelpLine, Overlay, Screen, Search};
use super::keymap::KeyContext;
use super::style::{Role, candidate_role, unit_role};
use board::BoardView;
use zoom::{Focus, ZoomView};

use super::layout::{
    Chip, MIN_SIZE, PANEL_TEXT_MIN, ZoomPlan, centered, digit_bar, frame_parts, help_parts,
    help_scroll_max, play_layout, play_parts,
};

use crate::engine::generate::Stage;
use crate::game::LogicWalk;

const SPINNER: [&str; 8] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧"];

/// `text` broken into lines of at most `width` columns at spaces (a word
/// longer than the line is cut); at least one line.
fn wrap(text: &str, width: u16) -> Vec<String> {
    let width = usize::from(width.max(1));
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let Some(line) = lines.last_mut() else {
            break;
        };
        let used = Span::raw(line.as_str()).width();
        let need = Span::raw(word).width();
        if used > 0 && used + 1 + need > width {
            lines.push(String::new());
        } else if used > 0 {
            line.push(' ');
        }
        if let Some(line) = lines.last_mut() {
            line.push_str(word);
        }
    }
    lines
}

/// The screen rows `line` takes wrapped to `width` (as [`draw_panel`]
/// wraps it).
fn line_rows(line: &Line, width: u16) -> usize {
    wrap(&line.to_string(), width).len()
}

/// A step's title line and the text under it: an explanation that begins
/// with the technique's name (a net's "Nested Forcing Chain (198 nodes):
/// …") gives its head as the title, the rest as the text.
fn title_and_text<'a>(name: &'a str, explanation: &'a str) -> (&'a str, &'a str) {
    match explanation
        .strip_prefix(name)
        .and_then(|rest| rest.find(": "))
    {
        Some(i) => (
            &explanation[..name.len() + i],
            &explanation[name.len() + i + 2..],
        ),
        None => (name, explanation),
    }
}

/// Where the conclusion of a step's explanation starts: after its last
/// `; so ` (the contradiction), else at its last ` => ` (the effect).
fn conclusion_at(text: &str) -> Option<usize> {
    text.rfind("; so ")
        .map(|i| i + 2)
        .or_else(|| text.rfind(" => ").map(|i| i + 1))
}

/// The fewest lines [`fit_text`] shows `text` on at `width` and still
/// keeps its premise and its conclusion whole (two lines of its start, a
/// `…` line, the conclusion).
fn fit_text_min(text: &str, width: u16) -> usize {
    let whole = wrap(text, width).len();
    match conclusion_at(text) {
        Some(cut) => whole.min(3 + wrap(&text[cut..], width).len()),
        None => whole.min(3),
    }
}

/// `text` wrapped to `width` in at most `rows` lines: whole when it fits,
/// else its start, a `…` line and its conclusion (see [`conclusion_at`]),
/// so that a long chain's contradiction and effect stay in sight; on
/// fewer lines than the conclusion takes, its end.
fn fit_text(text: &str, width: u16, rows: usize) -> Vec<String> {
    let lines = wrap(text, width);
    let rows = rows.max(1);
    if lines.len() <= rows {
        return lines;
    }
    let Some(cut) = conclusion_at(text) else {
        let mut out: Vec<String> = lines.into_iter().take(rows - 1).collect();
        out.push("…".to_string());
        return out;
    };
    let (head, tail) = text.split_at(cut);
    let tail = wrap(tail, width);
    if tail.len() + 1 >= rows {
        // Its end alone, after the `…` when there is a line for it.
        let keep = (rows - 1).max(1).min(tail.len());
        let mut out = Vec::with_capacity(rows);
        if rows > 1 {
            out.push("…".to_string());
        }
        out.extend(tail[tail.len() - keep..].iter().cloned());
        return out;
    }
    let mut out: Vec<String> = wrap(head.trim_end(), width)
        .into_iter()
        .take(rows - tail.len() - 1)
        .collect();
    out.push("…".to_string());
    out.extend(tail);
    out
}

/// Key hints (`a · b · c`) cut to the hints that fit on one line: they
/// are a reminder, the help has them all.
fn fit_hints(hints: &str, width: u16) -> String {
    let mut out = String::new();
    for item in hints.split(" · ") {
        let next = if out.is_empty() {
            item.to_string()
        } else {
            format!("{out} · {item}")
        };
        if Span::raw(next.as_str()).width() > usize::from(width) {
            break;
        }
        out = next;
    }
    out
}

/// Draws the whole app.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    let s = &app.styles;
    frame.render_widget(Block::default().style(s.get(Role::Background)), area);
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        let msg = format!(
            "Make the window at least {}×{} (it is {}×{}).",
            MIN_SIZE.0, MIN_SIZE.1, area.width, area.height
        );
        frame.render_widget(
            Paragraph::new(msg)
                .wrap(Wrap { trim: true })
                .style(s.get(Role::Text)),
            area,
        );
        return;
    }
    let status_text = match (&app.screen, &app.game) {
        // Without a side panel, the step goes on the status line.
        (Screen::Logic { walk }, Some(g)) if play_parts(area, g.shape()).1.is_none() => {
            match walk.next() {
                Some(step) => {
                    let (title, text) = title_and_text(step.technique.name(), &step.explanation);
                    format!("{}/{} {title}: {text}", walk.at() + 1, walk.steps().len())
                }
                None => "Solved.".to_string(),
            }
        }
        (Screen::Watch { playback, stopped }, Some(g))
            if play_parts(area, g.shape()).1.is_none() =>
        {
            watch::status_line(app, playback, *stopped)
        }
        // The help's own keys while it is open (how to scroll and close).
        _ if app.status.is_empty() || matches!(app.overlay, Some(Overlay::Help { .. })) => {
            fit_hints(&key_hints(app), area.width)
        }
        _ => app.status.clone(),
    };
    // Messages wrap onto more rows (at most a quarter of the window); the
    // screen above gives up those rows. A notice (a message that matters)
    // comes first and stays until dismissed.
    let mut rows: Vec<(String, Role)> = Vec::new();
    if let Some(n) = &app.notice {
        let dismiss = keys(app, app.key_context(), Command::Cancel);
        for line in wrap(&format!("! {n} ({dismiss} dismisses)"), area.width) {
            rows.push((line, Role::Wrong));
        }
    }
    for line in wrap(&status_text, area.width) {
        rows.push((line, Role::Status));
    }
    let most = usize::from((area.height / 4).max(1));
    if rows.len() > most {
        rows.truncate(most);
        if let Some((last, _)) = rows.last_mut() {
            last.push('…');
        }
    }
    let extra = rows.len().saturating_sub(1) as u16;
    app.status_rows.set(extra + 1);
    let area = Rect {
        height: area.height - extra,
        ..area
    };
    let (title, body, status) = frame_parts(area);
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(" dekadoku ", s.get(Role::Title)),
            Span::styled(title_text(app), s.get(Role::Dim)),
        ])),
        title,
    );
    match &app.screen {
        Screen::Playing => draw_play(frame, app, area),
        Screen::Start { sel } => menus::draw_start(frame, app, area, *sel),
        Screen::NewGame { size, level, row } => {
            let level = crate::engine::generate::nearest_level(*size, *level);
            menus::draw_new_game(frame, app, body, *size, level, *row)
        }
        Screen::Working {
            what,
            level,
            search,
            ..
        } => {
            let mut lines = vec![Line::from(Span::styled(
                format!("{} {what}", SPINNER[app.spinner % SPINNER.len()]),
                s.get(Role::Text),
            ))];
            if let Some(search) = search {
                lines.push(Line::from(Span::styled(
                    search_line(search, *level),
                    s.get(Role::Text),
                )));
            }
            lines.push(Line::default());
            lines.push(Line::from(Span::styled(
                format!(
                    "{} cancel · r play a ready puzzle now",
                    keys(app, KeyContext::Menu, Command::Cancel)
                ),
                s.get(Role::Dim),
            )));
            frame.render_widget(
                Paragraph::new(lines)
                    .alignment(Alignment::Center)
                    .wrap(Wrap { trim: false }),
                centered(body, 72, 6),
            );
        }
        Screen::Fallback { sel, missed } => menus::draw_fallback(frame, app, area, missed, *sel),
        Screen::Reading { what, .. } => {
            let lines = vec![
                Line::from(Span::styled(
                    format!("{} Reading {what}…", SPINNER[app.spinner % SPINNER.len()]),
                    s.get(Role::Text),
                )),
                Line::default(),
                Line::from(Span::styled(
                    format!("{} cancels", keys(app, KeyContext::Menu, Command::Cancel)),
                    s.get(Role::Dim),
                )),
            ];
            frame.render_widget(
                Paragraph::new(lines)
                    .alignment(Alignment::Center)
                    .wrap(Wrap { trim: false }),
                centered(body, 60, 6),
            );
        }
        Screen::Load { list, sel } => menus::draw_load(frame, app, area, list.as_deref(), *sel),
        Screen::Import { input } => menus::draw_input(
            frame,
            app,
            body,
            "Import a puzzle",
            if app.served {
                "Paste a puzzle in any format (line, grid, seeds, numbers), or type one on a line and press Enter."
            } else {
                "Type a file path and press Enter, or paste a puzzle in any format (line, grid, seeds, numbers)."
            },
            input,
        ),
        Screen::SaveAs { input } => {
            menus::draw_input(frame, app, body, "Save as", "Name of the save:", input)
        }
        Screen::Settings { sel } => menus::draw_settings(frame, app, area, *sel),
        Screen::Logic { walk } => draw_logic(frame, app, area, walk),
        Screen::WatchMenu { sel } => watch::draw_menu(frame, app, area, *sel),
        Screen::Watch { playback, stopped } => watch::draw(frame, app, area, playback, *stopped),
        Screen::Stats { stats, scroll, .. } => {
            stats::draw(frame, app, area, stats.as_deref(), *scroll)
        }
        Screen::DailyBoard { board } => menus::draw_daily_board(frame, app, body, board.as_deref()),
        Screen::Name { input } => menus::draw_input(
            frame,
            app,
            body,
            "Your name",
            "The name shown for you on the daily board (letters, digits, spaces, - _ .; up to 24):",
            input,
        ),
    }
    let status = Rect {
        height: status.height + extra,
        ..status
    };
    frame.render_widget(
        Paragraph::new(
            rows.into_iter()
                .map(|(text, role)| Line::from(Span::styled(text, s.get(role))))
                .collect::<Vec<_>>(),
        )
        .style(s.get(Role::Status)),
        status,
    );
    match &app.overlay {
        Some(Overlay::Help { scroll }) => draw_help(frame, app, area, *scroll),
        Some(Overlay::Paused) => {
            let lines = vec![
                Line::from("Paused"),
                Line::from(format!(
                    "{} to resume",
                    keys(app, KeyContext::Menu, Command::Confirm)
                )),
            ];
            draw_dialog(frame, app, centered(body, 40, 5), None, lines);
        }
        Some(Overlay::ConfirmSolve) => {
            let lines = vec![
                Line::from("Fill the whole board from the solution?"),
                Line::from("(undo takes it back)"),
                Line::from(format!(
                    "{} solve · {} keep playing",
                    keys(app, KeyContext::Menu, Command::Confirm),
                    keys(app, KeyContext::Menu, Command::Cancel)
                )),
            ];
            draw_dialog(frame, app, centered(body, 46, 5), Some(" Solve "), lines);
        }
        Some(Overlay::ConfirmOverwrite { name }) => {
            let lines = vec![
                Line::from(format!("“{name}” is a save of another game.")),
                Line::from("Replace it with this one?"),
                Line::from(format!(
                    "{} replace · {} keep it",
                    keys(app, KeyContext::Menu, Command::Confirm),
                    keys(app, KeyContext::Menu, Command::Cancel)
                )),
            ];
            draw_dialog(frame, app, centered(body, 56, 5), Some(" Save as "), lines);
        }
        Some(Overlay::Solved {
            secs,
            new_best,
            best,
        }) => {
            let r = centered(body, 44, 7);
            frame.render_widget(Clear, r);
            let mut lines = vec![
                Line::from(Span::styled("Solved!", s.get(Role::Solved))),
                Line::from(format!("time {}", clock(*secs))),
            ];
            if *new_best {
                lines.push(Line::from(Span::styled(
                    "a new best time!",
                    s.get(Role::Solved),
                )));
            } else if let Some(b) = best {
                lines.push(Line::from(format!("best {}", clock(*b))));
            }
            lines.push(Line::from(Span::styled(
                format!(
                    "{} back to the menu",
                    keys(app, KeyContext::Menu, Command::Confirm)
                ),
                s.get(Role::Dim),
            )));
            frame.render_widget(
                Paragraph::new(lines).alignment(Alignment::Center).block(
                    Block::default()
                        .borders(Borders::ALL)
                        .border_style(s.get(Role::Solved)),
                ),
                r,
            );
        }
        None => {}
    }
}

/// What a search for a new game's level is doing: `try 4: digging ·
/// closest so far: hard · 2.3 s of 4 s` (`found: expert` once a puzzle of
/// the level is dug and being graded; `search 2 · …` once the player kept
/// waiting).
fn search_line(search: &Search, asked: crate::engine::Level) -> String {
    let p = &search.progress;
    let mut parts = Vec::new();
    if search.round > 1 {
        parts.push(format!("search {}", search.round));
    }
    parts.push(match (p.tries(), p.stage()) {
        (0, _) | (_, Stage::Starting) => "starting".to_string(),
        (n, Stage::Digging) => format!("try {n}: digging"),
        (n, Stage::Grading) => format!("try {n}: grading"),
    });
    match search.closest(asked) {
        Some(l) if l == asked => parts.push(format!("found: {l}")),
        Some(l) => parts.push(format!("closest so far: {l}")),
        None => {}
    }
    parts.push(format!(
        "{:.1} s of {}",
        search.elapsed.as_secs_f64(),
        seconds(search.budget)
    ));
    parts.join(" · ")
}

/// A time limit as the player reads it: `4 s`, `0.5 s`.
pub(super) fn seconds(d: std::time::Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

/// A small box over the screen with centred lines (pause, questions).
fn draw_dialog(frame: &mut Frame, app: &App, r: Rect, title: Option<&str>, lines: Vec<Line>) {
    let s = &app.styles;
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_style(s.get(Role::BoxBorder));
    if let Some(title) = title {
        block = block.title(title.to_string());
    }
    frame.render_widget(Clear, r);
    frame.render_widget(
        Paragraph::new(lines)
            .alignment(Alignment::Center)
            .block(block)
            .style(s.get(Role::Text)),
        r,
    );
}

fn title_text(app: &App) -> String {
    match (&app.screen, &app.game) {
        (Screen::Stats { .. }, _) => format!(
            "Statistics · {} close · {} {} scroll",
            stats_close_keys(app),
            keys(app, KeyContext::Menu, Command::MoveUp),
            keys(app, KeyContext::Menu, Command::MoveDown),
        ),
        (Screen::Playing, Some(g)) => {
            let meta = super::app::meta(g);
            let level = meta.level.unwrap_or_else(|| "imported".into());
            let notes = if app.note_mode { " · notes" } else { "" };
            // The daily puzzle says so, with its date.
            let daily = super::app::daily_date(g)
                .map(|d| format!("daily {d} · "))
                .unwrap_or_default();
            format!(
                "{daily}{} · {level} · {} · {}/{}{notes}",
                meta.size,
                clock(g.elapsed().as_secs()),
                meta.filled,
                meta.cells
            )
        }
        _ => String::new(),
    }
}

/// `mm:ss` or `h:mm:ss`.
pub fn clock(secs: u64) -> String {
    if secs >= 3600 {
        format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
    } else {
        format!("{:02}:{:02}", secs / 60, secs % 60)
    }
}

/// The keys that close the statistics: cancel, the plain quit keys (as
/// in a pager; Ctrl+C still quits) and the statistics key.
fn stats_close_keys(app: &App) -> String {
    let km = &app.keymap;
    let mut k = km.keys_for(KeyContext::Menu, Command::Cancel);
    k.extend(
        km.keys_for(KeyContext::Menu, Command::Quit)
            .into_iter()
            .filter(|l| !l.starts_with("Ctrl+") && !l.starts_with("Alt+")),
    );
    k.extend(km.keys_for(KeyContext::Menu, Command::Stats));
    if k.is_empty() {
        "(cancel unbound)".into()
    } else {
        k.join("/")
    }
}

/// Key labels less the letters the board in play takes as values: the
/// keys that still do their command here.
fn live(app: &App, mut keys: Vec<String>) -> Vec<String> {
    keys.retain(|label| !app.key_is_value(label));
    keys
}

fn keys(app: &App, mode: KeyContext, cmd: Command) -> String {
    let k = live(app, app.keymap.keys_for(mode, cmd));
    if k.is_empty() {
        format!("({} unbound)", cmd.name())
    } else {
        k.join("/")
    }
}

/// The status line when nothing else is said: a few keys, from the keymap.
fn key_hints(app: &App) -> String {
    let mode = app.key_context();
    if let Some(Overlay::Help { .. }) = app.overlay {
        return format!(
            "{} {} line · {} {} page · {} close",
            keys(app, mode, Command::MoveUp),
            keys(app, mode, Command::MoveDown),
            keys(app, mode, Command::PageUp),
            keys(app, mode, Command::PageDown),
            keys(app, mode, Command::Cancel),
        );
    }
    if let Screen::Watch { .. } = app.screen {
        return watch::WATCH_KEYS
            .iter()
            .map(|&(c, what)| format!("{} {what}", keys(app, mode, c)))
            .collect::<Vec<_>>()
            .join(" · ");
    }
    if let Screen::Logic { .. } = app.screen {
        return LOGIC_KEYS
            .iter()
            .map(|&(c, what)| format!("{} {what}", keys(app, mode, c)))
            .collect::<Vec<_>>()
            .join(" · ");
    }
    if let Screen::Stats { .. } = app.screen {
        return format!(
            "{} {} line · {} {} page · {} back",
            keys(app, mode, Command::MoveUp),
            keys(app, mode, Command::MoveDown),
            keys(app, mode, Command::PageUp),
            keys(app, mode, Command::PageDown),
            stats_close_keys(app),
        );
    }
    let cmds: &[Command] = match (mode, &app.screen) {
        // The help first: when the line is short, the rest is cut, and
        // the help has it all.
        (KeyContext::Board, _) => &[
            Command::Help,
            Command::ToggleNoteMode,
            Command::Undo,
            Command::Hint,
            Command::Quit,
        ],
        (_, Screen::Reading { .. }) => &[Command::Cancel, Command::Help, Command::Quit],
        (_, Screen::NewGame { .. }) => &[
            Command::MoveLeft,
            Command::MoveRight,
            Command::Confirm,
            Command::Cancel,
        ],
        _ => &[
            Command::Help,
            Command::Confirm,
            Command::Cancel,
            Command::Quit,
        ],
    };
    cmds.iter()
        .map(|&c| format!("{} {}", keys(app, mode, c), c.describe()))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The key help over the screen, scrolled to `scroll` (clamped to what
/// the window shows), with where the view is on its bottom border.
fn draw_help(frame: &mut Frame, app: &App, area: Rect, scroll: usize) {
    let s = &app.styles;
    let lines: Vec<Line> = app
        .help_lines()
        .into_iter()
        .map(|line| match line {
            HelpLine::Heading(text) => Line::from(Span::styled(text, s.get(Role::Title))),
            HelpLine::Blank => Line::default(),
            HelpLine::Keys { keys, text } => Line::from(vec![
                Span::styled(format!("{keys:>22}  "), s.get(Role::Entered)),
                Span::styled(text, s.get(Role::Text)),
            ]),
        })
        .collect();
    let len = lines.len();
    let (r, inner) = help_parts(area, len);
    let scroll = scroll.min(help_scroll_max(area, len));
    let mut block = Block::default()
        .borders(Borders::ALL)
        .title(" Keys ")
        .border_style(s.get(Role::BoxBorder));
    if let Some(at) = scroll_title(scroll, usize::from(inner.height), len) {
        block = block.title_bottom(at);
    }
    frame.render_widget(Clear, r);
    frame.render_widget(Paragraph::new(lines[scroll..].to_vec()).block(block), r);
}

/// Where a scrolled view is, for its bottom border (`↑↓ lines 5–20 of
/// 31`), or nothing when all `len` lines are shown.
pub(super) fn scroll_title(scroll: usize, shown: usize, len: usize) -> Option<Line<'static>> {
    if len <= shown {
        return None;
    }
    let last = (scroll + shown).min(len);
    let more = match (scroll > 0, last < len) {
        (true, true) => "↑↓",
        (true, false) => "↑",
        (false, _) => "↓",
    };
    Some(
        Line::from(format!(" {more} lines {}–{last} of {len} ", scroll + 1))
            .alignment(Alignment::Right),
    )
}

/// The logic-solve view's commands and what they do there.
const LOGIC_KEYS: [(Command, &str); 5] = [
    (Command::MoveRight, "next step"),
    (Command::MoveLeft, "step back"),
    (Command::Cancel, "back to the game"),
    (Command::MoveUp, "to the start"),
    (Command::MoveDown, "to the end"),
];

/// The logic-solve view: the position after the steps taken so far, with
/// the next step's units and cells marked, and its explanation beside (or,
/// on a narrow window, on the status line).
fn draw_logic(frame: &mut Frame, app: &App, area: Rect, walk: &LogicWalk) {
    let s = &app.styles;
    let Some(g) = &app.game else {
        return;
    };
    let view = walk.preview(g);
    let parts = play_layout(area, g.shape());
    let mut emphasis = app.emphasis();
    let mut cursor = app.cursor;
    if let Some(step) = walk.next() {
        emphasis.show_step(step, true);
        // The cursor goes to the placement, else the step's first cell.
        let first = step.placements.first().map(|&(c, _)| c).or_else(|| {
            step.highlights
                .cells
                .iter()
                .chain(step.eliminations.iter().map(|(c, _)| c))
                .min()
                .copied()
        });
        if let Some(first) = first {
            cursor = first;
        }
    }
    frame.render_widget(
        BoardView {
            game: &view,
            cursor,
            styles: s,
            emphasis: &emphasis,
        },
        parts.board,
    );
    // The step's cells, magnified with every candidate by its part.
    let focus = walk.next().map(Focus::of_step);
    let zoomed = ZoomView {
        game: &view,
        cursor,
        styles: s,
        emphasis: &emphasis,
        focus: focus.as_ref(),
    };
    // The step's text comes before the magnifier: it keeps the lines the
    // whole text needs above it, else those of its start and conclusion
    // (see `fit_text`); where even that leaves no room for a magnifier,
    // there is none and the text has the panel (the board marks the
    // step's cells and chain too).
    let width = parts.panel.map_or(1, |p| p.width.saturating_sub(1).max(1));
    let legend = legend(app, &emphasis);
    let rows = |line: &Line| line_rows(line, width);
    let titled = walk
        .next()
        .map(|step| title_and_text(step.technique.name(), &step.explanation));
    let text_rows = |explanation: fn(&str, u16) -> usize| {
        titled.map_or(0, |(title, text)| {
            1 + wrap(title, width).len()
                + explanation(text, width)
                + legend.as_ref().map_or(0, rows)
        })
    };
    let whole = zoom::text_keep(text_rows(|t, w| wrap(t, w).len()));
    let short = zoom::text_keep(text_rows(fit_text_min));
    // The most text that leaves a magnifier with every cell of the step,
    // else the most that leaves one at all.
    let plans = [whole, short, PANEL_TEXT_MIN].map(|keep| {
        let plan = zoom::placement(&zoomed, &parts, true, keep)
            .0
            .and_then(|r| zoomed.plan(r));
        (keep, plan)
    });
    let whole_list = |p: &ZoomPlan| !matches!(p, ZoomPlan::List(l) if l.more() > 0);
    let (keep, plan) = plans
        .iter()
        .find(|(_, p)| p.as_ref().is_some_and(whole_list))
        .or_else(|| plans.iter().find(|(_, p)| p.is_some()))
        .cloned()
        .unwrap_or((whole, None));
    // Kept as the play view keeps it, for what reads the magnifier drawn.
    *app.zoomed.borrow_mut() = plan;
    let Some(panel) = zoom::draw(frame, zoomed, &parts, true, keep) else {
        return;
    };
    let total = walk.steps().len();
    let step_of = Line::from(Span::styled(
        format!("step {} of {total}", (walk.at() + 1).min(total)),
        s.get(Role::Dim),
    ));
    // With the magnifier below, the title goes: the step's text first.
    let mut lines = if Some(panel) == parts.panel {
        vec![
            Line::from(Span::styled("Logic solve", s.get(Role::Title))),
            step_of,
            Line::default(),
        ]
    } else {
        vec![step_of]
    };
    match titled {
        Some((title, text)) => {
            lines.push(Line::from(Span::styled(title, s.get(Role::HintTarget))));
            // What the panel has left for the explanation: a long one keeps
            // its start and its conclusion (the contradiction and `=> …`).
            let used = lines.iter().map(rows).sum::<usize>() + legend.as_ref().map_or(0, rows);
            let room = usize::from(panel.height).saturating_sub(used).max(1);
            for line in fit_text(text, width, room) {
                lines.push(Line::from(Span::styled(line, s.get(Role::Text))));
            }
            lines.extend(legend);
        }
        None => lines.push(Line::from(Span::styled("Solved.", s.get(Role::HintTarget)))),
    }
    lines.push(Line::default());
    for &(cmd, what) in &LOGIC_KEYS {
        lines.push(key_line(app, KeyContext::Menu, cmd, what));
    }
    draw_panel(frame, app, lines, panel);
}

/// What the marks on the board mean, each word in its mark's style: the
/// tints of a fish's base and cover lines, the chain order, and the role
/// of every kind of candidate the hint or step shows (so the styles read
/// even without colour, where they differ only by bold, underline and
/// reverse). None when the board shows none of them.
fn legend(app: &App, e: &Emphasis) -> Option<Line<'static>> {
    let s = &app.styles;
    let mut marks: Vec<Role> = Vec::new();
    for &(_, r) in &e.hint_units {
        let role = unit_role(r);
        if role != Role::Hint && !marks.contains(&role) {
            marks.push(role);
        }
    }
    if !e.chain.is_empty() {
        marks.push(Role::ChainOrder);
    }
    let mut kinds: Vec<Role> = e
        .candidates
        .iter()
        .map(|&(_, _, r)| candidate_role(r))
        .collect();
    kinds.sort_unstable();
    kinds.dedup();
    marks.extend(kinds);
    if marks.is_empty() {
        return None;
    }
    let word = |r: Role| match r {
        Role::UnitBase => "b base",
        Role::UnitCover => "c cover",
        Role::ChainOrder => "chain order",
        Role::Eliminated => "removed",
        Role::Placed => "placed",
        Role::Fin => "fin",
        Role::EndoFin => "endo-fin",
        Role::ChainOn => "on",
        Role::ChainOff => "off",
        Role::ColourA => "colour 1",
        Role::ColourB => "colour 2",
        Role::ColourC => "colour 3",
        Role::ColourD => "colour 4",
        Role::SetA => "set A",
        Role::SetB => "set B",
        Role::SetC => "set C",
        Role::SetD => "set D",
        _ => "pattern",
    };
    let mut spans = Vec::new();
    for r in marks {
        if !spans.is_empty() {
            spans.push(Span::styled(" · ", s.get(Role::Dim)));
        }
        spans.push(Span::styled(word(r), s.get(r)));
    }
    Some(Line::from(spans))
}

/// A panel line: the keys bound to `cmd` and what it does.
fn key_line(app: &App, mode: KeyContext, cmd: Command, what: &'static str) -> Line<'static> {
    let s = &app.styles;
    Line::from(vec![
        Span::styled(
            format!("{:<8} ", keys(app, mode, cmd)),
            s.get(Role::Entered),
        ),
        Span::styled(what, s.get(Role::Dim)),
    ])
}

/// The side panel beside the board.
fn draw_panel(frame: &mut Frame, app: &App, lines: Vec<Line<'_>>, panel: Rect) {
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: true }).block(
            Block::default()
                .borders(Borders::LEFT)
                .border_style(app.styles.get(Role::CellBorder)),
        ),
        panel,
    );
}

fn draw_play(frame: &mut Frame, app: &App, area: Rect) {
    let s = &app.styles;
    let Some(g) = &app.game else {
        return;
    };
    let parts = play_layout(area, g.shape());
    if app.overlay == Some(Overlay::Paused) {
        return;
    }
    let emphasis = app.emphasis();
    frame.render_widget(
        BoardView {
            game: g,
            cursor: app.cursor,
            styles: s,
            emphasis: &emphasis,
        },
        parts.board,
    );
    // The cursor's box magnified; a hint's cells once it shows them.
    let focus = app
        .hint
        .as_ref()
        .filter(|h| h.stage >= 2)
        .map(|h| Focus::of_hint(&h.hint, g));
    let zoomed = ZoomView {
        game: g,
        cursor: app.cursor,
        styles: s,
        emphasis: &emphasis,
        focus: focus.as_ref(),
    };
    let wanted = focus.is_some() || zoom::has_notes(g);
    // A hint's text is on the status line too: the panel keeps the start.
    let keep = if focus.is_some() { PANEL_TEXT_MIN } else { 0 };
    app.digit_panel.set(None);
    *app.zoomed.borrow_mut() = zoom::placement(&zoomed, &parts, wanted, keep)
        .0
        .and_then(|r| zoomed.plan(r));
    let Some(panel) = zoom::draw(frame, zoomed, &parts, wanted, keep) else {
        return;
    };
    // With the magnifier below, the panel keeps what the title line does
    // not say (time and progress are there), the hint first.
    let short = Some(panel) != parts.panel;
    let (filled, cells) = g.progress();
    let label = |t: &str| Span::styled(format!("{t:<9}"), s.get(Role::Dim));
    let counts = [
        Line::from(vec![
            label("time"),
            Span::styled(clock(g.elapsed().as_secs()), s.get(Role::Text)),
        ]),
        Line::from(vec![
            label("filled"),
            Span::raw(format!("{filled}/{cells}")),
        ]),
        Line::from(vec![label("moves"), Span::raw(g.moves().to_string())]),
        Line::from(vec![label("hints"), Span::raw(g.hints_used().to_string())]),
    ];
    let mut lines = if short { Vec::new() } else { counts.to_vec() };
    lines.extend([
        Line::from(vec![
            label("mode"),
            Span::styled(
                if app.note_mode { "notes" } else { "values" },
                if app.note_mode {
                    s.get(Role::Candidate)
                } else {
                    s.get(Role::Entered)
                },
            ),
        ]),
        Line::from(vec![label("cell"), Span::raw(g.cell_name(app.cursor))]),
    ]);
    let notes: Vec<String> = g.notes(app.cursor).iter().map(|v| g.symbol(v)).collect();
    if !notes.is_empty() {
        lines.push(Line::from(vec![
            label("notes"),
            Span::styled(notes.join(" "), s.get(Role::Candidate)),
        ]));
    }
    if !app.typed.value().is_empty() {
        lines.push(Line::from(vec![
            label("typing"),
            Span::styled(format!("{}_", app.typed.value()), s.get(Role::Entered)),
        ]));
    }
    if let Some(h) = &app.hint {
        // Under the magnifier the panel is short: the status line below
        // the board holds the whole text, the panel the name and legend.
        let text = if h.stage >= 2 && !short {
            h.hint.explain(g)
        } else {
            h.hint.title()
        };
        let hint = Line::from(Span::styled(text, s.get(Role::HintTarget)));
        if short {
            lines.insert(0, Line::default());
            for (k, line) in legend(app, &emphasis).into_iter().enumerate() {
                lines.insert(k, line);
            }
            lines.insert(0, hint);
        } else {
            lines.push(Line::default());
            lines.push(hint);
            lines.extend(legend(app, &emphasis));
        }
    }
    lines.push(Line::default());
    for cmd in [
        Command::ToggleNoteMode,
        Command::Undo,
        Command::Redo,
        Command::Hint,
        Command::Check,
        Command::FillNotes,
        Command::Help,
    ] {
        lines.push(key_line(app, KeyContext::Board, cmd, cmd.describe()));
    }
    let chips = if app.config.play.mouse {
        digit_bar(panel, g.shape().n())
    } else {
        Vec::new()
    };
    app.digit_panel.set((!chips.is_empty()).then_some(panel));
    // The text above the digit bar (a blank line between).
    let text = match chips.first() {
        Some((first, _)) => Rect {
            height: first.y.saturating_sub(panel.y + 1),
            ..panel
        },
        None => panel,
    };
    draw_panel(frame, app, lines, text);
    if !chips.is_empty() {
        // The panel's left border goes on beside the bar.
        let rest = Rect::new(
            panel.x,
            text.y + text.height,
            panel.width,
            (panel.y + panel.height).saturating_sub(text.y + text.height),
        );
        frame.render_widget(
            Block::default()
                .borders(Borders::LEFT)
                .border_style(s.get(Role::CellBorder)),
            rest,
        );
    }
    draw_digit_bar(frame, app, g, &chips);
}

/// The digit bar for the mouse: click a cell, then a value (a note in note
/// mode), "clear" or "notes".
fn draw_digit_bar(frame: &mut Frame, app: &App, g: &crate::game::Game, chips: &[(Rect, Chip)]) {
    let s = &app.styles;
    let value_style = if app.note_mode {
        s.get(Role::Candidate)
    } else {
        s.get(Role::Entered)
    };
    for &(r, chip) in chips {
        let (text, style) = match chip {
            Chip::Value(v) => (
                crate::engine::Value::new(v).map_or_else(String::new, |v| g.symbol(v)),
                value_style,
            ),
            Chip::Clear => ("clear".to_string(), s.get(Role::Dim)),
            Chip::NoteMode => (
                if app.note_mode { "values" } else { "notes" }.to_string(),
                s.get(Role::Dim),
            ),
        };
        frame.render_widget(Paragraph::new(Span::styled(text, style)), r);
    }
}
