//! What a technique finds: a [`Step`] of placements and eliminations with
//! what to highlight and why, named by its [`Technique`].

use crate::engine::grid::Value;
use crate::engine::level::Level;

use super::effect::{EFFECT_MARK, Effect};

/// A human solving technique.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Technique {
    /// The last empty cell of a unit.
    FullHouse,
    /// A cell with one candidate.
    NakedSingle,
    /// A value with one place in a unit.
    HiddenSingle,
    /// Locked candidates type 1: a box's places for a value lie in one line.
    Pointing,
    /// Locked candidates type 2: a line's places for a value lie in one box.
    Claiming,
    /// A naked pair inside a line–box intersection.
    LockedPair,
    /// A naked triple inside a line–box intersection.
    LockedTriple,
    /// Two cells of a unit with the same two candidates.
    NakedPair,
    /// Three cells of a unit holding three candidates between them.
    NakedTriple,
    /// Four cells, four candidates.
    NakedQuad,
    /// Two values confined to the same two cells of a unit.
    HiddenPair,
    /// Three values, three cells.
    HiddenTriple,
    /// Four values, four cells.
    HiddenQuad,
    /// A naked subset of k ≥ 5 cells (Quintuple, Sextuple, Septuple,
    /// Octuple) on boards larger than 9×9, where a unit has room for one
    /// (on 9×9 it is always the hidden subset of the other cells).
    NakedSubset(u8),
    /// A hidden subset of k ≥ 5 values, on boards larger than 9×9.
    HiddenSubset(u8),
    /// Two conjugate pairs of a value in parallel lines, joined at one end
    /// by a cross line.
    Skyscraper,
    /// A conjugate pair in a row and one in a column, joined in a box.
    TwoStringKite,
    /// Two conjugate pairs of a value joined by a weak link (the other
    /// shapes of two strong links).
    TurbotFish,
    /// A box whose places for a value lie on one row and one column of it,
    /// with a conjugate pair outside.
    EmptyRectangle,
    /// A bivalue pivot xy with pincers xz and yz.
    XYWing,
    /// A trivalue pivot xyz with pincers xz and yz.
    XYZWing,
    /// Two bivalue cells xy joined by a conjugate pair on x.
    WWing,
    /// A large wing (bent naked subset) of the given size k, 4 to 7
    /// (WXYZ-, VWXYZ-, UVWXYZ-, TUVWXYZ-Wing): k connected cells, not all
    /// in one unit, holding k values between them, where every value but
    /// one, z, sits only in cells that see each other; z must be in one of
    /// its cells there, so it leaves every cell that sees them all. When
    /// every value sits so (doubly linked), each value is there once and
    /// leaves every cell that sees all its places.
    LargeWing(u8),
    /// A chain of bivalue cells with the same two values.
    RemotePair,
    /// Simple Colors trap: the conjugate pairs of a value, coloured two
    /// ways; a candidate that sees both colours goes.
    ColorTrap,
    /// Simple Colors wrap: two cells of one colour see each other, so that
    /// colour is false everywhere.
    ColorWrap,
    /// X-Chain: an alternating chain of strong and weak links on one value,
    /// strong at both ends; a cell seeing both ends loses the value.
    XChain,
    /// XY-Chain: a chain of bivalue cells, each linked to the next by a
    /// shared value; a cell seeing both ends loses the ends' value.
    XYChain,
    /// A basic fish of the given size (2 X-Wing, 3 Swordfish, 4 Jellyfish):
    /// k lines whose places for a value lie in k lines of the other direction.
    Fish(u8),
    /// A finned fish of the given size: a fish but for fins in one box.
    FinnedFish(u8),
    /// A sashimi fish of the given size: a finned fish whose body without
    /// the fins leaves a base line with at most one place.
    SashimiFish(u8),
    /// Siamese fish: two finned (or sashimi) fish on the same value and
    /// base lines with different covers or fins, both valid, told as one
    /// step with both sets of eliminations (HoDoKu's presentation); at
    /// least one of them is finned, not sashimi.
    SiameseFinnedFish(u8),
    /// Siamese fish of two sashimi fish.
    SiameseSashimiFish(u8),
    /// Franken fish of the given size: base units rows and boxes, covers
    /// columns and boxes (or the other way round), at least one box.
    FrankenFish(u8),
    /// A Franken fish with fins (endo-fins too: places two bases share).
    FinnedFrankenFish(u8),
    /// Mutant fish: any other mix of rows, columns and boxes.
    MutantFish(u8),
    /// A mutant fish with fins.
    FinnedMutantFish(u8),
    /// Two finned Franken fish on the same value and base units, told as
    /// one step (HoDoKu's Siamese presentation).
    SiameseFinnedFrankenFish(u8),
    /// Two finned mutant fish on the same value and base units.
    SiameseFinnedMutantFish(u8),
    /// Kraken fish of HoDoKu's type 1 or 2 (X-Wing to Jellyfish): a
    /// finned fish that eliminates nothing by itself, with a forcing chain
    /// from each fin (type 1: to a candidate the fish without fins would
    /// remove) or from each fin and each body cell of one cover line (type
    /// 2: to any candidate).
    KrakenFish(u8),
    /// Dual 2-String Kite: two kites sharing the box that joins them.
    DualTwoStringKite,
    /// Dual Empty Rectangle: one empty rectangle box used with two
    /// conjugate pairs.
    DualEmptyRectangle,
    /// Multi Colors 1: when colour a1 of one cluster sees colour b1 of
    /// another, a2 or b2 is true; a candidate seeing both goes.
    MultiColors1,
    /// Multi Colors 2: a colour that sees both colours of another cluster
    /// is false everywhere.
    MultiColors2,
    /// Unique Rectangle of type 1–6: four cells in two rows, two columns
    /// and two boxes that would hold the same two values twice, leaving
    /// two solutions; the puzzle is unique, so the pattern is broken.
    UniqueRectangle(u8),
    /// Hidden Rectangle: a unique rectangle found through conjugate pairs.
    HiddenRectangle,
    /// Avoidable Rectangle of type 1 or 2: a rectangle whose corners were
    /// placed (not given) with values a and b, or would have to be, could
    /// swap them and leave two solutions; the puzzle is unique, so the
    /// pattern is avoided.
    AvoidableRectangle(u8),
    /// Bivalue Universal Grave + 1: all unsolved cells but one are bivalue;
    /// the odd cell must take the value that breaks the deadly pattern.
    BugPlusOne,
    /// Continuous nice loop: a closed alternating inference loop; every
    /// weak link of it becomes strong.
    ContinuousNiceLoop,
    /// Discontinuous nice loop: a loop that proves its start candidate
    /// true or false.
    DiscontinuousNiceLoop,
    /// Alternating inference chain (strong at both ends) over any
    /// candidates: a candidate that sees both ends goes.
    Aic,
    /// Continuous nice loop with group nodes.
    GroupedContinuousNiceLoop,
    /// Discontinuous nice loop with group nodes.
    GroupedDiscontinuousNiceLoop,
    /// AIC with group nodes.
    GroupedAic,
    /// Almost Locked Sets XZ: two ALSs joined by a restricted common value
    /// x; a common value z goes from every cell that sees all its places in
    /// both.
    AlsXz,
    /// ALS-XY-Wing: three ALSs joined by two restricted common values.
    AlsXyWing,
    /// ALS chain: ALSs joined one after another by restricted common values.
    AlsChain,
    /// Death Blossom: a stem cell whose every candidate is tied to an ALS
    /// petal; a value common to all petals goes from cells seeing them all.
    DeathBlossom,
    /// Sue de Coq: a line–box intersection whose values split between an
    /// ALS in the line and one in the box.
    SueDeCoq,
    /// Forcing chain: every candidate of a cell (or every place of a value
    /// in a unit), followed through implications, leads to the same
    /// conclusion; or one candidate leads to a contradiction.
    ForcingChain,
    /// Template Set: every way to place a value once in each row, column
    /// and box (among its candidates) uses a cell, so the value is there.
    TemplateSet,
    /// Template Delete: no such way uses a candidate, so it goes.
    TemplateDelete,
    /// Dynamic forcing chain (SE 8.5): a forcing chain (contradiction, cell
    /// or unit) whose implications follow every removal through the
    /// singles it leaves on the changed candidates.
    DynamicForcingChain,
    /// Dynamic forcing chain (+) (SE 9.0): locked candidates, naked and
    /// hidden pairs and X-Wings also fire inside the chain.
    DynamicForcingChainPlus,
    /// Nested forcing chain of SE level 2, 3 or 4 (9.5, 10.0, 10.5): a
    /// dynamic (+) chain inside which a static, dynamic or dynamic (+)
    /// chain ending in a contradiction removes a candidate.
    NestedForcingChain(u8),
    /// Not a technique: a value taken from the solution when no technique
    /// applies, clearly labelled as a guess (never in [`Technique::ALL`]).
    Guess,
}

