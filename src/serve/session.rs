//! One player's game over an SSH channel: the game's own update/draw loop
//! (the local runner's `Waits`, `run_action` and `perform`) on a
//! thread of its own, drawing into a buffer that goes to the channel, and
//! keeping the player's things in the server's database (`StoreKeep`)
//! instead of files.
//!
//! Output is bounded: a frame goes to a queue of [`OUT_FRAMES`] frames; a
//! frame that finds the queue full (the client reads too slowly, or not at
//! all) is dropped, and once the queue has room the next frame is drawn
//! whole. A stalled client therefore holds a few frames of memory, never a
//! growing backlog, and never slows another player.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, tick, unbounded};
use ratatui::backend::{Backend, ClearType, CrosstermBackend, WindowSize};
use ratatui::buffer::Cell;
use ratatui::crossterm::cursor::{Hide, Show};
use ratatui::crossterm::event::{
    DisableBracketedPaste, DisableFocusChange, DisableMouseCapture, EnableBracketedPaste,
    EnableFocusChange, EnableMouseCapture,
};
use ratatui::crossterm::queue;
use ratatui::crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen};
use ratatui::layout::{Position, Rect, Size};
use ratatui::{Terminal, TerminalOptions, Viewport};

use super::memory;
use super::store::{PlayerId, PlayerStore, SavedGame, Settings};
use crate::engine::generate::daily::Date;
use crate::game::{GAME_SAVE_VERSION, Game, GameSave};
use crate::store::{
    ColorDepth, Config, Pool, SaveMeta, Stats, StoreError, Themes, decode_save, encode_save,
};
use crate::tui::action::{
    Action, BoardRow, DailyBoard, GAME_KIND, LoadGameError, Loaded, SaveListing, ToRead,
};
use crate::tui::app::{App, Effect};
use crate::tui::keymap::Keymap;
use crate::tui::runner::{
    Context, Env, Jobs, Keep, Look, SaveReport, TICK, Waits, add_pooled, import_text,
    read_pool_counts, run_action, take_pooled, unfinished_name, unfinished_said,
};
use crate::tui::worker::{self, JobResult};

/// Frames queued for a client before further frames are dropped.
pub const OUT_FRAMES: usize = 4;

/// What the server shares between its sessions.
pub struct Shared {
    /// The players' database.
    pub store: Arc<dyn PlayerStore>,
    /// The server's puzzle pool (pre-generated puzzles for New game),
    /// shared by every session under one lock.
    pub pool: Mutex<Pool>,
    /// The bundled themes.
    pub themes: Themes,
    /// The largest board side a player may import.
    pub max_import_side: usize,
    /// The longest one job may work.
    pub job_time: Duration,
    /// The most the process may grow by while one job runs, in bytes
    /// ([`super::memory`]); `None`: no cap.
    pub job_memory: Option<u64>,
    /// Jobs running at once on the whole server.
    pub job_slots: Slots,
}

/// A counting semaphore: the jobs of all sessions share the machine's
/// cores instead of each session's worker taking one.
pub struct Slots {
    free: Mutex<usize>,
    freed: Condvar,
}

impl Slots {
    /// `n` slots (at least one).
    pub fn new(n: usize) -> Slots {
        Slots {
            free: Mutex::new(n.max(1)),
            freed: Condvar::new(),
        }
    }

    /// Waits for a slot, or gives up once `cancel` is raised.
    fn take(&self, cancel: &AtomicBool) -> Option<SlotGuard<'_>> {
        let mut free = self.free.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            if *free > 0 {
                *free -= 1;
                return Some(SlotGuard(self));
            }
            free = self
                .freed
                .wait_timeout(free, Duration::from_millis(100))
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }
}

/// A taken slot, given back on drop.
struct SlotGuard<'a>(&'a Slots);

impl Drop for SlotGuard<'_> {
    fn drop(&mut self) {
        *self.0.free.lock().unwrap_or_else(|p| p.into_inner()) += 1;
        self.0.freed.notify_one();
    }
}

/// The player a session plays for.
#[derive(Debug, Clone)]
pub struct Who {
    /// Their id in the store.
    pub id: PlayerId,
    /// Their display name, if they chose one.
    pub name: Option<String>,
}

/// The client's terminal, as its pty request and environment said.
#[derive(Debug, Clone)]
pub struct Term {
    /// Columns and rows.
    pub size: (u16, u16),
    /// `TERM`, `COLORTERM`, `NO_COLOR` as the client sent them.
    pub env: std::collections::HashMap<String, String>,
}

