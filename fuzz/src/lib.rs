//! Helpers shared by the fuzz targets: reading puzzles every way the game
//! does and checking that they come back unchanged, and a scratch folder for
//! the loaders that only take paths.

use std::io::BufReader;
use std::path::PathBuf;
use std::sync::OnceLock;

use dekadoku::engine::Puzzle;
use dekadoku::engine::format::{self, Format, FormatError, PuzzleReader};

/// Buffer size for the second, streaming read: small and odd, so lines and
/// UTF-8 sequences straddle the reader's refills.
const SMALL_BUFFER: usize = 3;

/// Reads every puzzle of `data` (`format: None` detects it), twice: from
/// the whole slice and through a tiny buffer. Both reads must agree item for
/// item, and every puzzle read must survive a write and a read in each format
/// that can hold it. Returns what was read.
pub fn read_and_check(data: &[u8], format: Option<Format>) -> Vec<Result<Puzzle, FormatError>> {
    let mut reader = PuzzleReader::new(data, "fuzz", format);
    let whole: Vec<_> = reader.by_ref().collect();
    if let Some(forced) = format {
        assert_eq!(reader.format(), Some(forced), "a forced format stays");
    }
    assert!(!whole.is_empty(), "every input yields a puzzle or an error");
    let small = BufReader::with_capacity(SMALL_BUFFER, data);
    let streamed: Vec<_> = PuzzleReader::new(small, "fuzz", format).collect();
    assert_eq!(whole, streamed, "the buffer size changed what was read");
    for item in &whole {
        match item {
            Ok(p) => check_round_trip(p),
            Err(e) => {
                assert!(e.line >= 1, "error lines are 1-based: {e:?}");
                let _ = e.to_string();
            }
        }
    }
    whole
}

/// `read(write(p)) == p` in every format that [`Format::round_trips`] the
/// puzzle's shape, with the format forced and detected.
pub fn check_round_trip(p: &Puzzle) {
    for f in Format::ALL {
        if !f.round_trips(p.shape()) {
            continue;
        }
        let text = format::to_string(p, f);
        let forced: Vec<_> = PuzzleReader::new(text.as_bytes(), "rt", Some(f)).collect();
        assert_eq!(forced, vec![Ok(p.clone())], "forced {f}:\n{text}");
        let detected = format::parse_one(&text, "rt");
        assert_eq!(
            detected.as_ref(),
            Ok(p),
            "detected, written as {f}:\n{text}"
        );
    }
}

/// A folder of this process's own (under /dev/shm where there is one, so
/// the loaders' writes and syncs stay in memory), emptied on each call.
pub fn scratch(tag: &str) -> PathBuf {
    static BASE: OnceLock<PathBuf> = OnceLock::new();
    let base = BASE.get_or_init(|| {
        let shm = PathBuf::from("/dev/shm");
        let root = if shm.is_dir() {
            shm
        } else {
            std::env::temp_dir()
        };
        root.join(format!("dekadoku-fuzz-{}", std::process::id()))
    });
    let dir = base.join(tag);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the scratch folder can be made");
    dir
}
