//! Searches remembered where they found nothing.
//!
//! A walk asks the same techniques again after every step, and a step
//! changes a few digits' candidates. A search that reads one digit's
//! candidates alone (fish, Franken and mutant fish, two-link patterns,
//! empty rectangles, colours, X-Chains), or one unit's cells alone
//! (hidden subsets), gives the same answer for the same candidates; where
//! it found no pattern for a digit or unit, it finds none again while
//! those candidates stay as they were, and the search skips that digit or
//! unit ([`is_barren`], [`recall`]).
//! "No pattern" means none at all, also none left untold because an
//! earlier digit or unit told the same one. The candidates themselves are
//! compared, not a hash of them, so a skip is never wrong; one entry is
//! kept per search, digit or unit, and shape, on each thread, with the work
//! the search spent there, for searches that share a budget. The large
//! wings keep the whole board's candidates instead ([`snapshot`]) and
//! search from the cells that changed since.

use foldhash::{HashMap, HashMapExt};
use std::cell::RefCell;

use super::{Board, Technique};

/// A search (technique and a variant of its own, such as a fish's
/// direction), a digit or unit and the board's shape (side and box rows).
type Key = (Technique, u8, u8, u8, u8);

/// The candidates a search found nothing in, and the work it spent there.
type Entry = (Vec<u64>, usize);

