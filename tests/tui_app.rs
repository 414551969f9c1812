//! The game driven through `App::update` with scripted keys: no terminal,
//! no threads, no sleeps. Worker jobs are run synchronously with
//! `worker::run_job`, files through the store in a temporary folder.
#![cfg(feature = "tui")]
#![allow(clippy::unwrap_used)]

mod common;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use common::tui::{app, ch, ctrl, key, press, settle};
use dekadoku::engine::logic::CandidateRole;
use dekadoku::engine::{Level, Limits, NoTrace, Outcome, Puzzle, Shape, Value, solve};
use dekadoku::game::{Game, GameSave, Origin};
use dekadoku::store::Config;
use dekadoku::tui::action::{Action, Command, Loaded, SaveListing, ToRead};
use dekadoku::tui::app::{App, Effect, Overlay, Screen};
use dekadoku::tui::keymap::Keymap;
use dekadoku::tui::style::Styles;
use dekadoku::tui::worker::{JobKind, run_job};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// A 4×4 with one solution.
fn small() -> Game {
    let shape = Shape::square(2).unwrap();
    let p = Puzzle::from_numbers(shape, &[1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2]).unwrap();
    let Outcome::Solved(g) = solve(&p, &Limits::none(), &mut NoTrace) else {
        panic!()
    };
    Game::new(&p, Some(g), Origin::default())
}

/// The whole screen drawn at `w`×`h`, row after row.
fn screen_text(a: &App, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| dekadoku::tui::ui::draw(f, a)).unwrap();
    t.backend()
        .buffer()
        .content()
        .iter()
        .map(|c| c.symbol())
        .collect()
}

fn playing(game: Game) -> App {
    let a = common::tui::playing(game);
    assert!(matches!(a.screen, Screen::Playing));
    a
}

/// Moves the cursor to `cell` with arrow keys from wherever it is.
fn goto(app: &mut App, cell: usize) {
    let n = app.game.as_ref().unwrap().shape().n();
    for _ in 0..n {
        app.update(key(KeyCode::Up));
        app.update(key(KeyCode::Left));
    }
    for _ in 0..cell / n {
        app.update(key(KeyCode::Down));
    }
    for _ in 0..cell % n {
        app.update(key(KeyCode::Right));
    }
    assert_eq!(app.cursor, cell);
}

#[test]
fn play_a_4x4_to_the_end_with_keys() {
    let game = small();
    let sol = game.solution().unwrap().clone();
    let mut a = playing(game);
    let mut effects = Vec::new();
    for c in 0..16 {
        if a.game.as_ref().unwrap().is_given(c) {
            continue;
        }
        goto(&mut a, c);
        effects.extend(press(&mut a, &sol.get(c).get().to_string()));
    }
    assert!(a.game.as_ref().unwrap().is_solved());
    assert!(matches!(a.overlay, Some(Overlay::Solved { .. })));
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::RecordWin { key, .. } if key == "4x4/imported"))
    );
    assert!(effects.iter().any(|e| matches!(e, Effect::ClearAutosave)));
    a.update(Action::Recorded {
        new_best: true,
        best_secs: Some(3),
    });
    assert_eq!(
        a.overlay,
        Some(Overlay::Solved {
            secs: 0,
            new_best: true,
            best: Some(3)
        })
    );
    a.update(key(KeyCode::Enter));
    assert!(matches!(a.screen, Screen::Start { .. }));
}

#[test]
fn undo_and_redo_from_every_binding() {
    let mut a = playing(small());
    goto(&mut a, 1);
    press(&mut a, "2");
    goto(&mut a, 2);
    press(&mut a, "4");
    let g = |a: &App, c| a.game.as_ref().unwrap().value(c).map(Value::get);
    assert_eq!((g(&a, 1), g(&a, 2)), (Some(2), Some(4)));
    a.update(ch('u'));
    assert_eq!(g(&a, 2), None);
    a.update(ctrl('z'));
    assert_eq!(g(&a, 1), None);
    a.update(ctrl('z'));
    assert_eq!(a.status, "nothing to undo");
    a.update(ch('U'));
    assert_eq!(g(&a, 1), Some(2));
    a.update(ctrl('r'));
    assert_eq!(g(&a, 2), Some(4));
    a.update(ctrl('y'));
    assert_eq!(a.status, "nothing to redo");
}

#[test]
fn note_mode_fill_and_clear_notes() {
    let mut a = playing(small());
    goto(&mut a, 1);
    press(&mut a, "n23");
    assert!(a.note_mode);
    let notes = |a: &App, c| {
        a.game
            .as_ref()
            .unwrap()
            .notes(c)
            .iter()
            .map(Value::get)
            .collect::<Vec<_>>()
    };
    assert_eq!(notes(&a, 1), vec![2, 3]);
    press(&mut a, "2");
    assert_eq!(notes(&a, 1), vec![3]);
    press(&mut a, " "); // space toggles back to values
    assert!(!a.note_mode);
    press(&mut a, "f");
    assert!(
        (0..16).all(|c| a.game.as_ref().unwrap().value(c).is_some() || !notes(&a, c).is_empty())
    );
    press(&mut a, "F");
    assert!((0..16).all(|c| notes(&a, c).is_empty()));
    press(&mut a, "u");
    assert!(!notes(&a, 3).is_empty(), "clear notes is undoable");
}

#[test]
fn conflicts_show_live_and_zero_clears() {
    let mut a = playing(small());
    goto(&mut a, 1);
    press(&mut a, "1");
    let k = a.game.as_ref().unwrap().conflicts();
    assert!(k.cells[0] && k.cells[1]);
    press(&mut a, "0");
    assert!(a.game.as_ref().unwrap().conflicts().is_empty());
    press(&mut a, "1");
    a.update(key(KeyCode::Delete));
    assert_eq!(a.game.as_ref().unwrap().value(1), None);
}

#[test]
fn typed_values_on_a_16x16() {
    let p = Puzzle::empty(Shape::square(4).unwrap());
    let mut a = playing(Game::new(&p, None, Origin::default()));
    let v = |a: &App, c| a.game.as_ref().unwrap().value(c).map(Value::get);
    goto(&mut a, 0);
    press(&mut a, "1");
    assert_eq!(v(&a, 0), None, "waits: 1 could still become 10–16");
    a.update(key(KeyCode::Enter));
    assert_eq!(v(&a, 0), Some(1));
    press(&mut a, "12");
    assert_eq!(v(&a, 0), Some(12), "12 cannot be extended: placed at once");
    goto(&mut a, 1);
    press(&mut a, "2");
    assert_eq!(v(&a, 1), Some(2), "20+ is beyond 16: placed at once");
    goto(&mut a, 2);
    press(&mut a, "G");
    assert_eq!(v(&a, 2), Some(16), "capitals are values");
    goto(&mut a, 3);
    press(&mut a, "1");
    press(&mut a, "6");
    assert_eq!(v(&a, 3), Some(16), "16 cannot be extended: placed at once");
    // h moves left: lower-case letters are commands on every size.
    press(&mut a, "h");
    assert_eq!(a.cursor, 2);
}

/// Keys mean one thing at every size: on a 25×25 (values up to P) hjkl
/// move, c checks, f fills the notes, e steps through the logic, ctrl+f
/// clears the notes; capitals are values; a lower-case letter that is no
/// command says how values are typed.
#[test]
fn keys_mean_one_thing_on_a_25x25() {
    let shape = Shape::square(5).unwrap();
    let puzzle = dekadoku::engine::generate::bundled::bundled(shape, Level::Easy)[0].clone();
    let mut a = playing(Game::new(&puzzle, None, Origin::default()));
    let g = a.game.as_ref().unwrap();
    let empty = (0..625)
        .find(|&c| !g.is_given(c) && c % 25 > 0 && c / 25 > 0 && c % 25 < 24 && c / 25 < 24)
        .unwrap();
    a.cursor = empty;
    for (k, to) in [
        ("l", empty + 1),
        ("h", empty),
        ("j", empty + 25),
        ("k", empty),
    ] {
        press(&mut a, k);
        assert_eq!(a.cursor, to, "{k} moves");
    }
    press(&mut a, "f");
    assert!(!a.game.as_ref().unwrap().notes(empty).is_empty(), "f fills");
    a.update(Action::Key(KeyEvent::new(
        KeyCode::Char('f'),
        KeyModifiers::CONTROL,
    )));
    assert!(
        a.game.as_ref().unwrap().notes(empty).is_empty(),
        "ctrl+f clears"
    );
    press(&mut a, "P");
    assert_eq!(
        a.game.as_ref().unwrap().value(empty).map(Value::get),
        Some(25),
        "capitals are values"
    );
    press(&mut a, "0");
    press(&mut a, "b");
    assert!(a.status.contains("Shift+B"), "{}", a.status);
    assert_eq!(a.game.as_ref().unwrap().value(empty), None);
    let fx = press(&mut a, "e");
    settle(&mut a, fx);
    assert!(
        matches!(a.screen, Screen::Logic { .. }),
        "e: the logic view, not {:?}",
        a.screen
    );
}

/// On 25×25 the letter `i` is the value 18, so the board takes it: the
/// status line and the help offer F2 for a hint there, and `i` places 18.
#[test]
fn letters_that_are_values_are_left_out_of_the_key_hints() {
    let a = playing(small());
    let text = screen_text(&a, 80, 24);
    assert!(text.contains("i/F2"), "{text}");
    let p = Puzzle::empty(Shape::square(5).unwrap());
    let mut a = playing(Game::new(&p, None, Origin::default()));
    // On a 25×25 the capitals are values: i stays the hint, F (15) is a
    // value and left out of the keys shown for "remove all notes".
    let text = screen_text(&a, 200, 60);
    assert!(text.contains("i/F2"), "{text}");
    press(&mut a, "?");
    let help = screen_text(&a, 200, 60);
    assert!(help.contains(" i F2"), "{help}");
    assert!(help.contains("  Ctrl+f F6"), "{help}");
    assert!(!help.contains(" F Ctrl+f"), "{help}");
    press(&mut a, "?");
    goto(&mut a, 0);
    press(&mut a, "I");
    assert_eq!(a.game.as_ref().unwrap().value(0).map(Value::get), Some(18));
}

#[test]
fn hints_come_in_three_stages() {
    let mut a = playing(small());
    // The first press asks the worker; the answer shows stage 1.
    let fx = press(&mut a, "i");
    assert_eq!(a.status, "looking for a hint…");
    settle(&mut a, fx);
    assert!(a.status.starts_with("Hint: "), "{}", a.status);
    // Stage 1: the units only; stage 2: the value placed too.
    assert!(!a.emphasis().hint_units.is_empty());
    assert!(a.emphasis().candidates.is_empty());
    press(&mut a, "i");
    let placed = a.emphasis().candidates;
    assert_eq!(placed.len(), 1, "{placed:?}");
    assert_eq!(placed[0].2, CandidateRole::Placed);
    let before = a.game.as_ref().unwrap().progress().0;
    press(&mut a, "i");
    assert_eq!(a.game.as_ref().unwrap().progress().0, before + 1);
    assert_eq!(a.game.as_ref().unwrap().hints_used(), 1);
    press(&mut a, "u");
    assert_eq!(a.game.as_ref().unwrap().progress().0, before);
}

