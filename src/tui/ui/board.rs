//! The board widget: how a game's grid is laid out in an area ([`Geometry`]:
//! natural notes, compact or tight, scrolling to keep the cursor in view)
//! and how it is drawn ([`BoardView`]) from the theme's roles and the
//! player's [`Highlights`].

use std::ops::Range;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use crate::engine::{Shape, Value};
use crate::game::{self, Game};
use crate::tui::style::{Role, Styles};

/// How conflicts (a value twice in a unit) are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ConflictDisplay {
    /// Not shown.
    Off,
    /// The conflicting cells.
    #[default]
    Cells,
    /// The conflicting cells and a tint over every unit holding them.
    Unit,
}

/// What the board emphasises besides the cursor.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Highlights {
    /// Tint the cells sharing a row, column or box with the cursor.
    pub peers: bool,
    /// Emphasise the cells (and notes) holding the cursor's value.
    pub same_digit: bool,
    /// How conflicts are shown.
    pub conflicts: ConflictDisplay,
    /// Units (rows 0..n, columns n..2n, boxes 2n..3n) a hint is about.
    pub hint_units: Vec<usize>,
    /// Cells a hint is about.
    pub hint_cells: Vec<usize>,
    /// The solver view: the cell where a value is being tried.
    pub solver_try: Option<usize>,
    /// The solver view: the cell whose guess was just taken back.
    pub solver_backtrack: Option<usize>,
}

impl Default for Highlights {
    /// The usual play settings: peers, same digit and conflicting cells
    /// shown, no hint.
    fn default() -> Highlights {
        Highlights {
            peers: true,
            same_digit: true,
            conflicts: ConflictDisplay::Cells,
            hint_units: Vec::new(),
            hint_cells: Vec::new(),
            solver_try: None,
            solver_backtrack: None,
        }
    }
}

/// How notes are drawn, which follows from the layout chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NotesMode {
    /// Each cell is a small grid with every note in its value's place.
    Natural,
    /// One line per cell; notes squeezed in value order.
    Compact,
    /// One narrow line per cell, no lines between cells; notes hidden.
    Hidden,
}

/// A line's weight: thin between cells, heavy around boxes and the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Weight {
    Light,
    Heavy,
}

/// What stands at one board position along an axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// A grid line.
    Line(Weight),
    /// Cell `i` of the axis, `k` positions into its interior.
    Cell(usize, usize),
}

/// The layout along one axis (columns across, rows down). Board positions
/// count from the board's first border line; the area shows positions
/// `offset..offset + len`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Axis {
    /// Cells along the axis.
    n: usize,
    /// Cells per box along the axis.
    group: usize,
    /// A cell's interior size.
    inner: usize,
    /// Whether thin lines separate cells inside a box.
    thin: bool,
    /// Where the area starts on screen.
    origin: u16,
    /// The area's size.
    len: u16,
    /// The first board position shown.
    offset: usize,
}

impl Axis {
    fn new(n: usize, group: usize, inner: usize, thin: bool, origin: u16, len: u16) -> Axis {
        Axis {
            n,
            group: group.max(1),
            inner,
            thin,
            origin,
            len,
            offset: 0,
        }
    }

    /// Lines before cell `i`, the board's first border excluded.
    fn lines_before(&self, i: usize) -> usize {
        if self.thin { i } else { i / self.group }
    }

    /// The board's size along the axis.
    fn total(&self) -> usize {
        1 + self.n * self.inner + self.lines_before(self.n)
    }

    /// The board position where cell `i`'s interior starts.
    fn start(&self, i: usize) -> usize {
        1 + i * self.inner + self.lines_before(i)
    }

    /// What stands at board position `p`; None beyond the board.
    fn slot(&self, p: usize) -> Option<Slot> {
        if p >= self.total() {
            return None;
        }
        let Some(q) = p.checked_sub(1) else {
            return Some(Slot::Line(Weight::Heavy));
        };
        if self.thin {
            let (i, k) = (q / (self.inner + 1), q % (self.inner + 1));
            if k < self.inner {
                Some(Slot::Cell(i, k))
            } else if (i + 1) % self.group == 0 {
                Some(Slot::Line(Weight::Heavy))
            } else {
                Some(Slot::Line(Weight::Light))
            }
        } else {
            let span = self.group * self.inner;
            let (b, k) = (q / (span + 1), q % (span + 1));
            if k < span {
                Some(Slot::Cell(b * self.group + k / self.inner, k % self.inner))
            } else {
                Some(Slot::Line(Weight::Heavy))
            }
        }
    }

