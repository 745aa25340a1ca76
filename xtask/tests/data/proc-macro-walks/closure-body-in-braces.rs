//! A line long enough that prettyplease breaks it and puts a closure's body in braces, where a
//! statement that begins with `crate` reads as an item (the `proc_macro` target's third
//! finding): the item printed as its tokens.

fn d(){a=||||crate||||||||||||||||||||||const||t||("{}",ideity!(a idb))}

fn main() {}
