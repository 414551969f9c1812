//! Where things are on screen: the window's frame (title, body, status
//! line), the board, its side panel and the magnifier ([`play_layout`],
//! [`zoom`]), menu boxes, and the board's own layout ([`Geometry`]:
//! natural notes, compact or tight, scrolling to keep the cursor in
//! view). Both the app (mouse clicks, [`cell_at`](Geometry::cell_at),
//! [`menu_item_at`]) and the drawing code read it, so neither imports the
//! other. Pure functions of the window size, the shape and the cursor.

use std::ops::Range;

use ratatui::layout::{Constraint, Layout, Rect};

use crate::engine::Shape;

pub mod zoom;

pub use zoom::{Spacing, ZoomGrid, ZoomList, ZoomPlan};

/// The smallest window the game draws in.
pub const MIN_SIZE: (u16, u16) = (44, 14);

/// Width of the side panel, when the window is wide enough for it.
pub const PANEL_WIDTH: u16 = 25;

/// Widest the side panel grows when the board leaves columns to spare, so
/// that its keys and a hint's text do not wrap on a wide window.
pub const WIDE_PANEL_WIDTH: u16 = 40;

/// Title line, body and status line of the window.
pub fn frame_parts(area: Rect) -> (Rect, Rect, Rect) {
    let [title, body, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(area);
    (title, body, status)
}

/// Board and side panel within the body, the board's area not yet
/// narrowed to the board. The panel goes when the window is narrow, or
/// when the board needs its columns (a board that would scroll sideways
/// beside the panel but fits across the whole body).
fn split(area: Rect, shape: Shape) -> (Rect, Option<Rect>) {
    let (_, body, _) = frame_parts(area);
    if body.width < 70 {
        return (body, None);
    }
    let [board, panel] =
        Layout::horizontal([Constraint::Min(1), Constraint::Length(PANEL_WIDTH)]).areas(body);
    let beside = Geometry::new(shape, board, 0);
    let alone = Geometry::new(shape, body, 0);
    if beside.scrolls() && beside.size().0 >= board.width && alone.size().0 > board.width {
        (body, None)
    } else {
        (board, Some(panel))
    }
}

/// Board area and panel with the columns the board does not use (beyond
/// a margin of two) given to the panel, up to [`WIDE_PANEL_WIDTH`], so
/// that its keys and a hint's text do not wrap on a wide window. Only
/// where there is no magnifier, which would want those columns: the
/// board keeps its cells, since its area stays at least as wide as it.
fn grow_panel(board: Rect, panel: Option<Rect>, shape: Shape) -> (Rect, Option<Rect>) {
    let Some(panel) = panel else {
        return (board, None);
    };
    let g = Geometry::new(shape, board, 0);
    let spare = board.width.saturating_sub(g.size().0.saturating_add(2));
    let grow = if g.scrolls() {
        0
    } else {
        spare.min(WIDE_PANEL_WIDTH.saturating_sub(panel.width))
    };
    (
        Rect {
            width: board.width - grow,
            ..board
        },
        Some(Rect {
            x: panel.x - grow,
            width: panel.width + grow,
            ..panel
        }),
    )
}

/// The board of `shape` centred across `area`.
fn centre_board(area: Rect, shape: Shape) -> Rect {
    let w = Geometry::new(shape, area, 0).size().0.min(area.width);
    Rect::new(area.x + (area.width - w) / 2, area.y, w, area.height)
}

/// Board and side panel within the body (the solver views, which have no
/// magnifier; play and the logic walk use [`play_layout`]).
pub fn play_parts(area: Rect, shape: Shape) -> (Rect, Option<Rect>) {
    let (board, panel) = split(area, shape);
    let (board, panel) = grow_panel(board, panel, shape);
    (centre_board(board, shape), panel)
}

/// Where the magnifier goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZoomSlot {
    /// Beside the board, in columns the board leaves free (kept free
    /// while there is nothing to magnify, so the board never moves).
    Beside(Rect),
    /// At the foot of the side panel (this is the panel's inside, its
    /// left line excluded), the panel's text above it.
    Panel(Rect),
}

