//! Fixture problem that does not compile: `bundle --check` must show rustc's message.

fn main() {
    let total: i64 = fixture_lib::add(3, 4);
    let text: String = total;
    println!("{}", text);
}
