//! Difficulty: the technique path a person would take, graded three ways —
//! a [`Level`] from the hardest technique needed, a score summed over the
//! path (scaled by the number of cells, so "easy" means the same on 4×4 and
//! 25×25), and an SE-style rating of the hardest step (1.0 – 11.x) on the
//! walk Sudoku Explainer's family would take (`grade/explainer.rs`).
//!
//! When the implemented techniques stall, the path continues with a
//! clearly labelled guess (the solution's value in the empty cell with the
//! fewest candidates), which makes the puzzle Extreme.

use std::collections::BTreeMap;

pub(crate) mod explainer;

use crate::engine::level::Level;
use crate::engine::logic::{Board, BoardError, PathError, Step, Technique, cores, full_path};
use crate::engine::{Grid, Limits, NoTrace, Outcome, Puzzle, StopReason, solve};

/// The SE-style rating of a guess.
pub const GUESS_RATING: f32 = 10.0;

/// A puzzle's grade.
#[derive(Debug, Clone, PartialEq)]
pub struct Grade {
    /// The highest level of the techniques used (Extreme when a guess was
    /// needed).
    pub level: Level,
    /// The path's score (technique weights × uses, × 81 / cells).
    pub score: u32,
    /// The SE-style rating: the hardest step of the Explainer-order walk
    /// (Sudoku Explainer's order of rules, each rule's easiest step), which
    /// may differ from [`Grade::path`].
    pub rating: f32,
    /// The technique of the step that set [`Grade::rating`] on the
    /// Explainer-order walk (None for a guess, or with nothing to do).
    pub rated_by: Option<Technique>,
    /// The hardest technique used (None when the puzzle needed a guess or
    /// nothing at all).
    pub hardest: Option<Technique>,
    /// How often each technique was used.
    pub steps_by_technique: BTreeMap<Technique, usize>,
    /// Guesses made.
    pub guesses: usize,
    /// The path, step by step (guesses included, as [`Technique::Guess`]).
    pub path: Vec<Step>,
}

/// Why a puzzle cannot be graded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GradeError {
    /// The position is broken or too large.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// The puzzle does not have exactly one solution.
    #[error("only puzzles with exactly one solution are graded")]
    NotUnique,
    /// A deadline or cancel stopped the grading.
    #[error("grading stopped: {0}")]
    Stopped(StopReason),
}

impl From<PathError> for GradeError {
    fn from(e: PathError) -> GradeError {
        match e {
            PathError::Board(b) => GradeError::Board(b),
            PathError::Stopped(stop) => GradeError::Stopped(stop),
        }
    }
}

