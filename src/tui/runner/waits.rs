//! What the game loop waits on (terminal input, finished jobs and reads,
//! signals, the clock, the next frame) and the one wait that turns them
//! into actions: a finished job's or read's cancel flag is dropped there,
//! and a channel whose senders are gone is said once and no longer
//! listened to.

use std::time::Instant;

use crossbeam_channel::{Receiver, after, never, select};

use super::{Cancels, FRAME};
use crate::engine::generate::daily::Date;
use crate::tui::action::{Action, Command};
use crate::tui::worker::JobResult;

/// What the loop waits on, and what it keeps between wake-ups.
pub(crate) struct Waits {
    /// Terminal events.
    pub(crate) input: Receiver<Action>,
    /// Finished jobs.
    pub(crate) results: Receiver<JobResult>,
    /// Finished reads.
    pub(crate) reads: Receiver<Action>,
    /// SIGTERM, SIGHUP.
    pub(crate) signals: Receiver<i32>,
    /// The clock's ticks.
    pub(crate) ticker: Receiver<Instant>,
    /// The last tick or frame.
    pub(crate) last: Instant,
    /// The date the app was last told (`None`: tests, no day turns).
    pub(crate) today: Option<Date>,
    /// Whether the input has closed (the terminal or the connection is
    /// gone).
    pub(crate) input_gone: bool,
}

impl Waits {
    /// Waits until something happens (or, while `animating`, the next
    /// frame is due), then takes the input already waiting too: the
    /// actions, in order. A finished job's or read's cancel flag is
    /// dropped from `cancels`: it has done its work. A channel whose
    /// senders are gone is said once and no longer listened to (a closed
    /// channel is always ready: select! would wake at once, forever).
    pub(crate) fn next(&mut self, animating: bool, cancels: &mut Cancels) -> Vec<Action> {
        let mut actions = Vec::new();
        let frame = if animating { after(FRAME) } else { never() };
        select! {
            recv(self.input) -> msg => match msg {
                Ok(a) => actions.push(a),
                // The terminal is gone (e.g. the SSH connection dropped):
                // quit as if asked, which writes the autosave.
                Err(_) => {
                    self.input = never();
                    self.input_gone = true;
                    actions.push(Action::Command(Command::Quit));
                }
            },
            recv(self.results) -> msg => match msg {
                Ok(r) => {
                    cancels.retain(|(job, _)| *job != r.id());
                    actions.push(Action::Job(r));
                }
                // The worker is gone (it catches a job's panic, so this
                // should not happen): say so.
                Err(_) => {
                    self.results = never();
                    actions.push(Action::Status(
                        "the background worker stopped: new games, hints and solvers \
                         need a restart"
                            .into(),
                    ));
                }
            },
            recv(self.reads) -> msg => match msg {
                Ok(a) => {
                    if let Action::Read { job, .. } = &a {
                        cancels.retain(|(id, _)| id != job);
                    }
                    actions.push(a);
                }
                // The loop keeps a sender, so this cannot happen.
                Err(_) => self.reads = never(),
            },
            // SIGTERM or SIGHUP: quit as if asked, which writes the autosave.
            recv(self.signals) -> msg => {
                if msg.is_err() {
                    self.signals = never();
                }
                actions.push(Action::Command(Command::Quit));
            },
            recv(self.ticker) -> _ => {
                let now = Instant::now();
                actions.push(Action::Tick(now - self.last));
                self.last = now;
                if let Some(today) = &mut self.today
                    && Date::today() != *today
                {
                    *today = Date::today();
                    actions.push(Action::Today(*today));
                }
            },
            recv(frame) -> _ => {
                let now = Instant::now();
                actions.push(Action::Tick(now - self.last));
                self.last = now;
            },
        }
        // Take whatever else is already waiting, then draw once.
        while let Ok(a) = self.input.try_recv() {
            actions.push(a);
        }
        actions
    }
}

#[cfg(test)]
mod tests;
