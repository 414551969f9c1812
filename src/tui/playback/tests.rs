//! Playback on recorded traces: stepping, checkpoints, speeds, finishing.

use super::*;
use crate::engine::{Limits, Solver};

fn hard() -> Puzzle {
    let s = "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";
    crate::engine::format::parse_one(s, "test").unwrap()
}

fn record(p: &Puzzle) -> (Vec<TraceEvent>, Grid) {
    let mut events = Vec::new();
    let r = Solver::new().run(p, 2, &Limits::none(), &mut events);
    (events, r.witnesses[0].clone())
}

fn feed_all(pb: &mut Playback, events: &[TraceEvent]) {
    pb.speed = SPEEDS.len() - 1;
    for chunk in events.chunks(1000) {
        pb.tick(Duration::from_secs(1));
        pb.receive(chunk.to_vec(), false);
    }
    pb.tick(Duration::from_secs(1));
    pb.receive(Vec::new(), true);
}

#[test]
fn playing_everything_ends_on_the_solution_with_the_counts() {
    let p = hard();
    let (events, solution) = record(&p);
    let mut pb = Playback::new(WatchSolver::Exact(Backend::Propagation), &p, 1);
    feed_all(&mut pb, &events);
    assert_eq!(pb.position(), events.len());
    let first: Vec<Option<Value>> = solution.cells().iter().copied().map(Some).collect();
    assert_eq!(pb.shown.solution.as_ref(), Some(&first));
    let branches = events
        .iter()
        .filter(|e| matches!(e, TraceEvent::Branch { .. }))
        .count() as u64;
    assert_eq!(pb.shown.counters.nodes, branches);
    assert_eq!(pb.shown.counters.events, events.len() as u64);
    assert!(pb.shown.max_depth > 0);
    assert_eq!(pb.phase, Phase::Playing, "not done before the answer");
    pb.answered(Finished {
        solutions: vec![solution],
        exhausted: true,
        stopped: None,
        counters: pb.shown.counters,
        elapsed: Duration::ZERO,
    });
    assert_eq!(pb.phase, Phase::Done);
}

#[test]
fn candidates_follow_eliminations_and_backtracks_restore_them() {
    let p = hard();
    let (events, _) = record(&p);
    let mut pb = Playback::new(WatchSolver::Exact(Backend::Propagation), &p, 1);
    let shape = p.shape();
    // Play up to the first backtrack and compare with a board rebuilt
    // by copying at every branch.
    let upto = events
        .iter()
        .position(|e| matches!(e, TraceEvent::Backtrack { .. }))
        .unwrap();
    pb.speed = SPEEDS.len() - 1;
    pb.tick(Duration::from_secs(1));
    pb.receive(events[..=upto].to_vec(), false);
    let mut stack = Vec::new();
    let mut board = Shown::new(&p);
    for e in &events[..=upto] {
        if let TraceEvent::Backtrack { cell, value, .. } = e {
            board = stack.pop().unwrap();
            let c = cell.index(shape);
            board.cands[c * board.words + value.index() / 64] &= !(1 << value.index());
            continue;
        }
        if matches!(e, TraceEvent::Branch { .. }) {
            stack.push(board.clone());
        }
        board.apply(e);
    }
    assert_eq!(pb.shown.values, board.values);
    assert_eq!(pb.shown.cands, board.cands);
    // The words are a note set: the same digits as `has`.
    for c in 0..81 {
        let notes = crate::game::NoteSet(pb.shown.candidate_words(c).to_vec());
        for d in 0..9 {
            assert_eq!(notes.has(Value::from_index(d)), pb.shown.has(c, d));
        }
    }
    assert!(matches!(pb.shown.focus, Focus::Backtrack(..)));
}

#[test]
fn stepping_back_and_forth_retraces_the_same_boards() {
    let p = hard();
    let (events, _) = record(&p);
    let mut pb = Playback::new(WatchSolver::Exact(Backend::Propagation), &p, 1);
    pb.paused = true;
    pb.receive(events[..3000.min(events.len())].to_vec(), false);
    assert_eq!(pb.position(), 0);
    let mut forward = Vec::new();
    for _ in 0..700 {
        forward.push((
            pb.position(),
            pb.shown.values.clone(),
            pb.shown.cands.clone(),
        ));
        pb.step_forward();
    }
    for (at, values, cands) in forward.iter().rev() {
        assert!(pb.step_back());
        assert_eq!(pb.position(), *at);
        assert_eq!(&pb.shown.values, values);
        assert_eq!(&pb.shown.cands, cands);
    }
    // Back at the start of what was stepped through; forward again.
    pb.step_forward();
    assert_eq!(pb.position(), forward[1].0);
    assert_eq!(pb.shown.values, forward[1].1);
}

