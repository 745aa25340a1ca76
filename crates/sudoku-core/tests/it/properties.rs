//! Property tests of the three grid formats, the in-suite twin of `fuzz/fuzz_targets/grid.rs`
//! (seeded, a few thousand cases, so CI runs them): every grid prints and reads back as itself
//! in every format, and any edit of a valid text either reads or fails with a position inside
//! the text, never a panic.

use sudoku_core::{Format, Grid, ParseError};

const FORMATS: [Format; 3] = [Format::Line, Format::Rows, Format::Spaced];

/// A known solution; grids are drawn from it by relabelling digits and blanking cells.
const SOLUTION: &str =
    "143628579572139468986754231391542786468917352725863914237481695619275843854396127";

/// SplitMix64, so that a failure names a seed that repeats it.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A valid puzzle: the solution with its digits relabelled and a random share of cells blank.
fn random_grid(rng: &mut Rng) -> Grid {
    let mut labels: Vec<u8> = (1..=9).collect();
    for i in (1..9).rev() {
        labels.swap(i, rng.below(i + 1));
    }
    let keep = rng.below(82);
    let mut cells = [0u8; 81];
    for (i, digit) in SOLUTION.bytes().enumerate() {
        if rng.below(81) < keep {
            cells[i] = labels[(digit - b'1') as usize];
        }
    }
    Grid::from_cells(cells).unwrap()
}

#[test]
fn every_grid_prints_and_reads_back_as_itself_in_every_format() {
    let mut rng = Rng(2239);
    for _ in 0..2000 {
        let grid = random_grid(&mut rng);
        for format in FORMATS {
            let printed = grid.display(format).to_string();
            assert_eq!(Grid::parse_as(&printed, format), Ok(grid), "{printed}");
            assert_eq!(Grid::parse(&printed), Ok(grid), "{printed}");
            // The tolerances: CRLF, trailing spaces and blank lines.
            let loose = printed.replace('\n', " \r\n") + "\r\n\n";
            assert_eq!(Grid::parse_as(&loose, format), Ok(grid), "{loose:?}");
        }
    }
}

#[test]
fn an_edited_text_reads_or_fails_at_a_real_position() {
    let alphabet: Vec<char> = "0123456789. \n\r\tx9é".chars().collect();
    let mut rng = Rng(2580);
    for _ in 0..5000 {
        let grid = random_grid(&mut rng);
        let format = FORMATS[rng.below(3)];
        let mut text: Vec<char> = grid.display(format).to_string().chars().collect();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(text.len() + 1);
            match rng.below(3) {
                0 if at < text.len() => {
                    text.remove(at);
                }
                1 if at < text.len() => text[at] = alphabet[rng.below(alphabet.len())],
                _ => text.insert(at, alphabet[rng.below(alphabet.len())]),
            }
        }
        let text: String = text.into_iter().collect();
        for result in [
            Grid::parse(&text),
            Grid::parse_as(&text, Format::Line),
            Grid::parse_as(&text, Format::Rows),
            Grid::parse_as(&text, Format::Spaced),
        ] {
            match result {
                Ok(read) => {
                    for format in FORMATS {
                        let printed = read.display(format).to_string();
                        assert_eq!(Grid::parse_as(&printed, format), Ok(read));
                    }
                }
                Err(err) => assert_real_position(&err, &text),
            }
        }
    }
}

/// The line and column an error names lie inside `text` (a column may be one past the end of
/// its line, where a cell is missing), and an invalid character is the one found there.
fn assert_real_position(err: &ParseError, text: &str) {
    let lines: Vec<&str> = text.split('\n').collect();
    let (line, column) = match *err {
        ParseError::CellCount { line, .. } => (line, None),
        ParseError::InvalidChar { line, column, ch } => {
            let found = lines[line - 1]
                .trim_end_matches('\r')
                .chars()
                .nth(column - 1);
            assert_eq!(found, Some(ch), "{err} in {text:?}");
            (line, Some(column))
        }
        ParseError::MissingSeparator { line, column } => (line, Some(column)),
        _ => return,
    };
    assert!((1..=lines.len()).contains(&line), "{err} in {text:?}");
    if let Some(column) = column {
        let length = lines[line - 1].chars().count();
        assert!((1..=length + 1).contains(&column), "{err} in {text:?}");
    }
}
