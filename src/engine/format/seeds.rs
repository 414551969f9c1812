//! The seeds format: a box-size line (`3` for 3×3 boxes, `2x3` for boxes of
//! 2 rows × 3 columns), then n rows of `;`-separated numbers, `.` blank, an
//! optional trailing `;`. Puzzles follow one another, blank lines optional.

use std::fmt::Write as _;
use std::io::BufRead;

use crate::engine::grid::{Puzzle, Value};
use crate::engine::shape::Shape;

use super::cells;
use super::lines::{Line, Lines, is_content};
use super::{FormatError, FormatErrorKind, Item};

/// The next puzzle or error; `None` at the end. After an error the rest of
/// the puzzle's rows are skipped, up to the next size line or blank line.
pub(super) fn next<R: BufRead>(lines: &mut Lines<R>) -> Option<Item> {
    let header = loop {
        match lines.next_line()? {
            Err(e) => {
                recover(lines);
                return Some(Err(e));
            }
            Ok(l) if !is_content(&l.text) => {}
            Ok(l) => break l,
        }
    };
    let result = block(lines, &header);
    if result.is_err() {
        recover(lines);
    }
    Some(result.map(|p| (header.no, p)))
}

/// Whether a line looks like a size line, not a row: `3`, `2x3`.
pub(super) fn is_header(text: &str) -> bool {
    let t = text.trim();
    let short_number = |s: &str| cells::is_number(s) && s.len() <= 3;
    match t.split_once(['x', 'X', '×']) {
        Some((r, c)) => short_number(r.trim()) && short_number(c.trim()),
        None => short_number(t),
    }
}

fn recover<R: BufRead>(lines: &mut Lines<R>) {
    while let Some(l) = lines.next_line() {
        match l {
            Err(_) => {}
            Ok(l) if l.is_blank() => return,
            Ok(l) if l.is_comment() || l.text.contains(';') => {}
            Ok(l) => {
                lines.unread(l);
                return;
            }
        }
    }
}

fn block<R: BufRead>(lines: &mut Lines<R>, header: &Line) -> Result<Puzzle, FormatError> {
    let shape = parse_header(&header.text).map_err(|(col, k)| lines.error(header.no, col, k))?;
    let n = shape.n();
    let mut cells = Vec::with_capacity(shape.cells());
    for found in 0..n {
        let row = loop {
            let ended = FormatErrorKind::RowCount { expected: n, found };
            match lines.next_line() {
                None => return Err(lines.error(lines.line_no(), None, ended)),
                Some(Err(e)) => return Err(e),
                Some(Ok(l)) if l.is_comment() || (found == 0 && l.is_blank()) => {}
                Some(Ok(l)) if l.is_blank() || !l.text.contains(';') => {
                    let no = l.no;
                    lines.unread(l);
                    return Err(lines.error(no, None, ended));
                }
                Some(Ok(l)) => break l,
            }
        };
        parse_row(&row.text, n, &mut cells).map_err(|(col, k)| lines.error(row.no, col, k))?;
    }
    cells::build(shape, cells).map_err(|k| lines.error(header.no, None, k))
}

type Located = (Option<usize>, FormatErrorKind);

fn parse_header(text: &str) -> Result<Shape, Located> {
    let t = text.trim();
    let bad = || {
        let kind = FormatErrorKind::BadToken {
            found: t.to_owned(),
            expected: "a box size such as '3' or '2x3' (box rows x box columns)".into(),
        };
        (Some(cells::col_of(text, t)), kind)
    };
    let size = |s: &str| s.parse::<usize>().unwrap_or(usize::MAX);
    let shape = match t.split_once(['x', 'X', '×']) {
        Some((r, c)) => {
            let (r, c) = (r.trim(), c.trim());
            if !cells::is_number(r) || !cells::is_number(c) {
                return Err(bad());
            }
            Shape::new(size(r), size(c))
        }
        None if cells::is_number(t) => Shape::square(size(t)),
        None => return Err(bad()),
    };
    shape.map_err(|e| (None, FormatErrorKind::BadShape(e)))
}

