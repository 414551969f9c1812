//! The SSH server (russh on tokio): admission (connections in all, per
//! address, and new connections a minute per address), public-key
//! identity (any key; no passwords), one game per connection on a thread
//! of its own ([`session::run`]), everything but the game refused, and a
//! log line per event on stderr.
//!
//! What a connection may do: open one session channel, ask for a pty, send
//! `TERM`/`COLORTERM`/`NO_COLOR`, start the shell (the game) and resize
//! it. `exec`, `subsystem` (sftp), X11, agent forwarding, and every TCP or
//! socket forwarding are refused and logged.

use std::collections::{HashMap, VecDeque};
use std::io::{self, Write as _};
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossbeam_channel::{Sender, TrySendError};
use russh::keys::ssh_key::{HashAlg, LineEnding, PrivateKey, private::Ed25519Keypair};
use russh::server::{Auth, ChannelOpenHandle, Handler, Msg, Session};
use russh::{Channel, ChannelId, MethodKind, MethodSet, Pty};
use tokio::net::TcpListener;

use super::input::InputDecoder;
use super::session::{self, End, Gone, Shared, Slots, Term, ToClient, Who};
use super::store::{PlayerKey, PlayerStore, Postgres, Sqlite, StoreLimits};
use crate::store::{Pool, ServeConfig, Themes, unix_now};
use crate::tui::action::{Action, Command};

/// How long a lone ESC waits for the rest of a sequence before it is the
/// Esc key.
const ESC_WAIT: Duration = Duration::from_millis(50);

/// Actions queued from a connection to its game before the connection
/// waits (the bytes wait in SSH's own flow control meanwhile).
const INPUT_QUEUE: usize = 32;

/// How often idle connections are looked for.
const IDLE_CHECK: Duration = Duration::from_secs(5);

/// Everything `dekadoku serve` is told.
#[derive(Debug, Clone)]
pub struct Options {
    /// The `[serve]` settings, with the command line's over the file's.
    pub config: ServeConfig,
    /// `serve/` in the data folder: the host key's, the SQLite file's and
    /// the pool's default place.
    pub dir: PathBuf,
    /// Log connections to stderr.
    pub log: bool,
}

impl Options {
    /// The host key file.
    pub fn host_key_path(&self) -> PathBuf {
        match self.config.host_key.as_str() {
            "" => self.dir.join("host_key"),
            p => PathBuf::from(p),
        }
    }
}

/// One log line on stderr: the time, an event and `key=value` fields
/// (values with spaces are quoted).
pub fn log(event: &str, fields: &[(&str, &dyn std::fmt::Display)]) {
    let mut line = format!(
        "{} {event}",
        jiff::Timestamp::now()
            .round(jiff::Unit::Second)
            .unwrap_or_else(|_| jiff::Timestamp::now())
    );
    for (k, v) in fields {
        let v = v.to_string();
        if v.is_empty() || v.contains([' ', '"', '=']) {
            line.push_str(&format!(" {k}={v:?}"));
        } else {
            line.push_str(&format!(" {k}={v}"));
        }
    }
    line.push('\n');
    let _ = io::stderr().write_all(line.as_bytes());
}

/// The server's host key: read from `path`, or made (Ed25519) and written
/// there readable by its owner only (0600) on first start, so that
/// clients see the same key every time. A key file others can read is
/// refused, as OpenSSH refuses one.
pub fn host_key(path: &Path) -> io::Result<PrivateKey> {
    let named = |what: String| io::Error::other(format!("{}: {what}", path.display()));
    match std::fs::read_to_string(path) {
        Ok(text) => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let mode = std::fs::metadata(path)?.permissions().mode() & 0o777;
                if mode & 0o077 != 0 {
                    return Err(named(format!(
                        "the host key can be read by others (mode {mode:04o}); \
                         `chmod 600` it, or remove it for a new one"
                    )));
                }
            }
            PrivateKey::from_openssh(text.trim_end().as_bytes())
                .map_err(|e| named(format!("not an OpenSSH private key ({e})")))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let mut seed = [0u8; 32];
            getrandom::fill(&mut seed)
                .map_err(|e| named(format!("no random source for a new key ({e})")))?;
            let key = PrivateKey::from(Ed25519Keypair::from_seed(&seed));
            let text = key
                .to_openssh(LineEnding::LF)
                .map_err(|e| named(format!("cannot encode the new key ({e})")))?;
            if let Some(dir) = path.parent() {
                private_dir(dir).map_err(|e| named(e.to_string()))?;
            }
            let mut open = std::fs::OpenOptions::new();
            open.write(true).create_new(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::OpenOptionsExt;
                open.mode(0o600);
            }
            let mut file = open.open(path).map_err(|e| named(e.to_string()))?;
            file.write_all(text.as_bytes())
                .and_then(|()| file.sync_all())
                .map_err(|e| named(e.to_string()))?;
            Ok(key)
        }
        Err(e) => Err(named(e.to_string())),
    }
}