impl Technique {
    /// Every technique, easiest first (the order the solver tries them).
    pub const ALL: [Technique; 81] = [
        Technique::FullHouse,
        Technique::NakedSingle,
        Technique::HiddenSingle,
        Technique::Pointing,
        Technique::Claiming,
        Technique::LockedPair,
        Technique::LockedTriple,
        Technique::NakedPair,
        Technique::NakedTriple,
        Technique::HiddenPair,
        Technique::HiddenTriple,
        Technique::NakedQuad,
        Technique::HiddenQuad,
        Technique::Fish(2),
        Technique::Skyscraper,
        Technique::TwoStringKite,
        Technique::FinnedFish(2),
        Technique::SashimiFish(2),
        Technique::Fish(3),
        Technique::TurbotFish,
        Technique::EmptyRectangle,
        Technique::DualTwoStringKite,
        Technique::DualEmptyRectangle,
        Technique::XYWing,
        Technique::FinnedFish(3),
        Technique::SashimiFish(3),
        Technique::SiameseFinnedFish(3),
        Technique::SiameseSashimiFish(3),
        Technique::XYZWing,
        Technique::WWing,
        Technique::RemotePair,
        Technique::UniqueRectangle(1),
        Technique::UniqueRectangle(2),
        Technique::UniqueRectangle(3),
        Technique::UniqueRectangle(4),
        Technique::UniqueRectangle(5),
        Technique::UniqueRectangle(6),
        Technique::HiddenRectangle,
        Technique::AvoidableRectangle(1),
        Technique::AvoidableRectangle(2),
        Technique::BugPlusOne,
        Technique::ColorTrap,
        Technique::ColorWrap,
        Technique::MultiColors1,
        Technique::MultiColors2,
        Technique::XChain,
        Technique::XYChain,
        Technique::Fish(4),
        Technique::FinnedFish(4),
        Technique::SashimiFish(4),
        Technique::SiameseFinnedFish(4),
        Technique::SiameseSashimiFish(4),
        Technique::ContinuousNiceLoop,
        Technique::DiscontinuousNiceLoop,
        Technique::Aic,
        Technique::GroupedContinuousNiceLoop,
        Technique::GroupedDiscontinuousNiceLoop,
        Technique::GroupedAic,
        // The large wings are almost-locked-set patterns (an ALS-XZ whose
        // one set is a bivalue cell), so Expert like the ALS techniques,
        // and tried after every chain and loop: tried before the loops, a
        // WXYZ- or VWXYZ-Wing does a loop's work in most expert puzzles
        // (19 of the 20 shipped 6×6 ones, 13 of the 20 9×9 ones). They
        // come before the other ALS techniques, which rate as high or
        // higher (7.5 to 8.0, against 5.5 to 7.5).
        Technique::LargeWing(4),
        Technique::LargeWing(5),
        Technique::LargeWing(6),
        Technique::LargeWing(7),
        Technique::AlsXz,
        Technique::AlsXyWing,
        Technique::AlsChain,
        Technique::DeathBlossom,
        Technique::SueDeCoq,
        // Franken fish (9×9 and smaller) as HoDoKu's solver has them by
        // default, the X-Wing and Swordfish: late, so that they only change
        // the paths that would otherwise need a forcing chain. The larger
        // ones and the mutant fish are in [`Technique::EXTRA_FISH`].
        Technique::FrankenFish(2),
        Technique::FinnedFrankenFish(2),
        Technique::FrankenFish(3),
        Technique::FinnedFrankenFish(3),
        Technique::SiameseFinnedFrankenFish(3),
        Technique::ForcingChain,
        Technique::TemplateSet,
        Technique::TemplateDelete,
        // Forcing nets, the last resort before a guess (after the
        // templates, so puzzles that need neither keep their path).
        Technique::DynamicForcingChain,
        Technique::DynamicForcingChainPlus,
        Technique::NestedForcingChain(2),
        Technique::NestedForcingChain(3),
        Technique::NestedForcingChain(4),
        Technique::NestedForcingChain(5),
    ];

