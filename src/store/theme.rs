//! Themes: styles by semantic role (`given`, `cursor`, `conflict`, …) in a
//! neutral colour model that the front end converts to its own styles.
//! Four themes are compiled in; a user's `themes/*.toml` adds to them, and a
//! user theme with a bundled theme's name replaces it. Roles a theme leaves
//! out fall back to the bundled default theme.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::OnceLock;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use toml::de::{DeTable, DeValue};

use super::config::{ConfigIssue, dotted_key, one_line, read_text};

/// The bundled themes: file stem and text.
const BUNDLED: [(&str, &str); 4] = [
    ("default", include_str!("../../themes/default.toml")),
    ("light", include_str!("../../themes/light.toml")),
    (
        "high-contrast",
        include_str!("../../themes/high-contrast.toml"),
    ),
    ("basic16", include_str!("../../themes/basic16.toml")),
];

/// The dotted key whose key or value covers byte `offset` of a TOML text
/// (the deepest one), to name the key in a deserializer's error.
fn key_path_at(text: &str, offset: usize) -> Option<String> {
    // Header tables (`[roles.given]`) do not span their contents, so search
    // the whole tree and keep the deepest key that covers the offset.
    fn search(table: &DeTable<'_>, offset: usize, path: &mut Vec<String>, best: &mut Vec<String>) {
        let covers = |r: Range<usize>| r.start <= offset && offset < r.end.max(r.start + 1);
        for (k, v) in table {
            path.push(k.get_ref().to_string());
            if (covers(k.span()) || covers(v.span())) && path.len() > best.len() {
                *best = path.clone();
            }
            if let DeValue::Table(inner) = v.get_ref() {
                search(inner, offset, path, best);
            }
            path.pop();
        }
    }
    let root = DeTable::parse(text).ok()?;
    let mut best = Vec::new();
    search(root.get_ref(), offset, &mut Vec::new(), &mut best);
    if best.is_empty() {
        return None;
    }
    let refs: Vec<&str> = best.iter().map(String::as_str).collect();
    Some(dotted_key(&refs))
}

/// The sixteen colours every colour terminal has, in ANSI order (index 0–15).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Named16 {
    /// ANSI 0.
    Black,
    /// ANSI 1.
    Red,
    /// ANSI 2.
    Green,
    /// ANSI 3 (brown on some consoles).
    Yellow,
    /// ANSI 4.
    Blue,
    /// ANSI 5.
    Magenta,
    /// ANSI 6.
    Cyan,
    /// ANSI 7: light gray, the console's usual text colour.
    Gray,
    /// ANSI 8: bright black.
    DarkGray,
    /// ANSI 9.
    LightRed,
    /// ANSI 10.
    LightGreen,
    /// ANSI 11.
    LightYellow,
    /// ANSI 12.
    LightBlue,
    /// ANSI 13.
    LightMagenta,
    /// ANSI 14.
    LightCyan,
    /// ANSI 15.
    White,
}

impl Named16 {
    /// All sixteen, in ANSI order.
    pub const ALL: [Named16; 16] = [
        Named16::Black,
        Named16::Red,
        Named16::Green,
        Named16::Yellow,
        Named16::Blue,
        Named16::Magenta,
        Named16::Cyan,
        Named16::Gray,
        Named16::DarkGray,
        Named16::LightRed,
        Named16::LightGreen,
        Named16::LightYellow,
        Named16::LightBlue,
        Named16::LightMagenta,
        Named16::LightCyan,
        Named16::White,
    ];

    /// The snake_case name used in theme files.
    pub fn name(self) -> &'static str {
        match self {
            Named16::Black => "black",
            Named16::Red => "red",
            Named16::Green => "green",
            Named16::Yellow => "yellow",
            Named16::Blue => "blue",
            Named16::Magenta => "magenta",
            Named16::Cyan => "cyan",
            Named16::Gray => "gray",
            Named16::DarkGray => "dark_gray",
            Named16::LightRed => "light_red",
            Named16::LightGreen => "light_green",
            Named16::LightYellow => "light_yellow",
            Named16::LightBlue => "light_blue",
            Named16::LightMagenta => "light_magenta",
            Named16::LightCyan => "light_cyan",
            Named16::White => "white",
        }
    }

    /// The colour with this name, ignoring case, `-`, `_` and spaces, and
    /// taking "grey" for "gray".
    pub fn from_name(name: &str) -> Option<Named16> {
        let squash = |s: &str| -> String {
            s.chars()
                .filter(|c| !matches!(c, '-' | '_' | ' '))
                .flat_map(char::to_lowercase)
                .collect::<String>()
                .replace("grey", "gray")
        };
        let want = squash(name);
        Named16::ALL.into_iter().find(|c| squash(c.name()) == want)
    }

    /// The ANSI index, 0–15.
    pub fn index(self) -> u8 {
        self as u8
    }

    /// The colour with ANSI index `i` (0–15).
    pub fn from_index(i: u8) -> Option<Named16> {
        Named16::ALL.get(i as usize).copied()
    }

    /// A typical rendering (the VGA palette), used to find the nearest one.
    pub fn rgb(self) -> (u8, u8, u8) {
        match self {
            Named16::Black => (0, 0, 0),
            Named16::Red => (170, 0, 0),
            Named16::Green => (0, 170, 0),
            Named16::Yellow => (170, 170, 0),
            Named16::Blue => (0, 0, 170),
            Named16::Magenta => (170, 0, 170),
            Named16::Cyan => (0, 170, 170),
            Named16::Gray => (170, 170, 170),
            Named16::DarkGray => (85, 85, 85),
            Named16::LightRed => (255, 85, 85),
            Named16::LightGreen => (85, 255, 85),
            Named16::LightYellow => (255, 255, 85),
            Named16::LightBlue => (85, 85, 255),
            Named16::LightMagenta => (255, 85, 255),
            Named16::LightCyan => (85, 255, 255),
            Named16::White => (255, 255, 255),
        }
    }
}

