//! The runner's effects on real files in a scratch folder: autosave,
//! imports, saves written by a newer dekadoku.

use super::files::{keep_unfinished, replaces_another_game};
use super::import::resume;
use super::*;
use crate::store::write_save;
use std::path::PathBuf;

use crate::game::{Game, Origin};
use crate::store::LoadError;
use crate::store::SaveMeta;
use crate::tui::action::{LoadGameError, Loaded};

/// A 9×9 puzzle in the line format.
const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// A new game of a puzzle in the line format (no solution known).
fn game_of_line(line: &str) -> Game {
    let p = crate::engine::format::parse_one(line, "test").unwrap();
    Game::new(&p, None, Origin::default())
}

/// A fresh folder, removed with everything in it when dropped.
fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("dekadoku-runner-")
        .tempdir()
        .unwrap()
}

/// A data folder that cannot be written (here: a file stands where the
/// folder should be, which fails even for root): the player hears of
/// it once, not on every move, and again when saving works.
#[test]
fn a_failing_autosave_is_reported_once() {
    let tmp = scratch();
    let dir = tmp.path();
    let blocked = dir.join("data");
    std::fs::write(&blocked, b"a file, not a folder").unwrap_or_default();
    let meta = SaveMeta {
        size: "9x9".into(),
        level: None,
        filled: 0,
        cells: 81,
        elapsed_secs: 0,
        saved_at: 0,
        solved: false,
        title: None,
    };
    let write = |path: &Path| write_save(path, GAME_KIND, GAME_SAVE_VERSION, &meta, &1u32);
    let mut report = SaveReport::default();
    let bad = blocked.join("autosave.json");
    let first = report.after(write(&bad));
    assert!(
        first
            .as_deref()
            .is_some_and(|m| m.starts_with("autosave failed") && m.contains("autosave.json")),
        "{first:?}"
    );
    for _ in 0..5 {
        assert_eq!(report.after(write(&bad)), None, "said once only");
    }
    let good = dir.join("ok/autosave.json");
    assert_eq!(
        report.after(write(&good)).as_deref(),
        Some("autosave works again")
    );
    assert_eq!(report.after(write(&good)), None);
}

/// An autosave a newer dekadoku wrote is moved aside whole and Continue
/// offers the backup; autosave stays on, since nothing is in the way.
#[test]
fn a_newer_autosave_is_moved_aside_and_the_backup_continues() {
    let tmp = scratch();
    let dir = tmp.path();
    let dirs = Dirs::at(dir.join("config"), dir.join("data"));
    let path = dirs.autosave_file();
    let meta = |filled| SaveMeta {
        size: "9x9".into(),
        level: None,
        filled,
        cells: 81,
        elapsed_secs: 0,
        saved_at: 0,
        solved: false,
        title: None,
    };
    let puzzle = crate::engine::Puzzle::empty(crate::engine::Shape::CLASSIC);
    let save = Game::new(&puzzle, None, Origin::default()).to_save();
    for filled in [3, 4] {
        assert!(write_save(&path, GAME_KIND, GAME_SAVE_VERSION, &meta(filled), &save).is_ok());
    }
    let newer = format!(
        r#"{{"format":"dekadoku","kind":"{GAME_KIND}","version":{},"meta":{{}},"payload":{{}}}}"#,
        GAME_SAVE_VERSION + 1
    );
    assert!(std::fs::write(&path, &newer).is_ok());
    let (app, _) = build_app(&dirs, &dirs.autosave_file(), ColorDepth::TrueColor);
    assert_eq!(
        app.autosave.as_ref().map(|m| m.filled),
        Some(3),
        "the backup"
    );
    assert!(app.config.play.autosave, "autosave stays on");
    let told = app.issues.join("\n");
    assert!(
        told.contains("newer dekadoku") && told.contains(".newer-v"),
        "{told}"
    );
    let kept: Vec<_> = std::fs::read_dir(dirs.autosave_file().parent().unwrap_or(dir))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    let moved = kept
        .iter()
        .find(|p| p.to_string_lossy().contains(".newer-v"));
    assert_eq!(
        moved
            .and_then(|p| std::fs::read_to_string(p).ok())
            .as_deref(),
        Some(newer.as_str())
    );
}