/// The play screen's parts: the board, the side panel and the magnifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayLayout {
    /// Where the board is drawn (also used to map clicks to cells).
    pub board: Rect,
    /// The side panel, when the window is wide enough.
    pub panel: Option<Rect>,
    /// The magnifier, when the board cannot show every note in its place
    /// and there is room for at least one magnified cell; it shows when
    /// there are notes or a step to read.
    pub zoom: Option<ZoomSlot>,
}

/// Lines of the side panel's text kept above the magnifier when it shows
/// a step there (the technique and the start of its explanation).
pub const PANEL_TEXT_MIN: u16 = 5;

/// The board, side panel and magnifier of the play and logic screens.
///
/// The board keeps the layout it has without a magnifier (natural notes,
/// compact, tight), and when that shows every note in its place there is
/// no magnifier. Otherwise the magnifier — the cursor's box with its notes
/// in their places, or a step's cells — goes, first that fits:
/// 1. beside the board, in the columns it leaves free;
/// 2. at the foot of the side panel;
/// 3. beside the board laid out in the columns the magnifier leaves (a
///    compact board with narrower cells), when it still fits whole;
/// 4. beside the board or in the panel, as a window of the box around
///    the cursor (as many of its cells as fit).
pub fn play_layout(area: Rect, shape: Shape) -> PlayLayout {
    let (board_area, panel) = split(area, shape);
    let g = Geometry::new(shape, board_area, 0);
    if g.notes_mode() == NotesMode::Natural {
        let (board, panel) = grow_panel(board_area, panel, shape);
        return PlayLayout {
            board: centre_board(board, shape),
            panel,
            zoom: None,
        };
    }
    let plain = PlayLayout {
        board: centre_board(board_area, shape),
        panel,
        zoom: None,
    };
    let with = |board: Rect, zoom: ZoomSlot| PlayLayout {
        board,
        panel,
        zoom: Some(zoom),
    };
    // A board `w` wide and the strip beside it, one column between, the
    // two (the magnified box as wide as it is drawn there) centred; the
    // strip runs to the area's right edge, for a step's wider grids.
    let beside = |w: u16, whole: bool| {
        let used = w.saturating_add(1);
        let strip = Rect::new(
            board_area.x + used,
            board_area.y,
            board_area.width.checked_sub(used)?,
            board_area.height,
        );
        let zoomed = ZoomGrid::cursor_box(shape, 0, strip)?;
        let (zw, _) = zoomed.size();
        let full =
            zoomed.rows().len() == shape.box_rows() && zoomed.cols().len() == shape.box_cols();
        if whole && !full {
            return None;
        }
        let shift = (strip.width - zw) / 2;
        Some((
            Rect::new(board_area.x + shift, board_area.y, w, board_area.height),
            Rect::new(strip.x + shift, strip.y, strip.width - shift, strip.height),
        ))
    };
    let inside = panel.map(|p| Rect::new(p.x + 1, p.y, p.width.saturating_sub(1), p.height));
    let (w, _) = g.size();
    if let Some((board, strip)) = beside(w, true) {
        return with(board, ZoomSlot::Beside(strip));
    }
    if let Some(inside) = inside.filter(|&r| ZoomGrid::box_fits(shape, r)) {
        return with(plain.board, ZoomSlot::Panel(inside));
    }
    if !g.scrolls() {
        let need = ZoomGrid::box_min_width(shape).saturating_add(1);
        if let Some(narrow) = board_area.width.checked_sub(need) {
            let g2 = Geometry::new(
                shape,
                Rect {
                    width: narrow,
                    ..board_area
                },
                0,
            );
            if let (false, Some((board, strip))) = (g2.scrolls(), beside(g2.size().0, true)) {
                return with(board, ZoomSlot::Beside(strip));
            }
        }
    }
    if let Some((board, strip)) = beside(w, false) {
        return with(board, ZoomSlot::Beside(strip));
    }
    match inside.filter(|&r| ZoomGrid::cursor_box(shape, 0, r).is_some()) {
        Some(inside) => with(plain.board, ZoomSlot::Panel(inside)),
        None => plain,
    }
}

