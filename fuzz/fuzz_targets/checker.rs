//! Fuzz target: BOJ 2580's checker reading a contestant's output. Whatever the output, no
//! panic, and an accepted output is, by a check written here from scratch, 81 digits 1-9 that
//! keep every given and repeat in no row, column or box.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_core::Grid;

/// BOJ 2580's sample solution; the puzzle keeps the cells the fuzzer's first bytes choose.
const SOLUTION: &str =
    "135469278782135649469278135321546897874913526596827413917652384643781952258394761";

fuzz_target!(|data: &[u8]| {
    let (mask, output) = data.split_at(data.len().min(11));
    let mut cells = [0u8; 81];
    for (i, digit) in SOLUTION.bytes().enumerate() {
        if mask
            .get(i / 8)
            .is_some_and(|byte| byte & (1 << (i % 8)) != 0)
        {
            cells[i] = digit - b'0';
        }
    }
    let puzzle = Grid::from_cells(cells).expect("digits 0-9");
    let Ok(output) = std::str::from_utf8(output) else {
        return;
    };
    if boj_2580::judge(&puzzle, output).is_ok() {
        assert!(valid_completion(&cells, output), "accepted: {output:?}");
    }
});

/// The output's non-whitespace characters, read as 81 digits 1-9 in row-major order: every
/// unit holds each digit once and every given is where it was.
fn valid_completion(givens: &[u8; 81], output: &str) -> bool {
    let digits: Vec<u8> = output
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_digit(10).map_or(0, |d| d as u8))
        .collect();
    if digits.len() != 81 || digits.iter().any(|&d| d == 0) {
        return false;
    }
    if (0..81).any(|i| givens[i] != 0 && givens[i] != digits[i]) {
        return false;
    }
    (0..9).all(|u| {
        let (mut row, mut column, mut square) = (0u16, 0u16, 0u16);
        for k in 0..9 {
            row |= 1 << digits[u * 9 + k];
            column |= 1 << digits[k * 9 + u];
            square |= 1 << digits[(u / 3 * 3 + k / 3) * 9 + u % 3 * 3 + k % 3];
        }
        row == 0x3fe && column == 0x3fe && square == 0x3fe
    })
}
