//! `cargo xtask`: the toolkit's commands (judging, scaffolding, stress, bundling, submitting).

mod commands;

use std::process::ExitCode;

use clap::Parser;
use commands::{archive, bundle, debug, hack, listen, new, scale, stress, submit, test, watch};

/// A toolkit for practising Baekjoon Online Judge problems in Rust: judge locally as BOJ
/// would, stress against a generator and a brute force, bundle one file, submit it.
#[derive(Parser, Debug)]
#[command(name = "cargo xtask", version)]
enum Command {
    /// Write a problem's one-file BOJ submission (its main.rs plus the crates it uses).
    Bundle(bundle::BundleArgs),
    /// Judge the samples of problems locally, as BOJ would.
    Test(test::TestArgs),
    /// Create problems/boj-ID/ for a new problem.
    New(new::NewArgs),
    /// Judge generated cases until one fails; save it as a sample. On a pass, name the lines of
    /// the solution no case reached.
    Stress(stress::StressArgs),
    /// Search for an input the solution fails: samples and generated inputs altered as a
    /// person alters a case, guided by the code each reaches; save it as a sample.
    Hack(hack::HackArgs),
    /// See how a solution scales: its time and memory from small inputs to the largest, the
    /// growth fitted, the largest size measured or predicted against the limits, a plot.
    Scale(scale::ScaleArgs),
    /// Import problems sent by the competitive-companion browser extension.
    Listen(listen::ListenArgs),
    /// Open a failing case in the debugger (rust-gdb or rust-lldb) with a breakpoint on a panic;
    /// --batch runs it and prints where it stopped, with its frames' values.
    Debug(debug::DebugArgs),
    /// Judge a problem's samples, then again each time one of its files is saved (Ctrl-C stops).
    Watch(watch::WatchArgs),
    /// Bundle and check a problem, copy the bundle to the clipboard, open BOJ's submit page.
    Submit(submit::SubmitArgs),
    /// Open problems: members of the workspace, so rust-analyzer sees them (new, listen and
    /// watch open theirs; the one opened longest ago leaves past 8).
    Open(archive::OpenArgs),
    /// Archive problems: packages of their own, out of the workspace's members.
    Archive(archive::ArchiveArgs),
    /// Move a workspace made before the archive over (every problem a member) to open and
    /// archived problems.
    Migrate(archive::MigrateArgs),
}

fn main() -> ExitCode {
    // First of all: this executable also starts every program the judge runs (see
    // xtask::run::launch), and must then hold as little memory as it can.
    if let Some(code) = xtask::run::launch_if_asked() {
        return code;
    }
    // Started by `submit` to keep a copy on an X11 clipboard after the command has ended.
    if let Some(code) = xtask::submit::serve_clipboard_if_asked() {
        return code;
    }
    let result = match Command::parse() {
        Command::Bundle(args) => bundle::run(&args),
        Command::Test(args) => test::run(&args),
        Command::New(args) => new::run(&args),
        Command::Stress(args) => stress::run(&args),
        Command::Hack(args) => hack::run(&args),
        Command::Scale(args) => scale::run(&args),
        Command::Listen(args) => listen::run(&args),
        Command::Debug(args) => debug::run(&args),
        Command::Watch(args) => watch::run(&args),
        Command::Submit(args) => submit::run(&args),
        Command::Open(args) => archive::open(&args),
        Command::Archive(args) => archive::archive(&args),
        Command::Migrate(args) => archive::migrate(&args),
    };
    // Every subcommand's own failure (bad arguments, an unknown problem, a build that fails, a
    // helper that crashes) is exit status 2, with the reason and its causes on stderr.
    result.unwrap_or_else(|err| {
        eprintln!("error: {err:#}");
        ExitCode::from(2)
    })
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// clap's own checks of every subcommand's arguments (names, conflicts, requirements),
    /// which otherwise run only when that subcommand is parsed.
    #[test]
    fn the_arguments_are_well_formed() {
        super::Command::command().debug_assert();
    }
}
