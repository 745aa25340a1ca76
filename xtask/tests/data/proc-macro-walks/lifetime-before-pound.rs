//! Attributes whose tokens hold a lifetime before a `#`, which prettyplease printed as `'a#`, a
//! token that does not lex (the `proc_macro` target's finding): printed as their tokens, spaced.

use stand_in::{identity, Emit};

#[derive(Emit)]
#[emit]
#[doc(hidden, 'a #[x])]
struct Tagged {
    #[emit]
    t: u8,
}

identity! {
    #[allow(dead_code, 'b #[y])]
    fn kept() {}
}

fn main() {}
