//! The server's input decoder: the bytes cut into feeds (each chunk's
//! length from the byte before it), a flush after every chunk whose length
//! byte is odd. No panic, and the decoder never holds more than its caps.
#![no_main]

use dekadoku::serve::input::{InputDecoder, MAX_PASTE, MAX_SEQUENCE};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut decoder = InputDecoder::new();
    let mut rest = data;
    while let Some((&len, tail)) = rest.split_first() {
        let (chunk, next) = tail.split_at(usize::from(len).min(tail.len()));
        decoder.feed(chunk);
        assert!(decoder.buffered() <= MAX_SEQUENCE + MAX_PASTE + 16);
        if len % 2 == 1 {
            decoder.flush();
        }
        rest = next;
    }
    decoder.flush();
});
