//! Limits on a search: a deadline, a node budget and a shared cancel flag.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What may stop a search before it finishes. The default has no limits.
///
/// Solvers call [`Limits::check`] every few hundred nodes or propagation
/// steps, so a cancel or a deadline is honoured within milliseconds at every
/// size.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Stop once this instant has passed.
    pub deadline: Option<Instant>,
    /// Stop after this many search nodes (branches).
    pub node_budget: Option<u64>,
    /// Stop as soon as this flag is set (from any thread).
    pub cancel: Option<Arc<AtomicBool>>,
}

/// Why a search stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StopReason {
    /// The deadline passed.
    Deadline,
    /// The node budget was spent.
    NodeBudget,
    /// The cancel flag was set.
    Cancelled,
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StopReason::Deadline => "deadline passed",
            StopReason::NodeBudget => "node budget spent",
            StopReason::Cancelled => "cancelled",
        })
    }
}

impl Limits {
    /// No limits at all.
    pub fn none() -> Limits {
        Limits::default()
    }

    /// Stop after `d` from now.
    pub fn timeout(d: Duration) -> Limits {
        Limits {
            deadline: Instant::now().checked_add(d),
            ..Limits::default()
        }
    }

    /// Stop after `nodes` search nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            node_budget: Some(nodes),
            ..Limits::default()
        }
    }

    /// Also stop when `flag` is set.
    pub fn with_cancel(mut self, flag: Arc<AtomicBool>) -> Limits {
        self.cancel = Some(flag);
        self
    }

    /// Whether any limit is set (solvers skip the checks otherwise).
    pub fn is_unlimited(&self) -> bool {
        self.deadline.is_none() && self.node_budget.is_none() && self.cancel.is_none()
    }

    /// Whether the search must stop now, given the nodes spent so far.
    #[inline]
    pub fn check(&self, nodes: u64) -> Option<StopReason> {
        if let Some(flag) = &self.cancel
            && flag.load(Ordering::Relaxed)
        {
            return Some(StopReason::Cancelled);
        }
        if let Some(b) = self.node_budget
            && nodes >= b
        {
            return Some(StopReason::NodeBudget);
        }
        if let Some(d) = self.deadline
            && Instant::now() >= d
        {
            return Some(StopReason::Deadline);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_limit_fires() {
        assert_eq!(Limits::none().check(u64::MAX), None);
        assert_eq!(Limits::nodes(10).check(9), None);
        assert_eq!(Limits::nodes(10).check(10), Some(StopReason::NodeBudget));
        let past = Limits {
            deadline: Some(Instant::now()),
            ..Limits::default()
        };
        assert_eq!(past.check(0), Some(StopReason::Deadline));
        let flag = Arc::new(AtomicBool::new(false));
        let l = Limits::none().with_cancel(flag.clone());
        assert_eq!(l.check(0), None);
        flag.store(true, Ordering::Relaxed);
        assert_eq!(l.check(0), Some(StopReason::Cancelled));
    }
}