/// Where the board of `shape` is drawn in a window of this area on the
/// play screen (also used to map mouse clicks to cells).
pub fn board_area(area: Rect, shape: Shape) -> Rect {
    play_layout(area, shape).board
}

/// The side panel's parts when the magnifier sits at its foot: the text
/// (the whole width, its left line included) above, and the magnifier's
/// place, `height` lines at the bottom inside the left line, one blank
/// line between them when there is room.
pub fn panel_split(panel: Rect, height: u16) -> (Rect, Rect) {
    let height = height.min(panel.height);
    let gap = u16::from(panel.height > height);
    let text = Rect::new(panel.x, panel.y, panel.width, panel.height - height - gap);
    let zoom = Rect::new(
        panel.x + 1,
        panel.bottom() - height,
        panel.width.saturating_sub(1),
        height,
    );
    (text, zoom)
}

/// A `w`×`h` rectangle centred in `area` (clipped to it).
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// The start menu's box in a window of this area.
pub fn menu_rect(area: Rect, items: usize) -> Rect {
    let (_, body, _) = frame_parts(area);
    centered(body, 30, items as u16 + 2)
}

/// The menu entry at a screen position (for mouse clicks).
pub fn menu_item_at(area: Rect, items: usize, x: u16, y: u16) -> Option<usize> {
    row_at(menu_rect(area, items), 0, items, x, y)
}

/// The settings box in a window of this area.
pub fn settings_rect(area: Rect) -> Rect {
    let (_, body, _) = frame_parts(area);
    centered(body, 72, 12)
}

/// The load list's box (the whole body).
pub fn load_rect(area: Rect) -> Rect {
    frame_parts(area).1
}

/// Lines above the solvers in the watch menu (title, a line, a blank).
pub const WATCH_MENU_HEAD: u16 = 3;

/// The watch menu's text in a window of this area, for `solvers` choices
/// (the head, the choices, a blank line and the keys line).
pub fn watch_menu_rect(area: Rect, solvers: usize) -> Rect {
    let (_, body, _) = frame_parts(area);
    let lines = WATCH_MENU_HEAD + solvers as u16 + 2;
    centered(body, 56, lines.min(body.height))
}

/// Lines in the fallback dialog above its choices (what was found, a
/// blank line).
pub const FALLBACK_HEAD: u16 = 2;

/// The fallback dialog's box (no puzzle of the level found in time) for
/// `choices` choices: the head, the choices, a blank line and the keys
/// line, in a border.
pub fn fallback_rect(area: Rect, choices: usize) -> Rect {
    let (_, body, _) = frame_parts(area);
    centered(body, 58, FALLBACK_HEAD + choices as u16 + 4)
}

/// The row of a list drawn in box `r` (a border round it; the rows start
/// `head` lines into it) at a screen position, when it is one of `items`.
pub fn row_at(r: Rect, head: u16, items: usize, x: u16, y: u16) -> Option<usize> {
    let inside = x > r.x && x + 1 < r.x + r.width && y > r.y + head && y + 1 < r.y + r.height;
    inside
        .then(|| (y - r.y - 1 - head) as usize)
        .filter(|&i| i < items)
}

/// The statistics box's widest.
pub const STATS_WIDTH: u16 = 80;

/// Lines under the statistics' scrolled part: a rule and the footer that
/// says what the columns count.
pub const STATS_FOOTER: u16 = 3;

/// Widest the key help is drawn.
pub const HELP_WIDTH: u16 = 76;

/// The key help's box in a window of this area and its inside, for
/// `lines` lines: as tall as they need, at most the body.
pub fn help_parts(area: Rect, lines: usize) -> (Rect, Rect) {
    let (_, body, _) = frame_parts(area);
    let lines = u16::try_from(lines).unwrap_or(u16::MAX);
    let r = centered(body, HELP_WIDTH, lines.saturating_add(2));
    let inner = Rect::new(
        r.x + 1,
        r.y + 1,
        r.width.saturating_sub(2),
        r.height.saturating_sub(2),
    );
    (r, inner)
}