/// Games left unfinished are kept side by side, never over each other.
#[test]
fn unfinished_games_are_kept_under_names_of_their_own() {
    let tmp = scratch();
    let saves = Saves::new(tmp.path().join("saves"));
    let game = game_of_line(HARD);
    let meta = crate::tui::app::meta(&game);
    for k in 1..=2 {
        let said = keep_unfinished(&saves, &game.to_save(), &meta, None);
        assert!(said.contains(&format!("“unfinished-{k}”")), "{said}");
    }
    let names: Vec<String> = saves.list().into_iter().map(|e| e.name).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names.contains(&"unfinished-1".to_string()), "{names:?}");
    assert!(names.contains(&"unfinished-2".to_string()), "{names:?}");
    // A game loaded from unfinished-1 and left again goes back there.
    let mut more = game.clone();
    let c = (0..81).find(|&c| more.value(c).is_none()).unwrap();
    more.toggle_note(c, crate::engine::Value::new(1).unwrap());
    let said = keep_unfinished(&saves, &more.to_save(), &meta, Some("unfinished-1"));
    assert!(said.contains("“unfinished-1”"), "{said}");
    assert_eq!(saves.list().len(), 2);
    let back: crate::game::GameSave = saves
        .load("unfinished-1", GAME_KIND, GAME_SAVE_VERSION)
        .unwrap()
        .payload;
    assert_eq!(back, more.to_save());
}

/// Importing what is not a regular file is refused at once: a FIFO (which
/// would block the game's thread on read until a writer came), a device
/// (`/dev/zero` never ends), a folder.
#[test]
fn import_refuses_fifos_devices_and_folders() {
    let tmp = scratch();
    let fifo = tmp.path().join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let mut paths = vec![tmp.path().to_path_buf(), PathBuf::from("/dev/zero")];
    if made {
        paths.push(fifo);
    }
    for path in paths {
        // On a thread, so a regression fails here instead of hanging.
        let (tx, rx) = crossbeam_channel::bounded(1);
        let p = path.clone();
        std::thread::spawn(move || {
            let _ = tx.send(import_file(&p));
        });
        let got = rx
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("{}: import did not return", path.display()));
        match got {
            Loaded::Error(e @ LoadGameError::NotAFile { .. }) => {
                assert!(e.to_string().contains("not a regular file"), "{e}");
            }
            other => panic!("{}: {other:?}", path.display()),
        }
    }
}

/// A save that reads but makes no sense (here a 400×400 header over the
/// cells of a 9×9) is damaged like one that does not read: moved aside,
/// and the backup of the save before it resumed instead.
#[test]
fn a_save_that_makes_no_sense_is_moved_aside_and_its_backup_resumed() {
    let tmp = scratch();
    let path = tmp.path().join("autosave.json");
    let game = game_of_line(HARD);
    let p = game.puzzle();
    let meta = crate::tui::app::meta(&game);
    let good = game.to_save();
    let mut bad = good.clone();
    bad.box_rows = 20;
    bad.box_cols = 20;
    write_save(&path, GAME_KIND, GAME_SAVE_VERSION, &meta, &good).unwrap();
    // The second write keeps the first as the backup.
    write_save(&path, GAME_KIND, GAME_SAVE_VERSION, &meta, &bad).unwrap();
    let r = read_checked_or_backup(&path, GAME_KIND, GAME_SAVE_VERSION, game_of);
    match resume(r) {
        Loaded::Recovered(g, why) => {
            assert_eq!(g.puzzle(), p);
            assert!(why.to_string().contains("damaged"), "{why}");
            let LoadError::Invalid { kept_as, .. } = why else {
                panic!("{why:?}")
            };
            assert!(kept_as.is_some_and(|k| k.exists()), "moved aside");
        }
        other => panic!("{other:?}"),
    }
    assert!(
        !path.exists(),
        "the bad save is no longer where autosave writes"
    );
}