/// Makes the folder `dir` if it is missing, readable by its owner only
/// (0700: it holds the host key and the players' games); a folder that is
/// already there is left as it is.
fn private_dir(dir: &Path) -> io::Result<()> {
    if dir.as_os_str().is_empty() || dir.exists() {
        return Ok(());
    }
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        b.mode(0o700);
    }
    b.create(dir)
}

/// Whether `database` names a PostgreSQL server: a `postgres://` or
/// `postgresql://` URL, or a libpq `key=value` string (`host=… dbname=…`).
fn is_postgres(database: &str) -> bool {
    let db = database.trim();
    db.starts_with("postgres://")
        || db.starts_with("postgresql://")
        || db.split_whitespace().any(|w| {
            ["host=", "hostaddr=", "dbname=", "user=", "port="]
                .iter()
                .any(|k| w.starts_with(k))
        })
}

/// Opens the players' database `database` names: "" for SQLite in `dir`,
/// a PostgreSQL URL or `key=value` string, or a path to an SQLite file.
pub fn open_store(database: &str, dir: &Path) -> io::Result<Arc<dyn PlayerStore>> {
    let limits = StoreLimits::default();
    let db = database.trim();
    if is_postgres(db) {
        let pg = Postgres::connect(db, limits)
            .map_err(|e| io::Error::other(format!("database: {e}")))?;
        return Ok(Arc::new(pg));
    }
    let path = if db.is_empty() {
        dir.join("players.sqlite3")
    } else {
        PathBuf::from(db)
    };
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        private_dir(parent).map_err(|e| io::Error::other(format!("{}: {e}", parent.display())))?;
    }
    let lite = Sqlite::open(&path, limits)
        .map_err(|e| io::Error::other(format!("{}: {e}", path.display())))?;
    Ok(Arc::new(lite))
}

/// The source the per-address limits count a connection against: an IPv4
/// address (also when it comes mapped into IPv6), or an IPv6 address's
/// /64 network, since one host is commonly given a whole /64 and could
/// otherwise take a new address for every connection.
fn source(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !u128::from(u64::MAX)).into()),
        },
    }
}

/// Who is connected and how often they came: the admission limits.
#[derive(Debug, Default)]
struct Admission {
    total: u32,
    by_addr: HashMap<IpAddr, u32>,
    recent: HashMap<IpAddr, VecDeque<Instant>>,
}

impl Admission {
    /// Takes a place for a connection from `ip`, or says why not.
    fn admit(&mut self, ip: IpAddr, cfg: &ServeConfig, now: Instant) -> Result<(), &'static str> {
        let ip = source(ip);
        let recent = self.recent.entry(ip).or_default();
        while recent
            .front()
            .is_some_and(|t| now.duration_since(*t) >= Duration::from_secs(60))
        {
            recent.pop_front();
        }
        if recent.len() >= cfg.connects_per_minute as usize {
            return Err("too many new connections a minute from this address");
        }
        recent.push_back(now);
        if self.total >= cfg.max_connections {
            return Err("the server is full");
        }
        let here = self.by_addr.entry(ip).or_default();
        if *here >= cfg.max_per_address {
            return Err("too many connections from this address");
        }
        *here += 1;
        self.total += 1;
        Ok(())
    }

    /// Gives back the place of a connection from `ip`.
    fn release(&mut self, ip: IpAddr) {
        let ip = source(ip);
        self.total = self.total.saturating_sub(1);
        if let Some(n) = self.by_addr.get_mut(&ip) {
            *n -= 1;
            if *n == 0 {
                self.by_addr.remove(&ip);
            }
        }
        // Forget addresses that stopped coming.
        if self.recent.len() > 10_000 {
            let now = Instant::now();
            self.recent.retain(|_, q| {
                q.back()
                    .is_some_and(|t| now.duration_since(*t) < Duration::from_secs(60))
            });
        }
    }
}

