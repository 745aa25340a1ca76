//! The product problem's reference: the product in 64 bits.

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let product: u64 = input.split_whitespace().map(|t| t.parse::<u64>().unwrap()).product();
    println!("{product}");
}
