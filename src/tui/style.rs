//! Resolved styles by semantic role: what the drawing code reads. Widgets
//! never name a colour; they ask for a role. Built from a theme file
//! (`store::theme`) and the terminal's colour depth, or from the built-in
//! fallback used by tests.

use ratatui::style::{Color, Modifier, Style};

use crate::engine::logic::{CandidateRole, UnitRole};
use crate::store::{self, ColorDepth, Named16, RoleStyle, Theme};

pub use crate::store::Role;

/// The style role that draws a candidate playing `role` in a step.
/// Colours and sets beyond the four that have roles take them again
/// (the fifth set looks like the first).
pub fn candidate_role(role: CandidateRole) -> Role {
    match role {
        CandidateRole::Eliminated => Role::Eliminated,
        CandidateRole::Placed => Role::Placed,
        CandidateRole::Fin => Role::Fin,
        CandidateRole::EndoFin => Role::EndoFin,
        CandidateRole::ChainOn => Role::ChainOn,
        CandidateRole::ChainOff => Role::ChainOff,
        CandidateRole::Colour(k) => {
            [Role::ColourA, Role::ColourB, Role::ColourC, Role::ColourD][usize::from(k % 4)]
        }
        CandidateRole::Set(k) => {
            [Role::SetA, Role::SetB, Role::SetC, Role::SetD][usize::from(k % 4)]
        }
        CandidateRole::Pattern => Role::Pattern,
    }
}

/// The style role that tints a unit playing `role` in a step.
pub fn unit_role(role: UnitRole) -> Role {
    match role {
        UnitRole::Base => Role::UnitBase,
        UnitRole::Cover => Role::UnitCover,
        UnitRole::Involved => Role::Hint,
    }
}

/// A style for every role.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Styles {
    styles: Vec<Style>,
}

impl Styles {
    /// The style of `role`.
    pub fn get(&self, role: Role) -> Style {
        self.styles[role as usize]
    }

    /// Sets the style of `role`.
    pub fn set(&mut self, role: Role, style: Style) {
        self.styles[role as usize] = style;
    }

    /// Built-in styles using only the 16 ANSI colours and modifiers, so they
    /// read on any terminal; the fallback when no theme loads, and what
    /// rendering tests use.
    pub fn basic() -> Styles {
        let mut s = Styles {
            styles: vec![Style::default(); Role::ALL.len()],
        };
        let fg = |c| Style::default().fg(c);
        s.set(Role::Dim, fg(Color::DarkGray));
        s.set(Role::Title, fg(Color::Cyan).add_modifier(Modifier::BOLD));
        s.set(Role::Status, fg(Color::Gray));
        s.set(Role::Given, fg(Color::White).add_modifier(Modifier::BOLD));
        s.set(Role::Entered, fg(Color::LightBlue));
        s.set(Role::Candidate, fg(Color::DarkGray));
        s.set(
            Role::Cursor,
            Style::default().add_modifier(Modifier::REVERSED),
        );
        s.set(Role::Peer, Style::default().bg(Color::Black));
        s.set(
            Role::SameDigit,
            fg(Color::Yellow).add_modifier(Modifier::BOLD),
        );
        s.set(
            Role::Conflict,
            fg(Color::LightRed).add_modifier(Modifier::BOLD),
        );
        s.set(Role::ConflictUnit, Style::default().bg(Color::Red));
        s.set(
            Role::Wrong,
            fg(Color::Red).add_modifier(Modifier::UNDERLINED),
        );
        s.set(Role::BoxBorder, fg(Color::Gray));
        s.set(Role::CellBorder, fg(Color::DarkGray));
        s.set(Role::Hint, Style::default().bg(Color::Yellow));
        s.set(
            Role::HintTarget,
            fg(Color::LightGreen).add_modifier(Modifier::BOLD),
        );
        s.set(
            Role::Selected,
            Style::default().add_modifier(Modifier::REVERSED),
        );
        s.set(Role::SolverTry, fg(Color::LightYellow));
        s.set(Role::SolverBacktrack, fg(Color::LightMagenta));
        s.set(Role::Solved, fg(Color::LightGreen));
        s.set(Role::UnitBase, Style::default().bg(Color::Blue));
        s.set(Role::UnitCover, Style::default().bg(Color::Cyan));
        // A step's candidates, as the basic16 theme: chips on the
        // backgrounds no unit tint uses, the rarer roles as bright text.
        let chip = |fg: Color, bg: Color| Style::default().fg(fg).bg(bg);
        let (k, w) = (Color::Black, Color::White);
        let (bold, under) = (Modifier::BOLD, Modifier::UNDERLINED);
        let text = |c: Color| Style::default().fg(c).add_modifier(bold | under);
        s.set(Role::Pattern, chip(k, Color::Green));
        s.set(Role::Fin, chip(k, Color::Magenta));
        s.set(Role::EndoFin, chip(w, Color::Magenta).add_modifier(bold));
        s.set(
            Role::Eliminated,
            chip(w, Color::Red).add_modifier(bold | Modifier::CROSSED_OUT),
        );
        s.set(Role::Placed, chip(k, Color::Gray).add_modifier(bold));
        s.set(Role::ChainOn, chip(k, Color::Green).add_modifier(bold));
        s.set(Role::ChainOff, text(Color::LightBlue));
        s.set(
            Role::ChainOrder,
            fg(Color::LightYellow).add_modifier(Modifier::BOLD),
        );
        s.set(Role::ColourA, chip(k, Color::Green).add_modifier(under));
        s.set(Role::ColourB, chip(k, Color::Magenta).add_modifier(under));
        s.set(Role::ColourC, chip(k, Color::Gray).add_modifier(under));
        s.set(Role::ColourD, text(Color::LightYellow));
        s.set(Role::SetA, text(Color::LightGreen));
        s.set(Role::SetB, text(Color::LightMagenta));
        s.set(Role::SetC, text(Color::LightCyan));
        s.set(Role::SetD, chip(k, Color::Gray).add_modifier(bold | under));
        s
    }
}

