//! Positions where a technique fires, as games to play, with the step the
//! hint would show: a few cases of HoDoKu's regression library (copied
//! here from `../shared/technique-tests/reglib-1.3.txt`, so the screen
//! tests need no shared corpus), and steps along the logic path of a
//! shipped 16×16.

use dekadoku::engine::generate::bundled::bundled;
use dekadoku::engine::logic::{Board, Step, Technique, find_all, full_path};
use dekadoku::engine::{Level, Limits, NoTrace, Outcome, Puzzle, Shape, Value, solve};
use dekadoku::game::{Game, NoteSet, Origin};

/// One library case: a name for the snapshots, the technique to find, and
/// the library's line (`:code:digits:givens:deleted:eliminations:…`).
pub struct Case {
    /// Used in snapshot names.
    pub name: &'static str,
    /// The technique whose step is shown.
    pub technique: Technique,
    /// The library line.
    pub line: &'static str,
    /// The effect of the step to show (`=> r2c6=5, …`), when not the
    /// library's own (the forcing chain, found in another technique's
    /// case); empty for the library's.
    pub effect: &'static str,
}

/// One technique of every family on 9×9 (reglib-1.3 line numbers in the
/// comments); the forcing chain is found in the position of a Hidden Pair
/// case, where one fires.
pub const NINE: [Case; 13] = [
    // line 138
    Case {
        name: "hidden_single",
        technique: Technique::HiddenSingle,
        line: ":0002:1:2+8.+64...74+6....+2.+8317+9+285+46.5+3..9.2+4.+42.3.7.+9.9.4...8+35+382+9+6471.+7......21+2..8...5:::163:",
        effect: "",
    },
    // line 223
    Case {
        name: "pointing",
        technique: Technique::Pointing,
        line: ":0100:1:.+92....+365...3+697..3+6.+94...+2.58.1.+9+3+3.96.28.....9.32..+9+5+34+6..2..87+32+9..56+2....3.+9:811 515 715 538 761 595 795:193 198::",
        effect: "",
    },
    // line 391
    Case {
        name: "naked_triple",
        technique: Technique::NakedTriple,
        line: ":0201:258:.1.......3.45......76.9...47+2+14+8+9+563.3.627+41+946+9+3+15+8+276...3.94...+3..82.6.......3.:714 819 728 829 573 581 785 591 593 795 196 296:211 216 511 518 811 818::",
        effect: "",
    },
    // line 577
    Case {
        name: "finned_swordfish",
        technique: Technique::FinnedFish(3),
        line: ":0311:5:.+6.4+1+7.+83+3+1+4+98..+7.8+7..+6+39147+43.29..+8..+8+3+4+6.2+7..6.+7.34+96..+75+4+8+314+3+1.+9.7..58+7631+4+9+2::557::",
        effect: "",
    },
    // line 1356
    Case {
        name: "xy_wing",
        technique: Technique::XYWing,
        line: ":0800:169:+71+4.+6.5+38+8..4+53..+7+3567+1+8+4+2+9....2+4.8+54.....3.22+8+5376+9+419+78+6+3+1254.....7..+6........3::942 943 954 955 956::",
        effect: "",
    },
    // line 773
    Case {
        name: "skyscraper",
        technique: Technique::Skyscraper,
        line: ":0400:6:+1+6+328+9754+79.4.38.+1+4+8.+1.....+6397+1+428+584+7+5....3+25+1..+8+47.+5+28.+41.9+7+9+7+4+8.5..23+16+9..+5+4+8::657 658 664 665::",
        effect: "",
    },
    // line 853
    Case {
        name: "simple_colors_trap",
        technique: Technique::ColorTrap,
        line: ":0500:1:+23.7.+68+955972+8...+6+6..+9+3+5.+7.+3.+6.9.5.7+7+5.+36...+9+4.+9+5+7.+683+872.+5396.+94+5+6.7..+8+1638.+9+7+5.:439:127 128 132 133::",
        effect: "",
    },
    // line 903
    Case {
        name: "unique_rectangle_2",
        technique: Technique::UniqueRectangle(2),
        line: ":0601-1:34:.9..+52+6+4.6..4+8..+53..5..628....8....4.1..+4......+4.27........341+8+1+865+743+92..9+21+8+576::711 713 722 723 734 739::",
        effect: "",
    },
    // line 1406
    Case {
        name: "als_xz",
        technique: Technique::AlsXz,
        line: ":0901-1:3:.24.6.+7..5.74.9.1.....+7......+5.9+4+87+14+7.+6.85.3..8..7.6.+7......46.+46..3.+57.5.7+4+61..:314 819 225 134 237 937 238 938 239 839 269 372 972 973 274 291 891 999:327::",
        effect: "",
    },
    // line 1206
    Case {
        name: "aic",
        technique: Technique::Aic,
        line: ":0708-1:5:+2......69+98..2.13+7+71.....+24..+9....+5..4...9.7.+5671+329+4+8+6.1....8+33......+9+6+4+9867+32+15::513 523 533 572 582::9",
        effect: "",
    },
    // line 1093
    Case {
        name: "xy_chain",
        technique: Technique::XYChain,
        line: ":0702:7:76+2+8+1+3+59+4...+7+6+9+1+2+8.+9.42536+7.+765+9+82.+39..1+32......+67+4+8.9..+7+9+5643+1.49+38+1..2.1.+2+47+9+8.::758 787::19",
        effect: "",
    },
    // line 444 (a Hidden Pair case; a cell forcing chain fires there)
    Case {
        name: "forcing_chain",
        technique: Technique::ForcingChain,
        line: ":0210:35:73+8....+529423..+87.+15+68...+4.+5...+38.24....9..+8.86.2...+3......1.9.+49+1..32686......17:917 936 574 774 575 775 594 595 596:497::",
        effect: "=> r2c6=5, r2c6<>6",
    },
    // line 444 again: a dynamic forcing chain (a contradiction) there
    Case {
        name: "dynamic_forcing_chain",
        technique: Technique::DynamicForcingChain,
        line: ":0210:35:73+8....+529423..+87.+15+68...+4.+5...+38.24....9..+8.86.2...+3......1.9.+49+1..32686......17:917 936 574 774 575 775 594 595 596:497::",
        effect: "=> r9c7<>4",
    },
];

