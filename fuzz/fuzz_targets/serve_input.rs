//! The server's input path: the bytes cut into feeds (each chunk's length
//! from the byte before it) through the decoder into a served game (a
//! pasted puzzle read as the server reads it), a flush after every chunk
//! whose length byte is odd, a frame drawn after each. No panic, and the
//! decoder never holds more than its caps.
#![no_main]

use dekadoku::serve::input::{InputDecoder, MAX_PASTE, MAX_SEQUENCE};
use dekadoku::serve::session::feed;
use dekadoku::store::Config;
use dekadoku::tui::action::Action;
use dekadoku::tui::app::App;
use dekadoku::tui::keymap::Keymap;
use dekadoku::tui::style::Styles;
use libfuzzer_sys::fuzz_target;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fuzz_target!(|data: &[u8]| {
    let mut app = App::new(Config::default(), Styles::basic(), Keymap::defaults(), 1);
    app.served = true;
    app.update(Action::Resize(80, 24));
    let Ok(mut terminal) = Terminal::new(TestBackend::new(80, 24));
    let mut decoder = InputDecoder::new();
    let mut rest = data;
    while let Some((&len, tail)) = rest.split_first() {
        let (chunk, next) = tail.split_at(usize::from(len).min(tail.len()));
        feed(&mut app, &mut decoder, chunk, len % 2 == 1, 25);
        assert!(decoder.buffered() <= MAX_SEQUENCE + MAX_PASTE + 16);
        if app.is_quitting() {
            return;
        }
        let _ = terminal.draw(|f| dekadoku::tui::ui::draw(f, &app));
        rest = next;
    }
});