fn parse_row(text: &str, n: usize, out: &mut Vec<Option<Value>>) -> Result<(), Located> {
    let mut fields: Vec<&str> = text.trim_end().split(';').collect();
    if fields.len() > 1 && fields.last().is_some_and(|f| f.trim().is_empty()) {
        fields.pop();
    }
    if fields.len() != n {
        let col = fields.get(n).map(|f| cells::col_of(text, f.trim_start()));
        let kind = FormatErrorKind::CellCount {
            expected: n,
            found: fields.len(),
        };
        return Err((col, kind));
    }
    for f in fields {
        let token = f.trim();
        let cell = cells::number_cell(token, n, &["."], || format!("a number 1-{n} or '.'"))
            .map_err(|k| (Some(cells::col_of(text, token)), k))?;
        out.push(cell);
    }
    Ok(())
}

/// The size line (`k`, or `RxC` when the boxes are not square) and n rows.
pub(super) fn render(puzzle: &Puzzle) -> String {
    let shape = puzzle.shape();
    let n = shape.n();
    let mut s = String::with_capacity(shape.cells() * (cells::width(n) + 1) + 8);
    if shape.box_rows() == shape.box_cols() {
        let _ = writeln!(s, "{}", shape.box_rows());
    } else {
        let _ = writeln!(s, "{}x{}", shape.box_rows(), shape.box_cols());
    }
    for row in puzzle.cells().chunks(n) {
        for (i, c) in row.iter().enumerate() {
            if i > 0 {
                s.push(';');
            }
            match c {
                Some(v) => {
                    let _ = write!(s, "{v}");
                }
                None => s.push('.'),
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

    const CLASSIC: &str = "3
2;5;.;.;3;.;9;.;1
.;1;.;.;.;4;.;.;.
4;.;7;.;.;.;2;.;8
.;.;5;2;.;.;.;.;.
.;.;.;.;9;8;1;.;.
.;4;.;.;.;3;.;.;.
.;.;.;3;6;.;.;7;2
.;7;.;.;.;.;.;.;3
9;.;3;.;.;.;6;.;4
";

    fn read(text: &str) -> Vec<Result<Puzzle, FormatError>> {
        PuzzleReader::new(text.as_bytes(), "s.txt", Some(Format::Seeds)).collect()
    }

    fn errors(text: &str) -> Vec<FormatError> {
        read(text).into_iter().filter_map(Result::err).collect()
    }

    #[test]
    fn reads_the_example_and_writes_it_back() {
        let got = read(CLASSIC);
        assert_eq!(got.len(), 1);
        let p = got[0].as_ref().unwrap();
        assert_eq!(p.shape(), Shape::CLASSIC);
        assert_eq!(p.get(0).map(|v| v.get()), Some(2));
        assert_eq!(p.get(80).map(|v| v.get()), Some(4));
        assert_eq!(render(p), CLASSIC);
    }

    #[test]
    fn trailing_semicolons_spaces_and_several_puzzles() {
        let rect = "2x3\n1; 2; 3;4;5;6;\n.;.;.;.;.;.;\n.;.;.;.;.;.\n.;.;.;.;.;.\n.;.;.;.;.;.\n0;.;.;.;.;6\n";
        let spaced = rect.replacen('\n', "\n\n", 1);
        let text = format!("{rect}\n\n# next\n{spaced}{CLASSIC}");
        let got: Vec<Puzzle> = read(&text).into_iter().map(Result::unwrap).collect();
        assert_eq!(got.len(), 3);
        assert_eq!(got[0].shape(), Shape::new(2, 3).unwrap());
        assert_eq!(got[0], got[1]);
        assert_eq!(got[0].clue_count(), 7);
        assert_eq!(render(&got[0]).lines().next(), Some("2x3"));
        let tall = Shape::new(3, 2).unwrap();
        assert_eq!(render(&Puzzle::empty(tall)).lines().next(), Some("3x2"));
    }

    #[test]
    fn header_detection() {
        assert!(is_header("3"));
        assert!(is_header(" 2x3 "));
        assert!(is_header("10X10"));
        assert!(!is_header("1;2"));
        assert!(!is_header("1234567812345678"));
        assert!(!is_header("x3"));
    }

    #[test]
    fn bad_headers() {
        let e = &errors("abc\n1;2;3;4\n")[0];
        assert_eq!((e.line, e.col), (1, Some(1)));
        assert!(matches!(&e.kind, FormatErrorKind::BadToken { found, .. } if found == "abc"));
        let e = &errors("1\n1\n")[0];
        assert!(matches!(
            e.kind,
            FormatErrorKind::BadShape(ShapeError::BoxTooThin { .. })
        ));
        let e = &errors("21\n")[0];
        assert_eq!(
            e.kind,
            FormatErrorKind::BadShape(ShapeError::OutOfRange { n: 441 })
        );
        let e = &errors("99999999999999999999999x2\n")[0];
        assert!(matches!(e.kind, FormatErrorKind::BadShape(_)));
        // Rows without a size line: one error, then the stream ends cleanly.
        let all = read("1;2;3;4\n1;2;3;4\n");
        assert_eq!(all.len(), 1);
        assert!(all[0].is_err());
    }

    #[test]
    fn bad_rows_name_line_and_column() {
        let text = CLASSIC.replace("4;.;7;.;.;.;2;.;8", "4;.;7;.;x;.;2;.;8");
        let e = &errors(&text)[0];
        assert_eq!((e.line, e.col), (4, Some(9)));
        assert_eq!(
            e.to_string(),
            "s.txt:4:9: expected a number 1-9 or '.', found 'x'"
        );
        let text = CLASSIC.replace("4;.;7;.;.;.;2;.;8", "4;.;7;.;10;.;2;.;8");
        let e = &errors(&text)[0];
        assert_eq!((e.line, e.col), (4, Some(9)));
        assert_eq!(
            e.kind,
            FormatErrorKind::ValueTooLarge {
                value: "10".into(),
                n: 9
            }
        );
        assert_eq!(
            e.kind.to_string(),
            "value 10 is too large: cells of a 9×9 grid hold 1-9"
        );
        let text = CLASSIC.replace("4;.;7;.;.;.;2;.;8", "4;.;7;.;.;.;2;.");
        let e = &errors(&text)[0];
        assert_eq!((e.line, e.col), (4, None));
        assert_eq!(
            e.kind,
            FormatErrorKind::CellCount {
                expected: 9,
                found: 8
            }
        );
        let text = CLASSIC.replace("4;.;7;.;.;.;2;.;8", "4;.;7;.;.;.;2;.;8;5");
        let e = &errors(&text)[0];
        assert_eq!((e.line, e.col), (4, Some(19)));
        let text = CLASSIC.replace("4;.;7;.;.;.;2;.;8", "4;.;7;;.;.;2;.;8");
        let e = &errors(&text)[0];
        assert_eq!(e.col, Some(7));
        assert!(e.to_string().ends_with("found an empty cell"), "{e}");
    }

    #[test]
    fn short_puzzles_and_recovery() {
        let short: String = CLASSIC.lines().take(6).map(|l| format!("{l}\n")).collect();
        // Ends at a blank line, at the next size line, and at the end of input.
        for sep in ["\n", ""] {
            let text = format!("{short}{sep}{CLASSIC}{short}");
            let got = read(&text);
            assert_eq!(got.len(), 3, "{sep:?}");
            let e = got[0].as_ref().unwrap_err();
            assert_eq!(
                e.kind,
                FormatErrorKind::RowCount {
                    expected: 9,
                    found: 5
                }
            );
            assert_eq!(e.line, 7);
            assert!(got[1].is_ok());
            let e = got[2].as_ref().unwrap_err();
            assert_eq!(
                e.kind,
                FormatErrorKind::RowCount {
                    expected: 9,
                    found: 5
                }
            );
        }
        // A bad value: the rest of that puzzle is skipped, the next one read.
        let bad = CLASSIC.replace("2;5;", "2;50;");
        let got = read(&format!("{bad}{CLASSIC}"));
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].as_ref().unwrap_err().line, 2);
        assert!(got[1].is_ok());
    }
}
