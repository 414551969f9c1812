//! Tests of the game rules, history and saved form.

use super::*;
use crate::engine::{Level, Limits, NoTrace, Outcome, solve};
use crate::game::save::compact;

fn v(d: usize) -> Value {
    Value::new(d).unwrap()
}

/// A 4×4 puzzle with one solution, and that solution.
fn small() -> (Puzzle, Grid) {
    let shape = Shape::square(2).unwrap();
    let p = Puzzle::from_numbers(shape, &[1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2]).unwrap();
    let Outcome::Solved(g) = solve(&p, &Limits::none(), &mut NoTrace) else {
        panic!("not unique");
    };
    (p, g)
}

fn game() -> Game {
    let (p, g) = small();
    Game::new(&p, Some(g), Origin::default())
}

#[test]
fn play_a_4x4_to_the_end() {
    let mut g = game();
    let sol = g.solution().unwrap().clone();
    assert!(!g.is_solved());
    for c in 0..16 {
        if !g.is_given(c) {
            assert!(g.enter(c, sol.get(c), true));
        }
    }
    assert!(g.is_solved());
    assert_eq!(g.progress(), (16, 16));
    assert_eq!(g.moves(), 12);
    // The clock stops once solved.
    g.advance(Duration::from_secs(5));
    assert_eq!(g.elapsed(), Duration::ZERO);
}

#[test]
fn givens_cannot_change() {
    let mut g = game();
    assert!(!g.enter(0, v(2), true));
    assert!(!g.toggle_note(0, v(2)));
    assert!(!g.clear(0));
    assert_eq!(g.value(0), Some(v(1)));
    assert_eq!(g.moves(), 0);
    assert!(g.history().undo.is_empty());
}

#[test]
fn undo_redo_cover_entries_notes_fills_and_clears() {
    let mut g = game();
    g.toggle_note(1, v(2));
    g.toggle_note(1, v(4));
    g.toggle_note(5, v(2));
    assert!(g.has_note(1, v(2)) && g.has_note(5, v(2)));
    // Entering 2 in r1c3 (cell 2) clears its peers' 2 notes: cell 1 (same row)
    // loses 2, cell 5 (other row, other box) keeps it.
    g.enter(2, v(2), true);
    assert!(!g.has_note(1, v(2)) && g.has_note(1, v(4)));
    assert!(g.has_note(5, v(2)));
    let before_fill: Vec<NoteSet> = (0..16).map(|c| g.notes(c)).collect();
    g.fill_candidates();
    assert!(!g.notes(3).is_empty());
    g.clear(2);
    assert_eq!(g.value(2), None);
    let end = g.to_save();

    assert_eq!(g.undo(), Some(MoveKind::Clear));
    assert_eq!(g.value(2), Some(v(2)));
    assert_eq!(g.undo(), Some(MoveKind::FillNotes));
    assert_eq!((0..16).map(|c| g.notes(c)).collect::<Vec<_>>(), before_fill);
    assert_eq!(g.undo(), Some(MoveKind::Enter));
    assert_eq!(g.value(2), None);
    assert!(g.has_note(1, v(2)), "auto-removed note comes back");
    assert_eq!(g.undo(), Some(MoveKind::Note));
    assert_eq!(g.undo(), Some(MoveKind::Note));
    assert_eq!(g.undo(), Some(MoveKind::Note));
    assert_eq!(g.undo(), None);
    assert!((0..16).all(|c| g.notes(c).is_empty() && (g.is_given(c) || g.value(c).is_none())));

    for _ in 0..6 {
        assert!(g.redo().is_some());
    }
    assert_eq!(g.redo(), None);
    let mut again = g.to_save();
    again.history = end.history.clone();
    assert_eq!(again, end, "redo restores the board and notes exactly");
    // A new move drops the redo list.
    g.undo();
    g.enter(3, v(3), false);
    assert_eq!(g.redo(), None);
}

#[test]
fn entering_the_same_value_clears_and_notes_need_an_empty_cell() {
    let mut g = game();
    g.enter(1, v(3), false);
    assert!(!g.toggle_note(1, v(2)));
    g.enter(1, v(3), false);
    assert_eq!(g.value(1), None);
    assert!(g.toggle_note(1, v(2)));
    // Clearing an empty cell clears its notes; clearing again does nothing.
    assert!(g.clear(1));
    assert!(!g.clear(1));
}

