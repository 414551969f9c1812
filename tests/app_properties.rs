//! Arbitrary key sequences, resizes (down to sizes too small to draw),
//! ticks and clicks through `App::update`, drawing after each: nothing
//! panics, the givens never change, the conflicts the board shows are the
//! conflicts the game computes, and undo then redo gives back the same
//! board. Jobs the app asks for are not run (the worker is another
//! thread); their results are tested elsewhere.
#![cfg(feature = "tui")]
#![allow(clippy::unwrap_used)]

use std::time::Duration;

use dekadoku::engine::{Limits, NoTrace, Outcome, Puzzle, Shape, solve};
use dekadoku::game::{Game, Origin};
use dekadoku::store::Config;
use dekadoku::tui::action::{Action, Loaded};
use dekadoku::tui::app::{App, Screen};
use dekadoku::tui::keymap::Keymap;
use dekadoku::tui::layout::Geometry;
use dekadoku::tui::style::Styles;
use proptest::prelude::*;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::Color;

fn game(shape: Shape) -> Game {
    let Outcome::Multiple(grid, _) = solve(&Puzzle::empty(shape), &Limits::none(), &mut NoTrace)
    else {
        panic!()
    };
    // Every third cell given.
    let p = Puzzle::new(
        shape,
        (0..shape.cells())
            .map(|c| (c % 3 == 0).then(|| grid.get(c)))
            .collect(),
    )
    .unwrap();
    Game::new(&p, Some(grid), Origin::default())
}

fn action() -> impl Strategy<Value = Action> {
    let keys = prop::sample::select(vec![
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Enter,
        KeyCode::Esc,
        KeyCode::Backspace,
        KeyCode::Delete,
        KeyCode::Tab,
        KeyCode::F(2),
        KeyCode::F(5),
        KeyCode::F(8),
    ]);
    // Letters and digits the bindings use, but not q (quit).
    let chars = prop::sample::select(
        "0123456789ABCDEFGhjklnuUfFcSiLvpe? "
            .chars()
            .collect::<Vec<char>>(),
    );
    prop_oneof![
        4 => chars.prop_map(|c| {
            let m = if c.is_ascii_uppercase() { KeyModifiers::SHIFT } else { KeyModifiers::NONE };
            Action::Key(KeyEvent::new(KeyCode::Char(c), m))
        }),
        3 => keys.prop_map(|k| Action::Key(KeyEvent::new(k, KeyModifiers::NONE))),
        1 => (0u16..140, 0u16..50).prop_map(|(w, h)| Action::Resize(w, h)),
        1 => (0u64..3000).prop_map(|ms| Action::Tick(Duration::from_millis(ms))),
        1 => (0u16..140, 0u16..50).prop_map(|(x, y)| Action::Click { x, y }),
    ]
}

/// The board as the player sees it: values and notes.
fn board(g: &Game) -> Vec<(Option<u16>, Vec<u64>)> {
    (0..g.shape().cells())
        .map(|c| (g.value(c).map(|v| v.get() as u16), g.notes(c).0))
        .collect()
}

/// Draws the app and checks that every shown digit is in the conflict
/// colour exactly when the game says it conflicts.
fn check_drawn_conflicts(app: &App) {
    let (w, h) = app.size;
    let (w, h) = (w.max(1), h.max(1));
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| dekadoku::tui::ui::draw(f, app)).unwrap();
    let Some(g) = &app.game else {
        return;
    };
    let drawn = matches!(app.screen, Screen::Playing)
        && app.overlay.is_none()
        && w >= dekadoku::tui::layout::MIN_SIZE.0
        && h >= dekadoku::tui::layout::MIN_SIZE.1;
    if !drawn {
        return;
    }
    let conflict = app.styles.get(dekadoku::tui::style::Role::Conflict).fg;
    let buf = t.backend().buffer();
    let area = dekadoku::tui::layout::board_area(Rect::new(0, 0, w, h), g.shape());
    let geo = Geometry::new(g.shape(), area, app.cursor);
    let computed = g.conflicts();
    for c in 0..g.shape().cells() {
        if g.value(c).is_none() || g.is_marked_wrong(c) {
            continue;
        }
        let Some(r) = geo.cell_rect(c) else {
            continue;
        };
        let digit = (r.y..r.y + r.height)
            .flat_map(|y| (r.x..r.x + r.width).map(move |x| (x, y)))
            .map(|(x, y)| &buf[(x, y)])
            .find(|cell| cell.symbol().chars().any(|ch| ch.is_ascii_alphanumeric()));
        let Some(cell) = digit else {
            continue;
        };
        let shown = Some(cell.fg) == conflict && conflict != Some(Color::Reset);
        assert_eq!(shown, computed.cells[c], "cell {c}: conflict shown {shown}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_input_never_breaks_the_game(
        big in any::<bool>(),
        actions in prop::collection::vec(action(), 0..150),
    ) {
        let shape = if big { Shape::CLASSIC } else { Shape::new(2, 3).unwrap() };
        let start = game(shape);
        let givens = start.puzzle();
        let mut app = App::new(Config::default(), Styles::basic(), Keymap::defaults(), 3);
        app.update(Action::Resize(100, 30));
        app.update(Action::Loaded(Loaded::Game(Box::new(start))));
        for a in actions {
            app.update(a);
            if let Some(g) = &app.game {
                prop_assert_eq!(g.puzzle(), givens.clone(), "the givens changed");
            }
            check_drawn_conflicts(&app);
            if app.is_quitting() {
                break;
            }
        }
        // Undo then redo is the identity, from wherever the sequence ended.
        if let Some(g) = &mut app.game {
            let before = board(g);
            if g.undo().is_some() {
                prop_assert!(g.redo().is_some());
                prop_assert_eq!(board(g), before);
            }
        }
    }
}
