//! OpenSSH for the end-to-end tests: whether the client is here, and
//! keys made with ssh-keygen.

use std::path::Path;
use std::process::Command;

/// Whether ssh and ssh-keygen can be run.
pub fn have_ssh() -> bool {
    let have = |p: &str, arg: &str| Command::new(p).arg(arg).output().is_ok();
    have("ssh", "-V") && have("ssh-keygen", "--help")
}

/// Makes an Ed25519 key `path` (no passphrase); its SHA-256 fingerprint.
pub fn keygen(path: &Path) -> String {
    let ok = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-f"])
        .arg(path)
        .status()
        .unwrap()
        .success();
    assert!(ok, "ssh-keygen");
    let out = Command::new("ssh-keygen")
        .arg("-lf")
        .arg(path.with_extension("pub"))
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string()
}