impl Styles {
    /// The styles of `theme` on a terminal of `depth` colours (colours the
    /// terminal cannot show are mapped to the nearest it can).
    pub fn from_theme(theme: &Theme, depth: ColorDepth) -> Styles {
        let mut s = Styles {
            styles: vec![Style::default(); Role::ALL.len()],
        };
        for role in Role::ALL {
            s.set(role, convert(theme.style(role, depth)));
        }
        s
    }
}

fn color(c: store::Color) -> Color {
    match c {
        store::Color::Reset => Color::Reset,
        store::Color::Indexed(i) => Color::Indexed(i),
        store::Color::Rgb(r, g, b) => Color::Rgb(r, g, b),
        store::Color::Named(n) => match n {
            Named16::Black => Color::Black,
            Named16::Red => Color::Red,
            Named16::Green => Color::Green,
            Named16::Yellow => Color::Yellow,
            Named16::Blue => Color::Blue,
            Named16::Magenta => Color::Magenta,
            Named16::Cyan => Color::Cyan,
            Named16::Gray => Color::Gray,
            Named16::DarkGray => Color::DarkGray,
            Named16::LightRed => Color::LightRed,
            Named16::LightGreen => Color::LightGreen,
            Named16::LightYellow => Color::LightYellow,
            Named16::LightBlue => Color::LightBlue,
            Named16::LightMagenta => Color::LightMagenta,
            Named16::LightCyan => Color::LightCyan,
            Named16::White => Color::White,
        },
    }
}

fn convert(r: RoleStyle) -> Style {
    let mut st = Style::default();
    if let Some(fg) = r.fg {
        st = st.fg(color(fg));
    }
    if let Some(bg) = r.bg {
        st = st.bg(color(bg));
    }
    for (on, m) in [
        (r.bold, Modifier::BOLD),
        (r.italic, Modifier::ITALIC),
        (r.underline, Modifier::UNDERLINED),
        (r.reversed, Modifier::REVERSED),
        (r.dim, Modifier::DIM),
        (r.crossed_out, Modifier::CROSSED_OUT),
    ] {
        if on {
            st = st.add_modifier(m);
        }
    }
    st
}

