//! The magnifier's geometry. A [`ZoomGrid`] draws a few of the board's
//! rows and columns large, each cell with its notes in their places (value
//! `d` at column `d mod box_cols`, line `d div box_cols` of the cell, as on
//! a paper grid and in HoDoKu), under column numbers and beside row
//! numbers. A [`ZoomList`] is what a step gets when its rows and columns
//! are too many for that: one line per cell it names, each note under its
//! value in a header line. Pure functions of the shape, the cells and the
//! area given.

use ratatui::layout::Rect;

use crate::engine::Shape;

use super::{Weight, symbol_width};

/// How the notes of a magnified cell are set out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spacing {
    /// A space between neighbouring notes (`1 2 3`).
    Spaced,
    /// Notes side by side (`123`), when spaced ones do not fit; only for
    /// one-character symbols.
    Packed,
}

/// Digits of the largest row or column number of an n-wide board.
fn digits(n: usize) -> u16 {
    n.max(1).to_string().len() as u16
}

/// Some rows and columns of the board drawn large: a grid of their cells
/// with row numbers on the left and column numbers above. Lines between
/// neighbouring cells of one box are thin; box edges, gaps (rows or
/// columns left out) and the outside are heavy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZoomGrid {
    shape: Shape,
    rows: Vec<usize>,
    cols: Vec<usize>,
    spacing: Spacing,
    /// Screen columns from one note's place to the next across a cell.
    step: u16,
    cell_w: u16,
    cell_h: u16,
    label_w: u16,
    /// Top-left corner: the line of column numbers starts here.
    x: u16,
    y: u16,
}

impl ZoomGrid {
    /// The grid of `rows` × `cols` (board indices, kept in the order
    /// given) with its corner at (x, y); None for a spacing the symbols
    /// cannot take (packed symbols wider than one character).
    pub fn new(
        shape: Shape,
        rows: Vec<usize>,
        cols: Vec<usize>,
        spacing: Spacing,
        (x, y): (u16, u16),
    ) -> Option<ZoomGrid> {
        let sw = symbol_width(shape.n()) as u16;
        let step = match spacing {
            Spacing::Spaced => sw + 1,
            Spacing::Packed if sw == 1 => 1,
            Spacing::Packed => return None,
        };
        let bc = shape.box_cols() as u16;
        Some(ZoomGrid {
            shape,
            rows,
            cols,
            spacing,
            step,
            cell_w: (bc.max(1) - 1) * step + sw,
            cell_h: shape.box_rows() as u16,
            label_w: digits(shape.n()),
            x,
            y,
        })
    }

    /// The first spacing (spaced, then packed) at which `rows` × `cols`
    /// fit in `area`, placed at its top-left corner.
    pub fn fit(shape: Shape, rows: &[usize], cols: &[usize], area: Rect) -> Option<ZoomGrid> {
        if rows.is_empty() || cols.is_empty() {
            return None;
        }
        [Spacing::Spaced, Spacing::Packed]
            .into_iter()
            .find_map(|sp| {
                ZoomGrid::new(shape, rows.to_vec(), cols.to_vec(), sp, (area.x, area.y))
                    .filter(|g| g.fits(area))
            })
    }

    /// Whether the grid fits in `area` from its top-left corner.
    fn fits(&self, area: Rect) -> bool {
        let (w, h) = self.size();
        w <= area.width && h <= area.height
    }

    /// Width and height, numbers included.
    pub fn size(&self) -> (u16, u16) {
        let (nr, nc) = (self.rows.len() as u16, self.cols.len() as u16);
        (
            self.label_w + nc * (self.cell_w + 1) + 1,
            1 + nr * (self.cell_h + 1) + 1,
        )
    }

    /// The rows shown, top to bottom.
    pub fn rows(&self) -> &[usize] {
        &self.rows
    }

    /// The columns shown, left to right.
    pub fn cols(&self) -> &[usize] {
        &self.cols
    }

    /// How the notes are set out.
    pub fn spacing(&self) -> Spacing {
        self.spacing
    }

    /// Where value index `d`'s note sits inside a cell: (across, down).
    pub fn note_offset(&self, d: usize) -> (u16, u16) {
        let bc = self.shape.box_cols().max(1);
        ((d % bc) as u16 * self.step, (d / bc) as u16)
    }

