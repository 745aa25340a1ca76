//! Fixture: sums one integer a line, splitting on `\n` only, as many solutions do: a `\r` left
//! at a line's end fails the parse (RE). Its sample's `.in` has CRLF line ends, which the judge
//! must feed as LF, as BOJ's data is.

use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let sum: i64 = input
        .split('\n')
        .filter(|line| !line.is_empty())
        .map(|line| line.parse::<i64>().expect("one integer a line"))
        .sum();
    println!("{sum}");
}