/// A colour as a theme gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Color {
    /// The terminal's own default (`"reset"`).
    Reset,
    /// One of the sixteen named colours (`"red"`, `"light_blue"`).
    Named(Named16),
    /// An entry of the 256-colour palette (an integer 0–255).
    Indexed(u8),
    /// A 24-bit colour (`"#rrggbb"`).
    Rgb(u8, u8, u8),
}

/// The levels of the 6×6×6 colour cube in the 256-colour palette.
const CUBE: [u8; 6] = [0, 95, 135, 175, 215, 255];

impl Color {
    /// Reads `"reset"`, a colour name, `"#rrggbb"` (or `"#rgb"`), or a
    /// palette index written as text (`"208"`); `None` for anything else
    /// (`str::parse` says why).
    pub fn parse(text: &str) -> Option<Color> {
        text.parse().ok()
    }

    /// A typical RGB rendering (`None` for [`Color::Reset`]).
    pub fn to_rgb(self) -> Option<(u8, u8, u8)> {
        match self {
            Color::Reset => None,
            Color::Named(n) => Some(n.rgb()),
            Color::Rgb(r, g, b) => Some((r, g, b)),
            Color::Indexed(i) => Some(indexed_rgb(i)),
        }
    }

    /// The colour as a terminal of `depth` can show it: unchanged where it
    /// can; RGB becomes the nearest entry of the 256-colour cube or gray ramp
    /// on [`ColorDepth::Ansi256`]; anything becomes the nearest of the sixteen
    /// named colours on [`ColorDepth::Basic16`].
    pub fn degrade(self, depth: ColorDepth) -> Color {
        match (self, depth) {
            (Color::Reset | Color::Named(_), _) | (_, ColorDepth::TrueColor) => self,
            (Color::Indexed(_), ColorDepth::Ansi256) => self,
            (Color::Rgb(r, g, b), ColorDepth::Ansi256) => Color::Indexed(nearest_256((r, g, b))),
            (Color::Indexed(i), ColorDepth::Basic16) if i < 16 => {
                Named16::from_index(i).map_or(self, Color::Named)
            }
            (Color::Indexed(_) | Color::Rgb(..), ColorDepth::Basic16) => {
                let rgb = self.to_rgb().unwrap_or((0, 0, 0));
                let best = Named16::ALL
                    .into_iter()
                    .min_by_key(|n| distance(rgb, n.rgb()))
                    .unwrap_or(Named16::White);
                Color::Named(best)
            }
        }
    }
}

/// The usual RGB of a 256-colour palette entry.
fn indexed_rgb(i: u8) -> (u8, u8, u8) {
    match i {
        0..=15 => Named16::from_index(i).map_or((0, 0, 0), Named16::rgb),
        16..=231 => {
            let k = (i - 16) as usize;
            (CUBE[k / 36], CUBE[(k / 6) % 6], CUBE[k % 6])
        }
        _ => {
            let v = 8 + 10 * (i - 232);
            (v, v, v)
        }
    }
}

/// The nearest entry of the cube (16–231) or the gray ramp (232–255); the
/// first sixteen are left out because terminals render them differently.
fn nearest_256(rgb: (u8, u8, u8)) -> u8 {
    let level = |v: u8| {
        (0..6)
            .min_by_key(|&k| (i32::from(CUBE[k]) - i32::from(v)).abs())
            .unwrap_or(0)
    };
    let (r, g, b) = (level(rgb.0), level(rgb.1), level(rgb.2));
    let cube = (16 + 36 * r + 6 * g + b) as u8;
    let mean = (u32::from(rgb.0) + u32::from(rgb.1) + u32::from(rgb.2)) / 3;
    let gray = 232 + (mean.saturating_sub(3) / 10).min(23) as u8;
    if distance(rgb, indexed_rgb(gray)) < distance(rgb, indexed_rgb(cube)) {
        gray
    } else {
        cube
    }
}

/// A cheap perceptual distance ("redmean" weighting).
fn distance(a: (u8, u8, u8), b: (u8, u8, u8)) -> i64 {
    let rmean = (i64::from(a.0) + i64::from(b.0)) / 2;
    let dr = i64::from(a.0) - i64::from(b.0);
    let dg = i64::from(a.1) - i64::from(b.1);
    let db = i64::from(a.2) - i64::from(b.2);
    (((512 + rmean) * dr * dr) >> 8) + 4 * dg * dg + (((767 - rmean) * db * db) >> 8)
}

impl fmt::Display for Color {
    /// The form a theme file uses: `reset`, `red`, `208`, `#ff8700`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Color::Reset => f.write_str("reset"),
            Color::Named(n) => f.write_str(n.name()),
            Color::Indexed(i) => write!(f, "{i}"),
            Color::Rgb(r, g, b) => write!(f, "#{r:02x}{g:02x}{b:02x}"),
        }
    }
}

/// Why text is not a colour; each quotes the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ColorError {
    /// `#` followed by something other than three or six hex digits.
    #[error(
        "`{0}` is not a colour: after `#` come six hex digits (\"#rrggbb\") or three (\"#rgb\")"
    )]
    Hex(String),
    /// A whole number outside the palette.
    #[error("`{0}` is not a colour: palette indices run from 0 to 255")]
    Index(String),
    /// Not a name, a number or `#…`.
    #[error(
        "`{0}` is not a colour: expected a name such as \"red\" or \"light_blue\", \"#rrggbb\", an integer 0 to 255, or \"reset\""
    )]
    Unknown(String),
}

impl FromStr for Color {
    type Err = ColorError;

