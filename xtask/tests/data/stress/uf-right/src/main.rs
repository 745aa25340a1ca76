//! BOJ 1717 (disjoint sets) for the stress fixtures: a right disjoint-set union (path halving).

#[path = "../../common/uf.rs"]
mod uf;

fn main() {
    uf::answer_with(|parent, a, b| {
        let (ra, rb) = (uf::find(parent, a), uf::find(parent, b));
        parent[ra] = rb;
    });
}