/// The server's state shared by its connections.
struct Server {
    shared: Arc<Shared>,
    config: ServeConfig,
    admission: Mutex<Admission>,
    /// The games in play, by connection: told to quit when the server
    /// stops, or when their player starts a game on another connection.
    games: Mutex<HashMap<u64, Live>>,
    next_id: AtomicU64,
}

/// A game in play.
struct Live {
    player: super::store::PlayerId,
    input: Sender<Action>,
}

/// How long the server waits for games told to quit (each saves first),
/// and for a closed connection's game to end.
const QUIT_WAIT: Duration = Duration::from_secs(5);

impl Server {
    /// How many games in play `which` picks.
    fn playing(&self, which: impl Fn(&Live) -> bool) -> usize {
        self.games
            .lock()
            .map(|g| g.values().filter(|live| which(live)).count())
            .unwrap_or(0)
    }

    /// Tells the games `which` picks to quit (each autosaves) and waits,
    /// up to [`QUIT_WAIT`], until none of the games in play is one it picks.
    async fn quit_games(&self, which: impl Fn(&Live) -> bool) {
        if let Ok(g) = self.games.lock() {
            for live in g.values().filter(|live| which(live)) {
                let _ = live.input.try_send(Action::Command(Command::Quit));
            }
        }
        wait_while(|| self.playing(&which) > 0).await;
    }
}