#[test]
fn autosave_is_debounced_and_written_on_quit() {
    let mut a = playing(small());
    // The loaded game is not dirty; a move makes it so.
    goto(&mut a, 1);
    let fx = press(&mut a, "2");
    assert!(!fx.iter().any(|e| matches!(e, Effect::Autosave(..))));
    let fx = a.update(Action::Tick(Duration::from_millis(300)));
    assert!(!fx.iter().any(|e| matches!(e, Effect::Autosave(..))));
    let fx = a.update(Action::Tick(Duration::from_millis(600)));
    assert!(fx.iter().any(|e| matches!(e, Effect::Autosave(..))));
    let fx = a.update(Action::Tick(Duration::from_secs(5)));
    assert!(fx.is_empty(), "nothing new to save");
    press(&mut a, "u");
    let fx = a.update(Action::Command(Command::Quit));
    assert!(matches!(fx[..], [Effect::Autosave(..), Effect::Quit]));
    assert!(a.is_quitting());
}

/// A player who keeps moving every 0.3 s never gives the autosave its
/// quiet moment; it is written anyway, at most a second after the first
/// move it does not hold yet, and it holds every move made until then.
#[test]
fn autosave_keeps_up_with_a_steady_typist() {
    let mut a = playing(small());
    goto(&mut a, 1);
    let (mut moves, mut saved_at) = (0u32, 0u32);
    for i in 0..40 {
        press(&mut a, if i % 2 == 0 { "3" } else { "4" });
        moves += 1;
        let fx = a.update(Action::Tick(Duration::from_millis(300)));
        for e in fx {
            if let Effect::Autosave(save, _) = e {
                let g = Game::from_save(&save).unwrap();
                assert_eq!(g.moves(), moves, "the save holds every move so far");
                saved_at = moves;
            }
        }
        // At most the moves of the last second (4 at 0.3 s) are unsaved.
        assert!(moves - saved_at <= 4, "{} moves unsaved", moves - saved_at);
    }
    assert!(saved_at >= 36, "{saved_at}");
}

#[test]
fn clock_stops_when_paused_or_unfocused() {
    let mut a = playing(small());
    a.update(Action::Tick(Duration::from_secs(2)));
    a.update(Action::Focus(false));
    a.update(Action::Tick(Duration::from_secs(5)));
    a.update(Action::Focus(true));
    press(&mut a, "p");
    a.update(Action::Tick(Duration::from_secs(5)));
    press(&mut a, "p");
    a.update(Action::Tick(Duration::from_secs(1)));
    assert_eq!(a.game.as_ref().unwrap().elapsed(), Duration::from_secs(3));
}

#[test]
fn new_game_through_the_worker_and_stale_results_dropped() {
    let mut a = app();
    // Start menu: Continue, New game (selected), …
    let fx = a.update(key(KeyCode::Enter));
    assert!(fx.is_empty());
    assert!(matches!(a.screen, Screen::NewGame { .. }));
    // Size row: go left twice from 9×9 to 4×4.
    a.update(key(KeyCode::Left));
    a.update(key(KeyCode::Left));
    let fx = a.update(key(KeyCode::Enter));
    let Some(Effect::Start(job)) = fx.into_iter().next() else {
        panic!("no job")
    };
    assert!(matches!(job.kind, JobKind::Generate { .. }));
    // Cancel, then start again: the first job's result is stale.
    a.update(key(KeyCode::Esc));
    let stale = run_job(job, Arc::new(AtomicBool::new(false)));
    let fx = a.update(key(KeyCode::Enter));
    let Some(Effect::Start(job2)) = fx.into_iter().next() else {
        panic!("no job")
    };
    a.update(Action::Job(stale));
    assert!(matches!(a.screen, Screen::Working { .. }));
    let fresh = run_job(job2, Arc::new(AtomicBool::new(false)));
    let fx = a.update(Action::Job(fresh));
    assert!(matches!(a.screen, Screen::Playing));
    // Stats count the level the grader measured: 4×4 puzzles that need
    // more than singles are rare, so "medium" may come out easy (and the
    // status says so).
    let g = a.game.as_ref().unwrap();
    let level = g.origin().level.unwrap();
    let key = format!("4x4/{level}");
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::RecordStart { key: k, daily: None } if *k == key))
    );
    // A 4×4 is easy only: the dialog asked for easy, and got it.
    assert_eq!(level, Level::Easy);
    assert!(a.notice.is_none(), "{:?}", a.notice);
    assert_eq!(g.shape().n(), 4);
    assert!(g.solution().is_some());
}

#[test]
fn a_ready_puzzle_is_offered_while_generating() {
    let mut a = app();
    a.update(key(KeyCode::Enter));
    let fx = a.update(key(KeyCode::Enter)); // 9×9 medium
    assert!(matches!(fx[..], [Effect::Start(_)]));
    let fx = a.update(ch('r'));
    let mut jobs = fx.into_iter().filter_map(|e| match e {
        Effect::Start(j) => Some(j),
        _ => None,
    });
    let job = jobs.next().unwrap();
    assert!(matches!(job.kind, JobKind::Solve { .. }));
    a.update(Action::Job(run_job(job, Arc::new(AtomicBool::new(false)))));
    assert!(matches!(a.screen, Screen::Playing));
    assert_eq!(a.game.as_ref().unwrap().shape().n(), 9);
    assert!(a.game.as_ref().unwrap().solution().is_some());
}

#[test]
fn save_load_round_trip_through_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let saves = dekadoku::store::Saves::new(dir.path().join("saves"));
    let mut a = playing(small());
    goto(&mut a, 1);
    press(&mut a, "2n3");
    a.update(Action::Tick(Duration::from_secs(4)));
    press(&mut a, "s");
    assert!(matches!(a.screen, Screen::SaveAs { .. }));
    for c in "my game".chars() {
        a.update(ch(c));
    }
    let fx = a.update(key(KeyCode::Enter));
    let Some(Effect::SaveAs {
        name,
        save,
        meta,
        overwrite,
    }) = fx.into_iter().next()
    else {
        panic!("no save effect")
    };
    assert_eq!(name, "my game");
    assert!(!overwrite, "the runner asks before replacing another game");
    saves.save(&name, "game", 1, &meta, &*save).unwrap();
    let r = saves.load::<GameSave>(&name, "game", 1).unwrap();
    let (meta2, back) = (r.meta, r.payload);
    assert_eq!(meta2.filled, meta.filled);
    assert_eq!(back, *save);
    let mut b = app();
    b.update(Action::Loaded(Loaded::Game(Box::new(
        Game::from_save(&back).unwrap(),
    ))));
    let (ga, gb) = (a.game.as_ref().unwrap(), b.game.as_ref().unwrap());
    assert_eq!(ga.to_save(), gb.to_save());
    assert_eq!(gb.elapsed(), Duration::from_secs(4));
}

#[test]
fn whole_screens_render_at_80x24_and_too_small() {
    for n in [2usize, 3, 4, 5] {
        let p = Puzzle::empty(Shape::square(n).unwrap());
        let a = playing(Game::new(&p, None, Origin::default()));
        let text = screen_text(&a, 80, 24);
        assert!(text.contains("dekadoku"), "{n}");
        assert!(text.contains("· 00:00 ·"), "{n}: the clock in the title");
        // The side panel shows unless the board needs its columns.
        assert_eq!(text.contains("moves"), n < 5, "{n}");
    }
    let text = screen_text(&app(), 30, 10);
    assert!(text.contains("Make the window at least 44×14"), "{text}");
}

#[test]
fn help_overlay_follows_the_live_keymap() {
    let mut user = std::collections::BTreeMap::new();
    let mut board = std::collections::BTreeMap::new();
    board.insert("x".to_string(), "undo".to_string());
    user.insert("board".to_string(), board);
    let (km, issues) = Keymap::with_overrides(&user);
    assert!(issues.is_empty());
    let mut a = App::new(Config::default(), Styles::basic(), km, 1);
    a.update(Action::Loaded(Loaded::Game(Box::new(small()))));
    press(&mut a, "?");
    assert_eq!(a.overlay, Some(Overlay::Help { scroll: 0 }));
    let mut t = Terminal::new(TestBackend::new(100, 40)).unwrap();
    t.draw(|f| dekadoku::tui::ui::draw(f, &a)).unwrap();
    let buf = t.backend().buffer();
    let rows: Vec<String> = (0..40)
        .map(|y| (0..100).map(|x| buf[(x, y)].symbol().to_string()).collect())
        .collect();
    assert!(
        rows.iter().any(|r| r.contains("u x Ctrl+z  undo")),
        "{}",
        rows.join("\n")
    );
    press(&mut a, "?");
    assert_eq!(a.overlay, None);
}

#[test]
fn settings_change_now_and_are_kept() {
    let mut a = app();
    a.themes = vec!["default".into(), "light".into()];
    for _ in 0..3 {
        a.update(key(KeyCode::Down)); // New game → Load → Import → Settings
    }
    a.update(key(KeyCode::Enter));
    assert!(matches!(
        a.screen,
        Screen::Settings {
            sel: dekadoku::tui::app::Setting::Theme
        }
    ));
    let fx = a.update(key(KeyCode::Enter));
    assert!(matches!(&fx[..], [Effect::SetTheme(t)] if t == "default"));
    let fx = a.update(Action::Theme("default".into(), Box::new(Styles::basic())));
    assert_eq!(a.config.theme, "default");
    assert!(matches!(&fx[..], [Effect::SaveSettings(t, _)] if t == "default"));
    a.update(key(KeyCode::Down));
    let fx = a.update(key(KeyCode::Enter));
    assert!(a.config.play.wrap);
    assert!(matches!(&fx[..], [Effect::SaveSettings(_, p)] if p.wrap));
    // Wrap now applies on the board.
    a.update(key(KeyCode::Esc));
    let mut b = playing(small());
    goto(&mut b, 0);
    b.config.play.wrap = true;
    b.update(key(KeyCode::Left));
    assert_eq!(b.cursor, 3);
    b.update(key(KeyCode::Up));
    assert_eq!(b.cursor, 15);
}

#[test]
fn a_click_selects_the_cell_under_it() {
    use dekadoku::tui::layout::Geometry;
    use ratatui::layout::Rect;
    for (w, h) in [(80u16, 24u16), (120, 40)] {
        let mut a = playing(small());
        a.update(Action::Resize(w, h));
        let shape = a.game.as_ref().unwrap().shape();
        let area = dekadoku::tui::layout::board_area(Rect::new(0, 0, w, h), shape);
        let r = Geometry::new(shape, area, a.cursor).cell_rect(10).unwrap();
        a.update(Action::Click { x: r.x, y: r.y });
        assert_eq!(a.cursor, 10, "{w}×{h}");
        // A click on the title line does nothing.
        a.update(Action::Click { x: 0, y: 0 });
        assert_eq!(a.cursor, 10);
    }
}

#[test]
fn hints_on_big_boards_come_from_the_worker_and_stale_ones_are_dropped() {
    use dekadoku::engine::Level;
    use dekadoku::engine::generate::{GenerateOptions, generate};
    let made = generate(
        &GenerateOptions::new(Shape::square(4).unwrap(), Level::Medium, 5),
        &dekadoku::engine::Limits::none(),
    )
    .unwrap();
    let mut a = playing(Game::new(
        &made.puzzle,
        Some(made.solution),
        Origin::default(),
    ));
    let fx = press(&mut a, "i");
    let Some(Effect::Start(job)) = fx.into_iter().next() else {
        panic!("no hint job on 16×16")
    };
    assert!(matches!(job.kind, JobKind::Hint { .. }));
    assert!(a.hint.is_none());
    assert_eq!(a.status, "looking for a hint…");
    // The player moves on before the answer: it is dropped.
    let answer = run_job(job, Arc::new(AtomicBool::new(false)));
    let c = a.cursor;
    let sol = a.game.as_ref().unwrap().solution().unwrap().get(c);
    let typed = dekadoku::game::symbol(16, sol);
    for ch in typed.chars() {
        a.update(self::ch(ch));
    }
    if a.game.as_ref().unwrap().value(c).is_none() {
        a.update(key(KeyCode::Enter));
    }
    a.update(Action::Job(answer));
    assert!(a.hint.is_none(), "a stale hint was shown");
    // Asked again and answered in time, it shows.
    let fx = press(&mut a, "i");
    settle(&mut a, fx);
    assert!(a.hint.is_some());
    assert!(a.status.starts_with("Hint: "), "{}", a.status);
}

