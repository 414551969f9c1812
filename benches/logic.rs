//! The technique solver on top1465, single thread: the logic path (as far
//! as the techniques go) and the full grade (guesses where they stall).
//! Before measuring, each puzzle is graded once on its own and the set-up
//! prints the mean time of the puzzles that need no chains (level hard or
//! easier), the mean of all, and the slowest puzzle.
//!
//! Run with `cargo bench --bench logic -- --warm-up-time 1 --measurement-time 5`.
#![allow(missing_docs, clippy::unwrap_used)]

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dekadoku::engine::Level;
use dekadoku::engine::format::PuzzleReader;
use dekadoku::engine::grade::grade;
use dekadoku::engine::logic::solve_path;

fn logic(c: &mut Criterion) {
    let path = "../shared/puzzles-public/puzzles3_magictour_top1465";
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("skipped: {path} not present");
        return;
    };
    let puzzles: Vec<_> = PuzzleReader::new(text.as_bytes(), path, None)
        .filter_map(Result::ok)
        .collect();
    let solved = puzzles
        .iter()
        .filter(|p| solve_path(p).unwrap().solved)
        .count();
    eprintln!(
        "top1465: {solved} of {} solved by the implemented techniques",
        puzzles.len()
    );
    let (mut easy_sum, mut easy_n, mut all_sum, mut slowest) = (0.0, 0usize, 0.0, (0.0, 0));
    for (i, p) in puzzles.iter().enumerate() {
        let t = Instant::now();
        let g = grade(p).unwrap();
        let ms = t.elapsed().as_secs_f64() * 1e3;
        all_sum += ms;
        if g.level <= Level::Hard {
            easy_sum += ms;
            easy_n += 1;
        }
        if ms > slowest.0 {
            slowest = (ms, i + 1);
        }
    }
    eprintln!(
        "grade: {:.2} ms mean over {} puzzles needing no chains, {:.2} ms mean over all {}, \
         slowest {:.1} ms (puzzle {})",
        easy_sum / easy_n.max(1) as f64,
        easy_n,
        all_sum / puzzles.len() as f64,
        puzzles.len(),
        slowest.0,
        slowest.1
    );
    let mut g = c.benchmark_group("logic");
    g.throughput(Throughput::Elements(puzzles.len() as u64));
    g.sample_size(10);
    g.bench_function("path top1465", |b| {
        b.iter(|| {
            for p in &puzzles {
                black_box(solve_path(black_box(p)).unwrap());
            }
        })
    });
    g.bench_function("grade top1465", |b| {
        b.iter(|| {
            for p in &puzzles {
                black_box(grade(black_box(p)).unwrap());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, logic);
criterion_main!(benches);
