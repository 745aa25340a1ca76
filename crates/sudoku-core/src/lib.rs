//! `sudoku-core`: 9x9 Sudoku grids read from and printed in the formats BOJ and public puzzle
//! collections use, solved fast (any solution) or to the lexicographically smallest solution,
//! solutions counted, and filled grids checked, with typed errors for bad input.
//!
//! std only and no dependencies: this crate is bundled into single-file BOJ submissions, so it
//! keeps to Rust 1.56 syntax and std.
//!
//! ```
//! use sudoku_core::{check_solution, count_solutions, solve_lexmin, Format, Grid};
//!
//! let puzzle: Grid = "\
//! 103000509
//! 002109400
//! 000704000
//! 300502006
//! 060000050
//! 700803004
//! 000401000
//! 009205800
//! 804000107
//! ".parse()?;
//! let smallest = solve_lexmin(&puzzle).expect("BOJ's sample is solvable");
//! assert_eq!(check_solution(&puzzle, &smallest), Ok(()));
//! assert!(smallest.display(Format::Rows).to_string().starts_with("143628579\n"));
//! assert_eq!(count_solutions(&puzzle, 2), 1);
//! # Ok::<(), sudoku_core::ParseError>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod cell;
mod check;
mod digits;
mod error;
mod grid;
mod search;

pub use cell::{Cell, Conflict, Unit};
pub use check::check_solution;
pub use digits::{DigitSet, Digits};
pub use error::{CheckError, ParseError};
pub use grid::{Display, Format, Grid};
pub use search::{count_solutions, solve, solve_lexmin};

/// The strategies inside [`solve_lexmin`], each alone: for the benchmarks and the tests that
/// compare them, not part of the API.
#[doc(hidden)]
pub use search::strategies;
