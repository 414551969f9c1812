//! The puzzles shipped with the game, compiled in from `puzzles/`.

use crate::engine::format::{Format, PuzzleReader};
use crate::engine::grid::Puzzle;
use crate::engine::level::Level;
use crate::engine::shape::Shape;

/// The shapes with bundled puzzles: 4×4, 6×6 (boxes 2×3), 9×9, 12×12
/// (boxes 3×4), 16×16 and 25×25. Each has an easy, medium, hard and
/// expert collection, graded at that level (4×4 puzzles never need more
/// than singles: its collections differ in clue count only); there is no
/// bundled extreme.
pub const BUNDLED_SIZES: [Shape; 6] = [
    Shape::fixed(2, 2),
    Shape::fixed(2, 3),
    Shape::fixed(3, 3),
    Shape::fixed(3, 4),
    Shape::fixed(4, 4),
    Shape::fixed(5, 5),
];

/// The file text for a side and level (line format: the usual box shape of
/// each side, which is the bundled one).
fn text(n: usize, level: Level) -> Option<&'static str> {
    macro_rules! files {
        ($($side:literal => $size:literal),* $(,)?) => {
            match (n, level) {
                $(
                    ($side, Level::Easy) => Some(include_str!(concat!("../../../puzzles/", $size, "-easy.txt"))),
                    ($side, Level::Medium) => Some(include_str!(concat!("../../../puzzles/", $size, "-medium.txt"))),
                    ($side, Level::Hard) => Some(include_str!(concat!("../../../puzzles/", $size, "-hard.txt"))),
                    ($side, Level::Expert) => Some(include_str!(concat!("../../../puzzles/", $size, "-expert.txt"))),
                )*
                _ => None,
            }
        };
    }
    files!(4 => "4x4", 6 => "6x6", 9 => "9x9", 12 => "12x12", 16 => "16x16", 25 => "25x25")
}

/// The bundled puzzles of `shape` and `level`, in file order; empty when
/// none are bundled (other shapes, [`Level::Extreme`]). A line that does
/// not read as a puzzle of `shape` is skipped.
pub fn bundled(shape: Shape, level: Level) -> Vec<Puzzle> {
    if !BUNDLED_SIZES.contains(&shape) {
        return Vec::new();
    }
    let Some(text) = text(shape.n(), level) else {
        return Vec::new();
    };
    PuzzleReader::new(text.as_bytes(), "bundled", Some(Format::Line))
        .filter_map(Result::ok)
        .filter(|p| p.shape() == shape)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_collection_is_there() {
        for shape in BUNDLED_SIZES {
            for level in [Level::Easy, Level::Medium, Level::Hard, Level::Expert] {
                // 25×25: five each.
                let want = if shape.n() == 25 { 5 } else { 20 };
                assert_eq!(bundled(shape, level).len(), want, "{shape} {level}");
            }
            assert!(bundled(shape, Level::Extreme).is_empty());
        }
        assert!(bundled(Shape::new(3, 2).unwrap(), Level::Easy).is_empty());
    }

    /// Every puzzle of `shape` at `level` is unique and grades there. A
    /// 4×4 never needs more than singles, so all four of its collections
    /// are easy and differ in clue count only.
    fn grade_collection(shape: Shape, level: Level) {
        use crate::engine::count::is_unique;
        use crate::engine::grade::grade;
        use crate::engine::limits::Limits;
        for (i, p) in bundled(shape, level).iter().enumerate() {
            assert_eq!(is_unique(p, &Limits::none()), Some(true));
            let want = if shape.n() == 4 { Level::Easy } else { level };
            let got = grade(p).unwrap().level;
            assert_eq!(got, want, "{shape} {level} puzzle {i}");
        }
    }

    /// The collections were made by `generate --level` (25×25: graded
    /// runs, each puzzle filed under the level it graded at) and still
    /// grade at their level: a grader change that moves one fails here.
    /// The 16×16 and 25×25 expert collections, seconds each, have tests of
    /// their own so that they grade beside the rest.
    #[test]
    fn shipped_puzzles_grade_at_their_level() {
        for shape in BUNDLED_SIZES {
            for level in [Level::Easy, Level::Medium, Level::Hard, Level::Expert] {
                if !matches!((shape.n(), level), (16 | 25, Level::Expert)) {
                    grade_collection(shape, level);
                }
            }
        }
    }

    #[test]
    fn shipped_16x16_expert_puzzles_grade_expert() {
        grade_collection(Shape::square(4).unwrap(), Level::Expert);
    }

    #[test]
    fn shipped_25x25_expert_puzzles_grade_expert() {
        grade_collection(Shape::square(5).unwrap(), Level::Expert);
    }
}
