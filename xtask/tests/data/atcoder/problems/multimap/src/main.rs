//! multimap's `MultiMap`: `N`, then N lines `name score`. Prints, by name in sorted order, the
//! name, how many scores it has and their sum (`get_vec`), then the names with a single score.

use multimap::MultiMap;
use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut tokens = input.split_ascii_whitespace();
    let n: usize = tokens.next().unwrap().parse().unwrap();
    let mut scores: MultiMap<String, i64> = MultiMap::new();
    for _ in 0..n {
        let name = tokens.next().unwrap().to_string();
        let score: i64 = tokens.next().unwrap().parse().unwrap();
        scores.insert(name, score);
    }
    let mut names: Vec<&String> = scores.keys().collect();
    names.sort();
    for name in names {
        let all = scores.get_vec(name).unwrap();
        println!("{} {} {}", name, all.len(), all.iter().sum::<i64>());
    }
    let mut single: Vec<&str> = scores
        .iter_all()
        .filter(|(_, all)| all.len() == 1)
        .map(|(name, _)| name.as_str())
        .collect();
    single.sort_unstable();
    println!("{}", single.join(" "));
}
