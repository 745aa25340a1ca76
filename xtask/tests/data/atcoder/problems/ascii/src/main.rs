//! ascii's `AsciiString` and `AsciiStr` (an edition 2015 crate): N lines of text. Prints each
//! line in upper case when it is ASCII (with its length and count of digits), or `not ASCII at
//! byte I` otherwise; then all ASCII lines joined by `|`.

use ascii::{AsAsciiStr, AsciiChar, AsciiString};
use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut joined = AsciiString::new();
    for line in input.lines() {
        match line.as_ascii_str() {
            Ok(text) => {
                let digits = text.chars().filter(|ch| ch.is_ascii_digit()).count();
                println!("{} {} {}", text.to_ascii_uppercase(), text.len(), digits);
                if !joined.is_empty() {
                    joined.push(AsciiChar::VerticalBar);
                }
                joined.push_str(text);
            }
            Err(e) => println!("not ASCII at byte {}", e.valid_up_to()),
        }
    }
    println!("{}", joined);
}
