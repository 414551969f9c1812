//! The user's settings (`config.toml`): what they hold, their defaults (the
//! shipped `config/default.toml`), and a forgiving reader that applies every
//! good key, reports every bad one as a [`ConfigIssue`] naming the file, the
//! dotted key and the bad value, and falls back to that key's default.

use std::collections::BTreeMap;
use std::fmt;
use std::io::Read;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::engine::{Level, Shape, ShapeError};
use crate::store::StoreError;

/// Config and theme files larger than this are not read.
pub const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

/// The shipped defaults, every key present and commented.
const DEFAULT_TOML: &str = include_str!("../../config/default.toml");

/// Everything the user can set in `config.toml`. Every part has a default, so
/// a partial file (or none) works.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// `"auto"` (chosen from the terminal's colours) or a theme's name.
    pub theme: String,
    /// How the game behaves.
    pub play: PlayConfig,
    /// Key bindings by mode (`board`, …): key text → action name, or `"none"`
    /// to unbind. Merged over the game's defaults by the front end, which
    /// also checks the key syntax and the action names; the store does not.
    pub keys: BTreeMap<String, BTreeMap<String, String>>,
    /// `dekadoku serve`'s settings (the server reads them; the game
    /// ignores them).
    pub serve: ServeConfig,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            theme: "auto".to_string(),
            play: PlayConfig::default(),
            keys: BTreeMap::new(),
            serve: ServeConfig::default(),
        }
    }
}

/// The `[serve]` table: where `dekadoku serve` listens, where it keeps
/// its players and its host key, and its limits. Each has a command-line
/// option of the same name, which wins.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ServeConfig {
    /// Address and port to listen on.
    pub listen: String,
    /// The host key file ("": `serve/host_key` in the data folder).
    pub host_key: String,
    /// The players' database: "" for SQLite in the data folder, a path
    /// to an SQLite file, or a PostgreSQL URL (`postgres://…`).
    pub database: String,
    /// Connections at once, in all.
    pub max_connections: u32,
    /// Connections at once from one address.
    pub max_per_address: u32,
    /// New connections a minute from one address.
    pub connects_per_minute: u32,
    /// Minutes without a key pressed before a connection is closed.
    pub idle_minutes: u32,
    /// Seconds a connection may take from its first byte to a game (the
    /// SSH handshake, the key and the terminal) before it is closed.
    pub login_seconds: u32,
    /// The largest board side a player may import.
    pub max_import_side: u32,
    /// Seconds one job (a hint, a solve, a new puzzle) may work for: a
    /// deadline on the clock, which bounds its CPU time too.
    pub job_seconds: u32,
    /// MiB of memory the server may grow by while one job runs (0: no
    /// cap).
    pub job_memory_mb: u32,
}

impl Default for ServeConfig {
    fn default() -> ServeConfig {
        ServeConfig {
            listen: "127.0.0.1:2222".into(),
            host_key: String::new(),
            database: String::new(),
            max_connections: 200,
            max_per_address: 8,
            connects_per_minute: 30,
            idle_minutes: 30,
            login_seconds: 60,
            max_import_side: 25,
            job_seconds: 60,
            job_memory_mb: 1024,
        }
    }
}

/// The `[play]` table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PlayConfig {
    /// The cursor wraps around at the board's edges.
    pub wrap: bool,
    /// Placing a digit removes it from its peers' notes.
    pub auto_remove_notes: bool,
    /// Which conflicts are shown.
    pub conflicts: ConflictMode,
    /// Shade the cursor's row, column and box.
    pub highlight_peers: bool,
    /// Shade the cells holding the digit under the cursor.
    pub highlight_same_digit: bool,
    /// Board size for a new game.
    pub default_size: BoardSize,
    /// Level for a new game.
    pub default_level: Level,
    /// Keep the game in play on disk.
    pub autosave: bool,
    /// Mouse support.
    pub mouse: bool,
}

