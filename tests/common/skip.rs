//! The one rule for tests that need what is outside the repository
//! (`../shared`, tmux, sshd, ssh, cadical): skip with a message in a
//! user's clone, fail under CI. Plain std, so the library's own unit tests
//! include this file too (`#[path]`), and the rule stays one.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Whether this run is CI's: the environment variable `CI` is set and not
/// empty (as GitHub Actions, GitLab and most CI services set it, and
/// `.ci/run` does).
pub fn under_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty())
}

/// The one rule for a test that cannot run here for want of something
/// outside the repository (`../shared`, tmux, sshd, ssh, cadical): under
/// CI ([`under_ci`]) it fails, so a green CI never hides a skipped suite;
/// elsewhere it prints `skipped: <why>` and the caller returns.
#[track_caller]
pub fn skip_or_fail(why: &str) {
    if under_ci() {
        panic!("{why}: CI is set, so this test may not skip (.ci/run provides what it needs)");
    }
    println!("skipped: {why}");
}

/// The shared data folder: `$DEKADOKU_SHARED` when set and not empty, else
/// `../shared` beside the repository.
pub fn shared_root() -> PathBuf {
    match std::env::var_os("DEKADOKU_SHARED") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    }
}

/// `<shared>/puzzles-public/<name>`, or `None` when the shared data is not
/// there ([`skip_or_fail`]: a failure under CI).
#[track_caller]
pub fn shared(name: &str) -> Option<PathBuf> {
    shared_file(&format!("puzzles-public/{name}"))
}

/// `<shared>/<path>` (a file or a folder), or `None` when it is not there
/// ([`skip_or_fail`]: a failure under CI).
#[track_caller]
pub fn shared_file(path: &str) -> Option<PathBuf> {
    let p = shared_root().join(path);
    if p.exists() {
        Some(p)
    } else {
        skip_or_fail(&format!("{} not present", p.display()));
        None
    }
}