/// Where a session's frames go.
pub trait ToClient: Send {
    /// Queues `bytes` for the client: `Ok(false)` when the queue is full
    /// (nothing was queued), `Err` when the client is gone.
    fn send(&self, bytes: Vec<u8>) -> Result<bool, Gone>;
    /// Whether a frame would be queued now.
    fn has_room(&self) -> bool;
}

/// The client has gone.
#[derive(Debug, Clone, Copy)]
pub struct Gone;

/// How a session ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    /// The player quit.
    Quit,
    /// The connection closed (the game was autosaved).
    Disconnected,
}

/// A ratatui backend that draws into a buffer (sent to the channel after
/// each frame) for a terminal of a size it is told, since the server has
/// no terminal of its own to ask.
pub struct ChannelBackend {
    inner: CrosstermBackend<FrameBuf>,
    out: FrameBuf,
    size: Size,
    cursor: Position,
}

/// The bytes of the frame being drawn, shared by the backend's writer and
/// the loop that sends them.
#[derive(Debug, Clone, Default)]
pub struct FrameBuf(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);

impl io::Write for FrameBuf {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl ChannelBackend {
    /// A backend for a terminal of `cols` × `rows`.
    pub fn new(cols: u16, rows: u16) -> ChannelBackend {
        let out = FrameBuf::default();
        ChannelBackend {
            inner: CrosstermBackend::new(out.clone()),
            out,
            size: Size::new(cols, rows),
            cursor: Position::ORIGIN,
        }
    }

    /// The bytes drawn since the last take.
    pub fn take(&mut self) -> Vec<u8> {
        std::mem::take(&mut *self.out.0.borrow_mut())
    }

    /// The buffer, for commands written outside a frame.
    pub fn writer(&mut self) -> FrameBuf {
        self.out.clone()
    }
}

impl Backend for ChannelBackend {
    type Error = io::Error;

    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        self.inner.draw(content)
    }

    fn hide_cursor(&mut self) -> io::Result<()> {
        self.inner.hide_cursor()
    }

    fn show_cursor(&mut self) -> io::Result<()> {
        self.inner.show_cursor()
    }

    fn get_cursor_position(&mut self) -> io::Result<Position> {
        Ok(self.cursor)
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        let p = position.into();
        self.cursor = p;
        self.inner.set_cursor_position(p)
    }

    fn clear(&mut self) -> io::Result<()> {
        self.inner.clear()
    }

    fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
        self.inner.clear_region(clear_type)
    }

    fn size(&self) -> io::Result<Size> {
        Ok(self.size)
    }

    fn window_size(&mut self) -> io::Result<WindowSize> {
        Ok(WindowSize {
            columns_rows: self.size,
            pixels: Size::new(0, 0),
        })
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The player's settings applied over the defaults (a row that does not
/// read leaves the defaults, and says so).
fn config_of(settings: Option<Settings>, issues: &mut Vec<String>) -> Config {
    let mut config = Config::default();
    if let Some(s) = settings {
        config.theme = s.theme;
        match toml::from_str(&s.play_toml) {
            Ok(play) => config.play = play,
            Err(e) => issues.push(format!("your saved settings could not be read ({e})")),
        }
    }
    config
}

/// Plays one session until the player quits or the client goes: `input`
/// brings the client's keys, pastes and resizes (it closes when the
/// connection does), frames go to `out`. The game is autosaved to the
/// player's row as locally (at most a second after a change, and on
/// leaving).
pub fn run(
    shared: Arc<Shared>,
    who: &Who,
    term: &Term,
    input: Receiver<Action>,
    out: &dyn ToClient,
) -> io::Result<End> {
    let store = &shared.store;
    let depth = ColorDepth::detect(|k| term.env.get(k).cloned(), crate::store::terminfo_colors);
    let mut issues = Vec::new();
    let settings = store.settings(who.id).unwrap_or_else(|e| {
        issues.push(format!("your settings could not be read: {e}"));
        None
    });
    let config = config_of(settings, &mut issues);
    let env = Env::Given(term.env.clone());
    let look = Look {
        themes: shared.themes.clone(),
        depth,
        env,
    };
    let styles = look.styles(&config.theme);
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
        ^ (who.id as u64).rotate_left(32);
    let mut app = App::new(config, styles, Keymap::defaults(), seed);
    app.served = true;
    app.issues = issues;
    app.themes = shared
        .themes
        .names()
        .iter()
        .map(|s| s.to_string())
        .collect();
    match store.autosave(who.id) {
        Ok(Some(row)) => {
            app.update(Action::AutosaveFound(Some(row.meta)));
        }
        Ok(None) => {}
        Err(e) => app
            .issues
            .push(format!("your autosave could not be read: {e}")),
    }
    {
        let pool = shared.pool.lock().unwrap_or_else(|p| p.into_inner());
        read_pool_counts(&pool, &mut app);
    }
    let stats = match store.stats(who.id) {
        Ok(Some(json)) => serde_json::from_slice::<Stats>(&json).unwrap_or_else(|e| {
            app.issues.push(format!(
                "your statistics could not be read ({e}); counting anew"
            ));
            Stats::default()
        }),
        Ok(None) => Stats::default(),
        Err(e) => {
            app.issues
                .push(format!("your statistics could not be read: {e}"));
            Stats::default()
        }
    };

    // The worker: this session's jobs, each bounded in time and run only
    // when one of the server's job slots is free.
    let (job_tx, job_rx) = unbounded();
    let (res_tx, res_rx) = unbounded();
    let slots = Arc::clone(&shared);
    let _worker = worker::spawn_with(job_rx, res_tx, move |(job, cancel, out)| {
        let id = job.id;
        match slots.job_slots.take(&cancel) {
            Some(_slot) => {
                let flag = Arc::clone(&cancel);
                let w = memory::watched(slots.job_memory, &cancel, || {
                    worker::run_job_within(job, flag, out, Some(slots.job_time))
                });
                match w.over {
                    Some(cap) => JobResult::Failed {
                        id,
                        error: worker::JobError::Memory { mib: cap >> 20 },
                    },
                    None => w.result,
                }
            }
            None => JobResult::Failed {
                id,
                error: worker::JobError::Cancelled,
            },
        }
    })?;
    let (read_tx, read_rx) = unbounded();
    let mut ctx = Context {
        jobs: Jobs::new(job_tx, read_tx),
        look,
        keep: Box::new(StoreKeep {
            shared: Arc::clone(&shared),
            player: who.id,
            name: who.name.clone(),
            stats,
            autosave: SaveReport::default(),
        }),
    };

    let (cols, rows) = term.size;
    let mut backend = ChannelBackend::new(cols, rows);
    let mouse = app.config.play.mouse;
    queue!(
        &mut backend.writer(),
        EnterAlternateScreen,
        Hide,
        EnableBracketedPaste,
        EnableFocusChange
    )?;
    if mouse {
        queue!(&mut backend.writer(), EnableMouseCapture)?;
    }
    let mut terminal = Terminal::with_options(
        backend,
        TerminalOptions {
            viewport: Viewport::Fixed(Rect::new(0, 0, cols, rows)),
        },
    )?;
    terminal.clear()?;
    app.update(Action::Resize(cols, rows));
    let today = Date::today();
    app.update(Action::Today(today));
    let mut waits = Waits {
        input,
        results: res_rx,
        reads: read_rx,
        signals: crossbeam_channel::never(),
        ticker: tick(TICK),
        last: Instant::now(),
        today: Some(today),
        input_gone: false,
    };
    let mut stalled = false;
    let mut end = End::Quit;
    'play: loop {
        if stalled && out.has_room() {
            // Frames were dropped: the client's screen is behind. Draw
            // the next one whole.
            terminal.clear()?;
            stalled = false;
        }
        if !stalled {
            terminal.draw(|f| crate::tui::ui::draw(f, &app))?;
            let bytes = terminal.backend_mut().take();
            match out.send(bytes) {
                Ok(true) => {}
                Ok(false) => stalled = true,
                Err(Gone) => {
                    end = End::Disconnected;
                    run_action(&mut app, &mut ctx, Action::Command(quit()));
                    break 'play;
                }
            }
        }
        for a in waits.next(app.animating(), &mut ctx.jobs.cancels) {
            if let Action::Resize(w, h) = a {
                terminal.backend_mut().size = Size::new(w, h);
                terminal.resize(Rect::new(0, 0, w, h))?;
            }
            if matches!(a, Action::Command(crate::tui::action::Command::Quit)) && waits.input_gone {
                end = End::Disconnected;
            }
            run_action(&mut app, &mut ctx, a);
        }
        if let Some(a) = ctx.jobs.pull_trace(&app) {
            run_action(&mut app, &mut ctx, a);
        }
        if app.is_quitting() {
            break;
        }
    }
    ctx.jobs.cancel_all();
    // Give the client its terminal back as it was.
    let backend = terminal.backend_mut();
    let _ = backend.take();
    if mouse {
        let _ = queue!(&mut backend.writer(), DisableMouseCapture);
    }
    let _ = queue!(
        &mut backend.writer(),
        DisableBracketedPaste,
        DisableFocusChange,
        Show,
        LeaveAlternateScreen
    );
    let bytes = backend.take();
    let _ = out.send(bytes);
    Ok(end)
}

