//! BOJ 1717 (disjoint sets) for the stress fixtures: a right disjoint-set union (path halving).

use std::io::{Read, Write};

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let numbers: Vec<usize> = input
        .split_ascii_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let (n, m) = (numbers[0], numbers[1]);
    let mut parent: Vec<usize> = (0..=n).collect();
    let mut out = String::new();
    for op in numbers[2..2 + 3 * m].chunks(3) {
        let (a, b) = (op[1], op[2]);
        if op[0] == 1 {
            let same = find(&mut parent, a) == find(&mut parent, b);
            out.push_str(if same { "YES\n" } else { "NO\n" });
            continue;
        }
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        parent[ra] = rb;
    }
    std::io::stdout().write_all(out.as_bytes()).unwrap();
}
