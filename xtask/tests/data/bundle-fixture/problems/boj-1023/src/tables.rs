//! Bytes read at compile time from `src/data/`: relative to this file, not to `src/tables/`,
//! where its own module lives.

pub mod text;

/// Every byte value, then NUL before a digit, CR LF, a quote and a backslash.
pub static BYTES: &[u8; 262] = include_bytes!("data/bytes.bin");
