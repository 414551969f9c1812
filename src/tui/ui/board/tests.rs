//! The board widget's tests: every shape in small and large areas, notes
//! modes, scrolling, highlights and colours.

use ratatui::style::{Color, Modifier};

use super::*;
use crate::engine::Shape;
use crate::engine::logic::CandidateRole;
use crate::engine::{Grid, Puzzle};
use crate::game::Origin;
use crate::tui::layout::{Geometry, NotesMode};

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

fn render(game: &Game, cursor: usize, h: &Emphasis, area: Rect) -> Buffer {
    let mut buf = Buffer::empty(area);
    let styles = Styles::basic();
    BoardView {
        game,
        cursor,
        styles: &styles,
        emphasis: h,
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
    let h = Emphasis {
        same_digit: false,
        ..Emphasis::default()
    };
    let buf = render(&g, cursor, &h, area);
    let geo = Geometry::new(s, area, cursor);
    assert_eq!(geo.notes_mode(), mode, "{s} in {area:?}");
    assert_eq!(geo.scrolls(), scrolls, "{s} in {area:?}");
    let (w, hgt) = geo.size();
    assert!(w <= area.width && hgt <= area.height);

    let full = |c: usize| {
        geo.cell_rect(c)
            .filter(|r| usize::from(r.width) == geo.x.inner && usize::from(r.height) == geo.y.inner)
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
    let buf = render(&g, 40, &Emphasis::default(), SMALL);
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
    let buf = render(&g, 0, &Emphasis::default(), SMALL);
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
    let h = Emphasis {
        same_digit: false,
        ..Emphasis::default()
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
    let buf = render(&g, 80, &Emphasis::default(), SMALL);
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
    let buf = render(&g, 0, &Emphasis::default(), SMALL);
    let geo = Geometry::new(s, SMALL, 0);
    assert_eq!(geo.notes_mode(), NotesMode::Hidden);
    assert_eq!(text(&buf, geo.cell_rect(1).unwrap()), vec!["  "]);
}

/// A hint's or step's candidates, with their roles, in cell order.
fn roles(list: &[(usize, usize, CandidateRole)]) -> Vec<(usize, Value, CandidateRole)> {
    let mut v: Vec<_> = list.iter().map(|&(c, d, r)| (c, val(d), r)).collect();
    v.sort_unstable_by_key(|&(c, v, _)| (c, v));
    v
}

/// A step's candidates are drawn in their roles' styles, noted or not:
/// what it removes is on the board even in a cell without notes.
#[test]
fn step_candidates_are_drawn_in_their_roles() {
    let s = Shape::CLASSIC;
    let mut g = game(s);
    let styles = Styles::basic();
    for v in [1, 5] {
        g.toggle_note(1, val(v));
    }
    let h = Emphasis {
        same_digit: false,
        candidates: roles(&[
            (1, 5, CandidateRole::Pattern),
            (1, 9, CandidateRole::Fin),
            (3, 4, CandidateRole::Eliminated),
        ]),
        ..Emphasis::default()
    };
    let buf = render(&g, 80, &h, LARGE);
    let geo = Geometry::new(s, LARGE, 80);
    let r = geo.cell_rect(1).unwrap();
    assert_eq!(text(&buf, r), vec![" 1     ", "   5   ", "     9 "]);
    let look = |at: (u16, u16)| (buf[at].fg, buf[at].bg, buf[at].modifier);
    let want = |role: Role| {
        let st = styles.get(role);
        (st.fg.unwrap(), st.bg.unwrap(), st.add_modifier)
    };
    assert_eq!(buf[(r.x + 1, r.y)].fg, fg_of_candidate());
    assert_eq!(look((r.x + 3, r.y + 1)), want(Role::Pattern));
    assert_eq!(look((r.x + 5, r.y + 2)), want(Role::Fin));
    // Cell 3 has no notes: the eliminated 4 is drawn all the same.
    let r = geo.cell_rect(3).unwrap();
    assert_eq!(text(&buf, r), vec!["       ", " 4     ", "       "]);
    assert_eq!(look((r.x + 1, r.y + 1)), want(Role::Eliminated));
    assert!(
        buf[(r.x + 1, r.y + 1)]
            .modifier
            .contains(Modifier::CROSSED_OUT)
    );
}

fn fg_of_candidate() -> Color {
    Styles::basic().get(Role::Candidate).fg.unwrap()
}

/// Compact notes that do not fit keep the step's candidates and drop
/// others first.
#[test]
fn compact_notes_keep_the_step_candidates() {
    let s = Shape::CLASSIC;
    let mut g = game(s);
    for v in 1..=9 {
        g.toggle_note(1, val(v));
    }
    let h = Emphasis {
        candidates: roles(&[
            (1, 8, CandidateRole::Eliminated),
            (1, 9, CandidateRole::Pattern),
        ]),
        ..Emphasis::default()
    };
    let buf = render(&g, 80, &h, SMALL);
    let geo = Geometry::new(s, SMALL, 80);
    assert_eq!(geo.notes_mode(), NotesMode::Compact);
    let r = geo.cell_rect(1).unwrap();
    assert_eq!(text(&buf, r).concat(), "1289…");
    let elim = Styles::basic().get(Role::Eliminated).bg.unwrap();
    assert_eq!(buf[(r.x + 2, r.y)].bg, elim);
}

/// Without room for notes, an empty cell takes its most telling role's
/// style, and shows the value a step places.
#[test]
fn tight_cells_take_their_roles_look() {
    let s = shape(4, 4);
    let g = game(s);
    let h = Emphasis {
        candidates: roles(&[
            (1, 3, CandidateRole::Placed),
            (3, 2, CandidateRole::Pattern),
            (3, 5, CandidateRole::Eliminated),
        ]),
        ..Emphasis::default()
    };
    let buf = render(&g, 0, &h, SMALL);
    let geo = Geometry::new(s, SMALL, 0);
    assert_eq!(geo.notes_mode(), NotesMode::Hidden);
    let styles = Styles::basic();
    let r = geo.cell_rect(1).unwrap();
    assert_eq!(text(&buf, r), vec![" 3"]);
    assert_eq!(buf[(r.x, r.y)].bg, styles.get(Role::Placed).bg.unwrap());
    let r = geo.cell_rect(3).unwrap();
    assert_eq!(text(&buf, r), vec!["  "]);
    assert_eq!(buf[(r.x, r.y)].bg, styles.get(Role::Eliminated).bg.unwrap());
}

/// A chain's order is written on the line above each of its cells, in the
/// chain order style; the tight layout has no such line and shows none.
#[test]
fn chain_order_sits_on_the_line_above() {
    let s = Shape::CLASSIC;
    let g = game(s);
    let h = Emphasis {
        chain: vec![(1, "1".into()), (19, "2,12".into())],
        ..Emphasis::default()
    };
    let buf = render(&g, 80, &h, LARGE);
    let geo = Geometry::new(s, LARGE, 80);
    let order = Styles::basic().get(Role::ChainOrder).fg.unwrap();
    let r = geo.cell_rect(1).unwrap();
    let above = |r: Rect| -> String { (r.x..r.right()).map(|x| ch(&buf, x, r.y - 1)).collect() };
    assert_eq!(above(r), "━1━━━━━");
    assert_eq!(buf[(r.x + 1, r.y - 1)].fg, order);
    assert_eq!(above(geo.cell_rect(19).unwrap()), "─2,12──");
    let tight = Rect::new(0, 0, 30, 12);
    assert_eq!(Geometry::new(s, tight, 0).notes_mode(), NotesMode::Hidden);
    let buf = render(&g, 0, &h, tight);
    assert!(buf.content().iter().all(|c| c.fg != order));
}

#[test]
fn base_and_cover_lines_are_marked_on_the_frame() {
    let s = Shape::CLASSIC;
    let g = game(s);
    // Row 3 a base line, column 5 a cover line, box 5 a base too.
    let h = Emphasis {
        hint_units: vec![
            (2, UnitRole::Base),
            (9 + 4, UnitRole::Cover),
            (18 + 4, UnitRole::Base),
            (18 + 8, UnitRole::Involved),
        ],
        ..Emphasis::default()
    };
    let geo = Geometry::new(s, LARGE, 80);
    let (r3, c5) = (geo.cell_rect(2 * 9).unwrap(), geo.cell_rect(4).unwrap());
    let mid_y = r3.y + r3.height / 2;
    let mid_x = c5.x + c5.width / 2;
    let buf = render(&g, 80, &h, LARGE);
    let (right, bottom) = (
        geo.x.screen(geo.x.total() - 1).unwrap(),
        geo.y.screen(geo.y.total() - 1).unwrap(),
    );
    // A row on the left and right edges, a column on the top and bottom.
    assert_eq!(ch(&buf, 0, mid_y), "b");
    assert_eq!(ch(&buf, right, mid_y), "b");
    assert_eq!(ch(&buf, mid_x, 0), "c");
    assert_eq!(ch(&buf, mid_x, bottom), "c");
    // A box on its four thin crossings; the involved box 9 has none.
    let marks = |r: std::ops::Range<u16>, cols: std::ops::Range<u16>, m: &str| {
        r.flat_map(|y| cols.clone().map(move |x| (x, y)))
            .filter(|&(x, y)| ch(&buf, x, y) == m)
            .count()
    };
    let b5 = geo.cell_rect(3 * 9 + 3).unwrap();
    let b5_end = geo.cell_rect(5 * 9 + 5).unwrap();
    assert_eq!(marks(b5.y..b5_end.bottom(), b5.x..b5_end.right(), "b"), 4);
    let total =
        marks(0..LARGE.height, 0..LARGE.width, "b") + marks(0..LARGE.height, 0..LARGE.width, "c");
    assert_eq!(total, 2 + 2 + 4);
    // Without colour, the marks are what tells base from cover.
    let mono = Styles::basic().monochrome();
    let mut buf2 = Buffer::empty(LARGE);
    BoardView {
        game: &g,
        cursor: 80,
        styles: &mono,
        emphasis: &h,
    }
    .render(LARGE, &mut buf2);
    assert_eq!(buf2[(0, mid_y)].symbol(), "b");
    assert_eq!(buf2[(mid_x, 0)].symbol(), "c");
    assert!(buf2.content().iter().all(|c| c.bg == Color::Reset));
    // Nothing marked without a step.
    let buf = render(&g, 80, &Emphasis::default(), LARGE);
    assert_eq!(ch(&buf, 0, mid_y), "┃");
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
    let buf = render(&g, 0, &Emphasis::default(), LARGE);
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
    let h = Emphasis {
        same_digit: false,
        ..Emphasis::default()
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
    let h = Emphasis {
        peers: true,
        same_digit: false,
        conflicts: ConflictDisplay::Unit,
        hint_units: vec![(2 * 9 + 8, UnitRole::Involved)],
        hint_cells: vec![80, 4],
        ..Emphasis::default()
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
    let h = Emphasis {
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
        let buf = render(&g, cursor, &Emphasis::default(), SMALL);
        assert!(buf[r.as_position()].modifier.contains(Modifier::REVERSED));
    }
    // First row: the top border shows; last row: the bottom border.
    let top = Geometry::new(s, SMALL, 0);
    assert_eq!(top.cell_rect(0).unwrap().y, 1);
    let bottom = Geometry::new(s, SMALL, 624);
    assert_eq!(bottom.cell_rect(624).unwrap().y, 20);
    assert_eq!(bottom.cell_rect(0), None);
    let buf = render(&g, 624, &Emphasis::default(), SMALL);
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
                    emphasis: &Emphasis::default(),
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
        emphasis: &Emphasis::default(),
    }
    .render(Rect::new(10, 5, 55, 22), &mut buf);
    assert_eq!(ch(&buf, 10, 5), "┏");
}