#[test]
fn conflicts_are_found_in_both_cells_and_the_unit() {
    let mut g = game();
    assert!(g.conflicts().is_empty());
    g.enter(1, v(1), false); // r1c2 = 1 next to the given 1 at r1c1
    let k = g.conflicts();
    assert!(k.cells[0] && k.cells[1]);
    assert!(k.units[0], "row 1");
    assert!(k.units[2 * 4], "box 1");
    assert!(!k.units[4 + 1], "column 2 is fine");
    assert_eq!(k.cells.iter().filter(|&&c| c).count(), 2);
    g.undo();
    assert!(g.conflicts().is_empty());
}

#[test]
fn check_marks_wrong_entries_until_they_change() {
    let mut g = game();
    let sol = g.solution().unwrap().clone();
    let wrong = (1..=4).map(v).find(|&x| x != sol.get(1)).unwrap();
    g.enter(1, wrong, false);
    g.enter(2, sol.get(2), false);
    assert_eq!(g.check(), vec![1]);
    assert!(g.is_marked_wrong(1) && !g.is_marked_wrong(2));
    g.enter(1, sol.get(1), false);
    assert!(!g.is_marked_wrong(1));
}

#[test]
fn solve_is_one_undoable_move() {
    let mut g = game();
    g.toggle_note(1, v(2));
    assert!(g.solve());
    assert!(g.is_solved());
    assert_eq!(g.undo(), Some(MoveKind::Solve));
    assert_eq!(g.progress().0, 4);
    assert!(g.has_note(1, v(2)));
}

#[test]
fn hints_name_singles_then_apply() {
    let mut g = game();
    let hinter = SinglesHinter;
    let sol = g.solution().unwrap().clone();
    let mut steps = 0;
    while let Some(h) = hinter.hint(&g) {
        let Hint::Place {
            cell,
            value,
            reason,
        } = h.clone()
        else {
            panic!("unexpected {h:?}");
        };
        assert_eq!(value, sol.get(cell), "{}", h.explain(&g));
        assert_ne!(
            reason,
            HintReason::Revealed,
            "a 4×4 with singles: {}",
            h.explain(&g)
        );
        assert!(!h.explain(&g).is_empty());
        assert!(g.apply_hint(&h, true));
        steps += 1;
        assert!(steps <= 12);
    }
    assert!(g.is_solved());
    assert_eq!(g.hints_used(), 12);
}

#[test]
fn a_wrong_entry_comes_first_in_hints() {
    let mut g = game();
    let sol = g.solution().unwrap().clone();
    let wrong = (1..=4).map(v).find(|&x| x != sol.get(5)).unwrap();
    g.enter(5, wrong, false);
    let h = SinglesHinter.hint(&g).unwrap();
    assert_eq!(h, Hint::Wrong { cells: vec![5] });
    assert!(h.explain(&g).contains("r2c2"));
    assert!(!g.apply_hint(&h, true));
}

#[test]
fn save_round_trip_resumes_exactly() {
    let mut g = game();
    g.toggle_note(1, v(2));
    g.enter(2, v(2), true);
    g.fill_candidates();
    g.undo();
    g.advance(Duration::from_millis(1234));
    let s = g.to_save();
    let back = Game::from_save(&s).unwrap();
    assert_eq!(back.to_save(), s);
    assert_eq!(back.elapsed(), Duration::from_millis(1234));
    let mut back = back;
    assert_eq!(back.redo(), Some(MoveKind::FillNotes));
    assert_eq!(back.undo(), Some(MoveKind::FillNotes));
    assert_eq!(back.undo(), Some(MoveKind::Enter));
}

/// The version 1 form of a game's save: board and history as plain lists.
fn version_1(g: &Game) -> GameSave {
    let mut s = g.to_save();
    s.play = None;
    s.entries = Some(
        g.entries
            .iter()
            .map(|v| v.map_or(0, |v| v.get() as u16))
            .collect(),
    );
    s.notes = Some(g.notes.raw().to_vec());
    s.history = Some(g.history.clone());
    s
}

#[test]
fn version_1_saves_still_resume() {
    let mut g = game();
    g.toggle_note(1, v(2));
    g.enter(2, v(2), true);
    g.fill_candidates();
    g.undo();
    let back = Game::from_save(&version_1(&g)).unwrap();
    assert_eq!(back.to_save(), g.to_save());
    assert_eq!(back.history(), g.history());
}

