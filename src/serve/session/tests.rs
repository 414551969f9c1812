//! The session loop over a real SQLite store and in-memory channels: the
//! game draws frames, a move lands in the player's autosave row, a closed
//! input quits and saves, a client that never reads holds a bounded
//! number of frames, and the keeper's rows read back as games.

use std::sync::atomic::AtomicUsize;

use crossbeam_channel::{Sender, bounded};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::*;
use crate::serve::store::{PlayerKey, Sqlite, StoreLimits};
use crate::tui::action::Command;

const PUZZLE: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// Frames kept as they come, or (`stalled`) none taken: the queue is
/// always full after the first few.
struct Client {
    frames: Mutex<Vec<Vec<u8>>>,
    /// Frames taken before the client stalled (`None`: it reads).
    stalled_at: Mutex<Option<usize>>,
    /// Frames offered since it stalled.
    offered: AtomicUsize,
}

impl Client {
    fn new() -> Client {
        Client {
            frames: Mutex::new(Vec::new()),
            stalled_at: Mutex::new(None),
            offered: AtomicUsize::new(0),
        }
    }

    fn text(&self) -> String {
        let frames = self.frames.lock().unwrap();
        String::from_utf8_lossy(&frames.concat()).into_owned()
    }

    /// Stops reading: the queue fills after [`OUT_FRAMES`] more frames.
    fn stall(&self) {
        *self.stalled_at.lock().unwrap() = Some(self.frames.lock().unwrap().len());
    }

    /// Waits until the frames so far contain `text`.
    fn wait_for(&self, text: &str) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !self.text().contains(text) {
            assert!(Instant::now() < deadline, "no {text:?} drawn");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn full(&self) -> bool {
        let at = *self.stalled_at.lock().unwrap();
        at.is_some_and(|at| self.frames.lock().unwrap().len() >= at + OUT_FRAMES)
    }
}

impl ToClient for Client {
    fn send(&self, bytes: Vec<u8>) -> Result<bool, Gone> {
        if self.stalled_at.lock().unwrap().is_some() {
            self.offered.fetch_add(1, Ordering::Relaxed);
        }
        if self.full() {
            return Ok(false);
        }
        self.frames.lock().unwrap().push(bytes);
        Ok(true)
    }

