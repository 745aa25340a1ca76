//! Fixture: prints the first word of a table kept beside the solution, read at compile time.

static TABLE: &str = include_str!("table.txt");

fn main() {
    println!("{}", TABLE.split_whitespace().next().unwrap_or(""));
}
