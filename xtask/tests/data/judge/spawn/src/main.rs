//! Fixture: starts a copy of itself that loops, then loops too: TLE, and neither may outlive
//! the kill. The copy keeps adding a byte to the file `XTASK_FIXTURE_HEARTBEAT` names (when
//! set), so a test sees whether it still runs. Both keep the judge's stdout and stderr open.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

fn main() {
    if std::env::args().nth(1).as_deref() == Some("child") {
        let heartbeat = std::env::var_os("XTASK_FIXTURE_HEARTBEAT").map(|path| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .unwrap()
        });
        loop {
            if let Some(mut file) = heartbeat.as_ref() {
                let _ = file.write_all(b".");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    let exe = std::env::current_exe().unwrap();
    let _child = Command::new(exe)
        .arg("child")
        .stdin(Stdio::null())
        .spawn()
        .unwrap();
    let mut n = 0u64;
    loop {
        n = std::hint::black_box(n.wrapping_add(1));
    }
}
