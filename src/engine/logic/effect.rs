//! What a step changes, in the one canonical form every step's explanation
//! ends with (HoDoKu's): ` => r4c5=7` for a placement, ` => r9c2<>9,
//! r9c3<>9` for eliminations, placements first when a step has both. Cells
//! are `r<row>c<column>` (1-based), values the board's symbols
//! ([`crate::engine::grid::symbol`]: `1`–`9`, then `A`, `B`, … up to 35
//! values, decimal numbers beyond), so `dekadoku hint`, the TUI and a test
//! read the same text, and [`Effect::parse`] reads it back.

use thiserror::Error;

use crate::engine::grid::{Value, symbol};

use super::Step;

/// What comes between a step's reasons and its effect.
pub const EFFECT_MARK: &str = " => ";

/// The placements and eliminations of a step, in canonical order:
/// placements by cell, eliminations by value and then cell (so the removals
/// of one value come together, as HoDoKu lists them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Effect {
    /// Values placed: (cell, value).
    pub placements: Vec<(usize, Value)>,
    /// Candidates removed: (cell, value).
    pub eliminations: Vec<(usize, Value)>,
}

/// Why an effect text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum EffectError {
    /// The text has no ` => ` before its effect.
    #[error("no \"=>\" effect at the end of the text")]
    Missing,
    /// The effect lists nothing.
    #[error("the effect lists nothing")]
    Empty,
    /// One item is not `r<row>c<col>=<value>` or `r<row>c<col><><value>`.
    #[error("\"{item}\" is not a placement (r4c5=7) or an elimination (r4c5<>7): {why}")]
    Item {
        /// The item as written.
        item: String,
        /// What is wrong with it.
        why: &'static str,
    },
}

impl Effect {
    /// The effect of `step`, in canonical order.
    pub fn of(step: &Step) -> Effect {
        let mut placements = step.placements.clone();
        placements.sort_unstable();
        placements.dedup();
        let mut eliminations = step.eliminations.clone();
        eliminations.sort_unstable_by_key(|&(c, v)| (v, c));
        eliminations.dedup();
        Effect {
            placements,
            eliminations,
        }
    }

    /// Whether it changes nothing.
    pub fn is_empty(&self) -> bool {
        self.placements.is_empty() && self.eliminations.is_empty()
    }

    /// `r4c5=7, r9c2<>9, r9c3<>9` on an n×n board (without the ` => `).
    pub fn text(&self, n: usize) -> String {
        let cell = |c: usize| format!("r{}c{}", c / n + 1, c % n + 1);
        self.placements
            .iter()
            .map(|&(c, v)| format!("{}={}", cell(c), symbol(n, v.get())))
            .chain(
                self.eliminations
                    .iter()
                    .map(|&(c, v)| format!("{}<>{}", cell(c), symbol(n, v.get()))),
            )
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Reads an effect as [`Effect::text`] writes it (`r4c5=7, r9c2<>9`)
    /// for an n×n board, keeping the order written. Values are the board's
    /// symbols; letters may be lower case.
    pub fn parse(text: &str, n: usize) -> Result<Effect, EffectError> {
        let mut effect = Effect::default();
        for item in text.split(',').map(str::trim) {
            if item.is_empty() {
                continue;
            }
            let bad = |why| EffectError::Item {
                item: item.to_string(),
                why,
            };
            let (cell, place, value) = if let Some((c, v)) = item.split_once("<>") {
                (c, false, v)
            } else if let Some((c, v)) = item.split_once('=') {
                (c, true, v)
            } else {
                return Err(bad("no \"=\" or \"<>\""));
            };
            let (row, col) = cell
                .trim()
                .strip_prefix('r')
                .and_then(|rest| rest.split_once('c'))
                .ok_or_else(|| bad("the cell is not r<row>c<column>"))?;
            let index = |s: &str| s.parse::<usize>().ok().filter(|&k| (1..=n).contains(&k));
            let (Some(row), Some(col)) = (index(row), index(col)) else {
                return Err(bad("the row or column is not 1 to the board's side"));
            };
            let value = parse_symbol(value.trim(), n).ok_or_else(|| bad("not a value here"))?;
            let at = ((row - 1) * n + col - 1, value);
            if place {
                effect.placements.push(at);
            } else {
                effect.eliminations.push(at);
            }
        }
        if effect.is_empty() {
            return Err(EffectError::Empty);
        }
        Ok(effect)
    }

    /// The effect a step's explanation ends with: what follows its last
    /// ` => `.
    pub fn from_explanation(explanation: &str, n: usize) -> Result<Effect, EffectError> {
        let (_, effect) = explanation
            .rsplit_once(EFFECT_MARK)
            .ok_or(EffectError::Missing)?;
        Effect::parse(effect, n)
    }
}

/// The value symbol `s` stands for on an n-digit board (the inverse of
/// [`symbol`]).
fn parse_symbol(s: &str, n: usize) -> Option<Value> {
    let v = if n <= 35 && s.len() == 1 {
        let ch = s.chars().next()?.to_ascii_uppercase();
        match ch {
            '1'..='9' => ch as usize - '0' as usize,
            'A'..='Z' => ch as usize - 'A' as usize + 10,
            _ => return None,
        }
    } else if n > 35 {
        s.parse::<usize>().ok()?
    } else {
        return None;
    };
    (1..=n).contains(&v).then(|| Value::new(v)).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(d: usize) -> Value {
        Value::new(d).unwrap()
    }

    #[test]
    fn text_and_parse_agree_on_every_symbol_kind() {
        for n in [4, 9, 16, 25, 36, 64] {
            let effect = Effect {
                placements: vec![(0, v(1)), (n * n - 1, v(n))],
                eliminations: vec![(n + 1, v(n - 1)), (2 * n - 1, v(n - 1))],
            };
            let text = effect.text(n);
            assert_eq!(Effect::parse(&text, n), Ok(effect.clone()), "{text}");
            let said = format!("Some Technique: because{EFFECT_MARK}{text}");
            assert_eq!(Effect::from_explanation(&said, n), Ok(effect), "{said}");
        }
        let e = Effect {
            placements: vec![(3 * 9 + 4, v(7))],
            eliminations: vec![(8 * 9 + 1, v(9)), (8 * 9 + 2, v(9))],
        };
        assert_eq!(e.text(9), "r4c5=7, r9c2<>9, r9c3<>9");
        assert_eq!(
            Effect::parse("r1c16<>g, r16c1=A", 16).unwrap().text(16),
            "r16c1=A, r1c16<>G"
        );
    }

    #[test]
    fn bad_effects_are_refused() {
        assert_eq!(
            Effect::from_explanation("no effect", 9),
            Err(EffectError::Missing)
        );
        assert_eq!(Effect::parse(" ", 9), Err(EffectError::Empty));
        for bad in [
            "r4c5", "r0c1=1", "r10c1=1", "x4c5=1", "r4c5=0", "r4c5<>A", "r4=1",
        ] {
            assert!(
                matches!(Effect::parse(bad, 9), Err(EffectError::Item { .. })),
                "{bad}"
            );
        }
        assert!(Effect::parse("r1c1=G", 16).is_ok());
        assert!(Effect::parse("r1c1=H", 16).is_err());
        assert!(Effect::parse("r1c1=36", 36).is_ok());
    }
}