impl Styles {
    /// The same roles without any colour, for `NO_COLOR`: each role keeps
    /// only what modifiers can say, so a given (bold), an entry (plain), a
    /// conflict (underlined), a wrong entry (crossed out and underlined)
    /// and the cursor (reversed) still read apart on any terminal. A
    /// step's candidates differ by modifier alone, each from every other,
    /// from a plain (dim) candidate and from a value (bold or plain): the
    /// pattern underlined, a fin reversed and underlined, what the step
    /// removes reversed and crossed out, what it places reversed, bold and
    /// underlined, a chain's true nodes bold and underlined, its false ones
    /// dim and underlined; colours and sets add italic or crossed out. The
    /// marks that matter most (pattern, fin, removed, placed, chain on and
    /// off) still differ where crossed-out and italic text does not show
    /// (the Linux console). Unit tints have no modifier that reads over
    /// whole cells, so units are left plain.
    pub fn monochrome(&self) -> Styles {
        const B: Modifier = Modifier::BOLD;
        const D: Modifier = Modifier::DIM;
        const I: Modifier = Modifier::ITALIC;
        const U: Modifier = Modifier::UNDERLINED;
        const R: Modifier = Modifier::REVERSED;
        const X: Modifier = Modifier::CROSSED_OUT;
        let m = |mods: Modifier| Style::default().add_modifier(mods);
        let mut s = Styles {
            styles: vec![Style::default(); Role::ALL.len()],
        };
        for role in Role::ALL {
            let style = match role {
                Role::Background | Role::Text | Role::Entered | Role::Peer => Style::default(),
                Role::ConflictUnit | Role::Hint => Style::default(),
                Role::Dim | Role::Candidate | Role::CellBorder => m(Modifier::DIM),
                Role::Title | Role::Given | Role::Solved | Role::BoxBorder => m(Modifier::BOLD),
                Role::Status | Role::Cursor | Role::Selected => m(Modifier::REVERSED),
                Role::SameDigit => m(Modifier::BOLD),
                Role::Conflict => m(Modifier::UNDERLINED | Modifier::BOLD),
                Role::Wrong => m(Modifier::UNDERLINED | Modifier::CROSSED_OUT),
                Role::HintTarget => m(Modifier::UNDERLINED),
                Role::SolverTry => m(Modifier::REVERSED | Modifier::BOLD),
                Role::SolverBacktrack => m(Modifier::REVERSED | Modifier::UNDERLINED),
                Role::UnitBase | Role::UnitCover => Style::default(),
                Role::Pattern => m(U),
                Role::Fin => m(R | U),
                Role::EndoFin => m(R | U | I),
                Role::Eliminated => m(R | X),
                Role::Placed => m(R | B | U),
                Role::ChainOn => m(B | U),
                Role::ChainOff => m(D | U),
                Role::ChainOrder => m(B),
                Role::ColourA => m(B | U | I),
                Role::ColourB => m(D | U | I),
                Role::ColourC => m(R | B | I),
                Role::ColourD => m(R | D | I),
                Role::SetA => m(B | I),
                Role::SetB => m(I | U),
                Role::SetC => m(B | U | X),
                Role::SetD => m(D | U | X),
            };
            s.set(role, style);
        }
        s
    }

    /// The styles to use: `theme` on `depth`, without colour when the
    /// environment asks for none (`NO_COLOR` set and not empty, as
    /// no-color.org says).
    pub fn for_terminal(
        theme: &Theme,
        depth: ColorDepth,
        env: impl Fn(&str) -> Option<String>,
    ) -> Styles {
        let styles = Styles::from_theme(theme, depth);
        if env("NO_COLOR").is_some_and(|v| !v.is_empty()) {
            styles.monochrome()
        } else {
            styles
        }
    }
}

