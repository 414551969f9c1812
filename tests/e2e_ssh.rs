//! The game over a real SSH connection: an `sshd` of our own on
//! 127.0.0.1 (a test host key, a test user key, its own config), the game
//! started through `ssh -tt` inside tmux, a move played, then the ssh
//! client killed as a dropped connection would be. The server sends the
//! game SIGHUP; the game saves and exits; a new connection's Continue
//! shows the same board. `.ci/run` installs openssh-server and tmux; where
//! either is missing the test says so and passes, or fails under CI.
#![cfg(all(feature = "tui", unix))]
#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::tmux::{Tmux, board, games_with};

const SSHD: &str = "/usr/sbin/sshd";

struct Sshd(Child);

impl Drop for Sshd {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_dropped_ssh_connection_saves_the_game_and_continue_resumes_it() {
    let have = |p: &str, arg: &str| Command::new(p).arg(arg).output().is_ok();
    if !Path::new(SSHD).exists() || !have("ssh", "-V") || !common::tmux::available() {
        common::skip_or_fail(&format!(
            "needs {SSHD}, ssh and tmux (.ci/run installs them)"
        ));
        return;
    }
    let pid = std::process::id();
    // Its name is letters, digits and dashes, safe in the shell commands.
    let tmp = tempfile::Builder::new()
        .prefix("dekadoku-ssh-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    // sshd refuses to start without its privilege separation folder.
    let _ = std::fs::create_dir_all("/run/sshd");
    common::ssh::keygen(&dir.join("host_key"));
    common::ssh::keygen(&dir.join("id"));
    std::fs::copy(dir.join("id.pub"), dir.join("authorized_keys")).unwrap();
    let port = 20_000 + pid % 20_000;
    let user = std::env::var("USER").unwrap_or_else(|_| "root".into());
    let config = format!(
        "Port {port}\nListenAddress 127.0.0.1\nHostKey {d}/host_key\n\
         AuthorizedKeysFile {d}/authorized_keys\nPidFile {d}/sshd.pid\n\
         StrictModes no\nUsePAM no\nPasswordAuthentication no\n\
         KbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\n\
         AllowUsers {user}\n",
        d = dir.display()
    );
    std::fs::write(dir.join("sshd_config"), config).unwrap();
    let child = Command::new(SSHD)
        .args(["-D", "-e", "-f"])
        .arg(dir.join("sshd_config"))
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(dir.join("sshd.log")).unwrap())
        .spawn();
    let child = match child {
        Ok(child) => child,
        Err(e) => {
            common::skip_or_fail(&format!("{SSHD} would not start: {e}"));
            return;
        }
    };
    let _sshd = Sshd(child);
    let bin = env!("CARGO_BIN_EXE_dekadoku");
    let game = format!(
        "env TERM=xterm-256color DEKADOKU_CONFIG_DIR={d}/config DEKADOKU_DATA_DIR={d}/data {bin}",
        d = dir.display()
    );
    // `exec`: the pane's process is the client itself, whatever shell
    // tmux starts it with, so killing it drops the connection.
    let ssh = |remote: &str| -> String {
        format!(
            "exec ssh -tt -p {port} -i {d}/id -o StrictHostKeyChecking=no \
             -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes \
             {user}@127.0.0.1 '{remote}'",
            d = dir.display()
        )
    };
    // Wait for sshd to listen: a no-op connection until one succeeds (a
    // bound for a hung sshd, generous for a loaded CI machine).
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let ok = Command::new("sh")
            .args(["-c", &ssh("true").replace("-tt", "-T")])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            break;
        }
        if Instant::now() > deadline {
            let log = std::fs::read_to_string(dir.join("sshd.log")).unwrap_or_default();
            common::skip_or_fail(&format!("could not connect to the test sshd:\n{log}"));
            return;
        }
        std::thread::sleep(Duration::from_millis(200));
    }

    let name = format!("dekadoku-ssh-{pid}");
    let t = Tmux::start(&name, &ssh(&game));
    t.wait_for("the start menu", |s| s.contains("New game"));
    t.keys(&["Enter"]);
    t.wait_for("the new-game dialog", |s| s.contains("9×9"));
    t.keys(&["Enter"]);
    t.wait_for("the board", |s| s.contains("filled") && s.contains('┏'));
    // The cursor starts on the first empty cell.
    t.keys(&["5"]);
    let played = t.wait_settled("the move", |s| s.contains("moves    1"));
    // The connection drops: the ssh client dies without a word.
    let client = t.show("#{pane_pid}");
    Command::new("kill")
        .args(["-KILL", &client])
        .status()
        .unwrap();
    drop(t);
    // The server hangs up on the game, which saves and exits. The bound
    // only catches a game that never exits; on a loaded 2-core machine
    // the hang-up and the save took up to 15 s, so it is generous.
    let autosave: PathBuf = dir.join("data/autosave.json");
    let data = format!("{}/data", dir.display());
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let running = !games_with(&data).is_empty();
        if !running && autosave.exists() {
            break;
        }
        if Instant::now() > deadline {
            // Say what was left: the game, the ssh client, or no save.
            let left = games_with(&data).join("\n");
            panic!(
                "the game outlived its connection (autosave written: {}); still running:\n{left}",
                autosave.exists()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    // Reconnect: Continue shows the same board.
    let t = Tmux::start(&name, &ssh(&game));
    t.wait_for("the start menu", |s| s.contains("Continue (9×9"));
    t.keys(&["Enter"]); // Continue has the focus
    // The menu's last frame can still cover part of the board when the
    // panel already shows the move: wait until it is gone and the frame
    // has fully arrived.
    let resumed = t.wait_settled("the resumed board", |s| {
        s.contains("moves    1") && !s.contains("Continue (9×9")
    });
    assert_eq!(
        board(&resumed),
        board(&played),
        "Continue shows the same board"
    );
    t.keys(&["q"]);
    drop(t);
}
