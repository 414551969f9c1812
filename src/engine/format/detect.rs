//! Format detection from the first content line (and the line after a
//! seeds size line).

use crate::engine::shape::Shape;

use super::cells::{self, MAX_CHAR_SIDE};
use super::{Format, grid, line, numbers, seeds};

/// Whether the first content line alone cannot decide (a seeds size line).
pub(super) fn needs_second_line(first: &str) -> bool {
    seeds::is_header(first)
}

fn is_line_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || line::BLANKS.contains(&c)
}

/// A grid cell character for a side of `n`: a blank or a value up to n.
fn is_grid_char(c: char, n: usize) -> bool {
    grid::BLANKS.contains(&c) || cells::char_value(c).is_some_and(|v| v <= n)
}

/// The format the first content line (and, after a size line, the second)
/// points to.
pub(super) fn classify(first: &str, second: Option<&str>) -> Option<Format> {
    let t = first.trim();
    if seeds::is_header(t) {
        return second
            .is_none_or(|s| s.contains(';'))
            .then_some(Format::Seeds);
    }
    if t.contains(';') {
        return Some(Format::Seeds);
    }
    if t.contains(',') {
        return Some(Format::Line);
    }
    if grid::is_rule_line(t) || t.chars().any(grid::is_vertical_rule) {
        return Some(Format::Grid);
    }
    let words: Vec<&str> = t.split_whitespace().collect();
    if words.len() >= 4 && words.iter().all(|w| numbers::is_cell_token(w)) {
        return Some(Format::Numbers);
    }
    let single_chars = words.iter().all(|w| {
        let mut cs = w.chars();
        matches!((cs.next(), cs.next()), (Some(c), None) if is_grid_char(c, words.len()))
    });
    if words.len() >= 4 && single_chars {
        return Some(Format::Grid);
    }
    let first_word = words.first()?;
    if line::side_of_length(first_word.chars().count()).is_some()
        && first_word.chars().all(is_line_char)
    {
        return Some(Format::Line);
    }
    let chars: usize = words.iter().map(|w| w.chars().count()).sum();
    let all_grid = words
        .iter()
        .all(|w| w.chars().all(|c| is_grid_char(c, chars)));
    if all_grid && chars <= MAX_CHAR_SIDE && Shape::for_side(chars).is_ok() {
        return Some(Format::Grid);
    }
    // A long word of cells that fits nothing is a puzzle line of the wrong
    // length: reading it as one says so precisely.
    let long_line = first_word.chars().count() >= 10
        && first_word.chars().all(is_line_char)
        && first_word.chars().any(|c| c.is_ascii_digit() || c == '.');
    long_line.then_some(Format::Line)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::super::{Format, detect, to_string};
    use crate::engine::grid::Puzzle;
    use crate::engine::shape::Shape;

    const TOP1: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn line_files() {
        assert_eq!(detect(TOP1), Some(Format::Line));
        assert_eq!(
            detect(&format!("# header\n#\n\n{TOP1}\n")),
            Some(Format::Line)
        );
        assert_eq!(detect(&TOP1.replace('.', "0")), Some(Format::Line));
        assert_eq!(detect("1.3.....2...4..1\n"), Some(Format::Line));
        assert_eq!(
            detect(&format!("{TOP1}  ED=7.1/1.2/1.2\n")),
            Some(Format::Line)
        );
        assert_eq!(detect(&"G".repeat(256)), Some(Format::Line));
        assert_eq!(detect("1234567812345678\n"), Some(Format::Line));
    }

    #[test]
    fn csv_files() {
        assert_eq!(detect("quizzes,solutions\n0043,8643\n"), Some(Format::Line));
        assert_eq!(
            detect("puzzle,solution,clues,difficulty,difficulty_range\n"),
            Some(Format::Line)
        );
        assert_eq!(detect(&format!("{TOP1},{TOP1}\n")), Some(Format::Line));
    }

    #[test]
    fn seeds_files() {
        assert_eq!(detect("3\n2;5;.;.;3;.;9;.;1\n"), Some(Format::Seeds));
        assert_eq!(detect("# seeds\n2x3\n\n1;2;3;4;5;6\n"), Some(Format::Seeds));
        assert_eq!(detect("2;5;.;.;3;.;9;.;1\n"), Some(Format::Seeds));
        assert_eq!(detect("3"), Some(Format::Seeds));
        // A lone number followed by something else is not seeds.
        assert_eq!(detect("9\n5 3 . . 7 . . . .\n"), None);
    }

    #[test]
    fn grid_files() {
        assert_eq!(
            detect("+-------+-------+-------+\n| 5 3 . |"),
            Some(Format::Grid)
        );
        assert_eq!(detect("5 3 . | . 7 . | . . .\n"), Some(Format::Grid));
        assert_eq!(detect("------+------\n"), Some(Format::Grid));
        assert_eq!(detect("┌───┬───┐\n│1 .│3 .│\n"), Some(Format::Grid));
        assert_eq!(detect("53..7....\n6..195...\n"), Some(Format::Grid));
        assert_eq!(detect("53. .7. ...\n"), Some(Format::Grid));
        assert_eq!(detect("534 678 912\n"), Some(Format::Grid));
        assert_eq!(detect("5 3 _ _ 7 _ _ _ _\n"), Some(Format::Grid));
        assert_eq!(
            detect("G . 3 A . . . . . . . . . . . .\n"),
            Some(Format::Grid)
        );
        assert_eq!(detect("A . 3 4\n"), None);
    }

    #[test]
    fn numbers_files() {
        assert_eq!(detect("0 2 0 1\n0 0 0 0\n"), Some(Format::Numbers));
        assert_eq!(detect("   0   1   0  93  44\n"), Some(Format::Numbers));
        assert_eq!(detect("78 5 27 . . 124 . 21\n"), Some(Format::Numbers));
        // Spaced single digits are numbers and grid alike: numbers wins.
        assert_eq!(detect("5 3 . . 7 . . . .\n"), Some(Format::Numbers));
    }

    const GECODE: &str =
        "0 ...2.5....9....73...2..9.6.2.....4.9....7....6.9.....1.8.4..1...63....8....6.8...";

    #[test]
    fn unrecognised() {
        for text in [
            "",
            "\n \n",
            "# only comments",
            "hello",
            "hello world",
            GECODE,
        ] {
            assert_eq!(detect(text), None, "{text:?}");
        }
        assert_eq!(detect("hello-world-foo"), None);
        assert_eq!(detect("abcdefghijklm"), None);
        // Too long for a grid row, wrong length for a line: a line, so that
        // reading it explains the length.
        assert_eq!(detect(&".".repeat(50)), Some(Format::Line));
        assert_eq!(detect(&TOP1[..80]), Some(Format::Line));
        assert_eq!(detect("1 2 3\n"), None);
    }

    #[test]
    fn every_writer_is_recognised() {
        for shape in [
            Shape::square(2).unwrap(),
            Shape::new(2, 3).unwrap(),
            Shape::new(3, 2).unwrap(),
            Shape::CLASSIC,
            Shape::new(3, 4).unwrap(),
            Shape::square(6).unwrap(),
        ] {
            let p = Puzzle::empty(shape);
            for f in Format::ALL {
                if f == Format::Line && shape.n() > 35 {
                    continue;
                }
                assert_eq!(detect(&to_string(&p, f)), Some(f), "{f} {shape}");
            }
        }
    }
}