    /// Reads `"reset"`, a colour name, `"#rrggbb"` (or `"#rgb"`), or a
    /// palette index written as text (`"208"`).
    fn from_str(text: &str) -> Result<Color, ColorError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("reset") || t.eq_ignore_ascii_case("default") {
            return Ok(Color::Reset);
        }
        if let Some(hex) = t.strip_prefix('#') {
            let bad = || ColorError::Hex(text.to_string());
            if !hex.chars().all(|c| c.is_ascii_hexdigit()) {
                return Err(bad());
            }
            let channel = |s: &str| u8::from_str_radix(s, 16).map_err(|_| bad());
            return match hex.len() {
                6 => Ok(Color::Rgb(
                    channel(&hex[0..2])?,
                    channel(&hex[2..4])?,
                    channel(&hex[4..6])?,
                )),
                3 => {
                    let d = |i: usize| channel(&hex[i..i + 1]).map(|v| v * 17);
                    Ok(Color::Rgb(d(0)?, d(1)?, d(2)?))
                }
                _ => Err(bad()),
            };
        }
        if let Ok(i) = t.parse::<i64>() {
            return u8::try_from(i)
                .map(Color::Indexed)
                .map_err(|_| ColorError::Index(text.to_string()));
        }
        Named16::from_name(t)
            .map(Color::Named)
            .ok_or_else(|| ColorError::Unknown(text.to_string()))
    }
}

impl Serialize for Color {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Color::Indexed(i) => s.serialize_u8(*i),
            other => s.collect_str(other),
        }
    }
}

impl<'de> Deserialize<'de> for Color {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        struct ColorVisitor;
        impl Visitor<'_> for ColorVisitor {
            type Value = Color;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a colour: a name such as \"red\", \"#rrggbb\", an integer 0 to 255, or \"reset\"")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Color, E> {
                v.parse().map_err(E::custom)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Color, E> {
                u8::try_from(v)
                    .map(Color::Indexed)
                    .map_err(|_| E::custom(format!("colour index {v} is not in 0 to 255")))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Color, E> {
                u8::try_from(v)
                    .map(Color::Indexed)
                    .map_err(|_| E::custom(format!("colour index {v} is not in 0 to 255")))
            }
        }
        d.deserialize_any(ColorVisitor)
    }
}

/// How many colours the terminal shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum ColorDepth {
    /// The sixteen named colours (the Linux console, old terminals).
    Basic16,
    /// The 256-colour palette.
    #[default]
    Ansi256,
    /// 24-bit colour.
    TrueColor,
}

/// The `colors` of `term`'s terminfo entry (`Some(None)` when the entry
/// has none), or `None` when there is no readable entry.
pub(crate) fn terminfo_colors(term: &str) -> Option<Option<u32>> {
    let info = termini::TermInfo::from_name(term).ok()?;
    Some(
        info.number_cap(termini::NumberCapability::MaxColors)
            .and_then(|c| u32::try_from(c).ok()),
    )
}

impl ColorDepth {
    /// Guesses the terminal's colours from its environment, given as a
    /// lookup (`|k| std::env::var(k).ok()`), and the colours its terminfo
    /// entry gives (`terminfo(term)`: `Some(None)` for an entry without
    /// colours, `None` for no entry): `COLORTERM=truecolor|24bit` or a
    /// `TERM` ending in `-direct` → true colour; then the entry's `colors`
    /// (256 or more → 256, fewer or none → 16); without an entry, `TERM`
    /// containing `256color` → 256; `TERM` of `linux`, `dumb`, `ansi`,
    /// `cons25`, plain `xterm`, `vt…` or `…-16color` → 16. Anything else
    /// (including no `TERM` at all) → 256, which almost every terminal in
    /// use today supports.
    pub fn detect(
        get: impl Fn(&str) -> Option<String>,
        terminfo: impl Fn(&str) -> Option<Option<u32>>,
    ) -> ColorDepth {
        let colorterm = get("COLORTERM").unwrap_or_default().to_ascii_lowercase();
        if colorterm == "truecolor" || colorterm == "24bit" {
            return ColorDepth::TrueColor;
        }
        let term = get("TERM").unwrap_or_default().to_ascii_lowercase();
        if term.ends_with("-direct") || term.contains("truecolor") || term.contains("24bit") {
            return ColorDepth::TrueColor;
        }
        if !term.is_empty()
            && let Some(colors) = terminfo(&term)
        {
            return match colors {
                Some(c) if c >= 256 => ColorDepth::Ansi256,
                _ => ColorDepth::Basic16,
            };
        }
        if term.contains("256color") {
            ColorDepth::Ansi256
        } else if matches!(
            term.as_str(),
            "linux" | "dumb" | "ansi" | "cons25" | "xterm"
        ) || term.starts_with("vt")
            || term.ends_with("-16color")
        {
            ColorDepth::Basic16
        } else {
            ColorDepth::Ansi256
        }
    }

    /// [`ColorDepth::detect`] on this process's environment and the
    /// system's terminfo database.
    pub fn from_env() -> ColorDepth {
        ColorDepth::detect(|k| std::env::var(k).ok(), terminfo_colors)
    }

    /// The word used for `min_colors` in theme files.
    pub fn name(self) -> &'static str {
        match self {
            ColorDepth::Basic16 => "16",
            ColorDepth::Ansi256 => "256",
            ColorDepth::TrueColor => "truecolor",
        }
    }
}

