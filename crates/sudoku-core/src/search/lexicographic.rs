//! The lexicographically smallest solution: branch and bound (with `restrict_below`, the cut
//! to what can beat the best solution so far), its probe that stops at a second solution, plain
//! row-major search, and the witness method, chosen by [`lexmin`].

use super::board::{slot, Board};
use super::branch::Branching;
use super::depth_first::{
    first_solution, first_solution_with, search, Budget, OutOfDeadEnds, Step, Visit,
};
use super::tables::*;
use super::LIGHT_OPEN_CELLS;

/// Branch and bound for the smallest solution: every solution met becomes the bound (each is
/// smaller than the one before), and every node is cut down to what can beat it
/// ([`Board::restrict_below`]). When the search ends, the bound is the smallest solution. It
/// stops early at its `stop_at`-th solution (`u32::MAX`: never).
pub(super) struct Bound {
    best: Option<Board>,
    found: u32,
    stop_at: u32,
}

impl Bound {
    fn stopping_at(stop_at: u32) -> Bound {
        Bound {
            best: None,
            found: 0,
            stop_at,
        }
    }
}

impl Visit for Bound {
    fn narrow(&mut self, board: &mut Board) -> Option<bool> {
        match &self.best {
            Some(bound) => board.restrict_below(bound),
            None => Some(false),
        }
    }

    fn solution(&mut self, solved: &Board) -> bool {
        self.best = Some(*solved);
        self.found += 1;
        self.found >= self.stop_at
    }
}

impl Board {
    /// Keeps this board's search to solutions lexicographically smaller than `bound` (a solved
    /// board): finds the first cell, in row-major order, that is not placed with the bound's
    /// digit. Placed with a larger digit: nothing below can be smaller (`None`). Placed with a
    /// smaller one: everything below is smaller (`Some(false)`). Open: its candidates above the
    /// bound's digit go (`Some(true)` when that removed any). All cells equal: `None`.
    pub(super) fn restrict_below(&mut self, bound: &Board) -> Option<bool> {
        for band in 0..3 {
            let placed = !self.unsolved[band] & BAND;
            let mut equal = 0;
            for digit in 0..9 {
                equal |= self.candidates[slot(digit, band)] & bound.candidates[slot(digit, band)];
            }
            let rest = !(equal & placed) & BAND;
            if rest == 0 {
                continue;
            }
            let cell = rest & rest.wrapping_neg();
            let limit = bound.digits_of(band, cell).trailing_zeros() as usize;
            if placed & cell != 0 {
                let digit = self.digits_of(band, cell).trailing_zeros() as usize;
                return if digit > limit { None } else { Some(false) };
            }
            let mut removed = false;
            self.news |= (0x1ff >> (limit + 1) << (limit + 1)) << (9 * band);
            for digit in limit + 1..9 {
                let candidates = &mut self.candidates[slot(digit, band)];
                removed |= *candidates & cell != 0;
                *candidates &= !cell;
            }
            return Some(removed);
        }
        None
    }
}

/// Branch and bound from `board` within `budget`, stopped at its `stop_at`-th solution: the
/// bound it ended with, and whether it was stopped (by that solution or by the budget).
fn bound_search(mut board: Board, mut budget: Budget, stop_at: u32) -> (Bound, bool) {
    let mut bound = Bound::stopping_at(stop_at);
    let stopped = search(
        &mut board,
        Branching::FewestCandidates,
        &mut budget,
        &mut bound,
    );
    (bound, stopped)
}

/// Branch and bound within `dead_ends` dead ends: the best solution it met, and whether it
/// finished (then that is the smallest solution, `None` meaning there is none).
pub(super) fn branch_and_bound(board: Board, dead_ends: u64) -> (Option<Board>, bool) {
    let (bound, stopped) = bound_search(board, Budget::dead_ends(dead_ends), u32::MAX);
    (bound.best, !stopped)
}

/// How branch and bound ended when asked to stop at a second solution.
pub(super) enum Probe {
    /// It finished: the smallest solution (`None`: there is none).
    Smallest(Option<Board>),
    /// It met a second solution: the board has several.
    Several,
    /// It ran out of dead ends, with the best solution it had.
    OutOfDeadEnds(Option<Board>),
}

/// Branch and bound within `dead_ends` dead ends that stops at a second solution, its givens
/// propagated as `solve` propagates them ([`Step::Givens`]).
pub(super) fn probe_by_bound(board: Board, dead_ends: u64) -> Probe {
    let budget = Budget::new(dead_ends, Step::Givens);
    match bound_search(board, budget, 2) {
        (bound, false) => Probe::Smallest(bound.best),
        (bound, true) if bound.found == 2 => Probe::Several,
        (bound, true) => Probe::OutOfDeadEnds(bound.best),
    }
}

/// A puzzle with one solution has at least 17 givens (McGuire, Tugemann and Civario, 2012), so
/// a board with more open cells than this has several solutions.
pub(super) const MAX_UNIQUE_OPEN_CELLS: u32 = 81 - 17;

