//! The machine's speed for stress work, as a yardstick for `cargo xtask stress`: case i runs
//! `GEN i SIZE`, then the solution and the reference on that input, and compares their outputs
//! in memory, over N cases on T threads, with nothing else (no limits, no memory figures).
//!
//! rustc -O harness.rs && ./harness GEN SOLUTION REFERENCE CASES THREADS SIZE

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

fn run(program: &str, args: &[String], input: Option<&[u8]>) -> Vec<u8> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .spawn()
        .expect("the program starts");
    if let Some(input) = input {
        let mut stdin = child.stdin.take().unwrap();
        let input = input.to_vec();
        std::thread::spawn(move || stdin.write_all(&input));
    }
    child.wait_with_output().expect("the program ends").stdout
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [gen, solution, reference, cases, threads, size] = &args[..] else {
        eprintln!("usage: harness GEN SOLUTION REFERENCE CASES THREADS SIZE");
        std::process::exit(2);
    };
    let cases: u64 = cases.parse().unwrap();
    let threads: u64 = threads.parse().unwrap();
    let next = AtomicU64::new(1);
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i > cases {
                    break;
                }
                let input = run(gen, &[i.to_string(), size.clone()], None);
                let got = run(solution, &[], Some(&input));
                let want = run(reference, &[], Some(&input));
                assert_eq!(got, want, "case {i} differs");
            });
        }
    });
    let took = start.elapsed().as_secs_f64();
    println!("{:.2} ms a case", took * 1000.0 / cases as f64);
}
