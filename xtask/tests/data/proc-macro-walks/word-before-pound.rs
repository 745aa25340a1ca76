//! Attributes whose tokens hold a word before a `#` or a `'`, which prettyplease printed
//! together (`'a#`, `r#[`, `b'x`: tokens that do not lex, or lex as a literal; the `proc_macro`
//! target's findings): printed as their tokens, spaced.

use stand_in::{identity, Emit};

#[derive(Emit)]
#[emit]
#[doc(hidden, 'a #[x])]
struct Tagged {
    #[emit]
    t: u8,
}

identity! {
    #[allow(dead_code, 'b #[y], r #[z], b 'x)]
    fn kept() {}
}

fn main() {}
