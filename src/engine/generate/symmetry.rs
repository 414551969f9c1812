//! Clue symmetries: which cells must be given or blank together.

use std::fmt;
use std::str::FromStr;

/// A symmetry of the clue pattern: when a cell is a clue, so is every image
/// of it under the symmetry (its *orbit*).
///
/// Every grid is n × n, so each symmetry applies to every shape, rectangular
/// boxes included: the symmetry concerns where the clues stand, not the box
/// structure, and a clue pattern need not map boxes onto boxes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Symmetry {
    /// No constraint on the clue pattern.
    #[default]
    None,
    /// Half-turn: (r, c) and (n−1−r, n−1−c). The classic newspaper symmetry.
    Rotate180,
    /// Quarter-turn: the four rotations of a cell.
    Rotate90,
    /// Mirror in the horizontal middle line: (r, c) and (n−1−r, c), top ↔ bottom.
    MirrorHorizontal,
    /// Mirror in the vertical middle line: (r, c) and (r, n−1−c), left ↔ right.
    MirrorVertical,
    /// Mirror in the main diagonal: (r, c) and (c, r).
    Diagonal,
}

impl Symmetry {
    /// Every symmetry, `None` first.
    pub const ALL: [Symmetry; 6] = [
        Symmetry::None,
        Symmetry::Rotate180,
        Symmetry::Rotate90,
        Symmetry::MirrorHorizontal,
        Symmetry::MirrorVertical,
        Symmetry::Diagonal,
    ];

    /// The lower-case name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotate180 => "rotate180",
            Symmetry::Rotate90 => "rotate90",
            Symmetry::MirrorHorizontal => "mirror-horizontal",
            Symmetry::MirrorVertical => "mirror-vertical",
            Symmetry::Diagonal => "diagonal",
        }
    }

    /// The symmetry with this name, ignoring case, surrounding spaces and
    /// `_` for `-`.
    pub fn from_name(name: &str) -> Option<Symmetry> {
        let name = name.trim().replace('_', "-");
        Symmetry::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(&name))
    }

    /// The images of (row, col) in an n × n grid, the cell itself first,
    /// each image once.
    pub fn orbit(self, n: usize, row: usize, col: usize) -> Vec<(usize, usize)> {
        let m = n - 1;
        let images: &[(usize, usize)] = match self {
            Symmetry::None => &[(row, col)],
            Symmetry::Rotate180 => &[(row, col), (m - row, m - col)],
            Symmetry::Rotate90 => &[
                (row, col),
                (col, m - row),
                (m - row, m - col),
                (m - col, row),
            ],
            Symmetry::MirrorHorizontal => &[(row, col), (m - row, col)],
            Symmetry::MirrorVertical => &[(row, col), (row, m - col)],
            Symmetry::Diagonal => &[(row, col), (col, row)],
        };
        let mut out: Vec<(usize, usize)> = Vec::with_capacity(images.len());
        for &p in images {
            if !out.contains(&p) {
                out.push(p);
            }
        }
        out
    }

    /// The orbits of an n × n grid as lists of row-major cell indices, in
    /// order of their first cell; together they partition the grid.
    pub fn orbits(self, n: usize) -> Vec<Vec<usize>> {
        let mut taken = vec![false; n * n];
        let mut out = Vec::new();
        for i in 0..n * n {
            if taken[i] {
                continue;
            }
            let orbit: Vec<usize> = self
                .orbit(n, i / n, i % n)
                .into_iter()
                .map(|(r, c)| r * n + c)
                .collect();
            for &c in &orbit {
                taken[c] = true;
            }
            out.push(orbit);
        }
        out
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a name is not a symmetry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SymmetryError {
    /// No symmetry has this name.
    #[error(
        "unknown symmetry `{given}`: expected none, rotate180, rotate90, mirror-horizontal, \
         mirror-vertical or diagonal"
    )]
    Unknown {
        /// The name given.
        given: String,
    },
}

impl FromStr for Symmetry {
    type Err = SymmetryError;
    fn from_str(s: &str) -> Result<Symmetry, SymmetryError> {
        Symmetry::from_name(s).ok_or_else(|| SymmetryError::Unknown {
            given: s.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for s in Symmetry::ALL {
            assert_eq!(s.name().parse::<Symmetry>(), Ok(s));
            assert_eq!(s.to_string().to_uppercase().parse::<Symmetry>(), Ok(s));
        }
        assert_eq!(
            "mirror_vertical".parse::<Symmetry>(),
            Ok(Symmetry::MirrorVertical)
        );
        let e = "spiral".parse::<Symmetry>().unwrap_err();
        assert_eq!(
            e,
            SymmetryError::Unknown {
                given: "spiral".to_string()
            }
        );
        // The message names the bad value and every symmetry.
        let text = e.to_string();
        assert!(text.contains("`spiral`"), "{text}");
        assert!(
            Symmetry::ALL.iter().all(|s| text.contains(s.name())),
            "{text}"
        );
    }

    #[test]
    fn orbits_partition_and_are_closed() {
        for n in [4, 6, 9, 12, 25] {
            for s in Symmetry::ALL {
                let orbits = s.orbits(n);
                let mut seen = vec![0u8; n * n];
                for o in &orbits {
                    for &c in o {
                        seen[c] += 1;
                        // Closed: the orbit of each member is the same set.
                        let mut again: Vec<usize> = s
                            .orbit(n, c / n, c % n)
                            .into_iter()
                            .map(|(r, c)| r * n + c)
                            .collect();
                        let mut mine = o.clone();
                        again.sort_unstable();
                        mine.sort_unstable();
                        assert_eq!(again, mine, "{s} n={n}");
                    }
                }
                assert!(seen.iter().all(|&k| k == 1), "{s} n={n}");
            }
        }
        // The centre of an odd grid is alone under every symmetry.
        for s in Symmetry::ALL {
            assert_eq!(s.orbit(9, 4, 4), vec![(4, 4)]);
        }
        assert_eq!(Symmetry::Rotate90.orbit(9, 0, 1).len(), 4);
        assert_eq!(Symmetry::Diagonal.orbit(9, 3, 3).len(), 1);
    }
}