    /// The techniques worth trying on an n×n board, easiest first: [`ALL`]
    /// without the Siamese fish, plus the basic fish larger than a
    /// Jellyfish that fit n (up to [`super::MAX_BASIC_SIZE`]) and
    /// the subsets larger than a quad ([`Technique::big_subsets`]), right
    /// after the Jellyfish.
    ///
    /// [`ALL`]: Technique::ALL
    pub fn for_side(n: usize) -> Vec<Technique> {
        // A Siamese fish joins two fish found just before it: when those
        // give nothing, neither does it, so the solver skips the search.
        let mut v: Vec<Technique> = Technique::ALL
            .into_iter()
            .filter(|t| {
                !matches!(
                    t,
                    Technique::SiameseFinnedFish(_)
                        | Technique::SiameseSashimiFish(_)
                        | Technique::SiameseFinnedFrankenFish(_)
                        | Technique::SiameseFinnedMutantFish(_)
                )
            })
            .collect();
        let big: Vec<Technique> = Technique::big_fish(n)
            .chain(Technique::big_subsets(n))
            .collect();
        let at = v
            .iter()
            .position(|&t| t == Technique::Fish(4))
            .map_or(v.len(), |p| p + 1);
        v.splice(at..at, big);
        v
    }

    /// The naked and hidden subsets larger than a quad that fit an n×n
    /// board: sizes 5 up to n/2 (a larger naked subset of a unit is a
    /// smaller hidden one of its other cells, and the other way round),
    /// at most [`super::MAX_SUBSET_SIZE`]; naked then hidden for
    /// each size, smallest first.
    pub fn big_subsets(n: usize) -> impl Iterator<Item = Technique> {
        (5..=(n / 2).min(super::subsets::MAX_SUBSET_SIZE)).flat_map(|k| {
            let k = u8::try_from(k).unwrap_or(u8::MAX);
            [Technique::NakedSubset(k), Technique::HiddenSubset(k)]
        })
    }

    /// The basic fish larger than a Jellyfish that fit an n×n board (up
    /// to [`super::MAX_BASIC_SIZE`]), smallest first.
    pub fn big_fish(n: usize) -> impl Iterator<Item = Technique> {
        (5..=(n / 2).min(super::fish::MAX_BASIC_SIZE))
            .map(|k| Technique::Fish(u8::try_from(k).unwrap_or(u8::MAX)))
    }

