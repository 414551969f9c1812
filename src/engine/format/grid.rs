//! The grid format: a grid as books and web sites print it. n rows of cells,
//! `|` (or `│ ┃ ║`) between boxes, rule lines of `-`, `=`, `+`, `|` (or
//! box-drawing characters) between bands. Cells are single characters
//! (`1`-`9`, `A`-`Z`; blanks `.`, `0`, `_`, `*`), with or without spaces
//! between them, or space-separated numbers (needed above 35×35).
//!
//! The box shape comes from the rules when there are any (`1 2 3 | 4 5 6`
//! with a rule every 2 rows is 2×3 boxes), else from [`Shape::for_side`].
//! Puzzles are separated by blank lines.

use std::io::BufRead;

use crate::engine::grid::{Puzzle, Value};
use crate::engine::shape::Shape;

use super::cells::{self, MAX_CHAR_SIDE};
use super::lines::{Line, Lines, is_content};
use super::{FormatError, FormatErrorKind, Item};

/// Blank markers of the grid format.
pub(super) const BLANKS: [char; 4] = ['.', '0', '_', '*'];

/// The next puzzle or error; `None` at the end. After an error the rest of
/// the block (up to a blank line) is skipped.
pub(super) fn next<R: BufRead>(lines: &mut Lines<R>) -> Option<Item> {
    let first = loop {
        match lines.next_line()? {
            Err(e) => {
                lines.skip_block();
                return Some(Err(e));
            }
            Ok(l) if !is_content(&l.text) => {}
            Ok(l) => break l,
        }
    };
    let start = first.no;
    let result = block(lines, first);
    if result.is_err() {
        lines.skip_block();
    }
    Some(result.map(|p| (start, p)))
}

/// A vertical box rule inside a row.
pub(super) fn is_vertical_rule(c: char) -> bool {
    matches!(c, '|' | '│' | '┃' | '║')
}

fn is_box_drawing(c: char) -> bool {
    ('\u{2500}'..='\u{257f}').contains(&c)
}

/// A line made only of rule characters, with at least one horizontal one:
/// `------+-------+------`, `+=====+`, `├───┼───┤`.
pub(super) fn is_rule_line(text: &str) -> bool {
    let t = text.trim();
    let rule_char = |c: char| {
        matches!(c, '-' | '=' | '+' | '|' | ':') || is_box_drawing(c) || c.is_whitespace()
    };
    let horizontal =
        |c: char| matches!(c, '-' | '=') || (is_box_drawing(c) && !is_vertical_rule(c));
    !t.is_empty() && t.chars().all(rule_char) && t.chars().any(horizontal)
}

/// A word of a row, and which box segment (between vertical rules) holds it.
#[derive(Debug, Clone, Copy)]
struct Word<'a> {
    text: &'a str,
    seg: usize,
}

