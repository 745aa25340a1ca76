//! Throughput of `solve` and `solve_lexmin` on each public puzzle set, beside the published
//! `sudoku` crate (a bench-only peer). Run with `cargo bench -p sudoku-core`; divan prints
//! puzzles per second (`item/s`) for each set. Sets come from `../shared/data/puzzles/` when it
//! exists, else from the small fixtures in `tests/data/`.

// Bench code is never submitted to BOJ, so it may use std newer than the crate's rust-version.
#![allow(clippy::incompatible_msrv)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use sudoku_core::Grid;

fn main() {
    divan::main();
}

/// Set names as in `../shared/data/puzzles/`, split files joined.
const SETS: &[&str] = &[
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
    "puzzles7_serg_benchmark",
    "boj_nearcap_1e7",
];

struct Set {
    lines: Vec<String>,
    grids: Vec<Grid>,
}

fn sets() -> &'static Vec<(String, Set)> {
    static SETS_LOADED: OnceLock<Vec<(String, Set)>> = OnceLock::new();
    SETS_LOADED.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let shared = root.join("../../../shared/data/puzzles");
        if shared.is_dir() {
            SETS.iter()
                .map(|name| (name.to_string(), load(&shared, name)))
                .collect()
        } else {
            eprintln!("../shared/data/puzzles not found: benchmarking the test fixtures");
            let data = root.join("tests/data");
            [
                "named_hard.txt",
                "boj_nearcap_1e7.txt",
                "magictour_top150.txt",
                "serg_benchmark_150.txt",
            ]
            .iter()
            .map(|name| (name.to_string(), load(&data, name)))
            .collect()
        }
    })
}

fn load(dir: &Path, name: &str) -> Set {
    let mut text = String::new();
    for file in [
        name.to_string(),
        format!("{}.part1of2", name),
        format!("{}.part2of2", name),
    ] {
        if let Ok(part) = std::fs::read_to_string(dir.join(file)) {
            text.push_str(&part);
        }
    }
    let lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let grids = lines
        .iter()
        .map(|line| Grid::parse(line).expect("puzzle"))
        .collect();
    Set { lines, grids }
}

fn set_names() -> Vec<String> {
    sets().iter().map(|(name, _)| name.clone()).collect()
}

fn set(name: &str) -> &'static Set {
    &sets().iter().find(|(n, _)| n == name).expect("known set").1
}

#[divan::bench(args = set_names(), sample_count = 5, sample_size = 1)]
fn solve(bencher: Bencher<'_, '_>, name: &str) {
    let set = set(name);
    bencher.counter(ItemsCount::new(set.grids.len())).bench(|| {
        for grid in &set.grids {
            black_box(sudoku_core::solve(black_box(grid)));
        }
    });
}

#[divan::bench(args = set_names(), sample_count = 5, sample_size = 1)]
fn solve_lexmin(bencher: Bencher<'_, '_>, name: &str) {
    let set = set(name);
    bencher.counter(ItemsCount::new(set.grids.len())).bench(|| {
        for grid in &set.grids {
            black_box(sudoku_core::solve_lexmin(black_box(grid)));
        }
    });
}

/// The published `sudoku` crate's first-solution solver, parsing included as ours is not:
/// its parse is a small share of a solve, and it cannot take our `Grid`.
#[divan::bench(args = set_names(), sample_count = 5, sample_size = 1)]
fn peer_sudoku_crate(bencher: Bencher<'_, '_>, name: &str) {
    let set = set(name);
    bencher.counter(ItemsCount::new(set.lines.len())).bench(|| {
        for line in &set.lines {
            let sudoku = sudoku_peer::Sudoku::from_str_line(black_box(line)).expect("puzzle");
            black_box(sudoku.some_solution());
        }
    });
}
