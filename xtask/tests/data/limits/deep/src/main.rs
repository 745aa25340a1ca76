//! Fixture: the usual recursive tree DP (subtree sizes) on a tree read as `n` and rooted at
//! vertex 1, here a path of `n` vertices, so the recursion is `n` deep: 1,000,000 frames need
//! far more than a default 8 MB stack, and fit in BOJ's, which may grow to the memory limit.

use std::io::{self, Read};

fn subtree_sizes(v: usize, parent: usize, children: &[Vec<usize>], size: &mut [u64]) -> u64 {
    let mut total = 1;
    for &w in &children[v] {
        if w != parent {
            total += subtree_sizes(w, v, children, size);
        }
    }
    size[v] = total;
    total
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let n: usize = input.trim().parse().unwrap();
    let mut children = vec![Vec::new(); n + 1];
    for v in 1..n {
        children[v].push(v + 1);
        children[v + 1].push(v);
    }
    let mut size = vec![0u64; n + 1];
    subtree_sizes(1, 0, &children, &mut size);
    println!("{}", size.iter().sum::<u64>());
}
