//! Resolved styles by semantic role: what the drawing code reads. Widgets
//! never name a colour; they ask for a role. Built from a theme file
//! (`store::theme`) and the terminal's colour depth, or from the built-in
//! fallback used by tests.

use ratatui::style::{Color, Modifier, Style};

use crate::store::{self, ColorDepth, Named16, RoleStyle, Theme};

pub use crate::store::Role;

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
        s.set(Role::Hint, Style::default().bg(Color::Blue));
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
    /// and the cursor (reversed) still read apart on any terminal.
    pub fn monochrome(&self) -> Styles {
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
}
