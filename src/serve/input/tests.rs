use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::{InputDecoder, MAX_PASTE, MAX_SEQUENCE};
use crate::tui::action::Action;

fn decode(bytes: &[u8]) -> Vec<Action> {
    InputDecoder::new().feed(bytes)
}

/// The key actions' (code, modifiers); panics on other actions.
fn keys(actions: &[Action]) -> Vec<(KeyCode, KeyModifiers)> {
    actions
        .iter()
        .map(|a| match a {
            Action::Key(k) => (k.code, k.modifiers),
            other => panic!("not a key: {other:?}"),
        })
        .collect()
}

fn plain(code: KeyCode) -> (KeyCode, KeyModifiers) {
    (code, KeyModifiers::NONE)
}

#[test]
fn printable_ascii_and_shift() {
    assert_eq!(
        keys(&decode(b"a5 Z")),
        vec![
            plain(KeyCode::Char('a')),
            plain(KeyCode::Char('5')),
            plain(KeyCode::Char(' ')),
            (KeyCode::Char('Z'), KeyModifiers::SHIFT),
        ]
    );
    let a = decode(b"q");
    let Action::Key(k) = &a[0] else { panic!() };
    assert_eq!(k.kind, KeyEventKind::Press);
}

#[test]
fn utf8_split_across_feeds() {
    let bytes = "é€😀".as_bytes();
    let mut d = InputDecoder::new();
    let mut got = Vec::new();
    for b in bytes {
        got.extend(d.feed(std::slice::from_ref(b)));
    }
    assert_eq!(
        keys(&got),
        vec![
            plain(KeyCode::Char('é')),
            plain(KeyCode::Char('€')),
            plain(KeyCode::Char('😀')),
        ]
    );
    assert_eq!(d.buffered(), 0);
}

#[test]
fn enter_backspace_tab_and_ctrl_letters() {
    assert_eq!(
        keys(&decode(b"\r\x7f\t\x01\x1a\x03")),
        vec![
            plain(KeyCode::Enter),
            plain(KeyCode::Backspace),
            plain(KeyCode::Tab),
            (KeyCode::Char('a'), KeyModifiers::CONTROL),
            (KeyCode::Char('z'), KeyModifiers::CONTROL),
            (KeyCode::Char('c'), KeyModifiers::CONTROL),
        ]
    );
    assert_eq!(
        keys(&decode(b"\x1b[Z")),
        vec![(KeyCode::BackTab, KeyModifiers::SHIFT)]
    );
}

#[test]
fn arrows_csi_and_ss3() {
    let want = vec![
        plain(KeyCode::Up),
        plain(KeyCode::Down),
        plain(KeyCode::Right),
        plain(KeyCode::Left),
    ];
    assert_eq!(keys(&decode(b"\x1b[A\x1b[B\x1b[C\x1b[D")), want);
    assert_eq!(keys(&decode(b"\x1bOA\x1bOB\x1bOC\x1bOD")), want);
}

#[test]
fn navigation_keys() {
    assert_eq!(
        keys(&decode(
            b"\x1b[H\x1b[F\x1b[1~\x1b[4~\x1b[5~\x1b[6~\x1b[3~\x1bOH\x1bOF"
        )),
        vec![
            plain(KeyCode::Home),
            plain(KeyCode::End),
            plain(KeyCode::Home),
            plain(KeyCode::End),
            plain(KeyCode::PageUp),
            plain(KeyCode::PageDown),
            plain(KeyCode::Delete),
            plain(KeyCode::Home),
            plain(KeyCode::End),
        ]
    );
}

#[test]
fn function_keys() {
    let bytes: &[&[u8]] = &[
        b"\x1bOP",
        b"\x1bOQ",
        b"\x1bOR",
        b"\x1bOS",
        b"\x1b[15~",
        b"\x1b[17~",
        b"\x1b[18~",
        b"\x1b[19~",
        b"\x1b[20~",
        b"\x1b[21~",
        b"\x1b[23~",
        b"\x1b[24~",
    ];
    let got = keys(&decode(&bytes.concat()));
    let want: Vec<_> = (1..=12).map(|n| plain(KeyCode::F(n))).collect();
    assert_eq!(got, want);
}

#[test]
fn modified_arrows_and_alt() {
    assert_eq!(
        keys(&decode(b"\x1b[1;5A\x1b[1;2D\x1b[1;3C")),
        vec![
            (KeyCode::Up, KeyModifiers::CONTROL),
            (KeyCode::Left, KeyModifiers::SHIFT),
            (KeyCode::Right, KeyModifiers::ALT),
        ]
    );
    assert_eq!(
        keys(&decode(b"\x1bx\x1b\r")),
        vec![
            (KeyCode::Char('x'), KeyModifiers::ALT),
            (KeyCode::Enter, KeyModifiers::ALT),
        ]
    );
}

#[test]
fn bracketed_paste_split_across_feeds() {
    let bytes = b"a\x1b[200~12.3\r\n\x1b[ not a key\x1b[201~b";
    for split in 0..bytes.len() {
        let mut d = InputDecoder::new();
        let mut got = d.feed(&bytes[..split]);
        got.extend(d.feed(&bytes[split..]));
        assert_eq!(got.len(), 3, "split at {split}: {got:?}");
        assert!(matches!(&got[0], Action::Key(k) if k.code == KeyCode::Char('a')));
        assert!(
            matches!(&got[1], Action::Paste(t) if t == "12.3\r\n\x1b[ not a key"),
            "split at {split}: {got:?}"
        );
        assert!(matches!(&got[2], Action::Key(k) if k.code == KeyCode::Char('b')));
        assert_eq!(d.buffered(), 0);
    }
}

