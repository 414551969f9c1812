//! End to end in a real pseudo-terminal: the `dekadoku` binary runs inside
//! tmux (installed by `.ci/run`); keys go in with `send-keys`, the screen
//! comes back with `capture-pane`. Start, new 9×9 game, enter a digit, undo,
//! enter it again, save, quit, restart, Continue: the same board.
//! Skips (with a note) where tmux is missing.
#![cfg(feature = "tui")]
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

struct Session {
    name: String,
    dir: PathBuf,
}

impl Session {
    fn start(dir: &Path, name: &str) -> Session {
        Session::start_with(dir, name, "")
    }

    /// The game in `dir`, its command line followed by `after` (a shell
    /// tail such as `2>err; stty -a >stty; sleep 30`).
    fn start_with(dir: &Path, name: &str, after: &str) -> Session {
        let bin = env!("CARGO_BIN_EXE_dekadoku");
        let game = format!(
            "env TERM=xterm-256color DEKADOKU_CONFIG_DIR={c} DEKADOKU_DATA_DIR={d} {bin}",
            c = dir.join("config").display(),
            d = dir.join("data").display(),
        );
        let cmd = if after.is_empty() {
            game
        } else {
            format!("sh -c '{game} {after}'")
        };
        let ok = Command::new("tmux")
            .args([
                "new-session",
                "-d",
                "-s",
                name,
                "-x",
                "100",
                "-y",
                "30",
                &cmd,
            ])
            .status()
            .unwrap()
            .success();
        assert!(ok, "tmux new-session failed");
        Session {
            name: name.to_string(),
            dir: dir.to_path_buf(),
        }
    }

    fn keys(&self, keys: &[&str]) {
        for k in keys {
            let ok = Command::new("tmux")
                .args(["send-keys", "-t", &self.name, k])
                .status()
                .unwrap()
                .success();
            assert!(ok, "send-keys {k}");
        }
    }

