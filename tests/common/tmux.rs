//! A tmux session for the end-to-end tests: keys in with `send-keys`, the
//! screen out with `capture-pane`, killed when dropped.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Whether tmux can be run.
pub fn available() -> bool {
    Command::new("tmux").arg("-V").output().is_ok()
}

/// True when tmux is missing and the test must stop: it has then said
/// so, or failed under CI (`super::skip_or_fail`).
#[track_caller]
pub fn missing() -> bool {
    if available() {
        return false;
    }
    super::skip_or_fail("tmux is not installed (.ci/run installs it)");
    true
}

/// A detached tmux session (100×30 unless sized) running one command.
pub struct Tmux {
    /// The session's name.
    pub name: String,
}

impl Tmux {
    /// Starts `cmd` (a shell command line) in a new 100×30 session `name`.
    pub fn start(name: &str, cmd: &str) -> Tmux {
        Tmux::start_sized(name, cmd, (100, 30))
    }

    /// Starts `cmd` in a new session `name` of `w`×`h` characters.
    pub fn start_sized(name: &str, cmd: &str, (w, h): (u16, u16)) -> Tmux {
        let ok = Command::new("tmux")
            .args([
                "new-session",
                "-d",
                "-s",
                name,
                "-x",
                &w.to_string(),
                "-y",
                &h.to_string(),
                cmd,
            ])
            .status()
            .unwrap()
            .success();
        assert!(ok, "tmux new-session failed");
        Tmux {
            name: name.to_string(),
        }
    }

    /// Resizes the session's window to `w`×`h` (the game redraws).
    pub fn resize_to(&self, w: u16, h: u16) {
        let ok = Command::new("tmux")
            .args([
                "resize-window",
                "-t",
                &self.name,
                "-x",
                &w.to_string(),
                "-y",
                &h.to_string(),
            ])
            .status()
            .unwrap()
            .success();
        assert!(ok, "tmux resize-window failed");
    }

    /// From the start menu (New game focused) through the new-game dialog
    /// (9×9 by default) to the board of a new game; the screen then.
    pub fn new_9x9(&self) -> String {
        self.wait_for("the start menu", |t| t.contains("New game"));
        self.keys(&["Enter"]);
        self.wait_for("the new-game dialog", |t| t.contains("9×9"));
        self.keys(&["Enter"]);
        self.wait_for("the board", |t| t.contains("filled") && t.contains('┏'))
    }

    /// Sends keys, one `send-keys` each (tmux key names: `Enter`, `C-p`…).
    pub fn keys(&self, keys: &[&str]) {
        for k in keys {
            self.keys_at_once(&[k]);
        }
    }

    /// Sends keys in one `send-keys`, so they arrive together, as when a
    /// player presses them quickly.
    pub fn keys_at_once(&self, keys: &[&str]) {
        let ok = Command::new("tmux")
            .args(["send-keys", "-t", &self.name])
            .args(keys)
            .status()
            .unwrap()
            .success();
        assert!(ok, "send-keys {keys:?}");
    }

