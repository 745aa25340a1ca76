//! pathfinding's `dijkstra` and `bfs`: `N M`, then M edges `u v w` (1-based, undirected).
//! Prints the cheapest cost from 1 to N and its path, then the fewest edges from 1 to N (or
//! `-1` for each when N cannot be reached).

use pathfinding::prelude::{bfs, dijkstra};
use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut numbers = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<usize>().unwrap());
    let (n, m) = (numbers.next().unwrap(), numbers.next().unwrap());
    let mut adjacent: Vec<Vec<(usize, u64)>> = vec![Vec::new(); n + 1];
    for _ in 0..m {
        let (u, v, w) = (
            numbers.next().unwrap(),
            numbers.next().unwrap(),
            numbers.next().unwrap() as u64,
        );
        adjacent[u].push((v, w));
        adjacent[v].push((u, w));
    }
    match dijkstra(&1, |&u| adjacent[u].clone(), |&u| u == n) {
        Some((path, cost)) => {
            let shown: Vec<String> = path.iter().map(|v| v.to_string()).collect();
            println!("{} {}", cost, shown.join(" "));
        }
        None => println!("-1"),
    }
    let successors = |&u: &usize| -> Vec<usize> { adjacent[u].iter().map(|&(v, _)| v).collect() };
    match bfs(&1, successors, |&u| u == n) {
        Some(path) => println!("{}", path.len() - 1),
        None => println!("-1"),
    }
}
