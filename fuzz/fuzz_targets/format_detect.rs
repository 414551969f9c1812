//! The streaming reader with format detection, as the game's import and the
//! command line use it: no panic, the same result through a tiny buffer,
//! and every puzzle read comes back unchanged from a write in each format
//! that holds it. The one-puzzle and text entry points must agree with it.
#![no_main]

use dekadoku::engine::format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let items = dekadoku_fuzz::read_and_check(data, None);
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = format::detect(text);
        let first = format::parse_one(text, "fuzz");
        assert_eq!(Some(&first), items.first(), "parse_one is the first item");
        let all = format::parse_str(text, "fuzz");
        match items.iter().find(|i| i.is_err()) {
            Some(Err(e)) => assert_eq!(all.as_ref().err(), Some(e), "the first error"),
            _ => {
                let puzzles: Vec<_> = items.into_iter().flatten().collect();
                assert_eq!(all, Ok(puzzles));
            }
        }
    }
});
