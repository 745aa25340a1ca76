//! Words read at compile time: `data/words.txt` of the crate, two folders up from this file.

/// How many words the list holds.
pub fn count() -> usize {
    include_str!("../../data/words.txt").split_whitespace().count()
}
