//! Puzzle fixtures: the files in `tests/data/`, the public sets in `../shared/data/puzzles/` when
//! present, and puzzles made from them (digit relabelling, clue removal) with a seeded generator.

use std::path::PathBuf;

use sudoku_core::Grid;

/// `tests/data/NAME`, one puzzle a line.
pub fn data(name: &str) -> Vec<Grid> {
    parse_lines(&read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(name),
    ))
}

pub fn read(path: PathBuf) -> String {
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {}", path.display(), e))
}

pub fn parse_lines(text: &str) -> Vec<Grid> {
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            Grid::parse(line).unwrap_or_else(|e| panic!("line {}: {}: {}", i + 1, line, e))
        })
        .collect()
}

/// `../shared/data/puzzles/` beside the project, when this checkout has it.
pub fn shared_puzzles() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/puzzles");
    dir.is_dir().then_some(dir)
}

/// A small deterministic generator (SplitMix64), so fixtures are the same on every run.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `grid` with its digits renamed so that `solution`'s first row reads 9 8 7 6 5 4 3 2 1: the
/// smallest digits are tried last by row-major search, the worst order for it.
pub fn relabel_against_row_major(grid: &Grid, solution: &Grid) -> Grid {
    let mut rename = [0u8; 10];
    for column in 0..9 {
        rename[solution.cells()[column] as usize] = 9 - column as u8;
    }
    let mut cells = *grid.cells();
    for digit in cells.iter_mut() {
        *digit = rename[*digit as usize];
    }
    Grid::from_cells(cells).unwrap()
}

/// `solution` with all but `keep` cells blanked at random: usually a puzzle with many solutions.
pub fn thin_out(solution: &Grid, keep: usize, rng: &mut Rng) -> Grid {
    let mut order: Vec<usize> = (0..81).collect();
    for i in (1..81).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let mut cells = *solution.cells();
    for &cell in &order[keep..] {
        cells[cell] = 0;
    }
    Grid::from_cells(cells).unwrap()
}
