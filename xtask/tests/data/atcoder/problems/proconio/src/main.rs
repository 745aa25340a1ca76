//! proconio's `input!` with markers: `N M`, a word, N integers, then M edges `u v` (1-based).
//! Prints the word reversed, the integers' sum, and each vertex's degree.

use proconio::input;
use proconio::marker::{Chars, Usize1};

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
    let reversed: String = word.iter().rev().collect();
    let degrees: Vec<String> = degree.iter().map(|d| d.to_string()).collect();
    println!("{}", reversed);
    println!("{} {}", a.iter().sum::<i64>(), a[n - 1]);
    println!("{}", degrees.join(" "));
}
