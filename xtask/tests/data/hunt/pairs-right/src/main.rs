//! Pairs i < j with a_i < a_j, right: on a tie the merge takes the right number first, so the
//! left one is not counted as less.

#[path = "../../common/pairs.rs"]
mod pairs;

fn main() {
    pairs::answer(|left, right| left < right);
}
