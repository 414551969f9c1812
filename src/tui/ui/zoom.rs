//! The magnifier: the cursor's box, or the cells a hint or logic step
//! names, drawn large with every note in its place, so that the notes of
//! a board too big to show them can be read cell by cell and a step can
//! be checked candidate by candidate (each drawn by the part it plays).
//! Where it goes and how large is `layout::play_layout` and
//! `layout::zoom`; this file only draws.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Block, Borders, Widget};

use crate::engine::Value;
use crate::engine::logic::{CandidateRole, Step};
use crate::game::{Game, Hint, NoteSet};
use crate::tui::app::{ConflictDisplay, Emphasis};
use crate::tui::layout::{
    PANEL_TEXT_MIN, PlayLayout, Weight, ZoomGrid, ZoomList, ZoomPlan, ZoomSlot, panel_split,
};
use crate::tui::style::{Role, Styles};

use super::board::junction;

/// What a hint or logic step names: its cells, the units it reasons
/// about, and each candidate it involves with the part it plays.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Focus {
    /// The cells, sorted.
    pub cells: Vec<usize>,
    /// The units (rows 0..n, columns n..2n, boxes 2n..3n): shown whole
    /// when they fit (a hidden single's box), as context.
    pub units: Vec<usize>,
    /// (cell, value, role), sorted by cell and value.
    pub roles: Vec<(usize, Value, CandidateRole)>,
}

impl Focus {
    /// What `step` names: the cells of its pattern and of every candidate
    /// it involves, placements and eliminations included.
    pub fn of_step(step: &Step) -> Focus {
        let roles = step.candidate_roles();
        let mut cells = step.highlights.cells.clone();
        cells.extend(roles.iter().map(|&(c, _, _)| c));
        cells.sort_unstable();
        cells.dedup();
        Focus {
            cells,
            units: step.highlights.units.clone(),
            roles,
        }
    }

    /// What a hint's second stage names.
    pub fn of_hint(hint: &Hint, game: &Game) -> Focus {
        let units = hint.units(game);
        match hint {
            Hint::Logic(step) => Focus::of_step(step),
            Hint::Place { cell, value, .. } => Focus {
                cells: vec![*cell],
                units,
                roles: vec![(*cell, *value, CandidateRole::Placed)],
            },
            Hint::Wrong { cells } => {
                let mut cells = cells.clone();
                cells.sort_unstable();
                cells.dedup();
                Focus {
                    cells,
                    units,
                    roles: Vec::new(),
                }
            }
        }
    }

    /// The part (`cell`, `value`) plays, if any.
    fn role(&self, cell: usize, value: Value) -> Option<CandidateRole> {
        let i = self
            .roles
            .partition_point(|&(c, v, _)| (c, v.index()) < (cell, value.index()));
        self.roles
            .get(i)
            .filter(|&&(c, v, _)| (c, v) == (cell, value))
            .map(|&(_, _, r)| r)
    }

    /// The values of `cell` the step involves.
    fn values(&self, cell: usize) -> impl Iterator<Item = Value> + '_ {
        let i = self.roles.partition_point(|&(c, _, _)| c < cell);
        self.roles[i..]
            .iter()
            .take_while(move |&&(c, _, _)| c == cell)
            .map(|&(_, v, _)| v)
    }
}

/// The style of a candidate by the part it plays in a step.
///
/// A stand-in until step roles have theme entries of their own: it
/// patches the themes' existing roles over the candidate's, with a
/// modifier for each part so they read apart without colour too
/// (`NO_COLOR`): eliminated crossed out, placed underlined, a fin in
/// italics, a chain's on nodes bold and off nodes underlined, the
/// pattern bold.
pub fn candidate_style(s: &Styles, role: CandidateRole) -> Style {
    let base = s.get(Role::Candidate);
    let (over, m) = match role {
        CandidateRole::Eliminated => (Role::Conflict, Modifier::CROSSED_OUT),
        CandidateRole::Placed => (Role::Solved, Modifier::BOLD | Modifier::UNDERLINED),
        CandidateRole::Fin | CandidateRole::EndoFin => (Role::SolverBacktrack, Modifier::ITALIC),
        CandidateRole::ChainOn => (Role::SolverTry, Modifier::BOLD),
        CandidateRole::ChainOff => (Role::Entered, Modifier::UNDERLINED),
        CandidateRole::Colour(k) | CandidateRole::Set(k) if k % 2 == 1 => {
            (Role::Entered, Modifier::BOLD)
        }
        CandidateRole::Colour(_) | CandidateRole::Set(_) => (Role::SolverTry, Modifier::BOLD),
        CandidateRole::Pattern => (Role::Hint, Modifier::BOLD),
    };
    base.patch(s.get(over)).add_modifier(m)
}

