//! The board widget: how a game's grid is laid out in an area ([`Geometry`]:
//! natural notes, compact or tight, scrolling to keep the cursor in view)
//! and how it is drawn ([`BoardView`]) from the theme's roles and the
//! app's [`Emphasis`]: a hint's units tinted by their part, its candidates
//! drawn by theirs (noted or not), a chain's cells numbered on the line
//! above each. `BoardView::candidates_of` says how one cell's candidates
//! look now, for any view that draws them elsewhere.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use crate::engine::Value;
use crate::engine::logic::{CandidateRole, UnitRole};
use crate::game::{self, Game};
use crate::tui::app::{ConflictDisplay, Emphasis};
use crate::tui::layout::{Geometry, NotesMode, Slot, Weight, symbol_width};
use crate::tui::style::{Role, Styles, candidate_role, unit_role};

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
    /// Per cell, the roles of the hint's units through it: bit 0 another
    /// unit, bit 1 a base line, bit 2 a cover line.
    units: Vec<u8>,
    target: Vec<bool>,
}

impl Marks {
    fn new(game: &Game, h: &Emphasis) -> Marks {
        let shape = game.shape();
        let cells = shape.cells();
        let mut m = Marks {
            conflict: Vec::new(),
            conflict_unit: Vec::new(),
            units: vec![0; cells],
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
        for &(u, role) in h.hint_units.iter().filter(|&&(u, _)| u < shape.units()) {
            let bit = match role {
                UnitRole::Involved => 1,
                UnitRole::Base => 2,
                UnitRole::Cover => 4,
            };
            for cell in shape.unit_cells(u) {
                m.units[cell] |= bit;
            }
        }
        for &c in h.hint_cells.iter().filter(|&&c| c < cells) {
            m.target[c] = true;
        }
        m
    }
}

/// A candidate as a cell shows it: value, style, role in the step shown.
pub(crate) type Shown = (Value, Style, Option<CandidateRole>);

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
            // A cover line's tint over a base line's where they cross.
            (marks.units[c] & 1 != 0, unit_role(UnitRole::Involved)),
            (marks.units[c] & 2 != 0, unit_role(UnitRole::Base)),
            (marks.units[c] & 4 != 0, unit_role(UnitRole::Cover)),
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
            // No room for notes: the cell takes the look of its most
            // telling candidate in a step (what is removed first), and
            // shows the value a step places.
            let Some((v, role)) = ctx
                .roles(c)
                .iter()
                .map(|&(_, v, r)| (v, r))
                .min_by_key(|&(_, r)| r)
            else {
                return;
            };
            let style = back.patch(self.styles.get(candidate_role(role)));
            for dy in 0..h {
                for dx in 0..w {
                    at(dx, dy, ' ', style);
                }
            }
            if role == CandidateRole::Placed {
                let sym = ctx.symbol(v);
                let left = w.saturating_sub(sym.chars().count());
                for (i, ch) in sym.chars().enumerate() {
                    at(left + i, h / 2, ch, style);
                }
            }
            return;
        }
        let shown = self.candidates_of(ctx, c);
        if shown.is_empty() {
            return;
        }
        let plain = self.styles.get(Role::Candidate).patch(back);
        match g.mode {
            NotesMode::Natural => {
                let bc = shape.box_cols();
                for &(v, style, _) in &shown {
                    let d = v.index();
                    for ch in ctx.symbol(v).chars().take(1) {
                        at(1 + 2 * (d % bc), d / bc, ch, style);
                    }
                }
            }
            NotesMode::Compact => {
                // Symbols of more than one character are separated by a space.
                let sep = usize::from(symbol_width(shape.n()) > 1);
                let sym_w = |v: Value| ctx.symbol(v).chars().count();
                let total = shown.iter().map(|s| sym_w(s.0) + sep).sum::<usize>() - sep;
                let cut = total > w;
                // What does not fit gives way, the step's own candidates
                // never: they are what the player must see. The others
                // fill the room left before the "…", in value order.
                let room = w.saturating_sub(1 + sep) + sep;
                let mut used: usize = shown
                    .iter()
                    .filter(|s| s.2.is_some())
                    .map(|s| sym_w(s.0) + sep)
                    .sum();
                let keep: Vec<&Shown> = shown
                    .iter()
                    .filter(|s| {
                        if !cut || s.2.is_some() {
                            return true;
                        }
                        let need = sym_w(s.0) + sep;
                        let fits = used + need <= room;
                        if fits {
                            used += need;
                        }
                        fits
                    })
                    .collect();
                let mut text: Vec<(char, Style)> = Vec::with_capacity(w + 2);
                for &&(v, style, _) in &keep {
                    if sep == 1 && !text.is_empty() {
                        text.push((' ', plain));
                    }
                    text.extend(ctx.symbol(v).chars().map(|ch| (ch, style)));
                }
                if cut {
                    if sep == 1 && !text.is_empty() {
                        text.push((' ', plain));
                    }
                    text.push(('…', plain));
                }
                text.truncate(w);
                let left = usize::from(text.len() < w);
                for (i, &(ch, st)) in text.iter().enumerate() {
                    at(left + i, 0, ch, st);
                }
            }
            NotesMode::Hidden => {}
        }
    }

    /// The candidates cell `c` shows now, in value order, each with the
    /// style it is drawn in on the board and its role in the hint or step
    /// shown: the player's notes (lit when they hold the cursor's value)
    /// and the step's candidates in their roles' styles (what it removes,
    /// places, its fins, …), noted or not. Empty for a filled cell. `ctx`
    /// is [`BoardView::frame`]; a view that draws candidates elsewhere
    /// (a magnifier) calls this to draw them alike.
    pub(crate) fn candidates_of(&self, ctx: &Frame, c: usize) -> Vec<Shown> {
        if self.game.value(c).is_some() {
            return Vec::new();
        }
        let back = self.highlight(c, false, &ctx.marks);
        let candidate = self.styles.get(Role::Candidate);
        let plain = candidate.patch(back);
        let lit = candidate.patch(self.highlight(c, true, &ctx.marks));
        let roles = ctx.roles(c);
        let mut out: Vec<Shown> = self
            .game
            .notes(c)
            .iter()
            .filter(|v| !roles.iter().any(|&(_, rv, _)| rv == *v))
            .map(|v| {
                let st = if Some(v) == ctx.cursor_value {
                    lit
                } else {
                    plain
                };
                (v, st, None)
            })
            .collect();
        out.extend(roles.iter().map(|&(_, v, r)| {
            let st = back.patch(self.styles.get(candidate_role(r)));
            (v, st, Some(r))
        }));
        out.sort_by_key(|&(v, _, _)| v);
        out
    }

    /// What every cell of a frame shares, for [`BoardView::candidates_of`]:
    /// worked out once per drawing.
    pub(crate) fn frame(&self) -> Frame {
        let shape = self.game.shape();
        let n = shape.n();
        Frame {
            cursor_value: (self.cursor < shape.cells())
                .then(|| self.game.value(self.cursor))
                .flatten(),
            symbols: (0..n)
                .map(|d| game::symbol(n, Value::from_index(d)))
                .collect(),
            marks: Marks::new(self.game, self.emphasis),
            roles: self.emphasis.candidates.clone(),
        }
    }

    /// Marks a fish's base and cover lines where they meet the board's
    /// frame, `b` and `c` (lower case: values are capitals) (a row on the left and right edges, a column on
    /// the top and bottom edges, a box on the thin line crossings inside
    /// it), so they read apart without colour too, where tints do not
    /// show.
    fn draw_unit_marks(&self, g: &Geometry, buf: &mut Buffer) {
        let shape = g.shape;
        let n = shape.n();
        let (x_end, y_end) = (g.x.total() - 1, g.y.total() - 1);
        for &(u, role) in &self.emphasis.hint_units {
            let mark = match role {
                UnitRole::Base => 'b',
                UnitRole::Cover => 'c',
                UnitRole::Involved => continue,
            };
            let style = self
                .styles
                .get(Role::BoxBorder)
                .patch(self.styles.get(unit_role(role)));
            let mut spots: Vec<(usize, usize)> = Vec::new();
            let i = u % n;
            match u / n {
                0 => {
                    let by = g.y.start(i) + g.y.inner / 2;
                    spots.extend([(0, by), (x_end, by)]);
                }
                1 => {
                    let bx = g.x.start(i) + g.x.inner / 2;
                    spots.extend([(bx, 0), (bx, y_end)]);
                }
                2 => {
                    // The thin crossings inside the box (none in tight layouts).
                    let (br, bc) = (shape.box_rows(), shape.box_cols());
                    let (top, left) = (
                        (i / shape.boxes_per_row()) * br,
                        (i % shape.boxes_per_row()) * bc,
                    );
                    for r in top + 1..top + br {
                        for c in left + 1..left + bc {
                            let (bx, by) = (g.x.start(c) - 1, g.y.start(r) - 1);
                            let thin = |slot: Option<Slot>| slot == Some(Slot::Line(Weight::Light));
                            if thin(g.x.slot(bx)) && thin(g.y.slot(by)) {
                                spots.push((bx, by));
                            }
                        }
                    }
                }
                _ => {}
            }
            for (bx, by) in spots {
                if let (Some(sx), Some(sy)) = (g.x.screen(bx), g.y.screen(by)) {
                    put(buf, sx, sy, mark, style);
                }
            }
        }
    }

    /// Writes each chain cell's place in the chain on the line above the
    /// cell (there is a line above every cell when notes are shown; the
    /// tight layout has none, and shows no order).
    fn draw_chain(&self, g: &Geometry, buf: &mut Buffer) {
        if g.mode == NotesMode::Hidden {
            return;
        }
        let shape = g.shape;
        let style = self.styles.get(Role::ChainOrder);
        for (c, label) in &self.emphasis.chain {
            if *c >= shape.cells() {
                continue;
            }
            let (row, col) = (shape.row_of(*c), shape.col_of(*c));
            let Some(line) = g.y.start(row).checked_sub(1).and_then(|by| g.y.screen(by)) else {
                continue;
            };
            let w = g.x.inner;
            let mut text: Vec<char> = label.chars().collect();
            if text.len() > w {
                text.truncate(w.saturating_sub(1));
                text.push('…');
            }
            let left = usize::from(text.len() < w);
            for (i, &ch) in text.iter().enumerate() {
                if let Some(sx) = g.x.screen(g.x.start(col) + left + i) {
                    put(buf, sx, line, ch, style);
                }
            }
        }
    }
}

/// What every cell of one frame shares ([`BoardView::frame`]).
pub(crate) struct Frame {
    cursor_value: Option<Value>,
    symbols: Vec<String>,
    marks: Marks,
    /// The step's candidates with their roles, sorted by cell and value.
    roles: Vec<(usize, Value, CandidateRole)>,
}

impl Frame {
    fn symbol(&self, v: Value) -> &str {
        self.symbols.get(v.index()).map_or("?", String::as_str)
    }

    /// The step's candidates in cell `c`, in value order.
    fn roles(&self, c: usize) -> &[(usize, Value, CandidateRole)] {
        let lo = self.roles.partition_point(|&(rc, _, _)| rc < c);
        let hi = self.roles.partition_point(|&(rc, _, _)| rc <= c);
        &self.roles[lo..hi]
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
        let ctx = self.frame();
        for row in g.y.cells_visible() {
            for col in g.x.cells_visible() {
                self.draw_cell(&g, shape.cell_at(row, col), &ctx, buf);
            }
        }
        self.draw_unit_marks(&g, buf);
        self.draw_chain(&g, buf);
    }
}

#[cfg(test)]
mod tests;
