//! The loop: sets the terminal up (and restores it on exit and on panic),
//! starts an input thread and the worker, and `select!`s over input, worker
//! results and ticks; each action goes through `App::update` and the
//! effects it returns are performed here (jobs, files). One draw per
//! wake-up, however many events arrived.

use std::io::{self, IsTerminal};
use std::panic::PanicHookInfo;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crossbeam_channel::{Receiver, Sender, bounded, never, tick, unbounded};
use ratatui::crossterm::event::{
    self, DisableBracketedPaste, DisableFocusChange, DisableMouseCapture, EnableBracketedPaste,
    EnableFocusChange, EnableMouseCapture, Event, MouseButton, MouseEventKind,
};
use ratatui::crossterm::execute;
use ratatui::{Terminal, backend::Backend};

use crate::engine::Level;
use crate::engine::generate::daily::Date;
use crate::game::GAME_SAVE_VERSION;
use crate::store::{ColorDepth, Config, Dirs, Pool, Saves, Stats, Themes, read_checked_or_backup};

use super::action::{Action, Command, GAME_KIND};
use super::app::{App, Effect, MENU_SIZES};
use super::keymap::Keymap;
use super::style::Styles;
mod files;
mod import;
mod keep;
mod reader;
mod waits;

use files::{claim_slot, game_of};
pub(crate) use files::{unfinished_name, unfinished_said};
pub use import::{import_file, import_text};
use keep::FileKeep;
pub(crate) use waits::Waits;

use super::worker::{self, JobKind, Ticket, TraceOut};

/// Time between ticks (clock, spinner, autosave debounce).
pub const TICK: Duration = Duration::from_millis(250);

/// Time between frames while the solver view plays (60 a second).
pub const FRAME: Duration = Duration::from_micros(16_667);

/// Trace events the channel from a traced job holds before the solver
/// waits for the playback.
pub const TRACE_CAPACITY: usize = 8192;

/// The longest a frame spends taking trace events off the channel.
const TRACE_PULL: Duration = Duration::from_millis(6);

/// Everything the runner needs besides the terminal: the jobs under way,
/// the looks, and where the player's things are kept.
pub(crate) struct Context {
    pub(crate) jobs: Jobs,
    pub(crate) look: Look,
    /// Files for the local game, the player's rows for a served one.
    pub(crate) keep: Box<dyn Keep>,
}

/// The jobs and reads under way and their channels.
pub(crate) struct Jobs {
    /// Where jobs go to the worker.
    pub(crate) jobs: Sender<Ticket>,
    /// Where the reading threads send what they read.
    pub(crate) reads: Sender<Action>,
    pub(crate) cancels: Cancels,
    /// The traced job's events, while the solver view plays one.
    trace: Option<TraceLink>,
}

/// What the themes are picked from: the bundled and the player's themes,
/// the terminal's colours, and its environment (`NO_COLOR`).
pub(crate) struct Look {
    pub(crate) themes: Themes,
    pub(crate) depth: ColorDepth,
    pub(crate) env: Env,
}

/// The terminal's environment variables: the process's own locally, what
/// the SSH client sent when served.
pub(crate) enum Env {
    /// This process's.
    Process,
    /// These (the rest are unset).
    Given(std::collections::HashMap<String, String>),
}

impl Env {
    /// The variable `k`, if set.
    pub(crate) fn get(&self, k: &str) -> Option<String> {
        match self {
            Env::Process => std::env::var(k).ok(),
            Env::Given(vars) => vars.get(k).cloned(),
        }
    }
}

impl Look {
    /// The styles of the theme `name` for this terminal.
    pub(crate) fn styles(&self, name: &str) -> Styles {
        let theme = self.themes.pick(name, self.depth);
        Styles::for_terminal(theme, self.depth, |k| self.env.get(k))
    }
}

/// Where a game's things are kept: the effects about saves, settings,
/// statistics and the puzzle pool go here. The local game keeps files
/// ([`FileKeep`]); a served game keeps the player's rows in the server's
/// database (`serve::session`).
pub(crate) trait Keep {
    /// Performs one such effect; some answer with an action for the app.
    /// Reads may go to threads of their own (registered in `jobs`).
    fn keep(&mut self, e: Effect, jobs: &mut Jobs) -> Option<Action>;
}

