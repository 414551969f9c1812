//! The embedded SAT solver: CaDiCaL, bundled and built by the `cadical`
//! crate (C++, compiled with the machine's g++), incremental, so the
//! blocking clauses of a count go into the same solver and keep what it
//! learnt.
//!
//! Limits reach it through CaDiCaL's terminate callback, which it polls
//! every few search steps: the cancel flag and the deadline stop a call
//! within milliseconds (on CNFs of a million clauses it can go a second
//! between polls, so there the call runs on a thread of its own and is
//! given up at once: [`LARGE_CNF`]). The node budget is held against the
//! conflicts, counted through the learnt-clause callback (one clause per
//! conflict).
//!
//! Why CaDiCaL and not a pure-Rust crate (measured on the compact
//! encoding, uniqueness by a blocking clause, one core of this 2-core
//! machine): on easy and medium work the pure-Rust solvers are as fast or
//! a little faster, since a C++ solver costs some setup per puzzle
//! (magictour top1465: CaDiCaL 0.53 ms a puzzle, batsat 0.30, varisat
//! 0.35, splr 0.75; the first 2000 of forum hardest 11+: 1.13, 0.79, 0.78,
//! 1.69 ms; `large/…-100-1`: 134, 58, 116, 247 ms), all far behind the
//! propagation solver there. A SAT backend earns its place on the
//! quasigroup-hard instances the propagation solver cannot finish, and
//! there CaDiCaL is the one that gets through: `large/…-64-1` was solved
//! by CaDiCaL in 130 s (78 s with pairwise at-most-one throughout; a
//! second run of the same CNF timed out at 400 s: such runs vary), never
//! by batsat (200 s, 400 s) or varisat (200 s); splr solved
//! it (45–138 s) but has no way to be interrupted (only its own timeout)
//! and panics on internal errors. CaDiCaL also has a terminate callback (a
//! cancel lands in a few milliseconds) and is incremental.

use std::convert::Infallible;

use crate::engine::limits::{Limits, StopReason};

use super::encode::Cnf;
use super::{Oracle, Verdict};

/// What CaDiCaL calls back while it searches.
struct Watch {
    limits: Limits,
    /// Learnt clauses so far (about one per conflict), counted only when
    /// there is a node budget.
    conflicts: u64,
    /// Why the last call was told to stop.
    stop: Option<StopReason>,
}

impl cadical::Callbacks for Watch {
    fn terminate(&mut self) -> bool {
        if self.stop.is_none() {
            self.stop = self.limits.check(self.conflicts);
        }
        self.stop.is_some()
    }

    fn max_length(&self) -> i32 {
        // Only a node budget needs the count; otherwise CaDiCaL does not
        // copy out learnt clauses at all.
        if self.limits.node_budget.is_some() {
            i32::MAX
        } else {
            0
        }
    }

    fn learn(&mut self, _clause: &[i32]) {
        self.conflicts += 1;
    }
}

/// CaDiCaL loaded with a CNF.
pub struct Embedded {
    /// `None` once a stopped call on a large CNF left it to finish on its
    /// own thread (see [`Embedded::solve`]).
    solver: Option<cadical::Solver<Watch>>,
    conflicts: u64,
    /// At least [`LARGE_CNF`] clauses: calls run on a thread of their own.
    large: bool,
}

/// From this many clauses on, CaDiCaL can go a second between polls of the
/// terminate callback (in its set-up and inprocessing phases on a 225×225's
/// 3.5 million clauses), so a call with limits runs on a thread of its own
/// and the caller, polling the limits every `POLL`, returns as soon as
/// they say stop; the abandoned call ends at CaDiCaL's next poll and frees
/// the solver there.
pub const LARGE_CNF: usize = 250_000;

/// How often a caller waiting on a large call checks its limits.
const POLL: std::time::Duration = std::time::Duration::from_millis(5);

