//! The solver view at full speed: one frame of a 25×25 search's playback
//! (a tick at 60 frames a second, the events the playback wants that
//! frame handed over as the runner does, and the whole screen drawn into
//! a test terminal). At the top speed a frame applies about 16,700
//! events; 60 frames a second needs a frame well under 16.7 ms.
//!
//! Run with `cargo bench --bench playback -- --warm-up-time 1 --measurement-time 5`.
#![allow(missing_docs, clippy::unwrap_used)]

#[cfg(feature = "tui")]
mod frames {
    use std::hint::black_box;
    use std::time::Duration;

    use criterion::Criterion;
    use dekadoku::engine::{Limits, NoTrace, Outcome, Puzzle, Shape, Solver, TraceEvent, solve};
    use dekadoku::game::{Game, Origin};
    use dekadoku::store::Config;
    use dekadoku::tui::action::{Action, Loaded};
    use dekadoku::tui::app::{App, Effect, Screen};
    use dekadoku::tui::keymap::Keymap;
    use dekadoku::tui::style::Styles;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    fn key(app: &mut App, code: KeyCode) -> Vec<Effect> {
        app.update(Action::Key(KeyEvent::new(code, KeyModifiers::NONE)))
    }

    pub fn playback(c: &mut Criterion) {
        // Two rows of a valid 25×25 grid given: a search with a long trace.
        let shape = Shape::square(5).unwrap();
        let Outcome::Multiple(grid, _) =
            solve(&Puzzle::empty(shape), &Limits::none(), &mut NoTrace)
        else {
            panic!("an empty 25x25 has many solutions");
        };
        let puzzle = Puzzle::new(
            shape,
            (0..625).map(|c| (c < 50).then(|| grid.get(c))).collect(),
        )
        .unwrap();
        let mut events: Vec<TraceEvent> = Vec::new();
        Solver::new().count_traced(&puzzle, 2_000, &Limits::none(), &mut events);

        let mut app = App::new(Config::default(), Styles::basic(), Keymap::defaults(), 1);
        app.update(Action::Loaded(Loaded::Game(Box::new(Game::new(
            &puzzle,
            Some(grid.clone()),
            Origin::default(),
        )))));
        assert!(matches!(app.screen, Screen::Playing));
        key(&mut app, KeyCode::Char('v'));
        key(&mut app, KeyCode::Down);
        let fx = key(&mut app, KeyCode::Enter);
        let job = fx
            .iter()
            .find_map(|e| match e {
                Effect::Start(j) => Some(j.id),
                _ => None,
            })
            .unwrap();
        assert!(matches!(app.screen, Screen::Watch { .. }));
        for _ in 0..20 {
            key(&mut app, KeyCode::Up);
        }
        let mut terminal = Terminal::new(TestBackend::new(200, 60)).unwrap();
        let mut at = 0usize;
        let mut applied = 0usize;
        let mut frames = 0usize;
        c.bench_function("playback frame 25x25 full speed 200x60", |b| {
            b.iter(|| {
                app.update(Action::Tick(Duration::from_micros(16_667)));
                if let Some((id, want)) = app.trace_wanted()
                    && want > 0
                {
                    let mut batch = Vec::with_capacity(want);
                    while batch.len() < want {
                        if at == events.len() {
                            at = 0;
                        }
                        let end = (at + want - batch.len()).min(events.len());
                        batch.extend_from_slice(&events[at..end]);
                        at = end;
                    }
                    applied += batch.len();
                    app.update(Action::Trace {
                        job: id,
                        events: batch,
                        ended: false,
                    });
                }
                frames += 1;
                terminal
                    .draw(|f| dekadoku::tui::ui::draw(f, black_box(&app)))
                    .unwrap();
            })
        });
        assert_eq!(app.trace_wanted().map(|w| w.0), Some(job));
        println!(
            "{} events per frame on average over {frames} frames",
            applied / frames.max(1)
        );
    }
}

#[cfg(feature = "tui")]
criterion::criterion_group!(benches, frames::playback);
#[cfg(feature = "tui")]
criterion::criterion_main!(benches);

#[cfg(not(feature = "tui"))]
fn main() {}
