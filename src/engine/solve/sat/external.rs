//! An external SAT solver: any program that reads DIMACS on standard input
//! and answers in the SAT competition's format (`kissat -q`, `cadical -q`,
//! `cryptominisat5 --verb 0`, …), as the seeds ran Plingeling.
//!
//! This is the one part of the engine that touches the system: each call
//! writes the CNF to a temporary file, starts the program with that file
//! as its standard input and another as its standard output, and polls it
//! (no threads), killing it when the deadline passes or the cancel flag is
//! raised. The temporary files have no name (`tempfile::tempfile`), so the
//! system removes them when the call ends, even if dekadoku is killed.
//! Counting starts the program again with the blocking clauses added, since
//! a program cannot be asked twice.

use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::process::{Child, Command, ExitStatus};
use std::time::Duration;

use thiserror::Error;

use crate::engine::grid::Puzzle;
use crate::engine::limits::{Limits, StopReason};
use crate::engine::solve::RawResult;
use crate::engine::trace::TraceSink;

use super::dimacs::{self, Answer, DimacsError, Model};
use super::encode::{Cnf, EncodeError, Encoding, ModelError};
use super::{Failure, Oracle, Verdict};

/// Why an external solver could not answer.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ExternalError {
    /// The command line is empty or badly quoted.
    #[error("bad solver command `{command}`: {problem}")]
    Command {
        /// The command as given.
        command: String,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// The program does not exist.
    #[error("cannot run `{program}`: not found on PATH")]
    NotFound {
        /// The program.
        program: String,
    },
    /// The program exists but could not be started.
    #[error("cannot run `{program}`: {error}")]
    Spawn {
        /// The program.
        program: String,
        /// What the system said.
        error: String,
    },
    /// A temporary file could not be made, written or read.
    #[error("SAT solver temporary file ({file}, in the system's temporary folder): {error}")]
    Io {
        /// Which one: `the CNF`, `the solver's output` or `its errors`.
        file: &'static str,
        /// What the system said.
        error: String,
    },
    /// The program ended with an exit status that is not an answer.
    #[error("`{program}` failed ({status}){stderr}")]
    Failed {
        /// The program.
        program: String,
        /// Its exit status.
        status: String,
        /// The start of its standard error, after ": ", or nothing.
        stderr: String,
    },
    /// Its output is not in the SAT competition's format.
    #[error("`{program}` gave output we cannot read: {error}")]
    Output {
        /// The program.
        program: String,
        /// What is wrong with it.
        error: DimacsError,
    },
    /// Its exit status says one thing and its `s` line another.
    #[error("`{program}` exited with status {code} but answered {answer}")]
    Mismatch {
        /// The program.
        program: String,
        /// The exit code.
        code: i32,
        /// The `s` line's status.
        answer: &'static str,
    },
    /// It gave up (`s UNKNOWN`).
    #[error("`{program}` answered UNKNOWN (it gave up)")]
    Unknown {
        /// The program.
        program: String,
    },
    /// Its model is not a solution of the puzzle.
    #[error("`{program}` gave a model that is not a solution: {error}")]
    Model {
        /// The program.
        program: String,
        /// What is wrong with it.
        error: ModelError,
    },
    /// The puzzle's CNF would be too large.
    #[error(transparent)]
    Encode(#[from] EncodeError),
}

/// A SAT solver program and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct External {
    program: String,
    args: Vec<String>,
}

impl External {
    /// Splits a command line such as `kissat -q` or `'my solver' --flag "a b"`
    /// into the program and its arguments as a POSIX shell does, without
    /// expansions (the `shlex` crate): blanks separate words, single quotes
    /// keep everything, double quotes and backslashes work as in `sh`, and a
    /// word starting with `#` starts a comment.
    pub fn parse(command: &str) -> Result<External, ExternalError> {
        let bad = |problem| ExternalError::Command {
            command: command.to_string(),
            problem,
        };
        let words = shlex::split(command)
            .ok_or_else(|| bad("a quote is not closed, or it ends in a backslash"))?;
        let mut words = words.into_iter();
        let program = words.next().ok_or_else(|| bad("no program given"))?;
        Ok(External {
            program,
            args: words.collect(),
        })
    }

    /// A program with explicit arguments.
    #[cfg(test)]
    pub fn new(program: impl Into<String>, args: Vec<String>) -> External {
        External {
            program: program.into(),
            args,
        }
    }

    /// The program.
    #[cfg(test)]
    pub fn program(&self) -> &str {
        &self.program
    }

    /// Its arguments.
    #[cfg(test)]
    pub fn args(&self) -> &[String] {
        &self.args
    }

