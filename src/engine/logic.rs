//! Human-style solving: techniques that each find every instance of their
//! pattern in a position and explain it as a [`Step`], for any shape the
//! [`Board`] holds (up to 64×64). Each family lives in its own file.

mod aic;
pub(crate) mod als;
mod barren;
pub(crate) mod board;
mod cellset;
pub(crate) mod chains;
pub(crate) mod coloring;
mod effect;
pub(crate) mod fish;
pub(crate) mod forcing;
pub(crate) mod general_fish;
pub(crate) mod intersections;
mod kept;
pub(crate) mod kraken;
pub(crate) mod nets;
mod nice_loops;
pub(crate) mod single_digit;
pub(crate) mod singles;
pub(crate) mod step;
pub(crate) mod subsets;
mod tables;
mod tarjan;
pub(crate) mod templates;
pub(crate) mod traced;
pub(crate) mod uniqueness;
pub(crate) mod wings;

pub(crate) use board::bits;
pub use board::{Board, BoardError, MAX_LOGIC_SIDE};
pub use effect::{EFFECT_MARK, Effect, EffectError};
pub use fish::MAX_BASIC_SIZE;
pub use step::{CandidateRole, Highlights, Link, Step, Technique, UnitRole};
pub use subsets::MAX_SUBSET_SIZE;
pub use traced::count_traced;
// For the TUI's worker, which reads the search loop's own report.
#[cfg(feature = "tui")]
pub(crate) use traced::solve_logic;

use crate::engine::grid::Grid;
use crate::engine::limits::{Limits, StopReason};

/// Choices a technique search takes, as HoDoKu's options of the same
/// meaning. The solver, hints and grader use the default: everything on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchOptions {
    /// Grouped nice loops and AICs may pass through almost locked sets.
    pub als_in_chains: bool,
    /// ALS-XY-Wings and Death Blossoms may use ALSs that share cells (never
    /// the cells of a restricted common value). ALS chains always may.
    pub als_overlap: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            als_in_chains: true,
            als_overlap: true,
        }
    }
}

/// Every step of technique `t` in the position.
pub fn find_all(board: &Board, t: Technique) -> Vec<Step> {
    find_all_with(board, t, SearchOptions::default())
}

/// Every step of technique `t` in the position, searched with `options`.
/// Each step's highlights give every candidate and unit a role, and its
/// explanation ends with its effect ([`Step::effect`]).
pub fn find_all_with(board: &Board, t: Technique, options: SearchOptions) -> Vec<Step> {
    finished(board, search(board, t, options, false))
}

/// `steps` of `board` made whole, as [`find_all`] gives them: every role
/// and the effect text.
pub(crate) fn finished(board: &Board, mut steps: Vec<Step>) -> Vec<Step> {
    for s in &mut steps {
        s.finish(board.n());
    }
    steps
}

