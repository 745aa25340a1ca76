//! An independent reference solver, written plainly and sharing no code with the crate: digits
//! used in each row, column and box kept as masks, fewest-options-first backtracking without any
//! other deduction, and the lexicographically smallest solution found cell by cell ("the smallest
//! digit that still leaves the puzzle solvable").

/// Cells row-major, 0 for a blank.
pub type Cells = [u8; 81];

/// Digits used so far in each row, column and box (bit `d` for digit `d`).
struct Used {
    rows: [u16; 9],
    columns: [u16; 9],
    boxes: [u16; 9],
}

fn box_of(cell: usize) -> usize {
    cell / 27 * 3 + cell % 9 / 3
}

impl Used {
    /// `None` when a given repeats.
    fn new(cells: &Cells) -> Option<Used> {
        let mut used = Used {
            rows: [0; 9],
            columns: [0; 9],
            boxes: [0; 9],
        };
        for (cell, &digit) in cells.iter().enumerate() {
            if digit != 0 {
                if used.free(cell) & (1 << digit) == 0 {
                    return None;
                }
                used.flip(cell, digit);
            }
        }
        Some(used)
    }

    /// Digits that can go in `cell` (bits 1-9).
    fn free(&self, cell: usize) -> u16 {
        !(self.rows[cell / 9] | self.columns[cell % 9] | self.boxes[box_of(cell)]) & 0x3fe
    }

    /// Marks `digit` used (or unused again) in the units of `cell`.
    fn flip(&mut self, cell: usize, digit: u8) {
        self.rows[cell / 9] ^= 1 << digit;
        self.columns[cell % 9] ^= 1 << digit;
        self.boxes[box_of(cell)] ^= 1 << digit;
    }
}

/// Whether no given repeats in a row, column or box.
pub fn givens_consistent(cells: &Cells) -> bool {
    Used::new(cells).is_some()
}

/// Calls `visit` with each solution until it returns true; returns whether it did.
fn backtrack(cells: &mut Cells, used: &mut Used, visit: &mut dyn FnMut(&Cells) -> bool) -> bool {
    let mut best: Option<(usize, u16)> = None;
    for cell in (0..81).filter(|&c| cells[c] == 0) {
        let free = used.free(cell);
        let better = match best {
            None => true,
            Some((_, b)) => free.count_ones() < b.count_ones(),
        };
        if better {
            best = Some((cell, free));
            if free.count_ones() <= 1 {
                break;
            }
        }
    }
    let (cell, free) = match best {
        None => return visit(cells),
        Some(best) => best,
    };
    for digit in 1..=9u8 {
        if free & (1 << digit) == 0 {
            continue;
        }
        cells[cell] = digit;
        used.flip(cell, digit);
        let stop = backtrack(cells, used, visit);
        used.flip(cell, digit);
        cells[cell] = 0;
        if stop {
            return true;
        }
    }
    false
}

fn search(puzzle: &Cells, visit: &mut dyn FnMut(&Cells) -> bool) {
    if let Some(mut used) = Used::new(puzzle) {
        backtrack(&mut puzzle.clone(), &mut used, visit);
    }
}

/// Some solution, or `None`.
pub fn solve(puzzle: &Cells) -> Option<Cells> {
    let mut found = None;
    search(puzzle, &mut |solution| {
        found = Some(*solution);
        true
    });
    found
}

/// The number of solutions, stopped at `limit`.
pub fn count(puzzle: &Cells, limit: u64) -> u64 {
    let mut n = 0;
    search(puzzle, &mut |_| {
        n += 1;
        n >= limit
    });
    n
}

/// The lexicographically smallest solution: each blank cell in row-major order gets the smallest
/// digit that still leaves the puzzle solvable. A solution already found for the current prefix
/// is a witness: digits at or above its digit need no test; and the only solution of a puzzle
/// with one is its smallest.
pub fn lexmin(puzzle: &Cells) -> Option<Cells> {
    let mut witness = solve(puzzle)?;
    if count(puzzle, 2) == 1 {
        return Some(witness);
    }
    let mut cells = *puzzle;
    for cell in 0..81 {
        if cells[cell] != 0 {
            continue;
        }
        for digit in 1..witness[cell] {
            cells[cell] = digit;
            if let Some(solution) = solve(&cells) {
                witness = solution;
                break;
            }
        }
        cells[cell] = witness[cell];
    }
    Some(cells)
}