    /// The interior of the cell in row `i` and column `j` of the grid (not
    /// board indices).
    pub fn cell_rect(&self, i: usize, j: usize) -> Rect {
        Rect::new(
            self.x + self.label_w + 1 + j as u16 * (self.cell_w + 1),
            self.y + 2 + i as u16 * (self.cell_h + 1),
            self.cell_w,
            self.cell_h,
        )
    }

    /// The board cell at screen (x, y), when inside a cell of the grid.
    pub fn cell_at(&self, x: u16, y: u16) -> Option<usize> {
        let i = (0..self.rows.len()).find(|&i| {
            let r = self.cell_rect(i, 0);
            (r.y..r.bottom()).contains(&y)
        })?;
        let j = (0..self.cols.len()).find(|&j| {
            let r = self.cell_rect(0, j);
            (r.x..r.right()).contains(&x)
        })?;
        Some(self.shape.cell_at(self.rows[i], self.cols[j]))
    }

    /// The weight of a line between two shown indices along an axis
    /// (`None` for the outside): thin only between neighbours of one box.
    fn weight(prev: Option<usize>, next: Option<usize>, group: usize) -> Weight {
        match (prev, next) {
            (Some(a), Some(b)) if b == a + 1 && b % group.max(1) != 0 => Weight::Light,
            _ => Weight::Heavy,
        }
    }

    /// The vertical lines: (screen x, weight), left to right.
    pub(crate) fn col_lines(&self) -> Vec<(u16, Weight)> {
        let bc = self.shape.box_cols();
        (0..=self.cols.len())
            .map(|j| {
                let x = self.x + self.label_w + j as u16 * (self.cell_w + 1);
                let prev = j.checked_sub(1).map(|p| self.cols[p]);
                (x, Self::weight(prev, self.cols.get(j).copied(), bc))
            })
            .collect()
    }

    /// The horizontal lines: (screen y, weight), top to bottom.
    pub(crate) fn row_lines(&self) -> Vec<(u16, Weight)> {
        let br = self.shape.box_rows();
        (0..=self.rows.len())
            .map(|i| {
                let y = self.y + 1 + i as u16 * (self.cell_h + 1);
                let prev = i.checked_sub(1).map(|p| self.rows[p]);
                (y, Self::weight(prev, self.rows.get(i).copied(), br))
            })
            .collect()
    }

    /// The column numbers: (screen x, text), each centred over its cell.
    pub fn col_labels(&self) -> Vec<(u16, u16, String)> {
        (0..self.cols.len())
            .map(|j| {
                let text = (self.cols[j] + 1).to_string();
                let r = self.cell_rect(0, j);
                let len = text.len() as u16;
                (r.x + r.width.saturating_sub(len) / 2, self.y, text)
            })
            .collect()
    }

    /// The row numbers: (screen x, y, text), right-aligned before the
    /// grid, on the middle line of their cells.
    pub fn row_labels(&self) -> Vec<(u16, u16, String)> {
        (0..self.rows.len())
            .map(|i| {
                let text = (self.rows[i] + 1).to_string();
                let r = self.cell_rect(i, 0);
                let len = text.len() as u16;
                (
                    self.x + self.label_w.saturating_sub(len),
                    r.y + self.cell_h / 2,
                    text,
                )
            })
            .collect()
    }

    /// The cursor's box, or, when the box does not fit in `area`, as many
    /// of its rows and columns around the cursor as do (packed where the
    /// symbols allow): None when not even one cell fits.
    pub fn cursor_box(shape: Shape, cursor: usize, area: Rect) -> Option<ZoomGrid> {
        let cursor = cursor.min(shape.cells().saturating_sub(1));
        let (br, bc) = (shape.box_rows(), shape.box_cols());
        let (row, col) = (shape.row_of(cursor), shape.col_of(cursor));
        let (r0, c0) = (row / br * br, col / bc * bc);
        let rows: Vec<usize> = (r0..r0 + br).collect();
        let cols: Vec<usize> = (c0..c0 + bc).collect();
        if let Some(g) = ZoomGrid::fit(shape, &rows, &cols, area) {
            return Some(g);
        }
        // A window of the box around the cursor.
        let sp = if symbol_width(shape.n()) == 1 {
            Spacing::Packed
        } else {
            Spacing::Spaced
        };
        let probe = ZoomGrid::new(shape, vec![row], vec![col], sp, (area.x, area.y))?;
        let kc =
            usize::from(area.width.checked_sub(probe.label_w + 1)? / (probe.cell_w + 1)).min(bc);
        let kr = usize::from(area.height.checked_sub(2)? / (probe.cell_h + 1)).min(br);
        if kc == 0 || kr == 0 {
            return None;
        }
        let window = |at: usize, start: usize, len: usize, k: usize| {
            let first = at.saturating_sub(k / 2).clamp(start, start + len - k);
            (first..first + k).collect::<Vec<_>>()
        };
        ZoomGrid::new(
            shape,
            window(row, r0, br, kr),
            window(col, c0, bc, kc),
            sp,
            (area.x, area.y),
        )
    }

