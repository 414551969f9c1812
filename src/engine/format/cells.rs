//! Cell symbols shared by the formats: digits and letters, blank markers,
//! numbers, and the wording of what was expected.

use crate::engine::grid::{Puzzle, Value};
use crate::engine::shape::Shape;

use super::FormatErrorKind;

/// The largest side a single character can spell: `1`-`9` then `A`-`Z` (A = 10 … Z = 35).
pub const MAX_CHAR_SIDE: usize = 35;

/// The value a character spells (`1`-`9`, `A`-`Z` either case), ignoring n.
pub(super) fn char_value(c: char) -> Option<usize> {
    match c {
        '1'..='9' => Some(c as usize - '0' as usize),
        'a'..='z' => Some(c as usize - 'a' as usize + 10),
        'A'..='Z' => Some(c as usize - 'A' as usize + 10),
        _ => None,
    }
}

/// The character for a value 1..=35 (`?` outside, which no writer asks for).
pub(super) fn value_char(v: usize) -> char {
    match v {
        1..=9 => char::from(b'0' + v as u8),
        10..=MAX_CHAR_SIDE => char::from(b'A' + (v - 10) as u8),
        _ => '?',
    }
}

/// A single-character cell: `Some(None)` for a blank marker, `Some(Some(v))`
/// for a value up to n, `None` when the character is neither.
pub(super) fn char_cell(c: char, n: usize, blanks: &[char]) -> Option<Option<Value>> {
    if blanks.contains(&c) {
        return Some(None);
    }
    char_value(c).filter(|&v| v <= n).map(Value::new)
}

/// The characters a cell may be, in words: `1-9, A-G, '.' or '0'`.
pub(super) fn expected_chars(n: usize, blanks: &[char]) -> String {
    let mut parts = vec![format!("1-{}", n.min(9))];
    if n == 10 {
        parts.push("A".into());
    } else if n > 10 {
        parts.push(format!("A-{}", value_char(n.min(MAX_CHAR_SIDE))));
    }
    parts.extend(blanks.iter().map(|c| format!("'{c}'")));
    join_or(&parts)
}

/// `a, b or c`.
pub(super) fn join_or(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// A number token: blank words and `0` give `None`; values above n are refused.
pub(super) fn number_cell(
    token: &str,
    n: usize,
    blanks: &[&str],
    expected: impl FnOnce() -> String,
) -> Result<Option<Value>, FormatErrorKind> {
    if blanks.contains(&token) {
        return Ok(None);
    }
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FormatErrorKind::BadToken {
            found: token.to_owned(),
            expected: expected(),
        });
    }
    match token.parse::<usize>() {
        Ok(v) if v <= n => Ok(Value::new(v)),
        _ => Err(FormatErrorKind::ValueTooLarge {
            value: token.to_owned(),
            n,
        }),
    }
}

/// Whether a token is all ASCII digits (and not empty).
pub(super) fn is_number(token: &str) -> bool {
    !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit())
}

/// Decimal digits in n.
pub(super) fn width(n: usize) -> usize {
    n.to_string().len()
}

/// A token quoted for a message, shortened when long.
pub(super) fn quote(token: &str) -> String {
    const SHOWN: usize = 40;
    if token.is_empty() {
        return "an empty cell".into();
    }
    let mut chars = token.chars();
    let head: String = chars.by_ref().take(SHOWN).collect();
    let more = if chars.next().is_some() { "…" } else { "" };
    format!("'{}{more}'", head.escape_debug())
}

/// `1 cell`, `2 cells`.
pub(super) fn count(k: usize, noun: &str) -> String {
    if k == 1 {
        format!("1 {noun}")
    } else {
        format!("{k} {noun}s")
    }
}

/// The 1-based character column where `inner` starts inside `outer`
/// (`inner` must be a subslice of `outer`).
pub(super) fn col_of(outer: &str, inner: &str) -> usize {
    let offset = (inner.as_ptr() as usize).saturating_sub(outer.as_ptr() as usize);
    outer
        .get(..offset.min(outer.len()))
        .map_or(0, |s| s.chars().count())
        + 1
}

/// Builds the puzzle from cells the caller has already checked against n.
pub(super) fn build(shape: Shape, cells: Vec<Option<Value>>) -> Result<Puzzle, FormatErrorKind> {
    Puzzle::new(shape, cells).map_err(|e| match e {
        crate::engine::GridError::ValueOutOfRange { value, n, .. } => {
            FormatErrorKind::ValueTooLarge {
                value: value.to_string(),
                n,
            }
        }
        crate::engine::GridError::CellCount {
            expected, found, ..
        } => FormatErrorKind::CellCount { expected, found },
        crate::engine::GridError::Empty { .. } => FormatErrorKind::NoRows,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn characters_and_values() {
        assert_eq!(char_value('1'), Some(1));
        assert_eq!(char_value('9'), Some(9));
        assert_eq!(char_value('A'), Some(10));
        assert_eq!(char_value('g'), Some(16));
        assert_eq!(char_value('Z'), Some(35));
        assert_eq!(char_value('0'), None);
        for v in 1..=MAX_CHAR_SIDE {
            assert_eq!(char_value(value_char(v)), Some(v));
        }
        assert_eq!(char_cell('.', 9, &['.', '0']), Some(None));
        assert_eq!(char_cell('G', 16, &['.']), Some(Value::new(16)));
        assert_eq!(char_cell('G', 15, &['.']), None);
        assert_eq!(char_cell('x', 9, &['.']), None);
    }

    #[test]
    fn expected_sets_read_well() {
        assert_eq!(expected_chars(9, &['.', '0']), "1-9, '.' or '0'");
        assert_eq!(expected_chars(16, &['.', '0']), "1-9, A-G, '.' or '0'");
        assert_eq!(expected_chars(4, &['.', '0']), "1-4, '.' or '0'");
        assert_eq!(expected_chars(10, &['.']), "1-9, A or '.'");
        assert_eq!(
            expected_chars(9, &['.', '0', '_', '*']),
            "1-9, '.', '0', '_' or '*'"
        );
    }

    #[test]
    fn numbers() {
        let exp = || "a number".to_string();
        assert_eq!(number_cell("0", 9, &["."], exp), Ok(None));
        assert_eq!(number_cell(".", 9, &["."], exp), Ok(None));
        assert_eq!(number_cell("09", 9, &["."], exp), Ok(Value::new(9)));
        assert_eq!(
            number_cell("10", 9, &["."], exp),
            Err(FormatErrorKind::ValueTooLarge {
                value: "10".into(),
                n: 9
            })
        );
        assert!(matches!(
            number_cell("99999999999999999999999", 9, &[], exp),
            Err(FormatErrorKind::ValueTooLarge { .. })
        ));
        assert!(matches!(
            number_cell("x1", 9, &[], exp),
            Err(FormatErrorKind::BadToken { .. })
        ));
        assert_eq!(width(9), 1);
        assert_eq!(width(400), 3);
    }

    #[test]
    fn quoting_and_columns() {
        assert_eq!(quote("ab"), "'ab'");
        assert_eq!(quote(""), "an empty cell");
        assert_eq!(quote(&"y".repeat(50)), format!("'{}…'", "y".repeat(40)));
        let s = "é, x";
        assert_eq!(col_of(s, &s[4..]), 4);
        assert_eq!(col_of(s, s), 1);
    }
}
