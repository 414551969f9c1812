//! The 9×9 kernel against the `sudoku` crate (a JCZSolve derivative) on the
//! public corpora, single thread, each through its public API: our
//! [`Solver`] (which sends untraced 9×9 counts to the kernel) counting to
//! two, theirs solving or counting to two. Throughput is in puzzles;
//! parsing happens before timing for both solvers.
//!
//! `line_io` times reading the line files themselves: the general parser
//! (`PuzzleReader` as an iterator of puzzles) against the fast path of
//! `solve` and `count` (`PuzzleReader::next_fast`, plain 9×9 lines read
//! without allocating).
//!
//! Run with `cargo bench --bench nine -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dekadoku::engine::{Limits, Puzzle, Shape, Solver};

const SHARED: &str = "../shared/puzzles-public";

/// (file, puzzles benchmarked, proper: uniqueness check vs count to 2).
const FILES: [(&str, usize, bool); 4] = [
    ("puzzles2_17_clue", 5000, true),
    ("puzzles3_magictour_top1465", 1465, true),
    ("puzzles5_forum_hardest_1905_11+", 2000, true),
    ("puzzles7_serg_benchmark", 5000, false),
];

fn load(name: &str, max: usize) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(format!("{SHARED}/{name}")).ok()?;
    Some(
        text.lines()
            .map(str::trim)
            .filter(|l| l.len() >= 81 && !l.starts_with('#'))
            .take(max)
            .map(|l| l[..81].to_string())
            .collect(),
    )
}

fn puzzle(line: &str) -> Option<Puzzle> {
    let nums: Vec<usize> = line
        .bytes()
        .take(81)
        .map(|ch| match ch {
            b'1'..=b'9' => usize::from(ch - b'0'),
            _ => 0,
        })
        .collect();
    Puzzle::from_numbers(Shape::CLASSIC, &nums).ok()
}

fn nine(c: &mut Criterion) {
    for (name, max, proper) in FILES {
        let Some(lines) = load(name, max) else {
            eprintln!("skipped {name}: {SHARED} not present");
            continue;
        };
        let ours: Vec<Puzzle> = lines.iter().filter_map(|l| puzzle(l)).collect();
        let peer: Vec<sudoku::Sudoku> = lines
            .iter()
            .filter_map(|l| sudoku::Sudoku::from_str_line(l).ok())
            .collect();
        assert_eq!(
            peer.len(),
            ours.len(),
            "{name}: one of the two refused a line"
        );

        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(ours.len() as u64));
        let limits = Limits::none();
        let mut solver = Solver::new();
        group.bench_function("dekadoku", |b| {
            b.iter(|| {
                let mut found = 0;
                for p in &ours {
                    found += solver.count(black_box(p), 2, &limits).solutions;
                }
                found
            })
        });
        group.bench_function("sudoku-0.8", |b| {
            b.iter(|| {
                let mut found = 0;
                for s in &peer {
                    found += if proper {
                        usize::from(black_box(*s).solution().is_some())
                    } else {
                        black_box(*s).solutions_count_up_to(2)
                    };
                }
                found
            })
        });
        group.finish();
    }
}

/// Files for `line_io`: dots, CSV rows with `0` blanks.
const IO_FILES: [&str; 2] = ["puzzles2_17_clue", "kaggle_bryanpark_first20k.csv"];

fn line_io(c: &mut Criterion) {
    use dekadoku::engine::format::{Parsed, PuzzleReader};
    for name in IO_FILES {
        let Ok(bytes) = std::fs::read(format!("{SHARED}/{name}")) else {
            eprintln!("skipped {name}: {SHARED} not present");
            continue;
        };
        let count = PuzzleReader::new(&bytes[..], name, None)
            .filter(Result::is_ok)
            .count();
        let mut group = c.benchmark_group(format!("line_io/{name}"));
        group.throughput(Throughput::Elements(count as u64));
        group.bench_function("general", |b| {
            b.iter(|| {
                let mut clues = 0;
                for p in PuzzleReader::new(black_box(&bytes[..]), name, None).flatten() {
                    clues += p.clue_count();
                }
                clues
            })
        });
        group.bench_function("fast", |b| {
            b.iter(|| {
                let mut clues = 0;
                let mut reader = PuzzleReader::new(black_box(&bytes[..]), name, None);
                while let Some(item) = reader.next_fast() {
                    clues += match item {
                        Ok(Parsed::Classic(g)) => g.iter().filter(|&&d| d != 0).count(),
                        Ok(Parsed::Puzzle(p)) => p.clue_count(),
                        Err(_) => 0,
                    };
                }
                clues
            })
        });
        group.finish();
    }
}

criterion_group!(benches, nine, line_io);
criterion_main!(benches);
