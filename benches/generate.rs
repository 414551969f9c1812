//! The generator, single thread: a minimal 9×9, a unique 16×16 and a unique
//! 25×25 (the level's clue range), each from a new seed per iteration.
//! Before measuring, the set-up prints the median and the spread (min–max)
//! over a fixed run of seeds for every size from 9×9 to 49×49 at every
//! clue-count level, and for puzzles graded at each level each size offers
//! ([`levels_for`]) from 4×4 to 25×25 with the share that hit the level.
//!
//! Run with `cargo bench --bench generate -- --warm-up-time 1 --measurement-time 5`.
#![allow(missing_docs, clippy::unwrap_used)]

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use dekadoku::engine::generate::{GenerateOptions, generate, generate_graded, levels_for};
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
    for (n, seeds) in [(9, 50), (16, 20), (25, 5), (36, 3), (49, 3)] {
        for level in [Level::Easy, Level::Medium, Level::Hard, Level::Expert] {
            let opts = options(n, level, false);
            spread(&format!("{n}x{n} {level} (clue count)"), seeds, |seed| {
                let o = GenerateOptions {
                    seed,
                    ..opts.clone()
                };
                generate(&o, &Limits::none()).unwrap();
            });
        }
    }
    // Graded generation, every level each size offers: median time and
    // how many of the requests got exactly the level asked (issue 22).
    for (n, seeds, budget) in [
        (4, 20, None),
        (6, 20, None),
        (9, 20, None),
        (12, 5, None),
        (16, 3, Some(30)),
        (25, 2, Some(30)),
    ] {
        let shape = Shape::for_side(n).unwrap();
        for &level in levels_for(shape) {
            let opts = options(n, level, false);
            let hits = std::cell::Cell::new(0);
            spread(&format!("{n}x{n} graded {level}"), seeds, |seed| {
                let o = GenerateOptions {
                    seed,
                    ..opts.clone()
                };
                let limits = match budget {
                    Some(s) => Limits::timeout(std::time::Duration::from_secs(s)),
                    None => Limits::none(),
                };
                let g = generate_graded(&o, &limits).unwrap();
                hits.set(hits.get() + usize::from(g.hit()));
            });
            eprintln!("  hit {}/{seeds}", hits.get());
        }
    }
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
    for n in [9, 16] {
        let opts = options(n, Level::Hard, false);
        let mut seed = 2000;
        g.bench_function(format!("{n}x{n} graded hard"), |b| {
            b.iter(|| {
                seed += 1;
                let o = GenerateOptions {
                    seed,
                    ..opts.clone()
                };
                black_box(generate_graded(&o, &Limits::none()).unwrap())
            })
        });
    }
    g.finish();
}

criterion_group!(benches, generation);
criterion_main!(benches);
