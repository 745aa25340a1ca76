//! Choosing the cell to branch on (a two-candidate cell scored by its open peers and by where
//! the search's contradictions were found, or the first open cell in row-major order), and
//! reading a board: its digits, its open cells, the grid it holds once solved.

use crate::grid::Grid;

use super::board::{slot, Board};
use super::tables::*;

/// Which cell the search branches on.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Branching {
    /// A cell with two candidates when there is one (else the fewest): the smallest trees.
    FewestCandidates,
    /// The first undecided cell in row-major order, smallest digit first: solutions are met in
    /// increasing lexicographic order.
    RowMajor,
}

/// Where a search's contradictions were found, as weights for its branching: for each slot (a
/// digit in a band), 2 for each contradiction the band logic found in that slot and 1 for each
/// it found in the digit's other two bands. A pair whose digits keep failing is branched on
/// sooner, so that its children's contradictions come near the root and cut more.
///
/// The idea is constraint programming's weighted degree (`dom/wdeg`: Boussemart, Hemery,
/// Lecoutre and Sais, "Boosting systematic search by weighting constraints", ECAI 2004), with
/// the band logic's slots as the constraints. Added to the pair scores of the three pairs with
/// the most open peers: 9% fewer instructions for `solve_lexmin` on 1905, 7% on 1106 (measured:
/// docs/solver-journal.md, "2026-11-29, conflict weights").
#[derive(Clone, Copy)]
pub(super) struct Conflicts {
    weight: [u16; 27],
    /// Whether any weight is above zero: until then, branching is as if there were none.
    any: bool,
}

impl Conflicts {
    /// No contradiction found yet.
    pub(super) const NONE: Conflicts = Conflicts {
        weight: [0; 27],
        any: false,
    };

    /// Notes a contradiction found in `slots` (slot bits: one, or none when a deduction other
    /// than the band logic found it, which is noted nowhere).
    #[inline(always)]
    pub(super) fn note(&mut self, slots: u32) {
        if slots == 0 {
            return;
        }
        let slot = slots.trailing_zeros() as usize;
        let [next, after] = SAME_DIGIT_OTHER_BANDS[slot];
        let (next, after) = (usize::from(next), usize::from(after));
        self.weight[slot] = self.weight[slot].saturating_add(2);
        self.weight[next] = self.weight[next].saturating_add(1);
        self.weight[after] = self.weight[after].saturating_add(1);
        self.any = true;
    }

    /// The weight of a pair with digits `low` and `high` in `band`.
    #[inline(always)]
    fn of_pair(&self, band: usize, low: usize, high: usize) -> u32 {
        u32::from(self.weight[slot(low, band)]) + u32::from(self.weight[slot(high, band)])
    }
}

impl Board {
    pub(super) fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// The candidate digits (bit `d` for digit `d + 1`) of `cell` in `band`.
    ///
    /// Gathered by shifts, not by a test per digit: which digits a cell keeps cannot be
    /// predicted, and the tests compiled to branches that mispredicted (measured:
    /// docs/solver-journal.md, "Why the code is as it is").
    pub(super) fn digits_of(&self, band: usize, cell: u32) -> u16 {
        let index = cell.trailing_zeros();
        let mut digits = 0;
        for digit in 0..9 {
            digits |= (self.candidates[slot(digit, band)] >> index & 1) << digit;
        }
        digits as u16
    }

