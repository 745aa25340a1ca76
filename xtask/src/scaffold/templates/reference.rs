//! BOJ __ID__'s reference for `cargo xtask stress`: reads one input on stdin and prints the
//! expected answer. Make it slow and obviously right (brute force over every possibility), so
//! that a disagreement points at the solution.
//!
//! A template: like the solution's template, it echoes each token on a line.

use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin()
        .read_to_string(&mut input)
        .expect("cannot read standard input");
    let mut out = String::new();
    for token in input.split_ascii_whitespace() {
        out.push_str(token);
        out.push('\n');
    }
    io::stdout()
        .write_all(out.as_bytes())
        .expect("cannot write standard output");
}
