//! The bug hunt: `stress`, `hack`, shrinking and coverage, one family over one engine.
//!
//! - [`engine`]: one case run, the one way any of them runs an input: the generator writes it
//!   (or a search alters one), the validator passes it, the reference answers it, and the
//!   solution is judged on it with the same code as `cargo xtask test`.
//! - [`stress`]: generated cases, side by side, until one fails; [`sizes`]: how large they get,
//!   following what the reference can answer.
//! - [`input`], [`counts`], [`mutate`], [`shrink`]: an input as lines of tokens, the counts in
//!   it that say how many tokens or lines follow, the alterations a competitive programmer
//!   makes to a case, and shrinking a failing input to one a person would write.
//! - [`coverage`]: an instrumented build of the solution, apart from the judged one, that says
//!   which of its lines a run reached; [`hack`]: a search that alters inputs, keeps those that
//!   reach new code, and judges every one.
//!
//! Nothing here prints: the commands (`commands/stress.rs`, `commands/hack.rs`) render what
//! these return.

pub mod counts;
pub mod coverage;
pub mod engine;
pub mod hack;
mod in_order;
pub mod input;
pub mod mutate;
pub mod ranges;
pub mod shrink;
pub mod sizes;
pub mod stress;

pub use engine::{Case, Engine, Tried};
