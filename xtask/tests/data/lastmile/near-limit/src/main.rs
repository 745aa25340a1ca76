//! Fixture: burns 103 ms of its own CPU time, 3% over its 100 ms limit, then answers: a TLE
//! that ends by itself before the runner's kill at 110% of the limit, whose report says how
//! near it came. Its CPU time comes from `/proc/self/schedstat` (Linux, in nanoseconds, the
//! only thread's); elsewhere the wall clock stands in. A small limit keeps it a TLE that ends by
//! itself on a busy machine too: it needs a twelfth of a core to end before the wall-clock cap
//! (2 × 100 ms + 1 s).

use std::time::{Duration, Instant};

/// This process's CPU time, where /proc tells it.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    let nanos: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

fn main() {
    let burn = Duration::from_millis(103);
    let start = Instant::now();
    let mut n = 0u64;
    loop {
        for _ in 0..10_000 {
            n = std::hint::black_box(n.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        if cpu_time().unwrap_or_else(|| start.elapsed()) >= burn {
            break;
        }
    }
    println!("done");
}