/// How far the key help can scroll.
pub fn help_scroll_max(area: Rect, lines: usize) -> usize {
    lines.saturating_sub(usize::from(help_parts(area, lines).1.height))
}

/// Lines a page of the key help moves (one kept in sight).
pub fn help_page(area: Rect, lines: usize) -> usize {
    usize::from(help_parts(area, lines).1.height)
        .saturating_sub(1)
        .max(1)
}

/// Lines of the statistics' scrolled part, for `records` sizes and levels
/// and `days` daily puzzles: the table's header and rows (or one line
/// saying there are none), a blank line, the daily title, and its header
/// and rows (or one line).
pub fn stats_lines(records: usize, days: usize) -> usize {
    let table = if records == 0 { 1 } else { 1 + records };
    let daily = if days == 0 { 1 } else { 1 + days };
    table + 2 + daily
}

/// The statistics box in a window of this area, its scrolled part and its
/// footer, for `lines` lines to scroll: as tall as they need, at most the
/// body.
pub fn stats_parts(area: Rect, lines: usize) -> (Rect, Rect, Rect) {
    let (_, body, _) = frame_parts(area);
    let chrome = 2 + STATS_FOOTER;
    let lines = u16::try_from(lines).unwrap_or(u16::MAX);
    let r = centered(body, STATS_WIDTH, lines.saturating_add(chrome));
    let inner = Rect::new(
        r.x + 1,
        r.y + 1,
        r.width.saturating_sub(2),
        r.height.saturating_sub(2),
    );
    let shown = inner.height.saturating_sub(STATS_FOOTER);
    let scrolled = Rect::new(inner.x, inner.y, inner.width, shown);
    let footer = Rect::new(inner.x, inner.y + shown, inner.width, inner.height - shown);
    (r, scrolled, footer)
}

/// How far the statistics scroll in a window of this area: the first line
/// shown when the last is at the bottom.
pub fn stats_scroll_max(area: Rect, lines: usize) -> usize {
    let (_, scrolled, _) = stats_parts(area, lines);
    lines.saturating_sub(usize::from(scrolled.height))
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
pub(crate) enum Weight {
    /// Between cells inside a box.
    Light,
    /// Around boxes and the board.
    Heavy,
}

/// What stands at one board position along an axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    /// A grid line.
    Line(Weight),
    /// Cell `i` of the axis, `k` positions into its interior.
    Cell(usize, usize),
}

