//! The generator, single thread: a minimal 9×9, a unique 16×16 and a unique
//! 25×25 (the level's clue range), each from a new seed per iteration; and
//! a 9×9 graded at expert. Before measuring, the set-up prints the median
//! and the spread (min–max) over a fixed run of seeds per case.
//!
//! Run with `cargo bench --bench generate -- --warm-up-time 1 --measurement-time 5`.
#![allow(missing_docs, clippy::unwrap_used)]

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use dekadoku::engine::generate::{GenerateOptions, generate, generate_graded};
use dekadoku::engine::{Level, Limits, Shape};

fn options(n: usize, level: Level, minimal: bool) -> GenerateOptions {
    let mut o = GenerateOptions::new(Shape::for_side(n).unwrap(), level, 0);
    o.minimal = minimal;
    o
}

fn spread(name: &str, seeds: u64, f: impl Fn(u64)) {
    let mut ms: Vec<f64> = (0..seeds)
        .map(|s| {
            let t = Instant::now();
            f(s);
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    eprintln!(
        "{name}: median {:.1} ms, {:.1}–{:.1} ms over {seeds} seeds",
        ms[ms.len() / 2],
        ms[0],
        ms[ms.len() - 1]
    );
}

fn generation(c: &mut Criterion) {
    let cases = [
        ("9x9 minimal", options(9, Level::Medium, true), 200),
        ("16x16 unique", options(16, Level::Medium, false), 20),
        ("25x25 unique", options(25, Level::Medium, false), 5),
    ];
    for (name, opts, seeds) in &cases {
        spread(name, *seeds, |seed| {
            let o = GenerateOptions {
                seed,
                ..opts.clone()
            };
            generate(&o, &Limits::none()).unwrap();
        });
    }
    let expert = options(9, Level::Expert, false);
    spread("9x9 graded expert", 50, |seed| {
        let o = GenerateOptions {
            seed,
            ..expert.clone()
        };
        generate_graded(&o, &Limits::none()).unwrap();
    });
    let mut g = c.benchmark_group("generate");
    g.sample_size(10);
    for (name, opts, _) in cases {
        let mut seed = 1000;
        g.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                let o = GenerateOptions {
                    seed,
                    ..opts.clone()
                };
                black_box(generate(&o, &Limits::none()).unwrap())
            })
        });
    }
    g.finish();
}

criterion_group!(benches, generation);
criterion_main!(benches);
