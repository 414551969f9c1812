//! Watching a solver: its trace played back on the board.
//!
//! A solver runs on the worker and sends its [`TraceEvent`]s over a bounded
//! channel; the runner hands them to the app only as fast as the playback
//! asks for them ([`Playback::wanted`]), so a fast solver waits on a full
//! channel instead of filling memory. Everything here is a pure state
//! machine, driven by ticks and keys, and tested with recorded events.
//!
//! What is shown is a [`Shown`] board: values, candidates, the search's
//! undo trail and depth, counters, and the last thing that happened.
//! Events that change nothing (a given assigned again, a candidate already
//! gone) are applied without using up a frame's budget. Stepping back
//! restores the nearest checkpoint (a copy of the board every
//! [`CHECKPOINT_EVERY`] events) and replays from it; checkpoints and the
//! events after the oldest one are kept within a memory budget, so a long
//! search at full speed stays bounded and only the recent past can be
//! stepped back through.

mod shown;

pub use shown::Shown;

use std::collections::VecDeque;
use std::time::Duration;

use crate::engine::{Backend, Conflict, Grid, Puzzle, StopReason, TraceEvent, Value};

/// Events between two checkpoints.
pub const CHECKPOINT_EVERY: usize = 512;

/// Memory the checkpoints may use together (bytes, roughly).
const CHECKPOINT_BYTES: usize = 48 << 20;

/// Checkpoints kept at most (so at most this many times
/// [`CHECKPOINT_EVERY`] events are kept to step back through).
const MAX_CHECKPOINTS: usize = 128;

/// Playback speeds, in events per second: from one a second to thousands
/// per frame.
pub const SPEEDS: [u32; 16] = [
    1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 50_000, 200_000, 1_000_000,
];

/// The speed a playback starts at (10 events a second).
const START_SPEED: usize = 3;

/// Events the runner is asked for at least when the playback needs more
/// (most of a search's first events change nothing shown).
const PULL_AT_LEAST: usize = 256;

/// The solvers that can be watched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WatchSolver {
    /// Techniques, easiest first, then search when none applies.
    Logic,
    /// One of the exact backends.
    Exact(Backend),
}

impl WatchSolver {
    /// Every choice, in menu order.
    pub fn all() -> Vec<WatchSolver> {
        std::iter::once(WatchSolver::Logic)
            .chain(Backend::ALL.into_iter().map(WatchSolver::Exact))
            .collect()
    }

    /// The name shown.
    pub fn label(self) -> &'static str {
        match self {
            WatchSolver::Logic => "Logic: techniques, then guesses",
            WatchSolver::Exact(Backend::Propagation) => "Propagation and backtracking",
            WatchSolver::Exact(Backend::Hall) => "Propagation with Hall sets",
            WatchSolver::Exact(Backend::DancingLinks) => "Dancing Links (Algorithm X)",
            WatchSolver::Exact(Backend::Sat) => "SAT (CaDiCaL): the model as it comes",
            // Not in the menu (`all`): traced, it is the propagation solver.
            WatchSolver::Exact(Backend::Auto) => "Automatic: propagation when traced",
        }
    }
}

/// What the counters say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counters {
    /// Guesses (branches) made.
    pub nodes: u64,
    /// Guesses taken back.
    pub backtracks: u64,
    /// Values placed and candidates removed.
    pub propagations: u64,
    /// Technique steps (logic solver).
    pub steps: u64,
    /// Events received, whether they changed anything or not.
    pub events: u64,
}

impl Counters {
    /// Counts one event.
    pub fn count(&mut self, e: &TraceEvent) {
        self.events += 1;
        match e {
            TraceEvent::Branch { .. } => self.nodes += 1,
            TraceEvent::Backtrack { .. } => self.backtracks += 1,
            TraceEvent::Assign { .. } | TraceEvent::Eliminate { .. } => self.propagations += 1,
            TraceEvent::Step(_) => self.steps += 1,
            _ => {}
        }
    }
}

/// The last thing that happened, for the board to point at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    /// Nothing yet.
    None,
    /// A value tried by the search (a guess).
    Try(usize, Value),
    /// A value placed because it is forced (propagation, a technique).
    Place(usize, Value),
    /// A candidate removed.
    Remove(usize, Value),
    /// A guess taken back.
    Backtrack(usize, Value),
    /// A dead end.
    Contradiction,
    /// Back to the root to start afresh.
    Restart,
    /// A solution reached.
    Solved,
}

/// Why a watched solver ended without a complete answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Unfinished {
    /// Two givens share a unit: there is nothing to solve.
    #[error("the givens break the rules: {0}")]
    InvalidGivens(Conflict),
    /// Its limits stopped it (cancelled, deadline, budget).
    #[error("stopped: {0}")]
    Stopped(StopReason),
    /// Its events stopped being read, or it gave up before proving the
    /// answer complete.
    #[error("stopped")]
    Cut,
}