#[test]
fn speed_decides_how_much_a_tick_shows_and_pause_holds_it() {
    let p = hard();
    let (events, _) = record(&p);
    let mut pb = Playback::new(WatchSolver::Exact(Backend::Propagation), &p, 1);
    assert_eq!(pb.rate(), 10);
    pb.tick(Duration::from_millis(500));
    assert!(pb.wanted() >= 5);
    pb.receive(events.clone(), false);
    let shown: u64 = pb.shown.counters.events;
    assert!(shown >= 5 && (shown as usize) < events.len());
    pb.toggle_pause();
    let at = pb.position();
    pb.tick(Duration::from_secs(5));
    assert_eq!(pb.position(), at);
    assert_eq!(pb.wanted(), 0);
    pb.toggle_pause();
    for _ in 0..20 {
        pb.faster();
    }
    assert_eq!(pb.rate(), *SPEEDS.last().unwrap());
    pb.tick(Duration::from_millis(16));
    assert!(pb.position() > at + 1000);
    for _ in 0..20 {
        pb.slower();
    }
    assert_eq!(pb.rate(), 1);
}

#[test]
fn finish_jumps_to_the_answer_and_memory_stays_bounded() {
    let p = hard();
    let (events, solution) = record(&p);
    let mut pb = Playback::new(WatchSolver::Exact(Backend::Propagation), &p, 1);
    pb.tick(Duration::from_millis(200));
    pb.receive(events[..10].to_vec(), false);
    assert!(pb.finish());
    assert_eq!(pb.phase, Phase::Finishing);
    assert_eq!(pb.wanted(), 0);
    pb.answered(Finished {
        solutions: vec![solution.clone()],
        exhausted: true,
        stopped: None,
        counters: Counters {
            nodes: 7,
            ..Counters::default()
        },
        elapsed: Duration::ZERO,
    });
    assert_eq!(pb.phase, Phase::Done);
    assert_eq!(
        pb.shown.values,
        solution
            .cells()
            .iter()
            .copied()
            .map(Some)
            .collect::<Vec<_>>()
    );
    assert_eq!(pb.shown.counters.nodes, 7);
    assert!(!pb.step_back(), "no stepping back into events never shown");

    // A long trace: the checkpoints stay within their budget and the
    // events kept start at the oldest one.
    let mut pb = Playback::new(WatchSolver::Exact(Backend::Propagation), &p, 1);
    let mut long = Vec::new();
    while long.len() < 400_000 {
        long.extend(events.iter().cloned());
    }
    feed_all(&mut pb, &long);
    assert!(pb.checkpoint_bytes <= CHECKPOINT_BYTES + pb.shown.bytes());
    assert!(pb.checkpoints.len() <= MAX_CHECKPOINTS);
    assert_eq!(pb.base, pb.earliest());
    assert!(pb.events.len() <= (MAX_CHECKPOINTS + 1) * CHECKPOINT_EVERY);
    assert_eq!(pb.received(), long.len());
}

#[test]
fn why_a_watched_solver_ended_reads_as_before() {
    let stop = StopReason::Deadline;
    assert_eq!(
        Unfinished::Stopped(stop).to_string(),
        format!("stopped: {stop}")
    );
    assert_eq!(Unfinished::Cut.to_string(), "stopped");
    let p: Puzzle = crate::engine::format::parse_one(
        "11...............................................................................",
        "test",
    )
    .unwrap();
    let conflict = p.conflicts()[0];
    assert_eq!(
        Unfinished::InvalidGivens(conflict).to_string(),
        format!("the givens break the rules: {conflict}")
    );
}

/// Only a guess is "tried": a technique's placement and propagation's are
/// forced, and the view says "placed".
#[test]
fn only_guesses_are_tried() {
    use crate::engine::grid::Cell;
    use crate::engine::trace::Reason;
    let p = hard();
    let c = (0..81).find(|&c| p.get(c).is_none()).unwrap();
    let v = Value::from_index(0);
    for (reason, tried) in [
        (Reason::Guess, true),
        (Reason::Logic, false),
        (Reason::NakedSingle, false),
    ] {
        let mut shown = Shown::new(&p);
        assert!(shown.apply(&TraceEvent::Assign {
            cell: Cell::from_index(p.shape(), c),
            value: v,
            reason,
        }));
        assert_eq!(
            matches!(shown.focus, Focus::Try(..)),
            tried,
            "{reason:?}: {:?}",
            shown.focus
        );
    }
}
