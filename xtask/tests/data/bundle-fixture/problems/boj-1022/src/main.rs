//! Fixture: prints the first word of a table kept beside the solution, read at compile time,
//! and how many bytes the table holds.

static TABLE: &str = include_str!("table.txt");

fn main() {
    let first = TABLE.split_whitespace().next().unwrap_or("");
    println!("{} {}", first, include_bytes!("table.txt").len());
}
