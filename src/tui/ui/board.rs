//! The board widget: how a game's grid is laid out in an area ([`Geometry`]:
//! natural notes, compact or tight, scrolling to keep the cursor in view)
//! and how it is drawn ([`BoardView`]) from the theme's roles and the
//! app's [`Emphasis`].

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use crate::engine::Value;
use crate::game::{self, Game};
use crate::tui::app::{ConflictDisplay, Emphasis};
use crate::tui::layout::{Geometry, NotesMode, Slot, Weight, symbol_width};
use crate::tui::style::{Role, Styles};

/// The board of a game, drawn with `styles` and the app's [`Emphasis`] around the
/// cursor. Lays itself out with [`Geometry::new`] in the area it is given.
#[derive(Debug, Clone, Copy)]
pub struct BoardView<'a> {
    /// The game shown.
    pub game: &'a Game,
    /// The cursor cell.
    pub cursor: usize,
    /// Styles by role.
    pub styles: &'a Styles,
    /// What to emphasise.
    pub emphasis: &'a Emphasis,
}

/// The box-drawing character for a junction whose arms (up, down, left,
/// right) are absent (None) or of a weight.
pub(crate) fn junction(arms: [Option<Weight>; 4]) -> char {
    use Weight::{Heavy as H, Light as L};
    match arms {
        [None, Some(H), None, Some(H)] => '┏',
        [None, Some(H), Some(H), Some(H)] => '┳',
        [None, Some(H), Some(H), None] => '┓',
        [Some(H), Some(H), None, Some(H)] => '┣',
        [Some(H), Some(H), Some(H), Some(H)] => '╋',
        [Some(H), Some(H), Some(H), None] => '┫',
        [Some(H), None, None, Some(H)] => '┗',
        [Some(H), None, Some(H), Some(H)] => '┻',
        [Some(H), None, Some(H), None] => '┛',
        [None, Some(L), Some(H), Some(H)] => '┯',
        [Some(L), None, Some(H), Some(H)] => '┷',
        [Some(H), Some(H), None, Some(L)] => '┠',
        [Some(H), Some(H), Some(L), None] => '┨',
        [Some(L), Some(L), Some(H), Some(H)] => '┿',
        [Some(H), Some(H), Some(L), Some(L)] => '╂',
        [Some(_), Some(_), None, None] => '┃',
        [None, None, Some(_), Some(_)] => '━',
        _ => '┼',
    }
}

/// Per-cell facts that the emphasis needs, computed once per frame.
struct Marks {
    conflict: Vec<bool>,
    conflict_unit: Vec<bool>,
    hint: Vec<bool>,
    target: Vec<bool>,
}

impl Marks {
    fn new(game: &Game, h: &Emphasis) -> Marks {
        let shape = game.shape();
        let cells = shape.cells();
        let mut m = Marks {
            conflict: Vec::new(),
            conflict_unit: Vec::new(),
            hint: vec![false; cells],
            target: vec![false; cells],
        };
        if h.conflicts != ConflictDisplay::Off {
            let c = game.conflicts();
            if h.conflicts == ConflictDisplay::Unit {
                m.conflict_unit = vec![false; cells];
                for u in (0..shape.units()).filter(|&u| c.units.get(u) == Some(&true)) {
                    for cell in shape.unit_cells(u) {
                        m.conflict_unit[cell] = true;
                    }
                }
            }
            m.conflict = c.cells;
        }
        for &u in h.hint_units.iter().filter(|&&u| u < shape.units()) {
            for cell in shape.unit_cells(u) {
                m.hint[cell] = true;
            }
        }
        for &c in h.hint_cells.iter().filter(|&&c| c < cells) {
            m.target[c] = true;
        }
        m
    }
}

/// Writes `ch` at screen (x, y) with `style` patched over, when inside the buffer.
fn put(buf: &mut Buffer, x: u16, y: u16, ch: char, style: Style) {
    if let Some(cell) = buf.cell_mut((x, y)) {
        cell.set_char(ch).set_style(style);
    }
}