/// Another game under the name is replaced only when the player says so;
/// the same puzzle again, or a new name, replaces nothing.
#[test]
fn save_as_knows_another_game_from_the_same_one() {
    let tmp = scratch();
    let saves = Saves::new(tmp.path().join("saves"));
    let one = game_of_line(HARD);
    let two = game_of_line(
        "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
    );
    assert!(
        !replaces_another_game(&saves, "mine", &one.to_save()),
        "new name"
    );
    let meta = crate::tui::app::meta(&one);
    saves
        .save("mine", GAME_KIND, GAME_SAVE_VERSION, &meta, &one.to_save())
        .unwrap();
    assert!(
        !replaces_another_game(&saves, "mine", &one.to_save()),
        "same game"
    );
    assert!(
        replaces_another_game(&saves, "mine", &two.to_save()),
        "another game"
    );
    // A damaged file under the name counts as another game, and looking
    // at it moves nothing.
    let path = saves.path_for("broken").unwrap();
    std::fs::write(&path, b"{ not json").unwrap();
    assert!(replaces_another_game(&saves, "broken", &one.to_save()));
    assert!(path.exists(), "left where it was");
}

/// A runner context on a scratch data folder, as `run` builds it (no
/// worker: the job channel leads nowhere).
fn context(dir: &std::path::Path) -> Context {
    let dirs = Dirs::at(dir.join("config"), dir.join("data"));
    Context {
        jobs: Jobs::new(unbounded().0, unbounded().0),
        look: Look {
            themes: Themes::bundled(),
            depth: ColorDepth::Basic16,
            env: Env::Given(Default::default()),
        },
        keep: Box::new(FileKeep {
            pool: Pool::new(dirs.pool_dir()),
            saves: Saves::new(dirs.saves_dir()),
            stats: Stats::default(),
            autosave: SaveReport::default(),
            autosave_file: dirs.autosave_file(),
            _slot: None,
            dirs,
        }),
    }
}

/// The statistics' effects land in stats.json (the daily record by its
/// date, the streak a game left unfinished ends), and the statistics
/// screen reads the file as it is now: what another game on the same
/// data folder counted meanwhile shows.
#[test]
fn statistics_effects_land_in_the_file_and_the_screen_reads_it_fresh() {
    let tmp = scratch();
    let mut ctx = context(tmp.path());
    let file = Dirs::at(tmp.path().join("config"), tmp.path().join("data")).stats_file();
    let date = Date::parse("2026-03-09").unwrap();
    let key = "9x9/easy".to_string();
    perform(
        &mut ctx,
        Effect::RecordStart {
            key: key.clone(),
            daily: Some(date),
        },
    );
    let back = perform(
        &mut ctx,
        Effect::RecordWin {
            key: key.clone(),
            secs: 300,
            hints: 0,
            assisted: false,
            daily: Some(date),
        },
    );
    assert!(matches!(
        back,
        Some(Action::Recorded { new_best: true, .. })
    ));
    let (on_disk, warning) = Stats::load(&file);
    assert!(warning.is_none());
    assert_eq!(on_disk.get(&key).streak, Some(1));
    assert_eq!(on_disk.daily["2026-03-09"].secs, Some(300));
    // Another game on this folder counts a start and leaves a game.
    let (mut other, _) = Stats::load(&file);
    other.record_start("16x16/hard");
    other.save(&file).unwrap();
    perform(&mut ctx, Effect::RecordUnfinished(key.clone()));
    let Some(Action::Stats(shown)) = perform(&mut ctx, Effect::ReadStats) else {
        panic!("no statistics")
    };
    assert_eq!(shown.get("16x16/hard").started, 1, "the other game's start");
    assert_eq!(shown.get(&key).streak, Some(0), "left unfinished");
    assert_eq!(shown.get(&key).median_secs(), Some(300));
    assert_eq!(shown.daily_streak(date), 1);
}

