//! Criterion benchmarks of the public solver API: 9×9 corpora beside the
//! `sudoku` crate on the same puzzles, and the large instances that the
//! propagation solver finishes. Data comes from ../shared/puzzles-public;
//! missing files are skipped.
#![allow(missing_docs, clippy::unwrap_used)]

use std::fs::File;
use std::hint::black_box;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use dekadoku::engine::format::PuzzleReader;
use dekadoku::engine::{Limits, NoTrace, Puzzle, Solver};

fn shared(name: &str) -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/puzzles-public")
        .join(name);
    p.exists().then_some(p)
}

fn load(path: &Path, max: usize) -> Vec<Puzzle> {
    let f = File::open(path).unwrap();
    PuzzleReader::new(BufReader::new(f), path.display().to_string(), None)
        .filter_map(Result::ok)
        .take(max)
        .collect()
}

fn classic(c: &mut Criterion) {
    let files = [
        ("17_clue", "puzzles2_17_clue"),
        ("top1465", "puzzles3_magictour_top1465"),
        ("hardest_11+", "puzzles5_forum_hardest_1905_11+"),
        ("serg_count2", "puzzles7_serg_benchmark"),
    ];
    for (label, file) in files {
        let Some(path) = shared(file) else { continue };
        let puzzles = load(&path, 2000);
        let boards: Vec<sudoku::Sudoku> = puzzles
            .iter()
            .map(|p| {
                let mut b = [0u8; 81];
                for (x, v) in b.iter_mut().zip(p.cells()) {
                    *x = v.map_or(0, |v| v.get() as u8);
                }
                sudoku::Sudoku::from_bytes(b).unwrap()
            })
            .collect();
        let mut g = c.benchmark_group(format!("9x9/{label}"));
        g.throughput(Throughput::Elements(puzzles.len() as u64));
        g.sample_size(10);
        let mut solver = Solver::new();
        g.bench_function(BenchmarkId::new("dekadoku", puzzles.len()), |b| {
            b.iter(|| {
                for p in &puzzles {
                    black_box(solver.solve(p, &Limits::none(), &mut NoTrace));
                }
            })
        });
        g.bench_function(BenchmarkId::new("sudoku-crate", puzzles.len()), |b| {
            b.iter(|| {
                for s in &boards {
                    black_box(s.solutions_count_up_to(2));
                }
            })
        });
        g.finish();
    }
}

fn large(c: &mut Criterion) {
    let mut g = c.benchmark_group("large");
    g.sample_size(10);
    for n in [16, 25, 144] {
        let Some(path) = shared(&format!("large/rkkautsar_sudoku-{n}-1.txt")) else {
            continue;
        };
        let puzzles = load(&path, 1);
        let mut solver = Solver::new();
        g.bench_function(format!("{n}x{n}"), |b| {
            b.iter(|| black_box(solver.solve(&puzzles[0], &Limits::none(), &mut NoTrace)))
        });
    }
    g.finish();
}

criterion_group!(benches, classic, large);
criterion_main!(benches);
