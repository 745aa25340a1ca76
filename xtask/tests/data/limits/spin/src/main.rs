//! Fixture: burns as many milliseconds of its own CPU time as its input says, then answers:
//! AC by its CPU time however busy the machine is, while its wall-clock time grows with the
//! load. `spin` burns 180 ms, 60% of its 300 ms limit; `burn` (the same source) 550 ms of
//! 1000 ms. Its CPU time comes from `/proc/self/stat` (Linux); elsewhere the wall clock stands
//! in, so it burns at most that.

use std::io::Read;
use std::time::{Duration, Instant};

/// This process's CPU time, where /proc tells it.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>().ok()? + fields[12].parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let burn = Duration::from_millis(input.trim().parse().unwrap());
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
