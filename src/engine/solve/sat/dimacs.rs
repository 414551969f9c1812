//! DIMACS: writing a [`Cnf`] as `p cnf` text, reading such text back, and
//! reading a SAT solver's answer (`s SATISFIABLE` with `v` lines,
//! `s UNSATISFIABLE`, `s UNKNOWN`) in the SAT competition's format.

use std::fmt::Write as _;
use std::io::{self, Write};

use thiserror::Error;

use super::encode::Cnf;
use crate::engine::grid::{Cell, symbol};

/// Why DIMACS text or a solver's answer could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum DimacsError {
    /// No `p cnf` line before the first clause.
    #[error("line {line}: clause before the `p cnf` header")]
    NoHeader {
        /// 1-based line.
        line: usize,
    },
    /// A malformed `p` line.
    #[error("line {line}: expected `p cnf <variables> <clauses>`, found `{found}`")]
    BadHeader {
        /// 1-based line.
        line: usize,
        /// The line as read.
        found: String,
    },
    /// Something that is not an integer where a literal was expected.
    #[error("line {line}: expected a literal (a non-zero integer or 0), found `{found}`")]
    BadLiteral {
        /// 1-based line.
        line: usize,
        /// The token as read.
        found: String,
    },
    /// A literal beyond the variables the header declares.
    #[error("line {line}: literal {literal} is beyond the {vars} variables of the header")]
    OutOfRange {
        /// 1-based line.
        line: usize,
        /// The literal.
        literal: i64,
        /// Variables declared.
        vars: u32,
    },
    /// The header's clause count does not match the clauses read.
    #[error("the header declares {declared} clauses but {found} were read")]
    ClauseCount {
        /// Clauses the header declares.
        declared: usize,
        /// Clauses read.
        found: usize,
    },
    /// The last clause has no terminating 0.
    #[error("the last clause (or `v` line) does not end with 0")]
    Unterminated,
    /// No `s` line in a solver's output.
    #[error("no `s SATISFIABLE`, `s UNSATISFIABLE` or `s UNKNOWN` line in the solver's output")]
    NoStatus,
    /// An `s` line with another status, or a second `s` line.
    #[error("line {line}: unexpected status line `{found}`")]
    BadStatus {
        /// 1-based line.
        line: usize,
        /// The line as read.
        found: String,
    },
    /// `v` lines in an answer that is not SATISFIABLE.
    #[error("line {line}: `v` line without `s SATISFIABLE`")]
    StrayValues {
        /// 1-based line.
        line: usize,
    },
    /// Literals after the `v` lines' terminating 0.
    #[error("line {line}: values after the terminating 0")]
    AfterEnd {
        /// 1-based line.
        line: usize,
    },
    /// A variable given both values.
    #[error("line {line}: variable {var} is given both values")]
    BothValues {
        /// 1-based line.
        line: usize,
        /// The variable.
        var: u32,
    },
}

