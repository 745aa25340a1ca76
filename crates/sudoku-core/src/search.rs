//! The solver: candidate bitmasks, propagation of naked and hidden singles, and depth-first
//! search that branches on the fewest-candidates cell (any solution, counting) or on the first
//! undecided cell in row-major order (the lexicographically smallest solution).

use crate::grid::Grid;

/// Every digit, as a candidate mask (bit `d - 1` for digit `d`).
const ALL: u16 = 0x1ff;

/// The cells of each unit: rows 0–8, columns 9–17, boxes 18–26.
static UNITS: [[u8; 9]; 27] = build_units();

/// The 20 peers of each cell: the other cells of its row, column and box.
static PEERS: [[u8; 20]; 81] = build_peers();

const fn build_units() -> [[u8; 9]; 27] {
    let mut units = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            units[i][j] = (i * 9 + j) as u8;
            units[9 + i][j] = (j * 9 + i) as u8;
            units[18 + i][j] = ((i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3) as u8;
            j += 1;
        }
        i += 1;
    }
    units
}

const fn build_peers() -> [[u8; 20]; 81] {
    let mut peers = [[0u8; 20]; 81];
    let mut cell = 0;
    while cell < 81 {
        let (row, column) = (cell / 9, cell % 9);
        let mut count = 0;
        let mut other = 0;
        while other < 81 {
            let (r, c) = (other / 9, other % 9);
            let same_box = r / 3 == row / 3 && c / 3 == column / 3;
            if other != cell && (r == row || c == column || same_box) {
                peers[cell][count] = other as u8;
                count += 1;
            }
            other += 1;
        }
        cell += 1;
    }
    peers
}

/// A search node: what is still possible in each cell.
///
/// Invariant: a cell whose bit is clear in `unsolved` holds exactly one candidate, and that digit
/// has been removed from all its peers. Every candidate removed so far is one that no solution
/// of the puzzle (with the branch choices leading here) can use, so propagation never loses a
/// solution.
#[derive(Clone, Copy)]
struct Board {
    /// Candidate digits of each cell, row-major; bit `d - 1` for digit `d`.
    candidates: [u16; 81],
    /// Bit `i` set while cell `i` is not yet placed.
    unsolved: u128,
}

/// Which cell the search branches on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Branching {
    /// The undecided cell with the fewest candidates: the smallest trees.
    FewestCandidates,
    /// The first undecided cell in row-major order, smallest digit first: solutions are met in
    /// increasing lexicographic order.
    RowMajor,
}

impl Board {
    /// The puzzle's givens placed and propagated; `None` when they contradict each other.
    fn new(puzzle: &Grid) -> Option<Board> {
        let mut board = Board {
            candidates: [ALL; 81],
            unsolved: (1u128 << 81) - 1,
        };
        for (cell, &digit) in puzzle.cells().iter().enumerate() {
            if digit == 0 {
                continue;
            }
            let bit = 1 << (digit - 1);
            if board.candidates[cell] & bit == 0 {
                return None;
            }
            if board.is_unsolved(cell) && !board.place(cell, bit) {
                return None;
            }
        }
        Some(board)
    }

    fn is_unsolved(&self, cell: usize) -> bool {
        self.unsolved >> cell & 1 != 0
    }

    /// Places the digit `bit` in `cell` and, transitively, every naked single this creates.
    /// Returns false on a contradiction (a cell left without candidates).
    fn place(&mut self, cell: usize, bit: u16) -> bool {
        // Each cell is pushed at most once: when it is placed, or when it drops to one candidate.
        let mut stack = [0u8; 81];
        let mut len = 1;
        stack[0] = cell as u8;
        self.candidates[cell] = bit;
        while len > 0 {
            len -= 1;
            let cell = stack[len] as usize;
            let bit = self.candidates[cell];
            self.unsolved &= !(1u128 << cell);
            for &peer in PEERS[cell].iter() {
                let peer = peer as usize;
                let mask = self.candidates[peer];
                if mask & bit != 0 {
                    if mask == bit {
                        return false;
                    }
                    let rest = mask & !bit;
                    self.candidates[peer] = rest;
                    if rest & (rest - 1) == 0 {
                        stack[len] = peer as u8;
                        len += 1;
                    }
                }
            }
        }
        true
    }

    /// One pass of hidden singles over every unit: a digit with one possible cell in a unit goes
    /// there. `None` on a contradiction (a digit with no cell), else whether anything was placed.
    fn hidden_singles(&mut self) -> Option<bool> {
        let mut changed = false;
        for unit in UNITS.iter() {
            let (mut once, mut twice, mut placed) = (0u16, 0u16, 0u16);
            for &cell in unit.iter() {
                let mask = self.candidates[cell as usize];
                twice |= once & mask;
                once |= mask;
                if !self.is_unsolved(cell as usize) {
                    placed |= mask;
                }
            }
            if once != ALL {
                return None;
            }
            let mut hidden = once & !twice & !placed;
            while hidden != 0 {
                let bit = hidden & hidden.wrapping_neg();
                hidden ^= bit;
                let cell = unit
                    .iter()
                    .map(|&cell| cell as usize)
                    .find(|&cell| self.candidates[cell] & bit != 0)?;
                if self.is_unsolved(cell) && !self.place(cell, bit) {
                    return None;
                }
                changed = true;
            }
        }
        Some(changed)
    }

