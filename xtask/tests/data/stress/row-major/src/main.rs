//! A right BOJ 2239 solution for stress's tests: plain row-major backtracking, smallest digit
//! first, whose first solution is the smallest.

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
    let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
    for (i, &d) in cells.iter().enumerate() {
        if d != 0 {
            rows[i / 9] |= 1 << d;
            cols[i % 9] |= 1 << d;
            boxes[i / 27 * 3 + i % 9 / 3] |= 1 << d;
        }
    }
    let mut units = (rows, cols, boxes);
    assert!(search(&mut cells, &mut units, 0), "no solution");
    for row in cells.chunks(9) {
        let line: String = row.iter().map(|d| char::from(b'0' + d)).collect();
        println!("{line}");
    }
}

type Units = ([u16; 9], [u16; 9], [u16; 9]);

fn search(cells: &mut [u8], units: &mut Units, index: usize) -> bool {
    if index == 81 {
        return true;
    }
    if cells[index] != 0 {
        return search(cells, units, index + 1);
    }
    let (r, c, b) = (index / 9, index % 9, index / 27 * 3 + index % 9 / 3);
    for d in 1..=9u8 {
        let bit = 1u16 << d;
        if (units.0[r] | units.1[c] | units.2[b]) & bit != 0 {
            continue;
        }
        cells[index] = d;
        units.0[r] |= bit;
        units.1[c] |= bit;
        units.2[b] |= bit;
        if search(cells, units, index + 1) {
            return true;
        }
        units.0[r] &= !bit;
        units.1[c] &= !bit;
        units.2[b] &= !bit;
    }
    cells[index] = 0;
    false
}
