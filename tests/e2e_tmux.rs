//! End to end in a real pseudo-terminal: the `dekadoku` binary runs inside
//! tmux (installed by `.ci/run`); keys go in with `send-keys`, the screen
//! comes back with `capture-pane`. Start, new 9×9 game, enter a digit, undo,
//! enter it again, save, quit, restart, Continue: the same board.
//! Skips (with a note) where tmux is missing; fails there under CI.
#![cfg(feature = "tui")]
#![allow(clippy::unwrap_used)]

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::tmux::{
    Tmux, board, continue_game, fresh_dir, game, game_command, games_with, moves_shown,
    type_moves_for_ten_seconds, words,
};

#[test]
fn play_save_quit_and_continue_in_a_real_terminal() {
    if common::tmux::missing() {
        return;
    }
    let tmp = fresh_dir("play");
    let dir = tmp.path();
    let name = format!("dekadoku-e2e-{}", std::process::id());

    let s = game(dir, &name, "");
    s.wait_for("the start menu", |t| {
        t.contains("New game") && t.contains("Continue")
    });
    // Start menu (New game selected) → size/level dialog (9×9 by default).
    s.keys(&["Enter"]);
    s.wait_for("the new-game dialog", |t| t.contains("9×9"));
    s.keys(&["Enter"]);
    let first = s.wait_settled("the board", |t| t.contains("filled") && t.contains('┏'));
    // The cursor starts on the first empty cell: enter 5, undo, enter 7.
    s.keys(&["5"]);
    s.wait_for("the move", |t| t.contains("moves    1"));
    s.keys(&["u"]);
    let undone = s.wait_settled("the undo", |t| t.contains("undid entry"));
    assert_eq!(board(&undone), board(&first), "undo restores the board");
    s.keys(&["7"]);
    let played = s.wait_settled("the second move", |t| t.contains("moves    2"));
    // Save under a name.
    s.keys(&["s"]);
    s.wait_for("the save dialog", |t| t.contains("Name of the save"));
    s.keys(&["e", "2", "e", "Enter"]);
    s.wait_for("the save", |t| t.contains("saved as"));
    assert!(dir.join("data/saves/e2e.json").exists());
    s.keys(&["q"]);
    s.wait_gone();
    assert!(
        dir.join("data/autosave.json").exists(),
        "quit writes the autosave"
    );
    drop(s);

    let s = game(dir, &name, "");
    let resumed = continue_game(&s, "moves    2");
    assert_eq!(
        board(&resumed),
        board(&played),
        "Continue shows the same board"
    );
    s.keys(&["q"]);
    drop(s);
}

/// Starts a new 9×9 game and enters one digit; the screen after it.
fn one_move(s: &Tmux) -> String {
    s.new_9x9();
    s.keys(&["5"]);
    s.wait_settled("the move", |t| t.contains("moves    1"))
}

/// SIGTERM (a shutdown) and SIGHUP (the SSH connection or the terminal
/// went away) end the game cleanly with the game saved: Continue shows
/// the same board.
#[test]
fn sigterm_and_sighup_save_the_game_and_exit() {
    if common::tmux::missing() {
        return;
    }
    for signal in ["TERM", "HUP"] {
        let tmp = fresh_dir(&format!("sig{signal}"));
        let dir = tmp.path();
        let name = format!("dekadoku-sig{signal}-{}", std::process::id());
        let s = game(dir, &name, "");
        let played = one_move(&s);
        // Right after the move: the autosave's quiet period has not passed.
        let pid = s.show("#{pane_pid}");
        let ok = Command::new("kill")
            .args([&format!("-{signal}"), &pid])
            .status()
            .unwrap()
            .success();
        assert!(ok, "kill -{signal} {pid}");
        s.wait_gone();
        assert!(
            dir.join("data/autosave.json").exists(),
            "SIG{signal} writes the autosave"
        );
        drop(s);
        let s = game(dir, &name, "");
        let resumed = continue_game(&s, "moves    1");
        assert_eq!(board(&resumed), board(&played), "SIG{signal}: same board");
        s.keys(&["q"]);
        drop(s);
    }
}