/// The SE-style rating of a technique (our own table, in the spirit of
/// Sudoku Explainer's scale).
pub fn rating(t: Technique) -> f32 {
    match t {
        Technique::FullHouse => 1.0,
        Technique::HiddenSingle => 1.5,
        Technique::NakedSingle => 2.3,
        Technique::Pointing => 2.6,
        Technique::Claiming => 2.8,
        Technique::LockedPair => 2.9,
        Technique::NakedPair => 3.0,
        Technique::LockedTriple => 3.1,
        Technique::Fish(2) => 3.2,
        Technique::HiddenPair => 3.4,
        Technique::FinnedFish(2) => 3.4,
        Technique::SashimiFish(2) => 3.5,
        Technique::NakedTriple => 3.6,
        Technique::Fish(3) => 3.8,
        Technique::HiddenTriple => 4.0,
        Technique::Skyscraper => 4.0,
        Technique::FinnedFish(3) => 4.0,
        Technique::TwoStringKite => 4.1,
        Technique::SashimiFish(3) => 4.1,
        Technique::TurbotFish => 4.2,
        Technique::XYWing => 4.2,
        Technique::XYZWing => 4.4,
        Technique::WWing => 4.4,
        Technique::LargeWing(4) => 5.5,
        Technique::LargeWing(5) => 6.2,
        Technique::LargeWing(6) => 6.6,
        Technique::LargeWing(_) => 7.5,
        Technique::EmptyRectangle => 4.5,
        Technique::RemotePair => 4.5,
        Technique::ColorTrap => 4.5,
        Technique::ColorWrap => 4.7,
        Technique::XChain => 6.6,
        Technique::XYChain => 6.6,
        Technique::NakedQuad => 5.0,
        Technique::Fish(4) => 5.2,
        Technique::HiddenQuad => 5.4,
        // Beyond a quad each size adds 0.2 (boards over 9×9 only).
        Technique::NakedSubset(k) => 5.0 + 0.2 * f32::from(k.saturating_sub(4)),
        Technique::HiddenSubset(k) => 5.4 + 0.2 * f32::from(k.saturating_sub(4)),
        Technique::FinnedFish(4) => 5.4,
        Technique::SashimiFish(4) => 5.5,
        Technique::SiameseFinnedFish(3) | Technique::SiameseSashimiFish(3) => 4.2,
        Technique::Fish(_)
        | Technique::FinnedFish(_)
        | Technique::SashimiFish(_)
        | Technique::SiameseFinnedFish(_)
        | Technique::SiameseSashimiFish(_) => 5.6,
        Technique::UniqueRectangle(1) => 4.5,
        Technique::UniqueRectangle(_) | Technique::HiddenRectangle => 4.6,
        Technique::AvoidableRectangle(_) => 4.7,
        Technique::DualTwoStringKite | Technique::DualEmptyRectangle => 4.6,
        Technique::MultiColors1 | Technique::MultiColors2 => 5.5,
        Technique::BugPlusOne => 5.6,
        Technique::SueDeCoq => 5.0,
        Technique::ContinuousNiceLoop | Technique::DiscontinuousNiceLoop | Technique::Aic => 7.0,
        Technique::GroupedContinuousNiceLoop
        | Technique::GroupedDiscontinuousNiceLoop
        | Technique::GroupedAic => 7.3,
        Technique::AlsXz => 7.5,
        Technique::AlsXyWing => 7.7,
        Technique::AlsChain => 7.9,
        Technique::DeathBlossom => 8.0,
        // Our own places for the fish Sudoku Explainer does not know: after
        // the ALS techniques, before forcing chains.
        Technique::FrankenFish(_) => 8.0,
        Technique::FinnedFrankenFish(_) | Technique::SiameseFinnedFrankenFish(_) => 8.1,
        Technique::MutantFish(_) => 8.1,
        Technique::FinnedMutantFish(_) | Technique::SiameseFinnedMutantFish(_) => 8.2,
        // Not in Sudoku Explainer either: a forcing chain from each fin (or
        // body cell) told through a fish, between the fish and the forcing
        // chains (8.3); its chains add SE's length bonus (step_rating).
        Technique::KrakenFish(_) => 8.2,
        Technique::ForcingChain => 8.3,
        Technique::TemplateSet | Technique::TemplateDelete => 8.5,
        Technique::DynamicForcingChain => 8.5,
        Technique::DynamicForcingChainPlus => 9.0,
        Technique::NestedForcingChain(k) => 8.5 + 0.5 * f32::from(k),
        Technique::Guess => GUESS_RATING,
    }
}

/// The rating of one step of the solving path: its technique's
/// [`rating`], plus Sudoku Explainer's length bonus for a chain's links and
/// its two ends — so longer chains and forcing chains rate higher (6 links
/// add 0.1, 8 add 0.2, 12 add 0.3 …). Patterns of fixed size have no links
/// and no bonus. (A puzzle's rating, [`Grade::rating`], comes from the
/// Explainer-order walk.)
pub fn step_rating(step: &Step) -> f32 {
    if let Some(nodes) = crate::engine::logic::nets::nodes_of(step) {
        return rating(step.technique) + explainer::length_bonus(nodes);
    }
    let links = step.highlights.links.len();
    rating(step.technique)
        + if links == 0 {
            0.0
        } else {
            explainer::length_bonus(links + 2)
        }
}

