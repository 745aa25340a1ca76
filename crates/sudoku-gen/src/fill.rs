//! Random complete grids: a small backtracker of our own (fewest candidates first, digits in
//! random order), so the grids depend only on the seed, never on the core's search order.

use sudoku_core::Grid;

use crate::rng::Rng;

/// A uniformly shuffled search's first complete grid: random, though not exactly uniform over
/// all 6.67·10²¹ grids (no generator that is cheap is).
pub fn random_solution(rng: &mut Rng) -> Grid {
    let mut fill = Fill {
        cells: [0; 81],
        rows: [0; 9],
        cols: [0; 9],
        boxes: [0; 9],
    };
    assert!(fill.search(rng), "the empty grid always has a solution");
    Grid::from_cells(fill.cells).expect("digits 1-9")
}

struct Fill {
    cells: [u8; 81],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
}

impl Fill {
    fn candidates(&self, index: usize) -> u16 {
        let (r, c) = (index / 9, index % 9);
        !(self.rows[r] | self.cols[c] | self.boxes[r / 3 * 3 + c / 3]) & 0x3FE
    }

    fn search(&mut self, rng: &mut Rng) -> bool {
        let mut best: Option<(usize, u16)> = None;
        for index in 0..81 {
            if self.cells[index] != 0 {
                continue;
            }
            let candidates = self.candidates(index);
            if best.is_none_or(|(_, b)| candidates.count_ones() < b.count_ones()) {
                best = Some((index, candidates));
                if candidates.count_ones() <= 1 {
                    break;
                }
            }
        }
        let Some((index, candidates)) = best else {
            return true;
        };
        let mut digits: Vec<u8> = (1..=9).filter(|d| candidates & (1 << d) != 0).collect();
        rng.shuffle(&mut digits);
        let (r, c) = (index / 9, index % 9);
        let b = r / 3 * 3 + c / 3;
        for digit in digits {
            let bit = 1u16 << digit;
            self.cells[index] = digit;
            self.rows[r] |= bit;
            self.cols[c] |= bit;
            self.boxes[b] |= bit;
            if self.search(rng) {
                return true;
            }
            self.rows[r] &= !bit;
            self.cols[c] &= !bit;
            self.boxes[b] &= !bit;
        }
        self.cells[index] = 0;
        false
    }
}