    /// The name players know: the one table of technique names, spelled
    /// as HoDoKu spells them (its short forms for the ALS techniques; the
    /// fish of size 5 to 7 are its Squirmbag, Whale and Leviathan). Every
    /// step's explanation starts with it.
    pub fn name(self) -> &'static str {
        match self {
            Technique::FullHouse => "Full House",
            Technique::NakedSingle => "Naked Single",
            Technique::HiddenSingle => "Hidden Single",
            Technique::Pointing => "Locked Candidates Type 1 (Pointing)",
            Technique::Claiming => "Locked Candidates Type 2 (Claiming)",
            Technique::LockedPair => "Locked Pair",
            Technique::LockedTriple => "Locked Triple",
            Technique::NakedPair => "Naked Pair",
            Technique::NakedTriple => "Naked Triple",
            Technique::NakedQuad => "Naked Quadruple",
            Technique::HiddenPair => "Hidden Pair",
            Technique::HiddenTriple => "Hidden Triple",
            Technique::HiddenQuad => "Hidden Quadruple",
            Technique::NakedSubset(k) => match k {
                5 => "Naked Quintuple",
                6 => "Naked Sextuple",
                7 => "Naked Septuple",
                8 => "Naked Octuple",
                _ => "Large Naked Subset",
            },
            Technique::HiddenSubset(k) => match k {
                5 => "Hidden Quintuple",
                6 => "Hidden Sextuple",
                7 => "Hidden Septuple",
                8 => "Hidden Octuple",
                _ => "Large Hidden Subset",
            },
            Technique::Skyscraper => "Skyscraper",
            Technique::TwoStringKite => "2-String Kite",
            Technique::TurbotFish => "Turbot Fish",
            Technique::EmptyRectangle => "Empty Rectangle",
            Technique::XYWing => "XY-Wing",
            Technique::XYZWing => "XYZ-Wing",
            Technique::WWing => "W-Wing",
            Technique::LargeWing(k) => match k {
                4 => "WXYZ-Wing",
                5 => "VWXYZ-Wing",
                6 => "UVWXYZ-Wing",
                _ => "TUVWXYZ-Wing",
            },
            Technique::RemotePair => "Remote Pair",
            Technique::ColorTrap => "Simple Colors Trap",
            Technique::ColorWrap => "Simple Colors Wrap",
            Technique::XChain => "X-Chain",
            Technique::XYChain => "XY-Chain",
            Technique::Fish(k) => match k {
                2 => "X-Wing",
                3 => "Swordfish",
                4 => "Jellyfish",
                5 => "Squirmbag",
                6 => "Whale",
                7 => "Leviathan",
                8 => "Fish of size 8",
                _ => "Large Fish",
            },
            Technique::FinnedFish(k) => match k {
                2 => "Finned X-Wing",
                3 => "Finned Swordfish",
                4 => "Finned Jellyfish",
                _ => "Large Finned Fish",
            },
            Technique::SashimiFish(k) => match k {
                2 => "Sashimi X-Wing",
                3 => "Sashimi Swordfish",
                4 => "Sashimi Jellyfish",
                _ => "Large Sashimi Fish",
            },
            Technique::SiameseFinnedFish(k) => match k {
                3 => "Siamese Finned Swordfish",
                4 => "Siamese Finned Jellyfish",
                _ => "Siamese Finned Fish",
            },
            Technique::SiameseSashimiFish(k) => match k {
                3 => "Siamese Sashimi Swordfish",
                4 => "Siamese Sashimi Jellyfish",
                _ => "Siamese Sashimi Fish",
            },
            Technique::FrankenFish(k) => [
                "Franken X-Wing",
                "Franken Swordfish",
                "Franken Jellyfish",
                "Franken Squirmbag",
                "Franken Whale",
                "Franken Leviathan",
                "Large Franken Fish",
            ][sized(k)],
            Technique::FinnedFrankenFish(k) => [
                "Finned Franken X-Wing",
                "Finned Franken Swordfish",
                "Finned Franken Jellyfish",
                "Finned Franken Squirmbag",
                "Finned Franken Whale",
                "Finned Franken Leviathan",
                "Large Finned Franken Fish",
            ][sized(k)],
            Technique::MutantFish(k) => [
                "Mutant X-Wing",
                "Mutant Swordfish",
                "Mutant Jellyfish",
                "Mutant Squirmbag",
                "Mutant Whale",
                "Mutant Leviathan",
                "Large Mutant Fish",
            ][sized(k)],
            Technique::FinnedMutantFish(k) => [
                "Finned Mutant X-Wing",
                "Finned Mutant Swordfish",
                "Finned Mutant Jellyfish",
                "Finned Mutant Squirmbag",
                "Finned Mutant Whale",
                "Finned Mutant Leviathan",
                "Large Finned Mutant Fish",
            ][sized(k)],
            Technique::SiameseFinnedFrankenFish(k) => [
                "Siamese Finned Franken X-Wing",
                "Siamese Finned Franken Swordfish",
                "Siamese Finned Franken Jellyfish",
                "Siamese Finned Franken Squirmbag",
                "Siamese Finned Franken Whale",
                "Siamese Finned Franken Leviathan",
                "Large Siamese Finned Franken Fish",
            ][sized(k)],
            Technique::SiameseFinnedMutantFish(k) => [
                "Siamese Finned Mutant X-Wing",
                "Siamese Finned Mutant Swordfish",
                "Siamese Finned Mutant Jellyfish",
                "Siamese Finned Mutant Squirmbag",
                "Siamese Finned Mutant Whale",
                "Siamese Finned Mutant Leviathan",
                "Large Siamese Finned Mutant Fish",
            ][sized(k)],
            Technique::KrakenFish(1) => "Kraken Fish Type 1",
            Technique::KrakenFish(_) => "Kraken Fish Type 2",
            Technique::DualTwoStringKite => "Dual 2-String Kite",
            Technique::DualEmptyRectangle => "Dual Empty Rectangle",
            Technique::MultiColors1 => "Multi Colors 1",
            Technique::MultiColors2 => "Multi Colors 2",
            Technique::UniqueRectangle(k) => match k {
                1 => "Uniqueness Test 1",
                2 => "Uniqueness Test 2",
                3 => "Uniqueness Test 3",
                4 => "Uniqueness Test 4",
                5 => "Uniqueness Test 5",
                _ => "Uniqueness Test 6",
            },
            Technique::HiddenRectangle => "Hidden Rectangle",
            Technique::AvoidableRectangle(1) => "Avoidable Rectangle Type 1",
            Technique::AvoidableRectangle(_) => "Avoidable Rectangle Type 2",
            Technique::BugPlusOne => "Bivalue Universal Grave + 1",
            Technique::ContinuousNiceLoop => "Continuous Nice Loop",
            Technique::DiscontinuousNiceLoop => "Discontinuous Nice Loop",
            Technique::Aic => "AIC",
            Technique::GroupedContinuousNiceLoop => "Grouped Continuous Nice Loop",
            Technique::GroupedDiscontinuousNiceLoop => "Grouped Discontinuous Nice Loop",
            Technique::GroupedAic => "Grouped AIC",
            Technique::AlsXz => "ALS-XZ",
            Technique::AlsXyWing => "ALS-XY-Wing",
            Technique::AlsChain => "ALS-XY-Chain",
            Technique::DeathBlossom => "Death Blossom",
            Technique::SueDeCoq => "Sue de Coq",
            Technique::ForcingChain => "Forcing Chain",
            Technique::TemplateSet => "Template Set",
            Technique::TemplateDelete => "Template Delete",
            Technique::DynamicForcingChain => "Dynamic Forcing Chain",
            Technique::DynamicForcingChainPlus => "Dynamic Forcing Chain (+)",
            Technique::NestedForcingChain(_) => "Nested Forcing Chain",
            Technique::Guess => "Guess",
        }
    }

    /// HoDoKu's library code (for the regression library); empty for the
    /// techniques HoDoKu has no code for (fish larger than a Jellyfish,
    /// subsets larger than a quad, large wings).
    pub fn hodoku_code(self) -> &'static str {
        match self {
            Technique::FullHouse => "0000",
            Technique::HiddenSingle => "0002",
            Technique::NakedSingle => "0003",
            Technique::Pointing => "0100",
            Technique::Claiming => "0101",
            Technique::LockedPair => "0110",
            Technique::LockedTriple => "0111",
            Technique::NakedPair => "0200",
            Technique::NakedTriple => "0201",
            Technique::NakedQuad => "0202",
            Technique::HiddenPair => "0210",
            Technique::HiddenTriple => "0211",
            Technique::HiddenQuad => "0212",
            Technique::Skyscraper => "0400",
            Technique::TwoStringKite => "0401",
            Technique::EmptyRectangle => "0402",
            Technique::TurbotFish => "0403",
            Technique::RemotePair => "0703",
            Technique::ColorTrap => "0500",
            Technique::ColorWrap => "0501",
            Technique::XChain => "0701",
            Technique::XYChain => "0702",
            Technique::XYWing => "0800",
            Technique::XYZWing => "0801",
            Technique::WWing => "0803",
            Technique::Fish(2) => "0300",
            Technique::Fish(3) => "0301",
            Technique::Fish(4) => "0302",
            Technique::FinnedFish(2) => "0310",
            Technique::FinnedFish(3) => "0311",
            Technique::FinnedFish(4) => "0312",
            Technique::SashimiFish(2) => "0320",
            Technique::SashimiFish(3) => "0321",
            Technique::SashimiFish(4) => "0322",
            Technique::SiameseFinnedFish(3) => "03111",
            Technique::SiameseFinnedFish(4) => "03121",
            Technique::SiameseSashimiFish(3) => "03211",
            Technique::SiameseSashimiFish(4) => "03221",
            Technique::FrankenFish(k @ 2..=7) => {
                ["0330", "0331", "0332", "0333", "0334", "0335"][sized(k)]
            }
            Technique::FinnedFrankenFish(k @ 2..=7) => {
                ["0340", "0341", "0342", "0343", "0344", "0345"][sized(k)]
            }
            Technique::MutantFish(k @ 2..=7) => {
                ["0350", "0351", "0352", "0353", "0354", "0355"][sized(k)]
            }
            Technique::FinnedMutantFish(k @ 2..=7) => {
                ["0360", "0361", "0362", "0363", "0364", "0365"][sized(k)]
            }
            Technique::SiameseFinnedFrankenFish(k @ 2..=7) => {
                ["03401", "03411", "03421", "03431", "03441", "03451"][sized(k)]
            }
            Technique::SiameseFinnedMutantFish(k @ 2..=7) => {
                ["03601", "03611", "03621", "03631", "03641", "03651"][sized(k)]
            }
            Technique::KrakenFish(1) => "0371",
            Technique::KrakenFish(2) => "0372",
            Technique::DualTwoStringKite => "0404",
            Technique::DualEmptyRectangle => "0405",
            Technique::MultiColors1 => "0502",
            Technique::MultiColors2 => "0503",
            Technique::UniqueRectangle(1) => "0600",
            Technique::UniqueRectangle(2) => "0601",
            Technique::UniqueRectangle(3) => "0602",
            Technique::UniqueRectangle(4) => "0603",
            Technique::UniqueRectangle(5) => "0604",
            Technique::UniqueRectangle(6) => "0605",
            Technique::HiddenRectangle => "0606",
            Technique::AvoidableRectangle(1) => "0607",
            Technique::AvoidableRectangle(2) => "0608",
            Technique::BugPlusOne => "0610",
            Technique::ContinuousNiceLoop => "0706",
            Technique::DiscontinuousNiceLoop => "0707",
            Technique::Aic => "0708",
            Technique::GroupedContinuousNiceLoop => "0709",
            Technique::GroupedDiscontinuousNiceLoop => "0710",
            Technique::GroupedAic => "0711",
            Technique::AlsXz => "0901",
            Technique::AlsXyWing => "0902",
            Technique::AlsChain => "0903",
            Technique::DeathBlossom => "0904",
            Technique::SueDeCoq => "1101",
            Technique::ForcingChain => "1301",
            Technique::TemplateSet => "1201",
            Technique::TemplateDelete => "1202",
            Technique::Fish(_)
            | Technique::FinnedFish(_)
            | Technique::SashimiFish(_)
            | Technique::SiameseFinnedFish(_)
            | Technique::SiameseSashimiFish(_)
            | Technique::FrankenFish(_)
            | Technique::FinnedFrankenFish(_)
            | Technique::MutantFish(_)
            | Technique::FinnedMutantFish(_)
            | Technique::SiameseFinnedFrankenFish(_)
            | Technique::SiameseFinnedMutantFish(_)
            | Technique::KrakenFish(_)
            | Technique::UniqueRectangle(_)
            | Technique::AvoidableRectangle(_)
            | Technique::LargeWing(_)
            | Technique::NakedSubset(_)
            | Technique::HiddenSubset(_)
            | Technique::DynamicForcingChain
            | Technique::DynamicForcingChainPlus
            | Technique::NestedForcingChain(_)
            | Technique::Guess => "",
        }
    }

    /// The technique with this HoDoKu code.
    pub fn from_hodoku_code(code: &str) -> Option<Technique> {
        if code.is_empty() {
            return None;
        }
        Technique::ALL
            .into_iter()
            .chain(Technique::EXTRA_FISH)
            .find(|t| t.hodoku_code() == code)
    }

    /// The Franken Jellyfish, the mutant fish up to the Whale and the
    /// kraken fish: out of the solving order, as out of HoDoKu's default
    /// one (the Franken and mutant search takes 10 to 100 times a forcing
    /// chain's on a 9×9 that needs one; a kraken fish is a forcing chain
    /// told through a fish, and the forcing chains and nets already on the
    /// path find what it does), but found when asked for
    /// ([`super::find_all`], the regression library).
    pub const EXTRA_FISH: [Technique; 15] = [
        Technique::FrankenFish(4),
        Technique::FinnedFrankenFish(4),
        Technique::SiameseFinnedFrankenFish(4),
        Technique::MutantFish(2),
        Technique::FinnedMutantFish(2),
        Technique::MutantFish(3),
        Technique::FinnedMutantFish(3),
        Technique::SiameseFinnedMutantFish(3),
        Technique::MutantFish(4),
        Technique::FinnedMutantFish(4),
        Technique::SiameseFinnedMutantFish(4),
        Technique::FinnedMutantFish(5),
        Technique::FinnedMutantFish(6),
        Technique::KrakenFish(1),
        Technique::KrakenFish(2),
    ];

    /// The level a puzzle reaches when it needs this technique.
    pub fn level(self) -> Level {
        match self {
            Technique::FullHouse | Technique::NakedSingle | Technique::HiddenSingle => Level::Easy,
            Technique::Skyscraper
            | Technique::TwoStringKite
            | Technique::TurbotFish
            | Technique::EmptyRectangle
            | Technique::XYWing
            | Technique::XYZWing
            | Technique::WWing
            | Technique::RemotePair
            | Technique::ColorTrap
            | Technique::ColorWrap
            | Technique::Fish(_)
            | Technique::FinnedFish(_)
            | Technique::SashimiFish(_)
            | Technique::SiameseFinnedFish(_)
            | Technique::SiameseSashimiFish(_)
            | Technique::NakedSubset(_)
            | Technique::HiddenSubset(_)
            | Technique::DualTwoStringKite
            | Technique::DualEmptyRectangle
            | Technique::MultiColors1
            | Technique::MultiColors2
            | Technique::UniqueRectangle(_)
            | Technique::HiddenRectangle
            | Technique::AvoidableRectangle(_)
            | Technique::BugPlusOne => Level::Hard,
            Technique::XChain
            | Technique::XYChain
            | Technique::ContinuousNiceLoop
            | Technique::DiscontinuousNiceLoop
            | Technique::Aic
            | Technique::GroupedContinuousNiceLoop
            | Technique::GroupedDiscontinuousNiceLoop
            | Technique::GroupedAic
            | Technique::LargeWing(_)
            | Technique::AlsXz
            | Technique::AlsXyWing
            | Technique::AlsChain
            | Technique::DeathBlossom
            | Technique::SueDeCoq => Level::Expert,
            Technique::ForcingChain
            | Technique::FrankenFish(_)
            | Technique::FinnedFrankenFish(_)
            | Technique::MutantFish(_)
            | Technique::FinnedMutantFish(_)
            | Technique::SiameseFinnedFrankenFish(_)
            | Technique::SiameseFinnedMutantFish(_)
            | Technique::KrakenFish(_)
            | Technique::DynamicForcingChain
            | Technique::DynamicForcingChainPlus
            | Technique::NestedForcingChain(_)
            | Technique::TemplateSet
            | Technique::TemplateDelete
            | Technique::Guess => Level::Extreme,
            _ => Level::Medium,
        }
    }
}

