//! The pairs problem's solutions: pairs i < j with a_i < a_j, counted while merge sorting;
//! `main` takes how a merge breaks a tie.

use std::io::Read;

/// Sorts `a` and counts its pairs i < j with a[i] < a[j]; `left_first(l, r)`: whether the merge
/// takes the left number `l` before the right one `r`.
fn count(a: &mut Vec<u64>, left_first: fn(u64, u64) -> bool) -> u64 {
    if a.len() < 2 {
        return 0;
    }
    let mut right = a.split_off(a.len() / 2);
    let mut pairs = count(a, left_first) + count(&mut right, left_first);
    let left = std::mem::take(a);
    let (mut i, mut j) = (0, 0);
    while i < left.len() || j < right.len() {
        if j == right.len() || (i < left.len() && left_first(left[i], right[j])) {
            a.push(left[i]);
            i += 1;
        } else {
            // Every left number taken so far is less than this right one.
            pairs += i as u64;
            a.push(right[j]);
            j += 1;
        }
    }
    pairs
}

/// Reads the input, counts, prints.
pub fn answer(left_first: fn(u64, u64) -> bool) {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut numbers: Vec<u64> = input.split_whitespace().skip(1).map(|t| t.parse().unwrap()).collect();
    println!("{}", count(&mut numbers, left_first));
}
