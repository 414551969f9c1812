//! Answers of the dearest searches, kept per position for every thread.
//!
//! A 9×9 grade walks its path and its rating on two threads (see
//! `grade`), and the two walks meet the same positions where the hardest
//! steps are: there both ask the implication tables, the static forcing
//! chains and the forcing nets the same questions. Each search's answer
//! is kept here by position, so the walk that comes second takes it
//! instead of searching again; a walk that asks for a position another
//! thread is still searching waits for that answer (as long as its own
//! limits allow). A search cut short by its board's limits is not kept.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use super::{Board, Step};

/// What was searched (`T`: a technique, a kind of chain node) and a
/// position's key ([`Board::position_key`]).
pub(super) type Key<T> = (T, Vec<u64>);

/// The answers of one search, for every thread: each kept answer, and
/// the positions some thread is searching now.
pub(super) struct Kept<T: 'static> {
    /// How much is kept, in words: each answer counts its key's words and
    /// [`STEP_WORDS`] per step.
    room: usize,
    answers: Mutex<Answers<T>>,
    /// Told when a search ends (kept or not) while some thread waits.
    settled: Condvar,
}

struct Answers<T> {
    /// Oldest first, each with its key's hash (compared first: the
    /// positions of one puzzle share most of their keys' words).
    done: VecDeque<(u64, Key<T>, Vec<Step>)>,
    busy: Vec<Key<T>>,
    /// Threads waiting for a search in `busy` (told only when some are).
    waiting: usize,
    /// The words `done` counts.
    words: usize,
}

/// What a kept step counts, in words (about its size with its
/// explanation).
const STEP_WORDS: usize = 64;

/// Room for about 100 answers without steps at 9×9 (a key is 164
/// words), 13 at 25×25 (1,252 words), with fewer when they have steps: a
/// few hundred kB per store on any board.
pub(super) const ROOM: usize = 16 * 1024;

impl<T: PartialEq + Clone + 'static> Kept<T> {
    /// A store that keeps `room` words of answers (see [`Kept::room`]).
    pub(super) const fn new(room: usize) -> Kept<T> {
        Kept {
            room,
            answers: Mutex::new(Answers {
                done: VecDeque::new(),
                busy: Vec::new(),
                waiting: 0,
                words: 0,
            }),
            settled: Condvar::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Answers<T>> {
        // A search that panicked leaves nothing half-written here.
        self.answers.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The answer kept for `key`, else `search`'s (kept when `b`'s limits
    /// did not cut it short).
    pub(super) fn get_or_search(
        &'static self,
        key: Key<T>,
        b: &Board,
        search: impl FnOnce() -> Vec<Step>,
    ) -> Vec<Step> {
        match self.claim(key, b) {
            Ok(steps) => steps,
            Err(claim) => {
                let steps = search();
                claim.settle((!b.stopped()).then(|| steps.clone()));
                steps
            }
        }
    }

    /// The kept answer for `key`; else, once no other thread is searching
    /// it (waiting while one is, as long as `b`'s limits allow), the
    /// caller's claim to search it.
    pub(super) fn claim(&'static self, key: Key<T>, b: &Board) -> Result<Vec<Step>, Claim<T>> {
        let hash = hash_of(&key.1);
        let mut a = self.lock();
        loop {
            if let Some((_, _, steps)) = a.done.iter().find(|(h, k, _)| *h == hash && *k == key) {
                return Ok(steps.clone());
            }
            if !a.busy.contains(&key) || b.stopped() {
                a.busy.push(key.clone());
                return Err(Claim {
                    kept: self,
                    key: Some((hash, key)),
                });
            }
            // (A timeout, to see this thread's own limits.)
            a.waiting += 1;
            a = match self.settled.wait_timeout(a, Duration::from_millis(5)) {
                Ok((a, _)) => a,
                Err(e) => e.into_inner().0,
            };
            a.waiting -= 1;
        }
    }

    /// Whether an answer is kept for `key` (tests only).
    #[cfg(test)]
    pub(super) fn holds(&self, key: &Key<T>) -> bool {
        self.lock().done.iter().any(|(_, k, _)| k == key)
    }

    /// Whether some thread is searching `key` now (tests only).
    #[cfg(test)]
    pub(super) fn is_busy(&self, key: &Key<T>) -> bool {
        self.lock().busy.contains(key)
    }
}

/// A search [`Kept::claim`] gave this thread: settled with its answer,
/// or, should the search panic, with none, so that no other thread waits
/// for it forever.
pub(super) struct Claim<T: PartialEq + Clone + 'static> {
    kept: &'static Kept<T>,
    key: Option<(u64, Key<T>)>,
}

impl<T: PartialEq + Clone + 'static> Claim<T> {
    /// The search's end: its answer is kept when whole (`Some`), and
    /// whoever waits for it is told.
    pub(super) fn settle(mut self, steps: Option<Vec<Step>>) {
        self.end(steps);
    }

    fn end(&mut self, steps: Option<Vec<Step>>) {
        let Some((hash, key)) = self.key.take() else {
            return;
        };
        let mut a = self.kept.lock();
        if let Some(i) = a.busy.iter().position(|k| *k == key) {
            a.busy.swap_remove(i);
        }
        if let Some(steps) = steps {
            a.keep(hash, key, steps, self.kept.room);
        }
        let told = a.waiting > 0;
        drop(a);
        if told {
            self.kept.settled.notify_all();
        }
    }
}

