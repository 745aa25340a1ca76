//! Throughput of `solve` and `solve_lexmin` on each public puzzle set, beside the published
//! `sudoku` crate (a bench-only peer). Run with `cargo bench -p sudoku-core`; divan prints
//! puzzles per second (`item/s`) for each set, then a table of ratios measured in interleaved
//! rounds (ours, the crate, lexmin, again and again; the fastest round of each kept), so that a
//! drift in the machine's speed during the run touches all three alike. The ratios are measured
//! twice: on the sets as published, and on every puzzle put through a random symmetry (digit
//! relabelling, row, column, band and stack swaps, transposition; fixed seed), as tdoku's
//! benchmark program does by default, because some sets are stored in a canonical form whose
//! small digits come first, which flatters solvers that try small digits first. Sets come from
//! `../shared/data/puzzles/` when it exists, else from the small fixtures in `tests/data/`.

// Bench code is never submitted to BOJ, so it may use std newer than the crate's rust-version.
#![allow(clippy::incompatible_msrv)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use sudoku_core::Grid;

fn main() {
    divan::main();
    if std::env::args().any(|arg| arg == "--list" || arg == "--test") {
        return;
    }
    print_ratios();
}

/// Rounds of the interleaved ratio measurement; the fastest of each kind is kept.
const ROUNDS: usize = 5;

fn print_ratios() {
    let transformed: Vec<(String, Set)> = sets()
        .iter()
        .map(|(name, set)| (name.clone(), transform(set)))
        .collect();
    for (title, sets) in [
        ("as published", sets()),
        ("each puzzle randomly transformed", &transformed),
    ] {
        println!();
        println!(
            "Sets {}; interleaved, fastest of {} rounds, puzzles per second:",
            title, ROUNDS
        );
        println!();
        print_ratio_table(sets);
    }
}

/// Every puzzle of `set` put through its own random symmetry, from a fixed seed; a small set is
/// repeated (each copy transformed afresh, up to 16 copies or about 10 000 puzzles) so that the
/// luck of one orientation averages out, as tdoku's benchmark does.
fn transform(set: &Set) -> Set {
    let mut rng = sudoku_gen::Rng::new(2239);
    let copies = (10_000 / set.grids.len().max(1)).clamp(1, 16);
    let grids: Vec<Grid> = (0..copies)
        .flat_map(|_| set.grids.iter())
        .map(|grid| sudoku_gen::Transform::random(&mut rng).apply(grid))
        .collect();
    let lines = grids
        .iter()
        .map(|grid| grid.display(sudoku_core::Format::Line).to_string())
        .collect();
    Set { lines, grids }
}

fn print_ratio_table(sets: &[(String, Set)]) {
    println!("| set | puzzles | `solve` | `solve_lexmin` | `sudoku` crate | `solve` ÷ crate | lexmin ÷ `solve` |");
    println!("|---|---|---|---|---|---|---|");
    for (name, set) in sets {
        let (mut ours, mut lexmin, mut peer) = (Duration::MAX, Duration::MAX, Duration::MAX);
        for _ in 0..ROUNDS {
            ours = ours.min(timed(|| run_solve(set)));
            peer = peer.min(timed(|| run_peer(set)));
            lexmin = lexmin.min(timed(|| run_solve_lexmin(set)));
        }
        let rate = |time: Duration| set.grids.len() as f64 / time.as_secs_f64();
        println!(
            "| {} | {} | {:.0} | {:.0} | {:.0} | {:.2} | {:.2} |",
            name,
            set.grids.len(),
            rate(ours),
            rate(lexmin),
            rate(peer),
            rate(ours) / rate(peer),
            rate(lexmin) / rate(ours),
        );
    }
}

fn timed(run: impl FnOnce()) -> Duration {
    let start = Instant::now();
    run();
    start.elapsed()
}

fn run_solve(set: &Set) {
    run_ours(set, sudoku_core::solve);
}

fn run_solve_lexmin(set: &Set) {
    run_ours(set, sudoku_core::solve_lexmin);
}

fn run_ours(set: &Set, solver: impl Fn(&Grid) -> Option<Grid>) {
    for grid in &set.grids {
        black_box(solver(black_box(grid)));
    }
}

/// The published crate's first-solution solver, parsing included as ours is not: its parse is
/// a small share of a solve, and it cannot take our `Grid`.
fn run_peer(set: &Set) {
    for line in &set.lines {
        let sudoku = sudoku_peer::Sudoku::from_str_line(black_box(line)).expect("puzzle");
        black_box(sudoku.some_solution());
    }
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
    bench_set(bencher, name, run_solve);
}

#[divan::bench(args = set_names(), sample_count = 5, sample_size = 1)]
fn solve_lexmin(bencher: Bencher<'_, '_>, name: &str) {
    bench_set(bencher, name, run_solve_lexmin);
}

/// The published `sudoku` crate (see [`run_peer`]).
#[divan::bench(args = set_names(), sample_count = 5, sample_size = 1)]
fn peer_sudoku_crate(bencher: Bencher<'_, '_>, name: &str) {
    bench_set(bencher, name, run_peer);
}

/// Times `run` over the set called `name`, counting its puzzles.
fn bench_set(bencher: Bencher<'_, '_>, name: &str, run: fn(&Set)) {
    let set = set(name);
    bencher
        .counter(ItemsCount::new(set.grids.len()))
        .bench(|| run(set));
}