    fn has_room(&self) -> bool {
        !self.full()
    }
}

fn shared(dir: &std::path::Path) -> Arc<Shared> {
    let store = Sqlite::open(&dir.join("players.sqlite3"), StoreLimits::default()).unwrap();
    Arc::new(Shared {
        store: Arc::new(store),
        pool: Mutex::new(Pool::new(dir.join("pool"))),
        themes: Themes::bundled(),
        max_import_side: 16,
        job_time: Duration::from_secs(30),
        job_memory: Some(1 << 30),
        job_slots: Slots::new(1),
    })
}

fn who(shared: &Shared, n: u32) -> Who {
    let key = PlayerKey {
        fingerprint: format!("SHA256:test{n}"),
        algorithm: "ssh-ed25519".into(),
    };
    let p = shared.store.player(&key, 1).unwrap();
    Who {
        id: p.id,
        name: p.name,
    }
}

fn term() -> Term {
    Term {
        size: (100, 32),
        env: [("TERM".to_string(), "xterm-256color".to_string())].into(),
    }
}

fn key(tx: &Sender<Action>, code: KeyCode) {
    tx.send(Action::Key(KeyEvent::new(code, KeyModifiers::NONE)))
        .unwrap();
}

/// Runs a session on its own thread, fed by the returned sender.
fn start(
    shared: &Arc<Shared>,
    who: &Who,
    client: Arc<Client>,
) -> (Sender<Action>, std::thread::JoinHandle<io::Result<End>>) {
    start_in(shared, who, client, term())
}

/// [`start`] in the client terminal `term`.
fn start_in(
    shared: &Arc<Shared>,
    who: &Who,
    client: Arc<Client>,
    term: Term,
) -> (Sender<Action>, std::thread::JoinHandle<io::Result<End>>) {
    let (tx, rx) = bounded(64);
    let shared = Arc::clone(shared);
    let who = who.clone();
    let run = std::thread::spawn(move || run(shared, &who, &term, rx, &*client));
    (tx, run)
}

/// [`start`], then Import (down twice from New game) of [`PUZZLE`],
/// pasted; returns once its board is drawn.
fn start_imported(
    shared: &Arc<Shared>,
    who: &Who,
    client: &Arc<Client>,
) -> (Sender<Action>, std::thread::JoinHandle<io::Result<End>>) {
    let (tx, run) = start(shared, who, Arc::clone(client));
    tx.send(Action::Command(Command::MoveDown)).unwrap();
    tx.send(Action::Command(Command::MoveDown)).unwrap();
    tx.send(Action::Command(Command::Confirm)).unwrap();
    tx.send(Action::Paste(PUZZLE.into())).unwrap();
    client.wait_for("filled");
    (tx, run)
}

#[test]
fn a_move_lands_in_the_players_autosave_and_a_closed_connection_saves_and_ends() {
    let tmp = tempfile::tempdir().unwrap();
    let shared = shared(tmp.path());
    let me = who(&shared, 1);
    let client = Arc::new(Client::new());
    let (tx, run) = start_imported(&shared, &me, &client);
    key(&tx, KeyCode::Char('4'));
    drop(tx); // the connection closes
    assert_eq!(run.join().unwrap().unwrap(), End::Disconnected);
    let text = client.text();
    assert!(text.contains("dekadoku"), "frames were drawn");
    assert!(
        text.ends_with("\x1b[?1049l"),
        "the client's screen is given back"
    );
    let row = shared.store.autosave(me.id).unwrap().expect("autosaved");
    let Loaded::Game(game) = loaded_of(&row, "your autosave") else {
        panic!("the autosave reads back as a game");
    };
    assert_eq!(
        game.value(0).map(|v| v.get()),
        Some(4),
        "the move is in the autosave"
    );
    // Another player has nothing.
    let other = who(&shared, 2);
    assert!(shared.store.autosave(other.id).unwrap().is_none());
}

/// The client's TERM, COLORTERM and NO_COLOR (the pty request's terminal
/// and what ssh's SendEnv passes) pick the colours as they do locally:
/// a 24-bit theme in 24-bit colour on a true-colour terminal, in the 16
/// base colours on the Linux console, and without colour with NO_COLOR.
#[test]
fn the_clients_terminal_picks_the_colours() {
    /// The colour numbers of every 256-colour SGR code in `text`, and
    /// whether any 24-bit one is there.
    fn colours(text: &str) -> (Vec<u32>, bool) {
        let indexed = ["38;5;", "48;5;"]
            .iter()
            .flat_map(|code| text.match_indices(code).map(|(at, c)| at + c.len()))
            .filter_map(|at| {
                let digits: String = text[at..]
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect();
                digits.parse().ok()
            })
            .collect();
        (indexed, text.contains("38;2;") || text.contains("48;2;"))
    }
    let tmp = tempfile::tempdir().unwrap();
    let shared = shared(tmp.path());
    let me = who(&shared, 1);
    // The player's theme is the light one, whose colours are 24-bit (the
    // default's are from the 256-colour palette).
    let light = Settings {
        theme: "light".into(),
        play_toml: String::new(),
    };
    shared.store.put_settings(me.id, &light).unwrap();
    let cases: [(&[(&str, &str)], &str); 3] = [
        (
            &[("TERM", "xterm-256color"), ("COLORTERM", "truecolor")],
            "24-bit",
        ),
        (&[("TERM", "linux")], "16"),
        (&[("TERM", "xterm-256color"), ("NO_COLOR", "1")], "none"),
    ];
    for (env, want) in cases {
        let client = Arc::new(Client::new());
        let term = Term {
            size: (100, 32),
            env: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        };
        let (tx, run) = start_in(&shared, &me, Arc::clone(&client), term);
        // The help over the start menu: most of the theme's roles.
        key(&tx, KeyCode::Char('?'));
        tx.send(Action::Command(Command::Quit)).unwrap();
        assert_eq!(run.join().unwrap().unwrap(), End::Quit);
        let text = client.text();
        assert!(text.contains("dekadoku"), "{want}: frames were drawn");
        let (indexed, rgb) = colours(&text);
        match want {
            "24-bit" => assert!(rgb, "{want}: no 24-bit colour"),
            "16" => {
                assert!(!rgb, "{want}: 24-bit colour");
                assert!(!indexed.is_empty(), "{want}: no colour");
                assert!(indexed.iter().all(|&n| n < 16), "{want}: {indexed:?}");
            }
            _ => assert!(
                !rgb && indexed.is_empty(),
                "{want}: {indexed:?}, 24-bit {rgb}"
            ),
        }
    }
}

#[test]
fn a_client_that_never_reads_holds_a_few_frames_and_the_game_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let shared = shared(tmp.path());
    let me = who(&shared, 1);
    let client = Arc::new(Client::new());
    let (tx, run) = start_imported(&shared, &me, &client);
    client.stall();
    let before = client.frames.lock().unwrap().len();
    for _ in 0..200 {
        key(&tx, KeyCode::Right);
        key(&tx, KeyCode::Left);
    }
    key(&tx, KeyCode::Char('4'));
    tx.send(Action::Command(Command::Quit)).unwrap();
    assert_eq!(run.join().unwrap().unwrap(), End::Quit);
    let after = client.frames.lock().unwrap().len();
    assert!(
        after - before <= OUT_FRAMES,
        "{} frames queued",
        after - before
    );
    // Once the queue is full no frame is drawn (one is offered then
    // dropped), until the client reads again.
    assert!(
        client.offered.load(Ordering::Relaxed) <= OUT_FRAMES + 2,
        "{} frames offered to a stalled client",
        client.offered.load(Ordering::Relaxed)
    );
    let row = shared.store.autosave(me.id).unwrap().expect("autosaved");
    let Loaded::Game(game) = loaded_of(&row, "your autosave") else {
        panic!("the autosave reads back as a game");
    };
    assert_eq!(
        game.value(0).map(|v| v.get()),
        Some(4),
        "the game went on while the client stalled"
    );
}