    /// Finds up to `limit` solutions of `puzzle` with this program on the
    /// default [`Encoding`]: the same result as the embedded backend. The
    /// node budget does not apply (a program's work is not counted); the
    /// deadline and the cancel flag kill the program.
    pub fn run<S: TraceSink>(
        &self,
        puzzle: &Puzzle,
        limit: u64,
        limits: &Limits,
        sink: &mut S,
    ) -> Result<RawResult, ExternalError> {
        self.run_with(puzzle, limit, limits, sink, Encoding::default())
    }

    /// [`External::run`] on a chosen encoding.
    pub fn run_with<S: TraceSink>(
        &self,
        puzzle: &Puzzle,
        limit: u64,
        limits: &Limits,
        sink: &mut S,
        encoding: Encoding,
    ) -> Result<RawResult, ExternalError> {
        let r = super::search(puzzle, None, limit, limits, sink, encoding, |cnf, _| {
            Ok(Session {
                solver: self,
                cnf: cnf.clone(),
                extra: Vec::new(),
                model: Model::default(),
            })
        });
        r.map_err(|f| match f {
            Failure::Encode(e) => ExternalError::Encode(e),
            Failure::Model(error) => ExternalError::Model {
                program: self.program.clone(),
                error,
            },
            Failure::Oracle(e) => e,
        })
    }

    /// Runs the program once on `cnf` plus `extra` clauses.
    pub fn solve(
        &self,
        cnf: &Cnf,
        extra: &[Vec<i32>],
        limits: &Limits,
    ) -> Result<Result<Answer, StopReason>, ExternalError> {
        let input = Scratch::new("the CNF")?;
        {
            let mut w = BufWriter::with_capacity(1 << 16, &input.file);
            dimacs::write(cnf, extra, &mut w)
                .and_then(|()| w.flush())
                .map_err(|e| input.error(&e))?;
        }
        let output = Scratch::new("the solver's output")?;
        let errors = Scratch::new("its errors")?;
        let mut child = Command::new(&self.program)
            .args(&self.args)
            .stdin(input.handle()?)
            .stdout(output.handle()?)
            .stderr(errors.handle()?)
            .spawn()
            .map_err(|e| self.spawn_error(&e))?;
        let status = match wait(&mut child, limits) {
            Ok(Ok(status)) => status,
            Ok(Err(why)) => return Ok(Err(why)),
            Err(e) => {
                return Err(ExternalError::Spawn {
                    program: self.program.clone(),
                    error: e.to_string(),
                });
            }
        };
        let text = output.read()?;
        let code = status.code();
        let answer = match dimacs::parse_answer(&text) {
            Ok(a) => a,
            // No status line, but the exit code says UNSAT.
            Err(DimacsError::NoStatus) if code == Some(20) => Answer::Unsatisfiable,
            Err(error) if matches!(code, Some(0 | 10 | 20)) => {
                return Err(ExternalError::Output {
                    program: self.program.clone(),
                    error,
                });
            }
            Err(_) => return Err(self.failed(status, &errors)),
        };
        let named = match answer {
            Answer::Satisfiable(_) => "SATISFIABLE",
            Answer::Unsatisfiable => "UNSATISFIABLE",
            Answer::Unknown => "UNKNOWN",
        };
        match (code, &answer) {
            (Some(10), Answer::Satisfiable(_)) | (Some(20), Answer::Unsatisfiable) => {}
            (Some(0), Answer::Satisfiable(_) | Answer::Unsatisfiable) => {}
            (_, Answer::Unknown) => {
                return Err(ExternalError::Unknown {
                    program: self.program.clone(),
                });
            }
            (Some(c @ (10 | 20)), _) => {
                return Err(ExternalError::Mismatch {
                    program: self.program.clone(),
                    code: c,
                    answer: named,
                });
            }
            _ => return Err(self.failed(status, &errors)),
        }
        Ok(Ok(answer))
    }

    fn spawn_error(&self, e: &io::Error) -> ExternalError {
        if e.kind() == io::ErrorKind::NotFound {
            ExternalError::NotFound {
                program: self.program.clone(),
            }
        } else {
            ExternalError::Spawn {
                program: self.program.clone(),
                error: e.to_string(),
            }
        }
    }

    fn failed(&self, status: ExitStatus, errors: &Scratch) -> ExternalError {
        let stderr = errors.read().unwrap_or_default();
        let first: Vec<&str> = stderr
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .take(3)
            .collect();
        ExternalError::Failed {
            program: self.program.clone(),
            status: status.to_string(),
            stderr: if first.is_empty() {
                String::new()
            } else {
                format!(": {}", first.join(" / "))
            },
        }
    }
}

