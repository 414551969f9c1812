//! The server's input decoder: bytes from a player's SSH channel into the
//! game's [`Action`]s, as crossterm's `event::read()` gives them locally.
//!
//! The parsing is terminput's ([`terminput::Event::parse_from`], derived
//! from crossterm's private parser); its key events become crossterm's
//! with terminput-crossterm. This module only keeps the pending bytes and
//! bounds them, since the bytes are untrusted:
//!
//! - a sequence still incomplete after [`MAX_SEQUENCE`] bytes is dropped
//!   (real ones are a few dozen bytes; the cap also bounds the parser's
//!   work, which re-reads the pending bytes at each new byte);
//! - bytes that do not parse are dropped, and an ESC after an incomplete
//!   sequence drops it and starts the next, so a broken sequence does not
//!   eat a good one;
//! - a bracketed paste is collected here (not re-parsed per byte) up to
//!   [`MAX_PASTE`] bytes: a longer one is dropped whole, nothing of it is
//!   returned, and the bytes up to its end marker are skipped;
//! - mouse reports with a zero coordinate (the parser would subtract 1
//!   from it) are dropped before parsing.
//!
//! Resizes are not bytes: they come from SSH window-change requests.

use ratatui::crossterm::event::KeyEvent;
use terminput::{Event, MouseButton, MouseEventKind};

use crate::tui::action::Action;

/// The longest escape sequence (or UTF-8 character) kept while incomplete.
pub const MAX_SEQUENCE: usize = 256;

/// The longest bracketed paste returned; longer ones are dropped.
pub const MAX_PASTE: usize = 1 << 20;

/// The most bytes taken in one step of [`InputDecoder::feed`].
const FEED_SLICE: usize = 1 << 16;

const PASTE_START: &[u8] = b"\x1b[200~";
const PASTE_END: &[u8] = b"\x1b[201~";

/// What the decoder is in the middle of.
#[derive(Debug, Default)]
enum Mode {
    /// Keys and sequences: the pending bytes of an incomplete one.
    #[default]
    Events,
    /// Inside a bracketed paste: its bytes so far (the end marker may
    /// straddle feeds, so the last bytes are searched again).
    Paste(Vec<u8>),
    /// Inside a paste over the cap: only the last bytes, to find the end.
    Skip(Vec<u8>),
}

/// Bytes in, actions out; see the module's notes for the limits.
#[derive(Debug, Default)]
pub struct InputDecoder {
    pending: Vec<u8>,
    mode: Mode,
}

impl InputDecoder {
    /// An empty decoder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Bytes held: the pending sequence and the paste being collected
    /// (at most [`MAX_SEQUENCE`] + [`MAX_PASTE`] + a few).
    pub fn buffered(&self) -> usize {
        self.pending.len()
            + match &self.mode {
                Mode::Events => 0,
                Mode::Paste(p) | Mode::Skip(p) => p.len(),
            }
    }

    /// Decodes the bytes that came; an incomplete sequence at the end is
    /// kept for the next feed (or [`flush`](Self::flush)).
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Action> {
        let mut out = Vec::new();
        // In slices, so that a paste over the cap never holds more than a
        // slice past it, however much one feed brings.
        for slice in bytes.chunks(FEED_SLICE) {
            let mut rest = slice;
            while !rest.is_empty() {
                rest = match self.mode {
                    Mode::Events => self.feed_events(rest, &mut out),
                    Mode::Paste(_) | Mode::Skip(_) => self.feed_paste(rest, &mut out),
                };
            }
        }
        out
    }

    /// No more bytes came for a while: a lone ESC is the Esc key; any other
    /// incomplete sequence or character is dropped. A paste under way is
    /// kept (a long one may come slowly), bounded by [`MAX_PASTE`].
    pub fn flush(&mut self) -> Vec<Action> {
        let mut out = Vec::new();
        if matches!(self.mode, Mode::Events)
            && self.pending == [0x1b]
            && let Ok(Some(ev)) = Event::parse_from(&self.pending)
        {
            push_event(ev, &mut out);
        }
        self.pending.clear();
        out
    }

