//! Distinct substrings with ac-library-rs's `suffix_array` and `lcp_array`: one line of
//! lowercase letters; prints how many different non-empty substrings it has.

use ac_library::{lcp_array, suffix_array};
use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let s = input.trim();
    let sa = suffix_array(s);
    let lcp = lcp_array(s, &sa);
    let n = s.len() as u64;
    let total = n * (n + 1) / 2 - lcp.iter().map(|&x| x as u64).sum::<u64>();
    io::stdout().write_all(format!("{}\n", total).as_bytes()).unwrap();
}
