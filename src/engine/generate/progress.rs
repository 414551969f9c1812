//! What a generation is doing while it runs, for whoever shows it: tries
//! begun, whether a try is digging or grading, and the level of the
//! closest puzzle found so far. Shared through atomics, so a front end on
//! another thread reads it while the generator writes, and nothing waits.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::engine::level::Level;

/// What a try of the generator is doing now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Not started yet.
    Starting,
    /// Digging clues out of a full grid.
    Digging,
    /// Grading what was dug.
    Grading,
}

#[derive(Debug, Default)]
struct State {
    tries: AtomicU64,
    /// 0 starting, 1 digging, 2 grading.
    stage: AtomicU8,
    /// 0: nothing found yet; else 1 + the level's place in [`Level::ALL`].
    best: AtomicU8,
}

/// A progress value shared between a generation and whoever watches it
/// ([`GenerateOptions::progress`](super::GenerateOptions::progress)):
/// clones share the same counters. The default watches nothing and costs
/// nothing. It is not part of what is made: every progress value compares
/// equal, so options that differ only in it are the same options.
#[derive(Debug, Clone, Default)]
pub struct Progress(Option<Arc<State>>);

impl Progress {
    /// A progress value to watch: give a clone to the generation, read
    /// this one.
    pub fn new() -> Progress {
        Progress(Some(Arc::default()))
    }

    /// Tries begun (0 before the first).
    pub fn tries(&self) -> u64 {
        self.0
            .as_ref()
            .map_or(0, |s| s.tries.load(Ordering::Relaxed))
    }

    /// What the current try is doing.
    pub fn stage(&self) -> Stage {
        match self
            .0
            .as_ref()
            .map_or(0, |s| s.stage.load(Ordering::Relaxed))
        {
            1 => Stage::Digging,
            2 => Stage::Grading,
            _ => Stage::Starting,
        }
    }

    /// The level of the closest puzzle found so far (`None` before the
    /// first is dug, or when it was not graded).
    pub fn best(&self) -> Option<Level> {
        let b = self
            .0
            .as_ref()
            .map_or(0, |s| s.best.load(Ordering::Relaxed));
        Level::ALL.get(usize::from(b).checked_sub(1)?).copied()
    }

    /// The generator begins a try: one more, digging.
    pub fn begin_try(&self) {
        if let Some(s) = &self.0 {
            s.tries.fetch_add(1, Ordering::Relaxed);
            s.stage.store(1, Ordering::Relaxed);
        }
    }

    /// The generator digs on in the same try (after a grade that said the
    /// puzzle is not yet at the level).
    pub fn digging(&self) {
        if let Some(s) = &self.0 {
            s.stage.store(1, Ordering::Relaxed);
        }
    }

    /// The generator grades what it dug.
    pub fn grading(&self) {
        if let Some(s) = &self.0 {
            s.stage.store(2, Ordering::Relaxed);
        }
    }

    /// The generator keeps a new closest puzzle, of this level.
    pub fn closest(&self, level: Option<Level>) {
        if let Some(s) = &self.0 {
            let b = level
                .and_then(|l| Level::ALL.iter().position(|&x| x == l))
                .map_or(0, |i| i as u8 + 1);
            s.best.store(b, Ordering::Relaxed);
        }
    }
}

impl PartialEq for Progress {
    /// Always equal: progress is not part of what is generated.
    fn eq(&self, _: &Progress) -> bool {
        true
    }
}

impl Eq for Progress {}

impl std::hash::Hash for Progress {
    /// Hashes nothing, as every progress value is equal.
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::generate::{GenerateOptions, generate_graded};
    use crate::engine::limits::Limits;
    use crate::engine::shape::Shape;

    #[test]
    fn an_unwatched_value_says_nothing_and_clones_share() {
        let quiet = Progress::default();
        quiet.begin_try();
        quiet.closest(Some(Level::Hard));
        assert_eq!((quiet.tries(), quiet.best()), (0, None));
        let p = Progress::new();
        let q = p.clone();
        q.begin_try();
        q.begin_try();
        q.grading();
        q.closest(Some(Level::Expert));
        assert_eq!(p.tries(), 2);
        assert_eq!(p.stage(), Stage::Grading);
        q.digging();
        assert_eq!((p.stage(), p.tries()), (Stage::Digging, 2));
        q.grading();
        assert_eq!(p.best(), Some(Level::Expert));
        q.closest(None);
        assert_eq!(p.best(), None);
        assert_eq!(p, quiet);
    }

    /// The progress value advances while generate_graded runs (read from
    /// another thread as the game does), and ends on the try that made the
    /// puzzle, at its level: on the aimed path (hard) and the
    /// grade-and-retry one (extreme).
    #[test]
    fn progress_advances_during_a_graded_run() {
        for level in [Level::Hard, Level::Extreme] {
            let p = Progress::new();
            let mut opts = GenerateOptions::new(Shape::CLASSIC, level, 3);
            opts.progress = p.clone();
            let run = std::thread::spawn(move || generate_graded(&opts, &Limits::none()));
            let mut seen = 0;
            while !run.is_finished() {
                let now = p.tries();
                assert!(now >= seen, "{level}: tries went back");
                seen = now;
                std::thread::yield_now();
            }
            let g = run.join().unwrap().unwrap();
            assert!(p.tries() >= 1, "{level}");
            assert!(p.tries() >= seen, "{level}");
            assert_eq!(p.best(), g.level(), "{level}");
            assert_ne!(p.stage(), Stage::Starting, "{level}");
            // The same options without watching make the same puzzle.
            let plain = GenerateOptions::new(Shape::CLASSIC, level, 3);
            let again = generate_graded(&plain, &Limits::none()).unwrap();
            assert_eq!(again.generated.puzzle, g.generated.puzzle, "{level}");
        }
    }
}
