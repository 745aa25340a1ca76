//! Fixture: a solution whose work runs in a child it waits for, as a `--command "bash run.sh"`
//! wrapper's does: it starts itself again as the child, which spins without end, and waits.
//! The solution's own CPU time stays near 0 while the child's grows: TLE on the CPU time of
//! both, and the child ends with it.

use std::process::Command;

fn main() {
    if std::env::args().nth(1).as_deref() == Some("child") {
        let mut n = 0u64;
        loop {
            n = std::hint::black_box(n.wrapping_add(1));
        }
    }
    let exe = std::env::current_exe().expect("the solution's own path");
    let status = Command::new(exe).arg("child").status().expect("the child starts");
    println!("{status}");
}
