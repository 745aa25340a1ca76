//! A crate that declares a native library.

/// A value.
pub fn value() -> u8 {
    1
}