    fn screen(&self) -> String {
        let out = Command::new("tmux")
            .args(["capture-pane", "-p", "-t", &self.name])
            .stderr(std::process::Stdio::null())
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Polls the screen until `pred` holds (the program answers at its own
    /// pace; the deadline only guards against a hang).
    fn wait_for(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let s = self.screen();
            if pred(&s) {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "waiting for {what}; screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A tmux format value of the pane (`#{pane_pid}`, `#{alternate_on}`).
    fn show(&self, format: &str) -> String {
        let out = Command::new("tmux")
            .args(["display-message", "-p", "-t", &self.name, format])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    fn wait_gone(&self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.alive() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(!self.alive(), "the game did not end");
    }

    fn alive(&self) -> bool {
        Command::new("tmux")
            .args(["has-session", "-t", &self.name])
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.name])
            .stderr(std::process::Stdio::null())
            .status();
        let _ = &self.dir;
    }
}

/// The board part of a screen: the rows between the title and the status
/// line, without the side panel (whose clock moves).
fn board(screen: &str) -> Vec<String> {
    let lines: Vec<&str> = screen.lines().collect();
    lines
        .iter()
        .skip(1)
        .take(lines.len().saturating_sub(2))
        .map(|l| {
            l.chars()
                .take(100 - 25)
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect()
}

#[test]
fn play_save_quit_and_continue_in_a_real_terminal() {
    if Command::new("tmux").arg("-V").output().is_err() {
        println!("skipped: tmux is not installed (.ci/run installs it)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("dekadoku-e2e-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let name = format!("dekadoku-e2e-{}", std::process::id());

    let s = Session::start(&dir, &name);
    s.wait_for("the start menu", |t| {
        t.contains("New game") && t.contains("Continue")
    });
    // Start menu (New game selected) → size/level dialog (9×9 by default).
    s.keys(&["Enter"]);
    s.wait_for("the new-game dialog", |t| t.contains("9×9"));
    s.keys(&["Enter"]);
    let first = s.wait_for("the board", |t| t.contains("filled") && t.contains('┏'));
    // The cursor starts on the first empty cell: enter 5, undo, enter 7.
    s.keys(&["5"]);
    s.wait_for("the move", |t| t.contains("moves    1"));
    s.keys(&["u"]);
    s.wait_for("the undo", |t| t.contains("undid entry"));
    assert_eq!(board(&s.screen()), board(&first), "undo restores the board");
    s.keys(&["7"]);
    let played = s.wait_for("the second move", |t| t.contains("moves    2"));
    // Save under a name.
    s.keys(&["s"]);
    s.wait_for("the save dialog", |t| t.contains("Name of the save"));
    s.keys(&["e", "2", "e", "Enter"]);
    s.wait_for("the save", |t| t.contains("saved as"));
    assert!(dir.join("data/saves/e2e.json").exists());
    s.keys(&["q"]);
    let deadline = Instant::now() + Duration::from_secs(10);
    while s.alive() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!s.alive(), "the game did not quit");
    assert!(
        dir.join("data/autosave.json").exists(),
        "quit writes the autosave"
    );
    drop(s);

    let s = Session::start(&dir, &name);
    s.wait_for("the start menu", |t| t.contains("Continue (9×9"));
    s.keys(&["Up", "Enter"]);
    let resumed = s.wait_for("the resumed board", |t| t.contains("moves    2"));
    assert_eq!(
        board(&resumed),
        board(&played),
        "Continue shows the same board"
    );
    s.keys(&["q"]);
    drop(s);
    let _ = std::fs::remove_dir_all(&dir);
}

fn tmux_missing() -> bool {
    if Command::new("tmux").arg("-V").output().is_err() {
        println!("skipped: tmux is not installed (.ci/run installs it)");
        return true;
    }
    false
}

fn fresh_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dekadoku-e2e-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Starts a new 9×9 game and enters one digit; the screen after it.
fn one_move(s: &Session) -> String {
    s.wait_for("the start menu", |t| t.contains("New game"));
    s.keys(&["Enter"]);
    s.wait_for("the new-game dialog", |t| t.contains("9×9"));
    s.keys(&["Enter"]);
    s.wait_for("the board", |t| t.contains("filled") && t.contains('┏'));
    s.keys(&["5"]);
    s.wait_for("the move", |t| t.contains("moves    1"))
}

/// SIGTERM (a shutdown) and SIGHUP (the SSH connection or the terminal
/// went away) end the game cleanly with the game saved: Continue shows
/// the same board.
#[test]
fn sigterm_and_sighup_save_the_game_and_exit() {
    if tmux_missing() {
        return;
    }
    for signal in ["TERM", "HUP"] {
        let dir = fresh_dir(&format!("sig{signal}"));
        let name = format!("dekadoku-sig{signal}-{}", std::process::id());
        let s = Session::start(&dir, &name);
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
        let s = Session::start(&dir, &name);
        s.wait_for("the start menu", |t| t.contains("Continue (9×9"));
        s.keys(&["Up", "Enter"]);
        let resumed = s.wait_for("the resumed board", |t| t.contains("moves    1"));
        assert_eq!(board(&resumed), board(&played), "SIG{signal}: same board");
        s.keys(&["q"]);
        drop(s);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A panic (the hidden `debug_panic` action, bound in the config) leaves
/// the terminal as it found it: raw mode off, the alternate screen left,
/// the cursor shown; the message and the autosave's path are printed.
#[test]
fn a_panic_restores_the_terminal_and_says_where_the_autosave_is() {
    if tmux_missing() {
        return;
    }
    let dir = fresh_dir("panic");
    std::fs::create_dir_all(dir.join("config")).unwrap();
    std::fs::write(
        dir.join("config/config.toml"),
        "[keys.board]\n\"ctrl+p\" = \"debug_panic\"\n",
    )
    .unwrap();
    let name = format!("dekadoku-panic-{}", std::process::id());
    let err = dir.join("stderr.txt");
    let stty = dir.join("stty.txt");
    let s = Session::start_with(
        &dir,
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
    let _ = std::fs::remove_dir_all(&dir);
}
