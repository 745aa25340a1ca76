//! The validator: whether a grid is a valid completion of a puzzle. It shares no code with the
//! solver, so tests can use it to judge the solver's answers.

use crate::cell::{Conflict, Unit};
use crate::digits::DigitSet;
use crate::error::CheckError;
use crate::grid::Grid;

/// Checks that `answer` is a valid completion of `puzzle`: no blank cell, every given kept, and
/// every row, column and box holding nine different digits (so each is a permutation of 1–9).
///
/// ```
/// use sudoku_core::{check_solution, CheckError, Grid};
/// let solved = Grid::parse(
///     "123456789\n456789123\n789123456\n214365897\n365897214\n897214365\n531642978\n642978531\n978531642",
/// ).unwrap();
/// assert_eq!(check_solution(&Grid::EMPTY, &solved), Ok(()));
/// let mut broken = solved;
/// broken.set(sudoku_core::Cell::new(0, 0), Some(2));
/// assert!(matches!(check_solution(&Grid::EMPTY, &broken), Err(CheckError::Repeated(_))));
/// ```
pub fn check_solution(puzzle: &Grid, answer: &Grid) -> Result<(), CheckError> {
    for unit in Unit::all() {
        let cells = unit.cells();
        let mut seen = DigitSet::EMPTY;
        for (i, &cell) in cells.iter().enumerate() {
            let digit = match answer.get(cell) {
                Some(digit) => digit,
                None => return Err(CheckError::Blank(cell)),
            };
            if let Some(given) = puzzle.get(cell) {
                if given != digit {
                    return Err(CheckError::GivenChanged {
                        cell,
                        given,
                        found: digit,
                    });
                }
            }
            if seen.contains(digit) {
                let first = cells[..i]
                    .iter()
                    .copied()
                    .find(|&c| answer.get(c) == Some(digit))
                    .expect("a digit seen in the unit is in one of its earlier cells");
                return Err(CheckError::Repeated(Conflict {
                    digit,
                    unit,
                    first,
                    second: cell,
                }));
            }
            seen.insert(digit);
        }
    }
    Ok(())
}
