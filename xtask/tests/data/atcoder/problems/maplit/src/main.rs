//! maplit's literal macros, imported the 2015 way (`#[macro_use] extern crate`): `Q`, then Q
//! Roman numerals. Prints each one's value, then the letters used, in order.

#[macro_use]
extern crate maplit;

use std::collections::{BTreeSet, HashMap};
use std::io::{self, Read};

fn value(numeral: &str, letters: &HashMap<char, u32>) -> u32 {
    let digits: Vec<u32> = numeral.chars().map(|c| letters[&c]).collect();
    let mut total = 0;
    for (k, &d) in digits.iter().enumerate() {
        if digits.get(k + 1).map_or(false, |&next| next > d) {
            total -= d;
        } else {
            total += d;
        }
    }
    total
}

fn main() {
    let letters = hashmap! {
        'I' => 1, 'V' => 5, 'X' => 10, 'L' => 50, 'C' => 100, 'D' => 500, 'M' => 1000,
    };
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut tokens = input.split_ascii_whitespace();
    let q: usize = tokens.next().unwrap().parse().unwrap();
    let mut used: BTreeSet<char> = btreeset! {};
    for numeral in tokens.take(q) {
        used.extend(numeral.chars());
        println!("{}", value(numeral, &letters));
    }
    let order = btreemap! { 0 => "none" };
    let listed: String = used.into_iter().collect();
    println!("{}", if listed.is_empty() { order[&0] } else { &listed });
}
