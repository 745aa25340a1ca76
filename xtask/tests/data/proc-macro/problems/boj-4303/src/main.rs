//! Helpers however a derive's crate declares them: `Shout`'s `#[shout]`, declared inside a
//! `macro_rules!` (so not readable from the proc-macro crate's source), on the struct and its
//! fields; `Describe`'s `#[label]`, declared as written; std's `Default` on the same enum as
//! `Describe`, whose `#[default]` stays with it. `Shout` marks its inherent impl
//! `#[automatically_derived]`, which only a trait impl may carry. Reads lines `NAME CITY AGE`;
//! prints each visitor shouted, then the default kind described.

use fixture_runtime::{Describe, Shout};
use std::io::Read;

#[derive(Shout)]
#[shout = "HELLO"]
struct Visitor {
    #[shout]
    name: String,
    city: String,
    #[shout]
    age: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Default, Describe)]
#[label = "a kind of visitor"]
enum Kind {
    Local,
    #[default]
    Tourist,
}

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let visitor = Visitor {
            name: words[0].to_string(),
            city: words[1].to_string(),
            age: words[2].parse().unwrap(),
        };
        println!("{} from {}", visitor.shout(), visitor.city);
    }
    println!("{:?}: {}", Kind::default(), Kind::Local.describe());
}
