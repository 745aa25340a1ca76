//! petgraph's `DiGraph` and `dijkstra` (BOJ 1753, shortest paths): `V E`, the start vertex,
//! then E edges `u v w` (1-based). Prints each vertex's distance from the start, or `INF`.

use petgraph::algo::dijkstra;
use petgraph::graph::{DiGraph, NodeIndex};
use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut numbers = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<usize>().unwrap());
    let (v, e) = (numbers.next().unwrap(), numbers.next().unwrap());
    let start = numbers.next().unwrap() - 1;
    let mut graph: DiGraph<(), u64> = DiGraph::with_capacity(v, e);
    let nodes: Vec<NodeIndex> = (0..v).map(|_| graph.add_node(())).collect();
    for _ in 0..e {
        let (a, b, w) = (
            numbers.next().unwrap() - 1,
            numbers.next().unwrap() - 1,
            numbers.next().unwrap() as u64,
        );
        graph.add_edge(nodes[a], nodes[b], w);
    }
    let distances = dijkstra(&graph, nodes[start], None, |edge| *edge.weight());
    let mut out = String::new();
    for node in &nodes {
        match distances.get(node) {
            Some(d) => out.push_str(&format!("{}\n", d)),
            None => out.push_str("INF\n"),
        }
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
