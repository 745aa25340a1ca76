//! Fixture: holds 48 MB, every page of it touched, then spins: TLE by its CPU time here, with a
//! peak three times its 16 MB limit. BOJ stops a solution at its memory limit, so there it is
//! MLE, stopped long before its time ran out: the TLE says so in a hint.

fn main() {
    let mut held: Vec<Vec<u8>> = Vec::new();
    for _ in 0..48 {
        held.push(vec![1u8; 1 << 20]);
    }
    let mut n = 0u64;
    loop {
        n = std::hint::black_box(n.wrapping_add(held.len() as u64));
    }
}
