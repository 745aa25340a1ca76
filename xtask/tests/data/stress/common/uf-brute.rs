//! Reference for the BOJ 1717 stress fixtures, obviously right and slow: it keeps every join as
//! an edge and answers each question by a walk over the edges so far (no union-find at all).

use std::io::Write;

#[path = "uf.rs"]
mod uf;

fn main() {
    let (n, operations) = uf::read_input();
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    let mut out = String::new();
    for [op, a, b] in operations {
        if op == 0 {
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