/// How many dead ends plain row-major search meets in `solve_lexmin` before branch and bound
/// takes over. Its first solution is the smallest, with no proof needed, and on a board with
/// many solutions it gets there with few dead ends (a nearly empty board meets about 20 in
/// some 80 nodes), where branch and bound would meet a long chain of ever smaller solutions;
/// a puzzle that is hard for row-major order meets dead ends from the start. 32 balanced the
/// instruction counts over the public sets, as published and randomly transformed, against
/// the slowest nearly empty boards.
pub(super) const ROW_MAJOR_DEAD_ENDS: u64 = 32;

/// How many dead ends branch and bound meets before the witness method takes over from the
/// best solution it has. Hard puzzles with one solution need a few hundred (none of the public
/// sets more than 512); boards with very many solutions can need far more, one improvement at a
/// time, and the witness method bounds them.
pub(super) const BOUND_DEAD_ENDS: u64 = 1024;

/// Row-major search's budget in [`lexmin`] (and in `solve`, on boards with few open cells):
/// [`ROW_MAJOR_DEAD_ENDS`], and light nodes ([`Step::Light`]) until the first dead end on a
/// board with fewer than [`LIGHT_OPEN_CELLS`] open cells: their smallest solution is usually a few
/// nodes away, where the column logic and pointing cost more than they save (measured:
/// docs/solver-journal.md, "Why the code is as it is"). Light nodes still branch in row-major
/// order, so the first solution met is still the smallest.
fn row_major_budget(board: &Board) -> Budget {
    let step = if board.open_cells() < LIGHT_OPEN_CELLS {
        Step::Light
    } else {
        Step::Full
    };
    Budget::new(ROW_MAJOR_DEAD_ENDS, step)
}

/// Plain row-major search within [`row_major_budget`]: its first solution is the smallest
/// (`Ok(None)`: the board has none), unless it meets its last dead end first. `solve_lexmin`'s
/// first stage, and `solve`'s on a board with few open cells.
pub(super) fn smallest_by_row_major(board: Board) -> Result<Option<Board>, OutOfDeadEnds> {
    first_solution_with(board, Branching::RowMajor, &mut row_major_budget(&board))
}

/// The smallest solution, by the strategy that suits the board:
/// - a board with few open cells ([`LIGHT_OPEN_CELLS`], Serg's benchmark) usually has many
///   solutions close by: plain row-major search first, while it is cheap, and light
///   ([`row_major_budget`]);
/// - otherwise, unless it has too few givens to have one solution ([`MAX_UNIQUE_OPEN_CELLS`]),
///   branch and bound first, stopped at a second solution: a board with one solution (every
///   hard puzzle) is then proved without a row-major search that could only fail (which cost a
///   quarter of the instructions on magictour); a board with several goes back to row-major
///   search, where its smallest solution is usually close;
/// - whatever outlasts those, by the witness method.
pub(super) fn lexmin(board: Board) -> Option<Board> {
    if (LIGHT_OPEN_CELLS..=MAX_UNIQUE_OPEN_CELLS).contains(&board.open_cells()) {
        match probe_by_bound(board, BOUND_DEAD_ENDS) {
            Probe::Smallest(smallest) => return smallest,
            Probe::OutOfDeadEnds(best) => return lexmin_by_witness(board, best),
            Probe::Several => {}
        }
    }
    if let Ok(found) = smallest_by_row_major(board) {
        return found;
    }
    match branch_and_bound(board, BOUND_DEAD_ENDS) {
        (smallest, true) => smallest,
        (best, false) => lexmin_by_witness(board, best),
    }
}

/// The smallest solution, found cell by cell in row-major order with a witness.
///
/// A witness is a solution of the current board. At the first undecided cell, only digits below
/// the witness's need a test, each a fast fewest-candidates search: a digit that leads to a
/// solution is kept (its solution the new witness); one that leads to none is removed; when all
/// fail, the witness's digit is kept. Every test is a search that branches well, so any board
/// costs at most (cells × digits) such searches, however its solutions are spread. `witness`
/// is a solution to start from, if one is known.
pub(super) fn lexmin_by_witness(mut board: Board, witness: Option<Board>) -> Option<Board> {
    if !board.propagate() {
        return None;
    }
    let mut witness = match witness {
        Some(witness) => witness,
        None => first_solution(board, Branching::FewestCandidates)?,
    };
    while !board.is_solved() {
        let (band, cell) = board.first_open_cell();
        let target = witness.digits_of(band, cell);
        let cell_digits = board.digits_of(band, cell);
        let mut below = cell_digits & (target - 1);
        let mut chosen = target.trailing_zeros() as usize;
        while below != 0 {
            let digit = below.trailing_zeros() as usize;
            below &= below - 1;
            let mut child = board;
            child.place(digit, band, cell, cell_digits);
            if let Some(solved) = first_solution(child, Branching::FewestCandidates) {
                witness = solved;
                chosen = digit;
                break;
            }
            board.remove_candidate(digit, band, cell);
        }
        board.place(chosen, band, cell, cell_digits);
        // The witness satisfies every constraint of the board, so this cannot fail.
        let consistent = board.propagate();
        debug_assert!(consistent);
    }
    Some(board)
}
