//! BOJ 2239's reference for `cargo xtask stress`: the smallest solution found the plainest way
//! that no board defeats, sharing no code with sudoku-core, so stress compares two independent
//! solvers.
//!
//! The smallest solution is decided digit by digit: each blank, in row-major order, takes the
//! smallest digit with which the board can still be completed. Whether it can is asked of a
//! separate backtracker that always branches on the most constrained choice (a blank with the
//! fewest digits, or a digit with the fewest places in a unit, as Knuth's Algorithm X chooses),
//! which no row-major-hard board slows down, as it does the row-major backtracker a reference
//! would first think of (15 to 26 s on some generated boards). The last
//! completion found (the witness) agrees with every digit fixed so far, so its own digit needs
//! no question: only the smaller ones are asked about, at most 8 questions a cell.
//!
//! Reads nine rows of digits (0 = blank) on stdin; prints the solution in the same form, or
//! exits 1 saying why there is none.

use std::io::{self, Read, Write};
use std::process;

/// Bit `d` set: digit `d` is used in that row, column or box.
#[derive(Clone, Copy)]
struct Units {
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
}

/// Digits 1 to 9 as bits 1 to 9.
const ALL_DIGITS: u16 = 0b11_1111_1110;

impl Units {
    fn flip(&mut self, cell: usize, digit: u8) {
        let (r, c) = (cell / 9, cell % 9);
        let bit = 1 << digit;
        self.rows[r] ^= bit;
        self.cols[c] ^= bit;
        self.boxes[r / 3 * 3 + c / 3] ^= bit;
    }

    /// The digits `cell` may still take, as bits.
    fn allowed(&self, cell: usize) -> u16 {
        let (r, c) = (cell / 9, cell % 9);
        !(self.rows[r] | self.cols[c] | self.boxes[r / 3 * 3 + c / 3]) & ALL_DIGITS
    }

    fn allows(&self, cell: usize, digit: u8) -> bool {
        self.allowed(cell) & (1 << digit) != 0
    }
}

/// The `k`-th cell (0 to 8) of unit `unit`: rows 0 to 8, columns 9 to 17, boxes 18 to 26.
fn unit_cell(unit: usize, k: usize) -> usize {
    match unit {
        0..=8 => unit * 9 + k,
        9..=17 => k * 9 + (unit - 9),
        _ => {
            let b = unit - 18;
            (b / 3 * 3 + k / 3) * 9 + b % 3 * 3 + k % 3
        }
    }
}

/// The digits unit `unit` already holds, as bits.
fn unit_digits(units: &Units, unit: usize) -> u16 {
    match unit {
        0..=8 => units.rows[unit],
        9..=17 => units.cols[unit - 9],
        _ => units.boxes[unit - 18],
    }
}

/// Some completion of the board, or `None` when there is none: depth first, always branching
/// on the most constrained choice left, as Knuth's Algorithm X does on Sudoku's exact cover: a
/// blank with the fewest digits, or a digit with the fewest places in a row, column or box
/// that lacks it. A choice with no option ends the branch at once.
fn complete(cells: &mut [u8; 81], units: &mut Units) -> Option<[u8; 81]> {
    // (options, cell) of the blank with the fewest digits.
    let mut fewest: Option<(u32, usize)> = None;
    for (cell, &digit) in cells.iter().enumerate() {
        if digit == 0 {
            let options = units.allowed(cell).count_ones();
            if fewest.map_or(true, |(least, _)| options < least) {
                fewest = Some((options, cell));
            }
        }
    }
    let (least, cell) = match fewest {
        None => return Some(*cells),
        Some(found) => found,
    };
    if least == 0 {
        return None;
    }
    // A digit a unit lacks, with fewer places than that blank has digits.
    let mut place: Option<(u32, usize, u8)> = None;
    if least > 1 {
        for unit in 0..27 {
            let held = unit_digits(units, unit);
            for digit in 1..=9u8 {
                if held & (1 << digit) != 0 {
                    continue;
                }
                let places = (0..9)
                    .map(|k| unit_cell(unit, k))
                    .filter(|&c| cells[c] == 0 && units.allows(c, digit))
                    .count() as u32;
                let best = place.map_or(least, |(fewer, _, _)| fewer);
                if places < best {
                    place = Some((places, unit, digit));
                }
            }
        }
    }
    // The options of the choice: (cell, digit) pairs.
    let options: Vec<(usize, u8)> = match place {
        Some((0, _, _)) => return None,
        Some((_, unit, digit)) => (0..9)
            .map(|k| unit_cell(unit, k))
            .filter(|&c| cells[c] == 0 && units.allows(c, digit))
            .map(|c| (c, digit))
            .collect(),
        None => (1..=9u8)
            .filter(|&digit| units.allows(cell, digit))
            .map(|digit| (cell, digit))
            .collect(),
    };
    for (cell, digit) in options {
        cells[cell] = digit;
        units.flip(cell, digit);
        let found = complete(cells, units);
        units.flip(cell, digit);
        cells[cell] = 0;
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The lexicographically smallest completion of the board, or `None` when there is none.
fn smallest(mut cells: [u8; 81], mut units: Units) -> Option<[u8; 81]> {
    let mut witness = complete(&mut cells, &mut units)?;
    for cell in 0..81 {
        if cells[cell] != 0 {
            continue;
        }
        // Every digit fixed so far agrees with the witness, so its digit here completes; a
        // smaller one is taken when the board can still be completed with it.
        for digit in 1..witness[cell] {
            if !units.allows(cell, digit) {
                continue;
            }
            cells[cell] = digit;
            units.flip(cell, digit);
            let completion = complete(&mut cells, &mut units);
            units.flip(cell, digit);
            cells[cell] = 0;
            if let Some(completion) = completion {
                witness = completion;
                break;
            }
        }
        cells[cell] = witness[cell];
        units.flip(cell, witness[cell]);
    }
    Some(cells)
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
    let solution = match smallest(cells, units) {
        Some(solution) => solution,
        None => fail("the puzzle has no solution"),
    };
    let mut out = String::with_capacity(90);
    for row in solution.chunks(9) {
        for &digit in row {
            out.push(char::from(b'0' + digit));
        }
        out.push('\n');
    }
    let _ = io::stdout().write_all(out.as_bytes());
}