impl Default for PlayConfig {
    fn default() -> PlayConfig {
        PlayConfig {
            wrap: false,
            auto_remove_notes: true,
            conflicts: ConflictMode::Unit,
            highlight_peers: true,
            highlight_same_digit: true,
            default_size: BoardSize::CLASSIC,
            default_level: Level::Medium,
            autosave: true,
            mouse: true,
        }
    }
}

/// How conflicts (two equal digits in one row, column or box) are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConflictMode {
    /// Not at all.
    Off,
    /// The clashing cells.
    Cells,
    /// The clashing cells and the unit that holds them.
    #[default]
    Unit,
}

impl ConflictMode {
    /// The word used in the config file.
    pub fn name(self) -> &'static str {
        match self {
            ConflictMode::Off => "off",
            ConflictMode::Cells => "cells",
            ConflictMode::Unit => "unit",
        }
    }

    /// The mode with this name (case-insensitive).
    pub fn from_name(name: &str) -> Option<ConflictMode> {
        [ConflictMode::Off, ConflictMode::Cells, ConflictMode::Unit]
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(name.trim()))
    }
}

/// A board size as written in the config, `"9x9"`: the side of a board the
/// engine has a box shape for (4 to 400, not prime).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BoardSize(u16);

impl BoardSize {
    /// 9×9.
    pub const CLASSIC: BoardSize = BoardSize(9);

    /// The size with this side, if the engine has a shape for it.
    pub fn new(side: usize) -> Option<BoardSize> {
        let shape = Shape::for_side(side).ok()?;
        u16::try_from(shape.n()).ok().map(BoardSize)
    }

    /// Cells along one side.
    pub fn side(self) -> usize {
        self.0 as usize
    }

    /// The engine's usual shape for this side (9 → 3×3, 6 → 2×3).
    pub fn shape(self) -> Shape {
        Shape::for_side(self.side()).unwrap_or(Shape::CLASSIC)
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{0}x{0}", self.0)
    }
}

/// Why text is not a board size; each quotes the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoardSizeError {
    /// Not a number, nor two numbers joined by `x`.
    #[error(
        "`{0}` is not a board size: expected one like \"9x9\" (4x4, 6x6, 9x9, 12x12, 16x16, 25x25)"
    )]
    Syntax(String),
    /// Two different sides.
    #[error("`{0}` is not a board size: boards are square, with both sides the same (\"9x9\")")]
    NotSquare(String),
    /// A side the engine has no shape for.
    #[error("`{text}` is not a board size: {source}")]
    Unsupported {
        /// The text as given.
        text: String,
        /// Why the engine has no shape for that side.
        source: ShapeError,
    },
}

impl FromStr for BoardSize {
    type Err = BoardSizeError;

    /// Reads `"9x9"` (also `9X9`, `9×9` or just `9`).
    fn from_str(s: &str) -> Result<BoardSize, BoardSizeError> {
        let syntax = || BoardSizeError::Syntax(s.to_string());
        let t = s.trim().to_ascii_lowercase();
        let mut parts = t.split(['x', '×']);
        let first = parts.next().ok_or_else(syntax)?.trim();
        let side: usize = first.parse().map_err(|_| syntax())?;
        match (parts.next(), parts.next()) {
            (None, None) => {}
            (Some(second), None) => match second.trim().parse::<usize>() {
                Ok(other) if other == side => {}
                Ok(_) => return Err(BoardSizeError::NotSquare(s.to_string())),
                Err(_) => return Err(syntax()),
            },
            _ => return Err(syntax()),
        }
        let shape = Shape::for_side(side).map_err(|source| BoardSizeError::Unsupported {
            text: s.to_string(),
            source,
        })?;
        u16::try_from(shape.n())
            .map(BoardSize)
            .map_err(|_| syntax())
    }
}

