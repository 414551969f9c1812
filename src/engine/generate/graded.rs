//! Generating to a target [`Level`]. Plain requests (no clue or rating
//! range, not minimal, below Extreme, or Extreme above 9×9) dig toward the
//! level with the grader's feedback (`aim.rs`); 9×9 Extreme digs to
//! minimal and asks the capped walk whether each try is past Expert
//! (`extreme`); the rest dig a puzzle, grade it with the
//! technique solver, keep it when the grade matches, else try again from
//! the next seed — digging deeper after a puzzle that came out too easy and
//! less deep after one that came out too hard — and return the closest
//! puzzle found when the tries or the deadline run out.
//!
//! The clue count alone says little about difficulty (most minimal 9×9
//! puzzles need only singles), so the clue ranges of [`super::clue_range`]
//! are only where the search starts.

use crate::engine::grade::{Grade, GradeError, grade_unrated_within, grade_within, rate_within};
use crate::engine::level::Level;
use crate::engine::limits::{Limits, StopReason};
use crate::engine::logic::MAX_LOGIC_SIDE;
use crate::engine::shape::Shape;
use std::time::{Duration, Instant};

use super::random::splitmix64;
use super::{GenerateOptions, Generated, generate};

/// A generated puzzle and its grade.
#[derive(Debug, Clone, PartialEq)]
pub struct Graded {
    /// The puzzle, its solution and the seed it came from.
    pub generated: Generated,
    /// Its grade; `None` for sides the technique solver does not take
    /// (above [`MAX_LOGIC_SIDE`]), where the level is a clue-count target,
    /// and when the deadline passed before the first grading finished.
    pub grade: Option<Grade>,
    /// The rating range asked for ([`GenerateOptions::rating`]).
    pub rating_range: Option<(u16, u16)>,
}

impl Graded {
    /// Whether the puzzle was graded at the level asked for (and within
    /// the rating range asked for, if any).
    pub fn hit(&self) -> bool {
        self.grade
            .as_ref()
            .is_some_and(|g| g.level == self.generated.level && self.rating_miss(g) == 0)
    }

    /// The level the puzzle is known to have: the grader's, or for sides
    /// the grader does not take (above [`MAX_LOGIC_SIDE`]) the clue-count
    /// level it was made for; `None` when the deadline passed before it
    /// was graded.
    pub fn level(&self) -> Option<Level> {
        match &self.grade {
            Some(g) => Some(g.level),
            None if self.generated.puzzle.shape().n() > MAX_LOGIC_SIDE => {
                Some(self.generated.level)
            }
            None => None,
        }
    }

    /// How far (in tenths) the grade's rating lies outside the range asked.
    fn rating_miss(&self, g: &Grade) -> usize {
        let Some((lo, hi)) = self.rating_range else {
            return 0;
        };
        let r = rating_tenths(g.rating);
        usize::from(lo.saturating_sub(r)) + usize::from(r.saturating_sub(hi))
    }
}

/// A rating in tenths, the unit of [`GenerateOptions::rating`] (ratings
/// run from 1.0 to about 11).
pub fn rating_tenths(rating: f32) -> u16 {
    (rating * 10.0).round().clamp(0.0, f32::from(u16::MAX)) as u16
}

/// Puzzles dug and graded at most for one [`generate_graded`] call on
/// `shape`: many for small boards (a try costs about a millisecond on 9×9),
/// few for large ones, where digging and grading take much longer.
pub fn tries(shape: Shape) -> u64 {
    match shape.n() {
        // 6×6 medium comes out of about one dig in 300 (the step past
        // singles there is nearly always a hard one), and a try costs a
        // fraction of a millisecond.
        0..=6 => 2000,
        7..=9 => 400,
        10..=12 => 100,
        13..=16 => 24,
        17..=25 => 8,
        26..=49 => 4,
        _ => 1,
    }
}

/// The seed of try `i`: try 0 uses the caller's seed, so it makes the
/// same puzzle as [`generate`]; later ones are spread by SplitMix64.
/// How far past the caller's deadline the grading of the one puzzle kept
/// may run. The deadline bounds the search; the puzzle it found is graded
/// to the end (a 25×25 extreme one takes a second or two), since an
/// ungraded puzzle tells the player nothing about its level. The cancel
/// flag still stops it at once.
pub(super) const GRADE_GRACE: Duration = Duration::from_secs(10);

/// `limits` for grading the puzzle kept: its deadline at least
/// [`GRADE_GRACE`] from now.
pub(super) fn grading_limits(limits: &Limits) -> Limits {
    let grace = Instant::now().checked_add(GRADE_GRACE);
    Limits {
        deadline: limits.deadline.map(|d| match grace {
            Some(g) => d.max(g),
            None => d,
        }),
        ..limits.clone()
    }
}