/// HoDoKu-style score weight of one use of a technique.
pub fn weight(t: Technique) -> u32 {
    match t {
        Technique::FullHouse => 4,
        Technique::HiddenSingle => 14,
        Technique::NakedSingle => 4,
        Technique::Pointing | Technique::Claiming => 50,
        Technique::LockedPair => 40,
        Technique::LockedTriple => 60,
        Technique::NakedPair => 60,
        Technique::HiddenPair => 70,
        Technique::NakedTriple => 80,
        Technique::HiddenTriple => 100,
        Technique::NakedQuad => 120,
        Technique::HiddenQuad => 150,
        Technique::NakedSubset(k) => 120 + 20 * u32::from(k.saturating_sub(4)),
        Technique::HiddenSubset(k) => 150 + 20 * u32::from(k.saturating_sub(4)),
        Technique::Fish(2) => 140,
        Technique::Fish(3) => 150,
        Technique::Fish(4) => 160,
        Technique::FinnedFish(_) | Technique::SashimiFish(_) => 170,
        Technique::SiameseFinnedFish(_) | Technique::SiameseSashimiFish(_) => 180,
        Technique::Skyscraper | Technique::TurbotFish | Technique::EmptyRectangle => 130,
        Technique::TwoStringKite | Technique::WWing => 150,
        Technique::RemotePair => 110,
        Technique::XYWing => 160,
        Technique::XYZWing => 180,
        Technique::LargeWing(k) => 200 + 20 * u32::from(k.saturating_sub(4)),
        Technique::ColorTrap => 150,
        Technique::ColorWrap => 170,
        Technique::XChain => 250,
        Technique::XYChain => 260,
        Technique::Fish(_) => 200,
        Technique::DualTwoStringKite | Technique::DualEmptyRectangle => 160,
        Technique::MultiColors1 | Technique::MultiColors2 => 200,
        Technique::UniqueRectangle(1) | Technique::UniqueRectangle(2) => 100,
        Technique::UniqueRectangle(_) | Technique::HiddenRectangle => 150,
        Technique::AvoidableRectangle(_) => 150,
        Technique::BugPlusOne => 100,
        Technique::SueDeCoq => 250,
        Technique::ContinuousNiceLoop | Technique::DiscontinuousNiceLoop | Technique::Aic => 280,
        Technique::GroupedContinuousNiceLoop
        | Technique::GroupedDiscontinuousNiceLoop
        | Technique::GroupedAic => 300,
        Technique::AlsXz => 300,
        Technique::AlsXyWing => 320,
        Technique::AlsChain => 340,
        Technique::DeathBlossom => 360,
        // HoDoKu's scores.
        Technique::FrankenFish(2) => 300,
        Technique::FrankenFish(3) => 350,
        Technique::FrankenFish(4) => 370,
        Technique::FinnedFrankenFish(2) => 390,
        Technique::FinnedFrankenFish(3) | Technique::SiameseFinnedFrankenFish(3) => 410,
        Technique::FinnedFrankenFish(4) | Technique::SiameseFinnedFrankenFish(4) => 430,
        Technique::MutantFish(2..=4) => 450,
        Technique::FrankenFish(_)
        | Technique::FinnedFrankenFish(_)
        | Technique::SiameseFinnedFrankenFish(_)
        | Technique::MutantFish(_)
        | Technique::FinnedMutantFish(_)
        | Technique::SiameseFinnedMutantFish(_) => 470,
        // HoDoKu's score for both types.
        Technique::KrakenFish(_) => 500,
        Technique::ForcingChain => 500,
        Technique::TemplateSet | Technique::TemplateDelete => 600,
        Technique::DynamicForcingChain => 700,
        Technique::DynamicForcingChainPlus => 800,
        Technique::NestedForcingChain(k) => 800 + 200 * u32::from(k),
        Technique::Guess => GUESS_WEIGHT,
    }
}

/// Score of a guess.
const GUESS_WEIGHT: u32 = 10_000;

/// Grades a puzzle with exactly one solution.
pub fn grade(puzzle: &Puzzle) -> Result<Grade, GradeError> {
    let Outcome::Solved(solution) = solve(puzzle, &Limits::none(), &mut NoTrace) else {
        return Err(GradeError::NotUnique);
    };
    grade_with(puzzle, &solution)
}

/// Grades a puzzle whose (unique) solution is known.
pub fn grade_with(puzzle: &Puzzle, solution: &Grid) -> Result<Grade, GradeError> {
    grade_within(puzzle, solution, &Limits::none())
}

