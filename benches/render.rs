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
    use dekadoku::tui::style::Styles;
    use dekadoku::tui::ui::board::{BoardView, Geometry, Highlights, NotesMode};
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
        let highlights = Highlights::default();
        let mut buf = Buffer::empty(area);
        c.bench_function(name, |b| {
            b.iter(|| {
                buf.reset();
                BoardView {
                    game: black_box(g),
                    cursor,
                    styles: &styles,
                    highlights: &highlights,
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

#[cfg(feature = "tui")]
criterion::criterion_group!(benches, frames::render);
#[cfg(feature = "tui")]
criterion::criterion_main!(benches);

/// Without the `tui` feature there is nothing to draw.
#[cfg(not(feature = "tui"))]
fn main() {}