impl Serialize for BoardSize {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for BoardSize {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<BoardSize, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// One thing wrong with a config or theme file. The file's good parts still
/// apply; this says what was ignored and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigIssue {
    /// The file.
    pub file: PathBuf,
    /// The dotted key (`play.wrap`, `keys.board."ctrl+z"`), if one is to blame.
    pub key: Option<String>,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column (in characters), when known.
    pub col: Option<usize>,
    /// What is wrong and what happens instead.
    pub message: String,
}

impl ConfigIssue {
    /// An issue with `file` (and `key`, if given), position unknown.
    pub fn new(file: impl Into<PathBuf>, key: Option<String>, message: impl Into<String>) -> Self {
        ConfigIssue {
            file: file.into(),
            key,
            line: None,
            col: None,
            message: message.into(),
        }
    }

    /// The same issue placed at a 1-based line and column.
    pub fn at(mut self, line: usize, col: usize) -> ConfigIssue {
        self.line = Some(line);
        self.col = Some(col);
        self
    }

    /// Places the issue at byte `offset` of `text` (the file's contents).
    pub(crate) fn at_offset(self, text: &str, offset: usize) -> ConfigIssue {
        let (line, col) = line_col(text, offset);
        self.at(line, col)
    }
}

impl fmt::Display for ConfigIssue {
    /// `file[:line[:col]]: [key: ]message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(col) = self.col {
                write!(f, ":{col}")?;
            }
        }
        if let Some(key) = &self.key {
            write!(f, ": {key}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl Config {
    /// The shipped default config (every key, commented), as printed by
    /// `--print-default-config`. Nothing writes it into the user's folder.
    pub fn default_toml() -> &'static str {
        DEFAULT_TOML
    }

    /// Reads the config at `path`. A missing file gives the defaults and no
    /// issue; anything else wrong gives issues and defaults for what could
    /// not be used. Never panics, whatever the file holds.
    pub fn load(path: &Path) -> (Config, Vec<ConfigIssue>) {
        match read_text(path) {
            Ok(None) => (Config::default(), Vec::new()),
            Ok(Some(text)) => Config::parse(&text, path),
            Err(mut issue) => {
                issue.message.push_str("; using all defaults");
                (Config::default(), vec![issue])
            }
        }
    }

    /// Reads config text; `file` is only used to name it in issues.
    pub fn parse(text: &str, file: &Path) -> (Config, Vec<ConfigIssue>) {
        let mut config = Config::default();
        let mut r = Reader {
            file,
            text,
            issues: Vec::new(),
        };
        let root = match DeTable::parse(text) {
            Ok(root) => root,
            Err(e) => {
                let issue = ConfigIssue::new(
                    file,
                    None,
                    format!(
                        "not valid TOML: {}; using all defaults",
                        one_line(e.message())
                    ),
                );
                let issue = match e.span() {
                    Some(span) => issue.at_offset(text, span.start),
                    None => issue,
                };
                return (config, vec![issue]);
            }
        };
        for (k, v) in root.get_ref() {
            let name: &str = k.get_ref();
            match name {
                "theme" => r.field(&mut config.theme, "theme", v, THEME_EXPECTED, |v| {
                    v.as_str()
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .map(str::to_string)
                }),
                "play" => r.play(&mut config.play, v),
                "keys" => r.keys(&mut config.keys, v),
                "serve" => r.serve(&mut config.serve, v),
                _ => r.unknown(&[], k, &["theme", "play", "keys", "serve"]),
            }
        }
        // Tables come back sorted by key; report in file order.
        r.issues.sort_by_key(|i| (i.line, i.col));
        (config, r.issues)
    }
}

const THEME_EXPECTED: &str = "a theme name in quotes, such as \"auto\" or \"default\"";
const BOOL_EXPECTED: &str = "true or false";
const PLAY_KEYS: [&str; 9] = [
    "wrap",
    "auto_remove_notes",
    "conflicts",
    "highlight_peers",
    "highlight_same_digit",
    "default_size",
    "default_level",
    "autosave",
    "mouse",
];

const SERVE_KEYS: [&str; 11] = [
    "listen",
    "host_key",
    "database",
    "max_connections",
    "max_per_address",
    "connects_per_minute",
    "idle_minutes",
    "login_seconds",
    "max_import_side",
    "job_seconds",
    "job_memory_mb",
];