/// The game's panic hook leaves the terminal alone for a panic on the
/// worker or on a reading thread (caught there and said on the status
/// line: the game goes on) and restores it for any other. A job that
/// panics on the worker under the hook gives [`worker::JobResult::Failed`]
/// with its message, and the worker runs the next job; a read that panics
/// gives [`LoadGameError::Internal`].
#[test]
fn the_panic_hook_leaves_the_screen_alone_for_a_job_or_a_read() {
    use std::sync::Mutex;

    use crate::tui::worker::{Job, JobError, JobResult};

    const MARK: &str = "hook-test-marker";
    let left: Arc<Mutex<Vec<String>>> = Arc::default();
    let previous = Arc::new(std::panic::take_hook());
    let (seen, fallback) = (Arc::clone(&left), Arc::clone(&previous));
    std::panic::set_hook(panic_hook(move |info| {
        let text = worker::panic_text(info.payload());
        if text.contains(MARK) {
            seen.lock().unwrap_or_else(|e| e.into_inner()).push(text);
        } else {
            // Another test's panic meanwhile: reported as usual.
            fallback(info);
        }
    }));
    let panic_on = |name: &str| {
        let text = format!("{MARK} on {name}");
        std::thread::Builder::new()
            .name(name.into())
            .spawn(move || std::panic::panic_any(text))
            .unwrap()
            .join()
            .is_err()
    };
    let panicked = [
        panic_on(worker::THREAD_NAME),
        panic_on(reader::THREAD_NAME),
        panic_on("main-like"),
    ];
    // The worker, with a job that panics, then one that does not.
    let (job_tx, job_rx) = unbounded();
    let (res_tx, res_rx) = unbounded();
    let spawned = worker::spawn_with(job_rx, res_tx, |(job, cancel, out)| {
        if job.id == 1 {
            panic!("{MARK} in job 1");
        }
        worker::run_job_traced(job, cancel, out)
    });
    let ticket = |id| {
        let job = Job {
            id,
            kind: JobKind::Walk {
                game: Box::new(game_of_line(HARD)),
            },
        };
        (job, Arc::new(AtomicBool::new(false)), None)
    };
    let sent = spawned.is_ok() && job_tx.send(ticket(1)).is_ok() && job_tx.send(ticket(2)).is_ok();
    let answers = [res_rx.recv(), res_rx.recv()];
    drop(job_tx);
    let (done_tx, done_rx) = unbounded();
    let read = reader::spawn_with(3, done_tx, || panic!("{MARK} while reading"));
    let read_answer = done_rx.recv();
    let _ = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| previous(info)));

    assert_eq!(panicked, [true; 3]);
    let left = left.lock().unwrap_or_else(|e| e.into_inner()).clone();
    assert_eq!(
        left,
        [format!("{MARK} on main-like")],
        "the terminal is restored for that panic only"
    );
    assert!(sent);
    match &answers[0] {
        Ok(JobResult::Failed {
            id: 1,
            error: JobError::Panicked(text),
        }) => assert_eq!(text, &format!("{MARK} in job 1")),
        other => panic!("{other:?}"),
    }
    assert!(
        matches!(answers[1], Ok(JobResult::Walk { id: 2, .. })),
        "{:?}",
        answers[1]
    );
    assert!(read.is_ok());
    match read_answer {
        Ok(Action::Read {
            job: 3,
            loaded: Loaded::Error(e @ LoadGameError::Internal(_)),
        }) => assert_eq!(
            e.to_string(),
            format!("internal error while reading: {MARK} while reading")
        ),
        other => panic!("{other:?}"),
    }
}

/// A terminal that takes `frame_flushes` flushes (one frame's) and then
/// fails every write, as a pseudo-terminal does once its SSH connection
/// is gone (EIO).
struct CutAfterFirstFrame {
    flushes: std::rc::Rc<std::cell::Cell<usize>>,
    frame_flushes: usize,
}

