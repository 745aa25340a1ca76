//! proconio's `derive` feature: `#[derive_readable]` on a struct with named fields (1-based
//! vertices read as `Usize1`) and on a tuple struct, read by `input!`, and `#[fastout]` on
//! `main`, whose `println!` and `print!` go through one buffered writer.
//! Reads `N M`, M weighted edges `u v w`, then `Q` and Q points `x y`. Prints each vertex's
//! total incident weight, the heaviest edge (the first of the heaviest, in input order), and each
//! point's Manhattan distance from the origin on one line.

use proconio::marker::Usize1;
use proconio::{derive_readable, fastout, input};

#[derive_readable]
#[derive(Debug, Clone, Copy)]
struct Edge {
    u: Usize1,
    v: Usize1,
    w: i64,
}

#[derive_readable]
struct Point(i64, i64);

#[fastout]
fn main() {
    input! {
        n: usize,
        m: usize,
        edges: [Edge; m],
        q: usize,
        points: [Point; q],
    }
    let mut weight = vec![0i64; n];
    for e in &edges {
        weight[e.u] += e.w;
        weight[e.v] += e.w;
    }
    for w in &weight {
        println!("{}", w);
    }
    let mut heaviest = edges[0];
    for e in &edges[1..] {
        if e.w > heaviest.w {
            heaviest = *e;
        }
    }
    println!("{} {} {}", heaviest.u + 1, heaviest.v + 1, heaviest.w);
    let distances: Vec<String> = points
        .iter()
        .map(|Point(x, y)| (x.abs() + y.abs()).to_string())
        .collect();
    print!("{}", distances.join(" "));
    println!();
}
