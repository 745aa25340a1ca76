//! The Rust sources a new problem starts from, each kept here as the file it becomes, so that
//! rustc, clippy and rustfmt see it as the Rust it is.
//!
//! What varies between problems is written as a placeholder, `__KEY__` (an upper-case key
//! between double underscores), only inside comments and string literals, so every template is
//! valid Rust as it stands; [`super::files`] fills them in one pass. There are two, and no
//! other `__` in a template:
//!
//! | placeholder   | becomes                                                           |
//! |---------------|-------------------------------------------------------------------|
//! | `__ID__`      | the problem number: `1000`                                        |
//! | `__PROBLEM__` | the problem as a first line names it: `BOJ 1000 (A+B)`, `BOJ 1000` |
//!
//! How they are kept right: each template is also a module of the xtask's unit tests (below),
//! so `cargo test` compiles it, `cargo clippy --all-targets` lints it and `cargo fmt` formats it
//! with the xtask's own code (CI's `--check` runs cover them). They keep to what BOJ compiles,
//! Rust 1.56 syntax and std and no crates: a unit test runs the bundler's syntax check on each.
//! What a module cannot show (a scaffold builds as its problem's binaries with `rust-version =
//! "1.56"`, clippy-clean under the workspace's lints, compiles with an older rustc, and judges
//! as it is) an integration test shows on a scaffold of every kind, in `tests/it/new.rs`:
//! `a_scaffold_of_every_kind_builds_clippy_clean_and_runs_as_it_is`.

/// The placeholder for the problem number: `1000`.
pub const ID: &str = "__ID__";
/// The placeholder for the problem as a first line names it: `BOJ 1000 (A+B)`, `BOJ 1000`.
pub const PROBLEM: &str = "__PROBLEM__";

/// `src/main.rs` of a problem judged by comparing outputs (exact, float, checker).
pub const SOLUTION: &str = include_str!("solution.rs");
/// `src/main.rs` of an interactive problem: a line in, a line out, flushed at once.
pub const INTERACTIVE_SOLUTION: &str = include_str!("interactive_solution.rs");
/// `src/bin/boj-ID-checker.rs`: a special judge in BOJ's calling convention.
pub const CHECKER: &str = include_str!("checker.rs");
/// `src/bin/boj-ID-interactor.rs`: the grader an interactive solution talks to.
pub const INTERACTOR: &str = include_str!("interactor.rs");
/// `src/bin/boj-ID-gen.rs`: `GEN SEED SIZE` prints one input, for `cargo xtask stress`.
pub const GENERATOR: &str = include_str!("generator.rs");
/// `src/bin/boj-ID-brute.rs`: the reference answer for the input on stdin, for stress.
pub const REFERENCE: &str = include_str!("reference.rs");
/// `src/bin/boj-ID-validator.rs`: exit 0 when the input on stdin meets the constraints, for
/// stress, scale and test.
pub const VALIDATOR: &str = include_str!("validator.rs");

/// Every template with its file name here, for tests that look at them all.
pub const ALL: [(&str, &str); 7] = [
    ("solution.rs", SOLUTION),
    ("interactive_solution.rs", INTERACTIVE_SOLUTION),
    ("checker.rs", CHECKER),
    ("interactor.rs", INTERACTOR),
    ("generator.rs", GENERATOR),
    ("reference.rs", REFERENCE),
    ("validator.rs", VALIDATOR),
];

// The templates as modules of the unit tests, so that the compiler, clippy and rustfmt check
// them. Each `main` is a binary's entry point and is never called here: hence `dead_code`.
#[cfg(test)]
#[allow(dead_code)]
mod checker;
#[cfg(test)]
#[allow(dead_code)]
mod generator;
#[cfg(test)]
#[allow(dead_code)]
mod interactive_solution;
#[cfg(test)]
#[allow(dead_code)]
mod interactor;
#[cfg(test)]
#[allow(dead_code)]
mod reference;
#[cfg(test)]
#[allow(dead_code)]
mod solution;
#[cfg(test)]
#[allow(dead_code)]
mod validator;
