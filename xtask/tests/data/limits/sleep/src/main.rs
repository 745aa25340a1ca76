//! Fixture: sleeps as many seconds as its input says before answering, using no CPU: TLE all
//! the same, ended at the cap on waiting (2 × its limit + 1 s), not after its sleep. `sleep`
//! sleeps 30 s under a 500 ms limit; `nap` (the same source) 10 s under 1000 ms.

use std::io::Read;

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let seconds: u64 = input.trim().parse().unwrap();
    std::thread::sleep(std::time::Duration::from_secs(seconds));
    println!("done");
}
