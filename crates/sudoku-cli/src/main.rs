//! `sudoku`: solve, count and generate 9x9 Sudoku puzzles, one puzzle per line, on all cores.
//!
//! `solve` and `count` read 81-character lines (`.` or `0` for a blank) and write one answer per
//! line in the same order; a line that is not a puzzle (or, for `solve`, has no solution) gives
//! `none`, so output lines stay aligned with input lines, and its reason goes to stderr with the
//! line number. Exit status: 0 every line answered, 1 some line was `none`, 2 the command could
//! not run (bad arguments, unreadable file).

mod batch;
mod generate;

use std::fs;
use std::io::{self, BufWriter, Read, Write};
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

    fn read(&self) -> Result<String> {
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
        Ok(String::from_utf8_lossy(&bytes).into_owned())
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
                solution
                    .map(|s| s.display(Format::Line).to_string())
                    .ok_or_else(|| "no solution".to_string())
            })
        }
        Command::Count { limit, input } => {
            let limit = *limit;
            per_line(input, "counted", move |grid| {
                let count = count_solutions(grid, limit.saturating_add(1));
                Ok(if count > limit {
                    format!("{limit}+")
                } else {
                    count.to_string()
                })
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

/// A closed stdout (`| head`) is not a failure.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Answers every line with `answer`; a line that does not parse, or whose answer is an error,
/// prints `none` and its reason (with the line number) on stderr.
fn per_line(
    input: &Input,
    what: &str,
    answer: impl Fn(&Grid) -> Result<String, String> + Sync,
) -> Result<ExitCode> {
    let text = input.read()?;
    let lines = batch::lines(&text);
    let progress = batch::progress(lines.len(), what, false);
    let mut failed = false;
    let stdout = io::stdout().lock();
    let mut out = BufWriter::new(stdout);
    let work = |&(number, line): &(usize, &str)| {
        let result = Grid::parse_as(line, Format::Line)
            .map_err(|err| describe(&err))
            .and_then(|grid| answer(&grid));
        (number, result)
    };
    batch::map_ordered(&lines, input.jobs(), &progress, work, |block| {
        for (number, result) in block {
            match result {
                Ok(answer) => writeln!(out, "{answer}")?,
                Err(reason) => {
                    failed = true;
                    writeln!(out, "none")?;
                    progress.suspend(|| eprintln!("sudoku: line {number}: {reason}"));
                }
            }
        }
        out.flush()
    })?;
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
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
