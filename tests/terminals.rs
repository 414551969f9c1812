//! The board on the terminals people use: `TERM=linux`, `TERM=xterm` (16
//! colours), `TERM=xterm-256color`, `COLORTERM=truecolor` and `NO_COLOR=1`.
//! Each time the styles are chosen as the game chooses them (colour depth
//! from the environment, the configured theme, no colour when asked), a
//! board with a given, a correct entry and a conflicting entry is drawn
//! into a `TestBackend`, and the three must look different, by colour or,
//! without colour, by bold and underline; no colour the terminal cannot
//! show may appear.
#![cfg(feature = "tui")]
#![allow(clippy::unwrap_used)]

use dekadoku::engine::{Limits, NoTrace, Outcome, Puzzle, Shape, solve};
use dekadoku::game::{Game, Origin};
use dekadoku::store::{ColorDepth, Config, Themes};
use dekadoku::tui::action::{Action, Loaded};
use dekadoku::tui::app::App;
use dekadoku::tui::keymap::Keymap;
use dekadoku::tui::layout::Geometry;
use dekadoku::tui::style::Styles;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};

/// The look of a drawn digit: colours and modifiers.
type Look = (Option<Color>, Option<Color>, Modifier);

fn look_of_digit(buf: &Buffer, r: Rect) -> Look {
    for y in r.y..r.y + r.height {
        for x in r.x..r.x + r.width {
            let cell = &buf[(x, y)];
            if cell
                .symbol()
                .trim()
                .chars()
                .any(|c| c.is_ascii_alphanumeric())
            {
                let st = cell.style();
                return (st.fg, st.bg, st.add_modifier);
            }
        }
    }
    panic!("no digit drawn in {r:?}");
}

#[test]
fn given_entry_and_conflict_read_apart_on_every_terminal() {
    let shape = Shape::square(3).unwrap();
    // A valid 9×9 puzzle: the first row blank, the rest given.
    let Outcome::Multiple(grid, _) = solve(&Puzzle::empty(shape), &Limits::none(), &mut NoTrace)
    else {
        panic!()
    };
    let puzzle = Puzzle::new(
        shape,
        (0..81).map(|c| (c >= 9).then(|| grid.get(c))).collect(),
    )
    .unwrap();
    let (given, entry, conflict) = (40, 0, 1);
    let env_sets: &[&[(&str, &str)]] = &[
        &[("TERM", "linux")],
        &[("TERM", "xterm")],
        &[("TERM", "xterm-256color")],
        &[("TERM", "xterm-256color"), ("COLORTERM", "truecolor")],
        &[("TERM", "xterm-256color"), ("NO_COLOR", "1")],
    ];
    let config = Config::default();
    let themes = Themes::bundled();
    for vars in env_sets {
        let env = |k: &str| {
            vars.iter()
                .find(|(name, _)| *name == k)
                .map(|(_, v)| v.to_string())
        };
        // No terminfo entries: the names alone decide, on any machine.
        let depth = ColorDepth::detect(env, |_| None);
        let theme = themes.pick(&config.theme, depth);
        let styles = Styles::for_terminal(theme, depth, env);
        let mut app = App::new(config.clone(), styles, Keymap::defaults(), 1);
        app.config.play.highlight_peers = false;
        app.config.play.highlight_same_digit = false;
        let mut game = Game::new(&puzzle, Some(grid.clone()), Origin::default());
        game.enter(entry, grid.get(entry), false);
        // The given of r2c2 again in r1c2: a conflict in the column.
        game.enter(conflict, grid.get(10), false);
        app.update(Action::Loaded(Loaded::Game(Box::new(game))));
        app.cursor = 80;
        let (w, h) = (100, 40);
        let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
        t.draw(|f| dekadoku::tui::ui::draw(f, &app)).unwrap();
        let buf = t.backend().buffer().clone();
        let board = dekadoku::tui::layout::board_area(Rect::new(0, 0, w, h), shape);
        let geo = Geometry::new(shape, board, app.cursor);
        let look = |c: usize| look_of_digit(&buf, geo.cell_rect(c).unwrap());
        let (g, e, x) = (look(given), look(entry), look(conflict));
        assert_ne!(g, e, "{vars:?}: given and entry look alike");
        assert_ne!(e, x, "{vars:?}: entry and conflict look alike");
        assert_ne!(g, x, "{vars:?}: given and conflict look alike");
        let colours: Vec<Color> = buf
            .content()
            .iter()
            .flat_map(|c| [c.fg, c.bg])
            .filter(|&c| c != Color::Reset)
            .collect();
        let no_color = env("NO_COLOR").is_some();
        match depth {
            _ if no_color => assert!(colours.is_empty(), "{vars:?}: {:?}", colours[0]),
            ColorDepth::Basic16 => assert!(
                colours
                    .iter()
                    .all(|c| !matches!(c, Color::Indexed(_) | Color::Rgb(..))),
                "{vars:?}: a colour beyond the sixteen"
            ),
            ColorDepth::Ansi256 => assert!(
                colours.iter().all(|c| !matches!(c, Color::Rgb(..))),
                "{vars:?}: a 24-bit colour"
            ),
            ColorDepth::TrueColor => {}
        }
        if no_color {
            // Without colour the modifiers carry it.
            assert!(g.2.contains(Modifier::BOLD), "{vars:?}");
            assert!(x.2.contains(Modifier::UNDERLINED), "{vars:?}");
            assert!(!e.2.contains(Modifier::BOLD), "{vars:?}");
        }
    }
}
