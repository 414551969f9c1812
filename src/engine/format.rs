//! Text formats for puzzles: detection, streaming readers and writers.
//!
//! Four formats, one file each:
//!
//! | [`Format`] | looks like | sizes |
//! |---|---|---|
//! | [`Seeds`](Format::Seeds) | `3` then rows `2;5;.;.;3;.;9;.;1` (`2x3` for rectangular boxes) | 4…400, any box shape |
//! | [`Line`](Format::Line) | one puzzle per line, `4.....8.5.3…` (CSV rows too) | 4…35 |
//! | [`Grid`](Format::Grid) | a grid pasted from a book or web page, with `\|` and `---+---` rules | 4…400, box shape from the rules |
//! | [`Numbers`](Format::Numbers) | rows of whitespace-separated numbers, `0` or `.` blank | 4…400 |
//!
//! Reading is streaming ([`PuzzleReader`]): one puzzle at a time from any
//! [`BufRead`], lines capped at [`MAX_LINE_BYTES`] so memory stays bounded
//! whatever the input. Errors name the source, line and column and say what
//! was expected; nothing here panics on input.
//!
//! ```
//! use dekadoku::engine::format::{self, Format};
//!
//! let text = "# two puzzles\n\
//!             1.3.....2...4..1\n\
//!             ..3.4.........2.\n";
//! let puzzles = format::parse_str(text, "example").unwrap();
//! assert_eq!(puzzles.len(), 2);
//! assert_eq!(puzzles[0].shape().n(), 4);
//! let grid = format::to_string(&puzzles[0], Format::Grid);
//! assert_eq!(grid, "1 . | 3 .\n. . | . .\n----+----\n2 . | . .\n4 . | . 1\n");
//! assert_eq!(format::parse_one(&grid, "pasted").unwrap(), puzzles[0]);
//! ```

mod cells;
mod detect;
mod grid;
mod line;
mod lines;
mod numbers;
mod seeds;

use std::fmt;
use std::io::{self, BufRead};
use std::str::FromStr;

use thiserror::Error;

use super::grid::{Grid, Puzzle, Value};
use super::shape::{Shape, ShapeError};

pub use cells::MAX_CHAR_SIDE;
pub use lines::MAX_LINE_BYTES;

use lines::Lines;

/// A puzzle text format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// A box-size line (`3`, or `2x3` for boxes of 2 rows × 3 columns), then
    /// n rows of `;`-separated cells, `.` for blank.
    Seeds,
    /// One puzzle per line: n² characters, `1`-`9` then `A`-`Z`, `.` or `0`
    /// blank. Comments start with `#`; CSV rows use their first field.
    Line,
    /// A grid as printed: n rows of cells with `|` between boxes and rule
    /// lines (`------+------`) between bands.
    Grid,
    /// n rows of n whitespace-separated numbers, `0` or `.` blank.
    Numbers,
}

impl Format {
    /// Every format, in the order of [`Format::name`]'s documentation.
    pub const ALL: [Format; 4] = [Format::Seeds, Format::Line, Format::Grid, Format::Numbers];