/// Hint pressed twice before the worker answers: the second press keeps
/// waiting for the first answer (no second job), and that answer shows.
/// The same for the logic path. Once this lost the answer and left
/// "looking for a hint…" on the status line until the next key.
#[test]
fn a_second_press_while_waiting_keeps_the_first_answer() {
    let mut a = playing(small());
    let fx = press(&mut a, "i");
    let Some(Effect::Start(job)) = fx.into_iter().next() else {
        panic!("no hint job")
    };
    let again = press(&mut a, "i");
    assert!(
        !again.iter().any(|e| matches!(e, Effect::Start(..))),
        "a second job for the same position: {again:?}"
    );
    assert_eq!(a.status, "looking for a hint…");
    a.update(Action::Job(run_job(job, Arc::new(AtomicBool::new(false)))));
    assert!(a.hint.is_some(), "the first answer was dropped");
    assert!(a.status.starts_with("Hint: "), "{}", a.status);

    let mut a = playing(small());
    let fx = press(&mut a, "L");
    let Some(Effect::Start(job)) = fx.into_iter().next() else {
        panic!("no path job")
    };
    let again = press(&mut a, "L");
    assert!(!again.iter().any(|e| matches!(e, Effect::Start(..))));
    a.update(Action::Job(run_job(job, Arc::new(AtomicBool::new(false)))));
    assert!(matches!(a.screen, Screen::Logic { .. }), "{:?}", a.screen);
}

/// Asked, the position changes, asked again: the first job is cancelled,
/// its late answer is dropped without touching the second request, whose
/// answer then shows.
#[test]
fn an_answer_for_a_left_position_does_not_drop_the_newer_request() {
    let mut a = playing(small());
    let fx = press(&mut a, "i");
    let Some(Effect::Start(first)) = fx.into_iter().next() else {
        panic!("no hint job")
    };
    goto(&mut a, 1);
    let sol = a.game.as_ref().unwrap().solution().unwrap().get(1);
    press(&mut a, &sol.get().to_string());
    let fx = press(&mut a, "i");
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Cancel(id) if *id == first.id)),
        "the older hint job is not cancelled: {fx:?}"
    );
    let Some(Effect::Start(second)) = fx.into_iter().find(|e| matches!(e, Effect::Start(..)))
    else {
        panic!("no second hint job")
    };
    a.update(Action::Job(run_job(
        first,
        Arc::new(AtomicBool::new(false)),
    )));
    assert!(a.hint.is_none(), "a stale hint was shown");
    assert_eq!(a.status, "looking for a hint…");
    a.update(Action::Job(run_job(
        second,
        Arc::new(AtomicBool::new(false)),
    )));
    assert!(a.hint.is_some());
    assert!(a.status.starts_with("Hint: "), "{}", a.status);
}

#[test]
fn logic_solve_view_steps_forward_and_back_without_touching_the_game() {
    let mut a = playing(small());
    press(&mut a, "j"); // the cursor moves: the game itself does not change
    let before = a.game.clone().unwrap();
    let fx = press(&mut a, "L");
    assert_eq!(a.status, "working out the logic path…");
    let fx = settle(&mut a, fx);
    assert!(fx.is_empty());
    let Screen::Logic { walk } = &a.screen else {
        panic!("not in the logic view: {:?}", a.screen)
    };
    let total = walk.steps().len();
    assert!(total >= 12, "a 4×4 with 4 givens needs 12 placements");
    assert_eq!(walk.at(), 0);
    let first = walk.next().unwrap().clone();
    let text = screen_text(&a, 80, 24);
    assert!(text.contains("Logic solve"), "{text}");
    assert!(text.contains(&format!("step 1 of {total}")), "{text}");
    assert!(text.contains(first.technique.name()), "{text}");
    // Forward twice, back once, to the end, to the start.
    a.update(key(KeyCode::Right));
    a.update(key(KeyCode::Right));
    a.update(key(KeyCode::Left));
    let Screen::Logic { walk } = &a.screen else {
        panic!()
    };
    assert_eq!(walk.at(), 1);
    a.update(key(KeyCode::Down));
    let Screen::Logic { walk } = &a.screen else {
        panic!()
    };
    assert_eq!(walk.at(), total);
    assert!(walk.board().is_solved());
    assert!(screen_text(&a, 80, 24).contains("Solved."));
    // A narrow window has no panel: the step is on the status line.
    a.update(key(KeyCode::Up));
    let narrow = screen_text(&a, 50, 20);
    assert!(
        narrow.contains(&format!("1/{total} {}", first.technique.name())),
        "{narrow}"
    );
    // Esc goes back; the game is as it was.
    a.update(key(KeyCode::Esc));
    assert!(matches!(a.screen, Screen::Playing));
    let after = a.game.as_ref().unwrap();
    for c in 0..16 {
        assert_eq!(after.value(c), before.value(c));
        assert_eq!(after.notes(c), before.notes(c));
    }
    assert_eq!(after.moves(), before.moves());
}

#[test]
fn a_logic_path_for_an_old_position_is_dropped() {
    let mut a = playing(small());
    let fx = press(&mut a, "L");
    // A move before the path arrives: the path is for another position.
    a.update(key(KeyCode::Right));
    let value = a.game.as_ref().unwrap().solution().unwrap().get(1);
    a.update(ch(char::from_digit(value.get() as u32, 10).unwrap()));
    settle(&mut a, fx);
    assert!(matches!(a.screen, Screen::Playing));
    // Without a solution there is nothing to walk.
    let p = Puzzle::empty(Shape::square(2).unwrap());
    let mut b = playing(Game::new(&p, None, Origin::default()));
    let fx = press(&mut b, "L");
    assert!(fx.is_empty());
    assert!(b.status.contains("not known"), "{}", b.status);
}

#[test]
fn the_daily_puzzle_from_the_start_menu() {
    use dekadoku::engine::generate::daily::{Date, daily_level};
    let mut a = app();
    // Start menu: Continue, New game (selected), Load, Import, Settings, Daily.
    for _ in 0..4 {
        a.update(key(KeyCode::Down));
    }
    assert!(screen_text(&a, 80, 24).contains("Daily puzzle"));
    // The app reads no clock: until the runner says the date, there is
    // no daily puzzle to make.
    assert!(a.update(key(KeyCode::Enter)).is_empty());
    assert!(a.status.contains("date"), "{}", a.status);
    // A fixed date, so the test means the same on any day and at midnight.
    let today = Date::parse("2026-11-29").unwrap();
    a.update(Action::Today(today));
    let fx = a.update(key(KeyCode::Enter));
    assert!(matches!(a.screen, Screen::Working { .. }));
    settle(&mut a, fx);
    assert!(matches!(a.screen, Screen::Playing));
    let g = a.game.as_ref().unwrap();
    assert_eq!(
        g.origin().title.as_deref(),
        Some(format!("daily {today}").as_str())
    );
    assert_eq!(g.shape().n(), 9);
    assert!(g.solution().is_some());
    // The level is the day's (or the closest found, which the status names).
    let level = g.origin().level.unwrap();
    assert!(
        level == daily_level(today) || a.notice.as_deref().is_some_and(|n| n.contains("asked for")),
        "{:?}",
        a.notice
    );
}

/// Performs the pool effects the way the runner does, on a real pool in a
/// folder; returns the other effects.
fn with_pool(a: &mut App, pool: &dekadoku::store::Pool, effects: Vec<Effect>) -> Vec<Effect> {
    let mut out = Vec::new();
    let mut queue = effects;
    while let Some(e) = queue.pop() {
        match e {
            Effect::TakePooled(shape, level) => {
                let (entry, left) = pool.take(shape, level).unwrap();
                let entry = entry.map(Box::new);
                queue.extend(a.update(Action::Pooled {
                    shape,
                    level,
                    entry,
                    left,
                }));
            }
            Effect::AddPooled(entry) => {
                let (shape, level) = (entry.puzzle.shape(), entry.level);
                let count = pool.add(*entry).unwrap();
                queue.extend(a.update(Action::PoolCount(shape, level, count)));
            }
            other => out.push(other),
        }
    }
    out
}

#[test]
fn the_pool_refills_when_idle_gives_way_to_the_player_and_starts_games_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let pool = dekadoku::store::Pool::new(dir.path().join("pool"));
    let mut config = Config::default();
    config.play.default_size = dekadoku::store::BoardSize::new(6).unwrap();
    let mut a = App::new(config, Styles::basic(), Keymap::defaults(), 7);
    let six = Shape::new(2, 3).unwrap();

    // Idle on the start menu: a tick starts a refill for the default size.
    let fx = a.update(Action::Tick(Duration::from_millis(250)));
    let [Effect::Start(job)] = &fx[..] else {
        panic!("no refill: {fx:?}")
    };
    let JobKind::Refill { shape, level, .. } = job.kind else {
        panic!("{:?}", job.kind)
    };
    assert_eq!((shape, level), (six, Level::Easy));
    // One at a time: the next tick starts nothing while it runs.
    assert!(
        a.update(Action::Tick(Duration::from_millis(250)))
            .is_empty()
    );

    // The player asks for something: the refill is cancelled first.
    let refill = job.clone();
    a.update(key(KeyCode::Enter)); // New game menu
    let fx = a.update(key(KeyCode::Enter)); // 6×6 (the default) medium
    assert!(
        matches!(&fx[..], [Effect::Cancel(id), Effect::Start(j)]
            if *id == refill.id && matches!(j.kind, JobKind::Generate { .. })),
        "{fx:?}"
    );
    // A cancelled refill's result puts nothing in the pool.
    let cancelled = run_job(refill, Arc::new(AtomicBool::new(true)));
    let back = a.update(Action::Job(cancelled));
    assert!(with_pool(&mut a, &pool, back).is_empty());
    assert_eq!(pool.count(six, Level::Easy), 0);
    a.update(key(KeyCode::Esc));

    // Refills run to the end fill the pool: run the ticks' jobs until the
    // 6×6 medium pool holds a puzzle.
    for _ in 0..40 {
        if pool.count(six, Level::Medium) > 0 {
            break;
        }
        let fx = a.update(Action::Tick(Duration::from_millis(250)));
        for e in fx {
            if let Effect::Start(job) = e {
                assert!(matches!(job.kind, JobKind::Refill { .. }), "{:?}", job.kind);
                let r = run_job(job, Arc::new(AtomicBool::new(false)));
                let back = a.update(Action::Job(r));
                with_pool(&mut a, &pool, back);
            }
        }
    }
    let pooled = pool.read(six, Level::Medium).0;
    assert!(!pooled.is_empty(), "the 6×6 medium pool never filled");
    for e in &pooled {
        assert_eq!(e.level, Level::Medium);
        let c = dekadoku::engine::count_solutions(&e.puzzle, 2, &Limits::none());
        assert_eq!((c.solutions, c.exact), (1, true));
        assert!(e.puzzle.is_solved_by(&e.solution));
    }
    assert!(a.pool.count(six, Level::Medium) > 0);

    // New game 6×6 medium now starts at once from the pool: no job.
    let first = pooled[0].clone();
    a.update(key(KeyCode::Enter)); // New game menu
    let fx = a.update(key(KeyCode::Enter));
    let fx = with_pool(&mut a, &pool, fx);
    assert!(fx.iter().all(|e| !matches!(e, Effect::Start(_))), "{fx:?}");
    assert!(matches!(a.screen, Screen::Playing));
    let g = a.game.as_ref().unwrap();
    assert_eq!(g.puzzle(), first.puzzle);
    assert_eq!(g.origin().level, Some(Level::Medium));
    assert_eq!(pool.count(six, Level::Medium), pooled.len() - 1);
}

