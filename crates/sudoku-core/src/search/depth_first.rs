//! Depth-first search: one loop per node (propagate, let the visitor narrow or cut, branch on
//! a cell, try its digits), what a node does (`Step`), and the budget of dead ends.

use super::board::Board;
use super::branch::{Branching, Conflicts};

/// What a search does at its nodes besides propagating and branching.
pub(super) trait Visit {
    /// Called at every node once propagation is done: may narrow the board (`Some(true)`, and
    /// propagation runs again), leave it (`Some(false)`) or cut the node (`None`).
    fn narrow(&mut self, _board: &mut Board) -> Option<bool> {
        Some(false)
    }

    /// Called on each solution, in the order the branching meets them; true stops the search.
    fn solution(&mut self, solved: &Board) -> bool;
}

/// A plain search calls a closure on each solution and narrows nothing.
impl<F: FnMut(&Board) -> bool> Visit for F {
    fn solution(&mut self, solved: &Board) -> bool {
        self(solved)
    }
}

/// Depth-first search from `board`, handing each solution to `visit` in the order the branching
/// meets them until it says stop. Returns true when it was stopped that way. At most
/// `budget.dead_ends_left` dead ends (nodes that fail or are cut) are met: the last one stops
/// the search as if `visit` had said stop. `budget.step` says how much work a node does.
///
/// `board` is the search's own to change (the caller's copy, left in no particular state): taken by
/// value, a child's board was copied twice, into the child and again into the call (LLVM did not
/// merge the two `memcpy` calls); by reference, once (measured: docs/solver-journal.md, "Why the
/// code is as it is").
///
/// Dead ends, not nodes, measure how hard a board is for a branching: a search that meets
/// solutions easily fills one cell per node on a nearly empty board (some 80 nodes) with few
/// dead ends, while a hard puzzle spends about half of its nodes on them.
pub(super) fn search<V: Visit>(
    board: &mut Board,
    branching: Branching,
    budget: &mut Budget,
    visit: &mut V,
) -> bool {
    // Each turn of the loop is one node; the last digit of a branch needs no copy of the
    // board, so it continues here instead of in a child.
    loop {
        loop {
            let consistent = match budget.step {
                Step::Full => board.propagate_with::<true>(),
                Step::Light => board.propagate_light(),
                Step::Givens => board.propagate_with::<false>(),
            };
            if !consistent {
                budget.conflicts.note(board.news);
                return budget.dead_end();
            }
            match visit.narrow(board) {
                Some(false) => break,
                Some(true) => continue,
                None => return budget.dead_end(),
            }
        }
        if board.is_solved() {
            return visit.solution(board);
        }
        if budget.step == Step::Givens {
            budget.step = Step::Full;
        }
        let (band, cell) = board.branch_cell(branching, &budget.conflicts);
        let mut digits = board.digits_of(band, cell);
        while digits & (digits - 1) != 0 {
            let digit = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let mut child = *board;
            child.place(digit, band, cell, digits);
            if search(&mut child, branching, budget, visit) {
                return true;
            }
            // Every solution with this digit here has been reported: the rest of the search
            // is below the other digits, and knowing that sharpens their propagation.
            board.remove_candidate(digit, band, cell);
        }
        if digits == 0 {
            // Unreachable: propagation places a cell with one candidate and fails on none.
            return false;
        }
        board.place(digits.trailing_zeros() as usize, band, cell, digits);
    }
}

/// How much work a search node does.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Step {
    /// Full propagation (column logic included) and scored branching.
    Full,
    /// Propagation of the givens without the column logic (pointing kept), `Full` from the
    /// first branching on.
    ///
    /// Why: the column logic is a large share of the givens' work, and a hard board catches up on
    /// it at its first full nodes, for the digits whose candidates they change. The first branching
    /// is `Full` even on a board the givens leave nearly filled: such boards gain more from full
    /// nodes than light ones save (measured: docs/solver-journal.md, "Why the code is as it is").
    Givens,
    /// No column logic and no pointing in the band logic (a box confined to one column taking it
    /// from the other bands) until the first dead end; `Full` from then on. The row-major
    /// search that `solve` and `solve_lexmin` start with on a board with fewer than
    /// [`LIGHT_OPEN_CELLS`] open cells before any propagation (all of serg, one puzzle of 1905)
    /// starts here, givens included.
    ///
    /// A board with few open cells usually has its solutions close by (Serg's benchmark: 30-49 open
    /// cells, many solutions, few dead ends), and there the column logic costs more than it saves
    /// (measured: docs/solver-journal.md, "Why the code is as it is"). A
    /// board that turns out hard meets a dead end within a few nodes and is searched in full from
    /// then on. The other public sets start with 50 open cells or more, so they never go light.
    ///
    /// Pointing adds eliminations to the other bands, which mostly send their slots through the
    /// band logic again for nothing on such boards: it is left out of the light nodes and of the
    /// givens of a board that starts light. It stays in `Givens`: the givens' pointing is what a
    /// hard board's search starts from (measured: docs/solver-journal.md, "Why the code is as it
    /// is").
    Light,
}

/// How far a search may go, how it goes, and what it has learnt on the way.
pub(super) struct Budget {
    /// Dead ends (nodes that fail or are cut) still allowed; the last one stops the search.
    pub(super) dead_ends_left: u64,
    pub(super) step: Step,
    /// Where the search's contradictions were found so far, which its branching weighs.
    pub(super) conflicts: Conflicts,
}

impl Budget {
    /// A search within `dead_ends_left` dead ends, its nodes starting with `step`.
    pub(super) fn new(dead_ends_left: u64, step: Step) -> Budget {
        Budget {
            dead_ends_left,
            step,
            conflicts: Conflicts::NONE,
        }
    }

    /// A search in full within `dead_ends_left` dead ends.
    pub(super) fn dead_ends(dead_ends_left: u64) -> Budget {
        Budget::new(dead_ends_left, Step::Full)
    }

    /// Counts a dead end; true (stop the search) when it was the last one. A light search is
    /// light no more.
    pub(super) fn dead_end(&mut self) -> bool {
        self.step = Step::Full;
        self.dead_ends_left = self.dead_ends_left.saturating_sub(1);
        self.dead_ends_left == 0
    }
}

/// No budget at all: 2^64 dead ends would take millennia.
pub(super) const UNLIMITED: u64 = u64::MAX;

/// The search met its last allowed dead end before it could answer.
pub(super) struct OutOfDeadEnds;

/// The first solution the search meets from `board` within `dead_ends` dead ends, as a solved
/// board; `Ok(None)` when there is none.
pub(super) fn first_solution_within(
    board: Board,
    branching: Branching,
    dead_ends: u64,
) -> Result<Option<Board>, OutOfDeadEnds> {
    first_solution_with(board, branching, &mut Budget::dead_ends(dead_ends))
}

/// The first solution the search meets from `board` within `budget`, as a solved board;
/// `Ok(None)` when there is none.
pub(super) fn first_solution_with(
    mut board: Board,
    branching: Branching,
    budget: &mut Budget,
) -> Result<Option<Board>, OutOfDeadEnds> {
    let mut found = None;
    search(&mut board, branching, budget, &mut |solved: &Board| {
        found = Some(*solved);
        true
    });
    match found {
        None if budget.dead_ends_left == 0 => Err(OutOfDeadEnds),
        found => Ok(found),
    }
}

/// The first solution the search meets from `board`, as a solved board.
pub(super) fn first_solution(board: Board, branching: Branching) -> Option<Board> {
    first_solution_within(board, branching, UNLIMITED).unwrap_or(None)
}
