//! Tests of the packed play: every game a player can make packs and
//! unpacks to the same board and history, and damaged bytes are errors.

use proptest::prelude::*;

use super::*;
use crate::engine::{Puzzle, Shape};
use crate::game::{Game, Origin};

fn v(d: usize) -> Value {
    Value::new(d).unwrap()
}

/// Packs `g`'s play and unpacks it again.
fn round_trip(g: &Game) -> Play {
    let save = g.to_save();
    let play = save.play.as_deref().unwrap();
    let givens: Vec<Option<Value>> = save
        .givens
        .iter()
        .map(|&x| Value::new(usize::from(x)))
        .collect();
    unpack(g.shape(), &givens, play).unwrap()
}

fn assert_same(g: &Game, p: &Play) {
    assert_eq!(g.history(), &p.history);
    for c in 0..g.shape().cells() {
        let entry = if g.is_given(c) {
            0
        } else {
            g.value(c).map_or(0, |v| v.get() as u16)
        };
        assert_eq!(p.entries[c], entry, "entry of cell {c}");
        assert_eq!(p.notes.get(c), g.notes(c), "notes of cell {c}");
    }
}

/// Packs raw play bytes as a save carries them.
fn packed(bytes: &[u8]) -> String {
    let mut z = DeflateEncoder::new(Vec::new(), Compression::default());
    z.write_all(bytes).unwrap();
    BASE64.encode(z.finish().unwrap())
}

fn empty_9x9() -> (Shape, Vec<Option<Value>>) {
    (Shape::CLASSIC, vec![None; 81])
}

/// A move a player can make, drawn for the property below.
#[derive(Debug, Clone)]
enum Step {
    Enter(usize, usize, bool),
    Note(usize, usize),
    Clear(usize),
    Fill,
    ClearNotes,
    Undo,
    Redo,
    Hint,
    Board(Vec<usize>),
}

fn step(cells: usize, n: usize) -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => (0..cells, 1..=n, any::<bool>()).prop_map(|(c, d, a)| Step::Enter(c, d, a)),
        4 => (0..cells, 1..=n).prop_map(|(c, d)| Step::Note(c, d)),
        1 => (0..cells).prop_map(Step::Clear),
        1 => Just(Step::Fill),
        1 => Just(Step::ClearNotes),
        2 => Just(Step::Undo),
        1 => Just(Step::Redo),
        1 => Just(Step::Hint),
        1 => prop::collection::vec(0..=n, cells).prop_map(Step::Board),
    ]
}

