//! `dekadoku serve` under load, with real OpenSSH clients: one client
//! stops reading its output and keeps sending keys, and then 50 players,
//! each with a key of their own, connect at once, import a puzzle, play a
//! move, stay until all 51 connections are held at once (counted from the
//! server's log), and quit. Every player's move lands in their own
//! autosave row; the stalled client blocks nobody. The server's memory is
//! printed (the resident size idle, with the stalled client, with every
//! player connected, and per connection), not asserted against a clock. `.ci/run` installs openssh-client; without ssh the
//! test says so and passes, or fails under CI.
#![cfg(all(feature = "serve", target_os = "linux"))]
#![allow(clippy::unwrap_used)]

mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};

use common::serve::{PUZZLE, Server, have_ssh, keygen};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
    // queue for it fills before the players come, and it goes on asking
    // while they play.
    let (stall_key, _) = &keys[PLAYERS];
    let mut stalled = Client::connect(&dir, stall_key, port, false);
    for _ in 0..2000 {
        stalled.send(b"?");
        std::thread::sleep(Duration::from_millis(2));
    }
    let (stalled_rss, _) = memory(pid);
    let playing = Arc::new(AtomicBool::new(true));
    let nudges = {
        let playing = Arc::clone(&playing);
        std::thread::spawn(move || {
            while playing.load(Ordering::Relaxed) {
                stalled.send(b"?");
                std::thread::sleep(Duration::from_millis(10));
            }
            stalled
        })
    };

    // Each player, once their move is saved, waits connected until every
    // player is: then the connections held at once are counted.
    let saved = Arc::new(AtomicUsize::new(0));
    let counted = Arc::new(AtomicBool::new(false));
    let players: Vec<_> = keys[..PLAYERS]
        .iter()
        .cloned()
        .map(|(name, fp)| {
            let dir = dir.clone();
            let db = db.clone();
            let (saved, counted) = (Arc::clone(&saved), Arc::clone(&counted));
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
                saved.fetch_add(1, Ordering::SeqCst);
                let deadline = Instant::now() + Duration::from_secs(300);
                while !counted.load(Ordering::SeqCst) {
                    assert!(Instant::now() < deadline, "{name}: never counted");
                    std::thread::sleep(Duration::from_millis(20));
                }
                c.send(b"q");
                let deadline = Instant::now() + Duration::from_secs(60);
                while c.child.try_wait().unwrap().is_none() {
                    assert!(Instant::now() < deadline, "{name}: ssh did not end after q");
                    std::thread::sleep(Duration::from_millis(50));
                }
            })
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(300);
    while saved.load(Ordering::SeqCst) < PLAYERS {
        // A player that failed has ended its thread: its panic is the
        // test's.
        if let Some(i) = players.iter().position(|p| p.is_finished()) {
            counted.store(true, Ordering::SeqCst);
            let failed = players.into_iter().nth(i).unwrap();
            failed.join().unwrap();
            panic!("a player ended before every move was saved");
        }
        assert!(
            Instant::now() < deadline,
            "the players' moves were not all saved"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // Every player and the stalled client are connected now: the log's
    // connections less its ends.
    let log = server.log();
    let held = log.lines().filter(|l| l.contains(" connect ")).count()
        - log.lines().filter(|l| l.contains(" end ")).count();
    let (all_rss, _) = memory(pid);
    counted.store(true, Ordering::SeqCst);
    assert_eq!(held, PLAYERS + 1, "connections held at once:\n{log}");
    for p in players {
        p.join().unwrap();
    }
    playing.store(false, Ordering::Relaxed);
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
    eprintln!(
        "serve load: {PLAYERS} players + 1 stalled client, {held} connections held at once; \
         server resident memory: {idle_rss} KiB idle, {stalled_rss} KiB with the stalled \
         client's queue full, {all_rss} KiB with every player connected, {hwm} KiB \
         high-water mark, {after} KiB after; about {} KiB a connection; the stalled client \
         left {pending} bytes unread",
        all_rss.saturating_sub(stalled_rss) / PLAYERS as u64
    );
    let _ = stalled.child.kill();
    let _ = stalled.child.wait();
}