    /// The cell to branch on, as (band, cell bit); the board must have an unsolved cell.
    /// `conflicts` are the search's so far, which only the fewest-candidates branching weighs.
    pub(super) fn branch_cell(&self, branching: Branching, conflicts: &Conflicts) -> (usize, u32) {
        if branching == Branching::FewestCandidates {
            debug_assert!((0..3).all(|band| {
                let (_, twice, more) = self.candidate_counts(band);
                self.pairs[band] & self.unsolved[band] == twice & !more & self.unsolved[band]
            }));
            // Two pairs rescored until the search meets a contradiction, three after.
            let best = if conflicts.any {
                self.best_pair::<3>(conflicts)
            } else {
                self.best_pair::<2>(conflicts)
            };
            if best != 0 {
                let place = 0xff - (best & 0xff);
                return ((place >> 5) as usize, 1 << (place & 31));
            }
            // No pair: the first open cell with the fewest candidates. Each cell's count is
            // added up bit-sliced, one 27-bit plane per binary digit of the counts.
            let mut best = (0, 0, u32::MAX);
            for band in 0..3 {
                let mut planes = [0u32; 4];
                for digit in 0..9 {
                    let mut carry = self.candidates[slot(digit, band)];
                    for plane in planes.iter_mut() {
                        let sum = *plane ^ carry;
                        carry &= *plane;
                        *plane = sum;
                    }
                }
                for count in 1..best.2.min(10) {
                    let mut cells = self.unsolved[band];
                    for (bit, plane) in planes.iter().enumerate() {
                        // Keeps the cells whose count has this bit as `count` has it.
                        cells &= !(*plane ^ (count >> bit & 1).wrapping_neg());
                    }
                    if cells != 0 {
                        best = (band, cells & cells.wrapping_neg(), count);
                        break;
                    }
                }
            }
            return (best.0, best.1);
        }
        self.first_open_cell()
    }

    /// The first open cell in row-major order, as (band, cell bit); (0, 0) on a solved board.
    pub(super) fn first_open_cell(&self) -> (usize, u32) {
        let band = self.unsolved.iter().position(|&u| u != 0).unwrap_or(0);
        let rest = self.unsolved[band];
        (band, rest & rest.wrapping_neg())
    }

    /// The key of the best pair to branch on, zero when there is no pair: the `RESCORED` pairs
    /// with the most open peers, each scored again ([`Board::rescored`]). `RESCORED` is 2 until
    /// the search meets a contradiction (as measured best with pair peers alone), 3 after (2
    /// and 4 measured more instructions: docs/solver-journal.md, "2026-11-29, conflict weights").
    #[inline(always)]
    fn best_pair<const RESCORED: usize>(&self, conflicts: &Conflicts) -> u32 {
        // All pairs of the board in one set, band `b` at bits `32b..32b + 27`, so that the
        // scan is one loop whose exit mispredicts once, not once a band, and a place splits
        // into band and cell by shifts. A pair's key is its score above its place, reversed,
        // so the largest key is the first best pair. The scan scores open peers (twice, to
        // leave room for the conflict weights' units); the best pairs are then scored again
        // with their two-candidate peers that share a digit, for fewer nodes on the hard
        // sets, and with the conflict weights of their digits. Rescoring every pair saves
        // more nodes but costs more than it saves. (Each measured: docs/solver-journal.md,
        // "Why the code is as it is" and "2026-11-29, conflict weights".)
        let mut pairs = u128::from(self.pairs[0] & self.unsolved[0])
            | u128::from(self.pairs[1] & self.unsolved[1]) << 32
            | u128::from(self.pairs[2] & self.unsolved[2]) << 64;
        // The largest keys so far, largest first, kept by a pass of compares and selects.
        let mut top = [0u32; RESCORED];
        while pairs != 0 {
            let place = pairs.trailing_zeros();
            pairs &= pairs - 1;
            let (band, index) = ((place >> 5) as usize, (place & 31) as usize);
            // Open peers: in the band, and in the column in the other two bands.
            let in_band = PEERS_IN_BAND[index] & self.unsolved[band];
            let column = COLUMN_OF_CELL[index];
            let [next, after] = OTHER_BANDS[band];
            let in_column = (self.unsolved[next] >> column & COLUMN)
                + (self.unsolved[after] >> column & COLUMN);
            let mut key = (2 * count_peers(in_band, in_column)) << 8 | (0xff - place);
            for kept in top.iter_mut() {
                let larger = (*kept).max(key);
                key = (*kept).min(key);
                *kept = larger;
            }
        }
        let mut best = 0;
        for &key in top.iter() {
            best = best.max(self.rescored(key, conflicts));
        }
        best
    }

