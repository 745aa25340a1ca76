//! A crate whose items depend on features: the bundle keeps what cargo enabled.

/// Which speed the crate was built with.
#[cfg(feature = "fast")]
pub fn speed() -> &'static str {
    "fast"
}

/// Which speed the crate was built with.
#[cfg(not(feature = "fast"))]
pub fn speed() -> &'static str {
    "slow"
}

/// Never compiled: `slow` is off.
#[cfg(feature = "slow")]
pub fn only_slow() -> u8 {
    compile_error!("the `slow` feature is off, so this must not be bundled")
}

/// A greeting, louder with `loud`.
pub fn greet(name: &str) -> String {
    let mut text = format!("hello {}", name);
    if cfg!(feature = "loud") {
        text = text.to_uppercase();
    }
    #[cfg(all(feature = "fast", not(feature = "slow")))]
    text.push('!');
    text
}
