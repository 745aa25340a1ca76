//! BOJ 2239's input generator for `cargo xtask stress`: `boj-2239-gen SEED SIZE` prints one
//! puzzle as nine rows of digits (0 = blank). The kind and what SIZE means are
//! `sudoku_gen::stress_case`'s: unique, many-solution or anti-backtracking by SEED, more to
//! solve as SIZE grows.

use std::io::Write;
use std::process;

use sudoku_core::Format;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let numbers: Vec<u64> = args.iter().filter_map(|a| a.parse().ok()).collect();
    if args.len() != 2 || numbers.len() != 2 {
        eprintln!("usage: boj-2239-gen SEED SIZE");
        process::exit(2);
    }
    let puzzle = sudoku_gen::stress_case(numbers[0], numbers[1]);
    let text = format!("{}\n", puzzle.grid.display(Format::Rows));
    let _ = std::io::stdout().write_all(text.as_bytes());
}