/// The cancel flags of the jobs and reads under way, by id.
pub(crate) type Cancels = Vec<(u64, Arc<AtomicBool>)>;

/// Whether the autosave is failing, so the player is told once when it
/// starts failing (a read-only or full disk) and once when it works again,
/// not after every move.
#[derive(Debug, Default)]
pub(crate) struct SaveReport {
    failing: bool,
}

impl SaveReport {
    /// What to tell the player after an autosave, if anything.
    pub(crate) fn after(&mut self, written: Result<(), impl std::fmt::Display>) -> Option<String> {
        match (written, self.failing) {
            (Err(e), false) => {
                self.failing = true;
                Some(format!(
                    "autosave failed: {e}; the game goes on and saving is retried after each move"
                ))
            }
            (Ok(()), true) => {
                self.failing = false;
                Some("autosave works again".into())
            }
            _ => None,
        }
    }
}

/// The receiving end of a traced job.
struct TraceLink {
    job: u64,
    events: Receiver<crate::engine::TraceEvent>,
    mute: Arc<AtomicBool>,
}

impl Jobs {
    /// Jobs sent to `jobs`, reads answered on `reads`.
    pub(crate) fn new(jobs: Sender<Ticket>, reads: Sender<Action>) -> Jobs {
        Jobs {
            jobs,
            reads,
            cancels: Vec::new(),
            trace: None,
        }
    }

    /// Keeps the cancel flag of the job or read `id` until it ends.
    pub(crate) fn track(&mut self, id: u64, flag: Arc<AtomicBool>) {
        self.cancels.retain(|(_, f)| !f.load(Ordering::Relaxed));
        self.cancels.push((id, flag));
    }

