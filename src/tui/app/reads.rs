//! Reading a save or a puzzle off the UI thread: the app asks
//! ([`Effect::Read`]), shows what it waits for ([`Screen::Reading`]), and
//! either uses the answer ([`Action::Read`]) or, when the player pressed
//! Esc, forgets the read and goes back.

use super::{App, Effect, Screen};
use crate::tui::action::{Command, Loaded, ToRead};

impl App {
    /// Asks the runner to read `what`; the screen says so until it is read.
    pub(super) fn read(&mut self, what: ToRead, fx: &mut Vec<Effect>) {
        let job = self.new_id();
        // The named save a game comes from, so leaving it untouched keeps
        // nothing more (see App::keep_unfinished).
        self.loading = match &what {
            ToRead::Save(name) => Some(name.clone()),
            _ => None,
        };
        let back = Box::new(self.screen.clone());
        self.screen = Screen::Reading {
            job,
            what: what.label(),
            back,
        };
        self.status.clear();
        fx.push(Effect::Read { job, what });
    }

    /// The read `job` is done: its game is played, or its error said on
    /// the screen it was asked from. A read the app no longer waits for
    /// (cancelled) is dropped.
    pub(super) fn read_done(&mut self, job: u64, loaded: Loaded, fx: &mut Vec<Effect>) {
        let Screen::Reading {
            job: waited, back, ..
        } = &mut self.screen
        else {
            return;
        };
        if *waited != job {
            return;
        }
        let back = std::mem::replace(back.as_mut(), Screen::Playing);
        self.screen = back;
        self.loaded(loaded, fx);
    }

    /// Waiting for a read: Esc stops waiting (the read's flag is raised;
    /// a read stuck in the system is left to end on its own) and goes
    /// back.
    pub(super) fn reading_command(&mut self, cmd: Command, fx: &mut Vec<Effect>) {
        let Screen::Reading { job, what, back } = &mut self.screen else {
            return;
        };
        if cmd == Command::Cancel {
            fx.push(Effect::Cancel(*job));
            self.loading = None;
            self.status = format!("stopped reading {what}");
            let back = std::mem::replace(back.as_mut(), Screen::Playing);
            self.screen = back;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    use super::*;
    use crate::game::{Game, Origin};
    use crate::store::Config;
    use crate::tui::action::{Action, LoadGameError};
    use crate::tui::app::StartItem;
    use crate::tui::keymap::Keymap;
    use crate::tui::style::Styles;

    const HARD: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn key(code: KeyCode) -> Action {
        Action::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    /// An app on the import screen with `path` typed and Enter pressed:
    /// the read asked for.
    fn importing(path: &str) -> (App, u64) {
        let mut app = App::new(Config::default(), Styles::basic(), Keymap::defaults(), 7);
        app.screen = Screen::Start {
            sel: StartItem::Import,
        };
        app.update(key(KeyCode::Enter));
        assert!(matches!(app.screen, Screen::Import { .. }));
        for c in path.chars() {
            app.update(key(KeyCode::Char(c)));
        }
        let fx = app.update(key(KeyCode::Enter));
        let [Effect::Read { job, what }] = &fx[..] else {
            panic!("{fx:?}")
        };
        assert_eq!(what, &ToRead::Puzzle(PathBuf::from(path)));
        let job = *job;
        assert!(
            matches!(&app.screen, Screen::Reading { job: j, what, .. } if *j == job && what == path)
        );
        (app, job)
    }

    fn game() -> Game {
        let p = crate::engine::format::parse_one(HARD, "test").unwrap();
        Game::new(&p, None, Origin::default())
    }

    /// Esc while a file is read: the read's flag is raised, the import
    /// screen is back as it was, and the read's late answer changes
    /// nothing.
    #[test]
    fn esc_stops_waiting_for_a_read_and_its_late_answer_is_dropped() {
        let (mut app, job) = importing("/tmp/slow.sdk");
        let fx = app.update(key(KeyCode::Esc));
        assert!(
            matches!(&fx[..], [Effect::Cancel(j)] if *j == job),
            "{fx:?}"
        );
        let Screen::Import { input } = &app.screen else {
            panic!("{:?}", app.screen)
        };
        assert_eq!(input.value(), "/tmp/slow.sdk", "what was typed is kept");
        assert_eq!(app.status, "stopped reading /tmp/slow.sdk");
        let fx = app.update(Action::Read {
            job,
            loaded: Loaded::Game(Box::new(game())),
        });
        assert!(fx.is_empty(), "{fx:?}");
        assert!(matches!(app.screen, Screen::Import { .. }));
        assert!(app.game.is_none());
    }

    /// Keys other than Esc (and quit, help) wait with the read; an answer
    /// for another read is not this one's.
    #[test]
    fn only_its_own_answer_ends_a_read() {
        let (mut app, job) = importing("p.sdk");
        for k in [KeyCode::Enter, KeyCode::Char('x'), KeyCode::Down] {
            assert!(app.update(key(k)).is_empty());
            assert!(matches!(app.screen, Screen::Reading { .. }));
        }
        app.update(Action::Read {
            job: job + 100,
            loaded: Loaded::Game(Box::new(game())),
        });
        assert!(matches!(app.screen, Screen::Reading { .. }));
        assert!(app.game.is_none());
    }

    /// A read that failed says why on the screen it was asked from; one
    /// that worked goes on to solve the imported puzzle.
    #[test]
    fn a_read_ends_in_its_error_or_its_game() {
        let (mut app, job) = importing("/dev/zero");
        app.update(Action::Read {
            job,
            loaded: Loaded::Error(LoadGameError::NotAFile {
                path: "/dev/zero".into(),
            }),
        });
        assert!(matches!(app.screen, Screen::Import { .. }));
        assert_eq!(
            app.status,
            "/dev/zero: not a regular file; expected a puzzle file"
        );
        let (mut app, job) = importing("p.sdk");
        let fx = app.update(Action::Read {
            job,
            loaded: Loaded::Game(Box::new(game())),
        });
        assert!(
            matches!(app.screen, Screen::Working { .. }),
            "{:?}",
            app.screen
        );
        assert!(fx.iter().any(|e| matches!(e, Effect::Start(_))), "{fx:?}");
    }

    /// Continue and Load read on the reading thread too.
    #[test]
    fn continue_and_load_ask_for_reads() {
        let mut app = App::new(Config::default(), Styles::basic(), Keymap::defaults(), 7);
        app.autosave = Some(crate::store::SaveMeta::default());
        app.screen = Screen::Start {
            sel: StartItem::Continue,
        };
        let fx = app.update(key(KeyCode::Enter));
        assert!(
            matches!(
                &fx[..],
                [Effect::Read {
                    what: ToRead::Autosave,
                    ..
                }]
            ),
            "{fx:?}"
        );
        assert!(matches!(&app.screen, Screen::Reading { what, .. } if what == "the autosave"));
        app.update(key(KeyCode::Esc));
        assert!(matches!(app.screen, Screen::Start { .. }));
        app.screen = Screen::Load {
            list: Some(vec![crate::tui::action::SaveListing {
                name: "mine".into(),
                meta: Ok(crate::store::SaveMeta::default()),
            }]),
            sel: 0,
        };
        let fx = app.update(key(KeyCode::Enter));
        assert!(
            matches!(&fx[..], [Effect::Read { what: ToRead::Save(n), .. }] if n == "mine"),
            "{fx:?}"
        );
    }
}
