//! pathfinding's `Matrix`, whose error type derives thiserror's `Error` inside the library: a
//! proc macro a crate from crates.io uses itself, expanded in its module. Reads `R C` and R
//! rows of C integers (a row may be short); prints the error's message when the rows do not
//! make a matrix, else the matrix transposed.

use pathfinding::matrix::Matrix;
use std::io::Read;

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let mut lines = text.lines();
    let first: Vec<usize> = lines
        .next()
        .unwrap()
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    let rows: Vec<Vec<i64>> = (0..first[0])
        .map(|_| {
            let line = lines.next().unwrap();
            line.split_whitespace().map(|w| w.parse().unwrap()).collect()
        })
        .collect();
    match Matrix::from_rows(rows) {
        Err(e) => println!("error: {}", e),
        Ok(m) => {
            for c in 0..m.columns {
                let column: Vec<String> = (0..m.rows).map(|r| m[(r, c)].to_string()).collect();
                println!("{}", column.join(" "));
            }
        }
    }
}
