//! The guessing game by binary search, answering one more than it found: wrong every time.

#[path = "../../common/binary-search.rs"]
mod binary_search;

fn main() {
    binary_search::play(1);
}
