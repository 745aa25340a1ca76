//! How a case is had again: the `cargo xtask debug` command that steps through a sample, which
//! `test`, `debug`, `stress` and `hack` print beside a failing case.

/// The command that debugs the case `case` of the problem the user named `problem` (as they
/// named it: `1717`, `boj-1717` or a path): `cargo xtask debug 1717 stress-7-28`, each word
/// quoted as a POSIX shell needs.
pub fn debug_command(problem: &str, case: &str) -> String {
    let quote =
        |word: &str| shlex::try_quote(word).map_or_else(|_| word.to_string(), |q| q.into_owned());
    format!("cargo xtask debug {} {}", quote(problem), quote(case))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_case_is_debugged_by_the_problem_as_named_and_the_case() {
        assert_eq!(
            debug_command("1717", "stress-7-28"),
            "cargo xtask debug 1717 stress-7-28"
        );
        assert_eq!(
            debug_command("problems/my copy", "1"),
            "cargo xtask debug 'problems/my copy' 1"
        );
    }
}
