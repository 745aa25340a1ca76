//! Fixture: reads N; N = 0 spins forever, any other N recurses N × 10^9 calls deep, far past
//! its 16 MB stack. Neither ends by itself: `debug --batch` stops the first at its time and
//! names the second's signal, with its frames. `fork exit` and `fork panic` start a copy of
//! itself that sleeps a minute (`--sleep`), then end or panic: `debug` must end that copy too.

use std::io::Read;
use std::process::Command;
use std::time::Duration;

fn depth(n: u64) -> u64 {
    if n == 0 {
        0
    } else {
        1 + depth(n - 1)
    }
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--sleep") {
        std::thread::sleep(Duration::from_secs(60));
        return;
    }
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    if let Some(how) = input.trim().strip_prefix("fork ") {
        let exe = std::env::current_exe().unwrap();
        let _child = Command::new(exe).arg("--sleep").spawn().unwrap();
        if how == "panic" {
            panic!("a child left running");
        }
        println!("forked");
        return;
    }
    let n: u64 = input.trim().parse().unwrap();
    let mut spins = 0u64;
    while n == 0 {
        spins = spins.wrapping_add(1);
    }
    println!("{} {}", depth(n * 1_000_000_000), spins);
}