    /// A pair's key from [`Board::best_pair`]'s scan (its open peers, doubled, above its
    /// reversed place; zero for none) with its score raised by its two-candidate peers that
    /// share a digit with it, each counted once and doubled like the open peers (such a peer is
    /// left with one candidate in the child that takes that digit, so the child's propagation
    /// goes further), and by the conflict weights of its two digits.
    #[inline(always)]
    fn rescored(&self, key: u32, conflicts: &Conflicts) -> u32 {
        if key == 0 {
            return 0;
        }
        let place = 0xff - (key & 0xff);
        let (band, index) = ((place >> 5) as usize, (place & 31) as usize);
        let digits = self.digits_of(band, 1 << index);
        let (low, high) = (
            digits.trailing_zeros() as usize,
            15 - digits.leading_zeros() as usize,
        );
        let sharing = |band: usize| {
            self.pairs[band]
                & self.unsolved[band]
                & (self.candidates[slot(low, band)] | self.candidates[slot(high, band)])
        };
        let in_band = PEERS_IN_BAND[index] & sharing(band);
        let column = COLUMN_OF_CELL[index];
        let [next, after] = OTHER_BANDS[band];
        let in_column = (sharing(next) >> column & COLUMN) + (sharing(after) >> column & COLUMN);
        let score = 2 * count_peers(in_band, in_column) + conflicts.of_pair(band, low, high);
        key + (score.min(0xffff) << 8)
    }

    /// The number of cells not yet placed.
    pub(super) fn open_cells(&self) -> u32 {
        self.unsolved.iter().map(|cells| cells.count_ones()).sum()
    }

    pub(super) fn to_grid(self) -> Grid {
        let mut cells = [0u8; 81];
        for band in 0..3 {
            for digit in 0..9 {
                let mut rest = self.candidates[slot(digit, band)];
                while rest != 0 {
                    cells[27 * band + rest.trailing_zeros() as usize] = digit as u8 + 1;
                    rest &= rest - 1;
                }
            }
        }
        Grid::from_known_digits(cells)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_contradiction_weighs_its_slot_twice_and_its_digit_in_the_other_bands_once() {
        let mut conflicts = Conflicts::NONE;
        conflicts.note(0);
        assert!(!conflicts.any);
        conflicts.note(1 << slot(3, 1));
        conflicts.note(1 << slot(3, 1));
        conflicts.note(1 << slot(5, 2));
        assert!(conflicts.any);
        assert_eq!(conflicts.weight[slot(3, 1)], 4);
        assert_eq!(conflicts.weight[slot(3, 0)], 2);
        assert_eq!(conflicts.weight[slot(3, 2)], 2);
        assert_eq!(conflicts.weight[slot(5, 2)], 2);
        assert_eq!(conflicts.weight[slot(5, 0)], 1);
        assert_eq!(conflicts.of_pair(1, 3, 5), 4 + 1);
        let total: u32 = conflicts.weight.iter().map(|&w| u32::from(w)).sum();
        assert_eq!(total, 2 * 4 + 4);
    }

    #[test]
    fn branching_turns_to_a_pair_whose_digit_keeps_failing() {
        // Easter Monster, taken down its search's first branches until it has several pairs.
        let puzzle =
            "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1";
        let mut board = Board::new(&puzzle.parse().expect("a puzzle")).expect("no clash");
        assert!(board.propagate());
        let open_pairs = |board: &Board| -> u32 {
            (0..3)
                .map(|band| (board.pairs[band] & board.unsolved[band]).count_ones())
                .sum()
        };
        while open_pairs(&board) < 6 {
            let (band, cell) = board.first_open_cell();
            let digits = board.digits_of(band, cell);
            let digit = digits.trailing_zeros() as usize;
            let mut child = board;
            child.place(digit, band, cell, digits);
            if child.propagate() && !child.is_solved() {
                board = child;
            } else {
                board.remove_candidate(digit, band, cell);
                assert!(board.propagate());
            }
        }
        let unweighted = board.branch_cell(Branching::FewestCandidates, &Conflicts::NONE);
        let mut turned = 0;
        for failing in 0..27 {
            let mut conflicts = Conflicts::NONE;
            for _ in 0..100 {
                conflicts.note(1 << failing);
            }
            let (band, cell) = board.branch_cell(Branching::FewestCandidates, &conflicts);
            if (band, cell) != unweighted {
                // Only a pair that holds the failing digit can outweigh the open peers.
                let digits = board.digits_of(band, cell);
                assert_eq!(digits.count_ones(), 2);
                assert_ne!(digits & 1 << (failing % 9), 0, "slot {}", failing);
                turned += 1;
            }
        }
        assert!(turned > 0, "no conflict weight changed the branching");
    }
}