impl Serialize for ColorDepth {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for ColorDepth {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ColorDepth, D::Error> {
        struct DepthVisitor;
        impl Visitor<'_> for DepthVisitor {
            type Value = ColorDepth;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("\"16\", \"256\" or \"truecolor\"")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ColorDepth, E> {
                match v.trim().to_ascii_lowercase().as_str() {
                    "16" => Ok(ColorDepth::Basic16),
                    "256" => Ok(ColorDepth::Ansi256),
                    "truecolor" | "24bit" => Ok(ColorDepth::TrueColor),
                    _ => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
                }
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<ColorDepth, E> {
                match v {
                    16 => Ok(ColorDepth::Basic16),
                    256 => Ok(ColorDepth::Ansi256),
                    _ => Err(E::invalid_value(de::Unexpected::Signed(v), &self)),
                }
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<ColorDepth, E> {
                self.visit_i64(i64::try_from(v).unwrap_or(i64::MAX))
            }
        }
        d.deserialize_any(DepthVisitor)
    }
}

/// What a piece of the screen means. Content roles (`given`, `entered`,
/// `candidate`, `conflict`, `wrong`, `solver_*`) mostly set a foreground;
/// area roles (`cursor`, `peer`, `same_digit`, `conflict_unit`, `selected`,
/// `hint`, `hint_target`, `unit_base`, `unit_cover`) mostly set a
/// background, so the two can be layered. The step roles (`pattern`, `fin`,
/// `eliminated`, `placed`, `chain_on`, …) mark one candidate of a hint or a
/// logic step by the part it plays; they set both colours (a "chip" that
/// reads over any tint), and differ by modifier too, so they still read
/// apart without colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The screen behind everything.
    Background,
    /// Ordinary text.
    Text,
    /// Less important text.
    Dim,
    /// Titles of panels and dialogs.
    Title,
    /// The status bar.
    Status,
    /// A puzzle's clue.
    Given,
    /// A digit the player placed.
    Entered,
    /// A pencil mark.
    Candidate,
    /// The cell under the cursor.
    Cursor,
    /// Cells that see the cursor (same row, column or box).
    Peer,
    /// Cells holding the digit under the cursor.
    SameDigit,
    /// A digit that clashes with another in its row, column or box.
    Conflict,
    /// The row, column or box that holds a clash.
    ConflictUnit,
    /// A digit that differs from the solution (after a check).
    Wrong,
    /// Lines between boxes.
    BoxBorder,
    /// Lines between cells within a box.
    CellBorder,
    /// The units (rows, columns, boxes) a hint or step is about, other
    /// than a fish's base and cover lines.
    Hint,
    /// The cells a hint is about, where it marks cells rather than
    /// candidates (wrong entries); a hint's text.
    HintTarget,
    /// A selected menu item or cell range.
    Selected,
    /// The solver view: a value being tried.
    SolverTry,
    /// The solver view: a value being taken back.
    SolverBacktrack,
    /// A solved board.
    Solved,
    /// A fish's base lines (the lines whose places are confined).
    UnitBase,
    /// A fish's cover lines (the lines that hold those places).
    UnitCover,
    /// A candidate that makes a step's pattern (a subset's values, a
    /// fish's body, a wing's cells, …): HoDoKu's defining candidates.
    Pattern,
    /// A fin of a finned or sashimi fish (and a unique rectangle's extra
    /// candidates).
    Fin,
    /// An endo-fin (a fin where two base lines overlap).
    EndoFin,
    /// A candidate the step removes.
    Eliminated,
    /// The value the step places.
    Placed,
    /// A chain node that is true (a strong link leads into it).
    ChainOn,
    /// A chain node that is false (a weak link leads into it).
    ChainOff,
    /// The order numbers of a chain's cells, drawn on the line above each.
    ChainOrder,
    /// A colouring's first colour.
    ColourA,
    /// A colouring's second colour (the first cluster's other one).
    ColourB,
    /// The first colour of a second cluster (Multi Colors).
    ColourC,
    /// The second colour of a second cluster.
    ColourD,
    /// The first almost locked set (or Sue de Coq's line set).
    SetA,
    /// The second set (Sue de Coq's box set).
    SetB,
    /// The third set (Sue de Coq's intersection).
    SetC,
    /// The fourth set; later sets take A, B, C and D again.
    SetD,
}

impl Role {
    /// Every role, in file order.
    pub const ALL: [Role; 40] = [
        Role::Background,
        Role::Text,
        Role::Dim,
        Role::Title,
        Role::Status,
        Role::Given,
        Role::Entered,
        Role::Candidate,
        Role::Cursor,
        Role::Peer,
        Role::SameDigit,
        Role::Conflict,
        Role::ConflictUnit,
        Role::Wrong,
        Role::BoxBorder,
        Role::CellBorder,
        Role::Hint,
        Role::HintTarget,
        Role::Selected,
        Role::SolverTry,
        Role::SolverBacktrack,
        Role::Solved,
        Role::UnitBase,
        Role::UnitCover,
        Role::Pattern,
        Role::Fin,
        Role::EndoFin,
        Role::Eliminated,
        Role::Placed,
        Role::ChainOn,
        Role::ChainOff,
        Role::ChainOrder,
        Role::ColourA,
        Role::ColourB,
        Role::ColourC,
        Role::ColourD,
        Role::SetA,
        Role::SetB,
        Role::SetC,
        Role::SetD,
    ];

    /// Whether the role marks a hint or logic step on the board: a
    /// candidate's role, a unit's tint or the chain order.
    pub fn is_step_mark(self) -> bool {
        matches!(
            self,
            Role::Hint | Role::UnitBase | Role::UnitCover | Role::ChainOrder
        ) || Role::STEP_CANDIDATES.contains(&self)
    }