impl Embedded {
    /// A solver holding every clause of `cnf`. Loading a CNF of millions
    /// of clauses takes CaDiCaL seconds, so the limits are checked every
    /// few thousand clauses on the way.
    pub fn load(cnf: &Cnf, limits: &Limits) -> Result<Embedded, StopReason> {
        const CHECK_EVERY: usize = 4096;
        // CaDiCaL's "sat" configuration (stable mode only, less
        // elimination and subsumption): on the hard 25×25 set (README,
        // "The default solver") first solutions and uniqueness proofs took
        // 52 s of CPU in total against 68 s with the default one, and
        // `large/…-64-1` 14 s instead of over 120 s; 9×9 is unchanged.
        let mut solver: cadical::Solver<Watch> =
            cadical::Solver::with_config("sat").unwrap_or_else(|_| cadical::Solver::new());
        // The helpers of at-most-one come last, so this reserves them all.
        solver.reserve(i32::try_from(cnf.num_vars()).unwrap_or(i32::MAX));
        let checked = !limits.is_unlimited();
        for (i, clause) in cnf.clauses().enumerate() {
            if checked
                && i % CHECK_EVERY == CHECK_EVERY - 1
                && let Some(why) = limits.check(0)
            {
                super::free_beside(solver);
                return Err(why);
            }
            solver.add_clause(clause.iter().copied());
        }
        Ok(Embedded {
            solver: Some(solver),
            conflicts: 0,
            large: cnf.num_clauses() >= LARGE_CNF,
        })
    }

    /// What a finished call means, with the counters its callbacks kept.
    fn verdict(&mut self, answer: Option<bool>) -> Verdict {
        let mut stop = None;
        if let Some(w) = self.solver.as_mut().and_then(|s| s.get_callbacks()) {
            self.conflicts = w.conflicts;
            stop = w.stop;
        }
        match answer {
            Some(true) => Verdict::Satisfiable,
            Some(false) => Verdict::Unsatisfiable,
            // Only our callback stops CaDiCaL (no limits are set in it).
            None => Verdict::Stopped(stop.unwrap_or(StopReason::Cancelled)),
        }
    }

    /// Runs a call on a thread of its own, returning when it ends or, if
    /// sooner, when `limits` say stop (the solver is then given up).
    fn solve_beside(&mut self, mut solver: cadical::Solver<Watch>, limits: &Limits) -> Verdict {
        use std::sync::mpsc::{RecvTimeoutError, channel};
        let (tx, rx) = channel();
        let spawned = std::thread::Builder::new()
            .name("dekadoku-sat".into())
            .spawn(move || {
                let answer = solver.solve();
                // The caller may have stopped waiting: then the solver is
                // freed here.
                let _ = tx.send((solver, answer));
            });
        if spawned.is_err() {
            // The solver went with the closure: nothing left to search with.
            return Verdict::Stopped(StopReason::NodeBudget);
        }
        loop {
            match rx.recv_timeout(POLL) {
                Ok((solver, answer)) => {
                    self.solver = Some(solver);
                    return self.verdict(answer);
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Some(why) = limits.check(0) {
                        return Verdict::Stopped(why);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Verdict::Stopped(StopReason::Cancelled);
                }
            }
        }
    }
}

impl std::fmt::Debug for Embedded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Embedded")
            .field("vars", &self.solver.as_ref().map(|s| s.num_variables()))
            .field("conflicts", &self.conflicts)
            .field("large", &self.large)
            .finish()
    }
}

impl Oracle for Embedded {
    type Error = Infallible;

    fn add_clause(&mut self, clause: &[i32]) {
        if let Some(s) = &mut self.solver {
            s.add_clause(clause.iter().copied());
        }
    }

    fn solve(&mut self, limits: &Limits) -> Result<Verdict, Infallible> {
        let Some(mut solver) = self.solver.take() else {
            // Given up by an earlier stopped call.
            return Ok(Verdict::Stopped(StopReason::Cancelled));
        };
        let watched = !limits.is_unlimited();
        if watched {
            solver.set_callbacks(Some(Watch {
                limits: limits.clone(),
                conflicts: self.conflicts,
                stop: None,
            }));
        } else {
            solver.set_callbacks(None);
        }
        if watched && self.large {
            return Ok(self.solve_beside(solver, limits));
        }
        let answer = solver.solve();
        self.solver = Some(solver);
        Ok(self.verdict(answer))
    }

    fn value(&self, var: u32) -> Option<bool> {
        self.solver.as_ref()?.value(i32::try_from(var).ok()?)
    }

    fn work(&self) -> u64 {
        self.conflicts
    }

    fn release(self) {
        if let Some(s) = self.solver {
            super::free_beside(s);
        }
    }
}
