//! The solution's own helpers, in a module named like the crate ac-library-rs.

pub fn answer(same: bool) -> &'static str {
    if same {
        "1\n"
    } else {
        "0\n"
    }
}

pub fn summary(groups: usize) -> String {
    format!("groups: {}\n", groups)
}
