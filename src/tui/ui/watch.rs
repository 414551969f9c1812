//! The solver view: the choice of solver, then the board as the playback
//! shows it (the cell tried in its colour, a backtrack in another,
//! candidates as notes) with the counters and the last step beside it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::engine::{Cell, Shape, Value};
use crate::game::NoteSet;
use crate::tui::action::Command;
use crate::tui::app::App;
use crate::tui::keymap::KeyContext;
use crate::tui::playback::{Focus, Phase, Playback, WatchSolver};
use crate::tui::style::Role;

use super::board::BoardView;
use super::{SPINNER, clock, draw_panel, fit_text, key_line, keys, line_rows};
use crate::tui::layout::{play_parts, watch_menu_rect};

/// The solver view's keys and what they do there.
/// (Most needed first: a short status line keeps the first ones.)
pub(super) const WATCH_KEYS: [(Command, &str); 8] = [
    (Command::Pause, "pause / resume"),
    (Command::Cancel, "stop"),
    (Command::MoveRight, "step"),
    (Command::MoveLeft, "step back"),
    (Command::MoveUp, "faster"),
    (Command::MoveDown, "slower"),
    (Command::Finish, "jump to the end"),
    (Command::Confirm, "keep this board"),
];

/// The list of solvers to watch.
pub(super) fn draw_menu(frame: &mut Frame, app: &App, area: Rect, sel: WatchSolver) {
    let s = &app.styles;
    let mut lines = vec![
        Line::from(Span::styled("Watch a solver", s.get(Role::Title))),
        Line::from(Span::styled(
            "Pick one: it works on this puzzle's givens, step by step.",
            s.get(Role::Dim),
        )),
        Line::default(),
    ];
    for w in WatchSolver::all() {
        let style = if w == sel {
            s.get(Role::Selected)
        } else {
            s.get(Role::Text)
        };
        lines.push(Line::from(Span::styled(
            format!("  {}  ", w.label()),
            style,
        )));
    }
    lines.push(Line::default());
    lines.push(Line::from(Span::styled(
        format!(
            "{} start · {} back",
            keys(app, KeyContext::Menu, Command::Confirm),
            keys(app, KeyContext::Menu, Command::Cancel)
        ),
        s.get(Role::Dim),
    )));
    let area = watch_menu_rect(area, WatchSolver::all().len());
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
}

fn name(shape: Shape, c: usize) -> String {
    Cell::from_index(shape, c).to_string()
}

fn symbol(shape: Shape, v: Value) -> String {
    crate::game::symbol(shape.n(), v)
}

/// What just happened, in words.
pub(super) fn focus_text(pb: &Playback) -> String {
    let shape = pb.shown.shape();
    match pb.shown.focus {
        Focus::None => "starting".into(),
        Focus::Try(c, v) => format!("trying {} = {}", name(shape, c), symbol(shape, v)),
        Focus::Place(c, v) => format!("placed {} = {}", name(shape, c), symbol(shape, v)),
        Focus::Remove(c, v) => format!("removed {} from {}", symbol(shape, v), name(shape, c)),
        Focus::Backtrack(c, v) => {
            format!("backtrack: {} ≠ {}", name(shape, c), symbol(shape, v))
        }
        Focus::Contradiction => "dead end".into(),
        Focus::Restart => "restart: back to the root".into(),
        Focus::Solved => "a solution".into(),
    }
}

/// Where the playback stands, in words.
pub(super) fn state_text(app: &App, pb: &Playback, stopped: bool) -> String {
    if stopped {
        return "stopped".into();
    }
    match pb.phase {
        Phase::Finishing => format!(
            "{} jumping to the end…",
            SPINNER[app.spinner % SPINNER.len()]
        ),
        Phase::Done => match &pb.finished {
            Some(f) => match (f.solutions.len(), &f.stopped) {
                (_, Some(why)) => why.to_string(),
                (0, None) => "no solution".into(),
                (1, None) if f.exhausted => "solved: the solution is unique".into(),
                (1, None) => "solved".into(),
                _ => "solved: more than one solution".into(),
            },
            None => "done".into(),
        },
        Phase::Playing if pb.paused => "paused".into(),
        Phase::Playing => format!("playing · {} events/s", pb.rate()),
    }
}

