//! Reading and printing the three formats: what is tolerated, and each error with its position.

use sudoku_core::{Cell, Conflict, Format, Grid, ParseError, Unit};

const SAMPLE_ROWS: &str = "103000509\n002109400\n000704000\n300502006\n060000050\n700803004\n000401000\n009205800\n804000107\n";

fn sample() -> Grid {
    Grid::parse(SAMPLE_ROWS).unwrap()
}

fn spaced(rows: &str) -> String {
    rows.lines()
        .map(|line| {
            let digits: Vec<String> = line.chars().map(String::from).collect();
            digits.join(" ") + "\n"
        })
        .collect()
}

#[test]
fn three_formats_read_the_same_grid() {
    let grid = sample();
    assert_eq!(grid.given_count(), 30);
    assert_eq!(grid.get(Cell::new(0, 0)), Some(1));
    assert_eq!(grid.get(Cell::new(0, 1)), None);
    let line: String = SAMPLE_ROWS.lines().collect::<String>().replace('0', ".");
    assert_eq!(Grid::parse(&line), Ok(grid));
    assert_eq!(Grid::parse(&spaced(SAMPLE_ROWS)), Ok(grid));
    assert_eq!(
        Grid::parse_as(&spaced(SAMPLE_ROWS), Format::Spaced),
        Ok(grid)
    );
    assert_eq!(Grid::parse_as(SAMPLE_ROWS, Format::Rows), Ok(grid));
    assert_eq!(Grid::parse_as(&line, Format::Line), Ok(grid));
}

#[test]
fn printing_round_trips_in_every_format() {
    let grid = sample();
    assert_eq!(format!("{}\n", grid.display(Format::Rows)), SAMPLE_ROWS);
    assert_eq!(
        format!("{}\n", grid.display(Format::Spaced)),
        spaced(SAMPLE_ROWS)
    );
    let line = grid.display(Format::Line).to_string();
    assert_eq!(line.len(), 81);
    assert!(line.starts_with("1.3...5.9..21.94"));
    for format in [Format::Rows, Format::Spaced, Format::Line] {
        let text = grid.display(format).to_string();
        assert_eq!(Grid::parse_as(&text, format), Ok(grid), "{:?}", format);
    }
}

#[test]
fn crlf_trailing_spaces_blank_lines_and_missing_newline_are_accepted() {
    let grid = sample();
    let crlf = SAMPLE_ROWS.replace('\n', "\r\n");
    assert_eq!(Grid::parse(&crlf), Ok(grid));
    let trailing: String = SAMPLE_ROWS
        .lines()
        .map(|l| format!("{} \t \r\n", l))
        .collect();
    assert_eq!(Grid::parse(&trailing), Ok(grid));
    assert_eq!(Grid::parse(&format!("{}\n\n  \n", SAMPLE_ROWS)), Ok(grid));
    assert_eq!(Grid::parse(SAMPLE_ROWS.trim_end()), Ok(grid));
    let spaced_crlf = spaced(SAMPLE_ROWS).replace('\n', "  \r\n");
    assert_eq!(Grid::parse(spaced_crlf.trim_end()), Ok(grid));
    assert_eq!(
        Grid::parse(&format!("{}\r\n", grid.display(Format::Line))),
        Ok(grid)
    );
}

#[test]
fn empty_input() {
    assert_eq!(Grid::parse(""), Err(ParseError::Empty));
    assert_eq!(Grid::parse(" \n\r\n"), Err(ParseError::Empty));
    assert_eq!(ParseError::Empty.to_string(), "the input is empty");
}

#[test]
fn wrong_number_of_rows() {
    let eight: String = SAMPLE_ROWS
        .lines()
        .take(8)
        .map(|l| format!("{}\n", l))
        .collect();
    let err = Grid::parse(&eight).unwrap_err();
    assert_eq!(
        err,
        ParseError::RowCount {
            expected: 9,
            found: 8
        }
    );
    assert_eq!(err.to_string(), "expected 9 lines, found 8");
    let ten = format!("{}000000000\n", SAMPLE_ROWS);
    assert_eq!(
        Grid::parse(&ten),
        Err(ParseError::RowCount {
            expected: 9,
            found: 10
        })
    );
    let two_lines = format!("{}\n{}", ".".repeat(81), ".".repeat(81));
    assert_eq!(
        Grid::parse_as(&two_lines, Format::Line),
        Err(ParseError::RowCount {
            expected: 1,
            found: 2
        })
    );
}