    /// The screen as text.
    pub fn screen(&self) -> String {
        let out = Command::new("tmux")
            .args(["capture-pane", "-p", "-t", &self.name])
            .stderr(Stdio::null())
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Polls the screen until `pred` holds (the program answers at its own
    /// pace; the deadline only guards against a hang).
    pub fn wait_for(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
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

    /// As `wait_for`, then until the board part of the screen stays the
    /// same over two captures 100 ms apart: over SSH a frame arrives in
    /// pieces, and a capture can fall between them.
    pub fn wait_settled(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut last = self.wait_for(what, &pred);
        loop {
            std::thread::sleep(Duration::from_millis(100));
            let s = self.screen();
            if pred(&s) && board(&s) == board(&last) {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "waiting for {what} to settle; screen:\n{s}"
            );
            last = s;
        }
    }

    /// A tmux format value of the pane (`#{pane_pid}`, `#{alternate_on}`).
    pub fn show(&self, format: &str) -> String {
        let out = Command::new("tmux")
            .args(["display-message", "-p", "-t", &self.name, format])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// Whether the session (its command) is still running.
    pub fn alive(&self) -> bool {
        Command::new("tmux")
            .args(["has-session", "-t", &self.name])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    /// Waits (up to 10 s) for the command to end.
    pub fn wait_gone(&self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.alive() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(!self.alive(), "the program did not end");
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.name])
            .stderr(Stdio::null())
            .status();
    }
}

/// The board part of a screen: the rows between the title and the status
/// line, without the side panel (whose clock moves).
pub fn board(screen: &str) -> Vec<String> {
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

/// The screen's words, one space between each: its rows read as one
/// line, for text the status line may wrap at any word.
pub fn words(screen: &str) -> String {
    screen.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A fresh folder for one game's config and data, removed when dropped
/// (its name is letters, digits and dashes, safe in the shell commands).
pub fn fresh_dir(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("dekadoku-e2e-{tag}-"))
        .tempdir()
        .unwrap()
}

/// The command line of the game in `dir` (its own config and data
/// folders), for a shell.
pub fn game_command(dir: &std::path::Path) -> String {
    let bin = env!("CARGO_BIN_EXE_dekadoku");
    format!(
        "env TERM=xterm-256color DEKADOKU_CONFIG_DIR={c} DEKADOKU_DATA_DIR={d} {bin}",
        c = dir.join("config").display(),
        d = dir.join("data").display(),
    )
}

/// The game in `dir` (its own config and data folders) in tmux session
/// `name`, its command line followed by `after` (a shell tail such as
/// `2>err; stty -a >stty; sleep 30`).
pub fn game(dir: &std::path::Path, name: &str, after: &str) -> Tmux {
    let game = game_command(dir);
    if after.is_empty() {
        Tmux::start(name, &game)
    } else {
        Tmux::start(name, &format!("sh -c '{game} {after}'"))
    }
}

/// The processes whose environment sets `DEKADOKU_DATA_DIR` to `data`
/// (pid and command line): the game is started by `env`, which execs it,
/// so its command line does not name the directory; its environment does.
pub fn games_with(data: &str) -> Vec<String> {
    let want = format!("DEKADOKU_DATA_DIR={data}");
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for p in procs.flatten() {
        let Ok(env) = std::fs::read(p.path().join("environ")) else {
            continue;
        };
        if env.split(|&b| b == 0).any(|v| v == want.as_bytes()) {
            let cmd = std::fs::read(p.path().join("cmdline")).unwrap_or_default();
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            found.push(format!(
                "{} {}",
                p.file_name().to_string_lossy(),
                cmd.trim()
            ));
        }
    }
    found
}

/// From the start menu, Continue (which has the focus when there is a 9×9
/// autosave): the resumed board once it shows `shows`.
pub fn continue_game(t: &Tmux, shows: &str) -> String {
    t.wait_for("the start menu", |s| s.contains("Continue (9×9"));
    t.keys(&["Enter"]);
    t.wait_settled("the resumed board", |s| {
        s.contains(shows) && !s.contains("Continue (9×9")
    })
}

/// The move count the side panel shows (`moves    N`).
pub fn moves_shown(screen: &str) -> Option<u32> {
    let at = screen.find("moves")?;
    screen[at + "moves".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Types a move every 0.3 s for 10 s, 6 and 5 in turn into the cell
/// under the cursor (one that holds a 5 or nothing), so that every key is
/// a move: the keys typed, and the moves the side panel showed 2 s before
/// the end and at it. For the kill tests: whatever kills the game right
/// after may lose only what came after the first figure.
pub fn type_moves_for_ten_seconds(t: &Tmux) -> (u32, u32, u32) {
    let start = std::time::Instant::now();
    let mut typed = 0u32;
    let mut early = None;
    while start.elapsed() < std::time::Duration::from_secs(10) {
        t.keys(&[if typed.is_multiple_of(2) { "6" } else { "5" }]);
        typed += 1;
        std::thread::sleep(std::time::Duration::from_millis(300));
        if early.is_none() && start.elapsed() >= std::time::Duration::from_secs(8) {
            early = moves_shown(&t.screen());
        }
    }
    let last = moves_shown(&t.screen()).unwrap();
    (typed, early.unwrap(), last)
}
