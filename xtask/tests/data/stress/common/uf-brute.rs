//! Reference for the BOJ 1717 stress fixtures, obviously right and slow: it keeps every join as
//! an edge and answers each question by a walk over the edges so far (no union-find at all).

use std::io::{Read, Write};

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let numbers: Vec<usize> = input
        .split_ascii_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let (n, m) = (numbers[0], numbers[1]);
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    let mut out = String::new();
    for op in numbers[2..2 + 3 * m].chunks(3) {
        let (a, b) = (op[1], op[2]);
        if op[0] == 0 {
            edges[a].push(b);
            edges[b].push(a);
            continue;
        }
        let mut seen = vec![false; n + 1];
        let mut todo = vec![a];
        seen[a] = true;
        while let Some(x) = todo.pop() {
            for &y in &edges[x] {
                if !seen[y] {
                    seen[y] = true;
                    todo.push(y);
                }
            }
        }
        out.push_str(if seen[b] { "YES\n" } else { "NO\n" });
    }
    std::io::stdout().write_all(out.as_bytes()).unwrap();
}
