//! indexmap's `IndexMap` and `IndexSet`: words on any number of lines. Prints each distinct
//! word in order of first appearance with its count, then the index of the last word's first
//! appearance, then the distinct first letters in order of first appearance.

use indexmap::{IndexMap, IndexSet};
use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut counts: IndexMap<&str, usize> = IndexMap::new();
    let mut letters: IndexSet<char> = IndexSet::new();
    let mut last = "";
    for word in input.split_ascii_whitespace() {
        *counts.entry(word).or_insert(0) += 1;
        letters.insert(word.chars().next().unwrap());
        last = word;
    }
    for (word, count) in &counts {
        println!("{} {}", word, count);
    }
    println!("{}", counts.get_index_of(last).unwrap());
    let shown: String = letters.iter().collect();
    println!("{}", shown);
}
