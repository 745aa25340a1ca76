//! Choosing the cell to branch on (a two-candidate cell scored by its open peers, or the first
//! open cell in row-major order), and reading a board: its digits, its open cells, the grid it
//! holds once solved.

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
    pub(super) fn branch_cell(&self, branching: Branching) -> (usize, u32) {
        if branching == Branching::FewestCandidates {
            debug_assert!((0..3).all(|band| {
                let (_, twice, more) = self.candidate_counts(band);
                self.pairs[band] & self.unsolved[band] == twice & !more & self.unsolved[band]
            }));
            // All pairs of the board in one set, band `b` at bits `32b..32b + 27`, so that the
            // scan is one loop whose exit mispredicts once, not once a band, and a place splits
            // into band and cell by shifts. A pair's key is its score above its place,
            // reversed, so the largest key is the first best pair. The scan scores open peers;
            // the two best pairs are then scored again with their two-candidate peers that
            // share a digit (`with_pair_peers`), for fewer nodes on the hard sets. Rescoring
            // every pair saves more nodes but costs more than it saves. (Each measured:
            // docs/solver-journal.md, "Why the code is as it is".)
            let mut pairs = u128::from(self.pairs[0] & self.unsolved[0])
                | u128::from(self.pairs[1] & self.unsolved[1]) << 32
                | u128::from(self.pairs[2] & self.unsolved[2]) << 64;
            // The two largest keys so far, `best` first.
            let (mut best, mut second) = (0, 0);
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
                let key = count_peers(in_band, in_column) << 8 | (0xff - place);
                second = second.max(key.min(best));
                best = best.max(key);
            }
            if best != 0 {
                let best = self.with_pair_peers(best).max(self.with_pair_peers(second));
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
        let band = self.unsolved.iter().position(|&u| u != 0).unwrap_or(0);
        let rest = self.unsolved[band];
        (band, rest & rest.wrapping_neg())
    }

    /// A pair's key from [`Board::branch_cell`] (open peers above its reversed place; zero
    /// for none) with its score raised by its two-candidate peers that share a digit with it,
    /// each counted once: such a peer is left with one candidate in the child that takes
    /// that digit, so the child's propagation goes further.
    #[inline(always)]
    pub(super) fn with_pair_peers(&self, key: u32) -> u32 {
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
        key + (count_peers(in_band, in_column) << 8)
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
