//! The line format: one puzzle per line, n² characters (`1`-`9`, `A`-`Z`,
//! `.` or `0` blank). `#` lines are comments; CSV rows give their first field
//! and a CSV header line is skipped; text after the puzzle and a space is
//! ignored (ratings, sources).

use std::io::BufRead;

use crate::engine::grid::Puzzle;
use crate::engine::shape::Shape;

use super::cells::{self, MAX_CHAR_SIDE};
use super::lines::{Line, Lines};
use super::{FormatError, FormatErrorKind, Item, Parsed};

/// Blank markers of the line format.
pub(super) const BLANKS: [char; 2] = ['.', '0'];

/// What the line reader remembers between puzzles.
#[derive(Debug, Default)]
pub(super) struct State {
    /// A content line has been seen (so a CSV header can no longer appear).
    seen_content: bool,
}

/// The next puzzle or error; `None` at the end.
pub(super) fn next<R: BufRead>(lines: &mut Lines<R>, state: &mut State) -> Option<Item> {
    loop {
        let line = lines.next_line()?;
        if let Some(item) = take(lines, state, line) {
            return Some(item);
        }
    }
}

/// A classic 9×9 puzzle as [`classic`] reads it: digits 1-9, 0 for blank,
/// row-major.
pub(super) type Givens = [u8; 81];

/// What [`next_fast`] yields: a puzzle and the line it is on, or an error.
pub(super) type FastItem = Result<(usize, Parsed), FormatError>;

/// The next puzzle or error, as [`next`] gives it, but a line that
/// [`classic`] reads is neither copied into a `String` nor built into a
/// [`Puzzle`]: its [`Givens`] come straight from the reader's buffer. Every
/// other line goes through [`next`]'s parser, so both read the same
/// puzzles and report the same errors.
pub(super) fn next_fast<R: BufRead>(lines: &mut Lines<R>, state: &mut State) -> Option<FastItem> {
    loop {
        let line = if lines.has_pending() {
            lines.next_line()?
        } else {
            match lines.read_raw()? {
                Ok(no) => {
                    if let Some(givens) = classic(lines.raw()) {
                        state.seen_content = true;
                        return Some(Ok((no, Parsed::Classic(givens))));
                    }
                    lines.raw_text(no)
                }
                Err(e) => Err(e),
            }
        };
        if let Some(item) = take(lines, state, line) {
            return Some(item.map(|(no, p)| (no, Parsed::Puzzle(p))));
        }
    }
}

/// The givens of a line that is plainly one 9×9 puzzle: 81 cells (`1`-`9`,
/// `.` or `0`) from the first byte, then the end of the line, or a comma, a
/// space or a tab before more ASCII text (a CSV row, a rating). `None` for
/// anything else, which the general parser then reads (it reads these
/// lines to the same puzzle).
pub(super) fn classic(bytes: &[u8]) -> Option<Givens> {
    let (cells, rest) = bytes.split_at_checked(81)?;
    if !matches!(rest.first(), None | Some(b',' | b' ' | b'\t')) {
        return None;
    }
    // The general reader refuses a NUL and invalid UTF-8 anywhere on the
    // line: leave every line that is not plain ASCII to it.
    if !rest.iter().all(|&b| b != 0 && b.is_ascii()) {
        return None;
    }
    let mut givens = [0u8; 81];
    let mut bad = false;
    for (g, &c) in givens.iter_mut().zip(cells) {
        let d = c.wrapping_sub(b'0');
        bad |= d > 9 && c != b'.';
        *g = if d <= 9 { d } else { 0 };
    }
    (!bad).then_some(givens)
}

/// What a line read as text gives: `Some` to yield, `None` to go on.
fn take(
    lines: &Lines<impl BufRead>,
    state: &mut State,
    line: Result<Line, FormatError>,
) -> Option<Item> {
    let line = match line {
        Ok(l) => l,
        Err(e) => {
            state.seen_content = true;
            return Some(Err(e));
        }
    };
    let first = !state.seen_content;
    match parse_line(&line.text, first) {
        Ok(Content::Skip) => None,
        Ok(Content::Header) => {
            state.seen_content = true;
            None
        }
        Ok(Content::Puzzle(p)) => {
            state.seen_content = true;
            Some(Ok((line.no, p)))
        }
        Err((col, kind)) => {
            state.seen_content = true;
            Some(Err(lines.error(line.no, col, kind)))
        }
    }
}