/// A hard 9×9 (singles first, then guesses) as a game with its solution.
fn hard_game() -> Game {
    let s = "........1.....2.....3.4.56...47......5.4.....8...6.45..4..8.63.3.8...2..6.......9";
    let nums: Vec<usize> = s
        .bytes()
        .map(|b| if b == b'.' { 0 } else { usize::from(b - b'0') })
        .collect();
    let p = Puzzle::from_numbers(Shape::CLASSIC, &nums).unwrap();
    let Outcome::Solved(g) = solve(&p, &Limits::none(), &mut NoTrace) else {
        panic!()
    };
    Game::new(&p, Some(g), Origin::default())
}

/// Opens the solver view on `a` and starts solver number `choice`; the job.
fn watch(a: &mut App, choice: usize) -> dekadoku::tui::worker::Job {
    a.update(ch('v'));
    assert!(matches!(a.screen, Screen::WatchMenu { .. }));
    for _ in 0..choice {
        a.update(key(KeyCode::Down));
    }
    let fx = a.update(key(KeyCode::Enter));
    let Some(Effect::Start(job)) = fx.into_iter().find(|e| matches!(e, Effect::Start(_))) else {
        panic!("no job")
    };
    assert!(matches!(job.kind, JobKind::Trace { .. }));
    assert!(matches!(a.screen, Screen::Watch { .. }));
    job
}

/// The trace and the answer the job gives, recorded through the worker
/// with a bounded channel, as the runner would.
fn record(job: dekadoku::tui::worker::Job) -> (Vec<dekadoku::engine::TraceEvent>, Action) {
    use dekadoku::tui::worker::{TraceOut, run_job_traced};
    let (tx, rx) = crossbeam_channel::bounded(256);
    let out = TraceOut {
        events: tx,
        mute: Arc::new(AtomicBool::new(false)),
    };
    let worker = std::thread::spawn(move || {
        run_job_traced(job, Arc::new(AtomicBool::new(false)), Some(out))
    });
    let events = rx.iter().collect();
    (events, Action::Job(worker.join().unwrap()))
}

fn playback(a: &App) -> &dekadoku::tui::playback::Playback {
    match &a.screen {
        Screen::Watch { playback, .. } => playback,
        _ => panic!("not watching"),
    }
}

/// Hands the app the recorded events it wants ([`common::tui::pull`]),
/// checking they are for job `id`.
fn pull(a: &mut App, id: u64, events: &[dekadoku::engine::TraceEvent], at: &mut usize) {
    if let Some(job) = common::tui::pull(a, events, at) {
        assert_eq!(job, id);
    }
}

/// A tick, then the events it made the app want.
fn feed(
    a: &mut App,
    id: u64,
    events: &[dekadoku::engine::TraceEvent],
    at: &mut usize,
    dt: Duration,
) {
    a.update(Action::Tick(dt));
    pull(a, id, events, at);
}

#[test]
fn watching_a_solver_plays_steps_back_and_forth_and_keeps_the_board_undoably() {
    use dekadoku::tui::playback::Phase;
    let mut a = playing(hard_game());
    let solution = a.game.as_ref().unwrap().solution().unwrap().clone();
    // Propagation and backtracking is the second choice.
    let job = watch(&mut a, 1);
    let id = job.id;
    let (events, answer) = record(job);
    assert!(events.len() > 100);
    let mut at = 0;
    // At the starting speed (10 events a second) a few frames show a
    // change or two; the givens' own events change nothing and cost no time.
    for _ in 0..12 {
        feed(&mut a, id, &events, &mut at, Duration::from_millis(16));
    }
    let pb = playback(&a);
    assert_eq!(pb.rate(), 10);
    let shown = pb.position();
    assert!(shown > 0 && shown < events.len() && pb.shown.counters.propagations > 0);
    // Pause: ticks show nothing and want nothing.
    a.update(ch('p'));
    a.update(Action::Tick(Duration::from_secs(3)));
    assert_eq!(playback(&a).position(), shown);
    assert_eq!(a.trace_wanted().map(|w| w.1), Some(0));
    // Step forward twice and back twice: the same board, the same place.
    let before = playback(&a).shown.values.clone();
    let cands_before: Vec<Vec<usize>> = (0..81)
        .map(|c| playback(&a).shown.candidates(c).collect())
        .collect();
    for _ in 0..2 {
        a.update(key(KeyCode::Right));
        pull(&mut a, id, &events, &mut at);
    }
    let stepped = playback(&a).position();
    assert!(stepped > shown);
    a.update(key(KeyCode::Left));
    a.update(key(KeyCode::Left));
    assert_eq!(a.status, "");
    assert_eq!(playback(&a).position(), shown);
    assert_eq!(playback(&a).shown.values, before);
    let cands: Vec<Vec<usize>> = (0..81)
        .map(|c| playback(&a).shown.candidates(c).collect())
        .collect();
    assert_eq!(cands, cands_before);
    // Resume at the top speed and play to the end.
    a.update(ch('p'));
    for _ in 0..20 {
        a.update(key(KeyCode::Up));
    }
    while at < events.len() {
        feed(&mut a, id, &events, &mut at, Duration::from_millis(16));
    }
    a.update(answer);
    a.update(Action::Tick(Duration::from_millis(16)));
    let pb = playback(&a);
    assert_eq!(pb.phase, Phase::Done);
    assert!(pb.shown.counters.nodes > 0 && pb.shown.max_depth > 0);
    let want: Vec<Option<Value>> = solution.cells().iter().copied().map(Some).collect();
    assert_eq!(pb.shown.values, want);
    // The panel says what happened.
    let text = screen_text(&a, 100, 30);
    assert!(text.contains("solution is"), "{text}");
    assert!(text.contains("backtracks"), "{text}");
    // Keep it: one undoable move, the board solved.
    let moves = a.game.as_ref().unwrap().moves();
    a.update(key(KeyCode::Enter));
    assert!(matches!(a.screen, Screen::Playing));
    assert!(a.game.as_ref().unwrap().is_solved());
    assert_eq!(a.game.as_ref().unwrap().moves(), moves + 1);
    // Undo takes the whole board back.
    a.overlay = None;
    a.update(ch('u'));
    let g = a.game.as_ref().unwrap();
    assert!((0..81).all(|c| g.is_given(c) || g.value(c).is_none()));
}

#[test]
fn watching_a_solver_stops_at_once_and_goes_back_to_the_board_as_it_was() {
    let mut g = hard_game();
    g.enter(0, Value::new(5).unwrap(), false);
    let mut a = playing(g);
    let before = a.game.as_ref().unwrap().clone();
    for choice in 0..dekadoku::tui::playback::WatchSolver::all().len() {
        let job = watch(&mut a, choice);
        let id = job.id;
        let (events, _) = record(job);
        let mut at = 0;
        feed(&mut a, id, &events, &mut at, Duration::from_millis(800));
        // Esc stops the solver: its job is cancelled at once.
        let fx = a.update(key(KeyCode::Esc));
        assert!(
            fx.iter()
                .any(|e| matches!(e, Effect::Cancel(j) if *j == id)),
            "{fx:?}"
        );
        assert!(matches!(a.screen, Screen::Watch { stopped: true, .. }));
        assert!(a.status.contains("Enter keeps"), "{}", a.status);
        // Esc again: back to the game, untouched.
        a.update(key(KeyCode::Esc));
        assert!(matches!(a.screen, Screen::Playing));
        let g = a.game.as_ref().unwrap();
        assert_eq!(g.moves(), before.moves());
        assert!((0..81).all(|c| g.value(c) == before.value(c)));
    }
}

#[test]
fn watching_a_solver_jumps_to_the_end_with_the_trace_muted() {
    use dekadoku::tui::playback::Phase;
    let mut a = playing(hard_game());
    // Dancing Links is the third choice.
    let job = watch(&mut a, 2);
    let id = job.id;
    let (events, answer) = record(job);
    let mut at = 0;
    feed(&mut a, id, &events, &mut at, Duration::from_millis(300));
    let fx = a.update(ch('e'));
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::MuteTrace(j) if *j == id)),
        "{fx:?}"
    );
    assert_eq!(playback(&a).phase, Phase::Finishing);
    assert_eq!(a.trace_wanted().map(|w| w.1), Some(0));
    a.update(answer);
    let pb = playback(&a);
    assert_eq!(pb.phase, Phase::Done);
    let solution = a.game.as_ref().unwrap().solution().unwrap();
    assert!(
        pb.shown
            .values
            .iter()
            .zip(solution.cells())
            .all(|(v, s)| *v == Some(*s))
    );
    assert_eq!(pb.shown.counters.events, events.len() as u64);
}

/// A long 25×25 search, traced into a channel the test reads at full
/// speed: raising the cancel flag and dropping the receiver (what the
/// runner does on Stop) ends the solver within 100 ms, for each exact
/// backend.
#[test]
fn cancel_during_a_long_25x25_search_returns_within_100_ms() {
    use dekadoku::engine::{Backend, TraceEvent, TraceSink};
    use std::time::Instant;
    // The first two rows of a valid grid, the rest empty: huge search
    // space, and no solution can be finished without a long search when
    // the count limit asks for more solutions than the trace lets out.
    let shape = Shape::square(5).unwrap();
    let grid = {
        let Outcome::Multiple(g, _) = solve(&Puzzle::empty(shape), &Limits::none(), &mut NoTrace)
        else {
            panic!()
        };
        g
    };
    let puzzle = Puzzle::new(
        shape,
        (0..625).map(|c| (c < 50).then(|| grid.get(c))).collect(),
    )
    .unwrap();
    struct Sink(crossbeam_channel::Sender<TraceEvent>, bool);
    impl TraceSink for Sink {
        fn event(&mut self, e: TraceEvent) {
            if !self.1 && self.0.send(e).is_err() {
                self.1 = true;
            }
        }
        fn wants_stop(&self) -> bool {
            self.1
        }
    }
    for backend in [Backend::Propagation, Backend::DancingLinks] {
        let (tx, rx) = crossbeam_channel::bounded(1024);
        let flag = Arc::new(AtomicBool::new(false));
        let limits = Limits::none().with_cancel(Arc::clone(&flag));
        let p = puzzle.clone();
        let (done_tx, done_rx) = crossbeam_channel::bounded(1);
        std::thread::spawn(move || {
            // Counting a million solutions: far longer than the test waits.
            let r = dekadoku::engine::Solver::with_backend(backend).count_traced(
                &p,
                1_000_000,
                &limits,
                &mut Sink(tx, false),
            );
            let _ = done_tx.send((Instant::now(), r));
        });
        let start = Instant::now();
        let mut seen = 0u64;
        while start.elapsed() < Duration::from_millis(300) {
            if rx.recv_timeout(Duration::from_millis(50)).is_ok() {
                seen += 1;
            }
        }
        assert!(seen > 0, "{backend:?}: no events");
        assert!(
            done_rx.is_empty(),
            "{backend:?}: finished before the cancel"
        );
        let cancelled = Instant::now();
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
        drop(rx);
        let (ended, r) = done_rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the solver ends after a cancel");
        let latency = ended.duration_since(cancelled);
        println!("{backend:?}: {seen} events read, stopped {latency:?} after the cancel");
        assert!(r.solutions < 1_000_000);
        assert!(
            latency < Duration::from_millis(100),
            "{backend:?}: {latency:?}"
        );
    }
}

