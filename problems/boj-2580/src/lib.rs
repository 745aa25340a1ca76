//! BOJ 2580's special judge as a function: the checker binary (`src/checker.rs`) and the fuzz
//! target both call [`judge`]. Never part of a submission (the solution, `src/main.rs`, does
//! not use it, so the bundle leaves it out).

use std::fmt;

use sudoku_core::{check_solution, CheckError, Format, Grid, ParseError};

/// Why a contestant's output is not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// The output cannot be read as a grid in the spaced format.
    NotAGrid(ParseError),
    /// A grid, but not a valid completion of the puzzle.
    Wrong(CheckError),
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::NotAGrid(err) => write!(f, "output is not a grid: {}", err),
            Rejection::Wrong(err) => write!(f, "{}", err),
        }
    }
}

/// Accepts `output` when it is a valid completion of `puzzle` in the spaced format (any
/// solution: BOJ 2580 is special-judged).
pub fn judge(puzzle: &Grid, output: &str) -> Result<(), Rejection> {
    match Grid::parse_as(output, Format::Spaced) {
        Ok(grid) => check_solution(puzzle, &grid).map_err(Rejection::Wrong),
        // A digit repeated in the output is a wrong answer like any other, not a format error.
        Err(ParseError::RepeatedGiven(conflict)) => {
            Err(Rejection::Wrong(CheckError::Repeated(conflict)))
        }
        Err(err) => Err(Rejection::NotAGrid(err)),
    }
}
