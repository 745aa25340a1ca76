//! The runtime half of the fixture's macros, as serde is for serde_derive: the trait the
//! derive implements, and the macros re-exported (`Describe` is both, in two namespaces).

pub use fixture_macros::{
    helper_fn, label_loop, make_const, pair_of, sum_with_tmp, times, Describe, Shout,
};

/// What `#[derive(Describe)]` implements.
pub trait Describe {
    fn describe(&self) -> String;
}