/// A job the server stopped for its memory: a hint the player asked for
/// says so in a notice; a background pool refill ends quietly, and
/// refilling stops for the session.
#[test]
fn a_job_stopped_for_memory_is_told_only_when_the_player_asked() {
    use dekadoku::tui::worker::{JobError, JobResult};
    let over = |id| {
        Action::Job(JobResult::Failed {
            id,
            error: JobError::Memory { mib: 1024 },
        })
    };
    let mut a = playing(small());
    let fx = a.update(ch('i'));
    let Some(Effect::Start(job)) = fx.into_iter().next() else {
        panic!("no hint job")
    };
    a.update(over(job.id));
    let said = a.notice.clone().unwrap_or_default();
    assert!(said.contains("1024 MiB of memory"), "{said}");

    let mut a = App::new(Config::default(), Styles::basic(), Keymap::defaults(), 7);
    let fx = a.update(Action::Tick(Duration::from_millis(250)));
    let [Effect::Start(job)] = &fx[..] else {
        panic!("no refill: {fx:?}")
    };
    assert!(matches!(job.kind, JobKind::Refill { .. }));
    a.update(over(job.id));
    assert!(a.notice.is_none(), "told of a refill: {:?}", a.notice);
    assert!(a.status.is_empty(), "{}", a.status);
    for _ in 0..4 {
        let fx = a.update(Action::Tick(Duration::from_millis(250)));
        assert!(fx.is_empty(), "refilling again: {fx:?}");
    }
}

/// A job that stopped on an internal error (the worker caught its panic)
/// is said on the status line, and nothing waits for it any more: a hint
/// can be asked again, a new game goes back to its dialog.
#[test]
fn a_failed_job_is_reported_and_nobody_waits_for_it() {
    use dekadoku::tui::worker::{JobError, JobResult};
    let failed = |id| {
        Action::Job(JobResult::Failed {
            id,
            error: JobError::Panicked("boom".into()),
        })
    };
    let mut a = playing(small());
    let fx = a.update(ch('i'));
    let Some(Effect::Start(job)) = fx.into_iter().next() else {
        panic!("no hint job")
    };
    a.update(failed(job.id));
    // A notice: it stays until dismissed.
    let said = a.notice.clone().unwrap_or_default();
    assert!(
        said.contains("internal error") && said.contains("boom"),
        "{said}"
    );
    a.update(key(KeyCode::Esc));
    assert!(a.notice.is_none(), "Esc dismisses it");
    assert!(matches!(a.screen, Screen::Playing), "{:?}", a.screen);
    assert!(a.hint.is_none());
    let fx = a.update(ch('i'));
    assert!(fx.iter().any(|e| matches!(e, Effect::Start(_))), "{fx:?}");

    let mut a = app();
    a.update(key(KeyCode::Enter)); // New game dialog
    let fx = a.update(key(KeyCode::Enter));
    let Some(Effect::Start(job)) = fx.into_iter().next() else {
        panic!("no generate job")
    };
    assert!(matches!(a.screen, Screen::Working { .. }));
    a.update(failed(job.id));
    assert!(matches!(a.screen, Screen::NewGame { .. }));
    assert!(
        a.notice.as_deref().is_some_and(|n| n.contains("boom")),
        "{:?}",
        a.notice
    );
}

/// `S` (next to `s`, save as) asks before the solver fills the board:
/// Esc keeps the game as it was, Enter (or `S` again) solves it.
#[test]
fn solving_the_board_asks_first() {
    let mut a = playing(small());
    let before = a.game.as_ref().unwrap().progress();
    let fx = a.update(ch('S'));
    assert!(fx.is_empty());
    assert_eq!(a.overlay, Some(Overlay::ConfirmSolve));
    assert!(screen_text(&a, 80, 24).contains("Fill the whole board"));
    a.update(key(KeyCode::Esc));
    assert_eq!(a.overlay, None);
    assert_eq!(a.game.as_ref().unwrap().progress(), before);
    a.update(ch('S'));
    let fx = a.update(ch('S'));
    assert!(a.game.as_ref().unwrap().is_solved());
    assert!(matches!(a.overlay, Some(Overlay::Solved { .. })));
    assert!(fx.iter().any(|e| matches!(e, Effect::RecordWin { .. })));
}

/// Statistics tell the truth: a board the solver filled is an assisted
/// win (solved, never a best time), and a game is won once — undo and
/// redo of the winning move count nothing more. Both facts survive a save.
#[test]
fn a_solved_game_counts_once_and_the_solver_s_help_is_assisted() {
    let wins = |fx: &[Effect]| -> Vec<bool> {
        fx.iter()
            .filter_map(|e| match e {
                Effect::RecordWin { assisted, .. } => Some(*assisted),
                _ => None,
            })
            .collect()
    };
    let mut a = playing(small());
    a.update(ch('S'));
    let fx = a.update(key(KeyCode::Enter));
    assert_eq!(wins(&fx), [true], "the solver's board is an assisted win");
    a.update(key(KeyCode::Enter)); // the overlay closes to the menu
    let save = a.game.as_ref().unwrap().to_save();
    let back = Game::from_save(&save).unwrap();
    assert!(back.assisted());
    a.update(key(KeyCode::Esc)); // back to the board
    assert!(matches!(a.screen, Screen::Playing));
    a.update(ch('u'));
    assert!(!a.game.as_ref().unwrap().is_solved());
    let fx = a.update(ch('U'));
    assert!(a.game.as_ref().unwrap().is_solved());
    assert!(matches!(a.overlay, Some(Overlay::Solved { .. })));
    assert!(wins(&fx).is_empty(), "won once");

    // Played to the end by hand: an unassisted win.
    let game = small();
    let sol = game.solution().unwrap().clone();
    let mut a = playing(game);
    let mut fx = Vec::new();
    for c in 0..16 {
        if !a.game.as_ref().unwrap().is_given(c) {
            goto(&mut a, c);
            fx.extend(press(&mut a, &sol.get(c).get().to_string()));
        }
    }
    assert_eq!(wins(&fx), [false]);
}

/// Leaving a game never discards it: a game played in and left for a new
/// one is kept among the named saves (the runner names it), one not yet
/// touched is not; Continue puts the cursor back where it was; with a
/// game to continue, the start menu's focus starts on Continue.
#[test]
fn leaving_a_game_keeps_it_and_continue_puts_the_cursor_back() {
    let kept = |fx: &[Effect]| {
        fx.iter()
            .filter(|e| matches!(e, Effect::KeepUnfinished(..)))
            .count()
    };
    let new_game = |a: &mut App| -> Vec<Effect> {
        a.update(ch('m'));
        a.update(key(KeyCode::Down)); // Continue → New game
        a.update(key(KeyCode::Enter));
        let fx = a.update(key(KeyCode::Enter));
        settle(a, fx)
    };
    // Untouched: nothing to keep.
    let mut a = playing(small());
    assert_eq!(kept(&new_game(&mut a)), 0);
    // Played in: kept, with the cursor where the player was.
    let mut a = playing(small());
    goto(&mut a, 5);
    press(&mut a, "2");
    let fx = new_game(&mut a);
    assert_eq!(kept(&fx), 1, "{fx:?}");
    let Some(Effect::KeepUnfinished(save, _, None)) =
        fx.iter().find(|e| matches!(e, Effect::KeepUnfinished(..)))
    else {
        unreachable!()
    };
    let back = Game::from_save(save).unwrap();
    assert_eq!(back.cursor(), Some(5));
    assert_eq!(back.moves(), 1);
    // Continue (here: loading that save) puts the cursor back on cell 5.
    let mut b = app();
    b.update(Action::Loaded(Loaded::Game(Box::new(back))));
    assert!(matches!(b.screen, Screen::Playing));
    assert_eq!(b.cursor, 5);

    // Loaded from a named save and left untouched: that save holds it,
    // nothing more is kept; touched, it is kept (a loaded unfinished-N
    // goes back to its own name, any other as a new one).
    for (name, again) in [("mine", None), ("unfinished-3", Some("unfinished-3"))] {
        let mut a = load_named(name, small());
        assert_eq!(kept(&new_game(&mut a)), 0, "{name} untouched");
        let mut a = load_named(name, small());
        goto(&mut a, 5);
        press(&mut a, "2");
        let fx = new_game(&mut a);
        let kept_as: Vec<Option<&str>> = fx
            .iter()
            .filter_map(|e| match e {
                Effect::KeepUnfinished(_, _, again) => Some(again.as_deref()),
                _ => None,
            })
            .collect();
        assert_eq!(kept_as, [again], "{name} touched");
    }
    // Saved with Save as, then left: that save holds it.
    let mut a = playing(small());
    goto(&mut a, 5);
    press(&mut a, "2");
    a.update(Action::Saved(Ok("mine".into())));
    assert_eq!(kept(&new_game(&mut a)), 0, "saved as, then left");

    // A game to continue: the start menu's focus is on Continue.
    let mut c = app();
    let meta = dekadoku::tui::app::meta(&small());
    c.update(Action::AutosaveFound(Some(meta)));
    assert!(matches!(
        c.screen,
        Screen::Start {
            sel: dekadoku::tui::app::StartItem::Continue
        }
    ));
}

/// An app that loaded `game` from the named save `name` (Load, Enter).
fn load_named(name: &str, game: Game) -> App {
    let mut a = app();
    a.update(key(KeyCode::Down)); // New game → Load
    let fx = a.update(key(KeyCode::Enter));
    assert!(matches!(a.screen, Screen::Load { .. }), "{fx:?}");
    a.update(Action::Saves(vec![SaveListing {
        name: name.into(),
        meta: Ok(dekadoku::tui::app::meta(&game)),
    }]));
    let fx = a.update(key(KeyCode::Enter));
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Read { what: ToRead::Save(n), .. } if n == name)),
        "{fx:?}"
    );
    a.update(Action::Loaded(Loaded::Game(Box::new(game))));
    assert!(matches!(a.screen, Screen::Playing));
    a
}

/// "Save as" over a save of another game asks first: Esc keeps the old
/// save, Enter writes over it.
#[test]
fn save_as_asks_before_replacing_another_game() {
    let mut a = playing(small());
    a.update(ch('s'));
    press(&mut a, "mine");
    let fx = a.update(key(KeyCode::Enter));
    assert!(fx.iter().any(|e| matches!(
        e,
        Effect::SaveAs {
            overwrite: false,
            ..
        }
    )));
    // The runner found another game under that name.
    a.update(Action::SaveWouldReplace("mine".into()));
    assert_eq!(
        a.overlay,
        Some(Overlay::ConfirmOverwrite {
            name: "mine".into()
        })
    );
    let fx = a.update(key(KeyCode::Esc));
    assert!(fx.is_empty() && a.overlay.is_none());
    assert!(a.status.contains("kept"), "{}", a.status);
    a.update(Action::SaveWouldReplace("mine".into()));
    let fx = a.update(key(KeyCode::Enter));
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::SaveAs { name, overwrite: true, .. } if name == "mine"))
    );
}

// ---------------------------------------------------------- statistics