/// The index of a fish of size `k` (2 to 8) in a table from the X-Wing
/// up, the last entry for anything larger or smaller.
fn sized(k: u8) -> usize {
    usize::from(k.clamp(2, 8) - 2)
}

/// A strong or weak link between two candidates (for chains).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link {
    /// From (cell, value).
    pub from: (usize, Value),
    /// To (cell, value).
    pub to: (usize, Value),
    /// Strong (exactly one is true) rather than weak (not both).
    pub strong: bool,
}

/// The part a candidate plays in a step, so that a front end can draw
/// each part its own way (HoDoKu colours them). [`Step::role_of`] gives
/// the role of any candidate of a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum CandidateRole {
    /// Removed by the step (from [`Step::eliminations`]).
    Eliminated,
    /// The value the step places (from [`Step::placements`]).
    Placed,
    /// A fin: a finned or sashimi fish's place outside its cover lines;
    /// the extra candidates of a unique rectangle's roof corners that the
    /// pattern lives with.
    Fin,
    /// An endo-fin: a fin where two base units overlap (Franken and mutant
    /// fish).
    EndoFin,
    /// A chain node that is true when the chain is read from its start: a
    /// node a strong link leads into (and a forcing chain's assumptions and
    /// what they force).
    ChainOn,
    /// A chain node that is false when the chain is read from its start: a
    /// node a weak link leads into, and an AIC's first node.
    ChainOff,
    /// A colouring's colour: 0 and 1 are the two colours of the first
    /// cluster (Simple Colors), 2 and 3 those of a second (Multi Colors).
    Colour(u8),
    /// A candidate of the k-th set of a step made of sets: the almost
    /// locked sets of ALS techniques in chain order (ALS-XZ: A, B;
    /// ALS-XY-Wing: A, the pivot set, B; an ALS-XY-Chain from its first
    /// set; a Death Blossom's petals in the order of the stem's values) and
    /// of chains through ALSs (in chain order); Sue de Coq's line set (0),
    /// box set (1) and intersection cells (2).
    Set(u8),
    /// Any other candidate that makes the pattern (a subset's values, a
    /// fish's body, a wing's cells, a rectangle's corners, …).
    Pattern,
}

