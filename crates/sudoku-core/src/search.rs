//! The solver: per-digit band bitboards, propagation (naked and hidden singles, locked
//! candidates between boxes and rows and between boxes and columns), and depth-first search that branches on a two-candidate
//! cell (any solution, counting) or on the first undecided cell in row-major order (the
//! lexicographically smallest solution).

use crate::grid::Grid;

/// The 27 cells of a band (three rows), one bit each.
const BAND: u32 = 0x7ff_ffff;
/// Column 0 of a band (bits 0, 9, 18); shift left by the column.
const COLUMN: u32 = 0x4_0201;
/// Box 0 of a band (columns 0-2 of its three rows); shift left by 3 × the box.
const BOX: u32 = 0x1c_0e07;

/// For each cell of a band, the other cells of the band in its row, column or box.
static PEERS_IN_BAND: [u32; 27] = build_peers_in_band();

const fn build_peers_in_band() -> [u32; 27] {
    let mut table = [0u32; 27];
    let mut index = 0;
    while index < 27 {
        let (row, column) = (index / 9, index % 9);
        let peers = (0x1ff << (9 * row)) | (BOX << (column / 3 * 3)) | (COLUMN << column);
        table[index] = peers & !(1 << index);
        index += 1;
    }
    table
}

/// For the nine cells of one row of a band: which of its three box segments (minirows) still
/// have a candidate, as bits 0-2.
static MINIROWS: [u8; 512] = build_minirows();

/// For a 3x3 pattern of non-empty minirows (bit `3 × row + box`), the minirows that lie on some
/// placement of the digit in this band: each row of the band takes the digit in exactly one box
/// and each box in exactly one row, so only minirows on a permutation survive. Zero when no
/// permutation fits: a contradiction.
static PERMUTABLE: [u16; 512] = build_permutable();

/// A 9-bit minirow pattern widened to the 27 cells it covers.
static MINIROW_CELLS: [u32; 512] = build_minirow_cells();

const fn build_minirows() -> [u8; 512] {
    let mut table = [0u8; 512];
    let mut row = 0;
    while row < 512 {
        let mut segment = 0;
        while segment < 3 {
            if row >> (3 * segment) & 7 != 0 {
                table[row] |= 1 << segment;
            }
            segment += 1;
        }
        row += 1;
    }
    table
}

const fn build_permutable() -> [u16; 512] {
    // The six ways to give each of three rows a different box.
    const PERMUTATIONS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut table = [0u16; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let mut p = 0;
        while p < 6 {
            let boxes = PERMUTATIONS[p];
            let cells: usize = (1 << boxes[0]) | (1 << (3 + boxes[1])) | (1 << (6 + boxes[2]));
            if pattern & cells == cells {
                table[pattern] |= cells as u16;
            }
            p += 1;
        }
        pattern += 1;
    }
    table
}

const fn build_minirow_cells() -> [u32; 512] {
    let mut table = [0u32; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let mut minirow = 0;
        while minirow < 9 {
            if pattern >> minirow & 1 != 0 {
                table[pattern] |= 7 << (minirow / 3 * 9 + minirow % 3 * 3);
            }
            minirow += 1;
        }
        pattern += 1;
    }
    table
}

/// A search node.
///
/// Data layout: `candidates[9 × band + digit]` (see [`slot`]) holds the cells of band `band` (rows
/// `3 × band` to `3 × band + 2`) where `digit` (0-8) may still go, bit `9 × row_in_band + column`.
/// So bit `i` of band `b` is the cell with row-major index `27 × b + i`.
///
/// Invariant: every candidate removed is one that no solution below this node uses; a placed
/// cell (bit clear in `unsolved`) has exactly one candidate digit, removed from all its peers.
#[derive(Clone, Copy)]
struct Board {
    candidates: [u32; 27],
    /// Bit `slot` set when `candidates[slot]` changed since its band logic last ran.
    dirty: u32,
    /// Cells not yet placed, per band.
    unsolved: [u32; 3],
}

/// Where a digit's candidates in a band are kept: the nine digits of a band side by side.
#[inline(always)]
fn slot(digit: usize, band: usize) -> usize {
    9 * band + digit
}

