//! `sudoku`: solve, count and generate 9x9 Sudoku puzzles, one puzzle per line, on all cores.
//!
//! `solve` and `count` read 81-character lines (`.` or `0` for a blank) and write one answer per
//! line in the same order; a line that is not a puzzle (or, for `solve`, has no solution) gives
//! `none`, so output lines stay aligned with input lines, and its reason goes to stderr with the
//! line number. Exit status: 0 every line answered, 1 some line was `none`, 2 the command could
//! not run (bad arguments, unreadable file).

#![forbid(unsafe_code)]

mod batch;
mod generate;

use std::fs;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use sudoku_core::{count_solutions, solve, solve_lexmin, Format, Grid, ParseError};

/// Solve, count and generate 9x9 Sudoku puzzles.
#[derive(Parser, Debug)]
#[command(name = "sudoku", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve one puzzle per line (81 characters, `.` or `0` blank); one solution per line.
    Solve {
        /// Print the lexicographically smallest solution (BOJ 2239's answer), not just any.
        #[arg(long)]
        lexmin: bool,
        #[command(flatten)]
        input: Input,
    },
    /// Count the solutions of one puzzle per line; one count per line.
    Count {
        /// Stop counting past this many solutions and print `LIMIT+`.
        #[arg(long, value_name = "N", default_value_t = 1_000_000)]
        limit: u64,
        #[command(flatten)]
        input: Input,
    },
    /// Generate puzzles from a seed: the same seed gives the same puzzles.
    Generate(generate::GenerateArgs),
}

/// Where puzzles come from and how many threads work on them.
#[derive(clap::Args, Debug)]
struct Input {
    /// Worker threads [default: every core]; output keeps the input's order.
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,
    /// The puzzles, one per line [default: standard input].
    file: Option<PathBuf>,
}

impl Input {
    fn jobs(&self) -> usize {
        self.jobs.map_or_else(batch::default_jobs, |n| n as usize)
    }

    fn read(&self) -> Result<Vec<u8>> {
        let bytes = match &self.file {
            Some(path) => {
                fs::read(path).with_context(|| format!("cannot read {}", path.display()))?
            }
            None => {
                let mut bytes = Vec::new();
                io::stdin()
                    .read_to_end(&mut bytes)
                    .context("cannot read standard input")?;
                bytes
            }
        };
        Ok(bytes)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Solve { lexmin, input } => {
            let lexmin = *lexmin;
            per_line(input, "solved", move |grid| {
                let solution = if lexmin {
                    solve_lexmin(grid)
                } else {
                    solve(grid)
                };
                match solution {
                    Some(solution) => Ok(Answer::Grid(*solution.cells())),
                    None => Err(why_unsolvable(grid)),
                }
            })
        }
        Command::Count { limit, input } => {
            let limit = *limit;
            per_line(input, "counted", move |grid| {
                match count_solutions(grid, limit.saturating_add(1)) {
                    // Givens that clash are not a puzzle at all, as `Grid::parse` says.
                    0 if grid.find_conflict().is_some() => Err(why_unsolvable(grid)),
                    count if count > limit => Ok(Answer::Text(format!("{limit}+"))),
                    count => Ok(Answer::Text(count.to_string())),
                }
            })
        }
        Command::Generate(args) => generate::run(args),
    };
    match result {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("sudoku: error: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// Why a grid that reads as a line has no answer: its givens clash (what `Grid::parse` would
/// have said), or the search found no solution.
fn why_unsolvable(grid: &Grid) -> String {
    match grid.find_conflict() {
        Some(conflict) => format!("invalid puzzle: {conflict}"),
        None => "no solution".to_string(),
    }
}

/// A closed stdout (`| head`) is not a failure.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// What a line comes to, written into the output as it is: a grid's 81 digits, or a word.
enum Answer {
    Grid([u8; 81]),
    Text(String),
}

/// Answers every line with `answer`; a line that does not read, or whose answer is an error,
/// prints `none` and its reason (with the line number) on stderr.
///
/// The lean path: bytes in, bytes out. A line is read straight into 81 cells without the
/// separate consistency pass (the search finds clashing givens anyway, and `why_unsolvable`
/// names them then), solutions go into the block's output buffer as digits, and nothing is
/// allocated per line unless the line fails; `Grid::parse_as` runs only for a line that the
/// quick read refuses, to give its exact reason.
fn per_line(
    input: &Input,
    what: &str,
    answer: impl Fn(&Grid) -> Result<Answer, String> + Sync,
) -> Result<ExitCode> {
    let bytes = input.read()?;
    let lines = batch::lines(&bytes);
    let progress = batch::progress(lines.len(), what, false);
    let mut failed = false;
    let mut stdout = io::stdout().lock();
    let work = |&(number, line): &(usize, &[u8])| {
        let result = match read_line(line) {
            Some(grid) => answer(&grid),
            None => Err(describe_line(line)),
        };
        (number, result)
    };
    let mut out: Vec<u8> = Vec::new();
    batch::map_ordered(&lines, input.jobs(), &progress, work, |block| {
        out.clear();
        for (number, result) in block {
            match result {
                Ok(Answer::Grid(cells)) => {
                    out.extend(cells.iter().map(|digit| b'0' + digit));
                    out.push(b'\n');
                }
                Ok(Answer::Text(text)) => {
                    out.extend_from_slice(text.as_bytes());
                    out.push(b'\n');
                }
                Err(reason) => {
                    failed = true;
                    out.extend_from_slice(b"none\n");
                    progress.suspend(|| eprintln!("sudoku: line {number}: {reason}"));
                }
            }
        }
        stdout.write_all(&out).and_then(|()| stdout.flush())
    })?;
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// A line of exactly 81 cells (`1`-`9`, `.` or `0` for a blank), read as a grid without the
/// consistency pass; `None` for anything else.
fn read_line(line: &[u8]) -> Option<Grid> {
    let line: &[u8; 81] = line.try_into().ok()?;
    let mut cells = [0u8; 81];
    for (cell, &byte) in cells.iter_mut().zip(line) {
        *cell = match byte {
            b'1'..=b'9' => byte - b'0',
            b'0' | b'.' => 0,
            _ => return None,
        };
    }
    Grid::from_cells(cells)
}

/// Why a line that [`read_line`] refused is not a puzzle, as `Grid::parse_as` tells it.
fn describe_line(line: &[u8]) -> String {
    match Grid::parse_as(&String::from_utf8_lossy(line), Format::Line) {
        Err(err) => describe(&err),
        // The quick read is stricter than no reading rule; should they ever differ, say so.
        Ok(_) => "not a line of 81 cells".to_string(),
    }
}

/// Why a line is not a puzzle, without the parser's own line number (always 1 here).
fn describe(err: &ParseError) -> String {
    match err {
        ParseError::Empty => "empty line".to_string(),
        ParseError::CellCount { found, .. } | ParseError::RowCount { found, .. } => {
            format!("expected 81 cells, found {found}")
        }
        ParseError::InvalidChar { column, ch, .. } => {
            format!("column {column}: expected a digit 0-9 or '.', found {ch:?}")
        }
        ParseError::RepeatedGiven(conflict) => format!("invalid puzzle: {conflict}"),
        other => other.to_string(),
    }
}