/// What the solver ended with, as the worker reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// Solutions found (up to two).
    pub solutions: Vec<Grid>,
    /// Whether the search was complete (so "one" means unique).
    pub exhausted: bool,
    /// Why it ended without a complete answer, if it did.
    pub stopped: Option<Unfinished>,
    /// Every event the solver made, counted (also those never sent).
    pub counters: Counters,
    /// The solver's own time.
    pub elapsed: Duration,
}

/// Where the playback is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Events are shown at the chosen speed (or one by one when paused).
    Playing,
    /// Jumping to the end: the trace is muted and the solver runs at full
    /// speed; the end is shown when its answer comes.
    Finishing,
    /// Everything there is has been shown.
    Done,
}

/// A playback: the board shown, the events around it, and the controls.
#[derive(Debug, Clone)]
pub struct Playback {
    /// The solver watched.
    pub solver: WatchSolver,
    /// The worker job whose events are shown.
    pub id: u64,
    /// The same job while it runs (None once it answered or was stopped).
    pub job: Option<u64>,
    /// The board now.
    pub shown: Shown,
    /// Events from `base` on: applied ones (to replay after a step back)
    /// and received ones not shown yet.
    events: VecDeque<TraceEvent>,
    /// The index of `events[0]` in the whole trace.
    base: usize,
    /// The index of the next event to apply.
    pos: usize,
    /// Board copies and the index of the event each was taken before.
    checkpoints: VecDeque<(usize, Shown)>,
    checkpoint_bytes: usize,
    /// Paused: only single steps move.
    pub paused: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// Fractional events owed at the current speed.
    credit: f64,
    /// Changed events still to show this frame.
    budget: usize,
    /// No more events will come (the channel closed).
    pub ended: bool,
    /// The solver's answer, once it came.
    pub finished: Option<Finished>,
    /// Where the playback is.
    pub phase: Phase,
    /// The end was shown by a jump, without the events before it.
    jumped: bool,
    /// Time the playback has been running (not paused).
    pub elapsed: Duration,
}

impl Playback {
    /// A playback of `solver` on `puzzle`, waiting for job `job`'s events.
    pub fn new(solver: WatchSolver, puzzle: &Puzzle, job: u64) -> Playback {
        let shown = Shown::new(puzzle);
        let bytes = shown.bytes();
        Playback {
            solver,
            id: job,
            job: Some(job),
            checkpoints: VecDeque::from([(0, shown.clone())]),
            checkpoint_bytes: bytes,
            shown,
            events: VecDeque::new(),
            base: 0,
            pos: 0,
            paused: false,
            speed: START_SPEED,
            credit: 0.0,
            budget: 0,
            ended: false,
            finished: None,
            phase: Phase::Playing,
            jumped: false,
            elapsed: Duration::ZERO,
        }
    }

    /// Events per second at the current speed.
    pub fn rate(&self) -> u32 {
        SPEEDS[self.speed.min(SPEEDS.len() - 1)]
    }

    /// Events applied so far (the position in the trace).
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Events received so far.
    pub fn received(&self) -> usize {
        self.base + self.events.len()
    }

    /// How far back a step back can go (the oldest checkpoint kept).
    pub fn earliest(&self) -> usize {
        self.checkpoints.front().map_or(self.pos, |(at, _)| *at)
    }

    /// How many events the runner should hand over now (0: none wanted).
    pub fn wanted(&self) -> usize {
        if self.phase != Phase::Playing || self.ended || self.budget == 0 {
            return 0;
        }
        if self.pos < self.received() {
            return 0;
        }
        self.budget.max(PULL_AT_LEAST)
    }

    /// Time passed: owes events at the current speed and shows what it can.
    pub fn tick(&mut self, dt: Duration) {
        if self.phase != Phase::Playing || self.paused {
            return;
        }
        self.elapsed += dt;
        self.credit += f64::from(self.rate()) * dt.as_secs_f64();
        // Never owe more than a quarter second's worth after a stall.
        let cap = (f64::from(self.rate()) / 4.0).max(1.0);
        if self.credit > cap + 1.0 {
            self.credit = cap;
        }
        let whole = self.credit.floor();
        self.credit -= whole;
        self.budget = self.budget.saturating_add(whole as usize);
        self.advance();
    }

    /// Events from the solver (as many as were wanted, or fewer); `ended`
    /// when the channel closed.
    pub fn receive(&mut self, events: Vec<TraceEvent>, ended: bool) {
        if self.phase == Phase::Finishing {
            return;
        }
        self.events.extend(events);
        self.ended |= ended;
        self.advance();
    }

    /// Applies owed events from those received.
    fn advance(&mut self) {
        while self.budget > 0 && self.apply_next() {}
        self.check_done();
    }

