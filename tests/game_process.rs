//! The game binary as a plain process, without a terminal: what a service,
//! `setsid dekadoku </dev/null` or a pipe gives it.
#![cfg(feature = "tui")]
#![allow(clippy::unwrap_used)]

use std::process::{Command, Stdio};

/// Without a terminal the game says it needs one and exits 2 (an error,
/// as the batch commands' errors do), instead of panicking (101).
#[test]
fn without_a_terminal_the_game_exits_2_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_dekadoku"))
        .env("DEKADOKU_CONFIG_DIR", dir.path().join("config"))
        .env("DEKADOKU_DATA_DIR", dir.path().join("data"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("needs a terminal"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.stdout.is_empty(), "nothing drawn to a pipe");
}