/// The magnifier of a game: the cursor's box, or what `focus` names.
#[derive(Debug, Clone, Copy)]
pub struct ZoomView<'a> {
    /// The game shown (a logic walk's position, on the logic screen).
    pub game: &'a Game,
    /// The cursor cell: its box is magnified when there is no focus.
    pub cursor: usize,
    /// Styles by role.
    pub styles: &'a Styles,
    /// What the board emphasises (same digit, conflicts).
    pub emphasis: &'a Emphasis,
    /// A hint's or step's cells and candidates.
    pub focus: Option<&'a Focus>,
}

/// Writes `text` from (x, y) with `style`, inside the buffer.
fn put(buf: &mut Buffer, x: u16, y: u16, text: &str, style: Style) {
    for (i, ch) in text.chars().enumerate() {
        if let Some(cell) = buf.cell_mut((x.saturating_add(i as u16), y)) {
            cell.set_char(ch).set_style(style);
        }
    }
}

impl ZoomView<'_> {
    /// What is drawn in `area`: the focus's cells (as a grid of their rows
    /// and columns, with its units when they fit, or a list), else the cursor's box (or the window of it
    /// that fits).
    pub fn plan(&self, area: Rect) -> Option<ZoomPlan> {
        let shape = self.game.shape();
        self.focus
            .filter(|f| !f.cells.is_empty())
            .and_then(|f| ZoomPlan::step(shape, &f.cells, &f.units, area))
            .or_else(|| ZoomGrid::cursor_box(shape, self.cursor, area).map(ZoomPlan::Grid))
    }

    /// The notes drawn in `cell`: its own, and the candidates the focus
    /// names there (a hint on computed candidates may name some the
    /// player has not noted).
    fn notes(&self, cell: usize) -> NoteSet {
        let mut set = self.game.notes(cell);
        if let Some(f) = self.focus {
            for v in f.values(cell) {
                set.set(v, true);
            }
        }
        set
    }

    /// The style of value `v` written in `cell`.
    fn value_style(&self, cell: usize, v: Value, cursor_value: Option<Value>) -> Style {
        let s = self.styles;
        let mut st = s.get(if self.game.is_given(cell) {
            Role::Given
        } else {
            Role::Entered
        });
        if self.emphasis.same_digit && Some(v) == cursor_value {
            st = st.patch(s.get(Role::SameDigit));
        }
        if self.game.is_marked_wrong(cell) {
            st = st.patch(s.get(Role::Wrong));
        }
        st
    }

    /// The style of note `v` in `cell` over the cell's background
    /// `back`: a step's part wins over the background, the background
    /// over a plain note (as on the board: the cursor's reverses it).
    fn note_style(&self, cell: usize, v: Value, cursor_value: Option<Value>, back: Style) -> Style {
        let s = self.styles;
        match self.focus.and_then(|f| f.role(cell, v)) {
            Some(role) => back.patch(candidate_style(s, role)),
            None if self.emphasis.same_digit && Some(v) == cursor_value => s
                .get(Role::Candidate)
                .patch(s.get(Role::SameDigit))
                .patch(back),
            None => s.get(Role::Candidate).patch(back),
        }
    }

    /// The background of `cell`: the cursor's when magnifying its box.
    fn back(&self, cell: usize) -> Style {
        match self.focus {
            None if cell == self.cursor => self.styles.get(Role::Cursor),
            _ => Style::default(),
        }
    }

    fn draw_grid(&self, g: &ZoomGrid, buf: &mut Buffer) {
        let s = self.styles;
        let shape = self.game.shape();
        let dim = s.get(Role::Dim);
        for (x, y, text) in g.col_labels().into_iter().chain(g.row_labels()) {
            put(buf, x, y, &text, dim);
        }
        // Lines: every crossing of a vertical and a horizontal line is a
        // junction of their weights.
        let (cols, rows) = (g.col_lines(), g.row_lines());
        let (Some(&(left, _)), Some(&(right, _))) = (cols.first(), cols.last()) else {
            return;
        };
        let (Some(&(top, _)), Some(&(bottom, _))) = (rows.first(), rows.last()) else {
            return;
        };
        let border = |w| match w {
            Weight::Heavy => s.get(Role::BoxBorder),
            Weight::Light => s.get(Role::CellBorder),
        };
        for &(y, hw) in &rows {
            for x in left..=right {
                let ch = match cols.iter().find(|&&(cx, _)| cx == x) {
                    Some(&(_, vw)) => junction([
                        (y > top).then_some(vw),
                        (y < bottom).then_some(vw),
                        (x > left).then_some(hw),
                        (x < right).then_some(hw),
                    ]),
                    None if hw == Weight::Heavy => '━',
                    None => '─',
                };
                let w = match cols.iter().find(|&&(cx, _)| cx == x) {
                    Some(&(_, Weight::Heavy)) => Weight::Heavy,
                    _ => hw,
                };
                put(buf, x, y, &ch.to_string(), border(w));
            }
        }
        for &(x, vw) in &cols {
            for y in top..=bottom {
                if rows.iter().all(|&(ry, _)| ry != y) {
                    let ch = if vw == Weight::Light { "│" } else { "┃" };
                    put(buf, x, y, ch, border(vw));
                }
            }
        }
        // Cells.
        let cursor_value = self.game.value(self.cursor);
        let conflicts =
            (self.emphasis.conflicts != ConflictDisplay::Off).then(|| self.game.conflicts().cells);
        for (i, &row) in g.rows().iter().enumerate() {
            for (j, &col) in g.cols().iter().enumerate() {
                let c = shape.cell_at(row, col);
                let r = g.cell_rect(i, j);
                let back = self.back(c);
                for y in r.y..r.bottom() {
                    put(buf, r.x, y, &" ".repeat(usize::from(r.width)), back);
                }
                if let Some(v) = self.game.value(c) {
                    let mut st = self.value_style(c, v, cursor_value);
                    if conflicts.as_ref().and_then(|k| k.get(c)) == Some(&true) {
                        st = st.patch(s.get(Role::Conflict));
                    }
                    let sym = self.game.symbol(v);
                    let len = sym.chars().count() as u16;
                    let x = r.x + (r.width + 1).saturating_sub(len) / 2;
                    put(buf, x, r.y + r.height / 2, &sym, st.patch(back));
                    continue;
                }
                for v in self.notes(c).iter() {
                    let (dx, dy) = g.note_offset(v.index());
                    let st = self.note_style(c, v, cursor_value, back);
                    put(buf, r.x + dx, r.y + dy, &self.game.symbol(v), st);
                }
            }
        }
    }

    fn draw_list(&self, l: &ZoomList, buf: &mut Buffer) {
        let s = self.styles;
        let n = self.game.shape().n();
        let dim = s.get(Role::Dim);
        let (_, y0) = l.line(0);
        for d in 0..n {
            let v = Value::from_index(d);
            put(buf, l.value_x(d), y0, &self.game.symbol(v), dim);
        }
        let cursor_value = self.game.value(self.cursor);
        for (k, &c) in l.shown().iter().enumerate() {
            let (x, y) = l.line(k + 1);
            put(buf, x, y, &self.game.cell_name(c), s.get(Role::Text));
            if let Some(v) = self.game.value(c) {
                let st = self.value_style(c, v, cursor_value);
                put(buf, l.value_x(v.index()), y, &self.game.symbol(v), st);
                continue;
            }
            for v in self.notes(c).iter() {
                let st = self.note_style(c, v, cursor_value, Style::default());
                put(buf, l.value_x(v.index()), y, &self.game.symbol(v), st);
            }
        }
        if l.more() > 0 {
            // Said, never dropped silently (within the list's width).
            let (x, y) = l.line(l.shown().len() + 1);
            let (w, _) = l.size();
            let text: String = format!("+{} more cells", l.more())
                .chars()
                .take(usize::from(w))
                .collect();
            put(buf, x, y, &text, dim);
        }
    }
}

