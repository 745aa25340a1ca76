//! BOJ 2580's special judge: `boj-2580-checker INPUT ANSWER OUTPUT` accepts (exit 0) when OUTPUT
//! is a valid completion of the puzzle in INPUT, in the spaced format; any solution is right, so
//! ANSWER (the model answer) is not compared.
//!
//! Exit status: 0 accepted, 1 rejected (the reason on stderr), 2 the check could not run
//! (wrong arguments, unreadable files, an INPUT that is not a puzzle).

use std::fs;
use std::io::{self, Write};
use std::process;

use boj_2580::judge;
use sudoku_core::Grid;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() != 3 {
        exit_with(2, "usage: boj-2580-checker INPUT ANSWER OUTPUT");
    }
    let puzzle = match Grid::parse(&read(&args[0])) {
        Ok(puzzle) => puzzle,
        Err(err) => exit_with(2, &format!("{}: not a puzzle: {}", args[0], err)),
    };
    match judge(&puzzle, &read(&args[2])) {
        Ok(()) => exit_with(0, "ok: a valid solution"),
        Err(err) => exit_with(1, &format!("wrong answer: {}", err)),
    }
}

fn read(path: &str) -> String {
    match fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(err) => exit_with(2, &format!("cannot read {}: {}", path, err)),
    }
}

fn exit_with(status: i32, message: &str) -> ! {
    let _ = writeln!(io::stderr(), "{}", message);
    process::exit(status)
}