impl CutAfterFirstFrame {
    fn cut(&self) -> bool {
        self.flushes.get() >= self.frame_flushes
    }
}

impl io::Write for CutAfterFirstFrame {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.cut() {
            return Err(io::Error::from_raw_os_error(5));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.cut() {
            return Err(io::Error::from_raw_os_error(5));
        }
        self.flushes.set(self.flushes.get() + 1);
        Ok(())
    }
}

/// The terminal goes before the hang-up arrives: the next frame fails to
/// draw, and the loop quits as if asked, so the move made just before is
/// in the autosave (it used to return the error at once, and the move,
/// not yet autosaved a moment after it, was lost).
#[test]
fn a_frame_that_cannot_be_drawn_quits_with_the_autosave_written() {
    use ratatui::backend::CrosstermBackend;
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use ratatui::layout::Rect;
    use ratatui::{TerminalOptions, Viewport};

    let tmp = scratch();
    let mut ctx = context(tmp.path());
    let file = Dirs::at(tmp.path().join("config"), tmp.path().join("data")).autosave_file();
    let mut app = App::new(Config::default(), Styles::basic(), Keymap::defaults(), 7);
    let mut fx = app.update(Action::Resize(80, 24));
    fx.extend(app.update(Action::Loaded(Loaded::Game(Box::new(game_of_line(HARD))))));
    // The solve a loaded game starts, run here as the worker would.
    while let Some(e) = fx.pop() {
        match e {
            Effect::Start(job) => {
                let r = worker::run_job(job, Arc::new(AtomicBool::new(false)));
                fx.extend(app.update(Action::Job(r)));
            }
            e => {
                perform(&mut ctx, e);
            }
        }
    }
    // How many flushes one frame takes (the first hides the cursor too).
    let fixed = || TerminalOptions {
        viewport: Viewport::Fixed(Rect::new(0, 0, 80, 24)),
    };
    let counted = std::rc::Rc::default();
    let never_cut = CutAfterFirstFrame {
        flushes: std::rc::Rc::clone(&counted),
        frame_flushes: usize::MAX,
    };
    let mut probe = Terminal::with_options(CrosstermBackend::new(never_cut), fixed()).unwrap();
    probe.draw(|f| crate::tui::ui::draw(f, &app)).unwrap();
    let frame_flushes = counted.get();
    assert!(frame_flushes > 0);
    let cut = CutAfterFirstFrame {
        flushes: std::rc::Rc::default(),
        frame_flushes,
    };
    let mut terminal = Terminal::with_options(CrosstermBackend::new(cut), fixed()).unwrap();
    // The player's move, then nothing more: no clock, no signal, and the
    // input stays open (its end would quit the other way).
    let (keys, input) = unbounded();
    // The cursor starts on the first empty cell.
    let first_empty = HARD.find('.').unwrap();
    let five = KeyEvent::new(KeyCode::Char('5'), KeyModifiers::NONE);
    keys.send(Action::Key(five)).unwrap();
    let mut waits = Waits {
        input,
        results: unbounded().1,
        reads: unbounded().1,
        signals: never(),
        ticker: never(),
        last: Instant::now(),
        today: None,
        input_gone: false,
    };
    assert!(!file.exists(), "no autosave before the move");
    let ended = play(&mut terminal, &mut app, &mut ctx, &mut waits);
    assert_eq!(ended.map_err(|e| e.raw_os_error()), Err(Some(5)));
    assert!(app.is_quitting());
    let saved = read_checked_or_backup(&file, GAME_KIND, GAME_SAVE_VERSION, game_of)
        .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    assert!(saved.from_backup.is_none());
    let game = saved.payload;
    assert_eq!(game.moves(), 1);
    assert_eq!(
        game.value(first_empty).map(|v| v.to_string()),
        Some("5".to_string()),
        "the move is in the autosave"
    );
    drop(keys);
}