    /// Events mode: byte by byte until the input ends or a paste starts;
    /// returns the bytes not taken.
    fn feed_events<'a>(&mut self, bytes: &'a [u8], out: &mut Vec<Action>) -> &'a [u8] {
        for (i, &b) in bytes.iter().enumerate() {
            if b == 0x1b && self.pending.len() > 1 {
                // No sequence has an ESC inside but the Alt prefix's: the
                // incomplete one before it was broken off.
                self.pending.clear();
            }
            self.pending.push(b);
            if self.pending == PASTE_START {
                self.pending.clear();
                self.mode = Mode::Paste(Vec::new());
                return &bytes[i + 1..];
            }
            if PASTE_START.starts_with(&self.pending) && self.pending.len() > 1 {
                // Maybe a paste's start: the parser would take it whole.
                continue;
            }
            if self.pending == [0x1b] {
                // Esc, or the start of a sequence: the next byte (or a
                // flush) says which.
                continue;
            }
            if !mouse_coordinates_ok(&self.pending) {
                self.pending.clear();
                continue;
            }
            match Event::parse_from(&self.pending) {
                Ok(Some(ev)) => {
                    self.pending.clear();
                    push_event(ev, out);
                }
                Ok(None) if self.pending.len() >= MAX_SEQUENCE => self.pending.clear(),
                Ok(None) => {}
                Err(_) => self.pending.clear(),
            }
        }
        &[]
    }

    /// Paste mode: collects (or skips) up to the end marker; returns the
    /// bytes after it.
    fn feed_paste<'a>(&mut self, bytes: &'a [u8], out: &mut Vec<Action>) -> &'a [u8] {
        let (buf, skipping) = match &mut self.mode {
            Mode::Paste(p) => (p, false),
            Mode::Skip(p) => (p, true),
            Mode::Events => return bytes,
        };
        // The marker may have begun in an earlier feed: search from there.
        let from = buf.len().saturating_sub(PASTE_END.len() - 1);
        let before = buf.len();
        buf.extend_from_slice(bytes);
        let found = buf[from..]
            .windows(PASTE_END.len())
            .position(|w| w == PASTE_END)
            .map(|p| from + p);
        match found {
            Some(end) => {
                let after = end + PASTE_END.len() - before;
                if !skipping {
                    let text = String::from_utf8_lossy(&buf[..end]).into_owned();
                    out.push(Action::Paste(text));
                }
                self.mode = Mode::Events;
                &bytes[after..]
            }
            None => {
                if skipping {
                    // Only the bytes the marker could still start in.
                    let keep = buf.len().min(PASTE_END.len() - 1);
                    buf.drain(..buf.len() - keep);
                } else if buf.len() > MAX_PASTE + PASTE_END.len() - 1 {
                    let keep = PASTE_END.len() - 1;
                    let tail = buf[buf.len() - keep..].to_vec();
                    self.mode = Mode::Skip(tail);
                }
                &[]
            }
        }
    }
}

/// Whether a complete mouse report (SGR `ESC [ < b ; x ; y M|m` or rxvt
/// `ESC [ b ; x ; y M`) has coordinates of at least 1; other bytes pass.
fn mouse_coordinates_ok(seq: &[u8]) -> bool {
    let body = if let Some(b) = seq.strip_prefix(b"\x1b[<") {
        match b.split_last() {
            Some((b'M' | b'm', body)) => body,
            _ => return true,
        }
    } else if let Some(b) = seq.strip_prefix(b"\x1b[") {
        match b.split_last() {
            Some((b'M', body)) if body.first().is_some_and(u8::is_ascii_digit) => body,
            _ => return true,
        }
    } else {
        return true;
    };
    !body.split(|&c| c == b';').skip(1).take(2).any(|f| {
        std::str::from_utf8(f)
            .ok()
            .and_then(|s| s.parse::<u16>().ok())
            == Some(0)
    })
}

/// One parsed event as the game's action, as the local input thread maps
/// crossterm's: keys (every kind: the App ignores releases), pastes, focus,
/// and left-button presses as clicks; other mouse events are dropped.
fn push_event(ev: Event, out: &mut Vec<Action>) {
    let action = match ev {
        Event::Key(k) => Action::Key(to_key(k)),
        Event::Paste(t) => Action::Paste(t),
        Event::FocusGained => Action::Focus(true),
        Event::FocusLost => Action::Focus(false),
        Event::Mouse(m) if m.kind == MouseEventKind::Down(MouseButton::Left) => Action::Click {
            x: m.column,
            y: m.row,
        },
        Event::Mouse(_) | Event::Resize { .. } => return,
    };
    out.push(action);
}

fn to_key(k: terminput::KeyEvent) -> KeyEvent {
    terminput_crossterm::to_crossterm_key(k)
}

#[cfg(test)]
mod tests;
