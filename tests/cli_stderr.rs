//! The batch command line when standard error cannot be written (a full
//! disk, `2>/dev/full`; a closed one, `2>&-`) ends with the exit code it
//! would have had, never a panic (101); and `--help` / `--version` whose
//! text cannot be written exit non-zero. Real processes on the built binary.
#![cfg(feature = "cli")]
#![allow(clippy::unwrap_used)]

mod common;

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_dekadoku");

/// `/dev/full` for writing, or `None` where there is none (it is Linux's;
/// a failure under CI).
fn dev_full() -> Option<File> {
    match File::options().write(true).open("/dev/full") {
        Ok(f) => Some(f),
        Err(e) => {
            common::skip_or_fail(&format!("/dev/full: {e}"));
            None
        }
    }
}

/// Runs `dekadoku args` with `input` on stdin and stderr going to
/// `stderr` (inherited output captured when `None`).
fn run(args: &[&str], input: &str, stderr: Option<File>) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(match stderr {
            Some(f) => Stdio::from(f),
            None => Stdio::piped(),
        });
    let mut child = cmd.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // A command that fails before reading stdin closes it: not an error.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().unwrap()
}

/// Each subcommand that reports to stderr (a bad puzzle, a missing file,
/// a puzzle without a unique solution) ends with the same exit code,
/// 1 or 2, when stderr is full as when it is not.
#[test]
fn a_full_stderr_changes_no_exit_code() {
    if dev_full().is_none() {
        return;
    }
    let missing = "/no/such/dir/puzzles.txt";
    // An empty 4×4 grid has many solutions; "x" is no puzzle at all.
    let many = "................";
    let cases: &[(&[&str], &str)] = &[
        (&["solve", missing], ""),
        (&["solve"], "x\n"),
        (&["solve"], many),
        (&["count"], "x\n"),
        (&["check"], "x\n"),
        (&["check"], many),
        (&["convert", "--to", "line"], "x\n"),
        (&["grade"], "x\n"),
        (&["hint"], "x\n"),
        (&["hint", missing], ""),
    ];
    for (args, input) in cases {
        let plain = run(args, input, None).status.code();
        assert!(
            matches!(plain, Some(1 | 2)),
            "{args:?}: exit {plain:?} with a working stderr"
        );
        assert!(
            !run(args, input, None).stderr.is_empty(),
            "{args:?} reports something"
        );
        let full = run(args, input, dev_full()).status.code();
        assert_eq!(full, plain, "{args:?} with stderr on /dev/full");
    }
}

/// `2>&-`: the shell closes stderr; the error still ends the run with 2.
#[test]
fn a_closed_stderr_changes_no_exit_code() {
    let status = Command::new("sh")
        .args(["-c", r#""$0" solve /no/such/file 2>&-"#, BIN])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2));
}

/// `--help` and `--version` exit 0 once their text is written; when it
/// cannot be (`> /dev/full`), non-zero (2) with a message.
#[test]
fn help_that_cannot_be_written_exits_non_zero() {
    for flag in ["--help", "--version"] {
        let ok = Command::new(BIN).arg(flag).output().unwrap();
        assert_eq!(ok.status.code(), Some(0), "{flag}");
        assert!(!ok.stdout.is_empty(), "{flag}");
        let Some(full) = dev_full() else {
            return;
        };
        let out = Command::new(BIN)
            .arg(flag)
            .stdout(Stdio::from(full))
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag} > /dev/full");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.starts_with("dekadoku: cannot write: "), "{said}");
        // With stderr full as well: still 2, no panic.
        let out = Command::new(BIN)
            .arg(flag)
            .stdout(Stdio::from(dev_full().unwrap()))
            .stderr(Stdio::from(dev_full().unwrap()))
            .status()
            .unwrap();
        assert_eq!(out.code(), Some(2), "{flag} > /dev/full 2>&1");
    }
    // A usage error is 2 whether or not its text can be written.
    if let Some(full) = dev_full() {
        let out = Command::new(BIN)
            .arg("--no-such-flag")
            .stderr(Stdio::from(full))
            .status()
            .unwrap();
        assert_eq!(out.code(), Some(2));
    }
    assert!(Path::new(BIN).exists());
}