/// Which cell the search branches on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Branching {
    /// A cell with two candidates when there is one (else the fewest): the smallest trees.
    FewestCandidates,
    /// The first undecided cell in row-major order, smallest digit first: solutions are met in
    /// increasing lexicographic order.
    RowMajor,
}

impl Board {
    /// The puzzle's givens placed; `None` when two of them clash.
    fn new(puzzle: &Grid) -> Option<Board> {
        let mut board = Board {
            candidates: [BAND; 27],
            dirty: BAND,
            unsolved: [BAND; 3],
        };
        for (index, &digit) in puzzle.cells().iter().enumerate() {
            if digit == 0 {
                continue;
            }
            let (digit, band, cell) = (digit as usize - 1, index / 27, 1 << (index % 27));
            if board.candidates[slot(digit, band)] & cell == 0 {
                return None;
            }
            board.place(digit, band, cell);
        }
        Some(board)
    }

    /// Puts `digit` in the cell `cell` (one bit) of `band`, which must be one of its candidates,
    /// and removes it from the cell's peers and the cell's other candidates.
    fn place(&mut self, digit: usize, band: usize, cell: u32) {
        let index = cell.trailing_zeros() as usize;
        let column = COLUMN << (index % 9);
        // The band's nine digit slots are contiguous: one pass clears the cell from all of them
        // (the compiler vectorises the clearing) and notes which slots had it.
        let slots = &mut self.candidates[9 * band..9 * band + 9];
        let mut changed = 0;
        for (other, cells) in slots.iter_mut().enumerate() {
            changed |= (*cells & cell != 0) as u32 * (1 << other);
            *cells &= !cell;
        }
        slots[digit] |= cell;
        self.dirty |= (changed & !(1 << digit)) << (9 * band);
        self.eliminate(slot(digit, band), PEERS_IN_BAND[index]);
        self.eliminate(slot(digit, (band + 1) % 3), column);
        self.eliminate(slot(digit, (band + 2) % 3), column);
        self.unsolved[band] &= !cell;
    }

    /// Removes `cells` from the candidates in `slot`, marking it for propagation if that changed
    /// anything.
    #[inline(always)]
    fn eliminate(&mut self, slot: usize, cells: u32) {
        let old = self.candidates[slot];
        let new = old & !cells;
        self.candidates[slot] = new;
        self.dirty |= ((old != new) as u32) << slot;
    }

    /// Locked candidates and hidden singles in rows for one digit in one band. False on a
    /// contradiction.
    fn update_band(&mut self, slot: usize) -> bool {
        let (digit, band) = (slot % 9, slot / 9);
        let cells = self.candidates[slot];
        let pattern = MINIROWS[(cells & 0x1ff) as usize] as usize
            | (MINIROWS[(cells >> 9 & 0x1ff) as usize] as usize) << 3
            | (MINIROWS[(cells >> 18 & 0x1ff) as usize] as usize) << 6;
        let keep = PERMUTABLE[pattern & 0x1ff];
        if keep == 0 {
            return false;
        }
        self.candidates[slot] = cells & MINIROW_CELLS[(keep & 0x1ff) as usize];
        // A row of the band with one cell left for the digit: a hidden single.
        for row in 0..3 {
            let in_row = self.candidates[slot] & (0x1ff << (9 * row));
            if in_row != 0 && in_row & (in_row - 1) == 0 && in_row & self.unsolved[band] != 0 {
                self.place(digit, band, in_row);
            }
        }
        true
    }

