//! Integration tests for the puzzle text formats: round trips over random
//! puzzles, the public datasets in `../shared`, and bad input.
#![allow(clippy::unwrap_used)]

mod common;

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use dekadoku::engine::format::{
    self, Format, FormatError, FormatErrorKind, MAX_LINE_BYTES, PuzzleReader,
};
use dekadoku::engine::{Puzzle, Shape, ShapeError, Value};
use proptest::prelude::*;

fn shape(r: usize, c: usize) -> Shape {
    Shape::new(r, c).unwrap()
}

fn usual(n: usize) -> Shape {
    Shape::for_side(n).unwrap()
}

/// A random puzzle of one of `shapes`: each cell blank or a value 1..=n.
fn puzzles(shapes: Vec<Shape>) -> impl Strategy<Value = Puzzle> {
    prop::sample::select(shapes).prop_flat_map(|shape| {
        let n = shape.n();
        prop::collection::vec(0..=n, shape.cells())
            .prop_map(move |nums| Puzzle::from_numbers(shape, &nums).unwrap())
    })
}

fn read_forced(text: &str, f: Format) -> Vec<Result<Puzzle, FormatError>> {
    PuzzleReader::new(text.as_bytes(), "rt", Some(f)).collect()
}

/// `parse(write(p)) == p`, forced and detected, alone and three in a row.
fn check_round_trip(p: &Puzzle, f: Format) -> Result<(), TestCaseError> {
    prop_assert!(f.round_trips(p.shape()));
    let text = format::to_string(p, f);
    let forced = read_forced(&text, f);
    prop_assert_eq!(forced.len(), 1, "{}", text);
    prop_assert_eq!(forced[0].as_ref().unwrap(), p);
    prop_assert_eq!(format::detect(&text), Some(f), "{}", text);
    prop_assert_eq!(&format::parse_one(&text, "rt").unwrap(), p);
    let mut many = Vec::new();
    format::write_all([p, p, p], f, &mut many).unwrap();
    let many = String::from_utf8(many).unwrap();
    prop_assert_eq!(format::parse_str(&many, "rt").unwrap(), vec![p.clone(); 3]);
    Ok(())
}

const SMALL: [usize; 7] = [4, 6, 8, 9, 12, 16, 25];

