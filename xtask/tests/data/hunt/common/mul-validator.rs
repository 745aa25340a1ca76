//! The product problem's constraints: `a b` on one line, each from 1 to 10^9.

#[path = "read.rs"]
mod read;

fn main() {
    read::validate(|input| {
        input.number("a", 1, 1_000_000_000, b' ')?;
        input.number("b", 1, 1_000_000_000, b'\n')?;
        Ok(())
    });
}