/// The terminal goes with no hang-up signal for the game (its shell, the
/// session leader, ignores SIGHUP and stays: a wrapper script, a
/// non-interactive `sh -c`). Right after a move, before the autosave's
/// quiet period has passed, the window is closed: the game sees only a
/// terminal that fails, and still writes the move before it exits (it
/// used to exit on the failed frame without saving: 0 of 5 tries kept
/// the move).
#[test]
fn a_terminal_gone_without_a_hang_up_still_gets_the_move_saved() {
    if common::tmux::missing() {
        return;
    }
    let tmp = fresh_dir("nohup");
    let dir = tmp.path();
    let name = format!("dekadoku-nohup-{}", std::process::id());
    let cmd = format!("sh -c 'trap \"\" HUP; {}; true'", game_command(dir));
    let s = Tmux::start(&name, &cmd);
    let played = one_move(&s);
    drop(s); // the window closes: its pseudo-terminal is gone
    // The game saves and exits, releasing its autosave slot; then a new
    // game on the folder continues the same board.
    let data = dir.join("data").display().to_string();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !games_with(&data).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    let left = games_with(&data);
    assert!(
        left.is_empty(),
        "the game outlived its terminal:\n{}",
        left.join("\n")
    );
    let s = game(dir, &name, "");
    let resumed = continue_game(&s, "moves    1");
    assert_eq!(board(&resumed), board(&played), "the move was saved");
    s.keys(&["q"]);
    drop(s);
}

/// A panic (the hidden `debug_panic` action, bound in the config) leaves
/// the terminal as it found it: raw mode off, the alternate screen left,
/// the cursor shown; the message and the autosave's path are printed.
#[test]
fn a_panic_restores_the_terminal_and_says_where_the_autosave_is() {
    if common::tmux::missing() {
        return;
    }
    let tmp = fresh_dir("panic");
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("config")).unwrap();
    std::fs::write(
        dir.join("config/config.toml"),
        "[keys.board]\n\"ctrl+p\" = \"debug_panic\"\n",
    )
    .unwrap();
    let name = format!("dekadoku-panic-{}", std::process::id());
    let err = dir.join("stderr.txt");
    let stty = dir.join("stty.txt");
    let s = game(
        dir,
        &name,
        &format!("2>{}; stty -a >{}; sleep 60", err.display(), stty.display()),
    );
    one_move(&s);
    // Let the autosave's quiet period pass so there is one to point at.
    std::thread::sleep(Duration::from_millis(1500));
    s.keys(&["C-p"]);
    let deadline = Instant::now() + Duration::from_secs(10);
    while !stty.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(200));
    let message = std::fs::read_to_string(&err).unwrap();
    assert!(message.contains("debug_panic"), "{message}");
    let autosave = dir.join("data/autosave.json");
    assert!(
        message.contains(&autosave.display().to_string()),
        "{message}"
    );
    assert!(autosave.exists());
    let modes = std::fs::read_to_string(&stty).unwrap();
    let flags: Vec<&str> = modes.split_whitespace().collect();
    assert!(
        flags.contains(&"icanon") && flags.contains(&"echo") && flags.contains(&"isig"),
        "raw mode still on: {modes}"
    );
    assert_eq!(s.show("#{alternate_on}"), "0", "alternate screen left");
    assert_eq!(s.show("#{cursor_flag}"), "1", "cursor shown");
    drop(s);
}

/// A hard kill (SIGKILL: nothing runs on the way out) while the player
/// types a move every 0.3 s for 10 s loses at most about the last second
/// of moves: the autosave has a maximum delay, not only a quiet period
/// (which a steady typist never gives it).
#[test]
fn a_hard_kill_loses_at_most_the_last_second_of_moves() {
    if common::tmux::missing() {
        return;
    }
    let tmp = fresh_dir("kill");
    let dir = tmp.path();
    let name = format!("dekadoku-kill-{}", std::process::id());
    let s = game(dir, &name, "");
    one_move(&s);
    let (typed, early, last) = type_moves_for_ten_seconds(&s);
    let pid = s.show("#{pane_pid}");
    let ok = Command::new("kill")
        .args(["-KILL", &pid])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -KILL {pid}");
    s.wait_gone();
    drop(s);

    let s = game(dir, &name, "");
    let resumed = continue_game(&s, "moves");
    let saved = moves_shown(&resumed).unwrap();
    println!(
        "typed {} moves, the game showed {last}, the autosave held {saved}",
        typed + 1
    );
    assert!(
        saved >= early && saved <= last,
        "the autosave holds {saved} moves; {early} were made 2 s before the kill, {last} at it"
    );
    s.keys(&["q"]);
    drop(s);
}

