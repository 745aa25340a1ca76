//! Validators: a problem's own program (`validator = "boj-ID-validator"` in its metadata) that
//! reads one input on stdin and says whether it meets the problem's constraints, testlib's
//! convention: exit status 0 accepts, any other exit status refuses, with the reason on stderr.
//! Stress and scale run it on every input the generator writes, before the solution sees it, so
//! a generator that breaks the constraints never passes for a failing solution; `cargo xtask
//! test` runs it on the samples, which are legal inputs, so a refusal there shows the validator
//! wrong. Nothing here prints.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Result};

use crate::judge::FedInput;
use crate::run::{Exit, Limits, Outcome, Program, Setup};
use crate::workspace::problem::Problem;

/// A problem's validator, ready to run.
#[derive(Debug, Clone)]
pub struct Validator {
    program: Program,
    name: String,
    limits: Limits,
}

/// Why a validator refused an input: how it ended and what it said on stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// Its exit status (never 0).
    pub exit: Exit,
    /// The end of its stderr, trimmed; empty when it said nothing.
    pub reason: String,
}

impl Refusal {
    /// The reason as a report shows it: what the validator said, or that it said nothing.
    pub fn reason_or_silence(&self) -> &str {
        if self.reason.is_empty() {
            "(it gave no reason on stderr)"
        } else {
            &self.reason
        }
    }
}

impl Validator {
    /// The validator at `path`, held to `time` of CPU time and of waiting (a helper's limits:
    /// it is the problem's code, not the solution's).
    pub fn new(path: &Path, time: Duration) -> Validator {
        Validator {
            program: Program::new(path),
            name: path
                .file_stem()
                .unwrap_or(path.as_os_str())
                .to_string_lossy()
                .into_owned(),
            // Its stdout goes unread (`Setup::stdout_unread`): no cap applies to it.
            limits: Limits::helper(time, 0),
        }
    }

    /// The validator's binary name, as the manifest gives it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Runs the validator on the input in the file `input`: `None` when it accepts (exit
    /// status 0), the [`Refusal`] when it exits with another status. A validator that cannot
    /// start, is killed by a signal or runs past its limit has not judged the input: that is
    /// an error, saying so.
    pub fn check(&self, input: &Path) -> Result<Option<Refusal>> {
        let outcome = self.run(input, &self.limits)?;
        let reason = String::from_utf8_lossy(&outcome.stderr_tail)
            .trim()
            .to_string();
        match outcome.exit {
            Exit::Code(0) => return Ok(None),
            exit @ Exit::Code(_) => return Ok(Some(Refusal { exit, reason })),
            _ => {}
        }
        // A killed validator says at which limit, as a generator or a reference does.
        bail!(
            "the validator {} failed ({}){}{}; this is the validator's error",
            self.name,
            self.limits.ended(outcome.exit),
            if reason.is_empty() { "" } else { ":\n" },
            reason
        )
    }

    /// Whether the validator passes the input in the file `input` within `time` of CPU time
    /// and of waiting: what a probe of its bounds asks ([`crate::hunt::ranges`]). Unlike
    /// [`Validator::check`], a validator killed (at that limit or by a signal) has refused: a
    /// value it cannot judge quickly is no bound to set numbers to, and every input the search
    /// then makes goes through `check`.
    pub fn passes_within(&self, input: &Path, time: Duration) -> Result<bool> {
        let outcome = self.run(input, &Limits::helper(time, 0))?;
        Ok(outcome.exit == Exit::Code(0))
    }

    /// One run on the input in the file `input` under `limits`, its stdout unread: a validator
    /// says what it has to say by its exit status and on stderr.
    fn run(&self, input: &Path, limits: &Limits) -> std::io::Result<Outcome> {
        let no_args: [&str; 0] = [];
        let setup = Setup {
            stdout_unread: true,
            ..Setup::default()
        };
        self.program.run(&no_args, Some(input), limits, &setup)
    }
}

/// The limit a validator (like a generator or a reference) is held to for a problem whose time
/// limit is `time`: max(10 s, 10 × `time`).
pub fn helper_time(time: Duration) -> Duration {
    (time * 10).max(Duration::from_secs(10))
}

/// Runs `validator` on every sample of `problem` (fed as the solution is fed, CRLF as LF), in
/// order. A sample is a legal input (BOJ's own, or a case stress saved after this validator, or
/// an earlier one, passed it), so the first one it refuses is an error that says the validator
/// is what is wrong, naming the sample and the validator's reason.
pub fn check_samples(problem: &Problem, validator: &Validator) -> Result<usize> {
    let samples = problem.samples()?;
    for sample in &samples {
        let fed = FedInput::of(sample)?;
        let Some(refusal) = validator.check(&fed.path)? else {
            continue;
        };
        bail!(
            "the validator {} refuses the sample {} ({}, {}):\n{}\na sample is a legal input \
             (BOJ's own, or a case stress saved after the validator passed it), so the \
             validator is what is wrong (or was changed since); nothing was judged",
            validator.name(),
            sample.name,
            shown(&sample.input, &problem.dir),
            refusal.exit,
            indent(refusal.reason_or_silence()),
        );
    }
    Ok(samples.len())
}