/// Waits while `busy` says so, up to [`QUIT_WAIT`].
async fn wait_while(busy: impl Fn() -> bool) {
    let deadline = Instant::now() + QUIT_WAIT;
    while Instant::now() < deadline && busy() {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// What the log says of a connection when it ends.
#[derive(Debug, Default)]
struct ConnLog {
    fingerprint: Option<String>,
    name: Option<String>,
    /// A game was started (its end is awaited before the line is logged).
    playing: bool,
    end: Option<String>,
}

/// One connection's handler.
struct Conn {
    id: u64,
    server: Arc<Server>,
    peer: SocketAddr,
    log: Arc<Mutex<ConnLog>>,
    who: Option<Who>,
    channel: Option<ChannelId>,
    term: Option<Term>,
    env: HashMap<String, String>,
    /// Where the decoded input goes, once the game runs.
    input: Option<Sender<Action>>,
    decoder: Arc<Mutex<InputDecoder>>,
    /// Bytes fed so far (a pending ESC is flushed only if nothing came
    /// after it).
    fed: Arc<AtomicU64>,
    /// When the client last sent input, in seconds since the epoch.
    last_input: Arc<AtomicU64>,
}

impl Conn {
    fn said(&self, event: &str, what: &str) {
        if logging() {
            let fp = self
                .log
                .lock()
                .map(|l| l.fingerprint.clone())
                .unwrap_or_default();
            log(
                event,
                &[
                    ("addr", &self.peer),
                    ("key", &fp.unwrap_or_default()),
                    ("what", &what),
                ],
            );
        }
    }

    /// Sends actions to the game, waiting (asynchronously) while its
    /// queue is full; a game that has ended takes nothing.
    async fn deliver(&self, actions: Vec<Action>) {
        let Some(tx) = &self.input else {
            return;
        };
        for mut a in actions {
            loop {
                match tx.try_send(a) {
                    Ok(()) => break,
                    Err(TrySendError::Full(back)) => {
                        a = back;
                        tokio::time::sleep(Duration::from_millis(5)).await;
                    }
                    Err(TrySendError::Disconnected(_)) => return,
                }
            }
        }
    }
}

/// Whether connections are logged (`--quiet` turns it off).
static LOG: AtomicBool = AtomicBool::new(true);

/// Whether connections are logged.
fn logging() -> bool {
    LOG.load(Ordering::Relaxed)
}

/// The frames of one game on their way to its channel.
struct Frames(tokio::sync::mpsc::Sender<Vec<u8>>);

impl ToClient for Frames {
    fn send(&self, bytes: Vec<u8>) -> Result<bool, Gone> {
        if bytes.is_empty() {
            return Ok(true);
        }
        match self.0.try_send(bytes) {
            Ok(()) => Ok(true),
            Err(tokio::sync::mpsc::error::TrySendError::Full(_)) => Ok(false),
            Err(tokio::sync::mpsc::error::TrySendError::Closed(_)) => Err(Gone),
        }
    }

    fn has_room(&self) -> bool {
        self.0.capacity() > 0
    }
}

impl Handler for Conn {
    type Error = russh::Error;

    async fn auth_none(&mut self, _user: &str) -> Result<Auth, Self::Error> {
        Ok(Auth::Reject {
            proceed_with_methods: Some(MethodSet::from(&[MethodKind::PublicKey][..])),
            partial_success: false,
        })
    }

    async fn auth_publickey(
        &mut self,
        _user: &str,
        key: russh::server::VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        // Any key: the key is the player.
        let fingerprint = key.public_key.fingerprint(HashAlg::Sha256).to_string();
        let algorithm = key.public_key.algorithm().to_string();
        let store = Arc::clone(&self.server.shared.store);
        let pk = PlayerKey {
            fingerprint: fingerprint.clone(),
            algorithm: algorithm.clone(),
        };
        let player = tokio::task::spawn_blocking(move || store.player(&pk, unix_now()))
            .await
            .map_err(|e| russh::Error::IO(io::Error::other(e.to_string())))?;
        match player {
            Ok(p) => {
                if let Ok(mut l) = self.log.lock() {
                    l.fingerprint = Some(fingerprint);
                    l.name.clone_from(&p.name);
                }
                self.who = Some(Who {
                    id: p.id,
                    name: p.name,
                });
                self.said("auth", &algorithm);
                Ok(Auth::Accept)
            }
            Err(e) => {
                self.said("store-error", &e.to_string());
                Ok(Auth::reject())
            }
        }
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.channel.is_some() {
            self.said("refused", "a second session channel");
            reply
                .reject(russh::ChannelOpenFailure::AdministrativelyProhibited)
                .await;
        } else {
            self.channel = Some(channel.id());
            reply.accept().await;
        }
        Ok(())
    }

    async fn channel_open_x11(
        &mut self,
        _channel: Channel<Msg>,
        _originator_address: &str,
        _originator_port: u32,
        reply: ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.said("refused", "x11 channel");
        reply
            .reject(russh::ChannelOpenFailure::AdministrativelyProhibited)
            .await;
        Ok(())
    }

    async fn channel_open_direct_tcpip(
        &mut self,
        _channel: Channel<Msg>,
        host_to_connect: &str,
        port_to_connect: u32,
        _originator_address: &str,
        _originator_port: u32,
        reply: ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.said(
            "refused",
            &format!("port forwarding to {host_to_connect}:{port_to_connect}"),
        );
        reply
            .reject(russh::ChannelOpenFailure::AdministrativelyProhibited)
            .await;
        Ok(())
    }

    async fn tcpip_forward(
        &mut self,
        address: &str,
        port: &mut u32,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        self.said("refused", &format!("remote forwarding of {address}:{port}"));
        Ok(false)
    }

    async fn streamlocal_forward(
        &mut self,
        socket_path: &str,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        self.said("refused", &format!("socket forwarding of {socket_path}"));
        Ok(false)
    }

    async fn agent_request(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        self.said("refused", "agent forwarding");
        Ok(false)
    }

    async fn x11_request(
        &mut self,
        channel: ChannelId,
        _single_connection: bool,
        _x11_auth_protocol: &str,
        _x11_auth_cookie: &str,
        _x11_screen_number: u32,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.said("refused", "x11 forwarding");
        session.channel_failure(channel)?;
        Ok(())
    }

    async fn exec_request(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let command: String = String::from_utf8_lossy(data).chars().take(80).collect();
        self.said("refused", &format!("exec {command}"));
        session.channel_failure(channel)?;
        let _ = session.extended_data(
            channel,
            1,
            &b"dekadoku serves the game only: connect without a command (ssh -t)\r\n"[..],
        );
        session.close(channel)?;
        Ok(())
    }

    async fn subsystem_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let name: String = name.chars().take(40).collect();
        self.said("refused", &format!("subsystem {name}"));
        session.channel_failure(channel)?;
        session.close(channel)?;
        Ok(())
    }

    async fn env_request(
        &mut self,
        _channel: ChannelId,
        variable_name: &str,
        variable_value: &str,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        // Only what picks the colours; bounded.
        if matches!(variable_name, "TERM" | "COLORTERM" | "NO_COLOR") && variable_value.len() <= 64
        {
            self.env
                .insert(variable_name.to_string(), variable_value.to_string());
        }
        Ok(())
    }

    async fn pty_request(
        &mut self,
        channel: ChannelId,
        term: &str,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _modes: &[(Pty, u32)],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if term.len() <= 64 {
            self.env.insert("TERM".into(), term.to_string());
        }
        self.term = Some(Term {
            size: term_size(col_width, row_height),
            env: HashMap::new(),
        });
        session.channel_success(channel)?;
        Ok(())
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let (Some(who), Some(mut term)) = (self.who.clone(), self.term.clone()) else {
            self.said("refused", "a shell without a terminal");
            session.channel_failure(channel)?;
            let _ = session.data(
                channel,
                &b"dekadoku needs a terminal to play in: connect with ssh -t\r\n"[..],
            );
            session.close(channel)?;
            return Ok(());
        };
        if self.input.is_some() {
            session.channel_failure(channel)?;
            return Ok(());
        }
        term.env = self.env.clone();
        session.channel_success(channel)?;
        if let Ok(mut l) = self.log.lock() {
            l.playing = true;
        }
        let (in_tx, in_rx) = crossbeam_channel::bounded(INPUT_QUEUE);
        let (out_tx, mut out_rx) = tokio::sync::mpsc::channel::<Vec<u8>>(session::OUT_FRAMES);
        self.input = Some(in_tx.clone());
        // One game per player: a game the player has on another
        // connection quits first (it autosaves), and this one continues it.
        let player = who.id;
        let theirs = move |live: &Live| live.player == player;
        if self.server.playing(theirs) > 0 {
            self.said("takeover", "the player's game on another connection quits");
            self.server.quit_games(theirs).await;
        }
        if let Ok(mut games) = self.server.games.lock() {
            games.insert(
                self.id,
                Live {
                    player: who.id,
                    input: in_tx,
                },
            );
        }
        // The frames, in order, at the pace the client takes them.
        let handle = session.handle();
        tokio::spawn(async move {
            while let Some(bytes) = out_rx.recv().await {
                if handle.data(channel, bytes).await.is_err() {
                    break;
                }
            }
            let _ = handle.exit_status_request(channel, 0).await;
            let _ = handle.eof(channel).await;
            let _ = handle.close(channel).await;
        });
        // Idle connections are closed (their game is autosaved as they go).
        let idle = Duration::from_secs(u64::from(self.server.config.idle_minutes) * 60);
        if !idle.is_zero() {
            let handle = session.handle();
            let last = Arc::clone(&self.last_input);
            let log = Arc::clone(&self.log);
            tokio::spawn(async move {
                loop {
                    tokio::time::sleep(IDLE_CHECK).await;
                    // The game is over: nothing left to watch.
                    if log.lock().map(|l| l.end.is_some()).unwrap_or(true) {
                        break;
                    }
                    let quiet = unix_now().saturating_sub(last.load(Ordering::Relaxed));
                    if quiet >= idle.as_secs() {
                        close(&handle, &log, "idle", "idle too long; your game is saved").await;
                        break;
                    }
                }
            });
        }
        let shared = Arc::clone(&self.server.shared);
        let log = Arc::clone(&self.log);
        let server = Arc::clone(&self.server);
        let id = self.id;
        let peer = self.peer;
        std::thread::Builder::new()
            .name("dekadoku-session".into())
            .spawn(move || {
                let frames = Frames(out_tx);
                let end = play_caught(shared, &who, &term, in_rx, &frames, &peer, logging());
                end_reason(&log, &end);
                if let Ok(mut games) = server.games.lock() {
                    games.remove(&id);
                }
            })
            .map_err(russh::Error::IO)?;
        Ok(())
    }

    async fn window_change_request(
        &mut self,
        _channel: ChannelId,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        let size = term_size(col_width, row_height);
        if let Some(t) = &mut self.term {
            t.size = size;
        }
        self.deliver(vec![Action::Resize(size.0, size.1)]).await;
        Ok(())
    }

    async fn data(
        &mut self,
        _channel: ChannelId,
        data: &[u8],
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.last_input.store(unix_now(), Ordering::Relaxed);
        let (actions, pending) = {
            let mut d = self.decoder.lock().unwrap_or_else(|p| p.into_inner());
            let actions = d.feed(data);
            (actions, d.buffered() > 0)
        };
        let mark = self.fed.fetch_add(1, Ordering::Relaxed) + 1;
        self.deliver(actions).await;
        if pending && let Some(tx) = self.input.clone() {
            // A lone ESC (or a cut sequence): if nothing follows soon, it
            // was the Esc key.
            let decoder = Arc::clone(&self.decoder);
            let fed = Arc::clone(&self.fed);
            tokio::spawn(async move {
                tokio::time::sleep(ESC_WAIT).await;
                if fed.load(Ordering::Relaxed) == mark {
                    let actions = decoder.lock().unwrap_or_else(|p| p.into_inner()).flush();
                    for a in actions {
                        let _ = tx.try_send(a);
                    }
                }
            });
        }
        Ok(())
    }

    async fn channel_eof(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        // The game quits (and autosaves) when its input closes.
        self.input = None;
        Ok(())
    }

    async fn channel_close(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.input = None;
        Ok(())
    }
}

/// What a client is shown when its game panics (its screen given back:
/// mouse and paste modes off, the cursor shown, the main screen).
const PANIC_NOTE: &[u8] = b"\x1b[?1000l\x1b[?1006l\x1b[?2004l\x1b[?25h\x1b[?1049l\r\n\
    dekadoku: this game stopped on an internal error; it was autosaved at most a \
    second before. Connect again to continue.\r\n";

/// Plays one connection's game, catching its panic: the session ends, the
/// client is told, the panic is logged, the server goes on. What the log
/// says of the end.
fn play_caught(
    shared: Arc<Shared>,
    who: &Who,
    term: &Term,
    input: crossbeam_channel::Receiver<Action>,
    frames: &dyn ToClient,
    peer: &SocketAddr,
    logged: bool,
) -> String {
    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        session::run(shared, who, term, input, frames)
    }));
    match ran {
        Ok(Ok(End::Quit)) => "quit".to_string(),
        Ok(Ok(End::Disconnected)) => "disconnected".to_string(),
        Ok(Err(e)) => format!("error: {e}"),
        Err(panic) => {
            let text = crate::tui::worker::panic_text(panic.as_ref());
            if logged {
                log("panic", &[("addr", peer), ("what", &text)]);
            }
            let _ = frames.send(PANIC_NOTE.to_vec());
            format!("panic: {text}")
        }
    }
}

