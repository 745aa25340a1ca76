//! Generator of the path problem (`n m`, then m edges `a b`; the distance from 1 to n, or -1):
//! n = 2 + SIZE / 4 vertices, a random tree that connects them all, then up to SIZE / 4 more
//! edges. Always connected: the -1 case never comes up.

#[path = "rng.rs"]
mod rng;

fn main() {
    let (seed, size) = rng::seed_and_size();
    let mut rng = rng::Rng(seed);
    let n = 2 + size / 4;
    let mut edges = Vec::new();
    for v in 2..=n {
        edges.push((rng.between(1, v - 1), v));
    }
    for _ in 0..rng.between(0, size / 4) {
        edges.push((rng.between(1, n), rng.between(1, n)));
    }
    let mut out = format!("{} {}\n", n, edges.len());
    for (a, b) in edges {
        out.push_str(&format!("{a} {b}\n"));
    }
    print!("{out}");
}
