//! One-digit searches remembered where they found nothing.
//!
//! A walk asks the same techniques again after every step, and a step
//! changes the candidates of a few digits only. A search that looks at one
//! digit's candidates alone (fish, two-link patterns, empty rectangles)
//! gives the same answer for the same candidates, so where it found nothing
//! for a digit, it finds nothing again while that digit's candidates stay
//! as they were: [`is_barren`] says so, and the search skips the digit.
//! The candidates themselves (each row's places of the digit) are compared,
//! not a hash of them, so a skip is never wrong; one entry is kept per
//! search, digit and shape, on each thread.

use std::cell::RefCell;
use std::collections::HashMap;

use super::{Board, Technique};

/// A search (technique and a variant of its own, such as a fish's
/// direction), a digit and the board's shape (side and box rows).
type Key = (Technique, u8, u8, u8, u8);

thread_local! {
    static BARREN: RefCell<HashMap<Key, Vec<u64>>> = RefCell::new(HashMap::new());
    /// Digits skipped so far (tests only).
    #[cfg(test)]
    static SKIPPED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn key(b: &Board, t: Technique, variant: u8, d: usize) -> Option<Key> {
    let narrow = |x: usize| u8::try_from(x).ok();
    Some((
        t,
        variant,
        narrow(d)?,
        narrow(b.n())?,
        narrow(b.shape().box_rows())?,
    ))
}

/// Whether search `t` (its `variant`) found nothing for digit `d` the last
/// time it ran on these same candidates of `d`.
pub(super) fn is_barren(b: &Board, t: Technique, variant: u8, d: usize) -> bool {
    let Some(k) = key(b, t, variant, d) else {
        return false;
    };
    let barren = BARREN.with(|m| {
        m.borrow().get(&k).is_some_and(|rows| {
            rows.len() == b.n() && rows.iter().enumerate().all(|(r, &p)| b.places(r, d) == p)
        })
    });
    #[cfg(test)]
    SKIPPED.with(|s| s.set(s.get() + usize::from(barren)));
    barren
}

/// Records that search `t` (its `variant`) found nothing for digit `d` on
/// the board's candidates of `d`. Not when the board's limits cut the
/// search short: then it may have missed something.
pub(super) fn set_barren(b: &Board, t: Technique, variant: u8, d: usize) {
    if b.stopped() {
        return;
    }
    let Some(k) = key(b, t, variant, d) else {
        return;
    };
    let rows: Vec<u64> = (0..b.n()).map(|r| b.places(r, d)).collect();
    BARREN.with(|m| {
        m.borrow_mut().insert(k, rows);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Shape;
    use crate::engine::logic::tests::expert_board;
    use crate::engine::logic::{find_all, next_step};

    /// Along the paths of generated 9×9 and 16×16 expert puzzles, every
    /// one-digit search gives the same steps (eliminations and text) with
    /// what it remembers from the positions before as with nothing
    /// remembered, and digits are skipped.
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
                    for &t in &techniques {
                        let remembered = key(find_all(&b, t));
                        BARREN.with(|m| m.borrow_mut().clear());
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
        println!("{compared} searches compared, {found} with steps, {skipped} digits skipped");
        assert!(
            compared > 1000 && found > 20 && skipped > 1000,
            "{compared} {found} {skipped}"
        );
    }
}