    /// Applies the next received event; false when there is none.
    fn apply_next(&mut self) -> bool {
        let Some(e) = self.events.get(self.pos - self.base) else {
            return false;
        };
        if self.shown.apply(e) {
            self.budget = self.budget.saturating_sub(1);
        }
        self.pos += 1;
        if self.pos.is_multiple_of(CHECKPOINT_EVERY)
            && self.checkpoints.back().is_none_or(|(at, _)| *at < self.pos)
        {
            self.checkpoint();
        }
        true
    }

    fn checkpoint(&mut self) {
        self.checkpoint_bytes += self.shown.bytes();
        self.checkpoints.push_back((self.pos, self.shown.clone()));
        while (self.checkpoint_bytes > CHECKPOINT_BYTES || self.checkpoints.len() > MAX_CHECKPOINTS)
            && self.checkpoints.len() > 2
        {
            if let Some((_, old)) = self.checkpoints.pop_front() {
                self.checkpoint_bytes -= old.bytes();
            }
            let keep_from = self.earliest();
            while self.base < keep_from && self.events.pop_front().is_some() {
                self.base += 1;
            }
        }
    }

    fn check_done(&mut self) {
        if self.phase == Phase::Playing
            && self.ended
            && self.finished.is_some()
            && self.pos >= self.received()
        {
            // A uniqueness search ends where it started looking for a
            // second solution: show the first one found instead.
            if let Some(first) = &self.shown.solution {
                self.shown.values = first.clone();
                self.shown.focus = Focus::Solved;
            }
            self.phase = Phase::Done;
        }
    }

    /// One changed event forward (pausing first).
    pub fn step_forward(&mut self) {
        self.paused = true;
        if self.phase == Phase::Playing {
            self.budget = 1;
            self.advance();
        }
    }

    /// One changed event back (pausing first). False when the event is
    /// older than the oldest checkpoint kept, or the playback was
    /// finished by a jump to the end.
    pub fn step_back(&mut self) -> bool {
        self.paused = true;
        if self.phase == Phase::Finishing || self.pos == 0 {
            return false;
        }
        if self.jumped {
            return false;
        }
        let Some(i) = self.checkpoints.iter().rposition(|(at, _)| *at < self.pos) else {
            return false;
        };
        let from = self.checkpoints[i].0;
        // Back to just after the change before the last one: where the
        // step forward that made the last change started.
        let mut probe = self.checkpoints[i].1.clone();
        let (mut last, mut before) = (None, None);
        for at in from..self.pos {
            if let Some(e) = self.events.get(at - self.base)
                && probe.apply(e)
            {
                before = last;
                last = Some(at);
            }
        }
        let target = before.map_or(from, |at| at + 1);
        self.shown = self.checkpoints[i].1.clone();
        for at in from..target {
            if let Some(e) = self.events.get(at - self.base) {
                self.shown.apply(e);
            }
        }
        self.pos = target;
        self.budget = 0;
        if self.phase == Phase::Done {
            self.phase = Phase::Playing;
        }
        true
    }

    /// Pause or resume.
    pub fn toggle_pause(&mut self) {
        self.paused = !self.paused;
        self.credit = 0.0;
        self.budget = 0;
    }

    /// Faster.
    pub fn faster(&mut self) {
        self.speed = (self.speed + 1).min(SPEEDS.len() - 1);
    }

    /// Slower.
    pub fn slower(&mut self) {
        self.speed = self.speed.saturating_sub(1);
        self.credit = self.credit.min(1.0);
    }

    /// Jump to the end: the app mutes the trace and waits for the answer.
    /// False when already there.
    pub fn finish(&mut self) -> bool {
        if self.phase != Phase::Playing {
            return false;
        }
        if self.finished.is_some() {
            // The answer is in: show the rest of what came at once.
            self.budget = usize::MAX;
            self.advance();
            if self.phase == Phase::Playing {
                self.show_answer();
            }
            return false;
        }
        self.phase = Phase::Finishing;
        true
    }

    /// The solver answered.
    pub fn answered(&mut self, f: Finished) {
        self.job = None;
        self.finished = Some(f);
        if self.phase == Phase::Finishing {
            self.show_answer();
        } else {
            self.check_done();
        }
    }

    /// Shows the answer without the events that lead to it.
    fn show_answer(&mut self) {
        let Some(f) = &self.finished else {
            return;
        };
        if let Some(g) = f.solutions.first() {
            self.shown.values = g.cells().iter().copied().map(Some).collect();
            self.shown.focus = Focus::Solved;
        }
        self.shown.solutions = f.solutions.len();
        self.shown.counters = f.counters;
        self.shown.forget_search();
        self.ended = true;
        self.jumped = true;
        self.phase = Phase::Done;
    }

    /// The values to keep when the player takes the board shown: the
    /// board as it stands.
    pub fn board(&self) -> &[Option<Value>] {
        &self.shown.values
    }
}

#[cfg(test)]
mod tests;
