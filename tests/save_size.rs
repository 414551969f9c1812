//! Saves grow with the moves, not with moves × board: the 400×400 import
//! with candidates filled and cleared five times stays under 5 MB, a 25×25
//! game of 2,000 moves under 1 MB, and each save, written as the game
//! writes it, loads back to the same board and history.
#![cfg(feature = "store")]
#![allow(clippy::unwrap_used)]

mod common;

use std::fs;

use dekadoku::engine::{Puzzle, Value};
use dekadoku::game::{GAME_SAVE_VERSION, Game, GameSave, MoveKind, Origin};
use dekadoku::store::{SaveMeta, read_checked_or_backup, write_save};

const KIND: &str = "game";

fn meta(g: &Game) -> SaveMeta {
    let n = g.shape().n();
    SaveMeta {
        size: format!("{n}x{n}"),
        level: None,
        filled: g.progress().0 as u32,
        cells: g.shape().cells() as u32,
        elapsed_secs: 0,
        saved_at: 0,
        solved: false,
        title: None,
    }
}

/// Writes `g` as the game writes a save and reads it back through the
/// same check; returns the file's size and the game read.
fn write_and_read(g: &Game, tag: &str) -> (u64, Game) {
    let dir = tempfile::Builder::new()
        .prefix(&format!("dekadoku-size-{tag}-"))
        .tempdir()
        .unwrap();
    let path = dir.path().join("autosave.json");
    write_save(&path, KIND, GAME_SAVE_VERSION, &meta(g), &g.to_save()).unwrap();
    let bytes = fs::metadata(&path).unwrap().len();
    let back = read_checked_or_backup(&path, KIND, GAME_SAVE_VERSION, |s: GameSave| {
        Game::from_save(&s)
    })
    .unwrap_or_else(|e| panic!("{tag}: the save does not load: {e}"));
    assert!(back.from_backup.is_none(), "{tag}: loaded from the backup");
    (bytes, back.payload)
}

/// The loaded game is the saved one: board, notes and both lists.
fn assert_same(a: &Game, b: &Game) {
    assert_eq!(a.history(), b.history());
    for c in 0..a.shape().cells() {
        assert_eq!(a.value(c), b.value(c), "cell {c}");
        assert_eq!(a.notes(c), b.notes(c), "notes of cell {c}");
    }
}

#[test]
fn a_400x400_import_with_candidates_filled_five_times_saves_small() {
    let Some(path) = common::shared("large/rkkautsar_sudoku-400-1.txt") else {
        return;
    };
    let puzzle = common::read_all(&path).remove(0);
    let mut g = Game::new(&puzzle, None, Origin::default());
    for _ in 0..5 {
        assert!(g.fill_candidates());
        assert!(g.clear_notes());
    }
    // Leave the last fill on the board and one clear in the redo list.
    assert_eq!(g.undo(), Some(MoveKind::ClearNotes));
    let (bytes, back) = write_and_read(&g, "400");
    eprintln!("400×400, candidates filled and cleared five times: {bytes} bytes");
    assert!(bytes < 5_000_000, "{bytes} bytes");
    assert_same(&g, &back);
    // The notes on the board are the candidates, as filled.
    let cands = g.candidates();
    let some = (0..puzzle.shape().cells())
        .find(|&c| g.value(c).is_none())
        .unwrap();
    assert_eq!(back.notes(some), cands[some]);
    assert!(!cands[some].is_empty());
}

/// A 25×25 game of 2,000 moves: entries (right and wrong, with the notes
/// of peers updated), notes toggled, cells cleared, candidates filled,
/// hints, undos and redos.
#[test]
fn a_25x25_game_of_2000_moves_saves_small() {
    let text = fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/puzzles/25x25-easy.txt"
    ))
    .unwrap();
    let line = text
        .lines()
        .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .unwrap();
    let puzzle: Puzzle = line.parse().unwrap();
    let n = puzzle.shape().n();
    let mut g = Game::new(&puzzle, None, Origin::default());
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |k: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % k as u64) as usize
    };
    let empty: Vec<usize> = (0..puzzle.shape().cells())
        .filter(|&c| g.value(c).is_none())
        .collect();
    g.fill_candidates();
    let mut moves = 1;
    while moves < 2_000 {
        let c = empty[next(empty.len())];
        let v = Value::new(1 + next(n)).unwrap();
        let done = match next(10) {
            0..=3 => g.enter(c, v, true),
            4..=6 => g.toggle_note(c, v),
            7 => g.clear(c),
            8 => g.undo().is_some(),
            _ => g.redo().is_some(),
        };
        moves += usize::from(done);
    }
    let (bytes, back) = write_and_read(&g, "25");
    eprintln!("25×25, 2,000 moves: {bytes} bytes");
    assert!(bytes < 1_000_000, "{bytes} bytes");
    assert_same(&g, &back);
    assert!(g.history().undo.len() > 1_000);
}