/// The layout along one axis (columns across, rows down). Board positions
/// count from the board's first border line; the area shows positions
/// `offset..offset + len`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Axis {
    /// Cells along the axis.
    n: usize,
    /// Cells per box along the axis.
    group: usize,
    /// A cell's interior size.
    pub(crate) inner: usize,
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
    pub(crate) fn total(&self) -> usize {
        1 + self.n * self.inner + self.lines_before(self.n)
    }

    /// The board position where cell `i`'s interior starts.
    pub(crate) fn start(&self, i: usize) -> usize {
        1 + i * self.inner + self.lines_before(i)
    }

    /// What stands at board position `p`; None beyond the board.
    pub(crate) fn slot(&self, p: usize) -> Option<Slot> {
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
    pub(crate) fn visible(&self) -> Range<usize> {
        let end = (self.offset + usize::from(self.len)).min(self.total());
        self.offset.min(end)..end
    }

    /// The screen position of board position `p`, when shown.
    pub(crate) fn screen(&self, p: usize) -> Option<u16> {
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
    pub(crate) fn cells_visible(&self) -> Range<usize> {
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
    pub(crate) fn cell_span(&self, i: usize) -> Range<usize> {
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
    pub(crate) shape: Shape,
    pub(crate) mode: NotesMode,
    pub(crate) x: Axis,
    pub(crate) y: Axis,
}

/// Screen width of the widest symbol of an n-digit board.
pub(crate) fn symbol_width(n: usize) -> usize {
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

/// What a chip of the digit bar does when clicked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chip {
    /// Enter (or, in note mode, note) the value with this 1-based number.
    Value(usize),
    /// Clear the cell.
    Clear,
    /// Switch between values and notes.
    NoteMode,
}

/// The digit bar at the foot of the side panel, for the mouse: a chip per
/// value (`1`–`9`, then letters; up to 35 values), then "clear" and
/// "notes", each with the rectangle it is drawn in. Empty when the panel
/// is too small or the board has more values than letters.
pub fn digit_bar(panel: Rect, n: usize) -> Vec<(Rect, Chip)> {
    // Inside the panel's left border, one column of margin.
    let (x0, width) = (panel.x + 2, panel.width.saturating_sub(3));
    if n > 35 || width < 12 {
        return Vec::new();
    }
    let per_row = usize::from(width / 2).max(1);
    let value_rows = n.div_ceil(per_row);
    let rows = value_rows + 1;
    let Some(top) = (panel.y + panel.height).checked_sub(rows as u16) else {
        return Vec::new();
    };
    if usize::from(panel.height) < rows + 6 {
        return Vec::new();
    }
    let mut chips: Vec<(Rect, Chip)> = (0..n)
        .map(|i| {
            let (row, col) = (i / per_row, i % per_row);
            let r = Rect::new(x0 + 2 * col as u16, top + row as u16, 1, 1);
            (r, Chip::Value(i + 1))
        })
        .collect();
    let last = top + value_rows as u16;
    chips.push((Rect::new(x0, last, 5, 1), Chip::Clear));
    if width >= 13 {
        chips.push((Rect::new(x0 + 7, last, 5, 1), Chip::NoteMode));
    }
    chips
}

/// The digit bar's chip at a screen position.
pub fn chip_at(panel: Rect, n: usize, x: u16, y: u16) -> Option<Chip> {
    digit_bar(panel, n)
        .into_iter()
        .find(|(r, _)| y == r.y && x >= r.x && x < r.x + r.width.max(1))
        .map(|(_, chip)| chip)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn panel_width(w: u16, h: u16, shape: Shape) -> Option<u16> {
        play_layout(Rect::new(0, 0, w, h), shape)
            .panel
            .map(|p| p.width)
    }

    #[test]
    fn the_panel_takes_the_columns_the_board_leaves() {
        let sixteen = Shape::square(4).unwrap();
        // 9×9 at 200×60: the board's cells are as at 25 columns of panel,
        // and the panel has its widest, without crossing the board.
        let area = Rect::new(0, 0, 200, 60);
        let l = play_layout(area, Shape::CLASSIC);
        let p = l.panel.unwrap();
        assert_eq!(p.width, WIDE_PANEL_WIDTH);
        assert_eq!(p.right(), 200);
        assert!(l.board.right() < p.x, "{l:?}");
        let narrow = split(area, Shape::CLASSIC).0;
        assert_eq!(
            Geometry::new(Shape::CLASSIC, narrow, 0).size(),
            Geometry::new(Shape::CLASSIC, l.board, 0).size()
        );
        // 9×9 at 80×24 uses every column: the panel keeps its width.
        assert_eq!(panel_width(80, 24, Shape::CLASSIC), Some(PANEL_WIDTH));
        // 16×16 at 100×32 and 200×60 has a magnifier beside the board,
        // which keeps its columns.
        for (w, h) in [(100, 32), (200, 60)] {
            let l = play_layout(Rect::new(0, 0, w, h), sixteen);
            assert!(matches!(l.zoom, Some(ZoomSlot::Beside(_))), "{l:?}");
            assert_eq!(l.panel.map(|p| p.width), Some(PANEL_WIDTH));
        }
        // A 4×4 at 80×24 leaves columns to the panel.
        let four = Shape::square(2).unwrap();
        assert_eq!(panel_width(80, 24, four), Some(WIDE_PANEL_WIDTH));
        // No panel on a narrow window.
        assert_eq!(panel_width(60, 24, Shape::CLASSIC), None);
    }
}
