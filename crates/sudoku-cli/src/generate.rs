//! `sudoku generate`: puzzles of one kind from a seed, printed in any of the three formats.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Result;
use sudoku_core::Format;
use sudoku_gen::{generate, Kind, Options, Rng};

use crate::batch;

/// Generate puzzles from a seed: the same seed gives the same puzzles.
#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// What to generate.
    #[arg(long, value_enum, default_value_t = KindArg::Unique)]
    kind: KindArg,
    /// How many puzzles.
    #[arg(long, short = 'n', value_name = "N", default_value_t = 1)]
    count: u64,
    /// The seed [default: random, printed on stderr].
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// How to print each puzzle; rows and spaced puzzles are separated by a blank line.
    #[arg(long, value_enum, default_value_t = FormatArg::Line)]
    format: FormatArg,
    /// Adversarial search budget, in millions of naive-search calls (100: about a second a
    /// puzzle). Counted in calls, not seconds, so a seed gives the same puzzle on any machine.
    #[arg(long, value_name = "MCALLS", default_value_t = sudoku_gen::DEFAULT_EFFORT / 1_000_000)]
    effort: u64,
    /// Target number of clues (unique: stop removing there; multi: keep this many) [default:
    /// unique puzzles are minimal, multi boards keep 0-26].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=81))]
    clues: Option<u8>,
    /// Worker threads [default: every core]; output order does not depend on it.
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,
    /// Print each adversarial puzzle's naive-search calls (and its base puzzle's) on stderr.
    #[arg(long, short)]
    verbose: bool,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum KindArg {
    /// A unique solution (minimal unless --clues).
    Unique,
    /// At least two solutions (few clues, down to the empty board).
    Multi,
    /// Unique, and transformed to make row-major backtracking slow.
    Adversarial,
    /// No solution, though no givens clash.
    Unsolvable,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum FormatArg {
    /// One line of 81 characters, `.` blank.
    Line,
    /// Nine rows of nine digits, `0` blank (BOJ 2239).
    Rows,
    /// Nine rows of nine space-separated digits (BOJ 2580).
    Spaced,
}

/// Runs the subcommand.
pub fn run(args: &GenerateArgs) -> Result<ExitCode> {
    let kind = match args.kind {
        KindArg::Unique => Kind::Unique,
        KindArg::Multi => Kind::Multi,
        KindArg::Adversarial => Kind::Adversarial,
        KindArg::Unsolvable => Kind::Unsolvable,
    };
    let format = match args.format {
        FormatArg::Line => Format::Line,
        FormatArg::Rows => Format::Rows,
        FormatArg::Spaced => Format::Spaced,
    };
    let seed = args.seed.unwrap_or_else(|| {
        let seed = random_seed();
        eprintln!("sudoku: seed {seed} (--seed {seed} gives these puzzles again)");
        seed
    });
    let options = Options {
        clues: args.clues.map(usize::from),
        effort: args.effort.saturating_mul(1_000_000),
    };
    let indexes: Vec<u64> = (1..=args.count).collect();
    let jobs = args.jobs.map_or_else(batch::default_jobs, |n| n as usize);
    // Adversarial puzzles take about a second each: a bar from two on.
    let progress = batch::progress(indexes.len(), "generated", kind == Kind::Adversarial);
    let mut out = BufWriter::new(io::stdout().lock());
    let work = |&index: &u64| generate(kind, seed, index, &options);
    let mut written = 0u64;
    batch::map_ordered(&indexes, jobs, &progress, work, |block| -> Result<()> {
        for puzzle in block {
            written += 1;
            let index = written;
            if index > 1 && format != Format::Line {
                writeln!(out)?;
            }
            writeln!(out, "{}", puzzle.grid.display(format))?;
            if let (true, Some((nodes, base))) = (args.verbose, puzzle.naive) {
                let at_least = if nodes.capped { "at least " } else { "" };
                progress.suspend(|| {
                    eprintln!(
                        "sudoku: puzzle {index}: naive row-major search {at_least}{} calls \
                         (untransformed: {})",
                        nodes.calls, base.calls
                    )
                });
            }
        }
        out.flush()?;
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// A seed from the clock and the process id, mixed.
fn random_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    Rng::new(nanos ^ u64::from(std::process::id()).rotate_left(32)).next_u64() % 1_000_000_000
}
