//! Pairs i < j with a_i < a_j, wrong on equal values: on a tie the merge takes the left number
//! first and counts it as less than the right one.

#[path = "../../common/pairs.rs"]
mod pairs;

fn main() {
    pairs::answer(|left, right| left <= right);
}
