//! `dekadoku serve` under load, with real OpenSSH clients: 50 players,
//! each with a key of their own, connect at once, import a puzzle, play a
//! move and quit, while one more client never reads its output and keeps
//! sending keys. Every player's move lands in their own autosave row; the
//! stalled client blocks nobody. The server's memory is printed (the
//! resident size before, at the peak, and per connection), not asserted
//! against a clock. `.ci/run` installs openssh-client; without ssh the
//! test says so and passes, or fails under CI.
#![cfg(all(feature = "serve", target_os = "linux"))]
#![allow(clippy::unwrap_used)]

mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};

use common::serve::{PUZZLE, Server, have_ssh, keygen};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use dekadoku::serve::store::{PlayerKey, PlayerStore, Sqlite, StoreLimits};

const PLAYERS: usize = 50;

/// The server's resident memory and its peak, in KiB.
fn memory(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// An ssh client with a pty, its input ours and its output read (or not)
/// by a thread of ours.
struct Client {
    child: Child,
    stdin: ChildStdin,
    seen: Arc<Mutex<String>>,
    /// The output of a client that does not read it.
    unread: Option<std::process::ChildStdout>,
}

impl Client {
    fn connect(dir: &Path, key: &str, port: u16, read: bool) -> Client {
        let mut child = Command::new("ssh")
            .args(["-tt", "-p", &port.to_string(), "-i"])
            .arg(dir.join(key))
            .args([
                "-o",
                "IdentitiesOnly=yes",
                "-o",
                "StrictHostKeyChecking=no",
                "-o",
                "UserKnownHostsFile=/dev/null",
                "-o",
                "LogLevel=ERROR",
                "-o",
                "BatchMode=yes",
                "player@127.0.0.1",
            ])
            .env("TERM", "xterm-256color")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let seen = Arc::new(Mutex::new(String::new()));
        let mut stdout = child.stdout.take().unwrap();
        let mut unread = None;
        if read {
            let seen = Arc::clone(&seen);
            std::thread::spawn(move || {
                let mut buf = [0u8; 8192];
                while let Ok(n) = stdout.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    let mut s = seen.lock().unwrap();
                    s.push_str(&String::from_utf8_lossy(&buf[..n]));
                    // Only the recent output is searched.
                    if s.len() > 1 << 16 {
                        let cut = s.len() - (1 << 15);
                        let cut = (cut..s.len()).find(|&i| s.is_char_boundary(i)).unwrap();
                        s.drain(..cut);
                    }
                }
            });
        } else {
            // Never read: kept open, so the client blocks on a full pipe.
            unread = Some(stdout);
        }
        Client {
            child,
            stdin,
            seen,
            unread,
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        let _ = self.stdin.write_all(bytes);
        let _ = self.stdin.flush();
    }

    /// Waits until the output so far shows `text`, then forgets it.
    fn wait_for(&self, text: &str) {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            {
                let mut s = self.seen.lock().unwrap();
                if let Some(at) = s.find(text) {
                    s.drain(..at + text.len());
                    return;
                }
            }
            assert!(
                Instant::now() < deadline,
                "no {text:?} on the client's screen"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Polls the player's autosave until it holds a move.
fn wait_for_autosave(db: &Path, fingerprint: &str) {
    let store = Sqlite::open(db, StoreLimits::default()).unwrap();
    let key = PlayerKey {
        fingerprint: fingerprint.to_string(),
        algorithm: "ssh-ed25519".into(),
    };
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let id = store.player(&key, 0).unwrap().id;
        // The imported puzzle has 32 givens (the new game may be saved
        // before the move): the move makes 33.
        if let Some(row) = store.autosave(id).unwrap() {
            assert!(row.meta.filled <= 33, "{fingerprint}: {:?}", row.meta);
            if row.meta.filled == 33 {
                return;
            }
        }
        assert!(
            Instant::now() < deadline,
            "{fingerprint}: no autosave of the move"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn fifty_players_at_once_each_keep_their_move_and_a_stalled_client_blocks_nobody() {
    if !have_ssh() {
        common::skip_or_fail("needs ssh and ssh-keygen (.ci/run installs them)");
        return;
    }
    let tmp = tempfile::Builder::new()
        .prefix("dekadoku-load-")
        .tempdir()
        .unwrap();
    let dir = tmp.path().to_path_buf();
    let keys: Vec<(String, String)> = (0..=PLAYERS)
        .map(|i| {
            let name = format!("key{i}");
            let fp = keygen(&dir.join(&name));
            (name, fp)
        })
        .collect();
    let server = Server::start(
        &dir,
        &["--max-per-address", "1000", "--connects-per-minute", "1000"],
    );
    let pid = server.child.id();
    let port = server.port;
    let db: PathBuf = dir.join("data/serve/players.sqlite3");
    let (idle_rss, _) = memory(pid);

    // The stalled client: connected, never reading, asking for whole
    // screens (the help, on and off: 2 KiB each, 4 MiB in all) far beyond
    // what its pipe and its SSH window (2 MiB) hold, so the server's
    // queue for it fills.
    let (stall_key, _) = &keys[PLAYERS];
    let mut stalled = Client::connect(&dir, stall_key, port, false);
    let nudges = std::thread::spawn(move || {
        for _ in 0..2000 {
            stalled.send(b"?");
            std::thread::sleep(Duration::from_millis(2));
        }
        stalled
    });

    let peak = Arc::new(Mutex::new(0u64));
    let players: Vec<_> = keys[..PLAYERS]
        .iter()
        .cloned()
        .map(|(name, fp)| {
            let dir = dir.clone();
            let db = db.clone();
            let peak = Arc::clone(&peak);
            std::thread::spawn(move || {
                let mut c = Client::connect(&dir, &name, port, true);
                c.wait_for("Import");
                // Down to Import (New game has the focus), Enter.
                c.send(b"\x1b[B\x1b[B\r");
                c.wait_for("Paste a puzzle");
                c.send(format!("\x1b[200~{PUZZLE}\x1b[201~").as_bytes());
                c.wait_for("filled");
                c.send(b"4");
                wait_for_autosave(&db, &fp);
                let (rss, _) = memory(pid);
                let mut p = peak.lock().unwrap();
                *p = (*p).max(rss);
                drop(p);
                c.send(b"q");
                let deadline = Instant::now() + Duration::from_secs(60);
                while c.child.try_wait().unwrap().is_none() {
                    assert!(Instant::now() < deadline, "{name}: ssh did not end after q");
                    std::thread::sleep(Duration::from_millis(50));
                }
            })
        })
        .collect();
    for p in players {
        p.join().unwrap();
    }
    // Every player has their own move; the stalled client is still
    // connected and blocked nobody.
    let store = Sqlite::open(&db, StoreLimits::default()).unwrap();
    for (_, fp) in &keys[..PLAYERS] {
        let key = PlayerKey {
            fingerprint: fp.clone(),
            algorithm: "ssh-ed25519".into(),
        };
        let id = store.player(&key, 0).unwrap().id;
        assert!(store.autosave(id).unwrap().is_some(), "{fp}");
    }
    let mut stalled = nudges.join().unwrap();
    assert!(
        stalled.child.try_wait().unwrap().is_none(),
        "the stalled client is still connected"
    );
    // It did stall: its output pipe is full, unread (one read takes what
    // the pipe holds).
    let mut out = stalled.unread.take().unwrap();
    let pending = std::thread::spawn(move || {
        let mut buf = vec![0u8; 1 << 16];
        out.read(&mut buf).unwrap_or(0)
    })
    .join()
    .unwrap();
    // (A pipe holds 16 writes of a page or less each: about 36 KiB of
    // these 2 KiB frames is full.)
    assert!(
        pending >= 16 * 1024,
        "the stalled client's pipe held {pending} bytes"
    );
    let (after, hwm) = memory(pid);
    let peak = *peak.lock().unwrap();
    eprintln!(
        "serve load: {PLAYERS} players + 1 stalled client; server resident memory: \
         {idle_rss} KiB idle, {peak} KiB with the players connected (peak seen), \
         {hwm} KiB high-water mark, {after} KiB after; about {} KiB a connection; \
         the stalled client left {pending} bytes unread",
        peak.saturating_sub(idle_rss) / PLAYERS as u64
    );
    let _ = stalled.child.kill();
    let _ = stalled.child.wait();
}