#[test]
fn damaged_saves_are_errors_not_panics() {
    let mut g = game();
    g.enter(2, v(2), true);
    let good = g.to_save();
    let mut s = good.clone();
    s.box_rows = 1;
    assert!(matches!(
        Game::from_save(&s),
        Err(SaveError::Shape {
            box_rows: 1,
            box_cols: 2,
            ..
        })
    ));
    let mut s = good.clone();
    s.givens[3] = 9;
    assert!(matches!(
        Game::from_save(&s),
        Err(SaveError::Value {
            field: "givens",
            cell: 3,
            ..
        })
    ));
    let mut s = good.clone();
    s.givens[1] = 1; // duplicates the given 1 at r1c1
    assert!(matches!(Game::from_save(&s), Err(SaveError::Givens(_))));
    // The packed play of a bigger board, and text that is no play at all.
    let mut s = good.clone();
    s.play = Game::new(&Puzzle::empty(Shape::CLASSIC), None, Origin::default())
        .to_save()
        .play;
    assert!(
        Game::from_save(&s).is_ok(),
        "an empty 9×9 play is an empty 4×4 play"
    );
    let mut big = Game::new(&Puzzle::empty(Shape::CLASSIC), None, Origin::default());
    big.enter(80, v(9), false);
    s.play = big.to_save().play;
    assert!(matches!(
        Game::from_save(&s),
        Err(SaveError::Play(compact::PlayError::Move {
            index: 0,
            fault: MoveFault::OutsideBoard(80)
        }))
    ));
    s.play = Some("not base64!".into());
    assert!(matches!(Game::from_save(&s), Err(SaveError::Play(_))));
    let mut s = good.clone();
    s.play = None;
    assert!(matches!(Game::from_save(&s), Err(SaveError::NoBoard)));
    // Version 1 lists.
    let old = version_1(&g);
    let mut s = old.clone();
    s.entries.as_mut().unwrap().pop();
    assert!(matches!(
        Game::from_save(&s),
        Err(SaveError::Length {
            field: "entries",
            ..
        })
    ));
    let mut s = old.clone();
    s.notes.as_mut().unwrap().push(0);
    assert!(matches!(
        Game::from_save(&s),
        Err(SaveError::Length { field: "notes", .. })
    ));
    let mut s = old;
    s.history.as_mut().unwrap().undo.push(Move {
        kind: MoveKind::Enter,
        changes: vec![CellChange {
            cell: 99,
            before: CellState::default(),
            after: CellState::default(),
        }],
    });
    assert!(matches!(
        Game::from_save(&s),
        Err(SaveError::History {
            index: 1,
            fault: MoveFault::OutsideBoard(99)
        })
    ));
    // A solution that does not solve the puzzle is dropped, not fatal.
    let mut s = good;
    s.solution = Some(vec![1; 16]);
    assert!(Game::from_save(&s).unwrap().solution().is_none());
}

#[test]
fn symbols_for_every_size() {
    assert_eq!(symbol(9, v(9)), "9");
    assert_eq!(symbol(16, v(10)), "A");
    assert_eq!(symbol(25, v(25)), "P");
    assert_eq!(symbol(36, v(12)), "12");
    assert_eq!(parse_symbol(16, "a"), Some(v(10)));
    assert_eq!(parse_symbol(16, "12"), Some(v(12)));
    assert_eq!(parse_symbol(16, "17"), None);
    assert_eq!(parse_symbol(9, "A"), None);
    assert_eq!(parse_symbol(9, "0"), None);
    assert_eq!(parse_symbol(100, "100"), Some(v(100)));
}

#[test]
fn logic_hints_solve_generated_puzzles_soundly() {
    use crate::engine::generate::{GenerateOptions, generate};
    let mut eliminating = 0;
    for (shape, seed) in [
        (Shape::CLASSIC, 1u64),
        (Shape::CLASSIC, 2),
        (Shape::new(2, 3).unwrap(), 3),
        (Shape::square(4).unwrap(), 4),
    ] {
        let made = generate(
            &GenerateOptions::new(shape, Level::Expert, seed),
            &Limits::none(),
        )
        .unwrap();
        let mut g = Game::new(&made.puzzle, Some(made.solution.clone()), Origin::default());
        let mut rounds = 0;
        while !g.is_solved() {
            let h = LogicHinter.hint(&g).expect("a hint until solved");
            if let Hint::Logic(step) = &h
                && !step.eliminations.is_empty()
            {
                eliminating += 1;
            }
            assert!(g.apply_hint(&h, true), "{}", h.explain(&g));
            assert!(g.wrong_entries().is_empty());
            for c in 0..shape.cells() {
                if g.value(c).is_none() && !g.notes(c).is_empty() {
                    assert!(
                        g.has_note(c, made.solution.get(c)),
                        "a hint removed the answer at {c}"
                    );
                }
            }
            rounds += 1;
            assert!(rounds < 4 * shape.cells());
        }
        // Undo takes every hint back.
        while g.undo().is_some() {}
        assert_eq!(g.progress().0, made.puzzle.clue_count());
    }
    assert!(eliminating > 0, "no elimination hint was exercised");
}
