//! Strongly connected components with ac-library-rs's `SccGraph`: `N M` and M edges `a b`;
//! prints the number of components, then each component's size and smallest vertex, in
//! topological order.

use ac_library::SccGraph;
use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace().map(|t| t.parse::<usize>().unwrap());
    let (n, m) = (it.next().unwrap(), it.next().unwrap());
    let mut graph = SccGraph::new(n);
    for _ in 0..m {
        graph.add_edge(it.next().unwrap(), it.next().unwrap());
    }
    let components = graph.scc();
    let mut out = format!("{}\n", components.len());
    for component in components {
        let smallest = component.iter().min().unwrap();
        out.push_str(&format!("{} {}\n", component.len(), smallest));
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
