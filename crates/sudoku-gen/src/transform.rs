//! The symmetries of Sudoku that keep a puzzle's solution count: digit relabelling, row swaps
//! within a band, column swaps within a stack, band and stack swaps, and transposition.

use sudoku_core::Grid;

use crate::rng::Rng;

/// One symmetry of the Sudoku grid: output cell (r, c) takes input cell
/// (`rows[r]`, `columns[c]`) (of the transposed input when `transpose`), with its digit `d`
/// relabelled to `digits[d - 1]`.
///
/// `rows` and `columns` always keep bands and stacks whole: each is a permutation of the three
/// bands (stacks) combined with a permutation of the rows (columns) inside each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Transform {
    /// The new label of each digit 1–9: a permutation of 1..=9.
    pub digits: [u8; 9],
    /// Which input row each output row comes from.
    pub rows: [u8; 9],
    /// Which input column each output column comes from.
    pub columns: [u8; 9],
    /// Transpose the input first.
    pub transpose: bool,
}

const IDENTITY: [u8; 9] = [0, 1, 2, 3, 4, 5, 6, 7, 8];

impl Transform {
    /// The transform that changes nothing.
    pub const IDENTITY: Transform = Transform {
        digits: [1, 2, 3, 4, 5, 6, 7, 8, 9],
        rows: IDENTITY,
        columns: IDENTITY,
        transpose: false,
    };

    /// A uniformly random symmetry.
    pub fn random(rng: &mut Rng) -> Transform {
        let mut digits = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        rng.shuffle(&mut digits);
        Transform {
            digits,
            rows: random_lines(rng),
            columns: random_lines(rng),
            transpose: rng.below(2) == 1,
        }
    }

    /// The grid transformed.
    pub fn apply(&self, grid: &Grid) -> Grid {
        let input = grid.cells();
        let mut cells = [0u8; 81];
        for (r, &from_row) in self.rows.iter().enumerate() {
            for (c, &from_column) in self.columns.iter().enumerate() {
                let (from_row, from_column) = (usize::from(from_row), usize::from(from_column));
                let digit = if self.transpose {
                    input[from_column * 9 + from_row]
                } else {
                    input[from_row * 9 + from_column]
                };
                cells[r * 9 + c] = if digit == 0 {
                    0
                } else {
                    self.digits[usize::from(digit) - 1]
                };
            }
        }
        Grid::from_cells(cells).expect("digits stay 0-9")
    }

    /// A neighbouring transform: one random small change (swap two digit labels, two rows in a
    /// band, two columns in a stack, two bands, two stacks, or flip the transposition).
    pub fn mutate(&self, rng: &mut Rng) -> Transform {
        let mut next = *self;
        match rng.below(12) {
            0..=4 => {
                let (a, b) = two_distinct(rng, 9);
                next.digits.swap(a, b);
            }
            5 | 6 => swap_in_group(&mut next.rows, rng),
            7 | 8 => swap_in_group(&mut next.columns, rng),
            9 => swap_groups(&mut next.rows, rng),
            10 => swap_groups(&mut next.columns, rng),
            _ => next.transpose = !next.transpose,
        }
        next
    }

    /// This transform with its digits relabelled so that, reading `solution` (the puzzle's
    /// solution, already transformed by `self`) row by row, the blanks of `puzzle` (also
    /// transformed) meet the largest labels first: the naive search then tries every smaller
    /// digit before the right one as often as possible.
    pub fn with_greedy_digits(&self, puzzle: &Grid, solution: &Grid) -> Transform {
        let (puzzle, solution) = (self.apply(puzzle), self.apply(solution));
        // relabel[d] is the new label for the digit d as it appears after `self`.
        let mut relabel = [0u8; 10];
        let mut next_label = 9u8;
        let blanks_first = puzzle
            .cells()
            .iter()
            .zip(solution.cells())
            .filter(|(&given, _)| given == 0)
            .chain(puzzle.cells().iter().zip(solution.cells()));
        for (_, &digit) in blanks_first {
            let digit = usize::from(digit);
            if relabel[digit] == 0 {
                relabel[digit] = next_label;
                next_label -= 1;
                if next_label == 0 {
                    break;
                }
            }
        }
        let mut next = *self;
        for label in next.digits.iter_mut() {
            *label = relabel[usize::from(*label)];
        }
        next
    }
}

/// A permutation of 0..9 that keeps groups of three whole.
fn random_lines(rng: &mut Rng) -> [u8; 9] {
    let mut groups = [0u8, 1, 2];
    rng.shuffle(&mut groups);
    let mut lines = [0u8; 9];
    for (slot, &group) in groups.iter().enumerate() {
        let mut inner = [0u8, 1, 2];
        rng.shuffle(&mut inner);
        for (k, &line) in inner.iter().enumerate() {
            lines[slot * 3 + k] = group * 3 + line;
        }
    }
    lines
}

fn two_distinct(rng: &mut Rng, n: usize) -> (usize, usize) {
    let a = rng.below(n);
    let b = (a + 1 + rng.below(n - 1)) % n;
    (a, b)
}

fn swap_in_group(lines: &mut [u8; 9], rng: &mut Rng) {
    let group = rng.below(3);
    let (a, b) = two_distinct(rng, 3);
    lines.swap(group * 3 + a, group * 3 + b);
}

fn swap_groups(lines: &mut [u8; 9], rng: &mut Rng) {
    let (a, b) = two_distinct(rng, 3);
    for k in 0..3 {
        lines.swap(a * 3 + k, b * 3 + k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_groups_whole() {
        let mut rng = Rng::new(5);
        for _ in 0..100 {
            let t = Transform::random(&mut rng)
                .mutate(&mut rng)
                .mutate(&mut rng);
            for lines in [t.rows, t.columns] {
                for group in lines.chunks(3) {
                    assert!(group.iter().all(|&l| l / 3 == group[0] / 3), "{lines:?}");
                }
                let mut sorted = lines;
                sorted.sort_unstable();
                assert_eq!(sorted, IDENTITY);
            }
            let mut digits = t.digits;
            digits.sort_unstable();
            assert_eq!(digits, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
        }
    }
}