    /// Hidden singles until nothing changes (naked singles are placed as they appear).
    /// Returns false on a contradiction.
    fn propagate(&mut self) -> bool {
        loop {
            match self.hidden_singles() {
                None => return false,
                Some(false) => return true,
                Some(true) => {}
            }
        }
    }

    /// The cell to branch on; the board must have an unsolved cell.
    fn branch_cell(&self, branching: Branching) -> usize {
        if branching == Branching::RowMajor {
            return self.unsolved.trailing_zeros() as usize;
        }
        let (mut best_cell, mut best_count) = (0, u32::MAX);
        let mut rest = self.unsolved;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let count = self.candidates[cell].count_ones();
            if count < best_count {
                best_cell = cell;
                best_count = count;
                if count == 2 {
                    break;
                }
            }
        }
        best_cell
    }

    fn to_grid(self) -> Grid {
        let mut cells = [0u8; 81];
        for (digit, &mask) in cells.iter_mut().zip(self.candidates.iter()) {
            *digit = mask.trailing_zeros() as u8 + 1;
        }
        Grid::from_cells(cells).expect("a solved board holds digits 1-9")
    }
}

/// Depth-first search from `board`, calling `on_solution` on each solution in the order the
/// branching meets them until it returns true. Returns true when it was stopped that way.
fn search<F: FnMut(&Board) -> bool>(
    mut board: Board,
    branching: Branching,
    on_solution: &mut F,
) -> bool {
    if !board.propagate() {
        return false;
    }
    if board.unsolved == 0 {
        return on_solution(&board);
    }
    let cell = board.branch_cell(branching);
    let mut digits = board.candidates[cell];
    while digits != 0 {
        let bit = digits & digits.wrapping_neg();
        digits ^= bit;
        let mut child = board;
        if child.place(cell, bit) && search(child, branching, on_solution) {
            return true;
        }
    }
    false
}

fn first_solution(puzzle: &Grid, branching: Branching) -> Option<Grid> {
    let mut found = None;
    search(Board::new(puzzle)?, branching, &mut |board: &Board| {
        found = Some(board.to_grid());
        true
    });
    found
}

/// Some solution of `puzzle`, or `None` when it has none (givens that clash included).
///
/// # Complexity
/// Exponential in the worst case, as Sudoku is NP-complete in general; on 9x9 puzzles the
/// propagation and fewest-candidates branching keep the search to a few hundred nodes at most on
/// the hardest public sets (see the README's figures).
///
/// ```
/// use sudoku_core::{check_solution, solve, Grid};
/// let puzzle = Grid::EMPTY;
/// let solution = solve(&puzzle).expect("the empty grid has solutions");
/// assert_eq!(check_solution(&puzzle, &solution), Ok(()));
/// ```
pub fn solve(puzzle: &Grid) -> Option<Grid> {
    first_solution(puzzle, Branching::FewestCandidates)
}

/// The lexicographically smallest solution of `puzzle` (the smallest 81-digit number read
/// row by row), or `None` when it has none.
///
/// Propagation removes only candidates that belong to no solution, so every solution below a
/// node agrees on the cells already decided; branching on the first undecided cell in row-major
/// order, smallest digit first, therefore meets solutions in increasing order, and the first one
/// met is the smallest.
///
/// ```
/// use sudoku_core::{solve_lexmin, Format, Grid};
/// let smallest = solve_lexmin(&Grid::EMPTY).unwrap();
/// assert!(smallest.display(Format::Rows).to_string().starts_with("123456789\n456789123\n"));
/// ```
pub fn solve_lexmin(puzzle: &Grid) -> Option<Grid> {
    first_solution(puzzle, Branching::RowMajor)
}

/// The number of solutions of `puzzle`, counting stopped at `limit`: the result is
/// `min(solutions, limit)`. `count_solutions(p, 2) == 1` says the solution is unique.
///
/// ```
/// use sudoku_core::{count_solutions, Grid};
/// assert_eq!(count_solutions(&Grid::EMPTY, 1000), 1000);
/// ```
pub fn count_solutions(puzzle: &Grid, limit: u64) -> u64 {
    let mut count = 0;
    if limit == 0 {
        return 0;
    }
    if let Some(board) = Board::new(puzzle) {
        search(board, Branching::FewestCandidates, &mut |_: &Board| {
            count += 1;
            count >= limit
        });
    }
    count
}
