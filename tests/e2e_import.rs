//! End to end in a real pseudo-terminal (tmux, as `e2e_tmux.rs`): reading
//! files never freezes the game. Importing a FIFO, a device or a folder is
//! refused with a message and the game still answers keys, quits with
//! status 0 and leaves the terminal sane; a named save loads.
//! Skips (with a note) where tmux is missing; fails there under CI.
#![cfg(feature = "tui")]
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::tmux::{Tmux, fresh_dir};

/// The game in `dir` (its own config and data folders) in tmux session
/// `name`; when it ends, its exit status goes to `dir/status` and the
/// terminal's modes to `dir/stty` (the session then stays a while so they
/// can be read).
fn game(dir: &Path, name: &str) -> Tmux {
    common::tmux::game(
        dir,
        name,
        &format!(
            "; echo $? >{s}.tmp; stty -a >{t}; mv {s}.tmp {s}; sleep 60",
            s = dir.join("status").display(),
            t = dir.join("stty").display(),
        ),
    )
}

/// Waits (up to 10 s) for the game's exit status; it and the terminal's
/// modes after it.
fn ended(dir: &Path) -> (String, String) {
    let status = dir.join("status");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !status.exists() {
        assert!(Instant::now() < deadline, "the game did not end");
        std::thread::sleep(Duration::from_millis(50));
    }
    (
        std::fs::read_to_string(status).unwrap().trim().to_string(),
        std::fs::read_to_string(dir.join("stty")).unwrap(),
    )
}

/// From the start menu (New game focused, no game to continue) to the
/// import field.
fn to_import(s: &Tmux) {
    s.wait_for("the start menu", |t| t.contains("New game"));
    s.keys(&["Down", "Down", "Enter"]);
    s.wait_for("the import screen", |t| t.contains("Import a puzzle"));
}

/// A FIFO with no writer (reading it would wait for ever), a device that
/// never ends and a folder: each import is refused with a message, the
/// game goes on answering keys, and `q` quits with status 0 and the
/// terminal as it was.
#[test]
fn importing_a_fifo_a_device_or_a_folder_is_refused_and_the_game_answers() {
    if common::tmux::missing() {
        return;
    }
    let tmp = fresh_dir("fifo");
    let dir = tmp.path();
    let fifo = dir.join("puzzle.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    assert!(made, "mkfifo {}", fifo.display());
    let name = format!("dekadoku-fifo-{}", std::process::id());
    let s = game(dir, &name);
    to_import(&s);
    let folder = dir.join("data");
    for path in [fifo.as_path(), Path::new("/dev/zero"), folder.as_path()] {
        let shown = path.display().to_string();
        s.keys(&[&shown, "Enter"]);
        s.wait_for(&format!("{shown} refused"), |t| {
            t.contains("not a regular file") && t.contains("Import a puzzle")
        });
        // Still answering: the field takes keys and gives them back.
        s.keys(&["C-u"]);
        s.keys(&["x", "y", "z"]);
        s.wait_for("the typed keys", |t| t.contains("xyz"));
        s.keys(&["BSpace", "BSpace", "BSpace"]);
        s.wait_for("the field emptied", |t| !t.contains("xyz"));
    }
    s.keys(&["Escape"]);
    s.wait_for("the start menu again", |t| t.contains("New game"));
    s.keys(&["q"]);
    let (status, modes) = ended(dir);
    assert_eq!(status, "0", "exit status");
    let flags: Vec<&str> = modes.split_whitespace().collect();
    assert!(
        flags.contains(&"icanon") && flags.contains(&"echo") && flags.contains(&"isig"),
        "raw mode still on: {modes}"
    );
    assert_eq!(s.show("#{alternate_on}"), "0", "alternate screen left");
    drop(s);
}

/// A game saved under a name loads again (read on a thread of its own)
/// in a new session: the same board and moves.
#[test]
fn a_named_save_loads_end_to_end() {
    if common::tmux::missing() {
        return;
    }
    let tmp = fresh_dir("load");
    let dir = tmp.path();
    let name = format!("dekadoku-load-{}", std::process::id());
    let s = game(dir, &name);
    s.new_9x9();
    s.keys(&["5"]);
    s.wait_for("the move", |t| t.contains("moves    1"));
    s.keys(&["7"]);
    let played = s.wait_settled("the second move", |t| t.contains("moves    2"));
    s.keys(&["s"]);
    s.wait_for("the save dialog", |t| t.contains("Name of the save"));
    s.keys(&["m", "i", "n", "e", "Enter"]);
    s.wait_for("the save", |t| t.contains("saved as"));
    s.keys(&["q"]);
    assert_eq!(ended(dir).0, "0");
    drop(s);
    // The autosave goes, so only the named save holds the game.
    std::fs::remove_file(dir.join("data/autosave.json")).unwrap();
    std::fs::remove_file(dir.join("status")).unwrap();

    let s = game(dir, &name);
    s.wait_for("the start menu", |t| t.contains("New game"));
    s.keys(&["Down", "Enter"]);
    s.wait_for("the saves", |t| t.contains("mine"));
    s.keys(&["Enter"]);
    let loaded = s.wait_settled("the loaded board", |t| t.contains("moves    2"));
    assert_eq!(
        common::tmux::board(&loaded),
        common::tmux::board(&played),
        "the same board"
    );
    s.keys(&["q"]);
    assert_eq!(ended(dir).0, "0");
    drop(s);
}