/// The steps of technique `t` as its family finds them; with `first`, a
/// family may stop once it knows its first step (the one [`first_productive`]
/// takes), the same step it would give first in a full search.
fn search(board: &Board, t: Technique, options: SearchOptions, first: bool) -> Vec<Step> {
    use general_fish::Family::{Franken, Mutant};
    match t {
        Technique::FullHouse => singles::full_houses(board),
        Technique::NakedSingle => singles::naked_singles(board),
        Technique::HiddenSingle => singles::hidden_singles(board),
        Technique::Pointing => intersections::pointing(board),
        Technique::Claiming => intersections::claiming(board),
        Technique::LockedPair => subsets::locked_subsets(board, 2),
        Technique::LockedTriple => subsets::locked_subsets(board, 3),
        Technique::NakedPair => subsets::naked(board, 2),
        Technique::NakedTriple => subsets::naked(board, 3),
        Technique::NakedQuad => subsets::naked(board, 4),
        Technique::HiddenPair => subsets::hidden(board, 2),
        Technique::HiddenTriple => subsets::hidden(board, 3),
        Technique::HiddenQuad => subsets::hidden(board, 4),
        Technique::NakedSubset(k) => subsets::naked(board, k.into()),
        Technique::HiddenSubset(k) => subsets::hidden(board, k.into()),
        Technique::Skyscraper => single_digit::skyscrapers(board),
        Technique::TwoStringKite => single_digit::kites(board),
        Technique::TurbotFish => single_digit::turbot_fish(board),
        Technique::EmptyRectangle => single_digit::empty_rectangles(board),
        Technique::XYWing => wings::xy_wings(board),
        Technique::XYZWing => wings::xyz_wings(board),
        Technique::WWing => wings::w_wings(board),
        Technique::LargeWing(k) => wings::large_wings(board, k.into()),
        Technique::RemotePair => wings::remote_pairs(board),
        Technique::ColorTrap => coloring::traps(board),
        Technique::ColorWrap => coloring::wraps(board),
        Technique::XChain => chains::x_chains(board),
        Technique::XYChain => chains::xy_chains(board),
        Technique::Fish(k) => fish::basic(board, k.into()),
        Technique::FinnedFish(k) => fish::finned(board, k.into()),
        Technique::SashimiFish(k) => fish::sashimi(board, k.into()),
        Technique::SiameseFinnedFish(k) => fish::siamese(board, k.into(), false),
        Technique::SiameseSashimiFish(k) => fish::siamese(board, k.into(), true),
        Technique::FrankenFish(k) => general_fish::fish(board, Franken, k.into(), false),
        Technique::FinnedFrankenFish(k) => general_fish::fish(board, Franken, k.into(), true),
        Technique::MutantFish(k) => general_fish::fish(board, Mutant, k.into(), false),
        Technique::FinnedMutantFish(k) => general_fish::fish(board, Mutant, k.into(), true),
        Technique::SiameseFinnedFrankenFish(k) => general_fish::siamese(board, Franken, k.into()),
        Technique::SiameseFinnedMutantFish(k) => general_fish::siamese(board, Mutant, k.into()),
        Technique::KrakenFish(kind) => kraken::kraken_fish(board, kind),
        Technique::DualTwoStringKite => single_digit::dual_kites(board),
        Technique::DualEmptyRectangle => single_digit::dual_empty_rectangles(board),
        Technique::MultiColors1 => coloring::multi_colors(board, 1),
        Technique::MultiColors2 => coloring::multi_colors(board, 2),
        Technique::UniqueRectangle(k) => uniqueness::unique_rectangles(board, k),
        Technique::HiddenRectangle => uniqueness::hidden_rectangles(board),
        Technique::AvoidableRectangle(k) => uniqueness::avoidable_rectangles(board, k),
        Technique::BugPlusOne => uniqueness::bug_plus_one(board),
        Technique::ContinuousNiceLoop
        | Technique::DiscontinuousNiceLoop
        | Technique::Aic
        | Technique::GroupedContinuousNiceLoop
        | Technique::GroupedDiscontinuousNiceLoop
        | Technique::GroupedAic => nice_loops::steps(board, t, options, first),
        Technique::AlsXz => als::als_xz(board),
        Technique::AlsXyWing => als::als_xy_wings(board, options.als_overlap),
        Technique::AlsChain => als::als_chains(board),
        Technique::DeathBlossom => als::death_blossoms(board, options.als_overlap),
        Technique::SueDeCoq => als::sue_de_coq(board),
        Technique::ForcingChain => forcing::forcing_chains(board),
        Technique::TemplateSet => templates::templates(board, true),
        Technique::TemplateDelete => templates::templates(board, false),
        Technique::DynamicForcingChain
        | Technique::DynamicForcingChainPlus
        | Technique::NestedForcingChain(_) => nets::nets(board, t),
        Technique::Guess => Vec::new(),
    }
}

/// Every step of technique `t` as its family finds them, explanations
/// unfinished (for walks that only apply steps).
pub(crate) fn search_steps(board: &Board, t: Technique) -> Vec<Step> {
    search(board, t, SearchOptions::default(), false)
}

pub(crate) use tables::Proved;

/// What all the nice loops and AICs of the position remove and set, in
/// one batch, without finding the chains ([`Proved`]): those through
/// single candidates alone when `grouped` is false, else those through
/// group nodes and ALSs as well. `None` above the tables' side (9×9),
/// where chains are searched another way. For walks that only apply steps
/// and need not know which chain did it.
pub(crate) fn chains_proved(board: &Board, grouped: bool) -> Option<Proved> {
    let nodes = if grouped {
        nice_loops::ChainNodes::GroupsAndAls
    } else {
        nice_loops::ChainNodes::Candidates
    };
    (board.n() <= tables::MAX_TABLE_SIDE).then(|| tables::proved(board, nodes))
}