    /// Raises every cancel flag (the game is ending).
    pub(crate) fn cancel_all(&self) {
        for (_, flag) in &self.cancels {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Hands the app the trace events it wants, taking at most what is
    /// already on the channel (never waiting for the solver) and for at
    /// most [`TRACE_PULL`]. A muted trace is drained and dropped.
    pub(crate) fn pull_trace(&mut self, app: &App) -> Option<Action> {
        let link = self.trace.as_ref()?;
        if link.mute.load(Ordering::Relaxed) {
            while link.events.try_recv().is_ok() {}
            return None;
        }
        let (job, want) = app.trace_wanted()?;
        if job != link.job || want == 0 {
            return None;
        }
        let start = Instant::now();
        let mut events = Vec::with_capacity(want.min(TRACE_CAPACITY));
        let mut ended = false;
        while events.len() < want {
            match link.events.try_recv() {
                Ok(e) => events.push(e),
                Err(crossbeam_channel::TryRecvError::Empty) => break,
                Err(crossbeam_channel::TryRecvError::Disconnected) => {
                    ended = true;
                    break;
                }
            }
            if events.len() % 1024 == 0 && start.elapsed() >= TRACE_PULL {
                break;
            }
        }
        if ended {
            self.trace = None;
        }
        (ended || !events.is_empty()).then_some(Action::Trace { job, events, ended })
    }
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Builds the app from the user's files: config, themes, key bindings,
/// the autosave's summary. Problems are collected in `app.issues`. The
/// themes are returned too, for switching later.
pub fn build_app(dirs: &Dirs, autosave: &Path, depth: ColorDepth) -> (App, Themes) {
    let mut issues = Vec::new();
    let (config, cfg_issues) = Config::load(&dirs.config_file());
    issues.extend(cfg_issues.iter().map(|i| i.to_string()));
    let (themes, theme_issues) = Themes::load(&dirs.themes_dir());
    issues.extend(theme_issues.iter().map(|i| i.to_string()));
    let theme = themes.pick(&config.theme, depth);
    if config.theme != "auto" && theme.name != config.theme {
        issues.push(format!(
            "{}: theme: no theme named `{}`; using `{}`",
            dirs.config_file().display(),
            config.theme,
            theme.name
        ));
    }
    let styles = Styles::for_terminal(theme, depth, |k| std::env::var(k).ok());
    let (keymap, key_issues) = Keymap::with_overrides(&config.keys);
    let cfg = dirs.config_file();
    issues.extend(
        key_issues
            .into_iter()
            .map(|i| format!("{}: {i}", cfg.display())),
    );
    let mut app = App::new(
        config,
        styles,
        keymap,
        now_secs() ^ u64::from(std::process::id()),
    );
    app.issues = issues;
    app.themes = themes.names().iter().map(|s| s.to_string()).collect();
    match read_checked_or_backup(autosave, GAME_KIND, GAME_SAVE_VERSION, game_of) {
        Ok(r) => {
            if let Some(e) = &r.from_backup {
                app.issues
                    .push(format!("autosave: {e}; Continue uses its backup"));
            }
            // Through update, so the menu's focus starts on Continue.
            app.update(Action::AutosaveFound(Some(r.meta)));
        }
        Err(crate::store::LoadError::NotFound { .. }) => {}
        Err(
            e @ (crate::store::LoadError::TooNew { kept_as: None, .. }
            | crate::store::LoadError::TooLarge { .. }),
        ) => {
            // Kept where it is: autosaving would overwrite it.
            app.config.play.autosave = false;
            app.issues.push(format!(
                "autosave: {e}; autosave is off for this session so that file is not overwritten"
            ));
        }
        Err(e) => app.issues.push(format!("autosave: {e}")),
    }
    (app, themes)
}

/// Runs the game until the player quits.
pub fn run() -> io::Result<()> {
    // Without a terminal (a service, `setsid … </dev/null`, a pipe) there
    // is nothing to play in: say so instead of failing inside ratatui.
    if !(io::stdin().is_terminal() && io::stdout().is_terminal()) {
        return Err(io::Error::other(
            "the game needs a terminal to play in, and stdin or stdout is not one \
             (the batch commands, e.g. `dekadoku solve`, work without)",
        ));
    }
    let dirs = Dirs::resolve().map_err(io::Error::other)?;
    let depth = ColorDepth::from_env();
    let (autosave_file, slot, slot_said) = claim_slot(&dirs);
    let (mut app, themes) = build_app(&dirs, &autosave_file, depth);
    app.issues.extend(slot_said);
    // Save dates in the player's own time (UTC where the system has no zone).
    app.time_zone = jiff::tz::TimeZone::system();
    // Temp files of writes a crash or a kill cut short (never the saves).
    let stale = Duration::from_secs(600);
    if let Some(data) = dirs.autosave_file().parent() {
        crate::store::remove_stale_temps(data, stale);
    }
    crate::store::remove_stale_temps(&dirs.saves_dir(), stale);
    let (stats, stats_issue) = Stats::load(&dirs.stats_file());
    if let Some(i) = stats_issue {
        app.issues.push(i.to_string());
    }
    let (job_tx, job_rx) = unbounded();
    let (res_tx, res_rx) = unbounded();
    let _worker = worker::spawn(job_rx, res_tx)?;
    let (read_tx, read_rx) = unbounded();
    let pool = Pool::new(dirs.pool_dir());
    read_pool_counts(&pool, &mut app);
    let autosave_file_shown = autosave_file.clone();
    let mut ctx = Context {
        jobs: Jobs::new(job_tx, read_tx),
        look: Look {
            themes,
            depth,
            env: Env::Process,
        },
        keep: Box::new(FileKeep {
            pool,
            saves: Saves::new(dirs.saves_dir()),
            dirs,
            stats,
            autosave_file,
            _slot: slot,
            autosave: SaveReport::default(),
        }),
    };

    let mut terminal = ratatui::try_init()?;
    // ratatui's hook restores the screen on a panic (raw mode off, the
    // alternate screen left, the cursor shown) and prints the message; ours
    // first turns off what we turned on, so the shell is not left with
    // mouse reporting, and then says where the last autosave is.
    let restore = std::panic::take_hook();
    let autosave = autosave_file_shown;
    std::panic::set_hook(panic_hook(move |info| {
        let _ = execute!(
            io::stdout(),
            DisableMouseCapture,
            DisableBracketedPaste,
            DisableFocusChange
        );
        restore(info);
        note!(
            "dekadoku stopped on an internal error (above). Your game was last autosaved to {}; \
             Continue on the start screen resumes it.",
            autosave.display()
        );
    }));
    let mouse = app.config.play.mouse;
    let _ = execute!(io::stdout(), EnableBracketedPaste, EnableFocusChange);
    if mouse {
        let _ = execute!(io::stdout(), EnableMouseCapture);
    }
    let result = (|| -> io::Result<()> {
        let size = terminal.size()?;
        app.update(Action::Resize(size.width, size.height));
        let today = Date::today();
        app.update(Action::Today(today));
        let mut waits = Waits {
            input: spawn_input()?,
            results: res_rx,
            reads: read_rx,
            signals: spawn_signals(),
            ticker: tick(TICK),
            last: Instant::now(),
            today: Some(today),
            input_gone: false,
        };
        play(&mut terminal, &mut app, &mut ctx, &mut waits)
    })();
    if mouse {
        let _ = execute!(io::stdout(), DisableMouseCapture);
    }
    let _ = execute!(io::stdout(), DisableBracketedPaste, DisableFocusChange);
    ratatui::restore();
    // Jobs still running stop; a read stuck in the system is not waited
    // for (its thread ends with the process).
    ctx.jobs.cancel_all();
    result
}

/// The game loop: draw, wait, act, until the app quits.
///
/// A frame that cannot be drawn means the terminal is gone (an SSH
/// connection dropped, its hang-up not yet here): the game quits as if
/// asked, which writes the autosave, and then returns the error. Returning
/// at once would lose the moves of the last second, the autosave being
/// written a moment after each move; which of the hang-up, the closed
/// input and the clock's tick wakes the loop first is down to the
/// scheduler.
fn play<B: Backend<Error = io::Error>>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    ctx: &mut Context,
    waits: &mut Waits,
) -> io::Result<()> {
    loop {
        let area = match terminal.draw(|f| super::ui::draw(f, app)) {
            Ok(frame) => frame.area,
            Err(e) => {
                run_action(app, ctx, Action::Command(Command::Quit));
                return Err(e);
            }
        };
        // Keys act on the screen the player sees: the frame is drawn at
        // the window's size even when its resize event is still on the
        // way (a loaded machine), so scrolling and paging use that size.
        if (area.width, area.height) != app.size {
            app.update(Action::Resize(area.width, area.height));
        }
        for a in waits.next(app.animating(), &mut ctx.jobs.cancels) {
            run_action(app, ctx, a);
        }
        if let Some(a) = ctx.jobs.pull_trace(app) {
            run_action(app, ctx, a);
        }
        if app.is_quitting() {
            return Ok(());
        }
    }
}

/// Whether this thread runs jobs or reads: their panics are caught there
/// and said on the status line ([`JobResult::Failed`],
/// [`LoadGameError::Internal`]) while the game goes on.
fn on_job_thread() -> bool {
    matches!(
        std::thread::current().name(),
        Some(worker::THREAD_NAME | reader::THREAD_NAME)
    )
}

/// The game's panic hook: `leave` (restore the terminal, say where the
/// autosave is) for a panic of the game itself; nothing for a panic of a
/// job or a read, which leaves the screen as it is.
fn panic_hook(
    leave: impl Fn(&PanicHookInfo<'_>) + Send + Sync + 'static,
) -> Box<dyn Fn(&PanicHookInfo<'_>) + Send + Sync + 'static> {
    Box::new(move |info| {
        if !on_job_thread() {
            leave(info);
        }
    })
}

/// Applies one action and performs the effects it asks for, feeding
/// their answers back in.
pub(crate) fn run_action(app: &mut App, ctx: &mut Context, a: Action) {
    let mut queue = vec![a];
    while let Some(a) = queue.pop() {
        for e in app.update(a) {
            if let Some(back) = perform(ctx, e) {
                queue.push(back);
            }
        }
    }
}

/// SIGTERM and SIGHUP, as messages on a channel (a thread waits for them;
/// the handler itself only records the signal). A channel that never
/// speaks where signals cannot be caught.
fn spawn_signals() -> Receiver<i32> {
    let (tx, rx) = bounded(4);
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGTERM};
        if let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP]) {
            let _ = std::thread::Builder::new()
                .name("dekadoku-signals".into())
                .spawn(move || {
                    for sig in signals.forever() {
                        if tx.send(sig).is_err() {
                            break;
                        }
                    }
                });
            return rx;
        }
    }
    drop(tx);
    never()
}

