//! Helpers shared by the integration tests (included with `mod common;`).
#![allow(dead_code, clippy::unwrap_used)]

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use dekadoku::engine::format::PuzzleReader;
use dekadoku::engine::{Backend, Count, Limits, Solver};
use dekadoku::engine::{Grid, Puzzle, Shape, Value};

#[cfg(feature = "serve")]
pub mod serve;
mod skip;
pub mod ssh;
#[allow(unused_imports)]
pub use skip::{shared, shared_file, shared_root, skip_or_fail, under_ci};

/// Every puzzle of a file, failing the test on a format error.
pub fn read_all(path: &Path) -> Vec<Puzzle> {
    let f = File::open(path).unwrap();
    PuzzleReader::new(BufReader::new(f), path.display().to_string(), None)
        .map(|r| r.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// Every `every`-th puzzle (from the first) of a file of
/// `../shared/puzzles-public`, at most `most`, with its index; none when
/// the shared data is missing (the skip rule: a failure under CI).
pub fn sample(name: &str, every: usize, most: usize) -> Vec<(usize, Puzzle)> {
    let Some(path) = shared(name) else {
        return Vec::new();
    };
    read_all(&path)
        .into_iter()
        .enumerate()
        .filter(|(i, _)| i % every == 0)
        .take(most)
        .collect()
}

/// A valid full grid of `shape` from the standard pattern, shuffled by
/// validity-preserving transformations driven by `seed`.
pub fn random_grid(shape: Shape, seed: u64) -> Grid {
    let (n, br, bc) = (shape.n(), shape.box_rows(), shape.box_cols());
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |k: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % k as u64) as usize
    };
    let shuffle = |v: &mut Vec<usize>, next: &mut dyn FnMut(usize) -> usize| {
        for i in (1..v.len()).rev() {
            let j = next(i + 1);
            v.swap(i, j);
        }
    };
    // Row order: shuffle bands (groups of br rows), then rows inside each band.
    let bands = n / br;
    let mut band_order: Vec<usize> = (0..bands).collect();
    shuffle(&mut band_order, &mut next);
    let mut rows = Vec::with_capacity(n);
    for &b in &band_order {
        let mut inner: Vec<usize> = (0..br).collect();
        shuffle(&mut inner, &mut next);
        rows.extend(inner.into_iter().map(|r| b * br + r));
    }
    let stacks = n / bc;
    let mut stack_order: Vec<usize> = (0..stacks).collect();
    shuffle(&mut stack_order, &mut next);
    let mut cols = Vec::with_capacity(n);
    for &s in &stack_order {
        let mut inner: Vec<usize> = (0..bc).collect();
        shuffle(&mut inner, &mut next);
        cols.extend(inner.into_iter().map(|c| s * bc + c));
    }
    let mut digits: Vec<usize> = (0..n).collect();
    shuffle(&mut digits, &mut next);
    let pattern = |r: usize, c: usize| (bc * (r % br) + r / br + c) % n;
    let cells: Vec<Value> = (0..n * n)
        .map(|i| {
            let (r, c) = (rows[i / n], cols[i % n]);
            Value::new(digits[pattern(r, c)] + 1).unwrap()
        })
        .collect();
    let g = Grid::new(shape, cells).unwrap();
    assert!(g.is_valid(), "pattern grid for {shape} is invalid");
    g
}

/// `grid` with the cells where `keep` is false blanked.
pub fn blank(grid: &Grid, keep: impl Fn(usize) -> bool) -> Puzzle {
    let mut p = grid.to_puzzle();
    for i in 0..grid.shape().cells() {
        if !keep(i) {
            p.set(i, None).unwrap();
        }
    }
    p
}
#[cfg(feature = "tui")]
pub mod steps;
pub mod tmux;
#[cfg(feature = "tui")]
pub mod tui;

/// Runs `backend` for up to `limit` solutions on the large instance
/// `large/<name>` under `limits`, raising `cancel`'s flag after its delay
/// if given; returns the result and how long the search ran past the flag
/// (or the deadline). `None` when the shared data is absent (not under CI).
pub fn stop_on_large(
    backend: Backend,
    limit: u64,
    name: &str,
    limits: Limits,
    cancel: Option<(
        std::sync::Arc<std::sync::atomic::AtomicBool>,
        std::time::Duration,
    )>,
) -> Option<(Count, std::time::Duration)> {
    use std::time::Instant;
    let path = shared(&format!("large/{name}"))?;
    let p = &read_all(&path)[0];
    let start = Instant::now();
    let raiser = cancel.map(|(flag, after)| {
        std::thread::spawn(move || {
            std::thread::sleep(after);
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
            Instant::now()
        })
    });
    let r = Solver::with_backend(backend).count(p, limit, &limits);
    let end = Instant::now();
    let raised = match raiser {
        Some(h) => h.join().unwrap(),
        None => limits.deadline.unwrap_or(start),
    };
    Some((r, end.saturating_duration_since(raised)))
}