#[test]
fn paste_byte_by_byte() {
    let bytes = b"\x1b[200~hello\x1b[201~";
    let mut d = InputDecoder::new();
    let mut got = Vec::new();
    for b in bytes {
        got.extend(d.feed(std::slice::from_ref(b)));
    }
    assert!(matches!(&got[..], [Action::Paste(t)] if t == "hello"));
}

#[test]
fn paste_at_the_cap_kept_over_it_dropped() {
    let mut at_cap = b"\x1b[200~".to_vec();
    at_cap.extend(std::iter::repeat_n(b'7', MAX_PASTE));
    at_cap.extend(b"\x1b[201~x");
    let got = decode(&at_cap);
    assert!(matches!(&got[0], Action::Paste(t) if t.len() == MAX_PASTE));
    assert_eq!(keys(&got[1..]), vec![plain(KeyCode::Char('x'))]);

    let mut d = InputDecoder::new();
    let mut got = d.feed(b"\x1b[200~");
    let chunk = vec![b'8'; 64 * 1024];
    for _ in 0..40 {
        got.extend(d.feed(&chunk));
        assert!(d.buffered() <= MAX_PASTE + 16);
    }
    // The end marker split across feeds, then a key.
    got.extend(d.feed(b"\x1b[20"));
    got.extend(d.feed(b"1~y"));
    assert_eq!(keys(&got), vec![plain(KeyCode::Char('y'))]);
    assert_eq!(d.buffered(), 0);
}

#[test]
fn sgr_mouse_left_press_is_a_click() {
    let got = decode(b"\x1b[<0;10;5M\x1b[<0;10;5m\x1b[<2;3;3M\x1b[<64;3;3M\x1b[<32;4;4M");
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(matches!(got[0], Action::Click { x: 9, y: 4 }));
    // Zero coordinates would underflow in the parser: dropped, and the
    // next key still comes.
    let got = decode(b"\x1b[<0;0;0Mk\x1b[32;0;1Mj");
    assert_eq!(
        keys(&got),
        vec![plain(KeyCode::Char('k')), plain(KeyCode::Char('j'))]
    );
}

#[test]
fn focus_in_and_out() {
    let got = decode(b"\x1b[I\x1b[O");
    assert!(matches!(
        got[..],
        [Action::Focus(true), Action::Focus(false)]
    ));
}

#[test]
fn lone_esc_waits_for_flush() {
    let mut d = InputDecoder::new();
    assert!(d.feed(b"\x1b").is_empty());
    assert_eq!(keys(&d.flush()), vec![plain(KeyCode::Esc)]);
    assert_eq!(d.buffered(), 0);
    // An incomplete sequence is dropped by a flush, the next key is fine.
    assert!(d.feed(b"\x1b[1;").is_empty());
    assert!(d.flush().is_empty());
    assert_eq!(keys(&d.feed(b"a")), vec![plain(KeyCode::Char('a'))]);
    // Esc then a key in a later feed is Alt+key, as crossterm reads it.
    assert!(d.feed(b"\x1b").is_empty());
    assert_eq!(
        keys(&d.feed(b"b")),
        vec![(KeyCode::Char('b'), KeyModifiers::ALT)]
    );
}

#[test]
fn garbage_between_keys_is_dropped() {
    let got = decode(b"a\x1b[?1;2c\xff\x80b\x1b[99;99;99;99X\x1b[1\x1b[Ac");
    assert_eq!(
        keys(&got),
        vec![
            plain(KeyCode::Char('a')),
            plain(KeyCode::Char('b')),
            plain(KeyCode::Up),
            plain(KeyCode::Char('c')),
        ]
    );
}

#[test]
fn endless_sequence_is_capped() {
    let mut d = InputDecoder::new();
    let mut bytes = b"\x1b[".to_vec();
    bytes.extend(std::iter::repeat_n(b'1', 10 * MAX_SEQUENCE));
    let mut got = d.feed(&bytes);
    assert!(d.buffered() < MAX_SEQUENCE);
    got.extend(d.feed(b"\x1b[B"));
    // The capped run's tail is read as digits, then the arrow comes.
    assert_eq!(
        got.last().map(|a| keys(std::slice::from_ref(a))),
        Some(vec![plain(KeyCode::Down)])
    );
}

proptest::proptest! {
    #[test]
    fn random_chunks_never_panic_and_stay_bounded(
        chunks in proptest::collection::vec(
            proptest::collection::vec(
                proptest::sample::select(vec![
                    0x1bu8, b'[', b'<', b'O', b'M', b'm', b';', b'0', b'1', b'2', b'~',
                    b'u', b'A', b'?', b'I', b'a', 0x7f, b'\r', 0xc3, 0xa9, 0xff, 0x80,
                ]),
                0..64,
            ),
            0..32,
        ),
        prefix in proptest::sample::select(vec![&b""[..], b"\x1b[200~", b"\x1b[<", b"\x1b"]),
        flush_every in 1usize..8,
    ) {
        let mut d = InputDecoder::new();
        d.feed(prefix);
        for (i, c) in chunks.iter().enumerate() {
            for a in d.feed(c) {
                if let Action::Key(KeyEvent { code: KeyCode::Char(ch), .. }) = a {
                    proptest::prop_assert!(ch != char::REPLACEMENT_CHARACTER);
                }
            }
            proptest::prop_assert!(d.buffered() <= MAX_SEQUENCE + MAX_PASTE + 16);
            if i % flush_every == 0 {
                d.flush();
            }
        }
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..512)) {
        let mut d = InputDecoder::new();
        d.feed(&bytes);
        d.flush();
        proptest::prop_assert!(d.buffered() <= MAX_SEQUENCE + 16);
    }
}
