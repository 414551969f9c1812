//! The puzzle pool: a few puzzles per size and level kept ready in the data
//! folder, refilled on the worker while the player does not need it. The
//! files belong to the runner (`store::Pool`); [`PoolKeeper`] is what the
//! app knows of them and decides from.

use std::collections::{BTreeMap, BTreeSet};

use crate::engine::generate::Graded;
use crate::engine::{Level, Shape};
use crate::game::Origin;
use crate::store::pool::{self, PoolEntry};

use super::{App, Effect, Screen};
use crate::tui::worker::JobKind;

/// Refills in a row that miss a level before the pool stops asking for it
/// this session.
const POOL_MISSES: u32 = 3;

/// The app's side of the pool: how many puzzles each shape and level has
/// (as the runner last said), which ones to keep filled, the refill
/// running, and the refills that missed their level.
#[derive(Debug, Clone, Default)]
pub struct PoolKeeper {
    /// Puzzles per shape and level.
    counts: BTreeMap<(Shape, Level), usize>,
    /// The shapes and levels kept filled: the default size at every level,
    /// and whatever the player asked for since.
    wanted: BTreeSet<(Shape, Level)>,
    /// The refill job running on the worker.
    pub(super) refill: Option<u64>,
    /// Refills in a row that came out at another level, per shape and
    /// level asked.
    misses: BTreeMap<(Shape, Level), u32>,
}

impl PoolKeeper {
    /// A pool kept filled for `shape` at every level.
    pub fn new(shape: Shape) -> PoolKeeper {
        PoolKeeper {
            wanted: Level::ALL.iter().map(|&l| (shape, l)).collect(),
            ..PoolKeeper::default()
        }
    }

    /// Puzzles pooled for this shape and level.
    pub fn count(&self, shape: Shape, level: Level) -> usize {
        self.counts.get(&(shape, level)).copied().unwrap_or(0)
    }

    /// What the pool's files hold for this shape and level now.
    pub fn set_count(&mut self, shape: Shape, level: Level, count: usize) {
        self.counts.insert((shape, level), count);
    }

    /// Asks for no more refills this session.
    pub(super) fn stop_refilling(&mut self) {
        self.wanted.clear();
    }

    /// Keeps this shape and level filled from now on.
    fn want(&mut self, shape: Shape, level: Level) {
        self.wanted.insert((shape, level));
    }

    /// The first wanted shape and level with room for another puzzle
    /// ([`pool::capacity`]).
    fn next_wanted(&self) -> Option<(Shape, Level)> {
        self.wanted
            .iter()
            .copied()
            .find(|&(shape, level)| self.count(shape, level) < pool::capacity(shape))
    }

    /// Counts a refill that asked for `asked` and came out at `got` (None:
    /// not graded in time). A level missed a few times in a row is not
    /// asked for again this session: some are out of reach for a size (a
    /// 4×4 never needs more than singles) or take too long.
    fn graded(&mut self, asked: (Shape, Level), got: Option<Level>) {
        if got == Some(asked.1) {
            self.misses.remove(&asked);
        } else {
            let misses = self.misses.entry(asked).or_default();
            *misses += 1;
            if *misses >= POOL_MISSES {
                self.wanted.remove(&asked);
            }
        }
        if let Some(level) = got {
            // Counted now, so the next tick does not ask for the same key
            // again before the runner answers.
            *self.counts.entry((asked.0, level)).or_default() += 1;
        }
    }
}

impl App {
    /// Puts a refilled puzzle in the pool, under the level it was graded at
    /// (a miss still serves that level).
    pub(super) fn refilled(&mut self, graded: Graded, fx: &mut Vec<Effect>) {
        let level = graded.level();
        let rating = graded.grade.map(|g| g.rating);
        let made = graded.generated;
        self.pool.graded((made.puzzle.shape(), made.level), level);
        // Not graded in time: no level to pool it under.
        let Some(level) = level else {
            return;
        };
        fx.push(Effect::AddPooled(Box::new(PoolEntry {
            puzzle: made.puzzle,
            solution: made.solution,
            seed: made.seed,
            level,
            rating,
        })));
    }

    /// Starts a new game of this shape and level: from the pool when it
    /// has one (the runner answers [`Effect::TakePooled`] at once with
    /// [`Action::Pooled`](crate::tui::action::Action::Pooled)), else
    /// generated while the player waits.
    pub(super) fn new_game(&mut self, shape: Shape, level: Level, fx: &mut Vec<Effect>) {
        self.pool.want(shape, level);
        if self.pool.count(shape, level) > 0 {
            fx.push(Effect::TakePooled(shape, level));
        } else {
            self.generate(shape, level, fx);
        }
    }

    /// Starts a puzzle taken from the pool.
    pub(super) fn start_pooled(&mut self, e: PoolEntry, fx: &mut Vec<Effect>) {
        let origin = Origin {
            level: Some(e.level),
            seed: Some(e.seed),
            title: None,
        };
        self.play_made(&e.puzzle, e.solution, origin, e.rating, fx);
    }

    /// Starts a pool refill when the worker is idle and a wanted shape and
    /// level has room ([`pool::capacity`]).
    pub(super) fn refill_pool(&mut self, fx: &mut Vec<Effect>) {
        let busy = self.pool.refill.is_some()
            || self.pending_hint.is_some()
            || self.pending_walk.is_some()
            || matches!(self.screen, Screen::Working { .. } | Screen::Watch { .. });
        if busy {
            return;
        }
        let Some((shape, level)) = self.pool.next_wanted() else {
            return;
        };
        let seed = self.next_seed();
        self.pool.refill = Some(self.job(JobKind::Refill { shape, level, seed }, fx));
    }
}
