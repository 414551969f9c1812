//! The embedded SAT solver: CaDiCaL, bundled and built by the `cadical`
//! crate (C++, compiled with the machine's g++), incremental, so the
//! blocking clauses of a count go into the same solver and keep what it
//! learnt.
//!
//! Limits reach it through CaDiCaL's terminate callback, which it polls
//! every few search steps: the cancel flag and the deadline stop a call
//! within milliseconds. The node budget is held against the conflicts,
//! counted through the learnt-clause callback (one clause per conflict).
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
    solver: cadical::Solver<Watch>,
    conflicts: u64,
}

impl Embedded {
    /// A solver holding every clause of `cnf`. Loading a CNF of millions
    /// of clauses takes CaDiCaL seconds, so the limits are checked every
    /// few thousand clauses on the way.
    pub fn load(cnf: &Cnf, limits: &Limits) -> Result<Embedded, StopReason> {
        const CHECK_EVERY: usize = 4096;
        let mut solver: cadical::Solver<Watch> = cadical::Solver::new();
        // The helpers of at-most-one come last, so this reserves them all.
        solver.reserve(i32::try_from(cnf.num_vars()).unwrap_or(i32::MAX));
        let checked = !limits.is_unlimited();
        for (i, clause) in cnf.clauses().enumerate() {
            if checked
                && i % CHECK_EVERY == CHECK_EVERY - 1
                && let Some(why) = limits.check(0)
            {
                return Err(why);
            }
            solver.add_clause(clause.iter().copied());
        }
        Ok(Embedded {
            solver,
            conflicts: 0,
        })
    }
}

impl std::fmt::Debug for Embedded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Embedded")
            .field("vars", &self.solver.num_variables())
            .field("conflicts", &self.conflicts)
            .finish()
    }
}

impl Oracle for Embedded {
    type Error = Infallible;

    fn add_clause(&mut self, clause: &[i32]) {
        self.solver.add_clause(clause.iter().copied());
    }

    fn solve(&mut self, limits: &Limits) -> Result<Verdict, Infallible> {
        let watched = !limits.is_unlimited();
        if watched {
            self.solver.set_callbacks(Some(Watch {
                limits: limits.clone(),
                conflicts: self.conflicts,
                stop: None,
            }));
        } else {
            self.solver.set_callbacks(None);
        }
        let answer = self.solver.solve();
        let mut stop = None;
        if let Some(w) = self.solver.get_callbacks() {
            self.conflicts = w.conflicts;
            stop = w.stop;
        }
        Ok(match answer {
            Some(true) => Verdict::Satisfiable,
            Some(false) => Verdict::Unsatisfiable,
            // Only our callback stops CaDiCaL (no limits are set in it).
            None => Verdict::Stopped(stop.unwrap_or(StopReason::Cancelled)),
        })
    }

    fn value(&self, var: u32) -> Option<bool> {
        self.solver.value(i32::try_from(var).ok()?)
    }

    fn work(&self) -> u64 {
        self.conflicts
    }
}