thread_local! {
    static BARREN: RefCell<HashMap<Key, Entry>> = RefCell::new(HashMap::new());
    /// Digits, units and whole searches skipped so far (tests only).
    #[cfg(test)]
    static SKIPPED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn key(b: &Board, t: Technique, variant: u8, index: usize) -> Option<Key> {
    let narrow = |x: usize| u8::try_from(x).ok();
    Some((
        t,
        variant,
        narrow(index)?,
        narrow(b.n())?,
        narrow(b.shape().box_rows())?,
    ))
}

/// Digit `d`'s candidates: each row's places of it.
fn digit_rows(b: &Board, d: usize) -> Vec<u64> {
    (0..b.n()).map(|r| b.places(r, d)).collect()
}

/// The work search `t` (its `variant`) spent on digit or unit `index` the
/// last time it ran on these `candidates` and found nothing there.
pub(super) fn recall(
    b: &Board,
    t: Technique,
    variant: u8,
    index: usize,
    candidates: &[u64],
) -> Option<usize> {
    recall_if(b, t, variant, index, |kept| kept == candidates)
}

/// The work of the entry for search `t` (its `variant`) and digit or unit
/// `index`, when `same` says its candidates are the board's now.
fn recall_if(
    b: &Board,
    t: Technique,
    variant: u8,
    index: usize,
    same: impl Fn(&[u64]) -> bool,
) -> Option<usize> {
    let k = key(b, t, variant, index)?;
    let work = BARREN.with(|m| {
        m.borrow()
            .get(&k)
            .filter(|(kept, _)| same(kept))
            .map(|&(_, work)| work)
    });
    #[cfg(test)]
    SKIPPED.with(|s| s.set(s.get() + usize::from(work.is_some())));
    work
}

/// Records that search `t` (its `variant`) found nothing for digit or unit
/// `index` on `candidates`, spending `work`. Not when the board's limits
/// cut the search short: then it may have missed something.
pub(super) fn remember(
    b: &Board,
    t: Technique,
    variant: u8,
    index: usize,
    candidates: Vec<u64>,
    work: usize,
) {
    if b.stopped() {
        return;
    }
    if let Some(k) = key(b, t, variant, index) {
        BARREN.with(|m| {
            m.borrow_mut().insert(k, (candidates, work));
        });
    }
}

/// Forgets what search `t` remembered (tests only).
#[cfg(test)]
pub(super) fn forget(t: Technique) {
    BARREN.with(|m| m.borrow_mut().retain(|k, _| k.0 != t));
}

/// Counts a whole search skipped by what it remembered (tests only).
#[cfg(test)]
pub(super) fn count_skip() {
    SKIPPED.with(|s| s.set(s.get() + 1));
}

/// The candidates of every cell when search `t` last found nothing on the
/// whole board (remembered with variant and index 0), for searches that
/// work out from what changed since ([`super::wings::large_wings`]).
pub(super) fn snapshot(b: &Board, t: Technique) -> Option<Vec<u64>> {
    let k = key(b, t, 0, 0)?;
    BARREN.with(|m| m.borrow().get(&k).map(|(cells, _)| cells.clone()))
}

/// Whether search `t` (its `variant`) found nothing for digit `d` the last
/// time it ran on these same candidates of `d`.
pub(super) fn is_barren(b: &Board, t: Technique, variant: u8, d: usize) -> bool {
    // Row by row, stopping at the first that differs (most do at once).
    recall_if(b, t, variant, d, |rows| {
        rows.len() == b.n() && rows.iter().enumerate().all(|(r, &p)| b.places(r, d) == p)
    })
    .is_some()
}

/// Where search `t` (its `variant`) last found nothing for digit `d` and
/// the board's candidates of `d` are among those it had then: each row's
/// places of `d` removed since (all empty when nothing was). `None` when
/// there is no such entry or the board has a place the entry lacked.
pub(super) fn removed_since(b: &Board, t: Technique, variant: u8, d: usize) -> Option<Vec<u64>> {
    let k = key(b, t, variant, d)?;
    BARREN.with(|m| {
        let m = m.borrow();
        let (rows, _) = m.get(&k)?;
        (rows.len() == b.n()).then_some(())?;
        rows.iter()
            .enumerate()
            .map(|(r, &kept)| {
                let now = b.places(r, d);
                (now & !kept == 0).then_some(kept & !now)
            })
            .collect()
    })
}

/// Records that search `t` (its `variant`) found nothing for digit `d` on
/// the board's candidates of `d`.
pub(super) fn set_barren(b: &Board, t: Technique, variant: u8, d: usize) {
    remember(b, t, variant, d, digit_rows(b, d), 0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Shape;
    use crate::engine::logic::tests::expert_board;
    use crate::engine::logic::{find_all, next_step};

    /// Along the paths of generated 9×9 and 16×16 expert puzzles, every
    /// search that remembers gives the same steps (eliminations and text)
    /// with what it remembers from the positions before as with nothing
    /// remembered, and digits and units are skipped.
    #[test]
    fn remembered_searches_give_what_fresh_ones_do() {
        let mut techniques = vec![
            Technique::Skyscraper,
            Technique::TwoStringKite,
            Technique::TurbotFish,
            Technique::EmptyRectangle,
            Technique::ColorTrap,
            Technique::ColorWrap,
            Technique::MultiColors1,
            Technique::MultiColors2,
            Technique::XChain,
            Technique::HiddenPair,
            Technique::HiddenTriple,
            Technique::HiddenQuad,
            Technique::HiddenSubset(5),
            Technique::LargeWing(4),
            Technique::LargeWing(5),
            Technique::LargeWing(6),
            Technique::FrankenFish(2),
            Technique::FinnedFrankenFish(3),
            Technique::MutantFish(2),
        ];
        for k in 2..=4 {
            techniques.extend([
                Technique::Fish(k),
                Technique::FinnedFish(k),
                Technique::SashimiFish(k),
            ]);
        }
        let key = |steps: Vec<crate::engine::logic::Step>| -> Vec<_> {
            steps
                .into_iter()
                .map(|s| (s.eliminations, s.explanation))
                .collect()
        };
        let skipped_before = SKIPPED.with(std::cell::Cell::get);
        let (mut compared, mut found) = (0, 0);
        for (shape, seeds) in [
            (Shape::CLASSIC, 1..=4u64),
            (Shape::square(4).unwrap(), 1..=1),
        ] {
            for seed in seeds {
                let (mut b, _) = expert_board(shape, seed);
                while let Some(step) = next_step(&b) {
                    for (u, d) in
                        (0..b.shape().units()).flat_map(|u| (0..b.n()).map(move |d| (u, d)))
                    {
                        assert_eq!(
                            b.places(u, d),
                            b.places_counted(u, d),
                            "unit {u}, digit {d}"
                        );
                    }
                    for &t in &techniques {
                        let remembered = key(find_all(&b, t));
                        // Forget this search's entries only: the others
                        // stay for the next position.
                        BARREN.with(|m| m.borrow_mut().retain(|k, _| k.0 != t));
                        let fresh = key(find_all(&b, t));
                        found += usize::from(!fresh.is_empty());
                        assert_eq!(remembered, fresh, "{shape:?} seed {seed}, {t:?}");
                        compared += 1;
                    }
                    b.apply(&step);
                }
            }
        }
        let skipped = SKIPPED.with(std::cell::Cell::get) - skipped_before;
        println!(
            "{compared} searches compared, {found} with steps, {skipped} digits and units skipped"
        );
        assert!(
            compared > 1000 && found > 20 && skipped > 1000,
            "{compared} {found} {skipped}"
        );
    }
}