/// Two games on one data folder (two SSH logins, two terminals): the
/// second says so and keeps its game in a slot of its own, so neither
/// overwrites the other's autosave, and the statistics count both games
/// (each reads what the other wrote, under a lock).
#[test]
fn two_games_on_one_data_folder_keep_their_own_autosaves_and_counts() {
    if common::tmux::missing() {
        return;
    }
    let tmp = fresh_dir("two");
    let dir = tmp.path();
    let first = game(dir, &format!("dekadoku-two-a-{}", std::process::id()), "");
    let played_first = one_move(&first);
    let second = game(dir, &format!("dekadoku-two-b-{}", std::process::id()), "");
    second.wait_for("the second game's note", |t| {
        t.contains("another dekadoku is playing")
    });
    let played_second = one_move(&second);
    first.keys(&["q"]);
    first.wait_gone();
    second.keys(&["q"]);
    second.wait_gone();
    drop((first, second));
    let data = dir.join("data");
    assert!(data.join("autosave.json").exists());
    assert!(data.join("autosave-2.json").exists());
    let (stats, warning) = dekadoku::store::Stats::load(&data.join("stats.json"));
    assert!(warning.is_none());
    let started: u64 = stats
        .records
        .iter()
        .filter(|(k, _)| k.starts_with("9x9/"))
        .map(|(_, r)| r.started)
        .sum();
    assert_eq!(started, 2, "{:?}", stats.records);

    // Each Continue finds its own game again: the first slot is free now,
    // so a new game takes it and shows the first game's board.
    let again = game(dir, &format!("dekadoku-two-c-{}", std::process::id()), "");
    let resumed = continue_game(&again, "moves    1");
    assert_eq!(board(&resumed), board(&played_first));
    assert_ne!(board(&played_first), board(&played_second), "two games");
    again.keys(&["q"]);
    drop(again);
}

/// At 80×24 the key help does not fit: `?` shows its first page, PgDn
/// reaches its last line (quit), Esc closes it and `q` quits.
#[test]
fn the_help_scrolls_to_its_quit_line_at_80x24() {
    if common::tmux::missing() {
        return;
    }
    let tmp = fresh_dir("help");
    let name = format!("dekadoku-e2e-help-{}", std::process::id());
    let s = game(tmp.path(), &name, "");
    s.resize_to(80, 24);
    s.new_9x9();
    s.keys(&["?"]);
    let first = s.wait_settled("the help", |t| {
        t.contains(" Keys ") && t.contains("↓ lines")
    });
    assert!(!first.contains("Ctrl+c q  quit"), "{first}");
    for _ in 0..3 {
        s.keys(&["PgDn"]);
    }
    let end = s.wait_settled("the help's end", |t| t.contains("Ctrl+c q  quit"));
    assert!(end.contains("↑ lines"), "{end}");
    assert!(end.contains("close / back"), "{end}");
    s.keys(&["Escape"]);
    s.wait_settled("the board again", |t| {
        !t.contains(" Keys ") && t.contains("filled")
    });
    s.keys(&["q"]);
    s.wait_gone();
}