    /// The board positions shown.
    fn visible(&self) -> Range<usize> {
        let end = (self.offset + usize::from(self.len)).min(self.total());
        self.offset.min(end)..end
    }

    /// The screen position of board position `p`, when shown.
    fn screen(&self, p: usize) -> Option<u16> {
        let vis = self.visible();
        // `p - offset < len`, so it fits in u16.
        vis.contains(&p)
            .then(|| self.origin.saturating_add((p - vis.start) as u16))
    }

    /// The board position at screen position `s`, when on the board.
    fn board(&self, s: u16) -> Option<usize> {
        let d = usize::from(s.checked_sub(self.origin)?);
        let p = self.offset + d;
        self.visible().contains(&p).then_some(p)
    }

    /// The cells at least partly shown.
    fn cells_visible(&self) -> Range<usize> {
        let vis = self.visible();
        let mut first = self.n;
        let mut last = 0;
        for i in 0..self.n {
            let s = self.start(i);
            if s < vis.end && s + self.inner > vis.start {
                first = first.min(i);
                last = i + 1;
            }
        }
        if first < last { first..last } else { 0..0 }
    }

    /// The shown part of cell `i`'s interior, in board positions.
    fn cell_span(&self, i: usize) -> Range<usize> {
        let vis = self.visible();
        let s = self.start(i);
        let lo = s.max(vis.start);
        let hi = (s + self.inner).min(vis.end);
        lo..hi.max(lo)
    }

    /// Scrolls so cell `i` is centred, clamped to the board's edges; no
    /// scrolling when the board fits.
    fn focus(&mut self, i: usize) {
        let (total, len) = (self.total(), usize::from(self.len));
        self.offset = if total <= len {
            0
        } else {
            (self.start(i) + self.inner / 2)
                .saturating_sub(len / 2)
                .min(total - len)
        };
    }

    fn fits(&self) -> bool {
        self.total() <= usize::from(self.len)
    }
}

/// How the board is laid out in an area: the notes mode, cell sizes and
/// scrolling. The board's top-left corner sits at the area's top-left
/// corner (when not scrolled). A pure function of shape, area and cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Geometry {
    shape: Shape,
    mode: NotesMode,
    x: Axis,
    y: Axis,
}

/// Screen width of the widest symbol of an n-digit board.
fn symbol_width(n: usize) -> usize {
    match n {
        0..=35 => 1,
        36..=99 => 2,
        _ => 3,
    }
}

impl Geometry {
    /// The layout of `shape` in `area`: the first of natural notes, compact
    /// (cell width 7 down to 3) and tight that fits entirely; otherwise
    /// tight, scrolled so the cursor is centred (clamped to the edges).
    pub fn new(shape: Shape, area: Rect, cursor: usize) -> Geometry {
        let (n, br, bc) = (shape.n(), shape.box_rows(), shape.box_cols());
        let sw = symbol_width(n);
        let axes = |inner_x: usize, inner_y: usize, thin: bool| {
            (
                Axis::new(n, bc, inner_x, thin, area.x, area.width),
                Axis::new(n, br, inner_y, thin, area.y, area.height),
            )
        };
        let mut layouts = Vec::with_capacity(7);
        if n <= 35 {
            layouts.push((NotesMode::Natural, axes(2 * bc + 1, br, true)));
        }
        for w in (3..=7).rev().filter(|&w| w >= sw + 2) {
            layouts.push((NotesMode::Compact, axes(w, 1, true)));
        }
        let tight = (NotesMode::Hidden, axes(sw + 1, 1, false));
        let (mode, (mut x, mut y)) = layouts
            .into_iter()
            .find(|(_, (x, y))| x.fits() && y.fits())
            .unwrap_or(tight);
        let cursor = cursor.min(shape.cells().saturating_sub(1));
        x.focus(shape.col_of(cursor));
        y.focus(shape.row_of(cursor));
        Geometry { shape, mode, x, y }
    }

    /// How notes are drawn in this layout.
    pub fn notes_mode(&self) -> NotesMode {
        self.mode
    }

    /// The cell at screen position (x, y); None on lines and outside the
    /// board or the area.
    pub fn cell_at(&self, x: u16, y: u16) -> Option<usize> {
        let col = match self.x.slot(self.x.board(x)?)? {
            Slot::Cell(i, _) => i,
            Slot::Line(_) => return None,
        };
        let row = match self.y.slot(self.y.board(y)?)? {
            Slot::Cell(i, _) => i,
            Slot::Line(_) => return None,
        };
        Some(self.shape.cell_at(row, col))
    }