/// The server's input path without the network, for the fuzz target and
/// the tests: channel bytes through `decoder` into a served `app`, a
/// pending ESC flushed when `flush`; a pasted or typed puzzle is read as
/// the server reads it (up to `max_side`), other effects are dropped.
pub fn feed(
    app: &mut App,
    decoder: &mut super::input::InputDecoder,
    bytes: &[u8],
    flush: bool,
    max_side: usize,
) {
    let mut actions = decoder.feed(bytes);
    if flush {
        actions.extend(decoder.flush());
    }
    let mut queue: Vec<Action> = actions.into_iter().rev().collect();
    while let Some(a) = queue.pop() {
        for e in app.update(a) {
            if let Effect::Read {
                job,
                what: ToRead::Pasted(text),
            } = e
            {
                queue.push(Action::Read {
                    job,
                    loaded: read_pasted(&text, max_side),
                });
            }
        }
    }
}

/// The fuzz target's input path (`fuzz/fuzz_targets/serve_input.rs`),
/// also run on its seeds by `tests/fuzz_regressions.rs`: `data` cut into
/// feeds (each chunk's length from the byte before it) for a served game
/// at 80×24, a pending ESC flushed after every chunk whose length byte is
/// odd, a frame drawn after each, until the game quits. Panics if the
/// decoder holds more than its caps. The last frame drawn, a line per row
/// (empty when none was).
pub fn feed_chunks(data: &[u8]) -> String {
    use super::input::{MAX_PASTE, MAX_SEQUENCE};
    let mut app = App::new(
        Config::default(),
        crate::tui::style::Styles::basic(),
        crate::tui::keymap::Keymap::defaults(),
        1,
    );
    app.served = true;
    app.update(Action::Resize(80, 24));
    let Ok(mut terminal) = Terminal::new(ratatui::backend::TestBackend::new(80, 24));
    let mut shown = String::new();
    let mut decoder = super::input::InputDecoder::new();
    let mut rest = data;
    while let Some((&len, tail)) = rest.split_first() {
        let (chunk, next) = tail.split_at(usize::from(len).min(tail.len()));
        feed(&mut app, &mut decoder, chunk, len % 2 == 1, 25);
        assert!(
            decoder.buffered() <= MAX_SEQUENCE + MAX_PASTE + 16,
            "the decoder holds {} bytes",
            decoder.buffered()
        );
        if app.is_quitting() {
            break;
        }
        let Ok(frame) = terminal.draw(|f| crate::tui::ui::draw(f, &app));
        shown.clear();
        for y in 0..frame.area.height {
            for x in 0..frame.area.width {
                shown.push_str(frame.buffer[(x, y)].symbol());
            }
            shown.push('\n');
        }
        rest = next;
    }
    shown
}

/// A pasted (or typed) puzzle as the server reads it: a board over
/// `max_side` is refused.
fn read_pasted(text: &str, max_side: usize) -> Loaded {
    let loaded = import_text(text, "pasted text");
    if let Loaded::Game(g) = &loaded {
        let n = g.shape().n();
        if n > max_side {
            return Loaded::Error(LoadGameError::Kept {
                what: "the pasted puzzle".into(),
                reason: format!(
                    "a {n}×{n} board; this server takes boards up to {max_side}×{max_side}"
                ),
            });
        }
    }
    loaded
}

/// The Quit command (a closed connection quits as if asked: the game is
/// autosaved).
fn quit() -> crate::tui::action::Command {
    crate::tui::action::Command::Quit
}

/// A served game's things, kept in the player's rows.
struct StoreKeep {
    shared: Arc<Shared>,
    player: PlayerId,
    /// The player's display name, as last kept.
    name: Option<String>,
    /// The player's statistics as last read or written.
    stats: Stats,
    autosave: SaveReport,
}

