//! What the BOJ 1717 stress fixtures share: the input read once (`n` and the operations
//! `[op, a, b]`), and a disjoint-set answerer that takes its join from the solution using it.

use std::io::{Read, Write};

/// `n` and the operations, from stdin.
pub fn read_input() -> (usize, Vec<[usize; 3]>) {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let numbers: Vec<usize> = input
        .split_ascii_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let (n, m) = (numbers[0], numbers[1]);
    let operations = numbers[2..2 + 3 * m]
        .chunks(3)
        .map(|op| [op[0], op[1], op[2]])
        .collect();
    (n, operations)
}

/// The root of `x`'s set, halving the path on the way.
#[allow(dead_code)]
pub fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// Answers every question with a parent array, joining `a`'s set to `b`'s with `join`.
#[allow(dead_code)]
pub fn answer_with(join: fn(&mut [usize], usize, usize)) {
    let (n, operations) = read_input();
    let mut parent: Vec<usize> = (0..=n).collect();
    let mut out = String::new();
    for [op, a, b] in operations {
        if op == 0 {
            join(&mut parent, a, b);
        } else if find(&mut parent, a) == find(&mut parent, b) {
            out.push_str("YES\n");
        } else {
            out.push_str("NO\n");
        }
    }
    std::io::stdout().write_all(out.as_bytes()).unwrap();
}
