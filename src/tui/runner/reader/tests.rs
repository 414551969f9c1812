//! Reads on their own threads: refused paths, the cancel flag, a read
//! that never ends, saves and the autosave.

use std::io::Read;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Duration;

use crossbeam_channel::unbounded;

use super::super::import::{MAX_IMPORT, Stop, read_chunks, read_puzzle_file};
use super::*;
use crate::game::{Game, Origin};
use crate::store::write_save;

const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// A fresh folder, removed with everything in it when dropped.
fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("dekadoku-reader-")
        .tempdir()
        .unwrap()
}

fn places(dir: &Path) -> Places {
    Places {
        saves: dir.join("saves"),
        autosave: dir.join("autosave.json"),
    }
}

/// Reads `what` on a reading thread as the runner does; its answer.
fn read_on_thread(job: u64, what: ToRead, places: Places) -> Loaded {
    let (tx, rx) = unbounded();
    spawn(job, what, places, Arc::new(AtomicBool::new(false)), tx).unwrap();
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(Action::Read { job: j, loaded }) if j == job => loaded,
        other => panic!("{other:?}"),
    }
}

/// A puzzle typed into the import field (no such file) is that puzzle;
/// a typed name of no file and no puzzle is refused by name.
#[test]
fn a_typed_puzzle_is_read_as_one() {
    let tmp = scratch();
    match read_on_thread(1, ToRead::Puzzle(HARD.into()), places(tmp.path())) {
        Loaded::Game(g) => assert_eq!(g.puzzle(), HARD.parse::<crate::engine::Puzzle>().unwrap()),
        other => panic!("{other:?}"),
    }
    let missing = tmp.path().join("no-such-file.txt");
    match read_on_thread(2, ToRead::Puzzle(missing.clone()), places(tmp.path())) {
        Loaded::Error(e @ LoadGameError::Io { .. }) => {
            assert!(e.to_string().contains("no-such-file.txt"), "{e}")
        }
        other => panic!("{other:?}"),
    }
}

/// A FIFO, a device and a folder are refused by name, on the reading
/// thread, without waiting for a writer.
#[test]
fn reading_refuses_what_is_not_a_regular_file() {
    let tmp = scratch();
    let fifo = tmp.path().join("fifo");
    let mut paths = vec![tmp.path().to_path_buf(), "/dev/zero".into()];
    if std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        paths.push(fifo);
    }
    for (job, path) in paths.into_iter().enumerate() {
        match read_on_thread(job as u64, ToRead::Puzzle(path.clone()), places(tmp.path())) {
            Loaded::Error(e @ LoadGameError::NotAFile { .. }) => assert_eq!(
                e.to_string(),
                format!(
                    "{}: not a regular file; expected a puzzle file",
                    path.display()
                )
            ),
            other => panic!("{}: {other:?}", path.display()),
        }
    }
}

/// A reader that hands out `chunk` bytes a time, for ever, raising
/// `flag` after `raise_after` reads.
struct Endless<'a> {
    reads: usize,
    raise_after: usize,
    flag: &'a AtomicBool,
}

impl Read for Endless<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.reads += 1;
        if self.reads == self.raise_after {
            self.flag.store(true, Ordering::Relaxed);
        }
        buf.fill(b'.');
        Ok(buf.len())
    }
}

/// A raised flag stops the reading before the next chunk; an endless
/// input stops at the cap.
#[test]
fn a_raised_cancel_flag_stops_the_reading_between_chunks() {
    let flag = AtomicBool::new(false);
    let from = Endless {
        reads: 0,
        raise_after: 3,
        flag: &flag,
    };
    assert!(matches!(
        read_chunks(from, u64::MAX, &flag),
        Err(Stop::Cancelled)
    ));
    let never = AtomicBool::new(false);
    let from = Endless {
        reads: 0,
        raise_after: 0,
        flag: &never,
    };
    assert!(matches!(
        read_chunks(from, MAX_IMPORT, &never),
        Err(Stop::TooLarge)
    ));
    // A real file, with the flag raised: nothing is read.
    let tmp = scratch();
    let file = tmp.path().join("p.txt");
    std::fs::write(&file, HARD).unwrap();
    let raised = AtomicBool::new(true);
    match read_puzzle_file(&file, &raised) {
        Err(e @ LoadGameError::Cancelled { .. }) => {
            assert_eq!(
                e.to_string(),
                format!("{}: reading stopped", file.display())
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        read_puzzle_file(&file, &AtomicBool::new(false)).unwrap(),
        HARD.as_bytes()
    );
}

/// A read that never ends (stuck in the system) holds only its own
/// thread: the next read answers meanwhile, and the stuck one whenever
/// it ends.
#[test]
fn a_stuck_read_does_not_hold_up_the_next() {
    let (tx, rx) = unbounded();
    let (release, stuck) = unbounded::<()>();
    spawn_with(1, tx.clone(), move || {
        let _ = stuck.recv();
        Loaded::Error(LoadGameError::Internal("late".into()))
    })
    .unwrap();
    let tmp = scratch();
    let file = tmp.path().join("p.txt");
    std::fs::write(&file, HARD).unwrap();
    spawn(
        2,
        ToRead::Puzzle(file),
        places(tmp.path()),
        Arc::new(AtomicBool::new(false)),
        tx,
    )
    .unwrap();
    let first = rx.recv_timeout(Duration::from_secs(60));
    assert!(
        matches!(
            first,
            Ok(Action::Read {
                job: 2,
                loaded: Loaded::Game(_)
            })
        ),
        "{first:?}"
    );
    drop(release);
    let second = rx.recv_timeout(Duration::from_secs(60));
    assert!(
        matches!(second, Ok(Action::Read { job: 1, .. })),
        "{second:?}"
    );
}

/// A named save and the autosave read back on the reading thread, and the
/// list of saves.
#[test]
fn saves_and_the_autosave_read_on_their_thread() {
    let tmp = scratch();
    let at = places(tmp.path());
    let p = crate::engine::format::parse_one(HARD, "test").unwrap();
    let game = Game::new(&p, None, Origin::default());
    let meta = crate::tui::app::meta(&game);
    let save = game.to_save();
    write_save(&at.autosave, GAME_KIND, GAME_SAVE_VERSION, &meta, &save).unwrap();
    Saves::new(&at.saves)
        .save("mine", GAME_KIND, GAME_SAVE_VERSION, &meta, &save)
        .unwrap();
    for (job, what) in [(1, ToRead::Autosave), (2, ToRead::Save("mine".into()))] {
        match read_on_thread(job, what.clone(), at.clone()) {
            Loaded::Game(g) => assert_eq!(g.puzzle(), p, "{what:?}"),
            other => panic!("{what:?}: {other:?}"),
        }
    }
    match read_on_thread(3, ToRead::Save("missing".into()), at.clone()) {
        Loaded::Error(LoadGameError::Save(crate::store::LoadError::NotFound { .. })) => {}
        other => panic!("{other:?}"),
    }
    let (tx, rx) = unbounded();
    spawn_list(at.saves.clone(), tx).unwrap();
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(Action::Saves(list)) => {
            let names: Vec<&str> = list.iter().map(|s| s.name.as_str()).collect();
            assert_eq!(names, ["mine"]);
        }
        other => panic!("{other:?}"),
    }
}