    /// Naked singles, hidden singles in columns, and the checks that every cell keeps a candidate
    /// and every digit a cell in every column. `None` on a contradiction, else whether anything
    /// was placed.
    /// Only bands and digits with a slot in `touched` (changed since the last call) can hold
    /// new singles, so only they are scanned.
    fn singles(&mut self, touched: u32) -> Option<bool> {
        let mut placed = false;
        for band in 0..3 {
            let unsolved = self.unsolved[band];
            if unsolved == 0 || touched >> (9 * band) & 0x1ff == 0 {
                continue;
            }
            let (mut once, mut twice) = (0, 0);
            for digit in 0..9 {
                let cells = self.candidates[slot(digit, band)];
                twice |= once & cells;
                once |= cells;
            }
            if unsolved & !once != 0 {
                return None;
            }
            let mut singles = unsolved & !twice;
            while singles != 0 {
                let cell = singles & singles.wrapping_neg();
                singles ^= cell;
                let digit = (0..9).find(|&d| self.candidates[slot(d, band)] & cell != 0)?;
                self.place(digit, band, cell);
                placed = true;
            }
        }
        for digit in 0..9 {
            if touched & (COLUMN << digit) == 0 {
                continue;
            }
            if !self.lock_stacks(digit) {
                return None;
            }
            // Per band, the columns holding the digit once or more, twice or more, and placed.
            let (mut once, mut twice, mut placed_columns) = (0u32, 0u32, 0u32);
            for band in 0..3 {
                let cells = self.candidates[slot(digit, band)];
                let (a, b, c) = (cells & 0x1ff, cells >> 9 & 0x1ff, cells >> 18);
                twice |= (a & b) | (a & c) | (b & c) | (once & (a | b | c));
                once |= a | b | c;
                let placed = cells & !self.unsolved[band];
                placed_columns |= (placed | placed >> 9 | placed >> 18) & 0x1ff;
            }
            if once != 0x1ff {
                return None;
            }
            let mut lone = once & !twice & !placed_columns;
            while lone != 0 {
                let column = lone.trailing_zeros();
                lone &= lone - 1;
                for band in 0..3 {
                    let cell = self.candidates[slot(digit, band)] & (COLUMN << column);
                    if cell != 0 {
                        self.place(digit, band, cell);
                        placed = true;
                        break;
                    }
                }
            }
        }
        Some(placed)
    }

    /// Locked candidates between boxes and columns for one digit: in each stack (three columns),
    /// each column takes the digit in exactly one band and each band in exactly one column, so
    /// only (band, column) segments on some permutation keep their candidates. False on a
    /// contradiction.
    fn lock_stacks(&mut self, digit: usize) -> bool {
        let mut columns = [0u32; 3];
        for (band, columns) in columns.iter_mut().enumerate() {
            let cells = self.candidates[slot(digit, band)];
            *columns = (cells | cells >> 9 | cells >> 18) & 0x1ff;
        }
        for stack in 0..3 {
            let shift = 3 * stack;
            let pattern = (columns[0] >> shift & 7)
                | (columns[1] >> shift & 7) << 3
                | (columns[2] >> shift & 7) << 6;
            let keep = PERMUTABLE[(pattern & 0x1ff) as usize] as u32;
            if keep == 0 {
                return false;
            }
            if keep != pattern {
                for band in 0..3 {
                    let lost = (pattern & !keep) >> (3 * band) & 7;
                    let lost = lost << shift;
                    self.eliminate(slot(digit, band), lost | lost << 9 | lost << 18);
                }
            }
        }
        true
    }

    /// Runs all deductions until none applies. False on a contradiction.
    fn propagate(&mut self) -> bool {
        let mut touched = 0;
        loop {
            while self.dirty != 0 {
                let slot = self.dirty.trailing_zeros() as usize;
                self.dirty &= self.dirty - 1;
                touched |= 1 << slot;
                if !self.update_band(slot) {
                    return false;
                }
            }
            let scan = std::mem::replace(&mut touched, 0);
            match self.singles(scan) {
                None => return false,
                Some(false) => return true,
                Some(true) => {}
            }
        }
    }

    fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// The candidate digits (bit `d` for digit `d + 1`) of `cell` in `band`.
    fn digits_of(&self, band: usize, cell: u32) -> u16 {
        let mut digits = 0;
        for digit in 0..9 {
            if self.candidates[slot(digit, band)] & cell != 0 {
                digits |= 1 << digit;
            }
        }
        digits
    }

