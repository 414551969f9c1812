//! The grader on top1465, single thread.
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

fn logic(c: &mut Criterion) {
    let path = "../shared/puzzles-public/puzzles3_magictour_top1465";
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("skipped: {path} not present");
        return;
    };
    let puzzles: Vec<_> = PuzzleReader::new(text.as_bytes(), path, None)
        .filter_map(Result::ok)
        .collect();
    let (mut easy_sum, mut all_sum, mut slowest) = (0.0, 0.0, (0.0, 0));
    let mut no_chains = Vec::new();
    for (i, p) in puzzles.iter().enumerate() {
        let t = Instant::now();
        let g = grade(p).unwrap();
        let ms = t.elapsed().as_secs_f64() * 1e3;
        all_sum += ms;
        if g.level <= Level::Hard {
            easy_sum += ms;
            no_chains.push(p.clone());
        }
        if ms > slowest.0 {
            slowest = (ms, i + 1);
        }
    }
    eprintln!(
        "grade: {:.2} ms mean over {} puzzles needing no chains, {:.2} ms mean over all {}, \
         slowest {:.1} ms (puzzle {})",
        easy_sum / no_chains.len().max(1) as f64,
        no_chains.len(),
        all_sum / puzzles.len() as f64,
        puzzles.len(),
        slowest.0,
        slowest.1
    );
    // Grading all of top1465 takes over a minute (chains and forcing
    // chains): the set-up above reports it; criterion measures the puzzles
    // that need no chains, the 2 ms goal.
    let mut g = c.benchmark_group("grade");
    g.throughput(Throughput::Elements(no_chains.len() as u64));
    g.sample_size(10);
    g.bench_function("top1465 needing no chains", |b| {
        b.iter(|| {
            for p in &no_chains {
                black_box(grade(black_box(p)).unwrap());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, logic);
criterion_main!(benches);
