//! The numbers format: n rows of n whitespace-separated numbers, `0` or `.`
//! blank, for any side 4…400 (the box shape is [`Shape::for_side`]). Puzzles
//! are separated by blank lines.
//!
//! Because a grid pasted with spaces (`5 3 . . 7 . . . .`) is detected as
//! this format, the reader also takes what such grids hold further down: the
//! letters `A`-`Z` (10-35) and the blanks `_` and `*`.

use std::fmt::Write as _;
use std::io::BufRead;

use crate::engine::grid::{Puzzle, Value};
use crate::engine::shape::Shape;

use super::cells;
use super::lines::{Line, Lines, is_content};
use super::{FormatError, FormatErrorKind, Item};

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
    let result = block(lines, &first);
    if result.is_err() {
        lines.skip_block();
    }
    Some(result.map(|p| (first.no, p)))
}

/// Whether a token is a numbers-format cell as written: digits or `.`.
pub(super) fn is_cell_token(token: &str) -> bool {
    token == "." || cells::is_number(token)
}

/// Blank markers read (the writer uses `0`).
const BLANKS: [char; 3] = ['.', '_', '*'];

/// Whether a token can be a cell for some n: digits, a blank, a letter.
fn is_read_token(token: &str) -> bool {
    let mut cs = token.chars();
    match (cs.next(), cs.next()) {
        (Some(c), None) => c.is_ascii_alphanumeric() || BLANKS.contains(&c),
        _ => cells::is_number(token),
    }
}

fn block<R: BufRead>(lines: &mut Lines<R>, first: &Line) -> Result<Puzzle, FormatError> {
    let tokens: Vec<&str> = first.text.split_whitespace().collect();
    if let Some(bad) = tokens.iter().find(|t| !is_read_token(t)) {
        let kind = FormatErrorKind::BadToken {
            found: (*bad).to_owned(),
            expected: "a number or '.'".into(),
        };
        return Err(lines.error(first.no, Some(cells::col_of(&first.text, bad)), kind));
    }
    let n = tokens.len();
    let shape = Shape::for_side(n)
        .map_err(|e| lines.error(first.no, None, FormatErrorKind::BadShape(e)))?;
    let mut cells = Vec::with_capacity(shape.cells());
    push_row(&first.text, &tokens, n, &mut cells).map_err(|(c, k)| lines.error(first.no, c, k))?;
    for found in 1..n {
        let line = match lines.block_line()? {
            Ok(l) => l,
            Err(no) => {
                let kind = FormatErrorKind::RowCount { expected: n, found };
                return Err(lines.error(no, None, kind));
            }
        };
        let tokens: Vec<&str> = line.text.split_whitespace().collect();
        if tokens.len() != n {
            let col = tokens.get(n).map(|t| cells::col_of(&line.text, t));
            let kind = FormatErrorKind::RaggedRows {
                expected: n,
                found: tokens.len(),
            };
            return Err(lines.error(line.no, col, kind));
        }
        push_row(&line.text, &tokens, n, &mut cells)
            .map_err(|(c, k)| lines.error(line.no, c, k))?;
    }
    cells::build(shape, cells).map_err(|k| lines.error(first.no, None, k))
}

fn push_row(
    text: &str,
    tokens: &[&str],
    n: usize,
    out: &mut Vec<Option<Value>>,
) -> Result<(), (Option<usize>, FormatErrorKind)> {
    for t in tokens {
        let expected = || format!("a number 1-{n}, '0' or '.'");
        let mut cs = t.chars();
        let cell = match (cs.next(), cs.next()) {
            (Some(c), None) if !c.is_ascii_digit() => {
                cells::char_cell(c, n, &BLANKS).ok_or_else(|| FormatErrorKind::BadToken {
                    found: (*t).to_owned(),
                    expected: expected(),
                })
            }
            _ => cells::number_cell(t, n, &[], expected),
        }
        .map_err(|k| (Some(cells::col_of(text, t)), k))?;
        out.push(cell);
    }
    Ok(())
}