    /// The cell to branch on, as (band, cell bit); the board must have an unsolved cell.
    fn branch_cell(&self, branching: Branching) -> (usize, u32) {
        if branching == Branching::FewestCandidates {
            let mut best_pair = (0, 0, 0);
            for band in 0..3 {
                let (mut once, mut twice, mut more) = (0, 0, 0);
                for digit in 0..9 {
                    let cells = self.candidates[slot(digit, band)];
                    more |= twice & cells;
                    twice |= once & cells;
                    once |= cells;
                }
                let mut pairs = twice & !more & self.unsolved[band];
                while pairs != 0 {
                    let index = pairs.trailing_zeros() as usize;
                    pairs &= pairs - 1;
                    let column = COLUMN << (index % 9);
                    // Open peers: in the band, and in the column in the other two bands, packed
                    // into one word for a single population count (BOJ's generic x86-64 has no
                    // popcnt instruction, so each count costs a dozen instructions).
                    let in_band = PEERS_IN_BAND[index] & self.unsolved[band];
                    let in_column = (self.unsolved[(band + 1) % 3] & column)
                        | (self.unsolved[(band + 2) % 3] & column) << 1;
                    let score = 1 + (u64::from(in_band) | u64::from(in_column) << 32).count_ones();
                    if score > best_pair.2 {
                        best_pair = (band, 1 << index, score);
                    }
                }
            }
            if best_pair.2 > 0 {
                return (best_pair.0, best_pair.1);
            }
            let mut best = (0, 0, u32::MAX);
            for band in 0..3 {
                let mut rest = self.unsolved[band];
                while rest != 0 {
                    let cell = rest & rest.wrapping_neg();
                    rest ^= cell;
                    let count = self.digits_of(band, cell).count_ones();
                    if count < best.2 {
                        best = (band, cell, count);
                    }
                }
            }
            return (best.0, best.1);
        }
        let band = self.unsolved.iter().position(|&u| u != 0).unwrap_or(0);
        let rest = self.unsolved[band];
        (band, rest & rest.wrapping_neg())
    }

    fn to_grid(self) -> Grid {
        let mut cells = [0u8; 81];
        for (index, digit) in cells.iter_mut().enumerate() {
            let digits = self.digits_of(index / 27, 1 << (index % 27));
            *digit = digits.trailing_zeros() as u8 + 1;
        }
        Grid::from_cells(cells).expect("a solved board holds digits 1-9")
    }
}

/// Depth-first search from `board`, calling `on_solution` on each solution in the order the
/// branching meets them until it returns true. Returns true when it was stopped that way.
/// At most `*nodes_left` nodes are visited: when they run out the search stops as if told to.
fn search<F: FnMut(&Board) -> bool>(
    mut board: Board,
    branching: Branching,
    nodes_left: &mut u64,
    on_solution: &mut F,
) -> bool {
    if *nodes_left == 0 {
        return true;
    }
    *nodes_left -= 1;
    if !board.propagate() {
        return false;
    }
    if board.is_solved() {
        return on_solution(&board);
    }
    let (band, cell) = board.branch_cell(branching);
    let mut digits = board.digits_of(band, cell);
    while digits != 0 {
        let digit = digits.trailing_zeros() as usize;
        digits &= digits - 1;
        let mut child = board;
        child.place(digit, band, cell);
        if search(child, branching, nodes_left, on_solution) {
            return true;
        }
        // Every solution with this digit here has been reported: the rest of the search is
        // below the other digits, and knowing that sharpens their propagation.
        board.eliminate(slot(digit, band), cell);
    }
    false
}

/// No node budget at all: 2^64 nodes would take millennia.
const UNLIMITED: u64 = u64::MAX;

/// How many nodes plain row-major search gets in `solve_lexmin` before the witness method takes
/// over. Its first solution is the smallest, with no proof of uniqueness needed, and with this
/// propagation it finds it within a few dozen nodes on most puzzles, hard ones included; the
/// budget caps what a puzzle built against row-major order can cost it (measured: 100-200 nodes
/// minimise the instruction count over the public sets).
const ROW_MAJOR_NODES: u64 = 128;

/// The search ran out of nodes before it could answer.
struct OutOfNodes;

/// The first solution the search meets from `board` in at most `nodes` nodes, as a solved board;
/// `Ok(None)` when there is none.
fn first_solution_within(
    board: Board,
    branching: Branching,
    nodes: u64,
) -> Result<Option<Board>, OutOfNodes> {
    let mut found = None;
    let mut nodes_left = nodes;
    search(board, branching, &mut nodes_left, &mut |solved: &Board| {
        found = Some(*solved);
        true
    });
    match found {
        None if nodes_left == 0 => Err(OutOfNodes),
        found => Ok(found),
    }
}