#[test]
fn the_keeper_refuses_paths_and_boards_over_the_servers_limit() {
    let tmp = tempfile::tempdir().unwrap();
    let shared = shared(tmp.path());
    let me = who(&shared, 1);
    let keep = StoreKeep {
        shared: Arc::clone(&shared),
        player: me.id,
        name: None,
        stats: Stats::default(),
        autosave: SaveReport::default(),
    };
    let Loaded::Error(e) = keep.read(ToRead::Puzzle("/etc/passwd".into())) else {
        panic!("a path is never read");
    };
    assert!(e.to_string().contains("reads no files"), "{e}");
    // 25×25 (over this server's 16): refused, with the sizes said.
    let big = crate::engine::Puzzle::empty(crate::engine::Shape::square(5).unwrap());
    let mut text = Vec::new();
    crate::engine::format::write(&big, crate::engine::format::Format::Line, &mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    let Loaded::Error(e) = keep.read(ToRead::Pasted(text)) else {
        panic!("a 25×25 paste is refused here");
    };
    assert!(
        e.to_string().contains("25×25") && e.to_string().contains("16×16"),
        "{e}"
    );
    let Loaded::Game(_) = keep.read(ToRead::Pasted(PUZZLE.into())) else {
        panic!("a 9×9 paste is taken");
    };
}

#[test]
fn saves_settings_and_statistics_are_the_players_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let shared = shared(tmp.path());
    let me = who(&shared, 1);
    let mut keep = StoreKeep {
        shared: Arc::clone(&shared),
        player: me.id,
        name: None,
        stats: Stats::default(),
        autosave: SaveReport::default(),
    };
    let mut jobs = Jobs::new(unbounded().0, unbounded().0);
    let Loaded::Game(game) = import_text(PUZZLE, "test") else {
        panic!()
    };
    let save = Box::new(game.to_save());
    let meta = SaveMeta {
        size: "9x9".into(),
        filled: 36,
        cells: 81,
        elapsed_secs: 5,
        ..SaveMeta::default()
    };
    let saved = keep.keep(
        Effect::SaveAs {
            name: "morning".into(),
            save: save.clone(),
            meta: meta.clone(),
            overwrite: false,
        },
        &mut jobs,
    );
    assert!(
        matches!(saved, Some(Action::Saved(Ok(ref n))) if n == "morning"),
        "{saved:?}"
    );
    let Some(Action::Saves(list)) = keep.keep(Effect::ListSaves, &mut jobs) else {
        panic!("a list")
    };
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].name, "morning");
    let Some(Action::Read {
        loaded: Loaded::Game(back),
        ..
    }) = keep.keep(
        Effect::Read {
            job: 7,
            what: ToRead::Save("morning".into()),
        },
        &mut jobs,
    )
    else {
        panic!("the save reads back")
    };
    assert_eq!(back.to_save().givens, save.givens);
    // Another puzzle under the same name asks first.
    let Loaded::Game(other) = import_text(&PUZZLE.replacen("..3", "1.3", 1), "test") else {
        panic!()
    };
    let asked = keep.keep(
        Effect::SaveAs {
            name: "morning".into(),
            save: Box::new(other.to_save()),
            meta,
            overwrite: false,
        },
        &mut jobs,
    );
    assert!(
        matches!(asked, Some(Action::SaveWouldReplace(_))),
        "{asked:?}"
    );
    // Settings round-trip into the config the next session starts with.
    let play = crate::store::PlayConfig {
        wrap: true,
        ..Default::default()
    };
    keep.keep(
        Effect::SaveSettings("light".into(), Box::new(play)),
        &mut jobs,
    );
    let mut issues = Vec::new();
    let config = config_of(shared.store.settings(me.id).unwrap(), &mut issues);
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(config.theme, "light");
    assert!(config.play.wrap);
    // A win counts in the player's statistics, an unassisted daily one on
    // the server's board.
    let date = Date::parse("2026-11-27").unwrap();
    keep.keep(
        Effect::RecordWin {
            key: "9x9/easy".into(),
            secs: 300,
            hints: 0,
            assisted: false,
            daily: Some(date),
        },
        &mut jobs,
    );
    let stats: Stats =
        serde_json::from_slice(&shared.store.stats(me.id).unwrap().unwrap()).unwrap();
    assert_eq!(stats.get("9x9/easy").best_secs, Some(300));
    let board = shared.store.daily_board("2026-11-27", 10).unwrap();
    assert_eq!(board.len(), 1);
    assert_eq!(board[0].secs, 300);
    // The player names themselves; a bad name is refused with why.
    let Some(Action::NameSet(Err(why))) = keep.keep(Effect::SetName("  ".into()), &mut jobs) else {
        panic!("a blank name is refused")
    };
    assert!(why.contains("empty"), "{why}");
    let named = keep.keep(Effect::SetName(" Bob ".into()), &mut jobs);
    assert!(
        matches!(named, Some(Action::NameSet(Ok(ref n))) if n == "Bob"),
        "{named:?}"
    );
    let Some(Action::DailyBoard(b)) = keep.keep(Effect::ReadDailyBoard(date), &mut jobs) else {
        panic!("the board")
    };
    assert_eq!(b.date, date);
    assert_eq!(b.mine, Some((1, 1)));
    assert_eq!(b.name.as_deref(), Some("Bob"));
    assert_eq!(
        b.rows,
        vec![BoardRow {
            rank: 1,
            name: Some("Bob".into()),
            secs: 300,
            me: true
        }]
    );
    // An assisted daily win counts in the statistics, not on the board.
    let other = who(&shared, 2);
    let mut theirs = StoreKeep {
        shared: Arc::clone(&shared),
        player: other.id,
        name: None,
        stats: Stats::default(),
        autosave: SaveReport::default(),
    };
    theirs.keep(
        Effect::RecordWin {
            key: "9x9/easy".into(),
            secs: 100,
            hints: 2,
            assisted: true,
            daily: Some(date),
        },
        &mut jobs,
    );
    assert_eq!(shared.store.daily_board("2026-11-27", 10).unwrap().len(), 1);
}

