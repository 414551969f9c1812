//! Driving the game's [`App`] in tests: the app as the game starts it, key
//! actions, and jobs run synchronously (as the runner's worker would).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use dekadoku::engine::TraceEvent;
use dekadoku::game::Game;
use dekadoku::store::Config;
use dekadoku::tui::action::{Action, Loaded};
use dekadoku::tui::app::{App, Effect};
use dekadoku::tui::keymap::Keymap;
use dekadoku::tui::style::Styles;
use dekadoku::tui::worker::run_job;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// A new app on the start screen: default config, the basic styles, the
/// shipped keys, a fixed seed.
pub fn app() -> App {
    App::new(Config::default(), Styles::basic(), Keymap::defaults(), 7)
}

/// A key without modifiers.
pub fn key(c: KeyCode) -> Action {
    Action::Key(KeyEvent::new(c, KeyModifiers::NONE))
}

/// A character key (shifted when upper case).
pub fn ch(c: char) -> Action {
    let m = if c.is_ascii_uppercase() {
        KeyModifiers::SHIFT
    } else {
        KeyModifiers::NONE
    };
    Action::Key(KeyEvent::new(KeyCode::Char(c), m))
}

/// Ctrl and a character.
pub fn ctrl(c: char) -> Action {
    Action::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

/// Types `keys` one character at a time; the effects they asked for.
pub fn press(app: &mut App, keys: &str) -> Vec<Effect> {
    keys.chars().flat_map(|c| app.update(ch(c))).collect()
}

/// Runs every job the effects asked for, synchronously, feeding the
/// results back (as the runner does with its worker); the other effects.
pub fn settle(app: &mut App, effects: Vec<Effect>) -> Vec<Effect> {
    let mut out = Vec::new();
    let mut queue = effects;
    while let Some(e) = queue.pop() {
        if let Effect::Start(job) = e {
            let r = run_job(job, Arc::new(AtomicBool::new(false)));
            queue.extend(app.update(Action::Job(r)));
        } else {
            out.push(e);
        }
    }
    out
}

/// Hands the app the recorded trace `events` it wants, from `at` on, as
/// the runner does after every action; the job it wanted them for (None
/// when it wants none).
pub fn pull(a: &mut App, events: &[TraceEvent], at: &mut usize) -> Option<u64> {
    let (job, want) = a.trace_wanted()?;
    if want > 0 {
        let end = (*at + want).min(events.len());
        let chunk = events[*at..end].to_vec();
        *at = end;
        a.update(Action::Trace {
            job,
            events: chunk,
            ended: end == events.len(),
        });
    }
    Some(job)
}

/// The app playing `game`, as after loading it.
pub fn playing(game: Game) -> App {
    let mut a = app();
    let fx = a.update(Action::Loaded(Loaded::Game(Box::new(game))));
    settle(&mut a, fx);
    a
}