/// Waits for the child, killing it when a limit stops the search.
fn wait(child: &mut Child, limits: &Limits) -> io::Result<Result<ExitStatus, StopReason>> {
    // Short polls first (most answers come in milliseconds), then every
    // 10 ms, well inside the 100 ms a cancel may take.
    let mut pause = Duration::from_micros(200);
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Ok(status));
        }
        if let Some(why) = limits.check(0) {
            // It may have ended in between; either way it is gone after wait.
            let _ = child.kill();
            child.wait()?;
            return Ok(Err(why));
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(10));
    }
}

/// One counting session: the CNF, the blocking clauses so far and the
/// last model.
struct Session<'a> {
    solver: &'a External,
    cnf: Cnf,
    extra: Vec<Vec<i32>>,
    model: Model,
}

impl Oracle for Session<'_> {
    type Error = ExternalError;

    fn add_clause(&mut self, clause: &[i32]) {
        self.extra.push(clause.to_vec());
    }

    fn solve(&mut self, limits: &Limits) -> Result<Verdict, ExternalError> {
        // The node budget does not apply to a program's work.
        let limits = Limits {
            node_budget: None,
            ..limits.clone()
        };
        Ok(match self.solver.solve(&self.cnf, &self.extra, &limits)? {
            Ok(Answer::Satisfiable(model)) => {
                self.model = model;
                Verdict::Satisfiable
            }
            Ok(Answer::Unsatisfiable) => Verdict::Unsatisfiable,
            // solve turns UNKNOWN into an error.
            Ok(Answer::Unknown) => Verdict::Stopped(StopReason::NodeBudget),
            Err(why) => Verdict::Stopped(why),
        })
    }

    fn value(&self, var: u32) -> Option<bool> {
        self.model.value(var)
    }

    fn work(&self) -> u64 {
        0
    }
}

/// An unnamed file in the system's temporary folder (`tempfile::tempfile`):
/// it has no path, so the system frees it when its last handle closes, also
/// when dekadoku is killed, and nothing is left to clean up.
struct Scratch {
    file: File,
    /// What it holds, for errors.
    what: &'static str,
}

impl Scratch {
    fn new(what: &'static str) -> Result<Scratch, ExternalError> {
        match tempfile::tempfile() {
            Ok(file) => Ok(Scratch { file, what }),
            Err(e) => Err(ExternalError::Io {
                file: what,
                error: e.to_string(),
            }),
        }
    }

    fn error(&self, e: &io::Error) -> ExternalError {
        ExternalError::Io {
            file: self.what,
            error: e.to_string(),
        }
    }

    /// A second handle on the file, for the program's standard input or
    /// output; both share one position, set here to the start.
    fn handle(&self) -> Result<File, ExternalError> {
        (&self.file)
            .seek(SeekFrom::Start(0))
            .and_then(|_| self.file.try_clone())
            .map_err(|e| self.error(&e))
    }