#[test]
fn slots_bound_the_jobs_running_at_once() {
    let slots = Arc::new(Slots::new(2));
    let running = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let never = AtomicBool::new(false);
    std::thread::scope(|s| {
        for _ in 0..6 {
            let (slots, running, most) = (&slots, &running, &most);
            let never = &never;
            s.spawn(move || {
                let _slot = slots.take(never).unwrap();
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(20));
                running.fetch_sub(1, Ordering::SeqCst);
            });
        }
    });
    assert_eq!(most.load(Ordering::SeqCst), 2);
    // A cancelled job stops waiting.
    let full = Slots::new(1);
    let _held = full.take(&never).unwrap();
    assert!(full.take(&AtomicBool::new(true)).is_none());
}

/// Random bytes (keys, escape sequences, pastes of puzzles and of junk,
/// cut anywhere) through the decoder into a served app, a frame drawn
/// after each chunk at a size that changes: no panic, and the decoder
/// stays within its caps.
#[test]
fn random_channel_bytes_never_break_the_game() {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::{Rng, SeedableRng};
    use ratatui::backend::TestBackend;

    let pieces: [&[u8]; 12] = [
        b"\x1b[B",
        b"\x1b[A",
        b"\r",
        b"\x1b",
        b"?",
        b"q",
        b"4",
        b"\x1b[200~",
        b"\x1b[201~",
        PUZZLE.as_bytes(),
        b"\x1b[<0;10;5M",
        b"\x1b[1;5C",
    ];
    for seed in 0..40u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut app = crate::tui::app::App::new(
            Config::default(),
            crate::tui::style::Styles::basic(),
            Keymap::defaults(),
            seed,
        );
        app.served = true;
        let mut decoder = super::super::input::InputDecoder::new();
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        for _ in 0..60 {
            let mut chunk = Vec::new();
            for _ in 0..rng.next_u32() % 6 {
                if rng.next_u32() % 4 == 0 {
                    let n = (rng.next_u32() % 40) as usize;
                    chunk.extend((0..n).map(|_| rng.next_u32() as u8));
                } else {
                    chunk.extend_from_slice(pieces[(rng.next_u32() % 12) as usize]);
                }
            }
            // Never quit: the game goes on through the whole run.
            chunk.retain(|&b| b != b'q' && b != 3);
            feed(&mut app, &mut decoder, &chunk, rng.next_u32() % 3 == 0, 25);
            assert!(
                decoder.buffered()
                    <= super::super::input::MAX_SEQUENCE + super::super::input::MAX_PASTE + 16
            );
            if rng.next_u32() % 10 == 0 {
                let (w, h) = (
                    20 + (rng.next_u32() % 200) as u16,
                    5 + (rng.next_u32() % 60) as u16,
                );
                terminal.backend_mut().resize(w, h);
                terminal
                    .resize(ratatui::layout::Rect::new(0, 0, w, h))
                    .unwrap();
                app.update(Action::Resize(w, h));
            }
            terminal.draw(|f| crate::tui::ui::draw(f, &app)).unwrap();
        }
    }
}