impl Widget for ZoomView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        match self.plan(area) {
            Some(ZoomPlan::Grid(g)) => self.draw_grid(&g, buf),
            Some(ZoomPlan::List(l)) => self.draw_list(&l, buf),
            None => {}
        }
    }
}

/// Whether any cell of `game` holds a note.
pub fn has_notes(game: &Game) -> bool {
    (0..game.shape().cells()).any(|c| !game.notes(c).is_empty())
}

/// Where the magnifier is drawn, when `wanted` (notes to read, a step to
/// check): its area (what it draws there is [`ZoomView::plan`] of it), and
/// whether that is in the side panel, whose part left for text is then
/// the second rect (else the second is the whole panel). In the panel it
/// sits at the foot, leaving `keep` lines above it for text (a step's
/// explanation; see [`text_keep`]); where what is left holds no
/// magnifier, there is none and the text has the whole panel.
pub fn placement(
    view: &ZoomView,
    layout: &PlayLayout,
    wanted: bool,
    keep: u16,
) -> (Option<Rect>, Option<Rect>) {
    match layout.zoom {
        Some(ZoomSlot::Beside(r)) if wanted => (Some(r), layout.panel),
        Some(ZoomSlot::Panel(inside)) if wanted => {
            let Some(panel) = layout.panel else {
                return (None, None);
            };
            let room = Rect {
                height: inside.height.saturating_sub(keep),
                ..inside
            };
            match view.plan(room) {
                Some(plan) => {
                    let (text, zoom) = panel_split(panel, plan.size().1);
                    (Some(zoom), Some(text))
                }
                None => (None, Some(panel)),
            }
        }
        _ => (None, layout.panel),
    }
}

