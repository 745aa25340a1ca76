//! The distance from 1 to n by breadth-first search, or -1 when n cannot be reached: wrong in
//! that branch, which prints 0.

use std::collections::VecDeque;
use std::io::{Read, Write};

const UNSEEN: usize = usize::MAX;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let t: Vec<usize> = input.split_whitespace().map(|t| t.parse().unwrap()).collect();
    let (n, m) = (t[0], t[1]);
    let mut next = vec![Vec::new(); n + 1];
    for i in 0..m {
        let (a, b) = (t[2 + 2 * i], t[3 + 2 * i]);
        next[a].push(b);
        next[b].push(a);
    }
    let mut dist = vec![UNSEEN; n + 1];
    dist[1] = 0;
    let mut queue = VecDeque::from([1]);
    while let Some(v) = queue.pop_front() {
        for &w in &next[v] {
            if dist[w] == UNSEEN {
                dist[w] = dist[v] + 1;
                queue.push_back(w);
            }
        }
    }
    let mut out = std::io::stdout().lock();
    if dist[n] == UNSEEN {
        writeln!(out, "{}", 0).unwrap();
    } else {
        writeln!(out, "{}", dist[n]).unwrap();
    }
}