/// A game as a row: its envelope's bytes and its summary.
fn row_of(save: &GameSave, meta: &SaveMeta) -> Result<SavedGame, String> {
    let envelope = encode_save(GAME_KIND, GAME_SAVE_VERSION, meta, save)
        .map_err(|e| format!("the game could not be encoded: {e}"))?;
    Ok(SavedGame {
        meta: meta.clone(),
        envelope,
    })
}

/// The game a row holds, as a read's answer (`what` names it).
fn loaded_of(row: &SavedGame, what: &str) -> Loaded {
    let kept = |reason: String| {
        Loaded::Error(LoadGameError::Kept {
            what: what.to_string(),
            reason,
        })
    };
    match decode_save::<GameSave>(&row.envelope, GAME_KIND, GAME_SAVE_VERSION) {
        Ok((_, save)) => match Game::from_save(&save) {
            Ok(game) => Loaded::Game(Box::new(game)),
            Err(e) => kept(format!("damaged ({e})")),
        },
        Err(reason) => kept(reason),
    }
}

impl StoreKeep {
    fn store(&self) -> &dyn PlayerStore {
        &*self.shared.store
    }

    /// Changes the statistics as a read-modify-write of the player's row
    /// (two sessions of one player both count).
    fn update_stats<T>(&mut self, change: impl FnOnce(&mut Stats) -> T) -> T {
        if let Ok(Some(json)) = self.store().stats(self.player)
            && let Ok(fresh) = serde_json::from_slice::<Stats>(&json)
        {
            self.stats = fresh;
        }
        let out = change(&mut self.stats);
        if let Ok(json) = serde_json::to_vec(&self.stats) {
            let _ = self.store().put_stats(self.player, &json);
        }
        out
    }

    /// Whether saving `save` as `name` would replace a save of another game.
    fn replaces_another_game(&self, name: &str, save: &GameSave) -> bool {
        match self.store().save(self.player, name) {
            Ok(Some(old)) => {
                match decode_save::<GameSave>(&old.envelope, GAME_KIND, GAME_SAVE_VERSION) {
                    Ok((_, old)) => !old.same_puzzle(save),
                    Err(_) => true,
                }
            }
            _ => false,
        }
    }

    fn read(&self, what: ToRead) -> Loaded {
        match what {
            ToRead::Pasted(text) => read_pasted(&text, self.shared.max_import_side),
            ToRead::Puzzle(_) => Loaded::Error(LoadGameError::Kept {
                what: "import".into(),
                reason: "this server reads no files: paste the puzzle instead".into(),
            }),
            ToRead::Save(name) => match self.store().save(self.player, &name) {
                Ok(Some(row)) => loaded_of(&row, &format!("the save “{name}”")),
                Ok(None) => Loaded::Error(LoadGameError::Kept {
                    what: format!("the save “{name}”"),
                    reason: "there is no such save".into(),
                }),
                Err(e) => Loaded::Error(LoadGameError::Kept {
                    what: format!("the save “{name}”"),
                    reason: e.to_string(),
                }),
            },
            ToRead::Autosave => match self.store().autosave(self.player) {
                Ok(Some(row)) => loaded_of(&row, "your autosave"),
                Ok(None) => Loaded::Error(LoadGameError::Kept {
                    what: "your autosave".into(),
                    reason: "there is none".into(),
                }),
                Err(e) => Loaded::Error(LoadGameError::Kept {
                    what: "your autosave".into(),
                    reason: e.to_string(),
                }),
            },
        }
    }
}

