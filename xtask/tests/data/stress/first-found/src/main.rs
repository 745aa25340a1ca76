//! A wrong BOJ 2239 solution for stress's tests: it prints the first solution that a
//! fewest-candidates search finds, which is right when the solution is unique and usually not
//! the smallest when there are several.

use std::io::Read;

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let mut cells: Vec<u8> = text
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    assert_eq!(cells.len(), 81, "expected 81 digits");
    assert!(search(&mut cells), "no solution");
    for row in cells.chunks(9) {
        let line: String = row.iter().map(|d| char::from(b'0' + d)).collect();
        println!("{line}");
    }
}

fn allowed(cells: &[u8], index: usize, digit: u8) -> bool {
    let (r, c) = (index / 9, index % 9);
    (0..81).all(|j| {
        let (jr, jc) = (j / 9, j % 9);
        let shared = jr == r || jc == c || (jr / 3 == r / 3 && jc / 3 == c / 3);
        j == index || !shared || cells[j] != digit
    })
}

fn search(cells: &mut Vec<u8>) -> bool {
    // The blank with the fewest candidates.
    let mut best: Option<(usize, Vec<u8>)> = None;
    for index in (0..81).filter(|&i| cells[i] == 0) {
        let options: Vec<u8> = (1..=9).filter(|&d| allowed(cells, index, d)).collect();
        if best.as_ref().is_none_or(|(_, b)| options.len() < b.len()) {
            best = Some((index, options));
        }
    }
    let Some((index, options)) = best else {
        return true;
    };
    for digit in options {
        cells[index] = digit;
        if search(cells) {
            return true;
        }
    }
    cells[index] = 0;
    false
}