impl CandidateRole {
    /// Which role wins when a candidate has several (an eliminated
    /// candidate is eliminated whatever else it is): lower first.
    fn rank(self) -> u8 {
        match self {
            CandidateRole::Eliminated => 0,
            CandidateRole::Placed => 1,
            CandidateRole::Fin => 2,
            CandidateRole::EndoFin => 3,
            CandidateRole::ChainOn => 4,
            CandidateRole::ChainOff => 5,
            CandidateRole::Colour(_) => 6,
            CandidateRole::Set(_) => 7,
            CandidateRole::Pattern => 8,
        }
    }
}

/// The part a unit (row, column or box) plays in a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum UnitRole {
    /// A fish's base set: the lines whose places for the value are
    /// confined.
    Base,
    /// A fish's cover set: the lines that hold those places, and lose the
    /// value elsewhere.
    Cover,
    /// Any other unit the step reasons about (a single's house, a subset's
    /// unit, a conjugate pair's unit, …).
    Involved,
}

/// What to show for a step.
///
/// `cells`, `candidates`, `units` and `links` say what is involved;
/// `roles` and `unit_roles` say what part each candidate and unit plays.
/// Every step the solver gives ([`super::find_all`], [`super::next_step`],
/// [`super::guess_step`]) has a role for every candidate of `candidates`
/// and every unit of `units`; eliminated and placed candidates need none
/// (they are in the step's own lists, see [`Step::role_of`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Highlights {
    /// Cells that make the pattern (the cells involved).
    pub cells: Vec<usize>,
    /// Candidates that make the pattern.
    pub candidates: Vec<(usize, Value)>,
    /// Units involved.
    pub units: Vec<usize>,
    /// Links of a chain, in chain order: a strong link leads from a false
    /// node into a true one, a weak link from a true node into a false one
    /// (a forcing chain's links read "then", from one true node to the
    /// next).
    pub links: Vec<Link>,
    /// The role of each candidate of the pattern: (cell, value, role). A
    /// candidate may be listed more than once (a loop's first node is both
    /// where it starts and where it ends); [`Step::role_of`] picks one.
    pub roles: Vec<(usize, Value, CandidateRole)>,
    /// The role of each unit of `units`.
    pub unit_roles: Vec<(usize, UnitRole)>,
}