/// What one line holds.
#[derive(Debug, PartialEq, Eq)]
enum Content {
    /// Blank or comment.
    Skip,
    /// A CSV header.
    Header,
    /// A puzzle.
    Puzzle(Puzzle),
}

/// Whether `len` characters make a puzzle line: n² with 4 ≤ n ≤ 35.
pub(super) fn side_of_length(len: usize) -> Option<usize> {
    let n = (4..=MAX_CHAR_SIDE).find(|n| n * n >= len)?;
    (n * n == len).then_some(n)
}

/// The puzzle text of a content line: the first CSV field, unquoted, its
/// first whitespace-separated word. `None` when there is no such word.
pub(super) fn puzzle_field(body: &str) -> (Option<&str>, bool) {
    let (field, csv) = match body.find(',') {
        Some(i) => (&body[..i], true),
        None => (body, false),
    };
    let field = field.trim();
    let field = field
        .strip_prefix('"')
        .and_then(|f| f.strip_suffix('"'))
        .unwrap_or(field);
    (field.split_whitespace().next(), csv)
}

fn parse_line(text: &str, first: bool) -> Result<Content, (Option<usize>, FormatErrorKind)> {
    let body = text.trim();
    if body.is_empty() || body.starts_with('#') {
        return Ok(Content::Skip);
    }
    let (word, csv) = puzzle_field(body);
    let len = word.map_or(0, |w| w.chars().count());
    if csv && first && side_of_length(len).is_none() {
        return Ok(Content::Header);
    }
    let Some(word) = word else {
        return Err((None, FormatErrorKind::LineLength { found: 0 }));
    };
    let n = match side_of_length(len) {
        Some(n) => n,
        None => return Err((None, FormatErrorKind::LineLength { found: len })),
    };
    let shape = Shape::for_side(n).map_err(|e| (None, FormatErrorKind::BadShape(e)))?;
    let mut cells = Vec::with_capacity(len);
    for (i, (_, c)) in word.char_indices().enumerate() {
        match cells::char_cell(c, n, &BLANKS) {
            Some(v) => cells.push(v),
            None => {
                let col = cells::col_of(text, word) + i;
                let kind = FormatErrorKind::BadChar {
                    found: c,
                    expected: cells::expected_chars(n, &BLANKS),
                };
                return Err((Some(col), kind));
            }
        }
    }
    cells::build(shape, cells)
        .map(Content::Puzzle)
        .map_err(|k| (None, k))
}

