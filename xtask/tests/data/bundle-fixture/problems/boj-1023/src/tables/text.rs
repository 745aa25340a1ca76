//! Text read at compile time from beside this module file, in `src/tables/`.

/// Tabs, quotes, backslashes, CR LF, NUL before a digit, control characters and non-ASCII.
pub const TEXT: &str = include_str!("text.txt");