/// Statistics with `days` daily puzzles started, up to 2026-03-14.
fn stats_with_days(days: i64) -> dekadoku::store::Stats {
    use dekadoku::engine::generate::daily::Date;
    let mut s = dekadoku::store::Stats::default();
    s.record_start("9x9/easy");
    let today = Date::parse("2026-03-14").unwrap().days();
    for back in 0..days {
        s.record_daily_start(Date::from_days(today - back), "9x9/easy");
    }
    s
}

fn stats_scroll(a: &App) -> usize {
    match a.screen {
        Screen::Stats { scroll, .. } => scroll,
        _ => panic!("not the statistics: {:?}", a.screen),
    }
}

/// From the start menu: its entry (or `t`) opens the statistics, which
/// the runner reads; Esc, `q` and `t` go back to the menu, on the entry;
/// Ctrl+C still quits.
#[test]
fn statistics_open_and_close_from_the_start_menu() {
    use dekadoku::tui::app::{StartItem, StatsFrom};
    let mut a = app();
    while !matches!(
        a.screen,
        Screen::Start {
            sel: StartItem::Stats
        }
    ) {
        a.update(key(KeyCode::Down));
    }
    let fx = a.update(key(KeyCode::Enter));
    assert!(fx.iter().any(|e| matches!(e, Effect::ReadStats)), "{fx:?}");
    assert!(matches!(
        a.screen,
        Screen::Stats {
            from: StatsFrom::Start,
            stats: None,
            ..
        }
    ));
    a.update(Action::Stats(Box::new(stats_with_days(3))));
    assert!(matches!(a.screen, Screen::Stats { stats: Some(_), .. }));
    assert!(screen_text(&a, 80, 24).contains("9×9 easy"));
    let back_on_the_entry = |a: &App| {
        matches!(
            a.screen,
            Screen::Start {
                sel: StartItem::Stats
            }
        )
    };
    a.update(key(KeyCode::Esc));
    assert!(back_on_the_entry(&a), "{:?}", a.screen);
    for close in [ch('q'), ch('t')] {
        a.update(ch('t'));
        assert!(matches!(a.screen, Screen::Stats { .. }));
        a.update(close);
        assert!(back_on_the_entry(&a), "{:?}", a.screen);
        assert!(!a.is_quitting());
    }
    a.update(ch('t'));
    let fx = a.update(ctrl('c'));
    assert!(a.is_quitting());
    assert!(fx.iter().any(|e| matches!(e, Effect::Quit)));
}

/// From the game: `t` shows the statistics with the clock standing; Esc
/// (or `q`) goes back to the same board, cursor and clock, which runs on.
#[test]
fn statistics_from_the_game_stop_the_clock_and_go_back_to_it() {
    let mut a = playing(small());
    goto(&mut a, 5);
    press(&mut a, "2");
    a.update(Action::Tick(Duration::from_secs(3)));
    let elapsed = a.game.as_ref().unwrap().elapsed();
    assert_eq!(elapsed, Duration::from_secs(3));
    for close in [key(KeyCode::Esc), ch('q')] {
        let fx = a.update(ch('t'));
        assert!(fx.iter().any(|e| matches!(e, Effect::ReadStats)), "{fx:?}");
        a.update(Action::Stats(Box::new(stats_with_days(1))));
        a.update(Action::Tick(Duration::from_secs(60)));
        assert_eq!(
            a.game.as_ref().unwrap().elapsed(),
            elapsed,
            "the clock stands"
        );
        // The title line says how to close them.
        let text = screen_text(&a, 80, 24);
        assert!(text.contains("Statistics · Esc/q/t close"), "{text}");
        a.update(close);
        assert!(matches!(a.screen, Screen::Playing));
        assert!(!a.is_quitting());
        assert_eq!(a.cursor, 5);
        assert_eq!(a.game.as_ref().unwrap().moves(), 1);
    }
    a.update(Action::Tick(Duration::from_secs(1)));
    assert_eq!(
        a.game.as_ref().unwrap().elapsed(),
        elapsed + Duration::from_secs(1)
    );
    // The help on the board lists the key.
    a.update(ch('?'));
    assert!(screen_text(&a, 120, 40).contains("t  statistics"));
}

/// A long record scrolls a line with the arrows and a page with PgUp and
/// PgDn, never past either end; a smaller window scrolls further.
#[test]
fn statistics_scroll_within_their_ends() {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    a.update(ch('t'));
    a.update(Action::Stats(Box::new(stats_with_days(60))));
    a.update(key(KeyCode::Up));
    assert_eq!(stats_scroll(&a), 0);
    a.update(key(KeyCode::Down));
    a.update(ch('j'));
    assert_eq!(stats_scroll(&a), 2);
    a.update(key(KeyCode::PageDown));
    let page = stats_scroll(&a) - 2;
    assert!(page > 5, "a page is most of the window: {page}");
    a.update(key(KeyCode::PageUp));
    assert_eq!(stats_scroll(&a), 2);
    a.update(key(KeyCode::PageUp));
    assert_eq!(stats_scroll(&a), 0);
    for _ in 0..50 {
        a.update(key(KeyCode::PageDown));
    }
    let end = stats_scroll(&a);
    a.update(key(KeyCode::Down));
    assert_eq!(stats_scroll(&a), end, "not past the end");
    // 2 table lines, a blank, the daily title and header, 60 dates; 17
    // shown at 80×24.
    assert_eq!(end, 65 - 17);
    let text = screen_text(&a, 80, 24);
    assert!(text.contains("2026-01-14"), "the oldest date is shown last");
    assert!(text.contains("lines 49–65 of 65"), "{text}");
    a.update(Action::Resize(80, 40));
    a.update(key(KeyCode::Down));
    assert_eq!(
        stats_scroll(&a),
        65 - 33,
        "a taller window scrolls less far"
    );
}

/// The streak ends when a game played in is left for another: the
/// statistics hear of it. A game never touched, or won (and then
/// changed), was not left unfinished.
#[test]
fn leaving_a_game_unfinished_ends_its_streak() {
    let unfinished = |fx: &[Effect]| -> Vec<String> {
        fx.iter()
            .filter_map(|e| match e {
                Effect::RecordUnfinished(k) => Some(k.clone()),
                _ => None,
            })
            .collect()
    };
    let new_game = |a: &mut App| -> Vec<Effect> {
        a.update(ch('m'));
        while !matches!(
            a.screen,
            Screen::Start {
                sel: dekadoku::tui::app::StartItem::NewGame
            }
        ) {
            a.update(key(KeyCode::Down));
        }
        a.update(key(KeyCode::Enter));
        let fx = a.update(key(KeyCode::Enter));
        settle(a, fx)
    };
    let mut a = playing(small());
    assert!(unfinished(&new_game(&mut a)).is_empty(), "untouched");
    let mut a = playing(small());
    press(&mut a, "2");
    assert_eq!(unfinished(&new_game(&mut a)), ["4x4/imported"]);
    // Won by hand, then a cell undone: kept, but not unfinished.
    let game = small();
    let sol = game.solution().unwrap().clone();
    let mut a = playing(game);
    for c in 0..16 {
        if !a.game.as_ref().unwrap().is_given(c) {
            goto(&mut a, c);
            press(&mut a, &sol.get(c).get().to_string());
        }
    }
    a.update(key(KeyCode::Enter)); // the solved overlay, to the menu
    a.update(key(KeyCode::Esc)); // back to the board
    a.update(ch('u'));
    assert!(a.game.as_ref().unwrap().in_progress());
    assert!(unfinished(&new_game(&mut a)).is_empty());
}

/// The daily puzzle's start and win carry its date, for the daily record;
/// other games carry none.
#[test]
fn the_daily_puzzle_is_recorded_by_its_date() {
    use dekadoku::engine::generate::daily::Date;
    let monday = Date::parse("2026-03-09").unwrap();
    let mut a = app();
    a.update(Action::Today(monday));
    while !matches!(
        a.screen,
        Screen::Start {
            sel: dekadoku::tui::app::StartItem::Daily
        }
    ) {
        a.update(key(KeyCode::Down));
    }
    let fx = a.update(key(KeyCode::Enter));
    let fx = settle(&mut a, fx);
    assert!(matches!(a.screen, Screen::Playing));
    let key9 = dekadoku::tui::app::stats_key(a.game.as_ref().unwrap());
    assert!(
        fx.iter().any(|e| matches!(
            e,
            Effect::RecordStart { key, daily: Some(d) } if *d == monday && *key == key9
        )),
        "{fx:?}"
    );
    assert_eq!(
        dekadoku::tui::app::daily_date(a.game.as_ref().unwrap()),
        Some(monday)
    );
    let sol = a.game.as_ref().unwrap().solution().unwrap().clone();
    let mut fx = Vec::new();
    for c in 0..81 {
        if a.game.as_ref().unwrap().value(c).is_none() {
            goto(&mut a, c);
            fx.extend(press(&mut a, &sol.get(c).get().to_string()));
        }
    }
    assert!(
        fx.iter().any(|e| matches!(
            e,
            Effect::RecordWin { daily: Some(d), assisted: false, .. } if *d == monday
        )),
        "{fx:?}"
    );
    // An import titled like a daily puzzle is not one.
    let mut g = small();
    g = Game::new(
        &g.puzzle(),
        g.solution().cloned(),
        Origin {
            level: None,
            seed: None,
            title: Some("daily 2026-03-09".into()),
        },
    );
    assert_eq!(dekadoku::tui::app::daily_date(&g), None);
}

/// A value being typed on a 16×16 ("typing 1…") is dropped by a move or
/// any other command, and the status line stops saying it is being typed.
#[test]
fn a_move_drops_a_typed_prefix_and_its_message() {
    let shape = Shape::square(4).unwrap();
    let puzzle = dekadoku::engine::generate::bundled::bundled(shape, Level::Easy)[0].clone();
    let mut a = common::tui::playing(Game::new(&puzzle, None, Origin::default()));
    assert!(matches!(a.screen, Screen::Playing));
    let g = a.game.as_ref().unwrap();
    let empty: Vec<usize> = (0..256).filter(|&c| !g.is_given(c)).collect();
    let (first, second) = (0..255)
        .find(|&c| empty.contains(&c) && empty.contains(&(c + 1)) && c % 16 != 15)
        .map(|c| (c, c + 1))
        .unwrap();
    a.cursor = first;
    press(&mut a, "1");
    assert!(a.status.starts_with("typing 1"), "{}", a.status);
    a.update(key(KeyCode::Right));
    assert_eq!(a.cursor, second);
    assert!(a.status.is_empty(), "{}", a.status);
    // The next digit starts afresh: 1 then 2 is 12, not 112.
    press(&mut a, "1");
    a.update(key(KeyCode::Char('u'))); // undo: nothing to undo, still a command
    assert!(!a.status.starts_with("typing"), "{}", a.status);
    press(&mut a, "12");
    a.update(key(KeyCode::Enter));
    assert_eq!(
        a.game.as_ref().unwrap().value(second).map(|v| v.get()),
        Some(12)
    );
}

