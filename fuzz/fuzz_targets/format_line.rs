//! The line format's reader, forced (no detection): no panic, the same
//! result through a tiny buffer, and every puzzle read comes back unchanged
//! from a write in each format that holds it.
#![no_main]

use dekadoku::engine::format::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    dekadoku_fuzz::read_and_check(data, Some(Format::Line));
});
