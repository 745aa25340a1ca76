//! The naive search that anti-backtracking puzzles are built against: row-major order, smallest
//! digit first, one recursive call per cell (BOJ 12095's reference backtracker), with its calls
//! counted and capped.

use sudoku_core::Grid;

/// How many calls the naive search made on a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Nodes {
    /// Calls made (at most the cap).
    pub calls: u64,
    /// Whether the search was stopped at the cap before it finished.
    pub capped: bool,
}

/// Counts the calls a naive backtracker makes to find the first (lexicographically smallest)
/// solution of `puzzle`, or to prove there is none: one call per cell visited, givens included,
/// trying digits 1 to 9 in order in each blank cell, row-major. Stops after `cap` calls.
///
/// A puzzle whose givens clash costs one call. Speed: about 10⁸ calls a second.
pub fn naive_nodes(puzzle: &Grid, cap: u64) -> Nodes {
    let cells = puzzle.cells();
    let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
    // The blanks in row-major order, each with its units and the calls it costs to get from it
    // to the next blank (the givens in between, then the next blank or the final call).
    let mut blanks: Vec<Blank> = Vec::with_capacity(81);
    for (index, &digit) in cells.iter().enumerate() {
        let (r, c, b) = units(index);
        if digit == 0 {
            blanks.push(Blank {
                units: [r as u8, c as u8, b as u8],
                step: 0,
            });
            continue;
        }
        let bit = 1u16 << digit;
        if (rows[r] | cols[c] | boxes[b]) & bit != 0 {
            return Nodes {
                calls: 1.min(cap),
                capped: cap == 0,
            };
        }
        rows[r] |= bit;
        cols[c] |= bit;
        boxes[b] |= bit;
    }
    let positions: Vec<usize> = (0..81).filter(|&i| cells[i] == 0).collect();
    for (k, blank) in blanks.iter_mut().enumerate() {
        let next = positions.get(k + 1).copied().unwrap_or(81);
        blank.step = (next - positions[k]) as u64;
    }
    // visit(0) .. visit(first blank), or .. visit(81) when there is none.
    let mut calls = positions.first().copied().unwrap_or(81) as u64 + 1;
    if calls >= cap {
        return Nodes {
            calls: cap,
            capped: true,
        };
    }
    if blanks.is_empty() {
        return Nodes {
            calls,
            capped: false,
        };
    }
    // placed[k]: the digit now at blank k (0: none yet); the search resumes above it.
    let mut placed = [0u8; 81];
    let mut k = 0usize;
    loop {
        let blank = blanks[k];
        let [r, c, b] = blank.units.map(usize::from);
        let previous = placed[k];
        if previous != 0 {
            let bit = !(1u16 << previous);
            rows[r] &= bit;
            cols[c] &= bit;
            boxes[b] &= bit;
        }
        // Digits above the one tried last, not used in the blank's units.
        let free = !(rows[r] | cols[c] | boxes[b]) & 0x3FE & !((2u16 << previous) - 1);
        if free == 0 {
            placed[k] = 0;
            if k == 0 {
                return Nodes {
                    calls,
                    capped: false,
                };
            }
            k -= 1;
            continue;
        }
        let digit = free.trailing_zeros() as u8;
        let bit = 1u16 << digit;
        rows[r] |= bit;
        cols[c] |= bit;
        boxes[b] |= bit;
        placed[k] = digit;
        calls += blank.step;
        if calls >= cap {
            return Nodes {
                calls: cap,
                capped: true,
            };
        }
        k += 1;
        if k == blanks.len() {
            return Nodes {
                calls,
                capped: false,
            };
        }
    }
}

#[derive(Clone, Copy)]
struct Blank {
    units: [u8; 3],
    step: u64,
}

fn units(index: usize) -> (usize, usize, usize) {
    let (r, c) = (index / 9, index % 9);
    (r, c, r / 3 * 3 + c / 3)
}

/// The recursive search as 12095 writes it, to check the fast count against.
#[cfg(test)]
fn reference_calls(puzzle: &Grid) -> u64 {
    fn visit(cells: &mut [u8; 81], index: usize, calls: &mut u64) -> bool {
        *calls += 1;
        if index == 81 {
            return true;
        }
        if cells[index] != 0 {
            return visit(cells, index + 1, calls);
        }
        for digit in 1..=9u8 {
            let (r, c, _) = units(index);
            let clash = (0..81).any(|j| {
                let (jr, jc, _) = units(j);
                cells[j] == digit && (jr == r || jc == c || (jr / 3 == r / 3 && jc / 3 == c / 3))
            });
            if !clash {
                cells[index] = digit;
                if visit(cells, index + 1, calls) {
                    return true;
                }
                cells[index] = 0;
            }
        }
        false
    }
    let mut cells = *puzzle.cells();
    let mut calls = 0;
    visit(&mut cells, 0, &mut calls);
    calls
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_grid_costs_one_call_per_cell_and_one_to_finish() {
        let full = sudoku_core::solve_lexmin(&Grid::EMPTY).unwrap();
        assert_eq!(
            naive_nodes(&full, u64::MAX),
            Nodes {
                calls: 82,
                capped: false
            }
        );
    }

    #[test]
    fn the_count_matches_the_recursive_search() {
        let mut rng = crate::Rng::new(3);
        let mut puzzles: Vec<Grid> = (0..4).map(|_| crate::unique(&mut rng, Some(34))).collect();
        let sample =
            "103000509002109400000704000300502006060000050700803004000401000009205800804000107";
        puzzles.push(sample.parse().unwrap());
        for grid in &puzzles {
            let calls = reference_calls(grid);
            assert_eq!(
                naive_nodes(grid, u64::MAX),
                Nodes {
                    calls,
                    capped: false
                }
            );
            assert!(naive_nodes(grid, calls - 1).capped);
        }
        // No solution: the whole tree is counted.
        let grid = crate::unsolvable(&mut rng);
        assert_eq!(naive_nodes(&grid, u64::MAX).calls, reference_calls(&grid));
    }

    #[test]
    fn the_cap_stops_the_search() {
        let nodes = naive_nodes(&Grid::EMPTY, 10);
        assert_eq!(
            nodes,
            Nodes {
                calls: 10,
                capped: true
            }
        );
    }
}
