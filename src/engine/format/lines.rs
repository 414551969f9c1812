//! Bounded line reading: lines from any `BufRead`, never buffering more than
//! [`MAX_LINE_BYTES`], checked to be text, with one-line push-back. A line
//! ends at `\n`, `\r\n` or a lone `\r` (old Mac files, and what a terminal
//! sends when text is pasted into it).

use std::collections::VecDeque;
use std::io::{BufRead, ErrorKind};

use super::{FormatError, FormatErrorKind};

/// The longest line the readers buffer (1 MiB). A longer line is skipped
/// without being stored and reported as [`FormatErrorKind::LineTooLong`].
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One line of input, without its line ending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Line {
    /// 1-based line number.
    pub no: usize,
    /// The text, without its line ending.
    pub text: String,
}

impl Line {
    /// Only whitespace.
    pub fn is_blank(&self) -> bool {
        self.text.trim().is_empty()
    }

    /// A `#` comment.
    pub fn is_comment(&self) -> bool {
        self.text.trim_start().starts_with('#')
    }
}

/// Whether a line holds content: neither blank nor a `#` comment.
pub(super) fn is_content(text: &str) -> bool {
    let t = text.trim();
    !t.is_empty() && !t.starts_with('#')
}

/// The first `\n` or `\r` of `bytes`, looked for 16 bytes at a time (a
/// test of a whole block compiles to vector instructions; a byte-by-byte
/// search does not).
fn line_end(bytes: &[u8]) -> Option<usize> {
    let is_end = |b: u8| b == b'\n' || b == b'\r';
    let mut blocks = bytes.chunks_exact(16);
    let mut base = 0;
    for block in blocks.by_ref() {
        if block.iter().fold(false, |any, &b| any | is_end(b)) {
            return block.iter().position(|&b| is_end(b)).map(|i| base + i);
        }
        base += 16;
    }
    blocks
        .remainder()
        .iter()
        .position(|&b| is_end(b))
        .map(|i| base + i)
}

/// Lines of a reader, numbered, with push-back.
pub(super) struct Lines<R> {
    reader: R,
    source: String,
    line_no: usize,
    limit: usize,
    buf: Vec<u8>,
    pending: VecDeque<Result<Line, FormatError>>,
    finished: bool,
    /// The last line ended at a `\r`: a `\n` right after it belongs to
    /// that ending, not to an empty line.
    after_cr: bool,
}

impl<R: BufRead> Lines<R> {
    /// Lines of `reader`, capped at [`MAX_LINE_BYTES`].
    pub fn new(reader: R, source: String) -> Self {
        Lines::with_limit(reader, source, MAX_LINE_BYTES)
    }

    /// Lines of `reader`, capped at `limit` bytes.
    pub fn with_limit(reader: R, source: String, limit: usize) -> Self {
        Lines {
            reader,
            source,
            line_no: 0,
            limit,
            buf: Vec::new(),
            pending: VecDeque::new(),
            finished: false,
            after_cr: false,
        }
    }

    /// The source name for errors.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Number of the last line taken from the reader (0 before the first).
    pub fn line_no(&self) -> usize {
        self.line_no
    }

    /// An error at `line`/`col` of this source.
    pub fn error(&self, line: usize, col: Option<usize>, kind: FormatErrorKind) -> FormatError {
        FormatError::new(self.source.clone(), line, col, kind)
    }

    /// Puts a line back; the next [`Lines::next_line`] returns it first.
    pub fn unread(&mut self, line: Line) {
        self.pending.push_front(Ok(line));
    }

    /// Puts back a line error; the next [`Lines::next_line`] returns it first.
    pub fn unread_error(&mut self, error: FormatError) {
        self.pending.push_front(Err(error));
    }

    /// The next content line inside a block, skipping comments; `Err(no)`
    /// when the block ends first, at blank line `no` (put back) or at the
    /// end of input (the last line's number).
    pub fn block_line(&mut self) -> Result<Result<Line, usize>, FormatError> {
        loop {
            match self.next_line() {
                None => return Ok(Err(self.line_no.max(1))),
                Some(Err(e)) => return Err(e),
                Some(Ok(l)) if l.is_comment() => {}
                Some(Ok(l)) if l.is_blank() => {
                    let no = l.no;
                    self.unread(l);
                    return Ok(Err(no));
                }
                Some(Ok(l)) => return Ok(Ok(l)),
            }
        }
    }

