//! Maximum flow with ac-library-rs's `MfGraph`: `N M` and M edges `u v capacity`; prints the
//! maximum flow from vertex 0 to vertex N - 1.

use ac_library::MfGraph;
use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace().map(|t| t.parse::<u64>().unwrap());
    let (n, m) = (it.next().unwrap() as usize, it.next().unwrap());
    let mut graph = MfGraph::new(n);
    for _ in 0..m {
        let (u, v, c) = (it.next().unwrap(), it.next().unwrap(), it.next().unwrap());
        graph.add_edge(u as usize, v as usize, c);
    }
    let flow = graph.flow(0, n - 1);
    io::stdout().write_all(format!("{}\n", flow).as_bytes()).unwrap();
}