impl<T: PartialEq + Clone + 'static> Drop for Claim<T> {
    fn drop(&mut self) {
        self.end(None);
    }
}

fn weight<T>(key: &Key<T>, steps: &[Step]) -> usize {
    key.1.len() + STEP_WORDS * steps.len()
}

fn hash_of(words: &[u64]) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::default().hash_one(words)
}

impl<T> Answers<T> {
    fn keep(&mut self, hash: u64, key: Key<T>, steps: Vec<Step>, room: usize) {
        self.words += weight(&key, &steps);
        self.done.push_back((hash, key, steps));
        while self.words > room && self.done.len() > 1 {
            if let Some((_, old, steps)) = self.done.pop_front() {
                self.words -= weight(&old, &steps);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::engine::Limits;
    use crate::engine::format::parse_one;
    use crate::engine::logic::Technique;

    fn board() -> Board {
        let text =
            ".3.......9...4.....6....958........47..3.91.26...1..7.....958...7916....4....7...";
        Board::from_puzzle(&parse_one(text, "kept").unwrap()).unwrap()
    }

    fn one_step() -> Vec<Step> {
        vec![Step {
            technique: Technique::Guess,
            placements: Vec::new(),
            eliminations: Vec::new(),
            highlights: Default::default(),
            explanation: "a step".into(),
        }]
    }

    /// Answers are kept until their weight passes the room, oldest out
    /// first; a kept answer is not searched again.
    #[test]
    fn answers_stay_until_the_room_is_full() {
        static STORE: Kept<u8> = Kept::new(2 * 10 + STEP_WORDS);
        let b = board();
        let key = |k: u8| (k, vec![u64::from(k); 10]);
        for k in 0..3 {
            let got = STORE.get_or_search(key(k), &b, || if k == 1 { one_step() } else { vec![] });
            assert_eq!(got.len(), usize::from(k == 1));
        }
        // Three keys of ten words and one step: one over the room.
        assert!(!STORE.holds(&key(0)));
        assert!(STORE.holds(&key(1)) && STORE.holds(&key(2)));
        let again = STORE.get_or_search(key(1), &b, || panic!("searched again"));
        assert_eq!(again[0].explanation, "a step");
    }

    /// A search its board's limits cut short is given to its caller but
    /// not kept, and leaves no one waiting.
    #[test]
    fn a_search_cut_short_is_not_kept() {
        static STORE: Kept<u8> = Kept::new(ROOM);
        let mut b = board();
        let flag = Arc::new(AtomicBool::new(true));
        b.set_limits(&Limits::none().with_cancel(flag));
        let key = (7, vec![7; 4]);
        assert_eq!(STORE.get_or_search(key.clone(), &b, one_step).len(), 1);
        assert!(!STORE.holds(&key) && !STORE.is_busy(&key));
    }
}