/// The words of a row: split at whitespace and vertical rules.
fn words(text: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut seg = 0;
    let mut start = None;
    for (i, c) in text.char_indices() {
        if is_vertical_rule(c) || c.is_whitespace() {
            if let Some(s) = start.take() {
                out.push(Word {
                    text: &text[s..i],
                    seg,
                });
            }
            if is_vertical_rule(c) {
                seg += 1;
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push(Word {
            text: &text[s..],
            seg,
        });
    }
    out
}

/// How a row's words become cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CellSplit {
    /// Every character is a cell (`53..7....`, `5 3 . . 7`).
    Chars,
    /// Every word is a cell (`12 . 3 16`).
    Words,
}

fn char_count(words: &[Word<'_>]) -> usize {
    words.iter().map(|w| w.text.chars().count()).sum()
}

/// A word that can be one cell: a single character or a number.
fn is_word_cell(w: &str) -> bool {
    w.chars().count() == 1 || cells::is_number(w)
}

/// How the first row reads: words if they are numbers that make a valid
/// side (`10 3 . 12 …`), otherwise characters (`534 678 912`, `53. .7.`).
fn first_mode(words: &[Word<'_>]) -> CellSplit {
    let k = words.len();
    if char_count(words) == k {
        return CellSplit::Chars;
    }
    let numbers_fit = words.iter().all(|w| {
        is_word_cell(w.text)
            && (!cells::is_number(w.text) || w.text.parse::<usize>().is_ok_and(|v| v <= k))
    });
    if numbers_fit && Shape::for_side(k).is_ok() {
        CellSplit::Words
    } else {
        CellSplit::Chars
    }
}

/// What the first row established.
struct Layout {
    n: usize,
    mode: CellSplit,
    /// Cell positions (0 < p < n) with a vertical rule before them.
    vrules: Vec<usize>,
    line: usize,
}

/// How a later row reads, or its cell count when it does not have n cells.
fn row_mode(words: &[Word<'_>], layout: &Layout) -> Result<CellSplit, usize> {
    let chars = char_count(words);
    let all_words = words.iter().all(|w| is_word_cell(w.text));
    if words.len() == layout.n && all_words {
        Ok(CellSplit::Words)
    } else if chars == layout.n {
        Ok(CellSplit::Chars)
    } else if chars == words.len() || (all_words && layout.mode == CellSplit::Words) {
        Err(words.len())
    } else {
        Err(chars)
    }
}

fn cells_of<'a>(words: &[Word<'a>], mode: CellSplit) -> Vec<Word<'a>> {
    match mode {
        CellSplit::Words => words.to_vec(),
        CellSplit::Chars => words
            .iter()
            .flat_map(|w| {
                w.text.char_indices().map(move |(i, c)| Word {
                    text: &w.text[i..i + c.len_utf8()],
                    seg: w.seg,
                })
            })
            .collect(),
    }
}

fn vertical_rules(cells: &[Word<'_>]) -> Vec<usize> {
    (1..cells.len())
        .filter(|&p| cells[p - 1].seg != cells[p].seg)
        .collect()
}

fn decode(
    text: &str,
    cell: &str,
    n: usize,
) -> Result<Option<Value>, (Option<usize>, FormatErrorKind)> {
    let col = Some(cells::col_of(text, cell));
    let mut chars = cell.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return cells::char_cell(c, n, &BLANKS).ok_or_else(|| {
            let kind = FormatErrorKind::BadChar {
                found: c,
                expected: cells::expected_chars(n, &BLANKS),
            };
            (col, kind)
        });
    }
    cells::number_cell(cell, n, &[], || {
        format!("a number 1-{n}, '.', '0', '_' or '*'")
    })
    .map_err(|k| (col, k))
}

/// Groups sizes between consecutive cut positions, for messages.
fn groups(cuts: &[usize], n: usize) -> String {
    let mut sizes = Vec::new();
    let mut prev = 0;
    for &c in cuts.iter().chain(std::iter::once(&n)) {
        sizes.push((c - prev).to_string());
        prev = c;
    }
    cells::join_or(&sizes).replacen(" or ", " and ", 1)
}

/// The common size of the parts that `cuts` (sorted, inside 1..n) divide
/// 0..n into; `Ok(None)` without cuts, `Err(())` when the parts differ.
fn even_split(cuts: &[usize], n: usize) -> Result<Option<usize>, ()> {
    let Some(&size) = cuts.first() else {
        return Ok(None);
    };
    let even = n.is_multiple_of(size)
        && cuts.len() == n / size - 1
        && cuts.iter().enumerate().all(|(i, &p)| p == (i + 1) * size);
    if even { Ok(Some(size)) } else { Err(()) }
}

fn block<R: BufRead>(lines: &mut Lines<R>, first: Line) -> Result<Puzzle, FormatError> {
    let start = first.no;
    let mut rules: Vec<usize> = Vec::new();
    let mut layout: Option<Layout> = None;
    let mut cells: Vec<Option<Value>> = Vec::new();
    let mut rows = 0;
    let mut pending = Some(first);
    while layout.as_ref().is_none_or(|l| rows < l.n) {
        let line = match pending.take() {
            Some(l) => l,
            None => match lines.block_line()? {
                Ok(l) => l,
                Err(no) => {
                    let kind = match &layout {
                        Some(l) => FormatErrorKind::RowCount {
                            expected: l.n,
                            found: rows,
                        },
                        None => FormatErrorKind::NoRows,
                    };
                    return Err(lines.error(no, None, kind));
                }
            },
        };
        if is_rule_line(&line.text) {
            rules.push(rows);
            continue;
        }
        let words = words(&line.text);
        let row_cells = match &layout {
            None => {
                let mode = first_mode(&words);
                let row_cells = cells_of(&words, mode);
                let n = row_cells.len();
                Shape::for_side(n)
                    .map_err(|e| lines.error(line.no, None, FormatErrorKind::BadShape(e)))?;
                cells.reserve(n * n);
                layout = Some(Layout {
                    n,
                    mode,
                    vrules: vertical_rules(&row_cells),
                    line: line.no,
                });
                row_cells
            }
            Some(l) => {
                let mode = row_mode(&words, l).map_err(|found| {
                    let kind = FormatErrorKind::RaggedRows {
                        expected: l.n,
                        found,
                    };
                    lines.error(line.no, None, kind)
                })?;
                let row_cells = cells_of(&words, mode);
                if vertical_rules(&row_cells) != l.vrules {
                    let kind = FormatErrorKind::BoxRules(
                        "the '|' rules of this row do not line up with the first row's".into(),
                    );
                    return Err(lines.error(line.no, None, kind));
                }
                row_cells
            }
        };
        let n = layout.as_ref().map_or(0, |l| l.n);
        for cell in &row_cells {
            let v =
                decode(&line.text, cell.text, n).map_err(|(c, k)| lines.error(line.no, c, k))?;
            cells.push(v);
        }
        rows += 1;
    }
    let Some(layout) = layout else {
        return Err(lines.error(start, None, FormatErrorKind::NoRows));
    };
    // A closing rule line belongs to this grid.
    match lines.next_line() {
        Some(Ok(l)) if is_rule_line(&l.text) => rules.push(rows),
        Some(Ok(l)) => lines.unread(l),
        Some(Err(e)) => lines.unread_error(e),
        None => {}
    }
    let shape = shape_from_rules(&layout, &rules)
        .map_err(|(line, k)| lines.error(line.unwrap_or(start), None, k))?;
    cells::build(shape, cells).map_err(|k| lines.error(start, None, k))
}

fn shape_from_rules(
    layout: &Layout,
    rules: &[usize],
) -> Result<Shape, (Option<usize>, FormatErrorKind)> {
    let n = layout.n;
    let mut bands: Vec<usize> = rules.iter().copied().filter(|&r| r > 0 && r < n).collect();
    bands.dedup();
    let box_cols = even_split(&layout.vrules, n).map_err(|()| {
        let msg = format!(
            "the '|' rules split the rows into groups of {} cells",
            groups(&layout.vrules, n)
        );
        (Some(layout.line), FormatErrorKind::BoxRules(msg))
    })?;
    let box_rows = even_split(&bands, n).map_err(|()| {
        let msg = format!(
            "the rule lines split the grid into bands of {} rows",
            groups(&bands, n)
        );
        (None, FormatErrorKind::BoxRules(msg))
    })?;
    let shape = match (box_rows, box_cols) {
        (Some(r), Some(c)) if r * c != n => {
            let msg = format!(
                "the '|' rules make boxes {c} wide and the rule lines make them {r} tall, \
                 but {r}×{c} is not {n}"
            );
            return Err((None, FormatErrorKind::BoxRules(msg)));
        }
        (Some(r), Some(c)) => Shape::new(r, c),
        (None, Some(c)) => Shape::new(n / c, c),
        (Some(r), None) => Shape::new(r, n / r),
        (None, None) => Shape::for_side(n),
    };
    shape.map_err(|e| (None, FormatErrorKind::BadShape(e)))
}

/// Rows with `|` between boxes and `------+------` between bands; single
/// characters up to 35×35, right-aligned numbers above.
pub(super) fn render(puzzle: &Puzzle) -> String {
    let shape = puzzle.shape();
    let n = shape.n();
    let (br, bc) = (shape.box_rows(), shape.box_cols());
    let w = if n <= MAX_CHAR_SIDE {
        1
    } else {
        cells::width(n)
    };
    let group = bc * w + (bc - 1);
    let per_row = n / bc;
    let rule: String = (0..per_row)
        .map(|i| "-".repeat(group + usize::from(i > 0) + usize::from(i + 1 < per_row)))
        .collect::<Vec<_>>()
        .join("+");
    let mut s = String::with_capacity((n + n / br) * (n * (w + 1) + 2 * per_row + 1));
    for (r, row) in puzzle.cells().chunks(n).enumerate() {
        if r > 0 && r % br == 0 {
            s.push_str(&rule);
            s.push('\n');
        }
        for (c, cell) in row.iter().enumerate() {
            if c > 0 {
                s.push_str(if c % bc == 0 { " | " } else { " " });
            }
            match (cell, n <= MAX_CHAR_SIDE) {
                (Some(v), true) => s.push(cells::value_char(v.get())),
                (None, true) => s.push('.'),
                (Some(v), false) => s.push_str(&format!("{:>w$}", v.get())),
                (None, false) => s.push_str(&format!("{:>w$}", ".")),
            }
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::super::{Format, PuzzleReader};
    use super::*;
    use crate::engine::shape::ShapeError;

    fn read(text: &str) -> Vec<Result<Puzzle, FormatError>> {
        PuzzleReader::new(text.as_bytes(), "g.txt", Some(Format::Grid)).collect()
    }

    fn one(text: &str) -> Puzzle {
        let mut all = read(text);
        assert_eq!(all.len(), 1, "{all:?}");
        all.remove(0).unwrap()
    }

    fn first_err(text: &str) -> FormatError {
        read(text).into_iter().find_map(Result::err).unwrap()
    }

    const LINE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn classic() -> Puzzle {
        super::super::parse_one(LINE, "l").unwrap()
    }

    const BOOK: &str = "\
+-------+-------+-------+
| 5 3 . | . 7 . | . . . |
| 6 . . | 1 9 5 | . . . |
| . 9 8 | . . . | . 6 . |
+-------+-------+-------+
| 8 . . | . 6 . | . . 3 |
| 4 . . | 8 . 3 | . . 1 |
| 7 . . | . 2 . | . . 6 |
+-------+-------+-------+
| . 6 . | . . . | 2 8 . |
| . . . | 4 1 9 | . . 5 |
| . . . | . 8 . | . 7 9 |
+-------+-------+-------+
";

    #[test]
    fn reads_book_and_web_layouts() {
        let want = classic();
        assert_eq!(one(BOOK), want);
        assert_eq!(one(&BOOK.replace('.', "_")), want);
        assert_eq!(one(&render(&want)), want);
        let bare: String = LINE
            .as_bytes()
            .chunks(9)
            .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap()))
            .collect();
        assert_eq!(one(&bare), want);
        let grouped: String = LINE
            .as_bytes()
            .chunks(9)
            .map(|r| {
                let r = std::str::from_utf8(r).unwrap();
                format!("{} {} {}\n", &r[..3], &r[3..6], &r[6..])
            })
            .collect();
        assert_eq!(one(&grouped), want);
        let unicode =
            "┌───┬───┐\n│1 .│3 .│\n│. .│. .│\n├───┼───┤\n│. 2│. .│\n│. 4│. .│\n└───┴───┘\n";
        let p = one(unicode);
        assert_eq!(p.shape(), Shape::square(2).unwrap());
        assert_eq!(p.clue_count(), 4);
    }

    #[test]
    fn cr_only_line_ends_read_as_lf_and_crlf() {
        let want = classic();
        let boxed = BOOK
            .replace("+-------+-------+-------+\n", "├───────┼───────┼───────┤\n")
            .replace('|', "│");
        for text in [BOOK.to_string(), boxed] {
            assert_eq!(one(&text), want, "{text}");
            for end in ["\r", "\r\n"] {
                let other = text.replace('\n', end);
                assert_eq!(one(&other), want, "{other:?}");
                // Detected as a grid, too (as a paste is), and two grids
                // apart by a blank line are two puzzles.
                let two = format!("{other}{end}{other}");
                let both = super::super::parse_str(&two, "paste").unwrap();
                assert_eq!(both, vec![want.clone(), want.clone()], "{two:?}");
            }
        }
    }

    #[test]
    fn writes_rules_between_boxes_and_bands() {
        let text = render(&classic());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 11);
        assert_eq!(lines[0], "5 3 . | . 7 . | . . .");
        assert_eq!(lines[3], "------+-------+------");
    }

    #[test]
    fn rectangular_boxes_from_the_rules() {
        let wide = "1 2 3 | 4 5 6\n. . . | . . .\n------+------\n. . . | . . .\n. . . | . . .\n------+------\n. . . | . . .\n. . . | . . 1\n";
        let p = one(wide);
        assert_eq!(p.shape(), Shape::new(2, 3).unwrap());
        assert_eq!(render(&p), wide);
        let tall = Puzzle::empty(Shape::new(3, 2).unwrap());
        let text = render(&tall);
        assert!(text.starts_with(". . | . . | . .\n"), "{text}");
        assert_eq!(one(&text), tall);
        // Only '|' rules, or only rule lines: the other side follows.
        let no_lines: String = text
            .lines()
            .filter(|l| !is_rule_line(l))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(one(&no_lines).shape(), Shape::new(3, 2).unwrap());
        let no_bars = text.replace(" |", "");
        assert_eq!(one(&no_bars).shape(), Shape::new(3, 2).unwrap());
        // No rules at all: the usual shape.
        let bare: String = no_lines.replace(" |", "");
        assert_eq!(one(&bare).shape(), Shape::new(2, 3).unwrap());
    }

    #[test]
    fn numbers_above_35() {
        let mut p = Puzzle::empty(Shape::square(6).unwrap());
        p.set(3, Value::new(36)).unwrap();
        p.set(40, Value::new(7)).unwrap();
        let text = render(&p);
        assert!(text.starts_with(" .  .  . 36  .  . |  . "), "{text}");
        assert_eq!(one(&text), p);
        // Also when the first row holds only one-digit numbers.
        let mut q = Puzzle::empty(Shape::square(6).unwrap());
        q.set(40, Value::new(17)).unwrap();
        assert_eq!(one(&render(&q)), q);
        // Numbers mixed in, 16×16.
        let row = "10 . 3 . | . . . . | . . . . | . . . 16\n";
        let mut text = String::new();
        for r in 0..16 {
            if r > 0 && r % 4 == 0 {
                text.push_str("-----\n");
            }
            text.push_str(row);
        }
        let p = one(&text);
        assert_eq!(p.shape(), Shape::square(4).unwrap());
        assert_eq!(p.get(0).map(|v| v.get()), Some(10));
        assert_eq!(p.get(15).map(|v| v.get()), Some(16));
    }

    #[test]
    fn several_grids() {
        let text = format!("{BOOK}\n{}\n\n{}", render(&classic()), render(&classic()));
        let got = read(&text);
        assert_eq!(got.len(), 3);
        assert!(got.iter().all(|p| p.as_ref().unwrap() == &classic()));
        // Without blank lines between them too.
        let got = read(&format!("{BOOK}{BOOK}"));
        assert_eq!(got.len(), 2);
        assert!(got.iter().all(Result::is_ok));
    }

    #[test]
    fn bad_cells_name_column_and_set() {
        let e = first_err(&BOOK.replace("| 6 . . |", "| 6 x . |"));
        assert_eq!((e.line, e.col), (3, Some(5)));
        assert_eq!(
            e.to_string(),
            "g.txt:3:5: expected 1-9, '.', '0', '_' or '*', found 'x'"
        );
        let text = "10 . 3 . . . . . . . . . . . . 16\n10 . 3 . 17 . . . . . . . . . . 16\n";
        let e = first_err(text);
        assert_eq!((e.line, e.col), (2, Some(10)));
        assert_eq!(
            e.kind,
            FormatErrorKind::ValueTooLarge {
                value: "17".into(),
                n: 16
            }
        );
    }

    #[test]
    fn ragged_and_short_grids() {
        let e = first_err(&BOOK.replace("| 6 . . | 1 9 5 | . . . |", "| 6 . . | 1 9 5 | . . |"));
        assert_eq!((e.line, e.col), (3, None));
        assert_eq!(
            e.kind,
            FormatErrorKind::RaggedRows {
                expected: 9,
                found: 8
            }
        );
        let short: String = BOOK.lines().take(6).map(|l| format!("{l}\n")).collect();
        let got = read(&format!("{short}\n{BOOK}"));
        assert_eq!(got.len(), 2);
        let e = got[0].as_ref().unwrap_err();
        assert_eq!(
            (e.line, e.kind.clone()),
            (
                7,
                FormatErrorKind::RowCount {
                    expected: 9,
                    found: 4
                }
            )
        );
        assert!(got[1].is_ok());
        let e = first_err("+---+---+\n\n");
        assert_eq!((e.line, e.kind.clone()), (2, FormatErrorKind::NoRows));
    }

    #[test]
    fn bad_shapes_and_rules() {
        let e = first_err("1 2 3 4 5 6 7\n");
        assert_eq!(
            e.kind,
            FormatErrorKind::BadShape(ShapeError::NoBoxShape { n: 7 })
        );
        let uneven = "1 2 3 | 4 5 | 6\n".repeat(6);
        let e = first_err(&uneven);
        assert_eq!(e.line, 1);
        assert_eq!(
            e.kind.to_string(),
            "the box rules do not fit: the '|' rules split the rows into groups of 3, 2 and 1 cells"
        );
        let shifted = format!(
            "1 2 3 | 4 5 6\n1 2 | 3 4 5 6\n{}",
            "1 2 3 4 5 6\n".repeat(4)
        );
        let e = first_err(&shifted);
        assert_eq!(e.line, 2);
        assert!(matches!(e.kind, FormatErrorKind::BoxRules(_)));
        let bands = format!(
            "{}---\n{}",
            "1 2 3 | 4 5 6\n".repeat(3),
            "1 2 3 | 4 5 6\n".repeat(3)
        );
        let e = first_err(&bands);
        assert!(
            e.to_string().contains("3 wide") && e.to_string().contains("3 tall"),
            "{e}"
        );
        let thin = "1|2|3|4\n".repeat(4);
        let e = first_err(&thin);
        assert!(matches!(
            e.kind,
            FormatErrorKind::BadShape(ShapeError::BoxTooThin { .. })
        ));
    }

    #[test]
    fn rule_lines() {
        assert!(is_rule_line("------+-------+------"));
        assert!(is_rule_line(" +=====+=====+ "));
        assert!(is_rule_line("|---|---|"));
        assert!(is_rule_line("├───┼───┤"));
        assert!(!is_rule_line("| 1 2 | 3 4 |"));
        assert!(!is_rule_line("+ +"));
        assert!(!is_rule_line(""));
    }
}