/// The first productive step of technique `t`, as [`next_step`] would
/// take it but without finishing its explanation (for walks that only
/// apply steps, such as the generator's level-capped walk).
pub(crate) fn first_productive(board: &Board, t: Technique) -> Option<Step> {
    search(board, t, SearchOptions::default(), true)
        .into_iter()
        .find(Step::is_productive)
}

/// The first productive step, trying techniques easiest first (those of
/// [`Technique::for_side`]). `None` also when the board's limits
/// ([`Board::set_limits`]) stopped the search: check [`Board::stopped`].
pub fn next_step(board: &Board) -> Option<Step> {
    for t in Technique::for_side(board.n()) {
        if board.stopped() {
            return None;
        }
        // Only the step taken is finished (its roles and effect text):
        // finishing does not change what a step places or removes.
        if let Some(mut s) = first_productive(board, t) {
            s.finish(board.n());
            return Some(s);
        }
    }
    None
}

/// A labelled guess for when no technique applies: the solution's value in
/// the empty cell with the fewest candidates (the first such cell). `None`
/// when the board is solved.
pub fn guess_step(board: &Board, solution: &Grid) -> Option<Step> {
    let c = (0..board.shape().cells())
        .filter(|&c| board.value(c).is_none())
        .min_by_key(|&c| board.count(c))?;
    let v = solution.get(c);
    let mut step = Step {
        technique: Technique::Guess,
        placements: vec![(c, v)],
        eliminations: Vec::new(),
        highlights: Highlights {
            cells: vec![c],
            ..Highlights::default()
        },
        explanation: format!(
            "{}: no known technique applies; {} is {} (from the solution)",
            Technique::Guess.name(),
            board.cell_name(c),
            board.symbol(v.index())
        ),
    };
    step.finish(board.n());
    Some(step)
}

/// Why [`full_path`] gave no path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PathError {
    /// The position (or the solution given) is wrong.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A deadline or cancel stopped the walk.
    #[error("the logic solver stopped: {0}")]
    Stopped(StopReason),
}

/// The whole way from `board` to the solution: the easiest step each time,
/// and a labelled [`guess_step`] when none applies. Checks the position
/// after every step; a [`PathError::Board`] means the position (or the
/// solution) is wrong. `limits`' deadline and cancel flag are checked
/// before every step and inside the techniques' searches
/// ([`Board::set_limits`]), so even a large board's walk stops promptly.
pub fn full_path(board: &Board, solution: &Grid, limits: &Limits) -> Result<Vec<Step>, PathError> {
    walk_with(
        board,
        solution,
        limits,
        |b| next_step(b).into_iter().collect(),
        false,
    )
}

/// The cores this process may use (asked once).
pub(crate) fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The walk behind [`full_path`], with the steps of each position chosen
/// by `next` (applied in order, the position checked after them; none
/// means stuck). When stuck, a labelled
/// [`guess_step`] is taken, and the walk ends there when `end_at_guess`.
/// Limits and the position are checked as [`full_path`] says.
pub(crate) fn walk_with(
    board: &Board,
    solution: &Grid,
    limits: &Limits,
    mut next: impl FnMut(&Board) -> Vec<Step>,
    end_at_guess: bool,
) -> Result<Vec<Step>, PathError> {
    let mut board = board.clone();
    board.set_limits(limits);
    board.check()?;
    let mut steps = Vec::new();
    while !board.is_solved() {
        if let Some(stop) = limits.check(0) {
            return Err(PathError::Stopped(stop));
        }
        let mut found = next(&board);
        if found.is_empty() {
            // A search cut short is no reason to guess.
            if let Some(stop) = limits.check(0) {
                return Err(PathError::Stopped(stop));
            }
            let Some(guess) = guess_step(&board, solution) else {
                break;
            };
            found.push(guess);
        }
        let mut guessed = false;
        for step in found {
            guessed = step.technique == Technique::Guess;
            board.apply(&step);
            steps.push(step);
            if guessed && end_at_guess {
                break;
            }
        }
        board.check()?;
        if guessed && end_at_guess {
            return Ok(steps);
        }
    }
    Ok(steps)
}

#[cfg(test)]
pub(crate) mod tests;