/// n rows of right-aligned numbers, `0` for blank.
pub(super) fn render(puzzle: &Puzzle) -> String {
    let n = puzzle.shape().n();
    let w = cells::width(n);
    let mut s = String::with_capacity(puzzle.shape().cells() * (w + 1));
    for row in puzzle.cells().chunks(n) {
        for (i, c) in row.iter().enumerate() {
            if i > 0 {
                s.push(' ');
            }
            let _ = write!(s, "{:>w$}", c.map_or(0, |v| v.get()));
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
        PuzzleReader::new(text.as_bytes(), "n.txt", Some(Format::Numbers)).collect()
    }

    fn first_err(text: &str) -> FormatError {
        read(text).into_iter().find_map(Result::err).unwrap()
    }

    const FOUR: &str = "0 2 0 1\n0 0 0 0\n0 0 0 0\n4 0 2 0\n";

    #[test]
    fn reads_aligned_rows_without_final_newline() {
        let text = "   .  12   0   1\n   0   0   0   0\n   0   0   0   0\n   4   0   2   0";
        let e = first_err(text);
        assert_eq!(
            e.kind,
            FormatErrorKind::ValueTooLarge {
                value: "12".into(),
                n: 4
            }
        );
        assert_eq!((e.line, e.col), (1, Some(7)));
        let got = read(&text.replace("12", " 2"));
        assert_eq!(got.len(), 1);
        let p = got[0].as_ref().unwrap();
        assert_eq!(p, read(FOUR)[0].as_ref().unwrap());
        assert_eq!(p.shape(), Shape::square(2).unwrap());
        assert_eq!(render(p), FOUR);
    }

    #[test]
    fn several_puzzles_with_and_without_blank_lines() {
        let text = format!("{FOUR}\n\n# another\n{FOUR}{FOUR}");
        let got: Vec<Puzzle> = read(&text).into_iter().map(Result::unwrap).collect();
        assert_eq!(got.len(), 3);
    }

    #[test]
    fn spaced_grids_with_letters_and_other_blanks() {
        let mut text = String::from("1 . 3 . . . . . . . . . . . . 16\n");
        for _ in 1..16 {
            text.push_str("A _ * g 0 . . . . . . . . . . .\n");
        }
        let p = read(&text).remove(0).unwrap();
        assert_eq!(p.shape(), Shape::square(4).unwrap());
        assert_eq!(p.get(16).map(|v| v.get()), Some(10));
        assert_eq!(p.get(19).map(|v| v.get()), Some(16));
        assert_eq!(p.clue_count(), 3 + 15 * 2);
        let e = first_err("1 2 3 4\n1 2 3 A\n");
        assert_eq!((e.line, e.col), (2, Some(7)));
        assert_eq!(
            e.kind.to_string(),
            "expected a number 1-4, '0' or '.', found 'A'"
        );
    }

    #[test]
    fn pads_to_the_widest_number() {
        let mut p = Puzzle::empty(Shape::for_side(12).unwrap());
        p.set(1, Value::new(12)).unwrap();
        p.set(2, Value::new(3)).unwrap();
        let text = render(&p);
        assert!(text.starts_with(" 0 12  3  0"), "{text}");
        assert_eq!(read(&text)[0].as_ref().unwrap(), &p);
    }

    #[test]
    fn prime_and_tiny_sides() {
        let e = first_err("1 2 3 4 5 6 7\n");
        assert_eq!((e.line, e.col), (1, None));
        assert_eq!(
            e.kind,
            FormatErrorKind::BadShape(ShapeError::NoBoxShape { n: 7 })
        );
        assert_eq!(
            e.to_string(),
            "n.txt:1: no box shape fits a 7×7 grid: 7 is not a product of two numbers ≥ 2"
        );
        let e = first_err("1 2\n");
        assert_eq!(
            e.kind,
            FormatErrorKind::BadShape(ShapeError::OutOfRange { n: 2 })
        );
    }

    #[test]
    fn ragged_rows_and_bad_tokens() {
        let text = FOUR.replace("0 0 0 0\n0 0 0 0", "0 0 0 0\n0 0 0");
        let e = first_err(&text);
        assert_eq!((e.line, e.col), (3, None));
        assert_eq!(
            e.kind,
            FormatErrorKind::RaggedRows {
                expected: 4,
                found: 3
            }
        );
        assert_eq!(
            e.kind.to_string(),
            "this row has 3 cells but the first row has 4"
        );
        let e = first_err(&FOUR.replace("4 0 2 0", "4 0 2 0 9"));
        assert_eq!((e.line, e.col), (4, Some(9)));
        let e = first_err(&FOUR.replace("4 0 2 0", "4 0 b 0"));
        assert_eq!((e.line, e.col), (4, Some(5)));
        assert_eq!(
            e.kind.to_string(),
            "expected a number 1-4, '0' or '.', found 'b'"
        );
        let e = first_err("0 2 x 1\n");
        assert_eq!((e.line, e.col), (1, Some(5)));
        let e = first_err("0 2 0 1 ab\n");
        assert_eq!((e.line, e.col), (1, Some(9)));
        assert_eq!(e.kind.to_string(), "expected a number or '.', found 'ab'");
    }

    #[test]
    fn short_blocks_and_recovery() {
        let short = "0 2 0 1\n0 0 0 0\n";
        let text = format!("{short}\n{FOUR}\n{short}");
        let got = read(&text);
        assert_eq!(got.len(), 3);
        let e = got[0].as_ref().unwrap_err();
        assert_eq!(
            (e.line, e.kind.clone()),
            (
                3,
                FormatErrorKind::RowCount {
                    expected: 4,
                    found: 2
                }
            )
        );
        assert!(got[1].is_ok());
        let e = got[2].as_ref().unwrap_err();
        assert_eq!(e.line, 10);
        // A bad value skips to the next blank line.
        let text = format!("{}\n{FOUR}", FOUR.replace("0 2 0 1", "0 7 0 1"));
        let got = read(&text);
        assert_eq!(got.len(), 2);
        assert!(got[0].is_err() && got[1].is_ok());
    }
}
