//! `cargo xtask listen [--port P]`: its arguments, and the lines it prints while
//! `xtask::listen` waits on loopback for the competitive-companion browser extension and
//! imports each problem it sends, as `cargo xtask new ID --from FILE.json` would.
//!
//! One request at a time, one printed line per request (stdout when taken, stderr when
//! refused); the listener goes on until interrupted.

use std::path::PathBuf;
use std::process::ExitCode;

use xtask::listen::Listener;
use xtask::workspace;

/// Wait for competitive-companion on 127.0.0.1 and import every problem it sends.
#[derive(clap::Args, Debug)]
pub struct ListenArgs {
    /// Listen on this port (0: any free one) instead of the first free port of those the
    /// extension sends to by default (1327, 4244, 6174, 10042, 10043, 10045, 27121); a port of
    /// your own must be added to the extension's "Custom ports".
    #[arg(long, value_name = "P")]
    pub port: Option<u16>,
    /// Import into DIR/problems/ instead of this workspace's.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// Runs until interrupted; an error (no workspace, no port to be had) is the tool's own.
pub fn run(args: &ListenArgs) -> anyhow::Result<ExitCode> {
    let root = workspace::root_or_project(args.root.as_deref())?;
    let listener = Listener::bind(args.port, &root).map_err(anyhow::Error::msg)?;
    let why = match args.port {
        Some(0) => "a free port, as asked: add it to the extension's custom ports",
        Some(_) => "as asked: add it to the extension's custom ports",
        None => "one competitive-companion sends to by default",
    };
    say!("listening on http://127.0.0.1:{}/ ({why})", listener.port());
    say!(
        "importing into {}; open a BOJ problem, click the extension; Ctrl-C stops",
        root.join("problems").display()
    );
    for answer in listener.answered() {
        if answer.is_success() {
            say!("{}", answer.message);
            // A problem imported and opened: its samples' debug configurations.
            super::keep_editor_files(&root, xtask::workspace::editor::Missing::Make);
        } else {
            eprintln!("rejected ({}): {}", answer.status, answer.message);
        }
    }
    Ok(ExitCode::SUCCESS)
}