/// `path` from the workspace's root, as the other reports name a sample
/// (`problems/boj-1717/samples/2.in`); outside a workspace, from the problem's folder's parent
/// (`boj-1717/samples/2.in`).
fn shown(path: &Path, dir: &Path) -> String {
    let base = crate::workspace::members::root_of(dir)
        .unwrap_or_else(|| dir.parent().map_or_else(PathBuf::new, Path::to_path_buf));
    path.strip_prefix(&base)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Each line of `text` indented by four spaces, as reports quote what a helper said.
pub fn indent(text: &str) -> String {
    text.lines()
        .map(|line| format!("    {line}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::scratch::Scratch;
    use std::fs;

    /// A validator that is a shell script: `sh -c SCRIPT`, the input on its stdin.
    fn script(script: &str, time: Duration) -> Validator {
        Validator {
            program: Program {
                path: PathBuf::from("/bin/sh"),
                args: vec!["-c".into(), script.into()],
            },
            name: "test-validator".to_string(),
            // Its stdout goes unread (`Setup::stdout_unread`): no cap applies to it.
            limits: Limits::helper(time, 0),
        }
    }

    fn input(scratch: &Scratch, text: &str) -> PathBuf {
        let path = scratch.path().join("1.in");
        fs::write(&path, text).unwrap();
        path
    }

    /// testlib's convention: exit 0 accepts, any other status refuses with stderr's reason;
    /// the input is the validator's stdin.
    #[test]
    fn exit_zero_accepts_and_any_other_status_refuses_with_the_reason_on_stderr() {
        let scratch = Scratch::new("validate-test").unwrap();
        let second = Duration::from_secs(5);
        // Accepts exactly the inputs whose first line is a number from 1 to 9.
        let validator = script(
            r#"read n; case "$n" in [1-9]) exit 0;; *) echo "line 1: n = $n, not in 1..=9" >&2; exit 3;; esac"#,
            second,
        );
        assert_eq!(validator.check(&input(&scratch, "5\n")).unwrap(), None);
        let refusal = validator
            .check(&input(&scratch, "0\n"))
            .unwrap()
            .expect("refused");
        assert_eq!(refusal.exit, Exit::Code(3));
        assert_eq!(refusal.reason, "line 1: n = 0, not in 1..=9");
        // A refusal without a word still refuses, and says it gave no reason.
        let silent = script("exit 1", second);
        let refusal = silent.check(&input(&scratch, "5\n")).unwrap().unwrap();
        assert_eq!(refusal.reason_or_silence(), "(it gave no reason on stderr)");
    }

    /// A validator that is killed, or runs past its limit, has not judged the input: the
    /// tool's error, never a refusal or an acceptance.
    #[test]
    fn a_validator_that_crashes_or_hangs_is_an_error_not_a_verdict() {
        let scratch = Scratch::new("validate-test").unwrap();
        let path = input(&scratch, "5\n");
        let killed = script("echo dying >&2; kill -9 $$", Duration::from_secs(5));
        let err = killed.check(&path).unwrap_err().to_string();
        assert!(
            err.contains("the validator test-validator failed (killed by signal 9"),
            "{err}"
        );
        let hangs = script("sleep 5", Duration::from_millis(300));
        let err = hangs.check(&path).unwrap_err().to_string();
        assert!(
            err.contains(
                "the validator test-validator failed (killed at its limit on waiting of 300 ms)"
            ),
            "{err}"
        );
    }

    /// A probe's question: a validator too slow on an input has refused it, where `check`
    /// would call that the validator's error.
    #[test]
    fn a_probe_takes_a_validator_too_slow_for_a_refusal() {
        let scratch = Scratch::new("validate-test").unwrap();
        // Quick up to 100, then slow.
        let validator = script(
            r#"read n; if [ "$n" -gt 100 ]; then sleep 5; fi; exit 0"#,
            Duration::from_secs(1),
        );
        let quick = Duration::from_millis(300);
        assert!(validator
            .passes_within(&input(&scratch, "5\n"), quick)
            .unwrap());
        let slow = input(&scratch, "500\n");
        assert!(!validator.passes_within(&slow, quick).unwrap());
        assert!(validator.check(&slow).is_err());
        let refuses = script("exit 1", Duration::from_secs(1));
        assert!(!refuses
            .passes_within(&input(&scratch, "5\n"), quick)
            .unwrap());
    }

    #[test]
    fn a_validator_is_held_to_ten_times_the_limit_and_at_least_ten_seconds() {
        assert_eq!(helper_time(Duration::from_secs(1)), Duration::from_secs(10));
        assert_eq!(helper_time(Duration::from_secs(3)), Duration::from_secs(30));
    }
}
