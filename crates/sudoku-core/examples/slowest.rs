//! The slowest single puzzle of each public set, in both modes: each puzzle is timed three
//! times and its fastest run kept, so a moment of machine noise does not count as the puzzle's
//! cost. Run with `cargo run --release -p sudoku-core --example slowest [DIR]` (default
//! `../shared/data/puzzles`, beside the project).

// Example code is never submitted to BOJ, so it may use std newer than the crate's rust-version.
#![allow(clippy::incompatible_msrv)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use sudoku_core::{solve, solve_lexmin, Format, Grid};

/// A solving mode: its name and its function.
type Mode = (&'static str, fn(&Grid) -> Option<Grid>);

fn main() {
    let dir = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/puzzles")
        });
    let mut files: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries
            .map(|e| e.expect("directory entry").path())
            .collect(),
        Err(err) => {
            eprintln!("{}: {}", dir.display(), err);
            std::process::exit(2);
        }
    };
    files.retain(|path| {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        !name.ends_with(".md") && !name.ends_with(".lexmin")
    });
    files.sort();
    println!("| file | puzzles | mode | slowest puzzle | its line |");
    println!("|---|---|---|---|---|");
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable puzzle file");
        let puzzles: Vec<Grid> = text
            .lines()
            .map(|l| Grid::parse(l).expect("puzzle"))
            .collect();
        let modes: [Mode; 2] = [("solve", solve), ("solve_lexmin", solve_lexmin)];
        for (mode, run) in modes {
            let (mut slowest, mut at) = (Duration::ZERO, 0);
            for (i, puzzle) in puzzles.iter().enumerate() {
                let best = (0..3)
                    .map(|_| {
                        let start = Instant::now();
                        assert!(
                            run(puzzle).is_some(),
                            "no solution: {}",
                            puzzle.display(Format::Line)
                        );
                        start.elapsed()
                    })
                    .min()
                    .unwrap_or_default();
                if best > slowest {
                    slowest = best;
                    at = i + 1;
                }
            }
            println!(
                "| {} | {} | `{}` | {:.0} µs | {} |",
                path.file_name().unwrap_or_default().to_string_lossy(),
                puzzles.len(),
                mode,
                slowest.as_secs_f64() * 1e6,
                at
            );
        }
    }
}