/// The input thread: terminal events as actions. It ends when the channel
/// closes (the loop is gone) or the terminal fails.
fn spawn_input() -> io::Result<Receiver<Action>> {
    let (tx, rx) = bounded(256);
    std::thread::Builder::new()
        .name("dekadoku-input".into())
        .spawn(move || {
            while let Ok(ev) = event::read() {
                let action = match ev {
                    Event::Key(k) => Action::Key(k),
                    Event::Paste(t) => Action::Paste(t),
                    Event::Resize(w, h) => Action::Resize(w, h),
                    Event::FocusGained => Action::Focus(true),
                    Event::FocusLost => Action::Focus(false),
                    Event::Mouse(m) if m.kind == MouseEventKind::Down(MouseButton::Left) => {
                        Action::Click {
                            x: m.column,
                            y: m.row,
                        }
                    }
                    _ => continue,
                };
                if tx.send(action).is_err() {
                    break;
                }
            }
        })?;
    Ok(rx)
}

/// Performs one effect; some answer with an action for the app. Jobs and
/// looks are the runner's; the rest goes to where things are kept.
pub(crate) fn perform(ctx: &mut Context, e: Effect) -> Option<Action> {
    let jobs = &mut ctx.jobs;
    match e {
        Effect::Start(job) => {
            let flag = Arc::new(AtomicBool::new(false));
            jobs.track(job.id, Arc::clone(&flag));
            let out = matches!(job.kind, JobKind::Trace { .. }).then(|| {
                let (tx, rx) = bounded(TRACE_CAPACITY);
                let mute = Arc::new(AtomicBool::new(false));
                jobs.trace = Some(TraceLink {
                    job: job.id,
                    events: rx,
                    mute: Arc::clone(&mute),
                });
                TraceOut { events: tx, mute }
            });
            let _ = jobs.jobs.send((job, flag, out));
            None
        }
        Effect::Cancel(id) => {
            for (j, f) in &jobs.cancels {
                if *j == id {
                    f.store(true, Ordering::Relaxed);
                }
            }
            // Dropping the receiver wakes a solver waiting on a full channel.
            if jobs.trace.as_ref().is_some_and(|t| t.job == id) {
                jobs.trace = None;
            }
            None
        }
        Effect::MuteTrace(id) => {
            if let Some(t) = jobs.trace.as_ref().filter(|t| t.job == id) {
                t.mute.store(true, Ordering::Relaxed);
                while t.events.try_recv().is_ok() {}
            }
            None
        }
        Effect::SetTheme(name) => {
            let styles = ctx.look.styles(&name);
            Some(Action::Theme(name, Box::new(styles)))
        }
        Effect::Quit => None,
        e => ctx.keep.keep(e, jobs),
    }
}

