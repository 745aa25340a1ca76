//! regex's `Regex`: N lines. Prints, per line, whether it is a date `YYYY-MM-DD` (`is_match`),
//! then every number in it (`find_iter`), then the words of `key=value` pairs swapped
//! (`captures_iter`).

use regex::Regex;
use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let date = Regex::new(r"^\d{4}-\d{2}-\d{2}$").unwrap();
    let number = Regex::new(r"-?\d+").unwrap();
    let pair = Regex::new(r"(\w+)=(\w+)").unwrap();
    for line in input.lines() {
        let numbers: Vec<&str> = number.find_iter(line).map(|m| m.as_str()).collect();
        let swapped: Vec<String> = pair
            .captures_iter(line)
            .map(|c| format!("{}={}", &c[2], &c[1]))
            .collect();
        println!(
            "{} [{}] [{}]",
            if date.is_match(line) { "date" } else { "text" },
            numbers.join(","),
            swapped.join(",")
        );
    }
}