/// A terminal's columns and rows from the client, kept to what the game
/// can draw; 0 (the client did not say, as `ssh -tt` from a pipe) is the
/// classic 80×24.
fn term_size(cols: u32, rows: u32) -> (u16, u16) {
    let side = |n: u32, unsaid: u16| match n {
        0 => unsaid,
        n => n.min(1000) as u16,
    };
    (side(cols, 80), side(rows, 24))
}

/// Runs the server until SIGINT or SIGTERM: then every game is told to
/// quit (each autosaves) and the server waits a few seconds for them.
pub fn serve(opts: Options) -> io::Result<()> {
    if !opts.log {
        LOG.store(false, Ordering::Relaxed);
    }
    // A panic anywhere (a session, a job, a read: each is caught where it
    // runs) is one log line, with where it happened.
    std::panic::set_hook(Box::new(|info| {
        if !logging() {
            return;
        }
        let thread = std::thread::current();
        let what = crate::tui::worker::panic_text(info.payload());
        let at = info
            .location()
            .map(|l| format!("{}:{}", l.file(), l.line()))
            .unwrap_or_default();
        log(
            "panic-hook",
            &[
                ("thread", &thread.name().unwrap_or("-")),
                ("what", &what),
                ("at", &at),
            ],
        );
    }));
    // The key and the store before the runtime: the PostgreSQL client is
    // synchronous (it runs a runtime of its own), so it is never called
    // from the server's async tasks, only from the sessions' threads and
    // through spawn_blocking.
    let key = host_key(&opts.host_key_path())?;
    let store = open_store(&opts.config.database, &opts.dir)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(run(opts, key, store))
}

