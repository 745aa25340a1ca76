//! Places on the grid: a cell, a unit (row, column or box), and two cells of a unit that hold
//! the same digit. The words the grid, its errors and the solution check share.

use std::fmt;

/// A cell of the grid, by row-major index 0–80.
///
/// Displayed for people as `row R, column C`, both counted from 1.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Cell(u8);

impl Cell {
    /// The cell at `row` and `column`, both counted from 0.
    ///
    /// # Panics
    /// When `row` or `column` is 9 or more.
    pub fn new(row: usize, column: usize) -> Cell {
        assert!(row < 9 && column < 9, "row and column are 0-8");
        Cell((row * 9 + column) as u8)
    }

    /// The cell with row-major `index` (0–80).
    ///
    /// # Panics
    /// When `index` is 81 or more.
    pub fn from_index(index: usize) -> Cell {
        assert!(index < 81, "a cell index is 0-80");
        Cell(index as u8)
    }

    /// Row-major index, 0–80.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Row, counted from 0.
    pub fn row(self) -> usize {
        self.index() / 9
    }

    /// Column, counted from 0.
    pub fn column(self) -> usize {
        self.index() % 9
    }

    /// Box, counted from 0 in row-major order of boxes.
    pub fn box_index(self) -> usize {
        self.row() / 3 * 3 + self.column() / 3
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "row {}, column {}", self.row() + 1, self.column() + 1)
    }
}

/// A row, column or box: a group of nine cells that must hold nine different digits.
/// The index inside is counted from 0; the display counts from 1.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Unit {
    /// A row, 0–8 from the top.
    Row(u8),
    /// A column, 0–8 from the left.
    Column(u8),
    /// A 3x3 box, 0–8 in row-major order.
    Box(u8),
}

impl Unit {
    /// The nine cells of the unit, in row-major order.
    pub fn cells(self) -> [Cell; 9] {
        let mut cells = [Cell(0); 9];
        for (i, cell) in cells.iter_mut().enumerate() {
            *cell = match self {
                Unit::Row(r) => Cell::new(r as usize, i),
                Unit::Column(c) => Cell::new(i, c as usize),
                Unit::Box(b) => {
                    let (b, i) = (b as usize, i);
                    Cell::new(b / 3 * 3 + i / 3, b % 3 * 3 + i % 3)
                }
            };
        }
        cells
    }

    /// All 27 units: rows, then columns, then boxes.
    pub fn all() -> impl Iterator<Item = Unit> {
        (0..9u8)
            .map(Unit::Row)
            .chain((0..9u8).map(Unit::Column))
            .chain((0..9u8).map(Unit::Box))
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Unit::Row(i) => write!(f, "row {}", i + 1),
            Unit::Column(i) => write!(f, "column {}", i + 1),
            Unit::Box(i) => write!(f, "box {}", i + 1),
        }
    }
}

/// Two cells of one unit holding the same digit.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Conflict {
    /// The repeated digit.
    pub digit: u8,
    /// The row, column or box both cells belong to.
    pub unit: Unit,
    /// The earlier cell in row-major order.
    pub first: Cell,
    /// The later cell.
    pub second: Cell,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} appears twice in {}: at {} and at {}",
            self.digit, self.unit, self.first, self.second
        )
    }
}
