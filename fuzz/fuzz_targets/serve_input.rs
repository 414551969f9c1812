//! The server's input path: the bytes cut into feeds (each chunk's length
//! from the byte before it) through the decoder into a served game (a
//! pasted puzzle read as the server reads it), a flush after every chunk
//! whose length byte is odd, a frame drawn after each
//! (`dekadoku::serve::session::feed_chunks`). No panic, and the decoder
//! never holds more than its caps.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = dekadoku::serve::session::feed_chunks(data);
});