/// The mouse: a click on a start menu item chooses it; on the board a click
/// picks a cell, then a click on the digit bar enters the value there (a
/// note in note mode, after a click on "notes"), or clears it.
#[test]
fn the_mouse_chooses_menu_items_and_enters_digits_from_the_bar() {
    use dekadoku::tui::layout::{Chip, Geometry, board_area, digit_bar, menu_rect};
    use ratatui::layout::Rect;
    let click = |a: &mut App, x: u16, y: u16| a.update(Action::Click { x, y });
    let area = Rect::new(0, 0, 120, 40);

    let mut a = app();
    a.update(Action::Resize(120, 40));
    let r = menu_rect(area, 8);
    // The fourth item (Import): chosen at once.
    click(&mut a, r.x + 3, r.y + 4);
    assert!(matches!(a.screen, Screen::Import { .. }), "{:?}", a.screen);

    let mut a = playing(small());
    a.update(Action::Resize(120, 40));
    // Drawn once, as the player sees it: the digit bar's place is where
    // it was drawn.
    let mut t = Terminal::new(TestBackend::new(120, 40)).unwrap();
    t.draw(|f| dekadoku::tui::ui::draw(f, &a)).unwrap();
    let panel = a.digit_panel.get();
    let g = a.game.as_ref().unwrap();
    let board = board_area(area, g.shape());
    let geo = Geometry::new(g.shape(), board, a.cursor);
    let cell = (0..16).find(|&c| !g.is_given(c)).unwrap();
    let (x, y) = (0..120u16)
        .flat_map(|x| (0..40u16).map(move |y| (x, y)))
        .find(|&(x, y)| geo.cell_at(x, y) == Some(cell))
        .unwrap();
    click(&mut a, x, y);
    assert_eq!(a.cursor, cell);
    let chips = digit_bar(panel.unwrap(), 4);
    let at = |chip: Chip| {
        chips
            .iter()
            .find(|(_, c)| *c == chip)
            .map(|(r, _)| (r.x, r.y))
            .unwrap()
    };
    let (x, y) = at(Chip::Value(3));
    click(&mut a, x, y);
    assert_eq!(
        a.game.as_ref().unwrap().value(cell).map(Value::get),
        Some(3)
    );
    let (x, y) = at(Chip::Clear);
    click(&mut a, x, y);
    assert_eq!(a.game.as_ref().unwrap().value(cell), None);
    let (x, y) = at(Chip::NoteMode);
    click(&mut a, x, y);
    assert!(a.note_mode);
    let (x, y) = at(Chip::Value(2));
    click(&mut a, x, y);
    let notes: Vec<usize> = a
        .game
        .as_ref()
        .unwrap()
        .notes(cell)
        .iter()
        .map(Value::get)
        .collect();
    assert_eq!(notes, [2]);
}

/// A click on a magnified cell moves the cursor there: the 16×16 at
/// 100×32 shows its notes in the magnifier, not on the board.
#[test]
fn a_click_in_the_magnifier_moves_the_cursor() {
    use dekadoku::tui::layout::ZoomPlan;
    let p = Puzzle::empty(Shape::square(4).unwrap());
    let mut a = playing(Game::new(&p, None, Origin::default()));
    a.update(Action::Resize(100, 32));
    a.config.play.mouse = true;
    press(&mut a, "f");
    goto(&mut a, 0);
    let mut t = Terminal::new(TestBackend::new(100, 32)).unwrap();
    t.draw(|f| dekadoku::tui::ui::draw(f, &a)).unwrap();
    let plan = a.zoomed.borrow().clone().expect("the magnifier is drawn");
    let ZoomPlan::Grid(grid) = &plan else {
        panic!("the cursor's box as a grid: {plan:?}")
    };
    // Box 1 of a 16×16: the cell in its last row and column is r4c4.
    let r = grid.cell_rect(3, 3);
    assert_eq!(plan.cell_at(r.x, r.y), Some(3 * 16 + 3));
    a.update(Action::Click { x: r.x + 1, y: r.y });
    assert_eq!(a.cursor, 3 * 16 + 3);
    // Outside any magnified cell (its label column) nothing moves.
    a.update(Action::Click {
        x: grid.cell_rect(0, 0).x - 2,
        y: r.y,
    });
    assert_eq!(a.cursor, 3 * 16 + 3);
}

/// A click chooses in every list: a setting (changed, as Enter does), a
/// save (loaded), a solver to watch (started).
#[test]
fn a_click_chooses_in_the_settings_the_saves_and_the_watch_menu() {
    use dekadoku::tui::layout::{WATCH_MENU_HEAD, load_rect, settings_rect, watch_menu_rect};
    use ratatui::layout::Rect;
    let area = Rect::new(0, 0, 120, 40);
    let click = |a: &mut App, x: u16, y: u16| a.update(Action::Click { x, y });

    // Settings: the second row (wrap at the edges) flips.
    let mut a = app();
    a.update(Action::Resize(120, 40));
    for _ in 0..3 {
        a.update(key(KeyCode::Down)); // New game → Load → Import → Settings
    }
    a.update(key(KeyCode::Enter));
    assert!(
        matches!(a.screen, Screen::Settings { .. }),
        "{:?}",
        a.screen
    );
    let wrap = a.config.play.wrap;
    let r = settings_rect(area);
    click(&mut a, r.x + 5, r.y + 2);
    assert_eq!(a.config.play.wrap, !wrap);

    // Load: the second save is read.
    let mut a = app();
    a.update(Action::Resize(120, 40));
    a.update(key(KeyCode::Down));
    a.update(key(KeyCode::Enter));
    let listing = |name: &str| SaveListing {
        name: name.into(),
        meta: Ok(dekadoku::tui::app::meta(&small())),
    };
    a.update(Action::Saves(vec![listing("one"), listing("two")]));
    let r = load_rect(area);
    let fx = click(&mut a, r.x + 5, r.y + 2);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Read { what: ToRead::Save(n), .. } if n == "two")),
        "{fx:?}"
    );

    // Watch menu: the first solver starts.
    let mut a = playing(small());
    a.update(Action::Resize(120, 40));
    press(&mut a, "v");
    assert!(
        matches!(a.screen, Screen::WatchMenu { .. }),
        "{:?}",
        a.screen
    );
    let r = watch_menu_rect(area, dekadoku::tui::playback::WatchSolver::all().len());
    let fx = click(&mut a, r.x + 4, r.y + WATCH_MENU_HEAD);
    assert!(matches!(a.screen, Screen::Watch { .. }), "{:?}", a.screen);
    assert!(fx.iter().any(|e| matches!(e, Effect::Start(_))), "{fx:?}");
}

/// The new-game dialog offers only the levels a size can have: a 4×4 is
/// easy whatever level was picked before, a 6×6 goes up to hard.
#[test]
fn the_new_game_dialog_offers_the_levels_each_size_has() {
    use dekadoku::engine::generate::{levels_for, nearest_level};
    let mut a = app();
    a.update(key(KeyCode::Enter)); // New game dialog (9×9, medium)
    let Screen::NewGame { .. } = a.screen else {
        panic!("{:?}", a.screen)
    };
    // Level row: up to expert on the 9×9.
    a.update(key(KeyCode::Down));
    a.update(key(KeyCode::Right));
    a.update(key(KeyCode::Right));
    let Screen::NewGame { level, .. } = &a.screen else {
        unreachable!()
    };
    assert_eq!(*level, Level::Expert);
    // Size row: through every size and back; the level picked is kept
    // (each size shows the nearest it has).
    a.update(key(KeyCode::Up));
    for _ in 0..12 {
        a.update(key(KeyCode::Left));
    }
    let Screen::NewGame { size, level, .. } = &a.screen else {
        unreachable!()
    };
    assert_eq!(*level, Level::Expert, "passing 4×4 keeps the level picked");
    assert!(levels_for(*size).contains(&nearest_level(*size, *level)));
    for _ in 0..12 {
        a.update(key(KeyCode::Left));
        let Screen::NewGame { size, .. } = &a.screen else {
            unreachable!()
        };
        if size.n() == 4 {
            break;
        }
    }
    a.update(key(KeyCode::Down));
    for _ in 0..5 {
        a.update(key(KeyCode::Right));
        let Screen::NewGame { level, .. } = &a.screen else {
            unreachable!()
        };
        assert_eq!(
            nearest_level(Shape::square(2).unwrap(), *level),
            Level::Easy,
            "a 4×4 is easy only"
        );
    }
    // Enter on the 4×4 asks for an easy puzzle.
    let fx = a.update(key(KeyCode::Enter));
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Start(j) if format!("{:?}", j.kind).contains("Easy"))),
        "{fx:?}"
    );
}

// ------------------------------------------- a search that misses its level

/// The app waiting for a 9×9 expert puzzle asked through the menu (no
/// pool), and the generation job it started.
fn searching_expert() -> (App, dekadoku::tui::worker::Job) {
    let mut a = app();
    a.update(key(KeyCode::Enter)); // New game dialog (9×9, medium)
    a.update(key(KeyCode::Down));
    a.update(key(KeyCode::Right));
    a.update(key(KeyCode::Right)); // expert
    let fx = a.update(key(KeyCode::Enter));
    let Some(Effect::Start(job)) = fx.into_iter().next() else {
        panic!("no job")
    };
    assert!(
        matches!(job.kind, JobKind::Generate { .. }),
        "{:?}",
        job.kind
    );
    (a, job)
}

/// A shipped 9×9 puzzle of level `got` (graded here) as the generator's
/// answer to a request for `asked`.
fn graded_as(got: Level, pick: usize, asked: Level) -> dekadoku::engine::generate::Graded {
    use dekadoku::engine::generate::bundled::bundled;
    use dekadoku::engine::generate::{Generated, Graded};
    let puzzle = bundled(Shape::CLASSIC, got)[pick].clone();
    let Outcome::Solved(solution) = solve(&puzzle, &Limits::none(), &mut NoTrace) else {
        panic!()
    };
    let grade = dekadoku::engine::grade::grade(&puzzle).unwrap();
    assert_eq!(grade.level, got);
    Graded {
        generated: Generated {
            clues: puzzle.clue_count(),
            puzzle,
            solution,
            seed: 5,
            level: asked,
        },
        grade: Some(grade),
        rating_range: None,
    }
}

/// The generator's answer to job `id`.
fn answer(id: u64, g: dekadoku::engine::generate::Graded) -> Action {
    Action::Job(dekadoku::tui::worker::JobResult::Generated {
        id,
        result: Ok(g),
        title: None,
    })
}

/// The progress and budget a generation job carries.
fn search_of(
    job: &dekadoku::tui::worker::Job,
) -> (dekadoku::engine::generate::Progress, Duration, u64) {
    match &job.kind {
        JobKind::Generate {
            progress,
            budget,
            seed,
            ..
        } => (progress.clone(), *budget, *seed),
        other => panic!("{other:?}"),
    }
}

/// While a new game is generated, the screen says what the generator is
/// doing (from the progress value the job carries) and for how long;
/// when the closest puzzle misses the level, nothing starts: a dialog
/// asks, and Esc goes back to the new-game dialog as it was.
#[test]
fn a_search_shows_its_progress_and_a_miss_asks_first() {
    let (mut a, job) = searching_expert();
    let (progress, budget, _) = search_of(&job);
    assert_eq!(budget, Duration::from_secs(4));
    assert!(screen_text(&a, 80, 24).contains("starting · 0.0 s of 4 s"));
    progress.begin_try();
    progress.begin_try();
    progress.closest(Some(Level::Hard));
    for _ in 0..9 {
        a.update(Action::Tick(Duration::from_millis(250)));
    }
    let text = screen_text(&a, 80, 24);
    assert!(
        text.contains("try 2: digging · closest so far: hard · 2.2 s of 4 s"),
        "{text}"
    );
    progress.grading();
    progress.closest(Some(Level::Expert));
    let text = screen_text(&a, 80, 24);
    assert!(text.contains("try 2: grading · found: expert"), "{text}");

    // The answer misses: no game, no statistics, a dialog.
    let fx = a.update(answer(job.id, graded_as(Level::Medium, 0, Level::Expert)));
    assert!(fx.is_empty(), "{fx:?}");
    assert!(a.game.is_none());
    assert!(a.notice.is_none(), "{:?}", a.notice);
    assert!(
        matches!(a.screen, Screen::Fallback { .. }),
        "{:?}",
        a.screen
    );
    let text = screen_text(&a, 80, 24);
    for want in [
        "9×9 expert: none found in time",
        "Closest in 2.2 s: medium, rating",
        "Keep waiting: search again, up to 8 s",
        "Play the closest found (medium)",
        "Play a shipped 9×9 expert puzzle",
    ] {
        assert!(text.contains(want), "{want}: {text}");
    }
    // Keys that mean nothing here change nothing; Esc goes back.
    a.update(ch('x'));
    assert!(matches!(a.screen, Screen::Fallback { .. }));
    a.update(key(KeyCode::Esc));
    let Screen::NewGame { size, level, .. } = a.screen else {
        panic!("{:?}", a.screen)
    };
    assert_eq!((size, level), (Shape::CLASSIC, Level::Expert));
    assert!(a.game.is_none());
}