/// Try `i` of a graded search: a puzzle dug for `level`'s clues with the
/// try's seed. `None` when the deadline passed and a closest puzzle is
/// already kept (`have_one`): the search ends there with it.
fn dig_try(
    opts: &GenerateOptions,
    level: Level,
    i: u64,
    limits: &Limits,
    have_one: bool,
    patterned: bool,
) -> Result<Option<Generated>, StopReason> {
    opts.progress.begin_try();
    let try_opts = GenerateOptions {
        level,
        seed: try_seed(opts.seed, i),
        ..opts.clone()
    };
    match super::generate_dug(&try_opts, limits, patterned) {
        Ok(made) => Ok(Some(made)),
        Err(StopReason::Deadline) if have_one => Ok(None),
        Err(stop) => Err(stop),
    }
}

pub(super) fn try_seed(seed: u64, i: u64) -> u64 {
    if i == 0 {
        return seed;
    }
    splitmix64(seed ^ i.rotate_left(32))
}

fn index(level: Level) -> usize {
    Level::ALL.iter().position(|&l| l == level).unwrap_or(0)
}

/// Generates a puzzle graded at `opts.level`: up to [`tries`] puzzles from
/// seeds derived from `opts.seed`, deterministic for the same options. A
/// clue range in `opts.clues` is kept for every try; otherwise the clue
/// target starts at the level's range and moves one level's range deeper
/// (or shallower) after a try that graded too easy (or too hard).
///
/// With a rating range in `opts.rating`, a hit must also rate within it.
/// Returns the first hit, else the closest puzzle (fewest levels away,
/// then nearest the rating range; the earliest on a tie). A deadline in
/// `limits` ends the search with the closest puzzle so far — ungraded when
/// it passed while the first one was being graded, an error only when not
/// even one was dug; a cancel ends it with an error. Sides above
/// [`MAX_LOGIC_SIDE`] are not graded: one [`generate`] call, `grade: None`.
pub fn generate_graded(opts: &GenerateOptions, limits: &Limits) -> Result<Graded, StopReason> {
    if opts.shape.n() > MAX_LOGIC_SIDE {
        return generate(opts, limits).map(|generated| Graded {
            generated,
            grade: None,
            rating_range: opts.rating,
        });
    }
    // Extreme above 9×9 too: there a dig rarely gets to minimal without
    // passing Expert (on 9×9 it mostly does, so the tries dig to minimal).
    if opts.clues.is_none()
        && opts.rating.is_none()
        && !opts.minimal
        && (opts.level < Level::Extreme || opts.shape.n() > 9)
    {
        return super::aim::generate_aimed(opts, limits);
    }
    if opts.level == Level::Extreme && opts.rating.is_none() {
        return extreme(opts, limits);
    }
    let target = index(opts.level);
    let mut dig = target;
    let mut best: Option<(usize, Graded)> = None;
    for i in 0..tries(opts.shape) {
        let Some(made) = dig_try(opts, Level::ALL[dig], i, limits, best.is_some(), false)? else {
            break;
        };
        opts.progress.grading();
        // The level first; the rating walk, which costs about as much
        // again, only when a rating range is asked or the try is kept.
        let mut graded_try = grade_unrated_within(&made.puzzle, &made.solution, limits);
        if let Ok(g) = &mut graded_try
            && (opts.rating.is_some()
                || best
                    .as_ref()
                    .is_none_or(|(m, _)| index(g.level).abs_diff(target) * 1000 < *m))
            && let Err(e) = rate_within(g, &made.puzzle, &made.solution, limits)
        {
            graded_try = Err(e);
        }
        let (grade, late) = match graded_try {
            Ok(grade) => (Some(grade), false),
            Err(GradeError::Stopped(StopReason::Deadline)) => (None, true),
            Err(GradeError::Stopped(stop)) => return Err(stop),
            // A generated puzzle always grades; were it not to, it would be
            // the farthest miss, never a hit.
            Err(_) => (None, false),
        };
        let graded = Graded {
            generated: Generated {
                level: opts.level,
                // The request's seed reproduces this puzzle through
                // generate_graded (the try's own seed would not: the clue
                // target moved between tries).
                seed: opts.seed,
                ..made
            },
            grade,
            rating_range: opts.rating,
        };
        // Levels first, then tenths of rating outside the range asked.
        let (miss, got) = match &graded.grade {
            Some(g) => {
                let got = index(g.level);
                (got.abs_diff(target) * 1000 + graded.rating_miss(g), got)
            }
            None => (usize::MAX, target),
        };
        if best.as_ref().is_none_or(|(m, _)| miss < *m) {
            opts.progress.closest(graded.level());
            best = Some((miss, graded));
        }
        if miss == 0 || late {
            break;
        }
        // At the level but outside the rating range: dig as deep again,
        // from the next seed.
        if got < target {
            dig = (dig + 1).min(Level::ALL.len() - 1);
        } else if got > target {
            dig = dig.saturating_sub(1);
        }
        if let Some(stop) = limits.check(0) {
            match stop {
                StopReason::Deadline => break,
                other => return Err(other),
            }
        }
    }
    best.map(|(_, g)| g).ok_or(StopReason::Cancelled)
}

