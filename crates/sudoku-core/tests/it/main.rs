//! Integration tests of sudoku-core: parsing and printing, agreement with an independent
//! reference solver, and (when `../shared/data/puzzles` is present) every public puzzle set.

// Test code is never submitted to BOJ, so it may use std newer than the crate's rust-version.
#![allow(clippy::incompatible_msrv)]

mod fixtures;
mod parse;
mod properties;
mod public_sets;
mod reference;
mod solve;