fn play(g: &mut Game, steps: &[Step]) {
    use crate::game::{Hinter, LogicHinter};
    for s in steps {
        match *s {
            Step::Hint => {
                if let Some(h) = LogicHinter.hint(g) {
                    g.apply_hint(&h, true);
                }
            }
            Step::Board(ref values) => {
                g.take_board(&values.iter().map(|&d| Value::new(d)).collect::<Vec<_>>());
            }
            Step::Enter(c, d, auto) => {
                g.enter(c, v(d), auto);
            }
            Step::Note(c, d) => {
                g.toggle_note(c, v(d));
            }
            Step::Clear(c) => {
                g.clear(c);
            }
            Step::Fill => {
                g.fill_candidates();
            }
            Step::ClearNotes => {
                g.clear_notes();
            }
            Step::Undo => {
                g.undo();
            }
            Step::Redo => {
                g.redo();
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any game on a 6×6 (with givens, rectangular boxes) packs and unpacks
    /// to the same board and history, and its save resumes the same game.
    #[test]
    fn any_game_round_trips(steps in prop::collection::vec(step(36, 6), 0..60)) {
        let shape = Shape::new(2, 3).unwrap();
        let mut numbers = vec![0usize; 36];
        numbers[0] = 1;
        numbers[8] = 2;
        numbers[35] = 6;
        let puzzle = Puzzle::from_numbers(shape, &numbers).unwrap();
        let mut g = Game::new(&puzzle, None, Origin::default());
        play(&mut g, &steps);
        let p = round_trip(&g);
        assert_same(&g, &p);
        let back = Game::from_save(&g.to_save()).unwrap();
        prop_assert_eq!(back.to_save(), g.to_save());
    }

    /// Bytes that are not a play never panic: an error or some play.
    #[test]
    fn any_bytes_unpack_or_fail(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let (shape, givens) = empty_9x9();
        let mut with_format = vec![FORMAT];
        with_format.extend(&bytes);
        let _ = unpack(shape, &givens, &packed(&with_format));
        let _ = unpack(shape, &givens, &packed(&bytes));
    }
}

#[test]
fn a_fill_of_candidates_is_stored_as_one_flag_per_cell() {
    let mut g = Game::new(
        &Puzzle::empty(Shape::square(4).unwrap()),
        None,
        Origin::default(),
    );
    g.enter(0, v(1), false);
    g.fill_candidates();
    let save = g.to_save();
    let text = save.play.unwrap();
    let mut bytes = Vec::new();
    DeflateDecoder::new(BASE64.decode(&text).unwrap().as_slice())
        .read_to_end(&mut bytes)
        .unwrap();
    // Format, empty start, two undo moves; the entry: kind, count, cell,
    // flags, value; the fill: kind, count (255 cells, two bytes), then two
    // bytes per cell (delta 1, flags); no redo.
    assert_eq!(bytes.len(), 1 + 1 + 1 + (1 + 1 + 3) + (1 + 2 + 255 * 2) + 1);
    assert_eq!(bytes[bytes.len() - 2], NOTES_CANDIDATES);
}

/// A history that does not follow from the board (a hand-made or old
/// save) still round-trips: the before states are stored where needed.
#[test]
fn a_history_that_does_not_follow_keeps_its_before_states() {
    let (shape, givens) = empty_9x9();
    let odd = CellState {
        entry: 7,
        notes: NoteSet::empty(9),
    };
    let history = History {
        undo: vec![Move {
            kind: MoveKind::Enter,
            changes: vec![CellChange {
                cell: 5,
                before: odd.clone(),
                after: CellState {
                    entry: 3,
                    notes: NoteSet::empty(9),
                },
            }],
        }],
        redo: vec![],
    };
    let mut entries = vec![0u16; 81];
    entries[5] = 3;
    let notes = Notes::new(81, 9);
    let text = pack(shape, &givens, &entries, &notes, &history);
    let p = unpack(shape, &givens, &text).unwrap();
    assert_eq!(p.history, history);
    assert_eq!(p.entries, entries);
}

#[test]
fn damaged_plays_are_errors() {
    let (shape, givens) = empty_9x9();
    let read = |bytes: &[u8]| unpack(shape, &givens, &packed(bytes));
    assert_eq!(read(&[]).unwrap_err(), PlayError::Truncated(0));
    assert_eq!(read(&[9]).unwrap_err(), PlayError::Format(9));
    assert_eq!(
        read(&[FORMAT, 0, 0, 0]).map(|p| p.history.undo.len()),
        Ok(0)
    );
    assert_eq!(
        read(&[FORMAT, 0, 0, 0, 7]).unwrap_err(),
        PlayError::Trailing(1)
    );
    // One undo move of kind 9.
    assert_eq!(
        read(&[FORMAT, 0, 1, 9, 0, 0]).unwrap_err(),
        PlayError::Kind { index: 0, kind: 9 }
    );
    // A move entering 10 on a 9×9, then one outside the board.
    let entry = ENTRY_CHANGED;
    assert_eq!(
        read(&[FORMAT, 0, 1, 0, 1, 0, entry, 10, 0]).unwrap_err(),
        PlayError::Move {
            index: 0,
            fault: MoveFault::Value { cell: 0, max: 9 }
        }
    );
    assert_eq!(
        read(&[FORMAT, 0, 1, 0, 1, 162, 1, entry, 1, 0]).unwrap_err(),
        PlayError::Move {
            index: 0,
            fault: MoveFault::OutsideBoard(81)
        }
    );
    // A note digit beyond the side, in the starting position.
    assert_eq!(
        read(&[FORMAT, 1, 0, NOTES_TOGGLED, 1, 9, 0, 0]).unwrap_err(),
        PlayError::Start(MoveFault::Notes(0))
    );
    // A count larger than the bytes left, and a varint that never ends.
    assert_eq!(
        read(&[FORMAT, 0, 200, 1]).unwrap_err(),
        PlayError::Truncated(2)
    );
    assert!(matches!(
        read(&[FORMAT, 0xff, 0xff, 0xff]),
        Err(PlayError::Truncated(_))
    ));
    // A given cannot change.
    let mut with_given = givens.clone();
    with_given[0] = Some(v(1));
    assert_eq!(
        unpack(
            shape,
            &with_given,
            &packed(&[FORMAT, 0, 1, 0, 1, 0, entry, 2, 0])
        )
        .unwrap_err(),
        PlayError::Move {
            index: 0,
            fault: MoveFault::Given(0)
        }
    );
    assert!(matches!(
        unpack(shape, &givens, "%%%"),
        Err(PlayError::Base64(_))
    ));
    assert!(matches!(
        unpack(shape, &givens, "AAAA"),
        Err(PlayError::Unpack(_))
    ));
}

#[test]
fn a_play_that_unpacks_to_too_much_is_refused() {
    let (shape, givens) = empty_9x9();
    let zeros = vec![0u8; (MAX_UNPACKED + 1) as usize];
    assert_eq!(
        unpack(shape, &givens, &packed(&zeros)).unwrap_err(),
        PlayError::TooLarge
    );
}
