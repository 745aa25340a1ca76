//! `cargo xtask`: the workspace's own automation (local judging, scaffolding, bundling).

use clap::Parser;

/// Workspace automation for the BOJ Sudoku toolkit.
#[derive(Parser, Debug)]
#[command(name = "cargo xtask", version)]
enum Command {}

fn main() {
    match Command::parse() {}
}