impl Keep for StoreKeep {
    fn keep(&mut self, e: Effect, _jobs: &mut Jobs) -> Option<Action> {
        let now = crate::store::unix_now();
        match e {
            Effect::Autosave(save, mut meta) => {
                meta.saved_at = now;
                let written = row_of(&save, &meta).and_then(|row| {
                    self.store()
                        .put_autosave(self.player, &row)
                        .map_err(|e| e.to_string())
                });
                self.autosave.after(written).map(Action::Status)
            }
            Effect::ClearAutosave => {
                let _ = self.store().clear_autosave(self.player);
                None
            }
            Effect::SaveAs {
                name,
                save,
                mut meta,
                overwrite,
            } => {
                if !overwrite && self.replaces_another_game(&name, &save) {
                    return Some(Action::SaveWouldReplace(name));
                }
                meta.saved_at = now;
                let put = row_of(&save, &meta).and_then(|row| {
                    self.store()
                        .put_save(self.player, &name, &row, true)
                        .map_err(|e| e.to_string())
                });
                Some(Action::Saved(
                    put.map(|_| name).map_err(StoreError::Database),
                ))
            }
            Effect::KeepUnfinished(save, mut meta, again) => {
                meta.saved_at = now;
                let taken: Vec<String> = self
                    .store()
                    .saves(self.player)
                    .map(|rows| rows.into_iter().map(|r| r.name).collect())
                    .unwrap_or_default();
                let name = unfinished_name(again, |n| !taken.iter().any(|t| t == n));
                let put = row_of(&save, &meta).and_then(|row| {
                    self.store()
                        .put_save(self.player, &name, &row, true)
                        .map_err(|e| e.to_string())
                });
                Some(Action::Status(unfinished_said(&name, put)))
            }
            Effect::ListSaves => match self.store().saves(self.player) {
                Ok(rows) => Some(Action::Saves(
                    rows.into_iter()
                        .map(|r| SaveListing {
                            name: r.name,
                            meta: Ok(r.meta),
                        })
                        .collect(),
                )),
                Err(e) => Some(Action::Status(format!(
                    "your saves could not be listed: {e}"
                ))),
            },
            Effect::Read { job, what } => Some(Action::Read {
                job,
                loaded: self.read(what),
            }),
            Effect::RecordStart { key, daily } => {
                self.update_stats(|s| s.record_game_start(&key, daily));
                None
            }
            Effect::RecordUnfinished(key) => {
                self.update_stats(|s| s.record_unfinished(&key));
                None
            }
            Effect::ReadStats => {
                self.update_stats(|_| ());
                Some(Action::Stats(Box::new(self.stats.clone())))
            }
            Effect::RecordWin {
                key,
                secs,
                hints,
                assisted,
                daily,
            } => {
                let new_best = self.update_stats(|s| {
                    s.record_game_win(&key, secs, u64::from(hints), assisted, daily, now)
                });
                // The server's daily board takes unassisted solves only.
                if let Some(date) = daily
                    && !assisted
                {
                    let _ = self
                        .store()
                        .record_daily(&date.to_string(), self.player, secs, now);
                }
                Some(Action::Recorded {
                    new_best,
                    best_secs: self.stats.get(&key).best_secs,
                })
            }
            Effect::SaveSettings(theme, play) => {
                let said = match toml::to_string(&*play) {
                    Ok(play_toml) => self
                        .store()
                        .put_settings(self.player, &Settings { theme, play_toml })
                        .map(|()| "saved for your key".to_string())
                        .unwrap_or_else(|e| format!("not saved: {e}")),
                    Err(e) => format!("not saved: {e}"),
                };
                Some(Action::Status(said))
            }
            Effect::TakePooled(shape, level) => {
                let pool = self.shared.pool.lock().unwrap_or_else(|p| p.into_inner());
                Some(take_pooled(&pool, shape, level))
            }
            Effect::AddPooled(entry) => {
                let pool = self.shared.pool.lock().unwrap_or_else(|p| p.into_inner());
                Some(add_pooled(&pool, *entry))
            }
            Effect::ReadDailyBoard(date) => Some(Action::DailyBoard(Box::new(self.board(date)))),
            Effect::SetName(name) => {
                let kept = super::store::check_display_name(&name)
                    .and_then(|name| self.store().set_name(self.player, &name).map(|()| name));
                if let Ok(name) = &kept {
                    self.name = Some(name.clone());
                }
                Some(Action::NameSet(kept.map_err(|e| e.to_string())))
            }
            Effect::Start(_)
            | Effect::Cancel(_)
            | Effect::MuteTrace(_)
            | Effect::SetTheme(_)
            | Effect::Quit => None,
        }
    }
}

/// Lines on the daily board's screen.
pub const BOARD_LINES: usize = 10;

impl StoreKeep {
    /// The day's board: the fastest [`BOARD_LINES`], the player's place.
    fn board(&self, date: Date) -> DailyBoard {
        let day = date.to_string();
        let entries = self
            .store()
            .daily_board(&day, BOARD_LINES)
            .unwrap_or_default();
        let mine = self.store().daily_rank(&day, self.player).unwrap_or(None);
        let name = self.name.clone();
        DailyBoard {
            date,
            rows: entries
                .into_iter()
                .enumerate()
                .map(|(i, e)| BoardRow {
                    rank: i as u64 + 1,
                    me: e.player == self.player,
                    name: e.name,
                    secs: e.secs,
                })
                .collect(),
            mine,
            name,
        }
    }
}

#[cfg(test)]
mod tests;
