//! The guessing game by binary search: at most 20 questions for N up to 10^6. Right.

#[path = "../../common/binary-search.rs"]
mod binary_search;

fn main() {
    binary_search::play(0);
}
