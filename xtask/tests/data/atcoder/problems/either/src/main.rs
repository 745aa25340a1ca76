//! either's `Either`: a line of tokens, each a number or a word. Prints the numbers' sum, the
//! words joined, and each token's kind (`L` for a number, `R` for a word) with its length.

use either::{Either, Left, Right};
use std::io::{self, Read};

fn classify(token: &str) -> Either<i64, &str> {
    match token.parse() {
        Ok(n) => Left(n),
        Err(_) => Right(token),
    }
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let tokens: Vec<Either<i64, &str>> = input.split_ascii_whitespace().map(classify).collect();
    let sum: i64 = tokens.iter().filter_map(|t| t.left()).sum();
    let words: Vec<&str> = tokens.iter().filter_map(|t| t.right()).collect();
    println!("{} {}", sum, words.join("-"));
    let kinds: Vec<String> = tokens
        .iter()
        .map(|t| {
            let length = t.either(|n| n.to_string().len(), |w| w.len());
            format!("{}{}", if t.is_left() { "L" } else { "R" }, length)
        })
        .collect();
    println!("{}", kinds.join(" "));
}