async fn run(opts: Options, key: PrivateKey, store: Arc<dyn PlayerStore>) -> io::Result<()> {
    let cfg = opts.config.clone();
    let addr: SocketAddr = cfg
        .listen
        .parse()
        .map_err(|e| io::Error::other(format!("--listen {}: {e}", cfg.listen)))?;
    let key_path = opts.host_key_path();
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let shared = Arc::new(Shared {
        store,
        pool: Mutex::new(Pool::new(opts.dir.join("pool"))),
        themes: Themes::bundled(),
        max_import_side: cfg.max_import_side as usize,
        job_time: Duration::from_secs(u64::from(cfg.job_seconds.max(1))),
        job_memory: (cfg.job_memory_mb > 0).then(|| u64::from(cfg.job_memory_mb) << 20),
        job_slots: Slots::new(cores),
    });
    let server = Arc::new(Server {
        shared,
        config: cfg.clone(),
        admission: Mutex::new(Admission::default()),
        games: Mutex::new(HashMap::new()),
        next_id: AtomicU64::new(1),
    });
    let config = Arc::new(russh::server::Config {
        methods: MethodSet::from(&[MethodKind::PublicKey][..]),
        keys: vec![key.clone()],
        auth_rejection_time: Duration::from_secs(1),
        auth_rejection_time_initial: Some(Duration::ZERO),
        max_auth_attempts: 6,
        // Idle players are found by their input (`idle_minutes`); the
        // keepalives find clients that vanished without closing.
        inactivity_timeout: None,
        keepalive_interval: Some(Duration::from_secs(60)),
        keepalive_max: 3,
        nodelay: true,
        ..Default::default()
    });
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|e| io::Error::other(format!("cannot listen on {addr}: {e}")))?;
    let bound = listener.local_addr()?;
    if logging() {
        let fp = key.public_key().fingerprint(HashAlg::Sha256);
        log(
            "listening",
            &[
                ("addr", &bound),
                ("host_key", &key_path.display()),
                ("host_key_fingerprint", &fp),
                ("database", &describe_db(&cfg.database, &opts.dir)),
            ],
        );
    }
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let (socket, peer) = match accepted {
                    Ok(x) => x,
                    Err(e) => {
                        log("accept-error", &[("what", &e)]);
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                };
                let admitted = server
                    .admission
                    .lock()
                    .map_err(|_| "poisoned")
                    .and_then(|mut a| a.admit(peer.ip(), &cfg, Instant::now()));
                if let Err(why) = admitted {
                    if logging() {
                        log("refused", &[("addr", &peer), ("what", &why)]);
                    }
                    drop(socket);
                    continue;
                }
                tokio::spawn(connection(Arc::clone(&server), Arc::clone(&config), socket, peer));
            }
            _ = tokio::signal::ctrl_c() => break,
            _ = term.recv() => break,
        }
    }
    // Stop: every game quits, which autosaves it.
    if logging() {
        log("stopping", &[("games", &server.playing(|_| true))]);
    }
    server.quit_games(|_| true).await;
    Ok(())
}

