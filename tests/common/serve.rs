//! `dekadoku serve` for the end-to-end tests: the server on a free port
//! with its files in a test folder (its log read for the port), and keys
//! made with ssh-keygen.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

#[allow(unused_imports)]
pub use super::ssh::{have_ssh, keygen};

/// A puzzle whose first cell is empty (the cursor starts there), 32 givens.
pub const PUZZLE: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// The server, killed (SIGKILL) when dropped.
pub struct Server {
    pub child: Child,
    pub port: u16,
    pub log: PathBuf,
}

impl Server {
    /// Starts `dekadoku serve` on a free port with its config and data in
    /// `dir`, with `args` after `serve`; waits until it listens.
    pub fn start(dir: &Path, args: &[&str]) -> Server {
        std::fs::create_dir_all(dir).unwrap();
        let log = (1..)
            .map(|k| dir.join(format!("serve-{k}.log")))
            .find(|p| !p.exists())
            .unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_dekadoku"))
            .args(["serve", "--listen", "127.0.0.1:0"])
            .args(args)
            .env("DEKADOKU_CONFIG_DIR", dir.join("config"))
            .env("DEKADOKU_DATA_DIR", dir.join("data"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        let port = loop {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            if let Some(port) = text
                .lines()
                .find(|l| l.contains(" listening "))
                .and_then(|l| l.split("addr=127.0.0.1:").nth(1))
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|p| p.parse().ok())
            {
                break port;
            }
            assert!(
                Instant::now() < deadline,
                "the server did not start:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        Server { child, port, log }
    }

    /// The log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits until the log has a line with all of `words`; that line.
    pub fn wait_log(&self, what: &str, words: &[&str]) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let log = self.log();
            if let Some(line) = log.lines().find(|l| words.iter().all(|w| l.contains(w))) {
                return line.to_string();
            }
            assert!(Instant::now() < deadline, "no {what} in the log:\n{log}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
