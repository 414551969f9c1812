//! The technique solver: a full logic path (as far as the implemented
//! techniques go) for each puzzle of top1465, single thread.
//!
//! Run with `cargo bench --bench logic -- --warm-up-time 1 --measurement-time 5`.
#![allow(missing_docs, clippy::unwrap_used)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dekadoku::engine::format::PuzzleReader;
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
    let mut g = c.benchmark_group("logic path");
    g.throughput(Throughput::Elements(puzzles.len() as u64));
    g.sample_size(10);
    g.bench_function("top1465", |b| {
        b.iter(|| {
            for p in &puzzles {
                black_box(solve_path(black_box(p)).unwrap());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, logic);
criterion_main!(benches);