/// Writes `cnf` as DIMACS, with `extra` clauses (blocking clauses) after
/// its own. Comment lines name the shape, the encoding and how variables
/// map to cells and digits, so the file stands on its own.
pub fn write<W: Write>(cnf: &Cnf, extra: &[Vec<i32>], out: &mut W) -> io::Result<()> {
    let shape = cnf.shape();
    let n = shape.n();
    writeln!(out, "c dekadoku Sudoku {shape} as CNF")?;
    writeln!(out, "c encoding: {}", cnf.encoding().describe())?;
    write!(
        out,
        "c variables 1..={} are (cell, digit) pairs",
        cnf.num_cell_vars()
    )?;
    if cnf.num_vars() > cnf.num_cell_vars() {
        write!(
            out,
            "; {}..={} are at-most-one helpers",
            cnf.num_cell_vars() + 1,
            cnf.num_vars()
        )?;
    }
    writeln!(out)?;
    writeln!(out, "c rows, columns and digits are 1-based below")?;
    if cnf.is_contradiction() {
        writeln!(
            out,
            "c placing singles left a cell or a digit of a unit with no place: no solution"
        )?;
    } else if cnf.encoding().compact {
        writeln!(
            out,
            "c a `c cell rRcC V D1 D2 ...` line says variables V, V+1, ... are digits D1, D2, ... in that cell"
        )?;
        writeln!(
            out,
            "c a `c fixed rRcC D` line is a given or a single placed before encoding"
        )?;
        for (c, v) in cnf.fixed().iter().enumerate() {
            if let Some(v) = v {
                writeln!(out, "c fixed {} {}", Cell::from_index(shape, c), v)?;
            }
        }
        for c in 0..shape.cells() {
            let (first, len) = cnf.cell_vars(c);
            if len == 0 {
                continue;
            }
            write!(out, "c cell {} {first}", Cell::from_index(shape, c))?;
            for v in first..first + len {
                if let Some((_, d)) = cnf.decode(v) {
                    write!(out, " {}", d + 1)?;
                }
            }
            writeln!(out)?;
        }
    } else {
        writeln!(
            out,
            "c variable of row R, column C, digit D: ((R-1)*{n} + (C-1))*{n} + D"
        )?;
        writeln!(
            out,
            "c digits above 9 are written {}, {}, ... in the puzzle formats",
            symbol(n, 10),
            symbol(n, 11)
        )?;
    }
    writeln!(
        out,
        "p cnf {} {}",
        cnf.num_vars(),
        cnf.num_clauses() + extra.len()
    )?;
    let mut line = String::new();
    for clause in cnf.clauses().chain(extra.iter().map(Vec::as_slice)) {
        line.clear();
        for &l in clause {
            // Writing to a String cannot fail.
            let _ = write!(line, "{l} ");
        }
        line.push_str("0\n");
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// DIMACS CNF as read back: the header's counts and the clauses.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DimacsCnf {
    /// Variables the header declares.
    pub vars: u32,
    /// The clauses, without their terminating 0.
    pub clauses: Vec<Vec<i32>>,
    /// The comment lines, without the leading `c`.
    pub comments: Vec<String>,
}

/// Reads DIMACS CNF text: comments, one `p cnf V C` header, then C clauses
/// of literals in −V..=V, each ended by 0 (a clause may span lines).
pub fn parse_cnf(text: &str) -> Result<DimacsCnf, DimacsError> {
    let mut cnf = DimacsCnf::default();
    let mut declared: Option<usize> = None;
    let mut clause: Vec<i32> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim();
        if t.is_empty() || t == "%" {
            continue;
        }
        if let Some(rest) = t
            .strip_prefix('c')
            .filter(|r| r.is_empty() || r.starts_with(' '))
        {
            cnf.comments.push(rest.trim_start().to_string());
            continue;
        }
        if t.starts_with('p') {
            let bad = || DimacsError::BadHeader {
                line,
                found: t.to_string(),
            };
            let parts: Vec<&str> = t.split_whitespace().collect();
            let ["p", "cnf", v, c] = parts[..] else {
                return Err(bad());
            };
            if declared.is_some() {
                return Err(bad());
            }
            cnf.vars = v.parse().map_err(|_| bad())?;
            declared = Some(c.parse().map_err(|_| bad())?);
            continue;
        }
        if declared.is_none() {
            return Err(DimacsError::NoHeader { line });
        }
        for tok in t.split_whitespace() {
            let lit: i64 = tok.parse().map_err(|_| DimacsError::BadLiteral {
                line,
                found: tok.to_string(),
            })?;
            if lit == 0 {
                cnf.clauses.push(std::mem::take(&mut clause));
                continue;
            }
            if lit.unsigned_abs() > u64::from(cnf.vars) {
                return Err(DimacsError::OutOfRange {
                    line,
                    literal: lit,
                    vars: cnf.vars,
                });
            }
            // |lit| ≤ vars ≤ u32::MAX, and the clause is for i32 solvers.
            clause.push(i32::try_from(lit).map_err(|_| DimacsError::OutOfRange {
                line,
                literal: lit,
                vars: cnf.vars,
            })?);
        }
    }
    if !clause.is_empty() {
        return Err(DimacsError::Unterminated);
    }
    let declared = declared.ok_or(DimacsError::NoHeader { line: 1 })?;
    if declared != cnf.clauses.len() {
        return Err(DimacsError::ClauseCount {
            declared,
            found: cnf.clauses.len(),
        });
    }
    Ok(cnf)
}

