//! The terminal game (feature `tui`): an Elm-style [`app::App`] changed only
//! by [`app::App::update`] with [`action::Action`]s, which returns effects
//! the [`runner`] performs (jobs for the [`worker`], saves, quitting);
//! drawing ([`ui`]) is a pure function of `&App`.

pub mod action;
pub mod app;
pub mod keymap;
pub mod layout;
pub mod playback;
pub mod runner;
pub mod style;
pub mod ui;
pub mod worker;
