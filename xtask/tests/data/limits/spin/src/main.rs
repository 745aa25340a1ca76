//! Fixture: burns 180 ms of its own CPU time, 60% of its 300 ms limit, then answers: AC by its
//! CPU time however busy the machine is, while its wall-clock time grows with the load (the
//! cap, 2 × 300 ms + 1 s, leaves room for a share of a core down to about a ninth).
//! Its CPU time comes from `/proc/self/stat` (Linux); elsewhere the wall clock stands in.

use std::time::{Duration, Instant};

/// This process's CPU time, where /proc tells it.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>().ok()? + fields[12].parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

fn main() {
    let burn = Duration::from_millis(180);
    let start = Instant::now();
    let mut n = 0u64;
    loop {
        for _ in 0..100_000 {
            n = std::hint::black_box(n.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        if cpu_time().unwrap_or_else(|| start.elapsed()) >= burn {
            break;
        }
    }
    println!("done");
}