    /// The format's name: `seeds`, `line`, `grid` or `numbers`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Seeds => "seeds",
            Format::Line => "line",
            Format::Grid => "grid",
            Format::Numbers => "numbers",
        }
    }

    /// The format with this name, ignoring case and surrounding spaces.
    pub fn from_name(s: &str) -> Option<Format> {
        let s = s.trim();
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s))
    }

    /// Whether every puzzle of `shape` comes back unchanged from
    /// [`write()`] then reading in this format. Line holds sides up to 35; Line
    /// and Numbers cannot state a box shape, so they keep only the usual one
    /// ([`Shape::for_side`]); Seeds and Grid keep every shape.
    pub fn round_trips(self, shape: Shape) -> bool {
        let usual = Shape::for_side(shape.n()).is_ok_and(|s| s == shape);
        match self {
            Format::Seeds | Format::Grid => true,
            Format::Line => usual && shape.n() <= MAX_CHAR_SIDE,
            Format::Numbers => usual,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A format name that is none of [`Format::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown format '{name}': expected one of seeds, line, grid, numbers")]
pub struct UnknownFormat {
    /// The name that was given.
    pub name: String,
}

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        Format::from_name(s).ok_or_else(|| UnknownFormat { name: s.to_owned() })
    }
}

/// A reading error with its location.
///
/// Displays as `{source}:{line}:{col}: {message}`, or without the column
/// when there is no meaningful one, e.g.
/// `top95.txt:3:14: expected 1-9, '.' or '0', found 'x'`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{source_name}:{line}{}: {kind}", col_suffix(.col))]
pub struct FormatError {
    /// The file name (or `-`, `clipboard`, …) the text came from.
    pub source_name: String,
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, counted in characters, when one character or token is at fault.
    pub col: Option<usize>,
    /// What went wrong.
    pub kind: FormatErrorKind,
}

fn col_suffix(col: &Option<usize>) -> String {
    col.map(|c| format!(":{c}")).unwrap_or_default()
}

/// What went wrong while reading a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum FormatErrorKind {
    /// A character that cannot be a cell here.
    #[error("expected {expected}, found '{}'", .found.escape_debug())]
    BadChar {
        /// The character found.
        found: char,
        /// What would have been accepted, e.g. `1-9, '.' or '0'`.
        expected: String,
    },
    /// A token (a word between separators) that cannot be a cell or a size.
    #[error("expected {expected}, found {}", cells::quote(.found))]
    BadToken {
        /// The token found (empty when a cell was left out).
        found: String,
        /// What would have been accepted.
        expected: String,
    },
    /// A number above the side n.
    #[error("value {value} is too large: cells of a {n}×{n} grid hold 1-{n}")]
    ValueTooLarge {
        /// The number as written.
        value: String,
        /// The side of the grid.
        n: usize,
    },
    /// A row with the wrong number of cells for a size given beforehand.
    #[error("expected {expected} cells in this row, found {found}")]
    CellCount {
        /// n.
        expected: usize,
        /// Cells in the row.
        found: usize,
    },
    /// A row whose length differs from the first row's.
    #[error("this row has {found} cells but the first row has {expected}")]
    RaggedRows {
        /// Cells in the first row (n).
        expected: usize,
        /// Cells in this row.
        found: usize,
    },
    /// A puzzle that ends before its n rows.
    #[error("expected {expected} rows, found {found}")]
    RowCount {
        /// n.
        expected: usize,
        /// Rows read.
        found: usize,
    },
    /// A line-format puzzle whose length is not n² for a supported n.
    #[error(
        "found {} ({found}): a puzzle line holds n×n cells for a side n with boxes, \
         up to 35 (16, 36, 64, 81, 100, 144, …, 1225)",
        cells::count(*.found, "cell")
    )]
    LineLength {
        /// Characters in the puzzle.
        found: usize,
    },
    /// A side or box size that no shape supports.
    #[error("{0}")]
    BadShape(ShapeError),
    /// Box rules (`|`, rule lines) that do not divide the grid evenly.
    #[error("the box rules do not fit: {0}")]
    BoxRules(String),
    /// Rule lines with no grid rows after them.
    #[error("expected rows of cells after the rule line")]
    NoRows,
    /// No puzzle at all: empty input, or only blank and comment lines.
    #[error("no puzzle found: the input is empty")]
    Empty,
    /// Bytes that are not text: a NUL byte or invalid UTF-8.
    #[error("this is not text: found byte 0x{byte:02x}")]
    NotText {
        /// The first offending byte.
        byte: u8,
    },
    /// A line longer than the reader buffers; the line was skipped.
    #[error("line is longer than {limit} bytes")]
    LineTooLong {
        /// The cap, in bytes.
        limit: usize,
    },
    /// The reader failed.
    #[error("read error: {0}")]
    Io(String),
    /// Text given as one puzzle ([`Puzzle::from_str`]) holds another one
    /// after it.
    #[error("expected one puzzle, found another one here")]
    MoreThanOne,
    /// Automatic detection recognised none of the formats.
    #[error(
        "cannot tell the format: expected a puzzle line (81 characters for 9×9), \
         a pasted grid, rows of numbers, or a seeds file"
    )]
    Unrecognised,
}

impl FormatError {
    /// An error at `line` (and `col`) of `source_name`.
    pub fn new(
        source_name: impl Into<String>,
        line: usize,
        col: Option<usize>,
        kind: FormatErrorKind,
    ) -> FormatError {
        FormatError {
            source_name: source_name.into(),
            line,
            col,
            kind,
        }
    }
}

/// What a format's reader yields: the puzzle and the line where it started.
type Item = Result<(usize, Puzzle), FormatError>;

/// Streaming reader: yields puzzles one at a time from any [`BufRead`]
/// without loading the whole input.
///
/// After an error in the line format the reader goes on with the next line;
/// in the block formats it skips to the next blank line (Seeds: the next size
/// line) and goes on. Read errors and a failed detection end it. Input with no
/// puzzle at all yields one [`FormatErrorKind::Empty`].
pub struct PuzzleReader<R: BufRead> {
    lines: Lines<R>,
    format: Option<Format>,
    line_state: line::State,
    last_line: usize,
    yielded: bool,
    done: bool,
}

impl<R: BufRead> PuzzleReader<R> {
    /// A reader over `reader`, naming `source_name` in errors. `format: None`
    /// detects the format from the first non-comment, non-blank content.
    pub fn new(reader: R, source_name: impl Into<String>, format: Option<Format>) -> Self {
        PuzzleReader {
            lines: Lines::new(reader, source_name.into()),
            format,
            line_state: line::State::default(),
            last_line: 0,
            yielded: false,
            done: false,
        }
    }

    /// The format in use: the forced one, or the detected one once the first
    /// puzzle has been asked for.
    pub fn format(&self) -> Option<Format> {
        self.format
    }

    /// The 1-based line where the last yielded puzzle (or error) started;
    /// 0 before the first.
    pub fn last_line(&self) -> usize {
        self.last_line
    }

    /// The source name given to [`PuzzleReader::new`].
    pub fn source_name(&self) -> &str {
        self.lines.source()
    }

    fn detect_format(&mut self) -> Result<Option<Format>, FormatError> {
        let mut seen = Vec::new();
        let mut content: Vec<(usize, String)> = Vec::new();
        loop {
            let wanted = match content.first() {
                None => 1,
                Some((_, first)) if detect::needs_second_line(first) => 2,
                Some(_) => 1,
            };
            if content.len() >= wanted {
                break;
            }
            match self.lines.next_line() {
                None => break,
                Some(Err(e)) => return Err(e),
                Some(Ok(l)) => {
                    if lines::is_content(&l.text) {
                        content.push((l.no, l.text.clone()));
                    }
                    seen.push(l);
                }
            }
        }
        for l in seen.into_iter().rev() {
            self.lines.unread(l);
        }
        let Some((first_no, first)) = content.first() else {
            return Ok(None);
        };
        match detect::classify(first, content.get(1).map(|(_, s)| s.as_str())) {
            Some(f) => Ok(Some(f)),
            None => Err(self
                .lines
                .error(*first_no, None, FormatErrorKind::Unrecognised)),
        }
    }
}

impl<R: BufRead> Iterator for PuzzleReader<R> {
    type Item = Result<Puzzle, FormatError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.step(false)
            .map(|item| item.map(|(_, p)| p.into_puzzle()))
    }
}

/// A puzzle as [`PuzzleReader::next_fast`] reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parsed {
    /// A classic 9×9 puzzle from a plain line: digits 1-9, 0 for blank,
    /// row-major.
    Classic([u8; 81]),
    /// Any other puzzle.
    Puzzle(Puzzle),
}

impl Parsed {
    /// The puzzle itself.
    pub fn into_puzzle(self) -> Puzzle {
        match self {
            Parsed::Classic(givens) => classic_puzzle(&givens),
            Parsed::Puzzle(p) => p,
        }
    }
}

/// The puzzle of classic givens (digits 0..=9, as [`line::classic`] reads
/// them: 81 cells, none above 9, so `Puzzle::new` cannot refuse them).
fn classic_puzzle(givens: &[u8; 81]) -> Puzzle {
    let cells = givens.iter().map(|&d| Value::new(usize::from(d))).collect();
    Puzzle::new(Shape::CLASSIC, cells).unwrap_or_else(|_| Puzzle::empty(Shape::CLASSIC))
}

impl<R: BufRead> PuzzleReader<R> {
    /// The next puzzle, as [`Iterator::next`] gives it, but a plain 9×9
    /// line of the line format (81 cells, then nothing, a comma, a space or
    /// a tab) comes as [`Parsed::Classic`], read from the reader's buffer
    /// without allocating. Every other line, and every other format, is read
    /// as by `next`; the puzzles, errors and line numbers are the same.
    pub fn next_fast(&mut self) -> Option<Result<Parsed, FormatError>> {
        self.step(true).map(|item| item.map(|(_, p)| p))
    }

    fn step(&mut self, fast: bool) -> Option<line::FastItem> {
        if self.done {
            return None;
        }
        let format = match self.format {
            Some(f) => f,
            None => match self.detect_format() {
                Ok(Some(f)) => {
                    self.format = Some(f);
                    f
                }
                Ok(None) => return self.finish().map(|r| r.map(|p| (0, Parsed::Puzzle(p)))),
                Err(e) => {
                    self.done = true;
                    self.yielded = true;
                    self.last_line = e.line;
                    return Some(Err(e));
                }
            },
        };
        let general = |item: Option<Item>| item.map(|r| r.map(|(no, p)| (no, Parsed::Puzzle(p))));
        let item = match format {
            Format::Seeds => general(seeds::next(&mut self.lines)),
            Format::Line if fast => line::next_fast(&mut self.lines, &mut self.line_state),
            Format::Line => general(line::next(&mut self.lines, &mut self.line_state)),
            Format::Grid => general(grid::next(&mut self.lines)),
            Format::Numbers => general(numbers::next(&mut self.lines)),
        };
        match item {
            None => self.finish().map(|r| r.map(|p| (0, Parsed::Puzzle(p)))),
            Some(Ok((start, puzzle))) => {
                self.yielded = true;
                self.last_line = start;
                Some(Ok((start, puzzle)))
            }
            Some(Err(e)) => {
                self.yielded = true;
                self.last_line = e.line;
                if matches!(e.kind, FormatErrorKind::Io(_)) {
                    self.done = true;
                }
                Some(Err(e))
            }
        }
    }
}

impl<R: BufRead> PuzzleReader<R> {
    fn finish(&mut self) -> Option<Result<Puzzle, FormatError>> {
        self.done = true;
        if self.yielded {
            return None;
        }
        self.yielded = true;
        let line = self.lines.line_no().max(1);
        self.last_line = line;
        Some(Err(self.lines.error(line, None, FormatErrorKind::Empty)))
    }
}

/// The format of a leading chunk of text, judged from its first
/// non-comment, non-blank line (and the second, after a seeds size line).
///
/// Rows of single characters separated by spaces (`5 3 . . 7 . . . .`) are
/// valid Numbers and valid Grid alike; they are reported as
/// [`Format::Numbers`] (both read the same puzzle).
pub fn detect(text: &str) -> Option<Format> {
    // Lines end as the readers' do: at `\n`, `\r\n` or a lone `\r`.
    let mut content = text.split(['\n', '\r']).filter(|l| lines::is_content(l));
    let first = content.next()?;
    let second = if detect::needs_second_line(first) {
        content.next()
    } else {
        None
    };
    detect::classify(first, second)
}

/// Detects the format and reads every puzzle; the first error stops it.
/// Empty input is an error ([`FormatErrorKind::Empty`]).
pub fn parse_str(text: &str, source_name: &str) -> Result<Vec<Puzzle>, FormatError> {
    PuzzleReader::new(text.as_bytes(), source_name, None).collect()
}

/// Detects the format and reads the first puzzle (ignoring what follows it).
pub fn parse_one(text: &str, source_name: &str) -> Result<Puzzle, FormatError> {
    PuzzleReader::new(text.as_bytes(), source_name, None)
        .next()
        .unwrap_or_else(|| {
            Err(FormatError::new(
                source_name,
                1,
                None,
                FormatErrorKind::Empty,
            ))
        })
}

/// The source name a puzzle read with [`str::parse`] gives its errors:
/// `text:3:14: expected 1-9, '.' or '0', found 'x'`.
pub const FROM_STR_SOURCE: &str = "text";

impl FromStr for Puzzle {
    type Err = FormatError;

    /// Reads exactly one puzzle, in whichever format [`detect`] finds.
    /// Errors name the source [`FROM_STR_SOURCE`], the line and (where one
    /// character is at fault) the column; a second puzzle after the first
    /// is an error too ([`FormatErrorKind::MoreThanOne`]).
    fn from_str(s: &str) -> Result<Puzzle, FormatError> {
        let mut reader = PuzzleReader::new(s.as_bytes(), FROM_STR_SOURCE, None);
        let puzzle = match reader.next() {
            Some(first) => first?,
            None => {
                return Err(FormatError::new(
                    FROM_STR_SOURCE,
                    1,
                    None,
                    FormatErrorKind::Empty,
                ));
            }
        };
        match reader.next() {
            None => Ok(puzzle),
            Some(Err(e)) => Err(e),
            Some(Ok(_)) => Err(FormatError::new(
                FROM_STR_SOURCE,
                reader.last_line(),
                None,
                FormatErrorKind::MoreThanOne,
            )),
        }
    }
}

/// The text of one puzzle in `format`, each line ending in `\n`, or `None`
/// when the format cannot hold the puzzle (Line above 35×35).
pub fn render(puzzle: &Puzzle, format: Format) -> Option<String> {
    match format {
        Format::Seeds => Some(seeds::render(puzzle)),
        Format::Line => line::render(puzzle),
        Format::Grid => Some(grid::render(puzzle)),
        Format::Numbers => Some(numbers::render(puzzle)),
    }
}

/// Writes one puzzle in `format`. Fails with [`io::ErrorKind::InvalidInput`]
/// when the format cannot hold it (Line above 35×35).
pub fn write(puzzle: &Puzzle, format: Format, out: &mut impl io::Write) -> io::Result<()> {
    match render(puzzle, format) {
        Some(text) => out.write_all(text.as_bytes()),
        None => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "the {format} format holds grids up to {MAX_CHAR_SIDE}×{MAX_CHAR_SIDE}, \
                 not {}×{}: use numbers or grid",
                puzzle.shape().n(),
                puzzle.shape().n()
            ),
        )),
    }
}

/// Writes several puzzles so that reading them back yields the same list:
/// one per line for Line, separated by blank lines for the block formats.
pub fn write_all<'a>(
    puzzles: impl IntoIterator<Item = &'a Puzzle>,
    format: Format,
    out: &mut impl io::Write,
) -> io::Result<()> {
    for (i, p) in puzzles.into_iter().enumerate() {
        if i > 0 && format != Format::Line {
            out.write_all(b"\n")?;
        }
        write(p, format, out)?;
    }
    Ok(())
}

/// The text of one puzzle in `format`. Where the format cannot hold the
/// puzzle (Line above 35×35) this gives the Numbers text instead; use
/// [`render`] to tell.
pub fn to_string(puzzle: &Puzzle, format: Format) -> String {
    render(puzzle, format).unwrap_or_else(|| numbers::render(puzzle))
}

/// Writes a full grid in `format` (as the puzzle with every cell given).
pub fn write_grid(grid: &Grid, format: Format, out: &mut impl io::Write) -> io::Result<()> {
    write(&grid.to_puzzle(), format, out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for f in Format::ALL {
            assert_eq!(Format::from_name(f.name()), Some(f));
            assert_eq!(f.to_string().parse::<Format>(), Ok(f));
            assert_eq!(Format::from_name(&f.name().to_uppercase()), Some(f));
        }
        let err = "csv".parse::<Format>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown format 'csv': expected one of seeds, line, grid, numbers"
        );
    }

    #[test]
    fn error_display_with_and_without_column() {
        let e = FormatError::new(
            "top95.txt",
            3,
            Some(14),
            FormatErrorKind::BadChar {
                found: 'x',
                expected: "1-9, '.' or '0'".into(),
            },
        );
        assert_eq!(
            e.to_string(),
            "top95.txt:3:14: expected 1-9, '.' or '0', found 'x'"
        );
        let e = FormatError::new("a.txt", 7, None, FormatErrorKind::Empty);
        assert_eq!(
            e.to_string(),
            "a.txt:7: no puzzle found: the input is empty"
        );
        let e = FormatError::new("b", 1, Some(2), FormatErrorKind::NotText { byte: 0 });
        assert_eq!(e.to_string(), "b:1:2: this is not text: found byte 0x00");
        let k = FormatErrorKind::BadChar {
            found: '\0',
            expected: "1-4".into(),
        };
        assert_eq!(k.to_string(), "expected 1-4, found '\\0'");
    }

    #[test]
    fn round_trip_capability() {
        let rect = Shape::new(3, 2).unwrap();
        assert!(Format::Seeds.round_trips(rect));
        assert!(Format::Grid.round_trips(rect));
        assert!(!Format::Line.round_trips(rect));
        assert!(!Format::Numbers.round_trips(rect));
        let big = Shape::square(6).unwrap();
        assert!(!Format::Line.round_trips(big));
        assert!(Format::Numbers.round_trips(big));
    }

    #[test]
    fn line_format_refuses_big_grids_but_to_string_falls_back() {
        let p = Puzzle::empty(Shape::square(6).unwrap());
        let mut out = Vec::new();
        let err = write(&p, Format::Line, &mut out).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        assert!(render(&p, Format::Line).is_none());
        let text = to_string(&p, Format::Line);
        assert_eq!(parse_one(&text, "t").unwrap(), p);
    }

    #[test]
    fn empty_inputs_are_errors() {
        for text in ["", "\n\n", "# only a comment\n\n  \n"] {
            let err = parse_str(text, "e").unwrap_err();
            assert_eq!(err.kind, FormatErrorKind::Empty, "{text:?}");
            let err = parse_one(text, "e").unwrap_err();
            assert_eq!(err.kind, FormatErrorKind::Empty);
        }
        for f in Format::ALL {
            let mut r = PuzzleReader::new(&b"# nothing\n"[..], "e", Some(f));
            let err = r.next().unwrap().unwrap_err();
            assert_eq!(err.kind, FormatErrorKind::Empty, "{f}");
            assert_eq!(err.line, 1);
            assert!(r.next().is_none());
        }
    }

    #[test]
    fn unrecognised_input_names_the_line() {
        let err = parse_str("# header\n\nhello there\n", "u").unwrap_err();
        assert_eq!(err.kind, FormatErrorKind::Unrecognised);
        assert_eq!(err.line, 3);
        assert_eq!(err.col, None);
    }

    #[test]
    fn binary_garbage_is_not_text() {
        let mut bytes = b"\x7fELF\x02\x01\x01\x00\x00\x00garbage".to_vec();
        bytes.extend([0xff, 0xfe, b'\n', 0x00, 0x01]);
        let mut r = PuzzleReader::new(&bytes[..], "a.out", None);
        let err = r.next().unwrap().unwrap_err();
        assert_eq!(err.kind, FormatErrorKind::NotText { byte: 0 });
        assert_eq!((err.line, err.col), (1, Some(8)));
        assert!(r.next().is_none());
        let err = parse_str("ok\n\u{1}\n", "x").unwrap_err();
        assert_eq!(err.kind, FormatErrorKind::Unrecognised);
        // Invalid UTF-8 with the format forced: reported per line, reading goes on.
        let mut text = b"1.3.....2...4..1\n12\xc3(\n".to_vec();
        text.extend(b"..3.4.........2.\n");
        let items: Vec<_> = PuzzleReader::new(&text[..], "bin", Some(Format::Line)).collect();
        assert_eq!(items.len(), 3);
        let err = items[1].as_ref().unwrap_err();
        assert_eq!(err.kind, FormatErrorKind::NotText { byte: 0xc3 });
        assert_eq!((err.line, err.col), (2, Some(3)));
        assert!(items[2].is_ok());
    }

    #[test]
    fn write_all_separates_block_formats() {
        let a = parse_one("1.3.....2...4..1", "a").unwrap();
        let b = parse_one("..3.4.........2.", "b").unwrap();
        for f in Format::ALL {
            let mut out = Vec::new();
            write_all([&a, &b], f, &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            assert_eq!(
                parse_str(&text, "w").unwrap(),
                vec![a.clone(), b.clone()],
                "{f}:\n{text}"
            );
            let forced: Vec<_> = PuzzleReader::new(text.as_bytes(), "w", Some(f))
                .collect::<Result<_, _>>()
                .unwrap();
            assert_eq!(forced, vec![a.clone(), b.clone()]);
        }
    }

    #[test]
    fn write_grid_writes_the_full_grid() {
        let solved = "1234341221434321";
        let p = parse_one(solved, "s").unwrap();
        let grid = Grid::from_puzzle(&p).unwrap();
        let mut out = Vec::new();
        write_grid(&grid, Format::Line, &mut out).unwrap();
        assert_eq!(out, b"1234341221434321\n");
    }

    #[test]
    fn a_str_parses_as_exactly_one_puzzle() {
        let p: Puzzle = "1.3.....2...4..1".parse().unwrap();
        assert_eq!(p.shape().n(), 4);
        let grid = to_string(&p, Format::Grid);
        assert_eq!(grid.parse::<Puzzle>().unwrap(), p);
        let two = "1.3.....2...4..1\n..3.4.........2.\n".parse::<Puzzle>();
        let e = two.unwrap_err();
        assert_eq!((e.line, e.kind.clone()), (2, FormatErrorKind::MoreThanOne));
        assert_eq!(
            e.to_string(),
            "text:2: expected one puzzle, found another one here"
        );
        let e = "# nothing\n".parse::<Puzzle>().unwrap_err();
        assert_eq!(e.kind, FormatErrorKind::Empty);
        let e = "1.3.....2...4..1\n1.3.x...2...4..1\n"
            .parse::<Puzzle>()
            .unwrap_err();
        assert_eq!((e.line, e.col), (2, Some(5)));
    }
}
