//! BOJ 2239's reference for `cargo xtask stress`: the smallest solution found the plainest way,
//! sharing no code with sudoku-core, so stress compares two independent solvers.
//!
//! A recursive backtracker over the cells in row-major order, trying digits 1 to 9: the first
//! solution it meets is the lexicographically smallest. Reads nine rows of digits (0 = blank)
//! on stdin; prints the solution in the same form, or exits 1 saying why there is none.

use std::io::{self, Read, Write};
use std::process;

/// Bit `d` set: digit `d` is used in that row, column or box.
struct Units {
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
}

impl Units {
    fn flip(&mut self, cell: usize, digit: u8) {
        let (r, c) = (cell / 9, cell % 9);
        let bit = 1 << digit;
        self.rows[r] ^= bit;
        self.cols[c] ^= bit;
        self.boxes[r / 3 * 3 + c / 3] ^= bit;
    }

    fn allows(&self, cell: usize, digit: u8) -> bool {
        let (r, c) = (cell / 9, cell % 9);
        let used = self.rows[r] | self.cols[c] | self.boxes[r / 3 * 3 + c / 3];
        used & (1 << digit) == 0
    }
}

/// Fills the blanks from `cell` on; true when the whole grid is filled.
fn fill(cells: &mut [u8; 81], units: &mut Units, cell: usize) -> bool {
    if cell == 81 {
        return true;
    }
    if cells[cell] != 0 {
        return fill(cells, units, cell + 1);
    }
    for digit in 1..=9 {
        if units.allows(cell, digit) {
            cells[cell] = digit;
            units.flip(cell, digit);
            if fill(cells, units, cell + 1) {
                return true;
            }
            units.flip(cell, digit);
            cells[cell] = 0;
        }
    }
    false
}

fn fail(message: &str) -> ! {
    eprintln!("boj-2239-brute: {}", message);
    process::exit(1)
}

fn main() {
    let mut input = String::new();
    if io::stdin().read_to_string(&mut input).is_err() {
        fail("cannot read standard input");
    }
    let digits: Vec<u8> = input
        .bytes()
        .filter(|b| !b.is_ascii_whitespace())
        .map(|b| match b {
            b'0'..=b'9' => b - b'0',
            b'.' => 0,
            _ => fail("expected digits 0-9"),
        })
        .collect();
    if digits.len() != 81 {
        fail("expected 81 cells");
    }
    let mut cells = [0u8; 81];
    cells.copy_from_slice(&digits);
    let mut units = Units {
        rows: [0; 9],
        cols: [0; 9],
        boxes: [0; 9],
    };
    for (cell, &digit) in cells.iter().enumerate() {
        if digit != 0 {
            if !units.allows(cell, digit) {
                fail("two givens clash");
            }
            units.flip(cell, digit);
        }
    }
    if !fill(&mut cells, &mut units, 0) {
        fail("the puzzle has no solution");
    }
    let mut out = String::with_capacity(90);
    for row in cells.chunks(9) {
        for &digit in row {
            out.push(char::from(b'0' + digit));
        }
        out.push('\n');
    }
    let _ = io::stdout().write_all(out.as_bytes());
}