#[test]
fn wrong_number_of_cells() {
    let short = SAMPLE_ROWS.replacen("002109400", "00210940", 1);
    let err = Grid::parse(&short).unwrap_err();
    assert_eq!(
        err,
        ParseError::CellCount {
            line: 2,
            expected: 9,
            found: 8
        }
    );
    assert_eq!(err.to_string(), "line 2: expected 9 cells, found 8");
    let long_spaced = spaced(SAMPLE_ROWS).replacen("0 0 2 1 0 9 4 0 0", "0 0 2 1 0 9 4 0 0 0", 1);
    assert_eq!(
        Grid::parse(&long_spaced),
        Err(ParseError::CellCount {
            line: 2,
            expected: 9,
            found: 10
        })
    );
    assert_eq!(
        Grid::parse(&".".repeat(80)),
        Err(ParseError::CellCount {
            line: 1,
            expected: 81,
            found: 80
        })
    );
    let blank_line_inside = SAMPLE_ROWS.replacen("000704000\n", "\n000704000\n", 1);
    assert!(matches!(
        Grid::parse(&blank_line_inside),
        Err(ParseError::CellCount {
            line: 3,
            found: 0,
            ..
        })
    ));
}

#[test]
fn characters_that_are_not_digits() {
    let bad = SAMPLE_ROWS.replacen("000704000", "0007x4000", 1);
    let err = Grid::parse(&bad).unwrap_err();
    assert_eq!(
        err,
        ParseError::InvalidChar {
            line: 3,
            column: 5,
            ch: 'x'
        }
    );
    assert_eq!(
        err.to_string(),
        "line 3, column 5: expected a digit 0-9 or '.', found 'x'"
    );
    let bad_spaced = spaced(SAMPLE_ROWS).replacen("3 0 0 5", "3 0 - 5", 1);
    assert_eq!(
        Grid::parse(&bad_spaced),
        Err(ParseError::InvalidChar {
            line: 4,
            column: 5,
            ch: '-'
        })
    );
    let mut line = ".".repeat(81);
    line.replace_range(40..41, "*");
    assert_eq!(
        Grid::parse(&line),
        Err(ParseError::InvalidChar {
            line: 1,
            column: 41,
            ch: '*'
        })
    );
    // A space inside a row of digits is not a digit either.
    let rows_with_space = SAMPLE_ROWS.replacen("060000050", "06000 050", 1);
    assert_eq!(
        Grid::parse_as(&rows_with_space, Format::Rows),
        Err(ParseError::InvalidChar {
            line: 5,
            column: 6,
            ch: ' '
        })
    );
}

#[test]
fn spaced_cells_must_be_separated() {
    let joined = spaced(SAMPLE_ROWS).replacen("7 0 0 8 0 3", "7 0 08 0 3", 1);
    let err = Grid::parse(&joined).unwrap_err();
    assert_eq!(err, ParseError::MissingSeparator { line: 6, column: 6 });
    assert_eq!(
        err.to_string(),
        "line 6, column 6: expected a space between two cells"
    );
}

#[test]
fn repeated_givens_name_both_cells() {
    // A second 1 in row 1.
    let row = SAMPLE_ROWS.replacen("103000509", "103000519", 1);
    let err = Grid::parse(&row).unwrap_err();
    let expected = Conflict {
        digit: 1,
        unit: Unit::Row(0),
        first: Cell::new(0, 0),
        second: Cell::new(0, 7),
    };
    assert_eq!(err, ParseError::RepeatedGiven(expected));
    assert_eq!(
        err.to_string(),
        "invalid puzzle: 1 appears twice in row 1: at row 1, column 1 and at row 1, column 8"
    );
    // A 3 below the 3 of row 4 column 1: a column clash.
    let column = SAMPLE_ROWS.replacen("060000050", "360000050", 1);
    assert!(matches!(
        Grid::parse(&column),
        Err(ParseError::RepeatedGiven(Conflict {
            digit: 3,
            unit: Unit::Column(0),
            ..
        }))
    ));
    // Two 9s in box 3 (rows 1-3, columns 7-9) but in different rows and columns.
    let boxed = SAMPLE_ROWS.replacen("002109400", "002100490", 1);
    let err = Grid::parse(&boxed).unwrap_err();
    assert_eq!(
        err,
        ParseError::RepeatedGiven(Conflict {
            digit: 9,
            unit: Unit::Box(2),
            first: Cell::new(0, 8),
            second: Cell::new(1, 7),
        })
    );
}