/// Tries a 9×9 (or smaller) Extreme request makes at most. About one
/// minimal 9×9 dig in 130 is Extreme (seeds 200–239, 2026-11-28), and one
/// in several hundred with 180° symmetry (the Sunday daily puzzle's):
/// 1,000 tries missed 5 of 20 symmetric requests. A try costs 0.5–1.5 ms,
/// so even the rare request that uses them all ends within seconds.
const EXTREME_TRIES: u64 = 4000;

/// 9×9 Extreme: minimal digs until one is past Expert. Each try is walked
/// by [`super::aim::batch_level`]; one that walk cannot solve is graded in
/// full, and kept when the grade is Extreme. The closest try is kept (and
/// graded) when the tries or the deadline run out.
fn extreme(opts: &GenerateOptions, limits: &Limits) -> Result<Graded, StopReason> {
    let order = super::aim::past_expert_order(opts.shape.n());
    let target = index(Level::Extreme);
    // The closest try so far: (levels below Extreme, the try, its grade
    // when it was graded); a try the walk could not finish (a deadline)
    // counts as the farthest.
    let mut best: Option<(usize, Generated, Option<Grade>)> = None;
    for i in 0..EXTREME_TRIES {
        let Some(made) = dig_try(opts, opts.level, i, limits, best.is_some(), true)? else {
            break;
        };
        opts.progress.grading();
        let (miss, late, grade) =
            match super::aim::batch_level(&made.puzzle, Level::Expert, &order, limits) {
                Ok(Some(level)) => (target - index(level), false, None),
                // Stuck: the grader decides, given the grace a kept puzzle
                // gets (it is most likely the one kept).
                Ok(None) => {
                    match grade_within(&made.puzzle, &made.solution, &grading_limits(limits)) {
                        Ok(g) => (target - index(g.level), false, Some(g)),
                        Err(GradeError::Stopped(StopReason::Deadline)) => (usize::MAX, true, None),
                        Err(GradeError::Stopped(stop)) => return Err(stop),
                        Err(_) => (usize::MAX, false, None),
                    }
                }
                Err(StopReason::Deadline) => (usize::MAX, true, None),
                Err(stop) => return Err(stop),
            };
        if best.as_ref().is_none_or(|(m, _, _)| miss < *m) {
            let seen = target.checked_sub(miss).map(|l| Level::ALL[l]);
            opts.progress.closest(seen);
            best = Some((miss, made, grade));
        }
        if miss == 0 || late {
            break;
        }
        if let Some(stop) = limits.check(0) {
            match stop {
                StopReason::Deadline => break,
                other => return Err(other),
            }
        }
    }
    let Some((_, made, graded)) = best else {
        return Err(StopReason::Cancelled);
    };
    let grade = match graded {
        Some(grade) => Some(grade),
        None => {
            opts.progress.grading();
            match grade_within(&made.puzzle, &made.solution, &grading_limits(limits)) {
                Ok(grade) => Some(grade),
                Err(GradeError::Stopped(StopReason::Deadline)) => None,
                Err(GradeError::Stopped(stop)) => return Err(stop),
                Err(_) => None,
            }
        }
    };
    opts.progress.closest(grade.as_ref().map(|g| g.level));
    Ok(Graded {
        generated: Generated {
            level: opts.level,
            seed: opts.seed,
            ..made
        },
        grade,
        rating_range: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The puzzle kept is graded past a deadline that has run out (within
    /// the grace), never past a cancel, and without a deadline stays so.
    #[test]
    fn the_kept_puzzle_is_graded_past_the_deadline_not_past_a_cancel() {
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let gone = Limits {
            deadline: Some(Instant::now()),
            ..Limits::none().with_cancel(flag)
        };
        let l = grading_limits(&gone);
        let left = l
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()));
        assert!(left.is_some_and(|d| d > GRADE_GRACE / 2), "{left:?}");
        assert_eq!(l.check(0), Some(StopReason::Cancelled));
        assert_eq!(grading_limits(&Limits::none()).deadline, None);
    }
    use crate::engine::count::is_unique;
    use crate::engine::grade::grade;
    use crate::engine::shape::Shape;

    /// 9×9 Extreme, plain and with the daily puzzle's 180° symmetry: the
    /// puzzle is unique, an independent grade says Extreme with the same
    /// rating, the clues keep the symmetry, and the seed makes it again.
    #[test]
    fn extreme_9x9_is_reached_and_regrades_the_same() {
        use crate::engine::generate::Symmetry;
        for (symmetry, seed) in [(Symmetry::None, 200), (Symmetry::Rotate180, 502)] {
            let mut opts = GenerateOptions::new(Shape::CLASSIC, Level::Extreme, seed);
            opts.symmetry = symmetry;
            let g = generate_graded(&opts, &Limits::none()).unwrap();
            let what = format!("{symmetry:?} seed {seed}");
            assert!(g.hit(), "{what}: got {:?}", g.level());
            let p = &g.generated.puzzle;
            assert_eq!(is_unique(p, &Limits::none()), Some(true), "{what}");
            assert!(p.is_solved_by(&g.generated.solution), "{what}");
            let fresh = grade(p).unwrap();
            let kept = g.grade.as_ref().unwrap();
            assert_eq!(fresh.level, Level::Extreme, "{what}");
            assert_eq!((fresh.rating, fresh.rated_by), (kept.rating, kept.rated_by));
            if symmetry == Symmetry::Rotate180 {
                for c in 0..81 {
                    assert_eq!(p.get(c).is_some(), p.get(80 - c).is_some(), "{what}");
                }
            }
            let again = generate_graded(&opts, &Limits::none()).unwrap();
            assert_eq!(again.generated.puzzle, *p, "{what}");
        }
    }

    #[test]
    fn each_level_is_reached_on_9x9_and_regrades_the_same() {
        for level in [Level::Easy, Level::Medium, Level::Hard, Level::Expert] {
            let opts = GenerateOptions::new(Shape::CLASSIC, level, 11);
            let g = generate_graded(&opts, &Limits::none()).unwrap();
            assert!(g.hit(), "{level}: got {:?}", g.grade.map(|g| g.level));
            let p = &g.generated.puzzle;
            assert_eq!(is_unique(p, &Limits::none()), Some(true));
            assert!(p.is_solved_by(&g.generated.solution));
            // An independent grade (solving again) agrees, rating too
            // (the try kept was rated, though tries are graded unrated).
            let fresh = grade(p).unwrap();
            let kept = g.grade.as_ref().unwrap();
            assert_eq!(fresh.level, level);
            assert_eq!((fresh.rating, fresh.rated_by), (kept.rating, kept.rated_by));
            assert!(kept.rating >= 1.0);
            // The same options give the same puzzle.
            let again = generate_graded(&opts, &Limits::none()).unwrap();
            assert_eq!(again.generated.puzzle, *p);
        }
    }

    #[test]
    fn a_rating_range_is_met_or_the_closest_is_returned() {
        let mut opts = GenerateOptions::new(Shape::CLASSIC, Level::Expert, 5);
        opts.rating = Some((70, 75));
        let g = generate_graded(&opts, &Limits::none()).unwrap();
        assert!(g.hit());
        assert_eq!(g.level(), Some(Level::Expert));
        let p = &g.generated.puzzle;
        assert_eq!(is_unique(p, &Limits::none()), Some(true));
        let again = grade(p).unwrap();
        assert_eq!(again.level, Level::Expert);
        assert!((7.0..=7.5).contains(&again.rating), "{}", again.rating);
        // Medium never rates 7: the closest medium puzzle, not a hit.
        opts.level = Level::Medium;
        let g = generate_graded(&opts, &Limits::none()).unwrap();
        assert!(!g.hit());
        let got = g.grade.unwrap();
        assert_eq!(got.level, Level::Medium);
        assert!(got.rating < 7.0);
    }

    #[test]
    fn small_boards_reach_their_levels_too() {
        let shape = Shape::new(2, 3).unwrap();
        let opts = GenerateOptions::new(shape, Level::Medium, 3);
        let g = generate_graded(&opts, &Limits::none()).unwrap();
        let got = g.grade.as_ref().map(|g| g.level);
        // 6×6 puzzles rarely need more than subsets; medium is reachable.
        assert_eq!(got, Some(Level::Medium));
    }

    #[test]
    fn a_cancel_is_an_error_and_seeds_spread() {
        let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let opts = GenerateOptions::new(Shape::CLASSIC, Level::Expert, 1);
        let r = generate_graded(&opts, &Limits::none().with_cancel(cancel));
        assert_eq!(r.unwrap_err(), StopReason::Cancelled);
        assert_eq!(try_seed(7, 0), 7);
        assert_ne!(try_seed(7, 1), try_seed(7, 2));
    }
}