impl Default for Styles {
    fn default() -> Styles {
        Styles::basic()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Themes;

    #[test]
    fn every_bundled_theme_converts_and_basic16_stays_in_16_colours() {
        let themes = Themes::bundled();
        for depth in [
            ColorDepth::Basic16,
            ColorDepth::Ansi256,
            ColorDepth::TrueColor,
        ] {
            for name in ["default", "light", "high-contrast", "basic16"] {
                let t = themes.pick(name, depth);
                let s = Styles::from_theme(t, depth);
                // Meaningful roles differ from plain text.
                assert_ne!(s.get(Role::Cursor), s.get(Role::Text), "{name}");
                assert_ne!(s.get(Role::Conflict), s.get(Role::Entered), "{name}");
                assert_ne!(s.get(Role::Given), s.get(Role::Entered), "{name}");
                if depth == ColorDepth::Basic16 {
                    for role in Role::ALL {
                        let st = s.get(role);
                        for c in [st.fg, st.bg].into_iter().flatten() {
                            assert!(
                                !matches!(c, Color::Rgb(..) | Color::Indexed(_)),
                                "{name} {role:?} {c:?} on a 16-colour terminal"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Every way the board is styled: each bundled theme at each colour
    /// depth, the built-in basic styles, and each without colour.
    fn every_style() -> Vec<(String, Styles)> {
        let themes = Themes::bundled();
        let mut all = vec![("basic".to_string(), Styles::basic())];
        for depth in [
            ColorDepth::Basic16,
            ColorDepth::Ansi256,
            ColorDepth::TrueColor,
        ] {
            for name in ["default", "light", "high-contrast", "basic16"] {
                let s = Styles::from_theme(themes.pick(name, depth), depth);
                all.push((format!("{name} {depth:?}"), s));
            }
        }
        let mono = all
            .iter()
            .map(|(n, s)| (format!("{n} NO_COLOR"), s.monochrome()))
            .collect::<Vec<_>>();
        all.extend(mono);
        all
    }

    /// A step's candidate roles look different from each other, from a
    /// plain candidate and from a value, in every style; what a step
    /// removes is always crossed out, and red where there is colour.
    #[test]
    fn step_roles_read_apart_in_every_style() {
        for (name, s) in every_style() {
            let roles = Role::STEP_CANDIDATES;
            for (i, &a) in roles.iter().enumerate() {
                for &b in &roles[i + 1..] {
                    assert_ne!(s.get(a), s.get(b), "{name}: {a:?} and {b:?} look alike");
                }
                for other in [Role::Candidate, Role::Given, Role::Entered] {
                    assert_ne!(s.get(a), s.get(other), "{name}: {a:?} looks like {other:?}");
                }
            }
            let gone = s.get(Role::Eliminated);
            assert!(gone.add_modifier.contains(Modifier::CROSSED_OUT), "{name}");
            if !name.ends_with("NO_COLOR") {
                assert!(
                    matches!(gone.bg, Some(Color::Red | Color::LightRed))
                        || matches!(gone.bg, Some(Color::Indexed(160 | 196 | 9 | 1)))
                        || matches!(gone.bg, Some(Color::Rgb(r, g, b)) if r > 150 && g < 60 && b < 60),
                    "{name}: the elimination is not red: {gone:?}"
                );
            }
        }
    }

    /// Without colour, the roles that matter most still differ where
    /// italic and crossed-out text does not show (the Linux console).
    #[test]
    fn no_color_core_roles_differ_without_italic_or_strikethrough() {
        let s = Styles::basic().monochrome();
        let plain = |r: Role| {
            s.get(r)
                .add_modifier
                .difference(Modifier::ITALIC | Modifier::CROSSED_OUT)
        };
        let core = [
            Role::Pattern,
            Role::Fin,
            Role::Eliminated,
            Role::Placed,
            Role::ChainOn,
            Role::ChainOff,
        ];
        for (i, &a) in core.iter().enumerate() {
            for &b in &core[i + 1..] {
                assert_ne!(plain(a), plain(b), "{a:?} and {b:?}");
            }
            for other in [Role::Candidate, Role::Given, Role::Entered] {
                assert_ne!(plain(a), s.get(other).add_modifier, "{a:?} and {other:?}");
            }
        }
        // Two colours of one colouring, and three sets of an ALS-XY-Wing.
        assert_ne!(plain(Role::ColourA), plain(Role::ColourB));
        let sets = [plain(Role::SetA), plain(Role::SetB), plain(Role::SetC)];
        assert!(sets[0] != sets[1] && sets[1] != sets[2] && sets[0] != sets[2]);
    }

    /// Every candidate and unit role the engine gives has a style role.
    #[test]
    fn engine_roles_map_to_style_roles() {
        assert_eq!(candidate_role(CandidateRole::Colour(5)), Role::ColourB);
        assert_eq!(candidate_role(CandidateRole::Set(4)), Role::SetA);
        assert_eq!(candidate_role(CandidateRole::Eliminated), Role::Eliminated);
        assert_eq!(unit_role(UnitRole::Base), Role::UnitBase);
        assert_eq!(unit_role(UnitRole::Cover), Role::UnitCover);
        assert_eq!(unit_role(UnitRole::Involved), Role::Hint);
    }
}
