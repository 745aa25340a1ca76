//! The path problem's reference: distances relaxed over every edge n times (Bellman-Ford).

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let t: Vec<usize> = input.split_whitespace().map(|t| t.parse().unwrap()).collect();
    let (n, m) = (t[0], t[1]);
    let edges: Vec<(usize, usize)> = (0..m).map(|i| (t[2 + 2 * i], t[3 + 2 * i])).collect();
    let mut dist = vec![i64::MAX; n + 1];
    dist[1] = 0;
    for _ in 0..n {
        for &(a, b) in &edges {
            for (x, y) in [(a, b), (b, a)] {
                if dist[x] != i64::MAX && dist[x] + 1 < dist[y] {
                    dist[y] = dist[x] + 1;
                }
            }
        }
    }
    println!("{}", if dist[n] == i64::MAX { -1 } else { dist[n] });
}
