//! The theme loader: `Theme::parse` on any text (strict: unknown keys and
//! roles are errors). A theme that loads gives a style for every role at
//! every colour depth, its colours print as text that reads back as the same
//! colour, and the theme written back as TOML reads back the same.
#![no_main]

use std::collections::BTreeMap;
use std::path::Path;

use dekadoku::store::{Color, ColorDepth, Role, RoleStyle, Theme, Themes};
use libfuzzer_sys::fuzz_target;
use serde::Serialize;

/// A theme file as written by hand.
#[derive(Serialize)]
struct ThemeFile<'a> {
    name: &'a str,
    description: &'a str,
    min_colors: ColorDepth,
    roles: &'a BTreeMap<Role, RoleStyle>,
}

const DEPTHS: [ColorDepth; 3] = [
    ColorDepth::Basic16,
    ColorDepth::Ansi256,
    ColorDepth::TrueColor,
];

fn check_color(c: Color) {
    assert_eq!(Color::parse(&c.to_string()), Some(c), "{c}");
    for depth in DEPTHS {
        let _ = c.degrade(depth).to_rgb();
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let file = Path::new("fuzz.toml");
    let theme = match Theme::parse(text, file) {
        Ok(theme) => theme,
        Err(issue) => {
            assert!(issue.to_string().starts_with("fuzz.toml"), "{issue}");
            return;
        }
    };
    assert!(!theme.name.is_empty());
    for role in Role::ALL {
        for depth in DEPTHS {
            let _ = theme.style(role, depth);
        }
    }
    for style in theme.roles.values() {
        style.fg.into_iter().chain(style.bg).for_each(check_color);
    }
    let mut themes = Themes::bundled();
    themes.insert(theme.clone());
    assert!(themes.get(&theme.name).is_some());
    let _ = themes.pick(&theme.name, ColorDepth::Basic16);

    let written = toml::to_string(&ThemeFile {
        name: &theme.name,
        description: &theme.description,
        min_colors: theme.min_colors,
        roles: &theme.roles,
    })
    .expect("a theme serialises");
    let again = Theme::parse(&written, file)
        .unwrap_or_else(|e| panic!("a written theme reads back: {e}\n{written}"));
    assert_eq!(again, theme, "{written}");
});
