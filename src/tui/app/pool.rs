//! The puzzle pool: a few puzzles per size and level kept ready in the data
//! folder, refilled on the worker while the player does not need it.

use crate::engine::generate::Graded;
use crate::game::Origin;
use crate::store::pool::{self, PoolEntry};

use super::{App, Effect, Screen};
use crate::tui::worker::JobKind;

/// Refills in a row that miss a level before the pool stops asking for it
/// this session.
const POOL_MISSES: u32 = 3;

impl App {
    /// Puts a refilled puzzle in the pool, under the level it was graded at
    /// (a miss still serves that level).
    pub(super) fn refilled(&mut self, graded: Graded, fx: &mut Vec<Effect>) {
        let level = graded.level();
        let rating = graded.grade.map(|g| g.rating);
        let made = graded.generated;
        let shape = made.puzzle.shape();
        let asked = (shape, made.level);
        if level == Some(made.level) {
            self.pool_misses.remove(&asked);
        } else {
            // Some levels are out of reach for a size (a 4×4 never needs
            // more than singles) or take too long: stop asking after a few.
            let misses = self.pool_misses.entry(asked).or_default();
            *misses += 1;
            if *misses >= POOL_MISSES {
                self.pool_wanted.remove(&asked);
            }
        }
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
        // Counted now, so the next tick does not ask for the same key again
        // before the runner answers.
        *self.pool.entry((shape, level)).or_default() += 1;
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
        let busy = self.refill.is_some()
            || self.pending_hint.is_some()
            || self.pending_walk.is_some()
            || matches!(self.screen, Screen::Working { .. } | Screen::Watch { .. });
        if busy {
            return;
        }
        let Some(&(shape, level)) = self.pool_wanted.iter().find(|&&(shape, level)| {
            self.pool.get(&(shape, level)).copied().unwrap_or(0) < pool::capacity(shape)
        }) else {
            return;
        };
        let seed = self.next_seed();
        self.refill = Some(self.job(JobKind::Refill { shape, level, seed }, fx));
    }
}
