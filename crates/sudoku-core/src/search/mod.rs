//! The solver: per-digit band bitboards, propagation (naked singles, hidden singles in rows and
//! boxes, locked candidates between boxes and rows and between boxes and columns), and
//! depth-first search that branches on a two-candidate cell (any solution, counting) or on the
//! first undecided cell in row-major order (the lexicographically smallest solution).
//!
//! Code map: `tables` (constant tables and bit tricks), `board` (the node and its
//! propagation), `branch` (which cell to branch on), `depth_first` (the search loop and its
//! budget), `lexicographic` (the strategies for the smallest solution); the public functions are here.

mod board;
mod branch;
mod depth_first;
mod lexicographic;
mod tables;

use crate::grid::Grid;

use board::Board;
use branch::Branching;
use depth_first::{first_solution, first_solution_with, search, Budget, Step, UNLIMITED};
use lexicographic::{branch_and_bound, lexmin, lexmin_by_witness, smallest_by_row_major};

/// A board with fewer open cells than this, before any propagation, is searched first in
/// row-major order and lightly ([`Step::Light`]), by `solve` and `solve_lexmin` alike.
pub(super) const LIGHT_OPEN_CELLS: u32 = 50;

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
    let board = Board::new(puzzle)?;
    if board.open_cells() < LIGHT_OPEN_CELLS {
        // Few open cells (Serg's benchmark): usually many solutions, close by, which
        // `solve_lexmin`'s first stage reaches faster than the fewest-candidates search
        // (measured: docs/solver-journal.md, 2026-11-29, noon); a board that outlasts its
        // budget is searched as below.
        if let Ok(found) = smallest_by_row_major(board) {
            return found.map(Board::to_grid);
        }
    }
    let mut budget = Budget::new(UNLIMITED, Step::Givens);
    first_solution_with(board, Branching::FewestCandidates, &mut budget)
        .unwrap_or(None)
        .map(Board::to_grid)
}

/// The lexicographically smallest solution of `puzzle` (the smallest 81-digit number read
/// row by row), or `None` when it has none.
///
/// Propagation removes only candidates that belong to no solution, so every solution below a
/// node agrees on the cells already decided; branching on the first undecided cell in row-major
/// order, smallest digit first, therefore meets solutions in increasing order, and the first one
/// met is the smallest. That search gets a small budget of dead ends; past it, branch and bound
/// over the fast search proves the answer, and boards with very many solutions finish by the
/// witness method (ARCHITECTURE.md has the details).
///
/// # Complexity
/// Like [`solve`], exponential in the worst case; on the public sets within about twice the
/// time of [`solve`].
///
/// ```
/// use sudoku_core::{solve_lexmin, Format, Grid};
/// let smallest = solve_lexmin(&Grid::EMPTY).unwrap();
/// assert!(smallest.display(Format::Rows).to_string().starts_with("123456789\n456789123\n"));
/// ```
pub fn solve_lexmin(puzzle: &Grid) -> Option<Grid> {
    lexmin(Board::new(puzzle)?).map(Board::to_grid)
}

/// The strategies inside [`solve_lexmin`], each alone, for the benchmarks and the tests that
/// compare them; not part of the API (re-exported as `sudoku_core::strategies`, hidden).
pub mod strategies {
    use super::{branch_and_bound, first_solution, lexmin_by_witness, Board, Branching};
    use crate::grid::Grid;

    /// The smallest solution by plain row-major search alone.
    pub fn row_major(puzzle: &Grid) -> Option<Grid> {
        first_solution(Board::new(puzzle)?, Branching::RowMajor).map(Board::to_grid)
    }

    /// The smallest solution by the witness method alone.
    pub fn by_witness(puzzle: &Grid) -> Option<Grid> {
        lexmin_by_witness(Board::new(puzzle)?, None).map(Board::to_grid)
    }

    /// The smallest solution by branch and bound alone within `dead_ends` dead ends: `None`
    /// when it meets them first, `Some(None)` when the puzzle has no solution.
    pub fn by_bound(puzzle: &Grid, dead_ends: u64) -> Option<Option<Grid>> {
        match Board::new(puzzle) {
            Some(board) => match branch_and_bound(board, dead_ends) {
                (smallest, true) => Some(smallest.map(Board::to_grid)),
                (_, false) => None,
            },
            None => Some(None),
        }
    }
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
    if let Some(mut board) = Board::new(puzzle) {
        search(
            &mut board,
            Branching::FewestCandidates,
            &mut Budget::dead_ends(UNLIMITED),
            &mut |_: &Board| {
                count += 1;
                count >= limit
            },
        );
    }
    count
}
