//! BOJ 2239 "스도쿠": reads a Sudoku as nine rows of digits (0 = blank) and prints its
//! lexicographically smallest solution in the same form.
//!
//! Bad input or an unsolvable puzzle: one line on stderr, nothing on stdout, exit status 1.

use std::io::{self, Read, Write};
use std::process;

use sudoku_core::{solve_lexmin, Format, Grid};

fn main() {
    let mut input = Vec::new();
    if let Err(err) = io::stdin().read_to_end(&mut input) {
        fail(&format!("cannot read standard input: {}", err));
    }
    let puzzle = match Grid::parse(&String::from_utf8_lossy(&input)) {
        Ok(puzzle) => puzzle,
        Err(err) => fail(&err.to_string()),
    };
    let solution = match solve_lexmin(&puzzle) {
        Some(solution) => solution,
        None => fail("the puzzle has no solution"),
    };
    let output = format!("{}\n", solution.display(Format::Rows));
    // A closed pipe (e.g. `| head`) is not an error worth reporting.
    let _ = io::stdout().write_all(output.as_bytes());
}

fn fail(message: &str) -> ! {
    let _ = writeln!(io::stderr(), "boj-2239: error: {}", message);
    process::exit(1)
}
