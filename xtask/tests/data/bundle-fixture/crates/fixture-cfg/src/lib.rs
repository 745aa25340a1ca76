//! A crate whose items depend on the cfgs its build script sets: plain rustc sets none.

/// Which path the build script chose.
#[cfg(fixture_fast)]
pub fn speed() -> &'static str {
    "fast"
}

/// Which path the build script chose.
#[cfg(not(fixture_fast))]
pub fn speed() -> &'static str {
    "slow"
}

/// The mode, from a `name="value"` cfg.
pub fn mode() -> &'static str {
    if cfg!(fixture_mode = "fast") {
        "fast mode"
    } else if cfg!(fixture_never) {
        "never"
    } else {
        "slow mode"
    }
}
