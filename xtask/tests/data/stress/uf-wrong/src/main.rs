//! BOJ 1717 (disjoint sets) for the stress fixtures: a wrong disjoint-set union that passes the sample.

#[path = "../../common/uf.rs"]
mod uf;

fn main() {
    // The bug: a, not its root, is hung under b's root, so the rest of a's set is lost. The
    // sample's joins never split a set this way, so it passes.
    uf::answer_with(|parent, a, b| parent[a] = uf::find(parent, b));
}