/// `<digit><row><col>` triples → (cell, value).
fn triples(text: &str) -> Vec<(usize, Value)> {
    let mut v: Vec<(usize, Value)> = text
        .split_whitespace()
        .map(|t| {
            let b = t.as_bytes();
            let d = usize::from(b[0] - b'0');
            let (r, c) = (usize::from(b[1] - b'1'), usize::from(b[2] - b'1'));
            (r * 9 + c, Value::new(d).unwrap())
        })
        .collect();
    v.sort();
    v
}

/// The game at `board`'s position of `puzzle`: the board's values that
/// are not givens as entries, its candidates as the notes of every empty
/// cell (so the hint reasons on exactly this position).
pub fn game_at(puzzle: &Puzzle, board: &Board) -> Game {
    let Outcome::Solved(solution) = solve(puzzle, &Limits::none(), &mut NoTrace) else {
        panic!("the puzzle has no unique solution")
    };
    let shape = puzzle.shape();
    let base = Game::new(puzzle, Some(solution), Origin::default());
    let values: Vec<Option<Value>> = (0..shape.cells()).map(|c| board.value(c)).collect();
    base.preview(&values, |c| {
        let mut set = NoteSet::empty(shape.n());
        for d in board.digits(c) {
            set.set(Value::from_index(d), true);
        }
        set
    })
}

/// The case's position as a game, and its technique's step there: the one
/// with the case's effect, or the one the library expects.
pub fn case(c: &Case) -> (Game, Step) {
    let f: Vec<&str> = c.line.split(':').collect();
    let (mut givens, mut values) = (Vec::new(), Vec::new());
    let mut plus = false;
    for ch in f[3].chars() {
        if ch == '+' {
            plus = true;
            continue;
        }
        let v = ch.to_digit(10).and_then(|d| Value::new(d as usize));
        values.push(v);
        givens.push(if plus { None } else { v });
        plus = false;
    }
    let puzzle = Puzzle::new(Shape::CLASSIC, givens).unwrap();
    let mut board = Board::from_values(Shape::CLASSIC, &values).unwrap();
    board.set_known_unique(true);
    for (cell, v) in triples(f[4]) {
        board.remove(cell, v.index());
    }
    let expected = triples(f[5]);
    let found = find_all(&board, c.technique);
    let step = found
        .iter()
        .find(|s| {
            let mut e = s.eliminations.clone();
            e.sort();
            if c.effect.is_empty() {
                e == expected
            } else {
                s.explanation.ends_with(c.effect)
            }
        })
        .unwrap_or_else(|| panic!("no such {} in {}", c.technique.name(), c.name))
        .clone();
    (game_at(&puzzle, &board), step)
}

/// A step on the logic path of a shipped 16×16.
pub struct PathStep {
    /// The puzzle as a fresh game (its logic view walks the same path).
    pub start: Game,
    /// The game at the position the step is found in.
    pub at: Game,
    /// The step.
    pub step: Step,
    /// Steps before it on the path.
    pub index: usize,
}

/// The first step of the logic path of the first shipped hard 16×16
/// puzzle that `wanted` accepts.
pub fn sixteen(wanted: impl Fn(Technique) -> bool) -> PathStep {
    let shape = Shape::square(4).unwrap();
    for puzzle in bundled(shape, Level::Hard) {
        let Outcome::Solved(solution) = solve(&puzzle, &Limits::none(), &mut NoTrace) else {
            continue;
        };
        let mut board = Board::from_values(shape, puzzle.cells()).unwrap();
        board.set_known_unique(true);
        let path = full_path(&board, &solution, &Limits::none()).unwrap();
        for (index, step) in path.into_iter().enumerate() {
            if wanted(step.technique) {
                return PathStep {
                    start: Game::new(&puzzle, Some(solution), Origin::default()),
                    at: game_at(&puzzle, &board),
                    step,
                    index,
                };
            }
            board.apply(&step);
        }
    }
    panic!("no such step in the shipped hard 16×16 puzzles")
}
