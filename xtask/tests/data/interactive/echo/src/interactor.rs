//! The echo game's interactor: `INTERACTOR INPUT`, INPUT holding `N MICROS`. It sends N, then N
//! times computes a number, spending MICROS microseconds of its own CPU time on it (its
//! thread's time on a CPU, from Linux's `/proc/thread-self/schedstat`; elsewhere the wall clock
//! stands in), sends it and expects it plus one back. Exit 0 accepts, 1 rejects with the reason.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// This thread's time on a CPU, where Linux tells it (nanoseconds, the first field).
fn cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().next()?.parse().ok()?;
    (nanos > 0).then(|| Duration::from_nanos(nanos))
}

/// Computes until `spend` more of this thread's CPU time has gone.
fn compute(state: &mut u64, spend: Duration) {
    let (cpu_start, wall_start) = (cpu_time(), Instant::now());
    loop {
        for _ in 0..20_000 {
            *state = std::hint::black_box(state.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        let spent = match (cpu_start, cpu_time()) {
            (Some(start), Some(now)) => now.saturating_sub(start),
            _ => wall_start.elapsed(),
        };
        if spent >= spend {
            return;
        }
    }
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: echo-interactor INPUT");
    let input = std::fs::read_to_string(path).expect("cannot read INPUT");
    let numbers: Vec<u64> = input
        .split_whitespace()
        .map(|t| t.parse().expect("INPUT holds N MICROS"))
        .collect();
    let (rounds, micros) = (numbers[0], numbers[1]);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = std::io::stdout().lock();
    writeln!(out, "{rounds}").unwrap();
    out.flush().unwrap();
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    for round in 0..rounds {
        compute(&mut state, Duration::from_micros(micros));
        let x = state >> 1;
        writeln!(out, "{x}").unwrap();
        out.flush().unwrap();
        let answer = lines.next().and_then(|l| l.ok()).unwrap_or_default();
        if answer.trim().parse::<u64>().ok() != Some(x + 1) {
            eprintln!("round {round}: sent {x}, got {answer:?}");
            std::process::exit(1);
        }
    }
}