fn rectangular() -> Vec<Shape> {
    vec![
        shape(3, 2),
        shape(2, 3),
        shape(4, 2),
        shape(2, 4),
        shape(4, 3),
        shape(3, 4),
        shape(5, 2),
        shape(2, 5),
        shape(3, 5),
        shape(5, 4),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn line_round_trips(p in puzzles(SMALL.iter().chain(&[35]).map(|&n| usual(n)).collect())) {
        check_round_trip(&p, Format::Line)?;
    }

    #[test]
    fn numbers_round_trips(p in puzzles(SMALL.iter().chain(&[36, 64]).map(|&n| usual(n)).collect())) {
        check_round_trip(&p, Format::Numbers)?;
    }

    #[test]
    fn seeds_round_trips(p in puzzles(
        SMALL.iter().map(|&n| usual(n)).chain(rectangular()).chain([shape(6, 6), shape(4, 10)]).collect()
    )) {
        check_round_trip(&p, Format::Seeds)?;
    }

    #[test]
    fn grid_round_trips(p in puzzles(
        SMALL.iter().map(|&n| usual(n)).chain(rectangular()).chain([shape(6, 6), shape(4, 10), shape(8, 8)]).collect()
    )) {
        check_round_trip(&p, Format::Grid)?;
    }

    /// Whatever the bytes, reading ends without a panic, in every mode.
    #[test]
    fn arbitrary_input_never_panics(bytes in prop::collection::vec(
        prop::sample::select(b"0123456789.;|-+=, \n\n\nxA#_*\r\0\xff2x3".to_vec()), 0..600)
    ) {
        // A line ends at `\n`, `\r\n` or a lone `\r` (counting both bytes
        // of a `\r\n` keeps this a bound).
        let lines = bytes.iter().filter(|&&b| b == b'\n' || b == b'\r').count() + 1;
        for f in [None, Some(Format::Seeds), Some(Format::Line), Some(Format::Grid), Some(Format::Numbers)] {
            let items = PuzzleReader::new(&bytes[..], "fuzz", f).count();
            prop_assert!(items <= lines + 1);
        }
        if let Ok(text) = std::str::from_utf8(&bytes) {
            let _ = format::detect(text);
            let _ = format::parse_str(text, "fuzz");
        }
    }

    /// Mangling one character of a valid text gives a puzzle or a located error.
    #[test]
    fn mangled_text_gives_located_errors(
        p in puzzles(vec![usual(4), usual(9), shape(2, 3)]),
        f in prop::sample::select(Format::ALL.to_vec()),
        at in any::<prop::sample::Index>(),
        c in prop::sample::select(vec!['x', '|', ';', ' ', '\n', '7', '.', ',']),
    ) {
        let mut text: Vec<char> = format::to_string(&p, f).chars().collect();
        let i = at.index(text.len());
        text[i] = c;
        let text: String = text.into_iter().collect();
        let total_lines = text.lines().count().max(1);
        for item in PuzzleReader::new(text.as_bytes(), "m", Some(f)) {
            if let Err(e) = item {
                prop_assert!(e.line >= 1 && e.line <= total_lines, "{e} in\n{text}");
                let prefix = format!("m:{}", e.line);
                prop_assert!(e.to_string().starts_with(&prefix), "{}", e);
            }
        }
    }
}

// ---------------------------------------------------------------- datasets

fn shared_dir() -> Option<PathBuf> {
    common::shared_file("puzzles-public")
}

/// Streams a file, asserting no errors; returns (format, puzzles, side of each).
fn stream(path: &Path) -> (Option<Format>, usize, Vec<usize>) {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let file = BufReader::new(File::open(path).unwrap());
    let mut reader = PuzzleReader::new(file, name, None);
    let mut sides = Vec::new();
    for item in reader.by_ref() {
        match item {
            Ok(p) => sides.push(p.shape().n()),
            Err(e) => panic!("{e}"),
        }
    }
    (reader.format(), sides.len(), sides)
}

#[test]
fn public_nine_by_nine_files_stream_with_exact_counts() {
    let Some(dir) = shared_dir() else { return };
    let files = [
        ("puzzles2_17_clue", 49_158),
        ("puzzles3_magictour_top1465", 1_465),
        ("puzzles5_forum_hardest_1905_11+", 48_766),
        ("puzzles7_serg_benchmark", 10_000),
        ("norvig_top95.txt", 95),
        ("norvig_hardest.txt", 11),
        ("norvig_easy50.txt", 50),
        ("kaggle_bryanpark_first20k.csv", 20_000),
        ("radcliffe_3m_sample.csv", 7_034),
    ];
    for (file, want) in files {
        let (format, count, sides) = stream(&dir.join(file));
        assert_eq!(count, want, "{file}");
        assert_eq!(format, Some(Format::Line), "{file}");
        assert!(sides.iter().all(|&n| n == 9), "{file}");
    }
}

#[test]
fn public_files_first_and_last_puzzles() {
    let Some(dir) = shared_dir() else { return };
    let top95 = std::fs::read_to_string(dir.join("norvig_top95.txt")).unwrap();
    let all = format::parse_str(&top95, "norvig_top95.txt").unwrap();
    let first = top95.lines().next().unwrap();
    assert_eq!(format::to_string(&all[0], Format::Line).trim_end(), first);
    // The Kaggle CSV: the first field, `0` blank; the solution column ignored.
    let kaggle = File::open(dir.join("kaggle_bryanpark_first20k.csv")).unwrap();
    let mut r = PuzzleReader::new(BufReader::new(kaggle), "kaggle", None);
    let p = r.next().unwrap().unwrap();
    assert_eq!(r.last_line(), 2);
    let csv = std::fs::read_to_string(dir.join("kaggle_bryanpark_first20k.csv")).unwrap();
    let row = csv.lines().nth(1).unwrap();
    let want = row.split(',').next().unwrap().replace('0', ".");
    assert_eq!(format::to_string(&p, Format::Line).trim_end(), want);
}

#[test]
fn large_files_are_one_puzzle_of_the_right_side() {
    let Some(dir) = shared_dir() else { return };
    let files = [
        ("rkkautsar_sudoku-4-1.txt", 4),
        ("rkkautsar_sudoku-16-1.txt", 16),
        ("rkkautsar_sudoku-25-1.txt", 25),
        ("rkkautsar_sudoku-64-1.txt", 64),
        ("rkkautsar_sudoku-64-2.txt", 64),
        ("rkkautsar_sudoku-81-1.txt", 81),
        ("rkkautsar_sudoku-100-1.txt", 100),
        ("rkkautsar_sudoku-144-1.txt", 144),
        ("rkkautsar_sudoku-225-1.txt", 225),
        ("rkkautsar_sudoku-400-1.txt", 400),
    ];
    for (file, n) in files {
        let path = dir.join("large").join(file);
        let (format, count, sides) = stream(&path);
        assert_eq!(
            (format, count, sides),
            (Some(Format::Numbers), 1, vec![n]),
            "{file}"
        );
        // And the puzzle survives every format that can hold it.
        let text = std::fs::read_to_string(&path).unwrap();
        let p = format::parse_one(&text, file).unwrap();
        assert_eq!(p.shape(), Shape::for_side(n).unwrap());
        for f in Format::ALL {
            if f.round_trips(p.shape()) {
                let again = format::parse_one(&format::to_string(&p, f), file).unwrap();
                assert_eq!(again, p, "{file} via {f}");
            }
        }
    }
}

// ---------------------------------------------------------------- bad input

const TOP1: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

fn first_error(text: &str, f: Option<Format>) -> FormatError {
    PuzzleReader::new(text.as_bytes(), "bad.txt", f)
        .find_map(Result::err)
        .unwrap()
}

#[test]
fn a_ten_megabyte_line_is_refused_with_bounded_memory() {
    const TEN_MB: u64 = 10 << 20;
    let make = || {
        let long = std::io::repeat(b'1').take(TEN_MB);
        let rest = format!("\n{TOP1}\n");
        BufReader::new(long.chain(std::io::Cursor::new(rest.into_bytes())))
    };
    // Forced line format: the long line is an error, the next line is read.
    let items: Vec<_> = PuzzleReader::new(make(), "huge.txt", Some(Format::Line)).collect();
    assert_eq!(items.len(), 2);
    let e = items[0].as_ref().unwrap_err();
    assert_eq!(
        e.kind,
        FormatErrorKind::LineTooLong {
            limit: MAX_LINE_BYTES
        }
    );
    assert_eq!((e.line, e.col), (1, None));
    assert_eq!(
        e.to_string(),
        "huge.txt:1: line is longer than 1048576 bytes"
    );
    assert!(items[1].is_ok());
    // Detection cannot look past it: one error, then the end.
    let items: Vec<_> = PuzzleReader::new(make(), "huge.txt", None).collect();
    assert_eq!(items.len(), 1);
    assert!(matches!(
        items[0],
        Err(FormatError {
            kind: FormatErrorKind::LineTooLong { .. },
            ..
        })
    ));
    // In the middle of a detected line file, on a line of its own.
    let text = format!("{TOP1}\n{}\n{TOP1}\n", "2".repeat(10 << 20));
    let items: Vec<_> = PuzzleReader::new(text.as_bytes(), "mid.txt", None).collect();
    assert_eq!(items.len(), 3);
    assert_eq!(items[1].as_ref().unwrap_err().line, 2);
    assert!(items[0].is_ok() && items[2].is_ok());
}

#[test]
fn wrong_cell_counts() {
    let e = first_error(&TOP1[..80], None);
    assert_eq!((e.line, e.col), (1, None));
    assert_eq!(e.kind, FormatErrorKind::LineLength { found: 80 });
    let seeds = "2\n1;2;3;4\n1;2;3\n1;2;3;4\n1;2;3;4\n";
    let e = first_error(seeds, None);
    assert_eq!((e.line, e.col), (3, None));
    assert_eq!(
        e.kind,
        FormatErrorKind::CellCount {
            expected: 4,
            found: 3
        }
    );
    assert_eq!(
        e.to_string(),
        "bad.txt:3: expected 4 cells in this row, found 3"
    );
    let e = first_error("0 0 0 0\n0 0 0 0\n0 0 0 0\n", None);
    assert_eq!(
        (e.line, e.kind),
        (
            3,
            FormatErrorKind::RowCount {
                expected: 4,
                found: 3
            }
        )
    );
}

#[test]
fn values_above_n() {
    let e = first_error("0 2 0 1\n0 0 5 0\n0 0 0 0\n4 0 2 0\n", None);
    assert_eq!((e.line, e.col), (2, Some(5)));
    assert_eq!(
        e.to_string(),
        "bad.txt:2:5: value 5 is too large: cells of a 4×4 grid hold 1-4"
    );
    let e = first_error("1 . | . .\n. . | 7 .\n", Some(Format::Grid));
    assert_eq!((e.line, e.col), (2, Some(7)));
    assert!(matches!(
        e.kind,
        FormatErrorKind::BadChar { found: '7', .. }
    ));
    let mut line = TOP1.to_string();
    line.replace_range(13..14, "x");
    let e = first_error(&format!("{TOP1}\n{TOP1}\n{line}\n"), None);
    assert_eq!(
        e.to_string(),
        "bad.txt:3:14: expected 1-9, '.' or '0', found 'x'"
    );
}

#[test]
fn inconsistent_row_lengths() {
    let e = first_error("0 2 0 1\n0 0 0 0 0\n0 0 0 0\n4 0 2 0\n", None);
    assert_eq!((e.line, e.col), (2, Some(9)));
    assert_eq!(
        e.kind,
        FormatErrorKind::RaggedRows {
            expected: 4,
            found: 5
        }
    );
    let e = first_error("1 . | . .\n. . | .\n", None);
    assert_eq!(
        (e.line, e.kind),
        (
            2,
            FormatErrorKind::RaggedRows {
                expected: 4,
                found: 3
            }
        )
    );
}

#[test]
fn sizes_without_a_shape() {
    let e = first_error(&".".repeat(50), Some(Format::Line));
    assert_eq!(
        (e.line, e.col, e.kind),
        (1, None, FormatErrorKind::LineLength { found: 50 })
    );
    let e = first_error("1 2 3 4 5 6 7\n", None);
    assert_eq!(
        e.kind,
        FormatErrorKind::BadShape(ShapeError::NoBoxShape { n: 7 })
    );
    assert_eq!(e.line, 1);
    let e = first_error("1x9\n1;2;3;4;5;6;7;8;9\n", None);
    assert!(matches!(
        e.kind,
        FormatErrorKind::BadShape(ShapeError::BoxTooThin { .. })
    ));
}

#[test]
fn empty_and_binary_input() {
    for text in ["", "\n", "# nothing here\n"] {
        assert_eq!(
            format::parse_str(text, "e").unwrap_err().kind,
            FormatErrorKind::Empty
        );
    }
    let garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    for f in [
        None,
        Some(Format::Line),
        Some(Format::Grid),
        Some(Format::Numbers),
        Some(Format::Seeds),
    ] {
        let items: Vec<_> = PuzzleReader::new(&garbage[..], "blob.bin", f).collect();
        assert!(!items.is_empty());
        assert!(items.iter().all(Result::is_err), "{f:?}");
        let e = items[0].as_ref().unwrap_err();
        assert!(e.line >= 1);
    }
    let e = first_error("\u{0}\u{0}\u{0}", None);
    assert_eq!(
        (e.line, e.col, e.kind),
        (1, Some(1), FormatErrorKind::NotText { byte: 0 })
    );
    let e = PuzzleReader::new(&b"\xff\xfe1234\n"[..], "utf16.txt", None)
        .next()
        .unwrap()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "utf16.txt:1:1: this is not text: found byte 0xff"
    );
}

#[test]
fn grids_with_values_read_back_as_given() {
    // write_grid of a full grid, in every format.
    let solved =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let p = format::parse_one(solved, "s").unwrap();
    let g = dekadoku::engine::Grid::from_puzzle(&p).unwrap();
    for f in Format::ALL {
        let mut out = Vec::new();
        format::write_grid(&g, f, &mut out).unwrap();
        let back = format::parse_one(std::str::from_utf8(&out).unwrap(), "g").unwrap();
        assert_eq!(back, p, "{f}");
        assert_eq!(back.get(0), Value::new(5));
    }
}