/// [`grade_with`] under a deadline or cancel flag (checked before every
/// step of the path; grading a large board can take minutes).
pub fn grade_within(
    puzzle: &Puzzle,
    solution: &Grid,
    limits: &Limits,
) -> Result<Grade, GradeError> {
    let board = board_of(puzzle)?;
    let (grade, rated) = if board.n() >= TWO_THREADS_FROM || cores() >= 2 {
        both_walks(&board, solution, limits)
    } else {
        (
            unrated(&board, solution, limits),
            explainer::rating(&board, solution, limits),
        )
    };
    let mut grade = grade?;
    (grade.rating, grade.rated_by) = rated?;
    Ok(grade)
}

/// The smallest side whose grades walk the path and the rating walk on two
/// threads even on one core. Each walk takes about half of grading a large
/// board (a 25×25 extreme puzzle: 1–4 s of CPU), and the two share nothing
/// there. Up to 9×9 the two walks meet the same positions where the
/// hardest steps are, and the forcing nets, static forcing chains and
/// implication tables found there are kept for both (`logic/kept.rs`; a
/// walk that needs an answer the other is still searching waits for it),
/// which halves grading the hardest: there the walks run on two threads
/// when there are two cores, else one after the other.
const TWO_THREADS_FROM: usize = 10;

type Rated = Result<(f32, Option<Technique>), PathError>;

/// The path walk here and the rating walk on a second thread (both on this
/// one when no thread can be had); the answers are those of the two walks
/// one after the other: all they share is the kept answers of the dearest
/// searches (`logic/kept.rs`), the same whichever walk searched them.
fn both_walks(
    board: &Board,
    solution: &Grid,
    limits: &Limits,
) -> (Result<Grade, GradeError>, Rated) {
    std::thread::scope(|scope| {
        let rater = std::thread::Builder::new()
            .name("rating walk".into())
            .spawn_scoped(scope, || explainer::rating(board, solution, limits));
        let grade = unrated(board, solution, limits);
        let rated = match rater {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => explainer::rating(board, solution, limits),
        };
        (grade, rated)
    })
}

/// [`grade_within`] without the rating walk, which costs about as much
/// again: `rating` is 0 and `rated_by` None until [`rate_within`] fills
/// them in. For callers that look at the level first (graded generation).
pub(crate) fn grade_unrated_within(
    puzzle: &Puzzle,
    solution: &Grid,
    limits: &Limits,
) -> Result<Grade, GradeError> {
    unrated(&board_of(puzzle)?, solution, limits)
}

/// The grade of `board`'s path, without the rating.
fn unrated(board: &Board, solution: &Grid, limits: &Limits) -> Result<Grade, GradeError> {
    let path = full_path(board, solution, limits)?;
    let mut by: BTreeMap<Technique, usize> = BTreeMap::new();
    let mut raw: u64 = 0;
    let mut hardest: Option<(Technique, f32)> = None;
    let mut guesses = 0;
    let mut level = Level::Easy;
    for step in &path {
        let t = step.technique;
        raw += u64::from(weight(t));
        if t == Technique::Guess {
            guesses += 1;
            continue;
        }
        *by.entry(t).or_default() += 1;
        level = level.max(t.level());
        let r = step_rating(step);
        if hardest.is_none_or(|(_, h)| r > h) {
            hardest = Some((t, r));
        }
    }
    let cells = board.shape().cells() as u64;
    let score = u32::try_from(raw * 81 / cells.max(1)).unwrap_or(u32::MAX);
    let level = if guesses > 0 { Level::Extreme } else { level };
    Ok(Grade {
        level,
        score,
        rating: 0.0,
        rated_by: None,
        hardest: hardest.map(|(t, _)| t),
        steps_by_technique: by,
        guesses,
        path,
    })
}

/// Fills in the rating of a grade from [`grade_unrated_within`].
pub(crate) fn rate_within(
    grade: &mut Grade,
    puzzle: &Puzzle,
    solution: &Grid,
    limits: &Limits,
) -> Result<(), GradeError> {
    (grade.rating, grade.rated_by) = explainer::rating(&board_of(puzzle)?, solution, limits)?;
    Ok(())
}