/// A solver's assignment: the value of each variable it listed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Model {
    values: Vec<Option<bool>>,
}

impl Model {
    /// The model's value of `var` (1-based), `None` when it was not listed.
    pub fn value(&self, var: u32) -> Option<bool> {
        self.values.get(var as usize).copied().flatten()
    }

    /// Sets `var` to `value`.
    pub fn set(&mut self, var: u32, value: bool) {
        let i = var as usize;
        if self.values.len() <= i {
            self.values.resize(i + 1, None);
        }
        self.values[i] = Some(value);
    }
}

/// What a SAT solver answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Satisfiable, with the model from the `v` lines.
    Satisfiable(Model),
    /// Unsatisfiable.
    Unsatisfiable,
    /// The solver gave up.
    Unknown,
}

/// Reads a solver's output in the SAT competition's format: comment lines
/// (`c …`) and anything else are skipped; exactly one `s` line; for
/// SATISFIABLE, `v` lines of literals ending with 0.
pub fn parse_answer(text: &str) -> Result<Answer, DimacsError> {
    let mut status: Option<(usize, &str)> = None;
    let mut model = Model::default();
    let mut ended = false;
    let mut first_v: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim();
        if let Some(rest) = t.strip_prefix("s ") {
            let s = rest.trim();
            if status.is_some()
                || !matches!(
                    s,
                    "SATISFIABLE" | "UNSATISFIABLE" | "UNKNOWN" | "INDETERMINATE"
                )
            {
                return Err(DimacsError::BadStatus {
                    line,
                    found: t.to_string(),
                });
            }
            status = Some((line, s));
        } else if let Some(rest) = t
            .strip_prefix('v')
            .filter(|r| r.is_empty() || r.starts_with(' '))
        {
            first_v.get_or_insert(line);
            for tok in rest.split_whitespace() {
                if ended {
                    return Err(DimacsError::AfterEnd { line });
                }
                let lit: i64 = tok.parse().map_err(|_| DimacsError::BadLiteral {
                    line,
                    found: tok.to_string(),
                })?;
                if lit == 0 {
                    ended = true;
                    continue;
                }
                let var =
                    u32::try_from(lit.unsigned_abs()).map_err(|_| DimacsError::BadLiteral {
                        line,
                        found: tok.to_string(),
                    })?;
                let value = lit > 0;
                if model.value(var) == Some(!value) {
                    return Err(DimacsError::BothValues { line, var });
                }
                model.set(var, value);
            }
        }
    }
    let Some((_, status)) = status else {
        return Err(DimacsError::NoStatus);
    };
    match status {
        "SATISFIABLE" => {
            if !ended {
                return Err(DimacsError::Unterminated);
            }
            Ok(Answer::Satisfiable(model))
        }
        _ if first_v.is_some() => Err(DimacsError::StrayValues {
            line: first_v.unwrap_or(0),
        }),
        "UNSATISFIABLE" => Ok(Answer::Unsatisfiable),
        _ => Ok(Answer::Unknown),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::grid::Puzzle;
    use crate::engine::shape::Shape;
    use crate::engine::solve::sat::encode::Encoding;

    #[test]
    fn export_and_read_back_agree() {
        let shape = Shape::new(2, 3).unwrap();
        let mut p = Puzzle::empty(shape);
        p.set(0, crate::engine::grid::Value::new(4)).unwrap();
        p.set(13, crate::engine::grid::Value::new(2)).unwrap();
        for enc in [
            Encoding::full(),
            Encoding::full().with_redundant(false),
            Encoding::compact(),
            Encoding::compact().with_pairwise_up_to(2),
        ] {
            let cnf = Cnf::encode(&p, enc).unwrap();
            let blocking = vec![vec![-1, -2], vec![3]];
            let mut text = Vec::new();
            write(&cnf, &blocking, &mut text).unwrap();
            let text = String::from_utf8(text).unwrap();
            let back = parse_cnf(&text).unwrap();
            assert_eq!(back.vars, cnf.num_vars());
            assert_eq!(back.clauses.len(), cnf.num_clauses() + 2);
            let ours: Vec<Vec<i32>> = cnf.clauses().map(<[i32]>::to_vec).chain(blocking).collect();
            assert_eq!(back.clauses, ours);
            assert!(back.comments[0].contains("6×6"), "{:?}", back.comments[0]);
        }
    }

    #[test]
    fn malformed_cnf_is_refused_with_the_line() {
        assert_eq!(parse_cnf("1 2 0\n"), Err(DimacsError::NoHeader { line: 1 }));
        assert!(matches!(
            parse_cnf("p cnf x 1\n"),
            Err(DimacsError::BadHeader { line: 1, .. })
        ));
        assert!(matches!(
            parse_cnf("p cnf 2 1\n1 3 0\n"),
            Err(DimacsError::OutOfRange {
                line: 2,
                literal: 3,
                ..
            })
        ));
        assert!(matches!(
            parse_cnf("p cnf 2 1\n1 -2\n"),
            Err(DimacsError::Unterminated)
        ));
        assert!(matches!(
            parse_cnf("p cnf 2 2\n1 -2 0\n"),
            Err(DimacsError::ClauseCount {
                declared: 2,
                found: 1
            })
        ));
        assert!(matches!(
            parse_cnf("c hi\np cnf 2 1\n1 b 0\n"),
            Err(DimacsError::BadLiteral { line: 3, .. })
        ));
        let ok = parse_cnf("c x\np cnf 3 2\n1 -2\n 3 0 -1 0\n").unwrap();
        assert_eq!(ok.clauses, vec![vec![1, -2, 3], vec![-1]]);
    }

    #[test]
    fn solver_answers_are_read() {
        let out = "c some banner\ns SATISFIABLE\nv 1 -2 3\nv -4 0\nc done\n";
        let Answer::Satisfiable(m) = parse_answer(out).unwrap() else {
            panic!("not SAT");
        };
        assert_eq!(
            (m.value(1), m.value(2), m.value(4), m.value(5)),
            (Some(true), Some(false), Some(false), None)
        );
        assert_eq!(
            parse_answer("s UNSATISFIABLE\n").unwrap(),
            Answer::Unsatisfiable
        );
        assert_eq!(parse_answer("c t\ns UNKNOWN\n").unwrap(), Answer::Unknown);
    }

    #[test]
    fn bad_answers_are_errors() {
        assert_eq!(parse_answer(""), Err(DimacsError::NoStatus));
        assert_eq!(parse_answer("garbage\n"), Err(DimacsError::NoStatus));
        assert_eq!(
            parse_answer("s SATISFIABLE\nv 1 2\n"),
            Err(DimacsError::Unterminated)
        );
        assert!(matches!(
            parse_answer("s SATISFIABLE\ns SATISFIABLE\n"),
            Err(DimacsError::BadStatus { line: 2, .. })
        ));
        assert!(matches!(
            parse_answer("s MAYBE\n"),
            Err(DimacsError::BadStatus { .. })
        ));
        assert!(matches!(
            parse_answer("s SATISFIABLE\nv 1 x 0\n"),
            Err(DimacsError::BadLiteral { line: 2, .. })
        ));
        assert!(matches!(
            parse_answer("s SATISFIABLE\nv 1 -1 0\n"),
            Err(DimacsError::BothValues { var: 1, .. })
        ));
        assert!(matches!(
            parse_answer("s SATISFIABLE\nv 1 0\nv 2 0\n"),
            Err(DimacsError::AfterEnd { line: 3 })
        ));
        assert!(matches!(
            parse_answer("s UNSATISFIABLE\nv 1 0\n"),
            Err(DimacsError::StrayValues { line: 2 })
        ));
    }
}