/// The database as the log names it: the SQLite file, or the PostgreSQL
/// server's user, hosts, ports and database as the client library parses
/// them from the URL or `key=value` string, so no form of a password
/// (quoted with spaces, `password = x`, `?password=` in a URL) can reach
/// the log. A string the library cannot parse is not shown at all.
fn describe_db(database: &str, dir: &Path) -> String {
    let db = database.trim();
    if db.is_empty() {
        return dir.join("players.sqlite3").display().to_string();
    }
    if !is_postgres(db) {
        return db.to_string();
    }
    let Ok(config) = db.parse::<postgres::Config>() else {
        return "PostgreSQL (a connection string that does not parse)".to_string();
    };
    let mut parts = vec!["PostgreSQL".to_string()];
    if let Some(user) = config.get_user() {
        parts.push(format!("user={user}"));
    }
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .map(|h| match h {
            postgres::config::Host::Tcp(name) => name.clone(),
            #[cfg(unix)]
            postgres::config::Host::Unix(path) => path.display().to_string(),
        })
        .collect();
    if !hosts.is_empty() {
        parts.push(format!("host={}", hosts.join(",")));
    }
    let ports: Vec<String> = config.get_ports().iter().map(u16::to_string).collect();
    if !ports.is_empty() {
        parts.push(format!("port={}", ports.join(",")));
    }
    if let Some(name) = config.get_dbname() {
        parts.push(format!("dbname={name}"));
    }
    parts.join(" ")
}

