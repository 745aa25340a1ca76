//! Fixture: sleeps 30 s before answering, using no CPU: TLE all the same, ended at the
//! wall-clock cap (2 × its 500 ms limit + 1 s), not after 30 s.

fn main() {
    std::thread::sleep(std::time::Duration::from_secs(30));
    println!("done");
}