/// Walks a parsed file, collecting issues.
struct Reader<'a> {
    file: &'a Path,
    text: &'a str,
    issues: Vec<ConfigIssue>,
}

type Entry<'i> = Spanned<DeValue<'i>>;

impl Reader<'_> {
    fn report(&mut self, key: String, span: Range<usize>, message: String) {
        let issue =
            ConfigIssue::new(self.file, Some(key), message).at_offset(self.text, span.start);
        self.issues.push(issue);
    }

    /// Sets `slot` from `v` through `conv`, or reports the bad value and
    /// leaves the default.
    fn field<T>(
        &mut self,
        slot: &mut T,
        key: &str,
        v: &Entry<'_>,
        expected: &str,
        conv: impl Fn(&DeValue<'_>) -> Option<T>,
    ) {
        match conv(v.get_ref()) {
            Some(x) => *slot = x,
            None => self.report(
                key.to_string(),
                v.span(),
                format!(
                    "expected {expected}, found {}; using the default",
                    describe(v.get_ref())
                ),
            ),
        }
    }

    fn boolean(&mut self, slot: &mut bool, key: &str, v: &Entry<'_>) {
        self.field(slot, key, v, BOOL_EXPECTED, |v| v.as_bool());
    }

    fn unknown(&mut self, prefix: &[&str], k: &Spanned<std::borrow::Cow<'_, str>>, known: &[&str]) {
        let name: &str = k.get_ref();
        let mut parts = prefix.to_vec();
        parts.push(name);
        let mut message = "unknown key; ignored".to_string();
        if let Some(close) = closest(name, known) {
            let mut near = prefix.to_vec();
            near.push(close);
            message = format!("unknown key (did you mean {}?); ignored", dotted_key(&near));
        }
        self.report(dotted_key(&parts), k.span(), message);
    }

    /// Checks that `v` is a table; reports it (and returns `None`) if not.
    fn table<'v, 'i>(
        &mut self,
        key: &str,
        v: &'v Entry<'i>,
        what: &str,
    ) -> Option<&'v DeTable<'i>> {
        if let Some(t) = v.get_ref().as_table() {
            return Some(t);
        }
        self.report(
            key.to_string(),
            v.span(),
            format!(
                "expected {what}, found {}; using the defaults",
                describe(v.get_ref())
            ),
        );
        None
    }

    fn play(&mut self, play: &mut PlayConfig, v: &Entry<'_>) {
        let Some(t) = self.table("play", v, "a table ([play])") else {
            return;
        };
        for (k, v) in t {
            let name: &str = k.get_ref();
            let key = dotted_key(&["play", name]);
            let key = key.as_str();
            match name {
                "wrap" => self.boolean(&mut play.wrap, key, v),
                "auto_remove_notes" => self.boolean(&mut play.auto_remove_notes, key, v),
                "highlight_peers" => self.boolean(&mut play.highlight_peers, key, v),
                "highlight_same_digit" => self.boolean(&mut play.highlight_same_digit, key, v),
                "autosave" => self.boolean(&mut play.autosave, key, v),
                "mouse" => self.boolean(&mut play.mouse, key, v),
                "conflicts" => self.field(
                    &mut play.conflicts,
                    key,
                    v,
                    "\"off\", \"cells\" or \"unit\"",
                    |v| v.as_str().and_then(ConflictMode::from_name),
                ),
                "default_size" => self.field(
                    &mut play.default_size,
                    key,
                    v,
                    "a board size such as \"9x9\" (4x4, 6x6, 9x9, 12x12, 16x16 or 25x25)",
                    |v| match v {
                        DeValue::String(s) => s.parse().ok(),
                        DeValue::Integer(i) => {
                            integer(i).and_then(|n| BoardSize::new(usize::try_from(n).ok()?))
                        }
                        _ => None,
                    },
                ),
                "default_level" => self.field(
                    &mut play.default_level,
                    key,
                    v,
                    "\"easy\", \"medium\", \"hard\", \"expert\" or \"extreme\"",
                    |v| v.as_str().and_then(Level::from_name),
                ),
                _ => self.unknown(&["play"], k, &PLAY_KEYS),
            }
        }
    }

    fn serve(&mut self, serve: &mut ServeConfig, v: &Entry<'_>) {
        let Some(t) = self.table("serve", v, "a table ([serve])") else {
            return;
        };
        let text = |v: &DeValue<'_>| v.as_str().map(|s| s.trim().to_string());
        let count = |v: &DeValue<'_>| match v {
            DeValue::Integer(i) => integer(i).and_then(|n| u32::try_from(n).ok()),
            _ => None,
        };
        const TEXT: &str = "text in quotes";
        const COUNT: &str = "a whole number, 0 or more";
        for (k, v) in t {
            let name: &str = k.get_ref();
            let key = dotted_key(&["serve", name]);
            let key = key.as_str();
            match name {
                "listen" => self.field(
                    &mut serve.listen,
                    key,
                    v,
                    "an address such as \"127.0.0.1:2222\"",
                    |v| text(v).filter(|s| s.parse::<std::net::SocketAddr>().is_ok()),
                ),
                "host_key" => self.field(&mut serve.host_key, key, v, TEXT, text),
                "database" => self.field(&mut serve.database, key, v, TEXT, text),
                "max_connections" => self.field(&mut serve.max_connections, key, v, COUNT, count),
                "max_per_address" => self.field(&mut serve.max_per_address, key, v, COUNT, count),
                "connects_per_minute" => {
                    self.field(&mut serve.connects_per_minute, key, v, COUNT, count)
                }
                "idle_minutes" => self.field(&mut serve.idle_minutes, key, v, COUNT, count),
                "login_seconds" => self.field(
                    &mut serve.login_seconds,
                    key,
                    v,
                    "a whole number of seconds from 1",
                    |v| count(v).filter(|&n| n >= 1),
                ),
                "max_import_side" => self.field(
                    &mut serve.max_import_side,
                    key,
                    v,
                    "a board side from 4 to 400",
                    |v| count(v).filter(|n| (4..=400).contains(n)),
                ),
                "job_seconds" => self.field(&mut serve.job_seconds, key, v, COUNT, count),
                "job_memory_mb" => self.field(&mut serve.job_memory_mb, key, v, COUNT, count),
                _ => self.unknown(&["serve"], k, &SERVE_KEYS),
            }
        }
    }

    fn keys(&mut self, keys: &mut BTreeMap<String, BTreeMap<String, String>>, v: &Entry<'_>) {
        let Some(modes) = self.table("keys", v, "tables of bindings such as [keys.board]") else {
            return;
        };
        for (mode, bindings) in modes {
            let mode: &str = mode.get_ref();
            let mode_key = dotted_key(&["keys", mode]);
            let what = "a table of bindings (key = \"action\")";
            let Some(bindings) = self.table(&mode_key, bindings, what) else {
                continue;
            };
            let mut out = BTreeMap::new();
            for (key_text, action) in bindings {
                let key_text: &str = key_text.get_ref();
                let dotted = dotted_key(&["keys", mode, key_text]);
                let mut slot = None;
                self.field(
                    &mut slot,
                    &dotted,
                    action,
                    "an action name in quotes (or \"none\" to unbind)",
                    |v| v.as_str().map(|s| Some(s.trim().to_string())),
                );
                if let Some(action) = slot {
                    out.insert(key_text.to_string(), action);
                }
            }
            // An empty table binds nothing; keeping it would only make the
            // shipped default (which has an empty [keys.board]) differ from
            // `Config::default()`.
            if !out.is_empty() {
                keys.entry(mode.to_string()).or_default().extend(out);
            }
        }
    }
}