impl Highlights {
    /// Gives candidate (`cell`, `value`) the role `role` (besides any it
    /// has).
    pub fn add_role(&mut self, cell: usize, value: Value, role: CandidateRole) {
        if !self.roles.contains(&(cell, value, role)) {
            self.roles.push((cell, value, role));
        }
    }

    /// Gives unit `unit` the role `role`, unless it has one.
    pub fn set_unit_role(&mut self, unit: usize, role: UnitRole) {
        if !self.unit_roles.iter().any(|&(u, _)| u == unit) {
            self.unit_roles.push((unit, role));
        }
    }

    /// The listed role of (`cell`, `value`) that wins, if any.
    fn listed_role(&self, cell: usize, value: Value) -> Option<CandidateRole> {
        self.roles
            .iter()
            .filter(|&&(c, v, _)| (c, v) == (cell, value))
            .map(|&(_, _, r)| r)
            .min_by_key(|r| r.rank())
    }

    /// Fills the roles a technique left unsaid: [`CandidateRole::Pattern`]
    /// for each candidate without a role, [`UnitRole::Involved`] for each
    /// unit without one.
    pub(crate) fn fill_default_roles(&mut self) {
        let mut known: Vec<(usize, Value)> = self.roles.iter().map(|&(c, v, _)| (c, v)).collect();
        known.sort_unstable();
        for &(c, v) in &self.candidates {
            if known.binary_search(&(c, v)).is_err() {
                self.roles.push((c, v, CandidateRole::Pattern));
            }
        }
        for i in 0..self.units.len() {
            self.set_unit_role(self.units[i], UnitRole::Involved);
        }
    }
}

