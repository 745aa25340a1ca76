//! The proconio solution, beside a module of the solution's own named `proconio`: the crate is
//! `::proconio` at the root, its macro `input!` expands to paths into the crate.

use ::proconio::input;
use ::proconio::marker::{Chars, Usize1};

mod proconio {
    pub fn reversed(word: &[char]) -> String {
        word.iter().rev().collect()
    }
}

fn main() {
    input! {
        n: usize,
        m: usize,
        word: Chars,
        mut a: [i64; n],
        edges: [(Usize1, Usize1); m],
    }
    a.sort_unstable();
    let mut degree = vec![0usize; n];
    for &(u, v) in &edges {
        degree[u] += 1;
        degree[v] += 1;
    }
    let degrees: Vec<String> = degree.iter().map(|d| d.to_string()).collect();
    println!("{}", proconio::reversed(&word));
    println!("{} {}", a.iter().sum::<i64>(), a[n - 1]);
    println!("{}", degrees.join(" "));
}