/// The first solution the search meets from `board`, as a solved board.
fn first_solution(board: Board, branching: Branching) -> Option<Board> {
    first_solution_within(board, branching, UNLIMITED).unwrap_or(None)
}

/// The smallest solution: plain row-major search while it is cheap, then the witness method.
fn lexmin(board: Board) -> Option<Board> {
    match first_solution_within(board, Branching::RowMajor, ROW_MAJOR_NODES) {
        Ok(found) => found,
        Err(OutOfNodes) => lexmin_by_witness(board),
    }
}

/// The smallest solution, found cell by cell in row-major order with a witness.
///
/// A witness is a solution of the current board. At the first undecided cell, only digits below
/// the witness's need a test, each a fast fewest-candidates search: a digit that leads to a
/// solution is kept (its solution the new witness); one that leads to none is removed; when all
/// fail, the witness's digit is kept. Every test is a search that branches well, so a puzzle
/// built against row-major order costs at most (cells × digits) quick searches instead of a
/// row-major tree that can be exponentially larger. A puzzle with one solution needs none.
fn lexmin_by_witness(mut board: Board) -> Option<Board> {
    if !board.propagate() {
        return None;
    }
    let (mut witness, mut solutions) = (None, 0);
    search(
        board,
        Branching::FewestCandidates,
        &mut { UNLIMITED },
        &mut |solved: &Board| {
            witness = witness.or(Some(*solved));
            solutions += 1;
            solutions == 2
        },
    );
    let mut witness = witness?;
    if solutions == 1 {
        return Some(witness);
    }
    while !board.is_solved() {
        let (band, cell) = board.branch_cell(Branching::RowMajor);
        let target = witness.digits_of(band, cell);
        let mut below = board.digits_of(band, cell) & (target - 1);
        let mut chosen = target.trailing_zeros() as usize;
        while below != 0 {
            let digit = below.trailing_zeros() as usize;
            below &= below - 1;
            let mut child = board;
            child.place(digit, band, cell);
            if let Some(solved) = first_solution(child, Branching::FewestCandidates) {
                witness = solved;
                chosen = digit;
                break;
            }
            board.eliminate(slot(digit, band), cell);
        }
        board.place(chosen, band, cell);
        // The witness satisfies every constraint of the board, so this cannot fail.
        let consistent = board.propagate();
        debug_assert!(consistent);
    }
    Some(board)
}

/// Some solution of `puzzle`, or `None` when it has none (givens that clash included).
///
/// # Complexity
/// Exponential in the worst case, as Sudoku is NP-complete in general; on 9x9 puzzles the
/// propagation and two-candidate branching keep the search to a few hundred nodes at most on
/// the hardest public sets (see the README's figures).
///
/// ```
/// use sudoku_core::{check_solution, solve, Grid};
/// let puzzle = Grid::EMPTY;
/// let solution = solve(&puzzle).expect("the empty grid has solutions");
/// assert_eq!(check_solution(&puzzle, &solution), Ok(()));
/// ```
pub fn solve(puzzle: &Grid) -> Option<Grid> {
    first_solution(Board::new(puzzle)?, Branching::FewestCandidates).map(Board::to_grid)
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
    lexmin(Board::new(puzzle)?).map(Board::to_grid)
}

/// The smallest solution by plain row-major search alone: for tests and benchmarks.
#[doc(hidden)]
pub fn solve_lexmin_row_major(puzzle: &Grid) -> Option<Grid> {
    first_solution(Board::new(puzzle)?, Branching::RowMajor).map(Board::to_grid)
}

/// The smallest solution by the witness method alone: for tests and benchmarks.
#[doc(hidden)]
pub fn solve_lexmin_by_witness(puzzle: &Grid) -> Option<Grid> {
    lexmin_by_witness(Board::new(puzzle)?).map(Board::to_grid)
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
        search(
            board,
            Branching::FewestCandidates,
            &mut { UNLIMITED },
            &mut |_: &Board| {
                count += 1;
                count >= limit
            },
        );
    }
    count
}
