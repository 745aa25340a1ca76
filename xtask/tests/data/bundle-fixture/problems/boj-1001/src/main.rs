//! Fixture problem with syntax newer than Rust 1.56: `bundle --check` must name each line.

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).expect("stdin");
    let values = fixture_lib::numbers(&input);
    let [a, b] = values[..] else {
        panic!("two numbers expected");
    };
    let sum = fixture_lib::add(a, b);
    println!("{sum}");
}
