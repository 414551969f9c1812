//! Drawing the board: one full frame into a ratatui `Buffer` (reset, then
//! rendered, as a terminal frame would), for a 25×25 with natural notes in
//! every empty cell and for a 9×9 in the board area of an 80×24 terminal.
//!
//! Run with `cargo bench --bench render -- --warm-up-time 1 --measurement-time 3`.
#![allow(missing_docs, clippy::unwrap_used)]

#[cfg(feature = "tui")]
mod frames {
    use std::hint::black_box;

    use criterion::Criterion;
    use dekadoku::engine::{Puzzle, Shape, Value};
    use dekadoku::game::{Game, Origin};
    use dekadoku::tui::app::Emphasis;
    use dekadoku::tui::layout::{Geometry, NotesMode};
    use dekadoku::tui::style::Styles;
    use dekadoku::tui::ui::board::BoardView;
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::widgets::Widget;

    /// A game of `shape`: a valid grid with every cell where row + column
    /// is odd blanked, each blank holding up to `notes` notes.
    fn game(shape: Shape, notes: usize) -> Game {
        let (n, br, bc) = (shape.n(), shape.box_rows(), shape.box_cols());
        let numbers: Vec<usize> = (0..shape.cells())
            .map(|c| {
                let (r, col) = (c / n, c % n);
                if (r + col) % 2 == 1 {
                    0
                } else {
                    ((r % br) * bc + r / br + col) % n + 1
                }
            })
            .collect();
        let puzzle = Puzzle::from_numbers(shape, &numbers).unwrap();
        let mut g = Game::new(&puzzle, None, Origin::default());
        for c in (0..shape.cells()).filter(|&c| numbers[c] == 0) {
            for k in 0..notes {
                let v = Value::from_index((c + 7 * k) % n);
                if !g.has_note(c, v) {
                    g.toggle_note(c, v);
                }
            }
        }
        g
    }

    fn frame(c: &mut Criterion, name: &str, g: &Game, area: Rect, mode: NotesMode) {
        let cursor = g.shape().cells() / 2;
        assert_eq!(Geometry::new(g.shape(), area, cursor).notes_mode(), mode);
        let styles = Styles::basic();
        let emphasis = Emphasis::default();
        let mut buf = Buffer::empty(area);
        c.bench_function(name, |b| {
            b.iter(|| {
                buf.reset();
                BoardView {
                    game: black_box(g),
                    cursor,
                    styles: &styles,
                    emphasis: &emphasis,
                }
                .render(area, &mut buf);
                black_box(&buf);
            })
        });
    }

    pub fn render(c: &mut Criterion) {
        let big = game(Shape::square(5).unwrap(), 8);
        // Natural notes for 25×25 need 301×151 cells.
        let area = Rect::new(0, 0, 310, 160);
        frame(
            c,
            "board 25x25 natural 310x160",
            &big,
            area,
            NotesMode::Natural,
        );
        let area = Rect::new(0, 0, 55, 22);
        frame(c, "board 25x25 tight 55x22", &big, area, NotesMode::Hidden);
        let nine = game(Shape::CLASSIC, 4);
        frame(
            c,
            "board 9x9 compact 55x22",
            &nine,
            area,
            NotesMode::Compact,
        );
        let area = Rect::new(0, 0, 160, 60);
        frame(
            c,
            "board 9x9 natural 160x60",
            &nine,
            area,
            NotesMode::Natural,
        );
    }
}

/// A key press to the next frame: `App::update` with the key, then the
/// whole screen drawn (board, panel, status) into a test terminal, as the
/// runner does after each wake-up.
#[cfg(feature = "tui")]
mod keys {
    use std::hint::black_box;

    use criterion::Criterion;
    use dekadoku::engine::{Puzzle, Shape};
    use dekadoku::game::{Game, Origin};
    use dekadoku::store::Config;
    use dekadoku::tui::action::{Action, Loaded};
    use dekadoku::tui::app::App;
    use dekadoku::tui::keymap::Keymap;
    use dekadoku::tui::style::Styles;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    fn app(shape: Shape) -> App {
        let mut a = App::new(Config::default(), Styles::basic(), Keymap::defaults(), 1);
        let p = Puzzle::empty(shape);
        a.update(Action::Loaded(Loaded::Game(Box::new(Game::new(
            &p,
            None,
            Origin::default(),
        )))));
        a
    }

    pub fn key_to_frame(c: &mut Criterion) {
        for (name, shape, w, h) in [
            ("key to frame 9x9 80x24", Shape::CLASSIC, 80, 24),
            (
                "key to frame 25x25 80x24",
                Shape::square(5).unwrap(),
                80,
                24,
            ),
            (
                "key to frame 25x25 200x60",
                Shape::square(5).unwrap(),
                200,
                60,
            ),
        ] {
            let mut a = app(shape);
            a.update(Action::Resize(w, h));
            let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
            let mut right = true;
            c.bench_function(name, |b| {
                b.iter(|| {
                    // Move right and back, so each frame differs.
                    let code = if right { KeyCode::Right } else { KeyCode::Left };
                    right = !right;
                    a.update(Action::Key(KeyEvent::new(code, KeyModifiers::NONE)));
                    t.draw(|f| dekadoku::tui::ui::draw(f, black_box(&a)))
                        .unwrap();
                })
            });
        }
    }
}

#[cfg(feature = "tui")]
criterion::criterion_group!(benches, frames::render, keys::key_to_frame);
#[cfg(feature = "tui")]
criterion::criterion_main!(benches);

/// Without the `tui` feature there is nothing to draw.
#[cfg(not(feature = "tui"))]
fn main() {}
