//! The `dekadoku` binary end to end: outputs, messages and exit codes.
#![allow(clippy::unwrap_used)]

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dekadoku"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // The child may stop reading early (bad input): ignore a broken pipe.
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

#[test]
fn solve_prints_a_checked_solution_in_the_input_format() {
    let out = run(&["solve"], format!("{HARD}\n").as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let line = text(&out.stdout);
    let line = line.trim();
    assert_eq!(line.len(), 81);
    let p = dekadoku::engine::format::parse_one(HARD, "hard").unwrap();
    let g = dekadoku::engine::format::parse_one(line, "out").unwrap();
    let g = dekadoku::engine::Grid::from_puzzle(&g).unwrap();
    assert!(p.is_solved_by(&g));
}

#[test]
fn solve_to_another_format_and_back() {
    let out = run(
        &["solve", "--format", "seeds", "-"],
        format!("{HARD}\n").as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0));
    let seeds = text(&out.stdout);
    assert!(seeds.starts_with("3\n"), "{seeds}");
    let back = run(&["convert", "--to", "line"], seeds.as_bytes());
    assert_eq!(back.status.code(), Some(0), "{}", text(&back.stderr));
    assert!(!text(&back.stdout).contains('.'));
}

#[test]
fn multiple_and_no_solution_exit_1() {
    let empty = ".".repeat(81);
    let out = run(&["solve"], format!("{empty}\n").as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("more than one solution"));

    let mut none = String::from(".12345678");
    none.push_str(&".".repeat(36));
    none.push('9');
    none.push_str(&".".repeat(35));
    let out = run(&["solve"], format!("{none}\n").as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no solution"),
        "{}",
        text(&out.stderr)
    );
}

/// Notes for standard error are held and written in blocks when it is
/// not a terminal (here a pipe): every one arrives, across blocks, in
/// input order, with the format errors in their places, on one thread
/// and on two.
#[test]
fn many_notes_all_arrive_in_input_order() {
    let empty = ".".repeat(81);
    let mut input = String::new();
    for k in 1..=1500 {
        input.push_str(&empty);
        input.push('\n');
        if k % 500 == 0 {
            input.push_str("12\n");
        }
    }
    for jobs in ["1", "2"] {
        let out = run(&["solve", "--jobs", jobs], input.as_bytes());
        assert_eq!(out.status.code(), Some(2), "--jobs {jobs}");
        let err = text(&out.stderr);
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 1500 + 3 + 1, "--jobs {jobs}");
        let mut puzzle = 0;
        for (i, l) in lines[..1503].iter().enumerate() {
            let line = i + 1;
            if line % 501 == 0 {
                assert!(l.starts_with(&format!("<stdin>:{line}: ")), "{l}");
            } else {
                puzzle += 1;
                let want =
                    format!("<stdin>: puzzle {puzzle} (line {line}): more than one solution");
                assert_eq!(*l, want, "--jobs {jobs}");
            }
        }
        assert!(lines[1503].contains("3 errors"), "{}", lines[1503]);
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn check_names_conflicting_cells() {
    let mut bad = ".".repeat(81);
    bad.replace_range(3..4, "7");
    bad.replace_range(75..76, "7");
    let out = run(&["check"], format!("{HARD}\n{bad}\n").as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("puzzle 2 (line 2"), "{stdout}");
    assert!(stdout.contains("r1c4 and r9c4 both hold 7"), "{stdout}");
    assert!(text(&out.stderr).contains("1 of 2 puzzles"));
}

#[test]
fn count_reports_exact_and_capped_counts() {
    let empty4 = ".".repeat(16);
    let out = run(
        &["count", "--limit", "1000"],
        format!("{empty4}\n{HARD}\n").as_bytes(),
    );
    assert_eq!(text(&out.stdout), "288\n1\n");
    assert_eq!(out.status.code(), Some(1));
    let out = run(&["count", "--limit", "5"], format!("{empty4}\n").as_bytes());
    assert_eq!(text(&out.stdout), ">=5\n");
    let out = run(&["count"], format!("{HARD}\n").as_bytes());
    assert_eq!(out.status.code(), Some(0));
    // Dancing Links counts the same, and solves to the same grid.
    let out = run(
        &["count", "--limit", "1000", "--backend", "dlx"],
        format!("{empty4}\n{HARD}\n").as_bytes(),
    );
    assert_eq!(text(&out.stdout), "288\n1\n");
    let dlx = run(
        &["solve", "--backend", "dlx"],
        format!("{HARD}\n").as_bytes(),
    );
    let ours = run(&["solve"], format!("{HARD}\n").as_bytes());
    assert_eq!(dlx.status.code(), Some(0));
    assert_eq!(text(&dlx.stdout), text(&ours.stdout));
    let bad = run(&["count", "--backend", "minisat"], b"");
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("unknown solver backend"));
}