/// The value of a TOML integer, if it fits an `i64`.
pub(crate) fn integer(i: &toml::de::DeInteger<'_>) -> Option<i64> {
    let digits: String = i.as_str().chars().filter(|&c| c != '_').collect();
    let radix = i.radix();
    let body = match radix {
        10 => digits.as_str(),
        _ => digits.get(2..)?,
    };
    i64::from_str_radix(body, radix).ok()
}

/// A bad value as it should be quoted in a message.
fn describe(v: &DeValue<'_>) -> String {
    match v {
        DeValue::String(s) => {
            let short: String = s.chars().take(40).collect();
            if short.len() < s.len() {
                format!("{:?}…", short)
            } else {
                format!("{short:?}")
            }
        }
        DeValue::Integer(i) => i.as_str().to_string(),
        DeValue::Float(x) => x.as_str().to_string(),
        DeValue::Boolean(b) => b.to_string(),
        DeValue::Datetime(d) => format!("{d} (a date)"),
        DeValue::Array(_) => "an array".to_string(),
        DeValue::Table(_) => "a table".to_string(),
    }
}

/// Key parts joined with dots, quoting the parts that are not bare TOML keys:
/// `["keys", "board", "ctrl+z"]` → `keys.board."ctrl+z"`.
pub fn dotted_key(parts: &[&str]) -> String {
    let mut out = String::new();
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            out.push('.');
        }
        let bare = !p.is_empty()
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if bare {
            out.push_str(p);
        } else {
            out.push_str(&format!("{p:?}"));
        }
    }
    out
}