/// Takes a puzzle of `shape` and `level` from `pool`: the answer for the
/// app. A pool that cannot be rewritten gives nothing (its puzzle stays
/// pooled): the game generates one instead.
pub(crate) fn take_pooled(pool: &Pool, shape: crate::engine::Shape, level: Level) -> Action {
    let (entry, left) = pool
        .take(shape, level)
        .unwrap_or_else(|_| (None, pool.count(shape, level)));
    Action::Pooled {
        shape,
        level,
        entry: entry.map(Box::new),
        left,
    }
}

/// Puts a puzzle in `pool`: the answer for the app. A failed write leaves
/// the pool as it was: the refill is lost, nothing else.
pub(crate) fn add_pooled(pool: &Pool, entry: crate::store::PoolEntry) -> Action {
    let (shape, level) = (entry.puzzle.shape(), entry.level);
    let count = pool.add(entry).unwrap_or_else(|_| pool.count(shape, level));
    Action::PoolCount(shape, level, count)
}

/// Tells the app how many puzzles the pool holds for each menu size and
/// level; problems with its files go to the app's issues.
pub(crate) fn read_pool_counts(pool: &Pool, app: &mut App) {
    for shape in MENU_SIZES {
        for level in Level::ALL {
            let (entries, warning) = pool.read(shape, level);
            app.issues.extend(warning.map(|w| w.to_string()));
            app.pool.set_count(shape, level, entries.len());
        }
    }
}

#[cfg(test)]
mod tests;
