//! Typed errors: what is wrong with a puzzle's text, and what is wrong with a proposed solution.

use std::error::Error;
use std::fmt;

use crate::cell::{Cell, Conflict};

/// Why a text is not a Sudoku grid. Lines and columns are counted from 1, as editors do.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum ParseError {
    /// The text holds nothing but whitespace.
    Empty,
    /// The text has the wrong number of lines (after trailing blank lines are dropped).
    RowCount {
        /// 9, or 1 for the one-line format.
        expected: usize,
        /// Lines found.
        found: usize,
    },
    /// A line holds the wrong number of cells.
    CellCount {
        /// The line, from 1.
        line: usize,
        /// 9, or 81 for the one-line format.
        expected: usize,
        /// Cells found.
        found: usize,
    },
    /// A character that is neither a digit, nor `.`, nor (in the spaced format) a separator.
    InvalidChar {
        /// The line, from 1.
        line: usize,
        /// The column (in characters), from 1.
        column: usize,
        /// The character.
        ch: char,
    },
    /// Two cells not separated by a space in the spaced format.
    MissingSeparator {
        /// The line, from 1.
        line: usize,
        /// The column of the second cell, from 1.
        column: usize,
    },
    /// A given repeats in a row, column or box.
    RepeatedGiven(Conflict),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => write!(f, "the input is empty"),
            ParseError::RowCount { expected, found } => {
                write!(f, "expected {} lines, found {}", expected, found)
            }
            ParseError::CellCount {
                line,
                expected,
                found,
            } => write!(
                f,
                "line {}: expected {} cells, found {}",
                line, expected, found
            ),
            ParseError::InvalidChar { line, column, ch } => write!(
                f,
                "line {}, column {}: expected a digit 0-9 or '.', found {:?}",
                line, column, ch
            ),
            ParseError::MissingSeparator { line, column } => write!(
                f,
                "line {}, column {}: expected a space between two cells",
                line, column
            ),
            ParseError::RepeatedGiven(conflict) => write!(f, "invalid puzzle: {}", conflict),
        }
    }
}

impl Error for ParseError {}

/// Why a grid is not a valid completion of a puzzle.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum CheckError {
    /// A cell of the answer is blank.
    Blank(Cell),
    /// The answer changes a given of the puzzle.
    GivenChanged {
        /// Where.
        cell: Cell,
        /// The puzzle's digit.
        given: u8,
        /// The answer's digit.
        found: u8,
    },
    /// A digit repeats in a row, column or box of the answer.
    Repeated(Conflict),
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::Blank(cell) => write!(f, "{} is blank", cell),
            CheckError::GivenChanged { cell, given, found } => {
                write!(f, "{} holds {} but the puzzle gives {}", cell, found, given)
            }
            CheckError::Repeated(conflict) => write!(f, "{}", conflict),
        }
    }
}

impl Error for CheckError {}
