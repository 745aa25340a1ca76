//! Fixture: fails as its input asks: `null` writes through a null pointer (SIGSEGV on Unix, an
//! access violation on Windows), `panic` panics (exit status 101).

use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    if input.trim() == "null" {
        let nowhere: *mut u8 = std::hint::black_box(std::ptr::null_mut());
        // SAFETY: none; the fault is the point (the judge profile has no debug assertions, so
        // nothing checks the pointer first).
        unsafe { nowhere.write_volatile(1) };
    }
    panic!("fixture: a panic on purpose");
}
