//! The loop's wait, over real channels: closed channels, and the cancel
//! flags of finished jobs and reads.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crossbeam_channel::{Sender, unbounded};

use super::*;
use crate::tui::action::{LoadGameError, Loaded};
use crate::tui::worker::JobError;

/// Waits on the given channels; no signals, no clock.
fn waits(input: Receiver<Action>, results: Receiver<JobResult>, reads: Receiver<Action>) -> Waits {
    Waits {
        input,
        results,
        reads,
        signals: never(),
        ticker: never(),
        last: Instant::now(),
        today: None,
        input_gone: false,
    }
}

fn flag() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}

fn worker_stopped(a: &Action) -> bool {
    matches!(a, Action::Status(s) if s.starts_with("the background worker stopped"))
}

/// A worker that is gone (its result channel closed) is said once; the
/// wait then no longer wakes for it: each later wake-up is the key that
/// caused it and nothing else. (Were the closed channel still listened
/// to, select! would pick it about every other time.)
#[test]
fn a_closed_result_channel_is_said_once_and_not_listened_to_again() {
    let (key_tx, key_rx) = unbounded();
    let (res_tx, res_rx) = unbounded::<JobResult>();
    let (_read_tx, read_rx) = unbounded();
    drop(res_tx);
    let mut w = waits(key_rx, res_rx, read_rx);
    let mut cancels = Cancels::new();
    // Nothing else to wake for: the closed channel is the news.
    let first = w.next(false, &mut cancels);
    assert!(matches!(&first[..], [a] if worker_stopped(a)), "{first:?}");
    for k in 0..64 {
        send_key(&key_tx);
        let got = w.next(false, &mut cancels);
        assert!(
            matches!(&got[..], [Action::Command(Command::Help)]),
            "wake-up {k}: {got:?}"
        );
    }
}

fn send_key(tx: &Sender<Action>) {
    assert!(tx.send(Action::Command(Command::Help)).is_ok());
}

/// A job's result drops its cancel flag (and only its own); so does a
/// read's answer.
#[test]
fn a_finished_job_or_read_drops_its_cancel_flag() {
    let (_key_tx, key_rx) = unbounded();
    let (res_tx, res_rx) = unbounded();
    let (read_tx, read_rx) = unbounded();
    let mut w = waits(key_rx, res_rx, read_rx);
    let mut cancels: Cancels = vec![(5, flag()), (6, flag()), (7, flag())];
    let failed = JobResult::Failed {
        id: 5,
        error: JobError::Panicked("boom".into()),
    };
    assert!(res_tx.send(failed).is_ok());
    let got = w.next(false, &mut cancels);
    assert!(
        matches!(&got[..], [Action::Job(JobResult::Failed { id: 5, .. })]),
        "{got:?}"
    );
    let left: Vec<u64> = cancels.iter().map(|(id, _)| *id).collect();
    assert_eq!(left, [6, 7]);
    let read = Action::Read {
        job: 7,
        loaded: Loaded::Error(LoadGameError::Internal("x".into())),
    };
    assert!(read_tx.send(read).is_ok());
    let got = w.next(false, &mut cancels);
    assert!(matches!(&got[..], [Action::Read { job: 7, .. }]), "{got:?}");
    let left: Vec<u64> = cancels.iter().map(|(id, _)| *id).collect();
    assert_eq!(left, [6]);
}

/// A terminal that is gone is a quit (which writes the autosave), said
/// once.
#[test]
fn a_closed_input_channel_quits_once() {
    let (key_tx, key_rx) = unbounded::<Action>();
    let (res_tx, res_rx) = unbounded();
    let (_read_tx, read_rx) = unbounded();
    drop(key_tx);
    let mut w = waits(key_rx, res_rx, read_rx);
    let mut cancels = Cancels::new();
    let got = w.next(false, &mut cancels);
    assert!(
        matches!(&got[..], [Action::Command(Command::Quit)]),
        "{got:?}"
    );
    for _ in 0..16 {
        let failed = JobResult::Failed {
            id: 1,
            error: JobError::Panicked("x".into()),
        };
        assert!(res_tx.send(failed).is_ok());
        let got = w.next(false, &mut cancels);
        assert!(matches!(&got[..], [Action::Job(_)]), "{got:?}");
    }
}