/// The known key nearest to a misspelt one, if it is near enough.
fn closest<'k>(name: &str, known: &[&'k str]) -> Option<&'k str> {
    let name = name.to_ascii_lowercase();
    known
        .iter()
        .map(|k| (strsim::levenshtein(&name, k), *k))
        .filter(|&(d, k)| d <= 2.max(k.len() / 4))
        .min()
        .map(|(_, k)| k)
}

/// Collapses a possibly multi-line parser message onto one line.
pub(crate) fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// 1-based line and character column of byte `offset` in `text`.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

/// Reads a config or theme file as text: `Ok(None)` if it does not exist;
/// an issue (without a "what now" suffix) if it cannot be read, is larger
/// than [`MAX_CONFIG_BYTES`] or is not UTF-8.
pub(crate) fn read_text(path: &Path) -> Result<Option<String>, ConfigIssue> {
    let cannot = |what: String| ConfigIssue::new(path, None, what);
    let file = match super::atomic::open_regular(path) {
        Ok(Some((f, _))) => f,
        // A FIFO would wait for a writer, /dev/zero never end.
        Ok(None) => return Err(cannot("not a regular file, so not read".into())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(cannot(format!("cannot read: {e}"))),
    };
    let mut bytes = Vec::new();
    if let Err(e) = file.take(MAX_CONFIG_BYTES + 1).read_to_end(&mut bytes) {
        return Err(cannot(format!("cannot read: {e}")));
    }
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err(cannot(format!(
            "larger than {} KiB, so not read",
            MAX_CONFIG_BYTES / 1024
        )));
    }
    match String::from_utf8(bytes) {
        Ok(mut text) => {
            if text.starts_with('\u{feff}') {
                text.drain(..'\u{feff}'.len_utf8());
            }
            Ok(Some(text))
        }
        Err(e) => {
            let good = e.utf8_error().valid_up_to();
            let prefix = String::from_utf8_lossy(&e.as_bytes()[..good]).into_owned();
            Err(cannot("not UTF-8 text (a binary file?)".to_string()).at_offset(&prefix, good))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (Config, Vec<ConfigIssue>) {
        Config::parse(text, Path::new("/x/config.toml"))
    }

    #[test]
    fn shipped_default_parses_cleanly_and_is_the_default() {
        let (c, issues) = parse(Config::default_toml());
        assert!(issues.is_empty(), "{issues:?}");
        assert_eq!(c, Config::default());
    }

    #[test]
    fn shipped_default_mentions_every_key() {
        // Every leaf of the serialized default must appear in the file.
        let file: toml::Table = toml::from_str(Config::default_toml()).unwrap();
        let ours = toml::Table::try_from(Config::default()).unwrap();
        fn leaves(t: &toml::Table, prefix: &str, out: &mut Vec<String>) {
            for (k, v) in t {
                let key = format!("{prefix}{k}");
                match v {
                    toml::Value::Table(inner) => leaves(inner, &format!("{key}."), out),
                    _ => out.push(key),
                }
            }
        }
        let (mut a, mut b) = (Vec::new(), Vec::new());
        leaves(&file, "", &mut a);
        leaves(&ours, "", &mut b);
        assert_eq!(a, b);
        assert!(b.len() >= 10);
        // And the serde derive reads the file the same way as the reader.
        let via_serde: Config = toml::from_str(Config::default_toml()).unwrap();
        assert_eq!(via_serde.play, Config::default().play);
    }

    #[test]
    fn the_issue_display_names_file_key_value_and_fallback() {
        let (c, issues) = parse("[play]\nwrap = \"yes\"\n");
        assert!(!c.play.wrap);
        assert_eq!(issues.len(), 1);
        assert_eq!(
            issues[0].to_string(),
            "/x/config.toml:2:8: play.wrap: expected true or false, found \"yes\"; using the default"
        );
        let plain = ConfigIssue::new("/x/config.toml", Some("play.wrap".into()), "m");
        assert_eq!(plain.to_string(), "/x/config.toml: play.wrap: m");
    }

    #[test]
    fn board_sizes() {
        assert_eq!("9x9".parse(), Ok(BoardSize::CLASSIC));
        assert_eq!("16X16".parse::<BoardSize>().unwrap().side(), 16);
        assert_eq!("6×6".parse::<BoardSize>().unwrap().shape().box_rows(), 2);
        assert_eq!("25".parse::<BoardSize>().unwrap().to_string(), "25x25");
        for bad in ["", "9x8", "7x7", "3x3", "401x401", "x", "9x9x9", "-9"] {
            let e = bad.parse::<BoardSize>().unwrap_err();
            assert!(e.to_string().contains(&format!("`{bad}`")), "{e}");
        }
        assert!(matches!(
            "9x8".parse::<BoardSize>(),
            Err(BoardSizeError::NotSquare(_))
        ));
        let e = "7x7".parse::<BoardSize>().unwrap_err();
        assert!(e.to_string().contains("7 is not a product"), "{e}");
        // Every size the game offers can be the default.
        for shape in crate::engine::generate::BUNDLED_SIZES {
            assert_eq!(BoardSize::new(shape.n()).map(BoardSize::shape), Some(shape));
        }
    }

    #[test]
    fn helpers() {
        assert_eq!(
            dotted_key(&["keys", "board", "ctrl+z"]),
            "keys.board.\"ctrl+z\""
        );
        assert_eq!(dotted_key(&["play", "wrap"]), "play.wrap");
        assert_eq!(closest("mosue", &PLAY_KEYS), Some("mouse"));
        assert_eq!(closest("zzzzzz", &PLAY_KEYS), None);
        assert_eq!(line_col("ab\ncdé\nf", 7), (2, 4));
        assert_eq!(line_col("ab", 99), (1, 3));
    }
}

/// Writes the theme and the `[play]` settings into the user's config file,
/// keeping its comments, layout and other keys: a key is written when it
/// differs from the default or is already in the file, so the full default
/// never lands in the user's folder. A file that cannot be parsed is left
/// alone (and the error says so).
pub fn save_settings(path: &Path, theme: &str, play: &PlayConfig) -> Result<(), StoreError> {
    // Capped and regular files only, as the config is read (this runs on
    // the game's UI thread).
    let bad = |what: String| StoreError::io(path, std::io::Error::other(what));
    let text = match super::atomic::read_capped(path, MAX_CONFIG_BYTES) {
        Ok(b) if b.len() as u64 > MAX_CONFIG_BYTES => {
            return Err(bad(format!(
                "larger than {} KiB, so not changed",
                MAX_CONFIG_BYTES / 1024
            )));
        }
        Ok(b) => String::from_utf8(b).map_err(|_| bad("not UTF-8 text, so not changed".into()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(StoreError::io(path, e)),
    };
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(|source| StoreError::NotToml {
        path: path.to_path_buf(),
        source: Box::new(source),
    })?;
    let defaults = Config::default();
    if theme != defaults.theme || doc.contains_key("theme") {
        doc["theme"] = toml_edit::value(theme);
    }
    let encode = |source| StoreError::EncodeToml {
        path: path.to_path_buf(),
        source,
    };
    let ours = toml::Table::try_from(play).map_err(encode)?;
    let base = toml::Table::try_from(&defaults.play).map_err(encode)?;
    let has_play = doc.get("play").is_some_and(|p| p.is_table_like());
    if !has_play && ours != base {
        doc["play"] = toml_edit::table();
    }
    for (key, value) in &ours {
        let present = doc
            .get("play")
            .and_then(|p| p.as_table_like())
            .is_some_and(|t| t.contains_key(key));
        if base.get(key) == Some(value) && !present {
            continue;
        }
        let v: toml_edit::Value =
            value
                .to_string()
                .parse()
                .map_err(|source| StoreError::EncodeValue {
                    path: path.to_path_buf(),
                    key: dotted_key(&["play", key]),
                    source: Box::new(source),
                })?;
        if let Some(t) = doc.get_mut("play").and_then(|p| p.as_table_like_mut()) {
            match t.get_mut(key) {
                // Replace the value in place: the key keeps its comments and
                // the value its spacing.
                Some(item) => {
                    let mut v = v;
                    if let Some(old) = item.as_value() {
                        *v.decor_mut() = old.decor().clone();
                    }
                    *item = toml_edit::Item::Value(v);
                }
                None => {
                    t.insert(key, toml_edit::Item::Value(v));
                }
            }
        }
    }
    crate::store::write_atomic(path, doc.to_string().as_bytes())
        .map_err(|e| StoreError::io(path, e))
}

#[cfg(test)]
mod save_tests {
    use super::*;

    #[test]
    fn settings_keep_comments_and_write_only_what_differs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config").join("config.toml");
        let mut play = PlayConfig::default();
        save_settings(&path, "auto", &play).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("wrap") && !text.contains("theme"), "{text}");
        std::fs::write(&path, "# mine\n[play]\n# keep me\nmouse = true\n").unwrap();
        play.wrap = true;
        play.conflicts = ConflictMode::Off;
        save_settings(&path, "light", &play).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("# mine") && text.contains("# keep me"),
            "{text}"
        );
        let (cfg, issues) = Config::load(&path);
        assert!(issues.is_empty(), "{issues:?}");
        assert_eq!(cfg.theme, "light");
        assert!(cfg.play.wrap && cfg.play.mouse);
        assert_eq!(cfg.play.conflicts, ConflictMode::Off);
        assert!(
            !text.contains("highlight_peers"),
            "defaults stay out: {text}"
        );
        std::fs::write(&path, "[play\nbroken").unwrap();
        assert!(save_settings(&path, "light", &play).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "[play\nbroken");
    }

    /// A config that is a FIFO (reading it would wait for a writer, on
    /// the game's UI thread) or a folder is neither read nor changed.
    #[test]
    fn a_config_that_is_not_a_regular_file_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("config.toml");
        let mut paths = vec![dir.path().to_path_buf()];
        if std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
        {
            paths.push(fifo);
        }
        for path in paths {
            // On a thread, so a regression fails here instead of hanging.
            let (tx, rx) = std::sync::mpsc::channel();
            let p = path.clone();
            std::thread::spawn(move || {
                let loaded = Config::load(&p).1.iter().map(|i| i.to_string()).collect();
                let saved =
                    save_settings(&p, "light", &PlayConfig::default()).map_err(|e| e.to_string());
                tx.send((loaded, saved))
            });
            let (loaded, saved): (Vec<String>, _) = rx
                .recv_timeout(std::time::Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("{}: did not return", path.display()));
            assert!(
                loaded.iter().any(|i| i.contains("not a regular file")),
                "{loaded:?}"
            );
            assert!(
                saved
                    .as_ref()
                    .is_err_and(|e| e.contains("not a regular file")),
                "{saved:?}"
            );
        }
    }
}