/// A 16×16 at 100×32 after "fill all candidates" (F5, as `f` would): the
/// board is too small for notes, so the magnifier beside it
/// shows the cursor's box with every cell's notes in their places. Read
/// off the real terminal, every empty cell of the box shows exactly its
/// candidates, each at its value's place (value d at column d mod 4, line
/// d div 4 of the cell), for the box the cursor starts in and for three
/// more it is moved to; the column numbers above name the box's columns.
#[test]
fn notes_of_a_16x16_at_100x32_read_cell_by_cell_in_the_magnifier() {
    use dekadoku::engine::generate::bundled::bundled;
    use dekadoku::engine::{Level, Limits, NoTrace, Outcome, Shape, solve};
    use dekadoku::game::{Game, Origin};
    use dekadoku::tui::layout::{ZoomGrid, ZoomSlot, play_layout};
    use ratatui::layout::Rect;

    if common::tmux::missing() {
        return;
    }
    let tmp = fresh_dir("zoom");
    let dir = tmp.path();
    let shape = Shape::square(4).unwrap();
    let puzzle = bundled(shape, Level::Medium).remove(0);
    let Outcome::Solved(solution) = solve(&puzzle, &Limits::none(), &mut NoTrace) else {
        panic!("the bundled puzzle has one solution")
    };
    let game = Game::new(&puzzle, Some(solution), Origin::default());
    let candidates = game.candidates();
    let file = dir.join("sixteen.txt");
    let line: String = (0..shape.cells())
        .map(|c| game.value(c).map_or_else(|| ".".into(), |v| game.symbol(v)))
        .collect();
    std::fs::write(&file, format!("{line}\n")).unwrap();

    let (w, h) = (100, 32);
    let name = format!("dekadoku-zoom-{}", std::process::id());
    let bin = env!("CARGO_BIN_EXE_dekadoku");
    let cmd = format!(
        "env TERM=xterm-256color DEKADOKU_CONFIG_DIR={c} DEKADOKU_DATA_DIR={d} {bin}",
        c = dir.join("config").display(),
        d = dir.join("data").display(),
    );
    let s = Tmux::start_sized(&name, &cmd, (w, h));
    s.wait_for("the start menu", |t| t.contains("New game"));
    s.keys(&["Down", "Down", "Enter"]);
    s.wait_for("the import screen", |t| t.contains("Import a puzzle"));
    s.keys(&[&file.display().to_string()]);
    s.keys(&["Enter"]);
    s.wait_settled("the board", |t| t.contains("filled") && t.contains('┏'));
    s.keys(&["F5"]);
    s.wait_settled("the notes", |t| t.contains("notes "));

    let Some(ZoomSlot::Beside(strip)) = play_layout(Rect::new(0, 0, w, h), shape).zoom else {
        panic!("the magnifier goes beside the board at {w}×{h}")
    };
    let mut cursor = (0..shape.cells())
        .find(|&c| game.value(c).is_none())
        .unwrap();
    for visit in 0..4 {
        if visit > 0 {
            // Down a box and right a box and a cell.
            for _ in 0..4 {
                s.keys(&["Down"]);
            }
            for _ in 0..5 {
                s.keys(&["Right"]);
            }
            let (r, c) = (shape.row_of(cursor), shape.col_of(cursor));
            cursor = shape.cell_at((r + 4).min(15), (c + 5).min(15));
        }
        let want = format!("cell     {}", game.cell_name(cursor));
        let screen = s.wait_settled("the cursor", |t| t.contains(&want));
        let lines: Vec<Vec<char>> = screen.lines().map(|l| l.chars().collect()).collect();
        let at = |x: u16, y: u16| -> char {
            lines
                .get(usize::from(y))
                .and_then(|l| l.get(usize::from(x)))
                .copied()
                .unwrap_or(' ')
        };
        let zoom = ZoomGrid::cursor_box(shape, cursor, strip).unwrap();
        assert_eq!(
            (zoom.rows().len(), zoom.cols().len()),
            (4, 4),
            "the whole box"
        );
        // The column numbers over the cells name the box's columns.
        for (j, &col) in zoom.cols().iter().enumerate() {
            let r = zoom.cell_rect(0, j);
            let label: String = (r.x..r.right()).map(|x| at(x, r.y - 2)).collect();
            assert_eq!(
                label.trim(),
                (col + 1).to_string(),
                "column label\n{screen}"
            );
        }
        let mut empty = 0;
        for (i, &row) in zoom.rows().iter().enumerate() {
            for (j, &col) in zoom.cols().iter().enumerate() {
                let c = shape.cell_at(row, col);
                let r = zoom.cell_rect(i, j);
                let text: Vec<String> = (r.y..r.bottom())
                    .map(|y| (r.x..r.right()).map(|x| at(x, y)).collect())
                    .collect();
                let mut expect = vec![vec![' '; usize::from(r.width)]; usize::from(r.height)];
                match game.value(c) {
                    Some(v) => {
                        // A given, centred on the middle line.
                        let sym = game.symbol(v);
                        expect[2][(usize::from(r.width) + 1 - sym.len()) / 2] =
                            sym.chars().next().unwrap();
                    }
                    None => {
                        empty += 1;
                        for v in candidates[c].iter() {
                            let (dx, dy) = zoom.note_offset(v.index());
                            expect[usize::from(dy)][usize::from(dx)] =
                                game.symbol(v).chars().next().unwrap();
                        }
                        assert!(!candidates[c].is_empty());
                    }
                }
                let expect: Vec<String> = expect.into_iter().map(String::from_iter).collect();
                assert_eq!(
                    text,
                    expect,
                    "{} in the magnifier\n{screen}",
                    game.cell_name(c)
                );
            }
        }
        assert!(empty > 0, "the box has empty cells to read");
    }
    s.keys(&["q"]);
}

/// The hint key pressed twice at once (one `send-keys` with both) on a new
/// 9×9: the hint shows, whichever press the answer meets, and the status
/// line never stays on "looking for a hint…" (it once did, until the next
/// key, because the second request dropped the first one's answer).
#[test]
fn a_double_hint_press_shows_the_hint() {
    if common::tmux::missing() {
        return;
    }
    let tmp = fresh_dir("hint2");
    let name = format!("dekadoku-e2e-hint2-{}", std::process::id());
    let s = game(tmp.path(), &name, "");
    for round in 0..3 {
        if round == 0 {
            s.new_9x9();
        }
        s.keys_at_once(&["i", "i"]);
        // Stage 1 when the second press came first (it waits for the
        // answer), stage 2 when the answer came between the presses. The
        // status wraps by words onto more rows, so the screen's words are
        // read as one line: stage 2's long explanation can break its
        // "(press again to apply)" across two.
        let shown = s.wait_settled("the hint", |t| {
            let t = words(t);
            (t.contains("Hint: ") || t.contains("press again to apply"))
                && !t.contains("looking for a hint")
        });
        assert!(!words(&shown).contains("looking for a hint"), "{shown}");
        s.keys(&["Escape"]);
        s.wait_settled("the hint closed", |t| {
            let t = words(t);
            !t.contains("Hint: ") && !t.contains("press again to apply")
        });
    }
    s.keys(&["q"]);
    s.wait_gone();
}