/// The lines [`placement`] keeps above a magnifier in the side panel for
/// `text_rows` lines of text: at least [`PANEL_TEXT_MIN`] (the technique
/// and the start of its explanation), plus the blank line between.
pub fn text_keep(text_rows: usize) -> u16 {
    u16::try_from(text_rows + 1)
        .unwrap_or(u16::MAX)
        .max(PANEL_TEXT_MIN)
}

/// Draws the magnifier where [`placement`] puts it; the side panel's part
/// left for its text.
pub fn draw(
    frame: &mut Frame,
    view: ZoomView,
    layout: &PlayLayout,
    wanted: bool,
    keep: u16,
) -> Option<Rect> {
    let (zoom, text) = placement(&view, layout, wanted, keep);
    if let Some(zoom) = zoom {
        if let (Some(panel), true) = (layout.panel, text != layout.panel) {
            frame.render_widget(
                Block::default()
                    .borders(Borders::LEFT)
                    .border_style(view.styles.get(Role::CellBorder)),
                panel,
            );
        }
        frame.render_widget(view, zoom);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Grid, Puzzle, Shape};
    use crate::game::Origin;
    use crate::tui::layout::Spacing;

    /// Every part a candidate can play reads apart from the others and
    /// from a plain note, in colour and without (`NO_COLOR`).
    #[test]
    fn candidate_roles_read_apart_with_and_without_colour() {
        let roles = [
            CandidateRole::Eliminated,
            CandidateRole::Placed,
            CandidateRole::Fin,
            CandidateRole::ChainOn,
            CandidateRole::ChainOff,
            CandidateRole::Pattern,
        ];
        for s in [Styles::basic(), Styles::basic().monochrome()] {
            let mut seen = vec![s.get(Role::Candidate)];
            for role in roles {
                let st = candidate_style(&s, role);
                assert!(!seen.contains(&st), "{role:?} {st:?}");
                seen.push(st);
            }
            let gone = candidate_style(&s, CandidateRole::Eliminated);
            assert!(gone.add_modifier.contains(Modifier::CROSSED_OUT));
        }
    }

    /// A 9×9 game (the usual shifted solution) with every cell where row
    /// + column is odd empty and its candidates noted.
    fn game() -> Game {
        let s = Shape::CLASSIC;
        let sol: Vec<usize> = (0..81)
            .map(|c| {
                let (r, col) = (c / 9, c % 9);
                ((r % 3) * 3 + r / 3 + col) % 9 + 1
            })
            .collect();
        let numbers: Vec<usize> = (0..81)
            .map(|c| if (c / 9 + c % 9) % 2 == 1 { 0 } else { sol[c] })
            .collect();
        let puzzle = Puzzle::from_numbers(s, &numbers).unwrap();
        let grid = Grid::new(s, sol.iter().map(|&v| Value::new(v).unwrap()).collect()).unwrap();
        let mut g = Game::new(&puzzle, Some(grid), Origin::default());
        g.fill_candidates();
        g
    }

    fn text(buf: &Buffer, r: Rect) -> Vec<String> {
        (r.y..r.bottom())
            .map(|y| (r.x..r.right()).map(|x| buf[(x, y)].symbol()).collect())
            .collect()
    }

    #[test]
    fn the_cursors_box_is_drawn_with_notes_in_place() {
        let g = game();
        let styles = Styles::basic();
        let emphasis = Emphasis::default();
        let area = Rect::new(0, 0, 30, 20);
        let view = ZoomView {
            game: &g,
            cursor: 1,
            styles: &styles,
            emphasis: &emphasis,
            focus: None,
        };
        let mut buf = Buffer::empty(area);
        view.render(area, &mut buf);
        let Some(ZoomPlan::Grid(z)) = view.plan(area) else {
            panic!("a grid")
        };
        assert_eq!(z.spacing(), Spacing::Spaced);
        let (w, h) = z.size();
        let lines = text(&buf, Rect::new(0, 0, w, h));
        assert_eq!(lines[0], "    1     2     3   ");
        assert_eq!(lines[1], " ┏━━━━━┯━━━━━┯━━━━━┓");
        assert_eq!(lines[5], " ┠─────┼─────┼─────┨");
        assert_eq!(lines[13], " ┗━━━━━┷━━━━━┷━━━━━┛");
        // r1c2 (empty): its candidates in their places, the cursor's
        // reverse over the cell; r1c1 (given 1) centred.
        let r = z.cell_rect(0, 1);
        let want: Vec<String> = (0..3)
            .map(|dy| {
                (0..3)
                    .map(|dx| {
                        let v = Value::from_index(dy * 3 + dx);
                        if g.notes(1).has(v) {
                            g.symbol(v)
                        } else {
                            " ".into()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        assert_eq!(text(&buf, r), want);
        assert!(buf[(r.x, r.y)].modifier.contains(Modifier::REVERSED));
        assert_eq!(text(&buf, z.cell_rect(0, 0))[1], "  1  ");
        assert_eq!(lines[3].chars().next(), Some('1'));
    }

    #[test]
    fn a_step_too_large_for_a_grid_is_listed_and_says_what_is_left_out() {
        let g = game();
        let styles = Styles::basic();
        let emphasis = Emphasis::default();
        // Empty cells on nine rows and columns: no grid fits 16 columns.
        let cells: Vec<usize> = (0..9).map(|r| r * 9 + (r + 1) % 9).collect();
        let v = Value::new(2).unwrap();
        let roles: Vec<(usize, Value, CandidateRole)> = cells
            .iter()
            .filter(|&&c| g.notes(c).has(v))
            .map(|&c| (c, v, CandidateRole::Eliminated))
            .collect();
        assert!(!roles.is_empty());
        let focus = Focus {
            cells: cells.clone(),
            units: Vec::new(),
            roles: roles.clone(),
        };
        let view = ZoomView {
            game: &g,
            cursor: 0,
            styles: &styles,
            emphasis: &emphasis,
            focus: Some(&focus),
        };
        let area = Rect::new(0, 0, 16, 6);
        let mut buf = Buffer::empty(area);
        view.render(area, &mut buf);
        let lines = text(&buf, area);
        assert_eq!(lines[0], "     123456789  ");
        assert!(lines[1].starts_with("r1c2 "), "{lines:?}");
        assert_eq!(lines[5], "+5 more cells   ");
        let Some(ZoomPlan::List(l)) = view.plan(area) else {
            panic!("a list")
        };
        for &(c, v, _) in roles.iter().filter(|r| l.shown().contains(&r.0)) {
            let k = l.shown().iter().position(|&x| x == c).unwrap();
            let at = (l.value_x(v.index()), l.line(k + 1).1);
            assert_eq!(buf[at].symbol(), "2");
            assert!(buf[at].modifier.contains(Modifier::CROSSED_OUT));
        }
    }
}