    /// Whether the cursor's whole box fits in `area` at either spacing.
    pub fn box_fits(shape: Shape, area: Rect) -> bool {
        let (br, bc) = (shape.box_rows(), shape.box_cols());
        let rows: Vec<usize> = (0..br).collect();
        let cols: Vec<usize> = (0..bc).collect();
        ZoomGrid::fit(shape, &rows, &cols, area).is_some()
    }

    /// The width of the magnified box, at the widest spacing that fits in
    /// `height` lines (None when neither does).
    pub fn box_width(shape: Shape, height: u16) -> Option<u16> {
        ZoomGrid::fit(
            shape,
            &(0..shape.box_rows()).collect::<Vec<_>>(),
            &(0..shape.box_cols()).collect::<Vec<_>>(),
            Rect::new(0, 0, u16::MAX, height),
        )
        .map(|g| g.size().0)
    }

    /// The narrowest the magnified box can be (packed where the symbols
    /// allow).
    pub fn box_min_width(shape: Shape) -> u16 {
        let rows: Vec<usize> = (0..shape.box_rows()).collect();
        let cols: Vec<usize> = (0..shape.box_cols()).collect();
        [Spacing::Packed, Spacing::Spaced]
            .into_iter()
            .find_map(|sp| ZoomGrid::new(shape, rows.clone(), cols.clone(), sp, (0, 0)))
            .map_or(u16::MAX, |g| g.size().0)
    }
}

/// The cells a step names, one line each under a header of the values:
/// `r3c5` and then each of its notes under its value (`1 3   7`). When
/// they are more than the lines, the last line says how many are left
/// out, so none is dropped silently.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZoomList {
    shape: Shape,
    shown: Vec<usize>,
    more: usize,
    name_w: u16,
    x: u16,
    y: u16,
}

impl ZoomList {
    /// The list of `cells` in `area` (from its top-left corner): None when
    /// a line is wider than the area or not even one cell fits.
    pub fn fit(shape: Shape, cells: &[usize], area: Rect) -> Option<ZoomList> {
        let n = shape.n();
        let name_w = 2 + 2 * digits(n) + 1;
        let w = name_w + (n * symbol_width(n)) as u16;
        if cells.is_empty() || w > area.width || area.height < 2 {
            return None;
        }
        let room = usize::from(area.height - 1);
        let (shown, more) = if cells.len() <= room {
            (cells.to_vec(), 0)
        } else if room >= 2 {
            (cells[..room - 1].to_vec(), cells.len() - (room - 1))
        } else {
            return None;
        };
        Some(ZoomList {
            shape,
            shown,
            more,
            name_w,
            x: area.x,
            y: area.y,
        })
    }

    /// Width and height.
    pub fn size(&self) -> (u16, u16) {
        let n = self.shape.n();
        (
            self.name_w + (n * symbol_width(n)) as u16,
            1 + self.shown.len() as u16 + u16::from(self.more > 0),
        )
    }

    /// The cells listed, top to bottom.
    pub fn shown(&self) -> &[usize] {
        &self.shown
    }

    /// How many cells did not fit.
    pub fn more(&self) -> usize {
        self.more
    }

    /// The screen x of value index `d`'s column.
    pub fn value_x(&self, d: usize) -> u16 {
        self.x + self.name_w + (d * symbol_width(self.shape.n())) as u16
    }

    /// The screen position of line `k` (0 is the header) and its start.
    pub fn line(&self, k: usize) -> (u16, u16) {
        (self.x, self.y + k as u16)
    }
}