impl BoardView<'_> {
    /// The highlight patches for cell `c`, in order (later wins); `same`
    /// when the thing drawn holds the cursor's value.
    fn highlight(&self, c: usize, same: bool, marks: &Marks) -> Style {
        let (s, h, shape) = (self.styles, self.emphasis, self.game.shape());
        let mut st = Style::default();
        let cur = self.cursor;
        let peer = c != cur
            && (shape.row_of(c) == shape.row_of(cur)
                || shape.col_of(c) == shape.col_of(cur)
                || shape.box_of(c) == shape.box_of(cur));
        let flags = [
            (h.peers && peer, Role::Peer),
            (h.same_digit && same, Role::SameDigit),
            (
                marks.conflict_unit.get(c) == Some(&true),
                Role::ConflictUnit,
            ),
            (marks.hint[c], Role::Hint),
            (marks.target[c], Role::HintTarget),
            (marks.conflict.get(c) == Some(&true), Role::Conflict),
            (self.game.is_marked_wrong(c), Role::Wrong),
            (h.solver_try == Some(c), Role::SolverTry),
            (h.solver_backtrack == Some(c), Role::SolverBacktrack),
            (
                c == cur && h.solver_try.or(h.solver_backtrack).is_none(),
                Role::Cursor,
            ),
        ];
        for (on, role) in flags {
            if on {
                st = st.patch(s.get(role));
            }
        }
        st
    }

    /// Draws the grid lines over the shown part of the board.
    fn draw_lines(&self, g: &Geometry, buf: &mut Buffer) {
        let (x_total, y_total) = (g.x.total(), g.y.total());
        let border = |w: Weight| match w {
            Weight::Heavy => self.styles.get(Role::BoxBorder),
            Weight::Light => self.styles.get(Role::CellBorder),
        };
        // The vertical lines across the shown columns: (screen x, board x, weight).
        let cols: Vec<(u16, usize, Option<Weight>)> =
            g.x.visible()
                .filter_map(|bx| {
                    let w = match g.x.slot(bx)? {
                        Slot::Line(w) => Some(w),
                        Slot::Cell(..) => None,
                    };
                    Some((g.x.screen(bx)?, bx, w))
                })
                .collect();
        for by in g.y.visible() {
            let (Some(sy), Some(slot)) = (g.y.screen(by), g.y.slot(by)) else {
                continue;
            };
            match slot {
                Slot::Line(hw) => {
                    for &(sx, bx, vw) in &cols {
                        let (ch, style) = match vw {
                            None => match hw {
                                Weight::Heavy => ('━', border(hw)),
                                Weight::Light => ('─', border(hw)),
                            },
                            Some(vw) => {
                                let up = (by > 0).then_some(vw);
                                let down = (by + 1 < y_total).then_some(vw);
                                let left = (bx > 0).then_some(hw);
                                let right = (bx + 1 < x_total).then_some(hw);
                                let heavy = hw == Weight::Heavy || vw == Weight::Heavy;
                                let w = if heavy { Weight::Heavy } else { Weight::Light };
                                (junction([up, down, left, right]), border(w))
                            }
                        };
                        put(buf, sx, sy, ch, style);
                    }
                }
                Slot::Cell(..) => {
                    for &(sx, _, vw) in &cols {
                        match vw {
                            Some(Weight::Heavy) => put(buf, sx, sy, '┃', border(Weight::Heavy)),
                            Some(Weight::Light) => put(buf, sx, sy, '│', border(Weight::Light)),
                            None => {}
                        }
                    }
                }
            }
        }
    }

    /// Draws one cell's interior.
    fn draw_cell(&self, g: &Geometry, c: usize, ctx: &Frame, buf: &mut Buffer) {
        let shape = g.shape;
        let (row, col) = (shape.row_of(c), shape.col_of(c));
        let (xs, ys) = (g.x.cell_span(col), g.y.cell_span(row));
        let (x0, y0) = (g.x.start(col), g.y.start(row));
        let value = self.game.value(c);
        let same = value.is_some() && value == ctx.cursor_value;
        let back = self.highlight(c, same, &ctx.marks);
        for by in ys.clone() {
            let Some(sy) = g.y.screen(by) else { continue };
            for bx in xs.clone() {
                if let Some(sx) = g.x.screen(bx) {
                    put(buf, sx, sy, ' ', back);
                }
            }
        }
        // Writes `ch` at (dx, dy) inside the cell, when shown.
        let mut at = |dx: usize, dy: usize, ch: char, style: Style| {
            let (bx, by) = (x0 + dx, y0 + dy);
            if let (true, true, Some(sx), Some(sy)) = (
                xs.contains(&bx),
                ys.contains(&by),
                g.x.screen(bx),
                g.y.screen(by),
            ) {
                put(buf, sx, sy, ch, style);
            }
        };
        let (w, h) = (g.x.inner, g.y.inner);
        if let Some(v) = value {
            let role = if self.game.is_given(c) {
                Role::Given
            } else {
                Role::Entered
            };
            let style = self.styles.get(role).patch(back);
            let sym = ctx.symbol(v);
            let len = sym.chars().count();
            // Centred, rounding right; tight cells align numbers right.
            let left = if g.mode == NotesMode::Hidden {
                w.saturating_sub(len)
            } else {
                (w + 1).saturating_sub(len) / 2
            };
            for (i, ch) in sym.chars().enumerate() {
                at(left + i, h / 2, ch, style);
            }
            return;
        }
        if g.mode == NotesMode::Hidden {
            return;
        }
        let notes = self.game.notes(c);
        if notes.is_empty() {
            return;
        }
        let candidate = self.styles.get(Role::Candidate);
        let plain = candidate.patch(back);
        let lit = candidate.patch(self.highlight(c, true, &ctx.marks));
        let style = |v: Value| {
            if Some(v) == ctx.cursor_value {
                lit
            } else {
                plain
            }
        };
        match g.mode {
            NotesMode::Natural => {
                let bc = shape.box_cols();
                for v in notes.iter() {
                    let d = v.index();
                    for ch in ctx.symbol(v).chars().take(1) {
                        at(1 + 2 * (d % bc), d / bc, ch, style(v));
                    }
                }
            }
            NotesMode::Compact => {
                // Symbols of more than one character are separated by a space.
                let sep = symbol_width(shape.n()) > 1;
                let mut text: Vec<(char, Style)> = Vec::with_capacity(w + 2);
                for v in notes.iter() {
                    if sep && !text.is_empty() {
                        text.push((' ', plain));
                    }
                    text.extend(ctx.symbol(v).chars().map(|ch| (ch, style(v))));
                    if text.len() > w {
                        break;
                    }
                }
                if text.len() > w {
                    text.truncate(w.saturating_sub(1));
                    text.push(('…', plain));
                }
                let left = usize::from(text.len() < w);
                for (i, &(ch, st)) in text.iter().enumerate() {
                    at(left + i, 0, ch, st);
                }
            }
            NotesMode::Hidden => {}
        }
    }
}

/// What every cell of one frame shares.
struct Frame {
    cursor_value: Option<Value>,
    symbols: Vec<String>,
    marks: Marks,
}

impl Frame {
    fn symbol(&self, v: Value) -> &str {
        self.symbols.get(v.index()).map_or("?", String::as_str)
    }
}

impl Widget for BoardView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let shape = self.game.shape();
        let g = Geometry::new(shape, area, self.cursor);
        if g.x.visible().is_empty() || g.y.visible().is_empty() {
            return;
        }
        self.draw_lines(&g, buf);
        let n = shape.n();
        let ctx = Frame {
            cursor_value: (self.cursor < shape.cells())
                .then(|| self.game.value(self.cursor))
                .flatten(),
            symbols: (0..n)
                .map(|d| game::symbol(n, Value::from_index(d)))
                .collect(),
            marks: Marks::new(self.game, self.emphasis),
        };
        for row in g.y.cells_visible() {
            for col in g.x.cells_visible() {
                self.draw_cell(&g, shape.cell_at(row, col), &ctx, buf);
            }
        }
    }
}

#[cfg(test)]
mod tests;
