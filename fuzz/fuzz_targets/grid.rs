//! Fuzz target: the three grid formats. Any text: no panic; an error names a line and column
//! inside the text; a grid read in any format prints and reads back as itself in every format.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_core::{Format, Grid, ParseError};

const FORMATS: [Format; 3] = [Format::Line, Format::Rows, Format::Spaced];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let lines: Vec<&str> = text.split('\n').collect();
    let results = [
        Grid::parse(text),
        Grid::parse_as(text, Format::Line),
        Grid::parse_as(text, Format::Rows),
        Grid::parse_as(text, Format::Spaced),
    ];
    for result in results {
        match result {
            Ok(grid) => {
                for format in FORMATS {
                    let printed = grid.display(format).to_string();
                    assert_eq!(
                        Grid::parse_as(&printed, format).as_ref(),
                        Ok(&grid),
                        "{printed}"
                    );
                    assert_eq!(Grid::parse(&printed).as_ref(), Ok(&grid), "{printed}");
                }
            }
            Err(err) => check_position(&err, &lines),
        }
    }
});

/// A line and column in an error point into the text (a column may be one past the line's end,
/// where something is missing).
fn check_position(err: &ParseError, lines: &[&str]) {
    let (line, column) = match *err {
        ParseError::CellCount { line, .. } => (line, None),
        ParseError::InvalidChar { line, column, ch } => {
            let found = lines[line - 1]
                .trim_end_matches('\r')
                .chars()
                .nth(column - 1);
            assert_eq!(found, Some(ch), "{err}");
            (line, Some(column))
        }
        ParseError::MissingSeparator { line, column } => (line, Some(column)),
        _ => return,
    };
    assert!(
        line >= 1 && line <= lines.len(),
        "{err}: {} lines",
        lines.len()
    );
    if let Some(column) = column {
        let length = lines[line - 1].chars().count();
        assert!(
            column >= 1 && column <= length + 1,
            "{err}: line of {length}"
        );
    }
}
