//! The save-file loader: the bytes become the autosave file and the
//! statistics file in a scratch folder, then the saves listing, `read_save`
//! and `Game::from_save` (as Continue does) and `Stats::load` read them. No
//! panic; a game that loads is written back, and reads back the same.
#![no_main]

use std::fs;

use dekadoku::game::{GAME_SAVE_VERSION, Game, GameSave};
use dekadoku::store::{Saves, Stats, read_save, write_save};
use dekadoku::tui::action::GAME_KIND;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let dir = dekadoku_fuzz::scratch("save");
    let path = dir.join("autosave.json");
    fs::write(&path, data).expect("scratch file");

    // Listing reads only the envelope and moves nothing.
    let listed = Saves::new(&dir).list();
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert!(path.exists(), "listing moved the file");

    match read_save::<GameSave>(&path, GAME_KIND, GAME_SAVE_VERSION) {
        Ok((meta, save)) => {
            if let Ok(game) = Game::from_save(&save) {
                let once = game.to_save();
                write_save(&path, GAME_KIND, GAME_SAVE_VERSION, &meta, &once)
                    .expect("a loaded game can be saved");
                let (meta2, again) = read_save::<GameSave>(&path, GAME_KIND, GAME_SAVE_VERSION)
                    .expect("a saved game reads back");
                assert_eq!(meta2, meta);
                assert_eq!(again, once);
                let game2 = Game::from_save(&again).expect("a saved game loads");
                assert_eq!(game2.to_save(), once, "save, load, save is stable");
            }
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }

    let stats = dir.join("stats.json");
    fs::write(&stats, data).expect("scratch file");
    let (_, warning) = Stats::load(&stats);
    let _ = warning;
});
