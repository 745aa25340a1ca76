//! The host's target triple (`x86_64-unknown-linux-gnu`), as `rustc -vV` tells it: what cargo's
//! `--filter-platform` takes, so that cargo reads no crate of another platform.

use std::process::Command;

/// The host's target triple, asked of rustc (`RUSTC`, else `rustc`) once a run; `None` when
/// rustc cannot tell.
pub(crate) fn triple() -> Option<String> {
    static HOST: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    HOST.get_or_init(|| {
        let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
        let out = Command::new(rustc).arg("-vV").output().ok()?;
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .find_map(|l| l.strip_prefix("host: ").map(str::to_owned))
    })
    .clone()
}