/// One line: the puzzle's n² characters and `\n`; `None` above 35×35.
pub(super) fn render(puzzle: &Puzzle) -> Option<String> {
    if puzzle.shape().n() > MAX_CHAR_SIDE {
        return None;
    }
    let mut s: String = puzzle
        .cells()
        .iter()
        .map(|c| c.map_or('.', |v| cells::value_char(v.get())))
        .collect();
    s.push('\n');
    Some(s)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::super::{Format, FormatError, PuzzleReader};
    use super::*;
    use crate::engine::shape::ShapeError;

    const TOP1: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn read(text: &str) -> Vec<Result<Puzzle, FormatError>> {
        PuzzleReader::new(text.as_bytes(), "t.txt", Some(Format::Line)).collect()
    }

    fn err(text: &str) -> FormatError {
        read(text).into_iter().find_map(Result::err).unwrap()
    }

    #[test]
    fn lengths() {
        assert_eq!(side_of_length(81), Some(9));
        assert_eq!(side_of_length(16), Some(4));
        assert_eq!(side_of_length(36), Some(6));
        assert_eq!(side_of_length(1225), Some(35));
        assert_eq!(side_of_length(50), None);
        assert_eq!(side_of_length(9), None);
        assert_eq!(side_of_length(1296), None);
    }

    #[test]
    fn reads_classic_lines_with_comments_and_blanks() {
        let text = format!("# comment\n\n{TOP1}\r\n{}  \n", TOP1.replace('.', "0"));
        let got = read(&text);
        assert_eq!(got.len(), 2);
        let a = got[0].as_ref().unwrap();
        assert_eq!(a, got[1].as_ref().unwrap());
        assert_eq!(a.shape(), Shape::CLASSIC);
        assert_eq!(a.clue_count(), 17);
        assert_eq!(a.get(0).map(|v| v.get()), Some(4));
    }

    #[test]
    fn cr_only_line_ends_read_as_lf_and_crlf() {
        let lf = format!(
            "# comment\n\n{TOP1}\n{}\n\n{TOP1}\n",
            TOP1.replace('.', "0")
        );
        let want = read(&lf);
        assert_eq!(want.len(), 3);
        assert!(want.iter().all(Result::is_ok));
        for end in ["\r", "\r\n"] {
            let text = lf.replace('\n', end);
            assert_eq!(read(&text), want, "{text:?}");
            let detected = super::super::parse_str(&text, "t.txt").unwrap();
            assert_eq!(detected.len(), 3);
        }
    }

    #[test]
    fn letters_any_case_and_shapes_from_length() {
        let p16 = "G".to_string() + &".".repeat(254) + "a";
        let p = &read(&p16)[0];
        let p = p.as_ref().unwrap();
        assert_eq!(p.shape(), Shape::square(4).unwrap());
        assert_eq!(p.get(0).map(|v| v.get()), Some(16));
        assert_eq!(p.get(255).map(|v| v.get()), Some(10));
        let p36 = read(&"1".repeat(36));
        assert_eq!(p36[0].as_ref().unwrap().shape(), Shape::new(2, 3).unwrap());
        let p144 = read(&".".repeat(144));
        assert_eq!(p144[0].as_ref().unwrap().shape(), Shape::new(3, 4).unwrap());
    }

    #[test]
    fn csv_rows_and_headers() {
        let text = format!("quizzes,solutions\n{},{}\n", TOP1, "1".repeat(81));
        let got = read(&text);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].as_ref().unwrap().clue_count(), 17);
        let text =
            format!("puzzle,solution,clues,difficulty,difficulty_range\n\"{TOP1}\",x,17,1.0,0\n");
        assert_eq!(read(&text).len(), 1);
        assert!(read(&text)[0].is_ok());
        // A header after the first line is an error, not skipped.
        let e = err(&format!("{TOP1}\npuzzle,solution\n"));
        assert_eq!(e.line, 2);
        assert_eq!(e.kind, FormatErrorKind::LineLength { found: 6 });
    }

    #[test]
    fn trailing_words_are_ignored() {
        let got = read(&format!("  {TOP1}  ED=7.1/1.2/1.2 # hard\n"));
        assert!(got[0].is_ok());
    }

    #[test]
    fn bad_character_names_column_and_set() {
        let mut line = TOP1.to_string();
        line.replace_range(13..14, "x");
        let e = err(&format!("# c\n{TOP1}\n{line}\n"));
        assert_eq!((e.line, e.col), (3, Some(14)));
        assert_eq!(
            e.to_string(),
            "t.txt:3:14: expected 1-9, '.' or '0', found 'x'"
        );
        let mut p16 = ".".repeat(256);
        p16.replace_range(0..1, "H");
        let e = err(&format!("  {p16}"));
        assert_eq!(e.col, Some(3));
        assert_eq!(
            e.kind.to_string(),
            "expected 1-9, A-G, '.' or '0', found 'H'"
        );
        // A digit above n in a 4×4 line.
        let e = err("1234567812345678");
        assert_eq!(e.col, Some(5));
        assert!(matches!(
            e.kind,
            FormatErrorKind::BadChar { found: '5', .. }
        ));
    }

    #[test]
    fn bad_lengths() {
        let e = err(&".".repeat(50));
        assert_eq!((e.line, e.col), (1, None));
        assert_eq!(e.kind, FormatErrorKind::LineLength { found: 50 });
        assert!(e.to_string().starts_with("t.txt:1: found 50 cells"));
        let e = err(&".".repeat(80));
        assert_eq!(e.kind, FormatErrorKind::LineLength { found: 80 });
        let e = err(&".".repeat(49));
        assert_eq!(
            e.kind,
            FormatErrorKind::BadShape(ShapeError::NoBoxShape { n: 7 })
        );
        let e = err(&".".repeat(36 * 36));
        assert_eq!(e.kind, FormatErrorKind::LineLength { found: 1296 });
        let e = err(&format!("{TOP1}\n,a,b"));
        assert_eq!(e.kind, FormatErrorKind::LineLength { found: 0 });
    }

    #[test]
    fn errors_do_not_stop_the_stream() {
        let text = format!("{TOP1}\nnonsense\n{}\n{TOP1}\n", &TOP1[..80]);
        let got = read(&text);
        assert_eq!(got.len(), 4);
        assert!(got[0].is_ok() && got[3].is_ok());
        assert_eq!(got[1].as_ref().unwrap_err().line, 2);
        assert_eq!(got[2].as_ref().unwrap_err().line, 3);
        let mut r = PuzzleReader::new(text.as_bytes(), "t", Some(Format::Line));
        r.next();
        r.next();
        r.next();
        r.next();
        assert_eq!(r.last_line(), 4);
    }

    /// What a reader yields for a text, with the line of each item.
    type Yielded = Vec<(usize, Result<Puzzle, FormatError>)>;

    /// Both readers of one text: what `next` yields and what `next_fast`
    /// yields (as puzzles), with the line numbers, and how many lines took
    /// the fast path.
    fn both(text: &[u8], format: Option<Format>) -> (Yielded, Yielded, usize) {
        let mut general = PuzzleReader::new(text, "t", format);
        let a = std::iter::from_fn(|| general.next().map(|r| (general.last_line(), r))).collect();
        let mut fast = PuzzleReader::new(text, "t", format);
        let mut classic = 0;
        let b = std::iter::from_fn(|| {
            let r = fast.next_fast()?;
            if let Ok(super::super::Parsed::Classic(_)) = &r {
                classic += 1;
            }
            Some((fast.last_line(), r.map(super::super::Parsed::into_puzzle)))
        })
        .collect();
        (a, b, classic)
    }

    #[test]
    fn the_fast_path_takes_plain_lines_and_leaves_the_rest() {
        let zeros = TOP1.replace('.', "0");
        for (line, fast) in [
            (TOP1.to_string(), true),
            (zeros.clone(), true),
            (format!("{TOP1},{zeros}"), true),
            (format!("{TOP1} ED=7.1"), true),
            (format!("{TOP1}\t# hard"), true),
            (format!(" {TOP1}"), false),
            (format!("\"{TOP1}\",x"), false),
            (format!("{TOP1}  # très dur"), false),
            (format!("{TOP1}x"), false),
            (format!("{TOP1}.."), false),
            (TOP1[..80].to_string(), false),
            (format!("{}x", &TOP1[..80]), false),
        ] {
            assert_eq!(classic(line.as_bytes()).is_some(), fast, "{line}");
            let (a, b, _) = both(format!("{line}\n").as_bytes(), None);
            assert_eq!(a, b, "{line}");
        }
        let g = classic(TOP1.as_bytes()).unwrap();
        assert_eq!((g[0], g[1], g[6], g[80]), (4, 0, 8, 0));
    }

    proptest::proptest! {
        /// Any text of lines made of cells, separators, quotes, comments,
        /// non-ASCII and NUL: both readers yield the same puzzles and
        /// errors at the same lines.
        #[test]
        fn the_fast_path_reads_as_the_general_parser(
            lines in proptest::collection::vec(
                (proptest::sample::select(vec![TOP1, "", "# c", "1.3.....2...4..1"]),
                 proptest::collection::vec((0usize..90, proptest::sample::select(
                    vec!['x', ' ', ',', '"', '#', '\t', 'é', '\0', '0', '9', '.', 'A', '\u{feff}'])), 0..3),
                 proptest::sample::select(vec!["", ",x", " 7.1", "\t", "  ", ",", " é", "\0"])),
                1..6),
            forced in proptest::bool::ANY,
        ) {
            let mut text = String::new();
            for (base, edits, tail) in lines {
                let mut chars: Vec<char> = base.chars().collect();
                for (at, c) in edits {
                    if at < chars.len() {
                        chars[at] = c;
                    } else {
                        chars.push(c);
                    }
                }
                text.extend(chars);
                text.push_str(tail);
                text.push('\n');
            }
            let format = forced.then_some(Format::Line);
            let (a, b, _) = both(text.as_bytes(), format);
            proptest::prop_assert_eq!(a, b, "{:?}", text);
        }
    }

    #[test]
    fn writes_dots() {
        let p = read(TOP1).remove(0).unwrap();
        assert_eq!(render(&p).unwrap(), format!("{TOP1}\n"));
    }
}