/// One logical step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The technique.
    pub technique: Technique,
    /// Values placed: (cell, value).
    pub placements: Vec<(usize, Value)>,
    /// Candidates removed: (cell, value).
    pub eliminations: Vec<(usize, Value)>,
    /// What to highlight.
    pub highlights: Highlights,
    /// Why, in words.
    pub explanation: String,
}

impl Step {
    /// Whether the step changes the position.
    pub fn is_productive(&self) -> bool {
        !self.placements.is_empty() || !self.eliminations.is_empty()
    }

    /// What the step changes, in canonical order; its explanation ends
    /// with this effect's text (` => r4c5=7`, ` => r9c2<>9, r9c3<>9`).
    pub fn effect(&self) -> Effect {
        Effect::of(self)
    }

    /// The part candidate (`cell`, `value`) plays in the step: eliminated
    /// or placed when the step does so (whatever else it is), else the
    /// role its highlights give it (the first of [`CandidateRole`]'s order
    /// when it has several), else [`CandidateRole::Pattern`] when it is
    /// one of the highlighted candidates; `None` when the step does not
    /// involve it.
    pub fn role_of(&self, cell: usize, value: Value) -> Option<CandidateRole> {
        if self.eliminations.contains(&(cell, value)) {
            return Some(CandidateRole::Eliminated);
        }
        if self.placements.contains(&(cell, value)) {
            return Some(CandidateRole::Placed);
        }
        let h = &self.highlights;
        h.listed_role(cell, value).or_else(|| {
            h.candidates
                .contains(&(cell, value))
                .then_some(CandidateRole::Pattern)
        })
    }

    /// Every candidate the step involves, each once with the role
    /// [`Step::role_of`] gives it, sorted by cell and value: what a front
    /// end draws.
    pub fn candidate_roles(&self) -> Vec<(usize, Value, CandidateRole)> {
        let h = &self.highlights;
        let mut all: Vec<(usize, Value)> = self
            .eliminations
            .iter()
            .chain(&self.placements)
            .chain(&h.candidates)
            .copied()
            .chain(h.roles.iter().map(|&(c, v, _)| (c, v)))
            .collect();
        all.sort_unstable();
        all.dedup();
        all.into_iter()
            .filter_map(|(c, v)| self.role_of(c, v).map(|r| (c, v, r)))
            .collect()
    }

    /// The part unit `unit` plays in the step: its listed role, else
    /// [`UnitRole::Involved`] when it is one of the highlighted units;
    /// `None` when the step does not involve it.
    pub fn unit_role(&self, unit: usize) -> Option<UnitRole> {
        let h = &self.highlights;
        h.unit_roles
            .iter()
            .find(|&&(u, _)| u == unit)
            .map(|&(_, r)| r)
            .or_else(|| h.units.contains(&unit).then_some(UnitRole::Involved))
    }

    /// Makes the step whole, as every step the solver gives is: the roles
    /// its technique left unsaid are filled ([`Highlights`]), and the
    /// explanation ends with the effect (` => …`, the text of
    /// [`Step::effect`] on an n×n board) unless it has one already.
    pub(crate) fn finish(&mut self, n: usize) {
        self.highlights.fill_default_roles();
        let effect = self.effect();
        if !effect.is_empty() && !self.explanation.contains(EFFECT_MARK) {
            self.explanation.push_str(EFFECT_MARK);
            self.explanation.push_str(&effect.text(n));
        }
    }

    /// One eliminating step of technique `t` uniting two steps (dual
    /// kites and empty rectangles, Siamese fish): the eliminations of
    /// both, sorted, and the highlights of both.
    pub(crate) fn united(t: Technique, a: &Step, b: &Step, explanation: String) -> Step {
        let mut eliminations = a.eliminations.clone();
        union_into(&mut eliminations, &b.eliminations);
        eliminations.sort_unstable();
        let mut h = a.highlights.clone();
        union_into(&mut h.cells, &b.highlights.cells);
        union_into(&mut h.candidates, &b.highlights.candidates);
        union_into(&mut h.units, &b.highlights.units);
        union_into(&mut h.links, &b.highlights.links);
        union_into(&mut h.roles, &b.highlights.roles);
        union_into(&mut h.unit_roles, &b.highlights.unit_roles);
        Step {
            technique: t,
            placements: Vec::new(),
            eliminations,
            highlights: h,
            explanation,
        }
    }
}

/// Appends the items of `more` that `into` lacks.
fn union_into<T: PartialEq + Copy>(into: &mut Vec<T>, more: &[T]) {
    for &x in more {
        if !into.contains(&x) {
            into.push(x);
        }
    }
}