/// Runs a connection's SSH session to its end, closing it once
/// `login_seconds` have passed without a game started (a shell granted):
/// a client that never sends its greeting, never authenticates, or logs in
/// and never asks for a terminal (`ssh -N`) would otherwise hold one of
/// the places [`Admission`] counts for as long as it likes. The end's
/// reason is then `login-timeout`.
async fn logged_in_or_closed(
    server: &Server,
    config: Arc<russh::server::Config>,
    socket: tokio::net::TcpStream,
    conn: Conn,
    log: &Mutex<ConnLog>,
) -> Result<(), russh::Error> {
    let grace = Duration::from_secs(u64::from(server.config.login_seconds.max(1)));
    let until = tokio::time::Instant::now() + grace;
    // The greeting and the key exchange's start: dropping the future
    // closes the socket.
    let running =
        match tokio::time::timeout_at(until, russh::server::run_stream(config, socket, conn)).await
        {
            Ok(Ok(running)) => running,
            Ok(Err(e)) => return Err(e),
            Err(_) => {
                end_reason(log, "login-timeout");
                return Ok(());
            }
        };
    let handle = running.handle();
    let mut running = std::pin::pin!(running);
    tokio::select! {
        result = &mut running => return result,
        () = tokio::time::sleep_until(until) => {}
    }
    if !log.lock().map(|l| l.playing).unwrap_or(false) {
        close(&handle, log, "login-timeout", "no game started in time").await;
    }
    running.await
}

/// Sets the reason the log's end line gives, unless the connection has one
/// already.
fn end_reason(log: &Mutex<ConnLog>, reason: &str) {
    if let Ok(mut l) = log.lock() {
        l.end.get_or_insert_with(|| reason.into());
    }
}

/// Ends a connection from the server's side: `reason` for the log's end
/// line (unless the connection has one already), `message` for the client.
async fn close(handle: &russh::server::Handle, log: &Mutex<ConnLog>, reason: &str, message: &str) {
    end_reason(log, reason);
    let _ = handle
        .disconnect(
            russh::Disconnect::ByApplication,
            message.into(),
            String::new(),
        )
        .await;
}

/// One connection from handshake to close, logged at its end.
async fn connection(
    server: Arc<Server>,
    config: Arc<russh::server::Config>,
    socket: tokio::net::TcpStream,
    peer: SocketAddr,
) {
    let started = Instant::now();
    let id = server.next_id.fetch_add(1, Ordering::Relaxed);
    let log_state = Arc::new(Mutex::new(ConnLog::default()));
    let conn = Conn {
        id,
        server: Arc::clone(&server),
        peer,
        log: Arc::clone(&log_state),
        who: None,
        channel: None,
        term: None,
        env: HashMap::new(),
        input: None,
        decoder: Arc::new(Mutex::new(InputDecoder::new())),
        fed: Arc::new(AtomicU64::new(0)),
        last_input: Arc::new(AtomicU64::new(unix_now())),
    };
    if logging() {
        log("connect", &[("addr", &peer)]);
    }
    let result = logged_in_or_closed(&server, config, socket, conn, &log_state).await;
    if let Ok(mut a) = server.admission.lock() {
        a.release(peer.ip());
    }
    // The game quits when its connection goes, saving first: its reason
    // ("quit", "disconnected", a panic) is the better one to log.
    wait_while(|| {
        log_state
            .lock()
            .map(|l| l.playing && l.end.is_none())
            .unwrap_or(false)
    })
    .await;
    if logging() {
        let l = log_state
            .lock()
            .map(|l| (l.fingerprint.clone(), l.name.clone(), l.end.clone()));
        let (fp, name, end) = l.unwrap_or_default();
        let reason = match (&result, end) {
            (_, Some(end)) => end,
            (Ok(()), None) => "closed".into(),
            (Err(e), None) => format!("error: {e}"),
        };
        log(
            "end",
            &[
                ("addr", &peer),
                ("key", &fp.unwrap_or_else(|| "-".into())),
                ("name", &name.unwrap_or_else(|| "-".into())),
                ("secs", &started.elapsed().as_secs()),
                ("reason", &reason),
            ],
        );
    }
}

#[cfg(test)]
mod tests;
