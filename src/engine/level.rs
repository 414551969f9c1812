//! Difficulty levels, shared by the generator, the grader and the game.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// How hard a puzzle is for a person. The grader assigns a level from the
/// hardest technique a puzzle needs, and the generator keeps the puzzles
/// graded at the level asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Singles only.
    Easy,
    /// Intersections and subsets.
    Medium,
    /// Fish, wings, single-digit patterns, colouring, uniqueness.
    Hard,
    /// Chains and almost locked sets.
    Expert,
    /// Forcing chains or guessing.
    Extreme,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 5] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Expert,
        Level::Extreme,
    ];

    /// The lower-case name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
            Level::Extreme => "extreme",
        }
    }

    /// The level with this name (case-insensitive).
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(name.trim()))
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a name is not a level.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LevelError {
    /// No level has this name.
    #[error("unknown level `{given}`: expected easy, medium, hard, expert or extreme")]
    Unknown {
        /// The name given.
        given: String,
    },
}

impl FromStr for Level {
    type Err = LevelError;
    fn from_str(s: &str) -> Result<Level, LevelError> {
        Level::from_name(s).ok_or_else(|| LevelError::Unknown {
            given: s.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_order() {
        for l in Level::ALL {
            assert_eq!(l.name().parse::<Level>(), Ok(l));
            assert_eq!(l.to_string().to_uppercase().parse::<Level>(), Ok(l));
        }
        assert!(Level::Easy < Level::Extreme);
        let e = "brutal".parse::<Level>().unwrap_err();
        assert_eq!(
            e,
            LevelError::Unknown {
                given: "brutal".to_string()
            }
        );
        // The message names the bad value and every level.
        let text = e.to_string();
        assert!(text.contains("`brutal`"), "{text}");
        assert!(Level::ALL.iter().all(|l| text.contains(l.name())), "{text}");
    }
}