    /// Everything in the file, as text (invalid UTF-8 replaced).
    fn read(&self) -> Result<String, ExternalError> {
        let mut bytes = Vec::new();
        let mut f = &self.file;
        f.seek(SeekFrom::Start(0))
            .and_then(|_| f.read_to_end(&mut bytes))
            .map_err(|e| self.error(&e))?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::shape::Shape;
    use crate::engine::trace::NoTrace;
    use crate::test_skip as common;

    #[test]
    fn command_lines_split_like_a_shell() {
        let e = External::parse("  kissat -q  --time=5 ").unwrap();
        assert_eq!(e.program(), "kissat");
        assert_eq!(e.args(), ["-q", "--time=5"]);
        let e = External::parse(r#"'my solver' "a b" c\ d "x\"y" ''"#).unwrap();
        assert_eq!(e.program(), "my solver");
        assert_eq!(e.args(), ["a b", "c d", "x\"y", ""]);
        let e = External::parse("cadical -q # the Debian one").unwrap();
        assert_eq!(
            (e.program(), e.args()),
            ("cadical", &["-q".to_string()][..])
        );
        for (bad, why) in [
            ("", "no program given"),
            ("   ", "no program given"),
            ("# nothing", "no program given"),
            ("a 'b", "a quote is not closed"),
            ("a \"b", "a quote is not closed"),
            ("a\\", "ends in a backslash"),
        ] {
            let err = External::parse(bad).unwrap_err().to_string();
            assert!(err.starts_with("bad solver command"), "{bad}: {err}");
            assert!(err.contains(why), "{bad}: {err}");
        }
    }

    /// A stand-in solver: `sh -c script`.
    fn sh(script: &str) -> External {
        External::new("sh", vec!["-c".to_string(), script.to_string()])
    }

    fn empty4() -> Puzzle {
        Puzzle::empty(Shape::square(2).unwrap())
    }

    #[test]
    fn answers_that_are_not_answers_are_errors() {
        let p = empty4();
        let run = |script: &str| sh(script).run(&p, 2, &Limits::none(), &mut NoTrace);
        let e = run("cat >/dev/null; echo 's UNKNOWN'").unwrap_err();
        assert_eq!(e.to_string(), "`sh` answered UNKNOWN (it gave up)");
        let e = run("echo oops >&2; exit 3").unwrap_err();
        assert_eq!(e.to_string(), "`sh` failed (exit status: 3): oops");
        let e = run("echo hello; exit 10").unwrap_err();
        assert!(matches!(e, ExternalError::Output { .. }), "{e}");
        assert!(e.to_string().contains("no `s SATISFIABLE`"), "{e}");
        let e = run("echo 's UNSATISFIABLE'; exit 10").unwrap_err();
        assert_eq!(
            e.to_string(),
            "`sh` exited with status 10 but answered UNSATISFIABLE"
        );
        let e = run("printf 's SATISFIABLE\\nv 1 0\\n'; exit 10").unwrap_err();
        assert!(matches!(e, ExternalError::Model { .. }), "{e}");
        // The program reads the CNF from its start; its errors are read back.
        let e = run("read -r header; echo \"$header\" >&2; exit 3").unwrap_err();
        assert_eq!(
            e.to_string(),
            "`sh` failed (exit status: 3): c dekadoku Sudoku 4×4 (boxes 2×2) as CNF"
        );
        // UNSAT by exit code alone is an answer.
        let r = run("exit 20").unwrap();
        assert_eq!((r.count, r.exhausted), (0, true));
    }

    #[test]
    fn a_slow_program_is_killed_at_the_deadline_or_on_cancel() {
        let p = empty4();
        let slow = sh("sleep 30");
        let start = std::time::Instant::now();
        let limits = Limits::timeout(Duration::from_millis(100));
        let r = slow.run(&p, 2, &limits, &mut NoTrace).unwrap();
        assert_eq!(r.stopped, Some(StopReason::Deadline));
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let raiser = {
            let flag = flag.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(100));
                flag.store(true, std::sync::atomic::Ordering::Relaxed);
            })
        };
        let r = slow
            .run(&p, 2, &Limits::none().with_cancel(flag), &mut NoTrace)
            .unwrap();
        raiser.join().unwrap();
        assert_eq!(r.stopped, Some(StopReason::Cancelled));
        // Killed, not waited for (the test would take a minute otherwise).
        assert!(start.elapsed() < Duration::from_secs(20));
    }

    #[test]
    fn a_missing_program_is_named() {
        let e = External::parse("dekadoku-no-such-sat-solver -q").unwrap();
        let p = Puzzle::empty(Shape::square(2).unwrap());
        let err = e.run(&p, 2, &Limits::none(), &mut NoTrace).unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot run `dekadoku-no-such-sat-solver`: not found on PATH"
        );
    }

    /// With Debian's `cadical` program installed (`.ci/run` installs it),
    /// counting through it as an external solver agrees with the embedded
    /// CaDiCaL on both encodings; without it the test says so (and fails
    /// under CI).
    #[test]
    fn an_installed_cadical_counts_like_the_embedded_one() {
        let e = External::parse("cadical -q").unwrap();
        let p = Puzzle::empty(Shape::square(2).unwrap());
        let r = match e.run(&p, 30, &Limits::none(), &mut NoTrace) {
            Err(ExternalError::NotFound { .. }) => {
                common::skip_or_fail("no `cadical` program on PATH (.ci/run installs it)");
                return;
            }
            other => other.unwrap(),
        };
        assert_eq!((r.count, r.exhausted), (30, false));
        assert!(r.witnesses.iter().all(|g| p.is_solved_by(g)));
        let hard = crate::engine::format::parse_one(
            "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6",
            "hard",
        )
        .unwrap();
        for enc in [Encoding::compact(), Encoding::full()] {
            let r = e
                .run_with(&hard, 2, &Limits::none(), &mut NoTrace, enc)
                .unwrap();
            let ours = crate::engine::sat::run_with(&hard, 2, &Limits::none(), &mut NoTrace, enc);
            assert_eq!((r.count, r.exhausted), (1, true));
            assert_eq!(r.witnesses, ours.witnesses);
        }
    }
}
