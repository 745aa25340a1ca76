//! Fixture: holds memory past its 16 MB limit. Given a number, it touches that many MB and then
//! spins: at 40 MB, under the runner's guard (the limit and 32 MB more), it is TLE by its CPU time
//! here, where BOJ, which stops a solution at its memory limit, says MLE: the TLE says so in a
//! hint. Given `leak`, it touches 1 MB more every millisecond without end: stopped at the guard
//! while it runs where the system tells its memory then (Linux, macOS), MLE, as on BOJ.

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut held: Vec<Vec<u8>> = Vec::new();
    match input.trim().parse::<usize>() {
        Ok(megabytes) => {
            for _ in 0..megabytes {
                held.push(vec![1u8; 1 << 20]);
            }
        }
        Err(_) => loop {
            held.push(vec![1u8; 1 << 20]);
            let started = std::time::Instant::now();
            while started.elapsed() < std::time::Duration::from_millis(1) {
                std::hint::black_box(held.len());
            }
        },
    }
    let mut n = 0u64;
    loop {
        n = std::hint::black_box(n.wrapping_add(held.len() as u64));
    }
}