#[test]
fn bad_input_exits_2_with_a_location() {
    let mut lines = format!("{HARD}\n{HARD}\n");
    lines.push_str(&HARD.replace('4', "x"));
    lines.push('\n');
    let out = run(&["solve"], lines.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("<stdin>:3:1: expected 1-9, '.' or '0', found 'x'"),
        "{err}"
    );
    // The good puzzles are still solved, and the last line says why the
    // run still ends with 2.
    assert_eq!(text(&out.stdout).lines().count(), 2);
    assert!(err.ends_with("<stdin>: 1 error reported above\n"), "{err}");

    for (input, what) in [
        (&b""[..], "empty"),
        (&b"\x00\x01\x02\xff\xfe garbage"[..], "binary"),
        (&b"12345\n"[..], "short line"),
    ] {
        let out = run(&["solve"], input);
        assert_eq!(out.status.code(), Some(2), "{what}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).starts_with("<stdin>:"),
            "{what}: {}",
            text(&out.stderr)
        );
    }
    let missing = run(&["solve", "/nonexistent/puzzles.txt"], b"");
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains("/nonexistent/puzzles.txt: cannot open"));
}

#[test]
fn a_ten_megabyte_line_is_refused_not_loaded() {
    let mut big = vec![b'1'; 10 << 20];
    big.push(b'\n');
    let out = run(&["solve"], &big);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("<stdin>:1"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn bench_runs_both_solvers_on_9x9() {
    let Some(path) = common::shared("norvig_top95.txt") else {
        return;
    };
    let out = run(&["bench", "--min-time", "0", path.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let row = stdout.lines().nth(1).unwrap();
    let cols: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cols[1], "95", "{stdout}");
    if cfg!(feature = "peer-sudoku") {
        assert!(cols[4].parse::<f64>().is_ok(), "{stdout}");
    } else {
        assert_eq!(cols[4], "-", "{stdout}");
        assert!(
            text(&out.stderr).contains("--features peer-sudoku"),
            "{}",
            text(&out.stderr)
        );
    }
    assert!(text(&out.stderr).contains("95 of 95 puzzles have exactly one solution"));
}

#[test]
fn bench_times_every_backend_and_a_sat_program_in_one_run() {
    let Some(path) = common::shared("norvig_hardest.txt") else {
        return;
    };
    let file = path.to_str().unwrap();
    let mut args = vec!["bench", "--min-time", "0"];
    for b in ["propagation", "dlx", "sat"] {
        args.extend(["--backend", b]);
    }
    args.push(file);
    let out = run(&args, b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    for b in ["propagation", "dlx", "sat"] {
        let row = stdout
            .lines()
            .find(|l| l.contains(&format!("[{b}]")))
            .unwrap_or_else(|| panic!("no {b} row: {stdout}"));
        assert_eq!(row.split_whitespace().nth(2), Some("11"), "{row}");
        assert!(
            stderr.contains(&format!(
                "[{b}]: 11 of 11 puzzles have exactly one solution"
            )),
            "{stderr}"
        );
    }
    assert!(!stderr.contains("disagree"), "{stderr}");
    // A SAT program that is not there: said once per file, exit 2.
    let out = run(
        &[
            "bench",
            "--min-time",
            "0",
            "--sat-cmd",
            "no-such-sat-solver",
            file,
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("cannot run `no-such-sat-solver`"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn bench_first_with_timeout_reports_solved_and_stopped() {
    let Some(path) = common::shared("large/rkkautsar_sudoku-16-1.txt") else {
        return;
    };
    let out = run(
        &[
            "bench",
            "--first",
            "--timeout",
            "60",
            "--min-time",
            "0",
            path.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("1 of 1 puzzles were solved"),
        "{}",
        text(&out.stderr)
    );
    // A hard instance with a tiny timeout is counted as stopped, not solved.
    let Some(hard) = common::shared("large/rkkautsar_sudoku-64-1.txt") else {
        return;
    };
    let out = run(
        &[
            "bench",
            "--first",
            "--timeout",
            "0.05",
            "--min-time",
            "0",
            hard.to_str().unwrap(),
        ],
        b"",
    );
    let err = text(&out.stderr);
    assert!(err.contains("0 of 1 puzzles were solved"), "{err}");
    assert!(err.contains("1 puzzles stopped by the"), "{err}");
}

#[test]
fn generate_writes_seeded_unique_puzzles_with_comments() {
    let args = [
        "generate", "--size", "9", "--level", "hard", "--count", "3", "--seed", "40",
    ];
    let out = run(&args, b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let body = text(&out.stdout);
    let lines: Vec<&str> = body.lines().collect();
    assert_eq!(lines.len(), 7, "{body}");
    assert!(lines[0].starts_with("# dekadoku") && lines[0].contains("level hard"));
    for (i, seed) in [40, 41, 42].into_iter().enumerate() {
        assert!(
            lines[1 + 2 * i].starts_with(&format!("# seed {seed}, ")),
            "{body}"
        );
        // Each comment gives the grade, and the level asked for is met.
        assert!(lines[1 + 2 * i].contains(", hard (rating "), "{body}");
        assert_eq!(lines[2 + 2 * i].len(), 81);
    }
    // The grader agrees, puzzle by puzzle.
    let graded = run(&["grade"], body.as_bytes());
    assert_eq!(graded.status.code(), Some(0));
    let grades = text(&graded.stdout);
    assert_eq!(
        grades.lines().filter(|l| l.starts_with("hard ")).count(),
        3,
        "{grades}"
    );
    // Same seed, same puzzles; the seed was given, so nothing on stderr.
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    let again = run(&args, b"");
    let puzzles = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(puzzles(&body), puzzles(&text(&again.stdout)));
    // Each is unique.
    let counted = run(&["count"], body.as_bytes());
    assert_eq!(counted.status.code(), Some(0));
    assert_eq!(text(&counted.stdout), "1\n1\n1\n");
}

#[test]
fn generate_rectangular_boxes_default_to_seeds_and_the_clock_seed_is_printed() {
    let out = run(&["generate", "--box", "4x3", "--level", "easy"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).starts_with("seed: "));
    let body = text(&out.stdout);
    let p = dekadoku::engine::format::parse_one(&body, "out").unwrap();
    assert_eq!(p.shape(), dekadoku::engine::Shape::new(4, 3).unwrap());
    let out = run(
        &[
            "generate", "--size", "6", "--format", "grid", "--count", "2", "--seed", "1",
        ],
        b"",
    );
    let puzzles = dekadoku::engine::format::parse_str(&text(&out.stdout), "out").unwrap();
    assert_eq!(puzzles.len(), 2);
}

#[test]
fn generate_meets_a_rating_range() {
    let args = [
        "generate", "--level", "expert", "--rating", "7.0-7.5", "--count", "2", "--seed", "5",
    ];
    let out = run(&args, b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let body = text(&out.stdout);
    assert!(
        body.lines().next().unwrap().contains("rating 7.0-7.5"),
        "{body}"
    );
    // The grader agrees: expert, rated within the range.
    let graded = run(&["grade"], body.as_bytes());
    let grades = text(&graded.stdout);
    let ratings: Vec<f32> = grades
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f[0], "expert", "{grades}");
            f[2].parse().unwrap()
        })
        .collect();
    assert_eq!(ratings.len(), 2, "{grades}");
    assert!(ratings.iter().all(|r| (7.0..=7.5).contains(r)), "{grades}");
}

#[test]
fn generate_bad_arguments_exit_2_with_a_message() {
    for (args, says) in [
        (&["generate", "--size", "7"][..], "no box shape fits"),
        (
            &["generate", "--size", "9", "--box", "2x3"],
            "does not match",
        ),
        (&["generate", "--box", "3-3"], "expected a box shape"),
        (&["generate", "--level", "brutal"], "unknown level"),
        (&["generate", "--symmetry", "spiral"], "unknown symmetry"),
        (&["generate", "--clues", "40-30"], "is empty"),
        (&["generate", "--rating", "7.9-7.0"], "is empty"),
        (&["generate", "--rating", "hard"], "expected a rating range"),
        (&["generate", "--clues", "90"], "81 cells"),
        // Levels a size cannot have are refused, naming the ones it has.
        (
            &["generate", "--size", "4", "--level", "medium"],
            "come only as easy",
        ),
        (
            &["generate", "--size", "6", "--level", "expert"],
            "come only as easy, medium, hard",
        ),
        (
            &["generate", "--size", "36", "--format", "line"],
            "up to 35",
        ),
        (
            &["generate", "--box", "3x2", "--format", "line"],
            "cannot state boxes",
        ),
    ] {
        let out = run(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains(says),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn grade_prints_level_score_rating_and_technique() {
    // One blank in a solved grid: a full house.
    let solved =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let mut one = solved.to_string();
    one.replace_range(0..1, ".");
    let hard = "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";
    let input = format!("{one}\n{hard}\n{}\n", ".".repeat(81));
    let out = run(&["grade", "-"], input.as_bytes());
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert_eq!(lines[0], "easy 4 1.0 Full House");
    assert!(lines[1].starts_with("extreme "), "{}", lines[1]);
    // SE 11+: nested forcing chains, no guess.
    assert!(lines[1].ends_with("Nested Forcing Chain"), "{}", lines[1]);
    assert!(lines[2].starts_with("- - -"), "{}", lines[2]);
    assert_eq!(out.status.code(), Some(1), "the empty grid is not unique");
    assert!(text(&out.stderr).contains("3 puzzles: easy 1, extreme 1"));
}

#[test]
fn grade_steps_and_hint_explain_themselves() {
    let solved =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let mut two = solved.to_string();
    two.replace_range(0..2, "..");
    let out = run(&["grade", "--steps", "-"], format!("{two}\n").as_bytes());
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("easy "), "{stdout}");
    assert!(
        stdout.contains("    1. ") && stdout.contains("    2. "),
        "{stdout}"
    );
    let out = run(&["hint", "-"], format!("{two}\n{solved}\n").as_bytes());
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].starts_with("Full House: r1c"), "{stdout}");
    // It ends with its effect, HoDoKu's way.
    assert!(
        lines[0].ends_with(" => r1c1=5") || lines[0].ends_with(" => r1c2=3"),
        "{stdout}"
    );
    assert_eq!(lines[1], "solved: nothing to do");
    // A broken position is named, not solved.
    let mut bad = solved.to_string();
    bad.replace_range(0..1, "3");
    let out = run(&["hint", "-"], format!("{bad}\n").as_bytes());
    assert!(
        text(&out.stdout).contains("this position has an error at"),
        "{}",
        text(&out.stdout)
    );
}

/// `hint` prints the engine's own step text, effect and all, on 16×16 too
/// (values past 9 as letters), so a test can read the effect back.
#[test]
fn hint_prints_the_steps_text_with_its_effect() {
    use dekadoku::engine::logic::{Board, Effect, next_step};
    let bundled = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    for (file, n) in [("9x9-hard.txt", 9), ("16x16-expert.txt", 16)] {
        let path = bundled.join(file);
        let puzzle = &common::read_all(&path)[0];
        let all = std::fs::read_to_string(&path).unwrap();
        let line = all.lines().find(|l| !l.starts_with('#')).unwrap();
        let out = run(&["hint", "-"], format!("{line}\n").as_bytes());
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let said = text(&out.stdout);
        let step = next_step(&Board::from_puzzle(puzzle).unwrap()).unwrap();
        assert_eq!(said.trim_end(), step.explanation, "{file}");
        assert_eq!(
            Effect::from_explanation(said.trim_end(), n),
            Ok(step.effect())
        );
    }
}

#[test]
fn generate_gives_the_same_puzzles_for_every_job_count() {
    // The comments carry timings; the rest must match line for line.
    let without_times = |out: &std::process::Output| -> Vec<String> {
        text(&out.stdout)
            .lines()
            .map(|l| match l.rfind(", ") {
                Some(at) if l.starts_with("# seed") => l[..at].to_string(),
                _ => l.to_string(),
            })
            .collect()
    };
    let args = |jobs: &'static str| {
        [
            "generate", "--size", "6", "--level", "hard", "--count", "7", "--seed", "12", "--jobs",
            jobs,
        ]
    };
    let one = run(&args("1"), b"");
    let three = run(&args("3"), b"");
    assert_eq!(one.status.code(), Some(0), "{}", text(&one.stderr));
    assert_eq!(three.status.code(), Some(0), "{}", text(&three.stderr));
    let (a, b) = (without_times(&one), without_times(&three));
    assert_eq!(a.len(), 1 + 2 * 7, "{a:?}");
    // The header carries the date; the puzzles and their grades must match.
    assert_eq!(a[1..], b[1..]);
    for i in 0..7 {
        assert!(
            a[1 + 2 * i].starts_with(&format!("# seed {}, ", 12 + i)),
            "{a:?}"
        );
    }
}

#[test]
fn the_daily_puzzle_is_the_same_for_a_date() {
    let a = run(&["generate", "--daily", "2026-11-16"], b"");
    assert_eq!(a.status.code(), Some(0), "{}", text(&a.stderr));
    let b = run(&["generate", "--daily", "2026-11-16"], b"");
    let puzzle = |o: &std::process::Output| {
        text(&o.stdout)
            .lines()
            .find(|l| !l.starts_with('#'))
            .map(str::to_owned)
    };
    assert!(puzzle(&a).is_some_and(|p| p.len() == 81));
    assert_eq!(puzzle(&a), puzzle(&b));
    assert!(text(&a.stdout).contains("daily puzzle of 2026-11-16"));
    // A Monday: easy.
    assert!(
        text(&a.stdout).contains(", easy (rating"),
        "{}",
        text(&a.stdout)
    );
    let other = run(&["generate", "--daily", "2026-11-17"], b"");
    assert_ne!(puzzle(&a), puzzle(&other));
    let bad = run(&["generate", "--daily", "2026-02-30"], b"");
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("expected a date"));
}

#[test]
fn convert_to_dimacs_writes_a_cnf_a_solver_can_read() {
    use dekadoku::engine::sat::{Cnf, Encoding, parse_cnf};
    let p = dekadoku::engine::format::parse_one(HARD, "hard").unwrap();
    for (args, enc) in [
        (vec!["convert", "--to", "dimacs"], Encoding::compact()),
        (
            vec!["convert", "--to", "dimacs", "--encoding", "full"],
            Encoding::full(),
        ),
        (
            vec!["convert", "--to", "dimacs", "--redundant=false"],
            Encoding::compact().with_redundant(false),
        ),
    ] {
        let out = run(&args, format!("{HARD}\n").as_bytes());
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let cnf = parse_cnf(&text(&out.stdout)).unwrap();
        let ours = Cnf::encode(&p, enc).unwrap();
        assert_eq!(cnf.vars, ours.num_vars(), "{args:?}");
        assert_eq!(cnf.clauses.len(), ours.num_clauses(), "{args:?}");
        assert!(cnf.comments.iter().any(|c| c.contains("9×9")));
    }
    let bad = run(&["convert", "--to", "xml"], b"");
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).contains("dimacs"),
        "{}",
        text(&bad.stderr)
    );
}

#[test]
fn solve_and_count_on_the_sat_backend() {
    let ours = run(&["solve"], format!("{HARD}\n").as_bytes());
    let sat = run(
        &["solve", "--backend", "sat"],
        format!("{HARD}\n").as_bytes(),
    );
    assert_eq!(sat.status.code(), Some(0), "{}", text(&sat.stderr));
    assert_eq!(text(&sat.stdout), text(&ours.stdout));
    // The empty 4×4 has 288 grids.
    let empty = format!("{}\n", ".".repeat(16));
    let c = run(
        &["count", "--backend", "sat", "--limit", "1000"],
        empty.as_bytes(),
    );
    assert_eq!(text(&c.stdout).trim(), "288");
    assert_eq!(c.status.code(), Some(1));
}

#[test]
fn a_missing_sat_program_is_a_clear_error() {
    for cmd in ["solve", "count"] {
        let out = run(
            &[cmd, "--sat-cmd", "no-such-program -q"],
            format!("{HARD}\n").as_bytes(),
        );
        assert_eq!(out.status.code(), Some(2), "{cmd}");
        let err = text(&out.stderr);
        assert!(
            err.contains("cannot run `no-such-program`: not found on PATH"),
            "{cmd}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    let out = run(
        &["solve", "--backend", "dlx", "--sat-cmd", "cadical"],
        format!("{HARD}\n").as_bytes(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--sat-cmd"));
    let out = run(&["solve", "--sat-cmd", "'unclosed"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("a quote is not closed"));
}

/// With CaDiCaL's program on PATH (Debian's `cadical` package), `--sat-cmd`
/// solves through it; without it, the test says so and passes (fails
/// under CI).
#[test]
fn sat_cmd_runs_an_installed_solver() {
    let found = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join("cadical").is_file()));
    if !found {
        common::skip_or_fail("no `cadical` program on PATH (.ci/run installs it)");
        return;
    }
    let ours = run(&["solve"], format!("{HARD}\n").as_bytes());
    let ext = run(
        &["solve", "--sat-cmd", "cadical -q"],
        format!("{HARD}\n").as_bytes(),
    );
    assert_eq!(ext.status.code(), Some(0), "{}", text(&ext.stderr));
    assert_eq!(text(&ext.stdout), text(&ours.stdout));
    let empty = format!("{}\n", ".".repeat(16));
    let c = run(
        &["count", "--sat-cmd", "cadical -q", "--limit", "5"],
        empty.as_bytes(),
    );
    assert_eq!(text(&c.stdout).trim(), ">=5");
}

#[test]
fn timeouts_no_clock_can_count_mean_no_limit_not_a_panic() {
    let hard = format!("{HARD}\n");
    for t in ["1e300", "nan", "inf", "-1"] {
        for cmd in ["solve", "count", "check"] {
            let out = run(&[cmd, &format!("--timeout={t}")], hard.as_bytes());
            assert_eq!(
                out.status.code(),
                Some(0),
                "{cmd} {t}: {}",
                text(&out.stderr)
            );
        }
    }
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/9x9-easy.txt");
    let out = run(
        &[
            "bench",
            "--timeout",
            "nan",
            "--min-time",
            "0",
            "--max-puzzles",
            "2",
            file,
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn bench_refuses_a_bad_sat_command_before_timing_anything() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/9x9-easy.txt");
    let out = run(
        &["bench", "--min-time", "0", "--sat-cmd", "'unclosed", file],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    assert_eq!(
        text(&out.stderr),
        "dekadoku bench: bad solver command `'unclosed`: a quote is not closed, or it ends in a backslash\n"
    );
}

/// A solved 9×9: every command gets through it at once.
const SOLVED: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

/// One output-writing run of every subcommand, on enough input that its
/// output overflows a pipe's buffer (so a reader that stops early is
/// still being written to), with the exit code of a full run.
struct Case {
    args: Vec<String>,
    stdin: Vec<u8>,
    /// The exit code when all output is read.
    code: i32,
}

fn every_writer(dir: &std::path::Path) -> Vec<Case> {
    let many = |n: usize, line: &str| format!("{line}\n").repeat(n).into_bytes();
    let file = dir.join("solved.txt");
    std::fs::write(&file, many(1, SOLVED)).unwrap();
    let file = file.to_str().unwrap().to_string();
    let case = |args: &[&str], stdin: Vec<u8>, code| Case {
        args: args.iter().map(|s| s.to_string()).collect(),
        stdin,
        code,
    };
    let mut bench = vec!["bench", "--min-time", "0"];
    bench.extend(std::iter::repeat_n(file.as_str(), 1000));
    vec![
        case(&["solve"], many(2000, SOLVED), 0),
        case(&["count"], many(40_000, SOLVED), 0),
        // Without --all, check prints only the puzzles that are wrong.
        case(&["check"], many(2000, &".".repeat(81)), 1),
        case(&["check", "--all"], many(2000, SOLVED), 0),
        case(&["convert", "--to", "grid"], many(1000, SOLVED), 0),
        case(
            &[
                "generate", "--size", "4", "--level", "easy", "--count", "3000", "--seed", "1",
            ],
            Vec::new(),
            0,
        ),
        case(&["grade"], many(5000, SOLVED), 0),
        case(&["hint"], many(5000, SOLVED), 0),
        case(&bench, Vec::new(), 0),
        case(&["--print-default-config"], Vec::new(), 0),
    ]
}

/// Spawns `dekadoku` with `stdout`, feeding `stdin` and collecting standard
/// error on threads (so neither pipe can stall it).
fn spawn(
    case: &Case,
    stdout: Stdio,
) -> (
    std::process::Child,
    std::thread::JoinHandle<()>,
    std::thread::JoinHandle<String>,
) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dekadoku"))
        .args(&case.args)
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let data = case.stdin.clone();
    // The child stops reading when its output fails: ignore a broken pipe.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut err, &mut s);
        s
    });
    (child, writer, reader)
}

#[test]
fn output_that_cannot_be_written_is_one_error_never_a_panic() {
    if !cfg!(target_os = "linux") {
        eprintln!("skipped: /dev/full is Linux's");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for case in every_writer(dir.path()) {
        let full = std::fs::File::create("/dev/full").unwrap();
        let (mut child, writer, reader) = spawn(&case, Stdio::from(full));
        let status = child.wait().unwrap();
        writer.join().unwrap();
        let stderr = reader.join().unwrap();
        let what = &case.args[..case.args.len().min(4)];
        assert_eq!(status.code(), Some(2), "{what:?}: {stderr}");
        let lines: Vec<&str> = stderr.lines().collect();
        assert!(
            lines.last().is_some_and(|l| l.contains("cannot write")),
            "{what:?}: {stderr}"
        );
        assert_eq!(
            stderr.matches("cannot write").count(),
            1,
            "{what:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{what:?}: {stderr}");
    }
}

#[test]
fn a_reader_that_stops_early_ends_the_run_quietly() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    for case in every_writer(dir.path()) {
        let (mut child, writer, reader) = spawn(&case, Stdio::piped());
        let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        out.read_line(&mut first).unwrap();
        drop(out);
        let status = child.wait().unwrap();
        writer.join().unwrap();
        let stderr = reader.join().unwrap();
        let what = &case.args[..case.args.len().min(4)];
        assert!(!first.is_empty(), "{what:?}: {stderr}");
        // The code of the run as far as it went: no error for the pipe.
        assert_eq!(status.code(), Some(case.code), "{what:?}: {stderr}");
        for bad in ["cannot write", "panicked", "Broken pipe", "os error"] {
            assert!(!stderr.contains(bad), "{what:?}: {stderr}");
        }
    }
}

#[test]
fn cr_only_line_ends_are_read_like_lf() {
    // A grid as a terminal sends a paste (`\r` line ends), and a line file
    // from an old Mac: the same puzzles as with `\n`.
    let grid = dekadoku::engine::format::to_string(
        &dekadoku::engine::format::parse_one(HARD, "hard").unwrap(),
        dekadoku::engine::format::Format::Grid,
    );
    let lines = format!("# two\n{HARD}\n\n{HARD}\n");
    for input in [grid, lines] {
        let lf = run(&["solve"], input.as_bytes());
        assert_eq!(lf.status.code(), Some(0), "{}", text(&lf.stderr));
        let cr = run(&["solve"], input.replace('\n', "\r").as_bytes());
        assert_eq!(cr.status.code(), Some(0), "{}", text(&cr.stderr));
        assert_eq!(text(&cr.stdout), text(&lf.stdout));
    }
}

#[test]
fn grade_and_hint_take_a_timeout() {
    let two = format!("..{}", &SOLVED[2..]);
    for cmd in ["grade", "hint"] {
        let out = run(
            &[cmd, "--timeout", "0", "-"],
            format!("{HARD}\n").as_bytes(),
        );
        assert_eq!(out.status.code(), Some(1), "{cmd}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("stopped"),
            "{cmd}: {}",
            text(&out.stderr)
        );
        let out = run(
            &[cmd, "--timeout", "60", "-"],
            format!("{two}\n").as_bytes(),
        );
        assert_eq!(out.status.code(), Some(0), "{cmd}: {}", text(&out.stderr));
    }
}

#[test]
fn grade_and_hint_refuse_boards_above_64x64_before_any_search() {
    // An empty 100×100: proving it has more than one solution is a search
    // of its own; the refusal comes first.
    let empty = format!("{}\n", vec!["0"; 100].join(" ")).repeat(100);
    for cmd in ["grade", "hint"] {
        let start = std::time::Instant::now();
        let out = run(&[cmd, "-"], empty.as_bytes());
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{cmd}: {stderr}");
        assert!(stderr.contains("up to 64×64"), "{cmd}: {stderr}");
        assert!(stderr.contains("100×100"), "{cmd}: {stderr}");
        assert!(
            start.elapsed().as_secs() < 10,
            "{cmd}: {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn generate_settling_for_the_closest_at_the_timeout_exits_1() {
    // No 9×9 rates 11.5 or more; all the tries take seconds, so the
    // timeout passes first and the closest found is printed.
    let args = [
        "generate",
        "--level",
        "extreme",
        "--rating",
        "11.5-12",
        "--seed",
        "1",
        "--timeout",
        "0.5",
    ];
    let out = run(&args, b"");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    // The closest is printed and named (or, on a slow machine, not even
    // one try was done in time, and the puzzle is reported stopped).
    let printed = text(&out.stdout).lines().any(|l| !l.starts_with('#'));
    assert!(
        if printed {
            stderr.contains("the closest found")
        } else {
            stderr.contains("puzzle 0")
        },
        "{stderr}"
    );
}

/// Runs `dekadoku args FILE` on a file (not stdin).
fn run_file(args: &[&str], file: &std::path::Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dekadoku"))
        .args(args)
        .arg(file)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// `--jobs 4` answers puzzles in batches on four threads; what it writes
/// (solutions, counts, notes, errors) and its exit code are those of
/// `--jobs 1`, byte for byte, in the input's order.
#[test]
fn solve_and_count_give_the_same_output_for_every_job_count() {
    let Some(top) = common::shared("puzzles3_magictour_top1465") else {
        return;
    };
    let Some(serg) = common::shared("puzzles7_serg_benchmark") else {
        return;
    };
    // Unique, several solutions, conflicting givens, bad lines, other sizes.
    let dir = tempfile::tempdir().unwrap();
    let mixed = dir.path().join("mixed.txt");
    let mut body = String::from("# mixed\n");
    for (i, line) in std::fs::read_to_string(&serg)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(600)
        .enumerate()
    {
        body.push_str(line);
        body.push('\n');
        match i % 97 {
            0 => body.push_str(&format!("{}x\n", &HARD[..80])),
            1 => body.push_str(&format!("44{}\n", &HARD[2..])),
            2 => body.push_str("1.3.....2...4..1\n"),
            3 => body.push_str(&format!("{HARD},rating 7\n")),
            4 => body.push_str(&format!("{}\n", &HARD[..50])),
            _ => {}
        }
    }
    std::fs::write(&mixed, body).unwrap();
    for file in [top.as_path(), mixed.as_path()] {
        for args in [
            &["solve"][..],
            &["count"],
            &["count", "--limit", "5"],
            &["solve", "--first"],
            &["solve", "--format", "grid"],
            &["solve", "--backend", "dlx"],
        ] {
            let one = run_file(&[args, &["--jobs", "1"]].concat(), file);
            let four = run_file(&[args, &["--jobs", "4"]].concat(), file);
            assert!(!one.stdout.is_empty(), "{args:?} {}", file.display());
            assert_eq!(one.status.code(), four.status.code(), "{args:?}");
            assert!(
                one.stdout == four.stdout,
                "{args:?} {}: stdout",
                file.display()
            );
            assert_eq!(text(&one.stderr), text(&four.stderr), "{args:?}");
        }
    }
}

/// The reader's fast path for plain 9×9 lines and its general parser read
/// every line of every shared corpus in the line format to the same
/// puzzles, errors and line numbers.
#[test]
fn the_fast_reader_agrees_with_the_general_one_on_every_shared_corpus() {
    use dekadoku::engine::format::PuzzleReader;
    let Some(dir) = common::shared("") else {
        return;
    };
    let mut files = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if !path.is_file() || path.extension().is_some_and(|e| e == "md") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        let mut general = PuzzleReader::new(&bytes[..], &name, None);
        let mut fast = PuzzleReader::new(&bytes[..], &name, None);
        let mut classic = 0;
        loop {
            let a = general.next();
            let b = fast.next_fast();
            if let Some(Ok(dekadoku::engine::format::Parsed::Classic(_))) = &b {
                classic += 1;
            }
            let b = b.map(|r| r.map(|p| p.into_puzzle()));
            assert_eq!(a, b, "{name}:{}", general.last_line());
            assert_eq!(general.last_line(), fast.last_line(), "{name}");
            if a.is_none() {
                break;
            }
        }
        if general.format() == Some(dekadoku::engine::format::Format::Line) {
            assert!(classic > 0, "{name}: no line took the fast path");
        }
        files += 1;
    }
    assert!(files >= 8, "{files} corpus files");
}

/// A SAT program that cannot run stops a parallel run as it stops a
/// single-threaded one: the same message, naming the first puzzle, once.
#[test]
fn a_failing_sat_program_stops_every_job_count_alike() {
    let input = format!("{HARD}\n").repeat(40);
    for cmd in ["solve", "count"] {
        let one = run(
            &[cmd, "--sat-cmd", "no-such-program -q", "--jobs", "1"],
            input.as_bytes(),
        );
        let four = run(
            &[cmd, "--sat-cmd", "no-such-program -q", "--jobs", "4"],
            input.as_bytes(),
        );
        assert_eq!(one.status.code(), Some(2), "{cmd}");
        assert_eq!(four.status.code(), Some(2), "{cmd}");
        assert!(one.stdout.is_empty() && four.stdout.is_empty());
        let err = text(&four.stderr);
        assert_eq!(text(&one.stderr), err, "{cmd}");
        assert!(err.contains("puzzle 1 (line 1)"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}