    /// The roles that mark one candidate of a step, in the order of
    /// [`Role::ALL`]: each must look different from the others, and from
    /// a plain candidate ([`Role::Candidate`]), in every theme and without
    /// colour.
    pub const STEP_CANDIDATES: [Role; 15] = [
        Role::Pattern,
        Role::Fin,
        Role::EndoFin,
        Role::Eliminated,
        Role::Placed,
        Role::ChainOn,
        Role::ChainOff,
        Role::ColourA,
        Role::ColourB,
        Role::ColourC,
        Role::ColourD,
        Role::SetA,
        Role::SetB,
        Role::SetC,
        Role::SetD,
    ];
}

/// How one role looks. Everything is optional: `None` and `false` leave the
/// layer below as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(
    default,
    deny_unknown_fields,
    expecting = "a table of a role's style, such as { fg = \"red\", bold = true }"
)]
pub struct RoleStyle {
    /// Foreground colour.
    pub fg: Option<Color>,
    /// Background colour.
    pub bg: Option<Color>,
    /// Bold (brighter on many consoles).
    pub bold: bool,
    /// Italic.
    pub italic: bool,
    /// Underlined.
    pub underline: bool,
    /// Foreground and background swapped.
    pub reversed: bool,
    /// Faint.
    pub dim: bool,
    /// Crossed out (a line through the text; `strikethrough` works too).
    /// Terminals without it (the Linux console) show the text plainly,
    /// so a role never relies on it alone.
    #[serde(alias = "strikethrough")]
    pub crossed_out: bool,
}

impl RoleStyle {
    /// The style with both colours degraded to `depth` (see [`Color::degrade`]).
    pub fn degrade(self, depth: ColorDepth) -> RoleStyle {
        RoleStyle {
            fg: self.fg.map(|c| c.degrade(depth)),
            bg: self.bg.map(|c| c.degrade(depth)),
            ..self
        }
    }
}

/// One theme.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Theme {
    /// Its name (the file's `name`, or else the file's stem).
    pub name: String,
    /// One line for the theme menu.
    pub description: String,
    /// The colours it needs to look as meant (it still works with fewer:
    /// colours are degraded).
    pub min_colors: ColorDepth,
    /// The roles it sets; the others come from the bundled default.
    pub roles: BTreeMap<Role, RoleStyle>,
    /// The user's file it came from; `None` for a bundled theme.
    pub source: Option<PathBuf>,
}

/// A theme file, read strictly: unknown keys and roles are errors.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ThemeFile {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    description: String,
    #[serde(default)]
    min_colors: ColorDepth,
    #[serde(default)]
    roles: BTreeMap<Role, RoleStyle>,
}

impl Theme {
    /// Reads a theme file's text strictly. `file` names it in the issue and
    /// gives the name when the file has none. The issue says nothing yet of
    /// what happens instead; callers add that.
    pub fn parse(text: &str, file: &Path) -> Result<Theme, ConfigIssue> {
        let parsed: ThemeFile = toml::from_str(text).map_err(|e| {
            let start = e.span().map(|s| s.start);
            let key = start.and_then(|at| key_path_at(text, at));
            let issue = ConfigIssue::new(file, key, one_line(e.message()));
            match start {
                Some(at) => issue.at_offset(text, at),
                None => issue,
            }
        })?;
        let stem = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = parsed
            .name
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty())
            .unwrap_or(stem);
        Ok(Theme {
            name,
            description: parsed.description,
            min_colors: parsed.min_colors,
            roles: parsed.roles,
            source: Some(file.to_path_buf()),
        })
    }

    /// The bundled themes, in menu order.
    pub fn bundled() -> Vec<Theme> {
        BUNDLED
            .iter()
            .filter_map(|(stem, text)| {
                let mut t = Theme::parse(text, Path::new(&format!("{stem}.toml"))).ok()?;
                t.source = None;
                Some(t)
            })
            .collect()
    }

    /// The bundled default theme, which every other theme falls back to.
    pub fn bundled_default() -> &'static Theme {
        static DEFAULT: OnceLock<Theme> = OnceLock::new();
        DEFAULT.get_or_init(|| {
            let mut t = Theme::parse(BUNDLED[0].1, Path::new("default.toml")).unwrap_or(Theme {
                name: "default".to_string(),
                description: String::new(),
                min_colors: ColorDepth::Ansi256,
                roles: BTreeMap::new(),
                source: None,
            });
            t.source = None;
            t
        })
    }

    /// The bundled basic16 theme (the default theme if it cannot be read,
    /// which a test rules out).
    fn bundled_basic16() -> &'static Theme {
        static BASIC16: OnceLock<Theme> = OnceLock::new();
        BASIC16.get_or_init(|| {
            let (stem, text) = BUNDLED[3];
            let mut t = Theme::parse(text, Path::new(&format!("{stem}.toml")))
                .unwrap_or_else(|_| Theme::bundled_default().clone());
            t.source = None;
            t
        })
    }

    /// How `role` looks in this theme, or in the bundled default if this
    /// theme does not say.
    pub fn role(&self, role: Role) -> RoleStyle {
        self.roles
            .get(&role)
            .or_else(|| Theme::bundled_default().roles.get(&role))
            .copied()
            .unwrap_or_default()
    }

    /// [`Theme::role`] with its colours degraded to what the terminal
    /// shows. On a terminal with fewer colours than the theme needs, a
    /// step's marks and tints ([`Role::is_step_mark`]) come from the
    /// bundled basic16 theme instead: degraded one by one, the colours
    /// that tell a fin from a pattern candidate would meet in one of the
    /// sixteen.
    pub fn style(&self, role: Role, depth: ColorDepth) -> RoleStyle {
        if depth < self.min_colors && role.is_step_mark() {
            return Theme::bundled_basic16().role(role).degrade(depth);
        }
        self.role(role).degrade(depth)
    }

    /// Whether this is one of the compiled-in themes.
    pub fn is_bundled(&self) -> bool {
        self.source.is_none()
    }
}

/// The themes on offer: the bundled ones, replaced or joined by the user's.
#[derive(Debug, Clone)]
pub struct Themes {
    list: Vec<Theme>,
}