/// What the magnifier draws: a grid of cells, or a list of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ZoomPlan {
    /// Rows × columns of the board, large.
    Grid(ZoomGrid),
    /// One line per cell.
    List(ZoomList),
}

impl ZoomPlan {
    /// Width and height.
    pub fn size(&self) -> (u16, u16) {
        match self {
            ZoomPlan::Grid(g) => g.size(),
            ZoomPlan::List(l) => l.size(),
        }
    }

    /// The board cell drawn at screen (x, y): a cell of the grid, or a
    /// cell's line in the list.
    pub fn cell_at(&self, x: u16, y: u16) -> Option<usize> {
        match self {
            ZoomPlan::Grid(g) => g.cell_at(x, y),
            ZoomPlan::List(l) => {
                let (w, _) = l.size();
                let k = usize::from(y.checked_sub(l.y)?);
                let inside = (l.x..l.x.saturating_add(w)).contains(&x);
                (inside && k >= 1).then(|| l.shown.get(k - 1).copied())?
            }
        }
    }

    /// The plan for the cells a step names and the units it reasons
    /// about, in `area`: the grid of the rows and columns of those cells
    /// and units (a hidden single's whole box) when it fits; else of the
    /// cells' rows and columns (a fish's base lines across its cover
    /// lines); else the list of the cells.
    pub fn step(shape: Shape, cells: &[usize], units: &[usize], area: Rect) -> Option<ZoomPlan> {
        let mut cells: Vec<usize> = cells
            .iter()
            .copied()
            .filter(|&c| c < shape.cells())
            .collect();
        cells.sort_unstable();
        cells.dedup();
        let lines = |cells: &mut dyn Iterator<Item = usize>| {
            let (mut rows, mut cols): (Vec<usize>, Vec<usize>) =
                cells.map(|c| (shape.row_of(c), shape.col_of(c))).unzip();
            rows.sort_unstable();
            rows.dedup();
            cols.sort_unstable();
            cols.dedup();
            (rows, cols)
        };
        let (rows, cols) = lines(&mut cells.iter().copied());
        let (urows, ucols) = lines(
            &mut cells.iter().copied().chain(
                units
                    .iter()
                    .filter(|&&u| u < shape.units())
                    .flat_map(|&u| shape.unit_cells(u)),
            ),
        );
        let with_units = (urows.len(), ucols.len()) != (rows.len(), cols.len());
        with_units
            .then(|| ZoomGrid::fit(shape, &urows, &ucols, area))
            .flatten()
            .or_else(|| ZoomGrid::fit(shape, &rows, &cols, area))
            .map(ZoomPlan::Grid)
            .or_else(|| ZoomList::fit(shape, &cells, area).map(ZoomPlan::List))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(br: usize, bc: usize) -> Shape {
        Shape::new(br, bc).unwrap()
    }

    #[test]
    fn box_sizes_by_spacing() {
        let big = Rect::new(0, 0, 200, 100);
        // 9×9 spaced: "1 2 3" cells, 5 wide and 3 high; numbers 1 wide.
        let g = ZoomGrid::cursor_box(Shape::CLASSIC, 40, big).unwrap();
        assert_eq!(g.spacing(), Spacing::Spaced);
        assert_eq!(g.size(), (1 + 3 * 6 + 1, 1 + 3 * 4 + 1));
        assert_eq!((g.rows(), g.cols()), (&[3, 4, 5][..], &[3, 4, 5][..]));
        // 16×16 at 100×32 beside the board: spaced, 35 wide, 22 high.
        let g = ZoomGrid::cursor_box(shape(4, 4), 0, Rect::new(0, 0, 37, 30)).unwrap();
        assert_eq!(g.spacing(), Spacing::Spaced);
        assert_eq!(g.size(), (35, 22));
        // In the 24 columns of the side panel: packed.
        let g = ZoomGrid::cursor_box(shape(4, 4), 0, Rect::new(0, 0, 24, 22)).unwrap();
        assert_eq!(g.spacing(), Spacing::Packed);
        assert_eq!(g.size(), (23, 22));
        // 25×25 packed: 33 wide, 32 high.
        let g = ZoomGrid::cursor_box(shape(5, 5), 0, Rect::new(0, 0, 38, 38)).unwrap();
        assert_eq!(g.spacing(), Spacing::Packed);
        assert_eq!(g.size(), (33, 32));
    }

    #[test]
    fn a_window_of_the_box_keeps_the_cursor() {
        let s = shape(5, 5);
        // 24 columns hold 3 packed 25×25 cells; 14 lines hold 2 rows.
        for cursor in 0..s.cells() {
            let g = ZoomGrid::cursor_box(s, cursor, Rect::new(0, 0, 24, 14)).unwrap();
            assert_eq!((g.rows().len(), g.cols().len()), (2, 3));
            assert!(g.rows().contains(&s.row_of(cursor)));
            assert!(g.cols().contains(&s.col_of(cursor)));
            let b = s.box_of(cursor);
            for &r in g.rows() {
                for &c in g.cols() {
                    assert_eq!(s.box_of(s.cell_at(r, c)), b);
                }
            }
            let (w, h) = g.size();
            assert!(w <= 24 && h <= 14);
        }
        assert!(ZoomGrid::cursor_box(s, 0, Rect::new(0, 0, 7, 30)).is_none());
    }

    #[test]
    fn lines_are_thin_inside_a_box_and_heavy_at_gaps() {
        let g = ZoomGrid::new(
            Shape::CLASSIC,
            vec![0, 1, 5],
            vec![2, 3, 4],
            Spacing::Packed,
            (0, 0),
        )
        .unwrap();
        let w: Vec<Weight> = g.row_lines().into_iter().map(|(_, w)| w).collect();
        assert_eq!(
            w,
            [Weight::Heavy, Weight::Light, Weight::Heavy, Weight::Heavy]
        );
        let w: Vec<Weight> = g.col_lines().into_iter().map(|(_, w)| w).collect();
        assert_eq!(
            w,
            [Weight::Heavy, Weight::Heavy, Weight::Light, Weight::Heavy]
        );
        // Every cell is found where it is drawn.
        for (i, &r) in g.rows().iter().enumerate() {
            for (j, &c) in g.cols().iter().enumerate() {
                let rect = g.cell_rect(i, j);
                assert_eq!(g.cell_at(rect.x, rect.y), Some(r * 9 + c));
                assert_eq!(
                    g.cell_at(rect.right() - 1, rect.bottom() - 1),
                    Some(r * 9 + c)
                );
            }
        }
        assert_eq!(g.cell_at(0, 0), None);
    }

    #[test]
    fn a_step_too_wide_for_a_grid_is_listed() {
        let s = shape(4, 4);
        // Six cells on six rows and six columns: 6×6 packed is 33 wide.
        let cells: Vec<usize> = (0..6).map(|i| s.cell_at(i * 2, i * 3 % 16)).collect();
        let area = Rect::new(0, 0, 24, 30);
        let Some(ZoomPlan::List(l)) = ZoomPlan::step(s, &cells, &[], area) else {
            panic!("a list")
        };
        assert_eq!(l.shown().len(), 6);
        assert_eq!(l.size(), (7 + 16, 7));
        // Fewer lines than cells: the last says how many are left.
        let Some(ZoomPlan::List(l)) = ZoomPlan::step(s, &cells, &[], Rect::new(0, 0, 24, 4)) else {
            panic!("a list")
        };
        assert_eq!((l.shown().len(), l.more()), (2, 4));
        assert_eq!(l.size().1, 4);
        // Two cells in one row: a grid.
        let Some(ZoomPlan::Grid(g)) = ZoomPlan::step(s, &[3, 9], &[], area) else {
            panic!("a grid")
        };
        assert_eq!((g.rows(), g.cols()), (&[0][..], &[3, 9][..]));
        // With the box it reasons about (a hidden single's): the box.
        let b = 2 * 16 + 5; // box 6: rows 4–7, columns 4–7
        let Some(ZoomPlan::Grid(g)) = ZoomPlan::step(s, &[s.cell_at(5, 6)], &[b], area) else {
            panic!("a grid")
        };
        assert_eq!((g.rows(), g.cols()), (&[4, 5, 6, 7][..], &[4, 5, 6, 7][..]));
        // A row of 16 does not fit in 24 columns: the cell alone.
        let Some(ZoomPlan::Grid(g)) = ZoomPlan::step(s, &[s.cell_at(5, 6)], &[5], area) else {
            panic!("a grid")
        };
        assert_eq!((g.rows(), g.cols()), (&[5][..], &[6][..]));
    }

    /// The slot's rect, and whether it is beside the board.
    fn slot(area: (u16, u16), s: Shape) -> (crate::tui::layout::PlayLayout, Option<(bool, Rect)>) {
        use crate::tui::layout::{ZoomSlot, play_layout};
        let l = play_layout(Rect::new(0, 0, area.0, area.1), s);
        let z = l.zoom.map(|z| match z {
            ZoomSlot::Beside(r) => (true, r),
            ZoomSlot::Panel(r) => (false, r),
        });
        (l, z)
    }

    #[test]
    fn the_magnifier_goes_where_there_is_room() {
        use crate::tui::layout::{Geometry, NotesMode};
        // 16×16 at 100×32: the tight board, the box spaced beside it.
        let (l, z) = slot((100, 32), shape(4, 4));
        let (true, r) = z.unwrap() else {
            panic!("beside")
        };
        assert_eq!(l.board.width, 37);
        assert!(r.x > l.board.right());
        assert!(r.right() <= l.panel.unwrap().x);
        let g = ZoomGrid::cursor_box(shape(4, 4), 0, r).unwrap();
        assert_eq!(g.spacing(), Spacing::Spaced);
        // 25×25 at 120×40: beside, packed.
        let (l, z) = slot((120, 40), shape(5, 5));
        let (true, r) = z.unwrap() else {
            panic!("beside")
        };
        assert_eq!(l.board.width, 56);
        let g = ZoomGrid::cursor_box(shape(5, 5), 0, r).unwrap();
        assert_eq!(
            (g.spacing(), g.rows().len(), g.cols().len()),
            (Spacing::Packed, 5, 5)
        );
        // 9×9 at 80×24: the compact board keeps its columns; the box goes
        // to the foot of the panel.
        let (l, z) = slot((80, 24), Shape::CLASSIC);
        let (false, r) = z.unwrap() else {
            panic!("in the panel")
        };
        assert_eq!(l.board.width, 55);
        assert_eq!(r.x, l.panel.unwrap().x + 1);
        assert!(ZoomGrid::box_fits(Shape::CLASSIC, r));
        // 16×16 at 120×40: the panel too.
        let (_, z) = slot((120, 40), shape(4, 4));
        assert!(matches!(z, Some((false, _))));
        // 9×9 at 120×40 shows every note in place: no magnifier.
        let (_, z) = slot((120, 40), Shape::CLASSIC);
        assert_eq!(z, None);
        // 25×25 at 200×60: a board with narrower compact cells, the box
        // beside it.
        let (l, z) = slot((200, 60), shape(5, 5));
        let (true, r) = z.unwrap() else {
            panic!("beside")
        };
        let g = Geometry::new(shape(5, 5), l.board, 0);
        assert_eq!(g.notes_mode(), NotesMode::Compact);
        assert!(!g.scrolls());
        assert!(ZoomGrid::box_fits(shape(5, 5), r));
        // 25×25 at 80×24 (the board scrolls; no panel): a window of the box.
        let (l, z) = slot((80, 24), shape(5, 5));
        let (true, r) = z.unwrap() else {
            panic!("beside")
        };
        assert_eq!(l.panel, None);
        assert!(!ZoomGrid::box_fits(shape(5, 5), r));
        assert!(ZoomGrid::cursor_box(shape(5, 5), 0, r).is_some());
        // Every size and window from the smallest: the parts never overlap
        // and stay inside the window.
        for s in [
            shape(2, 2),
            shape(2, 3),
            Shape::CLASSIC,
            shape(4, 4),
            shape(5, 5),
            shape(6, 6),
        ] {
            for w in (44..=220).step_by(11) {
                for h in (14..=70).step_by(7) {
                    let (l, z) = slot((w, h), s);
                    let body = Rect::new(0, 1, w, h - 2);
                    assert!(body.contains(l.board.as_position()), "{s} {w}×{h}");
                    if let Some((beside, r)) = z {
                        assert!(!r.intersects(l.board), "{s} {w}×{h}");
                        assert!(r.right() <= w && r.bottom() < h, "{s} {w}×{h}");
                        if beside {
                            assert!(l.panel.is_none_or(|p| !r.intersects(p)), "{s} {w}×{h}");
                        }
                    }
                }
            }
        }
    }
}
