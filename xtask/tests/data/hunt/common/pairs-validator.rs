//! The pairs problem's constraints: 1 <= n <= 300,000, then n numbers from 1 to 10^9 on one line.

#[path = "read.rs"]
mod read;

fn main() {
    read::validate(|input| {
        let n = input.number("n", 1, 300_000, b'\n')?;
        for i in 1..=n {
            let end = if i == n { b'\n' } else { b' ' };
            input.number("a_i", 1, 1_000_000_000, end)?;
        }
        Ok(())
    });
}