impl Themes {
    /// Only the bundled themes.
    pub fn bundled() -> Themes {
        Themes {
            list: Theme::bundled(),
        }
    }

    /// The bundled themes plus every `*.toml` in `themes_dir` (a missing
    /// folder is fine). A user theme whose name matches a bundled one (case
    /// aside) replaces it; a broken user file is reported and skipped.
    pub fn load(themes_dir: &Path) -> (Themes, Vec<ConfigIssue>) {
        let mut themes = Themes::bundled();
        let mut issues = Vec::new();
        let entries = match std::fs::read_dir(themes_dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (themes, issues),
            Err(e) => {
                let msg = format!("cannot read the themes folder: {e}; using the bundled themes");
                issues.push(ConfigIssue::new(themes_dir, None, msg));
                return (themes, issues);
            }
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                p.extension()
                    .is_some_and(|x| x.eq_ignore_ascii_case("toml"))
                    && p.is_file()
            })
            .collect();
        files.sort();
        let mut from_user: Vec<(String, PathBuf)> = Vec::new();
        for file in files {
            let theme = match read_text(&file) {
                Ok(Some(text)) => Theme::parse(&text, &file),
                Ok(None) => continue,
                Err(issue) => Err(issue),
            };
            let theme = match theme {
                Ok(t) => t,
                Err(mut issue) => {
                    issue.message.push_str("; theme skipped");
                    issues.push(issue);
                    continue;
                }
            };
            let key = theme.name.to_lowercase();
            if let Some((_, earlier)) = from_user.iter().find(|(k, _)| *k == key) {
                let msg = format!(
                    "a theme named \"{}\" is also in {}; using this one",
                    theme.name,
                    earlier.display()
                );
                issues.push(ConfigIssue::new(&file, Some("name".to_string()), msg));
            }
            from_user.push((key, file));
            themes.insert(theme);
        }
        (themes, issues)
    }

    /// Adds a theme, replacing any of the same name (case aside).
    pub fn insert(&mut self, theme: Theme) {
        match self
            .list
            .iter_mut()
            .find(|t| t.name.eq_ignore_ascii_case(&theme.name))
        {
            Some(slot) => *slot = theme,
            None => self.list.push(theme),
        }
    }

    /// The theme with this name (case aside).
    pub fn get(&self, name: &str) -> Option<&Theme> {
        let name = name.trim();
        self.list.iter().find(|t| t.name.eq_ignore_ascii_case(name))
    }

    /// Every theme: the bundled ones first, then the user's in file order.
    pub fn iter(&self) -> impl Iterator<Item = &Theme> {
        self.list.iter()
    }

    /// The names, in the order of [`Themes::iter`].
    pub fn names(&self) -> Vec<&str> {
        self.list.iter().map(|t| t.name.as_str()).collect()
    }

    /// The theme to use for the config's `theme` value: `"auto"` means
    /// "default" on terminals with 256 colours or more and "basic16" on
    /// others; an unknown name gives "default" (the caller reports it,
    /// having checked [`Themes::get`]).
    pub fn pick(&self, wanted: &str, depth: ColorDepth) -> &Theme {
        let wanted = wanted.trim();
        let name = if wanted.eq_ignore_ascii_case("auto") {
            match depth {
                ColorDepth::Basic16 => "basic16",
                ColorDepth::Ansi256 | ColorDepth::TrueColor => "default",
            }
        } else {
            wanted
        };
        self.get(name)
            .or_else(|| self.get("default"))
            .unwrap_or_else(|| Theme::bundled_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        }
    }

    #[test]
    fn colour_depth_detection_table() {
        use ColorDepth::*;
        let cases: &[(&[(&str, &str)], ColorDepth)] = &[
            (
                &[("COLORTERM", "truecolor"), ("TERM", "xterm-256color")],
                TrueColor,
            ),
            (&[("COLORTERM", "24bit"), ("TERM", "linux")], TrueColor),
            (&[("COLORTERM", "TrueColor")], TrueColor),
            (&[("TERM", "xterm-direct")], TrueColor),
            (&[("TERM", "xterm-256color")], Ansi256),
            (&[("TERM", "screen-256color")], Ansi256),
            (&[("TERM", "tmux-256color"), ("COLORTERM", "yes")], Ansi256),
            (&[("TERM", "linux")], Basic16),
            (&[("TERM", "vt100")], Basic16),
            (&[("TERM", "vt220")], Basic16),
            (&[("TERM", "dumb")], Basic16),
            (&[("TERM", "rxvt-16color")], Basic16),
            (&[("TERM", "xterm")], Basic16),
            (&[], Ansi256),
        ];
        for (vars, want) in cases {
            assert_eq!(ColorDepth::detect(env(vars), |_| None), *want, "{vars:?}");
        }
    }

    /// The terminfo entry's `colors` decides where there is one:
    /// `TERM=screen` (8 colours) is a 16-colour terminal, whatever its name
    /// suggests; true colour asked for in `COLORTERM` still wins.
    #[test]
    fn colour_depth_follows_the_terminfo_entry() {
        use ColorDepth::*;
        let entries = |term: &str| match term {
            "screen" | "xterm" => Some(Some(8)),
            "screen-256color" | "foot" => Some(Some(256)),
            "rxvt-88color" => Some(Some(88)),
            "dumb" => Some(None),
            _ => None,
        };
        let cases: &[(&[(&str, &str)], ColorDepth)] = &[
            (&[("TERM", "screen")], Basic16),
            (&[("TERM", "screen-256color")], Ansi256),
            (&[("TERM", "foot")], Ansi256),
            (&[("TERM", "rxvt-88color")], Basic16),
            (&[("TERM", "dumb")], Basic16),
            (&[("TERM", "screen"), ("COLORTERM", "truecolor")], TrueColor),
            // No entry: the name decides.
            (&[("TERM", "weird-256color")], Ansi256),
            (&[("TERM", "weird")], Ansi256),
            (&[], Ansi256),
        ];
        for (vars, want) in cases {
            assert_eq!(ColorDepth::detect(env(vars), entries), *want, "{vars:?}");
        }
    }

    /// The system's database, where it has the common entries (ncurses-base
    /// on Debian): `xterm-256color` has 256 colours, `vt100` none.
    #[test]
    fn the_system_terminfo_is_read() {
        if terminfo_colors("xterm-256color").is_none() {
            eprintln!("no terminfo database here: nothing to read");
            return;
        }
        assert_eq!(terminfo_colors("xterm-256color"), Some(Some(256)));
        assert_eq!(terminfo_colors("no-such-terminal-here"), None);
    }

    #[test]
    fn colours_parse_and_print() {
        assert_eq!(Color::parse("red"), Some(Color::Named(Named16::Red)));
        assert_eq!(
            Color::parse("Dark-Grey"),
            Some(Color::Named(Named16::DarkGray))
        );
        assert_eq!(Color::parse("#FF8700"), Some(Color::Rgb(255, 135, 0)));
        assert_eq!(Color::parse("#f80"), Some(Color::Rgb(255, 136, 0)));
        assert_eq!(Color::parse("208"), Some(Color::Indexed(208)));
        assert_eq!(Color::parse("reset"), Some(Color::Reset));
        for bad in ["", "#12345", "#gggggg", "256", "-1", "purple", "#ééé"] {
            assert_eq!(Color::parse(bad), None, "{bad}");
            let e = bad.parse::<Color>().unwrap_err();
            assert!(e.to_string().starts_with(&format!("`{bad}`")), "{e}");
        }
        assert_eq!(
            "#12345".parse::<Color>(),
            Err(ColorError::Hex("#12345".into()))
        );
        assert_eq!("256".parse::<Color>(), Err(ColorError::Index("256".into())));
        assert_eq!(
            "purple".parse::<Color>(),
            Err(ColorError::Unknown("purple".into()))
        );
        for c in [
            Color::Reset,
            Color::Named(Named16::LightCyan),
            Color::Indexed(17),
            Color::Rgb(1, 2, 3),
        ] {
            assert_eq!(Color::parse(&c.to_string()), Some(c));
        }
        for n in Named16::ALL {
            assert_eq!(Named16::from_index(n.index()), Some(n));
            assert_eq!(Named16::from_name(n.name()), Some(n));
        }
    }

    #[test]
    fn degrade_mapping() {
        use ColorDepth::*;
        let rgb = Color::Rgb(255, 135, 0);
        assert_eq!(rgb.degrade(TrueColor), rgb);
        assert_eq!(rgb.degrade(Ansi256), Color::Indexed(208));
        assert_eq!(Color::Rgb(0, 0, 0).degrade(Ansi256), Color::Indexed(16));
        assert_eq!(
            Color::Rgb(255, 255, 255).degrade(Ansi256),
            Color::Indexed(231)
        );
        assert_eq!(
            Color::Rgb(128, 128, 128).degrade(Ansi256),
            Color::Indexed(244)
        );
        assert_eq!(Color::Rgb(30, 30, 30).degrade(Ansi256), Color::Indexed(234));
        // Every cube and ramp entry maps back to itself.
        for i in 16..=255u8 {
            let (r, g, b) = indexed_rgb(i);
            let back = Color::Rgb(r, g, b).degrade(Ansi256);
            assert_eq!(back.to_rgb(), Some((r, g, b)), "{i}");
        }
        assert_eq!(
            Color::Indexed(9).degrade(Basic16),
            Color::Named(Named16::LightRed)
        );
        assert_eq!(
            Color::Indexed(196).degrade(Basic16),
            Color::Named(Named16::Red)
        );
        assert_eq!(
            Color::Indexed(203).degrade(Basic16),
            Color::Named(Named16::LightRed)
        );
        assert_eq!(
            Color::Rgb(160, 0, 0).degrade(Basic16),
            Color::Named(Named16::Red)
        );
        assert_eq!(
            Color::Rgb(10, 10, 20).degrade(Basic16),
            Color::Named(Named16::Black)
        );
        assert_eq!(
            Color::Indexed(231).degrade(Basic16),
            Color::Named(Named16::White)
        );
        assert_eq!(
            Color::Indexed(27).degrade(Basic16),
            Color::Named(Named16::LightBlue)
        );
        assert_eq!(Color::Reset.degrade(Basic16), Color::Reset);
        let named = Color::Named(Named16::Cyan);
        assert_eq!(named.degrade(Basic16), named);
        assert_eq!(named.degrade(Ansi256), named);
    }

    fn reddish(c: Option<Color>) -> bool {
        matches!(
            c.map(|c| c.degrade(ColorDepth::Basic16)),
            Some(Color::Named(Named16::Red | Named16::LightRed))
        )
    }

    #[test]
    fn bundled_themes_are_complete_and_readable() {
        let themes = Theme::bundled();
        let names: Vec<&str> = themes.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["default", "light", "high-contrast", "basic16"]);
        for t in &themes {
            assert!(!t.description.is_empty(), "{}", t.name);
            for role in Role::ALL {
                assert!(t.roles.contains_key(&role), "{} lacks {role:?}", t.name);
            }
            let given = t.role(Role::Given);
            let entered = t.role(Role::Entered);
            assert!(
                given.fg != entered.fg && given.bold && !entered.bold,
                "{}: given and entered look alike",
                t.name
            );
            let conflict = t.role(Role::Conflict);
            assert!(
                reddish(conflict.fg) || reddish(conflict.bg),
                "{}: conflict is not red",
                t.name
            );
            let cursor = t.role(Role::Cursor);
            assert!(cursor.reversed || cursor.bg.is_some(), "{}", t.name);
            assert_ne!(cursor, t.role(Role::Peer), "{}", t.name);
            assert_ne!(cursor, t.role(Role::SameDigit), "{}", t.name);
        }
        let basic = &themes[3];
        assert_eq!(basic.min_colors, ColorDepth::Basic16);
        for (role, style) in &basic.roles {
            for c in [style.fg, style.bg].into_iter().flatten() {
                assert!(matches!(c, Color::Named(_)), "basic16 {role:?} uses {c}");
            }
        }
    }

    #[test]
    fn missing_roles_fall_back_to_the_default_theme() {
        let t = Theme::parse(
            "name = \"mine\"\n[roles.given]\nfg = \"red\"\nbold = true\n",
            Path::new("/t/mine.toml"),
        )
        .unwrap();
        assert_eq!(t.role(Role::Given).fg, Some(Color::Named(Named16::Red)));
        let default = Theme::bundled_default();
        for role in Role::ALL.into_iter().filter(|r| *r != Role::Given) {
            assert_eq!(t.role(role), default.role(role));
        }
        assert_eq!(t.min_colors, ColorDepth::Ansi256);
        assert!(!t.is_bundled());
    }

    #[test]
    fn strict_parsing_names_the_key() {
        let text = "name = \"x\"\n[roles.givn]\nfg = \"red\"\n";
        let e = Theme::parse(text, Path::new("/t/x.toml")).unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
        assert!(e.to_string().contains("givn"), "{e}");
        let text = "[roles.given]\nfg = \"purple\"\n";
        let e = Theme::parse(text, Path::new("/t/x.toml")).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("roles.given.fg"), "{e}");
        assert_eq!((e.line, e.col), (Some(2), Some(6)), "{e}");
        assert!(e.message.contains("purple"), "{e}");
        let text = "[roles.given]\nfg = 300\n";
        let e = Theme::parse(text, Path::new("/t/x.toml")).unwrap_err();
        assert!(e.message.contains("300"), "{e}");
        let text = "colour = 1\n";
        let e = Theme::parse(text, Path::new("/t/x.toml")).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("colour"), "{e}");
        let text = "[roles.given]\nblink = true\n";
        let e = Theme::parse(text, Path::new("/t/x.toml")).unwrap_err();
        assert!(e.message.contains("blink"), "{e}");
        let e = Theme::parse("min_colors = \"8\"", Path::new("/t/x.toml")).unwrap_err();
        assert!(e.message.contains("truecolor"), "{e}");
    }

    #[test]
    fn key_paths_by_offset() {
        let text = "name = \"x\"\n[roles.given]\nfg = \"nope\"\n";
        let at = text.find("nope").unwrap();
        assert_eq!(key_path_at(text, at).as_deref(), Some("roles.given.fg"));
        assert_eq!(key_path_at(text, 1).as_deref(), Some("name"));
        assert_eq!(key_path_at("a = [", 0), None);
    }

    #[test]
    fn pick_auto_and_unknown() {
        let themes = Themes::bundled();
        assert_eq!(themes.pick("auto", ColorDepth::TrueColor).name, "default");
        assert_eq!(themes.pick("auto", ColorDepth::Ansi256).name, "default");
        assert_eq!(themes.pick("AUTO", ColorDepth::Basic16).name, "basic16");
        assert_eq!(themes.pick("light", ColorDepth::Basic16).name, "light");
        assert_eq!(
            themes.pick("High-Contrast", ColorDepth::Ansi256).name,
            "high-contrast"
        );
        assert_eq!(themes.pick("nope", ColorDepth::Ansi256).name, "default");
        assert!(themes.get("nope").is_none());
    }

    /// A theme written before the step roles existed still loads: the
    /// roles it leaves out come from the default theme, and on a terminal
    /// with fewer colours than it needs, from basic16.
    #[test]
    fn a_theme_without_the_step_roles_loads_with_fallbacks() {
        let text = "name = \"old\"\nmin_colors = \"256\"\n[roles.given]\nfg = 231\nbold = true\n\
                    [roles.hint]\nfg = 214\nbold = true\n";
        let t = Theme::parse(text, Path::new("/t/old.toml")).unwrap();
        let default = Theme::bundled_default();
        for role in [Role::Eliminated, Role::Fin, Role::UnitBase, Role::ChainOn] {
            assert_eq!(t.role(role), default.role(role), "{role:?}");
            assert_eq!(
                t.style(role, ColorDepth::Basic16),
                Theme::bundled_basic16().role(role),
                "{role:?}"
            );
        }
        assert!(t.role(Role::Eliminated).crossed_out);
        // Its own roles stay its own, even the old look of `hint`.
        assert_eq!(t.role(Role::Hint).fg, Some(Color::Indexed(214)));
        assert_eq!(Theme::bundled_basic16().name, "basic16");
    }

    /// `crossed_out` (or `strikethrough`) crosses a role's text out.
    #[test]
    fn crossed_out_and_its_alias() {
        for key in ["crossed_out", "strikethrough"] {
            let text = format!("[roles.eliminated]\nfg = \"red\"\n{key} = true\n");
            let t = Theme::parse(&text, Path::new("/t/x.toml")).unwrap();
            assert!(t.role(Role::Eliminated).crossed_out, "{key}");
        }
    }

    /// Every bundled theme crosses out what a step removes, in red.
    #[test]
    fn bundled_themes_cross_out_eliminations_in_red() {
        for t in Theme::bundled() {
            let e = t.role(Role::Eliminated);
            assert!(e.crossed_out && reddish(e.bg), "{}: {e:?}", t.name);
        }
    }
}
