//! The 9x9 `Grid` and the text formats it is read from and printed in.

use std::fmt;
use std::str::FromStr;

use crate::cell::{Cell, Conflict, Unit};
use crate::error::ParseError;

/// The text formats a grid is read from and printed in.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Format {
    /// Nine lines of nine digits, `0` for a blank (BOJ 2239).
    Rows,
    /// Nine lines of nine digits separated by spaces, `0` for a blank (BOJ 2580).
    Spaced,
    /// One line of 81 characters, `.` or `0` for a blank (public puzzle collections).
    Line,
}

/// A 9x9 Sudoku grid: each cell holds a digit 1–9 or is blank.
///
/// Data layout: 81 bytes in row-major order, `0` for a blank.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Grid {
    cells: [u8; 81],
}

impl Grid {
    /// The grid with every cell blank.
    pub const EMPTY: Grid = Grid { cells: [0; 81] };

    /// The grid with these cells (row-major, `0` for a blank), or `None` when a value is over 9.
    pub fn from_cells(cells: [u8; 81]) -> Option<Grid> {
        if cells.iter().all(|&d| d <= 9) {
            Some(Grid { cells })
        } else {
            None
        }
    }

    /// The grid with these cells, which the caller knows to be digits 1-9: a solved board
    /// holds nothing else, and skipping [`Grid::from_cells`]' check made `solve` faster
    /// (measured: docs/solver-journal.md, "Why the code is as it is").
    pub(crate) fn from_known_digits(cells: [u8; 81]) -> Grid {
        debug_assert!(cells.iter().all(|&digit| (1..=9).contains(&digit)));
        Grid { cells }
    }

    /// The cells in row-major order, `0` for a blank.
    pub fn cells(&self) -> &[u8; 81] {
        &self.cells
    }

    /// The digit at `cell`, `None` when it is blank.
    pub fn get(&self, cell: Cell) -> Option<u8> {
        match self.cells[cell.index()] {
            0 => None,
            digit => Some(digit),
        }
    }

    /// Puts `digit` at `cell`; `None` blanks it.
    ///
    /// # Panics
    /// When `digit` is over 9.
    pub fn set(&mut self, cell: Cell, digit: Option<u8>) {
        let digit = digit.unwrap_or(0);
        assert!(digit <= 9, "a Sudoku digit is 1-9, not {}", digit);
        self.cells[cell.index()] = digit;
    }

    /// Number of cells that hold a digit.
    pub fn given_count(&self) -> usize {
        self.cells.iter().filter(|&&d| d != 0).count()
    }

    /// Whether no cell is blank.
    pub fn is_filled(&self) -> bool {
        self.cells.iter().all(|&d| d != 0)
    }

    /// The first pair of cells (by the second cell's row-major position) that hold the same digit
    /// in one row, column or box.
    pub fn find_conflict(&self) -> Option<Conflict> {
        // For each unit, the first cell seen with each digit.
        let mut seen = [[None::<Cell>; 9]; 27];
        for index in 0..81 {
            let digit = self.cells[index];
            if digit == 0 {
                continue;
            }
            let cell = Cell::from_index(index);
            let units = [
                Unit::Row(cell.row() as u8),
                Unit::Column(cell.column() as u8),
                Unit::Box(cell.box_index() as u8),
            ];
            for (slot, unit) in [cell.row(), 9 + cell.column(), 18 + cell.box_index()]
                .iter()
                .zip(units.iter())
            {
                let first = &mut seen[*slot][digit as usize - 1];
                match *first {
                    Some(first) => {
                        return Some(Conflict {
                            digit,
                            unit: *unit,
                            first,
                            second: cell,
                        })
                    }
                    None => *first = Some(cell),
                }
            }
        }
        None
    }

    /// Reads a grid in whichever of the three [`Format`]s the text is in.
    ///
    /// One line without spaces is the 81-character format; lines with spaces are the spaced format;
    /// anything else is read as rows of digits. CRLF line ends, trailing spaces, trailing blank lines
    /// and a missing final newline are accepted, `.` and `0` both mean a blank, and givens that
    /// repeat in a row, column or box are an error.
    pub fn parse(text: &str) -> Result<Grid, ParseError> {
        let lines = content_lines(text);
        let format = match lines.as_slice() {
            [] => return Err(ParseError::Empty),
            [only] if !only.contains(char::is_whitespace) => Format::Line,
            [first, ..] if first.contains(char::is_whitespace) => Format::Spaced,
            _ => Format::Rows,
        };
        parse_lines(&lines, format)
    }

    /// Reads a grid in the given format only; see [`Grid::parse`] for what is tolerated.
    pub fn parse_as(text: &str, format: Format) -> Result<Grid, ParseError> {
        parse_lines(&content_lines(text), format)
    }