    /// The on-screen interior of `cell` (without its lines), clipped to
    /// the area; None when no part of it is shown.
    pub fn cell_rect(&self, cell: usize) -> Option<Rect> {
        if cell >= self.shape.cells() {
            return None;
        }
        let xs = self.x.cell_span(self.shape.col_of(cell));
        let ys = self.y.cell_span(self.shape.row_of(cell));
        if xs.is_empty() || ys.is_empty() {
            return None;
        }
        Some(Rect {
            x: self.x.screen(xs.start)?,
            y: self.y.screen(ys.start)?,
            width: (xs.end - xs.start) as u16,
            height: (ys.end - ys.start) as u16,
        })
    }

    /// The drawn board's width and height (clipped to the area).
    pub fn size(&self) -> (u16, u16) {
        (self.x.visible().len() as u16, self.y.visible().len() as u16)
    }

    /// Whether the board is larger than the area (and so scrolls).
    pub fn scrolls(&self) -> bool {
        !(self.x.fits() && self.y.fits())
    }
}

/// The board of a game, drawn with `styles` and `highlights` around the
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
    pub highlights: &'a Highlights,
}

/// The box-drawing character for a junction whose arms (up, down, left,
/// right) are absent (None) or of a weight.
fn junction(arms: [Option<Weight>; 4]) -> char {
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

/// Per-cell facts that the highlights need, computed once per frame.
struct Marks {
    conflict: Vec<bool>,
    conflict_unit: Vec<bool>,
    hint: Vec<bool>,
    target: Vec<bool>,
}

impl Marks {
    fn new(game: &Game, h: &Highlights) -> Marks {
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
        let (s, h, shape) = (self.styles, self.highlights, self.game.shape());
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
            marks: Marks::new(self.game, self.highlights),
        };
        for row in g.y.cells_visible() {
            for col in g.x.cells_visible() {
                self.draw_cell(&g, shape.cell_at(row, col), &ctx, buf);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use ratatui::style::{Color, Modifier};

    use super::*;
    use crate::engine::{Grid, Puzzle};
    use crate::game::Origin;

    /// The board area of an 80×24 terminal (side panel and status line off).
    const SMALL: Rect = Rect::new(0, 0, 55, 22);
    /// The board area of a large terminal.
    const LARGE: Rect = Rect::new(0, 0, 160, 60);

    fn shape(br: usize, bc: usize) -> Shape {
        Shape::new(br, bc).unwrap()
    }

    /// A valid solution: the usual shifted pattern.
    fn solution(s: Shape) -> Vec<usize> {
        let (n, br, bc) = (s.n(), s.box_rows(), s.box_cols());
        (0..s.cells())
            .map(|c| {
                let (r, col) = (c / n, c % n);
                ((r % br) * bc + r / br + col) % n + 1
            })
            .collect()
    }

    /// The solution with every cell where row + column is odd blanked.
    fn game(s: Shape) -> Game {
        let n = s.n();
        let sol = solution(s);
        let numbers: Vec<usize> = (0..s.cells())
            .map(|c| if (c / n + c % n) % 2 == 1 { 0 } else { sol[c] })
            .collect();
        let puzzle = Puzzle::from_numbers(s, &numbers).unwrap();
        let grid = Grid::new(s, sol.iter().map(|&v| Value::new(v).unwrap()).collect()).unwrap();
        Game::new(&puzzle, Some(grid), Origin::default())
    }

    fn val(v: usize) -> Value {
        Value::new(v).unwrap()
    }

    fn render(game: &Game, cursor: usize, h: &Highlights, area: Rect) -> Buffer {
        let mut buf = Buffer::empty(area);
        let styles = Styles::basic();
        BoardView {
            game,
            cursor,
            styles: &styles,
            highlights: h,
        }
        .render(area, &mut buf);
        buf
    }

    fn ch(buf: &Buffer, x: u16, y: u16) -> &str {
        buf[(x, y)].symbol()
    }

    /// The text of a rect, line by line.
    fn text(buf: &Buffer, r: Rect) -> Vec<String> {
        (r.y..r.bottom())
            .map(|y| (r.x..r.right()).map(|x| ch(buf, x, y)).collect())
            .collect()
    }

    /// Where `sym` is written inside `r`.
    fn find(buf: &Buffer, r: Rect, sym: &str) -> Option<(u16, u16)> {
        for y in r.y..r.bottom() {
            let line: String = (r.x..r.right()).map(|x| ch(buf, x, y)).collect();
            if let Some(i) = line.find(sym) {
                return Some((r.x + line[..i].chars().count() as u16, y));
            }
        }
        None
    }

    fn fg(buf: &Buffer, at: (u16, u16)) -> Color {
        buf[at].fg
    }

    const LINES: &str = "─│┼━┃┏┳┓┣╋┫┗┻┛┯┷┠┨┿╂";

    /// Everything the brief asks of one shape in one area.
    fn check(s: Shape, area: Rect, mode: NotesMode, scrolls: bool) {
        let styles = Styles::basic();
        let n = s.n();
        let sol = solution(s);
        let mut g = game(s);
        // A conflict pair: cell 1 gets the value of the given in cell 0.
        assert!(!g.is_given(1) && g.is_given(0));
        assert!(g.enter(1, val(sol[0]), false));
        // A correct entry in row 1, column 0.
        assert!(g.enter(n, val(sol[n]), false));
        let conflicts = g.conflicts();
        assert!(conflicts.cells[0] && conflicts.cells[1]);
        let cursor = s.cell_at(n / 2, n / 2);
        let h = Highlights {
            same_digit: false,
            ..Highlights::default()
        };
        let buf = render(&g, cursor, &h, area);
        let geo = Geometry::new(s, area, cursor);
        assert_eq!(geo.notes_mode(), mode, "{s} in {area:?}");
        assert_eq!(geo.scrolls(), scrolls, "{s} in {area:?}");
        let (w, hgt) = geo.size();
        assert!(w <= area.width && hgt <= area.height);

        let full = |c: usize| {
            geo.cell_rect(c).filter(|r| {
                usize::from(r.width) == geo.x.inner && usize::from(r.height) == geo.y.inner
            })
        };
        let mut seen = 0;
        for (c, &want_value) in sol.iter().enumerate() {
            let Some(r) = geo.cell_rect(c) else { continue };
            seen += 1;
            assert!(area.contains(r.as_position()));
            assert_eq!(geo.cell_at(r.x, r.y), Some(c));
            assert_eq!(geo.cell_at(r.right() - 1, r.bottom() - 1), Some(c));
            let (row, col) = (s.row_of(c), s.col_of(c));
            // The line to the left and above: heavy at box edges, thin (or
            // none when tight) elsewhere.
            if r.x > area.x && full(c).is_some() {
                // Tight cells touch their left neighbour inside a box.
                let joined = mode == NotesMode::Hidden && col % s.box_cols() != 0;
                let want = if joined { Some(c - 1) } else { None };
                assert_eq!(geo.cell_at(r.x - 1, r.y), want, "{s} cell {c}");
                let left = ch(&buf, r.x - 1, r.y);
                match (col % s.box_cols() == 0, mode) {
                    (true, _) => assert_eq!(left, "┃", "{s} cell {c}"),
                    (false, NotesMode::Hidden) => assert!(!LINES.contains(left), "{s} cell {c}"),
                    (false, _) => assert_eq!(left, "│", "{s} cell {c}"),
                }
            }
            if r.y > area.y && full(c).is_some() {
                let above = ch(&buf, r.x, r.y - 1);
                match (row % s.box_rows() == 0, mode) {
                    (true, _) => assert_eq!(above, "━", "{s} cell {c}"),
                    (false, NotesMode::Hidden) => assert!(!LINES.contains(above), "{s} cell {c}"),
                    (false, _) => assert_eq!(above, "─", "{s} cell {c}"),
                }
            }
            if full(c).is_none() {
                continue;
            }
            let sym = g.symbol(val(want_value));
            if g.is_given(c) {
                let at = find(&buf, r, &sym).unwrap_or_else(|| panic!("{s}: given {c} in {r:?}"));
                let want = if conflicts.cells[c] {
                    Role::Conflict
                } else {
                    Role::Given
                };
                assert_eq!(fg(&buf, at), styles.get(want).fg.unwrap(), "{s} cell {c}");
            }
        }
        assert!(seen > 0);
        // The entry, the conflict pair and the cursor, whenever they show.
        let entered = styles.get(Role::Entered).fg.unwrap();
        let conflict = styles.get(Role::Conflict).fg.unwrap();
        if let Some(r) = full(n) {
            let at = find(&buf, r, &g.symbol(val(sol[n]))).unwrap();
            assert_eq!(fg(&buf, at), entered);
        }
        for c in [0, 1] {
            if let Some(r) = full(c) {
                let at = find(&buf, r, &g.symbol(val(sol[0]))).unwrap();
                assert_eq!(fg(&buf, at), conflict, "{s} cell {c}");
            }
        }
        let r = geo.cell_rect(cursor).unwrap();
        for y in r.y..r.bottom() {
            for x in r.x..r.right() {
                assert!(buf[(x, y)].modifier.contains(Modifier::REVERSED));
            }
        }
        // Nothing outside the drawn board.
        for y in area.y..area.bottom() {
            for x in area.x..area.right() {
                if x >= area.x + w || y >= area.y + hgt {
                    assert_eq!(ch(&buf, x, y), " ");
                }
            }
        }
        // The corner when not scrolled there.
        if !geo.scrolls() {
            assert_eq!(ch(&buf, area.x, area.y), "┏");
            assert_eq!(ch(&buf, area.x + w - 1, area.y + hgt - 1), "┛");
            assert_eq!(geo.cell_at(area.x, area.y), None);
        }
        assert_eq!(geo.cell_at(area.right(), area.y), None);
    }

    #[test]
    fn four() {
        check(shape(2, 2), SMALL, NotesMode::Natural, false);
        check(shape(2, 2), LARGE, NotesMode::Natural, false);
    }

    #[test]
    fn six() {
        check(shape(2, 3), SMALL, NotesMode::Natural, false);
        check(shape(2, 3), LARGE, NotesMode::Natural, false);
    }

    #[test]
    fn nine() {
        check(Shape::CLASSIC, SMALL, NotesMode::Compact, false);
        check(Shape::CLASSIC, LARGE, NotesMode::Natural, false);
        // 9×9 compact at 55×22 uses cells 5 wide: 9·5 + 10 lines = 55.
        let geo = Geometry::new(Shape::CLASSIC, SMALL, 0);
        assert_eq!(geo.x.inner, 5);
        assert_eq!(geo.size(), (55, 19));
        assert_eq!(Geometry::new(Shape::CLASSIC, LARGE, 0).size(), (73, 37));
    }

    #[test]
    fn sixteen() {
        check(shape(4, 4), SMALL, NotesMode::Hidden, false);
        check(shape(4, 4), LARGE, NotesMode::Compact, false);
        check(
            shape(4, 4),
            Rect::new(0, 0, 200, 90),
            NotesMode::Natural,
            false,
        );
    }

    #[test]
    fn twenty_five() {
        check(shape(5, 5), SMALL, NotesMode::Hidden, true);
        check(
            shape(5, 5),
            Rect::new(0, 0, 120, 40),
            NotesMode::Hidden,
            false,
        );
        check(shape(5, 5), LARGE, NotesMode::Compact, false);
        check(
            shape(5, 5),
            Rect::new(0, 0, 310, 160),
            NotesMode::Natural,
            false,
        );
    }

    #[test]
    fn larger_boards_use_wider_symbols() {
        // 36×36: two-character symbols, no natural notes.
        check(
            shape(6, 6),
            Rect::new(0, 0, 220, 80),
            NotesMode::Compact,
            false,
        );
        check(shape(6, 6), LARGE, NotesMode::Hidden, false);
        check(
            shape(6, 6),
            Rect::new(0, 0, 100, 40),
            NotesMode::Hidden,
            true,
        );
        check(
            shape(10, 10),
            Rect::new(0, 0, 120, 40),
            NotesMode::Hidden,
            true,
        );
    }

    #[test]
    fn junctions_nine_compact() {
        let g = game(Shape::CLASSIC);
        let buf = render(&g, 40, &Highlights::default(), SMALL);
        let geo = Geometry::new(Shape::CLASSIC, SMALL, 40);
        let r = |c| geo.cell_rect(c).unwrap();
        let (right, bottom) = (54, 18);
        assert_eq!(ch(&buf, 0, 0), "┏");
        assert_eq!(ch(&buf, right, 0), "┓");
        assert_eq!(ch(&buf, 0, bottom), "┗");
        assert_eq!(ch(&buf, right, bottom), "┛");
        let (thin_x, box_x) = (r(1).x - 1, r(3).x - 1);
        let (thin_y, box_y) = (r(9).y - 1, r(27).y - 1);
        assert_eq!(ch(&buf, thin_x, 0), "┯");
        assert_eq!(ch(&buf, box_x, 0), "┳");
        assert_eq!(ch(&buf, thin_x, bottom), "┷");
        assert_eq!(ch(&buf, 0, thin_y), "┠");
        assert_eq!(ch(&buf, right, thin_y), "┨");
        assert_eq!(ch(&buf, 0, box_y), "┣");
        assert_eq!(ch(&buf, right, box_y), "┫");
        assert_eq!(ch(&buf, thin_x, thin_y), "┼");
        assert_eq!(ch(&buf, box_x, thin_y), "╂");
        assert_eq!(ch(&buf, thin_x, box_y), "┿");
        assert_eq!(ch(&buf, box_x, box_y), "╋");
        assert_eq!(ch(&buf, r(0).x, thin_y), "─");
        assert_eq!(ch(&buf, r(0).x, box_y), "━");
        assert_eq!(ch(&buf, thin_x, 1), "│");
        assert_eq!(ch(&buf, box_x, 1), "┃");
        let styles = Styles::basic();
        assert_eq!(buf[(box_x, 1)].fg, styles.get(Role::BoxBorder).fg.unwrap());
        assert_eq!(
            buf[(thin_x, 1)].fg,
            styles.get(Role::CellBorder).fg.unwrap()
        );
        assert_eq!(
            buf[(box_x, thin_y)].fg,
            styles.get(Role::BoxBorder).fg.unwrap()
        );
        assert_eq!(
            buf[(thin_x, thin_y)].fg,
            styles.get(Role::CellBorder).fg.unwrap()
        );
        assert_eq!(geo.cell_at(thin_x, 1), None);
        assert_eq!(geo.cell_at(1, thin_y), None);
        assert_eq!(
            text(&buf, Rect::new(0, 0, 19, 2)),
            vec!["┏━━━━━┯━━━━━┯━━━━━┳", "┃  1  │     │  3  ┃",]
        );
    }

    #[test]
    fn tight_has_only_box_lines() {
        let s = shape(4, 4);
        let g = game(s);
        let buf = render(&g, 0, &Highlights::default(), SMALL);
        // 16 cells of width 2, 5 heavy lines: 37 wide, 21 high.
        assert_eq!(Geometry::new(s, SMALL, 0).size(), (37, 21));
        assert_eq!(
            text(&buf, Rect::new(0, 0, 10, 3)),
            vec!["┏━━━━━━━━┳", "┃ 1   3  ┃", "┃   6   8┃",]
        );
    }

    #[test]
    fn natural_notes_sit_in_place() {
        let s = Shape::CLASSIC;
        let mut g = game(s);
        let c = 1; // empty
        for v in [1, 5, 9, 2] {
            assert!(g.toggle_note(c, val(v)));
        }
        let h = Highlights {
            same_digit: false,
            ..Highlights::default()
        };
        let buf = render(&g, 80, &h, LARGE);
        let r = Geometry::new(s, LARGE, 80).cell_rect(c).unwrap();
        assert_eq!((r.width, r.height), (7, 3));
        assert_eq!(text(&buf, r), vec![" 1 2   ", "   5   ", "     9 "]);
        let cand = Styles::basic().get(Role::Candidate).fg.unwrap();
        assert_eq!(buf[(r.x + 1, r.y)].fg, cand);
        assert_eq!(buf[(r.x + 3, r.y + 1)].fg, cand);
        assert_eq!(buf[(r.x + 5, r.y + 2)].fg, cand);
        // A 6×6 cell: notes on 2 rows of 3.
        let s6 = shape(2, 3);
        let mut g6 = game(s6);
        for v in [1, 3, 4, 6] {
            assert!(g6.toggle_note(1, val(v)));
        }
        let buf = render(&g6, 20, &h, SMALL);
        let r = Geometry::new(s6, SMALL, 20).cell_rect(1).unwrap();
        assert_eq!(text(&buf, r), vec![" 1   3 ", " 4   6 "]);
        // A filled cell: centred.
        let r = Geometry::new(s6, SMALL, 20).cell_rect(0).unwrap();
        assert_eq!(text(&buf, r), vec!["       ", "   1   "]);
    }

    #[test]
    fn compact_notes_truncate() {
        let s = Shape::CLASSIC;
        let mut g = game(s);
        for v in 1..=7 {
            g.toggle_note(1, val(v));
        }
        for v in [2, 8] {
            g.toggle_note(3, val(v));
        }
        for v in 4..=8 {
            g.toggle_note(5, val(v));
        }
        let buf = render(&g, 80, &Highlights::default(), SMALL);
        let geo = Geometry::new(s, SMALL, 80);
        assert_eq!(geo.notes_mode(), NotesMode::Compact);
        let t = |c| text(&buf, geo.cell_rect(c).unwrap()).concat();
        assert_eq!(t(1), "1234…");
        assert_eq!(t(3), " 28  ");
        assert_eq!(t(5), "45678");
        let cand = Styles::basic().get(Role::Candidate).fg.unwrap();
        let r = geo.cell_rect(1).unwrap();
        assert_eq!(buf[(r.x, r.y)].fg, cand);
        assert_eq!(buf[(r.x + 4, r.y)].fg, cand);
    }

    #[test]
    fn tight_hides_notes() {
        let s = shape(4, 4);
        let mut g = game(s);
        g.toggle_note(1, val(3));
        let buf = render(&g, 0, &Highlights::default(), SMALL);
        let geo = Geometry::new(s, SMALL, 0);
        assert_eq!(geo.notes_mode(), NotesMode::Hidden);
        assert_eq!(text(&buf, geo.cell_rect(1).unwrap()), vec!["  "]);
    }

    #[test]
    fn same_digit_lights_cells_and_notes() {
        let s = Shape::CLASSIC;
        let mut g = game(s);
        let sol = solution(s);
        let v = sol[0];
        g.toggle_note(1, val(v));
        g.toggle_note(1, val(if v == 9 { 8 } else { 9 }));
        let other = (1..s.cells()).find(|&c| sol[c] == v).unwrap();
        assert!(g.enter(other, val(v), false));
        let buf = render(&g, 0, &Highlights::default(), LARGE);
        let geo = Geometry::new(s, LARGE, 0);
        let styles = Styles::basic();
        let same = styles.get(Role::SameDigit).fg.unwrap();
        let at = find(&buf, geo.cell_rect(other).unwrap(), &v.to_string()).unwrap();
        assert_eq!(buf[at].fg, same);
        let r = geo.cell_rect(1).unwrap();
        let at = find(&buf, r, &v.to_string()).unwrap();
        assert_eq!(buf[at].fg, same);
        let at9 = find(&buf, r, if v == 9 { "8" } else { "9" }).unwrap();
        assert_eq!(buf[at9].fg, styles.get(Role::Candidate).fg.unwrap());
        // Off: plain entry style.
        let h = Highlights {
            same_digit: false,
            ..Highlights::default()
        };
        let buf = render(&g, 0, &h, LARGE);
        let at = find(&buf, geo.cell_rect(other).unwrap(), &v.to_string()).unwrap();
        assert_eq!(buf[at].fg, styles.get(Role::Entered).fg.unwrap());
    }

    #[test]
    fn highlights_patch_in_order() {
        let s = Shape::CLASSIC;
        let sol = solution(s);
        let mut g = game(s);
        let styles = Styles::basic();
        // Row 0 conflicts (cells 0 and 1); cell 10 holds a wrong entry.
        g.enter(1, val(sol[0]), false);
        let wrong = if sol[11] == 9 { 8 } else { 9 };
        assert!(!g.is_given(11));
        g.enter(11, val(wrong), false);
        g.check();
        assert!(g.is_marked_wrong(11));
        let h = Highlights {
            peers: true,
            same_digit: false,
            conflicts: ConflictDisplay::Unit,
            hint_units: vec![2 * 9 + 8],
            hint_cells: vec![80, 4],
            ..Highlights::default()
        };
        let cursor = 72; // row 8, column 0
        let buf = render(&g, cursor, &h, SMALL);
        let geo = Geometry::new(s, SMALL, cursor);
        let origin = |c| geo.cell_rect(c).unwrap().as_position();
        let bg = |role| styles.get(role).bg.unwrap();
        let fg_of = |role| styles.get(role).fg.unwrap();
        // Peer of the cursor (column 0), nothing else.
        assert_eq!(buf[origin(36)].bg, bg(Role::Peer));
        assert_eq!(buf[origin(40)].bg, Color::Reset);
        // Row 0 conflicts: its cells get the unit tint, the pair the conflict colour.
        assert_eq!(buf[origin(4)].bg, bg(Role::ConflictUnit));
        let r0 = geo.cell_rect(0).unwrap();
        let at = find(&buf, r0, &sol[0].to_string()).unwrap();
        assert_eq!(buf[at].fg, fg_of(Role::Conflict));
        assert_eq!(buf[at].bg, bg(Role::ConflictUnit));
        // Hint units tint their cells; a hint target over the unit tint.
        assert_eq!(buf[origin(60)].bg, bg(Role::Hint));
        let r80 = geo.cell_rect(80).unwrap();
        let at = find(&buf, r80, &sol[80].to_string()).unwrap();
        assert_eq!(buf[at].fg, fg_of(Role::HintTarget));
        assert_eq!(buf[at].bg, bg(Role::Hint));
        // Hint target below the conflict unit's tint, above it in order: bg stays.
        let at = find(&buf, geo.cell_rect(4).unwrap(), &sol[4].to_string()).unwrap();
        assert_eq!(buf[at].fg, fg_of(Role::HintTarget));
        // Wrong entry.
        let at = find(&buf, geo.cell_rect(11).unwrap(), &wrong.to_string()).unwrap();
        assert_eq!(buf[at].fg, fg_of(Role::Wrong));
        assert!(buf[at].modifier.contains(Modifier::UNDERLINED));
        // Off: no conflict colour.
        let h = Highlights {
            conflicts: ConflictDisplay::Off,
            ..h
        };
        let buf = render(&g, cursor, &h, SMALL);
        let at = find(&buf, r0, &sol[0].to_string()).unwrap();
        assert_eq!(buf[at].fg, fg_of(Role::Given));
        assert_eq!(buf[origin(4)].bg, Color::Reset);
    }

    #[test]
    fn twenty_five_scrolls_to_the_cursor() {
        let s = shape(5, 5);
        let g = game(s);
        for cursor in [0, 12, 24, 300, 600, 612, 624] {
            let geo = Geometry::new(s, SMALL, cursor);
            assert!(geo.scrolls());
            assert_eq!(geo.notes_mode(), NotesMode::Hidden);
            let r = geo.cell_rect(cursor).unwrap();
            assert_eq!((r.width, r.height), (2, 1), "cursor {cursor}");
            assert_eq!(geo.cell_at(r.x, r.y), Some(cursor));
            assert_eq!(geo.size(), (55, 22));
            let buf = render(&g, cursor, &Highlights::default(), SMALL);
            assert!(buf[r.as_position()].modifier.contains(Modifier::REVERSED));
        }
        // First row: the top border shows; last row: the bottom border.
        let top = Geometry::new(s, SMALL, 0);
        assert_eq!(top.cell_rect(0).unwrap().y, 1);
        let bottom = Geometry::new(s, SMALL, 624);
        assert_eq!(bottom.cell_rect(624).unwrap().y, 20);
        assert_eq!(bottom.cell_rect(0), None);
        let buf = render(&g, 624, &Highlights::default(), SMALL);
        assert_eq!(ch(&buf, 54, 21), "┛");
        // A cursor in the middle is centred.
        let mid = Geometry::new(s, SMALL, s.cell_at(12, 12));
        let r = mid.cell_rect(s.cell_at(12, 12)).unwrap();
        assert!(r.y.abs_diff(11) <= 1, "{r:?}");
    }

    #[test]
    fn tiny_areas_do_not_panic_or_spill() {
        let shapes = [
            shape(2, 2),
            shape(2, 3),
            Shape::CLASSIC,
            shape(5, 5),
            shape(20, 20),
        ];
        let outer = Rect::new(0, 0, 40, 12);
        for s in shapes {
            let mut g = game(s);
            g.toggle_note(1, val(2));
            for (w, h) in [
                (0, 0),
                (1, 1),
                (3, 2),
                (2, 3),
                (0, 5),
                (7, 1),
                (12, 4),
                (30, 9),
            ] {
                let area = Rect::new(5, 2, w, h);
                for cursor in [0, s.cells() / 2, s.cells() - 1, s.cells() + 7] {
                    let mut buf = Buffer::filled(outer, ratatui::buffer::Cell::new("x"));
                    let styles = Styles::basic();
                    BoardView {
                        game: &g,
                        cursor,
                        styles: &styles,
                        highlights: &Highlights::default(),
                    }
                    .render(area, &mut buf);
                    for y in 0..outer.height {
                        for x in 0..outer.width {
                            if !area.contains((x, y).into()) {
                                assert_eq!(ch(&buf, x, y), "x", "{s} {area:?} at {x},{y}");
                            }
                        }
                    }
                    let geo = Geometry::new(s, area, cursor);
                    let (gw, gh) = geo.size();
                    assert!(gw <= w && gh <= h);
                    if let Some(r) = geo.cell_rect(cursor.min(s.cells() - 1)) {
                        assert!(area.contains(r.as_position()));
                    }
                }
            }
        }
        // An area partly outside the buffer.
        let g = game(Shape::CLASSIC);
        let mut buf = Buffer::empty(Rect::new(0, 0, 20, 10));
        let styles = Styles::basic();
        BoardView {
            game: &g,
            cursor: 0,
            styles: &styles,
            highlights: &Highlights::default(),
        }
        .render(Rect::new(10, 5, 55, 22), &mut buf);
        assert_eq!(ch(&buf, 10, 5), "┏");
    }
}