/// The puzzle's board, known to be unique.
fn board_of(puzzle: &Puzzle) -> Result<Board, GradeError> {
    let mut board = Board::from_puzzle(puzzle)?;
    board.set_known_unique(true);
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::generate::{GenerateOptions, generate};
    use crate::engine::logic::find_all;
    use crate::engine::{Shape, Value};

    #[test]
    fn ratings_follow_the_solving_order_within_families() {
        assert!(rating(Technique::FullHouse) < rating(Technique::NakedSingle));
        assert!(rating(Technique::Fish(2)) < rating(Technique::Fish(3)));
        assert!(rating(Technique::Fish(3)) < rating(Technique::Fish(4)));
        assert!(rating(Technique::NakedPair) < rating(Technique::NakedTriple));
        assert!(rating(Technique::HiddenTriple) < rating(Technique::HiddenQuad));
        assert!(GUESS_RATING > rating(Technique::SashimiFish(4)));
    }

    #[test]
    fn longer_chains_rate_higher() {
        use crate::engine::logic::{Highlights, Link, Step};
        let link = Link {
            from: (0, Value::new(1).unwrap()),
            to: (1, Value::new(1).unwrap()),
            strong: true,
        };
        let chain = |links: usize| Step {
            technique: Technique::XChain,
            placements: Vec::new(),
            eliminations: Vec::new(),
            highlights: Highlights {
                links: vec![link; links],
                ..Highlights::default()
            },
            explanation: String::new(),
        };
        let base = rating(Technique::XChain);
        let bonus = |links| ((step_rating(&chain(links)) - base) * 10.0).round() as i32;
        assert_eq!(bonus(0), 0);
        assert_eq!(bonus(4), 0);
        assert_eq!(bonus(6), 1);
        assert_eq!(bonus(8), 2);
        assert_eq!(bonus(12), 3);
        assert_eq!(bonus(16), 4);
        assert_eq!(bonus(17), 5);
        assert_eq!(bonus(23), 5);
    }

    #[test]
    fn singles_only_puzzles_are_easy_and_sizes_compare() {
        // A puzzle with one blank: a full house on any size scores alike.
        for shape in [
            Shape::square(2).unwrap(),
            Shape::CLASSIC,
            Shape::square(4).unwrap(),
        ] {
            let g = generate(
                &GenerateOptions::new(shape, Level::Easy, 1),
                &Limits::none(),
            )
            .unwrap();
            let mut p = g.solution.to_puzzle();
            p.set(0, None).unwrap();
            let grade = grade(&p).unwrap();
            assert_eq!(grade.level, Level::Easy);
            assert_eq!(grade.hardest, Some(Technique::FullHouse));
            assert_eq!(grade.guesses, 0);
            assert_eq!(grade.rating, 1.0);
            assert_eq!(grade.score, (4 * 81 / shape.cells()) as u32);
        }
    }

    #[test]
    fn large_boards_grade_the_same_on_two_threads_as_on_one() {
        let shape = Shape::square(4).unwrap();
        for seed in [3, 4] {
            let mut opts = GenerateOptions::new(shape, Level::Expert, seed);
            opts.minimal = true;
            let g = generate(&opts, &Limits::none()).unwrap();
            let board = board_of(&g.puzzle).unwrap();
            assert!(board.n() >= TWO_THREADS_FROM);
            let mut one = unrated(&board, &g.solution, &Limits::none()).unwrap();
            (one.rating, one.rated_by) =
                explainer::rating(&board, &g.solution, &Limits::none()).unwrap();
            let two = grade_within(&g.puzzle, &g.solution, &Limits::none()).unwrap();
            assert_eq!(two, one, "seed {seed}");
            assert!(two.rating > 1.0 && two.rated_by.is_some(), "seed {seed}");
        }
    }

    /// Up to 9×9 the two walks share the dearest searches' answers, on two
    /// threads each waiting for an answer the other is searching: the
    /// grade is the one the walks give one after the other (which then
    /// read the answers kept).
    #[test]
    fn a_hard_9x9_grades_the_same_on_two_threads_as_on_one() {
        // Forum hardest (SE 11+), and a generated extreme one (SE 8.9).
        for text in [
            "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6",
            ".3.......9...4.....6....958........47..3.91.26...1..7.....958...7916....4....7...",
        ] {
            let p = crate::engine::format::parse_one(text, "grade").unwrap();
            let Outcome::Solved(solution) = solve(&p, &Limits::none(), &mut NoTrace) else {
                panic!("unique")
            };
            let board = board_of(&p).unwrap();
            let (two, rated) = both_walks(&board, &solution, &Limits::none());
            let mut two = two.unwrap();
            (two.rating, two.rated_by) = rated.unwrap();
            let mut one = unrated(&board, &solution, &Limits::none()).unwrap();
            (one.rating, one.rated_by) =
                explainer::rating(&board, &solution, &Limits::none()).unwrap();
            assert_eq!(two, one, "{text}");
            assert_eq!((two.level, two.guesses), (Level::Extreme, 0), "{text}");
        }
    }

    /// A 9×9 grade told to stop stops, with the walk on its second
    /// thread, whether the stop comes before it starts or while the two
    /// walks search forcing nets.
    #[test]
    fn a_9x9_grade_stops_when_told() {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicBool, Ordering};
        let text =
            "98.76.5....7..4.....6....3.7..25.8....8.41...........9.2...5.....569.2...........";
        let p = crate::engine::format::parse_one(text, "grade").unwrap();
        let Outcome::Solved(solution) = solve(&p, &Limits::none(), &mut NoTrace) else {
            panic!("unique")
        };
        let flag = Arc::new(AtomicBool::new(true));
        let cancelled = Limits::none().with_cancel(Arc::clone(&flag));
        assert!(matches!(
            grade_within(&p, &solution, &cancelled),
            Err(GradeError::Stopped(StopReason::Cancelled))
        ));
        flag.store(false, Ordering::Relaxed);
        let stopper = {
            let flag = Arc::clone(&flag);
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(30));
                flag.store(true, Ordering::Relaxed);
            })
        };
        let r = grade_within(&p, &solution, &cancelled);
        stopper.join().unwrap();
        // Stopped, or (on a machine fast enough to finish first) the grade.
        match r {
            Err(GradeError::Stopped(StopReason::Cancelled)) => {}
            Ok(g) => assert_eq!(g, grade(&p).unwrap()),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn hardest_step_sets_level_and_nets_rate_the_hardest() {
        let hard =
            "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";
        let nums: Vec<usize> = hard
            .bytes()
            .map(|b| if b == b'.' { 0 } else { (b - b'0') as usize })
            .collect();
        let p = Puzzle::from_numbers(Shape::CLASSIC, &nums).unwrap();
        let g = grade(&p).unwrap();
        assert_eq!(g.level, Level::Extreme, "{g:?}");
        // SE rates it 11+; nested forcing chains solve it, no guess.
        assert_eq!(g.guesses, 0);
        assert!(g.rating >= 10.5, "{}", g.rating);
        assert!(matches!(g.rated_by, Some(Technique::NestedForcingChain(_))));
        // Not unique: refused.
        let mut two = p.clone();
        for c in 0..81 {
            two.set(c, None).unwrap();
        }
        assert_eq!(grade(&two), Err(GradeError::NotUnique));
        // Every step on the path is sound (placements and eliminations agree
        // with the solution) — checked by re-walking with find_all.
        let Outcome::Solved(sol) = solve(&p, &Limits::none(), &mut NoTrace) else {
            panic!()
        };
        let b = Board::from_puzzle(&p).unwrap();
        for t in Technique::ALL {
            for s in find_all(&b, t) {
                for &(c, v) in &s.eliminations {
                    assert_ne!(sol.get(c), v);
                }
                let _: Vec<Value> = s.placements.iter().map(|&(_, v)| v).collect();
            }
        }
    }

    #[test]
    fn a_cancel_or_a_passed_deadline_stops_grading() {
        let g = generate(
            &GenerateOptions::new(Shape::CLASSIC, crate::engine::Level::Medium, 4),
            &Limits::none(),
        )
        .unwrap();
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let cancelled = Limits::none().with_cancel(flag);
        assert_eq!(
            grade_within(&g.puzzle, &g.solution, &cancelled),
            Err(GradeError::Stopped(StopReason::Cancelled))
        );
        let late = Limits::timeout(std::time::Duration::ZERO);
        assert_eq!(
            grade_within(&g.puzzle, &g.solution, &late),
            Err(GradeError::Stopped(StopReason::Deadline))
        );
        // Unlimited, it grades as grade_with does.
        assert_eq!(
            grade_within(&g.puzzle, &g.solution, &Limits::none()),
            grade_with(&g.puzzle, &g.solution)
        );
    }
}
