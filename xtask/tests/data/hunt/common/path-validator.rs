//! The path problem's constraints: 2 <= n <= 1000, 0 <= m <= 5000, then m lines `a b` with
//! 1 <= a, b <= n.

#[path = "read.rs"]
mod read;

fn main() {
    read::validate(|input| {
        let n = input.number("n", 2, 1000, b' ')?;
        let m = input.number("m", 0, 5000, b'\n')?;
        for _ in 0..m {
            input.number("a", 1, n, b' ')?;
            input.number("b", 1, n, b'\n')?;
        }
        Ok(())
    });
}
