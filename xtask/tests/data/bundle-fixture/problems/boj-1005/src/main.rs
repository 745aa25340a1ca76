//! Fixture problem that compiles with today's rustc but uses std newer than Rust 1.63
//! (`Option::is_some_and`, 1.70), which the syntax scan cannot see: `--rustc` must catch it.

fn main() {
    let found = Some(3).is_some_and(|x| x > 2);
    println!("{}", found);
}
