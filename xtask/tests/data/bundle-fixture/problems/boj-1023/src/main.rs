//! Fixture: prints the bytes a module includes in hex, the text another includes as Rust
//! writes it with `{:?}`, and how many words a library's included file holds.

mod tables;

fn main() {
    let hex: Vec<String> = tables::BYTES.iter().map(|b| format!("{:02x}", b)).collect();
    println!("{}", hex.concat());
    println!("{:?}", tables::text::TEXT);
    println!("{}", fixture_include::words::count());
}