/// The board shown and its panel.
pub(super) fn draw(frame: &mut Frame, app: &App, area: Rect, pb: &Playback, stopped: bool) {
    let s = &app.styles;
    let Some(g) = &app.game else {
        return;
    };
    let shown = &pb.shown;
    let shape = g.shape();
    // The playback keeps candidates in a note set's own layout.
    let view = g.preview(&shown.values, |c| {
        NoteSet(shown.candidate_words(c).to_vec())
    });
    let mut emphasis = app.emphasis();
    emphasis.peers = false;
    emphasis.same_digit = false;
    let mut cursor = app.cursor;
    match shown.focus {
        Focus::Try(c, _) | Focus::Place(c, _) | Focus::Remove(c, _) => {
            emphasis.solver_try = Some(c);
            cursor = c;
        }
        Focus::Backtrack(c, _) => {
            emphasis.solver_backtrack = Some(c);
            cursor = c;
        }
        _ => {}
    }
    if let (Some(step), true) = (&shown.step, pb.solver == WatchSolver::Logic) {
        emphasis.show_step(step, true);
    }
    let (board, panel) = play_parts(area, shape);
    frame.render_widget(
        BoardView {
            game: &view,
            cursor,
            styles: s,
            emphasis: &emphasis,
        },
        board,
    );
    let Some(panel) = panel else {
        return;
    };
    let c = &shown.counters;
    let elapsed = pb
        .finished
        .as_ref()
        .map_or(pb.elapsed, |f| f.elapsed.max(pb.elapsed));
    let dim = s.get(Role::Dim);
    let text = s.get(Role::Text);
    let mut lines = vec![
        Line::from(Span::styled(pb.solver.label(), s.get(Role::Title))),
        Line::from(Span::styled(state_text(app, pb, stopped), text)),
        Line::default(),
        Line::from(Span::styled(
            format!("depth {} (deepest {})", shown.depth(), shown.max_depth),
            text,
        )),
        Line::from(Span::styled(
            format!("nodes {} · backtracks {}", c.nodes, c.backtracks),
            text,
        )),
        Line::from(Span::styled(
            format!("propagations {}", c.propagations),
            text,
        )),
        Line::from(Span::styled(
            format!("events {} · {}", pb.position(), clock(elapsed.as_secs())),
            dim,
        )),
        Line::default(),
    ];
    let focus_style = match shown.focus {
        Focus::Backtrack(..) | Focus::Contradiction => s.get(Role::SolverBacktrack),
        _ => s.get(Role::SolverTry),
    };
    lines.push(Line::from(Span::styled(focus_text(pb), focus_style)));
    let mut foot = vec![Line::default()];
    for &(cmd, what) in WATCH_KEYS.iter().filter(|(c, _)| *c != Command::Cancel) {
        foot.push(key_line(app, KeyContext::Menu, cmd, what));
    }
    let esc = if stopped || pb.phase == Phase::Done {
        "back to your board"
    } else {
        "stop"
    };
    foot.push(key_line(app, KeyContext::Menu, Command::Cancel, esc));
    if let Some(step) = &shown.step {
        let (title, explanation) = super::title_and_text(step.technique.name(), &step.explanation);
        lines.push(Line::from(Span::styled(title, s.get(Role::HintTarget))));
        // What the panel has left between the counters and the keys: a
        // long explanation keeps its start and its conclusion.
        let width = panel.width.saturating_sub(1).max(1);
        let used: usize = lines.iter().chain(&foot).map(|l| line_rows(l, width)).sum();
        let room = usize::from(panel.height).saturating_sub(used).max(1);
        for line in fit_text(explanation, width, room) {
            lines.push(Line::from(Span::styled(line, text)));
        }
    }
    lines.extend(foot);
    draw_panel(frame, app, lines, panel);
}

/// The status line when there is no panel: the state, the counters and
/// what just happened, in one line.
pub(super) fn status_line(app: &App, pb: &Playback, stopped: bool) -> String {
    let c = &pb.shown.counters;
    format!(
        "{} · depth {} · nodes {} · backtracks {} · {}",
        state_text(app, pb, stopped),
        pb.shown.depth(),
        c.nodes,
        c.backtracks,
        focus_text(pb)
    )
}