    /// The grid printed in `format`, without a final newline.
    ///
    /// ```
    /// use sudoku_core::{Format, Grid};
    /// let empty = Grid::EMPTY;
    /// assert_eq!(empty.display(Format::Line).to_string(), ".".repeat(81));
    /// assert!(empty.display(Format::Spaced).to_string().starts_with("0 0 0 0 0 0 0 0 0\n0 0"));
    /// ```
    pub fn display(&self, format: Format) -> Display<'_> {
        Display { grid: self, format }
    }
}

impl FromStr for Grid {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Grid, ParseError> {
        Grid::parse(text)
    }
}

/// Rows of digits, as BOJ 2239 prints it.
impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid(\n{}\n)", self.display(Format::Rows))
    }
}

/// A [`Grid`] printed in a chosen [`Format`]; see [`Grid::display`].
#[derive(Clone, Copy, Debug)]
pub struct Display<'a> {
    grid: &'a Grid,
    format: Format,
}

impl fmt::Display for Display<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Built in one buffer and written once: output goes through this on the judge's hot path.
        let mut text = String::with_capacity(2 * 81);
        for (index, &digit) in self.grid.cells.iter().enumerate() {
            let (row, column) = (index / 9, index % 9);
            match self.format {
                Format::Line => text.push(if digit == 0 {
                    '.'
                } else {
                    char::from(b'0' + digit)
                }),
                Format::Rows | Format::Spaced => {
                    if column == 0 && row > 0 {
                        text.push('\n');
                    } else if column > 0 && self.format == Format::Spaced {
                        text.push(' ');
                    }
                    text.push(char::from(b'0' + digit));
                }
            }
        }
        f.write_str(&text)
    }
}

/// The input's lines without line ends and trailing whitespace, trailing blank lines dropped.
fn content_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.split('\n').map(str::trim_end).collect();
    while lines.last() == Some(&"") {
        lines.pop();
    }
    lines
}

fn parse_lines(lines: &[&str], format: Format) -> Result<Grid, ParseError> {
    if lines.is_empty() {
        return Err(ParseError::Empty);
    }
    let mut cells = [0u8; 81];
    let mut filled = 0;
    match format {
        Format::Line => {
            if lines.len() > 1 {
                return Err(ParseError::RowCount {
                    expected: 1,
                    found: lines.len(),
                });
            }
            filled = read_digits(lines[0], 1, 81, &mut cells)?;
        }
        Format::Rows | Format::Spaced => {
            for (i, line) in lines.iter().take(9).enumerate() {
                let row = &mut cells[i * 9..i * 9 + 9];
                filled += if format == Format::Rows {
                    read_digits(line, i + 1, 9, row)?
                } else {
                    read_spaced(line, i + 1, row)?
                };
            }
            if lines.len() != 9 {
                return Err(ParseError::RowCount {
                    expected: 9,
                    found: lines.len(),
                });
            }
        }
    }
    debug_assert_eq!(filled, 81);
    let grid = Grid { cells };
    match grid.find_conflict() {
        Some(conflict) => Err(ParseError::RepeatedGiven(conflict)),
        None => Ok(grid),
    }
}

/// The value of a cell character: `Some(0)` for a blank, `None` when it is no cell at all.
fn cell_value(ch: char) -> Option<u8> {
    match ch {
        '.' => Some(0),
        '0'..='9' => Some(ch as u8 - b'0'),
        _ => None,
    }
}

/// Reads `line` (number `line_number`) as exactly `expected` adjacent cell characters.
fn read_digits(
    line: &str,
    line_number: usize,
    expected: usize,
    out: &mut [u8],
) -> Result<usize, ParseError> {
    let mut count = 0;
    for (i, ch) in line.chars().enumerate() {
        let value = cell_value(ch).ok_or(ParseError::InvalidChar {
            line: line_number,
            column: i + 1,
            ch,
        })?;
        if count < expected {
            out[count] = value;
        }
        count += 1;
    }
    if count != expected {
        return Err(ParseError::CellCount {
            line: line_number,
            expected,
            found: count,
        });
    }
    Ok(count)
}

/// Reads `line` as nine cell characters separated by spaces or tabs.
fn read_spaced(line: &str, line_number: usize, out: &mut [u8]) -> Result<usize, ParseError> {
    let mut count = 0;
    let mut previous_was_cell = false;
    for (i, ch) in line.chars().enumerate() {
        if ch == ' ' || ch == '\t' {
            previous_was_cell = false;
            continue;
        }
        let position = (line_number, i + 1);
        let value = cell_value(ch).ok_or(ParseError::InvalidChar {
            line: position.0,
            column: position.1,
            ch,
        })?;
        if previous_was_cell {
            return Err(ParseError::MissingSeparator {
                line: position.0,
                column: position.1,
            });
        }
        if count < 9 {
            out[count] = value;
        }
        count += 1;
        previous_was_cell = true;
    }
    if count != 9 {
        return Err(ParseError::CellCount {
            line: line_number,
            expected: 9,
            found: count,
        });
    }
    Ok(count)
}