/// "Play the closest found" starts it, counted at the level the grader
/// measured, and the status line says it is the closest, not the level
/// asked.
#[test]
fn the_closest_puzzle_is_played_when_chosen() {
    let (mut a, job) = searching_expert();
    let closest = graded_as(Level::Hard, 1, Level::Expert);
    let puzzle = closest.generated.puzzle.clone();
    a.update(answer(job.id, closest));
    a.update(key(KeyCode::Down));
    let fx = a.update(key(KeyCode::Enter));
    assert!(matches!(a.screen, Screen::Playing), "{:?}", a.screen);
    let g = a.game.as_ref().unwrap();
    assert_eq!(g.puzzle(), puzzle);
    assert_eq!(g.origin().level, Some(Level::Hard));
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::RecordStart { key, daily: None } if key == "9x9/hard"))
    );
    assert!(
        a.status.contains("hard (the closest to expert found)"),
        "{}",
        a.status
    );
    assert!(a.notice.is_none());

    // Its letter chooses it too.
    let (mut a, job) = searching_expert();
    a.update(answer(job.id, graded_as(Level::Hard, 1, Level::Expert)));
    a.update(ch('c'));
    assert!(matches!(a.screen, Screen::Playing), "{:?}", a.screen);
}

/// "Keep waiting" searches again from a new seed for twice as long, with
/// the progress shown; the dialog then offers the closest of both
/// searches, and a hit is played at once. An answer to the first search
/// arriving late is dropped.
#[test]
fn keep_waiting_searches_again_longer_and_keeps_the_closest() {
    let (mut a, job) = searching_expert();
    let (_, _, seed1) = search_of(&job);
    let medium = graded_as(Level::Medium, 2, Level::Expert);
    let medium_puzzle = medium.generated.puzzle.clone();
    a.update(answer(job.id, medium));
    // Enter on the first choice: keep waiting.
    let fx = a.update(key(KeyCode::Enter));
    let Some(Effect::Start(job2)) = fx.into_iter().next() else {
        panic!("no second search")
    };
    let (progress, budget, seed2) = search_of(&job2);
    assert_eq!(budget, Duration::from_secs(8));
    assert_ne!(seed1, seed2);
    assert!(matches!(a.screen, Screen::Working { .. }));
    progress.begin_try();
    let text = screen_text(&a, 80, 24);
    assert!(
        text.contains("search 2 · try 1: digging · closest so far: medium · 0.0 s of 8 s"),
        "{text}"
    );
    // Stale: the first search's job answers again.
    a.update(answer(job.id, graded_as(Level::Expert, 0, Level::Expert)));
    assert!(matches!(a.screen, Screen::Working { .. }));
    // The second search finds only an easy one: the medium is still the
    // closest on offer.
    a.update(answer(job2.id, graded_as(Level::Easy, 0, Level::Expert)));
    assert!(
        matches!(a.screen, Screen::Fallback { .. }),
        "{:?}",
        a.screen
    );
    let text = screen_text(&a, 80, 24);
    assert!(text.contains("Play the closest found (medium)"), "{text}");
    assert!(text.contains("up to 16 s"), "{text}");
    // A third search, by its letter, hits: played at once.
    let fx = a.update(ch('w'));
    let Some(Effect::Start(job3)) = fx.into_iter().next() else {
        panic!("no third search")
    };
    assert_eq!(search_of(&job3).1, Duration::from_secs(16));
    let expert = graded_as(Level::Expert, 3, Level::Expert);
    let expert_puzzle = expert.generated.puzzle.clone();
    a.update(answer(job3.id, expert));
    assert!(matches!(a.screen, Screen::Playing), "{:?}", a.screen);
    let g = a.game.as_ref().unwrap();
    assert_eq!(g.puzzle(), expert_puzzle);
    assert_ne!(g.puzzle(), medium_puzzle);
    assert_eq!(g.origin().level, Some(Level::Expert));
    assert!(a.notice.is_none());

    // A search after "keep waiting" that makes nothing in its time still
    // offers the closest of the earlier ones; a first one that makes
    // nothing goes back to the new-game dialog, as before.
    use dekadoku::tui::worker::{JobError, JobResult};
    let failed = |id| {
        Action::Job(JobResult::Generated {
            id,
            result: Err(JobError::OutOfTime),
            title: None,
        })
    };
    let (mut a, job) = searching_expert();
    a.update(answer(job.id, graded_as(Level::Medium, 2, Level::Expert)));
    let fx = a.update(ch('w'));
    let Some(Effect::Start(job2)) = fx.into_iter().next() else {
        panic!("no second search")
    };
    a.update(failed(job2.id));
    assert!(
        matches!(a.screen, Screen::Fallback { .. }),
        "{:?}",
        a.screen
    );
    let text = screen_text(&a, 80, 24);
    assert!(text.contains("Play the closest found (medium)"), "{text}");
    let (mut a, job) = searching_expert();
    a.update(failed(job.id));
    assert!(matches!(a.screen, Screen::NewGame { .. }), "{:?}", a.screen);
    assert!(a.status.contains("deadline"), "{}", a.status);
}

/// "Play a shipped puzzle" opens one of the size and level asked, never
/// the one played just before; where none is shipped (extreme) it is not
/// offered.
#[test]
fn a_shipped_puzzle_is_played_when_chosen_and_not_the_last_one_again() {
    let (mut a, job) = searching_expert();
    let mut last: Option<Puzzle> = None;
    let mut id = job.id;
    for round in 0..6 {
        a.update(answer(id, graded_as(Level::Hard, 0, Level::Expert)));
        assert!(
            matches!(a.screen, Screen::Fallback { .. }),
            "{:?}",
            a.screen
        );
        // The third choice, by arrows (or by its letter every other time).
        let fx = if round % 2 == 0 {
            a.update(key(KeyCode::Down));
            a.update(key(KeyCode::Down));
            a.update(key(KeyCode::Enter))
        } else {
            a.update(ch('r'))
        };
        let rest = settle(&mut a, fx);
        assert!(matches!(a.screen, Screen::Playing), "{:?}", a.screen);
        let g = a.game.as_ref().unwrap();
        assert_eq!(g.origin().level, Some(Level::Expert));
        assert!(
            g.origin()
                .title
                .as_deref()
                .is_some_and(|t| t.starts_with("ready puzzle")),
            "{:?}",
            g.origin()
        );
        assert!(g.solution().is_some());
        let shipped = dekadoku::engine::generate::bundled::bundled(Shape::CLASSIC, Level::Expert);
        assert!(shipped.contains(&g.puzzle()));
        assert_ne!(
            Some(g.puzzle()),
            last,
            "round {round}: the same puzzle again"
        );
        last = Some(g.puzzle());
        assert!(
            rest.iter()
                .any(|e| matches!(e, Effect::RecordStart { key, .. } if key == "9x9/expert"))
        );
        // Again: menu, New game, expert.
        a.update(key(KeyCode::Char('m')));
        let (b, job) = {
            a.update(key(KeyCode::Down)); // Continue → New game
            a.update(key(KeyCode::Enter));
            a.update(key(KeyCode::Down));
            a.update(key(KeyCode::Right));
            a.update(key(KeyCode::Right));
            let fx = a.update(key(KeyCode::Enter));
            let jobs: Vec<_> = fx
                .into_iter()
                .filter_map(|e| match e {
                    Effect::Start(j) => Some(j),
                    _ => None,
                })
                .collect();
            (jobs.len(), jobs.into_iter().next().unwrap())
        };
        assert_eq!(b, 1);
        assert!(
            matches!(job.kind, JobKind::Generate { .. }),
            "{:?}",
            job.kind
        );
        id = job.id;
    }

    // Extreme: nothing shipped, two choices, and `r` does nothing.
    let mut a = app();
    a.update(key(KeyCode::Enter));
    a.update(key(KeyCode::Down));
    for _ in 0..3 {
        a.update(key(KeyCode::Right));
    }
    let fx = a.update(key(KeyCode::Enter));
    let Some(Effect::Start(job)) = fx.into_iter().next() else {
        panic!("no job")
    };
    a.update(answer(job.id, graded_as(Level::Expert, 0, Level::Extreme)));
    let text = screen_text(&a, 80, 24);
    assert!(text.contains("9×9 extreme: none found in time"), "{text}");
    assert!(!text.contains("shipped"), "{text}");
    assert!(a.update(ch('r')).is_empty());
    assert!(matches!(a.screen, Screen::Fallback { .. }));
    // The arrows cycle over the two.
    a.update(key(KeyCode::Down));
    a.update(key(KeyCode::Down));
    let fx = a.update(key(KeyCode::Enter));
    assert!(fx.iter().any(|e| matches!(e, Effect::Start(_))), "{fx:?}");
    assert!(matches!(a.screen, Screen::Working { .. }));
}

/// A click on a choice of the dialog chooses it, as Enter on it would;
/// a click elsewhere does nothing.
#[test]
fn a_click_chooses_in_the_fallback_dialog() {
    use dekadoku::tui::layout::{FALLBACK_HEAD, fallback_rect};
    for (w, h) in [(80, 24), (120, 40)] {
        for choice in 0..3u16 {
            let (mut a, job) = searching_expert();
            a.update(Action::Resize(w, h));
            a.update(answer(job.id, graded_as(Level::Hard, 0, Level::Expert)));
            let r = fallback_rect(a.layout_area(), 3);
            // Outside the box, and on the head: nothing.
            assert!(a.update(Action::Click { x: 0, y: 0 }).is_empty());
            assert!(
                a.update(Action::Click {
                    x: r.x + 4,
                    y: r.y + 1
                })
                .is_empty()
            );
            assert!(matches!(a.screen, Screen::Fallback { .. }));
            let y = r.y + 1 + FALLBACK_HEAD + choice;
            let fx = a.update(Action::Click { x: r.x + 6, y });
            match choice {
                0 => {
                    assert!(matches!(a.screen, Screen::Working { .. }), "{:?}", a.screen);
                    assert!(fx.iter().any(|e| matches!(e, Effect::Start(j)
                        if matches!(j.kind, JobKind::Generate { .. }))));
                }
                1 => {
                    assert!(matches!(a.screen, Screen::Playing), "{:?}", a.screen);
                    assert_eq!(a.game.as_ref().unwrap().origin().level, Some(Level::Hard));
                }
                _ => {
                    assert!(fx.iter().any(|e| matches!(e, Effect::Start(j)
                        if matches!(j.kind, JobKind::Solve { .. }))));
                }
            }
        }
    }
}
