//! What the pass refuses by name, in the solution's crate, or leaves as it was in a library's:
//! a macro's `compile_error!`, its failure, an attribute macro given `= value`, an expansion that
//! does not parse where it stands, and a use inside another macro's tokens.

use stand_in::{identity, rename, with_tmp, Emit};

#[rename]
fn nameless() {}

#[rename(two words)]
fn failing() {}

#[rename = "value"]
fn valued() {}

#[rename(x)]
impl Nothing {}

fn main() {
    let with_tmp!(p) = 1;
    my_macro! { identity!(1) }
    my_macro! { #[derive(Emit)] struct S; }
    #[derive(Emit)]
    fn not_a_type() {}
}