    /// Skips the rest of a block after an error: up to and including the
    /// next blank line, or to the end.
    pub fn skip_block(&mut self) {
        while let Some(l) = self.next_line() {
            if l.is_ok_and(|l| l.is_blank()) {
                return;
            }
        }
    }

    /// The next line, `None` at the end. A read error ends the lines.
    pub fn next_line(&mut self) -> Option<Result<Line, FormatError>> {
        if let Some(l) = self.pending.pop_front() {
            return Some(l);
        }
        match self.read_raw()? {
            Ok(no) => Some(self.raw_text(no)),
            Err(e) => Some(Err(e)),
        }
    }

    /// Whether lines were put back ([`Lines::unread`]): [`Lines::read_raw`]
    /// reads past them, so it is only for when there are none.
    pub fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// The bytes of the line [`Lines::read_raw`] read last, without its
    /// ending, not yet checked to be text.
    pub fn raw(&self) -> &[u8] {
        &self.buf
    }

    /// Reads the next line from the reader into [`Lines::raw`] (ignoring
    /// lines put back) and gives its number; `None` at the end. A line
    /// too long and a read error are errors here; whether the bytes are
    /// text is for [`Lines::raw_text`]. Nothing is allocated once the
    /// buffer has grown to the longest line.
    pub fn read_raw(&mut self) -> Option<Result<usize, FormatError>> {
        if self.finished {
            return None;
        }
        self.buf.clear();
        let mut too_long = false;
        let mut got_any = false;
        loop {
            let avail = match self.reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.finished = true;
                    let kind = FormatErrorKind::Io(e.to_string());
                    return Some(Err(self.error(self.line_no + 1, None, kind)));
                }
            };
            if avail.is_empty() {
                self.finished = true;
                break;
            }
            if std::mem::take(&mut self.after_cr) && avail[0] == b'\n' {
                self.reader.consume(1);
                continue;
            }
            got_any = true;
            let (take, newline) = match line_end(avail) {
                Some(i) => {
                    self.after_cr = avail[i] == b'\r';
                    (i, true)
                }
                None => (avail.len(), false),
            };
            if !too_long {
                if self.buf.len() + take > self.limit {
                    too_long = true;
                    self.buf = Vec::new();
                } else {
                    self.buf.extend_from_slice(&avail[..take]);
                }
            }
            self.reader.consume(take + usize::from(newline));
            if newline {
                break;
            }
        }
        if !got_any {
            return None;
        }
        self.line_no += 1;
        let no = self.line_no;
        if too_long {
            let kind = FormatErrorKind::LineTooLong { limit: self.limit };
            return Some(Err(self.error(no, None, kind)));
        }
        Some(Ok(no))
    }

    /// The line [`Lines::read_raw`] read last (number `no`) as text: an
    /// error at its first NUL or invalid UTF-8 byte; a byte order mark
    /// opening line 1 is dropped.
    pub fn raw_text(&self, no: usize) -> Result<Line, FormatError> {
        let bad_utf8 = std::str::from_utf8(&self.buf)
            .err()
            .map(|e| e.valid_up_to());
        let nul = self.buf.iter().position(|&b| b == 0);
        let bad = match (bad_utf8, nul) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        if let Some(at) = bad {
            let prefix = std::str::from_utf8(&self.buf[..at]).map_or(at, |s| s.chars().count());
            let kind = FormatErrorKind::NotText { byte: self.buf[at] };
            return Err(self.error(no, Some(prefix + 1), kind));
        }
        let mut text = String::from_utf8_lossy(&self.buf).into_owned();
        if no == 1 && text.starts_with('\u{feff}') {
            text.remove(0);
        }
        Ok(Line { no, text })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn all(input: &[u8], limit: usize) -> Vec<Result<Line, FormatError>> {
        let mut lines = Lines::with_limit(input, "t".into(), limit);
        std::iter::from_fn(|| lines.next_line()).collect()
    }

    fn line(no: usize, text: &str) -> Result<Line, FormatError> {
        Ok(Line {
            no,
            text: text.into(),
        })
    }

    #[test]
    fn splits_on_newlines_and_strips_cr() {
        assert_eq!(
            all(b"a\r\nb\n\nc", 100),
            vec![line(1, "a"), line(2, "b"), line(3, ""), line(4, "c")]
        );
        assert_eq!(all(b"", 100), vec![]);
        assert_eq!(all(b"\n", 100), vec![line(1, "")]);
        assert_eq!(all("\u{feff}x\n".as_bytes(), 100), vec![line(1, "x")]);
    }

    #[test]
    fn a_lone_cr_ends_a_line_as_lf_and_crlf_do() {
        let want = vec![line(1, "a"), line(2, "b"), line(3, ""), line(4, "c")];
        assert_eq!(all(b"a\rb\r\rc", 100), want);
        assert_eq!(all(b"a\rb\r\rc\r", 100), want);
        assert_eq!(all(b"a\r\nb\r\r\nc\r\n", 100), want);
        assert_eq!(all(b"a\rb\n\r\nc", 100), want);
        // A `\r\n` split between two reads of a small buffer is one ending.
        for cap in 1..6 {
            let reader = std::io::BufReader::with_capacity(cap, &b"a\r\nb\r\r\nc"[..]);
            let mut lines = Lines::new(reader, "t".into());
            let got: Vec<_> = std::iter::from_fn(|| lines.next_line()).collect();
            assert_eq!(got, want, "capacity {cap}");
        }
    }

    #[test]
    fn line_ends_are_found_in_every_place() {
        for len in 0..40 {
            for at in 0..len {
                for end in [b'\n', b'\r'] {
                    let mut bytes = vec![b'x'; len];
                    bytes[at] = end;
                    assert_eq!(line_end(&bytes), Some(at), "{len} {at}");
                    if at + 1 < len {
                        bytes[at + 1] = b'\n';
                        assert_eq!(line_end(&bytes), Some(at), "{len} {at}");
                    }
                }
            }
            assert_eq!(line_end(&vec![b'x'; len]), None);
        }
    }

    #[test]
    fn long_lines_are_skipped_and_reported() {
        let got = all(b"12345\n123456789\nok\n", 5);
        assert_eq!(got[0], line(1, "12345"));
        let err = got[1].as_ref().unwrap_err();
        assert_eq!(err.kind, FormatErrorKind::LineTooLong { limit: 5 });
        assert_eq!(err.line, 2);
        assert_eq!(got[2], line(3, "ok"));
    }

    #[test]
    fn long_lines_across_small_buffers() {
        // A BufReader with a tiny buffer forces many fill_buf rounds.
        let input = format!("{}\nend", "x".repeat(1000));
        let reader = std::io::BufReader::with_capacity(7, input.as_bytes());
        let mut lines = Lines::with_limit(reader, "t".into(), 100);
        assert!(lines.next_line().unwrap().is_err());
        assert_eq!(lines.next_line().unwrap().unwrap().text, "end");
        assert!(lines.next_line().is_none());
    }

    #[test]
    fn push_back_and_numbers() {
        let mut lines = Lines::new(&b"one\ntwo\n"[..], "t".into());
        let one = lines.next_line().unwrap().unwrap();
        let two = lines.next_line().unwrap().unwrap();
        lines.unread(two.clone());
        lines.unread(one.clone());
        assert_eq!(lines.next_line().unwrap().unwrap(), one);
        assert_eq!(lines.next_line().unwrap().unwrap(), two);
        assert!(lines.next_line().is_none());
        assert_eq!(lines.line_no(), 2);
    }

    struct Failing;
    impl std::io::Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk on fire"))
        }
    }

    #[test]
    fn read_errors_end_the_lines() {
        let mut lines = Lines::new(std::io::BufReader::new(Failing), "t".into());
        let err = lines.next_line().unwrap().unwrap_err();
        assert_eq!(err.kind, FormatErrorKind::Io("disk on fire".into()));
        assert!(lines.next_line().is_none());
    }
}
